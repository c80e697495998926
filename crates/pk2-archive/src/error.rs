//! What can be wrong with an archive, with the entry and byte offset where it was found.

use std::fmt;
use std::io;

/// An archive that cannot be read, or an entry of it that cannot.
///
/// Displayed as `offset 2816 (0xb00): navmesh/nv_694e.nvm: WHAT`; the entry is the path of the
/// entry (or directory) being read, empty for the header.
#[derive(Debug)]
#[non_exhaustive]
pub struct Pk2Error {
    /// The byte offset in the archive where the problem is: for a bad pointer (a loop, a
    /// block outside the archive), the record that holds the pointer.
    pub offset: u64,
    /// The entry's path inside the archive (`/`-separated), or empty.
    pub entry: String,
    /// What is wrong.
    pub kind: ErrorKind,
}

impl Pk2Error {
    /// The error `kind` at `offset`, about `entry` (empty for the header or the archive as a
    /// whole).
    pub fn new(offset: u64, entry: impl Into<String>, kind: ErrorKind) -> Pk2Error {
        Pk2Error {
            offset,
            entry: entry.into(),
            kind,
        }
    }
}

/// What is wrong with an archive.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The operating system could not read the archive.
    Io(io::Error),
    /// The archive ends inside a header, block or file.
    Truncated {
        /// Bytes the record needs.
        needed: u64,
        /// Bytes the archive has from the offset on.
        left: u64,
    },
    /// The first bytes are not `JoyMax File Manager!\n`.
    NotAnArchive,
    /// The header names a version other than `0x01000002`.
    UnsupportedVersion {
        /// The version found.
        found: u32,
    },
    /// The key does not decrypt the header's check value: another client's archive.
    WrongKey,
    /// A key of a length Blowfish refuses.
    InvalidKey {
        /// Its length in bytes (4 to 56 are allowed).
        len: usize,
    },
    /// A directory block is reached a second time: the blocks form a loop.
    BlockLoop {
        /// The block reached again.
        block: u64,
    },
    /// A block or a file's bytes lie (partly) outside the archive, or inside its header.
    OutsideArchive {
        /// Where it starts.
        start: u64,
        /// Its length.
        len: u64,
        /// The archive's length.
        archive_len: u64,
    },
    /// An entry of a type other than 0 (empty), 1 (directory) or 2 (file).
    BadEntryType {
        /// The type byte.
        found: u8,
    },
    /// Two entries of one directory have one name (compared in any case).
    DuplicateName {
        /// The byte offset of the first entry with the name.
        first: u64,
    },
    /// A name that could leave the extraction folder or is not a name: empty, `.`/`..` as a
    /// real entry, a separator, a drive letter, a NUL or control byte.
    UnsafeName {
        /// The name as stored (lossily decoded).
        name: String,
    },
    /// No entry has the path asked for.
    NotFound,
    /// The path names a directory where a file was asked for, or the reverse.
    WrongKind {
        /// What was asked for: `file` or `directory`.
        expected: &'static str,
    },
}

impl fmt::Display for Pk2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "offset {} ({:#x}): ", self.offset, self.offset)?;
        if !self.entry.is_empty() {
            write!(f, "{}: ", self.entry)?;
        }
        match &self.kind {
            ErrorKind::Io(e) => write!(f, "{e}"),
            ErrorKind::Truncated { needed, left } => write!(
                f,
                "unexpected end of archive (needed {needed} bytes, {left} left)"
            ),
            ErrorKind::NotAnArchive => {
                f.write_str("not a PK2 archive (expected the signature \"JoyMax File Manager!\")")
            }
            ErrorKind::UnsupportedVersion { found } => {
                write!(f, "unsupported version {found:#010x} (expected 0x01000002)")
            }
            ErrorKind::WrongKey => f.write_str(
                "wrong key: the header's check value does not match (another client's archive? try --pk2-key)",
            ),
            ErrorKind::InvalidKey { len } => {
                write!(f, "a key of {len} bytes (expected 4 to 56)")
            }
            ErrorKind::BlockLoop { block } => write!(
                f,
                "directory block {block} ({block:#x}) is reached twice: the directory blocks form a loop"
            ),
            ErrorKind::OutsideArchive {
                start,
                len,
                archive_len,
            } => write!(
                f,
                "{len} bytes at {start} ({start:#x}) lie outside the archive (expected within 256..{archive_len})"
            ),
            ErrorKind::BadEntryType { found } => write!(
                f,
                "entry type {found} (expected 0 empty, 1 directory or 2 file)"
            ),
            ErrorKind::DuplicateName { first } => write!(
                f,
                "a second entry with this name (the first is at offset {first} ({first:#x}))"
            ),
            ErrorKind::UnsafeName { name } => {
                write!(f, "unsafe entry name {name:?} (expected a plain file or folder name)")
            }
            ErrorKind::NotFound => f.write_str("no such entry"),
            ErrorKind::WrongKind { expected } => write!(f, "not a {expected}"),
        }
    }
}

impl std::error::Error for Pk2Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}
