//! Field checks of a loaded snapshot beyond what `Game::from_snapshot` checks while it
//! rebuilds the game: every index in range (seats, suits, asked ranks, chain groups, card
//! bits), counters far from their type's limits, and the end-of-game fields consistent with
//! each other and with the phase; then, on the rebuilt game, a live game must have a legal
//! action. Each message names the field.

use super::saved::Snapshot;
use super::state::{Bluff, Phase, Restrict};
use super::table::Game;
use crate::action::ActionMask;
use crate::card::NUM_FACES;
use crate::rules::{MAX_PLAYERS, Rules};

/// Largest magnitude of a match score or hand points in a loaded state (real totals stay
/// below a few thousand; the limit keeps every sum far from `i32` overflow).
pub const MAX_SCORE: i32 = 1_000_000_000;
/// Largest decision or hand counter in a loaded state.
pub const MAX_COUNTER: u32 = i32::MAX as u32;

fn restrict_ok(r: Restrict) -> Result<(), String> {
    match r {
        Restrict::Suit(s) | Restrict::Also(s) if s >= 4 => Err(format!("suit index must be in [0, 3], got {s}")),
        Restrict::Ask(k) if k >= 15 => Err(format!("asked rank must be in [0, 14], got {k}")),
        _ => Ok(()),
    }
}

fn bluff_ok(b: &Bluff, n: usize) -> Result<(), String> {
    if b.by as usize >= n {
        return Err(format!("by: seat must be in [0, {}], got {}", n - 1, b.by));
    }
    if let Some(s) = b.prev_nominated.filter(|&s| s >= 4) {
        return Err(format!("prev_nominated: suit index must be in [0, 3], got {s}"));
    }
    restrict_ok(b.prev_restrict).map_err(|e| format!("prev_restrict: {e}"))
}

/// The zones and one-turn states that only some rules have: each must be empty (or at its
/// default) unless the rules have the mechanic that fills it. Each message names the field
/// and the rules field that would allow it.
fn check_rules_zones(s: &Snapshot, rules: &Rules) -> Result<(), String> {
    use crate::rules::{AllPass, Exhausted};
    let set = &rules.settings;
    let any = |f: fn(&crate::rules::CardRule) -> bool| rules.card.iter().any(f);
    let need = |field: &str, what: &str| Err(format!("{field}: only rules with {what} have one; these rules do not"));
    if !s.rogue.is_empty() {
        if !rules.rogue {
            return need("rogue", "a rogue pile (match.extra = [\"rogue_pile\"])");
        }
        if let Some(c) = s.rogue.iter().find(|c| !c.is_red() || c.is_joker()) {
            return Err(format!("rogue: the rogue pile holds red cards only, got {c}"));
        }
    }
    if s.hat.is_some() && !set.silly_hat {
        return need("hat", "the Silly Hat (options.silly_hat)");
    }
    if s.missed != 0 && !set.joker_bluff {
        return need("missed", "missed turns (options.joker_bluff)");
    }
    if s.done != 0 && set.all_pass != AllPass::PassIsFinal && !set.play_for_second {
        return need("done", "players out of the hand (pass.all_pass = \"pass_is_final\" or end.play_for_second)");
    }
    if !s.kept.is_empty() && s.phase != Phase::Keep {
        return Err(format!("kept: cards are kept only in phase keep, not {:?}", s.phase.name()));
    }
    if s.phase == Phase::Keep && set.exhausted != Exhausted::KeepFive {
        return need("phase", "a keep phase (stock.exhausted = \"keep_five\")");
    }
    if s.interlude.kind == super::state::InterludeKind::MirrorThree && !rules.has_mirror {
        return need("interlude", "a mirror window (a card with mirror)");
    }
    let phase_rule: Option<(&str, bool)> = match s.phase {
        Phase::Give => Some(("a give card (cards.*.give)", any(|r| r.give.is_some()))),
        Phase::Target => Some(("a swap card (cards.*.swap_hand)", any(|r| r.swap_hand))),
        Phase::Ask => Some(("an ask card (cards.*.ask_rank)", any(|r| r.ask_rank))),
        Phase::SecondSuit => Some(("the reserved second_suit phase (no rules use it)", false)),
        _ => None,
    };
    if let Some((what, false)) = phase_rule {
        return Err(format!("phase: {:?} needs {what}; these rules have none", s.phase.name()));
    }
    for (field, r) in [("restrict", s.restrict), ("turn.restrict", s.turn.restrict)] {
        let allowed = match r {
            Restrict::None => true,
            Restrict::Picture => any(|c| c.next_picture),
            Restrict::Even => any(|c| c.next_even),
            Restrict::Suit(_) => set.chain_after == crate::rules::ChainAfter::AttackSuitOnly,
            Restrict::Also(_) => any(|c| c.second_suit),
            Restrict::Ask(_) => any(|c| c.ask_rank),
        };
        if !allowed {
            return Err(format!("{field}: {r:?} is a constraint these rules never set"));
        }
    }
    if (s.chain.active || s.turn.chain_add > 0) && rules.chain_groups.is_empty() {
        return need("chain", "a draw chain (cards.*.draw_chain)");
    }
    Ok(())
}

/// Checks on the raw snapshot, before the game is rebuilt. `rules` are the snapshot's
/// compiled rules (so `num_players` is already known to be valid for them).
pub fn check_fields(s: &Snapshot, rules: &Rules) -> Result<(), String> {
    let n = s.num_players as usize;
    if s.format != 1 {
        return Err(format!("format: only format 1 exists, got {}", s.format));
    }
    if !(2..=MAX_PLAYERS).contains(&n) {
        return Err(format!("num_players must be in [2, {MAX_PLAYERS}], got {n}"));
    }
    let seat = |field: &str, v: Option<u8>| match v {
        Some(p) if p as usize >= n => Err(format!("{field}: seat must be in [0, {}], got {p}", n - 1)),
        _ => Ok(()),
    };
    seat("current", Some(s.current))?;
    seat("dealer", Some(s.dealer))?;
    seat("winner", s.winner)?;
    seat("hand_winner", s.hand_winner)?;
    seat("went_out", s.went_out)?;
    seat("hat", s.hat)?;
    seat("previous_loser", s.previous_loser)?;
    if s.direction != 1 && s.direction != -1 {
        return Err(format!("direction must be 1 or -1, got {}", s.direction));
    }
    restrict_ok(s.restrict).map_err(|e| format!("restrict: {e}"))?;
    check_rules_zones(s, rules)?;
    restrict_ok(s.turn.restrict).map_err(|e| format!("turn.restrict: {e}"))?;
    if let Some(b) = &s.turn.bluff {
        bluff_ok(b, n).map_err(|e| format!("turn.bluff.{e}"))?;
    }
    if let Some(b) = &s.challenge {
        bluff_ok(b, n).map_err(|e| format!("challenge.{e}"))?;
    }
    let groups = rules.chain_groups.len().max(1);
    if s.chain.group as usize >= groups {
        return Err(format!("chain.group must be in [0, {}], got {}", groups - 1, s.chain.group));
    }
    if s.turn.chain_group as usize >= groups {
        return Err(format!("turn.chain_group must be in [0, {}], got {}", groups - 1, s.turn.chain_group));
    }
    if let Some(k) = s.turn.kept_suit.filter(|&k| k >= 4) {
        return Err(format!("turn.kept_suit: suit index must be in [0, 3], got {k}"));
    }
    if s.turn.replay >> NUM_FACES != 0 {
        return Err(format!("turn.replay: card bits must be below bit {NUM_FACES}"));
    }
    if s.terminal && s.truncated {
        return Err("terminal and truncated: a game that ended cannot also be truncated".into());
    }
    if s.terminal != (s.phase == Phase::GameOver) {
        return Err(format!(
            "phase is {:?} but terminal is {}: the phase is game_over exactly when the game has ended",
            s.phase.name(),
            s.terminal
        ));
    }
    if s.winner.is_some() && !s.terminal {
        return Err("winner is set but the game has not ended (terminal is false)".into());
    }
    for (field, v) in [("scores", &s.scores), ("hand_points", &s.hand_points)] {
        // MAX_SCORE is a positive i32 constant: exact as u32.
        if let Some(x) = v.iter().find(|x| x.unsigned_abs() > MAX_SCORE as u32) {
            return Err(format!("{field}: each must be in [-{MAX_SCORE}, {MAX_SCORE}], got {x}"));
        }
    }
    for (field, v) in [("decisions", s.decisions), ("hands_played", s.hands_played), ("plays", s.plays)] {
        if v > MAX_COUNTER {
            return Err(format!("{field} must be in [0, {MAX_COUNTER}], got {v}"));
        }
    }
    Ok(())
}

/// Checks on the rebuilt game: while it runs, the player to act has a legal action.
pub fn check_game(g: &Game) -> Result<(), String> {
    if g.is_terminal() || g.is_truncated() {
        return Ok(());
    }
    let mut m = ActionMask::default();
    g.legal_actions(&mut m);
    if m.is_empty() {
        return Err(format!(
            "phase {:?}: seat {} is to act but has no legal action (the fields are inconsistent)",
            g.phase().name(),
            g.current_player().unwrap_or(0)
        ));
    }
    Ok(())
}
