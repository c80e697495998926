//! Objects in the world: the instances of buildings, gates and bridges the regions list, each
//! with its own navmesh (the navigation section of a `.bms`), placed and indexed for the
//! queries.
//!
//! - [`resolve`]: from an `object.ifo` path to the `.bms` under the data root.
//! - Instances are deduplicated by [`InstanceKey`] `(owner region << 16) | uid`: an instance
//!   owned by another region is listed in every region its footprint touches, and one is kept
//!   (the owner's record when the owner is loaded, else the first region's in id order).
//! - Placement follows the server: rotation about +Y by the yaw, then the translation, in the
//!   frame of the region whose record was kept. A query point is taken into the object's own
//!   frame (in double, from the region offset, the translation and the rotation), and tested
//!   there against the mesh's f32 triangles with the exact orientation predicate
//!   ([`crate::geometry::orient`]); points on an edge or a vertex are inside. Triangles of
//!   zero area, with vertex indices out of range or non-finite coordinates are never inside.
//! - A triangle's height at a point is the plane through its three vertices, in double
//!   (`ya + s·(yb − ya) + t·(yc − ya)` with s, t the point's coordinates along the two edges
//!   from the first vertex), plus the instance's y, rounded to f32.
//!
//! The reconstructed server (`CRTNavMeshObj::FindCell`, `CRTNavCellTri::IsInside`) does the
//! same steps in its own arithmetic: the point goes through a float world-to-local matrix,
//! each triangle's height comes from a float plane through its normalised normal, the inside
//! test is three float dot products in 3D, and of the triangles containing the point the one
//! whose height is closest to the reference wins, the first on a tie. silknav keeps the rule
//! and the tie order but decides inside-ness exactly and interpolates in double, so it agrees
//! with the server except within float rounding of an edge and in the last bits of a height;
//! reproducing those bits needs the server's matrix, normalisation and plane routines, which
//! are not reproduced here.
//! - Each loaded region keeps a grid of 120-unit buckets listing the triangles whose placed
//!   bounding box (widened by [`BUCKET_MARGIN`]) overlaps the bucket, each with that box; a
//!   query tests exactly only the triangles of its bucket whose box holds it.
//!
//! How an object cell is chosen over the terrain ([`crate::World::cell_at`],
//! [`crate::World::cell_at_y`], [`crate::World::height_at_y`]): see [`crate::world`].

mod load;
pub mod resolve;
pub mod walk;

pub use load::ObjectFinding;
pub(crate) use load::{load_objects, RegionObjects};
pub use walk::{ObjectEdgeKind, ObjectEdgeRef};

use crate::geometry::orient;
use crate::world::REGION_SIZE;
use jmxv::bms::ObjectMesh;
use jmxv::RegionId;
use std::collections::HashMap;

/// Width of one bucket of a region's object grid: 16 buckets a side.
const BUCKET: f64 = 120.0;
const BUCKETS_PER_SIDE: usize = 16;

/// How far a triangle's placed bounding box is widened before it is put into buckets: far
/// more than the rounding of the rotation (about 1e-12 units at these magnitudes), so a point
/// inside a triangle is always in one of its buckets; the exact test decides the rest.
pub const BUCKET_MARGIN: f64 = 1.0;

/// An instance's identity: `(owner region << 16) | uid`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct InstanceKey(pub u32);

impl InstanceKey {
    /// The key of the instance `uid` owned by `owner`.
    pub const fn new(owner: RegionId, uid: u16) -> InstanceKey {
        InstanceKey(((owner.0 as u32) << 16) | uid as u32)
    }

    /// The region that owns the instance.
    pub const fn owner(self) -> RegionId {
        RegionId((self.0 >> 16) as u16)
    }

    /// The instance id within its owner region.
    pub const fn uid(self) -> u16 {
        self.0 as u16
    }
}

impl std::fmt::Display for InstanceKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.owner(), self.uid())
    }
}

/// A triangle of an object instance: which instance, which cell of its mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ObjectCellRef {
    /// The instance.
    pub instance: InstanceKey,
    /// Index into the mesh's cells (triangles).
    pub cell: u16,
}

/// An object's navmesh as the queries need it: the usable triangles with their cell indices.
#[derive(Debug, Clone)]
pub(crate) struct PreparedMesh {
    triangles: Vec<(u16, [[f32; 3]; 3])>,
    /// The edges and the cell-to-triangle table the walks use ([`walk`]).
    pub(crate) edges: walk::MeshEdges,
}

impl PreparedMesh {
    /// The usable triangles of a mesh's navigation section (none without one), and how many
    /// were left out.
    pub fn new(mesh: &ObjectMesh) -> (PreparedMesh, usize) {
        let Some(nav) = &mesh.nav else {
            return (
                PreparedMesh {
                    triangles: vec![],
                    edges: walk::MeshEdges::default(),
                },
                0,
            );
        };
        let mut skipped = 0;
        let mut triangles = Vec::with_capacity(nav.cells.len());
        for (i, cell) in nav.cells.iter().enumerate() {
            let v = cell
                .vertices
                .map(|k| nav.vertices.get(usize::from(k)).map(|v| v.position));
            let usable = i <= usize::from(u16::MAX)
                && v.iter()
                    .all(|p| p.is_some_and(|p| p.iter().all(|c| c.get().is_finite())));
            if !usable {
                skipped += 1;
                continue;
            }
            let v = v.map(|p| p.expect("checked").map(|c| c.get()));
            if orient(xz(v[0]), xz(v[1]), xz(v[2])) == 0.0 {
                skipped += 1;
                continue;
            }
            triangles.push((i as u16, v));
        }
        let edges = walk::MeshEdges::new(nav, &triangles);
        (PreparedMesh { triangles, edges }, skipped)
    }
}

fn xz(v: [f32; 3]) -> [f64; 2] {
    [f64::from(v[0]), f64::from(v[2])]
}

/// A placed instance.
#[derive(Debug, Clone)]
pub(crate) struct Instance {
    pub key: InstanceKey,
    /// The region whose record was kept: position and yaw are in its frame.
    pub frame: RegionId,
    pub object_id: u32,
    pub mesh: u32,
    pub position: [f32; 3],
    pub yaw: f32,
    cos: f64,
    sin: f64,
}

impl Instance {
    pub fn new(
        key: InstanceKey,
        frame: RegionId,
        object_id: u32,
        mesh: u32,
        position: [f32; 3],
        yaw: f32,
    ) -> Instance {
        let yaw64 = f64::from(yaw);
        Instance {
            key,
            frame,
            object_id,
            mesh,
            position,
            yaw,
            cos: yaw64.cos(),
            sin: yaw64.sin(),
        }
    }

    /// A point local to `region` in the object's own frame.
    #[inline]
    fn to_local(&self, region: RegionId, x: f32, z: f32) -> [f64; 2] {
        self.to_local64(region, f64::from(x), f64::from(z))
    }

    /// [`Instance::to_local`] for a point given in double.
    #[inline]
    pub(crate) fn to_local64(&self, region: RegionId, x: f64, z: f64) -> [f64; 2] {
        let size = f64::from(REGION_SIZE);
        let dx = f64::from(i32::from(region.x()) - i32::from(self.frame.x())) * size + x
            - f64::from(self.position[0]);
        let dz = f64::from(i32::from(region.z()) - i32::from(self.frame.z())) * size + z
            - f64::from(self.position[2]);
        [dx * self.cos + dz * self.sin, dz * self.cos - dx * self.sin]
    }

    /// A direction in the object's frame turned into the world's.
    pub(crate) fn direction_to_world(&self, d: [f64; 2]) -> [f64; 2] {
        [
            d[0] * self.cos - d[1] * self.sin,
            d[0] * self.sin + d[1] * self.cos,
        ]
    }

    /// An object-local point in the frame of the instance's own region.
    pub(crate) fn to_frame(&self, v: [f32; 3]) -> [f64; 2] {
        let (x, z) = (f64::from(v[0]), f64::from(v[2]));
        [
            x * self.cos - z * self.sin + f64::from(self.position[0]),
            x * self.sin + z * self.cos + f64::from(self.position[2]),
        ]
    }
}

/// The height of a triangle at an object-local point, when the point is inside it (edges and
/// vertices included); `counter_clockwise` is the sign of the triangle's own orientation
/// (`orient(a, b, c) > 0`, fixed when the mesh is prepared, never zero there).
#[inline]
pub(crate) fn triangle_height(
    v: &[[f32; 3]; 3],
    counter_clockwise: bool,
    p: [f64; 2],
    base_y: f32,
) -> Option<f32> {
    let (a, b, c) = (xz(v[0]), xz(v[1]), xz(v[2]));
    // Most triangles that reach this test miss the point: stop at the first side it is beyond.
    let beyond = |side: f64| {
        if counter_clockwise {
            side < 0.0
        } else {
            side > 0.0
        }
    };
    if beyond(orient(b, c, p)) || beyond(orient(c, a, p)) || beyond(orient(a, b, p)) {
        return None;
    }
    let (e1, e2, q) = (
        [b[0] - a[0], b[1] - a[1]],
        [c[0] - a[0], c[1] - a[1]],
        [p[0] - a[0], p[1] - a[1]],
    );
    let det = e1[0] * e2[1] - e1[1] * e2[0];
    let s = (q[0] * e2[1] - q[1] * e2[0]) / det;
    let t = (e1[0] * q[1] - e1[1] * q[0]) / det;
    let (ya, yb, yc) = (f64::from(v[0][1]), f64::from(v[1][1]), f64::from(v[2][1]));
    Some((ya + s * (yb - ya) + t * (yc - ya) + f64::from(base_y)) as f32)
}

/// One region's buckets: `items[start[b]..start[b + 1]]` are the triangles of bucket `b`.
#[derive(Debug, Clone)]
struct Grid {
    start: Box<[u32]>,
    items: Box<[Item]>,
}

/// A triangle in a bucket, with its placed bounding box in the bucket's region (widened by
/// [`BUCKET_MARGIN`]): a point outside the box is outside the triangle, so most triangles of
/// a busy bucket are passed over with four comparisons, before the point is taken into the
/// object's frame and tested exactly.
#[derive(Debug, Clone, Copy)]
struct Item {
    instance: u32,
    triangle: u32,
    /// Region-local x and z of the box's low corner.
    lo: [f32; 2],
    /// Region-local x and z of the box's high corner.
    hi: [f32; 2],
    /// Whether the triangle's vertices run counter-clockwise ([`triangle_height`]).
    counter_clockwise: bool,
}

impl Item {
    #[inline]
    fn may_hold(&self, x: f32, z: f32) -> bool {
        // `&`, not `&&`: one branch per item instead of four hard-to-predict ones.
        (self.lo[0] <= x) & (x <= self.hi[0]) & (self.lo[1] <= z) & (z <= self.hi[1])
    }
}

/// One region's triangle lists while they are built, one per bucket.
type Buckets = Vec<Vec<Item>>;

/// Every placed instance, the meshes they share, and each region's bucket grid.
#[derive(Debug, Clone, Default)]
pub(crate) struct Objects {
    meshes: Vec<PreparedMesh>,
    instances: Vec<Instance>,
    /// Per region slot of the world; `None` for regions no instance reaches.
    grids: Vec<Option<Grid>>,
    /// Per instance: its placed bounds in world units (min x, min z, max x, max z), widened
    /// by [`BUCKET_MARGIN`].
    bounds: Vec<[f64; 4]>,
    /// The instances (ascending) whose bounds meet each region-sized cell of the world
    /// (`floor(x / 1920)`, `floor(z / 1920)`), so that a segment's candidates are looked up in
    /// the cells it spans instead of among every instance.
    by_cell: HashMap<(i64, i64), Vec<u32>>,
}

/// The region-sized cell of the world a coordinate (world units) falls in.
pub(crate) fn region_cell(v: f64) -> i64 {
    (v / f64::from(REGION_SIZE)).floor() as i64
}

/// An object triangle under a point, with its height there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Hit {
    pub cell: ObjectCellRef,
    pub height: f32,
}

impl Objects {
    /// Heap bytes held (the lookup table's entries counted as stored, its own slack not).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let meshes: usize = self
            .meshes
            .iter()
            .map(|m| {
                m.triangles.capacity() * size_of::<(u16, [[f32; 3]; 3])>() + m.edges.heap_bytes()
            })
            .sum();
        let grids: usize = self
            .grids
            .iter()
            .flatten()
            .map(|g| g.start.len() * 4 + g.items.len() * size_of::<Item>())
            .sum();
        let cells: usize = self
            .by_cell
            .values()
            .map(|v| size_of::<((i64, i64), Vec<u32>)>() + v.capacity() * 4)
            .sum();
        self.meshes.capacity() * size_of::<PreparedMesh>()
            + meshes
            + self.instances.capacity() * size_of::<Instance>()
            + self.grids.capacity() * size_of::<Option<Grid>>()
            + grids
            + self.bounds.capacity() * 32
            + cells
    }

    /// Places instances (sorted by key, unique) over `regions` (the world's, ascending).
    pub fn new(
        meshes: Vec<PreparedMesh>,
        instances: Vec<Instance>,
        regions: &[RegionId],
    ) -> Objects {
        let mut buckets: Vec<Option<Buckets>> = vec![None; regions.len()];
        let size = f64::from(REGION_SIZE);
        let mut bounds = Vec::with_capacity(instances.len());
        for inst in &instances {
            let (ox, oz) = (
                f64::from(inst.frame.x()) * size,
                f64::from(inst.frame.z()) * size,
            );
            let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
            for (_, v) in &meshes[inst.mesh as usize].triangles {
                for p in v.map(|v| inst.to_frame(v)) {
                    b = [
                        b[0].min(ox + p[0]),
                        b[1].min(oz + p[1]),
                        b[2].max(ox + p[0]),
                        b[3].max(oz + p[1]),
                    ];
                }
            }
            bounds.push([
                b[0] - BUCKET_MARGIN,
                b[1] - BUCKET_MARGIN,
                b[2] + BUCKET_MARGIN,
                b[3] + BUCKET_MARGIN,
            ]);
        }
        for (i, inst) in instances.iter().enumerate() {
            for (t, (_, v)) in meshes[inst.mesh as usize].triangles.iter().enumerate() {
                let counter_clockwise = orient(xz(v[0]), xz(v[1]), xz(v[2])) > 0.0;
                let p = v.map(|v| inst.to_frame(v));
                let lo = [0, 1].map(|k| p.iter().map(|q| q[k]).fold(f64::MAX, f64::min));
                let hi = [0, 1].map(|k| p.iter().map(|q| q[k]).fold(f64::MIN, f64::max));
                let (lo, hi) = (lo.map(|v| v - BUCKET_MARGIN), hi.map(|v| v + BUCKET_MARGIN));
                // Regions (relative to the frame) the box touches.
                let rx = (lo[0] / size).floor() as i32..=(hi[0] / size).floor() as i32;
                let rz = (lo[1] / size).floor() as i32..=(hi[1] / size).floor() as i32;
                for dz in rz {
                    for dx in rx.clone() {
                        let (x, z) = (
                            i32::from(inst.frame.x()) + dx,
                            i32::from(inst.frame.z()) + dz,
                        );
                        if !(0..256).contains(&x) || !(0..128).contains(&z) {
                            continue;
                        }
                        let id = RegionId::new(x as u8, z as u8);
                        let Ok(slot) = regions.binary_search(&id) else {
                            continue;
                        };
                        let grid = buckets[slot].get_or_insert_with(|| {
                            vec![Vec::new(); BUCKETS_PER_SIDE * BUCKETS_PER_SIDE]
                        });
                        let (ox, oz) = (f64::from(dx) * size, f64::from(dz) * size);
                        // The margin (1 unit) dwarfs the rounding to f32 (under 1e-3 units
                        // in a region), so the box still holds every point of the triangle.
                        let item = Item {
                            instance: i as u32,
                            triangle: t as u32,
                            lo: [(lo[0] - ox) as f32, (lo[1] - oz) as f32],
                            hi: [(hi[0] - ox) as f32, (hi[1] - oz) as f32],
                            counter_clockwise,
                        };
                        let range = |lo: f64, hi: f64| {
                            let b = |v: f64| {
                                ((v / BUCKET).floor()).clamp(0.0, (BUCKETS_PER_SIDE - 1) as f64)
                                    as usize
                            };
                            b(lo)..=b(hi)
                        };
                        for bz in range(lo[1] - oz, hi[1] - oz) {
                            for bx in range(lo[0] - ox, hi[0] - ox) {
                                grid[bz * BUCKETS_PER_SIDE + bx].push(item);
                            }
                        }
                    }
                }
            }
        }
        let grids = buckets
            .into_iter()
            .map(|b| {
                b.map(|lists| {
                    let mut start = Vec::with_capacity(lists.len() + 1);
                    let mut items = Vec::new();
                    for list in lists {
                        start.push(items.len() as u32);
                        items.extend(list);
                    }
                    start.push(items.len() as u32);
                    Grid {
                        start: start.into(),
                        items: items.into(),
                    }
                })
            })
            .collect();
        let mut by_cell: HashMap<(i64, i64), Vec<u32>> = HashMap::new();
        for (i, b) in bounds.iter().enumerate() {
            for cz in region_cell(b[1])..=region_cell(b[3]) {
                for cx in region_cell(b[0])..=region_cell(b[2]) {
                    by_cell.entry((cx, cz)).or_default().push(i as u32);
                }
            }
        }
        Objects {
            meshes,
            instances,
            grids,
            bounds,
            by_cell,
        }
    }

    /// Whether there are no instances.
    pub fn is_empty(&self) -> bool {
        self.instances.is_empty()
    }

    /// The placed instances, by key.
    pub fn instances(&self) -> &[Instance] {
        &self.instances
    }

    /// The usable triangles of an instance's mesh.
    pub fn triangles(&self, inst: &Instance) -> &[(u16, [[f32; 3]; 3])] {
        &self.meshes[inst.mesh as usize].triangles
    }

    /// Calls `f` for every object triangle containing the point (local to the region in
    /// `slot`), with its height there.
    #[inline]
    pub fn hits(&self, slot: usize, region: RegionId, x: f32, z: f32, mut f: impl FnMut(Hit)) {
        let Some(Some(grid)) = self.grids.get(slot) else {
            return;
        };
        let b = |v: f32| ((f64::from(v) / BUCKET) as usize).min(BUCKETS_PER_SIDE - 1);
        let bucket = b(z) * BUCKETS_PER_SIDE + b(x);
        let items = &grid.items[grid.start[bucket] as usize..grid.start[bucket + 1] as usize];
        let mut local = None;
        for item in items {
            if !item.may_hold(x, z) {
                continue;
            }
            let (i, t) = (item.instance, item.triangle);
            let inst = &self.instances[i as usize];
            let p = match local {
                Some((j, p)) if j == i => p,
                _ => {
                    let p = inst.to_local(region, x, z);
                    local = Some((i, p));
                    p
                }
            };
            let (cell, v) = &self.meshes[inst.mesh as usize].triangles[t as usize];
            if let Some(height) = triangle_height(v, item.counter_clockwise, p, inst.position[1]) {
                f(Hit {
                    cell: ObjectCellRef {
                        instance: inst.key,
                        cell: *cell,
                    },
                    height,
                });
            }
        }
    }
}

/// Whether hit `a` is preferred over hit `b` with no reference height: the higher, then the
/// smaller key, then the smaller cell.
pub(crate) fn higher(a: &Hit, b: &Hit) -> bool {
    (a.height, std::cmp::Reverse((a.cell.instance, a.cell.cell)))
        > (b.height, std::cmp::Reverse((b.cell.instance, b.cell.cell)))
}

/// Whether hit `a` is preferred over hit `b` with reference height `y`: the closer to `y`,
/// then the smaller key, then the smaller cell (the server's `FindCell` keeps the first
/// triangle of an object on a tie).
pub(crate) fn closer(a: &Hit, b: &Hit, y: f32) -> bool {
    let (da, db) = (distance(a.height, y), distance(b.height, y));
    da < db || (da == db && (a.cell.instance, a.cell.cell) < (b.cell.instance, b.cell.cell))
}

/// `|h − y|` in double (exact for f32 inputs).
#[inline]
pub(crate) fn distance(h: f32, y: f32) -> f64 {
    (f64::from(h) - f64::from(y)).abs()
}
