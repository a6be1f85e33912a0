//! Invariant checks of a running game and checked random playouts, shared by the fuzz
//! harness (`tests/fuzz_inputs.rs`), the soak command (`python -m eights soak`) and tests.
//!
//! [`check_state`] lists what must hold after every decision; [`checked_playout`] plays a
//! game to its end with a seeded random player and checks the invariants after each step.

use crate::action::{Action, ActionMask, NUM_ACTIONS};
use crate::bots::RandomBot;
use crate::card_set::CardCounts;
use crate::game::{Game, derive_seed};
use crate::observation::{self, OBS_SIZE};
use crate::rules::Rules;
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
    let mut stats = CheckStats::default();
    for i in 0..games {
        let mut g = Game::new(rules.clone(), derive_seed(seed, i));
        checked_playout(&mut g, derive_seed(seed ^ 0xC4EC, i), &mut stats);
    }
    stats
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
