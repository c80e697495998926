//! Ways to break a valid file on purpose.
//!
//! Offsets of the sections are found by walking the bytes the same way the format does, so the
//! breakage lands exactly where a test wants it.

use jmxv::nvm::NavMesh;

/// Byte offsets of the count fields and sections of a standard-layout file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offsets {
    /// The u16 object count.
    pub object_count: usize,
    /// The u32 cell count (the open cell count follows).
    pub cell_count: usize,
    /// The u32 global edge count.
    pub global_edge_count: usize,
    /// The u32 internal edge count.
    pub internal_edge_count: usize,
    /// The first tile.
    pub tiles: usize,
}

/// Where the sections of `mesh`'s bytes start.
pub fn offsets(mesh: &NavMesh) -> Offsets {
    let object_count = 12;
    let objects: usize = mesh.objects.iter().map(|o| 32 + 6 * o.links.len()).sum();
    let cell_count = object_count + 2 + objects;
    let cells: usize = mesh.cells.iter().map(|c| 17 + 2 * c.objects.len()).sum();
    let global_edge_count = cell_count + 8 + cells;
    let internal_edge_count = global_edge_count + 4 + 27 * mesh.global_edges.len();
    let tiles = internal_edge_count + 4 + 23 * mesh.internal_edges.len();
    Offsets {
        object_count,
        cell_count,
        global_edge_count,
        internal_edge_count,
        tiles,
    }
}

/// The bytes cut to their first `len` bytes.
pub fn truncated(bytes: &[u8], len: usize) -> Vec<u8> {
    bytes[..len.min(bytes.len())].to_vec()
}

/// The bytes with a little-endian u16 written at `at`.
pub fn with_u16(bytes: &[u8], at: usize, value: u16) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at..at + 2].copy_from_slice(&value.to_le_bytes());
    out
}

/// The bytes with a little-endian u32 written at `at`.
pub fn with_u32(bytes: &[u8], at: usize, value: u32) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at..at + 4].copy_from_slice(&value.to_le_bytes());
    out
}

/// A file claiming `count` cells.
pub fn with_cell_count(mesh: &NavMesh, count: u32) -> Vec<u8> {
    with_u32(&crate::bytes_of(mesh), offsets(mesh).cell_count, count)
}

/// A file claiming `count` objects.
pub fn with_object_count(mesh: &NavMesh, count: u16) -> Vec<u8> {
    with_u16(&crate::bytes_of(mesh), offsets(mesh).object_count, count)
}

/// A file claiming `count` global edges.
pub fn with_global_edge_count(mesh: &NavMesh, count: u32) -> Vec<u8> {
    with_u32(
        &crate::bytes_of(mesh),
        offsets(mesh).global_edge_count,
        count,
    )
}

/// A file claiming `count` internal edges.
pub fn with_internal_edge_count(mesh: &NavMesh, count: u32) -> Vec<u8> {
    with_u32(
        &crate::bytes_of(mesh),
        offsets(mesh).internal_edge_count,
        count,
    )
}

/// The mesh with tile `index` pointing at cell `cell` (a bad index when ≥ the cell count).
pub fn with_tile_cell(mesh: &NavMesh, index: usize, cell: u32) -> NavMesh {
    let mut out = mesh.clone();
    out.tiles[index].cell_index = cell;
    out
}

/// The mesh with internal edge `index` naming `cell` on side A.
pub fn with_edge_cell(mesh: &NavMesh, index: usize, cell: u16) -> NavMesh {
    let mut out = mesh.clone();
    out.internal_edges[index].cell[0] = cell;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use jmxv::ErrorKind;

    #[test]
    fn offsets_point_at_the_counts() {
        let mesh = crate::realistic_region(1);
        let bytes = crate::bytes_of(&mesh);
        let o = offsets(&mesh);
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        assert_eq!(
            u16::from_le_bytes([bytes[12], bytes[13]]) as usize,
            mesh.objects.len()
        );
        assert_eq!(u32_at(o.cell_count) as usize, mesh.cells.len());
        assert_eq!(
            u32_at(o.global_edge_count) as usize,
            mesh.global_edges.len()
        );
        assert_eq!(
            u32_at(o.internal_edge_count) as usize,
            mesh.internal_edges.len()
        );
        assert_eq!(bytes.len() - o.tiles, 111_544);
    }

    #[test]
    fn oversized_counts_fail_to_parse() {
        let mesh = crate::realistic_region(2);
        for bytes in [
            with_cell_count(&mesh, u32::MAX),
            with_internal_edge_count(&mesh, u32::MAX),
        ] {
            let err = NavMesh::parse(&bytes).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::CountTooLarge { .. }),
                "{err}"
            );
        }
    }
}
