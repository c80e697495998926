//! The subcommands, one module each: its `Args` (clap) and its `run`.
//!
//! A command returns the [`Status`] it ended with, or an error for [`crate::exit`] to report.
//! Commands over many files report each unreadable file themselves (one line each), carry on,
//! and end with [`Status::Failed`].

mod dump;
mod info;
mod lint;
mod pack;

use crate::exit::Status;

/// A subcommand and its arguments.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// One line per file: layout, region, counts, trailing bytes, size
    Info(info::Args),
    /// Write a navmesh file as lossless JSON
    Dump(dump::Args),
    /// Write the navmesh file described by JSON from `dump` (byte-identical to the original)
    Pack(pack::Args),
    /// Check files against the rules of the game server and the game data
    Lint(lint::Args),
}

impl Command {
    /// Runs the command.
    ///
    /// # Errors
    /// Whatever stopped the command; see each command.
    pub fn run(self) -> anyhow::Result<Status> {
        match self {
            Command::Info(args) => info::run(&args),
            Command::Dump(args) => dump::run(&args),
            Command::Pack(args) => pack::run(&args),
            Command::Lint(args) => lint::run(&args),
        }
    }
}
