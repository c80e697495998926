//! A dungeon's blocks as a world of object floors only: the ground its walks and paths run on.
//!
//! The blocks become object instances of a world whose terrain is blocked everywhere, so that
//! line of sight, movement, snapping and paths are the world's own ([`crate::world`],
//! [`crate::path`]), with no second implementation for dungeons.
//!
//! - **Frame.** Dungeon x and z are shifted (by a multiple of 20 units on each axis) so that
//!   every block lies in the terrain id space, in one region where the blocks span less than
//!   one: a dungeon whose blocks lie in `[0, 1920)` is not shifted, and keeps its coordinates
//!   exactly; others are carried into the ground's f32 frame in double and rounded to its
//!   spacing (at most 0.000061 units at 1920), and answers back into the dungeon's the same
//!   way. Heights are not changed.
//! - **Seams.** A wider dungeon is cut by region seams, which the server's dungeon has not:
//!   the ground world is marked as a dungeon's, and a walk that steps over a link and leaves a
//!   region in one leg goes on there on the block it stepped onto (on the terrain the server
//!   looks for the object it left, and stops: [`crate::world::movement`]).
//! - **Regions.** Every region the blocks' placed boxes touch, its 96 × 96 tiles blocked, its
//!   heights [`GROUND_DEPTH`] (so that the server's `FindNavCell` never prefers the terrain to
//!   a block), and its cells squares of [`CELL_TILES`] tiles, each listing the blocks whose
//!   placed box, grown by a tile, meets it.
//! - **Instances.** Block `i` is the instance with uid `i`, owned by the region its position
//!   lies in; each region's records hold the blocks that touch it and the blocks those link
//!   to (a link names its partner by its place in the same list).
//! - **Links**, made as the server makes them at load: an outline edge with flag 0x08 of a
//!   block links to one of a block in its `connected` list when both ends, placed, lie within
//!   [`LINK_TOLERANCE`] units of the other edge's ends in 3-D, in either order. Each link edge
//!   takes the first such edge, in the order of the `connected` list and then of the edges.

use super::DungeonError;
use crate::files::resolve::{ObjectProblem, ResolveError};
use crate::geometry::server_arith::{self as arith, Matrix};
use crate::geometry::REGION_SIZE;
use crate::objects::mesh::flag as mesh_flag;
use crate::objects::{InstanceKey, RegionObjects};
use crate::world::region::Region;
use crate::world::World;
use jmxv::bms::ObjectMesh;
use jmxv::dof::DungeonFile;
use jmxv::ifo::{ObjectEntry, ObjectIfo};
use jmxv::nvm::{
    boxed_array, Cell, Link, NavMesh, Object, Planes, Tile, SIGNATURE, TILES_PER_SIDE,
    TILE_BLOCKED, TILE_SIZE,
};
use jmxv::{RegionId, F32};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The height of the ground world's (blocked) terrain: far below any floor.
pub(crate) const GROUND_DEPTH: f32 = -1.0e6;
/// The side of the ground world's cells, in tiles (160 units): small, so that a cell lists
/// few blocks (at most 254 fit in a cell's list).
pub(crate) const CELL_TILES: usize = 8;
/// How near, in 3-D, the ends of two link edges must lie for the server to link them.
pub const LINK_TOLERANCE: f32 = 5.0;

/// A block as the ground is made from it.
pub(crate) struct GroundBlock<'a> {
    /// Its mesh's path, which names it in the ground world's `object.ifo`.
    pub mesh_path: &'a str,
    pub mesh: &'a ObjectMesh,
    pub position: [f32; 3],
    pub yaw: f32,
    pub to_world: Matrix,
    /// Its placed box in the dungeon's frame: min x, min z, max x, max z.
    pub bounds: [f32; 4],
    pub connected: &'a [u32],
}

/// The ground world of a dungeon, and the shift from dungeon x, z to the ground world's.
pub(crate) struct Ground {
    pub world: World,
    pub shift: [f64; 2],
    /// The links made, as (block, its edge, linked block, that block's edge).
    pub links: Vec<[u32; 4]>,
    /// Each block's instance in the ground world.
    pub instances: Vec<InstanceKey>,
}

/// Makes the ground of `blocks` (placed, in the `.dof`'s order).
#[allow(clippy::result_large_err)] // the mesh loader's error, as the resolver's
pub(crate) fn make(
    layout: &DungeonFile,
    blocks: &[GroundBlock<'_>],
) -> Result<Ground, DungeonError> {
    debug_assert_eq!(layout.blocks.len(), blocks.len());
    if blocks.len() > usize::from(u16::MAX) + 1 {
        return Err(DungeonError::TooManyBlocks {
            blocks: blocks.len(),
        });
    }
    let size = f64::from(REGION_SIZE);
    // The blocks' extent in the dungeon's frame.
    let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
    for b in blocks {
        for (k, (min, max)) in [(b.bounds[0], b.bounds[2]), (b.bounds[1], b.bounds[3])]
            .into_iter()
            .enumerate()
        {
            if min.is_finite() && max.is_finite() {
                lo[k] = lo[k].min(f64::from(min));
                hi[k] = hi[k].max(f64::from(max));
            } // a mesh without vertices holds no point
        }
    }
    if lo[0] > hi[0] || lo[1] > hi[1] {
        lo = [0.0; 2];
        hi = [0.0; 2];
    }
    let placed = placed_link_edges(blocks);
    let shift = [0, 1].map(|k| frame_shift(lo[k], hi[k]));
    // Regions along x and z.
    let count = [0, 1].map(|k| ((hi[k] + shift[k] + MARGIN) / size).floor() as i64 + 1);
    if count[0] > 256 || count[1] > 128 {
        return Err(DungeonError::TooLarge { regions: count });
    }
    let region_of = |x: f64, z: f64| {
        let rx = ((x + shift[0]) / size)
            .floor()
            .clamp(0.0, (count[0] - 1) as f64);
        let rz = ((z + shift[1]) / size)
            .floor()
            .clamp(0.0, (count[1] - 1) as f64);
        RegionId::new(rx as u8, rz as u8)
    };
    let links = make_links(blocks, &placed);

    // The ground world's object table: one id per distinct mesh.
    let mut ids: BTreeMap<&str, u32> = BTreeMap::new();
    for b in blocks {
        let next = ids.len() as u32;
        ids.entry(b.mesh_path).or_insert(next);
    }
    let ifo = ObjectIfo::new(
        ids.iter()
            .map(|(path, &id)| ObjectEntry::new(id, 0, path.as_bytes().to_vec()))
            .collect(),
    );
    let meshes: BTreeMap<&str, &ObjectMesh> =
        blocks.iter().map(|b| (b.mesh_path, b.mesh)).collect();

    // The blocks each region lists: those whose grown box meets it, then those they link to.
    let grow = TILE_SIZE;
    let mut touching: BTreeMap<RegionId, Vec<u32>> = BTreeMap::new();
    for (i, b) in blocks.iter().enumerate() {
        let [x0, z0, x1, z1] = b.bounds;
        if !(x0.is_finite() && z0.is_finite() && x1.is_finite() && z1.is_finite()) {
            continue;
        }
        let a = region_of(f64::from(x0 - grow), f64::from(z0 - grow));
        let c = region_of(f64::from(x1 + grow), f64::from(z1 + grow));
        for rz in a.z()..=c.z() {
            for rx in a.x()..=c.x() {
                touching
                    .entry(RegionId::new(rx, rz))
                    .or_default()
                    .push(i as u32);
            }
        }
    }
    if touching.is_empty() {
        touching.insert(RegionId::new(0, 0), Vec::new());
    }
    let mut navmeshes: Vec<(RegionId, NavMesh)> = Vec::with_capacity(touching.len());
    for (&region, near) in &touching {
        let mut listed = near.clone();
        for &[a, _, b, _] in &links {
            if near.contains(&a) && !listed.contains(&b) {
                listed.push(b);
            }
        }
        if listed.len() > usize::from(u16::MAX) {
            return Err(DungeonError::TooManyBlocks {
                blocks: blocks.len(),
            });
        }
        let origin = [
            f64::from(region.x()) * size - shift[0],
            f64::from(region.z()) * size - shift[1],
        ];
        let objects: Vec<Object> = listed
            .iter()
            .map(|&i| {
                let b = &blocks[i as usize];
                let owner = region_of(f64::from(b.position[0]), f64::from(b.position[2]));
                Object {
                    object_id: ids[b.mesh_path],
                    position: [
                        F32::from((f64::from(b.position[0]) - origin[0]) as f32),
                        F32::from(b.position[1]),
                        F32::from((f64::from(b.position[2]) - origin[1]) as f32),
                    ],
                    kind: 0xFFFF,
                    yaw: F32::from(b.yaw),
                    uid: i as u16,
                    short0: 0,
                    is_big: 1,
                    is_struct: 0,
                    region_id: owner.0,
                    links: links
                        .iter()
                        .filter(|l| l[0] == i)
                        .filter_map(|&[_, edge, other, other_edge]| {
                            let at = listed.iter().position(|&o| o == other)?;
                            Some(Link {
                                link_object: at as u16,
                                link_edge: other_edge as u16,
                                edge: edge as u16,
                            })
                        })
                        .collect(),
                }
            })
            .collect();
        // Each cell lists the blocks whose grown box meets it.
        let cell_side = CELL_TILES as f32 * TILE_SIZE;
        let per_side = TILES_PER_SIDE / CELL_TILES;
        let mut cells = Vec::with_capacity(per_side * per_side);
        for cz in 0..per_side {
            for cx in 0..per_side {
                let min = [cx as f32 * cell_side, cz as f32 * cell_side];
                let max = [min[0] + cell_side, min[1] + cell_side];
                let (wx, wz) = (origin[0] as f32, origin[1] as f32);
                let mut listed_here = Vec::new();
                for (k, &i) in listed.iter().enumerate() {
                    let [x0, z0, x1, z1] = blocks[i as usize].bounds;
                    let meets = x0 - grow <= wx + max[0]
                        && wx + min[0] <= x1 + grow
                        && z0 - grow <= wz + max[1]
                        && wz + min[1] <= z1 + grow;
                    if meets {
                        if listed_here.len() >= usize::from(u8::MAX) {
                            return Err(DungeonError::CrowdedCell { blocks: near.len() });
                        }
                        listed_here.push(k as u16);
                    }
                }
                cells.push(Cell {
                    min: min.map(F32::from),
                    max: max.map(F32::from),
                    objects: listed_here,
                });
            }
        }
        let mut tiles = boxed_array(Tile::default());
        for (t, tile) in tiles.iter_mut().enumerate() {
            let (tx, tz) = (t % TILES_PER_SIDE, t / TILES_PER_SIDE);
            *tile = Tile {
                cell_index: ((tz / CELL_TILES) * per_side + tx / CELL_TILES) as u32,
                flag: TILE_BLOCKED,
                texture_id: 0,
            };
        }
        navmeshes.push((
            region,
            NavMesh {
                signature: *SIGNATURE,
                objects,
                open_cell_count: 0,
                cells,
                global_edges: Vec::new(),
                internal_edges: Vec::new(),
                layout: jmxv::nvm::Layout::Standard,
                tiles,
                heights: boxed_array(F32::from(GROUND_DEPTH)),
                planes: Planes::default(),
                trailing: Vec::new(),
            },
        ));
    }
    let regions = navmeshes
        .iter()
        .map(|(id, mesh)| {
            (
                Region::from_navmesh(*id, mesh),
                PathBuf::from(id.file_name()),
            )
        })
        .collect();
    let records: Vec<RegionObjects> = navmeshes
        .into_iter()
        .map(|(region, mesh)| RegionObjects {
            region,
            path: PathBuf::from(region.file_name()),
            objects: mesh.objects,
        })
        .collect();
    let mut world = World::assemble(regions, super::super::LoadReport::default());
    world.is_dungeon_ground = true;
    world.place_objects(&records, Some(&ifo), &|path: &[u8]| {
        let name = String::from_utf8_lossy(path);
        meshes
            .get(name.as_ref())
            .map(|&mesh| (mesh.clone(), PathBuf::from(name.as_ref())))
            .ok_or_else(|| ResolveError {
                path: path.to_vec(),
                problem: ObjectProblem::NotFound {
                    path: path.to_vec(),
                    component: path.to_vec(),
                },
            })
    });
    // The blocks' meshes were checked as the dungeon's own lookup prepared them, so the
    // ground places every block; a finding here names the block it could not.
    if let Some(finding) = world.load_report().findings.first() {
        let block = match &finding.kind {
            super::super::LoadFindingKind::ObjectNotPlaced { instance, .. } => {
                usize::from(instance.uid())
            }
            _ => 0,
        };
        return Err(DungeonError::BadBlockMesh {
            block,
            why: finding.to_string(),
        });
    }
    let instances = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let owner = region_of(f64::from(b.position[0]), f64::from(b.position[2]));
            InstanceKey::new(owner, i as u16)
        })
        .collect();
    Ok(Ground {
        world,
        shift,
        links,
        instances,
    })
}

/// How far inside the ground's regions the blocks' extent is kept (units).
const MARGIN: f64 = 2.0 * TILE_SIZE as f64;

/// The shift along one axis of a dungeon whose blocks span `lo..hi` ([module docs](self)):
/// none when the span lies inside one region's square (with [`MARGIN`]), else one that
/// centres it in a region when it fits, else one that puts its low end [`MARGIN`] into the
/// first region; a multiple of 20 units.
fn frame_shift(lo: f64, hi: f64) -> f64 {
    let size = f64::from(REGION_SIZE);
    let tile = f64::from(TILE_SIZE);
    if lo - MARGIN >= 0.0 && hi + MARGIN < size {
        0.0
    } else if hi - lo + 2.0 * MARGIN < size {
        ((size - lo - hi) / 2.0 / tile).round() * tile
    } else {
        -((lo - MARGIN) / tile).floor() * tile
    }
}

/// The links the server makes at load ([module docs](self)): (block, edge, linked block, its
/// edge), ascending by block and edge.
fn make_links(blocks: &[GroundBlock<'_>], placed: &[Vec<PlacedEdge>]) -> Vec<[u32; 4]> {
    let near = |a: [f32; 3], b: [f32; 3]| {
        let d2: f64 = (0..3)
            .map(|k| (f64::from(a[k]) - f64::from(b[k])).powi(2))
            .sum();
        d2 <= f64::from(LINK_TOLERANCE).powi(2)
    };
    let mut links = Vec::new();
    for (a, block) in blocks.iter().enumerate() {
        for &(edge, p0, p1) in &placed[a] {
            let found = block
                .connected
                .iter()
                .filter(|&&b| b as usize != a && (b as usize) < blocks.len())
                .find_map(|&b| {
                    placed[b as usize]
                        .iter()
                        .find(|&&(_, q0, q1)| {
                            (near(p0, q0) && near(p1, q1)) || (near(p0, q1) && near(p1, q0))
                        })
                        .map(|&(other, _, _)| [a as u32, edge, b, other])
                });
            links.extend(found);
        }
    }
    links
}

/// A link edge placed in the dungeon's frame: its index among the outline edges, its ends.
type PlacedEdge = (u32, [f32; 3], [f32; 3]);

/// Each block's outline edges with flag 0x08, placed.
fn placed_link_edges(blocks: &[GroundBlock<'_>]) -> Vec<Vec<PlacedEdge>> {
    blocks
        .iter()
        .map(|b| {
            let Some(nav) = b.mesh.nav.as_ref() else {
                return Vec::new();
            };
            let vertex = |v: u16| {
                nav.vertices
                    .get(usize::from(v))
                    .map(|v| arith::transform(&b.to_world, v.position.map(|c| c.get())))
            };
            nav.outline_edges
                .iter()
                .enumerate()
                .filter(|(_, e)| e.flag & mesh_flag::LINK != 0)
                .filter_map(|(k, e)| {
                    Some((k as u32, vertex(e.vertices[0])?, vertex(e.vertices[1])?))
                })
                .collect()
        })
        .collect()
}
