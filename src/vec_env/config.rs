//! The settings and errors of a `VecEnv` batch and the seeds of
//! its random streams: what the batch and its files share.

use crate::action::NUM_ACTIONS;
use crate::bots::BotSpec;
use crate::game::derive_seed;
use crate::rules::MAX_PLAYERS;

/// Salts separating the random streams of one game index.
const OPPONENT_SALT: u64 = 0x0BB0_5EED_0000_0001;
const SAMPLER_SALT: u64 = 0x5A3B_1E50_0000_0002;
pub(super) const SEARCH_SALT: u64 = 0x5EA2_C4B0_0000_0003;

/// How many deals a reset tries when the opponents finish the hand before the learner's
/// first decision (possible only with unusual rules); after that the ended game is reported.
pub const MAX_DEALS: u32 = 100;

/// The seed of episode `k` of game `i` after `reset(seed)`.
pub fn episode_seed(seed: u64, i: u64, k: u64) -> u64 {
    let base = derive_seed(seed, i);
    if k == 0 { base } else { derive_seed(base, k) }
}

/// The seed of game `i`'s built-in opponent stream after `reset(seed)`.
pub fn opponent_seed(seed: u64, i: u64) -> u64 {
    derive_seed(seed ^ OPPONENT_SALT, i)
}

/// The seed of game `i`'s `VecEnv::random_actions` stream after `reset(seed)`.
pub fn sampler_seed(seed: u64, i: u64) -> u64 {
    derive_seed(seed ^ SAMPLER_SALT, i)
}

/// The seeds of a reset (`VecEnv::reset_games`).
#[derive(Copy, Clone, Debug)]
pub enum ResetSeeds<'a> {
    /// One seed for the batch: game `i` is dealt from `(seed, i)`, as by `VecEnv::reset`.
    Batch(u64),
    /// A seed per game: game `i` is dealt from `(seeds[i], 0)`, as game 0 of a batch reset
    /// with that seed, so equal seeds deal equal games.
    PerGame(&'a [u64]),
}

impl ResetSeeds<'_> {
    /// The `(seed, index)` pair game `i` is reseeded from.
    pub(super) fn of(self, i: usize) -> (u64, u64) {
        match self {
            ResetSeeds::Batch(seed) => (seed, i as u64),
            ResetSeeds::PerGame(seeds) => (seeds[i], 0),
        }
    }
}

/// When a finished game is dealt again.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Autoreset {
    /// On the next step (its action for that game is ignored). Gymnasium's default.
    #[default]
    NextStep,
    /// Within the step that ended the episode; the final observation goes to `final_obs`.
    SameStep,
}

/// Who plays the seats other than the learner's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Opponents {
    /// The built-in uniform random bot, played inside the step.
    #[default]
    Random,
    /// The caller, through `VecEnv::step_opponents`.
    External,
    /// Built-in bots, one per seat (the learner's entry is ignored), played inside the step
    /// on the threads that step their games; the same games as the caller playing
    /// `VecEnv::bot_actions` through `VecEnv::step_opponents`.
    Bots(Seats),
}

/// A built-in bot per seat ([`Opponents::Bots`]).
pub type Seats = [Option<BotSpec>; MAX_PLAYERS];

/// Most opponent moves in a row in one game within one call with built-in opponents (the
/// random bot or [`Opponents::Bots`]); past it the call fails ([`VecEnvError::Opponents`])
/// and the batch must be reset.
pub const MAX_OPPONENT_MOVES: usize = 10_000;

/// Who drives which seats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One learner seat; the others are opponents.
    Learner { seat: usize, opponents: Opponents },
    /// The caller plays every seat.
    SelfPlay,
}

impl Default for Mode {
    fn default() -> Self {
        Mode::Learner { seat: 0, opponents: Opponents::Random }
    }
}

/// Settings of a `VecEnv`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub num_envs: usize,
    /// Threads of the dedicated pool; 0 means all cores.
    pub num_threads: usize,
    pub autoreset: Autoreset,
    pub mode: Mode,
    /// Zero-sum score rewards instead of win/loss (see [`Game::returns`](crate::game::Game::returns)).
    pub score_rewards: bool,
}

impl Config {
    pub fn new(num_envs: usize) -> Config {
        Config { num_envs, num_threads: 0, autoreset: Autoreset::NextStep, mode: Mode::default(), score_rewards: false }
    }
}

/// Errors of a `VecEnv`. A step that returns an error has changed nothing.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VecEnvError {
    #[error("{what} must have {expected} elements, got {got}")]
    Length { what: &'static str, expected: usize, got: usize },
    #[error("action {action} of env {env} is out of range: action ids are in [0, {max}]", max = NUM_ACTIONS - 1)]
    OutOfRange { env: usize, action: i64 },
    #[error("illegal action {action} for env {env} (seat {seat} to act); legal actions: {legal}")]
    Illegal { env: usize, action: String, seat: usize, legal: String },
    #[error("env {env}: seat {seat} (an opponent) is to act; play it with step_opponents() before step()")]
    OpponentToAct { env: usize, seat: usize },
    #[error("{0}")]
    Config(String),
    #[error(
        "the opponents made {moves} moves in a row in env {env} without the learner to act (rules \
         under which they keep the turn): set limits.max_decisions, then call reset()"
    )]
    Opponents { env: usize, moves: usize },
    #[error("call reset() before stepping")]
    NotReset,
    /// A call stopped on request (the flag of `VecEnv::stop_flag`); a stopped
    /// reset or step leaves the batch to be reset.
    #[error("stopped on request; call reset() before stepping again")]
    Stopped,
    /// The memory for the games could not be reserved.
    #[error("cannot allocate {num_envs} games ({bytes} bytes of game state): out of memory")]
    OutOfMemory { num_envs: usize, bytes: usize },
}
