//! A brute-force reference for the object-aware queries: every triangle and every edge of
//! every instance, placed from the files alone (no index, none of the library's query code),
//! with plain arithmetic and an exact orientation test (`robust`).
//!
//! - [`ObjectOracle::hits`], [`ObjectOracle::cell_at`], [`ObjectOracle::surface_at_y`]: the
//!   object triangles under a point and the choice between them and the terrain.
//! - [`ObjectOracle::raycast`]: where a segment is blocked, by the documented rules for
//!   terrain and object surfaces (`silknav::world::raycast`), with every edge placed in world
//!   units. The object rules are all here; the terrain pieces (where the walker is on the
//!   terrain) are asked of a terrain-only query the caller passes in, which the terrain
//!   oracle checks on its own. A piece restarts where the walker steps off an object, at that
//!   crossing rounded to f32.

use jmxv::bms::ObjectMesh;
use jmxv::nvm::NavMesh;
use jmxv::RegionId;
use silknav::objects::{InstanceKey, ObjectCellRef, ObjectEdgeKind, ObjectEdgeRef};
use silknav::Position;
use std::collections::BTreeMap;

const REGION: f64 = 1920.0;

/// An instance as the oracle places it.
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
        let (c, s) = (f64::from(self.yaw).cos(), f64::from(self.yaw).sin());
        [
            f64::from(self.frame.x()) * REGION + (x * c - z * s + f64::from(self.position[0])),
            f64::from(self.frame.z()) * REGION + (x * s + z * c + f64::from(self.position[2])),
        ]
    }

    /// A world point in the object's frame.
    pub fn to_local(&self, pos: Position) -> [f64; 2] {
        let (c, s) = (f64::from(self.yaw).cos(), f64::from(self.yaw).sin());
        let dx = f64::from(i32::from(pos.region.x()) - i32::from(self.frame.x())) * REGION
            + f64::from(pos.x)
            - f64::from(self.position[0]);
        let dz = f64::from(i32::from(pos.region.z()) - i32::from(self.frame.z())) * REGION
            + f64::from(pos.z)
            - f64::from(self.position[2]);
        [dx * c + dz * s, dz * c - dx * s]
    }
}

/// Exact orientation: > 0 when c is left of a → b.
pub fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let p = |q: [f64; 2]| robust::Coord { x: q[0], y: q[1] };
    robust::orient2d(p(a), p(b), p(c))
}

fn sgn(v: f64) -> i32 {
    (v > 0.0) as i32 - (v < 0.0) as i32
}

/// An edge placed in world units.
#[derive(Debug, Clone, Copy)]
struct WorldEdge {
    instance: usize,
    edge: ObjectEdgeRef,
    vertices: [u16; 2],
    a: [f64; 2],
    b: [f64; 2],
    cells: [u16; 2],
    flag: u8,
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

/// Every placeable instance of a world's files, placed.
#[derive(Debug, Clone)]
pub struct ObjectOracle {
    /// The instances, by key.
    pub placed: Vec<Placed>,
    edges: Vec<WorldEdge>,
    regions: std::collections::BTreeSet<RegionId>,
}

impl ObjectOracle {
    /// One instance per key (the owner's record when the owner lists it) of every object
    /// whose id has a mesh with a navigation section in `meshes`.
    pub fn new(
        navmeshes: &BTreeMap<RegionId, NavMesh>,
        meshes: &BTreeMap<u32, ObjectMesh>,
    ) -> ObjectOracle {
        let mut out: BTreeMap<InstanceKey, Placed> = BTreeMap::new();
        for (&region, nvm) in navmeshes {
            for o in &nvm.objects {
                let Some(mesh) = meshes.get(&o.object_id).filter(|m| m.nav.is_some()) else {
                    continue;
                };
                let key = InstanceKey::new(RegionId(o.region_id), o.uid);
                let p = Placed {
                    key,
                    frame: region,
                    position: o.position.map(|c| c.get()),
                    yaw: o.yaw.get(),
                    mesh: mesh.clone(),
                };
                match out.get(&key) {
                    Some(old) if old.frame == key.owner() || region != key.owner() => {}
                    _ => {
                        out.insert(key, p);
                    }
                }
            }
        }
        let placed: Vec<Placed> = out.into_values().collect();
        let mut edges = Vec::new();
        for (i, p) in placed.iter().enumerate() {
            let nav = p.mesh.nav.as_ref().expect("kept with a nav section");
            let at = |k: u16| {
                let v = nav.vertices[usize::from(k)].position;
                p.to_world(f64::from(v[0].get()), f64::from(v[2].get()))
            };
            for (kind, list) in [
                (ObjectEdgeKind::Outline, &nav.outline_edges),
                (ObjectEdgeKind::Inline, &nav.inline_edges),
            ] {
                for (k, e) in list.iter().enumerate() {
                    edges.push(WorldEdge {
                        instance: i,
                        edge: ObjectEdgeRef {
                            instance: p.key,
                            kind,
                            edge: k as u16,
                        },
                        vertices: e.vertices,
                        a: at(e.vertices[0]),
                        b: at(e.vertices[1]),
                        cells: e.cells,
                        flag: e.flag,
                    });
                }
            }
        }
        ObjectOracle {
            placed,
            edges,
            regions: navmeshes.keys().copied().collect(),
        }
    }

    /// Every (object cell, height) containing the point; none outside the loaded regions.
    pub fn hits(&self, pos: Position) -> Vec<(ObjectCellRef, f32)> {
        let mut hits = Vec::new();
        if !self.regions.contains(&pos.region) {
            return hits;
        }
        for p in &self.placed {
            let q = p.to_local(pos);
            let nav = p.mesh.nav.as_ref().expect("kept with a nav section");
            for (i, cell) in nav.cells.iter().enumerate() {
                let v = cell
                    .vertices
                    .map(|k| nav.vertices[usize::from(k)].position.map(|f| f.get()));
                let [a, b, cc] = v.map(|v| [f64::from(v[0]), f64::from(v[2])]);
                let d = orient(a, b, cc);
                let w = [orient(b, cc, q), orient(cc, a, q), orient(a, b, q)];
                let inside = if d > 0.0 {
                    w.iter().all(|&x| x >= 0.0)
                } else {
                    w.iter().all(|&x| x <= 0.0)
                };
                if d == 0.0 || !inside {
                    continue;
                }
                let e1 = [b[0] - a[0], b[1] - a[1]];
                let e2 = [cc[0] - a[0], cc[1] - a[1]];
                let r = [q[0] - a[0], q[1] - a[1]];
                let det = e1[0] * e2[1] - e1[1] * e2[0];
                let s1 = (r[0] * e2[1] - r[1] * e2[0]) / det;
                let t1 = (e1[0] * r[1] - e1[1] * r[0]) / det;
                let y = [v[0][1], v[1][1], v[2][1]].map(f64::from);
                let h = (y[0] + s1 * (y[1] - y[0]) + t1 * (y[2] - y[0]) + f64::from(p.position[1]))
                    as f32;
                hits.push((
                    ObjectCellRef {
                        instance: p.key,
                        cell: i as u16,
                    },
                    h,
                ));
            }
        }
        hits
    }

    /// The highest object triangle under the point (then the smaller key and cell).
    pub fn cell_at(&self, pos: Position) -> Option<ObjectCellRef> {
        let mut best: Option<(ObjectCellRef, f32)> = None;
        for h in self.hits(pos) {
            let better = best.map_or(true, |b| {
                h.1 > b.1 || (h.1 == b.1 && (h.0.instance, h.0.cell) < (b.0.instance, b.0.cell))
            });
            if better {
                best = Some(h);
            }
        }
        best.map(|b| b.0)
    }

    /// Of the object triangles under the point and the terrain at height `ground`, the one
    /// closest to `y` (an object on a tie, then the smaller key and cell): `None` for the
    /// terrain, with the chosen height.
    pub fn surface_at_y(&self, pos: Position, y: f32, ground: f32) -> (Option<ObjectCellRef>, f32) {
        let dist = |h: f32| (f64::from(h) - f64::from(y)).abs();
        let mut best: Option<(ObjectCellRef, f32)> = None;
        for h in self.hits(pos) {
            let better = best.map_or(true, |b| {
                dist(h.1) < dist(b.1)
                    || (dist(h.1) == dist(b.1)
                        && (h.0.instance, h.0.cell) < (b.0.instance, b.0.cell))
            });
            if better {
                best = Some(h);
            }
        }
        match best {
            Some((c, h)) if dist(h) <= dist(ground) => (Some(c), h),
            _ => (None, ground),
        }
    }

    /// A cell's triangle in world units, or `None` when it is not a usable triangle.
    fn triangle(&self, instance: usize, cell: u16) -> Option<([[f64; 2]; 3], [u16; 3])> {
        let p = &self.placed[instance];
        let nav = p.mesh.nav.as_ref()?;
        let c = nav.cells.get(usize::from(cell))?;
        let v = c.vertices.map(|k| nav.vertices.get(usize::from(k)));
        if v.iter().any(|v| v.is_none()) {
            return None;
        }
        let w = v.map(|v| {
            let v = v.expect("checked").position;
            p.to_world(f64::from(v[0].get()), f64::from(v[2].get()))
        });
        (orient(w[0], w[1], w[2]) != 0.0).then_some((w, c.vertices))
    }

    /// The segment `from → to` walked over the terrain and the object cells, starting on
    /// `start` (an object triangle) or the terrain (`None`). `terrain(p, q)` answers a
    /// terrain-only cast from world point `p` (rounded to a position) to `q`: `Err(())` when
    /// `p` is not walkable, else the blocking parameter along `p → q`, if any.
    pub fn raycast(
        &self,
        from: Position,
        start: Option<ObjectCellRef>,
        to: Position,
        sight: bool,
        terrain: impl Fn([f64; 2], [f64; 2]) -> Result<Option<f64>, ()>,
    ) -> OracleRay {
        let (ex, ez) = to.in_frame_of(from.region);
        let (ox, oz) = (
            f64::from(from.region.x()) * REGION,
            f64::from(from.region.z()) * REGION,
        );
        let end = [ox + f64::from(ex), oz + f64::from(ez)];
        let mut p = [ox + f64::from(from.x), oz + f64::from(from.z)];
        let mut t0 = 0.0;
        let mut surface = start.map(|c| {
            let i = self
                .placed
                .iter()
                .position(|q| q.key == c.instance)
                .expect("a placed instance");
            (i, c.cell)
        });
        let mut came: Option<[u16; 2]> = None;
        let whole = |t: f64, t0: f64| t0 + (1.0 - t0) * t;
        for _ in 0..100_000 {
            match surface {
                None => {
                    let blocked = match terrain(p, end) {
                        Err(()) if t0 == 0.0 => return OracleRay::StartNotWalkable,
                        Err(()) => Some(0.0),
                        Ok(b) => b,
                    };
                    // The first outline edge met from outside, not passed under.
                    let mut first: Option<(f64, bool, &WorldEdge)> = None;
                    for e in self.edges.iter() {
                        if e.edge.kind != ObjectEdgeKind::Outline || e.flag & 0x10 != 0 {
                            continue;
                        }
                        let (o0, o1) = (orient(e.a, e.b, p), orient(e.a, e.b, end));
                        if sgn(o0) * sgn(o1) >= 0
                            || sgn(orient(p, end, e.a)) * sgn(orient(p, end, e.b)) > 0
                        {
                            continue;
                        }
                        let Some((tri, _)) = self.triangle(e.instance, e.cells[0]) else {
                            continue;
                        };
                        let Some(inside) = tri
                            .iter()
                            .map(|&v| sgn(orient(e.a, e.b, v)))
                            .find(|&s| s != 0)
                        else {
                            continue;
                        };
                        if sgn(o0) == inside {
                            continue;
                        }
                        let wall = e.flag & 0x01 != 0 || (sight && e.flag & 0x80 != 0);
                        let t = o0 / (o0 - o1);
                        if first.map_or(true, |f| t < f.0 || (t == f.0 && wall && !f.1)) {
                            first = Some((t, wall, e));
                        }
                    }
                    match (first, blocked) {
                        (Some((t, wall, e)), b) if b.map_or(true, |b| t <= b) => {
                            if wall {
                                return OracleRay::Blocked {
                                    t: whole(t, t0),
                                    edge: Some(e.edge),
                                };
                            }
                            surface = Some((e.instance, e.cells[0]));
                            came = Some(e.vertices);
                        }
                        (_, Some(b)) => {
                            return OracleRay::Blocked {
                                t: whole(b, t0),
                                edge: None,
                            }
                        }
                        (_, None) => return OracleRay::Clear,
                    }
                }
                Some((i, cell)) => {
                    let Some((tri, ids)) = self.triangle(i, cell) else {
                        return OracleRay::Clear;
                    };
                    let d = sgn(orient(tri[0], tri[1], tri[2]));
                    let sides: Vec<[usize; 2]> = vec![[0, 1], [1, 2], [2, 0]];
                    let mut outside = false;
                    let mut crossed = Vec::new();
                    for [a, b] in sides {
                        let pair = [ids[a], ids[b]];
                        let o1 = orient(tri[a], tri[b], end) * f64::from(d);
                        if o1 >= 0.0 {
                            continue;
                        }
                        outside = true;
                        let o0 = orient(tri[a], tri[b], p) * f64::from(d);
                        let same = |q: [u16; 2]| q == pair || q == [pair[1], pair[0]];
                        if o0 < 0.0
                            || came.is_some_and(same)
                            || sgn(orient(p, end, tri[a])) * sgn(orient(p, end, tri[b])) > 0
                        {
                            continue;
                        }
                        let record = self.edges.iter().find(|e| {
                            e.instance == i
                                && same(e.vertices)
                                && (e.cells[0] == cell
                                    || (e.edge.kind == ObjectEdgeKind::Inline
                                        && e.cells[1] == cell))
                        });
                        crossed.push((o0 / (o0 - o1), pair, record));
                    }
                    if !outside {
                        return OracleRay::Clear;
                    }
                    let Some(t) = crossed.iter().map(|c| c.0).reduce(f64::min) else {
                        return OracleRay::Blocked { t: t0, edge: None };
                    };
                    let mut next = None;
                    for &(_, pair, record) in &crossed {
                        let Some(e) = record else { continue };
                        let siege = sight && e.flag & 0x80 != 0;
                        let blocks = match e.edge.kind {
                            ObjectEdgeKind::Inline if e.cells[0] == cell => e.flag & 0x02 != 0,
                            ObjectEdgeKind::Inline => e.flag & 0x01 != 0,
                            ObjectEdgeKind::Outline => e.flag & 0x12 != 0,
                        };
                        if blocks || siege {
                            return OracleRay::Blocked {
                                t: whole(t, t0),
                                edge: Some(e.edge),
                            };
                        }
                        if e.edge.kind == ObjectEdgeKind::Inline && next.is_none() {
                            let other = if e.cells[0] == cell {
                                e.cells[1]
                            } else {
                                e.cells[0]
                            };
                            next = Some((other, pair));
                        }
                    }
                    match next {
                        Some((other, pair)) => {
                            surface = Some((i, other));
                            came = Some(pair);
                        }
                        None => {
                            p = [p[0] + t * (end[0] - p[0]), p[1] + t * (end[1] - p[1])];
                            t0 = whole(t, t0);
                            surface = None;
                            came = None;
                        }
                    }
                }
            }
        }
        OracleRay::Blocked { t: t0, edge: None }
    }
}
