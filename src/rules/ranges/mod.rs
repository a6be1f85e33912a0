//! The fixed allowed values of the numeric rules fields that have them, in one table
//! ([`RANGES`]): `deck.packs` is 1 to 4, whatever the rest of the rules say.
//!
//! Both ways a value can be refused take their words from here, so that a field is never
//! described with two different ranges: serde's error for a value the field's type cannot
//! hold (`deserialize.rs`: `-1` for `deck.packs`, a `u8`) and validation's for one it can
//! hold but the engine refuses ([`check_ranges`]: `0` or `5`). A field not listed
//! takes any value of its type, and serde's error states that type's range.
//!
//! Checks that depend on other fields stay with validation (`deal.hand_size` against the deck,
//! `players.min` against `players.max`); a row's note names such a limit where there is one.

use super::error::RulesError;
use super::spec::{MAX_CARD_POINTS, MAX_DECISIONS, MAX_PLAYERS, MAX_SERIES_TARGET, MAX_WINNER_BONUS, RulesSpec};
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
    /// Visits the field's values in a specification, each with the keys of its tables that
    /// stand for the `*`s (none for a plain field); an absent optional field has none. A
    /// visitor's error stops the visit. Nothing is allocated on the way: a field's name is
    /// written out ([`at`](Self::at)) only for an error.
    values: fn(&RulesSpec, Visit<'_>) -> Result<(), RulesError>,
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

    /// `Err` with [`refusal`](Self::refusal), naming the field at `keys`, unless `value` is
    /// allowed.
    fn check(&self, keys: &[&str], value: i64) -> Result<(), RulesError> {
        if self.admits(value) { Ok(()) } else { Err(self.refusal(self.at(keys), &number(value))) }
    }

    /// This row's field with its `*`s replaced by `keys`, in order (`score.values_by_players.2.8`).
    pub(super) fn at(&self, keys: &[&str]) -> String {
        let mut keys = keys.iter();
        let parts: Vec<&str> =
            self.field.split('.').map(|p| if p == "*" { keys.next().copied().unwrap_or(p) } else { p }).collect();
        parts.join(".")
    }

    /// Each value of this row's field in `s`, with the keys that stand for its `*`s.
    pub(super) fn visit(&self, s: &RulesSpec, f: Visit<'_>) -> Result<(), RulesError> {
        (self.values)(s, f)
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

/// What [`FieldRange::values`] calls for each value: the keys standing for the row's `*`s,
/// and the value.
pub(super) type Visit<'a> = &'a mut dyn FnMut(&[&str], i64) -> Result<(), RulesError>;

/// A plain field's value, if it is set.
fn one(v: Option<impl Into<i64>>, f: Visit<'_>) -> Result<(), RulesError> {
    v.map_or(Ok(()), |v| f(&[], v.into()))
}

/// The values of a table keyed by strings (the field's last `*`), after the key of the table
/// holding it, where there is one (`score.values_by_players.*.*`).
fn keyed<T: Copy + Into<i64>>(
    outer: Option<&str>,
    table: &BTreeMap<String, T>,
    f: Visit<'_>,
) -> Result<(), RulesError> {
    table.iter().try_for_each(|(k, &v)| match outer {
        None => f(&[k.as_str()], v.into()),
        Some(a) => f(&[a, k.as_str()], v.into()),
    })
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
        values: |s, f| one(Some(s.players.min), f),
    },
    FieldRange {
        field: "players.max",
        min: FEWEST_PLAYERS,
        max: MAX_PLAYERS as i64,
        only: &[],
        note: "",
        values: |s, f| one(Some(s.players.max), f),
    },
    FieldRange {
        field: "deck.packs",
        min: 1,
        max: MAX_PACKS as i64,
        only: &[],
        note: "",
        values: |s, f| one(Some(s.deck.packs), f),
    },
    FieldRange {
        field: "deck.packs_by_players.*",
        min: 1,
        max: MAX_PACKS as i64,
        only: &[],
        note: "",
        values: |s, f| keyed(None, &s.deck.packs_by_players, f),
    },
    FieldRange {
        field: "deck.jokers",
        min: 0,
        max: 2,
        only: &[0, 2],
        note: "jokers per pack",
        values: |s, f| one(Some(s.deck.jokers), f),
    },
    FieldRange {
        field: "deal.hand_size",
        min: 1,
        max: u8::MAX as i64,
        only: &[],
        note: "and the deal must fit the deck",
        values: |s, f| one(Some(s.deal.hand_size), f),
    },
    FieldRange {
        field: "deal.hand_size_by_players.*",
        min: 1,
        max: u8::MAX as i64,
        only: &[],
        note: "and the deal must fit the deck",
        values: |s, f| keyed(None, &s.deal.hand_size_by_players, f),
    },
    FieldRange {
        field: "series.target",
        min: 1,
        max: MAX_SERIES_TARGET as i64,
        only: &[],
        note: "",
        values: |s, f| one(s.series.target, f),
    },
    FieldRange {
        field: "series.target_per_player",
        min: 1,
        max: MAX_TARGET_PER_PLAYER,
        only: &[],
        // A test checks the number against MAX_SERIES_TARGET.
        note: "and times the player count at most 1,000,000",
        values: |s, f| one(s.series.target_per_player, f),
    },
    FieldRange {
        field: "series.max_hands",
        min: 1,
        max: u32::MAX as i64,
        only: &[],
        note: "",
        values: |s, f| one(s.series.max_hands, f),
    },
    FieldRange {
        field: "countdown.start_score",
        min: 1,
        max: 13,
        only: &[],
        note: "the wild rank follows the score",
        values: |s, f| one(s.countdown.as_ref().map(|c| c.start_score), f),
    },
    FieldRange {
        field: "score.values.*",
        min: -(MAX_CARD_POINTS as i64),
        max: MAX_CARD_POINTS as i64,
        only: &[],
        note: "card points",
        values: |s, f| keyed(None, &s.score.values, f),
    },
    FieldRange {
        field: "score.values_by_players.*.*",
        min: -(MAX_CARD_POINTS as i64),
        max: MAX_CARD_POINTS as i64,
        only: &[],
        note: "card points",
        values: |s, f| s.score.values_by_players.iter().try_for_each(|(k, table)| keyed(Some(k.as_str()), table, f)),
    },
    FieldRange {
        field: "score.winner_bonus",
        min: -(MAX_WINNER_BONUS as i64),
        max: MAX_WINNER_BONUS as i64,
        only: &[],
        note: "",
        values: |s, f| one(Some(s.score.winner_bonus), f),
    },
    FieldRange {
        field: "limits.max_decisions",
        min: 0,
        max: MAX_DECISIONS as i64,
        only: &[],
        note: "0: no cap",
        values: |s, f| one(Some(s.limits.max_decisions), f),
    },
];

/// The row of the field at `segments` (a dotted path, split: `["deck", "packs_by_players",
/// "6"]`), if it has one.
pub(super) fn range_of<S: AsRef<str>>(segments: &[S]) -> Option<&'static FieldRange> {
    RANGES.iter().find(|r| r.matches(segments))
}

/// Every value in `s` of the fields of the table that start with `prefix` (`"players."`;
/// `""`: all of them), checked against its row, in the table's order: the first refused
/// names its field (a table's key included) and what is allowed.
pub(super) fn check_fixed_ranges(s: &RulesSpec, prefix: &str) -> Result<(), RulesError> {
    RANGES.iter().filter(|r| r.field.starts_with(prefix)).try_for_each(|r| r.visit(s, &mut |keys, v| r.check(keys, v)))
}

/// Numeric fields whose type allows values the engine cannot use safely, or that mean
/// nothing (`deck.packs = 0`): each value of `s` is checked against its field's allowed values
/// (the table above, whose words serde's errors use too), and the per-player target against
/// `num_players`. An error names the field and what is allowed.
pub(super) fn check_ranges(s: &RulesSpec, num_players: usize) -> Result<(), RulesError> {
    check_fixed_ranges(s, "")?;
    if let Some(t) = s.series.target_per_player {
        let total = u64::from(t).saturating_mul(num_players as u64);
        if total > u64::from(MAX_SERIES_TARGET) {
            // In range on its own (the row's check came first): the product is what is refused.
            return Err(RulesError::invalid(
                "series.target_per_player",
                format!(
                    "times {num_players} players must be at most {}, got {} ({} in all)",
                    number(MAX_SERIES_TARGET),
                    number(t),
                    number(total)
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
