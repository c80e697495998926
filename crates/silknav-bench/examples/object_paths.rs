//! Times exact paths with objects (`PathOptions::exact_with_objects`) between random points of
//! a world's walkable surfaces, one process, each query once: what a user of `silknav path
//! --exact --objects` waits for once the path index is ready (made before the timing, as
//! `silknav index` keeps it ready), the first query included (it makes the points the paths
//! turn at round objects).
//!
//! ```sh
//! cargo run --release -p silknav-cli -- gen --out /tmp/demo --size 3x3 --seed 1
//! cargo run --release -p silknav-bench --example object_paths -- /tmp/demo 20 7
//! ```
//!
//! Arguments: the world (a data root or its `navmesh/` folder), the number of pairs (20), the
//! seed of the points (7; the benches' walkable points, `silknav_bench::queries`), and
//! optionally the most distance between the ends (each start then goes to the first of
//! further random points that near; without it, the ends are any two random points). Each
//! line: the pair's number, the straight distance, seconds, the length and waypoint count
//! or why there is no path, and the ends (world x and z of each, as `silknav path` takes them);
//! then the total.

use silknav::{PathIndex, PathOptions, PathScratch, Position, World};
use silknav_bench::queries::walkable_points;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .expect("usage: object_paths WORLD [PAIRS] [SEED]");
    let number = |arg: Option<String>, default: u64| {
        arg.map_or(default, |a| a.parse().expect("a whole number"))
    };
    let pairs = number(args.next(), 20) as usize;
    let seed = number(args.next(), 7);
    let most: Option<f64> = args
        .next()
        .map(|a| a.parse().expect("the most distance, a number"));
    let world = World::load(&dir).unwrap_or_else(|e| panic!("{dir}: {e}"));
    let paths = PathIndex::build(&world);
    let regions: Vec<_> = world.regions().collect();
    let straight =
        |a: &Position, b: &Position| (a.world_x() - b.world_x()).hypot(a.world_z() - b.world_z());
    let ends: Vec<(Position, Position)> = match most {
        None => walkable_points(&world, &regions, 2 * pairs, seed)
            .chunks_exact(2)
            .map(|ends| (ends[0], ends[1]))
            .collect(),
        Some(most) => {
            let goals = walkable_points(&world, &regions, 200 * pairs, seed + 1);
            walkable_points(&world, &regions, pairs, seed)
                .into_iter()
                .filter_map(|s| Some((s, *goals.iter().find(|g| straight(&s, g) <= most)?)))
                .collect()
        }
    };
    let options = PathOptions::exact_with_objects();
    let mut scratch = PathScratch::new();
    let mut total = 0.0;
    for (i, (from, to)) in ends.iter().enumerate() {
        let apart = straight(from, to);
        let started = Instant::now();
        let answer = paths.find_path(&world, *from, *to, &options, &mut scratch);
        let seconds = started.elapsed().as_secs_f64();
        total += seconds;
        let ends = format!(
            "{:.3} {:.3} {:.3} {:.3}",
            from.world_x(),
            from.world_z(),
            to.world_x(),
            to.world_z()
        );
        match answer {
            Ok(path) => println!(
                "{i}: {apart:.0} apart, {seconds:.4} s, length {:.3}, {} waypoints ({ends})",
                path.length,
                path.waypoints.len()
            ),
            Err(e) => println!("{i}: {apart:.0} apart, {seconds:.4} s, {e} ({ends})"),
        }
    }
    println!("{} pairs in {total:.3} s", ends.len());
}
