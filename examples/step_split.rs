//! Self-play steps of a `VecEnv` on 1, 2, 4, ... threads without Python: how a step's time
//! splits between the random actions and the step itself, and how each part scales. Beside
//! `benchmarks/throughput.py --thread-sweep` (the same loop from Python), the difference
//! is the Python side's share; the random actions, about a tenth of a step's work on one
//! thread, show what a call on the threads costs when its work is small.
//!
//! `cargo run --release --example step_split -- [max_threads] [rounds] [seconds_per_cell]
//! [batch...]` (defaults: the machine's cores, 3 rounds, 0.5 s, batches of 4096 and 16384). Rounds alternate the thread counts, and
//! each cell reports its best round. Self-play, `crazy_eights`, 2 players, float32 rows.
//!
//! The `apart` column is the ceiling of the same work on those threads: each thread steps its own
//! one-thread `VecEnv` of `batch / threads` games, started together, with no call shared between
//! them (no hand-offs, no stealing). `crew / apart` is what the shared batch keeps of it; where
//! `apart` itself stays under the thread count, the machine (its clock with every core busy, its
//! caches and memory) sets the limit, not the batch's threads.

use eights::rules::Rules;
use eights::vec_env::{Buffers, Config, Mode, VecEnv};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

/// Microseconds a call of (random actions, step), and the decisions a second.
fn cell(env: &mut VecEnv, buf: &mut Buffers<f32>, actions: &mut [i64], seconds: f64) -> (f64, f64, f64) {
    let (mut ta, mut ts, mut steps) = (Duration::ZERO, Duration::ZERO, 0u32);
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < seconds {
        let t0 = Instant::now();
        env.random_actions(actions).unwrap();
        let t1 = Instant::now();
        env.step(actions, buf.outputs()).unwrap();
        ts += t1.elapsed();
        ta += t1 - t0;
        steps += 1;
    }
    let n = f64::from(steps.max(1));
    let (a, s) = (ta.as_secs_f64() * 1e6 / n, ts.as_secs_f64() * 1e6 / n);
    (a, s, actions.len() as f64 / ((a + s) * 1e-6))
}

/// Decisions a second of `threads` one-thread `VecEnv`s of `batch / threads` games each (the
/// first ones a game more where it does not divide), each stepped on a thread of its own.
fn apart(rules: &Arc<Rules>, batch: usize, threads: usize, seconds: f64) -> f64 {
    let barrier = Barrier::new(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                let (rules, barrier) = (rules.clone(), &barrier);
                let n = batch / threads + usize::from(i < batch % threads);
                scope.spawn(move || {
                    let cfg = Config { num_envs: n, num_threads: 1, mode: Mode::SelfPlay, ..Config::new(n) };
                    let mut env = VecEnv::new(rules, cfg).unwrap();
                    let mut buf = Buffers::new(&env);
                    env.reset(i as u64, buf.outputs()).unwrap();
                    let mut actions = vec![0; n];
                    barrier.wait();
                    cell(&mut env, &mut buf, &mut actions, seconds).2
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max_threads: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(cores);
    let rounds: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let seconds: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0.5);
    let threads: Vec<usize> = std::iter::successors(Some(1), |&t| Some(t * 2))
        .take_while(|&t| t < max_threads)
        .chain([max_threads])
        .collect();
    let batches: Vec<usize> = args.iter().skip(3).filter_map(|s| s.parse().ok()).collect();
    let batches = if batches.is_empty() { vec![4096, 16384] } else { batches };
    let rules = Arc::new(Rules::load("crazy_eights", 2, None).unwrap());
    println!("{cores} cores; best of {rounds} rounds of {seconds} s a cell; microseconds a step");
    println!(
        "| batch | threads | random actions | step | decisions a second | over 1 thread | apart | apart over 1 | crew / apart |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for n in batches {
        let mut envs: Vec<(VecEnv, Buffers<f32>, Vec<i64>)> = threads
            .iter()
            .map(|&t| {
                let cfg = Config { num_envs: n, num_threads: t, mode: Mode::SelfPlay, ..Config::new(n) };
                let mut env = VecEnv::new(rules.clone(), cfg).unwrap();
                let mut buf = Buffers::new(&env);
                env.reset(0, buf.outputs()).unwrap();
                (env, buf, vec![0; n])
            })
            .collect();
        let mut best = vec![(0.0, 0.0, 0.0); threads.len()];
        let mut best_apart = vec![0.0f64; threads.len()];
        for _ in 0..rounds {
            for (k, (env, buf, actions)) in envs.iter_mut().enumerate() {
                let c = cell(env, buf, actions, seconds);
                if c.2 > best[k].2 {
                    best[k] = c;
                }
                best_apart[k] = best_apart[k].max(apart(&rules, n, threads[k], seconds));
            }
        }
        for (k, &t) in threads.iter().enumerate() {
            let (a, s, rate) = best[k];
            let (free, one) = (best_apart[k], best[0].2);
            println!(
                "| {n} | {t} | {a:.1} | {s:.1} | {:.2} M | {:.2} | {:.2} M | {:.2} | {:.2} |",
                rate / 1e6,
                rate / one,
                free / 1e6,
                free / one,
                rate / free
            );
        }
    }
}
