//! The corpus report: on generated worlds (folder and archive alike, every count checked
//! against the files themselves), and on hand-damaged files with every count asserted.

use jmxv::bms::ObjectMesh;
use jmxv::nvm::{Layout, NavMesh};
use jmxv::res::{ResourceFile, ResourceKind};
use jmxv::RegionId;
use silknav::corpus::{scan, Corpus};
use silknav::files::{Overwrite, WorldFiles, WorldSource};
use silknav_testkit::pk2::pack_folder;
use silknav_testkit::{bytes_of, open_region};
use std::collections::BTreeMap;
use std::path::Path;

fn map(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
}

fn scan_of(path: &Path) -> Corpus {
    scan(&WorldSource::open(path).unwrap()).unwrap()
}

#[test]
fn a_generated_world_counts_what_its_files_hold_from_a_folder_or_an_archive() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("w");
    let world = crate::generated_files(4, 2, 2);
    world.write_data_root(&root, Overwrite::Refuse).unwrap();
    std::fs::write(dir.path().join("extra.txt"), b"x").unwrap();
    let archive = dir.path().join("Data.pk2");
    std::fs::write(&archive, pack_folder(&root)).unwrap();

    let folder = scan_of(&root);
    let files = WorldFiles::read_dir(&root).unwrap();
    let meshes: Vec<&NavMesh> = files.navmeshes.values().collect();
    let sum = |f: fn(&NavMesh) -> usize| meshes.iter().map(|m| f(m) as u64).sum::<u64>();
    let n = &folder.navmeshes;
    assert_eq!(n.files, 4);
    assert_eq!(
        n.layouts,
        map(&[("standard", 4), ("tiles4", 0), ("tiles4-noplanes", 0)])
    );
    assert_eq!((n.exact_end, n.with_trailing, n.trailing_bytes), (4, 0, 0));
    assert_eq!(n.objects, sum(|m| m.objects.len()));
    assert_eq!(n.cells, sum(|m| m.cells.len()));
    assert_eq!(n.global_edges, sum(|m| m.global_edges.len()));
    assert_eq!(n.internal_edges, sum(|m| m.internal_edges.len()));
    // The histograms hold every tile and edge once.
    assert_eq!(n.tile_flags.values().sum::<u64>(), 4 * 9216);
    let blocked = meshes
        .iter()
        .flat_map(|m| m.tiles.iter())
        .filter(|t| t.flag & 1 == 1)
        .count() as u64;
    assert_eq!(n.tile_flags.get("0x0001").copied().unwrap_or(0), blocked);
    assert_eq!(n.global_edge_flags.values().sum::<u64>(), n.global_edges);
    assert_eq!(
        n.internal_edge_flags.values().sum::<u64>(),
        n.internal_edges
    );
    assert_eq!(
        n.direction_bytes_a.values().sum::<u64>(),
        n.global_edges + n.internal_edges
    );
    assert_eq!(n.plane_types.values().sum::<u64>(), 4 * 36);
    // Generated worlds follow the spec page's convention, and lint clean.
    assert_eq!(n.directions.found, ["spec"]);
    assert_eq!(n.directions.files_agreeing, map(&[("spec", 4)]));
    assert_eq!(folder.world_checks, "run");
    assert!(folder.lint.is_empty(), "{:?}", folder.lint);
    assert!(folder.unreadable.is_empty());
    assert_eq!((folder.mapinfo.files, folder.mapinfo.entries), (1, 4));
    let ifo = files.object_ifo.as_ref().unwrap();
    assert_eq!(
        (folder.object_ifo.files, folder.object_ifo.entries),
        (1, ifo.entries.len() as u64)
    );
    let bms = &folder.object_meshes;
    // The objects' meshes and the dungeon blocks'.
    let dungeons = &files.dungeons;
    assert_eq!(
        bms.files,
        (files.object_files.len() + dungeons.meshes.len()) as u64
    );
    let with_nav = files
        .object_files
        .values()
        .chain(dungeons.meshes.values())
        .filter(|m| m.nav.is_some())
        .count() as u64;
    assert_eq!(
        (bms.with_nav, bms.without_nav),
        (with_nav, bms.files - with_nav)
    );
    assert_eq!(bms.versions, map(&[("0109", 0), ("0110", bms.files)]));
    assert_eq!(folder.resources.bsr, dungeons.resources.len() as u64);
    assert_eq!(folder.dungeons.files, dungeons.layouts.len() as u64);
    assert_eq!(
        folder.dungeons.blocks,
        dungeons
            .layouts
            .values()
            .map(|l| l.blocks.len() as u64)
            .sum::<u64>()
    );
    assert_eq!(folder.ainav.files, dungeons.routes.len() as u64);
    assert_eq!(folder.dungeon_info.files, 1);
    assert_eq!(
        folder.files,
        3 + 4 + bms.files + folder.resources.bsr + folder.dungeons.files + folder.ainav.files + 1,
        "companions, navmeshes, meshes, resources, layouts, routes, dungeoninfo.txt"
    );
    assert_eq!(folder.read, folder.files);

    // The archive of the same folder: the same report, named after the archive.
    let packed = scan_of(&archive);
    assert_eq!(packed.path, archive.display().to_string());
    let mut renamed = packed;
    renamed.path.clone_from(&folder.path);
    assert_eq!(renamed, folder);

    // The folder above: the text file is counted, not read.
    let above = scan_of(dir.path());
    assert_eq!(above.not_read, map(&[("pk2", 1), ("txt", 1)]));
    assert_eq!(above.world_checks, "no-world", "no navmesh folder there");
}

/// A region of `open_region` in `layout`, with `trailing` bytes.
fn region(id: u16, layout: Layout, trailing: &[u8]) -> Vec<u8> {
    let mut mesh = open_region(RegionId(id));
    mesh.layout = layout;
    if layout != Layout::Standard {
        for tile in mesh.tiles.iter_mut() {
            tile.flag = 0;
            tile.texture_id = 0;
        }
    }
    if layout == Layout::Tiles4NoPlanes {
        mesh.planes = Default::default();
    }
    mesh.trailing = trailing.to_vec();
    bytes_of(&mesh)
}

#[test]
fn hand_damaged_files_are_counted_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let regions = dir.path().join("regions");
    let res = dir.path().join("res");
    std::fs::create_dir_all(&regions).unwrap();
    std::fs::create_dir_all(&res).unwrap();
    let write = |path: &Path, bytes: &[u8]| std::fs::write(path, bytes).unwrap();
    write(
        &regions.join("nv_4080.nvm"),
        &region(0x4080, Layout::Standard, b""),
    );
    write(
        &regions.join("NV_4081.NVM"),
        &region(0x4081, Layout::Standard, b"\x01\x02\x03"),
    );
    write(
        &regions.join("nv_4082.nvm"),
        &region(0x4082, Layout::Tiles4, b""),
    );
    write(
        &regions.join("nv_4083.nvm"),
        &region(0x4083, Layout::Tiles4NoPlanes, b""),
    );
    // A direction byte of 7 on the first edge.
    let mut odd = open_region(RegionId(0x4084));
    odd.internal_edges[0].dir[0] = 7;
    write(&regions.join("nv_4084.nvm"), &bytes_of(&odd));
    // Cut inside the cells.
    let whole = region(0x4085, Layout::Standard, b"");
    write(&regions.join("nv_4085.nvm"), &whole[..40]);
    write(&regions.join("notes.txt"), b"hello");
    let house = silknav_testkit::second_writer::bms::box_building().to_bytes();
    write(&res.join("house.bms"), &house);
    write(&res.join("cut.bms"), &house[..30]);
    write(
        &res.join("house.bsr"),
        &ResourceFile::minimal(ResourceKind::Resource, b"res\\house.bms").to_vec(),
    );
    write(
        &res.join("empty.cpd"),
        &ResourceFile::minimal(ResourceKind::Compound, b"").to_vec(),
    );

    let c = scan_of(dir.path());
    assert_eq!((c.files, c.read), (11, 10));
    assert_eq!(c.not_read, map(&[("txt", 1)]));
    assert_eq!(
        c.world_checks, "no-world",
        "no navmesh folder: no checks between files"
    );
    let n = &c.navmeshes;
    assert_eq!(n.files, 5);
    assert_eq!(
        n.layouts,
        map(&[("standard", 3), ("tiles4", 1), ("tiles4-noplanes", 1)])
    );
    assert_eq!((n.exact_end, n.with_trailing, n.trailing_bytes), (4, 1, 3));
    // Tile flags of the standard files only; plane types of all but tiles4-noplanes.
    assert_eq!(n.tile_flags.values().sum::<u64>(), 3 * 9216);
    assert_eq!(n.plane_types, map(&[("0x00", 4 * 36)]));
    assert_eq!(n.direction_bytes_a.get("0x07"), Some(&1));
    assert_eq!(n.directions.found, ["spec"]);
    assert_eq!(n.directions.files_agreeing, map(&[("spec", 5)]));

    // Every lint finding, by code: legacy layouts, trailing bytes, the bad direction byte.
    let lint: BTreeMap<&str, (&str, u64, u64)> = c
        .lint
        .iter()
        .map(|(code, s)| (code.as_str(), (s.severity, s.findings, s.files)))
        .collect();
    let expected: BTreeMap<&str, (&str, u64, u64)> = [
        ("E013", ("error", 1, 1)),
        ("W001", ("warning", 2, 2)),
        ("W002", ("warning", 1, 1)),
    ]
    .into_iter()
    .collect();
    assert_eq!(lint, expected);
    assert!(c.lint["E013"].meaning.contains("direction byte"));

    let bms = &c.object_meshes;
    assert_eq!((bms.files, bms.with_nav, bms.without_nav), (1, 1, 0));
    let mesh = ObjectMesh::parse(&house).unwrap();
    assert_eq!(bms.cells, mesh.nav.as_ref().unwrap().cells.len() as u64);
    assert_eq!(
        bms.nav_flags,
        map(&[(&format!("0x{:08x}", mesh.header.nav_flags), 1)])
    );
    let r = &c.resources;
    assert_eq!(
        (r.bsr, r.cpd, r.with_target, r.without_target),
        (1, 1, 1, 1)
    );
    assert_eq!(r.kinds, map(&[("compound", 1), ("resource", 1)]));
    assert_eq!(r.target_extensions, map(&[("bms", 1)]));

    let unreadable: Vec<(String, String)> = c
        .unreadable
        .iter()
        .map(|u| (u.path.clone(), u.error.clone()))
        .collect();
    assert_eq!(unreadable.len(), 2, "{unreadable:?}");
    assert_eq!(
        unreadable[0].0,
        regions.join("nv_4085.nvm").display().to_string()
    );
    assert!(
        unreadable[0].1.starts_with("offset "),
        "{}",
        unreadable[0].1
    );
    assert_eq!(unreadable[1].0, res.join("cut.bms").display().to_string());
    assert!(
        unreadable[1].1.starts_with("offset "),
        "{}",
        unreadable[1].1
    );
}

#[test]
fn a_world_with_damage_between_files_counts_the_cross_file_codes() {
    let dir = tempfile::tempdir().unwrap();
    let navmesh = dir.path().join("navmesh");
    std::fs::create_dir_all(&navmesh).unwrap();
    // Two neighbours, each with walls on its border: no global edges, so no X001; no
    // companions: one X011 for each.
    for id in [0x4080u16, 0x4081] {
        std::fs::write(
            navmesh.join(RegionId(id).file_name()),
            region(id, Layout::Standard, b""),
        )
        .unwrap();
    }
    let c = scan_of(dir.path());
    assert_eq!(c.world_checks, "run");
    let x011 = &c.lint["X011"];
    assert_eq!(
        (x011.severity, x011.findings, x011.files),
        ("warning", 3, 3)
    );
    assert_eq!(c.lint.len(), 1, "{:?}", c.lint);

    // A navmesh of the world cut short: listed, and the checks between files are skipped
    // rather than report it missing.
    std::fs::write(navmesh.join("nv_4081.nvm"), b"JMXVNVM 1000").unwrap();
    let c = scan_of(dir.path());
    assert_eq!(c.world_checks, "skipped-unreadable");
    assert_eq!(c.unreadable.len(), 1);
    assert!(c.lint.is_empty(), "{:?}", c.lint);
}
