//! `silknav dump` and `silknav pack`: lossless both ways, atomic, no clobbering.

use crate::support::*;
use jmxv::nvm::NavMesh;
use serde_json::Value;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

/// `dump -o` then `pack -o` in `dir`, returning the packed bytes and the JSON text.
fn round_trip(dir: &Path, name: &str, extra: &[&str]) -> (Vec<u8>, String) {
    let json = format!("{name}.json");
    let packed = format!("{name}.packed");
    let mut args = vec!["dump", name, "-o", &json];
    args.extend_from_slice(extra);
    let dump = silknav(dir, &args);
    assert_eq!(dump.code, 0, "dump {name}: {}", dump.stderr);
    assert_eq!(dump.stdout, "", "dump -o writes nothing to stdout");
    let pack = silknav(dir, &["pack", &json, "-o", &packed]);
    assert_eq!(pack.code, 0, "pack {name}: {}", pack.stderr);
    (
        std::fs::read(dir.join(&packed)).unwrap(),
        std::fs::read_to_string(dir.join(json)).unwrap(),
    )
}

#[test]
fn pack_of_dump_is_byte_identical_in_every_layout() {
    let dir = temp();
    for (name, mesh) in [
        ("nv_694e.nvm", odd_standard()),
        ("tiles4.nvm", odd_tiles4()),
        ("noplanes.nvm", odd_noplanes()),
        ("default.nvm", NavMesh::default()),
    ] {
        let original = write_nvm(dir.path(), name, &mesh);
        let (packed, _) = round_trip(dir.path(), name, &[]);
        assert!(
            packed == std::fs::read(&original).unwrap(),
            "{name} changed in the round trip"
        );
        assert_eq!(NavMesh::parse(&packed).unwrap(), mesh, "{name}");
    }
}

#[test]
fn damaged_signature_round_trips_through_signature_hex() {
    let dir = temp();
    let original = write_nvm(dir.path(), "bad.nvm", &odd_signature());
    let refused = silknav(dir.path(), &["dump", "bad.nvm"]);
    assert_eq!(refused.code, 2);
    assert!(refused
        .error_line()
        .starts_with("bad.nvm: offset 0 (0x0): signature: expected"));
    let (packed, json) = round_trip(dir.path(), "bad.nvm", &["--any-signature"]);
    assert_eq!(packed, std::fs::read(original).unwrap());
    assert!(
        json.starts_with("{\n\"signature_hex\":\"ff4a4d58564e564d00313030\",\n"),
        "{json}"
    );
}

#[test]
fn floats_and_integers_are_spelled_as_documented() {
    let dir = temp();
    write_nvm(dir.path(), "nv_694e.nvm", &odd_standard());
    let run = silknav(dir.path(), &["dump", "nv_694e.nvm"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = &run.stdout;
    let doc: Value = serde_json::from_str(text).unwrap();
    assert_eq!(doc["signature"], "JMXVNVM 1000");
    assert_eq!(doc["layout"], "standard");
    // The spelling in the text itself, not what a JSON parser makes of it.
    let row = text
        .split("\"heights\":[\n")
        .nth(1)
        .unwrap()
        .lines()
        .next()
        .unwrap();
    let heights: Vec<&str> = row.split(',').take(ODD_FLOATS.len()).collect();
    assert_eq!(
        heights,
        [
            "-0.0",
            "1e-45",
            "-1.1754942e-38",
            r#""nan:7fc00001""#,
            r#""nan:ff800001""#,
            r#""inf""#,
            r#""-inf""#,
            "3.4028235e+38",
            "0.1",
            "10.000001"
        ]
    );
    assert_eq!(
        row.trim_end_matches(',').split(',').count(),
        97,
        "a row of the height map per line"
    );
    let object = &doc["objects"][0];
    assert_eq!(object["type"], 0xffff);
    assert_eq!(object["is_big"], 7);
    assert_eq!(object["yaw"], "inf");
    assert_eq!(
        object["links"][0],
        serde_json::json!({"link_object": 65535, "link_edge": 3, "edge": 65535})
    );
    assert_eq!(doc["global_edges"][0]["dir"], serde_json::json!([128, 255]));
    assert_eq!(
        doc["global_edges"][0]["region"],
        serde_json::json!([0x694e, 0xffff])
    );
    assert!(doc["internal_edges"][0].get("region").is_none());
    assert_eq!(
        doc["tiles"][1],
        serde_json::json!({"cell": 0xdead_0001u32, "flag": 7, "texture": 0xfffe})
    );
    assert_eq!(doc["tiles"].as_array().unwrap().len(), 9216);
    assert_eq!(doc["heights"].as_array().unwrap().len(), 9409);
    assert_eq!(doc["plane_types"].as_array().unwrap().len(), 36);
    assert_eq!(doc["plane_heights"].as_array().unwrap().len(), 36);
    assert_eq!(doc["trailing"], "00017f80ff7b");
    assert_eq!(doc["open_cell_count"], 5);
}

#[test]
fn legacy_layouts_leave_out_what_they_do_not_store() {
    let dir = temp();
    write_nvm(dir.path(), "t4.nvm", &odd_tiles4());
    write_nvm(dir.path(), "np.nvm", &odd_noplanes());
    let t4: Value = serde_json::from_str(&silknav(dir.path(), &["dump", "t4.nvm"]).stdout).unwrap();
    assert_eq!(t4["layout"], "tiles4");
    assert_eq!(t4["tiles"][1], serde_json::json!({"cell": 0xdead_0001u32}));
    assert_eq!(t4["plane_types"].as_array().unwrap().len(), 36);
    let np: Value = serde_json::from_str(&silknav(dir.path(), &["dump", "np.nvm"]).stdout).unwrap();
    assert_eq!(np["layout"], "tiles4-noplanes");
    assert!(np.get("plane_types").is_none() && np.get("plane_heights").is_none());
    assert_eq!(np["trailing"], "");
}

#[test]
fn stdout_and_stdin_work_as_files() {
    let dir = temp();
    let original = write_nvm(dir.path(), "nv_694e.nvm", &odd_standard());
    let dump = silknav(dir.path(), &["dump", "nv_694e.nvm"]);
    assert_eq!(dump.code, 0);
    let pack = silknav_with_stdin(
        dir.path(),
        &["pack", "-", "-o", "out.nvm"],
        dump.stdout.as_bytes(),
    );
    assert_eq!(pack.code, 0, "{}", pack.stderr);
    let original = std::fs::read(original).unwrap();
    assert_eq!(std::fs::read(dir.path().join("out.nvm")).unwrap(), original);
    let from_stdin = silknav_with_stdin(dir.path(), &["dump", "-"], &original);
    assert_eq!(from_stdin.code, 0, "{}", from_stdin.stderr);
    assert_eq!(from_stdin.stdout, dump.stdout);
}

#[test]
fn refuses_to_clobber_without_force() {
    let dir = temp();
    write_nvm(dir.path(), "a.nvm", &odd_standard());
    std::fs::write(dir.path().join("a.json"), "keep me").unwrap();
    std::fs::write(dir.path().join("b.nvm"), "keep me too").unwrap();

    let dump = silknav(dir.path(), &["dump", "a.nvm", "-o", "a.json"]);
    assert_eq!(dump.code, 2);
    assert_eq!(
        dump.error_line(),
        "a.json: already exists (use --force to replace it)"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.json")).unwrap(),
        "keep me"
    );

    let forced = silknav(dir.path(), &["dump", "a.nvm", "-o", "a.json", "--force"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert!(std::fs::read_to_string(dir.path().join("a.json"))
        .unwrap()
        .starts_with('{'));

    let pack = silknav(dir.path(), &["pack", "a.json", "-o", "b.nvm"]);
    assert_eq!(pack.code, 2);
    assert_eq!(
        pack.error_line(),
        "b.nvm: already exists (use --force to replace it)"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("b.nvm")).unwrap(),
        "keep me too"
    );

    let forced = silknav(dir.path(), &["pack", "a.json", "-o", "b.nvm", "--force"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(
        std::fs::read(dir.path().join("b.nvm")).unwrap(),
        std::fs::read(dir.path().join("a.nvm")).unwrap()
    );

    // No temporary file is left behind, whichever way the writes went.
    assert_eq!(names_in(dir.path()), ["a.json", "a.nvm", "b.nvm"]);
}

#[test]
fn output_into_a_missing_folder_fails_cleanly() {
    let dir = temp();
    write_nvm(dir.path(), "a.nvm", &NavMesh::default());
    let run = silknav(dir.path(), &["dump", "a.nvm", "-o", "no/such/dir/a.json"]);
    assert_eq!(run.code, 2);
    assert!(
        run.error_line().starts_with("no/such/dir/a.json: "),
        "{}",
        run.stderr
    );
}

#[test]
fn closed_stdout_is_not_an_error() {
    let dir = temp();
    write_nvm(dir.path(), "a.nvm", &NavMesh::default());
    let mut child = Command::new(env!("CARGO_BIN_EXE_silknav"))
        .args(["dump", "a.nvm"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut head = [0u8; 16];
    stdout.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"{\n\"signature\":\"J");
    // Like `| head`: stop reading while the dump (about 300 KB) is far from written.
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn dump_is_compact() {
    let dir = temp();
    // Values like the game's: heights with a decimal or two, cells and textures in the hundreds.
    let mut mesh = NavMesh::default();
    for (i, h) in mesh.heights.iter_mut().enumerate() {
        *h = jmxv::F32::from((i % 1000) as f32 * 0.25 + 100.0);
    }
    for (i, t) in mesh.tiles.iter_mut().enumerate() {
        t.cell_index = (i / 37) as u32;
        t.texture_id = (i % 150) as u16;
        t.flag = (i % 2) as u16;
    }
    write_nvm(dir.path(), "a.nvm", &mesh);
    let (_, json) = round_trip(dir.path(), "a.nvm", &[]);
    let size = mesh.to_vec().unwrap().len();
    assert!(
        json.len() < size * 4,
        "{} bytes of JSON for {size} bytes",
        json.len()
    );
    assert_eq!(
        json.lines().count(),
        225,
        "a line per key, record and grid row"
    );
}
