//! Integration tests of `jmxv`: every format read and written through the public API, as one
//! test binary.
//!
//! The binary's global allocator is `allocation-counter`'s, which counts each thread's
//! allocations apart: the tests that bound what a parser allocates ([`allocated_by`]) run
//! beside the others without seeing their allocations.

mod bms;
mod companions;
mod dof;
mod dungeon_tables;
mod independent;
mod json;
mod lint;
mod robustness;
mod roundtrip;

/// The most bytes `f` holds allocated at once on this thread, its result included: an upper
/// bound on what a parse keeps and a lower bound on what it must.
pub fn allocated_by<T>(mut f: impl FnMut() -> T) -> usize {
    let info = allocation_counter::measure(|| drop(std::hint::black_box(f())));
    usize::try_from(info.bytes_max).unwrap_or(usize::MAX)
}

/// Checks that the committed fuzz seed at `path` (under `fuzz/seeds/`) holds `bytes`; with
/// `SILKNAV_BLESS_SEEDS=1` in the environment, writes it first. Returns the stored bytes.
pub fn seed_is_current(path: &std::path::Path, bytes: &[u8]) -> Vec<u8> {
    if std::env::var_os("SILKNAV_BLESS_SEEDS").is_some() {
        std::fs::create_dir_all(path.parent().expect("a seed has a folder")).expect("mkdir");
        std::fs::write(path, bytes).expect("write seed");
    }
    let stored = std::fs::read(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with SILKNAV_BLESS_SEEDS=1 to write the seeds",
            path.display()
        )
    });
    assert!(
        stored == bytes,
        "{} is stale; bless the seeds again",
        path.display()
    );
    stored
}

/// The `jmxv` crate's folder, where the committed test inputs are found from.
pub fn manifest_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}
