//! Worlds with objects from fuzzed placements and meshes (`silknav_testkit::fuzz_objects`, the
//! fuzz target `object_queries`): what the fuzzer found stays fixed, and seeded inputs run on
//! every test run.

use silknav_testkit::fuzz_objects::{check, Tally};
use silknav_testkit::replay_inputs;
use silknav_testkit::rng::SplitMix64;
use std::path::Path;

/// Every input the fuzzer found failing (`tests/fuzz-regressions/object_queries/*.bin`) and
/// the fuzzer's seeds answer consistently.
#[test]
fn object_fuzz_findings_and_seeds_answer_consistently() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let replayed = replay_inputs(
        &[
            root.join("tests/fuzz-regressions/object_queries"),
            root.join("../../fuzz/seeds/object_queries"),
        ],
        |input| {
            check(input);
        },
    );
    assert!(replayed >= 4, "the seeds are there: {replayed}");
}

/// Random inputs of the target's layout: random terrain, placements, meshes and queries.
#[test]
fn seeded_random_object_worlds_answer_consistently() {
    let mut rng = SplitMix64::new(0x0b1e);
    let mut total = Tally::default();
    for _ in 0..16 {
        let len = rng.range(60, 700) as usize;
        let data: Vec<u8> = (0..len).map(|_| rng.range(0, 256) as u8).collect();
        total += check(&data);
    }
    // The inputs reach the objects: placed, stood on, cast through, and paths round them.
    assert!(total.instances >= 30, "{total:?}");
    assert!(total.on_objects >= 15, "{total:?}");
    assert!(total.casts >= 150, "{total:?}");
    assert!(total.turning >= 30, "{total:?}");
    assert!(total.walkable_paths >= 100, "{total:?}");
}
