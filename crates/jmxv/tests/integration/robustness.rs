//! Hostile and damaged input: truncation at every offset, counts that promise more than the
//! input holds, wrong signatures, and the inputs the fuzzers found. The reader must answer each
//! with an error that says where it stopped, never a panic, and never allocate more than the
//! input could fill.
//!
//! What a parse allocates is measured with [`allocated_by`](crate::allocated_by).

use jmxv::nvm::{
    boxed_array, Cell, GlobalEdge, InternalEdge, Layout, Link, NavMesh, Object, ParseOptions,
    Planes, Tile, HEIGHT_COUNT, SIGNATURE, TILE_COUNT,
};
use jmxv::{Error, ErrorKind, F32};
use std::path::PathBuf;

use crate::allocated_by;

/// Room for the error value and the harness's own allocations during a measurement; far below
/// the 111 KB of tile and height arrays, so even reading the tail early would show.
const SLACK: usize = 16 * 1024;

/// What a successful parse may allocate besides the copies of its input: the boxed tile and
/// height arrays, which are larger in memory than the legacy tiles they are read from.
const TAIL_ARRAYS: usize =
    std::mem::size_of::<[Tile; TILE_COUNT]>() + std::mem::size_of::<[F32; HEIGHT_COUNT]>();

/// The most a parse of `len` bytes may allocate: the model holds each input byte in at most
/// three bytes of memory (the worst is an empty cell: 17 bytes on disk, a 40-byte `Cell`; a
/// 32-byte object record is a 56-byte `Object`, a link or an edge about its own size), plus the
/// tail arrays.
fn allocation_bound(len: usize) -> usize {
    3 * len + TAIL_ARRAYS + SLACK
}

/// Record sizes from the notes (§3), used to find the sections of the fixture without
/// asking the writer.
const OBJECT_FIXED: usize = 32;
const LINK: usize = 6;
const CELL_FIXED: usize = 17;
const GLOBAL_EDGE: usize = 27;
const INTERNAL_EDGE: usize = 23;

const REGION: u16 = 0x694e;

fn object(id: u32, links: Vec<Link>) -> Object {
    Object {
        object_id: id,
        position: [F32::from(100.5), F32::from(-3.25), F32::from(1900.0)],
        kind: 0xffff,
        yaw: F32::from(1.5),
        uid: id as u16,
        short0: 0x8001,
        is_big: 1,
        is_struct: 2,
        region_id: REGION,
        links,
    }
}

fn rect(min: [f32; 2], max: [f32; 2], objects: Vec<u16>) -> Cell {
    Cell {
        min: min.map(F32::from),
        max: max.map(F32::from),
        objects,
    }
}

/// A small file with something in every section: two objects with links, three cells with
/// objects, both kinds of edges, and tiles, heights and planes that are not all zero.
///
/// Sized so that a cut anywhere inside `objects[1]` or `cells[1]` passes the section's count
/// check (the earlier records already fill `count × minimum record` bytes) and so fails inside
/// that record, which lets the section names be checked.
fn fixture(layout: Layout) -> NavMesh {
    let link = |link_object, edge| Link {
        link_object,
        link_edge: 7,
        edge,
    };
    let objects = vec![
        object(17, (0..6).map(|i| link(1, i)).collect()),
        object(42, vec![link(0, 0)]),
    ];
    let cells = vec![
        rect(
            [0.0, 0.0],
            [960.0, 1920.0],
            (0..20).map(|i| i % 2).collect(),
        ),
        rect([960.0, 0.0], [1920.0, 960.0], vec![0, 1]),
        rect([960.0, 960.0], [1920.0, 1920.0], vec![]),
    ];
    let global = |cell, z0: f32, z1: f32| GlobalEdge {
        a: [F32::ZERO, F32::from(z0)],
        b: [F32::ZERO, F32::from(z1)],
        flag: 0x08,
        dir: [1, 3],
        cell: [0, cell],
        region: [REGION, REGION - 1],
    };
    let internal = |cell: [u16; 2], a: [f32; 2], b: [f32; 2]| InternalEdge {
        a: a.map(F32::from),
        b: b.map(F32::from),
        flag: 0x04,
        dir: [3, 1],
        cell,
    };
    let mut mesh = NavMesh {
        signature: *SIGNATURE,
        objects,
        open_cell_count: 3,
        cells,
        global_edges: vec![global(4, 0.0, 960.0), global(5, 960.0, 1920.0)],
        internal_edges: vec![
            internal([0, 1], [960.0, 0.0], [960.0, 960.0]),
            internal([0, 2], [960.0, 960.0], [960.0, 1920.0]),
            internal([1, 2], [960.0, 960.0], [1920.0, 960.0]),
        ],
        layout,
        tiles: boxed_array(Tile::default()),
        heights: boxed_array(F32::ZERO),
        planes: Planes::default(),
        trailing: Vec::new(),
    };
    for (i, tile) in mesh.tiles.iter_mut().enumerate() {
        let (tx, tz) = (i % 96, i / 96);
        tile.cell_index = match (tx < 48, tz < 48) {
            (true, _) => 0,
            (false, true) => 1,
            (false, false) => 2,
        };
        if layout.has_tile_flags() {
            tile.flag = 0x0002;
            tile.texture_id = (i % 7) as u16 + 0x100;
        }
    }
    for (i, height) in mesh.heights.iter_mut().enumerate() {
        *height = F32::from((i % 97) as f32 * 0.5 - 10.0);
    }
    if layout.has_planes() {
        mesh.planes.types[7] = 3;
        mesh.planes.heights[7] = F32::from(12.5);
    }
    mesh
}

/// Where each section of the fixture starts, from the record sizes in the notes.
struct Offsets {
    objects: [usize; 2],
    cell_count: usize,
    cells: [usize; 3],
    global_edges: usize,
    internal_edges: usize,
    tiles: usize,
}

fn offsets(mesh: &NavMesh) -> Offsets {
    let object_len = |o: &Object| OBJECT_FIXED + LINK * o.links.len();
    let cell_len = |c: &Cell| CELL_FIXED + 2 * c.objects.len();
    let objects0 = 12 + 2;
    let objects1 = objects0 + object_len(&mesh.objects[0]);
    let cell_count = objects1 + object_len(&mesh.objects[1]);
    let cells0 = cell_count + 8;
    let cells1 = cells0 + cell_len(&mesh.cells[0]);
    let cells2 = cells1 + cell_len(&mesh.cells[1]);
    let global_edges = cells2 + cell_len(&mesh.cells[2]) + 4;
    let internal_edges = global_edges + GLOBAL_EDGE * mesh.global_edges.len() + 4;
    let tiles = internal_edges + INTERNAL_EDGE * mesh.internal_edges.len();
    Offsets {
        objects: [objects0, objects1],
        cell_count,
        cells: [cells0, cells1, cells2],
        global_edges,
        internal_edges,
        tiles,
    }
}

fn bytes_of(mesh: &NavMesh) -> Vec<u8> {
    mesh.to_vec().expect("the fixture is writable")
}

fn unexpected_end(needed: usize, left: usize) -> ErrorKind {
    ErrorKind::UnexpectedEnd { needed, left }
}

fn count_too_large(count: u64, min_record_len: usize, left: usize) -> ErrorKind {
    ErrorKind::CountTooLarge {
        count,
        min_record_len,
        left,
    }
}

/// Parses without letting a panic end the test, so a failure names the input.
fn parse(bytes: &[u8], what: &str) -> Result<NavMesh, Error> {
    std::panic::catch_unwind(|| NavMesh::parse(bytes))
        .unwrap_or_else(|_| panic!("parse panicked on {what}"))
}

/// Checks the promises every error makes: the offset is inside the input, and the section is
/// one of the file's (with an index where it names a record).
fn check_error(e: &Error, len: usize, what: &str) {
    assert!(
        e.offset() <= len,
        "{what}: offset {} past the {len} bytes: {e}",
        e.offset()
    );
    let list = e.section().split(['[', '.']).next().unwrap_or_default();
    const SECTIONS: [&str; 14] = [
        "signature",
        "object_count",
        "objects",
        "cell_count",
        "open_cell_count",
        "cells",
        "global_edge_count",
        "global_edges",
        "internal_edge_count",
        "internal_edges",
        "tiles",
        "heights",
        "plane_types",
        "plane_heights",
    ];
    assert!(SECTIONS.contains(&list), "{what}: unknown section in {e}");
    assert!(!e.to_string().is_empty());
}

#[test]
fn the_fixture_follows_the_notes() {
    let mesh = fixture(Layout::Standard);
    let bytes = bytes_of(&mesh);
    let at = offsets(&mesh);
    assert_eq!(bytes.len(), at.tiles + 111_544);
    assert_eq!(
        &bytes[at.cell_count..at.cell_count + 4],
        &3u32.to_le_bytes()
    );
    assert_eq!(bytes[at.cells[0] + 16], 20, "cells[0] lists 20 objects");
    assert_eq!(
        &bytes[at.global_edges - 4..at.global_edges],
        &2u32.to_le_bytes()
    );
    assert_eq!(
        &bytes[at.internal_edges - 4..at.internal_edges],
        &3u32.to_le_bytes()
    );
    assert_eq!(
        parse(&bytes, "the fixture").expect("the fixture parses"),
        mesh
    );
}

/// Every proper prefix of a valid file fails with an error that points inside the prefix.
///
/// Two prefixes are exceptions, and must be: the layouts are told apart by the length of what
/// follows the internal edges, and a standard file cut to leave exactly 74,680 or 74,500 bytes
/// there has the length of a legacy file. Nothing in the bytes says otherwise (the tiles and
/// heights can hold any value), so the reader must take it for one; the game data has ~100 such
/// files. What it reads is the standard tile records reinterpreted as 4-byte ones, and it writes
/// back the same prefix.
#[test]
fn truncation_at_every_offset_fails_cleanly() {
    let mesh = fixture(Layout::Standard);
    let bytes = bytes_of(&mesh);
    let tiles = offsets(&mesh).tiles;
    let mut legacy = Vec::new();
    for len in 0..bytes.len() {
        let prefix = &bytes[..len];
        let what = format!("the first {len} bytes");
        match parse(prefix, &what) {
            Ok(parsed) => legacy.push((len, parsed)),
            Err(e) => check_error(&e, len, &what),
        }
    }
    let lengths: Vec<usize> = legacy.iter().map(|(len, _)| *len).collect();
    assert_eq!(lengths, [tiles + 74_500, tiles + 74_680]);
    for ((len, parsed), layout) in legacy.iter().zip([Layout::Tiles4NoPlanes, Layout::Tiles4]) {
        assert_eq!(parsed.layout, layout);
        assert_eq!(parsed.cells, mesh.cells);
        // Standard tile 0 is (cell 0, flag 2, texture 0x100): legacy tiles 0 and 1.
        assert_eq!(parsed.tiles[0].cell_index, 0);
        assert_eq!(parsed.tiles[1].cell_index, 0x0100_0002);
        assert_eq!(parsed.to_vec().expect("writable"), &bytes[..*len]);
    }
}

/// Cuts after the end of a standard file's tail only shorten its trailing bytes.
#[test]
fn truncation_inside_trailing_bytes_keeps_the_rest() {
    let mut mesh = fixture(Layout::Standard);
    mesh.trailing = b"trailing".to_vec();
    let bytes = bytes_of(&mesh);
    let end = bytes.len() - mesh.trailing.len();
    for len in end..=bytes.len() {
        let parsed = parse(&bytes[..len], "a cut in the trailing bytes").expect("parses");
        assert_eq!(parsed.trailing, &bytes[end..len]);
        assert_eq!(parsed.layout, Layout::Standard);
    }
}

#[test]
fn truncation_names_the_section_it_stopped_in() {
    let mesh = fixture(Layout::Standard);
    let bytes = bytes_of(&mesh);
    let at = offsets(&mesh);
    let total = bytes.len();
    let cases: Vec<(usize, usize, &str, ErrorKind)> = vec![
        // (prefix length, error offset, section, kind)
        (
            5,
            0,
            "signature",
            ErrorKind::BadSignature {
                expected: SIGNATURE,
                found: b"JMXVN".to_vec(),
            },
        ),
        (13, 12, "object_count", unexpected_end(2, 1)),
        // Two objects need at least 64 bytes, and none are left.
        (14, 14, "objects", count_too_large(2, OBJECT_FIXED, 0)),
        (
            at.objects[0] + 40,
            14,
            "objects",
            count_too_large(2, OBJECT_FIXED, 40),
        ),
        (
            at.objects[1] + 10,
            at.objects[1],
            "objects[1]",
            unexpected_end(32, 10),
        ),
        (
            at.objects[1] + 35,
            at.objects[1] + 32,
            "objects[1].links",
            count_too_large(1, LINK, 3),
        ),
        (
            at.cell_count + 2,
            at.cell_count,
            "cell_count",
            unexpected_end(4, 2),
        ),
        (
            at.cell_count + 7,
            at.cell_count + 4,
            "open_cell_count",
            unexpected_end(4, 3),
        ),
        (
            at.cells[0] + 10,
            at.cells[0],
            "cells",
            count_too_large(3, CELL_FIXED, 10),
        ),
        (
            at.cells[1] + 5,
            at.cells[1],
            "cells[1]",
            unexpected_end(17, 5),
        ),
        (
            at.cells[1] + 18,
            at.cells[1] + 17,
            "cells[1].objects",
            unexpected_end(4, 1),
        ),
        (
            at.cells[2] + 16,
            at.cells[2],
            "cells[2]",
            unexpected_end(17, 16),
        ),
        (
            at.global_edges - 1,
            at.global_edges - 4,
            "global_edge_count",
            unexpected_end(4, 3),
        ),
        (
            at.global_edges + 30,
            at.global_edges,
            "global_edges",
            count_too_large(2, 27, 30),
        ),
        (
            at.internal_edges - 2,
            at.internal_edges - 4,
            "internal_edge_count",
            unexpected_end(4, 2),
        ),
        (
            at.internal_edges,
            at.internal_edges,
            "internal_edges",
            count_too_large(3, 23, 0),
        ),
        (
            at.tiles + 1000,
            at.tiles,
            "tiles",
            ErrorKind::UnknownLayout { tail_len: 1000 },
        ),
        (
            total - 1,
            at.tiles,
            "tiles",
            ErrorKind::UnknownLayout { tail_len: 111_543 },
        ),
    ];
    for (len, offset, section, kind) in cases {
        let e = parse(&bytes[..len], "a prefix").expect_err("a prefix is not a file");
        assert_eq!(
            (e.offset(), e.section(), e.kind()),
            (offset, section, &kind),
            "cut at {len}"
        );
    }
}

/// The message a person reads names the offset in decimal and hex, the section and the kind.
#[test]
fn errors_read_well() {
    let mesh = fixture(Layout::Standard);
    let bytes = bytes_of(&mesh);
    let at = offsets(&mesh).cells[1];
    let e = parse(&bytes[..at + 18], "a prefix").expect_err("cut inside cells[1].objects");
    assert_eq!(
        e.to_string(),
        format!(
            "offset {} (0x{:x}): cells[1].objects: unexpected end of input (needed 4 bytes, 1 left)",
            at + 17,
            at + 17
        )
    );
}

/// A little-endian byte builder for hand-made headers.
#[derive(Default)]
struct Bytes(Vec<u8>);

impl Bytes {
    fn signature() -> Bytes {
        Bytes(SIGNATURE.to_vec())
    }
    fn u8(mut self, v: u8) -> Bytes {
        self.0.push(v);
        self
    }
    fn u16(mut self, v: u16) -> Bytes {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u32(mut self, v: u32) -> Bytes {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn zeros(mut self, n: usize) -> Bytes {
        self.0.resize(self.0.len() + n, 0);
        self
    }
    /// Pads with zeros to `len` bytes.
    fn padded_to(self, len: usize) -> Vec<u8> {
        let n = len - self.0.len();
        self.zeros(n).0
    }
}

/// Counts that promise far more than the input holds fail at the count, before any allocation
/// sized by it.
#[test]
fn oversized_counts_fail_without_allocating() {
    let one_object_links = |links: u16| Bytes::signature().u16(1).zeros(30 - 2).u16(0).u16(links);
    // The object record's link count is its last two bytes: fixed part 30, then the count.
    let cases: Vec<(&str, Vec<u8>, usize, &str, ErrorKind)> = vec![
        (
            "65,535 objects in 10 bytes",
            Bytes::signature().u16(0xffff).padded_to(24),
            14,
            "objects",
            count_too_large(0xffff, OBJECT_FIXED, 10),
        ),
        (
            "u32::MAX cells in a 100-byte input",
            Bytes::signature()
                .u16(0)
                .u32(u32::MAX)
                .u32(0)
                .padded_to(100),
            22,
            "cells",
            count_too_large(u32::MAX.into(), CELL_FIXED, 78),
        ),
        (
            "u32::MAX open cells are only a number",
            Bytes::signature()
                .u16(0)
                .u32(0)
                .u32(u32::MAX)
                .u32(0)
                .u32(0)
                .padded_to(100),
            30,
            "tiles",
            ErrorKind::UnknownLayout { tail_len: 70 },
        ),
        (
            "u32::MAX global edges",
            Bytes::signature()
                .u16(0)
                .u32(0)
                .u32(0)
                .u32(u32::MAX)
                .padded_to(100),
            26,
            "global_edges",
            count_too_large(u32::MAX.into(), GLOBAL_EDGE, 74),
        ),
        (
            "u32::MAX internal edges",
            Bytes::signature()
                .u16(0)
                .u32(0)
                .u32(0)
                .u32(0)
                .u32(u32::MAX)
                .padded_to(100),
            30,
            "internal_edges",
            count_too_large(u32::MAX.into(), INTERNAL_EDGE, 70),
        ),
        (
            "65,535 links",
            one_object_links(0xffff).padded_to(100),
            46,
            "objects[0].links",
            count_too_large(0xffff, LINK, 54),
        ),
        (
            "255 cell objects in 10 bytes",
            Bytes::signature()
                .u16(0)
                .u32(1)
                .u32(1)
                .zeros(16)
                .u8(255)
                .padded_to(49),
            39,
            "cells[0].objects",
            unexpected_end(510, 10),
        ),
    ];
    for (what, bytes, offset, section, kind) in cases {
        let e = parse(&bytes, what).expect_err(what);
        check_error(&e, bytes.len(), what);
        assert_eq!(
            (e.offset(), e.section(), e.kind()),
            (offset, section, &kind),
            "{what}"
        );
        // None of these reaches the tail, so nothing near the size of the tail arrays (or of
        // the counts) may be allocated: only the error itself.
        let allocated = allocated_by(|| NavMesh::parse(&bytes));
        assert!(
            allocated <= 4 * bytes.len() + SLACK,
            "{what}: {allocated} bytes allocated"
        );
    }
}

/// The same bound holds for every prefix of a valid file: a parse never allocates more than a
/// few bytes per input byte, plus the tile and height arrays.
#[test]
fn no_prefix_allocates_more_than_its_bytes_can_fill() {
    let mesh = fixture(Layout::Standard);
    let bytes = bytes_of(&mesh);
    let tiles = offsets(&mesh).tiles;
    // The head at every length, then a spread of lengths through the tail, the legacy ones
    // and the whole file.
    let lengths = (0..tiles + 64)
        .chain((tiles..bytes.len()).step_by(997))
        .chain([tiles + 74_500, tiles + 74_680, bytes.len()]);
    for len in lengths {
        let allocated = allocated_by(|| NavMesh::parse(&bytes[..len]));
        assert!(
            allocated <= allocation_bound(len),
            "the first {len} bytes: {allocated} bytes allocated, bound {}",
            allocation_bound(len)
        );
    }
    // The bound is not vacuous: a whole parse allocates the tail arrays.
    assert!(allocated_by(|| NavMesh::parse(&bytes)) >= TAIL_ARRAYS);
}

#[test]
fn a_wrong_signature_shows_what_was_found() {
    let mut bytes = bytes_of(&fixture(Layout::Standard));
    bytes[..12].copy_from_slice(b"JMXVBMS 0110");
    let e = parse(&bytes, "a bms signature").expect_err("not a navmesh");
    assert_eq!((e.offset(), e.section()), (0, "signature"));
    let found = b"JMXVBMS 0110".to_vec();
    assert_eq!(
        e.kind(),
        &ErrorKind::BadSignature {
            expected: SIGNATURE,
            found
        }
    );
    assert!(e.to_string().contains("\"JMXVBMS 0110\""), "{e}");
    // The rest of the file is fine, and reads when the signature is not required.
    let any = NavMesh::parse_with(&bytes, ParseOptions::any_signature()).expect("parses");
    assert_eq!(&any.signature, b"JMXVBMS 0110");
    assert_eq!(any.to_vec().expect("writable"), bytes);

    // Bytes that are not text are shown in hex.
    bytes[..12].copy_from_slice(&[0, 1, 2, 0xff, b'N', b'V', b'M', 0, 0, 0, 0, 0x80]);
    let e = parse(&bytes, "a binary signature").expect_err("not a navmesh");
    assert!(e.to_string().contains("000102ff4e564d0000000080"), "{e}");
}

#[test]
fn empty_input_fails_at_the_signature() {
    let e = parse(&[], "empty input").expect_err("empty");
    assert_eq!((e.offset(), e.section()), (0, "signature"));
    assert_eq!(
        e.kind(),
        &ErrorKind::BadSignature {
            expected: SIGNATURE,
            found: vec![]
        }
    );
    let e = NavMesh::parse_with(&[], ParseOptions::any_signature()).expect_err("empty");
    assert_eq!(
        (e.offset(), e.section(), e.kind()),
        (0, "signature", &unexpected_end(12, 0))
    );
}

#[test]
fn input_shorter_than_the_signature_fails_at_the_signature() {
    let e = parse(b"JMXV", "4 bytes").expect_err("too short");
    assert_eq!(
        e.kind(),
        &ErrorKind::BadSignature {
            expected: SIGNATURE,
            found: b"JMXV".to_vec()
        }
    );
    let e =
        NavMesh::parse_with(b"JMXVNVM 100", ParseOptions::any_signature()).expect_err("11 bytes");
    assert_eq!(
        (e.offset(), e.section(), e.kind()),
        (0, "signature", &unexpected_end(12, 11))
    );
    // The signature alone: the object count is missing.
    let e = parse(SIGNATURE, "the signature alone").expect_err("no object count");
    assert_eq!(
        (e.offset(), e.section(), e.kind()),
        (12, "object_count", &unexpected_end(2, 0))
    );
}

/// Inputs the fuzzers found (see `fuzz/README.md`): each must fail cleanly or round-trip.
#[test]
fn fuzz_regressions() {
    let dir = crate::manifest_dir().join("tests/fuzz-regressions");
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries.map(|e| e.expect("readable entry").path()).collect(),
        Err(e) => panic!("cannot read {}: {e}", dir.display()),
    };
    files.retain(|p| p.extension().is_some_and(|e| e == "bin"));
    files.sort();
    assert!(!files.is_empty(), "{} holds no .bin inputs", dir.display());
    for path in &files {
        let bytes = std::fs::read(path).expect("readable input");
        let what = path.display().to_string();
        for options in [ParseOptions::default(), ParseOptions::any_signature()] {
            let result = std::panic::catch_unwind(|| NavMesh::parse_with(&bytes, options))
                .unwrap_or_else(|_| panic!("parse panicked on {what}"));
            match result {
                Ok(mesh) => assert_eq!(mesh.to_vec().expect("writable"), bytes, "{what}"),
                Err(e) => check_error(&e, bytes.len(), &what),
            }
        }
    }
}

/// The fuzzers' seeds, made from the fixture in each layout: `(file, bytes)`.
///
/// `nvm_parse` takes whole files. `nvm_roundtrip` takes a mode byte and the sections before the
/// tile map, and appends a zeroed tail itself (see `fuzz/fuzz_targets/nvm_roundtrip.rs`), so
/// the fuzzer spends its time on the variable-length part.
fn fuzz_seeds() -> Vec<(String, Vec<u8>)> {
    let mut seeds = Vec::new();
    for (mode, layout) in (1u8..).zip(Layout::ALL) {
        let mesh = fixture(layout);
        let bytes = bytes_of(&mesh);
        let head = &bytes[..offsets(&mesh).tiles];
        seeds.push((format!("nvm_parse/{}.nvm", layout.name()), bytes.clone()));
        let mut roundtrip = vec![mode];
        roundtrip.extend_from_slice(head);
        seeds.push((format!("nvm_roundtrip/{}.bin", layout.name()), roundtrip));
    }
    seeds
}

/// The committed seeds under `fuzz/seeds/` are the fixture's bytes. Run with
/// `SILKNAV_BLESS_SEEDS=1` to write them after changing the fixture.
#[test]
fn fuzz_seeds_are_current() {
    let root = crate::manifest_dir().join("../../fuzz/seeds");
    let mut total = 0;
    for (name, bytes) in fuzz_seeds() {
        let stored = crate::seed_is_current(&root.join(&name), &bytes);
        total += stored.len();
        if name.starts_with("nvm_parse/") {
            assert_eq!(
                parse(&stored, &name)
                    .expect("a parse seed parses")
                    .to_vec()
                    .ok(),
                Some(stored)
            );
        }
    }
    assert!(
        total < 300 * 1024,
        "the seeds should stay small: {total} bytes"
    );
}
