//! Bindings of [`crate::game`]: the `Game` class (one table: state, legal actions, step,
//! observations, snapshots), `game_from_spec` (a game from a complete rules specification) and
//! `derive_seed`, the engine's seed derivation. Rules are read by `rules::rules_arg` (a preset name or an
//! `eights.Rules`, plus overrides); everything the game does is delegated to the core `Game`.

use super::args::{self, int_in};
use super::convert::{
    IllegalActionError, array1, array2, as_table, from_json, game_err, parse_cards, random_seed, rules_err,
    small_array1, to_json,
};
use super::rules::rules_arg;
use crate::action::{Action, ActionMask, NUM_ACTIONS};
use crate::card::{Card, Rank, Suit};
use crate::game::{Game, GameError, Position, Snapshot};
use crate::observation::{self, OBS_SIZE};
use crate::rules::{self, MAX_PLAYERS, RULE_FEATURE_NAMES, RULE_FEATURES, RULES_SIZE, Rules};
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};
use std::sync::Arc;

/// One table of a Crazy Eights-family game (multi-agent API).
///
/// `Game(preset="crazy_eights", num_players=2, seed=None, rules=None)`: `preset` is a preset
/// name or an `eights.Rules`; `rules` is a dict of overrides of its rules (nested tables,
/// e.g. `{"deal": {"hand_size": 5}}`, or `{"variants": ["multiple_cards"]}` for a documented
/// variant). A hand is dealt at once.
#[pyclass(name = "Game", module = "eights._core")]
#[derive(Clone)]
pub(super) struct PyGame {
    pub(super) g: Game,
    /// Where the actions of `record()` start from; kept here, not in the engine state.
    origin: Origin,
    /// Every action since `origin`, with the seat that took it.
    actions: Vec<(u8, u16)>,
}

/// The start of a game record: a seeded deal (optionally with a fixed deck), or an explicit
/// state (`from_position`, `from_dict`, `determinize`).
#[derive(Clone)]
enum Origin {
    Deal { seed: u64, deck: Vec<Card> },
    State(Box<Snapshot>),
}

/// Version of the `Game.record()` format.
const RECORD_FORMAT: u32 = 1;

/// What an action argument may be, for error messages.
const ACTION_HELP: &str = "an int id or an action string such as \"play 8H\"";

/// The preset of `Game()` without arguments.
const DEFAULT_PRESET: &str = "crazy_eights";

/// `DEFAULT_PRESET` as the Python string `Game.__new__` receives when `preset` is left out.
fn default_preset() -> Py<PyAny> {
    Python::attach(|py| PyString::new(py, DEFAULT_PRESET).into_any().unbind())
}

impl PyGame {
    /// A game dealt from `seed` (and `deck`): its record starts there.
    pub(super) fn dealt(g: Game, seed: u64, deck: Vec<Card>) -> Self {
        PyGame { g, origin: Origin::Deal { seed, deck }, actions: Vec::new() }
    }

    /// A game whose record starts from its current state.
    pub(super) fn at(g: Game) -> Self {
        let snap = Box::new(g.snapshot());
        PyGame { g, origin: Origin::State(snap), actions: Vec::new() }
    }

    fn parse_action(&self, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        if action.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err("action must be an int id or an action string, not bool"));
        }
        if let Some(s) = args::text_if_str(action, "action", ACTION_HELP)? {
            return match Action::parse(&s) {
                Some(a) => Ok(a.id()),
                None => Err(IllegalActionError::new_err(format!(
                    "unknown action string {}; legal actions now: {}",
                    rules::quoted(&s),
                    self.legal_strings().join(", ")
                ))),
            };
        }
        let not_an_action = || -> PyResult<PyErr> {
            Ok(PyTypeError::new_err(format!(
                "action must be an int id in [0, {}] or an action string such as \"play 8H\", got {}",
                NUM_ACTIONS - 1,
                action.get_type().name()?
            )))
        };
        if action.is_instance_of::<PyInt>() || action.hasattr("__index__")? {
            // An array of one element has `__index__` but refuses it ("only integer scalar
            // arrays..."): the same error as any other value that is no action.
            let index = match action.call_method0("__index__") {
                Ok(index) => index,
                Err(_) => return Err(not_an_action()?),
            };
            let id: i64 = index.extract().map_err(|_| {
                IllegalActionError::new_err(format!(
                    "action id {} is out of range: ids are in [0, {}]",
                    index.str().map_or_else(|_| "?".into(), |t| t.to_string()),
                    NUM_ACTIONS - 1
                ))
            })?;
            // NUM_ACTIONS (197) fits i64; after this check `id` is in 0..197, so the cast
            // below is exact.
            if id < 0 || id >= NUM_ACTIONS as i64 {
                return Err(game_err(GameError::OutOfRange(id)));
            }
            return Ok(id as usize);
        }
        Err(not_an_action()?)
    }

    fn legal_strings(&self) -> Vec<String> {
        self.g.legal_action_vec().into_iter().filter_map(Action::from_id).map(|a| a.to_string()).collect()
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (preset=default_preset(), num_players=2, seed=None, rules=None))]
    #[pyo3(text_signature = "(preset='crazy_eights', num_players=2, seed=None, rules=None)")]
    fn new(
        py: Python<'_>,
        preset: Py<PyAny>,
        #[pyo3(from_py_with = args::num_players)] num_players: usize,
        #[pyo3(from_py_with = args::opt_seed)] seed: Option<u64>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let r = rules_arg(py, preset.bind(py), num_players, rules)?;
        let seed = seed.unwrap_or_else(random_seed);
        Ok(PyGame::dealt(Game::new(r, seed), seed, Vec::new()))
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
        #[pyo3(from_py_with = args::opt_seed)] seed: Option<u64>,
        #[pyo3(from_py_with = args::deck)] deck: Option<Vec<String>>,
    ) -> PyResult<()> {
        let cards = parse_cards(&deck.unwrap_or_default(), "deck")?;
        let seed = seed.unwrap_or_else(random_seed);
        self.g.reset(seed, &cards).map_err(game_err)?;
        self.origin = Origin::Deal { seed, deck: cards };
        self.actions.clear();
        Ok(())
    }

    /// Build an arbitrary mid-hand position (analysis, puzzles, tests). `hands`: one list of
    /// card strings per seat, none empty (a seat with no cards has gone out; only with an
    /// empty stock under countdown rules or a card one cannot go out on may one sit empty);
    /// `discard`: bottom to top (last = top card; the cards above the
    /// bottom one count as played this hand, so a pile of one card is a start card no one has
    /// covered yet); `stock`: next drawn
    /// first, or None to shuffle the rest of the pack into it with `seed` (when given, any
    /// unlisted cards are out of play). `pending_draw` > 0 puts a draw penalty of the top
    /// card's kind on `current_player`. `wild_rank` ("2" to "9", "T" or "10") sets the hand's
    /// wild rank under zodiac's `wild_instapik` variant (None draws it with `seed`). `preset`
    /// is a preset name or an `eights.Rules` built on a preset.
    #[staticmethod]
    #[pyo3(signature = (preset, num_players, *, hands, discard, stock=None, current_player=0, direction=1, nominated_suit=None, pending_draw=0, dealer=None, seed=0, rules=None, scores=None, rogue=None, wild_rank=None))]
    #[allow(clippy::too_many_arguments)]
    fn from_position(
        py: Python<'_>,
        preset: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::num_players)] num_players: usize,
        #[pyo3(from_py_with = args::hands)] hands: Vec<Vec<String>>,
        #[pyo3(from_py_with = args::discard)] discard: Vec<String>,
        #[pyo3(from_py_with = args::stock)] stock: Option<Vec<String>>,
        #[pyo3(from_py_with = args::current_player)] current_player: usize,
        #[pyo3(from_py_with = args::direction)] direction: i8,
        #[pyo3(from_py_with = args::nominated_suit)] nominated_suit: Option<String>,
        #[pyo3(from_py_with = args::pending_draw)] pending_draw: u16,
        #[pyo3(from_py_with = args::dealer)] dealer: Option<usize>,
        #[pyo3(from_py_with = args::seed)] seed: u64,
        rules: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::scores)] scores: Option<Vec<i32>>,
        #[pyo3(from_py_with = args::rogue)] rogue: Option<Vec<String>>,
        #[pyo3(from_py_with = args::wild_rank)] wild_rank: Option<String>,
    ) -> PyResult<Self> {
        // Seats beyond the table and direction 0 are refused by Game::from_position.
        let r = rules_arg(py, preset, num_players, rules)?;
        // An `eights.Rules` from a complete specification has no preset to start from: refused
        // here as it always was (its `preset` is None).
        if !preset.is_instance_of::<PyString>() && preset.getattr("preset")?.is_none() {
            return Err(PyTypeError::new_err(
                "Game.from_position needs rules built on a preset (Rules(preset, ...) or a TOML file with inherits = \"<preset>\")",
            ));
        }
        let nominated = match nominated_suit {
            None => None,
            Some(s) => Some(Suit::parse(&s).ok_or_else(|| {
                PyValueError::new_err(format!("invalid suit {}: use C, D, H or S", rules::quoted(&s)))
            })?),
        };
        let wild_rank = match wild_rank {
            None => None,
            Some(s) => Some(Rank::parse(&s).ok_or_else(|| {
                PyValueError::new_err(format!("wild_rank: {} is not a rank (use 2 to 9, T or 10)", rules::quoted(&s)))
            })?),
        };
        let pos = Position {
            hands: hands
                .iter()
                .enumerate()
                .map(|(i, h)| parse_cards(h, &format!("hands[{i}]")))
                .collect::<PyResult<_>>()?,
            discard: parse_cards(&discard, "discard")?,
            stock: stock.map(|s| parse_cards(&s, "stock")).transpose()?,
            current_player,
            direction,
            nominated_suit: nominated,
            pending_draw,
            dealer,
            seed,
            scores,
            rogue: parse_cards(&rogue.unwrap_or_default(), "rogue")?,
            wild_rank,
        };
        Ok(PyGame::at(Game::from_position(r, &pos).map_err(game_err)?))
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
        args::seat_in(p, "player", self.g.num_players())
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
    /// The rank that is wild this hand under zodiac's `wild_instapik` variant ("2" … "9",
    /// "T"), known to every player; None under every other rule set.
    #[getter]
    fn wild_rank(&self) -> Option<String> {
        self.g.wild_rank().map(|r| r.letter().to_string())
    }

    /// The suits seat `p`'s hand declined this hand, as letters in C, D, H, S order: in force
    /// when it drew or passed instead of playing, and not played from it since (public; the
    /// observation's `declined` slice).
    fn declined_suits(&self, p: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
        let p = self.check_seat(p)?;
        let d = self.g.declined_suits(p);
        Ok(["C", "D", "H", "S"].into_iter().enumerate().filter(|&(s, _)| d >> s & 1 != 0).map(|(_, l)| l).collect())
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
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let mut m = ActionMask::default();
        self.g.legal_actions(&mut m);
        let mut v = [false; NUM_ACTIONS];
        for id in m.iter() {
            // Mask ids are below NUM_ACTIONS (the mask's own width); `get_mut` states it.
            if let Some(x) = v.get_mut(id) {
                *x = true;
            }
        }
        small_array1(py, NUM_ACTIONS, &v)
    }
    /// Apply an action: an int id or a string such as "play 8H", "8H", "suit H", "draw".
    /// Raises IllegalActionError (a ValueError) naming the legal actions, leaving the game
    /// unchanged, if it is not legal now or the game is over.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = self.parse_action(action)?;
        // Seats are below MAX_PLAYERS (10) and ids below NUM_ACTIONS (197): both casts are exact.
        let seat = self.g.current_player().map_or(u8::MAX, |p| p as u8);
        self.g.step(id).map_err(game_err)?;
        self.actions.push((seat, id as u16));
        Ok(())
    }
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        // In 0..NUM_ACTIONS (197): the cast to usize below is exact.
        let id = int_in(action, "action", 0u64, NUM_ACTIONS as u64 - 1)?;
        Action::from_id(id as usize)
            .map(|a| a.to_string())
            .ok_or_else(|| PyValueError::new_err(format!("action must be in [0, {}], got {id}", NUM_ACTIONS - 1)))
    }
    fn string_to_action(&self, #[pyo3(from_py_with = args::action_string)] s: String) -> PyResult<usize> {
        Action::parse(&s).map(Action::id).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown action string {}: use e.g. \"play 8H\", \"suit H\", \"draw\", \"accept\", \"pass\", \"end\", \"announce\"",
                rules::quoted(&s)
            ))
        })
    }
    /// Returns per seat: kind="win_loss" (winner +1, others -1/(n-1), zeros without a winner
    /// or before the end) or kind="score" (zero-sum points against the table mean / 100,
    /// higher is better; presets without points fall back to win_loss).
    #[pyo3(signature = (kind=false), text_signature = "($self, kind='win_loss')")]
    fn returns<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = args::returns_score)] kind: bool,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let score = kind;
        let mut out = [0.0; MAX_PLAYERS];
        let n = self.g.num_players();
        self.g.returns(&mut out, score);
        small_array1(py, n, &out)
    }
    /// Player `p`'s observation (float32, shape (observation_size,)); see observation_spec().
    /// With `obs_rules=True` the rules encoding follows it (shape (OBS_SIZE + RULES_SIZE,),
    /// the second part as `rules_encoding()`).
    #[pyo3(signature = (p, obs_rules=false))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        p: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = args::obs_rules)] obs_rules: bool,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let p = self.check_seat(p)?;
        if obs_rules {
            let mut v = vec![0f32; OBS_SIZE + RULES_SIZE];
            observation::encode(&self.g, p, &mut v[..OBS_SIZE]);
            self.g.rules().encode(&mut v[OBS_SIZE..]);
            return array1(py, OBS_SIZE + RULES_SIZE, v);
        }
        let mut v = [0f32; OBS_SIZE];
        observation::encode(&self.g, p, &mut v);
        small_array1(py, OBS_SIZE, &v)
    }
    /// The rules encoding of this game's rules (float32, shape (RULES_SIZE,)); see
    /// `eights.Rules.encode` and `docs/layouts.md`.
    fn rules_encoding<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let mut v = vec![0f32; RULES_SIZE];
        self.g.rules().encode(&mut v);
        array1(py, RULES_SIZE, v)
    }
    /// Named slices of the observation: name -> (start, stop).
    fn observation_spec<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        super::observation::spec_dict(py)
    }
    /// Per-card rule features, float32 array (54, n_features); names in rules_feature_names().
    fn rules_features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let mut v = [0f32; 54 * RULE_FEATURES];
        self.g.rules_features(&mut v);
        array2(py, 54, RULE_FEATURES, v)
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
        Clone::clone(self)
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
        let snap = snapshot_from_value(v).map_err(|e| PyValueError::new_err(format!("invalid game state: {e}")))?;
        Ok(PyGame::at(Game::from_snapshot(snap).map_err(game_err)?))
    }
    /// The `(seat, action id)` pairs played since the deal (or since the state the game was
    /// built from), oldest first.
    fn history(&self) -> Vec<(u8, u16)> {
        self.actions.clone()
    }
    /// A JSON-compatible record of the game: `format`, `preset`, `players`, `rules` (the
    /// complete rules), where it starts (`seed` and `deck` of the deal, or `start`, a
    /// `to_dict()` state, for games built from a position) and `actions`, the `[seat,
    /// action id]` pairs played since. `Game.from_record(record)` replays it.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("format", RECORD_FORMAT)?;
        d.set_item("preset", &self.g.rules().spec.name)?;
        d.set_item("players", self.g.num_players())?;
        d.set_item("rules", from_json(py, &self.g.rules().spec)?)?;
        match &self.origin {
            Origin::Deal { seed, deck } => {
                d.set_item("seed", *seed)?;
                d.set_item("deck", deck.iter().map(|c| c.to_string()).collect::<Vec<_>>())?;
                d.set_item("start", py.None())?;
            }
            Origin::State(snap) => {
                d.set_item("seed", py.None())?;
                d.set_item("deck", py.None())?;
                d.set_item("start", from_json(py, snap.as_ref())?)?;
            }
        }
        let actions: Vec<(u8, u16)> = self.actions.clone();
        d.set_item("actions", actions)?;
        Ok(d)
    }
    /// Replay a `record()`: the same deal (or start state), then its actions, the first `upto`
    /// of them when given. Raises ValueError when the record is malformed, or an action is
    /// illegal or taken by another seat than recorded (naming the action's index).
    #[staticmethod]
    #[pyo3(signature = (record, upto=None))]
    fn from_record(
        py: Python<'_>,
        record: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::upto)] upto: Option<usize>,
    ) -> PyResult<Self> {
        let bad = |m: String| PyValueError::new_err(format!("invalid game record: {m}"));
        if !record.is_instance_of::<pyo3::types::PyDict>() {
            // (Before its values are read: 2**64 was "integer ... is out of range".)
            return Err(bad(format!("expected a dict, got {}", record.get_type().name()?)));
        }
        let v = to_json(py, record, "record")?;
        let obj = v.as_object().ok_or_else(|| bad("expected a dict".into()))?;
        let field = |k: &str| obj.get(k).filter(|x| !x.is_null());
        // A record without a format is read as format 1 (what `record()` writes).
        if let Some(f) = field("format").filter(|f| f.as_u64() != Some(u64::from(RECORD_FORMAT))) {
            return Err(bad(format!("'format' is {f}; this version reads format {RECORD_FORMAT}")));
        }
        let n = field("players")
            .and_then(|x| x.as_u64())
            .ok_or_else(|| bad("'players' must be a whole number of seats".into()))?;
        let actions: Vec<(u8, u16)> = serde_json::from_value(field("actions").cloned().unwrap_or_default())
            .map_err(|e| bad(format!("'actions' must be a list of [seat, action id] pairs ({e})")))?;
        let mut game = if let Some(start) = field("start") {
            let snap = snapshot_from_value(start.clone()).map_err(|e| bad(format!("'start': {e}")))?;
            PyGame::at(Game::from_snapshot(snap).map_err(game_err)?)
        } else {
            let spec = field("rules").ok_or_else(|| bad("'rules' is missing".into()))?;
            complete_rules(spec).map_err(bad)?;
            let spec = rules::spec_from_value(spec.clone()).map_err(rules_err)?;
            let r = Rules::from_spec(spec, n as usize).map_err(|e| match e.field() {
                // The record's field is 'players'; 'num_players' is the constructors' argument.
                Some("num_players") => bad(format!("'players': {e}")),
                _ => rules_err(e),
            })?;
            let seed = field("seed")
                .and_then(|x| x.as_u64())
                .ok_or_else(|| bad("'seed' must be an integer in [0, 2**64)".into()))?;
            let deck: Vec<String> = serde_json::from_value(field("deck").cloned().unwrap_or(serde_json::json!([])))
                .map_err(|e| bad(format!("'deck' must be a list of card strings ({e})")))?;
            let deck = parse_cards(&deck, "the record's 'deck'")?;
            let mut g = Game::new(Arc::new(r), seed);
            g.reset(seed, &deck).map_err(game_err)?;
            PyGame::dealt(g, seed, deck)
        };
        check_labels(&game.g, obj, field("start").is_some()).map_err(bad)?;
        let stop = upto.unwrap_or(actions.len());
        if stop > actions.len() {
            return Err(PyValueError::new_err(format!("upto={stop} but the record has {} actions", actions.len())));
        }
        // stop <= actions.len() (checked above).
        for (k, &(seat, id)) in actions[..stop].iter().enumerate() {
            // A seat (below MAX_PLAYERS) fits u8; `id` is a u16 widened to usize.
            let Some(to_act) = game.g.current_player().map(|p| p as u8) else {
                return Err(bad(format!("action {k} was taken by seat {seat}, but the game was over before it")));
            };
            if to_act != seat {
                return Err(bad(format!("action {k} was taken by seat {seat}, but seat {to_act} is to act")));
            }
            game.g.step(id as usize).map_err(|e| bad(format!("action {k} ({id}) does not replay: {e}")))?;
            game.actions.push((seat, id));
        }
        Ok(game)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyAny>,))> {
        let py = slf.py();
        let ctor = py.get_type::<PyGame>().getattr("from_dict")?;
        let d = slf.borrow().to_dict(py)?;
        Ok((ctor, (d,)))
    }
}

/// The fields of a record that describe the game it builds must agree with it: `preset`
/// (when given) names its rules, `players` its seats, and the `rules` of a record that
/// starts from a `start` state are that state's rules. The viewer and `replay` show these
/// labels, so a record that contradicts itself is refused rather than shown under a name
/// it does not play.
fn check_labels(g: &Game, obj: &serde_json::Map<String, serde_json::Value>, from_start: bool) -> Result<(), String> {
    let field = |k: &str| obj.get(k).filter(|x| !x.is_null());
    let name = &g.rules().spec.name;
    if let Some(p) = field("preset") {
        if p.as_str() != Some(name.as_str()) {
            return Err(format!(
                "'preset' is {}, but its rules are named {}",
                p.as_str().map_or_else(|| rules::cut(&p.to_string()), rules::quoted),
                rules::quoted(name)
            ));
        }
    }
    if from_start {
        let seats = g.num_players();
        if field("players").and_then(|x| x.as_u64()) != Some(seats as u64) {
            return Err(format!("'players' must be {seats}, the seats of its 'start' state"));
        }
        // Compared as specifications, so a table that spells a default out still agrees.
        let same = |r: &serde_json::Value| rules::spec_from_value(r.clone()).is_ok_and(|r| r == g.rules().spec);
        if field("rules").is_some_and(|r| !same(r)) {
            return Err("'rules' differ from the rules of its 'start' state".into());
        }
    }
    Ok(())
}

/// A `to_dict()` state as a [`Snapshot`]. Its `rules` must be the complete rules a state
/// records (a table with every top-level field): serde would fill the fields of a partial
/// table, or of `{}` or `[]`, with blank defaults (no name, no special cards) and play on.
fn snapshot_from_value(v: serde_json::Value) -> Result<Snapshot, String> {
    if let Some(r) = v.get("rules") {
        complete_rules(r)?;
    }
    // The path of a bad value goes into the message (`current: invalid value: integer -1`).
    serde_path_to_error::deserialize(v).map_err(|e| {
        let path = e.path().to_string();
        if path == "." { e.into_inner().to_string() } else { format!("{path}: {}", e.into_inner()) }
    })
}

/// Refuse a rules table that is not complete (see [`snapshot_from_value`]), naming what is
/// missing.
fn complete_rules(r: &serde_json::Value) -> Result<(), String> {
    let Some(m) = r.as_object() else {
        return Err(format!("'rules' must be the complete rules of the game (a dict), got {}", json_kind(r)));
    };
    if rules::is_resolved(r) {
        return Ok(());
    }
    let missing: Vec<&str> =
        rules::top_level_fields().iter().filter(|k| !m.contains_key(*k)).map(String::as_str).collect();
    let more = if missing.len() > 4 { format!(" and {} more", missing.len() - 4) } else { String::new() };
    Err(format!(
        "'rules' must be the complete rules of the game, as to_dict() and record() write them; missing: {}{more}",
        missing[..missing.len().min(4)].join(", ")
    ))
}

fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "None",
        serde_json::Value::Bool(_) => "a bool",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "a list",
        serde_json::Value::Object(_) => "a dict",
    }
}

/// The seed of item `i` derived from a base seed (SplitMix64), as used for arena deals.
#[pyfunction]
fn derive_seed(seed: &Bound<'_, PyAny>, i: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(crate::game::derive_seed(int_in(seed, "seed", 0u64, u64::MAX)?, int_in(i, "i", 0u64, u64::MAX)?))
}

/// A new `Game` from a complete rules specification (as `Rules.to_dict()` or
/// `Game.rules_dict()` return it; variants it lists are taken as already applied). A dict
/// with `inherits = "<preset>"` is resolved first. Raises `RulesError` naming the field.
#[pyfunction]
#[pyo3(signature = (spec, num_players=2, seed=None))]
fn game_from_spec(
    py: Python<'_>,
    spec: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = args::num_players)] num_players: usize,
    #[pyo3(from_py_with = args::opt_seed)] seed: Option<u64>,
) -> PyResult<PyGame> {
    let s = rules::complete_spec(as_table(py, spec, "spec")?).map_err(rules_err)?;
    let r = Rules::from_spec(s, num_players).map_err(rules_err)?;
    let seed = seed.unwrap_or_else(random_seed);
    Ok(PyGame::dealt(Game::new(Arc::new(r), seed), seed, Vec::new()))
}

/// Add the `Game` class, `game_from_spec` and `derive_seed` to `eights._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_function(wrap_pyfunction!(game_from_spec, m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)
}
