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
use std::num::NonZeroUsize;
use std::process::ExitCode;

/// Generate, inspect, lint, draw and query Silkroad Online navmesh worlds (JMXVNVM 1000).
/// New here? Run `silknav demo`.
#[derive(Debug, Parser)]
#[command(name = "silknav", version)]
struct Cli {
    /// Use at most N threads (default: all cores, or the RAYON_NUM_THREADS variable)
    #[arg(long, global = true, value_name = "N")]
    threads: Option<NonZeroUsize>,
    #[command(subcommand)]
    command: cmd::Command,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(usage) => return exit::usage(&usage),
    };
    // The library works on rayon's current pool, so a pool of N threads caps all of it.
    let Some(threads) = cli.threads else {
        return exit::finish(cli.command.run());
    };
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.get())
        .build()
    {
        Ok(pool) => exit::finish(pool.install(|| cli.command.run())),
        Err(e) => exit::finish(Err(anyhow::anyhow!(e).context("--threads"))),
    }
}
