//! Determinized ("perfect information") Monte Carlo with common random numbers: a rollout
//! policy-improvement step over [`HeuristicBot`].
//!
//! For each of `worlds` samples of the hidden cards ([`Game::determinize`] for the acting
//! player), every legal action is tried and the game played out with the heuristic policy.
//! All actions of one world share the same hidden cards and the same future shuffles (the
//! determinization's re-seeded generator is cloned), so their results differ only through
//! the action: paired comparisons with far less noise than independent playouts. Each
//! playout scores 1 for a win of the acting player, 0 for a loss, and 1/n for a hand without
//! a winner or a playout cut at [`ROLLOUT_LIMIT`] decisions; the action with the highest
//! total is played (ties: the lower action id). A single legal action is returned without
//! search. Cost per decision: `worlds` x (number of legal actions) playouts. Deterministic
//! for a given seed.

use super::Policy;
use super::heuristic::HeuristicBot;
use super::ismcts::ROLLOUT_LIMIT;
use crate::action::ActionMask;
use crate::game::Game;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Worlds per decision of `"pimc"` without a count.
pub const DEFAULT_WORLDS: u32 = 100;

/// The determinized Monte Carlo bot (see the module documentation).
#[derive(Clone, Debug)]
pub struct PimcBot {
    worlds: u32,
    rng: Xoshiro256PlusPlus,
    rollout: HeuristicBot,
}

impl PimcBot {
    /// A bot sampling `worlds` determinizations per decision, seeded with `seed`.
    pub fn new(worlds: u32, seed: u64) -> Self {
        PimcBot { worlds: worlds.max(1), rng: Xoshiro256PlusPlus::seed_from_u64(seed), rollout: HeuristicBot::new() }
    }

    /// Worlds sampled per decision.
    pub fn worlds(&self) -> u32 {
        self.worlds
    }

    /// Evaluate every legal action of the player to act and return the best.
    pub fn search(&mut self, g: &Game) -> Option<usize> {
        let me = g.current_player()?;
        let mut m = ActionMask::default();
        g.legal_actions(&mut m);
        if m.len() <= 1 {
            return m.nth(0);
        }
        let n = g.num_players();
        let acts: Vec<usize> = m.iter().collect();
        let mut wins = vec![0.0f64; acts.len()];
        for _ in 0..self.worlds {
            let w = g.determinize(me, &mut self.rng);
            for (i, &a) in acts.iter().enumerate() {
                let mut d = w.clone();
                d.apply(a);
                let mut steps = 0;
                while d.current_player().is_some() && steps < ROLLOUT_LIMIT {
                    d.legal_actions(&mut m);
                    match self.rollout.choose(&d, &m) {
                        Some(x) => d.apply(x),
                        None => break,
                    }
                    steps += 1;
                }
                wins[i] += match (d.is_terminal(), d.winner()) {
                    (true, Some(x)) => f64::from(x == me),
                    _ => 1.0 / n as f64,
                };
            }
        }
        let mut best = 0;
        for i in 1..acts.len() {
            if wins[i] > wins[best] {
                best = i;
            }
        }
        Some(acts[best])
    }
}

impl Policy for PimcBot {
    fn act(&mut self, g: &Game) -> Option<usize> {
        self.search(g)
    }
    fn name(&self) -> String {
        format!("pimc:{}", self.worlds)
    }
}
