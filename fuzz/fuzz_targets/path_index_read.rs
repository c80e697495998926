//! Path index files (`silknav.index`) as they come: reading never panics or allocates beyond
//! the input; a file that reads is used by a world whose regions it names, and path queries on
//! it end without a panic.
//!
//! The first byte chooses how much of the header the target mends before reading, so that
//! mutations reach past the checks a random file fails at once: bit 0 sets the length and the
//! checksum to the ones of the bytes (docs/format.md, offsets 16 and 24), bit 1 sets the inputs
//! digest to the one of the target's world (offset 32), so that the world takes the index.

#![no_main]

use libfuzzer_sys::fuzz_target;
use silknav::path::PathIndexFile;
use silknav::worldgen::{generate, GenOptions};
use silknav::{PathIndex, PathOptions, PathScratch, Position, World};
use std::sync::OnceLock;

/// The world the committed seed indexes: generated 1×1, seed 1.
fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let generated = generate(&GenOptions {
            width: 1,
            height: 1,
            ..GenOptions::default()
        })
        .expect("a 1×1 world");
        World::from_navmeshes(generated.regions.iter().map(|(r, m)| (*r, m)))
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, file)) = data.split_first() else {
        return;
    };
    let mut bytes = file.to_vec();
    if mode & 2 != 0 && bytes.len() >= 48 {
        let digest = world().inputs_digest().expect("written meshes");
        bytes[32..48].copy_from_slice(&digest.0);
    }
    if mode & 1 != 0 && bytes.len() >= 32 {
        let len = bytes.len() as u64;
        bytes[16..24].copy_from_slice(&len.to_le_bytes());
        let sum = xxhash_rust::xxh3::xxh3_64(&bytes[32..]);
        bytes[24..32].copy_from_slice(&sum.to_le_bytes());
    }
    let file = match PathIndexFile::from_bytes(&bytes) {
        Ok(file) => file,
        Err(e) => {
            if let Some(offset) = e.offset() {
                assert!(
                    offset <= bytes.len() as u64,
                    "error offset past the input: {e}"
                );
            }
            return;
        }
    };
    let world = world();
    let Ok(paths) = PathIndex::from_file(world, file) else {
        return;
    };
    let mut scratch = PathScratch::with_budget(2_000);
    let region = world.regions().next().expect("one region");
    for (a, b) in [
        ((100.0, 100.0), (1800.0, 1700.0)),
        ((960.0, 40.0), (20.0, 1900.0)),
        ((1500.0, 1500.0), (300.0, 700.0)),
    ] {
        let from = Position::new(region, a.0, a.1);
        let to = Position::new(region, b.0, b.1);
        if let Ok(path) = paths.find_path(world, from, to, &PathOptions::default(), &mut scratch) {
            assert!(path.length.is_finite());
        }
    }
});
