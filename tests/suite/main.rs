//! The Rust integration tests, one binary (`cargo test --test suite`): each file is a module of
//! this crate, so the library and the dependencies are linked once rather than once a file.
//! Run one file's tests by its module name, e.g. `cargo test --profile test-opt --test suite golden::`.

mod conformance;
mod engine;
mod fuzz_inputs;
mod golden;
mod hardening;
mod proptest_rules;
mod rule_space_fuzz;
mod rules_encoding;
mod spec_fields;
mod variants_play;
mod vec_env;
mod vec_env_mixed;
