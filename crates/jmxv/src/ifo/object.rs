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
use super::table::{Entry, Table};
use super::text::{check_quoted, Fields, LineEnding, LineFormat, LineHead, Row};
use crate::bytes::Place;
use crate::error::{Error, WriteError};
use crate::lint::{finding, sort, Finding, Severity};

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

/// A whole `object.ifo`: a [`Table`] of [`ObjectEntry`] lines; [`lint`] says what looks wrong.
pub type ObjectIfo = Table<ObjectEntry>;

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
        let LineHead {
            index,
            index_width,
            number: flags,
            number_format: number,
            gaps,
        } = f.line_head("flags")?;
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
                gaps,
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
        self.format.encoded_len(self.index, self.flags) + self.path.len() + 2
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
        f.write_end(out);
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

impl Entry for ObjectEntry {
    const SIGNATURE: &'static [u8; 12] = SIGNATURE;
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
            findings.push(finding(
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
            findings.push(finding(
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
    sort(&mut findings);
    findings
}
