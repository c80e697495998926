//! Object meshes on a straight line, exactly: the geometry line of sight needs to follow the
//! server's object rules without the server's nudges ([`crate::world::raycast`] has the rules
//! and how they combine with the terrain).
//!
//! A segment is taken into an object's frame in double (the record's yaw and position, in the
//! frame of the region whose object list holds it) and tested there against the mesh's f32
//! edge endpoints with the exact orientation predicate; so the
//! decisions are exact for the rotated segment, the rotation itself rounded to about 1e-12
//! units at world magnitudes. A segment meets an edge when the two closed segments share a
//! point and are not collinear (the server's `Line2_Intersect` answer 2).

use super::mesh::{EdgeKey, ServerMesh};
use super::{InstanceKey, Placement};
use crate::geometry::REGION_SIZE;
use crate::geometry::{orient, sign};
use jmxv::RegionId;

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

impl ObjectEdgeRef {
    /// The edge `key` of the instance `instance`.
    pub(crate) fn of(instance: InstanceKey, key: EdgeKey) -> ObjectEdgeRef {
        ObjectEdgeRef {
            instance,
            kind: if key.group == 0 {
                ObjectEdgeKind::Outline
            } else {
                ObjectEdgeKind::Inline
            },
            edge: key.index as u16,
        }
    }
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

/// A record's placement in double: world units to the object's own frame and back.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    origin: [f64; 2],
    cos: f64,
    sin: f64,
}

impl Frame {
    /// The frame of record `p` of the object list of `region`.
    pub fn new(region: RegionId, p: &Placement) -> Frame {
        let size = f64::from(REGION_SIZE);
        let [cos, sin] = p.yaw_cos_sin;
        Frame {
            origin: [
                f64::from(region.x()) * size + f64::from(p.position[0]),
                f64::from(region.z()) * size + f64::from(p.position[2]),
            ],
            cos,
            sin,
        }
    }

    /// A world point (units) in the object's frame.
    pub fn local(&self, w: [f64; 2]) -> [f64; 2] {
        let (dx, dz) = (w[0] - self.origin[0], w[1] - self.origin[1]);
        [dx * self.cos + dz * self.sin, dz * self.cos - dx * self.sin]
    }

    /// A point in the object's frame in world units.
    pub fn world(&self, l: [f64; 2]) -> [f64; 2] {
        [
            l[0] * self.cos - l[1] * self.sin + self.origin[0],
            l[0] * self.sin + l[1] * self.cos + self.origin[1],
        ]
    }

    /// A direction in the object's frame turned into the world's.
    pub fn direction_to_world(&self, d: [f64; 2]) -> [f64; 2] {
        [
            d[0] * self.cos - d[1] * self.sin,
            d[0] * self.sin + d[1] * self.cos,
        ]
    }
}

/// Where segment `q0 → q1` meets edge `a → b`: the parameter along the segment, when the two
/// closed segments share a point and are not collinear.
pub(crate) fn crossing(q0: [f64; 2], q1: [f64; 2], a: [f64; 2], b: [f64; 2]) -> Option<f64> {
    let (o0, o1) = (orient(a, b, q0), orient(a, b, q1));
    if sign(o0) * sign(o1) > 0 || (o0 == 0.0 && o1 == 0.0) {
        return None;
    }
    if sign(orient(q0, q1, a)) * sign(orient(q0, q1, b)) > 0 {
        return None;
    }
    Some(o0 / (o0 - o1))
}

/// The outline edge segment `q0 → q1` (object frame) crosses nearest to `q0`, as the server's
/// entry search takes it: through the mesh's grid, edges with 0x10 passed under, and `skip`;
/// `s > 0` along the segment, or `s ≥ 0` when `inclusive`. On a tie, the first found.
pub(crate) fn first_outline_crossing(
    mesh: &ServerMesh,
    q0: [f64; 2],
    q1: [f64; 2],
    inclusive: bool,
    skip: Option<u32>,
) -> Option<(f64, u32)> {
    let mut best: Option<(f64, u32)> = None;
    mesh.outline_between(q0, q1, |k| {
        if Some(k) == skip {
            return;
        }
        let key = EdgeKey { group: 0, index: k };
        if mesh.edge(key).flag & super::mesh::flag::UNDERPASS != 0 {
            return;
        }
        let [a, b] = mesh.edge_xz(key);
        if let Some(s) = crossing(q0, q1, a, b) {
            let ahead = s > 0.0 || (inclusive && s == 0.0);
            if ahead && best.map_or(true, |(t, _)| s < t) {
                best = Some((s, k));
            }
        }
    });
    best
}

/// Which side of edge `key`'s line `q` lies on, seen from triangle `tri`: 1 the triangle's
/// side, −1 the far side, 0 on the line (or a triangle with no side of the line).
pub(crate) fn cell_side(mesh: &ServerMesh, key: EdgeKey, tri: u32, q: [f64; 2]) -> i8 {
    let [a, b] = mesh.edge_xz(key);
    mesh.cell_inner_side(key, tri) * sign(orient(a, b, q))
}

/// How segment `q0 → q1` (object frame) leaves triangle `tri`: the first of its walked edges
/// (but `previous`) that the segment crosses toward its far side, with the parameter `s ≥ 0`
/// along the segment; on a tie, the earlier edge. `None` when the segment ends on the triangle
/// or leaves it where it has no edge.
pub(crate) fn triangle_exit(
    mesh: &ServerMesh,
    tri: u32,
    previous: Option<EdgeKey>,
    q0: [f64; 2],
    q1: [f64; 2],
) -> Option<(f64, EdgeKey)> {
    let mut best: Option<(f64, EdgeKey)> = None;
    for key in mesh.tri_edges(tri).into_iter().flatten() {
        if Some(key) == previous {
            continue;
        }
        // The end must lie beyond the edge, away from the triangle.
        if cell_side(mesh, key, tri, q1) >= 0 {
            continue;
        }
        let [a, b] = mesh.edge_xz(key);
        if let Some(s) = crossing(q0, q1, a, b) {
            if s >= 0.0 && best.map_or(true, |(t, _)| s < t) {
                best = Some((s, key));
            }
        }
    }
    best
}
