//! [`RegionId`]: which 1920×1920 square of the world a file describes.

use std::fmt;

/// A region id: `(z << 8) | x`, bit 15 set for dungeons.
///
/// x (the low byte) is the column, west to east; z (bits 8–14) the row, south to north.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct RegionId(pub u16);

impl RegionId {
    /// Side of a region in world units.
    pub const SIZE: f32 = 1920.0;

    /// The terrain region at column `x`, row `z` (`z` < 128).
    pub const fn new(x: u8, z: u8) -> RegionId {
        RegionId(((z as u16 & 0x7f) << 8) | x as u16)
    }

    /// Column, west to east.
    pub const fn x(self) -> u8 {
        self.0 as u8
    }

    /// Row, south to north (without the dungeon bit).
    pub const fn z(self) -> u8 {
        ((self.0 >> 8) & 0x7f) as u8
    }

    /// Bit 15: a dungeon, which has no terrain navmesh.
    pub const fn is_dungeon(self) -> bool {
        self.0 & 0x8000 != 0
    }

    /// The navmesh file name the game uses for this region: `nv_%04x.nvm`, lower case.
    pub fn file_name(self) -> String {
        format!("nv_{:04x}.nvm", self.0)
    }

    /// The region named by a navmesh file name such as `nv_694e.nvm` (any case).
    ///
    /// Returns `None` for names that do not follow the pattern.
    pub fn from_file_name(name: &str) -> Option<RegionId> {
        let bytes = name.as_bytes();
        if bytes.len() != 11 {
            return None;
        }
        let (prefix, rest) = name.split_at(3);
        let (hex, ext) = rest.split_at(4);
        if !prefix.eq_ignore_ascii_case("nv_") || !ext.eq_ignore_ascii_case(".nvm") {
            return None;
        }
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u16::from_str_radix(hex, 16).ok().map(RegionId)
    }
}

impl fmt::Debug for RegionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RegionId(0x{:04x})", self.0)
    }
}

impl fmt::Display for RegionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names() {
        let id = RegionId::from_file_name("nv_694e.nvm").unwrap();
        assert_eq!((id.x(), id.z()), (0x4e, 0x69));
        assert_eq!(RegionId::from_file_name("NV_694E.NVM"), Some(id));
        assert_eq!(id.file_name(), "nv_694e.nvm");
        assert_eq!(RegionId::new(0x4e, 0x69), id);
        assert_eq!(RegionId::from_file_name("nv_69g4.nvm"), None);
        assert_eq!(RegionId::from_file_name("nv_694e.bin"), None);
        assert_eq!(RegionId::from_file_name("nv_+94e.nvm"), None);
        assert!(RegionId(0x8001).is_dungeon());
    }
}
