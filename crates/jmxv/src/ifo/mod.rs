//! The text tables beside the navmesh files: [`object.ifo`](object) (`JMXVOBJI1000`), which
//! navmesh objects index, and [`tile2d.ifo`](tile2d) (`JMXV2DTI1001`), which navmesh tiles
//! index; and [`dungeoninfo.txt`](dungeon), the dungeons the server loads, read with the same
//! line grammar (it has no signature or count line, and its rows are the module's own).
//!
//! The two `.ifo` tables are lines of text: a signature line, a line with the number of
//! entries, then one entry per line, each starting with its index:
//!
//! ```text
//! JMXVOBJI1000
//! 1
//! 00000 0x00000001 "res\bldg\china\dungeon\snake.bsr"
//! ```
//!
//! # Exactness
//! For every input that parses, writing gives the same bytes; for every model that writes,
//! parsing gives an equal model. To that end the model keeps, besides the values:
//! - each line's break ([`LineEnding`]: `\n`, `\r\n`, or none on a last line), so files that
//!   mix them survive;
//! - how each number is spelled: the index's zero-padded width, the flags' or type's base,
//!   width and case ([`NumberFormat`]), all in [`LineFormat`];
//! - the blanks between fields and at the end of a line ([`Gap`]: spaces or tabs);
//! - blank lines after the last entry, verbatim;
//! - text fields as bytes, never decoded: paths may be CP949.
//!
//! The reader refuses what it could not write back: a blank run mixing spaces and tabs, hex
//! digits of mixed case (`0xaB`), a count line with leading zeros or blanks, grass numbers with
//! leading zeros, a blank line followed by an entry. The count line is kept as stored and
//! never sizes an allocation; lint compares it with the entries.
//!
//! # What the game's files look like
//! `\n` line breaks, ASCII but for a few CP949 paths in `object.ifo`, a 5-digit index, `0x` and
//! 8 lower-case hex digits, single spaces, a final line break, indices 0, 1, 2, … and a count
//! equal to the number of entries. [`ObjectIfo::new`] and [`Tile2dIfo::new`] write that form.
//! For `tile2d.ifo` the line breaks and the count were checked on a game file; for
//! `object.ifo` the `\n` breaks are reported, not checked, and readers also accept `\r\n`.
//!
//! # Example
//! ```
//! use jmxv::ifo::{ObjectEntry, ObjectIfo};
//!
//! let ifo = ObjectIfo::new(vec![ObjectEntry::new(0, 1, &b"res\\bldg\\a.bsr"[..])]);
//! let bytes = ifo.to_vec()?;
//! assert_eq!(bytes, b"JMXVOBJI1000\n1\n00000 0x00000001 \"res\\bldg\\a.bsr\"\n");
//! let back = ObjectIfo::parse(&bytes)?;
//! assert_eq!(back, ifo);
//! assert_eq!(back.get(0).map(|e| e.flags), Some(1));
//! assert!(jmxv::ifo::object::lint(&back).is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod dungeon;
mod dungeon_lint;
mod lint;
pub mod object;
mod table;
mod text;
pub mod tile2d;

pub use dungeon::{DungeonInfo, DungeonLine, DungeonRow};
pub use object::{ObjectEntry, ObjectIfo};
pub use table::{Entry, Table};
pub use text::{Gap, LineEnding, LineFormat, NumberFormat};
pub use tile2d::{Grass, Tile2dEntry, Tile2dIfo};
