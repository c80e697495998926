//! The path index file's identity, place and errors: the magic and version that name the
//! format, where a world's index file lives, the digest of the inputs it was built from, and
//! why a file is refused. The layout itself, and reading and writing it, are the path index's
//! ([`crate::path`]); `docs/format.md` documents every byte.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::Xxh3;

/// The first 8 bytes of every path index file.
pub const MAGIC: [u8; 8] = *b"SNAVPIDX";
/// The format version this silknav writes and reads.
pub const FORMAT_VERSION: u32 = 3;
/// The name of the index file in a world's navmesh folder.
pub const INDEX_FILE_NAME: &str = "silknav.index";
/// What an archive's index file is named after: `Data.pk2` → `Data.pk2.silknav.index`.
pub const INDEX_FILE_SUFFIX: &str = ".silknav.index";

/// Where a world's path index file lives: in its navmesh folder, named [`INDEX_FILE_NAME`].
/// The data root and the navmesh folder name the same world, so both find the same file.
pub fn index_file_in(location: &super::WorldLocation) -> PathBuf {
    location.navmesh_dir.join(INDEX_FILE_NAME)
}

/// Where the path index file of a world read from an archive (a file, such as `Data.pk2`)
/// lives: beside it, named after it with [`INDEX_FILE_SUFFIX`] (`Data.pk2.silknav.index`), so
/// the archive itself is never written.
pub fn index_file_beside(archive: &Path) -> PathBuf {
    let mut name = archive.as_os_str().to_os_string();
    name.push(INDEX_FILE_SUFFIX);
    PathBuf::from(name)
}

/// A digest of exactly the inputs a path index depends on: the loaded regions and the bytes of
/// their navmesh files (XXH3-128, see [`crate::World::inputs_digest`]). Equal digests mean the
/// index was built from the same files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InputsDigest(pub [u8; 16]);

impl fmt::Display for InputsDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// Accumulates an [`InputsDigest`]: the regions in ascending order, each as its id and the
/// XXH3-128 of its navmesh file's bytes.
#[derive(Clone)]
pub(crate) struct DigestBuilder(Xxh3);

impl DigestBuilder {
    pub fn new() -> DigestBuilder {
        let mut h = Xxh3::new();
        h.update(b"silknav path index inputs: terrain");
        DigestBuilder(h)
    }

    /// Adds a region and the digest of its file ([`file_digest`]).
    pub fn region(&mut self, id: jmxv::RegionId, file: u128) {
        self.0.update(&id.0.to_le_bytes());
        self.0.update(&file.to_le_bytes());
    }

    pub fn finish(&self) -> InputsDigest {
        InputsDigest(self.0.digest128().to_le_bytes())
    }
}

/// The digest of one input file's bytes.
pub(crate) fn file_digest(bytes: &[u8]) -> u128 {
    xxhash_rust::xxh3::xxh3_128(bytes)
}

/// Why a path index file was refused. Each names where in the file it is, when it is about a
/// place in the file.
#[derive(Debug)]
#[non_exhaustive]
pub enum IndexFileError {
    /// The file could not be read (or does not exist).
    Io(io::Error),
    /// The first 8 bytes are not [`MAGIC`]: not a path index file.
    NotAnIndex {
        /// The bytes found (fewer in a shorter file).
        found: Vec<u8>,
    },
    /// The byte-order mark is not `04 03 02 01`: written with another byte order (or not by
    /// silknav), or this silknav runs on a big-endian machine, which cannot read the layout in
    /// place.
    ByteOrder {
        /// The four bytes found at offset 12.
        found: [u8; 4],
    },
    /// Another format version.
    Version {
        /// The version found.
        found: u32,
    },
    /// The header's length is not the file's: the file was cut short (or grown).
    Length {
        /// The length the header gives.
        header: u64,
        /// The file's length.
        actual: u64,
    },
    /// The checksum does not match the bytes: the file is damaged.
    Checksum {
        /// The checksum the header gives.
        stored: u64,
        /// The checksum of the bytes.
        computed: u64,
    },
    /// A header field, table entry or record breaks the format.
    Malformed {
        /// Byte offset of what is wrong.
        offset: u64,
        /// Where: `header`, `sections[2]`, `portals[12]`, …
        section: String,
        /// What was expected.
        what: String,
    },
    /// Built from other inputs than the world's: other navmesh files or other regions. Run
    /// `silknav index` again.
    Stale {
        /// The inputs digest the file gives.
        file: InputsDigest,
        /// The world's.
        world: Option<InputsDigest>,
    },
}

impl IndexFileError {
    /// The byte offset the error is about, when it is about one.
    pub fn offset(&self) -> Option<u64> {
        match self {
            IndexFileError::Io(_) | IndexFileError::Stale { .. } => None,
            IndexFileError::NotAnIndex { .. } => Some(0),
            IndexFileError::ByteOrder { .. } => Some(12),
            IndexFileError::Version { .. } => Some(8),
            IndexFileError::Length { .. } => Some(16),
            IndexFileError::Checksum { .. } => Some(24),
            IndexFileError::Malformed { offset, .. } => Some(*offset),
        }
    }

    /// Whether the file is sound but was built from other inputs.
    pub fn is_stale(&self) -> bool {
        matches!(self, IndexFileError::Stale { .. })
    }

    pub(crate) fn malformed(
        offset: usize,
        section: impl Into<String>,
        what: impl Into<String>,
    ) -> Self {
        IndexFileError::Malformed {
            offset: offset as u64,
            section: section.into(),
            what: what.into(),
        }
    }
}

impl fmt::Display for IndexFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(offset) = self.offset() {
            write!(f, "offset {offset} ({offset:#x}): ")?;
        }
        match self {
            IndexFileError::Io(e) => write!(f, "{e}"),
            IndexFileError::NotAnIndex { found } => write!(
                f,
                "header.magic: not a silknav path index (starts with {found:02x?}, expected {:02x?})",
                MAGIC
            ),
            IndexFileError::ByteOrder { found } => write!(
                f,
                "header.byte_order: {found:02x?}, expected 04 03 02 01 (a little-endian file read on a little-endian machine)"
            ),
            IndexFileError::Version { found } => write!(
                f,
                "header.version: format version {found}, this silknav reads version {FORMAT_VERSION}"
            ),
            IndexFileError::Length { header, actual } => write!(
                f,
                "header.length: the header says {header} bytes, the file has {actual} (cut short or grown)"
            ),
            IndexFileError::Checksum { stored, computed } => write!(
                f,
                "header.checksum: {stored:016x} stored, {computed:016x} computed: the file is damaged"
            ),
            IndexFileError::Malformed { section, what, .. } => write!(f, "{section}: {what}"),
            IndexFileError::Stale { file, world } => match world {
                Some(world) => write!(
                    f,
                    "stale: built from other navmeshes (inputs {file}, the world's are {world})"
                ),
                None => write!(
                    f,
                    "stale: the world's inputs are unknown (it was not loaded from files)"
                ),
            },
        }
    }
}

impl std::error::Error for IndexFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IndexFileError::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// A path index file that could not be used, with its path.
#[derive(Debug)]
#[non_exhaustive]
pub struct PathIndexError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub error: IndexFileError,
}

impl fmt::Display for PathIndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for PathIndexError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.error)
    }
}
