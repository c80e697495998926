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

use proptest::test_runner::TestCaseError;
use proptest::{prop_assert, prop_assert_eq};

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

/// A file format under test: its model read from bytes and written back, as the format's own
/// `parse`, `to_vec` and `encoded_len` do it.
pub trait Format: Sized + PartialEq + std::fmt::Debug {
    /// Reads a model from the file's bytes.
    fn parse(bytes: &[u8]) -> Result<Self, jmxv::Error>;
    /// The file's bytes.
    fn to_vec(&self) -> Result<Vec<u8>, jmxv::WriteError>;
    /// The size of the written file in bytes.
    fn encoded_len(&self) -> usize;
}

/// Implements [`Format`] for models whose own `parse`, `to_vec` and `encoded_len` it forwards to.
macro_rules! format_by_inherent_methods {
    ($($model:ty),*) => {$(
        impl Format for $model {
            fn parse(bytes: &[u8]) -> Result<$model, jmxv::Error> {
                <$model>::parse(bytes)
            }

            fn to_vec(&self) -> Result<Vec<u8>, jmxv::WriteError> {
                <$model>::to_vec(self)
            }

            fn encoded_len(&self) -> usize {
                <$model>::encoded_len(self)
            }
        }
    )*};
}

format_by_inherent_methods!(
    jmxv::ainav::AiNavData,
    jmxv::bms::ObjectMesh,
    jmxv::dof::DungeonFile,
    jmxv::ifo::DungeonInfo
);

impl<E: jmxv::ifo::Entry + PartialEq + std::fmt::Debug> Format for jmxv::ifo::Table<E> {
    fn parse(bytes: &[u8]) -> Result<jmxv::ifo::Table<E>, jmxv::Error> {
        jmxv::ifo::Table::parse(bytes)
    }

    fn to_vec(&self) -> Result<Vec<u8>, jmxv::WriteError> {
        jmxv::ifo::Table::to_vec(self)
    }

    fn encoded_len(&self) -> usize {
        jmxv::ifo::Table::encoded_len(self)
    }
}

/// Checks `bytes`, written from `model`: they are `encoded_len` long and read back as an equal
/// model, which writes them again. Returns the model read back.
pub fn reads_back_as_written<F: Format>(model: &F, bytes: Vec<u8>) -> Result<F, TestCaseError> {
    prop_assert_eq!(bytes.len(), model.encoded_len());
    let back = F::parse(&bytes).expect("written bytes parse");
    prop_assert_eq!(&back, model);
    prop_assert_eq!(back.to_vec().unwrap(), bytes);
    Ok(back)
}

/// Checks that a file from the test kit's independent writer parses and writes back byte for
/// byte.
pub fn writes_back<F: Format>(bytes: &[u8]) -> Result<(), TestCaseError> {
    let model = F::parse(bytes).expect("the independent writer's files parse");
    prop_assert!(model.to_vec().unwrap() == bytes);
    Ok(())
}

/// Parses `bytes` (a cut, mutated or fuzzed file named `what`) and checks that the parser did
/// not panic and that a model it read writes `bytes` back exactly. Returns what the parser
/// returned.
pub fn parse_and_write_back<F: Format>(bytes: &[u8], what: &str) -> Result<F, jmxv::Error> {
    let result = std::panic::catch_unwind(|| F::parse(bytes))
        .unwrap_or_else(|_| panic!("{what}: parse panicked"));
    if let Ok(model) = &result {
        let written = model.to_vec().expect("a parsed model is writable");
        assert!(written == bytes, "{what}: write(parse(b)) != b");
    }
    result
}

/// [`parse_and_write_back`] for a mutated file, which also checks that the written bytes read
/// back as an equal model.
pub fn parse_mutated<F: Format>(bytes: &[u8], what: &str) -> Result<F, jmxv::Error> {
    let result = parse_and_write_back::<F>(bytes, what);
    if let Ok(model) = &result {
        let back = F::parse(bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(&back, model, "{what}");
    }
    result
}

/// Parses `bytes`, checking that the parse holds at most `factor` times the input plus 16 KiB
/// allocated at once. Returns the most the parse held.
pub fn allocation_within<F: Format>(bytes: &[u8], factor: usize) -> usize {
    let allocated = allocated_by(|| F::parse(bytes).unwrap());
    let bound = factor * bytes.len() + 16 * 1024;
    assert!(
        allocated <= bound,
        "{allocated} bytes allocated for {} input bytes (bound {bound})",
        bytes.len()
    );
    allocated
}

/// Parses `broken`, whose count for `section` is too large for the input, and checks that the
/// parse fails having allocated less than 4 times the input plus 16 KiB. Returns the error.
pub fn oversized_count_error<F: Format>(broken: &[u8], section: &str) -> jmxv::Error {
    let mut result = None;
    let allocated = allocated_by(|| result = Some(F::parse(broken)));
    let e = result
        .expect("allocated_by runs the parse")
        .expect_err("an oversized count");
    assert!(
        allocated < 4 * broken.len() + 16 * 1024,
        "{section}: {allocated} bytes allocated for a {}-byte input",
        broken.len()
    );
    e
}

/// Checks the promises every error of a parse of `len` bytes (of the file `what`) makes: the
/// offset lies inside the input, and `known` accepts the section.
pub fn check_error_place(e: &jmxv::Error, len: usize, what: &str, known: impl Fn(&str) -> bool) {
    assert!(
        e.offset() <= len,
        "{what}: offset past the {len} bytes: {e}"
    );
    assert!(known(e.section()), "{what}: unknown section in {e}");
}
