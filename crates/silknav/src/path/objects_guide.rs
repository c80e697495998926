//! A lower bound on the length of a path with objects, and the legs worth trying: the guide of
//! the search for exact paths with objects ([`super::exact_objects`]).
//!
//! # Rule
//! ## The opened ground
//! The terrain's tile masks with every tile under an object triangle opened, and no wall but
//! the sides of blocked tiles and the world's border: a world of its own with its own path
//! index. It holds every leg the object-aware line of sight finds clear, on the terrain (open
//! tiles, no pinch) or on an object's triangles, but those the server's probe carries over
//! blocked ground.
//!
//! ## Jumps
//! As a walker enters a terrain cell, the server probes the objects the cell lists along the
//! rest of its segment and sets it down on the first outline edge it meets, across blocked
//! ground too ([`crate::world::raycast`]). A jump runs straight from where the segment enters
//! the cell (an open tile of it; for a walk along a grid line, the side of a blocked tile
//! beside an open one) to a point of an outline edge that admits entry (neither 0x01 nor a
//! bridge's side, 0x10). [`OpenGround::of`] keeps, per start and object, the edges where a
//! jump lands whose hull with the start has inside points of a blocked tile, and the ends of
//! edges a segment may reach from the object's side where two edges meet.
//!
//! ## The estimate
//! In a round with bound `L`, `D` is the distance to the goal through the opened ground inside the
//! ellipse `|s p| + |p t| ≤ L`. A path from `p` takes no jump over blocked ground, and is no
//! shorter than `D(p)`, or takes a first one from a start `F` to a landing `q`, and is no shorter
//! than the sum of: its way to `F` (at least the straight line, and at least `D(p) − D(e)` for the
//! jump's point `e` of `F`, bounded by [`LowerBoundToGoal::farthest`]); the gap between `F` and the
//! landing edges; and the rest from `q` (the least `D` over the tiles those edges meet, less half a
//! tile's diagonal, or through further jumps the same way). The estimate [`LowerBoundToGoal::at`]
//! is the least of `D(p)`, the way through a first corner that sees a jump's start, and the way
//! straight to a jump's start `p` sees, and never below the straight line. It never exceeds the
//! truth; it need not be consistent.
//!
//! # Reachable legs
//! [`ReachableLegs`]: a clear leg from `u` ends at a point `u` sees on the opened ground, or at one
//! whose direction passes through the start and landing box of a jump whose start `u` sees, no
//! nearer than that landing. That superset of the clear legs is what the search tries.
//!
//! # Method
//! 1. Once per world, with the objects' points: the opened ground's world and index, and the
//!    jumps that may cross its blocked ground (the others run on it, and `D` holds them).
//! 2. Per round: Dijkstra's search from the goal over the opened ground's corners inside the
//!    ellipse, and a second one in which each corner that sees a jump's start (by the index's
//!    "seen by" records) starts at its bound through that jump.
//! 3. A point is linked to the corners it sees by the records, or by a scan of what it sees inside
//!    the ellipse. Without records, the second search starts from the corners a point of each
//!    jump's start sees, less the start's diagonal ([`LowerBoundToGoal::seed_through_start`]).
//! 4. [`ReachableLegs`] scans only the rectangles meeting an ellipse round the legs asked about;
//!    the directions are merged arcs of an angle measure without trigonometry (`diamond`), each
//!    grown by more than its rounding.
//!
//! # Cost
//! Once per world: a world and a path index about the terrain's size, and a probe per jump
//! start and object. Per round: two Dijkstra searches over the corners in the ellipse, O(E log
//! E) in their edges. Per point: a link, or a scan of the rectangles in its ellipse, which count
//! against the search's budget ([`LowerBoundToGoal::visited`]). Measured through the exact search:
//! `crates/silknav-bench/benches/objects.rs` and the `object_paths` example. Measurements and
//! the design's history: `docs/design/paths-through-objects.md`.
//!
//! # Limits
//! The bound ignores the objects' walls, so it is loose where they force a way round. A world
//! too big for the opened ground's "seen by" records links by scans, a slightly looser bound.

use super::index::{Rect, TerrainIndex, NONE, TILE};
use super::search::{
    along_line, distance, endpoint, links, refuses, taut_towards, Endpoint, Entry, Link,
};
use super::visibility::{scan_inside, sees_point, Cone, ScanScratch, Target};
use super::{polyline_length, PathError, PathIndex, PathScratch};
use crate::build::{build_world, RegionInput};
use crate::geometry::Bounds;
use crate::world::raycast::Grid;
use crate::world::World;
use jmxv::RegionId;
use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BinaryHeap;

/// Tiles along a region's side.
const TILES: usize = jmxv::nvm::TILES_PER_SIDE;

/// A jump of the server's probe ([module docs](self)): from a point of `from` (an open tile of a
/// cell that lists the object, or the side of a blocked tile of that cell beside an open one,
/// as a box) to the outline of instance `object` (its number in the boxes given to
/// [`OpenGround::of`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Jump {
    pub from: Bounds,
    pub object: u32,
}

/// Gives each of the probe's jumps that start in the region of a slot to a visitor.
pub(crate) type JumpsOf<'a> = dyn Fn(usize, &mut dyn FnMut(Jump)) + Sync + 'a;

/// An outline edge of an object where the server's probe may set a walker down (world
/// units): its ends, and a point strictly inside the object cell it bounds.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EntryEdge {
    pub a: [f64; 2],
    pub b: [f64; 2],
    pub inner: [f64; 2],
}

/// The box of the segment `[a, b]` (an object's edge, or one of its ends twice), grown a little
/// past the rounding of the placements.
fn segment_bounds(segment: [[f64; 2]; 2]) -> Bounds {
    const MARGIN: f64 = 0.01;
    Bounds::of_segment(segment).grown(MARGIN)
}

/// Whether the segment `[a, b]` meets the grid line a jump's start `from` lies along, when that
/// start is a tile's side (a walk along the line visits the tile beside it, and its segment
/// runs along the line); always when it is a tile.
fn meets_line_of(segment: [[f64; 2]; 2], from: &Bounds) -> bool {
    let b = segment_bounds(segment);
    for axis in 0..2 {
        if from.min[axis] == from.max[axis] {
            return b.min[axis] <= from.min[axis] && from.min[axis] <= b.max[axis];
        }
    }
    true
}

impl EntryEdge {
    /// Whether every point of the box `b` lies strictly on the object's side of the edge's
    /// line.
    fn behind(&self, b: &Bounds) -> bool {
        let side = |p: [f64; 2]| {
            (self.b[0] - self.a[0]) * (p[1] - self.a[1])
                - (self.b[1] - self.a[1]) * (p[0] - self.a[0])
        };
        let inner = side(self.inner);
        b.corners().iter().all(|&c| side(c) * inner > 0.0)
    }
}

/// What the opened ground needs of an object: where a jump may land on it, and whether a
/// walker may pass under its outline (a bridge's sides, flag 0x10).
#[derive(Debug, Clone)]
pub(crate) struct ObjectGround {
    pub entries: Vec<EntryEdge>,
    pub passes_under: bool,
}

/// A jump of the probe that may cross the opened ground's blocked tiles: its start, the box of
/// the edges (or edge ends) it may land on over blocked ground, and the centres of the
/// tiles those edges meet.
#[derive(Debug, Clone)]
struct Landing {
    from: Bounds,
    target: Bounds,
    tiles: Vec<[f64; 2]>,
}

/// The terrain's ground with every tile under an object triangle opened, as a world of its
/// own, and its path index; with the probe's jumps that may cross its blocked tiles.
#[derive(Debug, Clone)]
pub(crate) struct OpenGround {
    world: Box<World>,
    /// The opened ground's path index.
    index: Box<PathIndex>,
    jumps: Vec<Landing>,
    /// Per jump, the rectangles of the opened ground's path index whose closure meets the
    /// closure of its start.
    jump_rects: Vec<Vec<u32>>,
    /// The starts and landing boxes of the jumps, each pair once.
    pairs: Vec<(Bounds, Bounds)>,
    /// Per rectangle, the pairs (in `pairs`) of the jumps that list it in `jump_rects`.
    rect_pairs: HashMap<u32, Vec<u32>>,
    /// Whether the estimate links points to corners by the path index's "seen by" records where it
    /// keeps them (else by scans: [`LowerBoundToGoal`]); the tests turn it off to check the scans
    /// on worlds small enough to keep the records.
    pub by_records: bool,
}

impl OpenGround {
    /// The ground of `world` with the tiles meeting the boxes of each object's triangles
    /// opened (`surfaces[k]` for the object whose box is `boxes[k]`, world units, grown a
    /// little past the rounding of the placements), and those of the probe's `jumps` (region
    /// by region, on all cores) that may cross its blocked tiles (to the edges `objects[k]`
    /// lists). Its path index is made here.
    pub fn of(
        world: &World,
        boxes: &[Bounds],
        surfaces: &[Vec<Bounds>],
        objects: &[ObjectGround],
        jumps: &JumpsOf<'_>,
    ) -> OpenGround {
        let mut inputs: Vec<RegionInput> = world
            .regions()
            .zip(world.region_data())
            .map(|(id, region)| {
                let mut input = RegionInput::open(id);
                for tz in 0..TILES {
                    for tx in 0..TILES {
                        input.blocked[tz * TILES + tx] = !region.is_open_tile(tx, tz);
                    }
                }
                input
            })
            .collect();
        let n = TILES as i64;
        // The loaded tiles meeting a box, as global tile coordinates.
        let tiles_of = |b: &Bounds, tiles: &mut Vec<(i64, i64)>| {
            let tile = |v: f64| (v / TILE).floor() as i64;
            for gz in tile(b.min[1]).max(0)..=tile(b.max[1]).min(128 * n - 1) {
                for gx in tile(b.min[0]).max(0)..=tile(b.max[0]).min(256 * n - 1) {
                    let id = RegionId::new((gx / n) as u8, (gz / n) as u8);
                    if world.region_slot(id).is_some() {
                        tiles.push((gx, gz));
                    }
                }
            }
        };
        let mut tiles = Vec::new();
        for b in surfaces.iter().flatten() {
            tiles_of(b, &mut tiles);
        }
        for &(gx, gz) in &tiles {
            let id = RegionId::new((gx / n) as u8, (gz / n) as u8);
            let slot = world.region_slot(id).expect("a loaded tile");
            inputs[slot].blocked[(gz % n) as usize * TILES + (gx % n) as usize] = false;
        }
        // Only a jump whose segments may cross the opened ground's blocked tiles needs an
        // estimate of its own: any other runs on that ground, and its distances hold it.
        let blocked = BlockedRows::of(world, &inputs);
        let landing = |jump: Jump| -> Option<Landing> {
            // No blocked tile near the start and the object: no edge's hull meets one (most
            // starts and objects, in towns on open ground).
            let both = jump.from.union(&boxes[jump.object as usize]);
            let tile = |v: f64| (v / TILE).floor() as i64;
            let near = (
                tile(both.min[0]) - 1,
                tile(both.max[0]) + 1,
                tile(both.min[1]) - 1,
                tile(both.max[1]) + 1,
            );
            if !blocked.any(near.0, near.1, near.2, near.3) {
                return None;
            }
            let object = &objects[jump.object as usize];
            // From outside the object, a segment meets an edge from the object's side
            // only after crossing another edge of it, unless it passed under one.
            let outside = !object.passes_under && jump.from.gap(&boxes[jump.object as usize]) > 0.0;
            // Where it may land: on an edge it meets from outside the object, or at an
            // end of an edge it would meet from inside (a segment that reaches the object
            // exactly at a vertex meets the edges there together, and the probe may take
            // either).
            let edges: Vec<Bounds> = object
                .entries
                .iter()
                .flat_map(|entry| {
                    if outside && entry.behind(&jump.from) {
                        vec![[entry.a, entry.a], [entry.b, entry.b]]
                    } else {
                        vec![[entry.a, entry.b]]
                    }
                })
                .filter(|&segment| {
                    meets_line_of(segment, &jump.from) && hull_meets(&jump.from, segment, &blocked)
                })
                .map(segment_bounds)
                .collect();
            let target = edges.iter().copied().reduce(|a, b| a.union(&b))?;
            let mut tiles = Vec::new();
            for edge in &edges {
                tiles_of(edge, &mut tiles);
            }
            tiles.sort_unstable();
            tiles.dedup();
            Some(Landing {
                from: jump.from,
                target,
                tiles: tiles
                    .into_iter()
                    .map(|(gx, gz)| [(gx as f64 + 0.5) * TILE, (gz as f64 + 0.5) * TILE])
                    .collect(),
            })
        };
        // Region by region, on all cores.
        let jumps: Vec<Landing> = (0..inputs.len())
            .into_par_iter()
            .flat_map_iter(|slot| {
                let mut kept = Vec::new();
                jumps(slot, &mut |jump| kept.extend(landing(jump)));
                kept
            })
            .collect();
        let meshes = build_world(&inputs);
        let opened = World::from_navmeshes(meshes.iter().map(|(id, mesh)| (*id, mesh)));
        let opened_index = PathIndex::build(&opened);
        let index = &opened_index.terrain;
        let grid = Grid::global(&opened);
        let jump_rects: Vec<Vec<u32>> = jumps
            .iter()
            .map(|jump| {
                // The tiles whose closure meets the start's.
                let (x0, z0) = (
                    (jump.from.min[0] / TILE).floor() as i64 - 1,
                    (jump.from.min[1] / TILE).floor() as i64 - 1,
                );
                let (x1, z1) = (
                    (jump.from.max[0] / TILE).floor() as i64,
                    (jump.from.max[1] / TILE).floor() as i64,
                );
                let mut rects = Vec::new();
                for gz in z0..=z1 {
                    for gx in x0..=x1 {
                        let rect = index.rect_at(&grid, gx, gz);
                        if rect != NONE && !rects.contains(&rect) {
                            rects.push(rect);
                        }
                    }
                }
                rects
            })
            .collect();
        let mut pairs = Vec::new();
        let mut numbers: HashMap<([u64; 4], [u64; 4]), u32> = HashMap::default();
        let mut rect_pairs: HashMap<u32, Vec<u32>> = HashMap::default();
        for (jump, rects) in jumps.iter().zip(&jump_rects) {
            let key = (jump.from.to_bits(), jump.target.to_bits());
            let pair = *numbers.entry(key).or_insert_with(|| {
                pairs.push((jump.from, jump.target));
                pairs.len() as u32 - 1
            });
            for &rect in rects {
                let listed = rect_pairs.entry(rect).or_default();
                if listed.last() != Some(&pair) {
                    listed.push(pair);
                }
            }
        }
        OpenGround {
            world: Box::new(opened),
            index: Box::new(opened_index),
            jumps,
            jump_rects,
            pairs,
            rect_pairs,
            by_records: true,
        }
    }
}

impl OpenGround {
    /// Whether the opened ground's path index keeps its "seen by" records.
    #[cfg(test)]
    pub fn world_has_records(&self) -> bool {
        self.index.terrain.has_seen_by()
    }

    /// The shortest path's length on the opened ground from `s` to `t` (world units), by its
    /// path index: a lower bound of every path with objects between them. `Ok(None)` where
    /// no path joins them there, so that none joins them with objects either; an error where
    /// an end is on no open tile of the opened ground (off every region).
    pub fn shortest(
        &self,
        s: [f64; 2],
        t: [f64; 2],
        scratch: &mut PathScratch,
    ) -> Result<Option<f64>, PathError> {
        match self.index.exact_polyline(&self.world, s, t, scratch) {
            Ok(points) => Ok(Some(polyline_length(&points))),
            Err(PathError::Unreachable) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// A search round's ellipse `|s p| + |p t| ≤ bound`, which holds every path from `s` to `t`
/// no longer than `bound`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ellipse {
    pub s: [f64; 2],
    pub t: [f64; 2],
    pub bound: f64,
}

impl Ellipse {
    /// Whether `p` lies inside.
    pub fn holds(&self, p: [f64; 2]) -> bool {
        distance(self.s, p) + distance(p, self.t) <= self.bound
    }

    /// The box round it.
    pub fn bounds(&self) -> Bounds {
        let (s, t, r) = (self.s, self.t, self.bound / 2.0);
        let c = [(s[0] + t[0]) / 2.0, (s[1] + t[1]) / 2.0];
        Bounds {
            min: [c[0] - r, c[1] - r],
            max: [c[0] + r, c[1] + r],
        }
    }

    /// Whether the box `b` lies wholly outside (a sufficient test: no point of it is near
    /// enough to both ends).
    pub fn misses(&self, b: &Bounds) -> bool {
        b.gap(&Bounds::point(self.s)) + b.gap(&Bounds::point(self.t)) > self.bound
    }

    /// [`Ellipse::misses`] for a rectangle of a path index (its closure).
    pub fn misses_rect(&self, r: &Rect) -> bool {
        self.misses(&rect_bounds(r))
    }

    /// Which rectangles of `index` a scan from `root` enters to see every point inside the
    /// ellipse: those that meet it when `root` lies inside (a segment between two points
    /// inside stays inside, and a ray that leaves never comes back), every one otherwise.
    #[inline]
    pub fn enters(self, index: &TerrainIndex, root: [f64; 2]) -> impl Fn(u32) -> bool + '_ {
        let inside = self.holds(root);
        move |rect| !inside || !self.misses_rect(&index.rects[rect as usize])
    }
}

/// A jump a path inside the ellipse may take ([`Jump`]), with bounds of its parts.
struct JumpBound {
    /// Its number in the opened ground's jumps.
    jump: u32,
    /// Where it starts.
    from: Bounds,
    /// The box of the edges it may land on.
    object: Bounds,
    /// The least length of the jump itself.
    gap: f64,
    /// A lower bound of the rest of the path from its landing on.
    rest: f64,
    /// An upper bound of the distance through the opened ground from its start to the goal
    /// ([`LowerBoundToGoal::farthest`]), worked out when first needed.
    far: Option<f64>,
}

impl JumpBound {
    /// A lower bound of a path from `p` that takes this jump first: to its start and over
    /// the gap, or straight to the object, and the rest.
    fn near(&self, p: [f64; 2]) -> f64 {
        let point = Bounds::point(p);
        (self.from.gap(&point) + self.gap).max(self.object.gap(&point)) + self.rest
    }
}

/// The lower bound of [module docs](self) for one search round: from the start `s` to the
/// goal `t` within the bound `bound`.
pub(crate) struct LowerBoundToGoal<'g> {
    index: &'g TerrainIndex,
    grid: Grid<'g>,
    ellipse: Ellipse,
    goal: Endpoint,
    /// Each corner reached by the search from the goal, and its distance to the goal through
    /// the opened ground.
    distance: HashMap<u32, f64>,
    /// Each corner's lower bound of a path to the goal when the jumps are taken too.
    with_jumps: HashMap<u32, f64>,
    marks: Vec<u32>,
    generation: u32,
    links: Vec<Link>,
    scan: ScanScratch,
    /// The jumps a path inside the ellipse may take.
    jumps: Vec<JumpBound>,
    /// For each rectangle of the opened ground's index, the jumps (in `jumps`) whose start
    /// meets its closure.
    rect_jumps: HashMap<u32, Vec<u32>>,
    /// [`LowerBoundToGoal::through_ground`] at the tiles' centres and corners the jumps land on, by
    /// the point's bits: jumps to one object from many starts land on the same tiles.
    tile_ways: HashMap<[u64; 2], f64>,
    /// Whether points are linked by the index's "seen by" records, else by scans.
    records: bool,
    /// Without records, while [`LowerBoundToGoal::new`] runs: the links of each jump's start (its
    /// centre) that [`LowerBoundToGoal::farthest`] scanned for, by the start's bits, so that the
    /// seeds of the same start take them instead of scanning again.
    start_links: Option<HashMap<[u64; 4], Vec<Link>>>,
    /// How many rectangles the scans that link points without records have visited: the
    /// search counts them against its budget.
    visited: usize,
}

/// Dijkstra's search from `seeds` (corner, distance) over the corners of `index` for which
/// `within` holds.
fn dijkstra(
    index: &TerrainIndex,
    seeds: impl IntoIterator<Item = (u32, f64)>,
    within: impl Fn(u32) -> bool,
) -> HashMap<u32, f64> {
    let mut known_at: HashMap<u32, f64> = HashMap::default();
    let mut heap = BinaryHeap::new();
    for (corner, d) in seeds {
        if within(corner) {
            let known = known_at.entry(corner).or_insert(f64::INFINITY);
            if d < *known {
                *known = d;
                heap.push(Entry {
                    f: d,
                    g: d,
                    node: corner,
                });
            }
        }
    }
    while let Some(Entry { g, node, .. }) = heap.pop() {
        if g > known_at[&node] {
            continue;
        }
        let here = index.corners[node as usize].point();
        for e in index.edges_of(node) {
            if !within(e.to) {
                continue;
            }
            let d = g + distance(here, e.point());
            let known = known_at.entry(e.to).or_insert(f64::INFINITY);
            if d < *known {
                *known = d;
                heap.push(Entry {
                    f: d,
                    g: d,
                    node: e.to,
                });
            }
        }
    }
    known_at
}

impl<'g> LowerBoundToGoal<'g> {
    /// The bound for paths from `s` to `t` no longer than `bound`; `None` where the goal, or
    /// without "seen by" records a jump's start, is on no open tile of the opened ground (it
    /// lies on a surface, which that ground holds, so only a point off every region): the
    /// search then keeps the straight-line estimate. [`PathError::BudgetExceeded`] once its
    /// scans ([`LowerBoundToGoal::visited`]) visit more than `allowance` rectangles.
    pub fn new(
        ground: &'g OpenGround,
        s: [f64; 2],
        t: [f64; 2],
        bound: f64,
        allowance: usize,
    ) -> Result<Option<LowerBoundToGoal<'g>>, PathError> {
        LowerBoundToGoal::linked_by(ground, s, t, bound, ground.by_records, allowance)
    }

    /// [`LowerBoundToGoal::new`], linking points by the "seen by" records where `by_records` and
    /// the opened ground's index keeps them, else by scans.
    pub fn linked_by(
        ground: &'g OpenGround,
        s: [f64; 2],
        t: [f64; 2],
        bound: f64,
        by_records: bool,
        allowance: usize,
    ) -> Result<Option<LowerBoundToGoal<'g>>, PathError> {
        let index = &ground.index.terrain;
        let grid = Grid::global(&ground.world);
        let Some(goal) = endpoint(index, &grid, t) else {
            return Ok(None);
        };
        let ellipse = Ellipse { s, t, bound };
        let records = by_records && index.has_seen_by();
        let over = |out: &LowerBoundToGoal<'_>| {
            if out.visited > allowance {
                Err(PathError::BudgetExceeded)
            } else {
                Ok(())
            }
        };
        let mut out = LowerBoundToGoal {
            index,
            grid,
            ellipse,
            goal,
            distance: HashMap::default(),
            with_jumps: HashMap::default(),
            marks: vec![0; index.corners.len()],
            generation: 0,
            links: Vec::new(),
            scan: ScanScratch::default(),
            jumps: Vec::new(),
            rect_jumps: HashMap::default(),
            tile_ways: HashMap::default(),
            records,
            start_links: (!records).then(HashMap::default),
            visited: 0,
        };
        // Dijkstra's search from the goal over the corners a path no longer than `bound` may
        // pass (see the module docs).
        let goal = out.goal.clone();
        out.link(&goal);
        let inside = |p: [f64; 2]| ellipse.holds(p);
        let within = |c: u32| inside(index.corners[c as usize].point());
        let goal_links: Vec<(u32, f64)> =
            out.links.iter().map(|l| (l.corner, l.distance)).collect();
        out.distance = dijkstra(index, goal_links.iter().copied(), within);
        // The jumps whose start and landing may lie inside the ellipse, each with its bound
        // (the box test first: it is cheaper, and a box outside the ellipse's is outside it).
        let round = ellipse.bounds();
        let kept: Vec<u32> = (0..ground.jumps.len() as u32)
            .filter(|&j| {
                let jump = &ground.jumps[j as usize];
                jump.from.meets(&round)
                    && jump.target.meets(&round)
                    && !ellipse.misses(&jump.from)
                    && !ellipse.misses(&jump.target)
            })
            .collect();
        // Each jump's bound of the rest of the path from its landing: through the opened
        // ground, or over the way to a further jump, that jump, and its own rest (a path may
        // take jumps one after another); Dijkstra's search over the jumps.
        let mut rest: Vec<f64> = kept
            .iter()
            .map(|&j| {
                let jump = &ground.jumps[j as usize];
                out.landing(&jump.target, &jump.tiles, &inside)
            })
            .collect();
        over(&out)?;
        // Through the opened ground, each landing is at least `base` from the goal.
        let base = rest.clone();
        let mut far: Vec<Option<f64>> = vec![None; kept.len()];
        let mut done = vec![false; kept.len()];
        // The jumps by the box they land on (jumps to one object from many starts share it,
        // and the way from a landing depends on that box alone), each group with the most
        // any of its rests can be (they only fall), so that a jump that cannot shorten any of
        // a group's passes it whole.
        let mut groups: HashMap<[u64; 4], (Vec<usize>, f64)> = HashMap::default();
        for (k, &j) in kept.iter().enumerate() {
            let group = groups
                .entry(ground.jumps[j as usize].target.to_bits())
                .or_insert((Vec::new(), f64::NEG_INFINITY));
            group.0.push(k);
            group.1 = group.1.max(rest[k]);
        }
        let mut groups: Vec<(Bounds, Vec<usize>, f64)> = groups
            .into_iter()
            .map(|(target, (members, most))| (Bounds::from_bits(target), members, most))
            .collect();
        groups.sort_unstable_by(|a, b| a.1.cmp(&b.1)); // the same order, run after run
        let mut heap: BinaryHeap<Entry> = (0..kept.len())
            .filter(|&i| rest[i].is_finite())
            .map(|i| Entry {
                f: rest[i],
                g: rest[i],
                node: i as u32,
            })
            .collect();
        while let Some(Entry { g, node, .. }) = heap.pop() {
            let i = node as usize;
            if done[i] || g > rest[i] {
                continue;
            }
            over(&out)?;
            done[i] = true;
            let jump = &ground.jumps[kept[i] as usize];
            let gap = jump.from.gap(&jump.target);
            for (before, members, most) in &groups {
                // From a landing of the group, to this jump's start and over its gap, or
                // straight to where it lands; and no shorter than the way through the opened
                // ground from that landing less the way on from this jump's start.
                let way = (before.gap(&jump.from) + gap).max(before.gap(&jump.target));
                if way + rest[i] >= *most {
                    continue;
                }
                for &k in members {
                    if done[k] || way + rest[i] >= rest[k] {
                        continue;
                    }
                    let far = *far[i].get_or_insert_with(|| out.farthest(&jump.from));
                    let through = way.max(base[k] - far + gap) + rest[i];
                    if through < rest[k] {
                        rest[k] = through;
                        heap.push(Entry {
                            f: through,
                            g: through,
                            node: k as u32,
                        });
                    }
                }
            }
        }
        for (i, &j) in kept.iter().enumerate() {
            let jump = &ground.jumps[j as usize];
            if rest[i].is_finite() {
                out.jumps.push(JumpBound {
                    jump: j,
                    from: jump.from,
                    object: jump.target,
                    gap: jump.from.gap(&jump.target),
                    rest: rest[i],
                    far: far[i],
                });
            }
        }
        // By their least bound from anywhere, so that `at` stops at the first that cannot
        // better what it has.
        out.jumps
            .sort_by(|a, b| (a.gap + a.rest).total_cmp(&(b.gap + b.rest)));
        for (k, jump) in out.jumps.iter().enumerate() {
            for &rect in &ground.jump_rects[jump.jump as usize] {
                out.rect_jumps.entry(rect).or_default().push(k as u32);
            }
        }
        // With the jumps: each corner that sees a jump's start may take it (Dijkstra's search
        // from the goal and from every such corner, at its bound through the jump).
        let mut seeds = goal_links;
        // The jumps by their start (many objects' jumps start on one tile), so that what sees
        // a start is asked once.
        let mut by_start: HashMap<[u64; 4], Vec<usize>> = HashMap::default();
        for (k, jump) in out.jumps.iter().enumerate() {
            by_start.entry(jump.from.to_bits()).or_default().push(k);
        }
        let mut starts: Vec<&Vec<usize>> = by_start.values().collect();
        starts.sort_unstable(); // the same seeds in the same order, run after run
        for group in starts {
            let first = &out.jumps[group[0]];
            if !out.records {
                if out.seed_through_start(group, &mut seeds).is_none() {
                    return Ok(None);
                }
                over(&out)?;
                continue;
            }
            for &rect in &ground.jump_rects[first.jump as usize] {
                let Some(part) = rect_part(index, rect, &first.from) else {
                    continue;
                };
                for seen in index.seen_by(rect) {
                    let corner = seen.corner;
                    let p = index.corners[corner as usize].point();
                    if within(corner) && cone_meets_box(p, &seen.cone(), &part) {
                        let near = group.iter().map(|&k| out.jumps[k].near(p));
                        seeds.push((corner, near.fold(f64::INFINITY, f64::min)));
                    }
                }
            }
        }
        out.start_links = None;
        over(&out)?;
        out.with_jumps = dijkstra(index, seeds, within);
        Ok(Some(out))
    }

    /// How many rectangles the scans that link points without records have visited, in
    /// making it and in [`LowerBoundToGoal::at`].
    pub fn visited(&self) -> usize {
        self.visited
    }

    /// Without "seen by" records, the seeds of the search with the jumps for the jumps of
    /// `group` (numbers in `self.jumps`), which share their start `F`: the corners a point `c`
    /// of `F` inside the ellipse sees, each at its way to `c`, less `F`'s diagonal, plus the
    /// least gap and rest of the group.
    ///
    /// Why that is a bound: a path of the round from a corner `k` that takes one of these jumps
    /// first runs on the opened ground to a point `e` of `F`, its last corner `m` (or `k` itself)
    /// in sight of `e`. The ground of `F` is open and convex, so `m → e → c` runs on it, and the
    /// taut way from `m` to `c` turns only at corners inside the triangle `m e c`, which the
    /// ellipse holds (it is convex and holds all three), so the search from the seeds reaches `k`
    /// at most `|k … m e| + |e c| − diagonal` plus the jump's gap and rest, and `|e c|` is at most
    /// the diagonal. A start with no point inside the ellipse is taken by no path of the round, and
    /// seeds nothing. `None` where `c` is on no open tile of the opened ground (it should be: `F`
    /// is open ground, or the side of a blocked tile beside an open one). Where
    /// [`LowerBoundToGoal::farthest`] has scanned from `F`'s centre, its links are taken (half the
    /// scans of a long round on the 3,300-region world).
    fn seed_through_start(&mut self, group: &[usize], seeds: &mut Vec<(u32, f64)>) -> Option<()> {
        let from = self.jumps[group[0]].from;
        let diagonal = distance(from.min, from.max);
        let least = group
            .iter()
            .map(|&k| self.jumps[k].gap + self.jumps[k].rest)
            .fold(f64::INFINITY, f64::min);
        let scanned = self
            .start_links
            .as_mut()
            .and_then(|known| known.remove(&from.to_bits()));
        let links = match scanned {
            // The centre's links, from `farthest` (the centre is inside the ellipse).
            Some(links) => links,
            None => {
                let Some(c) = point_inside(&from, &self.ellipse) else {
                    return Some(());
                };
                let end = endpoint(self.index, &self.grid, c)?;
                self.link(&end);
                std::mem::take(&mut self.links)
            }
        };
        seeds.extend(
            links
                .iter()
                .map(|link| (link.corner, link.distance - diagonal + least)),
        );
        Some(())
    }

    /// A lower bound of the distance through the opened ground inside the ellipse to the goal
    /// from any point of a jump's landing edges, their box `object` and the centres `tiles` of
    /// the tiles they meet (opened: the edges bound object triangles): the least over those
    /// tiles, inside the ellipse, of a centre's distance less half a tile's diagonal (within a
    /// tile, whose ground is open, the distance changes by at most the way between two of its
    /// points), of a corner's less a diagonal for a tile whose centre is outside, or of the
    /// straight line for one with no corner inside either; at least the box's straight
    /// distance to the goal.
    fn landing(
        &mut self,
        object: &Bounds,
        tiles: &[[f64; 2]],
        inside: &impl Fn([f64; 2]) -> bool,
    ) -> f64 {
        const HALF_DIAGONAL: f64 = 14.143; // above 10·√2
        let least = tiles
            .iter()
            .filter_map(|&c| {
                let tile = Bounds::point(c).grown(10.0);
                if self.ellipse.misses(&tile) {
                    return None; // no path inside the ellipse lands there
                }
                if inside(c) {
                    return Some(self.through_ground_once(c) - HALF_DIAGONAL);
                }
                // A point of the tile inside the ellipse: the way between it and any other such
                // point stays inside the tile and the ellipse.
                let straight = tile.gap(&Bounds::point(self.ellipse.t));
                Some(match tile.corners().into_iter().find(|&p| inside(p)) {
                    Some(p) => (self.through_ground_once(p) - 2.0 * HALF_DIAGONAL).max(straight),
                    None => straight,
                })
            })
            .fold(f64::INFINITY, f64::min);
        least.max(object.gap(&Bounds::point(self.ellipse.t)))
    }

    /// Links `end` to the corners it sees (into `self.links`), without the links along grid
    /// lines that the walls there refuse.
    fn link(&mut self, end: &Endpoint) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.marks.fill(0);
            self.generation = 1;
        }
        self.links.clear();
        if self.records {
            let cells = self.index.table.as_ref().and_then(|t| t.cells.as_ref());
            links(
                self.index,
                cells,
                end,
                self.generation,
                &mut self.marks,
                &mut self.links,
            );
        } else {
            // A scan of what the point sees, as the path search links its ends without
            // records, inside the ellipse (the distances know only corners inside it).
            let (index, ellipse, generation) = (self.index, self.ellipse, self.generation);
            let (marks, out, point) = (&mut self.marks, &mut self.links, end.point);
            let visited = &mut self.visited;
            scan_inside(
                index,
                point,
                end.roots(),
                ellipse.enters(index, point),
                &mut self.scan,
                |rect, cone| {
                    *visited += 1;
                    for corner in index.corners_of(rect) {
                        let p = corner.point();
                        let mark = &mut marks[corner.id as usize];
                        if *mark != generation
                            && cone.is_none_or(|k| k.holds(point, p))
                            && taut_towards(corner.taut_mask, p, point)
                        {
                            *mark = generation;
                            out.push(Link {
                                corner: corner.id,
                                distance: distance(point, p),
                                unchecked: along_line(end, &index.corners[corner.id as usize]),
                            });
                        }
                    }
                    false
                },
            );
        }
        let (index, grid) = (self.index, &self.grid);
        self.links
            .retain(|link| !link.unchecked || !refuses(index, grid, end, link.corner));
    }

    /// [`LowerBoundToGoal::through_ground`], worked out once per point (of the tiles jumps land
    /// on).
    fn through_ground_once(&mut self, p: [f64; 2]) -> f64 {
        let key = p.map(f64::to_bits);
        if let Some(&known) = self.tile_ways.get(&key) {
            return known;
        }
        let way = self.through_ground(p);
        self.tile_ways.insert(key, way);
        way
    }

    /// The shortest distance from `p` to the goal through the opened ground inside the round's
    /// ellipse (infinite where there is none); a point on no open tile of the opened ground
    /// (which holds every surface) gets the straight line.
    fn through_ground(&mut self, p: [f64; 2]) -> f64 {
        match endpoint(self.index, &self.grid, p) {
            Some(end) => self.through_end(&end),
            None => distance(p, self.ellipse.t),
        }
    }

    /// [`LowerBoundToGoal::through_ground`] from a point of the opened ground, `end`; leaves
    /// `end`'s links in `self.links`.
    fn through_end(&mut self, end: &Endpoint) -> f64 {
        let straight = distance(end.point, self.ellipse.t);
        self.link(end);
        let best = self.via_links(&self.distance);
        if best > straight {
            let target = Target {
                point: self.ellipse.t,
                roots: self.goal.roots(),
            };
            if sees_point(self.index, end.point, end.roots(), &target, &mut self.scan) {
                return straight;
            }
        }
        best
    }

    /// The least way to the goal through a corner of `self.links`, by the corners' distances
    /// in `to_goal` (infinite where none is known).
    fn via_links(&self, to_goal: &HashMap<u32, f64>) -> f64 {
        self.links
            .iter()
            .filter_map(|link| Some(link.distance + to_goal.get(&link.corner)?))
            .fold(f64::INFINITY, f64::min)
    }

    /// The estimate of the length of a path from `p` to the goal inside the round's ellipse
    /// ([module docs](self)): the least of the way through the opened ground, of the ways
    /// through a corner to a jump, and of the ways straight to a jump's start in sight; never
    /// below the straight line; infinite where there is none.
    pub fn at(&mut self, p: [f64; 2]) -> f64 {
        let straight = distance(p, self.ellipse.t);
        let Some(end) = endpoint(self.index, &self.grid, p) else {
            return straight;
        };
        let ground = self.through_end(&end);
        // Through a first corner, the jumps too.
        let through_corner = self.via_links(&self.with_jumps);
        let mut best = ground.min(through_corner);
        // Straight to a jump's start: the jumps whose bound is below the best so far, at
        // their bound; kept only if that start is in sight.
        let mut candidates: Vec<(u32, f64)> = Vec::new();
        for k in 0..self.jumps.len() {
            if self.jumps[k].gap + self.jumps[k].rest >= best {
                break; // and so are all after it (`near` is at least that)
            }
            let near = self.jumps[k].near(p);
            if near >= best {
                continue;
            }
            // No shorter than the way through the opened ground less the way on from the
            // jump's start (the triangle inequality of that ground's distances).
            let far = match self.jumps[k].far {
                Some(far) => far,
                None => {
                    let from = self.jumps[k].from;
                    let far = self.farthest(&from);
                    self.jumps[k].far = Some(far);
                    far
                }
            };
            let jump = &self.jumps[k];
            let bound = near.max(ground - far + jump.gap + jump.rest);
            if bound < best {
                candidates.push((k as u32, bound));
            }
        }
        if !candidates.is_empty() {
            let mut bounds: HashMap<u32, f64> = candidates.iter().copied().collect();
            let (index, jumps, rect_jumps) = (self.index, &self.jumps, &self.rect_jumps);
            // Only the starts' points inside the ellipse matter (the paths the round looks
            // at lie in it). On long detours the ellipse is a small part of what `p` sees.
            let ellipse = self.ellipse;
            scan_inside(
                index,
                p,
                end.roots(),
                ellipse.enters(index, p),
                &mut self.scan,
                |rect, cone| {
                    for k in rect_jumps.get(&rect).into_iter().flatten() {
                        if let Some(&bound) = bounds.get(k) {
                            let part = rect_part(index, rect, &jumps[*k as usize].from);
                            let seen = part.is_some_and(|part| {
                                cone.is_none_or(|cone| cone_meets_box(p, cone, &part))
                            });
                            if seen {
                                best = best.min(bound);
                                bounds.remove(k);
                            }
                        }
                    }
                    // Every start is found in sight: the scan has nothing more to tell.
                    bounds.is_empty()
                },
            );
        }
        best.max(straight)
    }

    /// An upper bound of the distance through the opened ground inside the ellipse from any
    /// point of a jump's start `from` (an open tile, or a side of a tile bordering an open
    /// one: either way a piece of open ground along which that distance changes by at most the
    /// way between two points) to the goal; infinite where unknown.
    fn farthest(&mut self, from: &Bounds) -> f64 {
        // A path through a point outside the ellipse is no path of the ellipse.
        if !from.corners().iter().all(|&c| self.ellipse.holds(c)) {
            return f64::INFINITY;
        }
        let centre = from.centre();
        let reach = 0.5 * distance(from.min, from.max);
        let Some(end) = endpoint(self.index, &self.grid, centre) else {
            return f64::INFINITY;
        };
        let best = self.through_end(&end);
        if let Some(known) = &mut self.start_links {
            known.insert(from.to_bits(), self.links.clone());
        }
        best + reach + 1e-6
    }
}

/// Which of a search round's points a leg from a point may reach ([module
/// docs](self#reachable-legs)): a superset of those the object-aware line of sight finds clear.
pub(crate) struct ReachableLegs<'g> {
    ground: &'g OpenGround,
    grid: Grid<'g>,
    points: Vec<[f64; 2]>,
    /// For each rectangle of the opened ground's index, the points in its closure.
    rect_points: HashMap<u32, Vec<u32>>,
    /// The points on no open tile of the opened ground, which every leg may reach.
    unplaced: Vec<u32>,
    marks: Vec<u32>,
    generation: u32,
    scan: ScanScratch,
    /// The jumps' pairs found in sight by one call of [`ReachableLegs::seen_from`].
    seen_pairs: HashSet<u32>,
}

impl<'g> ReachableLegs<'g> {
    /// The legs reachable on the opened ground `ground` between `points` (world x, z).
    pub fn new(ground: &'g OpenGround, points: Vec<[f64; 2]>) -> ReachableLegs<'g> {
        let index = &ground.index.terrain;
        let grid = Grid::global(&ground.world);
        let mut rect_points: HashMap<u32, Vec<u32>> = HashMap::default();
        let mut unplaced = Vec::new();
        for (k, &p) in points.iter().enumerate() {
            match endpoint(index, &grid, p) {
                Some(end) => {
                    for &rect in end.roots() {
                        rect_points.entry(rect).or_default().push(k as u32);
                    }
                }
                None => unplaced.push(k as u32),
            }
        }
        ReachableLegs {
            ground,
            grid,
            marks: vec![0; points.len()],
            points,
            rect_points,
            unplaced,
            generation: 0,
            scan: ScanScratch::default(),
            seen_pairs: HashSet::default(),
        }
    }

    /// The points (their numbers in the list given to [`ReachableLegs::new`], ascending) that a leg
    /// from `u` inside `within` may end at, into `out`: those `u` sees on the opened ground,
    /// and those beyond the start of a jump it sees there (the segment meets that start);
    /// every point where `u` is on no open tile of that ground. Points outside `within` may
    /// be given too. `within` must hold `u`: the search gives the ellipse of the legs a state
    /// may take (foci the state's point and the goal), inside the round's.
    pub fn seen_from(&mut self, u: [f64; 2], within: Ellipse, out: &mut Vec<u32>) {
        out.clear();
        let index = &self.ground.index.terrain;
        let Some(end) = endpoint(index, &self.grid, u) else {
            out.extend(0..self.points.len() as u32);
            return;
        };
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.marks.fill(0);
            self.generation = 1;
        }
        let generation = self.generation;
        let (points, marks) = (&self.points, &mut self.marks);
        let mut starts: Vec<(Bounds, Bounds)> = Vec::new();
        let seen_pairs = &mut self.seen_pairs;
        seen_pairs.clear();
        let (ground, rect_points) = (self.ground, &self.rect_points);
        // Only what lies inside the ellipse (a convex region holding `u`, so no need of
        // `Ellipse::enters`'s test of the root, which measured 3% of the search) matters.
        let outside = |b: &Bounds| within.misses(b);
        scan_inside(
            index,
            u,
            end.roots(),
            |rect| !within.misses_rect(&index.rects[rect as usize]),
            &mut self.scan,
            |rect, cone| {
                for &k in rect_points.get(&rect).into_iter().flatten() {
                    if marks[k as usize] != generation
                        && cone.is_none_or(|cone| cone.holds(u, points[k as usize]))
                    {
                        marks[k as usize] = generation;
                        out.push(k);
                    }
                }
                for &pair in ground.rect_pairs.get(&rect).into_iter().flatten() {
                    let (from, target) = &ground.pairs[pair as usize];
                    if outside(from) || outside(target) || seen_pairs.contains(&pair) {
                        continue;
                    }
                    let seen = rect_part(index, rect, from)
                        .is_some_and(|part| cone.is_none_or(|cone| cone_meets_box(u, cone, &part)));
                    if seen {
                        seen_pairs.insert(pair);
                        starts.push((*from, *target));
                    }
                }
                false
            },
        );
        if !starts.is_empty() {
            // Past a jump's start, the leg may run on anywhere its segment leads: the
            // directions through a start and its landing, and no nearer than that landing.
            let shadows = Shadows::of(u, &starts);
            for (k, &p) in points.iter().enumerate() {
                if marks[k] != generation && shadows.hold(u, p) {
                    marks[k] = generation;
                    out.push(k as u32);
                }
            }
        }
        out.extend(self.unplaced.iter().copied());
        out.sort_unstable();
    }
}

#[cfg(test)]
impl ReachableLegs<'_> {
    /// Whether `v` is in sight of `u` on the opened ground itself (not only past a jump's
    /// start).
    pub fn in_plain_sight(&mut self, u: [f64; 2], v: [f64; 2]) -> bool {
        let index = &self.ground.index.terrain;
        let (Some(a), Some(b)) = (
            endpoint(index, &self.grid, u),
            endpoint(index, &self.grid, v),
        ) else {
            return false;
        };
        let target = Target {
            point: v,
            roots: b.roots(),
        };
        sees_point(index, u, a.roots(), &target, &mut self.scan)
    }
}

/// The directions from a point through pairs of boxes (a jump's start and its landing),
/// merged into arcs of [`diamond`] angle, with the least distance to a second box of each
/// arc: a superset of the points whose segment from that point meets both boxes of a pair.
struct Shadows {
    /// Sorted, disjoint: from, to (at most 4), least distance.
    arcs: Vec<(f64, f64, f64)>,
}

/// The directions from `u` through the closed box `b`, grown a little (a segment that grazes
/// a box meets it): an arc of [`diamond`] angle (start in `[0, 4)`, width less than 2);
/// `None` where `u` is in the box, which every direction meets.
fn arc_through(u: [f64; 2], b: &Bounds) -> Option<(f64, f64)> {
    const SLACK: f64 = 1e-9; // above the rounding of the angles
    let b = b.grown(1e-6);
    if b.gap(&Bounds::point(u)) == 0.0 {
        return None;
    }
    // From outside, the directions to the corners span less than half a turn (less than 2),
    // so each lies within 2 of the first.
    let corners = b.corners();
    let first = diamond([corners[0][0] - u[0], corners[0][1] - u[1]]);
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for c in &corners[1..] {
        let off = wrapped(diamond([c[0] - u[0], c[1] - u[1]]) - first);
        lo = lo.min(off);
        hi = hi.max(off);
    }
    Some(((first + lo - SLACK).rem_euclid(4.0), hi - lo + 2.0 * SLACK))
}

/// A difference of [`diamond`] angles, in `(-2, 2]`.
fn wrapped(d: f64) -> f64 {
    if d > 2.0 {
        d - 4.0
    } else if d <= -2.0 {
        d + 4.0
    } else {
        d
    }
}

impl Shadows {
    fn of(u: [f64; 2], pairs: &[(Bounds, Bounds)]) -> Shadows {
        let mut arcs: Vec<(f64, f64, f64)> = Vec::new();
        for (from, target) in pairs {
            let gap = target.gap(&Bounds::point(u));
            // Two arcs of less than half a turn meet in one arc, or none.
            let arc = match (arc_through(u, from), arc_through(u, target)) {
                (None, None) => (0.0, 4.0),
                (Some(arc), None) | (None, Some(arc)) => arc,
                (Some((a, wa)), Some((b, wb))) => {
                    let d = wrapped(b - a);
                    let (lo, hi) = (d.max(0.0), (d + wb).min(wa));
                    if lo > hi {
                        continue;
                    }
                    ((a + lo).rem_euclid(4.0), hi - lo)
                }
            };
            let (from, to) = (arc.0, arc.0 + arc.1);
            if to > 4.0 {
                arcs.push((from, 4.0, gap));
                arcs.push((0.0, to - 4.0, gap));
            } else {
                arcs.push((from, to, gap));
            }
        }
        arcs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut merged: Vec<(f64, f64, f64)> = Vec::with_capacity(arcs.len());
        for arc in arcs {
            match merged.last_mut() {
                Some(last) if arc.0 <= last.1 => {
                    last.1 = last.1.max(arc.1);
                    last.2 = last.2.min(arc.2);
                }
                _ => merged.push(arc),
            }
        }
        Shadows { arcs: merged }
    }

    /// Whether the segment from `u` to `p` may meet both boxes of a pair.
    fn hold(&self, u: [f64; 2], p: [f64; 2]) -> bool {
        let d = [p[0] - u[0], p[1] - u[1]];
        if d == [0.0, 0.0] {
            return false; // `u` itself: the scan sees it in its own rectangles
        }
        let a = diamond(d);
        let k = self.arcs.partition_point(|arc| arc.1 < a);
        self.arcs
            .get(k)
            .is_some_and(|&(from, _, gap)| from <= a && distance(u, p) >= gap - 1e-6)
    }
}

/// A measure of the direction of `d` (not zero), in `[0, 4)`, increasing with its angle
/// counter-clockwise from +x (not proportional to it), opposite directions 2 apart: without a
/// trigonometric function.
fn diamond(d: [f64; 2]) -> f64 {
    let (x, y) = (d[0], d[1]);
    if y >= 0.0 {
        if x >= 0.0 {
            y / (x + y)
        } else {
            1.0 - x / (y - x)
        }
    } else if x < 0.0 {
        2.0 - y / (-x - y)
    } else {
        3.0 + x / (x - y)
    }
}

/// A point of the closed box `b` inside `ellipse` (within a billionth of its bound), if any:
/// the box's centre, or a point where the segment between the foci crosses the box, or the
/// least of `|s p| + |p t|` along each side (it is convex along a line).
fn point_inside(b: &Bounds, ellipse: &Ellipse) -> Option<[f64; 2]> {
    let limit = ellipse.bound * (1.0 + 1e-9);
    let f = |p: [f64; 2]| distance(ellipse.s, p) + distance(p, ellipse.t);
    let centre = b.centre();
    if f(centre) <= limit {
        return Some(centre);
    }
    let (s, t) = (ellipse.s, ellipse.t);
    // The foci's segment against the box's slabs.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for axis in 0..2 {
        let d = t[axis] - s[axis];
        if d == 0.0 {
            if s[axis] < b.min[axis] || s[axis] > b.max[axis] {
                hi = -1.0;
            }
        } else {
            let (u, v) = ((b.min[axis] - s[axis]) / d, (b.max[axis] - s[axis]) / d);
            lo = lo.max(u.min(v));
            hi = hi.min(u.max(v));
        }
    }
    if lo <= hi {
        let m = (lo + hi) / 2.0;
        let p = [s[0] + m * (t[0] - s[0]), s[1] + m * (t[1] - s[1])];
        let clamped = [
            p[0].clamp(b.min[0], b.max[0]),
            p[1].clamp(b.min[1], b.max[1]),
        ];
        if f(clamped) <= limit {
            return Some(clamped);
        }
    }
    let corners = b.corners();
    (0..4).find_map(|k| {
        let (a, z) = (corners[k], corners[(k + 1) % 4]);
        let at = |u: f64| [a[0] + u * (z[0] - a[0]), a[1] + u * (z[1] - a[1])];
        // Golden-section search: f is convex along the side.
        let (mut x0, mut x1) = (0.0f64, 1.0f64);
        const GOLD: f64 = 0.618_033_988_749_895;
        for _ in 0..60 {
            let (m0, m1) = (x1 - GOLD * (x1 - x0), x0 + GOLD * (x1 - x0));
            if f(at(m0)) <= f(at(m1)) {
                x1 = m1;
            } else {
                x0 = m0;
            }
        }
        let p = at((x0 + x1) / 2.0);
        (f(p) <= limit).then_some(p)
    })
}

/// The closure of the rectangle `r` of a path index, world units.
fn rect_bounds(r: &Rect) -> Bounds {
    let world = |v: i32| f64::from(v) * TILE;
    Bounds {
        min: [world(r.x0), world(r.z0)],
        max: [world(r.x1), world(r.z1)],
    }
}

/// The part of the box `b` in the closure of rectangle `rect` of `index`, where they meet.
fn rect_part(index: &TerrainIndex, rect: u32, b: &Bounds) -> Option<Bounds> {
    b.intersection(&rect_bounds(&index.rects[rect as usize]))
}

/// Whether the closed cone `cone` seen from `root` meets the closed box `b`: a corner of the
/// box lies in it, or one of its rays meets the box.
fn cone_meets_box(root: [f64; 2], cone: &Cone, b: &Bounds) -> bool {
    if b.corners().iter().any(|&c| cone.holds(root, c)) {
        return true;
    }
    [cone.right, cone.left].iter().any(|&through| {
        // The ray from the root through `through` against the box's slabs.
        let d = [through[0] - root[0], through[1] - root[1]];
        let (mut lo, mut hi) = (0.0f64, f64::INFINITY);
        for axis in 0..2 {
            let (a, z) = (b.min[axis], b.max[axis]);
            if d[axis] == 0.0 {
                if root[axis] < a || root[axis] > z {
                    return false;
                }
            } else {
                let (u, v) = ((a - root[axis]) / d[axis], (z - root[axis]) / d[axis]);
                lo = lo.max(u.min(v));
                hi = hi.min(u.max(v));
            }
        }
        lo <= hi
    })
}

/// The opened ground's blocked tiles, a row of bits per region and tile row (whether a tile is
/// blocked), and per region the counts of its corner rectangles (whether a box of tiles holds
/// any: four numbers per region it meets); tiles off the loaded regions count as blocked.
struct BlockedRows<'w> {
    world: &'w World,
    rows: Vec<[u128; TILES]>,
    /// Per region, the blocked tiles of each corner rectangle: `sums[z · (TILES + 1) + x]`
    /// counts those of columns `0..x` and rows `0..z`.
    sums: Vec<Vec<u16>>,
}

impl<'w> BlockedRows<'w> {
    fn of(world: &'w World, inputs: &[RegionInput]) -> BlockedRows<'w> {
        let rows = inputs
            .iter()
            .map(|input| {
                let mut rows = [0u128; TILES];
                for (t, &b) in input.blocked.iter().enumerate() {
                    if b {
                        rows[t / TILES] |= 1 << (t % TILES);
                    }
                }
                rows
            })
            .collect();
        let sums = inputs
            .iter()
            .map(|input| {
                let width = TILES + 1;
                let mut sums = vec![0u16; width * width];
                for z in 0..TILES {
                    for x in 0..TILES {
                        sums[(z + 1) * width + x + 1] = sums[z * width + x + 1]
                            + sums[(z + 1) * width + x]
                            - sums[z * width + x]
                            + u16::from(input.blocked[z * TILES + x]);
                    }
                }
                sums
            })
            .collect();
        BlockedRows { world, rows, sums }
    }

    /// The loaded region slot holding global tile row `gz` and column `gx`, if any.
    fn slot(&self, gx: i64, gz: i64) -> Option<usize> {
        let n = TILES as i64;
        if gx < 0 || gz < 0 || gx >= 256 * n || gz >= 128 * n {
            return None;
        }
        self.world
            .region_slot(RegionId::new((gx / n) as u8, (gz / n) as u8))
    }

    fn blocked(&self, gx: i64, gz: i64) -> bool {
        let n = TILES as i64;
        self.slot(gx, gz)
            .is_none_or(|slot| self.rows[slot][(gz % n) as usize] & (1 << (gx % n)) != 0)
    }

    /// Whether any tile of columns `x0..=x1` and rows `z0..=z1` is blocked: per region the
    /// box meets, by the region's sums (a tile off the loaded regions counts as blocked).
    fn any(&self, x0: i64, x1: i64, z0: i64, z1: i64) -> bool {
        let n = TILES as i64;
        for rz in z0.div_euclid(n)..=z1.div_euclid(n) {
            for rx in x0.div_euclid(n)..=x1.div_euclid(n) {
                let Some(slot) = self.slot(rx * n, rz * n) else {
                    return true;
                };
                let (ax, bx) = (x0.max(rx * n) - rx * n, x1.min(rx * n + n - 1) - rx * n + 1);
                let (az, bz) = (z0.max(rz * n) - rz * n, z1.min(rz * n + n - 1) - rz * n + 1);
                let sums = &self.sums[slot];
                let at = |x: i64, z: i64| i32::from(sums[z as usize * (TILES + 1) + x as usize]);
                if at(bx, bz) - at(ax, bz) - at(bx, az) + at(ax, az) > 0 {
                    return true;
                }
            }
        }
        false
    }
}

/// Whether a tile blocked in `blocked` has inside points in the convex hull of the
/// box `a` (world units) and the segment `b`: where none has,
/// every segment from a point of `a` to a point of `b` runs on open tiles, touching blocked
/// ones at most along their sides, and squeezes through no corner where two blocked tiles
/// meet (a hull holding such a segment holds points on both sides of it near that corner,
/// and a hull without an inside counts as meeting one).
fn hull_meets(a: &Bounds, b: [[f64; 2]; 2], blocked: &BlockedRows<'_>) -> bool {
    let [c0, c1, c2, c3] = a.corners();
    let points = [c0, c1, c2, c3, b[0], b[1]];
    let hull = convex_hull(&points);
    if hull.len() < 3 {
        return !clear_along_line(&points, &|gx, gz| blocked.blocked(gx, gz));
    }
    let Bounds { min: lo, max: hi } = Bounds::of_points(points);
    // The tiles whose inside meets the hull's box.
    let first = |v: f64| (v / TILE).floor() as i64;
    let last = |v: f64| (v / TILE).ceil() as i64 - 1;
    let (x0, x1, z0, z1) = (first(lo[0]), last(hi[0]), first(lo[1]), last(hi[1]));
    if !blocked.any(x0, x1.max(x0), z0, z1.max(z0)) {
        return false;
    }
    for gz in z0..=z1 {
        for gx in x0..=x1 {
            if !blocked.blocked(gx, gz) {
                continue;
            }
            // The tile's inside, less a sliver: the objects' edges are placed by rounded
            // transforms, and an edge along a tile's side may stray into it by far less than
            // changes any length that matters.
            const SLIVER: f64 = 1e-4;
            let (x0, z0) = (gx as f64 * TILE + SLIVER, gz as f64 * TILE + SLIVER);
            let (x1, z1) = (
                (gx + 1) as f64 * TILE - SLIVER,
                (gz + 1) as f64 * TILE - SLIVER,
            );
            let tile = [[x0, z0], [x1, z0], [x1, z1], [x0, z1]];
            // Separated when the tile lies wholly on the outer side of one of the hull's
            // edges (touching counts as outside); the box's sides were checked above.
            let separated = (0..hull.len()).any(|i| {
                let (p, q) = (hull[i], hull[(i + 1) % hull.len()]);
                tile.iter()
                    .all(|c| (q[0] - p[0]) * (c[1] - p[1]) - (q[1] - p[1]) * (c[0] - p[0]) <= 0.0)
            });
            if !separated {
                return true;
            }
        }
    }
    false
}

/// Whether the segment holding `points` (all on one line) runs along a grid line, with an
/// open tile beside it all the way and no squeeze between two blocked tiles meeting at a
/// vertex on it: clear on the opened ground. Any other line counts as not clear.
fn clear_along_line(points: &[[f64; 2]], blocked: &impl Fn(i64, i64) -> bool) -> bool {
    let Bounds { min: lo, max: hi } = Bounds::of_points(points.iter().copied());
    // Along x (axis 0) on the line z = lo[1], or along z on x = lo[0].
    let (along, line) = if lo[1] == hi[1] {
        (0, lo[1])
    } else if lo[0] == hi[0] {
        (1, lo[0])
    } else {
        return false;
    };
    if line % TILE != 0.0 {
        return false;
    }
    let g = (line / TILE) as i64;
    // The two tiles beside the line at step `k` along it: on its low side and its high side.
    let beside = |k: i64| {
        if along == 0 {
            (!blocked(k, g - 1), !blocked(k, g))
        } else {
            (!blocked(g - 1, k), !blocked(g, k))
        }
    };
    let first = (lo[along] / TILE).floor() as i64;
    let last = ((hi[along] / TILE).ceil() as i64 - 1).max(first);
    let mut before: Option<(bool, bool)> = None;
    for k in first..=last {
        let (low, high) = beside(k);
        if !low && !high {
            return false;
        }
        if let Some((was_low, was_high)) = before {
            if (!was_low && !high) || (!was_high && !low) {
                return false;
            }
        }
        before = Some((low, high));
    }
    true
}

/// The convex hull of `points`, counter-clockwise, without collinear points (Andrew's
/// monotone chain).
fn convex_hull(points: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let mut sorted = points.to_vec();
    sorted.sort_by(|p, q| p[0].total_cmp(&q[0]).then(p[1].total_cmp(&q[1])));
    sorted.dedup();
    if sorted.len() < 3 {
        return sorted;
    }
    let cross = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let mut hull: Vec<[f64; 2]> = Vec::with_capacity(2 * sorted.len());
    for pass in 0..2 {
        let start = hull.len();
        let order: Box<dyn Iterator<Item = &[f64; 2]>> = if pass == 0 {
            Box::new(sorted.iter())
        } else {
            Box::new(sorted.iter().rev())
        };
        for &p in order {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// `point_inside` finds a point of a box inside an ellipse wherever one of a 60 × 60 grid
    /// of the box's points lies inside, and what it finds lies in the box and in the ellipse
    /// (within its billionth); boxes flat as tile sides among them, ellipses thin and round,
    /// boxes across, beside and far from the foci's segment.
    #[test]
    fn a_point_of_a_box_inside_an_ellipse_is_found_where_there_is_one() {
        let mut rng = SplitMix64::new(11);
        let (mut found, mut none) = (0, 0);
        for k in 0..3_000 {
            let mut point = || [rng.unit() * 1_000.0, rng.unit() * 1_000.0];
            let (s, t, corner) = (point(), point(), point());
            let size = [rng.unit() * 200.0, rng.unit() * 200.0];
            let size = if k % 3 == 0 { [size[0], 0.0] } else { size };
            let b = Bounds {
                min: corner,
                max: [corner[0] + size[0], corner[1] + size[1]],
            };
            let stretch = if k % 2 == 0 {
                1.0 + rng.unit() * 0.01
            } else {
                1.0 + rng.unit()
            };
            let ellipse = Ellipse {
                s,
                t,
                bound: distance(s, t) * stretch + 1.0,
            };
            let f = |p: [f64; 2]| distance(s, p) + distance(p, t);
            let sampled = (0..=60).any(|i| {
                (0..=60).any(|j| {
                    let p = [
                        b.min[0] + (b.max[0] - b.min[0]) * f64::from(i) / 60.0,
                        b.min[1] + (b.max[1] - b.min[1]) * f64::from(j) / 60.0,
                    ];
                    f(p) <= ellipse.bound
                })
            });
            match point_inside(&b, &ellipse) {
                Some(p) => {
                    assert!(b.holds(p), "{p:?} outside {b:?}");
                    assert!(
                        f(p) <= ellipse.bound * (1.0 + 1e-9),
                        "{p:?} outside {ellipse:?}"
                    );
                    found += 1;
                }
                None => {
                    assert!(!sampled, "{b:?} has a point inside {ellipse:?}");
                    none += 1;
                }
            }
        }
        assert!(found > 300 && none > 300, "{found} found, {none} none");
    }

    /// The shadows of pairs of boxes hold every point whose segment from the root passes
    /// through both boxes of a pair, as points along the segment show (a plain oracle: the
    /// segment sampled at a thousand points); boxes of tiles, of tile sides (flat) and of
    /// object edges, roots inside boxes and on their sides among them. With the meeting of a
    /// pair's arcs narrowed by a hundredth, or the least distance a unit longer, it fails.
    #[test]
    fn shadows_hold_the_points_behind_both_boxes() {
        let mut rng = SplitMix64::new(3);
        let random_box = |rng: &mut SplitMix64| {
            let (x, z) = (rng.unit() * 200.0, rng.unit() * 200.0);
            let (w, h) = match rng.range(0, 3) {
                0 => (20.0, 20.0),
                1 => (0.0, 20.0),
                _ => (rng.unit() * 60.0, rng.unit() * 60.0),
            };
            // On the grid half of the time, as the tiles are.
            if rng.chance(0.5) {
                let snap = |v: f64| (v / 20.0).round() * 20.0;
                Bounds {
                    min: [snap(x), snap(z)],
                    max: [snap(x) + w, snap(z) + h],
                }
            } else {
                Bounds {
                    min: [x, z],
                    max: [x + w, z + h],
                }
            }
        };
        let (mut inside, mut checked) = (0, 0);
        for _ in 0..3_000 {
            let pairs: Vec<(Bounds, Bounds)> = (0..rng.range(1, 4))
                .map(|_| (random_box(&mut rng), random_box(&mut rng)))
                .collect();
            let u = if rng.chance(0.2) {
                let b = pairs[0].0;
                [b.min[0], b.min[1] + (b.max[1] - b.min[1]) * rng.unit()] // on a side
            } else {
                [rng.unit() * 200.0, rng.unit() * 200.0]
            };
            let shadows = Shadows::of(u, &pairs);
            for _ in 0..50 {
                let p = [rng.unit() * 300.0 - 50.0, rng.unit() * 300.0 - 50.0];
                let on = |b: &Bounds| {
                    (0..=1000).any(|k| {
                        let f = f64::from(k) / 1000.0;
                        let q = [u[0] + f * (p[0] - u[0]), u[1] + f * (p[1] - u[1])];
                        b.holds(q)
                    })
                };
                if pairs.iter().any(|(from, target)| on(from) && on(target)) {
                    inside += 1;
                    assert!(shadows.hold(u, p), "{u:?} → {p:?} through {pairs:?}");
                }
                checked += 1;
            }
        }
        assert!(inside > 1_000, "{inside} of {checked} behind both boxes");
    }

    /// Whether a box of tiles holds a blocked one, by the regions' sums, equals the answer
    /// tile by tile: boxes across region borders, along the world's edge and off it, on
    /// three loaded regions of a 2×2 square (the fourth is not loaded: its tiles count as
    /// blocked).
    #[test]
    fn a_box_holds_a_blocked_tile_by_the_sums_as_tile_by_tile() {
        let mut rng = SplitMix64::new(3);
        let inputs: Vec<RegionInput> = [(100, 50), (101, 50), (100, 51)]
            .iter()
            .map(|&(x, z)| {
                let mut input = RegionInput::open(RegionId::new(x, z));
                for b in input.blocked.iter_mut() {
                    *b = rng.next_u64() % 40 == 0;
                }
                input
            })
            .collect();
        let meshes = build_world(&inputs);
        let world = World::from_navmeshes(meshes.iter().map(|(id, mesh)| (*id, mesh)));
        let order: Vec<RegionId> = world.regions().collect();
        let inputs: Vec<RegionInput> = order
            .iter()
            .map(|id| inputs.iter().find(|i| i.region == *id).unwrap().clone())
            .collect();
        let rows = BlockedRows::of(&world, &inputs);
        let n = TILES as i64;
        let (x_lo, z_lo) = (100 * n - 5, 50 * n - 5);
        let (mut held, mut free) = (0, 0);
        for _ in 0..3_000 {
            let pick =
                |rng: &mut SplitMix64, lo: i64| lo + (rng.next_u64() % (2 * n as u64 + 10)) as i64;
            let (x0, z0) = (pick(&mut rng, x_lo), pick(&mut rng, z_lo));
            let (x1, z1) = (
                x0 + (rng.next_u64() % 12) as i64,
                z0 + (rng.next_u64() % 12) as i64,
            );
            let slow = (z0..=z1).any(|gz| (x0..=x1).any(|gx| rows.blocked(gx, gz)));
            let truth = (z0..=z1).any(|gz| {
                (x0..=x1).any(|gx| {
                    let id = RegionId::new((gx / n) as u8, (gz / n) as u8);
                    match inputs.iter().find(|i| i.region == id) {
                        Some(input) => input.blocked[((gz % n) * n + gx % n) as usize],
                        None => true,
                    }
                })
            });
            assert_eq!(slow, truth, "tile by tile, ({x0}..={x1}, {z0}..={z1})");
            assert_eq!(
                rows.any(x0, x1, z0, z1),
                truth,
                "by the sums, ({x0}..={x1}, {z0}..={z1})"
            );
            if truth {
                held += 1;
            } else {
                free += 1;
            }
        }
        assert!(
            held > 300 && free > 300,
            "{held} boxes with a blocked tile, {free} without"
        );
    }
}
