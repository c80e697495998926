//! Positions: a region and a point in its local frame, as the game keeps them.

use jmxv::RegionId;
use std::fmt;

use crate::geometry::REGION_SIZE;

/// A point on the ground: a region and local x, z in `[0, 1920)`, as f32 like the game's.
///
/// Keeping positions region-local means precision does not degrade far from the world's
/// origin; world coordinates are `region · 1920 + local` per axis (x from the region's column,
/// z from its row).
///
/// In a dungeon the region is `0x8000 | id` ([`RegionId::is_dungeon`]) and x, z are the
/// dungeon's own coordinates, negative allowed and never wrapped into a region: they are the
/// position's world coordinates too.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Position {
    /// The region the point lies in.
    pub region: RegionId,
    /// Local x, normally in `[0, 1920)`.
    pub x: f32,
    /// Local z, normally in `[0, 1920)`.
    pub z: f32,
}

impl Position {
    /// A position in a region's local frame (not normalised: see [`Position::normalized`]).
    pub const fn new(region: RegionId, x: f32, z: f32) -> Position {
        Position { region, x, z }
    }

    /// The position at world coordinates (x, z), in the region that contains it.
    ///
    /// Returns `None` outside the terrain id space (region x 0..=255, z 0..=127) or for
    /// non-finite input.
    pub fn from_world(x: f64, z: f64) -> Option<Position> {
        let size = f64::from(REGION_SIZE);
        if !x.is_finite() || !z.is_finite() {
            return None;
        }
        let (rx, rz) = ((x / size).floor(), (z / size).floor());
        if !(0.0..256.0).contains(&rx) || !(0.0..128.0).contains(&rz) {
            return None;
        }
        Position::new(
            RegionId::new(rx as u8, rz as u8),
            (x - rx * size) as f32,
            (z - rz * size) as f32,
        )
        .normalized()
    }

    /// A position in dungeon `id` (region `0x8000 | id`), at its own x, z.
    pub const fn in_dungeon(id: u16, x: f32, z: f32) -> Position {
        Position::new(RegionId(0x8000 | id), x, z)
    }

    /// World x in units (in a dungeon, its own x).
    pub fn world_x(self) -> f64 {
        if self.region.is_dungeon() {
            return f64::from(self.x);
        }
        f64::from(self.region.x()) * f64::from(REGION_SIZE) + f64::from(self.x)
    }

    /// World z in units (in a dungeon, its own z).
    pub fn world_z(self) -> f64 {
        if self.region.is_dungeon() {
            return f64::from(self.z);
        }
        f64::from(self.region.z()) * f64::from(REGION_SIZE) + f64::from(self.z)
    }

    /// The same point with local coordinates moved into `[0, 1920)` by changing region, as
    /// the game does when a point leaves its region. `None` past the id space or for NaN. A
    /// dungeon position is never moved (`None` when not finite).
    pub fn normalized(self) -> Option<Position> {
        if self.region.is_dungeon() {
            return (self.x.is_finite() && self.z.is_finite()).then_some(self);
        }
        let mut rx = i32::from(self.region.x());
        let mut rz = i32::from(self.region.z());
        let (mut x, mut z) = (self.x, self.z);
        if !x.is_finite() || !z.is_finite() {
            return None;
        }
        // A float just below a multiple of 1920 can round up to it when shifted; loop until the
        // value is in range (at most a few steps for any finite input near the world).
        for _ in 0..512 {
            if x < 0.0 {
                x += REGION_SIZE;
                rx -= 1;
            } else if x >= REGION_SIZE {
                x -= REGION_SIZE;
                rx += 1;
            } else if z < 0.0 {
                z += REGION_SIZE;
                rz -= 1;
            } else if z >= REGION_SIZE {
                z -= REGION_SIZE;
                rz += 1;
            } else {
                break;
            }
        }
        let in_range = (0.0..REGION_SIZE).contains(&x) && (0.0..REGION_SIZE).contains(&z);
        (in_range && (0..256).contains(&rx) && (0..128).contains(&rz))
            .then(|| Position::new(RegionId::new(rx as u8, rz as u8), x, z))
    }

    /// This point's coordinates in another region's frame (may lie outside `[0, 1920)`).
    pub fn in_frame_of(self, region: RegionId) -> (f32, f32) {
        let dx = (i32::from(self.region.x()) - i32::from(region.x())) as f32 * REGION_SIZE;
        let dz = (i32::from(self.region.z()) - i32::from(region.z())) as f32 * REGION_SIZE;
        (self.x + dx, self.z + dz)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.world_x(), self.world_z())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn world_round_trip_and_half_open_regions() {
        let p = Position::from_world(1920.0 * 3.0 + 5.5, 1920.0 * 7.0 + 1919.75).unwrap();
        assert_eq!((p.region.x(), p.region.z(), p.x, p.z), (3, 7, 5.5, 1919.75));
        assert_eq!(
            (p.world_x(), p.world_z()),
            (1920.0 * 3.0 + 5.5, 1920.0 * 7.0 + 1919.75)
        );
        // A point at local 1920 belongs to the next region.
        let q = Position::new(RegionId::new(3, 7), 1920.0, 0.0)
            .normalized()
            .unwrap();
        assert_eq!((q.region.x(), q.x), (4, 0.0));
        let r = Position::new(RegionId::new(3, 7), -0.5, -1.0)
            .normalized()
            .unwrap();
        assert_eq!(
            (r.region.x(), r.region.z(), r.x, r.z),
            (2, 6, 1919.5, 1919.0)
        );
        assert!(Position::from_world(-1.0, 0.0).is_none());
        assert!(Position::from_world(0.0, 128.0 * 1920.0).is_none());
        assert!(Position::new(RegionId::new(0, 0), f32::NAN, 0.0)
            .normalized()
            .is_none());
        assert_eq!(q.in_frame_of(RegionId::new(3, 7)), (1920.0, 0.0));
    }
}
