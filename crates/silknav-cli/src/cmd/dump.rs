//! `silknav dump FILE [-o OUT.json]`: a navmesh file as lossless JSON.

use crate::exit::Status;
use crate::input::{self, ParseArgs};
use crate::output::{self, STDOUT};
use anyhow::Context;
use jmxv::nvm::json;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `silknav dump`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Navmesh file to dump; `-` reads standard input
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Write the JSON to this file (atomically) instead of standard output
    #[arg(short, long, value_name = "OUT.json")]
    output: Option<PathBuf>,
    /// Replace OUT.json if it exists
    #[arg(long, requires = "output")]
    force: bool,
    #[command(flatten)]
    parse: ParseArgs,
}

/// Dumps the file.
///
/// # Errors
/// The file is unreadable or malformed, or the output cannot be written (or exists, without
/// `--force`).
pub fn run(args: &Args) -> anyhow::Result<Status> {
    if let Some(path) = &args.output {
        output::check_can_create(path, args.force)?;
    }
    let file = input::read_nvm(&args.file, args.parse)?;
    match &args.output {
        Some(path) => {
            // A dump is three to four times the size of the file; reserve that much once.
            let mut text = Vec::with_capacity(file.size * 4);
            json::to_writer(&file.mesh, &mut text)?;
            output::write_file(path, &text, args.force)?;
        }
        None => {
            let mut out = output::stdout();
            json::to_writer(&file.mesh, &mut out).context(STDOUT)?;
            out.flush().context(STDOUT)?;
        }
    }
    Ok(Status::Success)
}
