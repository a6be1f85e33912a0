//! Duplicate-deal matches between built-in bots, run in parallel and reproducibly.
//!
//! A *table* is a list of one [`BotSpec`] per seat. Deal `d` is dealt from
//! `derive_seed(seed, d)` and played `n` times (one per *rotation*): in rotation `r`, seat
//! `k` is played by table entry [`agent_at`]`(k, r, n) = (k + r) % n`, so every entry holds
//! every hand of the deal. Since [`Game::new`] with the same seed deals the same cards (and
//! shuffles a refilled stock the same way for the same play), luck of the deal cancels out
//! across rotations. Each bot is seeded from `(seed, deal, rotation, table entry)`, and
//! results come back in `(deal, rotation)` order, so a run gives the same records whatever
//! the thread count.

use super::BotSpec;
use crate::game::{Game, derive_seed};
use crate::rules::Rules;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::Arc;
use std::time::Instant;

/// One finished (or truncated) game of a duplicate match.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub deal: u64,
    pub rotation: usize,
    /// Winning seat, if any.
    pub winner: Option<usize>,
    /// Points of the last hand per seat.
    pub hand_points: Vec<i32>,
    /// Episode returns per seat, `Game::returns(.., score = true)`: zero-sum points against the
    /// table mean / 100 (higher is better), or win/loss in presets without points.
    pub score_returns: Vec<f64>,
    pub decisions: u32,
    pub truncated: bool,
}

/// Records of a run, plus per-table-entry decision counts and thinking time (for speed): the
/// total and the longest single decision.
#[derive(Clone, Debug, Default)]
pub struct MatchResults {
    pub records: Vec<GameRecord>,
    pub agent_decisions: Vec<u64>,
    pub agent_seconds: Vec<f64>,
    pub agent_max_seconds: Vec<f64>,
}

/// The table entry that plays `seat` in `rotation` at a table of `n`.
pub fn agent_at(seat: usize, rotation: usize, n: usize) -> usize {
    (seat + rotation) % n
}

/// The game seed of deal `deal`.
pub fn deal_seed(seed: u64, deal: u64) -> u64 {
    derive_seed(seed, deal)
}

/// The seed of table entry `agent` in `(deal, rotation)`.
pub fn bot_seed(seed: u64, deal: u64, rotation: usize, agent: usize) -> u64 {
    derive_seed(derive_seed(seed ^ 0xB075_5EED_0000_0000, deal), (rotation * 64 + agent) as u64)
}

/// Per-table-entry decision counts, thinking seconds and longest decision.
#[derive(Clone, Debug)]
pub struct Timing {
    pub decisions: Vec<u64>,
    pub seconds: Vec<f64>,
    pub max_seconds: Vec<f64>,
}

impl Timing {
    /// Zero counts for `n` table entries.
    pub fn new(n: usize) -> Timing {
        Timing { decisions: vec![0; n], seconds: vec![0.0; n], max_seconds: vec![0.0; n] }
    }
}

/// Why a run could not be played. Nothing is returned from a failed run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ArenaError {
    #[error("the table needs one bot per seat: {expected}, got {got}")]
    Table { expected: usize, got: usize },
    #[error("cannot start a pool of {threads} threads: {message}")]
    ThreadPool { threads: usize, message: String },
    #[error("deal {deal}, rotation {rotation}: {message}")]
    Stuck { deal: u64, rotation: usize, message: String },
}

/// Play rotation `rotation` of deal `deal`; adds each entry's decisions and seconds to `timing`.
pub fn play_game(
    rules: &Arc<Rules>,
    table: &[BotSpec],
    seed: u64,
    deal: u64,
    rotation: usize,
    timing: &mut Timing,
) -> Result<GameRecord, ArenaError> {
    let n = rules.num_players as usize;
    if table.len() != n || timing.decisions.len() < n {
        return Err(ArenaError::Table { expected: n, got: table.len() });
    }
    let stuck = |message: String| ArenaError::Stuck { deal, rotation, message };
    let mut g = Game::new(rules.clone(), deal_seed(seed, deal));
    let mut bots: Vec<_> = (0..n)
        .map(|seat| {
            let agent = agent_at(seat, rotation, n);
            table[agent].build(bot_seed(seed, deal, rotation, agent))
        })
        .collect();
    while let Some(p) = g.current_player() {
        let agent = agent_at(p, rotation, n);
        let t = Instant::now();
        let a = bots[p].act(&g).ok_or_else(|| stuck(format!("no legal action for seat {p} in a running game")))?;
        let dt = t.elapsed().as_secs_f64();
        // `agent < n` (a remainder mod n) and `timing` has n entries (checked above).
        timing.seconds[agent] += dt;
        timing.max_seconds[agent] = timing.max_seconds[agent].max(dt);
        timing.decisions[agent] += 1;
        g.step(a).map_err(|e| stuck(format!("a bot chose an illegal action: {e}")))?;
    }
    let mut ret = vec![0.0; n];
    g.returns(&mut ret, true);
    Ok(GameRecord {
        deal,
        rotation,
        winner: g.winner(),
        hand_points: g.hand_points().to_vec(),
        score_returns: ret,
        decisions: g.decisions(),
        truncated: g.is_truncated(),
    })
}

/// Play every rotation of deals `deals` between the bots of `table` (one per seat), on
/// `threads` threads (0: rayon's global pool). The records are in `(deal, rotation)` order
/// and identical for any thread count. A pool that cannot start, a table of the wrong size
/// or a game that cannot go on is an error (nothing is returned).
pub fn play_deals(
    rules: Arc<Rules>,
    table: &[BotSpec],
    seed: u64,
    deals: Range<u64>,
    threads: usize,
) -> Result<MatchResults, ArenaError> {
    let n = rules.num_players as usize;
    if table.len() != n {
        return Err(ArenaError::Table { expected: n, got: table.len() });
    }
    let run = || {
        deals
            .clone()
            .into_par_iter()
            .map(|d| {
                let mut timing = Timing::new(n);
                let recs = (0..n).map(|r| play_game(&rules, table, seed, d, r, &mut timing)).collect::<Result<_, _>>();
                recs.map(|recs: Vec<GameRecord>| (recs, timing))
            })
            .collect::<Result<Vec<_>, ArenaError>>()
    };
    let parts = if threads == 0 {
        run()?
    } else {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| ArenaError::ThreadPool { threads, message: e.to_string() })?
            .install(run)?
    };
    let mut out = MatchResults {
        records: Vec::new(),
        agent_decisions: vec![0; n],
        agent_seconds: vec![0.0; n],
        agent_max_seconds: vec![0.0; n],
    };
    for (recs, t) in parts {
        out.records.extend(recs);
        // Both sides have n entries (Timing::new(n) above).
        for k in 0..n {
            out.agent_decisions[k] += t.decisions[k];
            out.agent_seconds[k] += t.seconds[k];
            out.agent_max_seconds[k] = out.agent_max_seconds[k].max(t.max_seconds[k]);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BotSpec;
    use crate::rules::preset_names;

    /// Two-player rules, or the preset's smallest table when it needs more players.
    fn rules(p: &str) -> Arc<Rules> {
        let spec = crate::rules::load_spec(p, None).unwrap();
        let n = spec.players.min.max(2) as usize;
        Arc::new(Rules::from_spec(spec, n).unwrap())
    }

    #[test]
    fn every_agent_holds_every_seat() {
        for n in 2..=5 {
            for agent in 0..n {
                let mut seats: Vec<usize> =
                    (0..n).flat_map(|r| (0..n).filter(move |&s| agent_at(s, r, n) == agent)).collect();
                seats.sort();
                assert_eq!(seats, (0..n).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn rotations_replay_the_same_deal() {
        // A deterministic bot against itself: each rotation replays exactly the same game.
        for p in preset_names() {
            let r = rules(p);
            let n = r.num_players as usize;
            let t = vec![BotSpec::Heuristic; n];
            let mut timing = Timing::new(n);
            for deal in 0..5 {
                let a = play_game(&r, &t, 3, deal, 0, &mut timing).unwrap();
                let b = play_game(&r, &t, 3, deal, 1, &mut timing).unwrap();
                assert_eq!((a.winner, &a.hand_points, a.decisions), (b.winner, &b.hand_points, b.decisions), "{p}");
                let g0 = Game::new(r.clone(), deal_seed(3, deal));
                let g1 = Game::new(r.clone(), deal_seed(3, deal));
                assert_eq!(g0.hand(0), g1.hand(0));
                assert_eq!(g0.hand(1), g1.hand(1));
            }
        }
    }

    #[test]
    fn results_do_not_depend_on_thread_count() {
        let r = rules("crazy_eights_specials");
        let t = [BotSpec::Pimc { worlds: 2 }, BotSpec::Random];
        let one = play_deals(r.clone(), &t, 11, 0..6, 1).unwrap();
        let two = play_deals(r.clone(), &t, 11, 0..6, 2).unwrap();
        let split = [play_deals(r.clone(), &t, 11, 0..2, 2).unwrap(), play_deals(r, &t, 11, 2..6, 1).unwrap()];
        assert_eq!(one.records, two.records);
        let joined: Vec<_> = split.iter().flat_map(|x| x.records.clone()).collect();
        assert_eq!(one.records, joined);
        assert_eq!(one.records.len(), 12);
        assert_eq!(one.agent_decisions, two.agent_decisions);
    }

    #[test]
    fn a_wrong_table_is_an_error_not_a_panic() {
        let r = rules("crazy_eights");
        let e = play_deals(r.clone(), &[BotSpec::Random], 1, 0..2, 1).unwrap_err();
        assert_eq!(e, ArenaError::Table { expected: 2, got: 1 });
        let mut timing = Timing::new(2);
        assert!(play_game(&r, &[BotSpec::Random; 3], 1, 0, 0, &mut timing).is_err());
    }
}
