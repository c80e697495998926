//! The companion files: `mapinfo.mfo`, `object.ifo`, `tile2d.ifo`. Round trips both ways,
//! truncated and malformed input, and every lint code.

use jmxv::ifo::{
    object, tile2d, Entry, Gap, Grass, LineEnding, LineFormat, NumberFormat, ObjectEntry,
    ObjectIfo, Table, Tile2dEntry, Tile2dIfo,
};
use jmxv::mfo::{self, MapInfo};
use jmxv::nvm::lint::{Finding, Severity};
use jmxv::{ErrorKind, RegionId};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn codes(findings: &[Finding]) -> Vec<&'static str> {
    findings.iter().map(|f| f.code).collect()
}

/// Checks a lint table: each code documented in the module's docs with its severity, each
/// triggered by one of `cases`, and each finding's severity the one its code has.
fn check_codes(table: &[(&str, Severity, &str)], docs: &str, cases: &[(&str, Vec<Finding>)]) {
    for (code, severity, _) in table {
        let row = format!("| {code} | {} |", severity.name());
        assert!(docs.contains(&row), "{code} is not documented as {row}");
    }
    let mut triggered = BTreeSet::new();
    for (code, findings) in cases {
        assert!(
            findings.iter().any(|f| f.code == *code),
            "the case for {code} gives {:?}",
            codes(findings)
        );
        for f in findings {
            let entry = table.iter().find(|c| c.0 == f.code);
            assert_eq!(entry.map(|c| c.1), Some(f.severity), "{f}");
            assert!(!f.location.is_empty() && !f.message.is_empty(), "{f}");
        }
        triggered.insert(*code);
    }
    let all: BTreeSet<&str> = table.iter().map(|c| c.0).collect();
    assert_eq!(triggered, all, "every code has a case");
}

mod mapinfo {
    use super::*;

    fn arb_map() -> impl Strategy<Value = MapInfo> {
        (
            any::<i16>(),
            any::<i16>(),
            any::<[u8; 8]>(),
            prop::collection::vec(any::<u8>(), mfo::BITMAP_LEN),
            prop::collection::vec(any::<u8>(), 0..40),
        )
            .prop_map(|(width, height, unknown, bits, trailing)| {
                let mut map = MapInfo {
                    width,
                    height,
                    unknown,
                    trailing,
                    ..MapInfo::default()
                };
                map.bitmap.copy_from_slice(&bits);
                map
            })
    }

    proptest! {
        #[test]
        fn model_to_bytes_to_model(map in arb_map()) {
            let bytes = map.to_vec();
            prop_assert_eq!(bytes.len(), map.encoded_len());
            prop_assert_eq!(&bytes[..12], b"JMXVMFO 1000");
            let back = MapInfo::parse(&bytes).unwrap();
            prop_assert_eq!(&back, &map);
            let mut written = Vec::new();
            back.write_to(&mut written).unwrap();
            prop_assert_eq!(written, bytes);
        }

        #[test]
        fn bytes_to_model_to_bytes(body in prop::collection::vec(any::<u8>(), 8204..8260)) {
            let mut bytes = mfo::SIGNATURE.to_vec();
            bytes.extend_from_slice(&body);
            let map = MapInfo::parse(&bytes).unwrap();
            prop_assert_eq!(map.trailing.len(), bytes.len() - mfo::FILE_LEN);
            prop_assert_eq!(map.to_vec(), bytes);
        }

        #[test]
        fn enabled_regions_match_a_scan_of_every_id(
            ids in prop::collection::btree_set(any::<u16>(), 0..200),
        ) {
            let map = MapInfo::with_regions(ids.iter().map(|&id| RegionId(id)));
            let listed: Vec<u16> = map.enabled_regions().map(|r| r.0).collect();
            let scanned: Vec<u16> = (0..=u16::MAX).filter(|&id| map.is_enabled(RegionId(id))).collect();
            let given: Vec<u16> = ids.into_iter().collect();
            prop_assert_eq!(&listed, &given);
            prop_assert_eq!(&scanned, &given);
            prop_assert_eq!(map.enabled_count(), given.len());
        }
    }

    #[test]
    fn bits_are_most_significant_first() {
        let map = MapInfo::with_regions([RegionId(1), RegionId(7), RegionId(0x694e)]);
        let bytes = map.to_vec();
        assert_eq!(bytes.len(), 8216);
        assert_eq!(
            &bytes[12..24],
            &[0x00, 0x01, 0x80, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(bytes[24], 0x41, "region 1 is bit 0x40, region 7 bit 0x01");
        assert_eq!(bytes[24 + 0x694e / 8], 0x80 >> (0x694e % 8));
        assert_eq!(bytes[24..].iter().map(|b| b.count_ones()).sum::<u32>(), 3);
        assert_eq!((map.width, map.height), (256, 128));
    }

    #[test]
    fn set_enabled_sets_and_clears_one_bit() {
        let region = RegionId::new(78, 105);
        let mut map = MapInfo::default();
        assert!(!map.is_enabled(region));
        map.set_enabled(region, true);
        map.set_enabled(RegionId(region.0 + 1), true);
        map.set_enabled(region, false);
        assert!(!map.is_enabled(region));
        assert!(map.is_enabled(RegionId(region.0 + 1)));
        assert_eq!(map.enabled_count(), 1);
        assert!(format!("{map:?}").contains("1 regions enabled"));
    }

    #[test]
    fn truncation_at_every_offset_is_an_error() {
        let bytes = MapInfo::with_regions([RegionId(0x1234)]).to_vec();
        for len in 0..bytes.len() {
            let e = MapInfo::parse(&bytes[..len]).expect_err("a cut file");
            assert!(e.offset() <= len, "{e}");
            assert!(
                matches!(e.kind(), ErrorKind::UnexpectedEnd { .. }),
                "length {len}: {e}"
            );
            let section = match len {
                0..=11 => "signature",
                12..=13 => "width",
                14..=15 => "height",
                16..=23 => "unknown",
                _ => "bitmap",
            };
            assert_eq!(e.section(), section, "length {len}");
        }
        assert!(MapInfo::parse(&bytes).is_ok());
    }

    #[test]
    fn a_wrong_signature_shows_what_was_found() {
        let mut bytes = MapInfo::default().to_vec();
        bytes[..12].copy_from_slice(b"JMXVNVM 1000");
        let e = MapInfo::parse(&bytes).unwrap_err();
        assert_eq!((e.offset(), e.section()), (0, "signature"));
        assert!(
            matches!(e.kind(), ErrorKind::BadSignature { found, .. } if found == b"JMXVNVM 1000")
        );
        assert!(e.to_string().contains("JMXVNVM 1000"), "{e}");
        let short = MapInfo::parse(b"JMXQ").unwrap_err();
        assert!(matches!(short.kind(), ErrorKind::BadSignature { found, .. } if found == b"JMXQ"));
    }

    #[test]
    fn reads_from_streams_and_paths() {
        let map = MapInfo::with_regions([RegionId(5)]);
        assert_eq!(MapInfo::read_from(&map.to_vec()[..]).unwrap(), map);
        let path = std::env::temp_dir().join(format!("companions-{}.mfo", std::process::id()));
        std::fs::write(&path, map.to_vec()).unwrap();
        let read = MapInfo::from_path(&path);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(read.unwrap(), map);
        assert!(matches!(
            MapInfo::from_path("/nonexistent/mapinfo.mfo"),
            Err(jmxv::ReadError::Io(_))
        ));
    }

    #[test]
    fn lint_codes() {
        let clean = MapInfo::with_regions([RegionId::new(78, 105)]);
        assert_eq!(mfo::lint(&clean), []);
        let with = |f: &dyn Fn(&mut MapInfo)| {
            let mut map = clean.clone();
            f(&mut map);
            mfo::lint(&map)
        };
        let cases = [
            ("M001", with(&|m| m.width = 300)),
            ("M001", with(&|m| m.height = 0)),
            ("M002", with(&|m| m.width = 50)),
            ("M003", with(&|m| m.set_enabled(RegionId(0x8001), true))),
            ("M004", with(&|m| m.unknown[3] = 1)),
            ("M005", with(&|m| m.trailing = vec![0])),
            ("M006", mfo::lint(&MapInfo::default())),
        ];
        check_codes(mfo::CODES, include_str!("../../src/mfo/mod.rs"), &cases);
        assert_eq!(cases[1].1[0].location, "height");
        let many = MapInfo::with_regions((0..20).map(|x| RegionId::new(x, 100)));
        let outside = mfo::lint(&MapInfo {
            height: 100,
            ..many
        });
        assert_eq!(codes(&outside), ["M002"]);
        assert!(
            outside[0].message.starts_with("20 regions (6400, 6401"),
            "{}",
            outside[0]
        );
    }
}

/// Strategies shared by the two text tables.
mod text {
    use super::*;

    pub fn gap() -> impl Strategy<Value = Gap> {
        prop_oneof![
            4 => Just(Gap::SPACE),
            1 => (1u8..4).prop_map(Gap::spaces),
            1 => (1u8..3).prop_map(Gap::tabs),
        ]
    }

    pub fn tail() -> impl Strategy<Value = Gap> {
        prop_oneof![4 => Just(Gap::NONE), 1 => gap()]
    }

    pub fn number_format() -> impl Strategy<Value = NumberFormat> {
        prop_oneof![
            4 => Just(NumberFormat::GAME),
            2 => (0u8..12, any::<bool>(), any::<bool>()).prop_map(|(width, upper, upper_prefix)| {
                NumberFormat::Hex { width, upper, upper_prefix }
            }),
            1 => (0u8..12).prop_map(|width| NumberFormat::Decimal { width }),
        ]
    }

    pub fn ending() -> impl Strategy<Value = LineEnding> {
        prop_oneof![3 => Just(LineEnding::Lf), 1 => Just(LineEnding::CrLf)]
    }

    pub fn line_format<const N: usize>() -> impl Strategy<Value = LineFormat<N>> {
        (
            prop_oneof![3 => Just(5u8), 1 => 0u8..12],
            number_format(),
            prop::array::uniform::<_, N>(gap()),
            tail(),
            ending(),
        )
            .prop_map(|(index_width, number, gaps, tail, ending)| LineFormat {
                index_width,
                number,
                gaps,
                tail,
                ending,
            })
    }

    /// Bytes a quoted field can hold: anything but `"` and `\n`, often CP949 or a `\r`.
    pub fn quoted() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            Just(b"res\\bldg\\china\\cj_ferry\\cj_ferry_buil.bsr".to_vec()),
            Just(b"res\\interface\\\xb9\xda\xbd\xba.bsr".to_vec()),
            prop::collection::vec(
                any::<u8>().prop_filter("quote or LF", |&b| b != b'"' && b != b'\n'),
                0..24
            ),
        ]
    }

    pub fn index() -> impl Strategy<Value = u32> {
        prop_oneof![3 => 0u32..5000, 1 => any::<u32>()]
    }

    /// Blank lines after the entries, verbatim.
    pub fn trailing() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            4 => Just(Vec::new()),
            1 => prop::collection::vec(prop::sample::select(&[b' ', b'\t', b'\n'][..]), 1..8)
                .prop_map(|mut t| { t.push(b'\n'); t }),
        ]
    }

    /// The header and file-level choices: the count (usually right), both endings, whether the
    /// last line lacks its break, the trailing lines.
    pub fn header() -> impl Strategy<Value = (Option<u32>, LineEnding, LineEnding, bool, Vec<u8>)> {
        (
            prop_oneof![3 => Just(None), 1 => any::<u32>().prop_map(Some)],
            ending(),
            ending(),
            any::<bool>(),
            trailing(),
        )
    }

    /// A table of these entries around a generated header: the count usually right, the last
    /// line at times without its break, else at times trailing blank lines.
    pub fn table<E: Entry + std::fmt::Debug + Clone>(
        entries: impl Strategy<Value = Vec<E>>,
        last_ending: fn(&mut E) -> &mut LineEnding,
    ) -> impl Strategy<Value = Table<E>> {
        (entries, header()).prop_map(
            move |(mut entries, (count, signature_ending, count_ending, unbroken, trailing))| {
                let count = count.unwrap_or(entries.len() as u32);
                let mut ifo = Table {
                    count,
                    signature_ending,
                    count_ending,
                    ..Table::default()
                };
                if unbroken {
                    match entries.last_mut() {
                        Some(last) => *last_ending(last) = LineEnding::None,
                        None => ifo.count_ending = LineEnding::None,
                    }
                } else {
                    ifo.trailing = trailing;
                }
                ifo.entries = entries;
                ifo
            },
        )
    }

    /// Any bytes after the signature line either parse and write back unchanged, or fail at an
    /// offset inside the input with a section.
    pub fn any_bytes_after_the_signature<E: Entry>(body: &[u8]) -> Result<(), TestCaseError> {
        let bytes = [&E::SIGNATURE[..], b"\n", body].concat();
        match Table::<E>::parse(&bytes) {
            Ok(ifo) => prop_assert_eq!(ifo.to_vec().unwrap(), bytes),
            Err(e) => prop_assert!(e.offset() <= bytes.len() && !e.section().is_empty()),
        }
        Ok(())
    }

    /// Every cut of `sample` fails inside its length or writes back as the cut; returns how
    /// many cuts parsed.
    pub fn truncations<E: Entry>(sample: &[u8]) -> usize {
        let mut parsed = 0;
        for len in 0..=sample.len() {
            let cut = &sample[..len];
            match Table::<E>::parse(cut) {
                Ok(ifo) => {
                    parsed += 1;
                    assert_eq!(ifo.to_vec().unwrap(), cut, "length {len}");
                }
                Err(e) => assert!(e.offset() <= len, "length {len}: {e}"),
            }
        }
        parsed
    }

    /// Parses, writes and compares a mutated file: whatever parses writes back unchanged.
    pub fn mutate(bytes: &[u8], at: usize, byte: u8, parse: impl Fn(&[u8]) -> Option<Vec<u8>>) {
        let mut mutated = bytes.to_vec();
        if mutated.is_empty() {
            return;
        }
        let at = at % mutated.len();
        mutated[at] = byte;
        if let Some(written) = parse(&mutated) {
            assert!(
                written == mutated,
                "write(parse(b)) != b for {:?}",
                String::from_utf8_lossy(&mutated)
            );
        }
    }
}

/// The properties every text table has, as proptests over the calling module's `arb_ifo()`
/// tables of `$entry` lines: a table reads back as written, a mutated file that parses writes
/// back unchanged, and any bytes after the signature parse or fail inside the input.
macro_rules! table_properties {
    ($entry:ty) => {
        proptest! {
            #[test]
            fn model_to_bytes_to_model(ifo in arb_ifo()) {
                crate::reads_back_as_written(&ifo, ifo.to_vec().unwrap())?;
            }

            #[test]
            fn mutated_files_that_parse_write_back_unchanged(
                ifo in arb_ifo(), at in any::<usize>(), byte in prop::sample::select(&b" \t\r\n\"0x9aA,{}\xb9"[..]),
            ) {
                mutate(&ifo.to_vec().unwrap(), at, byte, |b| {
                    Table::<$entry>::parse(b).ok().map(|m| m.to_vec().unwrap())
                });
            }

            #[test]
            fn any_bytes_after_the_signature_never_panic(body in prop::collection::vec(any::<u8>(), 0..200)) {
                text::any_bytes_after_the_signature::<$entry>(&body)?;
            }
        }
    };
}

mod object_ifo {
    use super::text::*;
    use super::*;

    fn arb_entry() -> impl Strategy<Value = ObjectEntry> {
        (index(), any::<u32>(), quoted(), line_format::<2>()).prop_map(
            |(index, flags, path, format)| ObjectEntry {
                index,
                flags,
                path,
                format,
            },
        )
    }

    pub fn arb_ifo() -> impl Strategy<Value = ObjectIfo> {
        table(prop::collection::vec(arb_entry(), 0..12), |e| {
            &mut e.format.ending
        })
    }

    const SAMPLE: &[u8] = b"JMXVOBJI1000\r\n4\r\n\
        00000 0x00000001 \"res\\bldg\\china\\cj_ferry\\cj_ferry_buil.bsr\"\r\n\
        00001 0x00000000 \"res\\npc\\npc\\chinasystem_boatman 2.bsr\"\n\
        00090 0x00000000 \"res\\interface\\\xb9\xda\xbd\xba.bsr\"\r\n\
        01057\t0X0000001A  \"compound\\struct\\x.cpd\" \n";

    table_properties!(ObjectEntry);

    #[test]
    fn reads_a_file_with_cp949_and_mixed_line_breaks() {
        let ifo = ObjectIfo::parse(SAMPLE).unwrap();
        assert_eq!(ifo.count, 4);
        assert_eq!(
            (ifo.signature_ending, ifo.count_ending),
            (LineEnding::CrLf, LineEnding::CrLf)
        );
        let values: Vec<(u32, u32)> = ifo.entries.iter().map(|e| (e.index, e.flags)).collect();
        assert_eq!(values, [(0, 1), (1, 0), (90, 0), (1057, 0x1a)]);
        assert_eq!(
            ifo.entries[1].path,
            b"res\\npc\\npc\\chinasystem_boatman 2.bsr"
        );
        assert_eq!(ifo.entries[2].path, b"res\\interface\\\xb9\xda\xbd\xba.bsr");
        let odd = ifo.entries[3].format;
        assert_eq!(odd.gaps, [Gap::tabs(1), Gap::spaces(2)]);
        assert_eq!(odd.tail, Gap::SPACE);
        assert_eq!(
            odd.number,
            NumberFormat::Hex {
                width: 8,
                upper: true,
                upper_prefix: true
            }
        );
        assert_eq!(ifo.entries[1].format.ending, LineEnding::Lf);
        assert_eq!(ifo.to_vec().unwrap(), SAMPLE);
        assert_eq!(ifo.get(90).map(|e| e.extension()), Some(Some(&b"bsr"[..])));
        assert!(ifo.contains(1057) && !ifo.contains(2));
    }

    #[test]
    fn truncation_at_every_offset_never_panics() {
        let parsed = text::truncations::<ObjectEntry>(SAMPLE);
        // A cut after the count line, after each line break, or inside a trailing blank run
        // still parses; so do cuts that leave a whole last line without its break.
        assert!(parsed >= 8, "{parsed} cuts parsed");
    }

    #[test]
    fn new_writes_the_game_spelling() {
        let ifo = ObjectIfo::new(vec![
            ObjectEntry::new(0, 1, &b"res\\a.bsr"[..]),
            ObjectEntry::new(1, 0xab, &b"res\\b.cpd"[..]),
        ]);
        assert_eq!(
            ifo.to_vec().unwrap(),
            b"JMXVOBJI1000\n2\n00000 0x00000001 \"res\\a.bsr\"\n00001 0x000000ab \"res\\b.cpd\"\n"
        );
        assert_eq!(ObjectIfo::default().to_vec().unwrap(), b"JMXVOBJI1000\n0\n");
        assert!(object::lint(&ifo).is_empty());
    }

    #[test]
    fn equality_ignores_choices_that_write_nothing() {
        let plain = ObjectEntry::new(123_456, 1, &b"a.bsr"[..]);
        let mut other = plain.clone();
        other.format.number = NumberFormat::Hex {
            width: 8,
            upper: true,
            upper_prefix: false,
        };
        other.format.index_width = 3;
        assert_eq!(
            plain, other,
            "no hex letters and a 6-digit index: same bytes"
        );
        other.flags = 0xa;
        let mut lower = other.clone();
        lower.format.number = NumberFormat::GAME;
        assert_ne!(other, lower, "0x0000000A and 0x0000000a differ");
        let bytes = ObjectIfo::new(vec![other.clone()]).to_vec().unwrap();
        assert!(bytes.ends_with(b"123456 0x0000000A \"a.bsr\"\n"));
        assert_eq!(ObjectIfo::parse(&bytes).unwrap().entries, [other]);
    }

    #[test]
    fn get_finds_entries_by_index_not_position() {
        let ifo = ObjectIfo::new(
            [0, 5, 7, 7]
                .iter()
                .map(|&i| ObjectEntry::new(i, i, format!("{i}.bsr")))
                .collect(),
        );
        assert_eq!(ifo.get(0).map(|e| e.flags), Some(0));
        assert_eq!(ifo.get(5).map(|e| e.path.as_slice()), Some(&b"5.bsr"[..]));
        assert!(ifo.contains(7) && !ifo.contains(1) && !ifo.contains(u32::MAX));
        assert_eq!(ifo.len(), 4);
    }

    fn error(bytes: &[u8]) -> jmxv::Error {
        ObjectIfo::parse(bytes).expect_err("malformed")
    }

    #[test]
    fn malformed_files_name_offset_and_field() {
        let e = error(b"JMXVOBJI1001\n0\n");
        assert_eq!((e.offset(), e.section()), (0, "signature"));
        assert!(
            matches!(e.kind(), ErrorKind::BadSignature { found, .. } if found == b"JMXVOBJI1001")
        );
        assert!(e.to_string().contains("\"JMXVOBJI1001\""), "{e}");
        assert!(matches!(
            error(b"JMXVOB").kind(),
            ErrorKind::UnexpectedEnd { .. }
        ));
        assert!(matches!(error(b"").kind(), ErrorKind::UnexpectedEnd { .. }));

        let cases: &[(&[u8], usize, &str, &str)] = &[
            (b"JMXVOBJI1000", 12, "count", "line break"),
            (b"JMXVOBJI1000\n", 13, "count", "entry count"),
            (b"JMXVOBJI1000\nx\n", 13, "count", "decimal digits"),
            (b"JMXVOBJI1000\n007\n", 13, "count", "leading zeros"),
            (b"JMXVOBJI1000\n99999999999\n", 13, "count", "below 2^32"),
            (b"JMXVOBJI1000\n1 \n", 14, "count", "end of the line"),
            (
                b"JMXVOBJI1000\n1\nabc 0x0 \"a\"\n",
                15,
                "entries[0].index",
                "decimal digits",
            ),
            (
                b"JMXVOBJI1000\n1\n00000 0x0000aB01 \"a\"\n",
                21,
                "entries[0].flags",
                "one case",
            ),
            (
                b"JMXVOBJI1000\n1\n00000 0x \"a\"\n",
                23,
                "entries[0].flags",
                "hex digits",
            ),
            (
                b"JMXVOBJI1000\n1\n00000 0x0 \"a.bsr\" x\n",
                33,
                "entries[0].path",
                "end of the line",
            ),
            (
                b"JMXVOBJI1000\n1\n00000 \t0x0 \"a\"\n",
                20,
                "entries[0].index",
                "one kind",
            ),
            (
                b"JMXVOBJI1000\n1\n000000x0 \"a\"\n",
                21,
                "entries[0].index",
                "a space",
            ),
            (
                b"JMXVOBJI1000\n2\n00000 0x0 \"a\"\n00001 0x0 \"b\n",
                39,
                "entries[1].path",
                "closing quote",
            ),
            (
                b"JMXVOBJI1000\n2\n00000 0x0 \"a\"\n  \n00001 0x0 \"b\"\n",
                29,
                "entries[1]",
                "blank lines",
            ),
            (
                b"JMXVOBJI1000\n1\n00000 0x0 \"a\"\r",
                28,
                "entries[0].path",
                "end of the line",
            ),
        ];
        for &(bytes, offset, section, expected) in cases {
            let e = error(bytes);
            let shown = String::from_utf8_lossy(bytes);
            assert_eq!(
                (e.offset(), e.section()),
                (offset, section),
                "{shown:?}: {e}"
            );
            assert!(
                matches!(e.kind(), ErrorKind::Invalid { .. }),
                "{shown:?}: {e}"
            );
            assert!(e.to_string().contains(expected), "{shown:?}: {e}");
        }
    }

    #[test]
    fn a_huge_count_is_only_a_number() {
        let ifo =
            ObjectIfo::parse(b"JMXVOBJI1000\n4294967295\n00000 0x00000000 \"a.bsr\"\n").unwrap();
        assert_eq!((ifo.count, ifo.len()), (u32::MAX, 1));
        assert!(ifo.entries.capacity() < 1000);
        assert_eq!(codes(&object::lint(&ifo)), ["O001"]);
    }

    #[test]
    fn models_that_cannot_be_written_say_where() {
        let entry = ObjectEntry::new(0, 0, &b"a.bsr"[..]);
        let write_error = |f: &dyn Fn(&mut ObjectIfo)| {
            let mut ifo = ObjectIfo::new(vec![entry.clone(), entry.clone()]);
            f(&mut ifo);
            let e = ifo.to_vec().expect_err("not writable");
            assert!(ifo.write_to(Vec::new()).is_err());
            e.section().to_string()
        };
        assert_eq!(
            write_error(&|i| i.entries[1].path.push(b'"')),
            "entries[1].path"
        );
        assert_eq!(
            write_error(&|i| i.entries[0].path.push(b'\n')),
            "entries[0].path"
        );
        assert_eq!(
            write_error(&|i| i.entries[0].format.ending = LineEnding::None),
            "entries[0]"
        );
        assert_eq!(
            write_error(&|i| i.entries[1].format.gaps[1] = Gap::NONE),
            "entries[1]"
        );
        assert_eq!(write_error(&|i| i.trailing = b"x\n".to_vec()), "trailing");
        assert_eq!(write_error(&|i| i.trailing = b"\r".to_vec()), "trailing");
        assert_eq!(write_error(&|i| i.count_ending = LineEnding::None), "count");
        assert_eq!(
            write_error(&|i| i.signature_ending = LineEnding::None),
            "signature"
        );
        let mut last = ObjectIfo::new(vec![entry.clone()]);
        last.entries[0].format.ending = LineEnding::None;
        last.trailing = b"\n".to_vec();
        assert_eq!(last.to_vec().unwrap_err().section(), "entries[0]");
        last.trailing.clear();
        assert_eq!(ObjectIfo::parse(&last.to_vec().unwrap()).unwrap(), last);
    }

    #[test]
    fn lint_codes() {
        let clean = ObjectIfo::new(
            (0..4)
                .map(|i| ObjectEntry::new(i, i % 2, format!("res\\bldg\\{i}.bsr")))
                .collect(),
        );
        assert_eq!(object::lint(&clean), []);
        let with = |f: &dyn Fn(&mut ObjectIfo)| {
            let mut ifo = clean.clone();
            f(&mut ifo);
            object::lint(&ifo)
        };
        let cases = [
            ("O001", with(&|i| i.count = 5)),
            ("O002", with(&|i| i.entries[3].index = 1)),
            ("O003", with(&|i| i.entries.swap(1, 2))),
            ("O004", with(&|i| i.entries[3].index = 9)),
            (
                "O005",
                with(&|i| i.entries[2].format.number = NumberFormat::Decimal { width: 1 }),
            ),
            ("O006", with(&|i| i.entries[0].format.index_width = 4)),
            ("O006", with(&|i| i.entries[0].format.tail = Gap::SPACE)),
            (
                "O007",
                with(&|i| i.entries[1].path = b"res\\bldg\\1.txt".to_vec()),
            ),
            (
                "O007",
                with(&|i| i.entries[1].path = b"res\\bldg.x\\noext".to_vec()),
            ),
            (
                "O008",
                with(&|i| i.entries[1].path = b"res/bldg/1.bsr".to_vec()),
            ),
            ("O009", with(&|i| i.trailing = b"\n".to_vec())),
            (
                "O010",
                with(&|i| i.entries[2].format.ending = LineEnding::CrLf),
            ),
        ];
        check_codes(
            object::CODES,
            include_str!("../../src/ifo/object.rs"),
            &cases,
        );
        assert_eq!(codes(&cases[1].1), ["O002", "O003", "O004"]);
        assert_eq!(cases[1].1[0].location, "entries[3].index");
        assert_eq!(cases[11].1[0].location, "entries[2]");
        let upper = with(&|i| {
            for e in &mut i.entries {
                e.format.number = NumberFormat::Hex {
                    width: 8,
                    upper: true,
                    upper_prefix: true,
                };
            }
        });
        assert_eq!(codes(&upper), ["O006"], "one finding for every line");
        assert!(upper[0].message.starts_with("4 entries"), "{}", upper[0]);
        assert_eq!(
            codes(&with(&|i| i.entries[0].path = b"RES\\A.BSR".to_vec())),
            [] as [&str; 0]
        );
    }
}

mod tile2d_ifo {
    use super::text::*;
    use super::*;

    fn arb_grass() -> impl Strategy<Value = Grass> {
        (
            any::<u32>(),
            any::<u32>(),
            prop_oneof![3 => gap(), 1 => Just(Gap::NONE)],
        )
            .prop_map(|(object, count, gap)| Grass { object, count, gap })
    }

    fn arb_entry() -> impl Strategy<Value = Tile2dEntry> {
        (
            index(),
            prop_oneof![0u32..14, any::<u32>()],
            quoted(),
            quoted(),
            prop::collection::vec(arb_grass(), 0..4),
            line_format::<3>(),
        )
            .prop_map(
                |(index, kind, category, texture, grass, format)| Tile2dEntry {
                    index,
                    kind,
                    category,
                    texture,
                    grass,
                    format,
                },
            )
    }

    fn arb_ifo() -> impl Strategy<Value = Tile2dIfo> {
        table(prop::collection::vec(arb_entry(), 0..10), |e| {
            &mut e.format.ending
        })
    }

    const SAMPLE: &[u8] = b"JMXV2DTI1001\n3\n\
        00000 0x00000000 \"CJfild\" \"c_dust_fld_01.ddj\"\n\
        00001 0x0000000a \"East Eurpoe\" \"c_grass_hmfld_01.ddj\" {757,64} {1816,36}\n\
        00002 0x00000003 \"Asia minor\" \"stone 02.ddj\"";

    table_properties!(Tile2dEntry);

    #[test]
    fn reads_categories_with_spaces_and_grass() {
        let ifo = Tile2dIfo::parse(SAMPLE).unwrap();
        assert_eq!((ifo.count, ifo.len()), (3, 3));
        let grass = &ifo.get(1).unwrap().grass;
        assert_eq!(grass, &[Grass::new(757, 64), Grass::new(1816, 36)]);
        let entry = ifo.get(1).unwrap();
        assert_eq!(
            (entry.kind, tile2d::kind_name(entry.kind)),
            (10, Some("grass"))
        );
        assert_eq!(entry.category, b"East Eurpoe");
        assert_eq!(ifo.entries[2].texture, b"stone 02.ddj");
        assert_eq!(ifo.entries[2].format.ending, LineEnding::None);
        assert_eq!(ifo.to_vec().unwrap(), SAMPLE);
        assert_eq!(tile2d::kind_name(14), None);
        assert_eq!(codes(&tile2d::lint(&ifo)), [] as [&str; 0]);
    }

    #[test]
    fn truncation_at_every_offset_never_panics() {
        let parsed = text::truncations::<Tile2dEntry>(SAMPLE);
        assert!(parsed >= 5, "{parsed} cuts parsed");
    }

    #[test]
    fn new_writes_the_game_spelling() {
        let mut grassy = Tile2dEntry::new(1, 10, &b"HMfild"[..], &b"c_grass_hmfld_01.ddj"[..]);
        grassy.grass.push(Grass::new(757, 64));
        let ifo = Tile2dIfo::new(vec![
            Tile2dEntry::new(0, 0, &b"CJfild"[..], &b"c_dust_fld_01.ddj"[..]),
            grassy,
        ]);
        assert_eq!(
            ifo.to_vec().unwrap(),
            &b"JMXV2DTI1001\n2\n00000 0x00000000 \"CJfild\" \"c_dust_fld_01.ddj\"\n\
               00001 0x0000000a \"HMfild\" \"c_grass_hmfld_01.ddj\" {757,64}\n"[..]
        );
        assert!(tile2d::lint(&ifo).is_empty());
    }

    #[test]
    fn malformed_lines_name_offset_and_field() {
        let head = b"JMXV2DTI1001\n1\n";
        let cases: &[(&[u8], usize, &str, &str)] = &[
            (
                b"00000 0x0 \"a\" \"b.ddj\" {1;2}",
                24,
                "entries[0].grass[0]",
                "comma",
            ),
            (
                b"00000 0x0 \"a\" \"b.ddj\" {01,2}",
                23,
                "entries[0].grass[0]",
                "leading zeros",
            ),
            (
                b"00000 0x0 \"a\" \"b.ddj\" {1,2",
                26,
                "entries[0].grass[0]",
                "closing brace",
            ),
            (
                b"00000 0x0 \"a\" \"b.ddj\" x",
                22,
                "entries[0].grass",
                "grass pair",
            ),
            (
                b"00000 0x0 \"a\" b.ddj",
                14,
                "entries[0].texture",
                "opening quote",
            ),
            (
                b"00000 0x0 \"a\"\"b.ddj\"",
                13,
                "entries[0].category",
                "a space",
            ),
            (b"00000 0x0 \"a", 10, "entries[0].category", "closing quote"),
            (
                b"00000 0xfffffffff \"a\" \"b\"",
                6,
                "entries[0].kind",
                "below 2^32",
            ),
        ];
        for &(line, offset, section, expected) in cases {
            let bytes = [&head[..], line].concat();
            let e = Tile2dIfo::parse(&bytes).expect_err("malformed");
            let shown = String::from_utf8_lossy(line);
            assert_eq!(
                (e.offset() - head.len(), e.section()),
                (offset, section),
                "{shown:?}: {e}"
            );
            assert!(e.to_string().contains(expected), "{shown:?}: {e}");
        }
        let e = Tile2dIfo::parse(b"JMXVOBJI1000\n0\n").unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::BadSignature { found, .. } if found == b"JMXVOBJI1000")
        );
    }

    #[test]
    fn models_that_cannot_be_written_say_where() {
        let mut ifo = Tile2dIfo::new(vec![Tile2dEntry::new(0, 0, &b"a"[..], &b"b.ddj"[..])]);
        ifo.entries[0].category.push(b'"');
        assert_eq!(ifo.to_vec().unwrap_err().section(), "entries[0].category");
        ifo.entries[0].category.pop();
        ifo.entries[0].texture.push(b'\n');
        assert_eq!(ifo.to_vec().unwrap_err().section(), "entries[0].texture");
    }

    #[test]
    fn lint_codes() {
        let clean = Tile2dIfo::new(
            (0..3)
                .map(|i| Tile2dEntry::new(i, i, &b"WC"[..], format!("t{i}.ddj")))
                .collect(),
        );
        assert_eq!(tile2d::lint(&clean), []);
        let with = |f: &dyn Fn(&mut Tile2dIfo)| {
            let mut ifo = clean.clone();
            f(&mut ifo);
            tile2d::lint(&ifo)
        };
        let cases = [
            ("T001", with(&|i| i.count = 2)),
            ("T002", with(&|i| i.entries[2].index = 0)),
            ("T003", with(&|i| i.entries.swap(0, 1))),
            ("T004", with(&|i| i.entries[1].texture = b"t1.dds".to_vec())),
            ("T005", with(&|i| i.entries[1].kind = 14)),
            (
                "T006",
                with(&|i| i.entries[0].format.number = NumberFormat::Decimal { width: 0 }),
            ),
            (
                "T007",
                with(&|i| {
                    i.entries[1].grass.push(Grass {
                        gap: Gap::spaces(2),
                        ..Grass::new(1, 2)
                    })
                }),
            ),
            ("T008", with(&|i| i.trailing = b" \n".to_vec())),
            ("T009", with(&|i| i.count_ending = LineEnding::CrLf)),
        ];
        check_codes(
            tile2d::CODES,
            include_str!("../../src/ifo/tile2d.rs"),
            &cases,
        );
        assert_eq!(codes(&cases[2].1), ["T003"], "tile2d has no order code");
        assert!(
            cases[0].1[0].message.contains("says 2"),
            "{}",
            cases[0].1[0]
        );
        assert_eq!(
            codes(&with(&|i| i.entries[1].grass.push(Grass::new(1, 2)))),
            [] as [&str; 0]
        );
    }
}
