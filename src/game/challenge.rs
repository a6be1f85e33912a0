//! The joker challenge of `options.joker_bluff`: which jokers may be bluffed, and the
//! challenged player's decision.

use super::*;

impl Game {
    /// Bitset of the held faces that may be played as a bluff: wilds restricted to "no other
    /// playable card" that are otherwise playable now.
    pub(super) fn bluff_bits(&self) -> u64 {
        let p = self.current as usize;
        let mut out = 0u64;
        for c in self.hands[p].faces() {
            if self.wild_of(c, p).is_some_and(|w| w.only_if_no_other) && self.playable_basic(c) {
                out |= bit(c);
            }
        }
        out
    }

    /// The challenged player's decision: an illegal joker goes back and its player draws the
    /// penalty and misses their next turn, then the challenger plays on the previous top card;
    /// a legal joker (or no challenge) makes the challenger draw (plus [`CHALLENGE_EXTRA`] for
    /// a failed challenge) and lose the turn.
    pub(super) fn resolve_challenge(&mut self, challenge: bool) {
        let b = self.challenge.take().expect("phase challenge holds a bluff");
        let q = self.current;
        self.phase = Phase::Play;
        if challenge && !b.legal {
            let joker = self.discard.pop().expect("the joker is on top");
            self.rank_run.joker_taken_back(self.discard.top());
            self.hands[b.by as usize].add(joker);
            self.void_took(b.by as usize, joker);
            self.plays = self.plays.saturating_sub(1);
            self.nominated = b.prev_nominated.map(|i| Suit::ALL[i as usize]);
            if self.nominated.is_some() && self.rules.settings.nomination_lapses {
                // The bluffer's turn ends with no card placed: a suit that bound it lapses.
                self.lapse_nomination();
            }
            self.free_play = b.prev_free_play;
            self.restrict = b.prev_restrict;
            self.draw_cards(b.by as usize, b.amount as usize);
            self.missed |= 1 << b.by;
            self.begin_turn();
            return;
        }
        let k = b.amount.saturating_add(if challenge { CHALLENGE_EXTRA } else { 0 });
        self.draw_cards(q as usize, k as usize);
        self.free_play = false;
        self.current = self.skip_done(self.advance(q, 1));
        self.begin_turn();
    }

    /// Was bluff `b` (whose joker is the top card) legal, judged on the current hands? Used to
    /// keep a determinized copy consistent with its re-dealt hands.
    pub(super) fn bluff_legal(&self, b: &Bluff) -> bool {
        let mut h = self.clone();
        let Some(joker) = h.discard.pop() else { return b.legal };
        h.nominated = b.prev_nominated.map(|i| Suit::ALL[i as usize]);
        h.free_play = b.prev_free_play;
        h.restrict = b.prev_restrict;
        h.current = b.by;
        h.phase = Phase::Play;
        h.turn = Turn::default();
        h.playable(joker)
    }
}
