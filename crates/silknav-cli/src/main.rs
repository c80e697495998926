//! `silknav`: generate, import, inspect, dump, pack, lint, draw and query Silkroad Online
//! navmesh files (`nv_XXXX.nvm`) and world folders.
//!
//! `docs/cli.md` is the reference. The layout of this crate:
//!
//! | module | holds |
//! |---|---|
//! | [`cmd`] | one module per subcommand: its arguments and its `run` |
//! | [`input`] | reading navmesh and JSON files, file names → regions, folders → files |
//! | [`output`] | standard output, JSON lines, atomic no-clobber file writes, world folders |
//! | [`progress`] | progress lines on standard error for slow steps |
//! | [`values`] | option values: sizes, origins, regions, coordinates |
//! | [`exit`] | exit codes and the one-line error report |
//!
//! A new subcommand is a new module under `cmd/` and one variant of [`cmd::Command`].

mod cmd;
mod exit;
mod input;
mod output;
mod progress;
mod values;

use clap::Parser;
use std::process::ExitCode;

/// Generate, inspect, lint, draw and query Silkroad Online navmesh worlds (JMXVNVM 1000).
/// New here? Run `silknav demo`.
#[derive(Debug, Parser)]
#[command(name = "silknav", version)]
struct Cli {
    #[command(subcommand)]
    command: cmd::Command,
}

fn main() -> ExitCode {
    match Cli::try_parse() {
        Ok(cli) => exit::finish(cli.command.run()),
        Err(usage) => exit::usage(&usage),
    }
}
