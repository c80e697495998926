//! `silknav pack IN.json -o OUT.nvm`: the inverse of `dump`.

use crate::exit::Status;
use crate::input;
use crate::output;
use anyhow::{bail, Context};
use jmxv::nvm::json;
use std::path::PathBuf;

/// Arguments of `silknav pack`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// JSON written by `silknav dump` (or edited from it); `-` reads standard input
    #[arg(value_name = "IN.json")]
    input: PathBuf,
    /// Navmesh file to write (atomically)
    #[arg(short, long, value_name = "OUT.nvm", required = true)]
    output: PathBuf,
    /// Replace OUT.nvm if it exists
    #[arg(long)]
    force: bool,
}

/// Packs the JSON into a navmesh file.
///
/// # Errors
/// The JSON is unreadable or does not describe a navmesh (the message names the JSON path), or
/// the output cannot be written (or exists, without `--force`).
pub fn run(args: &Args) -> anyhow::Result<Status> {
    output::check_can_create(&args.output, args.force)?;
    let name = || args.input.display().to_string();
    let text = input::read(&args.input)?;
    if text.starts_with(b"JMXV") {
        // The easy mistake of swapping the arguments deserves better than a UTF-8 error.
        bail!(
            "{}: this is a JMXV binary file, not JSON (pack reads what dump writes)",
            name()
        );
    }
    let mesh = json::from_slice(&text).with_context(name)?;
    // `from_slice` checked that the mesh is writable; the context is for the impossible case.
    let bytes = mesh.to_vec().with_context(name)?;
    output::write_file(&args.output, &bytes, args.force)?;
    Ok(Status::Success)
}
