//! A small world with objects, written as a client `Data` folder: two terrain regions, an
//! `object.ifo`, and the [`crate::second_writer::bms`] meshes under `res/` and `prim/`, reached
//! directly, through a `.bsr` and through a `.cpd` → `.bsr`, by paths in odd case with
//! backslashes; plus instances whose files are missing, have no navigation section, are
//! dungeons, or whose id is not in `object.ifo`.
//!
//! The meshes are made like the game's ([`crate::second_writer::bms::game_like`]), so that a
//! walker crosses a floor's triangles and steps off where an edge lets it; the bridge's ends
//! are plain edges, stepped across from the ground, as a game bridge's outer ends are.

use crate::second_writer::bms::{box_building, bridge_deck, event_gate, game_like, render_only};
use jmxv::bms::ObjectMesh;
use jmxv::ifo::{ObjectEntry, ObjectIfo};
use jmxv::mfo::MapInfo;
use jmxv::nvm::{NavMesh, Object};
use jmxv::res::{ResourceFile, ResourceKind};
use jmxv::{RegionId, F32};
use silknav::Surface;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The west region (owner of most instances): [`crate::TEST_REGION`].
pub const WEST: RegionId = crate::TEST_REGION;
/// Its east neighbour, which owns the shared bridge.
pub const EAST: RegionId = RegionId::new(0x4f, 0x69);

/// Object ids of [`write_object_world`]'s `object.ifo`.
pub mod ids {
    /// The building, a `.bms` named directly.
    pub const HOUSE: u32 = 0;
    /// The bridge span, through a `.bsr`.
    pub const BRIDGE: u32 = 1;
    /// The gate, through a `.cpd` and a `.bsr`.
    pub const GATE: u32 = 2;
    /// A tree: a mesh without a navigation section.
    pub const TREE: u32 = 3;
    /// A `.bms` that is not there.
    pub const MISSING: u32 = 4;
    /// A dungeon (`.dof`).
    pub const DUNGEON: u32 = 5;
    /// An id with no line in `object.ifo`.
    pub const UNLISTED: u32 = 99;
}

/// What [`write_object_world`] wrote, for tests to check the loaded world against.
#[derive(Debug, Clone)]
pub struct ObjectWorld {
    /// The data root (holding `navmesh/`, `res/`, `prim/`).
    pub data_root: PathBuf,
    /// The navmesh files' contents, by region.
    pub navmeshes: BTreeMap<RegionId, NavMesh>,
    /// The mesh each placeable object id leads to.
    pub meshes: BTreeMap<u32, ObjectMesh>,
}

fn object(object_id: u32, owner: RegionId, uid: u16, position: [f32; 3], yaw: f32) -> Object {
    Object {
        object_id,
        position: position.map(F32::from),
        kind: 0xFFFF,
        yaw: F32::from(yaw),
        uid,
        region_id: owner.0,
        ..Object::default()
    }
}

/// Rolling terrain heights from 0 to about 12, and a blocked square under the first house.
fn terrain(region: RegionId, phase: f32) -> NavMesh {
    let mut mesh = crate::region_from_mask(region, |tx, tz| {
        (12..18).contains(&tx) && (12..18).contains(&tz)
    });
    for (i, h) in mesh.heights.iter_mut().enumerate() {
        let (x, z) = ((i % 97) as f32, (i / 97) as f32);
        *h = F32::from(6.0 + 6.0 * ((x * 0.21 + phase).sin() * (z * 0.17).cos()));
    }
    mesh
}

/// Writes `bytes` to `path`, making its folder.
pub(crate) fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("a file in a folder")).expect("test folder");
    std::fs::write(path, bytes).expect("test file");
}

/// Writes the world into `data_root` (created; it should be empty) and returns what it holds.
///
/// West lists: a house (yaw 0) over a blocked square, a second house above it (y 60, yaw
/// 0.3), a house at yaw 0.7, a bridge at yaw 1.9 over the rolling ground, a gate at yaw −2.5,
/// the east region's bridge (its footprint reaches into west; listed in both files with each
/// file's local position), a tree, a missing file, a dungeon and an unlisted id. East lists a
/// house at yaw 4.0 and the shared bridge.
///
/// # Panics
/// When the folder cannot be written.
pub fn write_object_world(data_root: &Path) -> ObjectWorld {
    let navmesh_dir = data_root.join("navmesh");
    let house = game_like(box_building()).to_bytes();
    let bridge = {
        // Its ends are plain edges (0x00): a walker steps onto the deck from the ground at
        // either end, as onto the outer end of a game bridge.
        let mut deck = game_like(bridge_deck());
        if let Some(nav) = deck.nav.as_mut() {
            for edge in &mut nav.outline {
                if edge.2 == 0x08 {
                    edge.2 = 0;
                }
            }
        }
        deck.to_bytes()
    };
    let gate = game_like(event_gate()).to_bytes();
    write(&data_root.join("res/Bldg/Town/House01.BMS"), &house);
    write(&data_root.join("prim/mesh/bridge_span.bms"), &bridge);
    write(
        &data_root.join("Res/Bridge/Bridge.bsr"),
        &ResourceFile::minimal(ResourceKind::Resource, b"PRIM\\Mesh\\Bridge_Span.bms").to_vec(),
    );
    write(&data_root.join("prim/mesh/fort_gate.bms"), &gate);
    write(
        &data_root.join("res/fort/gate.bsr"),
        &ResourceFile::minimal(ResourceKind::Resource, b"prim\\mesh\\fort_gate.bms").to_vec(),
    );
    write(
        &data_root.join("res/fort/gate.cpd"),
        &ResourceFile::minimal(ResourceKind::Compound, b"res\\FORT\\gate.BSR").to_vec(),
    );
    write(
        &data_root.join("res/tree/tree01.bms"),
        &render_only().to_bytes(),
    );
    let ifo = ObjectIfo::new(vec![
        ObjectEntry::new(ids::HOUSE, 0, b"res\\bldg\\town\\house01.bms".to_vec()),
        ObjectEntry::new(ids::BRIDGE, 0, b"RES\\bridge\\bridge.bsr".to_vec()),
        ObjectEntry::new(ids::GATE, 0, b"res\\Fort\\Gate.cpd".to_vec()),
        ObjectEntry::new(ids::TREE, 0, b"res\\tree\\TREE01.bms".to_vec()),
        ObjectEntry::new(ids::MISSING, 0, b"res\\bldg\\town\\gone.bms".to_vec()),
        ObjectEntry::new(ids::DUNGEON, 0, b"dungeon\\cave.dof".to_vec()),
    ]);
    let mut west = terrain(WEST, 0.0);
    let mut east = terrain(EAST, 1.3);
    // The shared bridge, owned by east: at local (100, 0, 900) there, (2020, 0, 900) in west.
    let shared = |x: f32| object(ids::BRIDGE, EAST, 1, [x, 0.0, 900.0], 3.0);
    west.objects = vec![
        object(ids::HOUSE, WEST, 1, [240.0, 5.0, 240.0], 0.0),
        object(ids::HOUSE, WEST, 2, [260.0, 60.0, 250.0], 0.3),
        object(ids::HOUSE, WEST, 3, [900.0, 5.0, 500.0], 0.7),
        object(ids::BRIDGE, WEST, 4, [1200.0, 0.0, 1200.0], 1.9),
        object(ids::GATE, WEST, 5, [500.0, 1.0, 1400.0], -2.5),
        shared(2020.0),
        object(ids::TREE, WEST, 6, [100.0, 0.0, 100.0], 0.0),
        object(ids::MISSING, WEST, 7, [150.0, 0.0, 100.0], 0.0),
        object(ids::DUNGEON, WEST, 8, [200.0, 0.0, 100.0], 0.0),
        object(ids::UNLISTED, WEST, 9, [250.0, 0.0, 100.0], 0.0),
    ];
    east.objects = vec![
        shared(100.0),
        object(ids::HOUSE, EAST, 2, [700.0, 3.0, 700.0], 4.0),
    ];
    let parse = |b: &[u8]| ObjectMesh::parse(b).expect("test kit meshes parse");
    let meshes = BTreeMap::from([
        (ids::HOUSE, parse(&house)),
        (ids::BRIDGE, parse(&bridge)),
        (ids::GATE, parse(&gate)),
    ]);
    list_in_cells(&mut west, &meshes);
    list_in_cells(&mut east, &meshes);
    let navmeshes = BTreeMap::from([(WEST, west), (EAST, east)]);
    write_navmesh_folder(&navmesh_dir, &navmeshes, &ifo);
    ObjectWorld {
        data_root: data_root.to_path_buf(),
        navmeshes,
        meshes,
    }
}

/// Writes a navmesh folder: each region's file, a `mapinfo.mfo` enabling them all, and the
/// `object.ifo`.
pub(crate) fn write_navmesh_folder(
    navmesh_dir: &Path,
    navmeshes: &BTreeMap<RegionId, NavMesh>,
    ifo: &ObjectIfo,
) {
    for (region, mesh) in navmeshes {
        write(
            &navmesh_dir.join(region.file_name()),
            &crate::bytes_of(mesh),
        );
    }
    write(
        &navmesh_dir.join("mapinfo.mfo"),
        &MapInfo::with_regions(navmeshes.keys().copied()).to_vec(),
    );
    write(
        &navmesh_dir.join("object.ifo"),
        &ifo.to_vec().expect("a writable table"),
    );
}

/// Lists each object of `mesh` whose mesh is known in every cell that its placed footprint
/// (the box of its vertices, widened by one unit) meets, borders included: the server finds
/// objects only through the list of the cell a point or a walker is in, and a walker steps
/// into a footprint from the cell beside it.
pub fn list_in_cells(mesh: &mut NavMesh, meshes: &BTreeMap<u32, ObjectMesh>) {
    for cell in &mut mesh.cells {
        cell.objects.clear();
    }
    for (i, o) in mesh.objects.iter().enumerate() {
        let Some(nav) = meshes.get(&o.object_id).and_then(|m| m.nav.as_ref()) else {
            continue;
        };
        let (sin, cos) = f64::from(o.yaw.get()).sin_cos();
        let [px, _, pz] = o.position.map(|c| f64::from(c.get()));
        let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
        for v in &nav.vertices {
            let (x, z) = (
                f64::from(v.position[0].get()),
                f64::from(v.position[2].get()),
            );
            let p = [x * cos - z * sin + px, x * sin + z * cos + pz];
            for k in 0..2 {
                lo[k] = lo[k].min(p[k] - 1.0);
                hi[k] = hi[k].max(p[k] + 1.0);
            }
        }
        for cell in &mut mesh.cells {
            let (min, max) = (
                cell.min.map(|c| f64::from(c.get())),
                cell.max.map(|c| f64::from(c.get())),
            );
            let meets = min[0] <= hi[0] && lo[0] <= max[0] && min[1] <= hi[1] && lo[1] <= max[1];
            if meets && cell.objects.len() < usize::from(u8::MAX) {
                cell.objects.push(i as u16);
            }
        }
    }
}

/// A path query of [`write_object_world`]'s world that starts where a surface lies over
/// another (under a bridge's deck or a house's upper floor), with a goal that the exact paths
/// with objects from the two surfaces reach differently (one of them may find none): the
/// segment (world x1, z1, x2, z2) and the height of the ground under the start. `None` if the
/// loaded `world` has no such start.
pub fn start_under_a_surface(world: &silknav::World) -> Option<([f64; 4], f32)> {
    use silknav::{PathIndex, PathOptions, PathScratch, Position};
    let (x0, z0) = (f64::from(WEST.x()) * 1920.0, f64::from(WEST.z()) * 1920.0);
    let paths = PathIndex::build(world);
    let mut scratch = PathScratch::new();
    for i in 0..70 {
        for j in 0..70 {
            let (x, z) = (
                x0 + 60.0 + 25.3 * f64::from(i),
                z0 + 60.0 + 26.1 * f64::from(j),
            );
            let p = Position::from_world(x, z)?;
            let (Some(top), Some(ground)) = (
                world.cell_at(p, Surface::Highest),
                world.height_at(p, Surface::Terrain),
            ) else {
                continue;
            };
            if world
                .cell_at(p, Surface::Near(ground))
                .is_none_or(|c| c == top)
            {
                continue;
            }
            for (gx, gz) in [
                (x + 150.0, z),
                (x - 150.0, z),
                (x, z + 150.0),
                (x, z - 150.0),
            ] {
                let Some(q) = Position::from_world(gx, gz) else {
                    continue;
                };
                let exact = PathOptions::exact_with_objects();
                let below = paths.find_path(
                    world,
                    p,
                    q,
                    &exact.with_start(Surface::Near(ground)).unwrap(),
                    &mut scratch,
                );
                let above = paths.find_path(world, p, q, &exact, &mut scratch);
                if below.is_ok() && below != above {
                    return Some(([x, z, gx, gz], ground));
                }
            }
        }
    }
    None
}
