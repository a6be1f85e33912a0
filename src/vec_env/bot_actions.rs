//! Built-in bots answering for the games of a [`VecEnv`]: how Python-driven opponents (an
//! [`Opponents::External`] seat, a snapshot pool) play the Rust bots on the real game state.

use super::*;
use crate::bots::ismcts::IsmctsBot;

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
        if out.len() != rows.len() {
            return Err(VecEnvError::Length { what: "out", expected: rows.len(), got: out.len() });
        }
        let n = self.cfg.num_envs;
        if let Some(&r) = rows.iter().find(|&&r| r < 0 || r as usize >= n) {
            return Err(VecEnvError::Config(format!("row {r} is out of range: games are 0..{n}")));
        }
        match spec {
            BotSpec::Net => self.net_actions(rows, out),
            BotSpec::Net1 => self.net1_actions(rows, out),
            BotSpec::Ismcts { .. } | BotSpec::IsmctsNet { .. } | BotSpec::Pimc { .. } | BotSpec::Oracle { .. } => {
                self.search_actions(spec, rows, out);
                Ok(())
            }
            BotSpec::Random | BotSpec::Heuristic => {
                let heuristic = HeuristicBot::new();
                for (&r, a) in rows.iter().zip(out.iter_mut()) {
                    let s = &mut self.slots[r as usize];
                    let h = &self.hot[r as usize];
                    let choice = match spec {
                        _ if s.over() || h.pending => None,
                        BotSpec::Random => s.opponent.pick(&h.mask),
                        _ => heuristic.choose(&s.game, &h.mask),
                    };
                    *a = choice.map_or(-1, |x| x as i64);
                }
                Ok(())
            }
        }
    }

    /// The policy of built-in bot `spec` for the seat to act in each game listed in `rows`:
    /// row `j` of `out` (`rows.len()` rows of [`NUM_ACTIONS`], row-major) for game `rows[j]`.
    /// `ismcts:N` and `ismcts_net:N` give their root visit shares
    /// ([`IsmctsBot::search_policy`]: the action is the most visited, as in
    /// [`bot_actions`](Self::bot_actions) with the same seed); every other bot puts 1 on the
    /// action `bot_actions` gives. A finished episode's row is all zeros. `root`, if given
    /// (one entry per row), names for each row the action the search's root favours in the
    /// heuristic's place (-1 or an illegal action: the heuristic's, or `net`'s for
    /// `ismcts_net`; see [`IsmctsBot::search_policy`]); other bots ignore it. Errors change
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
        let search = match spec {
            BotSpec::Ismcts { simulations } => Some((simulations, false)),
            BotSpec::IsmctsNet { simulations } => Some((simulations, true)),
            _ => None,
        };
        let Some((simulations, on_net)) = search else {
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
        let n = self.cfg.num_envs;
        if let Some(&r) = rows.iter().find(|&&r| r < 0 || r as usize >= n) {
            return Err(VecEnvError::Config(format!("row {r} is out of range: games are 0..{n}")));
        }
        let (slots, hot) = (&self.slots, &self.hot);
        let decide = |j: usize, row: &mut [f32]| {
            let (s, h) = (&slots[rows[j] as usize], &hot[rows[j] as usize]);
            row.fill(0.0);
            if !(s.over() || h.pending) {
                let seed = derive_seed(s.base_seed ^ SEARCH_SALT, s.game.decisions() as u64);
                let favour = root.and_then(|x| usize::try_from(x[j]).ok());
                let mut bot = if on_net {
                    IsmctsBot::rooted_on_net(simulations, seed)
                } else {
                    IsmctsBot::new(simulations, seed)
                };
                bot.search_policy(&s.game, favour, row);
            }
        };
        on_crew(self.crew.as_mut(), NUM_ACTIONS, out, &decide);
        Ok(())
    }

    /// `net`: one forward pass for every listed game still running, whatever rules each plays.
    fn net_actions(&mut self, rows: &[i64], out: &mut [i64]) -> Result<(), VecEnvError> {
        let net = crate::bots::net::weights().map_err(VecEnvError::Config)?;
        let (slots, hot, live) = (&self.slots, &self.hot, &mut self.net_rows);
        out.fill(-1);
        live.clear();
        live.extend(rows.iter().map(|&r| r as usize).filter(|&r| !slots[r].over() && !hot[r].pending));
        let acts = net.act_games_into(live.iter().map(|&r| &slots[r].game), &mut self.card_scratch);
        let mut k = 0;
        for (j, &r) in rows.iter().enumerate() {
            if k < live.len() && live[k] == r as usize {
                out[j] = acts[k].map_or(-1, |x| x as i64);
                k += 1;
            }
        }
        Ok(())
    }

    /// `net1`: one forward pass for every listed game still running, per rule set (a batch of
    /// mixed rules groups its games by the rule set they play).
    fn net1_actions(&mut self, rows: &[i64], out: &mut [i64]) -> Result<(), VecEnvError> {
        let (slots, hot, live) = (&self.slots, &self.hot, &mut self.net_rows);
        let running = |r: usize| !slots[r].over() && !hot[r].pending;
        out.fill(-1);
        let mut left: Vec<usize> = (0..rows.len()).filter(|&j| running(rows[j] as usize)).collect();
        while let Some(&first) = left.first() {
            let rules = slots[rows[first] as usize].game.rules().clone();
            let policy = crate::bots::net1::policy_for(&rules).map_err(VecEnvError::Config)?;
            let (group, rest): (Vec<usize>, Vec<usize>) =
                left.iter().partition(|&&j| Arc::ptr_eq(slots[rows[j] as usize].game.rules(), &rules));
            live.clear();
            live.extend(group.iter().map(|&j| rows[j] as usize));
            let acts = policy.act_games_into(live.iter().map(|&r| &slots[r].game), &mut self.net_scratch);
            // `live` lists the group's rows in order, and so do the answers.
            for (&j, a) in group.iter().zip(acts.iter()) {
                out[j] = a.map_or(-1, |x| x as i64);
            }
            left = rest;
        }
        Ok(())
    }

    /// A search bot: a decision costs milliseconds, so the rows are shared out over the crew
    /// ([`on_crew`]). Each answer depends only on its own game and seed.
    fn search_actions(&mut self, spec: BotSpec, rows: &[i64], out: &mut [i64]) {
        let (slots, hot) = (&self.slots, &self.hot);
        let decide = |j: usize, a: &mut [i64]| {
            let (s, h) = (&slots[rows[j] as usize], &hot[rows[j] as usize]);
            a[0] = if s.over() || h.pending {
                -1
            } else {
                let seed = derive_seed(s.base_seed ^ SEARCH_SALT, s.game.decisions() as u64);
                spec.build(seed).act(&s.game).map_or(-1, |x| x as i64)
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
