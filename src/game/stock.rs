//! The stock: drawing cards, refilling from the discard pile when it runs out, and the
//! waste-pile draw.

use super::*;

impl Game {
    /// Can a card be produced for a draw now (stock, or a refill from the discard pile)?
    pub fn can_draw(&self) -> bool {
        !self.stock.is_empty()
            || (self.rules.settings.exhausted != Exhausted::NoReshuffle && self.discard.len() > 1 && self.may_refill())
    }

    /// `waste_draw`: `target` draws `k` from the shuffled waste pile under the top card (the rest from
    /// the stock if it holds fewer); the remaining waste stays face up under the top card.
    pub(super) fn waste_draw(&mut self, target: usize, k: usize) {
        let top = self.discard.pop().expect("a card was placed");
        self.discard.shuffle(&mut self.rng);
        let mut got = 0;
        while got < k {
            match self.discard.pop() {
                Some(c) => self.hands[target].add(c),
                None => break,
            }
            self.void_took_unseen(target, 1);
            got += 1;
        }
        self.discard.push(top);
        if got < k {
            self.draw_cards(target, k - got);
        }
    }

    /// Take one card for a draw, refilling the stock per `stock.exhausted`.
    pub(super) fn draw_one(&mut self) -> Option<Card> {
        if self.stock.is_empty() && self.may_refill() {
            self.refill_stock();
        }
        let c = self.stock.pop();
        if self.stock.is_empty() && self.rules.settings.refill_at_once && self.may_refill() {
            self.refill_stock();
        }
        c
    }

    /// Whether an empty stock may be refilled from the pile now: always, but under
    /// `stock.no_refill_after_out` only while every player still in the hand holds cards (not
    /// for the draws owed after a player went out; a player who left the hand under
    /// `end.play_for_second` holds none and plays no more, and does not stop the refills).
    fn may_refill(&self) -> bool {
        if !self.rules.settings.no_refill_after_out {
            return true;
        }
        let left = self.left_hand();
        (0..self.n as usize).all(|q| left & (1 << q) != 0 || !self.hands[q].is_empty())
    }

    pub(super) fn refill_stock(&mut self) {
        let Some(top) = self.discard.top() else {
            return;
        };
        if self.discard.len() < 2 {
            return;
        }
        match self.rules.settings.exhausted {
            Exhausted::ReshuffleAllButTop | Exhausted::KeepFive => {
                self.shuffle_pile_into_stock();
                return;
            }
            Exhausted::TurnOverNoShuffle => {
                // Flip the pile minus its top as a block: the oldest discard is drawn first.
                let under = self.discard.len() - 1;
                for i in (0..under).rev() {
                    let c = self.discard.as_slice()[i];
                    self.stock.push(c);
                }
            }
            Exhausted::NoReshuffle => return,
        }
        self.discard.clear();
        self.discard.push(top);
    }

    /// `stock.exhausted = keep_five` refills the stock from the hands and never from the pile,
    /// so a top that no card outside the pile may follow (a red joker with both red kings
    /// under it) would stall the hand for ever: everyone draws and keeps five, again and
    /// again. When no card in the stock or in any hand may be played on the top, the pile
    /// under the top is shuffled into the stock (a catalog resolution, docs/fidelity.md D10).
    /// Called when the five-card rule is due, so the check costs nothing in a normal turn.
    pub(super) fn recycle_dead_pile(&mut self) {
        if self.phase != Phase::Play || self.chain.active || self.discard.len() < 2 || !self.may_refill() {
            return;
        }
        let n = self.n as usize;
        let live = self.stock.as_slice().iter().any(|&c| (0..n).any(|q| self.playable_basic_by(c, q)))
            || (0..n).any(|q| self.hands[q].faces().any(|c| self.playable_basic_by(c, q)));
        if !live {
            self.shuffle_pile_into_stock();
        }
    }

    /// The discard pile under its top card is added to the stock and the stock shuffled;
    /// the top card stays (`reshuffle_all_but_top`).
    fn shuffle_pile_into_stock(&mut self) {
        let Some(top) = self.discard.top() else {
            return;
        };
        let under = self.discard.len() - 1;
        self.stock.extend_from_slice(&self.discard.as_slice()[..under]);
        shuffle(self.stock.as_mut_slice(), &mut self.rng);
        self.discard.clear();
        self.discard.push(top);
    }

    /// `p` draws `k` cards one at a time; if none can be produced the rest of the draw lapses.
    pub(super) fn draw_cards(&mut self, p: usize, k: usize) {
        for _ in 0..k {
            match self.draw_one() {
                Some(c) => self.hands[p].add(c),
                None => break,
            }
            self.void_took_unseen(p, 1);
        }
    }

    /// Every player but `p` still in the hand draws `k` cards, in turn order from `p` (a player
    /// out of the hand, `end.play_for_second`'s winner, takes no part).
    pub(super) fn others_draw(&mut self, p: u8, k: usize) {
        for j in 1..self.n as usize {
            let q = self.advance(p, j) as usize;
            if self.left_hand() & (1 << q) == 0 {
                self.draw_cards(q, k);
            }
        }
    }

    /// The last-card penalty (`last_card.mode = action`): `p`, left with one card without
    /// having announced it, draws `last_card.penalty` cards. Under `last_card.timing =
    /// on_penultimate_play` the call is owed for the play of the second-to-last card only, not
    /// when cards given away this turn (`gave`) leave the one card.
    pub(super) fn last_card_penalty(&mut self, p: usize, announced: bool, gave: u8) {
        let s = &self.rules.settings;
        let owed = self.hands[p].len() == 1 && (gave == 0 || s.last_card_timing == LastCardTiming::HoldingOne);
        if s.last_card_mode == LastCardMode::Action && owed && !announced {
            self.draw_cards(p, self.rules.settings.last_card_penalty as usize);
        }
    }
}
