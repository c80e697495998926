//! Moving AI `.map` and `.scen` text as it comes: parsing never panics, a map that parses has
//! exactly `width × height` cells, and a small one imports into a world that writes.

#![no_main]

use libfuzzer_sys::fuzz_target;
use silknav::movingai::{parse_scenarios, GridMap};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_scenarios(text);
    if let Ok(map) = GridMap::parse(text) {
        assert_eq!(map.open.len(), map.width * map.height);
        // Importing builds every region; keep that to maps of a few regions.
        if map.width <= 200 && map.height <= 200 {
            let world = map.to_world((0, 0)).expect("small maps fit the id space");
            for mesh in world.values() {
                mesh.to_vec().expect("imported regions are writable");
            }
        }
    }
});
