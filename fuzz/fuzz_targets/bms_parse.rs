//! Whole `.bms` files as they come: parsing never panics, a file that parses writes back as
//! exactly the same bytes and reads back as the same model, and lint never panics.

#![no_main]

use jmxv::bms::{lint::lint, ObjectMesh};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match ObjectMesh::parse(data) {
        Ok(mesh) => {
            let written = mesh.to_vec().expect("a parsed model is writable");
            assert!(written == data, "write(parse(b)) != b");
            assert_eq!(mesh.encoded_len(), data.len());
            let back = ObjectMesh::parse(&written).expect("written bytes parse");
            assert!(back == mesh, "parse(write(m)) != m");
            let _ = lint(&mesh);
        }
        Err(e) => {
            assert!(e.offset() <= data.len(), "error offset past the input: {e}");
            assert!(!e.section().is_empty(), "error without a section: {e}");
        }
    }
});
