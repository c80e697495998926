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
//!
//! [`building`] finds an object walk the same way: a point E on an object's floor, open ground
//! D from which the walk to E enters the object and arrives, and open ground F from which one
//! of the object's edges stops it.

use silknav::geometry::TILE;
use silknav::world::movement::MoveStop;
use silknav::{MoveOptions, Position, Surface, World};

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
        Position::from_world(x, z)
            .is_some_and(|p| self.world.cell_at(p, Surface::Highest).is_some())
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
            .and_then(|a| world.height_at(a, Surface::Terrain))
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
        let clear = world.raycast(b, a, Surface::Highest) == Ok(None);
        let blocked = matches!(world.raycast(a, c, Surface::Highest), Ok(Some(_)));
        let arrives = world
            .move_along(b, a, &MoveOptions::default())
            .is_ok_and(|m| m.stop == MoveStop::Arrived);
        let walled = world
            .move_along(a, c, &MoveOptions::default())
            .is_ok_and(|m| matches!(m.stop, MoveStop::Wall { .. }));
        clear && blocked && arrives && walled
    }
}

/// A building walk: from open ground outside an object onto its floor, and from another side
/// into its wall.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Building {
    /// The instance.
    pub key: silknav::objects::InstanceKey,
    /// On its floor: where both walks go.
    pub e: [f64; 2],
    /// Open ground from which the walk to `e` enters (through a doorway, or onto a bridge's
    /// end) and arrives.
    pub d: [f64; 2],
    /// Open ground from which the walk to `e` is stopped by one of the object's edges.
    pub f: [f64; 2],
}

/// Directions tried around an object.
const AROUND: usize = 32;

/// Finds a building walk: the first instance (nearest the middle of the world first) with a
/// floor point `e` and, among `AROUND` starts on a circle just outside it, one whose walk to
/// `e` arrives on the object and one whose walk is stopped by an object edge.
pub fn building(world: &World) -> Option<Building> {
    let [gx0, gz0, gx1, gz1] = tile_box(world)?;
    let middle = [
        (gx0 + gx1) as f64 * TILE / 2.0,
        (gz0 + gz1) as f64 * TILE / 2.0,
    ];
    let mut found: Vec<(f64, Building)> = Vec::new();
    for inst in world.object_instances() {
        let key = inst.key();
        let (c, s) = (f64::from(inst.yaw()).cos(), f64::from(inst.yaw()).sin());
        let (r, p) = (inst.frame_region(), inst.position());
        let to_world = |x: f64, z: f64| {
            [
                f64::from(r.x()) * 1920.0 + x * c - z * s + f64::from(p[0]),
                f64::from(r.z()) * 1920.0 + x * s + z * c + f64::from(p[2]),
            ]
        };
        let on_it = |q: [f64; 2]| {
            Position::from_world(q[0], q[1])
                .and_then(|q| world.cell_at(q, Surface::Highest))
                .and_then(|cell| cell.object)
                .is_some_and(|o| o.instance == key)
        };
        // The floor point: the centre of the largest triangle the instance answers there.
        let mut floor = None;
        let mut reach = 0.0f64;
        let mut best_area = 0.0;
        for (_, v) in inst.triangles() {
            let xz = v.map(|q| [f64::from(q[0]), f64::from(q[2])]);
            for q in xz {
                reach = reach.max(q[0].hypot(q[1]));
            }
            let area = ((xz[1][0] - xz[0][0]) * (xz[2][1] - xz[0][1])
                - (xz[2][0] - xz[0][0]) * (xz[1][1] - xz[0][1]))
                .abs();
            // Whole units, so that the commands the demo suggests name the very point.
            let centre = to_world(
                (xz[0][0] + xz[1][0] + xz[2][0]) / 3.0,
                (xz[0][1] + xz[1][1] + xz[2][1]) / 3.0,
            )
            .map(f64::round);
            if area > best_area && on_it(centre) {
                best_area = area;
                floor = Some(centre);
            }
        }
        let Some(e) = floor else { continue };
        let (Some(goal), centre) = (Position::from_world(e[0], e[1]), to_world(0.0, 0.0)) else {
            continue;
        };
        let (mut d, mut f) = (None, None);
        for k in 0..AROUND {
            let angle = k as f64 * std::f64::consts::TAU / AROUND as f64;
            let start = [
                (centre[0] + (reach + 10.0) * angle.cos()).round(),
                (centre[1] + (reach + 10.0) * angle.sin()).round(),
            ];
            let Some(from) = Position::from_world(start[0], start[1]) else {
                continue;
            };
            // Walks start on open terrain, outside every object.
            let on_terrain = world
                .cell_at(from, Surface::Highest)
                .is_some_and(|cell| cell.object.is_none());
            if !on_terrain {
                continue;
            }
            match world.move_along(from, goal, &MoveOptions::default()) {
                Ok(m)
                    if m.stop == MoveStop::Arrived
                        && on_it([m.position.world_x(), m.position.world_z()]) =>
                {
                    d.get_or_insert(start);
                }
                Ok(m) if matches!(m.stop, MoveStop::ObjectWall { edge } if edge.instance == key) => {
                    f.get_or_insert(start);
                }
                _ => {}
            }
        }
        if let (Some(d), Some(f)) = (d, f) {
            let distance = (e[0] - middle[0]).hypot(e[1] - middle[1]);
            found.push((distance, Building { key, e, d, f }));
        }
    }
    found
        .into_iter()
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, b)| b)
}

/// The demo's visit of a dungeon: from a point A of its lowest floor to a point B of its
/// highest, by a walkable path.
#[derive(Debug, Clone)]
pub struct DungeonVisit {
    /// The dungeon's id (region `0x8000 | id`).
    pub id: u16,
    /// A and B: x, z in the dungeon's frame, and the reference height a little over the floor.
    pub from: [f32; 3],
    pub to: [f32; 3],
    /// The walkable path from A (its start at A's height) to B.
    pub path: silknav::WorldPath,
    /// How many floors it climbs.
    pub floors: usize,
}

/// Units between the candidate points of the dungeon visit, along x and z: off the blocks'
/// 20-unit grid, so that no candidate lies on a triangle's side.
const VISIT_STEP: f64 = 13.7;

/// The visit ([`DungeonVisit`]) of the dungeon with the fewest blocks (its path is found
/// quickest): A the first point (in x, then z order of a grid over the dungeon's box) on its
/// lowest floor, B the last on its highest; `None` without a dungeon, or when no path joins
/// them.
pub fn dungeon_visit(world: &World, paths: &silknav::PathIndex) -> Option<DungeonVisit> {
    let d = world.dungeons().min_by_key(|d| d.block_count())?;
    let id = d.region().0 & 0x7FFF;
    // Floor heights: the lowest and highest cells over a grid of points.
    let mut found: Vec<([f32; 2], f32)> = Vec::new();
    for i in 0..80 {
        for j in 0..80 {
            let (x, z) = (
                (-540.0 + VISIT_STEP * f64::from(i)) as f32,
                (-540.0 + VISIT_STEP * f64::from(j)) as f32,
            );
            for y in [0.0f32, 60.0, 120.0, 180.0] {
                let at = Position::in_dungeon(id, x, z);
                if let Some((_, h)) = world.surface_at(at, Surface::Near(y + 1.0)) {
                    if (h - y).abs() < 0.5 {
                        found.push(([x, z], h));
                    }
                }
            }
        }
    }
    let low = found.iter().map(|f| f.1).min_by(f32::total_cmp)?;
    let high = found.iter().map(|f| f.1).max_by(f32::total_cmp)?;
    let a = found.iter().find(|f| f.1 == low)?;
    let b = found.iter().rev().find(|f| f.1 == high)?;
    let (from, to) = ([a.0[0], a.0[1], low + 1.0], [b.0[0], b.0[1], high + 1.0]);
    let options = silknav::PathOptions::new()
        .with_start(Surface::Near(low + 1.0))
        .ok()?;
    let path = paths
        .find_path(
            world,
            Position::in_dungeon(id, from[0], from[1]),
            Position::in_dungeon(id, to[0], to[1]),
            &options,
            &mut silknav::PathScratch::new(),
        )
        .ok()?;
    let floors = ((high - low) / silknav::worldgen::dungeon::FLOOR_RISE).round() as usize;
    Some(DungeonVisit {
        id,
        from,
        to,
        path,
        floors,
    })
}
