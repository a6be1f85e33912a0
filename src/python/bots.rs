//! Bindings of [`crate::bots`]: the `RandomBot` and `Bot` classes, bot names, random
//! self-play, determinization, and the arena core (seeds, seat rotation, playing deals on a
//! thread pool with the GIL released).

use super::convert::{IllegalActionError, from_json, load_rules, random_seed};
use super::game::PyGame;
use crate::bots::arena::{agent_at, bot_seed, deal_seed, play_deals};
use crate::bots::{self, BOT_SPEC_HELP, BotSpec, Policy, RandomBot};
use crate::game::derive_seed as core_derive_seed;
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn parse_spec(spec: &str) -> PyResult<BotSpec> {
    BotSpec::parse(spec).map_err(PyValueError::new_err)
}

/// Play `games` random-vs-random games in Rust (the GIL is released). Game `i` is dealt
/// from a seed derived from `(seed, i)`. Returns a dict: games, wins (per seat), no_winner,
/// truncated, decisions, seconds.
#[pyfunction]
#[pyo3(signature = (preset, num_players=2, games=1000, seed=0, rules=None))]
fn random_selfplay<'py>(
    py: Python<'py>,
    preset: &str,
    num_players: i64,
    games: u64,
    seed: u64,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = load_rules(py, preset, num_players, rules)?;
    let stats = py.detach(move || bots::random_selfplay(r, games, seed));
    from_json(py, &stats)
}

/// A uniformly random player with its own seeded generator.
#[pyclass(name = "RandomBot", module = "eights._core")]
struct PyRandomBot {
    bot: RandomBot,
}

#[pymethods]
impl PyRandomBot {
    #[new]
    #[pyo3(signature = (seed=None))]
    fn new(seed: Option<u64>) -> Self {
        PyRandomBot { bot: RandomBot::new(seed.unwrap_or_else(random_seed)) }
    }

    /// A uniform legal action of `game`'s player to act.
    fn act(&mut self, game: &PyGame) -> PyResult<usize> {
        self.bot.act(&game.g).ok_or_else(|| IllegalActionError::new_err("the game is over: no legal action"))
    }
}

/// A built-in bot: `Bot(name, seed=None)` with `name` one of "random", "heuristic",
/// "ismcts:N" (information-set MCTS, N simulations) or "pimc:N" (determinized Monte Carlo, N
/// worlds). `act(game)` returns a legal action id of the player to act, using only that
/// player's information.
#[pyclass(name = "Bot", module = "eights._core")]
struct PyBot {
    bot: Box<dyn Policy>,
    spec: BotSpec,
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (name, seed=None))]
    fn new(name: &str, seed: Option<u64>) -> PyResult<Self> {
        let spec = parse_spec(name)?;
        Ok(PyBot { bot: spec.build(seed.unwrap_or_else(random_seed)), spec })
    }

    /// A legal action id for `game`'s player to act (the GIL is released while searching).
    fn act(&mut self, py: Python<'_>, game: &PyGame) -> PyResult<usize> {
        let g = &game.g;
        let bot = &mut self.bot;
        py.detach(|| bot.act(g)).ok_or_else(|| IllegalActionError::new_err("the game is over: no legal action"))
    }

    /// The canonical bot name, e.g. "ismcts:400".
    #[getter]
    fn name(&self) -> String {
        self.spec.name()
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.spec.name())
    }
}

/// The canonical name of a bot specification; raises ValueError naming the allowed bots.
#[pyfunction]
fn parse_bot(name: &Bound<'_, PyAny>) -> PyResult<String> {
    let Ok(s) = name.extract::<String>() else {
        return Err(PyTypeError::new_err(format!(
            "a bot name must be a string ({BOT_SPEC_HELP}), got {}",
            name.get_type().name()?
        )));
    };
    Ok(parse_spec(&s)?.name())
}

/// A copy of `game` in which every card hidden from `player` (other hands, stock) is dealt
/// again uniformly at random, keeping `player`'s hand, the discard pile, hand sizes and the
/// public state; the copy's generator is re-seeded from `seed` (None: a fresh seed). For
/// search agents: the copy never depends on cards `player` cannot see.
#[pyfunction]
#[pyo3(signature = (game, player, seed=None))]
fn determinize(game: &PyGame, player: i64, seed: Option<u64>) -> PyResult<PyGame> {
    let n = game.g.num_players() as i64;
    if !(0..n).contains(&player) {
        return Err(PyValueError::new_err(format!("player must be in 0..{n}, got {player}")));
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed.unwrap_or_else(random_seed));
    Ok(PyGame::at(game.g.determinize(player as usize, &mut rng)))
}

/// The seed of item `i` derived from a base seed (SplitMix64), as used for arena deals.
#[pyfunction]
fn derive_seed(seed: u64, i: u64) -> u64 {
    core_derive_seed(seed, i)
}

/// The game seed of arena deal `deal`.
#[pyfunction]
fn arena_deal_seed(seed: u64, deal: u64) -> u64 {
    deal_seed(seed, deal)
}

/// The seed of table entry `agent`'s bot in `(deal, rotation)` of an arena run.
#[pyfunction]
fn arena_bot_seed(seed: u64, deal: u64, rotation: usize, agent: usize) -> u64 {
    bot_seed(seed, deal, rotation, agent)
}

/// The table entry that plays `seat` in `rotation` at a table of `n`.
#[pyfunction]
fn arena_agent_at(seat: usize, rotation: usize, n: usize) -> usize {
    agent_at(seat, rotation, n)
}

/// Play deals `start..start+count` between built-in bots (`table`: one bot name per seat,
/// seat k of rotation r played by entry (k + r) % n), every deal once per rotation, on
/// `threads` threads (0: all cores) with the GIL released. Returns a dict of numpy arrays,
/// one row per game in (deal, rotation) order: deal, rotation, winner (seat, -1 for none),
/// hand_points (games, n), score_returns (games, n), decisions, truncated; and per table
/// entry agent_decisions, agent_seconds (thinking time, summed over threads) and
/// agent_max_seconds (the longest single decision).
#[pyfunction]
#[pyo3(signature = (preset, num_players, table, seed=0, start=0, count=1, threads=0, rules=None))]
#[allow(clippy::too_many_arguments)]
fn arena_play<'py>(
    py: Python<'py>,
    preset: &str,
    num_players: i64,
    table: Vec<String>,
    seed: u64,
    start: u64,
    count: u64,
    threads: usize,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let r = load_rules(py, preset, num_players, rules)?;
    if table.len() != num_players as usize {
        return Err(PyValueError::new_err(format!(
            "table needs one bot per seat: {num_players} names, got {}",
            table.len()
        )));
    }
    let specs: Vec<BotSpec> = table.iter().map(|s| parse_spec(s)).collect::<PyResult<_>>()?;
    let res = py.detach(move || play_deals(r, &specs, seed, start..start + count, threads));
    let n = num_players as usize;
    let d = PyDict::new(py);
    let recs = &res.records;
    d.set_item("deal", PyArray1::from_vec(py, recs.iter().map(|x| x.deal).collect()))?;
    d.set_item("rotation", PyArray1::from_vec(py, recs.iter().map(|x| x.rotation as i64).collect()))?;
    d.set_item("winner", PyArray1::from_vec(py, recs.iter().map(|x| x.winner.map_or(-1, |w| w as i64)).collect()))?;
    let rows =
        |f: &dyn Fn(&crate::bots::arena::GameRecord) -> Vec<f64>| -> Vec<Vec<f64>> { recs.iter().map(f).collect() };
    let hp = rows(&|x| x.hand_points.iter().map(|&v| v as f64).collect());
    let sr = rows(&|x| x.score_returns.clone());
    let to2 = |v: Vec<Vec<f64>>| -> PyResult<Bound<'py, PyArray2<f64>>> {
        if v.is_empty() {
            return Ok(PyArray2::zeros(py, [0, n], false));
        }
        PyArray2::from_vec2(py, &v).map_err(|e| PyValueError::new_err(e.to_string()))
    };
    d.set_item("hand_points", to2(hp)?)?;
    d.set_item("score_returns", to2(sr)?)?;
    d.set_item("decisions", PyArray1::from_vec(py, recs.iter().map(|x| x.decisions as i64).collect()))?;
    d.set_item("truncated", PyArray1::from_vec(py, recs.iter().map(|x| x.truncated).collect()))?;
    d.set_item("agent_decisions", PyArray1::from_vec(py, res.agent_decisions.iter().map(|&x| x as i64).collect()))?;
    d.set_item("agent_seconds", PyArray1::from_vec(py, res.agent_seconds.clone()))?;
    d.set_item("agent_max_seconds", PyArray1::from_vec(py, res.agent_max_seconds.clone()))?;
    Ok(d)
}

/// Add the bot classes and functions to `eights._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRandomBot>()?;
    m.add_class::<PyBot>()?;
    m.add_function(wrap_pyfunction!(random_selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(parse_bot, m)?)?;
    m.add_function(wrap_pyfunction!(determinize, m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(arena_deal_seed, m)?)?;
    m.add_function(wrap_pyfunction!(arena_agent_at, m)?)?;
    m.add_function(wrap_pyfunction!(arena_bot_seed, m)?)?;
    m.add_function(wrap_pyfunction!(arena_play, m)?)?;
    m.add("BOT_NAMES_HELP", BOT_SPEC_HELP)?;
    Ok(())
}
