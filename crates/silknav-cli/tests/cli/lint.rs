//! `silknav lint`: findings, summaries, exit codes, folders, regions from file names.

use crate::support::*;
use jmxv::nvm::NavMesh;
use serde_json::Value;

/// A mesh with one lint error: a cell lists object 3, and there are no objects.
fn with_bad_cell_object() -> NavMesh {
    let mut mesh = NavMesh::default();
    mesh.cells[0].objects = vec![3];
    mesh
}

#[test]
fn errors_exit_1_and_are_listed_one_per_line() {
    let dir = temp();
    write_nvm(dir.path(), "nv_694e.nvm", &with_bad_cell_object());
    let run = silknav(dir.path(), &["lint", "nv_694e.nvm"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stderr, "");
    let finding = run
        .stdout
        .lines()
        .find(|l| l.contains("cells[0].objects[0]"))
        .unwrap_or_else(|| panic!("no finding at cells[0].objects[0] in {}", run.stdout));
    assert!(finding.starts_with("nv_694e.nvm: error E"), "{finding}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    let summary = lines[lines.len() - 2];
    assert!(summary.starts_with("nv_694e.nvm: 1 error, "), "{summary}");
    assert!(summary.contains("; region 694e; directions: "), "{summary}");
    assert!(
        lines[lines.len() - 1].starts_with("total: 1 file, 1 error, "),
        "{}",
        run.stdout
    );
}

#[test]
fn warnings_alone_exit_0() {
    let dir = temp();
    write_nvm(dir.path(), "nv_694e.nvm", &NavMesh::default());
    let run = silknav(dir.path(), &["lint", "nv_694e.nvm"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout.contains("nv_694e.nvm: 0 errors, "),
        "{}",
        run.stdout
    );
    let report = jmxv::nvm::lint::lint(&NavMesh::default(), None);
    let warnings = report.findings.len();
    let total = format!("total: 1 file, 0 errors, {warnings} warning");
    assert!(
        run.stdout.lines().last().unwrap().starts_with(&total),
        "{}",
        run.stdout
    );
}

#[test]
fn json_lines_per_file() {
    let dir = temp();
    write_nvm(dir.path(), "nv_694e.nvm", &with_bad_cell_object());
    write_nvm(dir.path(), "other.nvm", &NavMesh::default());
    let run = silknav(dir.path(), &["lint", "--json", "nv_694e.nvm", "other.nvm"]);
    assert_eq!(run.code, 1);
    let lines: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.len(),
        2,
        "one line per file and nothing else: {}",
        run.stdout
    );
    let bad = &lines[0];
    assert_eq!(bad["path"], "nv_694e.nvm");
    assert_eq!(bad["region"], "694e");
    assert_eq!(bad["errors"], 1);
    let findings = bad["findings"].as_array().unwrap();
    let finding = findings
        .iter()
        .find(|f| f["location"] == "cells[0].objects[0]")
        .unwrap();
    assert_eq!(finding["severity"], "error");
    assert!(finding["code"].as_str().unwrap().starts_with('E'));
    assert!(!finding["message"].as_str().unwrap().is_empty());
    assert_eq!(bad["directions"]["counts"].as_array().unwrap().len(), 4);
    assert!(bad["directions"]["matching"].is_array());
    assert_eq!(lines[1]["region"], Value::Null);
    assert_eq!(lines[1]["errors"], 0);
}

#[test]
fn folders_are_worlds_in_region_order_and_not_searched_below() {
    let dir = temp();
    let maps = dir.path().join("maps");
    std::fs::create_dir_all(maps.join("old")).unwrap();
    write_nvm(&maps, "nv_694f.nvm", &NavMesh::default());
    write_nvm(&maps, "NV_694E.NVM", &NavMesh::default());
    write_nvm(&maps.join("old"), "nv_0001.nvm", &with_bad_cell_object());
    // Not a world file: neither linted nor an error.
    write_nvm(&maps, "copy of nv_0001.nvm", &with_bad_cell_object());
    let run = silknav(dir.path(), &["lint", "--json", "maps"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let lines: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let paths: Vec<&str> = lines.iter().map(|l| l["path"].as_str().unwrap()).collect();
    // The files as spelt in the folder; the missing companions, with their X011 warnings.
    assert_eq!(
        paths,
        [
            "maps/NV_694E.NVM",
            "maps/nv_694f.nvm",
            "maps/mapinfo.mfo",
            "maps/object.ifo",
            "maps/tile2d.ifo"
        ]
    );
    assert_eq!(lines[0]["region"], "694e");
    assert!(lines[0]["directions"]["matching"].is_array());
    for companion in &lines[2..] {
        assert_eq!(companion["region"], Value::Null);
        assert_eq!(companion["directions"], Value::Null);
        assert_eq!(companion["findings"][0]["code"], "X011", "{companion}");
    }
    let text = silknav(dir.path(), &["lint", "maps"]);
    assert!(
        text.stdout
            .lines()
            .last()
            .unwrap()
            .starts_with("total: 2 files, 0 errors"),
        "{}",
        text.stdout
    );
    // A finding about a whole file has no location to show.
    assert!(
        text.stdout
            .contains("maps/object.ifo: warning X011: no object.ifo: object ids not checked\n"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .contains("maps/object.ifo: 0 errors, 1 warning; not in the folder\n"),
        "{}",
        text.stdout
    );
}

#[test]
fn folder_without_nvm_files_is_an_error() {
    let dir = temp();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let run = silknav(dir.path(), &["lint", "empty"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.error_line(),
        "empty: no nv_XXXX.nvm file in this folder"
    );
}

#[test]
fn an_unreadable_file_of_a_folder_is_reported_and_other_paths_go_on() {
    let dir = temp();
    let maps = dir.path().join("maps");
    std::fs::create_dir(&maps).unwrap();
    write_nvm(&maps, "nv_694e.nvm", &NavMesh::default());
    std::fs::write(maps.join("mapinfo.mfo"), b"not a mapinfo").unwrap();
    write_nvm(dir.path(), "nv_694f.nvm", &NavMesh::default());
    let run = silknav(dir.path(), &["lint", "maps", "nv_694f.nvm"]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.error_line().starts_with("maps/mapinfo.mfo: "),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("nv_694f.nvm: 0 errors, "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .lines()
            .last()
            .unwrap()
            .ends_with(", 1 unreadable"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_generated_world_lints_clean() {
    let dir = temp();
    gen_world(dir.path(), "w", 2, "2x2");
    let run = silknav(dir.path(), &["lint", "w"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 8, "7 summaries and the total: {}", run.stdout);
    for line in &lines[..7] {
        assert!(line.contains(": 0 errors, 0 warnings"), "{line}");
    }
    assert_eq!(lines[7], "total: 7 files, 0 errors, 0 warnings");
}

#[test]
fn a_missing_region_file_is_an_error_of_the_world() {
    let dir = temp();
    let w = gen_world(dir.path(), "w", 2, "2x2");
    std::fs::remove_file(w.join("navmesh/nv_4081.nvm")).unwrap();
    let run = silknav(dir.path(), &["lint", "w"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let x004: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("w/navmesh/mapinfo.mfo: error X004: "))
        .collect();
    assert_eq!(x004.len(), 1, "{}", run.stdout);
    assert!(x004[0].contains("nv_4081.nvm"), "{}", x004[0]);
    // Its neighbours' border edges now lead nowhere.
    assert!(
        run.stdout
            .contains("w/navmesh/nv_4080.nvm: error X002: global_edges["),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("\nw/navmesh/mapinfo.mfo: 1 error, 0 warnings\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_global_edge_without_its_twin_is_found_in_both_files() {
    let dir = temp();
    let w = gen_world(dir.path(), "w", 2, "2x2");
    let path = w.join("navmesh/nv_4080.nvm");
    let mut mesh = NavMesh::parse(&std::fs::read(&path).unwrap()).unwrap();
    // The twin in the neighbour names the old cell: it no longer matches.
    let edge = mesh
        .global_edges
        .iter_mut()
        .find(|e| e.region[1] == 0x4081)
        .expect("a border edge to the east neighbour");
    edge.cell[1] = edge.cell[1].wrapping_add(1);
    write_nvm(&w.join("navmesh"), "nv_4080.nvm", &mesh);

    let run = silknav(dir.path(), &["lint", "--json", "w"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let x001 = |file: &str| -> usize {
        run.stdout
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|v| v["path"] == format!("w/navmesh/{file}"))
            .flat_map(|v| v["findings"].as_array().unwrap().clone())
            .filter(|f| f["code"] == "X001" && f["severity"] == "error")
            .count()
    };
    assert_eq!(x001("nv_4080.nvm"), 1, "{}", run.stdout);
    assert_eq!(x001("nv_4081.nvm"), 1, "{}", run.stdout);
    assert_eq!(x001("nv_4180.nvm"), 0, "{}", run.stdout);
}

#[test]
fn the_region_comes_from_the_file_name() {
    let dir = temp();
    let mut mesh = NavMesh {
        global_edges: odd_standard().global_edges,
        ..NavMesh::default()
    };
    mesh.global_edges[0].region[0] = 0x1234; // not the region the file name says
    mesh.global_edges[0].cell[0] = 0;
    write_nvm(dir.path(), "nv_694e.nvm", &mesh);
    write_nvm(dir.path(), "renamed.nvm", &mesh);
    let named = silknav(dir.path(), &["lint", "nv_694e.nvm"]);
    let renamed = silknav(dir.path(), &["lint", "renamed.nvm"]);
    let flags_region = |out: &str| out.contains(": global_edges[0].region[0]: ");
    assert!(flags_region(&named.stdout), "{}", named.stdout);
    assert!(!flags_region(&renamed.stdout), "{}", renamed.stdout);
    assert!(
        renamed.stdout.contains("; region -; "),
        "{}",
        renamed.stdout
    );
}
