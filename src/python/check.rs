//! Bindings of [`crate::check`]: random self-play with the engine's invariants checked
//! after every decision (`checked_selfplay`), and the fast soak of
//! `python -m eights soak --decisions N` (`FastSoak`), both played with the GIL released.

use super::args;
use super::convert::from_json;
use super::interrupt::run_interruptible;
use super::rules::rules_arg;
use crate::check::{FastSoak, SoakTable};
use crate::observation::OBS_SIZE;
use crate::observation::bounds::ObsBounds;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

/// Like `random_selfplay`, with the engine's invariants checked after every decision
/// (`eights::check::check_state`): cards conserved, the legal set equal to the mask and
/// empty exactly at the end, observations finite, the snapshot round trip, zero-sum
/// returns. Returns a dict: games, decisions, truncated, violations and failures (the
/// first few messages). Used by `python -m eights soak`.
#[pyfunction]
#[pyo3(signature = (preset, num_players=2, games=10, seed=0, rules=None))]
fn checked_selfplay<'py>(
    py: Python<'py>,
    preset: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = args::num_players)] num_players: usize,
    #[pyo3(from_py_with = args::games)] games: u64,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = rules_arg(py, preset, num_players, rules)?;
    let stats = run_interruptible(py, move |stop| crate::check::checked_selfplay_until(r, games, seed, stop))?;
    from_json(py, &stats)
}

/// The fast soak of `python -m eights soak --decisions N` (`eights::check::FastSoak`):
/// random games over `tables`, played on `num_threads` threads (0: all cores) with the GIL
/// released. A table is `(preset, num_players)`, its observations checked against the
/// rules' own bounds (`eights::observation::bounds`), or `(preset, num_players, low, high)`
/// with bounds given as `OBS_SIZE` floats each, or `None` for both to check finiteness only
/// (`preset`: a preset name or an `eights.Rules`). `run(first, games)` plays games
/// `first .. first + games` and returns a dict of totals; the result depends on `seed` and
/// the game indices only, not on the thread count.
#[pyclass(name = "FastSoak", module = "eights._core")]
struct PyFastSoak {
    soak: FastSoak,
    pool: Option<rayon::ThreadPool>,
}

/// Optional bounds of a soak table: `None` or exactly `OBS_SIZE` floats.
fn given_bounds(b: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<f32>> {
    if b.is_none() {
        return Ok(Vec::new());
    }
    let v: Vec<f32> = b
        .extract()
        .map_err(|_| PyTypeError::new_err(format!("{name} must be None or a sequence of {OBS_SIZE} floats")))?;
    match v.len() {
        OBS_SIZE => Ok(v),
        n => Err(PyValueError::new_err(format!("{name} must hold {OBS_SIZE} values, got {n}"))),
    }
}

/// One soak table from its Python form (see `FastSoak`).
fn soak_table(py: Python<'_>, table: &Bound<'_, PyAny>) -> PyResult<SoakTable> {
    let items = table.cast::<PyTuple>().ok().filter(|t| t.len() == 2 || t.len() == 4).ok_or_else(|| {
        PyTypeError::new_err("a soak table must be a tuple (preset, num_players) or (preset, num_players, low, high)")
    })?;
    let preset = items.get_item(0)?;
    let n = args::num_players(&items.get_item(1)?)?;
    let rules = rules_arg(py, &preset, n, None)?;
    let (low, high) = if items.len() == 4 {
        (given_bounds(&items.get_item(2)?, "low")?, given_bounds(&items.get_item(3)?, "high")?)
    } else {
        let b = ObsBounds::new(&rules);
        (b.low.to_vec(), b.high.to_vec())
    };
    let label = if preset.is_instance_of::<PyString>() { preset.extract()? } else { rules.spec.name.clone() };
    Ok(SoakTable { name: format!("{label} n={n}"), rules, low, high })
}

#[pymethods]
impl PyFastSoak {
    #[new]
    #[pyo3(signature = (tables, seed=0, obs_every=1, full_every=1000, num_threads=0))]
    fn new(
        py: Python<'_>,
        tables: Vec<Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::seed)] seed: u64,
        #[pyo3(from_py_with = args::obs_every)] obs_every: u64,
        #[pyo3(from_py_with = args::full_every)] full_every: u64,
        #[pyo3(from_py_with = args::num_threads)] num_threads: usize,
    ) -> PyResult<Self> {
        let tables = tables.iter().map(|t| soak_table(py, t)).collect::<PyResult<Vec<_>>>()?;
        if tables.is_empty() {
            return Err(PyValueError::new_err("tables must name at least one (preset, num_players)"));
        }
        let pool = match num_threads {
            0 => None,
            t => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| PyRuntimeError::new_err(format!("cannot start {t} threads: {e}")))?,
            ),
        };
        Ok(PyFastSoak { soak: FastSoak { tables, seed, obs_every, full_every }, pool })
    }

    /// Play games `first .. first + games`; returns a dict: games, decisions, truncated,
    /// observations_checked, full_checks, violations, failures (the first few messages).
    #[pyo3(signature = (first, games))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = args::start)] first: u64,
        #[pyo3(from_py_with = args::games)] games: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let stats = run_interruptible(py, |stop| self.soak.run_until(first, games, self.pool.as_ref(), stop))?;
        from_json(py, &stats)
    }

    /// The number of tables.
    #[getter]
    fn num_tables(&self) -> usize {
        self.soak.tables.len()
    }
}

/// Add this module's functions and classes to `eights._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(checked_selfplay, m)?)?;
    m.add_class::<PyFastSoak>()
}
