//! Writing outputs: buffered standard output, JSON lines, files written atomically, and whole
//! world folders.

use anyhow::{bail, Context};
use serde::Serialize;
use silknav::files::{WorldFiles, MAPINFO, OBJECT_IFO, TILE2D_IFO};
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

/// The names of the files a world folder gets: the navmeshes in region order, then the
/// companion files the world has.
pub fn world_file_names(files: &WorldFiles) -> Vec<String> {
    let mut names: Vec<String> = files.navmeshes.keys().map(|r| r.file_name()).collect();
    let companions = [
        (files.mapinfo.is_some(), MAPINFO),
        (files.object_ifo.is_some(), OBJECT_IFO),
        (files.tile2d.is_some(), TILE2D_IFO),
    ];
    names.extend(
        companions
            .into_iter()
            .filter(|&(present, _)| present)
            .map(|(_, name)| name.to_owned()),
    );
    names
}

/// Fails early when any of `names` exists in `dir` and may not be replaced, naming the first.
///
/// # Errors
/// A file exists and `force` is off.
pub fn check_can_create_all(dir: &Path, names: &[String], force: bool) -> anyhow::Result<()> {
    names
        .iter()
        .try_for_each(|name| check_can_create(&dir.join(name), force))
}

/// Writes a world's files into `dir` (created when missing), each atomically, and returns the
/// one-line account of what was written.
///
/// # Errors
/// A file exists and `force` is off (nothing is written then), or an I/O error.
pub fn write_world(dir: &Path, files: &WorldFiles, force: bool) -> anyhow::Result<String> {
    let names = world_file_names(files);
    check_can_create_all(dir, &names, force)?;
    files
        .write_dir(dir, force)
        .with_context(|| dir.display().to_string())?;
    let mut bytes = 0u64;
    for name in &names {
        let path = dir.join(name);
        bytes += fs::metadata(&path)
            .with_context(|| path.display().to_string())?
            .len();
    }
    let navmeshes = files.navmeshes.len();
    let mut parts = Vec::new();
    match (files.navmeshes.keys().next(), files.navmeshes.keys().last()) {
        (Some(first), Some(last)) if navmeshes > 1 => parts.push(format!(
            "{navmeshes} navmeshes {}..{}",
            first.file_name(),
            last.file_name()
        )),
        (Some(only), _) => parts.push(format!("1 navmesh {}", only.file_name())),
        _ => {}
    }
    parts.extend(names[navmeshes..].iter().cloned());
    Ok(format!(
        "{}: wrote {} files, {bytes} bytes: {}",
        dir.display(),
        names.len(),
        parts.join(", ")
    ))
}

/// The world coordinates the regions cover, such as `x 245760..249600, z 122880..126720`
/// (the box around them; `x = region_x·1920 + local_x`). Empty for no regions.
pub fn world_extent(regions: impl IntoIterator<Item = jmxv::RegionId>) -> String {
    let size = u32::from(jmxv::RegionId::SIZE as u16);
    let (mut x0, mut z0, mut x1, mut z1) = (u32::MAX, u32::MAX, 0, 0);
    for r in regions {
        let (x, z) = (u32::from(r.x()), u32::from(r.z()));
        (x0, z0) = (x0.min(x), z0.min(z));
        (x1, z1) = (x1.max(x + 1), z1.max(z + 1));
    }
    if x0 == u32::MAX {
        return String::new();
    }
    format!(
        "x {}..{}, z {}..{}",
        x0 * size,
        x1 * size,
        z0 * size,
        z1 * size
    )
}

/// A number for people: at most two decimals, without trailing zeros (`8`, `2.5`, `1.33`).
pub fn short_decimal(v: f64) -> String {
    let text = format!("{v:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
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

#[cfg(test)]
mod tests {
    use super::*;
    use jmxv::RegionId;

    #[test]
    fn short_decimals() {
        assert_eq!(short_decimal(8.0), "8");
        assert_eq!(short_decimal(2.5), "2.5");
        assert_eq!(short_decimal(4.0 / 3.0), "1.33");
        assert_eq!(short_decimal(10.0), "10");
        assert_eq!(short_decimal(247219.8000030518), "247219.8");
    }

    #[test]
    fn extents_in_world_units() {
        let regions = [RegionId::new(128, 64), RegionId::new(129, 65)];
        assert_eq!(world_extent(regions), "x 245760..249600, z 122880..126720");
        assert_eq!(world_extent([]), "");
    }
}
