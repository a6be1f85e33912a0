//! Engine throughput: random playouts per preset (2 and 4 players, one thread), counted in
//! decisions, and the batched environment stepping random legal actions.
//!
//! `cargo bench --bench engine`; criterion reports decisions (or env steps) per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use eights::action::ActionMask;
use eights::bots::RandomBot;
use eights::game::{Game, derive_seed};
use eights::rules::{Rules, preset_names};
use eights::vec_env::{Autoreset, Buffers, Config, Mode, VecEnv};
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
        for players in [2, 4] {
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

fn vec_env(c: &mut Criterion) {
    const N: usize = 4096;
    let mut group = c.benchmark_group("vec_env_4096");
    group.throughput(Throughput::Elements(N as u64));
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    let rules = Arc::new(Rules::load("crazy_eights", 2, None).unwrap());
    for threads in [1, 0] {
        for (name, mode) in [("learner", Mode::default()), ("self_play", Mode::SelfPlay)] {
            let cfg = Config {
                num_envs: N,
                num_threads: threads,
                autoreset: Autoreset::NextStep,
                mode,
                score_rewards: false,
            };
            let mut env = VecEnv::new(rules.clone(), cfg).unwrap();
            let mut buf = Buffers::<f32>::new(&env);
            env.reset(0, buf.outputs()).unwrap();
            let mut actions = vec![0i64; N];
            let label = if threads == 0 { "all_threads".to_string() } else { format!("{threads}_thread") };
            group.bench_function(format!("{name}/{label}"), |b| {
                b.iter(|| {
                    env.random_actions(&mut actions).unwrap();
                    env.step(&actions, buf.outputs()).unwrap();
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, engine, vec_env);
criterion_main!(benches);
