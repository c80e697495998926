//! The queries in world coordinates, one at a time or many at once on all cores: what the
//! command line and the language bindings (Python, C) answer.
//!
//! World coordinates are `x = region_x·1920 + local_x` and `z = region_z·1920 + local_z`, as
//! `f64`. Each function turns its points into [`Position`]s ([`Position::from_world`]) and asks
//! the [`World`]. A point outside the terrain id space (x 0..491520, z 0..245760) or not
//! finite has no position, and each query answers it as the command line does:
//!
//! | query | a start (or point) outside | an end outside |
//! |---|---|---|
//! | [`cell`], [`height`] | `None` | |
//! | [`raycast`] | [`RayError::StartNotWalkable`] | [`RayError::BadEnd`] |
//! | [`move_along`] | [`MoveError::StartNotWalkable`] | [`MoveError::OffMesh`] |
//! | [`find_path`] | [`PathError::StartBlocked`] | [`PathError::GoalBlocked`] |
//!
//! The batch forms ([`heights`], [`heights_y`], [`find_paths`]) answer element `i` exactly as
//! the single query on element `i` would, in parallel on rayon's current thread pool (all
//! cores unless `RAYON_NUM_THREADS` says otherwise, or a pool of your own through
//! `pool.install`).
//!
//! ```
//! # let dir = std::env::temp_dir().join(format!("silknav-xz-doc-{}", std::process::id()));
//! # let options = silknav::worldgen::GenOptions { width: 1, height: 1, ..Default::default() };
//! # silknav::worldgen::generate(&options)?.into_files().write_data_root(&dir, silknav::files::Overwrite::Replace)?;
//! use silknav::{world_xz, World};
//!
//! let world = World::load(&dir)?;
//! let (x0, z0) = (128.0 * 1920.0, 64.0 * 1920.0); // the corner of region 4080
//! let points = [[x0 + 500.0, z0 + 500.0], [x0 + 900.0, z0 + 700.0], [-1.0, 0.0]];
//! let mut heights = vec![None; points.len()];
//! world_xz::heights(&world, &points, &mut heights);
//! for (p, h) in points.iter().zip(&heights) {
//!     assert_eq!(*h, world_xz::height(&world, p[0], p[1], None));
//! }
//! assert_eq!(heights[2], None, "outside the id space");
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::path::{PathError, PathScratch, WorldPath};
use crate::world::{CellRef, MoveError, MoveOutcome, Position, RayError, RayHit, World};
use rayon::prelude::*;

/// Points per rayon task: a height costs tens of nanoseconds, so smaller tasks would spend
/// more on scheduling than on answers.
const MIN_POINTS_PER_TASK: usize = 4096;

/// The position at world coordinates, or `None` outside the terrain id space.
fn position(x: f64, z: f64) -> Option<Position> {
    Position::from_world(x, z)
}

/// The cell under (x, z): [`World::cell_at`], or [`World::cell_at_y`] with a reference height.
pub fn cell(world: &World, x: f64, z: f64, y: Option<f32>) -> Option<CellRef> {
    let p = position(x, z)?;
    match y {
        None => world.cell_at(p),
        Some(y) => world.cell_at_y(p, y),
    }
}

/// The height at (x, z): the terrain's ([`World::height_at`]), or with a reference height the
/// object floor or ground nearest it ([`World::height_at_y`]).
pub fn height(world: &World, x: f64, z: f64, y: Option<f32>) -> Option<f32> {
    let p = position(x, z)?;
    match y {
        None => world.height_at(p),
        Some(y) => world.height_at_y(p, y),
    }
}

/// The first point where the segment `[x1, z1, x2, z2]` is blocked, `None` when it is clear:
/// [`World::raycast`], or [`World::raycast_y`] starting on the surface nearest `y`.
///
/// # Errors
/// As for [`World::raycast`]; see the [module docs](self) for points outside the id space.
pub fn raycast(
    world: &World,
    segment: [f64; 4],
    y: Option<f32>,
) -> Result<Option<RayHit>, RayError> {
    let from = position(segment[0], segment[1]).ok_or(RayError::StartNotWalkable)?;
    let to = position(segment[2], segment[3]).ok_or(RayError::BadEnd)?;
    match y {
        None => world.raycast(from, to),
        Some(y) => world.raycast_y(from, y, to),
    }
}

/// Where a walk along the segment `[x1, z1, x2, z2]` stops: [`World::move_along`].
///
/// # Errors
/// As for [`World::move_along`]; see the [module docs](self) for points outside the id space.
pub fn move_along(world: &World, segment: [f64; 4]) -> Result<MoveOutcome, MoveError> {
    let from = position(segment[0], segment[1]).ok_or(MoveError::StartNotWalkable)?;
    let to = position(segment[2], segment[3]).ok_or(MoveError::OffMesh)?;
    world.move_along(from, to)
}

/// The shortest path from `(x1, z1)` to `(x2, z2)` of `[x1, z1, x2, z2]`: [`World::find_path`].
///
/// # Errors
/// As for [`World::find_path`]; see the [module docs](self) for points outside the id space.
pub fn find_path(
    world: &World,
    segment: [f64; 4],
    scratch: &mut PathScratch,
) -> Result<WorldPath, PathError> {
    let from = position(segment[0], segment[1]).ok_or(PathError::StartBlocked)?;
    let to = position(segment[2], segment[3]).ok_or(PathError::GoalBlocked)?;
    world.find_path(from, to, scratch)
}

/// The terrain heights at many points `[x, z]`, on all cores: `out[i] = height(world, x, z,
/// None)` for `points[i]`.
///
/// # Panics
/// When `out` and `points` differ in length.
pub fn heights(world: &World, points: &[[f64; 2]], out: &mut [Option<f32>]) {
    assert_eq!(points.len(), out.len(), "one answer per point");
    points
        .par_iter()
        .zip(out.par_iter_mut())
        .with_min_len(MIN_POINTS_PER_TASK)
        .for_each(|(p, h)| *h = height(world, p[0], p[1], None));
}

/// The heights at many points `[x, z, y]` of the object floor or ground nearest each `y`, on
/// all cores: `out[i] = height(world, x, z, Some(y as f32))` for `points[i]`.
///
/// # Panics
/// When `out` and `points` differ in length.
pub fn heights_y(world: &World, points: &[[f64; 3]], out: &mut [Option<f32>]) {
    assert_eq!(points.len(), out.len(), "one answer per point");
    points
        .par_iter()
        .zip(out.par_iter_mut())
        .with_min_len(MIN_POINTS_PER_TASK)
        .for_each(|(p, h)| *h = height(world, p[0], p[1], Some(p[2] as f32)));
}

/// The shortest paths of many segments `[x1, z1, x2, z2]`, on all cores, each search limited
/// to `budget` corner expansions when given ([`PathScratch::with_budget`]): element `i` is
/// [`find_path`] of `segments[i]`.
///
/// The world's path index is built first ([`World::prepare_paths`]) when it has none yet, so
/// that no search waits for another to build it.
pub fn find_paths(
    world: &World,
    segments: &[[f64; 4]],
    budget: Option<usize>,
) -> Vec<Result<WorldPath, PathError>> {
    if !segments.is_empty() {
        world.prepare_paths();
    }
    let scratch = || budget.map_or_else(PathScratch::new, PathScratch::with_budget);
    segments
        .par_iter()
        .map_init(scratch, |scratch, &segment| {
            find_path(world, segment, scratch)
        })
        .collect()
}
