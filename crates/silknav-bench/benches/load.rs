//! Loading whole world folders with `World::load_source` (terrain only: the cached worlds are
//! navmesh folders, without the object meshes their `object.ifo` names), against the floor of
//! reading every file's
//! bytes with `std::fs::read` (on one thread, and on as many threads as the loader uses), in
//! the same run; plus the heap a loaded world holds and the peak resident memory of a load.
//! The same world packed into a PK2 archive as the client stores it is loaded from the archive
//! (target: within 1.5× the folder's load, measured in the same run), and its corpus report
//! (`silknav corpus`: every file parsed and linted with no caps, and the checks between files)
//! is timed.
//!
//! Two worlds: 16×16 regions, and 60×55 = 3,300 regions, the live game's size. Both are
//! generated once and kept under `<target>/bench-worlds/` (see `silknav_bench::cache`); the
//! large one takes about 20 s and 390 MB the first time. Under `cargo test --benches` (one
//! smoke iteration, no `--bench` argument) the large world is used only if already cached.
//!
//! `cargo bench -p silknav-bench --bench load` runs criterion, then prints per world the
//! medians, the ratios to the floors, regions per second, the memory figures, the 2 s target
//! of the 3,300-region load and the 1.5× target of its load from an archive. The archives are
//! packed once and kept beside the worlds (`silknav_bench::cache::cached_archive`).
//!
//! The memory figures come from one load in a fresh child process (this bench binary, started
//! again with `SILKNAV_BENCH_LOAD_ONCE` set): a process that has generated worlds and run
//! criterion keeps freed memory around, which would hide the load's own peak.

use criterion::{Criterion, SamplingMode, Throughput};
use silknav::files::WorldSource;
use silknav::worldgen::{GenOptions, Landscape, DEFAULT_ORIGIN};
use silknav::{LoadOptions, World};
use silknav_bench::cache::{cached_archive, cached_world, find_cached, CachedWorld, LIVE};
use silknav_bench::memory::{heap_held_by, status_kib};
use silknav_bench::{
    criterion_home, duration, is_bench_run, median_ns_since, per_second, verdict, Ratio,
};
use stats_alloc::{StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime};

/// Counts the heap a loaded world holds (see `silknav_bench::memory`).
#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Set in the child process that loads one world and reports its memory.
const CHILD: &str = "SILKNAV_BENCH_LOAD_ONCE";

/// The worlds loaded: their cache names (also criterion's group suffixes) and options.
const WORLDS: [(&str, GenOptions); 2] = [
    (
        "16x16",
        GenOptions {
            seed: 1,
            width: 16,
            height: 16,
            origin: DEFAULT_ORIGIN,
            landscape: Landscape::Rugged,
        },
    ),
    LIVE,
];
/// Regions of the live game's world, which the target is about.
const LIVE_REGIONS: usize = 3_300;
/// The target: 3,300 regions loaded in at most 2 s on 2 cores.
const LIVE_TARGET_NS: f64 = 2e9;
/// Loading a world from an archive takes at most this many times loading it from its folder.
const ARCHIVE_TARGET: f64 = 1.5;

/// One load in a fresh process, as the child reports it.
#[derive(Debug, Clone, Copy)]
struct Memory {
    /// Heap bytes the loaded world holds.
    heap: i64,
    /// Peak resident set of the process, KiB.
    peak_kib: u64,
    /// Resident set just before loading, KiB.
    start_kib: u64,
    /// How long that load took (files in the page cache, a process without warm caches).
    load_ns: u128,
}

fn main() {
    if let Some(dir) = std::env::var_os(CHILD) {
        load_once(Path::new(&dir));
        return;
    }
    let started = SystemTime::now();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut worlds: Vec<(&str, CachedWorld)> = Vec::new();
    for (name, options) in &WORLDS {
        let large = usize::from(options.width) * usize::from(options.height) > 1_000;
        let world = if large && !is_bench_run() {
            let found = find_cached(name, options).expect("the bench world cache is readable");
            if found.is_none() {
                eprintln!(
                    "SKIPPED world {name}: not cached, and a smoke run does not generate it (run `cargo bench` once)"
                );
            }
            found
        } else {
            Some(cached_world(name, options).expect("the bench world can be generated"))
        };
        worlds.extend(world.map(|w| (*name, w)));
    }
    let memory: Vec<Option<Memory>> = worlds.iter().map(|(_, w)| measure_memory(&w.dir)).collect();
    let archives: Vec<PathBuf> = worlds
        .iter()
        .map(|(_, w)| cached_archive(w).expect("the bench world packs"))
        .collect();

    let mut c = Criterion::default().configure_from_args();
    for ((name, world), archive) in worlds.iter().zip(&archives) {
        let mut group = c.benchmark_group(format!("load_{name}"));
        group.throughput(Throughput::Elements(world.regions as u64));
        // A load takes up to seconds: ten flat samples, each as long as the time allows.
        let seconds = if world.regions > 1_000 { 25 } else { 5 };
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .measurement_time(Duration::from_secs(seconds));
        group.bench_function("read_files", |b| {
            b.iter(|| assert_eq!(read_files(&world.files, 1), world.bytes))
        });
        group.bench_function("read_files_parallel", |b| {
            b.iter(|| assert_eq!(read_files(&world.files, threads), world.bytes))
        });
        group.bench_function("load", |b| {
            b.iter_with_large_drop(|| load_checked(&world.dir, world.regions, "world"))
        });
        group.bench_function("load_archive", |b| {
            b.iter_with_large_drop(|| load_checked(archive, world.regions, "archive"))
        });
        group.bench_function("corpus_archive", |b| {
            b.iter_with_large_drop(|| {
                let source = WorldSource::open(archive).expect("the bench archive opens");
                let report = silknav::corpus::scan(&source).expect("the archive is listed");
                assert_eq!(report.navmeshes.files as usize, world.regions);
                assert_eq!(report.files as usize, world.files.len());
                assert!(report.unreadable.is_empty() && report.world_checks == "run");
                report
            })
        });
        group.finish();
    }
    c.final_summary();

    println!("\nworld loading ({threads} threads available; the loader uses all of them):");
    for ((name, world), memory) in worlds.iter().zip(&memory) {
        // Only estimates written by this run count: a filtered or `--test` run leaves old ones.
        let dir = criterion_home().join(format!("load_{name}"));
        let median = |f: &str| median_ns_since(&dir.join(f), started);
        println!(
            "  {name}: {} regions, {} files, {:.1} MB",
            world.regions,
            world.files.len(),
            world.bytes as f64 / 1e6
        );
        let (read, parallel) = (median("read_files"), median("read_files_parallel"));
        if let Some(read) = read {
            println!("    read_files (floor, 1 thread): {}", duration(read));
        }
        if let Some(parallel) = parallel {
            println!(
                "    read_files_parallel (floor, {threads} threads): {}",
                duration(parallel)
            );
        }
        match (median("load"), read, parallel) {
            (Some(load), Some(read), Some(parallel)) => {
                println!(
                    "    {}; {:.2}× read_files_parallel; {:.0} regions/s",
                    Ratio::new("load", load, read)
                        .against("read_files")
                        .line(None),
                    load / parallel,
                    per_second(world.regions, load)
                );
                if world.regions == LIVE_REGIONS {
                    println!(
                        "    target: {LIVE_REGIONS} regions in ≤ {} on 2 cores ({threads} here): {}",
                        duration(LIVE_TARGET_NS),
                        verdict(load <= LIVE_TARGET_NS)
                    );
                }
            }
            _ => println!("    load: not run"),
        }
        match (median("load_archive"), median("load")) {
            (Some(from_archive), Some(load)) => println!(
                "    {}",
                Ratio::new("load_archive", from_archive, load)
                    .against("load (from the folder)")
                    .line(Some(ARCHIVE_TARGET))
            ),
            _ => println!("    load_archive: not run"),
        }
        if let Some(corpus) = median("corpus_archive") {
            println!(
                "    corpus_archive (silknav corpus): {}, {:.0} files/s",
                duration(corpus),
                per_second(world.files.len(), corpus)
            );
        }
        match memory {
            Some(m) => println!(
                "    memory of one load in a fresh process: world heap {:.1} MB ({:.0} KB per region, {:.2}× the files), peak resident {:.1} MB ({:.1} MB above the {:.1} MB before loading); that load took {}",
                m.heap as f64 / 1e6,
                m.heap as f64 / 1e3 / world.regions as f64,
                m.heap as f64 / world.bytes as f64,
                m.peak_kib as f64 * 1.024 / 1e3,
                (m.peak_kib - m.start_kib) as f64 * 1.024 / 1e3,
                m.start_kib as f64 * 1.024 / 1e3,
                duration(m.load_ns as f64)
            ),
            None => println!("    memory: not measured (no /proc/self/status, or the child failed)"),
        }
    }
}

/// The world at `path` (a folder or an archive), terrain only.
/// Loads the terrain of the bench `what` (world or archive) at `path`, asserting that it
/// loads with `regions` regions, a mapinfo and a clean report.
fn load_checked(path: &Path, regions: usize, what: &str) -> World {
    let loaded = load_terrain(path).unwrap_or_else(|e| panic!("the bench {what} loads: {e:?}"));
    assert_eq!(loaded.regions().len(), regions);
    let report = loaded.load_report();
    assert!(
        report.has_mapinfo && report.is_clean(),
        "{} findings",
        report.findings.len()
    );
    loaded
}

fn load_terrain(path: &Path) -> Result<World, silknav::files::LoadError> {
    World::load_source(&WorldSource::open(path)?, &LoadOptions::terrain_only())
}

/// Reads every file with `std::fs::read` on `threads` threads taking files in turn, as the
/// loader does, and returns the bytes read. The buffers are dropped as they are read, as the
/// loader drops each file once parsed.
fn read_files(files: &[PathBuf], threads: usize) -> u64 {
    let next = AtomicUsize::new(0);
    let read_some = || {
        let mut bytes = 0;
        while let Some(path) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
            bytes += std::fs::read(path)
                .expect("the bench world is readable")
                .len() as u64;
        }
        bytes
    };
    if threads <= 1 {
        return read_some();
    }
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(read_some)).collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a reading thread panicked"))
            .sum()
    })
}

/// Starts this binary again to load `dir` once and report its memory; `None` when it fails.
fn measure_memory(dir: &Path) -> Option<Memory> {
    let exe = std::env::current_exe().ok()?;
    let output = std::process::Command::new(exe)
        .env(CHILD, dir)
        .output()
        .ok()?;
    if !output.status.success() {
        eprintln!(
            "memory child for {} failed: {}",
            dir.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut fields = text.split_whitespace().map(str::parse::<i128>);
    let mut next = || fields.next()?.ok();
    Some(Memory {
        heap: next()? as i64,
        peak_kib: next()? as u64,
        start_kib: next()? as u64,
        load_ns: next()? as u128,
    })
}

/// The child's work: load once, print `heap peak_kib start_kib load_ns` on one line.
fn load_once(dir: &Path) {
    let start_kib = status_kib("VmRSS").unwrap_or(0);
    let clock = Instant::now();
    let (world, heap) = heap_held_by(ALLOCATOR, || {
        load_terrain(dir).expect("the bench world loads")
    });
    let load_ns = clock.elapsed().as_nanos();
    let Some(peak_kib) = status_kib("VmHWM") else {
        std::process::exit(1);
    };
    assert!(world.regions().len() > 0);
    println!("{heap} {peak_kib} {start_kib} {load_ns}");
}
