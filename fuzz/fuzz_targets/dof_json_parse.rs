//! Any bytes as the JSON form of a dungeon file: reading never panics, an error says where (a
//! JSON path, or a line and column inside the text), and a document that reads writes back as
//! JSON that reads as the same model, and as itself again, and as a file that reads back as the
//! same model.

#![no_main]

use jmxv::dof::{json, DungeonFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match json::from_slice(data) {
        Ok(dungeon) => {
            let text = json::to_string(&dungeon).expect("a dungeon that reads can be written");
            let back = json::from_str(&text).expect("written JSON reads back");
            assert!(back == dungeon, "from_json(to_json(m)) != m");
            assert!(
                json::to_string(&back).ok() == Some(text),
                "to_json is not stable"
            );
            let bytes = dungeon
                .to_vec()
                .expect("a dungeon read from JSON writes as a file");
            assert!(
                DungeonFile::parse(&bytes).ok() == Some(dungeon),
                "parse(write(m)) != m"
            );
        }
        Err(e) => silknav_fuzz::json_error_is_located(data, &e),
    }
});
