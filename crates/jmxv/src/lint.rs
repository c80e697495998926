//! What every lint of this crate reports: findings with a stable code, a severity, a
//! location and a message. Each format's module has its own checks and code table
//! ([`crate::nvm::lint`], [`crate::mfo::lint`], [`crate::ifo::object::lint`],
//! [`crate::ifo::tile2d::lint`], [`crate::bms::lint`], [`crate::dof::lint`],
//! [`crate::ifo::dungeon::lint`], [`crate::ainav::lint`]).

use std::fmt;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Breaks a rule the game server or the game data relies on.
    Error,
    /// Unusual, but the game would load it.
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    pub const fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem found in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Stable code such as `E012`.
    pub code: &'static str,
    /// Error or warning (fixed per code).
    pub severity: Severity,
    /// Where: a section path like `internal_edges[3].cell[1]`.
    pub location: String,
    /// What is wrong, with the values involved.
    pub message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {}: {}",
            self.severity.name(),
            self.code,
            self.location,
            self.message
        )
    }
}

/// A finding with the severity its code has in `table`.
pub(crate) fn finding(
    table: &[(&'static str, Severity, &'static str)],
    code: &'static str,
    location: impl Into<String>,
    message: impl Into<String>,
) -> Finding {
    let severity = table.iter().find(|c| c.0 == code).map(|c| c.1);
    debug_assert!(
        severity.is_some(),
        "lint code {code} is missing from its table"
    );
    Finding {
        code,
        severity: severity.unwrap_or(Severity::Error),
        location: location.into(),
        message: message.into(),
    }
}

/// Orders findings by code, keeping file order within a code.
pub(crate) fn sort(findings: &mut [Finding]) {
    findings.sort_by(|a, b| a.code.cmp(b.code));
}
