//! What several fuzz targets check the same way.

use jmxv::ifo::{Entry, Table};
use jmxv::json::JsonError;
use std::fmt::Debug;

/// A whole `.ifo` table as it comes: parsing never panics, and a file that parses writes back
/// as exactly the same bytes and reads back as an equal model.
///
/// Inputs starting with the byte 0xff get the table's signature line in its place, so the
/// fuzzer need not find it to reach the entry lines.
pub fn ifo_table<E: Entry + PartialEq + Debug>(data: &[u8]) {
    let bytes = match data.split_first() {
        Some((0xff, rest)) => [&E::SIGNATURE[..], b"\n", rest].concat(),
        _ => data.to_vec(),
    };
    match Table::<E>::parse(&bytes) {
        Ok(table) => {
            let written = table.to_vec().expect("a parsed model is writable");
            assert!(written == bytes, "write(parse(b)) != b");
            assert_eq!(table.encoded_len(), bytes.len());
            assert!(
                Table::<E>::parse(&written).ok() == Some(table),
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
}

/// A JSON reading error says where: a line and column inside the text, or else the JSON path
/// of the bad value.
pub fn json_error_is_located(data: &[u8], e: &JsonError) {
    if let Some((line, column)) = e.position() {
        let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
        assert!(line <= lines, "error on line {line} of {lines}: {e}");
        assert!(column <= data.len() + 1, "error past the input: {e}");
    } else {
        assert!(
            e.path().is_some(),
            "error with neither a path nor a position: {e}"
        );
    }
}
