//! Errors: where in the bytes a file went wrong, and how.

use std::fmt;
use std::io::{self, Read};
use std::path::Path;

/// A malformed file: what was wrong, at which byte offset, in which section.
///
/// Displayed as `offset 420 (0x1a4): cells[12].objects: unexpected end of input (needed 2
/// bytes, 1 left)`; a caller that knows the file name puts it in front.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    offset: usize,
    section: String,
    kind: ErrorKind,
}

/// What was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a record.
    UnexpectedEnd {
        /// Bytes the record needed.
        needed: usize,
        /// Bytes that were left.
        left: usize,
    },
    /// The file does not start with the expected signature.
    BadSignature {
        /// The signature of the format.
        expected: &'static [u8],
        /// The bytes found in its place (fewer when the input is shorter).
        found: Vec<u8>,
    },
    /// A count promises more records than the remaining bytes can hold.
    CountTooLarge {
        /// The count as stored.
        count: u64,
        /// The smallest size of one record.
        min_record_len: usize,
        /// Bytes left after the count.
        left: usize,
    },
    /// The bytes after the internal edges match none of the known tail layouts.
    UnknownLayout {
        /// Bytes left after the internal edges.
        tail_len: usize,
    },
    /// A value that the format does not allow here.
    Invalid {
        /// What the format expects.
        expected: String,
        /// What was found.
        found: String,
    },
}

impl Error {
    pub(crate) fn new(offset: usize, section: impl fmt::Display, kind: ErrorKind) -> Error {
        Error {
            offset,
            section: section.to_string(),
            kind,
        }
    }

    /// An [`ErrorKind::Invalid`] error at `offset` in `section`: a value other than `expected`
    /// was `found`.
    pub(crate) fn invalid(
        offset: usize,
        section: impl fmt::Display,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Error {
        Error::new(
            offset,
            section,
            ErrorKind::Invalid {
                expected: expected.into(),
                found: found.into(),
            },
        )
    }

    /// Byte offset of the problem from the start of the input.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The section being read, named like the JSON dump: `cells[12].objects`.
    pub fn section(&self) -> &str {
        &self.section
    }

    /// What was wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "offset {} (0x{:x}): {}: {}",
            self.offset, self.offset, self.section, self.kind
        )
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnexpectedEnd { needed, left } => {
                write!(
                    f,
                    "unexpected end of input (needed {needed} bytes, {left} left)"
                )
            }
            ErrorKind::BadSignature { expected, found } => write!(
                f,
                "expected signature {:?}, found {}",
                String::from_utf8_lossy(expected),
                describe_bytes(found)
            ),
            ErrorKind::CountTooLarge {
                count,
                min_record_len,
                left,
            } => write!(
                f,
                "count {count} needs at least {} bytes, only {left} left",
                (*count).saturating_mul(*min_record_len as u64)
            ),
            ErrorKind::UnknownLayout { tail_len } => write!(
                f,
                "{tail_len} bytes after the internal edges match no layout (expected at least \
                 111544 for the standard layout, exactly 74680 for tiles4 or 74500 for \
                 tiles4-noplanes); the file is truncated or not a navmesh"
            ),
            ErrorKind::Invalid { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
        }
    }
}

impl std::error::Error for Error {}

/// Shows bytes as text when they are printable ASCII, else as hex.
pub(crate) fn describe_bytes(bytes: &[u8]) -> String {
    if bytes.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        format!("{:?}", String::from_utf8_lossy(bytes))
    } else {
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        format!("bytes {hex}")
    }
}

/// Reading a file from a path or stream: either the I/O failed or the bytes were malformed.
///
/// It only tells the two apart and adds nothing of its own, so it is transparent like
/// [`io::Error`] over a custom error: it displays the inner error's text and returns the inner
/// error's [`source`](std::error::Error::source), so a report that walks the chain prints each
/// text once. Match on the variant to reach the inner error.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadError {
    /// The bytes could not be read.
    Io(io::Error),
    /// The bytes were read but are not a valid file.
    Format(Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => e.fmt(f),
            ReadError::Format(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) => std::error::Error::source(e),
            ReadError::Format(e) => std::error::Error::source(e),
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> ReadError {
        ReadError::Io(e)
    }
}

/// Reads the file at `path` and parses its bytes with `parse`: what every format's `from_path`
/// does.
///
/// # Errors
/// [`ReadError::Io`] when the file cannot be read, [`ReadError::Format`] from `parse`.
pub(crate) fn parse_path<T>(
    path: impl AsRef<Path>,
    parse: impl FnOnce(&[u8]) -> Result<T, Error>,
) -> Result<T, ReadError> {
    Ok(parse(&std::fs::read(path)?)?)
}

/// Reads `reader` to its end and parses the bytes with `parse`: what every format's
/// `read_from` does.
///
/// # Errors
/// [`ReadError::Io`] when the stream fails, [`ReadError::Format`] from `parse`.
pub(crate) fn parse_stream<T>(
    mut reader: impl Read,
    parse: impl FnOnce(&[u8]) -> Result<T, Error>,
) -> Result<T, ReadError> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    Ok(parse(&bytes)?)
}

impl From<Error> for ReadError {
    fn from(e: Error) -> ReadError {
        ReadError::Format(e)
    }
}

/// A model that cannot be written: a count beyond its on-disk width, or data the chosen layout
/// has no room for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteError {
    section: String,
    message: String,
}

impl WriteError {
    pub(crate) fn new(section: impl fmt::Display, message: impl fmt::Display) -> WriteError {
        WriteError {
            section: section.to_string(),
            message: message.to_string(),
        }
    }

    /// The section that cannot be written, named like the JSON dump.
    pub fn section(&self) -> &str {
        &self.section
    }

    /// The error as an [`io::Error`] of kind `InvalidInput`, as the writers to streams report it.
    pub(crate) fn into_io(self) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidInput, self)
    }
}

/// Writes a file's bytes to `writer`, or refuses the model whose [`WriteError`] stopped them:
/// what every format's `write_to` does with its `to_vec`.
///
/// # Errors
/// An [`io::Error`] from `writer`, or one of kind `InvalidInput` wrapping the [`WriteError`].
pub(crate) fn write_bytes(
    bytes: Result<Vec<u8>, WriteError>,
    mut writer: impl io::Write,
) -> io::Result<()> {
    writer.write_all(&bytes.map_err(WriteError::into_io)?)
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.section, self.message)
    }
}

impl std::error::Error for WriteError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nvm::NavMesh;

    #[test]
    fn no_error_repeats_its_source() {
        let format = NavMesh::parse(b"JMXVN").unwrap_err();
        assert_eq!(silknav_testkit::error_chain(&format), [format.to_string()]);
        assert!(format
            .to_string()
            .starts_with("offset 0 (0x0): signature: "));

        let read = ReadError::from(format.clone());
        assert_eq!(silknav_testkit::error_chain(&read), [format.to_string()]);

        let missing = NavMesh::from_path("/nonexistent/silknav/nv_694e.nvm").unwrap_err();
        assert!(matches!(missing, ReadError::Io(_)), "{missing:?}");
        assert_eq!(silknav_testkit::error_chain(&missing).len(), 1);

        // An I/O error carrying a cause: the cause is reported once, below the I/O error.
        let cause = io::Error::other(format.clone());
        let wrapped = ReadError::Io(io::Error::new(io::ErrorKind::InvalidData, cause));
        assert_eq!(silknav_testkit::error_chain(&wrapped), [format.to_string()]);

        let write = NavMesh {
            layout: crate::nvm::Layout::Tiles4,
            trailing: vec![1],
            ..NavMesh::default()
        };
        let write = write.to_vec().unwrap_err();
        assert_eq!(silknav_testkit::error_chain(&write), [write.to_string()]);
    }
}
