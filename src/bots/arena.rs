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
//!
//! A table with the learned bot `net` is played in batches: each thread task plays the
//! rotations of a chunk of deals side by side, advancing every game to its next `net`
//! decision and then asking the network once for all of them ([`play_batch`]). The bots are
//! seeded the same way and `net` is deterministic, so the records equal those of one game
//! at a time.

use super::batch::{self, BotBatch, Style};
use super::policy::Policy;
use super::spec::BotSpec;
use crate::game::{Game, derive_seed};
use crate::rules::Rules;
use crate::stop::{NEVER, Stop};
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
/// total and the longest single decision; and the decisions with a real choice (more than
/// one legal action).
#[derive(Clone, Debug, Default)]
pub struct MatchResults {
    pub records: Vec<GameRecord>,
    pub agent_decisions: Vec<u64>,
    pub agent_choices: Vec<u64>,
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

/// Who plays what in a run of deals, one entry per game in `(deal, rotation)` order: the
/// games [`play_deals`] plays, for a player of them outside this module (the Python arena's
/// lockstep loop, which seats Python agents beside built-in bots).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schedule {
    /// The table size: `agent` and `bot_seed` hold `n` entries per game.
    pub n: usize,
    pub deal: Vec<u64>,
    pub rotation: Vec<usize>,
    /// The game seed of each game ([`deal_seed`]).
    pub deal_seed: Vec<u64>,
    /// Per game, seat by seat: the table entry at that seat ([`agent_at`]).
    pub agent: Vec<usize>,
    /// Per game, seat by seat: the seed of that entry's bot ([`bot_seed`]).
    pub bot_seed: Vec<u64>,
}

/// The schedule of every rotation of deals `deals` at a table of `n`.
pub fn schedule(seed: u64, n: usize, deals: Range<u64>) -> Schedule {
    let games = usize::try_from(deals.end.saturating_sub(deals.start)).unwrap_or(0).saturating_mul(n);
    let mut s = Schedule {
        n,
        deal: Vec::with_capacity(games),
        rotation: Vec::with_capacity(games),
        deal_seed: Vec::with_capacity(games),
        agent: Vec::with_capacity(games.saturating_mul(n)),
        bot_seed: Vec::with_capacity(games.saturating_mul(n)),
    };
    for deal in deals {
        let game_seed = deal_seed(seed, deal);
        for rotation in 0..n {
            s.deal.push(deal);
            s.rotation.push(rotation);
            s.deal_seed.push(game_seed);
            for seat in 0..n {
                let agent = agent_at(seat, rotation, n);
                s.agent.push(agent);
                s.bot_seed.push(bot_seed(seed, deal, rotation, agent));
            }
        }
    }
    s
}

/// Per-table-entry decision counts, decisions with more than one legal action, thinking
/// seconds and longest decision.
#[derive(Clone, Debug)]
pub struct Timing {
    pub decisions: Vec<u64>,
    pub choices: Vec<u64>,
    pub seconds: Vec<f64>,
    pub max_seconds: Vec<f64>,
}

impl Timing {
    /// Zero counts for `n` table entries.
    pub fn new(n: usize) -> Timing {
        Timing { decisions: vec![0; n], choices: vec![0; n], seconds: vec![0.0; n], max_seconds: vec![0.0; n] }
    }

    /// Count a decision of table entry `agent` in `g`, which took `dt` seconds.
    fn add(&mut self, agent: usize, g: &Game, dt: f64) {
        let mut m = crate::action::ActionMask::default();
        g.legal_actions(&mut m);
        self.choices[agent] += u64::from(m.len() > 1);
        self.seconds[agent] += dt;
        self.max_seconds[agent] = self.max_seconds[agent].max(dt);
        self.decisions[agent] += 1;
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
    #[error("{0}")]
    Rules(String),
    #[error("stopped on request")]
    Stopped,
}

/// Most deals per thread task on the batched path of tables with `net` (one forward pass
/// covers a task's games).
pub const NET_CHUNK: u64 = 64;
/// Fewest deals per such task: a run with few deals a thread is cut into about
/// [`NET_TASKS_PER_THREAD`] tasks a thread of at least this many, so a thread that drew
/// long games does not hold up the others at the end.
pub const NET_CHUNK_MIN: u64 = 16;
/// Tasks per thread the batched path aims for (see [`NET_CHUNK_MIN`]).
pub const NET_TASKS_PER_THREAD: u64 = 4;

/// Deals per task of the batched path for `deals` deals on `threads` threads (one thread
/// has no other to share with: the largest tasks).
pub fn net_chunk(deals: u64, threads: usize) -> u64 {
    if threads <= 1 {
        return NET_CHUNK;
    }
    deals.div_ceil(threads as u64 * NET_TASKS_PER_THREAD).clamp(NET_CHUNK_MIN, NET_CHUNK)
}

/// The record of a finished game.
fn record(g: &Game, deal: u64, rotation: usize) -> GameRecord {
    let mut ret = vec![0.0; g.num_players()];
    g.returns(&mut ret, true);
    GameRecord {
        deal,
        rotation,
        winner: g.winner(),
        hand_points: g.hand_points().to_vec(),
        score_returns: ret,
        decisions: g.decisions(),
        truncated: g.is_truncated(),
    }
}

/// Play rotations `0..n` of every deal in `deals` side by side, the `net` seats' decisions
/// batched into one forward pass per round (see the module documentation). Records in
/// `(deal, rotation)` order; each entry's decisions and seconds are added to `timing` (a
/// `net` decision is charged its share of the batch's time). [`ArenaError::Stopped`] once
/// `stop` is set (read every round).
pub fn play_batch(
    rules: &Arc<Rules>,
    table: &[BotSpec],
    seed: u64,
    deals: Range<u64>,
    timing: &mut Timing,
    stop: &Stop,
) -> Result<Vec<GameRecord>, ArenaError> {
    let n = rules.num_players as usize;
    if table.len() != n || timing.decisions.len() < n {
        return Err(ArenaError::Table { expected: n, got: table.len() });
    }
    struct Table {
        game: Game,
        bots: Vec<Box<dyn Policy>>,
        deal: u64,
        rotation: usize,
    }
    let mut games: Vec<Table> = deals
        .flat_map(|d| (0..n).map(move |r| (d, r)))
        .map(|(deal, rotation)| Table {
            game: Game::new(rules.clone(), deal_seed(seed, deal)),
            bots: (0..n)
                .map(|seat| {
                    let agent = agent_at(seat, rotation, n);
                    table[agent].build(bot_seed(seed, deal, rotation, agent))
                })
                .collect(),
            deal,
            rotation,
        })
        .collect();
    let mut batch = BotBatch::default();
    loop {
        if stop.is_set() {
            return Err(ArenaError::Stopped);
        }
        for (i, x) in games.iter_mut().enumerate() {
            let stuck = |message: String| ArenaError::Stuck { deal: x.deal, rotation: x.rotation, message };
            while let Some(p) = x.game.current_player() {
                let agent = agent_at(p, x.rotation, n);
                if batch::style(table[agent]) == Style::Batched {
                    batch.wait(table[agent], i);
                    break;
                }
                let t = Instant::now();
                let a = x.bots[p].act_until(&x.game, stop);
                if stop.is_set() {
                    return Err(ArenaError::Stopped); // a search cut short: its answer is not played
                }
                let a = a.ok_or_else(|| stuck(format!("no legal action for seat {p} in a running game")))?;
                timing.add(agent, &x.game, t.elapsed().as_secs_f64());
                x.game.step(a).map_err(|e| stuck(format!("a bot chose an illegal action: {e}")))?;
            }
        }
        if !batch.is_waiting() {
            break;
        }
        batch.answer(|i| &games[i].game).map_err(ArenaError::Rules)?;
        for ans in batch.answers() {
            let x = &mut games[ans.game];
            let stuck = |message: String| ArenaError::Stuck { deal: x.deal, rotation: x.rotation, message };
            // Safe: the game waited, so it has a player to act.
            let p = x.game.current_player().expect("a waiting game is running");
            let agent = agent_at(p, x.rotation, n);
            timing.add(agent, &x.game, ans.seconds);
            let a = ans.action.ok_or_else(|| stuck(format!("no legal action for seat {p} in a running game")))?;
            let name = ans.spec.name();
            x.game.step(a).map_err(|e| stuck(format!("the {name} bot chose an illegal action: {e}")))?;
        }
    }
    Ok(games.iter().map(|x| record(&x.game, x.deal, x.rotation)).collect())
}

/// Play rotation `rotation` of deal `deal`; adds each entry's decisions and seconds to `timing`.
/// [`ArenaError::Stopped`] once `stop` is set (read before every decision: a search bot's
/// game can take seconds).
pub fn play_game(
    rules: &Arc<Rules>,
    table: &[BotSpec],
    seed: u64,
    deal: u64,
    rotation: usize,
    timing: &mut Timing,
    stop: &Stop,
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
        if stop.is_set() {
            return Err(ArenaError::Stopped);
        }
        let agent = agent_at(p, rotation, n);
        let t = Instant::now();
        let a = bots[p].act_until(&g, stop);
        if stop.is_set() {
            return Err(ArenaError::Stopped); // a search cut short: its answer is not played
        }
        let a = a.ok_or_else(|| stuck(format!("no legal action for seat {p} in a running game")))?;
        // `agent < n` (a remainder mod n) and `timing` has n entries (checked above).
        timing.add(agent, &g, t.elapsed().as_secs_f64());
        g.step(a).map_err(|e| stuck(format!("a bot chose an illegal action: {e}")))?;
    }
    Ok(record(&g, deal, rotation))
}

/// Play every rotation of deals `deals` between the bots of `table` (one per seat), on
/// `threads` threads (0: rayon's global pool). The records are in `(deal, rotation)` order
/// and identical for any thread count. A pool that cannot start, a table of the wrong size
/// or a game that cannot go on is an error (nothing is returned), and so is a bot that cannot
/// play these rules (`net` on rules it was not trained for). Tables with `net` are played in
/// batches ([`play_batch`]) with the same records.
pub fn play_deals(
    rules: Arc<Rules>,
    table: &[BotSpec],
    seed: u64,
    deals: Range<u64>,
    threads: usize,
) -> Result<MatchResults, ArenaError> {
    play_deals_until(rules, table, seed, deals, threads, &NEVER)
}

/// [`play_deals`], ending with [`ArenaError::Stopped`] soon after `stop` is set (every game
/// reads it before each decision, every batch before each round).
pub fn play_deals_until(
    rules: Arc<Rules>,
    table: &[BotSpec],
    seed: u64,
    deals: Range<u64>,
    threads: usize,
    stop: &Stop,
) -> Result<MatchResults, ArenaError> {
    let n = rules.num_players as usize;
    if table.len() != n {
        return Err(ArenaError::Table { expected: n, got: table.len() });
    }
    for spec in table {
        spec.check_rules(&rules).map_err(ArenaError::Rules)?;
    }
    let batched = batch::any_batched(table);
    let run = || {
        if batched {
            let chunk = net_chunk(deals.end.saturating_sub(deals.start), rayon::current_num_threads());
            let chunks: Vec<Range<u64>> = (deals.start..deals.end)
                .step_by(chunk as usize)
                .map(|a| a..a.saturating_add(chunk).min(deals.end))
                .collect();
            return chunks
                .into_par_iter()
                .map(|c| {
                    let mut timing = Timing::new(n);
                    play_batch(&rules, table, seed, c, &mut timing, stop).map(|recs| (recs, timing))
                })
                .collect::<Result<Vec<_>, ArenaError>>();
        }
        deals
            .clone()
            .into_par_iter()
            .map(|d| {
                let mut timing = Timing::new(n);
                let recs =
                    (0..n).map(|r| play_game(&rules, table, seed, d, r, &mut timing, stop)).collect::<Result<_, _>>();
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
        agent_choices: vec![0; n],
        agent_seconds: vec![0.0; n],
        agent_max_seconds: vec![0.0; n],
    };
    for (recs, t) in parts {
        out.records.extend(recs);
        // Both sides have n entries (Timing::new(n) above).
        for k in 0..n {
            out.agent_decisions[k] += t.decisions[k];
            out.agent_choices[k] += t.choices[k];
            out.agent_seconds[k] += t.seconds[k];
            out.agent_max_seconds[k] = out.agent_max_seconds[k].max(t.max_seconds[k]);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::spec::BotSpec;
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
    fn the_schedule_is_the_games_play_deals_plays() {
        let s = schedule(7, 3, 4..6);
        assert_eq!(s.deal, [4, 4, 4, 5, 5, 5]);
        assert_eq!(s.rotation, [0, 1, 2, 0, 1, 2]);
        assert_eq!(s.agent.len(), 18);
        for g in 0..6 {
            let (deal, rotation) = (s.deal[g], s.rotation[g]);
            assert_eq!(s.deal_seed[g], deal_seed(7, deal));
            for seat in 0..3 {
                let agent = agent_at(seat, rotation, 3);
                assert_eq!(s.agent[g * 3 + seat], agent);
                assert_eq!(s.bot_seed[g * 3 + seat], bot_seed(7, deal, rotation, agent));
            }
        }
        // A built-in table replayed from the schedule gives play_deals' records.
        let r = rules("crazy_eights");
        let t = [BotSpec::Pimc { worlds: 2 }, BotSpec::Random];
        let s = schedule(3, 2, 0..3);
        let run = play_deals(r.clone(), &t, 3, 0..3, 1).unwrap();
        for (g, rec) in run.records.iter().enumerate() {
            let mut game = Game::new(r.clone(), s.deal_seed[g]);
            let mut bots: Vec<_> =
                (0..2).map(|seat| t[s.agent[g * 2 + seat]].build(s.bot_seed[g * 2 + seat])).collect();
            while let Some(p) = game.current_player() {
                let a = bots[p].act(&game).unwrap();
                game.step(a).unwrap();
            }
            assert_eq!(&record(&game, s.deal[g], s.rotation[g]), rec);
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
                let a = play_game(&r, &t, 3, deal, 0, &mut timing, &NEVER).unwrap();
                let b = play_game(&r, &t, 3, deal, 1, &mut timing, &NEVER).unwrap();
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
    fn net_tables_give_the_same_games_however_the_deals_are_cut() {
        // 1 thread: one task of 64 deals and one of 6; more threads: tasks of 16 (the floor);
        // 400 deals on 4 threads: 25 a task.
        assert_eq!([net_chunk(70, 1), net_chunk(70, 2), net_chunk(70, 3)], [NET_CHUNK, NET_CHUNK_MIN, NET_CHUNK_MIN]);
        assert_eq!(net_chunk(400, 4), 25);
        assert_eq!(net_chunk(10_000, 2), NET_CHUNK);
        let r = rules("crazy_eights");
        let t = [BotSpec::Net, BotSpec::Heuristic];
        let one = play_deals(r.clone(), &t, 4, 0..70, 1).unwrap();
        for threads in [2, 3, 8] {
            let many = play_deals(r.clone(), &t, 4, 0..70, threads).unwrap();
            assert_eq!(one.records, many.records, "{threads} threads");
            assert_eq!(one.agent_decisions, many.agent_decisions);
        }
        assert_eq!(one.records.len(), 140);
    }

    #[test]
    fn batched_net_games_equal_games_played_one_at_a_time() {
        let (net, net1) = (BotSpec::Net, BotSpec::Net1);
        for p in ["crazy_eights", "switch_blackjack", "crazy_eights_specials"] {
            let r = rules(p);
            let tables =
                [[net, BotSpec::Heuristic], [BotSpec::Random, net], [net, net], [net1, net], [net1, BotSpec::Random]];
            for t in tables {
                let batched = play_deals(r.clone(), &t, 5, 0..20, 2).unwrap();
                let mut timing = Timing::new(2);
                let single: Vec<_> = (0..20)
                    .flat_map(|d| (0..2).map(move |k| (d, k)))
                    .map(|(d, k)| play_game(&r, &t, 5, d, k, &mut timing, &NEVER).unwrap())
                    .collect();
                assert_eq!(batched.records, single, "{p} {t:?}");
                assert_eq!(batched.agent_decisions, timing.decisions);
            }
        }
    }

    #[test]
    fn net1_on_other_rules_is_an_error_naming_its_presets() {
        let e = play_deals(rules("one_card"), &[BotSpec::Net1, BotSpec::Random], 1, 0..2, 1).unwrap_err();
        assert!(e.to_string().contains("crazy_eights, switch_blackjack, crazy_eights_specials"), "{e}");
    }

    #[test]
    fn batched_net_games_equal_single_games_on_any_rules_and_table() {
        for (p, n) in [("one_card", 3), ("stalin", 4), ("rose_mau", 5), ("kings_reverse", 2)] {
            let r = Arc::new(Rules::from_spec(crate::rules::load_spec(p, None).unwrap(), n).unwrap());
            let mut t = vec![BotSpec::Heuristic; n];
            t[0] = BotSpec::Net;
            t[n - 1] = BotSpec::Net;
            let batched = play_deals(r.clone(), &t, 3, 0..4, 1).unwrap();
            let mut timing = Timing::new(n);
            let single: Vec<_> = (0..4)
                .flat_map(|d| (0..n).map(move |k| (d, k)))
                .map(|(d, k)| play_game(&r, &t, 3, d, k, &mut timing, &NEVER).unwrap())
                .collect();
            assert_eq!(batched.records, single, "{p}");
        }
    }

    #[test]
    fn a_wrong_table_is_an_error_not_a_panic() {
        let r = rules("crazy_eights");
        let e = play_deals(r.clone(), &[BotSpec::Random], 1, 0..2, 1).unwrap_err();
        assert_eq!(e, ArenaError::Table { expected: 2, got: 1 });
        let mut timing = Timing::new(2);
        assert!(play_game(&r, &[BotSpec::Random; 3], 1, 0, 0, &mut timing, &NEVER).is_err());
    }
}
