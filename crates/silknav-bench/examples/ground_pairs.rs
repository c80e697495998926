//! The one-ground targets' random pairs: 1,000 random walkable pairs of the generated world
//! `silknav gen --seed 3 --size 8x8` (64 regions with towns, fortresses, bridges and stairs),
//! each answered in one process by every kind of path, with each kind's distribution and its
//! mean against the terrain-only exact path's on the same pairs.
//!
//! ```sh
//! cargo run --release -p silknav-bench --example ground_pairs -- [PAIRS]
//! ```
//!
//! PAIRS: how many pairs (1,000). The kinds, as `silknav path` names them:
//! - `terrain-only exact`: the exact path on a world loaded without objects (`--terrain-only
//!   --exact`), the ratios' base;
//! - `exact, objects`: the exact path by the objects' line of sight (`--exact --objects`);
//! - `walkable, objects`: that path made walkable (`--objects`);
//! - `walkable`: the default path (`path`).
//!
//! Each search has the server's default budget. A pair counts as answered when the kind finds
//! a path; the last line counts the pairs the exact path with objects joins and another kind
//! calls unreachable or gives up on. Prints the world's load and the time of the first path.

use silknav::files::WorldSource;
use silknav::jmxv::RegionId;
use silknav::world::LoadOptions;
use silknav::worldgen::{GenOptions, Landscape, DEFAULT_ORIGIN};
use silknav::{Navigator, PathOptions, PathScratch, Position, World};
use silknav_bench::queries::walkable_points;
use silknav_bench::town::write_data_root;
use std::time::Instant;

/// The world of the one-ground issue's random pairs.
const OPTIONS: GenOptions = GenOptions {
    seed: 3,
    width: 8,
    height: 8,
    origin: DEFAULT_ORIGIN,
    landscape: Landscape::Rugged,
};
/// The seed of the pairs' points.
const PAIRS_SEED: u64 = 37;

/// One kind of path: its name, the world it asks and its options.
struct Kind<'w> {
    name: &'static str,
    world: &'w Navigator,
    options: PathOptions,
}

fn main() {
    let pairs: usize = std::env::args()
        .nth(1)
        .map_or(1000, |a| a.parse().expect("usage: ground_pairs [PAIRS]"));
    let dir = write_data_root("ground-8x8-seed3", &OPTIONS);
    let started = Instant::now();
    let with_objects = Navigator::load(&dir).expect("the world loads");
    let terrain_only = World::load_source(
        &WorldSource::open(&dir).unwrap(),
        &LoadOptions::terrain_only(),
    )
    .expect("it loads again");
    let terrain_only = Navigator::new(terrain_only);
    eprintln!(
        "{} regions, {} object instances, loaded twice in {:.2} s",
        with_objects.world().regions().len(),
        with_objects.world().object_instances().len(),
        started.elapsed().as_secs_f64()
    );
    let regions: Vec<RegionId> = with_objects.world().regions().collect();
    let points = walkable_points(with_objects.world(), &regions, 2 * pairs, PAIRS_SEED);
    let pairs: Vec<(Position, Position)> = points.chunks_exact(2).map(|p| (p[0], p[1])).collect();

    let kinds = [
        Kind {
            name: "terrain-only exact",
            world: &terrain_only,
            options: PathOptions::exact(),
        },
        Kind {
            name: "exact, objects",
            world: &with_objects,
            options: PathOptions::exact_with_objects(),
        },
        Kind {
            name: "walkable, objects",
            world: &with_objects,
            options: PathOptions::new().with_objects(true).unwrap(),
        },
        Kind {
            name: "walkable",
            world: &with_objects,
            options: PathOptions::new(),
        },
    ];
    // Per kind: each pair's time in seconds and whether it found a path.
    let mut answers: Vec<Vec<(f64, bool)>> = Vec::new();
    for kind in &kinds {
        let mut scratch = PathScratch::new();
        let first = Instant::now();
        let _ = kind
            .world
            .find_path(pairs[0].0, pairs[0].1, &kind.options, &mut scratch);
        eprintln!(
            "{}: first path (the index built) in {:.2} s",
            kind.name,
            first.elapsed().as_secs_f64()
        );
        let rows = pairs
            .iter()
            .map(|&(from, to)| {
                let started = Instant::now();
                let found = kind
                    .world
                    .find_path(from, to, &kind.options, &mut scratch)
                    .is_ok();
                (started.elapsed().as_secs_f64(), found)
            })
            .collect();
        answers.push(rows);
    }

    let base = mean(&answers[0]);
    println!(
        "{} pairs of gen --seed 3 --size 8x8, ms per path:",
        pairs.len()
    );
    println!(
        "  {:<20} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10}",
        "kind", "mean", "median", "p90", "p99", "max", "answered", "mean / base"
    );
    for (kind, rows) in kinds.iter().zip(&answers) {
        let mut times: Vec<f64> = rows.iter().map(|r| r.0 * 1e3).collect();
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "  {:<20} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9} {:>10.2}",
            kind.name,
            mean(rows) * 1e3,
            at(0.5),
            at(0.9),
            at(0.99),
            at(1.0),
            rows.iter().filter(|r| r.1).count(),
            mean(rows) / base
        );
    }
    for (kind, rows) in kinds.iter().zip(&answers).skip(2) {
        let missed = rows
            .iter()
            .zip(&answers[1])
            .filter(|(r, exact)| exact.1 && !r.1)
            .count();
        println!(
            "  {}: {missed} pairs the exact path with objects joins are not answered",
            kind.name
        );
    }
}

/// The mean time of a kind's rows, in seconds.
fn mean(rows: &[(f64, bool)]) -> f64 {
    rows.iter().map(|r| r.0).sum::<f64>() / rows.len() as f64
}
