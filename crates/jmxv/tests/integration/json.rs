//! The JSON form of a navmesh (`jmxv::nvm::json`): its text layout, strict reading, and the
//! messages that name where a document is wrong. The round trip over generated models is in
//! `roundtrip.rs`, beside the strategies; the command line's `dump`/`pack` tests use the same
//! functions through the binary.

use jmxv::nvm::{json, Layout, NavMesh};
use jmxv::F32;

fn dump(mesh: &NavMesh) -> String {
    json::to_string(mesh).unwrap()
}

fn error(text: &str) -> String {
    json::from_str(text).unwrap_err().to_string()
}

fn error_bytes(text: &[u8]) -> String {
    json::from_slice(text).unwrap_err().to_string()
}

/// The dump of the default mesh with the first `from` replaced by `to`.
fn edited(from: &str, to: &str) -> String {
    let text = dump(&NavMesh::default());
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

#[test]
fn model_to_json_to_model_is_identity_in_every_layout() {
    for layout in Layout::ALL {
        let mut mesh = NavMesh {
            layout,
            ..NavMesh::default()
        };
        mesh.heights[5] = F32::from_bits(0x7fc0_0001);
        if layout.has_planes() {
            mesh.planes.types[3] = 3;
        }
        let text = dump(&mesh);
        let back = json::from_str(&text).unwrap();
        assert_eq!(back, mesh, "{}", layout.name());
        assert_eq!(json::from_slice(text.as_bytes()).unwrap(), mesh);
        let mut streamed = Vec::new();
        json::to_writer(&mesh, &mut streamed).unwrap();
        assert_eq!(
            streamed,
            text.as_bytes(),
            "to_writer writes what to_string returns"
        );
    }
}

#[test]
fn one_top_level_key_per_line_in_order() {
    let text = dump(&NavMesh::default());
    let keys: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix('"'))
        .filter_map(|l| l.split('"').next())
        .collect();
    assert_eq!(
        keys,
        [
            "signature",
            "layout",
            "objects",
            "open_cell_count",
            "cells",
            "global_edges",
            "internal_edges",
            "tiles",
            "heights",
            "plane_types",
            "plane_heights",
            "trailing"
        ]
    );
    assert!(text.starts_with("{\n\"signature\":\"JMXVNVM 1000\",\n\"layout\":\"standard\",\n"));
    assert!(text.ends_with("\"trailing\":\"\"\n}\n"));
    assert_eq!(
        text.lines().filter(|l| l.starts_with("{\"cell\":")).count(),
        96
    );
    // Braces 2, one-line keys 7, cells 3, tiles 96 + 2, heights 97 + 2, planes 2 × (6 + 2).
    assert_eq!(text.lines().count(), 2 + 7 + 3 + 98 + 99 + 16);
}

#[test]
fn unwritable_meshes_have_no_json_form() {
    let mut mesh = NavMesh::default();
    mesh.cells[0].objects = vec![0; 256];
    let refused = json::to_string(&mesh).unwrap_err();
    assert_eq!(refused.section(), "cells[0].objects");
    let mut out = Vec::new();
    let io = json::to_writer(&mesh, &mut out).unwrap_err();
    assert_eq!(io.kind(), std::io::ErrorKind::InvalidInput);
    assert!(out.is_empty(), "nothing written");
    // A legacy layout cannot hold tile flags; a dump would silently drop them.
    let mut mesh = NavMesh {
        layout: Layout::Tiles4,
        ..NavMesh::default()
    };
    mesh.tiles[0].flag = 1;
    assert!(json::to_string(&mesh).is_err());
}

#[test]
fn errors_name_the_path() {
    assert_eq!(
        error("[]"),
        "top level: expected an object, found an array of 0"
    );
    assert_eq!(
        error(r#"{"layout":"tiles8"}"#),
        r#"layout: expected "standard", "tiles4" or "tiles4-noplanes", found "tiles8""#
    );
    assert_eq!(
        error(r#"{"layout":"standard"}"#),
        r#"top level: missing key "signature" (or "signature_hex")"#
    );
    assert_eq!(
        error(r#"{"layout":"tiles4-noplanes","plane_types":[]}"#),
        "plane_types: not stored in layout tiles4-noplanes; remove this key"
    );
    assert!(error(r#"{"layout":"standard","heigths":[]}"#).starts_with("heigths: unknown key"));
    let e = json::from_str(&edited("{\"min\":[0.0,0.0],", "{\"min\":[0.0,\"abc\"],")).unwrap_err();
    assert_eq!(e.path(), Some("cells[0].min[1]"));
    assert_eq!(
        e.message(),
        r#"expected a number, "inf", "-inf" or "nan:XXXXXXXX", found "abc""#
    );
    // The position is where reading stopped: the cell's line.
    assert_eq!(e.position().map(|(line, _)| line), Some(7));
}

#[test]
fn paths_are_spelled_like_the_dump() {
    let heights = dump(&NavMesh::default()).replace("\"heights\":[\n", "\"heights\":[\n0.0,");
    assert!(error(&heights)
        .starts_with("heights: expected an array of 9409 numbers, found an array of 9410"));
    let text = edited("\"objects\":[]}", "\"objects\":[1,2,true]}");
    assert_eq!(
        error(&text),
        "cells[0].objects[2]: expected an integer 0..=65535, found true"
    );
    let last = dump(&NavMesh::default());
    let at = last.rfind("0.0\n],\n\"plane_types\"").unwrap();
    let text = format!("{}\"nan\"{}", &last[..at], &last[at + 3..]);
    let e = json::from_str(&text).unwrap_err();
    assert_eq!(e.path(), Some("heights[9408]"));
    assert_eq!(
        e.message(),
        "expected a number, \"inf\", \"-inf\" or \"nan:XXXXXXXX\", found \"nan\""
    );
}

#[test]
fn every_value_type_is_quoted_when_wrong() {
    for (value, found) in [
        ("null", "null"),
        ("false", "false"),
        ("-1", "-1"),
        ("1.0", "1.0"),
        ("1e400", "1e400"),
        ("\"a\\nb\"", "\"a\\nb\""),
        ("[[1],2]", "an array of 2"),
        ("{\"a\":1}", "an object"),
    ] {
        let text = edited(
            "\"open_cell_count\":1,",
            &format!("\"open_cell_count\":{value},"),
        );
        assert_eq!(
            error(&text),
            format!("open_cell_count: expected an integer 0..=4294967295, found {found}"),
        );
    }
    // Where an object or array belongs, a scalar is quoted too (numbers as serde_json read them).
    for (value, found) in [
        ("7", "7"),
        ("-7", "-7"),
        ("0.5", "0.5"),
        ("\"x\"", "\"x\""),
        ("true", "true"),
        ("null", "null"),
    ] {
        let text = edited("\"global_edges\":[]", &format!("\"global_edges\":{value}"));
        assert_eq!(
            error(&text),
            format!("global_edges: expected an array, found {found}")
        );
        let text = edited(
            "\"global_edges\":[]",
            &format!("\"global_edges\":[{value}]"),
        );
        assert_eq!(
            error(&text),
            format!("global_edges[0]: expected an object, found {found}")
        );
    }
    let long = "x".repeat(50);
    let text = edited("\"trailing\":\"\"", &format!("\"trailing\":\"{long}\""));
    assert_eq!(
        error(&text),
        format!(
            "trailing: expected a string of hex digits (two per byte), found \"{}\"…",
            "x".repeat(40)
        )
    );
}

#[test]
fn strings_are_decoded_before_they_are_checked() {
    let text = edited(
        "\"signature\":\"JMXVNVM 1000\"",
        r#""signature":"JMXV\u004eVM\u00201000""#,
    );
    assert_eq!(json::from_str(&text).unwrap(), NavMesh::default());
    let text = edited("\"layout\":\"standard\"", r#""layout":"st\u0061ndard""#);
    assert_eq!(json::from_str(&text).unwrap(), NavMesh::default());
    let text = edited("\"trailing\":\"\"", r#""trailing":"0\u0031ff""#);
    assert_eq!(json::from_str(&text).unwrap().trailing, [0x01, 0xff]);
    // Keys too: an escaped key is the same key.
    let text = edited("\"open_cell_count\":1", r#""open_cell_co\u0075nt":2"#);
    assert_eq!(json::from_str(&text).unwrap().open_cell_count, 2);
    let text = edited(
        "\"signature\":\"JMXVNVM 1000\"",
        "\"signature\":\"JMXVNVM\u{e9}100\"",
    );
    assert!(
        error(&text).starts_with("signature: expected a string of 12 printable ASCII characters")
    );
}

#[test]
fn any_formatting_reads_back_the_same() {
    let mut mesh = NavMesh::default();
    mesh.heights[1] = F32::from_bits(0x15ae_43fd);
    mesh.heights[2] = F32::from_bits(0xffc0_1234);
    let text = dump(&mesh);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Reformatted by serde_json: the f32 decimals survive as text even through `Value`.
    let pretty = serde_json::to_string_pretty(&value).unwrap();
    assert_ne!(pretty, text);
    assert_eq!(json::from_str(&pretty).unwrap(), mesh);
    let squashed: String = text.chars().filter(|&c| c != '\n').collect();
    assert_eq!(json::from_str(&squashed).unwrap(), mesh);
    // Keys in any order, `layout` last.
    let reordered = text.replacen("\"layout\":\"standard\",\n", "", 1).replacen(
        "\"trailing\":\"\"",
        "\"trailing\":\"\",\"layout\":\"standard\"",
        1,
    );
    assert_eq!(json::from_str(&reordered).unwrap(), mesh);
}

#[test]
fn layout_rules_hold_whichever_key_comes_first() {
    let mut mesh = NavMesh {
        layout: Layout::Tiles4NoPlanes,
        ..NavMesh::default()
    };
    let text = dump(&mesh);
    let late = |text: &str, layout: &str| {
        text.replacen(&format!("\"layout\":\"{layout}\",\n"), "", 1)
            .replacen(
                "\"trailing\":\"\"",
                &format!("\"trailing\":\"\",\"layout\":\"{layout}\""),
                1,
            )
    };
    let planes = text.replacen(
        "\"trailing\"",
        &format!("\"plane_types\":{:?},\"trailing\"", [0; 36]),
        1,
    );
    for doc in [planes.clone(), late(&planes, "tiles4-noplanes")] {
        assert_eq!(
            error(&doc),
            "plane_types: not stored in layout tiles4-noplanes; remove this key"
        );
    }
    let flagged = text.replacen("{\"cell\":0}", "{\"cell\":0,\"texture\":0}", 1);
    for doc in [flagged.clone(), late(&flagged, "tiles4-noplanes")] {
        assert_eq!(
            error(&doc),
            "tiles[0].texture: not stored in layout tiles4-noplanes; remove this key"
        );
    }
    let trailing = text.replacen("\"trailing\":\"\"", "\"trailing\":\"00\"", 1);
    assert!(error(&trailing).starts_with("trailing: layout tiles4-noplanes cannot carry"));
    // A standard document needs every tile's flag and texture, and its planes.
    mesh.layout = Layout::Standard;
    let standard = dump(&mesh);
    let last = standard
        .rfind("{\"cell\":0,\"flag\":0,\"texture\":0}")
        .unwrap();
    let missing = format!(
        "{}{{\"cell\":0,\"flag\":0}}{}",
        &standard[..last],
        &standard[last + 31..]
    );
    for doc in [missing.clone(), late(&missing, "standard")] {
        assert_eq!(error(&doc), r#"tiles[9215]: missing key "texture""#);
    }
}

#[test]
fn repeated_and_unknown_keys_are_refused_in_every_object() {
    assert_eq!(
        error("{\"layout\":\"standard\",\n \"layout\":\"standard\"}"),
        "layout: duplicate key (each key may appear once)"
    );
    let e = json::from_str("{\"layout\":\"standard\",\n \"layout\":2}").unwrap_err();
    assert_eq!(e.path(), Some("layout"), "{e}");
    assert_eq!(e.position().map(|(line, _)| line), Some(2));
    for (from, to, message) in [
        (
            "\"min\":[0.0,0.0],",
            "\"min\":[0.0,0.0],\"min\":[0.0,0.0],",
            "cells[0].min: duplicate key",
        ),
        (
            "{\"cell\":0,\"flag\":0,",
            "{\"cell\":0,\"cell\":0,\"flag\":0,",
            "tiles[0].cell: duplicate key",
        ),
        (
            "\"trailing\":\"\"",
            "\"trailing\":\"\",\"trailing\":\"\"",
            "trailing: duplicate key",
        ),
        (
            "\"signature\":\"JMXVNVM 1000\"",
            "\"signature_hex\":\"4a4d58564e564d2031303030\",\"signature\":\"JMXVNVM 1000\"",
            "signature: give either",
        ),
        (
            "\"objects\":[]}",
            "\"objects\":[],\"objectz\":[]}",
            "cells[0].objectz: unknown key (expected one of min, max, objects)",
        ),
        (
            "{\"cell\":0,\"flag\":0,",
            "{\"cell\":0,\"flags\":0,",
            "tiles[0].flags: unknown key (expected one of cell, flag, texture)",
        ),
    ] {
        let text = edited(from, to);
        assert!(
            error(&text).starts_with(message),
            "{} does not start with {message}",
            error(&text)
        );
    }
}

#[test]
fn objects_and_links_read_every_field() {
    let mut mesh = NavMesh::default();
    mesh.objects.push(jmxv::nvm::Object {
        object_id: u32::MAX,
        position: [
            F32::from_bits(0x7fc0_0001),
            F32::from(-0.0),
            F32::from_bits(1),
        ],
        kind: 0xffff,
        yaw: F32::from(f32::NEG_INFINITY),
        uid: 1,
        short0: 2,
        is_big: 3,
        is_struct: 4,
        region_id: 5,
        links: vec![jmxv::nvm::Link {
            link_object: 6,
            link_edge: 7,
            edge: 8,
        }],
    });
    let text = dump(&mesh);
    assert!(text.contains(r#"{"object_id":4294967295,"position":["nan:7fc00001",-0.0,1e-45],"type":65535,"yaw":"-inf","uid":1,"short0":2,"is_big":3,"is_struct":4,"region_id":5,"links":[{"link_object":6,"link_edge":7,"edge":8}]}"#), "{}", &text[..400]);
    assert_eq!(json::from_str(&text).unwrap(), mesh);
    let broken = text.replacen("\"edge\":8}", "\"edge\":8,\"edge\":9}", 1);
    assert_eq!(
        error(&broken),
        "objects[0].links[0].edge: duplicate key (each key may appear once)"
    );
    let broken = text.replacen("\"uid\":1,", "", 1);
    assert_eq!(error(&broken), r#"objects[0]: missing key "uid""#);
}

#[test]
fn text_that_is_not_json_gives_its_line_and_column() {
    assert_eq!(error(""), "line 1 column 1: EOF while parsing a value");
    assert_eq!(error("{"), "line 1 column 2: EOF while parsing an object");
    assert_eq!(error("{\n\"cells\": x"), "line 2 column 10: expected value");
    assert_eq!(
        error("{\n\"layout\": standard"),
        "line 2 column 11: expected value"
    );
    let junk = format!("{} x", dump(&NavMesh::default()));
    assert_eq!(error(&junk), "line 226 column 2: trailing characters");
    assert_eq!(error("[1 2]"), "line 1 column 4: expected `,` or `]`");
    assert_eq!(
        error("{\"layout\":\"standard\" \"cells\"}"),
        "line 1 column 22: expected `,` or `}`"
    );
    assert_eq!(error("{1:2}"), "line 1 column 2: key must be a string");
    assert_eq!(error("{\"layout\" 1}"), "line 1 column 11: expected `:`");
    assert_eq!(
        error_bytes(b"\"\xff\""),
        "line 1 column 2: the text is not UTF-8"
    );
    assert_eq!(
        error_bytes(b"{\n\"\xc3\xa9\xff\""),
        "line 2 column 3: the text is not UTF-8"
    );
    assert!(error("\"a\nb\"").starts_with("line 2 column 0: control character"));
    assert_eq!(
        error("\"abc"),
        "line 1 column 5: EOF while parsing a string"
    );
    assert_eq!(error("\"\\x\""), "line 1 column 3: invalid escape");
    assert_eq!(
        error("\"\\ud800\""),
        "line 1 column 8: unexpected end of hex escape"
    );
    assert_eq!(
        error("\"\\u12\""),
        "line 1 column 7: EOF while parsing a string"
    );
    assert_eq!(error("tru"), "line 1 column 4: EOF while parsing a value");
    for bad in [
        "01",
        "1.",
        ".5",
        "1e",
        "-",
        "+1",
        "1e+",
        "NaN",
        "Infinity",
        "[1,]",
        "{\"layout\":\"standard\",}",
    ] {
        let e = json::from_str(bad).unwrap_err();
        assert_eq!(e.path(), None, "{bad}: {e}");
        assert!(e.position().is_some(), "{bad}");
    }
    // Syntax errors inside values that are read as text are found too.
    let text = edited("\"open_cell_count\":1,", "\"open_cell_count\":[1,,2],");
    assert!(
        error(&text).starts_with("line 5 column "),
        "{}",
        error(&text)
    );
}

#[test]
fn deep_nesting_is_refused_not_a_stack_overflow() {
    let deep = "[".repeat(100_000);
    assert_eq!(
        error(&deep),
        "line 1 column 100001: EOF while parsing a list"
    );
    // The readers nest only as deep as the document does; below that, values are skipped or
    // read as text without recursion, so any depth is refused cleanly.
    let closed = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(
        error(&closed),
        "top level: expected an object, found an array of 1"
    );
    let objects = format!("{}0{}", "{\"a\":".repeat(100_000), "}".repeat(100_000));
    assert!(error(&objects).starts_with("a: unknown key"));
    let text = edited(
        "\"global_edges\":[]",
        &format!("\"global_edges\":[{{\"a\":[{objects}]}}]"),
    );
    assert_eq!(
        error(&text),
        "global_edges[0].a[0]: expected a number, \"inf\", \"-inf\" or \"nan:XXXXXXXX\", found an object"
    );
    // Where a number belongs, the value is read as text without recursion, then refused.
    let text = edited(
        "\"open_cell_count\":1,",
        &format!("\"open_cell_count\":{closed},"),
    );
    assert_eq!(
        error(&text),
        "open_cell_count: expected an integer 0..=4294967295, found an array of 1"
    );
    let text = edited("\"objects\":[]}", &format!("\"objects\":[{closed}]}}"));
    assert_eq!(
        error(&text),
        "cells[0].objects[0]: expected an integer 0..=65535, found an array of 1"
    );
    let text = edited(
        "\"global_edges\":[]",
        &format!("\"global_edges\":[{closed}]"),
    );
    assert_eq!(
        error(&text),
        "global_edges[0]: expected an object, found an array of 1"
    );
}

#[test]
fn dumps_match_their_golden_text() {
    // The text layout is a public interface: a change to it shows here first.
    let mut mesh = NavMesh {
        layout: Layout::Tiles4NoPlanes,
        ..NavMesh::default()
    };
    mesh.heights[0] = F32::from_bits(0x8000_0001);
    mesh.heights[96] = F32::from_bits(0x7f80_0000);
    let text = dump(&mesh);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..9],
        [
            "{",
            "\"signature\":\"JMXVNVM 1000\",",
            "\"layout\":\"tiles4-noplanes\",",
            "\"objects\":[],",
            "\"open_cell_count\":1,",
            "\"cells\":[",
            "{\"min\":[0.0,0.0],\"max\":[1920.0,1920.0],\"objects\":[]}",
            "],",
            "\"global_edges\":[],",
        ]
    );
    assert_eq!(lines[9], "\"internal_edges\":[],");
    assert_eq!(lines[10], "\"tiles\":[");
    assert_eq!(lines[11], vec!["{\"cell\":0}"; 96].join(",") + ",");
    let heights = lines.iter().position(|l| *l == "\"heights\":[").unwrap();
    let row = lines[heights + 1];
    assert!(row.starts_with("-1e-45,0.0,"));
    assert!(row.ends_with(",0.0,\"inf\","));
    assert_eq!(lines[lines.len() - 3], "],");
    assert_eq!(lines[lines.len() - 2], "\"trailing\":\"\"");
    assert_eq!(lines[lines.len() - 1], "}");
}
