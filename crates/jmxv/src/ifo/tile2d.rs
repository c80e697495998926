//! `tile2d.ifo` (`JMXV2DTI1001`): the terrain textures that navmesh tiles name by
//! `texture_id`.
//!
//! ```text
//! JMXV2DTI1001
//! 2
//! 00000 0x00000000 "CJfild" "c_dust_fld_01.ddj"
//! 00001 0x0000000a "East Eurpoe" "e_grass_01.ddj" {757,64} {1816,36}
//! ```
//!
//! Each entry line holds an index (5 zero-padded digits), a tile type (`0x` and 8 hex digits,
//! see [`KIND_NAMES`]), a quoted category (a free-form region tag that may hold spaces), a
//! quoted `.ddj` texture file, then zero or more grass pairs `{object,count}`: an `object.ifo`
//! index and how many of it the client scatters over the tile. The game server rejects a tile
//! whose texture id is not below the table's count. See [`crate::ifo`] for what is kept
//! verbatim and what is refused.
//!
//! # Lint codes
//! | code | severity | finding |
//! |---|---|---|
//! | T001 | error | the count line differs from the number of entries (the server bounds texture ids by the count) |
//! | T002 | error | an index appears more than once |
//! | T003 | warning | indices differ from line positions (the game's indices are 0, 1, 2, …) |
//! | T004 | warning | a texture that is not a `.ddj` file |
//! | T005 | warning | a tile type outside the known 0..=13 |
//! | T006 | warning | tile types written in decimal, not hex |
//! | T007 | warning | lines not in the game's spelling (5-digit index, `0x` + 8 lower-case hex digits, single spaces, nothing at the end) |
//! | T008 | warning | blank lines after the last entry |
//! | T009 | warning | the file mixes `\n` and `\r\n` line breaks |
//!
//! Codes that could repeat on every line (T003, T006, T007) are reported once, with the number
//! of lines and the first one.

use super::lint::{self as common, TableCodes};
use super::object::extension;
use super::table::{Entry, Table};
use super::text::{self, check_quoted, Fields, Gap, LineEnding, LineFormat, LineHead, Row};
use crate::bytes::Place;
use crate::error::{describe_bytes, Error, WriteError};
use crate::lint::{finding, sort, Finding, Severity};

/// The first line of every `tile2d.ifo`.
pub const SIGNATURE: &[u8; 12] = b"JMXV2DTI1001";

/// Names of the known tile types, indexed by type: the material the client plays sounds and
/// effects for.
pub const KIND_NAMES: [&str; 14] = [
    "dirt",
    "sand",
    "ashfield",
    "stone",
    "metal",
    "wood",
    "mud",
    "water",
    "deep water",
    "snow",
    "grass",
    "long grass",
    "forest",
    "cloud",
];

/// Every lint code with its severity and meaning, as in the module docs.
pub const CODES: &[(&str, Severity, &str)] = &[
    (
        "T001",
        Severity::Error,
        "the count line differs from the number of entries",
    ),
    ("T002", Severity::Error, "an index appears more than once"),
    (
        "T003",
        Severity::Warning,
        "indices differ from line positions",
    ),
    (
        "T004",
        Severity::Warning,
        "a texture that is not a .ddj file",
    ),
    (
        "T005",
        Severity::Warning,
        "a tile type outside the known 0..=13",
    ),
    (
        "T006",
        Severity::Warning,
        "tile types written in decimal, not hex",
    ),
    (
        "T007",
        Severity::Warning,
        "lines not in the game's spelling",
    ),
    (
        "T008",
        Severity::Warning,
        "blank lines after the last entry",
    ),
    (
        "T009",
        Severity::Warning,
        "the file mixes \\n and \\r\\n line breaks",
    ),
];

/// A whole `tile2d.ifo`: a [`Table`] of [`Tile2dEntry`] lines; [`lint`] says what looks wrong.
/// The server bounds texture ids by its [`count`](Table::count).
pub type Tile2dIfo = Table<Tile2dEntry>;

/// One line: a terrain texture and its index.
///
/// Entries are equal when they hold the same values and write the same bytes; the format's
/// choices that change nothing for these values are ignored.
#[derive(Debug, Clone)]
pub struct Tile2dEntry {
    /// The number navmesh tiles use as `texture_id`.
    pub index: u32,
    /// The tile type: the material (see [`KIND_NAMES`]).
    pub kind: u32,
    /// A free-form region tag as stored, without the quotes; it may hold spaces.
    pub category: Vec<u8>,
    /// The texture file as stored, without the quotes (`c_dust_fld_01.ddj`).
    pub texture: Vec<u8>,
    /// Grass the client scatters over the tile, in line order.
    pub grass: Vec<Grass>,
    /// How the line is spelled: `format.number` is the spelling of the type, the gaps are the
    /// blanks after the index, the type and the category.
    pub format: LineFormat<3>,
}

/// One `{object,count}` pair at the end of a tile line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grass {
    /// An index into `object.ifo`.
    pub object: u32,
    /// How many of the object are placed at random on the tile.
    pub count: u32,
    /// The blanks before the pair (one space in the game's file).
    pub gap: Gap,
}

impl Grass {
    /// A pair in the game's spelling.
    pub const fn new(object: u32, count: u32) -> Grass {
        Grass {
            object,
            count,
            gap: Gap::SPACE,
        }
    }

    fn encoded_len(&self) -> usize {
        self.gap.len() + 3 + text::decimal_len(self.object) + text::decimal_len(self.count)
    }
}

/// The name of a tile type, `None` for types beyond the known ones.
pub fn kind_name(kind: u32) -> Option<&'static str> {
    usize::try_from(kind)
        .ok()
        .and_then(|k| KIND_NAMES.get(k))
        .copied()
}

impl Tile2dEntry {
    /// An entry without grass in the game's spelling.
    pub fn new(
        index: u32,
        kind: u32,
        category: impl Into<Vec<u8>>,
        texture: impl Into<Vec<u8>>,
    ) -> Tile2dEntry {
        Tile2dEntry {
            index,
            kind,
            category: category.into(),
            texture: texture.into(),
            grass: Vec::new(),
            format: LineFormat::GAME,
        }
    }

    /// Whether the line is spelled as the game spells it, line break aside.
    fn is_game_spelling(&self) -> bool {
        self.format.is_game_spelling(self.index, self.kind)
            && self.grass.iter().all(|g| g.gap == Gap::SPACE)
    }
}

impl PartialEq for Tile2dEntry {
    fn eq(&self, other: &Tile2dEntry) -> bool {
        self.index == other.index
            && self.kind == other.kind
            && self.category == other.category
            && self.texture == other.texture
            && self.grass == other.grass
            && self.format.normalized(self.index, self.kind)
                == other.format.normalized(other.index, other.kind)
    }
}

impl Eq for Tile2dEntry {}

impl Row for Tile2dEntry {
    fn read(f: &mut Fields<'_>) -> Result<Tile2dEntry, Error> {
        let LineHead {
            index,
            index_width,
            number: kind,
            number_format: number,
            gaps: [gap0, gap1],
        } = f.line_head("kind")?;
        f.place.field = "category";
        let category = f.quoted()?.to_vec();
        let gap2 = f.gap()?;
        f.place.field = "texture";
        let texture = f.quoted()?.to_vec();
        f.place.field = "grass";
        let mut grass = Vec::new();
        let tail = loop {
            let gap = f.blanks()?;
            if f.peek() != Some(b'{') {
                if f.end().is_err() {
                    return Err(f.invalid("a grass pair {object,count} or the end of the line"));
                }
                break gap;
            }
            f.place.sub_index = Some(grass.len());
            f.byte(b'{', "an opening brace")?;
            let object = f.plain_decimal()?;
            f.byte(b',', "a comma between the object and the count")?;
            let count = f.plain_decimal()?;
            f.byte(b'}', "a closing brace")?;
            grass.push(Grass { object, count, gap });
            f.place.sub_index = None;
        };
        Ok(Tile2dEntry {
            index,
            kind,
            category,
            texture,
            grass,
            format: LineFormat {
                index_width,
                number,
                gaps: [gap0, gap1, gap2],
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
        self.format.encoded_len(self.index, self.kind)
            + self.category.len()
            + self.texture.len()
            + 4
            + self.grass.iter().map(Grass::encoded_len).sum::<usize>()
    }

    fn write(&self, out: &mut Vec<u8>) {
        let f = &self.format;
        f.write_index(self.index, out);
        f.gaps[0].write(out);
        f.number.write(self.kind, out);
        f.gaps[1].write(out);
        write_quoted(out, &self.category);
        f.gaps[2].write(out);
        write_quoted(out, &self.texture);
        for g in &self.grass {
            g.gap.write(out);
            out.push(b'{');
            text::write_digits(out, g.object, 10, 0, false);
            out.push(b',');
            text::write_digits(out, g.count, 10, 0, false);
            out.push(b'}');
        }
        f.write_end(out);
    }

    fn check(&self, place: Place) -> Result<(), WriteError> {
        self.format.check(place)?;
        check_quoted(
            Place {
                field: "category",
                ..place
            },
            &self.category,
        )?;
        check_quoted(
            Place {
                field: "texture",
                ..place
            },
            &self.texture,
        )
    }
}

fn write_quoted(out: &mut Vec<u8>, text: &[u8]) {
    out.push(b'"');
    out.extend_from_slice(text);
    out.push(b'"');
}

impl Entry for Tile2dEntry {
    const SIGNATURE: &'static [u8; 12] = SIGNATURE;
}

/// Lints one `tile2d.ifo`: the codes in [`CODES`], findings in file order within each code.
pub fn lint(ifo: &Tile2dIfo) -> Vec<Finding> {
    let codes = TableCodes {
        table: CODES,
        count: "T001",
        duplicate: "T002",
        order: None,
        position: "T003",
        decimal: "T006",
        spelling: "T007",
        trailing: "T008",
        endings: "T009",
    };
    let mut findings = common::lint_table(
        &codes,
        ifo.count,
        ifo.signature_ending,
        ifo.count_ending,
        &ifo.entries,
        &ifo.trailing,
        |e| (e.format.number, e.is_game_spelling()),
    );
    for (i, entry) in ifo.entries.iter().enumerate() {
        let ddj = extension(&entry.texture).is_some_and(|ext| ext.eq_ignore_ascii_case(b"ddj"));
        if !ddj {
            findings.push(finding(
                CODES,
                "T004",
                format!("entries[{i}].texture"),
                format!(
                    "texture {} is not a .ddj file",
                    describe_bytes(&entry.texture)
                ),
            ));
        }
        if kind_name(entry.kind).is_none() {
            findings.push(finding(
                CODES,
                "T005",
                format!("entries[{i}].kind"),
                format!(
                    "tile type {} is none of the known 0..=13 (dirt … cloud)",
                    entry.kind
                ),
            ));
        }
    }
    sort(&mut findings);
    findings
}
