//! Conversions shared by the binding files: the Python exceptions (`IllegalActionError`,
//! `RulesError`) and the mapping of core errors onto them, card parsing, JSON <-> Python
//! (rule tables and game states cross as JSON), seeds, loading rules from arguments, and
//! numpy arrays allocated so that a failed allocation is a `MemoryError`.

use crate::card::Card;
use crate::game::GameError;
use crate::rules::{self, Rules};
use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyModule};
use std::sync::Arc;

// Registered as `eights.X`, the public name: pickle finds the class there, so the errors cross
// process boundaries (a worker of `AsyncVectorEnv` or `multiprocessing`), and tracebacks name
// the class as users import it.
create_exception!(
    eights,
    IllegalActionError,
    PyValueError,
    "An action that is not legal now (or a step after the game ended). The game is unchanged."
);
create_exception!(eights, RulesError, PyValueError, "Invalid rules: the message names the offending field.");

pub(super) fn rules_err(e: rules::RulesError) -> PyErr {
    match e {
        rules::RulesError::UnknownPreset { .. } => PyValueError::new_err(e.to_string()),
        _ => RulesError::new_err(e.to_string()),
    }
}

pub(super) fn game_err(e: GameError) -> PyErr {
    match e {
        GameError::IllegalAction { .. } | GameError::GameOver(_) | GameError::OutOfRange(_) => {
            IllegalActionError::new_err(e.to_string())
        }
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// A card string; the error quotes it cut to a line (the card's own error quotes it whole).
/// Why `s` is no card, with `s` quoted as Python writes a string.
fn card_message(s: &str, e: impl std::fmt::Display) -> String {
    e.to_string().replacen(&format!("{s:?}"), &rules::quoted(s), 1)
}

/// The cards of the argument `what` (`deck`, `hands[1]`, ...); a bad one is a `ValueError`
/// naming the argument.
pub(super) fn parse_cards(v: &[String], what: &str) -> PyResult<Vec<Card>> {
    v.iter()
        .map(|s| s.parse::<Card>().map_err(|e| PyValueError::new_err(format!("{what}: {}", card_message(s, e)))))
        .collect()
}

/// A Python value as JSON. For rules (`what` = "rules", "spec", "overlay") an unusable
/// value (NaN, a date, a huge integer, too deep a nesting) is a `RulesError` naming its
/// field; for a game state a `ValueError` naming it.
pub(super) fn to_json(_py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<serde_json::Value> {
    super::args::to_value(obj).map_err(|e| {
        if what == "state dict" {
            PyValueError::new_err(format!("invalid game state: {}", e.text()))
        } else if what == "record" {
            let at = if e.path.is_empty() { String::new() } else { format!("'{}': ", e.path) };
            PyValueError::new_err(format!("invalid game record: {at}{}", e.message))
        } else if e.path.is_empty() {
            RulesError::new_err(format!("invalid {what}: {}", e.message))
        } else {
            RulesError::new_err(format!("invalid rules field '{}': {}", e.path, e.message))
        }
    })
}

pub(super) fn from_json<'py>(py: Python<'py>, v: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(v).map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

pub(super) fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    h.finish()
}

/// A rules table argument: a dict (TypeError naming `what` otherwise) as JSON.
pub(super) fn as_table(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<serde_json::Value> {
    if !obj.is_instance_of::<PyDict>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a dict of rule fields, got {}",
            obj.get_type().name()?
        )));
    }
    to_json(py, obj, what)
}

/// The `rules=` overrides argument of the entry points: a dict (the one `TypeError` text
/// otherwise).
pub(super) fn check_overrides(rules: &Bound<'_, PyAny>) -> PyResult<()> {
    if rules.is_instance_of::<PyDict>() {
        return Ok(());
    }
    Err(PyTypeError::new_err(format!(
        "rules must be a dict of rule overrides, e.g. {{\"deal\": {{\"hand_size\": 5}}}}, got {}",
        rules.get_type().name()?
    )))
}

/// The rules of `preset` with optional overrides (a dict) for `num_players` (already in
/// `[2, MAX_PLAYERS]`: the `args::num_players` extractor checks it).
pub(super) fn load_rules(
    py: Python<'_>,
    preset: &str,
    num_players: usize,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Arc<Rules>> {
    let over = match rules {
        Some(r) if !r.is_none() => {
            check_overrides(r)?;
            Some(to_json(py, r, "rules")?)
        }
        _ => None,
    };
    Rules::load(preset, num_players, over.as_ref()).map(Arc::new).map_err(rules_err)
}

/// What a Python value is, for an error message: `a numpy array of dtype float64 and shape
/// (4,)`, or the type's name for anything else.
fn describe_value(obj: &Bound<'_, PyAny>) -> String {
    let attr = |name: &str| obj.getattr(name).and_then(|v| v.str()).map(|s| s.to_string());
    match (obj.is_instance_of::<numpy::PyUntypedArray>(), attr("dtype"), attr("shape")) {
        (true, Ok(dtype), Ok(shape)) => format!("a numpy array of dtype {dtype} and shape {shape}"),
        _ => obj.get_type().name().map_or_else(|_| "an object".to_string(), |n| format!("a {n}")),
    }
}

/// A numpy array argument named `name` with element type `T` and `D`'s number of dimensions,
/// borrowed read-only; `shape` words the expected shape (`"(N,)"`). Anything else is a
/// `TypeError` naming the argument, the dtype and shape expected and what was given.
pub(super) fn array_arg<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    shape: &str,
) -> PyResult<Bound<'py, numpy::PyArray<T, D>>> {
    obj.cast::<numpy::PyArray<T, D>>().cloned().map_err(|_| {
        let dtype = numpy::dtype::<T>(obj.py()).str().map_or_else(|_| "?".to_string(), |s| s.to_string());
        PyTypeError::new_err(format!(
            "{name} must be a numpy array of dtype {dtype} and shape {shape}, got {}",
            describe_value(obj)
        ))
    })
}

/// The `numpy` module, imported once (`zeros` is looked up on it at each call).
static NUMPY: pyo3::sync::PyOnceLock<Py<PyModule>> = pyo3::sync::PyOnceLock::new();

/// A zeroed numpy array of `shape` and `T`'s dtype, allocated by `numpy.zeros`: a failed
/// allocation is numpy's `MemoryError` (rust-numpy's `from_vec`, `from_vec2` and `zeros`
/// panic on a null pointer, and building a Rust `Vec` first could abort the process).
pub(super) fn np_zeros<'py, T: numpy::Element, A: pyo3::PyTypeCheck>(
    py: Python<'py>,
    shape: &[usize],
) -> PyResult<Bound<'py, A>> {
    let np = NUMPY.get_or_try_init(py, || py.import("numpy").map(Bound::unbind))?;
    let zeros = np.bind(py).getattr(pyo3::intern!(py, "zeros"))?;
    let a = zeros.call1((shape.to_vec(), numpy::dtype::<T>(py)))?;
    Ok(a.cast_into::<A>()?)
}

/// A one-dimensional array of `len` values taken from `values` (zeros past its end),
/// allocated through [`np_zeros`]: never a panic or an abort when memory runs out.
pub(super) fn array1<'py, T: numpy::Element + Copy>(
    py: Python<'py>,
    len: usize,
    values: impl IntoIterator<Item = T>,
) -> PyResult<Bound<'py, numpy::PyArray1<T>>> {
    use numpy::PyArrayMethods;
    let a = np_zeros::<T, numpy::PyArray1<T>>(py, &[len])?;
    {
        let mut w = a.try_readwrite()?;
        for (dst, v) in w.as_slice_mut()?.iter_mut().zip(values) {
            *dst = v;
        }
    }
    Ok(a)
}

/// A one-dimensional array of `N` values for the per-decision results (`observation`,
/// `action_mask`, `returns`): allocated by numpy's C API (`PyArray_Empty`) without a Python
/// call, because these run at every step. A null result (numpy could not allocate) is the
/// `MemoryError` numpy set, through `from_owned_ptr_or_err`, never a panic.
pub(super) fn small_array1<'py, T: numpy::Element + Copy, const N: usize>(
    py: Python<'py>,
    len: usize,
    values: &[T; N],
) -> PyResult<Bound<'py, numpy::PyArray1<T>>> {
    use numpy::npyffi::{PY_ARRAY_API, npy_intp};
    use numpy::{PyArrayDescrMethods, PyArrayMethods};
    let len = len.min(N);
    // `len <= N`, a small compile-time size (at most a few hundred): the cast is exact.
    let mut dims = [len as npy_intp];
    // SAFETY: `PyArray_Empty` takes a 1-element dims array and steals the dtype reference
    // (`into_dtype_ptr` hands over a new one); a null result carries numpy's Python error.
    let a = unsafe {
        let ptr = PY_ARRAY_API.PyArray_Empty(py, 1, dims.as_mut_ptr(), numpy::dtype::<T>(py).into_dtype_ptr(), 0);
        Bound::from_owned_ptr_or_err(py, ptr)?.cast_into_unchecked::<numpy::PyArray1<T>>()
    };
    // SAFETY: the array was created just above, is C-contiguous with `len` elements, and no
    // other reference to it exists yet, so writing through a mutable slice is sound.
    unsafe { a.as_slice_mut() }
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?
        .copy_from_slice(&values[..len]);
    Ok(a)
}

/// A `rows x cols` array filled row by row from `values` (zeros past its end), allocated
/// through [`np_zeros`].
pub(super) fn array2<'py, T: numpy::Element + Copy>(
    py: Python<'py>,
    rows: usize,
    cols: usize,
    values: impl IntoIterator<Item = T>,
) -> PyResult<Bound<'py, numpy::PyArray2<T>>> {
    use numpy::PyArrayMethods;
    let a = np_zeros::<T, numpy::PyArray2<T>>(py, &[rows, cols])?;
    {
        let mut w = a.try_readwrite()?;
        for (dst, v) in w.as_slice_mut()?.iter_mut().zip(values) {
            *dst = v;
        }
    }
    Ok(a)
}
