//! Parse and write of a realistic standard `.nvm` file against the physical floor: allocating
//! and copying the same number of bytes, measured in the same run.
//!
//! `cargo bench -p silknav-bench --bench nvm` runs criterion, then prints each operation's
//! median and its ratio to the copy, read back from criterion's `estimates.json`.

use criterion::{black_box, Criterion, Throughput};
use jmxv::nvm::NavMesh;
use silknav_bench::{criterion_home, median_ns_since, Ratio};
use std::time::SystemTime;

/// Criterion's group name; also the folder its estimates are saved under.
const GROUP: &str = "nvm";
/// How many times slower than the copy parse and write may be.
const TARGET: f64 = 3.0;

fn main() {
    let started = SystemTime::now();
    let mesh = silknav_testkit::realistic_region(7);
    let bytes = mesh.to_vec().expect("the test kit's regions are writable");
    let (len, cells, last) = (bytes.len(), mesh.cells.len(), bytes[bytes.len() - 1]);
    eprintln!(
        "input: {len} bytes, {} objects, {cells} cells, {} global + {} internal edges",
        mesh.objects.len(),
        mesh.global_edges.len(),
        mesh.internal_edges.len()
    );

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group(GROUP);
    group.throughput(Throughput::Bytes(len as u64));
    // The floor of parse and write: both produce `len` bytes' worth of fresh heap memory.
    group.bench_function("copy_to_vec", |b| {
        b.iter(|| {
            let copy = black_box(&bytes[..]).to_vec();
            assert_eq!(copy.len(), len);
            copy
        })
    });
    // The copy alone, without the allocation.
    group.bench_function("copy_into", |b| {
        let mut buffer = vec![0u8; len];
        b.iter(|| {
            buffer.copy_from_slice(black_box(&bytes[..]));
            assert_eq!(buffer[len - 1], last);
        })
    });
    group.bench_function("parse", |b| {
        b.iter(|| {
            let parsed = NavMesh::parse(black_box(&bytes[..])).expect("parses");
            assert_eq!(parsed.cells.len(), cells);
            parsed
        })
    });
    group.bench_function("write", |b| {
        b.iter(|| {
            let written = black_box(&mesh).to_vec().expect("writes");
            assert_eq!(written.len(), len);
            written
        })
    });
    group.finish();
    c.final_summary();

    // Only estimates written by this run count: a filtered or `--test` run leaves old ones.
    let dir = criterion_home().join(GROUP);
    let median = |name: &str| median_ns_since(&dir.join(name), started);
    let Some(floor) = median("copy_to_vec") else {
        eprintln!(
            "no fresh estimate for {GROUP}/copy_to_vec in {}: no ratios",
            dir.display()
        );
        return;
    };
    println!("\nmedians against the floor (copy_to_vec: allocate and copy {len} bytes):");
    if let Some(copy_into) = median("copy_into") {
        println!("  {}", Ratio::new("copy_into", copy_into, floor).line(None));
    }
    for name in ["parse", "write"] {
        match median(name) {
            Some(ns) => println!("  {}", Ratio::new(name, ns, floor).line(Some(TARGET))),
            None => println!("  {name}: not run"),
        }
    }
}
