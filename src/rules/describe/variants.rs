//! A rules overlay (a `variant.*` table) rendered as dotted `field = value` settings.

use serde_json::Value;

fn key_part(k: &str) -> String {
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        k.to_string()
    } else {
        format!("{k:?}")
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::Array(a) => format!("[{}]", a.iter().map(value_text).collect::<Vec<_>>().join(", ")),
        Value::Object(m) if m.is_empty() => "{}".into(),
        Value::Object(m) => {
            format!(
                "{{ {} }}",
                m.iter().map(|(k, x)| format!("{} = {}", key_part(k), value_text(x))).collect::<Vec<_>>().join(", ")
            )
        }
    }
}

fn flatten_into(prefix: &str, v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                let p = if prefix.is_empty() { key_part(k) } else { format!("{prefix}.{}", key_part(k)) };
                flatten_into(&p, x, out);
            }
        }
        _ => out.push(format!("{prefix} = {}", value_text(v))),
    }
}

/// A `variant.*` overlay (or any rules table) as dotted settings, e.g.
/// `["draw.mode = \"until_playable\"", "draw.after = \"may_play_drawn\""]`.
pub fn variant_changes(overlay: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if overlay.as_object().is_some_and(|m| !m.is_empty()) {
        flatten_into("", overlay, &mut out);
    }
    out
}
