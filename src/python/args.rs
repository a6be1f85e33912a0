//! Argument checks of the Python bindings: integer arguments in range (a bool is refused
//! with `TypeError`, a value out of range is a `ValueError` naming the argument and the
//! allowed range, never an `OverflowError`), and Python objects turned into JSON values
//! with the path of anything JSON cannot hold (NaN, a date, too deep a nesting).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::Value;

/// Deepest nesting of dicts and lists accepted in rules and states (real ones use 4).
pub(crate) const MAX_DEPTH: usize = 32;

/// The Python integer behind `obj` (an `int` or an object with `__index__`, such as a
/// numpy integer); a bool is refused.
///
/// Nothing here allocates on the Rust heap on the way to a valid integer: these checks run
/// on every per-decision call (`observation(p)`), and under memory exhaustion a failed Rust
/// allocation aborts the process where a Python one raises `MemoryError`. (With the abi3
/// build, comparing a Python string to a `&str` copies it into a Rust `String`, so the type
/// name is compared in Python.)
fn index_of<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    if obj.is_exact_instance_of::<PyInt>() {
        return Ok(obj.clone());
    }
    let py = obj.py();
    let type_name = obj.get_type().name()?.into_any();
    let numpy_bool =
        PyAnyMethods::eq(&type_name, intern!(py, "bool_"))? || PyAnyMethods::eq(&type_name, intern!(py, "bool"))?;
    if obj.is_instance_of::<PyBool>() || numpy_bool {
        return Err(PyTypeError::new_err(format!("{name} must be an integer, not bool")));
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(obj.clone());
    }
    if !obj.is_instance_of::<PyFloat>() && obj.hasattr("__index__")? {
        if let Ok(i) = obj.call_method0("__index__") {
            return Ok(i);
        }
    }
    Err(PyTypeError::new_err(format!("{name} must be an integer, got {}", obj.get_type().name()?)))
}

/// An integer argument in `[lo, hi]`.
pub(crate) fn int_in<T>(obj: &Bound<'_, PyAny>, name: &str, lo: T, hi: T) -> PyResult<T>
where
    T: Copy + TryInto<i128> + TryFrom<i128> + std::fmt::Display,
{
    let i = index_of(obj, name)?;
    // The bounds fit i128 for every integer type used here (up to 64 bits).
    let (l, h) = (lo.try_into().unwrap_or(i128::MIN), hi.try_into().unwrap_or(i128::MAX));
    // An integer beyond i128 fails to extract: it is out of range like any other.
    let v = i.extract::<i128>().ok().filter(|v| (l..=h).contains(v));
    match v.and_then(|v| T::try_from(v).ok()) {
        Some(t) => Ok(t),
        None => Err(PyValueError::new_err(format!("{name} must be in {}, got {}", range_text(l, h), i.repr()?))),
    }
}

/// `[lo, hi]` as an error message writes it; the 64-bit range (seeds, counts) as the
/// Python package writes its seed range everywhere, `[0, 2**64)`.
fn range_text(lo: i128, hi: i128) -> String {
    if lo == 0 && hi == i128::from(u64::MAX) { "[0, 2**64)".to_string() } else { format!("[{lo}, {hi}]") }
}

/// A seat of a table of `n` players: an integer in `0..n` (the message says `[0, n - 1]`, as
/// every message of the package gives a range of integers).
pub(crate) fn seat_in(obj: &Bound<'_, PyAny>, name: &str, n: usize) -> PyResult<usize> {
    let i = index_of(obj, name)?;
    match i.extract::<i128>().ok().filter(|&v| v >= 0 && v < n as i128) {
        // In 0..n, and n <= MAX_PLAYERS: the cast is exact.
        Some(v) => Ok(v as usize),
        None => {
            Err(PyValueError::new_err(format!("{name} must be in [0, {}], got {}", n.saturating_sub(1), i.repr()?)))
        }
    }
}

/// An optional integer argument in `[lo, hi]` (`None` stays `None`).
pub(crate) fn opt_int_in<T>(obj: Option<&Bound<'_, PyAny>>, name: &str, lo: T, hi: T) -> PyResult<Option<T>>
where
    T: Copy + TryInto<i128> + TryFrom<i128> + std::fmt::Display,
{
    match obj {
        Some(o) if !o.is_none() => int_in(o, name, lo, hi).map(Some),
        _ => Ok(None),
    }
}

/// Extractors for `#[pyo3(from_py_with = ...)]`: one per argument name, so the message
/// names the argument, and the signature keeps its plain default (`seed=0`, `num_players=2`).
macro_rules! int_args {
    ($($f:ident: $t:ty = $name:literal in $lo:expr, $hi:expr;)*) => {$(
        pub(crate) fn $f(o: &Bound<'_, PyAny>) -> PyResult<$t> {
            int_in(o, $name, $lo, $hi)
        }
    )*};
}

macro_rules! opt_int_args {
    ($($f:ident: $t:ty = $name:literal in $lo:expr, $hi:expr;)*) => {$(
        pub(crate) fn $f(o: &Bound<'_, PyAny>) -> PyResult<Option<$t>> {
            opt_int_in(Some(o), $name, $lo, $hi)
        }
    )*};
}

/// The most games one self-play call plays (the command line's cap too): about six hours of
/// random games on one core; more is a mistake, not a benchmark.
pub(crate) const MAX_GAMES: u64 = 1_000_000_000;

int_args! {
    num_players: usize = "num_players" in 2, crate::rules::MAX_PLAYERS;
    seed: u64 = "seed" in 0, u64::MAX;
    games: u64 = "games" in 0, MAX_GAMES;
    start: u64 = "start" in 0, u64::MAX;
    count: u64 = "count" in 0, u64::MAX;
    threads: usize = "threads" in 0, crate::vec_env::MAX_THREADS;
    num_threads: usize = "num_threads" in 0, crate::vec_env::MAX_THREADS;
    num_envs: usize = "num_envs" in 1, crate::vec_env::MAX_NUM_ENVS;
    learner_seat: usize = "learner_seat" in 0, crate::rules::MAX_PLAYERS - 1;
    current_player: usize = "current_player" in 0, crate::rules::MAX_PLAYERS - 1;
    pending_draw: u16 = "pending_draw" in 0, u16::MAX;
    obs_every: u64 = "obs_every" in 1, u64::from(u32::MAX);
    full_every: u64 = "full_every" in 1, u64::from(u32::MAX);
}

opt_int_args! {
    opt_seed: u64 = "seed" in 0, u64::MAX;
    dealer: usize = "dealer" in 0, crate::rules::MAX_PLAYERS - 1;
    upto: usize = "upto" in 0, usize::MAX;
}

/// Extractors for arguments of other types, one per argument name: a value of the wrong type
/// is a `TypeError` that names the argument and what it takes (PyO3's own message names
/// neither; it adds the name as a note).
macro_rules! typed_args {
    ($($f:ident: $t:ty = $name:literal, $what:literal;)*) => {$(
        pub(crate) fn $f(o: &Bound<'_, PyAny>) -> PyResult<$t> {
            o.extract().map_err(|_| wrong_type(o, $name, $what))
        }
    )*};
}

/// `name must be WHAT, got REPR (type T)`, the representation cut to a line. A `str` that
/// is not valid Unicode (a lone surrogate, as Python decodes bytes that are not text with
/// `surrogateescape`) is a bad value rather than a wrong type: a `ValueError` saying so, and
/// so is a list holding one where a list of str belongs (naming the item).
pub(crate) fn wrong_type(o: &Bound<'_, PyAny>, name: &str, what: &str) -> PyErr {
    let repr = repr_line(o);
    if o.is_instance_of::<PyString>() && o.extract::<String>().is_err() {
        return PyValueError::new_err(format!("{name} must be {what}, got {repr}, which is not valid text"));
    }
    if let Some(at) = not_text_within(o, 2) {
        return PyValueError::new_err(format!("{name} must be {what}, got {repr}, where {name}{at} is not valid text"));
    }
    let type_name = o.get_type().name().map(|t| t.to_string()).unwrap_or_else(|_| "?".into());
    PyTypeError::new_err(format!("{name} must be {what}, got {repr} (type {type_name})"))
}

/// `repr(o)` cut to a line (60 characters) for an error message: a huge value is never
/// echoed whole.
pub(crate) fn repr_line(o: &Bound<'_, PyAny>) -> String {
    let repr = o.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
    if repr.chars().count() > 60 { format!("{}...", repr.chars().take(57).collect::<String>()) } else { repr }
}

/// Where a list or tuple (or one inside it, `depth` levels down) holds a `str` that is not
/// valid text: its index, `[1][0]`.
fn not_text_within(o: &Bound<'_, PyAny>, depth: usize) -> Option<String> {
    if depth == 0 || !(o.is_instance_of::<PyList>() || o.is_instance_of::<PyTuple>()) {
        return None;
    }
    for (i, item) in o.try_iter().ok()?.enumerate() {
        let item = item.ok()?;
        if item.is_instance_of::<PyString>() && item.extract::<String>().is_err() {
            return Some(format!("[{i}]"));
        }
        if let Some(at) = not_text_within(&item, depth - 1) {
            return Some(format!("[{i}]{at}"));
        }
    }
    None
}

/// A `str` argument as Rust text: any other type is a `TypeError`, and a `str` that is not
/// valid text a `ValueError`, each naming the argument and what it must be (`wrong_type`).
pub(crate) fn text(o: &Bound<'_, PyAny>, name: &str, what: &str) -> PyResult<String> {
    o.extract::<String>().map_err(|_| wrong_type(o, name, what))
}

/// For an argument that takes a `str` among other things: its text when it is a `str`
/// (a `str` that is not valid text is the `ValueError` of [`text`]), `None` when it is not.
pub(crate) fn text_if_str(o: &Bound<'_, PyAny>, name: &str, what: &str) -> PyResult<Option<String>> {
    if o.is_instance_of::<PyString>() { text(o, name, what).map(Some) } else { Ok(None) }
}

/// `direction` of a position: 1 (clockwise) or -1 (anticlockwise); 0 and anything else are
/// refused naming both.
pub(crate) fn direction(o: &Bound<'_, PyAny>) -> PyResult<i8> {
    let i = index_of(o, "direction")?;
    match i.extract::<i8>() {
        Ok(d @ (1 | -1)) => Ok(d),
        _ => Err(PyValueError::new_err(format!(
            "direction must be 1 (clockwise) or -1 (anticlockwise), got {}",
            repr_line(&i)
        ))),
    }
}

typed_args! {
    hands: Vec<Vec<String>> = "hands", "a list of hands, one a player, each a list of cards such as \"8H\"";
    discard: Vec<String> = "discard", "a list of cards such as \"8H\"";
    stock: Option<Vec<String>> = "stock", "a list of cards such as \"8H\", or None";
    deck: Option<Vec<String>> = "deck", "a list of cards such as \"8H\", or None";
    rogue: Option<Vec<String>> = "rogue", "a list of cards such as \"8H\", or None";
    nominated_suit: Option<String> = "nominated_suit", "a suit such as \"H\", or None";
    wild_rank: Option<String> = "wild_rank", "a rank such as \"7\", or None";
    obs_rules: bool = "obs_rules", "True or False";
    action_string: String = "s", "an action string such as \"play 8H\"";
}

/// `kind` of `Game.returns`: true for "score", false for "win_loss". Compared in Python, so
/// that the per-decision call allocates nothing on the Rust heap (see `index_of`).
pub(crate) fn returns_score(o: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = o.py();
    if !o.is_instance_of::<PyString>() {
        return Err(wrong_type(o, "kind", "\"win_loss\" or \"score\""));
    }
    if PyAnyMethods::eq(o, intern!(py, "win_loss"))? {
        Ok(false)
    } else if PyAnyMethods::eq(o, intern!(py, "score"))? {
        Ok(true)
    } else {
        Err(PyValueError::new_err(format!("kind must be \"win_loss\" or \"score\", got {}", o.repr()?)))
    }
}

/// `scores` of a position: a list of integers within the match-score limit, or `None`.
pub(crate) fn scores(o: &Bound<'_, PyAny>) -> PyResult<Option<Vec<i32>>> {
    if o.is_none() {
        return Ok(None);
    }
    // PyO3 reads any sequence but a str as a list.
    let items: Vec<Bound<'_, PyAny>> = o
        .extract()
        .map_err(|_| wrong_type(o, "scores", "a list of integers, one per player (the match scores), or None"))?;
    let max = crate::game::checks::MAX_SCORE;
    items.iter().map(|x| int_in(x, "scores", -max, max)).collect::<PyResult<Vec<i32>>>().map(Some)
}

/// Why a Python value cannot become JSON: the dotted path of the value and what is wrong.
pub(crate) struct JsonError {
    pub path: String,
    pub message: String,
}

impl JsonError {
    /// `"path: message"` (just the message at the top level).
    pub(crate) fn text(&self) -> String {
        if self.path.is_empty() { self.message.clone() } else { format!("{}: {}", self.path, self.message) }
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_string() } else { format!("{path}.{key}") }
}

/// `obj` as a JSON value: dicts with string keys, lists and tuples, str, int (within the
/// 64-bit range), finite float, bool and None. Anything else is an error naming its path.
pub(crate) fn to_value(obj: &Bound<'_, PyAny>) -> Result<Value, JsonError> {
    convert(obj, "", 0)
}

fn convert(obj: &Bound<'_, PyAny>, path: &str, depth: usize) -> Result<Value, JsonError> {
    let fail = |message: String| JsonError { path: path.to_string(), message };
    if depth > MAX_DEPTH {
        return Err(fail(format!("nested more than {MAX_DEPTH} levels deep")));
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if obj.is_instance_of::<PyBool>() {
        return Ok(Value::Bool(obj.is_truthy().map_err(|e| fail(e.to_string()))?));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(v) = obj.extract::<i64>() {
            return Ok(Value::from(v));
        }
        if let Ok(v) = obj.extract::<u64>() {
            return Ok(Value::from(v));
        }
        return Err(fail(format!("integer {} is out of range", repr_line(obj))));
    }
    if obj.is_instance_of::<PyFloat>() {
        let f: f64 = obj.extract().map_err(|e: PyErr| fail(e.to_string()))?;
        return serde_json::Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| fail(format!("must be a finite number, got {f}")));
    }
    if obj.is_instance_of::<PyString>() {
        return obj
            .extract::<String>()
            .map(Value::String)
            .map_err(|_| fail(format!("{} is not valid text", repr_line(obj))));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut m = serde_json::Map::new();
        for (k, v) in d.iter() {
            let Ok(key) = k.extract::<String>() else {
                let r = repr_line(&k);
                if k.is_instance_of::<PyString>() {
                    return Err(fail(format!("key {r} is not valid text")));
                }
                return Err(fail(format!("keys must be strings, got {r}")));
            };
            // The path names the value in a message: a huge key is cut to a line there.
            let value = convert(&v, &join(path, &crate::rules::cut(&key)), depth + 1)?;
            m.insert(key, value);
        }
        return Ok(Value::Object(m));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for (i, v) in obj.try_iter().map_err(|e| fail(e.to_string()))?.enumerate() {
            let v = v.map_err(|e| fail(e.to_string()))?;
            out.push(convert(&v, &format!("{path}[{i}]"), depth + 1)?);
        }
        return Ok(Value::Array(out));
    }
    // numpy scalars and other integer-likes: through __index__ / __float__.
    if let Ok(i) = index_of(obj, path) {
        return convert(&i, path, depth);
    }
    let t = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    Err(fail(format!("unsupported type {t} (use dict, list, str, int, float, bool or None)")))
}
