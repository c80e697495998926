//! Seeded query sets over a world: uniformly random points, walkable points, the positions of
//! walkers over successive ticks (as a server queries its entities), and segments of a fixed
//! length in random directions from walkable starts; and a batch of walks along such
//! segments, counted by how they ended.
//!
//! Every set is a function of its seed and the world, so each run measures the same queries;
//! they are built before measuring, so the benches time the queries and nothing else.

use silknav::geometry::REGION_SIZE;
use silknav::jmxv::RegionId;
use silknav::world::movement::MoveStop;
use silknav::{MoveOptions, Position, Surface, World};
use silknav_testkit::rng::SplitMix64;

/// `n` points uniformly over the regions: a region uniformly, then local x and z in
/// `[0, 1920)`.
pub fn random_points(regions: &[RegionId], n: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    (0..n).map(|_| random_point(&mut rng, regions)).collect()
}

/// `n` random points with a cell under them ([`World::cell_at`] is `Some`).
///
/// # Panics
/// When a million draws find too few: the world has (almost) no walkable ground.
pub fn walkable_points(world: &World, regions: &[RegionId], n: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut points = Vec::with_capacity(n);
    for _ in 0..(n * 10).max(1_000_000) {
        if points.len() == n {
            return points;
        }
        let p = random_point(&mut rng, regions);
        if world.cell_at(p, Surface::Highest).is_some() {
            points.push(p);
        }
    }
    panic!("only {} of {n} random points are walkable", points.len());
}

/// The positions of `walkers` random walkers over `ticks` ticks, tick by tick (every walker's
/// position of tick 0, then of tick 1, ...), as a server queries its entities once per tick.
/// Each tick a walker moves by a uniformly random offset of up to `step` units along each
/// axis; one that leaves the loaded regions starts again at a random point.
pub fn walkers(
    world: &World,
    regions: &[RegionId],
    walkers: usize,
    ticks: usize,
    step: f64,
    seed: u64,
) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut now: Vec<Position> = (0..walkers)
        .map(|_| random_point(&mut rng, regions))
        .collect();
    let mut out = Vec::with_capacity(walkers * ticks);
    for _ in 0..ticks {
        out.extend_from_slice(&now);
        for p in &mut now {
            let (dx, dz) = (
                (rng.unit() * 2.0 - 1.0) * step,
                (rng.unit() * 2.0 - 1.0) * step,
            );
            *p = Position::from_world(p.world_x() + dx, p.world_z() + dz)
                .filter(|q| world.contains(q.region))
                .unwrap_or_else(|| random_point(&mut rng, regions));
        }
    }
    out
}

/// Which ends a segment may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ends {
    /// Any point of the terrain id space: a sight line may end anywhere.
    Anywhere,
    /// Walkable points only: a walk is aimed at ground it could stand on, as a click is.
    Walkable,
}

/// `n` segments of `length` units: a walkable start, a uniformly random direction, the end
/// `length` units away (redrawn when it leaves the terrain id space or `ends` refuses it).
///
/// # Panics
/// When a million draws find too few segments.
pub fn segments(
    world: &World,
    regions: &[RegionId],
    n: usize,
    length: f64,
    ends: Ends,
    seed: u64,
) -> Vec<(Position, Position)> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(n);
    for _ in 0..(n * 100).max(1_000_000) {
        if out.len() == n {
            return out;
        }
        let from = random_point(&mut rng, regions);
        if world.cell_at(from, Surface::Highest).is_none() {
            continue;
        }
        let angle = rng.unit() * std::f64::consts::TAU;
        let Some(to) = Position::from_world(
            from.world_x() + length * angle.cos(),
            from.world_z() + length * angle.sin(),
        ) else {
            continue;
        };
        if ends == Ends::Walkable && world.cell_at(to, Surface::Highest).is_none() {
            continue;
        }
        out.push((from, to));
    }
    panic!("only {} of {n} segments of {length} units found", out.len());
}

/// Walks each of `walks` with the default [`MoveOptions`]: how many arrived, how many stopped
/// early (a wall, a gap in the edges, an object edge, a transition), and how many failed.
pub fn move_batch(world: &World, walks: &[(Position, Position)]) -> (usize, usize, usize) {
    let (mut arrived, mut stopped, mut failed) = (0, 0, 0);
    for &(from, to) in walks {
        match world.move_along(from, to, &MoveOptions::default()) {
            Ok(outcome) if outcome.stop == MoveStop::Arrived => arrived += 1,
            Ok(_) => stopped += 1,
            Err(_) => failed += 1,
        }
    }
    (arrived, stopped, failed)
}

fn random_point(rng: &mut SplitMix64, regions: &[RegionId]) -> Position {
    let region = regions[rng.range(0, regions.len() as u32) as usize];
    // `unit` is below 1, but its product with 1920 can round up to 1920 in f32.
    let local = |rng: &mut SplitMix64| ((rng.unit() * f64::from(REGION_SIZE)) as f32).min(1919.999);
    let x = local(rng);
    let z = local(rng);
    Position::new(region, x, z)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_seeded_and_hold_their_promises() {
        let regions = [RegionId::new(10, 10), RegionId::new(11, 10)];
        let meshes: Vec<_> = regions
            .iter()
            .map(|&r| (r, silknav_testkit::open_region(r)))
            .collect();
        let world = World::from_navmeshes(meshes.iter().map(|(r, m)| (*r, m)));
        assert_eq!(
            random_points(&regions, 50, 3),
            random_points(&regions, 50, 3)
        );
        assert!(walkable_points(&world, &regions, 50, 3)
            .iter()
            .all(|&p| world.cell_at(p, Surface::Highest).is_some()));
        let walked = walkers(&world, &regions, 10, 20, 20.0, 3);
        assert_eq!(walked.len(), 200);
        assert!(walked.iter().all(|p| world.contains(p.region)));
        // Each walker's next position is a step away, except after a restart.
        let steps = walked
            .iter()
            .zip(&walked[10..])
            .filter(|(a, b)| {
                let (dx, dz) = (b.world_x() - a.world_x(), b.world_z() - a.world_z());
                dx.abs().max(dz.abs()) <= 20.01
            })
            .count();
        assert!(steps >= 170, "{steps} of 190");
        for (from, to) in segments(&world, &regions, 50, 1000.0, Ends::Walkable, 3) {
            let (dx, dz) = (to.world_x() - from.world_x(), to.world_z() - from.world_z());
            assert!((dx.hypot(dz) - 1000.0).abs() < 0.01);
            assert!(
                world.cell_at(from, Surface::Highest).is_some()
                    && world.cell_at(to, Surface::Highest).is_some()
            );
        }
    }
}
