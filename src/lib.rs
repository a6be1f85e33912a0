//! # eights
//!
//! A fast, faithful rules engine and reinforcement-learning environment for the Crazy
//! Eights family of card games (Crazy Eights, Switch, British Blackjack, Crazy Eights
//! Xtreme, and their house rules).
//!
//! Layers, bottom up (a lower layer never uses a higher one; `tests/python/layout/test_layout.py`
//! reads this list and checks every path into the crate against it):
//! 1. [`card`], [`card_set`]: card faces and notation, then multisets and piles of them;
//!    [`seed`]: the one seed derivation every layer uses; [`stop`]: the flag that asks a long
//!    loop to stop (Ctrl-C in Python).
//! 2. [`rules`]: the serde rules specification, presets, validation and the compiled rules,
//!    the rules encoding an agent can read, and the rule space that draws rule sets.
//! 3. [`action`]: the fixed action layout and the legal-action mask.
//! 4. [`game`]: state, phases, legal actions, step and scoring.
//! 5. [`observation`]: the observation encoding of a game.
//! 6. [`bots`]: baseline policies, search bots and the arena; [`vec_env`]: batches of games
//!    stepped together on a thread pool; [`check`]: the invariant checks and checked random
//!    playouts (fuzz harness, soak).
//! 7. `python` (feature `python`): the PyO3 bindings, built by maturin as `eights._core`.
//!
//! ```
//! use eights::{game::Game, rules::Rules, bots::RandomBot};
//! use std::sync::Arc;
//! let rules = Arc::new(Rules::load("crazy_eights", 2, None).unwrap());
//! let mut g = Game::new(rules, 7);
//! let mut bot = RandomBot::new(1);
//! while !g.is_terminal() && !g.is_truncated() {
//!     let a = bot.act(&g).unwrap();
//!     g.step(a).unwrap();
//! }
//! ```

pub mod action;
pub mod bots;
pub mod card;
pub mod card_set;
pub mod check;
pub mod game;
pub mod observation;
pub mod rules;
pub mod seed;
pub mod stop;
pub mod vec_env;

#[cfg(feature = "python")]
mod python;
