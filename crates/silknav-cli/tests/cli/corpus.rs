//! `corpus` over dungeon files: `.dof`, `dungeoninfo.txt` and AINavData counted, linted and
//! compared, in the text and in `--json`.

use crate::support::*;
use silknav_testkit::second_writer;
use std::path::Path;

fn write(dir: &Path, relative: &str, bytes: &[u8]) {
    let path = dir.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// `Data` with a temple (standard layout), a cave (legacy layout, D019), a truncated `.dof`,
/// a `dungeoninfo.txt` serving dungeons 17 and 16, and the routes of region 0x8011 (17).
fn dungeon_data(dir: &Path) {
    let data = dir.join("Data");
    let temple = second_writer::dof::temple().to_bytes();
    write(&data, "dungeon/temple.dof", &temple);
    write(
        &data,
        "dungeon/cave.DOF",
        &second_writer::dof::legacy_cave().to_bytes(),
    );
    write(&data, "dungeon/broken.dof", &temple[..100]);
    write(
        &data,
        "dungeon/DungeonInfo.txt",
        b"// service\tid\tpath\r\n1\t17\t\"Dungeon\\temple.dof\"\r\n1\t16\t\"Dungeon\\cave.dof\"\r\n",
    );
    write(
        &data,
        "navmesh/AINavData_32785.dat",
        &second_writer::ainav::corridor().to_bytes(),
    );
}

#[test]
fn corpus_counts_lints_and_compares_dungeon_files() {
    let dir = temp();
    dungeon_data(dir.path());
    let run = silknav(dir.path(), &["corpus", "Data"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("Data: 5 files, 5 read (1 unreadable), 0 not read\n"),
        "{}",
        run.stdout
    );
    let expected = "\
dungeons (.dof): 2 files (legacy 1, standard 1), 6 blocks, 6 distinct block paths
  blocks: 1 with height fog, 2 with the extra group; 5 lights
  objects by flag: 0x00000000 1, 0x00000002 1, 0x00000004 1; 1 collision circle
  files: 1 labelled; largest voxel grid 8 x 2 x 4 (width, height, length); 0 with unclaimed bytes (0 bytes)
dungeoninfo.txt: 1 file, 2 rows (2 served); service column: 1 with, 0 without, 0 mixed
AINavData: 1 file, 3 blocks, cells per file 12 to 12; 0 bytes between the sections, 0 after them
dungeon checks (dungeoninfo.txt and AINavData by region): 0 AINavData files for a region no row names; 1 served row without an AINavData file
lint (each file on its own; no world here, so no checks between files):
  D019 warning: 1 finding in 1 file: the blocks use the legacy layout
unreadable: 1
";
    assert!(run.stdout.contains(expected), "{}", run.stdout);
    let broken = Path::new("Data").join("dungeon").join("broken.dof");
    assert!(
        run.stdout
            .contains(&format!("\n  {}: offset ", broken.display())),
        "{}",
        run.stdout
    );

    let json = silknav(dir.path(), &["corpus", "--json", "Data"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let d = &v["dungeons"];
    assert_eq!(d["files"], 2);
    assert_eq!(
        d["layouts"],
        serde_json::json!({"standard": 1, "legacy": 1})
    );
    assert_eq!(d["blocks"], 6);
    assert_eq!(d["block_paths"], 6);
    assert_eq!(d["height_fog_blocks"], 1);
    assert_eq!(d["extra_blocks"], 2);
    assert_eq!(
        d["object_flags"],
        serde_json::json!({"0x00000000": 1, "0x00000002": 1, "0x00000004": 1})
    );
    assert_eq!(d["collision_circles"], 1);
    assert_eq!(d["lights"], 5);
    assert_eq!(d["labelled"], 1);
    assert_eq!(d["grid_max"], serde_json::json!([8, 2, 4]));
    assert_eq!(d["with_unclaimed"], 0);
    assert_eq!(d["unclaimed_bytes"], 0);
    assert_eq!(
        v["dungeon_info"],
        serde_json::json!({
            "files": 1, "rows": 2, "served": 2, "with_service_column": 1,
            "without_service_column": 0, "mixed_service_column": 0, "served_without_ainav": 1
        })
    );
    assert_eq!(
        v["ainav"],
        serde_json::json!({
            "files": 1, "blocks": 3, "cells_min": 12, "cells_max": 12, "gap_bytes": 0,
            "trailing_bytes": 0, "unlisted": 0
        })
    );
    assert_eq!(v["dungeon_checks"], "run");
    assert_eq!(v["lint"]["D019"]["findings"], 1);
    assert_eq!(v["lint"]["D019"]["severity"], "warning");
    let unreadable = v["unreadable"].as_array().unwrap();
    assert_eq!(unreadable.len(), 1);
    assert_eq!(unreadable[0]["path"], broken.display().to_string());

    // The navmesh folder alone has no dungeon list: the checks do not run.
    let navmesh = silknav(dir.path(), &["corpus", "--json", "Data/navmesh"]);
    assert_eq!(navmesh.code, 0, "{}", navmesh.stderr);
    let v: serde_json::Value = serde_json::from_str(&navmesh.stdout).unwrap();
    assert_eq!(v["dungeon_checks"], "no-dungeoninfo");
    assert_eq!(v["ainav"]["files"], 1);
    assert_eq!(v["ainav"]["unlisted"], serde_json::Value::Null);
    let text = silknav(dir.path(), &["corpus", "Data/navmesh"]);
    assert!(
        text.stdout.contains(
            "\ndungeon checks (dungeoninfo.txt and AINavData by region): not run, no dungeoninfo.txt\n"
        ),
        "{}",
        text.stdout
    );
}
