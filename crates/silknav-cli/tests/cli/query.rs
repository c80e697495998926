//! `silknav cell`, `height`, `los` and `move`: the library's answers on the same world, one
//! query at a time and in batches, as text and as JSON; exit codes; malformed lines; warnings.

use crate::support::*;
use serde_json::Value;
use silknav::files::WorldSource;
use silknav::world::{
    movement::{MoveError, MoveOptions, MoveStop},
    raycast::RayError,
    EdgeId,
};
use silknav::{Position, Surface, World};
use std::path::{Path, PathBuf};

/// A generated 2×2 world at the default origin, and the library's view of it.
fn world() -> (tempfile::TempDir, PathBuf, World) {
    let dir = temp();
    let w = gen_world(dir.path(), "w", 3, "2x2");
    let world = World::load(&w).unwrap();
    (dir, w, world)
}

/// The world's box, with a margin of 100 units around it (x0, z0, x1, z1).
const BOX: [f64; 4] = [245_660.0, 122_780.0, 249_700.0, 126_820.0];

/// Points spread over the box, off the tile grid, plus some on it.
fn points() -> Vec<[f64; 2]> {
    let mut out = Vec::new();
    let mut z = BOX[1];
    while z < BOX[3] {
        let mut x = BOX[0];
        while x < BOX[2] {
            out.push([x, z]);
            x += 37.3;
        }
        z += 41.9;
    }
    // Tile corners and sides, where half-open rules decide.
    for k in 0..50 {
        out.push([245_760.0 + 20.0 * f64::from(k), 124_800.0]);
        out.push([247_680.0, 122_880.0 + 20.0 * f64::from(k)]);
    }
    out
}

/// Segments with seeded random ends in the box: short ones (often clear) and long ones.
fn segments(count: usize) -> Vec<[f64; 4]> {
    let mut bits = bit_patterns(7).map(|b| f64::from(b) / f64::from(u32::MAX));
    let mut next = move || bits.next().unwrap();
    (0..count)
        .map(|i| {
            let x = BOX[0] + next() * (BOX[2] - BOX[0]);
            let z = BOX[1] + next() * (BOX[3] - BOX[1]);
            let reach = if i % 2 == 0 { 120.0 } else { 1500.0 };
            [x, z, x + (next() - 0.5) * reach, z + (next() - 0.5) * reach]
        })
        .collect()
}

fn at(x: f64, z: f64) -> Option<Position> {
    Position::from_world(x, z)
}

/// The documented text answers, from the library.
fn cell_text(world: &World, [x, z]: [f64; 2]) -> String {
    match at(x, z).and_then(|p| world.cell_at(p, Surface::Highest)) {
        Some(c) => {
            let object = c.object.map_or(String::new(), |o| {
                format!(
                    " object {:04x}:{} {}",
                    o.instance.owner().0,
                    o.instance.uid(),
                    o.cell
                )
            });
            format!("{:04x} {}{object}", c.region.0, c.cell)
        }
        None => "none".to_owned(),
    }
}

fn height_text(world: &World, [x, z]: [f64; 2]) -> String {
    match at(x, z).and_then(|p| world.height_at(p, Surface::Terrain)) {
        Some(h) => format!("{h}"),
        None => "none".to_owned(),
    }
}

fn los_text(world: &World, [x1, z1, x2, z2]: [f64; 4]) -> String {
    los_text_y(world, [x1, z1, x2, z2], None)
}

/// The text `los` should print, starting at reference height `y` when given.
fn los_text_y(world: &World, [x1, z1, x2, z2]: [f64; 4], y: Option<f32>) -> String {
    let answer = match (at(x1, z1), at(x2, z2), y) {
        (None, _, _) => Err(RayError::StartNotWalkable),
        (_, None, _) => Err(RayError::BadEnd),
        (Some(a), Some(b), None) => world.raycast(a, b, Surface::Highest),
        (Some(a), Some(b), Some(y)) => world.raycast(a, b, Surface::Near(y)),
    };
    match answer {
        Ok(None) => "clear".to_owned(),
        Ok(Some(hit)) => {
            let mut text = format!("blocked {} {}", hit.point.world_x(), hit.point.world_z());
            if let Some(e) = hit.object_edge {
                text += &format!(" {}", object_edge_text(&e));
            }
            text
        }
        Err(RayError::StartNotWalkable) => "none start-blocked".to_owned(),
        Err(RayError::BadEnd) => "none bad-end".to_owned(),
        Err(other) => panic!("{other:?} has no expected answer here"),
    }
}

/// The documented text of an object edge in an answer: `object OWNER:UID KIND EDGE`.
fn object_edge_text(e: &silknav::objects::walk::ObjectEdgeRef) -> String {
    let kind = match e.kind {
        silknav::objects::walk::ObjectEdgeKind::Outline => "outline",
        silknav::objects::walk::ObjectEdgeKind::Inline => "inline",
    };
    format!(
        "object {}:{} {kind} {}",
        e.instance.owner(),
        e.instance.uid(),
        e.edge
    )
}

fn move_text(world: &World, [x1, z1, x2, z2]: [f64; 4]) -> String {
    let answer = match (at(x1, z1), at(x2, z2)) {
        (None, _) => Err(MoveError::StartNotWalkable),
        (_, None) => Err(MoveError::OffMesh),
        (Some(a), Some(b)) => world.move_along(a, b, &MoveOptions::default()),
    };
    move_words(answer)
}

/// The documented text of a move's answer.
fn move_words(answer: Result<silknav::world::movement::MoveOutcome, MoveError>) -> String {
    match answer {
        Ok(m) => {
            let mut text = format!(
                "{} {} {} height {} cell {}",
                m.position.world_x(),
                m.position.world_z(),
                m.stop.word(),
                m.height,
                cell_ref_text(Some(m.cell))
            );
            match m.stop {
                MoveStop::Wall { region, edge } => {
                    let (kind, index) = match edge {
                        EdgeId::Internal(i) => ("internal", i),
                        EdgeId::Global(i) => ("global", i),
                    };
                    text += &format!(" edge {region} {kind} {index}");
                }
                MoveStop::ObjectWall { edge } => {
                    text += &format!(" edge {}", object_edge_text(&edge));
                }
                _ => {}
            }
            text
        }
        Err(e) => format!("none {}", e.word()),
    }
}

fn batch_input<const N: usize>(queries: &[[f64; N]]) -> String {
    queries
        .iter()
        .map(|q| {
            let words: Vec<String> = q.iter().map(|v| v.to_string()).collect();
            words.join(" ") + "\n"
        })
        .collect()
}

/// Standard error without the one summary line of object instances not placed (in worlds
/// whose object files are missing).
fn without_object_summary(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|l| !l.contains("object instances not placed"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs a batch and checks every answer line against the library's.
fn check_batch<const N: usize>(
    dir: &Path,
    command: &str,
    queries: &[[f64; N]],
    expected: impl Fn(&[f64; N]) -> String,
) -> Vec<String> {
    let run = silknav_with_stdin(dir, &[command, "w"], batch_input(queries).as_bytes());
    assert_eq!(run.code, 0, "{command}: {}", run.stderr);
    // Standard error may hold a progress line on a slow machine, and the one line saying
    // that the generated world's object files are not on disk, but nothing else.
    let stderr = without_object_summary(&run.stderr);
    assert!(
        !stderr.contains("warning") && !stderr.contains("error"),
        "{command}: {}",
        run.stderr
    );
    let answers: Vec<String> = run.stdout.lines().map(str::to_owned).collect();
    assert_eq!(
        answers.len(),
        queries.len(),
        "{command}: one line per query"
    );
    for (q, answer) in queries.iter().zip(&answers) {
        assert_eq!(*answer, expected(q), "{command} {q:?}");
    }
    answers
}

#[test]
fn batches_answer_as_the_library_does() {
    let (dir, _, world) = world();
    let points = points();
    let cells = check_batch(dir.path(), "cell", &points, |&p| cell_text(&world, p));
    let heights = check_batch(dir.path(), "height", &points, |&p| height_text(&world, p));
    let segments = segments(600);
    let sights = check_batch(dir.path(), "los", &segments, |&s| los_text(&world, s));
    let moves = check_batch(dir.path(), "move", &segments, |&s| move_text(&world, s));

    // The data covers every kind of answer, so the comparison means something.
    let count =
        |answers: &[String], prefix: &str| answers.iter().filter(|a| a.starts_with(prefix)).count();
    assert!(count(&cells, "none") > 0 && count(&cells, "40") > 0);
    assert!(count(&heights, "none") > 0 && heights.iter().any(|h| h.contains('.')));
    assert!(count(&sights, "clear") > 0 && count(&sights, "blocked") > 0);
    assert!(count(&sights, "none start-blocked") > 0);
    for stop in [" arrived", " wall", "none "] {
        assert!(
            moves.iter().any(|m| m.contains(stop)),
            "no move with {stop:?}"
        );
    }
    // Points in answers read back exactly to the library's positions.
    for (s, answer) in segments.iter().zip(&moves) {
        let words: Vec<&str> = answer.split(' ').collect();
        if words[0] != "none" {
            let m = world
                .move_along(
                    at(s[0], s[1]).unwrap(),
                    at(s[2], s[3]).unwrap(),
                    &MoveOptions::default(),
                )
                .unwrap();
            let (x, z): (f64, f64) = (words[0].parse().unwrap(), words[1].parse().unwrap());
            assert_eq!(at(x, z), Some(m.position).and_then(|p| p.normalized()));
        }
    }
}

/// JSON numbers go through serde_json's parser, which may be off by an ulp; coordinates are
/// compared to well within a millionth of a unit.
fn close(json: &Value, expected: f64) -> bool {
    json.as_f64().is_some_and(|v| (v - expected).abs() < 1e-6)
}

fn edge_matches(json: &Value, edge: Option<(jmxv::RegionId, EdgeId)>) -> bool {
    match edge {
        None => json.is_null(),
        Some((region, id)) => {
            let (kind, index) = match id {
                EdgeId::Internal(i) => ("internal", i),
                EdgeId::Global(i) => ("global", i),
            };
            json["region"] == region.to_string() && json["kind"] == kind && json["index"] == index
        }
    }
}

fn json_batch<const N: usize>(dir: &Path, command: &str, queries: &[[f64; N]]) -> Vec<Value> {
    let run = silknav_with_stdin(
        dir,
        &[command, "w", "--json"],
        batch_input(queries).as_bytes(),
    );
    assert_eq!(run.code, 0, "{command}: {}", run.stderr);
    let lines: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(lines.len(), queries.len());
    lines
}

#[test]
fn json_lines_carry_the_librarys_answers() {
    let (dir, _, world) = world();
    let points = points();
    for (p, json) in points.iter().zip(json_batch(dir.path(), "cell", &points)) {
        match at(p[0], p[1]).and_then(|q| world.cell_at(q, Surface::Highest)) {
            Some(c) => {
                assert_eq!(json["region"], c.region.to_string(), "{p:?}");
                assert_eq!(json["cell"], c.cell, "{p:?}");
            }
            None => assert_eq!(
                json,
                serde_json::json!({"region": null, "cell": null, "object": null})
            ),
        }
    }
    for (p, json) in points.iter().zip(json_batch(dir.path(), "height", &points)) {
        match at(p[0], p[1]).and_then(|q| world.height_at(q, Surface::Terrain)) {
            Some(h) => assert_eq!(json["height"].as_f64().map(|v| v as f32), Some(h), "{p:?}"),
            None => assert_eq!(json, serde_json::json!({"height": null})),
        }
    }
    let segments = segments(300);
    for (s, json) in segments
        .iter()
        .zip(json_batch(dir.path(), "los", &segments))
    {
        let (from, to) = (at(s[0], s[1]).unwrap(), at(s[2], s[3]).unwrap());
        match world.raycast(from, to, Surface::Highest) {
            Ok(None) => assert_eq!(json, serde_json::json!({"clear": true})),
            Ok(Some(hit)) => {
                assert_eq!(json["clear"], false);
                assert!(close(&json["x"], hit.point.world_x()), "{json}");
                assert!(close(&json["z"], hit.point.world_z()), "{json}");
                assert!(close(&json["t"], hit.t), "{json}");
                assert!(
                    edge_matches(&json["edge"], hit.edge),
                    "{json} {:?}",
                    hit.edge
                );
                assert!(
                    close(&json["normal"][0], f64::from(hit.normal[0])),
                    "{json}"
                );
            }
            Err(e) => {
                assert_eq!(json["clear"], Value::Null);
                let word = if e == RayError::BadEnd {
                    "bad-end"
                } else {
                    "start-blocked"
                };
                assert_eq!(json["error"], word);
            }
        }
    }
    for (s, json) in segments
        .iter()
        .zip(json_batch(dir.path(), "move", &segments))
    {
        let (from, to) = (at(s[0], s[1]).unwrap(), at(s[2], s[3]).unwrap());
        match world.move_along(from, to, &MoveOptions::default()) {
            Ok(m) => {
                assert!(close(&json["x"], m.position.world_x()), "{json}");
                assert!(close(&json["z"], m.position.world_z()), "{json}");
                assert_eq!(json["height"].as_f64().map(|v| v as f32), Some(m.height));
                assert_eq!(json["stop"], m.stop.word());
                let edge = match m.stop {
                    MoveStop::Wall { region, edge } => Some((region, edge)),
                    _ => None,
                };
                assert!(edge_matches(&json["edge"], edge), "{json}");
                assert_eq!(json["cell"]["region"], m.cell.region.to_string());
                assert_eq!(json["cell"]["cell"], m.cell.cell);
            }
            Err(e) => {
                assert_eq!(json["stop"], Value::Null);
                assert_eq!(json["error"], e.word());
            }
        }
    }
}

/// Queries with each kind of answer, found in the world: (yes, no) per command.
struct Cases {
    open: [f64; 2],
    blocked: [f64; 2],
    clear: [f64; 4],
    wall: [f64; 4],
}

fn cases(world: &World) -> Cases {
    let open =
        |x: f64, z: f64| at(x, z).is_some_and(|p| world.cell_at(p, Surface::Highest).is_some());
    // An open tile with a blocked tile east of it and open ground two tiles further.
    for gz in 0..192 {
        for gx in 0..189 {
            let (x, z) = (
                245_760.0 + f64::from(gx) * 20.0 + 10.0,
                122_880.0 + f64::from(gz) * 20.0 + 10.0,
            );
            if open(x - 20.0, z) && open(x, z) && !open(x + 20.0, z) && open(x + 40.0, z) {
                return Cases {
                    open: [x, z],
                    blocked: [x + 20.0, z],
                    clear: [x - 20.0, z, x, z],
                    wall: [x, z, x + 40.0, z],
                };
            }
        }
    }
    panic!("no wall one tile thick in the world");
}

#[test]
fn single_queries_exit_1_when_the_answer_is_no() {
    let (dir, _, world) = world();
    let c = cases(&world);
    let run = |args: &[String]| {
        let mut all = vec![args[0].as_str(), "w"];
        all.extend(args[1..].iter().map(String::as_str));
        silknav(dir.path(), &all)
    };
    let words = |command: &str, q: &[f64]| -> Vec<String> {
        std::iter::once(command.to_owned())
            .chain(q.iter().map(|v| v.to_string()))
            .collect()
    };
    let check = |command: &str, q: &[f64], expected: String, code: i32| {
        let r = run(&words(command, q));
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (code, format!("{expected}\n").as_str()),
            "{command} {q:?}: {}",
            r.stderr
        );
    };
    check("cell", &c.open, cell_text(&world, c.open), 0);
    check("cell", &c.blocked, "none".into(), 1);
    check("height", &c.blocked, height_text(&world, c.blocked), 0);
    check("height", &[0.0, 0.0], "none".into(), 1);
    check("los", &c.clear, "clear".into(), 0);
    let blocked = los_text(&world, c.wall);
    assert!(blocked.starts_with("blocked "), "{blocked}");
    check("los", &c.wall, blocked, 1);
    check(
        "los",
        &[c.blocked[0], c.blocked[1], c.open[0], c.open[1]],
        "none start-blocked".into(),
        1,
    );
    check("move", &c.clear, move_text(&world, c.clear), 0);
    let walled = move_text(&world, c.wall);
    assert!(walled.contains(" wall height "), "{walled}");
    check("move", &c.wall, walled, 0);
    check(
        "move",
        &[c.blocked[0], c.blocked[1], c.open[0], c.open[1]],
        "none start-blocked".into(),
        1,
    );
    // Negative numbers are coordinates, not options.
    check("cell", &[-5.0, -7.0], "none".into(), 1);

    let json = run(&[
        "move".into(),
        "--json".into(),
        c.wall[0].to_string(),
        c.wall[1].to_string(),
        c.wall[2].to_string(),
        c.wall[3].to_string(),
    ]);
    assert_eq!(json.code, 0);
    let v: Value = serde_json::from_str(json.stdout.trim_end()).unwrap();
    assert_eq!(v["stop"], "wall");
    assert_eq!(v["edge"]["kind"], "internal");
}

#[test]
fn malformed_batch_lines_answer_error_and_exit_2() {
    let (dir, _, world) = world();
    let c = cases(&world);
    let input = format!(
        "{} {}\nfoo 1\n\n   # a comment\n1 2 3 4\n{} {} # a note\r\n{} {}",
        c.open[0], c.open[1], c.blocked[0], c.blocked[1], c.open[0], c.open[1]
    );
    // Terrain only: standard error holds just the error line.
    let run = silknav_with_stdin(
        dir.path(),
        &["cell", "w", "--terrain-only"],
        input.as_bytes(),
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    let open = cell_text(&world, c.open);
    let expected = [
        open.as_str(),
        "error: line 2: expected a finite number, found \"foo\"",
        "error: line 5: expected 2 to 3 numbers, found 4",
        "none",
        open.as_str(),
    ];
    assert_eq!(run.stdout.lines().collect::<Vec<_>>(), expected);
    assert_eq!(
        run.error_line(),
        "standard input: 2 malformed lines (the first is line 2), answered with `error`"
    );

    let json = silknav_with_stdin(dir.path(), &["los", "w", "--json"], b"1 2 3 4\n1 2 3\n");
    assert_eq!(json.code, 2);
    let lines: Vec<&str> = json.stdout.lines().collect();
    assert_eq!(lines[0], r#"{"clear":null,"error":"start-blocked"}"#);
    assert_eq!(
        lines[1],
        r#"{"line":2,"error":"expected 4 to 5 numbers, found 3"}"#
    );

    let empty = silknav_with_stdin(dir.path(), &["height", "w"], b"# nothing\n\n");
    assert_eq!((empty.code, empty.stdout.as_str()), (0, ""));
}

#[test]
fn what_loading_leaves_out_is_a_warning() {
    let (dir, w, world) = world();
    let c = cases(&world);
    let n = w.join("navmesh");
    std::fs::remove_file(n.join("nv_4181.nvm")).unwrap();
    std::fs::copy(n.join("nv_4080.nvm"), n.join("nv_0101.nvm")).unwrap();
    std::fs::copy(n.join("nv_4080.nvm"), n.join("NV_8101.NVM")).unwrap();
    // The object meshes are gone: every instance is one line's count.
    std::fs::remove_dir_all(w.join("res")).unwrap();
    let x = c.open[0].to_string();
    let z = c.open[1].to_string();
    let run = silknav(dir.path(), &["cell", "w", &x, &z]);
    let objects = run
        .stderr
        .lines()
        .filter(|l| l.contains("object instances not placed"))
        .count();
    assert_eq!(objects, 1, "{}", run.stderr);
    let stderr = without_object_summary(&run.stderr);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning: "))
        .collect();
    assert_eq!(
        warnings,
        [
            "warning: w/navmesh/nv_4181.nvm: mapinfo.mfo enables region 4181, which has no file",
            "warning: w/navmesh/nv_0101.nvm: region 0101 is not enabled in mapinfo.mfo; not loaded",
            "warning: w/navmesh/NV_8101.NVM: region 8101 is a dungeon id (bit 15 set); dungeons come from dungeoninfo.txt, not navmesh files; not loaded",
            // The dungeons' blocks are under res/ too.
            "warning: w/dungeon/gen_catacomb/gen_catacomb.dof: dungeon 8001 not loaded: blocks[0]: res\\dungeon\\gen\\dead_end.bsr: no such file",
            "warning: w/dungeon/gen_cave/gen_cave.dof: dungeon 8002 not loaded: blocks[0]: res\\dungeon\\gen\\corner.bsr: no such file",
        ],
        "{}",
        run.stderr
    );
    // The rest of the world still answers.
    let alive = World::load(&w).unwrap();
    assert_eq!(run.stdout, format!("{}\n", cell_text(&alive, c.open)));

    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let empty = silknav(dir.path(), &["cell", "empty", "1", "2"]);
    assert_eq!(empty.code, 2);
    assert_eq!(
        empty.error_line(),
        "empty: no region loaded (no nv_XXXX.nvm file here, or none that mapinfo.mfo enables)"
    );
}

#[test]
fn two_files_for_one_region_stop_every_command_naming_both() {
    let (dir, w, world) = world();
    let c = cases(&world);
    let n = w.join("navmesh");
    let (x, z) = (c.open[0].to_string(), c.open[1].to_string());
    std::fs::copy(n.join("nv_4080.nvm"), n.join("NV_4080.NVM")).unwrap();
    let expected = "w/navmesh/NV_4080.NVM and w/navmesh/nv_4080.nvm: two files for region 4080 (names that differ \
                    only in case); keep one";
    for args in [
        &["cell", "w", &x, &z][..],
        &["lint", "w"],
        &["render", "w", "-o", "w.png"],
    ] {
        let run = silknav(dir.path(), args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.error_line(), expected, "{args:?}");
        if args[0] != "lint" {
            assert_eq!(run.stdout, "", "{args:?}");
        }
    }
    assert!(!dir.path().join("w.png").exists());
}

#[test]
fn a_thread_cap_changes_no_answer() {
    let (dir, _, world) = world();
    let c = cases(&world);
    let (x, z) = (c.open[0].to_string(), c.open[1].to_string());
    let queries: String = (0..4)
        .map(|i| {
            format!(
                "{} {} {} {}\n",
                c.open[0],
                c.open[1],
                c.open[0] + 300.0 * f64::from(i),
                c.open[1] + 200.0
            )
        })
        .collect();
    let all = silknav_with_stdin(dir.path(), &["path", "w"], queries.as_bytes());
    let one = silknav_with_stdin(
        dir.path(),
        &["--threads", "1", "path", "w"],
        queries.as_bytes(),
    );
    let after = silknav_with_stdin(
        dir.path(),
        &["path", "w", "--threads", "2"],
        queries.as_bytes(),
    );
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert_eq!(all.stdout.lines().count(), 4);
    assert_eq!((one.code, &one.stdout), (0, &all.stdout), "{}", one.stderr);
    assert_eq!(
        (after.code, &after.stdout),
        (0, &all.stdout),
        "{}",
        after.stderr
    );
    let cell = silknav(dir.path(), &["--threads", "1", "cell", "w", &x, &z]);
    assert_eq!(cell.stdout, format!("{}\n", cell_text(&world, c.open)));
    let zero = silknav(dir.path(), &["--threads", "0", "cell", "w", &x, &z]);
    assert_eq!(zero.code, 2);
    assert!(zero.stderr.contains("--threads"), "{}", zero.stderr);
}

#[test]
fn coordinates_come_in_complete_sets() {
    let (dir, _, _) = world();
    for args in [
        &["cell", "w", "1"][..],
        &["height", "w", "1", "2", "3"],
        &["los", "w", "1", "2"],
        &["move", "w", "1", "2", "3"],
        &["cell", "w", "nan", "2"],
        &["los", "w", "1", "2", "3", "x"],
    ] {
        let run = silknav(dir.path(), args);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(
            run.stderr.contains("For more information, try '--help'."),
            "{args:?}: {}",
            run.stderr
        );
        if args[0] != "lint" {
            assert_eq!(run.stdout, "", "{args:?}");
        }
    }
}

/// The text `silknav cell` prints for a cell, from the library's answer.
fn cell_ref_text(cell: Option<silknav::CellRef>) -> String {
    match cell {
        Some(c) => match c.object {
            None => format!("{:04x} {}", c.region.0, c.cell),
            Some(o) => format!(
                "{:04x} {} object {:04x}:{} {}",
                c.region.0,
                c.cell,
                o.instance.owner().0,
                o.instance.uid(),
                o.cell
            ),
        },
        None => "none".to_owned(),
    }
}

/// The test kit's object world written as a data root, loaded with its objects and
/// terrain-only.
struct ObjectWorld {
    dir: tempfile::TempDir,
    root: PathBuf,
    world: World,
    terrain: World,
    /// The west corner of the region holding the objects (world units).
    origin: (f64, f64),
}

fn object_world() -> ObjectWorld {
    use silknav_testkit::object_world::{write_object_world, WEST};
    let dir = temp();
    let root = dir.path().join("Data");
    write_object_world(&root);
    let world = World::load(&root).unwrap();
    let terrain = World::load_source(
        &WorldSource::open(&root).unwrap(),
        &silknav::LoadOptions::terrain_only(),
    )
    .unwrap();
    let origin = (f64::from(WEST.x()) * 1920.0, f64::from(WEST.z()) * 1920.0);
    ObjectWorld {
        dir,
        root,
        world,
        terrain,
        origin,
    }
}

/// Runs `COMMAND navmesh` in `root` on `queries` as a batch three ways: with the default
/// `--y` (0), with `--y 8` (1) and with `--terrain-only` (2); asserts that each run exits 0
/// and that each answer line is `expected(way, query)`.
fn check_y_options<const N: usize>(
    root: &Path,
    command: &str,
    queries: &[[f64; N]],
    expected: impl Fn(u8, &[f64; N]) -> String,
) {
    for (args, expect) in [
        (vec![command, "navmesh"], 0),
        (vec![command, "navmesh", "--y", "8"], 1),
        (vec![command, "navmesh", "--terrain-only"], 2),
    ] {
        let run = silknav_with_stdin(root, &args, batch_input(queries).as_bytes());
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        for (q, line) in queries.iter().zip(run.stdout.lines()) {
            assert_eq!(line, expected(expect, q), "{args:?} {q:?}");
        }
    }
}

#[test]
fn objects_answer_as_the_library_does() {
    let ObjectWorld {
        dir: _dir,
        root,
        world,
        terrain,
        origin: (x0, z0),
    } = object_world();
    // A grid over the west region's objects, and reference heights below, on and above them.
    let mut queries = Vec::new();
    for i in 0..40 {
        for j in 0..40 {
            let (x, z) = (
                x0 + 150.0 + 37.7 * f64::from(i),
                z0 + 150.0 + 39.1 * f64::from(j),
            );
            queries.push([x, z, [0.0, 7.5, 44.0, 62.0][(i + j) as usize % 4]]);
        }
    }
    let run = silknav_with_stdin(&root, &["cell", "."], batch_input(&queries).as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Of the four instances not placed (a tree, a missing file, a dungeon, an unlisted id),
    // the tree's mesh has no navigation section: the load report lists it, the command line
    // warns about the three others only.
    let decorations = world
        .load_report()
        .findings_where(|k| {
            matches!(
                k,
                silknav::LoadFindingKind::ObjectNotPlaced {
                    problem: silknav::files::resolve::ObjectProblem::NoNavSection { .. },
                    ..
                }
            )
        })
        .count();
    assert_eq!(decorations, 1);
    assert!(
        run.stderr.contains("3 object instances not placed"),
        "{}",
        run.stderr
    );
    let mut on_objects = 0;
    for (q, line) in queries.iter().zip(run.stdout.lines()) {
        let p = at(q[0], q[1]).unwrap();
        let cell = world.cell_at(p, Surface::Near(q[2] as f32));
        on_objects += usize::from(cell.is_some_and(|c| c.object.is_some()));
        assert_eq!(line, cell_ref_text(cell), "{q:?}");
    }
    assert!(on_objects > 100, "{on_objects}");
    // Two numbers a line: the default --y, or none.
    let xz: Vec<[f64; 2]> = queries.iter().map(|q| [q[0], q[1]]).collect();
    check_y_options(&root, "cell", &xz, |expect, q| {
        let p = at(q[0], q[1]).unwrap();
        let cell = match expect {
            0 => world.cell_at(p, Surface::Highest),
            1 => world.cell_at(p, Surface::Near(8.0)),
            _ => terrain.cell_at(p, Surface::Highest),
        };
        cell_ref_text(cell)
    });
    let run = silknav_with_stdin(
        &root,
        &["height", ".", "--json"],
        batch_input(&queries).as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    for (q, line) in queries.iter().zip(run.stdout.lines()) {
        let h = world
            .height_at(at(q[0], q[1]).unwrap(), Surface::Near(q[2] as f32))
            .unwrap();
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["height"].as_f64().map(|v| v as f32), Some(h), "{q:?}");
    }
    // One query: the object triangle in JSON, and the terrain's height without --y.
    let (x, z) = ((x0 + 300.0).to_string(), (z0 + 300.0).to_string());
    let one = silknav(&root, &["cell", ".", &x, &z, "--json"]);
    let v: Value = serde_json::from_str(one.stdout.trim_end()).unwrap();
    assert_eq!(
        v["object"],
        serde_json::json!({"owner": "694e", "uid": 2, "cell": v["object"]["cell"]})
    );
    let one = silknav(&root, &["height", ".", &x, &z]);
    let p = at(x0 + 300.0, z0 + 300.0).unwrap();
    assert_eq!(
        one.stdout.trim_end(),
        world.height_at(p, Surface::Terrain).unwrap().to_string()
    );
    let one = silknav(&root, &["height", ".", &x, &z, "--y", "60"]);
    assert_eq!(one.stdout.trim_end(), "62");
}

#[test]
fn los_names_object_edges_and_takes_a_reference_height() {
    let ObjectWorld {
        dir: _dir,
        root,
        world,
        terrain,
        origin: (x0, z0),
    } = object_world();
    let queries = fanning_segments((x0, z0), 30);
    let run = silknav_with_stdin(&root, &["los", "."], batch_input(&queries).as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut by_objects = 0;
    for (q, line) in queries.iter().zip(run.stdout.lines()) {
        let expect = los_text_y(&world, [q[0], q[1], q[2], q[3]], Some(q[4] as f32));
        by_objects += usize::from(expect.contains(" object "));
        assert_eq!(line, expect, "{q:?}");
    }
    assert!(by_objects > 30, "{by_objects} blocked by object edges");
    // Four numbers a line: the default --y, or none; --terrain-only is the terrain's answer.
    let four: Vec<[f64; 4]> = queries.iter().map(|q| [q[0], q[1], q[2], q[3]]).collect();
    check_y_options(&root, "los", &four, |expect, q| match expect {
        0 => los_text(&world, *q),
        1 => los_text_y(&world, *q, Some(8.0)),
        _ => los_text(&terrain, *q),
    });
    // One query into the first house's south wall (x 240..400 at z 240), in JSON.
    let (x, z1, z2) = (
        (x0 + 300.0).to_string(),
        (z0 + 200.0).to_string(),
        (z0 + 400.0).to_string(),
    );
    let one = silknav(&root, &["los", ".", &x, &z1, &x, &z2, "--json"]);
    assert_eq!(one.code, 1, "{}", one.stderr);
    let v: Value = serde_json::from_str(one.stdout.trim_end()).unwrap();
    assert_eq!(
        v["object_edge"],
        serde_json::json!({"owner": "694e", "uid": 1, "kind": "outline", "index": 0})
    );
    assert_eq!(v["edge"], Value::Null);
    assert_eq!(v["z"].as_f64(), Some(z0 + 240.0));
    let one = silknav(&root, &["los", ".", &x, &z1, &x, &z2]);
    assert_eq!(
        one.stdout.trim_end(),
        format!(
            "blocked {} {} object 694e:1 outline 0",
            x0 + 300.0,
            z0 + 240.0
        )
    );
}

#[test]
fn move_refuses_goals_a_region_away_as_the_server_does_unless_told_otherwise() {
    let dir = temp();
    let w = gen_world(dir.path(), "w", 5, "3x3");
    let query = [
        "246561.7511796247",
        "125532.50208626682",
        "246700",
        "127700",
    ];
    let run = |extra: &[&str]| {
        let mut args = vec!["move", "w"];
        args.extend(extra);
        args.extend(query);
        silknav(dir.path(), &args)
    };
    let refused = run(&[]);
    assert_eq!(
        (refused.code, refused.stdout.as_str()),
        (1, "none too-far\n")
    );
    assert_eq!(run(&["--guard", "symmetric"]).stdout, "none too-far\n");
    let walked = run(&["--guard", "off"]);
    assert_eq!(walked.code, 0, "{}", walked.stderr);
    let world = World::load(&w).unwrap();
    let off = silknav::world::movement::MoveOptions::new()
        .with_guard(silknav::world::movement::DistanceGuard::Off);
    let m = world
        .move_along(
            at(246561.7511796247, 125532.50208626682).unwrap(),
            at(246700.0, 127700.0).unwrap(),
            &off,
        )
        .unwrap();
    assert_eq!(walked.stdout, format!("{}\n", move_words(Ok(m))));
    let bad = run(&["--guard", "sideways"]);
    assert_eq!(bad.code, 2);
}

#[test]
fn moves_walk_objects_take_a_start_height_and_name_the_edge_that_stops_them() {
    let ObjectWorld {
        dir: _dir,
        root,
        world,
        terrain,
        origin: (x0, z0),
    } = object_world();
    let queries = fanning_segments((x0, z0), 25);
    let library = |q: &[f64; 5], y: Option<f32>, w: &World| {
        let (a, b) = (at(q[0], q[1]).unwrap(), at(q[2], q[3]).unwrap());
        move_words(match y {
            Some(y) => w.move_along(a, b, &MoveOptions::new().with_start(Surface::Near(y))),
            None => w.move_along(a, b, &MoveOptions::default()),
        })
    };
    let run = silknav_with_stdin(&root, &["move", "."], batch_input(&queries).as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut words = std::collections::BTreeMap::new();
    for (q, line) in queries.iter().zip(run.stdout.lines()) {
        assert_eq!(line, library(q, Some(q[4] as f32), &world), "{q:?}");
        let word = line.split(' ').nth(2).unwrap_or("none");
        *words.entry(word.to_owned()).or_insert(0) += 1;
    }
    for word in ["arrived", "object-wall"] {
        assert!(words.get(word).copied().unwrap_or(0) > 10, "{words:?}");
    }
    assert!(
        run.stdout.contains(" edge object 694e:1 outline "),
        "a house wall stops some walk"
    );
    // Four numbers a line: --y, or the surface `cell` answers; --terrain-only: today's walk.
    let four: Vec<[f64; 4]> = queries.iter().map(|q| [q[0], q[1], q[2], q[3]]).collect();
    for (args, y, w) in [
        (vec!["move", "."], None, &world),
        (vec!["move", ".", "--y", "62"], Some(62.0), &world),
        (vec!["move", ".", "--terrain-only"], None, &terrain),
    ] {
        let run = silknav_with_stdin(&root, &args, batch_input(&four).as_bytes());
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        for (q, line) in queries.iter().zip(run.stdout.lines()) {
            assert_eq!(line, library(q, y, w), "{args:?} {q:?}");
        }
    }
    // JSON names an object edge and the object cell.
    let json = silknav_with_stdin(
        &root,
        &["move", ".", "--json"],
        batch_input(&queries).as_bytes(),
    );
    let mut seen = (false, false);
    for (q, line) in queries.iter().zip(json.stdout.lines()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let (a, b) = (at(q[0], q[1]).unwrap(), at(q[2], q[3]).unwrap());
        let Ok(m) = world.move_along(
            a,
            b,
            &MoveOptions::new().with_start(Surface::Near(q[4] as f32)),
        ) else {
            continue;
        };
        if let MoveStop::ObjectWall { edge } = m.stop {
            assert_eq!(v["object_edge"]["uid"], edge.instance.uid());
            assert_eq!(v["object_edge"]["index"], edge.edge);
            assert_eq!(v["edge"], Value::Null);
            seen.0 = true;
        }
        if let Some(o) = m.cell.object {
            assert_eq!(v["cell"]["object"]["uid"], o.instance.uid());
            assert_eq!(v["cell"]["object"]["cell"], o.cell);
            seen.1 = true;
        }
    }
    assert_eq!(seen, (true, true));
}

/// The documented text of a snap answer.
fn snap_text(answer: Option<silknav::world::snap::Snap>) -> String {
    match answer {
        Some(s) => format!(
            "{} {} distance {} cell {}",
            s.position.world_x(),
            s.position.world_z(),
            s.distance,
            cell_ref_text(Some(s.cell))
        ),
        None => "none".to_owned(),
    }
}

#[test]
fn snap_answers_the_nearest_walkable_point_and_a_walk_starts_there() {
    let (dir, _w, world) = world();
    let pts = points();
    let answers = check_batch(dir.path(), "snap", &pts, |&[x, z]| {
        snap_text(silknav::query::snap(
            &world,
            silknav::query::PointQuery::new(x, z),
            100.0,
        ))
    });
    let moved = answers
        .iter()
        .filter(|a| a.contains(" distance ") && !a.contains(" distance 0 "))
        .count();
    assert!(moved > 10, "{moved} points moved");
    // The snapped points are walkable: `cell` answers them and `move` starts from them.
    let snapped: Vec<[f64; 2]> = answers
        .iter()
        .filter(|a| *a != "none")
        .map(|a| {
            let w: Vec<&str> = a.split(' ').collect();
            [w[0].parse().unwrap(), w[1].parse().unwrap()]
        })
        .collect();
    let cells = silknav_with_stdin(dir.path(), &["cell", "w"], batch_input(&snapped).as_bytes());
    assert!(
        !cells.stdout.lines().any(|l| l == "none"),
        "{}",
        cells.stdout
    );
    let walks: Vec<[f64; 4]> = snapped
        .iter()
        .map(|p| [p[0], p[1], p[0] + 7.0, p[1] + 3.0])
        .collect();
    let moves = silknav_with_stdin(dir.path(), &["move", "w"], batch_input(&walks).as_bytes());
    assert!(
        !moves.stdout.contains("none start-blocked"),
        "{}",
        moves.stdout
    );
    // A single query far from the world: `none`, exit 1; a bad distance: usage, exit 2.
    let far = silknav(
        dir.path(),
        &["snap", "w", "1000", "1000", "--max-distance", "50"],
    );
    assert_eq!((far.code, far.stdout.as_str()), (1, "none\n"));
    let bad = silknav(
        dir.path(),
        &["snap", "w", "1000", "1000", "--max-distance", "-1"],
    );
    assert_eq!(bad.code, 2);
    let json = silknav(
        dir.path(),
        &[
            "snap",
            "w",
            "1000",
            "1000",
            "--json",
            "--max-distance",
            "1e9",
        ],
    );
    let v: Value = serde_json::from_str(json.stdout.trim_end()).unwrap();
    assert!(v["distance"].as_f64().unwrap() > 0.0, "{v}");
    assert!(v["cell"]["region"].is_string(), "{v}");
}

/// `silknav path --y` starts the walker on the surface nearest that height, as the library's
/// `PathOptions::with_start`: under the bridge's deck rather than on it, where the exact path
/// with objects differs. A fifth number on a batch line does the same, `--y` is the height of
/// batch lines with four, and the JSON heights start on that surface.
#[test]
fn path_starts_on_the_surface_nearest_y() {
    use silknav::PathOptions;
    let ObjectWorld {
        dir: _dir,
        root,
        world,
        ..
    } = object_world();
    let (q, y) = silknav_testkit::object_world::start_under_a_surface(&world)
        .expect("a start under a deck with a path of its own");
    let (from, to) = (at(q[0], q[1]).unwrap(), at(q[2], q[3]).unwrap());
    let exact = PathOptions::exact_with_objects();
    let mut scratch = silknav::PathScratch::new();
    let paths = silknav::PathIndex::build(&world);
    let below = paths.find_path(
        &world,
        from,
        to,
        &exact.with_start(Surface::Near(y)).unwrap(),
        &mut scratch,
    );
    let above = paths.find_path(&world, from, to, &exact, &mut scratch);
    let n = q.map(|v| v.to_string());
    let y_text = y.to_string();
    let args = [
        "path",
        ".",
        &n[0],
        &n[1],
        &n[2],
        &n[3],
        "--exact",
        "--objects",
        "--json",
    ];
    // Through the text, so that heights read back as the command line prints them (the
    // shortest decimal of the f32).
    let json = |answer: &silknav::json::Path| {
        serde_json::from_str::<Value>(&serde_json::to_string(answer).unwrap()).unwrap()
    };
    let expect_below = json(&silknav::json::path_from(&world, &below, Some(y)));
    let expect_above = json(&silknav::json::path(&world, &above));
    let one = |extra: &[&str]| {
        let run = silknav(&root, &[&args[..], extra].concat());
        assert_eq!(run.code, 0, "{extra:?}: {}", run.stderr);
        serde_json::from_str::<Value>(run.stdout.trim_end()).unwrap()
    };
    assert_eq!(one(&["--y", &y_text]), expect_below);
    assert_eq!(one(&[]), expect_above);
    assert_ne!(expect_below, expect_above);
    let ground = world.surface_at(from, Surface::Near(y)).unwrap().1;
    assert_eq!(
        expect_below["heights"][0].as_f64().map(|h| h as f32),
        Some(ground)
    );
    assert_ne!(expect_above["heights"][0], expect_below["heights"][0]);
    // In a batch: a fifth number, none, and none with --y.
    let lines = format!("{} {y_text}\n{}\n", n.join(" "), n.join(" "));
    let batch_args = ["path", ".", "--exact", "--objects", "--json"];
    for (extra, expected) in [
        (vec![], [&expect_below, &expect_above]),
        (vec!["--y", &y_text], [&expect_below, &expect_below]),
    ] {
        let run = silknav_with_stdin(&root, &[&batch_args[..], &extra].concat(), lines.as_bytes());
        assert_eq!(run.code, 0, "{extra:?}: {}", run.stderr);
        let answers: Vec<Value> = run
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.iter().collect::<Vec<_>>(), expected, "{extra:?}");
    }
}

/// Segments `[x, z, x2, z2, y]` fanning out from an `n`×`n` grid over the west region's
/// objects of the object world whose west region starts at `origin`, each with a start
/// height of the ground, a floor, or between.
fn fanning_segments((x0, z0): (f64, f64), n: u32) -> Vec<[f64; 5]> {
    let mut queries = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let (x, z) = (
                x0 + 150.0 + 49.7 * f64::from(i),
                z0 + 150.0 + 51.1 * f64::from(j),
            );
            let angle = f64::from(i * 7 + j * 13) * 0.37;
            let reach = 80.0 + f64::from((i + j) % 5) * 60.0;
            queries.push([
                x,
                z,
                x + reach * angle.cos(),
                z + reach * angle.sin(),
                [0.0, 7.5, 44.0, 62.0][(i + j) as usize % 4],
            ]);
        }
    }
    queries
}
