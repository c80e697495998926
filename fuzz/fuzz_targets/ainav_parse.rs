//! Whole `AINavData_XXXXX.dat` files as they come: parsing never panics, a file that parses
//! writes back as exactly the same bytes and reads back as the same model, its JSON form reads
//! back as the same model, and neither lint panics.

#![no_main]

use jmxv::ainav::lint::{lint, lint_dungeon, BlockCounts};
use jmxv::ainav::{json, AiNavData};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match AiNavData::parse(data) {
        Ok(nav) => {
            let written = nav.to_vec().expect("a parsed model is writable");
            assert!(written == data, "write(parse(b)) != b");
            assert_eq!(nav.encoded_len(), data.len());
            let back = AiNavData::parse(&written).expect("written bytes parse");
            assert!(back == nav, "parse(write(m)) != m");
            let text = json::to_string(&nav).expect("a parsed model has a JSON form");
            assert!(json::from_str(&text).ok() == Some(nav.clone()), "JSON changed the model");
            let _ = lint(&nav);
            // Against a dungeon that agrees with the file, and one that does not.
            let counts: Vec<BlockCounts> = nav
                .blocks
                .iter()
                .map(|b| BlockCounts {
                    cells: b.next_edge.side(),
                    edges: b.edge_count,
                })
                .collect();
            assert!(lint_dungeon(&nav, &counts).is_empty(), "the file's own counts differ");
            let _ = lint_dungeon(&nav, &counts[counts.len() / 2..]);
        }
        Err(e) => {
            assert!(e.offset() <= data.len(), "error offset past the input: {e}");
            assert!(!e.section().is_empty(), "error without a section: {e}");
        }
    }
});
