//! Objects in the world: the instances of buildings, gates and bridges the regions list, each
//! with its own navmesh (the navigation section of a `.bms`), placed as the game server places
//! them.
//!
//! - [`crate::files::resolve`]: from an `object.ifo` path to the `.bms` under the data root.
//! - Instances are identified by [`InstanceKey`] `(owner region << 16) | uid`: an instance
//!   owned by another region is listed in every region its footprint touches, and the world
//!   lists it once ([`crate::World::object_instances`]: the owner's record when the owner is
//!   loaded, else the first region's in id order).
//! - The server places each region's records on their own: every record of a region's object
//!   list gets a local-to-world matrix (a rotation about +Y by its yaw, its position as the
//!   translation, in f32) and the server's float inverse of it, built from that record's own
//!   position in that region's frame. The queries use the record of the region a point is in,
//!   as the server does, so an instance listed in two regions answers in each region with
//!   that region's record, in the server's float arithmetic.
//! - A region's terrain cells list the objects over them (`cells[].objects`); the server looks
//!   for objects under a point only in the list of the cell of the point's tile, open or
//!   closed, and so do the queries ([`crate::world`]). To keep that cheap, each region keeps
//!   per tile the entries of its cell's list whose placement box meets the tile
//!   (`TileObjects`): the others cannot contain a point of the tile, so leaving them out
//!   changes no answer.
//! - Each tile with objects is cut into 8 × 8 squares of 2.5 units, two bytes each, and each
//!   square keeps its answer where one is certain for every point of it: one triangle
//!   contains the whole square by 0.01 units or more while the others leave it out as far
//!   (or none contains any of it); or one triangle's side divides the square into two parts
//!   that each have such an answer, for the points 0.02 units or more from the side (the
//!   neighbouring triangle's copy of the side is rounded apart). Other squares keep the
//!   object triangles that may contain a point of them (up to three, placed in the region's
//!   frame as three side lines), tested at the point. A point answered so is answered at
//!   once by `cell_at`, and by FindNavCell (`height_at` near a height) from the one triangle's plane in
//!   the server's arithmetic; on a floor (a level triangle under a placement turned about the
//!   vertical alone), that arithmetic gives every point the same bits, so the floor's height
//!   is worked out at load and read instead (`flat_height`). Other points (near a
//!   triangle's side, under two floors, in a square with more triangles) go through the
//!   lookup. The answers are the lookup's, bit for bit
//!   (`cell_at_from_the_squares_equals_the_lookup`, which also tries points at and past both
//!   margins beside every side). Most points on objects are answered from their square
//!   (the figures: `docs/design/objects.md`). A region's word per tile (its
//!   terrain cell, whether it is walkable, and its squares' record) leads a lookup from the
//!   tile straight to its squares.
//! - An object's mesh is held as the server holds it: heights come from each
//!   triangle's float plane, containment from the server's float test, in the object's frame
//!   after the server's float world-to-local transform; so heights are the server's to the bit.
//!   A mesh the server's loader refuses (an index out of range) is not placed, with a finding.

mod load;
pub(crate) mod mesh;

pub mod walk;

pub(crate) use load::ObjectFinding;
pub(crate) use load::{load_objects, MeshLoader, RegionObjects};

use crate::geometry::server_arith::{self as arith, Matrix, Plane};
use crate::geometry::{orient, Bounds, TILE};
use jmxv::bms::ObjectMesh;
use jmxv::nvm::TILE_SIZE;
use jmxv::RegionId;
use mesh::ServerMesh;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

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

/// An object's navmesh as the queries need it: the server's form, and the usable triangles
/// with their cell indices.
#[derive(Debug, Clone)]
pub(crate) struct PreparedMesh {
    pub(crate) server: ServerMesh,
    triangles: Vec<(u16, [[f32; 3]; 3])>,
}

impl PreparedMesh {
    /// The mesh as the server loads it, with its usable triangles; `Err` with the reason when
    /// it has no navigation section or the server's loader refuses it.
    pub fn new(mesh: &ObjectMesh) -> Result<PreparedMesh, String> {
        let Some(nav) = &mesh.nav else {
            return Err("the mesh has no navigation section".to_owned());
        };
        let server = ServerMesh::new(nav, mesh.header.nav_flags)?;
        let mut triangles = Vec::with_capacity(nav.cells.len());
        for (i, cell) in nav.cells.iter().enumerate() {
            let v = cell
                .vertices
                .map(|k| nav.vertices.get(usize::from(k)).map(|v| v.position));
            let usable = i <= usize::from(u16::MAX)
                && v.iter()
                    .all(|p| p.is_some_and(|p| p.iter().all(|c| c.get().is_finite())));
            if !usable {
                continue;
            }
            let v = v.map(|p| p.expect("checked").map(|c| c.get()));
            if orient(xz(v[0]), xz(v[1]), xz(v[2])) == 0.0 {
                continue;
            }
            triangles.push((i as u16, v));
        }
        Ok(PreparedMesh { server, triangles })
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
}

/// A record of a region's object list as the server places it: the instance its key names,
/// and the matrices built from this record's own position and yaw (an instance listed in two
/// regions has a placement in each, in each region's frame).
#[derive(Debug, Clone)]
pub(crate) struct Placement {
    pub key: InstanceKey,
    pub mesh: u32,
    pub to_world: Matrix,
    pub to_local: Matrix,
    /// The record's position, and the cosine and sine of its yaw in double (for line of
    /// sight's placement in double, [`walk::Frame`]; kept, as a walk places objects by the
    /// thousand).
    pub position: [f32; 3],
    pub yaw_cos_sin: [f64; 2],
    /// The record's link rows: (object index in this region's list, edge of that object,
    /// edge of this one).
    pub links: Vec<[u16; 3]>,
    /// A box in the region's frame (min x, min z, max x, max z) outside which the server's
    /// float tests find none of the mesh's triangles ([`Placement::may_contain`]).
    pub bounds: [f32; 4],
}

/// How much a placement's box is widened beyond its mesh's box carried into the region's frame
/// (in double): far more than the float rounding of the server's world-to-local transform at
/// any region coordinate, plus a relative part for the far-off positions of damaged files.
const PLACEMENT_MARGIN: f64 = 1.0;

impl Placement {
    /// The region-frame box of a mesh's local box under `to_world`, widened by
    /// [`PLACEMENT_MARGIN`]; everywhere for an unbounded mesh.
    pub fn bounds_of(mesh: &ServerMesh, to_world: &Matrix) -> [f32; 4] {
        let Some([x0, z0, x1, z1]) = mesh.xz_bounds() else {
            return [
                f32::NEG_INFINITY,
                f32::NEG_INFINITY,
                f32::INFINITY,
                f32::INFINITY,
            ];
        };
        if x0 > x1 || z0 > z1 {
            // No triangle: nothing is ever inside.
            return [
                f32::INFINITY,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::NEG_INFINITY,
            ];
        }
        let m = to_world.map(f64::from);
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for x in [x0, x1].map(f64::from) {
            for z in [z0, z1].map(f64::from) {
                let c = [m[0] * x + m[8] * z + m[12], m[2] * x + m[10] * z + m[14]];
                for k in 0..2 {
                    lo[k] = lo[k].min(c[k]);
                    hi[k] = hi[k].max(c[k]);
                }
            }
        }
        let scale = [lo[0], lo[1], hi[0], hi[1], m[12], m[14]]
            .iter()
            .fold(0.0f64, |a, v| a.max(v.abs()));
        let margin = PLACEMENT_MARGIN + scale * 1e-5;
        let out = [
            lo[0] - margin,
            lo[1] - margin,
            hi[0] + margin,
            hi[1] + margin,
        ];
        if out.iter().all(|v| v.is_finite()) {
            // Rounding to f32 moves a side by far less than the margin's relative part.
            out.map(|v| v as f32)
        } else {
            [
                f32::NEG_INFINITY,
                f32::NEG_INFINITY,
                f32::INFINITY,
                f32::INFINITY,
            ]
        }
    }

    /// Whether a triangle of the placement may contain the region-frame point (x, z): false
    /// only where the server's test finds none.
    #[inline]
    pub fn may_contain(&self, x: f32, z: f32) -> bool {
        let b = &self.bounds;
        // Written so that a NaN coordinate is never excluded.
        !(x < b[0] || z < b[1] || x > b[2] || z > b[3])
    }
}

/// Every placed instance, the meshes they share, and each region's object list.
#[derive(Debug, Clone, Default)]
pub(crate) struct Objects {
    meshes: Vec<PreparedMesh>,
    instances: Vec<Instance>,
    /// Per region slot of the world, its file's object list: `None` where an entry could
    /// not be placed.
    placements: Vec<Vec<Option<Placement>>>,
    /// Per region slot, per tile, the objects of the tile's cell list that may contain a point
    /// of the tile ([`Objects::index_tiles`]).
    tiles: Vec<TileObjects>,
}

/// Tiles per region side.
const TILES: usize = jmxv::nvm::TILES_PER_SIDE;

/// A region's tiles and, for each, the entries of its cell's object list whose placement box
/// ([`Placement::bounds`]) meets the tile, in the list's order: the entries that can contain a
/// point of the tile, the others being ones the server's tests reject there. The tiles whose
/// list is not empty are records, in tile order; a region's tile words
/// (`crate::world::region::TileWord`) name each tile's record, so a point far from every
/// object reads nothing here.
#[derive(Debug, Clone, Default)]
pub(crate) struct TileObjects {
    /// Per record, its tile (`z * 96 + x`).
    record_tiles: Vec<u16>,
    /// Per record, where its list starts in `items` (one more at the end).
    start: Vec<u32>,
    items: Vec<u16>,
    /// Per record, the tile's squares ([`TileSquares`]).
    squares: Vec<TileSquares>,
    /// The lists of triangles the squares name, each once.
    lists: Vec<[u16; SLOTS]>,
    /// The splits the squares name, each once.
    splits: Vec<Split>,
    /// The triangles the squares name, as lines in the region's frame ([`PlacedTri::sides`];
    /// a few per object: small, so it stays cached).
    sides: Vec<[[f32; 3]; 3]>,
    /// Their names, in the same order, apart from their sides: eight bytes each, so that
    /// the answers of a town's squares stay in the nearest cache.
    names: Vec<TriName>,
    /// Their heights where the server's arithmetic gives every point of them the same one
    /// ([`flat_height`]), NaN elsewhere, in the same order.
    flat: Vec<f32>,
}

/// An object triangle as [`TriangleHit`] names it.
#[derive(Debug, Clone, Copy)]
struct TriName {
    key: InstanceKey,
    tri: u16,
    /// Its placement's entry in the region's object list.
    entry: u16,
}

impl TriName {
    /// The name of no triangle (a [`Split`]'s side with none).
    const NONE: TriName = TriName {
        key: InstanceKey(0),
        tri: 0,
        entry: 0,
    };

    /// The answer of the squares that names this triangle, on terrain cell `cell`; it is
    /// `placed` in the region's squares.
    fn square(&self, cell: u16, placed: u16) -> SquareAnswer {
        SquareAnswer::Object(TriangleHit {
            key: self.key,
            tri: self.tri,
            cell,
            entry: self.entry,
            placed,
        })
    }
}

/// A tile's [`FINE`] × [`FINE`] squares (`z * FINE + x`), each a code:
/// - [`WHOLE_SQUARE`] and the triangle (an index of [`TileObjects`]' `names`, `sides` and
///   `flat`) that contains every point of the square while every other object triangle
///   leaves them out;
/// - [`NO_SQUARE`] where every object triangle leaves every point of it out;
/// - [`MIXED_SQUARE`] where the lookup decides (more than [`SLOTS`] triangles, or one that
///   cannot be placed);
/// - [`SPLIT_SQUARE`] and a [`Split`] (in `splits`) where one line divides the square into two
///   parts that each have one of the first two answers (most squares a triangle's side
///   crosses);
/// - below [`SPLIT_SQUARE`], the list (in `lists`) of the triangles that may contain one of
///   its points, each tested at the point.
///
/// Two bytes a square keep the squares of a town's tiles in the caches, and a tile's squares
/// in two cache lines, one of which a point reads.
#[derive(Debug, Clone, Copy)]
#[repr(align(64))]
struct TileSquares {
    squares: [u16; FINE * FINE],
}

/// Triangles a list of [`TileObjects::lists`] names, at most.
const SLOTS: usize = 3;
/// A square's code: this bit and a triangle.
const WHOLE_SQUARE: u16 = 0x8000;
/// A square's code: this and a split, up to [`NO_SQUARE`].
const SPLIT_SQUARE: u16 = 0x4000;
/// A square's code: the lookup decides.
const MIXED_SQUARE: u16 = 0x7FFF;
/// A square's code: no object triangle contains a point of the square.
const NO_SQUARE: u16 = 0x7FFE;
/// No more triangles in a list.
const EMPTY_SLOT: u16 = u16::MAX;
/// A split's answer where no object triangle contains the point.
const NO_TRIANGLE: u16 = u16::MAX;

/// A square one line divides ([`TileSquares`]): its points at least [`SPLIT_MARGIN`] on the
/// line's positive side (`a x + b z + c`) are in the first triangle of `answers` (indices of
/// [`TileObjects`]' `names`, `sides` and `flat`) and no other, those as far on its negative
/// side in the second and no other ([`NO_TRIANGLE`]: in none).
///
/// It names its answers itself (32 bytes in all), so that a point it answers reads nothing
/// more: its squares' splits are shared along a side, and a town has a few thousand.
#[derive(Debug, Clone, Copy)]
struct Split {
    /// A side of one of the square's triangles.
    line: [f32; 3],
    /// The triangles on the positive side and on the negative side.
    answers: [u16; 2],
    /// Their names.
    names: [TriName; 2],
}

/// An object triangle in its region's frame: each side's line, `a x + b z + c`, the distance
/// from the side, positive inside.
#[derive(Debug, Clone, Copy)]
struct PlacedTri {
    name: TriName,
    sides: [[f32; 3]; 3],
    /// Its height where it is one number ([`flat_height`]), else NaN.
    flat: f32,
}

impl PlacedTri {
    /// The triangle with corners `v` (local x, y, z) and containment plane `plane` of the
    /// placement `p` (entry `entry`); `None` when it has no area in the region's frame or is
    /// not finite there.
    fn new(
        p: &Placement,
        entry: u16,
        tri: u32,
        v: [[f32; 3]; 3],
        plane: &Plane,
    ) -> Option<PlacedTri> {
        let corners = region_corners(p, v);
        let turn = crate::geometry::orient(corners[0], corners[1], corners[2]);
        if turn == 0.0 || !turn.is_finite() {
            return None;
        }
        let sides = [0, 1, 2].map(|i| {
            let (a, b) = (corners[i], corners[(i + 1) % 3]);
            let len = (b[0] - a[0]).hypot(b[1] - a[1]) * turn.signum();
            let (nx, nz) = (-(b[1] - a[1]) / len, (b[0] - a[0]) / len);
            [nx as f32, nz as f32, (-(nx * a[0] + nz * a[1])) as f32]
        });
        let finite = sides.iter().flatten().all(|c| c.is_finite());
        let name = TriName {
            key: p.key,
            tri: u16::try_from(tri).ok()?,
            entry,
        };
        let flat = flat_height(p, plane).unwrap_or(f32::NAN);
        Some(PlacedTri { name, sides, flat }).filter(|_| finite)
    }
}

/// The corners `v` (local x, y, z) of a triangle of placement `p` in the region's frame (x, z).
fn region_corners(p: &Placement, v: [[f32; 3]; 3]) -> [[f64; 2]; 3] {
    let w = p.to_world.map(f64::from);
    v.map(|[x, y, z]| {
        let [x, y, z] = [x, y, z].map(f64::from);
        [
            w[0] * x + w[4] * y + w[8] * z + w[12],
            w[2] * x + w[6] * y + w[10] * z + w[14],
        ]
    })
}

/// Squares per tile side in [`TileSquares`].
const FINE: usize = 8;
/// Their side, world units.
const FINE_SIDE: f32 = TILE_SIZE / FINE as f32;
/// Squares per world unit ([`TileObjects::fine_in`]).
const GRID_SCALE: f64 = FINE as f64 / TILE;
/// How far inside (or outside) a triangle's sides a point must lie to be answered from the
/// squares ([`TileObjects::fine_in`]), world units: far more than the rounding of the server's
/// float containment test and transform at region coordinates (under 0.001), and of the
/// sides' lines in the region's frame.
const FINE_MARGIN: f64 = 0.01;
/// How far on one side of a [`Split`]'s line a point must lie to be answered by it: the
/// neighbouring triangle's side along the same line is computed apart, and differs from it by
/// the rounding of its coefficients (under 0.001 in a region), so the split's parts keep
/// [`FINE_MARGIN`] from it too.
const SPLIT_MARGIN: f64 = 2.0 * FINE_MARGIN;

/// The squares' answer at a point ([`TileObjects::fine_in`]): the one object triangle containing
/// it, no object triangle, or not certain.
#[derive(Debug, Clone, Copy)]
pub(crate) enum SquareAnswer {
    /// Not certain: the full lookup decides.
    Mixed,
    /// No object triangle contains the point.
    None,
    /// The one object triangle containing the point.
    Object(TriangleHit),
}

/// The one object triangle containing a point ([`SquareAnswer::Object`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct TriangleHit {
    /// The instance.
    pub key: InstanceKey,
    /// The triangle.
    pub tri: u16,
    /// The terrain cell of the point's tile, as the server names it with the triangle.
    pub cell: u16,
    /// The triangle's placement: its entry in the region's object list.
    pub entry: u16,
    /// The triangle among those the region's squares name ([`Objects::flat_height`]).
    pub placed: u16,
}

impl TileObjects {
    /// The entries of the cell list of record `i`'s tile that may contain its points.
    #[inline]
    pub fn get(&self, i: usize) -> &[u16] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// The one object triangle containing region-frame point (x, z) of tile `tile`, or none,
    /// by the triangles of the square it lies in, where that is certain (every one of them
    /// contains the point, or leaves it out, by [`FINE_MARGIN`]); [`SquareAnswer::Mixed`] where it is
    /// not, or where two contain it (one floor over another: the lookup orders them).
    /// The tile's squares are record `i` (as the region's tile words name it), and its
    /// terrain cell, as the server names it with an object triangle, is `cell`.
    #[inline]
    pub fn fine_in(&self, i: usize, tile: usize, cell: u16, x: f32, z: f32) -> SquareAnswer {
        let record = &self.squares[i];
        // The point's square across the region, `floor(v / 2.5)`, by one product: the
        // constant rounds up from 8/20, and an f32 in the region is never within its rounding
        // below a multiple of 2.5, so the product's floor is the quotient's (and its tile the
        // server's `trunc(v / 20)`; `grid_index_is_the_quotients_floor` checks both).
        let grid = |v: f32| (f64::from(v) * GRID_SCALE) as usize;
        let (gx, gz) = (grid(x), grid(z));
        if !(x >= 0.0 && z >= 0.0) || gx / FINE != tile % TILES || gz / FINE != tile / TILES {
            return SquareAnswer::Mixed;
        }
        let (sx, sz) = (gx % FINE, gz % FINE);
        let code = record.squares[sz * FINE + sx];
        let tri = if code & WHOLE_SQUARE != 0 {
            code & !WHOLE_SQUARE
        } else if code >= SPLIT_SQUARE {
            match code {
                NO_SQUARE => return SquareAnswer::None,
                MIXED_SQUARE => return SquareAnswer::Mixed,
                _ => {}
            }
            let split = &self.splits[usize::from(code - SPLIT_SQUARE)];
            let d = side_distance(&split.line, [f64::from(x), f64::from(z)]);
            let side = if d >= SPLIT_MARGIN {
                0
            } else if d <= -SPLIT_MARGIN {
                1
            } else {
                return SquareAnswer::Mixed;
            };
            if split.answers[side] == NO_TRIANGLE {
                return SquareAnswer::None;
            }
            return split.names[side].square(cell, split.answers[side]);
        } else {
            let point = [f64::from(x), f64::from(z)];
            let sides = |t: u16| &self.sides[usize::from(t)];
            match one_answer(&self.lists[usize::from(code)], sides, &[point]) {
                Some(NO_TRIANGLE) => return SquareAnswer::None,
                Some(tri) => tri,
                None => return SquareAnswer::Mixed,
            }
        };
        self.names[usize::from(tri)].square(cell, tri)
    }

    /// The index of a region's tiles: `cell_list(tile)` is the object list of the tile's cell
    /// (as the server names it, out of range or not).
    fn build<'a>(
        list: &[Option<Placement>],
        meshes: &[PreparedMesh],
        cell_list: impl Fn(usize) -> &'a [u16],
    ) -> Self {
        // The tiles some placement's box meets.
        let mut touched = vec![0u64; TILES * TILES / 64];
        let range = |lo: f32, hi: f32| {
            let tile = |v: f32| (v / TILE_SIZE).floor().clamp(0.0, (TILES - 1) as f32) as usize;
            (tile(lo), tile(hi))
        };
        let mut any = false;
        for p in list.iter().flatten() {
            let b = p.bounds;
            if !(b[0] <= b[2] && b[1] <= b[3]) || b[2] < 0.0 || b[3] < 0.0 {
                continue;
            }
            let ((x0, x1), (z0, z1)) = (range(b[0], b[2]), range(b[1], b[3]));
            if b[0] >= (TILES * 20) as f32 || b[1] >= (TILES * 20) as f32 {
                continue;
            }
            for z in z0..=z1 {
                for x in x0..=x1 {
                    let t = z * TILES + x;
                    touched[t / 64] |= 1 << (t % 64);
                    any = true;
                }
            }
        }
        if !any {
            return TileObjects::default();
        }
        let mut out = TileObjects::default();
        let mut parts = SquareParts::default();
        for (w, &word) in touched.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let t = w * 64 + bit;
                let (x, z) = (
                    (t % TILES) as f32 * TILE_SIZE,
                    (t / TILES) as f32 * TILE_SIZE,
                );
                let begin = out.items.len();
                let cell_list = cell_list(t);
                for &k in cell_list {
                    let meets = list
                        .get(usize::from(k))
                        .and_then(Option::as_ref)
                        .is_some_and(|p| {
                            let b = p.bounds;
                            b[0] <= x + TILE_SIZE && b[2] >= x && b[1] <= z + TILE_SIZE && b[3] >= z
                        });
                    if meets {
                        out.items.push(k);
                    }
                }
                if out.items.len() > begin {
                    out.record_tiles.push(t as u16);
                    out.start.push(begin as u32);
                    let mut record = TileSquares {
                        squares: [NO_SQUARE; FINE * FINE],
                    };
                    let near = parts.near(list, meshes, &out.items[begin..], t);
                    for (q, code) in record.squares.iter_mut().enumerate() {
                        *code = parts.code(&near, t, (q % FINE, q / FINE));
                    }
                    out.squares.push(record);
                }
            }
        }
        out.start.push(out.items.len() as u32);
        out.names = parts.placed.iter().map(|p| p.name).collect();
        out.flat = parts.placed.iter().map(|p| p.flat).collect();
        out.sides = parts.placed.iter().map(|p| p.sides).collect();
        out.lists = parts.lists;
        out.splits = parts.splits;
        out
    }
}

/// The triangles, lists and splits a region's squares name, as they are made
/// ([`TileObjects::build`]), each once.
#[derive(Debug, Default)]
struct SquareParts {
    placed: Vec<PlacedTri>,
    /// `placed` by entry and triangle.
    placed_index: HashMap<(u16, u32), u16>,
    lists: Vec<[u16; SLOTS]>,
    list_index: HashMap<[u16; SLOTS], u16>,
    splits: Vec<Split>,
    split_index: HashMap<([u32; 3], [u16; 2]), u16>,
}

impl SquareParts {
    /// The placements of `list`'s entries `entries` (those of tile `tile`, `z * 96 + x`), in
    /// their order, with their triangles near the tile, each placed (in `placed`) once.
    fn near<'a>(
        &mut self,
        list: &'a [Option<Placement>],
        meshes: &[PreparedMesh],
        entries: &[u16],
        tile: usize,
    ) -> Vec<TileNear<'a>> {
        let (x0, z0) = (((tile % TILES) * 20) as f64, ((tile / TILES) * 20) as f64);
        let corners = [
            [x0, z0],
            [x0 + TILE, z0],
            [x0 + TILE, z0 + TILE],
            [x0, z0 + TILE],
        ];
        entries
            .iter()
            .filter_map(|&entry| {
                let placement = list.get(usize::from(entry))?.as_ref()?;
                let local = corners.map(|c| to_local(placement, c));
                let mesh = &meshes[placement.mesh as usize].server;
                let triangles = mesh.triangles_near(&local, FINE_MARGIN).map(|near| {
                    near.into_iter()
                        .map(|(tri, v)| NearTri {
                            bounds: Bounds::of_points(region_corners(placement, v)),
                            placed: self.place(placement, entry, tri, v, &mesh.inside_plane(tri)),
                        })
                        .collect()
                });
                Some(TileNear {
                    placement,
                    triangles,
                })
            })
            .collect()
    }

    /// Triangle `tri` (corners `v`, local x, y, z; containment plane `plane`) of placement
    /// `p` (entry `entry`) in `placed`, added when new, with its sides; `None` where it
    /// cannot be placed.
    fn place(
        &mut self,
        p: &Placement,
        entry: u16,
        tri: u32,
        v: [[f32; 3]; 3],
        plane: &Plane,
    ) -> Option<(u16, [[f32; 3]; 3])> {
        if let Some(&t) = self.placed_index.get(&(entry, tri)) {
            return Some((t, self.placed[usize::from(t)].sides));
        }
        let t = u16::try_from(self.placed.len())
            .ok()
            .filter(|&t| t < WHOLE_SQUARE)?;
        let placed = PlacedTri::new(p, entry, tri, v, plane)?;
        self.placed.push(placed);
        self.placed_index.insert((entry, tri), t);
        Some((t, placed.sides))
    }

    /// The code ([`TileSquares`]) of square `(sx, sz)` of tile `tile` (`z * 96 + x`), from the
    /// triangles near the tile ([`SquareParts::near`]).
    fn code(&mut self, near: &[TileNear], tile: usize, square: (usize, usize)) -> u16 {
        let Some((slots, corners)) = self.triangles(near, tile, square) else {
            return MIXED_SQUARE;
        };
        match self.answer(&slots, &corners) {
            Some(NO_TRIANGLE) => return NO_SQUARE,
            Some(tri) => return WHOLE_SQUARE | tri,
            None => {}
        }
        if let Some(split) = self.split(&slots, &corners) {
            let key = (split.line.map(f32::to_bits), split.answers);
            if let Some(&code) = self.split_index.get(&key) {
                return code;
            }
            if let Some(code) = u16::try_from(self.splits.len())
                .ok()
                .map(|n| n + SPLIT_SQUARE)
                .filter(|&code| code < NO_SQUARE)
            {
                let mut split = split;
                for (name, &t) in split.names.iter_mut().zip(&split.answers) {
                    if let Some(p) = self.placed.get(usize::from(t)) {
                        *name = p.name;
                    }
                }
                self.splits.push(split);
                self.split_index.insert(key, code);
                return code;
            }
        }
        if let Some(&code) = self.list_index.get(&slots) {
            return code;
        }
        match u16::try_from(self.lists.len()) {
            Ok(code) if code < SPLIT_SQUARE => {
                self.lists.push(slots);
                self.list_index.insert(slots, code);
                code
            }
            _ => MIXED_SQUARE,
        }
    }

    /// The triangles near the tile (`near`) that may contain a point of its square `(sx, sz)`
    /// (tile `tile`: `z * 96 + x`), as indices into `placed`, and the square's corners;
    /// `None` when there are more than [`SLOTS`] or one cannot be placed.
    fn triangles(
        &mut self,
        near: &[TileNear],
        tile: usize,
        (sx, sz): (usize, usize),
    ) -> Option<([u16; SLOTS], [[f64; 2]; 4])> {
        let side = f64::from(FINE_SIDE);
        let x0 = ((tile % TILES) * 20) as f64 + sx as f64 * side;
        let z0 = ((tile / TILES) * 20) as f64 + sz as f64 * side;
        let corners = [
            [x0, z0],
            [x0 + side, z0],
            [x0 + side, z0 + side],
            [x0, z0 + side],
        ];
        // The lookup skips a placement at every point of a square its box leaves out.
        let skipped = |p: &Placement| {
            let b = p.bounds.map(f64::from);
            x0 + side < b[0] || z0 + side < b[1] || x0 > b[2] || z0 > b[3]
        };
        if near
            .iter()
            .any(|n| n.triangles.is_none() && !skipped(n.placement))
        {
            return None;
        }
        let mut slots = [EMPTY_SLOT; SLOTS];
        let mut n = 0;
        for near_tri in near
            .iter()
            .filter(|n| !skipped(n.placement))
            .flat_map(|n| n.triangles.iter().flatten())
        {
            // Apart by the margin along x or z, or beyond one of the triangle's sides: the
            // separating axes of a square and a triangle, in the region's frame.
            let t = &near_tri.bounds;
            let gap = (x0 - t.max[0])
                .max(t.min[0] - (x0 + side))
                .max((z0 - t.max[1]).max(t.min[1] - (z0 + side)));
            if gap >= FINE_MARGIN {
                continue;
            }
            let (t, sides) = near_tri.placed?;
            let beyond = |line: &[f32; 3]| {
                corners
                    .iter()
                    .all(|&c| side_distance(line, c) <= -FINE_MARGIN)
            };
            if sides.iter().any(beyond) {
                continue;
            }
            *slots.get_mut(n)? = t;
            n += 1;
        }
        Some((slots, corners))
    }

    /// [`one_answer`] of the triangles `slots` over convex polygon `poly`.
    fn answer(&self, slots: &[u16; SLOTS], poly: &[[f64; 2]]) -> Option<u16> {
        one_answer(slots, |t| &self.placed[usize::from(t)].sides, poly)
    }

    /// A side of one of the triangles `slots` that splits the square with corners `corners`
    /// into two parts that each have one answer ([`SquareParts::answer`]), if one does: the
    /// side and the answers on its positive and on its negative side.
    fn split(&self, slots: &[u16; SLOTS], corners: &[[f64; 2]; 4]) -> Option<Split> {
        let lines = slots
            .iter()
            .take_while(|&&t| t != EMPTY_SLOT)
            .flat_map(|&t| self.placed[usize::from(t)].sides);
        for line in lines {
            // A side away from the square leaves it whole on one side, which has no one
            // answer (else the square would have had it).
            let d = corners.map(|c| side_distance(&line, c));
            if d.iter().all(|&d| d >= SPLIT_MARGIN) || d.iter().all(|&d| d <= -SPLIT_MARGIN) {
                continue;
            }
            let (positive, p) = clip(corners, |v| side_distance(&line, v) - SPLIT_MARGIN);
            let (negative, n) = clip(corners, |v| -side_distance(&line, v) - SPLIT_MARGIN);
            if let (Some(inside), Some(outside)) = (
                self.answer(slots, &positive[..p]),
                self.answer(slots, &negative[..n]),
            ) {
                return Some(Split {
                    line,
                    answers: [inside, outside],
                    names: [TriName::NONE; 2],
                });
            }
        }
        None
    }
}

/// The answer of the squares at every point of convex polygon `poly` (a point when
/// [`TileObjects::fine_in`] tests a list, a square or part of one when [`SquareParts`] makes
/// them), from the triangles `slots` (their sides by `sides`): the one that contains all of it
/// by [`FINE_MARGIN`] while the others leave all of it out as far, or [`NO_TRIANGLE`] when all
/// leave it out; `None` when no one answer holds. A triangle and a polygon being convex, their
/// corners decide.
#[inline]
fn one_answer<'a>(
    slots: &[u16; SLOTS],
    sides: impl Fn(u16) -> &'a [[f32; 3]; 3],
    poly: &[[f64; 2]],
) -> Option<u16> {
    let mut found = NO_TRIANGLE;
    for &t in slots.iter().take_while(|&&t| t != EMPTY_SLOT) {
        let sides = sides(t);
        let outside =
            |side: &[f32; 3]| poly.iter().all(|&v| side_distance(side, v) <= -FINE_MARGIN);
        if sides.iter().any(outside) {
            continue;
        }
        let inside = |v: &[f64; 2]| {
            sides
                .iter()
                .all(|side| side_distance(side, *v) >= FINE_MARGIN)
        };
        if found != NO_TRIANGLE || !poly.iter().all(inside) {
            return None;
        }
        found = t;
    }
    Some(found)
}

/// The triangles of a placement that may contain a point of a tile ([`SquareParts::code`]
/// picks those of each square from them: a triangle apart from the tile is apart from each of
/// its squares).
#[derive(Debug)]
struct TileNear<'a> {
    placement: &'a Placement,
    /// As [`ServerMesh::triangles_near`] finds them for the tile, each with its box in the
    /// region's frame and placed there; `None` where the mesh's lookup cannot bound them (the
    /// tile's squares the placement's box meets go to the lookup).
    triangles: Option<Vec<NearTri>>,
}

/// A triangle of [`TileNear`].
#[derive(Debug)]
struct NearTri {
    /// Its box in the region's frame.
    bounds: Bounds,
    /// It in [`SquareParts::placed`], and its sides; `None` where it cannot be placed (no
    /// area in the region's frame, or too many triangles in the region).
    placed: Option<(u16, [[f32; 3]; 3])>,
}

/// Region-frame point `c` (x, z) in placement `p`'s local frame (x, z).
fn to_local(p: &Placement, c: [f64; 2]) -> [f64; 2] {
    let l = p.to_local.map(f64::from);
    [
        l[0] * c[0] + l[8] * c[1] + l[12],
        l[2] * c[0] + l[10] * c[1] + l[14],
    ]
}

/// `a x + b z + c` for a side `[a, b, c]` at point `v`, as [`TileObjects::fine_in`] computes it.
fn side_distance(&[a, b, c]: &[f32; 3], v: [f64; 2]) -> f64 {
    f64::from(a) * v[0] + f64::from(b) * v[1] + f64::from(c)
}

/// The part of square `poly` where `f` (linear) is at least zero: its corners, in the
/// first of the array's places the count says (a line cuts a square into at most five).
fn clip(poly: &[[f64; 2]; 4], f: impl Fn([f64; 2]) -> f64) -> ([[f64; 2]; 5], usize) {
    let mut out = [[0.0; 2]; 5];
    let mut n = 0;
    let mut push = |p: [f64; 2]| {
        if let Some(slot) = out.get_mut(n) {
            *slot = p;
            n += 1;
        }
    };
    for (i, &a) in poly.iter().enumerate() {
        let b = poly[(i + 1) % 4];
        let (fa, fb) = (f(a), f(b));
        if fa >= 0.0 {
            push(a);
        }
        if (fa >= 0.0) != (fb >= 0.0) {
            let t = fa / (fa - fb);
            push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
        }
    }
    (out, n)
}

impl Objects {
    /// Places instances (sorted by key, unique) and each region's object list (`placements`,
    /// one list per region of the world, in slot order).
    pub fn new(
        meshes: Vec<PreparedMesh>,
        instances: Vec<Instance>,
        placements: Vec<Vec<Option<Placement>>>,
    ) -> Objects {
        Objects {
            meshes,
            instances,
            placements,
            tiles: Vec::new(),
        }
    }

    /// Indexes the tiles of each region slot ([`TileObjects`]): `cell_list(slot, tile)` is the
    /// object list of the cell of the tile (`z * 96 + x`) in that region, as the server names
    /// it.
    pub fn index_tiles<'a>(&mut self, cell_list: impl Fn(usize, usize) -> &'a [u16] + Sync) {
        use rayon::prelude::*;
        let meshes = &self.meshes;
        self.tiles = self
            .placements
            .par_iter()
            .enumerate()
            .map(|(slot, list)| TileObjects::build(list, meshes, |t| cell_list(slot, t)))
            .collect();
    }

    /// The entries of the region in `slot` that may contain a point of the tile whose squares
    /// are record `record` (its tile word's; none without one), in the order of the tile's
    /// cell list.
    #[inline]
    pub fn tile_objects(&self, slot: usize, record: Option<usize>) -> &[u16] {
        match (self.tiles.get(slot), record) {
            (Some(t), Some(i)) => t.get(i),
            _ => &[],
        }
    }

    /// The one object triangle containing region-frame point (x, z) of tile `tile` of the
    /// region in `slot`, or none, where its square is certain ([`TileObjects::fine_in`]); the
    /// tile's squares are record `record` ([`Objects::tiles_with_squares`]).
    #[inline]
    pub fn fine_in(
        &self,
        slot: usize,
        record: usize,
        tile: usize,
        cell: u16,
        x: f32,
        z: f32,
    ) -> SquareAnswer {
        match self.tiles.get(slot) {
            Some(t) => t.fine_in(record, tile, cell, x, z),
            None => SquareAnswer::Mixed,
        }
    }

    /// The height of the triangle a square names ([`SquareAnswer::Object`]) where it is the same at
    /// every point ([`flat_height`]).
    #[inline]
    pub fn flat_height(&self, slot: usize, square: &TriangleHit) -> Option<f32> {
        let h = self.tiles[slot].flat[usize::from(square.placed)];
        (!h.is_nan()).then_some(h)
    }

    /// The tiles (`z * 96 + x`) of the region in `slot` that have squares, by record.
    pub fn tiles_with_squares(&self, slot: usize) -> &[u16] {
        self.tiles.get(slot).map_or(&[], |t| &t.record_tiles)
    }

    /// Whether there are no instances.
    pub fn is_empty(&self) -> bool {
        self.instances.is_empty()
    }

    /// The placed instances, by key.
    pub fn instances(&self) -> &[Instance] {
        &self.instances
    }

    /// Heap bytes held: the meshes, the instances, every region's placements and tile lists.
    pub fn heap_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        let meshes: usize = self
            .meshes
            .iter()
            .map(|m| m.server.heap_bytes() + bytes(&m.triangles))
            .sum();
        let placements: usize = self
            .placements
            .iter()
            .map(|list| {
                bytes(list)
                    + list
                        .iter()
                        .flatten()
                        .map(|p| bytes(&p.links))
                        .sum::<usize>()
            })
            .sum();
        let tiles: usize = self
            .tiles
            .iter()
            .map(|t| {
                bytes(&t.record_tiles)
                    + bytes(&t.start)
                    + bytes(&t.items)
                    + bytes(&t.squares)
                    + bytes(&t.lists)
                    + bytes(&t.splits)
                    + bytes(&t.sides)
                    + bytes(&t.names)
                    + bytes(&t.flat)
            })
            .sum();
        bytes(&self.meshes)
            + meshes
            + bytes(&self.instances)
            + bytes(&self.placements)
            + placements
            + bytes(&self.tiles)
            + tiles
    }

    /// The usable triangles of an instance's mesh.
    pub fn triangles(&self, inst: &Instance) -> &[(u16, [[f32; 3]; 3])] {
        &self.meshes[inst.mesh as usize].triangles
    }

    /// The object list of the region in `slot`: its placements by file index.
    #[inline]
    pub fn region_list(&self, slot: usize) -> &[Option<Placement>] {
        self.placements.get(slot).map_or(&[], Vec::as_slice)
    }

    /// Entry `index` of the object list of the region in `slot`, when it was placed.
    #[inline]
    pub fn placement(&self, slot: usize, index: u16) -> Option<&Placement> {
        self.region_list(slot).get(usize::from(index))?.as_ref()
    }

    /// Each instance once, by the first region slot whose list holds it (an instance several
    /// regions list is placed in each of them, with the same key), with that slot.
    pub fn placed_once(&self) -> Vec<(usize, &Placement)> {
        let mut seen = HashSet::default();
        let mut out = Vec::new();
        for (slot, list) in self.placements.iter().enumerate() {
            out.extend(
                list.iter()
                    .flatten()
                    .filter(|p| seen.insert(p.key))
                    .map(|p| (slot, p)),
            );
        }
        out
    }

    /// The server's mesh of a placement.
    #[inline]
    pub fn server_mesh(&self, p: &Placement) -> &ServerMesh {
        &self.meshes[p.mesh as usize].server
    }
}

/// The server's `NavObj_FindCell`: the triangle of a placement nearest in height to the
/// point's y (region-local x, y, z), and the point's new y (the triangle's height taken back
/// into the region's frame).
#[inline]
pub(crate) fn placement_find_cell(
    mesh: &ServerMesh,
    p: &Placement,
    pos: [f32; 3],
) -> Option<(u32, f32)> {
    let local = arith::transform(&p.to_local, pos);
    let (tri, y) = mesh.find_cell(local)?;
    Some((tri, region_height(p, local, y)))
}

/// [`placement_find_cell`] where triangle `tri` is known to contain the point and to be the
/// only one of the placement that does ([`SquareAnswer::Object`]: by [`FINE_MARGIN`], far beyond the
/// rounding of the server's containment test): its height taken back into the region's frame.
#[inline]
pub(crate) fn placement_triangle_height(
    mesh: &ServerMesh,
    p: &Placement,
    pos: [f32; 3],
    tri: u32,
) -> f32 {
    let local = arith::transform(&p.to_local, pos);
    region_height(p, local, mesh.inside_height(tri, local[0], local[2]))
}

/// The height [`placement_triangle_height`] gives at every point of a triangle with plane
/// `plane` (its containment test's) placed by `p`, where it is one number whatever the point
/// and the reference height: a floor (the plane's x and z terms zero) under a placement that
/// turns about the vertical alone (the local frame's x and z do not depend on y, and the
/// region's y does not depend on them). Then every product with x or z is a zero (of either
/// sign), which added to a number leaves it as it is, so the server's sums come to the same
/// value for every point; only a sum that is zero itself could differ, in its sign, so a
/// height of zero (or one that is not finite) is `None`, as is any other triangle.
fn flat_height(p: &Placement, plane: &Plane) -> Option<f32> {
    let floor = plane[0] == 0.0 && plane[2] == 0.0;
    let upright = p.to_local[4] == 0.0
        && p.to_local[6] == 0.0
        && p.to_world[1] == 0.0
        && p.to_world[9] == 0.0;
    if !(floor && upright) {
        return None;
    }
    let local = [1.0, 0.0, 1.0];
    let h = region_height(p, local, arith::plane_height(plane, local[0], local[2]));
    (h.is_finite() && h != 0.0).then_some(h)
}

/// The height `y` of the placement's local point `local` in the region's frame, as the server
/// takes it back.
#[inline]
fn region_height(p: &Placement, local: [f32; 3], y: f32) -> f32 {
    arith::transform(&p.to_world, [local[0], y, local[2]])[1]
}

#[cfg(test)]
mod tests {
    use super::{FINE, GRID_SCALE, TILES};
    use crate::world::height::tile_index;
    use proptest::prelude::*;

    /// A placement turned by `yaw` about the vertical, at `position`.
    fn placement(yaw: f32, position: [f32; 3]) -> super::Placement {
        use crate::geometry::server_arith as arith;
        let to_world = arith::local_to_world(yaw, position);
        super::Placement {
            key: super::InstanceKey(0),
            mesh: 0,
            to_local: arith::inverse_affine(&to_world),
            to_world,
            position,
            yaw_cos_sin: [f64::from(yaw).cos(), f64::from(yaw).sin()],
            links: Vec::new(),
            bounds: [0.0; 4],
        }
    }

    /// A level floor 3 units up its object, placed 5 units up, is 8 units up whatever the
    /// turn; a sloped triangle, or a floor whose height comes to zero, has no one height.
    #[test]
    fn a_floor_has_one_height_a_slope_none() {
        for yaw in [0.0, 0.7, -2.0, std::f32::consts::PI] {
            let p = placement(yaw, [10.0, 5.0, 10.0]);
            assert_eq!(
                super::flat_height(&p, &[0.0, 1.0, 0.0, -3.0]),
                Some(8.0),
                "{yaw}"
            );
            assert_eq!(
                super::flat_height(&p, &[-0.0, -1.0, 0.0, 3.0]),
                Some(8.0),
                "{yaw}"
            );
            assert_eq!(
                super::flat_height(&p, &[0.6, 0.8, 0.0, -3.0]),
                None,
                "{yaw}"
            );
            assert_eq!(super::flat_height(&p, &[0.0, 1.0, 0.0, 5.0]), None, "{yaw}");
        }
    }

    proptest! {
        /// Where [`super::flat_height`] gives a floor's height, the server's arithmetic
        /// ([`super::placement_triangle_height`]'s) gives those bits at every point and
        /// reference height: any turn about the vertical, position (zero height included),
        /// floor plane (either sign of zero in its x and z terms, a zero or negative distance)
        /// and point of the region.
        #[test]
        fn a_floors_height_is_the_servers_at_every_point(
            yaw in prop_oneof![Just(0.0f32), Just(std::f32::consts::PI), -7.0f32..7.0],
            position in (
                0.0f32..1920.0,
                prop_oneof![Just(0.0f32), Just(-0.0f32), -500.0f32..500.0],
                0.0f32..1920.0,
            ),
            zeros in (any::<bool>(), any::<bool>()),
            b in prop_oneof![Just(1.0f32), Just(-1.0f32), -2.0f32..2.0],
            d in prop_oneof![Just(0.0f32), Just(-0.0f32), -300.0f32..300.0],
            points in prop::collection::vec((0.0f32..1920.0, -1.0e6f32..1.0e6, 0.0f32..1920.0), 16),
        ) {
            use crate::geometry::server_arith as arith;
            let p = placement(yaw, [position.0, position.1, position.2]);
            let zero = |negative: bool| if negative { -0.0f32 } else { 0.0 };
            let plane = [zero(zeros.0), b, zero(zeros.1), d];
            if let Some(h) = super::flat_height(&p, &plane) {
                for (x, y, z) in points {
                    let local = arith::transform(&p.to_local, [x, y, z]);
                    let server = super::region_height(
                        &p,
                        local,
                        arith::plane_height(&plane, local[0], local[2]),
                    );
                    prop_assert_eq!(server.to_bits(), h.to_bits(), "at ({}, {}, {})", x, y, z);
                }
            }
        }
    }

    /// The squares' index by a product ([`super::TileObjects::fine_in`]) is `floor(v / 2.5)`
    /// exactly, and its tile the server's `trunc(v / 20)`: at every multiple of 2.5 across a
    /// region and 200 floats either side of it, and at a million random floats.
    #[test]
    fn grid_index_is_the_quotients_floor() {
        use silknav_testkit::rng::SplitMix64;
        let side = crate::geometry::TILE / FINE as f64;
        let check = |v: f32| {
            if !(0.0..(TILES * 20) as f32).contains(&v) {
                return;
            }
            let g = (f64::from(v) * GRID_SCALE) as usize;
            let lo = g as f64 * side;
            assert!(
                lo <= f64::from(v) && f64::from(v) < lo + side,
                "{v} in square {g}"
            );
            assert_eq!(g / FINE, tile_index(v) as usize, "{v}");
        };
        for k in 0..=(TILES * FINE) {
            // Neighbouring non-negative floats are neighbouring bit patterns.
            let at = (k as f64 * side) as f32;
            for step in 0..200u32 {
                check(f32::from_bits(at.to_bits() + step));
                if let Some(bits) = at.to_bits().checked_sub(step) {
                    check(f32::from_bits(bits));
                }
            }
        }
        let mut rng = SplitMix64::new(5);
        for _ in 0..1_000_000 {
            check(rng.unit() as f32 * 1920.0);
        }
    }
}
