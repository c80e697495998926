//! The queries in world coordinates, as the command line and the query server take them.
//!
//! A query names points by world coordinates (`x = region_x·1920 + local_x`, likewise z), as
//! `f64`. Each function turns them into [`Position`]s and asks the [`World`]; a point outside
//! the terrain id space answers as a point outside the loaded regions does (no cell, no
//! height, a blocked start or end), so that every finite coordinate gets an answer. Callers
//! that answer in JSON pass the result to [`crate::json`] (feature `serde`).

use crate::path::{PathError, PathScratch, WorldPath};
use crate::world::{
    CellRef, MoveError, MoveOptions, MoveOutcome, Position, RayError, RayHit, Snap, World,
};

/// A point, and optionally the reference height that picks among an object's floors and the
/// ground below them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointQuery {
    /// World x.
    pub x: f64,
    /// World z.
    pub z: f64,
    /// Reference height: the object floor or ground nearest it answers.
    pub y: Option<f32>,
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
    /// it (line of sight and movement).
    pub y: Option<f32>,
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
        }
    }

    fn ends(&self) -> (Option<Position>, Option<Position>) {
        (
            Position::from_world(self.x1, self.z1),
            Position::from_world(self.x2, self.z2),
        )
    }
}

/// The cell under a point: [`World::cell_at`], or [`World::cell_at_y`] with a reference
/// height.
pub fn cell(world: &World, q: PointQuery) -> Option<CellRef> {
    let p = Position::from_world(q.x, q.z)?;
    match q.y {
        None => world.cell_at(p),
        Some(y) => world.cell_at_y(p, y),
    }
}

/// The height at a point: [`World::height_at`], or [`World::height_at_y`] with a reference
/// height.
pub fn height(world: &World, q: PointQuery) -> Option<f32> {
    let p = Position::from_world(q.x, q.z)?;
    match q.y {
        None => world.height_at(p),
        Some(y) => world.height_at_y(p, y),
    }
}

/// The walkable point nearest a point, within `max_distance` units:
/// [`World::nearest_walkable`], or [`World::nearest_walkable_y`] with a reference height.
/// A point outside the id space is snapped too (onto the nearest loaded ground).
pub fn snap(world: &World, q: PointQuery, max_distance: f64) -> Option<Snap> {
    if !q.x.is_finite() || !q.z.is_finite() {
        return None;
    }
    // The region of the id space nearest the point, with the point in its frame (it may lie
    // outside the region's square: the search measures from the point itself).
    let size = f64::from(crate::world::REGION_SIZE);
    let rx = (q.x / size).floor().clamp(0.0, 255.0);
    let rz = (q.z / size).floor().clamp(0.0, 127.0);
    let pos = Position::new(
        jmxv::RegionId::new(rx as u8, rz as u8),
        (q.x - rx * size) as f32,
        (q.z - rz * size) as f32,
    );
    match q.y {
        None => world.nearest_walkable(pos, max_distance),
        Some(y) => world.nearest_walkable_y(pos, y, max_distance),
    }
}

/// The first blocking point of a segment: [`World::raycast`], or [`World::raycast_y`] with a
/// reference height for the start.
///
/// # Errors
/// As for [`World::raycast`]; a start outside the id space is
/// [`RayError::StartNotWalkable`], such an end [`RayError::BadEnd`].
pub fn los(world: &World, q: SegmentQuery) -> Result<Option<RayHit>, RayError> {
    let (from, to) = q.ends();
    let from = from.ok_or(RayError::StartNotWalkable)?;
    let to = to.ok_or(RayError::BadEnd)?;
    match q.y {
        None => world.raycast(from, to),
        Some(y) => world.raycast_y(from, y, to),
    }
}

/// Where a walk from the start toward the end stops: [`World::move_along`], or
/// [`World::move_along_y`] with a reference height for the start.
///
/// # Errors
/// As for [`World::move_along`]; a start outside the id space is
/// [`MoveError::StartNotWalkable`], such an end [`MoveError::OffMesh`].
pub fn move_along(world: &World, q: SegmentQuery) -> Result<MoveOutcome, MoveError> {
    move_with(world, q, &MoveOptions::default())
}

/// [`move_along`] with [`MoveOptions`] (the query's reference height, when it has one,
/// replaces the options' start height).
///
/// # Errors
/// As for [`move_along`].
pub fn move_with(
    world: &World,
    q: SegmentQuery,
    options: &MoveOptions,
) -> Result<MoveOutcome, MoveError> {
    let (from, to) = q.ends();
    let from = from.ok_or(MoveError::StartNotWalkable)?;
    let to = to.ok_or(MoveError::OffMesh)?;
    let options = match q.y {
        Some(y) => options.with_start_y(y),
        None => *options,
    };
    world.move_with(from, to, &options)
}

/// The shortest path from the start to the end: [`World::find_path`], within the scratch's
/// budget.
///
/// # Errors
/// As for [`World::find_path`]; a start outside the id space is [`PathError::StartBlocked`],
/// such a goal [`PathError::GoalBlocked`].
pub fn path(
    world: &World,
    q: SegmentQuery,
    scratch: &mut PathScratch,
) -> Result<WorldPath, PathError> {
    let (from, to) = q.ends();
    let from = from.ok_or(PathError::StartBlocked)?;
    let to = to.ok_or(PathError::GoalBlocked)?;
    world.find_path(from, to, scratch)
}
