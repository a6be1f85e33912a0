//! The rules encoding: a fixed-size, bounded `f32` vector of a compiled rule set, so that an
//! agent can be told the rules it plays under (`obs_rules=True` in the Python envs).
//!
//! Two parts, in this order:
//!
//! * **per card**: [`NUM_FACES`] rows of [`CARD_FEATURES`] values, one row per face in card
//!   order (`AC`..`KS`, `RJ`, `BJ`): everything the effect table gives that face
//!   ([`super::compiled::CardRule`]), its copies in the deck, points, start-card effect and the
//!   table-wide face sets it belongs to (rank-blocked, doubling, not multipliable, pure wild);
//! * **table-wide**: [`TABLE_FEATURES`] values: the deal, drawing, passing, the stock, chains,
//!   multi-card plays, the last card, the end of a hand, options, scoring and the match
//!   ([`super::settings::Settings`] and the compiled deck, hand size and target).
//!
//! Total [`RULES_SIZE`]. Every value is a flag (0 or 1), a one-hot group (all zeros for the
//! default choice, named in [`CARD_FEATURE_NAMES`] / [`TABLE_FEATURE_NAMES`] after a `=`), or
//! a number divided by a fixed scale that brings the usual values into `[0, 1]`; the bounds of
//! every entry are in [`bounds`]. The encoding is a function of the compiled rules for one
//! player count (the deck, hand size and points may depend on it), never of names or prose:
//! rule sets that play the same encode the same, and (see [`Rules::same_play`]) rule sets that
//! play differently encode differently, with two documented limits:
//!
//! * chain groups are encoded as [`CHAIN_GROUP_SLOTS`] slots in the engine's group order (the
//!   order of their first face); the groups past the last slot share it;
//! * which wild cards may not be played on which cards (`wild.forbidden_on`) is a relation
//!   between faces, encoded by its row and column counts (`wild_forbidden_count` on the wild,
//!   `wilds_forbidden_here` on the card below): exact when the wild cards that have such a
//!   list share one (every preset and every sampled rule set does).
//!
//! Files: this one holds the writer (`Out`) and the layout it records; `cards` writes a
//! card's row (wild cards, nomination, draw chains, the other effects, the face sets);
//! `table` the deal and seating; `turn` drawing, passing, the stock, chains, multi-card plays
//! and the last card; `end` the end of a hand, the options, scoring and the match.
//!
//! Every column is written in one place, with its name and its bounds (`Out::col`), and
//! the order of the writes is the order of the columns: the names and bounds are recorded
//! by running the encoders once with a writer that keeps them (`Layout`), as OpenSpiel's
//! observers derive their tensor layout from the writes. The encoders write every column
//! whatever the rules (no write depends on a value), so one run gives the layout of all.

use super::compiled::Rules;
use crate::card::NUM_FACES;
use std::sync::{LazyLock, OnceLock};

mod cards;
mod end;
mod table;
mod turn;

/// Chain-group slots of the per-card rows (membership, cancel and shield): enough for every
/// preset (at most 3 groups) and every rule set the rule space draws.
pub const CHAIN_GROUP_SLOTS: usize = 4;

/// Scale of card counts per face (copies, at most 4 packs).
const COPIES: f32 = 4.0;
/// Scale of card points.
const POINTS: f32 = 100.0;
/// Scale of cards drawn, given, picked up (draw chains, penalties).
const DRAWS: f32 = 16.0;
/// Scale of skips.
const SKIPS: f32 = 4.0;
/// The largest value of a `u8` setting, as a bound.
const BYTE: f32 = u8::MAX as f32;
/// The largest value of a `u32` setting, as a bound.
const WORD: f32 = u32::MAX as f32;

/// Values per card row (the columns `cards` writes, checked against its writes).
pub const CARD_FEATURES: usize = 78;
/// Table-wide values (the columns `table`, `turn` and `end` write, checked against their
/// writes).
pub const TABLE_FEATURES: usize = 90;
/// Length of the rules encoding: `NUM_FACES * CARD_FEATURES + TABLE_FEATURES`.
pub const RULES_SIZE: usize = NUM_FACES * CARD_FEATURES + TABLE_FEATURES;

/// Names of the per-card columns, in order (`group=value` for a one-hot column), as the
/// encoders write them.
pub static CARD_FEATURE_NAMES: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| layout().card.iter().map(|c| c.name).collect());

/// Names of the table-wide values, in order (`group=value` for a one-hot column), as the
/// encoders write them.
pub static TABLE_FEATURE_NAMES: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| layout().table.iter().map(|c| c.name).collect());

/// Where the encoders write: one column at a time, with its name and bounds.
trait Out {
    /// The next column: its name, value and the bounds of its values.
    fn col(&mut self, name: &'static str, x: f32, lo: f32, hi: f32);

    /// A flag: 1 or 0.
    #[inline]
    fn flag(&mut self, name: &'static str, b: bool) {
        self.col(name, if b { 1.0 } else { 0.0 }, 0.0, 1.0);
    }

    /// A number from 0 to `max`, divided by `scale`.
    #[inline]
    fn num(&mut self, name: &'static str, x: f64, scale: f32, max: f32) {
        self.num_in(name, x, scale, 0.0, max);
    }

    /// A number from `min` to `max`, divided by `scale`.
    #[inline]
    fn num_in(&mut self, name: &'static str, x: f64, scale: f32, min: f32, max: f32) {
        self.col(name, (x / f64::from(scale)) as f32, min / scale, max / scale);
    }

    /// An optional number: the flag `set` (it is given), then the number (0 when not).
    #[inline]
    fn opt(&mut self, set: &'static str, name: &'static str, x: Option<u32>, scale: f32, max: f32) {
        self.flag(set, x.is_some());
        self.num(name, f64::from(x.unwrap_or(0)), scale, max);
    }
}

/// Writes the values in order into a slice (names and bounds are the layout's).
struct Writer<'a> {
    v: &'a mut [f32],
    at: usize,
}

impl Out for Writer<'_> {
    #[inline]
    fn col(&mut self, _name: &'static str, x: f32, _lo: f32, _hi: f32) {
        self.v[self.at] = x;
        self.at += 1;
    }
}

/// One column of the layout.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Column {
    name: &'static str,
    lo: f32,
    hi: f32,
}

/// Records the columns written (names and bounds), not the values.
#[derive(Default, Debug, PartialEq)]
struct Layout {
    card: Vec<Column>,
    table: Vec<Column>,
}

/// Records into one list of columns.
struct Record<'a>(&'a mut Vec<Column>);

impl Out for Record<'_> {
    fn col(&mut self, name: &'static str, _x: f32, lo: f32, hi: f32) {
        self.0.push(Column { name, lo, hi });
    }
}

impl Layout {
    /// The columns `r`'s encoders write (the same for every rule set).
    fn of(r: &Rules) -> Layout {
        let mut l = Layout::default();
        r.encode_card(0, &mut Record(&mut l.card));
        r.encode_table(&mut Record(&mut l.table));
        l
    }
}

/// The layout of the encoding, recorded once from a preset's rules.
fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let r = Rules::load("crazy_eights", 2, None).expect("the crazy_eights preset loads");
        let l = Layout::of(&r);
        assert_eq!(l.card.len(), CARD_FEATURES, "CARD_FEATURES counts the columns of a card row");
        assert_eq!(l.table.len(), TABLE_FEATURES, "TABLE_FEATURES counts the table-wide columns");
        l
    })
}

impl Rules {
    /// Write the rules encoding (see the module documentation) into `out`, which must hold
    /// [`RULES_SIZE`] values.
    pub fn encode(&self, out: &mut [f32]) {
        assert_eq!(out.len(), RULES_SIZE, "the rules encoding has RULES_SIZE values");
        let mut o = Writer { v: out, at: 0 };
        for i in 0..NUM_FACES {
            self.encode_card(i, &mut o);
        }
        debug_assert_eq!(o.at, NUM_FACES * CARD_FEATURES);
        self.encode_table(&mut o);
        debug_assert_eq!(o.at, RULES_SIZE);
    }

    /// The table-wide columns, section by section.
    fn encode_table(&self, o: &mut impl Out) {
        self.encode_deal(o);
        self.encode_turn(o);
        self.encode_end(o);
    }

    /// True when `self` and `other` play the same game: the same player count, deck, hand
    /// size, effect table, points, start effects, face sets and table-wide settings, so that
    /// the same seeds deal the same games and the same actions have the same results. Names,
    /// prose, the names of chain groups and the unresolved specification are not compared.
    pub fn same_play(&self, other: &Rules) -> bool {
        self.num_players == other.num_players
            && self.packs == other.packs
            && self.deck == other.deck
            && self.hand_size == other.hand_size
            && self.card == other.card
            && self.points == other.points
            && self.chain_groups.len() == other.chain_groups.len()
            && self.rank_blocked == other.rank_blocked
            && self.start == other.start
            && self.series_target == other.series_target
            && self.double_mask == other.double_mask
            && self.arithmetic == other.arithmetic
            && self.rogue == other.rogue
            && self.settings == other.settings
    }
}

/// Lower and upper bound of every entry of the encoding (finite), in its order.
pub fn bounds() -> (Vec<f32>, Vec<f32>) {
    let l = layout();
    let columns = || (0..NUM_FACES).flat_map(|_| l.card.iter()).chain(l.table.iter());
    (columns().map(|c| c.lo).collect(), columns().map(|c| c.hi).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Card;
    use crate::rules::load::{load_spec, preset_names};

    fn encoded(r: &Rules) -> Vec<f32> {
        let mut v = vec![f32::NAN; RULES_SIZE];
        r.encode(&mut v);
        v
    }

    #[test]
    fn every_entry_is_written_and_within_its_bounds() {
        let (lo, hi) = bounds();
        for name in preset_names() {
            let spec = load_spec(name, None).unwrap();
            for n in [spec.players.min, spec.players.max] {
                let r = Rules::from_spec(spec.clone(), n.into()).unwrap();
                for (i, x) in encoded(&r).into_iter().enumerate() {
                    assert!(x.is_finite(), "{name} {n}p: entry {i} not written");
                    assert!(lo[i] <= x && x <= hi[i], "{name} {n}p: entry {i} = {x} outside [{}, {}]", lo[i], hi[i]);
                }
            }
        }
    }

    #[test]
    fn every_rule_set_writes_the_same_columns() {
        for name in preset_names() {
            let spec = load_spec(name, None).unwrap();
            for n in [spec.players.min, spec.players.max] {
                let r = Rules::from_spec(spec.clone(), n.into()).unwrap();
                assert_eq!(Layout::of(&r), *layout(), "{name} {n}p");
            }
        }
    }

    #[test]
    fn column_names_are_unique_and_bounds_ordered() {
        for part in [&layout().card, &layout().table] {
            for (i, c) in part.iter().enumerate() {
                assert!(part[..i].iter().all(|d| d.name != c.name), "{} written twice", c.name);
                assert!(c.lo.is_finite() && c.hi.is_finite() && c.lo < c.hi, "{c:?}");
            }
        }
    }

    #[test]
    fn presets_fit_the_chain_group_slots() {
        for name in preset_names() {
            let spec = load_spec(name, None).unwrap();
            let r = Rules::from_spec(spec.clone(), spec.players.max.into()).unwrap();
            assert!(r.chain_groups.len() <= CHAIN_GROUP_SLOTS, "{name}: {:?}", r.chain_groups);
        }
    }

    #[test]
    fn a_changed_card_changes_its_row_only() {
        let a = Rules::load("crazy_eights", 2, None).unwrap();
        let b = Rules::load("crazy_eights", 2, Some(&serde_json::json!({"cards": {"QS": {"skip": 1}}}))).unwrap();
        let (ea, eb) = (encoded(&a), encoded(&b));
        let qs: Card = "QS".parse().unwrap();
        let row = qs.index() * CARD_FEATURES..(qs.index() + 1) * CARD_FEATURES;
        for i in 0..RULES_SIZE {
            let col = CARD_FEATURE_NAMES[i % CARD_FEATURES];
            let expect_change = row.contains(&i) && col == "skip";
            assert_eq!(ea[i] != eb[i], expect_change, "entry {i} ({col})");
        }
        assert!(!a.same_play(&b));
    }
}
