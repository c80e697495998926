//! Exact shortest paths: `PathIndex::find_path` with `PathOptions::exact()` against polyanya
//! 0.18 on the same rectangles, every query timed through both in the same run.
//!
//! `cargo bench -p silknav-bench [--features detour] --bench paths [-- FILTER...] [--validate]
//! [--keep-going] [--rounds N] [--results]` (Detour runs only with the feature; `--results`
//! needs it).
//!
//! Query sets, each a row of the table:
//! - the five Moving AI maps of the committed test data (`crates/silknav/tests/data/movingai`,
//!   found through `silknav_testkit::movingai`): every query of
//!   `derived-anyangle/<map>.map.scen`, whose lengths (any-angle optima in grid cells, −1 for
//!   none) both answers must reproduce;
//! - two generated 4×4-region worlds with 500 seeded pairs of walkable points each: any pairs
//!   on seed 1, connected pairs on seed 2 (whose ground is more fragmented, so that the set
//!   times searches rather than the island check); and an open one (`Landscape::Open`: wide
//!   ground with scattered boulders) with 500 connected pairs;
//! - a generated 32×32-region world (kept on disk by `silknav_bench::cache`) with 50 seeded
//!   connected pairs at least 20 regions apart.
//!
//! Polyanya gets the world's own open cells as its mesh (`competitor.rs`). On the Moving AI
//! maps a second polyanya mesh is timed for reference: the greedy whole-map rectangles
//! `shared/bench/ANCHORS.md` measured it on, which region borders and the 48-tile cell limit
//! do not cut, and on which it is faster.
//!
//! Before timing, polyanya's answers are checked against what is known: the scen lengths, and
//! on generated worlds whether the ends are connected (through shared cell sides). A scen
//! disagreement stops the run; a connected pair that polyanya finds no path for (it gives up
//! after 10 × polygons search steps: on the 32×32 world one pair needs more, and finds our
//! length with a larger cap after 10 s) is reported and left out of the timed set. Then our path
//! index is built (`PathIndex::build`, cost printed), and every query runs through each
//! searcher in turn for a few rounds. A query's time is its fastest round (the machines are
//! shared and noisy: the minimum is the least disturbed run of the same work), and every round
//! asserts that the lengths agree within 1e-3 relative, so a broken build cannot look fast.
//! The table gives per set the distribution over its queries and the ratios of our mean and
//! 95th percentile to polyanya's; the targets follow.
//!
//! Arguments: FILTER keeps the sets whose name contains it (`arena`, `brc202d`, `gen4x4`,
//! `gen32x32`, ...); `--validate` only checks polyanya against the scen files; `--keep-going`
//! reports every disagreement of ours (`DISAGREE` lines, counted in the table) instead of
//! stopping at the first; `--rounds N` fixes the rounds (default: as many as fit a set's time
//! budget, 3 to 9); `--results` also writes the table to `RESULTS.md` beside the crate's
//! manifest (atomically, with the date, the machine and the command; full runs only). Without
//! `--bench` (a `cargo test --benches` smoke run) only arena runs,
//! once.

mod competitor;
#[cfg(feature = "detour")]
mod detour;
#[cfg(not(feature = "detour"))]
#[path = "without_detour.rs"]
mod detour;

use competitor::Competitor;
use detour::Detour;
use silknav::files::WorldFiles;
use silknav::geometry::REGION_SIZE;
use silknav::jmxv::nvm::NavMesh;
use silknav::jmxv::RegionId;
use silknav::movingai::Scenario;
use silknav::worldgen::{generate, GenOptions, Landscape, DEFAULT_ORIGIN};
use silknav::{
    CellRef, PathError, PathIndex, PathIndexStats, PathOptions, PathScratch, Position, Surface,
    World,
};
use silknav_bench::cache::{cached_world, find_cached};
use silknav_bench::record::{machine, utc_date, write_atomically};
use silknav_bench::rects::{grid_rects, open_rects, Rect, RectMesh};
use silknav_bench::{duration, is_bench_run, verdict};
use silknav_testkit::movingai;
use silknav_testkit::rng::SplitMix64;
use std::collections::{BTreeMap, HashMap};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Instant, SystemTime};

/// Where Moving AI maps are imported: the map's (0, 0) is this region's south-west corner.
const ORIGIN: (u8, u8) = (10, 20);
/// Units of a grid cell: scen lengths are in cells.
const CELL: f64 = 20.0;
/// Generated worlds: name, options, query pairs, minimum distance between the ends in units,
/// whether the ends must be connected.
const GENERATED: [(&str, GenOptions, usize, f64, bool); 4] = [
    (
        "gen4x4-s1",
        gen_options(1, 4, Landscape::Rugged),
        500,
        0.0,
        false,
    ),
    (
        "gen4x4-s2",
        gen_options(2, 4, Landscape::Rugged),
        500,
        0.0,
        true,
    ),
    // Open ground with scattered boulders: long straight stretches, many small obstacles.
    (
        "gen4x4-open",
        gen_options(1, 4, Landscape::Open),
        500,
        0.0,
        true,
    ),
    (
        LONG,
        gen_options(1, 32, Landscape::Rugged),
        50,
        20.0 * REGION_SIZE as f64,
        true,
    ),
];
/// The set of queries across at least 20 regions.
const LONG: &str = "gen32x32-long";
/// Lengths agree when they differ by at most this fraction of the longer one, or of one grid
/// cell for shorter paths: polyanya's f32 lengths and the scen files' six decimals are that
/// precise.
const TOLERANCE: f64 = 1e-3;
/// Time budget of one set's rounds, in seconds, and the bounds on their number.
const BUDGET_SECONDS: f64 = 30.0;
const ROUNDS: (usize, usize) = (3, 9);

/// The targets: our mean at most this fraction of polyanya's (at its best) on every set, our
/// p95 never above polyanya's, and a query across 20 regions within this many nanoseconds.
const MEAN_RATIO_TARGET: f64 = 0.2;
const P95_RATIO_TARGET: f64 = 1.0;
/// Our mean at most this multiple of Detour's, whose paths are only approximate.
const DETOUR_RATIO_TARGET: f64 = 1.0;
const LONG_QUERY_TARGET_NS: f64 = 5e6;

const fn gen_options(seed: u64, side: u8, landscape: Landscape) -> GenOptions {
    GenOptions {
        seed,
        width: side,
        height: side,
        origin: DEFAULT_ORIGIN,
        landscape,
    }
}

/// What is known about a query's answer.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Known {
    /// The scen file's length, in units.
    Length(f64),
    /// The scen file says no path, or the ends are in different components.
    NoPath,
    /// The ends are connected; the length is not known.
    SomePath,
}

impl Known {
    /// Whether an answer (a length in units, `None` for no path) fits.
    fn admits(self, answer: Option<f64>) -> bool {
        match self {
            Known::Length(length) => agree(answer, Some(length)),
            Known::NoPath => answer.is_none(),
            Known::SomePath => answer.is_some(),
        }
    }
}

/// One query, for every searcher.
struct Query {
    from: Position,
    to: Position,
    /// The same points in map-local units (world units from the origin region's corner).
    from_local: [f64; 2],
    to_local: [f64; 2],
    known: Known,
    /// How the query reads in its source (`query 12 ((19, 26) → (19, 29), listed 3)`).
    label: String,
}

/// A query set: a world, polyanya's meshes, the queries.
struct Case {
    name: String,
    world: World,
    competitor: Competitor,
    /// Polyanya on the anchors' rectangles (Moving AI maps only).
    reference: Option<Competitor>,
    /// Detour on the anchors' rectangles (the world's cells on generated worlds), or why it
    /// does not run: the mesh does not fit one Detour tile, or the bench was built without the
    /// `detour` feature.
    detour: Result<Detour, &'static str>,
    regions: usize,
    queries: Vec<Query>,
}

/// What a set's run measured.
struct Row {
    name: String,
    queries: usize,
    /// Queries left out because polyanya failed them.
    dropped: usize,
    unreachable: usize,
    /// Queries whose answers differed (only with `--keep-going`; otherwise the run stops).
    disagreements: usize,
    rounds: usize,
    ours: Summary,
    theirs: Summary,
    reference: Option<Summary>,
    detour: Option<DetourRow>,
    index: PathIndexStats,
}

/// What Detour's run measured: its times, and how its lengths compare with the optimum.
struct DetourRow {
    times: Summary,
    /// Mean of (Detour's length / the optimum − 1) over the queries with a path.
    excess_mean: f64,
    /// The largest Detour length / optimum.
    worst: f64,
    /// Queries with a path for which Detour found none.
    missed: usize,
}

/// The distribution of per-query times, in nanoseconds.
#[derive(Clone, Copy)]
struct Summary {
    mean: f64,
    median: f64,
    p95: f64,
    max: f64,
}

impl Summary {
    fn of(times: &[f64]) -> Summary {
        let mut sorted = times.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let at = |q: f64| sorted[((q * n as f64).ceil() as usize).clamp(1, n) - 1];
        Summary {
            mean: sorted.iter().sum::<f64>() / n as f64,
            median: at(0.5),
            p95: at(0.95),
            max: sorted[n - 1],
        }
    }
}

struct Options {
    filters: Vec<String>,
    validate_only: bool,
    keep_going: bool,
    rounds: Option<usize>,
    smoke: bool,
    /// Write the table to `RESULTS.md` beside the crate's manifest (`--results`).
    results: bool,
}

fn main() {
    let options = parse_args();
    let wanted = |name: &str| {
        if options.smoke {
            return name == "arena";
        }
        options.filters.is_empty() || options.filters.iter().any(|f| name.contains(f.as_str()))
    };
    if options.smoke {
        eprintln!("smoke run (no --bench): arena only, one round");
    }
    let started = Instant::now();
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    // The maps, smallest first; a set is named for its map without `.map`.
    let maps = movingai::MAPS.map(|file| file.trim_end_matches(".map"));
    for map in maps.into_iter().filter(|m| wanted(m)) {
        run(movingai_case(map), &options, &mut rows);
    }
    for (name, world, pairs, apart, connected) in GENERATED {
        if !wanted(name) || options.validate_only {
            continue;
        }
        match generated_case(name, &world, pairs, apart, connected) {
            Some(case) => run(case, &options, &mut rows),
            None => skipped.push(name.to_string()),
        }
    }
    if !options.validate_only {
        print_table(&rows, &skipped);
    }
    if options.smoke {
        println!("(a smoke run: unoptimised, one round; its times mean nothing)");
    }
    let seconds = started.elapsed().as_secs_f64();
    if options.results {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("RESULTS.md");
        write_atomically(&path, &results_markdown(&rows, seconds))
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        println!("\nwrote {}", path.display());
    }
    eprintln!("paths bench: {seconds:.0} s");
}

fn parse_args() -> Options {
    let mut options = Options {
        filters: Vec::new(),
        validate_only: false,
        keep_going: false,
        rounds: None,
        smoke: !is_bench_run(),
        results: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--validate" => options.validate_only = true,
            "--keep-going" => options.keep_going = true,
            "--results" => options.results = true,
            "--rounds" => {
                options.rounds = Some(
                    args.next()
                        .and_then(|n| n.parse().ok())
                        .filter(|&n| n > 0)
                        .expect("--rounds takes a positive number"),
                )
            }
            // Cargo's and criterion's flags (`--bench`, ...) mean nothing here.
            flag if flag.starts_with('-') => {}
            filter => options.filters.push(filter.to_string()),
        }
    }
    if !options.filters.is_empty() || options.validate_only {
        options.smoke = false;
    }
    // The committed table is of a whole measured run; refused before minutes of work.
    assert!(
        !options.results
            || (options.filters.is_empty() && !options.validate_only && !options.smoke),
        "--results records a full run: `cargo bench -p silknav-bench --features detour --bench paths -- --results` \
         without set filters or --validate"
    );
    assert!(
        !options.results || cfg!(feature = "detour"),
        "--results records every competitor: add `--features detour` (needs cmake and libclang)"
    );
    options
}

/// A Moving AI map (the test data committed under `crates/silknav/tests/data/movingai`) as a
/// world, polyanya's meshes and the derived any-angle queries.
fn movingai_case(map: &str) -> Case {
    let file = format!("{map}.map");
    let grid = movingai::map(&file);
    let scenarios = movingai::anyangle(&file);
    let meshes = grid.to_world(ORIGIN).expect("the maps fit the id space");
    let origin = RegionId::new(ORIGIN.0, ORIGIN.1);
    let (world, competitor, _, _) = build(&meshes, origin);
    let whole_map = RectMesh::new(&grid_rects(&grid));
    let reference = Competitor::new(&whole_map);
    let detour = Detour::new(&whole_map);
    let base = corner(origin);
    let queries = scenarios
        .iter()
        .enumerate()
        .map(|(i, s)| scen_query(i, s, base))
        .collect();
    Case {
        name: map.to_string(),
        world,
        competitor,
        reference: Some(reference),
        detour,
        regions: meshes.len(),
        queries,
    }
}

/// A scen query: lattice points (x, y) are world (20·x, 20·y) from the map's corner.
fn scen_query(i: usize, s: &Scenario, base: [f64; 2]) -> Query {
    let lattice = |(x, y): (u32, u32)| [f64::from(x) * CELL, f64::from(y) * CELL];
    let (a, b) = (lattice(s.start), lattice(s.goal));
    let position = |p: [f64; 2]| {
        Position::from_world(base[0] + p[0], base[1] + p[1]).expect("inside the id space")
    };
    Query {
        from: position(a),
        to: position(b),
        from_local: a,
        to_local: b,
        known: if s.length >= 0.0 {
            Known::Length(s.length * CELL)
        } else {
            Known::NoPath
        },
        label: format!(
            "query {} ({:?} → {:?}, listed {})",
            i + 1,
            s.start,
            s.goal,
            s.length
        ),
    }
}

/// World coordinates of a region's south-west corner.
fn corner(region: RegionId) -> [f64; 2] {
    let size = f64::from(REGION_SIZE);
    [f64::from(region.x()) * size, f64::from(region.z()) * size]
}

/// The world, polyanya's mesh of its open cells, the cells as rectangles and the mesh they
/// make.
fn build(
    meshes: &BTreeMap<RegionId, NavMesh>,
    origin: RegionId,
) -> (World, Competitor, Vec<(Rect, CellRef)>, RectMesh) {
    let world = World::from_navmeshes(meshes.iter().map(|(r, m)| (*r, m)));
    let rects = open_rects(meshes, origin);
    let mesh = RectMesh::new(&rects.iter().map(|(r, _)| *r).collect::<Vec<_>>());
    let competitor = Competitor::new(&mesh);
    (world, competitor, rects, mesh)
}

/// A generated world with seeded query pairs between walkable points, or `None` (with a
/// notice) when a smoke run finds a large world not cached.
fn generated_case(
    name: &str,
    options: &GenOptions,
    pairs: usize,
    min_apart: f64,
    connected: bool,
) -> Option<Case> {
    let started = Instant::now();
    let meshes = if options.width <= 8 {
        generate(options).expect("valid options").regions
    } else {
        // Large worlds come from the on-disk cache, generated on the first run.
        let cached = if is_bench_run() {
            cached_world(name, options).expect("the bench world can be generated")
        } else {
            let Some(cached) = find_cached(name, options).expect("the cache is readable") else {
                println!("skipped: {name}: not cached, and a smoke run does not generate it");
                return None;
            };
            cached
        };
        WorldFiles::read_dir(&cached.dir)
            .expect("the cached world reads")
            .navmeshes
    };
    let origin = RegionId::new(options.origin.0, options.origin.1);
    let (world, competitor, rects, mesh) = build(&meshes, origin);
    let detour = Detour::new(&mesh);
    eprintln!(
        "{name}: {} regions ready in {:.1} s",
        meshes.len(),
        started.elapsed().as_secs_f64()
    );
    let regions: Vec<RegionId> = meshes.keys().copied().collect();
    drop(meshes);
    let rect_of: HashMap<CellRef, usize> = rects
        .iter()
        .enumerate()
        .map(|(i, (_, cell))| (*cell, i))
        .collect();
    let component = mesh.components();
    let island =
        |p: Position| component[rect_of[&world.cell_at(p, Surface::Highest).expect("walkable")]];
    let base = corner(origin);
    let mut rng = SplitMix64::new(options.seed * 1000 + u64::from(options.width));
    let mut queries = Vec::with_capacity(pairs);
    for _ in 0..pairs * 100_000 {
        if queries.len() == pairs {
            break;
        }
        let (a, b) = (
            walkable_point(&world, &regions, &mut rng),
            walkable_point(&world, &regions, &mut rng),
        );
        let (dx, dz) = (a.world_x() - b.world_x(), a.world_z() - b.world_z());
        let linked = island(a) == island(b);
        if dx.hypot(dz) < min_apart || (connected && !linked) {
            continue;
        }
        let local = |p: Position| [p.world_x() - base[0], p.world_z() - base[1]];
        queries.push(Query {
            from: a,
            to: b,
            from_local: local(a),
            to_local: local(b),
            known: if linked {
                Known::SomePath
            } else {
                Known::NoPath
            },
            label: format!("pair {} ({a} → {b})", queries.len() + 1),
        });
    }
    assert_eq!(queries.len(), pairs, "{name}: too few pairs qualify");
    Some(Case {
        name: name.to_string(),
        world,
        competitor,
        reference: None,
        detour,
        regions: regions.len(),
        queries,
    })
}

/// A random walkable point whose local coordinates are multiples of 1.25 units, so that f32
/// holds it exactly in map-local units too and both searchers get the very same point.
fn walkable_point(world: &World, regions: &[RegionId], rng: &mut SplitMix64) -> Position {
    const STEPS: u32 = (REGION_SIZE / 1.25) as u32;
    loop {
        let region = regions[rng.range(0, regions.len() as u32) as usize];
        let p = Position::new(
            region,
            rng.range(0, STEPS) as f32 * 1.25,
            rng.range(0, STEPS) as f32 * 1.25,
        );
        if world.cell_at(p, Surface::Highest).is_some() {
            return p;
        }
    }
}

/// Whether two answers (lengths in units, `None` for no path) agree (see [`TOLERANCE`]).
fn agree(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= TOLERANCE * a.max(b).max(CELL),
        (None, None) => true,
        _ => false,
    }
}

/// Checks polyanya against what is known and returns the queries to time. Polyanya finding no
/// path between connected ends is reported and the query dropped (with the reverse query's
/// answer, which tells a search that gave up from a mesh that is cut); any other disagreement
/// stops the run, since it would mean polyanya's mesh is not the world's ground.
fn validate(case: &mut Case) -> usize {
    let started = Instant::now();
    let mut wrong = Vec::new();
    let mut dropped = Vec::new();
    let mut keep = Vec::with_capacity(case.queries.len());
    for q in case.queries.drain(..) {
        let got = case.competitor.length(q.from_local, q.to_local);
        let reference = case
            .reference
            .as_ref()
            .map(|r| r.length(q.from_local, q.to_local));
        if q.known.admits(got) && reference.map_or(true, |r| q.known.admits(r)) {
            keep.push(q);
        } else if got.is_none() && q.known == Known::SomePath {
            let reverse = case.competitor.length(q.to_local, q.from_local);
            dropped.push(format!(
                "  {}: polyanya finds no path between connected ends (reversed: {reverse:?} units)",
                q.label
            ));
        } else {
            wrong.push(format!(
                "  {}: polyanya {got:?} units (anchors' mesh {reference:?}), known {:?}",
                q.label, q.known
            ));
        }
    }
    case.queries = keep;
    println!(
        "{}: polyanya confirms {} of {} known answers ({:.1} s){}",
        case.name,
        case.queries.len(),
        case.queries.len() + dropped.len() + wrong.len(),
        started.elapsed().as_secs_f64(),
        if dropped.is_empty() {
            String::new()
        } else {
            format!("; {} queries left out:", dropped.len())
        }
    );
    for line in dropped.iter().chain(&wrong) {
        println!("{line}");
    }
    assert!(wrong.is_empty(), "{}: polyanya disagrees", case.name);
    dropped.len()
}

/// Validates, builds our index, times every query through each searcher, and adds the set's
/// row.
fn run(mut case: Case, options: &Options, rows: &mut Vec<Row>) {
    println!(
        "\n{}: {} regions, {} open cells; polyanya mesh {} vertices, built in {:.2} s",
        case.name,
        case.regions,
        case.competitor.polygons,
        case.competitor.vertices,
        case.competitor.build_time.as_secs_f64()
    );
    if let Some(r) = &case.reference {
        println!(
            "{}: the anchors' mesh: {} rectangles, {} vertices",
            case.name, r.polygons, r.vertices
        );
    }
    match &case.detour {
        Ok(d) => println!("{}: {}", case.name, d.describe()),
        Err(why) => println!("{}: {why}", case.name),
    }
    let dropped = validate(&mut case);
    if options.validate_only {
        return;
    }
    let paths = PathIndex::build(&case.world);
    let index = paths.stats();
    println!(
        "{}: our path index: {} rects, {} corners, {} edges, {:.2} MB heap, built in {:.2} s",
        case.name,
        index.rects,
        index.corners,
        index.edges,
        index.heap_bytes as f64 / 1e6,
        index.build_time.as_secs_f64()
    );
    let n = case.queries.len();
    let mut ours = vec![f64::INFINITY; n];
    let mut theirs = vec![f64::INFINITY; n];
    let mut reference = vec![f64::INFINITY; n];
    let mut detour_times = vec![f64::INFINITY; n];
    let mut detour_lengths: Vec<Option<f64>> = vec![None; n];
    let mut scratch = PathScratch::new();
    let (mut unreachable, mut disagreements) = (0, 0);
    let mut rounds = options
        .rounds
        .unwrap_or(if options.smoke { 1 } else { ROUNDS.1 });
    let started = Instant::now();
    let mut round = 0;
    while round < rounds {
        for (i, q) in case.queries.iter().enumerate() {
            let polyanya = |c: &Competitor| time(|| c.length(q.from_local, q.to_local));
            // Alternate who goes first, so neither always runs on the other's warm caches.
            let (mine, other) = if round % 2 == 0 {
                let mine = time(|| ours_length(&case.world, &paths, q, &mut scratch));
                (mine, polyanya(&case.competitor))
            } else {
                let other = polyanya(&case.competitor);
                (
                    time(|| ours_length(&case.world, &paths, q, &mut scratch)),
                    other,
                )
            };
            if let Some(c) = &case.reference {
                let (length, ns) = polyanya(c);
                assert!(agree(length, other.0), "{}: {}", case.name, q.label);
                reference[i] = reference[i].min(ns);
            }
            if let Ok(d) = case.detour.as_mut() {
                let (length, ns) = time(|| d.length(q.from_local, q.to_local));
                // Detour's path is a path: never shorter than the optimum, and found only
                // between connected ends.
                if let (Some(l), Some(best)) = (length, other.0) {
                    assert!(
                        l >= best * (1.0 - TOLERANCE) - TOLERANCE,
                        "{}: {}: Detour {l} shorter than the optimum {best}",
                        case.name,
                        q.label
                    );
                }
                assert!(
                    length.is_none() || other.0.is_some(),
                    "{}: {}: Detour finds a path between unconnected ends",
                    case.name,
                    q.label
                );
                detour_lengths[i] = length;
                detour_times[i] = detour_times[i].min(ns);
            }
            if let Some(problem) = disagreement(&mine.0, other.0, q.known) {
                let line = format!("{}: {}: {problem}", case.name, q.label);
                assert!(options.keep_going, "{line}");
                if round == 0 {
                    println!("DISAGREE {line}");
                    disagreements += 1;
                }
            }
            if round == 0 && matches!(mine.0, Ok(None)) {
                unreachable += 1;
            }
            ours[i] = ours[i].min(mine.1);
            theirs[i] = theirs[i].min(other.1);
        }
        if round == 0 && options.rounds.is_none() && !options.smoke {
            let per_round = started.elapsed().as_secs_f64();
            rounds = ((BUDGET_SECONDS / per_round) as usize).clamp(ROUNDS.0, ROUNDS.1);
        }
        round += 1;
    }
    println!(
        "{}: {n} queries × {rounds} rounds in {:.1} s",
        case.name,
        started.elapsed().as_secs_f64()
    );
    rows.push(Row {
        name: case.name.clone(),
        queries: n,
        dropped,
        unreachable,
        disagreements,
        rounds,
        ours: Summary::of(&ours),
        theirs: Summary::of(&theirs),
        reference: case.reference.as_ref().map(|_| Summary::of(&reference)),
        detour: case.detour.as_ref().ok().map(|_| {
            detour_row(
                &case.queries,
                &detour_times,
                &detour_lengths,
                &case.competitor,
            )
        }),
        index,
    });
}

/// Detour's times and how its lengths compare with the optimum (polyanya's, which the run
/// checked against ours and what is known).
fn detour_row(
    queries: &[Query],
    times: &[f64],
    lengths: &[Option<f64>],
    polyanya: &Competitor,
) -> DetourRow {
    let (mut sum, mut counted, mut worst, mut missed) = (0.0, 0usize, 1.0f64, 0);
    for (q, length) in queries.iter().zip(lengths) {
        let Some(best) = polyanya.length(q.from_local, q.to_local) else {
            continue;
        };
        match length {
            Some(l) if best > 0.0 => {
                sum += l / best - 1.0;
                counted += 1;
                worst = worst.max(l / best);
            }
            Some(_) => {}
            None => missed += 1,
        }
    }
    DetourRow {
        times: Summary::of(times),
        excess_mean: sum / counted.max(1) as f64,
        worst,
        missed,
    }
}

/// Our answer's length in units, `None` for no path: the exact optimum, which is what
/// polyanya answers (the walkable path users get by default moves it off the corners).
#[inline]
fn ours_length(
    world: &World,
    paths: &PathIndex,
    q: &Query,
    scratch: &mut PathScratch,
) -> Result<Option<f64>, PathError> {
    let exact = PathOptions::exact();
    match paths.find_path(world, black_box(q.from), black_box(q.to), &exact, scratch) {
        Ok(path) => Ok(Some(path.length)),
        Err(PathError::Unreachable) => Ok(None),
        Err(e) => Err(e),
    }
}

/// What is wrong with our answer, if anything: an error (every query's ends are walkable), a
/// length polyanya does not confirm, or one that contradicts what is known.
fn disagreement(
    ours: &Result<Option<f64>, PathError>,
    polyanya: Option<f64>,
    known: Known,
) -> Option<String> {
    let ours = match ours {
        Ok(length) => *length,
        Err(e) => return Some(format!("find_path failed: {e} (polyanya {polyanya:?})")),
    };
    if !agree(ours, polyanya) {
        Some(format!("ours {ours:?} units, polyanya {polyanya:?} units"))
    } else if !known.admits(ours) {
        Some(format!("ours {ours:?} units, known {known:?}"))
    } else {
        None
    }
}

/// The value and the nanoseconds it took, the result's drop included.
#[inline]
fn time<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let started = Instant::now();
    let value = black_box(f());
    (value, started.elapsed().as_nanos() as f64)
}

fn print_table(rows: &[Row], skipped: &[String]) {
    if rows.is_empty() {
        println!("\nno set ran");
        return;
    }
    let us = |ns: f64| format!("{:.1}", ns / 1e3);
    let dist = |s: Summary| {
        format!(
            "{} / {} / {} / {}",
            us(s.mean),
            us(s.median),
            us(s.p95),
            us(s.max)
        )
    };
    println!("\nper-query times in µs, each query's fastest round; ratios are ours / polyanya's");
    println!(
        "{:<15} {:>7} {:>4} {:>3} | {:>34} | {:>38} | {:>6} {:>6} | {:>8} {:>6} | lengths",
        "set",
        "queries",
        "none",
        "rds",
        "ours mean / median / p95 / max",
        "polyanya mean / median / p95 / max",
        "mean×",
        "p95×",
        "ref mean",
        "ref×"
    );
    for r in rows {
        let (ref_mean, ref_ratio) = match r.reference {
            Some(s) => (us(s.mean), format!("{:.3}", r.ours.mean / s.mean)),
            None => ("-".to_string(), "-".to_string()),
        };
        let check = match (r.disagreements, r.dropped) {
            (0, 0) => format!("all {} agree", r.queries),
            (0, d) => format!("all {} agree ({d} left out)", r.queries),
            (n, _) => format!("{n} DISAGREE"),
        };
        println!(
            "{:<15} {:>7} {:>4} {:>3} | {:>34} | {:>38} | {:>6.3} {:>6.3} | {:>8} {:>6} | {check}",
            r.name,
            r.queries,
            r.unreachable,
            r.rounds,
            dist(r.ours),
            dist(r.theirs),
            r.ours.mean / r.theirs.mean,
            r.ours.p95 / r.theirs.p95,
            ref_mean,
            ref_ratio,
        );
    }
    println!(
        "(none: queries without a path; rds: rounds; ref: polyanya on the anchors' whole-map \
         rectangles, mean µs and our mean's ratio to it)"
    );
    println!("\nDetour (approximate) per set, µs; lengths against the optimum:");
    for r in rows {
        match &r.detour {
            Some(d) => println!(
                "  {:<15} {:>34} | ours / Detour mean {:>6.3} | length +{:.2}% mean, {:.3}× worst{}",
                r.name,
                dist(d.times),
                r.ours.mean / d.times.mean,
                d.excess_mean * 100.0,
                d.worst,
                if d.missed > 0 {
                    format!(", {} paths missed", d.missed)
                } else {
                    String::new()
                }
            ),
            None => println!("  {:<15} not run (see the set's lines above)", r.name),
        }
    }
    println!("\nour path index per set:");
    for r in rows {
        println!(
            "  {:<15} {:>7} rects {:>7} corners {:>9} edges {:>8.2} MB {:>7.2} s",
            r.name,
            r.index.rects,
            r.index.corners,
            r.index.edges,
            r.index.heap_bytes as f64 / 1e6,
            r.index.build_time.as_secs_f64()
        );
    }
    println!("\ntargets:");
    for line in targets(rows) {
        println!("  {line}");
    }
    if !skipped.is_empty() {
        println!("  (skipped: {})", skipped.join(", "));
    }
}

/// Whether the targets were met, one line each: against polyanya at its best (the whole-map
/// rectangles where the set has them, else the world's cells) and against Detour.
fn targets(rows: &[Row]) -> Vec<String> {
    let mut out = Vec::new();
    let worst = |ratio: &dyn Fn(&Row) -> Option<f64>| {
        rows.iter()
            .filter_map(|r| ratio(r).map(|x| (r.name.as_str(), x)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
    };
    let best = |r: &Row| r.reference.unwrap_or(r.theirs);
    let mean_ratio = |r: &Row| Some(r.ours.mean / best(r).mean);
    let p95_ratio = |r: &Row| Some(r.ours.p95 / best(r).p95);
    let detour_ratio = |r: &Row| r.detour.as_ref().map(|d| r.ours.mean / d.times.mean);
    let line = |what: String, limit: f64, worst: Option<(&str, f64)>| match worst {
        Some((name, ratio)) => format!(
            "{what}: {} (worst {name}: {ratio:.3}×)",
            verdict(ratio <= limit)
        ),
        None => format!("{what}: not run"),
    };
    out.push(line(
        format!("mean ≤ {MEAN_RATIO_TARGET}× polyanya's at its best on every set"),
        MEAN_RATIO_TARGET,
        worst(&mean_ratio),
    ));
    out.push(line(
        "p95 never slower than polyanya's at its best".to_string(),
        P95_RATIO_TARGET,
        worst(&p95_ratio),
    ));
    out.push(line(
        format!("mean ≤ {DETOUR_RATIO_TARGET}× Detour's (approximate paths) where Detour runs"),
        DETOUR_RATIO_TARGET,
        worst(&detour_ratio),
    ));
    out.push(match rows.iter().find(|r| r.name == LONG) {
        Some(r) => format!(
            "every query across ≥ 20 regions ≤ {}: {} (ours max {}, mean {}; polyanya max {}, mean {})",
            duration(LONG_QUERY_TARGET_NS),
            verdict(r.ours.max <= LONG_QUERY_TARGET_NS),
            duration(r.ours.max),
            duration(r.ours.mean),
            duration(r.theirs.max),
            duration(r.theirs.mean)
        ),
        None => "a query across ≥ 20 regions: not run".to_string(),
    });
    if rows.iter().any(|r| r.disagreements > 0) {
        out.push(format!("lengths: {}", verdict(false)));
    }
    out
}

/// `RESULTS.md`: when, where and how the run was made, then one row per set with both
/// polyanya meshes and our path index, then the targets.
fn results_markdown(rows: &[Row], seconds: f64) -> String {
    let arguments: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let command = format!(
        "cargo bench -p silknav-bench --features detour --bench paths -- {}",
        arguments.join(" ")
    );
    let us = |ns: f64| format!("{:.1}", ns / 1e3);
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line("# Paths bench results".into());
    line(String::new());
    line(format!(
        "Written by the paths bench (`benches/paths/main.rs`) from one run; regenerate it with \
         the command below rather than editing it.\n\n\
         - date: {} (UTC)\n\
         - machine: {}\n\
         - command: `{command}`\n\
         - run: {seconds:.0} s",
        utc_date(SystemTime::now()),
        machine(),
    ));
    line(String::new());
    let disagreements: usize = rows.iter().map(|r| r.disagreements).sum();
    let dropped: usize = rows.iter().map(|r| r.dropped).sum();
    line(format!(
        "Times are per query in µs, each query's fastest of its rounds; both searchers ran every \
         query in turn in the same run, and {}{}. The machine is shared, so single times are \
         noisy; the ratios (ours / polyanya's, below 1 is faster) are what the run measured.",
        if disagreements == 0 {
            "every length agreed within 1e-3 relative".to_string()
        } else {
            format!("{disagreements} queries DISAGREED")
        },
        if dropped == 0 {
            String::new()
        } else {
            format!(" (queries left out because polyanya found no path between connected ends: {dropped})")
        }
    ));
    line(String::new());
    line(
        "| set | queries | ours mean | ours p95 | polyanya cells mean | cells p95 | ours / cells | \
         polyanya best mean | best p95 | ours / best mean | ours / best p95 | Detour mean | \
         Detour p95 | ours / Detour mean | Detour length excess mean / worst | index build s | \
         corners | edges | heap bytes |"
            .into(),
    );
    line(format!("|{}", "---|".repeat(19)));
    for r in rows {
        let (best_mean, best_p95, ratio_mean, ratio_p95) = match r.reference {
            Some(b) => (
                us(b.mean),
                us(b.p95),
                format!("{:.3}", r.ours.mean / b.mean),
                format!("{:.3}", r.ours.p95 / b.p95),
            ),
            None => ("-".into(), "-".into(), "-".into(), "-".into()),
        };
        let (detour_mean, detour_p95, detour_ratio, detour_excess) = match &r.detour {
            Some(d) => (
                us(d.times.mean),
                us(d.times.p95),
                format!("{:.3}", r.ours.mean / d.times.mean),
                format!(
                    "+{:.2}% / {:.3}×{}",
                    d.excess_mean * 100.0,
                    d.worst,
                    if d.missed > 0 {
                        format!(" ({} missed)", d.missed)
                    } else {
                        String::new()
                    }
                ),
            ),
            None => ("-".into(), "-".into(), "-".into(), "-".into()),
        };
        line(format!(
            "| {} | {} | {} | {} | {} | {} | {:.3} | {best_mean} | {best_p95} | {ratio_mean} | \
             {ratio_p95} | {detour_mean} | {detour_p95} | {detour_ratio} | {detour_excess} | \
             {:.3} | {} | {} | {} |",
            r.name,
            r.queries,
            us(r.ours.mean),
            us(r.ours.p95),
            us(r.theirs.mean),
            us(r.theirs.p95),
            r.ours.mean / r.theirs.mean,
            r.index.build_time.as_secs_f64(),
            r.index.corners,
            r.index.edges,
            r.index.heap_bytes,
        ));
    }
    line(String::new());
    line(
        "- **polyanya cells**: polyanya 0.18 on a mesh of exactly the world's open cells (region \
         borders and the 48-tile cell limit cut it), the same ground our search walks.\n\
         - **polyanya best**: polyanya on greedy whole-map rectangles, which nothing cuts: the \
         competitor at its best (Moving AI maps only; generated worlds have no grid to build \
         them from).\n\
         - **Detour**: recastnavigation's Detour (`findPath` + `findStraightPath`) on the same \
         rectangles as polyanya best (the world's cells on generated worlds), cut into convex \
         polygons of at most 6 vertices; its paths are approximate, and the excess column says \
         by how much (mean over the queries, and the worst ratio to the optimum). `-`: the mesh \
         does not fit one Detour tile.\n\
         - **index**: `PathIndex::build`, built once per world before the queries: its build \
         time, its corners and visibility edges, and its heap bytes (with, on the worlds small \
         enough for one, the table of distances between every two corners: arena, rmtst01, \
         maze512-32-9)."
            .into(),
    );
    line(String::new());
    line("Targets:".into());
    line(String::new());
    for target in targets(rows) {
        line(format!("- {target}"));
    }
    out
}
