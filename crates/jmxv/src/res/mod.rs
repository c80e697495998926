//! `.bsr` (`JMXVRES 0109`) and `.cpd` (`JMXVCPD 0101`): the files an `object.ifo` path may name
//! instead of a `.bms`, read just far enough to find the next file of the chain.
//!
//! A `.bsr` resource names its collision mesh: the u32 at 0x28 (the eighth header offset) is
//! the position of a length-prefixed path, the `.bms` whose navigation section the server
//! loads. A `.cpd` compound names its collision resource: the u32 at 0x0C is the position of a
//! length-prefixed path, a `.bsr`. [`ResourceFile`] reads that one pointer and that one path,
//! and keeps every byte as it was: writing gives back the bytes read. Paths are kept as the
//! bytes they are (the game's text is CP949). `docs/format.md` ("`.bsr` and `.cpd`") has the
//! sources and the decisions.
//!
//! ```
//! use jmxv::res::{ResourceFile, ResourceKind};
//!
//! let bsr = ResourceFile::minimal(ResourceKind::Resource, b"prim\\mtrl\\house01.bms");
//! let bytes = bsr.to_vec();
//! let back = ResourceFile::parse(&bytes)?;
//! assert_eq!(back.target_path(), Some(&b"prim\\mtrl\\house01.bms"[..]));
//! assert_eq!(back.to_vec(), bytes);
//! # Ok::<(), jmxv::Error>(())
//! ```

use crate::bytes::{u32_at, Place, Reader};
use crate::error::{describe_bytes, parse_path, parse_stream, Error, ErrorKind, ReadError};
use std::io::{self, Read, Write};
use std::ops::Range;
use std::path::Path;

/// Bytes of a signature.
pub const SIGNATURE_LEN: usize = 12;

/// Which of the two files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceKind {
    /// `.bsr`, `JMXVRES 0109`: a resource naming its collision `.bms` (pointer at 0x28).
    Resource,
    /// `.cpd`, `JMXVCPD 0101`: a compound naming its collision `.bsr` (pointer at 0x0C).
    Compound,
}

impl ResourceKind {
    /// Both kinds.
    pub const ALL: [ResourceKind; 2] = [ResourceKind::Resource, ResourceKind::Compound];

    /// The 12 signature bytes.
    pub const fn signature(self) -> &'static [u8; SIGNATURE_LEN] {
        match self {
            ResourceKind::Resource => b"JMXVRES 0109",
            ResourceKind::Compound => b"JMXVCPD 0101",
        }
    }

    /// Byte position of the u32 that points at the target path.
    pub const fn pointer_position(self) -> usize {
        match self {
            ResourceKind::Resource => 0x28,
            ResourceKind::Compound => 0x0C,
        }
    }

    /// The section name errors use for the target path.
    const fn target_section(self) -> &'static str {
        match self {
            ResourceKind::Resource => "collision_mesh",
            ResourceKind::Compound => "collision_resource",
        }
    }

    /// The file extension of this kind, lower case, without the dot.
    pub const fn extension(self) -> &'static str {
        match self {
            ResourceKind::Resource => "bsr",
            ResourceKind::Compound => "cpd",
        }
    }
}

/// A `.bsr` or `.cpd` file: its bytes, verbatim, and the one path silknav follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceFile {
    kind: ResourceKind,
    bytes: Vec<u8>,
    /// Where the target path's bytes are in `bytes` (after its u32 length); empty for none.
    target: Option<Range<usize>>,
}

impl ResourceFile {
    /// Parses a whole file: the signature, the pointer and the length-prefixed path it points
    /// at. A pointer of 0 means no target.
    ///
    /// # Errors
    /// A signature of neither kind, a file that ends before the pointer, a pointer past the
    /// end, or a path longer than the bytes left. The error names the byte offset and section.
    pub fn parse(bytes: &[u8]) -> Result<ResourceFile, Error> {
        let mut r = Reader::new(bytes);
        r.place = Place::section("signature");
        let found = &bytes[..bytes.len().min(SIGNATURE_LEN)];
        let Some(kind) = ResourceKind::ALL
            .into_iter()
            .find(|k| k.signature().as_slice() == found)
        else {
            return Err(Error::invalid(
                0,
                "signature",
                "\"JMXVRES 0109\" (.bsr) or \"JMXVCPD 0101\" (.cpd)",
                describe_bytes(found),
            ));
        };
        r.take(SIGNATURE_LEN)?;
        r.place = Place::section("header");
        r.take(kind.pointer_position() - SIGNATURE_LEN)?;
        r.place = Place::section(match kind {
            ResourceKind::Resource => "header.collision_offset",
            ResourceKind::Compound => "header.collision_resource_offset",
        });
        let pointer = r.u32()? as usize;
        let target = if pointer == 0 {
            None
        } else {
            let section = kind.target_section();
            let Some(len_bytes) = bytes.get(pointer..).filter(|b| b.len() >= 4) else {
                return Err(Error::invalid(
                    kind.pointer_position(),
                    section,
                    format!(
                        "0 or the position of a u32 length inside the file ({} bytes)",
                        bytes.len()
                    ),
                    pointer.to_string(),
                ));
            };
            let len = u32_at(len_bytes, 0) as usize;
            let start = pointer + 4;
            let left = bytes.len() - start;
            if len > left {
                return Err(Error::new(
                    start,
                    section,
                    ErrorKind::UnexpectedEnd { needed: len, left },
                ));
            }
            Some(start..start + len)
        };
        Ok(ResourceFile {
            kind,
            bytes: bytes.to_vec(),
            target,
        })
    }

    /// Reads and parses a file.
    ///
    /// # Errors
    /// The file cannot be read ([`ReadError::Io`]) or is malformed ([`ReadError::Format`]).
    pub fn from_path(path: impl AsRef<Path>) -> Result<ResourceFile, ReadError> {
        parse_path(path, Self::parse)
    }

    /// Reads a stream to its end and parses it.
    ///
    /// # Errors
    /// As for [`ResourceFile::from_path`].
    pub fn read_from(reader: impl Read) -> Result<ResourceFile, ReadError> {
        parse_stream(reader, Self::parse)
    }

    /// The smallest file of a kind naming `target`: the signature, a zeroed header with the
    /// pointer set, and the length-prefixed path right after the header. For tests and
    /// generated worlds; a game file has its other sections in between.
    pub fn minimal(kind: ResourceKind, target: &[u8]) -> ResourceFile {
        let header_end = kind.pointer_position() + 4;
        let mut bytes = Vec::with_capacity(header_end + 4 + target.len());
        bytes.extend_from_slice(kind.signature());
        bytes.resize(header_end, 0);
        bytes[kind.pointer_position()..header_end]
            .copy_from_slice(&(header_end as u32).to_le_bytes());
        bytes.extend_from_slice(&(target.len() as u32).to_le_bytes());
        bytes.extend_from_slice(target);
        let start = header_end + 4;
        ResourceFile {
            kind,
            target: Some(start..start + target.len()),
            bytes,
        }
    }

    /// Which kind of file, by its signature.
    pub fn kind(&self) -> ResourceKind {
        self.kind
    }

    /// The path of the next file (a `.bms` for a resource, a `.bsr` for a compound) as
    /// stored, or `None` when the pointer is 0 or the path is empty.
    pub fn target_path(&self) -> Option<&[u8]> {
        self.target
            .clone()
            .map(|range| &self.bytes[range])
            .filter(|p| !p.is_empty())
    }

    /// The file's bytes, exactly as read.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Bytes [`ResourceFile::to_vec`] writes.
    pub fn encoded_len(&self) -> usize {
        self.bytes.len()
    }

    /// The file: the bytes it was read from.
    pub fn to_vec(&self) -> Vec<u8> {
        self.bytes.clone()
    }

    /// Writes the file to a stream.
    ///
    /// # Errors
    /// Only those of `writer`.
    pub fn write_to(&self, mut writer: impl Write) -> io::Result<()> {
        writer.write_all(&self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_are_where_the_server_reads_them() {
        assert_eq!(ResourceKind::Resource.pointer_position(), 12 + 7 * 4);
        assert_eq!(ResourceKind::Compound.pointer_position(), 12);
        for kind in ResourceKind::ALL {
            let file = ResourceFile::minimal(kind, b"a\\b.bms");
            let bytes = file.to_vec();
            let pointer = u32_at(&bytes, kind.pointer_position()) as usize;
            assert_eq!(&bytes[pointer + 4..], b"a\\b.bms");
            assert_eq!(ResourceFile::parse(&bytes).unwrap(), file);
        }
    }

    #[test]
    fn fuzz_seeds() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/res_parse");
        for (name, kind, target) in [
            (
                "bsr.bin",
                ResourceKind::Resource,
                &b"prim\\mesh\\bridge_span.bms"[..],
            ),
            (
                "cpd.bin",
                ResourceKind::Compound,
                &b"res\\fort\\gate.bsr"[..],
            ),
        ] {
            let seed = std::fs::read(dir.join(name)).unwrap();
            assert_eq!(seed, ResourceFile::minimal(kind, target).to_vec(), "{name}");
        }
    }

    #[test]
    fn truncation_at_every_offset_is_an_error_that_says_where() {
        for kind in ResourceKind::ALL {
            let bytes = ResourceFile::minimal(kind, b"res\\x.bsr").to_vec();
            for n in 0..bytes.len() {
                let e = ResourceFile::parse(&bytes[..n]).unwrap_err();
                assert!(e.offset() <= n, "{kind:?} at {n}: {e}");
                assert!(!e.section().is_empty(), "{kind:?} at {n}: {e}");
            }
        }
    }

    #[test]
    fn a_zero_pointer_or_an_empty_path_is_no_target() {
        let mut bytes = ResourceFile::minimal(ResourceKind::Resource, b"").to_vec();
        let file = ResourceFile::parse(&bytes).unwrap();
        assert_eq!(file.target_path(), None);
        bytes[0x28..0x2c].fill(0);
        let file = ResourceFile::parse(&bytes).unwrap();
        assert_eq!(file.target_path(), None);
        assert_eq!(file.to_vec(), bytes);
    }

    #[test]
    fn bad_pointers_and_lengths_are_named() {
        let mut bytes = ResourceFile::minimal(ResourceKind::Compound, b"x.bsr").to_vec();
        bytes[12..16].copy_from_slice(&1000u32.to_le_bytes());
        let e = ResourceFile::parse(&bytes).unwrap_err();
        assert_eq!((e.offset(), e.section()), (12, "collision_resource"));
        let mut bytes = ResourceFile::minimal(ResourceKind::Resource, b"x.bms").to_vec();
        bytes[0x2c..0x30].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = ResourceFile::parse(&bytes).unwrap_err();
        assert_eq!((e.offset(), e.section()), (0x30, "collision_mesh"));
        assert!(matches!(e.kind(), ErrorKind::UnexpectedEnd { .. }), "{e}");
        let e = ResourceFile::parse(b"JMXVBMS 0110").unwrap_err();
        assert_eq!(e.section(), "signature");
    }
}
