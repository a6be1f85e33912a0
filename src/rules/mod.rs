//! Rules: presets, overrides and validation.
//!
//! This module owns the path from text to an engine-ready rule set:
//!
//! 1. A preset is a TOML file embedded in the crate (`src/rules/presets/*.toml`), listed by
//!    [`preset_names`]. A preset may `inherits = "other"`: unlisted settings are copied, and
//!    so are the parent's documented variants, less those named in `drop_variants = [...]`.
//! 2. User overrides (a JSON-like nested table) are deep-merged on top; a table merges key by
//!    key, anything else replaces. `variants = ["name", ...]` applies the preset's
//!    documented `variant.<name>` overlays first, then the overrides again on top.
//! 3. The merged table is deserialized into a [`RulesSpec`]; unknown fields and wrong types
//!    are errors naming the dotted field path.
//! 4. [`Rules::from_spec`] validates the spec for a player count (deck large enough,
//!    consistent options) and compiles the effect table into one [`CardRule`] per face.
//!
//! Rule dimensions that the model expresses but whose behaviour lands with a later preset
//! are rejected by validation with [`RulesError::Unsupported`], naming the field, instead of
//! being silently ignored.
//!
//! Files: `load.rs` holds the presets and the path from text to a [`RulesSpec`] (steps 1
//! to 3), `deserialize.rs` step 3's deserializing with errors in a rules reader's words,
//! `spec/` the specification itself, `validate.rs` and `compile.rs` step 4 (the checks,
//! then the compilation into the [`Rules`] of `compiled.rs`, with the table-wide
//! `settings.rs`); `ranges/` the fixed allowed values of the numeric fields, whose words
//! steps 3 and 4 share; `error.rs` holds [`RulesError`].
//! This file only declares the modules and re-exports what the crate uses.

mod compile;
mod compiled;
pub mod describe;
mod deserialize;
pub mod encode;
mod error;
mod load;
mod ranges;
pub(crate) mod selector;
pub mod settings;
pub mod space;
pub mod spec;
mod validate;

pub use compiled::{CardRule, ChainRule, MAX_PLAYERS, RULE_FEATURE_NAMES, RULE_FEATURES, Rules, WildRule};
pub use deserialize::spec_from_value;
pub use encode::{CARD_FEATURES, RULES_SIZE, TABLE_FEATURES};
pub use error::{RulesError, cut, quoted, thousands};
pub use load::{
    all_preset_specs, complete_spec, is_resolved, load_spec, merge, preset_names, preset_toml, resolve_spec,
    spec_from_toml, top_level_fields,
};
pub use spec::*;
pub use validate::validate_player_range;
