//! A card's row of the rules encoding: copies and points, the wild rule and nomination, skip,
//! reverse and draw chains, the other effects, and the start effect and face sets.

use super::{CHAIN_GROUP_SLOTS, COPIES, DRAWS, Out, POINTS, SKIPS};
use crate::card::{Card, NUM_FACES};
use crate::rules::{
    Accumulate, ChainAnswer, Follow, Give, LastSpecial, MAX_CARD_POINTS, Nominate, Repeat, Rules, Side, StartEffect,
    WildFollow,
};

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

/// The one-hot columns of the chain-group slots.
const CHAIN_GROUP: [&str; CHAIN_GROUP_SLOTS] = ["chain_group=0", "chain_group=1", "chain_group=2", "chain_group=3"];
/// The chain groups a card cancels, by slot.
const CANCELS_GROUP: [&str; CHAIN_GROUP_SLOTS] =
    ["cancels_group=0", "cancels_group=1", "cancels_group=2", "cancels_group=3"];
/// The chain groups a card shields against, by slot.
const SHIELDS_GROUP: [&str; CHAIN_GROUP_SLOTS] =
    ["shields_group=0", "shields_group=1", "shields_group=2", "shields_group=3"];

impl Rules {
    /// The row of face `i`.
    pub(super) fn encode_card(&self, i: usize, o: &mut impl Out) {
        // i < NUM_FACES (54): a card index.
        o.num("copies", f64::from(self.deck.count(Card(i as u8))), COPIES, 4.0);
        o.num_in("points", f64::from(self.points[i]), POINTS, -(MAX_CARD_POINTS as f32), MAX_CARD_POINTS as f32);
        self.encode_wild(i, o);
        self.encode_chain(i, o);
        self.encode_effects(i, o);
        self.encode_start_and_sets(i, o);
    }

    /// The wild rule of face `i` and its nomination.
    fn encode_wild(&self, i: usize, o: &mut impl Out) {
        let r = &self.card[i];
        let bit = 1u64 << i;
        let w = r.wild;
        o.flag("wild", w.is_some());
        o.flag("wild_also_normal", w.is_some_and(|w| w.also_normal));
        o.flag("wild_requires_match", w.is_some_and(|w| w.requires_match));
        o.flag("wild_only_if_no_other", w.is_some_and(|w| w.only_if_no_other));
        o.flag("wild_solo", w.is_some_and(|w| w.solo));
        o.flag("wild_follow=transparent", w.is_some_and(|w| w.follow == WildFollow::Transparent));
        o.flag("wild_follow=free", w.is_some_and(|w| w.follow == WildFollow::Free));
        let faces = NUM_FACES as f32;
        o.num("wild_forbidden_count", w.map_or(0, |w| w.forbidden_on.count_ones()).into(), faces, faces);
        let here = self.card.iter().filter(|c| c.wild.is_some_and(|w| w.forbidden_on & bit != 0)).count();
        o.num("wilds_forbidden_here", here as f64, faces, faces);
        o.flag("nominate=required", r.nominate == Some(Nominate::Required));
        o.flag("nominate=optional", r.nominate == Some(Nominate::Optional));
        o.flag("nominate=optional_keep_suit", r.nominate == Some(Nominate::OptionalKeepSuit));
        o.flag("nominate=only_if_matching", r.nominate == Some(Nominate::OnlyIfMatching));
    }

    /// Skip, reverse and the draw chains of face `i`: the chain it starts, what answers it,
    /// the draws it imposes, the chains it cancels or shields against.
    fn encode_chain(&self, i: usize, o: &mut impl Out) {
        let r = &self.card[i];
        let groups = self.chain_groups.len();
        o.num("skip", r.skip.into(), SKIPS, super::BYTE);
        o.flag("reverse", r.reverse);
        let ch = r.chain;
        o.num("chain_amount", ch.map_or(0, |c| c.amount).into(), DRAWS, super::BYTE);
        for (k, name) in CHAIN_GROUP.into_iter().enumerate() {
            o.flag(name, ch.is_some_and(|c| slot(c.group.into()) == k));
        }
        let answer = ch.map(|c| c.answer);
        o.flag("chain_answer=same_rank", answer == Some(ChainAnswer::SameRank));
        o.flag("chain_answer=any_draw_card", answer == Some(ChainAnswer::AnyDrawCard));
        o.flag("chain_answer=none", answer == Some(ChainAnswer::None));
        let multi = ch.and_then(|c| c.multi_answer);
        o.flag("chain_multi_answer=same_rank", multi == Some(ChainAnswer::SameRank));
        o.flag("chain_multi_answer=any_draw_card", multi == Some(ChainAnswer::AnyDrawCard));
        o.flag("chain_multi_answer=none", multi == Some(ChainAnswer::None));
        let acc = ch.map(|c| c.accumulate);
        o.flag("chain_accumulate=sum", acc == Some(Accumulate::Sum));
        o.flag("chain_accumulate=increment", acc == Some(Accumulate::Increment));
        o.flag("chain_accumulate=fixed", acc == Some(Accumulate::Fixed));
        o.num("draw_and_lose_turn", r.draw_lose.into(), DRAWS, super::BYTE);
        o.num("draw_keep_turn", r.draw_keep.into(), DRAWS, super::BYTE);
        for (name, b) in CANCELS_GROUP.into_iter().zip(slots(r.cancel, groups)) {
            o.flag(name, b);
        }
        for (name, b) in SHIELDS_GROUP.into_iter().zip(slots(r.shield, groups)) {
            o.flag(name, b);
        }
        o.flag("shield_pass_through", r.shield_through);
        o.flag("shield_same_suit", r.shield_same_suit);
    }

    /// The other effects of face `i`: follow-ons, extra turns, draws and gifts, hands passed.
    fn encode_effects(&self, i: usize, o: &mut impl Out) {
        let r = &self.card[i];
        o.flag("free_play_next", r.free_play_next);
        o.flag("follow=same_suit_any", r.follow == Some(Follow::SameSuitAny));
        o.flag("follow=one_matching", r.follow == Some(Follow::OneMatching));
        o.flag("ends_turn", r.ends_turn);
        o.flag("extra_turn", r.extra_turn);
        o.num("others_draw", r.others_draw.into(), DRAWS, super::BYTE);
        o.flag("give=each_other", r.give == Some(Give::EachOther));
        o.flag("give=one", r.give == Some(Give::One));
        o.num("waste_draw", r.waste_draw.into(), DRAWS, super::BYTE);
        o.flag("marriage", r.marriage);
        o.flag("next_picture", r.next_picture);
        o.flag("next_even", r.next_even);
        o.flag("second_suit", r.second_suit);
        o.flag("swap_hand", r.swap_hand);
        o.flag("ask_rank", r.ask_rank);
        o.num("pick_up_pile", r.pick_up_pile.into(), DRAWS, super::BYTE);
        o.flag("must_cover", r.must_cover);
        o.flag("pass_hands=left", r.pass_hands == Some(Side::Left));
        o.flag("pass_hands=right", r.pass_hands == Some(Side::Right));
        o.flag("pass_hands=direction", r.pass_hands == Some(Side::Direction));
        o.flag("mirror", r.mirror);
        o.flag("joker_lock", r.joker_lock);
        o.flag("repeat=once", r.repeat == Repeat::Once);
    }

    /// What face `i` does as the last card, as the start card, and the table-wide face sets
    /// it belongs to.
    fn encode_start_and_sets(&self, i: usize, o: &mut impl Out) {
        let last = self.card[i].last_special;
        o.flag("last_special=draws_apply", last == LastSpecial::DrawsApply);
        o.flag("last_special=as_during_hand", last == LastSpecial::AsDuringHand);
        o.flag("last_special=chain_continues", last == LastSpecial::ChainContinues);
        o.flag("last_special=cannot_go_out", last == LastSpecial::CannotGoOut);
        let start = self.start[i];
        o.flag("start=ignore", start == StartEffect::Ignore);
        o.flag("start=redraw", start == StartEffect::Redraw);
        o.flag("start=dealer_nominates_blind", start == StartEffect::DealerNominatesBlind);
        o.flag("start=free_play", start == StartEffect::FreePlay);
        let bit = 1u64 << i;
        let s = &self.settings;
        o.flag("rank_blocked", self.rank_blocked & bit != 0);
        o.flag("doubles_hand_value", self.double_mask & bit != 0);
        o.flag("multi_excluded", s.multi_excluded & bit != 0);
        o.flag("pure_wild", s.pure_wild & bit != 0);
    }
}
