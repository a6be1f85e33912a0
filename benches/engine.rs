//! Engine throughput: random playouts per preset (2 players and the largest table, one
//! thread), counted in decisions; the observation encoder (`f32` and `u8`); and the batched
//! environment stepping random legal actions.
//!
//! `cargo bench --bench engine`; criterion reports decisions (or encodings, env steps) per
//! second. Filter with a name, e.g. `cargo bench --bench engine -- random_playout/zodiac`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use eights::action::ActionMask;
use eights::bots::RandomBot;
use eights::game::{Game, derive_seed};
use eights::observation::{self, OBS_SIZE};
use eights::rules::{Rules, load_spec, preset_names};
use eights::vec_env::{Autoreset, Buffers, Config, Mode, ObsValue, VecEnv};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

/// Decisions per measured iteration.
const DECISIONS: u64 = 100_000;

/// Play random games back to back for `DECISIONS` decisions.
fn playout(g: &mut Game, bot: &mut RandomBot, mask: &mut ActionMask, episode: &mut u64) {
    for _ in 0..DECISIONS {
        g.legal_actions(mask);
        match bot.pick(mask) {
            Some(a) => g.apply(a),
            None => {
                *episode += 1;
                g.reset(derive_seed(1, *episode), &[]).unwrap();
            }
        }
    }
}

fn engine(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_playout");
    group.throughput(Throughput::Elements(DECISIONS));
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    for preset in preset_names() {
        let spec = load_spec(preset, None).unwrap();
        let (lo, hi) = (spec.players.min.max(2) as usize, spec.players.max as usize);
        let mut tables = vec![lo, hi];
        tables.dedup();
        for players in tables {
            let rules = Arc::new(Rules::load(preset, players, None).unwrap());
            let mut g = Game::new(rules, derive_seed(1, 0));
            let mut bot = RandomBot::new(9);
            let mut mask = ActionMask::default();
            let mut episode = 0;
            group.bench_function(format!("{preset}/{players}p"), |b| {
                b.iter(|| playout(black_box(&mut g), &mut bot, &mut mask, &mut episode))
            });
        }
    }
    group.finish();
}

/// Positions of random crazy_eights games (2 and 4 players) to encode.
fn positions(players: usize) -> Vec<Game> {
    let rules = Arc::new(Rules::load("crazy_eights", players, None).unwrap());
    let mut g = Game::new(rules, derive_seed(3, 0));
    let mut bot = RandomBot::new(5);
    let mut mask = ActionMask::default();
    let mut out = Vec::new();
    let mut episode = 0;
    while out.len() < 256 {
        g.legal_actions(&mut mask);
        match bot.pick(&mask) {
            Some(a) => {
                out.push(g.clone());
                g.apply(a);
            }
            None => {
                episode += 1;
                g.reset(derive_seed(3, episode), &[]).unwrap();
            }
        }
    }
    out
}

fn encode_all<O: ObsValue>(games: &[Game], buf: &mut [O]) {
    for g in games {
        let p = g.current_player().unwrap();
        O::encode(g, p, buf);
        black_box(&mut *buf);
    }
}

fn encoder(c: &mut Criterion) {
    let mut group = c.benchmark_group("observation");
    group.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    for players in [2, 4] {
        let games = positions(players);
        group.throughput(Throughput::Elements(games.len() as u64));
        let mut f = vec![0f32; OBS_SIZE];
        group.bench_function(format!("f32/{players}p"), |b| {
            b.iter(|| {
                for g in &games {
                    observation::encode(g, g.current_player().unwrap(), &mut f);
                    black_box(&mut f);
                }
            })
        });
        let mut u = vec![0u8; OBS_SIZE];
        group.bench_function(format!("u8/{players}p"), |b| b.iter(|| encode_all::<u8>(&games, &mut u)));
    }
    group.finish();
}

fn vec_env(c: &mut Criterion) {
    let mut group = c.benchmark_group("vec_env");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    let rules = Arc::new(Rules::load("crazy_eights", 2, None).unwrap());
    for n in [1024, 4096, 16384] {
        group.throughput(Throughput::Elements(n as u64));
        for threads in [1, 2] {
            for (name, mode) in [("learner", Mode::default()), ("self_play", Mode::SelfPlay)] {
                let cfg = Config {
                    num_envs: n,
                    num_threads: threads,
                    autoreset: Autoreset::NextStep,
                    mode,
                    score_rewards: false,
                };
                let mut env = VecEnv::new(rules.clone(), cfg).unwrap();
                let mut buf = Buffers::<f32>::new(&env);
                env.reset(0, buf.outputs()).unwrap();
                let mut actions = vec![0i64; n];
                group.bench_function(format!("{name}/b{n}/{threads}t"), |b| {
                    b.iter(|| {
                        env.random_actions(&mut actions).unwrap();
                        env.step(&actions, buf.outputs()).unwrap();
                    })
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, engine, encoder, vec_env);
criterion_main!(benches);
