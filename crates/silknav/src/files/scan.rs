//! Which file of a world folder is which: the one place that turns file names into regions
//! and companion files, for folders on disk and for files in memory alike.

use super::{FileError, MAPINFO, OBJECT_IFO, TILE2D_IFO};
use jmxv::RegionId;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// What a file of a world folder is, by its name (matched in any case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FolderFile {
    /// `nv_XXXX.nvm`: the navmesh of a region (a dungeon's too: see
    /// [`RegionId::is_dungeon`]).
    Navmesh(RegionId),
    /// `mapinfo.mfo`.
    MapInfo,
    /// `object.ifo`.
    ObjectIfo,
    /// `tile2d.ifo`.
    Tile2d,
}

impl FolderFile {
    /// What a file name stands for, or `None` for a file silknav does not read.
    pub fn from_name(name: &str) -> Option<FolderFile> {
        if let Some(region) = RegionId::from_file_name(name) {
            Some(FolderFile::Navmesh(region))
        } else if name.eq_ignore_ascii_case(MAPINFO) {
            Some(FolderFile::MapInfo)
        } else if name.eq_ignore_ascii_case(OBJECT_IFO) {
            Some(FolderFile::ObjectIfo)
        } else if name.eq_ignore_ascii_case(TILE2D_IFO) {
            Some(FolderFile::Tile2d)
        } else {
            None
        }
    }

    /// The name silknav writes the file under: `nv_694e.nvm`, `mapinfo.mfo` (lower case).
    pub fn canonical_name(self) -> String {
        match self {
            FolderFile::Navmesh(region) => region.file_name(),
            FolderFile::MapInfo => MAPINFO.to_owned(),
            FolderFile::ObjectIfo => OBJECT_IFO.to_owned(),
            FolderFile::Tile2d => TILE2D_IFO.to_owned(),
        }
    }
}

impl fmt::Display for FolderFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FolderFile::Navmesh(region) => write!(f, "region {region}"),
            other => f.write_str(&other.canonical_name()),
        }
    }
}

/// The files of a world folder that silknav reads, each with its path as found (which may be
/// spelt in any case). Made by [`scan_folder`] or [`FolderListing::from_paths`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FolderListing {
    files: BTreeMap<FolderFile, PathBuf>,
    /// Where the folder is, for listings made by [`scan_folder`].
    location: Option<WorldLocation>,
}

impl FolderListing {
    /// Sorts paths into their roles by file name; names silknav does not read are skipped.
    ///
    /// # Errors
    /// [`LoadError::DuplicateName`] when two paths name the same region or companion (names
    /// that differ only in case, or the same name twice), naming both.
    pub fn from_paths<P: Into<PathBuf>>(
        paths: impl IntoIterator<Item = P>,
    ) -> Result<FolderListing, LoadError> {
        let paths: Vec<PathBuf> = paths.into_iter().map(Into::into).collect();
        FolderListing::from_named(paths.iter().filter_map(|path| {
            let name = path.file_name()?.to_str()?;
            Some((name, path.clone()))
        }))
    }

    /// [`FolderListing::from_paths`] for files whose names are given apart from the paths
    /// reports name them by (the entries of an archive: `Data.pk2:navmesh/nv_694e.nvm`).
    ///
    /// # Errors
    /// As for [`FolderListing::from_paths`].
    pub(crate) fn from_named<'a>(
        files: impl IntoIterator<Item = (&'a str, PathBuf)>,
    ) -> Result<FolderListing, LoadError> {
        let mut named: Vec<(FolderFile, PathBuf)> = files
            .into_iter()
            .filter_map(|(name, path)| Some((FolderFile::from_name(name)?, path)))
            .collect();
        // Sorted, so that which of two clashing files is named first does not depend on the
        // order the operating system lists them in.
        named.sort_by(|a, b| a.1.cmp(&b.1));
        let mut files = BTreeMap::new();
        for (role, path) in named {
            if let Some(first) = files.get(&role) {
                return Err(LoadError::DuplicateName {
                    file: role,
                    first: PathBuf::clone(first),
                    second: path,
                });
            }
            files.insert(role, path);
        }
        Ok(FolderListing {
            files,
            location: None,
        })
    }

    /// Where the listed folder is: its data root and navmesh folder (`None` for a listing
    /// of paths or of files in memory).
    pub fn location(&self) -> Option<&WorldLocation> {
        self.location.as_ref()
    }

    /// The path of a file, if the folder has it.
    pub fn path(&self, file: FolderFile) -> Option<&Path> {
        self.files.get(&file).map(PathBuf::as_path)
    }

    /// Every file with its role: navmeshes in region order, then `mapinfo.mfo`,
    /// `object.ifo`, `tile2d.ifo`.
    pub fn iter(&self) -> impl Iterator<Item = (FolderFile, &Path)> + '_ {
        self.files.iter().map(|(f, p)| (*f, p.as_path()))
    }

    /// The navmesh files, in region order.
    pub fn navmeshes(&self) -> impl Iterator<Item = (RegionId, &Path)> + '_ {
        self.iter().filter_map(|(f, p)| match f {
            FolderFile::Navmesh(region) => Some((region, p)),
            _ => None,
        })
    }

    /// The path of a region's navmesh file, if the folder has one.
    pub fn navmesh(&self, region: RegionId) -> Option<&Path> {
        self.path(FolderFile::Navmesh(region))
    }

    /// The path a file has in the folder `dir` this listing was made from: as found when
    /// present, else the name silknav would give it. For naming files in reports.
    pub fn path_or_canonical(&self, dir: &Path, file: FolderFile) -> PathBuf {
        self.path(file)
            .map_or_else(|| dir.join(file.canonical_name()), Path::to_path_buf)
    }
}

/// Lists a world folder: which file is which region's navmesh and which companion.
///
/// # Errors
/// The folder cannot be listed ([`LoadError::File`] naming it), or two files name one region
/// or companion ([`LoadError::DuplicateName`]).
pub fn scan_folder(dir: impl AsRef<Path>) -> Result<FolderListing, LoadError> {
    let location = WorldLocation::find(dir.as_ref());
    let dir = location.navmesh_dir.as_path();
    let fail = |e: std::io::Error| {
        LoadError::File(FileError {
            path: dir.to_path_buf(),
            error: e.into(),
        })
    };
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(fail)? {
        paths.push(entry.map_err(fail)?.path());
    }
    let mut listing = FolderListing::from_paths(paths)?;
    listing.location = Some(location);
    Ok(listing)
}

/// The folder name of the navmeshes inside a data root, as in the client's `Data` folder.
pub const NAVMESH_FOLDER: &str = "navmesh";

/// Where a world's files are. A world is laid out like the client's `Data` folder (and
/// `Data.pk2`): a data root holding `navmesh/` (the navmeshes and their companions) beside the
/// folders of the object files (`res/`, `prim/`), whose paths in `object.ifo` are relative to
/// the data root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorldLocation {
    /// The data root: object file paths resolve against it.
    pub data_root: PathBuf,
    /// The folder of the navmeshes and their companion files.
    pub navmesh_dir: PathBuf,
}

impl WorldLocation {
    /// The location of a world given either its data root or its navmesh folder: a folder with
    /// a `navmesh` subfolder (any case) is a data root; any other folder is a navmesh folder
    /// whose parent is the data root.
    pub fn find(path: &Path) -> WorldLocation {
        let navmesh_child = std::fs::read_dir(path).ok().and_then(|entries| {
            entries.filter_map(Result::ok).map(|e| e.path()).find(|p| {
                p.is_dir()
                    && p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.eq_ignore_ascii_case(NAVMESH_FOLDER))
            })
        });
        match navmesh_child {
            Some(navmesh_dir) => WorldLocation {
                data_root: path.to_path_buf(),
                navmesh_dir,
            },
            None => WorldLocation {
                data_root: path
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
                navmesh_dir: path.to_path_buf(),
            },
        }
    }
}

/// A world folder (or a set of files in memory) that could not be loaded.
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadError {
    /// A file, or the folder itself, could not be read or parsed.
    File(FileError),
    /// An archive that cannot be opened (damaged, another key, no such folder inside).
    Archive {
        /// The archive file.
        path: PathBuf,
        /// What is wrong, with the entry and byte offset.
        error: pk2_archive::Pk2Error,
    },
    /// The world's path index file was required ([`crate::PathIndexUse::Require`]) and is
    /// missing, unreadable, damaged or stale.
    PathIndex(super::PathIndexError),
    /// Two files name the same region or companion: their names differ only in case (or are
    /// equal, for files in memory). Which one the game would read is not defined.
    DuplicateName {
        /// The region or companion both names stand for.
        file: FolderFile,
        /// The first file, in sorted order.
        first: PathBuf,
        /// The second.
        second: PathBuf,
    },
    /// The folder loaded, and no region came of it: no `nv_XXXX.nvm` file in it, or none
    /// that `mapinfo.mfo` enables. [`crate::World::load`] returns such an empty world without
    /// complaint; the command line and the bindings refuse it with this error, since the path
    /// was almost always the wrong folder.
    NoRegion {
        /// The folder as given.
        dir: PathBuf,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Transparent: the file error names the path, its source the detail.
            LoadError::File(e) => e.fmt(f),
            LoadError::Archive { path, .. } => write!(f, "{}", path.display()),
            LoadError::PathIndex(e) => e.fmt(f),
            LoadError::DuplicateName {
                file,
                first,
                second,
            } => write!(
                f,
                "{} and {}: two files for {file} (names that differ only in case); keep one",
                first.display(),
                second.display()
            ),
            LoadError::NoRegion { dir } => write!(
                f,
                "{}: no region loaded (no nv_XXXX.nvm file here, or none that mapinfo.mfo enables)",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::File(e) => std::error::Error::source(e),
            LoadError::Archive { error, .. } => Some(error),
            LoadError::PathIndex(e) => std::error::Error::source(e),
            LoadError::DuplicateName { .. } | LoadError::NoRegion { .. } => None,
        }
    }
}

impl From<FileError> for LoadError {
    fn from(e: FileError) -> LoadError {
        LoadError::File(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_root_and_its_navmesh_folder_are_the_same_world() {
        let root = tempfile::tempdir().unwrap();
        let navmesh = root.path().join("NavMesh");
        std::fs::create_dir(&navmesh).unwrap();
        std::fs::write(navmesh.join("nv_694e.nvm"), b"").unwrap();
        std::fs::create_dir(root.path().join("res")).unwrap();

        let from_root = WorldLocation::find(root.path());
        assert_eq!(from_root.data_root, root.path());
        assert_eq!(
            from_root.navmesh_dir, navmesh,
            "the navmesh folder in any case"
        );
        let from_navmesh = WorldLocation::find(&navmesh);
        assert_eq!(from_navmesh, from_root);

        let a = scan_folder(root.path()).unwrap();
        let b = scan_folder(&navmesh).unwrap();
        assert_eq!(a, b);
        assert_eq!(
            a.navmesh(RegionId(0x694e)),
            Some(navmesh.join("nv_694e.nvm").as_path())
        );
        assert_eq!(a.location(), Some(&from_root));
    }

    #[test]
    fn a_flat_folder_is_its_own_navmesh_folder() {
        let location = WorldLocation::find(Path::new("worlds/plain"));
        assert_eq!(location.navmesh_dir, Path::new("worlds/plain"));
        assert_eq!(location.data_root, Path::new("worlds"));
        assert_eq!(
            WorldLocation::find(Path::new("plain")).data_root,
            Path::new(".")
        );
    }

    #[test]
    fn names_are_sorted_into_roles_in_any_case() {
        let listing = FolderListing::from_paths([
            "w/MapInfo.MFO",
            "w/NV_694E.NVM",
            "w/nv_0001.nvm",
            "w/readme.txt",
            "w/nv_8001.nvm",
            "w/Tile2D.ifo",
        ])
        .unwrap();
        let got: Vec<(FolderFile, &Path)> = listing.iter().collect();
        assert_eq!(
            got,
            [
                (
                    FolderFile::Navmesh(RegionId(0x0001)),
                    Path::new("w/nv_0001.nvm")
                ),
                (
                    FolderFile::Navmesh(RegionId(0x694e)),
                    Path::new("w/NV_694E.NVM")
                ),
                (
                    FolderFile::Navmesh(RegionId(0x8001)),
                    Path::new("w/nv_8001.nvm")
                ),
                (FolderFile::MapInfo, Path::new("w/MapInfo.MFO")),
                (FolderFile::Tile2d, Path::new("w/Tile2D.ifo")),
            ]
        );
        assert_eq!(listing.path(FolderFile::ObjectIfo), None);
        assert_eq!(
            listing.path_or_canonical(Path::new("w"), FolderFile::ObjectIfo),
            Path::new("w/object.ifo")
        );
    }

    #[test]
    fn names_differing_only_in_case_are_an_error_naming_both() {
        for (a, b, file) in [
            (
                "nv_694e.nvm",
                "NV_694E.NVM",
                FolderFile::Navmesh(RegionId(0x694e)),
            ),
            ("mapinfo.mfo", "MAPINFO.mfo", FolderFile::MapInfo),
            ("object.ifo", "Object.ifo", FolderFile::ObjectIfo),
            ("tile2d.ifo", "tile2d.ifo", FolderFile::Tile2d),
        ] {
            let err = FolderListing::from_paths([a, b]).unwrap_err();
            let LoadError::DuplicateName {
                file: got,
                first,
                second,
            } = &err
            else {
                panic!("{err:?}");
            };
            assert_eq!(*got, file);
            let mut both = [first.clone(), second.clone()];
            both.sort();
            let mut want = [PathBuf::from(a), PathBuf::from(b)];
            want.sort();
            assert_eq!(both, want);
            let text = err.to_string();
            assert!(text.contains(a) && text.contains(b), "{text}");
        }
    }
}
