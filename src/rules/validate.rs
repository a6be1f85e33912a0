//! Validation of a resolved [`RulesSpec`] for a player count: the checks of
//! [`Rules::from_spec`](super::compiled::Rules::from_spec) that refuse a rule set (`validate_*`), on the
//! spec itself or on the effect table the compiler built from it (`compile.rs`). Each error
//! names the rules field and what is allowed.

use super::compiled::CardRule;
use super::error::RulesError;
use super::spec::*;
use crate::card::{Card, NUM_FACES, Rank};
use crate::card_set::CardCounts;

// ----- players -------------------------------------------------------------------------

/// The spec's own player range: `players.min` and `players.max` each in their allowed range
/// (the table of `ranges/`), and `players.min <= players.max`.
pub fn validate_player_range(s: &RulesSpec) -> Result<(), RulesError> {
    super::ranges::check_fixed_ranges(s, "players.")?;
    let (min, max) = (s.players.min, s.players.max);
    if min > max {
        return Err(RulesError::invalid(
            "players",
            format!("players.min must be at most players.max, got min {min} and max {max}"),
        ));
    }
    Ok(())
}

pub(super) fn validate_players(s: &RulesSpec, num_players: usize) -> Result<usize, RulesError> {
    validate_player_range(s)?;
    if num_players < s.players.min as usize || num_players > s.players.max as usize {
        // A variant may narrow the preset's range (xtreme's single pack): the message names
        // the variants with the preset, so that it does not contradict the preset's own range.
        let who = match s.variants.as_slice() {
            [] => s.name.clone(),
            [v] => format!("{} with variant {v}", s.name),
            vs => format!("{} with variants {}", s.name, vs.join(", ")),
        };
        return Err(RulesError::invalid(
            "num_players",
            format!("{who} {}, got {num_players}", players_allowed(s.players.min, s.players.max)),
        ));
    }
    Ok(num_players)
}

/// The player counts a rule set allows, in words: "allows 2 to 8 players", or "is for exactly 2
/// players" (not "allows 2 to 2").
pub(crate) fn players_allowed(min: u8, max: u8) -> String {
    if min == max { format!("is for exactly {min} players") } else { format!("allows {min} to {max} players") }
}

// ----- consistency of the play settings ------------------------------------------------

/// A dimension of the rules model whose behaviour this engine does not implement.
fn unsupported(field: &str) -> Result<(), RulesError> {
    Err(RulesError::unsupported(field, "its behaviour lands with the remaining presets"))
}

/// Turn order, matching, drawing, multi-card plays and draw chains.
pub(super) fn validate_play(s: &RulesSpec) -> Result<(), RulesError> {
    if !s.chain.wild_blocked {
        return Err(RulesError::unsupported(
            "chain.wild_blocked",
            "only true is implemented: a wild card cannot be played on a pending draw chain",
        ));
    }
    if s.order.first == FirstPlayer::PreviousLoser && s.deal.starter != Starter::None {
        return Err(RulesError::unsupported(
            "order.first",
            "previous_loser is implemented for games without a start card (deal.starter = \"none\"), \
             where the first player leads any card",
        ));
    }
    if s.matching.base != "suit_or_rank" {
        return Err(RulesError::invalid("match.base", "only \"suit_or_rank\" exists"));
    }
    if s.matching.extra.contains(&MatchExtra::Sequence) {
        return Err(RulesError::invalid("match.extra", "sequence matching is multi.mode = \"zodiac_run\""));
    }
    if matches!(s.draw.mode, DrawMode::UpTo | DrawMode::UntilPlayableOrHand) && s.draw.limit == 0 {
        return Err(RulesError::invalid(
            "draw.limit",
            "draw.mode up_to / until_playable_or_hand needs draw.limit >= 1",
        ));
    }
    if !matches!(
        s.multi.mode,
        MultiMode::Off
            | MultiMode::EqualRank
            | MultiMode::MatchingRun
            | MultiMode::PairsWithCover
            | MultiMode::ZodiacRun
            | MultiMode::UpTo3OrAll
    ) {
        return unsupported("multi.mode");
    }
    if s.multi.order != MultiSpec::default().order {
        return unsupported("multi.order");
    }
    if !s.chain.can_circle {
        return unsupported("chain.can_circle");
    }
    let increments = s.chain.accumulate == Accumulate::Increment
        || s.cards.values().any(|c| c.draw_chain.as_ref().is_some_and(|d| d.accumulate == Some(Accumulate::Increment)));
    if increments && s.chain.increment == 0 {
        return Err(RulesError::invalid("chain.increment", "accumulate = \"increment\" needs chain.increment >= 1"));
    }
    Ok(())
}

/// The end of a hand, match play, the last card and the preset options.
pub(super) fn validate_end_and_options(s: &RulesSpec, n: usize) -> Result<(), RulesError> {
    if s.end.play_for_second && n > 3 {
        // one_card: with three players, once there is a winner the two others may play on
        // for second place. With two players it is inert.
        return Err(RulesError::invalid(
            "end.play_for_second",
            format!(
                "playing on for second place is for three players (two are allowed, it then has no effect), got {n}"
            ),
        ));
    }
    if !s.end.empty_hand {
        return Err(RulesError::invalid("end.empty_hand", "every game ends when a hand is empty"));
    }
    if s.options.shield_same_suit {
        return unsupported("options.shield_same_suit");
    }
    if s.options.allow_500 {
        validate_allow_500(s, n)?;
    }
    if s.options.speed_in.is_some() {
        return unsupported("options.speed_in");
    }
    if s.series.play_match
        && s.series.target.is_none()
        && s.series.target_per_player.is_none()
        && s.series.max_hands.is_none()
    {
        return Err(RulesError::invalid(
            "series.match",
            "a match needs series.target, series.target_per_player or series.max_hands",
        ));
    }
    validate_scoring_agrees(s)?;
    if s.countdown.is_some() && s.series.play_match {
        // The countdown is the match: scores count down from the start score, and the game
        // ends when one reaches 0. A series of hands to a points target would never end.
        return Err(RulesError::invalid(
            "series.match",
            "a countdown game is its own match (it ends when a score reaches 0): series.match must be false",
        ));
    }
    if s.last_card.mode == LastCardMode::Action && s.last_card.penalty == 0 {
        return Err(RulesError::invalid(
            "last_card.penalty",
            "last_card.mode = \"action\" needs a penalty of at least 1 card",
        ));
    }
    Ok(())
}

/// The score's mode and what the rest of the rules read from the scores agree: a
/// `[countdown]` table goes with `score.mode = "countdown"` and no other (the countdown's
/// scores and a hand's penalty points would share one total), and a match's winner reads the
/// totals the way the mode counts them: penalty points are a loser's (the lowest total, or
/// the last below the target, wins), collected points a winner's (the first to reach the
/// target wins). Either way round, the player the scores call worst won the match.
fn validate_scoring_agrees(s: &RulesSpec) -> Result<(), RulesError> {
    let mode = serde_json::to_string(&s.score.mode).unwrap_or_default();
    match (s.countdown.is_some(), s.score.mode == ScoreMode::Countdown) {
        (true, false) => {
            return Err(RulesError::invalid(
                "score.mode",
                format!(
                    "a [countdown] table scores by counting each player down: score.mode must be \"countdown\", got {mode}"
                ),
            ));
        }
        (false, true) => {
            return Err(RulesError::invalid(
                "score.mode",
                "score.mode = \"countdown\" needs a [countdown] table (its start_score is every player's first score)",
            ));
        }
        _ => {}
    }
    if !s.series.play_match {
        return Ok(());
    }
    let winner = serde_json::to_string(&s.series.winner).unwrap_or_default();
    let wanted = match (s.score.mode, s.series.winner) {
        (ScoreMode::Penalty, SeriesWinner::FirstToReach) => {
            "\"lowest\" or \"last_below\" (penalty points are a loser's: the first to reach the target is the worst)"
        }
        (ScoreMode::WinnerCollects | ScoreMode::PerCard, SeriesWinner::Lowest | SeriesWinner::LastBelow) => {
            "\"first_to_reach\" (collected points are a winner's: the lowest total is the worst)"
        }
        _ => return Ok(()),
    };
    Err(RulesError::invalid("series.winner", format!("under score.mode = {mode} it must be {wanted}, got {winner}")))
}

/// A match to a target (and no `series.max_hands`) needs a score that can move towards it: a
/// positive card value, winner bonus or per-card scoring. Without one (`score.mode = "none"`
/// and no bonus, say) every match ran to its decision cap and was cut off there, whatever the
/// cap. `points` are the compiled card values.
pub(super) fn validate_match_target(s: &RulesSpec, points: &[i32; NUM_FACES]) -> Result<(), RulesError> {
    let target = s.series.target.is_some() || s.series.target_per_player.is_some();
    if !(s.series.play_match && target && s.series.max_hands.is_none()) {
        return Ok(());
    }
    let can_rise = s.score.winner_bonus > 0
        || match s.score.mode {
            ScoreMode::PerCard => true,
            ScoreMode::Penalty | ScoreMode::WinnerCollects => points.iter().any(|&p| p > 0),
            ScoreMode::Countdown | ScoreMode::None => false,
        };
    if can_rise {
        return Ok(());
    }
    let mode = serde_json::to_string(&s.score.mode).unwrap_or_default();
    Err(RulesError::invalid(
        "series.target",
        format!(
            "no score can move towards it (score.mode = {mode}, no positive card value or winner \
             bonus), so every match would run to its decision cap: set series.max_hands, a \
             positive score.winner_bonus, or series.match = false"
        ),
    ))
}

/// `limits.max_decisions = 0` (no cap) is allowed where every game can end: not with a blocked
/// hand that goes on (`end.blocked = false`: nobody can play or draw, and only passes are
/// left, for ever), nor with a match to a target (and no `series.max_hands`) that a score
/// can move away from (a negative winner bonus, card value or the Silly Hat): under
/// `crazy_eights_xtreme` with `match_to_100`, `silly_hat` and `winner_bonus` at two players
/// the scores of random play fell to -26,000 in a million decisions, the target never met.
/// Nor where no card of the deck lets a player go out (`last_special = "cannot_go_out"` on
/// every one): no hand can empty, and with every rank wild and extra turns one seat kept the
/// turn for ever. `points` are the compiled card values, `deck` and `card` the compiled deck
/// and effect table.
pub(super) fn validate_uncapped_end(
    s: &RulesSpec,
    points: &[i32; NUM_FACES],
    deck: &CardCounts,
    card: &[CardRule; NUM_FACES],
) -> Result<(), RulesError> {
    if s.limits.max_decisions != 0 {
        return Ok(());
    }
    let held = |i: usize| deck.count(Card(i as u8)) > 0;
    if (0..NUM_FACES).all(|i| !held(i) || card[i].last_special == LastSpecial::CannotGoOut) {
        return Err(RulesError::invalid(
            "last_special",
            "every card of the deck has last_special = \"cannot_go_out\" (its own or the \
             table-wide default of the special cards), so no hand can empty, and \
             limits.max_decisions = 0 sets no cap: let some card go out or set a decision cap",
        ));
    }
    if !s.end.blocked {
        return Err(RulesError::invalid(
            "end.blocked",
            "false leaves a blocked hand (nobody can play or draw) passing for ever, and \
             limits.max_decisions = 0 sets no cap: set end.blocked = true or a decision cap",
        ));
    }
    let target = s.series.target.is_some() || s.series.target_per_player.is_some();
    if !(s.series.play_match && target && s.series.max_hands.is_none()) {
        return Ok(());
    }
    let by_points = matches!(s.score.mode, ScoreMode::Penalty | ScoreMode::WinnerCollects);
    let falls = if s.score.winner_bonus < 0 {
        Some(format!("score.winner_bonus is {}", s.score.winner_bonus))
    } else if s.options.silly_hat {
        Some("options.silly_hat takes 10 points a hand".to_string())
    } else if by_points && points.iter().any(|&p| p < 0) {
        Some("a card value is negative".to_string())
    } else {
        None
    };
    if let Some(why) = falls {
        return Err(RulesError::invalid(
            "series.target",
            format!(
                "a score can move away from it ({why}), so the match may never end with \
                 limits.max_decisions = 0: set series.max_hands or a decision cap"
            ),
        ));
    }
    Ok(())
}

/// zodiac "Wild Instapik" moves the eights' wild rule to a number rank drawn each hand: every
/// eight must carry a wild rule that follows the nominated suit (or the eight's own), and no
/// other number card may carry one (the rank drawn takes the eight's rule, the eights that
/// rank's: none).
pub(super) fn validate_wild_instapik(s: &RulesSpec, card: &[CardRule; NUM_FACES]) -> Result<(), RulesError> {
    if !s.options.wild_instapik {
        return Ok(());
    }
    let bad = |m: &str| Err(RulesError::invalid("options.wild_instapik", m));
    if s.countdown.is_some() {
        return bad("a countdown preset has a wild rank per player already");
    }
    for c in Card::all() {
        let Some(r) = c.rank().filter(|r| (1..=9).contains(&r.index())) else { continue };
        let w = card[c.index()].wild;
        if r == Rank::Eight && !w.is_some_and(|w| w.follow == WildFollow::Normal) {
            return bad("the eights must be wild (with the normal follow rule): Wild Instapik moves their wild rule");
        }
        if r != Rank::Eight && w.is_some() {
            return bad(&format!("{c} is wild already: Wild Instapik gives the eights' wild rule to a number rank"));
        }
    }
    Ok(())
}

/// advanced_switch: with three or more players, a player whose score has passed 250 may
/// win by reaching 500, a match rule on top of the last-below-250 series.
fn validate_allow_500(s: &RulesSpec, n: usize) -> Result<(), RulesError> {
    if n < 3 {
        return Err(RulesError::invalid(
            "options.allow_500",
            format!("the 500 rule is for three or more players, got {n}"),
        ));
    }
    if !s.series.play_match || s.series.winner != SeriesWinner::LastBelow {
        return Err(RulesError::invalid(
            "options.allow_500",
            "the 500 rule belongs to a match won by the last player below the target: it needs \
             series.match = true and series.winner = \"last_below\"",
        ));
    }
    Ok(())
}

// ----- the effect table ----------------------------------------------------------------

/// `joker_lock` belongs to jokers that are neither wild nor draw-chain cards.
pub(super) fn validate_joker_lock(face: Card, cs: &CardSpec) -> Result<(), RulesError> {
    if cs.joker_lock != Some(true) {
        return Ok(());
    }
    let field = format!("cards.{face}.joker_lock");
    if !face.is_joker() {
        return Err(RulesError::invalid(
            field,
            "joker_lock is a joker's effect (selector \"joker\", \"RJ\" or \"BJ\")",
        ));
    }
    if cs.wild.as_ref().is_some_and(|w| w.enabled) || cs.draw_chain.as_ref().is_some_and(|d| d.amount > 0) {
        return Err(RulesError::invalid(field, "a locking joker cannot also be wild or start a draw chain"));
    }
    Ok(())
}

/// `options.joker_bluff`: the bluffable cards are the wilds playable only without another
/// playable card. A challenge is about their penalty, so they must carry a
/// `draw_and_lose_turn` and nothing that would have to be undone besides the nomination.
pub(super) fn validate_joker_bluff(s: &RulesSpec, card: &[CardRule; NUM_FACES]) -> Result<(), RulesError> {
    if !s.options.joker_bluff {
        return Ok(());
    }
    let mut any = false;
    for (i, r) in card.iter().enumerate() {
        if !r.wild.is_some_and(|w| w.only_if_no_other) {
            continue;
        }
        any = true;
        let plain = r.skip == 0
            && !r.reverse
            && r.chain.is_none()
            && r.draw_keep == 0
            && r.others_draw == 0
            && r.give.is_none()
            && r.pick_up_pile == 0
            && r.follow.is_none()
            && r.waste_draw == 0
            && !r.extra_turn
            && !r.free_play_next;
        if r.draw_lose == 0 || !plain {
            return Err(RulesError::invalid(
                "options.joker_bluff",
                format!(
                    "{} may be bluffed (wild.only_if_no_other) so it needs draw_and_lose_turn >= 1 and no \
                     other effect besides its nomination",
                    Card(i as u8) // i < NUM_FACES (54)
                ),
            ));
        }
    }
    if !any {
        return Err(RulesError::invalid(
            "options.joker_bluff",
            "needs a wild card with wild.only_if_no_other (the card that may be bluffed)",
        ));
    }
    Ok(())
}

/// Jokers have no suit and no rank: a deck with jokers must give them a rule.
pub(super) fn validate_jokers_have_rules(deck: &CardCounts, card: &[CardRule; NUM_FACES]) -> Result<(), RulesError> {
    for j in [Card::RED_JOKER, Card::BLACK_JOKER] {
        if deck.count(j) > 0 && !card[j.index()].is_special() {
            return Err(RulesError::invalid(
                "deck.jokers",
                format!(
                    "the deck holds jokers but {j} has no rule (a joker has no suit or rank, so it could never \
                     be played); give it an effect under cards.joker / cards.{j}, or set deck.jokers = 0"
                ),
            ));
        }
    }
    Ok(())
}
