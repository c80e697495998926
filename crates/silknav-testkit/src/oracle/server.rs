//! A second, independent port of the game server's navigation queries, for checking silknav's
//! against: the object-aware cell and height lookup (`FindNavCell`) and the movement query
//! (`QueryMovement` with the terrain and object `Move`s), written from the reconstructed
//! server alone, with none of silknav's query code.
//!
//! It works on the files directly: each region's cells, its edges linked to cells as the
//! server links them, its object list placed record by record, and each object mesh with its
//! triangles' edges. Where silknav indexes, this scans: every triangle of a mesh for a cell
//! lookup, every object a terrain cell lists. Global crossings and the walk over an object's
//! triangles recurse and loop the way the server's code reads, and the arithmetic is the
//! server's float arithmetic written out again here (double where the server evaluates in
//! double, f32 where it stores).
//!
//! Answers are in silknav's terms ([`CellRef`], [`MoveStop`]) so that tests compare them
//! directly; a move's answer is [`OracleMove`].

use jmxv::bms::{ObjectMesh, NO_CELL};
use jmxv::nvm::{NavMesh, Object};
use jmxv::RegionId;
use silknav::objects::{
    walk::{ObjectEdgeKind, ObjectEdgeRef},
    InstanceKey, ObjectCellRef,
};
use silknav::world::movement::{DistanceGuard, MoveStop};
use silknav::{CellRef, Position};
use std::collections::{BTreeMap, HashMap};

const SIZE: f32 = 1920.0;
const STEP: f64 = 0.199_999_988_079_071_04;
const PUSH: f64 = 0.009_999_999_776_482_582;
const BUDGET: u32 = 0x7FFF_FFFF;

// Result bits of the server's moves.
const R_BLOCKED: u32 = 0x1;
const R_LINK: u32 = 0x2;
const R_ENTER: u32 = 0x4;
const R_RAIL: u32 = 0x8;
const R_LEFT: u32 = 0x10;
const R_STEPS: u32 = 0x20;
const R_SIEGE: u32 = 0x80;
const R_SIEGE_OBJ: u32 = 0x100;
const R_FAIL: u32 = 0x1000_0000;
const R_NOCELL: u32 = 0x2000_0000;

fn d(v: f32) -> f64 {
    f64::from(v)
}

/// `Vec3_TransformCoord`: each row summed left to right in double (addition commutes
/// exactly, so the order of the first two terms does not matter).
fn xform(m: &[f32; 16], p: [f32; 3]) -> [f32; 3] {
    let (x, y, z) = (d(p[0]), d(p[1]), d(p[2]));
    let row = |k: usize| (d(m[k]) * x + d(m[4 + k]) * y + d(m[8 + k]) * z + d(m[12 + k])) as f32;
    [row(0), row(1), row(2)]
}

/// The placement matrices of a record: local to world, and its single-precision inverse.
fn matrices(yaw: f32, pos: [f32; 3]) -> ([f32; 16], [f32; 16]) {
    let (s, c) = ((d(yaw).sin()) as f32, (d(yaw).cos()) as f32);
    #[rustfmt::skip]
    let a: [f32; 16] = [
        c, 0.0, s, 0.0,
        0.0, 1.0, 0.0, 0.0,
        -s, 0.0, c, 0.0,
        pos[0], pos[1], pos[2], 1.0,
    ];
    let c0 = a[10] * a[5] - a[9] * a[6];
    let c1 = a[10] * a[4] - a[8] * a[6];
    let c2 = a[9] * a[4] - a[8] * a[5];
    let inv = 1.0f32 / (a[0] * c0 - a[1] * c1 + a[2] * c2);
    let n = -inv;
    let mut o = [0.0f32; 16];
    o[0] = c0 * inv;
    o[1] = (a[10] * a[1] - a[9] * a[2]) * n;
    o[2] = (a[6] * a[1] - a[5] * a[2]) * inv;
    o[4] = c1 * n;
    o[5] = (a[10] * a[0] - a[8] * a[2]) * inv;
    o[6] = (a[6] * a[0] - a[4] * a[2]) * n;
    o[8] = c2 * inv;
    o[9] = n * (a[9] * a[0] - a[8] * a[1]);
    o[10] = inv * (a[5] * a[0] - a[4] * a[1]);
    o[12] = -(o[0] * a[12] + o[4] * a[13] + a[14] * o[8]);
    o[13] = -(o[9] * a[14] + o[5] * a[13] + a[12] * o[1]);
    o[14] = -(o[10] * a[14] + o[6] * a[13] + a[12] * o[2]);
    o[15] = 1.0;
    (a, o)
}

fn norm3(v: [f32; 3]) -> [f32; 3] {
    let l2 = (d(v[1]) * d(v[1]) + d(v[0]) * d(v[0]) + d(v[2]) * d(v[2])) as f32;
    let l = d(l2).sqrt() as f32;
    let i = if l > 0.0 { (1.0 / d(l)) as f32 } else { 0.0 };
    [
        (d(v[0]) * d(i)) as f32,
        (d(i) * d(v[1])) as f32,
        (d(i) * d(v[2])) as f32,
    ]
}

fn norm2(x: f32, z: f32) -> (f32, f32) {
    let l2 = (d(x) * d(x) + d(z) * d(z)) as f32;
    let l = d(l2).sqrt() as f32;
    let i = if l > 0.0 { (1.0 / d(l)) as f32 } else { 0.0 };
    ((d(x) * d(i)) as f32, (d(i) * d(z)) as f32)
}

/// `Line2_Intersect(a, b)`: the code, and the point on `b` when the lines are not parallel.
fn cross_lines(a: [f32; 4], b: [f32; 4]) -> (u8, Option<[f32; 2]>) {
    let sub = |p: f32, q: f32| (d(p) - d(q)) as f32;
    let (dz, adx, dx, adz) = (
        sub(b[1], a[1]),
        sub(a[2], a[0]),
        sub(b[0], a[0]),
        sub(a[3], a[1]),
    );
    let (bdx, bdz) = (sub(b[2], b[0]), sub(b[3], b[1]));
    let nb = (d(adx) * d(dz) - d(adz) * d(dx)) as f32;
    let den = (d(adz) * d(bdx) - d(adx) * d(bdz)) as f32;
    if den == 0.0 {
        return (if nb != 0.0 { 5 } else { 0 }, None);
    }
    let tb = (d(nb) / d(den)) as f32;
    let ta = ((d(dz) * d(bdx) - d(dx) * d(bdz)) / d(den)) as f32;
    let p = [
        (d(bdx) * d(tb) + d(b[0])) as f32,
        (d(bdz) * d(tb) + d(b[1])) as f32,
    ];
    let ina = (0.0..=1.0).contains(&ta);
    let inb = (0.0..=1.0).contains(&tb);
    let code = if ina && inb {
        2
    } else if ina {
        3
    } else if inb {
        4
    } else {
        1
    };
    (code, Some(p))
}

/// `NudgeToCenter`.
fn toward(c: [f32; 2], p: [f32; 2]) -> [f32; 2] {
    let (mut ex, mut ez) = (c[0] - p[0], c[1] - p[1]);
    let l2 = (d(ez) * d(ez) + d(ex) * d(ex)) as f32;
    if d(d(l2).sqrt() as f32) > STEP {
        let (nx, nz) = norm2(ex, ez);
        ex = (d(nx) * STEP) as f32;
        ez = (STEP * d(nz)) as f32;
    }
    [p[0] + ex, p[1] + ez]
}

fn len_sq(a: [f32; 3], b: [f32; 3]) -> f32 {
    let v = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    (d(v[1]) * d(v[1]) + d(v[0]) * d(v[0]) + d(v[2]) * d(v[2])) as f32
}

/// A terrain edge.
#[derive(Debug, Clone, Copy)]
struct TEdge {
    line: [f32; 4],
    flag: u8,
    global: bool,
    index: u32,
    cells: [u16; 2],
    next_region: u16,
}

/// A region as the server holds it.
#[derive(Debug)]
struct TRegion {
    id: RegionId,
    mesh: NavMesh,
    /// Per cell, its edges in the server's order.
    links: Vec<Vec<TEdge>>,
    /// The object list: placed records (None where the oracle has no mesh).
    objects: Vec<Option<Record>>,
}

#[derive(Debug, Clone)]
struct Record {
    key: InstanceKey,
    mesh: u32,
    l2w: [f32; 16],
    w2l: [f32; 16],
    links: Vec<[u16; 3]>,
}

/// An object mesh edge: vertex a, vertex b, cell a, cell b, flag.
type OEdge = (usize, usize, usize, Option<usize>, u8);

/// An object mesh as the server holds it.
#[derive(Debug)]
struct OMesh {
    v: Vec<[f32; 3]>,
    dir: Vec<[f32; 2]>,
    tris: Vec<[usize; 3]>,
    tri_edges: Vec<Vec<(usize, usize)>>,
    /// (group, index) → the edge.
    edges: [Vec<OEdge>; 2],
    grid: (f32, f32, i32, i32, Vec<Vec<u16>>),
    event_only: bool,
    options: u32,
}

impl OMesh {
    fn new(m: &ObjectMesh) -> Option<OMesh> {
        let nav = m.nav.as_ref()?;
        let v: Vec<[f32; 3]> = nav
            .vertices
            .iter()
            .map(|v| v.position.map(|c| c.get()))
            .collect();
        let dir = nav
            .vertices
            .iter()
            .map(|v| {
                let a = (f64::from(v.normal) * 0.024_543_600_156_903_267) as f32;
                [d(a).cos() as f32, -(d(a).sin() as f32)]
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
                tri_edges[a].push((g, i));
                if let Some(b) = b {
                    tri_edges[b].push((g, i));
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
        Some(OMesh {
            v,
            dir,
            tris,
            tri_edges,
            edges,
            grid: (
                nav.grid.origin[0].get(),
                nav.grid.origin[1].get(),
                nav.grid.width,
                nav.grid.height,
                nav.grid.tiles.clone(),
            ),
            event_only: nav.event_names.len() == 1
                && nav.cells.len() == 2
                && (nav.event_names[0] == b"event" || nav.event_names[0] == b"EVENT"),
            options: m.header.nav_flags,
        })
    }

    fn line(&self, g: usize, i: usize) -> [f32; 4] {
        let e = self.edges[g][i];
        [
            self.v[e.0][0],
            self.v[e.0][2],
            self.v[e.1][0],
            self.v[e.1][2],
        ]
    }

    /// The first three edges of a triangle, as the server walks them.
    fn walk_edges(&self, t: usize) -> &[(usize, usize)] {
        let e = &self.tri_edges[t];
        &e[..e.len().min(3)]
    }

    fn centre(&self, t: usize) -> [f32; 2] {
        let [a, b, c] = self.tris[t].map(|k| self.v[k]);
        [0, 2].map(|k| ((d(a[k]) + d(b[k]) + d(c[k])) / 3.0) as f32)
    }

    /// The triangle's normal and plane offset (`GetTriData`).
    fn tri_plane(&self, t: usize) -> ([f32; 3], f32) {
        let [p0, p1, p2] = self.tris[t].map(|k| self.v[k]);
        let e2 = [p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]].map(d);
        let e1 = [p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]].map(d);
        let n = norm3([
            (e2[2] * e1[1] - e1[2] * e2[1]) as f32,
            (e1[2] * e2[0] - e2[2] * e1[0]) as f32,
            (e2[1] * e1[0] - e2[0] * e1[1]) as f32,
        ]);
        let dd = -(d(n[0]) * d(p0[0]) + d(p0[1]) * d(n[1]) + d(p0[2]) * d(n[2]));
        (n, dd as f32)
    }

    fn height(plane: ([f32; 3], f32), x: f32, z: f32) -> f32 {
        let (n, dd) = plane;
        if n[1] != 0.0 {
            (-((d(n[2]) * d(z) + d(n[0]) * d(x) + d(dd)) / d(n[1]))) as f32
        } else {
            0.0
        }
    }

    /// `IsInside`: inside, and the plane height.
    fn inside(&self, t: usize, x: f32, z: f32) -> (bool, f32) {
        let plane = self.tri_plane(t);
        let y = OMesh::height(plane, x, z);
        let n = plane.0.map(d);
        let vs = self.tris[t].map(|k| self.v[k]);
        let mut ok = true;
        for i in 0..3 {
            let (f, to) = (vs[i], vs[(i + 1) % 3]);
            let e = [to[0] - f[0], to[1] - f[1], to[2] - f[2]].map(d);
            let c = [
                (e[2] * n[1] - e[1] * n[2]) as f32,
                (e[0] * n[2] - e[2] * n[0]) as f32,
                (e[1] * n[0] - e[0] * n[1]) as f32,
            ];
            let w = [x - f[0], y - f[1], z - f[2]].map(d);
            let dot = (w[1] * d(c[1]) + w[0] * d(c[0]) + w[2] * d(c[2])) as f32;
            if dot < 0.0 {
                ok = false;
                break;
            }
        }
        (ok, y)
    }

    /// `ApplyHeight`: the height plane through vertices 0, 2, 1.
    fn apply_height(&self, t: usize, x: f32, z: f32) -> f32 {
        let [p0, p1, p2] = self.tris[t].map(|k| self.v[k]);
        let (q1, q2) = (p2, p1);
        let s = |a: f32, b: f32| (d(a) - d(b)) as f32;
        let a = [s(q1[0], p0[0]), s(q1[1], p0[1]), s(q1[2], p0[2])].map(d);
        let b = [s(q2[0], p0[0]), s(q2[1], p0[1]), s(q2[2], p0[2])].map(d);
        let n = norm3([
            (a[2] * b[1] - b[2] * a[1]) as f32,
            (b[2] * a[0] - a[2] * b[0]) as f32,
            (a[1] * b[0] - a[0] * b[1]) as f32,
        ]);
        let dd = -(d(n[0]) * d(p0[0]) + d(n[1]) * d(p0[1]) + d(n[2]) * d(p0[2]));
        OMesh::height((n, dd as f32), x, z)
    }

    /// `FindCell`: every triangle, in order.
    fn find_cell(&self, p: [f32; 3]) -> Option<(usize, f32)> {
        let mut best: Option<(usize, f32)> = None;
        let mut best_diff = -1.0f32;
        for t in 0..self.tris.len() {
            let (ok, y) = self.inside(t, p[0], p[2]);
            if ok {
                let diff = (y - p[1]).abs();
                if diff < best_diff || 0.0 > best_diff {
                    best_diff = diff;
                    best = Some((t, y));
                }
            }
        }
        best
    }

    fn classify(&self, t: usize, p: [f32; 2]) -> i32 {
        let vs = self.tris[t].map(|k| self.v[k]);
        let mut dots = [0.0f32; 3];
        for i in 0..3 {
            let (f, to) = (vs[i], vs[(i + 1) % 3]);
            let (ex, ez) = (to[0] - f[0], to[2] - f[2]);
            let (cx, cz) = (ez - 0.0, 0.0 - ex);
            dots[i] = (d(p[1] - f[2]) * d(cz) + d(p[0] - f[0]) * d(cx)) as f32;
            if dots[i] < 0.0 {
                return -1;
            }
        }
        i32::from(!dots.contains(&0.0))
    }

    fn push_off(&self, g: usize, i: usize, p: [f32; 2]) -> [f32; 2] {
        let e = self.edges[g][i];
        let (a, b) = (self.v[e.0], self.v[e.1]);
        let (ax, az) = (d(a[0] - p[0]), d(a[2] - p[1]));
        let da = (ax * ax + az * az) as f32;
        let (bx, bz) = (d(b[0] - p[0]), d(b[2] - p[1]));
        let db = (bz * bz + bx * bx) as f32;
        let dir = if db <= da {
            self.dir[e.1]
        } else {
            self.dir[e.0]
        };
        [
            p[0] + (d(dir[0]) * PUSH) as f32,
            p[1] + (d(dir[1]) * PUSH) as f32,
        ]
    }

    fn flag_bits(&self, flag: u8) -> u32 {
        let mut r = 0;
        if flag & 0x80 != 0 {
            r |= R_SIEGE
                | if self.options & 8 != 0 {
                    R_SIEGE_OBJ
                } else {
                    0
                };
        }
        if flag & 0x20 != 0 {
            r |= R_RAIL;
        }
        r
    }
}

/// A position as the oracle's moves carry it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Pos {
    region: u16,
    p: [f32; 3],
    cell: OCell,
    /// (region, object list index)
    inst: Option<(u16, usize)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OCell {
    None,
    Quad(u16, u16),
    Tri(u32, usize),
}

/// The oracle's answer to a move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OracleMove {
    /// The stop, its height, its cell and why.
    Stop(Position, f32, CellRef, MoveStop),
    /// The move fails (the server's 0x10000000, or a start without a cell); the word says
    /// which of silknav's errors it is.
    Fails(&'static str),
}

/// The server's navigation over a world's files.
#[derive(Debug)]
pub struct ServerOracle {
    regions: BTreeMap<u16, TRegion>,
    meshes: Vec<OMesh>,
}

struct Ctx {
    steps: u32,
    link: u32,
    blocked: Option<ObjectEdgeRef>,
    skip: Option<(u16, usize)>,
    check: u32,
    stop: MoveStop,
    depth: u32,
    history: HashMap<Vec<u32>, u32>,
    crossings: u32,
}

impl ServerOracle {
    /// The oracle over these files: `meshes` by object id (those with a navigation section
    /// are placed).
    pub fn new(
        navmeshes: &BTreeMap<RegionId, NavMesh>,
        meshes: &BTreeMap<u32, ObjectMesh>,
    ) -> ServerOracle {
        let mut built = Vec::new();
        let mut mesh_of = BTreeMap::new();
        for (&id, m) in meshes {
            if let Some(o) = OMesh::new(m) {
                mesh_of.insert(id, built.len() as u32);
                built.push(o);
            }
        }
        let mut regions = BTreeMap::new();
        for (&id, nvm) in navmeshes {
            let mut links = vec![Vec::new(); nvm.cells.len()];
            let mut by_dir: Vec<[Vec<TEdge>; 4]> = vec![Default::default(); nvm.cells.len()];
            let mut put = |c: u16, dir: u8, e: TEdge| {
                if usize::from(c) < by_dir.len() && dir < 4 {
                    by_dir[usize::from(c)][usize::from(dir)].push(e);
                }
            };
            for (i, e) in nvm.internal_edges.iter().enumerate() {
                let t = TEdge {
                    line: [e.a[0].get(), e.a[1].get(), e.b[0].get(), e.b[1].get()],
                    flag: e.flag,
                    global: false,
                    index: i as u32,
                    cells: e.cell,
                    next_region: id.0,
                };
                put(e.cell[0], e.dir[0], t);
                if e.flag & 3 == 0 {
                    put(e.cell[1], e.dir[1], t);
                }
            }
            for (i, e) in nvm.global_edges.iter().enumerate() {
                let t = TEdge {
                    line: [e.a[0].get(), e.a[1].get(), e.b[0].get(), e.b[1].get()],
                    flag: e.flag,
                    global: true,
                    index: i as u32,
                    cells: e.cell,
                    next_region: e.region[1],
                };
                put(e.cell[0], e.dir[0], t);
            }
            for (c, dirs) in by_dir.into_iter().enumerate() {
                links[c] = dirs.into_iter().flatten().collect();
            }
            let objects = nvm
                .objects
                .iter()
                .map(|o: &Object| {
                    let mesh = *mesh_of.get(&o.object_id)?;
                    let pos = o.position.map(|c| c.get());
                    if !pos.iter().chain([&o.yaw.get()]).all(|v| v.is_finite()) {
                        return None;
                    }
                    let (l2w, w2l) = matrices(o.yaw.get(), pos);
                    Some(Record {
                        key: InstanceKey::new(RegionId(o.region_id), o.uid),
                        mesh,
                        l2w,
                        w2l,
                        links: o
                            .links
                            .iter()
                            .map(|l| [l.link_object, l.link_edge, l.edge])
                            .collect(),
                    })
                })
                .collect();
            regions.insert(
                id.0,
                TRegion {
                    id,
                    mesh: nvm.clone(),
                    links,
                    objects,
                },
            );
        }
        ServerOracle {
            regions,
            meshes: built,
        }
    }

    fn tile(v: f32) -> i32 {
        (d(v) / 20.0) as i32
    }

    /// `FindHeight` (`None` outside the tiles).
    fn ground(r: &TRegion, x: f32, z: f32) -> Option<f32> {
        let (tx, tz) = (ServerOracle::tile(x), ServerOracle::tile(z));
        if !(0..96).contains(&tx) || !(0..96).contains(&tz) {
            return None;
        }
        let fx = d(((d(x) - f64::from(tx) * 20.0) / 20.0) as f32);
        let fz = d(((d(z) - f64::from(tz) * 20.0) / 20.0) as f32);
        let h = |i: i32, j: i32| d(r.mesh.heights[((tz + j) * 97 + tx + i) as usize].get());
        let (h00, h10, h01, h11) = (h(0, 0), h(1, 0), h(0, 1), h(1, 1));
        let y = if tx % 2 == tz % 2 {
            if fz >= fx {
                (h00 + fz * (h01 - h00)) + fx * (h11 - h01)
            } else {
                (h10 + fz * (h11 - h10)) + (1.0 - fx) * (h00 - h10)
            }
        } else if (1.0 - fz) >= fx {
            (h10 + fz * (h01 - h00)) + (1.0 - fx) * (h00 - h10)
        } else {
            ((1.0 - fx) * (h01 - h11) + h10) + fz * (h11 - h10)
        };
        let mut y = y as f32;
        let plane = ((tz / 16) * 6 + tx / 16) as usize;
        if r.mesh.planes.types[plane] & 2 != 0 {
            let ice = r.mesh.planes.heights[plane].get();
            if !(ice <= y) {
                y = ice;
            }
        }
        Some(y)
    }

    fn tile_of(r: &TRegion, x: f32, z: f32) -> Option<&jmxv::nvm::Tile> {
        let (tx, tz) = (ServerOracle::tile(x), ServerOracle::tile(z));
        if !(0..96).contains(&tx) || !(0..96).contains(&tz) {
            return None;
        }
        Some(&r.mesh.tiles[(tz * 96 + tx) as usize])
    }

    /// Whether a tile is walkable (the server's flag bit; legacy layouts: an open cell).
    fn walkable(r: &TRegion, x: f32, z: f32) -> bool {
        let Some(t) = ServerOracle::tile_of(r, x, z) else {
            return false;
        };
        let cell = usize::from(t.cell());
        match r.mesh.layout {
            jmxv::nvm::Layout::Standard => !t.is_blocked() && cell < r.mesh.cells.len(),
            _ => (cell as u32) < r.mesh.open_cell_count && cell < r.mesh.cells.len(),
        }
    }

    /// `GetCellAt`: the cell of the tile in the region square.
    fn quad_at(r: &TRegion, x: f32, z: f32) -> Option<u16> {
        if !((0.0..SIZE).contains(&x) && (0.0..SIZE).contains(&z)) {
            return None;
        }
        let c = ServerOracle::tile_of(r, x, z)?.cell();
        (usize::from(c) < r.mesh.cells.len()).then_some(c)
    }

    fn cell_ref(&self, p: &Pos) -> Option<CellRef> {
        match (p.cell, p.inst) {
            (OCell::Quad(reg, c), _) => Some(CellRef {
                region: RegionId(reg),
                cell: c,
                object: None,
            }),
            (OCell::Tri(_, t), Some((reg, k))) => {
                let r = &self.regions[&reg];
                let tx = ServerOracle::tile(p.p[0]).clamp(0, 95);
                let tz = ServerOracle::tile(p.p[2]).clamp(0, 95);
                Some(CellRef {
                    region: RegionId(reg),
                    cell: r.mesh.tiles[(tz * 96 + tx) as usize].cell(),
                    object: Some(ObjectCellRef {
                        instance: r.objects[k].as_ref()?.key,
                        cell: t as u16,
                    }),
                })
            }
            _ => None,
        }
    }

    /// `FindNavCell` at a position and reference height: the cell (`None` when the terrain
    /// wins on a blocked tile) and the height; `None` outside the loaded regions.
    fn resolve(&self, pos: Position, y: f32) -> Option<(Pos, bool)> {
        let pos = pos.normalized()?;
        let r = self.regions.get(&pos.region.0)?;
        let quad = ServerOracle::quad_at(r, pos.x, pos.z)?;
        let ground = ServerOracle::ground(r, pos.x, pos.z)?;
        let mut best_delta = ground - y;
        let mut probe_y = y;
        let mut best = None;
        for &k in &r.mesh.cells[usize::from(quad)].objects {
            let Some(Some(rec)) = r.objects.get(usize::from(k)) else {
                continue;
            };
            let m = &self.meshes[rec.mesh as usize];
            let local = xform(&rec.w2l, [pos.x, probe_y, pos.z]);
            if let Some((t, h)) = m.find_cell(local) {
                let world = xform(&rec.l2w, [local[0], h, local[2]]);
                probe_y = world[1];
                let delta = probe_y - y;
                if delta.abs() < best_delta.abs() {
                    best_delta = delta;
                    best = Some((usize::from(k), t, rec.mesh));
                }
            }
        }
        let p = Pos {
            region: pos.region.0,
            p: [pos.x, best_delta + y, pos.z],
            cell: match best {
                Some((_, t, m)) => OCell::Tri(m, t),
                None => OCell::Quad(pos.region.0, quad),
            },
            inst: best.map(|(k, _, _)| (pos.region.0, k)),
        };
        let has = best.is_some() || ServerOracle::walkable(r, pos.x, pos.z);
        Some((p, has))
    }

    /// The cell and height at a reference height, as `World::surface_at_y` answers.
    pub fn surface_at_y(&self, pos: Position, y: f32) -> Option<(Option<CellRef>, f32)> {
        let (p, has) = self.resolve(pos, y)?;
        Some((has.then(|| self.cell_ref(&p)).flatten(), p.p[1]))
    }

    /// The highest object triangle under a point among those its tile's cell lists (the
    /// earlier entry and lower triangle on a tie), else the terrain's open cell, as
    /// `World::cell_at` answers, with the height.
    pub fn cell_at(&self, pos: Position) -> Option<(CellRef, f32)> {
        let (p, _) = self.highest(pos)?;
        Some((self.cell_ref(&p)?, p.p[1]))
    }

    fn highest(&self, pos: Position) -> Option<(Pos, bool)> {
        let pos = pos.normalized()?;
        let r = self.regions.get(&pos.region.0)?;
        let quad = ServerOracle::quad_at(r, pos.x, pos.z)?;
        let mut best: Option<(usize, usize, u32, f32)> = None;
        for &k in &r.mesh.cells[usize::from(quad)].objects {
            let Some(Some(rec)) = r.objects.get(usize::from(k)) else {
                continue;
            };
            let m = &self.meshes[rec.mesh as usize];
            let local = xform(&rec.w2l, [pos.x, 0.0, pos.z]);
            for t in 0..m.tris.len() {
                let (ok, h) = m.inside(t, local[0], local[2]);
                if ok {
                    let y = xform(&rec.l2w, [local[0], h, local[2]])[1];
                    if best.map_or(true, |b| y > b.3) {
                        best = Some((usize::from(k), t, rec.mesh, y));
                    }
                }
            }
        }
        match best {
            Some((k, t, m, y)) => Some((
                Pos {
                    region: pos.region.0,
                    p: [pos.x, y, pos.z],
                    cell: OCell::Tri(m, t),
                    inst: Some((pos.region.0, k)),
                },
                true,
            )),
            None => {
                if !ServerOracle::walkable(r, pos.x, pos.z) {
                    return None;
                }
                Some((
                    Pos {
                        region: pos.region.0,
                        p: [pos.x, ServerOracle::ground(r, pos.x, pos.z)?, pos.z],
                        cell: OCell::Quad(pos.region.0, quad),
                        inst: None,
                    },
                    true,
                ))
            }
        }
    }

    /// A move from `from` toward `to`, as `World::move_with` makes it with these choices.
    pub fn move_along(
        &self,
        from: Position,
        start_y: Option<f32>,
        to: Position,
        goal_y: Option<f32>,
        guard: DistanceGuard,
        object_checks: bool,
    ) -> OracleMove {
        let Some(from) = from.normalized() else {
            return OracleMove::Fails("start-blocked");
        };
        let start = match start_y {
            Some(y) => self.resolve(from, y),
            None => self.highest(from),
        };
        let Some((source, true)) = start else {
            return OracleMove::Fails("start-blocked");
        };
        let gy = goal_y
            .or_else(|| self.surface_at_y(to, source.p[1]).map(|s| s.1))
            .unwrap_or(source.p[1]);
        let dest = Pos {
            region: to.region.0,
            p: [to.x, gy, to.z],
            cell: OCell::None,
            inst: None,
        };
        let mut ctx = Ctx {
            steps: BUDGET,
            link: 0,
            blocked: None,
            skip: None,
            check: u32::from(object_checks),
            stop: MoveStop::Arrived,
            depth: 0,
            history: HashMap::new(),
            crossings: 0,
        };
        match self.query(&mut ctx, source, dest, guard) {
            Err(word) => OracleMove::Fails(word),
            Ok(end) => match self.cell_ref(&end) {
                Some(cell) => OracleMove::Stop(
                    Position::new(RegionId(end.region), end.p[0], end.p[2]),
                    end.p[1],
                    cell,
                    ctx.stop,
                ),
                None => OracleMove::Fails("off-mesh"),
            },
        }
    }

    fn reframe(p: &mut Pos, to: u16) {
        if p.region != to {
            let dx = i32::from(p.region & 0xFF) - i32::from(to & 0xFF);
            let dz = i32::from(p.region >> 8) - i32::from(to >> 8);
            p.p[0] += dx as f32 * SIZE;
            p.p[2] += SIZE * dz as f32;
            p.region = to;
        }
    }

    fn query(
        &self,
        ctx: &mut Ctx,
        mut src: Pos,
        mut dst: Pos,
        guard: DistanceGuard,
    ) -> Result<Pos, &'static str> {
        if src.region == dst.region && src.p == dst.p {
            return Ok(src);
        }
        ServerOracle::reframe(&mut dst, src.region);
        let (gx, gz) = (d(dst.p[0]) - d(src.p[0]), d(dst.p[2]) - d(src.p[2]));
        let refused = match guard {
            DistanceGuard::OneSided => gx > 1920.0 || gz > 1920.0,
            DistanceGuard::Symmetric => gx.abs() > 1920.0 || gz.abs() > 1920.0,
            _ => false,
        };
        if refused {
            return Err("too-far");
        }
        let saved = dst;
        let mut legs = 0;
        let result = loop {
            legs += 1;
            dst.cell = src.cell;
            dst.inst = src.inst;
            let mover = match (src.inst, src.cell) {
                (Some((reg, _)), _) => reg,
                (None, OCell::Quad(reg, _)) => reg,
                _ => return Err("off-mesh"),
            };
            let (r, why) = self.terrain(ctx, mover, &mut src, &mut dst)?;
            if r & (R_FAIL | R_BLOCKED) != 0 || r & (R_ENTER | R_LEFT) == 0 {
                break (r, why);
            }
            if len_sq(saved.p, src.p) < 25.0 {
                ctx.stop = MoveStop::Transition;
                break (r, why);
            }
            src = dst;
            dst = saved;
            ServerOracle::reframe(&mut dst, src.region);
            if legs > 6 {
                return Err("object-refused");
            }
        };
        if result.0 & R_FAIL != 0 {
            return Err(if result.1.is_empty() {
                "object-refused"
            } else {
                result.1
            });
        }
        if !((0.0..SIZE).contains(&dst.p[0]) && (0.0..SIZE).contains(&dst.p[2]))
            || dst.cell == OCell::None
        {
            return Err("off-mesh");
        }
        Ok(dst)
    }

    /// Counts a crossing; finds a cycle in the walk by its full history and shortens the
    /// budget to the server's last crossing.
    fn tick(ctx: &mut Ctx, state: Vec<u32>) -> Result<(), &'static str> {
        ctx.crossings += 1;
        if ctx.crossings > 200_000 {
            if let Some(&first) = ctx.history.get(&state) {
                ctx.steps %= ctx.crossings - first;
                ctx.history.clear();
                ctx.crossings = 0;
                return Ok(());
            }
            if ctx.history.len() > 2_000_000 {
                return Err("step-limit");
            }
            ctx.history.insert(state, ctx.crossings);
        }
        Ok(())
    }

    /// The terrain `Move`, recursing at a global edge as the server does.
    fn terrain(
        &self,
        ctx: &mut Ctx,
        reg: u16,
        src: &mut Pos,
        dst: &mut Pos,
    ) -> Result<(u32, &'static str), &'static str> {
        let region = &self.regions[&reg];
        let mut refused: Option<ObjectEdgeRef> = None;
        while src.inst.is_none() {
            let (dsave, ssave) = (*dst, *src);
            let OCell::Quad(qreg, qc) = src.cell else {
                return Err("off-mesh");
            };
            let region = &self.regions[&qreg];
            let mut best: Option<(f32, u32, Option<ObjectEdgeRef>, &'static str)> = None;
            ctx.depth += 1;
            for &k in &region.mesh.cells[usize::from(qc)].objects {
                let k = usize::from(k);
                if ctx.skip == Some((qreg, k)) || !matches!(region.objects.get(k), Some(Some(_))) {
                    continue;
                }
                let (mut s, mut de) = (ssave, dsave);
                let check = ctx.check;
                let (r, blocked, why) =
                    self.in_object(ctx, &mut s, (qreg, k), true, check, &mut de)?;
                if r == 0 || r == R_NOCELL {
                    continue;
                }
                let dist = len_sq(ssave.p, de.p);
                if best.map_or(true, |b| dist < b.0) {
                    best = Some((dist, r, blocked, why));
                    *dst = de;
                    *src = s;
                }
            }
            ctx.depth -= 1;
            let mut nbest = 0;
            if let Some((_, r, blocked, why)) = best {
                nbest = r;
                if r & R_FAIL != 0 || r & R_BLOCKED == 0 || ctx.check & 1 == 0 {
                    if r & R_FAIL == 0 && ctx.depth == 0 {
                        ctx.stop = MoveStop::Transition;
                    }
                    return Ok((r, why));
                }
                if self.objects_on_path(ctx, &ssave, dst, None)? {
                    return Ok((R_FAIL, "object-refused"));
                }
                *src = ssave;
                refused = blocked;
            }
            dst.inst = None;
            let c = &region.mesh.cells[usize::from(qc)];
            let (min, max) = (c.min.map(|v| v.get()), c.max.map(|v| v.get()));
            let centre = [(min[0] + max[0]) * 0.5, (max[1] + min[1]) * 0.5];
            let within = |x: f32, z: f32| min[0] <= x && x < max[0] && min[1] <= z && z < max[1];
            if within(dst.p[0], dst.p[2]) {
                dst.cell = OCell::Quad(qreg, qc);
                if let Some(y) = ServerOracle::ground(region, dst.p[0], dst.p[2]) {
                    dst.p[1] = y;
                }
                if ctx.depth == 0 {
                    ctx.stop =
                        refused.map_or(MoveStop::Arrived, |edge| MoveStop::ObjectWall { edge });
                }
                return Ok((nbest, ""));
            }
            let seg = [src.p[0], src.p[2], dst.p[0], dst.p[2]];
            let links = &region.links[usize::from(qc)];
            let mut inside = 0;
            let mut crossed = None;
            for e in links {
                let side = |x: f32, z: f32| {
                    let (nx, nz) = norm2(
                        (d(e.line[2]) - d(e.line[0])) as f32,
                        (d(e.line[3]) - d(e.line[1])) as f32,
                    );
                    let (normal_x, normal_z) = (nz, -nx);
                    let ox = (d(x) - d(e.line[0])) as f32;
                    let oz = (d(z) - d(e.line[1])) as f32;
                    let dot = (d(normal_z) * d(oz) + d(normal_x) * d(ox)) as f32;
                    if 0.0 < dot {
                        1
                    } else {
                        -1
                    }
                };
                if side(seg[0], seg[1]) * side(seg[2], seg[3]) < 0 {
                    let (code, p) = cross_lines(e.line, seg);
                    if code == 2 || code == 3 {
                        crossed = Some((*e, p.unwrap()));
                        break;
                    }
                } else if within(seg[0], seg[1]) && within(seg[2], seg[3]) {
                    inside += 1;
                }
            }
            let Some((e, point)) = crossed else {
                if inside == links.len() {
                    dst.cell = src.cell;
                    if ctx.depth == 0 {
                        ctx.stop = MoveStop::Arrived;
                    }
                } else {
                    let n = toward(centre, [src.p[0], src.p[2]]);
                    (dst.p[0], dst.p[2]) = (n[0], n[1]);
                    if let Some(y) = ServerOracle::ground(region, dst.p[0], dst.p[2]) {
                        dst.p[1] = y;
                    }
                    dst.cell = src.cell;
                    if ctx.depth == 0 {
                        ctx.stop = MoveStop::NoEdge;
                    }
                }
                return Ok((nbest, ""));
            };
            let mut state = vec![u32::from(qreg), u32::from(qc)];
            state.extend(src.p.map(f32::to_bits));
            state.extend(dst.p.map(f32::to_bits));
            state.push(u32::from(dst.region));
            ServerOracle::tick(ctx, state)?;
            if ctx.steps == 0 {
                if ctx.depth == 0 {
                    ctx.stop = MoveStop::Looped;
                }
                return Ok((R_STEPS, ""));
            }
            ctx.steps -= 1;
            if e.flag & 3 != 0 {
                let n = toward(centre, point);
                (dst.p[0], dst.p[2]) = (n[0], n[1]);
                dst.cell = src.cell;
                if self.objects_on_path(ctx, src, dst, None)? {
                    dst.p = src.p;
                } else if let Some(y) = ServerOracle::ground(region, dst.p[0], dst.p[2]) {
                    dst.p[1] = y;
                }
                if ctx.depth == 0 {
                    ctx.stop = MoveStop::Wall {
                        region: region.id,
                        edge: if e.global {
                            silknav::world::EdgeId::Global(e.index)
                        } else {
                            silknav::world::EdgeId::Internal(e.index)
                        },
                    };
                }
                return Ok((R_BLOCKED, ""));
            }
            if e.global {
                (src.p[0], src.p[2]) = (point[0], point[1]);
                let nreg = e.next_region;
                let Some(next) = self.regions.get(&nreg) else {
                    return Err("missing-region");
                };
                let ncell = e.cells[1];
                let Some(nc) = next.mesh.cells.get(usize::from(ncell)) else {
                    return Err("missing-region");
                };
                let ox = (i32::from(nreg & 0xFF) - i32::from(qreg & 0xFF)) as f32 * SIZE;
                let oz = SIZE * (i32::from(nreg >> 8) - i32::from(qreg >> 8)) as f32;
                let snap = |v: f32| {
                    if !(v < 1919.99) {
                        0.0
                    } else if !(v > 0.01) {
                        1919.99
                    } else {
                        v
                    }
                };
                let mut cp = point;
                if ox.abs() > 1.0 {
                    cp[0] = snap(cp[0]);
                }
                if oz.abs() > 1.0 {
                    cp[1] = snap(cp[1]);
                }
                let mut new_dest = *dst;
                let nmin = nc.min.map(|v| v.get());
                let nmax = nc.max.map(|v| v.get());
                let ncentre = [(nmin[0] + nmax[0]) * 0.5, (nmax[1] + nmin[1]) * 0.5];
                let n = toward(ncentre, cp);
                (dst.p[0], dst.p[2]) = (n[0], n[1]);
                dst.cell = OCell::Quad(nreg, ncell);
                dst.region = nreg;
                ServerOracle::reframe(&mut new_dest, nreg);
                if ctx.check & 1 != 0 {
                    let mut ns = *src;
                    ns.cell = dst.cell;
                    ServerOracle::reframe(&mut ns, nreg);
                    if self.objects_on_path(ctx, &ns, dst, None)? {
                        return Ok((R_FAIL, "object-refused"));
                    }
                }
                let mut inner = *dst;
                let r = self.terrain(ctx, nreg, &mut inner, &mut new_dest)?;
                *dst = new_dest;
                return Ok(r);
            }
            let other = if e.cells[0] == qc {
                e.cells[1]
            } else {
                e.cells[0]
            };
            let Some(oc) = region.mesh.cells.get(usize::from(other)) else {
                return Err("off-mesh");
            };
            let omin = oc.min.map(|v| v.get());
            let omax = oc.max.map(|v| v.get());
            let n = toward(
                [(omin[0] + omax[0]) * 0.5, (omax[1] + omin[1]) * 0.5],
                point,
            );
            (src.p[0], src.p[2]) = (n[0], n[1]);
            if ctx.check & 1 != 0 {
                let skip = ctx.skip;
                if self.objects_on_path(ctx, &ssave, src, skip)? {
                    return Ok((R_FAIL, "object-refused"));
                }
            }
            src.cell = OCell::Quad(qreg, other);
        }
        let (ireg, k) = src.inst.expect("on an object");
        let rec = self.regions[&ireg].objects[k]
            .as_ref()
            .ok_or("object-refused")?;
        if self.meshes[rec.mesh as usize].event_only {
            let mut s = *src;
            let mut de = *dst;
            s.inst = None;
            s.cell = match ServerOracle::quad_at(region, s.p[0], s.p[2]) {
                Some(c) => OCell::Quad(reg, c),
                None => return Err("off-mesh"),
            };
            let saved = (ctx.steps, ctx.link, ctx.crossings);
            ctx.skip = Some((ireg, k));
            ctx.depth += 1;
            let r = self.terrain(ctx, reg, &mut s, &mut de);
            ctx.depth -= 1;
            ctx.skip = None;
            (ctx.steps, ctx.link, ctx.crossings) = saved;
            let (r, why) = r?;
            if r & (R_FAIL | R_BLOCKED) != 0 {
                return Ok((
                    R_FAIL,
                    if why.is_empty() {
                        "object-refused"
                    } else {
                        why
                    },
                ));
            }
        }
        let check = ctx.check;
        let (r, _, why) = self.in_object(ctx, src, (ireg, k), false, check, dst)?;
        Ok((r, why))
    }

    /// `CheckObjectsOnPath`.
    fn objects_on_path(
        &self,
        ctx: &mut Ctx,
        src: &Pos,
        dst: &Pos,
        skip: Option<(u16, usize)>,
    ) -> Result<bool, &'static str> {
        let OCell::Quad(reg, c) = src.cell else {
            return Ok(false);
        };
        let region = &self.regions[&reg];
        let saved = (ctx.steps, ctx.link);
        ctx.steps = BUDGET;
        ctx.depth += 1;
        let mut hit = false;
        for &k in &region.mesh.cells[usize::from(c)].objects {
            let k = usize::from(k);
            if skip == Some((reg, k)) || !matches!(region.objects.get(k), Some(Some(_))) {
                continue;
            }
            let (mut s, mut de) = (*src, *dst);
            if self.in_object(ctx, &mut s, (reg, k), true, 1, &mut de)?.0 != 0 {
                hit = true;
                break;
            }
        }
        ctx.depth -= 1;
        (ctx.steps, ctx.link) = saved;
        Ok(hit)
    }

    /// `MoveInObject`: the result and the edge that blocked, if one did.
    fn in_object(
        &self,
        ctx: &mut Ctx,
        src: &mut Pos,
        inst: (u16, usize),
        probe: bool,
        check: u32,
        dst: &mut Pos,
    ) -> Result<(u32, Option<ObjectEdgeRef>, &'static str), &'static str> {
        let region = &self.regions[&inst.0];
        let rec = region.objects[inst.1].as_ref().ok_or("object-refused")?;
        let m = &self.meshes[rec.mesh as usize];
        let (sw, dw) = (src.p, dst.p);
        let sl = xform(&rec.w2l, sw);
        let mut dl = xform(&rec.w2l, dw);
        ctx.blocked = None;
        let on = match src.cell {
            OCell::Tri(mm, t) if mm == rec.mesh => Some(t),
            _ => None,
        };
        let (r, end) = self.object_move(ctx, m, rec, check, on, sl, &mut dl)?;
        let blocked = ctx.blocked;
        if r == 0 && probe {
            return Ok((0, None, ""));
        }
        src.p = sl;
        dst.cell = match end {
            Some(Some(t)) => OCell::Tri(rec.mesh, t),
            Some(None) => OCell::None,
            None => src.cell,
        };
        if r & R_ENTER != 0 {
            dst.inst = Some(inst);
        }
        dst.p = xform(&rec.l2w, dl);
        if r & R_LINK != 0 {
            let e = ctx.link;
            let refused = Ok((R_FAIL, None, "object-refused"));
            if e >= 0xFFFF {
                return refused;
            }
            let Some(link) = rec.links.iter().find(|l| u32::from(l[2]) == e) else {
                return refused;
            };
            let Some(Some(other)) = region.objects.get(usize::from(link[0])) else {
                return refused;
            };
            let om = &self.meshes[other.mesh as usize];
            let mut lp = xform(&other.w2l, dst.p);
            dst.cell = OCell::None;
            if let Some(&(a, b, ca, cb, _)) = om.edges[0].get(usize::from(link[1])) {
                let _ = (a, b, cb);
                let cell = ca;
                let centre = om.centre(cell);
                let seg = [centre[0], centre[1], lp[0], lp[2]];
                for &(g, i) in om.walk_edges(cell) {
                    let (code, p) = cross_lines(om.line(g, i), seg);
                    if code == 2 {
                        let n = toward(centre, p.unwrap());
                        (lp[0], lp[2]) = (n[0], n[1]);
                        break;
                    }
                }
                lp[1] = om.inside(cell, lp[0], lp[2]).1;
                dst.cell = OCell::Tri(other.mesh, cell);
            }
            dst.p = xform(&other.l2w, lp);
            dst.inst = Some((inst.0, usize::from(link[0])));
        }
        // NavPos_WrapOutdoor.
        let (mut rx, mut rz) = (dst.region & 0xFF, dst.region >> 8);
        let mut wrapped = false;
        if !(0.0 <= dst.p[0]) {
            rx = (rx + 255) & 0xFF;
            dst.p[0] += SIZE;
            wrapped = true;
        } else if !(SIZE > dst.p[0]) {
            rx = (rx + 1) & 0xFF;
            dst.p[0] -= SIZE;
            wrapped = true;
        }
        if !(0.0 <= dst.p[2]) {
            dst.p[2] += SIZE;
            rz = (rz + 255) & 0xFF;
            wrapped = true;
        } else if !(dst.p[2] < SIZE) {
            dst.p[2] -= SIZE;
            rz = (rz + 1) & 0xFF;
            wrapped = true;
        }
        dst.region = (rz << 8) | rx;
        let mut treg = inst.0;
        if wrapped {
            let Some(next) = self.regions.get(&dst.region) else {
                return Ok((R_FAIL, None, "missing-region"));
            };
            treg = dst.region;
            if dst.cell != OCell::None {
                let found = next
                    .objects
                    .iter()
                    .enumerate()
                    .find_map(|(i, o)| o.as_ref().filter(|o| o.key == rec.key).map(|o| (i, o)));
                let Some((i, other)) = found else {
                    return Ok((R_FAIL, None, "object-refused"));
                };
                let om = &self.meshes[other.mesh as usize];
                let before = dst.p;
                let local = xform(&other.w2l, dst.p);
                match om.find_cell(local) {
                    None => {
                        let any = (0..om.tris.len()).any(|t| om.inside(t, local[0], local[2]).0);
                        return Ok(if any {
                            (R_FAIL, None, "object-refused")
                        } else {
                            (R_NOCELL, None, "")
                        });
                    }
                    Some((t, h)) => {
                        dst.p[1] = xform(&other.l2w, [local[0], h, local[2]])[1];
                        dst.cell = OCell::Tri(other.mesh, t);
                        if len_sq(before, dst.p) > 1.0 {
                            return Ok((R_FAIL, None, "object-refused"));
                        }
                        dst.inst = Some((treg, i));
                    }
                }
            }
        }
        if !probe && ctx.depth == 0 {
            ctx.stop = match blocked {
                Some(edge) if r & R_BLOCKED != 0 => MoveStop::ObjectWall { edge },
                _ if r & R_STEPS != 0 => MoveStop::Looped,
                _ if r & (R_ENTER | R_LEFT) != 0 => MoveStop::Transition,
                _ => MoveStop::Arrived,
            };
        }
        if let OCell::Tri(..) = dst.cell {
            return Ok((r, blocked, ""));
        }
        let treg_r = &self.regions[&treg];
        if !ServerOracle::walkable(treg_r, dst.p[0], dst.p[2]) {
            return Ok((R_FAIL, None, "off-mesh"));
        }
        if let Some(y) = ServerOracle::ground(treg_r, dst.p[0], dst.p[2]) {
            dst.p[1] = y;
        }
        dst.cell = match ServerOracle::quad_at(treg_r, dst.p[0], dst.p[2]) {
            Some(c) => OCell::Quad(treg, c),
            None => OCell::None,
        };
        dst.inst = None;
        Ok((r, blocked, ""))
    }

    /// The object's `Move` in its frame: the result, and where it leaves the walker
    /// (`None`: on the source's cell; `Some(None)`: off the mesh; `Some(Some(t))`: on `t`).
    #[allow(clippy::too_many_arguments)]
    fn object_move(
        &self,
        ctx: &mut Ctx,
        m: &OMesh,
        rec: &Record,
        check: u32,
        on: Option<usize>,
        src: [f32; 3],
        dst: &mut [f32; 3],
    ) -> Result<(u32, Option<Option<usize>>), &'static str> {
        let edge_ref = |g: usize, i: usize| ObjectEdgeRef {
            instance: rec.key,
            kind: if g == 0 {
                ObjectEdgeKind::Outline
            } else {
                ObjectEdgeKind::Inline
            },
            edge: i as u16,
        };
        let mut r = 0;
        let Some(tri) = on else {
            // CrossGrid.
            let (ox, oz, w, h, tiles) = &m.grid;
            let t = |v: f32, o: f32| ((d(v) - d(o)) / 100.0) as i32;
            let cl = |v: i32, n: i32| {
                if v < 0 {
                    0
                } else if v > n - 1 {
                    n - 1
                } else {
                    v
                }
            };
            let (xa, xb) = (cl(t(src[0], *ox), *w), cl(t(dst[0], *ox), *w));
            let (za, zb) = (cl(t(src[2], *oz), *h), cl(t(dst[2], *oz), *h));
            let seg = [src[0], src[2], dst[0], dst[2]];
            let mut best: Option<(f32, usize, [f32; 2])> = None;
            for nz in za.min(zb)..=za.max(zb) {
                for nx in xa.min(xb)..=xa.max(xb) {
                    if nx < 0 || nz < 0 || nx >= *w || nz >= *h {
                        continue;
                    }
                    let Some(list) = tiles.get((w * nz + nx) as usize) else {
                        continue;
                    };
                    for &k in list {
                        let k = usize::from(k);
                        if m.edges[0][k].4 & 0x10 != 0 {
                            continue;
                        }
                        let (code, p) = cross_lines(m.line(0, k), seg);
                        if code != 2 {
                            continue;
                        }
                        let p = p.unwrap();
                        let (a, b) = (d(src[0] - p[0]), d(src[2] - p[1]));
                        let dist = (a * a + b * b) as f32;
                        if best.map_or(true, |bb| bb.0 > dist) {
                            best = Some((dist, k, p));
                        }
                    }
                }
            }
            let Some((_, k, p)) = best else {
                return Ok((0, None));
            };
            let (_, _, cell_a, _, flag) = m.edges[0][k];
            r |= m.flag_bits(flag);
            if flag & 1 != 0 && check == 1 {
                let q = m.push_off(0, k, p);
                (dst[0], dst[2]) = (q[0], q[1]);
                ctx.blocked = Some(edge_ref(0, k));
                return Ok((r | R_BLOCKED, None));
            }
            let q = toward(m.centre(cell_a), p);
            (dst[0], dst[2]) = (q[0], q[1]);
            dst[1] = m.apply_height(cell_a, dst[0], dst[2]);
            return Ok((r | R_ENTER, Some(Some(cell_a))));
        };
        let mut start = [src[0], src[2]];
        let centre = m.centre(tri);
        match m.classify(tri, start) {
            0 => start = toward(centre, start),
            -1 => {
                let seg = [start[0], start[1], centre[0], centre[1]];
                for &(g, i) in m.walk_edges(tri) {
                    let (code, p) = cross_lines(m.line(g, i), seg);
                    if let Some(p) = p {
                        start = p;
                    }
                    if code == 2 {
                        start = toward(centre, start);
                        break;
                    }
                }
            }
            _ => {}
        }
        // WalkCells.
        let mut end = [dst[0], dst[2]];
        let mut cur = tri;
        let mut prev: Option<(usize, usize)> = None;
        let reached = loop {
            let seg = [start[0], start[1], end[0], end[1]];
            let mut cross = [0.0f32; 2];
            let mut found = None;
            for &(g, i) in m.walk_edges(cur) {
                if Some((g, i)) == prev {
                    continue;
                }
                let (code, p) = cross_lines(m.line(g, i), seg);
                if let Some(p) = p {
                    cross = p;
                }
                if code == 2 {
                    found = Some((g, i));
                    break;
                }
            }
            let Some((g, i)) = found else {
                break Some(cur);
            };
            let pv = prev.map_or([u32::MAX; 2], |(a, b)| [a as u32, b as u32]);
            ServerOracle::tick(
                ctx,
                vec![
                    cur as u32,
                    start[0].to_bits(),
                    start[1].to_bits(),
                    pv[0],
                    pv[1],
                ],
            )?;
            if ctx.steps == 0 {
                r |= R_STEPS;
                break Some(cur);
            }
            ctx.steps -= 1;
            let (_, _, ca, cb, flag) = m.edges[g][i];
            let next = if ca == cur { cb } else { Some(ca) };
            r |= m.flag_bits(flag);
            if flag & 4 == 0 {
                if flag & 8 != 0 {
                    r |= R_LINK;
                    ctx.link = if g == 0 { i as u32 } else { 0xFFFF };
                }
                if check != 0 && flag & 0x12 != 0 {
                    r |= R_BLOCKED;
                    ctx.blocked = Some(edge_ref(g, i));
                    end = toward(m.centre(cur), cross);
                    break Some(cur);
                }
                r |= R_LEFT;
                end = m.push_off(g, i, cross);
                break None;
            }
            let Some(next) = next else {
                r |= R_BLOCKED;
                ctx.blocked = Some(edge_ref(g, i));
                end = toward(m.centre(cur), cross);
                break Some(cur);
            };
            let blocks = (flag & 2 != 0 && ca == cur) || (flag & 1 != 0 && cb == Some(cur));
            if blocks {
                r |= R_BLOCKED;
                ctx.blocked = Some(edge_ref(g, i));
                end = toward(m.centre(cur), cross);
                break Some(cur);
            }
            start = toward(m.centre(next), cross);
            prev = Some((g, i));
            cur = next;
        };
        (dst[0], dst[2]) = (end[0], end[1]);
        if let Some(t) = reached {
            dst[1] = m.apply_height(t, end[0], end[1]);
        }
        Ok((r, Some(reached)))
    }
}
