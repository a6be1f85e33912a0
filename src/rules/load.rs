//! From text to a [`RulesSpec`]: the embedded preset TOML files, their inheritance, the
//! deep merge of user overrides and the documented variants, and deserializing the merged
//! table with errors that name the dotted field.

use super::deserialize::{check_listed_once, spec_from_value};
use super::error::{RulesError, cut, quoted};
use super::spec::RulesSpec;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

const PRESETS: &[(&str, &str)] = &[
    ("crazy_eights", include_str!("presets/crazy_eights.toml")),
    ("crazy_eights_specials", include_str!("presets/crazy_eights_specials.toml")),
    ("switch_blackjack", include_str!("presets/switch_blackjack.toml")),
    ("crazy_eights_xtreme", include_str!("presets/crazy_eights_xtreme.toml")),
    ("crazy_eights_winner_collects", include_str!("presets/crazy_eights_winner_collects.toml")),
    ("kings_reverse", include_str!("presets/kings_reverse.toml")),
    ("grandads_game", include_str!("presets/grandads_game.toml")),
    ("chase_the_ace", include_str!("presets/chase_the_ace.toml")),
    ("blackjack_forum_house", include_str!("presets/blackjack_forum_house.toml")),
    ("one_left", include_str!("presets/one_left.toml")),
    ("sevens_and_eights", include_str!("presets/sevens_and_eights.toml")),
    ("jokers_and_nines", include_str!("presets/jokers_and_nines.toml")),
    ("fat_buddah", include_str!("presets/fat_buddah.toml")),
    ("crazy_eights_countdown", include_str!("presets/crazy_eights_countdown.toml")),
    ("crazy_eights_countdown_blog", include_str!("presets/crazy_eights_countdown_blog.toml")),
    ("bitch", include_str!("presets/bitch.toml")),
    ("crazy_pairs", include_str!("presets/crazy_pairs.toml")),
    ("rose_mau", include_str!("presets/rose_mau.toml")),
    ("advanced_switch", include_str!("presets/advanced_switch.toml")),
    ("zodiac", include_str!("presets/zodiac.toml")),
    ("openspiel_crazy_eights", include_str!("presets/openspiel_crazy_eights.toml")),
    ("one_card", include_str!("presets/one_card.toml")),
    ("stalin", include_str!("presets/stalin.toml")),
    ("thirty_eights", include_str!("presets/thirty_eights.toml")),
    ("larby_switch", include_str!("presets/larby_switch.toml")),
];

/// Names of the built-in presets.
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|(n, _)| *n).collect()
}

/// The TOML text of a preset.
pub fn preset_toml(name: &str) -> Result<&'static str, RulesError> {
    PRESETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
        .ok_or_else(|| RulesError::UnknownPreset { name: name.to_string(), available: preset_names().join(", ") })
}

fn toml_to_json(text: &str, what: &str) -> Result<Value, RulesError> {
    let v: toml::Value = toml::from_str(text).map_err(|e| RulesError::invalid(what, e.to_string()))?;
    serde_json::to_value(v).map_err(|e| RulesError::invalid(what, e.to_string()))
}

/// Deep merge: tables merge key by key; other values (and `null`) replace.
pub fn merge(base: &mut Value, over: &Value) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(k) {
                    Some(slot) if slot.is_object() && v.is_object() => merge(slot, v),
                    _ => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (b, o) => *b = o.clone(),
    }
}

/// Where two overlays disagree once merged in either order: the dotted paths both set, to
/// different values (a table in one and a plain value in the other included), with the two
/// values. Overlays with no such path give the same table in either order.
pub fn overlay_clashes(a: &Value, b: &Value) -> Vec<(String, Value, Value)> {
    fn walk(a: &Value, b: &Value, path: &mut Vec<String>, out: &mut Vec<(String, Value, Value)>) {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for (k, v) in x {
                    if let Some(w) = y.get(k) {
                        path.push(k.clone());
                        walk(v, w, path, out);
                        path.pop();
                    }
                }
            }
            _ if a != b => out.push((path.join("."), a.clone(), b.clone())),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(a, b, &mut Vec::new(), &mut out);
    out
}

/// True when `over` decides the dotted `path` whatever came before it: it sets a plain value
/// (not a table, which would merge) there or at a table above it.
pub fn settles(over: &serde_json::Map<String, Value>, path: &str) -> bool {
    let mut at = over;
    let mut keys = path.split('.').peekable();
    while let Some(key) = keys.next() {
        match at.get(key) {
            Some(Value::Object(inner)) if keys.peek().is_some() => at = inner,
            Some(Value::Object(_)) | None => return false,
            Some(_) => return true,
        }
    }
    false
}

/// Variants that set one field to different values would make the rules depend on the order
/// they are listed in: refused, naming the fields, unless the overrides settle each of them.
/// `new` are the variants being applied, `applied` those already in the table.
fn check_variant_clashes(
    table: &Value,
    new: &[String],
    applied: &[String],
    over: Option<&Value>,
) -> Result<(), RulesError> {
    let empty = serde_json::Map::new();
    let over = over.and_then(Value::as_object).unwrap_or(&empty);
    for (i, a) in new.iter().enumerate() {
        for b in new[i + 1..].iter().chain(applied) {
            let (Some(x), Some(y)) = (table.get(a), table.get(b)) else { continue };
            let open: Vec<String> = overlay_clashes(x, y)
                .into_iter()
                .filter(|(path, ..)| !settles(over, path))
                .map(|(path, u, v)| format!("{path} ({u} and {v})"))
                .collect();
            if !open.is_empty() {
                return Err(RulesError::invalid(
                    "variants",
                    format!(
                        "variants {a:?} and {b:?} both set {}, so the rules would depend on the order \
                         they are listed in; apply one of them, or set {} yourself (your value wins \
                         over both)",
                        open.join(", "),
                        if open.len() == 1 { "that field" } else { "those fields" }
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Where overlay `a` sets how a card's wild plays (`cards.8.wild.nominate`) and overlay `b`
/// turns that wild off (`cards.8.wild.enabled = false`, as `jacks_wild` does to the eights),
/// so that `a` would change nothing: the card's selector and `a`'s field.
pub fn inert_wild(a: &Value, b: &Value) -> Option<(String, String)> {
    let wild = |v: &Value, sel: &str| v.get("cards")?.get(sel)?.get("wild").cloned();
    a.get("cards")?.as_object()?.keys().find_map(|sel| {
        let set = wild(a, sel)?;
        let field = set.as_object()?.keys().find(|k| *k != "enabled")?.clone();
        (wild(b, sel)?.get("enabled") == Some(&Value::Bool(false))).then(|| (sel.clone(), field))
    })
}

/// A variant that sets how a card's wild plays beside another that turns that wild off
/// (`inert_wild`) would change nothing: refused, naming both and the card, unless the
/// overrides set `enabled` for that card themselves.
fn check_inert_wilds(
    table: &Value,
    new: &[String],
    applied: &[String],
    over: Option<&Value>,
) -> Result<(), RulesError> {
    let listed: Vec<&String> = new.iter().chain(applied).collect();
    for (i, a) in listed.iter().enumerate() {
        // Every pair with a new variant in it, in the order of the list: a new `a` against
        // every listed `b`, an applied `a` against the new ones (`new` leads `listed`), so
        // the work is |new| x |listed|, never |applied| squared.
        let others = if i < new.len() { &listed[..] } else { &listed[..new.len()] };
        for b in others {
            if a == b {
                continue;
            }
            let (Some(x), Some(y)) = (table.get(a.as_str()), table.get(b.as_str())) else { continue };
            let Some((sel, field)) = inert_wild(x, y) else { continue };
            if over.and_then(Value::as_object).is_some_and(|o| settles(o, &format!("cards.{sel}.wild.enabled"))) {
                continue;
            }
            return Err(RulesError::invalid(
                "variants",
                format!(
                    "variant {a:?} sets cards.{sel}.wild.{field}, but {b:?} turns that wild off \
                     (cards.{sel}.wild.enabled = false), so {a:?} would change nothing; apply one of \
                     them, or set the wild card you mean yourself (such as cards.J.wild.{field})"
                ),
            ));
        }
    }
    Ok(())
}

/// A preset's table with its parents merged in, parsed once per process (every load of a
/// preset starts from a copy of it).
pub(super) fn preset_value(name: &str) -> Result<Value, RulesError> {
    static CACHE: std::sync::OnceLock<Vec<(&'static str, Result<Value, RulesError>)>> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(|| PRESETS.iter().map(|(n, _)| (*n, parse_preset_value(n, 0))).collect());
    match cache.iter().find(|(n, _)| *n == name) {
        Some((_, v)) => v.clone(),
        None => preset_toml(name).map(|_| Value::Null),
    }
}

fn parse_preset_value(name: &str, depth: usize) -> Result<Value, RulesError> {
    let mut v = toml_to_json(preset_toml(name)?, name)?;
    if let Some(parent) = v.get("inherits").and_then(Value::as_str).map(str::to_string) {
        if depth > 8 {
            return Err(RulesError::invalid("inherits", "inheritance chain too deep"));
        }
        let mut base = parse_preset_value(&parent, depth + 1)?;
        // The child's own identity and variant list replace the parent's; a parent's variant
        // that cannot apply to the child is named in the child's `drop_variants`.
        let dropped = match &mut v {
            Value::Object(c) => c.remove("drop_variants"),
            _ => None,
        };
        if let Value::Object(b) = &mut base {
            b.remove("variants");
            b.remove("simplifications");
            for variant in dropped.as_ref().and_then(Value::as_array).into_iter().flatten() {
                let known = variant
                    .as_str()
                    .and_then(|n| b.get_mut("variant").and_then(Value::as_object_mut).and_then(|t| t.remove(n)));
                if known.is_none() {
                    return Err(RulesError::invalid(
                        "drop_variants",
                        format!("preset '{name}' drops variant {variant}, which its parent '{parent}' does not have"),
                    ));
                }
            }
        }
        merge(&mut base, &v);
        v = base;
    }
    Ok(v)
}

/// Load a preset with optional overrides (a nested table) into a [`RulesSpec`].
pub fn load_spec(preset: &str, overrides: Option<&Value>) -> Result<RulesSpec, RulesError> {
    let base = preset_value(preset)?;
    if overrides.is_some_and(|o| !o.is_object() && !o.is_null()) {
        return Err(RulesError::invalid("rules", "overrides must be a table (dict) of rule fields"));
    }
    check_parent(preset, &base, overrides)?;
    let merged = apply_overrides(base, overrides.filter(|o| o.is_object()), "this preset documents")?;
    let mut spec = spec_from_value(merged)?;
    if spec.name.is_empty() {
        spec.name = preset.to_string();
    }
    Ok(spec)
}

/// Overrides of a preset may repeat its parent (a house-rules file names the preset it
/// changes in `inherits`, and a resolved table records its preset's parent there), but
/// naming another parent is refused: the merge would keep the preset and only record the
/// other name, so the game would not be the one asked for.
fn check_parent(preset: &str, base: &Value, overrides: Option<&Value>) -> Result<(), RulesError> {
    let Some(given) = overrides.and_then(|o| o.get("inherits")) else { return Ok(()) };
    if given.is_null() || overrides.is_some_and(is_resolved) {
        return Ok(());
    }
    let own = base.get("inherits").and_then(Value::as_str);
    match given.as_str() {
        Some(p) if p == preset || Some(p) == own => Ok(()),
        None => {
            Err(RulesError::invalid("inherits", format!("expected a preset name, got {}", cut(&given.to_string()))))
        }
        Some(other) => Err(RulesError::invalid(
            "inherits",
            format!(
                "the changes to preset '{preset}' cannot name another parent (inherits = {}); to \
                 start from that preset, pass it as the preset, or use a rules table or file with \
                 inherits = \"<preset>\"",
                quoted(other)
            ),
        )),
    }
}

/// Resolve a rules table the way presets are resolved (see `apply_overrides`). A table
/// with `inherits = "<preset>"` (and not already resolved) is that preset plus changes; a
/// resolved table is taken as it is (only variants newly listed by the overrides are applied).
pub fn resolve_spec(base: Value, overrides: Option<&Value>) -> Result<RulesSpec, RulesError> {
    let parent = base.get("inherits").and_then(Value::as_str).filter(|_| !is_resolved(&base)).map(str::to_string);
    if let Some(parent) = parent {
        let mut own = base;
        if let Value::Object(m) = &mut own {
            m.remove("inherits");
        }
        if let Some(o) = overrides {
            merge(&mut own, o);
        }
        return load_spec(&parent, Some(&own));
    }
    spec_from_value(apply_overrides(base, overrides, "these rules document")?)
}

/// A complete spec from a table: a resolved spec as it is; a partial table with
/// `inherits = "<preset>"` is resolved first; any other table takes defaults for what it
/// leaves out.
pub fn complete_spec(v: Value) -> Result<RulesSpec, RulesError> {
    if !is_resolved(&v) && v.get("inherits").and_then(Value::as_str).is_some() {
        resolve_spec(v, None)
    } else {
        spec_from_value(v)
    }
}

/// The specification of a rules TOML text as `eights.Rules.from_toml` reads it (and
/// `Rules.to_toml` writes it): `inherits = "<preset>"` plus changes is that preset with the
/// whole table as overrides; a resolved table is taken as it is; any other table is a
/// specification of its own (defaults for what it leaves out). For files that carry their rules.
pub fn spec_from_toml(text: &str, what: &str) -> Result<RulesSpec, RulesError> {
    let v = toml_to_json(text, what)?;
    match v.get("inherits").and_then(Value::as_str) {
        Some(parent) if !is_resolved(&v) => load_spec(parent, Some(&v)),
        _ => resolve_spec(v, None),
    }
}

/// True for a resolved specification as serialized (`Rules.to_dict()`, `Game.rules_dict()`):
/// it has every top-level field. Its `inherits` only records the parent preset, and the
/// variants it lists are already applied.
pub fn is_resolved(v: &Value) -> bool {
    v.as_object().is_some_and(|m| top_level_fields().iter().all(|k| m.contains_key(k)))
}

/// The top-level fields of a serialized specification, computed once.
pub fn top_level_fields() -> &'static [String] {
    static FIELDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    FIELDS.get_or_init(|| match serde_json::to_value(RulesSpec::default()) {
        Ok(Value::Object(all)) => all.keys().cloned().collect(),
        _ => Vec::new(),
    })
}

/// The `variants` a table lists, each listed once (see `check_listed_once`).
fn variant_names(v: &Value) -> Result<Vec<String>, RulesError> {
    let bad = || RulesError::invalid("variants", "expected a list of variant names");
    let names = match v.get("variants") {
        None | Some(Value::Null) => vec![],
        Some(Value::Array(a)) => {
            a.iter().map(|x| x.as_str().map(str::to_string).ok_or_else(bad)).collect::<Result<_, _>>()?
        }
        Some(_) => return Err(bad()),
    };
    check_listed_once(names.iter().map(String::as_str))?;
    Ok(names)
}

/// Every variant in `new` is one the table documents (`whose` words whose list it is).
fn check_known(table: &Value, new: &[String], whose: &str) -> Result<(), RulesError> {
    let Some(name) = new.iter().find(|n| table.get(n.as_str()).is_none()) else { return Ok(()) };
    let known: Vec<String> = table.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
    let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
    Err(RulesError::invalid("variants", format!("unknown variant {}; {whose}: {known}", quoted(name))))
}

/// The variant pass shared by presets and rules tables: the overrides are merged, the
/// listed `variants` overlays are applied to `base` (those a resolved `base` lists are
/// already applied), and the overrides are merged again on top, so an explicit override
/// beats a variant. `whose` words the unknown-variant error ("this preset documents").
fn apply_overrides(base: Value, overrides: Option<&Value>, whose: &str) -> Result<Value, RulesError> {
    let applied = if is_resolved(&base) { variant_names(&base)? } else { vec![] };
    let mut merged = base.clone();
    if let Some(o) = overrides {
        merge(&mut merged, o);
    }
    // Each list is checked for repeats as it is read (`variant_names`), and every new
    // variant against the documented ones, before the pairwise checks.
    let variants = variant_names(&merged)?;
    let already: HashSet<&str> = applied.iter().map(String::as_str).collect();
    let new: Vec<String> = variants.iter().filter(|v| !already.contains(v.as_str())).cloned().collect();
    if !new.is_empty() {
        let table = merged.get("variant").cloned().unwrap_or(Value::Null);
        check_known(&table, &new, whose)?;
        check_variant_clashes(&table, &new, &applied, overrides)?;
        check_inert_wilds(&table, &new, &applied, overrides)?;
        let mut v = base;
        for name in &new {
            if let Some(overlay) = table.get(name) {
                merge(&mut v, overlay);
            }
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
        clear_shadowing_tables(&mut merged, o);
    }
    Ok(merged)
}

/// An explicit override of `deal.hand_size` (or `deck.packs`) means that value for every
/// player count: the preset's per-player-count table is dropped unless the override sets it
/// too.
fn clear_shadowing_tables(merged: &mut Value, over: &Value) {
    for (table, plain, by) in [("deal", "hand_size", "hand_size_by_players"), ("deck", "packs", "packs_by_players")] {
        let o = over.get(table);
        if o.and_then(|t| t.get(plain)).is_some() && o.and_then(|t| t.get(by)).is_none() {
            if let Some(Value::Object(t)) = merged.get_mut(table) {
                t.insert(by.to_string(), Value::Object(Default::default()));
            }
        }
    }
}

/// Resolved rules of every preset, for documentation.
pub fn all_preset_specs() -> BTreeMap<String, RulesSpec> {
    preset_names().into_iter().filter_map(|n| load_spec(n, None).ok().map(|s| (n.to_string(), s))).collect()
}

// The unwraps below are the tests' own: each loads a preset with fixed variants that must
// load (a failure is the test failing); no user input reaches them.
#[cfg(test)]
mod tests {
    use super::super::deserialize::plain_words;
    use super::*;
    use crate::rules::spec::DrawMode;
    use serde_json::json;

    #[test]
    fn unknown_field_names_the_dotted_path() {
        let e = load_spec("crazy_eights", Some(&json!({"deal": {"hand_sizes": 3}}))).unwrap_err();
        assert_eq!(e.field(), Some("deal.hand_sizes"), "{e}");
        let e = load_spec("crazy_eights", Some(&json!({"deal": {"hand_size": "x"}}))).unwrap_err();
        assert_eq!(e.field(), Some("deal.hand_size"), "{e}");
        let e = load_spec("crazy_eights", Some(&json!({"draw": {"after": "whenever"}}))).unwrap_err();
        assert_eq!(e.field(), Some("draw.after"), "{e}");
    }

    #[test]
    fn an_unknown_field_that_belongs_to_another_table_names_that_table() {
        // `hand_size` at the top level (`make(..., hand_size=8)`) listed only the top-level fields.
        let e = load_spec("crazy_eights", Some(&json!({"hand_size": 8}))).unwrap_err();
        assert_eq!(e.field(), Some("hand_size"), "{e}");
        assert!(e.to_string().ends_with("; `hand_size` is a field of another table: `deal.hand_size`"), "{e}");
        // In the wrong table too.
        let e = load_spec("crazy_eights", Some(&json!({"draw": {"hand_size": 8}}))).unwrap_err();
        assert!(e.to_string().ends_with("`deal.hand_size`"), "{e}");
        // A card's field, written at the top level.
        let e = load_spec("crazy_eights", Some(&json!({"skip": 1}))).unwrap_err();
        assert!(e.to_string().contains("`cards.<rank>.skip`"), "{e}");
        // A name no table has: no hint.
        let e = load_spec("crazy_eights", Some(&json!({"hand_sizes": 8}))).unwrap_err();
        assert!(!e.to_string().contains("another table"), "{e}");
    }

    #[test]
    fn serde_words_become_a_rules_readers_words() {
        // `hand_size = -7` said "expected u8"; `players = 3` "expected struct PlayersSpec"; a
        // misspelt draw mode "unknown variant", though a variant of the rules is another thing.
        let msg = |o: serde_json::Value| load_spec("crazy_eights", Some(&o)).unwrap_err().to_string();
        let hand = msg(json!({"deal": {"hand_size": -7}}));
        // deal.hand_size has a fixed range (ranges/): serde's words state it, not the u8's.
        let range = "a whole number from 1 to 255 (and the deal must fit the deck)";
        assert!(hand.ends_with(&format!("invalid value: integer `-7`, expected {range}")), "{hand}");
        let players = msg(json!({"players": 3}));
        assert!(players.ends_with("invalid type: integer `3`, expected a table of fields: `max`, `min`"), "{players}");
        // A card's optional table names its fields too (`wild = true` said only "a table").
        let wild = msg(json!({"cards": {"8": {"wild": true}}}));
        assert!(wild.contains("'cards.8.wild': invalid type: boolean `true`, expected a table of fields: `"), "{wild}");
        assert!(wild.contains("`nominate`") && wild.contains("`forbidden_on`"), "{wild}");
        let after = msg(json!({"draw": {"after": "may_play_drawnn"}}));
        assert!(after.contains("unknown value `may_play_drawnn`, expected one of `"), "{after}");
        assert!(!after.contains("variant"), "{after}");
        let list = msg(json!({"deal": {"hand_size": [1]}}));
        assert!(list.ends_with(&format!("invalid type: list, expected {range}")), "{list}");
        // A field without one keeps its type's range.
        let limit = msg(json!({"draw": {"limit": -1}}));
        assert!(limit.ends_with("invalid value: integer `-1`, expected a whole number from 0 to 255"), "{limit}");
        // The user's own value, in backticks, is quoted as it was.
        assert_eq!(
            plain_words("unknown variant `expected u8`, expected u80", None),
            "unknown value `expected u8`, expected u80"
        );
    }

    #[test]
    fn variants_apply_overlays() {
        let s = load_spec("crazy_eights", Some(&json!({"variants": ["draw_until_playable"]}))).unwrap();
        assert_eq!(s.draw.mode, DrawMode::UntilPlayable);
        let e = load_spec("crazy_eights", Some(&json!({"variants": ["nope"]}))).unwrap_err();
        assert_eq!(e.field(), Some("variants"));
    }

    #[test]
    fn variants_that_set_one_field_two_ways_are_refused_in_either_order() {
        // draw_until_playable: draw.mode "until_playable", draw.after "may_play_drawn";
        // draw_up_to_3: draw.mode "up_to", draw.after "may_play_any". Merged one after the
        // other, the last would win: the rules would depend on the order of the list.
        for pair in [["draw_until_playable", "draw_up_to_3"], ["draw_up_to_3", "draw_until_playable"]] {
            let e = load_spec("crazy_eights", Some(&json!({ "variants": pair }))).unwrap_err();
            assert_eq!(e.field(), Some("variants"), "{e}");
            let text = e.to_string();
            for part in ["draw_until_playable", "draw_up_to_3", "draw.mode", "draw.after", "yourself"] {
                assert!(text.contains(part), "{part} missing from: {text}");
            }
        }
        // A field set twice to the same value is no clash; variants on other fields combine.
        let s =
            load_spec("crazy_eights", Some(&json!({"variants": ["play_drawn_card", "draw_until_playable"]}))).unwrap();
        assert_eq!(s.draw.mode, DrawMode::UntilPlayable);
        // Settling only one of the two fields is not enough; settling both is.
        let one = json!({"variants": ["draw_until_playable", "draw_up_to_3"], "draw": {"mode": "up_to"}});
        let e = load_spec("crazy_eights", Some(&one)).unwrap_err();
        assert!(e.to_string().contains("draw.after") && !e.to_string().contains("draw.mode"), "{e}");
        for pair in [["draw_until_playable", "draw_up_to_3"], ["draw_up_to_3", "draw_until_playable"]] {
            let both = json!({"variants": pair, "draw": {"mode": "until_playable", "after": "may_play_any"}});
            let s = load_spec("crazy_eights", Some(&both)).unwrap();
            assert_eq!(s.draw.mode, DrawMode::UntilPlayable);
            assert_eq!(s.draw.limit, 3, "draw_up_to_3's limit, which nothing else sets, applies");
        }
    }

    #[test]
    fn a_variant_that_clashes_with_one_already_applied_is_refused() {
        let first = load_spec("crazy_eights", Some(&json!({"variants": ["draw_until_playable"]}))).unwrap();
        let resolved = serde_json::to_value(&first).unwrap();
        let more = json!({"variants": ["draw_until_playable", "draw_up_to_3"]});
        let e = resolve_spec(resolved.clone(), Some(&more)).unwrap_err();
        assert!(e.to_string().contains("draw.mode"), "{e}");
        let fine = json!({"variants": ["draw_until_playable", "jacks_wild"]});
        assert!(resolve_spec(resolved, Some(&fine)).is_ok());
    }

    #[test]
    fn a_variant_on_a_wild_another_turns_off_is_refused() {
        // no_nomination: cards.8.wild.nominate "none"; jacks_wild: cards.8.wild.enabled false
        // (and the jacks wild). Together the first would act on eights that are not wild.
        for pair in [["no_nomination", "jacks_wild"], ["jacks_wild", "no_nomination"]] {
            let e = load_spec("crazy_eights", Some(&json!({ "variants": pair }))).unwrap_err();
            assert_eq!(e.field(), Some("variants"), "{e}");
            let text = e.to_string();
            for part in ["\"no_nomination\" sets cards.8.wild.nominate", "\"jacks_wild\" turns that wild off"] {
                assert!(text.contains(part), "{part} missing from: {text}");
            }
        }
        // Setting the eights' wild back on is the user's choice, and settles it.
        let back = json!({"variants": ["jacks_wild", "no_nomination"], "cards": {"8": {"wild": {"enabled": true}}}});
        assert!(load_spec("crazy_eights", Some(&back)).is_ok());
        // A variant on another card's wild combines.
        assert!(load_spec("crazy_eights", Some(&json!({"variants": ["jacks_wild", "multiple_cards"]}))).is_ok());
    }

    #[test]
    fn a_variant_listed_twice_is_refused_naming_it() {
        let twice = json!({"variants": ["jacks_wild", "draw_until_playable", "jacks_wild"]});
        let e = load_spec("crazy_eights", Some(&twice)).unwrap_err();
        assert_eq!(e.field(), Some("variants"), "{e}");
        assert!(e.to_string().contains("variant \"jacks_wild\" is listed twice"), "{e}");
        // Refused before the pairwise checks: 10,000 copies took 10 s, 100,000 a quarter hour.
        let many = json!({ "variants": vec!["jacks_wild"; 100_000] });
        let t = std::time::Instant::now();
        let e = load_spec("crazy_eights", Some(&many)).unwrap_err();
        assert!(e.to_string().contains("\"jacks_wild\" is listed twice"), "{e}");
        assert!(t.elapsed().as_secs_f64() < 2.0, "{:?}", t.elapsed());
        // Repeated twice in a list that adds variants to rules that already have some ...
        let first = load_spec("crazy_eights", Some(&json!({"variants": ["jacks_wild"]}))).unwrap();
        let resolved = serde_json::to_value(&first).unwrap();
        let e = resolve_spec(resolved.clone(), Some(&twice)).unwrap_err();
        assert!(e.to_string().contains("\"jacks_wild\" is listed twice"), "{e}");
        let again = json!({"variants": ["draw_until_playable", "draw_until_playable"]});
        let e = resolve_spec(resolved.clone(), Some(&again)).unwrap_err();
        assert!(e.to_string().contains("\"draw_until_playable\" is listed twice"), "{e}");
        // ... or in the record of a resolved table, whether anything is added or not.
        let mut recorded = resolved.clone();
        recorded["variants"] = json!(["jacks_wild", "jacks_wild"]);
        for e in [
            resolve_spec(recorded.clone(), None).unwrap_err(),
            complete_spec(recorded.clone()).unwrap_err(),
            resolve_spec(recorded, Some(&json!({"variants": ["jacks_wild", "jacks_wild", "multiple_cards"]})))
                .unwrap_err(),
        ] {
            assert!(e.to_string().contains("\"jacks_wild\" is listed twice"), "{e}");
        }
        // Each listed once, the same variants are fine, in any order.
        let once = json!({"variants": ["draw_until_playable", "jacks_wild"]});
        assert!(resolve_spec(resolved, Some(&once)).is_ok());
    }

    #[test]
    fn a_long_record_of_applied_variants_is_checked_in_linear_time() {
        // Distinct names a resolved table records, and one new variant: every new variant is
        // checked against the applied ones, but the applied ones never against each other
        // (|applied| squared: seconds at 50,000).
        let first = load_spec("crazy_eights", None).unwrap();
        let mut resolved = serde_json::to_value(&first).unwrap();
        let applied: Vec<String> = (0..50_000).map(|i| format!("v{i}")).collect();
        resolved["variants"] = json!(applied);
        let listed: Vec<String> = applied.iter().cloned().chain(["jacks_wild".to_string()]).collect();
        let t = std::time::Instant::now();
        let s = resolve_spec(resolved, Some(&json!({ "variants": listed }))).unwrap();
        assert_eq!(s.variants.last().map(String::as_str), Some("jacks_wild"));
        assert!(t.elapsed().as_secs_f64() < 2.0, "{:?}", t.elapsed());
    }

    #[test]
    fn an_unknown_variant_is_named_cut_to_a_line() {
        let long = "z".repeat(1_000_000);
        let e = load_spec("crazy_eights", Some(&json!({ "variants": [long] }))).unwrap_err();
        let text = e.to_string();
        assert!(text.len() < 1_000 && text.contains("(1,000,000 characters)"), "{}", &text[..200]);
    }

    #[test]
    fn a_huge_value_or_key_is_named_cut_to_a_line() {
        let long = "x".repeat(1_000_000);
        for over in [
            json!({ "inherits": long }),
            json!({ "inherits": [long] }),
            json!({ "draw": { "mode": long } }),
            json!({ "deal": { long.clone(): 1 } }),
        ] {
            let text = load_spec("crazy_eights", Some(&over)).unwrap_err().to_string();
            assert!(text.len() < 1_000 && text.contains("(1,000,00"), "{}", &text[..300]);
        }
    }

    #[test]
    fn overlay_clashes_name_each_path_once() {
        let a = json!({"draw": {"mode": "a", "limit": 3}, "cards": {"8": {"wild": false}}, "x": 1});
        let b = json!({"draw": {"mode": "b", "limit": 3}, "cards": {"8": {"wild": {"nominate": "none"}}}, "y": 1});
        let found: Vec<String> = overlay_clashes(&a, &b).into_iter().map(|c| c.0).collect();
        assert_eq!(found, ["cards.8.wild", "draw.mode"]);
        let table = |v: Value| v.as_object().cloned().unwrap();
        assert!(settles(&table(json!({"cards": {"8": {"wild": false}}})), "cards.8.wild"));
        assert!(settles(&table(json!({"cards": {"8": false}})), "cards.8.wild"));
        assert!(!settles(&table(json!({"cards": {"8": {"wild": {"nominate": "none"}}}})), "cards.8.wild"));
        assert!(!settles(&table(json!({"draw": {"limit": 2}})), "draw.mode"));
    }
}
