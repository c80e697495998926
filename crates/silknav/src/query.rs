//! The queries in world coordinates, as the command line, the query server and the language
//! bindings (Python, C) take them: one at a time, or many at once on all cores.
//!
//! A query names points by world coordinates (`x = region_x·1920 + local_x`, likewise z), as
//! `f64`, or with a dungeon id by the dungeon's own coordinates (region `0x8000 | id`,
//! [`Position::in_dungeon`]). Each function turns them into [`Position`]s and asks the
//! [`World`]; a point outside the terrain id space, or in a dungeon that is not loaded,
//! answers as a point outside the loaded regions does (no cell, no height, a blocked start or
//! end), so that every finite coordinate gets an answer. Callers
//! that answer in JSON pass the result to [`crate::json`] (feature `serde`).
//!
//! The batch forms ([`heights`], [`paths`]) take many queries (the rows of numpy's arrays and
//! C's arrays of doubles, made into [`PointQuery`]s and [`SegmentQuery`]s) and answer query
//! `i` exactly as the single query, in parallel on rayon's current thread pool (all cores
//! unless `RAYON_NUM_THREADS` says otherwise, or a pool of your own through `pool.install`).
//!
//! ```
//! # let dir = std::env::temp_dir().join(format!("silknav-query-doc-{}", std::process::id()));
//! # let options = silknav::worldgen::GenOptions { width: 1, height: 1, ..Default::default() };
//! # silknav::worldgen::generate(&options)?.into_files().write_data_root(&dir, silknav::files::Overwrite::Replace)?;
//! use silknav::query::{self, PointQuery};
//! use silknav::World;
//!
//! let world = World::load(&dir)?;
//! let (x0, z0) = (128.0 * 1920.0, 64.0 * 1920.0); // the corner of region 4080
//! let points = [[x0 + 500.0, z0 + 500.0], [x0 + 900.0, z0 + 700.0], [-1.0, 0.0]]
//!     .map(|p| PointQuery::new(p[0], p[1]));
//! let mut heights = vec![None; points.len()];
//! query::heights(&world, &points, &mut heights);
//! for (&p, h) in points.iter().zip(&heights) {
//!     assert_eq!(*h, query::height(&world, p));
//! }
//! assert_eq!(heights[2], None, "outside the id space");
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::path::{PathError, PathIndex, PathOptions, PathScratch, WorldPath};
use crate::world::{
    movement::{MoveError, MoveOptions, MoveOutcome},
    raycast::{RayError, RayHit},
    snap::Snap,
    CellRef, Position, Surface, World,
};
use rayon::prelude::*;

/// Points per rayon task of a batch of heights: a height costs tens of nanoseconds, so
/// smaller tasks would spend more on scheduling than on answers.
const MIN_POINTS_PER_TASK: usize = 4096;

/// A point, and optionally the reference height that picks among an object's floors and the
/// ground below them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointQuery {
    /// World x (in a dungeon, its own x).
    pub x: f64,
    /// World z (in a dungeon, its own z).
    pub z: f64,
    /// Reference height: the object floor or ground nearest it answers.
    pub y: Option<f32>,
    /// The dungeon the point is in, by its id in `dungeoninfo.txt` (region `0x8000 | id`);
    /// `None` on the terrain.
    pub dungeon: Option<u16>,
}

impl PointQuery {
    /// The terrain point (x, z), with no reference height.
    pub fn new(x: f64, z: f64) -> PointQuery {
        PointQuery {
            x,
            z,
            y: None,
            dungeon: None,
        }
    }

    fn position(&self) -> Option<Position> {
        position(self.x, self.z, self.dungeon)
    }
}

/// The position at world (x, z), or at the dungeon's (x, z); `None` outside the terrain id
/// space, for a dungeon id over 15 bits, or for a coordinate that is not finite.
fn position(x: f64, z: f64, dungeon: Option<u16>) -> Option<Position> {
    match dungeon {
        None => Position::from_world(x, z),
        Some(id) => {
            let (x, z) = (x as f32, z as f32);
            (id < 0x8000 && x.is_finite() && z.is_finite()).then(|| Position::in_dungeon(id, x, z))
        }
    }
}

/// A segment from a start to an end, and optionally the start's reference height.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SegmentQuery {
    /// World x of the start.
    pub x1: f64,
    /// World z of the start.
    pub z1: f64,
    /// World x of the end.
    pub x2: f64,
    /// World z of the end.
    pub z2: f64,
    /// Reference height of the start: the segment starts on the object floor or ground nearest
    /// it (line of sight and movement; for a path, [`PathOptions::with_start`]).
    pub y: Option<f32>,
    /// The dungeon both ends are in ([`PointQuery::dungeon`]); `None` on the terrain.
    pub dungeon: Option<u16>,
}

impl SegmentQuery {
    /// The segment from (x1, z1) to (x2, z2), with no reference height.
    pub fn new(x1: f64, z1: f64, x2: f64, z2: f64) -> SegmentQuery {
        SegmentQuery {
            x1,
            z1,
            x2,
            z2,
            y: None,
            dungeon: None,
        }
    }

    fn ends(&self) -> (Option<Position>, Option<Position>) {
        (
            position(self.x1, self.z1, self.dungeon),
            position(self.x2, self.z2, self.dungeon),
        )
    }
}

/// The cell under a point: [`World::cell_at`] on the highest surface, or near the reference
/// height.
pub fn cell(world: &World, q: PointQuery) -> Option<CellRef> {
    world.cell_at(q.position()?, Surface::from(q.y))
}

/// The height at a point: [`World::height_at`] of the terrain, or near the reference height.
pub fn height(world: &World, q: PointQuery) -> Option<f32> {
    world.height_at(q.position()?, q.y.map_or(Surface::Terrain, Surface::Near))
}

/// The walkable point nearest a point, within `max_distance` units:
/// [`World::nearest_walkable`] on the highest surface, or near the reference height.
/// A point outside the id space is snapped too (onto the nearest loaded ground).
pub fn snap(world: &World, q: PointQuery, max_distance: f64) -> Option<Snap> {
    if !q.x.is_finite() || !q.z.is_finite() {
        return None;
    }
    if q.dungeon.is_some() {
        return world.nearest_walkable(q.position()?, Surface::from(q.y), max_distance);
    }
    // The region of the id space nearest the point, with the point in its frame (it may lie
    // outside the region's square: the search measures from the point itself).
    let size = f64::from(crate::geometry::REGION_SIZE);
    let rx = (q.x / size).floor().clamp(0.0, 255.0);
    let rz = (q.z / size).floor().clamp(0.0, 127.0);
    let pos = Position::new(
        jmxv::RegionId::new(rx as u8, rz as u8),
        (q.x - rx * size) as f32,
        (q.z - rz * size) as f32,
    );
    world.nearest_walkable(pos, Surface::from(q.y), max_distance)
}

/// The first blocking point of a segment: [`World::raycast`] from the highest surface, or from
/// the one nearest the reference height.
///
/// # Errors
/// As for [`World::raycast`]; a start outside the id space is
/// [`RayError::StartNotWalkable`], such an end [`RayError::BadEnd`].
pub fn los(world: &World, q: SegmentQuery) -> Result<Option<RayHit>, RayError> {
    let (from, to) = q.ends();
    let from = from.ok_or(RayError::StartNotWalkable)?;
    let to = to.ok_or(RayError::BadEnd)?;
    world.raycast(from, to, Surface::from(q.y))
}

/// Where a walk from the start toward the end stops: [`World::move_along`] as `options` say,
/// from the surface nearest the query's reference height when it has one (which replaces the
/// options' start).
///
/// # Errors
/// As for [`World::move_along`]; a start outside the id space is
/// [`MoveError::StartNotWalkable`], such an end [`MoveError::OffMesh`].
pub fn move_along(
    world: &World,
    q: SegmentQuery,
    options: &MoveOptions,
) -> Result<MoveOutcome, MoveError> {
    let (from, to) = q.ends();
    let from = from.ok_or(MoveError::StartNotWalkable)?;
    let to = to.ok_or(MoveError::OffMesh)?;
    let options = match q.y {
        Some(y) => options.with_start(Surface::Near(y)),
        None => *options,
    };
    world.move_along(from, to, &options)
}

/// The shortest path from the start to the end as `options` say: [`PathIndex::find_path`],
/// within the scratch's budget. The query's height, when it has one, is the start's
/// ([`PathOptions::with_start`]); a height that is not a number has no surface
/// ([`PathError::StartBlocked`]).
///
/// # Errors
/// As for [`PathIndex::find_path`]; a start outside the id space is [`PathError::StartBlocked`],
/// such a goal [`PathError::GoalBlocked`].
pub fn path(
    world: &World,
    paths: &PathIndex,
    q: SegmentQuery,
    options: &PathOptions,
    scratch: &mut PathScratch,
) -> Result<WorldPath, PathError> {
    let (from, to) = q.ends();
    let from = from.ok_or(PathError::StartBlocked)?;
    let to = to.ok_or(PathError::GoalBlocked)?;
    let options = match q.y {
        Some(y) => options
            .with_start(Surface::Near(y))
            .map_err(|_| PathError::StartBlocked)?,
        None => *options,
    };
    paths.find_path(world, from, to, &options, scratch)
}

/// The heights at many points on all cores: `out[i]` is [`height`] of `points[i]` (the
/// terrain's, or near the point's reference height).
///
/// # Panics
/// When `out` and `points` differ in length.
pub fn heights(world: &World, points: &[PointQuery], out: &mut [Option<f32>]) {
    assert_eq!(points.len(), out.len(), "one answer per point");
    points
        .par_iter()
        .zip(out.par_iter_mut())
        .with_min_len(MIN_POINTS_PER_TASK)
        .for_each(|(&p, h)| *h = height(world, p));
}

/// The shortest paths of many segments, on all cores, each search limited to `budget` corner
/// expansions when given ([`PathScratch::with_budget`]), each with a scratch of its thread's:
/// element `i` is [`path`] of `segments[i]`.
pub fn paths(
    world: &World,
    paths: &PathIndex,
    segments: &[SegmentQuery],
    budget: Option<usize>,
    options: &PathOptions,
) -> Vec<Result<WorldPath, PathError>> {
    let scratch = || budget.map_or_else(PathScratch::new, PathScratch::with_budget);
    segments
        .par_iter()
        .map_init(scratch, |scratch, &q| {
            path(world, paths, q, options, scratch)
        })
        .collect()
}
