//! Determinized ("perfect information") Monte Carlo with common random numbers: a rollout
//! policy-improvement step over [`HeuristicBot`].
//!
//! For each of `worlds` samples of the hidden cards ([`Game::determinize`] for the acting
//! player), every legal action is tried and the game played out with the heuristic policy.
//! All actions of one world share the same hidden cards and the same future shuffles (the
//! determinization's re-seeded generator is cloned), so their results differ only through
//! the action: paired comparisons with far less noise than independent playouts. Each
//! playout scores 1 for a win of the acting player, 0 for a loss, and 1/n for a hand without
//! a winner or a playout cut at [`ROLLOUT_LIMIT`] decisions. The bot plays the heuristic's
//! own choice unless another action beats it, paired world by world, by a mean advantage of
//! more than [`SIGNIFICANCE`] standard errors; then it plays the action with the largest
//! such advantage. With few worlds it therefore stays close to the heuristic instead of
//! chasing noise. A single legal action is returned without search. Cost per decision: `worlds` x (number of legal actions) playouts. Deterministic
//! for a given seed.

use super::Policy;
use super::heuristic::HeuristicBot;
use super::ismcts::ROLLOUT_LIMIT;
use crate::action::ActionMask;
use crate::game::Game;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// How many standard errors an action's paired advantage over the heuristic's choice must
/// reach before the bot deviates from the heuristic.
pub const SIGNIFICANCE: f64 = 1.5;

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
        let base_action = self.rollout.choose(g, &m)?;
        let base = acts.iter().position(|&a| a == base_action).expect("the heuristic picks a legal action");
        let mut reward = vec![0.0f64; acts.len()];
        // Sums of the paired differences to the heuristic's action, and of their squares.
        let mut diff = vec![0.0f64; acts.len()];
        let mut diff2 = vec![0.0f64; acts.len()];
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
                reward[i] = match (d.is_terminal(), d.winner()) {
                    (true, Some(x)) => f64::from(x == me),
                    _ => 1.0 / n as f64,
                };
            }
            for i in 0..acts.len() {
                let x = reward[i] - reward[base];
                diff[i] += x;
                diff2[i] += x * x;
            }
        }
        let w = self.worlds as f64;
        let mut best = (base, 0.0f64);
        for i in 0..acts.len() {
            let mean = diff[i] / w;
            let se = ((diff2[i] / w - mean * mean).max(0.0) / w).sqrt();
            if mean > best.1 && mean > SIGNIFICANCE * se {
                best = (i, mean);
            }
        }
        Some(acts[best.0])
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
