//! PyO3 bindings, built by maturin as the extension `eights._core`: this file only
//! registers the module. One binding file per core module (`game`, `rules`, `bots`,
//! `vec_env`), thin wrappers over the core; conversions shared by them live in `convert`.

mod args;
mod bots;
mod convert;
mod game;
mod rules;
mod vec_env;

use crate::action::NUM_ACTIONS;
use crate::observation::OBS_SIZE;
use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    game::register(m)?;
    bots::register(m)?;
    rules::register(m)?;
    vec_env::register(m)?;
    m.add("IllegalActionError", m.py().get_type::<convert::IllegalActionError>())?;
    m.add("RulesError", m.py().get_type::<convert::RulesError>())?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("OBS_SIZE", OBS_SIZE)?;
    Ok(())
}
