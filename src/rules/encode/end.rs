//! The end-of-hand columns of the rules encoding: a blocked game, the limits, the options,
//! scoring and the match.

use super::{Out, POINTS, WORD};
use crate::rules::{
    BlockedScoring, LastCardTiming, MAX_SERIES_TARGET, MAX_WINNER_BONUS, Rules, ScoreMode, SeriesWinner,
    TwoPlayerReverse,
};

impl Rules {
    /// The end of a hand, the options, scoring and the match.
    pub(super) fn encode_end(&self, o: &mut impl Out) {
        self.encode_end_and_options(o);
        self.encode_scoring(o);
    }

    /// A blocked game, the limits of a hand, the two-player reverse and the options.
    fn encode_end_and_options(&self, o: &mut impl Out) {
        let s = &self.settings;
        o.flag("end_blocked", s.end_blocked);
        o.num("blocked_extra_passes", s.blocked_extra_passes.into(), 4.0, super::BYTE);
        o.flag("four_of_a_kind", s.four_of_a_kind);
        o.opt("max_plays_set", "max_plays", s.max_plays, 256.0, WORD);
        o.flag("play_for_second", s.play_for_second);
        o.num("max_decisions", s.max_decisions.into(), 8192.0, WORD);
        o.flag("two_player_reverse=as_skip", s.two_player_reverse == TwoPlayerReverse::AsSkip);
        o.flag("two_player_reverse=ordinary_card", s.two_player_reverse == TwoPlayerReverse::OrdinaryCard);
        o.flag("joker_bluff", s.joker_bluff);
        o.flag("replay_drawn_pickup", s.replay_drawn_pickup);
        o.flag("silly_hat", s.silly_hat);
        o.flag("allow_500", s.allow_500);
        o.flag("wild_instapik", s.wild_instapik);
    }

    /// Scoring and the match.
    fn encode_scoring(&self, o: &mut impl Out) {
        let s = &self.settings;
        o.flag("score=winner_collects", s.score_mode == ScoreMode::WinnerCollects);
        o.flag("score=per_card", s.score_mode == ScoreMode::PerCard);
        o.flag("score=countdown", s.score_mode == ScoreMode::Countdown);
        o.flag("score=none", s.score_mode == ScoreMode::None);
        o.flag("score_blocked=nobody", s.score_blocked == BlockedScoring::Nobody);
        o.flag("score_blocked=lowest_collects", s.score_blocked == BlockedScoring::LowestCollects);
        let bonus = MAX_WINNER_BONUS as f32;
        o.num_in("winner_bonus", s.winner_bonus.into(), POINTS, -bonus, bonus);
        o.flag("double_last_rank", s.double_last_rank);
        o.flag("double_trouble", s.double_trouble);
        o.flag("halve_per_identical_pair", s.halve_per_identical_pair);
        o.flag("match", s.play_match);
        o.num("match_target", self.series_target.unwrap_or(0).into(), 1000.0, MAX_SERIES_TARGET as f32);
        o.opt("max_hands_set", "max_hands", s.max_hands, 64.0, WORD);
        o.flag("series_winner=first_to_reach", s.series_winner == SeriesWinner::FirstToReach);
        o.flag("series_winner=last_below", s.series_winner == SeriesWinner::LastBelow);
        o.flag("arithmetic", self.arithmetic);
        o.flag("rogue_pile", self.rogue);
        // Last, in the order they were added, so that the columns before them keep their offsets.
        o.flag("last_card_timing=on_penultimate_play", s.last_card_timing == LastCardTiming::OnPenultimatePlay);
        o.flag("pass_only_when_unable", !s.pass_voluntary);
        o.flag("no_refill_after_out", s.no_refill_after_out);
        o.flag("nomination_lapses", s.nomination_lapses);
    }
}
