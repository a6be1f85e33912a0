//! Rollout policy improvement over a `net` policy (determinized Monte Carlo with the network as
//! the playout policy), as a teacher for the network: expert iteration's data step.
//!
//! At a decision with two or more legal actions the teacher samples `worlds` determinizations
//! of the hidden cards for the player to act, tries every legal action in each and plays every
//! copy out with the network's greedy policy for all seats, batched: all playouts of a decision
//! advance in lockstep, one forward pass per step. Results are paired world by world (common
//! random numbers, as in `bots/pimc.rs`): the teacher keeps the network's own choice unless
//! another action beats it by more than `pimc::SIGNIFICANCE` standard errors of the paired mean
//! ([`PairedAdvantage`]).
//!
//! `eval`: duplicate deals of the teacher against a built-in bot (`net` there is the shipped
//! network, whatever `WEIGHTS` is), win rate of the teacher with a 95% interval over deals.
//! `data`: games of the network (greedy, on its own state distribution) against a mix of
//! opponents; every network decision with a choice is labelled by the teacher. Writes `.npy`
//! files: `obs` (f32, `[N, OBS_SIZE]`), `mask` (u8, `[N, NUM_ACTIONS]`), `q` (f32, mean
//! playout result per action, -1 where illegal), `base` and `teacher` (i64 actions).
//!
//! Measured on `crazy_eights` with the shipped network (README, "The learned bot `net`"): the
//! teacher is no stronger than the network it searches over, so it is not a teacher to imitate.
//!
//! ```text
//! cargo run --release --manifest-path research/net_teacher/Cargo.toml -- eval WEIGHTS PRESET WORLDS DEALS SEED OPPONENT
//! cargo run --release --manifest-path research/net_teacher/Cargo.toml -- data WEIGHTS PRESET WORLDS GAMES SEED OUTDIR OPP1,OPP2,..
//! ```

use eights::action::{ActionMask, NUM_ACTIONS};
use eights::bots::BotSpec;
use eights::bots::arena::deal_seed;
use eights::bots::net1::{Net1Scratch, Net1Weights, NetPolicy};
use eights::bots::pimc::PairedAdvantage;
use eights::game::{Game, derive_seed};
use eights::observation::{OBS_SIZE, encode};
use eights::rules::Rules;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use std::io::Write;
use std::sync::Arc;

const PLAYOUT_LIMIT: u32 = 500;

struct Teacher<'a> {
    net: &'a NetPolicy,
    worlds: u32,
    rng: Xoshiro256PlusPlus,
    scratch: Net1Scratch,
    playouts: Vec<Game>,
    live: Vec<usize>,
    paired: PairedAdvantage,
}

struct Label {
    base: usize,
    teacher: usize,
    q: Vec<(usize, f64)>,
}

impl<'a> Teacher<'a> {
    fn new(net: &'a NetPolicy, worlds: u32, seed: u64) -> Self {
        Teacher {
            net,
            worlds,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            scratch: Net1Scratch::default(),
            playouts: Vec::new(),
            live: Vec::new(),
            paired: PairedAdvantage::default(),
        }
    }

    fn greedy(&mut self, g: &Game) -> Option<usize> {
        self.net.act_games_into(std::iter::once(g), &mut self.scratch)[0]
    }

    fn label(&mut self, g: &Game) -> Option<Label> {
        let me = g.current_player()?;
        let mut m = ActionMask::default();
        g.legal_actions(&mut m);
        if m.len() <= 1 {
            return None;
        }
        let acts: Vec<usize> = m.iter().collect();
        let base_action = self.greedy(g)?;
        let base = acts.iter().position(|&a| a == base_action).expect("the network picks a legal action");
        self.playouts.clear();
        for _ in 0..self.worlds {
            let w = g.determinize(me, &mut self.rng);
            for &a in &acts {
                let mut d = w.clone();
                d.apply(a);
                self.playouts.push(d);
            }
        }
        for _ in 0..PLAYOUT_LIMIT {
            self.live.clear();
            self.live.extend((0..self.playouts.len()).filter(|&i| self.playouts[i].current_player().is_some()));
            if self.live.is_empty() {
                break;
            }
            let playouts = &self.playouts;
            let answers = self.net.act_games_into(self.live.iter().map(|&i| &playouts[i]), &mut self.scratch);
            for (&i, a) in self.live.iter().zip(answers) {
                self.playouts[i].apply(a.expect("a live game has a legal action"));
            }
        }
        let n = g.num_players() as f64;
        let k = acts.len();
        let reward: Vec<f64> = self
            .playouts
            .iter()
            .map(|d| match (d.is_terminal(), d.winner()) {
                (true, Some(x)) => f64::from(x == me),
                _ => 1.0 / n,
            })
            .collect();
        let w = self.worlds as f64;
        let mut q = vec![0.0f64; k];
        self.paired.reset(k);
        for world in reward.chunks(k) {
            for (s, r) in q.iter_mut().zip(world) {
                *s += r;
            }
            self.paired.add_world(world, base);
        }
        Some(Label {
            base: base_action,
            teacher: acts[self.paired.best(base)],
            q: acts.iter().zip(&q).map(|(&a, &s)| (a, s / w)).collect(),
        })
    }

    fn act(&mut self, g: &Game) -> Option<usize> {
        match self.label(g) {
            Some(l) => Some(l.teacher),
            None => {
                let mut m = ActionMask::default();
                g.legal_actions(&mut m);
                m.nth(0)
            }
        }
    }
}

fn npy(path: &str, descr: &str, shape: &[usize], bytes: &[u8]) {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut f = std::fs::File::create(path).expect("create output file");
    f.write_all(b"\x93NUMPY\x01\x00").unwrap();
    f.write_all(&(header.len() as u16).to_le_bytes()).unwrap();
    f.write_all(header.as_bytes()).unwrap();
    f.write_all(bytes).unwrap();
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let wanted = match args.first().map(String::as_str) {
        Some("eval") => 7,
        Some("data") => 8,
        _ => usize::MAX,
    };
    if args.len() != wanted {
        eprintln!(
            "usage: net_teacher eval WEIGHTS PRESET WORLDS DEALS SEED OPPONENT\n       \
             net_teacher data WEIGHTS PRESET WORLDS GAMES SEED OUTDIR OPP1,OPP2,.."
        );
        std::process::exit(2);
    }
    let mode = args[0].as_str();
    let bytes = std::fs::read(&args[1]).expect("a weights file");
    let weights = Net1Weights::parse(&bytes).expect("valid weights");
    let preset = args[2].as_str();
    let net = weights.by_name(preset).expect("a preset of the file");
    let worlds: u32 = args[3].parse().unwrap();
    let count: u64 = args[4].parse().unwrap();
    let seed: u64 = args[5].parse().unwrap();
    let rules = Arc::new(Rules::load(preset, 2, None).unwrap());
    let t0 = std::time::Instant::now();
    match mode {
        "eval" => {
            let opp = BotSpec::parse(&args[6]).unwrap();
            let wins: Vec<f64> = (0..count)
                .into_par_iter()
                .map(|d| {
                    let mut s = 0.0;
                    for rot in 0..2usize {
                        let mut g = Game::new(rules.clone(), deal_seed(seed, d));
                        let mut t = Teacher::new(net, worlds, derive_seed(seed ^ 0x7ea, d * 2 + rot as u64));
                        let mut o = opp.build(derive_seed(seed ^ 0x0bb, d * 2 + rot as u64));
                        // Teacher in seat `rot`.
                        while let Some(p) = g.current_player() {
                            let a = if p == rot { t.act(&g) } else { o.act(&g) };
                            g.apply(a.expect("a legal action"));
                        }
                        s += match g.winner() {
                            Some(w) => f64::from(w == rot),
                            None => 0.5,
                        };
                    }
                    s / 2.0
                })
                .collect();
            let n = wins.len() as f64;
            let mean = wins.iter().sum::<f64>() / n;
            let var = wins.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
            let half = 1.96 * (var / n).sqrt();
            println!(
                "teacher(worlds={worlds}) vs {}: {mean:.3} [{:.3}, {:.3}] over {count} deals, {:.1} s",
                args[6],
                mean - half,
                mean + half,
                t0.elapsed().as_secs_f64()
            );
        }
        "data" => {
            let out = args[6].as_str();
            let opps: Vec<BotSpec> = args[7].split(',').map(|s| BotSpec::parse(s).unwrap()).collect();
            std::fs::create_dir_all(out).unwrap();
            type Row = (Vec<f32>, Vec<u8>, Vec<f32>, i64, i64);
            let rows: Vec<Row> = (0..count)
                .into_par_iter()
                .flat_map_iter(|d| {
                    let me = (d % 2) as usize;
                    let mut g = Game::new(rules.clone(), deal_seed(seed, d));
                    let mut t = Teacher::new(net, worlds, derive_seed(seed ^ 0x7ea, d));
                    let mut o = opps[(d / 2) as usize % opps.len()].build(derive_seed(seed ^ 0x0bb, d));
                    let mut rows = Vec::new();
                    while let Some(p) = g.current_player() {
                        let a = if p == me {
                            match t.label(&g) {
                                Some(l) => {
                                    let mut obs = vec![0f32; OBS_SIZE];
                                    encode(&g, me, &mut obs);
                                    let mut mask = vec![0u8; NUM_ACTIONS];
                                    let mut q = vec![-1f32; NUM_ACTIONS];
                                    for &(a, v) in &l.q {
                                        mask[a] = 1;
                                        q[a] = v as f32;
                                    }
                                    rows.push((obs, mask, q, l.base as i64, l.teacher as i64));
                                    Some(l.base)
                                }
                                None => t.greedy(&g),
                            }
                        } else {
                            o.act(&g)
                        };
                        g.apply(a.expect("a legal action"));
                    }
                    rows
                })
                .collect();
            let n = rows.len();
            let flat = |f: &dyn Fn(&Row) -> Vec<u8>| rows.iter().flat_map(f).collect::<Vec<u8>>();
            npy(
                &format!("{out}/obs.npy"),
                "<f4",
                &[n, OBS_SIZE],
                &flat(&|r| r.0.iter().flat_map(|x| x.to_le_bytes()).collect()),
            );
            npy(&format!("{out}/mask.npy"), "|u1", &[n, NUM_ACTIONS], &flat(&|r| r.1.clone()));
            npy(
                &format!("{out}/q.npy"),
                "<f4",
                &[n, NUM_ACTIONS],
                &flat(&|r| r.2.iter().flat_map(|x| x.to_le_bytes()).collect()),
            );
            npy(&format!("{out}/base.npy"), "<i8", &[n], &flat(&|r| r.3.to_le_bytes().to_vec()));
            npy(&format!("{out}/teacher.npy"), "<i8", &[n], &flat(&|r| r.4.to_le_bytes().to_vec()));
            let flips = rows.iter().filter(|r| r.3 != r.4).count();
            println!(
                "{n} labelled decisions from {count} games, {flips} where the teacher differs ({:.1}%), {:.1} s",
                100.0 * flips as f64 / n.max(1) as f64,
                t0.elapsed().as_secs_f64()
            );
        }
        _ => panic!("mode must be eval or data"),
    }
}
