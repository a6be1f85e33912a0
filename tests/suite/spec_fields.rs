//! Every field of the rules specification is read: for each one, some rule set (a preset at
//! its smallest or largest table) plays differently when only that field changes (the rules
//! encoding differs, or a seeded game does), or the engine refuses every other value. A field
//! that is parsed and validated but read by nobody fails here.
//!
//! The fields are enumerated from the specification itself: the table-wide leaves of a
//! serialized default [`RulesSpec`], the countdown's, and the per-card leaves of every
//! preset's effect table (so a card field no preset uses is reported as uncovered). Each
//! field is tried with the other values of its kind: the other names of an enumeration (read
//! from the error that a bad name gets), the other boolean, nearby numbers, sample lists.

use eights::bots::RandomBot;
use eights::game::{Game, derive_seed};
use eights::rules::{CardSpec, CountdownSpec, RULES_SIZE, Rules, RulesSpec, load_spec, preset_names};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Prose and bookkeeping, not rules: what the engine never plays by.
const NOT_RULES: &[&str] = &[
    "name",
    "title",
    "source",
    "description",
    "inherits",
    "variants",
    "variant",
    "simplifications",
    // Documented exemptions in words (`describe()` prints them; the exemptions themselves
    // are rules of the cards, checked by the presets' scenario tests).
    "last_card.exempt",
];

fn encoding(r: &Rules) -> Vec<u32> {
    let mut v = vec![0f32; RULES_SIZE];
    r.encode(&mut v);
    v.iter().map(|x| x.to_bits()).collect()
}

fn trace(r: &Arc<Rules>, seed: u64) -> Vec<usize> {
    let mut g = Game::new(r.clone(), seed);
    let mut bot = RandomBot::new(seed ^ 0xF1E1D);
    let mut out = vec![];
    while let Some(a) = bot.act(&g) {
        out.push(a);
        g.step(a).unwrap();
    }
    out.extend(g.scores().iter().map(|&s| s as usize));
    out
}

/// Leaves of `v` under `prefix`, as dotted paths with their values (null leaves included).
fn leaves(prefix: &str, v: &Value, out: &mut BTreeMap<String, Value>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                let p = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                leaves(&p, x, out);
            }
        }
        _ => {
            out.entry(prefix.to_string()).or_insert_with(|| v.clone());
        }
    }
}

/// `{a: {b: value}}` for the path `a.b`.
fn nest(path: &str, value: Value) -> Value {
    path.rsplit('.').fold(value, |acc, k| {
        let mut m = Map::new();
        m.insert(k.to_string(), acc);
        Value::Object(m)
    })
}

/// The names an enumeration field accepts, from the error a bad name gets.
fn enum_names(preset: &str, path: &str) -> Vec<String> {
    let err = match load_spec(preset, Some(&nest(path, json!("no_such_value")))) {
        Err(e) => e.to_string(),
        Ok(_) => return vec![],
    };
    let Some(rest) = err.split("expected one of").nth(1).or_else(|| err.split("expected").nth(1)) else {
        return vec![];
    };
    rest.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// Other values to try for the field at `path` whose value in some rule set is `v`.
fn candidates(preset: &str, path: &str, v: &Value) -> Vec<Value> {
    let mut out: Vec<Value> = match v {
        Value::Bool(b) => vec![json!(!b)],
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(0.0) as i64;
            [0, 1, 2, 3, 5, 8, x + 1, x - 1].iter().filter(|&&y| y >= 0 && y != x).map(|&y| json!(y)).collect()
        }
        Value::String(s) => enum_names(preset, path).into_iter().filter(|n| n != s).map(Value::String).collect(),
        Value::Array(a) if a.is_empty() => {
            vec![json!(["2"]), json!(["K"]), json!(["8"]), json!(["any"]), json!(["arithmetic"]), json!(["joker"])]
        }
        Value::Array(_) => vec![json!([])],
        Value::Object(_) => vec![json!({})],
        Value::Null => vec![],
    };
    match path {
        "score.values" => out = vec![json!({"K": 11, "5": 40, "8": 1})],
        "start.cards" => out = vec![json!({"8": "redraw"}), json!({"2": "ignore", "Q": "ignore", "J": "ignore"})],
        _ => {}
    }
    if path.ends_with("_by_players") {
        out = vec![json!({"3": 1}), json!({"2": 9, "3": 9, "4": 9}), json!({"2": 2, "3": 2})];
    }
    if v.is_null() || v.is_string() {
        // Optional numbers and enumerations whose default is absent.
        out.extend([json!(1), json!(2), json!(4)]);
        if !v.is_string() {
            out.extend(enum_names(preset, path).into_iter().map(Value::String));
            out.extend([json!(true), json!(["2"]), json!(["K"])]);
        }
    }
    out
}

/// The rule sets tried: each preset, then each with one of its documented variants (a match
/// variant, say, where the match's fields act).
fn bases() -> Vec<(&'static str, Value)> {
    let mut out: Vec<(&'static str, Value)> = preset_names().into_iter().map(|p| (p, json!({}))).collect();
    for p in preset_names() {
        for v in load_spec(p, None).unwrap().variant.keys() {
            out.push((p, json!({ "variants": [v] })));
        }
    }
    out
}

/// `base` with `extra` merged in (objects key by key).
fn merged(base: &Value, extra: &Value) -> Value {
    match (base, extra) {
        (Value::Object(a), Value::Object(b)) => {
            let mut m = a.clone();
            for (k, v) in b {
                let x = m.get(k).map_or_else(|| v.clone(), |old| merged(old, v));
                m.insert(k.clone(), x);
            }
            Value::Object(m)
        }
        _ => extra.clone(),
    }
}

/// Whether setting `path` to `value` on `preset` (with `base` overrides) changes play at one
/// of its table sizes. `None` when the engine refuses the value everywhere.
fn changes_play(preset: &str, base: &Value, path: &str, value: &Value) -> Option<bool> {
    let spec = load_spec(preset, Some(base)).ok()?;
    let over = load_spec(preset, Some(&merged(base, &nest(path, value.clone())))).ok()?;
    let mut built = false;
    for n in [spec.players.min, spec.players.max, 3, 4] {
        let Ok(b) = Rules::from_spec(spec.clone(), n.into()) else { continue };
        let Ok(o) = Rules::from_spec(over.clone(), n.into()) else { continue };
        built = true;
        let (b, o) = (Arc::new(b), Arc::new(o));
        if encoding(&b) != encoding(&o) {
            return Some(true);
        }
        for i in 0..8 {
            let seed = derive_seed(2047, i);
            if trace(&b, seed) != trace(&o, seed) {
                return Some(true);
            }
        }
    }
    built.then_some(false)
}

#[test]
fn every_rules_field_changes_play_or_is_refused() {
    // The fields: table-wide and countdown leaves of the defaults, card leaves of the presets.
    let mut table = BTreeMap::new();
    leaves("", &serde_json::to_value(RulesSpec::default()).unwrap(), &mut table);
    leaves("countdown", &serde_json::to_value(CountdownSpec::default()).unwrap(), &mut table);
    table
        .retain(|k, _| !k.starts_with("cards") && !NOT_RULES.iter().any(|n| k == n || k.starts_with(&format!("{n}."))));
    // The allowed table sizes are checked apart (below); the countdown table field by field.
    table.retain(|k, _| !k.starts_with("players.") && k != "countdown");
    let mut card: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for p in preset_names() {
        let s = load_spec(p, None).unwrap();
        for c in s.cards.values() {
            let mut l = BTreeMap::new();
            leaves("", &serde_json::to_value(c).unwrap(), &mut l);
            for (k, v) in l {
                if !v.is_null() {
                    card.entry(k).or_default().push(v);
                }
            }
        }
    }
    // A card field no preset uses is tried with the values of every kind.
    if let Value::Object(m) = serde_json::to_value(CardSpec::default()).unwrap() {
        for k in m.keys() {
            if !card.keys().any(|p| p == k || p.starts_with(&format!("{k}."))) {
                card.insert(k.clone(), vec![Value::Null]);
            }
        }
    }

    let bases = bases();
    let mut unread = vec![];
    let mut read = 0;
    for (path, default) in &table {
        let mut refused = true;
        let mut hit = false;
        'search: for (p, base) in &bases {
            let spec = serde_json::to_value(load_spec(p, Some(base)).unwrap()).unwrap();
            let here = path.split('.').try_fold(&spec, |v, k| v.get(k)).cloned().unwrap_or_else(|| default.clone());
            for value in candidates(p, path, &here) {
                match changes_play(p, base, path, &value) {
                    Some(true) => {
                        hit = true;
                        break 'search;
                    }
                    Some(false) => refused = false,
                    None => {}
                }
            }
        }
        if hit {
            read += 1;
        } else if !refused {
            unread.push(path.clone());
        }
    }
    for (field, samples) in &card {
        let mut hit = false;
        'cards: for (p, base) in &bases {
            for sel in ["7", "2", "QS", "joker"] {
                let path = format!("cards.{sel}.{field}");
                let mut values: Vec<Value> = samples.clone();
                values.extend(candidates(p, &path, &samples[0]));
                for value in values {
                    if changes_play(p, base, &path, &value) == Some(true) {
                        hit = true;
                        break 'cards;
                    }
                }
            }
        }
        if hit {
            read += 1;
        } else {
            unread.push(format!("cards.*.{field}"));
        }
    }
    assert!(read > 80, "{read} fields change play");
    assert!(unread.is_empty(), "rules fields that change no game and are not refused: {unread:?}");
}

#[test]
fn the_player_bounds_refuse_the_tables_outside_them() {
    // `players.min` / `players.max` decide which tables exist: one outside them is refused.
    assert!(Rules::load("crazy_eights", 4, None).is_ok());
    assert!(Rules::load("crazy_eights", 4, Some(&json!({"players": {"max": 3}}))).is_err());
    assert!(Rules::load("crazy_eights", 2, Some(&json!({"players": {"min": 3}}))).is_err());
}

#[test]
fn removed_fields_are_refused_by_name() {
    // Read by nobody, so removed: the countdown's end (a countdown game always ends at zero)
    // and the nine's slap in thirty_eights (a real-time race, a documented simplification).
    for (over, field) in [
        (json!({"end": {"countdown_zero": true}}), "countdown_zero"),
        (json!({"cards": {"9": {"slap": true}}}), "slap"),
    ] {
        let e = load_spec("crazy_eights_countdown", Some(&over)).unwrap_err();
        assert!(e.to_string().contains(field), "{e}");
    }
    // Only the implemented value is accepted.
    let e = Rules::load("crazy_eights_specials", 3, Some(&json!({"chain": {"wild_blocked": false}}))).unwrap_err();
    assert!(e.to_string().contains("chain.wild_blocked"), "{e}");
    // `two_player.skip` is gone: a skip with two players always gives its player an ordinary
    // turn (one_card's "another Jack or another card of the same suit" is that turn).
    let e = load_spec("one_card", Some(&json!({"two_player": {"skip": "restricted_continue"}}))).unwrap_err();
    assert!(e.to_string().contains("two_player.skip"), "{e}");
}
