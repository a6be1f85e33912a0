//! Baseline policies and the random self-play runner.
//!
//! Every bot implements [`Policy`]: it sees the game only through the acting player's
//! information (legal actions, own hand, the public table, hand sizes) and never reads hidden
//! cards. The ladder, weakest first:
//!
//! * [`RandomBot`] (`"random"`): uniform among the legal actions, with its own seeded
//!   xoshiro256++ stream (never the game's), so the same seeds reproduce the same games.
//! * [`heuristic::HeuristicBot`] (`"heuristic"`): a documented human strategy.
//! * [`ismcts::IsmctsBot`] (`"ismcts:N"`): information-set Monte Carlo tree search over
//!   determinizations ([`Game::determinize`](crate::game::Game::determinize)) with `N`
//!   simulations per decision, biased towards the heuristic's choices, with short
//!   heuristic playouts. `"ismcts_net:N"` ([`ismcts::IsmctsBot::rooted_on_net`]) is the same
//!   search whose root favours `net`'s move instead of the heuristic's.
//! * [`pimc::PimcBot`] (`"pimc:N"`): determinized Monte Carlo with paired playouts of every
//!   legal action in `N` sampled worlds (a rollout improvement of the heuristic).
//! * [`pimc::PimcBot::oracle`] (`"oracle:N"`): the same search seeing every hand (never a
//!   fair opponent): it measures how much the rules reward knowing and deciding.
//! * [`net::NetBot`] (`"net"`): one learned network for every rule set and table
//!   size, reading the rules encoding card by card ([`net::weights`]); batched where many
//!   games ask at once.
//! * [`net1::Net1Bot`] (`"net1"`): the first learned bots, three flat networks each trained by
//!   self-play for one two-player preset ([`net1::weights`]).
//! * a weights file named by its path (`"runs/a/final.safetensors"`, [`file`](mod@file)): a trained flat
//!   network on the rules it records, or a card network, played by the two bots above.
//!
//! [`BotSpec`] parses the names above; [`batch`] is the one place that knows how each bot is
//! played over many games at once (the learned bots batched, the searches spread over
//! threads) and owns the batched passes' scratch space; [`arena`] plays duplicate-deal
//! matches between them in parallel, and `VecEnv` plays them as opponents, both through
//! [`batch`]. [`random_selfplay`] plays whole games between random bots in a tight
//! Rust loop and reports results and speed; it is the engine's smoke test.
//!
//! Files: `policy.rs` holds [`Policy`] and [`RandomBot`], `spec.rs` [`BotSpec`] and
//! `selfplay.rs` [`random_selfplay`]; each bot has a file of its own, and `tests.rs` the
//! tests of several bots together. This file only declares the modules and re-exports; the
//! bots import [`Policy`] from `policy`, never through this module, so that no import
//! circle runs through it.

pub mod arena;
pub mod batch;
pub mod file;
pub mod heuristic;
pub mod ismcts;
pub mod net;
pub mod net1;
pub mod pimc;
mod policy;
mod selfplay;
mod spec;
mod tensors;
#[cfg(test)]
mod tests;

pub use policy::{Policy, RandomBot};
pub use selfplay::{SelfPlayStats, random_selfplay, random_selfplay_until};
pub use spec::{BOT_SPEC_HELP, BotSpec};
