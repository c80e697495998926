//! The files of a world: `nv_XXXX.nvm` per region, `mapinfo.mfo`, `object.ifo`,
//! `tile2d.ifo` in the navmesh folder, and the object meshes (`.bms`) that `object.ifo` names
//! under the data root, read and written together.
//!
//! - [`WorldSource`] is the one way to open a world: a folder on disk, or the client's
//!   `Data.pk2` (or a folder in it: `Data.pk2:navmesh`) read in place; every loader reads
//!   through it ([`WorldFiles::read`], [`crate::World::load_source`], [`crate::corpus`]).
//!   [`WorldOrFile`] opens a path that may name one file instead.
//! - [`scan_folder`] decides which file of a folder is which, for every loader
//!   ([`WorldFiles::read_dir`], [`crate::World::load`], [`crate::World::from_memory`]).
//! - [`write_atomic`] writes every file silknav writes: all of it or nothing, never replacing
//!   an existing file unless asked ([`Overwrite`]).

mod dungeons;
pub(crate) mod index_file;
mod objects;
pub mod resolve;
mod scan;
mod source;
mod write;

pub use dungeons::{DungeonFiles, MissingBlockFile, DUNGEON_INFO_PATH};
pub use index_file::{
    index_file_beside, index_file_in, IndexFileError, InputsDigest, PathIndexError, FORMAT_VERSION,
    INDEX_FILE_NAME, INDEX_FILE_SUFFIX, MAGIC,
};
pub(crate) use objects::is_object_mesh_path;

pub use scan::{scan_folder, FolderFile, FolderListing, LoadError, WorldLocation, NAVMESH_FOLDER};
pub(crate) use source::{SharedArchive, SourceLocation, Storage};
pub use source::{SourceFile, SourcePath, WorldOrFile, WorldSource};
pub(crate) use write::write_atomic_with;
pub use write::{check_new, write_atomic, Overwrite, WriteFileError};

use jmxv::bms::ObjectMesh;
use jmxv::ifo::{ObjectIfo, Tile2dIfo};
use jmxv::mfo::MapInfo;
use jmxv::nvm::NavMesh;
use jmxv::{ReadError, RegionId};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The name of the region bitmap file.
pub const MAPINFO: &str = "mapinfo.mfo";
/// The name of the object table.
pub const OBJECT_IFO: &str = "object.ifo";
/// The name of the texture table.
pub const TILE2D_IFO: &str = "tile2d.ifo";

/// Everything in a world that silknav understands.
///
/// The navmeshes and companions live in the navmesh folder; the object meshes at their
/// `object.ifo` paths under the data root (see [`WorldLocation`]); the dungeon files where
/// `dungeon\dungeoninfo.txt` leads ([`DungeonFiles`]).
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
    /// The object meshes, keyed by their path as `object.ifo` spells it
    /// (`res\bldg\china\ch_house_a01.bms`). Only `.bms` paths are read (any case); a path named in `object.ifo` without a file here is missing
    /// from the data root (world lint reports it).
    pub object_files: BTreeMap<String, ObjectMesh>,
    /// The dungeons: `dungeon\dungeoninfo.txt` and the files it leads to ([`DungeonFiles`]).
    pub dungeons: DungeonFiles,
}

/// A file of a world folder that could not be read or parsed.
///
/// Displayed as its path; [`std::error::Error::source`] says what went wrong, so that a chain
/// printed with `": "` between its parts reads `nv_694e.nvm: offset 420 (0x1a4): ...`.
#[derive(Debug)]
#[non_exhaustive]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub error: ReadError,
}

impl FileError {
    /// The error of a file.
    pub fn new(path: impl Into<PathBuf>, error: impl Into<ReadError>) -> FileError {
        FileError {
            path: path.into(),
            error: error.into(),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // `ReadError` is transparent (its text is the wrapped error's), so the source is the
        // wrapped error itself: a printed chain says each thing once, and callers can downcast.
        match &self.error {
            ReadError::Io(e) => Some(e),
            ReadError::Format(e) => Some(e),
            other => Some(other),
        }
    }
}

/// One parsed file of the navmesh folder.
enum Parsed {
    Navmesh(Box<NavMesh>),
    MapInfo(MapInfo),
    ObjectIfo(ObjectIfo),
    Tile2d(Tile2dIfo),
}

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
            object_files: BTreeMap::new(),
            dungeons: DungeonFiles::default(),
        }
    }

    /// Reads a world given its data root or its navmesh folder, or an archive
    /// ([`WorldSource::open`]): every `nv_XXXX.nvm` (any case, dungeons' too) and the
    /// companion files that exist, as [`scan_folder`] lists them, then every object mesh
    /// `object.ifo` names (`.bms` paths, resolved in any case under the data root by
    /// [`resolve::ObjectResolver`]), and the dungeon files (the chain [`DungeonFiles`] describes, from
    /// `dungeon\dungeoninfo.txt`). Files with other names are ignored; an object or dungeon
    /// file that does not exist is left out (world lint reports it).
    ///
    /// # Errors
    /// As for [`WorldSource::open`] and [`WorldFiles::read`].
    pub fn read_dir(dir: impl AsRef<Path>) -> Result<WorldFiles, LoadError> {
        WorldFiles::read(&WorldSource::open(dir)?)
    }

    /// Reads every file of a world that silknav understands from its source, as
    /// [`WorldFiles::read_dir`] describes, navmeshes in parallel.
    ///
    /// # Errors
    /// The first file (in the listing's order, then `object.ifo`'s) that cannot be read or
    /// parsed, with its path.
    pub fn read(source: &WorldSource) -> Result<WorldFiles, LoadError> {
        let listing = source.listing();
        let roles: Vec<FolderFile> = listing.iter().map(|(file, _)| file).collect();
        // Parsed in parallel; the first failure in the listing's order is the one reported.
        let parsed: Vec<Result<Parsed, FileError>> = roles
            .par_iter()
            .map(|&file| {
                let bytes = source.read(file)?;
                let fail = |error: jmxv::Error| FileError::new(source.path_of(file), error);
                Ok(match file {
                    FolderFile::Navmesh(_) => {
                        Parsed::Navmesh(Box::new(NavMesh::parse(&bytes).map_err(fail)?))
                    }
                    FolderFile::MapInfo => Parsed::MapInfo(MapInfo::parse(&bytes).map_err(fail)?),
                    FolderFile::ObjectIfo => {
                        Parsed::ObjectIfo(ObjectIfo::parse(&bytes).map_err(fail)?)
                    }
                    FolderFile::Tile2d => Parsed::Tile2d(Tile2dIfo::parse(&bytes).map_err(fail)?),
                })
            })
            .collect();
        let mut files = WorldFiles::default();
        for (file, parsed) in roles.into_iter().zip(parsed) {
            match (file, parsed?) {
                (FolderFile::Navmesh(region), Parsed::Navmesh(mesh)) => {
                    files.navmeshes.insert(region, *mesh);
                }
                (_, Parsed::Navmesh(_)) => {}
                (_, Parsed::MapInfo(m)) => files.mapinfo = Some(m),
                (_, Parsed::ObjectIfo(o)) => files.object_ifo = Some(o),
                (_, Parsed::Tile2d(t)) => files.tile2d = Some(t),
            }
        }
        if let Some(ifo) = &files.object_ifo {
            let resolver = source.object_resolver();
            for entry in &ifo.entries {
                let Ok(name) = std::str::from_utf8(&entry.path) else {
                    continue;
                };
                if !is_object_mesh_path(name) || files.object_files.contains_key(name) {
                    continue;
                }
                let Ok(place) = resolver.locate(name.as_bytes()) else {
                    continue;
                };
                let bytes = resolver.read(&place)?;
                let mesh = ObjectMesh::parse(&bytes)
                    .map_err(|e| FileError::new(resolver.shown(&place), e))?;
                files.object_files.insert(name.to_owned(), mesh);
            }
        }
        files.dungeons = DungeonFiles::read(&source.object_resolver())?;
        Ok(files)
    }

    /// Reads a world from its data root; the same as [`WorldFiles::read_dir`], named for the
    /// layout [`WorldFiles::write_data_root`] writes.
    ///
    /// # Errors
    /// As for [`WorldFiles::read_dir`].
    pub fn read_data_root(root: impl AsRef<Path>) -> Result<WorldFiles, LoadError> {
        WorldFiles::read_dir(root)
    }

    /// Every object mesh as (its `object.ifo` path, bytes), in path order.
    ///
    /// # Errors
    /// A mesh that cannot be written (see [`ObjectMesh::to_vec`]).
    pub fn object_file_bytes(&self) -> Result<Vec<(&str, Vec<u8>)>, jmxv::WriteError> {
        self.object_files
            .iter()
            .map(|(name, mesh)| Ok((name.as_str(), mesh.to_vec()?)))
            .collect()
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

    /// Writes every file into `dir` (created if missing), each with [`write_atomic`].
    ///
    /// With [`Overwrite::Refuse`], a folder that already holds one of the files is refused
    /// before anything is written; a file that appears while the others are written is still
    /// never replaced (that one write fails, and the files written before it stay).
    ///
    /// # Errors
    /// A file that cannot be encoded (nothing is written then), [`WriteFileError::Exists`]
    /// naming the first file that exists, or an I/O error naming its file.
    pub fn write_dir(
        &self,
        dir: impl AsRef<Path>,
        overwrite: Overwrite,
    ) -> Result<(), WriteFileError> {
        let dir = dir.as_ref();
        let files = self.to_files().map_err(|source| WriteFileError::Encode {
            path: dir.to_path_buf(),
            source,
        })?;
        files
            .iter()
            .try_for_each(|(name, _)| check_new(&dir.join(name), overwrite))?;
        std::fs::create_dir_all(dir).map_err(|source| WriteFileError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        for (name, bytes) in &files {
            write_atomic(&dir.join(name), bytes, overwrite)?;
        }
        Ok(())
    }

    /// Writes the world as a data root: the navmeshes and companions into `root/navmesh/`
    /// (as [`WorldFiles::write_dir`]), each object mesh at its `object.ifo` path under
    /// `root` (`res\bldg\a.bms` → `root/res/bldg/a.bms`), and the dungeon files at their
    /// paths ([`DungeonFiles::file_bytes`]), every file with [`write_atomic`].
    ///
    /// With [`Overwrite::Refuse`], a data root that already holds one of the files is refused
    /// before anything is written.
    ///
    /// # Errors
    /// A file that cannot be encoded, or an object path that would leave the data root
    /// (absolute, a drive, `..`, an empty component; [`WriteFileError::Io`] of kind
    /// `InvalidInput`), both before anything is written; [`WriteFileError::Exists`] naming the
    /// first file that exists; or an I/O error naming its file.
    pub fn write_data_root(
        &self,
        root: impl AsRef<Path>,
        overwrite: Overwrite,
    ) -> Result<(), WriteFileError> {
        let root = root.as_ref();
        let navmesh_dir = root.join(NAVMESH_FOLDER);
        let encode = |path: PathBuf| move |source| WriteFileError::Encode { path, source };
        let nav_files = self.to_files().map_err(encode(navmesh_dir.clone()))?;
        let object_files = self
            .object_file_bytes()
            .map_err(encode(root.to_path_buf()))?;
        let mut planned: Vec<(PathBuf, &[u8])> = nav_files
            .iter()
            .map(|(name, bytes)| (navmesh_dir.join(name), bytes.as_slice()))
            .collect();
        let dungeon_files = self
            .dungeons
            .file_bytes()
            .map_err(encode(root.to_path_buf()))?;
        let root_files = object_files
            .iter()
            .map(|(name, bytes)| (*name, bytes))
            .chain(
                dungeon_files
                    .iter()
                    .map(|(name, bytes)| (name.as_str(), bytes)),
            );
        for (name, bytes) in root_files {
            let path = objects::write_path(root, name).ok_or_else(|| WriteFileError::Io {
                path: root.join(name),
                source: std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "object path leaves the data root",
                ),
            })?;
            planned.push((path, bytes.as_slice()));
        }
        planned
            .iter()
            .try_for_each(|(path, _)| check_new(path, overwrite))?;
        for (path, bytes) in &planned {
            let dir = path.parent().unwrap_or(root);
            std::fs::create_dir_all(dir).map_err(|source| WriteFileError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
            write_atomic(path, bytes, overwrite)?;
        }
        Ok(())
    }
}
