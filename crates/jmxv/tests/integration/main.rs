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

/// Every lint code of `table` is documented in `docs` (the lint module's source) with its
/// severity, and the codes run `{prefix}001…` in order.
pub fn check_code_table(prefix: char, table: &[(&str, jmxv::lint::Severity, &str)], docs: &str) {
    let listed: Vec<&str> = table.iter().map(|c| c.0).collect();
    let expected: Vec<String> = (1..=table.len())
        .map(|i| format!("{prefix}{i:03}"))
        .collect();
    assert_eq!(listed, expected);
    for (code, severity, _) in table {
        let row = format!("//! | {code} | {} |", severity.name());
        assert!(docs.contains(&row), "{code} is not documented as {row}");
    }
}

/// `findings` is exactly one finding of `code`, at `location`, with the severity `table` lists.
pub fn assert_only_finding(
    findings: &[jmxv::lint::Finding],
    code: &str,
    location: &str,
    table: &[(&str, jmxv::lint::Severity, &str)],
) {
    let codes: Vec<&str> = findings.iter().map(|f| f.code).collect();
    assert_eq!(codes, [code], "{findings:#?}");
    assert_eq!(findings[0].location, location, "{}", findings[0]);
    let severity = table.iter().find(|c| c.0 == code).map(|c| c.1);
    assert_eq!(Some(findings[0].severity), severity, "{code} is listed");
}

/// One to three random byte edits of `bytes`, each drawn from `kinds` choices: the last two
/// insert and remove a byte, the others flip a bit (so `kinds` weighs the flips).
pub fn mutate(bytes: &mut Vec<u8>, rng: &mut silknav_testkit::rng::SplitMix64, kinds: u32) {
    for _ in 0..rng.range(1, 4) {
        let at = rng.range(0, bytes.len() as u32) as usize;
        let kind = rng.range(0, kinds);
        if kind + 2 < kinds {
            bytes[at] ^= 1 << rng.range(0, 8);
        } else if kind + 2 == kinds {
            bytes.insert(at, rng.next_u64() as u8);
        } else {
            bytes.remove(at);
        }
    }
}
