//! The typed model of a `JMXVNVM 1000` file: every field, kept verbatim.

use crate::float::F32;

/// The signature every navmesh file starts with.
pub const SIGNATURE: &[u8; 12] = b"JMXVNVM 1000";

/// Tiles per region side; a tile is 20×20 world units.
pub const TILES_PER_SIDE: usize = 96;
/// Tiles in a region (96 × 96).
pub const TILE_COUNT: usize = TILES_PER_SIDE * TILES_PER_SIDE;
/// Height vertices per region side, one every 20 units including both borders.
pub const HEIGHTS_PER_SIDE: usize = 97;
/// Height vertices in a region (97 × 97).
pub const HEIGHT_COUNT: usize = HEIGHTS_PER_SIDE * HEIGHTS_PER_SIDE;
/// Planes per region side; a plane is 320×320 units (16×16 tiles).
pub const PLANES_PER_SIDE: usize = 6;
/// Planes in a region (6 × 6).
pub const PLANE_COUNT: usize = PLANES_PER_SIDE * PLANES_PER_SIDE;
/// Width of one tile in world units.
pub const TILE_SIZE: f32 = 20.0;

/// The u16 value meaning "no cell", "no region" or "no object".
pub const NONE_U16: u16 = 0xFFFF;
/// The direction byte meaning "no side".
pub const NO_DIRECTION: u8 = 0xFF;

/// Edge flag bit: movement from side B to side A is blocked.
pub const EDGE_BLOCK_DST_TO_SRC: u8 = 0x01;
/// Edge flag bit: movement from side A to side B is blocked (terrain walls use this one).
pub const EDGE_BLOCK_SRC_TO_DST: u8 = 0x02;
/// Either blocking bit: the terrain treats an edge with either as a wall, in both directions.
pub const EDGE_BLOCKED: u8 = EDGE_BLOCK_DST_TO_SRC | EDGE_BLOCK_SRC_TO_DST;
/// Edge flag bit: an edge between two cells of one region.
pub const EDGE_INTERNAL: u8 = 0x04;
/// Edge flag bit: an edge on the region border.
pub const EDGE_GLOBAL: u8 = 0x08;
/// Edge flag bit: underpass (object meshes).
pub const EDGE_UNDERPASS: u8 = 0x10;
/// Edge flag bit: entrance (object meshes).
pub const EDGE_ENTRANCE: u8 = 0x20;
/// Edge flag bit: siege gate; blocks line of sight.
pub const EDGE_SIEGE: u8 = 0x80;

/// Tile flag bit 0: the tile is blocked (not walkable). The only confirmed tile flag.
pub const TILE_BLOCKED: u16 = 0x0001;

/// Plane type bit: water (does not change height).
pub const PLANE_WATER: u8 = 0x01;
/// Plane type bit: ice (a higher ice plane is the ground).
pub const PLANE_ICE: u8 = 0x02;

/// Which of the three on-disk arrangements of the part after the internal edges a file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    /// 8-byte tiles (cell, flag, texture), heights, plane types and heights: 111,544 bytes.
    #[default]
    Standard,
    /// Legacy: 4-byte tiles (cell only), heights, plane maps: 74,680 bytes.
    Tiles4,
    /// Legacy: 4-byte tiles, heights, no plane maps: 74,500 bytes.
    Tiles4NoPlanes,
}

impl Layout {
    /// All layouts, standard first.
    pub const ALL: [Layout; 3] = [Layout::Standard, Layout::Tiles4, Layout::Tiles4NoPlanes];

    /// The name used in JSON and reports: `standard`, `tiles4`, `tiles4-noplanes`.
    pub const fn name(self) -> &'static str {
        match self {
            Layout::Standard => "standard",
            Layout::Tiles4 => "tiles4",
            Layout::Tiles4NoPlanes => "tiles4-noplanes",
        }
    }

    /// The layout with this name.
    pub fn from_name(name: &str) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.name() == name)
    }

    /// Bytes of one tile record: 8 in the standard layout, 4 in the legacy ones.
    pub const fn tile_record_len(self) -> usize {
        match self {
            Layout::Standard => 8,
            Layout::Tiles4 | Layout::Tiles4NoPlanes => 4,
        }
    }

    /// Whether tiles store their flag and texture id.
    pub const fn has_tile_flags(self) -> bool {
        matches!(self, Layout::Standard)
    }

    /// Whether the file stores the plane type and height maps.
    pub const fn has_planes(self) -> bool {
        !matches!(self, Layout::Tiles4NoPlanes)
    }

    /// Bytes from the tile map to the end, without trailing bytes.
    pub const fn tail_len(self) -> usize {
        let planes = if self.has_planes() {
            PLANE_COUNT * 5
        } else {
            0
        };
        TILE_COUNT * self.tile_record_len() + HEIGHT_COUNT * 4 + planes
    }
}

/// A whole navmesh file.
///
/// Fields are public and kept verbatim, whatever they hold; [`crate::nvm::lint`] says what
/// looks wrong. Arrays of fixed size are boxed arrays, so their length is part of the type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NavMesh {
    /// The 12 signature bytes as stored (the game never checks them; the parser does).
    pub signature: [u8; 12],
    /// Object instances placed in the region.
    pub objects: Vec<Object>,
    /// Number of open (walkable) cells; they come first in `cells`.
    pub open_cell_count: u32,
    /// Axis-aligned cells, open ones first.
    pub cells: Vec<Cell>,
    /// Edges on the region border, each with a twin in the neighbour's file.
    pub global_edges: Vec<GlobalEdge>,
    /// Edges between two cells of this region, and walls.
    pub internal_edges: Vec<InternalEdge>,
    /// Which arrangement of the tail the file uses.
    pub layout: Layout,
    /// The 96×96 tile map, row-major (`tz * 96 + tx`). In the legacy layouts only
    /// `cell_index` is stored; `flag` and `texture_id` must then be 0.
    pub tiles: Box<[Tile; TILE_COUNT]>,
    /// The 97×97 height map, row-major (`vz * 97 + vx`), a vertex every 20 units.
    pub heights: Box<[F32; HEIGHT_COUNT]>,
    /// The 6×6 plane maps; all zero and not stored in [`Layout::Tiles4NoPlanes`].
    pub planes: Planes,
    /// Bytes after the last section, which the game ignores; kept so that writing gives them
    /// back. Only the standard layout can carry them (see [`crate::nvm`]).
    pub trailing: Vec<u8>,
}

/// An object instance placed on the terrain: 30 fixed bytes, then its links.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Object {
    /// Bytes 0..4: index into `object.ifo`.
    pub object_id: u32,
    /// Bytes 4..16: x, y, z in the frame of the file's own region.
    pub position: [F32; 3],
    /// Bytes 16..18: 0xFFFF static, 0 "skinned" (meaning unsure). JSON: `type`.
    pub kind: u16,
    /// Bytes 18..22: rotation about +Y in radians.
    pub yaw: F32,
    /// Bytes 22..24: instance id, unique within the owning region.
    pub uid: u16,
    /// Bytes 24..26: unknown.
    pub short0: u16,
    /// Byte 26: "is big" (a bool on disk; any value is kept).
    pub is_big: u8,
    /// Byte 27: "is struct" (a bool on disk; any value is kept).
    pub is_struct: u8,
    /// Bytes 28..30: the region that owns the instance.
    pub region_id: u16,
    /// Links of this object's edges to other objects' edges in this file.
    pub links: Vec<Link>,
}

/// One link row of an object: 6 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Link {
    /// Index of the linked object in this file, or 0xFFFF when it lives only elsewhere.
    pub link_object: u16,
    /// Edge of the linked object.
    pub link_edge: u16,
    /// Edge of this object.
    pub edge: u16,
}

/// An axis-aligned cell: 17 bytes plus 2 per listed object.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Cell {
    /// minX, minZ.
    pub min: [F32; 2],
    /// maxX, maxZ (exclusive).
    pub max: [F32; 2],
    /// Indices into [`NavMesh::objects`] of the objects over this cell (at most 255).
    pub objects: Vec<u16>,
}

/// An edge on the region border: 27 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct GlobalEdge {
    /// First endpoint (x, z), in the order stored.
    pub a: [F32; 2],
    /// Second endpoint (x, z).
    pub b: [F32; 2],
    /// Edge flag bits (`EDGE_*`).
    pub flag: u8,
    /// Side bucket of each cell the edge lies on (0..=3, or 0xFF); contested meaning.
    pub dir: [u8; 2],
    /// Cell on side A (this region) and side B (in the neighbour region's list).
    pub cell: [u16; 2],
    /// Region of side A (this region) and side B (the neighbour).
    pub region: [u16; 2],
}

/// An edge between two cells of one region, or a wall: 23 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct InternalEdge {
    /// First endpoint (x, z), in the order stored.
    pub a: [F32; 2],
    /// Second endpoint (x, z).
    pub b: [F32; 2],
    /// Edge flag bits (`EDGE_*`).
    pub flag: u8,
    /// Side bucket of each cell the edge lies on (0..=3, or 0xFF); contested meaning.
    pub dir: [u8; 2],
    /// Cells on side A and side B (0xFFFF = none, as on walls).
    pub cell: [u16; 2],
}

/// One tile of the tile map: 8 bytes in the standard layout, 4 in the legacy ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Tile {
    /// Cell index as stored (u32; only the low 16 bits are used by the game).
    pub cell_index: u32,
    /// Tile flag bits; bit 0 = blocked.
    pub flag: u16,
    /// Index into `tile2d.ifo`.
    pub texture_id: u16,
}

impl Tile {
    /// The cell index the game uses: the low 16 bits.
    pub const fn cell(self) -> u16 {
        self.cell_index as u16
    }

    /// Whether flag bit 0 (blocked) is set.
    pub const fn is_blocked(self) -> bool {
        self.flag & TILE_BLOCKED != 0
    }
}

/// The 6×6 plane maps (water and ice), row-major.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Planes {
    /// Plane type bits (`PLANE_WATER`, `PLANE_ICE`).
    pub types: [u8; PLANE_COUNT],
    /// Plane heights.
    pub heights: [F32; PLANE_COUNT],
}

impl Default for Planes {
    fn default() -> Planes {
        Planes {
            types: [0; PLANE_COUNT],
            heights: [F32::ZERO; PLANE_COUNT],
        }
    }
}

impl Planes {
    /// Whether every type and height is zero (as in files without plane maps).
    pub fn is_zero(&self) -> bool {
        self.types.iter().all(|&t| t == 0) && self.heights.iter().all(|h| h.to_bits() == 0)
    }
}

impl Default for NavMesh {
    /// The smallest valid standard file: one open cell covering the region, no objects or edges.
    fn default() -> NavMesh {
        NavMesh {
            signature: *SIGNATURE,
            objects: Vec::new(),
            open_cell_count: 1,
            cells: vec![Cell {
                min: [F32::ZERO; 2],
                max: [F32::from(1920.0); 2],
                objects: Vec::new(),
            }],
            global_edges: Vec::new(),
            internal_edges: Vec::new(),
            layout: Layout::Standard,
            tiles: boxed_array(Tile::default()),
            heights: boxed_array(F32::ZERO),
            planes: Planes::default(),
            trailing: Vec::new(),
        }
    }
}

/// A boxed array filled with one value, built on the heap (these arrays are too large for
/// comfort on a thread's stack).
pub fn boxed_array<T: Clone, const N: usize>(value: T) -> Box<[T; N]> {
    let boxed: Box<[T]> = vec![value; N].into_boxed_slice();
    match boxed.try_into() {
        Ok(array) => array,
        Err(_) => unreachable!("the vector has exactly N elements"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_lengths_match_the_notes() {
        assert_eq!(Layout::Standard.tail_len(), 111_544);
        assert_eq!(Layout::Tiles4.tail_len(), 74_680);
        assert_eq!(Layout::Tiles4NoPlanes.tail_len(), 74_500);
        for layout in Layout::ALL {
            assert_eq!(Layout::from_name(layout.name()), Some(layout));
        }
    }
}
