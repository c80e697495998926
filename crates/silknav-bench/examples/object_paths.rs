//! Times exact paths with objects (`PathOptions::exact_with_objects`) between random points of
//! a world's walkable surfaces, one process, each query once: what a user of `silknav path
//! --exact --objects` waits for, the first query included (it makes the points the paths turn at
//! round objects).
//!
//! ```sh
//! cargo run --release -p silknav-cli -- gen --out /tmp/demo --size 3x3 --seed 1
//! cargo run --release -p silknav-bench --example object_paths -- /tmp/demo 20 7
//! ```
//!
//! Arguments: the world (a data root or its `navmesh/` folder), the number of pairs (20), the
//! seed of the points (7). Each line: the pair's number, seconds, and the length and waypoint
//! count or why there is no path; then the total.

use silknav::{PathOptions, PathScratch, Position, World};
use silknav_testkit::rng::SplitMix64;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .expect("usage: object_paths WORLD [PAIRS] [SEED]");
    let number = |arg: Option<String>, default: u64| {
        arg.map_or(default, |a| a.parse().expect("a whole number"))
    };
    let pairs = number(args.next(), 20);
    let seed = number(args.next(), 7);
    let world = World::load(&dir).unwrap_or_else(|e| panic!("{dir}: {e}"));
    world.prepare_paths();
    let regions: Vec<_> = world.regions().collect();
    let mut rng = SplitMix64::new(seed);
    // A point with a cell: a region at random, then a point of it, until one has a cell.
    let mut walkable = || loop {
        let region = regions[(rng.next_u64() % regions.len() as u64) as usize];
        let x = (rng.next_u64() % 1_920_000) as f32 / 1000.0;
        let z = (rng.next_u64() % 1_920_000) as f32 / 1000.0;
        let p = Position::new(region, x, z);
        if world.cell_at(p).is_some() {
            return p;
        }
    };
    let options = PathOptions::exact_with_objects();
    let mut scratch = PathScratch::new();
    let mut total = 0.0;
    for i in 0..pairs {
        let (from, to) = (walkable(), walkable());
        let started = Instant::now();
        let answer = world.find_path_with(from, to, &options, &mut scratch);
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
