//! Builders of valid and deliberately broken navmesh files, for tests and benches.
//!
//! - [`open_region`], [`region_from_mask`], [`realistic_region`]: valid single-region files that
//!   satisfy every single-file invariant (they lint clean).
//! - [`corrupt`]: ways to break bytes on purpose.
//! - [`independent`]: a second writer of the format, from the spec page alone.
//! - [`rng`]: the seeded random numbers of tests and benches.
//! - [`movingai`]: the committed Moving AI benchmark maps and queries, and where they are.
//! - [`sha1`]: the digest that checks committed test data against its sources.

use jmxv::nvm::NavMesh;
use jmxv::RegionId;

pub mod corrupt;
pub mod independent;
mod mask;
pub mod movingai;
pub mod rng;
pub mod sha1;

#[cfg(test)]
mod tests;

pub use mask::{open_region, realistic_region, region_from_mask};

/// The region used by tests that do not care which one: `nv_694e.nvm` (x 78, z 105).
pub const TEST_REGION: RegionId = RegionId::new(0x4e, 0x69);

/// Bytes of a valid file, for tests that start from bytes.
pub fn bytes_of(mesh: &NavMesh) -> Vec<u8> {
    mesh.to_vec().expect("testkit meshes are writable")
}
