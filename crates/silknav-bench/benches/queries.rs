//! Per-query medians of the world's queries on seeded query sets, against the physical floor
//! of a query that must touch memory: one random read of an array as large as the world's
//! heap, measured in the same run.
//!
//! `cargo bench -p silknav-bench --bench queries` runs criterion, then prints per query: the
//! median, its ratio to the random read, and the target with met or MISSED.
//!
//! Cell and height lookups run twice: on an 8×8-region world, whose heap fits the shared cache,
//! and on the 3,300-region world of the live game's size (`silknav_bench::cache::LIVE`, loaded
//! from the folder the load bench caches; generated here if missing, skipped with a notice in
//! a `cargo test --benches` smoke run), whose 280 MB heap does not, so that a random query
//! misses to main memory as it would on a server.
//!
//! Every bench times a batch of independent queries and divides by the batch, so the figures
//! are throughput: the processor overlaps the cache misses of consecutive queries, and it does
//! the same for the floor's reads, so the ratio compares like with like.

use criterion::{black_box, Criterion, Throughput};
use silknav::build::{build_world, RegionInput};
use silknav::jmxv::RegionId;
use silknav::world::dungeon::Dungeon;
use silknav::worldgen::{generate, GenOptions, Landscape, DEFAULT_ORIGIN};
use silknav::{Position, Surface, World};
use silknav_bench::cache::{cached_world, find_cached, LIVE};
use silknav_bench::memory::heap_held_by;
use silknav_bench::queries::{move_batch, random_points, segments, Ends};
use silknav_bench::{criterion_home, duration, is_bench_run, median_ns_since, verdict, Ratio};
use silknav_testkit::rng::SplitMix64;
use stats_alloc::{StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;
use std::time::SystemTime;

/// Counts heap bytes, to size the floor's array like the world (see `silknav_bench::memory`).
#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Criterion's group name; also the folder its estimates are saved under.
const GROUP: &str = "queries";
/// The world queried: 64 regions, so that its heap (several MB) outgrows the private caches
/// and a random query misses them, as on a server holding the whole game.
const OPTIONS: GenOptions = GenOptions {
    seed: 1,
    width: 8,
    height: 8,
    origin: DEFAULT_ORIGIN,
    landscape: Landscape::Rugged,
};
/// Points per batch of `cell_at`, `height_at` and the floor.
const POINTS: usize = 10_000;
/// Line-of-sight segment lengths in units, with their batch sizes (about a millisecond each).
const RAYS: [(u32, usize); 3] = [(100, 2_000), (1_000, 500), (5_000, 100)];
/// Length of a walk and walks per batch.
const MOVE: (u32, usize) = (500, 1_000);

/// The targets, in nanoseconds.
const CELL_TARGET_NS: f64 = 10.0;
/// The dungeon issue's target: a dungeon's cell and height at most this many times the
/// terrain's `cell_at` on the 8×8 world, in the same run.
const DUNGEON_CELL_RATIO: f64 = 3.0;
/// The generated dungeon queried: the catacomb, three floors of 8×8 blocks.
const DUNGEON: (u16, &str) = (0x8001, "dungeon\\gen_catacomb\\gen_catacomb.dof");
const HEIGHT_TARGET_NS: f64 = 20.0;
const SIGHT_TARGET_NS_PER_100: f64 = 1_000.0;

/// Random points over a world, their answers, and the floor's array and indices.
struct PointSet<'w> {
    /// Prefix of the benches' names: empty, or `live_`.
    prefix: &'static str,
    world: &'w World,
    /// The world's heap bytes, and so the floor array's size.
    heap: usize,
    points: Vec<Position>,
    cell_answer: (usize, u64),
    height_answer: (usize, u64),
    array: Vec<u64>,
    indices: Vec<u32>,
    read_answer: u64,
}

impl<'w> PointSet<'w> {
    fn new(prefix: &'static str, world: &'w World, heap: i64, seed: u64) -> PointSet<'w> {
        let regions: Vec<RegionId> = world.regions().collect();
        let heap = heap.max(8) as usize;
        let points = random_points(&regions, POINTS, seed);
        // The floor: an array as large as the world's heap, read at random indices.
        let mut rng = SplitMix64::new(seed + 1);
        let array: Vec<u64> = (0..heap / 8).map(|_| rng.next_u64()).collect();
        let indices: Vec<u32> = (0..POINTS)
            .map(|_| rng.range(0, array.len() as u32))
            .collect();
        PointSet {
            prefix,
            world,
            heap,
            cell_answer: cell_batch(world, &points),
            height_answer: height_batch(world, &points),
            read_answer: read_batch(&array, &indices),
            points,
            array,
            indices,
        }
    }

    fn name(&self, query: &str) -> String {
        format!("{}{query}", self.prefix)
    }
}

/// A batch of line-of-sight queries and what it must answer.
struct Rays {
    name: String,
    length: u32,
    segments: Vec<(Position, Position)>,
    /// How many segments are blocked.
    blocked: usize,
    /// Units of the segments walked before the hit or the end: what the walk's work scales
    /// with.
    walked: f64,
}

impl Rays {
    fn new(name: String, world: &World, length: u32, segments: Vec<(Position, Position)>) -> Rays {
        let (mut blocked, mut walked) = (0, 0.0);
        for &(from, to) in &segments {
            let t = match world
                .raycast(from, to, Surface::Highest)
                .expect("starts are walkable")
            {
                Some(hit) => {
                    blocked += 1;
                    hit.t
                }
                None => 1.0,
            };
            walked += t * f64::from(length);
        }
        Rays {
            name,
            length,
            segments,
            blocked,
            walked,
        }
    }
}

fn main() {
    let started = SystemTime::now();
    let generated = generate(&OPTIONS).expect("valid options");
    let regions: Vec<RegionId> = generated.regions.keys().copied().collect();
    let (world, heap) = heap_held_by(ALLOCATOR, || {
        World::from_navmeshes(generated.regions.iter().map(|(r, m)| (*r, m)))
    });
    drop(generated);
    // A world without walls, where every segment runs its full length: the worst case of a
    // sight line's cost per unit.
    let open_regions: Vec<RegionId> = (0..4)
        .flat_map(|z| {
            (0..4).map(move |x| RegionId::new(DEFAULT_ORIGIN.0 + x, DEFAULT_ORIGIN.1 + z))
        })
        .collect();
    // Built together, so that region borders are passable global edges, not walls.
    let open_meshes = build_world(
        &open_regions
            .iter()
            .map(|&r| RegionInput::open(r))
            .collect::<Vec<_>>(),
    );
    let open = World::from_navmeshes(open_meshes.iter().map(|(r, m)| (*r, m)));
    drop(open_meshes);

    let dungeon_files = generate(&GenOptions {
        width: 1,
        height: 1,
        ..OPTIONS
    })
    .expect("valid options")
    .into_files()
    .dungeons;
    let dungeon = Dungeon::from_files(&dungeon_files, RegionId(DUNGEON.0), DUNGEON.1)
        .expect("the generated catacomb loads");
    let dungeon_points = dungeon_points(&dungeon_files.layouts[DUNGEON.1], POINTS, 17);
    let dungeon_answer = dungeon_batch(&dungeon, &dungeon_points);
    let dungeon_blocks: Vec<(u32, [f32; 3])> = dungeon_points
        .iter()
        .filter_map(|&p| Some((dungeon.cell_at(p)?.block, p)))
        .collect();
    eprintln!(
        "input: the generated catacomb, {} blocks; {POINTS} random points over its floors, {} on a cell",
        dungeon.block_count(),
        dungeon_answer.0
    );

    let live_world = live_world();
    let mut sets = vec![PointSet::new("", &world, heap, 11)];
    if let Some((live, live_heap)) = &live_world {
        sets.push(PointSet::new("live_", live, *live_heap, 13));
    }
    let mut rays = Vec::new();
    for (i, &(length, n)) in RAYS.iter().enumerate() {
        let segs = segments(
            &world,
            &regions,
            n,
            f64::from(length),
            Ends::Anywhere,
            20 + i as u64,
        );
        rays.push((
            &world,
            Rays::new(format!("raycast_{length}"), &world, length, segs),
        ));
    }
    for (i, &(length, n)) in RAYS.iter().enumerate() {
        let segs = segments(
            &open,
            &open_regions,
            n,
            f64::from(length),
            Ends::Walkable,
            30 + i as u64,
        );
        let batch = Rays::new(format!("raycast_open_{length}"), &open, length, segs);
        assert_eq!(batch.blocked, 0, "a wall in the open world");
        rays.push((&open, batch));
    }
    let walks = segments(
        &world,
        &regions,
        MOVE.1,
        f64::from(MOVE.0),
        Ends::Walkable,
        40,
    );
    let move_answer = move_batch(&world, &walks);

    for set in &sets {
        eprintln!(
            "input: {} regions, world heap {:.1} MB; {POINTS} random points, {} on a cell",
            set.world.regions().len(),
            set.heap as f64 / 1e6,
            set.cell_answer.0
        );
    }

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group(GROUP);
    group.throughput(Throughput::Elements(POINTS as u64));
    for set in &sets {
        group.bench_function(set.name("random_read"), |b| {
            b.iter(|| {
                let sum = read_batch(black_box(&set.array), black_box(&set.indices));
                assert_eq!(sum, set.read_answer)
            })
        });
        group.bench_function(set.name("cell_at"), |b| {
            b.iter(|| {
                let answer = cell_batch(black_box(set.world), black_box(&set.points));
                assert_eq!(answer, set.cell_answer)
            })
        });
        group.bench_function(set.name("height_at"), |b| {
            b.iter(|| {
                let answer = height_batch(black_box(set.world), black_box(&set.points));
                assert_eq!(answer, set.height_answer)
            })
        });
    }
    group.bench_function("dungeon_cell_at", |b| {
        b.iter(|| {
            let answer = dungeon_batch(black_box(&dungeon), black_box(&dungeon_points));
            assert_eq!(answer, dungeon_answer)
        })
    });
    // The floor of an exact answer: the server's FindCell in the one block that answers,
    // known beforehand (no voxel, no other floor tried).
    group.bench_function("dungeon_cell_in_block", |b| {
        b.iter(|| {
            let answer = block_batch(black_box(&dungeon), black_box(&dungeon_blocks));
            assert_eq!(answer, dungeon_answer)
        })
    });
    for (w, batch) in &rays {
        group.throughput(Throughput::Elements(batch.segments.len() as u64));
        group.bench_function(&batch.name, |b| {
            b.iter(|| assert_eq!(blocked_count(w, black_box(&batch.segments)), batch.blocked))
        });
    }
    group.throughput(Throughput::Elements(walks.len() as u64));
    group.bench_function("move_along_500", |b| {
        b.iter(|| {
            assert_eq!(
                move_batch(black_box(&world), black_box(&walks)),
                move_answer
            )
        })
    });
    group.finish();
    c.final_summary();

    // Only estimates written by this run count: a filtered or `--test` run leaves old ones.
    let dir = criterion_home().join(GROUP);
    let per_query =
        |name: &str, n: usize| median_ns_since(&dir.join(name), started).map(|ns| ns / n as f64);
    for set in &sets {
        let Some(floor) = per_query(&set.name("random_read"), POINTS) else {
            println!("\n{}random_read: no fresh estimate, no ratios", set.prefix);
            continue;
        };
        println!(
            "\nper-query medians, {} regions, {POINTS} random points ({} on a cell):",
            set.world.regions().len(),
            set.cell_answer.0
        );
        println!(
            "  {}random_read (floor): {} per read of a {:.1} MB array (the world's heap)",
            set.prefix,
            duration(floor),
            set.heap as f64 / 1e6
        );
        for (query, target) in [("cell_at", CELL_TARGET_NS), ("height_at", HEIGHT_TARGET_NS)] {
            let name = set.name(query);
            match per_query(&name, POINTS) {
                Some(ns) => println!(
                    "  {}; target ≤ {target} ns: {}",
                    Ratio::new(&name, ns, floor)
                        .against("random read")
                        .line(None),
                    verdict(ns <= target)
                ),
                None => println!("  {name}: not run"),
            }
        }
    }
    if let (Some(ns), Some(terrain)) = (
        per_query("dungeon_cell_at", POINTS),
        per_query("cell_at", POINTS),
    ) {
        println!(
            "\ndungeon cell and height (the catacomb, {} blocks, {} of {POINTS} points on a cell): {}; target ≤ {DUNGEON_CELL_RATIO}× the terrain's: {}",
            dungeon.block_count(),
            dungeon_answer.0,
            Ratio::new("dungeon_cell_at", ns, terrain)
                .against("cell_at, 8×8 terrain")
                .line(None),
            verdict(ns <= DUNGEON_CELL_RATIO * terrain)
        );
        if let Some(floor) = per_query("dungeon_cell_in_block", POINTS) {
            println!(
                "  the floor, FindCell in the answering block alone: {}; the lookup: {}",
                Ratio::new("dungeon_cell_in_block", floor, terrain)
                    .against("cell_at, 8×8 terrain")
                    .line(None),
                Ratio::new("dungeon_cell_at", ns, floor)
                    .against("the floor")
                    .line(None),
            );
        }
    }
    if rays
        .iter()
        .all(|(_, r)| per_query(&r.name, r.segments.len()).is_none())
    {
        println!("\nline of sight: no fresh estimates");
        return;
    }
    println!(
        "\nline of sight (raycast) from walkable starts in random directions, {}×{} regions (seed {}) and an open world:",
        OPTIONS.width, OPTIONS.height, OPTIONS.seed
    );
    for (_, batch) in &rays {
        let n = batch.segments.len();
        let Some(ns) = per_query(&batch.name, n) else {
            println!("  {}: not run", batch.name);
            continue;
        };
        let per_100 = ns / f64::from(batch.length) * 100.0;
        let per_100_walked = ns * n as f64 / batch.walked * 100.0;
        println!(
            "  {}: {} per segment, {} per 100 units, {} per 100 units walked ({:.0}% blocked, {:.0} units walked on average); target ≤ {} per 100 units: {}",
            batch.name,
            duration(ns),
            duration(per_100),
            duration(per_100_walked),
            100.0 * batch.blocked as f64 / n as f64,
            batch.walked / n as f64,
            duration(SIGHT_TARGET_NS_PER_100),
            verdict(per_100_walked <= SIGHT_TARGET_NS_PER_100)
        );
    }
    if let Some(ns) = per_query("move_along_500", walks.len()) {
        let (arrived, wall, failed) = move_answer;
        println!(
            "move_along, {}-unit walks to walkable goals: {} per walk, {} per 100 units ({arrived} arrived, {wall} stopped at a wall or a gap, {failed} failed, of {})",
            MOVE.0,
            duration(ns),
            duration(ns / f64::from(MOVE.0) * 100.0),
            walks.len()
        );
    }
}

/// The world of the live game's size with its heap bytes, loaded from the bench world cache;
/// `None` in a smoke run that finds it not cached.
fn live_world() -> Option<(World, i64)> {
    let (name, options) = &LIVE;
    let cached = if is_bench_run() {
        Some(cached_world(name, options).expect("the bench world can be generated"))
    } else {
        find_cached(name, options).expect("the bench world cache is readable")
    };
    let Some(cached) = cached else {
        eprintln!("SKIPPED the {name} world: not cached, and a smoke run does not generate it");
        return None;
    };
    Some(heap_held_by(ALLOCATOR, || {
        World::load(&cached.dir).expect("the bench world loads")
    }))
}

/// How many points have a cell, and the wrapping sum of their cells' indices and regions (so
/// that a wrong cell shows, not only a missing one).
fn cell_batch(world: &World, points: &[Position]) -> (usize, u64) {
    let (mut found, mut sum) = (0, 0u64);
    for &p in points {
        if let Some(cell) = world.cell_at(p, Surface::Highest) {
            found += 1;
            sum = sum.wrapping_add(u64::from(cell.cell) << 16 | u64::from(cell.region.0));
        }
    }
    (found, sum)
}

/// How many points have a height, and the bits of the heights' sum (added in order, so the
/// same heights give the same bits).
fn height_batch(world: &World, points: &[Position]) -> (usize, u64) {
    let (mut found, mut sum) = (0, 0.0f64);
    for &p in points {
        if let Some(h) = world.height_at(p, Surface::Terrain) {
            found += 1;
            sum += f64::from(h);
        }
    }
    (found, sum.to_bits())
}

/// Random points over a dungeon's box, each a little above one of its floors.
fn dungeon_points(layout: &silknav::jmxv::dof::DungeonFile, n: usize, seed: u64) -> Vec<[f32; 3]> {
    let (lo, hi) = (
        layout.box0.min.map(|v| v.get()),
        layout.box0.max.map(|v| v.get()),
    );
    let floors = layout
        .blocks
        .iter()
        .map(|b| b.floor_index)
        .max()
        .unwrap_or(0)
        + 1;
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let floor = rng.range(0, floors) as f32;
            [
                lo[0] + (hi[0] - lo[0]) * rng.unit() as f32,
                floor * silknav::worldgen::dungeon::FLOOR_RISE + 10.0 * rng.unit() as f32,
                lo[2] + (hi[2] - lo[2]) * rng.unit() as f32,
            ]
        })
        .collect()
}

/// How many points have a cell, and the wrapping sum of their blocks, cells and heights.
fn dungeon_batch(dungeon: &Dungeon, points: &[[f32; 3]]) -> (usize, u64) {
    let (mut found, mut sum) = (0, 0u64);
    for &p in points {
        if let Some(c) = dungeon.cell_at(p) {
            found += 1;
            sum = sum.wrapping_add(
                u64::from(c.block) << 40 | u64::from(c.cell) << 32 | u64::from(c.height.to_bits()),
            );
        }
    }
    (found, sum)
}

/// [`dungeon_batch`] with each point's answering block given.
fn block_batch(dungeon: &Dungeon, points: &[(u32, [f32; 3])]) -> (usize, u64) {
    let (mut found, mut sum) = (0, 0u64);
    for &(block, p) in points {
        if let Some(c) = dungeon.cell_in_block(block, p) {
            found += 1;
            sum = sum.wrapping_add(
                u64::from(c.block) << 40 | u64::from(c.cell) << 32 | u64::from(c.height.to_bits()),
            );
        }
    }
    (found, sum)
}

/// The floor: the wrapping sum of the array at the indices.
fn read_batch(array: &[u64], indices: &[u32]) -> u64 {
    indices
        .iter()
        .fold(0u64, |sum, &i| sum.wrapping_add(array[i as usize]))
}

fn blocked_count(world: &World, segments: &[(Position, Position)]) -> usize {
    segments
        .iter()
        .filter(|&&(from, to)| {
            world
                .raycast(from, to, Surface::Highest)
                .expect("walkable start")
                .is_some()
        })
        .count()
}
