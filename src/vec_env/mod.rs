//! A batch of games of one rules set, stepped together (optionally on several threads).
//!
//! [`VecEnv`] holds `num_envs` [`Game`]s and writes every output of a step straight into
//! caller-provided slices ([`Outputs`]): observations (`f32`, or compact `u8`/`i8` with the
//! same layout and saturating values), legal-action masks (`bool` or `u8`), rewards,
//! `terminated`, `truncated` and the seat to act. Nothing is allocated per step.
//!
//! **Seeding.** After [`VecEnv::reset`]`(seed)`, episode `k` of game `i` is dealt from
//! [`episode_seed`]`(seed, i, k)` (episode 0 from [`derive_seed`]`(seed, i)`); game `i`'s
//! built-in opponents and its [`VecEnv::random_actions`] sampler have their own
//! [`RandomBot`] streams, seeded from `(seed, i)` as well. Every game only ever touches its
//! own state, so results do not depend on the number of threads.
//!
//! **Modes** ([`Mode`]).
//! * `Learner { seat, opponents: Random }` (default, seat 0): the built-in random bot plays
//!   every other seat inside the step, so each observation is a decision of the learner.
//!   One reward per game.
//! * `Learner { seat, opponents: External }`: the caller plays the other seats. After
//!   [`VecEnv::step`], games whose seat to act is not the learner wait for
//!   [`VecEnv::step_opponents`], whose observation and mask rows are those of the opponent
//!   to act; repeat until every game has the learner to act (or has ended).
//! * `SelfPlay`: the caller drives every seat. Observations and masks are those of the seat
//!   to act (`to_act`); rewards are per seat (`num_envs x num_players`).
//!
//! **Autoreset** ([`Autoreset`]).
//! * `NextStep` (Gymnasium 1.x default): the step that ends an episode returns its final
//!   observation with `terminated`/`truncated` set, an empty mask and `to_act = -1`; the
//!   next step ignores that game's action and returns the first observation of a new
//!   episode with reward 0 and both flags false.
//! * `SameStep`: the game is dealt again inside the step that ended it; the outputs show the
//!   new episode with the old episode's reward and flags, and its final observation is
//!   written to `Outputs::final_obs`.
//!
//! When the episode is over the observation row is the learner's (learner modes) or that of
//! the seat that made the last decision (self-play). Rewards are 0 except on the step that
//! ends an episode, which pays [`Game::returns`] (win/loss, or zero-sum score).

use crate::action::{Action, ActionMask, NUM_ACTIONS};
use crate::bots::batch::BotBatch;
use crate::bots::{BotSpec, RandomBot};
use crate::game::{Game, derive_seed};
use crate::observation::OBS_SIZE;
use crate::rules::{RULES_SIZE, Rules};
use crate::stop::{NEVER, Stop};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

mod bot_actions;
mod config;
#[cfg(not(feature = "rayon-pool"))]
mod crew;
mod cut;
mod episodes;
mod opponents;
#[cfg(feature = "rayon-pool")]
mod rayon_crew;
mod rows;
mod slot;
use config::SEARCH_SALT;
pub use config::{
    Autoreset, Config, MAX_DEALS, MAX_OPPONENT_MOVES, Mode, Opponents, ResetSeeds, Seats, VecEnvError, episode_seed,
    opponent_seed, sampler_seed,
};
#[cfg(not(feature = "rayon-pool"))]
use crew::Crew;
use cut::{Cut, GamesCut};
use episodes::Episodes;
pub use episodes::{RulesSource, rules_seed};
#[cfg(feature = "rayon-pool")]
use rayon_crew::Crew;
pub use rows::{Buffers, MaskValue, ObsValue, Outputs};
use rows::{Rare, Row};
use slot::{Ctx, Games, Hot, Slot};

/// How many games ahead [`seq_rows`] prefetches the game state.
const PREFETCH: usize = 2;

/// Smallest number of games handed to one thread task by the cheap calls (the check of the
/// actions, the random actions) and by steps with built-in opponents; with chunk boundaries
/// at multiples of it no two threads write into one cache line of an output row. A batch of
/// at most this many games runs on the calling thread alone.
const GRAIN: usize = 64;

/// Games per chunk of a step or reset without built-in opponents (a multiple of it). A
/// step's cost varies from game to game (a game that ends is dealt again) and from moment to
/// moment (an interrupt), and a thread that is done with its own chunks can only help with
/// whole chunks of another's. `cargo run --release --example chunk_balance` replays measured
/// steps through that schedule: at 16 threads and b=4096 the slowest thread ends about 25%
/// above the mean in chunks of 64 games, about 18% in chunks of 16
/// (research/notes/speed_history.md). A chunk boundary may share a cache line of the one-byte
/// rows with the next chunk's.
const STEP_GRAIN: usize = 16;

/// Chunks a thread gets of a step or reset without built-in opponents, and of the cheap calls.
const CHUNKS_PER_THREAD: usize = 16;

/// Most chunks a step with built-in opponents is cut into (one batched-bot buffer each),
/// about eight per thread below that.
const MAX_CHUNKS: usize = 64;

/// Most games one batch may hold (about 4 KiB each with the Python output buffers, so a
/// few GiB at the limit); larger requests are refused before anything is allocated.
pub const MAX_NUM_ENVS: usize = 1 << 20;

/// Most threads of a batch's pool.
pub const MAX_THREADS: usize = 1024;

impl<O: ObsValue + Default> Buffers<O> {
    /// Buffers sized for `env`.
    pub fn new(env: &VecEnv) -> Self {
        let n = env.num_envs();
        Buffers {
            obs: vec![O::default(); n * OBS_SIZE],
            mask: vec![false; n * NUM_ACTIONS],
            rewards: vec![0.0; n * env.reward_width()],
            terminated: vec![false; n],
            truncated: vec![false; n],
            to_act: vec![0; n],
            final_obs: vec![O::default(); n * OBS_SIZE],
            rules: vec![],
            rules_id: vec![],
            final_rules: vec![],
        }
    }
}

/// A batch of games stepped together. See the module documentation.
pub struct VecEnv {
    /// The rules the games were built with (the first of a list or space).
    rules: Arc<Rules>,
    /// Where each episode's rules come from, with the encodings of fixed rule sets.
    episodes: Arc<Episodes>,
    cfg: Config,
    ctx: Ctx,
    slots: Vec<Slot>,
    hot: Vec<Hot>,
    /// Worker threads (none with one thread).
    crew: Option<Crew>,
    threads: usize,
    started: bool,
    /// The built-in opponents' batched decisions' buffers, one per chunk of a call (see
    /// [`crate::bots::batch`]), kept between steps.
    batches: Vec<BotBatch>,
    /// Games per chunk below which a call runs on the calling thread alone.
    grain: usize,
    /// The stop flag the searches of a call read (built-in search opponents,
    /// [`VecEnv::bot_actions`] with a search bot), set and cleared by whoever holds
    /// [`VecEnv::stop_flag`] (the Python bindings: cleared before such a call, set on Ctrl-C).
    stop: Arc<Stop>,
}

impl VecEnv {
    /// `num_envs` games of `rules`. Games are dealt from seed 0 but must be [`reset`](Self::reset)
    /// before stepping.
    pub fn new(rules: Arc<Rules>, cfg: Config) -> Result<VecEnv, VecEnvError> {
        VecEnv::with_source(RulesSource::One(rules), cfg)
    }

    /// `num_envs` games whose rules come from `source` at every episode (a list of rule sets
    /// or a rule space, all for one player count; see [`RulesSource`]).
    pub fn with_source(source: RulesSource, cfg: Config) -> Result<VecEnv, VecEnvError> {
        let rules = source.first()?;
        source.check(rules.num_players)?;
        let n = rules.num_players as usize;
        if cfg.num_envs == 0 || cfg.num_envs > MAX_NUM_ENVS {
            return Err(VecEnvError::Config(format!("num_envs must be in [1, {MAX_NUM_ENVS}], got {}", cfg.num_envs)));
        }
        if cfg.num_threads > MAX_THREADS {
            return Err(VecEnvError::Config(format!(
                "num_threads must be in [0, {MAX_THREADS}] (0 = all cores), got {}",
                cfg.num_threads
            )));
        }
        if let Mode::Learner { seat, opponents } = cfg.mode {
            if seat >= n {
                return Err(VecEnvError::Config(format!("learner seat must be in [0, {}], got {seat}", n - 1)));
            }
            if let Opponents::Bots(seats) = opponents {
                if let Some(p) = (0..n).find(|&p| p != seat && seats[p].is_none()) {
                    return Err(VecEnvError::Config(format!("seat {p} (an opponent) has no built-in bot")));
                }
            }
        }
        let threads = if cfg.num_threads == 0 {
            std::thread::available_parallelism().map_or(1, |k| k.get())
        } else {
            cfg.num_threads
        };
        let crew = if threads > 1 {
            Some(Crew::new(threads).map_err(|e| VecEnvError::Config(format!("cannot start {threads} threads: {e}")))?)
        } else {
            None
        };
        let width = if cfg.mode == Mode::SelfPlay { n } else { 1 };
        let ctx = Ctx::new(cfg.mode, cfg.autoreset, cfg.score_rewards, width);
        // With a search among the opponents a call shares out single games (a decision costs
        // milliseconds, so a few games still spread over the threads); whole grains otherwise.
        let grain = match cfg.mode {
            Mode::Learner { opponents: Opponents::Bots(seats), .. } if opponents::searches(&seats) => 1,
            _ => GRAIN,
        };
        let proto = Slot {
            game: Game::new(rules.clone(), 0),
            opponent: RandomBot::new(0),
            base_seed: 0,
            episodes: 0,
            fresh: true,
            last_actor: 0,
            rules_id: 0,
            spare: None,
        };
        let hot = Hot { mask: ActionMask::default(), sampler: RandomBot::new(0), to_act: -1, pending: false };
        let mut slots = Vec::new();
        slots.try_reserve_exact(cfg.num_envs).map_err(|_| VecEnvError::OutOfMemory {
            num_envs: cfg.num_envs,
            bytes: cfg.num_envs.saturating_mul(std::mem::size_of::<Slot>() + std::mem::size_of::<Hot>()),
        })?;
        slots.resize(cfg.num_envs, proto);
        let mut hots = Vec::new();
        hots.try_reserve_exact(cfg.num_envs).map_err(|_| VecEnvError::OutOfMemory {
            num_envs: cfg.num_envs,
            bytes: cfg.num_envs.saturating_mul(std::mem::size_of::<Slot>() + std::mem::size_of::<Hot>()),
        })?;
        hots.resize(cfg.num_envs, hot);
        Ok(VecEnv {
            rules,
            episodes: Arc::new(Episodes::new(source)),
            cfg,
            ctx,
            slots,
            hot: hots,
            crew,
            threads,
            started: false,
            batches: vec![BotBatch::default(); MAX_CHUNKS],
            grain,
            stop: Arc::new(Stop::new()),
        })
    }

    pub fn num_envs(&self) -> usize {
        self.cfg.num_envs
    }
    pub fn num_players(&self) -> usize {
        self.rules.num_players as usize
    }
    /// Threads used per call (1 means the caller's thread only).
    pub fn num_threads(&self) -> usize {
        // A forked child's calls run on its own thread: the workers stayed in the parent.
        if self.crew.as_ref().is_some_and(Crew::forked) { 1 } else { self.threads }
    }
    pub fn config(&self) -> &Config {
        &self.cfg
    }
    /// The rules the games were built with: the batch's rules, or the first of a list or
    /// of a space's draws (each game's own are `game(i).rules()`).
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    /// Where each episode's rules come from.
    pub fn rules_source(&self) -> &RulesSource {
        &self.episodes.source
    }
    /// Rewards per game: 1 (learner modes) or the number of players (self-play).
    pub fn reward_width(&self) -> usize {
        self.ctx.width
    }
    /// Game `i` (read-only).
    pub fn game(&self, i: usize) -> &Game {
        &self.slots[i].game
    }
    /// Legal actions of game `i`'s seat to act (empty when its episode is over).
    pub fn legal_mask(&self, i: usize) -> &ActionMask {
        &self.hot[i].mask
    }
    /// Bytes of state per game (the game, its two bot streams, its legal actions and
    /// bookkeeping).
    pub fn state_bytes_per_env() -> usize {
        std::mem::size_of::<Slot>() + std::mem::size_of::<Hot>()
    }

    fn check_outputs<O, M>(&self, out: &Outputs<'_, O, M>, need_final: bool) -> Result<(), VecEnvError> {
        let n = self.cfg.num_envs;
        let checks = [
            ("obs", out.obs.len(), n * OBS_SIZE),
            ("mask", out.mask.len(), n * NUM_ACTIONS),
            ("rewards", out.rewards.len(), n * self.ctx.width),
            ("terminated", out.terminated.len(), n),
            ("truncated", out.truncated.len(), n),
            ("to_act", out.to_act.len(), n),
        ];
        for (what, got, expected) in checks {
            if got != expected {
                return Err(VecEnvError::Length { what, expected, got });
            }
        }
        let optional = [
            ("rules", out.rules.as_ref().map(|x| x.len()), n * RULES_SIZE),
            ("rules_id", out.rules_id.as_ref().map(|x| x.len()), n),
            ("final_rules", out.final_rules.as_ref().map(|x| x.len()), n * RULES_SIZE),
        ];
        for (what, got, expected) in optional {
            if let Some(got) = got.filter(|&g| g != expected) {
                return Err(VecEnvError::Length { what, expected, got });
            }
        }
        match &out.final_obs {
            Some(f) if f.len() != n * OBS_SIZE => {
                Err(VecEnvError::Length { what: "final_obs", expected: n * OBS_SIZE, got: f.len() })
            }
            None if need_final && self.cfg.autoreset == Autoreset::SameStep => Err(VecEnvError::Config(
                "final_obs is required with SameStep autoreset (the final observations go there)".into(),
            )),
            _ => Ok(()),
        }
    }

    /// Run `f(slot, i, row)` for every game: on the calling thread alone, or cut into chunks
    /// of whole [`GRAIN`]s that the crew's threads take, each its own range of them first
    /// (`crew.rs`). Returns the first game whose random opponents gave up ([`Row::gave_up`]).
    fn for_each<O, M, F>(&mut self, out: Outputs<'_, O, M>, f: F) -> Option<usize>
    where
        O: ObsValue,
        M: MaskValue,
        F: Fn(&mut Slot, &mut Hot, usize, &mut Row<'_, '_, O, M>) + Sync,
    {
        let width = self.ctx.width;
        let games = Games { slots: &mut self.slots[..], hot: &mut self.hot[..], start: 0 };
        let len = games.len();
        let Some(crew) = self.crew.as_mut().filter(|_| len > GRAIN) else {
            return seq_rows(games, out, width, &f);
        };
        let per = chunk_len(len, crew.threads(), STEP_GRAIN, CHUNKS_PER_THREAD, usize::MAX);
        let cut = GamesCut::new(games, out, width);
        let gave_up = FirstGame::default();
        crew.run(len.div_ceil(per), &|k| {
            // SAFETY: the crew runs each chunk once, and chunks' ranges do not overlap.
            let (g, o) = unsafe { cut.games(k * per..((k + 1) * per).min(len)) };
            gave_up.keep(seq_rows(g, o, width, &f));
        });
        gave_up.into_inner()
    }

    /// Run `f(games, rows, bots)` for the whole batch on the calling thread alone, or for each
    /// chunk of whole `grain`s that the crew's threads take (`bots`: the chunk's own
    /// batched-bot buffers). The error of the first chunk that fails is returned, whatever
    /// the thread count.
    fn for_chunks<O, M, F>(&mut self, out: Outputs<'_, O, M>, grain: usize, f: F) -> Result<(), VecEnvError>
    where
        O: ObsValue,
        M: MaskValue,
        F: Fn(Games<'_>, Outputs<'_, O, M>, &mut BotBatch) -> Result<(), VecEnvError> + Sync,
    {
        let width = self.ctx.width;
        let games = Games { slots: &mut self.slots[..], hot: &mut self.hot[..], start: 0 };
        let len = games.len();
        let Some(crew) = self.crew.as_mut().filter(|_| len > grain) else {
            return f(games, out, &mut self.batches[0]);
        };
        // At most MAX_CHUNKS chunks, one for each of the buffers.
        let per = chunk_len(len, crew.threads(), grain, 8, MAX_CHUNKS);
        let n = len.div_ceil(per);
        assert!(n <= self.batches.len(), "no more chunks than buffers");
        let cut = GamesCut::new(games, out, width);
        let bots = Cut::new(&mut self.batches[..], 1);
        let failed = First::default();
        crew.run(n, &|k| {
            // SAFETY: the crew runs each chunk once, and chunks' ranges do not overlap.
            let ((g, o), b) = unsafe { (cut.games(k * per..((k + 1) * per).min(len)), &mut bots.rows(k..k + 1)[0]) };
            if let Err(e) = f(g, o, b) {
                failed.keep(k, e);
            }
        });
        failed.into_result()
    }

    /// Reseed every game from `seed` (game `i` from `derive_seed(seed, i)`), deal, and write
    /// the first observations; rewards and flags are cleared.
    pub fn reset<O: ObsValue, M: MaskValue>(&mut self, seed: u64, out: Outputs<'_, O, M>) -> Result<(), VecEnvError> {
        self.reset_games(ResetSeeds::Batch(seed), None, out)
    }

    /// Reseed and deal the games `mask` marks (every game without one) from `seeds`, as
    /// [`reset`](Self::reset) does; the other games and their output rows are left as they
    /// were. A mask needs a batch already reset.
    pub fn reset_games<O: ObsValue, M: MaskValue>(
        &mut self,
        seeds: ResetSeeds<'_>,
        mask: Option<&[bool]>,
        out: Outputs<'_, O, M>,
    ) -> Result<(), VecEnvError> {
        let n = self.cfg.num_envs;
        if let ResetSeeds::PerGame(v) = seeds
            && v.len() != n
        {
            return Err(VecEnvError::Length { what: "seeds", expected: n, got: v.len() });
        }
        if let Some(m) = mask {
            if m.len() != n {
                return Err(VecEnvError::Length { what: "reset_mask", expected: n, got: m.len() });
            }
            if !self.started {
                return Err(VecEnvError::NotReset);
            }
        }
        self.check_outputs(&out, false)?;
        let (ctx, eps) = (self.ctx, self.episodes.clone());
        self.started = true;
        let dealt = eps.clone();
        let reset = move |s: &mut Slot, h: &mut Hot, i: usize, row: &mut Row<'_, '_, O, M>| {
            if mask.is_none_or(|m| m[i]) {
                let (seed, k) = seeds.of(i);
                s.reset_row(h, ctx, &dealt, seed, k, row);
            }
        };
        if let Some(seats) = self.bot_seats() {
            let width = ctx.width;
            let stop = self.stop.clone();
            let done = self.for_chunks(out, self.grain, move |mut g, mut o, bots| {
                // The batched bots never give up in the rows' pass (they play in `opponents::play`).
                let _ = seq_rows(g.reborrow(), o.reborrow(), width, &reset);
                opponents::play(g, o, bots, ctx, &eps, &seats, &stop)
            });
            return self.stopped_or(done);
        }
        let gave_up = self.for_each(out, reset);
        self.gave_up(gave_up)
    }

    /// Validate one action per game for the seat to act (learner or self-play step). A large
    /// batch is checked on the crew's threads, chunk by chunk; the error reported is the first
    /// game's, as on one thread.
    fn validate(&mut self, actions: &[i64], opponents: bool) -> Result<(), VecEnvError> {
        let check = self.checker(actions, opponents)?;
        let len = actions.len();
        let Some(crew) = self.crew.as_mut().filter(|_| len > 4 * GRAIN) else {
            return check.check(0, &self.hot, actions);
        };
        let per = chunk_len(len, crew.threads(), GRAIN, CHUNKS_PER_THREAD, usize::MAX);
        let failed = First::default();
        let hot = &self.hot;
        crew.run(len.div_ceil(per), &|k| {
            let r = k * per..((k + 1) * per).min(len);
            if let Err(e) = check.check(r.start, &hot[r.clone()], &actions[r]) {
                failed.keep(k, e);
            }
        });
        failed.into_result()
    }

    /// The checks of a call's actions before any chunk runs (reset done, one action a game),
    /// then the check of the actions of games `start..` ([`check_action`]).
    fn checker(&self, actions: &[i64], opponents: bool) -> Result<Checker, VecEnvError> {
        if !self.started {
            return Err(VecEnvError::NotReset);
        }
        if actions.len() != self.cfg.num_envs {
            return Err(VecEnvError::Length { what: "actions", expected: self.cfg.num_envs, got: actions.len() });
        }
        let learner = self.ctx.learner();
        // Built-in opponents leave an opponent to act only after a failed call.
        let external =
            matches!(self.cfg.mode, Mode::Learner { opponents: Opponents::External | Opponents::Bots(_), .. });
        Ok(Checker { learner, opponents, external })
    }

    /// [`VecEnv::validate`] the actions, then, when every one passes, [`VecEnv::for_each`]:
    /// on the crew, one call of two phases (the checks, then the games), so a step hands its
    /// work to the threads once instead of twice.
    fn checked_each<O, M, F>(
        &mut self,
        actions: &[i64],
        opponents: bool,
        out: Outputs<'_, O, M>,
        f: F,
    ) -> Result<(), VecEnvError>
    where
        O: ObsValue,
        M: MaskValue,
        F: Fn(&mut Slot, &mut Hot, usize, &mut Row<'_, '_, O, M>) + Sync,
    {
        let len = actions.len();
        let check = self.checker(actions, opponents)?;
        let width = self.ctx.width;
        let Some(crew) = self.crew.as_mut().filter(|_| len > 4 * GRAIN) else {
            // One thread, or a batch small enough to check on the calling thread (as `validate`).
            check.check(0, &self.hot, actions)?;
            let gave_up = self.for_each(out, f);
            return self.gave_up(gave_up);
        };
        let threads = crew.threads();
        let games = Games { slots: &mut self.slots[..], hot: &mut self.hot[..], start: 0 };
        let cut = GamesCut::new(games, out, width);
        let (per_check, per) = (
            chunk_len(len, threads, GRAIN, CHUNKS_PER_THREAD, usize::MAX),
            chunk_len(len, threads, STEP_GRAIN, CHUNKS_PER_THREAD, usize::MAX),
        );
        let failed = First::default();
        let bad = AtomicBool::new(false);
        let gave_up = FirstGame::default();
        crew.run_then(
            len.div_ceil(per_check),
            &|k| {
                let r = k * per_check..((k + 1) * per_check).min(len);
                // SAFETY: the first phase only reads the games' `hot` rows; the second, which
                // writes them, starts once every chunk of the first has finished.
                let hot = unsafe { cut.hot(r.clone()) };
                if let Err(e) = check.check(r.start, hot, &actions[r]) {
                    failed.keep(k, e);
                    bad.store(true, Ordering::Relaxed);
                }
            },
            len.div_ceil(per),
            &|k| {
                // Seen here: the first phase has finished (the crew's counter orders it).
                if bad.load(Ordering::Relaxed) {
                    return;
                }
                // SAFETY: the crew runs each chunk once, chunks' ranges do not overlap, and no
                // first-phase chunk is still reading.
                let (g, o) = unsafe { cut.games(k * per..((k + 1) * per).min(len)) };
                gave_up.keep(seq_rows(g, o, width, &f));
            },
        );
        failed.into_result()?;
        self.gave_up(gave_up.into_inner())
    }

    /// Step every game with its action: the learner's (learner modes) or the seat to act's
    /// (self-play). Games awaiting a NextStep autoreset ignore their action and are dealt
    /// again. With built-in opponents, they then play up to the learner's next decision.
    /// Every action is checked before anything changes: an error leaves the batch as it was.
    pub fn step<O: ObsValue, M: MaskValue>(
        &mut self,
        actions: &[i64],
        out: Outputs<'_, O, M>,
    ) -> Result<(), VecEnvError> {
        self.check_outputs(&out, true)?;
        let (ctx, eps) = (self.ctx, self.episodes.clone());
        if let Some(seats) = self.bot_seats() {
            self.validate(actions, false)?;
            let width = ctx.width;
            let stop = self.stop.clone();
            let done = self.for_chunks(out, self.grain, move |mut g, mut o, bots| {
                let _ = seq_rows(g.reborrow(), o.reborrow(), width, &|s, h, i, row| {
                    s.step_row(h, ctx, &eps, actions[i], row)
                });
                opponents::play(g, o, bots, ctx, &eps, &seats, &stop)
            });
            return self.stopped_or(done);
        }
        self.checked_each(actions, false, out, move |s, h, i, row| s.step_row(h, ctx, &eps, actions[i], row))
    }

    /// External opponents: play `actions[i]` in every game whose seat to act is an
    /// opponent; other entries are ignored (and other games' rows left unchanged). Rows of
    /// the stepped games are rewritten; their reward and flags are set only if the episode
    /// ends here (so a step's results accumulate over its opponent rounds).
    pub fn step_opponents<O: ObsValue, M: MaskValue>(
        &mut self,
        actions: &[i64],
        out: Outputs<'_, O, M>,
    ) -> Result<(), VecEnvError> {
        if !matches!(self.cfg.mode, Mode::Learner { opponents: Opponents::External, .. }) {
            return Err(VecEnvError::Config("step_opponents() needs a learner mode with external opponents".into()));
        }
        self.check_outputs(&out, true)?;
        let (ctx, eps) = (self.ctx, self.episodes.clone());
        self.checked_each(actions, true, out, move |s, h, i, row| s.opponent_row(h, ctx, &eps, actions[i], row))
    }

    /// The flag the searches of this batch's calls read (see [`VecEnv::step`]): set from
    /// another thread, it ends a reset or step with built-in search opponents, or
    /// [`VecEnv::bot_actions`] with a search bot, within a few milliseconds, with
    /// [`VecEnvError::Stopped`]. It stays set until its holder clears it ([`Stop::clear`]),
    /// before the next call: a call that cleared it itself could erase a request made as it
    /// started.
    pub fn stop_flag(&self) -> Arc<Stop> {
        self.stop.clone()
    }

    /// Whether a built-in opponent of this batch searches (its calls then read the stop flag).
    pub fn searches(&self) -> bool {
        self.bot_seats().is_some_and(|s| opponents::searches(&s))
    }

    /// Whether built-in bots play the opponents inside the step (the stop flag is read between
    /// their moves: every 1,024 games and between two batched answers).
    pub fn plays_bots(&self) -> bool {
        self.bot_seats().is_some()
    }

    /// A reset or step that played built-in opponents: once stopped on request, the games
    /// are part-way through the call, so the batch must be reset before the next step.
    /// So do opponents that did not finish: the other chunks went on.
    fn stopped_or(&mut self, done: Result<(), VecEnvError>) -> Result<(), VecEnvError> {
        if self.stop.is_set() {
            self.started = false;
            return Err(VecEnvError::Stopped);
        }
        if matches!(done, Err(VecEnvError::Opponents { .. })) {
            self.started = false;
        }
        done
    }

    /// A reset or step whose random opponents gave up in game `env` (the first one): the
    /// other games were stepped, so the batch must be reset before the next step.
    fn gave_up(&mut self, env: Option<usize>) -> Result<(), VecEnvError> {
        match env {
            None => Ok(()),
            Some(env) => {
                self.started = false;
                Err(VecEnvError::Opponents { env, moves: MAX_OPPONENT_MOVES })
            }
        }
    }

    /// The built-in bot of each opponent seat ([`Opponents::Bots`]).
    fn bot_seats(&self) -> Option<Seats> {
        match self.cfg.mode {
            Mode::Learner { opponents: Opponents::Bots(seats), .. } => Some(seats),
            _ => None,
        }
    }

    /// True if some game has an opponent to act (external opponents).
    pub fn opponents_to_act(&self) -> bool {
        let Some(l) = self.ctx.learner() else { return false };
        self.hot.iter().any(|s| !s.pending && s.to_act >= 0 && s.to_act as usize != l)
    }

    /// A uniformly random legal action for each game's seat to act, drawn from game `i`'s
    /// own sampler stream; 0 for games whose episode is over (their action is ignored).
    pub fn random_actions(&mut self, out: &mut [i64]) -> Result<(), VecEnvError> {
        if out.len() != self.cfg.num_envs {
            return Err(VecEnvError::Length { what: "actions", expected: self.cfg.num_envs, got: out.len() });
        }
        let f = |s: &mut Hot, a: &mut i64| *a = s.sampler.pick(&s.mask).map_or(0, |x| x as i64);
        let len = out.len();
        let Some(crew) = self.crew.as_mut().filter(|_| len > 4 * GRAIN) else {
            self.hot.iter_mut().zip(out.iter_mut()).for_each(|(s, a)| f(s, a));
            return Ok(());
        };
        let per = chunk_len(len, crew.threads(), GRAIN, CHUNKS_PER_THREAD, usize::MAX);
        let (hot, acts) = (Cut::new(&mut self.hot[..], 1), Cut::new(out, 1));
        crew.run(len.div_ceil(per), &|k| {
            let r = k * per..((k + 1) * per).min(len);
            // SAFETY: the crew runs each chunk once, and chunks' ranges do not overlap.
            let (h, a) = unsafe { (hot.rows(r.clone()), acts.rows(r)) };
            h.iter_mut().zip(a.iter_mut()).for_each(|(s, a)| f(s, a));
        });
        Ok(())
    }
}

/// The check of a call's actions, chunk by chunk ([`check_action`]).
#[derive(Copy, Clone)]
struct Checker {
    learner: Option<usize>,
    opponents: bool,
    external: bool,
}

impl Checker {
    /// The actions of games `start..start + hot.len()`.
    fn check(&self, start: usize, hot: &[Hot], actions: &[i64]) -> Result<(), VecEnvError> {
        for (j, (s, &a)) in hot.iter().zip(actions).enumerate() {
            check_action(start + j, s, a, self.learner, self.opponents, self.external)?;
        }
        Ok(())
    }
}

/// Check action `a` of game `i` (see [`VecEnv::validate`]): `opponents` for an opponent
/// step, `external` when the caller plays the opponents (a learner step with an opponent to
/// act is then an error).
fn check_action(
    i: usize,
    s: &Hot,
    a: i64,
    learner: Option<usize>,
    opponents: bool,
    external: bool,
) -> Result<(), VecEnvError> {
    if s.pending || s.to_act < 0 {
        return Ok(());
    }
    let p = s.to_act as usize;
    let opp = learner.is_some_and(|l| l != p);
    if opponents != opp {
        if !opponents && external {
            return Err(VecEnvError::OpponentToAct { env: i, seat: p });
        }
        return Ok(());
    }
    if !(0..NUM_ACTIONS as i64).contains(&a) {
        return Err(VecEnvError::OutOfRange { env: i, action: a });
    }
    if !s.mask.contains(a as usize) {
        let name = |id: usize| Action::from_id(id).map_or(id.to_string(), |x| format!("'{x}' ({id})"));
        let legal: Vec<String> = s.mask.iter().map(name).collect();
        return Err(VecEnvError::Illegal { env: i, action: name(a as usize), seat: p, legal: legal.join(", ") });
    }
    Ok(())
}

/// Games per chunk for a batch of `len` on `threads` threads: whole `grain`s, about
/// `per_thread` chunks a thread, and at most `max_chunks` chunks.
fn chunk_len(len: usize, threads: usize, grain: usize, per_thread: usize, max_chunks: usize) -> usize {
    len.div_ceil(threads * per_thread).max(len.div_ceil(max_chunks)).next_multiple_of(grain)
}

/// The error of the first chunk that failed in a call, whichever thread ran it: the error
/// one thread would have met first.
#[derive(Default)]
struct First(Mutex<Option<(usize, VecEnvError)>>);

impl First {
    fn keep(&self, k: usize, e: VecEnvError) {
        let mut first = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if first.as_ref().is_none_or(|(j, _)| k < *j) {
            *first = Some((k, e));
        }
    }

    fn into_result(self) -> Result<(), VecEnvError> {
        self.0.into_inner().unwrap_or_else(|e| e.into_inner()).map_or(Ok(()), |(_, e)| Err(e))
    }
}

/// The first game of a call (the lowest index) whose random opponents gave up, whichever
/// thread stepped it ([`Row::gave_up`]).
struct FirstGame(AtomicUsize);

impl Default for FirstGame {
    fn default() -> Self {
        FirstGame(AtomicUsize::new(usize::MAX))
    }
}

impl FirstGame {
    fn keep(&self, game: Option<usize>) {
        if let Some(i) = game {
            self.0.fetch_min(i, Ordering::Relaxed);
        }
    }

    fn into_inner(self) -> Option<usize> {
        Some(self.0.into_inner()).filter(|&i| i != usize::MAX)
    }
}

/// Run `f` on each game of a chunk in turn, prefetching; returns the first game (its index
/// in the batch) whose random opponents gave up ([`Row::gave_up`]).
fn seq_rows<O, M, F>(games: Games<'_>, out: Outputs<'_, O, M>, width: usize, f: &F) -> Option<usize>
where
    O: ObsValue,
    F: Fn(&mut Slot, &mut Hot, usize, &mut Row<'_, '_, O, M>),
{
    let Outputs { obs, mask, rewards, terminated, truncated, to_act, final_obs, rules, rules_id, final_rules } = out;
    // The game state stepped PREFETCH games from now, fetched while this one steps: a step
    // touches several lines of a game's state, in an order the hardware prefetchers do not
    // follow, so without the hint each large-batch step waits on memory several times. Only
    // the lines a decision usually touches are fetched (about 8 of the slot's 29): fetching
    // the whole slot spends memory bandwidth on state the step never reads.
    let hot = Slot::hot_ranges(games.slots.first().map_or(0, |s| s.game.num_players()));
    let len = games.len();
    let slot_at = games.slots.as_ptr();
    let mut rare = Rare { final_obs, rules, rules_id, final_rules, gave_up: None };
    let flags = terminated.iter_mut().zip(truncated.iter_mut()).zip(to_act.iter_mut());
    let lines =
        obs.chunks_exact_mut(OBS_SIZE).zip(mask.chunks_exact_mut(NUM_ACTIONS)).zip(rewards.chunks_exact_mut(width));
    let games_iter = games.slots.iter_mut().zip(games.hot.iter_mut());
    for (j, ((s, h), (((o, m), r), ((t, u), a)))) in games_iter.zip(lines.zip(flags)).enumerate() {
        let mut row = Row { obs: o, mask: m, rewards: r, terminated: t, truncated: u, to_act: a, j, rare: &mut rare };
        if j + PREFETCH < len {
            let base = slot_at.wrapping_add(j + PREFETCH).cast::<u8>();
            for (at, len) in hot {
                rows::prefetch(base.wrapping_add(at), len);
            }
        }
        f(s, h, games.start + j, &mut row);
    }
    rare.gave_up.map(|j| games.start + j)
}
