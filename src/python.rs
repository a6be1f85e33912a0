//! PyO3 bindings: thin newtypes over the core, exposed as the extension `eights._core`.
//!
//! Conversions live here and nowhere else: card strings, rule overrides (a Python dict,
//! passed through JSON into the serde rules model), numpy arrays, and errors
//! (`IllegalActionError` and `RulesError`, both `ValueError` subclasses).

use crate::action::{Action, ActionMask, NUM_ACTIONS};
use crate::bots::{self, RandomBot};
use crate::card::{Card, Suit};
use crate::game::{Game, GameError, Position, Snapshot};
use crate::observation::{self, OBS_SIZE};
use crate::rules::{self, RULE_FEATURE_NAMES, RULE_FEATURES, Rules};
use numpy::{PyArray1, PyArray2};
use py_args::int_in;
use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};
use std::sync::Arc;

#[path = "py_args.rs"]
pub(crate) mod py_args;
#[path = "py_bots.rs"]
mod py_bots;
#[path = "py_rules.rs"]
mod py_rules;

create_exception!(
    _core,
    IllegalActionError,
    PyValueError,
    "An action that is not legal now (or a step after the game ended). The game is unchanged."
);
create_exception!(_core, RulesError, PyValueError, "Invalid rules: the message names the offending field.");

fn rules_err(e: rules::RulesError) -> PyErr {
    match e {
        rules::RulesError::UnknownPreset { .. } => PyValueError::new_err(e.to_string()),
        _ => RulesError::new_err(e.to_string()),
    }
}

fn game_err(e: GameError) -> PyErr {
    match e {
        GameError::IllegalAction { .. } | GameError::GameOver(_) | GameError::OutOfRange(_) => {
            IllegalActionError::new_err(e.to_string())
        }
        _ => PyValueError::new_err(e.to_string()),
    }
}

fn parse_card(s: &str) -> PyResult<Card> {
    s.parse::<Card>().map_err(|e| PyValueError::new_err(e.to_string()))
}

fn parse_cards(v: &[String]) -> PyResult<Vec<Card>> {
    v.iter().map(|s| parse_card(s)).collect()
}

/// A Python value as JSON. For rules (`what` = "rules", "spec", "overlay") an unusable
/// value (NaN, a date, a huge integer, too deep a nesting) is a `RulesError` naming its
/// field; for a game state a `ValueError` naming it.
fn to_json(_py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<serde_json::Value> {
    py_args::to_value(obj).map_err(|e| {
        if what == "state dict" {
            PyValueError::new_err(format!("invalid game state: {}", e.text()))
        } else if e.path.is_empty() {
            RulesError::new_err(format!("invalid {what}: {}", e.message))
        } else {
            RulesError::new_err(format!("invalid rules field '{}': {}", e.path, e.message))
        }
    })
}

fn from_json<'py>(py: Python<'py>, v: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(v).map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    h.finish()
}

/// The rules of `preset` with overrides for `num_players` (already checked to be in
/// `[2, MAX_PLAYERS]` by the `py_args::num_players` extractor).
pub(crate) fn load_rules(
    py: Python<'_>,
    preset: &str,
    num_players: usize,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Arc<Rules>> {
    let over = match rules {
        Some(r) if !r.is_none() => {
            if !r.is_instance_of::<PyDict>() {
                return Err(PyTypeError::new_err(
                    "rules must be a dict of rule overrides, e.g. {\"deal\": {\"hand_size\": 5}}",
                ));
            }
            Some(to_json(py, r, "rules")?)
        }
        _ => None,
    };
    Rules::load(preset, num_players, over.as_ref()).map(Arc::new).map_err(rules_err)
}

/// Names of the built-in presets.
#[pyfunction]
fn presets() -> Vec<&'static str> {
    rules::preset_names()
}

/// The resolved rules of a preset (with optional overrides) as a dict.
#[pyfunction]
#[pyo3(signature = (preset, rules=None))]
fn preset_rules<'py>(py: Python<'py>, preset: &str, rules: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
    let over = match rules {
        Some(r) if !r.is_none() => Some(to_json(py, r, "rules")?),
        _ => None,
    };
    let spec = rules::load_spec(preset, over.as_ref()).map_err(rules_err)?;
    from_json(py, &spec)
}

/// The TOML text of a preset file.
#[pyfunction]
fn preset_toml(preset: &str) -> PyResult<&'static str> {
    rules::preset_toml(preset).map_err(rules_err)
}

/// Play `games` random-vs-random games in Rust (the GIL is released). Game `i` is dealt
/// from a seed derived from `(seed, i)`. Returns a dict: games, wins (per seat), no_winner,
/// truncated, decisions, seconds.
#[pyfunction]
#[pyo3(signature = (preset, num_players=2, games=1000, seed=0, rules=None))]
fn random_selfplay<'py>(
    py: Python<'py>,
    preset: &str,
    #[pyo3(from_py_with = py_args::num_players)] num_players: usize,
    #[pyo3(from_py_with = py_args::games)] games: u64,
    #[pyo3(from_py_with = py_args::seed)] seed: u64,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = load_rules(py, preset, num_players, rules)?;
    let stats = py.detach(move || bots::random_selfplay(r, games, seed));
    from_json(py, &stats)
}

/// Like `random_selfplay`, with the engine's invariants checked after every decision
/// (`eights::check::check_state`): cards conserved, the legal set equal to the mask and
/// empty exactly at the end, observations finite, the snapshot round trip, zero-sum
/// returns. Returns a dict: games, decisions, truncated, violations and failures (the
/// first few messages). Used by `python -m eights soak`.
#[pyfunction]
#[pyo3(signature = (preset, num_players=2, games=10, seed=0, rules=None))]
fn checked_selfplay<'py>(
    py: Python<'py>,
    preset: &str,
    #[pyo3(from_py_with = py_args::num_players)] num_players: usize,
    #[pyo3(from_py_with = py_args::games)] games: u64,
    #[pyo3(from_py_with = py_args::seed)] seed: u64,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = load_rules(py, preset, num_players, rules)?;
    let stats = py.detach(move || crate::check::checked_selfplay(r, games, seed));
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
    fn new(#[pyo3(from_py_with = py_args::opt_seed)] seed: Option<u64>) -> Self {
        PyRandomBot { bot: RandomBot::new(seed.unwrap_or_else(random_seed)) }
    }

    /// A uniform legal action of `game`'s player to act.
    fn act(&mut self, game: &PyGame) -> PyResult<usize> {
        self.bot.act(&game.g).ok_or_else(|| IllegalActionError::new_err("the game is over: no legal action"))
    }
}

/// One table of a Crazy Eights-family game (multi-agent API).
///
/// `Game(preset, num_players=2, seed=None, rules=None)`: `rules` is a dict of overrides of
/// the preset's rules (nested tables, e.g. `{"deal": {"hand_size": 5}}`, or
/// `{"variants": ["multiple_cards"]}` for a documented variant). A hand is dealt at once.
#[pyclass(name = "Game", module = "eights._core")]
#[derive(Clone)]
struct PyGame {
    g: Game,
}

impl PyGame {
    fn parse_action(&self, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        if action.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err("action must be an int id or an action string, not bool"));
        }
        if action.is_instance_of::<PyString>() {
            let s: String = action.extract()?;
            return match Action::parse(&s) {
                Some(a) => Ok(a.id()),
                None => Err(IllegalActionError::new_err(format!(
                    "unknown action string {s:?}; legal actions now: {}",
                    self.legal_strings().join(", ")
                ))),
            };
        }
        if action.is_instance_of::<PyInt>() || action.hasattr("__index__")? {
            let id: i64 = action
                .call_method0("__index__")?
                .extract()
                .map_err(|_| IllegalActionError::new_err("action id out of range"))?;
            if id < 0 || id >= NUM_ACTIONS as i64 {
                return Err(game_err(GameError::OutOfRange(id)));
            }
            return Ok(id as usize);
        }
        Err(PyTypeError::new_err(format!(
            "action must be an int id (0..{NUM_ACTIONS}) or an action string such as \"play 8H\", got {}",
            action.get_type().name()?
        )))
    }

    fn legal_strings(&self) -> Vec<String> {
        self.g.legal_action_vec().into_iter().filter_map(Action::from_id).map(|a| a.to_string()).collect()
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (preset, num_players=2, seed=None, rules=None))]
    fn new(
        py: Python<'_>,
        preset: &str,
        #[pyo3(from_py_with = py_args::num_players)] num_players: usize,
        #[pyo3(from_py_with = py_args::opt_seed)] seed: Option<u64>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let r = load_rules(py, preset, num_players, rules)?;
        Ok(PyGame { g: Game::new(r, seed.unwrap_or_else(random_seed)) })
    }

    /// Start a new episode. `seed=None` draws a fresh seed. `deck` (list of card strings)
    /// fixes the first cards of the shuffled pack: they are dealt one at a time starting with
    /// seat 0 and going round the table, then the start card is turned, then the stock
    /// follows in the listed order (first listed = next drawn); the rest of the pack follows
    /// in seeded random order. A deck naming an unknown card, or more copies of a card than
    /// the pack holds, raises ValueError and changes nothing.
    #[pyo3(signature = (seed=None, deck=None))]
    fn reset(
        &mut self,
        #[pyo3(from_py_with = py_args::opt_seed)] seed: Option<u64>,
        deck: Option<Vec<String>>,
    ) -> PyResult<()> {
        let cards = parse_cards(&deck.unwrap_or_default())?;
        self.g.reset(seed.unwrap_or_else(random_seed), &cards).map_err(game_err)
    }

    /// Build an arbitrary mid-hand position (analysis, puzzles, tests). `hands`: one list of
    /// card strings per seat; `discard`: bottom to top (last = top card); `stock`: next drawn
    /// first, or None to shuffle the rest of the pack into it with `seed` (when given, any
    /// unlisted cards are out of play). `pending_draw` > 0 puts a draw penalty of the top
    /// card's kind on `current_player`.
    #[staticmethod]
    #[pyo3(signature = (preset, num_players, *, hands, discard, stock=None, current_player=0, direction=1, nominated_suit=None, pending_draw=0, dealer=None, seed=0, rules=None, scores=None, rogue=None))]
    #[allow(clippy::too_many_arguments)]
    fn from_position(
        py: Python<'_>,
        preset: &str,
        #[pyo3(from_py_with = py_args::num_players)] num_players: usize,
        hands: Vec<Vec<String>>,
        discard: Vec<String>,
        stock: Option<Vec<String>>,
        #[pyo3(from_py_with = py_args::current_player)] current_player: usize,
        #[pyo3(from_py_with = py_args::direction)] direction: i8,
        nominated_suit: Option<String>,
        #[pyo3(from_py_with = py_args::pending_draw)] pending_draw: u16,
        #[pyo3(from_py_with = py_args::dealer)] dealer: Option<usize>,
        #[pyo3(from_py_with = py_args::seed)] seed: u64,
        rules: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = py_args::scores)] scores: Option<Vec<i32>>,
        rogue: Option<Vec<String>>,
    ) -> PyResult<Self> {
        // Seats beyond the table and direction 0 are refused by Game::from_position.
        let r = load_rules(py, preset, num_players, rules)?;
        let nominated = match nominated_suit {
            None => None,
            Some(s) => Some(
                Suit::parse(&s)
                    .ok_or_else(|| PyValueError::new_err(format!("invalid suit {s:?}: use C, D, H or S")))?,
            ),
        };
        let pos = Position {
            hands: hands.iter().map(|h| parse_cards(h)).collect::<PyResult<_>>()?,
            discard: parse_cards(&discard)?,
            stock: stock.map(|s| parse_cards(&s)).transpose()?,
            current_player,
            direction,
            nominated_suit: nominated,
            pending_draw,
            dealer,
            seed,
            scores,
            rogue: parse_cards(&rogue.unwrap_or_default())?,
        };
        Ok(PyGame { g: Game::from_position(r, &pos).map_err(game_err)? })
    }

    /// Player to act, or -1 when the game is over or truncated.
    #[getter]
    fn current_player(&self) -> i64 {
        self.g.current_player().map_or(-1, |p| p as i64)
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.g.num_players()
    }
    #[getter]
    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }
    #[getter]
    fn observation_size(&self) -> usize {
        OBS_SIZE
    }
    /// Decision phase: play, chain, nominate, continue, after_draw, ..., game_over.
    #[getter]
    fn phase(&self) -> &'static str {
        self.g.phase().name()
    }
    #[getter]
    fn preset(&self) -> String {
        self.g.rules().spec.name.clone()
    }
    #[getter]
    fn top_card(&self) -> Option<String> {
        self.g.top_card().map(|c| c.to_string())
    }
    #[getter]
    fn active_suit(&self) -> Option<String> {
        self.g.active_suit().map(|s| s.letter().to_string())
    }
    #[getter]
    fn nominated_suit(&self) -> Option<String> {
        self.g.nominated_suit().map(|s| s.letter().to_string())
    }
    #[getter]
    fn pending_draw(&self) -> u16 {
        self.g.pending_draw()
    }
    #[getter]
    fn direction(&self) -> i8 {
        self.g.direction()
    }
    #[getter]
    fn stock_size(&self) -> usize {
        self.g.stock().len()
    }
    #[getter]
    fn discard_size(&self) -> usize {
        self.g.discard().len()
    }
    #[getter]
    fn hand_sizes(&self) -> Vec<usize> {
        (0..self.g.num_players()).map(|p| self.g.hand(p).len()).collect()
    }
    #[getter]
    fn is_terminal(&self) -> bool {
        self.g.is_terminal()
    }
    #[getter]
    fn is_truncated(&self) -> bool {
        self.g.is_truncated()
    }
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.g.winner()
    }
    /// Cumulative match scores.
    #[getter]
    fn scores(&self) -> Vec<i32> {
        self.g.scores().to_vec()
    }
    /// Points each player scored in the last finished hand.
    #[getter]
    fn hand_points(&self) -> Vec<i32> {
        self.g.hand_points().to_vec()
    }
    /// Seats in the order they went out this hand: the winner, and with one_card's
    /// play-for-second rule the second and third places once the hand is over.
    #[getter]
    fn finishing_order(&self) -> Vec<usize> {
        self.g.finishing_order().iter().map(|&p| usize::from(p)).collect()
    }
    #[getter]
    fn decision_count(&self) -> u32 {
        self.g.decisions()
    }
    #[getter]
    fn dealer(&self) -> usize {
        self.g.dealer()
    }
    #[getter]
    fn hands_played(&self) -> u32 {
        self.g.hands_played()
    }
    /// True while the player to act may play any card (free play).
    #[getter]
    fn free_play(&self) -> bool {
        self.g.free_play()
    }

    fn check_seat(&self, p: &Bound<'_, PyAny>) -> PyResult<usize> {
        int_in(p, "player", 0u8, self.g.num_players() as u8 - 1).map(usize::from)
    }

    /// Cards in player `p`'s hand, sorted by card index.
    fn hand(&self, p: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let p = self.check_seat(p)?;
        Ok(self.g.hand(p).iter().map(|c| c.to_string()).collect())
    }
    /// Discard pile, bottom to top.
    fn discard_pile(&self) -> Vec<String> {
        self.g.discard().as_slice().iter().map(|c| c.to_string()).collect()
    }
    /// stalin's rogue pile, bottom to top (empty in other presets).
    fn rogue_pile(&self) -> Vec<String> {
        self.g.rogue().as_slice().iter().map(|c| c.to_string()).collect()
    }
    /// Stock, next drawn first (hidden information: for analysis and tests).
    fn stock(&self) -> Vec<String> {
        self.g.stock().as_slice().iter().rev().map(|c| c.to_string()).collect()
    }
    /// Sorted legal action ids (empty when the game is over).
    fn legal_actions(&self) -> Vec<usize> {
        self.g.legal_action_vec()
    }
    fn legal_action_strings(&self) -> Vec<String> {
        self.legal_strings()
    }
    /// Boolean mask of shape (num_actions,).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut m = ActionMask::default();
        self.g.legal_actions(&mut m);
        let v: Vec<bool> = (0..NUM_ACTIONS).map(|i| m.contains(i)).collect();
        PyArray1::from_vec(py, v)
    }
    /// Apply an action: an int id or a string such as "play 8H", "8H", "suit H", "draw".
    /// Raises IllegalActionError (a ValueError) naming the legal actions, leaving the game
    /// unchanged, if it is not legal now or the game is over.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = self.parse_action(action)?;
        self.g.step(id).map_err(game_err)
    }
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let id = int_in(action, "action", 0u64, NUM_ACTIONS as u64 - 1)?;
        Action::from_id(id as usize)
            .map(|a| a.to_string())
            .ok_or_else(|| PyValueError::new_err(format!("action must be in [0, {}], got {id}", NUM_ACTIONS - 1)))
    }
    fn string_to_action(&self, s: &str) -> PyResult<usize> {
        Action::parse(s).map(Action::id).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown action string {s:?}: use e.g. \"play 8H\", \"suit H\", \"draw\", \"accept\", \"pass\", \"end\", \"announce\""
            ))
        })
    }
    /// Returns per seat: kind="win_loss" (winner +1, others -1/(n-1), zeros without a winner
    /// or before the end) or kind="score" (zero-sum points against the table mean / 100,
    /// higher is better; presets without points fall back to win_loss).
    #[pyo3(signature = (kind="win_loss"))]
    fn returns<'py>(&self, py: Python<'py>, kind: &str) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let score = match kind {
            "win_loss" => false,
            "score" => true,
            _ => {
                return Err(PyValueError::new_err(format!("kind must be \"win_loss\" or \"score\", got {kind:?}")));
            }
        };
        let mut out = vec![0.0; self.g.num_players()];
        self.g.returns(&mut out, score);
        Ok(PyArray1::from_vec(py, out))
    }
    /// Player `p`'s observation (float32, shape (observation_size,)); see observation_spec().
    fn observation<'py>(&self, py: Python<'py>, p: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let p = self.check_seat(p)?;
        let mut v = vec![0f32; OBS_SIZE];
        observation::encode(&self.g, p, &mut v);
        Ok(PyArray1::from_vec(py, v))
    }
    /// Named slices of the observation: name -> (start, stop).
    fn observation_spec<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (n, a, b) in observation::spec() {
            d.set_item(n, (a, b))?;
        }
        Ok(d)
    }
    /// Per-card rule features, float32 array (54, n_features); names in rules_feature_names().
    fn rules_features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let mut v = vec![0f32; 54 * RULE_FEATURES];
        self.g.rules().features(&mut v);
        let rows: Vec<Vec<f32>> = v.chunks(RULE_FEATURES).map(|r| r.to_vec()).collect();
        PyArray2::from_vec2(py, &rows).map_err(|e| PyValueError::new_err(e.to_string()))
    }
    #[staticmethod]
    fn rules_feature_names() -> Vec<&'static str> {
        RULE_FEATURE_NAMES.to_vec()
    }
    /// The full resolved rules as a dict.
    fn rules_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        from_json(py, &self.g.rules().spec)
    }
    /// A text picture of the table with card symbols.
    fn render(&self) -> String {
        self.g.render()
    }
    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, num_players={}, phase={:?}, current_player={})",
            self.g.rules().spec.name,
            self.g.num_players(),
            self.g.phase().name(),
            self.current_player()
        )
    }
    fn __str__(&self) -> String {
        self.g.render()
    }
    /// HTML picture of the table (cards as small inline SVGs), shown by Jupyter; drawn by
    /// `eights.render.game_html`.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("eights.render")?.call_method1("game_html", (slf,))?.extract()
    }
    fn clone(&self) -> Self {
        PyGame { g: self.g.clone() }
    }
    fn __copy__(&self) -> Self {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }
    /// The complete state (rules, cards, RNG) as a JSON-compatible dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        from_json(py, &self.g.snapshot())
    }
    /// Rebuild a game from `to_dict()` output.
    #[staticmethod]
    fn from_dict(py: Python<'_>, d: &Bound<'_, PyAny>) -> PyResult<Self> {
        if !d.is_instance_of::<PyDict>() {
            return Err(PyTypeError::new_err(format!(
                "the state must be a dict (from Game.to_dict()), got {}",
                d.get_type().name()?
            )));
        }
        let v = to_json(py, d, "state dict")?;
        let snap: Snapshot =
            serde_json::from_value(v).map_err(|e| PyValueError::new_err(format!("invalid game state: {e}")))?;
        Ok(PyGame { g: Game::from_snapshot(snap).map_err(game_err)? })
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyAny>,))> {
        let py = slf.py();
        let ctor = py.get_type::<PyGame>().getattr("from_dict")?;
        let d = slf.borrow().to_dict(py)?;
        Ok((ctor, (d,)))
    }
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyRandomBot>()?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(preset_rules, m)?)?;
    m.add_function(wrap_pyfunction!(preset_toml, m)?)?;
    m.add_function(wrap_pyfunction!(random_selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(checked_selfplay, m)?)?;
    py_rules::register(m)?;
    py_bots::register(m)?;
    m.add("IllegalActionError", m.py().get_type::<IllegalActionError>())?;
    m.add("RulesError", m.py().get_type::<RulesError>())?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("OBS_SIZE", OBS_SIZE)?;
    crate::py_vec_env::register(m)?;
    Ok(())
}
