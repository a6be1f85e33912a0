//! Seats: moving round the table in the current direction, past players out of the hand,
//! and the finishing order.

use super::*;

impl Game {
    /// Seat `k` places from `p` in the current direction.
    #[inline]
    pub fn advance(&self, p: u8, k: usize) -> u8 {
        let n = self.n as usize;
        if k < n && (p as usize) < n && (self.direction == 1 || self.direction == -1) {
            // The common case (a step or a few round the table) without a division.
            let q = if self.direction == 1 { p as usize + k } else { p as usize + n - k };
            return if q >= n { q - n } else { q } as u8;
        }
        let n = n as i64;
        ((p as i64 + self.direction as i64 * k as i64).rem_euclid(n)) as u8
    }

    /// The next seat from `q` (inclusive) that is still in the hand.
    pub(super) fn skip_done(&self, mut q: u8) -> u8 {
        for _ in 0..self.n {
            if self.done & (1 << q) == 0 {
                break;
            }
            q = self.advance(q, 1);
        }
        q
    }

    /// Whether `end.play_for_second` is in force: three players, the first out leaves the hand
    /// and the other two play on for second place.
    #[inline]
    pub(super) fn for_second(&self) -> bool {
        self.rules.settings.play_for_second && self.n == 3
    }

    /// Seat `k` places from `p` in the current direction, then on past players who are out.
    /// Under `end.play_for_second` only players still in count, so a skip never lands on a
    /// placed player and with two left a skip of one comes back to `p`.
    pub(super) fn step_in(&self, p: u8, k: usize) -> u8 {
        if self.done == 0 || !self.for_second() {
            return self.skip_done(self.advance(p, k));
        }
        let mut q = p;
        for _ in 0..k {
            q = self.skip_done(self.advance(q, 1));
        }
        q
    }

    /// Record `p` as the next place of the hand.
    pub(super) fn place(&mut self, p: u8) {
        if !self.finishing_order().contains(&p) && (self.placed as usize) < MAX_PLAYERS {
            self.places[self.placed as usize] = p;
            self.placed += 1;
        }
    }
}
