//! Whole `.dof` dungeon files as they come: parsing never panics, a file that parses writes
//! back as exactly the same bytes and reads back as the same model, its JSON form reads back
//! as the same model, and lint never panics.

#![no_main]

use jmxv::dof::{json, lint::lint, DungeonFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match DungeonFile::parse(data) {
        Ok(dungeon) => {
            let written = dungeon.to_vec().expect("a parsed model is writable");
            assert!(written == data, "write(parse(b)) != b");
            assert_eq!(dungeon.encoded_len(), data.len());
            let back = DungeonFile::parse(&written).expect("written bytes parse");
            assert!(back == dungeon, "parse(write(m)) != m");
            let text = json::to_string(&dungeon).expect("a parsed model has a JSON form");
            assert!(
                json::from_str(&text).ok() == Some(dungeon.clone()),
                "from_json(to_json(m)) != m"
            );
            let _ = lint(&dungeon);
        }
        Err(e) => {
            assert!(e.offset() <= data.len(), "error offset past the input: {e}");
            assert!(!e.section().is_empty(), "error without a section: {e}");
        }
    }
});
