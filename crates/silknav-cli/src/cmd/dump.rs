//! `silknav dump FILE [-o OUT.json]`: a navmesh, object mesh, dungeon or dungeon route file as
//! lossless JSON.

use crate::exit::Status;
use crate::input::{self, GameFile, KeyArgs, ParseArgs};
use crate::output::{self, STDOUT};
use anyhow::{bail, Context};
use std::io::{self, Write};
use std::path::PathBuf;

/// Arguments of `silknav dump`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Navmesh, object mesh (.bms), dungeon (.dof) or AINavData_NNNNN.dat file to dump (in an
    /// archive: Data.pk2:navmesh/nv_694e.nvm); `-` reads standard input
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
    #[command(flatten)]
    key: KeyArgs,
}

/// Dumps the file.
///
/// # Errors
/// The file is unreadable or malformed, has no JSON form (`dungeoninfo.txt`), or the output
/// cannot be written (or exists, without `--force`).
pub fn run(args: &Args) -> anyhow::Result<Status> {
    if let Some(path) = &args.output {
        output::check_can_create(path, args.force)?;
    }
    let file = input::read_game_file(&args.file, args.parse, &args.key.key()?)?;
    if let GameFile::DungeonInfo(_) = file {
        bail!(
            "{}: {} is a text file and has no JSON form: edit it as text (`silknav lint` checks it)",
            args.file.display(),
            file.description()
        );
    }
    let size = file.size();
    match &args.output {
        Some(path) => {
            // A dump is three to four times the size of the file; reserve that much once.
            let mut text = Vec::with_capacity(size * 4);
            write_json(&file, &mut text)?;
            output::write_file(path, &text, args.force)?;
        }
        None => {
            let mut out = output::stdout();
            write_json(&file, &mut out).context(STDOUT)?;
            out.flush().context(STDOUT)?;
        }
    }
    Ok(Status::Success)
}

/// The JSON form of the file, by its kind.
fn write_json(file: &GameFile, out: &mut impl Write) -> io::Result<()> {
    match file {
        GameFile::Nvm(f) => jmxv::nvm::json::to_writer(&f.mesh, out),
        GameFile::Bms(f) => jmxv::bms::json::to_writer(&f.mesh, out),
        GameFile::Dof(f) => jmxv::dof::json::to_writer(&f.dungeon, out),
        GameFile::AiNav(f) => jmxv::ainav::json::to_writer(&f.nav, out),
        GameFile::DungeonInfo(_) => unreachable!("refused before writing"),
    }
}
