//! A merged rules table deserialized into a [`RulesSpec`], with serde's errors in the words of
//! a rules file's reader: the dotted field, plain words for serde's types, values cut to a
//! line, and for a field written in the wrong table the table that has it.

use super::error::{RulesError, cut, quoted};
use super::ranges::{FieldRange, range_of};
use super::spec::RulesSpec;
use serde_json::Value;
use std::collections::HashSet;

/// A list where the specification has a table (`deal = []`, `{"deal": [4]}`): refused, naming
/// the field. serde reads a list into a table field by field, in order, so such a value would
/// change the rules silently (`[4]` set the first field of `deal`, `[]` reset the section).
/// A shape's key `*` stands for every key of the given table (the cards' selectors).
fn check_tables(v: &Value, shape: &Value, path: &str) -> Result<(), RulesError> {
    let (Value::Object(given), Value::Object(tables)) = (v, shape) else { return Ok(()) };
    for (key, x) in given {
        let Some(inner) = tables.get(key).or_else(|| tables.get("*")) else { continue };
        let at = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
        if inner.is_object() && x.is_array() {
            // `variant` defines variants; the list of those to apply is `variants`.
            let hint = if at == "variant" { "; the documented variants to apply are listed in 'variants'" } else { "" };
            return Err(RulesError::invalid(&at, format!("'{at}' must be a table of rule fields, got a list{hint}")));
        }
        check_tables(x, inner, &at)?;
    }
    Ok(())
}

/// Where the specification has tables: the default specification, with the optional tables
/// (absent by default) and every card's table as `cards.*` added.
fn table_shape() -> Value {
    use super::spec::{CardSpec, CountdownSpec, DrawChainSpec, ShieldSpec, WildSpec};
    let to = |v: Result<Value, serde_json::Error>| v.unwrap_or(Value::Null);
    let mut shape = to(serde_json::to_value(RulesSpec::default()));
    let mut card = to(serde_json::to_value(CardSpec::default()));
    if let Value::Object(c) = &mut card {
        c.insert("wild".into(), to(serde_json::to_value(WildSpec::default())));
        c.insert("draw_chain".into(), to(serde_json::to_value(DrawChainSpec::default())));
        c.insert("shield".into(), to(serde_json::to_value(ShieldSpec::default())));
    }
    if let Value::Object(s) = &mut shape {
        s.insert("countdown".into(), to(serde_json::to_value(CountdownSpec::default())));
        s.insert("cards".into(), serde_json::json!({ "*": card }));
    }
    shape
}

/// Merge a rules table and deserialize it, naming the field on error.
pub fn spec_from_value(v: Value) -> Result<RulesSpec, RulesError> {
    static SHAPE: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    // Where the specification has a table, a rules table must too.
    let shape = SHAPE.get_or_init(table_shape);
    check_tables(&v, shape, "")?;
    // A resolved table's variants are a record of those applied: each once there too.
    if let Some(Value::Array(listed)) = v.get("variants") {
        check_listed_once(listed.iter().filter_map(Value::as_str))?;
    }
    let mut track = serde_path_to_error::Track::new();
    let de = serde_path_to_error::Deserializer::new(&v, &mut track);
    match <RulesSpec as serde::Deserialize>::deserialize(de) {
        Ok(s) => Ok(s),
        Err(e) => {
            // A field with a fixed range (`deck.packs`) is described by it, not by its type's.
            let path = track.path();
            let segments: Vec<String> = path.iter().map(segment_name).collect();
            let path = path.to_string();
            let msg = plain_words(&e.to_string(), range_of(&segments));
            let (path, msg) =
                if msg.len() + path.len() > LONG_MESSAGE { (cut(&path), cut_backticked(&msg)) } else { (path, msg) };
            // serde reports an unknown key at its parent; add the key itself to the path.
            let unknown = msg.strip_prefix("unknown field `").and_then(|r| r.split('`').next()).map(str::to_string);
            let field = match unknown.as_deref() {
                Some(key) if path == "." || path.is_empty() => key.to_string(),
                Some(key) if path == key || path.ends_with(&format!(".{key}")) => path,
                Some(key) => format!("{path}.{key}"),
                None => path,
            };
            let msg = match unknown.as_deref().map(|key| tables_holding(shape, key, &field)) {
                Some(homes) if !homes.is_empty() => {
                    let key = unknown.as_deref().unwrap_or_default();
                    let homes: Vec<String> = homes.iter().map(|h| format!("`{h}.{key}`")).collect();
                    format!("{msg}; `{key}` is a field of another table: {}", homes.join(", "))
                }
                _ => msg,
            };
            let msg = match fields_of(shape, &field) {
                Some(names) if msg.ends_with("expected a table of fields") => format!("{msg}: {names}"),
                _ => msg,
            };
            Err(RulesError::invalid(field, msg))
        }
    }
}

/// The fields of the table at the dotted `field` (`cards.8.wild`: every card's table is
/// `cards.*`), in backticks, for a value given where that table belongs (`wild = true`).
fn fields_of(shape: &Value, field: &str) -> Option<String> {
    let mut at = shape;
    for (i, key) in field.split('.').enumerate() {
        let Value::Object(table) = at else { return None };
        at = if i == 1 && field.starts_with("cards.") { table.get("*")? } else { table.get(key)? };
    }
    let Value::Object(table) = at else { return None };
    let names: Vec<String> = table.keys().map(|k| format!("`{k}`")).collect();
    (!names.is_empty()).then(|| names.join(", "))
}

/// The tables of the specification (two levels deep, every card's as `cards.<rank>`) that have
/// a field `key`, other than the one at `field` where it was written: `hand_size` at the top
/// level belongs in `deal`. At most three, for a hint.
fn tables_holding(shape: &Value, key: &str, field: &str) -> Vec<String> {
    let mut found = Vec::new();
    let Value::Object(top) = shape else { return found };
    for (name, table) in top {
        let Value::Object(fields) = table else { continue };
        let name = if name == "cards" { "cards.<rank>" } else { name.as_str() };
        let fields = match (name, fields.get("*")) {
            ("cards.<rank>", Some(Value::Object(card))) => card,
            _ => fields,
        };
        if fields.contains_key(key) {
            found.push(name.to_string());
        }
        for (inner, sub) in fields {
            if matches!(sub, Value::Object(f) if f.contains_key(key)) {
                found.push(format!("{name}.{inner}"));
            }
        }
    }
    found.retain(|home| format!("{home}.{key}") != field);
    found.truncate(3);
    found
}

/// One step of serde's path as the dotted field names it (`deck`, `6`).
fn segment_name(segment: &serde_path_to_error::Segment) -> String {
    use serde_path_to_error::Segment;
    match segment {
        Segment::Map { key } | Segment::Enum { variant: key } => key.clone(),
        Segment::Seq { index } => format!("[{index}]"),
        Segment::Unknown => "?".to_string(),
    }
}

/// serde's message in the words of a rules file's reader: `u8` is "a whole number from 0 to
/// 255" (or, for a field with a fixed range, that range: "a whole number from 1 to 4"),
/// `struct PlayersSpec` "a table of fields", a `map` "a table", a `sequence` "a list", and
/// an unknown enum `variant` an unknown value (a *variant* of these rules is something else).
/// Only the words outside the backticks, which quote the user's own value, change.
pub(super) fn plain_words(msg: &str, range: Option<&FieldRange>) -> String {
    const WORDS: &[(&str, &str)] = &[
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected u16", "expected a whole number from 0 to 65,535"),
        ("expected u32", "expected a whole number from 0 to 4,294,967,295"),
        ("expected u64", "expected a whole number from 0 to 18,446,744,073,709,551,615"),
        ("expected usize", "expected a whole number from 0 to 18,446,744,073,709,551,615"),
        ("expected i8", "expected a whole number from -128 to 127"),
        ("expected i16", "expected a whole number from -32,768 to 32,767"),
        ("expected i32", "expected a whole number from -2,147,483,648 to 2,147,483,647"),
        ("expected i64", "expected a whole number"),
        ("expected f32", "expected a number"),
        ("expected f64", "expected a number"),
        ("invalid type: map", "invalid type: table"),
        ("invalid type: sequence", "invalid type: list"),
        ("expected a map", "expected a table"),
        ("expected a sequence", "expected a list"),
        ("unknown variant", "unknown value"),
    ];
    // An integer type's words, for a field with a fixed range.
    let allowed = range.map(|r| format!("expected {}", r.allowed()));
    msg.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                return part.to_string();
            }
            let mut part = part.to_string();
            for (serde, plain) in WORDS {
                let plain = match &allowed {
                    Some(allowed) if plain.starts_with("expected a whole number") => allowed.as_str(),
                    _ => plain,
                };
                part = replace_word(&part, serde, plain);
            }
            match part.split_once("expected struct ") {
                Some((head, tail)) => {
                    let rest = tail.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_');
                    format!("{head}expected a table of fields{rest}")
                }
                None => part,
            }
        })
        .collect::<Vec<_>>()
        .join("`")
}

/// `text` with `word` replaced where it is not the start of a longer word (`u8`, not `u80`).
fn replace_word(text: &str, word: &str, by: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(word) {
        let after = &rest[i + word.len()..];
        let whole = !after.starts_with(|c: char| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..i]);
        out.push_str(if whole { by } else { word });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Past this many bytes a serde message (and the path of the field it is about) is cut:
/// it quotes a value of the table, and a value can be huge.
const LONG_MESSAGE: usize = 1_000;

/// serde's message with each value it quotes in backticks cut to a line (`cut`).
fn cut_backticked(msg: &str) -> String {
    msg.split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { cut(part) } else { part.to_string() })
        .collect::<Vec<_>>()
        .join("`")
}

/// A variant listed twice is refused, naming it: an overlay applies once, and the checks
/// of the listed variants against each other (`check_variant_clashes`, `check_inert_wilds`)
/// go pair by pair, so they run only on a list of distinct variants, each of which the
/// preset documents, bounded by the preset's own list. Linear in the list's length.
pub(super) fn check_listed_once<'a>(names: impl Iterator<Item = &'a str>) -> Result<(), RulesError> {
    let mut seen = HashSet::new();
    for name in names {
        if !seen.insert(name) {
            return Err(RulesError::invalid(
                "variants",
                format!("variant {} is listed twice; list each variant once", quoted(name)),
            ));
        }
    }
    Ok(())
}
