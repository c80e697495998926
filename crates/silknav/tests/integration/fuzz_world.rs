//! Worlds from fuzzed tile masks (`silknav_testkit::fuzz_world`, the fuzz target
//! `world_queries`): what the fuzzer found stays fixed, and a few hundred seeded inputs run on
//! every test run.

use silknav_testkit::fuzz_world::check;
use silknav_testkit::replay_inputs;
use silknav_testkit::rng::SplitMix64;
use std::path::Path;

/// Every input the fuzzer found failing (`tests/fuzz-regressions/world_queries/*.bin`) and
/// the fuzzer's seeds answer consistently.
#[test]
fn fuzz_findings_and_seeds_answer_consistently() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let replayed = replay_inputs(
        &[
            root.join("tests/fuzz-regressions/world_queries"),
            root.join("../../fuzz/seeds/world_queries"),
        ],
        |input| {
            check(input);
        },
    );
    assert!(replayed >= 4, "the seeds are there: {replayed}");
}

/// Random inputs of the target's layout: random masks and queries, including tile corners.
#[test]
fn seeded_random_worlds_answer_consistently() {
    let mut rng = SplitMix64::new(0x5eed);
    for _ in 0..24 {
        let len = rng.range(40, 900) as usize;
        let data: Vec<u8> = (0..len).map(|_| rng.range(0, 256) as u8).collect();
        check(&data);
    }
}
