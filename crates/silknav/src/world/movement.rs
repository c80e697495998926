//! Movement: where a walk from one point toward another stops, by the game server's rules, to
//! the bit.
//!
//! [`World::move_along`] is the server's `QueryMovement` as a character's move calls it: the
//! start put on a surface, the goal taken into its region, the guard, up to seven legs of the
//! server's `Move` on the terrain or an object, and the end checked.
//!
//! # Rule
//! **On the terrain** the walk goes cell by cell. Entering a cell, it probes each object the
//! cell lists with the whole rest of the segment; the hit nearest the walker stops the terrain
//! walk there, even beyond the cell's walls. While the goal is outside the cell, the edge the
//! segment crosses is found as the server's `FindCrossEdge` does (the ends on different sides,
//! the lines meeting on the edge, edges in the server's order):
//! - a **blocked** edge (`flag & 3 != 0`) stops the walk at the crossing point nudged 0.2 units
//!   toward the cell's centre;
//! - a **global** edge goes on in the neighbour region, the crossing snapped to 0 or 1919.99;
//! - any other edge goes on from the crossing nudged 0.2 toward the next cell's centre;
//! - no crossed edge stops the walk at the start, nudged toward the cell's centre.
//!
//! A point exactly on an edge's line is outside: a walk that starts on its cell's side and
//! leaves through it stops at once (`no-edge`). A start on a tile side is in the tile on its
//! +x/+z side, as for [`World::cell_at`]; [`World::raycast`] accepts any start on open ground.
//!
//! **Objects**, with the server's movement flag (`nFlag` 1, which [`MoveOptions::object_checks`]
//! turns off), are met only through the lists of the cells walked, each in its own frame:
//! - *Entering*: the outline edge crossed nearest the walker, either way (bridge sides, 0x10,
//!   are passed under). Flag 0x01 refuses: the walk stops 0.01 outside
//!   ([`MoveStop::ObjectWall`]), or fails ([`MoveError::ObjectRefused`]) when the probe on the
//!   way there crosses an object. Else the walker enters the edge's cell 0.2 inside.
//! - *On an object*, triangle by triangle through each one's first three edges. An internal
//!   edge (0x04) leads on unless 0x02 blocks A → B, 0x01 blocks B → A, or no cell is beyond.
//!   Any other edge leaves: refused with 0x12; over a link edge (0x08) onto the linked object's
//!   edge cell; else onto the terrain, 0.01 off the edge, where a blocked tile fails the move.
//! - Leaving the region on an object goes on with the same instance (by key) in the
//!   neighbour's list, or fails. An event-only object is walked only where the terrain lets the
//!   walk through first. Crossing into the next cell or region probes the objects of the cell
//!   left or entered, and a crossing there fails the move.
//!
//! **Start, guard, legs and end**:
//! - The start is on [`MoveOptions::start`]'s surface ([`World::surface_at`]); the goal's
//!   height is the surface there nearest the start's, unless [`MoveOptions::goal_y`] gives it.
//! - The guard refuses a goal over 1920 units ahead ([`DistanceGuard`], [`MoveError::TooFar`]),
//!   the goal moved into the start's frame in f32, the differences taken in double.
//! - A leg that enters or leaves an object ends there; the move ends too when the goal is
//!   within 5 units by the server's measure, in the object's frame ([`MoveStop::Transition`]).
//!   More than seven legs fail the move. An edge is global or internal by its list, not its flag.
//! - The end is accepted in its region's square on the walk's own cell, even over a blocked
//!   tile. Its height is the terrain's `FindHeight` or the object triangle's plane.
//! - After [`SERVER_BUDGET`] crossings the server answers the goal. A walk that circles is seen
//!   after 2¹⁷ crossings and jumped to the server's last one ([`MoveStop::Looped`]); 2²⁰ more
//!   without a repeat give [`MoveError::StepLimit`].
//! - The walk fails when it starts on no cell, ends outside its region's square or on no cell,
//!   enters a region not loaded, or an object check refuses it.
//!
//! # Method, cost and limits
//! Each step is the reconstructed server's routine in its float arithmetic, written out
//! operation for operation in `geometry::server_arith`, objects in the server's frames:
//! O(cells and triangles crossed + objects probed). Benches: `move_along_500` of
//! `crates/silknav-bench/benches/queries.rs`, `move_along_objects` against `move_along_terrain`
//! of `benches/objects.rs`; measurements and the server's sources: `docs/design/movement.md`.
//! Event zones fire nothing, so they never stop a walk. A loop is followed to the server's
//! answer, not run through its budget.

use super::height::find_height;
use super::position::Position;
use super::region::{CellRect, Edge, EdgeId, Region};
use super::{CellRef, Resolved, Surface, World};
use crate::geometry::server_arith::{self as arith, length_sq, nudge, sub3, transform, Vec2, Vec3};
use crate::geometry::REGION_SIZE;
use crate::objects::mesh::{bits, EdgeKey, LoopWatch, MoveContext, ObjectEnd};
use crate::objects::{
    walk::{ObjectEdgeKind, ObjectEdgeRef},
    ObjectCellRef,
};
use jmxv::nvm::{EDGE_BLOCKED, NONE_U16, TILES_PER_SIDE};
use jmxv::RegionId;
use std::fmt;

/// The server snaps a crossing at the far border of a region to just inside it.
const REGION_EDGE_MAX: f32 = 1919.99;
/// The server's threshold for "at the near border".
const REGION_EDGE_MIN: f32 = 0.01;
/// A leg that ends this close to the goal (squared, as the server compares) ends the move.
const LEG_DONE_SQ: f32 = 25.0;
/// The server's bound on legs: more than this many fail the move.
const MAX_LEGS: u32 = 7;

pub use crate::objects::mesh::SERVER_BUDGET;

/// How many cell crossings a walk that never repeats itself may make before silknav gives it
/// up ([`MoveError::StepLimit`]): far more than any walk in a real world makes (see the
/// [module docs](self)); a walk that repeats itself is followed to the server's own budget.
pub const MAX_CROSSINGS: u32 =
    crate::objects::mesh::LOOP_WATCH_AFTER + crate::objects::mesh::LOOP_WATCH_LIMIT;

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

/// How a walk is made: where it starts, and the choices where the server's behaviour is open
/// to question ([module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct MoveOptions {
    /// The 1920-unit guard ([`DistanceGuard::OneSided`], the server's, by default).
    pub guard: DistanceGuard,
    /// The surface the walk starts on ([`Surface::Highest`] by default, as the server's walk
    /// without a reference height; [`Surface::Near`] as its `FindNavCell` picks it).
    pub start: Surface,
    /// The goal's height as the server carries it; `None` (the default): the surface at the
    /// goal nearest the start's height.
    pub goal_y: Option<f32>,
    /// The server's movement flag: objects refuse entry (0x01) and exit (0x12), and the probes
    /// along the way fail moves that cross an object (`true`, the default, as line of sight
    /// and walls that stop walkers need); `false` walks as with the flag 0.
    pub object_checks: bool,
    /// Walk the terrain alone, as if no object were loaded (`false`, the default, walks as
    /// the server does, objects included): the start is on the terrain, no object is probed,
    /// entered or checked, and the goal's height is the terrain's. This is the ground paths
    /// are found on ([`crate::path`]), so it is the walk that checks their legs.
    pub terrain_only: bool,
}

impl Default for MoveOptions {
    fn default() -> MoveOptions {
        MoveOptions {
            guard: DistanceGuard::OneSided,
            start: Surface::Highest,
            goal_y: None,
            object_checks: true,
            terrain_only: false,
        }
    }
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

    /// These options starting on `surface`.
    pub fn with_start(mut self, surface: Surface) -> MoveOptions {
        self.start = surface;
        self
    }

    /// These options with the goal at height `y`.
    pub fn with_goal_y(mut self, y: f32) -> MoveOptions {
        self.goal_y = Some(y);
        self
    }

    /// These options with the object checks on or off ([`MoveOptions::object_checks`]).
    pub fn with_object_checks(mut self, on: bool) -> MoveOptions {
        self.object_checks = on;
        self
    }

    /// These options walking the terrain alone, or not ([`MoveOptions::terrain_only`]).
    pub fn with_terrain_only(mut self, on: bool) -> MoveOptions {
        self.terrain_only = on;
        self
    }
}

/// Where and why a walk stopped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveOutcome {
    /// The stop.
    pub position: Position,
    /// The height the server gives the stop: the terrain's ([`World::height_at`]) or the
    /// object triangle's.
    pub height: f32,
    /// The cell the walk ends in: the walk's own cell, which the server keeps (on the terrain
    /// it is the tile's cell except where a file's cells and tiles disagree; on an object, the
    /// object triangle and the cell of the tile under it).
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
    /// An object edge: an entry it refuses (the walk stops just outside), an exit it refuses
    /// or an inline edge that blocks the direction (the walk stops just inside).
    ObjectWall {
        /// The edge.
        edge: ObjectEdgeRef,
    },
    /// The walk stopped where it entered or left an object, the server finding the goal
    /// within 5 units (as it measures: see the module docs).
    Transition,
    /// The walk circled until the server's step budget ran out; the server then answers the
    /// goal ([module docs](self)).
    Looped,
    /// In a dungeon, a collision circle the walk would have entered, by its index in
    /// [`crate::world::dungeon::Dungeon::collision_circles`]: the walk stops just short of it.
    Circle {
        /// The circle.
        index: usize,
    },
}

impl MoveStop {
    /// Whether the walk is at its goal: it arrived, or circled until the server answered the
    /// goal ([`MoveStop::Looped`]).
    pub const fn reaches_goal(self) -> bool {
        matches!(self, MoveStop::Arrived | MoveStop::Looped)
    }

    /// One word for command lines: `arrived`, `wall`, `no-edge`, `object-wall`,
    /// `transition`, `looped`, `circle`.
    pub const fn word(self) -> &'static str {
        match self {
            MoveStop::Arrived => "arrived",
            MoveStop::Wall { .. } => "wall",
            MoveStop::NoEdge => "no-edge",
            MoveStop::ObjectWall { .. } => "object-wall",
            MoveStop::Transition => "transition",
            MoveStop::Looped => "looped",
            MoveStop::Circle { .. } => "circle",
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
    /// More than [`MAX_CROSSINGS`] cell crossings without the walk repeating itself.
    StepLimit,
    /// The server's object checks fail the move: an object crossed by the step into the next
    /// cell or region, or by the way to a refused entry; a link edge that leads nowhere; an
    /// instance the next region does not list; more than seven legs.
    ObjectRefused,
}

impl MoveError {
    /// One word for command lines: `start-blocked`, `too-far`, `off-mesh`,
    /// `missing-region`, `step-limit`, `object-refused`.
    pub const fn word(self) -> &'static str {
        match self {
            MoveError::StartNotWalkable => "start-blocked",
            MoveError::TooFar => "too-far",
            MoveError::OffMesh => "off-mesh",
            MoveError::MissingRegion(_) => "missing-region",
            MoveError::StepLimit => "step-limit",
            MoveError::ObjectRefused => "object-refused",
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
                "the walk crossed more than {MAX_CROSSINGS} cell edges without repeating itself"
            ),
            MoveError::ObjectRefused => f.write_str("the server's object checks refuse the move"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A position as the server's moves carry it: region-local (object-local inside an object's
/// move), with the cell and the object instance it is on.
#[derive(Debug, Clone, Copy, PartialEq)]
struct NavPos {
    region: RegionId,
    p: Vec3,
    cell: Cell,
    inst: Option<Inst>,
}

/// The cell a position is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    None,
    /// A terrain cell: the region's slot and the cell's index.
    Quad {
        slot: usize,
        cell: u16,
    },
    /// A triangle of an object mesh (shared by the instances of the mesh).
    Tri {
        mesh: u32,
        tri: u32,
    },
}

/// An object instance as the server places it: an entry of a region's object list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Inst {
    slot: usize,
    index: u16,
}

/// The result of one of the server's moves: its bits, and why it failed or what blocked it.
#[derive(Debug, Clone, Copy, Default)]
struct Out {
    bits: u32,
    fail: Option<MoveError>,
    blocked: Option<ObjectEdgeRef>,
}

impl Out {
    fn bits(bits: u32) -> Out {
        Out {
            bits,
            ..Out::default()
        }
    }

    fn fail(why: MoveError) -> Out {
        Out {
            bits: bits::FAILED,
            fail: Some(why),
            blocked: None,
        }
    }
}

/// The state of one movement query.
struct Walker<'w, 't> {
    world: &'w World,
    /// The server's movement flag.
    check: u32,
    ctx: MoveContext,
    /// The object instance the terrain walk skips (the event-only object being walked).
    skip: Option<Inst>,
    /// Why the walk stopped, as the last leg left it.
    stop: MoveStop,
    /// How deep in probes: only the walk itself (depth 0) records its stop and its trace.
    depth: u32,
    /// Whether objects take part ([`MoveOptions::terrain_only`] off).
    objects: bool,
    trace: Option<&'t mut Vec<Position>>,
}

impl World {
    /// Walks from `from` toward `to` by the server's rules (see the
    /// [module docs](crate::world::movement)), as `options` say: the start's surface, the
    /// distance guard, the object checks.
    ///
    /// # Errors
    /// See [`MoveError`].
    pub fn move_along(
        &self,
        from: Position,
        to: Position,
        options: &MoveOptions,
    ) -> Result<MoveOutcome, MoveError> {
        self.walk(from, to, options, None)
    }

    /// [`World::move_along`], also recording in `trace` (cleared first, and reused across
    /// calls) the points where the walk turned: the start, each nudged point where it entered
    /// a new cell (terrain or object), the points where it entered or left an object, and the
    /// stop. The walk goes straight between consecutive points (within the float rounding of
    /// an object's placement), which is what a picture or a check of the walk needs.
    ///
    /// # Errors
    /// As for [`World::move_along`]; `trace` then holds the points up to the failure.
    pub fn move_traced(
        &self,
        from: Position,
        to: Position,
        options: &MoveOptions,
        trace: &mut Vec<Position>,
    ) -> Result<MoveOutcome, MoveError> {
        trace.clear();
        self.walk(from, to, options, Some(trace))
    }

    fn walk(
        &self,
        from: Position,
        to: Position,
        options: &MoveOptions,
        trace: Option<&mut Vec<Position>>,
    ) -> Result<MoveOutcome, MoveError> {
        let from = from.normalized().ok_or(MoveError::StartNotWalkable)?;
        if from.region.is_dungeon() {
            let dungeon = self
                .dungeon(from.region)
                .ok_or(MoveError::StartNotWalkable)?;
            return dungeon.walk(from, to, options, trace);
        }
        if self.circles.is_empty() {
            return self.walk_objects(from, to, options, trace);
        }
        // On a dungeon's ground: the walk, then the first collision circle it would enter
        // before where it got to ([`super::circles`]).
        let mut walked_trace = Vec::new();
        let walked = self.walk_objects(from, to, options, Some(&mut walked_trace))?;
        let (dx, dz) = (to.world_x() - from.world_x(), to.world_z() - from.world_z());
        let length2 = dx * dx + dz * dz;
        let reached = if length2 == 0.0 {
            0.0
        } else {
            let (ex, ez) = (
                walked.position.world_x() - from.world_x(),
                walked.position.world_z() - from.world_z(),
            );
            ((ex * dx + ez * dz) / length2).clamp(0.0, 1.0)
        };
        match super::circles::first(&self.circles, from, to, reached) {
            Some((t, index)) if length2 > 0.0 => {
                let t = (t - super::circles::CIRCLE_STOP / length2.sqrt()).max(0.0);
                let stop = super::circles::along(from, to, t).ok_or(MoveError::OffMesh)?;
                let short = self.walk_objects(from, stop, options, trace)?;
                Ok(MoveOutcome {
                    stop: MoveStop::Circle { index },
                    ..short
                })
            }
            _ => {
                if let Some(trace) = trace {
                    trace.extend(walked_trace);
                }
                Ok(walked)
            }
        }
    }

    /// [`World::walk`] of a normalised start, without the collision circles.
    fn walk_objects(
        &self,
        from: Position,
        to: Position,
        options: &MoveOptions,
        mut trace: Option<&mut Vec<Position>>,
    ) -> Result<MoveOutcome, MoveError> {
        if let Some(trace) = trace.as_deref_mut() {
            trace.push(from);
        }
        let start = match options.start {
            _ if options.terrain_only => self.terrain_surface(from),
            Surface::Terrain => self.terrain_surface(from),
            Surface::Object(c) => self.on_object(from, c),
            surface => self.start_surface(from, surface.reference_height()),
        }
        .ok_or(MoveError::StartNotWalkable)?;
        let source = self.nav_pos(&start);
        if !to.x.is_finite() || !to.z.is_finite() {
            return Err(MoveError::OffMesh);
        }
        let goal_y = options
            .goal_y
            .or_else(|| {
                if options.terrain_only {
                    let to = to.normalized()?;
                    find_height(self.region(to.region)?, to.x, to.z)
                } else {
                    self.height_near(to, start.y)
                }
            })
            .unwrap_or(start.y);
        let mut walker = Walker {
            world: self,
            check: u32::from(options.object_checks),
            ctx: MoveContext::new(SERVER_BUDGET),
            skip: None,
            stop: MoveStop::Arrived,
            depth: 0,
            objects: !options.terrain_only,
            trace,
        };
        let dest = NavPos {
            region: to.region,
            p: [to.x, goal_y, to.z],
            cell: Cell::None,
            inst: None,
        };
        let end = walker.query(source, dest, options.guard)?;
        let position = Position::new(end.region, end.p[0], end.p[2]);
        if let Some(trace) = walker.trace.as_deref_mut() {
            trace.push(position);
        }
        Ok(MoveOutcome {
            position,
            height: end.p[1],
            cell: self.cell_of(&end).ok_or(MoveError::OffMesh)?,
            stop: walker.stop,
        })
    }

    /// The height a walk starts at: without a reference height, the highest object triangle
    /// under the point (of those its tile's cell lists), else the terrain's; with one, the
    /// height of the surface nearest it; `None` where no walk starts (a blocked tile without
    /// an object, outside the loaded regions).
    pub(crate) fn start_height_at(&self, from: Position, y: Option<f32>) -> Option<f32> {
        let from = from.normalized()?;
        if from.region.is_dungeon() {
            return self
                .dungeon(from.region)?
                .surface(from, y)
                .map(|c| c.height);
        }
        self.start_surface(from, y).map(|r| r.y)
    }

    /// The surface a walk starts on: by reference height, or the one [`World::cell_at`]
    /// picks, at its height; `None` when it has no cell.
    fn start_surface(&self, from: Position, y: Option<f32>) -> Option<Resolved> {
        let r = match y {
            Some(y) if y.is_finite() => self.find_nav_cell(from, y)?,
            Some(_) => return None,
            None => match self.highest_object(from) {
                Some(r) => r,
                None => self.terrain_surface(from)?,
            },
        };
        r.has_cell.then_some(r)
    }

    /// The terrain under a point as a walk's start, at the terrain's height; `None` on a
    /// blocked tile or outside the loaded regions.
    fn terrain_surface(&self, from: Position) -> Option<Resolved> {
        let slot = self.region_slot(from.region)?;
        let region = &self.regions[slot];
        let cell = self.tile_cell(region, from)?;
        Some(Resolved {
            slot,
            pos: from,
            quad: cell,
            object: None,
            y: find_height(region, from.x, from.z)?,
            has_cell: true,
        })
    }

    /// A resolved point as the server's moves carry it.
    fn nav_pos(&self, r: &Resolved) -> NavPos {
        let (cell, inst) = match r.object {
            Some((index, tri)) => {
                let p = self
                    .objects
                    .placement(r.slot, index)
                    .expect("a resolved object is placed");
                (
                    Cell::Tri { mesh: p.mesh, tri },
                    Some(Inst {
                        slot: r.slot,
                        index,
                    }),
                )
            }
            None => (
                Cell::Quad {
                    slot: r.slot,
                    cell: r.quad,
                },
                None,
            ),
        };
        NavPos {
            region: r.pos.region,
            p: [r.pos.x, r.y, r.pos.z],
            cell,
            inst,
        }
    }

    /// The cell a walk ends on, as a [`CellRef`].
    fn cell_of(&self, end: &NavPos) -> Option<CellRef> {
        match (end.cell, end.inst) {
            (Cell::Quad { slot, cell }, _) => Some(CellRef {
                region: self.regions[slot].id,
                cell,
                object: None,
            }),
            (Cell::Tri { tri, .. }, Some(inst)) => {
                let region = &self.regions[inst.slot];
                let (tx, tz) = (
                    super::height::tile_index(end.p[0]).clamp(0, 95) as usize,
                    super::height::tile_index(end.p[2]).clamp(0, 95) as usize,
                );
                Some(CellRef {
                    region: region.id,
                    cell: region.raw_tile_cell(tz * TILES_PER_SIDE + tx),
                    object: Some(ObjectCellRef {
                        instance: self.objects.placement(inst.slot, inst.index)?.key,
                        cell: tri as u16,
                    }),
                })
            }
            _ => None,
        }
    }
}

/// `v` in the frame of region `to` from the frame of region `from`, as the server converts:
/// `float(Δ) · 1920 + v` per axis.
fn reframe(p: &mut NavPos, to: RegionId) {
    if p.region != to {
        let dx = i32::from(p.region.x()) - i32::from(to.x());
        let dz = i32::from(p.region.z()) - i32::from(to.z());
        p.p[0] += dx as f32 * REGION_SIZE;
        p.p[2] += REGION_SIZE * dz as f32;
        p.region = to;
    }
}

impl Walker<'_, '_> {
    /// The server's `QueryMovement`.
    fn query(
        &mut self,
        mut source: NavPos,
        mut dest: NavPos,
        guard: DistanceGuard,
    ) -> Result<NavPos, MoveError> {
        if source.region == dest.region && source.p == dest.p {
            return Ok(source);
        }
        reframe(&mut dest, source.region);
        if guard.refuses(
            f64::from(dest.p[0]) - f64::from(source.p[0]),
            f64::from(dest.p[2]) - f64::from(source.p[2]),
        ) {
            return Err(MoveError::TooFar);
        }
        let dest_saved = dest;
        let mut legs = 0;
        let out = loop {
            legs += 1;
            dest.cell = source.cell;
            dest.inst = source.inst;
            let mover = match (source.inst, source.cell) {
                (Some(inst), _) => inst.slot,
                (None, Cell::Quad { slot, .. }) => slot,
                _ => return Err(MoveError::OffMesh),
            };
            let out = self.terrain_move(mover, &mut source, &mut dest);
            if out.bits & (bits::FAILED | bits::BLOCKED) != 0
                || out.bits & (bits::ENTERED | bits::LEFT) == 0
            {
                break out;
            }
            // Measured from the source as the move left it: in the object's own frame when
            // the leg was on an object, as in the server.
            if length_sq(sub3(dest_saved.p, source.p)) < LEG_DONE_SQ {
                self.stop = MoveStop::Transition;
                break out;
            }
            source = dest;
            dest = dest_saved;
            reframe(&mut dest, source.region);
            if legs >= MAX_LEGS {
                return Err(MoveError::ObjectRefused);
            }
        };
        if out.bits & bits::FAILED != 0 {
            return Err(out.fail.unwrap_or(MoveError::ObjectRefused));
        }
        let inside =
            (0.0..REGION_SIZE).contains(&dest.p[0]) && (0.0..REGION_SIZE).contains(&dest.p[2]);
        if !inside || dest.cell == Cell::None {
            return Err(MoveError::OffMesh);
        }
        Ok(dest)
    }

    fn record(&mut self, region: RegionId, x: f32, z: f32) {
        if self.depth == 0 {
            if let Some(trace) = self.trace.as_deref_mut() {
                trace.push(Position::new(region, x, z));
            }
        }
    }

    fn set_stop(&mut self, stop: MoveStop) {
        if self.depth == 0 {
            self.stop = stop;
        }
    }

    /// The server's terrain `Move` from `src` (region `slot`'s terrain) toward `dst`, across
    /// regions; `src` is left as the server leaves the caller's source (see the module docs),
    /// `dst` receives the stop.
    fn terrain_move(&mut self, slot: usize, src: &mut NavPos, dst: &mut NavPos) -> Out {
        let world = self.world;
        let mut s = *src;
        let mut d = *dst;
        let mut top = true;
        // An entry an object refused: the walk then heads for the point pushed off its edge.
        let mut refused_entry: Option<ObjectEdgeRef> = None;
        let mut watch = LoopWatch::default();
        let out = loop {
            if s.inst.is_some() {
                break self.object_leg(slot, &mut s, &mut d);
            }
            let dest_saved = d;
            let source_saved = s;
            let Cell::Quad { slot: qs, cell: qc } = s.cell else {
                break Out::fail(MoveError::OffMesh);
            };
            let region = &world.regions[qs];
            let mut best: Option<(f32, Out)> = None;
            self.depth += 1;
            let listed = if self.objects {
                region.objects_of_cell(qc)
            } else {
                &[]
            };
            for &k in listed {
                let inst = Inst { slot: qs, index: k };
                if self.skip == Some(inst) || world.objects.placement(qs, k).is_none() {
                    continue;
                }
                let (mut ps, mut pd) = (source_saved, dest_saved);
                let out = self.move_in_object(&mut ps, inst, true, self.check, &mut pd);
                if out.bits == 0 || out.bits == bits::NO_OBJECT_CELL {
                    continue;
                }
                let dist = length_sq(sub3(source_saved.p, pd.p));
                if best.map_or(true, |(b, _)| dist < b) {
                    best = Some((dist, out));
                    d = pd;
                    s = ps;
                }
            }
            self.depth -= 1;
            let mut n_best = 0;
            if let Some((_, out)) = best {
                n_best = out.bits;
                if out.bits & bits::FAILED != 0
                    || out.bits & bits::BLOCKED == 0
                    || self.check & 1 == 0
                {
                    if out.bits & bits::FAILED == 0 {
                        self.set_stop(MoveStop::Transition);
                        self.record(d.region, d.p[0], d.p[2]);
                    }
                    break out;
                }
                // Refused entry: the walk goes on over the terrain to the point pushed off the
                // edge, once the objects of the cell let it.
                if self.check_objects_on_path(&source_saved, &d, None) {
                    break Out::fail(MoveError::ObjectRefused);
                }
                s = source_saved;
                refused_entry = out.blocked;
            }
            d.inst = None;
            let rect = region.cells[usize::from(qc)];
            if inside(&rect, d.p[0], d.p[2]) {
                d.cell = Cell::Quad { slot: qs, cell: qc };
                set_height(region, &mut d);
                self.set_stop(match refused_entry {
                    Some(edge) => MoveStop::ObjectWall { edge },
                    None => MoveStop::Arrived,
                });
                break Out::bits(n_best);
            }
            let segment = [s.p[0], s.p[2], d.p[0], d.p[2]];
            match find_cross_edge(region, qc, &rect, &segment) {
                Cross::None => {
                    let c = nudge([rect.centre_x, rect.centre_z], [s.p[0], s.p[2]]);
                    (d.p[0], d.p[2]) = (c[0], c[1]);
                    set_height(region, &mut d);
                    d.cell = s.cell;
                    self.set_stop(MoveStop::NoEdge);
                    break Out::bits(n_best);
                }
                Cross::Inside => {
                    d.cell = s.cell;
                    self.set_stop(MoveStop::Arrived);
                    break Out::bits(n_best);
                }
                Cross::Edge { id, point } => {
                    let state = || {
                        let mut v = vec![qs as u32, u32::from(qc)];
                        v.extend(s.p.map(f32::to_bits));
                        v.extend(d.p.map(f32::to_bits));
                        v.push(u32::from(d.region.0));
                        v
                    };
                    if watch.step(state, &mut self.ctx.steps_left).is_err() {
                        break Out::fail(MoveError::StepLimit);
                    }
                    if self.ctx.steps_left == 0 {
                        // The server's budget ran out: it answers the goal.
                        self.set_stop(MoveStop::Looped);
                        break Out::bits(bits::STEPS);
                    }
                    self.ctx.steps_left -= 1;
                    let edge = region.edge(id);
                    if edge.flag & EDGE_BLOCKED != 0 {
                        let c = nudge([rect.centre_x, rect.centre_z], point);
                        (d.p[0], d.p[2]) = (c[0], c[1]);
                        d.cell = s.cell;
                        if self.check_objects_on_path(&s, &d, None) {
                            d.p = s.p;
                        } else {
                            set_height(region, &mut d);
                        }
                        self.set_stop(MoveStop::Wall {
                            region: region.id,
                            edge: id,
                        });
                        break Out::bits(bits::BLOCKED);
                    }
                    if let EdgeId::Global(_) = id {
                        (s.p[0], s.p[2]) = (point[0], point[1]);
                        let Some(next_id) = edge.region_b else {
                            break Out::fail(MoveError::MissingRegion(region.id));
                        };
                        let Some(next_slot) = world.region_slot(next_id) else {
                            break Out::fail(MoveError::MissingRegion(next_id));
                        };
                        let next = &world.regions[next_slot];
                        let next_cell = edge.cell[1];
                        let Some(next_rect) = next.cells.get(usize::from(next_cell)) else {
                            break Out::fail(MoveError::MissingRegion(next_id));
                        };
                        let offset_x = (i32::from(next_id.x()) - i32::from(region.id.x())) as f32
                            * REGION_SIZE;
                        let offset_z = REGION_SIZE
                            * (i32::from(next_id.z()) - i32::from(region.id.z())) as f32;
                        let mut c = point;
                        if offset_x.abs() > 1.0 {
                            c[0] = snap(c[0]);
                        }
                        if offset_z.abs() > 1.0 {
                            c[1] = snap(c[1]);
                        }
                        let mut new_dest = d;
                        let c = nudge([next_rect.centre_x, next_rect.centre_z], c);
                        (d.p[0], d.p[2]) = (c[0], c[1]);
                        d.cell = Cell::Quad {
                            slot: next_slot,
                            cell: next_cell,
                        };
                        d.region = next_id;
                        reframe(&mut new_dest, next_id);
                        if self.check & 1 != 0 {
                            let mut new_source = s;
                            new_source.cell = d.cell;
                            reframe(&mut new_source, next_id);
                            if self.check_objects_on_path(&new_source, &d, None) {
                                break Out::fail(MoveError::ObjectRefused);
                            }
                        }
                        self.record(d.region, d.p[0], d.p[2]);
                        if top {
                            *src = s;
                            top = false;
                        }
                        s = d;
                        d = new_dest;
                        continue;
                    }
                    let Some(next_cell) = other_cell(edge, qc) else {
                        break Out::fail(MoveError::OffMesh);
                    };
                    let Some(next_rect) = region.cells.get(usize::from(next_cell)) else {
                        break Out::fail(MoveError::OffMesh);
                    };
                    let c = nudge([next_rect.centre_x, next_rect.centre_z], point);
                    (s.p[0], s.p[2]) = (c[0], c[1]);
                    if self.check & 1 != 0
                        && self.check_objects_on_path(&source_saved, &s, self.skip)
                    {
                        break Out::fail(MoveError::ObjectRefused);
                    }
                    s.cell = Cell::Quad {
                        slot: qs,
                        cell: next_cell,
                    };
                    self.record(region.id, s.p[0], s.p[2]);
                }
            }
        };
        *dst = d;
        if top {
            *src = s;
        }
        out
    }

    /// The end of the terrain `Move` for a walker on an object: an event-only object lets
    /// the walk through only where the terrain under it does; then the object's move.
    fn object_leg(&mut self, slot: usize, s: &mut NavPos, d: &mut NavPos) -> Out {
        let world = self.world;
        let inst = s.inst.expect("on an object");
        let Some(p) = world.objects.placement(inst.slot, inst.index) else {
            return Out::fail(MoveError::ObjectRefused);
        };
        if world.objects.server_mesh(p).event_only {
            let region = &world.regions[slot];
            let mut es = *s;
            let mut ed = *d;
            es.inst = None;
            es.cell = match cell_at_point(region, es.p) {
                Some(cell) => Cell::Quad { slot, cell },
                None => return Out::fail(MoveError::OffMesh),
            };
            let saved = self.ctx;
            self.skip = Some(inst);
            self.depth += 1;
            let out = self.terrain_move(slot, &mut es, &mut ed);
            self.depth -= 1;
            self.skip = None;
            self.ctx = saved;
            if out.bits & (bits::FAILED | bits::BLOCKED) != 0 {
                return Out::fail(out.fail.unwrap_or(MoveError::ObjectRefused));
            }
        }
        self.move_in_object(s, inst, false, self.check, d)
    }

    /// The server's `MoveInObject`: the move of `src` toward `dst` on (or into) instance
    /// `inst`, in its frame, then back into the region's; over a link edge onto the linked
    /// object; into the neighbour region's record of the instance when the stop left the
    /// region; onto the terrain when the walker left the object. A probe with nothing to
    /// report leaves both positions as they were; otherwise `src` is left in the object's
    /// frame, as the server leaves it.
    fn move_in_object(
        &mut self,
        src: &mut NavPos,
        inst: Inst,
        probe: bool,
        check: u32,
        dst: &mut NavPos,
    ) -> Out {
        let world = self.world;
        let objects = &world.objects;
        let Some(p) = objects.placement(inst.slot, inst.index) else {
            return Out::fail(MoveError::ObjectRefused);
        };
        let mesh = objects.server_mesh(p);
        let src_local = transform(&p.to_local, src.p);
        let mut dst_local = transform(&p.to_local, dst.p);
        let on = match src.cell {
            Cell::Tri { mesh: m, tri } if m == p.mesh => Some(tri),
            _ => None,
        };
        self.ctx.blocked_by = None;
        let tracing = !probe && self.depth == 0 && self.trace.is_some();
        let mut local_trace = Vec::new();
        let (result, end) = mesh.object_move(
            check,
            on,
            src_local,
            &mut dst_local,
            &mut self.ctx,
            tracing.then_some(&mut local_trace),
        );
        let edge_ref = |key: EdgeKey| ObjectEdgeRef {
            instance: p.key,
            kind: if key.group == 0 {
                ObjectEdgeKind::Outline
            } else {
                ObjectEdgeKind::Inline
            },
            edge: key.index as u16,
        };
        let blocked = self.ctx.blocked_by.map(edge_ref);
        if result == 0 && probe {
            return Out::bits(0);
        }
        if self.ctx.gave_up {
            return Out::fail(MoveError::StepLimit);
        }
        for q in local_trace {
            let w = transform(&p.to_world, [q[0], 0.0, q[1]]);
            self.record(src.region, w[0], w[2]);
        }
        src.p = src_local;
        dst.cell = match end {
            ObjectEnd::Tri(tri) => Cell::Tri { mesh: p.mesh, tri },
            ObjectEnd::Left => Cell::None,
            ObjectEnd::Source => src.cell,
        };
        if result & bits::ENTERED != 0 {
            dst.inst = Some(inst);
        }
        dst.p = transform(&p.to_world, dst_local);
        let out = |bits: u32| Out {
            bits,
            fail: None,
            blocked,
        };
        // The instance the walker is on, which the server looks up again by key when the
        // walk left the region: the one it started the leg on, even when it stepped over a
        // link onto another (so the server's walk stops there). A dungeon's ground has no
        // regions in the server, so there the walker keeps the one it stepped onto.
        let mut key = p.key;
        if result & bits::LINK != 0 {
            let edge = self.ctx.link_edge;
            if edge >= 0xFFFF {
                return Out::fail(MoveError::ObjectRefused);
            }
            let link = p.links.iter().find(|l| u32::from(l[2]) == edge);
            let Some(&[other_index, other_edge, _]) = link else {
                return Out::fail(MoveError::ObjectRefused);
            };
            let Some(other) = objects.placement(inst.slot, other_index) else {
                return Out::fail(MoveError::ObjectRefused);
            };
            let mut local = transform(&other.to_local, dst.p);
            let entry = objects
                .server_mesh(other)
                .find_link_entry_cell(u32::from(other_edge), &mut local);
            dst.cell = match entry {
                Some(tri) => Cell::Tri {
                    mesh: other.mesh,
                    tri,
                },
                None => Cell::None,
            };
            dst.p = transform(&other.to_world, local);
            dst.inst = Some(Inst {
                slot: inst.slot,
                index: other_index,
            });
            if world.is_dungeon_ground {
                key = other.key;
            }
        }
        let mut slot = inst.slot;
        if wrap_outdoor(dst) {
            let Some(next) = world.region_slot(dst.region) else {
                return Out::fail(MoveError::MissingRegion(dst.region));
            };
            slot = next;
            if dst.cell != Cell::None {
                let found = objects
                    .region_list(slot)
                    .iter()
                    .enumerate()
                    .find_map(|(i, q)| q.as_ref().filter(|q| q.key == key).map(|q| (i, q)));
                let Some((index, other)) = found else {
                    return Out::fail(MoveError::ObjectRefused);
                };
                let other_mesh = objects.server_mesh(other);
                let before = dst.p;
                match crate::objects::placement_find_cell(other_mesh, other, dst.p) {
                    None => {
                        let local = transform(&other.to_local, dst.p);
                        return if other_mesh.contains(local[0], local[2]) {
                            Out::fail(MoveError::ObjectRefused)
                        } else {
                            Out::bits(bits::NO_OBJECT_CELL)
                        };
                    }
                    Some((tri, y)) => {
                        dst.p[1] = y;
                        dst.cell = Cell::Tri {
                            mesh: other.mesh,
                            tri,
                        };
                        if length_sq(sub3(before, dst.p)) > 1.0 {
                            return Out::fail(MoveError::ObjectRefused);
                        }
                        dst.inst = Some(Inst {
                            slot,
                            index: index as u16,
                        });
                    }
                }
            }
        }
        if !probe {
            self.set_stop(match blocked {
                Some(edge) if result & bits::BLOCKED != 0 => MoveStop::ObjectWall { edge },
                _ if result & bits::STEPS != 0 => MoveStop::Looped,
                _ if result & (bits::ENTERED | bits::LEFT) != 0 => MoveStop::Transition,
                _ => MoveStop::Arrived,
            });
        }
        if let Cell::Tri { .. } = dst.cell {
            return out(result);
        }
        let region = &world.regions[slot];
        if !walkable_tile(region, dst.p) {
            return Out::fail(MoveError::OffMesh);
        }
        set_height(region, dst);
        dst.cell = match cell_at_point(region, dst.p) {
            Some(cell) => Cell::Quad { slot, cell },
            None => Cell::None,
        };
        dst.inst = None;
        out(result)
    }

    /// The server's `CheckObjectsOnPath`: whether any object the cell of `src` lists (but
    /// `skip`) reports anything for the step `src → dst`, probed with the object checks on.
    fn check_objects_on_path(&mut self, src: &NavPos, dst: &NavPos, skip: Option<Inst>) -> bool {
        let Cell::Quad { slot, cell } = src.cell else {
            return false;
        };
        if !self.objects {
            return false;
        }
        let world = self.world;
        let saved = self.ctx;
        self.ctx = MoveContext::new(SERVER_BUDGET);
        self.depth += 1;
        let mut found = false;
        for &k in world.regions[slot].objects_of_cell(cell) {
            let inst = Inst { slot, index: k };
            if skip == Some(inst) || world.objects.placement(slot, k).is_none() {
                continue;
            }
            let (mut s, mut d) = (*src, *dst);
            if self.move_in_object(&mut s, inst, true, 1, &mut d).bits != 0 {
                found = true;
                break;
            }
        }
        self.depth -= 1;
        self.ctx = saved;
        found
    }
}

/// Whether local (x, z) is in the half-open rectangle.
fn inside(r: &CellRect, x: f32, z: f32) -> bool {
    r.min_x <= x && x < r.max_x && r.min_z <= z && z < r.max_z
}

/// The terrain height at a position's x, z (the server's `FindHeight`: unchanged outside the
/// tiles).
fn set_height(region: &Region, p: &mut NavPos) {
    if let Some(y) = find_height(region, p.p[0], p.p[2]) {
        p.p[1] = y;
    }
}

/// The server's `GetCellAt`: the cell of the tile under a point in the region's square, open
/// or closed, when it exists.
fn cell_at_point(region: &Region, p: Vec3) -> Option<u16> {
    if !((0.0..REGION_SIZE).contains(&p[0]) && (0.0..REGION_SIZE).contains(&p[2])) {
        return None;
    }
    let (tx, tz) = (
        super::height::tile_index(p[0]) as usize,
        super::height::tile_index(p[2]) as usize,
    );
    let cell = region.raw_tile_cell(tz * TILES_PER_SIDE + tx);
    (usize::from(cell) < region.cells.len()).then_some(cell)
}

/// Whether the tile under a point is walkable (the server's tile flag test: a tile outside
/// the region's 96 × 96 counts as blocked).
fn walkable_tile(region: &Region, p: Vec3) -> bool {
    let (tx, tz) = (
        super::height::tile_index(p[0]),
        super::height::tile_index(p[2]),
    );
    let n = TILES_PER_SIDE as i32;
    (0..n).contains(&tx) && (0..n).contains(&tz) && region.is_open_tile(tx as usize, tz as usize)
}

/// The server's `NavPos_WrapOutdoor`: one region step on x, then on z (a step on z returns at
/// once), the region's bytes wrapping as the server's do; whether anything changed.
fn wrap_outdoor(p: &mut NavPos) -> bool {
    let [mut x, mut z] = p.region.0.to_le_bytes();
    let mut changed = false;
    if !(0.0 <= p.p[0]) {
        x = x.wrapping_sub(1);
        p.p[0] += REGION_SIZE;
        changed = true;
    } else if !(REGION_SIZE > p.p[0]) {
        x = x.wrapping_add(1);
        p.p[0] -= REGION_SIZE;
        changed = true;
    }
    if !(0.0 <= p.p[2]) {
        p.p[2] += REGION_SIZE;
        z = z.wrapping_sub(1);
        changed = true;
    } else if !(p.p[2] < REGION_SIZE) {
        p.p[2] -= REGION_SIZE;
        z = z.wrapping_add(1);
        changed = true;
    }
    p.region = RegionId(u16::from(z) << 8 | u16::from(x));
    changed
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
    Edge { id: EdgeId, point: Vec2 },
}

/// The server's `FindCrossEdge` on a cell.
fn find_cross_edge(region: &Region, cell: u16, rect: &CellRect, segment: &[f32; 4]) -> Cross {
    let edges = region.edges_of_cell(cell);
    let mut inside_count = 0;
    let (start, end) = ([segment[0], segment[1]], [segment[2], segment[3]]);
    for &id in edges {
        let edge = region.edge(id);
        // A point on the edge's line counts with the right-hand side, as in the server.
        let end_side = if arith::side_test(edge.a, edge.b, end) == 2 {
            1
        } else {
            -1
        };
        let start_side = if arith::side_test(edge.a, edge.b, start) == 2 {
            1
        } else {
            -1
        };
        if start_side * end_side < 0 {
            let line = [edge.a[0], edge.a[1], edge.b[0], edge.b[1]];
            if let (2 | 3, Some(point)) = arith::intersect(&line, segment) {
                return Cross::Edge { id, point };
            }
        } else if inside(rect, start[0], start[1]) && inside(rect, end[0], end[1]) {
            inside_count += 1;
        }
    }
    if inside_count == edges.len() {
        Cross::Inside
    } else {
        Cross::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapping_at_region_borders() {
        assert_eq!(snap(1920.0), 0.0);
        assert_eq!(snap(1919.995), 0.0);
        assert_eq!(snap(0.0), REGION_EDGE_MAX);
        assert_eq!(snap(500.0), 500.0);
    }

    #[test]
    fn wrapping_steps_one_region_and_wraps_the_bytes() {
        let mut p = NavPos {
            region: RegionId::new(0, 5),
            p: [-1.0, 0.0, 1925.0],
            cell: Cell::None,
            inst: None,
        };
        assert!(wrap_outdoor(&mut p));
        assert_eq!((p.region.x(), p.region.z()), (255, 6));
        assert_eq!((p.p[0], p.p[2]), (1919.0, 5.0));
        assert!(!wrap_outdoor(&mut p));
    }
}
