//! What bounds the large-batch ratio (VecEnv self-play b=16384 against b=1024, per thread):
//! the output rows or the game state. Timed, so run it on a quiet machine and compare the
//! ratios, not the absolute figures.
//!
//! `cargo run --release --example batch_bounds -- [threads] [f32|u8] [rounds]`
//!
//! Four ways of stepping, `crazy_eights` with 2 players, random legal actions, ns per game-step:
//!
//! | variant | game state | output rows |
//! |---|---|---|
//! | `small` | 1,024 games | one set of 1,024 rows |
//! | `rows` | the same 1,024 games | 16 sets of 1,024 rows, a different set each step |
//! | `state` | 16 VecEnvs of 1,024 games, a different one each step | one set of 1,024 rows |
//! | `large` | 16,384 games | one set of 16,384 rows |
//!
//! `rows` moves the output rows through the caches exactly as `large` does (each row is written
//! once per 16,384 game-steps) while the state stays as cache-resident as in `small`: its ratio
//! to `small` is the best any layout of the game state could reach. `state` is the converse:
//! the bound for any way of writing the rows.

use eights::rules::Rules;
use eights::vec_env::{Buffers, Config, Mode, ObsValue, VecEnv};
use std::sync::Arc;
use std::time::Instant;

const SMALL: usize = 1024;
const COPIES: usize = 16;
const GAME_STEPS: usize = 3_000_000;

/// ns per game-step of `envs` VecEnvs of `batch` games each, stepped in turn, writing into
/// `sets` buffer sets in turn.
fn time<O: ObsValue + Default>(rules: &Arc<Rules>, threads: usize, envs: usize, sets: usize, batch: usize) -> f64 {
    let mut es: Vec<VecEnv> = (0..envs)
        .map(|_| {
            let cfg = Config { num_envs: batch, num_threads: threads, mode: Mode::SelfPlay, ..Config::new(batch) };
            VecEnv::new(rules.clone(), cfg).expect("a valid configuration")
        })
        .collect();
    let mut bufs: Vec<Buffers<O>> = (0..sets).map(|_| Buffers::new(&es[0])).collect();
    for (i, e) in es.iter_mut().enumerate() {
        e.reset(i as u64, bufs[0].outputs()).expect("buffers sized for the env");
    }
    let mut actions = vec![0i64; batch];
    let mut k = 0;
    let mut step = |k: &mut usize| {
        let (e, b) = (&mut es[*k % envs], &mut bufs[*k % sets]);
        e.random_actions(&mut actions).expect("an action per env");
        e.step(&actions, b.outputs()).expect("legal actions");
        *k += 1;
    };
    // Warm up: every env and every buffer set touched at least twice.
    for _ in 0..(2 * envs.max(sets)).max(GAME_STEPS / batch / 10) {
        step(&mut k);
    }
    let steps = GAME_STEPS / batch;
    let t = Instant::now();
    for _ in 0..steps {
        step(&mut k);
    }
    t.elapsed().as_nanos() as f64 / (steps * batch) as f64
}

/// The median, the least and the greatest of `v`.
fn spread(v: &[f64]) -> (f64, f64, f64) {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

fn run<O: ObsValue + Default>(threads: usize, rounds: usize) {
    let rules = Arc::new(Rules::load("crazy_eights", 2, None).expect("a preset"));
    let names = ["small", "rows", "state", "large"];
    let mut ns: [Vec<f64>; 4] = Default::default();
    let mut ratio: [Vec<f64>; 3] = Default::default();
    for round in 0..rounds {
        let t = [
            time::<O>(&rules, threads, 1, 1, SMALL),
            time::<O>(&rules, threads, 1, COPIES, SMALL),
            time::<O>(&rules, threads, COPIES, 1, SMALL),
            time::<O>(&rules, threads, 1, 1, SMALL * COPIES),
        ];
        print!("round {round}:");
        for (i, x) in t.iter().enumerate() {
            ns[i].push(*x);
            print!("  {} {x:.0} ns", names[i]);
            if i > 0 {
                ratio[i - 1].push(t[0] / x);
                print!(" ({:.2})", t[0] / x);
            }
        }
        println!();
    }
    println!("median over {rounds} rounds, ns per game-step (ratio to small):");
    for i in 0..4 {
        let (mid, lo, hi) = spread(&ns[i]);
        print!("  {:<6} {mid:>4.0} ns ({lo:.0} to {hi:.0})", names[i]);
        if i > 0 {
            let (mid, lo, hi) = spread(&ratio[i - 1]);
            print!("  ratio {mid:.2} ({lo:.2} to {hi:.2})");
        }
        println!();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads = args.first().and_then(|s| s.parse().ok()).unwrap_or(1);
    let rounds = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    match args.get(1).map_or("f32", String::as_str) {
        "u8" => run::<u8>(threads, rounds),
        "f32" => run::<f32>(threads, rounds),
        other => panic!("second argument: f32 or u8, not {other}"),
    }
}
