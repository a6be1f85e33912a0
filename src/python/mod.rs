//! PyO3 bindings, built by maturin as the extension `eights._core`: this file only
//! registers the module. One binding file per core module, thin wrappers over the core:
//! `game` (the `Game` class, seed derivation), `rules` (rule sets as data, and `rules_arg`,
//! the one reader of a preset-or-`Rules` argument), `observation` (the observation's
//! bounds), `bots` (bots, random self-play, the learned bot's network), `arena` (the
//! duplicate-deal arena of `bots::arena`: seeds, schedules, playing deals), `check` (checked
//! self-play, the fast soak) and `vec_env` (the batched engine).
//! Argument checks live in `args`, conversions shared by the files in `convert`, and
//! `interrupt` runs the long calls so that Ctrl-C stops them.

mod arena;
mod args;
mod bots;
mod check;
mod convert;
mod game;
mod interrupt;
mod observation;
mod rules;
mod vec_env;

use crate::action::NUM_ACTIONS;
use crate::observation::OBS_SIZE;
use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    game::register(m)?;
    bots::register(m)?;
    arena::register(m)?;
    check::register(m)?;
    observation::register(m)?;
    rules::register(m)?;
    vec_env::register(m)?;
    m.add("IllegalActionError", m.py().get_type::<convert::IllegalActionError>())?;
    m.add("RulesError", m.py().get_type::<convert::RulesError>())?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("OBS_SIZE", OBS_SIZE)?;
    Ok(())
}
