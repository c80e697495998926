//! The world's queries against slow references, on generated and imported worlds, both as
//! built in memory and after a write → read round trip through files.

use jmxv::nvm::NavMesh;
use jmxv::RegionId;
use silknav::worldgen::{generate, GenOptions, Landscape};
use silknav::{MoveOptions, Position, Surface, World};
use silknav_testkit::oracle::terrain::{Ground, SCALE};
use silknav_testkit::rng::SplitMix64;
use std::collections::BTreeMap;

const ORIGIN: (u8, u8) = (40, 30);

/// Test worlds: generated ones, a hand-made one with pinches and pockets, and (when the data
/// is there) a Moving AI map.
fn worlds() -> Vec<(String, BTreeMap<RegionId, NavMesh>)> {
    let mut out = Vec::new();
    for seed in [1, 4] {
        let g = generate(&GenOptions {
            seed,
            width: 2,
            height: 2,
            origin: ORIGIN,
            landscape: Landscape::Rugged,
        })
        .unwrap();
        out.push((format!("generated seed {seed}"), g.regions));
    }
    // Checkerboard corners, one-tile corridors, diagonal pinches and a walled pocket.
    let mut input = silknav::build::RegionInput::open(RegionId::new(ORIGIN.0, ORIGIN.1));
    for (t, b) in input.blocked.iter_mut().enumerate() {
        let (x, z) = (t % 96, t / 96);
        *b = (x + z) % 7 == 0 && x < 40
            || (x >= 50 && z >= 50 && (x + z) % 2 == 0 && x < 60)
            || (x == 70 && z != 40)
            || (20..30).contains(&z) && x >= 60 && x != 80;
    }
    // Uneven ground, and ice above it, ice over water and plain water.
    for (v, h) in input.heights.iter_mut().enumerate() {
        *h = ((v * 7919) % 101) as f32 * 0.37 - 12.5;
    }
    input.planes.types[..3].copy_from_slice(&[2, 1, 3]);
    input.planes.heights[..3].fill(jmxv::F32::from(20.0));
    let mut second = silknav::build::RegionInput::open(RegionId::new(ORIGIN.0 + 1, ORIGIN.1));
    second.blocked[5 * 96] = true;
    out.push((
        "hand-made".into(),
        silknav::build::build_world(&[input, second]),
    ));
    let arena = silknav_testkit::movingai::map("arena.map");
    out.push(("arena.map".into(), arena.to_world(ORIGIN).unwrap()));
    out
}

/// The same world loaded from the bytes of its files.
fn reloaded(world: &BTreeMap<RegionId, NavMesh>) -> World {
    let files: Vec<(String, Vec<u8>)> = world
        .iter()
        .map(|(r, m)| (r.file_name(), m.to_vec().unwrap()))
        .collect();
    World::from_memory(files.iter().map(|(n, b)| (n.as_str(), b.as_slice()))).unwrap()
}

/// A random world position on the 1/64 grid inside the world's bounding box, sometimes moved
/// onto a tile corner or side, where the hard cases are.
fn random_point(rng: &mut SplitMix64, world: &BTreeMap<RegionId, NavMesh>) -> [i64; 2] {
    let first = world.keys().next().unwrap();
    let last = world.keys().last().unwrap();
    let span = |a: u8, b: u8| {
        (
            i64::from(a) * 96 * 20 * SCALE,
            (i64::from(b) + 1) * 96 * 20 * SCALE,
        )
    };
    let (x0, x1) = span(first.x(), world.keys().map(|r| r.x()).max().unwrap());
    let (z0, z1) = span(first.z(), last.z());
    let mut p = [
        x0 + (rng.next_u64() % (x1 - x0) as u64) as i64,
        z0 + (rng.next_u64() % (z1 - z0) as u64) as i64,
    ];
    let tile = 20 * SCALE;
    match rng.range(0, 4) {
        0 => p = [p[0] / tile * tile, p[1] / tile * tile],
        1 => p[0] = p[0] / tile * tile,
        _ => {}
    }
    p
}

fn position(p: [i64; 2]) -> Position {
    Position::from_world(p[0] as f64 / SCALE as f64, p[1] as f64 / SCALE as f64).unwrap()
}

#[test]
fn raycast_agrees_with_the_brute_force_oracle() {
    for (name, meshes) in worlds() {
        let ground = Ground { world: &meshes };
        let worlds = [
            World::from_navmeshes(meshes.iter().map(|(r, m)| (*r, m))),
            reloaded(&meshes),
        ];
        let mut rng = SplitMix64::new(17);
        let (mut checked, mut blocked) = (0, 0);
        while checked < 1500 {
            let p = random_point(&mut rng, &meshes);
            let mut q = p;
            let reach = 40 * SCALE * i64::from(rng.range(1, 16));
            match rng.range(0, 5) {
                0 => q[0] += reach,
                1 => q[1] -= reach,
                2 => q = [p[0] + reach, p[1] + reach],
                _ => {
                    q[0] += (rng.next_u64() % (2 * reach as u64)) as i64 - reach;
                    q[1] += (rng.next_u64() % (2 * reach as u64)) as i64 - reach;
                }
            }
            let expected_start = ground.in_closure(p);
            for world in &worlds {
                let got = world.raycast(position(p), position(q), Surface::Highest);
                assert_eq!(got.is_ok(), expected_start, "{name}: start {p:?}");
                let Ok(got) = got else { continue };
                let want = ground.first_block(p, q);
                assert_eq!(
                    got.is_some(),
                    want.is_some(),
                    "{name}: {p:?} → {q:?}: {got:?} vs {want:?}"
                );
                if let (Some(hit), Some(t)) = (got, want) {
                    assert!(
                        (hit.t - t.value()).abs() < 1e-9,
                        "{name}: {p:?} → {q:?}: t {} vs {}",
                        hit.t,
                        t.value()
                    );
                }
            }
            if expected_start {
                checked += 1;
                blocked += usize::from(ground.first_block(p, q).is_some());
            }
        }
        // The sample must exercise both answers.
        assert!(
            blocked > 100 && blocked < 1400,
            "{name}: {blocked} of {checked} blocked"
        );
    }
}

#[test]
fn line_of_sight_is_symmetric_and_walls_stop_rays() {
    for (name, meshes) in worlds() {
        let world = World::from_navmeshes(meshes.iter().map(|(r, m)| (*r, m)));
        let ground = Ground { world: &meshes };
        let mut rng = SplitMix64::new(5);
        for _ in 0..2000 {
            let (p, q) = (
                random_point(&mut rng, &meshes),
                random_point(&mut rng, &meshes),
            );
            if !ground.in_closure(p) || !ground.in_closure(q) {
                continue;
            }
            let forward = world
                .line_of_sight(position(p), position(q), Surface::Highest)
                .unwrap();
            let backward = world
                .line_of_sight(position(q), position(p), Surface::Highest)
                .unwrap();
            assert_eq!(forward, backward, "{name}: {p:?} ↔ {q:?}");
        }
    }
}

#[test]
fn rays_along_walls_and_onto_walls_are_clear_and_through_corners_exact() {
    // One region, a blocked square of tiles 10..20 × 10..20.
    let mut input = silknav::build::RegionInput::open(RegionId::new(3, 3));
    for (t, b) in input.blocked.iter_mut().enumerate() {
        *b = (10..20).contains(&(t % 96)) && (10..20).contains(&(t / 96));
    }
    let world =
        World::from_navmeshes([(RegionId::new(3, 3), &silknav::build::build_region(&input))]);
    let at = |x: f32, z: f32| Position::new(RegionId::new(3, 3), x, z);
    // Along the square's south wall, on the wall line.
    assert!(world
        .line_of_sight(at(150.0, 200.0), at(450.0, 200.0), Surface::Highest)
        .unwrap());
    // Ending exactly on the wall.
    assert!(world
        .line_of_sight(at(300.0, 100.0), at(300.0, 200.0), Surface::Highest)
        .unwrap());
    // Touching the square's corner from outside, tangentially.
    assert!(world
        .line_of_sight(at(100.0, 300.0), at(300.0, 100.0), Surface::Highest)
        .unwrap());
    // Through the square.
    let hit = world
        .raycast(at(300.0, 100.0), at(300.0, 500.0), Surface::Highest)
        .unwrap()
        .unwrap();
    assert_eq!((hit.point.x, hit.point.z), (300.0, 200.0));
    assert!((hit.t - 0.25).abs() < 1e-12);
    assert_eq!(hit.normal, [0.0, -1.0]);
    assert!(hit.edge.is_some(), "the wall edge is named");
    // Into the square diagonally through its corner.
    let hit = world
        .raycast(at(100.0, 100.0), at(300.0, 300.0), Surface::Highest)
        .unwrap()
        .unwrap();
    assert_eq!((hit.point.x, hit.point.z), (200.0, 200.0));
    // The world's outer border stops rays.
    let hit = world
        .raycast(at(100.0, 100.0), at(-50.0, 100.0), Surface::Highest)
        .unwrap()
        .unwrap();
    assert_eq!(hit.point.region, RegionId::new(3, 3));
    assert_eq!((hit.point.x, hit.point.z), (0.0, 100.0));
    // A start inside the square is refused.
    assert!(world
        .raycast(at(300.0, 300.0), at(500.0, 300.0), Surface::Highest)
        .is_err());
}

#[test]
fn cell_lookup_agrees_with_a_scan_of_the_rectangles() {
    for (name, meshes) in worlds() {
        let world = reloaded(&meshes);
        let mut rng = SplitMix64::new(9);
        for _ in 0..20_000 {
            let p = random_point(&mut rng, &meshes);
            let pos = position(p);
            let mesh = &meshes[&pos.region];
            let scan = mesh.cells.iter().position(|c| {
                c.min[0].get() <= pos.x
                    && pos.x < c.max[0].get()
                    && c.min[1].get() <= pos.z
                    && pos.z < c.max[1].get()
            });
            let scan = scan
                .filter(|&c| (c as u32) < mesh.open_cell_count)
                .map(|c| c as u16);
            let got = world.cell_at(pos, Surface::Highest);
            assert_eq!(got.map(|c| c.cell), scan, "{name}: {pos:?}");
            if let Some(c) = got {
                assert_eq!(c.region, pos.region);
            }
        }
        assert!(
            world
                .cell_at(
                    Position::new(RegionId::new(0, 0), 5.0, 5.0),
                    Surface::Highest
                )
                .is_none(),
            "not loaded"
        );
    }
}

/// The height of the triangle under a point, from the plane through its three corners: an
/// independent formulation of NOTES.md §5 (barycentric weights instead of the server's
/// incremental form).
fn reference_height(mesh: &NavMesh, x: f32, z: f32) -> Option<f32> {
    let (tx, tz) = (
        (f64::from(x) / 20.0) as usize,
        (f64::from(z) / 20.0) as usize,
    );
    if tx > 95 || tz > 95 {
        return None;
    }
    let fx = f64::from(((f64::from(x) - tx as f64 * 20.0) / 20.0) as f32);
    let fz = f64::from(((f64::from(z) - tz as f64 * 20.0) / 20.0) as f32);
    let h = |vx: usize, vz: usize| f64::from(mesh.heights[vz * 97 + vx].get());
    let corner = |dx: usize, dz: usize| (dx as f64, dz as f64, h(tx + dx, tz + dz));
    let tri = if tx % 2 == tz % 2 {
        if fz >= fx {
            [corner(0, 0), corner(0, 1), corner(1, 1)]
        } else {
            [corner(0, 0), corner(1, 0), corner(1, 1)]
        }
    } else if fx + fz <= 1.0 {
        [corner(0, 0), corner(1, 0), corner(0, 1)]
    } else {
        [corner(1, 0), corner(1, 1), corner(0, 1)]
    };
    let [(x1, z1, h1), (x2, z2, h2), (x3, z3, h3)] = tri;
    let det = (z2 - z3) * (x1 - x3) + (x3 - x2) * (z1 - z3);
    let w1 = ((z2 - z3) * (fx - x3) + (x3 - x2) * (fz - z3)) / det;
    let w2 = ((z3 - z1) * (fx - x3) + (x1 - x3) * (fz - z3)) / det;
    let mut y = (w1 * h1 + w2 * h2 + (1.0 - w1 - w2) * h3) as f32;
    let plane = tz / 16 * 6 + tx / 16;
    if mesh.planes.types[plane] & 2 != 0 && mesh.planes.heights[plane].get() > y {
        y = mesh.planes.heights[plane].get();
    }
    Some(y)
}

#[test]
fn height_agrees_with_an_independent_implementation() {
    for (name, meshes) in worlds() {
        let world = reloaded(&meshes);
        let mut rng = SplitMix64::new(3);
        let (mut exact, mut total, mut ice) = (0, 0, 0);
        for i in 0..20_000 {
            let region = *meshes.keys().nth(i % meshes.len()).unwrap();
            let mesh = &meshes[&region];
            // Random points, tile corners, tile sides, diagonals.
            let (mut x, mut z) = (rng.unit() as f32 * 1920.0, rng.unit() as f32 * 1920.0);
            match i % 5 {
                0 => (x, z) = ((x / 20.0).floor() * 20.0, (z / 20.0).floor() * 20.0),
                1 => x = (x / 20.0).floor() * 20.0,
                2 => z = (z / 20.0).floor() * 20.0 + (x % 20.0),
                _ => {}
            }
            if x >= 1920.0 || z >= 1920.0 {
                continue;
            }
            let got = world
                .height_at(Position::new(region, x, z), Surface::Terrain)
                .unwrap();
            let want = reference_height(mesh, x, z).unwrap();
            // The two formulations round differently in double; after the rounding to f32
            // they may differ in the last bit only.
            let ulps = (got.to_bits() as i64 - want.to_bits() as i64).abs();
            assert!(
                ulps <= 1 || got == want,
                "{name} {region} ({x}, {z}): {got} vs {want}"
            );
            exact += usize::from(got == want);
            total += 1;
            let plane = (z as usize / 320) * 6 + x as usize / 320;
            ice += usize::from(
                mesh.planes.types[plane] & 2 != 0 && got == mesh.planes.heights[plane].get(),
            );
        }
        assert!(
            exact * 100 >= total * 99,
            "{name}: {exact} of {total} bit-identical"
        );
        if name == "hand-made" {
            assert!(ice > 0, "the ice rule is exercised");
        }
    }
}

#[test]
fn moves_end_on_walkable_ground_and_never_cross_a_wall() {
    for (name, meshes) in worlds() {
        for world in [
            World::from_navmeshes(meshes.iter().map(|(r, m)| (*r, m))),
            reloaded(&meshes),
        ] {
            let mut rng = SplitMix64::new(21);
            let (mut arrived, mut walls, mut legs) = (0, 0, 0);
            let mut trace = Vec::new();
            for _ in 0..3000 {
                let p = random_point(&mut rng, &meshes);
                let reach = 20 * 20 * SCALE;
                let q = [
                    p[0] + (rng.next_u64() % (2 * reach) as u64) as i64 - reach,
                    p[1] + (rng.next_u64() % (2 * reach) as u64) as i64 - reach,
                ];
                let (from, to) = (position(p), position(q));
                let outcome = world.move_traced(from, to, &MoveOptions::default(), &mut trace);
                if world.cell_at(from, Surface::Highest).is_none() {
                    assert_eq!(
                        outcome,
                        Err(silknav::world::movement::MoveError::StartNotWalkable),
                        "{name}"
                    );
                    continue;
                }
                let Ok(outcome) = outcome else { continue };
                assert_eq!(
                    world.move_along(from, to, &MoveOptions::default()),
                    Ok(outcome),
                    "tracing changes nothing"
                );
                assert!(
                    world.cell_at(outcome.position, Surface::Highest).is_some(),
                    "{name}: stop {:?} is not walkable",
                    outcome.position
                );
                assert_eq!(
                    Some(outcome.height),
                    world.height_at(outcome.position, Surface::Terrain)
                );
                assert_eq!(
                    (trace.first(), trace.last()),
                    (Some(&from), Some(&outcome.position))
                );
                // The walk goes straight between its turning points; no leg crosses a wall.
                for leg in trace.windows(2) {
                    assert_eq!(
                        world.raycast(leg[0], leg[1], Surface::Highest),
                        Ok(None),
                        "{name}: leg {leg:?} of {from:?} → {to:?}"
                    );
                    legs += 1;
                }
                match outcome.stop {
                    silknav::world::movement::MoveStop::Arrived => {
                        arrived += 1;
                        let t = to.normalized().unwrap();
                        assert_eq!(
                            (
                                outcome.position.region,
                                outcome.position.x,
                                outcome.position.z
                            ),
                            (t.region, t.x, t.z)
                        );
                    }
                    silknav::world::movement::MoveStop::Wall { .. } => walls += 1,
                    silknav::world::movement::MoveStop::NoEdge => {}
                    other => panic!("{name}: {other:?} on a world without objects"),
                }
            }
            assert!(
                arrived > 0 && walls > 0 && legs > arrived,
                "{name}: {arrived} arrived, {walls} at walls, {legs} legs"
            );
        }
    }
}

#[test]
fn a_move_more_than_a_region_north_is_refused_as_the_server_refuses_it() {
    use silknav::world::movement::{DistanceGuard, MoveError, MoveOptions, MoveStop};
    let files = crate::generated_files(5, 3, 3);
    let world = World::from_navmeshes(files.navmeshes.iter().map(|(r, m)| (*r, m)));
    let from = Position::from_world(246561.7511796247, 125532.50208626682).unwrap();
    let to = Position::from_world(246700.0, 127700.0).unwrap();
    assert!(world.cell_at(from, Surface::Highest).is_some());
    assert_eq!(
        world.move_along(from, to, &MoveOptions::default()),
        Err(MoveError::TooFar)
    );
    // The same walk the other way is not refused, nor with the guard off.
    assert!(
        world.move_along(to, from, &MoveOptions::default()).is_ok()
            || world.cell_at(to, Surface::Highest).is_none()
    );
    let off = MoveOptions::new().with_guard(DistanceGuard::Off);
    let walked = world.move_along(from, to, &off).unwrap();
    assert!(matches!(
        walked.stop,
        MoveStop::Arrived | MoveStop::Wall { .. } | MoveStop::NoEdge
    ));
}
