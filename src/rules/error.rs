//! The error of loading or validating rules: [`RulesError`], which names the field at fault.

/// Errors from loading or validating rules. Every variant names what was wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RulesError {
    #[error("unknown preset {name:?}; available presets: {available}")]
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
