//! The answers of the queries as Python objects: immutable, comparable, with the fields of the
//! command line's JSON answers.

use pyo3::prelude::*;
use silknav::objects::walk::{ObjectEdgeKind, ObjectEdgeRef};
use silknav::world::{
    movement::{MoveOutcome, MoveStop},
    raycast::RayHit,
    EdgeId,
};
use silknav::{CellRef, Position, WorldPath};

/// World coordinates of a position.
pub fn xz(p: Position) -> (f64, f64) {
    (p.world_x(), p.world_z())
}

/// Python's `repr` of an optional answer: `repr` of the value, or `None`.
fn repr_or_none<T>(value: Option<&T>, repr: fn(&T) -> String) -> String {
    value.map_or_else(|| "None".to_owned(), repr)
}

/// The object triangle a point is on.
#[pyclass(module = "silknav", frozen, eq, hash, get_all)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ObjectCell {
    /// The instance's owner region, four lower-case hex digits (`"694e"`).
    pub owner: String,
    /// The instance's uid in its owner region.
    pub uid: u16,
    /// The triangle's index in the object's mesh.
    pub cell: u16,
}

#[pymethods]
impl ObjectCell {
    fn __repr__(&self) -> String {
        format!(
            "ObjectCell(owner='{}', uid={}, cell={})",
            self.owner, self.uid, self.cell
        )
    }
}

/// The cell under a point: as `silknav cell` answers it.
#[pyclass(module = "silknav", frozen, eq, hash, get_all)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Cell {
    /// The region, four lower-case hex digits (`"4181"`).
    pub region: String,
    /// The cell's index in the region's file (on an object, the terrain cell of the tile).
    pub cell: u16,
    /// The object triangle the point is on, or None on the terrain.
    pub object: Option<ObjectCell>,
}

impl From<CellRef> for Cell {
    fn from(c: CellRef) -> Cell {
        Cell {
            region: c.region.to_string(),
            cell: c.cell,
            object: c.object.map(|o| ObjectCell {
                owner: o.instance.owner().to_string(),
                uid: o.instance.uid(),
                cell: o.cell,
            }),
        }
    }
}

#[pymethods]
impl Cell {
    fn __repr__(&self) -> String {
        let object = repr_or_none(self.object.as_ref(), ObjectCell::__repr__);
        format!(
            "Cell(region='{}', cell={}, object={object})",
            self.region, self.cell
        )
    }
}

/// A terrain edge: the region whose file holds it, its list and its index there.
#[pyclass(module = "silknav", frozen, eq, hash, get_all)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Edge {
    /// The region, four lower-case hex digits.
    pub region: String,
    /// `"internal"` or `"global"`: the list of the file that holds the edge.
    pub kind: &'static str,
    /// The edge's index in that list.
    pub index: u32,
}

impl Edge {
    fn new(region: jmxv::RegionId, edge: EdgeId) -> Edge {
        let (kind, index) = match edge {
            EdgeId::Internal(i) => ("internal", i),
            EdgeId::Global(i) => ("global", i),
        };
        Edge {
            region: region.to_string(),
            kind,
            index,
        }
    }
}

#[pymethods]
impl Edge {
    fn __repr__(&self) -> String {
        format!(
            "Edge(region='{}', kind='{}', index={})",
            self.region, self.kind, self.index
        )
    }
}

/// An edge of an object's mesh.
#[pyclass(module = "silknav", frozen, eq, hash, get_all)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ObjectEdge {
    /// The instance's owner region, four lower-case hex digits.
    pub owner: String,
    /// The instance's uid in its owner region.
    pub uid: u16,
    /// `"outline"` or `"inline"`: the mesh's list that holds the edge.
    pub kind: &'static str,
    /// The edge's index in that list.
    pub index: u16,
}

impl From<ObjectEdgeRef> for ObjectEdge {
    fn from(e: ObjectEdgeRef) -> ObjectEdge {
        ObjectEdge {
            owner: e.instance.owner().to_string(),
            uid: e.instance.uid(),
            kind: match e.kind {
                ObjectEdgeKind::Outline => "outline",
                ObjectEdgeKind::Inline => "inline",
            },
            index: e.edge,
        }
    }
}

#[pymethods]
impl ObjectEdge {
    fn __repr__(&self) -> String {
        format!(
            "ObjectEdge(owner='{}', uid={}, kind='{}', index={})",
            self.owner, self.uid, self.kind, self.index
        )
    }
}

/// Where a segment is blocked: as `silknav los` answers it.
#[pyclass(module = "silknav", frozen, eq, get_all)]
#[derive(Clone, PartialEq)]
pub struct Hit {
    /// World x of the first blocking point.
    pub x: f64,
    /// World z of the first blocking point.
    pub z: f64,
    /// How far along the segment: 0 at the start, 1 at the end.
    pub t: f64,
    /// The terrain wall, or None where the ground ends without a stored wall or an object
    /// edge blocks.
    pub edge: Option<Edge>,
    /// The object edge that blocks, or None.
    pub object_edge: Option<ObjectEdge>,
    /// The wall's unit normal, facing the start.
    pub normal: (f32, f32),
}

impl From<RayHit> for Hit {
    fn from(hit: RayHit) -> Hit {
        let (x, z) = xz(hit.point);
        Hit {
            x,
            z,
            t: hit.t,
            edge: hit.edge.map(|(r, e)| Edge::new(r, e)),
            object_edge: hit.object_edge.map(ObjectEdge::from),
            normal: (hit.normal[0], hit.normal[1]),
        }
    }
}

#[pymethods]
impl Hit {
    fn __repr__(&self) -> String {
        let edge = repr_or_none(self.edge.as_ref(), Edge::__repr__);
        let object_edge = repr_or_none(self.object_edge.as_ref(), ObjectEdge::__repr__);
        format!(
            "Hit(x={:?}, z={:?}, t={:?}, edge={edge}, object_edge={object_edge}, normal=({:?}, {:?}))",
            self.x, self.z, self.t, self.normal.0, self.normal.1
        )
    }
}

/// Where a walk stops: as `silknav move` answers it.
#[pyclass(module = "silknav", frozen, eq, get_all)]
#[derive(Clone, PartialEq)]
pub struct Move {
    /// World x of the stop.
    pub x: f64,
    /// World z of the stop.
    pub z: f64,
    /// The height the server gives the stop (the terrain's, or the object floor's).
    pub height: f32,
    /// Why the walk stopped: `"arrived"`, `"wall"`, `"no-edge"`, `"object-wall"`,
    /// `"transition"` or `"looped"`.
    pub stop: &'static str,
    /// The cell the walk ends in (the walk's own cell, which the server keeps).
    pub cell: Cell,
    /// The wall for `"wall"`, else None.
    pub edge: Option<Edge>,
    /// The object's edge for `"object-wall"`, else None.
    pub object_edge: Option<ObjectEdge>,
}

impl From<MoveOutcome> for Move {
    fn from(m: MoveOutcome) -> Move {
        let (x, z) = xz(m.position);
        Move {
            x,
            z,
            height: m.height,
            stop: m.stop.word(),
            cell: Cell::from(m.cell),
            edge: match m.stop {
                MoveStop::Wall { region, edge } => Some(Edge::new(region, edge)),
                _ => None,
            },
            object_edge: match m.stop {
                MoveStop::ObjectWall { edge } => Some(ObjectEdge::from(edge)),
                _ => None,
            },
        }
    }
}

#[pymethods]
impl Move {
    fn __repr__(&self) -> String {
        let edge = repr_or_none(self.edge.as_ref(), Edge::__repr__);
        let object_edge = repr_or_none(self.object_edge.as_ref(), ObjectEdge::__repr__);
        format!(
            "Move(x={:?}, z={:?}, height={:?}, stop='{}', cell={}, edge={edge}, object_edge={object_edge})",
            self.x,
            self.z,
            self.height,
            self.stop,
            self.cell.__repr__()
        )
    }
}

/// The walkable point nearest a point: as `silknav snap` answers it.
#[pyclass(module = "silknav", frozen, eq, get_all)]
#[derive(Clone, PartialEq)]
pub struct Snap {
    /// World x of the point.
    pub x: f64,
    /// World z of the point.
    pub z: f64,
    /// Its distance from the query point, in world units.
    pub distance: f64,
    /// Its cell, as `World.cell` answers it there.
    pub cell: Cell,
}

impl From<silknav::world::snap::Snap> for Snap {
    fn from(s: silknav::world::snap::Snap) -> Snap {
        let (x, z) = xz(s.position);
        Snap {
            x,
            z,
            distance: s.distance,
            cell: Cell::from(s.cell),
        }
    }
}

#[pymethods]
impl Snap {
    fn __repr__(&self) -> String {
        format!(
            "Snap(x={:?}, z={:?}, distance={:?}, cell={})",
            self.x,
            self.z,
            self.distance,
            self.cell.__repr__()
        )
    }
}

/// A shortest path: as `silknav path` answers it.
#[pyclass(module = "silknav", frozen, eq, get_all)]
#[derive(Clone, PartialEq)]
pub struct Path {
    /// The length in world units: the sum of the straight legs (for a walkable path, the
    /// walked polyline's).
    pub length: f64,
    /// The exact optimum's length (the path's own when `exact`).
    pub exact_length: f64,
    /// Whether this is the exact optimum, whose waypoints sit on the corners of blocked
    /// ground; else every leg is walked to its end by the server's walk (`move`).
    pub exact: bool,
    /// The waypoints `(x, z)` in world coordinates, from the start to the goal, both
    /// included (in a dungeon, its own coordinates).
    pub waypoints: Vec<(f64, f64)>,
    /// The dungeon the path is in (its id), or None on the terrain.
    pub dungeon: Option<u16>,
}

impl From<&WorldPath> for Path {
    fn from(p: &WorldPath) -> Path {
        Path {
            length: p.length,
            exact_length: p.exact_length,
            exact: p.exact,
            waypoints: p.waypoints.iter().map(|&w| xz(w)).collect(),
            dungeon: p
                .waypoints
                .first()
                .filter(|w| w.region.is_dungeon())
                .map(|w| w.region.0 & 0x7FFF),
        }
    }
}

#[pymethods]
impl Path {
    fn __repr__(&self) -> String {
        format!(
            "Path(length={:?}, exact_length={:?}, exact={}, waypoints=<{} points>)",
            self.length,
            self.exact_length,
            if self.exact { "True" } else { "False" },
            self.waypoints.len()
        )
    }
}
