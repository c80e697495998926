//! From an `object.ifo` path to the `.bms` whose navigation section an instance uses: the path
//! found under the data root case-insensitively, and `.cpd` → `.bsr` → `.bms` followed.

use super::{FileError, SharedArchive, SourceLocation, Storage};
use jmxv::bms::ObjectMesh;
use jmxv::res::{ResourceFile, ResourceKind};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Files a chain may pass through: `.cpd` → `.bsr` → `.bms` is three; one more leaves room for
/// a compound naming a compound, and a loop of files naming each other stops here.
pub const MAX_CHAIN: usize = 4;

/// Why an object's mesh could not be had: the chain's file and what was wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ObjectProblem {
    /// The world has no `object.ifo`.
    NoObjectIfo,
    /// The instance's object id has no line in `object.ifo`.
    NotInObjectIfo,
    /// A path component matched no entry of its folder, in any case.
    NotFound {
        /// The path as stored (in `object.ifo` or in a `.bsr`/`.cpd`).
        path: Vec<u8>,
        /// Its first component that matched nothing.
        component: Vec<u8>,
    },
    /// A path leaves the data root (`..`) or is empty.
    BadPath {
        /// The path as stored.
        path: Vec<u8>,
    },
    /// A file could not be read.
    Unreadable {
        /// The file.
        file: PathBuf,
        /// The I/O error's text.
        message: String,
    },
    /// A file is malformed.
    Malformed {
        /// The file.
        file: PathBuf,
        /// Where and how.
        error: jmxv::Error,
    },
    /// A `.bsr` or `.cpd` names no next file.
    NoTarget {
        /// The file.
        file: PathBuf,
    },
    /// The chain passed through [`MAX_CHAIN`] files without reaching a `.bms`.
    ChainTooLong {
        /// The last file reached.
        file: PathBuf,
    },
    /// A dungeon (`.dof`) named as a terrain object (an entrance): not placed on the terrain;
    /// the dungeons themselves load from `dungeoninfo.txt` ([`super::DungeonFiles`]).
    Dungeon {
        /// The path as stored.
        path: Vec<u8>,
    },
    /// A path with an extension that is none of `.bms`, `.bsr`, `.cpd`.
    UnknownKind {
        /// The path as stored.
        path: Vec<u8>,
    },
    /// The `.bms` has no navigation section.
    NoNavSection {
        /// The file.
        file: PathBuf,
    },
    /// The instance's position or yaw is not finite.
    NonFinitePlacement,
    /// The server's loader refuses the mesh (a vertex, cell or grid index out of range): the
    /// game server would not load the region; silknav loads it without the object.
    Refused {
        /// The file.
        file: PathBuf,
        /// What the loader finds.
        reason: String,
    },
}

impl fmt::Display for ObjectProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        match self {
            ObjectProblem::NoObjectIfo => f.write_str("the world has no object.ifo"),
            ObjectProblem::NotInObjectIfo => f.write_str("the object id is not in object.ifo"),
            ObjectProblem::NotFound { path, component } => write!(
                f,
                "{:?}: no file or folder matches {:?} (in any case)",
                text(path),
                text(component)
            ),
            ObjectProblem::BadPath { path } => write!(
                f,
                "{:?}: expected a relative path inside the data root",
                text(path)
            ),
            ObjectProblem::Unreadable { file, message } => {
                write!(f, "{}: {message}", file.display())
            }
            ObjectProblem::Malformed { file, error } => write!(f, "{}: {error}", file.display()),
            ObjectProblem::NoTarget { file } => {
                write!(f, "{}: names no collision file", file.display())
            }
            ObjectProblem::ChainTooLong { file } => write!(
                f,
                "{}: {MAX_CHAIN} files in a chain without reaching a .bms",
                file.display()
            ),
            ObjectProblem::Dungeon { path } => write!(
                f,
                "{:?}: a dungeon (.dof) as a terrain object, not placed (dungeons load from dungeoninfo.txt)",
                text(path)
            ),
            ObjectProblem::UnknownKind { path } => {
                write!(f, "{:?}: expected a .bms, .bsr or .cpd path", text(path))
            }
            ObjectProblem::NoNavSection { file } => {
                write!(f, "{}: the mesh has no navigation section", file.display())
            }
            ObjectProblem::NonFinitePlacement => f.write_str("the position or yaw is not finite"),
            ObjectProblem::Refused { file, reason } => write!(f, "{}: {reason}", file.display()),
        }
    }
}

/// An object file resolution that failed: the path tried and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResolveError {
    /// The instance's `object.ifo` path, as stored.
    pub path: Vec<u8>,
    /// What went wrong along the chain.
    pub problem: ObjectProblem,
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "object {:?}: {}",
            String::from_utf8_lossy(&self.path),
            self.problem
        )
    }
}

impl std::error::Error for ResolveError {}

/// The components of a stored object path, split at `\\` and `/`; `None` for a path that
/// could leave the data root or names nothing: empty, absolute (a leading separator), with a
/// drive (`:`), an empty component (`a\\\\b`), `.` or `..`. Reading and writing share this
/// rule, so a file silknav writes is found again by the same path.
pub fn components(path: &[u8]) -> Option<Vec<&[u8]>> {
    let parts: Vec<&[u8]> = path.split(|&b| b == b'\\' || b == b'/').collect();
    let safe = |p: &&[u8]| !p.is_empty() && *p != b"." && *p != b".." && !p.contains(&b':');
    parts.iter().all(safe).then_some(parts)
}

/// A folder's entries: (name bytes, path).
type Listing = Arc<[(Vec<u8>, PathBuf)]>;

/// Finds object files under a data root, matching every path component in any case: in a
/// folder on disk (folder listings are read once and kept) or in an archive (whose names are
/// unique in any case, so a component matches at most one entry). `Sync`: one resolver
/// serves a parallel load.
#[derive(Debug)]
pub struct ObjectResolver {
    /// The data root, as reports name it.
    root: PathBuf,
    tree: Tree,
}

#[derive(Debug)]
enum Tree {
    Disk {
        listings: Mutex<HashMap<PathBuf, Listing>>,
    },
    Archive {
        store: Storage,
        /// The data root's stored path in the archive (empty for its root).
        root: Vec<u8>,
    },
}

impl ObjectResolver {
    /// A resolver for the files under `data_root`, a folder on disk.
    pub fn new(data_root: impl Into<PathBuf>) -> ObjectResolver {
        ObjectResolver {
            root: data_root.into(),
            tree: Tree::Disk {
                listings: Mutex::new(HashMap::new()),
            },
        }
    }

    /// A resolver for the files under the folder `root` (its stored path; empty for the root)
    /// of an archive read from `path`.
    pub(crate) fn in_archive(
        archive: Arc<SharedArchive>,
        path: PathBuf,
        root: Vec<u8>,
    ) -> ObjectResolver {
        let store = Storage::Archive { archive, path };
        ObjectResolver {
            root: store.shown(&SourceLocation::Entry(root.clone())),
            tree: Tree::Archive { store, root },
        }
    }

    /// The data root, as reports name it (`Data`, `Data.pk2`).
    pub fn data_root(&self) -> &Path {
        &self.root
    }

    /// The file a stored path names: backslashes and slashes separate components, each
    /// matched against its folder's entries exactly, else ignoring ASCII case (the first in
    /// byte order when several match); the last must be a file, not a folder. In an archive,
    /// the file is named `ARCHIVE:PATH` (`Data.pk2:res/bldg/a.bms`).
    ///
    /// # Errors
    /// [`ObjectProblem::BadPath`] for a path that could leave the data root or names nothing
    /// ([`components`]); [`ObjectProblem::NotFound`] naming the first component that matched
    /// nothing.
    pub fn find(&self, path: &[u8]) -> Result<PathBuf, ObjectProblem> {
        self.locate(path).map(|place| self.shown(&place))
    }

    /// Where the file a stored path names is ([`ObjectResolver::find`]).
    pub(crate) fn locate(&self, path: &[u8]) -> Result<SourceLocation, ObjectProblem> {
        let components = components(path).ok_or_else(|| ObjectProblem::BadPath {
            path: path.to_vec(),
        })?;
        let not_found = |component: &[u8]| ObjectProblem::NotFound {
            path: path.to_vec(),
            component: component.to_vec(),
        };
        match &self.tree {
            Tree::Disk { .. } => {
                let mut missing = (0, components[0]);
                self.walk(&self.root, &components, 0, &mut missing)
                    .map(SourceLocation::Disk)
                    .ok_or_else(|| not_found(missing.1))
            }
            Tree::Archive {
                store: Storage::Archive { archive, .. },
                root,
            } => {
                let mut at = root.clone();
                for (i, component) in components.iter().enumerate() {
                    if !at.is_empty() {
                        at.push(b'/');
                    }
                    at.extend_from_slice(component);
                    let last = i + 1 == components.len();
                    match archive.entry_bytes(&at) {
                        // A folder where a file is named, or a file where a folder is: the
                        // component names nothing the path can use.
                        Some(entry) if entry.is_file() == last => {
                            if last {
                                return Ok(SourceLocation::Entry(entry.raw_path().to_vec()));
                            }
                        }
                        _ => return Err(not_found(component)),
                    }
                }
                Err(not_found(components[components.len() - 1]))
            }
            Tree::Archive { .. } => Err(not_found(components[0])),
        }
    }

    /// How reports name a file [`ObjectResolver::locate`] found.
    pub(crate) fn shown(&self, place: &SourceLocation) -> PathBuf {
        match &self.tree {
            Tree::Disk { .. } => Storage::Disk.shown(place),
            Tree::Archive { store, .. } => store.shown(place),
        }
    }

    /// The bytes of a file [`ObjectResolver::locate`] found.
    pub(crate) fn read(&self, place: &SourceLocation) -> Result<Vec<u8>, FileError> {
        match &self.tree {
            Tree::Disk { .. } => Storage::Disk.read(place),
            Tree::Archive { store, .. } => store.read(place),
        }
    }

    /// The entry under `dir` matching `rest`, trying the exact name first, then every name
    /// equal ignoring ASCII case (two folders `res` and `Res` may both exist on a
    /// case-sensitive file system); `missing` is left at the deepest component unmatched
    /// (`depth` is `rest[0]`'s).
    fn walk<'p>(
        &self,
        dir: &Path,
        rest: &[&'p [u8]],
        depth: usize,
        missing: &mut (usize, &'p [u8]),
    ) -> Option<PathBuf> {
        let Some((&first, rest)) = rest.split_first() else {
            return Some(dir.to_path_buf());
        };
        let listing = self.listing(dir);
        let exact = listing.iter().filter(|(name, _)| name.as_slice() == first);
        let other = listing
            .iter()
            .filter(|(name, _)| name.as_slice() != first && name.eq_ignore_ascii_case(first));
        let mut any = false;
        for (_, path) in exact.chain(other) {
            any = true;
            if rest.is_empty() {
                if path.is_file() {
                    return Some(path.clone());
                }
                continue;
            }
            if let Some(found) = self.walk(path, rest, depth + 1, missing) {
                return Some(found);
            }
        }
        if !any && depth >= missing.0 {
            *missing = (depth, first);
        }
        None
    }

    /// A folder's entries on disk, sorted by name; empty when it cannot be listed.
    fn listing(&self, dir: &Path) -> Listing {
        let Tree::Disk { listings } = &self.tree else {
            return Listing::from([]);
        };
        let mut cache = listings
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(listing) = cache.get(dir) {
            return Listing::clone(listing);
        }
        let mut entries: Vec<(Vec<u8>, PathBuf)> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| (e.file_name().as_encoded_bytes().to_vec(), e.path()))
                    .collect()
            })
            .unwrap_or_default();
        entries.sort();
        let listing: Listing = entries.into();
        cache.insert(dir.to_path_buf(), Listing::clone(&listing));
        listing
    }

    /// The object mesh an `object.ifo` path leads to, with the `.bms` file it was read from:
    /// a `.bms` is read; a `.bsr` or `.cpd` is read and its target followed, up to
    /// [`MAX_CHAIN`] files. A mesh without a navigation section is an error.
    ///
    /// # Errors
    /// The path tried and the [`ObjectProblem`] met along the chain.
    // The error is as large as the problem it names (a jmxv error with its section); loads
    // meet it once per object id, so boxing it would buy nothing.
    #[allow(clippy::result_large_err)]
    pub fn load_mesh(&self, path: &[u8]) -> Result<(ObjectMesh, PathBuf), ResolveError> {
        self.follow(path).map_err(|problem| ResolveError {
            path: path.to_vec(),
            problem,
        })
    }

    #[allow(clippy::result_large_err)]
    fn follow(&self, path: &[u8]) -> Result<(ObjectMesh, PathBuf), ObjectProblem> {
        let mut next = path.to_vec();
        let mut last = self.root.clone();
        for _ in 0..MAX_CHAIN {
            let extension = next
                .rsplit(|&b| b == b'.')
                .next()
                .filter(|_| next.contains(&b'.'))
                .unwrap_or_default()
                .to_ascii_lowercase();
            match extension.as_slice() {
                b"dof" => return Err(ObjectProblem::Dungeon { path: next }),
                b"bms" | b"bsr" | b"cpd" => {}
                _ => return Err(ObjectProblem::UnknownKind { path: next }),
            }
            let place = self.locate(&next)?;
            let file = self.shown(&place);
            let bytes = self.read(&place).map_err(|e| ObjectProblem::Unreadable {
                file: file.clone(),
                message: e.error.to_string(),
            })?;
            let malformed = |error| ObjectProblem::Malformed {
                file: file.clone(),
                error,
            };
            if extension == b"bms" {
                let mesh = ObjectMesh::parse(&bytes).map_err(malformed)?;
                if mesh.nav.is_none() {
                    return Err(ObjectProblem::NoNavSection { file });
                }
                return Ok((mesh, file));
            }
            let resource = ResourceFile::parse(&bytes).map_err(malformed)?;
            debug_assert!(ResourceKind::ALL.contains(&resource.kind()));
            next = resource
                .target_path()
                .ok_or_else(|| ObjectProblem::NoTarget { file: file.clone() })?
                .to_vec();
            last = file;
        }
        Err(ObjectProblem::ChainTooLong { file: last })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_paths_have_no_components() {
        assert_eq!(
            components(b"res\\bldg/a.bms"),
            Some(vec![&b"res"[..], b"bldg", b"a.bms"])
        );
        for bad in [
            &b""[..],
            b"\\res\\a.bms",
            b"res\\..\\a.bms",
            b"c:\\a.bms",
            b"res\\\\a.bms",
            b"./a",
        ] {
            assert_eq!(components(bad), None, "{}", String::from_utf8_lossy(bad));
            let resolver = ObjectResolver::new(".");
            assert!(matches!(
                resolver.find(bad),
                Err(ObjectProblem::BadPath { .. })
            ));
        }
    }

    #[test]
    fn paths_resolve_in_any_case() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("Res").join("Bldg")).unwrap();
        std::fs::write(dir.path().join("Res").join("Bldg").join("House.bms"), b"x").unwrap();
        let resolver = ObjectResolver::new(dir.path());
        let found = resolver.find(b"res\\BLDG\\house.BMS").unwrap();
        assert_eq!(found, dir.path().join("Res").join("Bldg").join("House.bms"));
        assert_eq!(
            resolver.find(b"res\\bldg\\other.bms"),
            Err(ObjectProblem::NotFound {
                path: b"res\\bldg\\other.bms".to_vec(),
                component: b"other.bms".to_vec(),
            })
        );
        assert!(
            matches!(
                resolver.find(b"res\\bldg"),
                Err(ObjectProblem::NotFound { .. })
            ),
            "a folder is no file"
        );
    }
}
