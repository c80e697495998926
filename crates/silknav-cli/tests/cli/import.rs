//! `silknav import-movingai`: maps as worlds, checked cell by cell with `silknav cell`.

use crate::support::*;
use std::path::Path;

const SMALL: &str = "type octile\nheight 3\nwidth 4\nmap\n.@..\nGTS.\n....\n";

/// Which cells of a map are open (`.`, `G`, `S`), row by row: a reading of the format
/// independent of the library's.
fn open_cells(map: &str) -> Vec<Vec<bool>> {
    map.lines()
        .skip(4)
        .map(|row| {
            row.trim_end_matches('\r')
                .bytes()
                .map(|c| matches!(c, b'.' | b'G' | b'S'))
                .collect()
        })
        .collect()
}

/// Asks `silknav cell` (one batch) about the centre of every cell of the map and of a ring of
/// cells around it, and checks open ↔ a cell, blocked or outside ↔ `none`.
fn check_cells(dir: &Path, world: &str, map: &str, origin: (u32, u32)) -> (usize, usize) {
    let open = open_cells(map);
    let (height, width) = (open.len() as i64, open[0].len() as i64);
    let mut queries = String::new();
    let mut expected = Vec::new();
    for y in -1..=height {
        for x in -1..=width {
            let wx = f64::from(origin.0) * 1920.0 + x as f64 * 20.0 + 10.0;
            let wz = f64::from(origin.1) * 1920.0 + y as f64 * 20.0 + 10.0;
            if wx < 0.0 || wz < 0.0 {
                continue; // outside the id space; `none` too, but not this test's point
            }
            queries.push_str(&format!("{wx} {wz}\n"));
            let inside = (0..width).contains(&x) && (0..height).contains(&y);
            expected.push(inside && open[y as usize][x as usize]);
        }
    }
    let run = silknav_with_stdin(dir, &["cell", world], queries.as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let answers: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(answers.len(), expected.len());
    let mut counts = (0, 0);
    for (i, (answer, open)) in answers.iter().zip(&expected).enumerate() {
        assert_eq!(*answer != "none", *open, "query {i}: {answer}");
        if *open {
            counts.0 += 1;
        } else {
            counts.1 += 1;
        }
    }
    counts
}

#[test]
fn a_small_map_becomes_a_world_with_its_open_and_blocked_cells() {
    let dir = temp();
    std::fs::write(dir.path().join("small.map"), SMALL).unwrap();
    let run = silknav(
        dir.path(),
        &[
            "import-movingai",
            "small.map",
            "--out",
            "w",
            "--origin",
            "2,5",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        names_in(&dir.path().join("w/navmesh")),
        ["mapinfo.mfo", "nv_0502.nvm", "object.ifo", "tile2d.ifo"]
    );
    assert!(
        run.stdout.contains(
            "small.map: 4x3 cells, 10 open; cell (x, y) is the tile at world x 3840 + 20·x, z 9600 + 20·y"
        ),
        "{}",
        run.stdout
    );
    let (open, blocked) = check_cells(dir.path(), "w", SMALL, (2, 5));
    // 10 open cells; 2 blocked ones and the ring of 18 around the map.
    assert_eq!((open, blocked), (10, 2 + 18));
    let lint = silknav(dir.path(), &["lint", "w"]);
    assert_eq!(lint.code, 0, "{}", lint.stdout);
}

#[test]
fn a_map_larger_than_a_region_spans_regions() {
    let (width, height) = (150, 100);
    let mut map = format!("type octile\nheight {height}\nwidth {width}\nmap\n");
    for y in 0..height {
        let row: String = (0..width)
            .map(|x: usize| if (x * 7 + y * 3) % 5 == 0 { '@' } else { '.' })
            .collect();
        map.push_str(&row);
        map.push('\n');
    }
    let dir = temp();
    std::fs::write(dir.path().join("wide.map"), &map).unwrap();
    let run = silknav(
        dir.path(),
        &[
            "import-movingai",
            "wide.map",
            "--out",
            "w",
            "--origin",
            "10,20",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        names_in(&dir.path().join("w/navmesh")),
        [
            "mapinfo.mfo",
            "nv_140a.nvm",
            "nv_140b.nvm",
            "nv_150a.nvm",
            "nv_150b.nvm",
            "object.ifo",
            "tile2d.ifo"
        ]
    );
    let (open, _) = check_cells(dir.path(), "w", &map, (10, 20));
    assert_eq!(open, width * height - width * height / 5);
}

#[test]
fn the_default_origin_is_region_0_0() {
    let dir = temp();
    std::fs::write(dir.path().join("small.map"), SMALL).unwrap();
    let run = silknav(dir.path(), &["import-movingai", "small.map", "--out", "w"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(dir.path().join("w/navmesh/nv_0000.nvm").is_file());
    let cell = silknav(dir.path(), &["cell", "w", "10", "30"]); // the `G` at (0, 1)
    assert_eq!((cell.code, cell.stdout.as_str()), (0, "0000 0\n"));
    let blocked = silknav(dir.path(), &["cell", "w", "30", "10"]); // the `@` at (1, 0)
    assert_eq!((blocked.code, blocked.stdout.as_str()), (1, "none\n"));
}

#[test]
fn malformed_maps_exit_2_naming_the_line() {
    let dir = temp();
    let short_row = "type octile\nheight 2\nwidth 3\nmap\n...\n..\n";
    std::fs::write(dir.path().join("bad.map"), short_row).unwrap();
    let run = silknav(dir.path(), &["import-movingai", "bad.map", "--out", "w"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.error_line(),
        "bad.map: line 6: expected a row of 3 cells, found 2"
    );
    assert!(!dir.path().join("w").exists(), "nothing is written");

    std::fs::write(dir.path().join("binary.map"), b"type \xff\n").unwrap();
    let binary = silknav(dir.path(), &["import-movingai", "binary.map", "--out", "w"]);
    assert_eq!(binary.code, 2);
    assert!(
        binary.error_line().starts_with("binary.map: not text: "),
        "{}",
        binary.stderr
    );
}

#[test]
fn existing_files_are_not_replaced_without_force() {
    let dir = temp();
    std::fs::write(dir.path().join("small.map"), SMALL).unwrap();
    let first = silknav(dir.path(), &["import-movingai", "small.map", "--out", "w"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let again = silknav(dir.path(), &["import-movingai", "small.map", "--out", "w"]);
    assert_eq!(again.code, 2);
    assert_eq!(
        again.error_line(),
        "w/navmesh/nv_0000.nvm: already exists (use --force to replace it)"
    );
    let forced = silknav(
        dir.path(),
        &["import-movingai", "small.map", "--out", "w", "--force"],
    );
    assert_eq!(forced.code, 0, "{}", forced.stderr);
}

#[test]
fn the_arena_map_reproduces_its_open_and_blocked_cells() {
    let arena = silknav_testkit::movingai::data_dir().join("maps/arena.map");
    let map = silknav_testkit::movingai::read("maps/arena.map");
    let dir = temp();
    let arena = arena.to_str().expect("a UTF-8 path");
    let run = silknav(dir.path(), &["import-movingai", arena, "--out", "w"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (open, blocked) = check_cells(dir.path(), "w", &map, (0, 0));
    let expected_open: usize = open_cells(&map).iter().flatten().filter(|&&o| o).count();
    assert_eq!(open, expected_open);
    assert!(open > 0 && blocked > 0);
}
