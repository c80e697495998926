//! `silknav path DIR X1 Z1 X2 Z2 [--y Y] [--exact] [--objects] [--clearance C] [--radius R]`:
//! the shortest path from the start to the goal, walkable by the server's walk (each leg
//! arrives under `silknav move`), or with `--exact` the exact optimum, whose waypoints sit on
//! the corners of blocked ground; with `--radius R`, for a walker of radius R, keeping R from
//! every wall. With `--y` (or a fifth number on a batch line) the walker starts on the surface
//! nearest that height, as `silknav move --y` does: under a bridge's deck rather than on it,
//! for `--objects` and for the JSON heights. With `--objects`, the path through and round
//! objects: the exact one with `--exact`, else that path made walkable.
//!
//! Text: `LENGTH X Z X Z …`, the length with three decimals, then the waypoints in world
//! coordinates, start and goal included; or `none REASON` when there is no path
//! (`start-blocked`, `goal-blocked`, `unreachable`, `budget-exceeded`, `not-walkable`). JSON:
//! `{"length":..,"exact_length":..,"mode":"walkable","waypoints":[[x,z],..],"cells":[{"region":"4080","cell":12},..]}`
//! (the lengths exact: the walked polyline's and the exact optimum's; the mode `walkable` or
//! `exact`; the cells the path crosses in order), or `{"length":null,"error":"unreachable"}`.
//!
//! The world's path index comes with the world when its index file (`silknav index`) is valid;
//! otherwise it is built once, after loading and before the first answer. Either way every
//! query costs only its search.

use super::{world_xz, Answer, SegmentYArgs};
use crate::exit::Status;
use crate::progress::Progress;
use silknav::query::SegmentQuery;
use silknav::{
    Navigator, PathError, PathIndex, PathIndexUse, PathOptions, PathScratch, World, WorldPath,
    DEFAULT_CLEARANCE,
};
use std::io::{self, Write};

/// Arguments of `silknav path`.
#[derive(Debug, clap::Args)]
pub struct PathArgs {
    #[command(flatten)]
    segment: SegmentYArgs,
    /// Give up a search after expanding N corners (with --objects: expanding states, walking
    /// legs and, on a world too big to keep "seen by" records, scanning rectangles for the
    /// estimate, N in all), answering `none budget-exceeded` [default: no limit]
    #[arg(long, value_name = "N")]
    budget: Option<usize>,
    /// Answer the exact shortest path, its waypoints on the corners of blocked ground (where
    /// the server's walk may refuse to start or stop at once), instead of a walkable one
    #[arg(long)]
    exact: bool,
    /// In a world with objects: the path through doorways, over bridges and round
    /// buildings, found as the exact path by the objects' line of sight (turning 0.01 off
    /// their vertices; far slower than the terrain's), then made walkable (without --exact)
    #[arg(long)]
    objects: bool,
    /// How far a walkable path's turning points lie off the corners, along x and along z,
    /// in world units (more than 0, less than 10)
    #[arg(long, value_name = "C", default_value_t = DEFAULT_CLEARANCE, value_parser = clearance, conflicts_with = "exact")]
    clearance: f64,
    /// The walker's radius in world units: the path keeps at least this far from every wall
    /// and blocked tile (obstacles grown by an octagon; 0: a point) [up to 960]
    #[arg(long, value_name = "R", default_value_t = 0.0, value_parser = radius)]
    radius: f64,
}

/// A radius on the command line: one [`PathOptions::with_radius`] takes.
fn radius(s: &str) -> Result<f64, String> {
    let r: f64 = s.parse().map_err(|e| format!("{e}"))?;
    PathOptions::new()
        .with_radius(r)
        .map(|_| r)
        .map_err(|e| e.to_string())
}

/// A clearance on the command line: one [`PathOptions::with_clearance`] takes.
fn clearance(s: &str) -> Result<f64, String> {
    let c: f64 = s.parse().map_err(|e| format!("{e}"))?;
    PathOptions::new()
        .with_clearance(c)
        .map(|_| c)
        .map_err(|e| e.to_string())
}

impl PathArgs {
    /// The path options the arguments ask for.
    ///
    /// # Errors
    /// Options that contradict each other ([`silknav::PathOptionsError`]).
    fn options(&self) -> Result<PathOptions, silknav::PathOptionsError> {
        let options = if self.exact {
            PathOptions::exact()
        } else {
            PathOptions::new().with_clearance(self.clearance)?
        };
        options.with_objects(self.objects)?.with_radius(self.radius)
    }
}

/// The shortest path between two points, as the library's [`silknav::query::path`] finds
/// it, and the world for the JSON answer's cells.
pub struct PathAnswer<'w> {
    /// The world searched.
    pub world: &'w World,
    /// The path, or why there is none.
    pub path: Result<WorldPath, PathError>,
    /// The walker's height at the start, when given.
    pub start_y: Option<f32>,
}

/// The walkable path from (x1, z1) to (x2, z2). A start outside the terrain id space is
/// blocked, and so is such a goal.
///
/// # Errors
/// As for [`PathIndex::find_path`].
pub fn find(
    world: &World,
    paths: &PathIndex,
    n: [f64; 4],
    scratch: &mut PathScratch,
) -> Result<WorldPath, PathError> {
    find_with(world, paths, n, None, &PathOptions::default(), scratch)
}

/// [`find`] in the dungeon if any, with [`PathOptions`].
///
/// # Errors
/// As for [`PathIndex::find_path`].
pub fn find_with(
    world: &World,
    paths: &PathIndex,
    n: [f64; 4],
    dungeon: Option<u16>,
    options: &PathOptions,
    scratch: &mut PathScratch,
) -> Result<WorldPath, PathError> {
    let q = SegmentQuery {
        dungeon,
        ..SegmentQuery::new(n[0], n[1], n[2], n[3])
    };
    silknav::query::path(world, paths, q, options, scratch)
}

/// Answers one query: numbers are `x1 z1 x2 z2`, and `y` the walker's height at the start
/// when given ([`silknav::query::path`] starts there).
pub fn ask<'w>(
    world: &'w World,
    paths: &PathIndex,
    n: &[f64],
    dungeon: Option<u16>,
    y: Option<f32>,
    options: &PathOptions,
    scratch: &mut PathScratch,
) -> PathAnswer<'w> {
    let q = SegmentQuery {
        dungeon,
        y,
        ..SegmentQuery::new(n[0], n[1], n[2], n[3])
    };
    PathAnswer {
        world,
        path: silknav::query::path(world, paths, q, options, scratch),
        start_y: y,
    }
}

/// Builds the world's path index unless it came with the world (its index file), with a
/// progress line when that takes more than a second.
pub fn prepare<'n>(nav: &'n Navigator, label: &str) -> &'n PathIndex {
    if nav.has_paths() {
        return nav.paths();
    }
    let progress = Progress::counting(format!("indexing {label} for paths"), "corners");
    nav.paths_with_progress(|done, total| progress.update(done, total))
}

/// Runs `silknav path`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &PathArgs) -> anyhow::Result<Status> {
    let world_args = &args.segment.segment.world;
    let nav = world_args.load_paths(PathIndexUse::IfValid)?;
    let paths = prepare(&nav, &world_args.name());
    let world = nav.world();
    let mut scratch = match args.budget {
        Some(n) => PathScratch::with_budget(n),
        None => PathScratch::new(),
    };
    let options = args.options()?;
    let default_y = args.segment.y;
    super::answer(
        world,
        world_args.json,
        args.segment.numbers(),
        (4, 5),
        |_, n| {
            let y = n.get(4).copied().or(default_y).map(|y| y as f32);
            ask(
                world,
                paths,
                n,
                world_args.dungeon,
                y,
                &options,
                &mut scratch,
            )
        },
    )
}

/// The text answer: `LENGTH X Z X Z …` or `none REASON`, without a line break.
pub fn text(path: &Result<WorldPath, PathError>) -> String {
    let mut line = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = write_text(&mut line, path);
    String::from_utf8(line).unwrap_or_default()
}

fn write_text(out: &mut dyn Write, path: &Result<WorldPath, PathError>) -> io::Result<()> {
    match path {
        Ok(p) => write_path(out, p),
        Err(e) => write!(out, "none {}", e.word()),
    }
}

/// The text answer of a path that was found: `LENGTH X Z X Z …`.
pub fn path_text(path: &WorldPath) -> String {
    let mut line = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = write_path(&mut line, path);
    String::from_utf8(line).unwrap_or_default()
}

fn write_path(out: &mut dyn Write, path: &WorldPath) -> io::Result<()> {
    // Three decimals: the waypoints are f32 in their regions, good to about 1e-4 units, so
    // more digits of the sum would be noise; JSON has the exact value.
    write!(out, "{:.3}", path.length)?;
    for &w in &path.waypoints {
        let (x, z) = world_xz(w);
        write!(out, " {x} {z}")?;
    }
    Ok(())
}

impl Answer for PathAnswer<'_> {
    fn is_yes(&self) -> bool {
        self.path.is_ok()
    }

    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        write_text(out, &self.path)
    }

    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        super::write_json(
            out,
            &silknav::json::path_from(self.world, &self.path, self.start_y),
        )
    }
}
