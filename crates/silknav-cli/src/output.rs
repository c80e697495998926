//! Writing outputs: buffered standard output, JSON lines, files and whole world folders.
//!
//! Every file goes through the library's one writer, [`silknav::files::write_atomic`]: a
//! temporary file beside the target, synced, then renamed into place, never over an existing
//! file without `--force` (the rename itself refuses, so there is no race).

use anyhow::Context;
use serde::Serialize;
use silknav::files::{
    check_new, write_atomic, Overwrite, WorldFiles, MAPINFO, NAVMESH_FOLDER, OBJECT_IFO, TILE2D_IFO,
};
use std::fs;
use std::io::{self, BufWriter, StdoutLock, Write};
use std::path::Path;

/// Fails early when `path` exists and may not be replaced, before any work is done for it
/// ([`write_file`] decides again at the moment of writing).
///
/// # Errors
/// `path` exists and `force` is off.
pub fn check_can_create(path: &Path, force: bool) -> anyhow::Result<()> {
    Ok(check_new(path, Overwrite::from_force(force))?)
}

/// Writes `bytes` to `path` with the library's atomic writer.
///
/// # Errors
/// `path` exists and `force` is off, or an I/O error (after the path).
pub fn write_file(path: &Path, bytes: &[u8], force: bool) -> anyhow::Result<()> {
    Ok(write_atomic(path, bytes, Overwrite::from_force(force))?)
}

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

/// The names of the files a world's navmesh folder gets: the navmeshes in region order, then
/// the companion files the world has.
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

/// Fails early when any of `names` exists in `dir` and may not be replaced, naming the first:
/// the refusal comes before slow work ([`WorldFiles::write_data_root`] decides again when
/// writing).
///
/// # Errors
/// A file exists and `force` is off.
pub fn check_new_all(dir: &Path, names: &[String], force: bool) -> anyhow::Result<()> {
    let overwrite = Overwrite::from_force(force);
    for name in names {
        check_new(&dir.join(name), overwrite)?;
    }
    Ok(())
}

/// Writes a world as a data root `root` (created when missing): the navmesh folder
/// `root/navmesh/` and the object and dungeon files under `root`, each atomically; returns the one-line
/// account of what was written.
///
/// # Errors
/// A file exists and `force` is off (nothing is written then), or an I/O error.
pub fn write_world(root: &Path, files: &WorldFiles, force: bool) -> anyhow::Result<String> {
    let names = world_file_names(files);
    files.write_data_root(root, Overwrite::from_force(force))?;
    let navmesh_dir = root.join(NAVMESH_FOLDER);
    let mut bytes = 0u64;
    let dungeon_files = files.dungeons.file_bytes()?;
    let object_paths = files
        .object_files
        .keys()
        .chain(dungeon_files.iter().map(|(p, _)| p))
        .map(|p| root.join(p.replace('\\', "/")));
    for path in names
        .iter()
        .map(|n| navmesh_dir.join(n))
        .chain(object_paths)
    {
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
    let objects = files.object_files.len();
    let objects_text = if objects > 0 {
        format!("; {objects} object meshes")
    } else {
        String::new()
    };
    let dungeons = files.dungeons.layouts.len();
    let dungeons_text = match dungeons {
        0 => String::new(),
        1 => format!("; 1 dungeon ({} files)", dungeon_files.len()),
        n => format!("; {n} dungeons ({} files)", dungeon_files.len()),
    };
    Ok(format!(
        "{}: wrote {} files, {bytes} bytes: {} in {NAVMESH_FOLDER}/{objects_text}{dungeons_text}",
        root.display(),
        names.len() + objects + dungeon_files.len(),
        parts.join(", "),
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
