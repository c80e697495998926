//! A world of regions in memory and the game server's queries on it.
//!
//! [`World`] is immutable and `Send + Sync`: load it once, then query it from any number of
//! threads. Positions are region-local ([`Position`]), as in the game.
//!
//! | query | answers | semantics |
//! |---|---|---|
//! | [`World::cell_at`] | the cell under a point | the highest object triangle containing the point, else the tile's cell; none on a blocked tile without an object or outside the loaded regions |
//! | [`World::cell_at_y`] | the cell under a point at a height | the object triangle or terrain whose height is closest to `y` |
//! | [`World::height_at`] | the ground height | the terrain: the server's `FindHeight`, bit for bit ([`height`]) |
//! | [`World::height_at_y`] | the height of the surface nearest `y` | the height of [`World::cell_at_y`]'s choice |
//! | [`World::raycast`] | the first wall a segment crosses | exact, across cells, regions and object meshes ([`raycast`]) |
//! | [`World::raycast_y`] | the same from the surface nearest a height | as [`World::cell_at_y`] picks the start |
//! | [`World::move_along`] | where a walk stops | the server's cell-by-cell move ([`movement`]) |
//!
//! # Objects
//!
//! Buildings, gates and bridges have navmeshes of their own ([`crate::objects`]). Where object
//! triangles contain a point, they compete with the terrain:
//! - with no reference height ([`World::cell_at`]), the highest object triangle wins over the
//!   terrain, and over a blocked tile;
//! - with a reference height `y` ([`World::cell_at_y`], [`World::height_at_y`]), the candidate
//!   whose height is closest to `y` wins, as the server's cell lookup picks among an object's
//!   floors: every object triangle containing the point, and the terrain with its
//!   `FindHeight` height (a blocked tile competes too, and when it wins there is no cell).
//!   On a bridge, a `y` near the deck answers the deck, a `y` near the ground below answers
//!   the ground.
//!
//! Ties go to an object over the terrain; between object triangles, with no reference to the
//! higher, and then (as with a reference) to the smaller [`crate::objects::InstanceKey`], then
//! the smaller cell index. Line of sight walks over the terrain and object cells by the rules
//! in [`raycast`]; movement and paths use the terrain alone.

pub mod height;
mod load;
pub mod movement;
mod position;
pub mod raycast;
pub(crate) mod region;

pub use load::{LoadFinding, LoadFindingKind, LoadOptions, LoadReport};
pub use movement::{DistanceGuard, MoveError, MoveOptions, MoveOutcome, MoveStop, MAX_CROSSINGS};
pub use position::{Position, REGION_SIZE};
pub use raycast::{RayError, RayHit};
pub use region::{EdgeId, RegionIssue};

use crate::objects::{InstanceKey, ObjectCellRef};
use jmxv::nvm::TILES_PER_SIDE;
use jmxv::RegionId;
use region::Region;
use std::path::PathBuf;

/// Regions are looked up by id through a table over the 15-bit terrain id space.
const NO_REGION: u32 = u32::MAX;

/// A loaded world.
#[derive(Debug, Clone)]
pub struct World {
    regions: Vec<Region>,
    index: Box<[u32]>,
    report: LoadReport,
    /// The placed object instances and their index.
    pub(crate) objects: crate::objects::Objects,
    /// The path index, built on first use ([`World::prepare_paths`]).
    paths: std::sync::OnceLock<crate::path::index::PathIndex>,
}

/// A cell of the world: the region and the cell's index in that region's file, and the object
/// triangle when the point is on an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellRef {
    /// The region the point is in.
    pub region: RegionId,
    /// Index into the region's cells: the terrain cell under the point (for a point on an
    /// object, the cell of its tile, open or closed, whose object list the server consults).
    pub cell: u16,
    /// The object triangle the point is on; `None` on the terrain.
    pub object: Option<ObjectCellRef>,
}

/// A placed object instance, as [`World::object_instances`] lists it.
#[derive(Debug, Clone, Copy)]
pub struct ObjectInstance<'w> {
    world: &'w World,
    index: usize,
}

impl<'w> ObjectInstance<'w> {
    fn inner(&self) -> &'w crate::objects::Instance {
        &self.world.objects.instances()[self.index]
    }

    /// Its identity.
    pub fn key(&self) -> InstanceKey {
        self.inner().key
    }

    /// Its object id (the `object.ifo` line).
    pub fn object_id(&self) -> u32 {
        self.inner().object_id
    }

    /// The region whose record was kept: [`ObjectInstance::position`] is local to it.
    pub fn frame_region(&self) -> RegionId {
        self.inner().frame
    }

    /// The translation, local to [`ObjectInstance::frame_region`].
    pub fn position(&self) -> [f32; 3] {
        self.inner().position
    }

    /// The rotation about +Y, in radians.
    pub fn yaw(&self) -> f32 {
        self.inner().yaw
    }

    /// The mesh's usable triangles, object-local: (cell index, three vertices x, y, z).
    pub fn triangles(&self) -> impl ExactSizeIterator<Item = (u16, [[f32; 3]; 3])> + 'w {
        self.world.objects.triangles(self.inner()).iter().copied()
    }
}

impl World {
    /// The world of prepared regions (ascending, unique, no dungeons: the loaders see to
    /// that), each with the path its findings name; their problems join the report.
    fn assemble(regions: Vec<(Region, PathBuf)>, mut report: LoadReport) -> World {
        debug_assert!(regions.windows(2).all(|w| w[0].0.id < w[1].0.id));
        debug_assert!(regions.iter().all(|(r, _)| !r.id.is_dungeon()));
        let mut index = vec![NO_REGION; 1 << 15].into_boxed_slice();
        let mut kept = Vec::with_capacity(regions.len());
        for (i, (r, path)) in regions.into_iter().enumerate() {
            index[usize::from(r.id.0)] = i as u32;
            report
                .findings
                .extend(r.issues.iter().map(|&issue| LoadFinding {
                    region: r.id,
                    path: path.clone(),
                    kind: LoadFindingKind::RegionIssue(issue),
                }));
            kept.push(r);
        }
        World {
            regions: kept,
            index,
            report,
            objects: crate::objects::Objects::default(),
            paths: std::sync::OnceLock::new(),
        }
    }

    /// What loading reported.
    pub fn load_report(&self) -> &LoadReport {
        &self.report
    }

    /// The loaded regions, ascending.
    pub fn regions(&self) -> impl ExactSizeIterator<Item = RegionId> + '_ {
        self.regions.iter().map(|r| r.id)
    }

    /// Whether a region is loaded.
    pub fn contains(&self, region: RegionId) -> bool {
        self.region(region).is_some()
    }

    /// The loaded regions' query data, ascending by id.
    pub(crate) fn region_data(&self) -> &[Region] {
        &self.regions
    }

    /// The path index, built on first use.
    pub(crate) fn path_index(&self) -> &crate::path::index::PathIndex {
        self.paths
            .get_or_init(|| crate::path::index::PathIndex::build(self))
    }

    /// The position of a loaded region in [`World::region_data`].
    #[inline]
    pub(crate) fn region_slot(&self, id: RegionId) -> Option<usize> {
        let i = *self.index.get(usize::from(id.0))?;
        (i != NO_REGION).then_some(i as usize)
    }

    #[inline]
    pub(crate) fn region(&self, id: RegionId) -> Option<&Region> {
        let i = *self.index.get(usize::from(id.0))?;
        (i != NO_REGION).then(|| &self.regions[i as usize])
    }

    /// The placed object instances, by key.
    pub fn object_instances(&self) -> impl ExactSizeIterator<Item = ObjectInstance<'_>> + '_ {
        (0..self.objects.instances().len()).map(|index| ObjectInstance { world: self, index })
    }

    /// The point in its own region's square, or `None` for a non-finite position.
    #[inline]
    fn normal(pos: Position) -> Option<Position> {
        if (0.0..REGION_SIZE).contains(&pos.x) && (0.0..REGION_SIZE).contains(&pos.z) {
            Some(pos)
        } else {
            pos.normalized()
        }
    }

    /// The open terrain cell under a normalised point.
    #[inline]
    fn tile_cell(&self, region: &Region, pos: Position) -> Option<u16> {
        let (tx, tz) = (
            height::tile_index(pos.x) as usize,
            height::tile_index(pos.z) as usize,
        );
        let cell = region.tile_cell[tz * TILES_PER_SIDE + tx];
        (cell != region::NOT_WALKABLE).then_some(cell)
    }

    /// The terrain cell under a point, ignoring objects: the cell of its tile, or `None` on a
    /// blocked tile, in a region that is not loaded, or at a non-finite position.
    ///
    /// Tiles and regions are half-open: a point at local 20 is in the second tile, a point at
    /// local 1920 in the next region.
    #[inline]
    pub fn terrain_cell_at(&self, pos: Position) -> Option<CellRef> {
        let pos = World::normal(pos)?;
        let region = self.region(pos.region)?;
        self.tile_cell(region, pos).map(|cell| CellRef {
            region: pos.region,
            cell,
            object: None,
        })
    }

    /// The best object triangle under a normalised point, by `better`.
    #[inline]
    fn best_object(
        &self,
        pos: Position,
        better: impl Fn(&crate::objects::Hit, &crate::objects::Hit) -> bool,
    ) -> Option<crate::objects::Hit> {
        if self.objects.is_empty() {
            return None;
        }
        let slot = self.region_slot(pos.region)?;
        let mut best: Option<crate::objects::Hit> = None;
        self.objects.hits(slot, pos.region, pos.x, pos.z, |hit| {
            if best.as_ref().map_or(true, |b| better(&hit, b)) {
                best = Some(hit);
            }
        });
        best
    }

    /// The raw cell index of a tile (the low 16 bits of its cell index), for a point on an
    /// object.
    fn tile_raw_cell(&self, region: &Region, pos: Position) -> u16 {
        let (tx, tz) = (
            height::tile_index(pos.x) as usize,
            height::tile_index(pos.z) as usize,
        );
        region.raw_tile_cell[tz * TILES_PER_SIDE + tx]
    }

    /// The cell under a point: the highest object triangle containing it, else the cell of
    /// its tile; `None` on a blocked tile without an object, in a region that is not loaded,
    /// or at a non-finite position. See [the module docs](self) for how objects are chosen.
    ///
    /// Tiles and regions are half-open: a point at local 20 is in the second tile, a point at
    /// local 1920 in the next region.
    #[inline]
    pub fn cell_at(&self, pos: Position) -> Option<CellRef> {
        let pos = World::normal(pos)?;
        let region = self.region(pos.region)?;
        if let Some(hit) = self.best_object(pos, crate::objects::higher) {
            return Some(CellRef {
                region: pos.region,
                cell: self.tile_raw_cell(region, pos),
                object: Some(hit.cell),
            });
        }
        self.tile_cell(region, pos).map(|cell| CellRef {
            region: pos.region,
            cell,
            object: None,
        })
    }

    /// The cell under a point at reference height `y`: of the object triangles containing the
    /// point and the terrain, the one whose height is closest to `y`, with its height; `None`
    /// when the terrain wins on a blocked tile (the height is still given), or outside the
    /// loaded regions (no height either).
    pub fn surface_at_y(&self, pos: Position, y: f32) -> Option<(Option<CellRef>, f32)> {
        let pos = World::normal(pos)?;
        let region = self.region(pos.region)?;
        let object = self.best_object(pos, |a, b| crate::objects::closer(a, b, y));
        let terrain = height::find_height(region, pos.x, pos.z);
        match (object, terrain) {
            (Some(hit), Some(ground))
                if crate::objects::distance(ground, y)
                    < crate::objects::distance(hit.height, y) => {}
            (Some(hit), _) => {
                let cell = CellRef {
                    region: pos.region,
                    cell: self.tile_raw_cell(region, pos),
                    object: Some(hit.cell),
                };
                return Some((Some(cell), hit.height));
            }
            (None, _) => {}
        }
        let ground = terrain?;
        let cell = self.tile_cell(region, pos).map(|cell| CellRef {
            region: pos.region,
            cell,
            object: None,
        });
        Some((cell, ground))
    }

    /// The cell under a point at reference height `y` ([`World::surface_at_y`]'s cell).
    pub fn cell_at_y(&self, pos: Position, y: f32) -> Option<CellRef> {
        self.surface_at_y(pos, y).and_then(|(cell, _)| cell)
    }

    /// The height of the surface under a point nearest reference height `y`: an object
    /// triangle's or the terrain's ([`World::surface_at_y`]); `None` outside the loaded
    /// regions.
    pub fn height_at_y(&self, pos: Position, y: f32) -> Option<f32> {
        self.surface_at_y(pos, y).map(|(_, h)| h)
    }

    /// The ground height at a point, as the server's `FindHeight` computes it: `None` in a
    /// region that is not loaded. Blocked tiles have a height too. The terrain alone; see
    /// [`World::height_at_y`] for objects.
    #[inline]
    pub fn height_at(&self, pos: Position) -> Option<f32> {
        let pos = World::normal(pos)?;
        height::find_height(self.region(pos.region)?, pos.x, pos.z)
    }
}

#[cfg(test)]
mod tests;
