//! Dungeons: loading the largest generated one, and exact paths across it, each against the
//! terrain's in the same run (the dungeon issue's targets).
//!
//! `cargo bench -p silknav-bench --bench dungeons`
//!
//! - `load_dungeon`: the catacomb of `gen --seed 1` (three floors of 8 × 8 slots, 190 blocks)
//!   from its files' bytes: the `.dof`, the `.bsr`s and the `.bms`s parsed, then
//!   [`Dungeon::from_files`] (blocks placed, voxels, links, circles, the ground world).
//! - `load_as_terrain_objects`: the same blocks as object instances of one terrain region
//!   (blocked, as the dungeon's ground is), from a data root on disk: [`World::load`] parses
//!   the navmesh, `object.ifo` and the meshes and places the instances.
//! - `paths_dungeon_exact`: exact paths between random points of the catacomb's floors
//!   ([`PathOptions::exact`] at dungeon positions), lengths asserted.
//! - `first_path_dungeon`: one exact path in the catacomb with a fresh path index: the
//!   index, the object points and the visibility graph of the floors made first.
//! - `paths_terrain_exact`: exact paths between random walkable points of `gen --seed 1
//!   --size 4x4` (the paths bench's `gen4x4-s1` world), lengths asserted.
//!
//! Targets: loading ≤ 1.5× the terrain objects' time; a dungeon path ≤ 3× a terrain path, per
//! query.

use criterion::{black_box, Criterion};
use silknav::build::{build_world, PlacedObject, RegionInput, TileRect};
use silknav::files::{DungeonFiles, Overwrite, WorldFiles, WorldSource};
use silknav::jmxv::bms::ObjectMesh;
use silknav::jmxv::dof::DungeonFile;
use silknav::jmxv::ifo::{ObjectEntry, ObjectIfo};
use silknav::jmxv::nvm::Object;
use silknav::jmxv::res::ResourceFile;
use silknav::jmxv::{RegionId, F32};
use silknav::world::dungeon::Dungeon;
use silknav::worldgen::{generate, GenOptions, Landscape, DEFAULT_ORIGIN};
use silknav::{PathIndex, PathOptions, PathScratch, Position, Surface, World};
use silknav_bench::{criterion_home, duration, is_bench_run, median_ns_since, verdict, Ratio};
use silknav_testkit::rng::SplitMix64;
use std::collections::BTreeMap;
use std::time::SystemTime;

/// Criterion's group name; also the folder its estimates are saved under.
const GROUP: &str = "dungeons";
/// The catacomb: region, `.dof` path.
const CATACOMB: (u16, &str) = (0x8001, "dungeon\\gen_catacomb\\gen_catacomb.dof");
/// Exact paths per batch: in the catacomb, and on the terrain.
const DUNGEON_PATHS: usize = 100;
const TERRAIN_PATHS: usize = 200;
/// The targets.
const LOAD_RATIO: f64 = 1.5;
const PATH_RATIO: f64 = 3.0;

fn main() {
    let smoke = !is_bench_run();
    let started = SystemTime::now();
    let files = generate(&GenOptions {
        seed: 1,
        width: 1,
        height: 1,
        origin: DEFAULT_ORIGIN,
        landscape: Landscape::Rugged,
    })
    .expect("valid options")
    .into_files();
    let dungeons = files.dungeons.clone();
    let bytes = dungeon_bytes(&dungeons);
    let region = RegionId(CATACOMB.0);
    let dungeon = Dungeon::from_files(&dungeons, region, CATACOMB.1).expect("the catacomb loads");
    let blocks = dungeon.block_count();

    // The same blocks as terrain objects, on disk.
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let terrain_root = tmp.path().join("objects");
    as_terrain_objects(&dungeons.layouts[CATACOMB.1], &dungeons)
        .write_data_root(&terrain_root, Overwrite::Replace)
        .expect("written");
    let as_objects = World::load(&terrain_root).expect("loads");
    assert_eq!(as_objects.object_instances().len(), blocks);

    // Paths in the catacomb: pairs of points on its floors that a path joins.
    let world_root = tmp.path().join("world");
    files
        .write_data_root(&world_root, Overwrite::Replace)
        .expect("written");
    let world = World::load(&world_root).expect("loads");
    let paths = PathIndex::build(&world);
    let mut scratch = PathScratch::new();
    let mut rng = SplitMix64::new(5);
    let layout = &dungeons.layouts[CATACOMB.1];
    let (lo, hi) = (
        layout.box0.min.map(|v| v.get()),
        layout.box0.max.map(|v| v.get()),
    );
    let mut dungeon_pairs: Vec<(Position, Position, f32, f64)> = Vec::new();
    while dungeon_pairs.len() < if smoke { 2 } else { DUNGEON_PATHS } {
        let mut point = || loop {
            let p = [0, 1, 2].map(|k| lo[k] + (hi[k] - lo[k]) * rng.unit() as f32);
            let at = Position::in_dungeon(1, p[0], p[2]);
            if let Some((_, h)) = world.surface_at(at, Surface::Near(p[1])) {
                return (at, h + 1.0);
            }
        };
        let ((a, y), (b, _)) = (point(), point());
        let exact = PathOptions::exact().with_start(Surface::Near(y)).unwrap();
        if let Ok(path) = paths.find_path(&world, a, b, &exact, &mut scratch) {
            dungeon_pairs.push((a, b, y, path.length));
        }
    }

    // Exact terrain paths of gen4x4-s1.
    let terrain_files = generate(&GenOptions {
        seed: 1,
        width: 4,
        height: 4,
        origin: DEFAULT_ORIGIN,
        landscape: Landscape::Rugged,
    })
    .expect("valid options")
    .into_files();
    let terrain_root = tmp.path().join("gen4x4");
    terrain_files
        .write_data_root(&terrain_root, Overwrite::Replace)
        .expect("written");
    let terrain = World::load_source(
        &WorldSource::open(&terrain_root).unwrap(),
        &silknav::LoadOptions::terrain_only(),
    )
    .expect("loads");
    let terrain_paths = PathIndex::build(&terrain);
    let regions: Vec<RegionId> = terrain.regions().collect();
    let mut terrain_pairs: Vec<(Position, Position, Option<f64>)> = Vec::new();
    while terrain_pairs.len() < if smoke { 20 } else { TERRAIN_PATHS } {
        let mut point = || loop {
            let r = regions[rng.range(0, regions.len() as u32) as usize];
            let p = Position::new(r, 1920.0 * rng.unit() as f32, 1920.0 * rng.unit() as f32);
            if terrain.cell_at(p, Surface::Highest).is_some() {
                return p;
            }
        };
        let (a, b) = (point(), point());
        let length = terrain_paths
            .find_path(&terrain, a, b, &PathOptions::exact(), &mut scratch)
            .ok()
            .map(|p| p.length);
        terrain_pairs.push((a, b, length));
    }
    eprintln!(
        "input: the catacomb, {blocks} blocks, {} collision circles; {} exact paths in it, {} on gen4x4-s1 ({} joined)",
        dungeon.collision_circles().len(),
        dungeon_pairs.len(),
        terrain_pairs.len(),
        terrain_pairs.iter().filter(|p| p.2.is_some()).count()
    );

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group(GROUP);
    group.sample_size(10);
    group.bench_function("load_dungeon", |b| {
        b.iter(|| {
            let files = parse_dungeon(black_box(&bytes));
            let d = Dungeon::from_files(&files, region, CATACOMB.1).expect("loads");
            assert_eq!(d.block_count(), blocks);
        })
    });
    group.bench_function("load_as_terrain_objects", |b| {
        b.iter(|| {
            let w = World::load(black_box(&tmp.path().join("objects"))).expect("loads");
            assert_eq!(w.object_instances().len(), blocks);
        })
    });
    group.bench_function("paths_dungeon_exact", |b| {
        b.iter(|| {
            for &(a, to, y, length) in &dungeon_pairs {
                let exact = PathOptions::exact().with_start(Surface::Near(y)).unwrap();
                let path = paths
                    .find_path(&world, a, to, &exact, &mut scratch)
                    .expect("a path");
                assert!((path.length - length).abs() <= 1e-9 * length.max(1.0));
            }
        })
    });
    group.bench_function("first_path_dungeon", |b| {
        let &(a, to, y, length) = &dungeon_pairs[0];
        b.iter(|| {
            let fresh = PathIndex::build(black_box(&world));
            let exact = PathOptions::exact().with_start(Surface::Near(y)).unwrap();
            let path = fresh
                .find_path(&world, a, to, &exact, &mut scratch)
                .expect("a path");
            assert!((path.length - length).abs() <= 1e-9 * length.max(1.0));
        })
    });
    group.bench_function("paths_terrain_exact", |b| {
        b.iter(|| {
            for &(a, to, length) in &terrain_pairs {
                let path = terrain_paths
                    .find_path(&terrain, a, to, &PathOptions::exact(), &mut scratch)
                    .ok()
                    .map(|p| p.length);
                assert_eq!(path, length);
            }
        })
    });
    group.finish();
    drop(c);
    if smoke {
        println!("(a smoke run: unoptimised; its times mean nothing)");
        return;
    }

    let home = criterion_home().join(GROUP);
    let median = |name: &str| median_ns_since(&home.join(name), started);
    if let (Some(dungeon_ns), Some(objects_ns)) =
        (median("load_dungeon"), median("load_as_terrain_objects"))
    {
        println!(
            "\nloading the catacomb ({blocks} blocks on 3 floors): {}; target ≤ {LOAD_RATIO}×: {}",
            Ratio::new("load_dungeon", dungeon_ns, objects_ns)
                .against("the same blocks as terrain objects")
                .line(None),
            verdict(dungeon_ns <= LOAD_RATIO * objects_ns)
        );
    }
    if let (Some(d), Some(t)) = (median("paths_dungeon_exact"), median("paths_terrain_exact")) {
        let (d, t) = (
            d / dungeon_pairs.len() as f64,
            t / terrain_pairs.len() as f64,
        );
        println!(
            "exact paths, per query: the catacomb {} against gen4x4-s1's terrain {}: {:.0}×; target ≤ {PATH_RATIO}×: {}",
            duration(d),
            duration(t),
            d / t,
            verdict(d <= PATH_RATIO * t)
        );
    }
    if let Some(first) = median("first_path_dungeon") {
        println!(
            "the first exact path in the catacomb, its visibility graph made: {}",
            duration(first)
        );
    }
}

/// Every dungeon file's bytes, by path.
fn dungeon_bytes(files: &DungeonFiles) -> BTreeMap<String, Vec<u8>> {
    files.file_bytes().expect("written").into_iter().collect()
}

/// The catacomb's files parsed from their bytes.
fn parse_dungeon(bytes: &BTreeMap<String, Vec<u8>>) -> DungeonFiles {
    let mut files = DungeonFiles::default();
    for (path, bytes) in bytes {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".dof") {
            files
                .layouts
                .insert(path.clone(), DungeonFile::parse(bytes).expect("parses"));
        } else if lower.ends_with(".bsr") {
            files
                .resources
                .insert(path.clone(), ResourceFile::parse(bytes).expect("parses"));
        } else if lower.ends_with(".bms") {
            files
                .meshes
                .insert(path.clone(), ObjectMesh::parse(bytes).expect("parses"));
        }
    }
    files
}

/// The blocks of `layout` as object instances of one blocked terrain region (the dungeon's
/// frame moved by 960 units, into the region's square), with `object.ifo` and the meshes.
fn as_terrain_objects(layout: &DungeonFile, files: &DungeonFiles) -> WorldFiles {
    let region = RegionId::new(DEFAULT_ORIGIN.0, DEFAULT_ORIGIN.1);
    let mut ids: BTreeMap<String, u32> = BTreeMap::new();
    let mut input = RegionInput::open(region);
    input.blocked = vec![true; input.blocked.len()];
    for (i, b) in layout.blocks.iter().enumerate() {
        let bsr = String::from_utf8_lossy(&b.path).into_owned();
        let bms = String::from_utf8_lossy(files.resources[&bsr].target_path().expect("a mesh"))
            .into_owned();
        let next = ids.len() as u32;
        let id = *ids.entry(bms).or_insert(next);
        let [x, y, z] = b.position.map(|v| v.get() + 960.0);
        let tile = |v: f32, d: f32| ((v + d) / 20.0).clamp(0.0, 96.0) as u8;
        input.objects.push(PlacedObject {
            object: Object {
                object_id: id,
                position: [F32::from(x), F32::from(y - 960.0), F32::from(z)],
                kind: 0xFFFF,
                yaw: b.yaw,
                uid: i as u16,
                region_id: region.0,
                ..Object::default()
            },
            footprint: TileRect {
                x0: tile(x, -60.0),
                z0: tile(z, -60.0),
                x1: tile(x, 60.0),
                z1: tile(z, 60.0),
            },
        });
    }
    let object_files = ids
        .keys()
        .map(|path| (path.clone(), files.meshes[path].clone()))
        .collect();
    WorldFiles {
        navmeshes: build_world(&[input]),
        object_ifo: Some(ObjectIfo::new(
            ids.iter()
                .map(|(path, &id)| ObjectEntry::new(id, 0, path.as_bytes().to_vec()))
                .collect(),
        )),
        object_files,
        ..WorldFiles::default()
    }
}
