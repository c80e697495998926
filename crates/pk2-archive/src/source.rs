//! Where an archive's bytes come from: positional reads, so that many threads read files of
//! one archive at once without sharing a cursor.

use std::fs::File;
use std::io;
use std::sync::Arc;

/// Bytes that can be read at any offset through a shared reference: a [`File`] (with the
/// operating system's positional reads, `pread` or `ReadFile` at an offset), or bytes in
/// memory.
pub trait ReadAt {
    /// The length in bytes.
    ///
    /// # Errors
    /// The operating system's, for a file.
    fn size(&self) -> io::Result<u64>;

    /// Fills `buf` with the bytes at `offset`.
    ///
    /// # Errors
    /// [`io::ErrorKind::UnexpectedEof`] when the source ends first; the operating system's
    /// for a file.
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()>;
}

impl ReadAt for File {
    fn size(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }

    #[cfg(unix)]
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(self, buf, offset)
    }

    #[cfg(windows)]
    fn read_exact_at(&self, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
        // `seek_read` moves the file's cursor, which no reader of an archive uses.
        while !buf.is_empty() {
            match std::os::windows::fs::FileExt::seek_read(self, buf, offset) {
                Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => {
                    buf = &mut std::mem::take(&mut buf)[n..];
                    offset += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

impl ReadAt for [u8] {
    fn size(&self) -> io::Result<u64> {
        Ok(self.len() as u64)
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        if buf.is_empty() {
            return Ok(());
        }
        let start = usize::try_from(offset).map_err(|_| io::ErrorKind::UnexpectedEof)?;
        let bytes = start
            .checked_add(buf.len())
            .and_then(|end| self.get(start..end))
            .ok_or(io::ErrorKind::UnexpectedEof)?;
        buf.copy_from_slice(bytes);
        Ok(())
    }
}

impl ReadAt for Vec<u8> {
    fn size(&self) -> io::Result<u64> {
        self.as_slice().size()
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        self.as_slice().read_exact_at(buf, offset)
    }
}

impl<T: ReadAt + ?Sized> ReadAt for &T {
    fn size(&self) -> io::Result<u64> {
        (**self).size()
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        (**self).read_exact_at(buf, offset)
    }
}

impl<T: ReadAt + ?Sized> ReadAt for Arc<T> {
    fn size(&self) -> io::Result<u64> {
        (**self).size()
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        (**self).read_exact_at(buf, offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_reads_at_offsets_and_says_when_it_ends() {
        let bytes = b"0123456789".to_vec();
        let mut buf = [0u8; 3];
        bytes.read_exact_at(&mut buf, 4).unwrap();
        assert_eq!(&buf, b"456");
        for offset in [8, 11, u64::MAX] {
            let err = bytes.read_exact_at(&mut buf, offset).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof, "{offset}");
            // Nothing to read is read anywhere, as a file reads it.
            bytes.read_exact_at(&mut [], offset).unwrap();
        }
        assert_eq!(bytes.size().unwrap(), 10);
    }

    #[test]
    fn a_file_reads_at_offsets_from_many_threads() {
        let mut file = tempfile::tempfile().unwrap();
        let bytes: Vec<u8> = (0..=255).cycle().take(1 << 16).collect();
        io::Write::write_all(&mut file, &bytes).unwrap();
        assert_eq!(file.size().unwrap(), bytes.len() as u64);
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let (file, bytes) = (&file, &bytes);
                scope.spawn(move || {
                    for i in 0..200u64 {
                        let at = (i * 331 + t * 97) % 60_000;
                        let mut buf = [0u8; 1000];
                        file.read_exact_at(&mut buf, at).unwrap();
                        assert_eq!(&buf[..], &bytes[at as usize..at as usize + 1000]);
                    }
                });
            }
        });
        let mut buf = [0u8; 10];
        let err = file.read_exact_at(&mut buf, (1 << 16) - 5).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
    }
}
