//! An object's navmesh as the game server holds and walks it, in the object's own frame.
//!
//! [`ServerMesh::new`] keeps what the server's loader keeps: vertices with the direction their
//! normal byte names, triangles with their centre, their plane (from the normalised cross
//! product of two sides, through the first vertex) and their height plane (the server's
//! `Plane_FromPoints` of the first, third and second vertex), each triangle's first three edges
//! in load order (outline edges first, then inline; for each edge its cell A, then its cell B),
//! the outline grid, and whether the mesh only marks an event (a single event named `event` or
//! `EVENT` on a two-cell mesh). A mesh the server's loader refuses (a vertex, cell or grid
//! index out of range) is refused here too, with the reason.
//!
//! The queries are the server's, step for step ([`crate::geometry::server_arith`]):
//! - [`ServerMesh::find_cell`]: of the triangles containing a point (its `IsInside`: the
//!   height from the triangle's plane, then three dot products in 3-D), the one whose height
//!   is closest to the point's y, the first on a tie. A triangle whose normal is zero (a
//!   degenerate one) contains every point at height 0, as in the server.
//! - [`ServerMesh::object_move`]: the mesh's `Move`. From outside (the walker on the terrain)
//!   the outline grid gives the crossed outline edge nearest to the start (edges with 0x10
//!   are passed under); flag 0x01 refuses entry when the walk checks objects (the
//!   server's `nFlag == 1`); otherwise the walker enters the edge's cell, 0.2 inside. From a
//!   triangle, the walk goes cell by cell ([`ServerMesh::walk_cells`]).
//! - [`ServerMesh::find_link_entry_cell`]: where a walker carried over a link edge lands.
//!
//! Event zones fire nothing here, as in the reconstructed server (its callbacks are not
//! part of the navigation code); so they never stop a walk.
//!
//! A local lookup grid lists, per bucket, the triangles whose box (widened by
//! [`LOOKUP_MARGIN`]) meets it, in index order; triangles whose containment cannot be bounded
//! that way (steep or degenerate ones, non-finite data) are tested for every point. So a
//! lookup tests a handful of triangles and still answers exactly what a scan of all of them
//! in index order answers. A point outside a listed triangle's widened box skips its test.
//! The placements of a region add two coarser filters in world space
//! ([`super::Placement::may_contain`], [`super::TileObjects`]), so a point far from every
//! object tests none.

use crate::geometry::server_arith::{
    self as arith, intersect, nudge, plane_from_points, plane_height, push_off, Line, Plane, Vec2,
    Vec3,
};
use jmxv::bms::NavSection;

/// Edge flag bits of object meshes, as the server tests them.
pub(crate) mod flag {
    /// Outline: refuses entry (when the walk checks objects). Inline: blocks cell B → A.
    pub const BLOCK_B_TO_A: u8 = 0x01;
    /// Inline: blocks cell A → B.
    pub const BLOCK_A_TO_B: u8 = 0x02;
    /// Marks an edge between two cells of the mesh; without it the edge leaves the mesh.
    pub const INTERNAL: u8 = 0x04;
    /// A link to another object's edge.
    pub const LINK: u8 = 0x08;
    /// Passed under from the terrain (bridge sides).
    pub const UNDERPASS: u8 = 0x10;
    /// Leaving through an edge with any of these bits is refused (when the walk checks
    /// objects).
    pub const NO_EXIT: u8 = 0x12;
    /// A railing: reported, never blocking.
    pub const RAILING: u8 = 0x20;
    /// A siege gate.
    pub const SIEGE: u8 = 0x80;
}

/// Result bits of the server's moves.
pub(crate) mod bits {
    /// Blocked.
    pub const BLOCKED: u32 = 0x1;
    /// Left an object through a link edge.
    pub const LINK: u32 = 0x2;
    /// Entered an object cell.
    pub const ENTERED: u32 = 0x4;
    /// Crossed a railing edge.
    pub const RAILING: u32 = 0x8;
    /// Left the object.
    pub const LEFT: u32 = 0x10;
    /// The step budget ran out.
    pub const STEPS: u32 = 0x20;
    /// Crossed a siege-gate edge.
    pub const SIEGE: u32 = 0x80;
    /// On a mesh with the siege option.
    pub const SIEGE_OBJECT: u32 = 0x100;
    /// The move failed.
    pub const FAILED: u32 = 0x1000_0000;
    /// No object cell where one was expected.
    pub const NO_OBJECT_CELL: u32 = 0x2000_0000;
}

/// How much wider than a triangle's box its lookup buckets are: far more than the float
/// rounding of the containment test for the triangles the grid holds (under 0.001 units at
/// object scale), so a point a triangle contains is always in one of its buckets.
pub const LOOKUP_MARGIN: f32 = 1.0;

/// Triangles less steep than this (the y of their unit normal) are looked up through the grid;
/// steeper ones are tested for every point, since their float containment test can accept
/// points well outside their box.
const GRID_MIN_NORMAL_Y: f32 = 0.25;

/// Buckets along each side of a mesh's lookup grid, at most.
const LOOKUP_SIDE: usize = 64;

/// An edge of the mesh: which list (0 outline, 1 inline) and which index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct EdgeKey {
    pub group: u8,
    pub index: u32,
}

/// A vertex: its position and the direction a blocked point is pushed along near it.
#[derive(Debug, Clone, Copy)]
struct Vertex {
    pos: Vec3,
    dir: Vec2,
}

/// A triangle as the server caches it.
#[derive(Debug, Clone)]
struct Tri {
    vertices: [u32; 3],
    centre: Vec2,
    normal: Vec3,
    plane: Plane,
    height_plane: Plane,
    edges: [Option<EdgeKey>; 3],
}

/// A triangle's corners, the inward normal of each side and its plane: all
/// [`ServerMesh::is_inside`] reads.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(32))]
struct InsideTri {
    v: [Vec3; 3],
    /// Per side `i` (corner `i` to corner `i + 1`), the side's direction crossed with the
    /// triangle's unit normal, in double, rounded to float: the server computes it at every
    /// test from the same floats, so computing it once gives the same bits.
    side_normals: [Vec3; 3],
    plane: Plane,
}

impl InsideTri {
    fn new(v: [Vec3; 3], normal: Vec3, plane: Plane) -> InsideTri {
        let n = normal.map(f64::from);
        let side_normals = [0, 1, 2].map(|i| {
            let e = arith::sub3(v[(i + 1) % 3], v[i]).map(f64::from);
            [
                (e[2] * n[1] - e[1] * n[2]) as f32,
                (e[0] * n[2] - e[2] * n[0]) as f32,
                (e[1] * n[0] - e[0] * n[1]) as f32,
            ]
        });
        InsideTri {
            v,
            side_normals,
            plane,
        }
    }
}

/// An edge as the server keeps it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Edge {
    pub line: Line,
    vertices: [u32; 2],
    pub cell_a: u32,
    pub cell_b: Option<u32>,
    pub flag: u8,
    /// The side of the edge's line that cell A, then cell B, lies on ([`inner_side`]),
    /// worked out once: a walk asks at every edge it meets, and two of a cell's corners lie
    /// on the line, where the exact test is slow.
    inner: [i8; 2],
}

/// The side of line `a → b` the triangle with corners `v` lies on: the sign of the first
/// corner off the line (1 left, −1 right), 0 when none is (all on it, or not comparable).
pub(crate) fn inner_side(a: [f64; 2], b: [f64; 2], v: [[f64; 2]; 3]) -> i8 {
    use crate::geometry::{orient, sign};
    v.iter()
        .map(|&p| sign(orient(a, b, p)))
        .find(|&s| s != 0)
        .unwrap_or(0)
}

/// The outline grid: 100-unit tiles of outline edge indices.
#[derive(Debug, Clone, Default)]
struct OutlineGrid {
    origin: Vec2,
    width: i32,
    height: i32,
    tiles: Vec<Vec<u16>>,
}

/// The triangle lookup (see the module docs).
#[derive(Debug, Clone, Default)]
struct Lookup {
    origin: [f64; 2],
    /// One over a bucket's side.
    inverse: f64,
    side: [usize; 2],
    start: Vec<u32>,
    items: Vec<LookupItem>,
    everywhere: Vec<u32>,
    /// The box (min x, min z, max x, max z, widened by [`LOOKUP_MARGIN`]) of every gridded
    /// triangle, empty when there is none; `None` when a triangle is tested everywhere.
    bounds: Option<[f32; 4]>,
}

/// A triangle in a lookup bucket, with its widened box (min x, min z, max x, max z): a point
/// outside the box is outside the triangle.
#[derive(Debug, Clone, Copy)]
struct LookupItem {
    tri: u32,
    bounds: [f32; 4],
}

/// The step budget and the link edge of a move, shared by the moves of one query (the
/// server's move context).
#[derive(Debug, Clone, Copy)]
pub(crate) struct MoveContext {
    pub steps_left: u32,
    pub link_edge: u32,
    /// The edge that last blocked a walk (for reports; the server keeps none).
    pub blocked_by: Option<EdgeKey>,
    /// Whether a walk was given up without repeating itself ([`LoopWatch`]).
    pub gave_up: bool,
}

impl MoveContext {
    pub fn new(steps: u32) -> MoveContext {
        MoveContext {
            steps_left: steps,
            link_edge: 0,
            blocked_by: None,
            gave_up: false,
        }
    }
}

/// The server's step budget of a movement query: cell crossings, terrain and object alike.
pub const SERVER_BUDGET: u32 = 0x7FFF_FFFF;

/// After this many crossings in one walk (more than any walk across a real world makes) the
/// walk is watched for a repeated state.
pub const LOOP_WATCH_AFTER: u32 = 1 << 17;

/// How many states a watched walk may pass through without repeating one before it is given
/// up: a walk this long that never repeats itself is none the server could make either.
pub const LOOP_WATCH_LIMIT: u32 = 1 << 20;

/// Finds the cycle of a walk that circles forever (around a vertex where each cell sends it
/// into the next), so that it can be jumped to where the server's budget runs out: the walk
/// is deterministic, so from a repeated state with period `p` the server's last crossing is
/// `steps_left mod p` crossings ahead.
#[derive(Debug, Default)]
pub(crate) struct LoopWatch {
    crossings: u32,
    seen: std::collections::HashMap<Vec<u32>, u32>,
    jumped: bool,
}

impl LoopWatch {
    /// Called before each crossing with the walk's state; shortens `steps_left` to the
    /// server's remaining crossings modulo the cycle once one is found. `Err` when the walk
    /// has gone on too long without repeating itself.
    pub fn step(
        &mut self,
        state: impl FnOnce() -> Vec<u32>,
        steps_left: &mut u32,
    ) -> Result<(), ()> {
        self.crossings += 1;
        if self.jumped || self.crossings <= LOOP_WATCH_AFTER {
            return Ok(());
        }
        let state = state();
        if let Some(&first) = self.seen.get(&state) {
            *steps_left %= self.crossings - first;
            self.jumped = true;
            self.seen = std::collections::HashMap::new();
            return Ok(());
        }
        if self.seen.len() as u32 >= LOOP_WATCH_LIMIT {
            return Err(());
        }
        self.seen.insert(state, self.crossings);
        Ok(())
    }
}

/// Where an object's `Move` leaves the walker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ObjectEnd {
    /// On this triangle of the mesh.
    Tri(u32),
    /// Off the mesh (left through an outline or link edge).
    Left,
    /// On the cell the walker started on (nothing crossed, or entry refused).
    Source,
}

/// An object's navmesh as the server holds it.
#[derive(Debug, Clone)]
pub(crate) struct ServerMesh {
    vertices: Vec<Vertex>,
    tris: Vec<Tri>,
    /// What the containment test reads of each triangle, in one cache line (copies of the
    /// vertices', normal's and plane's floats: the same numbers, so the same answers).
    inside: Vec<InsideTri>,
    edges: [Vec<Edge>; 2],
    grid: OutlineGrid,
    lookup: Lookup,
    /// A single `event` zone on two cells: the server walks the terrain first.
    pub event_only: bool,
    /// The mesh's navigation flags (bit 3: a siege object).
    pub options: u32,
}

/// The heap bytes of a vector's storage.
fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

impl ServerMesh {
    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        vec_bytes(&self.vertices)
            + vec_bytes(&self.tris)
            + vec_bytes(&self.inside)
            + self.edges.iter().map(vec_bytes).sum::<usize>()
            + vec_bytes(&self.grid.tiles)
            + self.grid.tiles.iter().map(vec_bytes).sum::<usize>()
            + vec_bytes(&self.lookup.start)
            + vec_bytes(&self.lookup.items)
            + vec_bytes(&self.lookup.everywhere)
    }

    /// The mesh as the server loads it, or why the server's loader refuses it.
    pub fn new(nav: &NavSection, nav_flags: u32) -> Result<ServerMesh, String> {
        let vertex_count = nav.vertices.len();
        let vertices: Vec<Vertex> = nav
            .vertices
            .iter()
            .map(|v| Vertex {
                pos: v.position.map(|c| c.get()),
                dir: arith::vertex_direction(v.normal),
            })
            .collect();
        let cell_count = nav.cells.len();
        if cell_count > 1 << 16 {
            return Err(format!(
                "{cell_count} cells: silknav names object cells by 16-bit index"
            ));
        }
        let mut tris = Vec::with_capacity(cell_count);
        for (i, c) in nav.cells.iter().enumerate() {
            if let Some(&k) = c.vertices.iter().find(|&&k| usize::from(k) >= vertex_count) {
                return Err(format!(
                    "cell {i} names vertex {k} of {vertex_count}; the server refuses the mesh"
                ));
            }
            let v = c.vertices.map(|k| vertices[usize::from(k)].pos);
            let centre = [0, 2].map(|k| {
                ((f64::from(v[0][k]) + f64::from(v[1][k]) + f64::from(v[2][k])) / 3.0) as f32
            });
            let e2 = arith::sub3(v[2], v[0]);
            let e1 = arith::sub3(v[1], v[0]);
            let (e1, e2) = (e1.map(f64::from), e2.map(f64::from));
            let normal = arith::normalize3([
                (e2[2] * e1[1] - e1[2] * e2[1]) as f32,
                (e1[2] * e2[0] - e2[2] * e1[0]) as f32,
                (e2[1] * e1[0] - e2[0] * e1[1]) as f32,
            ]);
            let d = -(f64::from(normal[0]) * f64::from(v[0][0])
                + f64::from(v[0][1]) * f64::from(normal[1])
                + f64::from(v[0][2]) * f64::from(normal[2]));
            tris.push(Tri {
                vertices: c.vertices.map(u32::from),
                centre,
                normal,
                plane: [normal[0], normal[1], normal[2], d as f32],
                height_plane: plane_from_points(v[0], v[2], v[1]),
                edges: [None; 3],
            });
        }
        let mut edges: [Vec<Edge>; 2] = [Vec::new(), Vec::new()];
        let mut added = vec![0u8; cell_count];
        let lists = [&nav.outline_edges, &nav.inline_edges];
        for (group, list) in lists.into_iter().enumerate() {
            let name = ["outline", "inline"][group];
            for (i, e) in list.iter().enumerate() {
                let [ca, cb] = e.cells.map(usize::from);
                let cb_none = e.cells[1] == jmxv::bms::NO_CELL;
                if ca >= cell_count || (!cb_none && cb >= cell_count) {
                    return Err(format!(
                        "{name} edge {i} names a cell out of range ({} cells); the server refuses the mesh",
                        cell_count
                    ));
                }
                if let Some(&k) = e.vertices.iter().find(|&&k| usize::from(k) >= vertex_count) {
                    return Err(format!(
                        "{name} edge {i} names vertex {k} of {vertex_count}; the server refuses the mesh"
                    ));
                }
                let key = EdgeKey {
                    group: group as u8,
                    index: i as u32,
                };
                // The server keeps up to four edges per triangle and walks the first three.
                let mut add = |c: usize| {
                    if usize::from(added[c]) < 3 {
                        tris[c].edges[usize::from(added[c])] = Some(key);
                    }
                    added[c] = added[c].saturating_add(1);
                };
                add(ca);
                if !cb_none {
                    add(cb);
                }
                let [a, b] = e.vertices.map(|k| vertices[usize::from(k)].pos);
                edges[group].push(Edge {
                    line: [a[0], a[2], b[0], b[2]],
                    vertices: e.vertices.map(u32::from),
                    cell_a: ca as u32,
                    cell_b: (!cb_none).then_some(cb as u32),
                    flag: e.flag,
                    inner: [0; 2],
                });
            }
        }
        let outline_count = edges[0].len();
        for (t, tile) in nav.grid.tiles.iter().enumerate() {
            if let Some(&k) = tile.iter().find(|&&k| usize::from(k) >= outline_count) {
                return Err(format!(
                    "grid tile {t} names outline edge {k} of {outline_count}; the server refuses the mesh"
                ));
            }
        }
        let grid = OutlineGrid {
            origin: nav.grid.origin.map(|c| c.get()),
            width: nav.grid.width,
            height: nav.grid.height,
            tiles: nav.grid.tiles.clone(),
        };
        let event_only = nav.event_names.len() == 1
            && cell_count == 2
            && matches!(nav.event_names[0].as_slice(), b"event" | b"EVENT");
        let inside = tris
            .iter()
            .map(|t: &Tri| {
                InsideTri::new(
                    t.vertices.map(|k| vertices[k as usize].pos),
                    t.normal,
                    t.plane,
                )
            })
            .collect();
        let mut mesh = ServerMesh {
            vertices,
            tris,
            inside,
            edges,
            grid,
            lookup: Lookup::default(),
            event_only,
            options: nav_flags,
        };
        mesh.lookup = mesh.build_lookup();
        for group in 0..2 {
            for k in 0..mesh.edges[group].len() {
                let e = mesh.edges[group][k];
                let key = EdgeKey {
                    group: group as u8,
                    index: k as u32,
                };
                let [a, b] = mesh.edge_xz(key);
                let side = |cell: Option<u32>| {
                    cell.filter(|&c| mesh.has_tri(c))
                        .map_or(0, |c| inner_side(a, b, mesh.tri_xz(c)))
                };
                mesh.edges[group][k].inner = [side(Some(e.cell_a)), side(e.cell_b)];
            }
        }
        Ok(mesh)
    }

    /// The side of edge `key`'s line that triangle `tri` lies on ([`inner_side`]).
    pub fn cell_inner_side(&self, key: EdgeKey, tri: u32) -> i8 {
        let e = self.edge(key);
        if tri == e.cell_a {
            e.inner[0]
        } else if Some(tri) == e.cell_b {
            e.inner[1]
        } else {
            let [a, b] = self.edge_xz(key);
            inner_side(a, b, self.tri_xz(tri))
        }
    }

    /// An edge by key.
    pub fn edge(&self, key: EdgeKey) -> &Edge {
        &self.edges[usize::from(key.group)][key.index as usize]
    }

    fn tri_pos(&self, t: &Tri) -> [Vec3; 3] {
        t.vertices.map(|k| self.vertices[k as usize].pos)
    }

    fn build_lookup(&self) -> Lookup {
        let mut boxes: Vec<Option<[f32; 4]>> = Vec::with_capacity(self.tris.len());
        let mut everywhere = Vec::new();
        let (mut lo, mut hi) = ([f32::MAX; 2], [f32::MIN; 2]);
        for (i, t) in self.tris.iter().enumerate() {
            let v = self.tri_pos(t);
            let finite = v.iter().flatten().chain(&t.plane).all(|c| c.is_finite());
            if !finite || t.normal[1].abs() < GRID_MIN_NORMAL_Y {
                everywhere.push(i as u32);
                boxes.push(None);
                continue;
            }
            let b = [
                v.iter().map(|p| p[0]).fold(f32::MAX, f32::min) - LOOKUP_MARGIN,
                v.iter().map(|p| p[2]).fold(f32::MAX, f32::min) - LOOKUP_MARGIN,
                v.iter().map(|p| p[0]).fold(f32::MIN, f32::max) + LOOKUP_MARGIN,
                v.iter().map(|p| p[2]).fold(f32::MIN, f32::max) + LOOKUP_MARGIN,
            ];
            lo = [lo[0].min(b[0]), lo[1].min(b[1])];
            hi = [hi[0].max(b[2]), hi[1].max(b[3])];
            boxes.push(Some(b));
        }
        let bounds = everywhere
            .is_empty()
            .then_some([lo[0], lo[1], hi[0], hi[1]]);
        if lo[0] > hi[0] {
            return Lookup {
                everywhere,
                bounds,
                ..Lookup::default()
            };
        }
        let extent = f64::from((hi[0] - lo[0]).max(hi[1] - lo[1]));
        let size = (extent / LOOKUP_SIDE as f64).max(4.0);
        let side = [0, 1].map(|k| {
            (((f64::from(hi[k]) - f64::from(lo[k])) / size).floor() as usize + 1).min(LOOKUP_SIDE)
        });
        let origin = [f64::from(lo[0]), f64::from(lo[1])];
        let bucket = |v: f32, k: usize| {
            (((f64::from(v) - origin[k]) / size).floor().max(0.0) as usize).min(side[k] - 1)
        };
        let mut lists = vec![Vec::new(); side[0] * side[1]];
        for (i, b) in boxes.iter().enumerate() {
            let Some(b) = b else { continue };
            for bz in bucket(b[1], 1)..=bucket(b[3], 1) {
                for bx in bucket(b[0], 0)..=bucket(b[2], 0) {
                    lists[bz * side[0] + bx].push(LookupItem {
                        tri: i as u32,
                        bounds: *b,
                    });
                }
            }
        }
        let mut start = Vec::with_capacity(lists.len() + 1);
        let mut items = Vec::new();
        for l in lists {
            start.push(items.len() as u32);
            items.extend(l);
        }
        start.push(items.len() as u32);
        Lookup {
            origin,
            inverse: 1.0 / size,
            side,
            start,
            items,
            everywhere,
            bounds,
        }
    }

    /// A local box (min x, min z, max x, max z) outside which no triangle contains a point
    /// (empty, min above max, for a mesh without triangles); `None` when some triangle's float
    /// test cannot be bounded so (a steep or damaged one).
    pub fn xz_bounds(&self) -> Option<[f32; 4]> {
        self.lookup.bounds
    }

    /// Bounds (low, high) on the local height [`ServerMesh::find_cell`] can answer: each
    /// gridded triangle's plane over its widened box, with a margin for rounding; `None` when
    /// a triangle is tested everywhere, the mesh has no triangle, or a bound is not finite.
    pub fn height_range(&self) -> Option<[f32; 2]> {
        let l = &self.lookup;
        if !l.everywhere.is_empty() {
            return None;
        }
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for item in &l.items {
            let [x0, z0, x1, z1] = item.bounds;
            let plane = &self.inside[item.tri as usize].plane;
            // The plane is linear: its extremes over the box are at the corners.
            for (x, z) in [(x0, z0), (x0, z1), (x1, z0), (x1, z1)] {
                let y = f64::from(arith::plane_height(plane, x, z));
                lo = lo.min(y);
                hi = hi.max(y);
            }
        }
        let margin = |y: f64| 1e-3 + 1e-5 * y.abs();
        let range = [(lo - margin(lo)) as f32, (hi + margin(hi)) as f32];
        (range[0].is_finite() && range[1].is_finite()).then_some(range)
    }

    /// Calls `f` with every triangle that may contain local (x, z), in index order: every
    /// triangle that contains it among them.
    #[inline]
    fn candidates(&self, x: f32, z: f32, mut f: impl FnMut(u32)) {
        let l = &self.lookup;
        let grid: &[LookupItem] = if !(x.is_finite() && z.is_finite()) {
            // Not a point any placement gives; the scan keeps the answer exact.
            for i in 0..self.tris.len() as u32 {
                f(i);
            }
            return;
        } else if l.side[0] == 0 {
            &[]
        } else {
            // The bucket by the reciprocal: a point within rounding of a bucket's side may be
            // looked up in its neighbour, which lists the same triangles near the point (their
            // boxes are widened far more than that).
            let bx = (f64::from(x) - l.origin[0]) * l.inverse;
            let bz = (f64::from(z) - l.origin[1]) * l.inverse;
            if bx >= 0.0 && bz >= 0.0 && (bx as usize) < l.side[0] && (bz as usize) < l.side[1] {
                let b = bz as usize * l.side[0] + bx as usize;
                &l.items[l.start[b] as usize..l.start[b + 1] as usize]
            } else {
                &[]
            }
        };
        let outside = |b: &[f32; 4]| x < b[0] || z < b[1] || x > b[2] || z > b[3];
        let every = &l.everywhere;
        if every.is_empty() {
            for item in grid {
                if !outside(&item.bounds) {
                    f(item.tri);
                }
            }
            return;
        }
        // Both lists ascend: merge them.
        let (mut i, mut j) = (0, 0);
        while i < grid.len() || j < every.len() {
            if j == every.len() || (i < grid.len() && grid[i].tri < every[j]) {
                if !outside(&grid[i].bounds) {
                    f(grid[i].tri);
                }
                i += 1;
            } else {
                f(every[j]);
                j += 1;
            }
        }
    }

    /// The server's `IsInside` of a triangle at local (x, z): whether it contains the point,
    /// and the height of the triangle's plane there (computed either way).
    #[inline]
    pub fn is_inside(&self, tri: u32, x: f32, z: f32) -> (bool, f32) {
        let t = &self.inside[tri as usize];
        let y = plane_height(&t.plane, x, z);
        let p = [x, y, z];
        for (&from, &c) in t.v.iter().zip(&t.side_normals) {
            let wv = arith::sub3(p, from).map(f64::from);
            let dot = (wv[1] * f64::from(c[1]) + wv[0] * f64::from(c[0]) + wv[2] * f64::from(c[2]))
                as f32;
            if dot < 0.0 {
                return (false, y);
            }
        }
        (true, y)
    }

    /// The height of a triangle's plane at local (x, z), as the server's `IsInside` computes
    /// it (without its containment test).
    #[inline]
    pub fn inside_height(&self, tri: u32, x: f32, z: f32) -> f32 {
        plane_height(&self.inside[tri as usize].plane, x, z)
    }

    /// The plane of a triangle the server's containment test computes its height by.
    pub fn inside_plane(&self, tri: u32) -> Plane {
        self.inside[tri as usize].plane
    }

    /// The server's `ApplyHeight`: the height plane's height at local (x, z).
    #[inline]
    pub fn apply_height(&self, tri: u32, x: f32, z: f32) -> f32 {
        plane_height(&self.tris[tri as usize].height_plane, x, z)
    }

    /// A triangle's corners, local x and z, in double.
    pub fn tri_xz(&self, tri: u32) -> [[f64; 2]; 3] {
        self.tri_pos(&self.tris[tri as usize])
            .map(|p| [f64::from(p[0]), f64::from(p[2])])
    }

    /// The edges a walk on a triangle can cross: its first three, in load order.
    pub fn tri_edges(&self, tri: u32) -> [Option<EdgeKey>; 3] {
        self.tris[tri as usize].edges
    }

    /// Number of triangles.
    pub fn tri_count(&self) -> usize {
        self.tris.len()
    }

    /// Whether a triangle index exists.
    pub fn has_tri(&self, tri: u32) -> bool {
        (tri as usize) < self.tris.len()
    }

    /// An edge's ends, local x and z, in double.
    pub fn edge_xz(&self, key: EdgeKey) -> [[f64; 2]; 2] {
        let l = self.edge(key).line;
        [
            [f64::from(l[0]), f64::from(l[1])],
            [f64::from(l[2]), f64::from(l[3])],
        ]
    }

    /// The number of outline edges.
    pub fn outline_count(&self) -> usize {
        self.edges[0].len()
    }

    /// The number of inline edges.
    pub fn inline_count(&self) -> usize {
        self.edges[1].len()
    }

    /// Calls `f` with every outline edge the server's grid lists in the tiles between local
    /// points `a` and `b` (as its `CrossGrid` picks them: `trunc((p − origin) / 100)`, clamped;
    /// an edge listed in several tiles comes several times).
    pub fn outline_between(&self, a: [f64; 2], b: [f64; 2], mut f: impl FnMut(u32)) {
        let g = &self.grid;
        let tile = |v: f64, origin: f32| ((v - f64::from(origin)) / 100.0) as i32;
        let clamp = |v: i32, hi: i32| v.max(0).min(hi - 1);
        let len = g.tiles.len() as i64;
        if len == 0 || g.width <= 0 {
            return;
        }
        let (xa, xb) = (
            clamp(tile(a[0], g.origin[0]), g.width),
            clamp(tile(b[0], g.origin[0]), g.width),
        );
        let (za, zb) = (
            clamp(tile(a[1], g.origin[1]), g.height),
            clamp(tile(b[1], g.origin[1]), g.height),
        );
        let z1 = i64::from(za.max(zb)).min((len - 1) / i64::from(g.width));
        let x1 = i64::from(xa.max(xb)).min(len - 1);
        for nz in i64::from(za.min(zb))..=z1 {
            for nx in i64::from(xa.min(xb))..=x1 {
                if nx < 0 || nz < 0 || nx >= i64::from(g.width) || nz >= i64::from(g.height) {
                    continue;
                }
                let t = i64::from(g.width) * nz + nx;
                if t < len {
                    for &k in &g.tiles[t as usize] {
                        f(u32::from(k));
                    }
                }
            }
        }
    }

    /// The cell on the other side of `key` from `tri` (the server's `GetOtherCell`).
    pub fn across(&self, key: EdgeKey, tri: u32) -> Option<u32> {
        ServerMesh::other_cell(self.edge(key), Some(tri))
    }

    /// The centre of a triangle (local x, z).
    pub fn centre(&self, tri: u32) -> Vec2 {
        self.tris[tri as usize].centre
    }

    /// The server's `FindCell` at a local point: the containing triangle whose height is
    /// closest to the point's y (the first on a tie), with that height.
    pub fn find_cell(&self, local: Vec3) -> Option<(u32, f32)> {
        let mut best_diff = -1.0f32;
        let mut best = None;
        self.candidates(local[0], local[2], |t| {
            let (inside, y) = self.is_inside(t, local[0], local[2]);
            if !inside {
                return;
            }
            let diff = (y - local[1]).abs();
            if diff < best_diff || 0.0 > best_diff {
                best_diff = diff;
                best = Some((t, y));
            }
        });
        best
    }

    /// The triangles that may contain a point of the local convex quad `quad`: all but those
    /// that leave it out by at least `margin` (a side of one or the other separates them), in
    /// index order, with their corners (local x, y, z); `None` when the mesh has triangles its
    /// lookup cannot bound (tested for every point).
    pub fn triangles_near(
        &self,
        quad: &[[f64; 2]; 4],
        margin: f64,
    ) -> Option<Vec<(u32, [Vec3; 3])>> {
        let l = &self.lookup;
        if !l.everywhere.is_empty() {
            return None;
        }
        let mut out = Vec::new();
        if l.side[0] == 0 {
            return Some(out);
        }
        let lo = [0, 1].map(|k| quad.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min));
        let hi = [0, 1].map(|k| quad.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max));
        if !(lo.iter().chain(&hi).all(|v| v.is_finite())) {
            return None;
        }
        let bucket = |v: f64, k: usize| {
            ((v - l.origin[k]) * l.inverse)
                .floor()
                .clamp(0.0, (l.side[k] - 1) as f64) as usize
        };
        let mut candidates = Vec::new();
        for bz in bucket(lo[1], 1)..=bucket(hi[1], 1) {
            for bx in bucket(lo[0], 0)..=bucket(hi[0], 0) {
                let b = bz * l.side[0] + bx;
                for item in &l.items[l.start[b] as usize..l.start[b + 1] as usize] {
                    let [x0, z0, x1, z1] = item.bounds.map(f64::from);
                    // A box widened by LOOKUP_MARGIN (more than any margin asked) that
                    // misses the quad's box leaves the quad out.
                    if !(hi[0] < x0 || hi[1] < z0 || lo[0] > x1 || lo[1] > z1) {
                        candidates.push(item.tri);
                    }
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        for tri in candidates {
            let v = self.inside[tri as usize].v;
            if !separated(&v, quad, margin) {
                out.push((tri, v));
            }
        }
        Some(out)
    }

    /// Calls `f` with every triangle containing local (x, z) and its height, in index order.
    pub fn for_each_inside(&self, x: f32, z: f32, mut f: impl FnMut(u32, f32)) {
        self.candidates(x, z, |t| {
            let (inside, y) = self.is_inside(t, x, z);
            if inside {
                f(t, y);
            }
        });
    }

    /// The server's mesh-level `IsInside`: whether any triangle contains local (x, z).
    pub fn contains(&self, x: f32, z: f32) -> bool {
        let mut any = false;
        self.for_each_inside(x, z, |_, _| any = true);
        any
    }

    /// The server's `ClassifyPoint`: −1 outside a side, 0 on one, 1 strictly inside.
    fn classify(&self, tri: u32, p: Vec2) -> i8 {
        let v = self.tri_pos(&self.tris[tri as usize]);
        let mut dots = [0.0f32; 3];
        for i in 0..3 {
            let (from, to) = (v[i], v[(i + 1) % 3]);
            let ex = to[0] - from[0];
            let ez = to[2] - from[2];
            let (cx, cz) = (ez - 0.0, 0.0 - ex);
            let (wx, wz) = (p[0] - from[0], p[1] - from[2]);
            dots[i] = (f64::from(wz) * f64::from(cz) + f64::from(wx) * f64::from(cx)) as f32;
            if dots[i] < 0.0 {
                return -1;
            }
        }
        if dots.contains(&0.0) {
            0
        } else {
            1
        }
    }

    /// The cell on the other side of an edge from `tri` (the server's `GetOtherCell`).
    fn other_cell(e: &Edge, tri: Option<u32>) -> Option<u32> {
        if Some(e.cell_a) == tri {
            e.cell_b
        } else {
            Some(e.cell_a)
        }
    }

    /// A point pushed off edge `e` (the server's `PushOffEdge`).
    fn push_off_edge(&self, e: &Edge, p: Vec2) -> Vec2 {
        let [a, b] = e.vertices.map(|k| self.vertices[k as usize]);
        push_off([a.pos[0], a.pos[2]], a.dir, [b.pos[0], b.pos[2]], b.dir, p)
    }

    /// The siege and railing bits an edge adds to a result.
    fn edge_bits(&self, e: &Edge) -> u32 {
        let mut r = 0;
        if e.flag & flag::SIEGE != 0 {
            r |= bits::SIEGE;
            if self.options & 8 != 0 {
                r |= bits::SIEGE_OBJECT;
            }
        }
        if e.flag & flag::RAILING != 0 {
            r |= bits::RAILING;
        }
        r
    }

    /// The server's `CrossGrid`: the outline edge the segment `src → dst` crosses nearest to
    /// `src`, through the outline grid. Entry refused (flag 0x01 when `check == 1`): `src`
    /// is pushed off the edge and `Some((edge, None))` returned; entered: `src` moves 0.2
    /// into the edge's cell, `Some((edge, Some(cell)))`.
    fn cross_grid(
        &self,
        dst: Vec3,
        src: &mut Vec3,
        check: u32,
        result: &mut u32,
    ) -> Option<(EdgeKey, Option<u32>)> {
        let g = &self.grid;
        let tile = |v: f32, origin: f32| ((f64::from(v) - f64::from(origin)) / 100.0) as i32;
        let clamp = |v: i32, hi: i32| v.max(0).min(hi - 1);
        let (mut x0, mut z0) = (
            clamp(tile(src[0], g.origin[0]), g.width),
            clamp(tile(src[2], g.origin[1]), g.height),
        );
        let (mut x1, mut z1) = (
            clamp(tile(dst[0], g.origin[0]), g.width),
            clamp(tile(dst[2], g.origin[1]), g.height),
        );
        if x0 > x1 {
            std::mem::swap(&mut x0, &mut x1);
        }
        if z0 > z1 {
            std::mem::swap(&mut z0, &mut z1);
        }
        let len = g.tiles.len() as i64;
        if len == 0 || g.width <= 0 {
            return None;
        }
        // Rows and columns past the stored tiles hold nothing (a grid whose size disagrees
        // with its tile count must not make the loop long).
        let z1 = i64::from(z1).min((len - 1) / i64::from(g.width));
        let x1 = i64::from(x1).min(len - 1);
        let segment = [src[0], src[2], dst[0], dst[2]];
        let mut best: Option<(f32, u32, Vec2)> = None;
        for nz in i64::from(z0)..=z1 {
            for nx in i64::from(x0)..=x1 {
                if nx < 0 || nz < 0 || nx >= i64::from(g.width) || nz >= i64::from(g.height) {
                    continue;
                }
                let t = i64::from(g.width) * nz + nx;
                if t >= len {
                    continue;
                }
                for &k in &g.tiles[t as usize] {
                    let e = &self.edges[0][usize::from(k)];
                    if e.flag & flag::UNDERPASS != 0 {
                        continue;
                    }
                    let (code, hit) = intersect(&e.line, &segment);
                    let (2, Some(hit)) = (code, hit) else {
                        continue;
                    };
                    let dx = f64::from(src[0] - hit[0]);
                    let dz = f64::from(src[2] - hit[1]);
                    let dist = (dx * dx + dz * dz) as f32;
                    if best.map_or(true, |b| b.0 > dist) {
                        best = Some((dist, u32::from(k), hit));
                    }
                }
            }
        }
        let (_, k, hit) = best?;
        let key = EdgeKey { group: 0, index: k };
        let e = self.edge(key);
        *result |= self.edge_bits(e);
        if e.flag & flag::BLOCK_B_TO_A != 0 && check == 1 {
            let p = self.push_off_edge(e, hit);
            (src[0], src[2]) = (p[0], p[1]);
            *result |= bits::BLOCKED;
            return Some((key, None));
        }
        *result |= bits::ENTERED;
        let p = nudge(self.centre(e.cell_a), hit);
        (src[0], src[2]) = (p[0], p[1]);
        Some((key, Some(e.cell_a)))
    }

    /// The server's `WalkCells`: from `start` on `tri` toward `end` across triangles. `end`
    /// receives the stop when the walk is blocked or leaves the mesh (pushed off its edge);
    /// the triangle reached, or `None` when the walk left. `trace` gets the points where the
    /// walk entered each next triangle.
    #[allow(clippy::too_many_arguments)]
    pub fn walk_cells(
        &self,
        mut tri: u32,
        mut start: Vec2,
        end: &mut Vec2,
        result: &mut u32,
        check: u32,
        ctx: &mut MoveContext,
        mut trace: Option<&mut Vec<Vec2>>,
    ) -> Option<u32> {
        let mut previous: Option<EdgeKey> = None;
        let mut watch = LoopWatch::default();
        loop {
            let segment = [start[0], start[1], end[0], end[1]];
            let mut cross = [0.0f32; 2];
            let mut found = None;
            for key in self.tris[tri as usize].edges.into_iter().flatten() {
                if Some(key) == previous {
                    continue;
                }
                let (code, point) = intersect(&self.edge(key).line, &segment);
                if let Some(p) = point {
                    cross = p;
                }
                if code == 2 {
                    found = Some(key);
                    break;
                }
            }
            let Some(key) = found else {
                return Some(tri);
            };
            let state = || {
                let p = previous.map_or([u32::MAX; 2], |k| [u32::from(k.group), k.index]);
                vec![tri, start[0].to_bits(), start[1].to_bits(), p[0], p[1]]
            };
            if watch.step(state, &mut ctx.steps_left).is_err() {
                ctx.gave_up = true;
                *result |= bits::STEPS;
                return Some(tri);
            }
            if ctx.steps_left == 0 {
                *result |= bits::STEPS;
                return Some(tri);
            }
            ctx.steps_left -= 1;
            let e = self.edge(key);
            let next = ServerMesh::other_cell(e, Some(tri));
            *result |= self.edge_bits(e);
            if e.flag & flag::INTERNAL == 0 {
                // An outline or link edge: the walk leaves the mesh.
                if e.flag & flag::LINK != 0 {
                    *result |= bits::LINK;
                    ctx.link_edge = if key.group == 0 { key.index } else { 0xFFFF };
                }
                if check != 0 && e.flag & flag::NO_EXIT != 0 {
                    *result |= bits::BLOCKED;
                    ctx.blocked_by = Some(key);
                    *end = nudge(self.centre(tri), cross);
                    return Some(tri);
                }
                *result |= bits::LEFT;
                *end = self.push_off_edge(e, cross);
                return None;
            }
            let Some(next) = next else {
                // The server would follow a missing neighbour; it is taken as a wall.
                *result |= bits::BLOCKED;
                ctx.blocked_by = Some(key);
                *end = nudge(self.centre(tri), cross);
                return Some(tri);
            };
            if e.flag & flag::BLOCK_A_TO_B != 0 && e.cell_a == tri {
                *result |= bits::BLOCKED;
            }
            if *result & bits::BLOCKED == 0
                && e.flag & flag::BLOCK_B_TO_A != 0
                && e.cell_b == Some(tri)
            {
                *result |= bits::BLOCKED;
            }
            if *result & bits::BLOCKED != 0 {
                ctx.blocked_by = Some(key);
                *end = nudge(self.centre(tri), cross);
                return Some(tri);
            }
            start = nudge(self.centre(next), cross);
            if let Some(trace) = trace.as_deref_mut() {
                trace.push(start);
            }
            previous = Some(key);
            tri = next;
        }
    }

    /// The server's `FindLinkEntryCell`: the cell of outline edge `edge`, and the point
    /// `pos` moved onto it (0.2 inside where the line from the cell's centre to `pos` crosses
    /// one of its sides), its y the cell's plane height there.
    pub fn find_link_entry_cell(&self, edge: u32, pos: &mut Vec3) -> Option<u32> {
        let e = self.edges[0].get(edge as usize)?;
        let cell = ServerMesh::other_cell(e, None)?;
        let centre = self.centre(cell);
        let segment = [centre[0], centre[1], pos[0], pos[2]];
        for key in self.tris[cell as usize].edges.into_iter().flatten() {
            let (code, point) = intersect(&self.edge(key).line, &segment);
            if code == 2 {
                let p = nudge(centre, point.expect("a crossing has a point"));
                (pos[0], pos[2]) = (p[0], p[1]);
                break;
            }
        }
        pos[1] = self.is_inside(cell, pos[0], pos[2]).1;
        Some(cell)
    }

    /// The server's object `Move`, in the object's frame: from `src` (on triangle `on` of
    /// this mesh, or elsewhere with `None`) toward `dst`, which receives the stop. Returns the
    /// result bits and where the walker is left.
    pub fn object_move(
        &self,
        check: u32,
        on: Option<u32>,
        src: Vec3,
        dst: &mut Vec3,
        ctx: &mut MoveContext,
        trace: Option<&mut Vec<Vec2>>,
    ) -> (u32, ObjectEnd) {
        let mut result = 0;
        let Some(tri) = on else {
            let mut point = src;
            return match self.cross_grid(*dst, &mut point, check, &mut result) {
                None => (result, ObjectEnd::Source),
                Some((key, None)) => {
                    ctx.blocked_by = Some(key);
                    (dst[0], dst[2]) = (point[0], point[2]);
                    (result, ObjectEnd::Source)
                }
                Some((_, Some(cell))) => {
                    (dst[0], dst[2]) = (point[0], point[2]);
                    dst[1] = self.apply_height(cell, dst[0], dst[2]);
                    (result, ObjectEnd::Tri(cell))
                }
            };
        };
        let mut start = [src[0], src[2]];
        let centre = self.centre(tri);
        match self.classify(tri, start) {
            0 => start = nudge(centre, start),
            -1 => {
                let to_centre = [start[0], start[1], centre[0], centre[1]];
                for key in self.tris[tri as usize].edges.into_iter().flatten() {
                    let (code, point) = intersect(&self.edge(key).line, &to_centre);
                    if let Some(p) = point {
                        start = p;
                    }
                    if code == 2 {
                        start = nudge(centre, start);
                        break;
                    }
                }
            }
            _ => {}
        }
        let mut end = [dst[0], dst[2]];
        let reached = self.walk_cells(tri, start, &mut end, &mut result, check, ctx, trace);
        (dst[0], dst[2]) = (end[0], end[1]);
        match reached {
            Some(t) => {
                dst[1] = self.apply_height(t, end[0], end[1]);
                (result, ObjectEnd::Tri(t))
            }
            None => (result, ObjectEnd::Left),
        }
    }
}

/// Whether triangle `v` (local x, y, z) and convex quad `quad` (local x, z) lie apart by at
/// least `margin`: a side of one or the other has every corner of the other beyond it by
/// that much.
pub(crate) fn separated(v: &[Vec3; 3], quad: &[[f64; 2]; 4], margin: f64) -> bool {
    // (The side's length by a square root, not `hypot`: the coordinates are far from
    // overflowing, and `hypot` took an eighth of loading a town.)
    let beyond = |a: [f64; 2], b: [f64; 2], turn: f64, points: &[[f64; 2]]| {
        let (dx, dz) = (b[0] - a[0], b[1] - a[1]);
        let reach = -margin * (dx * dx + dz * dz).sqrt();
        points
            .iter()
            .all(|p| turn * (dx * (p[1] - a[1]) - dz * (p[0] - a[0])) <= reach)
    };
    let v = v.map(|p| [f64::from(p[0]), f64::from(p[2])]);
    let turn = crate::geometry::orient(v[0], v[1], v[2]).signum();
    let quad_turn = crate::geometry::orient(quad[0], quad[1], quad[2]).signum();
    turn != 0.0
        && ((0..3).any(|i| beyond(v[i], v[(i + 1) % 3], turn, quad))
            || (0..4).any(|i| beyond(quad[i], quad[(i + 1) % 4], quad_turn, &v)))
}
