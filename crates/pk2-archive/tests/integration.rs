//! The archive layer: packing and reading back, and every kind of damage.

use pk2_archive::{
    folder_files, pack, plain_header, Archive, EntryKind, ErrorKind, Key, PackError, Pk2Error,
    BLOCK_LEN, ENTRY_LEN, HEADER_LEN, SIGNATURE,
};

fn files() -> Vec<(String, Vec<u8>)> {
    let mut files = vec![
        ("navmesh/mapinfo.mfo".to_owned(), b"JMXVMFO 1000".to_vec()),
        (
            "navmesh/object.ifo".to_owned(),
            b"JMXVOBJI1000\n0\n".to_vec(),
        ),
        ("res/bldg/china/ch_house_a01.bms".to_owned(), vec![7; 3000]),
        ("res/empty.bsr".to_owned(), Vec::new()),
    ];
    // More than one block's worth in one directory.
    for i in 0..45u8 {
        files.push((
            format!("navmesh/nv_{:04x}.nvm", 0x6000 + u16::from(i)),
            vec![i; usize::from(i) * 13],
        ));
    }
    files
}

fn packed() -> Vec<u8> {
    pack(files(), &Key::default()).unwrap()
}

fn open(bytes: Vec<u8>) -> Result<Archive<Vec<u8>>, Pk2Error> {
    Archive::from_bytes(bytes, &Key::default())
}

/// Decrypts the block at `at`, lets `edit` change it, encrypts it again.
fn edit_block(bytes: &mut [u8], at: usize, edit: impl FnOnce(&mut [u8])) {
    let key = Key::default();
    let block = &mut bytes[at..at + BLOCK_LEN];
    key.decrypt(block);
    edit(block);
    key.encrypt(block);
}

/// The offset of the first block of directory `name` in the root.
fn dir_block(bytes: &[u8], name: &str) -> usize {
    let archive = open(bytes.to_vec()).unwrap();
    let entry = archive.entry(name).unwrap();
    let mut rec = bytes[entry.offset() as usize..][..ENTRY_LEN].to_vec();
    // Records sit at multiples of 8 from a block start, so one record decrypts alone.
    Key::default().decrypt(&mut rec);
    u64::from_le_bytes(rec[106..114].try_into().unwrap()) as usize
}

mod round_trip {
    use super::*;

    #[test]
    fn every_file_reads_back_byte_for_byte_in_any_case_and_separator() {
        let archive = open(packed()).unwrap();
        for (path, bytes) in files() {
            assert_eq!(archive.read(&path).unwrap(), bytes, "{path}");
            let odd = path.to_ascii_uppercase().replace('/', "\\");
            assert_eq!(archive.read(&odd).unwrap(), bytes, "{odd}");
        }
        let file_count = archive.entries().iter().filter(|e| e.is_file()).count();
        assert_eq!(file_count, files().len());
        let dirs: Vec<&str> = archive
            .entries()
            .iter()
            .filter(|e| e.kind() == EntryKind::Directory)
            .map(|e| e.path())
            .collect();
        assert_eq!(dirs, ["navmesh", "res", "res/bldg", "res/bldg/china"]);
    }

    #[test]
    fn listing_a_directory_gives_its_children_and_recursive_gives_all() {
        let archive = open(packed()).unwrap();
        let root: Vec<&str> = archive
            .list("", false)
            .unwrap()
            .iter()
            .map(|e| e.path())
            .collect();
        assert_eq!(root, ["navmesh", "res"]);
        let res: Vec<&str> = archive
            .list("RES", false)
            .unwrap()
            .iter()
            .map(|e| e.path())
            .collect();
        assert_eq!(res, ["res/bldg", "res/empty.bsr"]);
        assert_eq!(archive.list("res", true).unwrap().len(), 4);
        assert_eq!(archive.list("navmesh", false).unwrap().len(), 47);
        let err = archive.list("navmesh/mapinfo.mfo", false).unwrap_err();
        assert!(
            matches!(
                err.kind,
                ErrorKind::WrongKind {
                    expected: "directory"
                }
            ),
            "{err}"
        );
        let err = archive.list("nowhere", false).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::NotFound), "{err}");
    }

    #[test]
    fn packing_is_deterministic_and_reads_nothing_but_the_directory_when_opened() {
        assert_eq!(packed(), packed());
        let bytes = packed();
        // File bytes are not touched by opening: scrambling them leaves the tree readable.
        let archive = open(bytes.clone()).unwrap();
        let entry = archive.entry("res/bldg/china/ch_house_a01.bms").unwrap();
        let EntryKind::File { data, size } = entry.kind() else {
            panic!()
        };
        let mut scrambled = bytes;
        scrambled[data as usize..][..size as usize].fill(0xee);
        let again = open(scrambled).unwrap();
        assert_eq!(again.entries(), archive.entries());
        assert_eq!(again.read(entry.path()).unwrap(), vec![0xee; 3000]);
    }

    #[test]
    fn a_folder_packs_with_its_paths_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        for (path, bytes) in files() {
            let to = dir.path().join(&path);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::write(to, bytes).unwrap();
        }
        let found = folder_files(dir.path()).unwrap();
        let mut want = files();
        want.sort();
        assert_eq!(found, want, "every file, by its relative path, sorted");
        let bytes = pack(found, &Key::default()).unwrap();
        assert!(bytes.starts_with(SIGNATURE));
        assert_eq!(bytes, packed(), "the same files give the same archive");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", dir.path().join("res/etc")).unwrap();
            let err = folder_files(dir.path()).unwrap_err();
            assert_eq!(err.path, dir.path().join("res/etc"));
            assert!(err.error.to_string().contains("links"), "{err}");
        }
    }

    #[test]
    fn an_archive_on_disk_reads_like_one_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("Data.pk2");
        std::fs::write(&path, packed()).unwrap();
        let archive = Archive::open(&path, &Key::default()).unwrap();
        assert_eq!(archive.len(), packed().len() as u64);
        assert_eq!(
            archive.read("navmesh/mapinfo.mfo").unwrap(),
            b"JMXVMFO 1000"
        );
    }

    #[test]
    fn names_that_are_not_utf8_are_found_by_their_stored_bytes() {
        // Two CP949 names that decode alike as UTF-8 (both lossily): each its own entry.
        let mut bytes = packed();
        let nav = dir_block(&bytes, "navmesh");
        edit_block(&mut bytes, nav, |b| {
            for (i, name) in [(2, &b"\xb0\xa1.bms\0"[..]), (3, b"\xb0\xa2.bms\0")] {
                b[i * ENTRY_LEN + 1..][..81].fill(0);
                b[i * ENTRY_LEN + 1..][..name.len()].copy_from_slice(name);
            }
        });
        let archive = open(bytes).unwrap();
        let a = archive.entry_bytes(b"NAVMESH\\\xb0\xa1.BMS").unwrap();
        let b = archive.entry_bytes(b"navmesh/\xb0\xa2.bms").unwrap();
        assert_ne!(a, b);
        assert_eq!(a.raw_path(), b"navmesh/\xb0\xa1.bms");
        assert_eq!(a.path(), "navmesh/\u{fffd}\u{fffd}.bms");
        assert_eq!(a.path(), b.path(), "shown alike, stored apart");
        assert_eq!(archive.read_entry(a).unwrap(), b"JMXVMFO 1000");
    }

    #[test]
    fn directories_read_as_directories_are_refused_as_files() {
        let archive = open(packed()).unwrap();
        let err = archive.read("res").unwrap_err();
        assert!(
            matches!(err.kind, ErrorKind::WrongKind { expected: "file" }),
            "{err}"
        );
        assert!(matches!(
            archive.read("res/nothing").unwrap_err().kind,
            ErrorKind::NotFound
        ));
        assert!(matches!(
            archive.read("res/../x").unwrap_err().kind,
            ErrorKind::NotFound
        ));
    }

    #[test]
    fn another_key_packs_and_reads_and_the_default_key_is_refused() {
        let key = Key::new(b"another key").unwrap();
        let bytes = pack(files(), &key).unwrap();
        let archive = Archive::from_bytes(bytes.clone(), &key).unwrap();
        assert_eq!(
            archive.read("navmesh/mapinfo.mfo").unwrap(),
            b"JMXVMFO 1000"
        );
        let err = open(bytes).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::WrongKey), "{err}");
        assert!(err.to_string().contains("--pk2-key"), "{err}");
        assert!(matches!(
            Key::new(b"abc").unwrap_err().kind,
            ErrorKind::InvalidKey { len: 3 }
        ));
    }
}

mod pack_refuses {
    use super::*;

    fn refused(paths: &[&str]) -> PackError {
        pack(paths.iter().map(|p| (*p, vec![1u8])), &Key::default()).unwrap_err()
    }

    #[test]
    fn unsafe_names_duplicates_and_long_names() {
        for bad in ["../x", "a/../b", "C:/x", "a:b", "", "/", "a/\u{1}"] {
            assert!(
                matches!(refused(&[bad]), PackError::UnsafeName { .. }),
                "{bad:?}"
            );
        }
        assert_eq!(
            refused(&["a/B.txt", "A/b.TXT"]),
            PackError::Duplicate {
                path: "A/b.TXT".to_owned()
            }
        );
        assert!(matches!(
            refused(&["a", "a/b"]),
            PackError::Duplicate { .. }
        ));
        let long = "x".repeat(81);
        assert!(matches!(refused(&[&long]), PackError::NameTooLong { .. }));
        assert!(pack([("x".repeat(80), vec![])], &Key::default()).is_ok());
    }
}

mod damaged {
    use super::*;

    fn kind(bytes: Vec<u8>) -> (ErrorKind, u64, String) {
        let err = open(bytes).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with(&format!("offset {} ", err.offset)),
            "{text}"
        );
        (err.kind, err.offset, err.entry)
    }

    #[test]
    fn truncated_anywhere_is_an_error_never_a_panic() {
        let bytes = packed();
        let directory_end = {
            let archive = open(bytes.clone()).unwrap();
            archive
                .entries()
                .iter()
                .filter_map(|e| match e.kind() {
                    EntryKind::File { data, size } if size > 0 => Some(data),
                    _ => None,
                })
                .min()
                .unwrap()
        };
        for cut in (0..bytes.len()).step_by(97) {
            let result = open(bytes[..cut].to_vec());
            if (cut as u64) < directory_end {
                let err = result.unwrap_err();
                assert!(
                    matches!(
                        err.kind,
                        ErrorKind::Truncated { .. } | ErrorKind::OutsideArchive { .. }
                    ),
                    "cut {cut}: {err}"
                );
            } else if let Err(err) = result {
                // Cut inside the file bytes: the entry whose bytes are cut is named.
                assert!(
                    matches!(err.kind, ErrorKind::OutsideArchive { .. }),
                    "cut {cut}: {err}"
                );
                assert!(!err.entry.is_empty(), "cut {cut}: {err}");
            }
        }
        let (k, offset, _) = kind(bytes[..100].to_vec());
        assert!(
            matches!(
                k,
                ErrorKind::Truncated {
                    needed: 256,
                    left: 100
                }
            ),
            "{k:?}"
        );
        assert_eq!(offset, 0);
    }

    #[test]
    fn not_an_archive_and_another_version() {
        let (k, ..) = kind(vec![0x42; 4000]);
        assert!(matches!(k, ErrorKind::NotAnArchive), "{k:?}");
        let mut bytes = packed();
        bytes[30..34].copy_from_slice(&0x0100_0003u32.to_le_bytes());
        let (k, offset, _) = kind(bytes);
        assert!(
            matches!(k, ErrorKind::UnsupportedVersion { found: 0x0100_0003 }),
            "{k:?}"
        );
        assert_eq!(offset, 30);
    }

    #[test]
    fn a_directory_pointing_at_its_own_parent_is_a_loop_not_a_hang() {
        let mut bytes = packed();
        let res = dir_block(&bytes, "res");
        // `res/bldg` → the root block, which the walk has read already.
        let bldg_offset = {
            let archive = open(bytes.clone()).unwrap();
            archive.entry("res/bldg").unwrap().offset() as usize
        };
        let i = (bldg_offset - res) / ENTRY_LEN;
        edit_block(&mut bytes, res, |b| {
            b[i * ENTRY_LEN + 106..][..8].copy_from_slice(&HEADER_LEN.to_le_bytes());
        });
        let (k, offset, entry) = kind(bytes);
        assert!(matches!(k, ErrorKind::BlockLoop { block: 256 }), "{k:?}");
        assert_eq!(offset, bldg_offset as u64, "the record holding the pointer");
        assert_eq!(entry, "res/bldg");
    }

    #[test]
    fn a_next_block_pointing_back_at_its_chain_is_a_loop() {
        let mut bytes = packed();
        let nav = dir_block(&bytes, "navmesh");
        // navmesh has 49 entries: three blocks; make the third point at the first.
        let third = nav + 2 * BLOCK_LEN;
        edit_block(&mut bytes, third, |b| {
            b[19 * ENTRY_LEN + 118..][..8].copy_from_slice(&(nav as u64).to_le_bytes());
        });
        let (k, offset, entry) = kind(bytes);
        assert!(
            matches!(k, ErrorKind::BlockLoop { block } if block == nav as u64),
            "{k:?}"
        );
        assert_eq!(
            offset,
            (third + 19 * ENTRY_LEN) as u64,
            "the record holding the pointer"
        );
        assert_eq!(entry, "navmesh");
    }

    #[test]
    fn blocks_and_files_outside_the_archive() {
        let bytes = packed();
        let len = bytes.len() as u64;
        let nav = dir_block(&bytes, "navmesh");
        for target in [len, len - 10, 100, u64::MAX - 5] {
            let mut bad = bytes.clone();
            edit_block(&mut bad, nav, |b| {
                b[19 * ENTRY_LEN + 118..][..8].copy_from_slice(&target.to_le_bytes());
            });
            let (k, offset, entry) = kind(bad);
            assert!(
                matches!(k, ErrorKind::OutsideArchive { start, .. } if start == target),
                "{target}: {k:?}"
            );
            assert_eq!(
                offset,
                (nav + 19 * ENTRY_LEN) as u64,
                "the record holding the pointer"
            );
            assert_eq!(entry, "navmesh");
        }
        // A file whose bytes run past the end.
        let mut bad = bytes.clone();
        edit_block(&mut bad, nav, |b| {
            // Entry 2 is the first file (after `.` and `..`).
            b[2 * ENTRY_LEN + 114..][..4].copy_from_slice(&u32::MAX.to_le_bytes());
        });
        let (k, offset, entry) = kind(bad);
        assert!(
            matches!(
                k,
                ErrorKind::OutsideArchive {
                    len: 0xffff_ffff,
                    ..
                }
            ),
            "{k:?}"
        );
        assert_eq!(offset, (nav + 2 * ENTRY_LEN) as u64);
        assert_eq!(entry, "navmesh/mapinfo.mfo");
    }

    #[test]
    fn two_entries_with_one_name_in_any_case() {
        let mut bytes = packed();
        let nav = dir_block(&bytes, "navmesh");
        edit_block(&mut bytes, nav, |b| {
            let name = b"MAPINFO.MFO\0";
            b[3 * ENTRY_LEN + 1..][..name.len()].copy_from_slice(name);
        });
        let (k, offset, entry) = kind(bytes);
        assert!(
            matches!(k, ErrorKind::DuplicateName { first } if first == (nav + 2 * ENTRY_LEN) as u64),
            "{k:?}"
        );
        assert_eq!(offset, (nav + 3 * ENTRY_LEN) as u64);
        assert_eq!(entry, "navmesh/MAPINFO.MFO");
    }

    #[test]
    fn unsafe_names_and_bad_entry_types() {
        for name in [
            &b"..\\..\\evil.dll\0"[..],
            b"C:evil\0",
            b"a/b\0",
            b"..\0",
            b"\0",
        ] {
            let mut bytes = packed();
            let nav = dir_block(&bytes, "navmesh");
            edit_block(&mut bytes, nav, |b| {
                b[2 * ENTRY_LEN + 1..][..81].fill(0);
                b[2 * ENTRY_LEN + 1..][..name.len()].copy_from_slice(name);
            });
            let (k, offset, _) = kind(bytes);
            assert!(matches!(k, ErrorKind::UnsafeName { .. }), "{name:?}: {k:?}");
            assert_eq!(offset, (nav + 2 * ENTRY_LEN) as u64);
        }
        let mut bytes = packed();
        let nav = dir_block(&bytes, "navmesh");
        edit_block(&mut bytes, nav, |b| b[2 * ENTRY_LEN] = 7);
        let (k, ..) = kind(bytes);
        assert!(matches!(k, ErrorKind::BadEntryType { found: 7 }), "{k:?}");
    }

    #[test]
    fn fuzz_regressions_fail_cleanly_with_offsets_inside_the_archive() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fuzz-regressions");
        let mut count = 0;
        for item in std::fs::read_dir(dir).unwrap() {
            let data = std::fs::read(item.unwrap().path()).unwrap();
            // The fuzz target's framing: an odd mode byte puts a plain header in front.
            let (mode, rest) = data.split_first().unwrap();
            let bytes = if mode & 1 == 1 {
                [&plain_header()[..], rest].concat()
            } else {
                rest.to_vec()
            };
            let len = bytes.len() as u64;
            match open(bytes) {
                Ok(archive) => assert!(archive.entries().len() as u64 <= len / 128),
                // An archive that ends where a block should start is reported at its end.
                Err(e) => assert!(e.offset <= len.max(HEADER_LEN), "{e}"),
            }
            count += 1;
        }
        assert!(count >= 2, "the regression files are there");
    }

    #[test]
    fn random_damage_never_panics() {
        let bytes = packed();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..2000 {
            let mut bad = bytes.clone();
            for _ in 0..1 + next() % 8 {
                let at = (next() as usize) % bad.len();
                bad[at] = next() as u8;
            }
            if let Ok(archive) = open(bad) {
                for entry in archive.entries() {
                    if entry.is_file() {
                        archive.read_entry(entry).unwrap();
                    }
                }
            }
        }
    }
}
