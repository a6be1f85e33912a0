//! One game of a batch and what only its own step reads: [`Slot`] (the game, its
//! opponents' random stream, its episode bookkeeping), [`Hot`] (the part every pass over the
//! batch reads), [`Ctx`] (the batch's fixed settings) and [`Games`] (a range of games), with
//! the per-game deal, settle, reset, step and opponent rows that `VecEnv` runs on each thread.

use super::config::*;
use super::episodes::Episodes;
use super::rows::{MaskValue, ObsValue, Row, write_mask, write_obs};
use crate::action::ActionMask;
use crate::bots::RandomBot;
use crate::game::{Game, SeenCards, derive_seed};
use crate::rules::MAX_PLAYERS;

/// The fixed settings every game reads while stepping.
#[derive(Copy, Clone)]
pub(super) struct Ctx {
    pub(super) autoreset: Autoreset,
    /// The learner's seat (none in self-play).
    pub(super) learner: Option<usize>,
    /// The built-in random bot plays the other seats inside the step.
    pub(super) random: bool,
    /// Built-in bots play the other seats ([`Opponents::Bots`]): a row is written only when
    /// the learner is to act or the episode is over, not at each opponent's turn.
    pub(super) bots: bool,
    pub(super) score: bool,
    pub(super) width: usize,
}

impl Ctx {
    pub(super) fn new(mode: Mode, autoreset: Autoreset, score: bool, width: usize) -> Ctx {
        let (learner, random, bots) = match mode {
            Mode::Learner { seat, opponents } => {
                (Some(seat), opponents == Opponents::Random, matches!(opponents, Opponents::Bots(_)))
            }
            Mode::SelfPlay => (None, false, false),
        };
        Ctx { autoreset, learner, random, bots, score, width }
    }
    #[inline]
    pub(super) fn learner(&self) -> Option<usize> {
        self.learner
    }
    /// The learner's seat when the random bot plays the others inside the step.
    #[inline]
    pub(super) fn bots(&self) -> Option<usize> {
        self.learner.filter(|_| self.random)
    }
}

/// One game with its opponents' random stream and bookkeeping: what only the game's own
/// step reads. In a fixed order (`repr(C)`, the game first) for [`Slot::hot_ranges`].
#[derive(Clone)]
#[repr(C)]
pub(super) struct Slot {
    pub(super) game: Game,
    /// Built-in opponents.
    pub(super) opponent: RandomBot,
    pub(super) base_seed: u64,
    /// Episodes dealt since the last reset.
    pub(super) episodes: u64,
    /// The learner has not decided yet in this episode (a deal the opponents finish first
    /// is dealt again).
    pub(super) fresh: bool,
    /// The seat of the last decision.
    pub(super) last_actor: u8,
    /// The rules id of the episode in progress (see [`Outputs::rules_id`]).
    pub(super) rules_id: u64,
    /// The seen-card storage parked while the game plays rules without open card moves.
    pub(super) spare: Option<Box<SeenCards>>,
}

/// The part of a game every pass over the whole batch reads (action validation,
/// [`VecEnv::random_actions`]), kept in an array of its own so those passes stream through
/// 72 bytes per game rather than the whole game state.
#[derive(Clone)]
pub(super) struct Hot {
    /// Legal actions of the seat to act (empty when the episode is over).
    pub(super) mask: ActionMask,
    /// [`VecEnv::random_actions`].
    pub(super) sampler: RandomBot,
    /// The seat to act, or -1 when the episode is over.
    pub(super) to_act: i8,
    /// NextStep: the episode ended; the next step deals again.
    pub(super) pending: bool,
}

impl Slot {
    /// The byte ranges of a slot that a step of an `n`-player game usually touches: the game's
    /// ([`Game::hot_ranges`], the game comes first) and the slot's own fields after it, less
    /// the spare storage (read only when a deal changes the rules).
    pub(super) fn hot_ranges(n: usize) -> [(usize, usize); 5] {
        use std::mem::offset_of;
        let [a, b, c, d] = Game::hot_ranges(n);
        let tail = offset_of!(Slot, opponent);
        [a, b, c, d, (tail, offset_of!(Slot, spare) - tail)]
    }

    pub(super) fn reseed(&mut self, h: &mut Hot, seed: u64, i: u64) {
        self.base_seed = derive_seed(seed, i);
        self.opponent = RandomBot::new(opponent_seed(seed, i));
        h.sampler = RandomBot::new(sampler_seed(seed, i));
        self.episodes = 0;
        h.pending = false;
    }

    pub(super) fn next_seed(&mut self) -> u64 {
        let k = self.episodes;
        self.episodes += 1;
        if k == 0 { self.base_seed } else { derive_seed(self.base_seed, k) }
    }

    /// Deal a new episode (with its rules, from a list or a space) and, with built-in
    /// opponents, play them to the learner's turn; write the rules outputs of the row.
    pub(super) fn deal<O, M>(&mut self, h: &mut Hot, ctx: Ctx, eps: &Episodes, row: &mut Row<'_, '_, O, M>) {
        for _ in 0..MAX_DEALS {
            let s = self.next_seed();
            if let Some((r, id)) = eps.source.episode(s) {
                // Safe: every rule set of a source has the batch's player count (checked when
                // the batch was built), the only error of set_rules.
                self.game.set_rules(r, &mut self.spare).expect("the source's rules are for the batch's players");
                self.rules_id = id;
            }
            // Safe: reset only fails on a bad deck prefix, and an empty prefix is always valid.
            self.game.reset(s, &[]).expect("an empty deck prefix is always valid");
            self.fresh = true;
            h.pending = false;
            self.last_actor = self.game.current_player().unwrap_or(0) as u8;
            if let Some(seat) = ctx.bots() {
                if !self.play_bots(h, seat) {
                    row.gave_up();
                    break;
                }
            }
            if !self.over() {
                break;
            }
        }
        self.game.legal_actions(&mut h.mask);
        if let Some(e) = row.rules() {
            eps.write(&self.game, self.rules_id, e);
        }
        if let Some(id) = row.rules_id() {
            *id = self.rules_id;
        }
    }

    #[inline]
    pub(super) fn over(&self) -> bool {
        self.game.is_terminal() || self.game.is_truncated()
    }

    /// The random opponents play until the learner is to act or the episode ends: true, or
    /// false once they have made [`MAX_OPPONENT_MOVES`] moves (rules under which they keep
    /// the turn, with no decision cap or a long one).
    #[inline(never)]
    pub(super) fn play_bots(&mut self, h: &mut Hot, learner: usize) -> bool {
        for _ in 0..MAX_OPPONENT_MOVES {
            let Some(p) = self.game.current_player() else { return true };
            if p == learner {
                return true;
            }
            self.game.legal_actions(&mut h.mask);
            // Safe: `p` is to act, so the game runs; a running game always has a legal action
            // (the engine invariant the fuzz harness, the soak and proptest_rules check; these
            // games are dealt, never loaded from a snapshot).
            let a = self.opponent.pick(&h.mask).expect("a game in progress has a legal action");
            self.last_actor = p as u8;
            self.game.apply(a);
        }
        self.game.current_player().is_none_or(|p| p == learner)
    }

    /// The seat whose observation row is written.
    #[inline]
    pub(super) fn obs_seat(&self, ctx: Ctx) -> usize {
        match self.game.current_player() {
            Some(p) => p,
            None => ctx.learner().unwrap_or(self.last_actor as usize),
        }
    }

    /// Write the observation, mask and seat to act (every path through a step ends here).
    pub(super) fn write<O: ObsValue, M: MaskValue>(&self, h: &mut Hot, ctx: Ctx, row: &mut Row<'_, '_, O, M>) {
        if ctx.bots {
            if let Some(p) = self.game.current_player().filter(|&p| Some(p) != ctx.learner) {
                // A built-in opponent plays next, in this call: its row is written when the
                // learner is to act (or the episode ends).
                h.to_act = p as i8;
                return;
            }
        }
        write_obs(&self.game, self.obs_seat(ctx), row.obs);
        write_mask(&h.mask, row.mask);
        let to_act = self.game.current_player().map_or(-1, |p| p as i32);
        h.to_act = to_act as i8;
        *row.to_act = to_act;
    }

    /// After a decision: report the end of an episode (and autoreset) or the next state.
    /// A deal the opponents end before the learner's first decision is dealt again instead.
    /// The common case, a game that goes on, is inlined into
    /// the callers; an ended game goes to [`Slot::settle_over`].
    #[inline(always)]
    pub(super) fn settle<O: ObsValue, M: MaskValue>(
        &mut self,
        h: &mut Hot,
        ctx: Ctx,
        eps: &Episodes,
        row: &mut Row<'_, '_, O, M>,
    ) {
        if self.over() {
            self.settle_over(h, ctx, eps, row);
        } else {
            self.game.legal_actions(&mut h.mask);
            self.write(h, ctx, row);
        }
    }

    /// [`Slot::settle`] for a game that is over.
    #[inline(never)]
    fn settle_over<O: ObsValue, M: MaskValue>(
        &mut self,
        h: &mut Hot,
        ctx: Ctx,
        eps: &Episodes,
        row: &mut Row<'_, '_, O, M>,
    ) {
        if self.fresh && ctx.learner().is_some() {
            // The opponents ended a deal before the learner's first decision.
            self.deal(h, ctx, eps, row);
            if !self.over() {
                self.game.legal_actions(&mut h.mask);
                self.write(h, ctx, row);
                return;
            }
        }
        let mut ret = [0f64; MAX_PLAYERS];
        self.game.returns(&mut ret, ctx.score);
        match ctx.learner() {
            Some(seat) => row.rewards[0] = ret[seat] as f32,
            None => {
                for (r, &x) in row.rewards.iter_mut().zip(ret.iter()) {
                    *r = x as f32;
                }
            }
        }
        *row.terminated = self.game.is_terminal();
        *row.truncated = self.game.is_truncated();
        h.mask.clear();
        match ctx.autoreset {
            Autoreset::NextStep => {
                h.pending = true;
                self.write(h, ctx, row);
            }
            Autoreset::SameStep => {
                if let Some(f) = row.final_obs() {
                    write_obs(&self.game, self.obs_seat(ctx), f);
                }
                if let Some(f) = row.final_rules() {
                    eps.write(&self.game, self.rules_id, f);
                }
                self.deal(h, ctx, eps, row);
                self.write(h, ctx, row);
            }
        }
    }

    pub(super) fn clear_flags<O, M>(row: &mut Row<'_, '_, O, M>) {
        row.rewards.fill(0.0);
        *row.terminated = false;
        *row.truncated = false;
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn reset_row<O: ObsValue, M: MaskValue>(
        &mut self,
        h: &mut Hot,
        ctx: Ctx,
        eps: &Episodes,
        seed: u64,
        index: u64,
        row: &mut Row<'_, '_, O, M>,
    ) {
        self.reseed(h, seed, index);
        self.deal(h, ctx, eps, row);
        Self::clear_flags(row);
        self.write(h, ctx, row);
    }

    /// A learner (or self-play) step with a validated action. Inlined into the loop over the
    /// batch's games (it runs once per game and step; a call would cost more than its body).
    #[inline(always)]
    pub(super) fn step_row<O: ObsValue, M: MaskValue>(
        &mut self,
        h: &mut Hot,
        ctx: Ctx,
        eps: &Episodes,
        action: i64,
        row: &mut Row<'_, '_, O, M>,
    ) {
        Self::clear_flags(row);
        if h.pending {
            self.deal(h, ctx, eps, row);
            self.write(h, ctx, row);
            return;
        }
        if self.over() {
            // Only reachable after MAX_DEALS deals that all ended before the learner acted.
            self.settle(h, ctx, eps, row);
            return;
        }
        self.last_actor = self.game.current_player().unwrap_or(0) as u8;
        self.fresh = false;
        self.game.apply(action as usize);
        if let Some(seat) = ctx.bots() {
            if !self.play_bots(h, seat) {
                row.gave_up();
            }
        }
        self.settle(h, ctx, eps, row);
    }

    /// An opponent step (external opponents); games without an opponent to act are skipped.
    pub(super) fn opponent_row<O: ObsValue, M: MaskValue>(
        &mut self,
        h: &mut Hot,
        ctx: Ctx,
        eps: &Episodes,
        action: i64,
        row: &mut Row<'_, '_, O, M>,
    ) {
        let Some(p) = self.game.current_player() else { return };
        if Some(p) == ctx.learner() || h.pending {
            return;
        }
        self.last_actor = p as u8;
        self.game.apply(action as usize);
        self.settle(h, ctx, eps, row);
    }
}

/// A contiguous range of games (game `start + j` at index `j`), split with its output rows.
pub(super) struct Games<'a> {
    pub(super) slots: &'a mut [Slot],
    pub(super) hot: &'a mut [Hot],
    pub(super) start: usize,
}

impl<'a> Games<'a> {
    pub(super) fn len(&self) -> usize {
        self.slots.len()
    }

    /// The same games, borrowed for a shorter while.
    pub(super) fn reborrow(&mut self) -> Games<'_> {
        Games { slots: self.slots, hot: self.hot, start: self.start }
    }
}
