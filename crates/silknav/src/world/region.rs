//! A region prepared for queries: compact arrays derived once from its navmesh file.

use super::LoadFindingKind;
use jmxv::nvm::{
    Layout, NavMesh, EDGE_BLOCKED, EDGE_SIEGE, HEIGHTS_PER_SIDE, HEIGHT_COUNT, PLANE_COUNT,
    TILES_PER_SIDE, TILE_COUNT, TILE_SIZE,
};
use jmxv::RegionId;

/// Tile sides per line: 96 tiles along each of the 97 grid lines of each direction.
pub(crate) const SIDES: usize = TILES_PER_SIDE * HEIGHTS_PER_SIDE;

/// The marker of a tile that is not walkable ([`Region::tile_cell`]).
pub(crate) const NOT_WALKABLE: u16 = u16::MAX;

/// A cell's rectangle and centre, as the server keeps them (f32).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CellRect {
    pub min_x: f32,
    pub min_z: f32,
    pub max_x: f32,
    pub max_z: f32,
    pub centre_x: f32,
    pub centre_z: f32,
}

/// A terrain edge as the queries need it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Edge {
    pub a: [f32; 2],
    pub b: [f32; 2],
    pub flag: u8,
    pub cell: [u16; 2],
    /// The neighbour region of a global edge; `None` for internal edges.
    pub region_b: Option<RegionId>,
}

/// Which edge: an index into the region's internal or global edges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EdgeId {
    /// `internal_edges[i]` of the region's file.
    Internal(u32),
    /// `global_edges[i]` of the region's file.
    Global(u32),
}

/// A fixed-size bit set.
#[derive(Debug, Clone)]
pub(crate) struct Bits(Box<[u64]>);

impl Bits {
    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.0.len() * 8
    }

    pub fn new(len: usize) -> Bits {
        Bits(vec![0; len.div_ceil(64)].into_boxed_slice())
    }

    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    #[inline]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }
}

/// A tile as the queries read it: its cell as stored (the low 16 bits of its cell index),
/// whether it is walkable (flag bit 0 clear in the standard layout, an open cell in the
/// legacy layouts, which store no tile flags; and a cell that exists), and where its object
/// squares are (`crate::objects::TileObjects`), when it has some. One word, so that a point
/// on an object reads its tile once and goes straight to the squares, and a point on the
/// terrain costs one cache miss for the tile, not two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TileWord(u32);

impl TileWord {
    const WALKABLE: u32 = 1 << 16;
    const SQUARES_SHIFT: u32 = 17;

    pub fn new(cell: u16, walkable: bool) -> TileWord {
        TileWord(u32::from(cell) | if walkable { Self::WALKABLE } else { 0 })
    }

    /// The cell as stored.
    #[inline]
    pub fn cell(self) -> u16 {
        self.0 as u16
    }

    #[inline]
    pub fn is_walkable(self) -> bool {
        self.0 & Self::WALKABLE != 0
    }

    /// The cell when walkable, else [`NOT_WALKABLE`].
    #[inline]
    pub fn walkable_cell(self) -> u16 {
        if self.is_walkable() {
            self.cell()
        } else {
            NOT_WALKABLE
        }
    }

    /// The tile's squares record among its region's, when it has one.
    #[inline]
    pub fn squares(self) -> Option<usize> {
        (self.0 >> Self::SQUARES_SHIFT)
            .checked_sub(1)
            .map(|r| r as usize)
    }

    /// The word with the squares record `record` (below 2^15 - 1: a region has 9,216 tiles).
    pub fn with_squares(self, record: usize) -> TileWord {
        let record = u32::try_from(record + 1).expect("a record per tile at most");
        assert!(record < 1 << (32 - Self::SQUARES_SHIFT));
        TileWord(self.0 & ((1 << Self::SQUARES_SHIFT) - 1) | record << Self::SQUARES_SHIFT)
    }
}

/// Everything the queries read about one region.
#[derive(Debug, Clone)]
pub(crate) struct Region {
    pub id: RegionId,
    pub cells: Vec<CellRect>,
    /// One word per tile (`z * 96 + x`), so that a lookup reads one word for the terrain's
    /// answer and the way to the objects' ([`TileWord`]).
    pub tiles: Box<[TileWord]>,
    pub heights: Box<[f32]>,
    pub plane_types: [u8; PLANE_COUNT],
    pub plane_heights: [f32; PLANE_COUNT],
    pub internal_edges: Vec<Edge>,
    pub global_edges: Vec<Edge>,
    /// Per cell and direction bucket, the edges the server links to it, in its order:
    /// `cell_edges[cell_edge_start[c * 4 + d]..cell_edge_start[c * 4 + d + 1]]`.
    pub cell_edge_start: Vec<u32>,
    pub cell_edges: Vec<EdgeId>,
    /// Tile sides covered by an edge that blocks sight (`flag & 3` or the siege bit):
    /// vertical sides at `x = i·20`, index `tz * 97 + i`; horizontal sides at `z = j·20`,
    /// index `j * 96 + tx`.
    pub vertical_walls: Bits,
    pub horizontal_walls: Bits,
    /// Problems found while preparing the region (edges the queries cannot use), until the
    /// world moves them into its load report.
    pub issues: Vec<LoadFindingKind>,
    /// Each cell's object list (indices into the file's objects), the only place the server
    /// looks for objects: `cell_objects[cell_object_start[c]..cell_object_start[c + 1]]`.
    pub cell_object_start: Vec<u32>,
    pub cell_objects: Vec<u16>,
}

impl Region {
    /// Heap bytes the region's query data holds.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.cells.capacity() * size_of::<CellRect>()
            + self.tiles.len() * std::mem::size_of::<TileWord>()
            + self.heights.len() * 4
            + (self.internal_edges.capacity() + self.global_edges.capacity()) * size_of::<Edge>()
            + self.cell_edge_start.capacity() * 4
            + self.cell_edges.capacity() * size_of::<EdgeId>()
            + self.vertical_walls.heap_bytes()
            + self.horizontal_walls.heap_bytes()
            + self.issues.capacity() * size_of::<LoadFindingKind>()
    }

    pub fn from_navmesh(id: RegionId, mesh: &NavMesh) -> Region {
        let mut issues = Vec::new();
        let cells: Vec<CellRect> = mesh
            .cells
            .iter()
            .map(|c| {
                let (min_x, min_z, max_x, max_z) = (
                    c.min[0].get(),
                    c.min[1].get(),
                    c.max[0].get(),
                    c.max[1].get(),
                );
                // The server's centre: (min + max) * 0.5 in f32.
                CellRect {
                    min_x,
                    min_z,
                    max_x,
                    max_z,
                    centre_x: (min_x + max_x) * 0.5,
                    centre_z: (max_z + min_z) * 0.5,
                }
            })
            .collect();
        let open_cell_count = mesh.open_cell_count;
        let tiles: Box<[TileWord]> = mesh
            .tiles
            .iter()
            .map(|tile| {
                let cell = tile.cell();
                let open = match mesh.layout {
                    Layout::Standard => !tile.is_blocked(),
                    Layout::Tiles4 | Layout::Tiles4NoPlanes => u32::from(cell) < open_cell_count,
                };
                // A region has at most 9,216 cells, so no real cell index is the marker.
                TileWord::new(cell, open && usize::from(cell) < cells.len())
            })
            .collect();
        debug_assert_eq!(tiles.len(), TILE_COUNT);
        let heights: Box<[f32]> = mesh.heights.iter().map(|h| h.get()).collect();
        debug_assert_eq!(heights.len(), HEIGHT_COUNT);
        let edge = |a: [jmxv::F32; 2], b: [jmxv::F32; 2], flag, cell, region_b| Edge {
            a: [a[0].get(), a[1].get()],
            b: [b[0].get(), b[1].get()],
            flag,
            cell,
            region_b,
        };
        let internal_edges: Vec<Edge> = mesh
            .internal_edges
            .iter()
            .map(|e| edge(e.a, e.b, e.flag, e.cell, None))
            .collect();
        let global_edges: Vec<Edge> = mesh
            .global_edges
            .iter()
            .map(|e| edge(e.a, e.b, e.flag, e.cell, Some(RegionId(e.region[1]))))
            .collect();

        // Link edges to cells the way the server does: internal edges first (cell A by
        // dir[0]; cell B by dir[1] when passable), then global edges (cell A only).
        let mut buckets: Vec<Vec<EdgeId>> = vec![Vec::new(); cells.len() * 4];
        let mut link = |cell: u16, dir: u8, id: EdgeId, issues: &mut Vec<LoadFindingKind>| {
            if usize::from(cell) < cells.len() && dir <= 3 {
                buckets[usize::from(cell) * 4 + usize::from(dir)].push(id);
            } else {
                issues.push(LoadFindingKind::UnlinkableEdge {
                    edge: id,
                    cell,
                    direction: dir,
                });
            }
        };
        for (i, e) in mesh.internal_edges.iter().enumerate() {
            link(e.cell[0], e.dir[0], EdgeId::Internal(i as u32), &mut issues);
            if e.flag & EDGE_BLOCKED == 0 {
                link(e.cell[1], e.dir[1], EdgeId::Internal(i as u32), &mut issues);
            }
        }
        for (i, e) in mesh.global_edges.iter().enumerate() {
            link(e.cell[0], e.dir[0], EdgeId::Global(i as u32), &mut issues);
        }
        let mut cell_edge_start = Vec::with_capacity(buckets.len() + 1);
        let mut cell_edges = Vec::new();
        for bucket in &buckets {
            cell_edge_start.push(cell_edges.len() as u32);
            cell_edges.extend_from_slice(bucket);
        }
        cell_edge_start.push(cell_edges.len() as u32);

        let mut vertical_walls = Bits::new(SIDES);
        let mut horizontal_walls = Bits::new(SIDES);
        let all = internal_edges
            .iter()
            .enumerate()
            .map(|(i, e)| (EdgeId::Internal(i as u32), e))
            .chain(
                global_edges
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (EdgeId::Global(i as u32), e)),
            );
        for (id, e) in all {
            if e.flag & (EDGE_BLOCKED | EDGE_SIEGE) == 0 {
                continue;
            }
            if !mark_sides(e, &mut vertical_walls, &mut horizontal_walls) {
                issues.push(LoadFindingKind::WallOffGrid { edge: id });
            }
        }

        let mut cell_object_start = Vec::with_capacity(mesh.cells.len() + 1);
        let mut cell_objects = Vec::new();
        for c in &mesh.cells {
            cell_object_start.push(cell_objects.len() as u32);
            cell_objects.extend_from_slice(&c.objects);
        }
        cell_object_start.push(cell_objects.len() as u32);

        Region {
            id,
            cells,
            tiles,
            heights,
            plane_types: mesh.planes.types,
            plane_heights: mesh.planes.heights.map(|h| h.get()),
            internal_edges,
            global_edges,
            cell_edge_start,
            cell_edges,
            vertical_walls,
            horizontal_walls,
            issues,
            cell_object_start,
            cell_objects,
        }
    }

    /// The object list of a cell (indices into the file's objects), in the file's order.
    #[inline]
    pub fn objects_of_cell(&self, cell: u16) -> &[u16] {
        let c = usize::from(cell);
        match (
            self.cell_object_start.get(c),
            self.cell_object_start.get(c + 1),
        ) {
            (Some(&a), Some(&b)) => &self.cell_objects[a as usize..b as usize],
            _ => &[],
        }
    }

    pub fn edge(&self, id: EdgeId) -> &Edge {
        match id {
            EdgeId::Internal(i) => &self.internal_edges[i as usize],
            EdgeId::Global(i) => &self.global_edges[i as usize],
        }
    }

    /// The edges linked to a cell, in the server's order (direction buckets 0..=3).
    pub fn edges_of_cell(&self, cell: u16) -> &[EdgeId] {
        let c = usize::from(cell) * 4;
        &self.cell_edges[self.cell_edge_start[c] as usize..self.cell_edge_start[c + 4] as usize]
    }

    /// Whether local tile (tx, tz) is walkable.
    #[inline]
    pub fn is_open_tile(&self, tx: usize, tz: usize) -> bool {
        self.tiles[tz * TILES_PER_SIDE + tx].is_walkable()
    }

    /// Tile `tile`'s cell as the queries take it: walkable, its cell; else [`NOT_WALKABLE`].
    #[inline]
    pub fn tile_cell(&self, tile: usize) -> u16 {
        self.tiles[tile].walkable_cell()
    }

    /// Tile `tile`'s cell as stored (the low 16 bits of its cell index), open or not.
    #[inline]
    pub fn raw_tile_cell(&self, tile: usize) -> u16 {
        self.tiles[tile].cell()
    }
}

/// Marks the tile sides an axis-aligned, 20-aligned edge covers. Returns false for an edge
/// off the grid, which is left unmarked.
fn mark_sides(e: &Edge, vertical: &mut Bits, horizontal: &mut Bits) -> bool {
    let grid = |v: f32| -> Option<usize> {
        let k = v / TILE_SIZE;
        (k.fract() == 0.0 && (0.0..=96.0).contains(&k)).then_some(k as usize)
    };
    let (Some(x0), Some(z0), Some(x1), Some(z1)) =
        (grid(e.a[0]), grid(e.a[1]), grid(e.b[0]), grid(e.b[1]))
    else {
        return false;
    };
    let n = HEIGHTS_PER_SIDE;
    if x0 == x1 && z0 != z1 {
        for tz in z0.min(z1)..z0.max(z1) {
            vertical.set(tz * n + x0);
        }
        true
    } else if z0 == z1 && x0 != x1 {
        for tx in x0.min(x1)..x0.max(x1) {
            horizontal.set(z0 * TILES_PER_SIDE + tx);
        }
        true
    } else {
        false
    }
}
