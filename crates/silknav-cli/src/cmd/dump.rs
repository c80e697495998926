//! `silknav dump FILE [-o OUT.json]`: a navmesh or object mesh file as lossless JSON.

use crate::exit::Status;
use crate::input::{self, KeyArgs, MeshFile, ParseArgs};
use crate::output::{self, STDOUT};
use anyhow::Context;
use std::io::{self, Write};
use std::path::PathBuf;

/// Arguments of `silknav dump`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Navmesh or object mesh (.bms) file to dump (in an archive: Data.pk2:navmesh/nv_694e.nvm);
    /// `-` reads standard input
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
/// The file is unreadable or malformed, or the output cannot be written (or exists, without
/// `--force`).
pub fn run(args: &Args) -> anyhow::Result<Status> {
    if let Some(path) = &args.output {
        output::check_can_create(path, args.force)?;
    }
    let file = input::read_mesh(&args.file, args.parse, &args.key.key()?)?;
    let size = match &file {
        MeshFile::Nvm(f) => f.size,
        MeshFile::Bms(f) => f.size,
    };
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
fn write_json(file: &MeshFile, out: &mut impl Write) -> io::Result<()> {
    match file {
        MeshFile::Nvm(f) => jmxv::nvm::json::to_writer(&f.mesh, out),
        MeshFile::Bms(f) => jmxv::bms::json::to_writer(&f.mesh, out),
    }
}
