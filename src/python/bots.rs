//! Bindings of [`crate::bots`]: the `RandomBot` and `Bot` classes, bot names and the check
//! of a bot against rules, random self-play, determinization, the learned bot's network for
//! tests and tools, and the arena core (seeds, seat rotation, playing deals on a thread pool
//! with the GIL released).

use super::args::{self, int_in};
use super::convert::{IllegalActionError, array1, array2, from_json, load_rules, random_seed};
use super::game::PyGame;
use super::rules::rules_arg;
use crate::bots::arena::{agent_at, bot_seed, deal_seed, play_deals};
use crate::bots::{self, BOT_SPEC_HELP, BotSpec, Policy, RandomBot};
use crate::rules::MAX_PLAYERS;
use numpy::{PyArray2, PyReadonlyArray2};
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
    preset: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = args::num_players)] num_players: usize,
    #[pyo3(from_py_with = args::games)] games: u64,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = rules_arg(py, preset, num_players, rules)?;
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
    fn new(#[pyo3(from_py_with = args::opt_seed)] seed: Option<u64>) -> Self {
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
    fn new(name: &str, #[pyo3(from_py_with = args::opt_seed)] seed: Option<u64>) -> PyResult<Self> {
        let spec = parse_spec(name)?;
        Ok(PyBot { bot: spec.build(seed.unwrap_or_else(random_seed)), spec })
    }

    /// A legal action id for `game`'s player to act (the GIL is released while searching).
    fn act(&mut self, py: Python<'_>, game: &PyGame) -> PyResult<usize> {
        let g = &game.g;
        self.spec.check_rules(g.rules()).map_err(PyValueError::new_err)?;
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
fn determinize(
    game: &PyGame,
    player: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = args::opt_seed)] seed: Option<u64>,
) -> PyResult<PyGame> {
    let player = args::seat_in(player, "player", game.g.num_players())?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed.unwrap_or_else(random_seed));
    Ok(PyGame::at(game.g.determinize(player, &mut rng)))
}

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
    #[pyo3(from_py_with = args::num_players)] num_players: usize,
    table: Vec<String>,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    #[pyo3(from_py_with = args::start)] start: u64,
    #[pyo3(from_py_with = args::count)] count: u64,
    #[pyo3(from_py_with = args::threads)] threads: usize,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let r = load_rules(py, preset, num_players, rules)?;
    if table.len() != num_players {
        return Err(PyValueError::new_err(format!(
            "table needs one bot per seat: {num_players} names, got {}",
            table.len()
        )));
    }
    let specs: Vec<BotSpec> = table.iter().map(|s| parse_spec(s)).collect::<PyResult<_>>()?;
    let end = start
        .checked_add(count)
        .ok_or_else(|| PyValueError::new_err(format!("start + count must be below 2**64, got {start} + {count}")))?;
    let res = py.detach(move || play_deals(r, &specs, seed, start..end, threads)).map_err(|e| match e {
        crate::bots::arena::ArenaError::Rules(m) => PyValueError::new_err(m),
        e => pyo3::exceptions::PyRuntimeError::new_err(e.to_string()),
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
        return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
            "deal {}: a record without one value per seat",
            bad.deal
        )));
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
    d.set_item("agent_seconds", array1(py, res.agent_seconds.len(), res.agent_seconds.iter().copied())?)?;
    d.set_item("agent_max_seconds", array1(py, res.agent_max_seconds.len(), res.agent_max_seconds.iter().copied())?)?;
    Ok(d)
}

/// Raise ValueError if the built-in bot `name` cannot play these rules: `net` plays only the
/// presets (and player count) it was trained for, unchanged; the message names them.
#[pyfunction]
#[pyo3(signature = (name, preset, num_players=2, rules=None))]
fn check_bot_rules<'py>(
    py: Python<'py>,
    name: &str,
    preset: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = args::num_players)] num_players: usize,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<()> {
    let spec = parse_spec(name)?;
    let r = rules_arg(py, preset, num_players, rules)?;
    spec.check_rules(&r).map_err(PyValueError::new_err)
}

/// The presets the `net` bot has a network for (two players each).
#[pyfunction]
fn net_presets() -> PyResult<Vec<String>> {
    let w = bots::net::weights().map_err(pyo3::exceptions::PyRuntimeError::new_err)?;
    Ok(w.policies.iter().map(|p| p.preset.clone()).collect())
}

/// The `net` bot's action probabilities for `preset`: the softmax of its network's logits over
/// the legal actions of each row (0 elsewhere), float32 of shape (B, NUM_ACTIONS), from
/// float32 observations (B, OBS_SIZE) and bool masks (B, NUM_ACTIONS). The bot itself plays
/// each row's most likely legal action.
#[pyfunction]
fn net_probs<'py>(
    py: Python<'py>,
    preset: &str,
    obs: &Bound<'py, PyAny>,
    masks: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    use crate::action::NUM_ACTIONS;
    use crate::observation::OBS_SIZE;
    let w = bots::net::weights().map_err(pyo3::exceptions::PyRuntimeError::new_err)?;
    let policy = w.by_name(preset).map_err(PyValueError::new_err)?;
    let obs: PyReadonlyArray2<'py, f32> = obs
        .extract()
        .map_err(|_| PyTypeError::new_err(format!("obs must be a float32 numpy array of shape (B, {OBS_SIZE})")))?;
    let masks: PyReadonlyArray2<'py, bool> = masks
        .extract()
        .map_err(|_| PyTypeError::new_err(format!("masks must be a bool numpy array of shape (B, {NUM_ACTIONS})")))?;
    let (o, m) = (obs.as_array(), masks.as_array());
    if o.ncols() != OBS_SIZE {
        return Err(PyValueError::new_err(format!("obs must have shape (B, {OBS_SIZE}), got {:?}", o.shape())));
    }
    if m.ncols() != NUM_ACTIONS || m.nrows() != o.nrows() {
        return Err(PyValueError::new_err(format!(
            "masks must have shape ({}, {NUM_ACTIONS}) like obs, got {:?}",
            o.nrows(),
            m.shape()
        )));
    }
    if o.iter().any(|v| !v.is_finite()) {
        return Err(PyValueError::new_err("obs must be finite"));
    }
    let p = policy.probs(o, m);
    array2(py, p.nrows(), p.ncols(), p.iter().copied())
}

/// Add the bot classes and functions to `eights._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRandomBot>()?;
    m.add_class::<PyBot>()?;
    m.add_function(wrap_pyfunction!(random_selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(parse_bot, m)?)?;
    m.add_function(wrap_pyfunction!(determinize, m)?)?;
    m.add_function(wrap_pyfunction!(arena_deal_seed, m)?)?;
    m.add_function(wrap_pyfunction!(arena_agent_at, m)?)?;
    m.add_function(wrap_pyfunction!(arena_bot_seed, m)?)?;
    m.add_function(wrap_pyfunction!(arena_play, m)?)?;
    m.add_function(wrap_pyfunction!(check_bot_rules, m)?)?;
    m.add_function(wrap_pyfunction!(net_presets, m)?)?;
    m.add_function(wrap_pyfunction!(net_probs, m)?)?;
    m.add("BOT_NAMES_HELP", BOT_SPEC_HELP)?;
    Ok(())
}
