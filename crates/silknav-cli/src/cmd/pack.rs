//! `silknav pack IN.json -o OUT`: the inverse of `dump`, for navmeshes and object meshes.

use crate::exit::Status;
use crate::input;
use crate::output;
use anyhow::{bail, Context};
use std::path::PathBuf;

/// Arguments of `silknav pack`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// JSON written by `silknav dump` (or edited from it); `-` reads standard input
    #[arg(value_name = "IN.json")]
    input: PathBuf,
    /// Navmesh or object mesh file to write (atomically), as the JSON describes
    #[arg(short, long, value_name = "OUT", required = true)]
    output: PathBuf,
    /// Replace OUT if it exists
    #[arg(long)]
    force: bool,
}

/// Packs the JSON into a navmesh or object mesh file: an object mesh when the document is one
/// ([`input::is_bms_json`]).
///
/// # Errors
/// The JSON is unreadable or does not describe a mesh (the message names the JSON path), or
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
    // `from_slice` checked that the mesh is writable; the context is for the impossible case.
    let bytes = if input::is_bms_json(&text) {
        let mesh = jmxv::bms::json::from_slice(&text).with_context(name)?;
        mesh.to_vec().with_context(name)?
    } else {
        let mesh = jmxv::nvm::json::from_slice(&text).with_context(name)?;
        mesh.to_vec().with_context(name)?
    };
    output::write_file(&args.output, &bytes, args.force)?;
    Ok(Status::Success)
}
