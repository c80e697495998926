//! Worlds read straight from PK2 archives: a data root packed as the client stores it answers
//! every query as the folder does, loads read only the entries they need, and damaged
//! archives are errors naming the entry and offset.

use silknav::files::{FolderFile, LoadError, Overwrite, WorldFiles, WorldSource};
use silknav::lint::lint_world;
use silknav::pk2_archive::{self, ErrorKind, Key};
use silknav::{
    LoadOptions, MoveOptions, PathIndex, PathOptions, PathScratch, Position, Surface, World,
};
use silknav_testkit::pk2::{pack_folder, record_of, with_block_outside, with_duplicate, with_loop};
use silknav_testkit::rng::SplitMix64;
use std::path::{Path, PathBuf};

/// A generated 2×2 world with objects of every kind, written as a data root into `dir/w`,
/// and packed into `dir/Data.pk2`.
fn generated(dir: &Path) -> (PathBuf, PathBuf) {
    let root = dir.join("w");
    crate::generated_files(4, 2, 2)
        .write_data_root(&root, Overwrite::Refuse)
        .unwrap();
    let archive = dir.join("Data.pk2");
    std::fs::write(&archive, pack_folder(&root)).unwrap();
    (root, archive)
}

/// Every answer of the point queries on a grid over the world's regions, and of the segment
/// queries between seeded points (paths too, `with_paths`: the path index takes seconds to
/// build in a debug build), as text: two worlds agree when these are equal.
fn answers(world: &World, with_paths: bool) -> Vec<String> {
    let paths = with_paths.then(|| PathIndex::build(world));
    let mut out = Vec::new();
    let regions: Vec<_> = world.regions().collect();
    let mut points = Vec::new();
    for region in &regions {
        let (x0, z0) = (
            f64::from(region.x()) * 1920.0,
            f64::from(region.z()) * 1920.0,
        );
        for i in 0..16 {
            for j in 0..16 {
                let p = Position::from_world(
                    x0 + 3.5 + f64::from(i) * 120.0,
                    z0 + 7.25 + f64::from(j) * 120.0,
                );
                points.push(p.unwrap());
            }
        }
    }
    // Points on the objects too, where the floors and decks are.
    for instance in world.object_instances() {
        let [x, _, z] = instance.position();
        let region = instance.frame_region();
        let p = Position::from_world(
            f64::from(region.x()) * 1920.0 + f64::from(x) + 1.5,
            f64::from(region.z()) * 1920.0 + f64::from(z) - 2.5,
        );
        points.extend(p);
    }
    for &p in &points {
        out.push(format!(
            "{p}: {:?} {:?} {:?} {:?} {:?} {:?}",
            world.cell_at(p, Surface::Highest),
            world.height_at(p, Surface::Terrain),
            world.cell_at(p, Surface::Near(0.0)),
            world.height_at(p, Surface::Near(40.0)),
            world.cell_at(p, Surface::Near(200.0)),
            world.cell_at(p, Surface::Terrain),
        ));
    }
    let mut rng = SplitMix64::new(12);
    let mut scratch = PathScratch::new();
    for i in 0..100 {
        let a = points[rng.range(0, points.len() as u32) as usize];
        let b = points[rng.range(0, points.len() as u32) as usize];
        out.push(format!(
            "{a} {b}: {:?} {:?} {:?} {:?}",
            world.raycast(a, b, Surface::Highest),
            world.raycast(a, b, Surface::Near(30.0)),
            world.line_of_sight(a, b, Surface::Highest),
            world.move_along(a, b, &MoveOptions::default()),
        ));
        if with_paths && i % 5 == 0 {
            out.push(format!(
                "path {a} {b}: {:?}",
                paths.as_ref().expect("built with paths").find_path(
                    world,
                    a,
                    b,
                    &PathOptions::default(),
                    &mut scratch
                )
            ));
        }
    }
    out
}

/// The load report with the files named relative to the data root `root` (a folder, or
/// `ARCHIVE:`), so that a folder's report and an archive's compare.
fn report_by_name(world: &World, root: &str) -> Vec<String> {
    let report: Vec<String> = world
        .load_report()
        .findings
        .iter()
        .map(|f| format!("{} {} {:?}", f.region, f.path.display(), f.kind))
        .collect();
    let relative: Vec<String> = report.iter().map(|f| f.replace(root, "")).collect();
    assert!(
        relative.iter().all(|f| !f.contains("/tmp")),
        "{root}: {relative:?}"
    );
    relative
}

#[test]
fn a_packed_world_answers_every_query_as_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let (root, archive) = generated(dir.path());
    let folder = World::load(&root).unwrap();
    assert!(folder.object_instances().len() > 10, "a world with objects");
    let want = answers(&folder, true);
    assert!(
        want.iter().any(|w| w.contains("object: Some")),
        "points on objects"
    );
    assert!(want
        .iter()
        .any(|w| w.starts_with("path ") && w.contains("Ok(")));
    let navmesh_inside = PathBuf::from(format!("{}:navmesh", archive.display()));
    for (name, world, with_paths) in [
        (
            "World::load(Data.pk2)",
            World::load(&archive).unwrap(),
            true,
        ),
        (
            "World::load_source(Data.pk2:navmesh, the key)",
            World::load_source(
                &WorldSource::open_with_key(&navmesh_inside, &Key::default()).unwrap(),
                &LoadOptions::default(),
            )
            .unwrap(),
            false,
        ),
    ] {
        assert_eq!(
            world.regions().collect::<Vec<_>>(),
            folder.regions().collect::<Vec<_>>(),
            "{name}"
        );
        assert_eq!(
            world.object_instances().len(),
            folder.object_instances().len(),
            "{name}"
        );
        assert_eq!(
            report_by_name(&world, &format!("{}:", archive.display())),
            report_by_name(&folder, &format!("{}/", root.display())),
            "{name}"
        );
        let got = answers(&world, with_paths);
        let want = want
            .iter()
            .filter(|w| with_paths || !w.starts_with("path "));
        assert_eq!(got.len(), want.clone().count(), "{name}");
        for (g, w) in got.iter().zip(want) {
            assert_eq!(g, w, "{name}");
        }
    }
    // Terrain only, too.
    let terrain = World::load_source(
        &WorldSource::open(&archive).unwrap(),
        &LoadOptions::terrain_only(),
    )
    .unwrap();
    assert_eq!(terrain.object_instances().len(), 0);
    let folder_terrain = World::load_source(
        &WorldSource::open(&root).unwrap(),
        &LoadOptions::terrain_only(),
    )
    .unwrap();
    assert_eq!(answers(&terrain, false), answers(&folder_terrain, false));
}

#[test]
fn a_packed_world_reads_and_lints_as_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let (root, archive) = generated(dir.path());
    let from_folder = WorldFiles::read_dir(&root).unwrap();
    let source = WorldSource::open(&archive).unwrap();
    let from_archive = WorldFiles::read(&source).unwrap();
    assert!(!from_archive.object_files.is_empty());
    assert_eq!(from_archive, from_folder);
    assert_eq!(WorldFiles::read_dir(&archive).unwrap(), from_folder);
    assert_eq!(lint_world(&from_archive), lint_world(&from_folder));

    // Where the source says its files are: named the way the command line names them.
    let shown = |p: &str| PathBuf::from(format!("{}:{p}", archive.display()));
    assert_eq!(source.path(), archive);
    assert_eq!(source.data_root(), archive);
    assert_eq!(source.navmesh_dir(), shown("navmesh"));
    assert_eq!(
        source.listing().path(FolderFile::MapInfo),
        Some(shown("navmesh/mapinfo.mfo").as_path())
    );
    let region = *from_folder.navmeshes.keys().next().unwrap();
    assert_eq!(
        source.path_of(FolderFile::Navmesh(region)),
        shown(&format!("navmesh/{}", region.file_name()))
    );
    assert_eq!(
        source.read(FolderFile::Navmesh(region)).unwrap(),
        std::fs::read(root.join("navmesh").join(region.file_name())).unwrap()
    );
    // Objects resolve in any case inside the archive, named as ARCHIVE:PATH.
    let (ifo_path, _) = from_folder.object_files.iter().next().unwrap();
    let found = source
        .object_resolver()
        .find(ifo_path.to_ascii_uppercase().as_bytes())
        .unwrap();
    let stored = ifo_path.replace('\\', "/");
    assert_eq!(found, shown(&stored));

    // Every file of the archive, below the folder opened, as the folder holds them.
    let files = source.files().unwrap();
    let on_disk = pk2_archive::folder_files(&root).unwrap();
    assert_eq!(files.len(), on_disk.len());
    for (file, (path, bytes)) in files.iter().zip(&on_disk) {
        assert_eq!(&file.relative, path);
        assert_eq!(&source.read_file(file).unwrap(), bytes, "{path}");
    }
    let roles = files.iter().filter(|f| source.role_of(f).is_some()).count();
    assert_eq!(roles, source.listing().iter().count());
}

#[test]
fn a_world_in_a_folder_of_the_archive_resolves_its_objects_there() {
    let dir = tempfile::tempdir().unwrap();
    let (root, _) = generated(dir.path());
    // The data root packed under `Data/`, beside other things.
    let mut files: Vec<(String, Vec<u8>)> = pk2_archive::folder_files(&root)
        .unwrap()
        .into_iter()
        .map(|(p, b)| (format!("Data/{p}"), b))
        .collect();
    files.push(("Sound/x.wav".to_owned(), vec![1, 2, 3]));
    let bytes = pk2_archive::pack(files, &Key::default()).unwrap();
    let folder = World::load(&root).unwrap();
    for inner in ["Data", "data/NAVMESH", "DATA\\navmesh"] {
        let source =
            WorldSource::archive_bytes(bytes.clone(), "Media.pk2", inner, &Key::default()).unwrap();
        assert_eq!(source.data_root(), Path::new("Media.pk2:Data"), "{inner}");
        let world = World::load_source(&source, &LoadOptions::default()).unwrap();
        assert_eq!(
            world.object_instances().len(),
            folder.object_instances().len(),
            "{inner}"
        );
        assert_eq!(
            report_by_name(&world, "Media.pk2:Data/"),
            report_by_name(&folder, &format!("{}/", root.display())),
            "{inner}"
        );
    }
    // The archive's root holds no navmesh folder: it is a navmesh folder without navmeshes.
    let root_source = WorldSource::archive_bytes(bytes, "Media.pk2", "", &Key::default()).unwrap();
    assert_eq!(root_source.listing().navmeshes().count(), 0);
}

#[test]
fn loading_reads_only_the_entries_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    let (root, archive) = generated(dir.path());
    let mut bytes = std::fs::read(&archive).unwrap();
    let opened = pk2_archive::Archive::from_bytes(bytes.clone(), &Key::default()).unwrap();
    // Every object mesh's bytes scrambled: a terrain-only load never reads them.
    let mut scrambled = 0;
    for entry in opened.entries() {
        if let pk2_archive::EntryKind::File { data, size } = entry.kind() {
            if entry.path().starts_with("res/") {
                bytes[data as usize..][..size as usize].fill(0xa5);
                scrambled += 1;
            }
        }
    }
    assert!(scrambled > 0);
    let source = WorldSource::archive_bytes(bytes, "Data.pk2", "", &Key::default()).unwrap();
    let terrain = World::load_source(&source, &LoadOptions::terrain_only()).unwrap();
    let folder = World::load_source(
        &WorldSource::open(&root).unwrap(),
        &LoadOptions::terrain_only(),
    )
    .unwrap();
    assert_eq!(answers(&terrain, false), answers(&folder, false));
    assert!(terrain.load_report().is_clean());
    // With objects, each scrambled mesh is a finding naming its entry, never an error.
    let with_objects = World::load_source(&source, &LoadOptions::default()).unwrap();
    let findings = &with_objects.load_report().findings;
    assert!(!findings.is_empty());
    assert!(
        findings
            .iter()
            .all(|f| f.to_string().contains("Data.pk2:res/")),
        "{findings:?}"
    );
}

#[test]
fn damaged_archives_are_errors_naming_the_entry_and_offset() {
    let dir = tempfile::tempdir().unwrap();
    let (_, archive) = generated(dir.path());
    let good = std::fs::read(&archive).unwrap();
    let navmesh_record = record_of(&good, "navmesh");
    let other_key = pk2_archive::pack(
        pk2_archive::folder_files(&dir.path().join("w")).unwrap(),
        &Key::new(b"private server").unwrap(),
    )
    .unwrap();
    /// A damaged archive: its name, bytes, and the offset, entry and kind of its error.
    type Case = (
        &'static str,
        Vec<u8>,
        u64,
        &'static str,
        fn(&ErrorKind) -> bool,
    );
    let cases: Vec<Case> = vec![
        ("truncated", good[..1000].to_vec(), 256, "", |k| {
            matches!(k, ErrorKind::Truncated { .. })
        }),
        ("wrong key", other_key, 35, "", |k| {
            matches!(k, ErrorKind::WrongKey)
        }),
        (
            "loop",
            with_loop(&good, "navmesh"),
            navmesh_record,
            "navmesh",
            |k| matches!(k, ErrorKind::BlockLoop { block: 256 }),
        ),
        (
            "outside",
            with_block_outside(&good, "navmesh"),
            navmesh_record,
            "navmesh",
            |k| matches!(k, ErrorKind::OutsideArchive { .. }),
        ),
        (
            "duplicate",
            with_duplicate(&good, "navmesh/object.ifo", "MapInfo.mfo"),
            record_of(&good, "navmesh/object.ifo"),
            "navmesh/MapInfo.mfo",
            |k| matches!(k, ErrorKind::DuplicateName { .. }),
        ),
    ];
    for (name, bytes, offset, entry, kind) in cases {
        let path = dir.path().join(format!("{}.pk2", name.replace(' ', "-")));
        std::fs::write(&path, &bytes).unwrap();
        let err = World::load(&path).unwrap_err();
        let LoadError::Archive { path: named, error } = &err else {
            panic!("{name}: {err:?}");
        };
        assert_eq!(named, &path, "{name}");
        assert_eq!(error.offset, offset, "{name}: {error}");
        assert_eq!(error.entry, entry, "{name}: {error}");
        assert!(kind(&error.kind), "{name}: {error}");
        // One line, the archive first, then where and what.
        let chain = silknav_testkit::error_chain(&err);
        assert_eq!(chain[0], path.display().to_string(), "{name}");
        assert!(
            chain[1].starts_with(&format!("offset {offset} ")),
            "{name}: {chain:?}"
        );
    }
    // No folder at the inner path, or a file there: errors naming it.
    for (inner, what) in [
        ("nowhere", "no such entry"),
        ("navmesh/mapinfo.mfo", "not a directory"),
    ] {
        let spec = PathBuf::from(format!("{}:{inner}", archive.display()));
        let err = WorldSource::open(&spec).unwrap_err();
        let text = silknav_testkit::error_chain(&err).join(": ");
        assert!(text.contains(inner) && text.contains(what), "{text}");
    }
    // A path that exists nowhere is a file error naming it.
    let err = World::load(dir.path().join("missing.pk2")).unwrap_err();
    assert!(matches!(err, LoadError::File(_)), "{err:?}");
}

/// The seed of the `pk2_world` fuzz target: a one-region world with an object placed through
/// a `.bsr`, its directory blocks stored plain (the target's odd framing byte puts a plain
/// header in front), so that the fuzzer edits entries in the clear.
fn fuzz_seed() -> Vec<u8> {
    use jmxv::ifo::{ObjectEntry, ObjectIfo};
    use jmxv::mfo::MapInfo;
    use jmxv::nvm::Object;
    use jmxv::res::{ResourceFile, ResourceKind};
    use jmxv::{RegionId, F32};
    let region = RegionId(0x4080);
    let mut mesh = silknav_testkit::open_region(region);
    for (uid, id) in [(1u16, 0u32), (2, 1)] {
        mesh.objects.push(Object {
            object_id: id,
            position: [
                F32::from(500.0 * f32::from(uid)),
                F32::from(0.0),
                F32::from(700.0),
            ],
            uid,
            region_id: region.0,
            ..Object::default()
        });
    }
    let files = vec![
        (
            "navmesh/mapinfo.mfo",
            MapInfo::with_regions([region]).to_vec(),
        ),
        (
            "navmesh/object.ifo",
            ObjectIfo::new(vec![
                ObjectEntry::new(0, 0, "res\\house.bms"),
                ObjectEntry::new(1, 0, "RES\\House.bsr"),
            ])
            .to_vec()
            .unwrap(),
        ),
        ("navmesh/nv_4080.nvm", silknav_testkit::bytes_of(&mesh)),
        (
            "res/house.bms",
            silknav_testkit::second_writer::bms::box_building().to_bytes(),
        ),
        (
            "res/house.bsr",
            ResourceFile::minimal(ResourceKind::Resource, b"res\\house.bms").to_vec(),
        ),
    ];
    let mut bytes = pk2_archive::pack(files, &Key::default()).unwrap();
    // The directory blocks lie between the header and the first file's bytes.
    let opened = pk2_archive::Archive::from_bytes(bytes.clone(), &Key::default()).unwrap();
    let first_data = opened
        .entries()
        .iter()
        .filter_map(|e| match e.kind() {
            pk2_archive::EntryKind::File { data, .. } => Some(data as usize),
            pk2_archive::EntryKind::Directory => None,
        })
        .min()
        .unwrap();
    for block in bytes[256..first_data].chunks_mut(pk2_archive::BLOCK_LEN) {
        Key::default().decrypt(block);
    }
    [&[1u8][..], &bytes[256..]].concat()
}

#[test]
fn the_fuzz_seed_of_worlds_in_archives_is_current_and_loads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/pk2_world/world.bin");
    let seed = fuzz_seed();
    if std::env::var_os("SILKNAV_BLESS_SEEDS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &seed).unwrap();
    }
    let stored = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with SILKNAV_BLESS_SEEDS=1 to write the seed",
            path.display()
        )
    });
    assert!(
        stored == seed,
        "{} is stale; bless the seeds again",
        path.display()
    );
    // The target's framing: the plain header in front of the rest.
    let bytes = [&pk2_archive::plain_header()[..], &seed[1..]].concat();
    let source = WorldSource::archive_bytes(bytes, "seed.pk2", "", &Key::default()).unwrap();
    let world = World::load_source(&source, &LoadOptions::default()).unwrap();
    assert_eq!(world.regions().len(), 1);
    assert_eq!(
        world.object_instances().len(),
        2,
        "{:?}",
        world.load_report()
    );
    let corpus = silknav::corpus::scan(&source).unwrap();
    assert_eq!((corpus.files, corpus.read), (5, 5));
    assert_eq!(corpus.resources.with_target, 1);
}
