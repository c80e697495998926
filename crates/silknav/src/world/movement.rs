//! Movement: where a walk from one point toward another stops, by the game server's rules.
//!
//! The walk goes cell by cell along the segment, as the server's terrain `Move` does:
//! - while the goal is outside the current cell, find the cell edge the segment crosses (the
//!   server's `FindCrossEdge`: for each edge linked to the cell, in the server's order, the
//!   segment's ends must lie on different sides and the lines must meet on the edge);
//! - a **blocked** edge (`flag & 3 != 0`) stops the walk at the crossing point nudged 0.2
//!   units toward the current cell's centre;
//! - a **global** edge continues in the neighbour region: the crossing coordinate is snapped
//!   to 0 or 1919.99 and nudged into the neighbour cell;
//! - any other edge continues in the cell beyond, from the crossing point nudged 0.2 toward
//!   that cell's centre (so the walk bends a little at every cell it enters, as the game's
//!   does);
//! - no crossed edge at all (the segment leaves the cell where no edge is linked) stops the
//!   walk at the start nudged toward the cell's centre.
//!
//! Like the server's, the side test counts a point exactly on an edge's line with the
//! outside: a walk that starts exactly on its cell's side and leaves through that side finds
//! no crossed edge and stops at once (`no-edge`). And a start exactly on a tile side belongs
//! to the tile on its +x/+z side, as for [`World::cell_at`] — [`World::raycast`] is more
//! lenient and accepts any start that touches walkable ground.
//!
//! The arithmetic follows the server's: f32 positions, with the products and sums it evaluates
//! in double done in f64 and rounded to f32 where the server stores them.
//!
//! # Where the server decides, and how silknav follows it
//! - **Before walking** the server's `QueryMovement` moves the goal into the start's region
//!   frame (in f32) and refuses the move when `goal.x − start.x > 1920` or `goal.z − start.z >
//!   1920`, the differences taken in double ([`MoveError::TooFar`]). The test is one-sided: a
//!   goal 1921 units to the east is refused, one 5000 units to the west is walked. The x87 code
//!   at that spot compares the raw differences (an `fabs` would be one instruction there), so
//!   this is the server's own behaviour, not a slip of the decompilation; its intent was most
//!   likely a symmetric bound. silknav follows the server by default
//!   ([`DistanceGuard::OneSided`]) and offers the symmetric test and none at all through
//!   [`MoveOptions::guard`]. (The server skips the test when its caller passes a step budget of
//!   10 or less; the movement of characters passes none.) A goal equal to the start (same
//!   region and coordinates) is reached at once.
//! - **Global or internal** is the list an edge comes from (the file's global or internal
//!   edges), never its flag: an internal edge with the global bit 0x08 is an internal edge.
//! - **The end** is accepted when it lies in its region's square and the walk has a cell
//!   there: the walk's own cell, not the tile's. A walk that ends on a blocked tile inside an
//!   open cell arrives, as the server's does.
//! - **No crossing limit** exists in the server beyond a budget of 2³¹ − 1 cell crossings.
//!   silknav gives up after [`MAX_CROSSINGS`] (2²⁰) crossings ([`MoveError::StepLimit`]), a
//!   count no walk in a real world reaches: a straight segment across the whole terrain id
//!   space (256 × 128 regions of 96 × 96 tiles) enters fewer than 37,000 tiles, hence fewer
//!   cells, and each crossing enters a new cell. Only edges that link cells in a loop can
//!   reach it.
//!
//! The walk fails when it starts on no cell, ends outside its region's square or on no cell,
//! or enters a region that is not loaded. Object meshes (`.bms`) are not consulted yet: the
//! walk is the terrain's.

use super::position::Position;
use super::region::{CellRect, Edge, EdgeId, Region};
use super::{CellRef, World, REGION_SIZE};
use jmxv::nvm::{EDGE_BLOCKED, NONE_U16};
use jmxv::RegionId;
use std::fmt;

/// The server's nudge toward a cell centre: the float 0.2 widened to double.
const NUDGE_STEP: f64 = 0.199_999_988_079_071_04;
/// The server snaps a crossing at the far border of a region to just inside it.
const REGION_EDGE_MAX: f32 = 1919.99;
/// The server's threshold for "at the near border".
const REGION_EDGE_MIN: f32 = 0.01;

/// How many cell crossings a walk may make before silknav gives it up
/// ([`MoveError::StepLimit`]): far more than any walk in a real world makes (see the
/// [module docs](self)); the server's own budget is 2³¹ − 1.
pub const MAX_CROSSINGS: u32 = 1 << 20;

/// The server's bound on how far a single move may reach: one region.
const GUARD_DISTANCE: f64 = REGION_SIZE as f64;

/// How the server's 1920-unit guard on a move's reach is applied ([module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DistanceGuard {
    /// As the server: refused when the goal is more than 1920 units east or north of the
    /// start (`goal − start > 1920` on x or z); any distance west or south is walked.
    #[default]
    OneSided,
    /// Refused when the goal is more than 1920 units from the start along x or z, either way.
    Symmetric,
    /// Never refused (as the server when its caller passes a step budget of 10 or less).
    Off,
}

impl DistanceGuard {
    /// Whether a goal `(dx, dz)` from the start (in double, as the server subtracts) is
    /// refused.
    fn refuses(self, dx: f64, dz: f64) -> bool {
        match self {
            DistanceGuard::OneSided => dx > GUARD_DISTANCE || dz > GUARD_DISTANCE,
            DistanceGuard::Symmetric => dx.abs() > GUARD_DISTANCE || dz.abs() > GUARD_DISTANCE,
            DistanceGuard::Off => false,
        }
    }
}

/// How a walk is made: the choices where the server's behaviour is open to question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct MoveOptions {
    /// The 1920-unit guard ([`DistanceGuard::OneSided`], the server's, by default).
    pub guard: DistanceGuard,
}

impl MoveOptions {
    /// The server's choices.
    pub fn new() -> MoveOptions {
        MoveOptions::default()
    }

    /// These options with another guard.
    pub fn with_guard(mut self, guard: DistanceGuard) -> MoveOptions {
        self.guard = guard;
        self
    }
}

/// Where and why a walk stopped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveOutcome {
    /// The stop.
    pub position: Position,
    /// The ground height there ([`World::height_at`]).
    pub height: f32,
    /// The cell the walk ends in: the walk's own cell, which the server keeps (it is the
    /// tile's cell except where a file's cells and tiles disagree).
    pub cell: CellRef,
    /// Why the walk stopped there.
    pub stop: MoveStop,
}

/// Why a walk stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveStop {
    /// It reached the goal.
    Arrived,
    /// A wall: the edge and the region whose file holds it.
    Wall {
        /// The region of the edge.
        region: RegionId,
        /// The edge.
        edge: EdgeId,
    },
    /// The segment left the cell where no edge is linked (a gap in the file's edges).
    NoEdge,
}

impl MoveStop {
    /// One word for command lines: `arrived`, `wall`, `no-edge`.
    pub const fn word(self) -> &'static str {
        match self {
            MoveStop::Arrived => "arrived",
            MoveStop::Wall { .. } => "wall",
            MoveStop::NoEdge => "no-edge",
        }
    }
}

/// A walk that fails, as the server's does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveError {
    /// The start is on no cell (blocked tile, region not loaded).
    StartNotWalkable,
    /// The server's guard refuses a goal this far from the start ([`DistanceGuard`]).
    TooFar,
    /// The walk would end outside its region's square or on no cell (or the goal is not a
    /// finite position).
    OffMesh,
    /// A global edge leads to a region that is not loaded, or to a cell it does not have.
    MissingRegion(RegionId),
    /// More than [`MAX_CROSSINGS`] cell crossings: the edges loop.
    StepLimit,
}

impl MoveError {
    /// One word for command lines: `start-blocked`, `too-far`, `off-mesh`,
    /// `missing-region`, `step-limit`.
    pub const fn word(self) -> &'static str {
        match self {
            MoveError::StartNotWalkable => "start-blocked",
            MoveError::TooFar => "too-far",
            MoveError::OffMesh => "off-mesh",
            MoveError::MissingRegion(_) => "missing-region",
            MoveError::StepLimit => "step-limit",
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::StartNotWalkable => f.write_str("the start is on no cell"),
            MoveError::TooFar => f.write_str(
                "the server refuses a move whose goal is more than 1920 units east or north of its start",
            ),
            MoveError::OffMesh => f.write_str("the walk would end off the walkable ground"),
            MoveError::MissingRegion(r) => {
                write!(f, "the walk leads into region {r}, which is not loaded")
            }
            MoveError::StepLimit => write!(
                f,
                "the walk crossed more than {MAX_CROSSINGS} cell edges: the edges loop"
            ),
        }
    }
}

impl std::error::Error for MoveError {}

impl World {
    /// Walks from `from` toward `to` by the server's rules (see the [module docs](crate::world::movement)).
    ///
    /// # Errors
    /// See [`MoveError`].
    pub fn move_along(&self, from: Position, to: Position) -> Result<MoveOutcome, MoveError> {
        self.walk(from, to, &MoveOptions::default(), None)
    }

    /// [`World::move_along`] with [`MoveOptions`].
    ///
    /// # Errors
    /// See [`MoveError`].
    pub fn move_with(
        &self,
        from: Position,
        to: Position,
        options: &MoveOptions,
    ) -> Result<MoveOutcome, MoveError> {
        self.walk(from, to, options, None)
    }

    /// [`World::move_along`], also recording the points where the walk turned: the start, each
    /// nudged point where it entered a new cell, and the stop. The walk goes straight between
    /// consecutive points, which is what a picture or a check of the walk needs.
    ///
    /// # Errors
    /// As for [`World::move_along`]; `trace` then holds the points up to the failure.
    pub fn move_along_traced(
        &self,
        from: Position,
        to: Position,
        trace: &mut Vec<Position>,
    ) -> Result<MoveOutcome, MoveError> {
        trace.clear();
        self.walk(from, to, &MoveOptions::default(), Some(trace))
    }

    fn walk(
        &self,
        from: Position,
        to: Position,
        options: &MoveOptions,
        mut trace: Option<&mut Vec<Position>>,
    ) -> Result<MoveOutcome, MoveError> {
        let from = from.normalized().ok_or(MoveError::StartNotWalkable)?;
        if let Some(trace) = trace.as_deref_mut() {
            trace.push(from);
        }
        let start = self
            .terrain_cell_at(from)
            .ok_or(MoveError::StartNotWalkable)?;
        let mut region = self
            .region(from.region)
            .ok_or(MoveError::StartNotWalkable)?;
        let mut cell = start.cell;
        if to.region == from.region && to.x == from.x && to.z == from.z {
            // The server answers the start itself.
            return self.finish(region, cell, from.x, from.z, MoveStop::Arrived, trace);
        }
        let (mut src_x, mut src_z) = (from.x, from.z);
        let (mut dst_x, mut dst_z) = to.in_frame_of(from.region);
        if !dst_x.is_finite() || !dst_z.is_finite() {
            return Err(MoveError::OffMesh);
        }
        if options.guard.refuses(
            f64::from(dst_x) - f64::from(src_x),
            f64::from(dst_z) - f64::from(src_z),
        ) {
            return Err(MoveError::TooFar);
        }
        let mut steps_left = MAX_CROSSINGS;

        loop {
            let rect = *region
                .cells
                .get(usize::from(cell))
                .ok_or(MoveError::OffMesh)?;
            if rect.min_x <= dst_x
                && dst_x < rect.max_x
                && rect.min_z <= dst_z
                && dst_z < rect.max_z
            {
                return self.finish(region, cell, dst_x, dst_z, MoveStop::Arrived, trace);
            }
            let segment = [src_x, src_z, dst_x, dst_z];
            match find_cross_edge(region, cell, &rect, &segment) {
                Cross::None => {
                    let (x, z) = nudge(rect.centre_x, rect.centre_z, src_x, src_z);
                    return self.finish(region, cell, x, z, MoveStop::NoEdge, trace);
                }
                Cross::Inside => {
                    return self.finish(region, cell, dst_x, dst_z, MoveStop::Arrived, trace)
                }
                Cross::Edge { id, point } => {
                    steps_left = steps_left.checked_sub(1).ok_or(MoveError::StepLimit)?;
                    let edge = region.edge(id);
                    if edge.flag & EDGE_BLOCKED != 0 {
                        let (x, z) = nudge(rect.centre_x, rect.centre_z, point[0], point[1]);
                        return self.finish(
                            region,
                            cell,
                            x,
                            z,
                            MoveStop::Wall {
                                region: region.id,
                                edge: id,
                            },
                            trace,
                        );
                    }
                    // Global or internal by the list the edge comes from, as in the server.
                    if matches!(id, EdgeId::Global(_)) {
                        let next_id = edge.region_b.ok_or(MoveError::MissingRegion(region.id))?;
                        let next = self
                            .region(next_id)
                            .ok_or(MoveError::MissingRegion(next_id))?;
                        let next_cell = edge.cell[1];
                        let next_rect = *next
                            .cells
                            .get(usize::from(next_cell))
                            .ok_or(MoveError::MissingRegion(next_id))?;
                        let (mut x, mut z) = (point[0], point[1]);
                        let (offset_x, offset_z) = (
                            i32::from(next_id.x()) - i32::from(region.id.x()),
                            i32::from(next_id.z()) - i32::from(region.id.z()),
                        );
                        if offset_x != 0 {
                            x = snap(x);
                        }
                        if offset_z != 0 {
                            z = snap(z);
                        }
                        (src_x, src_z) = nudge(next_rect.centre_x, next_rect.centre_z, x, z);
                        // The goal, in the new region's frame (the server adds in f32).
                        dst_x += (-offset_x) as f32 * 1920.0;
                        dst_z += 1920.0 * (-offset_z) as f32;
                        region = next;
                        cell = next_cell;
                        if let Some(trace) = trace.as_deref_mut() {
                            trace.push(Position::new(region.id, src_x, src_z));
                        }
                    } else {
                        let next_cell = other_cell(edge, cell).ok_or(MoveError::OffMesh)?;
                        let next_rect = *region
                            .cells
                            .get(usize::from(next_cell))
                            .ok_or(MoveError::OffMesh)?;
                        (src_x, src_z) =
                            nudge(next_rect.centre_x, next_rect.centre_z, point[0], point[1]);
                        cell = next_cell;
                        if let Some(trace) = trace.as_deref_mut() {
                            trace.push(Position::new(region.id, src_x, src_z));
                        }
                    }
                }
            }
        }
    }

    /// The end of a walk in `cell` of `region`: accepted, as by the server, when it lies in
    /// the region's square (the walk always has its cell).
    fn finish(
        &self,
        region: &Region,
        cell: u16,
        x: f32,
        z: f32,
        stop: MoveStop,
        trace: Option<&mut Vec<Position>>,
    ) -> Result<MoveOutcome, MoveError> {
        if !((0.0..REGION_SIZE).contains(&x) && (0.0..REGION_SIZE).contains(&z)) {
            return Err(MoveError::OffMesh);
        }
        let position = Position::new(region.id, x, z);
        let height = super::height::find_height(region, x, z).ok_or(MoveError::OffMesh)?;
        if let Some(trace) = trace {
            trace.push(position);
        }
        Ok(MoveOutcome {
            position,
            height,
            cell: CellRef {
                region: region.id,
                cell,
                object: None,
            },
            stop,
        })
    }
}

/// A crossing at a region border, moved into the neighbour's frame as the server does: the
/// far border becomes 0, the near border 1919.99.
fn snap(v: f32) -> f32 {
    if !(v < REGION_EDGE_MAX) {
        0.0
    } else if !(v > REGION_EDGE_MIN) {
        REGION_EDGE_MAX
    } else {
        v
    }
}

/// The cell across a passable internal edge from `cell`.
fn other_cell(edge: &Edge, cell: u16) -> Option<u16> {
    let other = if edge.cell[0] == cell {
        edge.cell[1]
    } else {
        edge.cell[0]
    };
    (other != NONE_U16).then_some(other)
}

enum Cross {
    /// No linked edge is crossed and the segment is not inside the cell.
    None,
    /// Every linked edge sees the segment inside the cell.
    Inside,
    /// The segment crosses this edge at this point.
    Edge { id: EdgeId, point: [f32; 2] },
}

/// The server's `FindCrossEdge` on a cell.
fn find_cross_edge(region: &Region, cell: u16, rect: &CellRect, segment: &[f32; 4]) -> Cross {
    let edges = region.edges_of_cell(cell);
    let mut inside = 0;
    for &id in edges {
        let edge = region.edge(id);
        // A point on the edge's line counts with the right-hand side, as in the server.
        let end = if side_test(edge, segment[2], segment[3]) == 2 {
            1
        } else {
            -1
        };
        let start = if side_test(edge, segment[0], segment[1]) == 2 {
            1
        } else {
            -1
        };
        if start * end < 0 {
            let (hit, point) = line_intersect(edge, segment);
            if hit == 2 || hit == 3 {
                return Cross::Edge { id, point };
            }
        } else if segment_inside(rect, segment) {
            inside += 1;
        }
    }
    if inside == edges.len() {
        Cross::Inside
    } else {
        Cross::None
    }
}

/// Both ends in the half-open rectangle.
fn segment_inside(r: &CellRect, s: &[f32; 4]) -> bool {
    let inside = |x: f32, z: f32| r.min_x <= x && x < r.max_x && r.min_z <= z && z < r.max_z;
    inside(s[0], s[1]) && inside(s[2], s[3])
}

/// The server's 2-D normalisation: length from a double sum stored as f32.
fn normalize(x: f32, z: f32) -> (f32, f32) {
    let (dx, dz) = (f64::from(x), f64::from(z));
    let length_sq = (dx * dx + dz * dz) as f32;
    let length = f64::from(length_sq).sqrt() as f32;
    let inv = if length > 0.0 {
        (1.0 / f64::from(length)) as f32
    } else {
        0.0
    };
    (
        (f64::from(x) * f64::from(inv)) as f32,
        (f64::from(inv) * f64::from(z)) as f32,
    )
}

/// Which side of the edge's line a point is on: 2 left-hand normal side, 1 the other, 0 on it.
fn side_test(edge: &Edge, x: f32, z: f32) -> u8 {
    let dir_x = (f64::from(edge.b[0]) - f64::from(edge.a[0])) as f32;
    let dir_z = (f64::from(edge.b[1]) - f64::from(edge.a[1])) as f32;
    let (nx, nz) = normalize(dir_x, dir_z);
    let (normal_x, normal_z) = (nz, -nx);
    let off_x = (f64::from(x) - f64::from(edge.a[0])) as f32;
    let off_z = (f64::from(z) - f64::from(edge.a[1])) as f32;
    let dot =
        (f64::from(normal_z) * f64::from(off_z) + f64::from(normal_x) * f64::from(off_x)) as f32;
    if 0.0 < dot {
        2
    } else if -0.0 > dot {
        1
    } else {
        0
    }
}

/// The server's `Line2_Intersect` of the edge (line A) and the segment (line B): 0 collinear,
/// 5 parallel, else 2 (both parameters in [0, 1]), 3 (only the edge's), 4 (only the
/// segment's), 1 (neither); the point is computed on the segment.
fn line_intersect(edge: &Edge, seg: &[f32; 4]) -> (u8, [f32; 2]) {
    let d = |a: f32, b: f32| (f64::from(a) - f64::from(b)) as f32;
    let diff_z = d(seg[1], edge.a[1]);
    let a_dx = d(edge.b[0], edge.a[0]);
    let diff_x = d(seg[0], edge.a[0]);
    let a_dz = d(edge.b[1], edge.a[1]);
    let b_dx = d(seg[2], seg[0]);
    let b_dz = d(seg[3], seg[1]);
    let w = f64::from;
    let num_b = (w(a_dx) * w(diff_z) - w(a_dz) * w(diff_x)) as f32;
    let denom = (w(a_dz) * w(b_dx) - w(a_dx) * w(b_dz)) as f32;
    if denom == 0.0 {
        return (if num_b != 0.0 { 5 } else { 0 }, [0.0, 0.0]);
    }
    let t_b = (w(num_b) / w(denom)) as f32;
    let t_a = ((w(diff_z) * w(b_dx) - w(diff_x) * w(b_dz)) / w(denom)) as f32;
    let point = [
        (w(b_dx) * w(t_b) + w(seg[0])) as f32,
        (w(b_dz) * w(t_b) + w(seg[1])) as f32,
    ];
    let in_a = (0.0..=1.0).contains(&t_a);
    let in_b = (0.0..=1.0).contains(&t_b);
    let code = match (in_a, in_b) {
        (true, true) => 2,
        (true, false) => 3,
        (false, true) => 4,
        (false, false) => 1,
    };
    (code, point)
}

/// The server's nudge of a point 0.2 units toward a centre (or onto it when closer).
fn nudge(centre_x: f32, centre_z: f32, x: f32, z: f32) -> (f32, f32) {
    let (mut delta_x, mut delta_z) = (centre_x - x, centre_z - z);
    let (dx, dz) = (f64::from(delta_x), f64::from(delta_z));
    let length_sq = (dz * dz + dx * dx) as f32;
    let length = f64::from(length_sq).sqrt() as f32;
    if f64::from(length) > NUDGE_STEP {
        (delta_x, delta_z) = normalize(delta_x, delta_z);
        delta_x = (f64::from(delta_x) * NUDGE_STEP) as f32;
        delta_z = (NUDGE_STEP * f64::from(delta_z)) as f32;
    }
    (x + delta_x, z + delta_z)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nudge_moves_a_fifth_toward_the_centre_or_onto_it() {
        // The server's step is the double 0.19999998807907104, which is an f32 value itself.
        let (x, z) = nudge(100.0, 0.0, 0.0, 0.0);
        assert_eq!((x, z), (NUDGE_STEP as f32, 0.0));
        assert_eq!(nudge(0.1, 0.1, 0.0, 0.0), (0.1, 0.1));
        let (x, z) = nudge(10.0, 10.0, 0.0, 0.0);
        assert!((f64::from(x).hypot(f64::from(z)) - 0.2).abs() < 1e-6);
    }

    #[test]
    fn snapping_at_region_borders() {
        assert_eq!(snap(1920.0), 0.0);
        assert_eq!(snap(1919.995), 0.0);
        assert_eq!(snap(0.0), REGION_EDGE_MAX);
        assert_eq!(snap(500.0), 500.0);
    }

    #[test]
    fn line_intersection_codes() {
        let edge = Edge {
            a: [10.0, 0.0],
            b: [10.0, 20.0],
            flag: 0,
            cell: [0, 1],
            region_b: None,
        };
        let (code, point) = line_intersect(&edge, &[0.0, 5.0, 20.0, 5.0]);
        assert_eq!((code, point), (2, [10.0, 5.0]));
        assert_eq!(line_intersect(&edge, &[0.0, 30.0, 20.0, 30.0]).0, 4);
        assert_eq!(line_intersect(&edge, &[10.0, 30.0, 10.0, 40.0]).0, 0);
        assert_eq!(line_intersect(&edge, &[0.0, 30.0, 0.0, 40.0]).0, 5);
        assert_eq!(side_test(&edge, 5.0, 5.0), 1);
        assert_eq!(side_test(&edge, 15.0, 5.0), 2);
        assert_eq!(side_test(&edge, 10.0, 5.0), 0);
    }
}
