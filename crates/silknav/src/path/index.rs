//! The path index: the walkable ground as rectangles joined by portals, its convex corners,
//! its connected components, and the sparse visibility graph between the corners.
//!
//! Everything is in global tile units (`region · 96 + tile`), so a vertex is an integer pair
//! and its world position `20 · (gx, gz)` is exact in f64.
//!
//! The ground model is the one line of sight uses ([`crate::world::raycast`]): closed
//! walkable tiles of loaded regions, with wall edges on tile sides. Rectangles never contain
//! a wall inside them; a portal is a run of tile sides between two rectangles that are both
//! walkable and carry no wall edge.

use super::array::{Array, FileBytes};
use super::graph;
use super::landmarks;
use super::table::CornerTable;
pub(crate) use crate::geometry::TILE;
use crate::world::raycast::Grid;
use crate::world::region::Region;
use crate::world::World;
use bytemuck::{Pod, Zeroable};
use jmxv::nvm::{HEIGHTS_PER_SIDE, TILES_PER_SIDE};
use jmxv::RegionId;
use rayon::prelude::*;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Tiles per region side, as a signed global coordinate step.
pub(crate) const N: i64 = TILES_PER_SIDE as i64;
/// No rectangle / corner.
pub(crate) const NONE: u32 = u32::MAX;

/// A walkable rectangle of tiles `[x0, x1) × [z0, z1)` (global tile units), with the index
/// ranges of its portals, contacts and corners: one record, so that a scan visiting it reads
/// one cache line before the lists themselves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub(crate) struct Rect {
    pub x0: i32,
    pub z0: i32,
    pub x1: i32,
    pub z1: i32,
    pub portals: [u32; 2],
    pub contacts: [u32; 2],
    pub corners: [u32; 2],
}

/// Which side of a rectangle a portal lies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Side {
    /// `x = x0`.
    West = 0,
    /// `x = x1`.
    East = 1,
    /// `z = z0`.
    South = 2,
    /// `z = z1`.
    North = 3,
}

/// An opening from one rectangle into a neighbour: vertices `lo..hi` along the side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub(crate) struct Portal {
    /// The side's line (global vertex units).
    pub line: i32,
    pub lo: i32,
    pub hi: i32,
    pub to: u32,
    /// The [`Side`] as its number (kept as a byte so that the record is plain data; a loaded
    /// file's are checked to be 0 to 3).
    pub side: u8,
    /// For contacts: bit 0 (bit 1) when the tile side continuing this side's line past its
    /// `lo` (`hi`) end is a wall for sight, so that a ray along the line through that end is
    /// squeezed there.
    pub ends_walled: u8,
    pub pad: [u8; 2],
}

impl Portal {
    /// The side of its rectangle it lies on.
    #[inline]
    pub fn side(&self) -> Side {
        match self.side {
            0 => Side::West,
            1 => Side::East,
            2 => Side::South,
            _ => Side::North,
        }
    }
}

/// A vertex where a shortest path may turn: the obstacles meeting there fit in an arc of less
/// than 180°, so the free space around it is wider than a half-plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub(crate) struct Corner {
    pub gx: i32,
    pub gz: i32,
    /// The obstacle arc, counter-clockwise from `arc[0]` to `arc[1]`, as direction classes
    /// (0 = +x, 2 = +z, 4 = −x, 6 = −z); equal for the end of a thin wall.
    pub arc: [u8; 2],
    /// Direction classes (bit k: the class of [`direction_class`]) in which a segment may
    /// leave or reach this corner and still be part of a taut path through it.
    pub taut_mask: u8,
    pub pad: u8,
}

/// The world position of grid vertex (gx, gz) (exact in f64).
#[inline]
pub(crate) fn vertex_point(gx: i32, gz: i32) -> [f64; 2] {
    [f64::from(gx) * TILE, f64::from(gz) * TILE]
}

/// A corner as listed by a rectangle it touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub(crate) struct RectCorner {
    pub id: u32,
    pub gx: i32,
    pub gz: i32,
    pub taut_mask: u8,
    pub pad: [u8; 3],
}

impl RectCorner {
    #[inline]
    pub fn point(&self) -> [f64; 2] {
        vertex_point(self.gx, self.gz)
    }
}

impl Corner {
    #[inline]
    pub fn point(&self) -> [f64; 2] {
        vertex_point(self.gx, self.gz)
    }
}

/// The index of one world's walkable ground for path search: plain arrays, built in memory
/// or viewed in place in a loaded index file ([`super::file`]).
#[derive(Clone, Default)]
pub(crate) struct TerrainIndex {
    /// The loaded regions it was built for, ascending (the world's order).
    pub region_ids: Array<u16>,
    /// Per loaded region, the first global rectangle id.
    pub region_rect_base: Array<u32>,
    /// Per loaded region, 9,216 tiles: the local rectangle index, or `u16::MAX`.
    pub tile_rect: Array<u16>,
    pub rects: Array<Rect>,
    /// Rectangle r's portals are `portals[rects[r].portals[0]..rects[r].portals[1]]`.
    pub portals: Array<Portal>,
    /// Runs of the rectangles' sides along a walkable neighbour, walls included (for rays
    /// running along a side), by rectangle like the portals.
    pub contacts: Array<Portal>,
    /// The corners on each rectangle's boundary, by rectangle like the portals, with what a
    /// scan tests of them inline.
    pub rect_corners: Array<RectCorner>,
    pub corners: Array<Corner>,
    /// Per corner, the rectangles of the free space a path through it uses (up to 4; NONE).
    pub corner_roots: Array<[u32; 4]>,
    /// Connected component of each rectangle.
    pub component: Array<u32>,
    /// The sparse visibility graph: `edges[edge_start[c]..edge_start[c + 1]]`.
    pub edge_start: Array<u32>,
    pub edges: Array<graph::Edge>,
    /// What sees each rectangle: `seen[seen_start[r]..seen_start[r + 1]]` (both empty for
    /// worlds where that would take too much memory).
    pub seen_start: Array<u32>,
    pub seen: Array<graph::Seen>,
    /// What each block of [`graph::SEEN_BLOCK`] records holds: made, never stored in a file.
    pub seen_blocks: graph::SeenBlocks,
    /// Per corner, where its runs of [`TerrainIndex::turning_edges`] start and end, found on its
    /// first expansion ([`TurnCuts`]).
    pub turn_cuts: TurnCuts,
    /// The shortest distance between every two corners, for small indexes
    /// ([`super::table`]): made, never stored in a file.
    pub table: Option<Arc<CornerTable>>,
    /// Per corner, its graph distances from the landmarks ([`super::landmarks`]): empty for
    /// indexes with a table, and in files written before landmarks were kept.
    pub landmarks: Array<landmarks::Row>,
    /// How long the build took (for a loaded index, the build that wrote the file).
    pub build_time: Duration,
    /// The file the arrays are views of, when loaded from one, and how long loading took.
    pub file: Option<(FileBytes, Duration)>,
}

impl fmt::Debug for TerrainIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TerrainIndex")
            .field("rects", &self.rects.len())
            .field("corners", &self.corners.len())
            .field("edges", &self.edges.len())
            .finish_non_exhaustive()
    }
}

/// The direction class of the step from `p` to `q`: 0 = +x, 1 = +x+z, 2 = +z, … 7 = +x−z
/// (counter-clockwise, 45° apart); `None` when the points coincide.
#[inline]
pub(crate) fn direction_class(p: [f64; 2], q: [f64; 2]) -> Option<u8> {
    // Sign pairs (x, z) + 1, as 3·x + z, to the class; 9 (none) for equal points.
    const CLASS: [u8; 9] = [5, 4, 3, 6, 9, 2, 7, 0, 1];
    let sx = usize::from(q[0] > p[0]) + 1 - usize::from(q[0] < p[0]);
    let sz = usize::from(q[1] > p[1]) + 1 - usize::from(q[1] < p[1]);
    let class = CLASS[3 * sx + sz];
    (class != 9).then_some(class)
}

/// The quadrant tiles around vertex (gx, gz), counter-clockwise from +x+z, as offsets.
const QUADRANTS: [(i64, i64); 4] = [(0, 0), (-1, 0), (-1, -1), (0, -1)];

impl TerrainIndex {
    /// Builds the index of a world on rayon's current pool; `progress(done, total)` counts
    /// the corners whose visibility is done.
    pub fn build(world: &World, progress: &(dyn Fn(usize, usize) + Sync)) -> TerrainIndex {
        let started = Instant::now();
        let ground = Grid::global(world);
        let regions = world.region_data();

        // Rectangles, region by region (in parallel, then numbered in region order).
        let covers: Vec<(Vec<u16>, Vec<Rect>)> = regions
            .par_iter()
            .map(|region| {
                let mut tiles = vec![u16::MAX; TILES_PER_SIDE * TILES_PER_SIDE];
                let mut rects = Vec::new();
                cover_region(region, &mut tiles, &mut rects);
                (tiles, rects)
            })
            .collect();
        let mut region_rect_base = Vec::with_capacity(regions.len());
        let mut tile_rect = Vec::with_capacity(regions.len() * TILES_PER_SIDE * TILES_PER_SIDE);
        let mut rects = Vec::with_capacity(covers.iter().map(|c| c.1.len()).sum());
        for (tiles, region_rects) in covers {
            region_rect_base.push(rects.len() as u32);
            tile_rect.extend(tiles);
            rects.extend(region_rects);
        }

        let rect_of = |gx: i64, gz: i64| rect_at(&tile_rect, &region_rect_base, &ground, gx, gz);

        // Portals: runs of passable tile sides leading to the same neighbour. Contacts: the
        // same, walls on the side included (a ray running along a wall touches both sides).
        let sight_wall = |(line, k): (i64, i64), vertical: bool| {
            if vertical {
                ground.wall_vertical(line, k)
            } else {
                ground.wall_horizontal(line, k)
            }
        };
        let (portal_start, portals) = sides_of(
            &rects,
            |tx, tz, dx, dz| {
                if ground.passable(tx, tz, dx, dz) {
                    rect_of(tx + dx, tz + dz)
                } else {
                    NONE
                }
            },
            sight_wall,
        );
        let (contact_start, contacts) = sides_of(
            &rects,
            |tx, tz, dx, dz| {
                if ground.open(tx + dx, tz + dz) {
                    rect_of(tx + dx, tz + dz)
                } else {
                    NONE
                }
            },
            sight_wall,
        );

        // Components by union-find over portals.
        let mut parent: Vec<u32> = (0..rects.len() as u32).collect();
        fn find(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                let up = parent[parent[x as usize] as usize];
                parent[x as usize] = up;
                x = up;
            }
            x
        }
        for r in 0..rects.len() {
            for p in &portals[portal_start[r] as usize..portal_start[r + 1] as usize] {
                let (a, b) = (find(&mut parent, r as u32), find(&mut parent, p.to));
                if a != b {
                    parent[a.max(b) as usize] = a.min(b);
                }
            }
        }
        let component: Vec<u32> = (0..rects.len() as u32)
            .map(|r| find(&mut parent, r))
            .collect();

        // Corners: each vertex is examined by one owner region (in parallel, then numbered
        // in region order, and within a region in Z-order: corners numbered close together
        // lie close together, so that a rectangle's records, sorted by corner, come in blocks
        // of nearby corners, which a search skips whole when they lie far from its segment;
        // on the bench's open 4×4-region world a tenth of the query time).
        let found: Vec<Vec<(Corner, u8)>> = regions
            .par_iter()
            .map(|region| {
                let (bx, bz) = (i64::from(region.id.x()) * N, i64::from(region.id.z()) * N);
                let mut found = Vec::new();
                for vz in 0..=N {
                    for vx in 0..=N {
                        let (gx, gz) = (bx + vx, bz + vz);
                        if !owns(&ground, region.id, gx, gz) {
                            continue;
                        }
                        if let Some((arc, taut_mask, roots)) = classify(&ground, gx, gz) {
                            let corner = Corner {
                                gx: gx as i32,
                                gz: gz as i32,
                                arc: [arc.0, arc.1],
                                taut_mask,
                                pad: 0,
                            };
                            found.push((corner, roots));
                        }
                    }
                }
                found.sort_by_key(|(c, _)| z_order(c.gx as i64 - bx, c.gz as i64 - bz));
                found
            })
            .collect();
        let mut corners = Vec::with_capacity(found.iter().map(Vec::len).sum());
        let mut corner_roots = Vec::with_capacity(corners.capacity());
        let mut touching: Vec<(u32, u32)> = Vec::new(); // (rect, corner)
        for (corner, roots) in found.into_iter().flatten() {
            let id = corners.len() as u32;
            let (gx, gz) = (i64::from(corner.gx), i64::from(corner.gz));
            corners.push(corner);
            let mut root_rects = [NONE; 4];
            let mut n = 0;
            for (q, &(ox, oz)) in QUADRANTS.iter().enumerate() {
                let rect = rect_of(gx + ox, gz + oz);
                if rect == NONE {
                    continue;
                }
                touching.push((rect, id));
                if roots & (1 << q) != 0 && !root_rects[..n].contains(&rect) {
                    root_rects[n] = rect;
                    n += 1;
                }
            }
            corner_roots.push(root_rects);
        }
        touching.sort_unstable();
        touching.dedup();
        let mut corner_start = Vec::with_capacity(rects.len() + 1);
        let mut rect_corners = Vec::with_capacity(touching.len());
        let mut k = 0;
        for r in 0..rects.len() as u32 {
            corner_start.push(rect_corners.len() as u32);
            while k < touching.len() && touching[k].0 == r {
                let id = touching[k].1;
                let c = &corners[id as usize];
                rect_corners.push(RectCorner {
                    id,
                    gx: c.gx,
                    gz: c.gz,
                    taut_mask: c.taut_mask,
                    pad: [0; 3],
                });
                k += 1;
            }
        }
        corner_start.push(rect_corners.len() as u32);
        for (r, rect) in rects.iter_mut().enumerate() {
            rect.portals = [portal_start[r], portal_start[r + 1]];
            rect.contacts = [contact_start[r], contact_start[r + 1]];
            rect.corners = [corner_start[r], corner_start[r + 1]];
        }

        let mut index = TerrainIndex {
            region_ids: regions.iter().map(|r| r.id.0).collect::<Vec<_>>().into(),
            region_rect_base: region_rect_base.into(),
            tile_rect: tile_rect.into(),
            rects: rects.into(),
            portals: portals.into(),
            contacts: contacts.into(),
            rect_corners: rect_corners.into(),
            corners: corners.into(),
            corner_roots: corner_roots.into(),
            component: component.into(),
            ..TerrainIndex::default()
        };
        let (edge_start, edges, (seen_start, seen)) = graph::build(
            &index,
            &|c: &Corner, d: &Corner| edge_keeps_side(&ground, c, d),
            progress,
        );
        index.edge_start = edge_start.into();
        index.edges = edges.into();
        index.seen_start = seen_start.into();
        index.seen = seen.into();
        index.seen_blocks = graph::SeenBlocks::new(&index.corners, &index.seen);
        index.turn_cuts = TurnCuts::new(index.corners.len());
        index.table = CornerTable::build(&index).map(Arc::new);
        if index.table.is_none() {
            index.landmarks = landmarks::build(&index).into();
        }
        index.build_time = started.elapsed();
        index
    }

    /// The rectangle holding global tile (gx, gz), or [`NONE`].
    pub fn rect_at(&self, ground: &Grid<'_>, gx: i64, gz: i64) -> u32 {
        rect_at(&self.tile_rect, &self.region_rect_base, ground, gx, gz)
    }

    #[inline]
    pub fn contacts_of(&self, rect: u32) -> &[Portal] {
        let [a, b] = self.rects[rect as usize].contacts;
        &self.contacts[a as usize..b as usize]
    }

    #[inline]
    pub fn portals_of(&self, rect: u32) -> &[Portal] {
        let [a, b] = self.rects[rect as usize].portals;
        &self.portals[a as usize..b as usize]
    }

    #[inline]
    pub fn corners_of(&self, rect: u32) -> &[RectCorner] {
        let [a, b] = self.rects[rect as usize].corners;
        &self.rect_corners[a as usize..b as usize]
    }

    /// Whether [`TerrainIndex::seen_by`] answers (else start and goal need scans).
    pub fn has_seen_by(&self) -> bool {
        !self.seen_start.is_empty()
    }

    /// How the corners that see rectangle `rect` see it.
    #[inline]
    pub fn seen_by(&self, rect: u32) -> &[graph::Seen] {
        &self.seen[self.seen_range(rect)]
    }

    /// Where [`TerrainIndex::seen_by`]'s records lie in `seen`.
    #[inline]
    pub fn seen_range(&self, rect: u32) -> std::ops::Range<usize> {
        self.seen_start[rect as usize] as usize..self.seen_start[rect as usize + 1] as usize
    }

    /// Rectangle `rect`'s records of corner `c` (a rectangle's are sorted by corner): found
    /// by the blocks' first corners ([`graph::SeenBlocks::firsts`]) that lie in the
    /// rectangle's records, then in the block before the first that starts past `c`.
    pub fn seen_of(&self, rect: u32, c: u32) -> &[graph::Seen] {
        use graph::SEEN_BLOCK;
        let range = self.seen_range(rect);
        // The blocks that start in the range, and how many of them start below `c`: the
        // corner's first record lies past the last of those starts (or at the range's
        // start), and not past the next block's start.
        let blocks = range.start.div_ceil(SEEN_BLOCK)..range.end.div_ceil(SEEN_BLOCK);
        let below = self.seen_blocks.firsts[blocks.clone()].partition_point(|&f| f < c);
        let k = blocks.start + below;
        let from = if below == 0 {
            range.start
        } else {
            (k - 1) * SEEN_BLOCK
        };
        let to = if k == blocks.end {
            range.end
        } else {
            k * SEEN_BLOCK
        };
        let first = from + self.seen[from..to].partition_point(|r| r.corner < c);
        let count = self.seen[first..range.end]
            .iter()
            .take_while(|r| r.corner == c)
            .count();
        &self.seen[first..first + count]
    }

    /// The edges a bend at `corner` may leave by, as at most two runs of its edges: for a
    /// left turn (`left`) those whose direction `d` has `cross(d, e) ≤ 0` for each axis
    /// direction `e` of the corner's obstacle arc, for a right turn (`right`) `≥ 0`: the
    /// closed arc between two axes (or a half-turn, for the end of a thin wall) beyond the
    /// obstacle, cut out of the edges sorted by direction by a bisection at each end
    /// ([`graph::direction_order`]) on the corner's first expansion, then kept
    /// ([`TurnCuts`]). Every edge where both turns are asked for, or the arc is not one a
    /// build makes.
    #[inline]
    pub fn turning_edges(&self, corner: u32, left: bool, right: bool) -> [&[graph::Edge]; 2] {
        let all = self.edges_of(corner);
        let arc = self.corners[corner as usize].arc;
        let axes = arc.iter().all(|&a| a < 8 && a % 2 == 0);
        let width = arc[1].wrapping_sub(arc[0]) % 8;
        if left == right || !axes || !(width == 0 || width == 2) {
            return [if left || right { all } else { &[] }, &[]];
        }
        // In quarter turns from +x: for the arc's axis k, cross(d, e) ≤ 0 is the closed
        // half-turn from axis k to axis k + 2 (and ≥ 0 the one from k + 2 to k + 4); for two
        // axes k and k + 1, the two half-turns meet in the quarter from k + 1 to k + 2.
        let k = (usize::from(arc[0] / 2) + if right { 2 } else { 0 }) % 4;
        let (from, to) = if width == 0 {
            (k, k + 2)
        } else {
            (k + 1, k + 2)
        };
        let (from, to) = if from >= 4 {
            (from - 4, to - 4)
        } else {
            (from, to)
        };
        let c = &self.corners[corner as usize];
        // The first edge at or past axis k's direction, and the first past it.
        let at = |k: usize| {
            all.partition_point(|e| {
                graph::direction_order(graph::direction(c, e), graph::AXES[k]).is_lt()
            })
        };
        let past = |k: usize| {
            all.partition_point(|e| {
                graph::direction_order(graph::direction(c, e), graph::AXES[k]).is_le()
            })
        };
        let (start, end) = self
            .turn_cuts
            .get(corner, right, || (at(from), past(to % 4)));
        // Out of order only where a file's edges are, and then an empty run, not a panic.
        let run = |a: usize, b: usize| &all[a..b.max(a)];
        if to < 4 {
            [run(start, end), &[]]
        } else {
            [run(start, all.len()), run(0, end)]
        }
    }

    pub fn edges_of(&self, corner: u32) -> &[graph::Edge] {
        &self.edges[self.edge_start[corner as usize] as usize
            ..self.edge_start[corner as usize + 1] as usize]
    }

    /// Bytes of memory the index holds: its arrays, or the file they are views of (read into
    /// the heap, or mapped).
    pub fn heap_bytes(&self) -> usize {
        let file = self.file.as_ref().map_or(0, |(f, _)| f.memory_bytes());
        file + self.region_ids.heap_bytes()
            + self.region_rect_base.heap_bytes()
            + self.tile_rect.heap_bytes()
            + self.rects.heap_bytes()
            + self.portals.heap_bytes()
            + self.contacts.heap_bytes()
            + self.rect_corners.heap_bytes()
            + self.corners.heap_bytes()
            + self.corner_roots.heap_bytes()
            + self.component.heap_bytes()
            + self.edge_start.heap_bytes()
            + self.edges.heap_bytes()
            + self.seen_start.heap_bytes()
            + self.seen.heap_bytes()
            + self.seen_blocks.heap_bytes()
            + self.turn_cuts.heap_bytes()
            + self.table.as_ref().map_or(0, |t| t.heap_bytes())
            + self.landmarks.heap_bytes()
    }
}

/// The rectangle holding global tile (gx, gz) by the per-region tile map, or [`NONE`].
fn rect_at(
    tile_rect: &[u16],
    region_rect_base: &[u32],
    ground: &Grid<'_>,
    gx: i64,
    gz: i64,
) -> u32 {
    let Some((slot, _, x, z)) = ground.locate_slot(gx, gz) else {
        return NONE;
    };
    match tile_rect[slot * TILES_PER_SIDE * TILES_PER_SIDE + z * TILES_PER_SIDE + x] {
        u16::MAX => NONE,
        local => region_rect_base[slot] + u32::from(local),
    }
}

/// Per rectangle, the runs of its sides' tile sides with the same `across(tx, tz, dx, dz)`
/// (the neighbour across the side of tile (tx, tz) towards (dx, dz), or [`NONE`]), as
/// (`start`, `runs`) with `runs[start[r]..start[r + 1]]` for rectangle r.
/// `sight_wall((line, k), vertical)` tells whether the tile side on a line at position k
/// (`x = line`, row k when vertical; `z = line`, column k otherwise) is a wall for sight.
fn sides_of(
    rects: &[Rect],
    across: impl Fn(i64, i64, i64, i64) -> u32 + Sync,
    sight_wall: impl Fn((i64, i64), bool) -> bool + Sync,
) -> (Vec<u32>, Vec<Portal>) {
    // Runs of rectangles in parallel, each with its lengths; then one list.
    let parts: Vec<(Vec<u32>, Vec<Portal>)> = rects
        .par_chunks(1024)
        .map(|part| {
            let mut lengths = Vec::with_capacity(part.len());
            let mut runs = Vec::new();
            for r in part {
                let before = runs.len();
                sides_of_rect(r, &across, &sight_wall, &mut runs);
                lengths.push((runs.len() - before) as u32);
            }
            (lengths, runs)
        })
        .collect();
    let mut start = Vec::with_capacity(rects.len() + 1);
    let mut runs = Vec::with_capacity(parts.iter().map(|p| p.1.len()).sum());
    let mut total = 0;
    for (lengths, part) in parts {
        for n in lengths {
            start.push(total);
            total += n;
        }
        runs.extend(part);
    }
    start.push(total);
    (start, runs)
}

/// Appends the runs of one rectangle's sides (see [`sides_of`]).
fn sides_of_rect(
    r: &Rect,
    across: &impl Fn(i64, i64, i64, i64) -> u32,
    sight_wall: &impl Fn((i64, i64), bool) -> bool,
    runs: &mut Vec<Portal>,
) {
    let (x0, z0, x1, z1) = (
        i64::from(r.x0),
        i64::from(r.z0),
        i64::from(r.x1),
        i64::from(r.z1),
    );
    let sides: [(Side, i64, i64, i64); 4] = [
        (Side::West, x0, z0, z1),
        (Side::East, x1, z0, z1),
        (Side::South, z0, x0, x1),
        (Side::North, z1, x0, x1),
    ];
    for (side, line, from, to) in sides {
        // The tile inside the rectangle at position k along the side, and the step out.
        let neighbour = |k: i64| match side {
            Side::West => across(line, k, -1, 0),
            Side::East => across(line - 1, k, 1, 0),
            Side::South => across(k, line, 0, -1),
            Side::North => across(k, line - 1, 0, 1),
        };
        let mut k = from;
        while k < to {
            let to_rect = neighbour(k);
            let mut end = k + 1;
            while end < to && neighbour(end) == to_rect {
                end += 1;
            }
            if to_rect != NONE {
                // The sides continuing the line beyond the run's ends.
                let (before, after) = match side {
                    Side::West | Side::East => ((line, k - 1), (line, end)),
                    Side::South | Side::North => ((line, k - 1), (line, end)),
                };
                let vertical = matches!(side, Side::West | Side::East);
                let ends_walled = u8::from(sight_wall(before, vertical))
                    | u8::from(sight_wall(after, vertical)) << 1;
                runs.push(Portal {
                    line: line as i32,
                    lo: k as i32,
                    hi: end as i32,
                    to: to_rect,
                    side: side as u8,
                    ends_walled,
                    pad: [0; 2],
                });
            }
            k = end;
        }
    }
}

/// Splits a region's walkable tiles into rectangles with no wall inside: grow each run along
/// x, then along z while the whole run can follow.
fn cover_region(region: &Region, tiles: &mut [u16], rects: &mut Vec<Rect>) {
    let t = TILES_PER_SIDE;
    let n = HEIGHTS_PER_SIDE;
    let open = |x: usize, z: usize| region.is_open_tile(x, z);
    let vwall = |x: usize, z: usize| region.vertical_walls.get(z * n + x);
    let hwall = |z: usize, x: usize| region.horizontal_walls.get(z * t + x);
    let (bx, bz) = (
        i32::from(region.id.x()) * t as i32,
        i32::from(region.id.z()) * t as i32,
    );
    let mut local = 0u16;
    for z in 0..t {
        for x in 0..t {
            if !open(x, z) || tiles[z * t + x] != u16::MAX {
                continue;
            }
            let mut x1 = x + 1;
            while x1 < t && open(x1, z) && tiles[z * t + x1] == u16::MAX && !vwall(x1, z) {
                x1 += 1;
            }
            let mut z1 = z + 1;
            'grow: while z1 < t {
                for xx in x..x1 {
                    if !open(xx, z1) || tiles[z1 * t + xx] != u16::MAX || hwall(z1, xx) {
                        break 'grow;
                    }
                    if xx > x && vwall(xx, z1) {
                        break 'grow;
                    }
                }
                z1 += 1;
            }
            for zz in z..z1 {
                tiles[zz * t + x..zz * t + x1].fill(local);
            }
            rects.push(Rect {
                x0: bx + x as i32,
                z0: bz + z as i32,
                x1: bx + x1 as i32,
                z1: bz + z1 as i32,
                ..Rect::default()
            });
            local += 1;
        }
    }
}

/// Whether `region` examines vertex (gx, gz): the first loaded region among those of the
/// four tiles around it, in the order of [`QUADRANTS`].
fn owns(ground: &Grid<'_>, region: RegionId, gx: i64, gz: i64) -> bool {
    for (ox, oz) in QUADRANTS {
        if let Some((_, r, _, _)) = ground.locate_slot(gx + ox, gz + oz) {
            return r.id == region;
        }
    }
    false
}

/// Whether vertex (gx, gz) is a corner: its obstacle arc, taut directions, and which of its
/// quadrants (bit q of [`QUADRANTS`]) the free space through it uses.
fn classify(ground: &Grid<'_>, gx: i64, gz: i64) -> Option<((u8, u8), u8, u8)> {
    let open: [bool; 4] = QUADRANTS.map(|(ox, oz)| ground.open(gx + ox, gz + oz));
    let blocked = open.iter().filter(|o| !**o).count();
    // Wall edges on the four rays from the vertex that separate two walkable quadrants:
    // ray k (direction class 2k) lies between quadrants k−1 and k.
    let ray_wall = [
        open[3] && open[0] && ground.wall_edge_horizontal(gz, gx),
        open[0] && open[1] && ground.wall_edge_vertical(gx, gz),
        open[1] && open[2] && ground.wall_edge_horizontal(gz, gx - 1),
        open[2] && open[3] && ground.wall_edge_vertical(gx, gz - 1),
    ];
    let walls = ray_wall.iter().filter(|w| **w).count();
    let arc: (u8, u8) = match (blocked, walls) {
        (1, 0) => {
            let q = open.iter().position(|o| !*o)? as u8;
            (2 * q, (2 * q + 2) % 8)
        }
        (0, 1) => {
            let k = ray_wall.iter().position(|w| *w)? as u8;
            (2 * k, 2 * k)
        }
        (0, 2) => {
            let a = ray_wall.iter().position(|w| *w)?;
            let b = ray_wall.iter().rposition(|w| *w)?;
            match b - a {
                1 => (2 * a as u8, 2 * b as u8),
                3 => (2 * b as u8, 2 * a as u8),
                _ => return None,
            }
        }
        _ => return None,
    };
    let width = (arc.1 + 8 - arc.0) % 8;
    let mut taut_mask = 0u8;
    for k in 0..8u8 {
        let before = (arc.0 + 8 - k) % 8 < 4 - width;
        let after = (k + 8 - arc.1) % 8 < 4 - width;
        if before || after {
            taut_mask |= 1 << k;
        }
    }
    // Quadrants strictly inside the arc (between two perpendicular wall rays) are not part of
    // the free space a path turns in.
    let mut roots = 0u8;
    for q in 0..4u8 {
        let inside = width == 2 && 2 * q == arc.0 && open[q as usize] && blocked == 0;
        if open[q as usize] && !inside {
            roots |= 1 << q;
        }
    }
    Some((arc, taut_mask, roots))
}

/// Sides of a leg along a grid line, relative to its direction (see [`edge_keeps_side`]).
pub(crate) const LEFT: u8 = 1;
pub(crate) const RIGHT: u8 = 2;

/// The side a corner's bend keeps a leg leaving it in direction class `k` on (relative to
/// that direction): the outer side of a ray of a right-angled obstacle arc the leg runs
/// along; both otherwise.
pub(crate) fn fixed_side(corner: &Corner, k: u8) -> u8 {
    let [a, b] = corner.arc;
    if a == b {
        LEFT | RIGHT
    } else if k == a {
        // The arc lies counter-clockwise of the leg, on its left.
        RIGHT
    } else if k == b {
        LEFT
    } else {
        LEFT | RIGHT
    }
}

/// Walks the grid line from vertex (x0, z0) in axis direction class `k`, on the sides in
/// `sides` (relative to `k`) at the start: calls `visit(j, x, z, sides)` at each vertex
/// j = 1, 2, … with the sides a walker can be on arriving there, while sight along the line
/// goes on (a walkable tile beside each tile side, no wall across the line at a vertex) and
/// `visit` returns true. The side changes only across a tile side that is no wall with
/// walkable tiles on both sides; a walker cannot pass a vertex where a wall meets the line
/// from its side.
pub(crate) fn walk_line(
    ground: &Grid<'_>,
    (x0, z0): (i64, i64),
    k: u8,
    mut sides: u8,
    mut visit: impl FnMut(i64, i64, i64, u8) -> bool,
) {
    let (ux, uz) = [(1, 0), (0, 1), (-1, 0), (0, -1)][usize::from(k / 2 % 4)];
    // Per segment from vertex (x, z): its left and right tiles and whether it is a wall edge.
    let segment = |x: i64, z: i64| match k {
        0 => ((x, z), (x, z - 1), ground.wall_edge_horizontal(z, x)),
        2 => ((x - 1, z), (x, z), ground.wall_edge_vertical(x, z)),
        4 => (
            (x - 1, z - 1),
            (x - 1, z),
            ground.wall_edge_horizontal(z, x - 1),
        ),
        _ => (
            (x, z - 1),
            (x - 1, z - 1),
            ground.wall_edge_vertical(x, z - 1),
        ),
    };
    // Per vertex on the line: whether a wall meets it from the left, from the right.
    let across = |x: i64, z: i64| match k {
        0 => (ground.wall_vertical(x, z), ground.wall_vertical(x, z - 1)),
        2 => (
            ground.wall_horizontal(z, x - 1),
            ground.wall_horizontal(z, x),
        ),
        4 => (ground.wall_vertical(x, z - 1), ground.wall_vertical(x, z)),
        _ => (
            ground.wall_horizontal(z, x),
            ground.wall_horizontal(z, x - 1),
        ),
    };
    let (mut x, mut z) = (x0, z0);
    for j in 1.. {
        let (l, r, wall) = segment(x, z);
        let open = if ground.open(l.0, l.1) { LEFT } else { 0 }
            | if ground.open(r.0, r.1) { RIGHT } else { 0 };
        if open == 0 {
            return;
        }
        sides &= open;
        if sides != 0 && open == LEFT | RIGHT && !wall {
            sides = LEFT | RIGHT;
        }
        (x, z) = (x + ux, z + uz);
        if !visit(j, x, z, sides) {
            return;
        }
        let (left, right) = across(x, z);
        if left && right {
            return;
        }
        if left {
            sides &= !LEFT;
        }
        if right {
            sides &= !RIGHT;
        }
    }
}

/// Seen from the other end, a leg's left is its right.
#[inline]
pub(crate) fn swap_sides(sides: u8) -> u8 {
    ((sides & LEFT) << 1) | ((sides & RIGHT) >> 1)
}

/// Whether a path may use the edge between corners `c` and `d` without crossing a wall: true
/// unless the edge runs along a grid line and no side of it works.
///
/// A leg along a grid line may run along thin walls (wall edges between two walkable tiles),
/// and sight along it passes whichever side is open. A path, though, is on one side of such a
/// wall: where a corner's obstacle arc spans a right angle and the leg leaves along one of its
/// rays, a taut bend there keeps the leg on the outer side of that ray (away from the arc),
/// and the side must stay open along the leg ([`walk_line`]). A corner at the end of a single
/// thin wall does not fix the side (that depends on the other leg of the bend).
pub(crate) fn edge_keeps_side(ground: &Grid<'_>, c: &Corner, d: &Corner) -> bool {
    let Some(k) = direction_class(c.point(), d.point()) else {
        return true;
    };
    if k % 2 == 1 {
        return true;
    }
    let steps = i64::from((d.gx - c.gx).abs() + (d.gz - c.gz).abs());
    let back = swap_sides(fixed_side(d, (k + 4) % 8));
    let mut keeps = false;
    let start = (i64::from(c.gx), i64::from(c.gz));
    walk_line(ground, start, k, fixed_side(c, k), |j, _, _, sides| {
        if j == steps {
            keeps = sides & back != 0;
        }
        j < steps && sides != 0
    });
    keeps
}

/// Per corner, the two ends of its run of edges for a left turn and for a right one
/// ([`TerrainIndex::turning_edges`]), as offsets in its edges, found by bisections on the corner's
/// first expansion and kept: searches expand the same corners again and again, and each
/// bisection touches as many cache lines as the run, while finding them for every corner when
/// an index file is read would delay a big world's first path query (the measurements:
/// `docs/design/paths.md`). Each corner's are one
/// `AtomicU64` of four 16-bit lanes, each offset plus one (0: not found yet), so that the
/// searches of many threads share them; two threads finding the same corner's store the
/// same value. A run that ends 65,535 edges or more into its corner's is not kept (bisected
/// each time).
#[derive(Default)]
pub(crate) struct TurnCuts(Box<[AtomicU64]>);

impl TurnCuts {
    pub(super) fn new(corners: usize) -> TurnCuts {
        TurnCuts((0..corners).map(|_| AtomicU64::new(0)).collect())
    }

    /// The ends of corner `corner`'s run for a right turn (`right`) or a left one, from
    /// `find` (the ends of the run asked for) the first time each is asked.
    #[inline]
    fn get(
        &self,
        corner: u32,
        right: bool,
        find: impl FnOnce() -> (usize, usize),
    ) -> (usize, usize) {
        let Some(slot) = self.0.get(corner as usize) else {
            return find();
        };
        let shift = if right { 32 } else { 0 };
        let kept = slot.load(Ordering::Relaxed) >> shift;
        let (a, b) = (kept & 0xffff, (kept >> 16) & 0xffff);
        if a != 0 && b != 0 {
            return (a as usize - 1, b as usize - 1);
        }
        let (a, b) = find();
        if a < 0xffff && b < 0xffff {
            let lanes = ((a as u64 + 1) | ((b as u64 + 1) << 16)) << shift;
            slot.fetch_or(lanes, Ordering::Relaxed);
        }
        (a, b)
    }

    fn heap_bytes(&self) -> usize {
        self.0.len() * std::mem::size_of::<AtomicU64>()
    }
}

impl Clone for TurnCuts {
    fn clone(&self) -> TurnCuts {
        TurnCuts(
            self.0
                .iter()
                .map(|a| AtomicU64::new(a.load(Ordering::Relaxed)))
                .collect(),
        )
    }
}

/// The Z-order of a vertex at (`x`, `z`) in its region (0 to [`N`]): the bits of the two
/// coordinates interleaved, x's in the even places.
fn z_order(x: i64, z: i64) -> u32 {
    let spread = |v: i64| {
        let mut v = (v as u32) & 0xff;
        v = (v | (v << 4)) & 0x0f0f;
        v = (v | (v << 2)) & 0x3333;
        (v | (v << 1)) & 0x5555
    };
    spread(x) | (spread(z) << 1)
}

#[cfg(test)]
mod tests {
    use super::{z_order, N};

    /// The coordinates' bits interleaved, each vertex of a region its own number, and the
    /// four vertices of an aligned 2 × 2 square numbered one after the other.
    #[test]
    fn z_order_interleaves_the_coordinates_bits() {
        assert_eq!(z_order(1, 0), 1);
        assert_eq!(z_order(0, 1), 2);
        assert_eq!(z_order(0b101, 0b011), 0b01_1011);
        let mut keys: Vec<u32> = (0..=N)
            .flat_map(|z| (0..=N).map(move |x| z_order(x, z)))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), ((N + 1) * (N + 1)) as usize);
        for (x, z) in [(0, 0), (6, 10), (94, 2)] {
            let first = z_order(x, z);
            let square = [(x + 1, z), (x, z + 1), (x + 1, z + 1)].map(|(x, z)| z_order(x, z));
            assert_eq!(square, [first + 1, first + 2, first + 3], "({x}, {z})");
        }
    }
}
