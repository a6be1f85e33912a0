//! Turns without a play: the start of a turn, drawing, accepting a chain and passing.

use super::*;

impl Game {
    /// The start of a turn: apply the five-card rule (`stock.exhausted = keep_five`) when the
    /// stock holds fewer than five cards and someone holds more than five.
    /// Both parts are rare and out of line, so the check inlined in every turn is two tests.
    #[inline]
    pub(super) fn begin_turn(&mut self) {
        if self.missed != 0 {
            self.pass_over_missed();
        }
        if self.rules.settings.exhausted == Exhausted::KeepFive && self.stock.len() < 5 && !self.terminal {
            self.keep_five_due();
        }
    }

    /// A seat that misses its next turn (a challenged illegal joker) is passed over once.
    #[inline(never)]
    fn pass_over_missed(&mut self) {
        while self.missed & (1 << self.current) != 0 && self.phase == Phase::Play && !self.terminal {
            self.missed &= !(1 << self.current);
            self.current = self.step_in(self.current, 1);
        }
    }

    /// The five-card rule, when the stock holds fewer than five cards in a live game.
    #[inline(never)]
    fn keep_five_due(&mut self) {
        self.recycle_dead_pile();
        if self.stock.len() >= 5 {
            return;
        }
        let resume = self.current;
        if let Some(k) = (0..self.n).find(|&k| self.hands[self.advance(resume, k as usize) as usize].len() > 5) {
            self.interlude = Interlude { kind: InterludeKind::KeepFive, resume, seat: k, ..Interlude::default() };
            self.kept.clear();
            self.current = self.advance(resume, k as usize);
            self.phase = Phase::Keep;
        }
    }

    pub(super) fn draw_action(&mut self) {
        self.note_declined(false);
        let p = self.current as usize;
        let d = self.rules.settings;
        let mut got = None;
        let mut take = |g: &mut Game| -> bool {
            match g.draw_one() {
                Some(c) => {
                    g.hands[p].add(c);
                    g.void_took_unseen(p, 1);
                    g.turn.drawn += 1;
                    g.turn.drawn_card = Some(c);
                    got = Some(c);
                    true
                }
                None => false,
            }
        };
        match d.draw_mode {
            DrawMode::One | DrawMode::UpTo => {
                take(self);
            }
            DrawMode::UntilPlayable => {
                while take(self) {
                    if self.has_playable() {
                        break;
                    }
                }
            }
            DrawMode::UntilPlayableOrHand => {
                if self.hands[p].len() >= d.draw_limit as usize {
                    take(self);
                } else {
                    while take(self) {
                        if self.has_playable() || self.hands[p].len() >= d.draw_limit as usize {
                            break;
                        }
                    }
                }
            }
        }
        if got.is_some() {
            self.pass_streak = 0;
        }
        let asked = matches!(self.restrict, Restrict::Ask(_));
        let go_on = match d.draw_after {
            DrawAfter::EndTurn => false,
            DrawAfter::MayPlayDrawn | DrawAfter::MustPlayDrawnIfPlayable => {
                !asked && self.turn.drawn_card.is_some_and(|c| self.playable(c))
            }
            DrawAfter::MayPlayAny | DrawAfter::MustPlayWhenFound => {
                !asked
                    && (self.has_playable()
                        || (d.draw_mode == DrawMode::UpTo && self.turn.drawn < d.draw_limit && self.can_draw()))
            }
        };
        if go_on || (d.explicit_pass && d.draw_after != DrawAfter::EndTurn) {
            // `pass.explicit`: with nothing left to do the player still passes themselves.
            self.phase = Phase::AfterDraw;
        } else if got.is_some() && d.all_pass == crate::rules::AllPass::PassIsFinal && !self.can_draw() {
            // kings_reverse: "if player A takes the last of the draw pack, he/she either plays
            // it or passes. If player A passes, he/she is done": a last card that cannot be
            // played ends the turn as that pass.
            self.pass_for_good();
        } else {
            self.end_turn_without_play();
        }
    }

    #[inline]
    pub(super) fn end_turn_without_play(&mut self) {
        self.turn = Turn::default();
        self.free_play = false;
        self.restrict = Restrict::None;
        if self.nominated.is_some() && self.rules.settings.nomination_lapses {
            self.lapse_nomination();
        }
        self.current = self.step_in(self.current, 1);
        self.phase = Phase::Play;
        self.begin_turn();
    }

    /// `match.nomination_lapses` (docs/fidelity.md, D33): the named suit bound the turn that
    /// just ended with no card placed, and the card that named it is followed as an ordinary
    /// card from now on. A card with no suit of its own (a joker) keeps the suit it named: it
    /// has nothing else to be followed by.
    #[cold]
    pub(super) fn lapse_nomination(&mut self) {
        if self.match_card().and_then(Card::suit).is_some() {
            self.nominated = None;
        }
    }

    pub(super) fn accept(&mut self) {
        let p = self.current as usize;
        let k = self.chain.amount as usize;
        let origin_suit = self.chain.origin.and_then(Card::suit);
        self.chain = Chain::default();
        let mut pickups = 0u64;
        let mut drawn = 0;
        for _ in 0..k {
            match self.draw_one() {
                Some(c) => {
                    drawn += 1;
                    self.hands[p].add(c);
                    self.void_took_unseen(p, 1);
                    if self.rules.card[c.index()].chain.is_some() {
                        pickups |= bit(c);
                    }
                }
                None => break,
            }
        }
        // bitch: a card that is the player's own pure wild ("2 are pick up 2 unless you are on
        // 2's") is no pick-up card for that player, so it is not laid again "at its original value".
        pickups &= !(self.rules.settings.pure_wild & self.own_wild_bits(p));
        if pickups != 0 && self.rules.settings.replay_drawn_pickup && self.went_out.is_none() {
            // bitch (`options.replay_drawn_pickup`): one drawn pick-up card may be laid at once, ignoring matching.
            self.turn.replay = pickups;
            self.phase = Phase::AfterDraw;
            return;
        }
        if let Some(w) = self.went_out {
            self.end_hand(Some(w), false);
            return;
        }
        // OpenSpiel: a penalty drawn in full down to the last card of the stock counts as a
        // pass; one cut short by the empty stock does not.
        let emptied = drawn == k && !self.can_draw();
        if self.rules.settings.pickup_counts_as_pass && emptied && self.count_blocked_pass() {
            return;
        }
        if self.rules.settings.accept_ends_turn {
            self.end_turn_without_play();
            if self.rules.settings.chain_after == crate::rules::ChainAfter::AttackSuitOnly {
                // one_card: after the pick-up the next player follows the attacking ace's suit.
                if let Some(s) = origin_suit {
                    self.restrict = Restrict::Suit(s as u8);
                }
            }
        } else {
            // The penalty counts as this turn's draw (crazy_pairs, `chain.accept_ends_turn = false`): play, pass or draw once more.
            self.turn.accepted = true;
            self.phase = Phase::Play;
        }
    }

    pub(super) fn pass(&mut self) {
        self.note_declined(true);
        if self.rules.settings.all_pass == crate::rules::AllPass::PassIsFinal && !self.can_draw() {
            self.pass_for_good();
            return;
        }
        if !self.can_draw() && self.count_blocked_pass() {
            return;
        }
        self.end_turn_without_play();
    }

    /// kings_reverse (`pass.all_pass = "pass_is_final"`): a player who passes on an empty stock
    /// is done for the hand; when all are, it ends.
    fn pass_for_good(&mut self) {
        self.done |= 1 << self.current;
        if self.done.count_ones() >= self.n as u32 {
            self.end_hand(None, true);
        } else {
            self.end_turn_without_play();
        }
    }

    /// One more consecutive pass on an empty stock; returns whether it blocked the hand
    /// (`end.blocked`), which then ends.
    fn count_blocked_pass(&mut self) -> bool {
        self.pass_streak += 1;
        let needed = self.n as u16 + u16::from(self.rules.settings.blocked_extra_passes);
        if u16::from(self.pass_streak) >= needed && self.rules.settings.end_blocked {
            self.end_hand(None, true);
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::testing::{random_step, test_tables};
    use crate::seed::derive_seed;

    /// `Turn::is_fresh` agrees with the comparison with the default turn at every decision of
    /// random games of every preset.
    #[test]
    fn is_fresh_is_equality_with_the_default_turn_in_play() {
        let d = Turn::default();
        let (mut fresh, mut not) = (0, 0);
        for (preset, n, rules) in test_tables() {
            let mut g = Game::new(rules, derive_seed(31, n as u64));
            let mut bot = Xoshiro256PlusPlus::seed_from_u64(n as u64);
            let mut mask = ActionMask::default();
            let mut episode = 0;
            for _ in 0..2000 {
                let t = *g.turn();
                assert_eq!(t.is_fresh(), t == d, "{preset} {n}p: {t:?}");
                fresh += usize::from(t == d);
                not += usize::from(t != d);
                random_step(&mut g, &mut bot, &mut mask, 31, &mut episode);
            }
        }
        assert!(fresh > 1000 && not > 1000, "{fresh} fresh and {not} other turns");
    }
}
