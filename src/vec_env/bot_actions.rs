//! Built-in bots answering for the games of a [`VecEnv`]: how Python-driven opponents (an
//! [`Opponents::External`] seat, a snapshot pool) play the Rust bots on the real game state.

use super::*;
use crate::bots::batch::{self, Style};

/// Rows of one batched forward pass of [`VecEnv::bot_actions`], between two reads of the stop
/// flag: tens of milliseconds of `net`.
const BATCHED_PART: usize = 16_384;

impl VecEnv {
    /// The action built-in bot `spec` chooses for the seat to act in each game listed in
    /// `rows`: `out[j]` for game `rows[j]`, -1 where that game's episode is over.
    /// `heuristic` is deterministic; `random` draws from game `i`'s opponent stream; a search
    /// bot is seeded from game `i`'s episode seed and its decision count, and the search bots
    /// run on the env's threads; `net` answers all the rows in one batched forward pass (an
    /// error on rules it was not trained for). So the answer for a game never depends on the
    /// other rows or the thread count. Errors (a length mismatch, a row out of range) change
    /// nothing.
    pub fn bot_actions(&mut self, spec: BotSpec, rows: &[i64], out: &mut [i64]) -> Result<(), VecEnvError> {
        self.check_rows(rows, out.len())?;
        match batch::style(spec) {
            Style::Batched => self.batched_actions(spec, rows, out),
            Style::Search => {
                self.search_actions(spec, rows, out);
                if self.stop.is_set() { Err(VecEnvError::Stopped) } else { Ok(()) }
            }
            Style::Quick => {
                for (&r, a) in rows.iter().zip(out.iter_mut()) {
                    let s = &mut self.slots[r as usize];
                    let h = &self.hot[r as usize];
                    *a = if s.over() || h.pending {
                        -1
                    } else {
                        let seed = derive_seed(s.base_seed ^ SEARCH_SALT, s.game.decisions() as u64);
                        batch::act_one(spec, &s.game, &h.mask, &mut s.opponent, seed, &NEVER).map_or(-1, |x| x as i64)
                    };
                }
                Ok(())
            }
        }
    }

    /// The policy of built-in bot `spec` for the seat to act in each game listed in `rows`:
    /// row `j` of `out` (`rows.len()` rows of [`NUM_ACTIONS`], row-major) for game `rows[j]`.
    /// `ismcts:N` and `ismcts_net:N` give their root visit shares
    /// ([`IsmctsBot::search_policy`](crate::bots::ismcts::IsmctsBot::search_policy): the action is the most visited, as in
    /// [`bot_actions`](Self::bot_actions) with the same seed); every other bot puts 1 on the
    /// action `bot_actions` gives. A finished episode's row is all zeros. `root`, if given
    /// (one entry per row), names for each row the action the search's root favours in the
    /// heuristic's place (-1 or an illegal action: the heuristic's, or `net`'s for
    /// `ismcts_net`; see [`IsmctsBot::search_policy`](crate::bots::ismcts::IsmctsBot::search_policy)); other bots ignore it. Errors change
    /// nothing.
    pub fn bot_policies(
        &mut self,
        spec: BotSpec,
        rows: &[i64],
        root: Option<&[i64]>,
        out: &mut [f32],
    ) -> Result<(), VecEnvError> {
        if out.len() != rows.len() * NUM_ACTIONS {
            return Err(VecEnvError::Length { what: "out", expected: rows.len() * NUM_ACTIONS, got: out.len() });
        }
        if let Some(root) = root.filter(|r| r.len() != rows.len()) {
            return Err(VecEnvError::Length { what: "root", expected: rows.len(), got: root.len() });
        }
        if !batch::has_search_policy(spec) {
            let mut acts = vec![-1i64; rows.len()];
            self.bot_actions(spec, rows, &mut acts)?;
            out.fill(0.0);
            for (row, &a) in out.chunks_mut(NUM_ACTIONS).zip(acts.iter()) {
                if a >= 0 {
                    row[a as usize] = 1.0;
                }
            }
            return Ok(());
        };
        self.check_rows(rows, rows.len())?;
        let (slots, hot, stop) = (&self.slots, &self.hot, &*self.stop);
        let decide = |j: usize, row: &mut [f32]| {
            let (s, h) = (&slots[rows[j] as usize], &hot[rows[j] as usize]);
            row.fill(0.0);
            if !(s.over() || h.pending) {
                let seed = derive_seed(s.base_seed ^ SEARCH_SALT, s.game.decisions() as u64);
                let favour = root.and_then(|x| usize::try_from(x[j]).ok());
                batch::search_policy(spec, &s.game, seed, favour, row, stop);
            }
        };
        on_crew(self.crew.as_mut(), NUM_ACTIONS, out, &decide);
        if self.stop.is_set() { Err(VecEnvError::Stopped) } else { Ok(()) }
    }

    /// Like [`bot_actions`](Self::bot_actions) for the card network (`net`, or a file of its
    /// format), each move drawn from the network's policy (the softmax of its logits over the
    /// legal actions) instead of its greedy one: game `rows[j]`'s draw is seeded with
    /// `derive_seed(seed, rows[j])` alone, so it depends on neither the other rows nor the
    /// batching. Another bot is an error naming it. Errors change nothing.
    pub fn bot_sampled_actions(
        &mut self,
        spec: BotSpec,
        rows: &[i64],
        seed: u64,
        out: &mut [i64],
    ) -> Result<(), VecEnvError> {
        self.check_rows(rows, out.len())?;
        if batch::style(spec) != Style::Batched {
            return Err(VecEnvError::Config(format!(
                "seed is for the card network's sampled moves (net, or its files), and {} has none: leave seed out",
                spec.name()
            )));
        }
        self.batches[0].sample_with(Some(seed));
        let r = self.batched_actions(spec, rows, out);
        self.batches[0].sample_with(None);
        r
    }

    /// The checks every bot call makes of its arguments: one answer per row (`answers`), every
    /// row a game of the batch.
    fn check_rows(&self, rows: &[i64], answers: usize) -> Result<(), VecEnvError> {
        if answers != rows.len() {
            return Err(VecEnvError::Length { what: "out", expected: rows.len(), got: answers });
        }
        let n = self.cfg.num_envs;
        if let Some(&r) = rows.iter().find(|&&r| r < 0 || r as usize >= n) {
            return Err(VecEnvError::Config(format!("row {r} is out of range: rows are in [0, {n})")));
        }
        Ok(())
    }

    /// A learned bot: one batched pass for every listed game still running (per rule set for
    /// `net1`), through the batched-bot layer.
    fn batched_actions(&mut self, spec: BotSpec, rows: &[i64], out: &mut [i64]) -> Result<(), VecEnvError> {
        let (slots, hot, bots, stop) = (&self.slots, &self.hot, &mut self.batches[0], &*self.stop);
        out.fill(-1);
        // In parts of BATCHED_PART rows, the stop flag read between them: a forward pass over
        // 262,144 games took 3.8 s. Each answer depends on its own game only.
        for (rows, out) in rows.chunks(BATCHED_PART).zip(out.chunks_mut(BATCHED_PART)) {
            if stop.is_set() {
                return Err(VecEnvError::Stopped);
            }
            for &r in rows {
                if !slots[r as usize].over() && !hot[r as usize].pending {
                    bots.wait(spec, r as usize);
                }
            }
            bots.answer(|r| &slots[r].game).map_err(VecEnvError::Config)?;
            // The answers follow the listed rows in order.
            let mut answers = bots.answers().iter().peekable();
            for (j, &r) in rows.iter().enumerate() {
                if let Some(a) = answers.next_if(|a| a.game == r as usize) {
                    out[j] = a.action.map_or(-1, |x| x as i64);
                }
            }
        }
        Ok(())
    }

    /// A search bot: a decision costs milliseconds, so the rows are shared out over the crew
    /// ([`on_crew`]). Each answer depends only on its own game and seed.
    fn search_actions(&mut self, spec: BotSpec, rows: &[i64], out: &mut [i64]) {
        let (slots, hot, stop) = (&self.slots, &self.hot, &*self.stop);
        let decide = |j: usize, a: &mut [i64]| {
            let (s, h) = (&slots[rows[j] as usize], &hot[rows[j] as usize]);
            a[0] = if s.over() || h.pending || stop.is_set() {
                -1
            } else {
                let seed = derive_seed(s.base_seed ^ SEARCH_SALT, s.game.decisions() as u64);
                spec.build(seed).act_until(&s.game, stop).map_or(-1, |x| x as i64)
            };
        };
        on_crew(self.crew.as_mut(), 1, out, &decide);
    }
}

/// `decide(j, row)` for every row `j` of `out` (rows `width` wide), shared out over `crew`
/// in small chunks when there is one and more than one row: for answers that each cost
/// milliseconds (a search), so the chunks are smaller than the batch calls' grain.
fn on_crew<T: Send>(crew: Option<&mut Crew>, width: usize, out: &mut [T], decide: &(dyn Fn(usize, &mut [T]) + Sync)) {
    let rows = out.len() / width;
    let Some(crew) = crew.filter(|_| rows > 1) else {
        out.chunks_mut(width).enumerate().for_each(|(j, row)| decide(j, row));
        return;
    };
    let per = rows.div_ceil(MAX_CHUNKS.min(8 * crew.threads()));
    let mut parts = [const { Mutex::new(None) }; MAX_CHUNKS];
    for (k, o) in out.chunks_mut(per * width).enumerate() {
        *parts[k].get_mut().unwrap_or_else(|e| e.into_inner()) = Some(o);
    }
    crew.run(rows.div_ceil(per), &|k| {
        let part: Option<&mut [T]> = parts[k].lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(o) = part {
            o.chunks_mut(width).enumerate().for_each(|(i, row)| decide(k * per + i, row));
        }
    });
}
