//! The tests of the fields' ranges: every row refused just past both ends, through serde or
//! validation, in the same words, and taken at both ends.
//!
//! Compiled only for `cargo test` (`#[cfg(test)] mod tests;`): its `unwrap`, `panic!` and
//! `unreachable!` are test assertions and helpers over the static table; no input of a user
//! reaches them, and the library's own code in `ranges/mod.rs` has none.

use super::*;
use crate::rules::{Rules, load_spec};
use serde_json::{Value, json};

/// The row whose field is `field`, written as in the table (`score.values.*`).
fn row(field: &str) -> &'static FieldRange {
    RANGES.iter().find(|r| r.field == field).unwrap_or_else(|| unreachable!("no rules range for {field}"))
}

/// The values of `row`'s field in `spec`, each with its field written out.
fn read(row: &FieldRange, spec: &RulesSpec) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    let visited = row.visit(spec, &mut |keys, v| {
        out.push((row.at(keys), v));
        Ok(())
    });
    visited.unwrap_or_else(|e| panic!("{}: {e}", row.field));
    out
}

/// A row's field with each `*` a key its table takes (a player count, a rank).
fn concrete(row: &FieldRange) -> String {
    row.field.replace('*', "2")
}

/// An override setting the dotted `field` to `v`.
fn set(field: &str, v: i64) -> Value {
    field.rsplit('.').fold(json!(v), |inner, key| json!({ key: inner }))
}

/// A preset where the row's field is in use (`countdown` only in a countdown preset).
fn preset(row: &FieldRange) -> &'static str {
    if row.field.starts_with("countdown.") { "crazy_eights_countdown" } else { "crazy_eights" }
}

#[test]
fn every_field_refuses_the_values_just_outside_its_range_in_the_same_words() {
    for row in RANGES {
        let field = concrete(row);
        let allowed = row.allowed();
        let mut outside: Vec<i64> = (row.min - 1..=row.max + 1).filter(|&v| !row.admits(v)).collect();
        if row.only.is_empty() {
            outside = vec![row.min - 1, row.max + 1];
        }
        // Past every storage type (u8, u32, i32): serde refuses them.
        outside.extend([-(1 << 40), 1 << 40]);
        let (mut by_serde, mut by_validation) = (0, 0);
        for v in outside {
            let e = Rules::load(preset(row), 2, Some(&set(&field, v))).err().unwrap_or_else(|| panic!("{field} = {v}"));
            assert_eq!(e.field(), Some(field.as_str()), "{e}");
            let serde = format!("invalid rules field '{field}': invalid value: integer `{v}`, expected {allowed}");
            let checked = format!("invalid rules field '{field}': must be {allowed}, got {}", number(v));
            match e.to_string() {
                m if m == serde => by_serde += 1,
                m if m == checked => by_validation += 1,
                m => panic!("{field} = {v}: {m}\n  not: {serde}\n  nor: {checked}"),
            }
        }
        assert!(by_serde > 0 && by_validation > 0, "{field}: {by_serde} by serde, {by_validation} by validation");
    }
}

#[test]
fn every_field_takes_the_ends_of_its_range() {
    for row in RANGES {
        let field = concrete(row);
        let ends = if row.only.is_empty() { vec![row.min, row.max] } else { row.only.to_vec() };
        for v in ends {
            let spec = load_spec(preset(row), Some(&set(&field, v))).unwrap_or_else(|e| panic!("{field} = {v}: {e}"));
            let values = read(row, &spec);
            assert!(values.contains(&(field.clone(), v)), "{field} = {v}: read {values:?}");
            check_fixed_ranges(&spec, "").unwrap_or_else(|e| panic!("{field} = {v}: {e}"));
        }
    }
}

#[test]
fn a_field_is_found_by_its_path_at_its_own_depth() {
    let find = |path: &str| range_of(&path.split('.').collect::<Vec<_>>()).map(|r| r.field);
    assert_eq!(find("deck.packs"), Some("deck.packs"));
    assert_eq!(find("deck.packs_by_players.6"), Some("deck.packs_by_players.*"));
    assert_eq!(find("score.values.black J"), Some("score.values.*"));
    assert_eq!(find("score.values_by_players.2.8"), Some("score.values_by_players.*.*"));
    assert_eq!(find("score.values"), None);
    assert_eq!(find("deck.packs.6"), None);
    assert_eq!(find("draw.limit"), None);
    // A key with a dot is one step of serde's path: still the table's key.
    assert_eq!(range_of(&["score", "values", "a.b"]).map(|r| r.field), Some("score.values.*"));
}

#[test]
fn the_words_of_a_range() {
    assert_eq!(row("deck.packs").allowed(), "a whole number from 1 to 4");
    assert_eq!(row("deck.jokers").allowed(), "0 or 2 (jokers per pack)");
    assert_eq!(row("score.winner_bonus").allowed(), "a whole number from -1,000,000 to 1,000,000");
    assert_eq!(row("limits.max_decisions").allowed(), "a whole number from 0 to 10,000,000 (0: no cap)");
    assert_eq!(row("series.max_hands").allowed(), "a whole number from 1 to 4,294,967,295");
    assert_eq!(number(0), "0");
    assert_eq!(number(-999), "-999");
    assert_eq!(number(-1_000), "-1,000");
    // The per-player target's note quotes the largest target.
    let per_player = row("series.target_per_player");
    assert!(per_player.note.ends_with(&format!(" {}", number(MAX_SERIES_TARGET))), "{}", per_player.note);
    assert_eq!(per_player.max * FEWEST_PLAYERS, i64::from(MAX_SERIES_TARGET));
}

#[test]
fn a_per_player_target_too_large_for_the_player_count_states_the_range() {
    // 300,000 per player fits 3 players, not 4.
    let load = |n| Rules::load("crazy_eights", n, Some(&json!({"series": {"target_per_player": 300_000}})));
    assert!(load(3).is_ok());
    let e = load(4).err().unwrap();
    // Not "must be a whole number from 1 to 500,000 (...), got 300,000": 300,000 is in that range.
    let want = "times 4 players must be at most 1,000,000, got 300,000 (1,200,000 in all)";
    assert_eq!(e, RulesError::invalid("series.target_per_player", want));
}

#[test]
fn a_value_from_a_per_player_table_names_that_table() {
    // packs_by_players = { "6" = 0 } was taken at fewer than 6 players, and named
    // `deck.packs` at 6 or more.
    for n in [2, 6] {
        let e = Rules::load("crazy_eights", n, Some(&json!({"deck": {"packs_by_players": {"6": 0}}}))).err().unwrap();
        assert_eq!(e.field(), Some("deck.packs_by_players.6"), "{e}");
    }
    // A hand size the deck cannot deal, from the per-player table, was named `deal.hand_size`.
    let deal = json!({"deal": {"hand_size_by_players": {"3": 20}}});
    let e = Rules::load("crazy_eights", 3, Some(&deal)).err().unwrap();
    assert_eq!(e.field(), Some("deal.hand_size_by_players.3"), "{e}");
    assert!(Rules::load("crazy_eights", 2, Some(&deal)).is_ok());
}

#[test]
fn a_player_range_whose_ends_cross_is_refused_naming_both() {
    let e = Rules::load("crazy_eights", 4, Some(&json!({"players": {"min": 5, "max": 3}}))).err().unwrap();
    assert_eq!(e, RulesError::invalid("players", "players.min must be at most players.max, got min 5 and max 3"));
}
