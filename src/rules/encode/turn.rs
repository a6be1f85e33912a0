//! The turn columns of the rules encoding: drawing, passing, the stock, draw chains,
//! multi-card plays and the last-card call.

use super::{CHAIN_GROUP_SLOTS, DRAWS, Out};
use crate::rules::{
    AllPass, ChainAfter, DrawAfter, DrawMode, Exhausted, LastCardMode, MultiEffects, MultiMode, PassWhen, Rules,
};

impl Rules {
    /// Drawing, passing, the stock, chains, multi-card plays and the last card.
    pub(super) fn encode_turn(&self, o: &mut impl Out) {
        self.encode_draw(o);
        self.encode_chains_and_multi(o);
    }

    /// Drawing, passing and the stock.
    fn encode_draw(&self, o: &mut impl Out) {
        let s = &self.settings;
        o.flag("draw_voluntary", s.draw_voluntary);
        o.flag("draw_mode=until_playable", s.draw_mode == DrawMode::UntilPlayable);
        o.flag("draw_mode=until_playable_or_hand", s.draw_mode == DrawMode::UntilPlayableOrHand);
        o.flag("draw_mode=up_to", s.draw_mode == DrawMode::UpTo);
        o.num("draw_limit", s.draw_limit.into(), DRAWS, super::BYTE);
        o.flag("draw_after=may_play_drawn", s.draw_after == DrawAfter::MayPlayDrawn);
        o.flag("draw_after=may_play_any", s.draw_after == DrawAfter::MayPlayAny);
        o.flag("draw_after=must_play_drawn_if_playable", s.draw_after == DrawAfter::MustPlayDrawnIfPlayable);
        o.flag("draw_after=must_play_when_found", s.draw_after == DrawAfter::MustPlayWhenFound);
        o.num("draw_end_of_turn", s.draw_end_of_turn.into(), 4.0, super::BYTE);
        o.flag("pass_when=stock_empty", s.pass_when == PassWhen::StockEmpty);
        o.flag("pass_when=after_one_draw", s.pass_when == PassWhen::AfterOneDraw);
        o.flag("pass_when=after_draw_limit", s.pass_when == PassWhen::AfterDrawLimit);
        o.flag("pass_is_final", s.all_pass == AllPass::PassIsFinal);
        o.flag("explicit_pass", s.explicit_pass);
        o.flag("stock_exhausted=turn_over_no_shuffle", s.exhausted == Exhausted::TurnOverNoShuffle);
        o.flag("stock_exhausted=no_reshuffle", s.exhausted == Exhausted::NoReshuffle);
        o.flag("stock_exhausted=keep_five", s.exhausted == Exhausted::KeepFive);
        o.flag("refill_at_once", s.refill_at_once);
    }

    /// Draw chains, multi-card plays and the last-card call.
    fn encode_chains_and_multi(&self, o: &mut impl Out) {
        let s = &self.settings;
        o.num("chain_increment", s.chain_increment.into(), 8.0, super::BYTE);
        o.flag("chain_accept_ends_turn", s.accept_ends_turn);
        o.flag("chain_after=attack_suit_only", s.chain_after == ChainAfter::AttackSuitOnly);
        o.flag("chain_needs_stock", s.chain_needs_stock);
        o.flag("pickup_counts_as_pass", s.pickup_counts_as_pass);
        let slots = CHAIN_GROUP_SLOTS as f32;
        o.num("chain_groups", self.chain_groups.len() as f64, slots, 31.0);
        o.flag("multi_mode=equal_rank", s.multi_mode == MultiMode::EqualRank);
        o.flag("multi_mode=pairs_with_cover", s.multi_mode == MultiMode::PairsWithCover);
        o.flag("multi_mode=zodiac_run", s.multi_mode == MultiMode::ZodiacRun);
        o.flag("multi_mode=up_to_3_or_all", s.multi_mode == MultiMode::UpTo3OrAll);
        o.flag("multi_mode=matching_run", s.multi_mode == MultiMode::MatchingRun);
        o.flag("multi_effects=top_only", s.multi_effects == MultiEffects::TopOnly);
        o.flag("multi_effects=top_card_only", s.multi_effects == MultiEffects::TopCardOnly);
        o.flag("multi_effects=top_only_in_runs", s.multi_effects == MultiEffects::TopOnlyInRuns);
        o.flag("identical_bonus", s.identical_bonus);
        o.flag("last_card=auto", s.last_card_mode == LastCardMode::Auto);
        o.flag("last_card=action", s.last_card_mode == LastCardMode::Action);
        o.num("last_card_penalty", s.last_card_penalty.into(), 8.0, super::BYTE);
    }
}
