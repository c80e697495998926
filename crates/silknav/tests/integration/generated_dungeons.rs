//! The dungeons of generated worlds as files of a data root: written and read back through
//! the chain `dungeoninfo.txt` → `.dof` → `.bsr` → `.bms` and `AINavData`, from a folder and
//! from an archive, and world lint's dungeon checks.

use jmxv::nvm::lint::Severity;
use jmxv::RegionId;
use silknav::files::{Overwrite, WorldFiles, DUNGEON_INFO_PATH};
use silknav::lint::lint_world;
use silknav_testkit::pk2::pack_folder;

fn world() -> WorldFiles {
    crate::generated_files(5, 1, 1)
}

/// The findings of world lint about dungeon files, as (file, code).
fn dungeon_findings(files: &WorldFiles) -> Vec<(String, &'static str, Severity)> {
    let d = &files.dungeons;
    let is_dungeon_file = |name: &str| {
        name == DUNGEON_INFO_PATH
            || d.layouts.contains_key(name)
            || d.resources.contains_key(name)
            || d.meshes.contains_key(name)
            || name.starts_with("AINavData_")
            || name.ends_with(".dof")
            || name.ends_with(".bsr")
    };
    lint_world(files)
        .all()
        .filter(|(file, _)| is_dungeon_file(file))
        .map(|(file, f)| (file, f.code, f.severity))
        .collect()
}

#[test]
fn dungeon_files_round_trip_through_a_data_root_and_an_archive() {
    let files = world();
    let d = &files.dungeons;
    assert_eq!(d.layouts.len(), 2);
    assert_eq!(d.routes.len(), 2);
    assert_eq!(
        d.routes.keys().copied().collect::<Vec<_>>(),
        [RegionId(0x8001), RegionId(0x8002)]
    );
    assert_eq!(d.resources.len(), d.meshes.len());
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("world");
    files.write_data_root(&root, Overwrite::Refuse).unwrap();
    assert!(root.join("dungeon/dungeoninfo.txt").is_file());
    assert!(root.join("navmesh/AINavData_32769.dat").is_file());
    assert!(root.join("dungeon/gen_catacomb/gen_catacomb.dof").is_file());
    assert_eq!(WorldFiles::read_data_root(&root).unwrap(), files);
    let archive = dir.path().join("Data.pk2");
    std::fs::write(&archive, pack_folder(&root)).unwrap();
    assert_eq!(WorldFiles::read_dir(&archive).unwrap(), files);

    // Names in another case are found, as the game's archives spell them.
    std::fs::rename(
        root.join("dungeon/dungeoninfo.txt"),
        root.join("dungeon/DungeonInfo.TXT"),
    )
    .unwrap();
    std::fs::rename(
        root.join("navmesh/AINavData_32770.dat"),
        root.join("navmesh/AINAVDATA_32770.DAT"),
    )
    .unwrap();
    assert_eq!(WorldFiles::read_data_root(&root).unwrap(), files);

    // A damaged layout is an error naming it.
    let dof = root.join("dungeon/gen_cave/gen_cave.dof");
    let bytes = std::fs::read(&dof).unwrap();
    std::fs::write(&dof, &bytes[..bytes.len() / 2]).unwrap();
    let error = WorldFiles::read_data_root(&root).unwrap_err().to_string();
    assert!(error.contains("gen_cave.dof"), "{error}");
}

#[test]
fn world_lint_follows_the_dungeon_chain() {
    let files = world();
    assert_eq!(dungeon_findings(&files), []);

    let catacomb = "dungeon\\gen_catacomb\\gen_catacomb.dof".to_owned();
    let region = RegionId(0x8001);
    let first_bsr =
        String::from_utf8(files.dungeons.layouts[&catacomb].blocks[0].path.clone()).unwrap();

    let mut no_layout = files.clone();
    no_layout.dungeons.layouts.remove(&catacomb);
    assert_eq!(
        dungeon_findings(&no_layout),
        [(DUNGEON_INFO_PATH.to_owned(), "X014", Severity::Error)]
    );

    let mut no_resource = files.clone();
    no_resource.dungeons.resources.remove(&first_bsr);
    let found = dungeon_findings(&no_resource);
    assert_eq!(
        found[0],
        (catacomb.clone(), "X014", Severity::Error),
        "{found:?}"
    );
    // Reported once per missing file, from each layout that names it.
    assert!(
        found.iter().all(|f| f.1 == "X014") && found.len() <= 2,
        "{found:?}"
    );

    let mut no_mesh = files.clone();
    let bms = first_bsr.replace(".bsr", ".bms");
    assert!(no_mesh.dungeons.meshes.remove(&bms).is_some());
    assert_eq!(
        dungeon_findings(&no_mesh),
        [(first_bsr.clone(), "X014", Severity::Error)]
    );

    let mut no_routes = files.clone();
    no_routes.dungeons.routes.remove(&region);
    assert_eq!(
        dungeon_findings(&no_routes),
        [(DUNGEON_INFO_PATH.to_owned(), "X015", Severity::Warning)]
    );

    // Routes made on other meshes: compared with the blocks' meshes.
    let mut other_meshes = files.clone();
    other_meshes
        .dungeons
        .routes
        .get_mut(&region)
        .unwrap()
        .blocks[3]
        .edge_count += 1;
    let found = dungeon_findings(&other_meshes);
    assert!(
        found.contains(&("AINavData_32769.dat".to_owned(), "A020", Severity::Warning)),
        "{found:?}"
    );

    // Each file is linted on its own too.
    let mut bad_links = files.clone();
    bad_links
        .dungeons
        .layouts
        .get_mut(&catacomb)
        .unwrap()
        .links
        .pop();
    assert!(dungeon_findings(&bad_links).contains(&(catacomb, "D003", Severity::Error)));
}

/// Whatever blocks a seed's dungeons use, the files written are the files read back: no
/// block file is written that no layout names.
#[test]
fn every_seeds_dungeons_read_back_as_written() {
    for seed in 1..=6 {
        let files = crate::generated_files(seed, 1, 1);
        let dir = tempfile::tempdir().unwrap();
        files
            .write_data_root(dir.path(), Overwrite::Refuse)
            .unwrap();
        let back = WorldFiles::read_data_root(dir.path()).unwrap();
        assert_eq!(back.dungeons, files.dungeons, "seed {seed}");
    }
}
