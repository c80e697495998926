//! Parsing: bytes → [`NavMesh`], section by section in file order (mirrored by `write.rs`).

use super::model::*;
use crate::bytes::{f32_at, u16_at, u32_at, Place, Reader};
use crate::error::{parse_path, parse_stream, Error, ErrorKind, ReadError};
use crate::float::F32;
use std::io::Read;
use std::path::Path;

/// How strict [`NavMesh::parse_with`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseOptions {
    /// Reject files that do not start with `JMXVNVM 1000` (the default). The game itself never
    /// compares the signature; turn this off to read files whose signature was damaged.
    pub require_signature: bool,
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            require_signature: true,
        }
    }
}

impl ParseOptions {
    /// Options that accept any 12 signature bytes.
    pub fn any_signature() -> ParseOptions {
        ParseOptions {
            require_signature: false,
        }
    }
}

/// Fixed part of an object record, before its links.
pub(crate) const OBJECT_FIXED_LEN: usize = 30;
/// One link row.
pub(crate) const LINK_LEN: usize = 6;
/// Fixed part of a cell record, before its object indices.
pub(crate) const CELL_FIXED_LEN: usize = 17;
/// One global edge.
pub(crate) const GLOBAL_EDGE_LEN: usize = 27;
/// One internal edge.
pub(crate) const INTERNAL_EDGE_LEN: usize = 23;

impl NavMesh {
    /// Parses a whole file.
    ///
    /// Accepts the standard layout and both legacy layouts (told apart by the bytes left after
    /// the internal edges) and keeps bytes after the standard tail as [`NavMesh::trailing`].
    ///
    /// # Errors
    /// A wrong signature, a truncated section, a count larger than the bytes left could hold, or
    /// a tail that matches no layout. The error names the byte offset and section.
    pub fn parse(bytes: &[u8]) -> Result<NavMesh, Error> {
        NavMesh::parse_with(bytes, ParseOptions::default())
    }

    /// Parses a whole file with options, such as accepting any signature.
    ///
    /// # Errors
    /// As for [`NavMesh::parse`].
    pub fn parse_with(bytes: &[u8], options: ParseOptions) -> Result<NavMesh, Error> {
        let mut r = Reader::new(bytes);
        let signature = read_signature(&mut r, options)?;
        let objects = read_objects(&mut r)?;
        let (open_cell_count, cells) = read_cells(&mut r)?;
        let global_edges = read_global_edges(&mut r)?;
        let internal_edges = read_internal_edges(&mut r)?;
        let layout = detect_layout(&r)?;
        let tiles = read_tiles(&mut r, layout)?;
        let heights = read_heights(&mut r)?;
        let planes = if layout.has_planes() {
            read_planes(&mut r)?
        } else {
            Planes::default()
        };
        let trailing = r.rest().to_vec();
        Ok(NavMesh {
            signature,
            objects,
            open_cell_count,
            cells,
            global_edges,
            internal_edges,
            layout,
            tiles,
            heights,
            planes,
            trailing,
        })
    }

    /// Reads and parses a file.
    ///
    /// # Errors
    /// [`ReadError::Io`] when the file cannot be read, [`ReadError::Format`] as for
    /// [`NavMesh::parse`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<NavMesh, ReadError> {
        parse_path(path, Self::parse)
    }

    /// Reads a stream to its end and parses it.
    ///
    /// # Errors
    /// As for [`NavMesh::from_path`].
    pub fn read_from(reader: impl Read) -> Result<NavMesh, ReadError> {
        parse_stream(reader, Self::parse)
    }
}

fn read_signature(r: &mut Reader<'_>, options: ParseOptions) -> Result<[u8; 12], Error> {
    r.place = Place::section("signature");
    let found = &r.rest_peek()[..r.left().min(SIGNATURE.len())];
    if options.require_signature && found != SIGNATURE {
        return Err(r.error(ErrorKind::BadSignature {
            expected: SIGNATURE,
            found: found.to_vec(),
        }));
    }
    r.array()
}

fn read_objects(r: &mut Reader<'_>) -> Result<Vec<Object>, Error> {
    r.place = Place::section("object_count");
    let stored = r.u16()?;
    r.place = Place::section("objects");
    let count = r.count(stored.into(), OBJECT_FIXED_LEN + 2)?;
    let mut objects = Vec::with_capacity(count);
    for index in 0..count {
        r.place = Place::item("objects", index, "");
        let b = r.take(OBJECT_FIXED_LEN + 2)?;
        r.place = Place::item("objects", index, "links");
        let link_count = r.count(u16_at(b, 30).into(), LINK_LEN)?;
        let link_bytes = r.take(link_count * LINK_LEN)?;
        let links = link_bytes
            .chunks_exact(LINK_LEN)
            .map(|l| Link {
                link_object: u16_at(l, 0),
                link_edge: u16_at(l, 2),
                edge: u16_at(l, 4),
            })
            .collect();
        objects.push(Object {
            object_id: u32_at(b, 0),
            position: [f32_at(b, 4), f32_at(b, 8), f32_at(b, 12)],
            kind: u16_at(b, 16),
            yaw: f32_at(b, 18),
            uid: u16_at(b, 22),
            short0: u16_at(b, 24),
            is_big: b[26],
            is_struct: b[27],
            region_id: u16_at(b, 28),
            links,
        });
    }
    Ok(objects)
}

fn read_cells(r: &mut Reader<'_>) -> Result<(u32, Vec<Cell>), Error> {
    r.place = Place::section("cell_count");
    let stored = r.u32()?;
    r.place = Place::section("open_cell_count");
    let open_cell_count = r.u32()?;
    r.place = Place::section("cells");
    let count = r.count(stored.into(), CELL_FIXED_LEN)?;
    let mut cells = Vec::with_capacity(count);
    for index in 0..count {
        r.place = Place::item("cells", index, "");
        let b = r.take(CELL_FIXED_LEN)?;
        r.place = Place::item("cells", index, "objects");
        let object_bytes = r.take(usize::from(b[16]) * 2)?;
        cells.push(Cell {
            min: [f32_at(b, 0), f32_at(b, 4)],
            max: [f32_at(b, 8), f32_at(b, 12)],
            objects: object_bytes.chunks_exact(2).map(|o| u16_at(o, 0)).collect(),
        });
    }
    Ok((open_cell_count, cells))
}

fn read_global_edges(r: &mut Reader<'_>) -> Result<Vec<GlobalEdge>, Error> {
    r.place = Place::section("global_edge_count");
    let stored = r.u32()?;
    r.place = Place::section("global_edges");
    let count = r.count(stored.into(), GLOBAL_EDGE_LEN)?;
    let bytes = r.take(count * GLOBAL_EDGE_LEN)?;
    Ok(bytes
        .chunks_exact(GLOBAL_EDGE_LEN)
        .map(|b| GlobalEdge {
            a: [f32_at(b, 0), f32_at(b, 4)],
            b: [f32_at(b, 8), f32_at(b, 12)],
            flag: b[16],
            dir: [b[17], b[18]],
            cell: [u16_at(b, 19), u16_at(b, 21)],
            region: [u16_at(b, 23), u16_at(b, 25)],
        })
        .collect())
}

fn read_internal_edges(r: &mut Reader<'_>) -> Result<Vec<InternalEdge>, Error> {
    r.place = Place::section("internal_edge_count");
    let stored = r.u32()?;
    r.place = Place::section("internal_edges");
    let count = r.count(stored.into(), INTERNAL_EDGE_LEN)?;
    let bytes = r.take(count * INTERNAL_EDGE_LEN)?;
    Ok(bytes
        .chunks_exact(INTERNAL_EDGE_LEN)
        .map(|b| InternalEdge {
            a: [f32_at(b, 0), f32_at(b, 4)],
            b: [f32_at(b, 8), f32_at(b, 12)],
            flag: b[16],
            dir: [b[17], b[18]],
            cell: [u16_at(b, 19), u16_at(b, 21)],
        })
        .collect())
}

/// Tells the layouts apart by the bytes left after the internal edges.
///
/// The legacy layouts must match exactly: with trailing bytes allowed there, a truncated
/// standard file would pass silently for a legacy one over a 37 KB range of lengths. The game
/// data has no legacy file with trailing bytes.
pub(crate) fn detect_layout_for_tail(tail_len: usize) -> Option<Layout> {
    if tail_len >= Layout::Standard.tail_len() {
        Some(Layout::Standard)
    } else if tail_len == Layout::Tiles4.tail_len() {
        Some(Layout::Tiles4)
    } else if tail_len == Layout::Tiles4NoPlanes.tail_len() {
        Some(Layout::Tiles4NoPlanes)
    } else {
        None
    }
}

fn detect_layout(r: &Reader<'_>) -> Result<Layout, Error> {
    detect_layout_for_tail(r.left()).ok_or_else(|| {
        let mut at = r.clone();
        at.place = Place::section("tiles");
        at.error(ErrorKind::UnknownLayout { tail_len: r.left() })
    })
}

fn read_tiles(r: &mut Reader<'_>, layout: Layout) -> Result<Box<[Tile; TILE_COUNT]>, Error> {
    r.place = Place::section("tiles");
    Ok(if layout.has_tile_flags() {
        decode_array::<_, TILE_COUNT, 8, { TILE_COUNT * 8 }>(take_fixed(r)?, |b| Tile {
            cell_index: u32_at(b, 0),
            flag: u16_at(b, 4),
            texture_id: u16_at(b, 6),
        })
    } else {
        decode_array::<_, TILE_COUNT, 4, { TILE_COUNT * 4 }>(take_fixed(r)?, |b| Tile {
            cell_index: u32_at(b, 0),
            flag: 0,
            texture_id: 0,
        })
    })
}

fn read_heights(r: &mut Reader<'_>) -> Result<Box<[F32; HEIGHT_COUNT]>, Error> {
    r.place = Place::section("heights");
    let bytes = take_fixed(r)?;
    Ok(decode_array::<_, HEIGHT_COUNT, 4, { HEIGHT_COUNT * 4 }>(
        bytes,
        |b| f32_at(b, 0),
    ))
}

/// Takes a section of a length fixed by the format, as an array.
fn take_fixed<'a, const LEN: usize>(r: &mut Reader<'a>) -> Result<&'a [u8; LEN], Error> {
    let bytes = r.take(LEN)?;
    Ok(bytes
        .try_into()
        .unwrap_or_else(|_| unreachable!("take gives exactly LEN bytes")))
}

/// Decodes `N` records of `LEN` bytes each (`BYTES` in all) straight into a boxed array.
///
/// Shaped for the 111 KB of tiles and heights, after measuring the bench: the records go into
/// fresh memory instead of overwriting a default-filled array (the fill was a sixth of the
/// parse), and every length is a constant of the instance, so that the compiler sees each
/// record's bounds, drops the checks and vectorises the loop (with lengths known only at run
/// time it decoded one record at a time, and parsing took three times as long as copying).
fn decode_array<T, const N: usize, const LEN: usize, const BYTES: usize>(
    bytes: &[u8; BYTES],
    decode: impl Fn(&[u8]) -> T,
) -> Box<[T; N]> {
    const { assert!(N * LEN == BYTES) };
    let records: Box<[T]> = (0..N)
        .map(|i| decode(&bytes[i * LEN..i * LEN + LEN]))
        .collect();
    match records.try_into() {
        Ok(array) => array,
        Err(_) => unreachable!("the range has exactly N items"),
    }
}

fn read_planes(r: &mut Reader<'_>) -> Result<Planes, Error> {
    r.place = Place::section("plane_types");
    let types = r.array::<PLANE_COUNT>()?;
    r.place = Place::section("plane_heights");
    let bytes = r.take(PLANE_COUNT * 4)?;
    let mut heights = [F32::ZERO; PLANE_COUNT];
    for (h, b) in heights.iter_mut().zip(bytes.chunks_exact(4)) {
        *h = f32_at(b, 0);
    }
    Ok(Planes { types, heights })
}
