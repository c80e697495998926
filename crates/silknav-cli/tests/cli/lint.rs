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
fn folders_lint_their_nvm_files_sorted_and_not_below() {
    let dir = temp();
    let maps = dir.path().join("maps");
    std::fs::create_dir_all(maps.join("old")).unwrap();
    write_nvm(&maps, "nv_694f.nvm", &NavMesh::default());
    write_nvm(&maps, "NV_694E.NVM", &NavMesh::default());
    write_nvm(&maps.join("old"), "nv_0001.nvm", &with_bad_cell_object());
    std::fs::write(maps.join("mapinfo.mfo"), b"not a navmesh").unwrap();
    let run = silknav(dir.path(), &["lint", "--json", "maps"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let paths: Vec<String> = run
        .stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["path"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(paths, ["maps/NV_694E.NVM", "maps/nv_694f.nvm"]);
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
}

#[test]
fn folder_without_nvm_files_is_an_error() {
    let dir = temp();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let run = silknav(dir.path(), &["lint", "empty"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.error_line(), "empty: no *.nvm file in this folder");
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
