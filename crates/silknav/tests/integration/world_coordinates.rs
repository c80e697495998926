//! Queries in world coordinates (`silknav::query`): each answers as the `World` method on the
//! position does, points outside the id space answer as documented, and the batch forms equal
//! the single queries element by element.

use silknav::query::{self, PointQuery, SegmentQuery};
use silknav::world::{movement::MoveError, raycast::RayError};
use silknav::worldgen::DEFAULT_ORIGIN;
use silknav::{
    MoveOptions, PathError, PathIndex, PathOptions, PathScratch, Position, Surface, World,
};
use silknav_testkit::rng::SplitMix64;

/// A generated 2×2 world with its objects, loaded from a data root on disk.
fn world() -> World {
    let (_dir, _files, world) = crate::written_world(3, 2, 2);
    assert!(world.object_instances().len() > 0, "the world has objects");
    world
}

/// Points over the world and a margin around it, and a few outside the id space or not
/// finite.
fn points(n: usize, seed: u64) -> Vec<[f64; 2]> {
    let (x0, z0) = (
        f64::from(DEFAULT_ORIGIN.0) * 1920.0,
        f64::from(DEFAULT_ORIGIN.1) * 1920.0,
    );
    let mut rng = SplitMix64::new(seed);
    let mut out: Vec<[f64; 2]> = (0..n)
        .map(|_| {
            [
                x0 - 100.0 + rng.unit() * 4040.0,
                z0 - 100.0 + rng.unit() * 4040.0,
            ]
        })
        .collect();
    out.extend([
        [-1.0, 5.0],
        [5.0, 245_760.0],
        [f64::NAN, z0],
        [x0, f64::INFINITY],
    ]);
    out
}

#[test]
fn single_queries_answer_as_the_world_does_on_positions() {
    let world = world();
    for p in points(2_000, 1) {
        let pos = Position::from_world(p[0], p[1]);
        let Some(pos) = pos else {
            assert_eq!(query::cell(&world, at(p[0], p[1], None)), None);
            assert_eq!(query::height(&world, at(p[0], p[1], Some(0.0))), None);
            continue;
        };
        assert_eq!(
            query::cell(&world, at(p[0], p[1], None)),
            world.cell_at(pos, Surface::Highest)
        );
        assert_eq!(
            query::cell(&world, at(p[0], p[1], Some(40.0))),
            world.cell_at(pos, Surface::Near(40.0))
        );
        assert_eq!(
            query::height(&world, at(p[0], p[1], None)),
            world.height_at(pos, Surface::Terrain)
        );
        assert_eq!(
            query::height(&world, at(p[0], p[1], Some(40.0))),
            world.height_at(pos, Surface::Near(40.0))
        );
    }
}

#[test]
fn points_outside_the_id_space_answer_as_the_command_line_does() {
    let world = world();
    let paths = PathIndex::build(&world);
    let inside = [f64::from(DEFAULT_ORIGIN.0) * 1920.0 + 500.0, 64.0 * 1920.0];
    let outside = [-5.0, 100.0];
    let both = |a: [f64; 2], b: [f64; 2]| [a[0], a[1], b[0], b[1]];
    assert_eq!(
        query::los(&world, seg(both(outside, inside))),
        Err(RayError::StartNotWalkable)
    );
    assert_eq!(
        query::move_along(&world, seg(both(outside, inside)), &MoveOptions::default()),
        Err(MoveError::StartNotWalkable)
    );
    let mut scratch = PathScratch::new();
    assert_eq!(
        query::path(
            &world,
            &paths,
            seg(both(outside, inside)),
            &PathOptions::default(),
            &mut scratch
        ),
        Err(PathError::StartBlocked)
    );
    // The end outside, from a walkable start.
    let start = points(5_000, 2)
        .into_iter()
        .find(|p| query::cell(&world, at(p[0], p[1], None)).is_some_and(|c| c.object.is_none()))
        .expect("open ground");
    assert_eq!(
        query::los(&world, seg(both(start, outside))),
        Err(RayError::BadEnd)
    );
    assert_eq!(
        query::move_along(&world, seg(both(start, outside)), &MoveOptions::default()),
        Err(MoveError::OffMesh)
    );
    assert_eq!(
        query::path(
            &world,
            &paths,
            seg(both(start, outside)),
            &PathOptions::default(),
            &mut scratch
        ),
        Err(PathError::GoalBlocked)
    );
}

#[test]
fn batch_heights_equal_the_single_queries() {
    let world = world();
    // More points than one task takes, so that the batch is split across threads.
    let points = points(20_000, 3);
    let mut got = vec![Some(f32::NAN); points.len()];
    let queries: Vec<PointQuery> = points.iter().map(|p| at(p[0], p[1], None)).collect();
    query::heights(&world, &queries, &mut got);
    let mut found = 0;
    for (p, h) in points.iter().zip(&got) {
        let want = query::height(&world, at(p[0], p[1], None));
        assert_eq!(h.map(f32::to_bits), want.map(f32::to_bits), "{p:?}");
        found += usize::from(want.is_some());
    }
    assert!(found > 15_000 && found < points.len(), "{found}");

    let with_y: Vec<[f64; 3]> = points
        .iter()
        .enumerate()
        .map(|(i, p)| [p[0], p[1], (i % 50) as f64])
        .collect();
    let mut got = vec![None; with_y.len()];
    let queries: Vec<PointQuery> = with_y
        .iter()
        .map(|p| at(p[0], p[1], Some(p[2] as f32)))
        .collect();
    query::heights(&world, &queries, &mut got);
    let mut differs = 0;
    for (p, h) in with_y.iter().zip(&got) {
        let want = query::height(&world, at(p[0], p[1], Some(p[2] as f32)));
        assert_eq!(h.map(f32::to_bits), want.map(f32::to_bits), "{p:?}");
        differs += usize::from(*h != query::height(&world, at(p[0], p[1], None)));
    }
    assert!(differs > 0, "some points are on object floors");
}

#[test]
#[should_panic(expected = "one answer per point")]
fn batch_heights_want_one_answer_per_point() {
    let world = World::from_navmeshes([]);
    query::heights(&world, &[at(0.0, 0.0, None)], &mut []);
}

#[test]
fn batch_paths_equal_the_single_queries_with_and_without_a_budget() {
    let world = world();
    let paths = PathIndex::build(&world);
    let ends = points(120, 4);
    let segments: Vec<[f64; 4]> = ends
        .chunks_exact(2)
        .map(|p| [p[0][0], p[0][1], p[1][0], p[1][1]])
        .collect();
    let queries: Vec<SegmentQuery> = segments.iter().map(|&s| seg(s)).collect();
    let options = PathOptions::default();
    for budget in [None, Some(3)] {
        let got = query::paths(&world, &paths, &queries, budget, &options);
        assert_eq!(got.len(), segments.len());
        let mut scratch = budget.map_or_else(PathScratch::new, PathScratch::with_budget);
        let mut kinds = [0; 2];
        for (s, path) in segments.iter().zip(&got) {
            assert_eq!(
                path,
                &query::path(
                    &world,
                    &paths,
                    seg(*s),
                    &PathOptions::default(),
                    &mut scratch
                ),
                "{s:?}"
            );
            kinds[usize::from(path.is_ok())] += 1;
        }
        assert!(
            kinds[0] > 0 && kinds[1] > 0,
            "{kinds:?}: found and not found"
        );
        if budget.is_some() {
            assert!(got.contains(&Err(PathError::BudgetExceeded)));
        }
    }
    assert!(query::paths(&world, &paths, &[], None, &options).is_empty());
}

fn at(x: f64, z: f64, y: Option<f32>) -> PointQuery {
    PointQuery {
        y,
        ..PointQuery::new(x, z)
    }
}

fn seg(s: [f64; 4]) -> SegmentQuery {
    SegmentQuery::new(s[0], s[1], s[2], s[3])
}
