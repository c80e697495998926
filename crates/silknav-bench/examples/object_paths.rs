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
//! seed of the points (7; the benches' walkable points, `silknav_bench::queries`). Each line:
//! the pair's number, seconds, and the length and waypoint count or why there is no path; then
//! the total.

use silknav::{PathOptions, PathScratch, World};
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
    let world = World::load(&dir).unwrap_or_else(|e| panic!("{dir}: {e}"));
    world.prepare_paths();
    let regions: Vec<_> = world.regions().collect();
    let points = walkable_points(&world, &regions, 2 * pairs, seed);
    let options = PathOptions::exact_with_objects();
    let mut scratch = PathScratch::new();
    let mut total = 0.0;
    for (i, ends) in points.chunks_exact(2).enumerate() {
        let started = Instant::now();
        let answer = world.find_path_with(ends[0], ends[1], &options, &mut scratch);
        let seconds = started.elapsed().as_secs_f64();
        total += seconds;
        match answer {
            Ok(path) => println!(
                "{i}: {seconds:.4} s, length {:.3}, {} waypoints",
                path.length,
                path.waypoints.len()
            ),
            Err(e) => println!("{i}: {seconds:.4} s, {e}"),
        }
    }
    println!("{pairs} pairs in {total:.3} s");
}
