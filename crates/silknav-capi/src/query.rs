//! The queries, one at a time, in world coordinates (`x = region_x·1920 + local_x`, likewise
//! `z`), with the answers of the command line (`silknav::query`).

use crate::error::{guard, silknav_status, Failure, SILKNAV_NO, SILKNAV_OK};
use crate::pointers;
use crate::world::silknav_world;
use silknav::objects::walk::{ObjectEdgeKind, ObjectEdgeRef};
use silknav::query::{self, PointQuery, SegmentQuery};
use silknav::world::{
    movement::{DistanceGuard, MoveError, MoveOptions, MoveStop},
    raycast::RayError,
    snap::Snap,
    EdgeId,
};
use silknav::{CellRef, PathError, PathOptions, PathScratch, Position, Surface, WorldPath};

/// Why an answer is "no", in the results' `reason` fields; `silknav_reason_word` gives the
/// command line's word for each.
#[allow(non_camel_case_types)]
pub type silknav_reason = i32;

/// No reason: the answer is "yes" (or, for `silknav_raycast`, the segment was blocked at
/// the hit).
pub const SILKNAV_REASON_NONE: silknav_reason = 0;
/// `start-blocked`: the start is not on walkable ground (or outside the id space).
pub const SILKNAV_REASON_START_BLOCKED: silknav_reason = 1;
/// `goal-blocked`: a path's goal is not on walkable ground.
pub const SILKNAV_REASON_GOAL_BLOCKED: silknav_reason = 2;
/// `unreachable`: no path joins start and goal.
pub const SILKNAV_REASON_UNREACHABLE: silknav_reason = 3;
/// `budget-exceeded`: the search expanded more corners than its budget allows.
pub const SILKNAV_REASON_BUDGET_EXCEEDED: silknav_reason = 4;
/// `bad-end`: a segment's end is outside the terrain id space.
pub const SILKNAV_REASON_BAD_END: silknav_reason = 5;
/// `off-mesh`: the walk would end off the walkable ground.
pub const SILKNAV_REASON_OFF_MESH: silknav_reason = 6;
/// `missing-region`: the walk leads into a region that is not loaded.
pub const SILKNAV_REASON_MISSING_REGION: silknav_reason = 7;
/// `step-limit`: the walk's edges loop.
pub const SILKNAV_REASON_STEP_LIMIT: silknav_reason = 8;
/// `too-far`: the server's distance guard refuses a goal this far from the start.
pub const SILKNAV_REASON_TOO_FAR: silknav_reason = 9;
/// `object-refused`: an object's own walk fails the move, as the server's does.
pub const SILKNAV_REASON_OBJECT_REFUSED: silknav_reason = 10;
/// `not-walkable`: a walkable path could not be made of legs the server's walk accepts (an
/// exact path, `SILKNAV_PATH_EXACT`, may still exist).
pub const SILKNAV_REASON_NOT_WALKABLE: silknav_reason = 11;
/// A reason this version has no code for.
pub const SILKNAV_REASON_OTHER: silknav_reason = 99;

const REASON_WORDS: [&std::ffi::CStr; 12] = [
    c"",
    c"start-blocked",
    c"goal-blocked",
    c"unreachable",
    c"budget-exceeded",
    c"bad-end",
    c"off-mesh",
    c"missing-region",
    c"step-limit",
    c"too-far",
    c"object-refused",
    c"not-walkable",
];

/// The command line's word for a reason (`"start-blocked"`, ...), `""` for
/// `SILKNAV_REASON_NONE`, `"other"` for a code it does not know. A static string: never free
/// it.
#[no_mangle]
pub extern "C" fn silknav_reason_word(reason: silknav_reason) -> *const std::ffi::c_char {
    usize::try_from(reason)
        .ok()
        .and_then(|i| REASON_WORDS.get(i))
        .copied()
        .unwrap_or(c"other")
        .as_ptr()
}

/// The code of a library word, or `SILKNAV_REASON_OTHER`.
fn reason_of(word: &str) -> silknav_reason {
    REASON_WORDS
        .iter()
        .position(|w| w.to_bytes() == word.as_bytes())
        .map_or(SILKNAV_REASON_OTHER, |i| i as silknav_reason)
}

/// `silknav_edge.kind`: no edge.
pub const SILKNAV_EDGE_NONE: u8 = 0;
/// `silknav_edge.kind`: an edge of the region file's internal edges.
pub const SILKNAV_EDGE_INTERNAL: u8 = 1;
/// `silknav_edge.kind`: an edge of the region file's global (border) edges.
pub const SILKNAV_EDGE_GLOBAL: u8 = 2;
/// `silknav_object_edge.kind`: no object edge.
pub const SILKNAV_OBJECT_EDGE_NONE: u8 = 0;
/// `silknav_object_edge.kind`: an outline edge of the object's mesh.
pub const SILKNAV_OBJECT_EDGE_OUTLINE: u8 = 1;
/// `silknav_object_edge.kind`: an inline edge of the object's mesh.
pub const SILKNAV_OBJECT_EDGE_INLINE: u8 = 2;

/// `silknav_move_result.stop`: the walk reached the goal (`arrived`).
pub const SILKNAV_STOP_ARRIVED: i32 = 0;
/// `silknav_move_result.stop`: a wall stopped it (`wall`); `edge` names the wall.
pub const SILKNAV_STOP_WALL: i32 = 1;
/// `silknav_move_result.stop`: it left its cell where the file has no edge (`no-edge`).
pub const SILKNAV_STOP_NO_EDGE: i32 = 2;
/// `silknav_move_result.stop`: an object's edge stopped it (`object-wall`): an entry or exit it
/// refuses, or an inline edge blocking the direction.
pub const SILKNAV_STOP_OBJECT_WALL: i32 = 3;
/// `silknav_move_result.stop`: it stopped where it entered or left an object, the goal within
/// the server's 5 units (`transition`).
pub const SILKNAV_STOP_TRANSITION: i32 = 4;
/// `silknav_move_result.stop`: it circled until the server's step budget ran out (`looped`).
pub const SILKNAV_STOP_LOOPED: i32 = 5;
/// `silknav_move_result.stop`: in a dungeon, it stopped short of a collision circle
/// (`circle`).
pub const SILKNAV_STOP_CIRCLE: i32 = 6;

/// `silknav_move_with` flag: refuse goals more than 1920 units from the start along x or z
/// either way (`--guard symmetric`), not only east or north as the server does.
pub const SILKNAV_MOVE_GUARD_SYMMETRIC: u32 = 1;
/// `silknav_move_with` flag: refuse no goal for its distance (`--guard off`).
pub const SILKNAV_MOVE_GUARD_OFF: u32 = 2;
/// `silknav_move_with` flag: objects refuse no entry and no exit (`--no-object-checks`, the
/// server's movement flag 0).
pub const SILKNAV_MOVE_NO_OBJECT_CHECKS: u32 = 4;

/// The cell under a point.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct silknav_cell_result {
    /// The region id (`(z << 8) | x`, the `XXXX` of `nv_XXXX.nvm`).
    pub region: u16,
    /// The cell's index in the region's file (on an object, the terrain cell of the tile).
    pub cell: u16,
    /// Whether the point is on an object triangle; then the three fields below name it.
    pub on_object: bool,
    /// The object instance's owner region.
    pub object_owner: u16,
    /// The object instance's uid in its owner region.
    pub object_uid: u16,
    /// The triangle's index in the object's mesh.
    pub object_cell: u16,
}

impl From<CellRef> for silknav_cell_result {
    fn from(c: CellRef) -> silknav_cell_result {
        let object = c.object;
        silknav_cell_result {
            region: c.region.0,
            cell: c.cell,
            on_object: object.is_some(),
            object_owner: object.map_or(0, |o| o.instance.owner().0),
            object_uid: object.map_or(0, |o| o.instance.uid()),
            object_cell: object.map_or(0, |o| o.cell),
        }
    }
}

/// A terrain edge: the region whose file holds it, which list, which index.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct silknav_edge {
    /// `SILKNAV_EDGE_NONE`, `SILKNAV_EDGE_INTERNAL` or `SILKNAV_EDGE_GLOBAL`.
    pub kind: u8,
    /// The region whose file holds the edge.
    pub region: u16,
    /// The edge's index in that list of the file.
    pub index: u32,
}

impl silknav_edge {
    fn new(edge: Option<(jmxv::RegionId, EdgeId)>) -> silknav_edge {
        match edge {
            None => silknav_edge::default(),
            Some((region, EdgeId::Internal(index))) => silknav_edge {
                kind: SILKNAV_EDGE_INTERNAL,
                region: region.0,
                index,
            },
            Some((region, EdgeId::Global(index))) => silknav_edge {
                kind: SILKNAV_EDGE_GLOBAL,
                region: region.0,
                index,
            },
        }
    }
}

/// An edge of an object's mesh.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct silknav_object_edge {
    /// `SILKNAV_OBJECT_EDGE_NONE`, `_OUTLINE` or `_INLINE`.
    pub kind: u8,
    /// The instance's owner region.
    pub owner: u16,
    /// The instance's uid in its owner region.
    pub uid: u16,
    /// The edge's index in that list of the mesh.
    pub index: u16,
}

impl silknav_object_edge {
    fn new(edge: Option<ObjectEdgeRef>) -> silknav_object_edge {
        edge.map_or_else(silknav_object_edge::default, |e| silknav_object_edge {
            kind: match e.kind {
                ObjectEdgeKind::Outline => SILKNAV_OBJECT_EDGE_OUTLINE,
                ObjectEdgeKind::Inline => SILKNAV_OBJECT_EDGE_INLINE,
            },
            owner: e.instance.owner().0,
            uid: e.instance.uid(),
            index: e.edge,
        })
    }
}

/// Where a segment is blocked, or why it cannot be cast.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct silknav_hit {
    /// `SILKNAV_REASON_NONE` when the segment was blocked (the fields below say where), or
    /// `SILKNAV_REASON_START_BLOCKED` / `SILKNAV_REASON_BAD_END` when it cannot be cast.
    pub reason: silknav_reason,
    /// World x of the first blocking point.
    pub x: f64,
    /// World z of the first blocking point.
    pub z: f64,
    /// How far along the segment: 0 at the start, 1 at the end.
    pub t: f64,
    /// The terrain wall (kind `SILKNAV_EDGE_NONE` where the ground ends without a stored
    /// wall, or an object edge blocks).
    pub edge: silknav_edge,
    /// The object edge that blocks (kind `SILKNAV_OBJECT_EDGE_NONE` when none does).
    pub object_edge: silknav_object_edge,
    /// The wall's unit normal (x, z), facing the start.
    pub normal: [f32; 2],
}

/// Where a walk stops, or why it fails.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct silknav_move_result {
    /// `SILKNAV_REASON_NONE` when the walk was made, else why it fails
    /// (`_START_BLOCKED`, `_OFF_MESH`, `_MISSING_REGION`, `_STEP_LIMIT`).
    pub reason: silknav_reason,
    /// For `SILKNAV_REASON_MISSING_REGION`: the region the walk leads into.
    pub missing_region: u16,
    /// World x of the stop.
    pub x: f64,
    /// World z of the stop.
    pub z: f64,
    /// The ground height at the stop.
    pub height: f32,
    /// `SILKNAV_STOP_ARRIVED`, `SILKNAV_STOP_WALL`, `SILKNAV_STOP_NO_EDGE`,
    /// `SILKNAV_STOP_OBJECT_WALL`, `SILKNAV_STOP_TRANSITION`, `SILKNAV_STOP_LOOPED` or
    /// `SILKNAV_STOP_CIRCLE`.
    pub stop: i32,
    /// The wall, for `SILKNAV_STOP_WALL`.
    pub edge: silknav_edge,
    /// The object's edge, for `SILKNAV_STOP_OBJECT_WALL`.
    pub object_edge: silknav_object_edge,
    /// The cell the walk ends in, as `silknav_cell` names cells (the walk's own cell, which
    /// the server keeps).
    pub cell: silknav_cell_result,
}

/// A shortest path, or why there is none.
///
/// `waypoints` is owned by silknav: free it with `silknav_path_free`, once, and do not
/// change `waypoints` or `count` before that. A result with no path has `waypoints` NULL
/// and `count` 0 (freeing it is allowed and does nothing).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug)]
pub struct silknav_path {
    /// `SILKNAV_REASON_NONE` when a path was found, else `_START_BLOCKED`, `_GOAL_BLOCKED`,
    /// `_UNREACHABLE`, `_BUDGET_EXCEEDED` or `_NOT_WALKABLE`.
    pub reason: silknav_reason,
    /// The length in world units (the sum of the legs: for a walkable path, the walked
    /// polyline's); 0 without a path.
    pub length: f64,
    /// The exact optimum's length (equal to `length` for an exact path); 0 without a path.
    pub exact_length: f64,
    /// The number of waypoints, start and goal included; 0 without a path.
    pub count: usize,
    /// `2 * count` doubles: x0, z0, x1, z1, ... in world coordinates.
    pub waypoints: *mut f64,
}

impl silknav_path {
    /// A result without a path.
    pub(crate) const EMPTY: silknav_path = silknav_path {
        reason: SILKNAV_REASON_NONE,
        length: 0.0,
        exact_length: 0.0,
        count: 0,
        waypoints: std::ptr::null_mut(),
    };

    /// The result of a search: the waypoints moved to the heap in one block C can hold.
    pub(crate) fn new(found: Result<WorldPath, PathError>) -> silknav_path {
        match found {
            Ok(path) => {
                let flat: Box<[f64]> = path
                    .waypoints
                    .iter()
                    .flat_map(|w| [w.world_x(), w.world_z()])
                    .collect();
                silknav_path {
                    reason: SILKNAV_REASON_NONE,
                    length: path.length,
                    exact_length: path.exact_length,
                    count: path.waypoints.len(),
                    waypoints: Box::into_raw(flat).cast::<f64>(),
                }
            }
            Err(e) => silknav_path {
                reason: reason_of(e.word()),
                ..silknav_path::EMPTY
            },
        }
    }

    /// Frees the waypoints and leaves an empty result.
    ///
    /// # Safety
    /// `waypoints` and `count` are as [`silknav_path::new`] made them, not freed yet.
    pub(crate) unsafe fn release(&mut self) {
        if !self.waypoints.is_null() {
            let flat = std::ptr::slice_from_raw_parts_mut(self.waypoints, 2 * self.count);
            // SAFETY: the pointer and length of the boxed slice `new` leaked, by the
            // caller's promise; freed once, since the fields are cleared below.
            drop(unsafe { Box::from_raw(flat) });
        }
        *self = silknav_path {
            reason: self.reason,
            ..silknav_path::EMPTY
        };
    }
}

/// The status of an answer: yes or no.
fn yes_if(yes: bool) -> silknav_status {
    if yes {
        SILKNAV_OK
    } else {
        SILKNAV_NO
    }
}

/// A live world from a handle, and the dungeon its queries are in.
///
/// # Safety
/// `world` is NULL or a live handle.
unsafe fn world_of<'a>(
    world: *const silknav_world,
) -> Result<(&'a silknav::World, Option<u16>), Failure> {
    // SAFETY: the caller's promise on `world`.
    unsafe { nav_of(world) }.map(|(nav, dungeon)| (nav.world(), dungeon))
}

/// A live world from a handle, the dungeon its queries are in, and the place of the answer:
/// the single calls' common start (`out` is not written).
///
/// # Safety
/// `world` is NULL or a live handle; `out` is NULL or points to a writable `T`.
unsafe fn world_and_out<'a, T>(
    world: *const silknav_world,
    out: *mut T,
) -> Result<(&'a silknav::World, Option<u16>, &'a mut T), Failure> {
    // SAFETY: the caller's promise on `world`.
    let (world, dungeon) = unsafe { world_of(world) }?;
    // SAFETY: the caller's promise on `out`.
    let out = unsafe { pointers::exclusive(out, "out") }?;
    Ok((world, dungeon, out))
}

/// A live world and its path index from a handle, and the dungeon its queries are in.
///
/// # Safety
/// `world` is NULL or a live handle.
unsafe fn nav_of<'a>(
    world: *const silknav_world,
) -> Result<(&'a silknav::Navigator, Option<u16>), Failure> {
    // SAFETY: the caller's promise on `world`.
    unsafe { pointers::shared(world, "world") }.map(|w| (&*w.nav, w.dungeon))
}

/// The cell under (x, z), as `silknav cell X Z`: `SILKNAV_OK` with `*out` filled, or
/// `SILKNAV_NO` (and `*out` zeroed) on a blocked tile without an object or outside the
/// loaded regions. The highest object triangle wins over the terrain.
///
/// # Safety
/// `world` is NULL or a live handle; `out` is NULL or points to a writable `silknav_cell_result`.
#[no_mangle]
pub unsafe extern "C" fn silknav_cell(
    world: *const silknav_world,
    x: f64,
    z: f64,
    out: *mut silknav_cell_result,
) -> silknav_status {
    // SAFETY: the caller's promises.
    guard(|| unsafe { point_query(world, x, z, None, out, cell_of, Default::default()) })
}

/// `silknav_cell` at reference height `y` (`silknav cell X Z --y Y`): the object floor or
/// ground whose height is closest to `y`.
///
/// # Safety
/// As for `silknav_cell`.
#[no_mangle]
pub unsafe extern "C" fn silknav_cell_y(
    world: *const silknav_world,
    x: f64,
    z: f64,
    y: f32,
    out: *mut silknav_cell_result,
) -> silknav_status {
    // SAFETY: the caller's promises.
    guard(|| unsafe { point_query(world, x, z, Some(y), out, cell_of, Default::default()) })
}

/// The cell answer of a point: [`query::cell`] as C's result.
fn cell_of(world: &silknav::World, point: PointQuery) -> Option<silknav_cell_result> {
    query::cell(world, point).map(silknav_cell_result::from)
}

/// The ground height at (x, z) as the game server computes it (`silknav height X Z`):
/// `SILKNAV_OK` with `*out` set, or `SILKNAV_NO` (and `*out` NaN) outside the loaded
/// regions. The terrain's height, even under an object.
///
/// # Safety
/// `world` is NULL or a live handle; `out` is NULL or points to a writable `float`.
#[no_mangle]
pub unsafe extern "C" fn silknav_height(
    world: *const silknav_world,
    x: f64,
    z: f64,
    out: *mut f32,
) -> silknav_status {
    // SAFETY: the caller's promises.
    guard(|| unsafe { point_query(world, x, z, None, out, query::height, f32::NAN) })
}

/// `silknav_height` at reference height `y` (`silknav height X Z --y Y`): the height of the
/// object floor or ground nearest `y`.
///
/// # Safety
/// As for `silknav_height`.
#[no_mangle]
pub unsafe extern "C" fn silknav_height_y(
    world: *const silknav_world,
    x: f64,
    z: f64,
    y: f32,
    out: *mut f32,
) -> silknav_status {
    // SAFETY: the caller's promises.
    guard(|| unsafe { point_query(world, x, z, Some(y), out, query::height, f32::NAN) })
}

/// The point calls' common body: (x, z) at reference height `y` asked of the handle's
/// world, in its dungeon, by `ask`, and the answer written to `*out`: `SILKNAV_OK`, or
/// `SILKNAV_NO` with `none` in `*out` where `ask` has no answer.
///
/// # Safety
/// `world` is NULL or a live handle; `out` is NULL or points to a writable `T`.
unsafe fn point_query<T>(
    world: *const silknav_world,
    x: f64,
    z: f64,
    y: Option<f32>,
    out: *mut T,
    ask: fn(&silknav::World, PointQuery) -> Option<T>,
    none: T,
) -> Result<silknav_status, Failure> {
    // SAFETY: the caller's promises on `world` and `out`.
    let (world, dungeon, out) = unsafe { world_and_out(world, out) }?;
    let answer = ask(world, PointQuery { x, z, y, dungeon });
    let status = yes_if(answer.is_some());
    *out = answer.unwrap_or(none);
    Ok(status)
}

/// Line of sight from (x1, z1) to (x2, z2) (`silknav los`): `SILKNAV_OK` when it is clear
/// (`*out` zeroed), `SILKNAV_NO` when it is blocked (`out->reason` is
/// `SILKNAV_REASON_NONE` and the hit is filled in) or cannot be cast (`out->reason` is
/// `SILKNAV_REASON_START_BLOCKED` or `SILKNAV_REASON_BAD_END`).
///
/// # Safety
/// `world` is NULL or a live handle; `out` is NULL or points to a writable `silknav_hit`.
#[no_mangle]
pub unsafe extern "C" fn silknav_raycast(
    world: *const silknav_world,
    x1: f64,
    z1: f64,
    x2: f64,
    z2: f64,
    out: *mut silknav_hit,
) -> silknav_status {
    // SAFETY: the caller's promises.
    guard(|| unsafe { raycast_query(world, SegmentQuery::new(x1, z1, x2, z2), out) })
}

/// `silknav_raycast` starting on the object floor or ground nearest `y` (`silknav los
/// --y Y`).
///
/// # Safety
/// As for `silknav_raycast`.
#[no_mangle]
pub unsafe extern "C" fn silknav_raycast_y(
    world: *const silknav_world,
    x1: f64,
    z1: f64,
    x2: f64,
    z2: f64,
    y: f32,
    out: *mut silknav_hit,
) -> silknav_status {
    let segment = SegmentQuery {
        y: Some(y),
        ..SegmentQuery::new(x1, z1, x2, z2)
    };
    // SAFETY: the caller's promises.
    guard(|| unsafe { raycast_query(world, segment, out) })
}

/// # Safety
/// As for `silknav_raycast`.
unsafe fn raycast_query(
    world: *const silknav_world,
    segment: SegmentQuery,
    out: *mut silknav_hit,
) -> Result<silknav_status, Failure> {
    // SAFETY: the caller's promises on `world` and `out`.
    let (world, dungeon, out) = unsafe { world_and_out(world, out) }?;
    *out = silknav_hit::default();
    match query::los(world, SegmentQuery { dungeon, ..segment }) {
        Ok(None) => Ok(SILKNAV_OK),
        Ok(Some(hit)) => {
            let object_edge = silknav_object_edge::new(hit.object_edge);
            *out = silknav_hit {
                reason: SILKNAV_REASON_NONE,
                x: hit.point.world_x(),
                z: hit.point.world_z(),
                t: hit.t,
                edge: silknav_edge::new(hit.edge),
                object_edge,
                normal: hit.normal,
            };
            Ok(SILKNAV_NO)
        }
        Err(e) => {
            out.reason = ray_reason(e);
            Ok(SILKNAV_NO)
        }
    }
}

fn ray_reason(e: RayError) -> silknav_reason {
    reason_of(e.word())
}

/// Walks from (x1, z1) toward (x2, z2) as the game server's movement does (`silknav
/// move`): `SILKNAV_OK` when the walk was made (`out->stop` says why it stopped where it
/// did), `SILKNAV_NO` when it fails (`out->reason` says why).
///
/// # Safety
/// `world` is NULL or a live handle; `out` is NULL or points to a writable
/// `silknav_move_result`.
#[no_mangle]
pub unsafe extern "C" fn silknav_move(
    world: *const silknav_world,
    x1: f64,
    z1: f64,
    x2: f64,
    z2: f64,
    out: *mut silknav_move_result,
) -> silknav_status {
    // SAFETY: the caller's promises, passed on.
    unsafe { silknav_move_with(world, x1, z1, x2, z2, f32::NAN, 0, out) }
}

/// `silknav_move` with the command line's options: the start on the surface nearest the
/// reference height `y` (`--y`; NaN for none: the surface `silknav_cell` answers), and
/// `flags`, a combination of `SILKNAV_MOVE_GUARD_SYMMETRIC` or `SILKNAV_MOVE_GUARD_OFF`
/// (`--guard`; neither: the server's one-sided guard) and `SILKNAV_MOVE_NO_OBJECT_CHECKS`.
/// `SILKNAV_ERROR_ARGUMENT` for unknown flags, or both guard flags.
///
/// # Safety
/// As for `silknav_move`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn silknav_move_with(
    world: *const silknav_world,
    x1: f64,
    z1: f64,
    x2: f64,
    z2: f64,
    y: f32,
    flags: u32,
    out: *mut silknav_move_result,
) -> silknav_status {
    guard(|| {
        // SAFETY: the caller's promises on `world` and `out`.
        let (world, dungeon, out) = unsafe { world_and_out(world, out) }?;
        *out = silknav_move_result::default();
        let known =
            SILKNAV_MOVE_GUARD_SYMMETRIC | SILKNAV_MOVE_GUARD_OFF | SILKNAV_MOVE_NO_OBJECT_CHECKS;
        if flags & !known != 0 {
            return Err(Failure::argument(format!(
                "flags: unknown bits {:#x}",
                flags & !known
            )));
        }
        let guard = match (
            flags & SILKNAV_MOVE_GUARD_SYMMETRIC != 0,
            flags & SILKNAV_MOVE_GUARD_OFF != 0,
        ) {
            (false, false) => DistanceGuard::OneSided,
            (true, false) => DistanceGuard::Symmetric,
            (false, true) => DistanceGuard::Off,
            (true, true) => {
                return Err(Failure::argument(
                    "flags: SILKNAV_MOVE_GUARD_SYMMETRIC and SILKNAV_MOVE_GUARD_OFF together",
                ))
            }
        };
        let options = MoveOptions::new()
            .with_guard(guard)
            .with_object_checks(flags & SILKNAV_MOVE_NO_OBJECT_CHECKS == 0);
        let q = SegmentQuery {
            y: (!y.is_nan()).then_some(y),
            dungeon,
            ..SegmentQuery::new(x1, z1, x2, z2)
        };
        match query::move_along(world, q, &options) {
            Ok(walk) => {
                let (stop, edge, object_edge) = match walk.stop {
                    MoveStop::Arrived => (SILKNAV_STOP_ARRIVED, None, None),
                    MoveStop::Wall { region, edge } => {
                        (SILKNAV_STOP_WALL, Some((region, edge)), None)
                    }
                    MoveStop::NoEdge => (SILKNAV_STOP_NO_EDGE, None, None),
                    MoveStop::ObjectWall { edge } => (SILKNAV_STOP_OBJECT_WALL, None, Some(edge)),
                    MoveStop::Transition => (SILKNAV_STOP_TRANSITION, None, None),
                    MoveStop::Looped => (SILKNAV_STOP_LOOPED, None, None),
                    MoveStop::Circle { .. } => (SILKNAV_STOP_CIRCLE, None, None),
                };
                *out = silknav_move_result {
                    reason: SILKNAV_REASON_NONE,
                    missing_region: 0,
                    x: walk.position.world_x(),
                    z: walk.position.world_z(),
                    height: walk.height,
                    stop,
                    edge: silknav_edge::new(edge),
                    object_edge: silknav_object_edge::new(object_edge),
                    cell: walk.cell.into(),
                };
                Ok(SILKNAV_OK)
            }
            Err(e) => {
                out.reason = reason_of(e.word());
                if let MoveError::MissingRegion(region) = e {
                    out.missing_region = region.0;
                }
                Ok(SILKNAV_NO)
            }
        }
    })
}

/// The walkable point nearest a point, or that nothing walkable is near.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct silknav_snap_result {
    /// World x of the point.
    pub x: f64,
    /// World z of the point.
    pub z: f64,
    /// Its distance from the query point, in world units.
    pub distance: f64,
    /// Its cell, as `silknav_cell` answers it there.
    pub cell: silknav_cell_result,
}

/// The walkable point nearest (x, z) within `max_distance` units (`silknav snap X Z
/// --max-distance D`): `SILKNAV_OK` with the point in `*out`, or `SILKNAV_NO` when nothing
/// walkable is that close. A walk (`silknav_move`) starts from the point, and `silknav_cell`
/// answers it. `SILKNAV_ERROR_ARGUMENT` when `max_distance` is negative or not finite.
///
/// # Safety
/// `world` is NULL or a live handle; `out` is NULL or points to a writable
/// `silknav_snap_result`.
#[no_mangle]
pub unsafe extern "C" fn silknav_snap(
    world: *const silknav_world,
    x: f64,
    z: f64,
    max_distance: f64,
    out: *mut silknav_snap_result,
) -> silknav_status {
    // SAFETY: the caller's promises, passed on.
    guard(|| unsafe { snap_query(world, PointQuery::new(x, z), max_distance, out) })
}

/// `silknav_snap` at reference height `y` (`silknav snap X Z --y Y`): walkable is what
/// `silknav_cell_y` answers (a bridge's deck near the deck's height, the ground below near
/// the ground's).
///
/// # Safety
/// As for `silknav_snap`.
#[no_mangle]
pub unsafe extern "C" fn silknav_snap_y(
    world: *const silknav_world,
    x: f64,
    z: f64,
    y: f32,
    max_distance: f64,
    out: *mut silknav_snap_result,
) -> silknav_status {
    // SAFETY: the caller's promises, passed on.
    guard(|| unsafe {
        snap_query(
            world,
            PointQuery {
                y: Some(y),
                ..PointQuery::new(x, z)
            },
            max_distance,
            out,
        )
    })
}

/// # Safety
/// As for `silknav_snap`.
unsafe fn snap_query(
    world: *const silknav_world,
    point: PointQuery,
    max_distance: f64,
    out: *mut silknav_snap_result,
) -> Result<silknav_status, Failure> {
    // SAFETY: the caller's promises on `world` and `out`.
    let (world, dungeon, out) = unsafe { world_and_out(world, out) }?;
    let point = PointQuery { dungeon, ..point };
    *out = silknav_snap_result::default();
    if !(max_distance.is_finite() && max_distance >= 0.0) {
        return Err(Failure::argument(format!(
            "max_distance: {max_distance} is not a distance (finite, 0 or more)"
        )));
    }
    let snap: Option<Snap> = query::snap(world, point, max_distance);
    Ok(match snap {
        Some(s) => {
            *out = silknav_snap_result {
                x: s.position.world_x(),
                z: s.position.world_z(),
                distance: s.distance,
                cell: s.cell.into(),
            };
            SILKNAV_OK
        }
        None => SILKNAV_NO,
    })
}

/// A budget from C: negative for none.
pub(crate) fn scratch_for(budget: i64) -> PathScratch {
    match usize::try_from(budget) {
        Ok(n) => PathScratch::with_budget(n),
        Err(_) => PathScratch::new(),
    }
}

/// How a path is made, as `silknav path`'s options: zeroed (or a NULL pointer) is the
/// default, a walkable path with the default clearance.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct silknav_path_options {
    /// `SILKNAV_PATH_EXACT` for the exact optimum (`--exact`), whose waypoints sit on the
    /// corners of blocked ground; 0 for a path every leg of which the server's walk accepts.
    /// `SILKNAV_PATH_OBJECTS` for the path through and round objects (`--objects`): the
    /// exact one with `SILKNAV_PATH_EXACT`, else that path made walkable. `SILKNAV_PATH_START_Y`
    /// when `start_y` is given.
    pub flags: u32,
    /// How far a walkable path's turning points lie off the corners (`--clearance`): more
    /// than 0 and less than 10 units; 0 for the default (`SILKNAV_DEFAULT_CLEARANCE`).
    pub clearance: f64,
    /// The walker's radius (`--radius`): the path keeps at least this far from every wall
    /// and blocked tile; 0 for a point, else from 0.000001 to 960 units.
    pub radius: f64,
    /// With `SILKNAV_PATH_START_Y`: the walker's height at the start (`--y`), a finite
    /// number; the path starts on the surface under the start nearest it (under a bridge's
    /// deck rather than on it). Without the flag, ignored: the highest surface.
    pub start_y: f32,
}

/// `silknav_path_options.flags`: the exact shortest path (`silknav path --exact`).
pub const SILKNAV_PATH_EXACT: u32 = 1;
/// `silknav_path_options.flags`: the path through doorways, over bridges and round buildings
/// (`silknav path --objects`): the exact one with `SILKNAV_PATH_EXACT`, else that path made
/// walkable; far slower than the terrain's.
pub const SILKNAV_PATH_OBJECTS: u32 = 2;
/// `silknav_path_options.flags`: `start_y` is the walker's height at the start (`--y`).
pub const SILKNAV_PATH_START_Y: u32 = 4;
/// Every flag of `silknav_path_options.flags`.
const PATH_FLAGS: u32 = SILKNAV_PATH_EXACT | SILKNAV_PATH_OBJECTS | SILKNAV_PATH_START_Y;
/// The clearance of walkable paths when `silknav_path_options.clearance` is 0 (the
/// library's `DEFAULT_CLEARANCE`; a test keeps them equal).
pub const SILKNAV_DEFAULT_CLEARANCE: f64 = 0.001;

/// The library's options of C's, or the argument error.
///
/// # Safety
/// `options` is NULL or points to a readable `silknav_path_options`.
pub(crate) unsafe fn path_options(
    options: *const silknav_path_options,
) -> Result<PathOptions, Failure> {
    let o = if options.is_null() {
        silknav_path_options::default()
    } else {
        // SAFETY: the caller's promise on `options`.
        *unsafe { pointers::shared(options, "options") }?
    };
    if o.flags & !PATH_FLAGS != 0 {
        return Err(Failure::argument(format!(
            "options.flags: unknown bits {:#x}",
            o.flags & !PATH_FLAGS
        )));
    }
    let exact = o.flags & SILKNAV_PATH_EXACT != 0;
    let options = match (exact, o.clearance) {
        (true, 0.0) => Ok(PathOptions::exact()),
        (true, c) => PathOptions::exact().with_clearance(c),
        (false, 0.0) => Ok(PathOptions::new()),
        (false, c) => PathOptions::new().with_clearance(c),
    }
    .and_then(|options| options.with_objects(o.flags & SILKNAV_PATH_OBJECTS != 0))
    .and_then(|options| options.with_radius(o.radius));
    let options = match (o.flags & SILKNAV_PATH_START_Y != 0, options) {
        (true, Ok(options)) => options.with_start(Surface::Near(o.start_y)),
        (_, options) => options,
    };
    options.map_err(|e| Failure::argument(format!("options.{e}")))
}

/// The shortest path from (x1, z1) to (x2, z2) (`silknav path`), each search limited to
/// `budget` corner expansions (negative: no limit): `SILKNAV_OK` with the path in `*out`,
/// or `SILKNAV_NO` with `out->reason` saying why there is none. The path is walkable: every
/// leg of it is accepted by the server's walk (`silknav_path_find_with` for the exact
/// optimum). The first path query builds the world's path index (see
/// `silknav_world_prepare_paths`).
///
/// `*out` is overwritten without being freed: free a previous result first. Free this one
/// with `silknav_path_free`.
///
/// # Safety
/// `world` is NULL or a live handle; `out` is NULL or points to a writable `silknav_path`.
#[no_mangle]
pub unsafe extern "C" fn silknav_path_find(
    world: *const silknav_world,
    x1: f64,
    z1: f64,
    x2: f64,
    z2: f64,
    budget: i64,
    out: *mut silknav_path,
) -> silknav_status {
    // SAFETY: the caller's promises, passed on; no options is the default.
    unsafe { silknav_path_find_with(world, x1, z1, x2, z2, budget, std::ptr::null(), out) }
}

/// `silknav_path_find` with options (`--exact`, `--objects`, `--clearance`, `--radius`,
/// `--y`); `options` NULL for the defaults. `SILKNAV_ERROR_ARGUMENT` for unknown flags, a
/// clearance or radius out of range, or a start height that is not finite.
///
/// # Safety
/// As for `silknav_path_find`; `options` is NULL or points to a readable
/// `silknav_path_options`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn silknav_path_find_with(
    world: *const silknav_world,
    x1: f64,
    z1: f64,
    x2: f64,
    z2: f64,
    budget: i64,
    options: *const silknav_path_options,
    out: *mut silknav_path,
) -> silknav_status {
    guard(|| {
        // SAFETY: the caller's promise on `world`.
        let (nav, dungeon) = unsafe { nav_of(world) }?;
        // SAFETY: the caller's promise on `out`; written below without reading it.
        let out = unsafe {
            pointers::exclusive(out.cast::<std::mem::MaybeUninit<silknav_path>>(), "out")
        }?;
        // SAFETY: the caller's promise on `options`.
        let options = unsafe { path_options(options) }?;
        let found = query::path(
            nav.world(),
            nav.paths(),
            SegmentQuery {
                dungeon,
                ..SegmentQuery::new(x1, z1, x2, z2)
            },
            &options,
            &mut scratch_for(budget),
        );
        let status = yes_if(found.is_ok());
        out.write(silknav_path::new(found));
        Ok(status)
    })
}

/// The height of each waypoint of a path found by `silknav_path_find` (the `heights` of
/// `silknav path --json`): where a walker who walks the legs one by one with
/// `silknav_move_with`, each from the height the one before arrived at, stands there (the
/// start at the height a walk starts at without one, every other waypoint at the height the
/// walk of the leg before it arrives at). `out[k]` receives waypoint `k`'s
/// height, NaN where there is none. `SILKNAV_OK`, or `SILKNAV_NO` for a result without a path
/// (nothing written).
///
/// # Safety
/// `world` is NULL or a live handle; `path` is NULL or points to a `silknav_path` filled by
/// `silknav_path_find` or `silknav_paths` and not freed; `out` is NULL or points to
/// `path->count` writable `float`s.
#[no_mangle]
pub unsafe extern "C" fn silknav_path_heights(
    world: *const silknav_world,
    path: *const silknav_path,
    out: *mut f32,
) -> silknav_status {
    // SAFETY: the caller's promises, passed on; NaN is no start height.
    unsafe { silknav_path_heights_y(world, path, f32::NAN, out) }
}

/// `silknav_path_heights` for a walker at height `y` at the start (the start height the path
/// was asked with, `SILKNAV_PATH_START_Y`; NaN for none): the start at the height of the
/// surface there nearest `y` (NaN where that is a blocked tile), the rest as
/// `silknav_path_heights`.
///
/// # Safety
/// As for `silknav_path_heights`.
#[no_mangle]
pub unsafe extern "C" fn silknav_path_heights_y(
    world: *const silknav_world,
    path: *const silknav_path,
    y: f32,
    out: *mut f32,
) -> silknav_status {
    guard(|| {
        // SAFETY: the caller's promise on `world`.
        let (world, dungeon) = unsafe { world_of(world) }?;
        // SAFETY: the caller's promise on `path`.
        let path = unsafe { pointers::shared(path, "path") }?;
        if path.count == 0 {
            return Ok(SILKNAV_NO);
        }
        let count = path.count;
        // SAFETY: `2 * count` doubles filled by silknav, by the caller's promise.
        let flat = unsafe { pointers::array(path.waypoints, 2 * count, "path->waypoints") }?;
        // SAFETY: the caller's promise on `out`.
        let out = unsafe { pointers::array_mut(out, count, "out") }?;
        let waypoints = flat
            .chunks_exact(2)
            .map(|p| match dungeon {
                None => Position::from_world(p[0], p[1]),
                Some(id) => Some(Position::in_dungeon(id, p[0] as f32, p[1] as f32)),
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| Failure::argument("a waypoint lies outside the terrain id space"))?;
        let found = WorldPath {
            waypoints,
            length: path.length,
            exact_length: path.exact_length,
            exact: false,
        };
        let start_y = (!y.is_nan()).then_some(y);
        for (o, h) in out
            .iter_mut()
            .zip(world.path_heights(&found, Surface::from(start_y)))
        {
            *o = h.unwrap_or(f32::NAN);
        }
        Ok(SILKNAV_OK)
    })
}

/// Frees a path's waypoints and leaves `*path` an empty result (`waypoints` NULL, `count`
/// 0), so that freeing it again does nothing. NULL is allowed.
///
/// # Safety
/// `path` is NULL or points to a `silknav_path` filled by `silknav_path_find` or
/// `silknav_paths`, whose `waypoints` and `count` are unchanged.
#[no_mangle]
pub unsafe extern "C" fn silknav_path_free(path: *mut silknav_path) {
    crate::error::guard_void(|| {
        // SAFETY: the caller's promise on `path`.
        if let Ok(path) = unsafe { pointers::exclusive(path, "path") } {
            // SAFETY: filled by silknav and unchanged, by the caller's promise.
            unsafe { path.release() };
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_of_the_library_has_its_code() {
        let path = [
            PathError::StartBlocked,
            PathError::GoalBlocked,
            PathError::Unreachable,
            PathError::BudgetExceeded,
            PathError::NotWalkable,
        ];
        let walk = [
            MoveError::StartNotWalkable,
            MoveError::TooFar,
            MoveError::OffMesh,
            MoveError::StepLimit,
            MoveError::ObjectRefused,
        ];
        let words = path
            .iter()
            .map(|e| e.word())
            .chain(walk.iter().map(|e| e.word()))
            .chain([RayError::StartNotWalkable.word(), RayError::BadEnd.word()]);
        for word in words {
            let code = reason_of(word);
            assert_ne!(code, SILKNAV_REASON_OTHER, "{word}");
            assert_eq!(REASON_WORDS[code as usize].to_bytes(), word.as_bytes());
        }
        assert_eq!(reason_of("not-walkable"), SILKNAV_REASON_NOT_WALKABLE);
    }

    #[test]
    fn the_default_clearance_is_the_librarys() {
        assert_eq!(SILKNAV_DEFAULT_CLEARANCE, silknav::DEFAULT_CLEARANCE);
    }
}
