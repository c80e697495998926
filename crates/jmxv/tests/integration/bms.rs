//! `JMXVBMS` object meshes: files written by the test kit's independent writer decode to
//! exactly its values and write back byte for byte; round trips both ways over generated files
//! and models; mutated and truncated input never panics and names where it stopped; counts
//! cannot make the reader allocate beyond the input; each lint code fires on the mistake it
//! names and on nothing else.
//!
//! What a parse allocates is measured with [`allocated_by`](crate::allocated_by).

use jmxv::bms::lint::{lint, CODES};
use jmxv::bms::{
    Header, NavCell, NavEdge, NavSection, NavVertex, ObjectMesh, OutlineGrid, Version, HEADER_LEN,
    NAV_CELL_EVENTS, NAV_EDGE_EVENTS, NAV_EVENT_NAMES, NAV_OFFSET_INDEX, NO_CELL,
};
use jmxv::{Error, ErrorKind, F32};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use silknav_testkit::rng::SplitMix64;
use silknav_testkit::second_writer::{self, bms::SpecObjectMesh};
use std::path::PathBuf;

fn parse(bytes: &[u8], what: &str) -> ObjectMesh {
    ObjectMesh::parse(bytes).unwrap_or_else(|e| panic!("{what}: {e}"))
}

fn spec_meshes() -> Vec<(&'static str, SpecObjectMesh)> {
    vec![
        ("box_building", second_writer::bms::box_building()),
        ("bridge_deck", second_writer::bms::bridge_deck()),
        ("event_gate", second_writer::bms::event_gate()),
        ("render_only", second_writer::bms::render_only()),
    ]
}

/// Section names the reader may put in an error.
const SECTIONS: [&str; 16] = [
    "signature",
    "header",
    "header.offsets[7]",
    "before_nav",
    "vertex_count",
    "vertices",
    "cell_count",
    "cells",
    "outline_edge_count",
    "outline_edges",
    "inline_edge_count",
    "inline_edges",
    "event_name_count",
    "event_names",
    "grid",
    "grid.tiles",
];

fn check_error(e: &Error, len: usize, what: &str) {
    crate::check_error_place(e, len, what, |section| {
        let list = section.split('[').next().unwrap_or_default();
        SECTIONS.contains(&section) || SECTIONS.contains(&list)
    });
}

mod independent {
    use super::*;

    /// jmxv's model holds exactly what the independent writer wrote, where it wrote it.
    fn check(spec: &SpecObjectMesh, what: &str) -> ObjectMesh {
        let (bytes, layout) = spec.to_bytes_with_layout();
        let mesh = parse(&bytes, what);
        assert_eq!(
            mesh.to_vec().unwrap(),
            bytes,
            "{what}: byte-identical write"
        );
        assert_eq!(mesh.encoded_len(), bytes.len(), "{what}");
        assert_eq!(mesh.version.signature(), &spec.signature, "{what}");
        assert_eq!(mesh.header.offsets[0] as usize, layout.render_vertices);
        assert_eq!(mesh.header.offsets[5] as usize, layout.bounding_box);
        assert_eq!(mesh.header.nav_offset() as usize, layout.nav);
        assert_eq!(mesh.header.nav_flags, spec.nav_flags, "{what}");
        assert_eq!(mesh.header.sub_prim_count, 1);
        let Some(nav_spec) = &spec.nav else {
            assert!(mesh.nav.is_none(), "{what}");
            assert_eq!(mesh.before_nav, bytes[HEADER_LEN..], "{what}");
            assert!(mesh.after_nav.is_empty());
            return mesh;
        };
        assert_eq!(mesh.before_nav, bytes[HEADER_LEN..layout.nav], "{what}");
        assert_eq!(mesh.after_nav, bytes[layout.bounding_box..], "{what}");
        assert_eq!(
            mesh.after_nav.len(),
            24 + spec.trailing.len(),
            "{what}: the bounding box and the trailing bytes"
        );
        let nav = mesh.nav.as_ref().expect("a navigation section");
        let vertices: Vec<([u32; 3], u8)> = nav
            .vertices
            .iter()
            .map(|v| (v.position.map(F32::to_bits), v.normal))
            .collect();
        assert_eq!(vertices, nav_spec.vertices, "{what}: vertices");
        let cells: Vec<([u16; 3], u16, u8)> = nav
            .cells
            .iter()
            .map(|c| (c.vertices, c.flag, c.event))
            .collect();
        assert_eq!(cells, nav_spec.cells, "{what}: cells");
        let edges = |edges: &[NavEdge]| -> Vec<([u16; 2], [u16; 2], u8, u8)> {
            edges
                .iter()
                .map(|e| (e.vertices, e.cells, e.flag, e.event))
                .collect()
        };
        assert_eq!(edges(&nav.outline_edges), nav_spec.outline, "{what}");
        assert_eq!(edges(&nav.inline_edges), nav_spec.inline, "{what}");
        assert_eq!(nav.event_names, nav_spec.events, "{what}: event names");
        assert_eq!(nav.grid.origin.map(F32::to_bits), nav_spec.grid_origin);
        assert_eq!([nav.grid.width, nav.grid.height], nav_spec.grid_size);
        assert_eq!(nav.grid.tiles, nav_spec.grid, "{what}: grid tiles");
        mesh
    }

    #[test]
    fn realistic_meshes_decode_exactly_and_lint_clean() {
        for (what, spec) in spec_meshes() {
            let mesh = check(&spec, what);
            assert_eq!(lint(&mesh), vec![], "{what} lints clean");
        }
        let bridge = parse(&second_writer::bms::bridge_deck().to_bytes(), "bridge");
        assert_eq!(bridge.version, Version::V0109);
        let gate = parse(&second_writer::bms::event_gate().to_bytes(), "gate");
        let nav = gate.nav.expect("the gate has a navigation section");
        assert_eq!(
            nav.event_names,
            [b"gate_outer".to_vec(), b"gate_inner".to_vec()]
        );
        assert_eq!(
            nav.cells[2].event, 0x41,
            "inner cells fire gate_inner on entering"
        );
        assert_eq!(nav.inline_edges[1].flag, 0x80, "the siege gate");
    }

    #[test]
    fn the_building_has_a_doorway_in_its_walls() {
        let mesh = parse(&second_writer::bms::box_building().to_bytes(), "building");
        let nav = mesh.nav.expect("nav");
        let open: Vec<&NavEdge> = nav
            .outline_edges
            .iter()
            .filter(|e| e.flag & 3 == 0)
            .collect();
        assert_eq!(open.len(), 1, "one doorway");
        let [a, b] = open[0]
            .vertices
            .map(|v| nav.vertices[usize::from(v)].position);
        assert_eq!((a[0].get(), b[0].get(), a[2].get()), (160.0, 240.0, 0.0));
        assert_eq!(nav.outline_edges.len() - open.len(), 5, "five walls");
    }

    #[test]
    fn odd_values_decode_exactly() {
        for seed in 0..300 {
            check(&second_writer::bms::odd(seed), &format!("odd({seed})"));
        }
    }
}

mod roundtrip {
    use super::*;

    const ODD_BITS: [u32; 6] = [
        0x7fc0_0001,
        0xffa0_1234,
        0x8000_0000,
        0x7f80_0000,
        0x0000_0001,
        0x4270_0000,
    ];

    fn float() -> impl Strategy<Value = F32> {
        prop_oneof![select(ODD_BITS.to_vec()), any::<u32>()].prop_map(F32::from_bits)
    }

    fn edge(events: bool) -> impl Strategy<Value = NavEdge> {
        (
            any::<[u16; 2]>(),
            any::<u16>(),
            prop_oneof![Just(NO_CELL), any::<u16>()],
            any::<u8>(),
            any::<u8>(),
        )
            .prop_map(move |(vertices, a, b, flag, event)| NavEdge {
                vertices,
                cells: [a, b],
                flag,
                event: if events { event } else { 0 },
            })
    }

    fn nav(flags: u32) -> impl Strategy<Value = NavSection> {
        let cell_events = flags & NAV_CELL_EVENTS != 0;
        let edge_events = flags & NAV_EDGE_EVENTS != 0;
        let names = flags & NAV_EVENT_NAMES != 0;
        (
            vec(([float(), float(), float()], any::<u8>()), 0..6),
            vec((any::<[u16; 3]>(), any::<u16>(), any::<u8>()), 0..6),
            vec(edge(edge_events), 0..5),
            vec(edge(edge_events), 0..5),
            vec(vec(any::<u8>(), 0..10), if names { 0..4 } else { 0..1 }),
            ([float(), float()], any::<i32>(), any::<i32>()),
            vec(vec(any::<u16>(), 0..4), 0..6),
        )
            .prop_map(
                move |(vertices, cells, outline_edges, inline_edges, event_names, grid, tiles)| {
                    NavSection {
                        vertices: vertices
                            .into_iter()
                            .map(|(position, normal)| NavVertex { position, normal })
                            .collect(),
                        cells: cells
                            .into_iter()
                            .map(|(vertices, flag, event)| NavCell {
                                vertices,
                                flag,
                                event: if cell_events { event } else { 0 },
                            })
                            .collect(),
                        outline_edges,
                        inline_edges,
                        event_names: if names { event_names } else { Vec::new() },
                        grid: OutlineGrid {
                            origin: grid.0,
                            width: grid.1,
                            height: grid.2,
                            tiles,
                        },
                    }
                },
            )
    }

    /// Writable models with odd values: any header, any raw bytes, any nav flags.
    pub(super) fn model() -> impl Strategy<Value = ObjectMesh> {
        (
            select(Version::ALL.to_vec()),
            any::<[u32; 10]>(),
            any::<[u32; 5]>(),
            vec(any::<u8>(), 0..40),
            any::<bool>(),
            vec(any::<u8>(), 0..20),
        )
            .prop_flat_map(
                |(version, offsets, fields, before_nav, has_nav, after_nav)| {
                    let flags = fields[1];
                    let nav = if has_nav {
                        nav(flags).prop_map(Some).boxed()
                    } else {
                        Just(None).boxed()
                    };
                    nav.prop_map(move |nav| {
                        let mut header = Header {
                            offsets,
                            unknown0: fields[0],
                            nav_flags: flags,
                            sub_prim_count: fields[2],
                            vertex_flags: fields[3],
                            unknown2: fields[4],
                        };
                        header.offsets[NAV_OFFSET_INDEX] = if nav.is_some() {
                            (HEADER_LEN + before_nav.len()) as u32
                        } else {
                            0
                        };
                        let after_nav = if nav.is_some() {
                            after_nav.clone()
                        } else {
                            Vec::new()
                        };
                        ObjectMesh {
                            version,
                            header,
                            before_nav: before_nav.clone(),
                            nav,
                            after_nav,
                        }
                    })
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn model_bytes_model(mesh in model()) {
            let bytes = mesh.to_vec().expect("generated models are writable");
            crate::reads_back_as_written(&mesh, bytes)?;
        }

        #[test]
        fn bytes_model_bytes(seed in any::<u64>()) {
            crate::writes_back::<ObjectMesh>(&second_writer::bms::odd(seed).to_bytes())?;
        }
    }

    #[test]
    fn from_nav_writes_and_reads_back() {
        let gate = parse(&second_writer::bms::event_gate().to_bytes(), "gate");
        let nav = gate.nav.clone().expect("nav");
        for version in Version::ALL {
            let mesh = ObjectMesh::from_nav(version, gate.header.nav_flags, nav.clone());
            let bytes = mesh.to_vec().unwrap();
            assert_eq!(&bytes[..12], version.signature());
            assert_eq!(parse(&bytes, "from_nav"), mesh);
            assert_eq!(lint(&mesh), vec![]);
        }
    }

    #[test]
    fn the_writer_refuses_what_would_not_read_back() {
        let mesh = parse(&second_writer::bms::event_gate().to_bytes(), "gate");
        let refused = |m: &ObjectMesh| m.to_vec().expect_err("refused").section().to_owned();

        let mut m = mesh.clone();
        m.before_nav.push(0);
        assert_eq!(
            refused(&m),
            "header.offsets[7]",
            "the nav offset no longer fits"
        );

        let mut m = mesh.clone();
        m.header.nav_flags &= !NAV_CELL_EVENTS;
        assert_eq!(refused(&m), "cells[2].event");

        let mut m = mesh.clone();
        m.header.nav_flags &= !NAV_EDGE_EVENTS;
        assert_eq!(refused(&m), "outline_edges[5].event");

        let mut m = mesh.clone();
        m.header.nav_flags &= !NAV_EVENT_NAMES;
        assert_eq!(refused(&m), "event_names");

        let mut m = mesh.clone();
        m.nav = None;
        assert_eq!(
            refused(&m),
            "header.offsets[7]",
            "no section, but an offset"
        );
        m.header.offsets[NAV_OFFSET_INDEX] = 0;
        assert_eq!(
            refused(&m),
            "after_nav",
            "bytes after a section that is not there"
        );
        m.after_nav.clear();
        assert!(m.to_vec().is_ok());

        let io = mesh.clone();
        let mut m = io;
        m.before_nav.push(0);
        let err = m.write_to(Vec::new()).expect_err("refused");
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
        let mut out = Vec::new();
        mesh.write_to(&mut out).unwrap();
        assert_eq!(out, mesh.to_vec().unwrap());
        assert_eq!(ObjectMesh::read_from(out.as_slice()).unwrap(), mesh);
    }
}

mod robustness {
    use super::*;

    /// Where the navigation section of a mesh file ends (the header when there is none).
    fn nav_end(bytes: &[u8]) -> usize {
        let mesh = parse(bytes, "nav_end");
        match &mesh.nav {
            Some(nav) => mesh.nav_position() + nav.encoded_len(&mesh.header),
            None => HEADER_LEN,
        }
    }

    #[test]
    fn truncation_at_every_offset() {
        let mut errors = 0;
        for (what, spec) in spec_meshes() {
            let bytes = spec.to_bytes();
            let end = nav_end(&bytes);
            for len in 0..bytes.len() {
                let cut = &bytes[..len];
                match crate::parse_and_write_back::<ObjectMesh>(
                    cut,
                    &format!("{what} cut at {len}"),
                ) {
                    Ok(_) => {
                        assert!(
                            len >= end,
                            "{what}: a cut at {len} inside the nav section parsed"
                        );
                    }
                    Err(e) => {
                        assert!(
                            len < end,
                            "{what}: a cut at {len} after the nav section failed: {e}"
                        );
                        check_error(&e, len, what);
                        errors += 1;
                    }
                }
            }
        }
        assert!(errors > 1000, "{errors} cuts failed");
    }

    #[test]
    fn the_section_of_a_cut_is_named() {
        let bytes = second_writer::bms::event_gate().to_bytes();
        let mesh = parse(&bytes, "gate");
        let nav = mesh.nav_position();
        let section = |len: usize| {
            ObjectMesh::parse(&bytes[..len])
                .expect_err("a cut")
                .section()
                .to_owned()
        };
        assert_eq!(section(5), "signature");
        assert_eq!(section(40), "header");
        assert_eq!(section(nav - 1), "before_nav");
        assert_eq!(section(nav + 2), "vertex_count");
        // A cut inside the last record of a tile list: the tile is named.
        let last_tile = mesh.nav.as_ref().unwrap().grid.tiles.len() - 1;
        assert_eq!(
            section(bytes.len() - 24 - 4 - 1),
            format!("grid.tiles[{last_tile}]")
        );
    }

    /// Overwrites the u32 at `at` with `value`.
    fn with_u32(bytes: &[u8], at: usize, value: u32) -> Vec<u8> {
        let mut out = bytes.to_vec();
        out[at..at + 4].copy_from_slice(&value.to_le_bytes());
        out
    }

    #[test]
    fn oversized_counts_fail_before_allocating() {
        let bytes = second_writer::bms::event_gate().to_bytes();
        let mesh = parse(&bytes, "gate");
        let nav = mesh.nav_position();
        let n = mesh.nav.as_ref().unwrap();
        let flags = mesh.header;
        let cells_at = nav + 4 + 13 * n.vertices.len();
        let outline_at = cells_at + 4 + 9 * n.cells.len();
        let inline_at = outline_at + 4 + 10 * n.outline_edges.len();
        let names_at = inline_at + 4 + 10 * n.inline_edges.len();
        let grid_at = names_at + 4 + n.event_names.iter().map(|e| 4 + e.len()).sum::<usize>();
        assert!(flags.has_cell_events() && flags.has_edge_events() && flags.has_event_names());
        for (at, section) in [
            (nav, "vertices"),
            (cells_at, "cells"),
            (outline_at, "outline_edges"),
            (inline_at, "inline_edges"),
            (names_at, "event_names"),
            (names_at + 4, "event_names[0]"),
            (grid_at + 16, "grid.tiles"),
            (grid_at + 20, "grid.tiles[0]"),
        ] {
            for count in [u32::MAX, 1 << 24] {
                let broken = with_u32(&bytes, at, count);
                let e = crate::oversized_count_error::<ObjectMesh>(&broken, section);
                assert_eq!(e.section(), section, "{e}");
                assert_eq!(e.offset(), at + 4, "{e}");
                assert!(
                    matches!(e.kind(), ErrorKind::CountTooLarge { count: c, .. } if *c == u64::from(count)),
                    "{e}"
                );
            }
        }
    }

    #[test]
    fn allocation_is_bounded_by_the_input() {
        // The worst case per input byte: empty grid tiles and empty event names (4 bytes on
        // disk, a 24-byte vector in the model).
        let mut nav = NavSection::default();
        nav.grid.width = 50_000;
        nav.grid.height = 1;
        nav.grid.tiles = vec![Vec::new(); 50_000];
        nav.event_names = vec![Vec::new(); 50_000];
        let mesh = ObjectMesh::from_nav(Version::V0110, NAV_EVENT_NAMES, nav);
        let bytes = mesh.to_vec().unwrap();
        let allocated = crate::allocation_within::<ObjectMesh>(&bytes, 6);
        // And it is the records that cost, not a copy per byte: well above one copy.
        assert!(allocated > 2 * bytes.len(), "{allocated}");
    }

    #[test]
    fn bad_headers() {
        let bytes = second_writer::bms::box_building().to_bytes();
        let mut nvm = bytes.clone();
        nvm[..12].copy_from_slice(b"JMXVNVM 1000");
        let e = ObjectMesh::parse(&nvm).expect_err("not a mesh");
        assert!(matches!(e.kind(), ErrorKind::BadSignature { .. }), "{e}");
        assert_eq!((e.offset(), e.section()), (0, "signature"));

        let mut v0120 = bytes.clone();
        v0120[..12].copy_from_slice(b"JMXVBMS 0120");
        let e = ObjectMesh::parse(&v0120).expect_err("unknown version");
        assert!(matches!(e.kind(), ErrorKind::Invalid { .. }), "{e}");
        assert_eq!(e.section(), "signature");

        let inside = with_u32(&bytes, 0x28, 40);
        let e = ObjectMesh::parse(&inside).expect_err("a nav offset inside the header");
        assert_eq!(
            (e.offset(), e.section()),
            (0x28, "header.offsets[7]"),
            "{e}"
        );

        let past = with_u32(&bytes, 0x28, bytes.len() as u32 + 1);
        let e = ObjectMesh::parse(&past).expect_err("a nav offset past the end");
        assert_eq!(e.section(), "before_nav", "{e}");
        assert!(matches!(e.kind(), ErrorKind::UnexpectedEnd { .. }), "{e}");

        // The nav offset at the very end: the section is cut at its first count.
        let at_end = with_u32(&bytes, 0x28, bytes.len() as u32);
        let e = ObjectMesh::parse(&at_end).expect_err("nothing at the nav offset");
        assert_eq!(e.section(), "vertex_count", "{e}");
    }

    #[test]
    fn files_without_a_nav_section_keep_every_byte() {
        let bytes = second_writer::bms::render_only().to_bytes();
        for len in [HEADER_LEN, HEADER_LEN + 1, bytes.len()] {
            let mesh = parse(&bytes[..len], "render only");
            assert!(mesh.nav.is_none());
            assert_eq!(mesh.before_nav, bytes[HEADER_LEN..len]);
            assert_eq!(mesh.to_vec().unwrap(), bytes[..len]);
        }
        // Turning a mesh's nav offset to 0 makes the whole body raw, and it still round-trips.
        let building = with_u32(&second_writer::bms::box_building().to_bytes(), 0x28, 0);
        let mesh = parse(&building, "building without nav");
        assert!(mesh.nav.is_none());
        assert_eq!(mesh.to_vec().unwrap(), building);
    }

    #[test]
    fn mutations_that_parse_write_back_exactly() {
        let mut rng = SplitMix64::new(0xb5_2024);
        let (mut parsed, mut failed) = (0, 0);
        for (what, spec) in spec_meshes() {
            let bytes = spec.to_bytes();
            for _ in 0..3000 {
                let mut m = bytes.clone();
                crate::mutate(&mut m, &mut rng, 3);
                match crate::parse_mutated::<ObjectMesh>(&m, what) {
                    Ok(mesh) => {
                        parsed += 1;
                        // Lint never panics either.
                        let _ = lint(&mesh);
                    }
                    Err(e) => {
                        failed += 1;
                        check_error(&e, m.len(), what);
                    }
                }
            }
        }
        assert!(
            parsed > 1000 && failed > 1000,
            "{parsed} parsed, {failed} failed"
        );
    }

    /// Every input under `tests/fuzz-regressions/bms/` fails with a clean error or writes back
    /// byte-exact.
    #[test]
    fn fuzz_regressions() {
        let dir = crate::manifest_dir().join("tests/fuzz-regressions/bms");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .map(|e| e.expect("readable entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "bin"))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{} holds no .bin inputs", dir.display());
        for path in &files {
            let bytes = std::fs::read(path).expect("readable input");
            let what = path.display().to_string();
            match crate::parse_and_write_back::<ObjectMesh>(&bytes, &what) {
                Ok(mesh) => {
                    let _ = lint(&mesh);
                }
                Err(e) => check_error(&e, bytes.len(), &what),
            }
        }
    }

    /// The seeds under `fuzz/seeds/bms_parse/` are the independent writer's meshes. Run with
    /// `SILKNAV_BLESS_SEEDS=1` to write them after changing the meshes.
    #[test]
    fn fuzz_seeds_are_current() {
        let root = crate::manifest_dir().join("../../fuzz/seeds/bms_parse");
        for (what, spec) in spec_meshes() {
            crate::seed_is_current(&root.join(format!("{what}.bms")), &spec.to_bytes());
        }
    }
}

mod lints {
    use super::*;

    fn building() -> ObjectMesh {
        parse(&second_writer::bms::box_building().to_bytes(), "building")
    }

    fn gate() -> ObjectMesh {
        parse(&second_writer::bms::event_gate().to_bytes(), "gate")
    }

    /// Breaks a valid mesh with `f` and checks that lint reports exactly `code`, at `location`.
    fn expect(mut mesh: ObjectMesh, code: &str, location: &str, f: impl FnOnce(&mut NavSection)) {
        assert_eq!(lint(&mesh), vec![], "the mesh starts clean");
        f(mesh.nav.as_mut().expect("nav"));
        crate::assert_only_finding(&lint(&mesh), code, location, CODES);
    }

    #[test]
    fn codes_are_listed_in_order() {
        crate::check_code_table('B', CODES, include_str!("../../src/bms/lint.rs"));
    }

    #[test]
    fn b001_cell_vertex_out_of_range() {
        expect(building(), "B001", "cells[0].vertices[0]", |n| {
            n.cells[0].vertices[0] = 99;
        });
    }

    #[test]
    fn b002_edge_vertex_out_of_range() {
        expect(building(), "B002", "outline_edges[0].vertices[1]", |n| {
            n.outline_edges[0].vertices[1] = 99;
        });
    }

    #[test]
    fn b003_edge_cell_out_of_range() {
        expect(building(), "B003", "outline_edges[2].cells[0]", |n| {
            n.outline_edges[2].cells[0] = 50;
        });
        expect(building(), "B003", "inline_edges[0].cells[1]", |n| {
            n.inline_edges[0].cells[1] = 4;
        });
    }

    #[test]
    fn b004_edge_not_a_side_of_its_cell() {
        expect(building(), "B004", "outline_edges[0].cells[0]", |n| {
            n.outline_edges[0].cells[0] = 2;
        });
        expect(building(), "B004", "inline_edges[2].cells[1]", |n| {
            n.inline_edges[2].cells[1] = 0;
        });
    }

    #[test]
    fn b005_inline_edge_with_one_cell() {
        expect(building(), "B005", "inline_edges[0].cells", |n| {
            n.inline_edges[0].cells[1] = NO_CELL;
        });
    }

    #[test]
    fn b006_outline_edge_with_a_second_cell() {
        expect(building(), "B006", "outline_edges[0].cells[1]", |n| {
            n.outline_edges[0].cells[1] = 0;
        });
    }

    #[test]
    fn b007_degenerate_cell() {
        expect(building(), "B007", "cells[4].vertices", |n| {
            n.cells.push(NavCell {
                vertices: [0, 1, 2],
                ..NavCell::default()
            });
        });
        expect(building(), "B007", "cells[4].vertices", |n| {
            n.cells.push(NavCell {
                vertices: [3, 4, 3],
                ..NavCell::default()
            });
        });
    }

    #[test]
    fn b008_non_finite_float() {
        expect(building(), "B008", "vertices[3].position", |n| {
            n.vertices[3].position[0] = F32::from_bits(0x7fc0_0001);
        });
        expect(building(), "B008", "grid.origin", |n| {
            n.grid.origin[1] = F32::from(f32::INFINITY);
        });
    }

    #[test]
    fn b009_grid_size_mismatch() {
        expect(building(), "B009", "grid.tiles", |n| n.grid.width += 1);
        expect(building(), "B009", "grid.tiles", |n| {
            n.grid.width = -n.grid.width;
            n.grid.height = -n.grid.height;
        });
    }

    #[test]
    fn b010_grid_names_a_missing_outline_edge() {
        expect(building(), "B010", "grid.tiles[1][2]", |n| {
            n.grid.tiles[1].push(6)
        });
    }

    #[test]
    fn b011_outline_edge_missing_from_a_tile() {
        // The south wall from x = 0 to 160 crosses tiles (0, 0) and (1, 0).
        expect(building(), "B011", "outline_edges[0]", |n| {
            n.grid.tiles[1].retain(|&e| e != 0);
        });
        // The east wall at x = 400 lies on the grid's max border: the tiles of column 3 hold it.
        expect(building(), "B011", "outline_edges[3]", |n| {
            n.grid.tiles[4 + 3].retain(|&e| e != 3);
        });
    }

    #[test]
    fn b012_event_index_out_of_range() {
        expect(gate(), "B012", "cells[2].event", |n| {
            n.cells[2].event = 0x40 | 5
        });
        expect(gate(), "B012", "inline_edges[0].event", |n| {
            n.inline_edges[0].event = 0x80 | 2;
        });
    }

    #[test]
    fn b013_more_event_names_than_an_event_byte_reaches() {
        expect(gate(), "B013", "event_names", |n| {
            n.event_names.resize(65, b"zone".to_vec());
        });
    }

    #[test]
    fn b014_unknown_nav_flags() {
        let mut mesh = building();
        assert_eq!(lint(&mesh), vec![]);
        mesh.header.nav_flags |= 0x100;
        let findings = lint(&mesh);
        assert_eq!(
            findings.iter().map(|f| f.code).collect::<Vec<_>>(),
            ["B014"]
        );
        assert_eq!(findings[0].location, "header.nav_flags");
    }

    #[test]
    fn event_bytes_without_a_mode_fire_nothing() {
        // Bits 6–7 clear: the event never fires, so its index is not checked.
        let mut mesh = gate();
        mesh.nav.as_mut().unwrap().cells[0].event = 0x3f;
        assert_eq!(lint(&mesh), vec![]);
        let none = parse(&second_writer::bms::render_only().to_bytes(), "tree");
        assert_eq!(lint(&none), vec![]);
    }
}

/// The JSON form (`jmxv::bms::json`): both round trips, the text layout, and errors that name
/// the field.
mod json {
    use super::*;
    use jmxv::bms::json;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn model_json_model(mesh in super::roundtrip::model()) {
            let text = json::to_string(&mesh).expect("generated models are writable");
            let back = json::from_str(&text).expect("written JSON reads back");
            prop_assert_eq!(&back, &mesh);
            prop_assert_eq!(json::to_string(&back).unwrap(), text);
        }

        #[test]
        fn bytes_json_bytes(seed in any::<u64>()) {
            let bytes = second_writer::bms::odd(seed).to_bytes();
            let text = json::to_string(&parse(&bytes, "odd")).unwrap();
            prop_assert_eq!(json::from_str(&text).unwrap().to_vec().unwrap(), bytes);
        }
    }

    #[test]
    fn realistic_meshes_round_trip_byte_for_byte() {
        for (what, spec) in spec_meshes() {
            let bytes = spec.to_bytes();
            let text = json::to_string(&parse(&bytes, what)).unwrap();
            let back = json::from_slice(text.as_bytes()).unwrap();
            assert!(back.to_vec().unwrap() == bytes, "{what} changed");
            // One record per line: the header, the strings and every record are lines.
            let nav = back.nav.as_ref().map_or(0, |n| {
                n.vertices.len()
                    + n.cells.len()
                    + n.outline_edges.len()
                    + n.inline_edges.len()
                    + n.event_names.len()
                    + n.grid.tiles.len()
            });
            assert!(text.lines().count() >= nav, "{what}: {text}");
        }
    }

    #[test]
    fn a_mesh_without_nav_has_no_nav_keys() {
        let bytes = second_writer::bms::render_only().to_bytes();
        let mesh = parse(&bytes, "tree");
        assert!(mesh.nav.is_none());
        let text = json::to_string(&mesh).unwrap();
        let keys: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix('"')?.split('"').next())
            .collect();
        assert_eq!(keys, ["signature", "header", "before_nav", "after_nav"]);
        assert_eq!(json::from_str(&text).unwrap().to_vec().unwrap(), bytes);
    }

    fn gate_text() -> String {
        json::to_string(&parse(&second_writer::bms::event_gate().to_bytes(), "gate")).unwrap()
    }

    /// The error of the gate's dump with the first `from` replaced by `to`.
    fn error(from: &str, to: &str) -> String {
        let text = gate_text();
        assert!(text.contains(from), "{from} not in {text}");
        json::from_str(&text.replacen(from, to, 1))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn bad_values_name_their_field() {
        assert_eq!(
            error("\"normal\":", "\"normal\":-1,\"x\":"),
            "vertices[0].normal: expected an integer 0..=255, found -1"
        );
        assert_eq!(
            error("\"position\":[", "\"position\":[\"abc\","),
            r#"vertices[0].position[0]: expected a number, "inf", "-inf" or "nan:XXXXXXXX", found "abc""#
        );
        assert_eq!(
            error("\"position\":[", "\"position\":[0.0,"),
            "vertices[0].position: expected an array of 3 numbers, found an array of 4"
        );
        assert_eq!(
            error("JMXVBMS 0110", "JMXVBMS 0111"),
            r#"signature: expected "JMXVBMS 0110" or "JMXVBMS 0109", found "JMXVBMS 0111""#
        );
        assert_eq!(
            error("\"width\":", "\"width\":1.5,\"w\":"),
            "grid.width: expected an integer -2147483648..=2147483647, found 1.5"
        );
        assert_eq!(
            error("\"flag\":", "\"flags\":"),
            "cells[0].flags: unknown key (expected one of vertices, flag, event)"
        );
        let message = error("\"before_nav\":\"", "\"before_nav\":\"x");
        assert!(
            message.starts_with(
                "before_nav: expected a string of hex digits (two per byte), found \"x"
            ),
            "{message}"
        );
    }

    #[test]
    fn the_navigation_keys_come_together() {
        let text = gate_text();
        let start = text.find("\"grid_tiles\":").unwrap();
        let end = start + text[start..].find("\n\"after_nav\"").unwrap();
        let cut = format!("{}{}", &text[..start], &text[end + 1..]);
        assert_eq!(
            json::from_str(&cut).unwrap_err().to_string(),
            "top level: missing key \"grid_tiles\" (the navigation section's keys, vertices to grid_tiles, \
             come all together or not at all)"
        );
    }

    #[test]
    fn what_would_not_write_is_refused_at_its_path() {
        let text = gate_text();
        let mesh = json::from_str(&text).unwrap();
        let offset = mesh.header.offsets[NAV_OFFSET_INDEX];
        let offsets = format!("{:?}", mesh.header.offsets).replace(' ', "");
        let moved = offsets.replace(&offset.to_string(), &(offset + 1).to_string());
        assert_eq!(
            error(&offsets, &moved),
            format!(
                "header.offsets[7]: the navigation section starts at byte {offset} (the header and \
                 {} bytes of before_nav), but the offset says {}",
                mesh.before_nav.len(),
                offset + 1
            )
        );
        // Cell events stored without the flag that stores them.
        let flags = mesh.header.nav_flags;
        let without = format!("\"nav_flags\":{}", flags & !NAV_CELL_EVENTS);
        let message = error(&format!("\"nav_flags\":{flags}"), &without);
        assert!(message.starts_with("cells["), "{message}");
        assert!(message.contains("].event: "), "{message}");
    }
}
