//! A whole text table, the same for every `.ifo`: the signature line, the count line, one entry
//! per line, blank lines at the end. Only the entry lines differ ([`Entry`]).

use super::text::{self, Fields, LineEnding, Lines, Row};
use crate::bytes::Place;
use crate::error::{
    parse_path, parse_stream, write_bytes, Error, ErrorKind, ReadError, WriteError,
};
use std::io::{self, Read, Write};
use std::path::Path;

/// A whole text table: [`ObjectIfo`](super::ObjectIfo) or [`Tile2dIfo`](super::Tile2dIfo).
///
/// Fields are public and kept verbatim; each table's `lint` says what looks wrong. Writing gives
/// back the bytes that were read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table<E> {
    /// Line break after the signature line.
    pub signature_ending: LineEnding,
    /// The number on the second line, as stored. It should equal the number of entries (lint
    /// O001, T001); readers that trust it size their tables by it, and the game server bounds
    /// texture ids by the count of `tile2d.ifo`.
    pub count: u32,
    /// Line break after the count line.
    pub count_ending: LineEnding,
    /// One per line, in file order.
    pub entries: Vec<E>,
    /// Blank lines after the last entry, verbatim (the game's files have none).
    pub trailing: Vec<u8>,
}

/// An entry line of a table: [`ObjectEntry`](super::ObjectEntry) or
/// [`Tile2dEntry`](super::Tile2dEntry). Sealed: the grammar of a line lives in this crate.
pub trait Entry: Row {
    /// The first line of the table's file.
    const SIGNATURE: &'static [u8; 12];
}

impl<E: Entry> Default for Table<E> {
    fn default() -> Table<E> {
        Table::new(Vec::new())
    }
}

impl<E: Entry> Table<E> {
    /// A table of these entries with the count that matches them, `\n` line breaks and no
    /// trailing lines. Entries made with their `new` are in the game's spelling.
    pub fn new(entries: Vec<E>) -> Table<E> {
        Table {
            signature_ending: LineEnding::Lf,
            count: u32::try_from(entries.len()).unwrap_or(u32::MAX),
            count_ending: LineEnding::Lf,
            entries,
            trailing: Vec::new(),
        }
    }

    /// Parses a whole file: the signature line, the count line, then one entry per line until
    /// the end or until only blank lines are left (those are kept as trailing bytes).
    ///
    /// The count never sizes an allocation: entries are read while there are lines, and lint
    /// compares the two.
    ///
    /// # Errors
    /// A first line other than the table's signature (`JMXVOBJI1000`, `JMXV2DTI1001`), a count
    /// line that is not a plain number, an entry line that does not read as the table's fields,
    /// or a blank line followed by an entry. The error names the byte offset and the field
    /// (`entries[12].path`).
    pub fn parse(bytes: &[u8]) -> Result<Table<E>, Error> {
        let signature: &'static [u8] = E::SIGNATURE;
        let mut lines = Lines::new(bytes);
        let first = lines.next();
        let (content, signature_ending) =
            first.map_or((&[][..], LineEnding::None), |l| (l.content, l.ending));
        if content != signature {
            let place = Place::section("signature");
            if signature_ending == LineEnding::None && signature.starts_with(content) {
                return Err(Error::new(
                    0,
                    place,
                    ErrorKind::UnexpectedEnd {
                        needed: signature.len() + 1,
                        left: bytes.len(),
                    },
                ));
            }
            let found = content[..content.len().min(32)].to_vec();
            return Err(Error::new(
                0,
                place,
                ErrorKind::BadSignature {
                    expected: signature,
                    found,
                },
            ));
        }
        let end_of_input = |expected: &str| {
            Error::invalid(
                bytes.len(),
                Place::section("count"),
                expected.to_string(),
                "the end of the input",
            )
        };
        if signature_ending == LineEnding::None {
            return Err(end_of_input(
                "a line break after the signature, then the entry count",
            ));
        }
        let line = lines
            .next()
            .ok_or_else(|| end_of_input("the entry count on the second line"))?;
        let mut fields = Fields::new(line, Place::section("count"));
        let count = fields.plain_decimal()?;
        fields.end()?;
        let count_ending = line.ending;

        let mut entries = Vec::new();
        let mut trailing = Vec::new();
        while let Some(line) = lines.next() {
            let place = Place::item("entries", entries.len(), "");
            if text::is_blank(line.content) {
                if lines.clone().all(|l| text::is_blank(l.content)) {
                    trailing = bytes[line.start..].to_vec();
                    break;
                }
                return Err(Error::invalid(
                    line.start,
                    place,
                    "an entry (blank lines may only end the file)",
                    "a blank line",
                ));
            }
            entries.push(E::read(&mut Fields::new(line, place))?);
        }
        Ok(Table {
            signature_ending,
            count,
            count_ending,
            entries,
            trailing,
        })
    }

    /// Reads and parses a file.
    ///
    /// # Errors
    /// [`ReadError::Io`] when the file cannot be read, [`ReadError::Format`] as for
    /// [`Table::parse`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<Table<E>, ReadError> {
        parse_path(path, Self::parse)
    }

    /// Reads a stream to its end and parses it.
    ///
    /// # Errors
    /// As for [`Table::from_path`].
    pub fn read_from(reader: impl Read) -> Result<Table<E>, ReadError> {
        parse_stream(reader, Self::parse)
    }

    /// Number of entries (for `tile2d.ifo`, of textures; the server bounds texture ids by
    /// [`Table::count`], which lint T001 checks is the same).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry with this index. When the index is listed more than once (lint O002, T002),
    /// the one at position `index` if it is one of them, else the first: the game's tables are
    /// numbered from 0.
    pub fn get(&self, index: u32) -> Option<&E> {
        let at_position = usize::try_from(index)
            .ok()
            .and_then(|i| self.entries.get(i));
        at_position
            .filter(|e| e.index() == index)
            .or_else(|| self.entries.iter().find(|e| e.index() == index))
    }

    /// Whether some entry has this index.
    pub fn contains(&self, index: u32) -> bool {
        self.get(index).is_some()
    }

    /// Checks that the model can be written and read back as itself: every text field free of
    /// quotes and line breaks, only the last line without a line break, only blank lines after
    /// the entries.
    ///
    /// # Errors
    /// A quoted field holding `"` or a line break, an empty blank between fields, a line
    /// without a line break that is not the last, or trailing bytes that are not blank lines.
    pub fn check_writable(&self) -> Result<(), WriteError> {
        let unbroken = |place: Place| {
            WriteError::new(
                place,
                "only the last line of a file may lack a line break (the next line would join it)",
            )
        };
        if self.signature_ending == LineEnding::None {
            return Err(unbroken(Place::section("signature")));
        }
        let mut previous = (Place::section("count"), self.count_ending);
        for (i, entry) in self.entries.iter().enumerate() {
            let place = Place::item("entries", i, "");
            if previous.1 == LineEnding::None {
                return Err(unbroken(previous.0));
            }
            entry.check(place)?;
            previous = (place, entry.ending());
        }
        if !self.trailing.is_empty() {
            if previous.1 == LineEnding::None {
                return Err(unbroken(previous.0));
            }
            if !Lines::new(&self.trailing).all(|l| text::is_blank(l.content)) {
                return Err(WriteError::new(
                    "trailing",
                    "only blank lines (spaces, tabs, line breaks) may follow the entries",
                ));
            }
        }
        Ok(())
    }

    /// The exact size of the written file in bytes.
    pub fn encoded_len(&self) -> usize {
        E::SIGNATURE.len()
            + self.signature_ending.as_bytes().len()
            + text::decimal_len(self.count)
            + self.count_ending.as_bytes().len()
            + self.entries.iter().map(Row::encoded_len).sum::<usize>()
            + self.trailing.len()
    }

    /// The file's bytes (mirrors [`Table::parse`]).
    ///
    /// # Errors
    /// As for [`Table::check_writable`].
    pub fn to_vec(&self) -> Result<Vec<u8>, WriteError> {
        self.check_writable()?;
        let mut out = Vec::with_capacity(self.encoded_len());
        out.extend_from_slice(E::SIGNATURE);
        out.extend_from_slice(self.signature_ending.as_bytes());
        text::write_digits(&mut out, self.count, 10, 0, false);
        out.extend_from_slice(self.count_ending.as_bytes());
        for entry in &self.entries {
            entry.write(&mut out);
        }
        out.extend_from_slice(&self.trailing);
        debug_assert_eq!(out.len(), self.encoded_len());
        Ok(out)
    }

    /// Writes the file's bytes to a stream.
    ///
    /// # Errors
    /// An [`io::Error`] from the stream, or one of kind `InvalidInput` wrapping a
    /// [`WriteError`] when the model cannot be written.
    pub fn write_to(&self, writer: impl Write) -> io::Result<()> {
        write_bytes(self.to_vec(), writer)
    }
}
