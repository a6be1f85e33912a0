//! PyO3 bindings for rule sets as data: resolving, validating and describing a rules table,
//! and building a game from a complete specification. The Python class `eights.Rules`
//! (`python/eights/rules.py`) is written on top of these functions.
//!
//! A child module of `python`, so it shares its conversions and the `Game` class.

use super::py_args;
use super::{PyGame, from_json, random_seed, rules_err, to_json};
use crate::game::Game;
use crate::rules::describe::{describe, special_cards as card_words, variant_changes as overlay_words};
use crate::rules::{Rules, RulesError, RulesSpec, load_spec, merge, spec_from_value};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use serde_json::Value;
use std::sync::Arc;

fn as_table(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    if !obj.is_instance_of::<PyDict>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a dict of rule fields, got {}",
            obj.get_type().name()?
        )));
    }
    to_json(py, obj, what)
}

fn opt_table(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<Value>> {
    match obj {
        Some(o) if !o.is_none() => Ok(Some(as_table(py, o, what)?)),
        _ => Ok(None),
    }
}

fn variant_names(v: &Value) -> Result<Vec<String>, RulesError> {
    let bad = || RulesError::Invalid { field: "variants".into(), message: "expected a list of variant names".into() };
    match v.get("variants") {
        None | Some(Value::Null) => Ok(vec![]),
        Some(Value::Array(a)) => a.iter().map(|x| x.as_str().map(str::to_string).ok_or_else(bad)).collect(),
        Some(_) => Err(bad()),
    }
}

/// True for a resolved specification as serialized (`Rules.to_dict()`, `Game.rules_dict()`):
/// it has every top-level field. Its `inherits` only records the parent preset, and the
/// variants it lists are already applied.
fn is_resolved(v: &Value) -> bool {
    let Ok(Value::Object(all)) = serde_json::to_value(RulesSpec::default()) else { return false };
    v.as_object().is_some_and(|m| all.keys().all(|k| m.contains_key(k)))
}

/// Resolve a rules table the way presets are resolved: the overrides are merged, the listed
/// `variants` overlays are applied, and the overrides are merged again on top, so an explicit
/// override beats a variant. A table with `inherits = "<preset>"` (and not already resolved)
/// is that preset plus changes; a resolved table is taken as it is (only variants newly
/// listed by the overrides are applied).
fn resolve_full(base: Value, overrides: Option<&Value>) -> Result<RulesSpec, RulesError> {
    let resolved = is_resolved(&base);
    if let Some(parent) = base.get("inherits").and_then(Value::as_str).filter(|_| !resolved).map(str::to_string) {
        let mut own = base.clone();
        if let Value::Object(m) = &mut own {
            m.remove("inherits");
        }
        if let Some(o) = overrides {
            merge(&mut own, o);
        }
        return load_spec(&parent, Some(&own));
    }
    let mut merged = base.clone();
    if let Some(o) = overrides {
        merge(&mut merged, o);
    }
    let variants = variant_names(&merged)?;
    let applied = if resolved { variant_names(&base)? } else { vec![] };
    if variants.iter().any(|v| !applied.contains(v)) {
        let table = merged.get("variant").cloned().unwrap_or(Value::Null);
        let mut v = base;
        for name in variants.iter().filter(|v| !applied.contains(v)) {
            let overlay = table.get(name).ok_or_else(|| {
                let known: Vec<String> = table.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
                RulesError::Invalid {
                    field: "variants".into(),
                    message: format!(
                        "unknown variant {name:?}; these rules document: {}",
                        if known.is_empty() { "none".to_string() } else { known.join(", ") }
                    ),
                }
            })?;
            merge(&mut v, overlay);
        }
        if let Some(o) = overrides {
            merge(&mut v, o);
        }
        if let Value::Object(m) = &mut v {
            m.insert("variants".into(), Value::from(variants));
        }
        merged = v;
    }
    if let Some(o) = overrides {
        // As for presets: an explicit hand size (or pack count) holds for every player count.
        for (table, plain, by) in [("deal", "hand_size", "hand_size_by_players"), ("deck", "packs", "packs_by_players")]
        {
            let t = o.get(table);
            if t.and_then(|t| t.get(plain)).is_some() && t.and_then(|t| t.get(by)).is_none() {
                if let Some(Value::Object(m)) = merged.get_mut(table) {
                    m.insert(by.to_string(), Value::Object(Default::default()));
                }
            }
        }
    }
    spec_from_value(merged)
}

/// A complete spec from a dict: a resolved spec as it is; a partial table with
/// `inherits = "<preset>"` is resolved first; any other table takes defaults for what it
/// leaves out.
fn complete_spec(v: Value) -> Result<RulesSpec, RulesError> {
    if !is_resolved(&v) && v.get("inherits").and_then(Value::as_str).is_some() {
        resolve_full(v, None)
    } else {
        spec_from_value(v)
    }
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
    let spec = if base.is_instance_of::<PyString>() {
        let name: String = base.extract()?;
        load_spec(&name, over.as_ref())
    } else if base.is_instance_of::<PyDict>() {
        resolve_full(to_json(py, base, "rules")?, over.as_ref())
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
fn validate_rules(
    py: Python<'_>,
    spec: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = py_args::num_players)] num_players: usize,
) -> PyResult<()> {
    let s = complete_spec(as_table(py, spec, "spec")?).map_err(rules_err)?;
    let n = check_players(num_players)?;
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

/// `num_players`, already in `[2, MAX_PLAYERS]` (the `py_args::num_players` extractor).
fn check_players(num_players: usize) -> PyResult<usize> {
    Ok(num_players)
}

/// A new `Game` from a complete rules specification (as `Rules.to_dict()` or
/// `Game.rules_dict()` return it; variants it lists are taken as already applied). A dict
/// with `inherits = "<preset>"` is resolved first. Raises `RulesError` naming the field.
#[pyfunction]
#[pyo3(signature = (spec, num_players=2, seed=None))]
fn game_from_spec(
    py: Python<'_>,
    spec: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = py_args::num_players)] num_players: usize,
    #[pyo3(from_py_with = py_args::opt_seed)] seed: Option<u64>,
) -> PyResult<PyGame> {
    let s = complete_spec(as_table(py, spec, "spec")?).map_err(rules_err)?;
    let n = check_players(num_players)?;
    let r = Rules::from_spec(s, n).map_err(rules_err)?;
    Ok(PyGame { g: Game::new(Arc::new(r), seed.unwrap_or_else(random_seed)) })
}

/// Add this module's functions to `eights._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(resolve_rules, m)?)?;
    m.add_function(wrap_pyfunction!(validate_rules, m)?)?;
    m.add_function(wrap_pyfunction!(describe_rules, m)?)?;
    m.add_function(wrap_pyfunction!(special_cards, m)?)?;
    m.add_function(wrap_pyfunction!(variant_changes, m)?)?;
    m.add_function(wrap_pyfunction!(game_from_spec, m)?)?;
    Ok(())
}
