//! `silknav info`.

use crate::support::*;
use jmxv::nvm::NavMesh;
use serde_json::Value;

#[test]
fn one_text_line_per_file() {
    let dir = temp();
    write_nvm(dir.path(), "NV_694E.NVM", &odd_standard());
    write_nvm(dir.path(), "legacy.nvm", &odd_noplanes());
    let run = silknav(dir.path(), &["info", "NV_694E.NVM", "legacy.nvm"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    let size = odd_standard().to_vec().unwrap().len();
    let legacy_size = odd_noplanes().to_vec().unwrap().len();
    assert_eq!(
        run.stdout,
        format!(
            "NV_694E.NVM: layout=standard region=694e objects=2 cells=2 open_cells=5 \
             global_edges=1 internal_edges=1 trailing=6 size={size}\n\
             legacy.nvm: layout=tiles4-noplanes region=- objects=2 cells=2 open_cells=5 \
             global_edges=1 internal_edges=1 trailing=0 size={legacy_size}\n"
        )
    );
}

#[test]
fn json_lines_with_snake_case_keys() {
    let dir = temp();
    write_nvm(dir.path(), "nv_0a0b.nvm", &odd_tiles4());
    write_nvm(dir.path(), "x.nvm", &NavMesh::default());
    let run = silknav(dir.path(), &["info", "--json", "nv_0a0b.nvm", "x.nvm"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0],
        serde_json::json!({
            "path": "nv_0a0b.nvm", "layout": "tiles4", "region": "0a0b", "objects": 2,
            "cells": 2, "open_cells": 5, "global_edges": 1, "internal_edges": 1,
            "trailing": 0, "size": odd_tiles4().to_vec().unwrap().len(),
        })
    );
    assert_eq!(lines[1]["region"], Value::Null);
    assert_eq!(lines[1]["size"], 111_591);
}

#[test]
fn damaged_signature_needs_the_option() {
    let dir = temp();
    write_nvm(dir.path(), "nv_694e.nvm", &odd_signature());
    let refused = silknav(dir.path(), &["info", "nv_694e.nvm"]);
    assert_eq!(refused.code, 2);
    assert!(refused
        .error_line()
        .starts_with("nv_694e.nvm: offset 0 (0x0): signature: "));
    let accepted = silknav(dir.path(), &["info", "--any-signature", "nv_694e.nvm"]);
    assert_eq!(accepted.code, 0, "{}", accepted.stderr);
    assert!(accepted
        .stdout
        .starts_with("nv_694e.nvm: layout=standard region=694e"));
}

#[test]
fn unreadable_file_is_reported_and_the_others_still_described() {
    let dir = temp();
    write_nvm(dir.path(), "a.nvm", &NavMesh::default());
    let run = silknav(dir.path(), &["info", "missing.nvm", "a.nvm"]);
    assert_eq!(run.code, 2);
    assert!(
        run.error_line().starts_with("missing.nvm: "),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.starts_with("a.nvm: layout=standard"),
        "{}",
        run.stdout
    );
}
