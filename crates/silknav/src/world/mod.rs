//! A world of regions in memory and the game server's queries on it.
//!
//! [`World`] is immutable and `Send + Sync`: load it once, then query it from any number of
//! threads. Positions are region-local ([`Position`]), as in the game.
//!
//! | query | answers | semantics |
//! |---|---|---|
//! | [`World::cell_at`] | the cell under a point | the tile's cell; none on a blocked tile or outside the loaded regions |
//! | [`World::height_at`] | the ground height | the server's `FindHeight`, bit for bit ([`height`]) |
//! | [`World::raycast`] | the first wall a segment crosses | exact, across cells and regions ([`raycast`]) |
//! | [`World::move_along`] | where a walk stops | the server's cell-by-cell move ([`movement`]) |

pub mod height;
mod load;
pub mod movement;
mod position;
pub mod raycast;
pub(crate) mod region;

pub use load::{LoadFinding, LoadFindingKind, LoadReport};
pub use movement::{MoveError, MoveOutcome, MoveStop};
pub use position::{Position, REGION_SIZE};
pub use raycast::{RayError, RayHit};
pub use region::{EdgeId, RegionIssue};

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
    /// The path index, built on first use ([`World::prepare_paths`]).
    paths: std::sync::OnceLock<crate::path::index::PathIndex>,
}

/// A cell of the world: the region and the cell's index in that region's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellRef {
    /// The region.
    pub region: RegionId,
    /// Index into the region's cells.
    pub cell: u16,
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

    /// The cell under a point: the cell of its tile, or `None` on a blocked tile, in a region
    /// that is not loaded, or at a non-finite position.
    ///
    /// Tiles and regions are half-open: a point at local 20 is in the second tile, a point at
    /// local 1920 in the next region.
    #[inline]
    pub fn cell_at(&self, pos: Position) -> Option<CellRef> {
        let pos = if (0.0..REGION_SIZE).contains(&pos.x) && (0.0..REGION_SIZE).contains(&pos.z) {
            pos
        } else {
            pos.normalized()?
        };
        let region = self.region(pos.region)?;
        let (tx, tz) = (
            height::tile_index(pos.x) as usize,
            height::tile_index(pos.z) as usize,
        );
        let cell = region.tile_cell[tz * TILES_PER_SIDE + tx];
        (cell != region::NOT_WALKABLE).then_some(CellRef {
            region: pos.region,
            cell,
        })
    }

    /// The ground height at a point, as the server's `FindHeight` computes it: `None` in a
    /// region that is not loaded. Blocked tiles have a height too.
    #[inline]
    pub fn height_at(&self, pos: Position) -> Option<f32> {
        let pos = if (0.0..REGION_SIZE).contains(&pos.x) && (0.0..REGION_SIZE).contains(&pos.z) {
            pos
        } else {
            pos.normalized()?
        };
        height::find_height(self.region(pos.region)?, pos.x, pos.z)
    }
}

#[cfg(test)]
mod tests;
