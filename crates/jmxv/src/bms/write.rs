//! Writing: [`ObjectMesh`] → bytes, section by section in file order (mirrors `read.rs`).

use super::model::*;
use super::read::{CELL_LEN, EDGE_LEN, GRID_FIXED_LEN, VERTEX_LEN};
use crate::error::{write_bytes, WriteError};
use std::io::{self, Write};

impl ObjectMesh {
    /// The exact size of the written file in bytes.
    pub fn encoded_len(&self) -> usize {
        let nav = self
            .nav
            .as_ref()
            .map_or(0, |nav| nav.encoded_len(&self.header));
        HEADER_LEN + self.before_nav.len() + nav + self.after_nav.len()
    }

    /// Checks that the model can be written and read back as itself.
    ///
    /// # Errors
    /// With a navigation section: the header's nav offset is not where the section lands
    /// ([`ObjectMesh::nav_position`]), a count or name length beyond a u32, or an event byte or
    /// event name that the nav flags say is not stored. Without one: a nav offset other than 0,
    /// or bytes in [`ObjectMesh::after_nav`] (they would read back as part of `before_nav`).
    pub fn check_writable(&self) -> Result<(), WriteError> {
        let offset = self.header.nav_offset();
        let Some(nav) = &self.nav else {
            if offset != 0 {
                return Err(WriteError::new(
                    "header.offsets[7]",
                    format_args!(
                        "the mesh has no navigation section, so its offset must be 0, not {offset}"
                    ),
                ));
            }
            if !self.after_nav.is_empty() {
                return Err(WriteError::new(
                    "after_nav",
                    "a mesh without a navigation section keeps every byte after the header in before_nav",
                ));
            }
            return Ok(());
        };
        let position = self.nav_position();
        if u64::from(offset) != position as u64 {
            return Err(WriteError::new(
                "header.offsets[7]",
                format_args!(
                    "the navigation section starts at byte {position} (the header and \
                     {} bytes of before_nav), but the offset says {offset}",
                    self.before_nav.len()
                ),
            ));
        }
        check_u32("vertices", nav.vertices.len())?;
        check_u32("cells", nav.cells.len())?;
        check_u32("outline_edges", nav.outline_edges.len())?;
        check_u32("inline_edges", nav.inline_edges.len())?;
        check_u32("event_names", nav.event_names.len())?;
        check_u32("grid.tiles", nav.grid.tiles.len())?;
        for (i, tile) in nav.grid.tiles.iter().enumerate() {
            check_u32(format_args!("grid.tiles[{i}]"), tile.len())?;
        }
        for (i, name) in nav.event_names.iter().enumerate() {
            check_u32(format_args!("event_names[{i}]"), name.len())?;
        }
        let flags = self.header.nav_flags;
        if !self.header.has_cell_events() {
            if let Some(i) = nav.cells.iter().position(|c| c.event != 0) {
                return Err(unstored_event(format_args!("cells[{i}].event"), flags));
            }
        }
        if !self.header.has_edge_events() {
            for (name, edges) in [
                ("outline_edges", &nav.outline_edges),
                ("inline_edges", &nav.inline_edges),
            ] {
                if let Some(i) = edges.iter().position(|e| e.event != 0) {
                    return Err(unstored_event(format_args!("{name}[{i}].event"), flags));
                }
            }
        }
        if !self.header.has_event_names() && !nav.event_names.is_empty() {
            return Err(WriteError::new(
                "event_names",
                format_args!(
                    "nav flags 0x{flags:x} store no event names (bit 0x4), but there are {}",
                    nav.event_names.len()
                ),
            ));
        }
        Ok(())
    }

    /// The file's bytes.
    ///
    /// # Errors
    /// As for [`ObjectMesh::check_writable`].
    pub fn to_vec(&self) -> Result<Vec<u8>, WriteError> {
        self.check_writable()?;
        let mut out = Vec::with_capacity(self.encoded_len());
        out.extend_from_slice(self.version.signature());
        write_header(&mut out, &self.header);
        out.extend_from_slice(&self.before_nav);
        if let Some(nav) = &self.nav {
            write_nav(&mut out, nav, &self.header);
        }
        out.extend_from_slice(&self.after_nav);
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

impl NavSection {
    /// Bytes of the section as stored under `header`'s nav flags.
    pub fn encoded_len(&self, header: &Header) -> usize {
        let cell_len = CELL_LEN + usize::from(header.has_cell_events());
        let edge_len = EDGE_LEN + usize::from(header.has_edge_events());
        let names = if header.has_event_names() {
            4 + self.event_names.iter().map(|n| 4 + n.len()).sum::<usize>()
        } else {
            0
        };
        let tiles: usize = self.grid.tiles.iter().map(|t| 4 + 2 * t.len()).sum();
        4 + self.vertices.len() * VERTEX_LEN
            + 4
            + self.cells.len() * cell_len
            + 4
            + self.outline_edges.len() * edge_len
            + 4
            + self.inline_edges.len() * edge_len
            + names
            + GRID_FIXED_LEN
            + tiles
    }
}

fn check_u32(section: impl std::fmt::Display, len: usize) -> Result<(), WriteError> {
    if len as u64 > u64::from(u32::MAX) {
        return Err(WriteError::new(
            section,
            format_args!("{len} entries, at most {} fit", u32::MAX),
        ));
    }
    Ok(())
}

fn unstored_event(section: std::fmt::Arguments<'_>, flags: u32) -> WriteError {
    WriteError::new(
        section,
        format_args!("nav flags 0x{flags:x} store no event byte here, but it is not 0"),
    )
}

fn put_u16(out: &mut Vec<u8>, value: u16) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn put_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn write_header(out: &mut Vec<u8>, header: &Header) {
    for &offset in &header.offsets {
        put_u32(out, offset);
    }
    put_u32(out, header.unknown0);
    put_u32(out, header.nav_flags);
    put_u32(out, header.sub_prim_count);
    put_u32(out, header.vertex_flags);
    put_u32(out, header.unknown2);
}

fn write_nav(out: &mut Vec<u8>, nav: &NavSection, header: &Header) {
    put_u32(out, nav.vertices.len() as u32);
    for v in &nav.vertices {
        for p in v.position {
            out.extend_from_slice(&p.to_le_bytes());
        }
        out.push(v.normal);
    }
    put_u32(out, nav.cells.len() as u32);
    for c in &nav.cells {
        for i in c.vertices {
            put_u16(out, i);
        }
        put_u16(out, c.flag);
        if header.has_cell_events() {
            out.push(c.event);
        }
    }
    write_edges(out, &nav.outline_edges, header);
    write_edges(out, &nav.inline_edges, header);
    if header.has_event_names() {
        put_u32(out, nav.event_names.len() as u32);
        for name in &nav.event_names {
            put_u32(out, name.len() as u32);
            out.extend_from_slice(name);
        }
    }
    let grid = &nav.grid;
    out.extend_from_slice(&grid.origin[0].to_le_bytes());
    out.extend_from_slice(&grid.origin[1].to_le_bytes());
    out.extend_from_slice(&grid.width.to_le_bytes());
    out.extend_from_slice(&grid.height.to_le_bytes());
    put_u32(out, grid.tiles.len() as u32);
    for tile in &grid.tiles {
        put_u32(out, tile.len() as u32);
        for &e in tile {
            put_u16(out, e);
        }
    }
}

fn write_edges(out: &mut Vec<u8>, edges: &[NavEdge], header: &Header) {
    put_u32(out, edges.len() as u32);
    for e in edges {
        for i in e.vertices.into_iter().chain(e.cells) {
            put_u16(out, i);
        }
        out.push(e.flag);
        if header.has_edge_events() {
            out.push(e.event);
        }
    }
}
