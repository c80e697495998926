//! The query commands inside dungeons (`--dungeon ID`): answers in the dungeon's own
//! coordinates, equal to the library's, in single queries and batches; the chains users make
//! (a path's legs walked by `move`, a snapped point's cell); and the refusals.

use crate::support::*;
use serde_json::Value;
use silknav::query::{self, PointQuery, SegmentQuery};
use silknav::{Position, Surface, World};
use std::path::Path;

/// The generated cave: two floors of 3 × 3 blocks.
const CAVE: u16 = 2;

/// Points on the cave's floors (x, z, a height a little over the floor), from a grid over
/// its blocks.
fn cave_points(world: &World) -> Vec<[f64; 3]> {
    let mut out = Vec::new();
    for i in 0..40 {
        for j in 0..40 {
            let (x, z) = (-200.0 + 10.3 * f64::from(i), -200.0 + 10.7 * f64::from(j));
            for y in [1.0, 61.0] {
                let q = PointQuery {
                    y: Some(y),
                    dungeon: Some(CAVE),
                    ..PointQuery::new(x, z)
                };
                if let Some(h) = query::height(world, q) {
                    if (h - y).abs() < 30.0 {
                        out.push([x, z, f64::from(h) + 1.0]);
                    }
                }
            }
        }
    }
    out
}

fn json(run: &Run) -> Value {
    serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

#[test]
fn dungeon_queries_answer_what_the_library_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gen_world(tmp.path(), "w", 5, "1x1");
    let world = World::load(&dir).unwrap();
    assert_eq!(world.dungeons().len(), 2);
    let points = cave_points(&world);
    assert!(points.len() > 100, "{} points", points.len());
    let id = CAVE.to_string();

    // cell and height, one query each, in text and JSON.
    for p in points.iter().step_by(37) {
        let (x, z, y) = (p[0].to_string(), p[1].to_string(), p[2].to_string());
        let args = ["cell", "w", "--dungeon", &id, &x, &z, "--y", &y];
        let run = silknav(tmp.path(), &args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        let q = PointQuery {
            y: Some(p[2] as f32),
            dungeon: Some(CAVE),
            ..PointQuery::new(p[0], p[1])
        };
        let c = query::cell(&world, q).unwrap();
        let o = c.object.unwrap();
        assert_eq!(
            run.stdout.trim(),
            format!(
                "8002 {} object 8002:{} {}",
                c.cell,
                o.instance.uid(),
                o.cell
            )
        );
        let height = silknav(
            tmp.path(),
            &["height", "w", "--json", "--dungeon", &id, &x, &z, "--y", &y],
        );
        let expected = silknav::json::height(query::height(&world, q));
        assert_eq!(
            height.stdout.trim(),
            serde_json::to_string(&expected).unwrap()
        );
    }

    // A batch of segments: each `los` answer is the library's, and a clear one is walked to
    // its end by `move`.
    let segments: Vec<[f64; 5]> = points
        .iter()
        .zip(points.iter().skip(3))
        .step_by(7)
        .take(60)
        .map(|(a, b)| [a[0], a[1], b[0], b[1], a[2]])
        .collect();
    let stdin: String = segments
        .iter()
        .map(|s| format!("{} {} {} {} {}\n", s[0], s[1], s[2], s[3], s[4]))
        .collect();
    let los = silknav_with_stdin(
        tmp.path(),
        &["los", "w", "--json", "--dungeon", &id],
        stdin.as_bytes(),
    );
    let walks = silknav_with_stdin(
        tmp.path(),
        &["move", "w", "--json", "--dungeon", &id],
        stdin.as_bytes(),
    );
    assert_eq!(
        (los.code, walks.code),
        (0, 0),
        "{}{}",
        los.stderr,
        walks.stderr
    );
    let (mut clear, mut blocked) = (0, 0);
    for ((s, line), walk) in segments
        .iter()
        .zip(los.stdout.lines())
        .zip(walks.stdout.lines())
    {
        let q = SegmentQuery {
            y: Some(s[4] as f32),
            dungeon: Some(CAVE),
            ..SegmentQuery::new(s[0], s[1], s[2], s[3])
        };
        let expected = serde_json::to_string(&silknav::json::los(&query::los(&world, q))).unwrap();
        assert_eq!(line, expected);
        let walk: Value = serde_json::from_str(walk).unwrap();
        if line == r#"{"clear":true}"# {
            clear += 1;
            assert_eq!(walk["stop"], "arrived", "{s:?}: {walk}");
            assert!((walk["x"].as_f64().unwrap() - s[2]).abs() < 1e-3, "{walk}");
            assert!((walk["z"].as_f64().unwrap() - s[3]).abs() < 1e-3, "{walk}");
        } else {
            blocked += 1;
            assert_ne!(walk["stop"], "arrived", "{s:?}: {walk}");
        }
        assert_eq!(walk["cell"]["region"], "8002");
    }
    assert!(
        clear >= 5 && blocked >= 5,
        "{clear} clear, {blocked} blocked"
    );
}

/// A path's legs are walked by `move` from the height the leg before arrived at, and a
/// snapped point has a cell: the chains a bot makes, through the command line.
#[test]
fn dungeon_paths_and_snaps_compose_with_move_and_cell() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gen_world(tmp.path(), "w", 5, "1x1");
    let world = World::load(&dir).unwrap();
    let points = cave_points(&world);
    let id = CAVE.to_string();
    let mut across_floors = 0;
    for (a, b) in points
        .iter()
        .step_by(41)
        .zip(points.iter().rev().step_by(43))
        .take(6)
    {
        let args: Vec<String> = vec![
            "path".into(),
            "w".into(),
            "--json".into(),
            "--dungeon".into(),
            id.clone(),
            a[0].to_string(),
            a[1].to_string(),
            b[0].to_string(),
            b[1].to_string(),
            "--y".into(),
            a[2].to_string(),
        ];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = silknav(tmp.path(), &args);
        let path = json(&run);
        if run.code == 1 {
            assert_eq!(path["error"], "unreachable", "{path}");
            continue;
        }
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        let waypoints = path["waypoints"].as_array().unwrap();
        let heights = path["heights"].as_array().unwrap();
        assert_eq!(waypoints.len(), heights.len());
        // The blocks it crosses start with the start's and end with the goal's, as `cell`
        // names them at the heights the path gives.
        let cells = path["cells"].as_array().unwrap();
        let block_at = |w: &Value, h: &Value| {
            let (x, z, y) = (w[0].to_string(), w[1].to_string(), h.to_string());
            let run = silknav(
                tmp.path(),
                &["cell", "w", "--json", "--dungeon", &id, &x, &z, "--y", &y],
            );
            json(&run)["cell"].clone()
        };
        assert_eq!(
            cells[0]["cell"],
            block_at(&waypoints[0], &heights[0]),
            "{path}"
        );
        let last = waypoints.len() - 1;
        assert_eq!(
            cells[cells.len() - 1]["cell"],
            block_at(&waypoints[last], &heights[last]),
            "{path}"
        );
        assert!(cells.windows(2).all(|w| w[0] != w[1]), "{path}");
        // The start as given, in its f32 position.
        for k in 0..2 {
            let given = f64::from(a[k] as f32);
            assert!(
                (waypoints[0][k].as_f64().unwrap() - given).abs() < 1e-9,
                "{path}"
            );
        }
        for (i, leg) in waypoints.windows(2).enumerate() {
            let n = |v: &Value, k: usize| v[k].as_f64().unwrap().to_string();
            let y = heights[i].as_f64().unwrap().to_string();
            let walk = silknav(
                tmp.path(),
                &[
                    "move",
                    "w",
                    "--json",
                    "--dungeon",
                    &id,
                    &n(&leg[0], 0),
                    &n(&leg[0], 1),
                    &n(&leg[1], 0),
                    &n(&leg[1], 1),
                    "--y",
                    &y,
                ],
            );
            let walk = json(&walk);
            assert!(
                walk["stop"] == "arrived" || walk["stop"] == "looped",
                "leg {i} of {path}: {walk}"
            );
            assert_eq!(walk["height"], heights[i + 1], "leg {i} of {path}: {walk}");
        }
        let (first, last) = (
            heights[0].as_f64().unwrap(),
            heights[heights.len() - 1].as_f64().unwrap(),
        );
        across_floors += usize::from((first - last).abs() > 30.0);
    }
    assert!(across_floors > 0, "no path changed floors");

    // Snapped points have cells.
    for p in points.iter().step_by(53) {
        let (x, z) = ((p[0] + 33.0).to_string(), (p[1] - 71.0).to_string());
        let y = p[2].to_string();
        let snap = silknav(
            tmp.path(),
            &[
                "snap",
                "w",
                "--json",
                "--dungeon",
                &id,
                &x,
                &z,
                "--y",
                &y,
                "--max-distance",
                "500",
            ],
        );
        assert_eq!(snap.code, 0, "{}", snap.stderr);
        let snap = json(&snap);
        let (sx, sz) = (
            snap["x"].as_f64().unwrap().to_string(),
            snap["z"].as_f64().unwrap().to_string(),
        );
        let cell = silknav(
            tmp.path(),
            &["cell", "w", "--json", "--dungeon", &id, &sx, &sz, "--y", &y],
        );
        assert_eq!(cell.code, 0, "{snap}: {}", cell.stdout);
        assert_eq!(json(&cell), snap["cell"], "{snap}");
    }
}

#[test]
fn dungeons_that_are_not_loaded_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    gen_world(tmp.path(), "w", 5, "1x1");
    let run = silknav(tmp.path(), &["cell", "w", "--dungeon", "9", "0", "0"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--dungeon 9: not loaded")
            && run.stderr.contains("loaded dungeons: 1, 2"),
        "{}",
        run.stderr
    );
    let run = silknav(
        tmp.path(),
        &["cell", "w", "--dungeon", "1", "--terrain-only", "0", "0"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = silknav(tmp.path(), &["cell", "w", "--dungeon", "40000", "0", "0"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    // A goal in the other dungeon is no path, and the start's dungeon must hold the start.
    let world = World::load(tmp.path().join("w")).unwrap();
    assert!(world.contains(Position::in_dungeon(1, 0.0, 0.0).region));
    let blocked = silknav(
        tmp.path(),
        &["path", "w", "--dungeon", "1", "100000", "0", "0", "0"],
    );
    assert_eq!(
        (blocked.code, blocked.stdout.trim()),
        (1, "none start-blocked")
    );
}

/// Loading warns about a dungeon `dungeoninfo.txt` names whose file is missing, and loads the
/// others.
#[test]
fn a_dungeon_with_a_missing_file_is_left_out_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gen_world(tmp.path(), "w", 5, "1x1");
    let dof = find_dof(&dir.join("dungeon"), "gen_cave");
    std::fs::remove_file(&dof).unwrap();
    let run = silknav(
        tmp.path(),
        &["cell", "w", "--dungeon", "1", "0", "0", "--y", "1"],
    );
    assert!(
        run.stderr.contains("dungeon 8002 not loaded")
            && run.stderr.contains("no such dungeon layout"),
        "{}",
        run.stderr
    );
    assert_ne!(run.code, 2, "{}", run.stderr);
}

fn find_dof(dir: &Path, name: &str) -> std::path::PathBuf {
    for entry in walk(dir) {
        if entry
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.eq_ignore_ascii_case(&format!("{name}.dof")))
        {
            return entry;
        }
    }
    panic!("no {name}.dof under {}", dir.display());
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// `export --dungeon ID` writes the dungeon's blocks, one group each, in its own coordinates:
/// every vertex lies over a cell of the dungeon at its height.
#[test]
fn a_dungeon_exports_as_its_blocks() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gen_world(tmp.path(), "w", 5, "1x1");
    let world = World::load(&dir).unwrap();
    let cave = world
        .dungeon(silknav::jmxv::RegionId(0x8002))
        .expect("the cave");
    let triangles: Vec<_> = cave.block_triangles().collect();
    let run = silknav(
        tmp.path(),
        &["export", "w", "--dungeon", "2", "-o", "cave.obj"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let obj = std::fs::read_to_string(tmp.path().join("cave.obj")).unwrap();
    let groups = obj.lines().filter(|l| l.starts_with("o block_")).count();
    assert_eq!(groups, cave.block_count());
    let vertices: Vec<[f64; 3]> = obj
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let n: Vec<f64> = l.split(' ').map(|w| w.parse().unwrap()).collect();
            [n[0], n[1], -n[2]]
        })
        .collect();
    assert_eq!(vertices.len(), 3 * triangles.len());
    // Each triangle's centre is over a cell of the dungeon, at the triangle's height.
    for t in vertices.chunks(3) {
        let c = [0, 1, 2].map(|k| (t[0][k] + t[1][k] + t[2][k]) / 3.0);
        let at = Position::in_dungeon(CAVE, c[0] as f32, c[2] as f32);
        let h = world
            .height_at(at, Surface::Near(c[1] as f32 + 0.5))
            .expect("a cell there");
        assert!((f64::from(h) - c[1]).abs() < 0.01, "{t:?}: {h}");
    }
    let glb = silknav(
        tmp.path(),
        &["export", "w", "--dungeon", "2", "-o", "cave.glb"],
    );
    assert_eq!(glb.code, 0, "{}", glb.stderr);
    let refused = silknav(
        tmp.path(),
        &["export", "w", "--dungeon", "9", "-o", "x.obj"],
    );
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.contains("dungeon 8009 is not loaded"),
        "{}",
        refused.stderr
    );
}

/// `render --dungeon ID [--floor N]` draws one floor, and its `--path` lines are the answers
/// of `silknav path --dungeon` for the same points.
#[test]
fn a_dungeon_floor_renders_with_the_paths_path_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = gen_world(tmp.path(), "w", 5, "1x1");
    let world = World::load(&dir).unwrap();
    let low: Vec<[f64; 3]> = cave_points(&world)
        .into_iter()
        .filter(|p| p[2] < 30.0)
        .collect();
    let (a, b) = (low[0], low[low.len() - 1]);
    let coords: Vec<String> = [a[0], a[1], b[0], b[1]]
        .iter()
        .map(ToString::to_string)
        .collect();
    let path = silknav(
        tmp.path(),
        &[
            "path",
            "w",
            "--dungeon",
            "2",
            &coords[0],
            &coords[1],
            &coords[2],
            &coords[3],
        ],
    );
    assert_eq!(path.code, 0, "{}", path.stderr);
    let run = silknav(
        tmp.path(),
        &[
            "render",
            "w",
            "--dungeon",
            "2",
            "-o",
            "cave.png",
            "--path",
            &coords[0],
            &coords[1],
            &coords[2],
            &coords[3],
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with("cave.png: ") && lines[0].ends_with("dungeon 2 floor 0 (floors 0, 1)"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], format!("path 1 (cyan): {}", path.stdout.trim()));
    let png = std::fs::read(tmp.path().join("cave.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");

    let upper = silknav(
        tmp.path(),
        &[
            "render",
            "w",
            "--dungeon",
            "2",
            "--floor",
            "1",
            "-o",
            "upper.png",
        ],
    );
    assert_eq!(upper.code, 0, "{}", upper.stderr);
    assert!(upper.stdout.contains("dungeon 2 floor 1 (floors 0, 1)"));
    let upper_png = std::fs::read(tmp.path().join("upper.png")).unwrap();
    assert_ne!(png, upper_png);

    for (args, says) in [
        (
            &[
                "render",
                "w",
                "--dungeon",
                "2",
                "--floor",
                "7",
                "-o",
                "x.png",
            ][..],
            "floor 7: no block on it; the floors: 0, 1",
        ),
        (
            &["render", "w", "--dungeon", "9", "-o", "x.png"][..],
            "names no dungeon 9",
        ),
        (
            &["render", "w", "--floor", "1", "-o", "x.png"][..],
            "--dungeon",
        ),
        (
            &[
                "render",
                "w",
                "--dungeon",
                "2",
                "--region",
                "4080",
                "-o",
                "x.png",
            ][..],
            "cannot be used with",
        ),
    ] {
        let refused = silknav(tmp.path(), args);
        assert_eq!(refused.code, 2, "{args:?}");
        assert!(
            refused.stderr.contains(says),
            "{args:?}: {}",
            refused.stderr
        );
        assert!(!tmp.path().join("x.png").exists());
    }
}
