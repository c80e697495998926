//! Round trips over generated models, in all three layouts, with the odd values that real and
//! damaged files hold: model → bytes → model is the identity, bytes → model → bytes too, and
//! `check_writable` refuses exactly the models that could not come back as themselves. The JSON
//! form (`jmxv::nvm::json`) round-trips the same models.

use jmxv::nvm::{
    boxed_array, Cell, GlobalEdge, InternalEdge, Layout, Link, NavMesh, Object, ParseOptions,
    Planes, Tile, PLANE_COUNT, SIGNATURE,
};
use jmxv::{ErrorKind, F32};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

/// Float bit patterns that a reader or writer going through `f32` arithmetic or a text format
/// would change: NaN payloads of both signs (quiet and signalling), both zeros, infinities,
/// subnormals and the extremes.
const ODD_FLOATS: [u32; 16] = [
    0x7fc0_0000, // the canonical quiet NaN
    0x7fc0_0001, // quiet NaN with a payload
    0xffc0_1234, // negative quiet NaN with a payload
    0x7f80_0001, // signalling NaN: quieted by some float moves
    0xff80_0001, // negative signalling NaN
    0x7fff_ffff, // NaN with every payload bit set
    0x8000_0000, // -0.0, equal to 0.0 as a float but not as bytes
    0x0000_0000, // 0.0
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x0000_0001, // the smallest subnormal: flushed to zero by some float paths
    0x807f_ffff, // the largest negative subnormal
    0x0080_0000, // the smallest normal
    0x7f7f_ffff, // f32::MAX
    0x44f0_0000, // 1920.0, the region side
    0x4120_0000, // 10.0
];

/// Byte values where a `bool` or a signed reading would go wrong: booleans other than 0 and 1,
/// direction bytes past 3 (0x80 is negative as an i8), the 0xFF "none".
const ODD_BYTES: [u8; 9] = [0, 1, 2, 3, 4, 0x7f, 0x80, 0xfe, 0xff];

/// u16 values at the edges of their meanings: none (0xFFFF), the sign bit, zero.
const ODD_U16S: [u16; 7] = [0, 1, 2, 0x7fff, 0x8000, 0xfffe, 0xffff];

fn float() -> impl Strategy<Value = F32> {
    prop_oneof![
        3 => select(&ODD_FLOATS[..]).prop_map(F32::from_bits),
        2 => any::<u32>().prop_map(F32::from_bits),
        1 => (0u32..=96).prop_map(|k| F32::from(k as f32 * 20.0)),
    ]
}

fn point() -> impl Strategy<Value = [F32; 2]> {
    [float(), float()]
}

fn byte() -> impl Strategy<Value = u8> {
    prop_oneof![select(&ODD_BYTES[..]), any::<u8>()]
}

fn word() -> impl Strategy<Value = u16> {
    prop_oneof![select(&ODD_U16S[..]), any::<u16>()]
}

fn dword() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0),
        Just(1),
        Just(u32::MAX),
        Just(0xffff),
        Just(0x1_0000),
        any::<u32>()
    ]
}

fn link() -> impl Strategy<Value = Link> {
    (word(), word(), word()).prop_map(|(link_object, link_edge, edge)| Link {
        link_object,
        link_edge,
        edge,
    })
}

fn object() -> impl Strategy<Value = Object> {
    (
        dword(),
        [float(), float(), float()],
        word(),
        float(),
        (word(), word()),
        (byte(), byte()),
        word(),
        vec(link(), 0..4),
    )
        .prop_map(
            |(
                object_id,
                position,
                kind,
                yaw,
                (uid, short0),
                (is_big, is_struct),
                region_id,
                links,
            )| {
                Object {
                    object_id,
                    position,
                    kind,
                    yaw,
                    uid,
                    short0,
                    is_big,
                    is_struct,
                    region_id,
                    links,
                }
            },
        )
}

fn cell() -> impl Strategy<Value = Cell> {
    // A full object list now and then: 255 is the most the count byte can say.
    let objects = prop_oneof![8 => vec(word(), 0..4), 1 => vec(word(), 255)];
    (point(), point(), objects).prop_map(|(min, max, objects)| Cell { min, max, objects })
}

fn global_edge() -> impl Strategy<Value = GlobalEdge> {
    (
        point(),
        point(),
        byte(),
        [byte(), byte()],
        [word(), word()],
        [word(), word()],
    )
        .prop_map(|(a, b, flag, dir, cell, region)| GlobalEdge {
            a,
            b,
            flag,
            dir,
            cell,
            region,
        })
}

fn internal_edge() -> impl Strategy<Value = InternalEdge> {
    (point(), point(), byte(), [byte(), byte()], [word(), word()]).prop_map(
        |(a, b, flag, dir, cell)| InternalEdge {
            a,
            b,
            flag,
            dir,
            cell,
        },
    )
}

/// A small, fast generator for the big fixed arrays (SplitMix64).
///
/// Filling 18,000 values from one seed keeps a failing case cheap to shrink: proptest shrinks
/// the seed as a single number instead of walking through thousands of elements.
struct Filler(u64);

impl Filler {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// An odd float half of the time, random bits otherwise.
    fn float(&mut self) -> F32 {
        let r = self.next();
        if r & 1 == 0 {
            F32::from_bits(ODD_FLOATS[(r >> 1) as usize % ODD_FLOATS.len()])
        } else {
            F32::from_bits((r >> 32) as u32)
        }
    }

    /// A tile cell index: small ones like the game's, ones with the unused high 16 bits set,
    /// and random ones.
    fn cell_index(&mut self) -> u32 {
        let r = self.next();
        let value = (r >> 32) as u32;
        match r % 4 {
            0 => value % 200,
            1 => 0xffff_0000 | (value % 200),
            2 => 0xffff,
            _ => value,
        }
    }

    fn u16(&mut self) -> u16 {
        let r = self.next();
        if r & 1 == 0 {
            ODD_U16S[(r >> 1) as usize % ODD_U16S.len()]
        } else {
            (r >> 48) as u16
        }
    }
}

/// Fills the tiles, heights and planes with what the layout can store, from a seed.
fn fill_tail(mesh: &mut NavMesh, seed: u64) {
    let mut fill = Filler(seed);
    for tile in mesh.tiles.iter_mut() {
        tile.cell_index = fill.cell_index();
        if mesh.layout.has_tile_flags() {
            tile.flag = fill.u16();
            tile.texture_id = fill.u16();
        }
    }
    for height in mesh.heights.iter_mut() {
        *height = fill.float();
    }
    if mesh.layout.has_planes() {
        for (kind, height) in mesh.planes.types.iter_mut().zip(&mut mesh.planes.heights) {
            *kind = fill.next() as u8;
            *height = fill.float();
        }
    }
}

/// A generated model and the seed its fixed arrays were filled from.
///
/// Its `Debug` (what proptest prints for a failing case) shows the variable sections in full
/// and the 18,000 tile and height values only by their seed: printing them would bury the
/// case under a megabyte of text.
#[derive(Clone)]
struct Generated {
    mesh: NavMesh,
    seed: u64,
}

impl std::fmt::Debug for Generated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = &self.mesh;
        f.debug_struct("NavMesh")
            .field(
                "signature",
                &format_args!("b\"{}\"", m.signature.escape_ascii()),
            )
            .field("objects", &m.objects)
            .field("open_cell_count", &m.open_cell_count)
            .field("cells", &m.cells)
            .field("global_edges", &m.global_edges)
            .field("internal_edges", &m.internal_edges)
            .field("layout", &m.layout)
            .field(
                "tiles_heights_planes",
                &format_args!("fill_tail(seed = {:#x})", self.seed),
            )
            .field("trailing", &m.trailing)
            .finish()
    }
}

/// Random models that the writer accepts, in all three layouts.
fn navmesh() -> impl Strategy<Value = Generated> {
    let head = (
        prop_oneof![3 => Just(*SIGNATURE), 1 => any::<[u8; 12]>()],
        vec(object(), 0..5),
        dword(),
        vec(cell(), 0..6),
        vec(global_edge(), 0..6),
        vec(internal_edge(), 0..6),
    );
    let tail = (
        select(&Layout::ALL[..]),
        any::<u64>(),
        prop_oneof![Just(Vec::new()), vec(any::<u8>(), 1..64)],
    );
    (head, tail).prop_map(
        |((signature, objects, open_cell_count, cells, global_edges, internal_edges), tail)| {
            let (layout, seed, trailing) = tail;
            let mut mesh = NavMesh {
                signature,
                objects,
                open_cell_count,
                cells,
                global_edges,
                internal_edges,
                layout,
                tiles: boxed_array(Tile::default()),
                heights: boxed_array(F32::ZERO),
                planes: Planes::default(),
                // Only the standard layout can carry trailing bytes (see `representable`).
                trailing: if layout == Layout::Standard {
                    trailing
                } else {
                    Vec::new()
                },
            };
            fill_tail(&mut mesh, seed);
            Generated { mesh, seed }
        },
    )
}

/// Whether a model can be written and read back as itself, decided from the format's rules
/// alone (independently of `check_writable`, which this file tests).
fn representable(mesh: &NavMesh) -> bool {
    let legacy = mesh.layout != Layout::Standard;
    mesh.objects.len() <= 0xffff
        && mesh.objects.iter().all(|o| o.links.len() <= 0xffff)
        && mesh.cells.iter().all(|c| c.objects.len() <= 0xff)
        && !(legacy && mesh.tiles.iter().any(|t| t.flag != 0 || t.texture_id != 0))
        && (!legacy || mesh.trailing.is_empty())
        && !(mesh.layout == Layout::Tiles4NoPlanes
            && (mesh.planes.types.iter().any(|&t| t != 0)
                || mesh.planes.heights.iter().any(|h| h.to_bits() != 0)))
}

/// Names the first field where two models differ (the `Debug` form of a whole model is
/// hundreds of kilobytes, useless in a failure message).
fn difference(a: &NavMesh, b: &NavMesh) -> Option<String> {
    fn first<T: PartialEq + std::fmt::Debug>(name: &str, a: &[T], b: &[T]) -> Option<String> {
        if a.len() != b.len() {
            return Some(format!("{name}: {} vs {} entries", a.len(), b.len()));
        }
        let i = a.iter().zip(b).position(|(x, y)| x != y)?;
        Some(format!("{name}[{i}]: {:?} vs {:?}", a[i], b[i]))
    }
    first("signature", &a.signature, &b.signature)
        .or_else(|| first("objects", &a.objects, &b.objects))
        .or_else(|| {
            first(
                "open_cell_count",
                &[a.open_cell_count],
                &[b.open_cell_count],
            )
        })
        .or_else(|| first("cells", &a.cells, &b.cells))
        .or_else(|| first("global_edges", &a.global_edges, &b.global_edges))
        .or_else(|| first("internal_edges", &a.internal_edges, &b.internal_edges))
        .or_else(|| first("layout", &[a.layout], &[b.layout]))
        .or_else(|| first("tiles", &a.tiles[..], &b.tiles[..]))
        .or_else(|| first("heights", &a.heights[..], &b.heights[..]))
        .or_else(|| first("planes", &[a.planes], &[b.planes]))
        .or_else(|| first("trailing", &a.trailing, &b.trailing))
}

/// Names the first byte where two files differ.
fn byte_difference(a: &[u8], b: &[u8]) -> Option<String> {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => Some(format!(
            "byte {i} (0x{i:x}): {:#04x} vs {:#04x}",
            a[i], b[i]
        )),
        None if a.len() != b.len() => Some(format!("lengths {} vs {}", a.len(), b.len())),
        None => None,
    }
}

/// Bytes before the tile map: where the variable-length sections are.
fn head_len(mesh: &NavMesh) -> usize {
    mesh.encoded_len() - mesh.layout.tail_len() - mesh.trailing.len()
}

/// One edit of a valid file, at a position resolved against the file (see [`resolve`]).
#[derive(Debug, Clone)]
enum Edit {
    /// Overwrite one byte.
    Set(u8),
    /// Flip one bit.
    Flip(u8),
    /// Insert bytes.
    Insert(Vec<u8>),
    /// Remove up to this many bytes.
    Remove(usize),
    /// Cut the file here.
    Truncate,
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => byte().prop_map(Edit::Set),
        4 => (0u8..8).prop_map(Edit::Flip),
        1 => vec(byte(), 1..8).prop_map(Edit::Insert),
        1 => (1usize..40).prop_map(Edit::Remove),
        1 => Just(Edit::Truncate),
    ]
}

/// A position: mostly in or just after the head, where the counts and variable-length records
/// are and where one change moves every section after it; sometimes anywhere in the file.
fn position() -> impl Strategy<Value = (bool, usize)> {
    (prop::bool::weighted(0.8), any::<usize>())
}

fn resolve((in_head, raw): (bool, usize), head_len: usize, len: usize) -> usize {
    let range = if in_head {
        (head_len + 16).min(len)
    } else {
        len
    };
    raw % (range + 1)
}

fn apply(bytes: &mut Vec<u8>, at: usize, edit: &Edit) {
    let at = at.min(bytes.len());
    match edit {
        Edit::Set(value) => {
            if let Some(b) = bytes.get_mut(at) {
                *b = *value;
            }
        }
        Edit::Flip(bit) => {
            if let Some(b) = bytes.get_mut(at) {
                *b ^= 1 << bit;
            }
        }
        Edit::Insert(new) => {
            bytes.splice(at..at, new.iter().copied());
        }
        Edit::Remove(len) => {
            let end = at.saturating_add(*len).min(bytes.len());
            bytes.drain(at..end);
        }
        Edit::Truncate => bytes.truncate(at),
    }
}

fn any_signature(bytes: &[u8]) -> Result<NavMesh, jmxv::Error> {
    NavMesh::parse_with(bytes, ParseOptions::any_signature())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// model → bytes → model is the identity, and the bytes come back from the parsed model.
    #[test]
    fn model_to_bytes_to_model(generated in navmesh()) {
        let mesh = generated.mesh;
        prop_assert!(representable(&mesh));
        let bytes = mesh.to_vec().map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(bytes.len(), mesh.encoded_len());
        let mut streamed = Vec::new();
        mesh.write_to(&mut streamed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(streamed == bytes, "write_to differs from to_vec");

        let back = any_signature(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if let Some(diff) = difference(&back, &mesh) {
            return Err(TestCaseError::fail(format!("parse(write(m)) != m at {diff}")));
        }
        let again = back.to_vec().map_err(|e| TestCaseError::fail(e.to_string()))?;
        if let Some(diff) = byte_difference(&again, &bytes) {
            return Err(TestCaseError::fail(format!("write(parse(b)) != b at {diff}")));
        }
    }

    /// The default options accept exactly the files with the right signature, and a wrong one
    /// is reported with the bytes found; the rest of the parse does not depend on it.
    #[test]
    fn signature_is_checked_by_default_only(generated in navmesh()) {
        let mesh = generated.mesh;
        let bytes = mesh.to_vec().map_err(|e| TestCaseError::fail(e.to_string()))?;
        match NavMesh::parse(&bytes) {
            Ok(strict) => {
                prop_assert_eq!(&mesh.signature, SIGNATURE);
                prop_assert!(difference(&strict, &mesh).is_none());
            }
            Err(e) => {
                prop_assert_ne!(&mesh.signature, SIGNATURE);
                prop_assert_eq!(e.offset(), 0);
                prop_assert_eq!(e.section(), "signature");
                let expected = ErrorKind::BadSignature {
                    expected: SIGNATURE,
                    found: mesh.signature.to_vec(),
                };
                prop_assert_eq!(e.kind(), &expected);
            }
        }
    }

    /// A damaged file either fails with an error that points inside it, or parses to a model
    /// that writes back exactly the damaged bytes.
    #[test]
    fn mutated_files_fail_cleanly_or_round_trip(
        generated in navmesh(),
        edits in vec((position(), edit()), 1..5),
    ) {
        let mesh = generated.mesh;
        let mut bytes = mesh.to_vec().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let head = head_len(&mesh);
        for (at, edit) in &edits {
            let at = resolve(*at, head, bytes.len());
            apply(&mut bytes, at, edit);
        }
        match any_signature(&bytes) {
            Ok(parsed) => {
                prop_assert!(representable(&parsed));
                prop_assert_eq!(parsed.encoded_len(), bytes.len());
                let again = parsed.to_vec().map_err(|e| TestCaseError::fail(e.to_string()))?;
                if let Some(diff) = byte_difference(&again, &bytes) {
                    return Err(TestCaseError::fail(format!("write(parse(b)) != b at {diff}")));
                }
            }
            Err(e) => {
                prop_assert!(e.offset() <= bytes.len(), "offset {} past {} bytes", e.offset(), bytes.len());
                prop_assert!(!e.section().is_empty());
                let bad_signature = matches!(e.kind(), ErrorKind::BadSignature { .. });
                prop_assert!(!bad_signature, "any_signature reported {e}");
                // The strict parse fails too: it reads the same bytes with one more check.
                prop_assert!(NavMesh::parse(&bytes).is_err());
            }
        }
    }

    /// `check_writable` refuses a model exactly when the format cannot carry it, names the
    /// section at fault, and every writer entry point agrees with it.
    #[test]
    fn check_writable_refuses_exactly_the_unrepresentable(
        generated in navmesh(),
        defect in defect(),
    ) {
        let mut mesh = generated.mesh;
        let section = defect.apply(&mut mesh);
        let verdict = mesh.check_writable();
        prop_assert_eq!(verdict.is_ok(), representable(&mesh));
        match verdict {
            Ok(()) => {
                let bytes = mesh.to_vec().map_err(|e| TestCaseError::fail(e.to_string()))?;
                let back = any_signature(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert!(difference(&back, &mesh).is_none());
            }
            Err(e) => {
                // The generated models are representable, so the defect is the only fault.
                prop_assert_eq!(Some(e.section().to_string()), section);
                prop_assert_eq!(mesh.to_vec(), Err(e));
                let mut sink = Vec::new();
                let io = mesh.write_to(&mut sink).expect_err("write_to must refuse too");
                prop_assert_eq!(io.kind(), std::io::ErrorKind::InvalidInput);
                prop_assert!(sink.is_empty(), "nothing is written when the model is refused");
            }
        }
    }
}

proptest! {
    // Each case writes and reads some 400 KB of JSON; fewer cases keep debug builds quick.
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// bytes → model → JSON → model → bytes is the identity (`silknav dump` then `pack`), with
    /// every odd float of the strategies: NaN payloads, -0.0, subnormals, infinities, extremes.
    #[test]
    fn bytes_to_json_to_bytes(generated in navmesh()) {
        let bytes = generated.mesh.to_vec().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mesh = any_signature(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let text = jmxv::nvm::json::to_string(&mesh).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back = jmxv::nvm::json::from_str(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if let Some(diff) = difference(&back, &mesh) {
            return Err(TestCaseError::fail(format!("from_json(to_json(m)) != m at {diff}")));
        }
        let again = back.to_vec().map_err(|e| TestCaseError::fail(e.to_string()))?;
        if let Some(diff) = byte_difference(&again, &bytes) {
            return Err(TestCaseError::fail(format!("bytes changed through JSON at {diff}")));
        }
        prop_assert_eq!(jmxv::nvm::json::to_string(&back).ok(), Some(text), "the JSON is stable");
    }
}

/// One change that may make a model unrepresentable, depending on its layout and values.
#[derive(Debug, Clone)]
enum Defect {
    TileFlag { tile: usize, value: u16 },
    TileTexture { tile: usize, value: u16 },
    PlaneType { plane: usize, value: u8 },
    PlaneHeight { plane: usize, value: F32 },
    Trailing(Vec<u8>),
    CellObjects { extra: usize },
}

fn defect() -> impl Strategy<Value = Defect> {
    let tile = 0..jmxv::nvm::TILE_COUNT;
    let plane = 0..PLANE_COUNT;
    prop_oneof![
        (tile.clone(), word()).prop_map(|(tile, value)| Defect::TileFlag { tile, value }),
        (tile, word()).prop_map(|(tile, value)| Defect::TileTexture { tile, value }),
        (plane.clone(), byte()).prop_map(|(plane, value)| Defect::PlaneType { plane, value }),
        (plane, float()).prop_map(|(plane, value)| Defect::PlaneHeight { plane, value }),
        vec(any::<u8>(), 0..4).prop_map(Defect::Trailing),
        (0usize..4).prop_map(|extra| Defect::CellObjects { extra }),
    ]
}

impl Defect {
    /// Applies the defect and returns the section `check_writable` must name if the model is
    /// now unrepresentable.
    fn apply(&self, mesh: &mut NavMesh) -> Option<String> {
        match self {
            Defect::TileFlag { tile, value } => {
                mesh.tiles[*tile].flag = *value;
                Some(format!("tiles[{tile}]"))
            }
            Defect::TileTexture { tile, value } => {
                mesh.tiles[*tile].texture_id = *value;
                Some(format!("tiles[{tile}]"))
            }
            Defect::PlaneType { plane, value } => {
                mesh.planes.types[*plane] = *value;
                Some("planes".into())
            }
            Defect::PlaneHeight { plane, value } => {
                mesh.planes.heights[*plane] = *value;
                Some("planes".into())
            }
            Defect::Trailing(bytes) => {
                mesh.trailing.clone_from(bytes);
                Some("trailing".into())
            }
            Defect::CellObjects { extra } => {
                // Grow the last cell to 254 + extra objects: 254 and 255 fit, 256 and 257 do not.
                let index = mesh.cells.len();
                mesh.cells.push(Cell::default());
                mesh.cells[index].objects = vec![0; 254 + extra];
                Some(format!("cells[{index}].objects"))
            }
        }
    }
}

#[test]
fn the_largest_counts_that_fit_round_trip() {
    let mut mesh = NavMesh {
        objects: vec![Object::default(); 0xffff],
        ..NavMesh::default()
    };
    mesh.objects[7].links = vec![
        Link {
            link_object: 1,
            link_edge: 2,
            edge: 3
        };
        0xffff
    ];
    mesh.cells[0].objects = (0..255).collect();
    let bytes = mesh
        .to_vec()
        .expect("65,535 objects and links and 255 cell objects fit");
    assert_eq!(bytes.len(), mesh.encoded_len());
    assert_eq!(&bytes[12..14], &[0xff, 0xff], "object count");
    let back = NavMesh::parse(&bytes).expect("parses");
    assert_eq!(difference(&back, &mesh), None);
}

#[test]
fn one_object_too_many_is_refused() {
    let mesh = NavMesh {
        objects: vec![Object::default(); 0x1_0000],
        ..NavMesh::default()
    };
    let e = mesh
        .check_writable()
        .expect_err("65,536 objects do not fit a u16 count");
    assert_eq!(e.section(), "objects");
    assert!(e.to_string().contains("65536"), "{e}");
    assert_eq!(mesh.to_vec(), Err(e));
}

#[test]
fn one_link_too_many_is_refused() {
    let mut mesh = NavMesh {
        objects: vec![Object::default(); 3],
        ..NavMesh::default()
    };
    mesh.objects[2].links = vec![Link::default(); 0x1_0000];
    let e = mesh
        .check_writable()
        .expect_err("65,536 links do not fit a u16 count");
    assert_eq!(e.section(), "objects[2].links");
}

#[test]
fn one_cell_object_too_many_is_refused() {
    let mut mesh = NavMesh::default();
    mesh.cells.push(Cell {
        objects: vec![0; 256],
        ..Cell::default()
    });
    let e = mesh
        .check_writable()
        .expect_err("256 objects do not fit a u8 count");
    assert_eq!(e.section(), "cells[1].objects");
}

#[test]
fn legacy_layouts_refuse_what_they_cannot_store() {
    for layout in [Layout::Tiles4, Layout::Tiles4NoPlanes] {
        let base = NavMesh {
            layout,
            ..NavMesh::default()
        };
        base.check_writable()
            .expect("an all-zero legacy model is writable");

        let mut flagged = base.clone();
        flagged.tiles[9215].flag = 1;
        assert_eq!(
            flagged.check_writable().unwrap_err().section(),
            "tiles[9215]"
        );

        let mut textured = base.clone();
        textured.tiles[0].texture_id = 0x8000;
        assert_eq!(textured.check_writable().unwrap_err().section(), "tiles[0]");

        let mut trailing = base.clone();
        trailing.trailing = vec![0];
        assert_eq!(trailing.check_writable().unwrap_err().section(), "trailing");
    }
    // -0.0 is not all-zero bytes, so a plane map holding it cannot be left out.
    let mut planes = NavMesh {
        layout: Layout::Tiles4NoPlanes,
        ..NavMesh::default()
    };
    planes.planes.heights[35] = F32::from(-0.0);
    assert_eq!(planes.check_writable().unwrap_err().section(), "planes");
    planes.layout = Layout::Tiles4;
    planes.check_writable().expect("tiles4 stores plane maps");
}
