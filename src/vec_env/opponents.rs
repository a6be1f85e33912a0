//! Built-in bot opponents played inside the step (`Opponents::Bots`): each thread plays the
//! opponents of the games it steps, through the batched-bot layer ([`crate::bots::batch`]).
//!
//! A chunk of games is played the way a caller playing `VecEnv::bot_actions` through
//! `VecEnv::step_opponents` plays them, round after round until every game has the learner
//! to act or has ended, so the games are the same: every game goes as far as it can
//! alone (the quick and search bots answer on the spot), the games waiting for a batched bot
//! are answered in one pass per bot, and so on. A bot's answer depends only on its own game
//! (its random stream, its search seed from the episode seed and the decision count), never
//! on the chunk, so the games do not depend on the thread count.

use super::config::{MAX_OPPONENT_MOVES, SEARCH_SALT, Seats, VecEnvError};
use super::episodes::Episodes;
use super::rows::{Lines, MaskValue, ObsValue, Outputs};
use super::slot::{Ctx, Games, Hot, Slot};
use crate::bots::batch::{self, BotBatch, Style};
use crate::game::derive_seed;
use crate::stop::Stop;

/// Whether a search plays one of `seats`.
pub(super) fn searches(seats: &Seats) -> bool {
    seats.iter().flatten().any(|&s| batch::style(s) == Style::Search)
}

/// Play the opponents of every game of a chunk until each has the learner to act or has
/// ended (see the module documentation).
pub(super) fn play<O: ObsValue, M: MaskValue>(
    games: Games<'_>,
    out: Outputs<'_, O, M>,
    bots: &mut BotBatch,
    ctx: Ctx,
    eps: &Episodes,
    seats: &Seats,
    stop: &Stop,
) -> Result<(), VecEnvError> {
    let Games { slots, hot, start } = games;
    let mut c = Chunk { slots, hot, start, lines: out.lines(ctx.width), ctx, eps, seats, stop };
    for j in 0..c.hot.len() {
        if j % STOP_EVERY == 0 && stop.is_set() {
            return Err(VecEnvError::Stopped);
        }
        c.advance(j, bots)?;
    }
    let mut rounds = 0;
    while bots.is_waiting() {
        if stop.is_set() {
            return Err(VecEnvError::Stopped); // between two batched answers (a round of `net`)
        }
        rounds += 1;
        if rounds > MAX_OPPONENT_MOVES {
            return Err(VecEnvError::Opponents { env: start, moves: MAX_OPPONENT_MOVES });
        }
        let slots = &*c.slots;
        bots.answer(|j| &slots[j].game).map_err(VecEnvError::Config)?;
        for k in 0..bots.answers().len() {
            let a = bots.answers()[k];
            let action = a.action.ok_or_else(|| stuck(start + a.game, &a.spec.name()))?;
            c.play(a.game, action);
            c.advance(a.game, bots)?;
        }
    }
    Ok(())
}

/// Games of a chunk played between two reads of the stop flag in the first pass (the quick
/// bots' moves take microseconds a game).
const STOP_EVERY: usize = 1024;

/// A built-in bot found no legal action in a running game (not reached: the engine
/// invariant the fuzz harness checks).
fn stuck(env: usize, bot: &str) -> VecEnvError {
    VecEnvError::Config(format!("env {env}: the {bot} bot found no legal action in a running game"))
}

/// One chunk's games and rows while its opponents play.
struct Chunk<'c, 'a, O, M> {
    slots: &'c mut [Slot],
    hot: &'c mut [Hot],
    start: usize,
    lines: Lines<'a, O, M>,
    ctx: Ctx,
    eps: &'c Episodes,
    seats: &'c Seats,
    /// Read by the searches: once set, the call ends ([`VecEnvError::Stopped`]).
    stop: &'c Stop,
}

impl<O: ObsValue, M: MaskValue> Chunk<'_, '_, O, M> {
    /// Play opponent action `a` in game `j`.
    fn play(&mut self, j: usize, a: usize) {
        let (s, h) = (&mut self.slots[j], &mut self.hot[j]);
        s.opponent_row(h, self.ctx, self.eps, a as i64, &mut self.lines.row(j));
    }

    /// Play game `j` as far as it goes without a batched answer, and queue it for one if it
    /// needs one.
    fn advance(&mut self, j: usize, bots: &mut BotBatch) -> Result<(), VecEnvError> {
        let learner = self.ctx.learner().unwrap_or(usize::MAX);
        for _ in 0..MAX_OPPONENT_MOVES {
            let h = &self.hot[j];
            if h.pending || h.to_act < 0 || h.to_act as usize == learner {
                return Ok(());
            }
            // Every seat but the learner's has a bot (checked when the batch was built).
            let spec = self.seats[h.to_act as usize].expect("every opponent seat has a bot");
            if batch::style(spec) == Style::Batched {
                bots.wait(spec, j);
                return Ok(());
            }
            let s = &mut self.slots[j];
            let seed = derive_seed(s.base_seed ^ SEARCH_SALT, s.game.decisions() as u64);
            let a = batch::act_one(spec, &s.game, &h.mask, &mut s.opponent, seed, self.stop);
            if self.stop.is_set() {
                return Err(VecEnvError::Stopped); // a search cut short: its answer is not played
            }
            let a = a.ok_or_else(|| stuck(self.start + j, &spec.name()))?;
            self.play(j, a);
        }
        Err(VecEnvError::Opponents { env: self.start + j, moves: MAX_OPPONENT_MOVES })
    }
}
