//! Queries on small worlds with objects made from fuzzed placements and meshes: cell, height,
//! snap, line of sight, move and the paths through objects never panic or hang, line of sight
//! agrees with the brute-force oracle, and the answers agree with each other the way users
//! chain them. The input's layout and the checks are `silknav_testkit::fuzz_objects`'s, which
//! the tests use to replay what this target found
//! (`crates/silknav/tests/fuzz-regressions/object_queries`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    silknav_testkit::fuzz_objects::check(data);
});
