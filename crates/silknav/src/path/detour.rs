//! Detours round objects: the legs of a walkable path found on the terrain, checked with the
//! server's whole walk (objects included), and the refused ones replaced by detours.
//!
//! Paths are found on the terrain ([`super`]), where a building's walls, a fortress's gates
//! and the footprint under a building are not obstacles. So a walkable path is then walked leg
//! by leg as a bot walks it, with [`World::move_along`] (objects included, no reference
//! height: what `silknav move` answers), and each leg that does not arrive is replaced:
//!
//! - the *window*: the box round the leg's start and the next few waypoints (up to
//!   [`LOOKAHEAD`]: a waypoint on a building's footprint is one a detour must pass by), grown
//!   to hold every object instance it meets, then widened by a margin ([`MARGINS`]: 40, then
//!   160, then 640 units when a smaller window holds no detour);
//! - a *lattice* of points over the window, [`SPACING`] units apart (wider when the window
//!   would hold more than [`MAX_LATTICE`] points), set off the tile grid so that no point lies
//!   on a tile side; the points where a walk can start ([`World::cell_at`] answers);
//! - a weighted A* search ([`HEURISTIC_WEIGHT`]) from the leg's start over the lattice (each
//!   point linked to its eight neighbours when the whole walk between them arrives) to any of
//!   the next waypoints (reached from a lattice point within two spacings of it, by a walk that
//!   arrives), each waypoint counted at its cost plus the rest of the path beyond it;
//! - a step between two lattice points in one open terrain cell whose box meets the box of
//!   none of the objects that cell lists is known to arrive without a walk (the server's walk
//!   crosses no edge there and asks no object in its way; the test
//!   `lattice_steps_answered_at_once_are_walks_that_arrive` checks it against the walk);
//! - the lattice path pulled taut: from its start, the farthest of its points the whole walk
//!   reaches, arriving and within 1900 units along x and along z, and so on.
//!
//! For [walkable paths through objects](super#walkable-paths-through-objects) the walks carry
//! the walker's height: the detour's start at the height the path arrived there at, each
//! lattice point at the height the best walk found so far arrived at, each walk from there
//! starting on the surface nearest it (`silknav move --y`), so that a detour on a bridge's deck
//! or under it keeps to its floor.
//!
//! The same detours are the last resort of the repairs of
//! [walkable paths](super#walkable-paths-the-default) on the terrain, under the terrain walk.
//!
//! Every leg of a detour is a walk that arrives, so the path stays one whose every leg
//! `silknav move` walks to its end. A detour is not the shortest way round: the lattice path
//! is pulled taut only through its own points (a few units longer than the shortest way per
//! turn), and paths do not yet use objects as shortcuts (a bridge the terrain path does not
//! cross is not sought out).
//!
//! A detour costs a walk per lattice step it tries, each linear in the cells it crosses, over
//! at most [`MAX_LATTICE`] points. Measurements and the design's history:
//! `docs/design/paths.md`.

use super::search::distance;
use super::walkable::{world_xz, MAX_LEG_SPAN};
use super::{PathError, PathIndex};
use crate::geometry::TILE;
use crate::world::{movement::MoveOptions, Position, Surface, World};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// How many waypoints past a refused leg's end a detour may rejoin the path at.
pub(crate) const LOOKAHEAD: usize = 4;
/// The windows' margins round the leg and the objects it meets, tried in turn.
pub(crate) const MARGINS: [f64; 3] = [40.0, 160.0, 640.0];
/// The lattice's spacing in world units: a fifth of a tile, narrower than the doorways and
/// gaps a walker passes.
pub(crate) const SPACING: f64 = 4.0;
/// The most points a lattice holds; a bigger window gets a wider spacing.
pub(crate) const MAX_LATTICE: usize = 160_000;
/// The weight of the A* heuristic over the lattice: a weighted search walks far fewer lattice
/// steps than the plain one, for paths that come out, pulled taut, a fraction of a percent
/// longer. How the weight was chosen: `docs/design/paths.md`.
pub(crate) const HEURISTIC_WEIGHT: f64 = 1.5;
/// How the lattice is set off the tile grid (tiles are 20 units): no point on a tile side.
const LATTICE_OFFSET: f64 = 0.4173;

/// `path` (start, turning points, goal) with every leg the whole walk refuses replaced by a
/// detour ([module docs](self)), and the number of detours made. The start and goal are kept.
///
/// # Errors
/// [`PathError::NotWalkable`] when no window holds a detour for some leg.
pub(crate) fn around_objects(
    world: &World,
    paths: &PathIndex,
    path: &[Position],
) -> Result<(Vec<Position>, usize), PathError> {
    around(Walk::whole(world, paths), path)
}

/// The walk a detour's legs must arrive under: the server's whole walk (objects included), or
/// the walk on the terrain alone (for the repairs of [`super::walkable`]); each walk from the
/// highest surface at its start, or ([`Walk::carrying_height`]) from the height the walk
/// before it arrived at.
#[derive(Clone, Copy)]
pub(crate) struct Walk<'w> {
    world: &'w World,
    /// Each object instance's box ([`PathIndex::object_boxes`]).
    boxes: &'w [Box2],
    terrain_only: bool,
    /// Whether each walk starts from the height the walk before it arrived at (on the
    /// surface nearest it, as `silknav move --y` starts), so that a detour keeps to the floor
    /// it is on; else from the highest surface, as `silknav move` starts without `--y`.
    carry: bool,
}

/// A walker's height at a point of a detour: `None` for the highest surface there.
type Height = Option<f32>;

impl<'w> Walk<'w> {
    /// The whole walk, as `silknav move` walks.
    pub fn whole(world: &'w World, paths: &'w PathIndex) -> Walk<'w> {
        Walk {
            world,
            boxes: paths.object_boxes.get_or_init(|| instance_boxes(world)),
            terrain_only: false,
            carry: false,
        }
    }

    /// The whole walk, each from the height the walk before it arrived at
    /// (`silknav move --y`).
    pub fn carrying_height(world: &'w World, paths: &'w PathIndex) -> Walk<'w> {
        Walk {
            world,
            boxes: paths.object_boxes.get_or_init(|| instance_boxes(world)),
            terrain_only: false,
            carry: true,
        }
    }

    /// The walk on the terrain alone, as `silknav move --terrain-only` walks.
    pub fn terrain(world: &'w World, paths: &'w PathIndex) -> Walk<'w> {
        Walk {
            world,
            boxes: paths.object_boxes.get_or_init(|| instance_boxes(world)),
            terrain_only: true,
            carry: false,
        }
    }

    /// Whether a walk can start at `p` (from some surface, when heights are carried).
    fn starts_at(self, p: Position) -> bool {
        if self.terrain_only {
            self.world.terrain_cell_at(p).is_some()
        } else {
            self.world.cell_at(p, Surface::Highest).is_some()
        }
    }

    /// Whether the walk from lattice point `a` at height `y` arrives at lattice point `b`
    /// (off the tile grid, in one region), and the height it arrives at: at once when both
    /// lie in one open terrain cell and the box of the step meets the box of none of the
    /// objects that cell lists (for the whole walk): the server's walk then starts on the
    /// terrain, crosses no edge, finds no object in its way and arrives on the terrain;
    /// otherwise by the walk ([`Walk::arrival`]).
    fn step_arrival(self, a: Position, y: Height, b: Position) -> Option<Height> {
        if self.step_is_clear(a, b) {
            return Some(if self.carry {
                self.world.height_at(b, Surface::Terrain)
            } else {
                None
            });
        }
        self.arrival(a, y, b)
    }

    /// Whether [`Walk::step_arrival`] answers at once.
    fn step_is_clear(self, a: Position, b: Position) -> bool {
        let world = self.world;
        if let (Some(ca), Some(cb)) = (world.terrain_cell_at(a), world.terrain_cell_at(b)) {
            if ca == cb && a.region == ca.region && b.region == ca.region {
                if self.terrain_only {
                    return true;
                }
                let (lo, hi) = ([a.x.min(b.x), a.z.min(b.z)], [a.x.max(b.x), a.z.max(b.z)]);
                let slot = world.region_slot(ca.region);
                let clear = slot
                    .zip(world.region(ca.region))
                    .is_some_and(|(slot, region)| {
                        region.objects_of_cell(ca.cell).iter().all(|&k| {
                            world.objects.placement(slot, k).map_or(true, |p| {
                                let [x0, z0, x1, z1] = p.bounds;
                                // Written so that a NaN side never clears.
                                hi[0] < x0 || hi[1] < z0 || lo[0] > x1 || lo[1] > z1
                            })
                        })
                    });
                return clear;
            }
        }
        false
    }

    /// Whether the walk from `a` at height `y` arrives at `b`, within the server's reach, and
    /// the height it arrives at (`None` unless heights are carried).
    fn arrival(self, a: Position, y: Height, b: Position) -> Option<Height> {
        let (p, q) = (world_xz(a), world_xz(b));
        if (q[0] - p[0]).abs() > MAX_LEG_SPAN || (q[1] - p[1]).abs() > MAX_LEG_SPAN {
            return None;
        }
        let mut options = MoveOptions::new().with_terrain_only(self.terrain_only);
        if let (true, Some(y)) = (self.carry, y) {
            options = options.with_start(Surface::Near(y));
        }
        match self.world.move_along(a, b, &options) {
            Ok(o) if o.stop.reaches_goal() => Some(self.carry.then_some(o.height)),
            _ => None,
        }
    }

    /// Whether the walk from `a` (from the highest surface) arrives at `b`.
    fn arrives(self, a: Position, b: Position) -> bool {
        self.arrival(a, None, b).is_some()
    }
}

/// [`around_objects`] under the walk `walk`.
pub(crate) fn around(
    walk: Walk<'_>,
    path: &[Position],
) -> Result<(Vec<Position>, usize), PathError> {
    let mut out = vec![path[0]];
    let mut detours = 0;
    let mut i = 0;
    while i + 1 < path.len() {
        let from = *out.last().expect("the start is in");
        if walk.arrives(from, path[i + 1]) {
            out.push(path[i + 1]);
            i += 1;
            continue;
        }
        let (legs, reached) = detour_from(walk, from, None, &path[i + 1..])?;
        out.extend(legs.into_iter().skip(1));
        detours += 1;
        i += 1 + reached;
    }
    Ok((out, detours))
}

/// A detour from `from`, for a walker at height `y` there, to one of the next waypoints
/// `ahead` (up to [`LOOKAHEAD`] of them; the rest of the path is beyond them): its points,
/// `from` first, pulled taut, and the index in `ahead` of the waypoint it rejoins the path at.
///
/// # Errors
/// [`PathError::NotWalkable`] when no window holds a detour.
pub(crate) fn detour_from(
    walk: Walk<'_>,
    from: Position,
    y: Height,
    ahead: &[Position],
) -> Result<(Vec<Position>, usize), PathError> {
    let last = LOOKAHEAD.min(ahead.len()) - 1;
    let targets = &ahead[..=last];
    // The length of the path beyond each target.
    let mut rest = vec![0.0; targets.len()];
    let mut beyond: f64 = ahead[last..]
        .windows(2)
        .map(|w| distance(world_xz(w[0]), world_xz(w[1])))
        .sum();
    for k in (0..targets.len()).rev() {
        rest[k] = beyond;
        if k > 0 {
            beyond += distance(world_xz(targets[k - 1]), world_xz(targets[k]));
        }
    }
    let found = MARGINS.iter().find_map(|&margin| {
        let lattice = Lattice::new(walk.boxes, from, targets, margin)?;
        lattice.search(walk, from, y, targets, &rest)
    });
    let (legs, reached) = found.ok_or(PathError::NotWalkable)?;
    Ok((taut(walk, &legs, y), reached))
}

/// `points` pulled taut, for a walker at height `y` at the first: the first point, then
/// repeatedly the farthest later point the walk from the last one kept reaches (the next
/// point always does: consecutive points are walks that arrive).
fn taut(walk: Walk<'_>, points: &[Position], mut y: Height) -> Vec<Position> {
    let mut out = vec![points[0]];
    let mut i = 0;
    while i + 1 < points.len() {
        let (j, arrived) = (i + 2..points.len())
            .rev()
            .find_map(|j| Some((j, walk.arrival(points[i], y, points[j])?)))
            .unwrap_or_else(|| (i + 1, walk.arrival(points[i], y, points[i + 1]).flatten()));
        out.push(points[j]);
        y = arrived;
        i = j;
    }
    out
}

/// The lattice of a window ([module docs](self)).
struct Lattice {
    origin: [f64; 2],
    spacing: f64,
    nx: usize,
    nz: usize,
}

impl Lattice {
    /// The lattice of the window round `from` and `targets`, grown by the object instances it
    /// meets and widened by `margin`; `None` when it would be empty.
    fn new(boxes: &[Box2], from: Position, targets: &[Position], margin: f64) -> Option<Lattice> {
        let mut window = Box2::EMPTY;
        for &p in std::iter::once(&from).chain(targets) {
            window.grow(world_xz(p));
        }
        let mut inside = vec![false; boxes.len()];
        loop {
            let mut grew = false;
            for (k, b) in boxes.iter().enumerate() {
                if !inside[k] && window.meets(b) {
                    inside[k] = true;
                    window.grow([b.lo[0], b.lo[1]]);
                    window.grow([b.hi[0], b.hi[1]]);
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        let lo = [window.lo[0] - margin, window.lo[1] - margin];
        let hi = [window.hi[0] + margin, window.hi[1] + margin];
        let area = (hi[0] - lo[0]) * (hi[1] - lo[1]);
        let spacing = SPACING.max((area / MAX_LATTICE as f64).sqrt());
        let count = |extent: f64| (extent / spacing).ceil() as usize + 1;
        let (nx, nz) = (count(hi[0] - lo[0]), count(hi[1] - lo[1]));
        // Off the tile grid: a lattice point never lies on a multiple of 20.
        let snap = |v: f64| (v / TILE).floor() * TILE + LATTICE_OFFSET;
        (nx * nz > 0).then_some(Lattice {
            origin: [snap(lo[0]), snap(lo[1])],
            spacing,
            nx,
            nz,
        })
    }

    fn point(&self, n: usize) -> [f64; 2] {
        let (i, j) = (n % self.nx, n / self.nx);
        [
            self.origin[0] + i as f64 * self.spacing,
            self.origin[1] + j as f64 * self.spacing,
        ]
    }

    /// The lattice points within `reach` spacings of `p`.
    fn near(&self, p: [f64; 2], reach: f64) -> impl Iterator<Item = usize> + '_ {
        let range = |v: f64, origin: f64, n: usize| {
            let lo = ((v - origin) / self.spacing - reach).ceil().max(0.0) as usize;
            let hi = ((v - origin) / self.spacing + reach).floor();
            let hi = if hi < 0.0 {
                0
            } else {
                (hi as usize + 1).min(n)
            };
            lo..hi.max(lo)
        };
        let (xs, zs) = (
            range(p[0], self.origin[0], self.nx),
            range(p[1], self.origin[1], self.nz),
        );
        zs.flat_map(move |j| xs.clone().map(move |i| j * self.nx + i))
    }

    /// A* from `from` over the lattice to one of `targets` ([module docs](self)): the points
    /// of the walk found (`from`, lattice points, the target) and which target.
    fn search(
        &self,
        walk: Walk<'_>,
        from: Position,
        from_y: Height,
        targets: &[Position],
        rest: &[f64],
    ) -> Option<(Vec<Position>, usize)> {
        let count = self.nx * self.nz;
        let target_at: Vec<[f64; 2]> = targets.iter().map(|&t| world_xz(t)).collect();
        // Per lattice point: unknown, a point a walk can start at, or not.
        let mut state = vec![State::Unknown; count];
        let open = |n: usize, state: &mut [State]| -> Option<Position> {
            if state[n] == State::Unknown {
                let p = self.point(n);
                state[n] = match Position::from_world(p[0], p[1]) {
                    Some(pos) if walk.starts_at(pos) => State::Open,
                    _ => State::Closed,
                };
            }
            (state[n] == State::Open).then(|| {
                let p = self.point(n);
                Position::from_world(p[0], p[1]).expect("checked")
            })
        };
        // The targets some lattice point near them walks to: the search reaches no other, so
        // the others neither draw it (through the heuristic) nor, when none is left, make it
        // flood the whole lattice (a waypoint sealed inside a building).
        // (Walked from the highest surface and, when heights are carried, from the start's.)
        let reachable: Vec<bool> = (0..targets.len())
            .map(|k| {
                self.near(target_at[k], 2.0).any(|n| {
                    open(n, &mut state).is_some_and(|q| {
                        walk.arrives(q, targets[k])
                            || (walk.carry && walk.arrival(q, from_y, targets[k]).is_some())
                    })
                })
            })
            .collect();
        if !reachable.contains(&true) {
            return None;
        }
        let h = |p: [f64; 2]| {
            (0..targets.len())
                .filter(|&k| reachable[k])
                .map(|k| distance(p, target_at[k]) + rest[k])
                .fold(f64::INFINITY, f64::min)
        };
        let mut cost = vec![f64::INFINITY; count];
        // The height the walker reaches each point at, by the best way found so far.
        let mut height: Vec<Height> = vec![None; count];
        let mut parent = vec![u32::MAX; count];
        let mut queue = BinaryHeap::new();
        // Node ids: lattice points, then `count + k` for target k reached.
        let start = world_xz(from);
        for n in self.near(start, 2.0) {
            let Some(p) = open(n, &mut state) else {
                continue;
            };
            let c = distance(start, self.point(n));
            if c >= cost[n] {
                continue;
            }
            if let Some(y) = walk.arrival(from, from_y, p) {
                cost[n] = c;
                height[n] = y;
                parent[n] = u32::MAX;
                queue.push(Entry::new(
                    c + HEURISTIC_WEIGHT * h(self.point(n)),
                    c,
                    n,
                    false,
                ));
            }
        }
        let mut done = vec![false; count];
        while let Some(e) = queue.pop() {
            let n = e.node;
            if e.finished {
                let k = n - count;
                let mut out = vec![targets[k]];
                let mut m = e.via;
                while m != u32::MAX as usize {
                    out.push(open(m, &mut state).expect("on the path"));
                    m = parent[m] as usize;
                }
                out.push(from);
                out.reverse();
                return Some((out, k));
            }
            if done[n] || e.cost > cost[n] {
                continue;
            }
            done[n] = true;
            let here = open(n, &mut state).expect("queued points are open");
            let p = self.point(n);
            for (k, &t) in targets.iter().enumerate() {
                if reachable[k]
                    && distance(p, target_at[k]) <= 2.0 * self.spacing
                    && walk.arrival(here, height[n], t).is_some()
                {
                    let c = e.cost + distance(p, target_at[k]);
                    let mut f = Entry::new(c + rest[k], c, count + k, true);
                    f.via = n;
                    queue.push(f);
                }
            }
            let (i, j) = ((n % self.nx) as i64, (n / self.nx) as i64);
            for (di, dj) in NEIGHBOURS {
                let (a, b) = (i + di, j + dj);
                if a < 0 || b < 0 || a >= self.nx as i64 || b >= self.nz as i64 {
                    continue;
                }
                let m = b as usize * self.nx + a as usize;
                if done[m] {
                    continue;
                }
                let c = e.cost + self.spacing * if di != 0 && dj != 0 { SQRT_2 } else { 1.0 };
                if c >= cost[m] {
                    continue;
                }
                let Some(q) = open(m, &mut state) else {
                    continue;
                };
                if let Some(y) = walk.step_arrival(here, height[n], q) {
                    cost[m] = c;
                    height[m] = y;
                    parent[m] = n as u32;
                    queue.push(Entry::new(
                        c + HEURISTIC_WEIGHT * h(self.point(m)),
                        c,
                        m,
                        false,
                    ));
                }
            }
        }
        None
    }
}

const SQRT_2: f64 = std::f64::consts::SQRT_2;
const NEIGHBOURS: [(i64, i64); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Unknown,
    Open,
    Closed,
}

/// An entry of the search's queue: a lattice point at a cost, or (`finished`) a target
/// reached from lattice point `via`, at its cost plus the path's rest beyond it.
#[derive(Debug, Clone, Copy)]
struct Entry {
    key: f64,
    cost: f64,
    node: usize,
    via: usize,
    finished: bool,
}

impl Entry {
    fn new(key: f64, cost: f64, node: usize, finished: bool) -> Entry {
        Entry {
            key,
            cost,
            node,
            via: 0,
            finished,
        }
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

impl Ord for Entry {
    fn cmp(&self, other: &Entry) -> Ordering {
        // A min-heap on the key; finished entries first among equals.
        other
            .key
            .total_cmp(&self.key)
            .then(self.finished.cmp(&other.finished))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Entry) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A box in world units.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Box2 {
    lo: [f64; 2],
    hi: [f64; 2],
}

impl Box2 {
    const EMPTY: Box2 = Box2 {
        lo: [f64::INFINITY; 2],
        hi: [f64::NEG_INFINITY; 2],
    };

    fn grow(&mut self, p: [f64; 2]) {
        for (k, v) in p.into_iter().enumerate() {
            self.lo[k] = self.lo[k].min(v);
            self.hi[k] = self.hi[k].max(v);
        }
    }

    fn meets(&self, other: &Box2) -> bool {
        self.lo[0] <= other.hi[0]
            && other.lo[0] <= self.hi[0]
            && self.lo[1] <= other.hi[1]
            && other.lo[1] <= self.hi[1]
    }
}

/// The world-unit box of every object instance's triangles.
fn instance_boxes(world: &World) -> Vec<Box2> {
    let size = f64::from(crate::geometry::REGION_SIZE);
    world
        .object_instances()
        .map(|inst| {
            let region = inst.frame_region();
            let origin = [f64::from(region.x()) * size, f64::from(region.z()) * size];
            let mut b = Box2::EMPTY;
            for (_, tri) in inst.triangles() {
                for v in tri {
                    let w = inst.place(v);
                    b.grow([origin[0] + w[0], origin[1] + w[2]]);
                }
            }
            b
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::{PathOptions, PathScratch};
    use crate::worldgen::{generate, GenOptions};

    /// Detours on the terrain alone (the last resort of the walkable repairs): for pairs of
    /// points under 300 units apart whose straight leg the walk refuses, every leg of the
    /// detour arrives, and its length lies between the exact optimum and a small factor of
    /// it.
    #[test]
    fn terrain_detours_arrive_and_stay_near_the_optimum() {
        let generated = generate(&GenOptions {
            seed: 2,
            width: 2,
            height: 2,
            ..GenOptions::default()
        })
        .unwrap();
        let world = World::from_navmeshes(generated.regions.iter().map(|(r, m)| (*r, m)));
        let paths = PathIndex::build(&world);
        let walk = Walk::terrain(&world, &paths);
        let ids: Vec<_> = world.regions().collect();
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut scratch = PathScratch::new();
        let (mut tried, mut worst, mut total) = (0, 1.0f64, 0.0);
        while tried < 60 {
            let r = ids[rng.range(0, ids.len() as u32) as usize];
            let x = f64::from(r.x()) * 1920.0 + rng.unit() * 1920.0;
            let z = f64::from(r.z()) * 1920.0 + rng.unit() * 1920.0;
            let (dx, dz) = (rng.unit() * 300.0 - 150.0, rng.unit() * 300.0 - 150.0);
            let (Some(a), Some(b)) = (
                Position::from_world(x, z),
                Position::from_world(x + dx, z + dz),
            ) else {
                continue;
            };
            if !walk.starts_at(a) || !walk.starts_at(b) || walk.arrives(a, b) {
                continue;
            }
            let Ok(exact) = paths.find_path(&world, a, b, &PathOptions::exact(), &mut scratch)
            else {
                continue;
            };
            let (legs, detours) = around(walk, &[a, b]).expect("a detour");
            assert_eq!(detours, 1);
            assert_eq!((legs[0], legs[legs.len() - 1]), (a, b));
            let mut length = 0.0;
            for leg in legs.windows(2) {
                assert!(walk.arrives(leg[0], leg[1]), "{a} → {b}: {leg:?}");
                length += distance(world_xz(leg[0]), world_xz(leg[1]));
            }
            assert!(length >= exact.length - 1e-6, "{a} → {b}");
            worst = worst.max(length / exact.length);
            total += length / exact.length;
            tried += 1;
        }
        eprintln!(
            "{tried} detours: length / optimum {:.4} mean, {worst:.4} worst",
            total / f64::from(tried)
        );
        assert!(worst < 1.1, "{worst}");
    }

    /// The lattice's shortcut never answers what the walk would not: on generated worlds with
    /// their objects, random steps of 4 to 8 units (a lattice's) in every direction from
    /// points off the tile grid round the objects; wherever the shortcut answers at once, the
    /// walk (the whole one, or the terrain one) arrives.
    #[test]
    fn lattice_steps_answered_at_once_are_walks_that_arrive() {
        use crate::files::Overwrite;
        use crate::worldgen::{Landscape, DEFAULT_ORIGIN};
        let (mut clear, mut walked) = (0, 0);
        for seed in 1..=3 {
            let dir = tempfile::tempdir().unwrap();
            generate(&GenOptions {
                seed,
                width: 3,
                height: 3,
                origin: DEFAULT_ORIGIN,
                landscape: Landscape::Rugged,
            })
            .unwrap()
            .into_files()
            .write_data_root(dir.path(), Overwrite::Refuse)
            .unwrap();
            let world = World::load(dir.path()).unwrap();
            let paths = PathIndex::build(&world);
            let boxes = instance_boxes(&world);
            assert!(!boxes.is_empty());
            let mut rng = crate::rng::SplitMix64::new(seed);
            for walk in [Walk::whole(&world, &paths), Walk::terrain(&world, &paths)] {
                for _ in 0..20_000 {
                    let b = &boxes[rng.range(0, boxes.len() as u32) as usize];
                    let pick = |lo: f64, hi: f64, u: f64| {
                        let v = lo - 60.0 + u * (hi - lo + 120.0);
                        if v % 20.0 == 0.0 {
                            v + LATTICE_OFFSET
                        } else {
                            v
                        }
                    };
                    let p = [
                        pick(b.lo[0], b.hi[0], rng.unit()),
                        pick(b.lo[1], b.hi[1], rng.unit()),
                    ];
                    let (angle, length) =
                        (rng.unit() * std::f64::consts::TAU, 4.0 + 4.0 * rng.unit());
                    let q = [p[0] + length * angle.cos(), p[1] + length * angle.sin()];
                    let (Some(a), Some(c)) = (
                        Position::from_world(p[0], p[1]),
                        Position::from_world(q[0], q[1]),
                    ) else {
                        continue;
                    };
                    if !walk.starts_at(a) {
                        continue;
                    }
                    if walk.step_is_clear(a, c) {
                        clear += 1;
                        assert!(walk.arrives(a, c), "seed {seed}: {p:?} → {q:?}");
                    } else {
                        walked += 1;
                    }
                }
            }
        }
        assert!(
            clear > 50_000 && walked > 10_000,
            "{clear} clear, {walked} walked"
        );
    }
}
