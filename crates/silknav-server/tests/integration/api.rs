//! The endpoints: shapes of answers (one or a batch), the library's answers, errors as JSON,
//! tiles.

use crate::support::*;
use silknav::query::{PointQuery, SegmentQuery};
use silknav::{MoveOptions, PathOptions, PathScratch, World};
use silknav_server::Limits;

#[test]
fn health_and_regions_describe_the_world() {
    let server = serve(Limits::default());
    let world = demo_world();
    let health = json(&get(server.addr(), "/api/health"));
    assert_eq!(health["status"], "ok");
    assert_eq!(health["regions"], 9);
    assert_eq!(health["objects"], world.object_instances().len());
    assert_eq!(health["limits"]["max-batch"], 10_000);
    let regions = get(server.addr(), "/api/regions");
    assert_eq!(regions.status, 200);
    assert_eq!(
        regions.body,
        serde_json::to_vec(&silknav::json::regions(&world)).unwrap()
    );
    let regions = json(&regions);
    assert_eq!(regions["count"], 9);
    assert_eq!(regions["bounds"]["x0"], 245_760.0);
    assert_eq!(regions["bounds"]["z1"], 122_880.0 + 3.0 * 1920.0);
    assert_eq!(regions["regions"][0]["region"], "4080");
}

#[test]
fn one_query_one_answer_a_batch_an_array_in_order() {
    let server = serve(Limits::default());
    let world = demo_world();
    let points = open_points(&world, 40);
    let lib = |[x, z]: [f64; 2]| {
        let q = PointQuery::new(x, z);
        (
            serde_json::to_string(&silknav::json::cell(silknav::query::cell(&world, q))).unwrap(),
            serde_json::to_string(&silknav::json::height(silknav::query::height(&world, q)))
                .unwrap(),
        )
    };
    let bodies: Vec<String> = points
        .iter()
        .map(|[x, z]| serde_json::json!({"x": x, "z": z}).to_string())
        .collect();
    for (body, &p) in bodies.iter().zip(&points).take(5) {
        let (cell, height) = lib(p);
        let answer = post(server.addr(), "/api/cell", body);
        assert_eq!(answer.status, 200);
        assert_eq!(answer.header("content-type"), Some("application/json"));
        assert_eq!(answer.text(), cell);
        assert_eq!(post(server.addr(), "/api/height", body).text(), height);
    }
    let batch = format!("[{}]", bodies.join(","));
    let (cells, heights): (Vec<String>, Vec<String>) = points.iter().map(|&p| lib(p)).unzip();
    let answer = post(server.addr(), "/api/cell", &batch);
    assert_eq!(answer.text(), format!("[{}]", cells.join(",")));
    let answer = post(server.addr(), "/api/height", &batch);
    assert_eq!(answer.text(), format!("[{}]", heights.join(",")));
    assert_eq!(post(server.addr(), "/api/move", "[]").text(), "[]");
}

#[test]
fn paths_answer_as_the_library_with_the_budget_asked() {
    // A radius search takes milliseconds in a release build, seconds in a test build on a
    // loaded machine: the timeout is not what this test is about.
    let server = serve(Limits {
        timeout: std::time::Duration::from_secs(300),
        ..Limits::default()
    });
    let world = demo_world();
    let paths = silknav::PathIndex::build(&world);
    let points = open_points(&world, 21);
    let mut found = 0;
    for pair in points.windows(2) {
        let ([x1, z1], [x2, z2]) = (pair[0], pair[1]);
        for budget in [None, Some(3)] {
            let mut scratch = match budget {
                Some(b) => PathScratch::with_budget(b),
                None => PathScratch::new(),
            };
            let q = SegmentQuery::new(x1, z1, x2, z2);
            let path =
                silknav::query::path(&world, &paths, q, &PathOptions::default(), &mut scratch);
            found += usize::from(path.is_ok());
            let expected = serde_json::to_string(&silknav::json::path(&world, &path)).unwrap();
            let mut body = serde_json::json!({"x1": x1, "z1": z1, "x2": x2, "z2": z2});
            if let Some(b) = budget {
                body["budget"] = b.into();
            }
            let answer = post(server.addr(), "/api/path", &body.to_string());
            assert_eq!(answer.status, 200);
            assert_eq!(answer.text(), expected, "{body}");
            // The exact optimum (on the terrain, and through objects), and a walkable path
            // with another clearance.
            for (options, field) in [
                (PathOptions::exact(), serde_json::json!({"exact": true})),
                (
                    PathOptions::exact_with_objects(),
                    serde_json::json!({"exact": true, "objects": true}),
                ),
                (
                    PathOptions::new().with_clearance(0.5).unwrap(),
                    serde_json::json!({"clearance": 0.5}),
                ),
                (
                    PathOptions::new().with_radius(4.0).unwrap(),
                    serde_json::json!({"radius": 4.0}),
                ),
            ]
            .into_iter()
            // The radius search on a few pairs, the search through objects with the budget
            // of 3 only: a test build takes seconds for one.
            .filter(|(o, _)| {
                (o.radius() == 0.0 || found < 4) && (!o.through_objects() || budget.is_some())
            }) {
                let path = silknav::query::path(&world, &paths, q, &options, &mut scratch);
                let expected = serde_json::to_string(&silknav::json::path(&world, &path)).unwrap();
                let mut body = body.clone();
                for (k, v) in field.as_object().unwrap() {
                    body[k] = v.clone();
                }
                let answer = post(server.addr(), "/api/path", &body.to_string());
                assert_eq!(answer.text(), expected, "{body}");
            }
        }
    }
    assert!(
        found > 10,
        "most pairs of open points are connected: {found}"
    );
}

#[test]
fn moves_take_the_command_lines_options_and_snaps_answer_as_the_library() {
    use silknav::world::movement::{DistanceGuard, MoveOptions};
    let server = serve(Limits::default());
    let world = demo_world();
    let points = open_points(&world, 31);
    let mut differ = 0;
    for pair in points.windows(2) {
        let ([x1, z1], [x2, z2]) = (pair[0], pair[1]);
        let y = 20.0f32;
        let q = SegmentQuery {
            y: Some(y),
            ..SegmentQuery::new(x1, z1, x2, z2)
        };
        for (guard, word, checks) in [
            (DistanceGuard::OneSided, "one-sided", true),
            (DistanceGuard::Symmetric, "symmetric", true),
            (DistanceGuard::Off, "off", false),
        ] {
            let options = MoveOptions::new()
                .with_guard(guard)
                .with_object_checks(checks);
            let walk = silknav::query::move_along(&world, q, &options);
            let expected = serde_json::to_string(&silknav::json::move_along(&walk)).unwrap();
            let body = serde_json::json!({"x1": x1, "z1": z1, "x2": x2, "z2": z2, "y": y,
                "guard": word, "object_checks": checks});
            let answer = post(server.addr(), "/api/move", &body.to_string());
            assert_eq!(answer.status, 200);
            assert_eq!(answer.text(), expected, "{body}");
            let plain = silknav::query::move_along(&world, q, &MoveOptions::default());
            differ += usize::from(plain != walk);
        }
    }
    // The guard matters: over 30 pairs of points across three regions, some walks the
    // server's one-sided guard refuses are made with it off.
    assert!(differ > 0, "the options changed no walk");
    let mut snapped = 0;
    for &[x, z] in &points {
        for (dx, max) in [(0.0, 100.0), (0.37, 5.0), (3.0, 0.0)] {
            let q = PointQuery::new(x + dx, z - dx);
            let snap = silknav::query::snap(&world, q, max);
            snapped += usize::from(snap.is_some());
            if let Some(s) = snap {
                // A snapped point has a cell: the answer composes with the cell query.
                let at = PointQuery::new(s.position.world_x(), s.position.world_z());
                assert!(silknav::query::cell(&world, at).is_some(), "{q:?} -> {s:?}");
            }
            let expected = serde_json::to_string(&silknav::json::snap(snap)).unwrap();
            let body = serde_json::json!({"x": x + dx, "z": z - dx, "max_distance": max});
            let answer = post(server.addr(), "/api/snap", &body.to_string());
            assert_eq!(answer.status, 200);
            assert_eq!(answer.text(), expected, "{body}");
        }
    }
    assert!(snapped > 30, "open points snap to themselves: {snapped}");
    let bodies = [
        r#"{"x":246000,"z":123000}"#,
        r#"{"x":1,"z":2,"max_distance":0}"#,
    ];
    let answer = post(
        server.addr(),
        "/api/snap",
        &format!("[{}]", bodies.join(",")),
    );
    let expected: Vec<String> = [(246000.0, 123000.0, 100.0), (1.0, 2.0, 0.0)]
        .iter()
        .map(|&(x, z, max)| {
            let snap = silknav::query::snap(&world, PointQuery::new(x, z), max);
            serde_json::to_string(&silknav::json::snap(snap)).unwrap()
        })
        .collect();
    assert_eq!(answer.text(), format!("[{}]", expected.join(",")));
}

#[test]
fn bad_requests_name_the_field() {
    let server = serve(Limits::default());
    let bad = |path: &str, body: &str| {
        let r = post(server.addr(), path, body);
        assert_eq!(r.status, 400, "{body}: {}", r.text());
        let j = json(&r);
        assert_eq!(j["error"], "bad-request");
        (
            j["field"].as_str().unwrap().to_owned(),
            j["message"].as_str().unwrap().to_owned(),
        )
    };
    let (field, message) = bad("/api/cell", r#"{"x":1,"z":"north"}"#);
    assert_eq!(field, "z");
    assert!(message.contains("expected f64"), "{message}");
    let (field, message) = bad(
        "/api/path",
        r#"{"x1":1,"z1":2,"x2":3,"z2":4,"exact":true,"clearance":0.5}"#,
    );
    assert_eq!(field, "clearance");
    assert!(message.contains("no clearance"), "{message}");
    let (field, _) = bad(
        "/api/los",
        r#"[{"x1":1,"z1":2,"x2":3,"z2":4},{"x1":1,"z1":2,"x2":3,"z2":null}]"#,
    );
    assert_eq!(field, "[1].z2");
    let (field, message) = bad("/api/move", r#"{"x1":1,"z1":2,"x2":3}"#);
    assert_eq!(field, "");
    assert!(message.contains("missing field `z2`"), "{message}");
    let (_, message) = bad("/api/height", r#"{"x":1,"z":2,"height":3}"#);
    assert!(message.contains("unknown field `height`"), "{message}");
    let (_, message) = bad("/api/path", "not json");
    assert!(message.contains("expected"), "{message}");
    let (field, _) = bad("/api/path", r#"{"x1":1,"z1":2,"x2":3,"z2":4,"budget":1.5}"#);
    assert_eq!(field, "budget");
    let (field, message) = bad(
        "/api/move",
        r#"{"x1":1,"z1":2,"x2":3,"z2":4,"guard":"both"}"#,
    );
    assert_eq!(field, "guard");
    assert!(message.contains("one-sided"), "{message}");
    let (field, _) = bad(
        "/api/snap",
        r#"[{"x":1,"z":2},{"x":1,"z":2,"max_distance":-1}]"#,
    );
    assert_eq!(field, "[1].max_distance");
}

#[test]
fn unknown_routes_and_methods_answer_json() {
    let server = serve(Limits::default());
    let r = get(server.addr(), "/api/nothing");
    assert_eq!(r.status, 404);
    assert_eq!(json(&r)["error"], "not-found");
    let r = get(server.addr(), "/api/cell");
    assert_eq!(r.status, 405);
    assert_eq!(json(&r)["error"], "method-not-allowed");
}

#[test]
fn tiles_are_pngs_of_the_blocks_with_regions() {
    let server = serve(Limits::default());
    let png = |r: &Response| {
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(r.header("content-type"), Some("image/png"));
        assert_eq!(&r.body[..8], b"\x89PNG\r\n\x1a\n");
        let size = |at: usize| u32::from_be_bytes(r.body[at..at + 4].try_into().unwrap());
        (size(16), size(20))
    };
    // Region 4080 is (128, 64): block (128, 64) at level 0, (64, 32) at level 1.
    assert_eq!(png(&get(server.addr(), "/api/tile/0/128/64")), (384, 384));
    assert_eq!(png(&get(server.addr(), "/api/tile/-1/130/66")), (768, 768));
    assert_eq!(png(&get(server.addr(), "/api/tile/5/4/2")), (384, 384));
    let walls = get(server.addr(), "/api/tile/1/64/32?layers=walls");
    let all = get(server.addr(), "/api/tile/1/64/32");
    assert_eq!(png(&walls), (384, 384));
    assert_ne!(walls.body, all.body, "the layers change the picture");
    assert_eq!(
        get(server.addr(), "/api/tile/1/64/32").body,
        all.body,
        "cached or not, the same"
    );
    let empty = get(server.addr(), "/api/tile/0/10/10");
    assert_eq!(empty.status, 404);
    assert_eq!(json(&empty)["error"], "not-found");
    let bad = get(server.addr(), "/api/tile/0/128/64?layers=roads");
    assert_eq!(bad.status, 400);
    assert_eq!(json(&bad)["field"], "layers");
}

#[test]
fn the_viewer_is_served_from_the_binary() {
    let server = serve(Limits::default());
    let page = get(server.addr(), "/");
    assert_eq!(page.status, 200);
    assert!(page.text().contains("<script src=\"/viewer.js\">"));
    let script = get(server.addr(), "/viewer.js");
    assert_eq!(
        script.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert!(
        !script.text().contains("http://") && !script.text().contains("https://"),
        "offline"
    );
    assert_eq!(get(server.addr(), "/viewer.css").status, 200);
}

/// A path request's `y` is the walker's height at the start, as `silknav path --y`: under a
/// bridge's deck, the path with objects (exact, and walkable) starts on the ground, and its
/// heights start there.
#[test]
fn path_requests_start_on_the_surface_nearest_y() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("Data");
    silknav_testkit::object_world::write_object_world(&root);
    let server = serve_root(&root, Limits::default());
    let world = World::load(&root).unwrap();
    let paths = silknav::PathIndex::build(&world);
    let ([x1, z1, x2, z2], y) = silknav_testkit::object_world::start_under_a_surface(&world)
        .expect("a start under a deck with a path of its own");
    // The exact path through objects, and that path made walkable.
    let modes = [
        (
            PathOptions::exact_with_objects(),
            serde_json::json!({"exact": true, "objects": true}),
        ),
        (
            PathOptions::new().with_objects(true).unwrap(),
            serde_json::json!({"objects": true}),
        ),
    ];
    for (options, fields) in modes {
        let mut answers = Vec::new();
        for y in [Some(y), None] {
            let q = SegmentQuery {
                y,
                ..SegmentQuery::new(x1, z1, x2, z2)
            };
            let path = silknav::query::path(&world, &paths, q, &options, &mut PathScratch::new());
            assert!(path.is_ok(), "{fields}: {path:?}");
            let expected =
                serde_json::to_string(&silknav::json::path_from(&world, &path, y)).unwrap();
            let mut body = serde_json::json!({"x1": x1, "z1": z1, "x2": x2, "z2": z2});
            for (k, v) in fields.as_object().unwrap() {
                body[k] = v.clone();
            }
            if let Some(y) = y {
                body["y"] = y.into();
            }
            let answer = post(server.addr(), "/api/path", &body.to_string());
            assert_eq!(answer.status, 200);
            assert_eq!(answer.text(), expected, "{body}");
            answers.push(expected);
        }
        assert_ne!(answers[0], answers[1], "{fields}");
    }
}

/// Every query endpoint takes `dungeon`: the answers are the library's at the dungeon's
/// positions, and an unknown field next to it is still refused.
#[test]
fn dungeon_queries_answer_in_the_dungeons_coordinates() {
    let server = serve(Limits::default());
    let world = demo_world();
    let (mut on_cells, mut paths) = (0, 0);
    for i in 0..30 {
        let (x, z) = (-150.0 + 10.3 * f64::from(i), -100.0 + 6.1 * f64::from(i));
        let (x2, z2) = (x + 47.0, z - 23.0);
        let q = PointQuery {
            y: Some(1.0),
            dungeon: Some(2),
            ..PointQuery::new(x, z)
        };
        let cell = silknav::query::cell(&world, q);
        on_cells += usize::from(cell.is_some());
        let body = serde_json::json!({"x": x, "z": z, "y": 1.0, "dungeon": 2}).to_string();
        assert_eq!(
            post(server.addr(), "/api/cell", &body).text(),
            serde_json::to_string(&silknav::json::cell(cell)).unwrap()
        );
        let s = SegmentQuery {
            y: Some(1.0),
            dungeon: Some(2),
            ..SegmentQuery::new(x, z, x2, z2)
        };
        let segment = serde_json::json!(
            {"x1": x, "z1": z, "x2": x2, "z2": z2, "y": 1.0, "dungeon": 2}
        )
        .to_string();
        let los = silknav::json::los(&silknav::query::los(&world, s));
        assert_eq!(
            post(server.addr(), "/api/los", &segment).text(),
            serde_json::to_string(&los).unwrap()
        );
        let walk = silknav::json::move_along(&silknav::query::move_along(
            &world,
            s,
            &MoveOptions::default(),
        ));
        assert_eq!(
            post(server.addr(), "/api/move", &segment).text(),
            serde_json::to_string(&walk).unwrap()
        );
        if cell.is_some() && i % 5 == 0 {
            let answer = json(&post(server.addr(), "/api/path", &segment));
            paths += usize::from(answer["length"].is_number());
            if let Some(first) = answer["waypoints"].get(0) {
                assert_eq!(first[0].as_f64(), Some(f64::from(x as f32)));
            }
        }
    }
    assert!(
        on_cells > 5 && paths > 0,
        "{on_cells} on cells, {paths} paths"
    );
    let refused = post(
        server.addr(),
        "/api/cell",
        r#"{"x":1,"z":2,"dungeon":2,"floor":3}"#,
    );
    assert_eq!(refused.status, 400);
}

/// `GET /api/dungeons` lists the loaded dungeons with their floors, and
/// `GET /api/dungeon/ID/FLOOR` is the floor's map with the box it covers.
#[test]
fn dungeon_floors_are_listed_and_drawn() {
    let server = serve(Limits::default());
    let world = demo_world();
    let list = json(&get(server.addr(), "/api/dungeons"));
    let list = list.as_array().expect("an array");
    assert_eq!(list.len(), world.dungeons().len());
    for (entry, dungeon) in list.iter().zip(world.dungeons()) {
        let id = dungeon.region().0 & 0x7FFF;
        assert_eq!(entry["id"], id);
        assert_eq!(entry["region"], format!("{}", dungeon.region()));
        assert_eq!(entry["blocks"], dungeon.block_count());
        let floors = entry["floors"].as_array().unwrap();
        assert!(floors.len() >= 2, "{entry}");
        let mut boxes = Vec::new();
        for f in floors {
            let (lo, hi) = (
                f["heights"][0].as_f64().unwrap(),
                f["heights"][1].as_f64().unwrap(),
            );
            assert!(lo <= hi, "{f}");
            let r = get(server.addr(), &format!("/api/dungeon/{id}/{}", f["floor"]));
            assert_eq!(r.status, 200, "{}", r.text());
            assert_eq!(r.header("content-type"), Some("image/png"));
            let bounds: Vec<f64> = r
                .header("x-map-bounds")
                .expect("the box")
                .split(' ')
                .map(|v| v.parse().unwrap())
                .collect();
            let size = |at: usize| u32::from_be_bytes(r.body[at..at + 4].try_into().unwrap());
            // 8 pixels per 20-unit tile.
            assert_eq!(f64::from(size(16)), (bounds[2] - bounds[0]) / 20.0 * 8.0);
            assert_eq!(f64::from(size(20)), (bounds[3] - bounds[1]) / 20.0 * 8.0);
            boxes.push(bounds);
        }
        // Every block lies on some floor's map.
        for (block, _, triangle) in dungeon.block_triangles() {
            for v in triangle {
                assert!(
                    boxes
                        .iter()
                        .any(|b| b[0] <= v[0] && v[0] <= b[2] && b[1] <= v[2] && v[2] <= b[3]),
                    "block {block} at {v:?} is on no floor's map"
                );
            }
        }
    }
    let unknown = get(server.addr(), "/api/dungeon/9/0");
    assert_eq!(unknown.status, 404);
    assert!(
        unknown.text().contains("loaded dungeons: 1, 2"),
        "{}",
        unknown.text()
    );
    let no_floor = get(server.addr(), "/api/dungeon/1/9");
    assert_eq!(no_floor.status, 404);
    assert!(no_floor.text().contains("floor 9"), "{}", no_floor.text());
    let bad = get(server.addr(), "/api/dungeon/x/0");
    assert_eq!(bad.status, 400);
    assert_eq!(json(&bad)["field"], "id");
}
