//! `silknav path`, and paths in `render` and `demo`: the library's paths, one query at a time
//! and in batches, as text and as JSON; `none` and its exit code; malformed lines.

use crate::support::*;
use jmxv::RegionId;
use serde_json::Value;
use silknav::files::WorldFiles;
use silknav::{
    MoveOptions, Navigator, PathError, PathOptions, PathScratch, Position, Surface, WorldPath,
};
use silknav_render::{render_with_overlay, Overlay, RenderOptions};
use std::path::PathBuf;

/// The region of the test world: the default origin, world x 245760.., z 122880...
const REGION: RegionId = RegionId::new(128, 64);

/// A wall across the region, tiles x = 48 for z in 10..86: the straight line between its sides
/// is blocked, and a path must go around one of its ends.
fn in_wall(tx: usize, tz: usize) -> bool {
    tx == 48 && (10..86).contains(&tz)
}

/// A closed ring of blocked tiles around tile (80, 80): the ground inside is cut off.
fn in_ring(tx: usize, tz: usize) -> bool {
    tx.abs_diff(80).max(tz.abs_diff(80)) == 6
}

/// The world coordinates of the centre of tile (tx, tz) of [`REGION`].
fn tile(tx: u32, tz: u32) -> [f64; 2] {
    [
        f64::from(REGION.x()) * 1920.0 + f64::from(tx) * 20.0 + 10.0,
        f64::from(REGION.z()) * 1920.0 + f64::from(tz) * 20.0 + 10.0,
    ]
}

/// West of the wall.
const START: (u32, u32) = (30, 48);
/// East of the wall, level with [`START`].
const GOAL: (u32, u32) = (66, 48);
/// On the wall.
const BLOCKED: (u32, u32) = (48, 48);
/// Inside the ring.
const ENCLOSED: (u32, u32) = (80, 80);

fn at(p: (u32, u32)) -> [f64; 2] {
    tile(p.0, p.1)
}

/// A one-region world with the wall and the ring, written as `DIR/w/nv_4080.nvm`, and the
/// library's view of it.
fn world() -> (tempfile::TempDir, PathBuf, Navigator) {
    let dir = temp();
    let w = dir.path().join("w");
    std::fs::create_dir(&w).unwrap();
    let mesh =
        silknav_testkit::region_from_mask(REGION, |tx, tz| in_wall(tx, tz) || in_ring(tx, tz));
    write_nvm(&w, &REGION.file_name(), &mesh);
    let world = Navigator::load(&w).unwrap();
    (dir, w, world)
}

fn position(p: [f64; 2]) -> Position {
    Position::from_world(p[0], p[1]).unwrap()
}

/// The library's path.
fn library_path(world: &Navigator, from: [f64; 2], to: [f64; 2]) -> Result<WorldPath, PathError> {
    world.find_path(
        position(from),
        position(to),
        &PathOptions::default(),
        &mut PathScratch::new(),
    )
}

/// The documented text answer, from the library's path.
fn text(answer: &Result<WorldPath, PathError>) -> String {
    match answer {
        Ok(p) => {
            let mut line = format!("{:.3}", p.length);
            for w in &p.waypoints {
                line += &format!(" {} {}", w.world_x(), w.world_z());
            }
            line
        }
        Err(PathError::StartBlocked) => "none start-blocked".to_owned(),
        Err(PathError::GoalBlocked) => "none goal-blocked".to_owned(),
        Err(PathError::Unreachable) => "none unreachable".to_owned(),
        Err(PathError::BudgetExceeded) => "none budget-exceeded".to_owned(),
        Err(other) => panic!("{other:?} has no expected answer here"),
    }
}

/// The words of a query: `x1 z1 x2 z2`.
fn words(from: [f64; 2], to: [f64; 2]) -> Vec<String> {
    [from[0], from[1], to[0], to[1]]
        .iter()
        .map(f64::to_string)
        .collect()
}

fn run_path(dir: &std::path::Path, extra: &[&str], from: [f64; 2], to: [f64; 2]) -> Run {
    let query = words(from, to);
    let mut args = vec!["path", "w"];
    args.extend_from_slice(extra);
    args.extend(query.iter().map(String::as_str));
    silknav(dir, &args)
}

/// The length and the waypoints of a text answer.
fn parse_answer(line: &str) -> (f64, Vec<[f64; 2]>) {
    let numbers: Vec<f64> = line
        .split(' ')
        .map(|w| w.parse().unwrap_or_else(|_| panic!("{line}")))
        .collect();
    assert!(numbers.len() % 2 == 1, "a length and pairs: {line}");
    let points = numbers[1..].chunks(2).map(|p| [p[0], p[1]]).collect();
    (numbers[0], points)
}

fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
    (b[0] - a[0]).hypot(b[1] - a[1])
}

#[test]
fn a_path_around_a_wall() {
    let (dir, _, world) = world();
    let (from, to) = (at(START), at(GOAL));
    assert!(
        matches!(
            world
                .world()
                .raycast(position(from), position(to), Surface::Highest),
            Ok(Some(_))
        ),
        "the wall blocks the straight line"
    );
    let run = run_path(dir.path(), &[], from, to);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
    let line = run.stdout.strip_suffix('\n').expect("one line");
    assert!(!line.contains('\n'), "{line}");
    assert_eq!(line, text(&library_path(&world, from, to)));

    let (length, points) = parse_answer(line);
    assert_eq!(points.first(), Some(&from), "starts at the start");
    assert_eq!(points.last(), Some(&to), "ends at the goal");
    assert!(points.len() > 2, "turns around the wall: {line}");
    let straight = distance(from, to);
    assert!(length > straight, "{length} vs the straight {straight}");
    // The wall ends 750 units from the line (north, 770 south), so a path passes a point
    // that far from it; by reflection in the line through that point, it is at least the
    // hypotenuse of the straight line and twice 750.
    let around = straight.hypot(2.0 * 750.0);
    assert!(length >= around - 1e-3, "{length} vs {around}");
    let sum: f64 = points.windows(2).map(|p| distance(p[0], p[1])).sum();
    assert!(
        (sum - length).abs() < 1e-3,
        "the length is the sum of the legs: {sum} vs {length}"
    );
}

#[test]
fn no_path_is_none_with_exit_1() {
    let (dir, _, world) = world();
    let cases = [
        (at(BLOCKED), at(GOAL), "none start-blocked"),
        (at(START), at(BLOCKED), "none goal-blocked"),
        (at(START), at(ENCLOSED), "none unreachable"),
        (at(ENCLOSED), at(START), "none unreachable"),
        // A region that is not loaded, and a point outside the id space.
        ([10.0, 10.0], at(GOAL), "none start-blocked"),
        (at(START), [-5.0, 10.0], "none goal-blocked"),
    ];
    for (from, to, expected) in cases {
        let run = run_path(dir.path(), &[], from, to);
        assert_eq!(run.code, 1, "{from:?} → {to:?}: {}", run.stderr);
        assert_eq!(run.stdout, format!("{expected}\n"), "{from:?} → {to:?}");
        if Position::from_world(to[0], to[1]).is_some() {
            assert_eq!(text(&library_path(&world, from, to)), expected);
        }
    }
    // Inside the ring, a path exists.
    let inside = tile(ENCLOSED.0 + 3, ENCLOSED.1 - 2);
    let run = run_path(dir.path(), &[], at(ENCLOSED), inside);
    assert_eq!(run.code, 0, "{}", run.stdout);
}

#[test]
fn a_budget_too_small_for_the_detour() {
    let (dir, _, world) = world();
    let (from, to) = (at(START), at(GOAL));
    let budget = world.find_path(
        position(from),
        position(to),
        &PathOptions::default(),
        &mut PathScratch::with_budget(1),
    );
    assert_eq!(budget, Err(PathError::BudgetExceeded));
    let run = run_path(dir.path(), &["--budget", "1"], from, to);
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "none budget-exceeded\n");
    let roomy = run_path(dir.path(), &["--budget", "1000000"], from, to);
    assert_eq!(roomy.code, 0);
    assert_eq!(
        roomy.stdout.trim_end(),
        text(&library_path(&world, from, to))
    );
    let bad = silknav(dir.path(), &["path", "w", "--budget", "-1"]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("For more information"),
        "{}",
        bad.stderr
    );
}

#[test]
fn a_batch_answers_line_by_line() {
    let (dir, _, world) = world();
    let (s, g, b, e) = (at(START), at(GOAL), at(BLOCKED), at(ENCLOSED));
    let line = |from: [f64; 2], to: [f64; 2]| words(from, to).join(" ");
    let input = format!(
        "{}\n# a comment\n\n1 2 3\n{}   # to the wall\n{} {} foo {}\n{}\n{}\n",
        line(s, g),
        line(s, b),
        s[0],
        s[1],
        g[1],
        line(g, s),
        line(s, e),
    );
    let run = silknav_with_stdin(dir.path(), &["path", "w"], input.as_bytes());
    assert_eq!(run.code, 2);
    assert_eq!(
        run.error_line(),
        "standard input: 2 malformed lines (the first is line 4), answered with `error`"
    );
    let answers: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        answers,
        [
            text(&library_path(&world, s, g)).as_str(),
            "error: line 4: expected 4 to 5 numbers, found 3",
            "none goal-blocked",
            "error: line 6: expected a finite number, found \"foo\"",
            text(&library_path(&world, g, s)).as_str(),
            "none unreachable",
        ]
    );

    // Without malformed lines a batch succeeds, whatever the answers.
    let clean = format!("{}\n{}\n", line(s, e), line(g, s));
    let run = silknav_with_stdin(dir.path(), &["path", "w"], clean.as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 2);
}

#[test]
fn json_has_the_length_the_waypoints_the_heights_and_the_cells() {
    let (dir, _, world) = world();
    let (from, to) = (at(START), at(GOAL));
    let run = run_path(dir.path(), &["--json"], from, to);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: Value = serde_json::from_str(run.stdout.trim_end()).unwrap();
    let path = library_path(&world, from, to).unwrap();
    let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "cells",
            "exact_length",
            "heights",
            "length",
            "mode",
            "waypoints"
        ],
        "(sorted) {json}"
    );
    assert_eq!(json["length"].as_f64(), Some(path.length), "exact");
    assert_eq!(json["exact_length"].as_f64(), Some(path.exact_length));
    assert_eq!(json["mode"], "walkable");
    let waypoints: Vec<[f64; 2]> = json["waypoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| [p[0].as_f64().unwrap(), p[1].as_f64().unwrap()])
        .collect();
    let expected: Vec<[f64; 2]> = path
        .waypoints
        .iter()
        .map(|w| [w.world_x(), w.world_z()])
        .collect();
    assert_eq!(waypoints, expected);
    // Heights as f32, one per waypoint: the start's is the ground's (no object there), the
    // others where each leg's walk arrives, started at the height before.
    let heights: Vec<Option<f32>> = json["heights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_f64().map(|h| h as f32))
        .collect();
    assert_eq!(heights, world.world().path_heights(&path, Surface::Highest));
    assert_eq!(
        heights[0],
        world.world().height_at(position(from), Surface::Terrain)
    );
    for (k, leg) in path.waypoints.windows(2).enumerate() {
        let walk = world
            .world()
            .move_along(
                leg[0],
                leg[1],
                &MoveOptions::new().with_start(Surface::Near(heights[k].unwrap())),
            )
            .unwrap();
        assert_eq!(Some(walk.height), heights[k + 1]);
    }
    let cells: Vec<(String, u64)> = json["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["region"].as_str().unwrap().to_owned(),
                c["cell"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, u64)> = world
        .world()
        .path_cells(&path, Surface::Highest)
        .iter()
        .map(|c| (format!("{:04x}", c.region.0), u64::from(c.cell)))
        .collect();
    assert!(expected.len() >= 2, "the path crosses cells: {expected:?}");
    assert_eq!(cells, expected);
    assert_eq!(
        cells.first().map(|c| c.1),
        world
            .world()
            .cell_at(position(from), Surface::Highest)
            .map(|c| u64::from(c.cell)),
        "the first cell is the start's"
    );

    let none = run_path(dir.path(), &["--json"], from, at(ENCLOSED));
    assert_eq!(none.code, 1);
    assert_eq!(none.stdout, "{\"length\":null,\"error\":\"unreachable\"}\n");
    let batch = silknav_with_stdin(
        dir.path(),
        &["path", "w", "--json"],
        format!("1 2\n{}\n", words(to, at(BLOCKED)).join(" ")).as_bytes(),
    );
    assert_eq!(batch.code, 2);
    assert_eq!(
        batch.stdout,
        "{\"line\":1,\"error\":\"expected 4 to 5 numbers, found 2\"}\n\
         {\"length\":null,\"error\":\"goal-blocked\"}\n"
    );
}

#[test]
fn render_draws_the_paths() {
    let (dir, w, world) = world();
    let (from, to) = (at(START), at(GOAL));
    let path = library_path(&world, from, to).unwrap();
    let mut args = vec!["render", "w", "-o", "p.png", "--path"];
    let query = words(from, to);
    args.extend(query.iter().map(String::as_str));
    let run = silknav(dir.path(), &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    assert_eq!(
        lines[1],
        format!("path 1 (cyan): {}", text(&Ok(path.clone())))
    );
    let png = std::fs::read(dir.path().join("p.png")).unwrap();
    let (w_px, h_px) = png_size(&png);
    assert!(
        lines[0].starts_with(&format!("p.png: {w_px}x{h_px} pixels, ")),
        "{}",
        lines[0]
    );
    let meshes = WorldFiles::read_dir(&w).unwrap().navmeshes;
    let overlay = Overlay {
        paths: vec![path
            .waypoints
            .iter()
            .map(|p| [p.world_x(), p.world_z()])
            .collect()],
        points: Vec::new(),
    };
    let expected = render_with_overlay(&meshes, &RenderOptions::default(), &overlay).unwrap();
    assert!(
        png == expected.encode_png(),
        "not the library's picture with the path"
    );
    let plain = silknav(dir.path(), &["render", "w", "-o", "plain.png"]);
    assert_eq!(plain.code, 0);
    assert!(png != std::fs::read(dir.path().join("plain.png")).unwrap());

    // Two paths, the second unreachable: the picture is still written, and the exit code says
    // that a path is missing.
    let mut args = vec!["render", "w", "-o", "q.png", "--path"];
    args.extend(query.iter().map(String::as_str));
    let unreachable = words(from, at(ENCLOSED));
    args.push("--path");
    args.extend(unreachable.iter().map(String::as_str));
    let run = silknav(dir.path(), &args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", run.stdout);
    assert!(lines[1].starts_with("path 1 (cyan): "), "{}", lines[1]);
    assert_eq!(lines[2], "path 2 (pink): none unreachable");
    png_size(&std::fs::read(dir.path().join("q.png")).unwrap());

    let short = silknav(
        dir.path(),
        &["render", "w", "-o", "r.png", "--path", "1", "2"],
    );
    assert_eq!(short.code, 2);
    assert!(!dir.path().join("r.png").exists());
}

#[test]
fn the_demo_finds_draws_and_prints_paths() {
    let dir = temp();
    let run = silknav(dir.path(), &["demo"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let out = &run.stdout;
    let render = out
        .lines()
        .skip_while(|l| !l.starts_with("render "))
        .nth(1)
        .unwrap();
    assert!(render.contains(" shortest paths in "), "{out}");

    // Each path's header, then its answer as `silknav path` prints it.
    let lines: Vec<&str> = out.lines().collect();
    let headers: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("  path "))
        .collect();
    assert!((3..=4).contains(&headers.len()), "{out}");
    let world = Navigator::load(dir.path().join("silknav-demo")).unwrap();
    for &i in &headers {
        let answer = lines[i + 1].trim_start();
        let (length, points) = parse_answer(answer);
        let (from, to) = (points[0], *points.last().unwrap());
        assert!(distance(from, to) > 1920.0, "far apart: {from:?} {to:?}");
        assert!(length >= distance(from, to), "{answer}");
        let query = words(from, to);
        let mut args = vec!["path", "silknav-demo"];
        args.extend(query.iter().map(String::as_str));
        let again = silknav(dir.path(), &args);
        assert_eq!(again.code, 0, "{}", again.stderr);
        assert_eq!(
            again.stdout.trim_end(),
            answer,
            "as `silknav path` prints it"
        );
        let (a, b) = (position(from), position(to));
        assert_ne!(a.region, b.region, "across regions: {answer}");
        assert_eq!(
            answer,
            text(&world.find_path(a, b, &PathOptions::default(), &mut PathScratch::new()))
        );
    }
}

/// The composition users make: every leg of a `path` answer handed to `move` (on the terrain
/// paths use, `--terrain-only`) arrives at the leg's end; the exact path's legs often do not.
#[test]
fn every_leg_of_a_path_arrives_under_move() {
    let dir = temp();
    gen_world(dir.path(), "g", 1, "3x3");
    let queries = [
        "246110 123350 251170 128170",
        "246110 128170 251170 123350",
        "245930 125470 251350 126050",
        "248390 125870 248610 125870",
    ];
    let batch = queries.join("\n") + "\n";
    let mut exact_refused = 0;
    for (extra, walkable) in [(&[][..], true), (&["--exact"][..], false)] {
        let mut args = vec!["path", "g", "--terrain-only"];
        args.extend_from_slice(extra);
        let run = silknav_with_stdin(dir.path(), &args, batch.as_bytes());
        assert_eq!(run.code, 0, "{}", run.stderr);
        let mut legs = String::new();
        for line in run.stdout.lines() {
            let (_, points) = parse_answer(line);
            for leg in points.windows(2) {
                legs += &format!("{} {} {} {}\n", leg[0][0], leg[0][1], leg[1][0], leg[1][1]);
            }
        }
        let moved = silknav_with_stdin(
            dir.path(),
            &["move", "g", "--terrain-only"],
            legs.as_bytes(),
        );
        assert_eq!(moved.code, 0, "{}", moved.stderr);
        let answers: Vec<&str> = moved.stdout.lines().collect();
        assert_eq!(answers.len(), legs.lines().count());
        for (leg, answer) in legs.lines().zip(&answers) {
            let arrived = answer.split(' ').nth(2) == Some("arrived");
            if walkable {
                assert!(arrived, "{leg}: {answer}");
                // The walk stops at the leg's end: the next leg starts there.
                let end: Vec<&str> = leg.split(' ').skip(2).collect();
                let stop: Vec<&str> = answer.split(' ').take(2).collect();
                let close = end.iter().zip(&stop).all(|(a, b)| {
                    (a.parse::<f64>().unwrap() - b.parse::<f64>().unwrap()).abs() < 1e-3
                });
                assert!(close, "{leg}: {answer}");
            } else if !arrived {
                exact_refused += 1;
            }
        }
        // JSON says which mode and both lengths.
        let mut args = vec!["path", "g", "--json", "--terrain-only"];
        args.extend_from_slice(extra);
        args.extend(queries[0].split(' '));
        let json: Value = serde_json::from_str(silknav(dir.path(), &args).stdout.trim()).unwrap();
        assert_eq!(json["mode"], if walkable { "walkable" } else { "exact" });
        let (length, exact) = (
            json["length"].as_f64().unwrap(),
            json["exact_length"].as_f64().unwrap(),
        );
        assert!(length >= exact - 1e-3 && length <= exact + 1.0, "{json}");
    }
    assert!(
        exact_refused > 0,
        "the exact waypoints are refused somewhere"
    );
    let bad = silknav(
        dir.path(),
        &[
            "path",
            "g",
            "--clearance",
            "0",
            "246110",
            "123350",
            "251170",
            "128170",
        ],
    );
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    // A radius keeps from the terrain's walls only: with objects it is refused, by name.
    let both = silknav(
        dir.path(),
        &[
            "path",
            "g",
            "--objects",
            "--radius",
            "2",
            "246110",
            "123350",
            "251170",
            "128170",
        ],
    );
    assert_eq!(both.code, 2, "{}", both.stderr);
    assert!(both.stderr.starts_with("objects: "), "{}", both.stderr);
    assert!(both.stdout.is_empty(), "{}", both.stdout);
}

/// The same composition with objects (no `--terrain-only`): the default paths on a world with
/// buildings, fortresses and bridges go round what refuses a walker, so every leg of every
/// path found is walked to its end by `move`, objects included.
#[test]
fn every_leg_of_a_path_arrives_under_move_with_objects() {
    let dir = temp();
    gen_world(dir.path(), "g", 1, "3x3");
    // Points spread over the world's 3×3 regions (x from 245760, z from 122880), off the grid.
    let mut rng = silknav_testkit::rng::SplitMix64::new(7);
    let mut point = || {
        (
            245_760.0 + rng.unit() * 5760.0,
            122_880.0 + rng.unit() * 5760.0,
        )
    };
    let batch: String = (0..120)
        .map(|_| {
            let ((x1, z1), (x2, z2)) = (point(), point());
            format!("{x1} {z1} {x2} {z2}\n")
        })
        .collect();
    let run = silknav_with_stdin(dir.path(), &["path", "g"], batch.as_bytes());
    let mut legs = String::new();
    let mut found = 0;
    for line in run.stdout.lines() {
        if line.starts_with("none") {
            continue;
        }
        found += 1;
        let (_, points) = parse_answer(line);
        for leg in points.windows(2) {
            legs += &format!("{} {} {} {}\n", leg[0][0], leg[0][1], leg[1][0], leg[1][1]);
        }
    }
    assert!(found >= 20, "{}", run.stdout);
    let moved = silknav_with_stdin(dir.path(), &["move", "g"], legs.as_bytes());
    assert_eq!(moved.code, 0, "{}", moved.stderr);
    let answers: Vec<&str> = moved.stdout.lines().collect();
    assert_eq!(answers.len(), legs.lines().count());
    for (leg, answer) in legs.lines().zip(&answers) {
        assert_eq!(answer.split(' ').nth(2), Some("arrived"), "{leg}: {answer}");
    }

    // The heights the JSON answer gives the waypoints are where the walks of the legs
    // arrive when each starts at the height the one before arrived at (`--y`, as the
    // server keeps a walker's height); the same for the walkable path through objects
    // (`--objects`, on the first 40 pairs: each searches the exact path with objects first).
    let first: String = batch.lines().take(40).map(|l| format!("{l}\n")).collect();
    let modes: [(&[&str], &str); 2] = [
        (&["path", "g", "--json"], &batch),
        (
            &["path", "g", "--objects", "--budget", "300000", "--json"],
            &first,
        ),
    ];
    for (args, queries) in modes {
        let run = silknav_with_stdin(dir.path(), args, queries.as_bytes());
        let mut chained = String::new();
        let mut expected = Vec::new();
        let mut found = 0;
        for line in run.stdout.lines() {
            let answer: serde_json::Value = serde_json::from_str(line).unwrap();
            let Some(heights) = answer["heights"].as_array() else {
                continue;
            };
            found += 1;
            assert_eq!(answer["mode"], "walkable", "{line}");
            let waypoints = answer["waypoints"].as_array().unwrap();
            assert_eq!(heights.len(), waypoints.len(), "{line}");
            for (k, leg) in waypoints.windows(2).enumerate() {
                chained += &format!(
                    "{} {} {} {} {}\n",
                    leg[0][0], leg[0][1], leg[1][0], leg[1][1], heights[k]
                );
                expected.push(heights[k + 1].clone());
            }
        }
        assert!(found >= 10, "{args:?}: {}", run.stdout);
        let moved = silknav_with_stdin(dir.path(), &["move", "g", "--json"], chained.as_bytes());
        assert_eq!(moved.code, 0, "{}", moved.stderr);
        let (mut checked, mut on_objects) = (0, 0);
        for ((leg, answer), height) in chained.lines().zip(moved.stdout.lines()).zip(&expected) {
            let walk: serde_json::Value = serde_json::from_str(answer).unwrap();
            assert_eq!(walk["stop"], "arrived", "{args:?} {leg}: {walk}");
            assert_eq!(walk["height"], *height, "{args:?} {leg}: {walk}");
            checked += 1;
            on_objects += usize::from(!walk["cell"]["object"].is_null());
        }
        assert_eq!(checked, expected.len(), "as many walks as legs");
        assert!(
            checked >= 50 && on_objects > 0,
            "{args:?}: {checked} legs, {on_objects} on objects"
        );
    }
}

/// `--objects` asks for the path through objects (exact with `--exact`, else walkable); on a
/// world loaded without objects it answers what the path without it answers, either way.
#[test]
fn paths_with_objects_equal_paths_without_on_a_world_without_objects() {
    let dir = temp();
    gen_world(dir.path(), "g", 1, "2x2");
    let batch =
        b"246110 123350 247170 124170\n246110 124170 247170 123350\n246500 124000 246900 123500\n";
    let plain = silknav_with_stdin(
        dir.path(),
        &["path", "g", "--terrain-only", "--exact"],
        batch,
    );
    let objects = silknav_with_stdin(
        dir.path(),
        &["path", "g", "--terrain-only", "--exact", "--objects"],
        batch,
    );
    assert_eq!(plain.code, objects.code, "{}", objects.stderr);
    assert_eq!(plain.stdout, objects.stdout);
    assert_eq!(plain.stdout.lines().count(), 3);
    let walkable = silknav_with_stdin(dir.path(), &["path", "g", "--terrain-only"], batch);
    let objects = silknav_with_stdin(
        dir.path(),
        &["path", "g", "--terrain-only", "--objects"],
        batch,
    );
    assert_eq!(walkable.code, objects.code, "{}", objects.stderr);
    assert_eq!(walkable.stdout, objects.stdout);
    assert_ne!(
        walkable.stdout, plain.stdout,
        "walkable paths are not the exact ones"
    );
}
