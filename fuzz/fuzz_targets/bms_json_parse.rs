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
            assert!(
                json::to_string(&back).ok() == Some(text),
                "to_json is not stable"
            );
            assert!(
                mesh.to_vec().is_ok(),
                "a mesh read from JSON writes as a file"
            );
        }
        Err(e) => silknav_fuzz::json_error_is_located(data, &e),
    }
});
