//! Bindings of [`crate::observation`]: the observation's finite bounds and its scaling into
//! `[0, 1]` for a rule set and player count ([`crate::observation::bounds::ObsBounds`]),
//! read by the Python `eights.observation.ObservationBounds`, and the layout's named slices
//! (`observation_spec()`, the offsets the Python networks read). (The observation itself is
//! a method of `Game`, see `game.rs`.)

use super::args;
use super::convert::array1;
use super::rules::rules_arg;
use crate::card::Card;
use crate::observation::OBS_SIZE;
use crate::observation::bounds::ObsBounds;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The observation's bounds under `preset` (a preset name or an `eights.Rules`, with
/// optional overrides `rules`) for `num_players`, or with `preset=None` under every rule set
/// (the largest deck the rules model deals: four copies of every face): a dict of `low`, `high`, `mul`, `add`
/// (float32 arrays of `OBS_SIZE`), `clip` (a bool array), `deck_size` (cards in the pack),
/// `copies` (face string -> copies in the pack, for the faces it holds) and `spec` (slice
/// name -> `(start, stop)`, as `Game.observation_spec()`). Every observation `x` has
/// `low <= x <= high`; its scaled form is `x * mul + add`, at most 1 where `clip`, with the
/// `scores` entries `s` squashed to `(s / (1 + |s|) + 1) / 2`.
#[pyfunction]
#[pyo3(signature = (preset, num_players=2, rules=None))]
fn observation_bounds<'py>(
    py: Python<'py>,
    preset: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = args::num_players)] num_players: usize,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let b = if preset.is_none() {
        ObsBounds::any_rules()
    } else {
        ObsBounds::new(&*rules_arg(py, preset, num_players, rules)?)
    };
    let d = PyDict::new(py);
    d.set_item("low", array1(py, OBS_SIZE, b.low)?)?;
    d.set_item("high", array1(py, OBS_SIZE, b.high)?)?;
    d.set_item("mul", array1(py, OBS_SIZE, b.mul)?)?;
    d.set_item("add", array1(py, OBS_SIZE, b.add)?)?;
    d.set_item("clip", array1(py, OBS_SIZE, b.clip)?)?;
    d.set_item("deck_size", b.deck_size)?;
    let copies = PyDict::new(py);
    for (i, &k) in b.copies.iter().enumerate() {
        if let Some(c) = Card::from_index(i).filter(|_| k > 0) {
            copies.set_item(c.to_string(), k)?;
        }
    }
    d.set_item("copies", copies)?;
    d.set_item("spec", spec_dict(py)?)?;
    Ok(d)
}

/// A new dict of the observation's named slices, name -> `(start, stop)`, in layout order.
pub(super) fn spec_dict(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let spec = PyDict::new(py);
    for (name, a, b) in crate::observation::spec() {
        spec.set_item(name, (a, b))?;
    }
    Ok(spec)
}

/// Named slices of the observation, in layout order: name -> `(start, stop)`, the same for
/// every rule set and player count (`Game.observation_spec()` gives the same dict).
#[pyfunction]
fn observation_spec(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    spec_dict(py)
}

/// Add this module's functions to `eights._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(observation_bounds, m)?)?;
    m.add_function(wrap_pyfunction!(observation_spec, m)?)
}
