//! Worlds read straight from archives: a generated world packed with `pk2 pack` answers
//! `lint`, `cell`, `height`, `los`, `move`, `path`, `info`, `dump` and `render` as its folder
//! does, and damaged archives are one line naming the entry and offset.

use crate::support::*;
use silknav_testkit::pk2::{record_of, with_block_outside, with_duplicate, with_loop};
use std::path::Path;

/// A generated 2×2 world with objects in `dir/w`, packed into `dir/Data.pk2`; its regions.
fn packed(dir: &Path) -> Vec<(u32, u32)> {
    let world = gen_world(dir, "w", 4, "2x2");
    let run = silknav(dir, &["pk2", "pack", "w", "-o", "Data.pk2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    names_in(&world.join("navmesh"))
        .iter()
        .filter_map(|name| jmxv::RegionId::from_file_name(name))
        .map(|r| (u32::from(r.x()), u32::from(r.z())))
        .collect()
}

/// Query lines over the regions: points on a grid, and segments between them.
fn queries(regions: &[(u32, u32)]) -> (String, String) {
    let mut points = Vec::new();
    for &(x, z) in regions {
        for i in 0..8 {
            for j in 0..8 {
                points.push((
                    f64::from(x * 1920) + 13.5 + f64::from(i) * 237.0,
                    f64::from(z * 1920) + 41.25 + f64::from(j) * 233.0,
                ));
            }
        }
    }
    let mut point_lines = String::new();
    for (k, (x, z)) in points.iter().enumerate() {
        if k % 3 == 0 {
            point_lines.push_str(&format!("{x} {z} 35\n"));
        } else {
            point_lines.push_str(&format!("{x} {z}\n"));
        }
    }
    let mut segment_lines = String::new();
    for k in 0..60 {
        let (a, b) = (
            points[(k * 7) % points.len()],
            points[(k * 13 + 5) % points.len()],
        );
        segment_lines.push_str(&format!("{} {} {} {}\n", a.0, a.1, b.0, b.1));
    }
    (point_lines, segment_lines)
}

#[test]
fn queries_on_the_archive_answer_as_on_the_folder() {
    let dir = temp();
    let regions = packed(dir.path());
    let (points, segments) = queries(&regions);
    let mut objects_seen = false;
    for (command, lines) in [
        ("cell", &points),
        ("height", &points),
        ("los", &segments),
        ("move", &segments),
        ("path", &segments),
    ] {
        for json in [false, true] {
            let args = |world: &'static str| {
                let mut args = vec![command, world];
                if json {
                    args.push("--json");
                }
                args
            };
            let folder = silknav_with_stdin(dir.path(), &args("w"), lines.as_bytes());
            assert_eq!(folder.code, 0, "{command}: {}", folder.stderr);
            assert_eq!(folder.stdout.lines().count(), lines.lines().count());
            objects_seen |= folder.stdout.contains("object");
            for world in ["Data.pk2", "Data.pk2:navmesh", "Data.pk2:NAVMESH"] {
                let archive = silknav_with_stdin(dir.path(), &args(world), lines.as_bytes());
                assert_eq!(
                    archive.code, folder.code,
                    "{command} {world}: {}",
                    archive.stderr
                );
                assert_eq!(
                    archive.stdout, folder.stdout,
                    "{command} {world} json={json}"
                );
            }
        }
    }
    assert!(objects_seen, "some answers are on objects");
    // One query from the command line, exit code and all.
    let (x, z) = (regions[0].0 * 1920 + 600, regions[0].1 * 1920 + 600);
    let (x, z) = (x.to_string(), z.to_string());
    let folder = silknav(dir.path(), &["height", "w", &x, &z]);
    let archive = silknav(dir.path(), &["height", "Data.pk2", &x, &z]);
    assert_eq!(
        (archive.code, &archive.stdout),
        (folder.code, &folder.stdout)
    );
}

#[test]
fn lint_info_dump_and_render_of_the_archive_match_the_folder() {
    let dir = temp();
    packed(dir.path());
    let folder = silknav(dir.path(), &["lint", "w"]);
    let archive = silknav(dir.path(), &["lint", "Data.pk2"]);
    assert_eq!(archive.code, folder.code, "{}", archive.stderr);
    assert!(folder.stdout.contains("w/navmesh/mapinfo.mfo: "));
    let renamed = folder
        .stdout
        .replace("w/navmesh/", "Data.pk2:navmesh/")
        .replace("w/res/", "Data.pk2:res/");
    assert_eq!(archive.stdout, renamed);
    let json_folder = silknav(dir.path(), &["lint", "--json", "w"]);
    let json_archive = silknav(dir.path(), &["lint", "--json", "Data.pk2:navmesh"]);
    assert_eq!(
        json_archive.stdout,
        json_folder
            .stdout
            .replace("\"w/navmesh/", "\"Data.pk2:navmesh/")
            .replace("\"w/res/", "\"Data.pk2:res/")
    );

    // One file inside the archive, for info, dump and lint.
    let name = names_in(&dir.path().join("w/navmesh"))
        .into_iter()
        .find(|n| n.starts_with("nv_"))
        .unwrap();
    let on_disk = format!("w/navmesh/{name}");
    let inside = format!("Data.pk2:navmesh/{name}");
    for command in [&["info"][..], &["info", "--json"], &["dump"], &["lint"]] {
        let a = silknav(dir.path(), &[command, &[on_disk.as_str()]].concat());
        let b = silknav(dir.path(), &[command, &[inside.as_str()]].concat());
        assert_eq!(a.code, 0, "{command:?}: {}", a.stderr);
        assert_eq!(b.code, a.code, "{command:?}: {}", b.stderr);
        assert_eq!(b.stdout, a.stdout.replace(&on_disk, &inside), "{command:?}");
    }
    // The archive itself is no file: a one-line error saying how to name one in it.
    let run = silknav(dir.path(), &["info", "Data.pk2"]);
    assert_eq!(run.code, 2);
    assert!(
        run.error_line().contains("Data.pk2:navmesh/nv_694e.nvm"),
        "{}",
        run.stderr
    );

    // The same picture from either.
    let a = silknav(dir.path(), &["render", "w", "-o", "a.png", "--scale", "1"]);
    let b = silknav(
        dir.path(),
        &["render", "Data.pk2", "-o", "b.png", "--scale", "1"],
    );
    assert_eq!((a.code, b.code), (0, 0), "{}{}", a.stderr, b.stderr);
    assert_eq!(
        std::fs::read(dir.path().join("a.png")).unwrap(),
        std::fs::read(dir.path().join("b.png")).unwrap()
    );
}

#[test]
fn another_key_is_given_with_pk2_key() {
    let dir = temp();
    gen_world(dir.path(), "w", 4, "1x1");
    let run = silknav(
        dir.path(),
        &[
            "pk2",
            "pack",
            "w",
            "-o",
            "Private.pk2",
            "--pk2-key",
            "my server",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let without = silknav(dir.path(), &["lint", "Private.pk2"]);
    assert_eq!(without.code, 2);
    assert!(
        without
            .error_line()
            .starts_with("Private.pk2: offset 35 (0x23): wrong key"),
        "{}",
        without.stderr
    );
    let with = silknav(
        dir.path(),
        &["lint", "Private.pk2", "--pk2-key", "my server"],
    );
    assert_eq!(with.code, 0, "{}", with.stderr);
    assert_eq!(
        with.stdout,
        silknav(dir.path(), &["lint", "w"])
            .stdout
            .replace("w/navmesh/", "Private.pk2:navmesh/")
            .replace("w/res/", "Private.pk2:res/")
    );
}

#[test]
fn damaged_archives_are_one_line_naming_the_entry_and_offset() {
    let dir = temp();
    packed(dir.path());
    let good = std::fs::read(dir.path().join("Data.pk2")).unwrap();
    let navmesh = record_of(&good, "navmesh");
    let object_ifo = record_of(&good, "navmesh/object.ifo");
    let cases = [
        (
            "truncated.pk2",
            good[..1000].to_vec(),
            "offset 256 (0x100): unexpected end of archive (needed 2560 bytes, 744 left)".to_owned(),
        ),
        (
            "loop.pk2",
            with_loop(&good, "navmesh"),
            format!("offset {navmesh} ({navmesh:#x}): navmesh: directory block 256 (0x100) is reached twice"),
        ),
        (
            "outside.pk2",
            with_block_outside(&good, "navmesh"),
            format!("offset {navmesh} ({navmesh:#x}): navmesh: 2560 bytes at"),
        ),
        (
            "duplicate.pk2",
            with_duplicate(&good, "navmesh/object.ifo", "MAPINFO.MFO"),
            format!("offset {object_ifo} ({object_ifo:#x}): navmesh/MAPINFO.MFO: a second entry with this name"),
        ),
    ];
    for (name, bytes, message) in cases {
        std::fs::write(dir.path().join(name), bytes).unwrap();
        for command in [
            &["lint", name][..],
            &["path", name, "1", "2", "3", "4"],
            &["render", name, "-o", "x.png"],
        ] {
            let run = silknav(dir.path(), command);
            assert_eq!(run.code, 2, "{command:?}: {}", run.stderr);
            let line = run.error_line();
            assert!(
                line.starts_with(&format!("{name}: {message}")),
                "{command:?}: {line}"
            );
        }
    }
    assert!(!dir.path().join("x.png").exists());
    // No folder there, or a file where a world is expected.
    let run = silknav(
        dir.path(),
        &["path", "Data.pk2:nowhere", "1", "2", "3", "4"],
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.error_line(),
        "Data.pk2: offset 0 (0x0): nowhere: no such entry"
    );
    let run = silknav(
        dir.path(),
        &["cell", "Data.pk2:navmesh/mapinfo.mfo", "1", "2"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.error_line()
            .contains("navmesh/mapinfo.mfo: not a directory"),
        "{}",
        run.stderr
    );
}

#[test]
fn corpus_reports_the_same_for_the_folder_and_the_archive() {
    let dir = temp();
    packed(dir.path());
    let folder = silknav(dir.path(), &["corpus", "w"]);
    assert_eq!(folder.code, 0, "{}", folder.stderr);
    let first = folder.stdout.lines().next().unwrap();
    assert!(first.starts_with("w: "), "{first}");
    assert!(folder
        .stdout
        .contains("\nnavmeshes: 4 files (standard 4, tiles4 0, tiles4-noplanes 0), 0 dungeons\n"));
    assert!(folder
        .stdout
        .contains("  directions: spec (files agreeing: spec 4;"));
    assert!(folder.stdout.contains("\nunreadable: 0\n"));
    let archive = silknav(dir.path(), &["corpus", "Data.pk2"]);
    assert_eq!(archive.code, 0, "{}", archive.stderr);
    assert_eq!(
        archive.stdout,
        folder.stdout.replacen("w: ", "Data.pk2: ", 1)
    );

    let json = silknav(dir.path(), &["corpus", "--json", "Data.pk2"]);
    assert_eq!(json.code, 0);
    assert_eq!(json.stdout.lines().count(), 1, "one JSON object");
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value["path"], "Data.pk2");
    assert_eq!(value["navmeshes"]["files"], 4);
    assert_eq!(value["navmeshes"]["layouts"]["standard"], 4);
    assert_eq!(value["navmeshes"]["directions"]["found"][0], "spec");
    assert_eq!(value["world_checks"], "run");
    assert_eq!(value["unreadable"].as_array().unwrap().len(), 0);

    // Inside the archive, a navmesh with another signature (read, and counted by lint as E001)
    // and one whose object count runs past its end (unreadable, listed with its error).
    let mut bytes = std::fs::read(dir.path().join("Data.pk2")).unwrap();
    let opened =
        silknav::pk2_archive::Archive::from_bytes(bytes.clone(), &Default::default()).unwrap();
    let navmeshes: Vec<_> = opened
        .entries()
        .iter()
        .filter(|e| e.path().ends_with(".nvm"))
        .collect();
    let data = |i: usize| match navmeshes[i].kind() {
        silknav::pk2_archive::EntryKind::File { data, .. } => data as usize,
        _ => panic!("a file"),
    };
    bytes[data(0)..][..12].copy_from_slice(b"JMXVNVM 1001");
    bytes[data(1) + 12..][..2].copy_from_slice(&u16::MAX.to_le_bytes());
    std::fs::write(dir.path().join("bad.pk2"), bytes).unwrap();
    let bad = silknav(dir.path(), &["corpus", "bad.pk2"]);
    assert_eq!(bad.code, 0, "{}", bad.stderr);
    assert!(
        bad.stdout.starts_with(
            "bad.pk2: 49 files, 49 read (1 unreadable), 0 not read\nnavmeshes: 3 files"
        ),
        "{}",
        bad.stdout
    );
    assert!(
        bad.stdout
            .contains("\n  E001 error: 1 finding in 1 file: the signature is not `JMXVNVM 1000`\n"),
        "{}",
        bad.stdout
    );
    let listed = format!(
        "\nunreadable: 1\n  bad.pk2:{}: offset ",
        navmeshes[1].path()
    );
    assert!(bad.stdout.contains(&listed), "{}", bad.stdout);
    let missing = silknav(dir.path(), &["corpus", "nowhere"]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.error_line().starts_with("nowhere: "),
        "{}",
        missing.stderr
    );
}
