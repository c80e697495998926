//! Building valid navmesh files from tile masks: the shared back end of the world generator,
//! the Moving AI importer and the test kit.
//!
//! Input is, per region, which of its 96×96 tiles are blocked, plus heights, textures, planes
//! and objects. Output is one [`NavMesh`] per region with every invariant of the game data:
//!
//! - cells are maximal rectangles found greedily (row-major scan; grow along +x, then +z),
//!   20-aligned, at most 960×960 (48 tiles), never crossing a region border, homogeneous, open
//!   cells first, every tile in exactly one cell;
//! - an internal edge (flag 0x04) on every shared side of two open cells, a wall (flag 0x02,
//!   `cell[1]` = 0xFFFF) on every side of an open cell facing a blocked tile, and on the outer
//!   border of the world;
//! - a global edge (flag 0x08) on every region border segment between two open cells, with its
//!   twin in the neighbour's file;
//! - direction bytes by the spec page's convention: 0 −z, 1 −x, 2 +z, 3 +x (`dir[1]` is the side
//!   of the cell on side B, 0xFF for walls); endpoints in ascending order;
//! - each object listed in every cell its footprint touches (shares a tile, a side or a
//!   corner with): the server sees an object only through the list of the cell a walker is
//!   in, and a walker steps into a footprint from the cell beside it, so that cell must list
//!   it for the object's walls to stop the walker (see [`crate::world::movement`]).

mod cells;
mod edges;

use jmxv::nvm::{
    boxed_array, Cell, NavMesh, Object, Planes, Tile, HEIGHT_COUNT, SIGNATURE, TILE_BLOCKED,
    TILE_COUNT, TILE_SIZE,
};
use jmxv::{RegionId, F32};
use std::collections::BTreeMap;

pub use cells::TileRect;

/// Everything the builder needs to know about one region.
#[derive(Debug, Clone)]
pub struct RegionInput {
    /// Which region this is.
    pub region: RegionId,
    /// `blocked[tz * 96 + tx]`: whether the tile is not walkable.
    pub blocked: Vec<bool>,
    /// Heights of the 97×97 vertices, row-major.
    pub heights: Vec<f32>,
    /// Texture id of each tile (index into `tile2d.ifo`).
    pub textures: Vec<u16>,
    /// Water and ice planes.
    pub planes: Planes,
    /// Objects to list in this region's file, with the tiles they cover.
    pub objects: Vec<PlacedObject>,
}

impl RegionInput {
    /// A region with every tile open, flat at height 0, texture 0, no planes and no objects.
    pub fn open(region: RegionId) -> RegionInput {
        RegionInput {
            region,
            blocked: vec![false; TILE_COUNT],
            heights: vec![0.0; HEIGHT_COUNT],
            textures: vec![0; TILE_COUNT],
            planes: Planes::default(),
            objects: Vec::new(),
        }
    }
}

/// An object record and the tile rectangle of its footprint in this region, which decides the
/// cells that list it (those it touches).
#[derive(Debug, Clone)]
pub struct PlacedObject {
    /// The record as it will be written.
    pub object: Object,
    /// Tiles under the object, clipped to the region.
    pub footprint: TileRect,
}

/// Builds one file per region. Regions are neighbours when their ids differ by one column or
/// row; a border with no neighbour in `inputs` is the world's outer border and gets walls.
///
/// # Panics
/// When an input's arrays do not have 9216 tiles / 9409 heights, or a region appears twice.
pub fn build_world(inputs: &[RegionInput]) -> BTreeMap<RegionId, NavMesh> {
    let mut layouts = BTreeMap::new();
    for input in inputs {
        assert_eq!(
            input.blocked.len(),
            TILE_COUNT,
            "blocked mask of {}",
            input.region
        );
        assert_eq!(
            input.textures.len(),
            TILE_COUNT,
            "textures of {}",
            input.region
        );
        assert_eq!(
            input.heights.len(),
            HEIGHT_COUNT,
            "heights of {}",
            input.region
        );
        let previous = layouts.insert(input.region, cells::decompose(&input.blocked));
        assert!(previous.is_none(), "region {} given twice", input.region);
    }
    inputs
        .iter()
        .map(|input| {
            let layout = &layouts[&input.region];
            let (global_edges, internal_edges) = edges::edges_of(input.region, layout, &layouts);
            (
                input.region,
                assemble(input, layout, global_edges, internal_edges),
            )
        })
        .collect()
}

/// Builds a single region whose whole border is the world's outer border.
pub fn build_region(input: &RegionInput) -> NavMesh {
    build_world(std::slice::from_ref(input))
        .remove(&input.region)
        .expect("built")
}

fn assemble(
    input: &RegionInput,
    layout: &cells::CellLayout,
    global_edges: Vec<jmxv::nvm::GlobalEdge>,
    internal_edges: Vec<jmxv::nvm::InternalEdge>,
) -> NavMesh {
    let mut cells: Vec<Cell> = layout
        .rects
        .iter()
        .map(|r| Cell {
            min: [coord(r.x0), coord(r.z0)],
            max: [coord(r.x1), coord(r.z1)],
            objects: Vec::new(),
        })
        .collect();
    for (index, placed) in input.objects.iter().enumerate() {
        let index = u16::try_from(index).expect("at most 65535 objects");
        for cell_index in layout.cells_touching(placed.footprint) {
            let objects = &mut cells[usize::from(cell_index)].objects;
            if objects.len() < usize::from(u8::MAX) && !objects.contains(&index) {
                objects.push(index);
            }
        }
    }
    let mut tiles = boxed_array(Tile::default());
    for (i, tile) in tiles.iter_mut().enumerate() {
        *tile = Tile {
            cell_index: u32::from(layout.cell_of_tile[i]),
            flag: if input.blocked[i] { TILE_BLOCKED } else { 0 },
            texture_id: input.textures[i],
        };
    }
    let mut heights = boxed_array(F32::ZERO);
    for (h, &value) in heights.iter_mut().zip(&input.heights) {
        *h = F32::from(value);
    }
    NavMesh {
        signature: *SIGNATURE,
        objects: input.objects.iter().map(|p| p.object.clone()).collect(),
        open_cell_count: u32::from(layout.open_count),
        cells,
        global_edges,
        internal_edges,
        layout: jmxv::nvm::Layout::Standard,
        tiles,
        heights,
        planes: input.planes,
        trailing: Vec::new(),
    }
}

/// Tile index → local coordinate of its lower corner.
fn coord(tile: u8) -> F32 {
    F32::from(f32::from(tile) * TILE_SIZE)
}
