//! Dungeon files in `info`, `dump`, `pack` and `lint`: `.dof` told apart by its signature,
//! `dungeoninfo.txt` and `AINavData_NNNNN.dat` by their names (on disk and inside archives);
//! dungeons and routes lossless through JSON; the dungeon list refused by `dump`; each linted on
//! its own with its codes.

use crate::support::*;
use jmxv::ainav::AiNavData;
use jmxv::dof::DungeonFile;
use serde_json::Value;
use silknav_testkit::second_writer;
use std::path::Path;

/// The corridor's region, 0x8011, in decimal: its file name.
const CORRIDOR_FILE: &str = "AINavData_32785.dat";

/// A dungeon list as the game spells it: a header, three rows (one skipped), `\r\n` breaks.
const DUNGEON_LIST: &[u8] = b"// service\tid\tpath\r\n\
1\t1\t\"Dungeon\\wchina\\Dunhwang_Cv.dof\"\r\n\
0\t8\t\"Dungeon\\gngwc\\gngwc.dof\"\r\n\
1\t9\t\"Dungeon\\temple\\temple.dof\"\r\n";

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).unwrap();
}

/// Writes the second writer's temple (`temple.dof`) and corridor routes ([`CORRIDOR_FILE`])
/// into `dir`.
fn write_temple_and_corridor(dir: &Path) {
    write(dir, "temple.dof", &second_writer::dof::temple().to_bytes());
    write(
        dir,
        CORRIDOR_FILE,
        &second_writer::ainav::corridor().to_bytes(),
    );
}

/// The one JSON line of `info --json FILE`.
fn info_json(dir: &Path, file: &str) -> Value {
    let run = silknav(dir, &["info", "--json", file]);
    assert_eq!(run.code, 0, "{file}: {}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
    serde_json::from_str(&run.stdout).unwrap()
}

/// `dump -o` then `pack -o` of `file` in `dir`: the packed bytes.
fn round_trip(dir: &Path, file: &str) -> Vec<u8> {
    let dump = silknav(dir, &["dump", file, "-o", "d.json", "--force"]);
    assert_eq!(dump.code, 0, "dump {file}: {}", dump.stderr);
    assert_eq!(dump.stdout, "", "dump -o writes nothing to stdout");
    let pack = silknav(dir, &["pack", "d.json", "-o", "p.out", "--force"]);
    assert_eq!(pack.code, 0, "pack {file}: {}", pack.stderr);
    std::fs::read(dir.join("p.out")).unwrap()
}

#[test]
fn info_describes_a_dungeon() {
    let dir = temp();
    let temple = second_writer::dof::temple().to_bytes();
    let cave = second_writer::dof::legacy_cave().to_bytes();
    let shuffled = second_writer::dof::shuffled_temple().to_bytes();
    write(dir.path(), "temple.dof", &temple);
    write(dir.path(), "cave.dof", &cave);
    write(dir.path(), "shuffled.dof", &shuffled);
    let run = silknav(
        dir.path(),
        &["info", "temple.dof", "cave.dof", "shuffled.dof"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The temple: a torch, a pillar (a collision circle) and a pool; 2 + 1 + 0 + 1 lights;
    // three rooms and two floors. The shuffled one has 3 + 3 + 5 filler and 5 trailing bytes.
    assert_eq!(
        run.stdout,
        format!(
            "temple.dof: kind=dof blocks=4 block_layout=standard objects=3 collision_circles=1 \
             lights=4 grid=8x2x4 voxels=12 links=4 rooms=3 floors=2 groups=2 unclaimed=0 \
             header_region=8010 size={}\n\
             cave.dof: kind=dof blocks=2 block_layout=legacy objects=0 collision_circles=0 \
             lights=1 grid=4x2x2 voxels=3 links=2 rooms=- floors=- groups=1 unclaimed=0 \
             header_region=0000 size={}\n\
             shuffled.dof: kind=dof blocks=4 block_layout=standard objects=3 \
             collision_circles=1 lights=4 grid=8x2x4 voxels=12 links=4 rooms=3 floors=2 \
             groups=2 unclaimed=16 header_region=8010 size={}\n",
            temple.len(),
            cave.len(),
            shuffled.len()
        )
    );

    assert_eq!(
        info_json(dir.path(), "temple.dof"),
        serde_json::json!({
            "path": "temple.dof", "kind": "dof", "blocks": 4, "block_layout": "standard",
            "objects": 3, "collision_circles": 1, "lights": 4, "grid": [8, 2, 4], "voxels": 12,
            "links": 4, "rooms": 3, "floors": 2, "groups": 2, "unclaimed": 0,
            "header_region": "8010", "size": temple.len(),
        })
    );
    let line = info_json(dir.path(), "cave.dof");
    assert_eq!(line["block_layout"], "legacy");
    assert!(
        line["rooms"].is_null() && line["floors"].is_null(),
        "{line}"
    );
}

#[test]
fn the_signature_decides_before_the_name() {
    let dir = temp();
    let temple = second_writer::dof::temple().to_bytes();
    // A dungeon under a navmesh's, the dungeon list's and a route file's name.
    for name in ["nv_694e.nvm", "dungeoninfo.txt", "AINavData_32785.dat"] {
        write(dir.path(), name, &temple);
        let run = silknav(dir.path(), &["info", name]);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        assert!(
            run.stdout
                .starts_with(&format!("{name}: kind=dof blocks=4 ")),
            "{}",
            run.stdout
        );
        assert!(round_trip(dir.path(), name) == temple, "{name}");
    }
    // A route file or a dungeon list under another name is read as a navmesh, and fails as one.
    write(
        dir.path(),
        "routes.dat",
        &second_writer::ainav::corridor().to_bytes(),
    );
    let run = silknav(dir.path(), &["info", "routes.dat"]);
    assert_eq!(run.code, 2);
    assert!(
        run.error_line().starts_with("routes.dat: offset 0 (0x0): "),
        "{}",
        run.stderr
    );
}

#[test]
fn info_describes_dungeon_routes() {
    let dir = temp();
    let spec = second_writer::ainav::corridor();
    let bytes = spec.to_bytes();
    let cells: u32 = spec.blocks.iter().map(|b| b.cells).sum();
    let links: usize = spec.blocks.iter().map(|b| b.links.len()).sum();
    let centres: usize = spec.centres.iter().map(Vec::len).sum();
    assert_eq!(cells, 12, "the corridor's strips have 4, 3 and 5 cells");
    assert!(links > 0 && centres > 0);
    write(dir.path(), CORRIDOR_FILE, &bytes);
    // The name in another case, and naming another region.
    write(dir.path(), "ainavdata_32769.DAT", &bytes);
    let run = silknav(dir.path(), &["info", CORRIDOR_FILE, "ainavdata_32769.DAT"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let size = bytes.len();
    assert_eq!(
        run.stdout,
        format!(
            "{CORRIDOR_FILE}: kind=ainav region=8011 name_matches=yes centre_region=8011 \
             blocks=3 cells=12 links={links} edge_centres={centres} gap=0 trailing=0 \
             size={size}\n\
             ainavdata_32769.DAT: kind=ainav region=8011 name_matches=no centre_region=8011 \
             blocks=3 cells=12 links={links} edge_centres={centres} gap=0 trailing=0 \
             size={size}\n"
        )
    );
    assert_eq!(
        info_json(dir.path(), CORRIDOR_FILE),
        serde_json::json!({
            "path": CORRIDOR_FILE, "kind": "ainav", "region": "8011", "name_matches": true,
            "centre_region": "8011", "blocks": 3, "cells": 12, "links": links,
            "edge_centres": centres, "gap": 0, "trailing": 0, "size": size,
        })
    );
    assert_eq!(
        info_json(dir.path(), "ainavdata_32769.DAT")["name_matches"],
        false
    );

    // Bytes between and after the sections, and another region in the second section.
    let mut odd = spec.clone();
    odd.gap = vec![1, 2, 3];
    odd.trailing = vec![9; 7];
    odd.centre_region = 0x8012;
    write(dir.path(), CORRIDOR_FILE, &odd.to_bytes());
    let line = info_json(dir.path(), CORRIDOR_FILE);
    assert_eq!(
        (&line["gap"], &line["trailing"], &line["centre_region"]),
        (&Value::from(3), &Value::from(7), &Value::from("8012"))
    );
}

#[test]
fn info_describes_the_dungeon_list() {
    let dir = temp();
    write(dir.path(), "dungeoninfo.txt", DUNGEON_LIST);
    // Any case; rows without the service column are all loaded.
    let plain = b"3\t\"Dungeon\\a.dof\"\r\n4\t\"Dungeon\\b.dof\"";
    write(dir.path(), "DUNGEONINFO.TXT", plain);
    let run = silknav(dir.path(), &["info", "dungeoninfo.txt", "DUNGEONINFO.TXT"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "dungeoninfo.txt: kind=dungeoninfo rows=3 served=2 service_column=yes size={}\n\
             DUNGEONINFO.TXT: kind=dungeoninfo rows=2 served=2 service_column=no size={}\n",
            DUNGEON_LIST.len(),
            plain.len()
        )
    );
    assert_eq!(
        info_json(dir.path(), "dungeoninfo.txt"),
        serde_json::json!({
            "path": "dungeoninfo.txt", "kind": "dungeoninfo", "rows": 3, "served": 2,
            "service_column": true, "size": DUNGEON_LIST.len(),
        })
    );
    assert_eq!(
        info_json(dir.path(), "DUNGEONINFO.TXT")["service_column"],
        false
    );

    // Rows with and without the column: neither.
    let sub = dir.path().join("mixed");
    std::fs::create_dir(&sub).unwrap();
    write(
        &sub,
        "DungeonInfo.txt",
        b"1\t1\t\"a.dof\"\r\n2\t\"b.dof\"\r\n",
    );
    let run = silknav(dir.path(), &["info", "mixed/DungeonInfo.txt"]);
    assert_eq!(
        run.stdout,
        "mixed/DungeonInfo.txt: kind=dungeoninfo rows=2 served=2 service_column=- size=24\n"
    );
    assert!(info_json(dir.path(), "mixed/DungeonInfo.txt")["service_column"].is_null());
}

#[test]
fn dungeons_pack_back_byte_identical() {
    let dir = temp();
    let mut dungeons = second_writer::dof::dungeons();
    dungeons.extend((0..6).map(|seed| ("odd", second_writer::dof::odd(seed))));
    for (n, (what, spec)) in dungeons.iter().enumerate() {
        let name = format!("{what}{n}.dof");
        let original = spec.to_bytes();
        write(dir.path(), &name, &original);
        let packed = round_trip(dir.path(), &name);
        assert!(packed == original, "{name} changed in the round trip");
        let doc: Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("d.json")).unwrap()).unwrap();
        assert_eq!(doc["signature"], "JMXVDOF 0101", "{name}");
        assert_eq!(
            DungeonFile::parse(&packed).unwrap(),
            DungeonFile::parse(&original).unwrap()
        );
    }
}

#[test]
fn routes_pack_back_byte_identical() {
    let dir = temp();
    let mut files = vec![second_writer::ainav::corridor()];
    files.extend((0..6).map(second_writer::ainav::odd));
    for (n, spec) in files.iter().enumerate() {
        // Every region's name, so that each file is read as routes whatever it holds.
        let name = format!("AINavData_{}.dat", 32768 + n);
        let original = spec.to_bytes();
        write(dir.path(), &name, &original);
        let packed = round_trip(dir.path(), &name);
        assert!(packed == original, "{name} changed in the round trip");
        assert_eq!(
            AiNavData::parse(&packed).unwrap(),
            AiNavData::parse(&original).unwrap()
        );
    }
}

#[test]
fn dump_and_pack_through_standard_output_and_input() {
    let dir = temp();
    let temple = second_writer::dof::temple().to_bytes();
    let routes = second_writer::ainav::corridor().to_bytes();
    write(dir.path(), "temple.dof", &temple);
    write(dir.path(), CORRIDOR_FILE, &routes);
    for (file, original) in [("temple.dof", &temple), (CORRIDOR_FILE, &routes)] {
        let dump = silknav(dir.path(), &["dump", file]);
        assert_eq!(dump.code, 0, "{file}: {}", dump.stderr);
        assert!(dump.stdout.starts_with("{\n\""), "{}", dump.stdout);
        // The name of the output plays no part.
        let pack = silknav_with_stdin(
            dir.path(),
            &["pack", "-", "-o", "out.nvm", "--force"],
            dump.stdout.as_bytes(),
        );
        assert_eq!(pack.code, 0, "{file}: {}", pack.stderr);
        assert!(
            &std::fs::read(dir.path().join("out.nvm")).unwrap() == original,
            "{file}"
        );
    }
    // A dungeon read from standard input is told by its signature.
    let from_stdin = silknav_with_stdin(dir.path(), &["dump", "-"], &temple);
    assert_eq!(from_stdin.code, 0, "{}", from_stdin.stderr);
    assert_eq!(
        from_stdin.stdout,
        silknav(dir.path(), &["dump", "temple.dof"]).stdout
    );
    // Route bytes where JSON belongs get a one-line answer, not a JSON error.
    let pack = silknav_with_stdin(dir.path(), &["pack", "-", "-o", "x.dat"], &routes);
    assert_eq!(pack.code, 2);
    assert_eq!(
        pack.error_line(),
        "-: this is a binary file (AINavData?), not JSON (pack reads what dump writes)"
    );
    assert!(!dir.path().join("x.dat").exists());
}

#[test]
fn the_dungeon_list_has_no_json_form() {
    let dir = temp();
    write(dir.path(), "dungeoninfo.txt", DUNGEON_LIST);
    let run = silknav(dir.path(), &["dump", "dungeoninfo.txt", "-o", "list.json"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.error_line(),
        "dungeoninfo.txt: the dungeon list (dungeoninfo.txt) is a text file and has no JSON \
         form: edit it as text (`silknav lint` checks it)"
    );
    assert_eq!(run.stdout, "");
    assert!(!dir.path().join("list.json").exists(), "nothing is written");
}

#[test]
fn pack_names_the_bad_field_of_a_dungeon_and_of_routes() {
    let dir = temp();
    write_temple_and_corridor(dir.path());
    let dof = silknav(dir.path(), &["dump", "temple.dof"]).stdout;
    let edited = dof.replacen("\"room_index\":0", "\"room_index\":\"x\"", 1);
    assert_ne!(edited, dof);
    write(dir.path(), "bad.json", edited.as_bytes());
    let pack = silknav(dir.path(), &["pack", "bad.json", "-o", "out.dof"]);
    assert_eq!(pack.code, 2);
    assert_eq!(
        pack.error_line(),
        "bad.json: blocks[0].room_index: expected an integer -2147483648..=2147483647, found \"x\""
    );
    // A route document that lost a key is still one, so its reader names the key.
    let routes = silknav(dir.path(), &["dump", CORRIDOR_FILE]).stdout;
    let without: String = routes
        .lines()
        .filter(|l| !l.starts_with("\"unknown1\""))
        .collect();
    assert_ne!(without, routes.replace('\n', ""));
    write(dir.path(), "bad.json", without.as_bytes());
    let pack = silknav(dir.path(), &["pack", "bad.json", "-o", "out.dat"]);
    assert_eq!(pack.code, 2);
    assert!(
        pack.error_line().starts_with("bad.json: ") && pack.error_line().contains("unknown1"),
        "{}",
        pack.stderr
    );
    assert!(!dir.path().join("out.dof").exists() && !dir.path().join("out.dat").exists());
}

#[test]
fn clean_files_lint_clean() {
    let dir = temp();
    write_temple_and_corridor(dir.path());
    write(dir.path(), "dungeoninfo.txt", DUNGEON_LIST);
    let run = silknav(
        dir.path(),
        &["lint", "temple.dof", CORRIDOR_FILE, "dungeoninfo.txt"],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "temple.dof: 0 errors, 0 warnings\n{CORRIDOR_FILE}: 0 errors, 0 warnings\n\
             dungeoninfo.txt: 0 errors, 0 warnings\ntotal: 3 files, 0 errors, 0 warnings\n"
        )
    );
    let json = silknav(
        dir.path(),
        &[
            "lint",
            "--json",
            "temple.dof",
            CORRIDOR_FILE,
            "dungeoninfo.txt",
        ],
    );
    assert_eq!(json.code, 0);
    let lines: Vec<Value> = json
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let regions: Vec<&Value> = lines.iter().map(|l| &l["region"]).collect();
    assert_eq!(regions, [&Value::Null, &Value::from("8011"), &Value::Null]);
    for line in &lines {
        assert_eq!(line["errors"], 0, "{line}");
        assert!(line["directions"].is_null(), "{line}");
    }

    // The legacy layout is a warning: exit 0.
    write(
        dir.path(),
        "cave.dof",
        &second_writer::dof::legacy_cave().to_bytes(),
    );
    let run = silknav(dir.path(), &["lint", "cave.dof"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout.starts_with("cave.dof: warning D019: "),
        "{}",
        run.stdout
    );
    assert!(run.stdout.ends_with("total: 1 file, 0 errors, 1 warning\n"));
}

#[test]
fn errors_exit_1_with_their_codes() {
    let dir = temp();
    let mut temple = second_writer::dof::temple();
    temple.blocks[0].connected[0] = 9;
    write(dir.path(), "bad.dof", &temple.to_bytes());
    let mut corridor = second_writer::ainav::corridor();
    corridor.int0 = 1;
    write(dir.path(), CORRIDOR_FILE, &corridor.to_bytes());
    // Dungeon 9 loaded twice.
    let mut list = DUNGEON_LIST.to_vec();
    list.extend_from_slice(b"1\t9\t\"Dungeon\\other.dof\"\r\n");
    write(dir.path(), "dungeoninfo.txt", &list);

    for (file, code, location) in [
        ("bad.dof", "D001", "blocks[0].connected[0]"),
        (CORRIDOR_FILE, "A001", "unknown0"),
        ("dungeoninfo.txt", "I001", "lines[4].id"),
    ] {
        let run = silknav(dir.path(), &["lint", file]);
        assert_eq!(run.code, 1, "{file}: {}{}", run.stdout, run.stderr);
        let lines: Vec<&str> = run.stdout.lines().collect();
        assert_eq!(lines.len(), 3, "{}", run.stdout);
        assert!(
            lines[0].starts_with(&format!("{file}: error {code}: {location}: ")),
            "{}",
            run.stdout
        );
        assert_eq!(lines[1], format!("{file}: 1 error, 0 warnings"));
        assert_eq!(lines[2], "total: 1 file, 1 error, 0 warnings");

        let json = silknav(dir.path(), &["lint", "--json", file]);
        assert_eq!(json.code, 1);
        let line: Value = serde_json::from_str(&json.stdout).unwrap();
        assert_eq!(line["errors"], 1);
        assert_eq!(line["findings"][0]["code"], code);
        assert_eq!(line["findings"][0]["severity"], "error");
        assert_eq!(line["findings"][0]["location"], location);
    }
}

#[test]
fn damaged_files_name_the_offset_and_the_section() {
    let dir = temp();
    let spec = second_writer::dof::temple();
    let (bytes, layout) = spec.to_bytes_with_layout();
    // Cut inside the last section, the groups.
    let &(_, groups_start, groups_end) = layout.sections.last().unwrap();
    assert_eq!(groups_end, bytes.len(), "the groups come last");
    write(dir.path(), "cut.dof", &bytes[..groups_end - 2]);
    for command in ["info", "dump", "lint"] {
        let run = silknav(dir.path(), &[command, "cut.dof"]);
        assert_eq!(run.code, 2, "{command}: {}", run.stdout);
        let line = run.error_line();
        assert!(line.starts_with("cut.dof: offset "), "{command}: {line}");
        assert!(line.contains("groups"), "{command}: {line}");
        let offset: usize = line["cut.dof: offset ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            (groups_start..groups_end).contains(&offset),
            "{command}: {line}"
        );
    }

    let routes = second_writer::ainav::corridor().to_bytes();
    write(dir.path(), CORRIDOR_FILE, &routes[..routes.len() - 3]);
    let run = silknav(dir.path(), &["lint", CORRIDOR_FILE]);
    assert_eq!(run.code, 2);
    assert!(
        run.error_line()
            .starts_with(&format!("{CORRIDOR_FILE}: offset ")),
        "{}",
        run.stderr
    );

    write(
        dir.path(),
        "dungeoninfo.txt",
        b"// list\r\n1\t1\tDungeon\\a.dof\r\n",
    );
    let run = silknav(dir.path(), &["info", "dungeoninfo.txt"]);
    assert_eq!(run.code, 2);
    let line = run.error_line();
    assert!(
        line.starts_with("dungeoninfo.txt: offset ") && line.contains("lines[1]"),
        "{line}"
    );
}

#[test]
fn files_inside_an_archive() {
    let dir = temp();
    let data = dir.path().join("data");
    std::fs::create_dir_all(data.join("dungeon")).unwrap();
    std::fs::create_dir_all(data.join("navmesh")).unwrap();
    write(&data.join("dungeon"), "dungeoninfo.txt", DUNGEON_LIST);
    write(
        &data.join("dungeon"),
        "temple.dof",
        &second_writer::dof::temple().to_bytes(),
    );
    write(
        &data.join("navmesh"),
        CORRIDOR_FILE,
        &second_writer::ainav::corridor().to_bytes(),
    );
    let run = silknav(dir.path(), &["pk2", "pack", "data", "-o", "Data.pk2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);

    for inner in [
        "dungeon/dungeoninfo.txt",
        "dungeon/temple.dof",
        &format!("navmesh/{CORRIDOR_FILE}"),
    ] {
        let on_disk = format!("data/{inner}");
        let inside = format!("Data.pk2:{inner}");
        for command in [
            &["info"][..],
            &["info", "--json"],
            &["lint"],
            &["lint", "--json"],
        ] {
            let a = silknav(dir.path(), &[command, &[on_disk.as_str()]].concat());
            let b = silknav(dir.path(), &[command, &[inside.as_str()]].concat());
            assert_eq!(a.code, 0, "{command:?} {on_disk}: {}", a.stderr);
            assert_eq!(b.code, 0, "{command:?} {inside}: {}", b.stderr);
            assert_eq!(b.stdout, a.stdout.replace(&on_disk, &inside), "{command:?}");
        }
    }
    // Named with backslashes and in another case, as the archive's paths may be.
    let run = silknav(dir.path(), &["info", "Data.pk2:DUNGEON\\DungeonInfo.TXT"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("Data.pk2:DUNGEON\\DungeonInfo.TXT: kind=dungeoninfo rows=3 served=2 "),
        "{}",
        run.stdout
    );
    // Dumped from the archive, packed back to the file's bytes.
    let packed = round_trip(dir.path(), &format!("Data.pk2:navmesh/{CORRIDOR_FILE}"));
    assert!(packed == second_writer::ainav::corridor().to_bytes());
}

/// A world's lint follows its dungeons: a generated world lints clean, and a block mesh or a
/// block's resource that is missing is an X014 under the file that names it, at its path
/// under the data root.
#[test]
fn world_lint_names_the_missing_dungeon_file_under_the_file_naming_it() {
    let dir = temp();
    let world = gen_world(dir.path(), "w", 2, "1x1");
    let clean = silknav(dir.path(), &["lint", "w"]);
    assert_eq!(clean.code, 0, "{}{}", clean.stdout, clean.stderr);
    assert!(
        clean.stdout.ends_with(", 0 errors, 0 warnings\n"),
        "{}",
        clean.stdout
    );

    std::fs::remove_file(world.join("res/dungeon/gen/corridor.bms")).unwrap();
    let run = silknav(dir.path(), &["lint", "w"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let shown = Path::new("w")
        .join("res/dungeon/gen/corridor.bsr")
        .display()
        .to_string();
    assert!(
        run.stdout.contains(&format!(
            "{shown}: error X014: collision_mesh: res\\dungeon\\gen\\corridor.bms: no such file \
             under the data root\n{shown}: 1 error, 0 warnings\n"
        )),
        "{}",
        run.stdout
    );

    std::fs::remove_file(world.join("res/dungeon/gen/corridor.bsr")).unwrap();
    let run = silknav(dir.path(), &["lint", "w", "--json"]);
    assert_eq!(run.code, 1);
    let dof = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["path"].as_str().unwrap().ends_with(".dof"))
        .expect("an entry for the layout naming the resource");
    assert_eq!(dof["findings"][0]["code"], "X014", "{dof}");
}
