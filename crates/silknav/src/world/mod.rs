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
pub mod movement;
mod position;
pub mod raycast;
pub(crate) mod region;

pub use movement::{MoveError, MoveOutcome, MoveStop};
pub use position::{Position, REGION_SIZE};
pub use raycast::{RayError, RayHit};
pub use region::EdgeId;

use crate::files::{FileError, MAPINFO};
use jmxv::mfo::MapInfo;
use jmxv::nvm::{NavMesh, TILES_PER_SIDE};
use jmxv::RegionId;
use region::Region;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// What loading found that did not stop it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Whether the folder had a `mapinfo.mfo` (without one, every navmesh file is loaded).
    pub has_mapinfo: bool,
    /// Regions enabled in `mapinfo.mfo` that have no navmesh file.
    pub missing_files: Vec<RegionId>,
    /// Navmesh files of regions that `mapinfo.mfo` does not enable (not loaded, as in the game).
    pub disabled_files: Vec<RegionId>,
    /// Per region, problems that make a part of a file unusable for queries.
    pub region_issues: Vec<(RegionId, String)>,
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
    /// A world of these regions (dungeon ids are skipped and reported).
    pub fn from_navmeshes<'a>(
        navmeshes: impl IntoIterator<Item = (RegionId, &'a NavMesh)>,
    ) -> World {
        let regions = navmeshes
            .into_iter()
            .map(|(id, mesh)| Region::from_navmesh(id, mesh))
            .collect();
        World::assemble(regions, LoadReport::default())
    }

    /// Loads a world folder: `mapinfo.mfo` when present, and every `nv_XXXX.nvm` (any case) of
    /// an enabled region, parsed in parallel on all cores.
    ///
    /// # Errors
    /// The folder cannot be read, or a file is malformed (the error names it).
    pub fn load(dir: impl AsRef<Path>) -> Result<World, FileError> {
        World::load_with_progress(dir, |_, _| {})
    }

    /// [`World::load`], calling `progress(done, total)` as files are parsed (from any thread).
    ///
    /// # Errors
    /// As for [`World::load`].
    pub fn load_with_progress(
        dir: impl AsRef<Path>,
        progress: impl Fn(usize, usize) + Sync,
    ) -> Result<World, FileError> {
        let dir = dir.as_ref();
        let fail = |path: &Path, e: std::io::Error| FileError {
            path: path.to_path_buf(),
            error: e.into(),
        };
        let mut files: Vec<(RegionId, PathBuf)> = Vec::new();
        let mut mapinfo = None;
        for entry in std::fs::read_dir(dir).map_err(|e| fail(dir, e))? {
            let path = entry.map_err(|e| fail(dir, e))?.path();
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            if let Some(region) = RegionId::from_file_name(name) {
                files.push((region, path));
            } else if name.eq_ignore_ascii_case(MAPINFO) {
                let bytes = std::fs::read(&path).map_err(|e| fail(&path, e))?;
                mapinfo = Some(MapInfo::parse(&bytes).map_err(|e| FileError {
                    path: path.clone(),
                    error: e.into(),
                })?);
            }
        }
        files.sort();
        let mut report = LoadReport {
            has_mapinfo: mapinfo.is_some(),
            ..LoadReport::default()
        };
        if let Some(mapinfo) = &mapinfo {
            let present: std::collections::BTreeSet<RegionId> = files.iter().map(|f| f.0).collect();
            report.missing_files = mapinfo
                .enabled_regions()
                .filter(|r| !present.contains(r))
                .collect();
            report.disabled_files = files
                .iter()
                .map(|f| f.0)
                .filter(|&r| !mapinfo.is_enabled(r))
                .collect();
            files.retain(|f| mapinfo.is_enabled(f.0));
        }
        let regions = load_parallel(&files, &progress)?;
        Ok(World::assemble(regions, report))
    }

    /// A world from files already in memory: (file name, bytes) pairs, named as in a folder.
    ///
    /// # Errors
    /// A malformed file (the error names it).
    pub fn from_memory<'a>(
        files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    ) -> Result<World, FileError> {
        let mut regions = Vec::new();
        let mut mapinfo = None;
        for (name, bytes) in files {
            let fail = |e: jmxv::Error| FileError {
                path: PathBuf::from(name),
                error: e.into(),
            };
            if let Some(id) = RegionId::from_file_name(name) {
                regions.push((id, NavMesh::parse(bytes).map_err(fail)?));
            } else if name.eq_ignore_ascii_case(MAPINFO) {
                mapinfo = Some(MapInfo::parse(bytes).map_err(fail)?);
            }
        }
        let mut report = LoadReport {
            has_mapinfo: mapinfo.is_some(),
            ..LoadReport::default()
        };
        if let Some(m) = &mapinfo {
            report.missing_files = m
                .enabled_regions()
                .filter(|r| !regions.iter().any(|(id, _)| id == r))
                .collect();
            report.disabled_files = regions
                .iter()
                .map(|(id, _)| *id)
                .filter(|&r| !m.is_enabled(r))
                .collect();
            regions.retain(|(id, _)| m.is_enabled(*id));
        }
        let regions = regions
            .iter()
            .map(|(id, mesh)| Region::from_navmesh(*id, mesh))
            .collect();
        Ok(World::assemble(regions, report))
    }

    fn assemble(mut regions: Vec<Region>, mut report: LoadReport) -> World {
        regions.retain(|r| !r.id.is_dungeon());
        regions.sort_by_key(|r| r.id);
        regions.dedup_by_key(|r| r.id);
        let mut index = vec![NO_REGION; 1 << 15].into_boxed_slice();
        for (i, r) in regions.iter().enumerate() {
            index[usize::from(r.id.0)] = i as u32;
            report
                .region_issues
                .extend(r.issues.iter().map(|issue| (r.id, issue.clone())));
        }
        World {
            regions,
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

/// Parses files on all cores, keeping their order.
fn load_parallel(
    files: &[(RegionId, PathBuf)],
    progress: &(impl Fn(usize, usize) + Sync),
) -> Result<Vec<Region>, FileError> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len().max(1));
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let total = files.len();
    let results: Vec<Vec<(usize, Result<Region, FileError>)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((id, path)) = files.get(i) else {
                            break;
                        };
                        let result = std::fs::read(path)
                            .map_err(|e| FileError {
                                path: path.clone(),
                                error: e.into(),
                            })
                            .and_then(|bytes| {
                                NavMesh::parse(&bytes).map_err(|e| FileError {
                                    path: path.clone(),
                                    error: e.into(),
                                })
                            })
                            .map(|mesh| Region::from_navmesh(*id, &mesh));
                        let failed = result.is_err();
                        out.push((i, result));
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                        if failed {
                            break;
                        }
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a loading thread panicked"))
            .collect()
    });
    let mut ordered: BTreeMap<usize, Region> = BTreeMap::new();
    for (i, result) in results.into_iter().flatten() {
        ordered.insert(i, result?);
    }
    Ok(ordered.into_values().collect())
}

#[cfg(test)]
mod tests;
