//! [`random_selfplay`]: whole games between random bots in a tight loop, with their results
//! and speed; the engine's smoke test. [`random_selfplay_until`] stops early on request.

use super::policy::RandomBot;
use crate::action::ActionMask;
use crate::game::{Game, derive_seed};
use crate::rules::{MAX_PLAYERS, Rules};
use crate::stop::{NEVER, Stop};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Instant;

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
    random_selfplay_until(rules, games, seed, &NEVER)
}

/// How many decisions of one game [`random_selfplay_until`] plays between looks at `stop`.
const STOP_EVERY: u32 = 4096;

/// [`random_selfplay`], ending once `stop` is set: between games, and within a game every
/// `STOP_EVERY` (4,096) decisions (a game without a decision cap can be long), whose decisions are
/// then left out. The stats count the games played to their end: `games` is smaller than asked.
pub fn random_selfplay_until(rules: Arc<Rules>, games: u64, seed: u64, stop: &Stop) -> SelfPlayStats {
    let n = rules.num_players as usize;
    let mut wins = [0u64; MAX_PLAYERS];
    let mut stats = SelfPlayStats { games, ..Default::default() };
    let start = Instant::now();
    let mut g = Game::new(rules, derive_seed(seed, 0));
    let mut bot = RandomBot::new(derive_seed(seed ^ 0x5EED, 0));
    let mut m = ActionMask::default();
    for i in 0..games {
        if stop.is_set() {
            stats.games = i;
            break;
        }
        if i > 0 {
            g.reset(derive_seed(seed, i), &[]).expect("an empty deck prefix is always valid");
        }
        let mut steps = 0u32;
        let mut cut = false;
        loop {
            g.legal_actions(&mut m);
            match bot.pick(&m) {
                Some(a) => g.apply(a),
                None => break,
            }
            steps = steps.wrapping_add(1);
            if steps % STOP_EVERY == 0 && stop.is_set() {
                cut = true;
                break;
            }
        }
        if cut {
            stats.games = i;
            break;
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
