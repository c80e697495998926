//! Generation and world lint of a 16×16-region world, in regions per second, against the floor
//! of producing the same bytes: serialising the world's files (`WorldFiles::to_files`) and
//! allocating and copying that many bytes, measured in the same run.
//!
//! `cargo bench -p silknav-bench --bench worlds` runs criterion, then prints each operation's
//! median, its regions per second and its ratios to both floors, read back from criterion's
//! `estimates.json`.

use criterion::{black_box, Criterion, SamplingMode, Throughput};
use silknav::jmxv::lint::Severity;
use silknav::lint::lint_world;
use silknav::worldgen::{generate, GenOptions, Landscape, DEFAULT_ORIGIN};
use silknav_bench::{criterion_home, duration, median_ns_since, per_second, Ratio};
use std::time::{Duration, SystemTime};

/// Criterion's group name; also the folder its estimates are saved under.
const GROUP: &str = "worlds";
/// The world of the issue: 16×16 regions, fixed seed.
const OPTIONS: GenOptions = GenOptions {
    seed: 1,
    width: 16,
    height: 16,
    origin: DEFAULT_ORIGIN,
    landscape: Landscape::Rugged,
};

fn main() {
    let started = SystemTime::now();
    let files = generate(&OPTIONS).expect("valid options").into_files();
    let regions = files.navmeshes.len();
    assert_eq!(regions, 256);
    let cells: usize = files.navmeshes.values().map(|m| m.cells.len()).sum();
    let serialised = files.to_files().expect("generated worlds are writable");
    let file_count = serialised.len();
    let bytes: Vec<u8> = serialised
        .iter()
        .flat_map(|(_, b)| b.iter().copied())
        .collect();
    let (len, last) = (bytes.len(), bytes[bytes.len() - 1]);
    drop(serialised);
    let report = lint_world(&files);
    let warnings = report.count(Severity::Warning);
    assert!(
        !report.has_errors(),
        "the generated world has lint errors: {:?}",
        report.all().find(|(_, f)| f.severity == Severity::Error)
    );
    eprintln!(
        "input: {}×{} regions (seed {}), {cells} cells, {file_count} files, {:.1} MB; lint: 0 errors, {warnings} warnings",
        OPTIONS.width,
        OPTIONS.height,
        OPTIONS.seed,
        len as f64 / 1e6
    );

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group(GROUP);
    group.throughput(Throughput::Elements(regions as u64));
    // Generation takes about a second per world: ten single-iteration samples are what the
    // time allows, and flat sampling is criterion's mode for routines that long.
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .measurement_time(Duration::from_secs(15));
    group.bench_function("generate", |b| {
        b.iter_with_large_drop(|| {
            let world = generate(black_box(&OPTIONS)).expect("valid").into_files();
            assert_eq!(world.navmeshes.len(), regions);
            assert_eq!(
                world
                    .navmeshes
                    .values()
                    .map(|m| m.cells.len())
                    .sum::<usize>(),
                cells
            );
            world
        })
    });
    group.bench_function("lint_world", |b| {
        b.iter_with_large_drop(|| {
            let report = lint_world(black_box(&files));
            assert_eq!(report.files.len(), regions);
            assert_eq!(report.count(Severity::Error), 0);
            assert_eq!(report.count(Severity::Warning), warnings);
            report
        })
    });
    // The format's floor: every byte the world's files hold, encoded once.
    group.bench_function("to_files", |b| {
        b.iter_with_large_drop(|| {
            let out = black_box(&files).to_files().expect("writes");
            assert_eq!(out.len(), file_count);
            assert_eq!(out.iter().map(|(_, b)| b.len()).sum::<usize>(), len);
            out
        })
    });
    // The physical floor: as much fresh memory as the files, filled by a copy.
    group.bench_function("copy_to_vec", |b| {
        b.iter_with_large_drop(|| {
            let copy = black_box(&bytes[..]).to_vec();
            assert_eq!((copy.len(), copy[len - 1]), (len, last));
            copy
        })
    });
    // The copy alone, into memory already faulted in: what is left of the floor without the
    // kernel's cost of handing out fresh pages.
    group.bench_function("copy_into", |b| {
        let mut buffer = vec![0u8; len];
        b.iter(|| {
            buffer.copy_from_slice(black_box(&bytes[..]));
            assert_eq!(buffer[len - 1], last);
        })
    });
    group.finish();
    c.final_summary();

    // Only estimates written by this run count: a filtered or `--test` run leaves old ones.
    let dir = criterion_home().join(GROUP);
    let median = |name: &str| median_ns_since(&dir.join(name), started);
    let (Some(to_files), Some(copy)) = (median("to_files"), median("copy_to_vec")) else {
        eprintln!(
            "no fresh estimates of the floors in {}: no ratios",
            dir.display()
        );
        return;
    };
    println!(
        "\nmedians of the {}×{}-region world ({regions} regions, {:.1} MB of files) against the floors:",
        OPTIONS.width,
        OPTIONS.height,
        len as f64 / 1e6
    );
    println!("  (to_files: serialise every file; copy: allocate and copy {len} bytes)");
    for name in ["generate", "lint_world"] {
        match median(name) {
            Some(ns) => println!(
                "  {name}: {} per world, {:.0} regions/s; {:.1}× to_files, {:.1}× copy",
                duration(ns),
                per_second(regions, ns),
                ns / to_files,
                ns / copy
            ),
            None => println!("  {name}: not run"),
        }
    }
    println!("  {}", Ratio::new("to_files", to_files, copy).line(None));
    if let Some(copy_into) = median("copy_into") {
        println!("  {}", Ratio::new("copy_into", copy_into, copy).line(None));
    }
}
