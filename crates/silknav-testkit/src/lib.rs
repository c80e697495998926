//! Builders of valid and deliberately broken navmesh files, for tests and benches.
//!
//! - [`open_region`], [`region_from_mask`], [`realistic_region`]: valid single-region files that
//!   satisfy every single-file invariant (they lint clean).
//! - [`http`]: a small HTTP/1.1 client for tests of the query server.
//! - [`corrupt`]: ways to break bytes on purpose.
//! - [`fuzz_world`]: worlds from fuzzed tile masks, queried and checked for consistency.
//! - [`second_writer`]: second writers of every format (`JMXVNVM`, `JMXVBMS`, `AINavData`,
//!   `JMXVDOF`), from the layouts alone, sharing no code with `jmxv`.
//! - [`object_world`]: a small world folder with buildings, a bridge and a gate, and broken
//!   object references.
//! - [`floors_world`]: a world of object floors only, as a dungeon is: linked spans over
//!   blocked ground, a lone span and a closed room.
//! - [`oracle`]: every brute-force reference the tests compare the library with: terrain
//!   line of sight in exact integers, object line of sight, and a second port of the game
//!   server's cell, height and movement queries.
//! - [`rng`]: the seeded random numbers of tests and benches.
//! - [`error_chain`]: an error's source chain, checked to say each thing once.
//! - [`movingai`]: the committed Moving AI benchmark maps and queries, and where they are.
//! - [`pk2`]: folders packed into archives, and archives damaged at known records.

use jmxv::nvm::NavMesh;
use jmxv::RegionId;

pub mod corrupt;
pub mod floors_world;
pub mod fuzz_objects;
pub mod fuzz_world;
pub mod http;
mod mask;
pub mod movingai;
pub mod object_world;
pub mod oracle;
pub mod pk2;
pub mod rng;
pub mod second_writer;

#[cfg(test)]
mod tests;

pub use mask::{open_region, realistic_region, region_from_mask};

/// The region used by tests that do not care which one: `nv_694e.nvm` (x 78, z 105).
pub const TEST_REGION: RegionId = RegionId::new(0x4e, 0x69);

/// Bytes of a valid file, for tests that start from bytes.
pub fn bytes_of(mesh: &NavMesh) -> Vec<u8> {
    mesh.to_vec().expect("testkit meshes are writable")
}

/// Runs `check` on every file of the folders `dirs` (a fuzz target's kept findings and
/// seeds: files without an extension or ending in `.bin`), in name order, naming each on
/// stderr first so that a failure's output says which; returns how many ran.
///
/// # Panics
/// When a folder cannot be read, or as `check` does.
pub fn replay_inputs(dirs: &[std::path::PathBuf], check: impl Fn(&[u8])) -> usize {
    let mut replayed = 0;
    for dir in dirs {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a folder entry").path())
            .filter(|p| p.is_file() && p.extension().is_none_or(|e| e == "bin"))
            .collect();
        files.sort();
        for file in files {
            eprintln!("replaying {}", file.display());
            check(&std::fs::read(&file).expect("a readable input"));
            replayed += 1;
        }
    }
    replayed
}

/// The texts of `e`'s source chain, outermost first.
///
/// # Panics
/// When an error's text contains its source's text: a report that joins the chain with `: `
/// would say it twice (a wrapper's text says what it was doing; its source says why).
pub fn error_chain(e: &(dyn std::error::Error + 'static)) -> Vec<String> {
    let texts: Vec<String> = std::iter::successors(Some(e), |e| (*e).source())
        .map(ToString::to_string)
        .collect();
    for pair in texts.windows(2) {
        assert!(!pair[0].contains(&pair[1]), "{pair:?}: repeats its source");
    }
    texts
}
