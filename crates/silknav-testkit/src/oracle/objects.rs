//! A brute-force reference for object-aware line of sight: the documented rules
//! (`silknav::world::raycast`) applied with plain arithmetic to every record of every region's
//! object list, none of the library's query code, and an exact orientation test (`robust`).
//!
//! Every object record is placed in world units (its vertices rotated and moved in double, in
//! the frame of the region whose list holds it), and every decision is taken there: the
//! library decides in each object's own frame, so the two agree up to the rounding of the
//! placement. The terrain cells a segment passes are found by clipping the segment to every
//! cell rectangle near it; the terrain pieces (where the walker is on the terrain) are asked
//! of a terrain-only query the caller passes in, which the terrain oracle checks on its own.
//!
//! - [`ObjectOracle::placed`]: the instances, once each (for picking test points).
//! - [`ObjectOracle::hits`]: the object triangles under a point, exactly (no server float test).
//! - [`ObjectOracle::raycast`]: where a segment is blocked.
//! - [`oracle_ray`], [`library_ray`] ([`ray_of`]), [`agree`]: a cast asked of both and compared, where
//!   [`clear_start`] says the start is unambiguous.

use jmxv::bms::{ObjectMesh, NO_CELL};
use jmxv::nvm::NavMesh;
use jmxv::RegionId;
use silknav::objects::{
    walk::{ObjectEdgeKind, ObjectEdgeRef},
    InstanceKey, ObjectCellRef,
};
use silknav::world::raycast::{RayError, RayHit};
use silknav::{Position, Surface, World};
use std::collections::BTreeMap;

const REGION: f64 = 1920.0;
/// How far, in world units, the terrain's answers may move with the f32 rounding of the point
/// the oracle restarts a terrain piece from (what [`agree`] allows a terrain wall's hit).
const TERRAIN_ROUNDING: f64 = 1e-3;

/// An instance as the oracle places it (its owner's record when the owner lists it).
#[derive(Debug, Clone)]
pub struct Placed {
    /// Its identity.
    pub key: InstanceKey,
    /// The region whose record was kept.
    pub frame: RegionId,
    /// The translation, local to `frame`.
    pub position: [f32; 3],
    /// The rotation about +Y.
    pub yaw: f32,
    /// Its mesh (with a navigation section).
    pub mesh: ObjectMesh,
}

impl Placed {
    /// An object-local xz point in world units.
    pub fn to_world(&self, x: f64, z: f64) -> [f64; 2] {
        place(self.frame, self.position, self.yaw, x, z)
    }
}

fn place(frame: RegionId, position: [f32; 3], yaw: f32, x: f64, z: f64) -> [f64; 2] {
    let (c, s) = (f64::from(yaw).cos(), f64::from(yaw).sin());
    [
        f64::from(frame.x()) * REGION + f64::from(position[0]) + (x * c - z * s),
        f64::from(frame.z()) * REGION + f64::from(position[2]) + (x * s + z * c),
    ]
}

/// Exact orientation: > 0 when c is left of a → b.
pub fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let p = |q: [f64; 2]| robust::Coord { x: q[0], y: q[1] };
    robust::orient2d(p(a), p(b), p(c))
}

fn sgn(v: f64) -> i32 {
    (v > 0.0) as i32 - (v < 0.0) as i32
}

/// Where the oracle's walk ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OracleRay {
    /// The segment is clear.
    Clear,
    /// Blocked at `t` (0 to 1), by an object edge or (`None`) by the terrain.
    Blocked {
        /// How far along.
        t: f64,
        /// The object edge, if one blocked.
        edge: Option<ObjectEdgeRef>,
    },
    /// The start is on no surface.
    StartNotWalkable,
}

/// An edge of a record: vertex a, vertex b, cell a, cell b, flag.
type REdge = (usize, usize, usize, Option<usize>, u8);

/// A region's cells (world rectangles with their object lists) and its placed records.
type RegionData = (Vec<([f64; 4], Vec<u16>)>, Vec<Option<Record>>);

/// Where the walk is on an object: region, record, triangle, the edge it came over.
type OnObject = (RegionId, usize, usize, Option<(usize, usize)>);

/// One record of a region's object list, placed in world units.
#[derive(Debug, Clone)]
struct Record {
    key: InstanceKey,
    /// Vertices in world units.
    v: Vec<[f64; 2]>,
    tris: Vec<[usize; 3]>,
    /// Per triangle, its first three edge records: (0 outline / 1 inline, index).
    tri_edges: Vec<Vec<(usize, usize)>>,
    /// [outline, inline]: (vertex a, vertex b, cell a, cell b, flag).
    edges: [Vec<REdge>; 2],
    links: Vec<[u16; 3]>,
    siege_option: bool,
}

/// Every record of every region's object list, placed, with the regions' cells.
#[derive(Debug, Clone)]
pub struct ObjectOracle {
    /// The instances, once each, by key.
    pub placed: Vec<Placed>,
    /// Per region: its cells (world rectangles) with their object lists, and its records.
    regions: BTreeMap<RegionId, RegionData>,
    /// Per region: whether each tile is walkable.
    open: BTreeMap<RegionId, Vec<bool>>,
}

/// The distance from `w` to the closed segment `a b` (to `a` where they coincide).
fn distance_to_segment(w: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dz) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dz * dz;
    let u = if len2 > 0.0 {
        (((w[0] - a[0]) * dx + (w[1] - a[1]) * dz) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a[0] + u * dx - w[0]).hypot(a[1] + u * dz - w[1])
}

/// The parameter along segment `p → q` where it meets edge `a → b` (closed, not collinear).
fn crossing(p: [f64; 2], q: [f64; 2], a: [f64; 2], b: [f64; 2]) -> Option<f64> {
    let (o0, o1) = (orient(a, b, p), orient(a, b, q));
    if sgn(o0) * sgn(o1) > 0 || (o0 == 0.0 && o1 == 0.0) {
        return None;
    }
    if sgn(orient(p, q, a)) * sgn(orient(p, q, b)) > 0 {
        return None;
    }
    Some(o0 / (o0 - o1))
}

impl Record {
    fn line(&self, g: usize, i: usize) -> ([f64; 2], [f64; 2]) {
        let e = self.edges[g][i];
        (self.v[e.0], self.v[e.1])
    }

    /// Which side of the edge's line `q` is on, seen from triangle `t`.
    fn side(&self, g: usize, i: usize, t: usize, q: [f64; 2]) -> i32 {
        let (a, b) = self.line(g, i);
        let inner = self.tris[t]
            .iter()
            .map(|&k| sgn(orient(a, b, self.v[k])))
            .find(|&s| s != 0)
            .unwrap_or(0);
        inner * sgn(orient(a, b, q))
    }

    fn edge_ref(&self, g: usize, i: usize) -> ObjectEdgeRef {
        ObjectEdgeRef {
            instance: self.key,
            kind: if g == 0 {
                ObjectEdgeKind::Outline
            } else {
                ObjectEdgeKind::Inline
            },
            edge: i as u16,
        }
    }
}

impl ObjectOracle {
    /// The oracle over these files; `meshes` by object id (those with a navigation section are
    /// placed).
    pub fn new(
        navmeshes: &BTreeMap<RegionId, NavMesh>,
        meshes: &BTreeMap<u32, ObjectMesh>,
    ) -> ObjectOracle {
        let mut once: BTreeMap<InstanceKey, Placed> = BTreeMap::new();
        let mut regions = BTreeMap::new();
        let mut open = BTreeMap::new();
        for (&region, nvm) in navmeshes {
            open.insert(
                region,
                nvm.tiles
                    .iter()
                    .map(|t| !t.is_blocked() && usize::from(t.cell()) < nvm.cells.len())
                    .collect(),
            );
            let corner = [
                f64::from(region.x()) * REGION,
                f64::from(region.z()) * REGION,
            ];
            let cells = nvm
                .cells
                .iter()
                .map(|c| {
                    (
                        [
                            corner[0] + f64::from(c.min[0].get()),
                            corner[1] + f64::from(c.min[1].get()),
                            corner[0] + f64::from(c.max[0].get()),
                            corner[1] + f64::from(c.max[1].get()),
                        ],
                        c.objects.clone(),
                    )
                })
                .collect();
            let mut records = Vec::new();
            for o in &nvm.objects {
                let key = InstanceKey::new(RegionId(o.region_id), o.uid);
                let Some(mesh) = meshes.get(&o.object_id).filter(|m| m.nav.is_some()) else {
                    records.push(None);
                    continue;
                };
                let (position, yaw) = (o.position.map(|c| c.get()), o.yaw.get());
                match once.get(&key) {
                    Some(old) if old.frame == key.owner() || region != key.owner() => {}
                    _ => {
                        once.insert(
                            key,
                            Placed {
                                key,
                                frame: region,
                                position,
                                yaw,
                                mesh: mesh.clone(),
                            },
                        );
                    }
                }
                let nav = mesh.nav.as_ref().expect("checked");
                let v = nav
                    .vertices
                    .iter()
                    .map(|p| {
                        place(
                            region,
                            position,
                            yaw,
                            f64::from(p.position[0].get()),
                            f64::from(p.position[2].get()),
                        )
                    })
                    .collect();
                let tris: Vec<[usize; 3]> = nav
                    .cells
                    .iter()
                    .map(|c| c.vertices.map(usize::from))
                    .collect();
                let mut tri_edges = vec![Vec::new(); tris.len()];
                let mut edges: [Vec<_>; 2] = [Vec::new(), Vec::new()];
                for (g, list) in [&nav.outline_edges, &nav.inline_edges]
                    .into_iter()
                    .enumerate()
                {
                    for (i, e) in list.iter().enumerate() {
                        let a = usize::from(e.cells[0]);
                        let b = (e.cells[1] != NO_CELL).then_some(usize::from(e.cells[1]));
                        for c in std::iter::once(a).chain(b) {
                            if tri_edges[c].len() < 3 {
                                tri_edges[c].push((g, i));
                            }
                        }
                        edges[g].push((
                            usize::from(e.vertices[0]),
                            usize::from(e.vertices[1]),
                            a,
                            b,
                            e.flag,
                        ));
                    }
                }
                records.push(Some(Record {
                    key,
                    v,
                    tris,
                    tri_edges,
                    edges,
                    links: o
                        .links
                        .iter()
                        .map(|l| [l.link_object, l.link_edge, l.edge])
                        .collect(),
                    siege_option: mesh.header.nav_flags & 8 != 0,
                }));
            }
            regions.insert(region, (cells, records));
        }
        ObjectOracle {
            placed: once.into_values().collect(),
            regions,
            open,
        }
    }

    /// Whether the tile under a world point (half-open tiles) is walkable.
    fn tile_walkable(&self, w: [f64; 2]) -> bool {
        let (tx, tz) = ((w[0] / 20.0).floor() as i64, (w[1] / 20.0).floor() as i64);
        if tx < 0 || tz < 0 {
            return false;
        }
        let region = RegionId::new((tx / 96).min(255) as u8, (tz / 96).min(127) as u8);
        self.open
            .get(&region)
            .is_some_and(|o| o[((tz % 96) * 96 + tx % 96) as usize])
    }

    /// Every (object cell, instance) whose placed triangle contains the point exactly, over
    /// every record of the point's region.
    pub fn hits(&self, pos: Position) -> Vec<(ObjectCellRef, f32)> {
        let mut out = Vec::new();
        let Some((_, records)) = self.regions.get(&pos.region) else {
            return out;
        };
        let w = [pos.world_x(), pos.world_z()];
        for r in records.iter().flatten() {
            for (t, tri) in r.tris.iter().enumerate() {
                let [a, b, c] = tri.map(|k| r.v[k]);
                let d = orient(a, b, c);
                let o = [orient(b, c, w), orient(c, a, w), orient(a, b, w)];
                let inside = d != 0.0
                    && if d > 0.0 {
                        o.iter().all(|&x| x >= 0.0)
                    } else {
                        o.iter().all(|&x| x <= 0.0)
                    };
                if inside {
                    out.push((
                        ObjectCellRef {
                            instance: r.key,
                            cell: t as u16,
                        },
                        0.0,
                    ));
                }
            }
        }
        out
    }

    /// Whether the segment `from → to` crosses outline edges of two different instances
    /// within `tolerance` units of each other (instances stacked on one another, or edges of
    /// two instances meeting on it): which one the server's probe meets first is the
    /// placement's rounding, which the library and the oracle do in different frames.
    pub fn crosses_two_instances_at_once(
        &self,
        from: Position,
        to: Position,
        tolerance: f64,
    ) -> bool {
        let (p, q) = (
            [from.world_x(), from.world_z()],
            [to.world_x(), to.world_z()],
        );
        let span = (q[0] - p[0]).hypot(q[1] - p[1]);
        let mut crossings: Vec<(f64, InstanceKey)> = Vec::new();
        for r in self.regions.values().flat_map(|(_, r)| r.iter().flatten()) {
            for i in 0..r.edges[0].len() {
                let (a, b) = r.line(0, i);
                if let Some(s) = crossing(p, q, a, b) {
                    crossings.push((s * span, r.key));
                }
            }
        }
        crossings.sort_by(|a, b| a.0.total_cmp(&b.0));
        crossings
            .windows(2)
            .any(|w| w[1].0 - w[0].0 <= tolerance && w[0].1 != w[1].1)
    }

    /// Whether the segment `from → to` passes within `tolerance` units of a vertex of any
    /// placed mesh: through a vertex, which of the edges meeting there the segment crosses is
    /// decided by the rounding of the placement, which the library and the oracle do in
    /// different frames.
    pub fn passes_near_a_vertex(&self, from: Position, to: Position, tolerance: f64) -> bool {
        let (p, q) = (
            [from.world_x(), from.world_z()],
            [to.world_x(), to.world_z()],
        );
        let mut records = self.regions.values().flat_map(|(_, r)| r.iter().flatten());
        records.any(|r| {
            r.v.iter()
                .any(|&v| distance_to_segment(v, p, q) < tolerance)
        })
    }

    /// Whether the point lies within `tolerance` units of a side of a placed triangle of its
    /// region's records (where the rounding of a placement decides which side it is on).
    pub fn near_a_side(&self, pos: Position, tolerance: f64) -> bool {
        let Some((_, records)) = self.regions.get(&pos.region) else {
            return false;
        };
        let w = [pos.world_x(), pos.world_z()];
        records.iter().flatten().any(|r| {
            r.tris.iter().any(|tri| {
                (0..3).any(|k| {
                    let (a, b) = (r.v[tri[k]], r.v[tri[(k + 1) % 3]]);
                    distance_to_segment(w, a, b) < tolerance
                })
            })
        })
    }

    /// The cells of the loaded regions the segment `p → q` passes through the inside of, with
    /// the parameter where it enters each (0 for the one it starts in), ascending.
    fn cells_passed(&self, p: [f64; 2], q: [f64; 2]) -> Vec<(f64, RegionId, usize)> {
        let mut out = Vec::new();
        let (lo, hi) = (
            [p[0].min(q[0]), p[1].min(q[1])],
            [p[0].max(q[0]), p[1].max(q[1])],
        );
        for (&region, (cells, _)) in &self.regions {
            for (c, (r, _)) in cells.iter().enumerate() {
                if r[0] > hi[0] || r[2] < lo[0] || r[1] > hi[1] || r[3] < lo[1] {
                    continue;
                }
                // Clip the segment to the rectangle (Liang–Barsky, open interior).
                let (mut t0, mut t1) = (0.0f64, 1.0f64);
                let d = [q[0] - p[0], q[1] - p[1]];
                let mut ok = true;
                for k in 0..2 {
                    if d[k] == 0.0 {
                        if !(r[k] <= p[k] && p[k] < r[k + 2]) {
                            ok = false;
                        }
                        continue;
                    }
                    let (a, b) = ((r[k] - p[k]) / d[k], (r[k + 2] - p[k]) / d[k]);
                    t0 = t0.max(a.min(b));
                    t1 = t1.min(a.max(b));
                }
                if ok && t0 < t1 {
                    out.push((t0, region, c));
                }
            }
        }
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out
    }

    /// The segment `from → to` walked by the documented rules, starting on `start` (an object
    /// triangle: the record of that instance in `from`'s region) or the terrain (`None`);
    /// `to_on_terrain` tells whether the end's surface is the terrain (for the siege rule).
    /// `terrain(p, q)` answers a terrain-only cast from world point `p` to `q`: `Err(())` when
    /// `p` is not walkable, else the blocking parameter along `p → q`, if any.
    pub fn raycast(
        &self,
        from: Position,
        start: Option<ObjectCellRef>,
        to: Position,
        to_on_terrain: bool,
        terrain: impl Fn([f64; 2], [f64; 2]) -> Result<Option<f64>, ()>,
    ) -> OracleRay {
        let (ex, ez) = to.in_frame_of(from.region);
        let corner = [
            f64::from(from.region.x()) * REGION,
            f64::from(from.region.z()) * REGION,
        ];
        let p0 = [corner[0] + f64::from(from.x), corner[1] + f64::from(from.z)];
        let end = [corner[0] + f64::from(ex), corner[1] + f64::from(ez)];
        let at = |t: f64| [p0[0] + t * (end[0] - p0[0]), p0[1] + t * (end[1] - p0[1])];
        let ends_on_terrain = start.is_none() && to_on_terrain;
        // (region, record, triangle, previous edge)
        let mut on: Option<OnObject> = match start {
            None => None,
            Some(c) => {
                let Some((_, records)) = self.regions.get(&from.region) else {
                    return OracleRay::StartNotWalkable;
                };
                let Some(k) = records
                    .iter()
                    .position(|r| r.as_ref().is_some_and(|r| r.key == c.instance))
                else {
                    return OracleRay::StartNotWalkable;
                };
                Some((from.region, k, usize::from(c.cell), None))
            }
        };
        let (mut t, mut inclusive, mut legs) = (0.0, true, 1);
        // The outline edge just stepped off over (region, record, edge): not met again.
        let mut left_over: Option<(RegionId, usize, usize)> = None;
        for _ in 0..100_000 {
            let (region, k, tri, edge) = match on {
                None => {
                    let blocked = match terrain(at(t), end) {
                        Err(()) if t == 0.0 => return OracleRay::StartNotWalkable,
                        Err(()) => return OracleRay::Blocked { t, edge: None },
                        Ok(b) => b.map(|b| t + b * (1.0 - t)),
                    };
                    // The cells entered before the terrain blocks, each probed once. The block
                    // is found from a restart rounded to f32: a cell entered within the
                    // rounding of it (a wall on the cell's side) is one the walk never enters.
                    let span = (end[0] - p0[0]).hypot(end[1] - p0[1]);
                    let stop = blocked.map_or(2.0, |b| b - TERRAIN_ROUNDING / span);
                    let mut entry = None;
                    for (u, region, c) in self.cells_passed(at(t), end) {
                        let t_enter = t + u * (1.0 - t);
                        if t_enter >= stop {
                            break;
                        }
                        let (cells, records) = &self.regions[&region];
                        let from_here = at(t_enter);
                        let mut best: Option<(f64, usize, usize)> = None;
                        for &k in &cells[c].1 {
                            let Some(Some(r)) = records.get(usize::from(k)) else {
                                continue;
                            };
                            for (i, e) in r.edges[0].iter().enumerate() {
                                if e.4 & 0x10 != 0 || left_over == Some((region, usize::from(k), i))
                                {
                                    continue;
                                }
                                let (a, b) = r.line(0, i);
                                let Some(s) = crossing(from_here, end, a, b) else {
                                    continue;
                                };
                                let ahead = s > 0.0 || (inclusive && u == 0.0 && s == 0.0);
                                let tx = t_enter + s * (1.0 - t_enter);
                                if ahead && best.map_or(true, |bb| tx < bb.0) {
                                    best = Some((tx, usize::from(k), i));
                                }
                            }
                        }
                        if let Some(b) = best {
                            entry = Some((region, b));
                            break;
                        }
                    }
                    let Some((region, (tx, k, i))) = entry else {
                        return match blocked {
                            Some(b) => OracleRay::Blocked { t: b, edge: None },
                            None => OracleRay::Clear,
                        };
                    };
                    let r = self.regions[&region].1[k].as_ref().expect("probed");
                    let e = r.edges[0][i];
                    legs += 1;
                    let siege = e.4 & 0x80 != 0 && ends_on_terrain && !r.siege_option;
                    if legs > 7 || e.4 & 0x01 != 0 || siege {
                        return OracleRay::Blocked {
                            t: tx,
                            edge: Some(r.edge_ref(0, i)),
                        };
                    }
                    t = tx;
                    if r.side(0, i, e.2, end) > 0 {
                        on = Some((region, k, e.2, Some((0, i))));
                        continue;
                    }
                    (region, k, e.2, (0, i))
                }
                Some((region, k, tri, previous)) => {
                    let r = self.regions[&region].1[k].as_ref().expect("placed");
                    let p = at(t);
                    let mut best: Option<(f64, (usize, usize))> = None;
                    for &(g, i) in &r.tri_edges[tri] {
                        if Some((g, i)) == previous || r.side(g, i, tri, end) >= 0 {
                            continue;
                        }
                        let (a, b) = r.line(g, i);
                        if let Some(s) = crossing(p, end, a, b) {
                            if s >= 0.0 && best.map_or(true, |bb| s < bb.0) {
                                best = Some((s, (g, i)));
                            }
                        }
                    }
                    let Some((s, edge)) = best else {
                        return OracleRay::Clear;
                    };
                    t += s * (1.0 - t);
                    (region, k, tri, edge)
                }
            };
            // Crossing `edge` of triangle `tri` of record `k` at `t`.
            let r = self.regions[&region].1[k].as_ref().expect("placed");
            let (g, i) = edge;
            let (_, _, ca, cb, flag) = r.edges[g][i];
            let blocked = OracleRay::Blocked {
                t,
                edge: Some(r.edge_ref(g, i)),
            };
            if flag & 0x80 != 0 && ends_on_terrain && !r.siege_option {
                return blocked;
            }
            if flag & 0x04 != 0 {
                let next = if ca == tri { cb } else { Some(ca) };
                let Some(next) = next else { return blocked };
                if (flag & 0x02 != 0 && ca == tri) || (flag & 0x01 != 0 && cb == Some(tri)) {
                    return blocked;
                }
                on = Some((region, k, next, Some(edge)));
                continue;
            }
            if flag & 0x12 != 0 {
                return blocked;
            }
            legs += 1;
            if legs > 7 {
                return blocked;
            }
            if flag & 0x08 != 0 {
                let row = (g == 0)
                    .then(|| r.links.iter().find(|l| usize::from(l[2]) == i))
                    .flatten();
                let Some(row) = row else { return blocked };
                let Some(Some(o)) = self.regions[&region].1.get(usize::from(row[0])) else {
                    return blocked;
                };
                if let Some(oe) = o.edges[0].get(usize::from(row[1])) {
                    on = Some((
                        region,
                        usize::from(row[0]),
                        oe.2,
                        Some((0, usize::from(row[1]))),
                    ));
                    continue;
                }
            }
            // Down onto the terrain, which must be walkable there.
            if !self.tile_walkable(at(t)) {
                return blocked;
            }
            on = None;
            inclusive = false;
            left_over = (g == 0).then_some((region, k, i));
        }
        OracleRay::Blocked { t, edge: None }
    }
}

/// The oracle's answer for a cast from `from` on `start`, its terrain pieces asked of the
/// terrain-only world.
pub fn oracle_ray(
    oracle: &ObjectOracle,
    world: &World,
    terrain: &World,
    from: Position,
    start: Option<ObjectCellRef>,
    to: Position,
) -> OracleRay {
    // The end's surface, for the siege rule: the library's cell, checked elsewhere against
    // the server's second port.
    let to_on_terrain = world
        .cell_at(to, Surface::Highest)
        .map_or(true, |c| c.object.is_none());
    oracle.raycast(from, start, to, to_on_terrain, |p, q| {
        let (Some(p), Some(q)) = (
            Position::from_world(p[0], p[1]),
            Position::from_world(q[0], q[1]),
        ) else {
            return Err(());
        };
        terrain
            .raycast(p, q, Surface::Highest)
            .map(|h| h.map(|h| h.t))
            .map_err(|_| ())
    })
}

/// Whether a start on an object is unambiguous for the exact walk: the point lies inside
/// exactly one triangle, the one the server's float test picked. (A point on a side or a
/// vertex of its triangle is decided by the rounding of the placement, which the library and
/// the oracle do in different frames.)
pub fn clear_start(oracle: &ObjectOracle, from: Position, start: Option<ObjectCellRef>) -> bool {
    start.map_or(true, |s| {
        let exact = oracle.hits(from);
        exact.len() == 1 && exact[0].0 == s && !oracle.near_a_side(from, 1e-6)
    })
}

/// The library's answer for a cast from `from` on `surface`, in the oracle's terms.
pub fn library_ray(world: &World, from: Position, surface: Surface, to: Position) -> OracleRay {
    ray_of(world.raycast(from, to, surface))
}

/// A library cast's answer ([`World::raycast`]) in the oracle's terms.
pub fn ray_of(answer: Result<Option<RayHit>, RayError>) -> OracleRay {
    match answer {
        Err(_) => OracleRay::StartNotWalkable,
        Ok(None) => OracleRay::Clear,
        Ok(Some(hit)) => OracleRay::Blocked {
            t: hit.t,
            edge: hit.object_edge,
        },
    }
}

/// Whether two answers for a segment of `length` units agree: the same outcome and edge, the
/// points within the rounding of the placement on object edges (the library turns the segment
/// into each object's frame, the oracle the edges into the world's; both round the rotation
/// at about 1e-12 units), and on terrain walls within the f32 rounding of the point where the
/// oracle's terrain piece restarts (it asks the terrain query from a position; the library
/// walks on from the crossing in double).
pub fn agree(a: OracleRay, b: OracleRay, length: f64) -> bool {
    match (a, b) {
        (OracleRay::Blocked { t: ta, edge: ea }, OracleRay::Blocked { t: tb, edge: eb }) => {
            let tolerance = if ea.is_some() { 1e-6 } else { TERRAIN_ROUNDING };
            ea == eb && (ta - tb).abs() * length <= tolerance
        }
        (a, b) => a == b,
    }
}

/// The straight distance between two positions, world units.
pub fn length(from: Position, to: Position) -> f64 {
    (to.world_x() - from.world_x()).hypot(to.world_z() - from.world_z())
}
