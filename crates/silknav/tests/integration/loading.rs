//! Loading world folders: one listing decides which file is which, every file left out is
//! reported with its reason and path, memory and folders agree, and the thread cap holds.

use jmxv::mfo::MapInfo;
use jmxv::nvm::NavMesh;
use jmxv::RegionId;
use silknav::build::{build_world, RegionInput};
use silknav::files::{FolderFile, LoadError, Overwrite, WorldFiles, WorldSource};
use silknav::worldgen::{generate, GenOptions, Landscape, DEFAULT_ORIGIN};
use silknav::{
    LoadFinding, LoadFindingKind, LoadOptions, LoadReport, PathIndex, PathOptions, Position,
    Surface, World,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const A: RegionId = RegionId(0x0403);
const B: RegionId = RegionId(0x0404);

fn meshes() -> BTreeMap<RegionId, NavMesh> {
    build_world(&[RegionInput::open(A), RegionInput::open(B)])
}

/// A folder holding these (name, bytes) files.
fn folder(files: &[(String, Vec<u8>)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    dir
}

fn navmesh_files() -> Vec<(String, Vec<u8>)> {
    meshes()
        .iter()
        .map(|(r, m)| (r.file_name(), m.to_vec().unwrap()))
        .collect()
}

fn load_memory(files: &[(String, Vec<u8>)]) -> Result<World, LoadError> {
    World::from_memory(files.iter().map(|(n, b)| (n.as_str(), b.as_slice())))
}

/// The findings with each path reduced to its file name, as a folder and memory both name it.
fn by_file_name(report: &LoadReport) -> Vec<(RegionId, String, LoadFindingKind)> {
    report
        .findings
        .iter()
        .map(|f| {
            let name = f.path.file_name().unwrap().to_string_lossy().into_owned();
            (f.region, name, f.kind.clone())
        })
        .collect()
}

/// Every answer `cell_at` and `height_at` give on a coarse grid over both regions.
fn answers(world: &World) -> Vec<(Option<silknav::CellRef>, Option<u32>)> {
    let mut out = Vec::new();
    for region in [A, B] {
        for i in 0..24 {
            let p = Position::new(region, 5.0 + 80.0 * i as f32, 1915.0 - 79.0 * i as f32);
            out.push((
                world.cell_at(p, Surface::Highest),
                world.height_at(p, Surface::Terrain).map(f32::to_bits),
            ));
        }
    }
    out
}

#[test]
fn names_that_differ_only_in_case_are_an_error_naming_both_files() {
    let mut files = navmesh_files();
    files.push(("NV_0403.NVM".to_owned(), files[0].1.clone()));
    let dir = folder(&files);
    let check = |err: LoadError| {
        let LoadError::DuplicateName {
            file,
            first,
            second,
        } = &err
        else {
            panic!("{err:?}");
        };
        assert_eq!(*file, FolderFile::Navmesh(A));
        assert_eq!(
            (first.file_name().unwrap(), second.file_name().unwrap()),
            ("NV_0403.NVM".as_ref(), "nv_0403.nvm".as_ref())
        );
        let text = err.to_string();
        assert!(
            text.contains("NV_0403.NVM") && text.contains("nv_0403.nvm"),
            "{text}"
        );
    };
    check(World::load(dir.path()).unwrap_err());
    check(WorldFiles::read_dir(dir.path()).unwrap_err());
    check(load_memory(&files).unwrap_err());

    // Companions too.
    let mapinfo = MapInfo::with_regions([A, B]).to_vec();
    let mut files = navmesh_files();
    files.push(("mapinfo.mfo".to_owned(), mapinfo.clone()));
    files.push(("MapInfo.MFO".to_owned(), mapinfo));
    let dir = folder(&files);
    for err in [
        World::load(dir.path()).unwrap_err(),
        WorldFiles::read_dir(dir.path()).unwrap_err(),
        load_memory(&files).unwrap_err(),
    ] {
        assert!(
            matches!(
                err,
                LoadError::DuplicateName {
                    file: FolderFile::MapInfo,
                    ..
                }
            ),
            "{err:?}"
        );
    }
}

#[test]
fn dungeon_files_are_reported_with_their_path_not_loaded() {
    let mut files = navmesh_files();
    let dungeon = RegionId(0x8001);
    files.push(("NV_8001.NVM".to_owned(), files[0].1.clone()));
    let dir = folder(&files);
    let world = World::load(dir.path()).unwrap();
    assert_eq!(world.regions().collect::<Vec<_>>(), [A, B]);
    assert!(!world.contains(dungeon));
    assert_eq!(
        world.load_report().findings,
        [LoadFinding {
            region: dungeon,
            path: dir.path().join("NV_8001.NVM"),
            kind: LoadFindingKind::Dungeon,
        }]
    );
    assert_eq!(
        world.load_report().findings[0].to_string(),
        format!(
            "{}: region 8001 is a dungeon id (bit 15 set); dungeons come from dungeoninfo.txt, not navmesh files; not loaded",
            dir.path().join("NV_8001.NVM").display()
        )
    );
    // Reading the folder for lint keeps every file, the dungeon's too.
    let read = WorldFiles::read_dir(dir.path()).unwrap();
    assert!(read.navmeshes.contains_key(&dungeon));

    // Navmeshes handed over directly: the same finding, named by the file name.
    let meshes = meshes();
    let world = World::from_navmeshes([(A, &meshes[&A]), (dungeon, &meshes[&B])]);
    assert_eq!(world.regions().collect::<Vec<_>>(), [A]);
    assert_eq!(
        by_file_name(world.load_report()),
        [(dungeon, "nv_8001.nvm".to_owned(), LoadFindingKind::Dungeon)]
    );
}

#[test]
fn regions_given_twice_are_reported() {
    let meshes = meshes();
    let world = World::from_navmeshes([(B, &meshes[&B]), (A, &meshes[&A]), (B, &meshes[&A])]);
    assert_eq!(world.regions().collect::<Vec<_>>(), [A, B]);
    assert_eq!(
        by_file_name(world.load_report()),
        [(B, B.file_name(), LoadFindingKind::Duplicate)]
    );
    // The first one given is the one loaded: B's own mesh, not A's.
    let reference = World::from_navmeshes([(A, &meshes[&A]), (B, &meshes[&B])]);
    assert_eq!(answers(&world), answers(&reference));
}

#[test]
fn files_mapinfo_does_not_enable_are_reported_as_found() {
    let mut files = navmesh_files();
    files[1].0 = "NV_0404.NVM".to_owned();
    files.push((
        "mapinfo.mfo".to_owned(),
        MapInfo::with_regions([A]).to_vec(),
    ));
    let dir = folder(&files);
    let world = World::load(dir.path()).unwrap();
    assert_eq!(world.regions().collect::<Vec<_>>(), [A]);
    let report = world.load_report();
    assert!(report.has_mapinfo);
    assert_eq!(
        report.findings,
        [LoadFinding {
            region: B,
            path: dir.path().join("NV_0404.NVM"),
            kind: LoadFindingKind::DisabledByMapinfo,
        }]
    );
    assert_eq!(report.disabled_files().collect::<Vec<_>>(), [B]);
}

#[test]
fn regions_mapinfo_enables_without_a_file_are_reported() {
    let far = RegionId::new(9, 9);
    let mut files = navmesh_files();
    files.push((
        "mapinfo.mfo".to_owned(),
        MapInfo::with_regions([A, B, far]).to_vec(),
    ));
    let dir = folder(&files);
    let world = World::load(dir.path()).unwrap();
    assert_eq!(world.regions().collect::<Vec<_>>(), [A, B]);
    assert_eq!(
        world.load_report().findings,
        [LoadFinding {
            region: far,
            path: dir.path().join("nv_0909.nvm"),
            kind: LoadFindingKind::MissingFile,
        }]
    );
    assert_eq!(
        world.load_report().missing_files().collect::<Vec<_>>(),
        [far]
    );
}

#[test]
fn unusable_parts_of_a_file_are_typed_region_issues() {
    let mut meshes = meshes();
    let mesh = meshes.get_mut(&A).unwrap();
    mesh.internal_edges[0].dir[0] = 9;
    let cell = mesh.internal_edges[0].cell[0];
    let world = World::from_navmeshes(meshes.iter().map(|(r, m)| (*r, m)));
    let issues: Vec<_> = world
        .load_report()
        .findings_where(|k| matches!(k, LoadFindingKind::UnlinkableEdge { .. }))
        .collect();
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].region, A);
    assert_eq!(
        issues[0].kind,
        LoadFindingKind::UnlinkableEdge {
            edge: silknav::world::EdgeId::Internal(0),
            cell,
            direction: 9,
        }
    );
    assert_eq!(
        issues[0].to_string(),
        format!("nv_0403.nvm: Internal(0): cell {cell} / direction 9 cannot be linked")
    );
}

#[test]
fn memory_and_folder_load_the_same_world() {
    let mut files = navmesh_files();
    files[0].0 = "Nv_0403.nvm".to_owned();
    files.push(("nv_8002.nvm".to_owned(), files[1].1.clone()));
    files.push((
        "MAPINFO.MFO".to_owned(),
        MapInfo::with_regions([A, RegionId::new(7, 7)]).to_vec(),
    ));
    files.push(("notes.txt".to_owned(), b"not a world file".to_vec()));
    let dir = folder(&files);
    let from_folder = World::load(dir.path()).unwrap();
    let from_memory = load_memory(&files).unwrap();
    assert_eq!(
        from_folder.regions().collect::<Vec<_>>(),
        from_memory.regions().collect::<Vec<_>>()
    );
    assert_eq!(
        by_file_name(from_folder.load_report()),
        by_file_name(from_memory.load_report())
    );
    assert_eq!(by_file_name(from_folder.load_report()).len(), 3);
    assert_eq!(answers(&from_folder), answers(&from_memory));
    // Memory findings name the files by the names given.
    assert!(from_memory
        .load_report()
        .findings
        .iter()
        .all(|f| f.path.parent() == Some(Path::new(""))));
}

#[test]
fn a_one_thread_pool_runs_every_step_on_its_one_thread_with_the_same_results() {
    let files = generate(&GenOptions {
        seed: 7,
        width: 2,
        height: 2,
        origin: DEFAULT_ORIGIN,
        landscape: Landscape::Rugged,
    })
    .unwrap()
    .into_files();
    let dir = tempfile::tempdir().unwrap();
    files.write_dir(dir.path(), Overwrite::Refuse).unwrap();

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let calls = std::sync::Mutex::new(Vec::new());
    let (capped, capped_paths, capped_stats) = pool.install(|| {
        let progress = |done, total| {
            calls.lock().unwrap().push((
                std::thread::current().id(),
                rayon::current_thread_index(),
                rayon::current_num_threads(),
                done,
                total,
            ));
        };
        let source = WorldSource::open(dir.path()).unwrap();
        let options = LoadOptions::default().with_progress(&progress);
        let world = World::load_source(&source, &options).unwrap();
        let paths = PathIndex::build(&world);
        let stats = paths.stats();
        (world, paths, stats)
    });
    let calls = calls.into_inner().unwrap();
    assert_eq!(calls.len(), 4);
    let pool_thread = calls[0].0;
    assert_ne!(pool_thread, std::thread::current().id());
    for (i, &(thread, index, threads, done, total)) in calls.iter().enumerate() {
        assert_eq!((thread, index, threads), (pool_thread, Some(0), 1));
        // One thread: the files are counted in order.
        assert_eq!((done, total), (i + 1, 4));
    }

    let default = World::load(dir.path()).unwrap();
    let default_paths = PathIndex::build(&default);
    let default_stats = default_paths.stats();
    assert_eq!(
        capped.regions().collect::<Vec<_>>(),
        default.regions().collect::<Vec<_>>()
    );
    assert_eq!(capped.load_report(), default.load_report());
    assert_eq!(
        (capped_stats.rects, capped_stats.corners, capped_stats.edges),
        (
            default_stats.rects,
            default_stats.corners,
            default_stats.edges
        )
    );
    assert!(capped_stats.edges > 0);
    let mut scratch = silknav::PathScratch::new();
    let (x0, z0) = (
        f64::from(DEFAULT_ORIGIN.0) * 1920.0,
        f64::from(DEFAULT_ORIGIN.1) * 1920.0,
    );
    let mut answered = 0;
    for i in 0..40 {
        let at = |k: f64| Position::from_world(x0 + 10.0 + 95.0 * k, z0 + 3800.0 - 93.0 * k);
        let (from, to) = (at(f64::from(i)).unwrap(), at(f64::from(39 - i)).unwrap());
        let a = capped_paths
            .find_path(&capped, from, to, &PathOptions::default(), &mut scratch)
            .map(|p| p.waypoints);
        let b = default_paths
            .find_path(&default, from, to, &PathOptions::default(), &mut scratch)
            .map(|p| p.waypoints);
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "query {i}");
        answered += usize::from(a.is_ok());
    }
    assert!(answered > 0, "some queries have paths");
}

#[test]
fn a_folder_that_cannot_be_listed_is_a_file_error_naming_it() {
    let missing = PathBuf::from("/nonexistent/silknav/world");
    let err = World::load(&missing).unwrap_err();
    let LoadError::File(file) = &err else {
        panic!("{err:?}");
    };
    assert_eq!(file.path, missing);
    assert_eq!(err.to_string(), missing.display().to_string());
    let source = std::error::Error::source(&err).expect("the I/O error");
    assert!(
        source.downcast_ref::<std::io::Error>().is_some(),
        "{source:?}"
    );
}
