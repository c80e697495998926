//! Writing outputs: buffered standard output, JSON lines, and files written atomically.

use anyhow::{bail, Context};
use serde::Serialize;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, StdoutLock, Write};
use std::path::{Path, PathBuf};

/// How errors on standard output are labelled.
pub const STDOUT: &str = "standard output";

/// Standard output, locked and buffered (a dump is a few hundred thousand small writes).
///
/// Flush it before the command returns: an error on the final flush (a closed pipe, a full
/// disk) must reach [`crate::exit`], not vanish in a drop.
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// Writes one value as one line of compact JSON.
///
/// # Errors
/// Only those of `out`.
pub fn json_line(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// Fails early when `path` exists and may not be replaced, before any work is done for it.
///
/// [`write_file`] checks again at the moment of writing; this check only spares the work.
///
/// # Errors
/// `path` exists and `force` is off.
pub fn check_can_create(path: &Path, force: bool) -> anyhow::Result<()> {
    if !force && fs::symlink_metadata(path).is_ok() {
        bail!(clobber_message(path));
    }
    Ok(())
}

fn clobber_message(path: &Path) -> String {
    format!(
        "{}: already exists; pass --force to replace it",
        path.display()
    )
}

/// Writes `bytes` to `path` so that the file is either entirely old or entirely new: the bytes
/// go to a temporary file in the same folder (so that the rename stays on one file system),
/// which then takes the place of `path`.
///
/// Without `force` an existing `path` is never replaced, even one created while this ran: the
/// temporary file is hard-linked to `path`, which fails when `path` exists. Where the file system
/// has no hard links, the check and the rename are two steps.
///
/// # Errors
/// `path` exists and `force` is off, or an I/O error (after the path).
pub fn write_file(path: &Path, bytes: &[u8], force: bool) -> anyhow::Result<()> {
    check_can_create(path, force)?;
    let context = || path.display().to_string();
    let temp = TempFile::create_beside(path).with_context(context)?;
    let mut file = &temp.file;
    file.write_all(bytes).with_context(context)?;
    // The data must be on disk before the name points at it, or a crash could leave an empty
    // file where the old one was.
    file.sync_all().with_context(context)?;
    if force {
        fs::rename(&temp.path, path).with_context(context)?;
        temp.keep();
        return Ok(());
    }
    match fs::hard_link(&temp.path, path) {
        Ok(()) => Ok(()), // dropping `temp` removes the temporary name
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => bail!(clobber_message(path)),
        Err(_) => {
            check_can_create(path, false)?;
            fs::rename(&temp.path, path).with_context(context)?;
            temp.keep();
            Ok(())
        }
    }
}

/// A temporary file, removed when dropped unless [`TempFile::keep`] says it was renamed.
struct TempFile {
    path: PathBuf,
    file: File,
    remove: bool,
}

impl TempFile {
    /// A new file `.NAME.PID-N.tmp` beside `target`; hidden, and named after its target so that
    /// a leftover (after a crash) says where it came from.
    fn create_beside(target: &Path) -> io::Result<TempFile> {
        let name = target.file_name().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "the output path names no file")
        })?;
        let folder = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let mut attempt = 0u32;
        loop {
            let mut temp_name = std::ffi::OsString::from(".");
            temp_name.push(name);
            temp_name.push(format!(".{}-{attempt}.tmp", std::process::id()));
            let path = folder.join(temp_name);
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => {
                    return Ok(TempFile {
                        path,
                        file,
                        remove: true,
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
                Err(e) => return Err(e),
            }
        }
    }

    fn keep(mut self) {
        self.remove = false;
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if self.remove {
            // Best effort: nothing useful can be done when removing a temporary file fails.
            let _ = fs::remove_file(&self.path);
        }
    }
}
