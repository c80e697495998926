//! Moving AI maps as worlds: the map's cells come out exactly and the world lints clean.
//! The maps are read from `../shared/movingai`; without them the tests say so and pass.

use crate::invariants::violations;
use jmxv::RegionId;
use silknav::movingai::GridMap;
use std::path::PathBuf;

/// The benchmark maps, or `None` (with a loud notice) when the folder is missing.
pub fn maps() -> Option<Vec<(String, GridMap)>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/movingai/maps");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: no Moving AI maps at {}", dir.display());
        return None;
    };
    let mut maps: Vec<(String, GridMap)> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "map"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                GridMap::parse(&text).unwrap(),
            )
        })
        .collect();
    maps.sort_by(|a, b| a.0.cmp(&b.0));
    Some(maps)
}

#[test]
fn imported_maps_reproduce_their_cells_and_lint_clean() {
    let Some(maps) = maps() else { return };
    assert_eq!(maps.len(), 5, "the five benchmark maps");
    for (name, map) in &maps {
        let origin = (10, 20);
        let world = map.to_world(origin).unwrap();
        let (span_x, span_z) = map.region_span();
        assert_eq!(world.len(), span_x * span_z, "{name}");
        for y in 0..span_z * 96 {
            for x in 0..span_x * 96 {
                let region = RegionId::new(
                    (origin.0 as usize + x / 96) as u8,
                    (origin.1 as usize + y / 96) as u8,
                );
                let mesh = &world[&region];
                let tile = mesh.tiles[(y % 96) * 96 + x % 96];
                let open = (tile.cell() as u32) < mesh.open_cell_count;
                assert_eq!(open, map.is_open(x, y), "{name} ({x}, {y})");
                assert_eq!(tile.is_blocked(), !open, "{name} ({x}, {y})");
            }
        }
        let problems = violations(&world);
        assert!(
            problems.is_empty(),
            "{name}: {:#?}",
            &problems[..problems.len().min(10)]
        );
        // With the companions an importer writes, the world lints clean.
        let report = silknav::lint::lint_world(&silknav::files::WorldFiles::with_companions(world));
        let findings: Vec<String> = report
            .all()
            .map(|(file, f)| format!("{file}: {f}"))
            .collect();
        assert!(findings.is_empty(), "{name}: {findings:#?}");
    }
}
