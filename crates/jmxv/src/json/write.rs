//! The text layout of the JSON documents: compact JSON broken into lines.
//!
//! One top-level key per line, and lists with a fixed number of elements per line (a record
//! per line, or a grid row per line), so that a dump stays small and still diffs and greps well.

use crate::WriteError;
use serde::Serialize;
use std::io::{self, Write};

/// A top-level object being written key by key, each key starting a line.
pub(crate) struct Lines<'w, W: Write> {
    out: &'w mut W,
    first: bool,
}

impl<'w, W: Write> Lines<'w, W> {
    /// Starts the object (`{` on a line of its own).
    pub(crate) fn start(out: &'w mut W) -> io::Result<Lines<'w, W>> {
        out.write_all(b"{\n")?;
        Ok(Lines { out, first: true })
    }

    /// Ends the object (`}` on a line of its own, then a newline).
    pub(crate) fn end(self) -> io::Result<()> {
        self.out.write_all(b"\n}\n")
    }

    fn start_key(&mut self, key: &str) -> io::Result<()> {
        if !self.first {
            self.out.write_all(b",\n")?;
        }
        self.first = false;
        write!(self.out, "\"{key}\":")
    }

    /// A key and its value on one line.
    pub(crate) fn key(&mut self, key: &str, value: &(impl Serialize + ?Sized)) -> io::Result<()> {
        self.start_key(key)?;
        json(self.out, value)
    }

    /// A key and an array with `per_line` elements on each line (`[]` when empty).
    pub(crate) fn list<T: Serialize>(
        &mut self,
        key: &str,
        per_line: usize,
        items: impl IntoIterator<Item = T>,
    ) -> io::Result<()> {
        self.start_key(key)?;
        self.out.write_all(b"[")?;
        let mut any = false;
        for (i, item) in items.into_iter().enumerate() {
            let separator: &[u8] = match (i, i % per_line) {
                (0, _) => b"\n",
                (_, 0) => b",\n",
                _ => b",",
            };
            self.out.write_all(separator)?;
            json(self.out, &item)?;
            any = true;
        }
        self.out.write_all(if any { b"\n]" } else { b"]" })
    }
}

fn json(out: &mut impl Write, value: &(impl Serialize + ?Sized)) -> io::Result<()> {
    serde_json::to_writer(out, value).map_err(io::Error::from)
}

/// The JSON text that `write` makes, once `checked` (the model's `check_writable`) has passed;
/// `capacity()` bytes are reserved for it up front.
///
/// # Errors
/// The [`WriteError`] of `checked`.
pub(crate) fn checked_string(
    checked: Result<(), WriteError>,
    capacity: impl FnOnce() -> usize,
    write: impl FnOnce(&mut Vec<u8>) -> io::Result<()>,
) -> Result<String, WriteError> {
    checked?;
    let mut out = Vec::with_capacity(capacity());
    write(&mut out).unwrap_or_else(|_| unreachable!("writing to a Vec never fails"));
    Ok(String::from_utf8(out).unwrap_or_else(|_| unreachable!("serde_json writes UTF-8")))
}

/// Writes with `write` to `out`, once `checked` (the model's `check_writable`) has passed.
///
/// # Errors
/// An [`io::Error`] from the stream, or one of kind `InvalidInput` wrapping the [`WriteError`]
/// of `checked`.
pub(crate) fn checked_writer<W: Write>(
    checked: Result<(), WriteError>,
    mut out: W,
    write: impl FnOnce(&mut W) -> io::Result<()>,
) -> io::Result<()> {
    checked.map_err(WriteError::into_io)?;
    write(&mut out)
}
