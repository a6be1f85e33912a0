//! The table-wide rules compiled once into plain values for the engine: enums, flags, numbers
//! and face masks read at play time, so that the engine never goes back to the serde
//! specification (and a bad value is an error when the rules are loaded, not during play).

use super::error::RulesError;
use super::spec::*;
use crate::card::{Card, NUM_FACES, Rank};

/// The compiled table-wide settings of a [`RulesSpec`] (per-card rules are in
/// `Rules::card`). Each field names the rules field it comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    // ----- deal and order
    /// `deal.dealer_extra`.
    pub dealer_extra: u8,
    /// `deal.starter = none`: no start card; the first player leads any card.
    pub lead: bool,
    /// `order.first`.
    pub first_player: FirstPlayer,
    /// `order.initial_direction`, as +1 (clockwise) or -1.
    pub initial_direction: i8,
    /// `order.next_dealer`.
    pub next_dealer: NextDealer,
    /// `deck.joker_colours_distinct`.
    pub joker_colours_distinct: bool,
    // ----- matching
    /// `match.any_court`: any court card matches any court card.
    pub any_court: bool,
    /// After a wild only the nominated suit (or the follower's own wild) may follow: no rank
    /// match (`match.after_wild = nominated_suit_or_own_wild`, unless
    /// `countdown.equal_rank_on_wild`).
    pub rank_closed_after_wild: bool,
    /// `match.nomination_lapses`: a turn that ends with no card placed ends the named suit.
    pub nomination_lapses: bool,
    // ----- countdown
    /// `countdown` is set: scores count down and each player's wild rank is their score.
    pub countdown: bool,
    /// `countdown.start_score`.
    pub countdown_start: u8,
    /// `countdown.pure_wild` as a face mask: the faces that, as the player's own wild, act
    /// only as a wild (`countdown.pure_wild_ranks`, every face when empty; 0 when off).
    pub pure_wild: u64,
    // ----- drawing, passing, the stock
    /// `draw.voluntary`.
    pub draw_voluntary: bool,
    /// `draw.mode`.
    pub draw_mode: DrawMode,
    /// `draw.limit`.
    pub draw_limit: u8,
    /// `draw.after`.
    pub draw_after: DrawAfter,
    /// `draw.end_of_turn`.
    pub draw_end_of_turn: u8,
    /// `pass.when`.
    pub pass_when: PassWhen,
    /// `pass.all_pass`.
    pub all_pass: AllPass,
    /// `pass.explicit`.
    pub explicit_pass: bool,
    /// `pass.voluntary`.
    pub pass_voluntary: bool,
    /// `stock.exhausted`.
    pub exhausted: Exhausted,
    /// `stock.refill_at_once`.
    pub refill_at_once: bool,
    /// `stock.no_refill_after_out` (false when the stock is never refilled, where it acts
    /// on nothing).
    pub no_refill_after_out: bool,
    // ----- the draw chain
    /// `chain.increment`.
    pub chain_increment: u8,
    /// `chain.accept_ends_turn`.
    pub accept_ends_turn: bool,
    /// `chain.after`.
    pub chain_after: ChainAfter,
    /// `chain.needs_stock`.
    pub chain_needs_stock: bool,
    /// `chain.pickup_counts_as_pass`.
    pub pickup_counts_as_pass: bool,
    // ----- several cards per turn
    /// `multi.mode`.
    pub multi_mode: MultiMode,
    /// `multi.effects`.
    pub multi_effects: MultiEffects,
    /// `multi.excluded` as a face mask: the faces whose rank cannot be multiplied.
    pub multi_excluded: u64,
    /// `multi.identical_bonus`.
    pub identical_bonus: bool,
    // ----- last card, end of hand, limits
    /// `last_card.mode`.
    pub last_card_mode: LastCardMode,
    /// `last_card.penalty`.
    pub last_card_penalty: u8,
    /// `last_card.timing`, where it can matter: under `last_card.mode = action` with a card
    /// that gives cards away (the two timings differ only when a give leaves one card);
    /// `holding_one` otherwise (see `Rules::from_spec`).
    pub last_card_timing: LastCardTiming,
    /// `end.blocked`.
    pub end_blocked: bool,
    /// `end.blocked_extra_passes`.
    pub blocked_extra_passes: u8,
    /// `end.four_of_a_kind`.
    pub four_of_a_kind: bool,
    /// `end.max_plays`.
    pub max_plays: Option<u32>,
    /// `end.play_for_second`.
    pub play_for_second: bool,
    /// `limits.max_decisions` (0: no limit).
    pub max_decisions: u32,
    /// `two_player.reverse`.
    pub two_player_reverse: TwoPlayerReverse,
    // ----- options
    /// `options.joker_bluff`.
    pub joker_bluff: bool,
    /// `options.replay_drawn_pickup = true`.
    pub replay_drawn_pickup: bool,
    /// `options.silly_hat`.
    pub silly_hat: bool,
    /// `options.allow_500`.
    pub allow_500: bool,
    /// `options.wild_instapik`: each hand a rank from 2 to 10 takes over the eights' wild rule.
    pub wild_instapik: bool,
    // ----- scoring and the match
    /// `score.mode`.
    pub score_mode: ScoreMode,
    /// `score.blocked`.
    pub score_blocked: BlockedScoring,
    /// `score.winner_bonus`.
    pub winner_bonus: i32,
    /// `score.double_last_rank`.
    pub double_last_rank: bool,
    /// `score.double_trouble`.
    pub double_trouble: bool,
    /// `score.halve_per_identical_pair`.
    pub halve_per_identical_pair: bool,
    /// `series.play_match`.
    pub play_match: bool,
    /// `series.max_hands`.
    pub max_hands: Option<u32>,
    /// `series.winner`.
    pub series_winner: SeriesWinner,
}

impl Settings {
    /// Compile the table-wide settings of `s`. A rank in `multi.excluded` that does not
    /// parse is an error naming `multi.excluded`.
    pub fn compile(s: &RulesSpec) -> Result<Settings, RulesError> {
        let multi_excluded = rank_faces("multi.excluded", &s.multi.excluded)?;
        let cd = s.countdown.as_ref();
        let pure_wild = match cd {
            Some(c) if c.pure_wild && c.pure_wild_ranks.is_empty() => u64::MAX,
            Some(c) if c.pure_wild => rank_faces("countdown.pure_wild_ranks", &c.pure_wild_ranks)?,
            _ => 0,
        };
        Ok(Settings {
            dealer_extra: s.deal.dealer_extra,
            lead: s.deal.starter == Starter::None,
            first_player: s.order.first,
            initial_direction: if s.order.initial_direction == Direction::Ccw { -1 } else { 1 },
            next_dealer: s.order.next_dealer,
            joker_colours_distinct: s.deck.joker_colours_distinct,
            any_court: s.matching.any_court,
            rank_closed_after_wild: s.matching.after_wild == AfterWild::NominatedSuitOrOwnWild
                && !cd.is_some_and(|c| c.equal_rank_on_wild),
            nomination_lapses: s.matching.nomination_lapses,
            countdown: cd.is_some(),
            countdown_start: cd.map_or(0, |c| c.start_score),
            pure_wild,
            draw_voluntary: s.draw.voluntary,
            draw_mode: s.draw.mode,
            draw_limit: s.draw.limit,
            draw_after: s.draw.after,
            draw_end_of_turn: s.draw.end_of_turn,
            pass_when: s.passing.when,
            all_pass: s.passing.all_pass,
            explicit_pass: s.passing.explicit,
            pass_voluntary: s.passing.voluntary,
            exhausted: s.stock.exhausted,
            refill_at_once: s.stock.refill_at_once,
            no_refill_after_out: s.stock.no_refill_after_out && s.stock.exhausted != Exhausted::NoReshuffle,
            chain_increment: s.chain.increment,
            accept_ends_turn: s.chain.accept_ends_turn,
            chain_after: s.chain.after,
            chain_needs_stock: s.chain.needs_stock,
            pickup_counts_as_pass: s.chain.pickup_counts_as_pass,
            multi_mode: s.multi.mode,
            multi_effects: s.multi.effects,
            multi_excluded,
            identical_bonus: s.multi.identical_bonus,
            last_card_mode: s.last_card.mode,
            last_card_penalty: s.last_card.penalty,
            last_card_timing: if s.last_card.mode == LastCardMode::Action {
                s.last_card.timing
            } else {
                LastCardTiming::HoldingOne
            },
            end_blocked: s.end.blocked,
            blocked_extra_passes: s.end.blocked_extra_passes,
            four_of_a_kind: s.end.four_of_a_kind,
            max_plays: s.end.max_plays,
            play_for_second: s.end.play_for_second,
            max_decisions: s.limits.max_decisions,
            two_player_reverse: s.two_player.reverse,
            joker_bluff: s.options.joker_bluff,
            replay_drawn_pickup: s.options.replay_drawn_pickup == Some(true),
            silly_hat: s.options.silly_hat,
            allow_500: s.options.allow_500,
            wild_instapik: s.options.wild_instapik,
            score_mode: s.score.mode,
            score_blocked: s.score.blocked,
            winner_bonus: s.score.winner_bonus,
            double_last_rank: s.score.double_last_rank,
            double_trouble: s.score.double_trouble,
            halve_per_identical_pair: s.score.halve_per_identical_pair,
            play_match: s.series.play_match,
            max_hands: s.series.max_hands,
            series_winner: s.series.winner,
        })
    }
}

/// The faces of the ranks named in `ranks`, as a face mask; a name that is not a rank is an
/// error naming `field`.
fn rank_faces(field: &str, ranks: &[String]) -> Result<u64, RulesError> {
    let mut mask = 0u64;
    for x in ranks {
        let rank = Rank::parse(x).ok_or_else(|| RulesError::Invalid {
            field: field.into(),
            message: format!("{x:?} is not a rank (A, 2 to 9, T or 10, J, Q, K)"),
        })?;
        // i < NUM_FACES (54): fits u8.
        mask |= (0..NUM_FACES).filter(|&i| Card(i as u8).rank() == Some(rank)).fold(0u64, |m, i| m | 1 << i);
    }
    Ok(mask)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::load::load_spec;

    #[test]
    fn multi_excluded_compiles_to_the_faces_of_its_ranks() {
        let mut spec = load_spec("crazy_eights", None).unwrap();
        spec.multi.excluded = vec!["K".into(), "10".into()];
        let s = Settings::compile(&spec).unwrap();
        let faces: Vec<Card> =
            (0..NUM_FACES).filter(|&i| s.multi_excluded & 1 << i != 0).map(|i| Card(i as u8)).collect();
        assert_eq!(faces.len(), 8, "{faces:?}");
        for c in &faces {
            assert!(matches!(c.rank(), Some(Rank::King | Rank::Ten)), "{c}");
        }
        assert_eq!(Settings::compile(&load_spec("crazy_eights", None).unwrap()).unwrap().multi_excluded, 0);
    }
}
