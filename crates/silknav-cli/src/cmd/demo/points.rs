//! Query points for the demo, found in the world itself so that they mean something for any
//! seed: an open tile A with a wall on its east side, a tile B a few open tiles west of A, and
//! the first open tile C east of the wall.
//!
//! From B to A the ground is open, so the line of sight is clear and the walk arrives; from A
//! to C the segment crosses the wall, so the line of sight is blocked and the walk stops at it.
//! Each of the four answers is checked with the library before the points are chosen; the
//! candidates nearest the middle of the world are tried first, so the points sit in the middle
//! of the picture, and ground with a height other than 0 is preferred, so the height query
//! shows the terrain.

use silknav::world::MoveStop;
use silknav::{Position, World};

/// World units per tile.
const TILE: f64 = 20.0;
/// Tiles per region side.
const TILES: i64 = 96;
/// How many open tiles B lies west of A, at most and at least.
const WEST_MOST: i64 = 12;
const WEST_LEAST: i64 = 4;
/// How far east of A the search for C goes.
const EAST_MOST: i64 = 16;

/// The chosen points, as world coordinates of tile centres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Points {
    /// A few open tiles west of `a`.
    pub b: [f64; 2],
    /// An open tile with a wall on its east side.
    pub a: [f64; 2],
    /// The first open tile east of the wall.
    pub c: [f64; 2],
}

/// The world's tile grid, by global tile indices (`region · 96 + tile`).
pub struct Tiles<'w> {
    pub world: &'w World,
}

impl Tiles<'_> {
    /// The world coordinates of a tile's centre.
    pub fn centre(gx: i64, gz: i64) -> [f64; 2] {
        [gx as f64 * TILE + TILE / 2.0, gz as f64 * TILE + TILE / 2.0]
    }

    /// Whether the tile is open: a cell lies under its centre.
    pub fn open(&self, gx: i64, gz: i64) -> bool {
        let [x, z] = Tiles::centre(gx, gz);
        Position::from_world(x, z).is_some_and(|p| self.world.cell_at(p).is_some())
    }
}

/// Finds the points, or `None` when no place of the world has them (no wall with open ground
/// on both sides, which a generated world always has).
pub fn pick(world: &World) -> Option<Points> {
    let [gx0, gz0, gx1, gz1] = tile_box(world)?;
    let middle = ((gx0 + gx1) / 2, (gz0 + gz1) / 2);
    let mut candidates: Vec<(i64, i64)> = (gz0..gz1)
        .flat_map(|gz| (gx0..gx1).map(move |gx| (gx, gz)))
        .collect();
    // Distance to the middle, then position: a total order, so the choice is reproducible.
    candidates.sort_by_key(|&(gx, gz)| {
        let (dx, dz) = (gx - middle.0, gz - middle.1);
        (dx * dx + dz * dz, gz, gx)
    });
    let tiles = Tiles { world };
    // A height of 0 is true of the flat lowland but shows little; prefer ground with relief.
    let raised = |p: &Points| {
        Position::from_world(p.a[0], p.a[1])
            .and_then(|a| world.height_at(a))
            .is_some_and(|h| h != 0.0)
    };
    let mut fallback = None;
    for (gx, gz) in candidates {
        if let Some(points) = try_at(&tiles, gx, gz) {
            if raised(&points) {
                return Some(points);
            }
            fallback = fallback.or(Some(points));
        }
    }
    fallback
}

/// The box of tiles around the world's regions, `[gx0, gz0, gx1, gz1]` (global tile indices,
/// the ends exclusive); `None` for an empty world.
pub fn tile_box(world: &World) -> Option<[i64; 4]> {
    let regions: Vec<_> = world.regions().collect();
    let (x0, x1) = span(regions.iter().map(|r| i64::from(r.x())))?;
    let (z0, z1) = span(regions.iter().map(|r| i64::from(r.z())))?;
    Some([x0 * TILES, z0 * TILES, x1 * TILES, z1 * TILES])
}

/// The lowest and one past the highest value.
fn span(values: impl Iterator<Item = i64> + Clone) -> Option<(i64, i64)> {
    Some((values.clone().min()?, values.max()? + 1))
}

fn try_at(tiles: &Tiles<'_>, gx: i64, gz: i64) -> Option<Points> {
    if !tiles.open(gx, gz) || tiles.open(gx + 1, gz) {
        return None;
    }
    let west = (1..=WEST_MOST)
        .take_while(|&k| tiles.open(gx - k, gz))
        .last()?;
    if west < WEST_LEAST {
        return None;
    }
    let east = (2..=EAST_MOST).find(|&k| tiles.open(gx + k, gz))?;
    let points = Points {
        b: Tiles::centre(gx - west, gz),
        a: Tiles::centre(gx, gz),
        c: Tiles::centre(gx + east, gz),
    };
    points.answers_as_meant(tiles.world).then_some(points)
}

impl Points {
    /// Whether the library agrees with what the points are meant to show.
    fn answers_as_meant(&self, world: &World) -> bool {
        let at = |p: [f64; 2]| Position::from_world(p[0], p[1]);
        let (Some(b), Some(a), Some(c)) = (at(self.b), at(self.a), at(self.c)) else {
            return false;
        };
        let clear = world.raycast(b, a) == Ok(None);
        let blocked = matches!(world.raycast(a, c), Ok(Some(_)));
        let arrives = world
            .move_along(b, a)
            .is_ok_and(|m| m.stop == MoveStop::Arrived);
        let walled = world
            .move_along(a, c)
            .is_ok_and(|m| matches!(m.stop, MoveStop::Wall { .. }));
        clear && blocked && arrives && walled
    }
}
