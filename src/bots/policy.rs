//! The [`Policy`] every bot implements, and the weakest bot, [`RandomBot`]: uniform among the
//! legal actions with its own seeded generator, and the hot path of every random playout.

use crate::action::ActionMask;
use crate::game::Game;
use crate::stop::Stop;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// Uniform random legal actions.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RandomBot {
    rng: Xoshiro256PlusPlus,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: Xoshiro256PlusPlus::seed_from_u64(seed) }
    }

    /// A uniformly drawn legal action, or `None` when the game is over.
    pub fn act(&mut self, g: &Game) -> Option<usize> {
        let mut m = ActionMask::default();
        g.legal_actions(&mut m);
        self.pick(&m)
    }

    /// A uniform member of `m`: the `i`-th set id for `i = rng.random_range(0..m.len())`.
    ///
    /// The hot path of every random playout, so it counts and selects word by word (empty
    /// words cost one test; the mask is read with the same word loads that filled it) and
    /// draws `i` with `RandomBot::below` rather than through `random_range`'s call.
    #[inline]
    pub fn pick(&mut self, m: &ActionMask) -> Option<usize> {
        let w = m.0;
        let ones = |x: u64| if x == 0 { 0 } else { x.count_ones() };
        let c = [ones(w[0]), ones(w[1]), ones(w[2]), ones(w[3])];
        let k = c[0] + c[1] + c[2] + c[3];
        if k == 0 {
            return None;
        }
        let mut i = self.below(k);
        for (j, (&x, &n)) in w.iter().zip(&c).enumerate() {
            if i < n {
                let mut x = x;
                for _ in 0..i {
                    x &= x - 1;
                }
                return Some(j * 64 + x.trailing_zeros() as usize);
            }
            i -= n;
        }
        // No input reaches this: `below(k)` returns `i < k = c[0] + c[1] + c[2] + c[3]`, so
        // the loop returns in the word where the running count passes `i`.
        unreachable!("i < k, the number of set ids")
    }

    /// A uniform draw from `0..k` (`k > 0`), the same value and generator state as
    /// `rng.random_range(0..k as usize)`: rand's single-sample method for a range that fits
    /// in 32 bits (a widening multiply of one `u32`, with a second draw in the rare case the
    /// low half may carry). The golden self-play file, and a test below against
    /// `random_range`, pin the equality.
    #[inline]
    fn below(&mut self, k: u32) -> u32 {
        let m = u64::from(self.rng.next_u32()) * u64::from(k);
        let (mut hi, lo) = ((m >> 32) as u32, m as u32);
        if lo > k.wrapping_neg() {
            let hi2 = ((u64::from(self.rng.next_u32()) * u64::from(k)) >> 32) as u32;
            hi += u32::from(lo.checked_add(hi2).is_none());
        }
        hi
    }
}

/// A playing policy: picks a legal action for the player to act.
///
/// Implementations must use only what that player may know: the legal actions, its own hand,
/// the public table (top card, active suit, pending chain, discard pile, direction, scores)
/// and the other players' hand sizes; search policies sample the rest with
/// [`Game::determinize`].
pub trait Policy: Send + Sync {
    /// A legal action of the player to act, or `None` when the game is over or truncated.
    fn act(&mut self, g: &Game) -> Option<usize>;
    /// [`Policy::act`], cut short once `stop` is set: a search reads it every few
    /// simulations and then returns a legal action from what it has searched so far (its
    /// caller, which set the flag, drops it). The same action as `act` while `stop` stays
    /// unset; the quick bots never read it.
    fn act_until(&mut self, g: &Game, stop: &Stop) -> Option<usize> {
        let _ = stop;
        self.act(g)
    }
    /// The bot's name as a `BotSpec` string (`"random"`, `"heuristic"`, `"ismcts:400"`, `"pimc:50"`).
    fn name(&self) -> String;
    /// The bot's generator, for a bot that draws (its whole state between decisions: search
    /// trees and scratch are rebuilt at every decision); `None` for a deterministic bot. A
    /// copy of a bot is its spec built again with this generator's state (pickling in
    /// Python).
    fn generator(&mut self) -> Option<&mut Xoshiro256PlusPlus> {
        None
    }
}

impl Policy for RandomBot {
    fn act(&mut self, g: &Game) -> Option<usize> {
        RandomBot::act(self, g)
    }
    fn name(&self) -> String {
        "random".into()
    }
    fn generator(&mut self) -> Option<&mut Xoshiro256PlusPlus> {
        Some(&mut self.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::derive_seed;
    use rand::RngExt;

    #[test]
    fn below_draws_what_random_range_draws() {
        // Small ranges (every playout) and ranges near 2^32, where the second draw is common.
        for seed in 0..50u64 {
            let mut a = RandomBot::new(seed);
            let mut b = Xoshiro256PlusPlus::seed_from_u64(seed);
            for j in 0..2000u64 {
                let k = match j % 4 {
                    0 => 1 + (j % 197) as u32,
                    1 => u32::MAX - (j as u32),
                    2 => (1 << 31) + 1 + j as u32,
                    _ => 3 << 30,
                };
                assert_eq!(a.below(k) as usize, b.random_range(0..k as usize), "seed {seed} k {k}");
            }
            assert_eq!(a.rng, b, "the generators stay in step");
        }
    }

    #[test]
    fn pick_is_the_drawn_member_of_the_mask() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for seed in 0..200u64 {
            let mut m = ActionMask::default();
            for _ in 0..(seed % 12) {
                x = derive_seed(x, seed);
                m.set((x % crate::action::NUM_ACTIONS as u64) as usize);
            }
            let mut a = RandomBot::new(seed);
            let mut b = Xoshiro256PlusPlus::seed_from_u64(seed);
            for _ in 0..20 {
                let want = if m.is_empty() { None } else { m.nth(b.random_range(0..m.len())) };
                assert_eq!(a.pick(&m), want);
            }
        }
    }
}
