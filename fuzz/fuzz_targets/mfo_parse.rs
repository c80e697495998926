//! Whole `mapinfo.mfo` files as they come: parsing never panics, and a file that parses writes
//! back as exactly the same bytes and reads back as the same model.

#![no_main]

use jmxv::mfo::MapInfo;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match MapInfo::parse(data) {
        Ok(map) => {
            let written = map.to_vec();
            assert!(written == data, "write(parse(b)) != b");
            assert_eq!(map.encoded_len(), data.len());
            assert!(
                MapInfo::parse(&written).ok() == Some(map),
                "parse(write(m)) != m"
            );
        }
        Err(e) => {
            assert!(e.offset() <= data.len(), "error offset past the input: {e}");
            assert!(!e.section().is_empty(), "error without a section: {e}");
        }
    }
});
