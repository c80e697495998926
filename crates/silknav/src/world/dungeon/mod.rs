//! Dungeons: worlds of object floors only, addressed by region `0x8000 | id` in their own
//! coordinates, answering every query a terrain world answers.
//!
//! A dungeon has no terrain. Its ground is the navigation meshes of its blocks, each a `.bms`
//! named through a `.bsr` by the `.dof` ([`crate::files::DungeonFiles`]), in dungeon-local
//! coordinates: x, y and z as the dungeon's region (`0x8000 | id`) gives them, negative
//! allowed and never wrapped into a region. [`World`] loads the dungeons `dungeoninfo.txt`
//! serves with its objects, and every query of the world takes a dungeon position
//! ([`crate::world::Position::in_dungeon`]): a cell is answered as on an object, its `cell`
//! the block's index and its object the block (instance `0x8000 | id : block`) and triangle.
//!
//! # Rule
//! - **Cell and height**: [`Dungeon::cell_at`] answers the server's lookup: the voxel
//!   `(p − box0.min) / 200` (each axis on its own, [`jmxv::dof::VOXEL_SIZE`]) names the blocks
//!   to try; each is tried with the point carried into its frame, where its mesh's `FindCell`
//!   takes the triangle that holds the point and whose height is nearest the point's y; of the
//!   blocks, the one whose height is nearest wins (the first in the voxel's list on a tie). A
//!   point in no voxel, or held by no triangle of the voxel's blocks, has no cell. With no
//!   reference height, the highest triangle of the voxel column's blocks.
//! - **Links** are made at load as the server makes them: an outline edge with flag 0x08 of a
//!   block links to one of a block in its `connected` list when both ends, placed, lie within
//!   [`LINK_TOLERANCE`] units of the other edge's ends in 3-D, in either order
//!   ([`Dungeon::links`]).
//! - **Collision circles**: the blocks' objects with flag 2, radius √`radius_squared`
//!   ([`Dungeon::collision_circles`]). A segment that starts outside one is blocked where it
//!   first enters it (touching is not entering); one that starts inside is blocked at once
//!   when it heads toward the centre. Line of sight stops there, a walk 0.01 short of it, and
//!   paths go round it, turning at the corners of the octagon about it, 0.01 outside.
//! - **Walks and paths** start on the cell the lookup picks and run on the dungeon's *ground*:
//!   the blocks as object instances of a world whose terrain is blocked everywhere, walked by
//!   the world's own rules ([`crate::world::raycast`], [`crate::world::movement`],
//!   [`crate::path`]), so that a walk passes from block to block only over links and never
//!   leaves the dungeon; a goal in another dungeon or on the terrain is no path.
//!
//! # Method
//! Blocks are placed like terrain objects ([`crate::objects`]): a rotation about +y by the
//! block's yaw and its position as the translation, in the server's f32 arithmetic, with the
//! server's inverse; containment and heights are the object meshes' (`ServerMesh`). Each voxel
//! keeps, for each of its 20-unit squares, the blocks whose placed box meets the square, and
//! each block a bound on the heights its lookup can answer. A lookup costs a hash of the voxel
//! id, a box test per block listed in the point's square (outside its box the server's test
//! finds no triangle, as for terrain objects), and a `FindCell` per block in order of its
//! height bound's distance from the point's y, until the bound is further than the best
//! height found: one `FindCell` where the floors over a point lie apart. The answer is the
//! server's, ties included (a test checks it against trying every listed block in order). The
//! queries bench measures it (`dungeon_cell_at`); the dungeons bench measures loading and
//! paths.
//!
//! # Limits
//! - The block placement follows the terrain objects' arithmetic; the reconstructed server has
//!   the dungeon class but not its loader, so this is the nearest known arithmetic, not a
//!   ported one. Likewise the walks are the terrain objects' walk (the server's dungeon walk is
//!   not public), without its regions.
//! - Exact paths are the exact search with objects of [`crate::path`], on the visibility graph
//!   of the ground's floors; a walker with a radius is not made for dungeons.
//! - The ground holds a dungeon in one region of its own frame where the blocks span less than
//!   one (1,880 units with a margin), shifted by a multiple of 20 units: exactly when they lie in
//!   `[0, 1920)`, else rounded to the f32 spacing there (at most 0.000061 units). A wider
//!   dungeon spans several of the ground's regions; the server's dungeon has no regions, so a
//!   walk on the ground that steps over a link and leaves a region in one leg goes on there (on
//!   the terrain the server's walk stops).

mod ground;
mod walks;

pub use ground::LINK_TOLERANCE;

use super::World;
use crate::files::DungeonFiles;
use crate::geometry::server_arith::{self as arith, Matrix};
use crate::objects::mesh::ServerMesh;
use crate::objects::Placement;
use jmxv::bms::ObjectMesh;
use jmxv::dof::{self, DungeonFile, OBJECT_COLLISION, VOXEL_SIZE};
use jmxv::RegionId;
use rustc_hash::FxHashMap as HashMap;
use std::fmt;

/// A dungeon loaded for queries.
#[derive(Debug)]
pub struct Dungeon {
    region: RegionId,
    /// `box0.min`: the voxel grid's origin.
    origin: [f32; 3],
    /// Voxels along x, y and z.
    size: [u32; 3],
    /// The blocks of each voxel that has any, by voxel id ([`VoxelBlocks`]).
    voxels: HashMap<u32, VoxelBlocks>,
    blocks: Vec<Block>,
    meshes: Vec<ServerMesh>,
    circles: Vec<CollisionCircle>,
    /// The blocks as a world of object floors only ([`ground`]).
    ground: World,
    /// Ground world x, z = dungeon x, z + shift.
    shift: [f64; 2],
    /// The links made at load: (block, edge, linked block, its edge).
    links: Vec<[u32; 4]>,
    /// Each block's instance in the ground world.
    instances: Vec<crate::objects::InstanceKey>,
}

/// The most blocks one lookup orders by their height bounds; a point held by the boxes of
/// more is answered by trying them all in the voxel's order.
const MAX_TRIED: usize = 8;
/// Squares of a voxel along x and along z: 20 units each.
const SQUARES: usize = 10;
/// The square lists of a dungeon hold at most this many entries more than its voxels' own
/// lists; past it, each voxel is one square (a file of huge blocks cannot make the lists
/// grow faster than the file).
const SQUARE_LIST_ALLOWANCE: usize = 1 << 20;
/// Units a block's box is widened by when listed in a square, so that rounding in the
/// point's square never leaves out a block whose box holds the point.
const SQUARE_MARGIN: f32 = 1.0;

/// The blocks a voxel lists, in the `.dof`'s order, and for each of its 20-unit squares
/// (x, z) the entries whose box meets the square.
#[derive(Debug)]
struct VoxelBlocks {
    entries: Vec<VoxelEntry>,
    /// Squares along x and z: [`SQUARES`], or 1.
    squares: usize,
    /// Square `k` (`z · squares + x`) lists `order[start[k]..start[k + 1]]`: indices into
    /// `entries`, ascending.
    start: Vec<u32>,
    order: Vec<u16>,
    /// The voxel's south-west corner, dungeon x and z.
    corner: [f32; 2],
}

/// A block listed by a voxel.
#[derive(Debug, Clone, Copy)]
struct VoxelEntry {
    block: u32,
    /// The box (dungeon x, z) outside which the block's mesh holds no point.
    bounds: [f32; 4],
    /// Bounds on the heights the block's lookup can answer, `None` when unbounded.
    heights: Option<[f32; 2]>,
}

/// Lists each voxel's blocks again over `squares` × `squares` squares.
fn resquare(voxels: &mut HashMap<u32, VoxelBlocks>, squares: usize) {
    for v in voxels.values_mut() {
        *v = VoxelBlocks::new(std::mem::take(&mut v.entries), v.corner, squares);
    }
}

impl VoxelEntry {
    /// Whether the block's box holds `p` (a NaN coordinate is never left out).
    fn holds(&self, p: [f32; 3]) -> bool {
        let b = self.bounds;
        !(p[0] < b[0] || p[2] < b[1] || p[0] > b[2] || p[2] > b[3])
    }
}

impl VoxelBlocks {
    fn new(entries: Vec<VoxelEntry>, corner: [f32; 2], squares: usize) -> VoxelBlocks {
        let side = VOXEL_SIZE / squares as f32;
        let mut start = Vec::with_capacity(squares * squares + 1);
        let mut order = Vec::new();
        start.push(0);
        for sz in 0..squares {
            for sx in 0..squares {
                let x0 = corner[0] + sx as f32 * side - SQUARE_MARGIN;
                let z0 = corner[1] + sz as f32 * side - SQUARE_MARGIN;
                let (x1, z1) = (
                    x0 + side + 2.0 * SQUARE_MARGIN,
                    z0 + side + 2.0 * SQUARE_MARGIN,
                );
                for (i, e) in entries.iter().enumerate() {
                    let b = e.bounds;
                    // Written so that a NaN box is never left out.
                    if !(b[0] > x1 || b[1] > z1 || b[2] < x0 || b[3] < z0) {
                        order.push(i as u16);
                    }
                }
                start.push(order.len() as u32);
            }
        }
        VoxelBlocks {
            entries,
            squares,
            start,
            order,
            corner,
        }
    }

    /// The entries whose box holds `p`, in the voxel's order ([`VoxelEntry::holds`]).
    fn holding(&self, p: [f32; 3]) -> impl Iterator<Item = (usize, &VoxelEntry)> + '_ {
        self.near(p[0], p[2]).filter(move |(_, e)| e.holds(p))
    }

    /// The entries that may hold dungeon point (x, z), in the voxel's order.
    fn near(&self, x: f32, z: f32) -> impl Iterator<Item = (usize, &VoxelEntry)> + '_ {
        let side = VOXEL_SIZE / self.squares as f32;
        let square = |v: f32, corner: f32| {
            let s = ((v - corner) / side).floor();
            if s >= 0.0 {
                (s as usize).min(self.squares - 1)
            } else {
                0
            }
        };
        let k = square(z, self.corner[1]) * self.squares + square(x, self.corner[0]);
        let listed: &[u16] = if x.is_finite() && z.is_finite() {
            &self.order[self.start[k] as usize..self.start[k + 1] as usize]
        } else {
            &[]
        };
        let all = (!(x.is_finite() && z.is_finite())).then_some(0..self.entries.len());
        listed
            .iter()
            .map(|&i| usize::from(i))
            .chain(all.into_iter().flatten())
            .map(|i| (i, &self.entries[i]))
    }
}

/// A placed block.
#[derive(Debug)]
struct Block {
    mesh: u32,
    to_world: Matrix,
    to_local: Matrix,
    /// The placed box (dungeon x, z) outside which the mesh holds no point.
    bounds: [f32; 4],
}

/// A collision circle of a block's objects, placed: a mover outside it may not enter it, and
/// one inside may only move away from its centre.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CollisionCircle {
    /// The block whose object it is.
    pub block: u32,
    /// The centre, dungeon x and z.
    pub centre: [f32; 2],
    /// The radius: the square root of the object's stored square.
    pub radius: f32,
}

/// The cell under a point of a dungeon.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DungeonCell {
    /// The block, as an index into the `.dof`'s blocks.
    pub block: u32,
    /// The triangle of the block's mesh.
    pub cell: u32,
    /// The triangle's height under the point, in the dungeon's frame.
    pub height: f32,
}

/// Why a dungeon cannot be loaded from its files.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DungeonError {
    /// No `.dof` at this path among the files.
    NoLayout(String),
    /// A block's `.bsr`, or the `.bms` it names, is not among the files.
    MissingBlockFile {
        /// The block's index.
        block: usize,
        /// The file that is missing.
        path: String,
    },
    /// A block's mesh has no navigation section, or one the server's loader refuses.
    BadBlockMesh {
        /// The block's index.
        block: usize,
        /// The mesh's path and what is wrong.
        why: String,
    },
    /// A block's position or yaw is not finite.
    NonFinitePlacement {
        /// The block's index.
        block: usize,
    },
    /// The blocks spread over more regions than the terrain id space holds (256 × 128).
    TooLarge {
        /// Regions along x and z.
        regions: [i64; 2],
    },
    /// More blocks than instance numbers (65,536).
    TooManyBlocks {
        /// How many.
        blocks: usize,
    },
    /// `dungeoninfo.txt` does not serve it (service 0), as the server skips it.
    NotServed,
    /// `dungeoninfo.txt` names its region twice; the first is loaded.
    Duplicate,
    /// A dungeon file could not be read or parsed, so no dungeon was loaded: the error.
    Unreadable(String),
    /// More than 254 blocks meet one 160-unit square of the ground.
    CrowdedCell {
        /// How many blocks meet its region.
        blocks: usize,
    },
}

impl fmt::Display for DungeonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DungeonError::NoLayout(path) => write!(f, "{path}: no such dungeon layout"),
            DungeonError::MissingBlockFile { block, path } => {
                write!(f, "blocks[{block}]: {path}: no such file")
            }
            DungeonError::BadBlockMesh { block, why } => write!(f, "blocks[{block}]: {why}"),
            DungeonError::NonFinitePlacement { block } => {
                write!(f, "blocks[{block}]: position or yaw is not finite")
            }
            DungeonError::TooLarge { regions } => write!(
                f,
                "the blocks spread over {} × {} regions, more than 256 × 128",
                regions[0], regions[1]
            ),
            DungeonError::NotServed => f.write_str("dungeoninfo.txt does not serve it"),
            DungeonError::Duplicate => {
                f.write_str("its region is named again; the first is loaded")
            }
            DungeonError::Unreadable(why) => write!(f, "{why}"),
            DungeonError::TooManyBlocks { blocks } => {
                write!(f, "{blocks} blocks, more than 65,536")
            }
            DungeonError::CrowdedCell { blocks } => write!(
                f,
                "more than 254 of {blocks} blocks meet one 160-unit square"
            ),
        }
    }
}

impl std::error::Error for DungeonError {}

impl Dungeon {
    /// The dungeon `region` whose layout is the `.dof` at `path` among `files`, its blocks'
    /// meshes found through their resources.
    ///
    /// # Errors
    /// A layout, resource or mesh that is missing, a mesh the server would refuse, a block
    /// placed at a position that is not finite, a dungeon too large for its ground
    /// ([`DungeonError`]).
    pub fn from_files(
        files: &DungeonFiles,
        region: RegionId,
        path: &str,
    ) -> Result<Dungeon, DungeonError> {
        let layout = files
            .layouts
            .get(path)
            .ok_or_else(|| DungeonError::NoLayout(path.to_owned()))?;
        let found = files
            .block_meshes(layout)
            .map_err(|m| DungeonError::MissingBlockFile {
                block: m.block,
                path: m.path,
            })?;
        Dungeon::from_layout(layout, region, &found)
    }

    /// The dungeon of `layout`, each block's mesh given as (its path, the mesh).
    fn from_layout(
        layout: &DungeonFile,
        region: RegionId,
        found: &[(&str, &ObjectMesh)],
    ) -> Result<Dungeon, DungeonError> {
        let mut names: HashMap<&str, u32> = HashMap::default();
        let mut meshes = Vec::new();
        let mut blocks = Vec::with_capacity(layout.blocks.len());
        let mut ground_blocks = Vec::with_capacity(layout.blocks.len());
        for (i, (b, &(bms, mesh))) in layout.blocks.iter().zip(found).enumerate() {
            let slot = match names.get(bms) {
                Some(&slot) => slot,
                None => {
                    let bad = |why: String| DungeonError::BadBlockMesh {
                        block: i,
                        why: format!("{bms}: {why}"),
                    };
                    let nav = mesh
                        .nav
                        .as_ref()
                        .ok_or_else(|| bad("no navigation section".into()))?;
                    meshes.push(ServerMesh::new(nav, mesh.header.nav_flags).map_err(bad)?);
                    names.insert(bms, meshes.len() as u32 - 1);
                    meshes.len() as u32 - 1
                }
            };
            let position = b.position.map(|c| c.get());
            let yaw = b.yaw.get();
            if !(position.iter().all(|c| c.is_finite()) && yaw.is_finite()) {
                return Err(DungeonError::NonFinitePlacement { block: i });
            }
            let to_world = arith::local_to_world(yaw, position);
            let bounds = Placement::bounds_of(&meshes[slot as usize], &to_world);
            ground_blocks.push(ground::GroundBlock {
                mesh_path: bms,
                mesh,
                position,
                yaw,
                to_world,
                bounds,
                connected: &b.connected,
            });
            blocks.push(Block {
                mesh: slot,
                to_local: arith::inverse_affine(&to_world),
                to_world,
                bounds,
            });
        }
        // First, so that a dungeon too large for its ground is refused before anything else
        // is made (and a voxel's entries, each block once, fit a u16 index).
        let mut ground = ground::make(layout, &ground_blocks)?;
        let heights: Vec<Option<[f32; 2]>> = blocks
            .iter()
            .map(|b| {
                let [lo, hi] = meshes[b.mesh as usize].height_range()?;
                let placed = |y: f32| {
                    let w = f64::from(arith::transform(&b.to_world, [0.0, y, 0.0])[1]);
                    w + (1e-3 + 1e-5 * w.abs()) * if y == lo { -1.0 } else { 1.0 }
                };
                // Rotations about +y leave heights alone; any other matrix is not bounded so.
                let level = b.to_world[1] == 0.0 && b.to_world[5] == 1.0 && b.to_world[9] == 0.0;
                let range = [placed(lo) as f32, placed(hi) as f32];
                (level && range.iter().all(|v| v.is_finite())).then_some(range)
            })
            .collect();
        // A block listed again in a voxel answers as where it was first listed, so each is
        // kept once; an index into a voxel's entries is a u16, and a voxel lists at most
        // every block once (at most 65,536: `TooManyBlocks`).
        let mut listed: HashMap<u32, Vec<VoxelEntry>> = HashMap::default();
        let mut seen: HashMap<u32, rustc_hash::FxHashSet<u32>> = HashMap::default();
        for v in &layout.grid.voxels {
            let entries = listed.entry(v.id).or_default();
            let seen = seen.entry(v.id).or_default();
            for &b in v.blocks.iter().filter(|&&b| (b as usize) < blocks.len()) {
                if seen.insert(b) {
                    entries.push(VoxelEntry {
                        block: b,
                        bounds: blocks[b as usize].bounds,
                        heights: heights[b as usize],
                    });
                }
            }
        }
        let origin = layout.box0.min.map(|c| c.get());
        let listed_entries: usize = listed.values().map(Vec::len).sum();
        let mut voxels: HashMap<u32, VoxelBlocks> = listed
            .into_iter()
            .map(|(id, entries)| {
                let (x, z) = (id & dof::VOXEL_AXIS_MASK, (id >> 10) & dof::VOXEL_AXIS_MASK);
                let corner = [
                    origin[0] + x as f32 * VOXEL_SIZE,
                    origin[2] + z as f32 * VOXEL_SIZE,
                ];
                (id, VoxelBlocks::new(entries, corner, SQUARES))
            })
            .collect();
        let squared: usize = voxels.values().map(|v| v.order.len()).sum();
        if squared > listed_entries + SQUARE_LIST_ALLOWANCE {
            resquare(&mut voxels, 1);
        }
        let circles = CollisionCircle::of_layout(layout);
        ground.world.circles = circles
            .iter()
            .map(|c| crate::world::circles::Circle {
                centre: [
                    f64::from(c.centre[0]) + ground.shift[0],
                    f64::from(c.centre[1]) + ground.shift[1],
                ],
                radius: f64::from(c.radius),
            })
            .collect();
        Ok(Dungeon {
            region,
            origin,
            size: layout.grid.size,
            voxels,
            blocks,
            meshes,
            circles,
            ground: ground.world,
            shift: ground.shift,
            links: ground.links,
            instances: ground.instances,
        })
    }

    /// The dungeon's region id, `0x8000 | id`.
    pub fn region(&self) -> RegionId {
        self.region
    }

    /// The number of blocks.
    pub fn block_count(&self) -> usize {
        self.blocks.len()
    }

    /// The links made at load ([`LINK_TOLERANCE`]): (block, its outline edge, linked block,
    /// that block's outline edge), ascending.
    pub fn links(&self) -> &[[u32; 4]] {
        &self.links
    }

    /// The placed collision circles, in the order of the blocks and their objects.
    pub fn collision_circles(&self) -> &[CollisionCircle] {
        &self.circles
    }

    /// Every block's usable triangles, placed as the walks place them, in the dungeon's
    /// frame: (block, triangle index in its mesh, three vertices x, y, z), by block.
    pub fn block_triangles(&self) -> impl Iterator<Item = (u32, u16, [[f64; 3]; 3])> + '_ {
        let size = f64::from(crate::geometry::REGION_SIZE);
        let mut instances: Vec<_> = self.ground.object_instances().collect();
        instances.sort_by_key(|i| i.key().uid());
        instances.into_iter().flat_map(move |inst| {
            let frame = inst.frame_region();
            let corner = [
                f64::from(frame.x()) * size - self.shift[0],
                f64::from(frame.z()) * size - self.shift[1],
            ];
            let block = u32::from(inst.key().uid());
            inst.triangles().map(move |(tri, vertices)| {
                let placed = vertices.map(|v| {
                    let [x, y, z] = inst.place(v);
                    [x + corner[0], y, z + corner[1]]
                });
                (block, tri, placed)
            })
        })
    }

    /// The cell under the dungeon-local point `p` (x, y, z) nearest its height, and that
    /// height ([module docs](self)).
    pub fn cell_at(&self, p: [f32; 3]) -> Option<DungeonCell> {
        let voxel = self.voxel_of(p)?;
        let blocks = self
            .voxels
            .get(&dof::voxel_id(voxel[0], voxel[1], voxel[2]))?;
        // The blocks that may hold the point, nearest height bound first: once a block's
        // bound is further than the best height found, no later block can win. The best is
        // the nearest height, the first in the voxel's order on a tie, as the server picks.
        let mut tried = [(0.0f32, 0usize, 0u32); MAX_TRIED];
        let mut count = 0;
        for (order, e) in blocks.holding(p) {
            if count == MAX_TRIED {
                return self.cell_in_order(blocks, p);
            }
            let bound = match e.heights {
                Some([lo, hi]) if p[1].is_finite() => (lo - p[1]).max(p[1] - hi).max(0.0),
                _ => 0.0,
            };
            // Insertion keeps the tried blocks by bound, then by the voxel's order.
            let mut at = count;
            while at > 0 && (tried[at - 1].0, tried[at - 1].1) > (bound, order) {
                tried[at] = tried[at - 1];
                at -= 1;
            }
            tried[at] = (bound, order, e.block);
            count += 1;
        }
        let mut best: Option<(f32, usize, DungeonCell)> = None;
        for &(bound, order, block) in &tried[..count] {
            if best.is_some_and(|(d, _, _)| bound > d) {
                break;
            }
            let Some(c) = self.cell_in_block(block, p) else {
                continue;
            };
            let diff = (c.height - p[1]).abs();
            if diff.is_nan() {
                // Not ordered: the server's order decides, which the full scan keeps.
                return self.cell_in_order(blocks, p);
            }
            if best.is_none_or(|(d, o, _)| diff < d || (diff == d && order < o)) {
                best = Some((diff, order, c));
            }
        }
        best.map(|(_, _, cell)| cell)
    }

    /// [`Dungeon::cell_at`] by trying every block that may hold `p` in the voxel's order.
    fn cell_in_order(&self, blocks: &VoxelBlocks, p: [f32; 3]) -> Option<DungeonCell> {
        let mut best: Option<(f32, DungeonCell)> = None;
        for (_, e) in blocks.holding(p) {
            if let Some(c) = self.cell_in_block(e.block, p) {
                let diff = (c.height - p[1]).abs();
                if best.is_none_or(|(d, _)| diff < d) {
                    best = Some((diff, c));
                }
            }
        }
        best.map(|(_, cell)| cell)
    }

    /// The cell block `b` finds under the dungeon-local point `p`: its triangle that holds
    /// the point and whose height is nearest `p`'s y (the server's `FindCell` in that block,
    /// whichever voxel lists it), and that height in the dungeon's frame. `None` for a block
    /// index out of range or a point no triangle of the block holds.
    pub fn cell_in_block(&self, b: u32, p: [f32; 3]) -> Option<DungeonCell> {
        let block = self.blocks.get(b as usize)?;
        let local = arith::transform(&block.to_local, p);
        let (cell, y) = self.meshes[block.mesh as usize].find_cell(local)?;
        let height = arith::transform(&block.to_world, [local[0], y, local[2]])[1];
        Some(DungeonCell {
            block: b,
            cell,
            height,
        })
    }

    /// The voxel (x, y, z) holding `p`, `None` outside the grid.
    fn voxel_of(&self, p: [f32; 3]) -> Option<[u32; 3]> {
        let mut voxel = [0u32; 3];
        for k in 0..3 {
            let v = ((p[k] - self.origin[k]) / VOXEL_SIZE).floor();
            if !(v >= 0.0 && v < self.size[k] as f32) {
                return None;
            }
            voxel[k] = v as u32;
        }
        Some(voxel)
    }

    /// The highest cell under dungeon x, z, of the blocks the voxel column there lists.
    fn highest_cell_at(&self, x: f32, z: f32) -> Option<DungeonCell> {
        let top = self.origin[1] + self.size[1] as f32 * VOXEL_SIZE;
        let [vx, _, vz] = self.voxel_of([x, self.origin[1], z])?;
        let mut best: Option<DungeonCell> = None;
        let p = [x, top, z];
        for vy in 0..self.size[1] {
            let Some(blocks) = self.voxels.get(&dof::voxel_id(vx, vy, vz)) else {
                continue;
            };
            for (_, e) in blocks.holding(p) {
                if let Some(c) = self.cell_in_block(e.block, p) {
                    if best.is_none_or(|b| c.height > b.height) {
                        best = Some(c);
                    }
                }
            }
        }
        best
    }
}

impl CollisionCircle {
    /// The circles of `layout`'s block objects with flag [`OBJECT_COLLISION`], placed by
    /// their blocks as the blocks are placed, in the order of the blocks and their objects.
    /// An object whose radius is not a positive finite number, or whose placed centre is not
    /// finite, has none.
    pub fn of_layout(layout: &DungeonFile) -> Vec<CollisionCircle> {
        let mut out = Vec::new();
        for (i, b) in layout.blocks.iter().enumerate() {
            let to_world = arith::local_to_world(b.yaw.get(), b.position.map(|c| c.get()));
            for o in b.objects.iter().filter(|o| o.flag & OBJECT_COLLISION != 0) {
                let radius = o.radius_squared.get().sqrt();
                if !(radius.is_finite() && radius > 0.0) {
                    continue;
                }
                let [x, _, z] = arith::transform(&to_world, o.position.map(|c| c.get()));
                if x.is_finite() && z.is_finite() {
                    out.push(CollisionCircle {
                        block: i as u32,
                        centre: [x, z],
                        radius,
                    });
                }
            }
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    use crate::rng::SplitMix64;
    use crate::worldgen::{generate, GenOptions};

    /// The cave of `gen --seed 5 --size 1x1` (dungeon 2: two floors of 3 × 3 blocks, with
    /// pillars), for tests.
    pub(crate) fn generated_cave() -> Dungeon {
        let files = generate(&GenOptions {
            seed: 5,
            width: 1,
            height: 1,
            ..Default::default()
        })
        .expect("valid options")
        .into_files()
        .dungeons;
        let (path, _) = files
            .layout_of(jmxv::RegionId(0x8002))
            .expect("the cave's layout");
        Dungeon::from_files(&files, jmxv::RegionId(0x8002), path).expect("the cave loads")
    }

    /// The dungeon files of `gen --seed 9 --size 1x1`, and each row's region and `.dof`.
    pub(super) fn generated() -> (DungeonFiles, Vec<(RegionId, String)>) {
        let files = generate(&GenOptions {
            seed: 9,
            width: 1,
            height: 1,
            ..GenOptions::default()
        })
        .unwrap()
        .into_files();
        let rows = files
            .dungeons
            .info
            .as_ref()
            .unwrap()
            .rows()
            .map(|r| {
                (
                    r.region().unwrap(),
                    String::from_utf8(r.path.clone()).unwrap(),
                )
            })
            .collect();
        (files.dungeons, rows)
    }

    /// The brute-force answer: every triangle of every block, placed in double, holding the
    /// point by a margin; the one whose height is nearest the point's y. `None` also where a
    /// triangle's side passes within the margin, where rounding may decide.
    fn oracle(
        files: &DungeonFiles,
        layout: &DungeonFile,
        p: [f32; 3],
    ) -> Option<Option<(u32, f64)>> {
        const MARGIN: f64 = 1e-3;
        // Outside the voxel grid's box, no block is tried.
        let lo = layout.box0.min.map(|v| f64::from(v.get()));
        for k in 0..3 {
            let v = (f64::from(p[k]) - lo[k]) / f64::from(VOXEL_SIZE);
            if (v - v.round()).abs() < 1e-6 {
                return None; // on a voxel's face: rounding decides
            }
            if v < 0.0 || v >= f64::from(layout.grid.size[k]) {
                return Some(None);
            }
        }
        let (x, z) = (f64::from(p[0]), f64::from(p[2]));
        let mut best: Option<(f64, u32, f64)> = None;
        for (i, b) in layout.blocks.iter().enumerate() {
            let bsr = String::from_utf8_lossy(&b.path).into_owned();
            let bms =
                String::from_utf8_lossy(files.resources[&bsr].target_path().unwrap()).into_owned();
            let nav = files.meshes[&bms].nav.as_ref().unwrap();
            let (c, s) = (f64::from(b.yaw.get()).cos(), f64::from(b.yaw.get()).sin());
            let [px, py, pz] = b.position.map(|v| f64::from(v.get()));
            let place = |v: [f64; 3]| {
                [
                    v[0] * c - v[2] * s + px,
                    v[1] + py,
                    v[0] * s + v[2] * c + pz,
                ]
            };
            for cell in &nav.cells {
                let t = cell.vertices.map(|k| {
                    place(
                        nav.vertices[usize::from(k)]
                            .position
                            .map(|v| f64::from(v.get())),
                    )
                });
                // Signed distances of the point from each side, inward positive for either
                // winding.
                let area = (t[1][0] - t[0][0]) * (t[2][2] - t[0][2])
                    - (t[1][2] - t[0][2]) * (t[2][0] - t[0][0]);
                let side = |a: [f64; 3], b: [f64; 3]| {
                    let d =
                        ((b[0] - a[0]) * (z - a[2]) - (b[2] - a[2]) * (x - a[0])) * area.signum();
                    d / (b[0] - a[0]).hypot(b[2] - a[2])
                };
                let d = [side(t[0], t[1]), side(t[1], t[2]), side(t[2], t[0])];
                if d.iter().any(|&d| d.abs() < MARGIN) {
                    return None;
                }
                if d.iter().all(|&d| d > 0.0) {
                    // The plane's height at (x, z).
                    let (u, v) = (
                        [t[1][0] - t[0][0], t[1][1] - t[0][1], t[1][2] - t[0][2]],
                        [t[2][0] - t[0][0], t[2][1] - t[0][1], t[2][2] - t[0][2]],
                    );
                    let n = [
                        u[1] * v[2] - u[2] * v[1],
                        u[2] * v[0] - u[0] * v[2],
                        u[0] * v[1] - u[1] * v[0],
                    ];
                    let h = t[0][1] - (n[0] * (x - t[0][0]) + n[2] * (z - t[0][2])) / n[1];
                    let diff = (h - f64::from(p[1])).abs();
                    if let Some((d, _, _)) = best {
                        if (d - diff).abs() < MARGIN {
                            return None; // two floors equally near: a tie rounding decides
                        }
                    }
                    if best.is_none_or(|(d, _, _)| diff < d) {
                        best = Some((diff, i as u32, h));
                    }
                }
            }
        }
        Some(best.map(|(_, block, h)| (block, h)))
    }

    /// The server's lookup written plainly: every block the voxel lists, in its order, each
    /// tried with `FindCell`; the nearest height wins, the first on a tie.
    fn every_listed_block(d: &Dungeon, layout: &DungeonFile, p: [f32; 3]) -> Option<DungeonCell> {
        let v = d.voxel_of(p)?;
        let id = dof::voxel_id(v[0], v[1], v[2]);
        let mut best: Option<(f32, DungeonCell)> = None;
        for voxel in layout.grid.voxels.iter().filter(|x| x.id == id) {
            for &b in voxel
                .blocks
                .iter()
                .filter(|&&b| (b as usize) < d.blocks.len())
            {
                if let Some(c) = d.cell_in_block(b, p) {
                    let diff = (c.height - p[1]).abs();
                    if best.is_none_or(|(bd, _)| diff < bd) {
                        best = Some((diff, c));
                    }
                }
            }
        }
        best.map(|(_, c)| c)
    }

    /// The lookup's squares and its height bounds change nothing: at random points, at the
    /// floors' own heights, halfway between floors (ties) and at heights that are not
    /// numbers, it answers what trying every listed block in order answers, bit for bit.
    #[test]
    fn the_pruned_lookup_answers_what_every_listed_block_answers() {
        let (files, rows) = generated();
        let mut rng = SplitMix64::new(12);
        for (region, path) in rows {
            let dungeon = Dungeon::from_files(&files, region, &path).unwrap();
            let layout = &files.layouts[&path];
            let (lo, hi) = (
                layout.box0.min.map(|v| v.get()),
                layout.box0.max.map(|v| v.get()),
            );
            let heights: Vec<f32> = layout.blocks.iter().map(|b| b.position[1].get()).collect();
            let (mut found, mut compared) = (0, 0);
            for i in 0..if cfg!(debug_assertions) { 4000 } else { 40000 } {
                let x = lo[0] - 20.0 + (hi[0] - lo[0] + 40.0) * rng.unit() as f32;
                let z = lo[2] - 20.0 + (hi[2] - lo[2] + 40.0) * rng.unit() as f32;
                let floor = heights[rng.range(0, heights.len() as u32) as usize];
                let y = match i % 6 {
                    0 => floor,
                    1 => floor + 30.0,
                    2 => floor - 30.0,
                    3 => [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][i / 6 % 3],
                    _ => lo[1] - 20.0 + (hi[1] - lo[1] + 40.0) * rng.unit() as f32,
                };
                let p = [x, y, z];
                let expected = every_listed_block(&dungeon, layout, p);
                let got = dungeon.cell_at(p);
                let same = match (got, expected) {
                    (Some(a), Some(b)) => {
                        a.block == b.block
                            && a.cell == b.cell
                            && a.height.to_bits() == b.height.to_bits()
                    }
                    (None, None) => true,
                    _ => false,
                };
                assert!(
                    same,
                    "{region} at {p:?}: {got:?}, every block: {expected:?}"
                );
                compared += 1;
                found += usize::from(got.is_some());
            }
            assert!(
                found * 3 > compared,
                "{region}: {found} of {compared} on a cell"
            );
        }
    }

    /// Random points over each generated dungeon's box, at random heights: the lookup through
    /// the voxels answers the brute-force search over every triangle.
    #[test]
    fn cells_and_heights_equal_a_search_of_every_triangle() {
        let (files, rows) = generated();
        let mut rng = SplitMix64::new(4);
        for (region, path) in rows {
            let dungeon = Dungeon::from_files(&files, region, &path).unwrap();
            let layout = &files.layouts[&path];
            let (lo, hi) = (
                layout.box0.min.map(|v| v.get()),
                layout.box0.max.map(|v| v.get()),
            );
            let (mut found, mut none) = (0, 0);
            for _ in 0..if cfg!(debug_assertions) { 3000 } else { 30000 } {
                let p = [0, 1, 2].map(|k| {
                    let span = hi[k] - lo[k] + 40.0;
                    lo[k] - 20.0 + span * rng.unit() as f32
                });
                let Some(expected) = oracle(&files, layout, p) else {
                    continue;
                };
                let got = dungeon.cell_at(p);
                match (got, expected) {
                    (Some(c), Some((block, h))) => {
                        assert_eq!(c.block, block, "{path} {p:?}");
                        assert!(
                            (f64::from(c.height) - h).abs() < 1e-3,
                            "{path} {p:?}: {c:?} {h}"
                        );
                        found += 1;
                    }
                    (None, None) => none += 1,
                    (got, expected) => panic!("{path} {p:?}: {got:?} against {expected:?}"),
                }
            }
            assert!(
                found > 500 && none > 100,
                "{path}: {found} cells, {none} none"
            );
        }
    }

    /// On the catacomb's floors the nearest floor wins: the same x, z over a block on each of
    /// the three floors answers each floor from its own height.
    #[test]
    fn the_floor_nearest_the_height_answers() {
        let (files, rows) = generated();
        let (region, path) = &rows[0];
        let dungeon = Dungeon::from_files(&files, *region, path).unwrap();
        let layout = &files.layouts[path];
        // A slot with a level block on every floor.
        let level = |b: &jmxv::dof::Block| b.bounding_box.max[1].get() == 0.0;
        let first = layout
            .blocks
            .iter()
            .find(|b| {
                level(b)
                    && (1..3).all(|f| {
                        layout.blocks.iter().any(|o| {
                            o.floor_index == f
                                && level(o)
                                && o.position[0] == b.position[0]
                                && o.position[2] == b.position[2]
                        })
                    })
                    && b.floor_index == 0
            })
            .expect("a slot with a level block on every floor");
        let [x, _, z] = first.position.map(|v| v.get());
        // Off the middle, clear of the pillars and of the triangles' sides.
        let (x, z) = (x + 3.3, z + 7.1);
        for floor in 0..3u32 {
            let y = floor as f32 * crate::worldgen::dungeon::FLOOR_RISE + 5.0;
            let cell = dungeon.cell_at([x, y, z]).expect("a cell");
            assert_eq!(layout.blocks[cell.block as usize].floor_index, floor);
            assert_eq!(
                cell.height,
                floor as f32 * crate::worldgen::dungeon::FLOOR_RISE
            );
        }
        assert_eq!(dungeon.block_count(), layout.blocks.len());
        assert_eq!(dungeon.region(), *region);
    }

    #[test]
    fn missing_files_are_named() {
        let (mut files, rows) = generated();
        let (region, path) = rows[0].clone();
        assert_eq!(
            Dungeon::from_files(&files, region, "dungeon\\none.dof").unwrap_err(),
            DungeonError::NoLayout("dungeon\\none.dof".into())
        );
        let bsr = String::from_utf8(files.layouts[&path].blocks[0].path.clone()).unwrap();
        files.resources.remove(&bsr);
        let error = Dungeon::from_files(&files, region, &path).unwrap_err();
        assert_eq!(
            error,
            DungeonError::MissingBlockFile {
                block: 0,
                path: bsr.clone()
            }
        );
        assert_eq!(error.to_string(), format!("blocks[0]: {bsr}: no such file"));
    }
}

#[cfg(test)]
mod ground_tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::world::{movement::MoveOptions, Surface};
    use crate::world::{movement::MoveStop, Position};

    /// A world holding the generated dungeons of `files` and no terrain.
    fn world_of(files: &DungeonFiles) -> World {
        let mut world = World::from_navmeshes([]);
        world.load_dungeons(files, std::path::Path::new(""));
        assert!(
            world.load_report().findings.is_empty(),
            "{:?}",
            world.load_report()
        );
        world
    }

    /// The default generated world's dungeons (the catacomb: 3 floors, the cave: 2), and a
    /// one-floor dungeon of 30 × 30 blocks: 2,400 units a side, so that its ground spans two
    /// regions each way and walks cross their seams.
    fn worlds() -> Vec<(World, RegionId, usize)> {
        let mut out = generated();
        out.push(wide());
        out
    }

    /// The default generated world's dungeons, each with the number of (block, connected
    /// block) pairs its layout lists.
    fn generated() -> Vec<(World, RegionId, usize)> {
        let (files, _) = super::tests::generated();
        let world = world_of(&files);
        let out: Vec<(World, RegionId, usize)> = files
            .info
            .as_ref()
            .unwrap()
            .rows()
            .map(|r| {
                let layout = &files.layouts[&String::from_utf8(r.path.clone()).unwrap()];
                (world.clone(), r.region().unwrap(), pairs(layout))
            })
            .collect();
        out
    }

    /// The number of (block, connected block) pairs a layout lists.
    fn pairs(layout: &DungeonFile) -> usize {
        layout.blocks.iter().map(|b| b.connected.len()).sum()
    }

    /// A one-floor dungeon of 30 × 30 blocks, 2,400 units a side.
    fn wide() -> (World, RegionId, usize) {
        use crate::worldgen::dungeon::{block_files, generate_dungeon, DungeonSize};
        let g = generate_dungeon(
            4,
            9,
            "wide",
            DungeonSize {
                floors: 1,
                side: 30,
            },
        );
        let (meshes, resources) = block_files();
        let mut info = jmxv::ifo::dungeon::DungeonInfo::new(vec![g.row()]);
        info.lines.truncate(1);
        let wide = DungeonFiles {
            info: Some(info),
            meshes,
            resources,
            layouts: [(g.path.clone(), g.layout.clone())].into(),
            ..DungeonFiles::default()
        };
        let world = world_of(&wide);
        assert_eq!(world.dungeon(g.region()).unwrap().ground.regions().len(), 4);
        (world, g.region(), pairs(&g.layout))
    }

    /// A random point on a cell of the dungeon, a little over the floor as a walker's is,
    /// where the ground's frame holds it exactly (as every answer's point is).
    fn random_point(world: &World, region: RegionId, rng: &mut SplitMix64) -> (Position, f32) {
        let d = world.dungeon(region).unwrap();
        let (lo, hi) = (d.origin, d.size.map(|s| s as f32 * VOXEL_SIZE));
        loop {
            let p = [0, 1, 2].map(|k| lo[k] + hi[k] * rng.unit() as f32);
            let at = d.dungeon_position(d.ground_position(p[0], p[2]).unwrap());
            if let Some((_, h)) = world.surface_at(at, Surface::Near(p[1])) {
                return (at, h + 1.0);
            }
        }
    }

    /// Every link edge of the generated blocks faces a neighbour's, so every one is linked,
    /// and each link has its twin the other way.
    #[test]
    fn every_opening_is_linked_both_ways() {
        for (world, region, pairs) in worlds() {
            let d = world.dungeon(region).unwrap();
            // Each opening is two link edges of 20 units on each side.
            assert_eq!(d.links().len(), 2 * pairs, "{region}");
            for &[a, e, b, f] in d.links() {
                assert!(d.links().contains(&[b, f, a, e]), "{a}:{e} -> {b}:{f}");
            }
        }
    }

    /// The ground puts a walker on the cell the dungeon's lookup picks: the ground world's
    /// `FindNavCell` at that cell's height answers the same block and triangle.
    #[test]
    fn the_ground_starts_on_the_dungeons_cell() {
        let mut rng = SplitMix64::new(5);
        for (world, region, _) in worlds() {
            let d = world.dungeon(region).unwrap();
            for _ in 0..if cfg!(debug_assertions) { 300 } else { 3000 } {
                let (p, y) = random_point(&world, region, &mut rng);
                let c = d.cell_at([p.x, y, p.z]).unwrap();
                let ground = d.ground_position(p.x, p.z).unwrap();
                let g = d
                    .ground
                    .cell_at(ground, Surface::Near(c.height))
                    .expect("a ground cell");
                let o = g.object.expect("on a block");
                assert_eq!(
                    (u32::from(o.instance.uid()), u32::from(o.cell)),
                    (c.block, c.cell)
                );
                assert_eq!(world.cell_at(p, Surface::Near(y)), Some(d.cell_ref(c)));
                assert_eq!(world.height_at(p, Surface::Near(y)), Some(c.height));
            }
        }
    }

    /// Segments the line of sight finds clear are walked to their end by `move`, and a walk
    /// never ends off the dungeon's cells; segments it blocks stop the walk short of the goal.
    #[test]
    fn clear_segments_are_walked_to_their_end() {
        let mut rng = SplitMix64::new(6);
        for (world, region, _) in worlds() {
            let (mut clear, mut blocked, mut seams) = (0, 0, 0);
            let d = world.dungeon(region).unwrap();
            for _ in 0..if cfg!(debug_assertions) { 300 } else { 3000 } {
                let (a, y) = random_point(&world, region, &mut rng);
                let (b, _) = random_point(&world, region, &mut rng);
                // Short segments, so that many are clear: 10 to 150 units.
                let len = (b.x - a.x).hypot(b.z - a.z).max(1.0);
                let k = (10.0 + 140.0 * rng.unit() as f32) / len;
                let to = Position::new(region, a.x + (b.x - a.x) * k, a.z + (b.z - a.z) * k);
                let seam = d.ground_position(a.x, a.z).map(|p| p.region)
                    != d.ground_position(to.x, to.z).map(|p| p.region);
                let hit = world.raycast(a, to, Surface::Near(y)).unwrap();
                let walked = world
                    .move_along(a, to, &MoveOptions::new().with_start(Surface::Near(y)))
                    .unwrap();
                assert_eq!(walked.position.region, region);
                let (dx, dz) = (walked.position.x - to.x, walked.position.z - to.z);
                match hit {
                    None => {
                        clear += 1;
                        seams += usize::from(seam);
                        assert_eq!(
                            walked.stop,
                            MoveStop::Arrived,
                            "{a:?} -> {to:?}: {walked:?}"
                        );
                        assert!(dx.hypot(dz) < 1e-3, "{a:?} -> {to:?}: {walked:?}");
                    }
                    Some(h) => {
                        blocked += 1;
                        // The walk is stopped short of the goal (the server's walk slides
                        // along a wall met at a glancing angle, so it may stop past the hit).
                        assert!(
                            walked.stop != MoveStop::Arrived && dx.hypot(dz) > 1e-3,
                            "{a:?} -> {to:?}: {h:?} {walked:?}"
                        );
                    }
                }
                let on = world.cell_at(walked.position, Surface::Near(walked.height + 1.0));
                assert_eq!(on.map(|c| c.region), Some(region), "{walked:?}");
            }
            assert!(
                clear > 50 && blocked > 20,
                "{clear} clear, {blocked} blocked"
            );
            if d.ground.regions().len() > 1 {
                assert!(seams > 0, "no clear segment crosses a seam");
            }
        }
    }

    /// Paths in dungeons compose with the other queries: every leg of a default path is
    /// walked to its end by `move`, each from the height the leg before arrived at; the
    /// exact path is no longer; a path between dungeons, or to the terrain, is refused.
    #[test]
    fn paths_in_dungeons_are_walked_by_move() {
        use crate::{PathError, PathIndex, PathOptions, PathScratch};
        let mut rng = SplitMix64::new(8);
        let (mut walked, mut across_floors) = (0, 0);
        // The cave in a debug build (the catacomb's visibility graph is slow to begin there),
        // both in a release one.
        let take = if cfg!(debug_assertions) { 1 } else { 2 };
        for (world, region, _) in generated().into_iter().skip(2 - take) {
            let paths = PathIndex::build(&world);
            let mut scratch = PathScratch::new();
            for _ in 0..if cfg!(debug_assertions) { 10 } else { 30 } {
                let (a, y) = random_point(&world, region, &mut rng);
                let (b, _) = random_point(&world, region, &mut rng);
                let options = PathOptions::new().with_start(Surface::Near(y)).unwrap();
                let path = match paths.find_path(&world, a, b, &options, &mut scratch) {
                    Ok(path) => path,
                    Err(PathError::Unreachable) => continue,
                    Err(e) => panic!("{a:?} -> {b:?}: {e}"),
                };
                assert_eq!(path.waypoints.first(), Some(&a));
                assert_eq!(path.waypoints.last(), Some(&b));
                let exact = PathOptions::exact().with_start(Surface::Near(y)).unwrap();
                let shortest = paths.find_path(&world, a, b, &exact, &mut scratch).unwrap();
                assert!(
                    shortest.length <= path.length + 1e-6,
                    "{shortest:?} {path:?}"
                );
                let mut height = world.surface_at(a, Surface::Near(y)).unwrap().1;
                for leg in path.waypoints.windows(2) {
                    let m = world
                        .move_along(
                            leg[0],
                            leg[1],
                            &MoveOptions::new().with_start(Surface::Near(height)),
                        )
                        .unwrap();
                    assert!(m.stop.reaches_goal(), "{leg:?} from {height}: {m:?}");
                    height = m.height;
                }
                let start = world.surface_at(a, Surface::Near(y)).unwrap().1;
                across_floors += usize::from((height - start).abs() > 30.0);
                walked += 1;
                // Its cells: from the start's, through the cell each waypoint is reached on,
                // to the goal's, in order, each once per visit.
                let cells = world.path_cells(&path, Surface::Near(y));
                let heights = world.path_heights(&path, Surface::Near(y));
                assert!(cells.windows(2).all(|w| w[0] != w[1]), "{cells:?}");
                let mut from = 0;
                for (w, h) in path.waypoints.iter().zip(&heights) {
                    let at = world.cell_at(*w, Surface::Near(h.unwrap())).unwrap();
                    let k = cells[from..]
                        .iter()
                        .position(|c| *c == at)
                        .unwrap_or_else(|| panic!("{w:?} at {h:?}: {at:?} not in {cells:?}"));
                    from += k;
                }
                assert_eq!(
                    cells.first(),
                    world
                        .cell_at(a, Surface::Near(heights[0].unwrap()))
                        .as_ref()
                );
            }
            let other = Position::in_dungeon(0x7FFF, 0.0, 0.0);
            let (a, y) = random_point(&world, region, &mut rng);
            let options = PathOptions::new().with_start(Surface::Near(y)).unwrap();
            assert_eq!(
                paths.find_path(&world, a, other, &options, &mut scratch),
                Err(PathError::GoalBlocked)
            );
        }
        assert!(
            walked >= 8 && across_floors > 0,
            "{walked} paths, {across_floors} across floors"
        );
    }
}
