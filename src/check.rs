//! Invariant checks of a running game and checked random playouts, shared by the fuzz
//! harness (`tests/suite/fuzz_inputs.rs`), the soak command (`python -m eights soak`) and tests.
//!
//! [`check_state`] lists what must hold after every decision; [`checked_playout`] plays a
//! game to its end with a seeded random player and checks the invariants after each step;
//! [`FastSoak`] plays batches of random games over many tables on a thread pool with the
//! cheap invariants checked at every decision and [`check_state`] on a sampled fraction.

use crate::action::{Action, ActionMask, NUM_ACTIONS};
use crate::bots::RandomBot;
use crate::card_set::CardCounts;
use crate::game::{Game, derive_seed};
use crate::observation::{self, OBS_SIZE};
use crate::rules::Rules;
use crate::stop::{NEVER, Stop};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Arc;

/// Decisions a playout may take beyond the rules' own cap before it counts as endless.
const SLACK: u64 = 1_000;
/// Where a playout stops (without a failure) under rules that never truncate
/// (`limits.max_decisions = 0`): random play need not end.
const UNCAPPED_STOP: u64 = 100_000;

/// Everything [`check_state`] verifies, as the message of the first failure.
///
/// * `cards`: the cards in play (hands, stock, discard and rogue piles) are exactly
///   `cards` (pass the count at the start of the playout: cards are conserved).
/// * the discard pile's per-face counts equal its cards;
/// * the legal set is empty exactly when the game is over (terminal or truncated), every
///   legal id is in range and decodes to an action, and the sorted list equals the mask;
/// * every seat's observation is finite;
/// * the snapshot round trips: `from_snapshot(snapshot())` gives the same snapshot;
/// * at the end, the win/loss and score returns are zero-sum and finite.
pub fn check_state(g: &Game, cards: &CardCounts) -> Result<(), String> {
    let now = g.card_count();
    if now.counts() != cards.counts() {
        return Err(format!("cards not conserved: {} in play, {} expected", now.len(), cards.len()));
    }
    let pile: CardCounts = g.discard().as_slice().iter().copied().collect();
    if g.discard_counts() != &pile {
        return Err("the discard pile's counts differ from its cards".into());
    }
    let mut m = ActionMask::default();
    g.legal_actions(&mut m);
    let over = g.is_terminal() || g.is_truncated();
    if over != m.is_empty() {
        return Err(format!("game over = {over} but {} legal actions", m.len()));
    }
    if over != g.current_player().is_none() {
        return Err(format!("game over = {over} but the player to act is {:?}", g.current_player()));
    }
    let ids: Vec<usize> = m.iter().collect();
    if ids != g.legal_action_vec() {
        return Err("legal_action_vec differs from the mask".into());
    }
    if let Some(&bad) = ids.iter().find(|&&id| id >= NUM_ACTIONS || Action::from_id(id).is_none()) {
        return Err(format!("legal action id {bad} does not decode"));
    }
    let mut obs = [0f32; OBS_SIZE];
    for p in 0..g.num_players() {
        observation::encode(g, p, &mut obs);
        if let Some(i) = obs.iter().position(|x| !x.is_finite()) {
            return Err(format!("observation of seat {p} is not finite at index {i}"));
        }
    }
    let snap = g.snapshot();
    let text = serde_json::to_string(&snap).map_err(|e| format!("snapshot does not serialize: {e}"))?;
    let back = Game::from_snapshot(snap).map_err(|e| format!("snapshot does not load: {e}"))?;
    let again = serde_json::to_string(&back.snapshot()).map_err(|e| e.to_string())?;
    if again != text {
        return Err("snapshot round trip changed the state".into());
    }
    if over {
        let n = g.num_players();
        for score in [false, true] {
            let mut r = vec![0.0; n];
            g.returns(&mut r, score);
            let sum: f64 = r.iter().sum();
            if r.iter().any(|x| !x.is_finite()) || sum.abs() > 1e-6 {
                return Err(format!("returns (score={score}) not zero-sum and finite: {r:?}"));
            }
        }
    }
    Ok(())
}

/// Totals of checked playouts.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CheckStats {
    pub games: u64,
    /// Decisions taken (each followed by a full [`check_state`]).
    pub decisions: u64,
    pub truncated: u64,
    /// The first few failures (`violations` counts them all).
    pub failures: Vec<String>,
    pub violations: u64,
}

impl CheckStats {
    fn fail(&mut self, what: String) {
        self.violations += 1;
        if self.failures.len() < 10 {
            self.failures.push(what);
        }
    }
}

/// Play `g` to its end with a random player seeded from `seed`, checking the invariants
/// before the first and after every decision; the first failure stops the playout.
pub fn checked_playout(g: &mut Game, seed: u64, stats: &mut CheckStats) {
    let cards = g.card_count();
    let cap = u64::from(g.rules().spec.limits.max_decisions);
    let limit = if cap == 0 { UNCAPPED_STOP } else { cap + SLACK };
    let mut bot = RandomBot::new(seed);
    let mut m = ActionMask::default();
    stats.games += 1;
    if let Err(e) = check_state(g, &cards) {
        stats.fail(format!("before the first decision: {e}"));
        return;
    }
    let mut steps = 0u64;
    loop {
        g.legal_actions(&mut m);
        let Some(a) = bot.pick(&m) else { break };
        if let Err(e) = g.step(a) {
            stats.fail(format!("legal action {a} refused: {e}"));
            return;
        }
        steps += 1;
        stats.decisions += 1;
        if let Err(e) = check_state(g, &cards) {
            stats.fail(format!("after decision {steps} (action {a}): {e}"));
            return;
        }
        if steps > limit {
            if cap > 0 {
                stats.fail(format!("no end after {steps} decisions"));
            }
            return;
        }
    }
    if g.is_truncated() {
        stats.truncated += 1;
    }
}

/// `games` checked random games of `rules`; game `i` dealt from `derive_seed(seed, i)`.
pub fn checked_selfplay(rules: Arc<Rules>, games: u64, seed: u64) -> CheckStats {
    checked_selfplay_until(rules, games, seed, &NEVER)
}

/// [`checked_selfplay`], ending after the game in progress once `stop` is set.
pub fn checked_selfplay_until(rules: Arc<Rules>, games: u64, seed: u64, stop: &Stop) -> CheckStats {
    let mut stats = CheckStats::default();
    for i in (0..games).take_while(|_| !stop.is_set()) {
        let mut g = Game::new(rules.clone(), derive_seed(seed, i));
        checked_playout(&mut g, derive_seed(seed ^ 0xC4EC, i), &mut stats);
    }
    stats
}

/// One table of a [`FastSoak`]: the rules (preset and player count) and, optionally, the
/// declared bounds of the raw observation (`low`/`high`, length [`OBS_SIZE`]; empty: only
/// finiteness is checked).
pub struct SoakTable {
    pub name: String,
    pub rules: Arc<Rules>,
    pub low: Vec<f32>,
    pub high: Vec<f32>,
}

/// Totals of a [`FastSoak`] batch (sums over its games; `failures` in game order).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SoakStats {
    pub games: u64,
    pub decisions: u64,
    pub truncated: u64,
    /// Decisions whose acting seat's observation was encoded and checked.
    pub observations_checked: u64,
    /// Decisions followed by the full [`check_state`] and the every-legal-action check.
    pub full_checks: u64,
    pub violations: u64,
    /// The first few failures, each naming the table, the game index and the decision.
    pub failures: Vec<String>,
}

impl SoakStats {
    fn add(&mut self, o: SoakStats) {
        self.games += o.games;
        self.decisions += o.decisions;
        self.truncated += o.truncated;
        self.observations_checked += o.observations_checked;
        self.full_checks += o.full_checks;
        self.violations += o.violations;
        for f in o.failures {
            if self.failures.len() < 10 {
                self.failures.push(f);
            }
        }
    }
}

/// Random games over a list of tables on a thread pool, checked as they go: the soak of
/// `python -m eights soak --decisions N`.
///
/// Game `i` is played at table `i % tables.len()`, dealt from `derive_seed(seed, i)` and
/// played by a random player seeded from `derive_seed(seed ^ 0x50A4, i)`, so a batch's
/// result depends only on the seed and the game indices, not on the number of threads.
///
/// At **every** decision: the legal set is non-empty exactly while the game is live and the
/// player to act is set exactly then; every legal id decodes to an action; the drawn action
/// is accepted; the cards in play equal those at the deal (face by face); the game ends or
/// truncates within the rules' decision cap (plus a slack); at the end the win/loss and
/// score returns are finite and zero-sum. Every `obs_every`-th decision of a game, the
/// acting seat's observation is encoded and checked finite and within the table's bounds.
/// Every `full_every`-th decision (at a per-game offset) and at the end: the full
/// [`check_state`] (every seat's observation, the legal vector against the mask, the
/// snapshot round trip), every seat's observation within bounds, and every legal action
/// applied to a copy of the game (each must be accepted and conserve the cards).
pub struct FastSoak {
    pub tables: Vec<SoakTable>,
    pub seed: u64,
    pub obs_every: u64,
    pub full_every: u64,
}

impl FastSoak {
    /// Play games `first .. first + games` on `pool` (or rayon's global pool).
    pub fn run(&self, first: u64, games: u64, pool: Option<&rayon::ThreadPool>) -> SoakStats {
        self.run_until(first, games, pool, &NEVER)
    }

    /// [`FastSoak::run`], skipping the games not yet started once `stop` is set (the totals
    /// then count fewer games than asked).
    pub fn run_until(&self, first: u64, games: u64, pool: Option<&rayon::ThreadPool>, stop: &Stop) -> SoakStats {
        let work = || {
            let n = usize::try_from(games.min(u64::MAX - first)).unwrap_or(usize::MAX);
            (0..n)
                .into_par_iter()
                .with_min_len(8)
                .map(|k| if stop.is_set() { SoakStats::default() } else { self.game(first + k as u64) })
                .collect::<Vec<SoakStats>>()
        };
        let per_game = match pool {
            Some(p) => p.install(work),
            None => work(),
        };
        let mut total = SoakStats::default();
        for s in per_game {
            total.add(s);
        }
        total
    }

    fn bounds_error(&self, t: &SoakTable, obs: &[f32]) -> Option<String> {
        if let Some(i) = obs.iter().position(|x| !x.is_finite()) {
            return Some(format!("observation not finite at index {i}"));
        }
        if t.low.len() == obs.len() && t.high.len() == obs.len() {
            let bad = obs.iter().zip(t.low.iter().zip(&t.high)).position(|(x, (lo, hi))| x < lo || x > hi);
            if let Some(i) = bad {
                return Some(format!("observation[{i}] = {} outside [{}, {}]", obs[i], t.low[i], t.high[i]));
            }
        }
        None
    }

    /// The checks of a sampled decision (see the type's documentation).
    fn full_check(&self, t: &SoakTable, g: &Game, cards: &CardCounts, obs: &mut [f32; OBS_SIZE]) -> Result<(), String> {
        check_state(g, cards)?;
        for p in 0..g.num_players() {
            observation::encode(g, p, obs);
            if let Some(e) = self.bounds_error(t, obs) {
                return Err(format!("seat {p}: {e}"));
            }
        }
        let mut m = ActionMask::default();
        g.legal_actions(&mut m);
        for a in m.iter() {
            let mut c = g.clone();
            c.step(a).map_err(|e| format!("legal action {a} refused by a copy: {e}"))?;
            if c.card_count().counts() != cards.counts() {
                return Err(format!("legal action {a} does not conserve the cards"));
            }
        }
        Ok(())
    }

    /// Game `i`, played to its end under the checks.
    fn game(&self, i: u64) -> SoakStats {
        let mut s = SoakStats { games: 1, ..SoakStats::default() };
        if self.tables.is_empty() {
            return s;
        }
        // i % len < len: the index is in range.
        let t = &self.tables[(i % self.tables.len() as u64) as usize];
        let mut g = Game::new(t.rules.clone(), derive_seed(self.seed, i));
        let mut bot = RandomBot::new(derive_seed(self.seed ^ 0x50A4, i));
        let cards = g.card_count();
        let cap = u64::from(g.rules().spec.limits.max_decisions);
        let limit = if cap == 0 { UNCAPPED_STOP } else { cap + SLACK };
        let (obs_every, full_every) = (self.obs_every.max(1), self.full_every.max(1));
        let offset = derive_seed(self.seed ^ 0xF011, i) % full_every;
        let mut m = ActionMask::default();
        let mut obs = [0f32; OBS_SIZE];
        let mut steps = 0u64;
        let fail = |s: &mut SoakStats, steps: u64, e: String| {
            s.violations += 1;
            s.failures.push(format!("{} game {i} decision {steps}: {e}", t.name));
        };
        if let Err(e) = self.full_check(t, &g, &cards, &mut obs) {
            fail(&mut s, 0, e);
            return s;
        }
        s.full_checks += 1;
        loop {
            g.legal_actions(&mut m);
            let over = g.is_terminal() || g.is_truncated();
            if over != m.is_empty() || over != g.current_player().is_none() {
                let e = format!("game over = {over}, {} legal actions, to act {:?}", m.len(), g.current_player());
                fail(&mut s, steps, e);
                return s;
            }
            if over {
                break;
            }
            if let Some(bad) = m.iter().find(|&id| Action::from_id(id).is_none()) {
                fail(&mut s, steps, format!("legal action id {bad} does not decode"));
                return s;
            }
            let Some(a) = bot.pick(&m) else { break };
            if let Err(e) = g.step(a) {
                fail(&mut s, steps, format!("legal action {a} refused: {e}"));
                return s;
            }
            steps += 1;
            s.decisions += 1;
            if g.card_count().counts() != cards.counts() {
                fail(&mut s, steps, "cards not conserved".into());
                return s;
            }
            if steps % obs_every == 0 {
                if let Some(p) = g.current_player() {
                    observation::encode(&g, p, &mut obs);
                    s.observations_checked += 1;
                    if let Some(e) = self.bounds_error(t, &obs) {
                        fail(&mut s, steps, format!("seat {p}: {e}"));
                        return s;
                    }
                }
            }
            if (steps + offset) % full_every == 0 {
                s.full_checks += 1;
                if let Err(e) = self.full_check(t, &g, &cards, &mut obs) {
                    fail(&mut s, steps, e);
                    return s;
                }
            }
            if steps > limit {
                if cap > 0 {
                    fail(&mut s, steps, format!("no end after {steps} decisions"));
                }
                return s;
            }
        }
        // The end: the full check (with the zero-sum returns of check_state).
        s.full_checks += 1;
        if let Err(e) = self.full_check(t, &g, &cards, &mut obs) {
            fail(&mut s, steps, format!("at the end: {e}"));
        }
        if g.is_truncated() {
            s.truncated += 1;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_passes_the_checks() {
        for p in crate::rules::preset_names() {
            let spec = crate::rules::load_spec(p, None).unwrap();
            let n = spec.players.min.max(2) as usize;
            let r = Arc::new(Rules::from_spec(spec, n).unwrap());
            let s = checked_selfplay(r, 3, 1);
            assert_eq!(s.violations, 0, "{p}: {:?}", s.failures);
            assert!(s.decisions > 0);
        }
    }

    fn soak_tables() -> Vec<SoakTable> {
        let mut out = Vec::new();
        for p in crate::rules::preset_names() {
            let spec = crate::rules::load_spec(p, None).unwrap();
            let n = spec.players.min.max(2) as usize;
            let rules = Arc::new(Rules::from_spec(spec, n).unwrap());
            out.push(SoakTable { name: format!("{p} n={n}"), rules, low: vec![], high: vec![] });
        }
        out
    }

    #[test]
    fn fast_soak_is_clean_and_independent_of_the_thread_count() {
        let soak = FastSoak { tables: soak_tables(), seed: 5, obs_every: 1, full_every: 50 };
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let three = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let a = soak.run(0, 2 * soak.tables.len() as u64, Some(&one));
        let b = soak.run(0, 2 * soak.tables.len() as u64, Some(&three));
        assert_eq!(a.violations, 0, "{:?}", a.failures);
        assert_eq!(a, b);
        assert_eq!(a.games, 2 * soak.tables.len() as u64);
        assert!(a.decisions > 100);
        // obs_every = 1: every decision after which the game is still live (all but each
        // game's last) had its observation checked.
        assert_eq!(a.observations_checked + a.games, a.decisions);
        assert!(a.full_checks >= 2 * a.games);
    }

    #[test]
    fn fast_soak_reports_an_observation_out_of_bounds() {
        let mut tables = soak_tables();
        tables.truncate(1);
        // Bounds that every observation breaks: high below zero.
        tables[0].low = vec![-2.0; OBS_SIZE];
        tables[0].high = vec![-1.0; OBS_SIZE];
        let soak = FastSoak { tables, seed: 1, obs_every: 1, full_every: 1_000_000 };
        let s = soak.run(0, 1, None);
        assert_eq!(s.violations, 1);
        assert!(s.failures[0].contains("outside"), "{:?}", s.failures);
    }

    #[test]
    fn a_lost_card_is_reported() {
        let r = Arc::new(Rules::load("crazy_eights", 2, None).unwrap());
        let g = Game::new(r, 3);
        let mut fewer = g.card_count();
        let c = fewer.iter().next().unwrap();
        fewer.remove(c);
        assert!(check_state(&g, &fewer).unwrap_err().contains("not conserved"));
    }
}
