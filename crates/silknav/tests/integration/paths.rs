//! Shortest paths against the any-angle benchmark: every query of the derived any-angle
//! scenario files, on the Moving AI maps (the committed `tests/data/movingai`) imported as
//! worlds.

use silknav::Surface;
use silknav::{PathError, PathIndex, PathOptions, PathScratch, Position, World};
use silknav_testkit::movingai;

const ORIGIN: (u8, u8) = (10, 20);

fn point(x: u32, y: u32) -> Position {
    let base_x = f64::from(ORIGIN.0) * 1920.0;
    let base_z = f64::from(ORIGIN.1) * 1920.0;
    Position::from_world(base_x + f64::from(x) * 20.0, base_z + f64::from(y) * 20.0).unwrap()
}

fn check_map(name: &str) {
    let grid = movingai::map(name);
    let meshes = grid.to_world(ORIGIN).unwrap();
    let world = World::from_navmeshes(meshes.iter().map(|(r, m)| (*r, m)));
    let paths = PathIndex::build(&world);
    let stats = paths.stats();
    let scenarios = movingai::anyangle(name);
    let octile = movingai::octile(name);
    assert_eq!(scenarios.len(), octile.len());
    let mut scratch = PathScratch::new();
    let mut failures = Vec::new();
    for (s, o) in scenarios.iter().zip(&octile) {
        assert_eq!((s.start, s.goal), (o.start, o.goal));
        let (a, b) = (point(s.start.0, s.start.1), point(s.goal.0, s.goal.1));
        let got = paths.find_path(&world, a, b, &PathOptions::exact(), &mut scratch);
        match got {
            Ok(path) => {
                let want = s.length * 20.0;
                if s.length < 0.0 || (path.length - want).abs() > 1e-3 * want.max(1.0) {
                    failures.push(format!("{s:?}: got {} want {want}", path.length));
                }
                if o.length > 0.0 {
                    assert!(path.length <= o.length * 20.0 * (1.0 + 1e-6), "{s:?}");
                }
                assert_eq!(path.waypoints.first(), Some(&a));
                assert_eq!(path.waypoints.last(), Some(&b));
            }
            Err(PathError::Unreachable) if s.length < 0.0 => {}
            Err(e) => failures.push(format!("{s:?}: {e}")),
        }
    }
    eprintln!(
        "{name}: {} queries, {} failures; index: {} rects, {} corners, {} edges, {:.1} MB, {:.3} s",
        scenarios.len(),
        failures.len(),
        stats.rects,
        stats.corners,
        stats.edges,
        stats.heap_bytes as f64 / 1e6,
        stats.build_time.as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{name}: {} failures: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
}

#[test]
fn arena_any_angle_lengths() {
    check_map("arena.map");
}

#[test]
fn rmtst01_any_angle_lengths() {
    check_map("rmtst01.map");
}

#[test]
fn brc202d_any_angle_lengths() {
    check_map("brc202d.map");
}

#[test]
fn maze512_any_angle_lengths() {
    check_map("maze512-32-9.map");
}

#[test]
fn random512_any_angle_lengths() {
    check_map("random512-25-0.map");
}

// ---------------------------------------------------------------------------------------------
// Generated and hand-made worlds.

use jmxv::nvm::{NavMesh, EDGE_BLOCKED};
use jmxv::RegionId;
use silknav::worldgen::{generate, GenOptions, Landscape};
use silknav_testkit::rng::SplitMix64;

/// A region with boxes, a pocket, corners that meet diagonally, and walls between walkable
/// cells (blocked edges inside the open ground), which the Moving AI maps never have.
fn hand_made(region: RegionId) -> NavMesh {
    let mut mesh = silknav_testkit::region_from_mask(region, |x, z| {
        (10..16).contains(&x) && (10..30).contains(&z)
            || (40..44).contains(&x) && (50..54).contains(&z)
            || (x, z) == (60, 60)
            || (x, z) == (61, 61)
            || (x, z) == (62, 60)
            || (70..80).contains(&x) && (z == 20 || z == 30) && x != 75
            || (x == 70 || x == 80) && (20..=30).contains(&z)
            || (x + 2 * z) % 37 == 0 && x > 20 && z > 70
    });
    // Turn every fifth passable internal edge between two cells into a wall.
    let mut k = 0;
    for e in &mut mesh.internal_edges {
        if e.flag & EDGE_BLOCKED == 0 && e.cell[1] != u16::MAX {
            if k % 5 == 0 {
                e.flag |= EDGE_BLOCKED;
            }
            k += 1;
        }
    }
    mesh
}

/// Whether the tile at world tile coordinates is walkable.
fn open_tile(world: &World, tx: i64, tz: i64) -> bool {
    Position::from_world(tx as f64 * 20.0 + 10.0, tz as f64 * 20.0 + 10.0)
        .is_some_and(|p| world.cell_at(p, Surface::Highest).is_some())
}

fn at(x: f64, z: f64) -> Position {
    Position::from_world(x, z).unwrap()
}

/// Grid vertices on some wall (a side between walkable and blocked ground, or a side that
/// sight cannot cross between two walkable tiles): a superset of the places a shortest path
/// can turn. Found with line of sight and cell lookup only.
fn wall_vertices(world: &World, tiles: ([i64; 2], [i64; 2])) -> Vec<[f64; 2]> {
    let ([x0, z0], [x1, z1]) = tiles;
    let mut set = std::collections::BTreeSet::new();
    for tz in z0 - 1..=z1 {
        for tx in x0 - 1..=x1 {
            let here = open_tile(world, tx, tz);
            for (dx, dz) in [(1, 0), (0, 1)] {
                let there = open_tile(world, tx + dx, tz + dz);
                let wall = if here && there {
                    let c = |x: i64, z: i64| at(x as f64 * 20.0 + 10.0, z as f64 * 20.0 + 10.0);
                    !world
                        .line_of_sight(c(tx, tz), c(tx + dx, tz + dz), Surface::Highest)
                        .unwrap()
                } else {
                    here != there
                };
                if wall {
                    // The side's two ends.
                    let (a, b) = if dx == 1 {
                        ((tx + 1, tz), (tx + 1, tz + 1))
                    } else {
                        ((tx, tz + 1), (tx + 1, tz + 1))
                    };
                    set.insert(a);
                    set.insert(b);
                }
            }
        }
    }
    set.into_iter()
        .map(|(x, z)| [x as f64 * 20.0, z as f64 * 20.0])
        .collect()
}

/// The direction class of b seen from a: 0 = +x, 1 = +x+z, … 7 = +x−z (45° apart).
fn class(a: [f64; 2], b: [f64; 2]) -> usize {
    let sx = (b[0] > a[0]) as i32 - (b[0] < a[0]) as i32;
    let sz = (b[1] > a[1]) as i32 - (b[1] < a[1]) as i32;
    [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ]
    .iter()
    .position(|&d| d == (sx, sz))
    .unwrap()
}

/// The free sectors around a grid vertex: for each direction class, the set (bit mask) of
/// sectors a leg in that direction lies in. Walls (sides that sight cannot cross, or that
/// border blocked ground) and blocked quadrants separate sectors; a leg along a wall touches
/// the sectors on both sides. A path may turn at a vertex only within one sector.
fn sectors(world: &World, v: [f64; 2]) -> [u8; 8] {
    let (gx, gz) = ((v[0] / 20.0) as i64, (v[1] / 20.0) as i64);
    // Quadrant k (direction class 2k + 1) and its tile.
    let quadrant = [(0, 0), (-1, 0), (-1, -1), (0, -1)];
    let open: Vec<bool> = quadrant
        .iter()
        .map(|&(dx, dz)| open_tile(world, gx + dx, gz + dz))
        .collect();
    let centre = |k: usize| {
        let (dx, dz) = quadrant[k];
        at(
            (gx + dx) as f64 * 20.0 + 10.0,
            (gz + dz) as f64 * 20.0 + 10.0,
        )
    };
    // Ray k (direction class 2k) lies between quadrants k − 1 and k.
    let wall: Vec<bool> = (0..4)
        .map(|k| {
            let (a, b) = ((k + 3) % 4, k);
            if open[a] && open[b] {
                world.line_of_sight(centre(a), centre(b), Surface::Highest) != Ok(true)
            } else {
                true
            }
        })
        .collect();
    // Sector of each open quadrant: quadrants k − 1 and k are joined when ray k is no wall.
    let mut sector = [u8::MAX; 4];
    let mut next = 0;
    for start in 0..4 {
        if !open[start] || sector[start] != u8::MAX {
            continue;
        }
        sector[start] = next;
        // Spread both ways round while the rays between are open.
        let mut k = start;
        while !wall[(k + 1) % 4] && open[(k + 1) % 4] && sector[(k + 1) % 4] == u8::MAX {
            k = (k + 1) % 4;
            sector[k] = next;
        }
        let mut k = start;
        while !wall[k] && open[(k + 3) % 4] && sector[(k + 3) % 4] == u8::MAX {
            k = (k + 3) % 4;
            sector[k] = next;
        }
        next += 1;
    }
    let bit = |q: usize| {
        if sector[q] == u8::MAX {
            0
        } else {
            1u8 << sector[q]
        }
    };
    let mut out = [0u8; 8];
    for k in 0..4 {
        out[2 * k + 1] = bit(k);
        out[2 * k] = bit((k + 3) % 4) | bit(k);
    }
    out
}

/// Dijkstra over the visibility graph of `vertices` plus start and goal, with the world's
/// line of sight as the only geometric test, turning at a vertex only within one of its free
/// sectors (so never through a wall that ends or bends there).
struct Oracle<'w> {
    world: &'w World,
    vertices: Vec<[f64; 2]>,
    sectors: Vec<[u8; 8]>,
    sees: Vec<Vec<(usize, f64)>>,
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

impl<'w> Oracle<'w> {
    fn new(world: &'w World, vertices: Vec<[f64; 2]>) -> Oracle<'w> {
        let key = |v: [f64; 2]| ((v[0] / 20.0) as i64, (v[1] / 20.0) as i64);
        let set: std::collections::HashSet<(i64, i64)> = vertices.iter().map(|&v| key(v)).collect();
        // A leg along a grid line stops at every vertex on a wall, so that the side of the
        // wall it runs on is checked there.
        let passes_vertex = |a: [f64; 2], b: [f64; 2]| {
            let ((ax, az), (bx, bz)) = (key(a), key(b));
            if ax != bx && az != bz {
                return false;
            }
            let n = (bx - ax).abs().max((bz - az).abs());
            (1..n)
                .any(|k| set.contains(&(ax + (bx - ax).signum() * k, az + (bz - az).signum() * k)))
        };
        let mut sees = vec![Vec::new(); vertices.len()];
        for i in 0..vertices.len() {
            for j in i + 1..vertices.len() {
                let (a, b) = (vertices[i], vertices[j]);
                if !passes_vertex(a, b)
                    && world.line_of_sight(at(a[0], a[1]), at(b[0], b[1]), Surface::Highest)
                        == Ok(true)
                {
                    sees[i].push((j, dist(a, b)));
                    sees[j].push((i, dist(a, b)));
                }
            }
        }
        let sectors = vertices.iter().map(|&v| sectors(world, v)).collect();
        Oracle {
            world,
            vertices,
            sectors,
            sees,
        }
    }

    /// Whether the segment runs along a grid line through a vertex of the oracle's strictly
    /// between its ends (then a path along it stops there, so that its side is checked).
    fn passes(&self, a: [f64; 2], b: [f64; 2]) -> bool {
        let between = |u: f64, lo: f64, hi: f64| lo.min(hi) < u && u < lo.max(hi);
        self.vertices.iter().any(|v| {
            (a[0] == b[0] && v[0] == a[0] && between(v[1], a[1], b[1]))
                || (a[1] == b[1] && v[1] == a[1] && between(v[0], a[0], b[0]))
        })
    }

    /// The sides (left, right of the direction to `q`) a point `p` on a tile side may leave
    /// along that side's line towards `q` on: those with a walkable tile. Both elsewhere.
    fn sides_at(&self, p: [f64; 2], q: [f64; 2]) -> Option<(bool, bool)> {
        let on = |v: f64| (v / 20.0).fract() == 0.0;
        let tile = |v: f64| (v / 20.0).floor() as i64;
        let open = |x: i64, z: i64| open_tile(self.world, x, z);
        if p[0] == q[0] && on(p[0]) && !on(p[1]) {
            let (x, z) = ((p[0] / 20.0) as i64, tile(p[1]));
            let (west, east) = (open(x - 1, z), open(x, z));
            Some(if q[1] > p[1] {
                (west, east)
            } else {
                (east, west)
            })
        } else if p[1] == q[1] && on(p[1]) && !on(p[0]) {
            let (x, z) = (tile(p[0]), (p[1] / 20.0) as i64);
            let (south, north) = (open(x, z - 1), open(x, z));
            Some(if q[0] > p[0] {
                (north, south)
            } else {
                (south, north)
            })
        } else {
            None
        }
    }

    fn shortest(&self, s: Position, t: Position) -> Option<f64> {
        let p = |q: Position| [q.world_x(), q.world_z()];
        let (sp, tp) = (p(s), p(t));
        if self.world.line_of_sight(s, t, Surface::Highest) == Ok(true) {
            return Some(dist(sp, tp));
        }
        // States: (vertex, sector arrived in), 8 per vertex at most.
        let n = self.vertices.len();
        let state = |v: usize, sector: u32| v * 8 + sector as usize;
        let to_goal: Vec<bool> = self
            .vertices
            .iter()
            .map(|v| {
                self.world
                    .line_of_sight(at(v[0], v[1]), t, Surface::Highest)
                    == Ok(true)
            })
            .collect();
        let mut best = vec![f64::INFINITY; n * 8];
        let mut heap = std::collections::BinaryHeap::new();
        // Arriving at v from `from` (a vertex state, or the start): along a wall the path
        // stays on the side it ran on.
        let arrive = |heap: &mut std::collections::BinaryHeap<_>,
                      best: &mut Vec<f64>,
                      v: usize,
                      from: [f64; 2],
                      d: f64,
                      sides: Option<(bool, bool)>| {
            if from == self.vertices[v] {
                // The start itself: it may leave into any sector.
                let all = self.sectors[v].iter().fold(0, |m, s| m | s);
                for k in 0..8 {
                    if all & (1 << k) != 0 && d < best[state(v, k)] {
                        best[state(v, k)] = d;
                        heap.push((std::cmp::Reverse(d.to_bits()), state(v, k)));
                    }
                }
                return;
            }
            let back = class(self.vertices[v], from);
            let mut mask = self.sectors[v][back];
            if let (2, Some((left, right))) = (mask.count_ones(), sides) {
                let mut keep = 0;
                if left {
                    keep |= self.sectors[v][(back + 7) % 8];
                }
                if right {
                    keep |= self.sectors[v][(back + 1) % 8];
                }
                mask &= keep;
            }
            while mask != 0 {
                let k = mask.trailing_zeros();
                mask &= mask - 1;
                if d < best[state(v, k)] {
                    best[state(v, k)] = d;
                    heap.push((std::cmp::Reverse(d.to_bits()), state(v, k)));
                }
            }
        };
        for (i, v) in self.vertices.iter().enumerate() {
            if !self.passes(sp, *v)
                && self
                    .world
                    .line_of_sight(s, at(v[0], v[1]), Surface::Highest)
                    == Ok(true)
            {
                let sides = self.sides_at(sp, *v);
                arrive(&mut heap, &mut best, i, sp, dist(sp, *v), sides);
            }
        }
        let mut answer = f64::INFINITY;
        while let Some((std::cmp::Reverse(d), st)) = heap.pop() {
            let d = f64::from_bits(d);
            let (i, k) = (st / 8, st % 8);
            if d > best[st] || d >= answer {
                continue;
            }
            let here = self.vertices[i];
            let within = |q: [f64; 2]| q == here || self.sectors[i][class(here, q)] & (1 << k) != 0;
            // Along a wall to the goal, on the side the path ran on, which must be open there.
            let goal_side = || {
                let forward = class(here, tp);
                if self.sectors[i][forward].count_ones() != 2 {
                    return true;
                }
                let left = self.sectors[i][(forward + 1) % 8] & (1 << k) != 0;
                let Some((l, r)) = self.sides_at(tp, here) else {
                    return true;
                };
                // Seen from the goal towards `here`, left and right swap.
                if left {
                    r
                } else {
                    l
                }
            };
            if to_goal[i] && within(tp) && !self.passes(here, tp) && goal_side() {
                answer = answer.min(d + dist(here, tp));
            }
            for &(j, w) in &self.sees[i] {
                if within(self.vertices[j]) {
                    let forward = class(here, self.vertices[j]);
                    let sides = (self.sectors[i][forward].count_ones() == 2).then(|| {
                        let left = self.sectors[i][(forward + 1) % 8] & (1 << k) != 0;
                        (left, !left)
                    });
                    arrive(&mut heap, &mut best, j, here, d + w, sides);
                }
            }
        }
        answer.is_finite().then_some(answer)
    }
}

/// A random walkable position in the tile box: anywhere, on a tile corner or on a tile side.
fn random_walkable(world: &World, rng: &mut SplitMix64, tiles: ([i64; 2], [i64; 2])) -> Position {
    let ([x0, z0], [x1, z1]) = tiles;
    loop {
        let x = x0 as f64 * 20.0 + rng.unit() * (x1 - x0) as f64 * 20.0;
        let z = z0 as f64 * 20.0 + rng.unit() * (z1 - z0) as f64 * 20.0;
        let (x, z) = match rng.range(0, 4) {
            0 => ((x / 20.0).round() * 20.0, (z / 20.0).round() * 20.0),
            1 => ((x / 20.0).round() * 20.0, z),
            _ => (x, z),
        };
        let p = at(x, z);
        if world.cell_at(p, Surface::Highest).is_some() {
            return p;
        }
    }
}

/// The checks every path must pass, whatever the world.
fn validate(world: &World, from: Position, to: Position, path: &silknav::WorldPath) {
    assert_eq!(path.waypoints.first(), Some(&from));
    assert_eq!(path.waypoints.last(), Some(&to));
    let mut sum = 0.0;
    for pair in path.waypoints.windows(2) {
        assert_eq!(
            world.line_of_sight(pair[0], pair[1], Surface::Highest),
            Ok(true),
            "{from:?} → {to:?}: leg {pair:?} is blocked"
        );
        sum += dist(
            [pair[0].world_x(), pair[0].world_z()],
            [pair[1].world_x(), pair[1].world_z()],
        );
    }
    assert!(
        (sum - path.length).abs() <= 1e-9 * sum.max(1.0),
        "{sum} vs {}",
        path.length
    );
    let straight = dist(
        [from.world_x(), from.world_z()],
        [to.world_x(), to.world_z()],
    );
    assert!(path.length >= straight * (1.0 - 1e-12));
}

#[test]
fn paths_equal_the_visibility_graph_oracle_on_small_worlds() {
    let region = RegionId::new(40, 30);
    let worlds = [
        (
            "hand-made",
            World::from_navmeshes([(region, &hand_made(region))]),
        ),
        ("realistic", {
            let mesh = silknav_testkit::realistic_region(3);
            World::from_navmeshes([(silknav_testkit::TEST_REGION, &mesh)])
        }),
        ("generated", {
            let generated = generate(&GenOptions {
                seed: 4,
                width: 1,
                height: 1,
                origin: (40, 30),
                landscape: Landscape::Rugged,
            })
            .unwrap();
            World::from_navmeshes(generated.regions.iter().map(|(r, m)| (*r, m)))
        }),
    ];
    for (name, world) in &worlds {
        let paths = PathIndex::build(world);
        let r = world.regions().next().unwrap();
        let (bx, bz) = (i64::from(r.x()) * 96, i64::from(r.z()) * 96);
        let tiles = ([bx, bz], [bx + 96, bz + 96]);
        let oracle = Oracle::new(world, wall_vertices(world, tiles));
        let mut rng = SplitMix64::new(5);
        let mut scratch = PathScratch::new();
        let (mut found, mut none) = (0, 0);
        for _ in 0..150 {
            let (s, t) = (
                random_walkable(world, &mut rng, tiles),
                random_walkable(world, &mut rng, tiles),
            );
            let want = oracle.shortest(s, t);
            match (
                paths.find_path(world, s, t, &PathOptions::exact(), &mut scratch),
                want,
            ) {
                (Ok(path), Some(want)) => {
                    validate(world, s, t, &path);
                    assert!(
                        (path.length - want).abs() <= 1e-9 * want.max(1.0),
                        "{name}: {s:?} → {t:?}: {} vs oracle {want}",
                        path.length
                    );
                    found += 1;
                }
                (Err(PathError::Unreachable), None) => none += 1,
                (got, want) => panic!("{name}: {s:?} → {t:?}: {got:?} vs oracle {want:?}"),
            }
        }
        eprintln!("{name}: {found} paths equal the oracle's, {none} unreachable in both, {} oracle vertices", oracle.vertices.len());
        assert!(found > 100, "{name}: too few paths ({found})");
    }
}

/// Small windows of open ground with random blocked tiles and many random thin walls (blocked
/// edges between two walkable tiles): thin walls that end, bend, meet blocked tiles and run
/// along their sides, where a leg along a grid line must keep to one side of the wall. The
/// oracle checks that side at every wall vertex on the line, and at a start or goal on one.
#[test]
fn paths_equal_the_visibility_graph_oracle_with_thin_walls() {
    let region = RegionId::new(40, 30);
    let (bx, bz) = (40 * 96, 30 * 96);
    let mut rng = SplitMix64::new(23);
    let mut scratch = PathScratch::new();
    let (mut found, mut none) = (0, 0);
    for world_no in 0..200 {
        let (w0, n) = (40usize, rng.range(6, 13) as usize);
        let density = rng.unit() * 0.25;
        let blocked: Vec<bool> = (0..n * n).map(|_| rng.chance(density)).collect();
        let mut mesh = silknav_testkit::region_from_mask(region, |x, z| {
            let inside = (w0..w0 + n).contains(&x) && (w0..w0 + n).contains(&z);
            !inside || blocked[(z - w0) * n + (x - w0)]
        });
        let walls = 0.1 + rng.unit() * 0.4;
        for e in &mut mesh.internal_edges {
            if e.flag & EDGE_BLOCKED == 0 && e.cell[1] != u16::MAX && rng.chance(walls) {
                e.flag |= EDGE_BLOCKED;
            }
        }
        let world = World::from_navmeshes([(region, &mesh)]);
        let paths = PathIndex::build(&world);
        let (x0, x1) = (bx + w0 as i64, bx + (w0 + n) as i64);
        let (z0, z1) = (bz + w0 as i64, bz + (w0 + n) as i64);
        let tiles = ([x0, z0], [x1, z1]);
        let oracle = Oracle::new(&world, wall_vertices(&world, tiles));
        for _ in 0..25 {
            let (s, t) = (
                random_walkable(&world, &mut rng, tiles),
                random_walkable(&world, &mut rng, tiles),
            );
            match (
                paths.find_path(&world, s, t, &PathOptions::exact(), &mut scratch),
                oracle.shortest(s, t),
            ) {
                (Ok(path), Some(want)) => {
                    validate(&world, s, t, &path);
                    assert!(
                        (path.length - want).abs() <= 1e-9 * want.max(1.0),
                        "world {world_no}: {s:?} → {t:?}: {} vs oracle {want}",
                        path.length
                    );
                    found += 1;
                }
                (Err(PathError::Unreachable), None) => none += 1,
                (got, want) => {
                    panic!("world {world_no}: {s:?} → {t:?}: {got:?} vs oracle {want:?}")
                }
            }
        }
    }
    eprintln!("{found} paths equal the oracle's, {none} unreachable in both");
    assert!(
        found > 700 && none > 50,
        "{found} paths, {none} unreachable"
    );
}

/// Connected components of the walkable tiles (4-neighbours whose shared side sight can cross),
/// found with cell lookup and line of sight only.
fn tile_components(world: &World, tiles: ([i64; 2], [i64; 2])) -> Vec<u32> {
    let ([x0, z0], [x1, z1]) = tiles;
    let (w, h) = ((x1 - x0) as usize, (z1 - z0) as usize);
    let centre = |x: i64, z: i64| at(x as f64 * 20.0 + 10.0, z as f64 * 20.0 + 10.0);
    let mut label = vec![u32::MAX; w * h];
    let mut next = 0;
    for start in 0..w * h {
        let (sx, sz) = (x0 + (start % w) as i64, z0 + (start / w) as i64);
        if label[start] != u32::MAX || !open_tile(world, sx, sz) {
            continue;
        }
        label[start] = next;
        let mut stack = vec![(sx, sz)];
        while let Some((x, z)) = stack.pop() {
            for (dx, dz) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (nx, nz) = (x + dx, z + dz);
                if nx < x0 || nz < z0 || nx >= x1 || nz >= z1 {
                    continue;
                }
                let k = (nz - z0) as usize * w + (nx - x0) as usize;
                if label[k] == u32::MAX
                    && open_tile(world, nx, nz)
                    && world.line_of_sight(centre(x, z), centre(nx, nz), Surface::Highest)
                        == Ok(true)
                {
                    label[k] = next;
                    stack.push((nx, nz));
                }
            }
        }
        next += 1;
    }
    label
}

#[test]
fn paths_validate_on_generated_worlds() {
    for seed in [2, 3, 5] {
        let generated = generate(&GenOptions {
            seed,
            width: 3,
            height: 2,
            origin: (60, 40),
            landscape: Landscape::Rugged,
        })
        .unwrap();
        let world = World::from_navmeshes(generated.regions.iter().map(|(r, m)| (*r, m)));
        let paths = PathIndex::build(&world);
        let tiles = ([60 * 96, 40 * 96], [63 * 96, 42 * 96]);
        let components = tile_components(&world, tiles);
        let component = |p: Position| {
            let (x, z) = ((p.world_x() / 20.0) as i64, (p.world_z() / 20.0) as i64);
            components[(z - tiles.0[1]) as usize * 288 + (x - tiles.0[0]) as usize]
        };
        let mut rng = SplitMix64::new(seed);
        let mut scratch = PathScratch::new();
        let (mut found, mut none, mut turns) = (0, 0, 0);
        for _ in 0..300 {
            let (s, t) = (
                random_walkable(&world, &mut rng, tiles),
                random_walkable(&world, &mut rng, tiles),
            );
            match paths.find_path(&world, s, t, &PathOptions::exact(), &mut scratch) {
                Ok(path) => {
                    validate(&world, s, t, &path);
                    assert_eq!(component(s), component(t), "{s:?} → {t:?}");
                    assert!(!world.path_cells(&path, Surface::Highest).is_empty());
                    turns += path.waypoints.len() - 2;
                    found += 1;
                }
                Err(PathError::Unreachable) => {
                    assert_ne!(component(s), component(t), "{s:?} → {t:?} has a path");
                    none += 1;
                }
                Err(e) => panic!("{s:?} → {t:?}: {e}"),
            }
        }
        eprintln!("seed {seed}: {found} paths ({turns} turns), {none} unreachable");
        assert!(
            found > 150 && turns > 100,
            "seed {seed}: {found} paths, {turns} turns"
        );
    }
}

#[test]
fn path_errors() {
    let region = RegionId::new(40, 30);
    let world = World::from_navmeshes([(region, &hand_made(region))]);
    let paths = PathIndex::build(&world);
    let base = (40.0 * 1920.0, 30.0 * 1920.0);
    let p = |x: f64, z: f64| at(base.0 + x, base.1 + z);
    let open = p(500.0, 500.0);
    let blocked = p(10.0 * 20.0 + 5.0, 10.0 * 20.0 + 5.0);
    // Inside the ring of blocked tiles (x 70..=80, z 20..=30 with a gap at x = 75 on both
    // rows): reachable only through the gaps.
    let mut scratch = PathScratch::new();
    assert_eq!(
        paths.find_path(&world, blocked, open, &PathOptions::default(), &mut scratch),
        Err(PathError::StartBlocked)
    );
    assert_eq!(
        paths.find_path(&world, open, blocked, &PathOptions::default(), &mut scratch),
        Err(PathError::GoalBlocked)
    );
    let outside = p(2000.0 + 1920.0, 10.0);
    assert_eq!(
        paths.find_path(&world, open, outside, &PathOptions::default(), &mut scratch),
        Err(PathError::GoalBlocked)
    );
    let far = p(1900.0, 1900.0);
    let path = paths
        .find_path(&world, open, far, &PathOptions::exact(), &mut scratch)
        .unwrap();
    validate(&world, open, far, &path);
    // A budget too small for a search with turns.
    let mut tight = PathScratch::with_budget(1);
    let around = paths
        .find_path(
            &world,
            p(12.0 * 20.0, 5.0 * 20.0),
            p(12.0 * 20.0, 35.0 * 20.0),
            &PathOptions::default(),
            &mut scratch,
        )
        .unwrap();
    assert!(around.waypoints.len() > 2);
    assert_eq!(
        paths.find_path(
            &world,
            p(12.0 * 20.0, 5.0 * 20.0),
            p(12.0 * 20.0, 35.0 * 20.0),
            &PathOptions::default(),
            &mut tight
        ),
        Err(PathError::BudgetExceeded)
    );
    // Start = goal: a path of length zero with both points.
    let same = paths
        .find_path(&world, open, open, &PathOptions::default(), &mut scratch)
        .unwrap();
    assert_eq!((same.length, same.waypoints.len()), (0.0, 2));

    // A closed ring: nothing inside reaches outside, answered from the components.
    let ring = silknav_testkit::region_from_mask(region, |x, z| {
        ((x == 40 || x == 50) && (40..=50).contains(&z))
            || ((z == 40 || z == 50) && (40..=50).contains(&x))
    });
    let world = World::from_navmeshes([(region, &ring)]);
    let paths = PathIndex::build(&world);
    let inside = p(45.0 * 20.0, 45.0 * 20.0);
    assert_eq!(
        paths.find_path(&world, inside, open, &PathOptions::default(), &mut scratch),
        Err(PathError::Unreachable)
    );
    assert_eq!(
        paths.find_path(&world, open, inside, &PathOptions::default(), &mut tight),
        Err(PathError::Unreachable)
    );
    let also_inside = p(42.5 * 20.0, 48.0 * 20.0);
    assert!(paths
        .find_path(
            &world,
            inside,
            also_inside,
            &PathOptions::default(),
            &mut scratch
        )
        .is_ok());
}
