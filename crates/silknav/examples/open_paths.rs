//! Times exact paths on the generated 4×4-region open world (the paths bench's
//! `gen4x4-open` set: the same world and the same seeded pairs, connected pairs only).
//!
//! `cargo run --release -p silknav --example open_paths [-- ROUNDS]`

use silknav::geometry::REGION_SIZE;
use silknav::jmxv::RegionId;
use silknav::worldgen::{generate, GenOptions, Landscape, DEFAULT_ORIGIN};
use silknav::{PathError, PathIndex, PathOptions, PathScratch, Position, Surface, World};
use silknav_testkit::rng::SplitMix64;
use std::time::Instant;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(3, |a| a.parse().expect("ROUNDS is a number"));
    let options = GenOptions {
        seed: 1,
        width: 4,
        height: 4,
        origin: DEFAULT_ORIGIN,
        landscape: Landscape::Open,
    };
    let meshes = generate(&options).expect("valid options").regions;
    let world = World::from_navmeshes(meshes.iter().map(|(r, m)| (*r, m)));
    let regions: Vec<RegionId> = meshes.keys().copied().collect();
    let paths = PathIndex::build(&world);
    let stats = paths.stats();
    eprintln!(
        "{} corners, {} edges, {} seen records",
        stats.corners, stats.edges, stats.seen_records
    );
    let mut rng = SplitMix64::new(options.seed * 1000 + u64::from(options.width));
    let mut scratch = PathScratch::new();
    let exact = PathOptions::exact();
    let mut pairs = Vec::new();
    while pairs.len() < 500 {
        let (a, b) = (
            point(&world, &regions, &mut rng),
            point(&world, &regions, &mut rng),
        );
        if paths.find_path(&world, a, b, &exact, &mut scratch) != Err(PathError::Unreachable) {
            pairs.push((a, b));
        }
    }
    let mut best = vec![f64::INFINITY; pairs.len()];
    let mut total = 0.0;
    for _ in 0..rounds {
        for (i, &(a, b)) in pairs.iter().enumerate() {
            let started = Instant::now();
            let path = paths.find_path(&world, a, b, &exact, &mut scratch);
            best[i] = best[i].min(started.elapsed().as_secs_f64() * 1e6);
            total += path.map_or(0.0, |p| p.length);
        }
    }
    best.sort_by(f64::total_cmp);
    let mean = best.iter().sum::<f64>() / best.len() as f64;
    println!(
        "{} pairs: mean {mean:.1} µs, median {:.1}, p95 {:.1}, max {:.1} (checksum {total:.3})",
        best.len(),
        best[best.len() / 2],
        best[best.len() * 95 / 100],
        best[best.len() - 1]
    );
}

fn point(world: &World, regions: &[RegionId], rng: &mut SplitMix64) -> Position {
    const STEPS: u32 = (REGION_SIZE / 1.25) as u32;
    loop {
        let region = regions[rng.range(0, regions.len() as u32) as usize];
        let p = Position::new(
            region,
            rng.range(0, STEPS) as f32 * 1.25,
            rng.range(0, STEPS) as f32 * 1.25,
        );
        if world.cell_at(p, Surface::Highest).is_some() {
            return p;
        }
    }
}
