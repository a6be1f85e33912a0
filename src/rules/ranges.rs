//! The fixed allowed values of the numeric rules fields that have them, in one table
//! ([`RANGES`]): `deck.packs` is 1 to 4, whatever the rest of the rules say.
//!
//! Both ways a value can be refused take their words from here, so that a field is never
//! described with two different ranges: serde's error for a value the field's type cannot
//! hold (`deserialize.rs`: `-1` for `deck.packs`, a `u8`) and validation's for one it can
//! hold but the engine refuses ([`RulesSpec::check_ranges`]: `0` or `5`). A field not listed
//! takes any value of its type, and serde's error states that type's range.
//!
//! Checks that depend on other fields stay with validation (`deal.hand_size` against the deck,
//! `players.min` against `players.max`); a row's note names such a limit where there is one.

use super::compiled::MAX_PLAYERS;
use super::error::RulesError;
use super::spec::{MAX_CARD_POINTS, MAX_DECISIONS, MAX_SERIES_TARGET, MAX_WINNER_BONUS, RulesSpec};
use crate::card_set::MAX_CARDS;
use std::collections::BTreeMap;

/// Most 52-card packs a deck may have (`deck.packs`): 216 cards with jokers, [`MAX_CARDS`].
pub(super) const MAX_PACKS: u8 = 4;
const _: () = assert!(MAX_PACKS as usize * 54 == MAX_CARDS);

/// Fewest players a rule set may allow (`players.min`).
const FEWEST_PLAYERS: i64 = 2;

/// The allowed values of one numeric rules field.
pub(super) struct FieldRange {
    /// The dotted field; `*` stands for any one key of a table (`score.values.*`).
    pub(super) field: &'static str,
    /// Smallest allowed value.
    pub(super) min: i64,
    /// Largest allowed value.
    pub(super) max: i64,
    /// The only allowed values, where not every whole number from `min` to `max` is
    /// (`deck.jokers`: 0 or 2); empty where every one is.
    pub(super) only: &'static [i64],
    /// A few words after the range, in parentheses ("0: no cap"), or "".
    pub(super) note: &'static str,
    /// The field's values in a specification, each with the dotted field it is at (the
    /// table's key for a `*`). An absent optional field has none.
    values: fn(&RulesSpec) -> Vec<(String, i64)>,
}

impl FieldRange {
    /// The allowed values in words: "a whole number from 1 to 4", "0 or 2 (jokers per pack)".
    pub(super) fn allowed(&self) -> String {
        let words = match self.only {
            [] => format!("a whole number from {} to {}", number(self.min), number(self.max)),
            [one] => number(*one),
            [head @ .., last] => {
                let head: Vec<String> = head.iter().map(|&v| number(v)).collect();
                format!("{} or {}", head.join(", "), number(*last))
            }
        };
        if self.note.is_empty() { words } else { format!("{words} ({})", self.note) }
    }

    /// Whether `value` is allowed.
    pub(super) fn admits(&self, value: i64) -> bool {
        (self.min..=self.max).contains(&value) && (self.only.is_empty() || self.only.contains(&value))
    }

    /// The error for `field` (this row's field, a table's key in place of a `*`) given `got`:
    /// "must be a whole number from 1 to 4, got 0".
    pub(super) fn refusal(&self, field: impl Into<String>, got: &str) -> RulesError {
        RulesError::invalid(field, format!("must be {}, got {got}", self.allowed()))
    }

    /// `Err` with [`refusal`](Self::refusal) unless `value` is allowed.
    fn check(&self, field: String, value: i64) -> Result<(), RulesError> {
        if self.admits(value) { Ok(()) } else { Err(self.refusal(field, &number(value))) }
    }

    /// Whether `segments` (a field's dotted path, split) is this row's field.
    fn matches<S: AsRef<str>>(&self, segments: &[S]) -> bool {
        let pattern: Vec<&str> = self.field.split('.').collect();
        pattern.len() == segments.len() && pattern.iter().zip(segments).all(|(p, s)| *p == "*" || *p == s.as_ref())
    }
}

/// `-1234567` as `-1,234,567`.
pub(super) fn number(v: impl Into<i128>) -> String {
    let v: i128 = v.into();
    let digits = v.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if v < 0 {
        out.push('-');
    }
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// One value at `field`.
fn one(field: &str, v: impl Into<i64>) -> Vec<(String, i64)> {
    vec![(field.to_string(), v.into())]
}

/// The values of a table keyed by strings, at `field.<key>`.
fn keyed<T: Copy + Into<i64>>(field: &str, table: &BTreeMap<String, T>) -> Vec<(String, i64)> {
    table.iter().map(|(k, &v)| (format!("{field}.{k}"), v.into())).collect()
}

/// Largest `series.target_per_player`: at the fewest players the product is at most
/// [`MAX_SERIES_TARGET`]; with more players it is checked against the count.
const MAX_TARGET_PER_PLAYER: i64 = MAX_SERIES_TARGET as i64 / FEWEST_PLAYERS;

/// The fixed allowed values of the numeric rules fields. See the module documentation.
///
/// A match bound (`series.*`) is at least 1: every score is at 0 before the first hand, and
/// no match is over before it (a target or a number of hands of 0 played a single hand).
pub(super) static RANGES: &[FieldRange] = &[
    FieldRange {
        field: "players.min",
        min: FEWEST_PLAYERS,
        max: MAX_PLAYERS as i64,
        only: &[],
        note: "",
        values: |s| one("players.min", s.players.min),
    },
    FieldRange {
        field: "players.max",
        min: FEWEST_PLAYERS,
        max: MAX_PLAYERS as i64,
        only: &[],
        note: "",
        values: |s| one("players.max", s.players.max),
    },
    FieldRange {
        field: "deck.packs",
        min: 1,
        max: MAX_PACKS as i64,
        only: &[],
        note: "",
        values: |s| one("deck.packs", s.deck.packs),
    },
    FieldRange {
        field: "deck.packs_by_players.*",
        min: 1,
        max: MAX_PACKS as i64,
        only: &[],
        note: "",
        values: |s| keyed("deck.packs_by_players", &s.deck.packs_by_players),
    },
    FieldRange {
        field: "deck.jokers",
        min: 0,
        max: 2,
        only: &[0, 2],
        note: "jokers per pack",
        values: |s| one("deck.jokers", s.deck.jokers),
    },
    FieldRange {
        field: "deal.hand_size",
        min: 1,
        max: u8::MAX as i64,
        only: &[],
        note: "and the deal must fit the deck",
        values: |s| one("deal.hand_size", s.deal.hand_size),
    },
    FieldRange {
        field: "deal.hand_size_by_players.*",
        min: 1,
        max: u8::MAX as i64,
        only: &[],
        note: "and the deal must fit the deck",
        values: |s| keyed("deal.hand_size_by_players", &s.deal.hand_size_by_players),
    },
    FieldRange {
        field: "series.target",
        min: 1,
        max: MAX_SERIES_TARGET as i64,
        only: &[],
        note: "",
        values: |s| s.series.target.map_or_else(Vec::new, |v| one("series.target", v)),
    },
    FieldRange {
        field: "series.target_per_player",
        min: 1,
        max: MAX_TARGET_PER_PLAYER,
        only: &[],
        // A test checks the number against MAX_SERIES_TARGET.
        note: "and times the player count at most 1,000,000",
        values: |s| s.series.target_per_player.map_or_else(Vec::new, |v| one("series.target_per_player", v)),
    },
    FieldRange {
        field: "series.max_hands",
        min: 1,
        max: u32::MAX as i64,
        only: &[],
        note: "",
        values: |s| s.series.max_hands.map_or_else(Vec::new, |v| one("series.max_hands", v)),
    },
    FieldRange {
        field: "countdown.start_score",
        min: 1,
        max: 13,
        only: &[],
        note: "the wild rank follows the score",
        values: |s| s.countdown.as_ref().map_or_else(Vec::new, |c| one("countdown.start_score", c.start_score)),
    },
    FieldRange {
        field: "score.values.*",
        min: -(MAX_CARD_POINTS as i64),
        max: MAX_CARD_POINTS as i64,
        only: &[],
        note: "card points",
        values: |s| keyed("score.values", &s.score.values),
    },
    FieldRange {
        field: "score.values_by_players.*.*",
        min: -(MAX_CARD_POINTS as i64),
        max: MAX_CARD_POINTS as i64,
        only: &[],
        note: "card points",
        values: |s| {
            let by = &s.score.values_by_players;
            by.iter().flat_map(|(k, table)| keyed(&format!("score.values_by_players.{k}"), table)).collect()
        },
    },
    FieldRange {
        field: "score.winner_bonus",
        min: -(MAX_WINNER_BONUS as i64),
        max: MAX_WINNER_BONUS as i64,
        only: &[],
        note: "",
        values: |s| one("score.winner_bonus", s.score.winner_bonus),
    },
    FieldRange {
        field: "limits.max_decisions",
        min: 0,
        max: MAX_DECISIONS as i64,
        only: &[],
        note: "0: no cap",
        values: |s| one("limits.max_decisions", s.limits.max_decisions),
    },
];

/// The row of the field at `segments` (a dotted path, split: `["deck", "packs_by_players",
/// "6"]`), if it has one.
pub(super) fn range_of<S: AsRef<str>>(segments: &[S]) -> Option<&'static FieldRange> {
    RANGES.iter().find(|r| r.matches(segments))
}

/// The row whose field is `field`, written as in the table (`score.values.*`).
pub(super) fn row(field: &str) -> &'static FieldRange {
    RANGES.iter().find(|r| r.field == field).unwrap_or_else(|| unreachable!("no rules range for {field}"))
}

/// Every value in `s` of the fields of the table that start with `prefix` (`"players."`;
/// `""`: all of them), checked against its row, in the table's order: the first refused
/// names its field (a table's key included) and what is allowed.
pub(super) fn check_fixed_ranges(s: &RulesSpec, prefix: &str) -> Result<(), RulesError> {
    let rows = RANGES.iter().filter(|r| r.field.starts_with(prefix));
    rows.map(|r| (r, (r.values)(s))).try_for_each(|(r, values)| values.into_iter().try_for_each(|(f, v)| r.check(f, v)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rules, load_spec};
    use serde_json::{Value, json};

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
                let e =
                    Rules::load(preset(row), 2, Some(&set(&field, v))).err().unwrap_or_else(|| panic!("{field} = {v}"));
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
                let spec =
                    load_spec(preset(row), Some(&set(&field, v))).unwrap_or_else(|e| panic!("{field} = {v}: {e}"));
                let values = (row.values)(&spec);
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
        let allowed = row("series.target_per_player").allowed();
        let want = format!("must be {allowed}, got 300,000, 1,200,000 for 4 players");
        assert_eq!(e, RulesError::invalid("series.target_per_player", want));
    }

    #[test]
    fn a_value_from_a_per_player_table_names_that_table() {
        // packs_by_players = { "6" = 0 } was taken at fewer than 6 players, and named
        // `deck.packs` at 6 or more.
        for n in [2, 6] {
            let e =
                Rules::load("crazy_eights", n, Some(&json!({"deck": {"packs_by_players": {"6": 0}}}))).err().unwrap();
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
}
