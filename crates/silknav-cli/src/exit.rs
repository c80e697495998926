//! Exit codes and error reporting: the one place that turns a command's outcome into the
//! process status and its last words.
//!
//! | code | meaning |
//! |---|---|
//! | 0 | success (lint: no errors, warnings allowed; a batch of queries: every line read); also when stdout was closed early |
//! | 1 | lint found errors; a single query's answer is "no" |
//! | 2 | unreadable or malformed input, an output that cannot be written, or bad usage |

use std::io::{self, Write};
use std::process::ExitCode;

/// How a command ended, when it ran to its end. Worse outcomes compare greater, so the result
/// over several files is their maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Everything was read and nothing is wrong with it.
    Success,
    /// Everything was read, and lint found errors in it (exit 1).
    Findings,
    /// A single query was answered, and the answer is "no": no cell, no height, no line of
    /// sight, no move (exit 1, so that scripts can test it like `grep -q`).
    No,
    /// Some inputs could not be read; each was reported already (exit 2).
    Failed,
}

impl Status {
    fn code(self) -> u8 {
        match self {
            Status::Success => 0,
            Status::Findings | Status::No => 1,
            Status::Failed => FAILURE,
        }
    }
}

/// The exit code of every failure: bad input, bad output, bad usage (as clap uses).
const FAILURE: u8 = 2;

/// The process status for a command's result; an error is reported first.
///
/// A closed standard output (`silknav dump f | head`) ends the command early but is no error:
/// the reader has all it wanted.
pub fn finish(result: anyhow::Result<Status>) -> ExitCode {
    match result {
        Ok(status) => ExitCode::from(status.code()),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            report(&e);
            ExitCode::from(FAILURE)
        }
    }
}

/// Reports a usage error (or prints help or the version, which clap also delivers as an
/// "error") with clap's own message and exit code: 2 for usage errors, 0 for help.
pub fn usage(e: &clap::Error) -> ExitCode {
    // Failing to print help into a closed pipe changes nothing about the outcome.
    let _ = e.print();
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(FAILURE))
}

/// Prints an error on one line of standard error: its context chain joined by `: `, which for a
/// malformed file reads `FILE: offset N (0x..): SECTION: what`.
pub fn report(e: &anyhow::Error) {
    // The library's one-line form, which the bindings' messages share.
    let line = silknav::error_line(e.as_ref());
    let _ = writeln!(io::stderr().lock(), "{line}");
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn worst_status_wins() {
        assert_eq!(Status::Success.max(Status::Findings), Status::Findings);
        assert_eq!(Status::Failed.max(Status::Findings), Status::Failed);
        assert_eq!(Status::Findings.code(), 1);
        assert_eq!(Status::Failed.code(), 2);
    }

    #[test]
    fn broken_pipe_is_found_under_context() {
        let pipe: anyhow::Result<()> = Err(io::Error::from(io::ErrorKind::BrokenPipe).into());
        assert!(is_broken_pipe(
            &pipe.context("standard output").unwrap_err()
        ));
        let other: anyhow::Result<()> = Err(io::Error::from(io::ErrorKind::NotFound).into());
        assert!(!is_broken_pipe(&other.context("x").unwrap_err()));
    }
}
