//! Writing: [`NavMesh`] → bytes, section by section in file order (mirrors `read.rs`).

use super::model::*;
use super::read::{CELL_FIXED_LEN, GLOBAL_EDGE_LEN, INTERNAL_EDGE_LEN, LINK_LEN, OBJECT_FIXED_LEN};
use crate::error::WriteError;
use std::io::{self, Write};

impl NavMesh {
    /// The exact size of the written file in bytes.
    pub fn encoded_len(&self) -> usize {
        let objects: usize = self
            .objects
            .iter()
            .map(|o| OBJECT_FIXED_LEN + 2 + o.links.len() * LINK_LEN)
            .sum();
        let cells: usize = self
            .cells
            .iter()
            .map(|c| CELL_FIXED_LEN + c.objects.len() * 2)
            .sum();
        SIGNATURE.len()
            + 2
            + objects
            + 8
            + cells
            + 4
            + self.global_edges.len() * GLOBAL_EDGE_LEN
            + 4
            + self.internal_edges.len() * INTERNAL_EDGE_LEN
            + self.layout.tail_len()
            + self.trailing.len()
    }

    /// Checks that the model can be written and read back as itself.
    ///
    /// # Errors
    /// A count beyond its on-disk width (objects and links: 65,535; cell objects: 255; cells and
    /// edges: u32), tile flags, textures or planes that the layout does not store, or trailing
    /// bytes on a legacy layout (which would make the file read back as another layout).
    pub fn check_writable(&self) -> Result<(), WriteError> {
        check_count("objects", self.objects.len(), u16::MAX.into())?;
        for (i, object) in self.objects.iter().enumerate() {
            check_count(
                format_args!("objects[{i}].links"),
                object.links.len(),
                u16::MAX.into(),
            )?;
        }
        check_count("cells", self.cells.len(), u32::MAX as usize)?;
        for (i, cell) in self.cells.iter().enumerate() {
            check_count(
                format_args!("cells[{i}].objects"),
                cell.objects.len(),
                u8::MAX.into(),
            )?;
        }
        check_count("global_edges", self.global_edges.len(), u32::MAX as usize)?;
        check_count(
            "internal_edges",
            self.internal_edges.len(),
            u32::MAX as usize,
        )?;
        if !self.layout.has_tile_flags() {
            if let Some(i) = self
                .tiles
                .iter()
                .position(|t| t.flag != 0 || t.texture_id != 0)
            {
                return Err(WriteError::new(
                    format_args!("tiles[{i}]"),
                    format_args!(
                        "layout {} stores no tile flag or texture, but they are not 0",
                        self.layout.name()
                    ),
                ));
            }
        }
        if !self.layout.has_planes() && !self.planes.is_zero() {
            return Err(WriteError::new(
                "planes",
                format_args!(
                    "layout {} stores no plane maps, but they are not 0",
                    self.layout.name()
                ),
            ));
        }
        if self.layout != Layout::Standard && !self.trailing.is_empty() {
            return Err(WriteError::new(
                "trailing",
                format_args!(
                    "layout {} cannot carry trailing bytes: the file would read back as another layout",
                    self.layout.name()
                ),
            ));
        }
        Ok(())
    }

    /// The file's bytes.
    ///
    /// # Errors
    /// As for [`NavMesh::check_writable`].
    pub fn to_vec(&self) -> Result<Vec<u8>, WriteError> {
        self.check_writable()?;
        let mut out = Vec::with_capacity(self.encoded_len());
        self.encode(&mut out);
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

    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.signature);
        write_objects(out, &self.objects);
        write_cells(out, self.open_cell_count, &self.cells);
        write_global_edges(out, &self.global_edges);
        write_internal_edges(out, &self.internal_edges);
        write_tiles(out, self.layout, &self.tiles);
        for h in self.heights.iter() {
            out.extend_from_slice(&h.to_le_bytes());
        }
        if self.layout.has_planes() {
            out.extend_from_slice(&self.planes.types);
            for h in &self.planes.heights {
                out.extend_from_slice(&h.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.trailing);
    }
}

fn check_count(section: impl std::fmt::Display, len: usize, max: usize) -> Result<(), WriteError> {
    if len > max {
        return Err(WriteError::new(
            section,
            format_args!("{len} entries, at most {max} fit"),
        ));
    }
    Ok(())
}

fn write_objects(out: &mut Vec<u8>, objects: &[Object]) {
    out.extend_from_slice(&(objects.len() as u16).to_le_bytes());
    for o in objects {
        out.extend_from_slice(&o.object_id.to_le_bytes());
        for p in o.position {
            out.extend_from_slice(&p.to_le_bytes());
        }
        out.extend_from_slice(&o.kind.to_le_bytes());
        out.extend_from_slice(&o.yaw.to_le_bytes());
        out.extend_from_slice(&o.uid.to_le_bytes());
        out.extend_from_slice(&o.short0.to_le_bytes());
        out.push(o.is_big);
        out.push(o.is_struct);
        out.extend_from_slice(&o.region_id.to_le_bytes());
        out.extend_from_slice(&(o.links.len() as u16).to_le_bytes());
        for l in &o.links {
            out.extend_from_slice(&l.link_object.to_le_bytes());
            out.extend_from_slice(&l.link_edge.to_le_bytes());
            out.extend_from_slice(&l.edge.to_le_bytes());
        }
    }
}

fn write_cells(out: &mut Vec<u8>, open_cell_count: u32, cells: &[Cell]) {
    out.extend_from_slice(&(cells.len() as u32).to_le_bytes());
    out.extend_from_slice(&open_cell_count.to_le_bytes());
    for c in cells {
        for v in c.min.iter().chain(&c.max) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.push(c.objects.len() as u8);
        for o in &c.objects {
            out.extend_from_slice(&o.to_le_bytes());
        }
    }
}

/// The 23 bytes that global and internal edges share.
fn write_edge_common(
    out: &mut Vec<u8>,
    a: [crate::F32; 2],
    b: [crate::F32; 2],
    flag: u8,
    dir: [u8; 2],
    cell: [u16; 2],
) {
    for v in a.iter().chain(&b) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.push(flag);
    out.extend_from_slice(&dir);
    out.extend_from_slice(&cell[0].to_le_bytes());
    out.extend_from_slice(&cell[1].to_le_bytes());
}

fn write_global_edges(out: &mut Vec<u8>, edges: &[GlobalEdge]) {
    out.extend_from_slice(&(edges.len() as u32).to_le_bytes());
    for e in edges {
        write_edge_common(out, e.a, e.b, e.flag, e.dir, e.cell);
        out.extend_from_slice(&e.region[0].to_le_bytes());
        out.extend_from_slice(&e.region[1].to_le_bytes());
    }
}

fn write_internal_edges(out: &mut Vec<u8>, edges: &[InternalEdge]) {
    out.extend_from_slice(&(edges.len() as u32).to_le_bytes());
    for e in edges {
        write_edge_common(out, e.a, e.b, e.flag, e.dir, e.cell);
    }
}

fn write_tiles(out: &mut Vec<u8>, layout: Layout, tiles: &[Tile; TILE_COUNT]) {
    for t in tiles {
        out.extend_from_slice(&t.cell_index.to_le_bytes());
        if layout.has_tile_flags() {
            out.extend_from_slice(&t.flag.to_le_bytes());
            out.extend_from_slice(&t.texture_id.to_le_bytes());
        }
    }
}
