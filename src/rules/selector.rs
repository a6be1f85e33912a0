//! Card selectors (`"8"`, `"hearts"`, `"QS"`, `"red_jacks"`, `"jokers"`, ...): resolved to a
//! set of faces with a specificity, and settings keyed by selector applied by precedence
//! (general selectors first, more specific ones on top). The compiler, the rules in words and
//! the rule space read them.

use super::RulesError;
use crate::card::{Card, NUM_FACES, Rank};

/// A card selector resolved to a set of faces, with its specificity (higher wins).
pub(crate) fn parse_selector(sel: &str) -> Option<(u64, u8)> {
    let s = sel.trim();
    let mask_of = |f: &dyn Fn(Card) -> bool| Card::all().filter(|&c| f(c)).fold(0u64, |m, c| m | 1 << c.index());
    if s.eq_ignore_ascii_case("joker") || s.eq_ignore_ascii_case("jokers") {
        return Some((mask_of(&|c| c.is_joker()), 1));
    }
    if s.eq_ignore_ascii_case("any") {
        return Some((mask_of(&|_| true), 0));
    }
    // "red J", "black 7" (any case): the prefix is ASCII, so the split falls on a char boundary.
    let colour = |p: &str| s.len() > p.len() && s.as_bytes()[..p.len()].eq_ignore_ascii_case(p.as_bytes());
    if let Some((red, rest)) = if colour("red ") {
        Some((true, &s[4..]))
    } else if colour("black ") {
        Some((false, &s[6..]))
    } else {
        None
    } {
        let r = Rank::parse(rest)?;
        return Some((mask_of(&|c| c.rank() == Some(r) && c.is_red() == red), 1));
    }
    if let Some(r) = Rank::parse(s) {
        return Some((mask_of(&|c| c.rank() == Some(r)), 0));
    }
    let c: Card = s.parse().ok()?;
    Some((1u64 << c.index(), 2))
}

fn selector_mask(field: &str, sel: &str) -> Result<(u64, u8), RulesError> {
    selector_mask_named(|| field.to_string(), sel)
}

/// [`selector_mask`] with the field's name built only for an error.
pub(crate) fn selector_mask_named(field: impl FnOnce() -> String, sel: &str) -> Result<(u64, u8), RulesError> {
    parse_selector(sel).ok_or_else(|| {
        RulesError::invalid(
            field(),
            format!("unknown card selector {sel:?}: use a rank (\"8\", \"T\"), a card (\"QS\"), a colour group (\"black J\"), \"joker\", \"RJ\" or \"BJ\""),
        )
    })
}

/// The faces of several selectors together; `field` names them in errors.
pub(crate) fn selectors_union(field: &str, sels: &[String]) -> Result<u64, RulesError> {
    sels.iter().try_fold(0u64, |m, sel| Ok(m | selector_mask(field, sel)?.0))
}

/// One `(precedence, faces, value)` entry per selector of `table`; a selector is named
/// `{prefix}.{selector}` in errors. `bonus` raises the precedence of the whole table.
pub(crate) fn selector_entries<'a, T: 'a>(
    prefix: &str,
    table: impl IntoIterator<Item = (&'a String, T)>,
    bonus: u8,
) -> Result<Vec<(u8, u64, T)>, RulesError> {
    let mut names: Vec<(&str, u64, u8)> = Vec::new();
    table
        .into_iter()
        .map(|(sel, v)| {
            let (mask, lvl) = selector_mask_named(|| format!("{prefix}.{sel}"), sel)?;
            // Two names of the same cards ("A" and "1", "T" and "10") at one precedence: which
            // one applies would be the table's order, and the rules in words would list both.
            if let Some((other, _, _)) = names.iter().find(|&&(_, m, l)| m == mask && l == lvl) {
                return Err(RulesError::invalid(
                    format!("{prefix}.{sel}"),
                    format!("{prefix}.{other} names the same cards: give their settings under one of the two"),
                ));
            }
            names.push((sel.as_str(), mask, lvl));
            Ok((lvl + bonus, mask, v))
        })
        .collect()
}

/// Apply selector entries from least to most specific (entries of equal precedence keep
/// their order): `apply(face, value)` runs for every face of every entry, so the most
/// specific selector of a face has the last word.
pub(crate) fn apply_by_precedence<T>(mut entries: Vec<(u8, u64, T)>, mut apply: impl FnMut(usize, &T)) {
    entries.sort_by_key(|e| e.0);
    for (_, mask, v) in &entries {
        for i in 0..NUM_FACES {
            if mask & (1 << i) != 0 {
                apply(i, v);
            }
        }
    }
}
