//! `silknav pack IN.json -o OUT`: the inverse of `dump`, for navmeshes, object meshes, dungeons
//! and dungeon routes.

use crate::exit::Status;
use crate::input::{self, JsonKind};
use crate::output;
use anyhow::{bail, Context};
use std::path::PathBuf;

/// Arguments of `silknav pack`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// JSON written by `silknav dump` (or edited from it); `-` reads standard input
    #[arg(value_name = "IN.json")]
    input: PathBuf,
    /// Navmesh, object mesh, dungeon or dungeon route file to write (atomically), as the JSON
    /// describes
    #[arg(short, long, value_name = "OUT", required = true)]
    output: PathBuf,
    /// Replace OUT if it exists
    #[arg(long)]
    force: bool,
}

/// Packs the JSON into the file whose dump it is: a navmesh, an object mesh, a dungeon or a
/// dungeon route file, told apart by the document's keys ([`input::json_kind`]).
///
/// # Errors
/// The JSON is unreadable or does not describe a file of its kind (the message names the JSON
/// path), or the output cannot be written (or exists, without `--force`).
pub fn run(args: &Args) -> anyhow::Result<Status> {
    output::check_can_create(&args.output, args.force)?;
    let name = || args.input.display().to_string();
    let text = input::read(&args.input)?;
    // The easy mistake of swapping the arguments deserves better than a UTF-8 error. An
    // AINavData file starts with its version byte, 1, which no JSON text does.
    if text.starts_with(b"JMXV") {
        bail!(
            "{}: this is a JMXV binary file, not JSON (pack reads what dump writes)",
            name()
        );
    }
    if text.first() == Some(&jmxv::ainav::VERSION) {
        bail!(
            "{}: this is a binary file (AINavData?), not JSON (pack reads what dump writes)",
            name()
        );
    }
    // `from_slice` checked that the file is writable; the context is for the impossible case.
    let bytes = match input::json_kind(&text) {
        JsonKind::Nvm => {
            let mesh = jmxv::nvm::json::from_slice(&text).with_context(name)?;
            mesh.to_vec().with_context(name)?
        }
        JsonKind::Bms => {
            let mesh = jmxv::bms::json::from_slice(&text).with_context(name)?;
            mesh.to_vec().with_context(name)?
        }
        JsonKind::Dof => {
            let dungeon = jmxv::dof::json::from_slice(&text).with_context(name)?;
            dungeon.to_vec().with_context(name)?
        }
        JsonKind::AiNav => {
            let nav = jmxv::ainav::json::from_slice(&text).with_context(name)?;
            nav.to_vec().with_context(name)?
        }
    };
    output::write_file(&args.output, &bytes, args.force)?;
    Ok(Status::Success)
}
