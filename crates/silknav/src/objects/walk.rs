//! The edges of object meshes and the rules for crossing them, for line of sight (and the
//! walks built on it).
//!
//! Every instance keeps its mesh's outline and inline edges with their flags and cells, in
//! the mesh's own (object-local) coordinates. A segment is taken into an instance's frame
//! (in double, as [`crate::objects`] places query points) and tested there against the f32
//! edge endpoints with the exact orientation predicate ([`crate::geometry::orient`]); so the
//! decisions are exact for the rotated segment, and the rotation itself is rounded to about
//! 1e-12 units at world magnitudes. Only instances whose placed bounds (widened by
//! [`super::BOUNDS_MARGIN`]) meet the segment's bounding box are tested, looked up in the
//! region-sized cells the box spans.
//!
//! The rules (see [`crate::world::raycast`] for how they combine with the terrain):
//! - **On the terrain**, an outline edge the segment properly crosses *from outside* (from the
//!   side away from the edge's cell) is ignored with flag 0x10 (the side of a bridge, passed
//!   under), is a wall with 0x01 (and for sight with the siege bit 0x80), and otherwise puts
//!   the walker on the edge's cell. Crossing an outline edge from its cell's side is ignored.
//! - **On an object cell**, the segment leaves the triangle through a side: an inline edge
//!   blocks by direction (0x02 blocks cell\[0\] → cell\[1\], 0x01 cell\[1\] → cell\[0\]), and for
//!   sight with 0x80, else the walker moves to the other cell; an outline edge with
//!   `flag & 0x12` (or 0x80 for sight) is a wall, otherwise the walker steps onto the terrain
//!   at the crossing. The 0x08 link to another object's edge is not carried by the mesh, so a
//!   link edge is a plain exit: the terrain walk then meets the linked object's outline edge
//!   from outside and enters it there. A triangle side with no edge record is a plain exit.
//! - Leaving through a vertex crosses every side meeting there: blocked if any blocks.

use super::{region_cell, Instance, InstanceKey, Objects};
use crate::geometry::orient;
use jmxv::bms::NavSection;

/// Outline edge flag: a wall when entered from outside.
const OUTLINE_WALL: u8 = 0x01;
/// Outline edge flags that stop a walker leaving the mesh.
const OUTLINE_NO_EXIT: u8 = 0x12;
/// Outline edge flag: passed under from outside (bridge sides).
const UNDERPASS: u8 = 0x10;
/// Inline edge flag: blocks cell\[0\] → cell\[1\].
const INLINE_BLOCK_FORWARD: u8 = 0x02;
/// Inline edge flag: blocks cell\[1\] → cell\[0\].
const INLINE_BLOCK_BACKWARD: u8 = 0x01;
/// Siege bit: blocks sight on any edge.
const SIEGE: u8 = 0x80;

/// Which list of an object mesh an edge comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjectEdgeKind {
    /// The mesh's boundary (`outline_edges`).
    Outline,
    /// Between two cells of the mesh (`inline_edges`).
    Inline,
}

/// An edge of a placed object mesh: which instance, which list, which index in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ObjectEdgeRef {
    /// The instance.
    pub instance: InstanceKey,
    /// Outline or inline.
    pub kind: ObjectEdgeKind,
    /// Index into the mesh's outline or inline edges.
    pub edge: u16,
}

impl std::fmt::Display for ObjectEdgeRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.kind {
            ObjectEdgeKind::Outline => "outline",
            ObjectEdgeKind::Inline => "inline",
        };
        write!(f, "{} {kind} {}", self.instance, self.edge)
    }
}

/// A usable edge of a mesh, in object-local xz.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MeshEdge {
    pub kind: ObjectEdgeKind,
    pub index: u16,
    pub vertices: [u16; 2],
    pub a: [f64; 2],
    pub b: [f64; 2],
    pub cells: [u16; 2],
    pub flag: u8,
}

/// What a cell index leads to in a prepared mesh.
const NO_SLOT: u32 = u32::MAX;

/// A mesh's edges for the walks: outline edges first, then inline ones; per cell index its
/// triangle (a slot in the prepared triangles) and the edges touching it.
#[derive(Debug, Clone, Default)]
pub(crate) struct MeshEdges {
    edges: Vec<MeshEdge>,
    outline: usize,
    slot: Vec<u32>,
    vertices: Vec<[u16; 3]>,
    cell_edges: Vec<Vec<u32>>,
}

impl MeshEdges {
    /// The edges of a navigation section whose vertices are usable and whose cells are usable
    /// triangles (both cells for an inline edge).
    pub fn new(nav: &NavSection, triangles: &[(u16, [[f32; 3]; 3])]) -> MeshEdges {
        let mut slot = vec![NO_SLOT; nav.cells.len()];
        let mut vertices = vec![[0; 3]; nav.cells.len()];
        for (k, (cell, _)) in triangles.iter().enumerate() {
            slot[usize::from(*cell)] = k as u32;
            vertices[usize::from(*cell)] = nav.cells[usize::from(*cell)].vertices;
        }
        let usable_cell = |c: u16| slot.get(usize::from(c)).is_some_and(|&s| s != NO_SLOT);
        let point = |k: u16| {
            let v = nav.vertices.get(usize::from(k))?.position;
            let (x, z) = (v[0].get(), v[2].get());
            (x.is_finite() && z.is_finite()).then_some([f64::from(x), f64::from(z)])
        };
        let mut edges = Vec::new();
        let lists = [
            (ObjectEdgeKind::Outline, &nav.outline_edges),
            (ObjectEdgeKind::Inline, &nav.inline_edges),
        ];
        let mut outline = 0;
        for (kind, list) in lists {
            for (i, e) in list.iter().enumerate().take(usize::from(u16::MAX) + 1) {
                let (Some(a), Some(b)) = (point(e.vertices[0]), point(e.vertices[1])) else {
                    continue;
                };
                let cells_ok = match kind {
                    ObjectEdgeKind::Outline => usable_cell(e.cells[0]),
                    ObjectEdgeKind::Inline => usable_cell(e.cells[0]) && usable_cell(e.cells[1]),
                };
                if !cells_ok || a == b {
                    continue;
                }
                edges.push(MeshEdge {
                    kind,
                    index: i as u16,
                    vertices: e.vertices,
                    a,
                    b,
                    cells: e.cells,
                    flag: e.flag,
                });
            }
            if kind == ObjectEdgeKind::Outline {
                outline = edges.len();
            }
        }
        let mut cell_edges = vec![Vec::new(); nav.cells.len()];
        for (k, e) in edges.iter().enumerate() {
            let n = if e.kind == ObjectEdgeKind::Outline {
                1
            } else {
                2
            };
            for &c in &e.cells[..n] {
                cell_edges[usize::from(c)].push(k as u32);
            }
        }
        MeshEdges {
            edges,
            outline,
            slot,
            vertices,
            cell_edges,
        }
    }
}

/// The first outline edge a terrain walker meets.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    /// Along the segment, 0 to 1.
    pub t: f64,
    /// Index of the instance in [`Objects::instances`].
    pub instance: usize,
    pub edge: ObjectEdgeRef,
    /// `None` for a wall, else the cell entered.
    pub cell: Option<u16>,
    /// The edge's direction, world frame.
    pub direction: [f64; 2],
}

/// How a walker on an object cell leaves it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Leave {
    /// The segment ends in the (closed) triangle.
    Stays,
    /// Blocked at `t` by `edge` (`None`: a degenerate crossing that could not be decided).
    Blocked {
        t: f64,
        edge: Option<ObjectEdgeRef>,
        direction: [f64; 2],
    },
    /// Into another cell of the mesh through an inline edge.
    Next {
        t: f64,
        cell: u16,
        through: [u16; 2],
    },
    /// Onto the terrain at `t`.
    Exit { t: f64 },
}

fn sign(v: f64) -> i8 {
    if v > 0.0 {
        1
    } else if v < 0.0 {
        -1
    } else {
        0
    }
}

impl Objects {
    /// The instances whose placed bounds meet the box `lo..=hi` (world units), ascending.
    pub fn near(&self, lo: [f64; 2], hi: [f64; 2]) -> Vec<usize> {
        let meets = |i: usize| {
            let b = &self.bounds[i];
            b[0] <= hi[0] && b[2] >= lo[0] && b[1] <= hi[1] && b[3] >= lo[1]
        };
        let (xs, zs) = (
            region_cell(lo[0])..=region_cell(hi[0]),
            region_cell(lo[1])..=region_cell(hi[1]),
        );
        let cells = (xs.end() - xs.start() + 1).saturating_mul(zs.end() - zs.start() + 1);
        // A box spanning more cells than there are instances is cheaper to test against all.
        if cells as usize >= self.bounds.len() {
            return (0..self.bounds.len()).filter(|&i| meets(i)).collect();
        }
        let mut found = Vec::new();
        for cz in zs {
            for cx in xs.clone() {
                if let Some(list) = self.by_cell.get(&(cx, cz)) {
                    found.extend(list.iter().map(|&i| i as usize).filter(|&i| meets(i)));
                }
            }
        }
        // An instance spanning several cells is found in each; the walk visits instances in
        // ascending order, which decides its ties.
        found.sort_unstable();
        found.dedup();
        found
    }

    /// The index of an instance by key.
    pub fn instance_index(&self, key: InstanceKey) -> Option<usize> {
        self.instances().binary_search_by_key(&key, |i| i.key).ok()
    }

    fn edges(&self, inst: &Instance) -> &MeshEdges {
        &self.meshes[inst.mesh as usize].edges
    }

    /// The first outline edge a terrain walker on the segment `p0 → p1` (world units) meets
    /// from outside that is not passed under: a wall or an entrance. On a tie a wall wins.
    pub fn first_entry(&self, p0: [f64; 2], p1: [f64; 2], sight: bool) -> Option<Entry> {
        let lo = [p0[0].min(p1[0]), p0[1].min(p1[1])];
        let hi = [p0[0].max(p1[0]), p0[1].max(p1[1])];
        let mut best: Option<Entry> = None;
        for i in self.near(lo, hi) {
            let inst = &self.instances()[i];
            let (q0, q1) = (inst.to_world_local(p0), inst.to_world_local(p1));
            let mesh = self.edges(inst);
            for e in &mesh.edges[..mesh.outline] {
                if e.flag & UNDERPASS != 0 {
                    continue;
                }
                let (o0, o1) = (orient(e.a, e.b, q0), orient(e.a, e.b, q1));
                if sign(o0) * sign(o1) >= 0 {
                    continue;
                }
                if sign(orient(q0, q1, e.a)) * sign(orient(q0, q1, e.b)) > 0 {
                    continue;
                }
                // From outside: the start is on the other side than the cell's triangle.
                let Some(inside) = self.cell_side(inst, e) else {
                    continue;
                };
                if sign(o0) == inside {
                    continue;
                }
                let wall = e.flag & OUTLINE_WALL != 0 || (sight && e.flag & SIEGE != 0);
                let t = o0 / (o0 - o1);
                let better = best
                    .as_ref()
                    .map_or(true, |b| t < b.t || (t == b.t && wall && b.cell.is_some()));
                if better {
                    best = Some(Entry {
                        t,
                        instance: i,
                        edge: ObjectEdgeRef {
                            instance: inst.key,
                            kind: e.kind,
                            edge: e.index,
                        },
                        cell: (!wall).then_some(e.cells[0]),
                        direction: inst.direction_to_world([e.b[0] - e.a[0], e.b[1] - e.a[1]]),
                    });
                }
            }
        }
        best
    }

    /// The side (sign of the orientation) of an outline edge its cell lies on.
    fn cell_side(&self, inst: &Instance, e: &MeshEdge) -> Option<i8> {
        let v = self.triangle(inst, e.cells[0])?;
        let s = v
            .iter()
            .map(|&p| sign(orient(e.a, e.b, p)))
            .find(|&s| s != 0)?;
        Some(s)
    }

    /// A cell's triangle, object-local xz.
    fn triangle(&self, inst: &Instance, cell: u16) -> Option<[[f64; 2]; 3]> {
        let mesh = &self.meshes[inst.mesh as usize];
        let slot = *mesh.edges.slot.get(usize::from(cell))?;
        let (_, v) = mesh.triangles.get(slot as usize)?;
        Some(v.map(|p| [f64::from(p[0]), f64::from(p[2])]))
    }

    /// How a walker on `cell` of instance `i` leaves it along `p0 → p1` (world units), having
    /// entered through the side `through` (mesh vertex indices), if any.
    pub fn leave(
        &self,
        i: usize,
        cell: u16,
        p0: [f64; 2],
        p1: [f64; 2],
        through: Option<[u16; 2]>,
        sight: bool,
    ) -> Leave {
        let inst = &self.instances()[i];
        let mesh = self.edges(inst);
        let Some(tri) = self.triangle(inst, cell) else {
            return Leave::Stays;
        };
        let ids = mesh.vertices[usize::from(cell)];
        let (q0, q1) = (inst.to_world_local(p0), inst.to_world_local(p1));
        let s = sign(orient(tri[0], tri[1], tri[2]));
        let mut outside = false;
        // (t, side's mesh vertices, side's corners)
        let mut crossed: Vec<(f64, [u16; 2], [[f64; 2]; 2])> = Vec::with_capacity(2);
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            let pair = [ids[k], ids[(k + 1) % 3]];
            let o1 = orient(a, b, q1) * f64::from(s);
            if o1 >= 0.0 {
                continue;
            }
            outside = true;
            let o0 = orient(a, b, q0) * f64::from(s);
            if o0 < 0.0 {
                continue;
            }
            if through.is_some_and(|t| same_side(t, pair)) {
                continue;
            }
            if sign(orient(q0, q1, a)) * sign(orient(q0, q1, b)) > 0 {
                continue;
            }
            crossed.push((o0 / (o0 - o1), pair, [a, b]));
        }
        if !outside {
            return Leave::Stays;
        }
        let Some(t) = crossed.iter().map(|c| c.0).reduce(f64::min) else {
            return Leave::Blocked {
                t: 0.0,
                edge: None,
                direction: [0.0, 0.0],
            };
        };
        let mut next = None;
        for &(_, pair, [a, b]) in &crossed {
            let direction = inst.direction_to_world([b[0] - a[0], b[1] - a[1]]);
            let record = mesh.cell_edges[usize::from(cell)]
                .iter()
                .map(|&k| &mesh.edges[k as usize])
                .find(|e| same_side(e.vertices, pair));
            let Some(e) = record else { continue };
            let edge = Some(ObjectEdgeRef {
                instance: inst.key,
                kind: e.kind,
                edge: e.index,
            });
            let siege = sight && e.flag & SIEGE != 0;
            match e.kind {
                ObjectEdgeKind::Inline => {
                    let forward = e.cells[0] == cell;
                    let blocked = if forward {
                        e.flag & INLINE_BLOCK_FORWARD != 0
                    } else {
                        e.flag & INLINE_BLOCK_BACKWARD != 0
                    };
                    if blocked || siege {
                        return Leave::Blocked { t, edge, direction };
                    }
                    let other = if forward { e.cells[1] } else { e.cells[0] };
                    next.get_or_insert(Leave::Next {
                        t,
                        cell: other,
                        through: pair,
                    });
                }
                ObjectEdgeKind::Outline => {
                    if e.flag & OUTLINE_NO_EXIT != 0 || siege {
                        return Leave::Blocked { t, edge, direction };
                    }
                }
            }
        }
        next.unwrap_or(Leave::Exit { t })
    }
}

/// Whether two vertex pairs name the same side.
fn same_side(a: [u16; 2], b: [u16; 2]) -> bool {
    a == b || a == [b[1], b[0]]
}

impl Instance {
    /// A point in world units (region index · 1920 + local) in the object's own frame.
    pub(crate) fn to_world_local(&self, p: [f64; 2]) -> [f64; 2] {
        self.to_local64(jmxv::RegionId::new(0, 0), p[0], p[1])
    }
}

impl Objects {
    /// The mesh vertices of an outline edge of instance `i`, by reference.
    pub fn outline_side(&self, i: usize, edge: ObjectEdgeRef) -> Option<[u16; 2]> {
        let mesh = self.edges(&self.instances()[i]);
        mesh.edges[..mesh.outline]
            .iter()
            .find(|e| e.index == edge.edge)
            .map(|e| e.vertices)
    }
}
