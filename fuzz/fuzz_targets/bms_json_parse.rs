//! Any bytes as the JSON form of an object mesh (`silknav pack`'s input for `.bms`): reading
//! never panics, an error says where (a JSON path, or a line and column inside the text), and a
//! document that reads writes back as JSON that reads as the same model, and as itself again.

#![no_main]

use jmxv::bms::json;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match json::from_slice(data) {
        Ok(mesh) => {
            let text = json::to_string(&mesh).expect("a mesh that reads can be written");
            let back = json::from_str(&text).expect("written JSON reads back");
            assert!(back == mesh, "from_json(to_json(m)) != m");
            assert!(json::to_string(&back).ok() == Some(text), "to_json is not stable");
            assert!(mesh.to_vec().is_ok(), "a mesh read from JSON writes as a file");
        }
        Err(e) => {
            if let Some((line, column)) = e.position() {
                let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
                assert!(line <= lines, "error on line {line} of {lines}: {e}");
                assert!(column <= data.len() + 1, "error past the input: {e}");
            } else {
                assert!(e.path().is_some(), "error with neither a path nor a position: {e}");
            }
        }
    }
});
