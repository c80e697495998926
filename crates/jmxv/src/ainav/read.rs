//! Parsing: bytes → [`AiNavData`], section by section in file order (mirrored by `write.rs`).

use super::model::*;
use crate::bytes::{u16_at, u32_at, Place, Reader};
use crate::error::{parse_path, parse_stream, Error, ReadError};
use crate::float::F32;
use crate::RegionId;
use std::io::Read;
use std::path::Path;

/// One cell-table entry: two i16.
pub(crate) const ENTRY_LEN: usize = 4;
/// One link: u32 id, u16 cell, u16 block, u16 edge.
pub(crate) const LINK_LEN: usize = 10;
/// A block's fixed fields: index, cell count, edge count.
pub(crate) const BLOCK_FIXED_LEN: usize = 12;
/// The smallest block: its fixed fields and a link count.
const MIN_BLOCK_LEN: usize = BLOCK_FIXED_LEN + 4;
/// One edge centre: f32 x, y, z.
pub(crate) const CENTRE_LEN: usize = 12;

impl AiNavData {
    /// Parses a whole file.
    ///
    /// Reads the routing section from byte 5 and the edge-centre section from the offset in
    /// bytes 1..5, keeping any bytes between the two and after the second.
    ///
    /// # Errors
    /// A version byte other than 1, an offset pointing inside the routing section, a truncated
    /// section, or a count (blocks, a block's `cells × cells` entries, links, centres) larger
    /// than the bytes left could hold. The error names the byte offset and the section
    /// (`blocks[3].next_edge`).
    pub fn parse(bytes: &[u8]) -> Result<AiNavData, Error> {
        let mut r = Reader::new(bytes);
        r.place = Place::section("version");
        let version = r.array::<1>()?[0];
        if version != VERSION {
            return Err(Error::invalid(
                0,
                "version",
                format!("version {VERSION}"),
                version.to_string(),
            ));
        }
        r.place = Place::section("centres_offset");
        let offset = r.u32()?;

        r.place = Place::section("region");
        let region = RegionId(r.u16()?);
        let n = r.section_count("block_count", "blocks", MIN_BLOCK_LEN)?;
        let mut blocks = Vec::with_capacity(n);
        for i in 0..n {
            blocks.push(read_block(&mut r, i)?);
        }
        r.place = Place::section("sub_goals");
        let sub_goals = read_table(&mut r, n as u32, 2, |b| u16_at(b, 0) as i16)?;
        r.place = Place::section("unknown0");
        let unknown0 = r.u32()?;

        let end = bytes.len() - r.left();
        let offset = offset as usize;
        if offset < end {
            return Err(Error::invalid(
                1,
                "centres_offset",
                format!("an offset at or after {end}, the end of the routing section"),
                offset.to_string(),
            ));
        }
        r.place = Place::section("gap");
        let gap = r.take(offset - end)?.to_vec();

        r.place = Place::section("centre_region");
        let centre_region = RegionId(r.u16()?);
        let n = r.section_count("centre_block_count", "edge_centres", 4)?;
        let mut edge_centres = Vec::with_capacity(n);
        for i in 0..n {
            r.place = Place::item("edge_centres", i, "");
            let k = r.u32()?;
            let k = r.count(k.into(), CENTRE_LEN)?;
            let centres = r.take(k * CENTRE_LEN)?;
            edge_centres.push(
                centres
                    .chunks_exact(CENTRE_LEN)
                    .map(|c| [0, 4, 8].map(|at| F32::from_bits(u32_at(c, at))))
                    .collect(),
            );
        }
        r.place = Place::section("unknown1");
        let unknown1 = r.u32()?;
        let trailing = r.rest().to_vec();
        Ok(AiNavData {
            region,
            blocks,
            sub_goals,
            unknown0,
            gap,
            centre_region,
            edge_centres,
            unknown1,
            trailing,
        })
    }

    /// Reads and parses a file.
    ///
    /// # Errors
    /// [`ReadError::Io`] when the file cannot be read, [`ReadError::Format`] as for
    /// [`AiNavData::parse`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<AiNavData, ReadError> {
        parse_path(path, Self::parse)
    }

    /// Reads a stream to its end and parses it.
    ///
    /// # Errors
    /// As for [`AiNavData::from_path`].
    pub fn read_from(reader: impl Read) -> Result<AiNavData, ReadError> {
        parse_stream(reader, Self::parse)
    }
}

fn read_block(r: &mut Reader<'_>, i: usize) -> Result<RouteBlock, Error> {
    r.place = Place::item("blocks", i, "");
    let fixed = r.take(BLOCK_FIXED_LEN)?;
    let (index, cells, edge_count) = (u32_at(fixed, 0), u32_at(fixed, 4), u32_at(fixed, 8));
    r.place = Place::item("blocks", i, "next_edge");
    let next_edge = read_table(r, cells, ENTRY_LEN, |b| NextEdge {
        forward: u16_at(b, 0) as i16,
        backward: u16_at(b, 2) as i16,
    })?;
    r.place = Place::item("blocks", i, "link_count");
    let n = r.u32()?;
    r.place = Place::item("blocks", i, "links");
    let n = r.count(n.into(), LINK_LEN)?;
    let links = r
        .take(n * LINK_LEN)?
        .chunks_exact(LINK_LEN)
        .map(|b| BlockLink {
            id: u32_at(b, 0),
            cell: u16_at(b, 4),
            linked_block: u16_at(b, 6),
            linked_edge: u16_at(b, 8),
        })
        .collect();
    Ok(RouteBlock {
        index,
        edge_count,
        next_edge,
        links,
    })
}

/// A `side × side` table of `len`-byte entries, at the reader's place; the product is checked
/// against the bytes left before anything is allocated.
fn read_table<T>(
    r: &mut Reader<'_>,
    side: u32,
    len: usize,
    entry: impl Fn(&[u8]) -> T,
) -> Result<SquareTable<T>, Error> {
    // u32 × u32 always fits a u64; `count` checks the bytes.
    let n = r.count(u64::from(side) * u64::from(side), len)?;
    let entries = r.take(n * len)?.chunks_exact(len).map(entry).collect();
    Ok(SquareTable { side, entries })
}
