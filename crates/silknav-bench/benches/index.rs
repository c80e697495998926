//! The path index file: its build time and size on the Moving AI maps and on the 3,300-region
//! world, and the latency of a fresh process's first path query with the file against its
//! first `cell` query (the floor: both load the same world; a path query must not cost more
//! than twice as much).
//!
//! `cargo bench -p silknav-bench --bench index` builds each world's index in this process (on
//! all cores), writes it, reads it back, then starts this binary again as a child
//! (`SILKNAV_BENCH_FIRST_QUERY` set) that loads the world from disk and answers one query,
//! alternately a `cell` query and a `path` query, `ROUNDS` times each; a query's time is from
//! the child's start to its answer, and the medians are compared. Every answer is checked: the
//! path from the file equals the path of the index built here. Under `cargo test --benches`
//! (no `--bench`) only the Moving AI maps run, once.

use silknav::files::index_file_in;
use silknav::files::Overwrite;
use silknav::files::WorldSource;
use silknav::path::PathIndexFile;
use silknav::{
    LoadOptions, Navigator, PathIndex, PathIndexFound, PathOptions, PathScratch, Position, Surface,
    World,
};
use silknav_bench::cache::{cached_world, LIVE};
use silknav_bench::{duration, is_bench_run, verdict};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// Set in the child: `cell|path DIR`.
const CHILD: &str = "SILKNAV_BENCH_FIRST_QUERY";
/// Fresh processes per query kind.
const ROUNDS: usize = 7;

fn main() {
    if let Ok(task) = std::env::var(CHILD) {
        child(&task);
        return;
    }
    println!("path index: build, file, load");
    let root = tempfile::tempdir().expect("a temporary folder");
    for (name, grid) in silknav_testkit::movingai::maps() {
        let meshes = grid.to_world((10, 20)).expect("the map imports");
        let world = World::from_navmeshes(meshes.iter().map(|(r, m)| (*r, m)));
        let path = root.path().join(format!("{name}.index"));
        measure(&name, &world, &path);
    }
    if !is_bench_run() {
        return;
    }
    let live = cached_world(LIVE.0, &LIVE.1).expect("the bench world can be generated");
    let world = World::load_source(
        &WorldSource::open(&live.dir).unwrap(),
        &LoadOptions::terrain_only(),
    )
    .expect("the bench world loads");
    let file = index_file_in(&silknav::files::WorldLocation::find(&live.dir));
    measure(LIVE.0, &world, &file);
    first_queries(&live.dir, &world);
}

/// Builds the world's index (timed), writes it, reads it back (timed) and checks it is the
/// same index (same counts, and the world takes it).
fn measure(name: &str, world: &World, path: &Path) {
    let paths = PathIndex::build(world);
    let stats = paths.stats();
    let bytes = paths
        .write(path, Overwrite::Replace)
        .expect("the index file is written");
    let started = Instant::now();
    let file = PathIndexFile::read(path).expect("the index file reads back");
    let read = started.elapsed();
    let back = file.stats();
    assert_eq!(
        (back.rects, back.corners, back.edges, back.seen_records),
        (stats.rects, stats.corners, stats.edges, stats.seen_records)
    );
    println!(
        "  {name}: {} corners, {} edges; build {} on {} threads; file {:.1} MB; read and check {} ({:.2}× the build's heap {:.1} MB)",
        stats.corners,
        stats.edges,
        duration(stats.build_time.as_nanos() as f64),
        rayon::current_num_threads(),
        bytes as f64 / 1e6,
        duration(read.as_nanos() as f64),
        bytes as f64 / stats.heap_bytes as f64,
        stats.heap_bytes as f64 / 1e6
    );
}

/// Points of the world for the first queries: the first walkable tile centres found scanning
/// the middle region, a path's ends far apart.
fn ends(world: &World) -> (Position, Position) {
    let regions: Vec<_> = world.regions().collect();
    let walkable = |r: jmxv::RegionId| {
        (0..96 * 96)
            .map(|i| {
                Position::new(
                    r,
                    (i % 96) as f32 * 20.0 + 10.0,
                    (i / 96) as f32 * 20.0 + 10.0,
                )
            })
            .find(|p| world.cell_at(*p, Surface::Terrain).is_some())
    };
    let a = walkable(regions[regions.len() / 2]).expect("walkable ground");
    let b = walkable(regions[regions.len() / 2 + 1]).expect("walkable ground");
    (a, b)
}

/// Times fresh processes answering one cell and one path query, and prints the ratio.
fn first_queries(dir: &Path, world: &World) {
    let (a, b) = ends(world);
    let mut scratch = PathScratch::new();
    let want =
        PathIndex::build(world).find_path(world, a, b, &PathOptions::default(), &mut scratch);
    let exe = std::env::current_exe().expect("this binary");
    let run = |kind: &str| {
        let task = format!(
            "{kind} {} {} {} {} {}",
            a.world_x(),
            a.world_z(),
            b.world_x(),
            b.world_z(),
            dir.display()
        );
        let started = Instant::now();
        let out = Command::new(&exe)
            .env(CHILD, task)
            .output()
            .expect("the child runs");
        let elapsed = started.elapsed().as_nanos() as f64;
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (elapsed, String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (mut cells, mut paths) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let (t, answer) = run("cell");
        assert!(answer.starts_with("cell "), "{answer}");
        cells.push(t);
        let (t, answer) = run("path");
        let expected = match &want {
            Ok(p) => format!("path {:.6} {}", p.length, p.waypoints.len()),
            Err(e) => format!("none {e}"),
        };
        assert_eq!(answer.trim(), expected);
        paths.push(t);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (cell, path) = (median(&mut cells), median(&mut paths));
    println!(
        "  first query in a fresh process ({ROUNDS} each, medians): cell {}, path with the index file {}: {:.2}× cell; target ≤ 2×: {}",
        duration(cell),
        duration(path),
        path / cell,
        verdict(path <= 2.0 * cell)
    );
}

/// The child: load the world as `silknav cell` / `silknav path` do, answer one query, print it.
fn child(task: &str) {
    let parts: Vec<&str> = task.splitn(6, ' ').collect();
    let n: Vec<f64> = parts[1..5]
        .iter()
        .map(|s| s.parse().expect("a number"))
        .collect();
    let dir = Path::new(parts[5]);
    let a = Position::from_world(n[0], n[1]).expect("a point");
    let b = Position::from_world(n[2], n[3]).expect("a point");
    if parts[0] == "cell" {
        let world = World::load(dir).expect("the world loads");
        println!(
            "cell {:?}",
            world.cell_at(a, Surface::Highest).map(|c| c.cell)
        );
    } else {
        let nav = Navigator::load(dir).expect("the world loads");
        assert!(
            matches!(nav.index_file(), PathIndexFound::Used(_)),
            "{:?}",
            nav.index_file()
        );
        match nav.find_path(a, b, &PathOptions::default(), &mut PathScratch::new()) {
            Ok(p) => println!("path {:.6} {}", p.length, p.waypoints.len()),
            Err(e) => println!("none {e}"),
        }
    }
}
