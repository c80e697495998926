//! Writing: [`NavMesh`] → bytes, section by section in file order (mirrors `read.rs`).

use super::model::*;
use super::read::{CELL_FIXED_LEN, GLOBAL_EDGE_LEN, INTERNAL_EDGE_LEN, LINK_LEN, OBJECT_FIXED_LEN};
use crate::error::{write_bytes, WriteError};
use crate::float::F32;
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
    pub fn write_to(&self, writer: impl Write) -> io::Result<()> {
        write_bytes(self.to_vec(), writer)
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.signature);
        write_objects(out, &self.objects);
        write_cells(out, self.open_cell_count, &self.cells);
        write_global_edges(out, &self.global_edges);
        write_internal_edges(out, &self.internal_edges);
        write_tiles(out, self.layout, &self.tiles);
        write_heights(out, &self.heights);
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

// Records are encoded into zeroed slices at the same byte offsets that `read.rs` decodes them
// from, one `put_*` per field. Appending field by field instead costs a capacity check and a
// length update per field, which made writing the 18,000 tile and height values take 20 times
// as long as copying the file.

/// Appends `len` zero bytes and returns them, for a section to fill in place.
fn section(out: &mut Vec<u8>, len: usize) -> &mut [u8] {
    let start = out.len();
    out.resize(start + len, 0);
    &mut out[start..]
}

fn put_u16(b: &mut [u8], at: usize, value: u16) {
    b[at..at + 2].copy_from_slice(&value.to_le_bytes());
}

fn put_u32(b: &mut [u8], at: usize, value: u32) {
    b[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn put_f32(b: &mut [u8], at: usize, value: F32) {
    put_u32(b, at, value.to_bits());
}

fn write_objects(out: &mut Vec<u8>, objects: &[Object]) {
    out.extend_from_slice(&(objects.len() as u16).to_le_bytes());
    for o in objects {
        let b = section(out, OBJECT_FIXED_LEN + 2);
        put_u32(b, 0, o.object_id);
        put_f32(b, 4, o.position[0]);
        put_f32(b, 8, o.position[1]);
        put_f32(b, 12, o.position[2]);
        put_u16(b, 16, o.kind);
        put_f32(b, 18, o.yaw);
        put_u16(b, 22, o.uid);
        put_u16(b, 24, o.short0);
        b[26] = o.is_big;
        b[27] = o.is_struct;
        put_u16(b, 28, o.region_id);
        put_u16(b, 30, o.links.len() as u16);
        let links = section(out, o.links.len() * LINK_LEN);
        for (b, l) in links.chunks_exact_mut(LINK_LEN).zip(&o.links) {
            put_u16(b, 0, l.link_object);
            put_u16(b, 2, l.link_edge);
            put_u16(b, 4, l.edge);
        }
    }
}

fn write_cells(out: &mut Vec<u8>, open_cell_count: u32, cells: &[Cell]) {
    out.extend_from_slice(&(cells.len() as u32).to_le_bytes());
    out.extend_from_slice(&open_cell_count.to_le_bytes());
    for c in cells {
        let b = section(out, CELL_FIXED_LEN);
        put_f32(b, 0, c.min[0]);
        put_f32(b, 4, c.min[1]);
        put_f32(b, 8, c.max[0]);
        put_f32(b, 12, c.max[1]);
        b[16] = c.objects.len() as u8;
        let objects = section(out, c.objects.len() * 2);
        for (b, &o) in objects.chunks_exact_mut(2).zip(&c.objects) {
            put_u16(b, 0, o);
        }
    }
}

/// The first 23 bytes of an edge, the same for global and internal edges.
fn put_edge(b: &mut [u8], a: [F32; 2], end: [F32; 2], flag: u8, dir: [u8; 2], cell: [u16; 2]) {
    put_f32(b, 0, a[0]);
    put_f32(b, 4, a[1]);
    put_f32(b, 8, end[0]);
    put_f32(b, 12, end[1]);
    b[16] = flag;
    b[17] = dir[0];
    b[18] = dir[1];
    put_u16(b, 19, cell[0]);
    put_u16(b, 21, cell[1]);
}

fn write_global_edges(out: &mut Vec<u8>, edges: &[GlobalEdge]) {
    out.extend_from_slice(&(edges.len() as u32).to_le_bytes());
    let bytes = section(out, edges.len() * GLOBAL_EDGE_LEN);
    for (b, e) in bytes.chunks_exact_mut(GLOBAL_EDGE_LEN).zip(edges) {
        put_edge(b, e.a, e.b, e.flag, e.dir, e.cell);
        put_u16(b, 23, e.region[0]);
        put_u16(b, 25, e.region[1]);
    }
}

fn write_internal_edges(out: &mut Vec<u8>, edges: &[InternalEdge]) {
    out.extend_from_slice(&(edges.len() as u32).to_le_bytes());
    let bytes = section(out, edges.len() * INTERNAL_EDGE_LEN);
    for (b, e) in bytes.chunks_exact_mut(INTERNAL_EDGE_LEN).zip(edges) {
        put_edge(b, e.a, e.b, e.flag, e.dir, e.cell);
    }
}

fn write_tiles(out: &mut Vec<u8>, layout: Layout, tiles: &[Tile; TILE_COUNT]) {
    if layout.has_tile_flags() {
        encode_array::<_, TILE_COUNT, 8, { TILE_COUNT * 8 }>(out, tiles, |b, t| {
            // The three fields as one little-endian u64 (cell at bytes 0..4, flag at 4..6,
            // texture at 6..8): one 8-byte store per tile, which the compiler does not find
            // from three separate ones; the tile loop was most of the writing time.
            let record =
                u64::from(t.cell_index) | u64::from(t.flag) << 32 | u64::from(t.texture_id) << 48;
            b.copy_from_slice(&record.to_le_bytes());
        });
    } else {
        encode_array::<_, TILE_COUNT, 4, { TILE_COUNT * 4 }>(out, tiles, |b, t| {
            put_u32(b, 0, t.cell_index);
        });
    }
}

fn write_heights(out: &mut Vec<u8>, heights: &[F32; HEIGHT_COUNT]) {
    encode_array::<_, HEIGHT_COUNT, 4, { HEIGHT_COUNT * 4 }>(out, heights, |b, &h| {
        put_f32(b, 0, h);
    });
}

/// Appends `N` records of `LEN` bytes each (`BYTES` in all), encoded in place: the mirror of
/// `decode_array` in `read.rs`, and fast for the same reason (every length is a constant of
/// the instance, so the compiler sees each record's bounds and drops the checks from the loop).
fn encode_array<T, const N: usize, const LEN: usize, const BYTES: usize>(
    out: &mut Vec<u8>,
    records: &[T; N],
    encode: impl Fn(&mut [u8], &T),
) {
    const { assert!(N * LEN == BYTES) };
    let bytes: &mut [u8; BYTES] = section(out, BYTES)
        .try_into()
        .unwrap_or_else(|_| unreachable!("section gives exactly BYTES bytes"));
    for (i, record) in records.iter().enumerate() {
        encode(&mut bytes[i * LEN..i * LEN + LEN], record);
    }
}
