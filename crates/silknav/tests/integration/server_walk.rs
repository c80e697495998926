//! Movement with objects, and object cells and heights, against the test kit's second port of
//! the game server (`silknav_testkit::oracle::server`): bit for bit, on generated worlds and the
//! test kit's object world, from random points and from the points where the rules decide
//! (mesh vertices, doorway edges, bridge ends, link edges).

use silknav::world::movement::{DistanceGuard, MoveOptions, MoveStop};
use silknav::{Position, Surface, World};
use silknav_testkit::oracle::server::{OracleMove, ServerOracle};
use silknav_testkit::rng::SplitMix64;
use std::collections::BTreeMap;

/// A generated world written as a data root and loaded, with its files.
fn generated(seed: u64, w: u8, h: u8) -> (tempfile::TempDir, World, ServerOracle) {
    let (dir, files, world) = crate::written_world(seed, w, h);
    let meshes = crate::meshes_by_id(&files);
    let oracle = ServerOracle::new(&files.navmeshes, &meshes);
    (dir, world, oracle)
}

/// The test kit's object world.
fn kit_world() -> (tempfile::TempDir, World, ServerOracle) {
    let dir = tempfile::tempdir().unwrap();
    let files = silknav_testkit::object_world::write_object_world(dir.path());
    let world = World::load(dir.path()).unwrap();
    let oracle = ServerOracle::new(&files.navmeshes, &files.meshes);
    (dir, world, oracle)
}

/// Points where the rules decide: each instance's mesh vertices and the points a quarter and
/// half along each of its triangles' sides, placed in the world.
fn mesh_points(world: &World) -> Vec<Position> {
    let mut out = Vec::new();
    for inst in world.object_instances() {
        let (c, s) = (f64::from(inst.yaw()).cos(), f64::from(inst.yaw()).sin());
        let (r, p) = (inst.frame_region(), inst.position());
        let place = |x: f64, z: f64| {
            Position::from_world(
                f64::from(r.x()) * 1920.0 + x * c - z * s + f64::from(p[0]),
                f64::from(r.z()) * 1920.0 + x * s + z * c + f64::from(p[2]),
            )
        };
        for (_, tri) in inst.triangles() {
            for k in 0..3 {
                let (a, b) = (tri[k], tri[(k + 1) % 3]);
                for t in [0.0, 0.25, 0.5] {
                    let x = f64::from(a[0]) * (1.0 - t) + f64::from(b[0]) * t;
                    let z = f64::from(a[2]) * (1.0 - t) + f64::from(b[2]) * t;
                    out.extend(place(x, z));
                }
            }
        }
    }
    out
}

/// Random points around the instances (within `reach` of their origins).
fn near_points(world: &World, rng: &mut SplitMix64, n: usize, reach: f64) -> Vec<Position> {
    let insts: Vec<_> = world.object_instances().collect();
    (0..n)
        .filter_map(|_| {
            let inst = &insts[rng.range(0, insts.len() as u32) as usize];
            let (r, p) = (inst.frame_region(), inst.position());
            Position::from_world(
                f64::from(r.x()) * 1920.0 + f64::from(p[0]) + (rng.unit() - 0.5) * reach,
                f64::from(r.z()) * 1920.0 + f64::from(p[2]) + (rng.unit() - 0.5) * reach,
            )
        })
        .collect()
}

/// The library's answer in the oracle's terms.
fn library(world: &World, from: Position, to: Position, options: &MoveOptions) -> OracleMove {
    match world.move_along(from, to, options) {
        Ok(m) => OracleMove::Stop(m.position, m.height, m.cell, m.stop),
        Err(e) => OracleMove::Fails(e.word()),
    }
}

/// Compares `n` walks of each kind; returns the count of each stop word.
fn compare(
    world: &World,
    oracle: &ServerOracle,
    seed: u64,
    n: usize,
) -> BTreeMap<&'static str, usize> {
    let mut rng = SplitMix64::new(seed);
    let anchors = mesh_points(world);
    let near = near_points(world, &mut rng, n, 300.0);
    let mut words = BTreeMap::new();
    for i in 0..n {
        // Ends: a random point near an object, or a mesh point (a vertex, a doorway, a
        // bridge end), or one a little way off a mesh point.
        let pick = |rng: &mut SplitMix64, k: u32| match k {
            0 => near[rng.range(0, near.len() as u32) as usize],
            1 => anchors[rng.range(0, anchors.len() as u32) as usize],
            _ => {
                let a = anchors[rng.range(0, anchors.len() as u32) as usize];
                Position::from_world(
                    a.world_x() + (rng.unit() - 0.5) * 120.0,
                    a.world_z() + (rng.unit() - 0.5) * 120.0,
                )
                .unwrap_or(a)
            }
        };
        let (k1, k2) = (rng.range(0, 3), rng.range(0, 3));
        let from = pick(&mut rng, k1);
        let to = pick(&mut rng, k2);
        let mut options = MoveOptions::new();
        let start_y = match i % 4 {
            0 => world.height_at(from, Surface::Terrain),
            1 => Some((rng.unit() * 200.0) as f32),
            _ => None,
        };
        if let Some(y) = start_y {
            options = options.with_start(Surface::Near(y));
        }
        if i % 7 == 3 {
            options = options.with_object_checks(false);
        }
        if i % 11 == 5 {
            options = options.with_guard(DistanceGuard::Symmetric);
        }
        let want = oracle.move_along(
            from,
            start_y,
            to,
            None,
            options.guard,
            options.object_checks,
        );
        let got = library(world, from, to, &options);
        let same = match (got, want) {
            (OracleMove::Stop(p, h, c, s), OracleMove::Stop(q, g, d, t)) => {
                p == q && h.to_bits() == g.to_bits() && c == d && s == t
            }
            (a, b) => a == b,
        };
        assert!(
            same,
            "{from} → {to} {options:?}:\n  library {got:?}\n  oracle  {want:?}"
        );
        let word = match got {
            OracleMove::Stop(_, _, _, s) => s.word(),
            OracleMove::Fails(w) => w,
        };
        *words.entry(word).or_insert(0) += 1;
    }
    words
}

/// Cells and heights at the mesh points, at points a thousandth to one unit off them (where
/// the float tests decide by a hair), and at random points, to the bit.
fn compare_cells(world: &World, oracle: &ServerOracle, seed: u64, n: usize) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut points = mesh_points(world);
    let jittered: Vec<Position> = points
        .iter()
        .filter_map(|p| {
            let reach = 10f64.powf(rng.unit() * 3.0 - 3.0);
            let angle = rng.unit() * std::f64::consts::TAU;
            Position::from_world(
                p.world_x() + reach * angle.cos(),
                p.world_z() + reach * angle.sin(),
            )
        })
        .collect();
    points.extend(jittered);
    points.extend(near_points(world, &mut rng, n, 400.0));
    let mut on_objects = 0;
    for &p in &points {
        let want = oracle.cell_at(p).map(|(c, _)| c);
        assert_eq!(world.cell_at(p, Surface::Highest), want, "{p}");
        on_objects += usize::from(want.is_some_and(|c| c.object.is_some()));
        let ground = world.height_at(p, Surface::Terrain).unwrap_or(0.0);
        for y in [
            ground,
            ground + 20.0,
            ground - 5.0,
            (rng.unit() * 250.0) as f32,
        ] {
            let got = world
                .surface_at(p, Surface::Near(y))
                .map(|(c, h)| (c, h.to_bits()));
            let want = oracle.surface_at_y(p, y).map(|(c, h)| (c, h.to_bits()));
            assert_eq!(got, want, "{p} y {y}");
        }
    }
    on_objects
}

#[test]
fn moves_agree_with_the_servers_second_port_on_a_generated_world() {
    let (_dir, world, oracle) = generated(4, 3, 3);
    let words = compare(&world, &oracle, 1, 1500);
    println!("{words:?}");
    // The walks meet every kind of stop the objects make.
    for word in ["arrived", "object-wall", "wall", "start-blocked"] {
        assert!(
            words.get(word).copied().unwrap_or(0) > 10,
            "{word}: {words:?}"
        );
    }
    assert!(compare_cells(&world, &oracle, 2, 1500) > 1000);
}

#[test]
fn moves_agree_with_the_servers_second_port_on_the_kits_object_world() {
    let (_dir, world, oracle) = kit_world();
    let words = compare(&world, &oracle, 3, 1500);
    println!("{words:?}");
    assert!(
        words.get("arrived").copied().unwrap_or(0) > 100,
        "{words:?}"
    );
    assert!(
        words.get("object-wall").copied().unwrap_or(0) > 50,
        "{words:?}"
    );
    let on_objects = compare_cells(&world, &oracle, 4, 1500);
    assert!(on_objects > 300, "{on_objects} points on objects");
}

#[test]
#[ignore = "a sweep: .ci/run runs it (cargo test -- --ignored _sweep)"]
fn many_moves_agree_with_the_servers_second_port_sweep() {
    for seed in [4, 9, 17] {
        let (_dir, world, oracle) = generated(seed, 3, 3);
        println!("seed {seed}: {:?}", compare(&world, &oracle, seed, 40_000));
        compare_cells(&world, &oracle, seed, 20_000);
    }
    let (_dir, world, oracle) = kit_world();
    println!("kit: {:?}", compare(&world, &oracle, 5, 40_000));
}

/// The instance of a catalog path, in the world's listing order.
fn instances_of<'w>(
    world: &'w World,
    ifo: &jmxv::ifo::ObjectIfo,
    needle: &str,
) -> Vec<silknav::world::ObjectInstance<'w>> {
    world
        .object_instances()
        .filter(|i| {
            ifo.get(i.object_id())
                .is_some_and(|e| String::from_utf8_lossy(&e.path).contains(needle))
        })
        .collect()
}

/// A point given in an instance's own frame.
fn place(inst: &silknav::world::ObjectInstance<'_>, x: f64, z: f64) -> Position {
    let (c, s) = (f64::from(inst.yaw()).cos(), f64::from(inst.yaw()).sin());
    let (r, p) = (inst.frame_region(), inst.position());
    Position::from_world(
        f64::from(r.x()) * 1920.0 + x * c - z * s + f64::from(p[0]),
        f64::from(r.z()) * 1920.0 + x * s + z * c + f64::from(p[2]),
    )
    .unwrap()
}

/// Half extents of an instance's mesh along its own x and z.
fn half_extents(inst: &silknav::world::ObjectInstance<'_>) -> (f64, f64) {
    let max = |k: usize| {
        inst.triangles()
            .flat_map(|(_, v)| v.map(|p| f64::from(p[k])))
            .fold(f64::MIN, f64::max)
    };
    (max(0), max(2))
}

#[test]
fn doorways_let_walkers_in_walls_stop_them_and_bridges_carry_them_across() {
    let (_dir, files, world) = crate::written_world(4, 3, 3);
    let ifo = files.object_ifo.as_ref().unwrap();
    let (mut inside, mut walled) = (0, 0);
    for house in instances_of(&world, ifo, "house") {
        let (_, hz) = half_extents(&house);
        // Through the doorway (the middle of the −z side) to the middle of the floor.
        let (from, to) = (place(&house, 0.0, -hz - 20.0), place(&house, 0.0, 0.0));
        let Ok(m) = world.move_along(from, to, &MoveOptions::default()) else {
            continue;
        };
        if m.stop == MoveStop::Arrived {
            assert_eq!(m.cell.object.map(|o| o.instance), Some(house.key()));
            inside += 1;
        }
        // Into the −x wall from outside: stopped just outside, by the wall.
        let (hx, _) = half_extents(&house);
        let (from, to) = (place(&house, -hx - 20.0, 0.0), place(&house, 0.0, 0.0));
        if let Ok(m) = world.move_along(from, to, &MoveOptions::default()) {
            if let MoveStop::ObjectWall { edge } = m.stop {
                assert_eq!(edge.instance, house.key());
                assert_eq!(m.cell.object, None, "the walker stays outside");
                walled += 1;
            }
        }
    }
    assert!(inside >= 5 && walled >= 5, "{inside} in, {walled} walled");
    // A bridge's two halves: from before one outer end to past the other, over the deck.
    let bridges = instances_of(&world, ifo, "bridge");
    let mut crossed = 0;
    for pair in bridges.chunks(2) {
        let (hx, _) = half_extents(&pair[0]);
        let (from, to) = (
            place(&pair[0], -hx - 20.0, 0.0),
            place(&pair[0], 3.0 * hx + 20.0, 0.0),
        );
        let mut trace = Vec::new();
        let m = world
            .move_traced(from, to, &MoveOptions::default(), &mut trace)
            .unwrap();
        if m.stop == MoveStop::Arrived && m.position == to {
            crossed += 1;
            // The walk climbed onto the deck: some point of it is well above the ground.
            let high = trace.iter().any(|p| {
                world
                    .cell_at(*p, Surface::Highest)
                    .is_some_and(|c| c.object.is_some_and(|o| o.instance == pair[1].key()))
            });
            assert!(high, "the walk went over the second half");
        }
    }
    assert!(crossed >= 2, "{crossed} bridges crossed");
}
