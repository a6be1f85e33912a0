//! Seats: moving round the table in the current direction, past players out of the hand,
//! and the finishing order.

use super::*;

impl Game {
    /// Seat `k` places from `p` in the current direction.
    #[inline]
    pub fn advance(&self, p: u8, k: usize) -> u8 {
        let n = self.n as usize;
        if k < n && (p as usize) < n && self.direction.unsigned_abs() == 1 {
            // The common case (a step or a few round the table) without a division, written as
            // selects rather than branches: the direction flips often in some games.
            let q = p as usize + if self.direction > 0 { k } else { n - k };
            return if q >= n { q - n } else { q } as u8;
        }
        let n = n as i64;
        ((p as i64 + self.direction as i64 * k as i64).rem_euclid(n)) as u8
    }

    /// The next seat from `q` (inclusive) that is still in the hand.
    /// Found with bit operations on the seats still in rather than by stepping seat by seat,
    /// so the cost does not depend on how many have gone out.
    pub(super) fn skip_done(&self, q: u8) -> u8 {
        if self.done & (1 << q) == 0 {
            return q;
        }
        let n = u32::from(self.n);
        let live = !u32::from(self.done) & ((1 << n) - 1);
        let q32 = u32::from(q);
        if live == 0 || q32 >= n || self.direction.unsigned_abs() != 1 {
            // Nobody left (or a state no game reaches): step seat by seat as the rules say.
            let mut q = q;
            for _ in 0..self.n {
                if self.done & (1 << q) == 0 {
                    break;
                }
                q = self.advance(q, 1);
            }
            return q;
        }
        // Clockwise: rotate so that seat `q` is bit 0 and take the lowest seat still in.
        let cw = (live >> q32 | live << (n - q32)) & ((1 << n) - 1);
        let cw_seat = q32 + cw.trailing_zeros();
        // Anticlockwise: rotate so that seat `q` is bit `n - 1` and take the highest.
        let acw = (live << (n - 1 - q32) | live >> (q32 + 1)) & ((1 << n) - 1);
        let acw_seat = (31 - acw.leading_zeros()) + q32 + 1;
        let s = if self.direction > 0 { cw_seat } else { acw_seat };
        (if s >= n { s - n } else { s }) as u8
    }

    /// Whether `end.play_for_second` is in force: three players, the first out leaves the hand
    /// and the other two play on for second place.
    #[inline]
    pub(super) fn for_second(&self) -> bool {
        self.rules.settings.play_for_second && self.n == 3
    }

    /// Seat `k` places from `p` in the current direction, counting only the players who still
    /// have turns: under `end.play_for_second` a skip never lands on a placed player and with
    /// two left a skip of one comes back to `p`; under kings_reverse's final pass, an eight's
    /// skip is the next player's who still plays, not a passed-out player's (who has no turn
    /// to miss).
    pub(super) fn step_in(&self, p: u8, k: usize) -> u8 {
        if self.done == 0 {
            return self.skip_done(self.advance(p, k));
        }
        let mut q = p;
        for _ in 0..k {
            q = self.skip_done(self.advance(q, 1));
        }
        q
    }

    /// The seats that have left the hand, as bits: under `end.play_for_second` the first
    /// player out. (A kings_reverse player who is `done` after a final pass still holds its
    /// cards and stays in the hand; only its turns are passed over.)
    #[inline]
    pub(super) fn left_hand(&self) -> u16 {
        if self.for_second() { self.done } else { 0 }
    }

    /// The `k`-th seat after `p` in the current direction among the players still in the hand
    /// (`k` from 1), or `p` itself when fewer than `k` others are in: the recipients of a give
    /// card, in order of play.
    pub(super) fn nth_in_hand(&self, p: u8, k: usize) -> u8 {
        let mut left = k;
        for j in 1..self.n as usize {
            let q = self.advance(p, j);
            if self.left_hand() & (1 << q) == 0 {
                left -= 1;
                if left == 0 {
                    return q;
                }
            }
        }
        p
    }

    /// How many players other than `p` are still in the hand.
    pub(super) fn others_in_hand(&self, p: u8) -> u8 {
        let n = u32::from(self.n);
        let live = !u32::from(self.left_hand()) & ((1 << n) - 1) & !(1 << p);
        live.count_ones() as u8
    }

    /// Record `p` as the next place of the hand.
    pub(super) fn place(&mut self, p: u8) {
        if !self.finishing_order().contains(&p) && (self.placed as usize) < MAX_PLAYERS {
            self.places[self.placed as usize] = p;
            self.placed += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use std::sync::Arc;

    /// The next seat still in, by the definition: step one seat at a time in the direction
    /// of play from `q` (inclusive) until a seat that has not gone out.
    fn stepping(n: u8, done: u16, direction: i8, mut q: u8) -> u8 {
        for _ in 0..n {
            if done & (1 << q) == 0 {
                break;
            }
            q = ((q as i8 + direction).rem_euclid(n as i8)) as u8;
        }
        q
    }

    /// Every table size, every set of seats gone out, both directions and every start seat.
    #[test]
    fn skip_done_finds_the_seat_stepping_would_find() {
        for n in 2..=crate::rules::MAX_PLAYERS as u8 {
            // Test code: a shipped preset at a player count within its 2..=10 range always loads.
            let mut g = Game::new(Arc::new(Rules::load("kings_reverse", n as usize, None).unwrap()), 1);
            for done in 0..(1u16 << n) {
                for direction in [1, -1] {
                    g.done = done;
                    g.direction = direction;
                    for q in 0..n {
                        assert_eq!(
                            g.skip_done(q),
                            stepping(n, done, direction, q),
                            "n {n} done {done:b} dir {direction} q {q}"
                        );
                    }
                }
            }
        }
    }
}
