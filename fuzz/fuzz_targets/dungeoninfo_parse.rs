//! Whole `dungeoninfo.txt` files as they come: parsing never panics, a file that parses writes
//! back as exactly the same bytes and reads back as an equal model, and lint and the look-ups
//! never panic.

#![no_main]

use jmxv::ifo::dungeon::{lint, DungeonInfo};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match DungeonInfo::parse(data) {
        Ok(info) => {
            let written = info.to_vec().expect("a parsed model is writable");
            assert!(written == data, "write(parse(b)) != b");
            assert_eq!(info.encoded_len(), data.len());
            let back = DungeonInfo::parse(&written).expect("written bytes parse");
            assert!(back == info, "parse(write(m)) != m");
            let _ = lint(&info);
            let _ = info.has_service_column();
            for row in info.served() {
                if let Some(region) = row.region() {
                    let found = info.by_region(region).expect("a served row's region is found");
                    assert_eq!(found.id, row.id);
                }
            }
        }
        Err(e) => {
            assert!(e.offset() <= data.len(), "error offset past the input: {e}");
            assert!(!e.section().is_empty(), "error without a section: {e}");
        }
    }
});
