//! Malformed input of every kind: exit 2 and one located line on stderr, never a panic.

use crate::support::*;
use jmxv::nvm::NavMesh;
use serde_json::{json, Value};
use std::path::Path;

/// Broken navmesh files, each named after what is wrong with it.
fn broken_files() -> Vec<(&'static str, Vec<u8>)> {
    let good = NavMesh::default().to_vec().unwrap();
    let with = |at: usize, bytes: &[u8]| {
        let mut b = good.clone();
        b[at..at + bytes.len()].copy_from_slice(bytes);
        b
    };
    let mut legacy_plus_one = odd_tiles4().to_vec().unwrap();
    legacy_plus_one.push(0);
    vec![
        ("empty.nvm", Vec::new()),
        ("short-signature.nvm", b"JMXVN".to_vec()),
        ("wrong-signature.nvm", with(0, b"JMXVNVM 1001")),
        ("only-signature.nvm", good[..12].to_vec()),
        ("object-count.nvm", with(12, &[0xff, 0xff])),
        ("cell-count.nvm", with(14, &[0xff, 0xff, 0xff, 0x7f])),
        ("cell-objects.nvm", with(14 + 8 + 16, &[200])),
        ("truncated-tail.nvm", good[..good.len() - 1].to_vec()),
        ("truncated-cells.nvm", good[..30].to_vec()),
        ("legacy-plus-one.nvm", legacy_plus_one),
    ]
}

#[test]
fn every_broken_file_gives_one_located_line_and_exit_2() {
    let dir = temp();
    for (name, bytes) in broken_files() {
        std::fs::write(dir.path().join(name), &bytes).unwrap();
        let expected = format!("{name}: {}", NavMesh::parse(&bytes).unwrap_err());
        assert!(
            expected.starts_with(&format!("{name}: offset ")),
            "{expected}"
        );
        for command in ["info", "dump", "lint"] {
            let run = silknav(dir.path(), &[command, name]);
            assert_eq!(run.code, 2, "{command} {name}");
            assert_eq!(run.error_line(), expected, "{command} {name}");
        }
    }
}

#[test]
fn lint_goes_on_after_a_broken_file() {
    let dir = temp();
    std::fs::write(dir.path().join("a.nvm"), b"JMXVN").unwrap();
    write_nvm(dir.path(), "b.nvm", &NavMesh::default());
    let world = dir.path().join("world");
    std::fs::create_dir(&world).unwrap();
    std::fs::write(world.join("nv_694e.nvm"), b"JMXVN").unwrap();
    write_nvm(&world, "nv_694f.nvm", &NavMesh::default());
    let run = silknav(dir.path(), &["lint", "a.nvm", "world", "b.nvm"]);
    assert_eq!(run.code, 2);
    let errors: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(errors.len(), 2, "{}", run.stderr);
    assert!(
        errors[0].starts_with("a.nvm: offset 0 (0x0): signature: "),
        "{}",
        run.stderr
    );
    // A folder is read whole: one broken file and the world is not linted.
    assert!(
        errors[1].starts_with("world/nv_694e.nvm: "),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("world/"), "{}", run.stdout);
    assert!(run.stdout.contains("b.nvm: 0 errors"), "{}", run.stdout);
    assert!(run.stdout.ends_with(", 2 unreadable\n"), "{}", run.stdout);
}

#[test]
fn missing_file_is_one_line() {
    let dir = temp();
    for command in ["info", "dump", "lint"] {
        let run = silknav(dir.path(), &[command, "nv_694e.nvm"]);
        assert_eq!(run.code, 2, "{command}");
        assert!(
            run.error_line().starts_with("nv_694e.nvm: "),
            "{command}: {}",
            run.stderr
        );
    }
    let run = silknav(dir.path(), &["pack", "in.json", "-o", "out.nvm"]);
    assert_eq!(run.code, 2);
    assert!(run.error_line().starts_with("in.json: "), "{}", run.stderr);
}

/// The dump of `mesh`, as a JSON value to break.
fn dump_of(dir: &Path, mesh: &NavMesh) -> Value {
    write_nvm(dir, "base.nvm", mesh);
    let run = silknav(dir, &["dump", "base.nvm"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap()
}

/// Packs `text` and expects exit 2 with exactly `in.json: {message}`, and no output file.
fn assert_pack_fails(dir: &Path, text: &str, message: &str) {
    assert_pack_fails_bytes(dir, text.as_bytes(), message);
}

fn assert_pack_fails_bytes(dir: &Path, text: &[u8], message: &str) {
    std::fs::write(dir.join("in.json"), text).unwrap();
    let run = silknav(dir, &["pack", "in.json", "-o", "out.nvm"]);
    assert_eq!(run.code, 2, "{message}");
    assert_eq!(run.error_line(), format!("in.json: {message}"));
    assert!(
        !dir.join("out.nvm").exists(),
        "{message}: an output was written"
    );
}

type Breakage = (fn(&mut Value), &'static str);

fn set(doc: &mut Value, pointer: &str, value: Value) {
    *doc.pointer_mut(pointer)
        .unwrap_or_else(|| panic!("{pointer} exists")) = value;
}

fn insert(doc: &mut Value, pointer: &str, key: &str, value: Value) {
    doc.pointer_mut(pointer)
        .unwrap()
        .as_object_mut()
        .unwrap()
        .insert(key.to_owned(), value);
}

fn remove(doc: &mut Value, pointer: &str, key: &str) {
    doc.pointer_mut(pointer)
        .unwrap()
        .as_object_mut()
        .unwrap()
        .remove(key)
        .expect("key exists");
}

fn truncate(doc: &mut Value, pointer: &str, len: usize) {
    doc.pointer_mut(pointer)
        .unwrap()
        .as_array_mut()
        .unwrap()
        .truncate(len);
}

const STANDARD_BREAKAGES: &[Breakage] = &[
    (
        |d| set(d, "/cells/1/min/1", json!("abc")),
        r#"cells[1].min[1]: expected a number, "inf", "-inf" or "nan:XXXXXXXX", found "abc""#,
    ),
    (
        |d| set(d, "/cells/0/max/0", json!(true)),
        r#"cells[0].max[0]: expected a number, "inf", "-inf" or "nan:XXXXXXXX", found true"#,
    ),
    (
        |d| truncate(d, "/heights", 9408),
        "heights: expected an array of 9409 numbers, found an array of 9408",
    ),
    (
        |d| {
            d["tiles"]
                .as_array_mut()
                .unwrap()
                .push(json!({"cell": 0, "flag": 0, "texture": 0}))
        },
        "tiles: expected an array of 9216 tiles, found an array of 9217",
    ),
    (
        |d| truncate(d, "/plane_types", 35),
        "plane_types: expected an array of 36 integers, found an array of 35",
    ),
    (
        |d| set(d, "/plane_heights", json!({})),
        "plane_heights: expected an array, found an object",
    ),
    (
        |d| remove(d, "", "plane_heights"),
        r#"top level: missing key "plane_heights""#,
    ),
    (
        |d| set(d, "/global_edges/0/flag", json!(300)),
        "global_edges[0].flag: expected an integer 0..=255, found 300",
    ),
    (
        |d| set(d, "/global_edges/0/dir", json!([1])),
        "global_edges[0].dir: expected an array of 2 integers, found an array of 1",
    ),
    (
        |d| set(d, "/objects/0/uid", json!(-1)),
        "objects[0].uid: expected an integer 0..=65535, found -1",
    ),
    (
        |d| set(d, "/objects/0/is_big", json!(true)),
        "objects[0].is_big: expected an integer 0..=255, found true",
    ),
    (
        |d| set(d, "/objects/0/short0", json!(1.0)),
        "objects[0].short0: expected an integer 0..=65535, found 1.0",
    ),
    (
        |d| set(d, "/tiles/5/cell", json!(4294967296u64)),
        "tiles[5].cell: expected an integer 0..=4294967295, found 4294967296",
    ),
    (
        |d| set(d, "/objects/0/links/1/edge", json!(null)),
        "objects[0].links[1].edge: expected an integer 0..=65535, found null",
    ),
    (
        |d| remove(d, "/cells/0", "objects"),
        r#"cells[0]: missing key "objects""#,
    ),
    (
        |d| remove(d, "/tiles/9215", "texture"),
        r#"tiles[9215]: missing key "texture""#,
    ),
    (
        |d| insert(d, "", "heigths", json!([])),
        "heigths: unknown key (expected one of signature, signature_hex, layout, objects, \
         open_cell_count, cells, global_edges, internal_edges, tiles, heights, plane_types, \
         plane_heights, trailing)",
    ),
    (
        |d| insert(d, "/cells/0", "objectz", json!([])),
        "cells[0].objectz: unknown key (expected one of min, max, objects)",
    ),
    (
        |d| set(d, "/layout", json!("tiles8")),
        r#"layout: expected "standard", "tiles4" or "tiles4-noplanes", found "tiles8""#,
    ),
    (
        |d| set(d, "/layout", json!(4)),
        r#"layout: expected "standard", "tiles4" or "tiles4-noplanes", found 4"#,
    ),
    (
        |d| set(d, "/heights/7", json!(1e39)),
        r#"heights[7]: 1e+39 is beyond the f32 range (write "inf" or "-inf" for infinity)"#,
    ),
    (
        |d| set(d, "/heights/8", json!("nan:3f800000")),
        r#"heights[8]: "nan:3f800000" is not a NaN (write the number instead)"#,
    ),
    (
        |d| set(d, "/heights/9", json!("nan:7fc0000")),
        r#"heights[9]: expected a number, "inf", "-inf" or "nan:XXXXXXXX", found "nan:7fc0000""#,
    ),
    (
        |d| set(d, "/signature", json!("JMXVNVM 100")),
        r#"signature: expected a string of 12 printable ASCII characters (other bytes go in "signature_hex"), found "JMXVNVM 100""#,
    ),
    (
        |d| set(d, "/signature", json!("JMXVNVM\u{e9}100")),
        r#"signature: expected a string of 12 printable ASCII characters (other bytes go in "signature_hex"), found "JMXVNVMé100""#,
    ),
    (
        |d| insert(d, "", "signature_hex", json!("00")),
        r#"signature_hex: give either "signature" or "signature_hex", not both"#,
    ),
    (
        |d| remove(d, "", "signature"),
        r#"top level: missing key "signature" (or "signature_hex")"#,
    ),
    (
        |d| set(d, "/trailing", json!("abc")),
        r#"trailing: expected a string of hex digits (two per byte), found "abc""#,
    ),
    (
        |d| set(d, "/trailing", json!("zz")),
        r#"trailing: expected a string of hex digits (two per byte), found "zz""#,
    ),
    (
        |d| set(d, "/cells/0/objects", json!(vec![0; 256])),
        "cells[0].objects: 256 entries, at most 255 fit",
    ),
    (
        |d| *d = json!([]),
        "top level: expected an object, found an array of 0",
    ),
];

#[test]
fn every_broken_document_names_its_json_path() {
    let dir = temp();
    let base = dump_of(dir.path(), &odd_standard());
    for (breakage, message) in STANDARD_BREAKAGES {
        let mut doc = base.clone();
        breakage(&mut doc);
        assert_pack_fails(dir.path(), &doc.to_string(), message);
    }
}

#[test]
fn legacy_documents_may_not_hold_what_the_layout_does_not_store() {
    let dir = temp();
    let tiles4 = dump_of(dir.path(), &odd_tiles4());
    let mut doc = tiles4.clone();
    set(&mut doc, "/tiles/3", json!({"cell": 0, "flag": 0}));
    assert_pack_fails(
        dir.path(),
        &doc.to_string(),
        "tiles[3].flag: not stored in layout tiles4; remove this key",
    );
    let mut doc = tiles4.clone();
    set(&mut doc, "/trailing", json!("00"));
    assert_pack_fails(
        dir.path(),
        &doc.to_string(),
        "trailing: layout tiles4 cannot carry trailing bytes (the file would read back as another layout)",
    );

    let mut doc = dump_of(dir.path(), &odd_noplanes());
    insert(&mut doc, "", "plane_types", json!(vec![0; 36]));
    assert_pack_fails(
        dir.path(),
        &doc.to_string(),
        "plane_types: not stored in layout tiles4-noplanes; remove this key",
    );
    // Switching a standard dump's layout without removing the tile flags is caught too.
    let mut doc = dump_of(dir.path(), &odd_standard());
    set(&mut doc, "/layout", json!("tiles4"));
    assert_pack_fails(
        dir.path(),
        &doc.to_string(),
        "tiles[0].flag: not stored in layout tiles4; remove this key",
    );
}

#[test]
fn text_that_is_not_json_gives_its_line_and_column() {
    let dir = temp();
    assert_pack_fails(dir.path(), "", "line 1 column 1: EOF while parsing a value");
    assert_pack_fails(
        dir.path(),
        "{\n\"layout\": standard",
        "line 2 column 11: expected value",
    );
    // A repeated key is named by its path, like every other mistake in a well-formed document.
    assert_pack_fails(
        dir.path(),
        "{\"layout\":\"standard\",\n \"layout\":\"standard\"}",
        "layout: duplicate key (each key may appear once)",
    );
    let whole = jmxv::nvm::json::to_string(&NavMesh::default()).unwrap();
    assert_pack_fails(
        dir.path(),
        &format!("{whole} {{}}"),
        "line 226 column 2: trailing characters",
    );
    let nvm = NavMesh::default().to_vec().unwrap();
    assert_pack_fails_bytes(
        dir.path(),
        &nvm,
        "this is a JMXV binary file, not JSON (pack reads what dump writes)",
    );
    assert_pack_fails_bytes(
        dir.path(),
        b"\"\xff\"",
        "line 1 column 2: the text is not UTF-8",
    );
}
