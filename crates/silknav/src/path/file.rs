//! The path index file: the index's arrays as plain little-endian records, read back in place
//! from a map of the file (on Unix; elsewhere from one read).
//!
//! `docs/format.md` documents every byte; in short:
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `SNAVPIDX` |
//! | 8 | 4 | format version ([`FORMAT_VERSION`]) |
//! | 12 | 4 | `0x01020304`, stored little-endian: `04 03 02 01` |
//! | 16 | 8 | the file's length in bytes |
//! | 24 | 8 | XXH3-64 of every byte from offset 32 to the end |
//! | 32 | 16 | the inputs digest ([`InputsDigest`]) |
//! | 48 | 4 | section count n |
//! | 52 | 4 | flags, 0 |
//! | 56 | 8 | nanoseconds the build took |
//! | 64 | 32·n | section table: name (8 bytes, ASCII, zero-padded), offset (8), length in bytes (8), record size (4), 0 (4) |
//!
//! then the sections, each at an offset that is a multiple of 8, zero bytes between. Readers
//! skip sections whose names they do not know, so a later structure (objects in the path
//! search) is one more section.
//!
//! Reading checks, in this order, the magic, the byte order, the version, the length, the
//! checksum, the table and every cross-reference the queries follow (so that no file, however
//! made, can make a query panic or loop); a world then accepts the index only if its inputs
//! digest and regions are the world's own ([`crate::path::PathIndex::from_file`]).

use super::array::{Array, FileBuffer, FileBytes};
use super::index::{Rect, TerrainIndex, NONE};
use super::landmarks;
use crate::files::{IndexFileError, InputsDigest, PathIndexError, FORMAT_VERSION, MAGIC};
use crate::world::Position;
use bytemuck::Pod;
use jmxv::nvm::TILES_PER_SIDE;
use rayon::prelude::*;

use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use xxhash_rust::xxh3::Xxh3;

/// Bytes of the fixed header.
const HEADER_LEN: usize = 64;
/// Bytes of one section table entry.
const ENTRY_LEN: usize = 32;
/// The byte-order mark as a number.
const BYTE_ORDER: u32 = 0x0102_0304;
/// Where the checksummed bytes start: after the magic, version, byte order, length and the
/// checksum itself.
const CHECKED_FROM: usize = 32;

/// A path index read from a file and checked, not yet given to a world
/// ([`crate::path::PathIndex::from_file`]).
#[derive(Debug, Clone)]
pub struct PathIndexFile {
    pub(crate) index: TerrainIndex,
    pub(crate) digest: InputsDigest,
}

impl PathIndexFile {
    /// Reads and checks an index file: maps it on Unix (elsewhere, or where the system cannot
    /// map it, reads it whole with one read) and views its arrays in place.
    ///
    /// A mapped file must not change while the index is in use: silknav replaces index files
    /// by rename ([`crate::path::PathIndex::write`]), which leaves a mapped file as it was;
    /// a file rewritten or cut short in place by another program gives other answers, a panic,
    /// or (cut short) the system's bus error.
    ///
    /// # Errors
    /// The file cannot be read, or is not a sound index file (see [`IndexFileError`]).
    pub fn read(path: impl AsRef<Path>) -> Result<PathIndexFile, PathIndexError> {
        let path = path.as_ref();
        let fail = |error| PathIndexError {
            path: path.to_path_buf(),
            error,
        };
        let started = Instant::now();
        let mut file = std::fs::File::open(path).map_err(|e| fail(IndexFileError::Io(e)))?;
        let buffer = match map(&file) {
            Ok(map) => FileBuffer::Mapped(map),
            Err(_) => read_whole(&mut file).map_err(|e| fail(IndexFileError::Io(e)))?,
        };
        let mut file = PathIndexFile::parse(Arc::new(buffer)).map_err(fail)?;
        if let Some((_, load)) = &mut file.index.file {
            *load = started.elapsed();
        }
        Ok(file)
    }

    /// Checks the bytes of an index file (copied once into an aligned buffer).
    ///
    /// # Errors
    /// Bytes that are not a sound index file (see [`IndexFileError`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<PathIndexFile, IndexFileError> {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..bytes.len()].copy_from_slice(bytes);
        PathIndexFile::parse(Arc::new(FileBuffer::Read {
            words,
            len: bytes.len(),
        }))
    }

    /// The digest of the inputs the index was built from.
    pub fn inputs_digest(&self) -> InputsDigest {
        self.digest
    }

    /// What the index holds.
    pub fn stats(&self) -> super::PathIndexStats {
        super::PathIndexStats::of(&self.index)
    }

    /// The bytes of `file` as an index file.
    fn parse(file: FileBytes) -> Result<PathIndexFile, IndexFileError> {
        let bytes = file.bytes();
        let header = read_header(bytes)?;
        let sections = read_table(bytes, header.sections)?;
        let mut index = TerrainIndex {
            build_time: Duration::from_nanos(header.build_nanos),
            ..TerrainIndex::default()
        };
        let view = Views {
            file: &file,
            sections: &sections,
        };
        index.region_ids = view.array(REGIONS)?;
        index.region_rect_base = view.array(REGION_RECTS)?;
        index.tile_rect = view.array(TILES)?;
        index.rects = view.array(RECTS)?;
        index.portals = view.array(PORTALS)?;
        index.contacts = view.array(CONTACTS)?;
        index.rect_corners = view.array(RECT_CORNERS)?;
        index.corners = view.array(CORNERS)?;
        index.corner_roots = view.array(CORNER_ROOTS)?;
        index.component = view.array(COMPONENTS)?;
        index.edge_start = view.array(EDGE_START)?;
        index.edges = view.array(EDGES)?;
        index.seen_start = view.array(SEEN_START)?;
        index.seen = view.array(SEEN)?;
        // Files written before landmarks were kept have none: their searches go without.
        index.landmarks = view.optional_array(LANDMARKS)?;
        check(&index, &view)?;
        // Made, not stored: they are small and quick to make where they are kept at all.
        index.seen_blocks = super::graph::SeenBlocks::new(&index.corners, &index.seen);
        index.turn_cuts = super::index::TurnCuts::new(index.corners.len());
        index.table = super::table::CornerTable::build(&index).map(Arc::new);
        index.file = Some((file, Duration::ZERO));
        Ok(PathIndexFile {
            index,
            digest: header.digest,
        })
    }
}

/// The file mapped read-only, its pages read ahead of use (the checksum reads them all): far
/// quicker than reading it into the heap and checksumming that, where the kernel clears every
/// page of the buffer, then copies the file into it (`benches/index.rs` of
/// `crates/silknav-bench` reads it back; figures in `docs/design/paths.md`). Only on Unix:
/// Windows refuses to replace a mapped file, so mapping there would stop
/// `silknav index --force` while a server uses the file.
#[cfg(unix)]
#[allow(unsafe_code)]
fn map(file: &std::fs::File) -> io::Result<memmap2::Mmap> {
    // SAFETY: the map is read-only and read only through the `&[u8]` of `FileBuffer::bytes`,
    // which must not change while mapped: silknav never writes an index file in place (it
    // writes a new file and renames it over the old one, whose mapped pages stay as they
    // were), and `PathIndexFile::read` tells other writers to do the same.
    unsafe { memmap2::MmapOptions::new().populate().map(file) }
}

/// Not mapped where the system keeps a mapped file from being replaced ([`map`] on Unix).
#[cfg(not(unix))]
fn map(_: &std::fs::File) -> io::Result<memmap2::Mmap> {
    Err(io::ErrorKind::Unsupported.into())
}

/// The whole file read into an 8-aligned buffer, where it cannot be mapped.
fn read_whole(file: &mut std::fs::File) -> io::Result<FileBuffer> {
    let len = usize::try_from(file.metadata()?.len()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            "larger than this machine's address space",
        )
    })?;
    // The file's own size bounds the buffer; reading one byte more proves it did not grow.
    let mut words = vec![0u64; len.div_ceil(8) + 1];
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
    let mut read = 0;
    while read < bytes.len() {
        match file.read(&mut bytes[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    words.truncate(read.div_ceil(8));
    Ok(FileBuffer::Read { words, len: read })
}

/// A section of the format: its name and record size.
#[derive(Debug, Clone, Copy)]
struct Kind {
    name: &'static str,
    record: usize,
}

const REGIONS: Kind = Kind {
    name: "regions",
    record: 2,
};
const REGION_RECTS: Kind = Kind {
    name: "regrects",
    record: 4,
};
const TILES: Kind = Kind {
    name: "tiles",
    record: 2,
};
const RECTS: Kind = Kind {
    name: "rects",
    record: 40,
};
const PORTALS: Kind = Kind {
    name: "portals",
    record: 20,
};
const CONTACTS: Kind = Kind {
    name: "contacts",
    record: 20,
};
const RECT_CORNERS: Kind = Kind {
    name: "rcorners",
    record: 16,
};
const CORNERS: Kind = Kind {
    name: "corners",
    record: 12,
};
const CORNER_ROOTS: Kind = Kind {
    name: "croots",
    record: 16,
};
const COMPONENTS: Kind = Kind {
    name: "comps",
    record: 4,
};
const EDGE_START: Kind = Kind {
    name: "edgestrt",
    record: 4,
};
const EDGES: Kind = Kind {
    name: "edges",
    record: 8,
};
const SEEN_START: Kind = Kind {
    name: "seenstrt",
    record: 4,
};
const SEEN: Kind = Kind {
    name: "seen",
    record: 20,
};
const LANDMARKS: Kind = Kind {
    name: "landmrks",
    record: std::mem::size_of::<landmarks::Row>(),
};

/// Every section this version writes, in file order.
const KINDS: [Kind; 15] = [
    REGIONS,
    REGION_RECTS,
    TILES,
    RECTS,
    PORTALS,
    CONTACTS,
    RECT_CORNERS,
    CORNERS,
    CORNER_ROOTS,
    COMPONENTS,
    EDGE_START,
    EDGES,
    SEEN_START,
    SEEN,
    LANDMARKS,
];

/// The fixed header's fields that reading needs.
struct Header {
    digest: InputsDigest,
    sections: usize,
    build_nanos: u64,
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// The header, checked: magic, byte order, version, length and checksum.
fn read_header(bytes: &[u8]) -> Result<Header, IndexFileError> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(IndexFileError::NotAnIndex {
            found: bytes[..bytes.len().min(MAGIC.len())].to_vec(),
        });
    }
    if bytes.len() < HEADER_LEN {
        return Err(IndexFileError::malformed(
            bytes.len(),
            "header",
            format!(
                "the header needs {HEADER_LEN} bytes, the file has {}",
                bytes.len()
            ),
        ));
    }
    let order: [u8; 4] = bytes[12..16].try_into().expect("4 bytes");
    if order != BYTE_ORDER.to_le_bytes() || cfg!(target_endian = "big") {
        return Err(IndexFileError::ByteOrder { found: order });
    }
    let version = u32_at(bytes, 8);
    if version != FORMAT_VERSION {
        return Err(IndexFileError::Version { found: version });
    }
    let length = u64_at(bytes, 16);
    if length != bytes.len() as u64 {
        return Err(IndexFileError::Length {
            header: length,
            actual: bytes.len() as u64,
        });
    }
    let stored = u64_at(bytes, 24);
    let computed = checksum(&bytes[CHECKED_FROM..]);
    if stored != computed {
        return Err(IndexFileError::Checksum { stored, computed });
    }
    let flags = u32_at(bytes, 52);
    if flags != 0 {
        return Err(IndexFileError::malformed(
            52,
            "header.flags",
            format!("flags {flags:#x}, expected 0"),
        ));
    }
    Ok(Header {
        digest: InputsDigest(bytes[32..48].try_into().expect("16 bytes")),
        sections: u32_at(bytes, 48) as usize,
        build_nanos: u64_at(bytes, 56),
    })
}

/// The checksum of the checked bytes (XXH3-64, tens of gigabytes a second: a fraction of the
/// time the read takes).
fn checksum(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// A section table entry.
#[derive(Debug, Clone)]
struct Entry {
    name: String,
    offset: usize,
    length: usize,
    record: usize,
    /// Its place in the table, for messages.
    slot: usize,
}

/// The section table, checked: names, alignment, bounds, order, no overlaps.
fn read_table(bytes: &[u8], count: usize) -> Result<Vec<Entry>, IndexFileError> {
    let table_end = count
        .checked_mul(ENTRY_LEN)
        .and_then(|n| n.checked_add(HEADER_LEN))
        .filter(|&end| end <= bytes.len())
        .ok_or_else(|| {
            IndexFileError::malformed(
                48,
                "header.sections",
                format!(
                    "{count} sections need a table of {} bytes, the file has {} after the header",
                    count as u128 * ENTRY_LEN as u128,
                    bytes.len() - HEADER_LEN
                ),
            )
        })?;
    let mut entries: Vec<Entry> = Vec::with_capacity(count);
    let mut end_of_last = table_end;
    for slot in 0..count {
        let at = HEADER_LEN + slot * ENTRY_LEN;
        let section = format!("sections[{slot}]");
        let raw_name = &bytes[at..at + 8];
        let name_len = raw_name.iter().position(|&b| b == 0).unwrap_or(8);
        let name = std::str::from_utf8(&raw_name[..name_len])
            .ok()
            .filter(|n| {
                !n.is_empty()
                    && n.bytes().all(|b| b.is_ascii_graphic())
                    && raw_name[name_len..].iter().all(|&b| b == 0)
            })
            .ok_or_else(|| {
                IndexFileError::malformed(
                    at,
                    format!("{section}.name"),
                    format!("{raw_name:02x?} is not an ASCII name padded with zero bytes"),
                )
            })?
            .to_owned();
        let section = format!("sections[{slot}] ({name})");
        let offset = u64_at(bytes, at + 8);
        let length = u64_at(bytes, at + 16);
        let record = u32_at(bytes, at + 24) as usize;
        let reserved = u32_at(bytes, at + 28);
        if reserved != 0 {
            return Err(IndexFileError::malformed(
                at + 28,
                section,
                format!("reserved field {reserved:#x}, expected 0"),
            ));
        }
        if offset % 8 != 0 || offset < end_of_last as u64 {
            return Err(IndexFileError::malformed(
                at + 8,
                section,
                format!(
                    "offset {offset} is not a multiple of 8 at or after byte {end_of_last} (the end of what comes before it)"
                ),
            ));
        }
        let end = offset
            .checked_add(length)
            .filter(|&end| end <= bytes.len() as u64)
            .ok_or_else(|| {
                IndexFileError::malformed(
                    at + 16,
                    section.clone(),
                    format!(
                        "{length} bytes from offset {offset} run past the end of the file ({} bytes)",
                        bytes.len()
                    ),
                )
            })?;
        if record == 0 || length % record as u64 != 0 {
            return Err(IndexFileError::malformed(
                at + 24,
                section,
                format!("{length} bytes are not a whole number of {record}-byte records"),
            ));
        }
        if let Some(kind) = KINDS.iter().find(|k| k.name == name) {
            if kind.record != record {
                return Err(IndexFileError::malformed(
                    at + 24,
                    section,
                    format!("records of {record} bytes, expected {}", kind.record),
                ));
            }
        }
        if entries.iter().any(|e| e.name == name) {
            return Err(IndexFileError::malformed(
                at,
                section,
                "a second section of this name",
            ));
        }
        end_of_last = end as usize;
        entries.push(Entry {
            name,
            offset: offset as usize,
            length: length as usize,
            record,
            slot,
        });
    }
    Ok(entries)
}

/// The checked sections of one file, viewed as arrays.
struct Views<'a> {
    file: &'a FileBytes,
    sections: &'a [Entry],
}

impl Views<'_> {
    fn entry(&self, kind: Kind) -> Result<&Entry, IndexFileError> {
        self.sections
            .iter()
            .find(|e| e.name == kind.name)
            .ok_or_else(|| {
                IndexFileError::malformed(
                    48,
                    "header.sections",
                    format!("no section named {}", kind.name),
                )
            })
    }

    fn array<T: Pod>(&self, kind: Kind) -> Result<Array<T>, IndexFileError> {
        self.array_of(self.entry(kind)?)
    }

    /// The section's records, or none when the file has no such section.
    fn optional_array<T: Pod>(&self, kind: Kind) -> Result<Array<T>, IndexFileError> {
        match self.sections.iter().find(|e| e.name == kind.name) {
            Some(entry) => self.array_of(entry),
            None => Ok(Array::default()),
        }
    }

    fn array_of<T: Pod>(&self, entry: &Entry) -> Result<Array<T>, IndexFileError> {
        debug_assert_eq!(std::mem::size_of::<T>(), entry.record);
        Array::in_file(self.file, entry.offset, entry.length / entry.record).ok_or_else(|| {
            IndexFileError::malformed(
                HEADER_LEN + entry.slot * ENTRY_LEN + 8,
                format!("sections[{}] ({})", entry.slot, entry.name),
                "not aligned for its records",
            )
        })
    }

    /// The error about record `i` of a section.
    fn bad(&self, kind: Kind, i: usize, what: impl Into<String>) -> IndexFileError {
        let offset = self.entry(kind).map_or(0, |e| e.offset + i * kind.record);
        IndexFileError::malformed(offset, format!("{}[{i}]", kind.name), what)
    }
}

/// Every cross-reference the queries follow: ranges inside their arrays, ids inside theirs,
/// portals on their rectangle's side leading to a rectangle across it (so that scans move
/// away from their root and end), corners in the terrain id space.
fn check(index: &TerrainIndex, view: &Views<'_>) -> Result<(), IndexFileError> {
    let regions = index.region_ids.len();
    let rects = index.rects.len();
    let corners = index.corners.len();
    let tiles = TILES_PER_SIDE * TILES_PER_SIDE;
    let count = |kind: Kind, have: usize, want: usize| {
        if have == want {
            Ok(())
        } else {
            Err(view.bad(
                kind,
                0,
                format!("{have} records, expected {want} (one per {})", per(kind)),
            ))
        }
    };
    fn per(kind: Kind) -> &'static str {
        match kind.name {
            "regrects" => "region",
            "tiles" => "tile of every region",
            "edgestrt" => "corner, and one more",
            "seenstrt" => "rectangle, and one more",
            "croots" | "landmrks" => "corner",
            _ => "rectangle",
        }
    }
    if let Some(i) = (1..regions).find(|&i| index.region_ids[i - 1] >= index.region_ids[i]) {
        return Err(view.bad(REGIONS, i, "region ids are not ascending"));
    }
    count(REGION_RECTS, index.region_rect_base.len(), regions)?;
    count(TILES, index.tile_rect.len(), regions * tiles)?;
    let base = &index.region_rect_base;
    for r in 0..regions {
        let next = if r + 1 < regions {
            base[r + 1] as usize
        } else {
            rects
        };
        if base[r] as usize > next || (r == 0 && base[0] != 0) {
            return Err(view.bad(
                REGION_RECTS,
                r,
                format!(
                    "first rectangle {} outside {}..={next}",
                    base[r],
                    if r == 0 { 0 } else { base[r - 1] }
                ),
            ));
        }
    }
    // Each region's tiles name rectangles of that region: one pass over all of them.
    let bad_tile = index
        .tile_rect
        .par_chunks(tiles)
        .enumerate()
        .find_map_first(|(r, region_tiles)| {
            let next = if r + 1 < regions {
                base[r + 1] as usize
            } else {
                rects
            };
            let local = next - base[r] as usize;
            // `v + 1` wraps the "not walkable" u16::MAX to 0, so a tile names a rectangle past
            // the region's exactly when `v + 1 > local`: a maximum the compiler vectorises
            // (30 million tiles on 3,300 regions), and the search for the tile only on failure.
            let highest = region_tiles.iter().map(|&v| v.wrapping_add(1)).max()?;
            if usize::from(highest) <= local {
                return None;
            }
            let t = region_tiles
                .iter()
                .position(|&v| v != u16::MAX && usize::from(v) >= local)?;
            Some((r * tiles + t, region_tiles[t], local))
        });
    if let Some((i, rect, local)) = bad_tile {
        return Err(view.bad(
            TILES,
            i,
            format!("rectangle {rect} of a region with {local}"),
        ));
    }
    for (i, rect) in index.rects.iter().enumerate() {
        check_rect(index, view, i, rect)?;
    }
    if rects == 0 && !(index.portals.is_empty() && index.contacts.is_empty()) {
        return Err(view.bad(PORTALS, 0, "portals without rectangles"));
    }
    // The ranges follow on from each other and end at the lists' ends (checked above), so
    // every portal and contact is some rectangle's.
    for (r, rect) in index.rects.iter().enumerate() {
        for (kind, [a, b]) in [(PORTALS, rect.portals), (CONTACTS, rect.contacts)] {
            for i in a as usize..b as usize {
                check_portal(index, view, kind, i, r)?;
            }
        }
    }
    if let Some(i) = index
        .rect_corners
        .iter()
        .position(|c| c.id as usize >= corners)
    {
        return Err(view.bad(
            RECT_CORNERS,
            i,
            format!("corner {} of {corners}", index.rect_corners[i].id),
        ));
    }
    for (i, c) in index.corners.iter().enumerate() {
        let p = c.point();
        if Position::from_world(p[0], p[1]).is_none() || c.arc.iter().any(|&a| a >= 8) {
            return Err(view.bad(
                CORNERS,
                i,
                format!(
                    "vertex ({}, {}) outside the terrain, or arc {:?} not of direction classes 0 to 7",
                    c.gx, c.gz, c.arc
                ),
            ));
        }
    }
    count(CORNER_ROOTS, index.corner_roots.len(), corners)?;
    if let Some(i) = index
        .corner_roots
        .iter()
        .position(|roots| roots.iter().any(|&r| r != NONE && r as usize >= rects))
    {
        return Err(view.bad(CORNER_ROOTS, i, format!("a rectangle past {rects}")));
    }
    count(COMPONENTS, index.component.len(), rects)?;
    check_starts(
        view,
        EDGE_START,
        &index.edge_start,
        corners,
        index.edges.len(),
    )?;
    // The largest target first, by chunks (a maximum the compiler vectorises; rayon's
    // per-item search costs several times the 13.6 million edges' scan on 3,300 regions), and
    // the edge itself only on failure.
    let highest = index
        .edges
        .par_chunks(1 << 16)
        .map(|chunk| chunk.iter().map(|e| e.to).max().unwrap_or(0))
        .max()
        .unwrap_or(0);
    if let Some(i) = (highest as usize >= corners)
        .then(|| index.edges.iter().position(|e| e.to as usize >= corners))
        .flatten()
    {
        return Err(view.bad(
            EDGES,
            i,
            format!("corner {} of {corners}", index.edges[i].to),
        ));
    }
    if index.seen_start.is_empty() {
        if !index.seen.is_empty() {
            return Err(view.bad(SEEN, 0, "records without a seenstrt section to find them"));
        }
    } else {
        check_starts(view, SEEN_START, &index.seen_start, rects, index.seen.len())?;
        if let Some(i) = index.seen.iter().position(|s| s.corner as usize >= corners) {
            return Err(view.bad(
                SEEN,
                i,
                format!("corner {} of {corners}", index.seen[i].corner),
            ));
        }
        // Searches find a corner's records of a rectangle by bisection.
        for r in 0..rects {
            let (a, b) = (
                index.seen_start[r] as usize,
                index.seen_start[r + 1] as usize,
            );
            if let Some(i) = (a + 1..b).find(|&i| index.seen[i - 1].corner > index.seen[i].corner) {
                return Err(view.bad(
                    SEEN,
                    i,
                    format!("rectangle {r}'s records are not ascending by corner"),
                ));
            }
        }
    }
    // Distances bound what is left of a search: a NaN or a negative one would mislead it.
    if !index.landmarks.is_empty() {
        count(LANDMARKS, index.landmarks.len(), corners)?;
        if let Some(i) = index
            .landmarks
            .iter()
            .position(|row| row.iter().any(|d| !(*d >= 0.0)))
        {
            return Err(view.bad(
                LANDMARKS,
                i,
                format!(
                    "distances {:?}: each must be 0 or more (or infinite)",
                    index.landmarks[i]
                ),
            ));
        }
    }
    Ok(())
}

/// A rectangle: not empty, and its ranges contiguous with the previous one's, inside their
/// lists.
fn check_rect(
    index: &TerrainIndex,
    view: &Views<'_>,
    i: usize,
    rect: &Rect,
) -> Result<(), IndexFileError> {
    if rect.x0 >= rect.x1 || rect.z0 >= rect.z1 {
        return Err(view.bad(
            RECTS,
            i,
            format!(
                "empty rectangle x {}..{} z {}..{}",
                rect.x0, rect.x1, rect.z0, rect.z1
            ),
        ));
    }
    type Range = fn(&Rect) -> [u32; 2];
    let lists: [(&str, [u32; 2], usize, Range); 3] = [
        ("portals", rect.portals, index.portals.len(), |r: &Rect| {
            r.portals
        }),
        (
            "contacts",
            rect.contacts,
            index.contacts.len(),
            |r: &Rect| r.contacts,
        ),
        (
            "corners",
            rect.corners,
            index.rect_corners.len(),
            |r: &Rect| r.corners,
        ),
    ];
    for (name, [a, b], len, range) in lists {
        let previous_end = if i == 0 {
            0
        } else {
            range(&index.rects[i - 1])[1]
        };
        let last = i + 1 == index.rects.len();
        if a != previous_end || a > b || b as usize > len || (last && b as usize != len) {
            return Err(view.bad(
                RECTS,
                i,
                format!(
                    "{name} {a}..{b}: not following on from {previous_end}, or not inside the {len} there are"
                ),
            ));
        }
    }
    Ok(())
}

/// A portal or contact of rectangle `r`: on one of its sides, inside it, leading to a
/// rectangle across that side whose own side holds it.
fn check_portal(
    index: &TerrainIndex,
    view: &Views<'_>,
    kind: Kind,
    i: usize,
    r: usize,
) -> Result<(), IndexFileError> {
    let list = if kind.name == "portals" {
        &index.portals
    } else {
        &index.contacts
    };
    let p = &list[i];
    let rect = &index.rects[r];
    let Some(to) = index.rects.get(p.to as usize) else {
        return Err(view.bad(
            kind,
            i,
            format!("rectangle {} of {}", p.to, index.rects.len()),
        ));
    };
    // (own line, own extent, target's facing line, target's extent) for the side.
    let (own, extent, facing, across) = match p.side {
        0 => (rect.x0, (rect.z0, rect.z1), to.x1, (to.z0, to.z1)),
        1 => (rect.x1, (rect.z0, rect.z1), to.x0, (to.z0, to.z1)),
        2 => (rect.z0, (rect.x0, rect.x1), to.z1, (to.x0, to.x1)),
        3 => (rect.z1, (rect.x0, rect.x1), to.z0, (to.x0, to.x1)),
        side => return Err(view.bad(kind, i, format!("side {side}, expected 0 to 3"))),
    };
    let inside = |(lo, hi): (i32, i32)| lo <= p.lo && p.lo < p.hi && p.hi <= hi;
    if p.line != own || facing != own || !inside(extent) || !inside(across) || p.ends_walled > 3 {
        return Err(view.bad(
            kind,
            i,
            format!(
                "line {} at {}..{} is not on side {} of rectangle {r} and of rectangle {} across it",
                p.line, p.lo, p.hi, p.side, p.to
            ),
        ));
    }
    Ok(())
}

/// A start list of `n` items plus one: ascending from 0 to `total`.
fn check_starts(
    view: &Views<'_>,
    kind: Kind,
    starts: &[u32],
    n: usize,
    total: usize,
) -> Result<(), IndexFileError> {
    if starts.len() != n + 1 {
        return Err(view.bad(
            kind,
            0,
            format!("{} records, expected {}", starts.len(), n + 1),
        ));
    }
    if starts[0] != 0 || starts[n] as usize != total {
        return Err(view.bad(
            kind,
            0,
            format!(
                "runs from {} to {}, expected 0 to {total}",
                starts[0], starts[n]
            ),
        ));
    }
    if let Some(i) = (1..starts.len()).find(|&i| starts[i - 1] > starts[i]) {
        return Err(view.bad(kind, i, "starts are not ascending"));
    }
    Ok(())
}

/// The sections of an index: (kind, bytes), in file order.
fn sections_of(index: &TerrainIndex) -> [(Kind, &[u8]); 15] {
    fn b<T: Pod>(a: &[T]) -> &[u8] {
        bytemuck::cast_slice(a)
    }
    [
        (REGIONS, b(&index.region_ids)),
        (REGION_RECTS, b(&index.region_rect_base)),
        (TILES, b(&index.tile_rect)),
        (RECTS, b(&index.rects)),
        (PORTALS, b(&index.portals)),
        (CONTACTS, b(&index.contacts)),
        (RECT_CORNERS, b(&index.rect_corners)),
        (CORNERS, b(&index.corners)),
        (CORNER_ROOTS, b(&index.corner_roots)),
        (COMPONENTS, b(&index.component)),
        (EDGE_START, b(&index.edge_start)),
        (EDGES, b(&index.edges)),
        (SEEN_START, b(&index.seen_start)),
        (SEEN, b(&index.seen)),
        (LANDMARKS, b(&index.landmarks)),
    ]
}

/// Writes the index as a file: header, table, sections; returns the bytes written.
///
/// # Errors
/// Those of `out`; and on a big-endian machine, which cannot write the layout in place.
pub(crate) fn write(
    index: &TerrainIndex,
    digest: InputsDigest,
    out: &mut dyn Write,
) -> io::Result<u64> {
    if cfg!(target_endian = "big") {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "path index files are little-endian; this machine is big-endian",
        ));
    }
    let sections = sections_of(index);
    let mut table = Vec::with_capacity(sections.len() * ENTRY_LEN);
    let mut offset = (HEADER_LEN + sections.len() * ENTRY_LEN) as u64;
    for (kind, bytes) in &sections {
        let mut name = [0u8; 8];
        name[..kind.name.len()].copy_from_slice(kind.name.as_bytes());
        table.extend_from_slice(&name);
        table.extend_from_slice(&offset.to_le_bytes());
        table.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        table.extend_from_slice(&(kind.record as u32).to_le_bytes());
        table.extend_from_slice(&0u32.to_le_bytes());
        offset += padded(bytes.len()) as u64;
    }
    let length = offset;
    let mut header = [0u8; HEADER_LEN];
    header[..8].copy_from_slice(&MAGIC);
    header[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    header[12..16].copy_from_slice(&BYTE_ORDER.to_le_bytes());
    header[16..24].copy_from_slice(&length.to_le_bytes());
    header[32..48].copy_from_slice(&digest.0);
    header[48..52].copy_from_slice(&(sections.len() as u32).to_le_bytes());
    let nanos = u64::try_from(index.build_time.as_nanos()).unwrap_or(u64::MAX);
    header[56..64].copy_from_slice(&nanos.to_le_bytes());
    // The checksum covers what follows it, so it is computed before anything is written.
    const ZEROS: [u8; 8] = [0; 8];
    let mut sum = Xxh3::new();
    sum.update(&header[CHECKED_FROM..]);
    sum.update(&table);
    for (_, bytes) in &sections {
        sum.update(bytes);
        sum.update(&ZEROS[..padded(bytes.len()) - bytes.len()]);
    }
    header[24..32].copy_from_slice(&sum.digest().to_le_bytes());
    out.write_all(&header)?;
    out.write_all(&table)?;
    for (_, bytes) in &sections {
        out.write_all(bytes)?;
        out.write_all(&ZEROS[..padded(bytes.len()) - bytes.len()])?;
    }
    Ok(length)
}

/// A length rounded up to a multiple of 8.
fn padded(len: usize) -> usize {
    len.div_ceil(8) * 8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The read where no map is made gives the file's bytes, whatever its length.
    #[test]
    fn the_whole_read_gives_the_files_bytes() {
        let dir = tempfile::tempdir().unwrap();
        for len in [0usize, 1, 7, 8, 9, 4096, 10_001] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            let path = dir.path().join(format!("{len}.bin"));
            std::fs::write(&path, &bytes).unwrap();
            let buffer = read_whole(&mut std::fs::File::open(&path).unwrap()).unwrap();
            assert!(matches!(buffer, FileBuffer::Read { .. }));
            assert_eq!(buffer.bytes(), &bytes[..], "{len} bytes");
            assert_eq!(buffer.bytes().as_ptr() as usize % 8, 0, "aligned");
        }
    }
}
