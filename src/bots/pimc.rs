//! Determinized ("perfect information") Monte Carlo with common random numbers: a rollout
//! policy-improvement step over [`HeuristicBot`].
//!
//! For each of `worlds` samples of the hidden cards ([`Game::determinize`] for the acting
//! player), every legal action is tried and the game played out with the heuristic policy
//! for at most [`PLAYOUT_DECISIONS`] decisions, as `ismcts` plays its playouts.
//! All actions of one world share the same hidden cards and the same future shuffles (the
//! determinization's re-seeded generator is cloned), so their results differ only through
//! the action: paired comparisons with far less noise than independent playouts. A playout
//! that ends its game scores 1 for a win of the acting player, 0 for a loss, and 1/n for a
//! hand without a winner; one cut short is scored as a race of the cards each player still
//! has to shed ([`playout_rewards`], the acting player's share). The bot plays the
//! heuristic's own choice unless another action beats it, paired world by world, by a mean
//! advantage of more than `z` standard errors; then it plays the action with the largest
//! such advantage. Like `ismcts`'s bias towards the heuristic, `z` says how much the evidence
//! is worth: it runs from [`SIGNIFICANCE`], when every playout of the decision ends its game,
//! to [`CUT_SIGNIFICANCE`], when every one is cut short, by the share cut short. With few
//! worlds the bot therefore stays close to the heuristic instead of chasing noise. A single
//! legal action is returned without search. Cost per decision: `worlds` x (number of legal
//! actions) playouts. Deterministic for a given seed.
//!
//! Playouts to the end of the game (at most [`ROLLOUT_LIMIT`] decisions, scored 1, 0 or 1/n)
//! lost to the heuristic in long games: in the countdown presets and `bitch` a game runs
//! hundreds of decisions, the paired playouts drift apart soon after the action that
//! separates them, and the best of several actions by 1.5 standard errors was often noise:
//! `pimc:50` won 0.475 against the heuristic on `bitch` and 0.511 on
//! `crazy_eights_countdown` (1,000 duplicate deals, two players).
//!
//! [`PimcBot::oracle`] (`"oracle:N"`) is the same comparison with every hand in view: each
//! world is the true position with only the stock re-dealt (so it knows every hand but not
//! the order of the cards to come). It cheats on purpose: it measures how much the rules
//! reward information and skill (an all-seeing player that still loses often plays rules
//! that leave little to decide), and is never a fair opponent. It keeps playouts to the end
//! of the game (at most [`ROLLOUT_LIMIT`] decisions, a playout cut there scoring 1/n) and
//! [`SIGNIFICANCE`]: seeing every hand, a whole playout is a far better guess, and the
//! ladder's all-seeing column was measured with it.

use super::heuristic::HeuristicBot;
use super::ismcts::{PLAYOUT_DECISIONS, ROLLOUT_LIMIT, playout_rewards};
use super::policy::Policy;
use crate::action::ActionMask;
use crate::game::{Game, KnownCards};
use crate::stop::{NEVER, Stop};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// How many standard errors an action's paired advantage over the heuristic's choice must
/// reach before the bot deviates from the heuristic.
pub const SIGNIFICANCE: f64 = 1.5;

/// The same number of standard errors when every playout of the decision is cut short and
/// scored as a race (see the module documentation: the two are mixed by the share cut short).
pub const CUT_SIGNIFICANCE: f64 = 3.0;

/// Worlds per decision of `"pimc"` without a count.
pub const DEFAULT_WORLDS: u32 = 100;

/// The paired comparison of the module documentation: per action, the sum of its result's
/// difference to a base action's in the same world, and of the squares, over the worlds added.
/// Shared with anything that pairs playouts the same way (`research/net_teacher/`).
#[derive(Clone, Debug, Default)]
pub struct PairedAdvantage {
    diff: Vec<f64>,
    diff2: Vec<f64>,
    worlds: u32,
}

impl PairedAdvantage {
    /// Start over for `actions` actions (keeps the buffers).
    pub fn reset(&mut self, actions: usize) {
        self.diff.clear();
        self.diff.resize(actions, 0.0);
        self.diff2.clear();
        self.diff2.resize(actions, 0.0);
        self.worlds = 0;
    }

    /// Add one world's results, `reward[i]` for action `i`, paired against action `base`.
    pub fn add_world(&mut self, reward: &[f64], base: usize) {
        for (i, &r) in reward.iter().enumerate() {
            let x = r - reward[base];
            self.diff[i] += x;
            self.diff2[i] += x * x;
        }
        self.worlds += 1;
    }

    /// `base` unless another action's mean advantage over it is positive and more than
    /// [`SIGNIFICANCE`] standard errors; then the action with the largest such advantage.
    pub fn best(&self, base: usize) -> usize {
        self.best_at(base, SIGNIFICANCE)
    }

    /// [`PairedAdvantage::best`] with `z` standard errors in place of [`SIGNIFICANCE`].
    pub fn best_at(&self, base: usize, z: f64) -> usize {
        let w = f64::from(self.worlds.max(1));
        let mut best = (base, 0.0f64);
        for (i, (&d, &d2)) in self.diff.iter().zip(&self.diff2).enumerate() {
            let mean = d / w;
            let se = ((d2 / w - mean * mean).max(0.0) / w).sqrt();
            if mean > best.1 && mean > z * se {
                best = (i, mean);
            }
        }
        best.0
    }
}

/// The determinized Monte Carlo bot (see the module documentation).
#[derive(Clone, Debug)]
pub struct PimcBot {
    worlds: u32,
    /// Sees every hand ([`PimcBot::oracle`]).
    oracle: bool,
    rng: Xoshiro256PlusPlus,
    rollout: HeuristicBot,
    paired: PairedAdvantage,
}

impl PimcBot {
    /// A bot sampling `worlds` determinizations per decision, seeded with `seed`.
    pub fn new(worlds: u32, seed: u64) -> Self {
        PimcBot {
            worlds: worlds.max(1),
            oracle: false,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            rollout: HeuristicBot::new(),
            paired: PairedAdvantage::default(),
        }
    }

    /// The all-seeing variant (see the module documentation): every hand is known, only the
    /// stock is re-dealt in each of its `worlds` worlds.
    pub fn oracle(worlds: u32, seed: u64) -> Self {
        PimcBot { oracle: true, ..PimcBot::new(worlds, seed) }
    }

    /// Worlds sampled per decision.
    pub fn worlds(&self) -> u32 {
        self.worlds
    }

    /// Evaluate every legal action of the player to act and return the best.
    pub fn search(&mut self, g: &Game) -> Option<usize> {
        self.search_until(g, &NEVER)
    }

    /// [`search`](Self::search) until `stop` is set (read before every world): then the
    /// heuristic's action, the one the search compares the others with.
    pub fn search_until(&mut self, g: &Game, stop: &Stop) -> Option<usize> {
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
        self.paired.reset(acts.len());
        let mut known = KnownCards::default();
        if self.oracle {
            for q in 0..n {
                known.in_hand[q] = *g.hand(q);
            }
        }
        let horizon = if self.oracle { ROLLOUT_LIMIT } else { PLAYOUT_DECISIONS };
        // Playouts cut short, of all played: `z` runs between the two bounds by their share.
        let (mut cut, mut played) = (0u32, 0u32);
        let mut race = [0.0f64; crate::rules::MAX_PLAYERS];
        for _ in 0..self.worlds {
            if stop.is_set() {
                return Some(base_action);
            }
            let w = g.determinize_world(me, &known, &mut self.rng);
            for (i, &a) in acts.iter().enumerate() {
                let mut d = w.clone();
                d.apply(a);
                let mut steps = 0;
                while d.current_player().is_some() && steps < horizon {
                    d.legal_actions(&mut m);
                    match self.rollout.choose(&d, &m) {
                        Some(x) => d.apply(x),
                        None => break,
                    }
                    steps += 1;
                }
                played += 1;
                reward[i] = match (d.is_terminal(), d.winner()) {
                    (true, Some(x)) => f64::from(x == me),
                    _ if self.oracle || d.current_player().is_none() => 1.0 / n as f64,
                    _ => {
                        cut += 1;
                        playout_rewards(&d, &mut race[..n]);
                        race[me]
                    }
                };
            }
            self.paired.add_world(&reward, base);
        }
        let z = if self.oracle {
            SIGNIFICANCE
        } else {
            SIGNIFICANCE + (CUT_SIGNIFICANCE - SIGNIFICANCE) * f64::from(cut) / f64::from(played)
        };
        Some(acts[self.paired.best_at(base, z)])
    }
}

impl Policy for PimcBot {
    fn act(&mut self, g: &Game) -> Option<usize> {
        self.search(g)
    }
    fn act_until(&mut self, g: &Game, stop: &Stop) -> Option<usize> {
        self.search_until(g, stop)
    }
    fn name(&self) -> String {
        let kind = if self.oracle { "oracle" } else { "pimc" };
        format!("{kind}:{}", self.worlds)
    }
    fn generator(&mut self) -> Option<&mut Xoshiro256PlusPlus> {
        Some(&mut self.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::PairedAdvantage;

    fn best_of(worlds: &[&[f64]], base: usize) -> usize {
        let mut p = PairedAdvantage::default();
        p.reset(worlds[0].len());
        for w in worlds {
            p.add_world(w, base);
        }
        p.best(base)
    }

    #[test]
    fn an_action_better_in_every_world_is_chosen_and_a_weaker_one_is_not() {
        // Action 1 wins wherever the base loses: mean advantage 1, standard error 0. Action 2
        // is better in one world of four: mean 0.25, standard error sqrt(0.1875 / 4) = 0.217,
        // below the 1.5 standard errors it would need.
        let w: [&[f64]; 4] = [&[0.0, 1.0, 0.0], &[0.0, 1.0, 0.0], &[0.0, 1.0, 1.0], &[0.0, 1.0, 0.0]];
        assert_eq!(best_of(&w, 0), 1);
        // Paired against action 1 instead, nothing beats it.
        assert_eq!(best_of(&w, 1), 1);
    }

    #[test]
    fn a_noisy_advantage_needs_enough_worlds() {
        // Paired differences 1, -1, 1, 1: mean 0.5, variance 0.75. Over 4 worlds the standard
        // error is 0.433 (1.5 of them: 0.650 > 0.5), so the base stays; over 16 worlds of the
        // same pattern it is 0.217 (1.5 of them: 0.325 < 0.5), so action 1 is chosen.
        let pattern: [&[f64]; 4] = [&[0.0, 1.0], &[1.0, 0.0], &[0.0, 1.0], &[0.0, 1.0]];
        assert_eq!(best_of(&pattern, 0), 0);
        let sixteen: Vec<&[f64]> = pattern.iter().copied().cycle().take(16).collect();
        assert_eq!(best_of(&sixteen, 0), 1);
    }

    #[test]
    fn reset_forgets_earlier_worlds() {
        let mut p = PairedAdvantage::default();
        p.reset(2);
        p.add_world(&[0.0, 1.0], 0);
        p.reset(3);
        assert_eq!(p.best(2), 2, "no worlds: the base action");
        p.add_world(&[1.0, 0.0, 0.0], 2);
        assert_eq!(p.best(2), 0);
    }
}
