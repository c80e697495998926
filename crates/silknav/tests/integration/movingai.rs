//! Moving AI maps as worlds: the map's cells come out exactly and the world lints clean; and
//! the committed data (`tests/data/movingai`, found through `silknav_testkit::movingai`) is
//! exactly what its `SOURCES.md` lists.

use crate::invariants::violations;
use jmxv::RegionId;
use silknav_testkit::movingai;
use std::path::Path;

#[test]
fn imported_maps_reproduce_their_cells_and_lint_clean() {
    let maps = movingai::maps();
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

/// Every file under `dir` (recursively), as paths relative to `root` with `/` separators.
fn files_under(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(root, &path, out);
        } else {
            let relative = path.strip_prefix(root).unwrap();
            let parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
}

#[test]
fn vendored_files_match_their_sources() {
    let dir = movingai::data_dir();
    let sources = movingai::sources();
    // Five maps, their six octile scenario files (arena has two) and five derived ones.
    assert_eq!(sources.len(), 16, "rows of the SOURCES.md table");
    let mut on_disk = Vec::new();
    files_under(&dir, &dir, &mut on_disk);
    on_disk.retain(|f| f != "SOURCES.md" && f != ".gitattributes");
    on_disk.sort();
    let mut listed: Vec<String> = sources.iter().map(|s| s.file.clone()).collect();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "the files present are the files SOURCES.md lists"
    );
    for source in &sources {
        let bytes = std::fs::read(dir.join(&source.file)).unwrap();
        assert_eq!(bytes.len() as u64, source.bytes, "{}: size", source.file);
        assert_eq!(
            sha1_smol::Sha1::from(&bytes).digest().to_string(),
            source.sha1,
            "{}: SHA-1",
            source.file
        );
        if source.file.ends_with(".scen") {
            let queries = movingai::scenarios(&source.file).len();
            assert_eq!(Some(queries), source.queries, "{}: queries", source.file);
            // Every line after the header is one query: nothing was dropped by the parser.
            let text = String::from_utf8(bytes).unwrap();
            assert_eq!(text.lines().count(), queries + 1, "{}", source.file);
        } else {
            assert_eq!(source.queries, None, "{}", source.file);
            let name = source.file.strip_prefix("maps/").unwrap();
            assert!(movingai::MAPS.contains(&name), "{name}");
            let map = movingai::map(name);
            assert_eq!(map.open.len(), map.width * map.height, "{name}");
        }
    }
    // The derived files hold the octile files' queries.
    for name in movingai::MAPS {
        let (derived, octile) = (movingai::anyangle(name), movingai::octile(name));
        assert_eq!(derived.len(), octile.len(), "{name}");
        for (d, o) in derived.iter().zip(&octile) {
            assert_eq!((d.start, d.goal), (o.start, o.goal), "{name}");
        }
    }
}
