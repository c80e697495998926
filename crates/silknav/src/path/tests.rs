//! The visibility scan against line of sight, corner by corner.

use super::index::{direction_class, edge_keeps_side, vertex_point, TerrainIndex, NONE};
use super::visibility::{scan, sees, Cone, ScanScratch};
use super::{PathError, PathIndex, PathOptions, PathScratch};
use crate::world::Surface;
use crate::{Position, World};
use jmxv::nvm::EDGE_BLOCKED;

/// Every corner pair within 30 tiles: the scan sees the other corner (in a direction taut at
/// the first) exactly when line of sight says the segment is clear.
fn check(name: &str, world: &World) {
    let index = &TerrainIndex::build(world, &|_, _| {});
    assert!(!index.corners.is_empty());
    let mut stack = ScanScratch::default();
    let mut compared = 0;
    for (c, corner) in index.corners.iter().enumerate() {
        let p = corner.point();
        let roots: Vec<u32> = index.corner_roots[c]
            .iter()
            .copied()
            .filter(|&r| r != NONE)
            .collect();
        let mut seen = vec![false; index.corners.len()];
        sees(index, p, &roots, None, &mut stack, |d, cone| {
            if cone.map_or(true, |k| k.holds(p, d.point())) {
                seen[d.id as usize] = true;
            }
        });
        for (d, other) in index.corners.iter().enumerate() {
            if d == c || (other.gx - corner.gx).abs() > 30 || (other.gz - corner.gz).abs() > 30 {
                continue;
            }
            let q = other.point();
            let Some(class) = direction_class(p, q) else {
                continue;
            };
            if corner.taut_mask & (1 << class) == 0 {
                continue;
            }
            let (a, b) = (
                Position::from_world(p[0], p[1]).unwrap(),
                Position::from_world(q[0], q[1]).unwrap(),
            );
            if world.line_of_sight(a, b, Surface::Highest) != Ok(seen[d])
                && std::env::var("SCAN_DEBUG").is_ok()
            {
                eprintln!(
                    "corner arc {:?} mask {:b} roots {:?}",
                    corner.arc, corner.taut_mask, index.corner_roots[c]
                );
                for (i, r) in index.rects.iter().enumerate() {
                    let near = |g: i32, lo: i32, hi: i32| lo <= g + 8 && hi >= g - 8;
                    if near(corner.gx, r.x0, r.x1) && near(corner.gz, r.z0, r.z1) {
                        eprintln!("rect {i} x {}..{} z {}..{}", r.x0, r.x1, r.z0, r.z1);
                        for p in index.contacts_of(i as u32) {
                            eprintln!(
                                "    contact {:?} line {} {}..{} to {}",
                                p.side(),
                                p.line,
                                p.lo,
                                p.hi,
                                p.to
                            );
                        }
                        for p in index.portals_of(i as u32) {
                            eprintln!(
                                "    portal {:?} line {} {}..{} to {}",
                                p.side(),
                                p.line,
                                p.lo,
                                p.hi,
                                p.to
                            );
                        }
                    }
                }
            }
            assert_eq!(
                world.line_of_sight(a, b, Surface::Highest),
                Ok(seen[d]),
                "{name}: corner ({}, {}) → ({}, {})",
                corner.gx,
                corner.gz,
                other.gx,
                other.gz
            );
            compared += 1;
        }
    }
    assert!(compared > 1000, "only {compared} pairs");
}

#[test]
fn scan_sees_what_line_of_sight_sees() {
    let region = silknav_testkit::TEST_REGION;
    let mesh = silknav_testkit::realistic_region(7);
    check("realistic", &World::from_navmeshes([(region, &mesh)]));
}

#[test]
fn scan_sees_what_line_of_sight_sees_with_thin_walls() {
    for (modulus, every) in [(29, 3), (13, 2), (41, 4), (17, 5)] {
        check(
            &format!("mask {modulus}, walls {every}"),
            &thin_wall_world(modulus, every),
        );
    }
}

/// One region with a blocked tile where `(7x + 3z) % modulus == 0` and a blocked bar, where
/// every `every`-th passable edge between two cells is made a wall (a thin wall).
fn thin_wall_world(modulus: usize, every: usize) -> World {
    let region = silknav_testkit::TEST_REGION;
    let mut mesh = silknav_testkit::region_from_mask(region, |x, z| {
        (x * 7 + z * 3) % modulus == 0 || (30..34).contains(&x) && (30..60).contains(&z)
    });
    for (k, e) in mesh
        .internal_edges
        .iter_mut()
        .filter(|e| e.flag & EDGE_BLOCKED == 0 && e.cell[1] != u16::MAX)
        .enumerate()
    {
        if k % every == 0 {
            e.flag |= EDGE_BLOCKED;
        }
    }
    World::from_navmeshes([(region, &mesh)])
}

/// The scan along one segment (the straight path's test with records) against the terrain's
/// line of sight, for random pairs of points within 15 tiles, a third of them on grid lines.
fn check_segments(name: &str, world: &World) {
    let index = &TerrainIndex::build(world, &|_, _| {});
    let ground = crate::world::raycast::Grid::global(world);
    let mut stack = ScanScratch::default();
    let mut rng = crate::rng::SplitMix64::new(5);
    let region = silknav_testkit::TEST_REGION;
    let point = |rng: &mut crate::rng::SplitMix64| {
        let mut coordinate = || {
            let tiles = (rng.next_u64() % (96 * 8)) as f32 / 8.0;
            if rng.next_u64() % 3 == 0 {
                tiles.floor() * 20.0
            } else {
                tiles * 20.0
            }
        };
        Position::new(region, coordinate(), coordinate())
    };
    let (mut compared, mut clear) = (0, 0);
    while compared < 4000 {
        let a = point(&mut rng);
        let b = point(&mut rng);
        if (a.world_x() - b.world_x()).abs() > 300.0 || (a.world_z() - b.world_z()).abs() > 300.0 {
            continue;
        }
        let s = [a.world_x(), a.world_z()];
        let t = [b.world_x(), b.world_z()];
        let (Some(start), Some(goal)) = (
            super::search::endpoint(index, &ground, s),
            super::search::endpoint(index, &ground, t),
        ) else {
            continue;
        };
        let target = super::visibility::Target {
            point: t,
            roots: goal.roots(),
        };
        let scanned = super::visibility::sees_point(index, s, start.roots(), &target, &mut stack);
        assert_eq!(
            world.terrain_line_of_sight(a, b),
            Ok(scanned),
            "{name}: {a} → {b}"
        );
        compared += 1;
        clear += usize::from(scanned);
    }
    assert!(
        clear > 200 && clear < compared - 200,
        "{name}: {clear} of {compared} clear"
    );
}

#[test]
fn the_scan_along_a_segment_sees_what_line_of_sight_sees() {
    let region = silknav_testkit::TEST_REGION;
    let mesh = silknav_testkit::realistic_region(7);
    check_segments("realistic", &World::from_navmeshes([(region, &mesh)]));
    for modulus in [29, 13] {
        check_segments(&format!("mask {modulus}"), &thin_wall_world(modulus, 3));
    }
}

#[test]
fn index_stats_are_the_first_build_and_its_time() {
    let mesh = silknav_testkit::realistic_region(7);
    let world = World::from_navmeshes([(silknav_testkit::TEST_REGION, &mesh)]);
    let paths = PathIndex::build(&world);
    let first = paths.stats();
    assert!(
        first.corners > 0 && first.rects > 0 && first.edges > 0,
        "{first:?}"
    );
    assert!(first.build_time > std::time::Duration::ZERO, "{first:?}");
    // Built once: asking again reports the same index and the same build.
    assert_eq!(paths.stats(), first);
}

/// Per corner the corners it has edges to, and per rectangle the (corner, cone) records of how
/// corners see it.
type PlainGraph = (Vec<Vec<u32>>, Vec<Vec<(u32, Cone)>>);

/// The graph as first built, the plain way: every corner scans every direction and keeps the
/// corners it sees in directions taut at both ends; and the "seen by" records of those scans.
fn graph_by_full_scans(world: &World, index: &TerrainIndex) -> PlainGraph {
    let ground = crate::world::raycast::Grid::global(world);
    let mut edges = vec![Vec::new(); index.corners.len()];
    let mut seen = vec![Vec::new(); index.rects.len()];
    let mut stack = ScanScratch::default();
    for (c, corner) in index.corners.iter().enumerate() {
        let p = corner.point();
        let roots: Vec<u32> = index.corner_roots[c]
            .iter()
            .copied()
            .filter(|&r| r != NONE)
            .collect();
        scan(index, p, &roots, &mut stack, |rect, cone| {
            seen[rect as usize].push((
                c as u32,
                cone.copied().unwrap_or(Cone { right: p, left: p }),
            ));
            for other in index.corners_of(rect) {
                let q = other.point();
                let Some(class) = direction_class(p, q) else {
                    continue;
                };
                if corner.taut_mask & (1 << class) != 0
                    && other.taut_mask & (1 << ((class + 4) % 8)) != 0
                    && cone.map_or(true, |k| k.holds(p, q))
                    && edge_keeps_side(&ground, corner, &index.corners[other.id as usize])
                {
                    edges[c].push(other.id);
                }
            }
            false
        });
        edges[c].sort_unstable();
        edges[c].dedup();
    }
    (edges, seen)
}

/// The corners that see `s` from a taut direction by a rectangle's records.
fn seeing(
    index: &TerrainIndex,
    records: impl Iterator<Item = (u32, Cone)>,
    s: [f64; 2],
) -> Vec<u32> {
    let mut out: Vec<u32> = records
        .filter(|(c, cone)| {
            let corner = &index.corners[*c as usize];
            let p = corner.point();
            direction_class(p, s).is_some_and(|k| corner.taut_mask & (1 << k) != 0)
                && cone.holds(p, s)
        })
        .map(|(c, _)| c)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The fast build (half the directions per corner, each edge found once, in parallel) against
/// the plain one: the same edges at every corner, and from every sample point of every
/// rectangle the same corners in sight by the records.
fn check_graph(name: &str, world: &World) {
    let index = &TerrainIndex::build(world, &|_, _| {});
    assert!(index.has_seen_by(), "{name}: records kept");
    let (edges, seen) = graph_by_full_scans(world, index);
    for (c, want) in edges.iter().enumerate() {
        // Sorted by direction in the index, by corner here.
        let mut got: Vec<u32> = index.edges_of(c as u32).iter().map(|e| e.to).collect();
        got.sort_unstable();
        assert_eq!(&got, want, "{name}: corner {c}");
        for e in index.edges_of(c as u32) {
            let to = &index.corners[e.to as usize];
            assert_eq!((i32::from(e.gx), i32::from(e.gz)), (to.gx, to.gz));
        }
    }
    let mut rng = crate::rng::SplitMix64::new(11);
    let mut compared = 0;
    for (r, rect) in index.rects.iter().enumerate() {
        let mut samples = vec![
            vertex_point(rect.x0, rect.z0),
            vertex_point(rect.x1, rect.z1),
            vertex_point(rect.x0, rect.z1),
            vertex_point(rect.x1, rect.z0),
        ];
        for _ in 0..3 {
            let mut along = |a: i32, b: i32| {
                let t = (rng.next_u64() % 1024) as f64 / 1024.0;
                (f64::from(a) + t * f64::from(b - a)) * 20.0
            };
            samples.push([along(rect.x0, rect.x1), along(rect.z0, rect.z1)]);
        }
        for s in samples {
            let want = seeing(index, seen[r].iter().copied(), s);
            let got = seeing(
                index,
                index.seen_by(r as u32).iter().map(|k| (k.corner, k.cone())),
                s,
            );
            assert_eq!(got, want, "{name}: rect {r} point {s:?}");
            compared += usize::from(!want.is_empty());
        }
    }
    assert!(compared > 100, "{name}: only {compared} points see corners");
}

#[test]
fn the_graph_equals_the_one_of_full_scans() {
    let region = silknav_testkit::TEST_REGION;
    let mesh = silknav_testkit::realistic_region(7);
    check_graph("realistic", &World::from_navmeshes([(region, &mesh)]));
    check_graph("thin walls", &thin_wall_world(13, 3));
    let generated = crate::worldgen::generate(&crate::worldgen::GenOptions {
        seed: 2,
        width: 2,
        height: 2,
        origin: (40, 30),
        ..Default::default()
    })
    .unwrap();
    check_graph(
        "generated 2×2",
        &World::from_navmeshes(generated.regions.iter().map(|(r, m)| (*r, m))),
    );
}

/// Random points of the walkable ground in a world's bounding box: anywhere, on a tile corner
/// or on a tile side, where the server's walk can start (the tile the point belongs to is
/// open).
fn random_points(world: &World, rng: &mut crate::rng::SplitMix64, n: usize) -> Vec<Position> {
    let ids: Vec<_> = world.regions().collect();
    let (x0, x1) = (
        ids.iter().map(|r| r.x()).min().unwrap(),
        ids.iter().map(|r| r.x()).max().unwrap(),
    );
    let (z0, z1) = (
        ids.iter().map(|r| r.z()).min().unwrap(),
        ids.iter().map(|r| r.z()).max().unwrap(),
    );
    let size = 1920.0;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let x = (f64::from(x0) + rng.unit() * f64::from(x1 - x0 + 1)) * size;
        let z = (f64::from(z0) + rng.unit() * f64::from(z1 - z0 + 1)) * size;
        let (x, z) = match rng.range(0, 4) {
            0 => ((x / 20.0).round() * 20.0, (z / 20.0).round() * 20.0),
            1 => ((x / 20.0).round() * 20.0, z),
            _ => (x, z),
        };
        if let Some(p) = Position::from_world(x, z).filter(|&p| world.terrain_cell_at(p).is_some())
        {
            out.push(p);
        }
    }
    out
}

/// How much of a sweep a test runs: the default loop's share, or the whole of it in the test's
/// `#[ignore]`d `_sweep` twin, which `.ci/run` runs (`cargo test -- --ignored _sweep`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Sweep {
    /// One generated world, the small Moving AI maps and brc202d, the first thin-wall world.
    Quick,
    /// Every generated world, every Moving AI map, every thin-wall world the test names.
    Full,
}

impl Sweep {
    /// `quick` in the default loop, `full` in the sweep.
    fn pick<T>(self, quick: T, full: T) -> T {
        match self {
            Sweep::Quick => quick,
            Sweep::Full => full,
        }
    }
}

/// A property test in two sizes: `$quick` runs `$on(Sweep::Quick)` with every `cargo test`,
/// `$sweep` runs `$on(Sweep::Full)`, ignored by default (`.ci/run` runs the sweeps with
/// `cargo test -- --ignored _sweep`). Doc comments given first document the quick test.
macro_rules! quick_and_sweep {
    ($(#[$doc:meta])* $quick:ident, $sweep:ident, $on:ident) => {
        $(#[$doc])*
        #[test]
        fn $quick() {
            $on(Sweep::Quick);
        }

        #[test]
        #[ignore = "a sweep: .ci/run runs it (cargo test -- --ignored _sweep)"]
        fn $sweep() {
            $on(Sweep::Full);
        }
    };
}

/// The test worlds of the clearance experiment: generated worlds and the Moving AI maps, all
/// of them or the quick sweep's share.
fn experiment_worlds(sweep: Sweep) -> Vec<(String, World)> {
    use crate::worldgen::{generate, GenOptions, Landscape};
    let mut worlds = Vec::new();
    let seeds: &[u64] = sweep.pick(&[1], &[1, 2, 3]);
    for (seed, landscape) in seeds.iter().map(|&seed| (seed, Landscape::Rugged)) {
        let generated = generate(&GenOptions {
            seed,
            width: 3,
            height: 3,
            origin: crate::worldgen::DEFAULT_ORIGIN,
            landscape,
        })
        .unwrap();
        let world = World::from_navmeshes(generated.regions.iter().map(|(r, m)| (*r, m)));
        worlds.push((format!("generated seed {seed}"), world));
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/movingai/maps");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    // The quick share leaves out the two 512×512 maps of many small obstacles.
    names.retain(|name| sweep == Sweep::Full || !name.contains("512"));
    for name in names {
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        let meshes = crate::movingai::GridMap::parse(&text)
            .unwrap()
            .to_world((10, 20))
            .unwrap();
        worlds.push((
            name,
            World::from_navmeshes(meshes.iter().map(|(r, m)| (*r, m))),
        ));
    }
    worlds
}

/// The experiment worlds and single regions with thin walls ([`thin_wall_world`]), one per
/// (modulus, every) pair.
fn experiment_worlds_with_thin_walls(
    sweep: Sweep,
    thin_walls: &[(usize, usize)],
) -> Vec<(String, World)> {
    let mut worlds = experiment_worlds(sweep);
    let thin_walls = sweep.pick(&thin_walls[..1], thin_walls);
    for &(modulus, every) in thin_walls {
        worlds.push((
            format!("mask {modulus}, walls {every}"),
            thin_wall_world(modulus, every),
        ));
    }
    worlds
}

/// The clearance experiment behind [`super::DEFAULT_CLEARANCE`]: for each clearance, how many
/// random paths on the test worlds have a leg the terrain walk refuses when the corners are
/// only moved off (repairs off), and how many still fail with the repairs on.
///
/// `cargo test -p silknav --lib clearance_experiment -- --ignored --nocapture`
#[test]
#[ignore = "an experiment: prints a table, takes a minute"]
fn clearance_experiment() {
    let worlds = experiment_worlds(Sweep::Full);
    let clearances = [0.0, 0.0001, 0.0005, 0.001, 0.01, 0.05, 0.1, 0.2, 0.5, 1.0];
    let mut scratch = PathScratch::new();
    println!("clearance: paths, legs, paths with a refused leg (no repairs), paths not walkable / repairs (with repairs)");
    for &clearance in &clearances {
        let options = PathOptions::new().with_clearance(clearance).unwrap();
        let (mut paths, mut legs, mut refused, mut failed, mut repairs) = (0, 0, 0, 0, 0);
        for (_, world) in &worlds {
            let index = PathIndex::build(world);
            let mut rng = crate::rng::SplitMix64::new(7);
            let points = random_points(world, &mut rng, 400);
            for pair in points.chunks(2) {
                let found = index.find_path_counting(
                    world,
                    pair[0],
                    pair[1],
                    &options,
                    &mut scratch,
                    false,
                );
                match found {
                    Ok((path, _)) => {
                        paths += 1;
                        legs += path.waypoints.len() - 1;
                    }
                    Err(PathError::NotWalkable) => {
                        paths += 1;
                        refused += 1;
                    }
                    Err(_) => continue,
                }
                match index.find_path_counting(
                    world,
                    pair[0],
                    pair[1],
                    &options,
                    &mut scratch,
                    true,
                ) {
                    Ok((_, r)) => repairs += r,
                    Err(_) => failed += 1,
                }
            }
        }
        println!("{clearance:>6}: {paths} paths, {legs} legs, {refused} refused (no repairs); {failed} not walkable, {repairs} repairs");
    }
}

#[cfg(test)]
fn window_world(w0: usize, n: usize, blocked: &[bool], wall_every: usize) -> World {
    let region = jmxv::RegionId::new(40, 30);
    let mut mesh = silknav_testkit::region_from_mask(region, |x, z| {
        let inside = (w0..w0 + n).contains(&x) && (w0..w0 + n).contains(&z);
        !inside || blocked[(z - w0) * n + (x - w0)]
    });
    if wall_every > 0 {
        let mut k = 0;
        for e in &mut mesh.internal_edges {
            if e.flag & EDGE_BLOCKED == 0 && e.cell[1] != u16::MAX {
                if k % wall_every == 0 {
                    e.flag |= EDGE_BLOCKED;
                }
                k += 1;
            }
        }
    }
    World::from_navmeshes([(region, &mesh)])
}

/// A thin wall (x = 42 between tiles (41, 42) and (42, 42)) meets the blocked tiles (42, 43..46)
/// on its east at (42, 43), and with a wall along z = 42 on its west makes a right-angled
/// corner at (42, 42). Sight runs along x = 42 from (42, 42) to (42, 46), but no path does: a
/// bend at (42, 42) keeps the leg east of the wall, where (42, 43) is blocked, and west of it
/// lies only the inside of the corner. With that edge, the search reached (42, 46) from the
/// wrong side first and answered `Unreachable`.
#[test]
fn no_edge_along_a_thin_wall_from_the_side_a_bend_cannot_keep() {
    let mut mask = vec![false; 64];
    for (x, z) in [(6, 2), (2, 3), (2, 4), (2, 5)] {
        mask[z * 8 + x] = true;
    }
    let world = window_world(40, 8, &mask, 3);
    let index = &TerrainIndex::build(&world, &|_, _| {});
    let (bx, bz) = (40 * 96, 30 * 96);
    let corner = |x: i32, z: i32| {
        index
            .corners
            .iter()
            .position(|c| (c.gx, c.gz) == (bx + x, bz + z))
            .unwrap() as u32
    };
    let (a, b) = (corner(42, 42), corner(42, 46));
    assert_eq!(index.corners[a as usize].arc, [2, 4]);
    assert!(index.edges_of(a).iter().all(|e| e.to != b));
    assert!(index.edges_of(b).iter().all(|e| e.to != a));
    // Sight along the wall is clear all the same.
    let o = [40.0 * 1920.0, 30.0 * 1920.0];
    let q = |x: f64, z: f64| Position::from_world(o[0] + x * 20.0, o[1] + z * 20.0).unwrap();
    assert_eq!(
        world.line_of_sight(q(42.0, 42.0), q(42.0, 46.0), Surface::Highest),
        Ok(true)
    );
    // The path goes round: (42, 42), (43, 43), (43, 46), (42, 46).
    let mut scratch = PathScratch::new();
    let path = PathIndex::build(&world)
        .find_path(
            &world,
            q(40.5, 41.7),
            q(41.5, 45.5),
            &PathOptions::exact(),
            &mut scratch,
        )
        .unwrap();
    let want = 20.0 * (1.5f64.hypot(0.3) + 2f64.sqrt() + 3.0 + 1.0 + 0.5f64.sqrt());
    assert!(
        (path.length - want).abs() < 1e-9,
        "{} vs {want}",
        path.length
    );
    for leg in path.waypoints.windows(2) {
        assert_eq!(
            world.line_of_sight(leg[0], leg[1], Surface::Highest),
            Ok(true)
        );
    }
}

quick_and_sweep!(
    /// The corner table's answers are the search's: on every test world with at most 3,000 corners
    /// (generated worlds, Moving AI maps, single regions with thin walls), random queries (a third
    /// of the ends on grid lines) get the same length with the table and without it, and the
    /// table's path is a path: each leg in sight, its length the one answered.
    the_corner_table_answers_what_the_search_answers,
    the_corner_table_answers_what_the_search_answers_sweep,
    the_corner_table_answers_what_the_search_answers_on
);

fn the_corner_table_answers_what_the_search_answers_on(sweep: Sweep) {
    use super::search::{endpoint, Search};
    use crate::world::raycast::Grid;
    let mut worlds =
        experiment_worlds_with_thin_walls(sweep, &[(29, 3), (13, 2), (41, 4), (17, 5), (7, 2)]);
    // Open ground, where the search links its start to the corners near the segment first.
    worlds.push(("open".to_string(), open_world()));
    let mut rng = crate::rng::SplitMix64::new(41);
    let (mut with_table, mut turning) = (0, 0);
    for (name, world) in &worlds {
        // Tables for worlds above the size limit too, for the thin walls.
        let mut plain = TerrainIndex::build(world, &|_, _| {});
        if plain.corners.len() > 3000 {
            continue;
        }
        with_table += 1;
        plain.table = None;
        let mut with = plain.clone();
        with.table = Some(std::sync::Arc::new(super::table::CornerTable::make(&plain)));
        let index = &with;
        let ground = Grid::global(world);
        let (mut by_table, mut by_search) = (Search::default(), Search::default());
        let points = random_points(world, &mut rng, 600);
        for pair in points.chunks_exact(2) {
            let (s, t) = (
                [pair[0].world_x(), pair[0].world_z()],
                [pair[1].world_x(), pair[1].world_z()],
            );
            let (Some(start), Some(goal)) =
                (endpoint(index, &ground, s), endpoint(index, &ground, t))
            else {
                continue;
            };
            let connected = start.roots().iter().any(|&a| {
                goal.roots()
                    .iter()
                    .any(|&b| index.component[a as usize] == index.component[b as usize])
            });
            if !connected {
                continue;
            }
            let got = by_table.run(index, &ground, &start, &goal, usize::MAX);
            let want = by_search.run(&plain, &ground, &start, &goal, usize::MAX);
            let label = format!("{name}: {s:?} → {t:?}");
            match (got, want) {
                (Ok(a), Ok(b)) => {
                    assert!((a - b).abs() <= 1e-9 * b.max(1.0), "{label}: {a} vs {b}")
                }
                (got, want) => assert_eq!(got, want, "{label}"),
            }
            if by_table.corners.is_empty() {
                continue;
            }
            turning += 1;
            let mut polyline = vec![s];
            polyline.extend(
                by_table
                    .corners
                    .iter()
                    .map(|&c| index.corners[c as usize].point()),
            );
            polyline.push(t);
            let length: f64 = polyline
                .windows(2)
                .map(|l| super::search::distance(l[0], l[1]))
                .sum();
            let b = by_search
                .run(&plain, &ground, &start, &goal, usize::MAX)
                .unwrap();
            assert!(
                (length - b).abs() <= 1e-9 * b.max(1.0),
                "{label}: {length} vs {b}"
            );
            for leg in polyline.windows(2) {
                let (a, b) = (
                    Position::from_world(leg[0][0], leg[0][1]).unwrap(),
                    Position::from_world(leg[1][0], leg[1][1]).unwrap(),
                );
                assert_eq!(
                    world.line_of_sight(a, b, Surface::Highest),
                    Ok(true),
                    "{label}: leg {leg:?}"
                );
            }
            // The budget counts the corners turned at.
            let mut tight = Search::default();
            assert_eq!(
                tight.run(index, &ground, &start, &goal, by_table.corners.len() - 1),
                Err(PathError::BudgetExceeded),
                "{label}"
            );
        }
    }
    assert!(
        with_table >= sweep.pick(6, 12),
        "{with_table} worlds with a table"
    );
    assert!(
        turning > sweep.pick(1000, 2000),
        "{turning} paths that turn"
    );
    // The worlds' own indexes keep a table by its size limit.
    for (name, world) in &worlds {
        let index = &TerrainIndex::build(world, &|_, _| {});
        let work = index.corners.len() * (index.edges.len() + index.corners.len());
        assert_eq!(
            index.table.is_some(),
            work <= super::table::MAX_WORK,
            "{name}"
        );
        if ["arena.map", "maze512-32-9.map", "rmtst01.map"].contains(&name.as_str()) {
            assert!(index.table.is_some(), "{name}");
        }
        if name == "random512-25-0.map" {
            assert!(index.table.is_none(), "{name}");
        }
    }
}

quick_and_sweep!(
    /// Landmark bounds change no answer: on every test world (generated worlds, the Moving AI
    /// maps, single regions with thin walls), random queries get the same length with landmarks
    /// and without, through the records and through scans (the records dropped); and the bounds'
    /// premise holds: the graph is undirected, and along every edge a landmark's distance changes
    /// by at most the edge's length (and the rounding to f32).
    landmark_bounds_change_no_answer,
    landmark_bounds_change_no_answer_sweep,
    landmark_bounds_change_no_answer_on
);

fn landmark_bounds_change_no_answer_on(sweep: Sweep) {
    use super::landmarks::{self, LANDMARKS};
    use super::search::{distance, endpoint, Search};
    use crate::world::raycast::Grid;
    let worlds = experiment_worlds_with_thin_walls(sweep, &[(29, 3), (13, 2), (41, 4)]);
    let mut rng = crate::rng::SplitMix64::new(43);
    let (mut compared, mut turning, mut long) = (0, 0, 0);
    for (name, world) in &worlds {
        let mut plain = TerrainIndex::build(world, &|_, _| {});
        plain.table = None;
        plain.landmarks = Vec::new().into();
        let mut with = plain.clone();
        with.landmarks = landmarks::build(&plain).into();
        assert_eq!(with.landmarks.len(), with.corners.len(), "{name}");
        for a in 0..with.corners.len() as u32 {
            let p = with.corners[a as usize].point();
            for e in with.edges_of(a) {
                assert!(
                    with.edges_of(e.to).iter().any(|back| back.to == a),
                    "{name}: edge {a} → {} has no way back",
                    e.to
                );
                let length = distance(p, e.point());
                for k in 0..LANDMARKS {
                    let (da, db) = (
                        f64::from(with.landmarks[a as usize][k]),
                        f64::from(with.landmarks[e.to as usize][k]),
                    );
                    // Each distance is an f64 rounded to f32: half an f32 step off at most.
                    let rounding = (da + db) * f64::from(f32::EPSILON) / 2.0;
                    assert!(
                        da.is_infinite() && db.is_infinite()
                            || (da - db).abs() <= length * (1.0 + 1e-12) + rounding,
                        "{name}: landmark {k} at {a} and {}: {da} and {db}, {length} apart",
                        e.to
                    );
                }
            }
        }
        let ground = Grid::global(world);
        let mut unrecorded = [plain.clone(), with.clone()];
        for index in &mut unrecorded {
            index.seen_start = Vec::new().into();
            index.seen = Vec::new().into();
        }
        let pairs = [(&plain, &with), (&unrecorded[0], &unrecorded[1])];
        let (mut ours, mut theirs) = (Search::default(), Search::default());
        let points = random_points(world, &mut rng, 300);
        for pair in points.chunks_exact(2) {
            let (s, t) = (
                [pair[0].world_x(), pair[0].world_z()],
                [pair[1].world_x(), pair[1].world_z()],
            );
            for (without, with) in pairs {
                let (Some(start), Some(goal)) =
                    (endpoint(with, &ground, s), endpoint(with, &ground, t))
                else {
                    continue;
                };
                let got = ours.run(with, &ground, &start, &goal, usize::MAX);
                let want = theirs.run(without, &ground, &start, &goal, usize::MAX);
                let label = format!("{name}: {s:?} → {t:?}");
                match (got, want) {
                    (Ok(a), Ok(b)) => {
                        assert!((a - b).abs() <= 1e-9 * b.max(1.0), "{label}: {a} vs {b}");
                        compared += 1;
                        turning += usize::from(!ours.corners.is_empty());
                        // Searches with records take the bounds after this many corners.
                        let few = super::search::BOUNDS_AFTER - 1;
                        long += usize::from(
                            ours.run(with, &ground, &start, &goal, few)
                                == Err(PathError::BudgetExceeded),
                        );
                    }
                    (got, want) => assert_eq!(got, want, "{label}"),
                }
            }
        }
    }
    assert!(
        compared > sweep.pick(1000, 2000),
        "{compared} paths compared"
    );
    assert!(turning > sweep.pick(500, 1000), "{turning} paths that turn");
    assert!(
        long > sweep.pick(100, 200),
        "{long} searches long enough for the bounds"
    );
}

quick_and_sweep!(
    /// Landmarks that lie (an index file's are checked for range, not for truth) never make a
    /// search run long: it gives up on them after a few expansions per corner and runs again
    /// without them. With lying landmarks the answers are still paths between the ends, never
    /// shorter than the optimum; a search that gives them up (here made to after 10 expansions)
    /// answers the optimum itself.
    lying_landmarks_cannot_make_a_search_run_long,
    lying_landmarks_cannot_make_a_search_run_long_sweep,
    lying_landmarks_cannot_make_a_search_run_long_on
);

fn lying_landmarks_cannot_make_a_search_run_long_on(sweep: Sweep) {
    use super::landmarks::Row;
    use super::search::{endpoint, Search};
    use crate::world::raycast::Grid;
    let mut rng = crate::rng::SplitMix64::new(47);
    let (mut answered, mut relapsed) = (0, 0);
    for (name, world) in experiment_worlds(sweep).iter().take(3) {
        let mut truthful = TerrainIndex::build(world, &|_, _| {});
        truthful.table = None;
        let mut lying = truthful.clone();
        // Wildly wrong distances: large and unrelated between neighbours.
        let rows: Vec<Row> = (0..lying.corners.len())
            .map(|_| std::array::from_fn(|_| (rng.unit() * 1e5) as f32))
            .collect();
        lying.landmarks = rows.into();
        let ground = Grid::global(world);
        let (mut ours, mut impatient, mut theirs) =
            (Search::default(), Search::default(), Search::default());
        impatient.relapse_after = Some(10);
        let points = random_points(world, &mut rng, 200);
        for pair in points.chunks_exact(2) {
            let (s, t) = (
                [pair[0].world_x(), pair[0].world_z()],
                [pair[1].world_x(), pair[1].world_z()],
            );
            let (Some(start), Some(goal)) =
                (endpoint(&lying, &ground, s), endpoint(&lying, &ground, t))
            else {
                continue;
            };
            let want = theirs.run(&truthful, &ground, &start, &goal, usize::MAX);
            let got = ours.run(&lying, &ground, &start, &goal, usize::MAX);
            let before = impatient.relapses;
            let relapse = impatient.run(&lying, &ground, &start, &goal, usize::MAX);
            let label = format!("{name}: {s:?} → {t:?}");
            match (got, want) {
                (Ok(a), Ok(b)) => {
                    assert!(a >= b - 1e-9 * b.max(1.0), "{label}: {a} below {b}");
                    if impatient.relapses > before {
                        relapsed += 1;
                        let c = relapse.unwrap();
                        assert!((c - b).abs() <= 1e-9 * b.max(1.0), "{label}: {c} vs {b}");
                    }
                    answered += 1;
                }
                (got, want) => {
                    assert_eq!(got, want, "{label}");
                    assert_eq!(relapse, want, "{label}");
                }
            }
        }
    }
    assert!(answered > 100, "{answered} answers");
    assert!(relapsed > 50, "{relapsed} searches gave the landmarks up");
}

/// The corner table's cells keep every record that can hold a point of them: on every test
/// world small enough for a table, an end (anywhere, on a tile side, on a grid vertex) links
/// to the same corners through its cell's records as through all of its rectangles' records.
/// A generated world of open ground (3×3 regions), where an end sees hundreds of corners.
fn open_world() -> World {
    use crate::worldgen::{generate, GenOptions, Landscape};
    let generated = generate(&GenOptions {
        seed: 1,
        width: 3,
        height: 3,
        origin: crate::worldgen::DEFAULT_ORIGIN,
        landscape: Landscape::Open,
    })
    .unwrap();
    World::from_navmeshes(generated.regions.iter().map(|(r, m)| (*r, m)))
}

quick_and_sweep!(
    /// The start's links in parts, those of each ring of [`super::search::RINGS`] that the
    /// search takes one after the other as it needs them and the others after them, are the
    /// start's links, each once, by the records and by the record cells: on open ground, on the
    /// generated and Moving AI maps and with thin walls, from random starts towards random goals.
    the_rings_links_are_the_links_each_once,
    the_rings_links_are_the_links_each_once_sweep,
    the_rings_links_are_the_links_each_once_on
);

fn the_rings_links_are_the_links_each_once_on(sweep: Sweep) {
    use super::search::{endpoint, links, links_of, Near, Which, RINGS};
    use crate::world::raycast::Grid;
    let mut worlds = experiment_worlds_with_thin_walls(sweep, &[(29, 3), (13, 2)]);
    worlds.push(("open".to_string(), open_world()));
    let mut rng = crate::rng::SplitMix64::new(61);
    let (mut ends, mut with_cells) = (0, 0);
    // Links per part: each ring's, and those beyond the last.
    let mut per_part = [0usize; RINGS.len() + 1];
    for (name, world) in &worlds {
        let index = &TerrainIndex::build(world, &|_, _| {});
        if !index.has_seen_by() {
            continue;
        }
        let ground = Grid::global(world);
        let mut marks = vec![0u32; index.corners.len()];
        let (mut all, mut parts) = (Vec::new(), Vec::new());
        let points = random_points(world, &mut rng, 400);
        for (k, pair) in points.chunks_exact(2).enumerate() {
            let (s, t) = (
                [pair[0].world_x(), pair[0].world_z()],
                [pair[1].world_x(), pair[1].world_z()],
            );
            let Some(end) = endpoint(index, &ground, s) else {
                continue;
            };
            let rings = RINGS.map(|(stretch, extra)| Near::new(s, t, stretch, extra));
            let cells = index.table.as_ref().and_then(|table| table.cells.as_ref());
            // By the rectangles' records, and by their cells where the index keeps them.
            for (c, cells) in [None, cells].into_iter().enumerate() {
                if c == 1 && cells.is_none() {
                    continue;
                }
                let generation = 4 * k as u32 + 2 * c as u32 + 1;
                all.clear();
                parts.clear();
                links(index, cells, &end, generation, &mut marks, &mut all);
                // As the search makes them: the same marks for both parts.
                let mut part = |which: Which<'_>, parts: &mut Vec<_>| {
                    links_of(index, cells, &end, generation + 1, &mut marks, parts, which);
                };
                for (k, count) in per_part.iter_mut().enumerate() {
                    let (inner, outer) = (k.checked_sub(1).map(|k| &rings[k]), rings.get(k));
                    let before = parts.len();
                    part(Which { inner, outer }, &mut parts);
                    *count += parts.len() - before;
                }
                let corners = |v: &[super::search::Link]| {
                    let mut c: Vec<u32> = v.iter().map(|l| l.corner).collect();
                    c.sort_unstable();
                    c
                };
                let (together, every) = (corners(&parts), corners(&all));
                assert!(
                    together.windows(2).all(|w| w[0] != w[1]),
                    "{name}: {s:?}: a corner twice"
                );
                assert_eq!(together, every, "{name}: {s:?} towards {t:?}");
                ends += 1;
                with_cells += c;
            }
        }
    }
    eprintln!("{ends} ends ({with_cells} by cells): links per part {per_part:?}");
    assert!(
        ends > sweep.pick(1000, 1000) && with_cells > sweep.pick(300, 500),
        "{ends} ends, {with_cells} by cells"
    );
    // Every part links corners: none of them is left untested.
    assert!(per_part.iter().all(|&n| n > 100), "{per_part:?}");
}

quick_and_sweep!(
    /// A corner's records of a rectangle found through the blocks' first corners are those a
    /// plain filter of the rectangle's records finds, for the corners with records there, their
    /// neighbours in number and every seventh corner of the index (most with no record there),
    /// on open ground and on the generated and Moving AI maps.
    seen_of_finds_a_corners_records_of_a_rectangle,
    seen_of_finds_a_corners_records_of_a_rectangle_sweep,
    seen_of_finds_a_corners_records_of_a_rectangle_on
);

fn seen_of_finds_a_corners_records_of_a_rectangle_on(sweep: Sweep) {
    let mut worlds = experiment_worlds_with_thin_walls(sweep, &[(29, 3)]);
    worlds.push(("open".to_string(), open_world()));
    let mut found = 0;
    for (name, world) in &worlds {
        let index = &TerrainIndex::build(world, &|_, _| {});
        if !index.has_seen_by() {
            continue;
        }
        for rect in 0..index.rects.len() as u32 {
            let records = index.seen_by(rect);
            // Every corner on open ground is too many for a debug build: those with records
            // here, their neighbours in number, and a spread of the others.
            let mut corners: Vec<u32> = records
                .iter()
                .flat_map(|k| [k.corner.saturating_sub(1), k.corner, k.corner + 1])
                .chain((0..index.corners.len() as u32 + 1).step_by(7))
                .collect();
            corners.sort_unstable();
            corners.dedup();
            for c in corners {
                let want: Vec<_> = records.iter().filter(|k| k.corner == c).collect();
                let got: Vec<_> = index.seen_of(rect, c).iter().collect();
                assert_eq!(got, want, "{name}: rectangle {rect}, corner {c}");
                found += got.len();
            }
        }
    }
    assert!(found > 10_000, "{found} records found");
}

quick_and_sweep!(
    /// The runs of a corner's edges a bend may leave by hold every edge the bend test finds
    /// taut, from points all round each corner (on the lines through it too), and leave out
    /// most of the others: on the generated and Moving AI maps, with thin walls, on open ground.
    turning_edges_hold_every_taut_edge,
    turning_edges_hold_every_taut_edge_sweep,
    turning_edges_hold_every_taut_edge_on
);

fn turning_edges_hold_every_taut_edge_on(sweep: Sweep) {
    use super::search::Bend;
    let mut worlds = experiment_worlds_with_thin_walls(sweep, &[(29, 3)]);
    worlds.push(("open".to_string(), open_world()));
    let mut rng = crate::rng::SplitMix64::new(71);
    let (mut taut, mut in_runs, mut all) = (0usize, 0usize, 0usize);
    for (name, world) in &worlds {
        let index = &TerrainIndex::build(world, &|_, _| {});
        for c in 0..index.corners.len() as u32 {
            let corner = &index.corners[c as usize];
            let [x, z] = corner.point();
            for k in 0..12 {
                // Along the axes and diagonals through the corner, then anywhere near it.
                let (dx, dz) = match k {
                    0..8 => {
                        let a = f64::from(k) * std::f64::consts::FRAC_PI_4;
                        (a.cos().round() * 35.0, a.sin().round() * 35.0)
                    }
                    _ => (
                        f64::from(rng.range(0, 4001)) / 10.0 - 200.0,
                        f64::from(rng.range(0, 4001)) / 10.0 - 200.0,
                    ),
                };
                let bend = Bend::new([x + dx, z + dz], corner);
                let want: Vec<u32> = index
                    .edges_of(c)
                    .iter()
                    .filter(|e| bend.taut(e.point()))
                    .map(|e| e.to)
                    .collect();
                let runs = index.turning_edges(c, bend.left, bend.right);
                let mut got: Vec<u32> = runs
                    .into_iter()
                    .flatten()
                    .filter(|e| bend.taut(e.point()))
                    .map(|e| e.to)
                    .collect();
                got.sort_unstable();
                let mut want = want;
                want.sort_unstable();
                assert_eq!(got, want, "{name}: corner {c} from ({dx}, {dz})");
                taut += want.len();
                in_runs += runs.iter().map(|r| r.len()).sum::<usize>();
                all += index.edges_of(c).len();
            }
        }
    }
    eprintln!("{taut} taut edges, {in_runs} in the runs, {all} in all");
    assert!(taut > 10_000, "{taut} taut edges");
    assert!(2 * in_runs < all, "{in_runs} of {all} edges in the runs");
}

quick_and_sweep!(
    record_cells_link_what_all_the_records_link,
    record_cells_link_what_all_the_records_link_sweep,
    record_cells_link_what_all_the_records_link_on
);

fn record_cells_link_what_all_the_records_link_on(sweep: Sweep) {
    use super::search::{endpoint, links};
    use crate::world::raycast::Grid;
    let worlds = experiment_worlds_with_thin_walls(sweep, &[(29, 3), (13, 2), (41, 4)]);
    let mut rng = crate::rng::SplitMix64::new(53);
    let (mut ends, mut linked, mut with_cells) = (0, 0, 0);
    for (name, world) in &worlds {
        let index = &TerrainIndex::build(world, &|_, _| {});
        let Some(cells) = index.table.as_ref().and_then(|t| t.cells.as_ref()) else {
            continue;
        };
        with_cells += 1;
        let ground = Grid::global(world);
        let mut marks = vec![0u32; index.corners.len()];
        let (mut all, mut some) = (Vec::new(), Vec::new());
        for (k, p) in random_points(world, &mut rng, 400).into_iter().enumerate() {
            let Some(end) = endpoint(index, &ground, [p.world_x(), p.world_z()]) else {
                continue;
            };
            let generation = 2 * k as u32 + 1;
            all.clear();
            some.clear();
            links(index, None, &end, generation, &mut marks, &mut all);
            links(
                index,
                Some(cells),
                &end,
                generation + 1,
                &mut marks,
                &mut some,
            );
            let corners = |v: &Vec<super::search::Link>| {
                let mut c: Vec<u32> = v.iter().map(|l| l.corner).collect();
                c.sort_unstable();
                c
            };
            assert_eq!(corners(&some), corners(&all), "{name}: {p}");
            ends += 1;
            linked += all.len();
        }
    }
    assert!(
        with_cells >= sweep.pick(2, 3),
        "{with_cells} worlds with cells"
    );
    assert!(
        ends > sweep.pick(500, 1000) && linked > sweep.pick(5_000, 10_000),
        "{ends} ends, {linked} links"
    );
}

/// Options that cannot be honoured together, or values out of range, are refused when the
/// options are made, whichever comes first, and each error names the option at fault.
#[test]
fn path_options_refuse_what_cannot_be_honoured() {
    use super::{PathOptions, PathOptionsError as E};
    let walkable = PathOptions::new();
    assert_eq!(walkable.with_radius(-1.0), Err(E::Radius(-1.0)));
    assert_eq!(walkable.with_radius(1e-9), Err(E::Radius(1e-9)));
    assert_eq!(walkable.with_radius(960.5), Err(E::Radius(960.5)));
    assert!(walkable.with_radius(f64::NAN).is_err());
    assert_eq!(walkable.with_radius(960.0).map(|o| o.radius()), Ok(960.0));
    assert_eq!(walkable.with_radius(0.0).map(|o| o.radius()), Ok(0.0));
    for c in [0.0, -0.5, 10.0, f64::INFINITY] {
        assert_eq!(walkable.with_clearance(c), Err(E::Clearance(c)), "{c}");
    }
    assert_eq!(
        walkable.with_clearance(9.99).map(|o| o.clearance()),
        Ok(9.99)
    );
    assert_eq!(
        PathOptions::exact().with_clearance(0.5),
        Err(E::ClearanceOfExact)
    );
    assert_eq!(
        PathOptions::exact().with_clearance(-3.0),
        Err(E::ClearanceOfExact)
    );
    // A radius and objects, in either order.
    let objects = walkable.with_objects(true).unwrap();
    assert_eq!(objects.with_radius(2.0), Err(E::RadiusWithObjects));
    let round = walkable.with_radius(2.0).unwrap();
    assert_eq!(round.with_objects(true), Err(E::RadiusWithObjects));
    assert_eq!(round.with_objects(false), Ok(round));
    assert_eq!(objects.with_radius(0.0), Ok(objects));
    assert!(
        matches!(walkable.with_start(Surface::Near(f32::NAN)), Err(E::StartHeight(y)) if y.is_nan())
    );
    assert!(walkable.with_start(Surface::Near(f32::INFINITY)).is_err());
    assert_eq!(
        walkable.with_start(Surface::Near(12.5)).map(|o| o.start()),
        Ok(Surface::Near(12.5))
    );
    assert_eq!(
        walkable.with_start(Surface::Terrain).map(|o| o.start()),
        Ok(Surface::Terrain)
    );
    let options = [
        E::Radius(1.0),
        E::Clearance(1.0),
        E::ClearanceOfExact,
        E::RadiusWithObjects,
        E::StartHeight(1.0),
    ]
    .map(|e| (e.option(), e.to_string()));
    for (option, message) in options {
        assert!(message.starts_with(&format!("{option}: ")), "{message}");
    }
}
