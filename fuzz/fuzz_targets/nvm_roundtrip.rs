//! The variable-length sections, with the fixed tail supplied: parse → write → parse is the
//! identity, and writing gives back the input.
//!
//! A real file is at least 74,500 bytes, nearly all of it fixed-size arrays that any bytes
//! fill; mutating them teaches the fuzzer nothing. So the input is one mode byte, then the
//! sections up to the internal edges (or more, or less); the mode says what to append:
//!
//! | mode % 4 | appended |
//! |---|---|
//! | 0 | nothing: the input is a whole file |
//! | 1 | a zeroed standard tail (111,544 bytes) |
//! | 2 | a zeroed `tiles4` tail (74,680 bytes) |
//! | 3 | a zeroed `tiles4-noplanes` tail (74,500 bytes) |
//!
//! Any signature is accepted, so the fuzzer does not have to keep it intact to get past it.

#![no_main]

use jmxv::nvm::{Layout, NavMesh, ParseOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, head)) = data.split_first() else {
        return;
    };
    let tail = match mode % 4 {
        0 => 0,
        1 => Layout::Standard.tail_len(),
        2 => Layout::Tiles4.tail_len(),
        _ => Layout::Tiles4NoPlanes.tail_len(),
    };
    let mut bytes = Vec::with_capacity(head.len() + tail);
    bytes.extend_from_slice(head);
    bytes.resize(head.len() + tail, 0);

    let options = ParseOptions::any_signature();
    let Ok(mesh) = NavMesh::parse_with(&bytes, options) else {
        return;
    };
    let written = mesh.to_vec().expect("a parsed model is writable");
    assert!(written == bytes, "write(parse(b)) != b");
    assert_eq!(mesh.encoded_len(), written.len());
    let again = NavMesh::parse_with(&written, options).expect("written bytes parse");
    assert!(again == mesh, "parse(write(m)) != m");
});
