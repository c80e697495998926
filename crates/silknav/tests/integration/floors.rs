//! A world of object floors only (the test kit's [`floors_world`]): no walkable terrain,
//! linked spans, a lone span and a closed room, as a dungeon is. It loads, indexes and answers
//! every query, and the answers chain: a snapped point has a cell, a path's legs are walked
//! by `move` from the height the leg before arrived at.

use silknav::world::movement::MoveStop;
use silknav::{
    MoveOptions, Navigator, PathError, PathIndex, PathOptions, PathScratch, Position, Surface,
    World, WorldPath,
};
use silknav_testkit::floors_world::{write_floors_world, write_gorge_world, FloorsWorld};

fn load() -> (tempfile::TempDir, FloorsWorld, World) {
    let dir = tempfile::tempdir().unwrap();
    let floors = write_floors_world(dir.path());
    let world = World::load(dir.path()).unwrap();
    assert!(world.load_report().is_clean(), "{:?}", world.load_report());
    (dir, floors, world)
}

fn at(p: [f64; 2]) -> Position {
    Position::from_world(p[0], p[1]).unwrap()
}

/// Asserts that every leg of `path` (`what` names it in failures), walked from the height the
/// leg before arrived at (`World::path_heights`, `move --y`), arrives.
fn assert_legs_arrive(world: &World, path: &WorldPath, what: &str) {
    let heights = world.path_heights(path, Surface::Highest);
    for (k, leg) in path.waypoints.windows(2).enumerate() {
        let y = heights[k].expect("a height");
        let walk = world
            .move_along(
                leg[0],
                leg[1],
                &MoveOptions::new().with_start(Surface::Near(y)),
            )
            .unwrap();
        assert_eq!(
            walk.stop,
            MoveStop::Arrived,
            "{what}: leg {leg:?}: {walk:?}"
        );
    }
}

#[test]
fn a_world_of_floors_only_answers_cells_heights_sight_and_snaps() {
    let (_dir, floors, world) = load();
    assert_eq!(world.object_instances().len(), 5);
    for p in floors
        .walkway
        .iter()
        .chain([&floors.lone_span, &floors.room])
    {
        let p = at(*p);
        assert!(
            world.cell_at(p, Surface::Terrain).is_none(),
            "{p}: the terrain is blocked"
        );
        let cell = world
            .cell_at(p, Surface::Highest)
            .unwrap_or_else(|| panic!("{p}: no floor"));
        assert!(cell.object.is_some(), "{p}");
        let floor = world
            .height_at(p, Surface::Highest)
            .expect("a floor's height");
        assert_eq!(world.height_at(p, Surface::Near(floor)), Some(floor), "{p}");
        assert_eq!(world.cell_at(p, Surface::Near(floor)), Some(cell), "{p}");
        let snap = world
            .nearest_walkable(p, Surface::Highest, 10.0)
            .expect("on a floor");
        assert_eq!((snap.position, snap.distance), (p, 0.0));
    }
    // Beside a span: the nearest walkable point is on its floor, and has a cell.
    let beside = at([floors.walkway[0][0], floors.walkway[0][1] - 40.0]);
    assert!(world.cell_at(beside, Surface::Highest).is_none());
    let snap = world
        .nearest_walkable(beside, Surface::Highest, 100.0)
        .expect("the span is near");
    assert!(world
        .cell_at(snap.position, Surface::Highest)
        .is_some_and(|c| c.object.is_some()));
    assert!((snap.distance - 10.0).abs() < 0.01, "{snap:?}");
    // Sight along one span is clear; from a span to the room it is not.
    let (a, b) = (at(floors.walkway[0]), at(floors.walkway[1]));
    assert_eq!(world.line_of_sight(a, b, Surface::Highest), Ok(true));
    assert_ne!(
        world.line_of_sight(a, at(floors.room), Surface::Highest),
        Ok(true)
    );
}

#[test]
fn a_walk_crosses_the_links_and_nowhere_else() {
    let (_dir, floors, world) = load();
    let w = &floors.walkway;
    // Span to span, across each link.
    for pair in w.windows(2) {
        let walk = world
            .move_along(at(pair[0]), at(pair[1]), &MoveOptions::default())
            .unwrap();
        assert_eq!(walk.stop, MoveStop::Arrived, "{pair:?}: {walk:?}");
    }
    // Off the side of a span onto the blocked ground: the walk stops on the span.
    let off = at([w[0][0] + 50.0, w[0][1] - 200.0]);
    let walk = world
        .move_along(at(w[0]), off, &MoveOptions::default())
        .unwrap();
    assert_ne!(walk.stop, MoveStop::Arrived, "{walk:?}");
}

#[test]
fn paths_on_floors_only() {
    let (_dir, floors, world) = load();
    let paths = PathIndex::build(&world);
    assert_eq!(
        paths.stats().corners,
        0,
        "no walkable terrain, no terrain corner"
    );
    let mut scratch = PathScratch::new();
    let w = &floors.walkway;
    let (first, last) = (at(w[0]), at(w[w.len() - 1]));
    // The exact path with objects, over the three spans.
    let exact = paths
        .find_path(
            &world,
            first,
            last,
            &PathOptions::exact_with_objects(),
            &mut scratch,
        )
        .expect("the walkway joins its ends");
    let straight = (w[0][0] - w[5][0]).hypot(w[0][1] - w[5][1]);
    assert!(exact.length >= straight - 1e-6, "{exact:?}");
    assert!(exact.length < straight + 20.0, "{exact:?}");
    let surfaces = world
        .path_surfaces(&exact, Surface::Highest)
        .expect("each leg clear");
    assert!(
        surfaces.iter().all(Option::is_some),
        "on floors all the way"
    );
    // The default path, and the walkable one through objects: every leg arrives under the
    // walk from the height the leg before arrived at.
    for options in [
        PathOptions::new(),
        PathOptions::new().with_objects(true).unwrap(),
    ] {
        let path = paths
            .find_path(&world, first, last, &options, &mut scratch)
            .unwrap_or_else(|e| panic!("{options:?}: {e}"));
        assert!(!path.exact);
        assert_legs_arrive(&world, &path, &format!("{options:?}"));
    }
    // The lone span and the room: no walk reaches them from the walkway.
    for goal in [floors.lone_span, floors.room] {
        for options in [PathOptions::exact_with_objects(), PathOptions::new()] {
            assert_eq!(
                paths.find_path(&world, first, at(goal), &options, &mut scratch),
                Err(PathError::Unreachable),
                "{options:?}"
            );
        }
    }
    // Off every floor.
    let nowhere = at([w[0][0], w[0][1] - 200.0]);
    assert_eq!(
        paths.find_path(&world, nowhere, first, &PathOptions::new(), &mut scratch),
        Err(PathError::StartBlocked)
    );
}

#[test]
fn a_navigator_loads_and_indexes_a_world_of_floors_only() {
    let dir = tempfile::tempdir().unwrap();
    let floors = write_floors_world(dir.path());
    let nav = Navigator::load(dir.path()).unwrap();
    let (a, b) = (at(floors.walkway[0]), at(floors.walkway[3]));
    let path = nav
        .find_path(a, b, &PathOptions::default(), &mut PathScratch::new())
        .unwrap();
    assert_eq!(path.waypoints.first(), Some(&a));
    assert_eq!(path.waypoints.last(), Some(&b));
}

/// Two banks of walkable terrain joined only over the walkway: the walkable path through
/// objects crosses, every leg of it arriving under `move --y`; the paths found on the terrain
/// (the default and the exact one) call the banks unreachable, as documented.
#[test]
fn the_path_through_objects_crosses_a_gorge() {
    let dir = tempfile::tempdir().unwrap();
    let floors = write_gorge_world(dir.path());
    let world = World::load(dir.path()).unwrap();
    let paths = PathIndex::build(&world);
    let (west, east) = (at(floors.banks[0]), at(floors.banks[1]));
    assert!(
        world.cell_at(west, Surface::Terrain).is_some()
            && world.cell_at(east, Surface::Terrain).is_some()
    );
    let mut scratch = PathScratch::new();
    for options in [PathOptions::exact(), PathOptions::new()] {
        assert_eq!(
            paths.find_path(&world, west, east, &options, &mut scratch),
            Err(PathError::Unreachable),
            "{options:?}: the terrain alone does not join the banks"
        );
    }
    let exact = paths
        .find_path(
            &world,
            west,
            east,
            &PathOptions::exact_with_objects(),
            &mut scratch,
        )
        .expect("the walkway joins the banks");
    let through = PathOptions::new().with_objects(true).unwrap();
    let path = paths
        .find_path(&world, west, east, &through, &mut scratch)
        .expect("the walkable path through objects crosses");
    assert_eq!(path.exact_length, exact.length);
    assert_eq!(path.waypoints.first(), Some(&west));
    assert_eq!(path.waypoints.last(), Some(&east));
    assert_legs_arrive(&world, &path, "through objects");
    // The server's walk joins the banks in one move, over the spans.
    let walk = world
        .move_along(west, east, &MoveOptions::default())
        .unwrap();
    assert_eq!(walk.stop, MoveStop::Arrived, "{walk:?}");
}
