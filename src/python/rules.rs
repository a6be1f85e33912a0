//! Bindings of [`crate::rules`]: preset names and texts, and rule sets as data (resolving,
//! validating and describing a rules table, building a game from a complete specification).
//! The Python class `eights.Rules` (`python/eights/rules/core.py`) is written on top of these.
//! [`rules_arg`] is the one reading of a rules argument (a preset name, a TOML path or an
//! `eights.Rules`, plus overrides) used by every binding that plays a rule set.

use super::args;
use super::convert::{as_table, check_overrides, from_json, load_rules, rules_err, to_json};
use crate::rules::describe::{describe, special_cards as card_words, variant_changes as overlay_words};
use crate::rules::space::{RuleSpace, SpaceConfig};
use crate::rules::{self, RULES_SIZE, Rules, complete_spec, load_spec, resolve_spec};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyType};
use serde_json::Value;
use std::sync::Arc;

/// The class `eights.Rules`, imported once.
static RULES_CLASS: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `eights.rules.resolve_preset`, the one reading of a preset argument, imported once.
static RESOLVE_PRESET: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The compiled rules of a rules argument, for `num_players` (already in
/// `[2, MAX_PLAYERS]`: the `args::num_players` extractor checks it).
///
/// `preset` is a preset name (str), a path to a house-rules TOML file (str or `os.PathLike`)
/// or an `eights.Rules`; `overrides` (the `rules=` argument
/// of the entry points) is `None` or a dict of rule overrides, merged on top (on an
/// `eights.Rules` through `Rules.replace`, so they beat its variants exactly as they do on a
/// preset). The rules are validated for `num_players` here (an `eights.Rules` was validated
/// for `players.min` when it was built). A preset name is read here; anything else but an
/// `eights.Rules` goes through `eights.rules.resolve_preset`, which reads a TOML path and
/// raises the error naming the argument and what it allows (a `TypeError` for another type,
/// a `ValueError` for an unknown preset, a `FileNotFoundError` naming a missing file);
/// invalid rules are a `RulesError` naming the field. Every binding that takes a preset
/// reads it here.
pub(crate) fn rules_arg(
    py: Python<'_>,
    preset: &Bound<'_, PyAny>,
    num_players: usize,
    overrides: Option<&Bound<'_, PyAny>>,
) -> PyResult<Arc<Rules>> {
    // A `str` that is not valid text (a file name decoded with `surrogateescape`) names no
    // preset, but may name a file: `resolve_preset` reads it, as `eights.make` does.
    if let Ok(name) = preset.extract::<String>() {
        if rules::preset_toml(&name).is_ok() {
            return load_rules(py, &name, num_players, overrides);
        }
    }
    let class = RULES_CLASS.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        Ok(py.import("eights.rules")?.getattr("Rules")?.cast_into::<PyType>()?.unbind())
    })?;
    let preset = if preset.is_instance(class.bind(py))? {
        preset.clone()
    } else {
        let resolve = RESOLVE_PRESET.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
            Ok(py.import("eights.rules")?.getattr("resolve_preset")?.unbind())
        })?;
        let resolved = resolve.bind(py).call1((preset,))?;
        if resolved.is_instance_of::<PyString>() {
            let name: String = resolved.extract()?;
            return load_rules(py, &name, num_players, overrides);
        }
        resolved
    };
    let rules = match overrides {
        Some(o) if !o.is_none() => {
            check_overrides(o)?;
            if o.is_truthy()? { preset.call_method1("replace", (o,))? } else { preset }
        }
        _ => preset,
    };
    let spec = complete_spec(as_table(py, &rules.getattr("_spec")?, "spec")?).map_err(rules_err)?;
    Rules::from_spec(spec, num_players).map(Arc::new).map_err(rules_err)
}

fn opt_table(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<Value>> {
    match obj {
        Some(o) if !o.is_none() => Ok(Some(as_table(py, o, what)?)),
        _ => Ok(None),
    }
}

/// Names of the built-in presets.
#[pyfunction]
fn presets() -> Vec<&'static str> {
    rules::preset_names()
}

/// The resolved rules of a preset (with optional overrides) as a dict.
#[pyfunction]
#[pyo3(signature = (preset, rules=None))]
fn preset_rules<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = preset_name)] preset: String,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let over = match rules {
        Some(r) if !r.is_none() => Some(to_json(py, r, "rules")?),
        _ => None,
    };
    let spec = load_spec(&preset, over.as_ref()).map_err(rules_err)?;
    from_json(py, &spec)
}

/// A preset's name argument: a `TypeError` naming `preset` for anything but a string, a
/// `ValueError` for a string that is not valid text.
fn preset_name(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Some(name) = args::text_if_str(obj, "preset", "a preset name (str)")? {
        return Ok(name);
    }
    let got = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    Err(PyTypeError::new_err(format!("preset must be a preset name (str), got {got}")))
}

/// The TOML text of a preset file.
#[pyfunction]
fn preset_toml(#[pyo3(from_py_with = preset_name)] preset: String) -> PyResult<&'static str> {
    rules::preset_toml(&preset).map_err(rules_err)
}

/// Resolve rules to a complete specification dict.
///
/// `base` is a preset name, or a dict: a complete specification, or one with
/// `inherits = "<preset>"` and changes. `rules` are overrides merged on top (an override
/// beats a variant overlay). Raises `RulesError` naming the field for unknown fields, wrong
/// types and unknown variants, `ValueError` for an unknown preset.
#[pyfunction]
#[pyo3(signature = (base, rules=None))]
fn resolve_rules<'py>(
    py: Python<'py>,
    base: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let over = opt_table(py, rules, "rules")?;
    let spec = if let Some(name) = args::text_if_str(base, "base", "a preset name (str) or a dict of rules")? {
        load_spec(&name, over.as_ref())
    } else if base.is_instance_of::<PyDict>() {
        resolve_spec(to_json(py, base, "rules")?, over.as_ref())
    } else {
        return Err(PyTypeError::new_err(format!(
            "base must be a preset name (str) or a dict of rules, got {}",
            base.get_type().name()?
        )));
    }
    .map_err(rules_err)?;
    from_json(py, &spec)
}

/// Validate a complete specification for `num_players`; raises `RulesError` naming the
/// field (e.g. `deal.hand_size` when the deck is too small).
#[pyfunction]
fn validate_rules(py: Python<'_>, spec: &Bound<'_, PyAny>, num_players: &Bound<'_, PyAny>) -> PyResult<()> {
    let s = complete_spec(as_table(py, spec, "spec")?).map_err(rules_err)?;
    // The spec's own range first: `Rules` validates for `players.min`, so a bad minimum
    // is named as the field it is rather than as `num_players`.
    rules::validate_player_range(&s).map_err(rules_err)?;
    let n = check_players(args::num_players(num_players)?)?;
    Rules::from_spec(s, n).map(|_| ()).map_err(rules_err)
}

/// The rules of a complete specification in words (see the Rust `rules::describe`).
#[pyfunction]
fn describe_rules(py: Python<'_>, spec: &Bound<'_, PyAny>) -> PyResult<String> {
    let s = complete_spec(as_table(py, spec, "spec")?).map_err(rules_err)?;
    Ok(describe(&s))
}

/// The effect table in words: a list of `(selector, label, [effect, ...])`, in rank order.
#[pyfunction]
fn special_cards(py: Python<'_>, spec: &Bound<'_, PyAny>) -> PyResult<Vec<(String, String, Vec<String>)>> {
    let s = complete_spec(as_table(py, spec, "spec")?).map_err(rules_err)?;
    Ok(card_words(&s).into_iter().map(|c| (c.selector, c.label, c.effects)).collect())
}

/// A variant overlay (or any rules table) as dotted settings: `["draw.mode = \"up_to\"", ...]`.
#[pyfunction]
fn variant_changes(py: Python<'_>, overlay: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    Ok(overlay_words(&as_table(py, overlay, "overlay")?))
}

/// `num_players`, already in `[2, MAX_PLAYERS]` (the `args::num_players` extractor).
fn check_players(num_players: usize) -> PyResult<usize> {
    Ok(num_players)
}

/// True for a resolved specification as serialized (`Rules.to_dict()`, `Game.rules_dict()`):
/// a dict with every top-level field (see the Rust `rules::is_resolved`).
#[pyfunction]
fn is_resolved(table: &Bound<'_, PyAny>) -> PyResult<bool> {
    let Ok(d) = table.cast::<PyDict>() else { return Ok(false) };
    let mut keys = serde_json::Map::new();
    for k in d.keys() {
        if let Ok(k) = k.extract::<String>() {
            keys.insert(k, Value::Null);
        }
    }
    Ok(rules::is_resolved(&Value::Object(keys)))
}

/// `base` updated with `over` (rules tables): dicts merge key by key, anything else
/// replaces (the Rust `rules::merge`, used for presets and overrides alike).
#[pyfunction]
fn merge_rules<'py>(
    py: Python<'py>,
    base: &Bound<'py, PyAny>,
    over: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut merged = as_table(py, base, "rules")?;
    rules::merge(&mut merged, &as_table(py, over, "rules")?);
    from_json(py, &merged)
}

/// The rules encoding of `preset` (a preset name or an `eights.Rules`, with optional
/// overrides `rules`) for `num_players`: a float32 array of `RULES_SIZE` values (see
/// `rules_encoding_layout()` and the Rust `rules::encode`).
#[pyfunction]
#[pyo3(signature = (preset, num_players=2, rules=None))]
fn encode_rules<'py>(
    py: Python<'py>,
    preset: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = args::num_players)] num_players: usize,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, numpy::PyArray1<f32>>> {
    let r = rules_arg(py, preset, num_players, rules)?;
    let mut v = vec![0f32; RULES_SIZE];
    r.encode(&mut v);
    super::convert::array1(py, RULES_SIZE, v)
}

/// The layout of the rules encoding: a dict of `card_features` (names of the per-card
/// columns), `table_features` (names of the table-wide values), `num_faces`, `size`, and
/// `low` / `high` (float32 arrays of `RULES_SIZE`: the finite bounds of every entry).
#[pyfunction]
fn rules_encoding_layout(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    use crate::rules::encode;
    let d = PyDict::new(py);
    d.set_item("card_features", encode::CARD_FEATURE_NAMES.to_vec())?;
    d.set_item("table_features", encode::TABLE_FEATURE_NAMES.to_vec())?;
    d.set_item("num_faces", crate::card::NUM_FACES)?;
    d.set_item("size", RULES_SIZE)?;
    let (lo, hi) = encode::bounds();
    d.set_item("low", super::convert::array1(py, RULES_SIZE, lo)?)?;
    d.set_item("high", super::convert::array1(py, RULES_SIZE, hi)?)?;
    Ok(d)
}

/// A rule space in the engine (`eights.RuleSpace` is written on top of it): see the Rust
/// `rules::space`. Arguments are checked there; an error is a `RulesError` naming the
/// argument (`variant_prob`, `house_prob`, `mutations`, `dims`, `presets`, `num_players`).
#[pyclass(name = "RuleSpaceCore", module = "eights._core", frozen)]
pub(crate) struct PyRuleSpace {
    pub(crate) space: Arc<RuleSpace>,
}

#[pymethods]
impl PyRuleSpace {
    #[new]
    #[pyo3(signature = (presets, variant_prob, house_prob, mutations, dims, num_players))]
    fn new(
        presets: Vec<Bound<'_, PyAny>>,
        variant_prob: f64,
        house_prob: f64,
        mutations: f64,
        dims: Vec<(Bound<'_, PyAny>, f64)>,
        num_players: Vec<usize>,
    ) -> PyResult<Self> {
        let presets = presets
            .iter()
            .enumerate()
            .map(|(i, p)| args::text(p, &format!("presets[{i}]"), "a preset name (str)"))
            .collect::<PyResult<Vec<_>>>()?;
        let dims = dims
            .into_iter()
            .map(|(name, w)| Ok((args::text(&name, "dims: a dimension name", "a str")?, w)))
            .collect::<PyResult<Vec<_>>>()?;
        let cfg = SpaceConfig { presets, variant_prob, house_prob, mutations, weights: dims, num_players };
        Ok(PyRuleSpace { space: Arc::new(RuleSpace::new(cfg).map_err(rules_err)?) })
    }

    /// The draw of `seed`: `(preset, overrides, changes)`, the overrides a rules table (a
    /// dict, with `variants`), the house-rule changes in words.
    fn sample<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = args::seed)] seed: u64,
    ) -> PyResult<(&'static str, Bound<'py, PyAny>, Vec<String>)> {
        let s = py.detach(|| self.space.sample(seed));
        Ok((s.preset, from_json(py, &s.overrides)?, s.changes))
    }

    /// The presets the space draws from.
    #[getter]
    fn presets(&self) -> Vec<&'static str> {
        self.space.presets()
    }

    /// The house-rule dimensions: `(name, default weight, description)`.
    #[staticmethod]
    fn dimensions() -> Vec<(&'static str, f64, &'static str)> {
        rules::space::DIMENSIONS.iter().map(|d| (d.name, d.weight, d.words)).collect()
    }
}

/// Add this module's functions to `eights._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(preset_rules, m)?)?;
    m.add_function(wrap_pyfunction!(preset_toml, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_rules, m)?)?;
    m.add_function(wrap_pyfunction!(validate_rules, m)?)?;
    m.add_function(wrap_pyfunction!(describe_rules, m)?)?;
    m.add_function(wrap_pyfunction!(special_cards, m)?)?;
    m.add_function(wrap_pyfunction!(variant_changes, m)?)?;
    m.add_function(wrap_pyfunction!(is_resolved, m)?)?;
    m.add_function(wrap_pyfunction!(merge_rules, m)?)?;
    m.add_function(wrap_pyfunction!(encode_rules, m)?)?;
    m.add_class::<PyRuleSpace>()?;
    m.add_function(wrap_pyfunction!(rules_encoding_layout, m)?)?;
    m.add("RULES_SIZE", RULES_SIZE)?;
    Ok(())
}
