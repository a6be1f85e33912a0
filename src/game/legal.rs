//! Legal actions: one `match` on the phase, one function per phase, filling an
//! [`ActionMask`] without allocating.

use super::*;

impl Game {
    pub(super) fn announce_allowed(&self) -> bool {
        if self.rules.settings.last_card_mode != LastCardMode::Action || self.turn.announced {
            return false;
        }
        let len = self.hands[self.current as usize].len();
        let multi = self.rules.settings.multi_mode != MultiMode::Off || self.rules.has_follow;
        len == 2 || (multi && len > 2)
    }

    /// `last_card.timing = holding_one`: a player whose gives will leave them one card may
    /// call before they give ("when left holding one card", however the hand came to it).
    fn announce_before_give(&self) -> bool {
        let s = &self.rules.settings;
        if s.last_card_mode != LastCardMode::Action || s.last_card_timing != LastCardTiming::HoldingOne {
            return false;
        }
        let due = usize::from(self.turn.give_due.saturating_sub(self.turn.gave));
        !self.turn.announced && self.hands[self.current as usize].len() == due + 1
    }

    /// Fill `mask` with the legal actions of the player to act (empty when the game is over
    /// or truncated). Allocates nothing.
    pub fn legal_actions(&self, mask: &mut ActionMask) {
        mask.clear();
        if self.terminal || self.truncated {
            return;
        }
        match self.phase {
            Phase::Play => self.legal_play(mask),
            Phase::Chain if self.interlude.kind == InterludeKind::MirrorThree => self.mirror_actions(mask),
            Phase::Chain => self.legal_chain(mask),
            Phase::Nominate => self.legal_nominate(mask),
            Phase::Continue => self.legal_continue(mask),
            Phase::AfterDraw if self.turn.replay != 0 => self.legal_replay(mask),
            Phase::AfterDraw => self.legal_after_draw(mask),
            Phase::Give => {
                for c in self.hands[self.current as usize].faces() {
                    mask.set(action::GIVE + c.index());
                }
                if self.announce_before_give() {
                    mask.set(action::ANNOUNCE);
                }
            }
            Phase::Target => {
                // Any other seat still in the hand (not one that went out first, whose hand
                // is empty, under `end.play_for_second`).
                let mut one_card = false;
                for k in 1..self.n as usize {
                    let q = (self.current as usize + k) % self.n as usize;
                    if self.left_hand() & (1 << q) == 0 {
                        mask.set(action::TARGET + k - 1);
                        one_card |= self.hands[q].len() == 1;
                    }
                }
                mask.set(action::END_TURN);
                // A swap that leaves the player one card: the call may be made first ("no
                // matter how he got it", thirty_eights), as the penalty follows the swap.
                if one_card && self.rules.settings.last_card_mode == LastCardMode::Action && !self.turn.announced {
                    mask.set(action::ANNOUNCE);
                }
            }
            Phase::Keep => self.legal_keep(mask),
            Phase::Challenge => {
                mask.set(action::CHALLENGE);
                mask.set(action::NO_CHALLENGE);
            }
            Phase::Ask => {
                for k in 0..13 {
                    mask.set(action::ASK + k);
                }
                mask.set(action::ASK_QS);
                mask.set(action::ASK_JOKER);
            }
            Phase::SecondSuit | Phase::GameOver => {}
        }
    }

    /// Phase `play`: matching cards (a rogue card, a bluffed joker), draw, pass, announce.
    #[inline]
    fn legal_play(&self, mask: &mut ActionMask) {
        let hand = &self.hands[self.current as usize];
        // Play ids 0..54 are bits 0..54 of the mask's first word.
        let mut play = self.playable_bits();
        if play == 0 && self.rules.rogue {
            // stalin: one red card on the rogue pile, only without a play-pile play.
            for c in hand.faces() {
                if self.rogue_ok(c) {
                    play |= bit(c);
                }
            }
        }
        if self.rules.settings.joker_bluff {
            play |= self.bluff_bits();
        }
        mask.0[0] |= play;
        let any = play != 0;
        let voluntary = self.rules.settings.draw_voluntary || !any;
        let when = self.rules.settings.pass_when;
        let one_draw = when == crate::rules::PassWhen::AfterOneDraw;
        if voluntary && self.can_draw() && !(one_draw && self.turn.drawn > 0) {
            mask.set(action::DRAW);
        }
        let pass = if one_draw { self.turn.accepted || !self.can_draw() } else { !self.can_draw() && voluntary };
        // `pass.voluntary = false`: only a player who cannot play passes (never an empty legal
        // set: with no play, the pass is as above).
        if pass && (self.rules.settings.pass_voluntary || !any) {
            mask.set(action::PASS);
        }
        if any && self.announce_allowed() {
            mask.set(action::ANNOUNCE);
        }
    }

    /// Phase `chain`: the cards that answer, cancel or shield, and `accept`.
    fn legal_chain(&self, mask: &mut ActionMask) {
        let mut any = false;
        for c in self.hands[self.current as usize].faces() {
            if self.answers_chain(c) {
                mask.set(action::PLAY + c.index());
                any = true;
            }
        }
        mask.set(action::ACCEPT);
        if any && self.announce_allowed() {
            mask.set(action::ANNOUNCE);
        }
    }

    /// Phase `nominate`: a suit (a second suit differs from the card's own), `end` when optional.
    fn legal_nominate(&self, mask: &mut ActionMask) {
        let top = self.discard.top().expect("a card was placed");
        let p = self.current as usize;
        let second = self.rules.card[top.index()].second_suit;
        for s in Suit::ALL {
            // one_card's second suit must differ from the seven's own suit.
            if !(second && top.suit() == Some(s)) {
                mask.set(action::NOMINATE + s.index());
            }
        }
        if matches!(self.nomination(top, p), Some(Nominate::Optional | Nominate::OptionalKeepSuit)) {
            mask.set(action::END_TURN);
        }
    }

    /// Phase `continue`: the follow-on cards, and `end` unless a pair or the whole hand must go on.
    fn legal_continue(&self, mask: &mut ActionMask) {
        // Play ids 0..54 are bits 0..54 of the mask's first word.
        mask.0[0] |= self.continue_bits(self.hands[self.current as usize].bits());
        let inside_pair = matches!(self.turn.follow, Some((FollowState::PairMid, _)) | Some((FollowState::Cover, _)));
        let whole_hand = matches!(self.turn.follow, Some((FollowState::UpTo3, _))) && self.turn.cards > 3;
        if !inside_pair && !whole_hand {
            mask.set(action::END_TURN);
        }
        // The call may be made in the middle of a turn too (a compulsory cover that leaves one
        // card, thirty_eights' three): the penalty is owed only when the play is complete.
        if self.announce_allowed() {
            mask.set(action::ANNOUNCE);
        }
    }

    /// Phase `after_draw` after a penalty pick-up (bitch): one drawn pick-up card, or `pass`.
    fn legal_replay(&self, mask: &mut ActionMask) {
        for c in self.hands[self.current as usize].faces() {
            if self.turn.replay & bit(c) != 0 {
                mask.set(action::PLAY + c.index());
            }
        }
        mask.set(action::PASS);
    }

    /// Phase `after_draw`: the cards the draw rule allows, `draw` again, `pass`, announce.
    fn legal_after_draw(&self, mask: &mut ActionMask) {
        let after = self.rules.settings.draw_after;
        let only_drawn = matches!(after, DrawAfter::MayPlayDrawn | DrawAfter::MustPlayDrawnIfPlayable);
        let mut play = self.playable_bits();
        if only_drawn {
            play &= self.turn.drawn_card.map_or(0, bit);
        }
        mask.0[0] |= play;
        let must = matches!(after, DrawAfter::MustPlayDrawnIfPlayable | DrawAfter::MustPlayWhenFound);
        let s = &self.rules.settings;
        let more = s.draw_mode == DrawMode::UpTo && self.turn.drawn < s.draw_limit && self.can_draw();
        if more {
            mask.set(action::DRAW);
        }
        // A player who must play has nothing to play and can draw no more only under
        // `pass.explicit` (the engine ends such a turn itself otherwise): they pass.
        if !more && (!must || play == 0) {
            mask.set(action::PASS);
        }
        if mask.has_play() && self.announce_allowed() {
            mask.set(action::ANNOUNCE);
        }
    }

    /// Phase `keep`: each face of the hand not yet kept as often as it is held. Out of line:
    /// only the five-card rule reaches it, and its multiset of kept cards would widen the
    /// frame of every legal-action call.
    #[inline(never)]
    fn legal_keep(&self, mask: &mut ActionMask) {
        let hand = &self.hands[self.current as usize];
        let kept = self.kept.counts();
        for c in hand.faces() {
            if hand.count(c) > kept.count(c) {
                mask.set(action::KEEP + c.index());
            }
        }
    }

    /// The legal actions as a vector (allocates; for tools and tests).
    pub fn legal_action_vec(&self) -> Vec<usize> {
        let mut m = ActionMask::default();
        self.legal_actions(&mut m);
        m.iter().collect()
    }
}
