//! Queries on small worlds made from fuzzed tile masks (the fuzz target `world_queries`, and
//! the replay of its findings in the tests) and heights: cell, height, snap, line
//! of sight, move and path never panic or hang, and their answers agree with each other the
//! way users chain them.
//!
//! Input: a shape byte (bit 0: two regions wide, bit 1: two high), then for each region a
//! count of blocked rectangles and their `tx tz w h` bytes, a count of single blocked tiles and
//! their `tx tz` bytes, and two bytes of heights (amplitude, waviness); the rest is queries of
//! nine bytes: a kind byte (bit 0 puts both points on tile corners, bit 1 puts the second point
//! within 64 units of the first) and four little-endian u16 fractions of the world's box (with
//! a 40-unit margin around it) for `x1 z1 x2 z2`.
//!
//! Checks, for every query:
//! - a point with a cell has a height;
//! - a snapped point has a cell, lies within the distance asked, and is the point itself when
//!   that one has a cell;
//! - a path starts and ends at the points asked, its length is the sum of its legs and at least
//!   the straight distance, each of its exact legs has line of sight, each leg of the default
//!   (walkable) path is walked to its end by `move_along`, and by `move_along_y` from the
//!   height the leg before arrived at, to the height `path_heights` gives its end; where an
//!   exact path exists the walkable one is never refused as not walkable, and where the
//!   straight segment has line of sight the exact length is the straight distance;
//! - for one query in four (kind bits 6 and 7 set), a walker of radius 2.5, 10, 20 or 35 (kind
//!   bits 2 and 3): its path is never shorter than the point's, and its walkable form's legs
//!   arrive under `move_along`;
//! - searches have a budget, so nothing hangs.

use jmxv::RegionId;
use silknav::build::{build_world, RegionInput};
use silknav::world::movement::MoveStop;
use silknav::{
    MoveOptions, PathError, PathIndex, PathOptions, PathScratch, Position, Surface, World,
};

const ORIGIN: (u8, u8) = (128, 64);
const SIDE: f64 = 1920.0;
const MARGIN: f64 = 40.0;
const MAX_QUERIES: usize = 48;
const BUDGET: usize = 20_000;

/// Reads bytes from the front of the input, zeros once it is used up.
pub(crate) struct Bytes<'a>(pub(crate) &'a [u8]);

impl Bytes<'_> {
    pub(crate) fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    pub(crate) fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }
}

pub(crate) fn region_input(region: RegionId, input: &mut Bytes<'_>) -> RegionInput {
    let mut r = RegionInput::open(region);
    for _ in 0..input.byte() % 24 {
        let (tx, tz) = (
            usize::from(input.byte()) % 96,
            usize::from(input.byte()) % 96,
        );
        let (w, h) = (
            usize::from(input.byte()) % 32 + 1,
            usize::from(input.byte()) % 32 + 1,
        );
        for z in tz..(tz + h).min(96) {
            for x in tx..(tx + w).min(96) {
                r.blocked[z * 96 + x] = true;
            }
        }
    }
    for _ in 0..input.byte() % 64 {
        let (tx, tz) = (
            usize::from(input.byte()) % 96,
            usize::from(input.byte()) % 96,
        );
        r.blocked[tz * 96 + tx] = true;
    }
    let (amplitude, waves) = (f32::from(input.byte()), f32::from(input.byte() % 16) + 1.0);
    for (v, h) in r.heights.iter_mut().enumerate() {
        let (x, z) = ((v % 97) as f32 / 97.0, (v / 97) as f32 / 97.0);
        *h = amplitude * (x * waves).sin() * (z * waves).cos();
    }
    r
}

/// Builds the world `data` describes and runs its queries, panicking at the first answer
/// that contradicts another (see the [module docs](self)). Inputs of any length and content
/// are fine: a short one is a world of open regions with no queries.
pub fn check(data: &[u8]) {
    let mut input = Bytes(data);
    let shape = input.byte();
    let (w, h) = (1 + (shape & 1), 1 + ((shape >> 1) & 1));
    let mut inputs = Vec::new();
    for dz in 0..h {
        for dx in 0..w {
            let region = RegionId::new(ORIGIN.0 + dx, ORIGIN.1 + dz);
            inputs.push(region_input(region, &mut input));
        }
    }
    let meshes = build_world(&inputs);
    let world = World::from_navmeshes(meshes.iter().map(|(r, m)| (*r, m)));
    let paths = PathIndex::build(&world);

    let (x0, z0) = (f64::from(ORIGIN.0) * SIDE, f64::from(ORIGIN.1) * SIDE);
    let (width, height) = (f64::from(w) * SIDE, f64::from(h) * SIDE);
    let mut scratch = PathScratch::with_budget(BUDGET);
    for _ in 0..MAX_QUERIES {
        if input.0.len() < 9 {
            break;
        }
        let kind = input.byte();
        let mut f = [0.0; 4];
        for v in &mut f {
            *v = f64::from(input.u16()) / f64::from(u16::MAX);
        }
        let mut a = [
            x0 - MARGIN + f[0] * (width + 2.0 * MARGIN),
            z0 - MARGIN + f[1] * (height + 2.0 * MARGIN),
        ];
        let mut b = if kind & 2 != 0 {
            [a[0] + (f[2] - 0.5) * 128.0, a[1] + (f[3] - 0.5) * 128.0]
        } else {
            [
                x0 - MARGIN + f[2] * (width + 2.0 * MARGIN),
                z0 - MARGIN + f[3] * (height + 2.0 * MARGIN),
            ]
        };
        if kind & 1 != 0 {
            for v in a.iter_mut().chain(b.iter_mut()) {
                *v = (*v / 20.0).round() * 20.0;
            }
        }
        let (Some(pa), Some(pb)) = (
            Position::from_world(a[0], a[1]),
            Position::from_world(b[0], b[1]),
        ) else {
            continue;
        };

        // Cell and height.
        let cell = world.cell_at(pa, Surface::Highest);
        if cell.is_some() {
            assert!(
                world.height_at(pa, Surface::Terrain).is_some(),
                "{a:?} has a cell but no height"
            );
        }

        // Snap: the point found has a cell.
        let max = f64::from(kind >> 2) * 4.0;
        if let Some(s) = world.nearest_walkable(pa, Surface::Highest, max) {
            assert!(
                world.cell_at(s.position, Surface::Highest).is_some(),
                "snap of {a:?}: {s:?} has no cell"
            );
            assert!(s.distance <= max, "snap of {a:?} within {max}: {s:?}");
            if cell.is_some() {
                assert_eq!(s.distance, 0.0, "{a:?} has a cell: {s:?}");
            }
        } else {
            assert!(
                cell.is_none(),
                "{a:?} has a cell and does not snap to itself"
            );
        }

        // Line of sight and the walk: answers, never a panic.
        let clear = world.line_of_sight(pa, pb, Surface::Highest);
        let _ = world.move_along(pa, pb, &MoveOptions::default());

        // Paths: the exact one, and the walkable one users walk.
        let exact = paths.find_path(&world, pa, pb, &PathOptions::exact(), &mut scratch);
        if let Ok(path) = &exact {
            let ends = (
                path.waypoints[0],
                *path.waypoints.last().expect("two points"),
            );
            assert_eq!(ends, (pa, pb));
            let mut sum = 0.0;
            for leg in path.waypoints.windows(2) {
                sum += (leg[1].world_x() - leg[0].world_x())
                    .hypot(leg[1].world_z() - leg[0].world_z());
                assert_eq!(
                    world.line_of_sight(leg[0], leg[1], Surface::Highest),
                    Ok(true),
                    "exact leg {leg:?} of {a:?} -> {b:?}"
                );
            }
            // Between the positions asked (the query's points in f32 region frames).
            let straight = (pb.world_x() - pa.world_x()).hypot(pb.world_z() - pa.world_z());
            let tolerance = 1e-9 * (1.0 + sum);
            assert!((sum - path.length).abs() <= tolerance, "{path:?}");
            assert!(path.length >= straight - tolerance, "{path:?}");
            if clear == Ok(true) {
                assert!(
                    (path.length - straight).abs() <= tolerance,
                    "{a:?} sees {b:?}, yet the path is {path:?}"
                );
            }
        }
        let walkable = paths.find_path(&world, pa, pb, &PathOptions::default(), &mut scratch);
        if exact.is_ok() && walkable == Err(PathError::NotWalkable) {
            // Right only where no walk can join the ends: the tiles the walk leaves the start
            // and reaches the goal by are not joined (an end on a pinched grid vertex).
            assert!(
                own_tiles_unreachable(&world, &paths, pa, pb, &mut scratch),
                "{a:?} -> {b:?} has an exact path and no walkable one"
            );
        }
        if let Ok(path) = walkable {
            assert!(
                exact.is_ok(),
                "a walkable path where no exact one: {path:?}"
            );
            let heights = world.path_heights(&path, Surface::Highest);
            assert_eq!(heights.len(), path.waypoints.len());
            for (k, leg) in path.waypoints.windows(2).enumerate() {
                let walk = world.move_along(leg[0], leg[1], &MoveOptions::default());
                assert!(
                    matches!(walk, Ok(m) if m.stop == MoveStop::Arrived),
                    "leg {leg:?} of {a:?} -> {b:?}: {walk:?}"
                );
                // From the height the leg before arrived at: the same walk, to the height
                // the path gives the leg's end.
                let y = heights[k].expect("a walkable path's waypoints stand somewhere");
                let chained = world.move_along(
                    leg[0],
                    leg[1],
                    &MoveOptions::new().with_start(Surface::Near(y)),
                );
                assert!(
                    matches!(chained, Ok(m) if m.stop == MoveStop::Arrived
                        && Some(m.height) == heights[k + 1]),
                    "leg {leg:?} of {a:?} -> {b:?} from {y}: {chained:?}, heights {heights:?}"
                );
            }
        }

        // A walker of some size (one query in four): never shorter than the point's path,
        // and walkable when it exists (or the search ran out of budget).
        if kind & 0xc0 == 0xc0 {
            let radius = [2.5, 10.0, 20.0, 35.0][usize::from(kind >> 2) & 3];
            let options = PathOptions::exact().with_radius(radius).unwrap();
            let wide = paths.find_path(&world, pa, pb, &options, &mut scratch);
            if let (Ok(wide), Ok(point)) = (&wide, &exact) {
                assert!(
                    wide.length >= point.length - 1e-6,
                    "{a:?} -> {b:?}: radius {radius} {wide:?} shorter than {point:?}"
                );
            }
            let walkable = paths.find_path(
                &world,
                pa,
                pb,
                &PathOptions::new().with_radius(radius).unwrap(),
                &mut scratch,
            );
            match (&wide, &walkable) {
                (Ok(_), Ok(path)) => {
                    for leg in path.waypoints.windows(2) {
                        let walk = world.move_along(leg[0], leg[1], &MoveOptions::default());
                        assert!(
                            matches!(walk, Ok(m) if m.stop == MoveStop::Arrived),
                            "radius {radius} leg {leg:?} of {a:?} -> {b:?}: {walk:?}"
                        );
                    }
                }
                (Ok(_), Err(e)) => {
                    assert_eq!(
                        *e,
                        PathError::BudgetExceeded,
                        "radius {radius}: {a:?} -> {b:?}"
                    )
                }
                (Err(e), w) => assert!(
                    w.as_ref().err() == Some(e) || *e == PathError::BudgetExceeded,
                    "radius {radius}: {a:?} -> {b:?}: exact {e:?}, walkable {w:?}"
                ),
            }
        }
    }
}

/// Whether no exact path joins the points `from` and `to` moved 0.001 into the tiles they
/// belong to (the tile on the +x / +z side of a grid line they lie on): then the server's
/// walk, which leaves a point and reaches one only through that tile, joins them by no path,
/// and `not-walkable` is the right answer even where an exact path exists (through a diagonal
/// pinch at an end).
pub fn own_tiles_unreachable(
    world: &World,
    paths: &PathIndex,
    from: Position,
    to: Position,
    scratch: &mut PathScratch,
) -> bool {
    let own = |p: Position| {
        let nudge = |v: f64| if v % 20.0 == 0.0 { v + 0.001 } else { v };
        Position::from_world(nudge(p.world_x()), nudge(p.world_z()))
    };
    let (Some(a), Some(b)) = (own(from), own(to)) else {
        return false;
    };
    (a, b) != (from, to)
        && paths.find_path(world, a, b, &PathOptions::exact(), scratch)
            == Err(PathError::Unreachable)
}
