//! Paths for the demo: shortest paths between far-apart open ground, found in the world itself
//! so that they mean something for any seed.
//!
//! Each route joins two places a world apart (corner to opposite corner, west to east), so
//! that the path crosses regions and bends around what stands between. An end is the open tile
//! nearest its place; when no path joins the nearest pair (one end on ground that walls
//! enclose), the next nearest tiles are tried, a few at most, so the demo stays quick.

use super::points::{tile_box, Tiles};
use silknav::{PathIndex, PathOptions, PathScratch, Position, World, WorldPath};

/// The routes, as fractions of the world's box from its south-west corner: (start, goal).
const ROUTES: [([f64; 2], [f64; 2]); 3] = [
    ([0.06, 0.08], [0.94, 0.92]), // south-west to north-east
    ([0.06, 0.92], [0.94, 0.08]), // north-west to south-east
    ([0.03, 0.45], [0.97, 0.55]), // west to east
];
/// How many open tiles near each end are tried, nearest first.
const TRIES: usize = 3;
/// How far (in tiles, along x or z) an end may lie from its place.
const REACH: i64 = 24;
/// How far apart (in tiles, along x or z) the tiles tried for one end are at least: tiles
/// side by side are usually on the same patch of ground, enclosed or not alike.
const SPREAD: i64 = 6;

/// A path the demo shows.
#[derive(Debug, Clone)]
pub struct Route {
    /// Where it starts and ends, world coordinates of tile centres.
    pub from: [f64; 2],
    pub to: [f64; 2],
    /// The library's path between them.
    pub path: WorldPath,
}

impl Route {
    /// How many times longer the path is than the straight line.
    pub fn detour(&self) -> f64 {
        let straight = (self.to[0] - self.from[0]).hypot(self.to[1] - self.from[1]);
        self.path.length / straight
    }
}

/// The routes that have a path, in the order of [`ROUTES`].
pub fn find(world: &World, paths: &PathIndex) -> Vec<Route> {
    let Some([gx0, gz0, gx1, gz1]) = tile_box(world) else {
        return Vec::new();
    };
    let tiles = Tiles { world };
    let place = |f: [f64; 2]| {
        let gx = gx0 + ((gx1 - gx0) as f64 * f[0]) as i64;
        let gz = gz0 + ((gz1 - gz0) as f64 * f[1]) as i64;
        (gx, gz)
    };
    let mut scratch = PathScratch::new();
    let mut routes = Vec::new();
    for (start, goal) in ROUTES {
        let starts = nearest_open(&tiles, place(start));
        let goals = nearest_open(&tiles, place(goal));
        let found = starts.iter().find_map(|&from| {
            goals.iter().find_map(|&to| {
                let (a, b) = (at(from)?, at(to)?);
                let path = paths
                    .find_path(world, a, b, &PathOptions::default(), &mut scratch)
                    .ok()?;
                Some(Route { from, to, path })
            })
        });
        routes.extend(found);
    }
    routes
}

fn at(p: [f64; 2]) -> Option<Position> {
    Position::from_world(p[0], p[1])
}

/// The centres of up to [`TRIES`] open tiles near tile `(gx, gz)`, nearest first, each at
/// least [`SPREAD`] tiles from the others.
fn nearest_open(tiles: &Tiles<'_>, (gx, gz): (i64, i64)) -> Vec<[f64; 2]> {
    let mut open: Vec<(i64, i64)> = (gz - REACH..=gz + REACH)
        .flat_map(|z| (gx - REACH..=gx + REACH).map(move |x| (x, z)))
        .filter(|&(x, z)| tiles.open(x, z))
        .collect();
    // Distance, then position: a total order, so the choice is reproducible.
    open.sort_by_key(|&(x, z)| ((x - gx).pow(2) + (z - gz).pow(2), z, x));
    let mut chosen: Vec<(i64, i64)> = Vec::new();
    for (x, z) in open {
        if chosen.len() == TRIES {
            break;
        }
        if chosen
            .iter()
            .all(|&(cx, cz)| (x - cx).abs().max((z - cz).abs()) >= SPREAD)
        {
            chosen.push((x, z));
        }
    }
    chosen
        .into_iter()
        .map(|(x, z)| Tiles::centre(x, z))
        .collect()
}
