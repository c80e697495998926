//! The query commands, `cell`, `height`, `los`, `move` and `path`: a world (a folder or a PK2
//! archive) loaded once, then one query from the command line or a batch from standard input
//! ([`batch`]).
//!
//! Coordinates are world coordinates: `x = region_x·1920 + local_x`, `z = region_z·1920 +
//! local_z`; with `--dungeon ID`, the dungeon's own (region `0x8000 | ID`). Points in answers
//! are written the same way, as the shortest decimal that reads back to the same `f64`, which
//! is exactly the library's `f32` position in its region: an answer fed back as a query names
//! the very same point.

pub mod batch;
pub mod cell;
pub mod find_path;
pub mod height;
pub mod los;
pub mod move_along;
pub mod snap;

use crate::exit::Status;
use crate::input;
use crate::output::{self, STDOUT};
use crate::progress::Progress;
use crate::values;
use anyhow::{anyhow, Context};
use serde::Serialize;
use silknav::files::resolve::ObjectProblem;
use silknav::files::WorldSource;
use silknav::pk2_archive::Key;
use silknav::query::PointQuery;
use silknav::{CellRef, Position, World};
use silknav::{LoadFindingKind, LoadOptions, Navigator, PathIndexFound, PathIndexUse};
use std::io::{self, IsTerminal, Write};
use std::path::Path;

/// The world and the output form, common to every query command.
#[derive(Debug, clap::Args)]
pub struct WorldArgs {
    #[command(flatten)]
    world: input::WorldArg,
    /// Answer in JSON lines instead of text
    #[arg(long)]
    json: bool,
    /// Load the terrain only: no object instances (buildings, gates, bridges)
    #[arg(long, conflicts_with = "dungeon")]
    terrain_only: bool,
    /// Query inside the dungeon with this id in dungeoninfo.txt (region 0x8000 | ID): the
    /// coordinates are the dungeon's own, negative allowed
    #[arg(long, value_name = "ID", value_parser = clap::value_parser!(u16).range(0..0x8000))]
    pub(crate) dungeon: Option<u16>,
}

impl WorldArgs {
    /// The world as named on the command line.
    pub fn name(&self) -> String {
        self.world.path.display().to_string()
    }

    /// Loads the world ([`load_with`]), using its path index file as `paths` says.
    ///
    /// # Errors
    /// As for [`load`].
    pub fn load_paths(&self, paths: PathIndexUse) -> anyhow::Result<Navigator> {
        let source = self.world.open()?;
        let nav = load_with(&source, self.terrain_only, paths)?;
        if let Some(id) = self.dungeon {
            check_dungeon(&nav, &self.world.path, id)?;
        }
        Ok(nav)
    }
}

/// A command that takes one point and an optional reference height: `X Z [--y Y]`, or a batch
/// of `X Z` or `X Z Y` lines on standard input.
#[derive(Debug, clap::Args)]
pub struct PointYArgs {
    #[command(flatten)]
    point: PointArgs,
    /// Reference height: the object floor or ground nearest it answers (in a batch, the
    /// height of lines with only X Z)
    #[arg(long, value_name = "Y", allow_negative_numbers = true, value_parser = values::coordinate)]
    y: Option<f64>,
}

impl PointYArgs {
    /// The command line's numbers: `x z`, or `x z y` with `--y`.
    fn numbers(&self) -> Option<Vec<f64>> {
        let mut numbers = self.point.numbers()?;
        numbers.extend(self.y);
        Some(numbers)
    }
}

/// Runs a point command whose queries take an optional third number, the reference height
/// (`--y` when a batch line has none).
///
/// # Errors
/// As for the query commands.
fn run_with_y<A: Answer>(
    args: &PointYArgs,
    mut ask: impl FnMut(&World, PointQuery) -> A,
) -> anyhow::Result<Status> {
    let default_y = args.y;
    let dungeon = args.point.world.dungeon;
    run_range(
        &args.point.world,
        args.numbers(),
        (2, 3),
        move |world, n| {
            let y = n.get(2).copied().or(default_y).map(|y| y as f32);
            ask(
                world,
                PointQuery {
                    x: n[0],
                    z: n[1],
                    y,
                    dungeon,
                },
            )
        },
    )
}

/// Refuses `--dungeon ID` when the world has no such dungeon loaded, saying why.
///
/// # Errors
/// The dungeon is not loaded.
pub(crate) fn check_dungeon(nav: &Navigator, world: &Path, id: u16) -> anyhow::Result<()> {
    let region = silknav::jmxv::RegionId(0x8000 | id);
    if nav.world().dungeon(region).is_some() {
        return Ok(());
    }
    let why = nav
        .world()
        .load_report()
        .findings
        .iter()
        .find(|f| f.region == region)
        .map_or_else(
            || "dungeon\\dungeoninfo.txt names no such dungeon".to_owned(),
            ToString::to_string,
        );
    let loaded: Vec<String> = nav
        .world()
        .dungeons()
        .map(|d| (d.region().0 & 0x7FFF).to_string())
        .collect();
    let loaded = if loaded.is_empty() {
        "none".to_owned()
    } else {
        loaded.join(", ")
    };
    Err(anyhow!(
        "{}: --dungeon {id}: not loaded ({why}); loaded dungeons: {loaded}",
        world.display()
    ))
}

/// A command that takes one point: `X Z`, or a batch of them on standard input.
#[derive(Debug, clap::Args)]
pub struct PointArgs {
    #[command(flatten)]
    world: WorldArgs,
    /// World x of the point; without X Z, the queries are read from standard input
    #[arg(value_name = "X", requires = "z", allow_negative_numbers = true, value_parser = values::coordinate)]
    x: Option<f64>,
    /// World z of the point
    #[arg(value_name = "Z", allow_negative_numbers = true, value_parser = values::coordinate)]
    z: Option<f64>,
}

/// A command that takes a segment: `X1 Z1 X2 Z2`, or a batch of them on standard input.
#[derive(Debug, clap::Args)]
pub struct SegmentArgs {
    #[command(flatten)]
    pub(crate) world: WorldArgs,
    /// World x of the start; without coordinates, the queries are read from standard input
    #[arg(value_name = "X1", requires = "z2", allow_negative_numbers = true, value_parser = values::coordinate)]
    x1: Option<f64>,
    /// World z of the start
    #[arg(value_name = "Z1", allow_negative_numbers = true, value_parser = values::coordinate)]
    z1: Option<f64>,
    /// World x of the end
    #[arg(value_name = "X2", allow_negative_numbers = true, value_parser = values::coordinate)]
    x2: Option<f64>,
    /// World z of the end
    #[arg(value_name = "Z2", allow_negative_numbers = true, value_parser = values::coordinate)]
    z2: Option<f64>,
}

/// A segment with an optional reference height for its start: `X1 Z1 X2 Z2 [--y Y]`, or a
/// batch of `X1 Z1 X2 Z2` or `X1 Z1 X2 Z2 Y` lines on standard input.
#[derive(Debug, clap::Args)]
pub struct SegmentYArgs {
    #[command(flatten)]
    pub(crate) segment: SegmentArgs,
    /// Reference height of the start: the segment starts on the object floor or ground
    /// nearest it (in a batch, the height of lines with only four numbers)
    #[arg(long, value_name = "Y", allow_negative_numbers = true, value_parser = values::coordinate)]
    pub(crate) y: Option<f64>,
}

impl SegmentYArgs {
    /// The command line's numbers: `x1 z1 x2 z2`, and `y` with `--y`.
    pub(crate) fn numbers(&self) -> Option<Vec<f64>> {
        let mut numbers = self.segment.numbers()?;
        numbers.extend(self.y);
        Some(numbers)
    }
}

impl PointArgs {
    fn numbers(&self) -> Option<Vec<f64>> {
        Some(vec![self.x?, self.z?])
    }
}

impl SegmentArgs {
    fn numbers(&self) -> Option<Vec<f64>> {
        Some(vec![self.x1?, self.z1?, self.x2?, self.z2?])
    }
}

/// An answer to one query, in both output forms.
pub trait Answer {
    /// Whether the answer is "yes" (a cell, a height, a clear line, a move that was made);
    /// a single query whose answer is "no" exits with 1.
    fn is_yes(&self) -> bool;

    /// The text line, without its line break.
    ///
    /// # Errors
    /// Only those of `out`.
    fn write_text(&self, out: &mut dyn Write) -> io::Result<()>;

    /// The JSON line, without its line break.
    ///
    /// # Errors
    /// Only those of `out`.
    fn write_json(&self, out: &mut dyn Write) -> io::Result<()>;
}

/// Loads the world, then answers the command line's query, or every query on standard input;
/// a query has `arity.0` to `arity.1` numbers.
///
/// # Errors
/// The world cannot be loaded, or standard input or output fails.
fn run_range<A: Answer>(
    world: &WorldArgs,
    numbers: Option<Vec<f64>>,
    arity: (usize, usize),
    ask: impl FnMut(&World, &[f64]) -> A,
) -> anyhow::Result<Status> {
    let loaded = world.load_paths(PathIndexUse::Skip)?;
    answer(loaded.world(), world.json, numbers, arity, ask)
}

/// Answers the command line's query (`numbers`), or every query on standard input, on a loaded
/// world.
///
/// # Errors
/// Standard input or output fails.
fn answer<A: Answer>(
    loaded: &World,
    json: bool,
    numbers: Option<Vec<f64>>,
    arity: (usize, usize),
    mut ask: impl FnMut(&World, &[f64]) -> A,
) -> anyhow::Result<Status> {
    let mut out = output::stdout();
    let write = |out: &mut dyn Write, answer: &A| -> io::Result<()> {
        if json {
            answer.write_json(out)?;
        } else {
            answer.write_text(out)?;
        }
        out.write_all(b"\n")
    };
    if let Some(numbers) = numbers {
        let answer = ask(loaded, &numbers);
        write(&mut out, &answer).context(STDOUT)?;
        out.flush().context(STDOUT)?;
        return Ok(if answer.is_yes() {
            Status::Success
        } else {
            Status::No
        });
    }

    let each_line = io::stdout().is_terminal();
    let mut lines = batch::Lines::new(io::stdin().lock());
    let mut malformed: Option<(usize, usize)> = None; // (count, first line)
    loop {
        let Some((number, line)) = lines
            .next(&mut out)
            .map_err(batch::BatchError::into_anyhow)?
        else {
            break;
        };
        match batch::parse_range(line, arity.0, arity.1) {
            Ok(None) => continue,
            Ok(Some((numbers, n))) => {
                write(&mut out, &ask(loaded, &numbers[..n])).context(STDOUT)?;
            }
            Err(what) => {
                let (count, _) = malformed.get_or_insert((0, number));
                *count += 1;
                if json {
                    output::json_line(
                        &mut out,
                        &MalformedJson {
                            line: number,
                            error: &what,
                        },
                    )
                } else {
                    writeln!(out, "error: line {number}: {what}")
                }
                .context(STDOUT)?;
            }
        }
        if each_line {
            out.flush().context(STDOUT)?;
        }
    }
    out.flush().context(STDOUT)?;
    match malformed {
        None => Ok(Status::Success),
        Some((count, first)) => {
            let lines = if count == 1 { "line" } else { "lines" };
            crate::exit::report(&anyhow!(
                "standard input: {count} malformed {lines} (the first is line {first}), answered with `error`"
            ));
            Ok(Status::Failed)
        }
    }
}

/// A malformed line of a batch, as a JSON line.
#[derive(Serialize)]
struct MalformedJson<'a> {
    line: usize,
    error: &'a str,
}

/// Loads a world folder once, with a progress line for big worlds, and warns on standard error
/// about what the load left out.
///
/// # Errors
/// The folder cannot be read, a file is malformed, or nothing was loaded (almost always a
/// wrong path).
pub fn load(dir: &Path) -> anyhow::Result<Navigator> {
    load_with(
        &input::open_world(dir, &Key::default())?,
        false,
        PathIndexUse::IfValid,
    )
}

/// Loads an opened world, with or without the objects, and with the world's path index file
/// used when valid or not looked for (commands without paths skip reading it), as [`load`].
///
/// # Errors
/// As for [`load`].
pub fn load_with(
    source: &WorldSource,
    terrain_only: bool,
    paths: PathIndexUse,
) -> anyhow::Result<Navigator> {
    let name = source.path();
    let progress = Progress::counting(format!("loading {}", name.display()), "files");
    let options = if terrain_only {
        LoadOptions::terrain_only()
    } else {
        LoadOptions::default()
    };
    let nav = Navigator::load_source(source, &options, paths).map_err(|e| anyhow!(e))?;
    drop(progress);
    warn_about_load(&name, &nav);
    if nav.world().regions().len() == 0 {
        return Err(anyhow!(silknav::files::LoadError::NoRegion {
            dir: name.clone()
        }));
    }
    Ok(nav)
}

/// How many warnings of one kind are listed before the rest are only counted.
const MAX_WARNINGS: usize = 10;

/// Warnings about files the game would not load, or parts of them the queries cannot use: the
/// load report's findings, each naming its file as it is spelt in the folder, listed by kind.
fn warn_about_load(dir: &Path, nav: &Navigator) {
    let report = nav.world().load_report();
    let mut err = io::stderr().lock();
    if let PathIndexFound::Unusable { path, reason, .. } = nav.index_file() {
        let _ = writeln!(
            err,
            "warning: {}: {reason}; not used, paths build the index in memory (`silknav index {} --force` writes it again)",
            path.display(),
            dir.display()
        );
    }
    let dir_name = dir.display();
    // Listed by kind, each list counting what it leaves out in its own words.
    let group = |kind: &LoadFindingKind| match kind {
        LoadFindingKind::MissingFile => 0,
        LoadFindingKind::DisabledByMapinfo => 1,
        LoadFindingKind::Dungeon | LoadFindingKind::DungeonLeftOut(_) => 2,
        // Decorations (rocks, trees) have meshes without a navigation section: nothing to
        // walk or stand on, as in the game; the load report lists them, the shell is quiet.
        LoadFindingKind::ObjectNotPlaced {
            problem: ObjectProblem::NoNavSection { .. },
            ..
        } => 5,
        LoadFindingKind::ObjectNotPlaced { .. } => 3,
        _ => 4,
    };
    let rests = [
        "enabled regions without a file",
        "files of regions not enabled; not loaded",
        "dungeons and dungeon files; not loaded",
        "",
        "problems in files",
    ];
    for (i, rest) in rests.into_iter().enumerate() {
        if i == 3 {
            // A world copied without its object files lists thousands: one line says it.
            let mut objects = report.findings_where(|k| group(k) == 3);
            if let Some(first) = objects.next() {
                let n = 1 + objects.count();
                let _ = writeln!(
                    err,
                    "warning: {dir_name}: {n} object instances not placed (--terrain-only \
                     loads without them); the first: {first}"
                );
            }
            continue;
        }
        warn(
            &mut err,
            report
                .findings_where(|k| group(k) == i)
                .map(ToString::to_string),
            |n| format!("{dir_name}: and {n} more {rest}"),
        );
    }
}

/// The first [`MAX_WARNINGS`] lines as warnings, then one that counts the rest.
fn warn(
    err: &mut impl Write,
    lines: impl Iterator<Item = String>,
    rest: impl FnOnce(usize) -> String,
) {
    let mut lines = lines.peekable();
    // Warnings are a courtesy: a failing standard error must not stop the queries.
    for line in lines.by_ref().take(MAX_WARNINGS) {
        let _ = writeln!(err, "warning: {line}");
    }
    let more = lines.count();
    if more > 0 {
        let _ = writeln!(err, "warning: {}", rest(more));
    }
}

/// World coordinates of a position.
fn world_xz(p: Position) -> (f64, f64) {
    (p.world_x(), p.world_z())
}

/// Writes a JSON answer, compact, without a line break.
///
/// # Errors
/// Only those of `out`.
fn write_json(out: &mut dyn Write, answer: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(out, answer).map_err(io::Error::from)
}

/// The text of a cell, as `silknav cell` prints it: `RRRR C`, with ` object OOOO:UID T` on an
/// object.
pub(crate) fn cell_words(c: CellRef) -> String {
    let mut text = format!("{} {}", c.region, c.cell);
    if let Some(o) = c.object {
        text += &format!(
            " object {}:{} {}",
            o.instance.owner(),
            o.instance.uid(),
            o.cell
        );
    }
    text
}
