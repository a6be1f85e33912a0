//! Bindings of [`crate::bots::arena`], the duplicate-deal arena: its seeds and seat rotation,
//! the schedule of a batch of games (for the Python arena's lockstep loop), and playing deals
//! between built-in bots on a thread pool with the GIL released.

use super::args::{self, int_in};
use super::convert::{array1, array2};
use super::interrupt::run_interruptible;
use super::rules::rules_arg;
use crate::bots::BotSpec;
use crate::bots::arena::{ArenaError, agent_at, bot_seed, deal_seed, play_deals_until, schedule};
use crate::rules::MAX_PLAYERS;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The most deals one `arena_schedule` call lays out (the Python arena asks for one batch
/// of games at a time, at most `batch_size <= 2**20` games).
const MAX_SCHEDULE_DEALS: u64 = 1 << 20;

fn u64_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    int_in(obj, name, 0u64, u64::MAX)
}

/// The game seed of arena deal `deal`.
#[pyfunction]
fn arena_deal_seed(seed: &Bound<'_, PyAny>, deal: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(deal_seed(u64_arg(seed, "seed")?, u64_arg(deal, "deal")?))
}

/// The seed of table entry `agent`'s bot in `(deal, rotation)` of an arena run.
#[pyfunction]
fn arena_bot_seed(
    seed: &Bound<'_, PyAny>,
    deal: &Bound<'_, PyAny>,
    rotation: &Bound<'_, PyAny>,
    agent: &Bound<'_, PyAny>,
) -> PyResult<u64> {
    // MAX_PLAYERS is 10: it fits u8.
    let last = MAX_PLAYERS as u8 - 1;
    let rotation = usize::from(int_in(rotation, "rotation", 0u8, last)?);
    let agent = usize::from(int_in(agent, "agent", 0u8, last)?);
    Ok(bot_seed(u64_arg(seed, "seed")?, u64_arg(deal, "deal")?, rotation, agent))
}

/// The table entry that plays `seat` in `rotation` at a table of `n`.
#[pyfunction]
fn arena_agent_at(seat: &Bound<'_, PyAny>, rotation: &Bound<'_, PyAny>, n: &Bound<'_, PyAny>) -> PyResult<usize> {
    let n = int_in(n, "n", 1u8, MAX_PLAYERS as u8)?;
    let seat = int_in(seat, "seat", 0u8, n - 1)?;
    let rotation = int_in(rotation, "rotation", 0u8, n - 1)?;
    Ok(agent_at(usize::from(seat), usize::from(rotation), usize::from(n)))
}

/// The schedule of deals `start..start+count` at a table of `num_players` (at most 2**20
/// deals a call), one row per game in (deal, rotation) order, as `arena_play` plays them: a
/// dict of numpy arrays `deal` (uint64), `rotation` (int64), `deal_seed` (uint64, the game's
/// seed), and per game and seat `agent` (int64, the table entry) and `bot_seed` (uint64, the
/// seed of that entry's bot), both of shape (games, num_players).
#[pyfunction]
#[pyo3(signature = (seed, num_players, start, count))]
fn arena_schedule<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    #[pyo3(from_py_with = args::num_players)] num_players: usize,
    #[pyo3(from_py_with = args::start)] start: u64,
    count: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let count = int_in(count, "count", 0u64, MAX_SCHEDULE_DEALS)?;
    let end = start
        .checked_add(count)
        .ok_or_else(|| PyValueError::new_err(format!("start + count must be below 2**64, got {start} + {count}")))?;
    let s = schedule(seed, num_players, start..end);
    let (k, n) = (s.deal.len(), s.n);
    let d = PyDict::new(py);
    d.set_item("deal", array1(py, k, s.deal.iter().copied())?)?;
    // Rotations and table entries are below MAX_PLAYERS: the casts are exact.
    d.set_item("rotation", array1(py, k, s.rotation.iter().map(|&r| r as i64))?)?;
    d.set_item("deal_seed", array1(py, k, s.deal_seed.iter().copied())?)?;
    d.set_item("agent", array2(py, k, n, s.agent.iter().map(|&a| a as i64))?)?;
    d.set_item("bot_seed", array2(py, k, n, s.bot_seed.iter().copied())?)?;
    Ok(d)
}

/// Play deals `start..start+count` between built-in bots (`table`: one bot name per seat,
/// seat k of rotation r played by entry (k + r) % n), every deal once per rotation, on
/// `threads` threads (0: all cores) with the GIL released. `preset` is a preset name or an
/// `eights.Rules`, `rules` overrides on top. Returns a dict of numpy arrays, one row per game
/// in (deal, rotation) order: deal, rotation, winner (seat, -1 for none), hand_points (games,
/// n), score_returns (games, n), decisions, truncated; and per table entry agent_decisions,
/// agent_choices (decisions with more than one legal action), agent_seconds (thinking time,
/// summed over threads) and agent_max_seconds (the longest single decision).
#[pyfunction]
#[pyo3(signature = (preset, num_players, table, seed=0, start=0, count=1, threads=0, rules=None))]
#[allow(clippy::too_many_arguments)]
fn arena_play<'py>(
    py: Python<'py>,
    preset: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = args::num_players)] num_players: usize,
    table: Vec<Bound<'py, PyAny>>,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    #[pyo3(from_py_with = args::start)] start: u64,
    #[pyo3(from_py_with = args::count)] count: u64,
    #[pyo3(from_py_with = args::threads)] threads: usize,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let r = rules_arg(py, preset, num_players, rules)?;
    if table.len() != num_players {
        return Err(PyValueError::new_err(format!(
            "table needs one bot per seat: {num_players} names, got {}",
            table.len()
        )));
    }
    let specs: Vec<BotSpec> = table
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let name = args::text(s, &format!("table[{k}]"), "a built-in bot name (str)")?;
            BotSpec::parse(&name).map_err(PyValueError::new_err)
        })
        .collect::<PyResult<_>>()?;
    let end = start
        .checked_add(count)
        .ok_or_else(|| PyValueError::new_err(format!("start + count must be below 2**64, got {start} + {count}")))?;
    let res = run_interruptible(py, move |stop| play_deals_until(r, &specs, seed, start..end, threads, stop))?
        .map_err(|e| match e {
            ArenaError::Rules(m) => PyValueError::new_err(m),
            e => PyRuntimeError::new_err(e.to_string()),
        })?;
    let n = num_players;
    let d = PyDict::new(py);
    let recs = &res.records;
    let k = recs.len();
    d.set_item("deal", array1(py, k, recs.iter().map(|x| x.deal))?)?;
    // Rotations and seats are below MAX_PLAYERS: the casts are exact.
    d.set_item("rotation", array1(py, k, recs.iter().map(|x| x.rotation as i64))?)?;
    d.set_item("winner", array1(py, k, recs.iter().map(|x| x.winner.map_or(-1, |w| w as i64)))?)?;
    if let Some(bad) = recs.iter().find(|x| x.hand_points.len() != n || x.score_returns.len() != n) {
        return Err(PyRuntimeError::new_err(format!("deal {}: a record without one value per seat", bad.deal)));
    }
    // Hand points are within the engine's score limit: exact as f64.
    d.set_item("hand_points", array2(py, k, n, recs.iter().flat_map(|x| x.hand_points.iter().map(|&v| v as f64)))?)?;
    d.set_item("score_returns", array2(py, k, n, recs.iter().flat_map(|x| x.score_returns.iter().copied()))?)?;
    d.set_item("decisions", array1(py, k, recs.iter().map(|x| i64::from(x.decisions)))?)?;
    d.set_item("truncated", array1(py, k, recs.iter().map(|x| x.truncated))?)?;
    let agents = res.agent_decisions.len();
    d.set_item(
        "agent_decisions",
        array1(py, agents, res.agent_decisions.iter().map(|&x| i64::try_from(x).unwrap_or(i64::MAX)))?,
    )?;
    d.set_item(
        "agent_choices",
        array1(py, agents, res.agent_choices.iter().map(|&x| i64::try_from(x).unwrap_or(i64::MAX)))?,
    )?;
    d.set_item("agent_seconds", array1(py, res.agent_seconds.len(), res.agent_seconds.iter().copied())?)?;
    d.set_item("agent_max_seconds", array1(py, res.agent_max_seconds.len(), res.agent_max_seconds.iter().copied())?)?;
    Ok(d)
}

/// Add the arena functions to `eights._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(arena_deal_seed, m)?)?;
    m.add_function(wrap_pyfunction!(arena_agent_at, m)?)?;
    m.add_function(wrap_pyfunction!(arena_bot_seed, m)?)?;
    m.add_function(wrap_pyfunction!(arena_schedule, m)?)?;
    m.add_function(wrap_pyfunction!(arena_play, m)?)?;
    Ok(())
}
