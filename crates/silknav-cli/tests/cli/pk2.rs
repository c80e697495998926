//! `silknav pk2 pack|ls|extract`: a generated world packed, listed and extracted gives the
//! same bytes; damaged archives and unsafe targets are refused with one line.

use crate::support::*;
use std::path::Path;

/// Every file below `dir`, by `/`-joined relative path, sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) {
        for item in std::fs::read_dir(dir).unwrap() {
            let item = item.unwrap();
            let name = item.file_name().to_string_lossy().into_owned();
            let path = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            };
            if item.file_type().unwrap().is_dir() {
                walk(&item.path(), &path, out);
            } else {
                out.push((path, std::fs::read(item.path()).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, "", &mut out);
    out.sort();
    out
}

fn packed_world(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let world = gen_world(dir, "w", 3, "2x2");
    let run = silknav(dir, &["pk2", "pack", "w", "-o", "Data.pk2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.starts_with("packed "), "{}", run.stderr);
    tree(&world)
}

#[test]
fn a_packed_world_lists_every_file_and_extracts_to_the_same_bytes() {
    let dir = temp();
    let files = packed_world(dir.path());
    assert!(
        files.iter().any(|(p, _)| p.starts_with("res/")),
        "the generated world has object meshes"
    );
    let run = silknav(dir.path(), &["pk2", "ls", "Data.pk2", "--recursive"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let listed: Vec<(String, u64)> = run
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("file "))
        .map(|l| {
            let (size, path) = l.split_once(' ').unwrap();
            (path.to_owned(), size.parse().unwrap())
        })
        .collect();
    let expected: Vec<(String, u64)> = files
        .iter()
        .map(|(p, b)| (p.clone(), b.len() as u64))
        .collect();
    assert_eq!(listed, expected);
    let top = silknav(dir.path(), &["pk2", "ls", "Data.pk2"]);
    assert_eq!(top.stdout, "dir dungeon\ndir navmesh\ndir res\n");

    let run = silknav(
        dir.path(),
        &["pk2", "extract", "Data.pk2", "/", "-o", "out"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(tree(&dir.path().join("out")), files);

    // One file, named in another case and with backslashes.
    let run = silknav(
        dir.path(),
        &[
            "pk2",
            "extract",
            "Data.pk2",
            "NAVMESH\\MAPINFO.MFO",
            "-o",
            "one",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let one = tree(&dir.path().join("one"));
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].0, "navmesh/mapinfo.mfo");
    assert_eq!(
        Some(&one[0]),
        files.iter().find(|(p, _)| p == "navmesh/mapinfo.mfo")
    );
}

#[test]
fn ls_json_gives_one_object_per_entry() {
    let dir = temp();
    let files = packed_world(dir.path());
    let run = silknav(dir.path(), &["pk2", "ls", "Data.pk2", "navmesh", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let navmesh: Vec<&(String, Vec<u8>)> = files
        .iter()
        .filter(|(p, _)| p.starts_with("navmesh/"))
        .collect();
    let lines: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), navmesh.len());
    for (line, (path, bytes)) in lines.iter().zip(navmesh) {
        assert_eq!(line["path"], path.as_str());
        assert_eq!(line["kind"], "file");
        assert_eq!(line["size"], bytes.len() as u64);
        assert!(line["offset"].as_u64().unwrap() >= 256);
    }
}

#[test]
fn extract_and_pack_refuse_to_replace_files_without_force() {
    let dir = temp();
    packed_world(dir.path());
    let again = silknav(dir.path(), &["pk2", "pack", "w", "-o", "Data.pk2"]);
    assert_eq!(again.code, 2);
    assert!(
        again.error_line().contains("already exists"),
        "{}",
        again.stderr
    );
    assert_eq!(
        silknav(
            dir.path(),
            &["pk2", "pack", "w", "-o", "Data.pk2", "--force"]
        )
        .code,
        0
    );

    let out = dir.path().join("out/navmesh");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("mapinfo.mfo"), b"mine").unwrap();
    let run = silknav(
        dir.path(),
        &["pk2", "extract", "Data.pk2", "navmesh", "-o", "out"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.error_line().contains("mapinfo.mfo: already exists"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read(out.join("mapinfo.mfo")).unwrap(), b"mine");
    assert_eq!(
        names_in(&out),
        ["mapinfo.mfo"],
        "nothing was written before the refusal"
    );
    let run = silknav(
        dir.path(),
        &[
            "pk2", "extract", "Data.pk2", "navmesh", "-o", "out", "--force",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_ne!(std::fs::read(out.join("mapinfo.mfo")).unwrap(), b"mine");
}

#[test]
fn damaged_archives_wrong_keys_and_missing_paths_are_one_line_errors() {
    let dir = temp();
    packed_world(dir.path());
    let bytes = std::fs::read(dir.path().join("Data.pk2")).unwrap();
    std::fs::write(dir.path().join("short.pk2"), &bytes[..1000]).unwrap();
    let run = silknav(dir.path(), &["pk2", "ls", "short.pk2"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.error_line(),
        "short.pk2: offset 256 (0x100): unexpected end of archive (needed 2560 bytes, 744 left)"
    );
    let run = silknav(
        dir.path(),
        &["pk2", "ls", "Data.pk2", "--pk2-key", "other key"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.error_line().contains("offset 35 (0x23): wrong key"),
        "{}",
        run.stderr
    );
    let run = silknav(dir.path(), &["pk2", "ls", "Data.pk2", "--pk2-key", "abc"]);
    assert_eq!(run.code, 2);
    assert!(run.error_line().contains("--pk2-key"), "{}", run.stderr);
    let run = silknav(
        dir.path(),
        &["pk2", "extract", "Data.pk2", "nothing", "-o", "x"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.error_line().contains("nothing: no such entry"),
        "{}",
        run.stderr
    );
    assert!(!dir.path().join("x").exists());
}

#[test]
fn pack_refuses_links() {
    #[cfg(unix)]
    {
        let dir = temp();
        let world = gen_world(dir.path(), "w", 3, "1x1");
        std::os::unix::fs::symlink("/etc", world.join("etc")).unwrap();
        let run = silknav(dir.path(), &["pk2", "pack", "w", "-o", "Data.pk2"]);
        assert_eq!(run.code, 2);
        assert!(
            run.error_line().contains("does not follow links"),
            "{}",
            run.stderr
        );
        assert!(!dir.path().join("Data.pk2").exists());
    }
}
