//! Batches of mixed rules: every episode of every game is dealt under the rules its seed
//! draws (from a list or a rule space), exactly as a game stepped by hand under those rules;
//! the rules outputs show each game's encoding and rules id; and nothing depends on the
//! thread count.

use eights::game::Game;
use eights::rules::space::{RuleSpace, SpaceConfig};
use eights::rules::{RULES_SIZE, Rules, load_spec, preset_names};
use eights::vec_env::{Autoreset, Buffers, Config, Mode, RulesSource, VecEnv};
use std::sync::Arc;

fn two_player_presets() -> Vec<Arc<Rules>> {
    preset_names()
        .into_iter()
        .filter(|p| load_spec(p, None).unwrap().players.min <= 2)
        .map(|p| Arc::new(Rules::load(p, 2, None).unwrap()))
        .collect()
}

fn batch(source: RulesSource, num_envs: usize, threads: usize, autoreset: Autoreset) -> VecEnv {
    let cfg = Config { num_envs, num_threads: threads, autoreset, mode: Mode::SelfPlay, score_rewards: false };
    VecEnv::with_source(source, cfg).unwrap()
}

/// Step a batch in self-play with its own random actions; after every step, check each
/// game's rules outputs against the rules the episode's seed draws.
fn run(source: RulesSource, threads: usize, autoreset: Autoreset, steps: usize) -> Vec<u64> {
    let mut env = batch(source.clone(), 96, threads, autoreset);
    let mut b = Buffers::<f32>::new(&env).with_rules();
    env.reset(11, b.outputs()).unwrap();
    let mut acts = vec![0i64; env.num_envs()];
    let mut ids = Vec::new();
    for _ in 0..steps {
        env.random_actions(&mut acts).unwrap();
        env.step(&acts, b.outputs()).unwrap();
        for i in 0..env.num_envs() {
            let g = env.game(i);
            let id = b.rules_id[i];
            let mut enc = vec![0f32; RULES_SIZE];
            g.rules().encode(&mut enc);
            assert_eq!(&b.rules[i * RULES_SIZE..(i + 1) * RULES_SIZE], &enc[..], "game {i}");
            // The rules are the draw of the seed that dealt the game's episode.
            let s = g.seed();
            let drawn = source.episode(s).unwrap();
            assert_eq!(drawn.1, id, "game {i}: rules id");
            assert!(drawn.0.same_play(g.rules()), "game {i}: rules");
        }
        ids.extend_from_slice(&b.rules_id);
    }
    ids
}

#[test]
fn a_list_draws_each_episodes_rules_from_its_seed() {
    let list = two_player_presets();
    assert_eq!(list.len(), 22);
    let ids = run(RulesSource::List(list), 1, Autoreset::NextStep, 150);
    let distinct: std::collections::BTreeSet<u64> = ids.iter().copied().collect();
    assert!(distinct.len() >= 20, "{distinct:?}");
}

#[test]
fn a_rule_space_draws_each_episodes_rules_from_its_seed() {
    let space = Arc::new(RuleSpace::new(SpaceConfig { house_prob: 0.7, ..Default::default() }).unwrap());
    let source = RulesSource::space(space, 2).unwrap();
    run(source, 1, Autoreset::SameStep, 150);
}

#[test]
fn the_thread_count_changes_nothing() {
    let space = Arc::new(RuleSpace::new(SpaceConfig::default()).unwrap());
    for source in [RulesSource::List(two_player_presets()), RulesSource::space(space, 2).unwrap()] {
        let outputs = |threads: usize| {
            let mut env = batch(source.clone(), 300, threads, Autoreset::NextStep);
            let mut b = Buffers::<f32>::new(&env).with_rules();
            env.reset(5, b.outputs()).unwrap();
            let mut acts = vec![0i64; env.num_envs()];
            let mut all = Vec::new();
            for _ in 0..120 {
                env.random_actions(&mut acts).unwrap();
                env.step(&acts, b.outputs()).unwrap();
                all.push(b.clone());
            }
            all
        };
        assert!(outputs(1) == outputs(3));
    }
}

#[test]
fn same_step_keeps_the_ended_episodes_rules() {
    let mut env = batch(RulesSource::List(two_player_presets()), 64, 1, Autoreset::SameStep);
    let mut b = Buffers::<f32>::new(&env).with_rules();
    env.reset(3, b.outputs()).unwrap();
    let mut acts = vec![0i64; env.num_envs()];
    let mut ended = 0;
    for _ in 0..200 {
        let before = b.rules.clone();
        env.random_actions(&mut acts).unwrap();
        env.step(&acts, b.outputs()).unwrap();
        for i in 0..env.num_envs() {
            if b.terminated[i] || b.truncated[i] {
                ended += 1;
                let row = i * RULES_SIZE..(i + 1) * RULES_SIZE;
                assert_eq!(b.final_rules[row.clone()], before[row], "game {i}");
            }
        }
    }
    assert!(ended > 20);
}

#[test]
fn a_list_of_other_player_counts_or_an_empty_list_is_refused() {
    let cfg = Config::new(8);
    let mixed = vec![
        Arc::new(Rules::load("crazy_eights", 2, None).unwrap()),
        Arc::new(Rules::load("crazy_eights", 3, None).unwrap()),
    ];
    let e = VecEnv::with_source(RulesSource::List(mixed), cfg).err().expect("refused");
    assert!(e.to_string().contains("is for 3 players, the batch for 2"), "{e}");
    let e = VecEnv::with_source(RulesSource::List(vec![]), cfg).err().expect("refused");
    assert!(e.to_string().contains("empty"), "{e}");
    let space = Arc::new(RuleSpace::new(SpaceConfig::default()).unwrap());
    let e = RulesSource::space(space, 4).expect_err("refused");
    assert!(e.to_string().contains("not 4"), "{e}");
}

#[test]
fn set_rules_keeps_the_seen_storage_and_refuses_another_player_count() {
    let plain = Arc::new(Rules::load("crazy_eights", 3, None).unwrap());
    let open = Arc::new(Rules::load("thirty_eights", 4, None).unwrap());
    let mut g = Game::new(Arc::new(Rules::load("crazy_eights", 4, None).unwrap()), 1);
    assert!(g.set_rules(plain, &mut None).is_err());
    let mut spare = None;
    g.set_rules(open.clone(), &mut spare).unwrap();
    g.reset(2, &[]).unwrap();
    assert!(g.seen_cards(0).is_some());
    g.set_rules(Arc::new(Rules::load("crazy_eights", 4, None).unwrap()), &mut spare).unwrap();
    assert!(g.seen_cards(0).is_none() && spare.is_some());
    g.set_rules(open, &mut spare).unwrap();
    g.reset(3, &[]).unwrap();
    assert!(g.seen_cards(0).is_some() && spare.is_none());
}
