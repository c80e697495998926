//! What objects cost the queries: `cell_at`, `height_at` and `height_at` near a height on a generated
//! world loaded with its objects against the same world loaded terrain-only
//! (`LoadOptions::terrain_only()`), on the same points, and `move_along` on the same walks, in
//! one criterion group.
//!
//! `cargo bench -p silknav-bench --bench objects` runs criterion, then prints per query the
//! median with objects, its ratio to the terrain-only median, and for the point queries the
//! target (≤ 2×) with met or MISSED. `move_along` has no target: with objects the walk does
//! the server's work (each terrain cell it enters probes the objects that cell lists, and walks
//! on object floors go triangle by triangle), and the ratio says what that costs.
//!
//! Half of the points lie on object triangles (buildings, gates, bridges, stairs, props: a
//! random triangle of a random instance, a random point inside it), so that the object lookup
//! runs its triangle tests as it does in a town; the other half are uniform over the world,
//! where most buckets hold no object. The walks start at the same points where both worlds
//! have a cell there (so on object floors that stand on open ground, as most do) and go
//! `WALK` units in a random direction: the walks of a town, in and out of buildings, across
//! bridges, along walls. The paths (`find_path`, exact) go from the same starts to goals
//! 100 to 600 units away, as a bot's moves in a town: through and round objects
//! (`PathOptions::exact_with_objects`) against the terrain's exact path on the terrain-only
//! world, on the pairs where both answer (target ≤ 1.5×). Each search has a budget of
//! [`PATH_BUDGET`], a guard against a search that would run for minutes, not a filter: a pair
//! over it is left out and counted, and none is, so the pairs do not depend on how fast the
//! search is (a budget of 200,000 used to leave out one pair of half a second: a faster
//! search then took that pair in, and its ratio rose).
//!
//! Beside the paths, their floor on the same pairs (`path_floor_objects`): what any exact
//! search with objects pays with its search free. It must find the start's surface and the
//! goal's cell, decide the straight segment from the start's surface (when clear, it is the
//! answer), and where the answer turns walk its first and last legs, which join arbitrary
//! points and so are in no index made before the query. Where that floor is over 1.5× the
//! terrain-only path, the paths' target is below what an ideal search could reach with these
//! walks, and the bench says so. `path_legs_objects` walks every leg of the answers: what
//! checking them costs.
//!
//! The world is written once per run as a data root (its
//! `navmesh/` folder beside the object meshes) under `<target>/bench-worlds/`, and loaded twice
//! from it, so both worlds come from the same files through the same loader. Loading it is
//! timed both ways too (no target: the ratio is what the objects' meshes, placements and
//! tile squares cost a load).

use criterion::{black_box, Criterion, Throughput};
use silknav::files::WorldSource;
use silknav::objects::ObjectCellRef;
use silknav::world::LoadOptions;
use silknav::{Navigator, PathOptions, PathScratch, Position, Surface, World, WorldPath};
use silknav_bench::queries::move_batch;
use silknav_bench::town::{
    self, path_pairs, query_points, PAIRS_SEED, PATH_BUDGET, POINTS, POINTS_SEED,
};
use silknav_bench::{criterion_home, duration, median_ns_since, verdict};
use silknav_testkit::rng::SplitMix64;
use std::time::SystemTime;

/// Criterion's group name; also the folder its estimates are saved under.
const GROUP: &str = "objects";
/// The most a query may cost with objects, as a multiple of the terrain-only query.
const TARGET_RATIO: f64 = 2.0;
/// Walks per batch.
const WALKS: usize = 2_000;
/// How far each walk goes, in world units.
const WALK: f64 = 100.0;
/// The most a path query may cost with objects, as a multiple of the terrain-only one.
const PATH_TARGET_RATIO: f64 = 1.5;

/// The queries, each run on both worlds: (name, batch).
type Batch = fn(&World, &[(Position, f32)]) -> (usize, u64);
const QUERIES: [(&str, Batch); 3] = [
    ("cell_at", cell_batch),
    ("height_at", height_batch),
    ("height_at_y", height_y_batch),
];

fn main() {
    let started = SystemTime::now();
    let world_dir = town::write_world();
    let with_objects = World::load(&world_dir).expect("the bench world loads");
    let terrain = World::load_source(
        &WorldSource::open(&world_dir).unwrap(),
        &LoadOptions::terrain_only(),
    )
    .expect("it loads again");
    assert!(
        with_objects.object_instances().len() > 0,
        "the generated world has objects"
    );
    assert_eq!(terrain.object_instances().len(), 0);

    let points = query_points(&with_objects, POINTS, POINTS_SEED);
    let on_objects = points
        .iter()
        .filter(|(p, _)| {
            with_objects
                .cell_at(*p, Surface::Highest)
                .is_some_and(|c| c.object.is_some())
        })
        .count();
    // The object half must reach object cells, or the bench measures terrain twice.
    assert!(on_objects >= POINTS / 2, "{on_objects} points on objects");
    eprintln!(
        "input: {} regions, {} object instances; {POINTS} points, {on_objects} on an object cell",
        with_objects.regions().len(),
        with_objects.object_instances().len()
    );

    let walks = walks(&with_objects, &terrain, &points, 11);
    let worlds = [("objects", &with_objects), ("terrain", &terrain)];
    let moves: Vec<(usize, usize, usize)> =
        worlds.iter().map(|(_, w)| move_batch(w, &walks)).collect();
    for ((label, _), (arrived, stopped, failed)) in worlds.iter().zip(&moves) {
        eprintln!(
            "input: {} walks of {WALK} units, {label}: {arrived} arrived, {stopped} stopped early, {failed} failed",
            walks.len()
        );
    }
    assert_ne!(moves[0], moves[1], "move_along meets no object");
    let answers: Vec<Vec<(usize, u64)>> = worlds
        .iter()
        .map(|(_, w)| QUERIES.iter().map(|(_, q)| q(w, &points)).collect())
        .collect();
    // Objects change the cells (and heights at y) of points on them, never the terrain's
    // height.
    assert_ne!(answers[0][0], answers[1][0], "cell_at sees no object");
    assert_eq!(answers[0][1], answers[1][1], "height_at is the terrain's");

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group(GROUP);
    group.throughput(Throughput::Elements(POINTS as u64));
    for (q, &(query, batch)) in QUERIES.iter().enumerate() {
        for (w, &(label, world)) in worlds.iter().enumerate() {
            let expected = answers[w][q];
            group.bench_function(format!("{query}_{label}"), |b| {
                b.iter(|| assert_eq!(batch(black_box(world), black_box(&points)), expected))
            });
        }
    }
    group.throughput(Throughput::Elements(walks.len() as u64));
    for (w, &(label, world)) in worlds.iter().enumerate() {
        let expected = moves[w];
        group.bench_function(format!("move_along_{label}"), |b| {
            b.iter(|| assert_eq!(move_batch(black_box(world), black_box(&walks)), expected))
        });
    }
    // Paths ask each world with its own path index.
    let object_nav = Navigator::new(with_objects.clone());
    let terrain_nav = Navigator::new(terrain.clone());
    let navs = [("objects", &object_nav), ("terrain", &terrain_nav)];
    let (pairs, over_budget) = path_pairs(&object_nav, &terrain_nav, &points, PAIRS_SEED);
    eprintln!(
        "input: {} path pairs that both worlds answer ({over_budget} left out over the budget)",
        pairs.len()
    );
    let path_options = [PathOptions::exact_with_objects(), PathOptions::exact()];
    let path_answers: Vec<(usize, u64)> = navs
        .iter()
        .zip(&path_options)
        .map(|((_, w), o)| path_batch(w, &pairs, o))
        .collect();
    assert_eq!(path_answers[0].0, pairs.len());
    assert_eq!(path_answers[1].0, pairs.len());
    group.throughput(Throughput::Elements(pairs.len() as u64));
    group.sample_size(10);
    for (w, &(label, world)) in navs.iter().enumerate() {
        let (expected, options) = (path_answers[w], path_options[w]);
        group.bench_function(format!("path_exact_{label}"), |b| {
            b.iter(|| assert_eq!(path_batch(black_box(world), &pairs, &options), expected))
        });
    }
    // The floor under any exact search with objects: what looking up the ends, deciding the
    // straight segment and walking the answer's first and last legs costs, the search itself
    // free. And what walking every leg of the answers (checking them) costs.
    let answers: Vec<(WorldPath, Vec<Option<ObjectCellRef>>)> = pairs
        .iter()
        .map(|&(from, to)| {
            let path = object_nav
                .find_path(from, to, &path_options[0], &mut PathScratch::new())
                .expect("a pair both worlds answer");
            let surfaces = with_objects
                .path_surfaces(&path, Surface::Highest)
                .expect("an exact path with objects has its surfaces");
            (path, surfaces)
        })
        .collect();
    let turning = answers
        .iter()
        .filter(|(p, _)| p.waypoints.len() > 2)
        .count();
    let floor_expected = floor_batch(&with_objects, &pairs, &answers);
    assert_eq!(
        floor_expected,
        (pairs.len(), pairs.len() - turning, 2 * turning)
    );
    let legs: usize = answers.iter().map(|(p, _)| p.waypoints.len() - 1).sum();
    group.bench_function("path_floor_objects", |b| {
        b.iter(|| {
            assert_eq!(
                floor_batch(&with_objects, &pairs, black_box(&answers)),
                floor_expected
            )
        })
    });
    group.bench_function("path_legs_objects", |b| {
        b.iter(|| assert_eq!(legs_batch(&with_objects, black_box(&answers)), legs))
    });
    group.throughput(Throughput::Elements(1));
    let loads = [
        ("objects", LoadOptions::default(), &with_objects),
        ("terrain", LoadOptions::terrain_only(), &terrain),
    ];
    for (label, options, world) in &loads {
        let expected = (world.regions().len(), world.object_instances().len());
        group.bench_function(format!("load_{label}"), |b| {
            b.iter(|| {
                let loaded =
                    World::load_source(&WorldSource::open(black_box(&world_dir)).unwrap(), options)
                        .expect("the bench world loads");
                assert_eq!(
                    (loaded.regions().len(), loaded.object_instances().len()),
                    expected
                );
            })
        });
    }
    group.finish();
    c.final_summary();

    // Only estimates written by this run count: a filtered or `--test` run leaves old ones.
    let dir = criterion_home().join(GROUP);
    let per_query =
        |name: &str| median_ns_since(&dir.join(name), started).map(|ns| ns / POINTS as f64);
    println!(
        "\nper-query medians, {} regions, {POINTS} points ({on_objects} on objects), with objects against terrain-only:",
        with_objects.regions().len()
    );
    for (query, _) in QUERIES {
        let (Some(objects), Some(terrain)) = (
            per_query(&format!("{query}_objects")),
            per_query(&format!("{query}_terrain")),
        ) else {
            println!("  {query}: no fresh estimates, no ratio");
            continue;
        };
        let ratio = objects / terrain;
        println!(
            "  {query}: {ratio:.2}× terrain-only (median {} vs {}); target ≤ {TARGET_RATIO}×: {}",
            duration(objects),
            duration(terrain),
            verdict(ratio <= TARGET_RATIO)
        );
    }
    let per_walk =
        |name: &str| median_ns_since(&dir.join(name), started).map(|ns| ns / walks.len() as f64);
    match (per_walk("move_along_objects"), per_walk("move_along_terrain")) {
        (Some(objects), Some(terrain)) => println!(
            "  move_along ({} walks of {WALK} units): {:.2}× terrain-only (median {} vs {} per walk); no target",
            walks.len(),
            objects / terrain,
            duration(objects),
            duration(terrain)
        ),
        _ => println!("  move_along: no fresh estimates, no ratio"),
    }
    let per_path =
        |name: &str| median_ns_since(&dir.join(name), started).map(|ns| ns / pairs.len() as f64);
    match (
        per_path("path_exact_objects"),
        per_path("path_exact_terrain"),
    ) {
        (Some(objects), Some(terrain)) => {
            let ratio = objects / terrain;
            println!(
                "  exact paths ({} pairs 100 to 600 units apart, {over_budget} over the budget left out): {ratio:.2}× terrain-only (median {} vs {} per path); target ≤ {PATH_TARGET_RATIO}×: {}",
                pairs.len(),
                duration(objects),
                duration(terrain),
                verdict(ratio <= PATH_TARGET_RATIO)
            )
        }
        _ => println!("  exact paths: no fresh estimates, no ratio"),
    }
    for (name, what) in [
        (
            "path_floor_objects",
            "their floor (the ends looked up, the straight segment's line of sight, and the turning answers' first and last legs walked; the search free)",
        ),
        ("path_legs_objects", "walking every leg of the answers"),
    ] {
        match (per_path(name), per_path("path_exact_terrain")) {
            (Some(objects), Some(terrain)) => println!(
                "  {what}: {:.2}× terrain-only (median {} vs {} per path); the paths' target is {}",
                objects / terrain,
                duration(objects),
                duration(terrain),
                if objects / terrain > PATH_TARGET_RATIO { "below it" } else { "above it" }
            ),
            _ => println!("  {name}: no fresh estimates, no ratio"),
        }
    }
    let once = |name: &str| median_ns_since(&dir.join(name), started);
    match (once("load_objects"), once("load_terrain")) {
        (Some(objects), Some(terrain)) => println!(
            "  load ({} regions, {} object instances): {:.2}× terrain-only (median {} vs {}); no target",
            with_objects.regions().len(),
            with_objects.object_instances().len(),
            objects / terrain,
            duration(objects),
            duration(terrain)
        ),
        _ => println!("  load: no fresh estimates, no ratio"),
    }
}

/// How many pairs have a path, and the bits of their lengths' sum.
fn path_batch(
    world: &Navigator,
    pairs: &[(Position, Position)],
    options: &PathOptions,
) -> (usize, u64) {
    let mut scratch = PathScratch::with_budget(PATH_BUDGET);
    let (mut found, mut sum) = (0, 0.0f64);
    for &(from, to) in pairs {
        if let Ok(path) = world.find_path(from, to, options, &mut scratch) {
            found += 1;
            sum += path.length;
        }
    }
    (found, sum.to_bits())
}

/// The floor of exact paths with objects on `pairs`: the start's surface and the goal's cell
/// looked up, the straight segment's line of sight from the start's surface (which every exact
/// search must decide: when it is clear, it is the answer), and for each answer that turns,
/// its first and last legs walked from their surfaces (from and to arbitrary points, so no
/// index made before the query holds them). How many goals have a cell, how many straight
/// segments are clear, and how many of those legs.
fn floor_batch(
    world: &World,
    pairs: &[(Position, Position)],
    answers: &[(WorldPath, Vec<Option<ObjectCellRef>>)],
) -> (usize, usize, usize) {
    let clear = |from, surface: Option<ObjectCellRef>, to| {
        world
            .raycast(from, to, surface.map_or(Surface::Terrain, Surface::Object))
            .is_ok_and(|hit| hit.is_none())
    };
    let (mut goals, mut straight, mut legs) = (0, 0, 0);
    for (&(from, to), (path, surfaces)) in pairs.iter().zip(answers) {
        let start = world.cell_at(from, Surface::Highest).and_then(|c| c.object);
        goals += usize::from(world.cell_at(to, Surface::Highest).is_some());
        let w = &path.waypoints;
        if w.len() == 2 {
            straight += usize::from(clear(from, start, to));
            continue;
        }
        // Decided too, though the answer is not it (blocked, or ending off the goal's surface).
        black_box(clear(from, start, to));
        let n = w.len();
        legs += usize::from(clear(w[0], start, w[1]));
        legs += usize::from(clear(w[n - 2], surfaces[n - 2], w[n - 1]));
    }
    (goals, straight, legs)
}

/// Every leg of the answers walked from its surface: how many are clear.
fn legs_batch(world: &World, answers: &[(WorldPath, Vec<Option<ObjectCellRef>>)]) -> usize {
    answers
        .iter()
        .flat_map(|(path, surfaces)| path.waypoints.windows(2).zip(surfaces))
        .filter(|(leg, &surface)| {
            let surface = surface.map_or(Surface::Terrain, Surface::Object);
            world
                .raycast(leg[0], leg[1], surface)
                .is_ok_and(|hit| hit.is_none())
        })
        .count()
}

/// Up to [`WALKS`] walks of [`WALK`] units in random directions, from the points that have a
/// cell in both worlds.
fn walks(
    with_objects: &World,
    terrain: &World,
    points: &[(Position, f32)],
    seed: u64,
) -> Vec<(Position, Position)> {
    let mut rng = SplitMix64::new(seed);
    points
        .iter()
        .filter(|(p, _)| {
            with_objects.cell_at(*p, Surface::Highest).is_some()
                && terrain.cell_at(*p, Surface::Highest).is_some()
        })
        .filter_map(|&(from, _)| {
            let angle = rng.unit() * std::f64::consts::TAU;
            let to = Position::from_world(
                from.world_x() + WALK * angle.cos(),
                from.world_z() + WALK * angle.sin(),
            )?;
            Some((from, to))
        })
        .take(WALKS)
        .collect()
}

/// How many points have a cell, and the wrapping sum of their cells (region, terrain cell
/// and object triangle), so that a wrong cell shows, not only a missing one.
fn cell_batch(world: &World, points: &[(Position, f32)]) -> (usize, u64) {
    let (mut found, mut sum) = (0, 0u64);
    for &(p, _) in points {
        if let Some(cell) = world.cell_at(p, Surface::Highest) {
            found += 1;
            let object = cell.object.map_or(0, |o| {
                u64::from(o.instance.0) << 16 | u64::from(o.cell) | 1 << 63
            });
            sum = sum
                .wrapping_add(u64::from(cell.cell) << 16 | u64::from(cell.region.0))
                .wrapping_add(object);
        }
    }
    (found, sum)
}

/// How many points have a terrain height, and the bits of the heights' sum.
fn height_batch(world: &World, points: &[(Position, f32)]) -> (usize, u64) {
    let (mut found, mut sum) = (0, 0.0f64);
    for &(p, _) in points {
        if let Some(h) = world.height_at(p, Surface::Terrain) {
            found += 1;
            sum += f64::from(h);
        }
    }
    (found, sum.to_bits())
}

/// How many points have a surface near their reference height, and the bits of the heights'
/// sum.
fn height_y_batch(world: &World, points: &[(Position, f32)]) -> (usize, u64) {
    let (mut found, mut sum) = (0, 0.0f64);
    for &(p, y) in points {
        if let Some(h) = world.height_at(p, Surface::Near(y)) {
            found += 1;
            sum += f64::from(h);
        }
    }
    (found, sum.to_bits())
}
