//! `silknav path DIR X1 Z1 X2 Z2`: the shortest path from the start to the goal.
//!
//! Text: `LENGTH X Z X Z …`, the length with three decimals, then the waypoints in world
//! coordinates, start and goal included; or `none REASON` when there is no path
//! (`start-blocked`, `goal-blocked`, `unreachable`, `budget-exceeded`). JSON:
//! `{"length":..,"waypoints":[[x,z],..],"cells":[{"region":"4080","cell":12},..]}` (the length
//! exact, the cells the path crosses in order), or `{"length":null,"error":"unreachable"}`.
//!
//! The world's path index is built once, after loading and before the first answer, so that
//! every query costs only its search.

use super::{xz_of, Answer, SegmentArgs};
use crate::exit::Status;
use crate::progress::Progress;
use serde::Serialize;
use silknav::{world_xz, CellRef, PathError, PathIndexStats, PathScratch, World, WorldPath};
use std::io::{self, Write};

/// Arguments of `silknav path`.
#[derive(Debug, clap::Args)]
pub struct PathArgs {
    #[command(flatten)]
    segment: SegmentArgs,
    /// Give up a search after expanding N corners, answering `none budget-exceeded`
    /// [default: no limit]
    #[arg(long, value_name = "N")]
    budget: Option<usize>,
}

/// The shortest path between two points, as the library's [`World::find_path`] finds it, and
/// for JSON the cells it crosses.
pub struct PathAnswer {
    /// The path, or why there is none.
    pub path: Result<WorldPath, PathError>,
    /// The cells the path crosses ([`World::path_cells`]); empty unless asked for.
    pub cells: Vec<CellRef>,
}

/// The path from (x1, z1) to (x2, z2). A start outside the terrain id space is blocked, and
/// so is such a goal.
///
/// # Errors
/// As for [`World::find_path`].
pub fn find(world: &World, n: [f64; 4], scratch: &mut PathScratch) -> Result<WorldPath, PathError> {
    world_xz::find_path(world, n, scratch)
}

/// Answers one query: numbers are `x1 z1 x2 z2`; `with_cells` adds the cells crossed.
pub fn ask(world: &World, n: &[f64], scratch: &mut PathScratch, with_cells: bool) -> PathAnswer {
    let path = find(world, [n[0], n[1], n[2], n[3]], scratch);
    let cells = match &path {
        Ok(p) if with_cells => world.path_cells(p),
        _ => Vec::new(),
    };
    PathAnswer { path, cells }
}

/// Builds the world's path index, with a progress line when that takes more than a second.
pub fn prepare(world: &World, label: &str) -> PathIndexStats {
    Progress::timed(format!("indexing {label} for paths"), || {
        world.prepare_paths()
    })
}

/// Runs `silknav path`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &PathArgs) -> anyhow::Result<Status> {
    let world_args = &args.segment.world;
    let world = super::load_with(&world_args.dir, world_args.terrain_only)?;
    prepare(&world, &world_args.dir.display().to_string());
    let mut scratch = match args.budget {
        Some(n) => PathScratch::with_budget(n),
        None => PathScratch::new(),
    };
    let json = world_args.json;
    super::answer(&world, json, args.segment.numbers(), (4, 4), |w, n| {
        ask(w, n, &mut scratch, json)
    })
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
        let (x, z) = xz_of(w);
        write!(out, " {x} {z}")?;
    }
    Ok(())
}

#[derive(Serialize)]
struct PathJson {
    length: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    waypoints: Option<Vec<[f64; 2]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cells: Option<Vec<CellJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'static str>,
}

#[derive(Serialize)]
struct CellJson {
    region: String,
    cell: u16,
}

impl Answer for PathAnswer {
    fn is_yes(&self) -> bool {
        self.path.is_ok()
    }

    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        write_text(out, &self.path)
    }

    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        let json = match &self.path {
            Ok(p) => PathJson {
                length: Some(p.length),
                waypoints: Some(
                    p.waypoints
                        .iter()
                        .map(|&w| {
                            let (x, z) = xz_of(w);
                            [x, z]
                        })
                        .collect(),
                ),
                cells: Some(
                    self.cells
                        .iter()
                        .map(|c| CellJson {
                            region: c.region.to_string(),
                            cell: c.cell,
                        })
                        .collect(),
                ),
                error: None,
            },
            Err(e) => PathJson {
                length: None,
                waypoints: None,
                cells: None,
                error: Some(e.word()),
            },
        };
        serde_json::to_writer(out, &json).map_err(io::Error::from)
    }
}
