//! Legal actions: one `match` on the phase, one function per phase, filling an
//! [`ActionMask`] without allocating.

use super::*;

impl Game {
    pub(super) fn announce_allowed(&self) -> bool {
        if self.rules.spec.last_card.mode != LastCardMode::Action || self.turn.announced {
            return false;
        }
        let len = self.hands[self.current as usize].len();
        let multi = self.rules.spec.multi.mode != MultiMode::Off || self.rules.card.iter().any(|r| r.follow.is_some());
        len == 2 || (multi && len > 2)
    }

    /// Fill `mask` with the legal actions of the player to act (empty when the game is over
    /// or truncated). Allocates nothing.
    pub fn legal_actions(&self, mask: &mut ActionMask) {
        mask.clear();
        if self.terminal || self.truncated {
            return;
        }
        let p = self.current as usize;
        let hand = &self.hands[p];
        match self.phase {
            Phase::Play => {
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
                if self.rules.spec.options.joker_bluff {
                    play |= self.bluff_bits();
                }
                mask.0[0] |= play;
                let any = play != 0;
                let voluntary = self.rules.spec.draw.voluntary || !any;
                let when = self.rules.spec.passing.when;
                let one_draw = when == crate::rules::PassWhen::AfterOneDraw;
                if voluntary && self.can_draw() && !(one_draw && self.turn.drawn > 0) {
                    mask.set(action::DRAW);
                }
                let pass =
                    if one_draw { self.turn.accepted || !self.can_draw() } else { !self.can_draw() && voluntary };
                if pass {
                    mask.set(action::PASS);
                }
                if any && self.announce_allowed() {
                    mask.set(action::ANNOUNCE);
                }
            }
            Phase::Chain if self.interlude.kind == InterludeKind::MirrorThree => self.mirror_actions(mask),
            Phase::Chain => {
                let mut any = false;
                for c in hand.faces() {
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
            Phase::Nominate => {
                let top = self.discard.top().expect("a card was placed");
                let second = self.rules.card[top.index()].second_suit;
                for s in Suit::ALL {
                    // E13: the second suit must differ from the seven's own suit.
                    if !(second && top.suit() == Some(s)) {
                        mask.set(action::NOMINATE + s.index());
                    }
                }
                if self.rules.card[top.index()].nominate == Some(Nominate::Optional) {
                    mask.set(action::END_TURN);
                }
            }
            Phase::Continue => {
                for c in hand.faces() {
                    if self.continues(c) {
                        mask.set(action::PLAY + c.index());
                    }
                }
                let inside_pair =
                    matches!(self.turn.follow, Some((FollowState::PairMid, _)) | Some((FollowState::Cover, _)));
                let whole_hand = matches!(self.turn.follow, Some((FollowState::UpTo3, _))) && self.turn.cards > 3;
                if !inside_pair && !whole_hand {
                    mask.set(action::END_TURN);
                }
            }
            Phase::AfterDraw if self.turn.replay != 0 => {
                for c in hand.faces() {
                    if self.turn.replay & bit(c) != 0 {
                        mask.set(action::PLAY + c.index());
                    }
                }
                mask.set(action::PASS);
            }
            Phase::AfterDraw => {
                let after = self.rules.spec.draw.after;
                let only_drawn = matches!(after, DrawAfter::MayPlayDrawn | DrawAfter::MustPlayDrawnIfPlayable);
                let mut play = self.playable_bits();
                if only_drawn {
                    play &= self.turn.drawn_card.map_or(0, bit);
                }
                mask.0[0] |= play;
                let must = matches!(after, DrawAfter::MustPlayDrawnIfPlayable | DrawAfter::MustPlayWhenFound);
                let d = &self.rules.spec.draw;
                let more = d.mode == DrawMode::UpTo && self.turn.drawn < d.limit && self.can_draw();
                if more {
                    mask.set(action::DRAW);
                }
                if !must && !more {
                    mask.set(action::PASS);
                }
                if mask.has_play() && self.announce_allowed() {
                    mask.set(action::ANNOUNCE);
                }
            }
            Phase::Give => {
                for c in hand.faces() {
                    mask.set(action::GIVE + c.index());
                }
            }
            Phase::Target => {
                for k in 1..self.n as usize {
                    mask.set(action::TARGET + k - 1);
                }
                mask.set(action::END_TURN);
            }
            Phase::Keep => {
                for c in hand.faces() {
                    if hand.count(c) > self.kept.count(c) {
                        mask.set(action::KEEP + c.index());
                    }
                }
            }
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
            _ => {}
        }
    }

    /// The legal actions as a vector (allocates; for tools and tests).
    pub fn legal_action_vec(&self) -> Vec<usize> {
        let mut m = ActionMask::default();
        self.legal_actions(&mut m);
        m.iter().collect()
    }
}
