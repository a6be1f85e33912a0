//! Baseline policies and the random self-play runner.
//!
//! [`RandomBot`] plays uniformly among the legal actions with its own seeded xoshiro256++
//! stream (never the game's), so the same seeds reproduce the same games.
//! [`random_selfplay`] plays whole games between random bots in a tight Rust loop and
//! reports results and speed; it is the project's main job and the engine's smoke test.

use crate::action::ActionMask;
use crate::game::{Game, derive_seed};
use crate::rules::{MAX_PLAYERS, Rules};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Instant;

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

    /// A uniform member of `m`.
    pub fn pick(&mut self, m: &ActionMask) -> Option<usize> {
        let k = m.len();
        if k == 0 {
            return None;
        }
        m.nth(self.rng.random_range(0..k))
    }
}

/// Results of [`random_selfplay`].
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SelfPlayStats {
    pub games: u64,
    /// Games won per seat.
    pub wins: Vec<u64>,
    pub no_winner: u64,
    pub truncated: u64,
    pub decisions: u64,
    pub seconds: f64,
}

/// Play `games` random-vs-random games; game `i` is dealt from `derive_seed(seed, i)`.
pub fn random_selfplay(rules: Arc<Rules>, games: u64, seed: u64) -> SelfPlayStats {
    let n = rules.num_players as usize;
    let mut wins = [0u64; MAX_PLAYERS];
    let mut stats = SelfPlayStats { games, ..Default::default() };
    let start = Instant::now();
    let mut g = Game::new(rules, derive_seed(seed, 0));
    let mut bot = RandomBot::new(derive_seed(seed ^ 0x5EED, 0));
    let mut m = ActionMask::default();
    for i in 0..games {
        if i > 0 {
            g.reset(derive_seed(seed, i), &[]).expect("an empty deck prefix is always valid");
        }
        loop {
            g.legal_actions(&mut m);
            match bot.pick(&m) {
                Some(a) => g.apply(a),
                None => break,
            }
        }
        stats.decisions += g.decisions() as u64;
        if g.is_truncated() {
            stats.truncated += 1;
        }
        match g.winner() {
            Some(w) => wins[w] += 1,
            None => stats.no_winner += 1,
        }
    }
    stats.seconds = start.elapsed().as_secs_f64();
    stats.wins = wins[..n].to_vec();
    stats
}
