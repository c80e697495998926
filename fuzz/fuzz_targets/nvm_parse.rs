//! Whole files as they come: parsing never panics, and a file that parses writes back as
//! exactly the same bytes.

#![no_main]

use jmxv::nvm::{NavMesh, ParseOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let strict = NavMesh::parse(data);
    let lenient = NavMesh::parse_with(data, ParseOptions::any_signature());
    match (&strict, &lenient) {
        (Ok(strict), Ok(lenient)) => assert_eq!(
            strict, lenient,
            "the options change only the signature check"
        ),
        (Ok(_), Err(e)) => panic!("the lenient parse fails where the strict one passes: {e}"),
        (Err(_), _) => {}
    }
    match lenient {
        Ok(mesh) => {
            let written = mesh.to_vec().expect("a parsed model is writable");
            assert!(written == data, "write(parse(b)) != b");
            assert_eq!(mesh.encoded_len(), data.len());
        }
        Err(e) => {
            assert!(e.offset() <= data.len(), "error offset past the input: {e}");
            assert!(!e.section().is_empty(), "error without a section: {e}");
        }
    }
});
