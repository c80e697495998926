//! Queries on small worlds made from fuzzed tile masks and heights: cell, height, snap, line
//! of sight, move and path never panic or hang, and their answers agree with each other the
//! way users chain them. The input's layout and the checks are
//! `silknav_testkit::fuzz_world`'s, which the tests use to replay what this target found
//! (`crates/silknav/tests/fuzz-regressions/world_queries`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| silknav_testkit::fuzz_world::check(data));
