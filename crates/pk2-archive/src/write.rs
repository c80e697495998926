//! Packing files into an archive laid out the way the client stores them.

use crate::name::is_safe_name;
use crate::{Key, BLOCK_LEN, ENTRIES_PER_BLOCK, ENTRY_LEN, HEADER_LEN};
use pk2::header::PackHeader;
use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The longest name an entry holds: 81 bytes with the closing NUL.
const MAX_NAME: usize = 80;

/// Files that cannot be packed, named by their path.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PackError {
    /// A name of the path is empty, `.`, `..`, or holds `:` or a control byte.
    UnsafeName {
        /// The path.
        path: String,
    },
    /// A name longer than 80 bytes.
    NameTooLong {
        /// The path.
        path: String,
    },
    /// Two paths name one entry (in any case), or a path runs through a file.
    Duplicate {
        /// The second path.
        path: String,
    },
    /// A file of 4 GiB or more (sizes are 32-bit).
    TooLarge {
        /// The path.
        path: String,
    },
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::UnsafeName { path } => write!(
                f,
                "{path}: unsafe name (expected plain names, no `..`, drive or control bytes)"
            ),
            PackError::NameTooLong { path } => {
                write!(f, "{path}: a name longer than {MAX_NAME} bytes")
            }
            PackError::Duplicate { path } => write!(
                f,
                "{path}: names an entry another path names too (names match in any case)"
            ),
            PackError::TooLarge { path } => write!(f, "{path}: 4 GiB or more"),
        }
    }
}

impl std::error::Error for PackError {}

enum Node {
    Dir(usize),
    File(Vec<u8>),
}

struct Dir {
    parent: usize,
    /// Lower-cased name → (name as given, node).
    children: BTreeMap<String, (String, Node)>,
}

/// Packs files, given by their paths inside the archive (`/` or `\` separated; directories
/// are implied), into the bytes of an archive encrypted with `key`.
///
/// The layout is the client's: the header, the root directory's blocks at offset 256, every
/// other directory's blocks in pre-order, then the files' bytes in the same order. Each
/// directory starts with `.` (and below the root `..`); names keep their case, are sorted in
/// any case, and all times are zero, so the same files always give the same bytes.
///
/// # Errors
/// A [`PackError`] naming the path: an unsafe or overlong name, two paths for one entry, or a
/// file too large for a 32-bit size.
pub fn pack<P: AsRef<str>>(
    files: impl IntoIterator<Item = (P, Vec<u8>)>,
    key: &Key,
) -> Result<Vec<u8>, PackError> {
    let mut dirs = vec![Dir {
        parent: 0,
        children: BTreeMap::new(),
    }];
    for (path, bytes) in files {
        insert(&mut dirs, path.as_ref(), bytes)?;
    }
    // Pre-order, so that a directory's blocks come right after its parent's.
    let mut order = Vec::with_capacity(dirs.len());
    let mut stack = vec![0usize];
    while let Some(d) = stack.pop() {
        order.push(d);
        let subdirs: Vec<usize> = dirs[d]
            .children
            .values()
            .filter_map(|(_, n)| match n {
                Node::Dir(i) => Some(*i),
                Node::File(_) => None,
            })
            .collect();
        stack.extend(subdirs.into_iter().rev());
    }
    let blocks_of = |d: usize| {
        let dots = if d == 0 { 1 } else { 2 };
        (dirs[d].children.len() + dots).div_ceil(ENTRIES_PER_BLOCK)
    };
    let mut first_block = vec![0u64; dirs.len()];
    let mut at = HEADER_LEN;
    for &d in &order {
        first_block[d] = at;
        at += (blocks_of(d) * BLOCK_LEN) as u64;
    }
    let mut out = vec![0u8; at as usize];
    PackHeader::new_encrypted(key.cipher()).write_into(
        (&mut out[..HEADER_LEN as usize])
            .try_into()
            .expect("the archive starts with a whole header"),
    );
    for &d in &order {
        let mut records: Vec<[u8; ENTRY_LEN]> = Vec::new();
        records.push(record(1, b".", first_block[d], 0));
        if d != 0 {
            records.push(record(1, b"..", first_block[dirs[d].parent], 0));
        }
        for (name, node) in dirs[d].children.values() {
            let rec = match node {
                Node::Dir(i) => record(1, name.as_bytes(), first_block[*i], 0),
                Node::File(bytes) => {
                    let data = out.len() as u64;
                    out.extend_from_slice(bytes);
                    // `insert` checked the size fits.
                    record(2, name.as_bytes(), data, bytes.len() as u32)
                }
            };
            records.push(rec);
        }
        let blocks = blocks_of(d);
        records.resize(blocks * ENTRIES_PER_BLOCK, [0u8; ENTRY_LEN]);
        for b in 0..blocks {
            let mut block = Vec::with_capacity(BLOCK_LEN);
            for (i, rec) in records[b * ENTRIES_PER_BLOCK..(b + 1) * ENTRIES_PER_BLOCK]
                .iter()
                .enumerate()
            {
                let mut rec = *rec;
                if i == ENTRIES_PER_BLOCK - 1 && b + 1 < blocks {
                    let next = first_block[d] + ((b + 1) * BLOCK_LEN) as u64;
                    rec[118..126].copy_from_slice(&next.to_le_bytes());
                }
                block.extend_from_slice(&rec);
            }
            key.cipher().encrypt(&mut block);
            let start = (first_block[d] as usize) + b * BLOCK_LEN;
            out[start..start + BLOCK_LEN].copy_from_slice(&block);
        }
    }
    Ok(out)
}

fn insert(dirs: &mut Vec<Dir>, path: &str, bytes: Vec<u8>) -> Result<(), PackError> {
    let names: Vec<&str> = path.split(['/', '\\']).filter(|n| !n.is_empty()).collect();
    let err_path = || names.join("/");
    let Some((file, parents)) = names.split_last() else {
        return Err(PackError::UnsafeName {
            path: path.to_owned(),
        });
    };
    for name in &names {
        if !is_safe_name(name.as_bytes()) {
            return Err(PackError::UnsafeName { path: err_path() });
        }
        if name.len() > MAX_NAME {
            return Err(PackError::NameTooLong { path: err_path() });
        }
    }
    if u32::try_from(bytes.len()).is_err() {
        return Err(PackError::TooLarge { path: err_path() });
    }
    let mut d = 0;
    for name in parents {
        let key = name.to_ascii_lowercase();
        let next = dirs.len();
        match dirs[d].children.get(&key) {
            Some((_, Node::Dir(i))) => d = *i,
            Some((_, Node::File(_))) => return Err(PackError::Duplicate { path: err_path() }),
            None => {
                dirs[d]
                    .children
                    .insert(key, ((*name).to_owned(), Node::Dir(next)));
                dirs.push(Dir {
                    parent: d,
                    children: BTreeMap::new(),
                });
                d = next;
            }
        }
    }
    let key = file.to_ascii_lowercase();
    if dirs[d].children.contains_key(&key) {
        return Err(PackError::Duplicate { path: err_path() });
    }
    dirs[d]
        .children
        .insert(key, ((*file).to_owned(), Node::File(bytes)));
    Ok(())
}

/// A file below a folder that [`folder_files`] cannot take.
#[derive(Debug)]
#[non_exhaustive]
pub struct FolderError {
    /// The file or folder.
    pub path: PathBuf,
    /// What is wrong: the operating system's error, or of kind `InvalidData` for a name that
    /// is not UTF-8 or a link.
    pub error: io::Error,
}

impl fmt::Display for FolderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The path; the source says what is wrong, so a printed chain says each thing once.
        write!(f, "{}", self.path.display())
    }
}

impl std::error::Error for FolderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Every regular file below `dir`, by its `/`-joined path relative to `dir`, with its bytes,
/// sorted by path: what [`pack`] takes to pack a folder (a data root becomes an archive with
/// `navmesh/` and `res/` at its root).
///
/// # Errors
/// A folder or file that cannot be read, a name that is not UTF-8 (archive names are text),
/// or a symbolic link (it could point outside the folder or back into it), naming its path.
pub fn folder_files(dir: &Path) -> Result<Vec<(String, Vec<u8>)>, FolderError> {
    let mut files = Vec::new();
    collect(dir, "", &mut files)?;
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(files)
}

fn collect(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) -> Result<(), FolderError> {
    let fail = |path: &Path| {
        let path = path.to_path_buf();
        move |error| FolderError { path, error }
    };
    let refuse = |path: PathBuf, why: &str| FolderError {
        path,
        error: io::Error::new(io::ErrorKind::InvalidData, why),
    };
    for item in std::fs::read_dir(dir).map_err(fail(dir))? {
        let item = item.map_err(fail(dir))?;
        let path = item.path();
        let Some(name) = item.file_name().to_str().map(str::to_owned) else {
            return Err(refuse(
                path,
                "a name that is not UTF-8 (archive names are text)",
            ));
        };
        let inside = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let kind = item.file_type().map_err(fail(&path))?;
        if kind.is_dir() {
            collect(&path, &inside, out)?;
        } else if kind.is_file() {
            let bytes = std::fs::read(&path).map_err(fail(&path))?;
            out.push((inside, bytes));
        } else {
            return Err(refuse(
                path,
                "not a regular file or folder (pack does not follow links)",
            ));
        }
    }
    Ok(())
}

/// One 128-byte entry record: type, name (NUL-terminated in 81 bytes), three zero times,
/// position, size, next block (0 here), two bytes of padding.
fn record(kind: u8, name: &[u8], position: u64, size: u32) -> [u8; ENTRY_LEN] {
    let mut rec = [0u8; ENTRY_LEN];
    rec[0] = kind;
    rec[1..1 + name.len()].copy_from_slice(name);
    rec[106..114].copy_from_slice(&position.to_le_bytes());
    rec[114..118].copy_from_slice(&size.to_le_bytes());
    rec
}

/// The header of an archive whose directory blocks are stored unencrypted (no key check on
/// opening): what the fuzz target puts in front of its input so that the directory walk is
/// exercised rather than the key check.
pub fn plain_header() -> [u8; HEADER_LEN as usize] {
    let mut header = [0u8; HEADER_LEN as usize];
    PackHeader::default().write_into(&mut header);
    header
}
