//! Whole `tile2d.ifo` files as they come: parsing never panics, and a file that parses writes
//! back as exactly the same bytes and reads back as an equal model.
//!
//! Inputs starting with the byte 0xff get the signature line `JMXV2DTI1001\n` in its place, so
//! the fuzzer need not find it to reach the entry lines.

#![no_main]

use jmxv::ifo::Tile2dIfo;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let bytes = match data.split_first() {
        Some((0xff, rest)) => [&b"JMXV2DTI1001\n"[..], rest].concat(),
        _ => data.to_vec(),
    };
    match Tile2dIfo::parse(&bytes) {
        Ok(table) => {
            let written = table.to_vec().expect("a parsed model is writable");
            assert!(written == bytes, "write(parse(b)) != b");
            assert_eq!(table.encoded_len(), bytes.len());
            assert!(
                Tile2dIfo::parse(&written).ok() == Some(table),
                "parse(write(m)) != m"
            );
        }
        Err(e) => {
            assert!(
                e.offset() <= bytes.len(),
                "error offset past the input: {e}"
            );
            assert!(!e.section().is_empty(), "error without a section: {e}");
        }
    }
});
