//! Walkable paths: the exact path moved off the corners of blocked ground, with long legs
//! split, each leg checked with the terrain walk and repaired where the walk refuses it. The
//! contract is in the [module docs](super); this is how the repairs go.
//!
//! The exact path turns on the corners of blocked ground, where the server's walk refuses to
//! start (a point on a tile corner belongs to the tile on its +x/+z side) or stops at once (a
//! walk that starts on its cell's side cannot leave through it). So:
//! - each corner is replaced by a point `clearance` units off both grid lines through it, on
//!   the open side of the bend; a bend sharper than 90° (round the end of a thin wall) gets two
//!   or three such points round the corner;
//! - a leg reaching farther than [`MAX_LEG_SPAN`] along x or z is cut into equal legs;
//! - every leg is walked; a refused leg is repaired by inserting, in order: from a start on a
//!   grid line, a first step `clearance` into its own tile; to a goal on a grid line, a last
//!   step from inside its own tile; otherwise, for each grid vertex with obstacles that the
//!   leg passes within `2·clearance + 0.5` units, plus as far as the refused walk strayed from
//!   the leg (its 0.2-unit nudges toward the centres of the cells it enters add up over a long
//!   leg), where the obstacles all lie on one side of the leg, a point `clearance` off that
//!   vertex on the leg's open side. A wall along the leg, or nearly along it (less than that
//!   reach across a tile's length: a leg between points moved off the corners runs beside a
//!   wall at a slant), counts on neither side, so that the slant alone never puts a wall on the
//!   far side from the blocked tile it bounds. When no vertex qualifies, a *detour*: the first
//!   point `clearance` off a vertex with obstacles near the leg, into an open tile, that the
//!   walk reaches from the leg's start and that is not on the path yet. The new legs are
//!   walked in turn;
//! - a start (or goal) on a grid line may be where the exact path leaves (or arrives) through a
//!   tile other than its own, at a vertex where blocked tiles meet diagonally, which the walk
//!   cannot: when the path above is not walkable, the exact path is sought again from (and to)
//!   the point `clearance` into its own tile, and made walkable in the same way, behind a first
//!   (and before a last) step to that point. The walked length may then exceed the module
//!   docs' bound by the detour round the pinch.
//!
//! A leg that no repair fixes (or more than [`MAX_REPAIRS`] repairs) gets, as a last resort,
//! the lattice detour that legs refused by objects get ([`super::detour`]), under the terrain
//! walk. When none is found either, the answer is [`PathError::NotWalkable`].
//!
//! The bound on the walked length: up to three points per corner, each `√2·clearance` or
//! `2·clearance` round it, so at most `7·clearance` per turn of the exact path.
//!
//! Through objects ([`walkable_with_objects`]), the terrain corners are moved off in the same
//! way, points round object vertices are kept, a start or goal on a grid line gets a first
//! (last) step through its own tile, and long legs are split. Every leg is then walked by the
//! whole walk from the height the leg before arrived at ([`walk_carrying_height`]), and a leg
//! the walk refuses (where its 0.2-unit step into an object cell, or a wall a leg grazes,
//! differs from line of sight) is replaced by a lattice detour whose walks carry the walker's
//! height from point to point. Where no walk follows the exact path with objects, the default
//! walkable path is walked in the same way from the height before (a leg the walk refuses
//! from there, after a leg that went down from a floor, gets a detour at that height).

use super::{PathError, PathIndex};
use crate::geometry::TILE;
use crate::geometry::{orient, sign};
use crate::world::raycast::{cell_coordinate, Grid};
use crate::world::{movement::MoveOptions, Position, Surface, World};

/// Legs reaching farther than this along x or z are split. The server refuses a move whose
/// goal is more than 1920 units east or north of its start; splitting either way keeps
/// every leg under the symmetric guard too, and the margin covers the f32 frames the server
/// subtracts in.
pub(crate) const MAX_LEG_SPAN: f64 = 1900.0;

/// Repairs one path may take before it is given up as [`PathError::NotWalkable`]: far more
/// than any path on the test worlds needs (see `tests/integration/walkable.rs`).
const MAX_REPAIRS: usize = 64;

/// The offsets of a tile corner into its four quadrants, counter-clockwise from +x+z.
const DIAGONALS: [[f64; 2]; 4] = [[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]];

fn cross(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn sub(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

/// The points that replace corner `c` of a bend `p → c → n`: one or more points `clearance`
/// off both grid lines through `c`, on the open side of the bend, in path order.
///
/// A point `c + w` (w a diagonal) keeps the leg toward `p` clear of the obstacle inside the
/// bend when it lies strictly on the far side of the line `c–p` from `n`, and likewise for
/// `n`. One diagonal does both unless the bend is sharper than 90°; then the diagonals are
/// taken in turn round the open side (consecutive ones 90° apart, joined across a grid line
/// that no obstacle at `c` covers, since every obstacle at a corner lies inside its bends).
pub(crate) fn corner_points(
    p: [f64; 2],
    c: [f64; 2],
    n: [f64; 2],
    clearance: f64,
) -> Vec<[f64; 2]> {
    let (dp, dn) = (sub(p, c), sub(n, c));
    let turn = sign(orient(c, p, n));
    let at = |w: [f64; 2]| [c[0] + clearance * w[0], c[1] + clearance * w[1]];
    if turn == 0 {
        // Not a bend (a start or goal on the corner itself): nothing to go round.
        return vec![c];
    }
    let clear_p = |w: [f64; 2]| sign(cross(dp, w)) == -turn;
    let clear_n = |w: [f64; 2]| sign(cross(dn, w)) == turn;
    let unit = |v: [f64; 2]| {
        let l = v[0].hypot(v[1]);
        [v[0] / l, v[1] / l]
    };
    let (up, un) = (unit(dp), unit(dn));
    let outward = [-(up[0] + un[0]), -(up[1] + un[1])];
    if let Some(w) = DIAGONALS
        .iter()
        .filter(|&&w| clear_p(w) && clear_n(w))
        .max_by(|a, b| {
            let d = |w: &[f64; 2]| w[0] * outward[0] + w[1] * outward[1];
            d(a).total_cmp(&d(b))
        })
    {
        return vec![at(*w)];
    }
    // Round the open side, from the diagonal nearest `p` away from `n`: rotating by
    // `-turn`, ordered by angle from `dp`.
    let angle = |w: [f64; 2]| {
        let a = f64::from(-turn) * (cross(dp, w).atan2(dp[0] * w[0] + dp[1] * w[1]));
        if a <= 0.0 {
            a + std::f64::consts::TAU
        } else {
            a
        }
    };
    let mut order = DIAGONALS;
    order.sort_by(|a, b| angle(*a).total_cmp(&angle(*b)));
    let mut out = Vec::with_capacity(3);
    for w in order {
        if out.is_empty() && !clear_p(w) {
            continue;
        }
        out.push(at(w));
        if clear_n(w) {
            break;
        }
    }
    out
}

/// `pts` with every leg reaching farther than [`MAX_LEG_SPAN`] along x or z cut into equal
/// pieces (a cut point that falls on a grid line, in f64 or once stored as a [`Position`],
/// moved a little along the leg, off it).
pub(crate) fn split_long_legs(pts: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let mut out = Vec::with_capacity(pts.len());
    out.push(pts[0]);
    for pair in pts.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let d = sub(b, a);
        let span = d[0].abs().max(d[1].abs());
        let pieces = (span / MAX_LEG_SPAN).ceil().max(1.0) as usize;
        for i in 1..pieces {
            let base = i as f64 / pieces as f64;
            let len = d[0].hypot(d[1]);
            let point = (0..8)
                .map(|k| {
                    let t = base + f64::from(k) * 0.37 / len;
                    [a[0] + t * d[0], a[1] + t * d[1]]
                })
                .find(|&q| {
                    // Judged as the walk sees it: stored in its region's f32 frame, where a
                    // point a hair off a region border lands on it.
                    let q = position(q).map_or(q, world_xz);
                    !cell_coordinate(q[0]).1 && !cell_coordinate(q[1]).1
                })
                .unwrap_or([a[0] + base * d[0], a[1] + base * d[1]]);
            out.push(point);
        }
        out.push(b);
    }
    out
}

/// The waypoints of a radius path (its turning points already `r` off every obstacle) made
/// walkable: a turning point on a grid line (where the walk finds no edge to cross; a radius
/// that is a multiple of the tile puts octagon vertices there) moved `clearance` off it, away
/// from the inside of its bend; a start or goal on a grid line reached through a point of its
/// own tile; long legs split; each leg checked with the terrain walk.
///
/// # Errors
/// [`PathError::NotWalkable`] when the walk refuses a leg.
pub(crate) fn split_and_check(
    world: &World,
    path: &[Position],
    clearance: f64,
) -> Result<Vec<Position>, PathError> {
    let mut points: Vec<[f64; 2]> = path.iter().map(|&w| world_xz(w)).collect();
    for j in 1..points.len().saturating_sub(1) {
        let (p, w, n) = (points[j - 1], points[j], points[j + 1]);
        let unit = |v: [f64; 2]| {
            let l = v[0].hypot(v[1]);
            if l > 0.0 {
                [v[0] / l, v[1] / l]
            } else {
                [0.0, 0.0]
            }
        };
        let (up, un) = (unit(sub(p, w)), unit(sub(n, w)));
        let outward = [-(up[0] + un[0]), -(up[1] + un[1])];
        let mut moved = w;
        for k in 0..2 {
            if cell_coordinate(w[k]).1 {
                let away = if outward[k] < 0.0 { -1.0 } else { 1.0 };
                moved[k] = w[k] + away * clearance;
            }
        }
        points[j] = moved;
    }
    // A start or goal on a grid line: a first (last) step into its own tile, where the walk
    // starts (ends); the walker's radius keeps that tile open around it.
    if let Some(q) = into_own_tile(points[0], clearance) {
        points.insert(1, q);
    }
    if let Some(q) = into_own_tile(points[points.len() - 1], clearance) {
        points.insert(points.len() - 1, q);
    }
    let out = waypoints(path[0], path[path.len() - 1], &split_long_legs(&points))?;
    if out.windows(2).all(|leg| leg_walks(world, leg[0], leg[1])) {
        Ok(out)
    } else {
        Err(PathError::NotWalkable)
    }
}

/// Whether the terrain walk from `a` to `b` arrives, as the path's legs must.
pub(crate) fn leg_walks(world: &World, a: Position, b: Position) -> bool {
    walk_leg(world, a, b).is_ok()
}

/// The terrain walk from `a` to `b`: `Ok` when it arrives, else where it stopped (`None`
/// when it failed).
fn walk_leg(world: &World, a: Position, b: Position) -> Result<(), Option<Position>> {
    let options = MoveOptions::new().with_terrain_only(true);
    match world.move_along(a, b, &options) {
        Ok(o) if o.stop.reaches_goal() => Ok(()),
        Ok(o) => Err(Some(o.position)),
        Err(_) => Err(None),
    }
}

/// The waypoints of points `pts` (world coordinates) from the start `from` to the goal `to`,
/// which are kept verbatim (the first and last points stand for them).
///
/// # Errors
/// [`PathError::NotWalkable`] when a point lies outside the id space of regions.
fn waypoints(from: Position, to: Position, pts: &[[f64; 2]]) -> Result<Vec<Position>, PathError> {
    let mut out = Vec::with_capacity(pts.len());
    out.push(from);
    for &p in &pts[1..pts.len() - 1] {
        out.push(position(p).ok_or(PathError::NotWalkable)?);
    }
    out.push(to);
    Ok(out)
}

fn position(p: [f64; 2]) -> Option<Position> {
    Position::from_world(p[0], p[1])
}

pub(crate) fn world_xz(p: Position) -> [f64; 2] {
    [p.world_x(), p.world_z()]
}

/// A point on a grid line moved `clearance` into the tile it belongs to (the tile on the +x
/// / +z side of the line, as for the server's cell lookup); `None` off the grid lines.
pub(crate) fn into_own_tile(p: [f64; 2], clearance: f64) -> Option<[f64; 2]> {
    let (on_x, on_z) = (cell_coordinate(p[0]).1, cell_coordinate(p[1]).1);
    (on_x || on_z).then(|| {
        [
            p[0] + if on_x { clearance } else { 0.0 },
            p[1] + if on_z { clearance } else { 0.0 },
        ]
    })
}

/// The walkable waypoints for the exact path `exact` (start, corners, goal in world
/// coordinates), the start and goal kept verbatim (`exact` may run between points other
/// than `from` and `to`, which are then its first and last legs' ends): corners moved off by `clearance`, long
/// legs split, then every leg checked with [`leg_walks`] and, when `repair`, repaired.
/// Returns the waypoints and the number of repairs.
///
/// # Errors
/// [`PathError::NotWalkable`] when a leg still fails (with `repair` off: at the first one
/// that fails).
pub(crate) fn walkable(
    world: &World,
    paths: &PathIndex,
    from: Position,
    to: Position,
    exact: &[[f64; 2]],
    clearance: f64,
    repair: bool,
) -> Result<(Vec<Position>, usize), PathError> {
    let (s, t) = (world_xz(from), world_xz(to));
    let (s2, t2) = (exact[0], exact[exact.len() - 1]);
    let mut pts = vec![s];
    if s2 != s {
        pts.push(s2);
    }
    for w in exact.windows(3) {
        pts.extend(corner_points(w[0], w[1], w[2], clearance));
    }
    if t2 != t {
        pts.push(t2);
    }
    pts.push(t);
    let mut out = waypoints(from, to, &split_long_legs(&pts))?;

    let ground = Grid::global(world);
    let mut repairs = 0;
    let mut j = 0;
    while j + 1 < out.len() {
        let stop = match walk_leg(world, out[j], out[j + 1]) {
            Ok(()) => {
                j += 1;
                continue;
            }
            Err(stop) => stop,
        };
        if !repair {
            return Err(PathError::NotWalkable);
        }
        if repairs == MAX_REPAIRS {
            return lattice_detours(world, paths, out, j, repairs);
        }
        repairs += 1;
        // The walk strays from the leg by its 0.2-unit nudges toward the centres of the
        // cells it enters; over a long leg they add up. Vertices as far off the leg as the
        // stop (plus a nudge and a half) may be the ones it went the wrong way round.
        let (u, v) = (world_xz(out[j]), world_xz(out[j + 1]));
        let strayed = stop.map_or(0.0, |p| distance_to_line(u, v, world_xz(p)));
        let reach = 2.0 * clearance + 0.5 + strayed;
        let mut inserted = repair_leg(&ground, &out, j, clearance, reach);
        if inserted.is_empty() {
            inserted = detour(world, &ground, &out, j, clearance, reach);
        }
        if inserted.is_empty() {
            return lattice_detours(world, paths, out, j, repairs);
        }
        let inserted: Option<Vec<Position>> = inserted.into_iter().map(position).collect();
        out.splice(j + 1..j + 1, inserted.ok_or(PathError::NotWalkable)?);
    }
    Ok((out, repairs))
}

/// The walkable path for the exact path through and round objects `exact` (start, turning
/// points, goal; [`super::exact_objects`]), for a walker starting on the surface `start`
/// ([module docs](super#walkable-paths-through-objects)): the terrain's corners moved off by
/// `clearance` as on the terrain, the points round object vertices kept, a start or goal on
/// a grid line reached through its own tile, long legs split; then every leg walked by the
/// whole walk from the height the leg before it arrived at, and a leg it refuses replaced by
/// a detour at that height ([`super::detour`]). Returns the waypoints and the number of
/// detours.
///
/// # Errors
/// [`PathError::NotWalkable`] when a leg has no detour, or a detour's leg is refused from
/// the height the walker arrives at.
pub(crate) fn walkable_with_objects(
    world: &World,
    paths: &PathIndex,
    exact: &[Position],
    start: Surface,
    clearance: f64,
) -> Result<(Vec<Position>, usize), PathError> {
    let (from, to) = (exact[0], exact[exact.len() - 1]);
    let xz: Vec<[f64; 2]> = exact.iter().map(|&w| world_xz(w)).collect();
    let on_grid = |p: [f64; 2]| cell_coordinate(p[0]).1 && cell_coordinate(p[1]).1;
    let mut pts = vec![xz[0]];
    pts.extend(into_own_tile(xz[0], clearance));
    for w in xz.windows(3) {
        if on_grid(w[1]) {
            pts.extend(corner_points(w[0], w[1], w[2], clearance));
        } else {
            pts.push(w[1]);
        }
    }
    pts.extend(into_own_tile(xz[xz.len() - 1], clearance));
    pts.push(xz[xz.len() - 1]);
    let path = waypoints(from, to, &split_long_legs(&pts))?;
    walk_carrying_height(world, paths, &path, start)
}

/// `path` walked leg by leg by the whole walk, each leg from the height the leg before it
/// arrived at (the walker on the surface `start` at the start), every leg the
/// walk refuses replaced by a detour at that height ([`super::detour`]): the waypoints and the
/// number of detours.
///
/// # Errors
/// [`PathError::StartBlocked`] when the start is on no surface; [`PathError::NotWalkable`]
/// when a leg has no detour, or a detour's leg is refused from the height the walker arrives
/// at.
pub(crate) fn walk_carrying_height(
    world: &World,
    paths: &PathIndex,
    path: &[Position],
    start: Surface,
) -> Result<(Vec<Position>, usize), PathError> {
    let from = path[0];
    let walk_from = |a: Position, y: f32, b: Position| {
        let options = MoveOptions::new().with_start(Surface::Near(y));
        match world.move_along(a, b, &options) {
            Ok(o) if o.stop.reaches_goal() => Some(o.height),
            _ => None,
        }
    };
    let mut y = world
        .start_height_on(from, start)
        .ok_or(PathError::StartBlocked)?;
    let mut out = vec![from];
    let mut detours = 0;
    let mut i = 0;
    while i + 1 < path.len() {
        if let Some(arrived) = walk_from(path[i], y, path[i + 1]) {
            out.push(path[i + 1]);
            y = arrived;
            i += 1;
            continue;
        }
        if detours == MAX_REPAIRS {
            return Err(PathError::NotWalkable);
        }
        let walk = super::detour::Walk::carrying_height(world, paths);
        let (legs, reached) = super::detour::detour_from(walk, path[i], Some(y), &path[i + 1..])?;
        for leg in legs.windows(2) {
            y = walk_from(leg[0], y, leg[1]).ok_or(PathError::NotWalkable)?;
            out.push(leg[1]);
        }
        detours += 1;
        i += 1 + reached;
    }
    Ok((out, detours))
}

/// The last resort when the repairs find no point that fixes leg `j` of `out`: from there on,
/// every leg the terrain walk refuses replaced by a detour over a lattice of points round it
/// ([`super::detour`], under the terrain walk; the legs before `j` are walked already), with
/// the repairs made so far.
fn lattice_detours(
    world: &World,
    paths: &PathIndex,
    mut out: Vec<Position>,
    j: usize,
    repairs: usize,
) -> Result<(Vec<Position>, usize), PathError> {
    let walk = super::detour::Walk::terrain(world, paths);
    let (rest, detours) = super::detour::around(walk, &out[j..])?;
    out.truncate(j);
    out.extend(rest);
    Ok((out, repairs + detours))
}

/// The distance of `p` from the line through `u` and `v` (from `u` when they coincide).
fn distance_to_line(u: [f64; 2], v: [f64; 2], p: [f64; 2]) -> f64 {
    let (d, rel) = (sub(v, u), sub(p, u));
    let len = d[0].hypot(d[1]);
    if len == 0.0 {
        rel[0].hypot(rel[1])
    } else {
        cross(d, rel).abs() / len
    }
}

/// The grid vertices (gx, gz) within `reach` of the segment `u–v` (projecting onto it): the
/// ones the walk, which strays from the segment by its 0.2-unit nudges, may pass on either
/// side.
fn vertices_near(u: [f64; 2], v: [f64; 2], reach: f64) -> impl Iterator<Item = (i64, i64)> {
    let d = sub(v, u);
    let len = d[0].hypot(d[1]);
    let (gx0, gx1) = (
        ((u[0].min(v[0]) - reach) / TILE).floor() as i64,
        ((u[0].max(v[0]) + reach) / TILE).ceil() as i64,
    );
    let (gz0, gz1) = (
        ((u[1].min(v[1]) - reach) / TILE).floor() as i64,
        ((u[1].max(v[1]) + reach) / TILE).ceil() as i64,
    );
    (gz0..=gz1)
        .flat_map(move |gz| (gx0..=gx1).map(move |gx| (gx, gz)))
        .filter(move |&(gx, gz)| {
            let rel = sub([gx as f64 * TILE, gz as f64 * TILE], u);
            let t = (rel[0] * d[0] + rel[1] * d[1]) / (len * len);
            (0.0..=1.0).contains(&t) && cross(d, rel).abs() / len <= reach
        })
}

/// The tiles round grid vertex (gx, gz), in the order of [`DIAGONALS`].
fn quadrants(gx: i64, gz: i64) -> [(i64, i64); 4] {
    [(gx, gz), (gx - 1, gz), (gx - 1, gz - 1), (gx, gz - 1)]
}

/// Whether grid vertex (gx, gz) touches an obstacle: a blocked tile or a wall.
fn has_obstacle(ground: &Grid<'_>, gx: i64, gz: i64) -> bool {
    quadrants(gx, gz)
        .iter()
        .any(|&(tx, tz)| !ground.open(tx, tz))
        || ground.wall_horizontal(gz, gx)
        || ground.wall_vertical(gx, gz)
        || ground.wall_horizontal(gz, gx - 1)
        || ground.wall_vertical(gx, gz - 1)
}

/// Points to insert between waypoints `j` and `j + 1` so that the walk may accept the leg:
/// - from a start on a grid line, a first step into the start's own tile (a walk that starts
///   on its cell's side cannot leave through that side);
/// - to a goal on a grid line, a last step from inside the goal's own tile;
/// - otherwise, for each grid vertex with obstacles that the leg passes closer than the
///   walk's nudges allow, a point `clearance` off it on the leg's open side, in order along
///   the leg.
///
/// Empty when none applies (the path is then not walkable).
fn repair_leg(
    ground: &Grid<'_>,
    pts: &[Position],
    j: usize,
    clearance: f64,
    reach: f64,
) -> Vec<[f64; 2]> {
    let (u, v) = (world_xz(pts[j]), world_xz(pts[j + 1]));
    if j == 0 {
        if let Some(q) = into_own_tile(u, clearance) {
            if position(q).is_some_and(|q| q != pts[1]) {
                return vec![q];
            }
        }
    }
    if j + 2 == pts.len() {
        if let Some(q) = into_own_tile(v, clearance) {
            if position(q).is_some_and(|q| q != pts[j]) {
                return vec![q];
            }
        }
    }
    let d = sub(v, u);
    let len = d[0].hypot(d[1]);
    if len == 0.0 {
        return Vec::new();
    }
    let mut found: Vec<(f64, [f64; 2])> = Vec::new();
    for (gx, gz) in vertices_near(u, v, reach) {
        let c = [gx as f64 * TILE, gz as f64 * TILE];
        let rel = sub(c, u);
        let t = (rel[0] * d[0] + rel[1] * d[1]) / (len * len);
        if let Some(q) = vertex_offset(ground, gx, gz, u, v, clearance) {
            let q = [c[0] + q[0], c[1] + q[1]];
            if position(q).is_some_and(|p| p != pts[j] && p != pts[j + 1]) {
                found.push((t, q));
            }
        }
    }
    found.sort_by(|a, b| a.0.total_cmp(&b.0));
    found.into_iter().map(|(_, q)| q).collect()
}

/// The offset (a diagonal times `clearance`) that moves grid vertex (gx, gz) to the open
/// side of a leg in direction `d`, when the vertex touches obstacles (blocked tiles or walls) and
/// they all lie on one side of the line; `None` otherwise.
fn vertex_offset(
    ground: &Grid<'_>,
    gx: i64,
    gz: i64,
    u: [f64; 2],
    v: [f64; 2],
    clearance: f64,
) -> Option<[f64; 2]> {
    let d = sub(v, u);
    let len = d[0].hypot(d[1]);
    // Sample points of the obstacles at the vertex: the blocked quadrants' diagonals and the
    // walls' directions.
    let mut samples: Vec<[f64; 2]> = Vec::new();
    for (w, (tx, tz)) in
        DIAGONALS
            .iter()
            .zip([(gx, gz), (gx - 1, gz), (gx - 1, gz - 1), (gx, gz - 1)])
    {
        if !ground.open(tx, tz) {
            samples.push(*w);
        }
    }
    let walls = [
        (ground.wall_horizontal(gz, gx), [1.0, 0.0]),
        (ground.wall_vertical(gx, gz), [0.0, 1.0]),
        (ground.wall_horizontal(gz, gx - 1), [-1.0, 0.0]),
        (ground.wall_vertical(gx, gz - 1), [0.0, -1.0]),
    ];
    samples.extend(walls.iter().filter(|w| w.0).map(|w| w.1));
    if samples.is_empty() {
        return None;
    }
    // Sides are taken from the line through the vertex along the leg, so that a wall along
    // the leg (which the leg may run beside) counts on neither side. A wall *nearly* along
    // the leg counts on neither side too: a leg between corners moved off by the clearance
    // runs beside a wall at a slight slant (less than `reach` across a tile's length), and
    // the slant alone must not put the wall on the far side of the leg from the blocked
    // ground it bounds.
    let unit = [d[0] / len, d[1] / len];
    let reach = 2.0 * clearance + 0.5;
    let side = |w: [f64; 2]| {
        let across = cross(unit, w);
        if w[0] * w[1] == 0.0 && across.abs() * TILE <= reach {
            0
        } else {
            sign(across)
        }
    };
    let sides: Vec<i8> = samples.iter().map(|&w| side(w)).collect();
    let blocked = if sides.iter().all(|&s| s >= 0) && sides.iter().any(|&s| s > 0) {
        1
    } else if sides.iter().all(|&s| s <= 0) && sides.iter().any(|&s| s < 0) {
        -1
    } else {
        return None;
    };
    DIAGONALS
        .iter()
        .zip([(gx, gz), (gx - 1, gz), (gx - 1, gz - 1), (gx, gz - 1)])
        .filter(|(_, (tx, tz))| ground.open(*tx, *tz))
        .map(|(w, _)| *w)
        .max_by(|a, b| {
            let away = |w: &[f64; 2]| -f64::from(blocked) * cross(d, *w);
            away(a).total_cmp(&away(b))
        })
        .filter(|w| -f64::from(blocked) * cross(d, *w) > 0.0)
        .map(|w| [clearance * w[0], clearance * w[1]])
}

/// The last resort for a refused leg that [`repair_leg`] has nothing for: a point
/// `clearance` off a grid vertex with obstacles near the leg, into one of its open tiles,
/// that the walk reaches from the leg's start, taking the vertices in order along the leg
/// and, at each, the points nearest the leg first. A point already on the path is never
/// taken again, so repeated detours end. Empty when no such point is walked to.
fn detour(
    world: &World,
    ground: &Grid<'_>,
    pts: &[Position],
    j: usize,
    clearance: f64,
    reach: f64,
) -> Vec<[f64; 2]> {
    let (u, v) = (world_xz(pts[j]), world_xz(pts[j + 1]));
    let d = sub(v, u);
    let len = d[0].hypot(d[1]);
    if len == 0.0 {
        return Vec::new();
    }
    let mut found: Vec<(f64, f64, [f64; 2])> = Vec::new();
    for (gx, gz) in vertices_near(u, v, reach) {
        let c = [gx as f64 * TILE, gz as f64 * TILE];
        let rel = sub(c, u);
        let t = (rel[0] * d[0] + rel[1] * d[1]) / (len * len);
        if !has_obstacle(ground, gx, gz) {
            continue;
        }
        for (w, (tx, tz)) in DIAGONALS.iter().zip(quadrants(gx, gz)) {
            if !ground.open(tx, tz) {
                continue;
            }
            let q = [c[0] + clearance * w[0], c[1] + clearance * w[1]];
            let off = cross(d, sub(q, u)).abs() / len;
            found.push((t, off, q));
        }
    }
    found.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    found
        .into_iter()
        .filter_map(|(_, _, q)| Some((q, position(q)?)))
        .find(|&(_, p)| !pts.contains(&p) && leg_walks(world, pts[j], p))
        .map(|(q, _)| vec![q])
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cut point whose f64 value is a hair off a region border lands on it once stored in
    /// its region's f32 frame; the walk then finds no edge to leave it by. Legs symmetric
    /// about a border put their halfway cut there (the fuzz finding
    /// `radius-cut-on-region-border.bin`); no cut may stay on a grid line as stored.
    #[test]
    fn long_legs_are_cut_off_grid_lines_as_stored() {
        let mut rng = crate::rng::SplitMix64::new(11);
        let border = 129.0 * 1920.0;
        let mut checked = 0;
        for _ in 0..2000 {
            let half = 960.0 + rng.unit() * 900.0;
            let z = 64.0 * 1920.0 + 20.0 + rng.unit() * 1800.0;
            let dz = rng.unit() * 8.0 - 4.0;
            let (a, b) = ([border + half, z], [border - half, z + dz]);
            // As the path's ends are given: positions in their regions' frames.
            let (a, b) = (
                world_xz(position(a).unwrap()),
                world_xz(position(b).unwrap()),
            );
            let cut = split_long_legs(&[a, b]);
            assert!(cut.len() >= 3, "{a:?} -> {b:?} is long: {cut:?}");
            for &q in &cut[1..cut.len() - 1] {
                let stored = world_xz(position(q).unwrap());
                assert!(
                    !cell_coordinate(stored[0]).1 && !cell_coordinate(stored[1]).1,
                    "{a:?} -> {b:?}: cut {q:?} is stored on a grid line: {stored:?}"
                );
                checked += 1;
            }
        }
        assert!(checked >= 2000);
    }
}
