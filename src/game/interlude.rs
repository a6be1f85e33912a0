//! Decisions outside the normal turn order: larby_switch's mirror window after a three and
//! the keep choices of the five-card rule.

use super::*;

impl Game {
    /// The mirror window on an others-draw card: the first seat, `from` or more places after `p`, holding a mirroring card of
    /// the suit of `top` (the others_draw card).
    pub(super) fn mirror_candidate(&self, p: u8, top: Card, from: u8) -> Option<u8> {
        let suit = top.suit()?;
        let q = Card::new(suit, crate::card::Rank::Queen);
        if !self.rules.card[q.index()].mirror {
            return None;
        }
        (from..self.n).find(|&k| self.hands[self.advance(p, k as usize) as usize].contains(q))
    }

    /// Cards the player made to mirror a three picks up: what every other player would have.
    pub(super) fn mirror_amount(&self) -> u16 {
        (self.n as u16 - 1) * self.interlude.per_player
    }

    /// Legal actions in the mirror window.
    pub(super) fn mirror_actions(&self, mask: &mut ActionMask) {
        let il = &self.interlude;
        let hand = &self.hands[self.current as usize];
        let mut any = false;
        match il.victim {
            None => {
                let suit = Suit::ALL[il.suit as usize];
                let q = Card::new(suit, crate::card::Rank::Queen);
                if hand.contains(q) {
                    mask.set(action::PLAY + q.index());
                    any = true;
                }
                mask.set(action::PASS);
            }
            Some(_) => {
                for c in hand.faces() {
                    if self.rules.card[c.index()].mirror {
                        mask.set(action::PLAY + c.index());
                        any = true;
                    }
                }
                mask.set(action::ACCEPT);
            }
        }
        if any && self.announce_allowed() {
            mask.set(action::ANNOUNCE);
        }
    }

    /// A mirroring card played in the window: the duty to pick up for everyone passes to the
    /// player of the three, or back to the player of the previous mirror.
    pub(super) fn mirror_play(&mut self, c: Card) {
        let q = self.current;
        self.hands[q as usize].remove(c);
        self.void_played(q as usize, c);
        self.put_on_pile(c);
        self.plays += 1;
        self.nominated = None;
        let victim = match self.interlude.victim {
            None => self.interlude.origin,
            Some(_) => self.interlude.mirror_by,
        };
        if self.hands[q as usize].is_empty() {
            // Out with the queen: the hand ends and the effect of a going-out card is ignored.
            self.end_hand(Some(q), false);
            return;
        }
        self.last_card_penalty(q as usize, self.turn.announced, 0);
        self.turn = Turn::default();
        self.interlude.victim = Some(victim);
        self.interlude.mirror_by = q;
        self.current = victim;
        let can_mirror = self.hands[victim as usize].faces().any(|x| self.rules.card[x.index()].mirror);
        if !can_mirror {
            self.mirror_accept();
        }
    }

    /// A polled player declines to mirror: ask the next one, or everyone else picks up.
    pub(super) fn mirror_pass(&mut self) {
        self.turn = Turn::default();
        let il = self.interlude;
        let top = self.discard.top().expect("a card was placed");
        match self.mirror_candidate(il.origin, top, il.seat + 1) {
            Some(k) => {
                self.interlude.seat = k;
                self.current = self.advance(il.origin, k as usize);
            }
            None => {
                self.others_draw(il.origin, il.per_player as usize);
                self.close_interlude();
            }
        }
    }

    /// The player made to mirror picks up for everyone; the window closes.
    pub(super) fn mirror_accept(&mut self) {
        let k = self.mirror_amount() as usize;
        self.draw_cards(self.current as usize, k);
        self.close_interlude();
    }

    pub(super) fn close_interlude(&mut self) {
        self.turn = Turn::default();
        self.current = self.interlude.resume;
        self.interlude = Interlude::default();
        self.phase = if self.chain.active { Phase::Chain } else { Phase::Play };
        self.begin_turn();
    }

    /// One card chosen to keep; at five, the rest of the hand goes to the stock.
    pub(super) fn keep_card(&mut self, c: Card) {
        let q = self.current as usize;
        self.kept.add(c);
        if self.kept.len() < KEEP {
            return;
        }
        let kept = self.kept.counts();
        for f in self.hands[q].faces() {
            for _ in kept.count(f)..self.hands[q].count(f) {
                self.stock.push(f);
            }
        }
        self.hands[q] = kept;
        self.kept.clear();
        let resume = self.interlude.resume;
        let next = (self.interlude.seat + 1..self.n)
            .find(|&k| self.hands[self.advance(resume, k as usize) as usize].len() > 5);
        match next {
            Some(k) => {
                self.interlude.seat = k;
                self.current = self.advance(resume, k as usize);
            }
            None => {
                shuffle(self.stock.as_mut_slice(), &mut self.rng);
                self.current = resume;
                self.interlude = Interlude::default();
                self.phase = if self.chain.active { Phase::Chain } else { Phase::Play };
            }
        }
    }

    /// Open the mirror window after `p`'s others-draw card `top`: seat `k` places from `p` is
    /// asked first; the turn of `resume` starts when the window closes.
    pub(super) fn open_mirror_window(&mut self, p: u8, top: Card, k: u8, resume: u8, per_player: u16) {
        self.interlude = Interlude {
            kind: InterludeKind::MirrorThree,
            resume,
            origin: p,
            per_player,
            suit: top.suit().map_or(0, |s| s as u8),
            seat: k,
            victim: None,
            mirror_by: 0,
        };
        self.current = self.advance(p, k as usize);
        self.phase = Phase::Chain;
    }
}
