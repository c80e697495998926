//! `silknav pk2 ls|extract|pack`: the game's archives (`Data.pk2`), listed, unpacked, packed.

use crate::exit::Status;
use crate::input::KeyArgs;
use crate::output;
use anyhow::Context;
use pk2_archive::{folder_files, pack, Archive, Entry, Key};
use silknav::files::{check_new, write_atomic, Overwrite};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `silknav pk2`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Pk2Command,
}

#[derive(Debug, clap::Subcommand)]
enum Pk2Command {
    /// List the entries of an archive (or of one folder in it): `dir PATH` or `file SIZE PATH`
    Ls {
        /// The archive (Data.pk2)
        #[arg(value_name = "ARCHIVE")]
        archive: PathBuf,
        /// A folder inside the archive (default: its root)
        #[arg(value_name = "PATH", default_value = "")]
        path: String,
        /// Also list everything below the folder
        #[arg(short, long)]
        recursive: bool,
        /// One JSON object per entry: {"path", "kind", "size", "offset"}
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        key: KeyArgs,
    },
    /// Write a file or a folder of an archive (its path kept) under DIR, atomically
    Extract {
        /// The archive (Data.pk2)
        #[arg(value_name = "ARCHIVE")]
        archive: PathBuf,
        /// A file or folder inside the archive (`navmesh`, `navmesh/nv_694e.nvm`; `/` for all)
        #[arg(value_name = "PATH")]
        path: String,
        /// The folder to write into (created if missing)
        #[arg(short, long, value_name = "DIR", required = true)]
        output: PathBuf,
        /// Replace files that exist
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        key: KeyArgs,
    },
    /// Pack every file below DIR into an archive laid out as the client's (a data root from
    /// `silknav gen` becomes a Data.pk2 with navmesh/ and res/)
    Pack {
        /// The folder to pack
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// The archive to write (atomically)
        #[arg(short, long, value_name = "ARCHIVE", required = true)]
        output: PathBuf,
        /// Replace ARCHIVE if it exists
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        key: KeyArgs,
    },
}

/// Runs a `pk2` command.
///
/// # Errors
/// The archive is unreadable or damaged (the message names the entry and offset), a path is
/// not in it, or an output cannot be written (or exists, without `--force`).
pub fn run(args: &Args) -> anyhow::Result<Status> {
    match &args.command {
        Pk2Command::Ls {
            archive,
            path,
            recursive,
            json,
            key,
        } => ls(archive, path, *recursive, *json, &key.key()?),
        Pk2Command::Extract {
            archive,
            path,
            output,
            force,
            key,
        } => extract(archive, path, output, *force, &key.key()?),
        Pk2Command::Pack {
            dir,
            output,
            force,
            key,
        } => pack_dir(dir, output, *force, &key.key()?),
    }
}

fn open(archive: &Path, key: &Key) -> anyhow::Result<Archive> {
    Archive::open(archive, key).with_context(|| archive.display().to_string())
}

fn ls(
    archive: &Path,
    path: &str,
    recursive: bool,
    json: bool,
    key: &Key,
) -> anyhow::Result<Status> {
    let opened = open(archive, key)?;
    let entries = opened
        .list(path, recursive)
        .with_context(|| archive.display().to_string())?;
    let mut out = output::stdout();
    for entry in entries {
        let kind = if entry.is_file() { "file" } else { "dir" };
        if json {
            let value = serde_json::json!({
                "path": entry.path(),
                "kind": kind,
                "size": entry.size(),
                "offset": entry.offset(),
            });
            output::json_line(&mut out, &value)?;
        } else if entry.is_file() {
            writeln!(out, "file {} {}", entry.size(), entry.path())?;
        } else {
            writeln!(out, "dir {}", entry.path())?;
        }
    }
    out.flush().context(output::STDOUT)?;
    Ok(Status::Success)
}

fn extract(
    archive: &Path,
    path: &str,
    dir: &Path,
    force: bool,
    key: &Key,
) -> anyhow::Result<Status> {
    let name = || archive.display().to_string();
    let opened = open(archive, key)?;
    let files: Vec<&Entry> = match opened.entry(path) {
        Some(entry) if entry.is_file() => vec![entry],
        _ => opened
            .list(path, true)
            .with_context(name)?
            .into_iter()
            .filter(|e| e.is_file())
            .collect(),
    };
    // Entry names were checked when the archive was opened (no `..`, separators or drives),
    // so every target lies below DIR.
    let target = |entry: &Entry| -> PathBuf {
        entry
            .path()
            .split('/')
            .fold(dir.to_path_buf(), |p, n| p.join(n))
    };
    let overwrite = Overwrite::from_force(force);
    for entry in &files {
        check_new(&target(entry), overwrite)?;
    }
    for entry in &files {
        let bytes = opened.read_entry(entry).with_context(name)?;
        let to = target(entry);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).with_context(|| parent.display().to_string())?;
        }
        write_atomic(&to, &bytes, overwrite)?;
    }
    eprintln!("extracted {} files into {}", files.len(), dir.display());
    Ok(Status::Success)
}

fn pack_dir(dir: &Path, archive: &Path, force: bool, key: &Key) -> anyhow::Result<Status> {
    output::check_can_create(archive, force)?;
    let files = folder_files(dir)?;
    let count = files.len();
    let bytes = pack(files, key).with_context(|| dir.display().to_string())?;
    output::write_file(archive, &bytes, force)?;
    eprintln!(
        "packed {count} files into {} ({} bytes)",
        archive.display(),
        bytes.len()
    );
    Ok(Status::Success)
}
