//! Queries on small worlds with objects made from fuzzed placements and meshes (the fuzz target
//! `object_queries`, and the replay of its findings in the tests): cell, height, snap, line of
//! sight, move and the paths through objects never panic or hang, line of sight agrees with
//! the brute-force oracle ([`crate::oracle::objects`]), and the answers agree with each other
//! the way users chain them.
//!
//! Input: a shape byte (bit 0: two regions wide), each region's terrain as
//! [`crate::fuzz_world`] reads it, a count of instances (0 to 6), and per instance ten bytes:
//! the mesh (the test kit's house, bridge or gate, one of the generator's catalog, or a mesh
//! made from the input, whose bytes follow: see `mesh`), x and z (u16 fractions of the
//! world's width and depth),
//! y, yaw, an edge and a flag to give it, and a link byte (bit 7 links one of the instance's
//! edges to an edge of another instance of its region). The rest is queries of ten bytes: a
//! kind byte (bit 0: the first point near an instance, chosen by the next byte; bit 1: the
//! second point within 64 units of the first; bits 2 to 4: the snap distance), the instance
//! byte, and four u16 fractions for `x1 z1 x2 z2` (near an instance: of a 240-unit square
//! round its position).
//!
//! Checks, for every query:
//! - a point with a cell has a height, at any reference height too;
//! - a snapped point has a cell and lies within the distance asked;
//! - a walk that arrives stops at the goal (within the rounding of an object's frame);
//! - where the start is unambiguous ([`clear_start`]), and the segment passes no mesh vertex
//!   and crosses no two instances' edges within 1e-6 units (which edge it meets first there
//!   is the placement's rounding, as on a triangle's side), the cast agrees with the oracle's;
//! - the exact path through objects starts and ends at the points asked, its length is the sum
//!   of its legs and at least the straight distance, and it has its surfaces
//!   ([`silknav::World::path_surfaces`]: every leg clear by line of sight from the surface the
//!   leg before ended on); where the straight segment is such a leg, the path is straight;
//! - every leg of the walkable path through objects is walked to its end by `move_along_y`
//!   from the height the leg before arrived at, to the height `path_heights` gives its end,
//!   and its `exact_length` is the exact path's;
//! - searches have a budget, so nothing hangs.

use crate::fuzz_world::{region_input, Bytes};
use crate::object_world::list_in_cells;
use crate::oracle::objects::{agree, clear_start, length, library_ray, oracle_ray, ObjectOracle};
use crate::second_writer::bms::{
    box_building, bridge_deck, event_gate, mesh_of, SpecEdge, LINK, NONE, OPEN, SIEGE, UNDERPASS,
    WALL,
};
use jmxv::bms::ObjectMesh;
use jmxv::ifo::{ObjectEntry, ObjectIfo};
use jmxv::mfo::MapInfo;
use jmxv::nvm::{Link, NavMesh, Object};
use jmxv::{RegionId, F32};
use silknav::build::build_world;
use silknav::files::WorldSource;
use silknav::pk2_archive::{pack, Key};
use silknav::world::movement::MoveStop;
use silknav::worldgen::catalog::OBJECTS;
use silknav::worldgen::meshes::object_mesh;
use silknav::{
    LoadOptions, MoveOptions, PathIndex, PathOptions, PathScratch, Position, Surface, World,
};
use std::collections::BTreeMap;

const ORIGIN: (u8, u8) = (128, 64);
const SIDE: f64 = 1920.0;
const MAX_INSTANCES: u8 = 7;
const MAX_QUERIES: usize = 32;
const BUDGET: usize = 20_000;
/// Edge flags a fuzzed edge may get: those of the game's meshes, and any byte.
const FLAGS: [u8; 7] = [OPEN, WALL, LINK, UNDERPASS, SIEGE, WALL | SIEGE, 0x04];

/// A mesh made from the input: 3 to 8 vertices in a 120-unit square (heights from the input),
/// 1 to 6 triangles over them, each side of a triangle an outline edge when one triangle has
/// it and an inline edge between the first two that share it, flags from the input ([`FLAGS`];
/// an inline edge keeps its flag but bit 0x02, so that a wall between two cells blocks one
/// way, 0x01: from the second cell into the first).
fn mesh(input: &mut Bytes<'_>) -> ObjectMesh {
    let n = usize::from(input.byte() % 6) + 3;
    let positions: Vec<[f32; 3]> = (0..n)
        .map(|_| {
            let (x, z, y) = (input.byte(), input.byte(), input.byte());
            [
                f32::from(x) * 120.0 / 255.0,
                f32::from(y) / 8.0,
                f32::from(z) * 120.0 / 255.0,
            ]
        })
        .collect();
    let mut cells = Vec::new();
    for _ in 0..input.byte() % 6 + 1 {
        let v = [0, 0, 0].map(|_| u16::from(input.byte()) % n as u16);
        if v[0] != v[1] && v[1] != v[2] && v[0] != v[2] {
            cells.push((v, 0, 0));
        }
    }
    if cells.is_empty() {
        cells.push(([0, 1, 2], 0, 0));
    }
    // Each side by its two vertices (lower first): the cells that have it.
    let mut sides: BTreeMap<[u16; 2], Vec<u16>> = BTreeMap::new();
    for (c, (v, ..)) in cells.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (v[k], v[(k + 1) % 3]);
            sides
                .entry([a.min(b), a.max(b)])
                .or_default()
                .push(c as u16);
        }
    }
    let (mut outline, mut inline): (Vec<SpecEdge>, Vec<SpecEdge>) = (Vec::new(), Vec::new());
    for (v, owners) in sides {
        let flag = FLAGS[usize::from(input.byte()) % FLAGS.len()];
        match owners[..] {
            [one] => outline.push((v, [one, NONE], flag, 0)),
            [a, b, ..] => inline.push((v, [a, b], flag & !WALL | (flag & 1), 0)),
            [] => {}
        }
    }
    let bytes = mesh_of(&positions, cells, outline, inline).to_bytes();
    ObjectMesh::parse(&bytes).expect("the test kit's writer writes what the reader reads")
}

/// The mesh an instance byte picks.
fn pick_mesh(kind: u8, input: &mut Bytes<'_>) -> ObjectMesh {
    let parse = |bytes: Vec<u8>| ObjectMesh::parse(&bytes).expect("test kit meshes parse");
    match kind % 5 {
        0 => parse(box_building().to_bytes()),
        1 => parse(bridge_deck().to_bytes()),
        2 => parse(event_gate().to_bytes()),
        3 => object_mesh(&OBJECTS[usize::from(kind / 5) % OBJECTS.len()]),
        _ => mesh(input),
    }
}

/// The world's files: navmeshes listing the instances, `object.ifo`, `mapinfo.mfo` and one
/// mesh per instance; and the navmeshes and meshes for the oracle.
type Files = (
    Vec<(String, Vec<u8>)>,
    BTreeMap<RegionId, NavMesh>,
    BTreeMap<u32, ObjectMesh>,
);

fn files(input: &mut Bytes<'_>) -> Files {
    let shape = input.byte();
    let width = 1 + (shape & 1);
    let regions: Vec<RegionId> = (0..width)
        .map(|dx| RegionId::new(ORIGIN.0 + dx, ORIGIN.1))
        .collect();
    let inputs: Vec<_> = regions.iter().map(|&r| region_input(r, input)).collect();
    let mut navmeshes = build_world(&inputs);
    let mut meshes: BTreeMap<u32, ObjectMesh> = BTreeMap::new();
    let mut entries = Vec::new();
    let mut files = Vec::new();
    for k in 0..u32::from(input.byte() % MAX_INSTANCES) {
        let kind = input.byte();
        let mut mesh = pick_mesh(kind, input);
        let (fx, fz) = (input.u16(), input.u16());
        let (y, yaw, edge, flag, link) = (
            input.byte(),
            input.byte(),
            input.byte(),
            input.byte(),
            input.byte(),
        );
        if let Some(nav) = mesh.nav.as_mut() {
            let edges = nav.outline_edges.len() + nav.inline_edges.len();
            if edges > 0 && edge & 0x80 != 0 {
                let e = usize::from(edge & 0x7f) % edges;
                let outline = nav.outline_edges.len();
                let record = match e.checked_sub(outline) {
                    None => &mut nav.outline_edges[e],
                    Some(i) => &mut nav.inline_edges[i],
                };
                record.flag = FLAGS.get(usize::from(flag)).copied().unwrap_or(flag);
            }
        }
        let x = f64::from(fx) / f64::from(u16::MAX) * SIDE * f64::from(width);
        let owner = regions[(x / SIDE) as usize % regions.len()];
        let local_x = x - f64::from(owner.x() - ORIGIN.0) * SIDE;
        let local_z = f64::from(fz) / f64::from(u16::MAX) * SIDE;
        // Quarter turns among the rest: the meshes' axis-aligned sides then stay so.
        let yaw = if yaw < 16 {
            f32::from(yaw % 4) * std::f32::consts::FRAC_PI_2
        } else {
            f32::from(yaw) * std::f32::consts::TAU / 256.0
        };
        let region_mesh = navmeshes.get_mut(&owner).expect("a region of the world");
        let uid = region_mesh.objects.len() as u16;
        let mut links = Vec::new();
        if link & 0x80 != 0 && uid > 0 {
            let other = u16::from(link & 0x7f) % uid;
            links.push(Link {
                link_object: other,
                link_edge: u16::from(edge & 0x0f),
                edge: u16::from(flag & 0x0f),
            });
        }
        region_mesh.objects.push(Object {
            object_id: k,
            position: [local_x as f32, f32::from(y) - 64.0, local_z as f32].map(F32::from),
            kind: 0xFFFF,
            yaw: F32::from(yaw),
            uid,
            region_id: owner.0,
            links,
            ..Object::default()
        });
        let path = format!("res\\fuzz\\mesh{k}.bms");
        files.push((
            format!("res/fuzz/mesh{k}.bms"),
            mesh.to_vec().expect("a parsed mesh writes"),
        ));
        entries.push(ObjectEntry::new(k, 0, path.into_bytes()));
        meshes.insert(k, mesh);
    }
    for (region, navmesh) in &mut navmeshes {
        list_in_cells(navmesh, &meshes);
        files.push((
            format!("navmesh/{}", region.file_name()),
            crate::bytes_of(navmesh),
        ));
    }
    files.push((
        "navmesh/object.ifo".to_string(),
        ObjectIfo::new(entries).to_vec().expect("a writable table"),
    ));
    files.push((
        "navmesh/mapinfo.mfo".to_string(),
        MapInfo::with_regions(navmeshes.keys().copied()).to_vec(),
    ));
    (files, navmeshes, meshes)
}

/// What [`check`] checked, for tests to see that their inputs reach the objects.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Instances loaded.
    pub instances: usize,
    /// Queries run.
    pub queries: usize,
    /// Queries whose first point is on an object.
    pub on_objects: usize,
    /// Casts compared with the oracle.
    pub casts: usize,
    /// Exact paths through objects found.
    pub exact_paths: usize,
    /// Those that turn.
    pub turning: usize,
    /// Walkable paths through objects found.
    pub walkable_paths: usize,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.instances += other.instances;
        self.queries += other.queries;
        self.on_objects += other.on_objects;
        self.casts += other.casts;
        self.exact_paths += other.exact_paths;
        self.turning += other.turning;
        self.walkable_paths += other.walkable_paths;
    }
}

/// Builds the world `data` describes and runs its queries, panicking at the first answer
/// that contradicts another or the oracle (see the [module docs](self)). Inputs of any length
/// and content are fine: a short one is a world of open ground with no objects and no queries.
pub fn check(data: &[u8]) -> Tally {
    let mut input = Bytes(data);
    let (files, navmeshes, meshes) = files(&mut input);
    let archive = pack(files, &Key::default()).expect("the files pack");
    let source = WorldSource::archive_bytes(archive, "fuzz.pk2", "", &Key::default())
        .expect("a packed archive opens");
    let world = World::load_source(&source, &LoadOptions::default()).expect("the world loads");
    let paths = PathIndex::build(&world);
    let terrain = World::load_source(&source, &LoadOptions::terrain_only())
        .expect("the world loads terrain-only");
    let oracle = ObjectOracle::new(&navmeshes, &meshes);
    let width = navmeshes.len() as f64 * SIDE;
    let (x0, z0) = (f64::from(ORIGIN.0) * SIDE, f64::from(ORIGIN.1) * SIDE);
    let mut scratch = PathScratch::with_budget(BUDGET);
    let mut tally = Tally {
        instances: world.object_instances().len(),
        ..Tally::default()
    };
    for _ in 0..MAX_QUERIES {
        if input.0.len() < 10 {
            break;
        }
        let (kind, near) = (input.byte(), input.byte());
        let f = [0; 4].map(|_| f64::from(input.u16()) / f64::from(u16::MAX));
        let a = match oracle
            .placed
            .get(usize::from(near) % oracle.placed.len().max(1))
        {
            Some(placed) if kind & 1 != 0 => {
                let centre = placed.to_world(0.0, 0.0);
                [
                    centre[0] + (f[0] - 0.5) * 240.0,
                    centre[1] + (f[1] - 0.5) * 240.0,
                ]
            }
            _ => [x0 + f[0] * width, z0 + f[1] * SIDE],
        };
        let b = if kind & 2 != 0 {
            [a[0] + (f[2] - 0.5) * 128.0, a[1] + (f[3] - 0.5) * 128.0]
        } else {
            [x0 + f[2] * width, z0 + f[3] * SIDE]
        };
        let (Some(pa), Some(pb)) = (
            Position::from_world(a[0], a[1]),
            Position::from_world(b[0], b[1]),
        ) else {
            continue;
        };
        tally.queries += 1;
        if world
            .cell_at(pa, Surface::Highest)
            .is_some_and(|c| c.object.is_some())
        {
            tally.on_objects += 1;
        }
        check_points(&world, pa, pb, f64::from((kind >> 2) & 7) * 8.0);
        if check_sight(&world, &terrain, &oracle, pa, pb) {
            tally.casts += 1;
        }
        check_paths(&world, &paths, pa, pb, &mut scratch, &mut tally);
    }
    tally
}

/// Cell, height and snap.
fn check_points(world: &World, pa: Position, pb: Position, snap: f64) {
    let cell = world.cell_at(pa, Surface::Highest);
    if cell.is_some() {
        assert!(
            world.height_at(pa, Surface::Terrain).is_some(),
            "{pa} has a cell, no height"
        );
    }
    for y in [-100.0, 0.0, 40.0, 200.0] {
        if world.cell_at(pa, Surface::Near(y)).is_some() {
            assert!(
                world.height_at(pa, Surface::Near(y)).is_some(),
                "{pa} at {y}"
            );
        }
    }
    match world.nearest_walkable(pa, Surface::Highest, snap) {
        Some(s) => {
            assert!(
                world.cell_at(s.position, Surface::Highest).is_some(),
                "snap of {pa}: {s:?}"
            );
            assert!(s.distance <= snap, "snap of {pa} within {snap}: {s:?}");
        }
        None => assert!(cell.is_none(), "{pa} has a cell, yet no snap"),
    }
    if let Ok(walk) = world.move_along(pa, pb, &MoveOptions::default()) {
        // On an object the walk works in the object's frame, as the server does: it arrives
        // at the goal turned into that frame and back, within a few f32 steps of it.
        if walk.stop == MoveStop::Arrived {
            assert!(length(walk.position, pb) <= 1e-3, "{pa} -> {pb}: {walk:?}");
        }
    }
}

/// Line of sight against the oracle, where the start is unambiguous (whether it was).
fn check_sight(
    world: &World,
    terrain: &World,
    oracle: &ObjectOracle,
    pa: Position,
    pb: Position,
) -> bool {
    let start = world.cell_at(pa, Surface::Highest).and_then(|c| c.object);
    if !clear_start(oracle, pa, start)
        || oracle.passes_near_a_vertex(pa, pb, 1e-6)
        || oracle.crosses_two_instances_at_once(pa, pb, 1e-6)
    {
        return false;
    }
    let (got, want) = (
        library_ray(world, pa, Surface::Highest, pb),
        oracle_ray(oracle, world, terrain, pa, start, pb),
    );
    assert!(
        agree(got, want, length(pa, pb)),
        "{pa} -> {pb}: library {got:?}, oracle {want:?}"
    );
    true
}

/// The exact and walkable paths through objects, leg by leg.
fn check_paths(
    world: &World,
    paths: &PathIndex,
    pa: Position,
    pb: Position,
    scratch: &mut PathScratch,
    tally: &mut Tally,
) {
    let exact = paths.find_path(world, pa, pb, &PathOptions::exact_with_objects(), scratch);
    if let Ok(path) = &exact {
        tally.exact_paths += 1;
        tally.turning += usize::from(path.waypoints.len() > 2);
        let ends = (
            path.waypoints[0],
            *path.waypoints.last().expect("two points"),
        );
        assert_eq!(ends, (pa, pb));
        let sum: f64 = path.waypoints.windows(2).map(|l| length(l[0], l[1])).sum();
        let tolerance = 1e-9 * (1.0 + sum);
        assert!((sum - path.length).abs() <= tolerance, "{path:?}");
        assert!(path.length >= length(pa, pb) - tolerance, "{path:?}");
        let surfaces = world.path_surfaces(path, Surface::Highest);
        assert!(
            surfaces.is_some(),
            "{pa} -> {pb}: a leg is not clear: {path:?}"
        );
        let straight = silknav::WorldPath {
            waypoints: vec![pa, pb],
            ..path.clone()
        };
        if world.path_surfaces(&straight, Surface::Highest).is_some() {
            assert!(
                (path.length - length(pa, pb)).abs() <= tolerance,
                "{pa} sees {pb}, yet the path is {path:?}"
            );
        }
    }
    let options = PathOptions::new().with_objects(true).unwrap();
    if let Ok(path) = paths.find_path(world, pa, pb, &options, scratch) {
        tally.walkable_paths += 1;
        if let Ok(exact) = &exact {
            assert_eq!(path.exact_length, exact.length, "{pa} -> {pb}: {path:?}");
        }
        let heights = world.path_heights(&path, Surface::Highest);
        for (k, leg) in path.waypoints.windows(2).enumerate() {
            let Some(y) = heights[k] else {
                panic!("{pa} -> {pb}: waypoint {k} stands nowhere: {path:?} {heights:?}");
            };
            let walked = world.move_along(
                leg[0],
                leg[1],
                &MoveOptions::new().with_start(Surface::Near(y)),
            );
            assert!(
                matches!(walked, Ok(m) if m.stop == MoveStop::Arrived
                    && Some(m.height) == heights[k + 1]),
                "{pa} -> {pb}, leg {leg:?} from {y}: {walked:?}, heights {heights:?}"
            );
        }
    }
}
