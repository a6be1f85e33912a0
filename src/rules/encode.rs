//! The rules encoding: a fixed-size, bounded `f32` vector of a compiled rule set, so that an
//! agent can be told the rules it plays under (`obs_rules=True` in the Python envs).
//!
//! Two parts, in this order:
//!
//! * **per card**: [`NUM_FACES`] rows of [`CARD_FEATURES`] values, one row per face in card
//!   order (`AC`..`KS`, `RJ`, `BJ`): everything the effect table gives that face
//!   ([`super::CardRule`]), its copies in the deck, points, start-card effect and the
//!   table-wide face sets it belongs to (rank-blocked, doubling, not multipliable, pure wild);
//! * **table-wide**: [`TABLE_FEATURES`] values: the deal, drawing, passing, the stock, chains,
//!   multi-card plays, the last card, the end of a hand, options, scoring and the match
//!   ([`super::settings::Settings`] and the compiled deck, hand size and target).
//!
//! Total [`RULES_SIZE`]. Every value is a flag (0 or 1), a one-hot group (all zeros for the
//! default choice, named in [`CARD_FEATURE_NAMES`] / [`TABLE_FEATURE_NAMES`] after a `=`), or
//! a number divided by a fixed scale that brings the usual values into `[0, 1]`; the bounds of
//! every entry are in [`bounds`]. The encoding is a function of the compiled rules for one
//! player count (the deck, hand size and points may depend on it), never of names or prose:
//! rule sets that play the same encode the same, and (see [`Rules::same_play`]) rule sets that
//! play differently encode differently, with two documented limits:
//!
//! * chain groups are encoded as [`CHAIN_GROUP_SLOTS`] slots in the engine's group order (the
//!   order of their first face); the groups past the last slot share it;
//! * which wild cards may not be played on which cards (`wild.forbidden_on`) is a relation
//!   between faces, encoded by its row and column counts (`wild_forbidden_count` on the wild,
//!   `wilds_forbidden_here` on the card below): exact when the wild cards that have such a
//!   list share one (every preset and every sampled rule set does).

use super::{
    Accumulate, AllPass, BlockedScoring, ChainAfter, ChainAnswer, DrawAfter, DrawMode, Exhausted, FirstPlayer, Follow,
    Give, LastCardMode, LastCardTiming, LastSpecial, MultiEffects, MultiMode, NextDealer, Nominate, PassWhen, Repeat,
    Rules, ScoreMode, SeriesWinner, Side, StartEffect, TwoPlayerReverse, WildFollow,
};
use crate::card::{Card, NUM_FACES};

/// Chain-group slots of the per-card rows (membership, cancel and shield): enough for every
/// preset (at most 3 groups) and every rule set the rule space draws.
pub const CHAIN_GROUP_SLOTS: usize = 4;

/// Scale of card counts per face (copies, at most 4 packs).
const COPIES: f32 = 4.0;
/// Scale of card points.
const POINTS: f32 = 100.0;
/// Scale of cards drawn, given, picked up (draw chains, penalties).
const DRAWS: f32 = 16.0;
/// Scale of skips.
const SKIPS: f32 = 4.0;

macro_rules! names {
    ($($n:literal),* $(,)?) => { [$($n),*] };
}

/// Names of the per-card columns, in order (`group=value` for a one-hot column).
pub const CARD_FEATURE_NAMES: [&str; 78] = names![
    "copies",
    "points",
    "wild",
    "wild_also_normal",
    "wild_requires_match",
    "wild_only_if_no_other",
    "wild_solo",
    "wild_follow=transparent",
    "wild_follow=free",
    "wild_forbidden_count",
    "wilds_forbidden_here",
    "nominate=required",
    "nominate=optional",
    "nominate=optional_keep_suit",
    "nominate=only_if_matching",
    "skip",
    "reverse",
    "chain_amount",
    "chain_group=0",
    "chain_group=1",
    "chain_group=2",
    "chain_group=3",
    "chain_answer=same_rank",
    "chain_answer=any_draw_card",
    "chain_answer=none",
    "chain_multi_answer=same_rank",
    "chain_multi_answer=any_draw_card",
    "chain_multi_answer=none",
    "chain_accumulate=sum",
    "chain_accumulate=increment",
    "chain_accumulate=fixed",
    "draw_and_lose_turn",
    "draw_keep_turn",
    "cancels_group=0",
    "cancels_group=1",
    "cancels_group=2",
    "cancels_group=3",
    "shields_group=0",
    "shields_group=1",
    "shields_group=2",
    "shields_group=3",
    "shield_pass_through",
    "shield_same_suit",
    "free_play_next",
    "follow=same_suit_any",
    "follow=one_matching",
    "ends_turn",
    "extra_turn",
    "others_draw",
    "give=each_other",
    "give=one",
    "waste_draw",
    "marriage",
    "next_picture",
    "next_even",
    "second_suit",
    "swap_hand",
    "ask_rank",
    "pick_up_pile",
    "must_cover",
    "pass_hands=left",
    "pass_hands=right",
    "pass_hands=direction",
    "mirror",
    "joker_lock",
    "repeat=once",
    "last_special=draws_apply",
    "last_special=as_during_hand",
    "last_special=chain_continues",
    "last_special=cannot_go_out",
    "start=ignore",
    "start=redraw",
    "start=dealer_nominates_blind",
    "start=free_play",
    "rank_blocked",
    "doubles_hand_value",
    "multi_excluded",
    "pure_wild",
];

/// Names of the table-wide values, in order (`group=value` for a one-hot column).
pub const TABLE_FEATURE_NAMES: [&str; 87] = names![
    "num_players",
    "packs",
    "deck_size",
    "hand_size",
    "dealer_extra",
    "no_start_card",
    "first_player=dealer_chooses",
    "first_player=previous_loser",
    "first_player=agreed",
    "initial_direction=ccw",
    "next_dealer=winner",
    "next_dealer=fixed",
    "joker_colours_distinct",
    "any_court",
    "rank_closed_after_wild",
    "countdown",
    "countdown_start",
    "draw_voluntary",
    "draw_mode=until_playable",
    "draw_mode=until_playable_or_hand",
    "draw_mode=up_to",
    "draw_limit",
    "draw_after=may_play_drawn",
    "draw_after=may_play_any",
    "draw_after=must_play_drawn_if_playable",
    "draw_after=must_play_when_found",
    "draw_end_of_turn",
    "pass_when=stock_empty",
    "pass_when=after_one_draw",
    "pass_when=after_draw_limit",
    "pass_is_final",
    "explicit_pass",
    "stock_exhausted=turn_over_no_shuffle",
    "stock_exhausted=no_reshuffle",
    "stock_exhausted=keep_five",
    "refill_at_once",
    "chain_increment",
    "chain_accept_ends_turn",
    "chain_after=attack_suit_only",
    "chain_needs_stock",
    "pickup_counts_as_pass",
    "chain_groups",
    "multi_mode=equal_rank",
    "multi_mode=pairs_with_cover",
    "multi_mode=zodiac_run",
    "multi_mode=up_to_3_or_all",
    "multi_mode=matching_run",
    "multi_effects=top_only",
    "multi_effects=top_card_only",
    "multi_effects=top_only_in_runs",
    "identical_bonus",
    "last_card=auto",
    "last_card=action",
    "last_card_penalty",
    "end_blocked",
    "blocked_extra_passes",
    "four_of_a_kind",
    "max_plays_set",
    "max_plays",
    "play_for_second",
    "max_decisions",
    "two_player_reverse=as_skip",
    "two_player_reverse=ordinary_card",
    "joker_bluff",
    "replay_drawn_pickup",
    "silly_hat",
    "allow_500",
    "wild_instapik",
    "score=winner_collects",
    "score=per_card",
    "score=countdown",
    "score=none",
    "score_blocked=nobody",
    "score_blocked=lowest_collects",
    "winner_bonus",
    "double_last_rank",
    "double_trouble",
    "halve_per_identical_pair",
    "match",
    "match_target",
    "max_hands_set",
    "max_hands",
    "series_winner=first_to_reach",
    "series_winner=last_below",
    "arithmetic",
    "rogue_pile",
    "last_card_timing=on_penultimate_play",
];

/// Values per card row.
pub const CARD_FEATURES: usize = CARD_FEATURE_NAMES.len();
/// Table-wide values.
pub const TABLE_FEATURES: usize = TABLE_FEATURE_NAMES.len();
/// Length of the rules encoding: `NUM_FACES * CARD_FEATURES + TABLE_FEATURES`.
pub const RULES_SIZE: usize = NUM_FACES * CARD_FEATURES + TABLE_FEATURES;

/// Writes values in order into a slice.
struct Out<'a> {
    v: &'a mut [f32],
    at: usize,
}

impl Out<'_> {
    #[inline]
    fn put(&mut self, x: f32) {
        self.v[self.at] = x;
        self.at += 1;
    }
    #[inline]
    fn flag(&mut self, b: bool) {
        self.put(if b { 1.0 } else { 0.0 });
    }
    /// `k` one-hot columns: column `i` set for `Some(i)`, none for `None` (the default).
    #[inline]
    fn one_hot(&mut self, k: usize, i: Option<usize>) {
        for j in 0..k {
            self.flag(i == Some(j));
        }
    }
    #[inline]
    fn num(&mut self, x: f64, scale: f32) {
        self.put((x / f64::from(scale)) as f32);
    }
}

/// The chain-group slot of group id `g`.
fn slot(g: usize) -> usize {
    g.min(CHAIN_GROUP_SLOTS - 1)
}

/// The slots of a set of chain groups (a bit per group id) among `groups` groups.
fn slots(mask: u32, groups: usize) -> [bool; CHAIN_GROUP_SLOTS] {
    let mut s = [false; CHAIN_GROUP_SLOTS];
    for g in 0..groups.min(32) {
        if mask & (1 << g) != 0 {
            s[slot(g)] = true;
        }
    }
    s
}

fn answer_index(a: ChainAnswer) -> usize {
    match a {
        ChainAnswer::SameRank => 0,
        ChainAnswer::AnyDrawCard => 1,
        ChainAnswer::None => 2,
    }
}

fn opt(x: Option<u32>, scale: f32, out: &mut Out<'_>) {
    out.flag(x.is_some());
    out.num(f64::from(x.unwrap_or(0)), scale);
}

impl Rules {
    /// Write the rules encoding (see the module documentation) into `out`, which must hold
    /// [`RULES_SIZE`] values.
    pub fn encode(&self, out: &mut [f32]) {
        assert_eq!(out.len(), RULES_SIZE, "the rules encoding has RULES_SIZE values");
        let mut o = Out { v: out, at: 0 };
        let groups = self.chain_groups.len();
        let wild_faces: Vec<usize> = (0..NUM_FACES).filter(|&i| self.card[i].wild.is_some()).collect();
        let s = &self.settings;
        for i in 0..NUM_FACES {
            let r = &self.card[i];
            let bit = 1u64 << i;
            // i < NUM_FACES (54): a card index.
            o.num(f64::from(self.deck.count(Card(i as u8))), COPIES);
            o.num(f64::from(self.points[i]), POINTS);
            let w = r.wild;
            o.flag(w.is_some());
            o.flag(w.is_some_and(|w| w.also_normal));
            o.flag(w.is_some_and(|w| w.requires_match));
            o.flag(w.is_some_and(|w| w.only_if_no_other));
            o.flag(w.is_some_and(|w| w.solo));
            o.flag(w.is_some_and(|w| w.follow == WildFollow::Transparent));
            o.flag(w.is_some_and(|w| w.follow == WildFollow::Free));
            o.num(w.map_or(0, |w| w.forbidden_on.count_ones()).into(), NUM_FACES as f32);
            let here = wild_faces.iter().filter(|&&k| self.card[k].wild.is_some_and(|w| w.forbidden_on & bit != 0));
            o.num(here.count() as f64, NUM_FACES as f32);
            o.one_hot(
                4,
                match r.nominate {
                    None | Some(Nominate::None) => None,
                    Some(Nominate::Required) => Some(0),
                    Some(Nominate::Optional) => Some(1),
                    Some(Nominate::OptionalKeepSuit) => Some(2),
                    Some(Nominate::OnlyIfMatching) => Some(3),
                },
            );
            o.num(r.skip.into(), SKIPS);
            o.flag(r.reverse);
            let ch = r.chain;
            o.num(ch.map_or(0, |c| c.amount).into(), DRAWS);
            o.one_hot(CHAIN_GROUP_SLOTS, ch.map(|c| slot(c.group.into())));
            o.one_hot(3, ch.map(|c| answer_index(c.answer)));
            o.one_hot(3, ch.and_then(|c| c.multi_answer).map(answer_index));
            o.one_hot(
                3,
                ch.map(|c| match c.accumulate {
                    Accumulate::Sum => 0,
                    Accumulate::Increment => 1,
                    Accumulate::Fixed => 2,
                }),
            );
            o.num(r.draw_lose.into(), DRAWS);
            o.num(r.draw_keep.into(), DRAWS);
            for b in slots(r.cancel, groups) {
                o.flag(b);
            }
            for b in slots(r.shield, groups) {
                o.flag(b);
            }
            o.flag(r.shield_through);
            o.flag(r.shield_same_suit);
            o.flag(r.free_play_next);
            o.one_hot(
                2,
                match r.follow {
                    Some(Follow::SameSuitAny) => Some(0),
                    Some(Follow::OneMatching) => Some(1),
                    _ => None,
                },
            );
            o.flag(r.ends_turn);
            o.flag(r.extra_turn);
            o.num(r.others_draw.into(), DRAWS);
            o.one_hot(
                2,
                r.give.map(|g| match g {
                    Give::EachOther => 0,
                    Give::One => 1,
                }),
            );
            o.num(r.waste_draw.into(), DRAWS);
            o.flag(r.marriage);
            o.flag(r.next_picture);
            o.flag(r.next_even);
            o.flag(r.second_suit);
            o.flag(r.swap_hand);
            o.flag(r.ask_rank);
            o.num(r.pick_up_pile.into(), DRAWS);
            o.flag(r.must_cover);
            o.one_hot(
                3,
                r.pass_hands.map(|s| match s {
                    Side::Left => 0,
                    Side::Right => 1,
                    Side::Direction => 2,
                }),
            );
            o.flag(r.mirror);
            o.flag(r.joker_lock);
            o.flag(r.repeat == Repeat::Once);
            o.one_hot(
                4,
                match r.last_special {
                    LastSpecial::Ignored => None,
                    LastSpecial::DrawsApply => Some(0),
                    LastSpecial::AsDuringHand => Some(1),
                    LastSpecial::ChainContinues => Some(2),
                    LastSpecial::CannotGoOut => Some(3),
                },
            );
            o.one_hot(
                4,
                match self.start[i] {
                    StartEffect::AsPlayedByDealer => None,
                    StartEffect::Ignore => Some(0),
                    StartEffect::Redraw => Some(1),
                    StartEffect::DealerNominatesBlind => Some(2),
                    StartEffect::FreePlay => Some(3),
                },
            );
            o.flag(self.rank_blocked & bit != 0);
            o.flag(self.double_mask & bit != 0);
            o.flag(s.multi_excluded & bit != 0);
            o.flag(s.pure_wild & bit != 0);
        }
        debug_assert_eq!(o.at, NUM_FACES * CARD_FEATURES);
        self.encode_table(&mut o);
        debug_assert_eq!(o.at, RULES_SIZE);
    }

    fn encode_table(&self, o: &mut Out<'_>) {
        let s = &self.settings;
        o.num(self.num_players.into(), 10.0);
        o.num(self.packs.into(), 4.0);
        o.num(self.deck.len() as f64, 216.0);
        o.num(self.hand_size.into(), DRAWS);
        o.num(s.dealer_extra.into(), DRAWS);
        o.flag(s.lead);
        o.one_hot(
            3,
            match s.first_player {
                FirstPlayer::DealerLeft => None,
                FirstPlayer::DealerChooses => Some(0),
                FirstPlayer::PreviousLoser => Some(1),
                FirstPlayer::Agreed => Some(2),
            },
        );
        o.flag(s.initial_direction < 0);
        o.one_hot(
            2,
            match s.next_dealer {
                NextDealer::Clockwise => None,
                NextDealer::Winner => Some(0),
                NextDealer::Fixed => Some(1),
            },
        );
        o.flag(s.joker_colours_distinct);
        o.flag(s.any_court);
        o.flag(s.rank_closed_after_wild);
        o.flag(s.countdown);
        o.num(s.countdown_start.into(), 16.0);
        o.flag(s.draw_voluntary);
        o.one_hot(
            3,
            match s.draw_mode {
                DrawMode::One => None,
                DrawMode::UntilPlayable => Some(0),
                DrawMode::UntilPlayableOrHand => Some(1),
                DrawMode::UpTo => Some(2),
            },
        );
        o.num(s.draw_limit.into(), DRAWS);
        o.one_hot(
            4,
            match s.draw_after {
                DrawAfter::EndTurn => None,
                DrawAfter::MayPlayDrawn => Some(0),
                DrawAfter::MayPlayAny => Some(1),
                DrawAfter::MustPlayDrawnIfPlayable => Some(2),
                DrawAfter::MustPlayWhenFound => Some(3),
            },
        );
        o.num(s.draw_end_of_turn.into(), 4.0);
        o.one_hot(
            3,
            match s.pass_when {
                PassWhen::Never => None,
                PassWhen::StockEmpty => Some(0),
                PassWhen::AfterOneDraw => Some(1),
                PassWhen::AfterDrawLimit => Some(2),
            },
        );
        o.flag(s.all_pass == AllPass::PassIsFinal);
        o.flag(s.explicit_pass);
        o.one_hot(
            3,
            match s.exhausted {
                Exhausted::ReshuffleAllButTop => None,
                Exhausted::TurnOverNoShuffle => Some(0),
                Exhausted::NoReshuffle => Some(1),
                Exhausted::KeepFive => Some(2),
            },
        );
        o.flag(s.refill_at_once);
        o.num(s.chain_increment.into(), 8.0);
        o.flag(s.accept_ends_turn);
        o.flag(s.chain_after == ChainAfter::AttackSuitOnly);
        o.flag(s.chain_needs_stock);
        o.flag(s.pickup_counts_as_pass);
        o.num(self.chain_groups.len() as f64, CHAIN_GROUP_SLOTS as f32);
        o.one_hot(
            5,
            match s.multi_mode {
                MultiMode::Off => None,
                MultiMode::EqualRank => Some(0),
                MultiMode::PairsWithCover => Some(1),
                MultiMode::ZodiacRun => Some(2),
                MultiMode::UpTo3OrAll => Some(3),
                MultiMode::MatchingRun => Some(4),
            },
        );
        o.one_hot(
            3,
            match s.multi_effects {
                MultiEffects::CumulateAll => None,
                MultiEffects::TopOnly => Some(0),
                MultiEffects::TopCardOnly => Some(1),
                MultiEffects::TopOnlyInRuns => Some(2),
            },
        );
        o.flag(s.identical_bonus);
        o.one_hot(
            2,
            match s.last_card_mode {
                LastCardMode::Off => None,
                LastCardMode::Auto => Some(0),
                LastCardMode::Action => Some(1),
            },
        );
        o.num(s.last_card_penalty.into(), 8.0);
        o.flag(s.end_blocked);
        o.num(s.blocked_extra_passes.into(), 4.0);
        o.flag(s.four_of_a_kind);
        opt(s.max_plays, 256.0, o);
        o.flag(s.play_for_second);
        o.num(s.max_decisions.into(), 8192.0);
        o.one_hot(
            2,
            match s.two_player_reverse {
                TwoPlayerReverse::Noop => None,
                TwoPlayerReverse::AsSkip => Some(0),
                TwoPlayerReverse::OrdinaryCard => Some(1),
            },
        );
        o.flag(s.joker_bluff);
        o.flag(s.replay_drawn_pickup);
        o.flag(s.silly_hat);
        o.flag(s.allow_500);
        o.flag(s.wild_instapik);
        o.one_hot(
            4,
            match s.score_mode {
                ScoreMode::Penalty => None,
                ScoreMode::WinnerCollects => Some(0),
                ScoreMode::PerCard => Some(1),
                ScoreMode::Countdown => Some(2),
                ScoreMode::None => Some(3),
            },
        );
        o.one_hot(
            2,
            match s.score_blocked {
                BlockedScoring::AllScore => None,
                BlockedScoring::Nobody => Some(0),
                BlockedScoring::LowestCollects => Some(1),
            },
        );
        o.num(s.winner_bonus.into(), POINTS);
        o.flag(s.double_last_rank);
        o.flag(s.double_trouble);
        o.flag(s.halve_per_identical_pair);
        o.flag(s.play_match);
        o.num(self.series_target.unwrap_or(0).into(), 1000.0);
        opt(s.max_hands, 64.0, o);
        o.one_hot(
            2,
            match s.series_winner {
                SeriesWinner::Lowest => None,
                SeriesWinner::FirstToReach => Some(0),
                SeriesWinner::LastBelow => Some(1),
            },
        );
        o.flag(self.arithmetic);
        o.flag(self.rogue);
        // Last, so that the columns before it keep their offsets.
        o.flag(s.last_card_timing == LastCardTiming::OnPenultimatePlay);
    }

    /// True when `self` and `other` play the same game: the same player count, deck, hand
    /// size, effect table, points, start effects, face sets and table-wide settings, so that
    /// the same seeds deal the same games and the same actions have the same results. Names,
    /// prose, the names of chain groups and the unresolved specification are not compared.
    pub fn same_play(&self, other: &Rules) -> bool {
        self.num_players == other.num_players
            && self.packs == other.packs
            && self.deck == other.deck
            && self.hand_size == other.hand_size
            && self.card == other.card
            && self.points == other.points
            && self.chain_groups.len() == other.chain_groups.len()
            && self.rank_blocked == other.rank_blocked
            && self.start == other.start
            && self.series_target == other.series_target
            && self.double_mask == other.double_mask
            && self.arithmetic == other.arithmetic
            && self.rogue == other.rogue
            && self.settings == other.settings
    }
}

/// Lower and upper bound of every entry of the encoding (finite), in its order.
pub fn bounds() -> (Vec<f32>, Vec<f32>) {
    let mut lo = Vec::with_capacity(RULES_SIZE);
    let mut hi = Vec::with_capacity(RULES_SIZE);
    let card = |name: &str| -> (f32, f32) {
        match name {
            "copies" => (0.0, 4.0 / COPIES),
            "points" => (-super::MAX_CARD_POINTS as f32 / POINTS, super::MAX_CARD_POINTS as f32 / POINTS),
            "wild_forbidden_count" | "wilds_forbidden_here" => (0.0, 1.0),
            "skip" => (0.0, f32::from(u8::MAX) / SKIPS),
            "chain_amount" | "draw_and_lose_turn" | "draw_keep_turn" | "others_draw" | "waste_draw"
            | "pick_up_pile" => (0.0, f32::from(u8::MAX) / DRAWS),
            _ => (0.0, 1.0),
        }
    };
    let table = |name: &str| -> (f32, f32) {
        let byte = |scale: f32| (0.0, f32::from(u8::MAX) / scale);
        match name {
            "num_players" => (0.2, 1.0),
            "packs" => (0.25, 1.0),
            "deck_size" => (0.0, 1.0),
            "hand_size" | "dealer_extra" | "draw_limit" => byte(DRAWS),
            "countdown_start" => (0.0, 13.0 / 16.0),
            "draw_end_of_turn" | "blocked_extra_passes" => byte(4.0),
            "chain_increment" | "last_card_penalty" => byte(8.0),
            "chain_groups" => (0.0, 31.0 / CHAIN_GROUP_SLOTS as f32),
            "max_plays" => (0.0, u32::MAX as f32 / 256.0),
            "max_decisions" => (0.0, u32::MAX as f32 / 8192.0),
            "winner_bonus" => (-super::MAX_WINNER_BONUS as f32 / POINTS, super::MAX_WINNER_BONUS as f32 / POINTS),
            "match_target" => (0.0, super::MAX_SERIES_TARGET as f32 / 1000.0),
            "max_hands" => (0.0, u32::MAX as f32 / 64.0),
            _ => (0.0, 1.0),
        }
    };
    for _ in 0..NUM_FACES {
        for n in CARD_FEATURE_NAMES {
            let (a, b) = card(n);
            lo.push(a);
            hi.push(b);
        }
    }
    for n in TABLE_FEATURE_NAMES {
        let (a, b) = table(n);
        lo.push(a);
        hi.push(b);
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{load_spec, preset_names};

    fn encoded(r: &Rules) -> Vec<f32> {
        let mut v = vec![f32::NAN; RULES_SIZE];
        r.encode(&mut v);
        v
    }

    #[test]
    fn every_entry_is_written_and_within_its_bounds() {
        let (lo, hi) = bounds();
        for name in preset_names() {
            let spec = load_spec(name, None).unwrap();
            for n in [spec.players.min, spec.players.max] {
                let r = Rules::from_spec(spec.clone(), n.into()).unwrap();
                for (i, x) in encoded(&r).into_iter().enumerate() {
                    assert!(x.is_finite(), "{name} {n}p: entry {i} not written");
                    assert!(lo[i] <= x && x <= hi[i], "{name} {n}p: entry {i} = {x} outside [{}, {}]", lo[i], hi[i]);
                }
            }
        }
    }

    #[test]
    fn presets_fit_the_chain_group_slots() {
        for name in preset_names() {
            let spec = load_spec(name, None).unwrap();
            let r = Rules::from_spec(spec.clone(), spec.players.max.into()).unwrap();
            assert!(r.chain_groups.len() <= CHAIN_GROUP_SLOTS, "{name}: {:?}", r.chain_groups);
        }
    }

    #[test]
    fn a_changed_card_changes_its_row_only() {
        let a = Rules::load("crazy_eights", 2, None).unwrap();
        let b = Rules::load("crazy_eights", 2, Some(&serde_json::json!({"cards": {"QS": {"skip": 1}}}))).unwrap();
        let (ea, eb) = (encoded(&a), encoded(&b));
        let qs: Card = "QS".parse().unwrap();
        let row = qs.index() * CARD_FEATURES..(qs.index() + 1) * CARD_FEATURES;
        for i in 0..RULES_SIZE {
            let col = CARD_FEATURE_NAMES[i % CARD_FEATURES];
            let expect_change = row.contains(&i) && col == "skip";
            assert_eq!(ea[i] != eb[i], expect_change, "entry {i} ({col})");
        }
        assert!(!a.same_play(&b));
    }
}
