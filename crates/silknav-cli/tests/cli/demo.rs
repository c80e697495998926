//! `silknav demo`: what it makes, what it answers, and that the commands it suggests work.

use crate::support::*;
use silknav::world::movement::MoveStop;
use silknav::{MoveOptions, Position, Surface, World};

/// The value after `label` on the line that starts with it (after indentation).
fn line_after<'a>(stdout: &'a str, label: &str) -> &'a str {
    stdout
        .lines()
        .find_map(|l| l.trim_start().strip_prefix(label))
        .unwrap_or_else(|| panic!("no line {label:?} in\n{stdout}"))
        .trim_start()
}

/// A point `x z` at the start of `text`.
fn point(text: &str) -> [f64; 2] {
    let mut words = text.split([' ', ',']);
    [
        words.next().unwrap().parse().unwrap(),
        words.next().unwrap().parse().unwrap(),
    ]
}

#[test]
fn the_demo_makes_a_world_a_picture_and_answers() {
    let dir = temp();
    let run = silknav(dir.path(), &["demo"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let out = &run.stdout;
    let demo = dir.path().join("silknav-demo");
    assert_eq!(names_in(&demo), ["dungeon", "navmesh", "res", "world.png"]);
    let mut expected: Vec<String> = [
        "AINavData_32769.dat",
        "AINavData_32770.dat",
        "mapinfo.mfo",
        "object.ifo",
        "tile2d.ifo",
    ]
    .map(String::from)
    .into();
    for z in 0x40..0x43 {
        for x in 0x80..0x83 {
            expected.push(format!("nv_{z:02x}{x:02x}.nvm"));
        }
    }
    expected.sort();
    assert_eq!(names_in(&demo.join("navmesh")), expected);

    // The demo world is `gen --seed 1 --size 3x3`'s, dungeons included.
    let dungeon_files = silknav::worldgen::generate(&silknav::worldgen::GenOptions {
        seed: 1,
        width: 3,
        height: 3,
        ..Default::default()
    })
    .unwrap()
    .into_files()
    .dungeons
    .file_bytes()
    .unwrap()
    .len();
    let generated = line_after(out, "generate");
    assert!(
        generated.starts_with(&format!(
            "silknav-demo: wrote {} files, ",
            12 + silknav::worldgen::catalog::OBJECTS.len() + dungeon_files
        )),
        "{out}"
    );
    assert!(
        generated.ends_with(&format!("; 2 dungeons ({dungeon_files} files)")),
        "{generated}"
    );
    assert_eq!(line_after(out, "lint"), "12 files, 0 errors, 0 warnings");
    let render = line_after(out, "render");
    let size = render
        .strip_prefix("silknav-demo/world.png: ")
        .and_then(|r| r.split_once(" pixels"))
        .map(|(s, _)| s.split_once('x').unwrap())
        .unwrap_or_else(|| panic!("{render}"));
    let png = std::fs::read(demo.join("world.png")).unwrap();
    assert_eq!(
        png_size(&png),
        (size.0.parse().unwrap(), size.1.parse().unwrap())
    );
    assert_eq!(line_after(out, "load"), "9 regions from silknav-demo");

    // The answers are the library's at the points the demo names.
    let world = World::load(&demo).unwrap();
    let [a, b, c] = ["A = ", "B = ", "C = "].map(|l| point(line_after(out, l)));
    let pos = |p: [f64; 2]| Position::from_world(p[0], p[1]).unwrap();
    let cell = world.cell_at(pos(a), Surface::Highest).expect("A is open");
    assert_eq!(
        line_after(out, "cell A"),
        format!("region {}, cell {}", cell.region, cell.cell)
    );
    assert_eq!(
        line_after(out, "height A"),
        world
            .height_at(pos(a), Surface::Terrain)
            .unwrap()
            .to_string()
    );
    assert_eq!(world.raycast(pos(b), pos(a), Surface::Highest), Ok(None));
    assert_eq!(line_after(out, "los B → A"), "clear");
    let hit = world
        .raycast(pos(a), pos(c), Surface::Highest)
        .unwrap()
        .expect("A → C is blocked");
    let shown = point(
        line_after(out, "los A → C")
            .strip_prefix("blocked at ")
            .unwrap(),
    );
    assert!((shown[0] - hit.point.world_x()).abs() < 0.01, "{shown:?}");
    assert!(
        line_after(out, "move B → A").starts_with("arrived at "),
        "{out}"
    );
    assert!(
        line_after(out, "move A → C").starts_with("stopped by a wall at "),
        "{out}"
    );
    // The snap of the blocked tile W is the library's nearest walkable point.
    let w = point(line_after(out, "W = ").split(',').next().unwrap());
    let snapped = world
        .nearest_walkable(pos(w), Surface::Highest, 100.0)
        .expect("open ground near W");
    assert_eq!(
        line_after(out, "snap W"),
        format!(
            "{} {}, {} units away (region {}, cell {})",
            snapped.position.world_x(),
            snapped.position.world_z(),
            snapped.distance,
            snapped.cell.region,
            snapped.cell.cell
        )
    );
    // The object walks: D → E enters the object and arrives on it, F → E is stopped by its edge.
    let e = point(line_after(out, "E = ").split(',').next().unwrap());
    let df = line_after(out, "D = ");
    let (d, f) = df.split_once(", F = ").unwrap();
    let (d, f) = (point(d), point(f.split(',').next().unwrap()));
    let on = world
        .cell_at(pos(e), Surface::Highest)
        .and_then(|c| c.object)
        .expect("E is on an object");
    let arrived = world
        .move_along(pos(d), pos(e), &MoveOptions::default())
        .unwrap();
    assert_eq!(arrived.stop, MoveStop::Arrived);
    assert_eq!(arrived.cell.object.map(|o| o.instance), Some(on.instance));
    assert!(
        line_after(out, "move D → E").starts_with("arrived at "),
        "{out}"
    );
    let stopped = world
        .move_along(pos(f), pos(e), &MoveOptions::default())
        .unwrap();
    assert!(
        matches!(stopped.stop, MoveStop::ObjectWall { .. }),
        "{stopped:?}"
    );
    assert!(
        line_after(out, "move F → E").starts_with("stopped by an object's edge at "),
        "{out}"
    );
    // The dungeon visit: the smallest dungeon, the cave (2); P's cell and the path to Q are
    // the library's.
    let dungeon = world
        .dungeon(silknav::jmxv::RegionId(0x8002))
        .expect("the cave");
    assert!(
        line_after(out, "dungeon").starts_with(&format!(
            "2 (region 8002): {} blocks, {} links made at load",
            dungeon.block_count(),
            dungeon.links().len()
        )),
        "{out}"
    );
    let numbers = |text: &str| -> Vec<f64> {
        text.split([' ', ','])
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    let p = numbers(line_after(out, "P = "));
    let at = Position::in_dungeon(2, p[0] as f32, p[1] as f32);
    let cell = world
        .cell_at(at, Surface::Near(p[2] as f32))
        .expect("P has a cell");
    let o = cell.object.unwrap();
    assert_eq!(
        line_after(out, "cell P"),
        format!(
            "8002 {} object 8002:{} {}",
            cell.cell,
            o.instance.uid(),
            o.cell
        )
    );
    let q = numbers(line_after(out, "Q = "));
    let paths = silknav::PathIndex::build(&world);
    let path = paths
        .find_path(
            &world,
            at,
            Position::in_dungeon(2, q[0] as f32, q[1] as f32),
            &silknav::PathOptions::new()
                .with_start(Surface::Near(p[2] as f32))
                .unwrap(),
            &mut silknav::PathScratch::new(),
        )
        .expect("a path");
    let shown = out
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("Q = "))
        .nth(1)
        .unwrap()
        .trim();
    assert_eq!(
        shown.split(' ').next(),
        Some(format!("{:.3}", path.length).as_str())
    );
    assert!(q[2] - p[2] > 30.0, "Q is on a higher floor: {p:?} {q:?}");
}

#[test]
fn the_commands_it_suggests_work() {
    let dir = temp();
    let run = silknav(dir.path(), &["demo"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let next: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| *l != "try next")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(str::trim)
        .collect();
    assert!(next.len() >= 8, "{}", run.stdout);
    for command in next {
        if let Some(rest) = command.strip_prefix("printf '") {
            // printf 'QUERIES' | silknav move DIR
            let (queries, pipe) = rest.split_once("' | ").unwrap();
            let args: Vec<&str> = pipe.split(' ').skip(1).collect();
            let queries = queries.replace("\\n", "\n");
            let batch = silknav_with_stdin(dir.path(), &args, queries.as_bytes());
            assert_eq!(batch.code, 0, "{command}: {}", batch.stderr);
            let answers: Vec<&str> = batch.stdout.lines().collect();
            assert_eq!(answers.len(), 2, "{command}");
            assert!(answers[0].contains(" arrived height "), "{}", batch.stdout);
            assert!(answers[1].contains(" wall height "), "{}", batch.stdout);
            continue;
        }
        let args: Vec<&str> = command.split(' ').skip(1).collect();
        let r = silknav(dir.path(), &args);
        // The suggested line of sight is the blocked one: its answer is "no".
        let code = if args[0] == "los" { 1 } else { 0 };
        assert_eq!(r.code, code, "{command}: {}{}", r.stdout, r.stderr);
        assert!(!r.stdout.is_empty(), "{command}");
        if args[0] == "los" {
            assert!(r.stdout.starts_with("blocked "), "{command}: {}", r.stdout);
        }
    }
}

#[test]
fn the_demo_replaces_its_own_files_and_nothing_else() {
    let dir = temp();
    let first = silknav(dir.path(), &["demo", "--out", "d"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let files = || {
        let d = dir.path().join("d");
        (
            files_in(&d.join("navmesh")),
            std::fs::read(d.join("world.png")).unwrap(),
        )
    };
    let before = files();
    let again = silknav(dir.path(), &["demo", "--out", "d"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(before == files(), "the same bytes each run");

    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("nv_0101.nvm"), b"someone's data").unwrap();
    let refused = silknav(dir.path(), &["demo", "--out", "other"]);
    assert_eq!(refused.code, 2);
    assert_eq!(
        refused.error_line(),
        "other/nv_0101.nvm: a navmesh of another world; the demo writes only into a folder \
         without other navmesh files (choose another --out)"
    );
    assert_eq!(names_in(&other), ["nv_0101.nvm"]);
}
