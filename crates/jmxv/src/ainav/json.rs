//! The lossless JSON form of an `AINavData` file (feature `serde`), built from the pieces every
//! format's document shares ([`crate::json`]).
//!
//! Top-level keys, always in this order: `region`, `blocks`, `sub_goals`, `unknown0`, `gap`
//! (hex), `centre_region`, `edge_centres`, `unknown1`, `trailing` (hex). A block is
//! `{"index", "edge_count", "next_edge", "links"}`; a square table (`next_edge`, `sub_goals`) is
//! an array of rows in goal order, each an array with one entry per start, so that
//! `next_edge[12][40]` is the entry of goal 12 and start 40; a `next_edge` entry is the pair
//! `[forward, backward]`; a link is `{"id", "cell", "linked_block", "linked_edge"}`;
//! `edge_centres` holds one array of `[x, y, z]` per block. The version byte (always 1) and
//! the offset of the edge centres (always where `gap` ends) are not in the document. Integers
//! are exactly as stored, i16 entries signed; floats follow [`Float`].
//!
//! Reading is strict, as for the other documents: every key is required, unknown and repeated
//! keys are errors, every row of a table must be as long as the table has rows, and every error
//! names the JSON path of the bad value ([`JsonError`]).
//!
//! # Text layout
//! Compact JSON broken into lines: one top-level key per line, one block per line, one row of
//! the sub-goal table per line, one block of edge centres per line. Any JSON formatting reads
//! back the same.
//!
//! # Example
//! ```
//! use jmxv::ainav::{json, AiNavData, NextEdge, RouteBlock, SquareTable};
//! use jmxv::RegionId;
//!
//! let mut nav = AiNavData { region: RegionId(0x8001), centre_region: RegionId(0x8001), ..AiNavData::default() };
//! nav.blocks.push(RouteBlock {
//!     edge_count: 1,
//!     next_edge: SquareTable::from_fn(2, |goal, start| {
//!         let edge = if goal == start { -1 } else { 0 };
//!         NextEdge { forward: edge, backward: edge }
//!     }),
//!     ..RouteBlock::default()
//! });
//! nav.sub_goals = SquareTable::from_fn(1, |_, _| -1);
//! nav.edge_centres.push(vec![[jmxv::F32::from(0.5); 3]]);
//! let text = json::to_string(&nav)?;
//! assert!(text.contains("\n{\"index\":0,\"edge_count\":1,\"next_edge\":[[[-1,-1],[0,0]],[[0,0],[-1,-1]]],\"links\":[]}\n"));
//! assert_eq!(json::from_str(&text)?.to_vec()?, nav.to_vec()?);
//!
//! let error = json::from_str(&text.replace(",[[0,0],[-1,-1]]]", "]")).unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "blocks[0].next_edge: expected as many rows as entries in a row (a square table), found 1 rows of 2"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::model::{AiNavData, BlockLink, NextEdge, RouteBlock, SquareTable};
use crate::json::read::{
    document, read, record, required, structured, to_hex, utf8, writable, Fixed, HexBytes, Item,
    Keys, Structure,
};
use crate::json::write::{checked_string, checked_writer, Lines};
use crate::json::{Float, JsonError};
use crate::{RegionId, WriteError, F32};
use serde::de::{Deserializer, Error as _, MapAccess, SeqAccess};
use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;
use std::io::{self, Write};
use std::marker::PhantomData;

/// Reads the JSON form of an `AINavData` file.
///
/// The result can always be written ([`AiNavData::check_writable`] is part of reading).
///
/// # Errors
/// Text that is not JSON (with its line and column), or JSON that does not describe the file
/// (with the path of the offending value).
pub fn from_str(text: &str) -> Result<AiNavData, JsonError> {
    // The offset is not in the document; the gap is what sets it.
    let path_of = |section: &str| match section {
        "centres_offset" => "gap".to_owned(),
        section => section.to_owned(),
    };
    writable(
        document::<DocumentShape>(text)?.0,
        AiNavData::check_writable,
        path_of,
    )
}

/// Reads the JSON form of an `AINavData` file from bytes, which must be UTF-8.
///
/// # Errors
/// As [`from_str`], and text that is not UTF-8 (with the line and column of the first bad byte).
pub fn from_slice(bytes: &[u8]) -> Result<AiNavData, JsonError> {
    from_str(utf8(bytes)?)
}

/// The JSON form of `nav` (see the [module docs](self)).
///
/// # Errors
/// A [`WriteError`] when the model cannot be written as a file ([`AiNavData::check_writable`]);
/// its JSON would not read back.
pub fn to_string(nav: &AiNavData) -> Result<String, WriteError> {
    checked_string(
        nav.check_writable(),
        || nav.encoded_len() * 3,
        |out| write(nav, out),
    )
}

/// Writes the JSON form of `nav` to a stream.
///
/// # Errors
/// An [`io::Error`] from the stream, or one of kind `InvalidInput` wrapping a [`WriteError`]
/// when the model cannot be written ([`to_string`]).
pub fn to_writer(nav: &AiNavData, out: impl Write) -> io::Result<()> {
    checked_writer(nav.check_writable(), out, |out| write(nav, out))
}

// ---- Writing ----

fn write(nav: &AiNavData, out: &mut impl Write) -> io::Result<()> {
    let mut doc = Lines::start(out)?;
    doc.key("region", &nav.region.0)?;
    doc.list("blocks", 1, nav.blocks.iter().map(BlockJson))?;
    doc.list("sub_goals", 1, nav.sub_goals.rows())?;
    doc.key("unknown0", &nav.unknown0)?;
    doc.key("gap", &to_hex(&nav.gap))?;
    doc.key("centre_region", &nav.centre_region.0)?;
    doc.list(
        "edge_centres",
        1,
        nav.edge_centres
            .iter()
            .map(|block| block.iter().map(|c| c.map(Float)).collect::<Vec<_>>()),
    )?;
    doc.key("unknown1", &nav.unknown1)?;
    doc.key("trailing", &to_hex(&nav.trailing))?;
    doc.end()
}

struct BlockJson<'a>(&'a RouteBlock);

impl Serialize for BlockJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Fields<'a> {
            index: u32,
            edge_count: u32,
            next_edge: RowsJson<'a>,
            links: Vec<LinkJson>,
        }
        let b = self.0;
        Fields {
            index: b.index,
            edge_count: b.edge_count,
            next_edge: RowsJson(&b.next_edge),
            links: b.links.iter().map(LinkJson::from).collect(),
        }
        .serialize(s)
    }
}

/// A cell table as an array of rows of `[forward, backward]` pairs.
struct RowsJson<'a>(&'a SquareTable<NextEdge>);

impl Serialize for RowsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut rows = s.serialize_seq(Some(self.0.side() as usize))?;
        for row in self.0.rows() {
            let pairs: Vec<[i16; 2]> = row.iter().map(|e| [e.forward, e.backward]).collect();
            rows.serialize_element(&pairs)?;
        }
        rows.end()
    }
}

#[derive(Serialize)]
struct LinkJson {
    id: u32,
    cell: u16,
    linked_block: u16,
    linked_edge: u16,
}

impl From<&BlockLink> for LinkJson {
    fn from(l: &BlockLink) -> LinkJson {
        LinkJson {
            id: l.id,
            cell: l.cell,
            linked_block: l.linked_block,
            linked_edge: l.linked_edge,
        }
    }
}

// ---- Reading ----

/// The top-level keys, in the order of the file.
const TOP_KEYS: [&str; 9] = [
    "region",
    "blocks",
    "sub_goals",
    "unknown0",
    "gap",
    "centre_region",
    "edge_centres",
    "unknown1",
    "trailing",
];

/// The document as read; [`from_str`] checks that it writes.
struct Document(AiNavData);

/// The top-level keys of the document, read into a [`Document`].
#[derive(Default)]
struct DocumentShape;

impl<'de> Structure<'de> for DocumentShape {
    type Value = Document;
    const EXPECTED: &'static str = "an object";

    fn object<A: MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
        let mut keys = Keys::new(&TOP_KEYS);
        let (mut region, mut blocks, mut sub_goals, mut unknown0) = (None, None, None, None);
        let (mut gap, mut centre_region, mut edge_centres) = (None, None, None);
        let (mut unknown1, mut trailing) = (None, None);
        while let Some(key) = keys.next(&mut map)? {
            match key {
                0 => region = Some(RegionId(map.next_value_seed(read::<u16>())?)),
                1 => blocks = Some(map.next_value_seed(read::<Vec<RouteBlock>>())?),
                2 => sub_goals = Some(map.next_value_seed(read::<SquareTable<i16>>())?),
                3 => unknown0 = Some(map.next_value_seed(read::<u32>())?),
                4 => gap = Some(map.next_value_seed(read::<HexBytes>())?.0),
                5 => centre_region = Some(RegionId(map.next_value_seed(read::<u16>())?)),
                6 => edge_centres = Some(map.next_value_seed(read::<Vec<Vec<[F32; 3]>>>())?),
                7 => unknown1 = Some(map.next_value_seed(read::<u32>())?),
                _ => trailing = Some(map.next_value_seed(read::<HexBytes>())?.0),
            }
        }
        Ok(Document(AiNavData {
            region: required(TOP_KEYS[0], region)?,
            blocks: required(TOP_KEYS[1], blocks)?,
            sub_goals: required(TOP_KEYS[2], sub_goals)?,
            unknown0: required(TOP_KEYS[3], unknown0)?,
            gap: required(TOP_KEYS[4], gap)?,
            centre_region: required(TOP_KEYS[5], centre_region)?,
            edge_centres: required(TOP_KEYS[6], edge_centres)?,
            unknown1: required(TOP_KEYS[7], unknown1)?,
            trailing: required(TOP_KEYS[8], trailing)?,
        }))
    }
}

impl<'de> Item<'de> for NextEdge {
    const WHAT: &'static str = "pairs";

    fn read<D: Deserializer<'de>>(d: D) -> Result<NextEdge, D::Error> {
        let [forward, backward] = <[i16; 2]>::read(d)?;
        Ok(NextEdge { forward, backward })
    }
}

/// A square table: an array of rows, each as long as there are rows.
struct Rows<T>(PhantomData<T>);

impl<'de, T: Item<'de> + Copy + Default> Structure<'de> for Rows<T> {
    type Value = SquareTable<T>;
    const EXPECTED: &'static str = "an array of rows";

    fn array<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SquareTable<T>, A::Error> {
        // The first row sets the width; every later one is read into exactly that many slots,
        // so a short or long row is refused at its own path.
        let Some(first) = seq.next_element_seed(read::<Vec<T>>())? else {
            return Ok(SquareTable::default());
        };
        let width = first.len();
        let mut entries = first;
        let mut rows = 1usize;
        loop {
            let start = entries.len();
            entries.resize(start + width, T::default());
            let slots = Fixed {
                slots: &mut entries[start..],
            };
            if seq.next_element_seed(slots)?.is_none() {
                entries.truncate(start);
                break;
            }
            rows += 1;
        }
        if rows != width {
            return Err(A::Error::custom(format_args!(
                "expected as many rows as entries in a row (a square table), found {rows} rows \
                 of {width}"
            )));
        }
        let side =
            u32::try_from(width).map_err(|_| A::Error::custom("a table of more than 2^32 rows"))?;
        SquareTable::new(side, entries)
            .ok_or_else(|| A::Error::custom("the rows do not fill the table"))
    }
}

impl<'de, T: Item<'de> + Copy + Default> Item<'de> for SquareTable<T> {
    const WHAT: &'static str = "tables";

    fn read<D: Deserializer<'de>>(d: D) -> Result<SquareTable<T>, D::Error> {
        structured(d, Rows(PhantomData))
    }
}

/// A block as read: its fields by name.
struct BlockParts {
    index: u32,
    edge_count: u32,
    next_edge: SquareTable<NextEdge>,
    links: Vec<BlockLink>,
}

record!(BlockParts, "blocks", BlockShape, [
    "index" => index: u32,
    "edge_count" => edge_count: u32,
    "next_edge" => next_edge: SquareTable<NextEdge>,
    "links" => links: Vec<BlockLink>,
], BlockParts { index, edge_count, next_edge, links });

impl<'de> Item<'de> for RouteBlock {
    const WHAT: &'static str = "blocks";

    fn read<D: Deserializer<'de>>(d: D) -> Result<RouteBlock, D::Error> {
        let b = BlockParts::read(d)?;
        Ok(RouteBlock {
            index: b.index,
            edge_count: b.edge_count,
            next_edge: b.next_edge,
            links: b.links,
        })
    }
}

record!(BlockLink, "links", LinkShape, [
    "id" => id: u32,
    "cell" => cell: u16,
    "linked_block" => linked_block: u16,
    "linked_edge" => linked_edge: u16,
], BlockLink { id, cell, linked_block, linked_edge });
