//! The index's arrays: built in memory, or read in place from the bytes of one index file.
//!
//! A loaded index file is one buffer, mapped or read whole; every array of the index is a
//! typed view of a range of it (plain little-endian records, cast with `bytemuck`), so loading
//! costs the map (or one read) and the checks, never a pass that rebuilds records one by one.

use bytemuck::Pod;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// The bytes of a loaded index file.
pub(crate) type FileBytes = Arc<FileBuffer>;

/// Where a loaded index file's bytes are: both kinds start at an address aligned to 8, so that
/// every record type of the file (none aligned to more than 8) can be viewed in place at any
/// 8-aligned offset.
pub(crate) enum FileBuffer {
    /// Mapped read-only from the file (page-aligned).
    Mapped(memmap2::Mmap),
    /// Read into 8-byte words; the file is the first `len` bytes.
    Read { words: Vec<u64>, len: usize },
}

impl FileBuffer {
    /// The file's bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        match self {
            FileBuffer::Mapped(map) => map,
            FileBuffer::Read { words, len } => &bytemuck::cast_slice(words)[..*len],
        }
    }

    /// Bytes of memory the buffer holds: the heap's words, or the mapped file (resident once
    /// read, in the page cache that other processes using the file share).
    pub fn memory_bytes(&self) -> usize {
        match self {
            FileBuffer::Mapped(map) => map.len(),
            FileBuffer::Read { words, .. } => words.capacity() * 8,
        }
    }
}

/// An array of plain records: owned, or a range of a loaded file.
#[derive(Clone)]
pub(crate) struct Array<T> {
    inner: Inner<T>,
}

#[derive(Clone)]
enum Inner<T> {
    Owned(Vec<T>),
    /// `len` records from byte `start` of the file (checked to fit and to be aligned when
    /// made, so that viewing them cannot fail).
    InFile {
        file: FileBytes,
        start: usize,
        len: usize,
    },
}

impl<T: Pod> Array<T> {
    /// The `len` records at byte `start` of `file`, or `None` when they do not fit in it or
    /// `start` is not aligned for `T`.
    pub fn in_file(file: &FileBytes, start: usize, len: usize) -> Option<Array<T>> {
        let end = len
            .checked_mul(std::mem::size_of::<T>())
            .and_then(|n| n.checked_add(start))?;
        let bytes = file.bytes().get(start..end)?;
        bytemuck::try_cast_slice::<u8, T>(bytes).ok()?;
        Some(Array {
            inner: Inner::InFile {
                file: Arc::clone(file),
                start,
                len,
            },
        })
    }

    /// Heap bytes the array holds of its own (a view of a file holds none: the file is
    /// counted once, by its owner).
    pub fn heap_bytes(&self) -> usize {
        match &self.inner {
            Inner::Owned(v) => v.capacity() * std::mem::size_of::<T>(),
            Inner::InFile { .. } => 0,
        }
    }
}

impl<T> Default for Array<T> {
    fn default() -> Array<T> {
        Array {
            inner: Inner::Owned(Vec::new()),
        }
    }
}

impl<T> From<Vec<T>> for Array<T> {
    fn from(v: Vec<T>) -> Array<T> {
        Array {
            inner: Inner::Owned(v),
        }
    }
}

impl<T: Pod> Deref for Array<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match &self.inner {
            Inner::Owned(v) => v,
            Inner::InFile { file, start, len } => {
                let bytes = &file.bytes()[*start..*start + *len * std::mem::size_of::<T>()];
                // Checked when the view was made: in range and aligned.
                bytemuck::cast_slice(bytes)
            }
        }
    }
}

impl<T: Pod + fmt::Debug> fmt::Debug for Array<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_of_a_file_check_range_and_alignment() {
        let file: FileBytes = Arc::new(FileBuffer::Read {
            words: vec![u64::from_le_bytes([1, 0, 0, 0, 2, 0, 0, 0]), 3],
            len: 16,
        });
        let words = Array::<u32>::in_file(&file, 0, 3).unwrap();
        assert_eq!(&*words, &[1, 2, 3]);
        assert_eq!(words.heap_bytes(), 0);
        assert!(Array::<u32>::in_file(&file, 0, 5).is_none(), "past the end");
        assert!(Array::<u32>::in_file(&file, 2, 1).is_none(), "misaligned");
        assert!(Array::<u32>::in_file(&file, usize::MAX, 1).is_none());
        assert!(Array::<u32>::in_file(&file, 4, usize::MAX).is_none());
        assert_eq!(
            &*Array::<u16>::in_file(&file, 16, 0).unwrap(),
            &[] as &[u16]
        );
        let owned = Array::from(vec![7u16; 4]);
        assert_eq!(&*owned, &[7; 4]);
        assert!(owned.heap_bytes() >= 8);
    }
}
