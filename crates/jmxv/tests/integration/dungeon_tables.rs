//! The dungeon tables: `dungeoninfo.txt` (`jmxv::ifo::dungeon`) and `AINavData_XXXXX.dat`
//! (`jmxv::ainav`). Files written by hand or by the test kit's independent writer decode to
//! exactly the values written and write back byte for byte; round trips both ways over
//! generated files and models; truncated, mutated and oversized input never panics, names where
//! it stopped and allocates no more than the input could fill; each lint code fires on the
//! mistake it names and on nothing else; the JSON form of AINavData round-trips and names the
//! path of what is wrong.
//!
//! What a parse allocates is measured with [`allocated_by`](crate::allocated_by).

use jmxv::ifo::dungeon::{self, DungeonInfo, DungeonLine, DungeonRow, RowFormat};
use jmxv::ifo::{Gap, LineEnding};
use jmxv::lint::Finding;
use jmxv::RegionId;
use proptest::collection::vec;
use proptest::prelude::*;

fn codes(findings: &[Finding]) -> Vec<&'static str> {
    findings.iter().map(|f| f.code).collect()
}

mod dungeoninfo {
    use super::*;

    /// A file as the game's server ships it: a header comment, rows with the service column,
    /// tabs, `\r\n`; one row skipped (service 0).
    const GAME: &[u8] = b"// service\tid\tpath\r\n\
        1\t1\t\"Dungeon\\wchina\\Dunhwang_Cv.dof\"\r\n\
        1\t2\t\"Dungeon\\china\\jinsi_floor06.dof\"\r\n\
        0\t8\t\"Dungeon\\gngwc\\gngwc.dof\"\r\n";

    fn parse(bytes: &[u8]) -> DungeonInfo {
        DungeonInfo::parse(bytes)
            .unwrap_or_else(|e| panic!("{e} in {:?}", String::from_utf8_lossy(bytes)))
    }

    fn rows(info: &DungeonInfo) -> Vec<(Option<u32>, u32, Vec<u8>)> {
        info.rows()
            .map(|r| (r.service, r.id, r.path.clone()))
            .collect()
    }

    #[test]
    fn the_games_form_decodes_exactly() {
        let info = parse(GAME);
        assert_eq!(info.to_vec().unwrap(), GAME);
        assert_eq!(info.encoded_len(), GAME.len());
        assert_eq!(info.lines.len(), 4);
        assert_eq!(
            info.lines[0],
            DungeonLine::Comment {
                text: b"// service\tid\tpath".to_vec(),
                ending: LineEnding::CrLf
            }
        );
        assert_eq!(
            rows(&info),
            [
                (Some(1), 1, b"Dungeon\\wchina\\Dunhwang_Cv.dof".to_vec()),
                (Some(1), 2, b"Dungeon\\china\\jinsi_floor06.dof".to_vec()),
                (Some(0), 8, b"Dungeon\\gngwc\\gngwc.dof".to_vec()),
            ]
        );
        for row in info.rows() {
            assert!(row.format.is_game_spelling(row.service, row.id), "{row:?}");
            assert_eq!(row.format.ending, LineEnding::CrLf);
        }
        assert_eq!(info.has_service_column(), Some(true));
        let served: Vec<u32> = info.served().map(|r| r.id).collect();
        assert_eq!(served, [1, 2]);
        assert_eq!(info.get(8), None, "service 0: not loaded");
        assert_eq!(
            info.by_region(RegionId(0x8002)).map(|r| r.id),
            Some(2),
            "region 0x8000 | 2"
        );
        assert_eq!(info.by_region(RegionId(0x0002)), None, "a terrain region");
        let regions: Vec<Option<RegionId>> = info.rows().map(DungeonRow::region).collect();
        assert_eq!(
            regions,
            [
                Some(RegionId(0x8001)),
                Some(RegionId(0x8002)),
                Some(RegionId(0x8008))
            ]
        );
        assert_eq!(dungeon::lint(&info), vec![]);

        // The same rows built from values write the same bytes.
        let mut made = DungeonInfo::new(
            rows(&info)
                .into_iter()
                .map(|(s, id, path)| DungeonRow::new(s, id, path))
                .collect(),
        );
        made.lines
            .insert(0, DungeonLine::comment(&b"// service\tid\tpath"[..]));
        assert_eq!(made, info);
        assert_eq!(made.to_vec().unwrap(), GAME);
    }

    #[test]
    fn rows_without_the_service_column_are_kept_as_such() {
        let bytes = b"//id\tpath\n1\t\"Dungeon\\a.dof\"\n25\t\"Dungeon\\bagh_mong_boss.dof\"\n";
        let info = parse(bytes);
        assert_eq!(info.to_vec().unwrap(), bytes);
        assert_eq!(
            rows(&info),
            [
                (None, 1, b"Dungeon\\a.dof".to_vec()),
                (None, 25, b"Dungeon\\bagh_mong_boss.dof".to_vec()),
            ]
        );
        assert_eq!(info.has_service_column(), Some(false));
        assert_eq!(
            info.served().count(),
            2,
            "without the column every row loads"
        );
        assert!(info.rows().all(|r| r.format.ending == LineEnding::Lf));
        assert_eq!(
            info.get(25).and_then(DungeonRow::region),
            Some(RegionId(0x8019))
        );
        assert_eq!(dungeon::lint(&info), vec![]);
        // A row written without the column reads back without it.
        let made = DungeonInfo::new(vec![DungeonRow::new(None, 7, &b"x.dof"[..])]);
        assert_eq!(made.to_vec().unwrap(), b"7\t\"x.dof\"\r\n");
        assert_eq!(parse(&made.to_vec().unwrap()), made);
    }

    #[test]
    fn cp949_paths_and_comments_are_bytes() {
        // 0xb4 0xf8 is 던 (as in 던전, dungeon) in CP949; kept as bytes, never decoded.
        let bytes = b"// \xb4\xf8\xc0\xfc\r\n1\t3\t\"Dungeon\\\xb4\xf8.dof\"\r\n";
        let info = parse(bytes);
        assert_eq!(info.to_vec().unwrap(), bytes);
        assert_eq!(info.rows().next().unwrap().path, b"Dungeon\\\xb4\xf8.dof");
        assert_eq!(
            info.lines[0],
            DungeonLine::Comment {
                text: b"// \xb4\xf8\xc0\xfc".to_vec(),
                ending: LineEnding::CrLf
            }
        );
        assert_eq!(dungeon::lint(&info), vec![]);
    }

    #[test]
    fn a_missing_final_line_break_and_odd_spelling_are_kept() {
        let bytes = b"//h\r\n\r\n  \t\n 001  0002\t\"p.dof\"  \r\n3\t\"q.DOF\"";
        let info = parse(bytes);
        assert_eq!(info.to_vec().unwrap(), bytes);
        assert!(matches!(
            &info.lines[1],
            DungeonLine::Blank { blanks, ending: LineEnding::CrLf } if blanks.is_empty()
        ));
        assert!(matches!(
            &info.lines[2],
            DungeonLine::Blank { blanks, ending: LineEnding::Lf } if blanks == b"  \t"
        ));
        let odd = info.lines[3].as_row().unwrap();
        assert_eq!((odd.service, odd.id), (Some(1), 2));
        assert_eq!(
            odd.format,
            RowFormat {
                lead: Gap::spaces(1),
                service_width: 3,
                id_width: 4,
                gaps: [Gap::spaces(2), Gap::tabs(1)],
                tail: Gap::spaces(2),
                ending: LineEnding::CrLf,
            }
        );
        let last = info.lines[4].as_row().unwrap();
        assert_eq!((last.service, last.id), (None, 3));
        assert_eq!(last.format.ending, LineEnding::None);
        // Padding is spelling, not value: the same values in the game's spelling differ.
        let mut plain = odd.clone();
        plain.format = RowFormat::GAME;
        assert_ne!(&plain, odd);
        assert!(!odd.format.is_game_spelling(odd.service, odd.id));
    }

    #[test]
    fn malformed_lines_name_their_line_and_field() {
        let error = |bytes: &[u8]| {
            let e = DungeonInfo::parse(bytes).expect_err("malformed");
            assert!(e.offset() <= bytes.len(), "{e}");
            (e.offset(), e.section().to_owned())
        };
        assert_eq!(error(b"//h\nabc\n"), (4, "lines[1]".into()));
        assert_eq!(error(b"1\t2\t\"open\n"), (4, "lines[0].path".into()));
        assert_eq!(error(b"1\t2\t\"p.dof\"x\n"), (11, "lines[0].path".into()));
        assert_eq!(error(b"1\t0x2\t\"p.dof\"\n"), (3, "lines[0].id".into()));
        assert_eq!(error(b"1\t \"p.dof\"\n"), (1, "lines[0]".into()));
        assert_eq!(error(b"//\n\n1\t2\tp.dof\n"), (8, "lines[2].path".into()));
        assert_eq!(error(b"1\t99999999999\t\"p\"\n"), (2, "lines[0].id".into()));
        let e = DungeonInfo::parse(b"1\t2\t\"p\"x").unwrap_err();
        assert!(
            e.to_string().contains("expected the end of the line"),
            "{e}"
        );
    }

    #[test]
    fn the_writer_refuses_what_would_not_read_back() {
        let mut info = parse(GAME);
        let refused = |info: &DungeonInfo| info.to_vec().expect_err("refused").section().to_owned();

        let mut m = info.clone();
        if let DungeonLine::Row(row) = &mut m.lines[1] {
            row.path.push(b'"');
        }
        assert_eq!(refused(&m), "lines[1].path");

        let mut m = info.clone();
        if let DungeonLine::Row(row) = &mut m.lines[2] {
            row.format.gaps[0] = Gap::NONE;
        }
        assert_eq!(refused(&m), "lines[2]");
        // Without the service column that gap is not written, so it may be empty.
        if let DungeonLine::Row(row) = &mut m.lines[2] {
            row.service = None;
        }
        assert_eq!(parse(&m.to_vec().unwrap()), m);

        let mut m = info.clone();
        if let DungeonLine::Comment { ending, .. } = &mut m.lines[0] {
            *ending = LineEnding::None;
        }
        assert_eq!(refused(&m), "lines[0]");

        let mut m = info.clone();
        m.lines.push(DungeonLine::Blank {
            blanks: b"x".to_vec(),
            ending: LineEnding::Lf,
        });
        assert_eq!(refused(&m), "lines[4]");

        let err = m.write_to(Vec::new()).expect_err("refused");
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
        info.lines.pop();
        let mut out = Vec::new();
        info.write_to(&mut out).unwrap();
        assert_eq!(DungeonInfo::read_from(out.as_slice()).unwrap(), info);
    }

    #[test]
    fn truncation_at_every_offset() {
        let sample = [
            GAME,
            b"//\xb4\xf8\n\n 01 \t\"a\\\xb4\xf8.dof\"\t\r\n2\t\"b.dof\"",
        ]
        .concat();
        let mut parsed = 0;
        for len in 0..=sample.len() {
            let cut = &sample[..len];
            match DungeonInfo::parse(cut) {
                Ok(info) => {
                    parsed += 1;
                    assert_eq!(info.to_vec().unwrap(), cut, "length {len}");
                    let _ = dungeon::lint(&info);
                }
                Err(e) => {
                    assert!(e.offset() <= len, "length {len}: {e}");
                    assert!(e.section().starts_with("lines["), "length {len}: {e}");
                }
            }
        }
        // Cuts inside a quoted path fail; cuts at line breaks and inside comments parse.
        assert!(parsed > 20 && parsed < sample.len(), "{parsed} cuts parsed");
    }

    fn gap() -> impl Strategy<Value = Gap> {
        prop_oneof![(1u8..4).prop_map(Gap::spaces), (1u8..4).prop_map(Gap::tabs)]
    }

    fn edge_gap() -> impl Strategy<Value = Gap> {
        prop_oneof![3 => Just(Gap::NONE), 1 => gap()]
    }

    fn ending() -> impl Strategy<Value = LineEnding> {
        prop_oneof![Just(LineEnding::Lf), Just(LineEnding::CrLf)]
    }

    fn quoted() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            Just(b"Dungeon\\wchina\\Dunhwang_Cv.dof".to_vec()),
            Just(b"Dungeon\\\xb4\xf8.dof".to_vec()),
            vec(
                any::<u8>().prop_filter("quote or LF", |&b| b != b'"' && b != b'\n'),
                0..16
            ),
        ]
    }

    fn row() -> impl Strategy<Value = DungeonRow> {
        (
            prop_oneof![
                Just(None),
                (0u32..3).prop_map(Some),
                any::<u32>().prop_map(Some)
            ],
            prop_oneof![3 => 0u32..40, 1 => any::<u32>()],
            quoted(),
            (
                edge_gap(),
                0u8..8,
                0u8..8,
                [gap(), gap()],
                edge_gap(),
                ending(),
            ),
        )
            .prop_map(
                |(service, id, path, (lead, service_width, id_width, gaps, tail, ending))| {
                    DungeonRow {
                        service,
                        id,
                        path,
                        format: RowFormat {
                            lead,
                            service_width,
                            id_width,
                            gaps,
                            tail,
                            ending,
                        },
                    }
                },
            )
    }

    fn line() -> impl Strategy<Value = DungeonLine> {
        let comment_byte = any::<u8>().prop_filter("line break", |&b| b != b'\n' && b != b'\r');
        prop_oneof![
            3 => row().prop_map(DungeonLine::Row),
            1 => (vec(prop::sample::select(&b" \t"[..]), 0..3), vec(comment_byte, 0..12), ending())
                .prop_map(|(lead, rest, ending)| DungeonLine::Comment {
                    text: [lead, b"//".to_vec(), rest].concat(),
                    ending,
                }),
            1 => (vec(prop::sample::select(&b" \t"[..]), 0..4), ending())
                .prop_map(|(blanks, ending)| DungeonLine::Blank { blanks, ending }),
        ]
    }

    /// Writable files: any lines, the last at times without its line break.
    fn file() -> impl Strategy<Value = DungeonInfo> {
        (vec(line(), 0..8), any::<bool>()).prop_map(|(mut lines, unbroken)| {
            if let Some(last) = lines.last_mut().filter(|_| unbroken) {
                match last {
                    DungeonLine::Row(row) => row.format.ending = LineEnding::None,
                    DungeonLine::Comment { ending, .. } => *ending = LineEnding::None,
                    DungeonLine::Blank { blanks, ending } if !blanks.is_empty() => {
                        *ending = LineEnding::None
                    }
                    DungeonLine::Blank { .. } => {}
                    _ => unreachable!("the three kinds of line"),
                }
            }
            DungeonInfo { lines }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn model_bytes_model(info in file()) {
            let bytes = info.to_vec().expect("generated files are writable");
            let back = crate::reads_back_as_written(&info, bytes)?;
            let _ = dungeon::lint(&back);
        }

        #[test]
        fn bytes_model_bytes(
            bytes in vec(prop::sample::select(&b" \t\r\n\"/01239x.dof\\\xb4\xf8"[..]), 0..80),
        ) {
            match DungeonInfo::parse(&bytes) {
                Ok(info) => {
                    prop_assert_eq!(info.to_vec().unwrap(), bytes);
                    let _ = dungeon::lint(&info);
                }
                Err(e) => prop_assert!(e.offset() <= bytes.len() && e.section().starts_with("lines[")),
            }
        }

        #[test]
        fn mutated_files_parse_to_what_they_hold(
            info in file(), at in any::<usize>(), byte in prop::sample::select(&b" \t\r\n\"/0x9\xb4"[..]),
        ) {
            let mut bytes = info.to_vec().unwrap();
            if !bytes.is_empty() {
                let at = at % bytes.len();
                bytes[at] = byte;
            }
            if let Ok(info) = DungeonInfo::parse(&bytes) {
                prop_assert_eq!(info.to_vec().unwrap(), bytes);
            }
        }
    }

    mod lints {
        use super::*;
        use jmxv::ifo::dungeon::{lint, CODES};

        #[test]
        fn codes_are_listed_in_order_and_documented() {
            crate::check_code_table('I', CODES, include_str!("../../src/ifo/dungeon_lint.rs"));
        }

        /// `GAME` with `text` appended, or with its rows changed by `f`, lints as exactly
        /// `code` at `location`.
        fn expect(code: &str, location: &str, f: impl FnOnce(&mut DungeonInfo)) {
            let mut info = parse(GAME);
            assert_eq!(lint(&info), vec![], "the game's file lints clean");
            f(&mut info);
            crate::assert_only_finding(&lint(&info), code, location, CODES);
        }

        fn push(info: &mut DungeonInfo, service: Option<u32>, id: u32, path: &[u8]) {
            info.lines
                .push(DungeonLine::Row(DungeonRow::new(service, id, path)));
        }

        fn row(info: &mut DungeonInfo, line: usize) -> &mut DungeonRow {
            match &mut info.lines[line] {
                DungeonLine::Row(row) => row,
                other => panic!("line {line} is {other:?}"),
            }
        }

        #[test]
        fn i001_a_served_id_twice() {
            expect("I001", "lines[4].id", |i| {
                push(i, Some(1), 2, b"Dungeon\\x.dof")
            });
        }

        #[test]
        fn i002_an_id_again_beside_a_skipped_row() {
            expect("I002", "lines[4].id", |i| {
                push(i, Some(1), 8, b"Dungeon\\y.dof")
            });
            // Two skipped rows with one id are the same warning, not an error.
            expect("I002", "lines[4].id", |i| {
                push(i, Some(0), 8, b"Dungeon\\y.dof")
            });
        }

        #[test]
        fn i003_an_id_beyond_15_bits() {
            expect("I003", "lines[2].id", |i| row(i, 2).id = 0x8000);
            let mut info = parse(GAME);
            row(&mut info, 2).id = 0x8000;
            assert_eq!(info.lines[2].as_row().unwrap().region(), None);
            assert_eq!(info.by_region(RegionId(0x8000)), None);
            row(&mut info, 2).id = 0x7FFF;
            assert_eq!(
                info.lines[2].as_row().unwrap().region(),
                Some(RegionId(0xFFFF))
            );
        }

        #[test]
        fn i004_an_empty_path() {
            expect("I004", "lines[1].path", |i| row(i, 1).path.clear());
        }

        #[test]
        fn i005_a_path_that_is_not_a_dof() {
            expect("I005", "lines[3].path", |i| {
                row(i, 3).path = b"Dungeon\\gngwc.dat".to_vec()
            });
            expect("I005", "lines[3].path", |i| {
                row(i, 3).path = b"Dungeon.dof\\gngwc".to_vec()
            });
            // Any case of the extension is a .dof.
            let mut info = parse(GAME);
            row(&mut info, 3).path = b"Dungeon\\GNGWC.DoF".to_vec();
            assert_eq!(lint(&info), vec![]);
        }

        #[test]
        fn i006_a_service_flag_other_than_0_and_1() {
            expect("I006", "lines[2].service", |i| row(i, 2).service = Some(2));
        }

        #[test]
        fn i007_both_row_forms_in_one_file() {
            expect("I007", "lines[4]", |i| {
                push(i, None, 3, b"Dungeon\\b.dof");
                push(i, None, 4, b"Dungeon\\c.dof");
            });
        }

        #[test]
        fn i008_forward_slashes() {
            expect("I008", "lines[1].path", |i| {
                row(i, 1).path = b"Dungeon/wchina/Dunhwang_Cv.dof".to_vec()
            });
        }

        #[test]
        fn i009_rows_not_in_the_games_spelling() {
            expect("I009", "lines[2]", |i| {
                row(i, 2).format.gaps = [Gap::spaces(1); 2];
                row(i, 3).format.id_width = 3;
            });
            let findings = {
                let mut info = parse(GAME);
                row(&mut info, 2).format.tail = Gap::tabs(1);
                row(&mut info, 3).format.lead = Gap::spaces(1);
                lint(&info)
            };
            assert_eq!(findings.len(), 1, "one finding for every misspelled row");
            assert!(findings[0].message.starts_with("2 rows"), "{}", findings[0]);
        }

        #[test]
        fn i010_mixed_line_breaks() {
            expect("I010", "lines[2]", |i| {
                row(i, 2).format.ending = LineEnding::Lf
            });
        }

        #[test]
        fn i011_nothing_the_server_loads() {
            expect("I011", "lines", |i| {
                row(i, 1).service = Some(0);
                row(i, 2).service = Some(0);
            });
        }
    }
}

mod ainav {
    use super::*;
    use jmxv::ainav::lint::{lint, lint_dungeon, BlockCounts, CODES};
    use jmxv::ainav::{
        self, AiNavData, BlockLink, NextEdge, RouteBlock, SquareTable, NO_CELL, NO_EDGE,
    };
    use jmxv::{Error, ErrorKind, F32};
    use silknav_testkit::rng::SplitMix64;
    use silknav_testkit::second_writer::{
        self,
        ainav::{SpecAiNav, CORRIDOR_CELLS, STRAY},
    };

    fn parse(bytes: &[u8], what: &str) -> AiNavData {
        AiNavData::parse(bytes).unwrap_or_else(|e| panic!("{what}: {e}"))
    }

    fn corridor() -> AiNavData {
        parse(&second_writer::ainav::corridor().to_bytes(), "corridor")
    }

    fn mesh_counts(spec: &SpecAiNav) -> Vec<BlockCounts> {
        spec.mesh_counts()
            .into_iter()
            .map(|(cells, edges)| BlockCounts { cells, edges })
            .collect()
    }

    /// Section names the reader may put in an error.
    const SECTIONS: [&str; 12] = [
        "version",
        "centres_offset",
        "region",
        "block_count",
        "blocks",
        "sub_goals",
        "unknown0",
        "gap",
        "centre_region",
        "centre_block_count",
        "edge_centres",
        "unknown1",
    ];

    const BLOCK_FIELDS: [&str; 4] = ["", "next_edge", "link_count", "links"];

    fn check_error(e: &Error, len: usize, what: &str) {
        crate::check_error_place(e, len, what, |section| {
            let (list, rest) = section.split_once('[').unwrap_or((section, ""));
            SECTIONS.contains(&list)
                && match (list, rest.split_once(']')) {
                    (_, None) => true,
                    ("blocks", Some((i, field))) => {
                        i.parse::<usize>().is_ok()
                            && BLOCK_FIELDS.contains(&field.strip_prefix('.').unwrap_or(field))
                    }
                    ("edge_centres", Some((i, ""))) => i.parse::<usize>().is_ok(),
                    _ => false,
                }
        });
    }

    mod independent {
        use super::*;

        /// jmxv's model holds exactly what the independent writer wrote, where it wrote it.
        fn check(spec: &SpecAiNav, what: &str) -> AiNavData {
            let (bytes, layout) = spec.to_bytes_with_layout();
            let nav = parse(&bytes, what);
            assert!(
                nav.to_vec().unwrap() == bytes,
                "{what}: byte-identical write"
            );
            assert_eq!(nav.encoded_len(), bytes.len(), "{what}");
            assert_eq!(nav.centres_position(), layout.centres, "{what}");
            assert_eq!(nav.region, RegionId(spec.region), "{what}");
            assert_eq!(nav.blocks.len(), spec.blocks.len(), "{what}");
            for (b, s) in nav.blocks.iter().zip(&spec.blocks) {
                assert_eq!(
                    (b.index, b.next_edge.side(), b.edge_count),
                    (s.index, s.cells, s.edges),
                    "{what}"
                );
                let table: Vec<(i16, i16)> = b
                    .next_edge
                    .entries()
                    .iter()
                    .map(|e| (e.forward, e.backward))
                    .collect();
                assert_eq!(table, s.table, "{what}");
                let links: Vec<(u32, u16, u16, u16)> = b
                    .links
                    .iter()
                    .map(|l| (l.id, l.cell, l.linked_block, l.linked_edge))
                    .collect();
                assert_eq!(links, s.links, "{what}");
            }
            assert_eq!(nav.sub_goals.entries(), &spec.sub_goals[..], "{what}");
            assert_eq!(nav.sub_goals.side() as usize, spec.blocks.len());
            assert_eq!(nav.unknown0, spec.int0, "{what}");
            assert_eq!(nav.gap, spec.gap, "{what}");
            assert_eq!(nav.centre_region, RegionId(spec.centre_region), "{what}");
            let centres: Vec<Vec<[u32; 3]>> = nav
                .edge_centres
                .iter()
                .map(|b| b.iter().map(|c| c.map(F32::to_bits)).collect())
                .collect();
            assert_eq!(centres, spec.centres, "{what}");
            assert_eq!(nav.unknown1, spec.int1, "{what}");
            assert_eq!(nav.trailing, spec.trailing, "{what}");
            assert_eq!(nav.trailing, bytes[layout.end..], "{what}");
            nav
        }

        #[test]
        fn the_corridor_decodes_exactly_and_lints_clean() {
            let spec = second_writer::ainav::corridor();
            let nav = check(&spec, "corridor");
            assert_eq!(lint(&nav), vec![]);
            assert_eq!(lint_dungeon(&nav, &mesh_counts(&spec)), vec![]);
            let sides: Vec<u32> = nav.blocks.iter().map(|b| b.next_edge.side()).collect();
            assert_eq!(sides, CORRIDOR_CELLS);
            // From cell 3 toward cell 0 of the first block: cross inline edge 2 (between cells 2
            // and 3), and from cell 0 back toward cell 3, inline edge 0.
            let e = nav.blocks[0].next_edge.get(0, 3).unwrap();
            assert_eq!((e.forward, e.backward), (2, 0));
            assert_eq!(nav.blocks[0].next_edge.get(1, 1).unwrap().forward, NO_EDGE);
            // From block 0 toward block 2: head for block 0's last cell, which links to block 1.
            assert_eq!(nav.sub_goals.get(2, 0), Some(&3));
            assert_eq!(
                nav.sub_goals.get(1, 1),
                Some(&STRAY),
                "the diagonal as written"
            );
            assert_eq!(
                nav.blocks[0].links,
                [BlockLink {
                    id: 3,
                    cell: 3,
                    linked_block: 1,
                    linked_edge: 8
                }]
            );
            assert_eq!(nav.blocks[1].edge_count as usize, nav.edge_centres[1].len());
            assert_eq!(
                ainav::region_from_file_name(&ainav::file_name(nav.region)),
                Some(nav.region)
            );
            assert_eq!(ainav::file_name(nav.region), "AINavData_32785.dat");
        }

        #[test]
        fn odd_values_decode_exactly() {
            let mut gaps = 0;
            for seed in 0..400 {
                let spec = second_writer::ainav::odd(seed);
                gaps += usize::from(!spec.gap.is_empty());
                let nav = check(&spec, &format!("odd({seed})"));
                let _ = lint(&nav);
                let _ = lint_dungeon(&nav, &mesh_counts(&spec));
            }
            assert!(gaps > 100, "{gaps} files with bytes between the sections");
        }
    }

    mod roundtrip {
        use super::*;

        const ODD_BITS: [u32; 5] = [0x7fc0_0001, 0xffa0_1234, 0x8000_0000, 0x7f80_0000, 1];

        fn float() -> impl Strategy<Value = F32> {
            prop_oneof![prop::sample::select(ODD_BITS.to_vec()), any::<u32>()]
                .prop_map(F32::from_bits)
        }

        fn short() -> impl Strategy<Value = i16> {
            prop_oneof![Just(-1i16), 0i16..40, any::<i16>()]
        }

        fn block() -> impl Strategy<Value = RouteBlock> {
            (0u32..5)
                .prop_flat_map(|cells| {
                    (
                        any::<u32>(),
                        any::<u32>(),
                        vec((short(), short()), (cells * cells) as usize),
                        vec(any::<(u32, u16, u16, u16)>(), 0..4),
                        Just(cells),
                    )
                })
                .prop_map(|(index, edge_count, entries, links, cells)| RouteBlock {
                    index,
                    edge_count,
                    next_edge: SquareTable::new(
                        cells,
                        entries
                            .into_iter()
                            .map(|(forward, backward)| NextEdge { forward, backward })
                            .collect(),
                    )
                    .expect("cells² entries"),
                    links: links
                        .into_iter()
                        .map(|(id, cell, linked_block, linked_edge)| BlockLink {
                            id,
                            cell,
                            linked_block,
                            linked_edge,
                        })
                        .collect(),
                })
        }

        /// Writable models with odd values everywhere.
        pub(super) fn model() -> impl Strategy<Value = AiNavData> {
            vec(block(), 0..4)
                .prop_flat_map(|blocks| {
                    let n = blocks.len();
                    (
                        Just(blocks),
                        vec(short(), n * n),
                        (any::<u16>(), any::<u16>(), any::<u32>(), any::<u32>()),
                        vec(any::<u8>(), 0..6),
                        vec(vec([float(), float(), float()], 0..4), 0..5),
                        vec(any::<u8>(), 0..6),
                    )
                })
                .prop_map(
                    |(
                        blocks,
                        goals,
                        (region, centre_region, unknown0, unknown1),
                        gap,
                        edge_centres,
                        trailing,
                    )| {
                        let side = blocks.len() as u32;
                        AiNavData {
                            region: RegionId(region),
                            blocks,
                            sub_goals: SquareTable::new(side, goals).expect("blocks² entries"),
                            unknown0,
                            gap,
                            centre_region: RegionId(centre_region),
                            edge_centres,
                            unknown1,
                            trailing,
                        }
                    },
                )
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn model_bytes_model(nav in model()) {
                let bytes = nav.to_vec().expect("generated models are writable");
                crate::reads_back_as_written(&nav, bytes)?;
            }

            #[test]
            fn bytes_model_bytes(seed in any::<u64>()) {
                crate::writes_back::<AiNavData>(&second_writer::ainav::odd(seed).to_bytes())?;
            }
        }

        #[test]
        fn the_writer_refuses_what_would_not_read_back() {
            let nav = corridor();
            let mut m = nav.clone();
            m.blocks.pop();
            let e = m.to_vec().expect_err("a sub-goal table of the wrong side");
            assert_eq!(e.section(), "sub_goals", "{e}");
            m.sub_goals = SquareTable::from_fn(2, |_, _| NO_CELL);
            assert!(m.to_vec().is_ok());
            assert!(m.write_to(Vec::new()).is_ok());

            let mut m = nav.clone();
            m.blocks.pop();
            let err = m.write_to(Vec::new()).expect_err("refused");
            assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
            let mut out = Vec::new();
            nav.write_to(&mut out).unwrap();
            assert_eq!(AiNavData::read_from(out.as_slice()).unwrap(), nav);
        }

        #[test]
        fn the_offset_follows_the_gap() {
            let mut nav = corridor();
            let before = nav.to_vec().unwrap();
            nav.gap = vec![0xaa; 3];
            let bytes = nav.to_vec().unwrap();
            let offset = u32::from_le_bytes(bytes[1..5].try_into().unwrap()) as usize;
            let old = u32::from_le_bytes(before[1..5].try_into().unwrap()) as usize;
            assert_eq!(offset, old + 3);
            assert_eq!(&bytes[offset - 3..offset], [0xaa; 3]);
            assert_eq!(parse(&bytes, "gap"), nav);
        }
    }

    mod robustness {
        use super::*;

        #[test]
        fn truncation_at_every_offset() {
            let mut errors = 0;
            let samples = [
                ("corridor", second_writer::ainav::corridor()),
                ("odd(3)", second_writer::ainav::odd(3)),
                ("odd(11)", second_writer::ainav::odd(11)),
            ];
            for (what, spec) in samples {
                let (bytes, layout) = spec.to_bytes_with_layout();
                for len in 0..=bytes.len() {
                    let cut = &bytes[..len];
                    let cut_name = format!("{what} cut at {len}");
                    match crate::parse_and_write_back::<AiNavData>(cut, &cut_name) {
                        Ok(_) => assert!(len >= layout.end, "{what}: a cut at {len} parsed"),
                        Err(e) => {
                            assert!(len < layout.end, "{what}: a cut at {len} failed: {e}");
                            check_error(&e, len, what);
                            errors += 1;
                        }
                    }
                }
            }
            assert!(errors > 500, "{errors} cuts failed");
        }

        #[test]
        fn the_section_of_a_cut_is_named() {
            let (bytes, layout) = second_writer::ainav::corridor().to_bytes_with_layout();
            let section = |len: usize| {
                let e = AiNavData::parse(&bytes[..len]).expect_err("a cut");
                (e.offset(), e.section().to_owned())
            };
            assert_eq!(section(0), (0, "version".into()));
            assert_eq!(section(3), (1, "centres_offset".into()));
            assert_eq!(section(6), (5, "region".into()));
            assert_eq!(section(9), (7, "block_count".into()));
            let b1 = layout.blocks[1];
            assert_eq!(section(b1 + 5), (b1, "blocks[1]".into()));
            // A cut inside the cell table: the table's cells² entries do not fit.
            let e = AiNavData::parse(&bytes[..b1 + 20]).unwrap_err();
            assert_eq!((e.offset(), e.section()), (b1 + 12, "blocks[1].next_edge"));
            assert_eq!(
                e.kind(),
                &ErrorKind::CountTooLarge {
                    count: 9,
                    min_record_len: 4,
                    left: 8
                }
            );
            let links = b1 + 12 + 4 * 9;
            assert_eq!(section(links + 2), (links, "blocks[1].link_count".into()));
            assert_eq!(section(layout.sub_goals + 1).1, "sub_goals");
            assert_eq!(section(layout.centres - 1).1, "unknown0");
            assert_eq!(section(layout.centres + 1).1, "centre_region");
            // Three blocks of centres do not fit in 2 bytes; 13 centres of block 0 not in 8.
            assert_eq!(section(layout.centres + 8).1, "edge_centres");
            assert_eq!(
                section(layout.centres + 18),
                (layout.centres + 10, "edge_centres[0]".into())
            );
            assert_eq!(section(layout.end - 1).1, "unknown1");
        }

        /// Overwrites the u32 at `at` with `value`.
        fn with_u32(bytes: &[u8], at: usize, value: u32) -> Vec<u8> {
            let mut out = bytes.to_vec();
            out[at..at + 4].copy_from_slice(&value.to_le_bytes());
            out
        }

        #[test]
        fn oversized_counts_fail_before_allocating() {
            let (bytes, layout) = second_writer::ainav::corridor().to_bytes_with_layout();
            let b1 = layout.blocks[1];
            let links = b1 + 12 + 4 * 9;
            for (at, section, square) in [
                (7, "blocks", false),
                (b1 + 4, "blocks[1].next_edge", true),
                (links, "blocks[1].links", false),
                (layout.centres + 2, "edge_centres", false),
                (layout.centres + 6, "edge_centres[0]", false),
            ] {
                for count in [u32::MAX, 1 << 24, 1 << 16] {
                    let broken = with_u32(&bytes, at, count);
                    let e = crate::oversized_count_error::<AiNavData>(&broken, section);
                    let expected = if square {
                        u64::from(count) * u64::from(count)
                    } else {
                        u64::from(count)
                    };
                    assert_eq!(e.section(), section, "{e}");
                    let entries = if square { at + 8 } else { at + 4 };
                    assert_eq!(e.offset(), entries, "{e}");
                    assert!(
                        matches!(e.kind(), ErrorKind::CountTooLarge { count: c, .. } if *c == expected),
                        "{e}"
                    );
                }
            }
        }

        #[test]
        fn allocation_is_bounded_by_the_input() {
            // The worst case per input byte: blocks of no edge centres (4 bytes on disk, a
            // 24-byte vector in the model). Blocks of routes cost less: 16 bytes on disk for a
            // 64-byte block, and their sub-goal table as much in memory as on disk.
            let centres = AiNavData {
                edge_centres: vec![Vec::new(); 200_000],
                ..AiNavData::default()
            };
            let blocks = AiNavData {
                blocks: vec![RouteBlock::default(); 1000],
                sub_goals: SquareTable::from_fn(1000, |_, _| 0),
                edge_centres: vec![Vec::new(); 1000],
                ..AiNavData::default()
            };
            for nav in [centres, blocks] {
                let bytes = nav.to_vec().unwrap();
                let allocated = crate::allocation_within::<AiNavData>(&bytes, 8);
                assert!(
                    allocated > bytes.len(),
                    "{allocated}: the model holds the tables"
                );
            }
        }

        #[test]
        fn bad_headers_and_offsets() {
            let (bytes, layout) = second_writer::ainav::corridor().to_bytes_with_layout();
            let mut v2 = bytes.clone();
            v2[0] = 2;
            let e = AiNavData::parse(&v2).expect_err("version 2");
            assert_eq!((e.offset(), e.section()), (0, "version"));
            assert!(e.to_string().contains("expected version 1, found 2"), "{e}");

            // An offset inside the routing section would make the sections overlap.
            let inside = with_u32(&bytes, 1, layout.centres as u32 - 1);
            let e = AiNavData::parse(&inside).expect_err("an offset inside the routes");
            assert_eq!((e.offset(), e.section()), (1, "centres_offset"), "{e}");
            assert!(matches!(e.kind(), ErrorKind::Invalid { .. }), "{e}");

            let past = with_u32(&bytes, 1, bytes.len() as u32 + 1);
            let e = AiNavData::parse(&past).expect_err("an offset past the end");
            assert_eq!(e.section(), "gap", "{e}");
            assert!(matches!(e.kind(), ErrorKind::UnexpectedEnd { .. }), "{e}");

            // An offset after the routing section: the bytes between are the gap.
            let mut later = with_u32(&bytes, 1, layout.centres as u32 + 2);
            later.splice(layout.centres..layout.centres, [7, 9]);
            let nav = parse(&later, "a gap");
            assert_eq!(nav.gap, [7, 9]);
            assert_eq!(nav.to_vec().unwrap(), later);
            assert_eq!(codes(&lint(&nav)), ["A016"]);
        }

        #[test]
        fn mutations_that_parse_write_back_exactly() {
            let mut rng = SplitMix64::new(0xa1_2025);
            let (mut parsed, mut failed) = (0, 0);
            for spec in [
                second_writer::ainav::corridor(),
                second_writer::ainav::odd(7),
            ] {
                let bytes = spec.to_bytes();
                for _ in 0..3000 {
                    let mut m = bytes.clone();
                    crate::mutate(&mut m, &mut rng, 4);
                    match crate::parse_mutated::<AiNavData>(&m, "mutation") {
                        Ok(nav) => {
                            parsed += 1;
                            let _ = lint(&nav);
                        }
                        Err(e) => {
                            failed += 1;
                            check_error(&e, m.len(), "mutation");
                        }
                    }
                }
            }
            assert!(
                parsed > 500 && failed > 500,
                "{parsed} parsed, {failed} failed"
            );
        }

        /// The seeds under `fuzz/seeds/ainav_parse/` and `fuzz/seeds/dungeoninfo_parse/` are
        /// the corridor and hand-written tables. Run with `SILKNAV_BLESS_SEEDS=1` to write them
        /// after changing those.
        #[test]
        fn fuzz_seeds_are_current() {
            let root = crate::manifest_dir().join("../../fuzz/seeds");
            let seeds: [(&str, Vec<u8>); 4] = [
                (
                    "ainav_parse/corridor.dat",
                    second_writer::ainav::corridor().to_bytes(),
                ),
                (
                    "ainav_parse/odd-7.dat",
                    second_writer::ainav::odd(7).to_bytes(),
                ),
                (
                    "dungeoninfo_parse/service.txt",
                    super::super::dungeoninfo_sample(true),
                ),
                (
                    "dungeoninfo_parse/no-service.txt",
                    super::super::dungeoninfo_sample(false),
                ),
            ];
            for (name, bytes) in seeds {
                crate::seed_is_current(&root.join(name), &bytes);
            }
        }
    }

    mod lints {
        use super::*;

        #[test]
        fn codes_are_listed_in_order_and_documented() {
            crate::check_code_table('A', CODES, include_str!("../../src/ainav/lint.rs"));
        }

        /// Breaks the corridor with `f` and checks that lint reports exactly `code`, at
        /// `location`.
        fn expect(code: &str, location: &str, f: impl FnOnce(&mut AiNavData)) {
            let mut nav = corridor();
            assert_eq!(lint(&nav), vec![], "the corridor starts clean");
            f(&mut nav);
            crate::assert_only_finding(&lint(&nav), code, location, CODES);
        }

        #[test]
        fn a001_unknown0_not_zero() {
            expect("A001", "unknown0", |n| n.unknown0 = 1);
        }

        #[test]
        fn a002_unknown1_not_zero() {
            expect("A002", "unknown1", |n| n.unknown1 = 0x100);
        }

        #[test]
        fn a003_the_sections_name_different_regions() {
            expect("A003", "centre_region", |n| {
                n.centre_region = RegionId(0x8012)
            });
        }

        #[test]
        fn a004_not_a_dungeon_region() {
            expect("A004", "region", |n| {
                n.region = RegionId(0x0011);
                n.centre_region = RegionId(0x0011);
            });
        }

        #[test]
        fn a005_different_block_counts() {
            expect("A005", "edge_centres", |n| {
                n.edge_centres.pop();
            });
        }

        #[test]
        fn a006_edge_centres_and_edge_count_differ() {
            expect("A006", "edge_centres[1]", |n| {
                n.edge_centres[1].pop();
            });
        }

        #[test]
        fn a007_an_edge_out_of_range() {
            expect("A007", "blocks[1].next_edge[2][0].forward", |n| {
                n.blocks[1].next_edge.get_mut(2, 0).unwrap().forward = 99;
            });
            expect("A007", "blocks[0].next_edge[0][1].backward", |n| {
                n.blocks[0].next_edge.get_mut(0, 1).unwrap().backward = -2;
            });
            // The edge count itself is in range: the last edge is fine, one past it is not.
            let mut nav = corridor();
            let last = nav.blocks[2].edge_count as i16 - 1;
            nav.blocks[2].next_edge.get_mut(4, 4).unwrap().forward = last;
            assert_eq!(lint(&nav), vec![]);
            nav.blocks[2].next_edge.get_mut(4, 4).unwrap().forward = last + 1;
            nav.blocks[2].next_edge.get_mut(0, 3).unwrap().backward = last + 5;
            let findings = lint(&nav);
            assert_eq!(codes(&findings), ["A007"], "one finding per block");
            assert_eq!(findings[0].location, "blocks[2].next_edge[0][3].backward");
            assert!(
                findings[0].message.starts_with("2 entries"),
                "{}",
                findings[0]
            );
        }

        #[test]
        fn a008_a_sub_goal_out_of_its_start_block() {
            // Block 1 has 3 cells: cell 3 is one past.
            expect("A008", "sub_goals[0][1]", |n| {
                *n.sub_goals.get_mut(0, 1).unwrap() = 3;
            });
            expect("A008", "sub_goals[2][0]", |n| {
                *n.sub_goals.get_mut(2, 0).unwrap() = -7;
            });
            // "None" and the diagonal are not findings.
            let mut nav = corridor();
            *nav.sub_goals.get_mut(0, 1).unwrap() = NO_CELL;
            *nav.sub_goals.get_mut(0, 0).unwrap() = 999;
            assert_eq!(lint(&nav), vec![]);
        }

        #[test]
        fn a009_a_link_from_a_cell_out_of_range() {
            expect("A009", "blocks[0].links[0].cell", |n| {
                n.blocks[0].links[0].cell = 4;
                n.blocks[0].links[0].id = 4;
            });
        }

        #[test]
        fn a010_a_link_into_a_block_out_of_range() {
            expect("A010", "blocks[1].links[1].linked_block", |n| {
                n.blocks[1].links[1].linked_block = 3;
            });
        }

        #[test]
        fn a011_a_link_through_an_edge_out_of_range() {
            // Block 1 has 3 cells, so 2 + 6 + 2 = 10 edges.
            expect("A011", "blocks[0].links[0].linked_edge", |n| {
                n.blocks[0].links[0].linked_edge = 10;
            });
        }

        #[test]
        fn a012_a_link_id_other_than_its_cell() {
            expect("A012", "blocks[2].links[0].id", |n| {
                n.blocks[2].links[0].id = 77
            });
        }

        #[test]
        fn a013_a_block_index_other_than_its_position() {
            expect("A013", "blocks[2].index", |n| n.blocks[2].index = 5);
        }

        #[test]
        fn a014_more_edges_than_an_i16_names() {
            expect("A014", "blocks[0]", |n| {
                n.blocks[0].edge_count = 40_000;
                let centre = n.edge_centres[0][0];
                n.edge_centres[0].resize(40_000, centre);
            });
        }

        #[test]
        fn a015_a_centre_not_finite() {
            expect("A015", "edge_centres[2][4]", |n| {
                n.edge_centres[2][4][1] = F32::from_bits(0x7fc0_0001);
                n.edge_centres[2][6][0] = F32::from(f32::NEG_INFINITY);
            });
        }

        #[test]
        fn a016_bytes_between_the_sections() {
            expect("A016", "gap", |n| n.gap = vec![0]);
        }

        #[test]
        fn a017_bytes_after_the_last_section() {
            expect("A017", "trailing", |n| n.trailing = vec![0, 0]);
        }

        /// The corridor against its own counts changed by `f` lints as exactly `code`.
        fn expect_dungeon(code: &str, location: &str, f: impl FnOnce(&mut Vec<BlockCounts>)) {
            let spec = second_writer::ainav::corridor();
            let nav = corridor();
            let mut counts = mesh_counts(&spec);
            assert_eq!(lint_dungeon(&nav, &counts), vec![]);
            f(&mut counts);
            let findings = lint_dungeon(&nav, &counts);
            assert_eq!(codes(&findings), [code], "{findings:#?}");
            assert_eq!(findings[0].location, location, "{}", findings[0]);
            let severity = CODES.iter().find(|c| c.0 == code).map(|c| c.1);
            assert_eq!(Some(findings[0].severity), severity);
        }

        #[test]
        fn a018_another_number_of_blocks() {
            expect_dungeon("A018", "blocks", |c| {
                c.pop();
            });
            expect_dungeon("A018", "blocks", |c| c.push(BlockCounts::default()));
        }

        #[test]
        fn a019_a_cell_count_other_than_the_meshs() {
            expect_dungeon("A019", "blocks[1].next_edge", |c| c[1].cells += 1);
        }

        #[test]
        fn a020_an_edge_count_other_than_the_meshs() {
            expect_dungeon("A020", "blocks[2].edge_count", |c| c[2].edges -= 1);
        }

        #[test]
        fn lint_never_panics_on_unwritable_models() {
            // A sub-goal table of the wrong side cannot be written, but lint still answers.
            let mut nav = corridor();
            nav.sub_goals = SquareTable::from_fn(5, |_, _| 2);
            let findings = lint(&nav);
            assert_eq!(codes(&findings), ["A008"], "{findings:#?}");
        }
    }

    /// The JSON form (`jmxv::ainav::json`): both round trips, the text layout, and errors that
    /// name the path.
    mod json {
        use super::*;
        use jmxv::ainav::json;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn model_json_model(nav in super::roundtrip::model()) {
                let text = json::to_string(&nav).expect("generated models are writable");
                let back = json::from_str(&text).expect("written JSON reads back");
                prop_assert_eq!(&back, &nav);
                prop_assert_eq!(json::to_string(&back).unwrap(), text);
            }

            #[test]
            fn bytes_json_bytes(seed in any::<u64>()) {
                let bytes = second_writer::ainav::odd(seed).to_bytes();
                let text = json::to_string(&parse(&bytes, "odd")).unwrap();
                prop_assert_eq!(json::from_str(&text).unwrap().to_vec().unwrap(), bytes);
            }
        }

        fn corridor_text() -> String {
            json::to_string(&corridor()).unwrap()
        }

        #[test]
        fn the_corridor_round_trips_one_block_per_line() {
            let bytes = second_writer::ainav::corridor().to_bytes();
            let text = corridor_text();
            let back = json::from_slice(text.as_bytes()).unwrap();
            assert!(back.to_vec().unwrap() == bytes);
            let keys: Vec<&str> = text
                .lines()
                .filter_map(|l| l.strip_prefix('"')?.split('"').next())
                .collect();
            assert_eq!(
                keys,
                [
                    "region",
                    "blocks",
                    "sub_goals",
                    "unknown0",
                    "gap",
                    "centre_region",
                    "edge_centres",
                    "unknown1",
                    "trailing"
                ]
            );
            let block_lines = text
                .lines()
                .filter(|l| l.starts_with("{\"index\":"))
                .count();
            assert_eq!(block_lines, 3);
            assert!(
                text.contains("\n[3,16191,0],\n"),
                "a sub-goal row per line: {text}"
            );
            let mut out = Vec::new();
            json::to_writer(&back, &mut out).unwrap();
            assert_eq!(out, text.as_bytes());
        }

        /// The error of the corridor's dump with the first `from` replaced by `to`.
        fn error(from: &str, to: &str) -> String {
            let text = corridor_text();
            assert!(text.contains(from), "{from} not in {text}");
            json::from_str(&text.replacen(from, to, 1))
                .unwrap_err()
                .to_string()
        }

        #[test]
        fn bad_values_name_their_path() {
            // Block 0 is a strip of 4 cells: goal 0's row is [[-1,-1],[0,0],[1,0],[2,0]], goal
            // 1's [[0,0],[-1,-1],[1,1],[2,1]], goal 3's [[0,2],[1,2],[2,2],[-1,-1]].
            assert_eq!(
                error(
                    "\"next_edge\":[[[-1,-1],[0,0],[1,0],[2,0]]",
                    "\"next_edge\":[[[-1,-1],[0,0],[1,0],[40000,0]]"
                ),
                "blocks[0].next_edge[0][3][0]: expected an integer -32768..=32767, found 40000"
            );
            assert_eq!(
                error(",[[0,2],[1,2],[2,2],[-1,-1]]]", "]"),
                "blocks[0].next_edge: expected as many rows as entries in a row (a square \
                 table), found 3 rows of 4"
            );
            assert_eq!(
                error("[[0,0],[-1,-1],[1,1],[2,1]]", "[[0,0],[-1,-1],[1,1]]"),
                "blocks[0].next_edge[1]: expected an array of 4 pairs, found an array of 3"
            );
            assert_eq!(
                error("[[0,0],[-1,-1],[1,1],[2,1]]", "[[0,0],[-1,-1],[1,1],[2]]"),
                "blocks[0].next_edge[1][3]: expected an array of 2 integers, found an array of 1"
            );
            assert_eq!(
                error("\"linked_edge\":8", "\"linked_edge\":-8"),
                "blocks[0].links[0].linked_edge: expected an integer 0..=65535, found -8"
            );
            assert_eq!(
                error("\"index\":1,", "\"index\":1,\"cells\":3,"),
                "blocks[1].cells: unknown key (expected one of index, edge_count, next_edge, links)"
            );
            assert_eq!(
                error("\"unknown0\":0,\n", ""),
                "top level: missing key \"unknown0\""
            );
            assert_eq!(
                error("\"gap\":\"\"", "\"gap\":\"0\""),
                "gap: expected a string of hex digits (two per byte), found \"0\""
            );
            let message = error("\"edge_centres\":[\n[[", "\"edge_centres\":[\n[[\"x\",");
            assert!(
                message.starts_with("edge_centres[0][0][0]: expected a number"),
                "{message}"
            );
        }

        #[test]
        fn what_would_not_write_is_refused_at_its_path() {
            // Three blocks but a 2 × 2 sub-goal table.
            let text = corridor_text();
            let start = text.find("\"sub_goals\":[").unwrap();
            let end = start + text[start..].find("\n]").unwrap() + 2;
            let broken = format!(
                "{}\"sub_goals\":[[0,1],[1,0]]{}",
                &text[..start],
                &text[end..]
            );
            assert_eq!(
                json::from_str(&broken).unwrap_err().to_string(),
                "sub_goals: the table's side is 2, but there are 3 blocks (the file stores the \
                 count once)"
            );
            let e = json::from_str(&broken).unwrap_err();
            assert_eq!(e.path(), Some("sub_goals"));
            assert!(json::from_str("{").unwrap_err().position().is_some());
        }

        #[test]
        fn odd_floats_survive() {
            let mut nav = corridor();
            nav.edge_centres[0][0] = [
                F32::from_bits(0x7fc0_0001),
                F32::from(-0.0),
                F32::from(f32::INFINITY),
            ];
            let text = json::to_string(&nav).unwrap();
            assert!(text.contains("[\"nan:7fc00001\",-0.0,\"inf\"]"), "{text}");
            assert_eq!(json::from_str(&text).unwrap(), nav);
        }
    }
}

/// The two `dungeoninfo.txt` fuzz seeds: with and without the service column.
fn dungeoninfo_sample(service: bool) -> Vec<u8> {
    let rows: [(u32, u32, &[u8]); 4] = [
        (1, 1, b"Dungeon\\wchina\\Dunhwang_Cv.dof"),
        (1, 10, b"Dungeon\\pha_cv\\pha_cv_selkis.dof"),
        (0, 23, b"Dungeon\\\xb4\xf8\\gm_event.dof"),
        (1, 25, b"Dungeon\\bagh_mong_boss.dof"),
    ];
    let mut info = DungeonInfo::new(
        rows.iter()
            .map(|&(s, id, path)| DungeonRow::new(service.then_some(s), id, path))
            .collect(),
    );
    info.lines
        .insert(0, DungeonLine::comment(&b"// dungeons"[..]));
    info.to_vec().expect("writable")
}
