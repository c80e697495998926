//! A world of object floors only, as a dungeon is: one region whose terrain is blocked
//! everywhere, and over it object meshes a walker stands on, written as a client `Data`
//! folder (`navmesh/` with the region, `mapinfo.mfo` and `object.ifo`; the meshes under
//! `res/`).
//!
//! - A walkway of three bridge spans ([`crate::second_writer::bms::bridge_deck`]) joined end to
//!   end by link edges, the middle one turned half round, as the world generator joins a
//!   bridge's halves: a walker crosses from span to span only through the links.
//! - A fourth span on its own, which no walk reaches from the walkway.
//! - A walled building ([`crate::second_writer::bms::box_building`]) on its own: its doorway opens
//!   onto blocked ground, so its floor is a room no walk leaves.
//!
//! The meshes are made like the game's ([`game_like`]), so that a walker goes from triangle to
//! triangle without stepping down onto the (blocked) terrain, and steps off onto the terrain
//! where an edge lets it.

use crate::object_world::{list_in_cells, write, write_navmesh_folder};
use crate::second_writer::bms::{box_building, bridge_deck, game_like};
use jmxv::bms::ObjectMesh;
use jmxv::ifo::{ObjectEntry, ObjectIfo};
use jmxv::nvm::{Link, NavMesh, Object};
use jmxv::{RegionId, F32};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The region: [`crate::TEST_REGION`].
pub const REGION: RegionId = crate::TEST_REGION;

/// Object ids of the world's `object.ifo`.
pub mod ids {
    /// A bridge span, 600 × 80, its ends link edges.
    pub const SPAN: u32 = 0;
    /// A walled building, 400 × 300, with a doorway.
    pub const HOUSE: u32 = 1;
    /// A bridge span whose local x = 0 end is a plain edge, onto the terrain (the gorge
    /// world's outer spans).
    pub const END_SPAN: u32 = 2;
}

/// The outline edge of a span's end at its local x = 600 (the east end, unturned).
const SPAN_EAST_END: u16 = 7;
/// The outline edge of a span's end at its local x = 0.
const SPAN_WEST_END: u16 = 6;

/// What [`write_floors_world`] wrote.
#[derive(Debug, Clone)]
pub struct FloorsWorld {
    /// The data root (holding `navmesh/` and `res/`).
    pub data_root: PathBuf,
    /// The region's navmesh, with its object records.
    pub navmesh: NavMesh,
    /// The mesh of each object id.
    pub meshes: BTreeMap<u32, ObjectMesh>,
    /// Points on the walkway's floor (world x, z), one near each end of each span, west to
    /// east: every two of them are joined by a walk across the links.
    pub walkway: Vec<[f64; 2]>,
    /// A point on the lone span's floor.
    pub lone_span: [f64; 2],
    /// A point on the building's floor.
    pub room: [f64; 2],
    /// Points on the gorge world's banks, west and east (on blocked ground in the floors
    /// world).
    pub banks: [[f64; 2]; 2],
}

fn object(object_id: u32, uid: u16, position: [f32; 3], yaw: f32, links: Vec<Link>) -> Object {
    Object {
        object_id,
        position: position.map(F32::from),
        kind: 0xFFFF,
        yaw: F32::from(yaw),
        uid,
        region_id: REGION.0,
        links,
        ..Object::default()
    }
}

fn link(other: u16, other_edge: u16, edge: u16) -> Link {
    Link {
        link_object: other,
        link_edge: other_edge,
        edge,
    }
}

/// Writes the world into `data_root` (created; it should be empty) and returns what it holds.
///
/// The walkway runs along z = 300 to 380 from x = 100 to 1900 of the region: span 0 at
/// (100, 20, 300) unturned, span 1 at (1300, 20, 380) turned by π (so that its local x = 600
/// end meets span 0's), span 2 at (1900, 20, 380) turned by π (its local x = 600 end meets
/// span 1's local x = 0 end). Each span's other end is a link edge no row names, which no
/// walk crosses. The lone span lies at (300, 30, 1200), turned by 0.5; the building at
/// (900, 10, 800), turned by 0.3.
///
/// # Panics
/// When the folder cannot be written.
pub fn write_floors_world(data_root: &Path) -> FloorsWorld {
    write_world(data_root, false)
}

/// [`write_floors_world`] with a gorge's banks: the tiles west of the walkway's west end
/// (x < 100) and east of its east end (x ≥ 1900), from z = 300 to 380, are walkable terrain,
/// and the walkway's two outer ends are plain edges (0x00) a walker steps across between the
/// terrain and the spans. So the banks are joined only over the walkway: no path found on
/// the terrain joins them. [`FloorsWorld::banks`] holds a point on each.
///
/// # Panics
/// When the folder cannot be written.
pub fn write_gorge_world(data_root: &Path) -> FloorsWorld {
    write_world(data_root, true)
}

fn write_world(data_root: &Path, banks: bool) -> FloorsWorld {
    let span = game_like(bridge_deck()).to_bytes();
    let end_span = {
        let mut mesh = game_like(bridge_deck());
        if let Some(nav) = mesh.nav.as_mut() {
            // The local x = 0 end: a plain edge, stepped across onto the terrain.
            nav.outline[usize::from(SPAN_WEST_END)].2 = 0;
        }
        mesh.to_bytes()
    };
    let house = game_like(box_building()).to_bytes();
    write(&data_root.join("res/dungeon/span.bms"), &span);
    write(&data_root.join("res/dungeon/room.bms"), &house);
    write(&data_root.join("res/dungeon/end_span.bms"), &end_span);
    let ifo = ObjectIfo::new(vec![
        ObjectEntry::new(ids::SPAN, 0, b"res\\dungeon\\span.bms".to_vec()),
        ObjectEntry::new(ids::HOUSE, 0, b"res\\dungeon\\room.bms".to_vec()),
        ObjectEntry::new(ids::END_SPAN, 0, b"res\\dungeon\\end_span.bms".to_vec()),
    ]);
    // The banks: tiles x < 5 and x = 95, z from 15 to 18 (world units 300 to 380).
    let bank = |tx: usize, tz: usize| banks && (15..19).contains(&tz) && (tx < 5 || tx == 95);
    let mut navmesh = crate::region_from_mask(REGION, |tx, tz| !bank(tx, tz));
    let outer = if banks { ids::END_SPAN } else { ids::SPAN };
    let half_turn = std::f32::consts::PI;
    navmesh.objects = vec![
        object(
            outer,
            1,
            [100.0, 20.0, 300.0],
            0.0,
            vec![link(1, SPAN_EAST_END, SPAN_EAST_END)],
        ),
        object(
            ids::SPAN,
            2,
            [1300.0, 20.0, 380.0],
            half_turn,
            vec![
                link(0, SPAN_EAST_END, SPAN_EAST_END),
                link(2, SPAN_EAST_END, SPAN_WEST_END),
            ],
        ),
        object(
            outer,
            3,
            [1900.0, 20.0, 380.0],
            half_turn,
            vec![link(1, SPAN_WEST_END, SPAN_EAST_END)],
        ),
        object(ids::SPAN, 4, [300.0, 30.0, 1200.0], 0.5, Vec::new()),
        object(ids::HOUSE, 5, [900.0, 10.0, 800.0], 0.3, Vec::new()),
    ];
    let parse = |b: &[u8]| ObjectMesh::parse(b).expect("test kit meshes parse");
    let meshes = BTreeMap::from([
        (ids::SPAN, parse(&span)),
        (ids::HOUSE, parse(&house)),
        (ids::END_SPAN, parse(&end_span)),
    ]);
    list_in_cells(&mut navmesh, &meshes);
    let navmeshes = BTreeMap::from([(REGION, navmesh)]);
    write_navmesh_folder(&data_root.join("navmesh"), &navmeshes, &ifo);
    let navmesh = navmeshes.into_values().next().expect("the one region");
    let (x0, z0) = (
        f64::from(REGION.x()) * 1920.0,
        f64::from(REGION.z()) * 1920.0,
    );
    let at = |x: f64, z: f64| [x0 + x, z0 + z];
    // The building's floor: local (200, 150), turned by 0.3 about its position.
    let (sin, cos) = 0.3f64.sin_cos();
    FloorsWorld {
        data_root: data_root.to_path_buf(),
        navmesh,
        meshes,
        walkway: vec![
            at(130.0, 330.0),
            at(670.0, 350.0),
            at(730.0, 320.0),
            at(1270.0, 360.0),
            at(1330.0, 310.0),
            at(1870.0, 345.0),
        ],
        lone_span: {
            let (sin, cos) = 0.5f64.sin_cos();
            let (lx, lz) = (300.0, 40.0);
            at(300.0 + lx * cos - lz * sin, 1200.0 + lx * sin + lz * cos)
        },
        room: at(
            900.0 + 200.0 * cos - 150.0 * sin,
            800.0 + 200.0 * sin + 150.0 * cos,
        ),
        banks: [at(50.0, 340.0), at(1910.0, 340.0)],
    }
}
