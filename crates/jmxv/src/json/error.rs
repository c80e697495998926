//! [`JsonError`]: what is wrong with a JSON document, and where.

use std::fmt;

/// JSON text that is not JSON, or JSON that does not describe a document of the format.
///
/// A document error names the JSON path of the offending value (`cells[3].min[1]`, empty for the
/// document as a whole); a syntax error names the line and column instead:
///
/// ```text
/// cells[3].min[1]: expected a number, "inf", "-inf" or "nan:XXXXXXXX", found "abc"
/// line 2 column 11: expected value
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// `None` when the text is not JSON.
    path: Option<String>,
    /// 1-based; 0 when unknown (checks made on the whole document after reading it).
    line: usize,
    column: usize,
    message: String,
}

impl JsonError {
    /// An error about the value at `path` (empty: the whole document), found after reading.
    pub(crate) fn at(path: impl fmt::Display, message: impl fmt::Display) -> JsonError {
        JsonError {
            path: Some(path.to_string()),
            line: 0,
            column: 0,
            message: message.to_string(),
        }
    }

    /// An error in the text itself, at a 1-based line and column.
    pub(crate) fn syntax(line: usize, column: usize, message: impl fmt::Display) -> JsonError {
        JsonError {
            path: None,
            line,
            column,
            message: message.to_string(),
        }
    }

    /// The error serde_json made while reading `text`, at `path` (as serde_path_to_error
    /// spells it).
    pub(crate) fn from_serde(path: &str, inner: serde_json::Error, text: &str) -> JsonError {
        let (line, column) = (inner.line(), inner.column());
        let mut message = inner.to_string();
        // serde_json appends the position to every message; it is kept apart here.
        let suffix = format!(" at line {line} column {column}");
        if line != 0 && message.ends_with(&suffix) {
            message.truncate(message.len() - suffix.len());
        }
        match inner.classify() {
            serde_json::error::Category::Data => JsonError {
                // serde_path_to_error spells the root `.`.
                path: Some(if path == "." { "" } else { path }.to_owned()),
                line,
                column,
                message,
            },
            serde_json::error::Category::Eof => {
                // serde_json puts the end of the input on the last character read; the reader
                // wants to see where the text stops.
                let (line, column) = end_of(text);
                JsonError::syntax(line, column, message)
            }
            serde_json::error::Category::Syntax | serde_json::error::Category::Io => {
                JsonError::syntax(line, column, message)
            }
        }
    }

    /// The JSON path of the offending value (`cells[3].min[1]`; empty for the whole document),
    /// or `None` when the text is not JSON.
    pub fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// The 1-based line and column where reading stopped, when known.
    ///
    /// Always known for syntax errors; for document errors it is where the offending value (or
    /// the object missing a key) ends.
    pub fn position(&self) -> Option<(usize, usize)> {
        (self.line != 0).then_some((self.line, self.column))
    }

    /// What was wrong, without the path or position.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// The 1-based line and column of the end of `text`.
pub(crate) fn end_of(text: &str) -> (usize, usize) {
    position_of(text, text.len())
}

/// The 1-based line and column of byte `offset` of `text` (columns count characters).
pub(crate) fn position_of(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            None => write!(
                f,
                "line {} column {}: {}",
                self.line, self.column, self.message
            ),
            Some(path) if path.is_empty() => write!(f, "top level: {}", self.message),
            Some(path) => write!(f, "{path}: {}", self.message),
        }
    }
}

impl std::error::Error for JsonError {}
