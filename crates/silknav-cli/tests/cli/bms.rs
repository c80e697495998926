//! Object meshes (`.bms`) in `info`, `dump`, `pack` and `lint`: told apart from navmeshes by
//! their signature, lossless through JSON, linted with the B-codes.

use crate::support::*;
use jmxv::bms::ObjectMesh;
use serde_json::Value;
use silknav_testkit::second_writer;
use std::path::{Path, PathBuf};

/// `dump -o` then `pack -o` of `file` (relative to `dir`): the packed bytes.
fn round_trip(dir: &Path, file: &str, n: usize) -> Vec<u8> {
    let json = format!("{n}.json");
    let packed = format!("{n}.packed");
    let dump = silknav(dir, &["dump", file, "-o", &json]);
    assert_eq!(dump.code, 0, "dump {file}: {}", dump.stderr);
    assert_eq!(dump.stdout, "", "dump -o writes nothing to stdout");
    let pack = silknav(dir, &["pack", &json, "-o", &packed]);
    assert_eq!(pack.code, 0, "pack {file}: {}", pack.stderr);
    std::fs::read(dir.join(packed)).unwrap()
}

/// Every `.bms` file under `dir`, sorted.
fn bms_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_owned()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("bms"))
            {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn every_generated_mesh_packs_back_byte_identical() {
    let dir = temp();
    let world = gen_world(dir.path(), "world", 7, "2x2");
    let files = bms_files(&world);
    assert!(
        files.len() >= 5,
        "the generator writes several object meshes, found {files:?}"
    );
    for (n, path) in files.iter().enumerate() {
        let name = path.strip_prefix(dir.path()).unwrap().to_str().unwrap();
        let original = std::fs::read(path).unwrap();
        assert!(
            round_trip(dir.path(), name, n) == original,
            "{name} changed in the round trip"
        );
    }
}

#[test]
fn the_independent_meshes_pack_back_byte_identical() {
    let dir = temp();
    let mut meshes = second_writer::bms::meshes();
    meshes.extend((0..8).map(second_writer::bms::odd));
    for (n, spec) in meshes.iter().enumerate() {
        let name = format!("mesh{n}.bms");
        let original = spec.to_bytes();
        std::fs::write(dir.path().join(&name), &original).unwrap();
        let packed = round_trip(dir.path(), &name, n);
        assert!(packed == original, "{name} changed in the round trip");
        assert_eq!(
            ObjectMesh::parse(&packed).unwrap(),
            ObjectMesh::parse(&original).unwrap()
        );
    }
}

#[test]
fn the_kind_is_the_signature_not_the_name() {
    let dir = temp();
    let bytes = second_writer::bms::bridge_deck().to_bytes();
    // An object mesh under a navmesh's name, and a navmesh under an object mesh's name.
    std::fs::write(dir.path().join("nv_694e.nvm"), &bytes).unwrap();
    write_nvm(dir.path(), "deck.bms", &jmxv::nvm::NavMesh::default());
    let info = silknav(dir.path(), &["info", "nv_694e.nvm", "deck.bms"]);
    assert_eq!(info.code, 0, "{}", info.stderr);
    let lines: Vec<&str> = info.stdout.lines().collect();
    assert!(
        lines[0].starts_with("nv_694e.nvm: kind=bms version=0109 "),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("deck.bms: layout=standard "),
        "{}",
        lines[1]
    );
    let dump = silknav(dir.path(), &["dump", "nv_694e.nvm"]);
    let doc: Value = serde_json::from_str(&dump.stdout).unwrap();
    assert_eq!(
        doc["signature"], "JMXVBMS 0109",
        "the bridge is an old file"
    );
    // A navmesh dump packs as a navmesh even though its output is called `.bms`.
    let packed = round_trip(dir.path(), "deck.bms", 0);
    assert_eq!(packed, std::fs::read(dir.path().join("deck.bms")).unwrap());
}

#[test]
fn info_gives_version_flags_counts_and_offsets() {
    let dir = temp();
    let bytes = second_writer::bms::event_gate().to_bytes();
    std::fs::write(dir.path().join("gate.bms"), &bytes).unwrap();
    let mesh = ObjectMesh::parse(&bytes).unwrap();
    let nav = mesh.nav.as_ref().unwrap();
    let offsets: Vec<String> = mesh.header.offsets.iter().map(u32::to_string).collect();
    let text = silknav(dir.path(), &["info", "gate.bms"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert_eq!(
        text.stdout,
        format!(
            "gate.bms: kind=bms version=0110 nav_flags=0x{:x} nav_offset={} vertices={} cells={} \
             outline_edges={} inline_edges={} event_names={} grid={}x{} offsets={} \
             before_nav={} after_nav={} size={}\n",
            mesh.header.nav_flags,
            mesh.header.nav_offset(),
            nav.vertices.len(),
            nav.cells.len(),
            nav.outline_edges.len(),
            nav.inline_edges.len(),
            nav.event_names.len(),
            nav.grid.width,
            nav.grid.height,
            offsets.join(","),
            mesh.before_nav.len(),
            mesh.after_nav.len(),
            bytes.len()
        )
    );
    assert!(!nav.event_names.is_empty(), "the gate has named events");
    let json = silknav(dir.path(), &["info", "--json", "gate.bms"]);
    let line: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(line["kind"], "bms");
    assert_eq!(line["nav_offset"], mesh.header.nav_offset());
    assert_eq!(line["cells"], nav.cells.len());
    assert_eq!(line["offsets"][7], mesh.header.nav_offset());

    // A mesh without a navigation section has no counts.
    std::fs::write(
        dir.path().join("tree.bms"),
        second_writer::bms::render_only().to_bytes(),
    )
    .unwrap();
    let tree = silknav(dir.path(), &["info", "tree.bms"]);
    assert!(
        tree.stdout.contains(
            " nav_offset=0 vertices=- cells=- outline_edges=- inline_edges=- event_names=- grid=- "
        ),
        "{}",
        tree.stdout
    );
}

#[test]
fn lint_reports_b_codes_with_the_navmesh_exit_codes() {
    let dir = temp();
    let good = second_writer::bms::box_building().to_bytes();
    std::fs::write(dir.path().join("good.bms"), &good).unwrap();
    let clean = silknav(dir.path(), &["lint", "good.bms"]);
    assert_eq!(clean.code, 0, "{}{}", clean.stdout, clean.stderr);
    assert_eq!(
        clean.stdout,
        "good.bms: 0 errors, 0 warnings\ntotal: 1 file, 0 errors, 0 warnings\n"
    );

    let mut mesh = ObjectMesh::parse(&good).unwrap();
    let nav = mesh.nav.as_mut().unwrap();
    let count = nav.vertices.len();
    nav.cells[0].vertices[0] = 999;
    std::fs::write(dir.path().join("bad.bms"), mesh.to_vec().unwrap()).unwrap();
    let broken = silknav(dir.path(), &["lint", "bad.bms"]);
    assert_eq!(
        broken.code, 1,
        "an error finding exits 1: {}",
        broken.stderr
    );
    assert_eq!(
        broken.stdout,
        format!(
            "bad.bms: error B001: cells[0].vertices[0]: vertex 999, but there are {count} vertices\n\
             bad.bms: 1 error, 0 warnings\ntotal: 1 file, 1 error, 0 warnings\n"
        )
    );
    let json = silknav(dir.path(), &["lint", "--json", "bad.bms"]);
    assert_eq!(json.code, 1);
    let line: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(line["findings"][0]["code"], "B001");
    assert_eq!(line["findings"][0]["location"], "cells[0].vertices[0]");
    assert!(line["directions"].is_null());

    // A file that does not parse is unreadable: exit 2, with the byte offset and section.
    std::fs::write(dir.path().join("cut.bms"), &good[..good.len() - 30]).unwrap();
    let cut = silknav(dir.path(), &["lint", "cut.bms"]);
    assert_eq!(cut.code, 2);
    assert!(
        cut.error_line().starts_with("cut.bms: offset "),
        "{}",
        cut.stderr
    );
}

#[test]
fn pack_names_the_bad_field() {
    let dir = temp();
    std::fs::write(
        dir.path().join("gate.bms"),
        second_writer::bms::event_gate().to_bytes(),
    )
    .unwrap();
    let dump = silknav(dir.path(), &["dump", "gate.bms"]);
    assert_eq!(dump.code, 0, "{}", dump.stderr);
    let edited = dump
        .stdout
        .replacen("\"flag\":", "\"flag\":70000,\"x\":", 1);
    std::fs::write(dir.path().join("bad.json"), edited).unwrap();
    let pack = silknav(dir.path(), &["pack", "bad.json", "-o", "out.bms"]);
    assert_eq!(pack.code, 2);
    assert_eq!(
        pack.error_line(),
        "bad.json: cells[0].flag: expected an integer 0..=65535, found 70000"
    );
    assert!(!dir.path().join("out.bms").exists(), "nothing is written");
}
