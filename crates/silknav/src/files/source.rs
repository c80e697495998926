//! Where a world's files are: a folder on disk, or a PK2 archive (`Data.pk2`) and a folder
//! inside it, opened from the path a user gives: `Data`, `Data/navmesh`, `Data.pk2`,
//! `Data.pk2:navmesh`. Every loader, world lint, the renderer, the corpus report and every
//! command read their files through a [`WorldSource`].

use super::scan::{scan_folder, FolderFile, FolderListing, LoadError, NAVMESH_FOLDER};
use super::FileError;
use crate::files::resolve::ObjectResolver;
use pk2_archive::{Archive, Key, Pk2Error, ReadAt, SIGNATURE};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An archive read from a file or from memory, shared by a source and its object resolver.
pub(crate) type SharedArchive = Archive<Arc<dyn ReadAt + Send + Sync>>;

/// A file or folder of a source: a path on disk, or the stored path of an archive entry (its
/// names' bytes joined by `/`; empty for the archive's root).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum SourceLocation {
    Disk(PathBuf),
    Entry(Vec<u8>),
}

/// Where the bytes of a source's files come from.
#[derive(Clone)]
pub(crate) enum Storage {
    Disk,
    Archive {
        archive: Arc<SharedArchive>,
        /// The archive file as given, which names its entries in reports.
        path: PathBuf,
    },
}

impl fmt::Debug for Storage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Storage::Disk => f.write_str("Disk"),
            Storage::Archive { archive, path } => f
                .debug_struct("Archive")
                .field("path", path)
                .field("entries", &archive.entries().len())
                .finish(),
        }
    }
}

impl Storage {
    /// How a place is named in reports: its path on disk, or `ARCHIVE:INNER/PATH` (the way a
    /// user names it on the command line), the archive alone for its root.
    pub(crate) fn shown(&self, place: &SourceLocation) -> PathBuf {
        match (self, place) {
            (_, SourceLocation::Disk(path)) => path.clone(),
            (Storage::Archive { path, .. }, SourceLocation::Entry(raw)) if raw.is_empty() => {
                path.clone()
            }
            (Storage::Archive { path, .. }, SourceLocation::Entry(raw)) => PathBuf::from(format!(
                "{}:{}",
                path.display(),
                String::from_utf8_lossy(raw)
            )),
            (Storage::Disk, SourceLocation::Entry(raw)) => {
                PathBuf::from(String::from_utf8_lossy(raw).as_ref())
            }
        }
    }

    /// The bytes of a file.
    pub(crate) fn read(&self, place: &SourceLocation) -> Result<Vec<u8>, FileError> {
        let fail = |e: io::Error| FileError::new(self.shown(place), e);
        match (self, place) {
            (_, SourceLocation::Disk(path)) => std::fs::read(path).map_err(fail),
            (Storage::Archive { archive, .. }, SourceLocation::Entry(raw)) => {
                let entry = archive
                    .entry_bytes(raw)
                    .ok_or_else(|| fail(io::ErrorKind::NotFound.into()))?;
                archive
                    .read_entry(entry)
                    .map_err(|e| fail(io::Error::other(e)))
            }
            (Storage::Disk, SourceLocation::Entry(_)) => Err(fail(io::ErrorKind::NotFound.into())),
        }
    }
}

/// A world's files, wherever they are: a folder on disk (the data root or its navmesh
/// folder), or a folder of a PK2 archive (its root by default).
///
/// Opened once ([`WorldSource::open`]), it knows the data root (object file paths resolve
/// under it), the navmesh folder and which of its files is which ([`WorldSource::listing`]);
/// then [`crate::World::load_source`], [`crate::files::WorldFiles::read`] and the corpus
/// report read only the files they need, an archive's entries straight from the archive (no
/// extraction), each at its own offset, so a parallel load stays parallel.
///
/// Files of an archive are named `ARCHIVE:PATH` in reports and errors
/// (`Data.pk2:navmesh/nv_694e.nvm`), the way they are named on the command line.
///
/// ```
/// use silknav::files::{Overwrite, WorldSource};
/// use silknav::pk2_archive::{pack, Key};
///
/// let options = silknav::worldgen::GenOptions { width: 1, height: 1, ..Default::default() };
/// let world = silknav::worldgen::generate(&options)?.into_files();
/// let files: Vec<(String, Vec<u8>)> = world
///     .to_files()?
///     .into_iter()
///     .map(|(name, bytes)| (format!("navmesh/{name}"), bytes))
///     .collect();
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("Data.pk2"), pack(files, &Key::default())?)?;
///
/// let source = WorldSource::open(dir.path().join("Data.pk2"))?;
/// assert!(source.is_archive());
/// let loaded = silknav::World::load_source(&source, &Default::default())?;
/// assert_eq!(loaded.regions().len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct WorldSource {
    store: Storage,
    /// The folder that was named.
    named: SourceLocation,
    /// Object file paths resolve under it.
    data_root: SourceLocation,
    /// The navmeshes and companions are in it.
    navmesh_dir: SourceLocation,
    listing: FolderListing,
    /// Where each file of the listing is.
    places: BTreeMap<FolderFile, SourceLocation>,
    /// Which file of the listing is at a place.
    roles: HashMap<SourceLocation, FolderFile>,
}

/// How a path a user gives splits into a file or folder on disk, or an archive and a path
/// inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourcePath {
    /// A file or folder on disk (which may not exist).
    Disk(PathBuf),
    /// `ARCHIVE:INNER`: an existing file and a path inside it (`/` or `\` separated).
    Inside {
        /// The archive file.
        archive: PathBuf,
        /// The path inside it; empty for its root.
        inner: String,
    },
}

impl SourcePath {
    /// Splits `spec` the way every command reads its world or file argument:
    ///
    /// - a path that exists on disk is that file or folder, whatever it holds (a file named
    ///   `a:b` is the file `a:b`);
    /// - otherwise, `ARCHIVE:INNER` at the last `:` (names inside archives hold no `:`) when
    ///   `ARCHIVE` is an existing file: `Data.pk2:navmesh`, `C:\Games\Data.pk2:navmesh`;
    /// - a single letter before the only `:` is a Windows drive (`C:\Games\world`, `C:world`),
    ///   never an archive: a file named `C` is written `./C:navmesh`;
    /// - anything else is a path on disk, which does not exist (opening it says so).
    pub fn parse(spec: &Path) -> SourcePath {
        let disk = || SourcePath::Disk(spec.to_path_buf());
        if spec.symlink_metadata().is_ok() {
            return disk();
        }
        // Paths that are not UTF-8 name disk files: archive paths inside are text.
        let Some((archive, inner)) = spec.to_str().and_then(|s| s.rsplit_once(':')) else {
            return disk();
        };
        let drive = archive.len() == 1 && archive.as_bytes()[0].is_ascii_alphabetic();
        if drive || !Path::new(archive).is_file() {
            return disk();
        }
        SourcePath::Inside {
            archive: PathBuf::from(archive),
            inner: inner.to_owned(),
        }
    }
}

/// What a path a user gives names: a world, or one file (on disk or inside an archive).
#[derive(Debug)]
pub enum WorldOrFile {
    /// A folder, an archive, or a folder inside an archive.
    World(Box<WorldSource>),
    /// A file that is not an archive, on disk or inside one, with its bytes.
    File {
        /// The path as given (`nv_694e.nvm`, `Data.pk2:navmesh/nv_694e.nvm`).
        path: PathBuf,
        /// Its contents.
        bytes: Vec<u8>,
    },
}

impl WorldOrFile {
    /// Opens what `spec` names ([`SourcePath::parse`]): a folder or an archive (a file that
    /// starts with the PK2 signature or is named `*.pk2`) is a world; any other file, on disk
    /// or inside an archive, is read whole.
    ///
    /// # Errors
    /// As for [`WorldSource::open_with_key`], and a file that cannot be read.
    pub fn open(spec: impl AsRef<Path>, key: &Key) -> Result<WorldOrFile, LoadError> {
        match Named::open(spec.as_ref(), key)? {
            Named::World(source) => Ok(WorldOrFile::World(Box::new(source))),
            Named::DiskFile(path) => {
                let bytes = std::fs::read(&path).map_err(|e| FileError::new(&path, e))?;
                Ok(WorldOrFile::File { path, bytes })
            }
            Named::ArchiveFile { store, place, .. } => Ok(WorldOrFile::File {
                path: store.shown(&place),
                bytes: store.read(&place)?,
            }),
        }
    }
}

/// What a path names, its files not read yet.
enum Named {
    World(WorldSource),
    DiskFile(PathBuf),
    ArchiveFile {
        store: Storage,
        place: SourceLocation,
        /// The archive file.
        archive: PathBuf,
        /// The entry's path and record, where an error about it is reported.
        entry: String,
        offset: u64,
    },
}

impl Named {
    fn open(spec: &Path, key: &Key) -> Result<Named, LoadError> {
        match SourcePath::parse(spec) {
            SourcePath::Disk(path) => {
                let fail = |e: io::Error| FileError::new(&path, e);
                if std::fs::metadata(&path).map_err(fail)?.is_dir() {
                    return Ok(Named::World(WorldSource::folder(&path)?));
                }
                let mut head = Vec::with_capacity(SIGNATURE.len());
                File::open(&path)
                    .and_then(|f| f.take(SIGNATURE.len() as u64).read_to_end(&mut head))
                    .map_err(fail)?;
                // A `.pk2` whose signature is damaged is still an archive, so that its error
                // says what is wrong with it.
                let pk2 = path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("pk2"));
                if head == SIGNATURE || pk2 {
                    return Ok(Named::World(WorldSource::archive(&path, "", key)?));
                }
                Ok(Named::DiskFile(path))
            }
            SourcePath::Inside { archive, inner } => {
                let opened = open_archive(&archive, key)?;
                match opened.entry(&inner) {
                    Some(entry) if entry.is_file() => Ok(Named::ArchiveFile {
                        place: SourceLocation::Entry(entry.raw_path().to_vec()),
                        entry: entry.path().to_owned(),
                        offset: entry.offset(),
                        store: Storage::Archive {
                            archive: Arc::clone(&opened),
                            path: archive.clone(),
                        },
                        archive,
                    }),
                    _ => Ok(Named::World(WorldSource::in_archive(
                        opened, archive, &inner,
                    )?)),
                }
            }
        }
    }
}

impl WorldSource {
    /// Opens the world `spec` names, with the official clients' key for archives: a folder
    /// (the data root or its navmesh folder), an archive (`Data.pk2`), or a folder inside an
    /// archive (`Data.pk2:navmesh`, `Data.pk2:data`); see [`SourcePath::parse`].
    ///
    /// # Errors
    /// As for [`WorldSource::open_with_key`].
    pub fn open(spec: impl AsRef<Path>) -> Result<WorldSource, LoadError> {
        WorldSource::open_with_key(spec, &Key::default())
    }

    /// [`WorldSource::open`] with another key for archives (a private server's).
    ///
    /// # Errors
    /// The path does not exist, cannot be read, or names a file that is not an archive
    /// ([`LoadError::File`]); the folder cannot be listed or has two files for one region or
    /// companion; the archive is damaged, encrypted with another key, or has no folder at the
    /// inner path ([`LoadError::Archive`], naming the entry and offset).
    pub fn open_with_key(spec: impl AsRef<Path>, key: &Key) -> Result<WorldSource, LoadError> {
        match Named::open(spec.as_ref(), key)? {
            Named::World(source) => Ok(source),
            Named::DiskFile(path) => Err(FileError::new(
                path,
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a file, not a world (expected a folder, a PK2 archive such as Data.pk2, \
                     or a folder in one such as Data.pk2:navmesh)",
                ),
            )
            .into()),
            Named::ArchiveFile {
                archive,
                entry,
                offset,
                ..
            } => Err(archive_error(
                &archive,
                Pk2Error::new(
                    offset,
                    entry,
                    pk2_archive::ErrorKind::WrongKind {
                        expected: "directory",
                    },
                ),
            )),
        }
    }

    /// A world folder on disk: its data root or its navmesh folder
    /// ([`super::WorldLocation`]), listed by [`scan_folder`].
    ///
    /// # Errors
    /// As for [`scan_folder`].
    pub fn folder(dir: impl AsRef<Path>) -> Result<WorldSource, LoadError> {
        let dir = dir.as_ref();
        let listing = scan_folder(dir)?;
        // `scan_folder` always records where it looked.
        let location = listing
            .location()
            .cloned()
            .unwrap_or_else(|| super::WorldLocation::find(dir));
        let places = listing
            .iter()
            .map(|(file, path)| (file, SourceLocation::Disk(path.to_path_buf())))
            .collect();
        Ok(WorldSource {
            store: Storage::Disk,
            named: SourceLocation::Disk(dir.to_path_buf()),
            data_root: SourceLocation::Disk(location.data_root),
            navmesh_dir: SourceLocation::Disk(location.navmesh_dir),
            roles: roles_of(&places),
            listing,
            places,
        })
    }

    /// The world in the archive file `path`, at the folder `inner` inside it (`""` for the
    /// root): a folder with a `navmesh` folder (any case) is the data root, any other folder
    /// the navmesh folder, whose parent is the data root. Reads the archive's directory, not
    /// its files.
    ///
    /// # Errors
    /// The file cannot be opened ([`LoadError::File`]), or the archive is damaged, encrypted
    /// with another key, or has no folder at `inner` ([`LoadError::Archive`]).
    pub fn archive(
        path: impl AsRef<Path>,
        inner: &str,
        key: &Key,
    ) -> Result<WorldSource, LoadError> {
        let path = path.as_ref();
        WorldSource::in_archive(open_archive(path, key)?, path.to_path_buf(), inner)
    }

    /// [`WorldSource::archive`] for an archive held in memory, named `name` in reports.
    ///
    /// # Errors
    /// As for [`WorldSource::archive`].
    pub fn archive_bytes(
        bytes: Vec<u8>,
        name: impl Into<PathBuf>,
        inner: &str,
        key: &Key,
    ) -> Result<WorldSource, LoadError> {
        let name = name.into();
        let source: Arc<dyn ReadAt + Send + Sync> = Arc::new(bytes);
        let archive = Archive::new(source, key).map_err(|e| archive_error(&name, e))?;
        WorldSource::in_archive(Arc::new(archive), name, inner)
    }

    fn in_archive(
        archive: Arc<SharedArchive>,
        path: PathBuf,
        inner: &str,
    ) -> Result<WorldSource, LoadError> {
        let fail = |e| archive_error(&path, e);
        let named = match pk2_archive::normalize_bytes(inner.as_bytes()) {
            Some(key) if key.is_empty() => Vec::new(),
            _ => {
                let entry = archive.entry(inner).ok_or_else(|| {
                    fail(Pk2Error::new(0, inner, pk2_archive::ErrorKind::NotFound))
                })?;
                if entry.is_file() {
                    return Err(fail(Pk2Error::new(
                        entry.offset(),
                        entry.path(),
                        pk2_archive::ErrorKind::WrongKind {
                            expected: "directory",
                        },
                    )));
                }
                entry.raw_path().to_vec()
            }
        };
        let join = |dir: &[u8], name: &[u8]| -> Vec<u8> {
            if dir.is_empty() {
                name.to_vec()
            } else {
                [dir, b"/", name].concat()
            }
        };
        let navmesh_child = archive
            .entry_bytes(&join(&named, NAVMESH_FOLDER.as_bytes()))
            .filter(|e| !e.is_file());
        let (data_root, navmesh_dir) = match navmesh_child {
            Some(child) => (named.clone(), child.raw_path().to_vec()),
            None => {
                let parent = named
                    .iter()
                    .rposition(|&b| b == b'/')
                    .map_or_else(Vec::new, |at| named[..at].to_vec());
                (parent, named.clone())
            }
        };
        let store = Storage::Archive {
            archive: Arc::clone(&archive),
            path: path.clone(),
        };
        let mut named_files = Vec::new();
        for entry in archive.list_bytes(&navmesh_dir, false).map_err(fail)? {
            if entry.is_file() {
                let place = SourceLocation::Entry(entry.raw_path().to_vec());
                named_files.push((entry.name().to_owned(), store.shown(&place), place));
            }
        }
        let listing = FolderListing::from_named(
            named_files
                .iter()
                .map(|(name, shown, _)| (name.as_str(), shown.clone())),
        )?;
        let mut by_shown: HashMap<PathBuf, SourceLocation> = named_files
            .into_iter()
            .map(|(_, shown, place)| (shown, place))
            .collect();
        let places = listing
            .iter()
            .filter_map(|(file, shown)| Some((file, by_shown.remove(shown)?)))
            .collect();
        Ok(WorldSource {
            store,
            named: SourceLocation::Entry(named),
            data_root: SourceLocation::Entry(data_root),
            navmesh_dir: SourceLocation::Entry(navmesh_dir),
            roles: roles_of(&places),
            listing,
            places,
        })
    }

    /// Whether the world is read from an archive.
    pub fn is_archive(&self) -> bool {
        matches!(self.store, Storage::Archive { .. })
    }

    /// The folder that was opened, as reports name it (`Data`, `Data.pk2:navmesh`).
    pub fn path(&self) -> PathBuf {
        self.store.shown(&self.named)
    }

    /// The data root, as reports name it: object file paths resolve under it.
    pub fn data_root(&self) -> PathBuf {
        self.store.shown(&self.data_root)
    }

    /// Where the world's path index file lives: `silknav.index` in the navmesh folder of a
    /// world on disk, and beside the archive file (`Data.pk2.silknav.index`) for a world in an
    /// archive, which is never written ([`super::index_file_in`],
    /// [`super::index_file_beside`]). `None` for an archive held in memory.
    pub fn path_index_file(&self) -> Option<PathBuf> {
        match (&self.store, &self.navmesh_dir) {
            (Storage::Archive { path, .. }, _) => Some(super::index_file_beside(path)),
            (Storage::Disk, SourceLocation::Disk(dir)) => Some(dir.join(super::INDEX_FILE_NAME)),
            (Storage::Disk, SourceLocation::Entry(_)) => None,
        }
    }

    /// The navmesh folder, as reports name it.
    pub fn navmesh_dir(&self) -> PathBuf {
        self.store.shown(&self.navmesh_dir)
    }

    /// Which file of the navmesh folder is which region's navmesh and which companion, each
    /// with its path as reports name it.
    pub fn listing(&self) -> &FolderListing {
        &self.listing
    }

    /// Where a file of the navmesh folder is, or would be: its path as found, else its
    /// canonical name in the navmesh folder (`Data.pk2:navmesh/mapinfo.mfo`). For reports.
    pub fn path_of(&self, file: FolderFile) -> PathBuf {
        if let Some(path) = self.listing.path(file) {
            return path.to_path_buf();
        }
        match &self.navmesh_dir {
            SourceLocation::Disk(dir) => dir.join(file.canonical_name()),
            SourceLocation::Entry(dir) => {
                let mut raw = dir.clone();
                if !raw.is_empty() {
                    raw.push(b'/');
                }
                raw.extend_from_slice(file.canonical_name().as_bytes());
                self.store.shown(&SourceLocation::Entry(raw))
            }
        }
    }

    /// The bytes of a file of the navmesh folder.
    ///
    /// # Errors
    /// The world has no such file (an I/O error of kind `NotFound`), or it cannot be read;
    /// the error names the file.
    pub fn read(&self, file: FolderFile) -> Result<Vec<u8>, FileError> {
        match self.places.get(&file) {
            Some(place) => self.store.read(place),
            None => Err(FileError::new(
                self.path_of(file),
                io::Error::from(io::ErrorKind::NotFound),
            )),
        }
    }

    /// The resolver of `object.ifo` paths under the data root, reading from the same folder
    /// or archive.
    pub fn object_resolver(&self) -> ObjectResolver {
        match (&self.store, &self.data_root) {
            (Storage::Archive { archive, path }, SourceLocation::Entry(root)) => {
                ObjectResolver::in_archive(Arc::clone(archive), path.clone(), root.clone())
            }
            (_, root) => ObjectResolver::new(self.store.shown(root)),
        }
    }

    /// Every file below the folder that was opened, at any depth, sorted by path: for reports
    /// over everything a folder or archive holds. Links to folders are not followed.
    ///
    /// # Errors
    /// A folder on disk that cannot be listed, naming it.
    pub fn files(&self) -> Result<Vec<SourceFile>, FileError> {
        let mut out = Vec::new();
        match (&self.store, &self.named) {
            (Storage::Archive { archive, .. }, SourceLocation::Entry(named)) => {
                // The folder was found when the source was opened.
                let entries = archive.list_bytes(named, true).unwrap_or_default();
                for entry in entries.into_iter().filter(|e| e.is_file()) {
                    let raw = entry.raw_path();
                    let relative = if named.is_empty() {
                        raw
                    } else {
                        &raw[named.len() + 1..]
                    };
                    let place = SourceLocation::Entry(raw.to_vec());
                    out.push(SourceFile {
                        path: self.store.shown(&place),
                        relative: String::from_utf8_lossy(relative).into_owned(),
                        place,
                    });
                }
            }
            (_, SourceLocation::Disk(dir)) => walk_disk(dir, "", &mut out)?,
            (Storage::Disk, SourceLocation::Entry(_)) => {}
        }
        out.sort_by(|a, b| a.place.cmp(&b.place));
        Ok(out)
    }

    /// The bytes of a file [`WorldSource::files`] listed.
    ///
    /// # Errors
    /// The file cannot be read; the error names it.
    pub fn read_file(&self, file: &SourceFile) -> Result<Vec<u8>, FileError> {
        self.store.read(&file.place)
    }

    /// Which file of the navmesh folder a listed file is, if any.
    pub fn role_of(&self, file: &SourceFile) -> Option<FolderFile> {
        self.roles.get(&file.place).copied()
    }
}

/// A file below the folder a [`WorldSource`] opened ([`WorldSource::files`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// How reports name it (`Data/res/a.bms`, `Data.pk2:res/a.bms`).
    pub path: PathBuf,
    /// Its path below the opened folder, names joined by `/` (`res/a.bms`).
    pub relative: String,
    place: SourceLocation,
}

impl SourceFile {
    /// Its last name (`a.bms`).
    pub fn name(&self) -> &str {
        self.relative.rsplit('/').next().unwrap_or(&self.relative)
    }
}

fn roles_of(places: &BTreeMap<FolderFile, SourceLocation>) -> HashMap<SourceLocation, FolderFile> {
    places
        .iter()
        .map(|(role, place)| (place.clone(), *role))
        .collect()
}

/// Every file below `dir`, by path relative to the walk's start.
fn walk_disk(dir: &Path, prefix: &str, out: &mut Vec<SourceFile>) -> Result<(), FileError> {
    let fail = |e: io::Error| FileError::new(dir, e);
    for item in std::fs::read_dir(dir).map_err(fail)? {
        let item = item.map_err(fail)?;
        let path = item.path();
        let name = item.file_name().to_string_lossy().into_owned();
        let relative = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let kind = item.file_type().map_err(|e| FileError::new(&path, e))?;
        if kind.is_dir() {
            walk_disk(&path, &relative, out)?;
        } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
            out.push(SourceFile {
                place: SourceLocation::Disk(path.clone()),
                path,
                relative,
            });
        }
    }
    Ok(())
}

fn open_archive(path: &Path, key: &Key) -> Result<Arc<SharedArchive>, LoadError> {
    let file = File::open(path).map_err(|e| FileError::new(path, e))?;
    let source: Arc<dyn ReadAt + Send + Sync> = Arc::new(file);
    Archive::new(source, key)
        .map(Arc::new)
        .map_err(|e| archive_error(path, e))
}

fn archive_error(path: &Path, error: Pk2Error) -> LoadError {
    LoadError::Archive {
        path: path.to_path_buf(),
        error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_existing_path_wins_and_drive_letters_are_not_archives() {
        let dir = tempfile::tempdir().unwrap();
        let archive = dir.path().join("Data.pk2");
        std::fs::write(&archive, b"x").unwrap();
        let odd = dir.path().join("odd:name");
        std::fs::write(&odd, b"x").unwrap();

        assert_eq!(
            SourcePath::parse(&archive),
            SourcePath::Disk(archive.clone())
        );
        assert_eq!(SourcePath::parse(&odd), SourcePath::Disk(odd.clone()));
        let inside = PathBuf::from(format!("{}:NavMesh\\nv_694e.nvm", archive.display()));
        assert_eq!(
            SourcePath::parse(&inside),
            SourcePath::Inside {
                archive: archive.clone(),
                inner: "NavMesh\\nv_694e.nvm".to_owned()
            }
        );
        let root = PathBuf::from(format!("{}:", archive.display()));
        assert_eq!(
            SourcePath::parse(&root),
            SourcePath::Inside {
                archive: archive.clone(),
                inner: String::new()
            }
        );
        // Not an existing file before the colon: a path on disk, which does not exist.
        for spec in [
            r"C:\Games\world",
            "C:world",
            "c:/x",
            "missing.pk2:navmesh",
            "plain",
        ] {
            assert_eq!(
                SourcePath::parse(Path::new(spec)),
                SourcePath::Disk(PathBuf::from(spec)),
                "{spec}"
            );
        }
        let folder_colon = PathBuf::from(format!("{}:navmesh", dir.path().display()));
        assert_eq!(
            SourcePath::parse(&folder_colon),
            SourcePath::Disk(folder_colon.clone()),
            "a folder before the colon is no archive"
        );
    }
}
