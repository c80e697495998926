//! Valid single-region files from a mask of blocked tiles.

use jmxv::nvm::NavMesh;
use jmxv::RegionId;

/// A region whose tiles are all open: four 960×960 cells, walls on the region border.
pub fn open_region(region: RegionId) -> NavMesh {
    region_from_mask(region, |_, _| false)
}

/// A valid region with the tiles where `blocked(tx, tz)` holds blocked.
pub fn region_from_mask(region: RegionId, blocked: impl Fn(usize, usize) -> bool) -> NavMesh {
    let _ = (region, blocked);
    todo!("in progress")
}

/// A game-like region of about 100 cells, 300 edges and 20 objects, the same for the same seed.
pub fn realistic_region(seed: u64) -> NavMesh {
    let _ = seed;
    todo!("in progress")
}
