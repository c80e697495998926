//! The answers of the queries as JSON values: the one definition of the JSON the command
//! line's `--json` prints and the query server sends, so that the two agree byte for byte.
//!
//! Each function turns a query's result (from [`crate::query`] or the [`World`] methods) into
//! a value that serializes to the answer documented in `docs/cli.md`; serialize it with
//! `serde_json::to_writer` or `to_string` (compact, keys in the documented order).
//!
//! | query | answer |
//! |---|---|
//! | [`cell`] | `{"region":"4080","cell":12,"object":null}`, `"object":{"owner":"694f","uid":1,"cell":3}` on an object, all null for none |
//! | [`height`] | `{"height":84.5}` or `{"height":null}`; a height that is not finite is a string (`"inf"`, `"-inf"`, `"nan:XXXXXXXX"`) |
//! | [`los`] | `{"clear":true}`, `{"clear":false,"x":..,"z":..,"t":..,"edge":..,"object_edge":..,"normal":[..]}` (with `"circle":N` for a dungeon's collision circle), or `{"clear":null,"error":"start-blocked"}` |
//! | [`move_along`] | `{"x":..,"z":..,"height":..,"stop":"wall","cell":{..},"edge":..,"object_edge":..}` (with `"circle":N` for `"stop":"circle"`) or `{"stop":null,"error":"off-mesh"}` (with `"region"` for `missing-region`) |
//! | [`snap`] | `{"x":..,"z":..,"distance":..,"cell":{..}}` or all null |
//! | [`path`] | `{"length":..,"exact_length":..,"mode":"walkable","waypoints":[[x,z],..],"cells":[{"region","cell"},..]}` or `{"length":null,"error":"unreachable"}` |
//! | [`regions`] | `{"count":N,"bounds":{..},"regions":[{"region":"4080","x":..,"z":..,"bounds":{..}},..]}` |
//!
//! Points are world coordinates as `f64`: the shortest decimal that reads back to the same
//! value, which is exactly the library's `f32` position in its region.

use crate::geometry::REGION_SIZE;
use crate::objects::walk::{ObjectEdgeKind, ObjectEdgeRef};
use crate::path::{PathError, WorldPath};
use crate::world::{
    movement::{MoveError, MoveOutcome, MoveStop},
    raycast::{RayError, RayHit},
    snap::Snap,
    CellRef, EdgeId, Surface, World,
};
use jmxv::json::Float;
use jmxv::{RegionId, F32};
use serde::Serialize;

/// An edge of a region's navmesh: `{"region":"4080","kind":"internal","index":12}`.
#[derive(Debug, Serialize)]
pub struct Edge {
    region: String,
    kind: &'static str,
    index: u32,
}

impl Edge {
    fn new(region: RegionId, edge: EdgeId) -> Edge {
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

/// The answer of a cell query.
#[derive(Debug, Serialize)]
pub struct Cell {
    region: Option<String>,
    cell: Option<u16>,
    object: Option<ObjectCell>,
}

#[derive(Debug, Serialize)]
struct ObjectCell {
    owner: String,
    uid: u16,
    cell: u16,
}

/// The cell under a point ([`crate::query::cell`]).
pub fn cell(answer: Option<CellRef>) -> Cell {
    Cell {
        region: answer.map(|c| c.region.to_string()),
        cell: answer.map(|c| c.cell),
        object: answer.and_then(|c| c.object).map(|o| ObjectCell {
            owner: o.instance.owner().to_string(),
            uid: o.instance.uid(),
            cell: o.cell,
        }),
    }
}

/// The answer of a height query.
#[derive(Debug, Serialize)]
pub struct Height {
    height: Option<Float>,
}

/// The height at a point ([`crate::query::height`]).
pub fn height(answer: Option<f32>) -> Height {
    Height {
        height: answer.map(|h| Float(F32::from(h))),
    }
}

/// The answer of a line-of-sight query.
#[derive(Debug, Serialize)]
pub struct Los {
    clear: Option<bool>,
    #[serde(flatten)]
    hit: Option<Hit>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'static str>,
}

#[derive(Debug, Serialize)]
struct Hit {
    x: f64,
    z: f64,
    t: f64,
    edge: Option<Edge>,
    object_edge: Option<ObjectEdge>,
    #[serde(skip_serializing_if = "Option::is_none")]
    circle: Option<usize>,
    normal: [f32; 2],
}

#[derive(Debug, Serialize)]
struct ObjectEdge {
    owner: String,
    uid: u16,
    kind: &'static str,
    index: u16,
}

impl ObjectEdge {
    fn new(e: ObjectEdgeRef) -> ObjectEdge {
        ObjectEdge {
            owner: e.instance.owner().to_string(),
            uid: e.instance.uid(),
            kind: object_edge_kind(e),
            index: e.edge,
        }
    }
}

/// The word of an object edge's kind: `outline` or `inline`.
pub fn object_edge_kind(e: ObjectEdgeRef) -> &'static str {
    match e.kind {
        ObjectEdgeKind::Outline => "outline",
        ObjectEdgeKind::Inline => "inline",
    }
}

/// Whether a segment is clear, and where it is blocked ([`crate::query::los`]).
pub fn los(answer: &Result<Option<RayHit>, RayError>) -> Los {
    match *answer {
        Ok(None) => Los {
            clear: Some(true),
            hit: None,
            error: None,
        },
        Ok(Some(hit)) => Los {
            clear: Some(false),
            hit: Some(Hit {
                x: hit.point.world_x(),
                z: hit.point.world_z(),
                t: hit.t,
                edge: hit.edge.map(|(r, e)| Edge::new(r, e)),
                object_edge: hit.object_edge.map(ObjectEdge::new),
                circle: hit.circle,
                normal: hit.normal,
            }),
            error: None,
        },
        Err(e) => Los {
            clear: None,
            hit: None,
            error: Some(e.word()),
        },
    }
}

/// The answer of a move query.
#[derive(Debug, Serialize)]
pub struct Move {
    #[serde(flatten)]
    stop_at: Option<StopAt>,
    stop: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cell: Option<Cell>,
    #[serde(skip_serializing_if = "Option::is_none")]
    edge: Option<Option<Edge>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    object_edge: Option<Option<ObjectEdge>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    circle: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<String>,
}

#[derive(Debug, Serialize)]
struct StopAt {
    x: f64,
    z: f64,
    height: Float,
}

/// Where a walk stops, its height and cell, and the edge that stopped it (a terrain wall's
/// `edge`, an object edge's `object_edge`) ([`crate::query::move_along`]).
pub fn move_along(answer: &Result<MoveOutcome, MoveError>) -> Move {
    match *answer {
        Ok(outcome) => Move {
            stop_at: Some(StopAt {
                x: outcome.position.world_x(),
                z: outcome.position.world_z(),
                height: Float(F32::from(outcome.height)),
            }),
            stop: Some(outcome.stop.word()),
            cell: Some(cell(Some(outcome.cell))),
            edge: Some(match outcome.stop {
                MoveStop::Wall { region, edge } => Some(Edge::new(region, edge)),
                _ => None,
            }),
            object_edge: Some(match outcome.stop {
                MoveStop::ObjectWall { edge } => Some(ObjectEdge::new(edge)),
                _ => None,
            }),
            circle: match outcome.stop {
                MoveStop::Circle { index } => Some(index),
                _ => None,
            },
            error: None,
            region: None,
        },
        Err(e) => Move {
            stop_at: None,
            stop: None,
            cell: None,
            edge: None,
            object_edge: None,
            circle: None,
            error: Some(e.word()),
            region: match e {
                MoveError::MissingRegion(r) => Some(r.to_string()),
                _ => None,
            },
        },
    }
}

/// The answer of a snap query.
#[derive(Debug, Serialize)]
pub struct SnapAnswer {
    x: Option<f64>,
    z: Option<f64>,
    distance: Option<f64>,
    cell: Option<Cell>,
}

/// The walkable point nearest a point, its distance and its cell ([`crate::query::snap`]).
pub fn snap(answer: Option<Snap>) -> SnapAnswer {
    SnapAnswer {
        x: answer.map(|s| s.position.world_x()),
        z: answer.map(|s| s.position.world_z()),
        distance: answer.map(|s| s.distance),
        cell: answer.map(|s| cell(Some(s.cell))),
    }
}

/// The answer of a path query.
#[derive(Debug, Serialize)]
pub struct Path {
    /// The walked length: the sum of the legs between the waypoints.
    length: Option<f64>,
    /// The exact shortest path's length (equal to `length` in mode `exact`).
    #[serde(skip_serializing_if = "Option::is_none")]
    exact_length: Option<f64>,
    /// `walkable` (every leg accepted by the server's walk on the terrain) or `exact`.
    #[serde(skip_serializing_if = "Option::is_none")]
    mode: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    waypoints: Option<Vec<[f64; 2]>>,
    /// Per waypoint, the height a walker walking the legs with `move`, each from the height
    /// the one before arrived at, stands at there ([`World::path_heights`]; `null`
    /// where none).
    #[serde(skip_serializing_if = "Option::is_none")]
    heights: Option<Vec<Option<f32>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cells: Option<Vec<PathCell>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'static str>,
}

#[derive(Debug, PartialEq, Serialize)]
struct PathCell {
    region: String,
    cell: u16,
}

/// The shortest path, with its waypoints' heights ([`World::path_heights`]) and the cells it
/// crosses ([`World::path_cells`]), or why there is none ([`crate::query::path`]).
pub fn path(world: &World, answer: &Result<WorldPath, PathError>) -> Path {
    path_from(world, answer, None)
}

/// [`path`] for a walker at height `start_y` at the start: the heights and the cells are
/// [`World::path_heights`]'s and [`World::path_cells`]'s from that height.
pub fn path_from(
    world: &World,
    answer: &Result<WorldPath, PathError>,
    start_y: Option<f32>,
) -> Path {
    match answer {
        Ok(p) => Path {
            length: Some(p.length),
            exact_length: Some(p.exact_length),
            mode: Some(if p.exact { "exact" } else { "walkable" }),
            waypoints: Some(
                p.waypoints
                    .iter()
                    .map(|w| [w.world_x(), w.world_z()])
                    .collect(),
            ),
            heights: Some(world.path_heights(p, Surface::from(start_y))),
            cells: Some(
                world
                    .path_cells(p, Surface::from(start_y))
                    .iter()
                    .map(|c| PathCell {
                        region: c.region.to_string(),
                        cell: c.cell,
                    })
                    // In a dungeon a cell is a block, crossed over several of its triangles.
                    .fold(Vec::new(), |mut out: Vec<PathCell>, c| {
                        if out.last() != Some(&c) {
                            out.push(c);
                        }
                        out
                    }),
            ),
            error: None,
        },
        Err(e) => Path {
            length: None,
            exact_length: None,
            mode: None,
            waypoints: None,
            heights: None,
            cells: None,
            error: Some(e.word()),
        },
    }
}

/// The loaded regions and the world coordinates they cover.
#[derive(Debug, Serialize)]
pub struct Regions {
    count: usize,
    bounds: Option<Bounds>,
    regions: Vec<Region>,
}

/// A rectangle of world coordinates, west to east and south to north.
#[derive(Debug, Clone, Copy, Serialize)]
struct Bounds {
    x0: f64,
    z0: f64,
    x1: f64,
    z1: f64,
}

#[derive(Debug, Serialize)]
struct Region {
    region: String,
    x: u8,
    z: u8,
    bounds: Bounds,
}

/// The loaded regions, ascending by id, each with its region coordinates and the square of
/// world coordinates it covers, and the box around them all (`null` for no regions).
pub fn regions(world: &World) -> Regions {
    let size = f64::from(REGION_SIZE);
    let square = |r: RegionId| Bounds {
        x0: f64::from(r.x()) * size,
        z0: f64::from(r.z()) * size,
        x1: f64::from(r.x()) * size + size,
        z1: f64::from(r.z()) * size + size,
    };
    let regions: Vec<Region> = world
        .regions()
        .map(|r| Region {
            region: r.to_string(),
            x: r.x(),
            z: r.z(),
            bounds: square(r),
        })
        .collect();
    let bounds = regions.iter().map(|r| r.bounds).reduce(|a, b| Bounds {
        x0: a.x0.min(b.x0),
        z0: a.z0.min(b.z0),
        x1: a.x1.max(b.x1),
        z1: a.z1.max(b.z1),
    });
    Regions {
        count: regions.len(),
        bounds,
        regions,
    }
}
