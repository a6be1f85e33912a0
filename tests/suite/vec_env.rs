//! The batched environment against a reference that steps the same seeded games one by one
//! through `Game`, plus thread-count determinism, autoreset, truncation and input errors.

use eights::action::{ActionMask, NUM_ACTIONS};
use eights::bots::{BotSpec, RandomBot};
use eights::game::Game;
use eights::observation::{self, OBS_SIZE};
use eights::rules::Rules;
use eights::vec_env::{
    Autoreset, Buffers, Config, Mode, Opponents, ResetSeeds, VecEnv, VecEnvError, episode_seed, opponent_seed,
    sampler_seed,
};
use serde_json::json;
use std::sync::Arc;

fn rules(preset: &str, n: usize) -> Arc<Rules> {
    Arc::new(Rules::load(preset, n, None).unwrap())
}

fn env(r: &Arc<Rules>, num_envs: usize, threads: usize, autoreset: Autoreset, mode: Mode) -> VecEnv {
    let cfg = Config { num_envs, num_threads: threads, autoreset, mode, score_rewards: false };
    VecEnv::new(r.clone(), cfg).unwrap()
}

/// One game stepped by hand with the documented seeds and semantics.
struct Reference {
    game: Game,
    opponent: RandomBot,
    sampler: RandomBot,
    seed: u64,
    index: u64,
    episodes: u64,
    pending: bool,
    last_actor: usize,
}

/// What a step shows for one game.
#[derive(Debug, PartialEq)]
struct View {
    obs: Vec<f32>,
    mask: Vec<bool>,
    rewards: Vec<f32>,
    terminated: bool,
    truncated: bool,
    to_act: i32,
    final_obs: Option<Vec<f32>>,
}

impl Reference {
    fn new(r: &Arc<Rules>, seed: u64, i: u64, mode: Mode) -> Reference {
        let mut x = Reference {
            game: Game::new(r.clone(), 0),
            opponent: RandomBot::new(opponent_seed(seed, i)),
            sampler: RandomBot::new(sampler_seed(seed, i)),
            seed,
            index: i,
            episodes: 0,
            pending: false,
            last_actor: 0,
        };
        x.deal(mode);
        x
    }

    fn learner(mode: Mode) -> Option<usize> {
        match mode {
            Mode::Learner { seat, .. } => Some(seat),
            Mode::SelfPlay => None,
        }
    }

    fn deal(&mut self, mode: Mode) {
        self.game.reset(episode_seed(self.seed, self.index, self.episodes), &[]).unwrap();
        self.episodes += 1;
        self.pending = false;
        self.bots(mode);
        assert!(!self.game.is_terminal(), "no test deal ends before the learner acts");
    }

    fn bots(&mut self, mode: Mode) {
        if let Mode::Learner { seat, opponents: Opponents::Random } = mode {
            while let Some(p) = self.game.current_player().filter(|&p| p != seat) {
                let a = self.opponent.act(&self.game).unwrap();
                self.last_actor = p;
                self.game.step(a).unwrap();
            }
        }
    }

    fn mask(&self) -> ActionMask {
        let mut m = ActionMask::default();
        self.game.legal_actions(&mut m);
        m
    }

    fn random_action(&mut self) -> i64 {
        if self.pending { 0 } else { self.sampler.pick(&self.mask()).unwrap() as i64 }
    }

    fn view(&self, mode: Mode, rewards: Vec<f32>, final_obs: Option<Vec<f32>>) -> View {
        let seat = self.game.current_player().unwrap_or_else(|| Self::learner(mode).unwrap_or(self.last_actor));
        let mut obs = vec![0f32; OBS_SIZE];
        observation::encode(&self.game, seat, &mut obs);
        let m = self.mask();
        View {
            obs,
            mask: (0..NUM_ACTIONS).map(|a| m.contains(a)).collect(),
            rewards,
            terminated: self.game.is_terminal(),
            truncated: self.game.is_truncated(),
            to_act: self.game.current_player().map_or(-1, |p| p as i32),
            final_obs,
        }
    }

    fn step(&mut self, action: i64, mode: Mode, autoreset: Autoreset) -> View {
        let width = if mode == Mode::SelfPlay { self.game.num_players() } else { 1 };
        let zero = vec![0f32; width];
        if self.pending {
            self.deal(mode);
            return self.view(mode, zero, None);
        }
        self.last_actor = self.game.current_player().unwrap();
        self.game.step(action as usize).unwrap();
        self.bots(mode);
        if !(self.game.is_terminal() || self.game.is_truncated()) {
            return self.view(mode, zero, None);
        }
        let mut ret = vec![0f64; self.game.num_players()];
        self.game.returns(&mut ret, false);
        let rewards: Vec<f32> = match Self::learner(mode) {
            Some(s) => vec![ret[s] as f32],
            None => ret.iter().map(|&x| x as f32).collect(),
        };
        match autoreset {
            Autoreset::NextStep => {
                self.pending = true;
                self.view(mode, rewards, None)
            }
            Autoreset::SameStep => {
                let fin = self.view(mode, vec![], None).obs;
                let (term, trunc) = (self.game.is_terminal(), self.game.is_truncated());
                self.deal(mode);
                let mut v = self.view(mode, rewards, Some(fin));
                v.terminated = term;
                v.truncated = trunc;
                v
            }
        }
    }
}

fn row(b: &Buffers<f32>, i: usize, width: usize, with_final: bool) -> View {
    View {
        obs: b.obs[i * OBS_SIZE..(i + 1) * OBS_SIZE].to_vec(),
        mask: b.mask[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS].to_vec(),
        rewards: b.rewards[i * width..(i + 1) * width].to_vec(),
        terminated: b.terminated[i],
        truncated: b.truncated[i],
        to_act: b.to_act[i],
        final_obs: with_final.then(|| b.final_obs[i * OBS_SIZE..(i + 1) * OBS_SIZE].to_vec()),
    }
}

/// Step `num_envs` games through the batch and through references; compare every output.
fn check_against_reference(preset: &str, players: usize, mode: Mode, autoreset: Autoreset, steps: usize) {
    let r = rules(preset, players);
    let n = 12;
    let seed = 42;
    let mut e = env(&r, n, 2, autoreset, mode);
    let width = e.reward_width();
    let mut b = Buffers::<f32>::new(&e);
    e.reset(seed, b.outputs()).unwrap();
    let mut refs: Vec<Reference> = (0..n).map(|i| Reference::new(&r, seed, i as u64, mode)).collect();
    for (i, x) in refs.iter().enumerate() {
        assert_eq!(row(&b, i, width, false), x.view(mode, vec![0.0; width], None), "{preset} reset env {i}");
    }
    let mut actions = vec![0i64; n];
    let mut episodes_ended = 0;
    for t in 0..steps {
        e.random_actions(&mut actions).unwrap();
        for (i, x) in refs.iter_mut().enumerate() {
            assert_eq!(actions[i], x.random_action(), "{preset} step {t} env {i}: random action");
        }
        e.step(&actions, b.outputs()).unwrap();
        for (i, x) in refs.iter_mut().enumerate() {
            let want = x.step(actions[i], mode, autoreset);
            let ended = want.terminated || want.truncated;
            episodes_ended += ended as usize;
            let same_step_end = autoreset == Autoreset::SameStep && ended;
            assert_eq!(row(&b, i, width, same_step_end), want, "{preset} {mode:?} {autoreset:?} step {t} env {i}");
        }
    }
    assert!(episodes_ended >= n, "the run covers autoresets ({episodes_ended} episodes ended)");
}

const LEARNER: Mode = Mode::Learner { seat: 0, opponents: Opponents::Random };

#[test]
fn learner_mode_matches_games_stepped_one_by_one() {
    for (preset, players) in
        [("crazy_eights", 2), ("crazy_eights", 4), ("switch_blackjack", 3), ("crazy_eights_xtreme", 2)]
    {
        check_against_reference(preset, players, LEARNER, Autoreset::NextStep, 800);
    }
    let seat2 = Mode::Learner { seat: 2, opponents: Opponents::Random };
    check_against_reference("crazy_eights_specials", 3, seat2, Autoreset::NextStep, 800);
}

#[test]
fn self_play_matches_games_stepped_one_by_one() {
    check_against_reference("crazy_eights", 2, Mode::SelfPlay, Autoreset::NextStep, 1500);
    check_against_reference("crazy_eights_specials", 4, Mode::SelfPlay, Autoreset::SameStep, 1500);
}

#[test]
fn same_step_autoreset_matches_games_stepped_one_by_one() {
    check_against_reference("crazy_eights", 2, LEARNER, Autoreset::SameStep, 800);
    check_against_reference("switch_blackjack", 4, LEARNER, Autoreset::SameStep, 800);
}

#[test]
fn a_partial_reset_with_seeds_per_game_deals_the_marked_games_and_leaves_the_others() {
    let (r, n, mode) = (rules("crazy_eights", 2), 12, LEARNER);
    for threads in [1, 3] {
        let mut e = env(&r, n, threads, Autoreset::NextStep, mode);
        let mut b = Buffers::<f32>::new(&e);
        let mask: Vec<bool> = (0..n).map(|i| i % 3 == 1).collect();
        assert!(matches!(e.reset_games(ResetSeeds::Batch(1), Some(&mask), b.outputs()), Err(VecEnvError::NotReset)));
        e.reset(42, b.outputs()).unwrap();
        let mut refs: Vec<Reference> = (0..n).map(|i| Reference::new(&r, 42, i as u64, mode)).collect();
        let mut actions = vec![0i64; n];
        for _ in 0..15 {
            e.random_actions(&mut actions).unwrap();
            e.step(&actions, b.outputs()).unwrap();
            for (i, x) in refs.iter_mut().enumerate() {
                assert_eq!(actions[i], x.random_action());
                x.step(actions[i], mode, Autoreset::NextStep);
            }
        }
        let before: Vec<View> = (0..n).map(|i| row(&b, i, 1, false)).collect();
        let seeds: Vec<u64> = (0..n as u64).map(|i| 1000 + i % 2).collect();
        let short = e.reset_games(ResetSeeds::PerGame(&seeds[1..]), Some(&mask), b.outputs());
        assert!(matches!(short, Err(VecEnvError::Length { what: "seeds", .. })));
        let short = e.reset_games(ResetSeeds::PerGame(&seeds), Some(&mask[1..]), b.outputs());
        assert!(matches!(short, Err(VecEnvError::Length { what: "reset_mask", .. })));
        e.reset_games(ResetSeeds::PerGame(&seeds), Some(&mask), b.outputs()).unwrap();
        for i in 0..n {
            if mask[i] {
                // Game i is dealt as game 0 of a batch reset with seeds[i].
                refs[i] = Reference::new(&r, seeds[i], 0, mode);
                assert_eq!(row(&b, i, 1, false), refs[i].view(mode, vec![0.0], None), "threads {threads} game {i}");
            } else {
                assert_eq!(row(&b, i, 1, false), before[i], "threads {threads}: unmarked game {i} untouched");
            }
        }
        for t in 0..60 {
            e.random_actions(&mut actions).unwrap();
            e.step(&actions, b.outputs()).unwrap();
            for (i, x) in refs.iter_mut().enumerate() {
                assert_eq!(actions[i], x.random_action(), "threads {threads} step {t} game {i}");
                assert_eq!(row(&b, i, 1, false), x.step(actions[i], mode, Autoreset::NextStep), "step {t} game {i}");
            }
        }
    }
}

#[test]
fn thread_count_does_not_change_results() {
    let r = rules("crazy_eights_specials", 3);
    for mode in [LEARNER, Mode::SelfPlay] {
        // More games than one task takes, so the pool really splits the batch.
        let n = 700;
        let mut envs: Vec<VecEnv> = [1, 2, 5].iter().map(|&t| env(&r, n, t, Autoreset::SameStep, mode)).collect();
        assert_eq!(envs[0].num_threads(), 1);
        assert_eq!(envs[2].num_threads(), 5);
        let mut bufs: Vec<Buffers<f32>> = envs.iter().map(Buffers::new).collect();
        for (e, b) in envs.iter_mut().zip(bufs.iter_mut()) {
            e.reset(7, b.outputs()).unwrap();
        }
        let mut acts = vec![vec![0i64; n]; envs.len()];
        for _ in 0..60 {
            for (k, e) in envs.iter_mut().enumerate() {
                e.random_actions(&mut acts[k]).unwrap();
                e.step(&acts[k], bufs[k].outputs()).unwrap();
            }
            assert_eq!(acts[0], acts[1]);
            assert_eq!(acts[0], acts[2]);
            assert_eq!(bufs[0], bufs[1]);
            assert_eq!(bufs[0], bufs[2]);
        }
    }
}

#[test]
fn search_bot_actions_do_not_depend_on_the_thread_count() {
    // Search bots answer on the env's threads; each answer depends only on its own game.
    let r = rules("crazy_eights", 2);
    let n = 40;
    let spec = BotSpec::parse("ismcts:20").unwrap();
    let mut envs: Vec<VecEnv> = [1, 2, 5].iter().map(|&t| env(&r, n, t, Autoreset::SameStep, Mode::SelfPlay)).collect();
    let mut bufs: Vec<Buffers<f32>> = envs.iter().map(Buffers::new).collect();
    for (e, b) in envs.iter_mut().zip(bufs.iter_mut()) {
        e.reset(11, b.outputs()).unwrap();
    }
    // Rows in a scrambled order with a repeat: answers follow the rows, not the games' order.
    let rows: Vec<i64> = (0..n as i64).rev().step_by(3).chain([5, 5]).collect();
    for _ in 0..6 {
        let mut answers = vec![vec![0i64; rows.len()]; envs.len()];
        for (k, e) in envs.iter_mut().enumerate() {
            e.bot_actions(spec, &rows, &mut answers[k]).unwrap();
        }
        assert_eq!(answers[0], answers[1]);
        assert_eq!(answers[0], answers[2]);
        assert!(answers[0].iter().all(|&a| a >= 0), "every game is running");
        // One thread answers row by row (no crew); every answer is a legal action.
        for (&r, &a) in rows.iter().zip(&answers[0]) {
            let mut mask = ActionMask::default();
            envs[0].game(r as usize).legal_actions(&mut mask);
            assert!(mask.contains(a as usize), "row {r}: {a}");
        }
        let mut acts = vec![0i64; n];
        for (e, b) in envs.iter_mut().zip(bufs.iter_mut()) {
            e.random_actions(&mut acts).unwrap();
            e.step(&acts, b.outputs()).unwrap();
        }
    }
}

#[test]
fn bot_policies_are_the_search_visit_shares_and_agree_with_bot_actions() {
    // `ismcts:N`'s row: root visit shares (each a multiple of 1/N, summing to 1, only on legal
    // actions), whose most visited action (ties: the lower id) is the one `bot_actions` plays,
    // on any thread count; any other bot's row is one-hot on its action.
    let r = rules("crazy_eights", 3);
    let n = 24;
    let na = eights::action::NUM_ACTIONS;
    let mut envs: Vec<VecEnv> = [1, 2].iter().map(|&t| env(&r, n, t, Autoreset::SameStep, Mode::SelfPlay)).collect();
    let mut bufs: Vec<Buffers<f32>> = envs.iter().map(Buffers::new).collect();
    for (e, b) in envs.iter_mut().zip(bufs.iter_mut()) {
        e.reset(5, b.outputs()).unwrap();
    }
    let rows: Vec<i64> = (0..n as i64).rev().collect();
    let (mut spread, mut acts) = (0, vec![0i64; n]);
    for _ in 0..5 {
        for spec in ["ismcts:30", "heuristic"] {
            let spec = BotSpec::parse(spec).unwrap();
            let mut shares = vec![vec![0f32; rows.len() * na]; envs.len()];
            for (k, e) in envs.iter_mut().enumerate() {
                e.bot_policies(spec, &rows, None, &mut shares[k]).unwrap();
            }
            assert_eq!(shares[0], shares[1], "{spec:?}: the thread count changed the shares");
            let mut played = vec![0i64; rows.len()];
            envs[0].bot_actions(spec, &rows, &mut played).unwrap();
            for (j, (&g, row)) in rows.iter().zip(shares[0].chunks(na)).enumerate() {
                let mut mask = ActionMask::default();
                envs[0].game(g as usize).legal_actions(&mut mask);
                let sum: f32 = row.iter().sum();
                assert!((sum - 1.0).abs() < 1e-5, "{spec:?}, game {g}: shares sum to {sum}");
                let best = (0..na).fold(0, |b, a| if row[a] > row[b] { a } else { b });
                assert_eq!(best as i64, played[j], "{spec:?}, game {g}");
                for (a, &p) in row.iter().enumerate() {
                    assert!(p == 0.0 || mask.contains(a), "{spec:?}, game {g}: share on illegal action {a}");
                    if let BotSpec::Ismcts { .. } = spec {
                        assert!((p * 30.0 - (p * 30.0).round()).abs() < 1e-4, "{p} is not a count over 30");
                    } else {
                        assert!(p == 0.0 || p == 1.0, "heuristic: {p}");
                    }
                }
                if matches!(spec, BotSpec::Ismcts { .. }) && row.iter().filter(|&&p| p > 0.0).count() > 1 {
                    spread += 1;
                }
            }
        }
        for (e, b) in envs.iter_mut().zip(bufs.iter_mut()) {
            e.random_actions(&mut acts).unwrap();
            e.step(&acts, b.outputs()).unwrap();
        }
    }
    assert!(spread > 10, "the search spread its visits in only {spread} decisions");
    // A wrong-sized output is refused and changes nothing.
    let mut short = vec![7f32; 3];
    assert!(envs[0].bot_policies(BotSpec::parse("ismcts:5").unwrap(), &rows, None, &mut short).is_err());
    assert_eq!(short, vec![7f32; 3]);
}

#[test]
fn a_root_choice_takes_the_heuristic_bias_at_the_search_root() {
    // `root` favours the named action at the root in the heuristic's place: -1 (or no `root`)
    // is the plain search; naming an action the heuristic does not choose moves visits to it.
    let r = rules("crazy_eights", 2);
    let n = 32;
    let na = eights::action::NUM_ACTIONS;
    let mut e = env(&r, n, 1, Autoreset::SameStep, Mode::SelfPlay);
    let mut b = Buffers::<f32>::new(&e);
    e.reset(9, b.outputs()).unwrap();
    let rows: Vec<i64> = (0..n as i64).collect();
    let spec = BotSpec::parse("ismcts:50").unwrap();
    let (mut moved, mut tried, mut acts) = (0.0f32, 0, vec![0i64; n]);
    for _ in 0..8 {
        let mut plain = vec![0f32; n * na];
        let mut none = vec![0f32; n * na];
        e.bot_policies(spec, &rows, None, &mut plain).unwrap();
        e.bot_policies(spec, &rows, Some(&vec![-1; n]), &mut none).unwrap();
        assert_eq!(plain, none, "root -1 is the heuristic's choice");
        let mut heuristic = vec![0i64; n];
        e.bot_actions(BotSpec::Heuristic, &rows, &mut heuristic).unwrap();
        // Favour the highest legal action id that is not the heuristic's.
        let favour: Vec<i64> = rows
            .iter()
            .zip(&heuristic)
            .map(|(&g, &h)| {
                let mut mask = ActionMask::default();
                e.game(g as usize).legal_actions(&mut mask);
                (0..na).rev().find(|&a| mask.contains(a) && a as i64 != h).map_or(-1, |a| a as i64)
            })
            .collect();
        let mut biased = vec![0f32; n * na];
        e.bot_policies(spec, &rows, Some(&favour), &mut biased).unwrap();
        for (j, &a) in favour.iter().enumerate() {
            if a >= 0 {
                moved += biased[j * na + a as usize] - plain[j * na + a as usize];
                tried += 1;
            }
        }
        e.random_actions(&mut acts).unwrap();
        e.step(&acts, b.outputs()).unwrap();
    }
    assert!(tried > 50, "only {tried} decisions with a choice");
    assert!(
        moved / tried as f32 > 0.05,
        "the favoured action gained {} of the visits on average",
        moved / tried as f32
    );
    let mut out = vec![0f32; n * na];
    assert!(e.bot_policies(spec, &rows, Some(&[1, 2]), &mut out).is_err(), "root of the wrong length");
}

#[test]
fn truncation_reports_and_resets_on_the_next_step() {
    let r = Arc::new(Rules::load("crazy_eights", 2, Some(&json!({"limits": {"max_decisions": 7}}))).unwrap());
    let mut e = env(&r, 4, 1, Autoreset::NextStep, Mode::SelfPlay);
    let mut b = Buffers::<f32>::new(&e);
    e.reset(3, b.outputs()).unwrap();
    let mut a = vec![0i64; 4];
    for t in 1..=7 {
        e.random_actions(&mut a).unwrap();
        e.step(&a, b.outputs()).unwrap();
        assert_eq!(b.truncated, vec![t == 7; 4], "decision {t}");
        assert_eq!(b.terminated, vec![false; 4]);
        assert!(b.rewards.iter().all(|&x| x == 0.0), "no reward without a winner");
    }
    assert_eq!(b.to_act, vec![-1; 4]);
    assert!(b.mask.iter().all(|&m| !m), "no legal action once truncated");
    // The next step ignores the actions (even out-of-range ones) and deals episode 1.
    e.step(&[-5, 999, 0, 0], b.outputs()).unwrap();
    assert_eq!(b.truncated, vec![false; 4]);
    for i in 0..4 {
        assert_eq!(e.game(i).seed(), episode_seed(3, i as u64, 1));
        assert_eq!(e.game(i).decisions(), 0);
        assert!(b.to_act[i] >= 0);
    }
}

#[test]
fn external_opponents_wait_for_step_opponents() {
    let r = rules("crazy_eights", 3);
    let mode = Mode::Learner { seat: 1, opponents: Opponents::External };
    let mut e = env(&r, 5, 1, Autoreset::NextStep, mode);
    let mut b = Buffers::<f32>::new(&e);
    e.reset(11, b.outputs()).unwrap();
    // Seat 0 acts first: the opponents are to act everywhere, and step() refuses.
    assert_eq!(b.to_act, vec![0; 5]);
    assert!(e.opponents_to_act());
    let mut a = vec![0i64; 5];
    e.random_actions(&mut a).unwrap();
    assert!(matches!(e.step(&a, b.outputs()), Err(VecEnvError::OpponentToAct { env: 0, seat: 0 })));
    let mut learner_turns = 0;
    for _ in 0..200 {
        while e.opponents_to_act() {
            e.random_actions(&mut a).unwrap();
            e.step_opponents(&a, b.outputs()).unwrap();
        }
        for i in 0..5 {
            assert!(b.to_act[i] == 1 || b.to_act[i] == -1, "learner to act or episode over");
            if b.to_act[i] == 1 {
                // The row is the learner's view of a game in progress.
                let mut obs = vec![0f32; OBS_SIZE];
                observation::encode(e.game(i), 1, &mut obs);
                assert_eq!(&b.obs[i * OBS_SIZE..(i + 1) * OBS_SIZE], &obs[..]);
                learner_turns += 1;
            }
        }
        e.random_actions(&mut a).unwrap();
        e.step(&a, b.outputs()).unwrap();
    }
    assert!(learner_turns > 500);
}

#[test]
fn bad_actions_are_rejected_and_change_nothing() {
    let r = rules("crazy_eights", 2);
    let make = || {
        let mut e = env(&r, 3, 1, Autoreset::NextStep, LEARNER);
        let mut b = Buffers::<f32>::new(&e);
        e.reset(5, b.outputs()).unwrap();
        (e, b)
    };
    let (mut e1, mut b1) = make();
    let (mut e2, mut b2) = make();
    let mut a = vec![0i64; 3];
    e1.random_actions(&mut a).unwrap();
    let before = b1.clone();
    assert!(matches!(e1.step(&a[..2], b1.outputs()), Err(VecEnvError::Length { what: "actions", .. })));
    let mut bad = a.clone();
    bad[2] = NUM_ACTIONS as i64;
    assert_eq!(e1.step(&bad, b1.outputs()), Err(VecEnvError::OutOfRange { env: 2, action: 197 }));
    bad[2] = -1;
    assert_eq!(e1.step(&bad, b1.outputs()), Err(VecEnvError::OutOfRange { env: 2, action: -1 }));
    let mut illegal = a.clone();
    illegal[1] = (0..NUM_ACTIONS as i64).find(|&x| !e1.legal_mask(1).contains(x as usize)).unwrap();
    let err = e1.step(&illegal, b1.outputs()).unwrap_err();
    assert!(matches!(err, VecEnvError::Illegal { env: 1, .. }), "{err}");
    assert!(err.to_string().contains("legal actions: "), "{err}");
    assert_eq!(b1, before, "outputs untouched");
    // The sampler streams and games are untouched too: both batches continue identically.
    e2.random_actions(&mut a).unwrap();
    for _ in 0..50 {
        let mut a1 = vec![0i64; 3];
        let mut a2 = vec![0i64; 3];
        e1.random_actions(&mut a1).unwrap();
        e2.random_actions(&mut a2).unwrap();
        assert_eq!(a1, a2);
        e1.step(&a1, b1.outputs()).unwrap();
        e2.step(&a2, b2.outputs()).unwrap();
        assert_eq!(b1, b2);
    }
}

#[test]
fn configuration_errors_are_clear() {
    let r = rules("crazy_eights", 2);
    let cfg = Config { mode: Mode::Learner { seat: 2, opponents: Opponents::Random }, ..Config::new(4) };
    let err = VecEnv::new(r.clone(), cfg).err().unwrap();
    assert!(err.to_string().contains("learner seat must be in [0, 1]"), "{err}");
    assert!(VecEnv::new(r.clone(), Config::new(0)).is_err());
    let mut e = env(&r, 2, 1, Autoreset::SameStep, LEARNER);
    let mut b = Buffers::<f32>::new(&e);
    assert_eq!(e.step(&[0, 0], b.outputs()), Err(VecEnvError::NotReset));
    let mut out = b.outputs();
    out.final_obs = None;
    e.reset(0, out).unwrap();
    let mut out = b.outputs();
    out.final_obs = None;
    assert!(matches!(e.step(&[0, 0], out), Err(VecEnvError::Config(_))), "SameStep needs final_obs");
    assert!(matches!(e.step_opponents(&[0, 0], b.outputs()), Err(VecEnvError::Config(_))));
}

#[test]
fn compact_observations_have_the_same_layout() {
    let r = rules("crazy_eights", 4);
    let mk = || env(&r, 8, 1, Autoreset::NextStep, Mode::SelfPlay);
    let (mut ef, mut eu, mut es) = (mk(), mk(), mk());
    let mut f = Buffers::<f32>::new(&ef);
    let mut u = Buffers::<u8>::new(&eu);
    let mut s = Buffers::<i8>::new(&es);
    ef.reset(1, f.outputs()).unwrap();
    eu.reset(1, u.outputs()).unwrap();
    es.reset(1, s.outputs()).unwrap();
    let mut a = vec![0i64; 8];
    for _ in 0..100 {
        for (k, &x) in f.obs.iter().enumerate() {
            assert_eq!(u.obs[k], x.clamp(0.0, 255.0) as u8);
            assert_eq!(s.obs[k], x.clamp(-128.0, 127.0) as i8);
        }
        assert_eq!((&f.mask, &f.to_act), (&u.mask, &u.to_act));
        ef.random_actions(&mut a).unwrap();
        ef.step(&a, f.outputs()).unwrap();
        eu.step(&a, u.outputs()).unwrap();
        es.step(&a, s.outputs()).unwrap();
    }
}

/// Play the opponents of an external-opponents batch with `bot_actions`, a batch per seat and
/// round, the way the Python `VecEnv` plays built-in bots for Python-driven seats.
fn play_with_bot_actions(e: &mut VecEnv, b: &mut Buffers<f32>, seats: &[Option<BotSpec>]) {
    while e.opponents_to_act() {
        let mut acts = vec![-1i64; e.num_envs()];
        for (p, spec) in seats.iter().enumerate() {
            let Some(spec) = *spec else { continue };
            let rows: Vec<i64> = (0..e.num_envs() as i64).filter(|&i| b.to_act[i as usize] == p as i32).collect();
            let mut out = vec![0i64; rows.len()];
            e.bot_actions(spec, &rows, &mut out).unwrap();
            for (&r, &a) in rows.iter().zip(&out) {
                acts[r as usize] = a;
            }
        }
        e.step_opponents(&acts, b.outputs()).unwrap();
    }
}

#[test]
fn built_in_bot_opponents_play_the_games_bot_actions_plays_on_any_thread_count() {
    let bot = |s: &str| Some(BotSpec::parse(s).unwrap());
    let cases = [
        ("crazy_eights", vec![None, bot("heuristic")], Autoreset::NextStep, 300, 40),
        ("crazy_eights", vec![None, bot("net")], Autoreset::SameStep, 300, 40),
        ("crazy_eights", vec![None, bot("net1")], Autoreset::NextStep, 300, 40),
        ("crazy_eights", vec![None, bot("ismcts:6")], Autoreset::SameStep, 20, 8),
        ("switch_blackjack", vec![bot("heuristic"), None, bot("random")], Autoreset::SameStep, 300, 40),
        ("crazy_eights_specials", vec![bot("net"), bot("pimc:3"), None, bot("net")], Autoreset::NextStep, 20, 10),
        ("rose_mau", vec![bot("net"), bot("heuristic"), None, bot("random"), bot("net")], Autoreset::SameStep, 300, 30),
    ];
    for (preset, seats, autoreset, n, steps) in cases {
        let r = rules(preset, seats.len());
        let seat = seats.iter().position(Option::is_none).unwrap();
        let mut table = [None; eights::rules::MAX_PLAYERS];
        table[..seats.len()].copy_from_slice(&seats);
        let inside = Mode::Learner { seat, opponents: Opponents::Bots(table) };
        let outside = Mode::Learner { seat, opponents: Opponents::External };
        let mut envs: Vec<VecEnv> =
            [(1, inside), (3, inside), (1, outside)].iter().map(|&(t, mode)| env(&r, n, t, autoreset, mode)).collect();
        let mut bufs: Vec<Buffers<f32>> = envs.iter().map(|e| Buffers::new(e).with_rules()).collect();
        for (e, b) in envs.iter_mut().zip(bufs.iter_mut()) {
            e.reset(9, b.outputs()).unwrap();
        }
        play_with_bot_actions(&mut envs[2], &mut bufs[2], &seats);
        let mut ended = 0;
        for step in 0..steps {
            assert_eq!(bufs[0], bufs[1], "{preset}: threads, step {step}");
            assert_eq!(bufs[0], bufs[2], "{preset}: bot_actions, step {step}");
            assert!(bufs[0].to_act.iter().all(|&p| p < 0 || p as usize == seat), "{preset}: the learner acts");
            let mut acts = vec![0i64; n];
            envs[0].random_actions(&mut acts).unwrap();
            for (e, b) in envs.iter_mut().zip(bufs.iter_mut()) {
                e.step(&acts, b.outputs()).unwrap();
            }
            play_with_bot_actions(&mut envs[2], &mut bufs[2], &seats);
            ended += bufs[0].terminated.iter().filter(|&&t| t).count();
        }
        assert_eq!(bufs[0], bufs[2], "{preset}");
        assert!(ended > 0, "{preset}: episodes end and are dealt again");
    }
}

#[test]
fn built_in_bot_opponents_need_a_bot_on_every_other_seat() {
    let r = rules("crazy_eights", 3);
    let mut table = [None; eights::rules::MAX_PLAYERS];
    table[1] = Some(BotSpec::Heuristic);
    let cfg = Config {
        num_envs: 4,
        num_threads: 1,
        autoreset: Autoreset::NextStep,
        mode: Mode::Learner { seat: 0, opponents: Opponents::Bots(table) },
        score_rewards: false,
    };
    let e = VecEnv::new(r, cfg).err().unwrap();
    assert!(e.to_string().contains("seat 2 (an opponent) has no built-in bot"), "{e}");
}

#[test]
fn a_large_batch_checked_on_threads_reports_the_first_bad_game_and_changes_nothing() {
    let r = rules("crazy_eights", 2);
    let n = 1000;
    for threads in [1, 3] {
        let mut e = env(&r, n, threads, Autoreset::NextStep, LEARNER);
        let mut b = Buffers::<f32>::new(&e);
        e.reset(5, b.outputs()).unwrap();
        let mut a = vec![0i64; n];
        e.random_actions(&mut a).unwrap();
        let before = b.clone();
        let mut bad = a.clone();
        bad[900] = -3;
        bad[650] = NUM_ACTIONS as i64;
        assert_eq!(e.step(&bad, b.outputs()), Err(VecEnvError::OutOfRange { env: 650, action: 197 }), "{threads}");
        bad[70] = (0..NUM_ACTIONS as i64).find(|&x| !e.legal_mask(70).contains(x as usize)).unwrap();
        let err = e.step(&bad, b.outputs()).unwrap_err();
        assert!(matches!(err, VecEnvError::Illegal { env: 70, .. }), "{threads}: {err}");
        assert_eq!(b, before, "outputs untouched");
        e.step(&a, b.outputs()).unwrap();
    }
}

#[test]
fn a_set_stop_flag_ends_calls_of_quick_and_batched_bots_too() {
    // Only the searches read the flag: a step of 262,144 games against `net` (9 s) or
    // `bot_actions("net")` over them (3.8 s) ran to its end after Ctrl-C.
    let r = rules("crazy_eights", 3);
    for bot in [BotSpec::Net, BotSpec::Heuristic] {
        let mut table = [None; eights::rules::MAX_PLAYERS];
        table[1] = Some(bot);
        table[2] = Some(bot);
        let mode = Mode::Learner { seat: 0, opponents: Opponents::Bots(table) };
        let mut e = env(&r, 64, 2, Autoreset::NextStep, mode);
        let mut b = Buffers::<f32>::new(&e);
        e.reset(1, b.outputs()).unwrap();
        let mut a = vec![0i64; 64];
        e.random_actions(&mut a).unwrap();
        e.stop_flag().set();
        assert_eq!(e.step(&a, b.outputs()), Err(VecEnvError::Stopped), "{bot:?}");
        assert!(e.reset(1, b.outputs()).is_err(), "{bot:?}: the flag stays set until its holder clears it");
        e.stop_flag().clear();
        e.reset(1, b.outputs()).unwrap();
        e.step(&a, b.outputs()).unwrap();
    }
    // bot_actions of the batched network, on self-play games.
    let mut e = env(&r, 64, 1, Autoreset::NextStep, Mode::SelfPlay);
    let mut b = Buffers::<f32>::new(&e);
    e.reset(1, b.outputs()).unwrap();
    let rows: Vec<i64> = (0..64).collect();
    let mut out = vec![0i64; 64];
    e.stop_flag().set();
    assert_eq!(e.bot_actions(BotSpec::Net, &rows, &mut out), Err(VecEnvError::Stopped));
    e.stop_flag().clear();
    e.bot_actions(BotSpec::Net, &rows, &mut out).unwrap();
    assert!(out.iter().all(|&x| x >= 0));
}

#[test]
fn random_opponents_that_keep_the_turn_give_up_and_the_batch_must_be_reset() {
    // Every rank wild, each with an extra turn, and no card may go out: the seat to act keeps
    // the turn until the decision cap. The random opponents played on to it (ten million
    // decisions a game, an uninterruptible reset of seconds a game); they give up after
    // MAX_OPPONENT_MOVES moves, naming the first game where an opponent acts first, the same
    // on any thread count.
    let ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
    let card = json!({"wild": {"enabled": true}, "extra_turn": true, "last_special": "cannot_go_out"});
    let cards: serde_json::Map<_, _> = ranks.iter().map(|r| (r.to_string(), card.clone())).collect();
    let over = json!({"cards": cards, "draw": {"voluntary": false}, "limits": {"max_decisions": 10_000_000}});
    let r = Arc::new(Rules::load("crazy_eights", 2, Some(&over)).unwrap());
    // The first game whose deal has the opponent (seat 1) to act, from the documented seeds.
    let first = (0..200).find(|&i| Game::new(r.clone(), episode_seed(5, i, 0)).current_player() == Some(1)).unwrap();
    let mode = Mode::Learner { seat: 0, opponents: Opponents::Random };
    for threads in [1, 2] {
        let mut e = env(&r, 200, threads, Autoreset::NextStep, mode);
        let mut b = Buffers::<f32>::new(&e);
        let err = e.reset(5, b.outputs()).unwrap_err();
        let want = VecEnvError::Opponents { env: first as usize, moves: eights::vec_env::MAX_OPPONENT_MOVES };
        assert_eq!(err, want, "{threads} threads");
        assert!(err.to_string().contains("set limits.max_decisions, then call reset()"), "{err}");
        assert_eq!(e.step(&[0; 200], b.outputs()), Err(VecEnvError::NotReset), "the batch must be reset");
    }
}
