//! Bindings of [`crate::bots`]: the `RandomBot` and `Bot` classes, bot names and the check
//! of a bot against rules, random self-play, determinization, and the learned bot's network
//! for tests and tools. The arena ([`crate::bots::arena`]) is bound in `arena`.

use super::args;
use super::convert::{IllegalActionError, array2, from_json, random_seed};
use super::game::PyGame;
use super::interrupt::{run_cancellable, run_interruptible};
use super::rules::rules_arg;
use crate::bots::batch::{self, Style};
use crate::bots::{self, BOT_SPEC_HELP, BotSpec, Policy, RandomBot};
use numpy::{PyArray2, PyReadonlyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
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
    let stats = run_interruptible(py, move |stop| bots::random_selfplay_until(r, games, seed, stop))?;
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
    fn act(&mut self, game: &Bound<'_, PyAny>) -> PyResult<usize> {
        let game = game_arg(game, "RandomBot.act")?;
        self.bot.act(&game.g).ok_or_else(|| IllegalActionError::new_err("the game is over: no legal action"))
    }

    /// Pickling and copying: a new `RandomBot` given this one's generator state, so that the
    /// copy draws what the original draws next.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let state = generator_state(slf.borrow_mut().bot.generator());
        (slf.get_type(), (0u64,), state).into_pyobject(slf.py()).map(|t| t.into_any())
    }

    fn __setstate__(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        set_generator_state(self.bot.generator(), state, "RandomBot")
    }
}

/// The words of a bot's generator (`None` for a bot that does not draw): the state a pickled
/// bot carries besides its name.
fn generator_state(rng: Option<&mut Xoshiro256PlusPlus>) -> Option<[u64; 4]> {
    // The generator serialises as its four state words, `{"s": [u64; 4]}`.
    let value = serde_json::to_value(&*rng?).ok()?;
    serde_json::from_value::<GeneratorWords>(value).ok().map(|w| w.s)
}

/// The serialised form of `Xoshiro256PlusPlus`.
#[derive(serde::Serialize, serde::Deserialize)]
struct GeneratorWords {
    s: [u64; 4],
}

/// Set a bot's generator from [`generator_state`]'s words; anything else (or words for a bot
/// that does not draw, or the all-zero state the generator never reaches) is a `ValueError`
/// naming the class.
fn set_generator_state(rng: Option<&mut Xoshiro256PlusPlus>, state: &Bound<'_, PyAny>, class: &str) -> PyResult<()> {
    let want = if rng.is_some() {
        "the generator's four 64-bit words, not all zero: this bot draws random numbers"
    } else {
        "None: this bot draws no random numbers"
    };
    let bad = || {
        PyValueError::new_err(format!(
            "{class} state must be what pickling this {class} gives ({want}), got {}",
            args::repr_line(state)
        ))
    };
    match (rng, state.is_none()) {
        (None, true) => Ok(()),
        (Some(rng), false) => {
            let s: [u64; 4] = state.extract().map_err(|_| bad())?;
            if s == [0; 4] {
                return Err(bad());
            }
            *rng = serde_json::to_value(GeneratorWords { s })
                .and_then(serde_json::from_value)
                .map_err(|e| PyValueError::new_err(format!("{class} state: {e}")))?;
            Ok(())
        }
        _ => Err(bad()),
    }
}

/// The `game` argument of a bot's `act`: a `Game`, or a `TypeError` naming the method.
fn game_arg<'py>(game: &Bound<'py, PyAny>, method: &str) -> PyResult<PyRef<'py, PyGame>> {
    game.cast::<PyGame>()
        .map_err(|_| {
            PyTypeError::new_err(format!("{method}(game): game must be an eights.Game, got {}", type_name(game)))
        })?
        .try_borrow()
        .map_err(|e| PyValueError::new_err(format!("{method}(game): the game is in use: {e}")))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "an unknown type".into())
}

/// A built-in bot: `Bot(name, seed=None)` with `name` one of "random", "heuristic",
/// "ismcts:N" (information-set MCTS, N simulations), "ismcts_net:N" (the same search, its root
/// favouring net's move), "pimc:N" (determinized Monte Carlo, N worlds), "net" or
/// "oracle:N", or the path of a `.safetensors` weights file (a trained network, played in
/// Rust: a flat `eights-net-v1` network on the rules it records, or a card network
/// `eights-net-v2`/`v3` on any). `act(game)` returns a legal action id of the player to act,
/// using only that player's information, except "oracle:N" (pimc that sees every hand, a
/// measuring instrument: how much knowing the hands is worth). `seed` seeds the bots that
/// draw (random and the searches; `None`: a fresh seed); "heuristic", "net", "net1" and
/// weights files are deterministic, playing the same whatever the seed (their loop guard
/// draws from the game's own seed, so a game replays the same).
#[pyclass(name = "Bot", module = "eights._core")]
struct PyBot {
    bot: Box<dyn Policy>,
    spec: BotSpec,
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (name, seed=None))]
    fn new(name: &Bound<'_, PyAny>, #[pyo3(from_py_with = args::opt_seed)] seed: Option<u64>) -> PyResult<Self> {
        let what = format!("a str such as \"heuristic\" ({BOT_SPEC_HELP})");
        let name = name_arg(name, "Bot name", &what)?
            .ok_or_else(|| PyTypeError::new_err(format!("Bot name must be {what}, got {}", type_name(name))))?;
        let spec = parse_spec(&name)?;
        Ok(PyBot { bot: spec.build(seed.unwrap_or_else(random_seed)), spec })
    }

    /// A legal action id for `game`'s player to act (the GIL is released while searching).
    /// Ctrl-C stops a search within a few milliseconds and raises `KeyboardInterrupt`, the
    /// bot's generator as it was before the call. `cancel`, an object with `is_set()` such as a
    /// `threading.Event`, stops a search from another thread (a server stopping, a player
    /// leaving; Ctrl-C reaches only the main thread): set, the search ends within a tenth of a
    /// second and `act` raises `concurrent.futures.CancelledError`, the generator as it was.
    #[pyo3(signature = (game, cancel=None))]
    fn act(&mut self, py: Python<'_>, game: &Bound<'_, PyAny>, cancel: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
        if let Some(c) = cancel {
            if !c.getattr("is_set").map(|f| f.is_callable()).unwrap_or(false) {
                return Err(PyTypeError::new_err(format!(
                    "Bot.act: cancel must be None or an object with is_set() such as a threading.Event, got {}",
                    type_name(c)
                )));
            }
        }
        let game = game_arg(game, "Bot.act")?;
        let g = &game.g;
        self.spec.check_rules(g.rules()).map_err(PyValueError::new_err)?;
        let over = || IllegalActionError::new_err("the game is over: no legal action");
        let bot = &mut self.bot;
        if batch::style(self.spec) != Style::Search {
            // Microseconds: no thread of its own to wait on.
            return py.detach(|| bot.act(g)).ok_or_else(over);
        }
        let before = bot.generator().cloned();
        match run_cancellable(py, cancel, |stop| bot.act_until(g, stop)) {
            Ok(a) => a.ok_or_else(over),
            Err(e) => {
                if let (Some(rng), Some(before)) = (bot.generator(), before) {
                    *rng = before; // a stopped search leaves the bot as it was
                }
                Err(e)
            }
        }
    }

    /// The canonical bot name, e.g. "ismcts:400".
    #[getter]
    fn name(&self) -> String {
        self.spec.name()
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.spec.name())
    }

    /// Pickling and copying: `Bot(name)` built again and given this bot's generator state
    /// (a bot's whole state between decisions: search trees are rebuilt at each one), so
    /// that a copy made mid-game picks the same next actions as the original.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let mut me = slf.borrow_mut();
        let name = me.spec.name();
        let state = generator_state(me.bot.generator());
        (slf.get_type(), (name,), state).into_pyobject(slf.py()).map(|t| t.into_any())
    }

    fn __setstate__(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        set_generator_state(self.bot.generator(), state, "Bot")
    }
}

/// A bot name: a str, or an `os.PathLike` naming a weights file; `None` for anything else.
/// A str (or path) that is not valid text is a `ValueError` naming the argument `arg`, which
/// must be `what`.
fn name_arg(name: &Bound<'_, PyAny>, arg: &str, what: &str) -> PyResult<Option<String>> {
    if let Some(s) = args::text_if_str(name, arg, what)? {
        return Ok(Some(s));
    }
    let Ok(path) = name.extract::<std::path::PathBuf>() else { return Ok(None) };
    path.into_os_string()
        .into_string()
        .map(Some)
        .map_err(|_| PyValueError::new_err(format!("{arg}: the path {} is not valid text", args::repr_line(name))))
}

/// The canonical name of a bot specification (a weights file: its absolute path); raises
/// ValueError naming the allowed bots, or the file and what is wrong with it.
#[pyfunction]
fn parse_bot(name: &Bound<'_, PyAny>) -> PyResult<String> {
    let what = format!("a string ({BOT_SPEC_HELP})");
    let Some(s) = name_arg(name, "a bot name", &what)? else {
        return Err(PyTypeError::new_err(format!("a bot name must be {what}, got {}", name.get_type().name()?)));
    };
    Ok(parse_spec(&s)?.name())
}

/// Whether the Rust arena decides for bot `name` in batches, one forward pass for many games
/// (`net`, `net1` and weights files): such a bot wants many deals a call. Raises as
/// `parse_bot` does.
#[pyfunction]
fn bot_is_batched(name: &Bound<'_, PyAny>) -> PyResult<bool> {
    let spec = parse_spec(&parse_bot(name)?)?;
    Ok(bots::batch::style(spec) == bots::batch::Style::Batched)
}

/// Whether bot `name` plays every rule set: all but `net1` and a flat network's file (which
/// play only the rules they were trained for). Raises as `parse_bot` does.
#[pyfunction]
fn bot_plays_every_rule_set(name: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(parse_spec(&parse_bot(name)?)?.plays_every_rule_set())
}

/// A copy of `game` in which every card hidden from `player` (other hands, stock) is dealt
/// again at random, keeping `player`'s hand, the discard pile, hand sizes, the cards `player`
/// saw go into other hands, what the record of declined plays rules out of each other hand
/// (a player who drew instead of playing held none of the faces it could have played) and
/// the public state; the copy's generator is re-seeded from `seed` (None: a fresh seed). For
/// search agents: the copy never depends on cards `player` cannot see.
#[pyfunction]
#[pyo3(signature = (game, player, seed=None))]
fn determinize(
    game: &Bound<'_, PyAny>,
    player: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = args::opt_seed)] seed: Option<u64>,
) -> PyResult<PyGame> {
    let game = game_arg(game, "determinize")?;
    let player = args::seat_in(player, "player", game.g.num_players())?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed.unwrap_or_else(random_seed));
    Ok(PyGame::at(game.g.determinize(player, &mut rng)))
}

/// Raise ValueError if the built-in bot `name` cannot play these rules: `net` plays only the
/// presets (and player count) it was trained for, unchanged; the message names them.
#[pyfunction]
#[pyo3(signature = (name, preset, num_players=2, rules=None))]
fn check_bot_rules<'py>(
    py: Python<'py>,
    name: &Bound<'py, PyAny>,
    preset: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = args::num_players)] num_players: usize,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<()> {
    let spec = parse_spec(&args::text(name, "name", "a built-in bot name (str)")?)?;
    let r = rules_arg(py, preset, num_players, rules)?;
    spec.check_rules(&r).map_err(PyValueError::new_err)
}

/// The metadata of the weights file at `path` that a bot plays (str or os.PathLike): its
/// format, and what its writer recorded (rules, players, command, ...), as a dict of str.
/// ValueError naming the file when it is missing or not a bot's weights file.
#[pyfunction]
fn bot_file_metadata(path: &Bound<'_, PyAny>) -> PyResult<std::collections::HashMap<String, String>> {
    let text = name_arg(path, "path", "a str or os.PathLike")?
        .ok_or_else(|| PyTypeError::new_err(format!("path must be a str or os.PathLike, got {}", type_name(path))))?;
    Ok(bots::file::load(&text).map_err(PyValueError::new_err)?.metadata.clone())
}

/// The presets the `net` bot has a network for (two players each).
#[pyfunction]
fn net_presets() -> PyResult<Vec<String>> {
    let w = bots::net1::weights().map_err(pyo3::exceptions::PyRuntimeError::new_err)?;
    Ok(w.policies.iter().map(|p| p.preset.clone()).collect())
}

/// The `net` bot's weights: the safetensors file embedded in the crate, as bytes (its format
/// is described in `crate::bots::net`), for tools that start a PyTorch network from them.
#[pyfunction]
fn net_weights(py: Python<'_>) -> Bound<'_, pyo3::types::PyBytes> {
    pyo3::types::PyBytes::new(py, bots::net1::WEIGHTS_FILE)
}

/// The `net` bot's action probabilities for `preset`: the softmax of its network's logits over
/// the legal actions of each row (0 elsewhere), float32 of shape (B, NUM_ACTIONS), from
/// float32 observations (B, OBS_SIZE) and bool masks (B, NUM_ACTIONS). The bot itself plays
/// each row's most likely legal action.
#[pyfunction]
fn net_probs<'py>(
    py: Python<'py>,
    preset: &Bound<'py, PyAny>,
    obs: &Bound<'py, PyAny>,
    masks: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    use crate::action::NUM_ACTIONS;
    use crate::observation::OBS_SIZE;
    let preset = args::text(preset, "preset", "a preset name (str)")?;
    let w = bots::net1::weights().map_err(pyo3::exceptions::PyRuntimeError::new_err)?;
    let policy = w.by_name(&preset).map_err(PyValueError::new_err)?;
    let obs = super::convert::array_arg::<f32, numpy::Ix2>(obs, "obs", &format!("(B, {OBS_SIZE})"))?;
    let masks = super::convert::array_arg::<bool, numpy::Ix2>(masks, "masks", &format!("(B, {NUM_ACTIONS})"))?;
    let borrowed =
        |what: &str| pyo3::exceptions::PyRuntimeError::new_err(format!("{what} is borrowed mutably elsewhere"));
    let obs: PyReadonlyArray2<'py, f32> = numpy::PyArrayMethods::try_readonly(&obs).map_err(|_| borrowed("obs"))?;
    let masks: PyReadonlyArray2<'py, bool> =
        numpy::PyArrayMethods::try_readonly(&masks).map_err(|_| borrowed("masks"))?;
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

/// The `net` bot's weights file (format `eights-net-v2`, see `crate::bots::net`) as bytes:
/// the shipped file, or the one the environment variable `EIGHTS_NET_WEIGHTS` names.
#[pyfunction]
fn card_net_weights(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyBytes>> {
    let bytes = bots::net::weights_file().map_err(pyo3::exceptions::PyRuntimeError::new_err)?;
    Ok(pyo3::types::PyBytes::new(py, bytes))
}

/// The logits of the `net` bot's network (or of the `eights-net-v2` file `weights`), float32
/// (B, NUM_ACTIONS) with illegal actions at -1e9, from float32 observations (B, OBS_SIZE), bool
/// masks (B, NUM_ACTIONS) and each row's rules encoding (B, RULES_SIZE): the Rust forward pass
/// that the bot plays, for comparison with PyTorch's.
#[pyfunction]
#[pyo3(signature = (obs, masks, rules, weights=None))]
fn card_net_logits<'py>(
    py: Python<'py>,
    obs: &Bound<'py, PyAny>,
    masks: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyAny>,
    weights: Option<&[u8]>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    use crate::action::{ActionMask, NUM_ACTIONS};
    use crate::observation::OBS_SIZE;
    use crate::rules::RULES_SIZE;
    let parsed;
    let net = match weights {
        Some(bytes) => {
            parsed = bots::net::CardNet::parse(bytes).map_err(PyValueError::new_err)?;
            &parsed
        }
        None => bots::net::weights().map_err(pyo3::exceptions::PyRuntimeError::new_err)?,
    };
    let obs = super::convert::array_arg::<f32, numpy::Ix2>(obs, "obs", &format!("(B, {OBS_SIZE})"))?;
    let masks = super::convert::array_arg::<bool, numpy::Ix2>(masks, "masks", &format!("(B, {NUM_ACTIONS})"))?;
    let rules = super::convert::array_arg::<f32, numpy::Ix2>(rules, "rules", &format!("(B, {RULES_SIZE})"))?;
    let borrowed =
        |what: &str| pyo3::exceptions::PyRuntimeError::new_err(format!("{what} is borrowed mutably elsewhere"));
    let obs: PyReadonlyArray2<'py, f32> = numpy::PyArrayMethods::try_readonly(&obs).map_err(|_| borrowed("obs"))?;
    let masks: PyReadonlyArray2<'py, bool> =
        numpy::PyArrayMethods::try_readonly(&masks).map_err(|_| borrowed("masks"))?;
    let rules: PyReadonlyArray2<'py, f32> =
        numpy::PyArrayMethods::try_readonly(&rules).map_err(|_| borrowed("rules"))?;
    let (o, m, r) = (obs.as_array(), masks.as_array(), rules.as_array());
    let b = o.nrows();
    let shape_err = |what: &str, cols: usize, got: &[usize]| {
        PyValueError::new_err(format!("{what} must have shape ({b}, {cols}), got {got:?}"))
    };
    if o.ncols() != OBS_SIZE {
        return Err(shape_err("obs", OBS_SIZE, o.shape()));
    }
    if m.ncols() != NUM_ACTIONS || m.nrows() != b {
        return Err(shape_err("masks", NUM_ACTIONS, m.shape()));
    }
    if r.ncols() != RULES_SIZE || r.nrows() != b {
        return Err(shape_err("rules", RULES_SIZE, r.shape()));
    }
    if o.iter().chain(r.iter()).any(|v| !v.is_finite()) {
        return Err(PyValueError::new_err("obs and rules must be finite"));
    }
    let mut am = vec![ActionMask::default(); b];
    for (k, row) in m.outer_iter().enumerate() {
        for (a, &ok) in row.iter().enumerate() {
            if ok {
                am[k].set(a);
            }
        }
    }
    let l = py.detach(|| net.logits(o, &am, r));
    array2(py, l.nrows(), l.ncols(), l.iter().copied())
}

/// Add the bot classes and functions to `eights._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRandomBot>()?;
    m.add_class::<PyBot>()?;
    m.add_function(wrap_pyfunction!(random_selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(parse_bot, m)?)?;
    m.add_function(wrap_pyfunction!(bot_is_batched, m)?)?;
    m.add_function(wrap_pyfunction!(bot_plays_every_rule_set, m)?)?;
    m.add_function(wrap_pyfunction!(bot_file_metadata, m)?)?;
    m.add_function(wrap_pyfunction!(determinize, m)?)?;
    m.add_function(wrap_pyfunction!(check_bot_rules, m)?)?;
    m.add_function(wrap_pyfunction!(net_presets, m)?)?;
    m.add_function(wrap_pyfunction!(net_probs, m)?)?;
    m.add_function(wrap_pyfunction!(net_weights, m)?)?;
    m.add_function(wrap_pyfunction!(card_net_weights, m)?)?;
    m.add_function(wrap_pyfunction!(card_net_logits, m)?)?;
    m.add("BOT_NAMES_HELP", BOT_SPEC_HELP)?;
    Ok(())
}
