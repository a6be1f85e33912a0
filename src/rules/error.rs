//! The error of loading or validating rules: [`RulesError`], which names the field at fault.

/// Errors from loading or validating rules. Every variant names what was wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RulesError {
    #[error("unknown preset {}; available presets: {available}", quoted(.name))]
    UnknownPreset { name: String, available: String },
    #[error("invalid rules field '{field}': {message}")]
    Invalid { field: String, message: String },
    #[error("rules field '{field}' is part of the rules model but not supported by this engine version: {message}")]
    Unsupported { field: String, message: String },
}

impl RulesError {
    pub(super) fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        RulesError::Invalid { field: field.into(), message: message.into() }
    }
    pub(super) fn unsupported(field: impl Into<String>, message: impl Into<String>) -> Self {
        RulesError::Unsupported { field: field.into(), message: message.into() }
    }
    /// The dotted field the error is about, if any.
    pub fn field(&self) -> Option<&str> {
        match self {
            RulesError::Invalid { field, .. } | RulesError::Unsupported { field, .. } => Some(field),
            RulesError::UnknownPreset { .. } => None,
        }
    }
}

/// Longest text an error message quotes whole (in characters).
const QUOTE_MAX: usize = 60;

/// `text` as an error message quotes it, `"..."` with escapes: the first 60 characters then
/// `... (N characters)` when it is longer, so that a huge input is never echoed whole.
pub fn quoted(text: &str) -> String {
    match head(text) {
        None => format!("{text:?}"),
        Some((head, n)) => format!("{head:?}... ({} characters)", thousands(n)),
    }
}

/// `text` as an error message names it unquoted (a field's path): cut as [`quoted`] cuts it.
pub fn cut(text: &str) -> String {
    match head(text) {
        None => text.to_string(),
        Some((head, n)) => format!("{head}... ({} characters)", thousands(n)),
    }
}

/// The first `QUOTE_MAX` characters of a longer `text`, and its length in characters.
fn head(text: &str) -> Option<(String, usize)> {
    let n = text.chars().count();
    (n > QUOTE_MAX).then(|| (text.chars().take(QUOTE_MAX).collect(), n))
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_cuts_long_text_and_says_how_long_it_was() {
        assert_eq!(quoted("nope"), "\"nope\"");
        assert_eq!(quoted(&"x".repeat(60)), format!("\"{}\"", "x".repeat(60)));
        let long = quoted(&"x".repeat(1_000_000));
        assert_eq!(long, format!("\"{}\"... (1,000,000 characters)", "x".repeat(60)));
        assert_eq!(cut("a.b"), "a.b");
        assert_eq!(cut(&"é".repeat(61)), format!("{}... (61 characters)", "é".repeat(60)));
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        let e = RulesError::UnknownPreset { name: "y".repeat(10_000), available: "a, b".into() };
        assert!(e.to_string().len() < 200, "{e}");
    }
}
