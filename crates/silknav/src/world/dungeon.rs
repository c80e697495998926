//! A dungeon's ground: its blocks placed as the server places them, and the cell and height
//! under a point.
//!
//! A dungeon has no terrain. Its ground is the navigation meshes of its blocks, each a `.bms`
//! named through a `.bsr` by the `.dof` ([`crate::files::DungeonFiles`]), in dungeon-local
//! coordinates: x, y and z as the dungeon's region (`0x8000 | id`) gives them, negative
//! allowed and never wrapped into a region.
//!
//! # Rule
//! [`Dungeon::cell_at`] answers the server's lookup: the voxel `(p − box0.min) / 200` (each
//! axis on its own, [`jmxv::dof::VOXEL_SIZE`]) names the blocks to try; each is tried with the
//! point carried into its frame, where its mesh's `FindCell` takes the triangle that holds the
//! point and whose height is nearest the point's y; of the blocks, the one whose height is
//! nearest wins (the first in the voxel's list on a tie). A point in no voxel, or held by no
//! triangle of the voxel's blocks, has no cell.
//!
//! # Method
//! Blocks are placed like terrain objects ([`crate::objects`]): a rotation about +y by the
//! block's yaw and its position as the translation, in the server's f32 arithmetic, with the
//! server's inverse; containment and heights are the object meshes' (`ServerMesh`). A lookup
//! costs a hash of the voxel id, a box test per block listed there, and a `FindCell` for the
//! blocks whose placed box holds the point (outside it the server's test finds no triangle,
//! as for terrain objects), one per floor over the point on generated dungeons. The queries
//! bench measures it (`dungeon_cell_at`).
//!
//! # Limits
//! The block placement follows the terrain objects' arithmetic; the reconstructed server has
//! the dungeon class but not its loader, so this is the nearest known arithmetic, not a
//! ported one. Collision circles, block links and the paths across blocks are not here yet.

use crate::files::DungeonFiles;
use crate::geometry::server_arith::{self as arith, Matrix};
use crate::objects::mesh::ServerMesh;
use crate::objects::Placement;
use jmxv::dof::{self, DungeonFile, VOXEL_SIZE};
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
    /// The blocks of each voxel that has any, by voxel id, in the `.dof`'s order, each with
    /// the box (dungeon x, z) outside which its mesh holds no point.
    voxels: HashMap<u32, Vec<(u32, [f32; 4])>>,
    blocks: Vec<Block>,
    meshes: Vec<ServerMesh>,
}

/// A placed block.
#[derive(Debug)]
struct Block {
    mesh: u32,
    to_world: Matrix,
    to_local: Matrix,
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
    /// placed at a position that is not finite ([`DungeonError`]).
    pub fn from_files(
        files: &DungeonFiles,
        region: RegionId,
        path: &str,
    ) -> Result<Dungeon, DungeonError> {
        let layout = files
            .layouts
            .get(path)
            .ok_or_else(|| DungeonError::NoLayout(path.to_owned()))?;
        Dungeon::from_layout(layout, region, |block, bsr| {
            let missing = |path: &str| DungeonError::MissingBlockFile {
                block,
                path: path.to_owned(),
            };
            let resource = files.resources.get(bsr).ok_or_else(|| missing(bsr))?;
            let bms = resource
                .target_path()
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .ok_or_else(|| missing(bsr))?;
            let mesh = files.meshes.get(&bms).ok_or_else(|| missing(&bms))?;
            let nav = mesh
                .nav
                .as_ref()
                .ok_or_else(|| DungeonError::BadBlockMesh {
                    block,
                    why: format!("{bms}: no navigation section"),
                })?;
            let server = ServerMesh::new(nav, mesh.header.nav_flags).map_err(|why| {
                DungeonError::BadBlockMesh {
                    block,
                    why: format!("{bms}: {why}"),
                }
            })?;
            Ok((bms, server))
        })
    }

    /// The dungeon of `layout`, each block's mesh from `mesh_of(block index, .bsr path)` as
    /// (a name shared by the blocks with the same mesh, the mesh).
    fn from_layout(
        layout: &DungeonFile,
        region: RegionId,
        mut mesh_of: impl FnMut(usize, &str) -> Result<(String, ServerMesh), DungeonError>,
    ) -> Result<Dungeon, DungeonError> {
        let mut names: HashMap<String, u32> = HashMap::default();
        let mut meshes = Vec::new();
        let mut blocks = Vec::with_capacity(layout.blocks.len());
        for (i, b) in layout.blocks.iter().enumerate() {
            let bsr = String::from_utf8_lossy(&b.path).into_owned();
            let (name, server) = mesh_of(i, &bsr)?;
            let mesh = *names.entry(name).or_insert_with(|| {
                meshes.push(server);
                meshes.len() as u32 - 1
            });
            let position = b.position.map(|c| c.get());
            let yaw = b.yaw.get();
            if !(position.iter().all(|c| c.is_finite()) && yaw.is_finite()) {
                return Err(DungeonError::NonFinitePlacement { block: i });
            }
            let to_world = arith::local_to_world(yaw, position);
            blocks.push(Block {
                mesh,
                to_local: arith::inverse_affine(&to_world),
                to_world,
            });
        }
        let bounds: Vec<[f32; 4]> = blocks
            .iter()
            .map(|b| Placement::bounds_of(&meshes[b.mesh as usize], &b.to_world))
            .collect();
        let mut voxels: HashMap<u32, Vec<(u32, [f32; 4])>> = HashMap::default();
        for v in &layout.grid.voxels {
            voxels.entry(v.id).or_default().extend(
                v.blocks
                    .iter()
                    .filter(|&&b| (b as usize) < blocks.len())
                    .map(|&b| (b, bounds[b as usize])),
            );
        }
        Ok(Dungeon {
            region,
            origin: layout.box0.min.map(|c| c.get()),
            size: layout.grid.size,
            voxels,
            blocks,
            meshes,
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

    /// The cell under the dungeon-local point `p` (x, y, z) nearest its height, and that
    /// height ([module docs](self)).
    pub fn cell_at(&self, p: [f32; 3]) -> Option<DungeonCell> {
        let mut voxel = [0u32; 3];
        for k in 0..3 {
            let v = ((p[k] - self.origin[k]) / VOXEL_SIZE).floor();
            if !(v >= 0.0 && v < self.size[k] as f32) {
                return None;
            }
            voxel[k] = v as u32;
        }
        let blocks = self
            .voxels
            .get(&dof::voxel_id(voxel[0], voxel[1], voxel[2]))?;
        let mut best: Option<(f32, DungeonCell)> = None;
        for &(b, bounds) in blocks {
            // Written so that a NaN coordinate is never excluded.
            if p[0] < bounds[0] || p[2] < bounds[1] || p[0] > bounds[2] || p[2] > bounds[3] {
                continue; // no triangle of the block holds the point
            }
            let block = &self.blocks[b as usize];
            let local = arith::transform(&block.to_local, p);
            let Some((cell, y)) = self.meshes[block.mesh as usize].find_cell(local) else {
                continue;
            };
            let height = arith::transform(&block.to_world, [local[0], y, local[2]])[1];
            let diff = (height - p[1]).abs();
            if best.is_none_or(|(d, _)| diff < d) {
                best = Some((
                    diff,
                    DungeonCell {
                        block: b,
                        cell,
                        height,
                    },
                ));
            }
        }
        best.map(|(_, cell)| cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::worldgen::{generate, GenOptions};

    fn generated() -> (DungeonFiles, Vec<(RegionId, String)>) {
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
