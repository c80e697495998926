//! `object.ifo` (`JMXVOBJI1000`): the resources that navmesh objects name by `object_id`.
//!
//! ```text
//! JMXVOBJI1000
//! 2
//! 00000 0x00000001 "res\bldg\china\dungeon\snake.bsr"
//! 00001 0x00000000 "res\bldg\oasis\kara_obj02.bsr"
//! ```
//!
//! Each entry line holds an index (5 zero-padded digits), flags (`0x` and 8 hex digits; only 0
//! and 1 are known to occur, meaning unknown) and a quoted path with backslashes, ending in
//! `.bsr`, `.cpd`, `.bms` or `.dof`. Paths may hold CP949 (Korean) bytes, so they are kept as
//! bytes. See [`crate::ifo`] for what is kept verbatim and what is refused.
//!
//! # Lint codes
//! | code | severity | finding |
//! |---|---|---|
//! | O001 | error | the count line differs from the number of entries |
//! | O002 | error | an index appears more than once |
//! | O003 | warning | an index is smaller than the one before it |
//! | O004 | warning | indices differ from line positions (readers that index by position resolve other objects) |
//! | O005 | warning | flags written in decimal, not hex |
//! | O006 | warning | lines not in the game's spelling (5-digit index, `0x` + 8 lower-case hex digits, single spaces, nothing after the path) |
//! | O007 | warning | a path that does not end in `.bsr`, `.cpd`, `.bms` or `.dof` |
//! | O008 | warning | a path with forward slashes (the game's use backslashes) |
//! | O009 | warning | blank lines after the last entry |
//! | O010 | warning | the file mixes `\n` and `\r\n` line breaks |
//!
//! Codes that could repeat on every line (O004, O005, O006) are reported once, with the number
//! of lines and the first one.

use super::lint::{self as common, TableCodes};
use super::text::{self, check_quoted, Fields, LineEnding, LineFormat, Row};
use crate::bytes::Place;
use crate::error::{Error, ReadError, WriteError};
use crate::lint::{Finding, Severity};
use std::io::{self, Read, Write};
use std::path::Path;

/// The first line of every `object.ifo`.
pub const SIGNATURE: &[u8; 12] = b"JMXVOBJI1000";

/// The extensions of the resources an object may name, lower case.
pub const EXTENSIONS: [&[u8]; 4] = [b"bsr", b"cpd", b"bms", b"dof"];

/// Every lint code with its severity and meaning, as in the module docs.
pub const CODES: &[(&str, Severity, &str)] = &[
    (
        "O001",
        Severity::Error,
        "the count line differs from the number of entries",
    ),
    ("O002", Severity::Error, "an index appears more than once"),
    (
        "O003",
        Severity::Warning,
        "an index is smaller than the one before it",
    ),
    (
        "O004",
        Severity::Warning,
        "indices differ from line positions",
    ),
    (
        "O005",
        Severity::Warning,
        "flags written in decimal, not hex",
    ),
    (
        "O006",
        Severity::Warning,
        "lines not in the game's spelling",
    ),
    (
        "O007",
        Severity::Warning,
        "a path that does not end in .bsr, .cpd, .bms or .dof",
    ),
    ("O008", Severity::Warning, "a path with forward slashes"),
    (
        "O009",
        Severity::Warning,
        "blank lines after the last entry",
    ),
    (
        "O010",
        Severity::Warning,
        "the file mixes \\n and \\r\\n line breaks",
    ),
];

/// A whole `object.ifo`.
///
/// Fields are public and kept verbatim; [`lint`] says what looks wrong. Writing gives back the
/// bytes that were read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectIfo {
    /// Line break after the signature line.
    pub signature_ending: LineEnding,
    /// The number on the second line, as stored. It should equal the number of entries (lint
    /// O001); readers that trust it size their tables by it.
    pub count: u32,
    /// Line break after the count line.
    pub count_ending: LineEnding,
    /// One per line, in file order.
    pub entries: Vec<ObjectEntry>,
    /// Blank lines after the last entry, verbatim (the game's file has none).
    pub trailing: Vec<u8>,
}

/// One line: an object resource and its index.
///
/// Entries are equal when they hold the same values and write the same bytes; the format's
/// choices that change nothing for these values are ignored.
#[derive(Debug, Clone)]
pub struct ObjectEntry {
    /// The number navmesh objects use as `object_id`.
    pub index: u32,
    /// Flags; the game's file holds only 0 and 1, with unknown meaning.
    pub flags: u32,
    /// The resource path as stored, without the quotes: usually ASCII with backslashes, at times
    /// CP949.
    pub path: Vec<u8>,
    /// How the line is spelled: `format.number` is the spelling of the flags, the gaps are
    /// the blanks after the index and after the flags.
    pub format: LineFormat<2>,
}

impl ObjectEntry {
    /// An entry in the game's spelling.
    pub fn new(index: u32, flags: u32, path: impl Into<Vec<u8>>) -> ObjectEntry {
        ObjectEntry {
            index,
            flags,
            path: path.into(),
            format: LineFormat::GAME,
        }
    }

    /// The path's extension without the dot, as stored: the bytes after the last `.` of the
    /// last path component. `None` when the last component has no dot.
    pub fn extension(&self) -> Option<&[u8]> {
        extension(&self.path)
    }
}

pub(crate) fn extension(path: &[u8]) -> Option<&[u8]> {
    let name_start = path
        .iter()
        .rposition(|&b| b == b'\\' || b == b'/')
        .map_or(0, |i| i + 1);
    let name = &path[name_start..];
    name.iter()
        .rposition(|&b| b == b'.')
        .map(|dot| &name[dot + 1..])
}

impl PartialEq for ObjectEntry {
    fn eq(&self, other: &ObjectEntry) -> bool {
        self.index == other.index
            && self.flags == other.flags
            && self.path == other.path
            && self.format.normalized(self.index, self.flags)
                == other.format.normalized(other.index, other.flags)
    }
}

impl Eq for ObjectEntry {}

impl Row for ObjectEntry {
    fn read(f: &mut Fields<'_>) -> Result<ObjectEntry, Error> {
        f.place.field = "index";
        let (index, index_width) = f.decimal()?;
        let gap0 = f.gap()?;
        f.place.field = "flags";
        let (flags, number) = f.number()?;
        let gap1 = f.gap()?;
        f.place.field = "path";
        let path = f.quoted()?.to_vec();
        let tail = f.blanks()?;
        f.end()?;
        Ok(ObjectEntry {
            index,
            flags,
            path,
            format: LineFormat {
                index_width,
                number,
                gaps: [gap0, gap1],
                tail,
                ending: f.ending,
            },
        })
    }

    fn index(&self) -> u32 {
        self.index
    }

    fn ending(&self) -> LineEnding {
        self.format.ending
    }

    fn encoded_len(&self) -> usize {
        let f = &self.format;
        f.index_len(self.index)
            + f.number.encoded_len(self.flags)
            + f.gaps.iter().map(|g| g.len()).sum::<usize>()
            + self.path.len()
            + 2
            + f.tail.len()
            + f.ending.as_bytes().len()
    }

    fn write(&self, out: &mut Vec<u8>) {
        let f = &self.format;
        f.write_index(self.index, out);
        f.gaps[0].write(out);
        f.number.write(self.flags, out);
        f.gaps[1].write(out);
        out.push(b'"');
        out.extend_from_slice(&self.path);
        out.push(b'"');
        f.tail.write(out);
        out.extend_from_slice(f.ending.as_bytes());
    }

    fn check(&self, place: Place) -> Result<(), WriteError> {
        self.format.check(place)?;
        check_quoted(
            Place {
                field: "path",
                ..place
            },
            &self.path,
        )
    }
}

impl Default for ObjectIfo {
    fn default() -> ObjectIfo {
        ObjectIfo::new(Vec::new())
    }
}

impl ObjectIfo {
    /// A table of these entries with the count that matches them, `\n` line breaks and no
    /// trailing lines. Entries made with [`ObjectEntry::new`] are in the game's spelling.
    pub fn new(entries: Vec<ObjectEntry>) -> ObjectIfo {
        ObjectIfo {
            signature_ending: LineEnding::Lf,
            count: text::count_of(entries.len()),
            count_ending: LineEnding::Lf,
            entries,
            trailing: Vec::new(),
        }
    }

    /// Parses a whole file.
    ///
    /// # Errors
    /// A first line other than `JMXVOBJI1000`, a count line that is not a plain number, an entry
    /// line that does not read as index, flags and quoted path, or a blank line followed by an
    /// entry. The error names the byte offset and the field (`entries[12].path`).
    pub fn parse(bytes: &[u8]) -> Result<ObjectIfo, Error> {
        let table = text::read_table(bytes, SIGNATURE)?;
        Ok(ObjectIfo {
            signature_ending: table.signature_ending,
            count: table.count,
            count_ending: table.count_ending,
            entries: table.entries,
            trailing: table.trailing,
        })
    }

    /// Reads and parses a file.
    ///
    /// # Errors
    /// [`ReadError::Io`] when the file cannot be read, [`ReadError::Format`] as for
    /// [`ObjectIfo::parse`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<ObjectIfo, ReadError> {
        Ok(ObjectIfo::parse(&std::fs::read(path)?)?)
    }

    /// Reads a stream to its end and parses it.
    ///
    /// # Errors
    /// As for [`ObjectIfo::from_path`].
    pub fn read_from(mut reader: impl Read) -> Result<ObjectIfo, ReadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes)?;
        Ok(ObjectIfo::parse(&bytes)?)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry with this index. When the index is listed more than once (lint O002), the one
    /// at position `index` if it is one of them, else the first.
    pub fn get(&self, index: u32) -> Option<&ObjectEntry> {
        text::find(&self.entries, index)
    }

    /// Whether some entry has this index.
    pub fn contains(&self, index: u32) -> bool {
        self.get(index).is_some()
    }

    /// Checks that the model can be written and read back as itself.
    ///
    /// # Errors
    /// A path holding `"` or a line break, an empty blank between fields, a line without a line
    /// break that is not the last, or trailing bytes that are not blank lines.
    pub fn check_writable(&self) -> Result<(), WriteError> {
        text::check_table(
            self.signature_ending,
            self.count_ending,
            &self.entries,
            &self.trailing,
        )
    }

    /// The exact size of the written file in bytes.
    pub fn encoded_len(&self) -> usize {
        text::table_len(
            SIGNATURE,
            self.signature_ending,
            self.count,
            self.count_ending,
            &self.entries,
            &self.trailing,
        )
    }

    /// The file's bytes.
    ///
    /// # Errors
    /// As for [`ObjectIfo::check_writable`].
    pub fn to_vec(&self) -> Result<Vec<u8>, WriteError> {
        self.check_writable()?;
        let mut out = Vec::with_capacity(self.encoded_len());
        text::write_table(
            &mut out,
            SIGNATURE,
            self.signature_ending,
            self.count,
            self.count_ending,
            &self.entries,
            &self.trailing,
        );
        debug_assert_eq!(out.len(), self.encoded_len());
        Ok(out)
    }

    /// Writes the file's bytes to a stream.
    ///
    /// # Errors
    /// An [`io::Error`] from the stream, or one of kind `InvalidInput` wrapping a
    /// [`WriteError`] when the model cannot be written.
    pub fn write_to(&self, mut writer: impl Write) -> io::Result<()> {
        let bytes = self
            .to_vec()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        writer.write_all(&bytes)
    }
}

/// Lints one `object.ifo`: the codes in [`CODES`], findings in file order within each code.
pub fn lint(ifo: &ObjectIfo) -> Vec<Finding> {
    let codes = TableCodes {
        table: CODES,
        count: "O001",
        duplicate: "O002",
        order: Some("O003"),
        position: "O004",
        decimal: "O005",
        spelling: "O006",
        trailing: "O009",
        endings: "O010",
    };
    let mut findings = common::lint_table(
        &codes,
        ifo.count,
        ifo.signature_ending,
        ifo.count_ending,
        &ifo.entries,
        &ifo.trailing,
        |e| (e.format.number, e.format.is_game_spelling(e.index, e.flags)),
    );
    for (i, entry) in ifo.entries.iter().enumerate() {
        let ext = entry.extension().map(<[u8]>::to_ascii_lowercase);
        if !ext.is_some_and(|ext| EXTENSIONS.contains(&ext.as_slice())) {
            findings.push(common::finding(
                CODES,
                "O007",
                format!("entries[{i}].path"),
                format!(
                    "path {} does not name a .bsr, .cpd, .bms or .dof resource",
                    crate::error::describe_bytes(&entry.path)
                ),
            ));
        }
        if entry.path.contains(&b'/') {
            findings.push(common::finding(
                CODES,
                "O008",
                format!("entries[{i}].path"),
                format!(
                    "path {} uses forward slashes; the game's paths use backslashes",
                    crate::error::describe_bytes(&entry.path)
                ),
            ));
        }
    }
    common::sort(&mut findings);
    findings
}
