//! Parsing: bytes → [`ObjectMesh`], section by section in file order (mirrored by `write.rs`).

use super::model::*;
use crate::bytes::{f32_at, u16_at, u32_at, Place, Reader};
use crate::error::{describe_bytes, parse_path, parse_stream, Error, ErrorKind, ReadError};
use std::io::Read;
use std::path::Path;

/// One vertex record.
pub(crate) const VERTEX_LEN: usize = 13;
/// One cell record without its event byte.
pub(crate) const CELL_LEN: usize = 8;
/// One edge record without its event byte.
pub(crate) const EDGE_LEN: usize = 9;
/// The grid's fixed fields: origin x, z, width, height, tile count.
pub(crate) const GRID_FIXED_LEN: usize = 20;

impl ObjectMesh {
    /// Parses a whole file.
    ///
    /// Accepts `JMXVBMS 0110` and `JMXVBMS 0109`. Reads the navigation section at the header's
    /// nav offset (none when it is 0) and keeps every other byte verbatim.
    ///
    /// # Errors
    /// A wrong signature or version, a file shorter than the header, a nav offset inside the
    /// header or past the end, a truncated navigation section, or a count larger than the bytes
    /// left could hold. The error names the byte offset and section.
    pub fn parse(bytes: &[u8]) -> Result<ObjectMesh, Error> {
        let mut r = Reader::new(bytes);
        let version = read_signature(&mut r)?;
        let header = read_header(&mut r)?;
        let nav_offset = header.nav_offset();
        if nav_offset == 0 {
            r.place = Place::section("before_nav");
            return Ok(ObjectMesh {
                version,
                header,
                before_nav: r.rest().to_vec(),
                nav: None,
                after_nav: Vec::new(),
            });
        }
        let nav_offset = nav_offset as usize;
        if nav_offset < HEADER_LEN {
            return Err(Error::invalid(NAV_OFFSET_POSITION, "header.offsets[7]", format!(
                        "a navigation offset of 0 (none) or at least {HEADER_LEN} (the end of the header)"
                    ), nav_offset.to_string()));
        }
        r.place = Place::section("before_nav");
        let before_nav = r.take(nav_offset - HEADER_LEN)?.to_vec();
        let nav = read_nav(&mut r, &header)?;
        let after_nav = r.rest().to_vec();
        Ok(ObjectMesh {
            version,
            header,
            before_nav,
            nav: Some(nav),
            after_nav,
        })
    }

    /// Reads and parses a file.
    ///
    /// # Errors
    /// [`ReadError::Io`] when the file cannot be read, [`ReadError::Format`] as for
    /// [`ObjectMesh::parse`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<ObjectMesh, ReadError> {
        parse_path(path, Self::parse)
    }

    /// Reads a stream to its end and parses it.
    ///
    /// # Errors
    /// As for [`ObjectMesh::from_path`].
    pub fn read_from(reader: impl Read) -> Result<ObjectMesh, ReadError> {
        parse_stream(reader, Self::parse)
    }
}

fn read_signature(r: &mut Reader<'_>) -> Result<Version, Error> {
    r.place = Place::section("signature");
    let found = &r.rest_peek()[..r.left().min(12)];
    if !found.starts_with(SIGNATURE_PREFIX) {
        return Err(r.error(ErrorKind::BadSignature {
            expected: Version::V0110.signature(),
            found: found.to_vec(),
        }));
    }
    let signature = r.array::<12>()?;
    Version::from_signature(&signature).ok_or_else(|| {
        Error::invalid(
            0,
            "signature",
            "version 0110 or 0109",
            describe_bytes(&signature),
        )
    })
}

fn read_header(r: &mut Reader<'_>) -> Result<Header, Error> {
    r.place = Place::section("header");
    let b = r.take(HEADER_LEN - 12)?;
    let mut offsets = [0; OFFSET_COUNT];
    for (i, o) in offsets.iter_mut().enumerate() {
        *o = u32_at(b, 4 * i);
    }
    let field = |i: usize| u32_at(b, 4 * (OFFSET_COUNT + i));
    Ok(Header {
        offsets,
        unknown0: field(0),
        nav_flags: field(1),
        sub_prim_count: field(2),
        vertex_flags: field(3),
        unknown2: field(4),
    })
}

fn read_nav(r: &mut Reader<'_>, header: &Header) -> Result<NavSection, Error> {
    let vertices = read_vertices(r)?;
    let cells = read_cells(r, header.has_cell_events())?;
    let outline_edges = read_edges(
        r,
        ["outline_edge_count", "outline_edges"],
        header.has_edge_events(),
    )?;
    let inline_edges = read_edges(
        r,
        ["inline_edge_count", "inline_edges"],
        header.has_edge_events(),
    )?;
    let event_names = if header.has_event_names() {
        read_event_names(r)?
    } else {
        Vec::new()
    };
    let grid = read_grid(r)?;
    Ok(NavSection {
        vertices,
        cells,
        outline_edges,
        inline_edges,
        event_names,
        grid,
    })
}

fn read_vertices(r: &mut Reader<'_>) -> Result<Vec<NavVertex>, Error> {
    let n = r.section_count("vertex_count", "vertices", VERTEX_LEN)?;
    let bytes = r.take(n * VERTEX_LEN)?;
    Ok(bytes
        .chunks_exact(VERTEX_LEN)
        .map(|b| NavVertex {
            position: [f32_at(b, 0), f32_at(b, 4), f32_at(b, 8)],
            normal: b[12],
        })
        .collect())
}

fn read_cells(r: &mut Reader<'_>, events: bool) -> Result<Vec<NavCell>, Error> {
    let len = CELL_LEN + usize::from(events);
    let n = r.section_count("cell_count", "cells", len)?;
    let bytes = r.take(n * len)?;
    Ok(bytes
        .chunks_exact(len)
        .map(|b| NavCell {
            vertices: [u16_at(b, 0), u16_at(b, 2), u16_at(b, 4)],
            flag: u16_at(b, 6),
            event: if events { b[8] } else { 0 },
        })
        .collect())
}

fn read_edges(
    r: &mut Reader<'_>,
    [count_name, name]: [&'static str; 2],
    events: bool,
) -> Result<Vec<NavEdge>, Error> {
    let len = EDGE_LEN + usize::from(events);
    let n = r.section_count(count_name, name, len)?;
    let bytes = r.take(n * len)?;
    Ok(bytes
        .chunks_exact(len)
        .map(|b| NavEdge {
            vertices: [u16_at(b, 0), u16_at(b, 2)],
            cells: [u16_at(b, 4), u16_at(b, 6)],
            flag: b[8],
            event: if events { b[9] } else { 0 },
        })
        .collect())
}

fn read_event_names(r: &mut Reader<'_>) -> Result<Vec<Vec<u8>>, Error> {
    let n = r.section_count("event_name_count", "event_names", 4)?;
    let mut names = Vec::with_capacity(n);
    for i in 0..n {
        r.place = Place::item("event_names", i, "");
        let len = r.u32()?;
        let len = r.count(len.into(), 1)?;
        names.push(r.take(len)?.to_vec());
    }
    Ok(names)
}

fn read_grid(r: &mut Reader<'_>) -> Result<OutlineGrid, Error> {
    r.place = Place::section("grid");
    let b = r.take(GRID_FIXED_LEN)?;
    // Read as the server does: the width and height as i32.
    let origin = [f32_at(b, 0), f32_at(b, 4)];
    let width = u32_at(b, 8) as i32;
    let height = u32_at(b, 12) as i32;
    r.place = Place::section("grid.tiles");
    let n = r.count(u32_at(b, 16).into(), 4)?;
    let mut tiles = Vec::with_capacity(n);
    for i in 0..n {
        r.place = Place::item("grid.tiles", i, "");
        let len = r.u32()?;
        let len = r.count(len.into(), 2)?;
        let entries = r.take(len * 2)?;
        tiles.push(entries.chunks_exact(2).map(|e| u16_at(e, 0)).collect());
    }
    Ok(OutlineGrid {
        origin,
        width,
        height,
        tiles,
    })
}
