//! `silknav gen`: deterministic worlds, the library's bytes, no clobbering, bad options.

use crate::support::*;
use silknav::worldgen::{generate, GenOptions, Landscape};

#[test]
fn the_same_seed_and_size_give_the_same_bytes() {
    let dir = temp();
    let a = gen_world(dir.path(), "a", 5, "2x1");
    let b = gen_world(dir.path(), "b", 5, "2x1");
    let c = gen_world(dir.path(), "c", 6, "2x1");
    let nav = |w: &std::path::Path| files_in(&w.join("navmesh"));
    let (fa, fb, fc) = (nav(&a), nav(&b), nav(&c));
    let names: Vec<&str> = fa.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "AINavData_32769.dat",
            "AINavData_32770.dat",
            "mapinfo.mfo",
            "nv_4080.nvm",
            "nv_4081.nvm",
            "object.ifo",
            "tile2d.ifo"
        ]
    );
    assert!(fa == fb, "two runs with seed 5 differ");
    assert!(
        fa.iter().zip(&fc).any(|(x, y)| x.1 != y.1),
        "seeds 5 and 6 gave the same world"
    );
}

#[test]
fn writes_what_the_library_generates_and_says_so() {
    let dir = temp();
    let run = silknav(
        dir.path(),
        &[
            "gen", "--out", "w", "--seed", "9", "--size", "1x2", "--origin", "3,4",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let expected = generate(&GenOptions {
        seed: 9,
        width: 1,
        height: 2,
        origin: (3, 4),
        landscape: Landscape::Rugged,
    })
    .unwrap()
    .into_files();
    let objects = expected.object_file_bytes().unwrap();
    let dungeons = expected.dungeons.file_bytes().unwrap();
    let written = files_in(&dir.path().join("w").join("navmesh"));
    assert!(
        written == navmesh_folder(&expected),
        "the folder is not the library's world"
    );
    let mut bytes: usize = 0;
    let others = objects
        .iter()
        .map(|(name, b)| (name.to_string(), b))
        .chain(dungeons.iter().map(|(name, b)| (name.clone(), b)));
    for (name, file) in others {
        let path = dir.path().join("w").join(name.replace('\\', "/"));
        assert_eq!(&std::fs::read(&path).unwrap(), file, "{}", path.display());
        bytes += file.len();
    }
    // The routes are in the navmesh folder, counted once.
    bytes += expected
        .to_files()
        .unwrap()
        .iter()
        .map(|(_, b)| b.len())
        .sum::<usize>();
    let files = 5 + objects.len() + dungeons.len();
    let meshes = objects.len();
    let dungeon_files = dungeons.len();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines,
        [
            format!(
                "w: wrote {files} files, {bytes} bytes: 2 navmeshes nv_0403.nvm..nv_0503.nvm, \
                 mapinfo.mfo, object.ifo, tile2d.ifo in navmesh/; {meshes} object meshes; \
                 2 dungeons ({dungeon_files} files)"
            ),
            "w: seed 9, 1x2 regions from region x 3 z 4; world x 5760..7680, z 7680..11520"
                .to_owned()
        ]
    );
}

#[test]
fn open_writes_the_librarys_open_landscape() {
    let dir = temp();
    let args = [
        "gen", "--out", "w", "--seed", "4", "--size", "1x1", "--open",
    ];
    let run = silknav(dir.path(), &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let options = |landscape| GenOptions {
        seed: 4,
        width: 1,
        height: 1,
        origin: silknav::worldgen::DEFAULT_ORIGIN,
        landscape,
    };
    let written = files_in(&dir.path().join("w").join("navmesh"));
    for (landscape, same) in [(Landscape::Open, true), (Landscape::Rugged, false)] {
        let expected = navmesh_folder(&generate(&options(landscape)).unwrap().into_files());
        assert_eq!(written == expected, same, "{landscape:?}");
    }
}

#[test]
fn defaults_are_seed_1_and_2x2_at_the_default_origin() {
    let dir = temp();
    let run = silknav(dir.path(), &["gen", "--out", "d"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let explicit = gen_world(dir.path(), "e", 1, "2x2");
    assert!(files_in(&dir.path().join("d/navmesh")) == files_in(&explicit.join("navmesh")));
    assert!(
        run.stdout
            .contains("seed 1, 2x2 regions from region x 128 z 64"),
        "{}",
        run.stdout
    );
}

#[test]
fn existing_files_are_not_replaced_without_force() {
    let dir = temp();
    let w = gen_world(dir.path(), "w", 1, "1x1");
    let original = std::fs::read(w.join("navmesh/nv_4080.nvm")).unwrap();
    std::fs::write(w.join("navmesh/nv_4080.nvm"), b"mine").unwrap();
    let again = silknav(dir.path(), &["gen", "--out", "w", "--size", "1x1"]);
    assert_eq!(again.code, 2);
    assert_eq!(
        again.error_line(),
        "w/navmesh/nv_4080.nvm: already exists (use --force to replace it)"
    );
    assert_eq!(again.stdout, "");
    assert_eq!(
        std::fs::read(w.join("navmesh/nv_4080.nvm")).unwrap(),
        b"mine"
    );

    let forced = silknav(
        dir.path(),
        &["gen", "--out", "w", "--size", "1x1", "--force"],
    );
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(
        std::fs::read(w.join("navmesh/nv_4080.nvm")).unwrap(),
        original
    );
}

#[test]
fn options_that_describe_no_world_exit_2_with_the_generators_message() {
    let dir = temp();
    let empty = silknav(dir.path(), &["gen", "--out", "w", "--size", "0x2"]);
    assert_eq!(empty.code, 2);
    assert_eq!(empty.error_line(), "size 0x2 has no regions");
    let far = silknav(
        dir.path(),
        &["gen", "--out", "w", "--size", "2x1", "--origin", "255,0"],
    );
    assert_eq!(far.code, 2);
    assert_eq!(
        far.error_line(),
        "size 2x1 at origin 255,0 reaches region x 256 z 0; x must stay ≤ 255 and z ≤ 127"
    );
    assert!(!dir.path().join("w").exists(), "nothing is written");
    for bad in [
        &["--size", "300x1"][..],
        &["--size", "2"],
        &["--origin", "1x2"],
        &["--seed", "-1"],
    ] {
        let mut args = vec!["gen", "--out", "w"];
        args.extend_from_slice(bad);
        let run = silknav(dir.path(), &args);
        assert_eq!(run.code, 2, "{bad:?}");
        assert!(
            run.stderr.contains("For more information, try '--help'."),
            "{bad:?}: {}",
            run.stderr
        );
    }
}

/// The files of a world's navmesh folder, by name: the navmeshes, the companions and the
/// dungeons' routes.
fn navmesh_folder(files: &silknav::files::WorldFiles) -> Vec<(String, Vec<u8>)> {
    let mut out = files.to_files().unwrap();
    for (path, bytes) in files.dungeons.file_bytes().unwrap() {
        if let Some(name) = path.strip_prefix("navmesh\\") {
            out.push((name.to_owned(), bytes));
        }
    }
    out.sort();
    out
}
