//! Opening an archive: the guarded walk of its directory blocks, and reading files on demand.

use crate::error::{ErrorKind, Pk2Error};
use crate::name::{is_safe_name, normalize_path};
use crate::{Key, BLOCK_LEN, ENTRIES_PER_BLOCK, ENTRY_LEN, HEADER_LEN};
use pk2::header::PackHeader;
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{self, Cursor, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Mutex;

const TYPE_EMPTY: u8 = 0;
const TYPE_DIRECTORY: u8 = 1;
const TYPE_FILE: u8 = 2;

/// A file or directory of an archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    path: String,
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
    /// The path as stored, its names joined by `/` (`navmesh/nv_694e.nvm`).
    pub fn path(&self) -> &str {
        &self.path
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
/// `Send + Sync` when the source is `Send`: reads take `&self` and share the source under a
/// lock, each seeking to its own file.
#[derive(Debug)]
pub struct Archive<R = File> {
    source: Mutex<R>,
    len: u64,
    /// Every entry, sorted by path (byte order of the stored names).
    entries: Vec<Entry>,
    /// Normalized path → index into `entries`.
    index: HashMap<String, usize>,
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

impl Archive<Cursor<Vec<u8>>> {
    /// An archive held in memory.
    ///
    /// # Errors
    /// As for [`Archive::new`].
    pub fn from_bytes(bytes: Vec<u8>, key: &Key) -> Result<Archive<Cursor<Vec<u8>>>, Pk2Error> {
        Archive::new(Cursor::new(bytes), key)
    }
}

impl<R: Read + Seek> Archive<R> {
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
    pub fn new(mut source: R, key: &Key) -> Result<Archive<R>, Pk2Error> {
        let io = |offset| move |e: io::Error| Pk2Error::new(offset, "", ErrorKind::Io(e));
        let len = source.seek(SeekFrom::End(0)).map_err(io(0))?;
        let mut header = [0u8; HEADER_LEN as usize];
        read_at(&mut source, 0, &mut header, len, "")?;
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
            source: &mut source,
            len,
            key,
            encrypted,
            visited: HashSet::new(),
            entries: Vec::new(),
        };
        walk.directory(String::new(), HEADER_LEN)?;
        let mut entries = walk.entries;
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        let mut index = HashMap::with_capacity(entries.len());
        for (i, entry) in entries.iter().enumerate() {
            if let Some(key) = normalize_path(&entry.path) {
                // Names that differ only outside ASCII decode alike; the first one wins.
                index.entry(key).or_insert(i);
            }
        }
        Ok(Archive {
            source: Mutex::new(source),
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
        let key = normalize_path(path)?;
        self.index.get(&key).map(|&i| &self.entries[i])
    }

    /// The entries inside the directory `dir` (`""` for the root), and below it at any depth
    /// when `recursive`, sorted by path.
    ///
    /// # Errors
    /// [`ErrorKind::NotFound`] or [`ErrorKind::WrongKind`] when `dir` is not a directory.
    pub fn list(&self, dir: &str, recursive: bool) -> Result<Vec<&Entry>, Pk2Error> {
        let key = normalize_path(dir).ok_or_else(|| Pk2Error::new(0, dir, ErrorKind::NotFound))?;
        if !key.is_empty() {
            let entry = self
                .entry(&key)
                .ok_or_else(|| Pk2Error::new(0, dir, ErrorKind::NotFound))?;
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
                let Some(path) = normalize_path(&e.path) else {
                    return false;
                };
                let rest = if key.is_empty() {
                    Some(path.as_str())
                } else {
                    path.strip_prefix(&key).and_then(|r| r.strip_prefix('/'))
                };
                rest.is_some_and(|r| recursive || !r.contains('/'))
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
        // A poisoned lock only means another reader panicked mid-seek; every read seeks first.
        let mut source = self.source.lock().unwrap_or_else(|p| p.into_inner());
        read_at(&mut *source, data, &mut bytes, self.len, &entry.path)?;
        Ok(bytes)
    }
}

/// Reads `buf.len()` bytes at `offset`, or says how far the archive falls short.
fn read_at<R: Read + Seek>(
    source: &mut R,
    offset: u64,
    buf: &mut [u8],
    len: u64,
    entry: &str,
) -> Result<(), Pk2Error> {
    let needed = buf.len() as u64;
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
    source.seek(SeekFrom::Start(offset)).map_err(fail)?;
    source.read_exact(buf).map_err(fail)
}

struct Walk<'a, R> {
    source: &'a mut R,
    len: u64,
    key: &'a Key,
    encrypted: bool,
    visited: HashSet<u64>,
    entries: Vec<Entry>,
}

impl<R: Read + Seek> Walk<'_, R> {
    /// Reads the directory whose first block is at `first`, then its subdirectories.
    ///
    /// Iterative over a stack, so that a deep tree cannot overflow the call stack.
    fn directory(&mut self, root: String, first: u64) -> Result<(), Pk2Error> {
        // Each block with the offset of the record that points at it (the root's: itself),
        // so that a bad pointer is reported where it is stored.
        let mut stack = vec![(root, first, first)];
        while let Some((dir, first, pointer)) = stack.pop() {
            let mut names: HashMap<Vec<u8>, u64> = HashMap::new();
            let mut block_at = first;
            let mut pointer = pointer;
            loop {
                let block = self.block(block_at, pointer, &dir)?;
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
        dir: &str,
        names: &mut HashMap<Vec<u8>, u64>,
    ) -> Result<Option<(String, u64)>, Pk2Error> {
        let kind = raw[0];
        if kind == TYPE_EMPTY {
            return Ok(None);
        }
        let name_field = &raw[1..82];
        let name = &name_field[..name_field.iter().position(|&b| b == 0).unwrap_or(81)];
        let shown = String::from_utf8_lossy(name).into_owned();
        let path = if dir.is_empty() {
            shown.clone()
        } else {
            format!("{dir}/{shown}")
        };
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
            (EntryKind::Directory, Some((path.clone(), position)))
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
        self.entries.push(Entry { path, offset, kind });
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
