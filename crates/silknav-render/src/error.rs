//! What can go wrong when making a picture.

use jmxv::RegionId;
use std::fmt;

/// Why a picture could not be made.
#[derive(Debug)]
#[non_exhaustive]
pub enum RenderError {
    /// The map holds no terrain region to draw.
    NoRegions,
    /// The dungeon map holds no block with a vertex to draw ([`crate::render_dungeon`]).
    NoBlocks,
    /// `dungeoninfo.txt` names no such dungeon, or its layout is not among the files.
    NoDungeon {
        /// The dungeon asked for.
        region: RegionId,
        /// The dungeons `dungeoninfo.txt` names.
        dungeons: Vec<RegionId>,
    },
    /// A block's `.bsr`, or the `.bms` it names, is not among the files.
    MissingBlockFile(silknav::files::MissingBlockFile),
    /// The dungeon has no block on the floor asked for.
    NoFloor {
        /// The floor asked for.
        floor: u32,
        /// The floors it has.
        floors: Vec<u32>,
    },
    /// [`crate::RenderOptions::region`] names a region that is not in the map.
    RegionNotInWorld(RegionId),
    /// The scale is not a finite number of pixels per tile above zero.
    BadScale(f32),
    /// The picture would be larger than the hard limits ([`crate::MAX_SIDE`] pixels per side,
    /// [`crate::MAX_PIXELS`] pixels in all).
    TooLarge {
        /// Width the options asked for, in pixels.
        width: u64,
        /// Height the options asked for, in pixels.
        height: u64,
    },
    /// [`crate::RenderOptions::max_size`] leaves no room for the map beside the title and
    /// legend.
    MaxSizeTooSmall {
        /// The size given.
        max_size: u32,
        /// The smallest size that would fit.
        needed: u32,
    },
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::NoRegions => f.write_str("no terrain region to draw"),
            RenderError::NoBlocks => f.write_str("no dungeon block to draw"),
            RenderError::NoDungeon { region, dungeons } => {
                let ids: Vec<String> = dungeons.iter().map(|r| (r.0 & 0x7FFF).to_string()).collect();
                write!(
                    f,
                    "dungeoninfo.txt names no dungeon {}, or its layout is missing; dungeons: {}",
                    region.0 & 0x7FFF,
                    if ids.is_empty() { "none".to_owned() } else { ids.join(", ") }
                )
            }
            RenderError::MissingBlockFile(e) => write!(f, "{e}"),
            RenderError::NoFloor { floor, floors } => {
                let list: Vec<String> = floors.iter().map(u32::to_string).collect();
                write!(f, "floor {floor}: no block on it; the floors: {}", list.join(", "))
            }
            RenderError::RegionNotInWorld(r) => {
                write!(f, "region {} ({}) is not in the world", r, r.file_name())
            }
            RenderError::BadScale(s) => {
                write!(f, "scale {s} is not a positive number of pixels per tile")
            }
            RenderError::TooLarge { width, height } => write!(
                f,
                "a {width}×{height} picture is too large (at most {} pixels a side, {} in all)",
                crate::MAX_SIDE,
                crate::MAX_PIXELS
            ),
            RenderError::MaxSizeTooSmall { max_size, needed } => write!(
                f,
                "a maximum size of {max_size} pixels leaves no room for the map (needs at least {needed})"
            ),
        }
    }
}

/// No variant wraps another error: a picture is made in memory, and its file is written by the
/// caller (`silknav::files::write_atomic`).
impl std::error::Error for RenderError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_error_repeats_its_source() {
        for e in [
            RenderError::NoRegions,
            RenderError::RegionNotInWorld(RegionId(0x694e)),
            RenderError::BadScale(-1.0),
            RenderError::TooLarge {
                width: 1 << 20,
                height: 1,
            },
            RenderError::MaxSizeTooSmall {
                max_size: 10,
                needed: 200,
            },
        ] {
            let texts = silknav_testkit::error_chain(&e);
            assert_eq!(texts.len(), 1, "{e:?} has no source");
            assert!(!texts[0].is_empty());
        }
    }
}
