//! The objects bench's town: a generated world with the generator's villages, fortresses,
//! bridges and stairs, and its seeded queries (points half on object floors, and pairs of
//! points for paths through and round objects). The bench (`benches/objects.rs`) times them
//! in batches; the example `object_bench_pairs` times its paths one by one.

use silknav::files::Overwrite;
use silknav::jmxv::RegionId;
use silknav::worldgen::{generate, GenOptions, Landscape, DEFAULT_ORIGIN};
use silknav::{Navigator, PathError, PathOptions, PathScratch, Position, Surface, World};
use silknav_testkit::rng::SplitMix64;
use std::path::PathBuf;

use crate::cache::bench_worlds_dir;
use crate::queries::random_points;

/// The world: 64 regions, as the queries bench's, with the generator's villages, fortresses,
/// bridges and stairs.
pub const OPTIONS: GenOptions = GenOptions {
    seed: 1,
    width: 8,
    height: 8,
    origin: DEFAULT_ORIGIN,
    landscape: Landscape::Rugged,
};
/// Points per batch; half on object triangles.
pub const POINTS: usize = 10_000;
/// Path queries per batch, at most.
pub const PATHS: usize = 60;
/// The budget of each path search with objects (states expanded and legs walked): a guard, ten
/// times one the bench's pairs all keep within (the slowest takes about half a second).
pub const PATH_BUDGET: usize = 10_000_000;
/// The seed of the bench's points ([`query_points`]).
pub const POINTS_SEED: u64 = 7;
/// The seed of the bench's path pairs ([`path_pairs`]).
pub const PAIRS_SEED: u64 = 13;

/// Writes the world as a data root (its `navmesh/` folder beside the object meshes) under
/// `<target>/bench-worlds/objects-8x8`, replacing what was there, and returns the folder:
/// loaded from it, both worlds come from the same files through the same loader.
///
/// # Panics
/// When the world cannot be generated or written.
pub fn write_world() -> PathBuf {
    write_data_root("objects-8x8", &OPTIONS)
}

/// Writes the world `options` describes as a data root (its `navmesh/` folder beside the
/// object meshes) under `<target>/bench-worlds/<name>`, replacing what was there, and returns
/// the folder.
///
/// # Panics
/// When the world cannot be generated or written.
pub fn write_data_root(name: &str, options: &GenOptions) -> PathBuf {
    let world_dir = bench_worlds_dir().join(name);
    generate(options)
        .expect("valid options")
        .into_files()
        .write_data_root(&world_dir, Overwrite::Replace)
        .expect("the bench world can be written");
    world_dir
}

/// `n` points with a reference height: the even ones on a random triangle of a random object
/// instance (its height there as the reference), the odd ones uniform over the world (the
/// terrain's height as the reference).
pub fn query_points(world: &World, n: usize, seed: u64) -> Vec<(Position, f32)> {
    let regions: Vec<RegionId> = world.regions().collect();
    let uniform = random_points(&regions, n, seed);
    let instances: Vec<_> = world
        .object_instances()
        .filter(|i| i.triangles().len() > 0)
        .collect();
    let mut rng = SplitMix64::new(seed + 1);
    let mut unit = || f64::from(rng.range(0, 1 << 20)) / f64::from(1u32 << 20);
    let mut points = Vec::with_capacity(n);
    for (k, &p) in uniform.iter().enumerate() {
        if k % 2 == 1 {
            let y = world.height_at(p, Surface::Terrain).unwrap_or(0.0);
            points.push((p, y));
            continue;
        }
        let inst = instances[((unit() * instances.len() as f64) as usize).min(instances.len() - 1)];
        let triangles: Vec<_> = inst.triangles().collect();
        let (_, v) =
            triangles[((unit() * triangles.len() as f64) as usize).min(triangles.len() - 1)];
        // A point strictly inside the triangle: barycentric weights folded into the triangle.
        let (mut s, mut t) = (unit(), unit());
        if s + t > 1.0 {
            (s, t) = (1.0 - s, 1.0 - t);
        }
        let at = |k: usize| {
            f64::from(v[0][k]) + s * f64::from(v[1][k] - v[0][k]) + t * f64::from(v[2][k] - v[0][k])
        };
        let (lx, ly, lz) = (at(0), at(1), at(2));
        let (cos, sin) = (f64::from(inst.yaw()).cos(), f64::from(inst.yaw()).sin());
        let pos = inst.position();
        let x = lx * cos - lz * sin + f64::from(pos[0]);
        let z = lx * sin + lz * cos + f64::from(pos[2]);
        let local = Position::new(inst.frame_region(), x as f32, z as f32)
            .normalized()
            .filter(|q| world.contains(q.region));
        match local {
            Some(q) => points.push((q, (ly + f64::from(pos[1])) as f32)),
            // An object reaching past the world's edge: a uniform point instead.
            None => points.push((p, world.height_at(p, Surface::Terrain).unwrap_or(0.0))),
        }
    }
    points
}

/// Up to [`PATHS`] pairs from `points` (as [`query_points`] makes them): from the points with
/// a cell in both worlds to a goal 100 to 600 units away with a cell in both, that both worlds'
/// exact searches answer with a path (with objects within [`PATH_BUDGET`]); and how many were
/// left out over the budget. `with_objects` is the world loaded with its objects, `terrain`
/// the same loaded terrain-only.
pub fn path_pairs(
    with_objects: &Navigator,
    terrain: &Navigator,
    points: &[(Position, f32)],
    seed: u64,
) -> (Vec<(Position, Position)>, usize) {
    let mut rng = SplitMix64::new(seed);
    let mut scratch = PathScratch::with_budget(PATH_BUDGET);
    let has_cell = |p: Position| {
        with_objects.world().cell_at(p, Surface::Highest).is_some()
            && terrain.world().cell_at(p, Surface::Highest).is_some()
    };
    let (mut pairs, mut over_budget) = (Vec::new(), 0);
    for &(from, _) in points.iter().filter(|(p, _)| has_cell(*p)) {
        if pairs.len() == PATHS {
            break;
        }
        let (angle, reach) = (
            rng.unit() * std::f64::consts::TAU,
            100.0 + 500.0 * rng.unit(),
        );
        let Some(to) = Position::from_world(
            from.world_x() + reach * angle.cos(),
            from.world_z() + reach * angle.sin(),
        )
        .filter(|&p| has_cell(p)) else {
            continue;
        };
        let objects =
            with_objects.find_path(from, to, &PathOptions::exact_with_objects(), &mut scratch);
        let plain = terrain.find_path(from, to, &PathOptions::exact(), &mut scratch);
        match (objects, plain) {
            (Ok(_), Ok(_)) => pairs.push((from, to)),
            (Err(PathError::BudgetExceeded), _) => over_budget += 1,
            _ => {}
        }
    }
    (pairs, over_budget)
}
