//! `dungeoninfo.txt` (`dungeon\dungeoninfo.txt` in `Data.pk2`): the dungeons the game server
//! loads, each a dungeon id and the path of its `JMXVDOF` file.
//!
//! ```text
//! // service  id  path
//! 1  1  "Dungeon\wchina\Dunhwang_Cv.dof"
//! 0  8  "Dungeon\gngwc\gngwc.dof"
//! ```
//!
//! The file (shown with two spaces where it has a tab) is lines of CP949 text: `//` comment lines (a header, in the game's file), blank
//! lines, and rows. A row is `service id "path"`, its fields separated by tabs: the service flag
//! (1 the server loads the dungeon, 0 it skips the row), the dungeon id, and the quoted path of
//! the dungeon's `.dof` with backslashes. Some servers' files have no service column (rows
//! `id "path"`, every one loaded); both forms read, and each row keeps which it has
//! ([`DungeonRow::service`] is `None` without the column). The dungeon's region id is
//! `0x8000 | id` ([`DungeonRow::region`]): bit 15 marks a dungeon, so an id must fit 15 bits.
//! This table, not the header of the `.dof`, says which dungeon a region is.
//!
//! # Exactness
//! Read with the grammar of the other text tables ([`crate::ifo`]): for every input that parses,
//! writing gives the same bytes; for every model that writes, parsing gives an equal model. The
//! model keeps every line in order ([`DungeonLine`]): comment and blank lines verbatim, and for
//! each row its values and its spelling ([`RowFormat`]: blanks before, between and after the
//! fields, each run all spaces or all tabs; each number's zero-padded width; the line break,
//! `\n`, `\r\n` or none on a last line). Paths are bytes, never decoded. Numbers are decimal;
//! the reader refuses what it could not write back (a blank run mixing spaces and tabs, a hex
//! number, a quote or text after the path) with the offset and the line (`lines[3].id`).
//!
//! # What the game's files look like
//! A `//` header line, then rows `1\t1\t"Dungeon\wchina\Dunhwang_Cv.dof"`: single tabs, no
//! padding, `\r\n` line breaks (the form the public readers' test data has; not checked on a
//! game file). A vSRO server's file lists 25 dungeons, ids 1 to 25, four of them with service 0.
//! [`DungeonRow::new`] writes that spelling; [`lint`] says what differs from it.
//!
//! # Example
//! ```
//! use jmxv::ifo::dungeon::{DungeonInfo, DungeonLine, DungeonRow};
//! use jmxv::RegionId;
//!
//! let bytes = b"// dungeons\r\n1\t1\t\"Dungeon\\wchina\\Dunhwang_Cv.dof\"\r\n0\t8\t\"Dungeon\\gngwc.dof\"\r\n";
//! let info = DungeonInfo::parse(bytes)?;
//! assert_eq!(info.to_vec()?, bytes);
//! let served: Vec<u32> = info.served().map(|row| row.id).collect();
//! assert_eq!(served, [1]);
//! let cave = info.by_region(RegionId(0x8001)).unwrap();
//! assert_eq!(cave.path, b"Dungeon\\wchina\\Dunhwang_Cv.dof");
//! assert!(jmxv::ifo::dungeon::lint(&info).is_empty());
//!
//! let mut made = DungeonInfo::new(vec![DungeonRow::new(None, 3, &b"Dungeon\\a.dof"[..])]);
//! made.lines.insert(0, DungeonLine::comment(&b"// id\tpath"[..]));
//! assert_eq!(made.to_vec()?, b"// id\tpath\r\n3\t\"Dungeon\\a.dof\"\r\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::text::{self, check_quoted, decimal_len, Fields, Gap, LineEnding, Lines, Row};
use crate::bytes::Place;
use crate::error::{parse_path, parse_stream, write_bytes, Error, ReadError, WriteError};
use crate::RegionId;
use std::io::{self, Read, Write};
use std::path::Path;

pub use super::dungeon_lint::{lint, CODES};

/// Bit 15 of a region id: the region is a dungeon. A dungeon's region id is `REGION_BIT | id`.
pub const REGION_BIT: u16 = 0x8000;

/// The largest dungeon id that has a region id: ids must fit the 15 bits below [`REGION_BIT`].
pub const MAX_ID: u32 = 0x7FFF;

/// The extension of the files rows name, lower case.
pub const EXTENSION: &[u8] = b"dof";

/// The game's line break for this file.
pub const GAME_ENDING: LineEnding = LineEnding::CrLf;

/// A whole `dungeoninfo.txt`: its lines in file order.
///
/// Fields are public and kept verbatim; [`lint`] says what looks wrong. Writing gives back the
/// bytes that were read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DungeonInfo {
    /// Every line, in file order: comments, blank lines and rows.
    pub lines: Vec<DungeonLine>,
}

/// One line of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DungeonLine {
    /// A line whose first bytes after any blanks are `//`.
    Comment {
        /// The whole line without its line break, `//` included, verbatim (CP949 at times).
        text: Vec<u8>,
        /// The line break.
        ending: LineEnding,
    },
    /// A line of nothing but spaces and tabs, or nothing at all.
    Blank {
        /// The blanks, verbatim (any mix of spaces and tabs).
        blanks: Vec<u8>,
        /// The line break.
        ending: LineEnding,
    },
    /// A dungeon.
    Row(DungeonRow),
}

impl DungeonLine {
    /// A comment line with the game's line break; `text` should start with `//`.
    pub fn comment(text: impl Into<Vec<u8>>) -> DungeonLine {
        DungeonLine::Comment {
            text: text.into(),
            ending: GAME_ENDING,
        }
    }

    /// The line break.
    pub fn ending(&self) -> LineEnding {
        match self {
            DungeonLine::Comment { ending, .. } | DungeonLine::Blank { ending, .. } => *ending,
            DungeonLine::Row(row) => row.format.ending,
        }
    }

    /// The row, when the line is one.
    pub fn as_row(&self) -> Option<&DungeonRow> {
        match self {
            DungeonLine::Row(row) => Some(row),
            _ => None,
        }
    }
}

/// One dungeon: its service flag, its id and the path of its `.dof`.
///
/// Rows are equal when they hold the same values and write the same bytes; the format's choices
/// that change nothing for these values are ignored.
#[derive(Debug, Clone)]
pub struct DungeonRow {
    /// The first column: 1 the server loads the dungeon, 0 it skips the row. `None` when the
    /// row has no service column (then the server loads it).
    pub service: Option<u32>,
    /// The dungeon id; the region id is `0x8000 | id`.
    pub id: u32,
    /// The `.dof` path as stored, without the quotes: backslashes, at times CP949.
    pub path: Vec<u8>,
    /// How the line is spelled.
    pub format: RowFormat,
}

/// How a row is spelled around its values.
///
/// Fields that a row without a service column does not write (`service_width`, `gaps[0]`) are
/// ignored for it, and equality compares formats only through what they write
/// ([`RowFormat::normalized`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RowFormat {
    /// Blanks before the first field; none in the game's file.
    pub lead: Gap,
    /// Digits of the service flag, zero-padded (a minimum: more digits are written in full).
    pub service_width: u8,
    /// Digits of the id, zero-padded.
    pub id_width: u8,
    /// Blanks after the service flag and after the id; one tab each in the game's file. Each
    /// written one holds at least one blank.
    pub gaps: [Gap; 2],
    /// Blanks after the path; none in the game's file.
    pub tail: Gap,
    /// The line break.
    pub ending: LineEnding,
}

impl RowFormat {
    /// The game's spelling: no padding, one tab between fields, nothing around them, `\r\n`.
    pub const GAME: RowFormat = RowFormat {
        lead: Gap::NONE,
        service_width: 0,
        id_width: 0,
        gaps: [Gap::tabs(1); 2],
        tail: Gap::NONE,
        ending: GAME_ENDING,
    };

    /// The same spelling with every choice that changes nothing for these values made one way,
    /// so that two formats are equal exactly when they write the same bytes.
    pub fn normalized(self, service: Option<u32>, id: u32) -> RowFormat {
        let (service_width, first_gap) = match service {
            Some(s) => (self.service_width.max(decimal_len(s) as u8), self.gaps[0]),
            None => (0, Gap::NONE),
        };
        RowFormat {
            service_width,
            id_width: self.id_width.max(decimal_len(id) as u8),
            gaps: [first_gap, self.gaps[1]],
            ..self
        }
    }

    /// Whether the row is spelled as the game spells it, line break aside.
    pub fn is_game_spelling(self, service: Option<u32>, id: u32) -> bool {
        let game = RowFormat {
            ending: self.ending,
            ..RowFormat::GAME
        };
        self.normalized(service, id) == game.normalized(service, id)
    }
}

impl Default for RowFormat {
    fn default() -> RowFormat {
        RowFormat::GAME
    }
}

impl DungeonRow {
    /// A row in the game's spelling: `service \t id \t "path"`, or `id \t "path"` without a
    /// service column.
    pub fn new(service: Option<u32>, id: u32, path: impl Into<Vec<u8>>) -> DungeonRow {
        DungeonRow {
            service,
            id,
            path: path.into(),
            format: RowFormat::GAME,
        }
    }

    /// Whether the server loads the dungeon: the service flag is not 0, or there is none.
    ///
    /// Readers differ on flags other than 0 and 1 (lint I006): openroad loads only rows with
    /// 1, other tools skip only rows with 0. This follows the latter.
    pub fn is_served(&self) -> bool {
        self.service != Some(0)
    }

    /// The dungeon's region id, `0x8000 | id`; `None` when the id does not fit 15 bits (lint
    /// I003), where the server's 16-bit region id would drop its high bits.
    pub fn region(&self) -> Option<RegionId> {
        (self.id <= MAX_ID).then_some(RegionId(REGION_BIT | self.id as u16))
    }

    /// The path's extension without the dot, as stored; `None` when the file name has no dot.
    pub fn extension(&self) -> Option<&[u8]> {
        super::object::extension(&self.path)
    }
}

impl PartialEq for DungeonRow {
    fn eq(&self, other: &DungeonRow) -> bool {
        self.service == other.service
            && self.id == other.id
            && self.path == other.path
            && self.format.normalized(self.service, self.id)
                == other.format.normalized(other.service, other.id)
    }
}

impl Eq for DungeonRow {}

impl Row for DungeonRow {
    fn read(f: &mut Fields<'_>) -> Result<DungeonRow, Error> {
        let lead = f.blanks()?;
        if !f.peek().is_some_and(|b| b.is_ascii_digit()) {
            return Err(
                f.invalid("a row (a number, then a quoted path), a // comment or a blank line")
            );
        }
        // Which field the first number is shows only after it: errors in it name the line.
        let (first, first_width) = f.decimal()?;
        let first_gap = f.gap()?;
        let (service, service_width, gaps, id, id_width) = if f.peek() == Some(b'"') {
            (None, 0, [Gap::NONE, first_gap], first, first_width)
        } else {
            f.place.field = "id";
            let (id, id_width) = f.decimal()?;
            let gap = f.gap()?;
            (Some(first), first_width, [first_gap, gap], id, id_width)
        };
        f.place.field = "path";
        let path = f.quoted()?.to_vec();
        let tail = f.blanks()?;
        f.end()?;
        Ok(DungeonRow {
            service,
            id,
            path,
            format: RowFormat {
                lead,
                service_width,
                id_width,
                gaps,
                tail,
                ending: f.ending,
            },
        })
    }

    fn index(&self) -> u32 {
        self.id
    }

    fn ending(&self) -> LineEnding {
        self.format.ending
    }

    fn encoded_len(&self) -> usize {
        let f = self.format.normalized(self.service, self.id);
        let service = match self.service {
            Some(_) => usize::from(f.service_width) + f.gaps[0].len(),
            None => 0,
        };
        f.lead.len()
            + service
            + usize::from(f.id_width)
            + f.gaps[1].len()
            + self.path.len()
            + 2
            + f.tail.len()
            + f.ending.as_bytes().len()
    }

    fn write(&self, out: &mut Vec<u8>) {
        let f = &self.format;
        f.lead.write(out);
        if let Some(service) = self.service {
            text::write_digits(out, service, 10, f.service_width, false);
            f.gaps[0].write(out);
        }
        text::write_digits(out, self.id, 10, f.id_width, false);
        f.gaps[1].write(out);
        out.push(b'"');
        out.extend_from_slice(&self.path);
        out.push(b'"');
        f.tail.write(out);
        out.extend_from_slice(f.ending.as_bytes());
    }

    fn check(&self, place: Place) -> Result<(), WriteError> {
        let gaps = match self.service {
            Some(_) => &self.format.gaps[..],
            None => &self.format.gaps[1..],
        };
        if gaps.iter().any(|g| g.is_empty()) {
            return Err(WriteError::new(
                place,
                "the blanks between two fields cannot be empty",
            ));
        }
        check_quoted(
            Place {
                field: "path",
                ..place
            },
            &self.path,
        )
    }
}

/// Whether a line is a comment: `//` after any blanks.
fn is_comment(content: &[u8]) -> bool {
    let start = content
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(content.len());
    content[start..].starts_with(b"//")
}

impl DungeonInfo {
    /// A file of these rows and nothing else. Rows made with [`DungeonRow::new`] are in the
    /// game's spelling; the game's file also starts with a `//` header line
    /// ([`DungeonLine::comment`]).
    pub fn new(rows: Vec<DungeonRow>) -> DungeonInfo {
        DungeonInfo {
            lines: rows.into_iter().map(DungeonLine::Row).collect(),
        }
    }

    /// Parses a whole file: each line a comment (`//` after any blanks), a blank line, or a row.
    ///
    /// # Errors
    /// A line that is none of the three, or a row that does not read as `service id "path"` or
    /// `id "path"` in the shared grammar. The error names the byte offset and the line and field
    /// (`lines[3].path`).
    pub fn parse(bytes: &[u8]) -> Result<DungeonInfo, Error> {
        let mut lines = Vec::new();
        for line in Lines::new(bytes) {
            let content = line.content;
            let parsed = if text::is_blank(content) {
                DungeonLine::Blank {
                    blanks: content.to_vec(),
                    ending: line.ending,
                }
            } else if is_comment(content) {
                DungeonLine::Comment {
                    text: content.to_vec(),
                    ending: line.ending,
                }
            } else {
                let place = Place::item("lines", lines.len(), "");
                DungeonLine::Row(DungeonRow::read(&mut Fields::new(line, place))?)
            };
            lines.push(parsed);
        }
        Ok(DungeonInfo { lines })
    }

    /// Reads and parses a file.
    ///
    /// # Errors
    /// [`ReadError::Io`] when the file cannot be read, [`ReadError::Format`] as for
    /// [`DungeonInfo::parse`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<DungeonInfo, ReadError> {
        parse_path(path, Self::parse)
    }

    /// Reads a stream to its end and parses it.
    ///
    /// # Errors
    /// As for [`DungeonInfo::from_path`].
    pub fn read_from(reader: impl Read) -> Result<DungeonInfo, ReadError> {
        parse_stream(reader, Self::parse)
    }

    /// The rows, in file order.
    pub fn rows(&self) -> impl Iterator<Item = &DungeonRow> + '_ {
        self.lines.iter().filter_map(DungeonLine::as_row)
    }

    /// The rows the server loads ([`DungeonRow::is_served`]), in file order.
    pub fn served(&self) -> impl Iterator<Item = &DungeonRow> + '_ {
        self.rows().filter(|row| row.is_served())
    }

    /// The served row with this dungeon id; the first when the id is listed more than once
    /// (lint I001).
    pub fn get(&self, id: u32) -> Option<&DungeonRow> {
        self.served().find(|row| row.id == id)
    }

    /// The served row of this dungeon region (`0x8000 | id`); `None` for a terrain region.
    pub fn by_region(&self, region: RegionId) -> Option<&DungeonRow> {
        if !region.is_dungeon() {
            return None;
        }
        self.get(u32::from(region.0 & !REGION_BIT))
    }

    /// Whether the rows have the service column: `Some(true)` when every row has it,
    /// `Some(false)` when none has, `None` when the rows mix both forms (lint I007) or there are
    /// no rows.
    pub fn has_service_column(&self) -> Option<bool> {
        let mut forms = self.rows().map(|row| row.service.is_some());
        let first = forms.next()?;
        forms.all(|f| f == first).then_some(first)
    }

    /// Checks that the model can be written and read back as itself.
    ///
    /// # Errors
    /// A line without a line break that is not the last (the next line would join it), an empty
    /// last line without a line break (it writes nothing), a comment that does not start with
    /// `//` after its blanks or holds a line break (or ends with `\r` before `\n`, which would
    /// read as `\r\n`), a blank line holding anything but spaces and tabs, an empty blank
    /// between two fields of a row, or a path holding `"` or a line break.
    pub fn check_writable(&self) -> Result<(), WriteError> {
        let last = self.lines.len().saturating_sub(1);
        for (i, line) in self.lines.iter().enumerate() {
            let place = Place::item("lines", i, "");
            if line.ending() == LineEnding::None && i != last {
                return Err(WriteError::new(
                    place,
                    "only the last line of a file may lack a line break (the next line would join it)",
                ));
            }
            match line {
                DungeonLine::Comment { text, ending } => {
                    if !is_comment(text) || text.contains(&b'\n') {
                        return Err(WriteError::new(
                            place,
                            "a comment line starts with // after its blanks and holds no line break",
                        ));
                    }
                    if *ending == LineEnding::Lf && text.last() == Some(&b'\r') {
                        return Err(WriteError::new(
                            place,
                            "a comment ending with \\r before \\n would read back as a \\r\\n line",
                        ));
                    }
                }
                DungeonLine::Blank { blanks, ending } => {
                    if !text::is_blank(blanks) {
                        return Err(WriteError::new(
                            place,
                            "a blank line holds only spaces and tabs",
                        ));
                    }
                    if blanks.is_empty() && *ending == LineEnding::None {
                        return Err(WriteError::new(
                            place,
                            "an empty line without a line break writes nothing",
                        ));
                    }
                }
                DungeonLine::Row(row) => row.check(place)?,
            }
        }
        Ok(())
    }

    /// The exact size of the written file in bytes.
    pub fn encoded_len(&self) -> usize {
        self.lines
            .iter()
            .map(|line| match line {
                DungeonLine::Comment { text, ending } => text.len() + ending.as_bytes().len(),
                DungeonLine::Blank { blanks, ending } => blanks.len() + ending.as_bytes().len(),
                DungeonLine::Row(row) => Row::encoded_len(row),
            })
            .sum()
    }

    /// The file's bytes (mirrors [`DungeonInfo::parse`]).
    ///
    /// # Errors
    /// As for [`DungeonInfo::check_writable`].
    pub fn to_vec(&self) -> Result<Vec<u8>, WriteError> {
        self.check_writable()?;
        let mut out = Vec::with_capacity(self.encoded_len());
        for line in &self.lines {
            match line {
                DungeonLine::Comment { text, ending } => {
                    out.extend_from_slice(text);
                    out.extend_from_slice(ending.as_bytes());
                }
                DungeonLine::Blank { blanks, ending } => {
                    out.extend_from_slice(blanks);
                    out.extend_from_slice(ending.as_bytes());
                }
                DungeonLine::Row(row) => row.write(&mut out),
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_with_and_without_the_service_column() {
        let info = DungeonInfo::parse(b"//h\n1\t7\t\"a.dof\"\n 07  \"b\"\t\t\n\n").unwrap();
        let rows: Vec<_> = info.rows().collect();
        assert_eq!((rows[0].service, rows[0].id), (Some(1), 7));
        assert_eq!((rows[1].service, rows[1].id), (None, 7));
        assert_eq!(rows[1].format.id_width, 2);
        assert_eq!(rows[1].format.lead, Gap::spaces(1));
        assert_eq!(rows[1].format.tail, Gap::tabs(2));
        assert_eq!(info.has_service_column(), None);
        assert!(matches!(info.lines[3], DungeonLine::Blank { .. }));
    }

    #[test]
    fn what_would_not_read_back_is_refused() {
        let mut info = DungeonInfo::new(vec![DungeonRow::new(Some(1), 1, &b"a.dof"[..])]);
        info.lines.push(DungeonLine::Blank {
            blanks: Vec::new(),
            ending: LineEnding::None,
        });
        assert_eq!(info.to_vec().unwrap_err().section(), "lines[1]");
        info.lines[1] = DungeonLine::Comment {
            text: b"x".to_vec(),
            ending: LineEnding::Lf,
        };
        assert_eq!(info.to_vec().unwrap_err().section(), "lines[1]");
        info.lines[1] = DungeonLine::Comment {
            text: b"//x\r".to_vec(),
            ending: LineEnding::Lf,
        };
        assert!(info.to_vec().is_err());
        info.lines[1] = DungeonLine::Comment {
            text: b"//x\r".to_vec(),
            ending: LineEnding::CrLf,
        };
        let bytes = info.to_vec().unwrap();
        assert_eq!(DungeonInfo::parse(&bytes).unwrap(), info);
    }
}
