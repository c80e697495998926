//! Hand-computed cases of the queries.

use super::movement::{MoveOptions, MoveStop};
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
    let h = |x: f32, z: f32| {
        world
            .height_at(Position::new(id, x, z), Surface::Terrain)
            .unwrap()
    };
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
    let h = |x: f32| {
        world
            .height_at(Position::new(id, x, 100.0), Surface::Terrain)
            .unwrap()
    };
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
    let west = world
        .height_at(Position::new(a, 1919.999, 200.0), Surface::Terrain)
        .unwrap();
    let east = world
        .height_at(Position::new(b, 0.0, 200.0), Surface::Terrain)
        .unwrap();
    assert!((west - east).abs() < 0.01, "{west} vs {east}");
    // A point at local 1920 is the next region's.
    assert_eq!(
        world.height_at(Position::new(a, 1920.0, 200.0), Surface::Terrain),
        Some(east)
    );
    assert_eq!(
        world.height_at(
            Position::new(RegionId::new(9, 9), 1.0, 1.0),
            Surface::Terrain
        ),
        None
    );
}

#[test]
fn cells_are_half_open_and_blocked_tiles_have_none() {
    let id = RegionId::new(1, 2);
    let mut input = RegionInput::open(id);
    input.blocked[0] = true;
    let world = world_of(&[input]);
    assert!(world
        .cell_at(Position::new(id, 19.99, 5.0), Surface::Highest)
        .is_none());
    let next = world
        .cell_at(Position::new(id, 20.0, 5.0), Surface::Highest)
        .unwrap();
    assert_eq!(next.region, id);
    assert!(world
        .cell_at(Position::new(id, f32::NAN, 5.0), Surface::Highest)
        .is_none());
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
            &MoveOptions::default(),
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
            &MoveOptions::default(),
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
            Position::new(id, 100.0, 500.0),
            &MoveOptions::default()
        )
        .is_err());
    let out = world
        .move_along(
            Position::new(id, 100.0, 500.0),
            Position::new(id, -50.0, 500.0),
            &MoveOptions::default(),
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
            &MoveOptions::default(),
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
            &MoveOptions::default(),
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

#[test]
fn the_guard_refuses_goals_more_than_a_region_east_or_north_as_the_server_does() {
    use super::movement::{DistanceGuard, MoveError, MoveOptions};
    let ids = [
        RegionId::new(3, 4),
        RegionId::new(4, 4),
        RegionId::new(5, 4),
    ];
    let world = world_of(&ids.map(RegionInput::open));
    let from = Position::new(ids[1], 100.0, 500.0);
    let east = Position::new(ids[2], 101.0, 500.0); // 1921 units east
    let west = Position::new(ids[0], 99.0, 500.0); // 1921 units west
    let just = Position::new(ids[2], 100.0, 500.0); // exactly 1920: not more
    assert_eq!(
        world.move_along(from, east, &MoveOptions::default()),
        Err(MoveError::TooFar)
    );
    assert_eq!(
        world
            .move_along(from, west, &MoveOptions::default())
            .unwrap()
            .stop,
        MoveStop::Arrived
    );
    assert_eq!(
        world
            .move_along(from, just, &MoveOptions::default())
            .unwrap()
            .stop,
        MoveStop::Arrived
    );
    let symmetric = MoveOptions::new().with_guard(DistanceGuard::Symmetric);
    assert_eq!(
        world.move_along(from, west, &symmetric),
        Err(MoveError::TooFar)
    );
    assert_eq!(
        world.move_along(from, east, &symmetric),
        Err(MoveError::TooFar)
    );
    let off = MoveOptions::new().with_guard(DistanceGuard::Off);
    let out = world.move_along(from, east, &off).unwrap();
    assert_eq!((out.stop, out.position), (MoveStop::Arrived, east));
    // North (+z) too, and the goal is taken into the start's frame first.
    let north = Position::new(ids[1], 100.0, 2421.0).normalized().unwrap();
    assert_eq!(
        world.move_along(from, north, &MoveOptions::default()),
        Err(MoveError::TooFar)
    );
}

#[test]
fn an_internal_edge_with_the_global_bit_is_still_internal() {
    let id = RegionId::new(7, 7);
    let mut input = RegionInput::open(id);
    // A one-tile wall column splits the region, so it has many cells; a passage at the top.
    for tz in 0..95 {
        input.blocked[tz * 96 + 48] = true;
    }
    let mut mesh = build_world(&[input]).remove(&id).unwrap();
    for e in &mut mesh.internal_edges {
        e.flag |= jmxv::nvm::EDGE_GLOBAL;
    }
    let world = World::from_navmeshes([(id, &mesh)]);
    let (from, to) = (
        Position::new(id, 100.0, 1910.0),
        Position::new(id, 1800.0, 1905.0),
    );
    let out = world.move_along(from, to, &MoveOptions::default()).unwrap();
    assert_eq!((out.stop, out.position), (MoveStop::Arrived, to));
    // Walls among them still stop the walk.
    let out = world
        .move_along(
            Position::new(id, 900.0, 500.0),
            Position::new(id, 1000.0, 500.0),
            &MoveOptions::default(),
        )
        .unwrap();
    assert!(matches!(out.stop, MoveStop::Wall { .. }), "{out:?}");
}

#[test]
fn a_walk_ending_on_a_blocked_tile_of_an_open_cell_arrives() {
    let id = RegionId::new(7, 7);
    let mut mesh = build_world(&[RegionInput::open(id)]).remove(&id).unwrap();
    // The file's tile says blocked, its cell is open: the server checks the walk's cell.
    let t = 20 * 96 + 30;
    mesh.tiles[t].flag |= jmxv::nvm::TILE_BLOCKED;
    let open_cell = mesh.tiles[t].cell();
    let world = World::from_navmeshes([(id, &mesh)]);
    let goal = Position::new(id, 610.0, 410.0);
    assert_eq!(world.cell_at(goal, Surface::Highest), None);
    let out = world
        .move_along(
            Position::new(id, 100.0, 100.0),
            goal,
            &MoveOptions::default(),
        )
        .unwrap();
    assert_eq!((out.stop, out.position), (MoveStop::Arrived, goal));
    assert_eq!(out.cell.cell, open_cell);
    assert_eq!(Some(out.height), world.height_at(goal, Surface::Terrain));
}

#[test]
fn edges_that_loop_run_out_the_servers_budget_and_answer_the_goal() {
    let id = RegionId::new(7, 7);
    let mut mesh = build_world(&[RegionInput::open(id)]).remove(&id).unwrap();
    // An edge of cell 0 through its own centre, leading back into cell 0: every crossing
    // lands on the centre, from where the segment crosses the edge again.
    let c = &mesh.cells[0];
    let (cx, cz) = (
        (c.min[0].get() + c.max[0].get()) / 2.0,
        (c.min[1].get() + c.max[1].get()) / 2.0,
    );
    let (z0, z1) = (c.min[1].get(), c.max[1].get());
    mesh.internal_edges.push(jmxv::nvm::InternalEdge {
        a: [F32::from(cx), F32::from(z0)],
        b: [F32::from(cx), F32::from(z1)],
        flag: jmxv::nvm::EDGE_INTERNAL,
        dir: [0, 0],
        cell: [0, 0],
    });
    let world = World::from_navmeshes([(id, &mesh)]);
    let far = c.max[0].get() + 10.0;
    let goal = Position::new(id, far, cz);
    // The server circles 2³¹ − 1 times, then answers the goal with the cell it was in.
    let out = world
        .move_along(
            Position::new(id, cx - 5.0, cz),
            goal,
            &MoveOptions::default(),
        )
        .unwrap();
    assert_eq!(
        (out.stop, out.position, out.cell.cell),
        (MoveStop::Looped, goal, 0)
    );
    assert_eq!(Some(out.height), world.height_at(goal, Surface::Terrain));
}

/// `cell_at` and FindNavCell (`height_at` near a height) answer from the squares of each tile (`objects::TileObjects`'s `fine`) where
/// they are certain, else by the objects' lookup: on a generated world with villages,
/// fortresses, bridges and stairs, on points over object tiles (uniform in them, and on and
/// beside the squares' sides and corners, where objects' sides lie), both answer the same;
/// and most uniform points on objects are answered by their square.
#[test]
fn cell_at_from_the_squares_equals_the_lookup() {
    use silknav_testkit::rng::SplitMix64;
    let (_dir, world) = crate::worldgen::rugged_test_world();
    let mut rng = SplitMix64::new(9);
    let (mut checked, mut on_objects, mut from_squares) = (0usize, 0usize, 0usize);
    // Answers from a square whose triangle's height is one number (a floor) and not.
    let mut flat = 0usize;
    let mut check = |pos: Position, uniform: bool| {
        let Some(pos) = World::normal(pos) else {
            return;
        };
        let Some(slot) = world.region_slot(pos.region) else {
            return;
        };
        let tile = World::tile_of(pos);
        let expected = world.cell_at_by_lookup(slot, pos, tile);
        assert_eq!(world.cell_at(pos, Surface::Highest), expected, "{pos:?}");
        // FindNavCell from the squares equals the loop over the tile's objects, bit for bit,
        // from the ground's height and the top floor's.
        for y in [
            world.height_at(pos, Surface::Terrain),
            world.height_at(pos, Surface::Near(1e6)),
        ]
        .into_iter()
        .flatten()
        {
            let fast = world.find_nav_cell(pos, y).unwrap();
            let slow = world.find_nav_cell_by_lookup(pos, y).unwrap();
            assert_eq!(
                (fast.object, fast.y.to_bits(), fast.has_cell),
                (slow.object, slow.y.to_bits(), slow.has_cell),
                "{pos:?} {y}"
            );
        }
        checked += 1;
        if uniform && expected.is_some_and(|c| c.object.is_some()) {
            on_objects += 1;
            let word = world.regions[slot].tiles[tile];
            let fine = match word.squares() {
                Some(record) => {
                    world
                        .objects
                        .fine_in(slot, record, tile, word.cell(), pos.x, pos.z)
                }
                None => crate::objects::SquareAnswer::None,
            };
            if let crate::objects::SquareAnswer::Object(square) = fine {
                from_squares += 1;
                flat += usize::from(world.objects.flat_height(slot, &square).is_some());
            }
        }
    };
    let regions: Vec<RegionId> = world.regions().collect();
    for &region in &regions {
        let slot = world.region_slot(region).unwrap();
        for tile in 0..TILES_PER_SIDE * TILES_PER_SIDE {
            if world.tile_objects(slot, tile).is_empty() {
                continue;
            }
            let (x0, z0) = (
                (tile % TILES_PER_SIDE) as f32 * 20.0,
                (tile / TILES_PER_SIDE) as f32 * 20.0,
            );
            for _ in 0..4 {
                let (u, v) = (rng.unit() as f32, rng.unit() as f32);
                check(Position::new(region, x0 + 20.0 * u, z0 + 20.0 * v), true);
                // On a square's side or corner, and a hair either side of it.
                let (i, j) = (rng.range(0, 9) as f32, rng.range(0, 9) as f32);
                for d in [-0.001, 0.0, 0.001] {
                    check(
                        Position::new(region, x0 + 2.5 * i + d, z0 + 20.0 * v),
                        false,
                    );
                    check(
                        Position::new(region, x0 + 20.0 * u, z0 + 2.5 * j + d),
                        false,
                    );
                    check(
                        Position::new(region, x0 + 2.5 * i + d, z0 + 2.5 * j - d),
                        false,
                    );
                    check(
                        Position::new(region, x0 + 2.5 * i + 10.0 * d, z0 + 20.0 * v),
                        false,
                    );
                }
            }
        }
    }
    // Beside the objects' triangles' sides, where the squares' splits divide (a point
    // nearer a split's line than its margin is left to the lookup): within and past the
    // margins, on both sides.
    let mut beside = 0usize;
    for inst in world.object_instances() {
        let (cos, sin) = (f64::from(inst.yaw()).cos(), f64::from(inst.yaw()).sin());
        let at = inst.position().map(f64::from);
        let region_frame = |[x, _, z]: [f32; 3]| {
            let (x, z) = (f64::from(x), f64::from(z));
            [x * cos - z * sin + at[0], x * sin + z * cos + at[2]]
        };
        for (_, v) in inst.triangles().take(40) {
            let v = v.map(region_frame);
            for i in 0..3 {
                let (a, b) = (v[i], v[(i + 1) % 3]);
                let len = (b[0] - a[0]).hypot(b[1] - a[1]);
                if len < 1e-3 {
                    continue;
                }
                let normal = [-(b[1] - a[1]) / len, (b[0] - a[0]) / len];
                let t = rng.unit();
                let on = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
                for d in [0.0, 0.005, 0.015, 0.019, 0.021, 0.025, 0.04, 0.1] {
                    for d in [d, -d] {
                        let (x, z) = (on[0] + d * normal[0], on[1] + d * normal[1]);
                        check(
                            Position::new(inst.frame_region(), x as f32, z as f32),
                            false,
                        );
                        beside += 1;
                    }
                }
            }
        }
    }
    assert!(beside > 10_000, "{beside}");
    assert!(checked > 30_000, "{checked}");
    eprintln!("{checked} points ({beside} beside objects' sides); of the uniform ones, {on_objects} on objects, {from_squares} of them answered from their square ({flat} on a floor)");
    assert!(on_objects > 1_000, "{on_objects}");
    assert!(
        from_squares * 4 > on_objects * 3,
        "{from_squares} of {on_objects}"
    );
    // Both ways of finding a square's height are checked above.
    assert!(
        flat > 200 && from_squares - flat > 200,
        "{flat} of {from_squares} on floors"
    );
}

/// A tile's word keeps its cell and walkability whatever squares record it is given, and
/// gives that record back; a word without one has none.
#[test]
fn tile_words_keep_cell_walkability_and_squares() {
    use super::region::TileWord;
    for cell in [0u16, 1, 9215, 0x7FFF, 0xFFFE, u16::MAX] {
        for walkable in [false, true] {
            let word = TileWord::new(cell, walkable);
            assert_eq!(word.squares(), None);
            assert_eq!(word.cell(), cell);
            assert_eq!(word.is_walkable(), walkable);
            for record in [0usize, 1, 9215, (1 << 15) - 2] {
                let with = word.with_squares(7).with_squares(record);
                assert_eq!(with.squares(), Some(record), "{cell} {walkable} {record}");
                assert_eq!((with.cell(), with.is_walkable()), (cell, walkable));
                assert_eq!(
                    with.walkable_cell(),
                    if walkable {
                        cell
                    } else {
                        super::region::NOT_WALKABLE
                    }
                );
            }
        }
    }
}
