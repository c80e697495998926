//! PK2 archives: opening never panics, hangs or reads outside the input, and every file the
//! walk accepts reads back with its size.
//!
//! The first byte picks the mode: odd puts a plain (unencrypted) header in front of the rest,
//! so that the walk itself is fuzzed rather than the key check; even takes the rest as a
//! whole archive, encrypted with the default key.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pk2_archive::{plain_header, Archive, EntryKind, Key, HEADER_LEN};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let bytes = if mode & 1 == 1 {
        [&plain_header()[..], rest].concat()
    } else {
        rest.to_vec()
    };
    let len = bytes.len() as u64;
    match Archive::from_bytes(bytes, &Key::default()) {
        Ok(archive) => {
            // At most one entry per 128 bytes: the walk's memory is bounded by the input.
            assert!(archive.entries().len() as u64 <= len / 128);
            for entry in archive.entries() {
                assert!(entry.offset() >= HEADER_LEN && entry.offset() < len);
                if let EntryKind::File { size, .. } = entry.kind() {
                    let read = archive.read_entry(entry).expect("an accepted file reads");
                    assert_eq!(read.len(), size as usize);
                }
                // Every entry is found again by its stored path (names are unique in any case).
                assert_eq!(archive.entry_bytes(entry.raw_path()), Some(entry));
            }
        }
        // An archive that ends where a block should start is reported at its end.
        Err(e) => assert!(
            e.offset <= len.max(HEADER_LEN),
            "error offset past the input: {e}"
        ),
    }
});
