//! Times the objects bench's exact paths one pair at a time: which pairs its batch's time goes
//! to, and what each costs against the terrain's exact path on the same pair.
//!
//! ```sh
//! cargo run --release -p silknav-bench --example object_bench_pairs -- 20
//! ```
//!
//! The argument: how many times each pair runs (20); a pair's time is the mean. Writes the
//! bench's world (`silknav_bench::town`), makes its points and pairs as the bench does, and
//! prints a line per pair, slowest first: its number in the bench's order, microseconds with
//! objects and on the terrain alone, the straight distance, the length with objects, its
//! waypoints and its ends (world x and z of each, as `silknav path` takes them); then the
//! totals of both, which are the bench's batches.

use silknav::files::WorldSource;
use silknav::world::LoadOptions;
use silknav::{Navigator, PathOptions, PathScratch, Position, World};
use silknav_bench::town::{
    path_pairs, query_points, write_world, PAIRS_SEED, PATH_BUDGET, POINTS, POINTS_SEED,
};
use std::time::Instant;

fn main() {
    let runs: u32 = std::env::args()
        .nth(1)
        .map_or(20, |a| a.parse().expect("usage: object_bench_pairs [RUNS]"));
    let dir = write_world();
    let with_objects = Navigator::load(&dir).expect("the bench world loads");
    let terrain_only = Navigator::new(
        World::load_source(
            &WorldSource::open(&dir).unwrap(),
            &LoadOptions::terrain_only(),
        )
        .expect("it loads again"),
    );
    let points = query_points(with_objects.world(), POINTS, POINTS_SEED);
    let (pairs, _) = path_pairs(&with_objects, &terrain_only, &points, PAIRS_SEED);
    let mut scratch = PathScratch::with_budget(PATH_BUDGET);
    // The mean time of `runs` searches of one pair, and the last answer's length and waypoints.
    let mut time = |world: &Navigator, options: &PathOptions, (from, to): (Position, Position)| {
        let started = Instant::now();
        let mut answer = None;
        for _ in 0..runs {
            answer = Some(
                world
                    .find_path(from, to, options, &mut scratch)
                    .expect("the bench's pairs have paths in both worlds"),
            );
        }
        let path = answer.expect("at least one run");
        (
            started.elapsed().as_secs_f64() / f64::from(runs),
            path.length,
            path.waypoints.len(),
        )
    };
    let mut rows = Vec::new();
    for (number, &(from, to)) in pairs.iter().enumerate() {
        let (objects, length, waypoints) = time(
            &with_objects,
            &PathOptions::exact_with_objects(),
            (from, to),
        );
        let (terrain, _, _) = time(&terrain_only, &PathOptions::exact(), (from, to));
        rows.push(Row {
            number,
            objects,
            terrain,
            length,
            waypoints,
            from,
            to,
        });
    }
    rows.sort_by(|a, b| b.objects.total_cmp(&a.objects));
    for r in &rows {
        let (from, to) = (r.from, r.to);
        let apart = (from.world_x() - to.world_x()).hypot(from.world_z() - to.world_z());
        println!(
            "{}: {:.1} µs, terrain {:.2} µs, {apart:.0} apart, length {:.3}, {} waypoints ({:.3} {:.3} {:.3} {:.3})",
            r.number,
            r.objects * 1e6,
            r.terrain * 1e6,
            r.length,
            r.waypoints,
            from.world_x(),
            from.world_z(),
            to.world_x(),
            to.world_z()
        );
    }
    println!(
        "{} pairs: {:.3} ms with objects, {:.4} ms on the terrain alone",
        rows.len(),
        rows.iter().map(|r| r.objects).sum::<f64>() * 1e3,
        rows.iter().map(|r| r.terrain).sum::<f64>() * 1e3
    );
}

/// One pair's line: seconds with objects and on the terrain alone, and the answer with
/// objects.
struct Row {
    number: usize,
    objects: f64,
    terrain: f64,
    length: f64,
    waypoints: usize,
    from: Position,
    to: Position,
}
