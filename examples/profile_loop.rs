//! A fixed amount of engine or VecEnv work, for profilers (callgrind, perf) rather than
//! timing: the instruction counts of a run are repeatable.
//!
//! `cargo run --release --example profile_loop -- engine crazy_eights 2 200000`
//! `cargo run --release --example profile_loop -- vec crazy_eights 2 4096 50 [threads] [u8]`
//! `cargo run --release --example profile_loop -- net crazy_eights 2 256 200` (the `net` bot
//! deciding for every seat of 256 games, 200 batched passes; `EIGHTS_NET_WEIGHTS` picks the file)

use eights::action::ActionMask;
use eights::bots::RandomBot;
use eights::bots::net::{NetScratch, weights};
use eights::game::{Game, derive_seed};
use eights::rules::Rules;
use eights::vec_env::{Buffers, Config, Mode, ObsValue, VecEnv};
use std::sync::Arc;

fn arg<T: std::str::FromStr>(args: &[String], i: usize, default: T) -> T {
    args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn vec_run<O: ObsValue + Default>(rules: Arc<Rules>, n: usize, steps: usize, threads: usize) -> u64 {
    let cfg = Config { num_envs: n, num_threads: threads, mode: Mode::SelfPlay, ..Config::new(n) };
    let mut env = VecEnv::new(rules, cfg).unwrap();
    let mut buf = Buffers::<O>::new(&env);
    env.reset(0, buf.outputs()).unwrap();
    let mut actions = vec![0i64; n];
    for _ in 0..steps {
        env.random_actions(&mut actions).unwrap();
        env.step(&actions, buf.outputs()).unwrap();
    }
    buf.to_act.iter().map(|&x| x as u64).sum()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map_or("engine", String::as_str);
    let preset = args.get(1).map_or("crazy_eights", String::as_str);
    let players: usize = arg(&args, 2, 2);
    let rules = Arc::new(Rules::load(preset, players, None).expect("a preset and a valid player count"));
    match what {
        "engine" => {
            let decisions: u64 = arg(&args, 3, 200_000);
            let mut g = Game::new(rules, derive_seed(1, 0));
            let mut bot = RandomBot::new(9);
            let mut mask = ActionMask::default();
            let mut episode = 0;
            for _ in 0..decisions {
                g.legal_actions(&mut mask);
                match bot.pick(&mask) {
                    Some(a) => g.apply(a),
                    None => {
                        episode += 1;
                        g.reset(derive_seed(1, episode), &[]).unwrap();
                    }
                }
            }
            println!("{episode} episodes");
        }
        "vec" => {
            let n: usize = arg(&args, 3, 4096);
            let steps: usize = arg(&args, 4, 50);
            let threads: usize = arg(&args, 5, 1);
            let check = if args.get(6).is_some_and(|s| s == "u8") {
                vec_run::<u8>(rules, n, steps, threads)
            } else {
                vec_run::<f32>(rules, n, steps, threads)
            };
            println!("{check}");
        }
        "net" => {
            let n: usize = arg(&args, 3, 256);
            let passes: usize = arg(&args, 4, 200);
            let net = weights().expect("the net weights");
            let mut games: Vec<Game> = (0..n).map(|k| Game::new(rules.clone(), derive_seed(2, k as u64))).collect();
            let mut scratch = NetScratch::default();
            let mut dealt = n as u64;
            for _ in 0..passes {
                let acts = net.act_games_into(games.iter(), &mut scratch).to_vec();
                for (g, a) in games.iter_mut().zip(acts) {
                    match a {
                        Some(a) => g.apply(a),
                        None => {
                            dealt += 1;
                            g.reset(derive_seed(2, dealt), &[]).unwrap();
                        }
                    }
                }
            }
            println!("{dealt} games dealt");
        }
        _ => panic!("first argument: engine, vec or net"),
    }
}
