//! Hand-computed cases of the queries.

use super::*;
use crate::build::{build_world, RegionInput};
use jmxv::F32;
use std::path::PathBuf;

fn region_with_heights(id: RegionId, heights: &[(usize, usize, f32)]) -> RegionInput {
    let mut input = RegionInput::open(id);
    for &(vx, vz, h) in heights {
        input.heights[vz * 97 + vx] = h;
    }
    input
}

fn world_of(inputs: &[RegionInput]) -> World {
    let meshes = build_world(inputs);
    World::from_navmeshes(meshes.iter().map(|(r, m)| (*r, m)))
}

#[test]
fn height_uses_the_tile_triangles_not_bilinear_interpolation() {
    let id = RegionId::new(1, 1);
    // Vertex (1, 1) at 80 and vertex (2, 1) at 40; everything else flat at 0.
    let world = world_of(&[region_with_heights(id, &[(1, 1, 80.0), (2, 1, 40.0)])]);
    let h = |x: f32, z: f32| world.height_at(Position::new(id, x, z)).unwrap();
    // Tile (0, 0), same parity, diagonal (0,0)–(1,1); only its h11 is raised.
    assert_eq!(h(15.0, 5.0), 20.0); // below the diagonal: 0.25 · 80 (bilinear: 15)
    assert_eq!(h(5.0, 15.0), 20.0); // above: 0.25 · 80
    assert_eq!(h(10.0, 10.0), 40.0); // on the diagonal
                                     // Tile (1, 0), mixed parity, diagonal (1,0)–(0,1): h01 = 80, h11 = 40.
    assert_eq!(h(25.0, 5.0), 20.0); // lower-left {h00, h10, h01}: 0.25 · 80
    assert_eq!(h(35.0, 15.0), 40.0); // upper-right {h10, h11, h01}: 0.25·40 + 0.75·40 (bilinear: 37.5)
    assert_eq!(h(30.0, 10.0), 40.0); // on the diagonal: halfway between 80 and 0
                                     // Corners and the far border of the tile grid.
    assert_eq!(h(20.0, 20.0), 80.0);
    assert_eq!(h(1919.99, 1919.99), 0.0);
}

#[test]
fn ice_raises_the_ground_and_water_does_not() {
    let id = RegionId::new(2, 2);
    let mut input = region_with_heights(id, &[]);
    for v in input.heights.iter_mut() {
        *v = 10.0;
    }
    // Plane 0 ice at 30, plane 1 water at 30, plane 2 ice and water at 30, plane 3 ice below.
    input.planes.types[..4].copy_from_slice(&[2, 1, 3, 2]);
    input.planes.heights[..3].fill(F32::from(30.0));
    input.planes.heights[3] = F32::from(5.0);
    let world = world_of(&[input]);
    let h = |x: f32| world.height_at(Position::new(id, x, 100.0)).unwrap();
    assert_eq!(h(100.0), 30.0);
    assert_eq!(h(400.0), 10.0);
    assert_eq!(h(700.0), 30.0);
    assert_eq!(h(1000.0), 10.0);
}

#[test]
fn heights_continue_across_region_borders() {
    let (a, b) = (RegionId::new(5, 5), RegionId::new(6, 5));
    let world = world_of(&[
        region_with_heights(a, &[(96, 10, 50.0)]),
        region_with_heights(b, &[(0, 10, 50.0)]),
    ]);
    let west = world.height_at(Position::new(a, 1919.999, 200.0)).unwrap();
    let east = world.height_at(Position::new(b, 0.0, 200.0)).unwrap();
    assert!((west - east).abs() < 0.01, "{west} vs {east}");
    // A point at local 1920 is the next region's.
    assert_eq!(world.height_at(Position::new(a, 1920.0, 200.0)), Some(east));
    assert_eq!(
        world.height_at(Position::new(RegionId::new(9, 9), 1.0, 1.0)),
        None
    );
}

#[test]
fn cells_are_half_open_and_blocked_tiles_have_none() {
    let id = RegionId::new(1, 2);
    let mut input = RegionInput::open(id);
    input.blocked[0] = true;
    let world = world_of(&[input]);
    assert!(world.cell_at(Position::new(id, 19.99, 5.0)).is_none());
    let next = world.cell_at(Position::new(id, 20.0, 5.0)).unwrap();
    assert_eq!(next.region, id);
    assert!(world.cell_at(Position::new(id, f32::NAN, 5.0)).is_none());
}

#[test]
fn moves_stop_just_inside_walls() {
    let id = RegionId::new(7, 7);
    let mut input = RegionInput::open(id);
    // A wall of blocked tiles at tx = 10 (x 200..220) across the region.
    for tz in 0..96 {
        input.blocked[tz * 96 + 10] = true;
    }
    let world = world_of(&[input]);
    let out = world
        .move_along(
            Position::new(id, 100.0, 500.0),
            Position::new(id, 300.0, 500.0),
        )
        .unwrap();
    assert!(matches!(out.stop, MoveStop::Wall { .. }));
    // Nudged 0.2 from the crossing (200, 500) toward the centre of the cell it stops in.
    let (dx, dz) = (200.0 - out.position.x, 500.0 - out.position.z);
    assert!(
        dx > 0.0 && (f64::from(dx).hypot(f64::from(dz)) - 0.2).abs() < 1e-4,
        "{:?}",
        out.position
    );
    // Arriving.
    let out = world
        .move_along(
            Position::new(id, 100.0, 500.0),
            Position::new(id, 150.0, 900.0),
        )
        .unwrap();
    assert_eq!(
        (out.stop, out.position.x, out.position.z),
        (MoveStop::Arrived, 150.0, 900.0)
    );
    // Into the wall tiles is blocked, onto them the walk fails, off the world too.
    assert!(world
        .move_along(
            Position::new(id, 210.0, 500.0),
            Position::new(id, 100.0, 500.0)
        )
        .is_err());
    let out = world
        .move_along(
            Position::new(id, 100.0, 500.0),
            Position::new(id, -50.0, 500.0),
        )
        .unwrap();
    assert!(matches!(out.stop, MoveStop::Wall { .. }));
    assert!(out.position.x > 0.0 && out.position.x < 0.3);
}

#[test]
fn moves_cross_into_neighbour_regions() {
    let (a, b) = (RegionId::new(3, 4), RegionId::new(4, 4));
    let world = world_of(&[RegionInput::open(a), RegionInput::open(b)]);
    let out = world
        .move_along(
            Position::new(a, 1900.0, 100.0),
            Position::new(b, 50.0, 120.0),
        )
        .unwrap();
    assert_eq!(out.stop, MoveStop::Arrived);
    assert_eq!(
        (out.position.region, out.position.x, out.position.z),
        (b, 50.0, 120.0)
    );
    // Into a region that is not loaded: the world's border is a wall there.
    let out = world
        .move_along(
            Position::new(b, 1900.0, 100.0),
            Position::new(b, 2000.0, 100.0),
        )
        .unwrap();
    assert!(matches!(out.stop, MoveStop::Wall { .. }));
    assert_eq!(out.position.region, b);
}

#[test]
fn loading_reports_missing_and_disabled_regions() {
    let (a, b) = (RegionId::new(3, 4), RegionId::new(4, 4));
    let meshes = build_world(&[RegionInput::open(a), RegionInput::open(b)]);
    let mapinfo = jmxv::mfo::MapInfo::with_regions([a, RegionId::new(9, 9)]).to_vec();
    let files: Vec<(String, Vec<u8>)> = meshes
        .iter()
        .map(|(r, m)| (r.file_name(), m.to_vec().unwrap()))
        .collect();
    let world = World::from_memory(
        files
            .iter()
            .map(|(n, bytes)| (n.as_str(), bytes.as_slice()))
            .chain([("MapInfo.mfo", mapinfo.as_slice())]),
    )
    .unwrap();
    assert_eq!(world.regions().collect::<Vec<_>>(), vec![a]);
    let report = world.load_report();
    assert!(report.has_mapinfo);
    assert_eq!(
        report.missing_files().collect::<Vec<_>>(),
        vec![RegionId::new(9, 9)]
    );
    assert_eq!(report.disabled_files().collect::<Vec<_>>(), vec![b]);
    assert_eq!(
        report.findings,
        [
            LoadFinding {
                region: RegionId::new(9, 9),
                path: PathBuf::from("nv_0909.nvm"),
                kind: LoadFindingKind::MissingFile,
            },
            LoadFinding {
                region: b,
                path: PathBuf::from(b.file_name()),
                kind: LoadFindingKind::DisabledByMapinfo,
            },
        ]
    );
    let broken = World::from_memory([("nv_0403.nvm", &b"JMXVNVM 1000"[..])]).unwrap_err();
    // The error names the file; its source says where and what.
    assert_eq!(broken.to_string(), "nv_0403.nvm");
    let cause = std::error::Error::source(&broken)
        .expect("a source")
        .to_string();
    assert!(cause.starts_with("offset 12"), "{cause}");
}

#[test]
fn world_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<World>();
}
