//! `mapinfo.mfo` (`JMXVMFO 1000`): which regions of the world exist.
//!
//! # Layout
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 12 | signature `JMXVMFO 1000` |
//! | 12 | 2 | i16 width: columns of the map (x of a region id is below it) |
//! | 14 | 2 | i16 height: rows of the map (z of a region id is below it) |
//! | 16 | 8 | unknown; zero in the game's files, kept verbatim |
//! | 24 | 8,192 | bitmap, one bit per region id (65,536 bits) |
//! | 8,216 | … | trailing bytes (the game's file has none); kept verbatim |
//!
//! The bit of region `r` is in byte `r >> 3` under mask `0x80 >> (r & 7)`: the most significant
//! bit first. The game's file has width 256 and height 128 (every terrain region id fits), no
//! dungeon bit set (dungeons are not listed here), and about 3,300 regions enabled, x 45..252,
//! z 57..127. Readers differ on whether a bit outside width × height counts; lint warns about
//! such bits.
//!
//! # Lint codes
//! | code | severity | finding |
//! |---|---|---|
//! | M001 | error | width not in 1..=256 or height not in 1..=128: the map is not a part of the id space |
//! | M002 | warning | enabled terrain regions outside width × height (readers that scan only the map skip them) |
//! | M003 | warning | enabled dungeon regions (bit 15); the game's file lists none |
//! | M004 | warning | the unknown bytes are not zero, as they are in the game's files |
//! | M005 | warning | trailing bytes after the bitmap |
//! | M006 | warning | no region enabled |
//!
//! # Example
//! ```
//! use jmxv::{mfo::MapInfo, RegionId};
//!
//! let region = RegionId::new(78, 105);
//! let map = MapInfo::with_regions([region]);
//! let bytes = map.to_vec();
//! assert_eq!(bytes.len(), 8216);
//! assert_eq!(bytes[24 + (0x694e >> 3)], 0x80 >> (0x694e & 7));
//! let back = MapInfo::parse(&bytes)?;
//! assert!(back.is_enabled(region));
//! assert_eq!(back.enabled_regions().collect::<Vec<_>>(), [region]);
//! assert!(jmxv::mfo::lint(&back).is_empty());
//! # Ok::<(), jmxv::Error>(())
//! ```

mod lint;

pub use lint::{lint, CODES};

use crate::bytes::{Place, Reader};
use crate::error::{parse_path, parse_stream, Error, ErrorKind, ReadError};
use crate::RegionId;
use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

/// The signature every `mapinfo.mfo` starts with.
pub const SIGNATURE: &[u8; 12] = b"JMXVMFO 1000";
/// Bytes before the bitmap: signature, width, height, unknown.
pub const HEADER_LEN: usize = 24;
/// Bytes of the bitmap: one bit for each of the 65,536 region ids.
pub const BITMAP_LEN: usize = 8192;
/// Bytes of a file without trailing bytes, as the game's is.
pub const FILE_LEN: usize = HEADER_LEN + BITMAP_LEN;
/// The width of the game's map: every x.
pub const GAME_WIDTH: i16 = 256;
/// The height of the game's map: every z (the dungeon bit aside).
pub const GAME_HEIGHT: i16 = 128;

/// A whole `mapinfo.mfo`.
///
/// Fields are public and kept verbatim; [`lint`] says what looks wrong. `Debug` shows the
/// number of enabled regions rather than 8,192 bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct MapInfo {
    /// Columns of the map (i16 at offset 12).
    pub width: i16,
    /// Rows of the map (i16 at offset 14).
    pub height: i16,
    /// Eight bytes of unknown meaning at offset 16, zero in the game's files.
    pub unknown: [u8; 8],
    /// One bit per region id, most significant bit first; see [`MapInfo::is_enabled`].
    pub bitmap: Box<[u8; BITMAP_LEN]>,
    /// Bytes after the bitmap; the game's file has none.
    pub trailing: Vec<u8>,
}

impl Default for MapInfo {
    /// The game's map size with no region enabled.
    fn default() -> MapInfo {
        MapInfo {
            width: GAME_WIDTH,
            height: GAME_HEIGHT,
            unknown: [0; 8],
            bitmap: Box::new([0; BITMAP_LEN]),
            trailing: Vec::new(),
        }
    }
}

impl fmt::Debug for MapInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapInfo")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("unknown", &self.unknown)
            .field(
                "bitmap",
                &format_args!("{} regions enabled", self.enabled_count()),
            )
            .field("trailing", &self.trailing)
            .finish()
    }
}

/// Where the bit of a region lives: byte and mask.
const fn bit(region: RegionId) -> (usize, u8) {
    ((region.0 >> 3) as usize, 0x80 >> (region.0 & 7))
}

impl MapInfo {
    /// A map of the game's size (256 × 128, every terrain region id) with these regions
    /// enabled and the unknown bytes zero, as in the game's file.
    ///
    /// Dungeon ids are enabled too if given, though the game lists none (lint M003).
    pub fn with_regions(regions: impl IntoIterator<Item = RegionId>) -> MapInfo {
        let mut map = MapInfo::default();
        for region in regions {
            map.set_enabled(region, true);
        }
        map
    }

    /// Parses a whole file.
    ///
    /// # Errors
    /// A wrong signature, or input shorter than 8,216 bytes. The error names the byte offset
    /// and the section (`signature`, `width`, `height`, `unknown`, `bitmap`).
    pub fn parse(bytes: &[u8]) -> Result<MapInfo, Error> {
        let mut r = Reader::new(bytes);
        r.place = Place::section("signature");
        let found = &bytes[..bytes.len().min(SIGNATURE.len())];
        if found != SIGNATURE {
            // A short input that agrees as far as it goes is cut off, not mislabelled.
            let kind = if SIGNATURE.starts_with(found) {
                ErrorKind::UnexpectedEnd {
                    needed: SIGNATURE.len(),
                    left: bytes.len(),
                }
            } else {
                ErrorKind::BadSignature {
                    expected: SIGNATURE,
                    found: found.to_vec(),
                }
            };
            return Err(r.error(kind));
        }
        r.take(SIGNATURE.len())?;
        r.place = Place::section("width");
        let width = i16::from_le_bytes(r.array()?);
        r.place = Place::section("height");
        let height = i16::from_le_bytes(r.array()?);
        r.place = Place::section("unknown");
        let unknown = r.array()?;
        r.place = Place::section("bitmap");
        let mut bitmap = Box::new([0; BITMAP_LEN]);
        bitmap.copy_from_slice(r.take(BITMAP_LEN)?);
        let trailing = r.rest().to_vec();
        Ok(MapInfo {
            width,
            height,
            unknown,
            bitmap,
            trailing,
        })
    }

    /// Reads and parses a file.
    ///
    /// # Errors
    /// [`ReadError::Io`] when the file cannot be read, [`ReadError::Format`] as for
    /// [`MapInfo::parse`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<MapInfo, ReadError> {
        parse_path(path, Self::parse)
    }

    /// Reads a stream to its end and parses it.
    ///
    /// # Errors
    /// As for [`MapInfo::from_path`].
    pub fn read_from(reader: impl Read) -> Result<MapInfo, ReadError> {
        parse_stream(reader, Self::parse)
    }

    /// The exact size of the written file in bytes.
    pub fn encoded_len(&self) -> usize {
        FILE_LEN + self.trailing.len()
    }

    /// The file's bytes. Every model can be written.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.encoded_len());
        out.extend_from_slice(SIGNATURE);
        out.extend_from_slice(&self.width.to_le_bytes());
        out.extend_from_slice(&self.height.to_le_bytes());
        out.extend_from_slice(&self.unknown);
        out.extend_from_slice(&self.bitmap[..]);
        out.extend_from_slice(&self.trailing);
        out
    }

    /// Writes the file's bytes to a stream.
    ///
    /// # Errors
    /// An [`io::Error`] from the stream.
    pub fn write_to(&self, mut writer: impl Write) -> io::Result<()> {
        writer.write_all(&self.to_vec())
    }

    /// Whether the region's bit is set, whatever width and height say.
    pub fn is_enabled(&self, region: RegionId) -> bool {
        let (byte, mask) = bit(region);
        self.bitmap[byte] & mask != 0
    }

    /// Sets or clears the region's bit.
    pub fn set_enabled(&mut self, region: RegionId, enabled: bool) {
        let (byte, mask) = bit(region);
        if enabled {
            self.bitmap[byte] |= mask;
        } else {
            self.bitmap[byte] &= !mask;
        }
    }

    /// The regions whose bit is set, in ascending id order.
    pub fn enabled_regions(&self) -> impl Iterator<Item = RegionId> + '_ {
        self.bitmap
            .iter()
            .enumerate()
            .filter(|(_, &byte)| byte != 0)
            .flat_map(|(i, &byte)| {
                (0..8u16)
                    .filter(move |b| byte & (0x80 >> b) != 0)
                    .map(move |b| RegionId((i as u16) << 3 | b))
            })
    }

    /// Number of regions whose bit is set.
    pub fn enabled_count(&self) -> usize {
        self.bitmap.iter().map(|b| b.count_ones() as usize).sum()
    }
}
