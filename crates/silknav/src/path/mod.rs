//! Shortest paths: exact any-angle paths across regions, and paths the server's walk follows.
//!
//! [`PathIndex::find_path`] answers a path between two points of the walkable ground, across
//! any number of regions, whose every leg the server's walk follows. [`PathOptions`] asks for
//! the exact optimum or for paths through objects; [`radius`] is for a walker of radius r.
//!
//! # Rule
//! The ground is line of sight's ([`crate::world::raycast`]): the closed walkable tiles of the
//! loaded regions, with walls on blocked terrain edges (`flag & 3`, the siege bit) and round
//! blocked ground. The *exact* path ([`PathOptions::exact`]) is the shortest polyline on it
//! - that may touch and run along walls but never crosses one, not even by stopping on it;
//! - that never squeezes between two blocked tiles or walls that meet only at a corner;
//! - from and to exactly the given points. An end on a tile side or grid vertex may leave or
//!   arrive through any walkable tile it touches, as line of sight allows.
//!
//! Consecutive waypoints have line of sight; the length is the sum of the legs. Objects are
//! not obstacles to it.
//!
//! ## Exact paths with objects
//! [`PathOptions::exact_with_objects`]: the shortest path by the object-aware line of sight,
//! each leg starting on the surface the one before ended on (doorways, bridges, under a deck).
//! It turns at the terrain's corners and 0.01 off object vertices.
//!
//! ## Walkable paths (the default)
//! The server's walk follows every leg to its end ([`crate::world::movement`]), with the objects
//! too where the world has them. It is the exact path with each corner replaced by up to
//! three points [`PathOptions::clearance`] off both grid lines through it, on the open side;
//! legs over 1900 units along x or z cut into equal legs; refused legs repaired (`walkable`)
//! or led round objects by a detour search (`detour`). Both ends' tiles (half-open, as for
//! [`World::cell_at`]) must be open, else [`PathError::StartBlocked`] or
//! [`PathError::GoalBlocked`]; a leg nothing repairs gives [`PathError::NotWalkable`]. The
//! walked [`WorldPath::length`] is at most [`WorldPath::exact_length`] (the terrain's optimum)
//! `+ 7·clearance·turns`, plus under 0.001 of f32 rounding per waypoint and any detour.
//!
//! ## Walkable paths through objects
//! [`PathOptions::with_objects`] alone: the exact path with objects made walkable in the same way,
//! each leg walked from the height the one before arrived at ([`World::path_heights`]), a
//! refused leg replaced by a detour on the walker's floor. Where no walk follows it, the
//! default path walked so; else [`PathError::NotWalkable`]. Its exact length counts objects.
//! A path with an end on an object's floor over no terrain cell (a deck over a gorge, a
//! dungeon) always goes through objects so; the default path calls ends only objects join
//! [`PathError::Unreachable`].
//!
//! # Method
//! A shortest path turns only at *corners* (grid vertices whose obstacles fit in an arc under
//! 180°), tautly. The index ([`PathIndex::build`], once per world, on all cores) holds
//! rectangles without walls joined by portals, the corners, the connected components, and each
//! corner's edges to the corners it sees in directions taut at both ends, from exact cone
//! scans (`visibility`), with "seen by" records of which corners see each rectangle. A query
//! takes the straight segment when it is clear, else runs A* with the straight-line heuristic
//! along taut edges only (`search`). A small index keeps every corner pair's distance
//! (`table`), so a query needs no search; a larger one keeps landmark distances that raise the
//! heuristic where paths wind (`landmarks`). Every decision is an exact orientation test
//! ([`crate::geometry`]); answers equal a brute-force visibility graph's.
//!
//! # Cost and limits
//! Build: a cone scan per corner, linear in the rectangles it reaches. Query: O(E log E) in the
//! edges E of the corners expanded; with a table, O(a·b) over the ends' links. Walkable paths
//! add a walk per leg, linear in the tiles crossed. Benches (`crates/silknav-bench`):
//! `benches/paths/main.rs` (exact paths, `RESULTS.md`), `benches/index.rs`, `benches/objects.rs`
//! and the `ground_pairs` example; measurements and history: `docs/design/paths.md`.
//! The table needs corners × (edges + corners) ≤ 1 million, the records ≤ 2 million (else
//! a query scans from its ends). [`PathScratch::with_budget`] bounds a search. A walkable path
//! fails where no walk joins the ends (a goal sealed in an object, a diagonal pinch at an end).

use crate::files::{
    check_new, write_atomic_with, IndexFileError, InputsDigest, Overwrite, PathIndexError,
    WriteFileError,
};
use crate::objects::ObjectCellRef;
use crate::world::raycast::Grid;
use crate::world::{movement::MoveOptions, CellRef, Position, Surface, World};
use std::fmt;
use std::path::Path;
use std::time::Duration;

pub use file::PathIndexFile;

mod array;
mod cells;
pub(crate) mod detour;
pub(crate) mod exact_objects;
pub(crate) mod file;
mod floors;
mod graph;
pub(crate) mod index;
mod landmarks;
mod objects_guide;
pub mod radius;
mod search;
mod table;
mod visibility;
pub(crate) mod walkable;

/// The default [`PathOptions::clearance`]: how far (in world units, along x and along z) a
/// walkable path passes off the corners it turns at: twice the smallest value that makes every
/// path of the test worlds walkable. The experiment: `docs/design/paths.md`.
pub const DEFAULT_CLEARANCE: f64 = 0.001;

/// The largest clearance [`PathOptions::with_clearance`] takes, exclusive: half a tile, beyond
/// which a corner's point may leave the open tiles beside it.
const MAX_CLEARANCE: f64 = 10.0;

/// The largest walker radius [`PathOptions::with_radius`] takes, in world units (half a
/// region: a larger walker fits nowhere a path could matter).
pub const MAX_RADIUS: f64 = 960.0;

/// How a path is made: walkable by the server's walk (the default) or the exact optimum, on
/// the terrain or through objects, for a walker of no size (the default) or of a radius.
///
/// The builders refuse values out of range and options that contradict each other
/// ([`PathOptionsError`]), so every `PathOptions` is honoured as a whole.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PathOptions {
    pub(crate) exact: bool,
    pub(crate) objects: bool,
    pub(crate) clearance: f64,
    pub(crate) radius: f64,
    pub(crate) start: Surface,
}

/// Path options that cannot be honoured, as [`PathOptions`]' builders refuse them. Each
/// message names the option, as the command line, the server and the bindings report it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum PathOptionsError {
    /// A radius neither 0 nor from [`crate::geometry::MIN_RADIUS`] to [`MAX_RADIUS`].
    Radius(f64),
    /// A clearance not more than 0 and less than 10 units.
    Clearance(f64),
    /// A clearance asked of an exact path, which has none.
    ClearanceOfExact,
    /// A radius with paths through objects: a walker's radius keeps it from the terrain's
    /// walls only, so paths of a radius are found on the terrain.
    RadiusWithObjects,
    /// A start height that is not a finite number.
    StartHeight(f32),
}

impl PathOptionsError {
    /// The option at fault: `radius`, `clearance`, `objects` or `start_y` (the start's height).
    pub fn option(self) -> &'static str {
        match self {
            PathOptionsError::Radius(_) => "radius",
            PathOptionsError::Clearance(_) | PathOptionsError::ClearanceOfExact => "clearance",
            PathOptionsError::RadiusWithObjects => "objects",
            PathOptionsError::StartHeight(_) => "start_y",
        }
    }
}

impl fmt::Display for PathOptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathOptionsError::Radius(r) => write!(
                f,
                "radius: {r}: the radius must be 0 or from 0.000001 to {MAX_RADIUS} units"
            ),
            PathOptionsError::Clearance(c) => write!(
                f,
                "clearance: {c}: the clearance must be more than 0 and less than 10 units"
            ),
            PathOptionsError::ClearanceOfExact => {
                f.write_str("clearance: an exact path has no clearance")
            }
            PathOptionsError::RadiusWithObjects => f.write_str(
                "objects: a walker with a radius keeps it from the terrain's walls only; \
                 its paths are found on the terrain",
            ),
            PathOptionsError::StartHeight(y) => {
                write!(f, "start_y: {y}: the height must be a finite number")
            }
        }
    }
}

impl std::error::Error for PathOptionsError {}

impl Default for PathOptions {
    fn default() -> PathOptions {
        PathOptions {
            exact: false,
            objects: false,
            clearance: DEFAULT_CLEARANCE,
            radius: 0.0,
            start: Surface::Highest,
        }
    }
}

impl PathOptions {
    /// Walkable paths on the terrain with the default clearance, for a walker of no size.
    pub fn new() -> PathOptions {
        PathOptions::default()
    }

    /// The exact shortest paths: waypoints on the corners of blocked ground, where the
    /// server's walk may refuse to start or stop at once. Found on the terrain, objects
    /// ignored, unless [`PathOptions::with_objects`] says otherwise.
    pub fn exact() -> PathOptions {
        PathOptions {
            exact: true,
            ..PathOptions::default()
        }
    }

    /// The exact shortest path through and round objects
    /// (`PathOptions::exact().with_objects(true)`).
    pub fn exact_with_objects() -> PathOptions {
        PathOptions {
            exact: true,
            objects: true,
            ..PathOptions::default()
        }
    }

    /// These options with objects on or off. In a world with objects, on: the path through
    /// and round them, found as the exact path by the objects' line of sight
    /// ([module docs](self#exact-paths-with-objects)); exact, or that path made walkable
    /// ([module docs](self#walkable-paths-through-objects)). Slower by far, so asked for;
    /// off (the default), paths are found on the terrain, except where an end stands on an
    /// object's floor with no terrain cell under it (a deck over a gorge, a dungeon's
    /// floors), which only a path through objects leaves. No effect in a world without
    /// objects.
    ///
    /// # Errors
    /// [`PathOptionsError::RadiusWithObjects`] when these options have a radius.
    pub fn with_objects(mut self, objects: bool) -> Result<PathOptions, PathOptionsError> {
        if objects && self.radius > 0.0 {
            return Err(PathOptionsError::RadiusWithObjects);
        }
        self.objects = objects;
        Ok(self)
    }

    /// These options with another clearance: how far a walkable path's turning points lie
    /// off the corners, along x and along z ([`DEFAULT_CLEARANCE`]). Meant to be small
    /// against a tile (20 units): values from 0.001 to 5 are sensible.
    ///
    /// # Errors
    /// [`PathOptionsError::Clearance`] unless 0 < `clearance` < 10;
    /// [`PathOptionsError::ClearanceOfExact`] for exact paths.
    pub fn with_clearance(mut self, clearance: f64) -> Result<PathOptions, PathOptionsError> {
        if self.exact {
            return Err(PathOptionsError::ClearanceOfExact);
        }
        if !(clearance > 0.0 && clearance < MAX_CLEARANCE) {
            return Err(PathOptionsError::Clearance(clearance));
        }
        self.clearance = clearance;
        Ok(self)
    }

    /// These options for a walker of radius `radius` in world units (0, the default: a
    /// point): the path keeps at least this far from every wall and blocked tile of the
    /// terrain ([`radius`] has the rule). A walkable path of radius r has the exact radius
    /// path's turning points (already r off the corners; one on a grid line moved the
    /// clearance off it, away from the inside of its bend, so its legs keep at least r minus
    /// the clearance), its long legs split, and every leg checked with the server's walk; its
    /// `exact_length` is the exact radius path's.
    ///
    /// # Errors
    /// [`PathOptionsError::Radius`] unless `radius` is 0 or from
    /// [`crate::geometry::MIN_RADIUS`] (a millionth of a unit) to [`MAX_RADIUS`];
    /// [`PathOptionsError::RadiusWithObjects`] with objects on.
    pub fn with_radius(mut self, radius: f64) -> Result<PathOptions, PathOptionsError> {
        if !(radius == 0.0 || (crate::geometry::MIN_RADIUS..=MAX_RADIUS).contains(&radius)) {
            return Err(PathOptionsError::Radius(radius));
        }
        if radius > 0.0 && self.objects {
            return Err(PathOptionsError::RadiusWithObjects);
        }
        self.radius = radius;
        Ok(self)
    }

    /// These options for a walker starting on `surface`, where a bridge's deck or a
    /// building's upper floor lies over other ground: by default the highest; near a height as
    /// the server's `FindNavCell` picks it (the surface [`World::move_along`] starts on);
    /// the terrain under a deck; or one object triangle. An exact path with objects is
    /// searched from that surface (from the ground under a deck, a path may go out under the
    /// deck's side, where the deck's walker may not); every path's heights start there
    /// ([`World::path_heights`]). Paths found on the terrain alone are the same from any
    /// surface. In a dungeon, the surface's height picks the floor (the highest without one).
    ///
    /// # Errors
    /// [`PathOptionsError::StartHeight`] when a [`Surface::Near`] height is not finite.
    pub fn with_start(mut self, surface: Surface) -> Result<PathOptions, PathOptionsError> {
        if let Surface::Near(y) = surface {
            if !y.is_finite() {
                return Err(PathOptionsError::StartHeight(y));
            }
        }
        self.start = surface;
        Ok(self)
    }

    /// Whether the paths are exact ([`PathOptions::exact`]).
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// Whether the paths go through objects ([`PathOptions::with_objects`]).
    pub fn through_objects(&self) -> bool {
        self.objects
    }

    /// The clearance of walkable paths ([`PathOptions::with_clearance`]).
    pub fn clearance(&self) -> f64 {
        self.clearance
    }

    /// The walker's radius ([`PathOptions::with_radius`]).
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The surface the walker starts on ([`PathOptions::with_start`]).
    pub fn start(&self) -> Surface {
        self.start
    }
}

/// A path from a start to a goal.
#[derive(Debug, Clone, PartialEq)]
pub struct WorldPath {
    /// The start, the points the path turns at, and the goal (two points even when start and
    /// goal coincide). The start and goal are the positions given, verbatim. For an exact
    /// path the turning points are the corners; for a walkable one, points off the corners,
    /// cut points of long legs and the repairs' points ([module docs](self)).
    pub waypoints: Vec<Position>,
    /// Euclidean length in world units of the waypoints' polyline: the sum of the legs.
    pub length: f64,
    /// The length of the exact shortest path (equal to `length` for an exact path).
    pub exact_length: f64,
    /// Whether the waypoints are the exact shortest path's ([`PathOptions::exact`]).
    pub exact: bool,
}

impl WorldPath {
    /// A walkable path through `waypoints`, its length their polyline's, beside the exact
    /// optimum's length.
    fn walked(waypoints: Vec<Position>, exact_length: f64) -> WorldPath {
        let points: Vec<[f64; 2]> = waypoints.iter().map(|&w| walkable::world_xz(w)).collect();
        WorldPath {
            length: polyline_length(&points),
            waypoints,
            exact_length,
            exact: false,
        }
    }
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
    /// A shortest path exists, but no walkable one was made from it: a leg the terrain walk
    /// refuses survived the repairs. Never seen on the test worlds; the exact path
    /// ([`PathOptions::exact`]) is still there.
    NotWalkable,
    /// The options ask for what is not made for these ends: a walker with a radius in a
    /// dungeon.
    Unsupported,
}

impl PathError {
    /// One word for command lines: `start-blocked`, `goal-blocked`, `unreachable`,
    /// `budget-exceeded`, `not-walkable`, `unsupported`.
    pub const fn word(self) -> &'static str {
        match self {
            PathError::StartBlocked => "start-blocked",
            PathError::GoalBlocked => "goal-blocked",
            PathError::Unreachable => "unreachable",
            PathError::BudgetExceeded => "budget-exceeded",
            PathError::NotWalkable => "not-walkable",
            PathError::Unsupported => "unsupported",
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
            PathError::NotWalkable => "no walkable path was made from the shortest path",
            PathError::Unsupported => "the options ask for what is not made for these ends",
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
    /// Whether the index has a table of the shortest distance between every two corners
    /// (small worlds only; see the module docs), so that its paths need no search.
    pub corner_table: bool,
    /// Whether the index has landmark distances, the search's lower bounds on worlds without
    /// a corner table (an index file written before they were kept has none).
    pub landmarks: bool,
    /// Bytes of memory the index holds (for a loaded index, with the file's bytes it views in
    /// place, mapped or read).
    pub heap_bytes: usize,
    /// Wall-clock time the build took (for a loaded index, the build that wrote the file).
    pub build_time: Duration,
    /// For an index read from a file, how long reading and checking it took; `None` for an
    /// index built in this process.
    pub load_time: Option<Duration>,
}

impl PathIndexStats {
    pub(crate) fn of(index: &index::TerrainIndex) -> PathIndexStats {
        PathIndexStats {
            regions: index.region_ids.len(),
            rects: index.rects.len(),
            corners: index.corners.len(),
            edges: index.edges.len(),
            seen_records: index.seen.len(),
            corner_table: index.table.is_some(),
            landmarks: !index.landmarks.is_empty(),
            heap_bytes: index.heap_bytes(),
            build_time: index.build_time,
            load_time: index.file.as_ref().map(|(_, t)| *t),
        }
    }
}

impl World {
    /// The height of each waypoint of a path, as a walker who walks its legs one by one with
    /// [`World::move_along`], each from the height the leg before it arrived at (the game
    /// server keeps a walker's height, and picks the floor nearest it), stands there: the
    /// start at the height of `start` there ([`World::height_at`]; `None` where that surface
    /// has no cell), every other waypoint at the height the walk of the leg before it arrives
    /// at. Where that walk does not arrive (an exact path's corner), the surface there nearest
    /// the height before; `None` where there is none, and the next leg then starts on the
    /// highest surface.
    ///
    /// On an object's floor it is the object triangle's height; a path under a bridge deck
    /// stays on the ground below, as the walker does.
    pub fn path_heights(&self, path: &WorldPath, start: Surface) -> Vec<Option<f32>> {
        let mut out: Vec<Option<f32>> = Vec::with_capacity(path.waypoints.len());
        out.push(
            path.waypoints
                .first()
                .and_then(|&w| self.start_height_on(w, start)),
        );
        for leg in path.waypoints.windows(2) {
            let before = *out.last().expect("the start is there");
            let height = match before {
                Some(y) => {
                    let options = MoveOptions::new().with_start(Surface::Near(y));
                    match self.move_along(leg[0], leg[1], &options) {
                        Ok(m) if m.stop.reaches_goal() => Some(m.height),
                        _ => self.height_near(leg[1], y),
                    }
                }
                None => self.start_height_at(leg[1], None),
            };
            out.push(height);
        }
        out
    }

    /// The height a walk starts at on `surface` at `pos`: `None` where that surface has no
    /// cell (a blocked tile, a triangle that does not hold the point, no loaded region).
    pub(crate) fn start_height_on(&self, pos: Position, surface: Surface) -> Option<f32> {
        match surface {
            Surface::Terrain if !pos.region.is_dungeon() => self
                .terrain_cell_at(pos)
                .and_then(|_| self.terrain_height_at(pos)),
            Surface::Object(c) => self.on_object(pos, c).map(|r| r.y),
            _ => self.start_height_at(pos, surface.reference_height()),
        }
    }

    /// The surface each waypoint of a path is reached on when its legs are walked by line of
    /// sight, the rule exact paths with objects follow ([`PathOptions::exact_with_objects`]):
    /// the start on `start` ([`World::cell_at`]), every other waypoint on the surface the
    /// line of sight of the leg before it ends on, walked from the surface before (`None` in
    /// the list: the terrain; an object triangle otherwise; a start on the side of walkable
    /// ground, as a terrain's exact path may have, is on the terrain). `None` when the start
    /// is on no surface, or a leg is blocked or ends on a surface that does not hold its end:
    /// every exact path with objects has its surfaces, and a bot may follow them floor by
    /// floor, under a bridge or on it.
    pub fn path_surfaces(
        &self,
        path: &WorldPath,
        start: Surface,
    ) -> Option<Vec<Option<ObjectCellRef>>> {
        self.surfaces_of(&path.waypoints, start)
    }

    /// [`World::path_surfaces`] of the path through `waypoints`.
    pub(crate) fn surfaces_of(
        &self,
        waypoints: &[Position],
        start: Surface,
    ) -> Option<Vec<Option<ObjectCellRef>>> {
        let first = *waypoints.first()?;
        // A start on the side of walkable ground (which belongs to the tile beyond it) is on
        // the terrain, as for line of sight and the terrain's exact paths.
        let start = match self.cell_at(first, start) {
            Some(cell) => cell.object,
            None if self.stands_on(first, None) => None,
            None => return None,
        };
        let mut out = vec![start];
        for leg in waypoints.windows(2) {
            let before = *out.last().expect("the start is there");
            match self.sight_arrival(leg[0], before, leg[1]) {
                Ok(Some(arrival)) if self.stands_on(leg[1], arrival) => out.push(arrival),
                _ => return None,
            }
        }
        Some(out)
    }

    /// The cells a path passes through, in order (each once per visit). Where a segment runs
    /// exactly along a tile side, the tile on its left is counted. On the terrain the cells do
    /// not depend on `start`.
    ///
    /// In a dungeon, the block triangles each leg's line of sight walks over, from the cell
    /// nearest the height a walker reaches the leg's start at ([`World::path_heights`] from
    /// `start`).
    pub fn path_cells(&self, path: &WorldPath, start: Surface) -> Vec<CellRef> {
        if let Some(d) = path
            .waypoints
            .first()
            .and_then(|w| w.region.is_dungeon().then(|| self.dungeon(w.region)))
        {
            return d.map_or_else(Vec::new, |d| {
                d.path_cells(&path.waypoints, &self.path_heights(path, start))
            });
        }
        let mut out: Vec<CellRef> = Vec::new();
        for pair in path.waypoints.windows(2) {
            cells::along(self, pair[0], pair[1], &mut out);
        }
        if path.waypoints.len() == 1 {
            out.extend(self.terrain_cell_at(path.waypoints[0]));
        }
        out
    }
}

/// The path index of one world: what every path search reads, made once per world (on all
/// cores) or read from a file `silknav index` wrote, and kept beside the world it was made
/// for.
///
/// Its searches take that world ([`PathIndex::find_path`]); [`crate::Navigator`] keeps a
/// world and its index together.
///
/// # Panics
/// Every method that takes a world panics when it is not the world the index was made for
/// (or read for): the world it was built from, or a clone of it.
#[derive(Debug, Clone)]
pub struct PathIndex {
    pub(crate) terrain: index::TerrainIndex,
    /// The stamp of the world it answers for ([`World::stamp`]).
    world: u64,
    /// That world's inputs digest, which names it in the index file.
    inputs: Option<InputsDigest>,
    /// Each object instance's box in world units, in [`World::object_instances`]' order,
    /// worked out on the first detour round objects ([`detour`]).
    pub(crate) object_boxes: std::sync::OnceLock<Vec<detour::Box2>>,
    /// The points exact paths turn at round objects, made with the first such path.
    pub(crate) object_corners: std::sync::OnceLock<exact_objects::ObjectCorners>,
    /// On a ground of object floors only, what those points see ([`floors`]), made with the
    /// first exact path through objects.
    pub(crate) floors: std::sync::OnceLock<Option<floors::FloorsGraph>>,
    /// The index of each dungeon's ground, in [`World::dungeons`]' order, made with the first
    /// path in it.
    dungeons: std::sync::Arc<Vec<std::sync::OnceLock<PathIndex>>>,
}

impl PathIndex {
    /// Builds the index of `world` on rayon's current pool.
    pub fn build(world: &World) -> PathIndex {
        PathIndex::build_with_progress(world, |_, _| {})
    }

    /// [`PathIndex::build`], calling `progress(done, total)` as the corners' visibility is
    /// computed (from rayon's threads, counts possibly out of order).
    pub fn build_with_progress(world: &World, progress: impl Fn(usize, usize) + Sync) -> PathIndex {
        PathIndex::of(world, index::TerrainIndex::build(world, &progress))
    }

    fn of(world: &World, terrain: index::TerrainIndex) -> PathIndex {
        PathIndex {
            terrain,
            world: world.stamp,
            inputs: world.inputs,
            object_boxes: std::sync::OnceLock::new(),
            object_corners: std::sync::OnceLock::new(),
            floors: std::sync::OnceLock::new(),
            dungeons: std::sync::Arc::new(
                world
                    .dungeons()
                    .map(|_| std::sync::OnceLock::new())
                    .collect(),
            ),
        }
    }

    /// The index of `world` read from a file ([`PathIndexFile::read`]).
    ///
    /// # Errors
    /// [`IndexFileError::Stale`] when the file was built from other inputs than the world's
    /// ([`World::inputs_digest`]) or for other regions.
    pub fn from_file(world: &World, file: PathIndexFile) -> Result<PathIndex, IndexFileError> {
        let stale = || IndexFileError::Stale {
            file: file.digest,
            world: world.inputs,
        };
        if world.inputs != Some(file.digest) {
            return Err(stale());
        }
        let ids = &file.index.region_ids;
        if ids.len() != world.regions().len()
            || world.regions().zip(ids.iter()).any(|(a, &b)| a.0 != b)
        {
            return Err(stale());
        }
        Ok(PathIndex::of(world, file.index))
    }

    /// Reads the path index file at `path` for `world` ([`PathIndex::from_file`]).
    ///
    /// # Errors
    /// The file cannot be read, is not a sound index file, or is stale.
    pub fn read(world: &World, path: impl AsRef<Path>) -> Result<PathIndex, PathIndexError> {
        let path = path.as_ref();
        let file = PathIndexFile::read(path)?;
        PathIndex::from_file(world, file).map_err(|error| PathIndexError {
            path: path.to_path_buf(),
            error,
        })
    }

    /// Writes the index to `path`, atomically ([`crate::files::write_atomic`]'s rule), and returns the
    /// file's length in bytes.
    ///
    /// # Errors
    /// [`WriteFileError::Exists`] when the file exists and `overwrite` refuses to replace
    /// it; [`WriteFileError::Io`] when the world's inputs are unknown
    /// ([`World::inputs_digest`]: a file could not name them), or the file cannot be written.
    pub fn write(
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
        let mut length = 0;
        write_atomic_with(path, overwrite, |out| {
            length = file::write(&self.terrain, digest, out)?;
            Ok(())
        })?;
        Ok(length)
    }

    /// What the index holds and what making it cost.
    pub fn stats(&self) -> PathIndexStats {
        PathIndexStats::of(&self.terrain)
    }

    /// Whether this is the index of `world` (or of a clone of it).
    pub fn is_for(&self, world: &World) -> bool {
        self.world == world.stamp
    }

    /// Panics unless this is the index of `world`.
    fn check_world(&self, world: &World) {
        assert!(
            self.is_for(world),
            "a path index answers only for the world it was made for"
        );
    }

    /// The path from `from` to `to` made as `options` say: walkable (the default) or exact,
    /// for a point or a walker of a radius. See the [module docs](crate::path) for the rules.
    ///
    /// # Errors
    /// [`PathError::StartBlocked`] / [`PathError::GoalBlocked`] off the walkable ground (for a
    /// walkable path: where the server's walk cannot start, or end, on the terrain),
    /// [`PathError::Unreachable`] when no path exists (answered from the connected components
    /// without a search), [`PathError::BudgetExceeded`] when the scratch's budget runs out,
    /// [`PathError::NotWalkable`] when a walkable path was asked for and a leg survives the
    /// repairs (never seen on the test worlds).
    pub fn find_path(
        &self,
        world: &World,
        from: Position,
        to: Position,
        options: &PathOptions,
        scratch: &mut PathScratch,
    ) -> Result<WorldPath, PathError> {
        self.check_world(world);
        if from.region.is_dungeon() || to.region.is_dungeon() {
            return self.find_dungeon_path(world, from, to, options, scratch);
        }
        if options.radius > 0.0 {
            let path = self.radius_path(world, from, to, options.radius, scratch)?;
            if options.exact {
                return Ok(path);
            }
            let waypoints = walkable::split_and_check(world, &path.waypoints, options.clearance)?;
            return Ok(WorldPath::walked(waypoints, path.length));
        }
        self.find_path_counting(world, from, to, options, scratch, true)
            .map(|(path, _)| path)
    }

    /// [`PathIndex::find_path`] with an end in a dungeon: the path on the dungeon's ground
    /// ([`crate::world::dungeon`]), by that ground's own index, made on the first path in the
    /// dungeon. Both ends must be in the same dungeon. The start is on the cell the dungeon's
    /// lookup picks (with no `start_y`, the highest).
    fn find_dungeon_path(
        &self,
        world: &World,
        from: Position,
        to: Position,
        options: &PathOptions,
        scratch: &mut PathScratch,
    ) -> Result<WorldPath, PathError> {
        let (slot, dungeon) = world
            .dungeons()
            .enumerate()
            .find(|(_, d)| d.region() == from.region)
            .ok_or(PathError::StartBlocked)?;
        if to.region != from.region {
            return Err(if to.region.is_dungeon() && !world.contains(to.region) {
                PathError::GoalBlocked
            } else {
                PathError::Unreachable // only teleports cross
            });
        }
        if options.radius > 0.0 {
            // Collision circles and block walls for a walker with a radius are not made yet.
            return Err(PathError::Unsupported);
        }
        let start = dungeon
            .surface(from, options.start.reference_height())
            .ok_or(PathError::StartBlocked)?;
        let ground = dungeon.ground();
        let a = dungeon
            .ground_position(from.x, from.z)
            .ok_or(PathError::StartBlocked)?;
        let b = dungeon
            .ground_position(to.x, to.z)
            .ok_or(PathError::GoalBlocked)?;
        let index = self.dungeons[slot].get_or_init(|| PathIndex::build(ground));
        let options = PathOptions {
            start: Surface::Near(start.height),
            ..*options
        };
        let path = index.find_path(ground, a, b, &options, scratch)?;
        let last = path.waypoints.len() - 1;
        let waypoints = path
            .waypoints
            .iter()
            .enumerate()
            .map(|(i, &w)| match i {
                0 => from,
                _ if i == last => to,
                _ => dungeon.dungeon_position(w),
            })
            .collect();
        Ok(WorldPath { waypoints, ..path })
    }

    /// [`PathIndex::find_path`], also returning how many legs were repaired; without
    /// `repair`, a walkable path fails at the first leg the walk refuses (the clearance
    /// experiment measures with it off).
    pub(crate) fn find_path_counting(
        &self,
        world: &World,
        from: Position,
        to: Position,
        options: &PathOptions,
        scratch: &mut PathScratch,
        repair: bool,
    ) -> Result<(WorldPath, usize), PathError> {
        if !world.objects.is_empty() && (options.objects || on_floor_only(world, from, to)) {
            return self.path_with_objects(world, from, to, options, scratch, repair);
        }
        self.terrain_path(world, from, to, options, scratch, repair)
    }

    /// [`PathIndex::find_path_counting`] found on the terrain: the exact path of the terrain,
    /// or that path made walkable and, in a world with objects, led round them.
    fn terrain_path(
        &self,
        world: &World,
        from: Position,
        to: Position,
        options: &PathOptions,
        scratch: &mut PathScratch,
        repair: bool,
    ) -> Result<(WorldPath, usize), PathError> {
        let s = [from.world_x(), from.world_z()];
        let t = [to.world_x(), to.world_z()];
        if !options.exact {
            // The server's walk starts, and ends, only on the tile a point belongs to; off
            // the ground altogether, the start is answered first, as for an exact path.
            let (from_ok, to_ok) = (
                world.terrain_cell_at(from).is_some(),
                world.terrain_cell_at(to).is_some(),
            );
            if !(from_ok && to_ok) {
                let (index, ground) = (&self.terrain, Grid::global(world));
                if search::endpoint(index, &ground, s).is_none() {
                    return Err(PathError::StartBlocked);
                }
                if search::endpoint(index, &ground, t).is_none() {
                    return Err(PathError::GoalBlocked);
                }
                return Err(if from_ok {
                    PathError::GoalBlocked
                } else {
                    PathError::StartBlocked
                });
            }
        }
        let exact = self.exact_polyline(world, s, t, scratch)?;
        let exact_length = polyline_length(&exact);
        if options.exact {
            let mut waypoints = Vec::with_capacity(exact.len());
            waypoints.push(from);
            for p in &exact[1..exact.len() - 1] {
                waypoints
                    .push(Position::from_world(p[0], p[1]).expect("corners lie in loaded regions"));
            }
            waypoints.push(to);
            let path = WorldPath {
                waypoints,
                length: exact_length,
                exact_length,
                exact: true,
            };
            return Ok((path, 0));
        }
        let walked = walkable::walkable(world, self, from, to, &exact, options.clearance, repair);
        let (waypoints, repairs) = match walked {
            Err(PathError::NotWalkable) if repair => {
                // A start (or goal) on a grid line may be where the exact path leaves through
                // a tile other than its own (at a vertex where blocked tiles meet
                // diagonally), which the walk cannot: then the path leaves from a point
                // `clearance` into its own tile, and the exact path is sought from there.
                let own = |p| walkable::into_own_tile(p, options.clearance).unwrap_or(p);
                let (s2, t2) = (own(s), own(t));
                if (s2, t2) == (s, t) {
                    return Err(PathError::NotWalkable);
                }
                let inner = self
                    .exact_polyline(world, s2, t2, scratch)
                    .map_err(|_| PathError::NotWalkable)?;
                walkable::walkable(world, self, from, to, &inner, options.clearance, repair)?
            }
            walked => walked?,
        };
        // Legs through buildings, gates and the ground under them go round them.
        let waypoints = if world.objects.is_empty() {
            waypoints
        } else {
            detour::around_objects(world, self, &waypoints)?.0
        };
        Ok((WorldPath::walked(waypoints, exact_length), repairs))
    }

    /// [`PathIndex::find_path_counting`] with [`PathOptions::with_objects`] in a world with objects:
    /// the exact path through and round them, or (without [`PathOptions::exact`]) that path
    /// made walkable ([`walkable::walkable_with_objects`]); where no walk follows it, the path
    /// found on the terrain and led round objects.
    fn path_with_objects(
        &self,
        world: &World,
        from: Position,
        to: Position,
        options: &PathOptions,
        scratch: &mut PathScratch,
        repair: bool,
    ) -> Result<(WorldPath, usize), PathError> {
        let (s, t) = (walkable::world_xz(from), walkable::world_xz(to));
        // The terrain's optimum is the first bound: the answer whenever no object is in
        // the way. Worked out only when the straight segment is not the answer (where it is,
        // on the objects bench's moves, it was a fifth of the query's time).
        let hint = |scratch: &mut PathScratch| {
            self.exact_polyline(world, s, t, scratch)
                .ok()
                .map(|p| polyline_length(&p))
        };
        let budget = scratch.budget.unwrap_or(usize::MAX);
        let (waypoints, length) =
            exact_objects::exact_path(world, self, from, options.start, to, hint, budget, scratch)?;
        if options.exact {
            let path = WorldPath {
                waypoints,
                length,
                exact_length: length,
                exact: true,
            };
            return Ok((path, 0));
        }
        match walkable::walkable_with_objects(
            world,
            self,
            &waypoints,
            options.start,
            options.clearance,
        ) {
            Err(PathError::NotWalkable) => {}
            walked => return walked.map(|(w, detours)| (WorldPath::walked(w, length), detours)),
        }
        // No walk follows the exact path: the path found on the terrain and led round
        // objects, which exists wherever a walk joins the ends; walked as the rest, each leg
        // from the height the leg before arrived at (the walk that led it round objects
        // started every leg on the highest floor, which a walker who went down does not).
        let (found, repairs) = self
            .terrain_path(world, from, to, options, scratch, repair)
            .map_err(|_| PathError::NotWalkable)?;
        let (walked, detours) =
            walkable::walk_carrying_height(world, self, &found.waypoints, options.start)
                .map_err(|_| PathError::NotWalkable)?;
        Ok((WorldPath::walked(walked, length), repairs + detours))
    }

    /// The exact shortest path from `s` to `t` (world coordinates): the start, the corners
    /// it turns at, the goal.
    fn exact_polyline(
        &self,
        world: &World,
        s: [f64; 2],
        t: [f64; 2],
        scratch: &mut PathScratch,
    ) -> Result<Vec<[f64; 2]>, PathError> {
        let index = &self.terrain;
        let ground = Grid::global(world);
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
        // The search tests the straight segment itself first (through the rectangles).
        scratch.search.run(index, &ground, &start, &goal, budget)?;
        let mut exact = Vec::with_capacity(scratch.search.corners.len() + 2);
        exact.push(s);
        exact.extend(
            scratch
                .search
                .corners
                .iter()
                .map(|&c| index.corners[c as usize].point()),
        );
        exact.push(t);
        Ok(exact)
    }
}

/// Whether an end stands on an object's floor where the terrain has no cell under it (a deck
/// over a gorge, a building over blocked ground, a dungeon's floors): a path found on the
/// terrain cannot start or end there, so the path goes through objects.
fn on_floor_only(world: &World, from: Position, to: Position) -> bool {
    [from, to].into_iter().any(|p| {
        world.terrain_cell_at(p).is_none()
            && world
                .cell_at(p, Surface::Highest)
                .is_some_and(|c| c.object.is_some())
    })
}

/// The sum of the segments' lengths.
fn polyline_length(points: &[[f64; 2]]) -> f64 {
    points
        .windows(2)
        .map(|w| search::distance(w[0], w[1]))
        .sum()
}

#[cfg(test)]
mod tests;
