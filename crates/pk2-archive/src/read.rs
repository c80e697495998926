//! Opening an archive: the guarded walk of its directory blocks, and reading files on demand.

use crate::error::{ErrorKind, Pk2Error};
use crate::name::{is_safe_name, normalize_bytes};
use crate::source::ReadAt;
use crate::{Key, BLOCK_LEN, ENTRIES_PER_BLOCK, ENTRY_LEN, HEADER_LEN};
use pk2::header::PackHeader;
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io;
use std::path::Path;

const TYPE_EMPTY: u8 = 0;
const TYPE_DIRECTORY: u8 = 1;
const TYPE_FILE: u8 = 2;

/// A file or directory of an archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The path for people: the stored names, lossily decoded, joined by `/`.
    path: String,
    /// The path as stored: the names' bytes joined by `/`.
    raw: Vec<u8>,
    offset: u64,
    kind: EntryKind,
}

/// What an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A directory.
    Directory,
    /// A file: where its bytes start and how many there are.
    File {
        /// The byte offset of its contents in the archive.
        data: u64,
        /// Its length in bytes.
        size: u32,
    },
}

impl Entry {
    /// The path, its names joined by `/` (`navmesh/nv_694e.nvm`), decoded as UTF-8 (lossily
    /// for names that are not: the game's are CP949).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The path as stored, its names' bytes joined by `/`: what [`Archive::entry_bytes`]
    /// finds, exactly, whatever the names' encoding.
    pub fn raw_path(&self) -> &[u8] {
        &self.raw
    }

    /// The last name of the path.
    pub fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(&self.path)
    }

    /// The byte offset of the entry's 128-byte record in the archive.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// What the entry is.
    pub fn kind(&self) -> EntryKind {
        self.kind
    }

    /// Whether the entry is a file.
    pub fn is_file(&self) -> bool {
        matches!(self.kind, EntryKind::File { .. })
    }

    /// The file's length in bytes; 0 for a directory.
    pub fn size(&self) -> u64 {
        match self.kind {
            EntryKind::File { size, .. } => u64::from(size),
            EntryKind::Directory => 0,
        }
    }
}

/// An opened archive: its directory tree in memory, its files read on demand.
///
/// `Send + Sync` when the source is (a [`File`] is): reads take `&self` and read at their
/// own offsets ([`ReadAt`]), so threads reading files at once never wait for each other.
#[derive(Debug)]
pub struct Archive<R = File> {
    source: R,
    len: u64,
    /// Every entry, sorted by path (byte order of the stored names).
    entries: Vec<Entry>,
    /// Normalized stored path ([`normalize_bytes`]) → index into `entries`.
    index: HashMap<Vec<u8>, usize>,
}

impl Archive<File> {
    /// Opens the archive at `path` and reads its directory tree (not its files).
    ///
    /// # Errors
    /// The file cannot be opened or read, or the archive is damaged: see [`Archive::new`].
    pub fn open(path: impl AsRef<Path>, key: &Key) -> Result<Archive<File>, Pk2Error> {
        let file = File::open(path).map_err(|e| Pk2Error::new(0, "", ErrorKind::Io(e)))?;
        Archive::new(file, key)
    }
}

impl Archive<Vec<u8>> {
    /// An archive held in memory.
    ///
    /// # Errors
    /// As for [`Archive::new`].
    pub fn from_bytes(bytes: Vec<u8>, key: &Key) -> Result<Archive<Vec<u8>>, Pk2Error> {
        Archive::new(bytes, key)
    }
}

impl<R: ReadAt> Archive<R> {
    /// Reads the header and walks every directory block of an archive.
    ///
    /// The walk visits each block at most once and reads nothing outside the archive, so it
    /// ends, and holds at most one entry per 128 bytes of the archive.
    ///
    /// # Errors
    /// A [`Pk2Error`] naming the offset and entry: the archive is truncated, not an archive,
    /// of another version, encrypted with another key, its blocks loop or point outside it, an
    /// entry has an unknown type, an unsafe name, or the name of an earlier entry of its
    /// directory; or the source cannot be read.
    pub fn new(source: R, key: &Key) -> Result<Archive<R>, Pk2Error> {
        let len = source
            .size()
            .map_err(|e| Pk2Error::new(0, "", ErrorKind::Io(e)))?;
        let mut header = [0u8; HEADER_LEN as usize];
        read_at(&source, 0, &mut header, len, "")?;
        let header = PackHeader::parse(&header);
        match header.validate_sig() {
            Ok(()) => {}
            Err(pk2::HeaderError::UnsupportedVersion(found)) => {
                return Err(Pk2Error::new(
                    30,
                    "",
                    ErrorKind::UnsupportedVersion { found },
                ))
            }
            Err(_) => return Err(Pk2Error::new(0, "", ErrorKind::NotAnArchive)),
        }
        let encrypted = header.encrypted;
        if encrypted && header.verify(key.cipher()).is_err() {
            return Err(Pk2Error::new(35, "", ErrorKind::WrongKey));
        }
        let mut walk = Walk {
            source: &source,
            len,
            key,
            encrypted,
            visited: HashSet::new(),
            entries: Vec::new(),
        };
        walk.directory(Dir::root(), HEADER_LEN)?;
        let mut entries = walk.entries;
        entries.sort_by(|a, b| a.raw.cmp(&b.raw));
        // Names are unique in their directory in any case (the walk refused the rest), so
        // every entry has a key of its own.
        let index = entries
            .iter()
            .enumerate()
            .filter_map(|(i, entry)| Some((normalize_bytes(&entry.raw)?, i)))
            .collect();
        Ok(Archive {
            source,
            len,
            entries,
            index,
        })
    }

    /// The archive's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the archive holds no entries at all.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry, directories and files, sorted by path.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry at `path` (`/` or `\` separated, any case), or `None`.
    pub fn entry(&self, path: &str) -> Option<&Entry> {
        self.entry_bytes(path.as_bytes())
    }

    /// The entry at a path given as the bytes of its names (`/` or `\` separated, ASCII
    /// letters in any case), matched against the stored bytes: how paths stored in game files
    /// (CP949, not UTF-8) find their entries.
    pub fn entry_bytes(&self, path: &[u8]) -> Option<&Entry> {
        let key = normalize_bytes(path)?;
        self.index.get(&key).map(|&i| &self.entries[i])
    }

    /// The entries inside the directory `dir` (`""` for the root), and below it at any depth
    /// when `recursive`, sorted by path.
    ///
    /// # Errors
    /// [`ErrorKind::NotFound`] or [`ErrorKind::WrongKind`] when `dir` is not a directory.
    pub fn list(&self, dir: &str, recursive: bool) -> Result<Vec<&Entry>, Pk2Error> {
        self.list_bytes(dir.as_bytes(), recursive)
    }

    /// [`Archive::list`] for a directory given as the bytes of its names, as
    /// [`Archive::entry_bytes`] takes them.
    ///
    /// # Errors
    /// As for [`Archive::list`].
    pub fn list_bytes(&self, dir: &[u8], recursive: bool) -> Result<Vec<&Entry>, Pk2Error> {
        let shown = || String::from_utf8_lossy(dir).into_owned();
        let key =
            normalize_bytes(dir).ok_or_else(|| Pk2Error::new(0, shown(), ErrorKind::NotFound))?;
        if !key.is_empty() {
            let entry = self
                .entry_bytes(&key)
                .ok_or_else(|| Pk2Error::new(0, shown(), ErrorKind::NotFound))?;
            if entry.is_file() {
                return Err(Pk2Error::new(
                    entry.offset,
                    entry.path.clone(),
                    ErrorKind::WrongKind {
                        expected: "directory",
                    },
                ));
            }
        }
        Ok(self
            .entries
            .iter()
            .filter(|e| {
                let Some(path) = normalize_bytes(&e.raw) else {
                    return false;
                };
                let rest = if key.is_empty() {
                    Some(path.as_slice())
                } else {
                    path.strip_prefix(key.as_slice())
                        .and_then(|r| r.strip_prefix(b"/"))
                };
                rest.is_some_and(|r| recursive || !r.contains(&b'/'))
            })
            .collect())
    }

    /// The bytes of the file at `path` (`/` or `\` separated, any case).
    ///
    /// # Errors
    /// [`ErrorKind::NotFound`], [`ErrorKind::WrongKind`] for a directory, or the archive
    /// cannot be read there (it shrank since it was opened: [`ErrorKind::Truncated`]).
    pub fn read(&self, path: &str) -> Result<Vec<u8>, Pk2Error> {
        let entry = self
            .entry(path)
            .ok_or_else(|| Pk2Error::new(0, path, ErrorKind::NotFound))?;
        self.read_entry(entry)
    }

    /// The bytes of a file entry of this archive.
    ///
    /// # Errors
    /// As for [`Archive::read`].
    pub fn read_entry(&self, entry: &Entry) -> Result<Vec<u8>, Pk2Error> {
        let EntryKind::File { data, size } = entry.kind else {
            return Err(Pk2Error::new(
                entry.offset,
                entry.path.clone(),
                ErrorKind::WrongKind { expected: "file" },
            ));
        };
        // The walk checked that the bytes lie inside the archive, so this allocation is
        // bounded by the archive's length.
        let mut bytes = vec![0; size as usize];
        read_at(&self.source, data, &mut bytes, self.len, &entry.path)?;
        Ok(bytes)
    }
}

/// Reads `buf.len()` bytes at `offset`, or says how far the archive falls short.
fn read_at<R: ReadAt>(
    source: &R,
    offset: u64,
    buf: &mut [u8],
    len: u64,
    entry: &str,
) -> Result<(), Pk2Error> {
    let needed = buf.len() as u64;
    if needed == 0 {
        // An empty file may name any position (the walk allows it): there is nothing to read.
        return Ok(());
    }
    let left = len.saturating_sub(offset);
    if needed > left {
        return Err(Pk2Error::new(
            offset,
            entry,
            ErrorKind::Truncated { needed, left },
        ));
    }
    let fail = |e: io::Error| {
        let kind = if e.kind() == io::ErrorKind::UnexpectedEof {
            ErrorKind::Truncated { needed, left: 0 }
        } else {
            ErrorKind::Io(e)
        };
        Pk2Error::new(offset, entry, kind)
    };
    source.read_exact_at(buf, offset).map_err(fail)
}

/// A directory being walked: its path for people and as stored.
#[derive(Clone)]
struct Dir {
    path: String,
    raw: Vec<u8>,
}

impl Dir {
    fn root() -> Dir {
        Dir {
            path: String::new(),
            raw: Vec::new(),
        }
    }

    /// The path of a child named `name`.
    fn child(&self, name: &[u8]) -> Dir {
        let shown = String::from_utf8_lossy(name);
        if self.raw.is_empty() {
            return Dir {
                path: shown.into_owned(),
                raw: name.to_vec(),
            };
        }
        Dir {
            path: format!("{}/{shown}", self.path),
            raw: [&self.raw[..], b"/", name].concat(),
        }
    }
}

struct Walk<'a, R> {
    source: &'a R,
    len: u64,
    key: &'a Key,
    encrypted: bool,
    visited: HashSet<u64>,
    entries: Vec<Entry>,
}

impl<R: ReadAt> Walk<'_, R> {
    /// Reads the directory whose first block is at `first`, then its subdirectories.
    ///
    /// Iterative over a stack, so that a deep tree cannot overflow the call stack.
    fn directory(&mut self, root: Dir, first: u64) -> Result<(), Pk2Error> {
        // Each block with the offset of the record that points at it (the root's: itself),
        // so that a bad pointer is reported where it is stored.
        let mut stack = vec![(root, first, first)];
        while let Some((dir, first, pointer)) = stack.pop() {
            let mut names: HashMap<Vec<u8>, u64> = HashMap::new();
            let mut block_at = first;
            let mut pointer = pointer;
            loop {
                let block = self.block(block_at, pointer, &dir.path)?;
                for i in 0..ENTRIES_PER_BLOCK {
                    let offset = block_at + (i * ENTRY_LEN) as u64;
                    let raw = &block[i * ENTRY_LEN..(i + 1) * ENTRY_LEN];
                    if let Some((path, child)) = self.entry(raw, offset, &dir, &mut names)? {
                        stack.push((path, child, offset));
                    }
                }
                let last = &block[(ENTRIES_PER_BLOCK - 1) * ENTRY_LEN..];
                let next = u64_at(last, 118);
                if next == 0 {
                    break;
                }
                pointer = block_at + ((ENTRIES_PER_BLOCK - 1) * ENTRY_LEN) as u64;
                block_at = next;
            }
        }
        Ok(())
    }

    /// One entry: recorded, and for a directory, its path and first block to walk.
    fn entry(
        &mut self,
        raw: &[u8],
        offset: u64,
        dir: &Dir,
        names: &mut HashMap<Vec<u8>, u64>,
    ) -> Result<Option<(Dir, u64)>, Pk2Error> {
        let kind = raw[0];
        if kind == TYPE_EMPTY {
            return Ok(None);
        }
        let name_field = &raw[1..82];
        let name = &name_field[..name_field.iter().position(|&b| b == 0).unwrap_or(81)];
        let shown = String::from_utf8_lossy(name).into_owned();
        let Dir {
            path,
            raw: raw_path,
        } = dir.child(name);
        if kind != TYPE_DIRECTORY && kind != TYPE_FILE {
            return Err(Pk2Error::new(
                offset,
                path,
                ErrorKind::BadEntryType { found: kind },
            ));
        }
        // Every directory starts with `.` (itself) and, below the root, `..` (its parent):
        // links, not children.
        if kind == TYPE_DIRECTORY && (name == b"." || name == b"..") {
            return Ok(None);
        }
        if !is_safe_name(name) {
            return Err(Pk2Error::new(
                offset,
                path,
                ErrorKind::UnsafeName { name: shown },
            ));
        }
        if let Some(&first) = names.get(&name.to_ascii_lowercase()) {
            return Err(Pk2Error::new(
                offset,
                path,
                ErrorKind::DuplicateName { first },
            ));
        }
        names.insert(name.to_ascii_lowercase(), offset);
        let position = u64_at(raw, 106);
        let size = u32::from_le_bytes([raw[114], raw[115], raw[116], raw[117]]);
        let (kind, child) = if kind == TYPE_DIRECTORY {
            let child = Dir {
                path: path.clone(),
                raw: raw_path.clone(),
            };
            (EntryKind::Directory, Some((child, position)))
        } else {
            let inside = position >= HEADER_LEN
                && position
                    .checked_add(u64::from(size))
                    .is_some_and(|end| end <= self.len);
            if !inside && size > 0 {
                return Err(Pk2Error::new(
                    offset,
                    path,
                    ErrorKind::OutsideArchive {
                        start: position,
                        len: u64::from(size),
                        archive_len: self.len,
                    },
                ));
            }
            (
                EntryKind::File {
                    data: position,
                    size,
                },
                None,
            )
        };
        self.entries.push(Entry {
            path,
            raw: raw_path,
            offset,
            kind,
        });
        Ok(child)
    }

    /// The decrypted directory block at `at`, visited for the first time; `pointer` is the
    /// offset of the record that names it, where errors about it are reported.
    fn block(&mut self, at: u64, pointer: u64, dir: &str) -> Result<Vec<u8>, Pk2Error> {
        if !self.visited.insert(at) {
            return Err(Pk2Error::new(
                pointer,
                dir,
                ErrorKind::BlockLoop { block: at },
            ));
        }
        let inside = at >= HEADER_LEN
            && at
                .checked_add(BLOCK_LEN as u64)
                .is_some_and(|end| end <= self.len);
        if !inside {
            // The root block missing is a short archive; any other block is a bad pointer.
            if at == HEADER_LEN {
                return Err(Pk2Error::new(
                    at,
                    dir,
                    ErrorKind::Truncated {
                        needed: BLOCK_LEN as u64,
                        left: self.len.saturating_sub(at),
                    },
                ));
            }
            return Err(Pk2Error::new(
                pointer,
                dir,
                ErrorKind::OutsideArchive {
                    start: at,
                    len: BLOCK_LEN as u64,
                    archive_len: self.len,
                },
            ));
        }
        let mut block = vec![0u8; BLOCK_LEN];
        read_at(self.source, at, &mut block, self.len, dir)?;
        if self.encrypted {
            self.key.cipher().decrypt(&mut block);
        }
        Ok(block)
    }
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}
