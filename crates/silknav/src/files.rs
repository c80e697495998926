//! The files of a world folder: `nv_XXXX.nvm` per region, `mapinfo.mfo`, `object.ifo`,
//! `tile2d.ifo`, read and written together.

use jmxv::ifo::{ObjectIfo, Tile2dIfo};
use jmxv::mfo::MapInfo;
use jmxv::nvm::NavMesh;
use jmxv::{ReadError, RegionId};
use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The name of the region bitmap file.
pub const MAPINFO: &str = "mapinfo.mfo";
/// The name of the object table.
pub const OBJECT_IFO: &str = "object.ifo";
/// The name of the texture table.
pub const TILE2D_IFO: &str = "tile2d.ifo";

/// Everything in a world folder that silknav understands.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorldFiles {
    /// One navmesh per region, by region id.
    pub navmeshes: BTreeMap<RegionId, NavMesh>,
    /// Which regions the game loads; `None` when the folder has no `mapinfo.mfo`.
    pub mapinfo: Option<MapInfo>,
    /// The object table; `None` when absent.
    pub object_ifo: Option<ObjectIfo>,
    /// The texture table; `None` when absent.
    pub tile2d: Option<Tile2dIfo>,
}

/// A file of a world folder that could not be read.
#[derive(Debug)]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub error: ReadError,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for FileError {}

impl WorldFiles {
    /// Navmeshes with companions that make the folder complete: a `mapinfo.mfo` enabling
    /// exactly these regions, an empty `object.ifo`, and a `tile2d.ifo` with as many textures
    /// as the highest texture id needs. For worlds made from other data, such as imported maps.
    pub fn with_companions(navmeshes: BTreeMap<RegionId, NavMesh>) -> WorldFiles {
        let textures = navmeshes
            .values()
            .flat_map(|m| m.tiles.iter().map(|t| u32::from(t.texture_id)))
            .max()
            .unwrap_or(0);
        let tile2d = (0..=textures)
            .map(|i| {
                jmxv::ifo::Tile2dEntry::new(
                    i,
                    0,
                    "Imported",
                    format!("imported_{i:02}.ddj").into_bytes(),
                )
            })
            .collect();
        WorldFiles {
            mapinfo: Some(MapInfo::with_regions(navmeshes.keys().copied())),
            object_ifo: Some(ObjectIfo::new(Vec::new())),
            tile2d: Some(Tile2dIfo::new(tile2d)),
            navmeshes,
        }
    }

    /// Reads a folder: every `nv_XXXX.nvm` (any case) and the companion files that exist.
    /// Files with other names are ignored.
    ///
    /// # Errors
    /// The first file that cannot be read or parsed, with its path.
    pub fn read_dir(dir: impl AsRef<Path>) -> Result<WorldFiles, FileError> {
        let dir = dir.as_ref();
        let fail = |path: &Path, error: ReadError| FileError {
            path: path.to_path_buf(),
            error,
        };
        let entries = std::fs::read_dir(dir).map_err(|e| fail(dir, e.into()))?;
        let mut files = WorldFiles::default();
        let mut paths: Vec<PathBuf> = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| fail(dir, e.into()))?;
            paths.push(entry.path());
        }
        paths.sort();
        for path in paths {
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let lower = name.to_ascii_lowercase();
            if let Some(region) = RegionId::from_file_name(name) {
                let bytes = std::fs::read(&path).map_err(|e| fail(&path, e.into()))?;
                let mesh = NavMesh::parse(&bytes).map_err(|e| fail(&path, e.into()))?;
                files.navmeshes.insert(region, mesh);
            } else if lower == MAPINFO {
                let bytes = std::fs::read(&path).map_err(|e| fail(&path, e.into()))?;
                files.mapinfo = Some(MapInfo::parse(&bytes).map_err(|e| fail(&path, e.into()))?);
            } else if lower == OBJECT_IFO {
                let bytes = std::fs::read(&path).map_err(|e| fail(&path, e.into()))?;
                files.object_ifo =
                    Some(ObjectIfo::parse(&bytes).map_err(|e| fail(&path, e.into()))?);
            } else if lower == TILE2D_IFO {
                let bytes = std::fs::read(&path).map_err(|e| fail(&path, e.into()))?;
                files.tile2d = Some(Tile2dIfo::parse(&bytes).map_err(|e| fail(&path, e.into()))?);
            }
        }
        Ok(files)
    }

    /// Every file as (name, bytes), navmeshes in region order, then the companions.
    ///
    /// # Errors
    /// A file that cannot be written (see [`NavMesh::to_vec`]).
    pub fn to_files(&self) -> Result<Vec<(String, Vec<u8>)>, jmxv::WriteError> {
        // Companion tables can refuse to be written too (see their `check_writable`).
        let mut out = Vec::with_capacity(self.navmeshes.len() + 3);
        for (region, mesh) in &self.navmeshes {
            out.push((region.file_name(), mesh.to_vec()?));
        }
        if let Some(m) = &self.mapinfo {
            out.push((MAPINFO.to_string(), m.to_vec()));
        }
        if let Some(o) = &self.object_ifo {
            out.push((OBJECT_IFO.to_string(), o.to_vec()?));
        }
        if let Some(t) = &self.tile2d {
            out.push((TILE2D_IFO.to_string(), t.to_vec()?));
        }
        Ok(out)
    }

    /// Writes every file into `dir` (created if missing), each atomically.
    ///
    /// # Errors
    /// When a file exists and `overwrite` is false (nothing is written then), or on I/O errors.
    pub fn write_dir(&self, dir: impl AsRef<Path>, overwrite: bool) -> io::Result<()> {
        let dir = dir.as_ref();
        let files = self
            .to_files()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        std::fs::create_dir_all(dir)?;
        if !overwrite {
            if let Some((name, _)) = files.iter().find(|(name, _)| dir.join(name).exists()) {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!(
                        "{} exists (use --force to replace it)",
                        dir.join(name).display()
                    ),
                ));
            }
        }
        for (name, bytes) in &files {
            write_atomic(&dir.join(name), bytes, overwrite)?;
        }
        Ok(())
    }
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so that
/// a reader never sees half a file and a crash never leaves one.
///
/// # Errors
/// When `path` exists and `overwrite` is false, or on I/O errors.
pub fn write_atomic(path: &Path, bytes: &[u8], overwrite: bool) -> io::Result<()> {
    if !overwrite && path.exists() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} exists (use --force to replace it)", path.display()),
        ));
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        if !overwrite && path.exists() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} exists (use --force to replace it)", path.display()),
            ));
        }
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}
