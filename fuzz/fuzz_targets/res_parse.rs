//! Whole `.bsr` and `.cpd` files as they come: parsing never panics, a file that parses writes
//! back as exactly the same bytes and reads back as the same model, and its target path lies
//! inside the input.

#![no_main]

use jmxv::res::ResourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match ResourceFile::parse(data) {
        Ok(file) => {
            let written = file.to_vec();
            assert!(written == data, "write(parse(b)) != b");
            assert_eq!(file.encoded_len(), data.len());
            let back = ResourceFile::parse(&written).expect("written bytes parse");
            assert!(back == file, "parse(write(m)) != m");
            if let Some(path) = file.target_path() {
                assert!(path.len() < data.len());
            }
        }
        Err(e) => {
            assert!(e.offset() <= data.len(), "error offset past the input: {e}");
            assert!(!e.section().is_empty(), "error without a section: {e}");
        }
    }
});
