//! The nearest walkable point against brute forces: on the terrain, the exact distance to every
//! open tile; with objects, a dense grid of points `cell_at` calls walkable. And the chain: a
//! snapped point has a cell and a walk starts from it.

use jmxv::nvm::NavMesh;
use jmxv::RegionId;
use silknav::world::movement::MoveError;
use silknav::{MoveOptions, Position, Surface, World};
use silknav_testkit::rng::SplitMix64;
use std::collections::BTreeMap;

/// The distance from world point `q` to the nearest open tile (closed squares), over every
/// tile of every region.
fn brute_terrain(meshes: &BTreeMap<RegionId, NavMesh>, q: [f64; 2]) -> f64 {
    let mut best = f64::INFINITY;
    for (r, m) in meshes {
        for (t, tile) in m.tiles.iter().enumerate() {
            if tile.is_blocked() {
                continue;
            }
            let x0 = f64::from(r.x()) * 1920.0 + (t % 96) as f64 * 20.0;
            let z0 = f64::from(r.z()) * 1920.0 + (t / 96) as f64 * 20.0;
            let dx = (x0 - q[0]).max(q[0] - (x0 + 20.0)).max(0.0);
            let dz = (z0 - q[1]).max(q[1] - (z0 + 20.0)).max(0.0);
            best = best.min(dx.hypot(dz));
        }
    }
    best
}

fn check_chain(world: &World, snapped: &silknav::world::snap::Snap, to: Position) {
    assert_eq!(
        world.cell_at(snapped.position, Surface::Highest),
        Some(snapped.cell)
    );
    let walk = world.move_along(snapped.position, to, &MoveOptions::default());
    assert_ne!(walk, Err(MoveError::StartNotWalkable), "{snapped:?}");
}

#[test]
fn on_the_terrain_the_snap_is_the_closest_f32_point_of_the_open_tiles() {
    use silknav::worldgen::DEFAULT_ORIGIN;
    let files = crate::generated_files(6, 2, 2);
    let meshes = &files.navmeshes;
    let world = World::from_navmeshes(meshes.iter().map(|(r, m)| (*r, m)));
    let (x0, z0) = (
        f64::from(DEFAULT_ORIGIN.0) * 1920.0,
        f64::from(DEFAULT_ORIGIN.1) * 1920.0,
    );
    let mut rng = SplitMix64::new(8);
    let (mut moved, mut none) = (0, 0);
    for i in 0..400 {
        // Random points over the world and a margin around it; every fourth on a tile's
        // corner or side, where the half-open rule decides.
        let mut q = [
            x0 - 200.0 + rng.unit() * 4240.0,
            z0 - 200.0 + rng.unit() * 4240.0,
        ];
        if i % 4 == 0 {
            q = [(q[0] / 20.0).round() * 20.0, (q[1] / 20.0).round() * 20.0];
        } else if i % 4 == 1 {
            q[0] = (q[0] / 20.0).round() * 20.0;
        }
        let Some(pos) = Position::from_world(q[0], q[1]) else {
            continue;
        };
        let max = [30.0, 100.0, f64::INFINITY][i % 3];
        let want = brute_terrain(meshes, [pos.world_x(), pos.world_z()]);
        match world.nearest_walkable(pos, Surface::Highest, max) {
            None => {
                assert!(want > max, "{pos}: none, but open ground at {want}");
                none += 1;
            }
            Some(s) => {
                // At least the infimum, and within an f32 step of it.
                assert!(
                    s.distance >= want - 1e-9 && s.distance <= want + 4e-4,
                    "{pos}: {s:?}, brute force {want}"
                );
                assert!(s.distance <= max);
                check_chain(&world, &s, pos);
                moved += usize::from(s.distance > 0.0);
            }
        }
    }
    assert!(moved > 50 && none > 5, "{moved} moved, {none} none");
}

#[test]
fn with_objects_no_walkable_point_of_a_dense_grid_is_closer() {
    let dir = tempfile::tempdir().unwrap();
    let files = silknav_testkit::object_world::write_object_world(dir.path());
    let world = World::load(dir.path()).unwrap();
    let west = silknav_testkit::object_world::WEST;
    let mut rng = SplitMix64::new(9);
    let mut on_objects = 0;
    // Points on and around the blocked square under the first house (x, z 240..360), where
    // only the house's floor is walkable, and over the rest of the objects.
    for i in 0..120 {
        let (x, z) = if i % 2 == 0 {
            (230.0 + rng.unit() * 140.0, 230.0 + rng.unit() * 140.0)
        } else {
            (rng.unit() * 1900.0, rng.unit() * 1900.0)
        };
        let q = Position::new(west, x as f32, z as f32);
        let Some(s) = world.nearest_walkable(q, Surface::Highest, 60.0) else {
            continue;
        };
        check_chain(&world, &s, Position::new(west, 1000.0, 1000.0));
        on_objects += usize::from(s.cell.object.is_some());
        if s.distance == 0.0 {
            continue;
        }
        // Every walkable point of a 0.25-unit grid within the snapped distance is no closer.
        let step = 0.25;
        let n = (s.distance / step).ceil() as i64;
        for a in -n..=n {
            for b in -n..=n {
                let p = [q.world_x() + a as f64 * step, q.world_z() + b as f64 * step];
                let d = (p[0] - q.world_x()).hypot(p[1] - q.world_z());
                if d >= s.distance {
                    continue;
                }
                if let Some(p) = Position::from_world(p[0], p[1]) {
                    assert!(
                        world.cell_at(p, Surface::Highest).is_none(),
                        "{q}: snapped {s:?}, but {p} is walkable at {d}"
                    );
                }
            }
        }
    }
    assert!(on_objects > 20, "{on_objects} snapped onto objects");
    let _ = files;
}

#[test]
fn with_a_reference_height_the_ground_below_a_bridge_is_not_the_deck() {
    let dir = tempfile::tempdir().unwrap();
    silknav_testkit::object_world::write_object_world(dir.path());
    let world = World::load(dir.path()).unwrap();
    let west = silknav_testkit::object_world::WEST;
    // Under the second house (floor 62) on the blocked square: near 62 the floor is there;
    // near the ground, the blocked square is not walkable and the snap leaves it.
    let q = Position::new(west, 300.0, 300.0);
    let high = world
        .nearest_walkable(q, Surface::Near(62.0), 100.0)
        .unwrap();
    assert_eq!(high.distance, 0.0);
    let low = world
        .nearest_walkable(q, Surface::Near(0.0), 100.0)
        .unwrap();
    assert!(low.distance > 0.0, "{low:?}");
    assert_eq!(
        world.cell_at(low.position, Surface::Near(0.0)),
        Some(low.cell)
    );
}
