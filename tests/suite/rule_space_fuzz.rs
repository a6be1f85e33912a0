//! Rule-space fuzz: rule sets drawn from the rule space (house rules on most draws) are
//! played at two players and at their preset's largest table, by random players with every
//! invariant checked after every decision ([`checked_playout`]: cards conserved, legal set
//! and mask agree, observations finite, snapshots round trip, returns zero-sum) and by
//! heuristic players, whose games must end: fewer than 1% may reach the decision cap.
//!
//! `EIGHTS_SPACE_CASES` sets the number of draws per table size (default 150, a few seconds
//! in release mode; the full run uses 100000), `EIGHTS_SPACE_SEED` another seed, and
//! `EIGHTS_SPACE_FROM` the first case (default 0), so that a long run can be split into
//! parts that together play exactly the cases of one run (cases 0..N of one seed). The test
//! prints the totals, the truncation rate and the rule sets with the most truncations.
//!
//! Heuristic games cost little beside the checked random ones, and 300 games (the default)
//! cannot resolve a rate of 1% (one game is 0.33%): the truncation rate is measured over at
//! least [`MIN_HEURISTIC_CASES`] cases, the ones past `EIGHTS_SPACE_CASES` played by the
//! heuristic only.

use eights::action::ActionMask;
use eights::bots::heuristic::HeuristicBot;
use eights::check::{CheckStats, checked_playout};
use eights::game::{Game, derive_seed};
use eights::rules::space::{RuleSpace, SpaceConfig};
use eights::rules::{Rules, load_spec, preset_names};
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

/// Fewest cases (per table size) over which the heuristic's truncation rate is measured.
const MIN_HEURISTIC_CASES: u64 = 2000;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|c| c.parse().ok()).unwrap_or(default)
}

/// Heuristic players at every seat: whether the game ended by itself (not truncated), and
/// its decisions. A game in progress with no legal action is a failure.
fn heuristic_game(rules: Arc<Rules>, seed: u64) -> Result<(bool, u64), String> {
    let mut g = Game::new(rules, seed);
    let bot = HeuristicBot::new();
    let mut m = ActionMask::default();
    while !g.is_terminal() && !g.is_truncated() {
        g.legal_actions(&mut m);
        let a = bot.choose(&g, &m).ok_or("a game in progress has no legal action")?;
        g.step(a).map_err(|e| e.to_string())?;
    }
    Ok((g.is_terminal(), u64::from(g.decisions())))
}

#[derive(Default)]
struct Totals {
    draws: u64,
    random: CheckStats,
    heuristic_games: u64,
    heuristic_truncated: u64,
    heuristic_decisions: u64,
    failures: Vec<String>,
    /// Truncated heuristic games by preset and table size.
    truncated_by: BTreeMap<String, u64>,
}

/// One drawn rule set: random play with every check (unless `heuristic_only`), then
/// heuristic play.
fn play(t: &mut Totals, space: &RuleSpace, seed: u64, what: &str, heuristic_only: bool) {
    let s = space.sample(seed);
    let rules = s.rules[0].clone();
    let n = rules.num_players;
    let label = format!("{what} seed {seed}: {} {n}p, overrides {}", s.preset, s.overrides);
    t.draws += 1;
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let before = t.random.violations;
        if !heuristic_only {
            let mut g = Game::new(rules.clone(), derive_seed(seed, 1));
            checked_playout(&mut g, derive_seed(seed, 2), &mut t.random);
        }
        let random_failed = t.random.violations > before;
        (random_failed, heuristic_game(rules.clone(), derive_seed(seed, 3)))
    }));
    match outcome {
        Err(_) => t.failures.push(format!("panic: {label}")),
        Ok((random_failed, heuristic)) => {
            if random_failed {
                let why = t.random.failures.last().cloned().unwrap_or_default();
                t.failures.push(format!("random play: {label}: {why}"));
            }
            match heuristic {
                Err(e) => t.failures.push(format!("heuristic play: {label}: {e}")),
                Ok((ended, decisions)) => {
                    t.heuristic_games += 1;
                    t.heuristic_decisions += decisions;
                    if !ended {
                        t.heuristic_truncated += 1;
                        *t.truncated_by.entry(format!("{} {n}p", s.preset)).or_default() += 1;
                    }
                }
            }
        }
    }
}

#[test]
fn drawn_rule_sets_play_to_an_end_with_every_invariant() {
    let cases = env_u64("EIGHTS_SPACE_CASES", 150);
    let base = env_u64("EIGHTS_SPACE_SEED", 0x5BACE);
    let from = env_u64("EIGHTS_SPACE_FROM", 0);
    let cfg = |presets: Vec<String>, n: usize| SpaceConfig {
        presets,
        num_players: vec![n],
        house_prob: 0.8,
        mutations: 2.5,
        ..Default::default()
    };
    let two = RuleSpace::new(cfg(vec![], 2)).unwrap();
    let largest: Vec<RuleSpace> = preset_names()
        .into_iter()
        .map(|p| RuleSpace::new(cfg(vec![p.to_string()], load_spec(p, None).unwrap().players.max.into())).unwrap())
        .collect();
    let start = std::time::Instant::now();
    let mut t = Totals::default();
    for i in from..from + cases.max(MIN_HEURISTIC_CASES) {
        let seed = derive_seed(base, i);
        let heuristic_only = i >= from + cases;
        play(&mut t, &two, seed, "2 players", heuristic_only);
        play(&mut t, &largest[i as usize % largest.len()], seed, "largest table", heuristic_only);
        if (i + 1 - from) % 5000 == 0 {
            eprintln!("rule-space fuzz (so far): {} draws, {} failures", t.draws, t.failures.len());
        }
    }
    let rate = t.heuristic_truncated as f64 / t.heuristic_games.max(1) as f64;
    let mut worst: Vec<(&String, &u64)> = t.truncated_by.iter().collect();
    worst.sort_by(|a, b| b.1.cmp(a.1));
    eprintln!(
        "rule-space fuzz: {} draws ({cases} per table size checked, cases {from}..{}; heuristic play over cases \
         {from}..{}) in {:.1} s; random play: {} games, {} decisions checked, {} truncated; heuristic play: {} games, \
         {} decisions, {} truncated ({:.3}%); failures: {}; most truncations: {:?}",
        t.draws,
        from + cases,
        from + cases.max(MIN_HEURISTIC_CASES),
        start.elapsed().as_secs_f64(),
        t.random.games,
        t.random.decisions,
        t.random.truncated,
        t.heuristic_games,
        t.heuristic_decisions,
        t.heuristic_truncated,
        100.0 * rate,
        t.failures.len(),
        &worst[..worst.len().min(8)],
    );
    assert!(
        t.failures.is_empty(),
        "{} failures, the first: {:#?}",
        t.failures.len(),
        &t.failures[..t.failures.len().min(5)]
    );
    assert!(rate < 0.01, "heuristic play reached the decision cap in {:.2}% of games", 100.0 * rate);
}

/// Draws the long run once failed on, replayed: one_card at 3 players with
/// `end.play_for_second` and a house card that moves cards between hands (a give card, every
/// other player drawing, a swap card). The player out first got cards, or could be given a
/// hand, although it has left the hand; now those effects pass over it.
#[test]
fn draws_that_once_failed_play_clean() {
    let cfg = SpaceConfig {
        presets: vec!["one_card".into()],
        num_players: vec![3],
        house_prob: 0.8,
        mutations: 2.5,
        ..Default::default()
    };
    let space = RuleSpace::new(cfg).unwrap();
    let mut t = Totals::default();
    for seed in
        [14752368160644776022, 17107894892802333630, 4835570240276213451, 12942685870352199657, 5898155517161890229]
    {
        play(&mut t, &space, seed, "replay", false);
    }
    assert_eq!(t.draws, 5);
    assert!(t.failures.is_empty(), "{:#?}", t.failures);
}
