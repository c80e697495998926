//! Shortest paths: exact any-angle paths across regions.
//!
//! [`World::find_path`] returns the Euclidean-shortest path between two points of the walkable
//! ground, across any number of regions.
//! [`World::find_path_with_radius`] does so for a walker of radius r, keeping r from every
//! blocked tile and wall ([`radius`]).
//!
//! # Rules
//! The ground is the one line of sight uses ([`crate::world::raycast`]): the closed walkable
//! tiles of the loaded regions, with walls where a terrain edge blocks (`flag & 3`, or the
//! siege bit) and around blocked ground. A path
//! - may touch walls and run along them, but never crosses one, not even by stopping on it and
//!   leaving on the other side;
//! - never squeezes between two blocked tiles (or walls) that meet only at a corner;
//! - starts and ends exactly at the given points. A start or goal on a tile side or grid
//!   vertex may leave or arrive through any walkable tile it touches, as line of sight allows:
//!   at a point where two blocked tiles meet diagonally, through either open quadrant (the
//!   derived any-angle lengths of the Moving AI benchmark agree).
//!
//! Consecutive waypoints always have line of sight, and the length is the sum of the legs.
//!
//! # Method
//! A shortest path turns only at *corners*: grid vertices where the obstacles meeting there fit
//! in an arc of less than 180° (one blocked quadrant, the end of a thin wall, or two
//! perpendicular walls), and it wraps around each one (the bend is *taut*). So:
//! 1. **Index** (built once per world, on all cores; [`World::prepare_paths`]): the walkable
//!    tiles of each region are covered by rectangles with no wall inside, joined by portals
//!    (runs of passable sides); the corners; the connected components of the rectangles; and
//!    the *sparse visibility graph*: for each corner, the corners it sees in directions taut
//!    at both ends. Visibility comes from an exact cone scan through the portals
//!    (`visibility`).
//!    The same scans record, per rectangle, the cones through which each corner sees it
//!    (kept when they fit in about 48 MB: up to 2 million records).
//! 2. **Query**: a straight segment when the goal is in sight of the start; otherwise the
//!    corners the start and the goal see — by testing the start and goal against their
//!    rectangles' recorded cones (visibility is symmetric), or where none were kept by two
//!    scans — then A* over the graph with the straight-line heuristic, expanding each corner
//!    only along edges that keep the path taut there. Start and goal in different components
//!    are answered without a search.
//!
//! Every geometric decision is an exact orientation test ([`crate::geometry`]) on grid points
//! (exact in f64) and the query points, so grazing a corner or running along a wall is decided
//! exactly. The search is exact: its answers equal a brute-force visibility-graph search over
//! every wall vertex (`tests/integration/paths.rs`).

use crate::files::{check_new, write_atomic_with, Overwrite, WriteFileError};
use crate::world::raycast::Grid;
use crate::world::{CellRef, Position, World};
use std::fmt;
use std::path::Path;
use std::time::Duration;

pub use file::{
    index_file_beside, index_file_in, IndexFileError, InputsDigest, PathIndexError, PathIndexFile,
    FORMAT_VERSION, INDEX_FILE_NAME, INDEX_FILE_SUFFIX, MAGIC,
};

mod array;
mod cells;
pub(crate) mod file;
mod graph;
pub(crate) mod index;
pub mod radius;
mod search;
mod visibility;

/// A path from a start to a goal.
#[derive(Debug, Clone, PartialEq)]
pub struct WorldPath {
    /// The start, the corners the path turns at, and the goal (two points even when start and
    /// goal coincide). The start and goal are the positions given, verbatim.
    pub waypoints: Vec<Position>,
    /// Euclidean length in world units: the sum of the segments.
    pub length: f64,
}

/// Why no path was returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathError {
    /// The start is not on walkable ground of a loaded region.
    StartBlocked,
    /// The goal is not on walkable ground of a loaded region.
    GoalBlocked,
    /// Start and goal are on ground that no path connects.
    Unreachable,
    /// The search expanded more corners than the scratch's budget allows.
    BudgetExceeded,
}

impl PathError {
    /// One word for command lines: `start-blocked`, `goal-blocked`, `unreachable`,
    /// `budget-exceeded`.
    pub const fn word(self) -> &'static str {
        match self {
            PathError::StartBlocked => "start-blocked",
            PathError::GoalBlocked => "goal-blocked",
            PathError::Unreachable => "unreachable",
            PathError::BudgetExceeded => "budget-exceeded",
        }
    }
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PathError::StartBlocked => "the start is not on walkable ground",
            PathError::GoalBlocked => "the goal is not on walkable ground",
            PathError::Unreachable => "no path connects start and goal",
            PathError::BudgetExceeded => "the search exceeded its budget",
        })
    }
}

impl std::error::Error for PathError {}

/// Reusable working memory of path searches: one per thread, reused across queries so that
/// a search allocates nothing but its answer.
#[derive(Debug, Default)]
pub struct PathScratch {
    budget: Option<usize>,
    search: search::Search,
}

impl PathScratch {
    /// Scratch with no budget.
    pub fn new() -> PathScratch {
        PathScratch::default()
    }

    /// Scratch whose searches give up with [`PathError::BudgetExceeded`] after expanding
    /// `max_expansions` corners.
    pub fn with_budget(max_expansions: usize) -> PathScratch {
        PathScratch {
            budget: Some(max_expansions),
            search: search::Search::default(),
        }
    }

    /// Sets the budget of the searches to come (`None`: no limit), keeping the memory, so
    /// that one scratch per thread serves queries with different budgets.
    pub fn set_budget(&mut self, max_expansions: Option<usize>) {
        self.budget = max_expansions;
    }
}

/// What the path index holds and what building (or loading) it cost.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct PathIndexStats {
    /// Regions covered.
    pub regions: usize,
    /// Walkable rectangles.
    pub rects: usize,
    /// Convex corners (the only points where shortest paths turn).
    pub corners: usize,
    /// Directed corner-to-corner edges kept.
    pub edges: usize,
    /// "Seen by" records kept (none for worlds where they would take too much memory: then
    /// each query scans from its start and goal).
    pub seen_records: usize,
    /// Heap bytes of the index (for a loaded index, the file's bytes it is read in place from).
    pub heap_bytes: usize,
    /// Wall-clock time the build took (for a loaded index, the build that wrote the file).
    pub build_time: Duration,
    /// For an index read from a file, how long reading and checking it took; `None` for an
    /// index built in this process.
    pub load_time: Option<Duration>,
}

impl PathIndexStats {
    pub(crate) fn of(index: &index::PathIndex) -> PathIndexStats {
        PathIndexStats {
            regions: index.region_ids.len(),
            rects: index.rects.len(),
            corners: index.corners.len(),
            edges: index.edges.len(),
            seen_records: index.seen.len(),
            heap_bytes: index.heap_bytes(),
            build_time: index.build_time,
            load_time: index.file.as_ref().map(|(_, t)| *t),
        }
    }
}

impl World {
    /// The shortest path from `from` to `to`: see the [module docs](crate::path) for the
    /// exact rules. Builds the path index first if this world has none yet
    /// ([`World::prepare_paths`]).
    ///
    /// # Errors
    /// [`PathError::StartBlocked`] / [`PathError::GoalBlocked`] off the walkable ground,
    /// [`PathError::Unreachable`] when no path exists (answered from the connected components
    /// without a search), [`PathError::BudgetExceeded`] when the scratch's budget runs out.
    pub fn find_path(
        &self,
        from: Position,
        to: Position,
        scratch: &mut PathScratch,
    ) -> Result<WorldPath, PathError> {
        let index = self.path_index();
        let ground = Grid::global(self);
        let s = [from.world_x(), from.world_z()];
        let t = [to.world_x(), to.world_z()];
        let start = search::endpoint(index, &ground, s).ok_or(PathError::StartBlocked)?;
        let goal = search::endpoint(index, &ground, t).ok_or(PathError::GoalBlocked)?;
        let connected = start.roots().iter().any(|&a| {
            goal.roots()
                .iter()
                .any(|&b| index.component[a as usize] == index.component[b as usize])
        });
        if !connected {
            return Err(PathError::Unreachable);
        }
        let budget = scratch.budget.unwrap_or(usize::MAX);
        // With the corners' visibility recorded per rectangle, the straight segment is the
        // one thing left to test, by the terrain's line of sight (same ground, same rules:
        // paths do not consult objects).
        if index.has_seen_by() && self.terrain_line_of_sight(from, to) == Ok(true) {
            scratch.search.corners.clear();
        } else {
            scratch.search.run(index, &start, &goal, budget)?;
        }
        let mut waypoints = Vec::with_capacity(scratch.search.corners.len() + 2);
        waypoints.push(from);
        for &c in &scratch.search.corners {
            let p = index.corners[c as usize].point();
            waypoints
                .push(Position::from_world(p[0], p[1]).expect("corners lie in loaded regions"));
        }
        waypoints.push(to);
        let mut length = 0.0;
        let mut previous = s;
        for p in scratch
            .search
            .corners
            .iter()
            .map(|&c| index.corners[c as usize].point())
            .chain(std::iter::once(t))
        {
            length += (p[0] - previous[0]).hypot(p[1] - previous[1]);
            previous = p;
        }
        Ok(WorldPath { waypoints, length })
    }

    /// The cells a path passes through, in order (each once per visit). Where a segment runs
    /// exactly along a tile side, the tile on its left is counted.
    pub fn path_cells(&self, path: &WorldPath) -> Vec<CellRef> {
        let mut out: Vec<CellRef> = Vec::new();
        for pair in path.waypoints.windows(2) {
            cells::along(self, pair[0], pair[1], &mut out);
        }
        if path.waypoints.len() == 1 {
            out.extend(self.terrain_cell_at(path.waypoints[0]));
        }
        out
    }

    /// Builds the path index now, if the world has none yet (otherwise the first
    /// [`World::find_path`] builds it), and tells what it holds. A world loaded with its
    /// index file ([`World::load`]) has one already.
    pub fn prepare_paths(&self) -> PathIndexStats {
        self.prepare_paths_with_progress(|_, _| {})
    }

    /// [`World::prepare_paths`], calling `progress(done, total)` as the corners' visibility
    /// is computed (from rayon's threads, counts possibly out of order). The build runs on
    /// rayon's current pool.
    pub fn prepare_paths_with_progress(
        &self,
        progress: impl Fn(usize, usize) + Sync,
    ) -> PathIndexStats {
        PathIndexStats::of(self.path_index_with(&progress))
    }

    /// Whether the world has its path index already, built or read from a file.
    pub fn has_path_index(&self) -> bool {
        self.paths.get().is_some()
    }

    /// The digest of the inputs a path index of this world depends on: its regions and the
    /// bytes of their navmesh files (for a world made from navmeshes in memory, the bytes they
    /// are written as, which are those they were read from). `None` when a navmesh cannot be
    /// written.
    pub fn inputs_digest(&self) -> Option<InputsDigest> {
        self.inputs
    }

    /// Gives the world an index read from a file ([`PathIndexFile::read`]), if it has none
    /// yet; a world that has one keeps it.
    ///
    /// # Errors
    /// [`IndexFileError::Stale`] when the file was built from other inputs than the world's
    /// ([`World::inputs_digest`]) or for other regions; the world is unchanged.
    pub fn use_path_index(&self, file: PathIndexFile) -> Result<PathIndexStats, IndexFileError> {
        let stale = || IndexFileError::Stale {
            file: file.digest,
            world: self.inputs,
        };
        if self.inputs != Some(file.digest) {
            return Err(stale());
        }
        let ids = &file.index.region_ids;
        if ids.len() != self.regions().len()
            || self.regions().zip(ids.iter()).any(|(a, &b)| a.0 != b)
        {
            return Err(stale());
        }
        let _ = self.paths.set(file.index);
        Ok(self.prepare_paths())
    }

    /// Reads the path index file at `path` and gives it to the world
    /// ([`World::use_path_index`]).
    ///
    /// # Errors
    /// The file cannot be read, is not a sound index file, or is stale.
    pub fn load_path_index(
        &self,
        path: impl AsRef<Path>,
    ) -> Result<PathIndexStats, PathIndexError> {
        let path = path.as_ref();
        let file = PathIndexFile::read(path)?;
        self.use_path_index(file).map_err(|error| PathIndexError {
            path: path.to_path_buf(),
            error,
        })
    }

    /// Writes the path index (built first if the world has none) to `path`, atomically
    /// ([`write_atomic_with`]), and returns the file's length in bytes.
    ///
    /// # Errors
    /// [`WriteFileError::Exists`] when the file exists and `overwrite` refuses to replace
    /// it (checked before the build); [`WriteFileError::Io`] when the world's inputs are
    /// unknown ([`World::inputs_digest`]), or the file cannot be written.
    pub fn write_path_index(
        &self,
        path: impl AsRef<Path>,
        overwrite: Overwrite,
    ) -> Result<u64, WriteFileError> {
        let path = path.as_ref();
        check_new(path, overwrite)?;
        let digest = self.inputs.ok_or_else(|| WriteFileError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "the world's navmeshes cannot be written, so no digest identifies them",
            ),
        })?;
        let index = self.path_index();
        let mut length = 0;
        write_atomic_with(path, overwrite, |out| {
            length = file::write(index, digest, out)?;
            Ok(())
        })?;
        Ok(length)
    }
}

#[cfg(test)]
mod tests;
