//! Paths for a walker of radius r: the shortest path that keeps r from every obstacle.
//!
//! [`PathIndex::find_path`] with [`PathOptions::exact`] and a [`PathOptions::radius`]
//! answers the exact shortest path on the ground of [`crate::path`] with every obstacle grown
//! by r; without `exact`, that path made walkable. With r = 0 it is the exact path.
//!
//! # Rule
//! The *obstacles* are axis-aligned closed rectangles of the ground paths use
//! ([`crate::world::raycast`]), in world units: every tile that is not walkable (blocked
//! tiles, tiles of regions not loaded, so the world's edge too) as its 20 × 20 square, and
//! every wall between two walkable tiles as its 20-unit segment. Each is grown by the octagon
//! `O_r = {(x, z) : |x| ≤ r, |z| ≤ r, |x| + |z| ≤ r√2}`, with inradius r and vertices
//! (±r, ±a), (±a, ±r), a = r(√2 − 1). The grown rectangle `[x0, x1] × [z0, z1] ⊕ O_r` is
//!
//! ```text
//! x0 − r ≤ x ≤ x1 + r,  z0 − r ≤ z ≤ z1 + r,
//! x0 + z0 − r√2 ≤ x + z ≤ x1 + z1 + r√2,  x0 − z1 − r√2 ≤ x − z ≤ x1 − z0 + r√2.
//! ```
//!
//! `O_r` holds the disc of radius r and lies in the disc of radius r / cos(π/8) ≈ 1.0824 r. A
//! path for r > 0 never enters the interior of a grown obstacle (it may touch and run along
//! their sides), so it keeps at least r from every obstacle; the answer is the shortest one.
//! - **Endpoints** must lie outside the interiors, else [`PathError::StartBlocked`] or
//!   [`PathError::GoalBlocked`]: always closer than r to an obstacle, and possibly up to
//!   1.0824 r from an obstacle's corner, 22.5° off the axes.
//! - **Thresholds**: an axis-aligned corridor of width w lets a walker through exactly when
//!   r ≤ w/2, at r = w/2 along its centre line only. A one-tile corridor admits r ≤ 10 and
//!   refuses any r > 10 ([`PathError::Unreachable`]). Obstacles that meet, even at a corner,
//!   let no r > 0 between them.
//! - **r = 0** is [`PathIndex::find_path`]'s rule and search, unchanged.
//! - **Numbers**: the octagons' vertices are grid points plus offsets rounded once to f64, and
//!   all else is exact orientation tests ([`crate::geometry`]), so the path keeps at least
//!   r − 1e-9. The returned [`Position`]s round each turning point by at most 6.2e-5 units per
//!   axis: their legs keep at least r − 1e-4, and their summed length may differ from `length`
//!   by about 1e-4 per turn.
//!
//! # Method
//! A shortest path among the grown obstacles is taut: it turns only at octagon vertices that
//! are convex corners of their union, along tangents there. So a query
//! 1. checks start and goal against the obstacles round each;
//! 2. takes a box round them and a snapshot of the obstacles within 1.0824 r + 1 tile of it;
//! 3. floods the snapshot's walkable tiles from the start across tile sides the grown
//!    obstacles do not cover end to end: a goal outside the flood is unreachable, and a goal
//!    reached only through the box's border grows the box, both without a search;
//! 4. lists the candidates, the octagon vertices at obstacle corners outside every interior
//!    and in a flooded tile;
//! 5. runs A* from the start over them, along edges tangent at both ends, each tested when
//!    popped against the obstacles of the tiles within 1.0824 r of it, by an exact test of
//!    whether it enters each grown obstacle's interior;
//! 6. answers when the path stays in the box (fewer obstacles only shorten paths, so it is the
//!    world's shortest, and none found means none exists), else grows the box fourfold and
//!    restarts, at the latest with the whole world and its ring.
//!
//! # Cost
//! A snapshot of T tiles costs O(T) to take, flood and list from. With V candidates, a search
//! costs O(V) per expanded point, plus O((L/20 + r/10 + 3)(r/10 + 3)) tiles per edge of length
//! L tested. No index is built or used; working memory is allocated per query. No bench
//! measures it; `tests/integration/radius.rs` checks it against a brute-force oracle.
//! Measurements: `docs/design/paths.md`.
//!
//! # Limits
//! A search that must cover much of a big world is slow: a goal cut off by a gap the flood
//! cannot see (a tile whose free part is in pieces) makes it exhaust the start's side. The
//! scratch's budget counts the edges tested, across restarts.

use super::{PathError, PathIndex, PathOptions, PathScratch, WorldPath};
use crate::geometry::TILE;
use crate::geometry::{
    convex_contains_strictly, interior_stretch, orient, segment_enters_convex, Bounds, MIN_RADIUS,
};
use crate::world::raycast::Grid;
use crate::world::{Position, World};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Tiles per region side.
const REGION_TILES: i64 = 96;
/// An upper bound of the octagon's circumradius for inradius 1, 1 / cos(π/8) = 1.08239…: how
/// far from an obstacle its grown octagon can reach.
const CIRCUMRADIUS: f64 = 1.0824;
/// The corner of the rectangle each octagon vertex belongs to (true: the high x, the high z).
const CORNER: [(bool, bool); 8] = [
    (true, false),
    (true, true),
    (true, true),
    (false, true),
    (false, true),
    (false, false),
    (false, false),
    (true, false),
];
/// No point (the start's parent).
const NONE: u32 = u32::MAX;

impl PathIndex {
    /// The shortest path from `from` to `to` for a walker of radius `radius` (world units):
    /// it keeps at least `radius` from every blocked tile and wall. See the
    /// [module docs](crate::path::radius) for the exact rule (obstacles grown by an octagon),
    /// the thresholds and the precision. `radius` 0 is the exact path of [`PathIndex::find_path`]
    /// ([`PathOptions::exact`]). The waypoints are the exact turning points (rounded to
    /// `f32` positions); [`PathOptions::radius`] gives the walkable form of the same path.
    ///
    /// # Errors
    /// [`PathError::StartBlocked`] / [`PathError::GoalBlocked`] when the start / goal is off
    /// the walkable ground or within the radius of an obstacle, [`PathError::Unreachable`]
    /// when no path exists (corridors too narrow included), [`PathError::BudgetExceeded`]
    /// when the scratch's budget (here: segments tested) runs out.
    ///
    /// # Panics
    /// If `radius` is negative, not finite, or positive and below
    /// [`MIN_RADIUS`].
    pub(crate) fn radius_path(
        &self,
        world: &World,
        from: Position,
        to: Position,
        radius: f64,
        scratch: &mut PathScratch,
    ) -> Result<WorldPath, PathError> {
        assert!(
            radius == 0.0 || (radius.is_finite() && radius >= MIN_RADIUS),
            "a path radius is 0 or a finite number ≥ {MIN_RADIUS}, not {radius}"
        );
        if radius == 0.0 {
            return self.find_path(world, from, to, &PathOptions::exact(), scratch);
        }
        let s = [from.world_x(), from.world_z()];
        let t = [to.world_x(), to.world_z()];
        let Some(world_box) = world.tile_box() else {
            return Err(PathError::StartBlocked);
        };
        let grid = Grid::global(world);
        let reach = radius * CIRCUMRADIUS + TILE;
        // Unloaded ground around the world: the box that holds it holds every path.
        let ring = 2.0 * reach + 2.0 * TILE;
        let whole = Bounds {
            min: [
                world_box[0] as f64 * TILE - ring,
                world_box[1] as f64 * TILE - ring,
            ],
            max: [
                world_box[2] as f64 * TILE + ring,
                world_box[3] as f64 * TILE + ring,
            ],
        };
        // Off the loaded regions' box (or not a number) is off the ground; on it, the
        // obstacles around the point decide.
        let on_ground = |p: [f64; 2]| {
            let inside =
                |v: f64, lo: i64, hi: i64| (lo as f64 * TILE..=hi as f64 * TILE).contains(&v);
            inside(p[0], world_box[0], world_box[2])
                && inside(p[1], world_box[1], world_box[3])
                && Ground::new(&grid, Bounds::point(p), radius, world_box).free(p)
        };
        if !on_ground(s) {
            return Err(PathError::StartBlocked);
        }
        if !on_ground(t) {
            return Err(PathError::GoalBlocked);
        }
        let mut budget = scratch.budget.unwrap_or(usize::MAX);
        let mut margin = (dist(s, t) / 4.0).max(8.0 * TILE) + reach;
        loop {
            let mut area = Bounds::of_segment([s, t]).grown(margin);
            let everything = area.covers(&whole);
            if everything {
                area = whole;
            }
            let ground = Ground::new(&grid, area, radius, world_box);
            let points = match ground.search(s, t, &mut budget)? {
                Outcome::Path(points) => points,
                Outcome::NoPath => return Err(PathError::Unreachable),
                Outcome::Grow => {
                    margin *= 4.0;
                    continue;
                }
            };
            if everything || points.iter().all(|&p| area.holds(p)) {
                let length = points.windows(2).map(|w| dist(w[0], w[1])).sum();
                let mut waypoints = Vec::with_capacity(points.len());
                waypoints.push(from);
                for p in &points[1..points.len() - 1] {
                    waypoints.push(
                        Position::from_world(p[0], p[1])
                            .expect("turning points lie on loaded ground"),
                    );
                }
                waypoints.push(to);
                return Ok(WorldPath {
                    waypoints,
                    length,
                    exact_length: length,
                    exact: true,
                });
            }
            margin *= 4.0;
        }
    }
}

impl World {
    /// The loaded regions' bounding box in global tiles, `[x0, z0, x1, z1)`.
    fn tile_box(&self) -> Option<[i64; 4]> {
        let mut regions = self.regions();
        let first = regions.next()?;
        let (mut x0, mut z0) = (first.x(), first.z());
        let (mut x1, mut z1) = (x0, z0);
        for r in regions {
            (x0, x1) = (x0.min(r.x()), x1.max(r.x()));
            (z0, z1) = (z0.min(r.z()), z1.max(r.z()));
        }
        let tiles = |v: u8| i64::from(v) * REGION_TILES;
        Some([
            tiles(x0),
            tiles(z0),
            tiles(x1) + REGION_TILES,
            tiles(z1) + REGION_TILES,
        ])
    }
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// An octagon vertex where a path may turn, and its two neighbours on the octagon (which
/// give the directions of the sides meeting there, for the tangency test).
#[derive(Debug, Clone, Copy)]
struct Candidate {
    at: [f64; 2],
    prev: [f64; 2],
    next: [f64; 2],
}

/// What a search in a snapshot found.
enum Outcome {
    /// The shortest path of the snapshot's problem: its points, start and goal included.
    Path(Vec<[f64; 2]>),
    /// No path exists.
    NoPath,
    /// A path would have to leave the box: try a larger one.
    Grow,
}

/// The tiles of a [`Ground`] a path from the start may pass through
/// ([`Ground::reachable`]).
struct Reached {
    /// Per tile of the box.
    tiles: Vec<bool>,
    /// Whether the flood reached the box's border: then the free ground outside the box
    /// (outside, the snapshot has no obstacles) may be reached too ([`Ground::leave_box`]).
    escaped: bool,
}

impl Reached {
    /// Whether a path from the start may reach `p`: a tile holding it is reached.
    fn holds(&self, ground: &Ground, p: [f64; 2]) -> bool {
        ground
            .tiles_of(p)
            .any(|i| i.map_or(self.escaped, |i| self.tiles[i]))
    }
}

/// The obstacles of a box of tiles, and the candidates they make for radius r. Everything
/// outside the box is free.
struct Ground {
    /// The first tile (global tile coordinates) and the box's size in tiles.
    x0: i64,
    z0: i64,
    w: i64,
    h: i64,
    /// Tiles that are not walkable, `w · h`.
    blocked: Vec<bool>,
    /// Walls on the vertical side `x = 20·gx` of row `tz` between two walkable tiles,
    /// `(w + 1) · h`.
    vertical: Vec<bool>,
    /// Walls on the horizontal side `z = 20·gz` of column `tx`, `w · (h + 1)`.
    horizontal: Vec<bool>,
    /// The octagon's vertices around the origin, counter-clockwise from (r, −a).
    offsets: [[f64; 2]; 8],
    /// How far (world units) beyond an obstacle its grown octagon may reach, rounded up by a
    /// unit so that the tile ranges computed in floating point never fall short.
    reach: f64,
}

impl Ground {
    /// The obstacles of the tiles within reach of the box `area` (world units),
    /// but no farther than two tiles out of `world` (the loaded regions' tile box): the
    /// unloaded tiles there surround the world, and any obstacle beyond is farther from every
    /// point of the world, in every norm, than the ring on the way to it.
    fn new(grid: &Grid<'_>, area: Bounds, r: f64, world: [i64; 4]) -> Ground {
        let a = r * (std::f64::consts::SQRT_2 - 1.0);
        let offsets = [
            [r, -a],
            [r, a],
            [a, r],
            [-a, r],
            [-r, a],
            [-r, -a],
            [-a, -r],
            [a, -r],
        ];
        let reach = r * CIRCUMRADIUS + 1.0;
        let tile = |v: f64| (v / TILE).floor() as i64;
        let x0 = (tile(area.min[0] - reach) - 1).max(world[0] - 2);
        let z0 = (tile(area.min[1] - reach) - 1).max(world[1] - 2);
        let x1 = (tile(area.max[0] + reach) + 1).min(world[2] + 1).max(x0);
        let z1 = (tile(area.max[1] + reach) + 1).min(world[3] + 1).max(z0);
        let (w, h) = (x1 - x0 + 1, z1 - z0 + 1);
        let mut blocked = Vec::with_capacity((w * h) as usize);
        for tz in z0..z0 + h {
            for tx in x0..x0 + w {
                blocked.push(!grid.open(tx, tz));
            }
        }
        let mut vertical = Vec::with_capacity(((w + 1) * h) as usize);
        for tz in z0..z0 + h {
            for gx in x0..=x0 + w {
                vertical.push(
                    grid.open(gx - 1, tz) && grid.open(gx, tz) && grid.wall_edge_vertical(gx, tz),
                );
            }
        }
        let mut horizontal = Vec::with_capacity((w * (h + 1)) as usize);
        for gz in z0..=z0 + h {
            for tx in x0..x0 + w {
                horizontal.push(
                    grid.open(tx, gz - 1) && grid.open(tx, gz) && grid.wall_edge_horizontal(gz, tx),
                );
            }
        }
        Ground {
            x0,
            z0,
            w,
            h,
            blocked,
            vertical,
            horizontal,
            offsets,
            reach,
        }
    }

    fn is_blocked(&self, tx: i64, tz: i64) -> bool {
        let (x, z) = (tx - self.x0, tz - self.z0);
        (0..self.w).contains(&x)
            && (0..self.h).contains(&z)
            && self.blocked[(z * self.w + x) as usize]
    }

    fn is_vertical_wall(&self, gx: i64, tz: i64) -> bool {
        let (x, z) = (gx - self.x0, tz - self.z0);
        (0..=self.w).contains(&x)
            && (0..self.h).contains(&z)
            && self.vertical[(z * (self.w + 1) + x) as usize]
    }

    fn is_horizontal_wall(&self, gz: i64, tx: i64) -> bool {
        let (x, z) = (tx - self.x0, gz - self.z0);
        (0..self.w).contains(&x)
            && (0..=self.h).contains(&z)
            && self.horizontal[(z * self.w + x) as usize]
    }

    /// Calls `f` with each obstacle (its box, world units) of the tiles `tx`, `tz`
    /// (inclusive ranges): blocked tiles, the vertical walls of those rows from `tx.0` to
    /// `tx.1 + 1` and the horizontal walls of those columns from `tz.0` to `tz.1 + 1`. Stops
    /// and returns false when `f` does.
    fn each_obstacle(
        &self,
        tx: (i64, i64),
        tz: (i64, i64),
        mut f: impl FnMut(Bounds) -> bool,
    ) -> bool {
        let tx = (tx.0.max(self.x0), tx.1.min(self.x0 + self.w));
        let tz = (tz.0.max(self.z0), tz.1.min(self.z0 + self.h));
        let g = |v: i64| v as f64 * TILE;
        // The box from the grid point (x0, z0) to (x1, z1).
        let rect = |x0: i64, z0: i64, x1: i64, z1: i64| Bounds {
            min: [g(x0), g(z0)],
            max: [g(x1), g(z1)],
        };
        for z in tz.0..=tz.1 {
            for x in tx.0..=tx.1 {
                if self.is_blocked(x, z) && !f(rect(x, z, x + 1, z + 1)) {
                    return false;
                }
                if self.is_vertical_wall(x, z) && !f(rect(x, z, x, z + 1)) {
                    return false;
                }
                if self.is_horizontal_wall(z, x) && !f(rect(x, z, x + 1, z)) {
                    return false;
                }
            }
            // The sides one past the range's last tile.
            let x = tx.1 + 1;
            if self.is_vertical_wall(x, z) && !f(rect(x, z, x, z + 1)) {
                return false;
            }
        }
        let z = tz.1 + 1;
        for x in tx.0..=tx.1 {
            if self.is_horizontal_wall(z, x) && !f(rect(x, z, x + 1, z)) {
                return false;
            }
        }
        true
    }

    /// The obstacles whose grown octagon may hold `p`.
    fn each_obstacle_near(&self, p: [f64; 2], f: impl FnMut(Bounds) -> bool) -> bool {
        let tile = |v: f64| (v / TILE).floor() as i64;
        self.each_obstacle(
            (tile(p[0] - self.reach), tile(p[0] + self.reach)),
            (tile(p[1] - self.reach), tile(p[1] + self.reach)),
            f,
        )
    }

    /// The octagon of an obstacle grown by r, counter-clockwise: vertex k is the corner
    /// `CORNER[k]` plus `offsets[k]`.
    fn grown(&self, rect: Bounds) -> [[f64; 2]; 8] {
        std::array::from_fn(|k| {
            let (high_x, high_z) = CORNER[k];
            let x = if high_x { rect.max[0] } else { rect.min[0] };
            let z = if high_z { rect.max[1] } else { rect.min[1] };
            [x + self.offsets[k][0], z + self.offsets[k][1]]
        })
    }

    /// Whether a point is outside the interior of every grown obstacle.
    fn free(&self, p: [f64; 2]) -> bool {
        self.each_obstacle_near(p, |rect| !convex_contains_strictly(&self.grown(rect), p))
    }

    /// The octagon vertices at obstacle corners that may be convex corners of the union and
    /// lie in a reached tile.
    fn find_candidates(&self, reached: &Reached) -> Vec<Candidate> {
        let mut out = Vec::new();
        let g = |v: i64| v as f64 * TILE;
        for gz in self.z0..=self.z0 + self.h {
            for gx in self.x0..=self.x0 + self.w {
                for (k, o) in self.offsets.iter().enumerate() {
                    // Obstacles with this corner on the side away from the offset: the tile
                    // in that quadrant, the wall running back along x, the one along z.
                    let tx = if o[0] > 0.0 { gx - 1 } else { gx };
                    let tz = if o[1] > 0.0 { gz - 1 } else { gz };
                    if !(self.is_blocked(tx, tz)
                        || self.is_horizontal_wall(gz, tx)
                        || self.is_vertical_wall(gx, tz))
                    {
                        continue;
                    }
                    // A blocked tile on the side the offset's long coordinate points to holds
                    // the vertex inside its octagon.
                    let inside_next = if o[0].abs() > o[1].abs() {
                        let x = if o[0] > 0.0 { gx } else { gx - 1 };
                        self.is_blocked(x, gz - 1) || self.is_blocked(x, gz)
                    } else {
                        let z = if o[1] > 0.0 { gz } else { gz - 1 };
                        self.is_blocked(gx - 1, z) || self.is_blocked(gx, z)
                    };
                    if inside_next {
                        continue;
                    }
                    let c = [g(gx), g(gz)];
                    let at = |k: usize| [c[0] + self.offsets[k][0], c[1] + self.offsets[k][1]];
                    let v = at(k);
                    if !reached.holds(self, v) {
                        continue;
                    }
                    let corner = self.each_obstacle_near(v, |rect| {
                        !convex_contains_strictly(&self.grown(rect), v)
                    });
                    if corner {
                        out.push(Candidate {
                            at: v,
                            prev: at((k + 7) % 8),
                            next: at((k + 1) % 8),
                        });
                    }
                }
            }
        }
        out
    }

    /// The tiles whose closed square holds `p` (two on a side, four at a grid vertex), as
    /// indices into the box, `None` for a tile outside it.
    fn tiles_of(&self, p: [f64; 2]) -> impl Iterator<Item = Option<usize>> + '_ {
        let span = |v: f64| {
            let t = (v / TILE).floor() as i64;
            if t as f64 * TILE == v {
                t - 1..=t
            } else {
                t..=t
            }
        };
        let xs = span(p[0]);
        span(p[1]).flat_map(move |z| {
            xs.clone().map(move |x| {
                let (x, z) = (x - self.x0, z - self.z0);
                ((0..self.w).contains(&x) && (0..self.h).contains(&z))
                    .then_some((z * self.w + x) as usize)
            })
        })
    }

    /// The tiles a path from `s` may pass through inside the box: a flood over the walkable
    /// tiles across the sides that are not covered from end to end by the interiors of grown
    /// obstacles. A path goes from tile to tile through a free point of a side (a free grid
    /// vertex belongs to all four sides there), so it never leaves these tiles; they may hold
    /// more (a tile's free part may be in pieces).
    fn reachable(&self, s: [f64; 2]) -> Reached {
        let mut tiles = vec![false; self.blocked.len()];
        let start = self
            .tiles_of(s)
            .flatten()
            .filter(|&i| !self.blocked[i])
            .collect();
        let escaped = self.flood(&mut tiles, start);
        Reached { tiles, escaped }
    }

    /// Adds the free ground outside the box to what is reached, for a flood that reached the
    /// box's border: outside, the snapshot has no obstacles, so it joins every walkable tile
    /// of the border.
    fn leave_box(&self, reached: &mut Reached) {
        let border = (0..self.blocked.len())
            .filter(|&j| self.on_border(j) && !self.blocked[j] && !reached.tiles[j])
            .collect();
        self.flood(&mut reached.tiles, border);
    }

    fn on_border(&self, i: usize) -> bool {
        let (x, z) = ((i as i64) % self.w, (i as i64) / self.w);
        x == 0 || z == 0 || x == self.w - 1 || z == self.h - 1
    }

    /// Floods from the tiles of `stack` (marking them too); whether it reached a tile of the
    /// box's border.
    fn flood(&self, reached: &mut [bool], mut stack: Vec<usize>) -> bool {
        for &i in &stack {
            reached[i] = true;
        }
        let mut border = false;
        let g = |v: i64| v as f64 * TILE;
        while let Some(i) = stack.pop() {
            border |= self.on_border(i);
            let (x, z) = ((i as i64) % self.w, (i as i64) / self.w);
            let (gx, gz) = (self.x0 + x, self.z0 + z);
            for (dx, dz) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (nx, nz) = (x + dx, z + dz);
                if !(0..self.w).contains(&nx) || !(0..self.h).contains(&nz) {
                    continue;
                }
                let j = (nz * self.w + nx) as usize;
                if reached[j] || self.blocked[j] {
                    continue;
                }
                // The shared side's ends.
                let (a, b) = match (dx, dz) {
                    (1, 0) => ([g(gx + 1), g(gz)], [g(gx + 1), g(gz + 1)]),
                    (-1, 0) => ([g(gx), g(gz)], [g(gx), g(gz + 1)]),
                    (0, 1) => ([g(gx), g(gz + 1)], [g(gx + 1), g(gz + 1)]),
                    _ => ([g(gx), g(gz)], [g(gx + 1), g(gz)]),
                };
                if !self.covered(a, b) {
                    reached[j] = true;
                    stack.push(j);
                }
            }
        }
        border
    }

    /// Whether the interiors of the grown obstacles cover the tile side a–b from end to end,
    /// each octagon's stretch of the side narrowed ([`interior_stretch`]) so that rounding
    /// can only leave a side open, never close it.
    fn covered(&self, a: [f64; 2], b: [f64; 2]) -> bool {
        let mut stretches: Vec<(f64, f64)> = Vec::new();
        let tile = |v: f64| (v / TILE).floor() as i64;
        let Bounds { min: lo, max: hi } = Bounds::of_segment([a, b]);
        self.each_obstacle(
            (tile(lo[0] - self.reach), tile(hi[0] + self.reach)),
            (tile(lo[1] - self.reach), tile(hi[1] + self.reach)),
            |rect| {
                stretches.extend(interior_stretch(&self.grown(rect), a, b));
                true
            },
        );
        stretches.sort_by(|p, q| p.0.total_cmp(&q.0));
        // Walk the first uncovered point along the side.
        let mut x = 0.0;
        let mut i = 0;
        loop {
            let mut next = x;
            while i < stretches.len() && stretches[i].0 < x {
                next = next.max(stretches[i].1);
                i += 1;
            }
            if next <= x {
                return false;
            }
            if next > 1.0 {
                return true;
            }
            x = next;
        }
    }

    /// Whether the segment p–q enters no grown obstacle: the obstacles of each row of tiles
    /// within reach, over the stretch of the row the segment passes within reach of.
    fn clear(&self, p: [f64; 2], q: [f64; 2]) -> bool {
        let m = self.reach;
        let tile = |v: f64| (v / TILE).floor() as i64;
        let (lo, hi) = (tile(p[1].min(q[1]) - m), tile(p[1].max(q[1]) + m));
        let rows: Box<dyn Iterator<Item = i64>> = if p[1] <= q[1] {
            Box::new(lo..=hi)
        } else {
            Box::new((lo..=hi).rev())
        };
        let (min_x, max_x) = (p[0].min(q[0]), p[0].max(q[0]));
        for tz in rows {
            // The part of the segment within reach of the row, in x.
            let (bottom, top) = (tz as f64 * TILE - m, (tz + 1) as f64 * TILE + m);
            let (xa, xb) = if p[1] == q[1] {
                (min_x, max_x)
            } else {
                let at = |z: f64| {
                    let u = ((z - p[1]) / (q[1] - p[1])).clamp(0.0, 1.0);
                    p[0] + u * (q[0] - p[0])
                };
                let (a, b) = (at(bottom), at(top));
                (a.min(b), a.max(b))
            };
            let clear = self.each_obstacle((tile(xa - m), tile(xb + m)), (tz, tz), |rect| {
                !segment_enters_convex(&self.grown(rect), p, q)
            });
            if !clear {
                return false;
            }
        }
        true
    }

    /// A* from s to t over the candidates, lazily tested.
    fn search(&self, s: [f64; 2], t: [f64; 2], budget: &mut usize) -> Result<Outcome, PathError> {
        let mut reached = self.reachable(s);
        if !reached.holds(self, t) {
            // The goal is not reached inside the box: unreachable if the flood stayed inside
            // it; otherwise a path would have to leave the box, so no search in this one.
            return Ok(if reached.escaped {
                Outcome::Grow
            } else {
                Outcome::NoPath
            });
        }
        if reached.escaped {
            self.leave_box(&mut reached);
        }
        let candidates = self.find_candidates(&reached);
        let n = candidates.len();
        let (start, goal) = (n, n + 1);
        let point = |i: usize| match i {
            _ if i < n => candidates[i].at,
            _ if i == start => s,
            _ => t,
        };
        // Whether the line through point i and `other` is tangent to i's octagon at i (the
        // start and goal need no tangency).
        let tangent = |i: usize, other: [f64; 2]| {
            i >= n || {
                let c = &candidates[i];
                let (a, b) = (orient(other, c.at, c.prev), orient(other, c.at, c.next));
                !(a > 0.0 && b < 0.0 || a < 0.0 && b > 0.0)
            }
        };
        let heuristic: Vec<f64> = (0..n + 2).map(|i| dist(point(i), t)).collect();
        let mut closed = vec![false; n + 2];
        let mut parent = vec![NONE; n + 2];
        // (f, g, point, parent): non-negative f64s order as their bits.
        let mut queue = BinaryHeap::new();
        queue.push(Reverse((
            heuristic[start].to_bits(),
            0u64,
            start as u32,
            NONE,
        )));
        while let Some(Reverse((_, g, node, from))) = queue.pop() {
            let node = node as usize;
            if closed[node] {
                continue;
            }
            if from != NONE {
                if *budget == 0 {
                    return Err(PathError::BudgetExceeded);
                }
                *budget -= 1;
                if !self.clear(point(from as usize), point(node)) {
                    continue;
                }
            }
            closed[node] = true;
            parent[node] = from;
            if node == goal {
                let mut points = vec![t];
                let mut at = parent[goal];
                while at != NONE {
                    points.push(point(at as usize));
                    at = parent[at as usize];
                }
                points.reverse();
                return Ok(Outcome::Path(points));
            }
            let g = f64::from_bits(g);
            let here = point(node);
            for next in (0..n).chain([goal]) {
                if closed[next] {
                    continue;
                }
                let there = point(next);
                if !tangent(node, there) || !tangent(next, here) {
                    continue;
                }
                let d = g + dist(here, there);
                queue.push(Reverse((
                    (d + heuristic[next]).to_bits(),
                    d.to_bits(),
                    next as u32,
                    node as u32,
                )));
            }
        }
        Ok(Outcome::NoPath)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jmxv::RegionId;

    fn world(blocked: impl Fn(usize, usize) -> bool) -> World {
        let region = RegionId::new(40, 30);
        let mesh = silknav_testkit::region_from_mask(region, blocked);
        World::from_navmeshes([(region, &mesh)])
    }

    fn at(x: f64, z: f64) -> Position {
        Position::from_world(40.0 * 1920.0 + x, 30.0 * 1920.0 + z).unwrap()
    }

    /// Two 10 × 10 rooms joined by a one-tile corridor (z row 48, x 30..50).
    fn rooms() -> World {
        world(|x, z| {
            let room = (20..30).contains(&x) || (50..60).contains(&x);
            let open = room && (43..53).contains(&z) || (30..50).contains(&x) && z == 48;
            !open
        })
    }

    #[test]
    fn a_one_tile_corridor_admits_radii_up_to_ten() {
        let world = rooms();
        let paths = PathIndex::build(&world);
        let mut scratch = PathScratch::new();
        let (s, t) = (at(25.0 * 20.0, 48.5 * 20.0), at(55.0 * 20.0, 48.5 * 20.0));
        for r in [0.0, 1.0, 9.5, 9.999, 10.0] {
            let path = paths
                .find_path(
                    &world,
                    s,
                    t,
                    &PathOptions::exact().with_radius(r).unwrap(),
                    &mut scratch,
                )
                .unwrap();
            assert_eq!(path.length, 600.0, "r = {r}");
        }
        for r in [10.001, 12.0, 40.0] {
            assert_eq!(
                paths.find_path(
                    &world,
                    s,
                    t,
                    &PathOptions::exact().with_radius(r).unwrap(),
                    &mut scratch
                ),
                Err(PathError::Unreachable),
                "r = {r}"
            );
        }
        // Off the centre line, r = 10 no longer fits; r < 10 bends in at the corridor's mouth.
        let (s, t) = (at(25.0 * 20.0, 46.0 * 20.0), at(55.0 * 20.0, 50.0 * 20.0));
        let path = paths
            .find_path(
                &world,
                s,
                t,
                &PathOptions::exact().with_radius(9.0).unwrap(),
                &mut scratch,
            )
            .unwrap();
        assert!(path.waypoints.len() == 4 && path.length > 600.0, "{path:?}");
        assert_eq!(
            paths.find_path(
                &world,
                s,
                t,
                &PathOptions::exact().with_radius(10.5).unwrap(),
                &mut scratch
            ),
            Err(PathError::Unreachable)
        );
    }

    #[test]
    fn endpoints_near_obstacles_are_refused() {
        let world = rooms();
        let paths = PathIndex::build(&world);
        let mut scratch = PathScratch::new();
        let inside = at(25.0 * 20.0, 48.0 * 20.0);
        // 15 units from the room's wall at x = 400.
        let near = at(415.0, 48.0 * 20.0);
        assert!(paths
            .find_path(
                &world,
                near,
                inside,
                &PathOptions::exact().with_radius(15.0).unwrap(),
                &mut scratch
            )
            .is_ok());
        assert_eq!(
            paths.find_path(
                &world,
                near,
                inside,
                &PathOptions::exact().with_radius(15.5).unwrap(),
                &mut scratch
            ),
            Err(PathError::StartBlocked)
        );
        assert_eq!(
            paths.find_path(
                &world,
                inside,
                near,
                &PathOptions::exact().with_radius(15.5).unwrap(),
                &mut scratch
            ),
            Err(PathError::GoalBlocked)
        );
        // 11 units from the convex corner (600, 960) of the corridor's mouth, at 22.5° off the
        // x axis, where the octagon reaches furthest: outside the disc of radius 10.5, inside
        // its octagon (which reaches 10.5 · 1.0824 = 11.37 there), outside that of radius 10.
        let angle = std::f64::consts::PI * 7.0 / 8.0;
        let diagonal = at(600.0 + 11.0 * angle.cos(), 960.0 + 11.0 * angle.sin());
        assert_eq!(
            paths.find_path(
                &world,
                diagonal,
                inside,
                &PathOptions::exact().with_radius(10.5).unwrap(),
                &mut scratch
            ),
            Err(PathError::StartBlocked)
        );
        assert!(paths
            .find_path(
                &world,
                diagonal,
                inside,
                &PathOptions::exact().with_radius(10.0).unwrap(),
                &mut scratch
            )
            .is_ok());
        // Not a number, or far off the world.
        let nan = Position::new(inside.region, f32::NAN, 5.0);
        let far = Position::new(inside.region, 3e38, 5.0);
        for p in [nan, far] {
            assert_eq!(
                paths.find_path(
                    &world,
                    p,
                    inside,
                    &PathOptions::exact().with_radius(5.0).unwrap(),
                    &mut scratch
                ),
                Err(PathError::StartBlocked)
            );
            assert_eq!(
                paths.find_path(
                    &world,
                    inside,
                    p,
                    &PathOptions::exact().with_radius(5.0).unwrap(),
                    &mut scratch
                ),
                Err(PathError::GoalBlocked)
            );
        }
        // Wider than the world (past what the options take): refused at once, the snapshot
        // bounded by the world's ring.
        assert_eq!(
            paths.radius_path(&world, inside, inside, 1e9, &mut scratch),
            Err(PathError::StartBlocked)
        );
    }

    #[test]
    fn radius_zero_is_find_path_and_the_budget_holds() {
        let world = rooms();
        let paths = PathIndex::build(&world);
        let mut scratch = PathScratch::new();
        let (s, t) = (at(21.0 * 20.0, 44.0 * 20.0), at(58.0 * 20.0, 52.0 * 20.0));
        let exact = paths
            .find_path(&world, s, t, &PathOptions::exact(), &mut scratch)
            .unwrap();
        assert_eq!(
            paths.find_path(
                &world,
                s,
                t,
                &PathOptions::exact().with_radius(0.0).unwrap(),
                &mut scratch
            ),
            Ok(exact.clone())
        );
        let wide = paths
            .find_path(
                &world,
                s,
                t,
                &PathOptions::exact().with_radius(5.0).unwrap(),
                &mut scratch,
            )
            .unwrap();
        assert!(wide.length > exact.length && wide.waypoints.len() >= 4);
        let mut tight = PathScratch::with_budget(2);
        assert_eq!(
            paths.find_path(
                &world,
                s,
                t,
                &PathOptions::exact().with_radius(5.0).unwrap(),
                &mut tight
            ),
            Err(PathError::BudgetExceeded)
        );
    }
}
