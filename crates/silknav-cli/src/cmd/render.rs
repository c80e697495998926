//! `silknav render PATH -o OUT.png`: a picture of a world (a folder or a PK2 archive) or of one
//! navmesh file, with shortest paths drawn over it (`--path X1 Z1 X2 Z2`, repeatable); with
//! `--dungeon ID [--floor N]`, one floor of a dungeon of the world.

use super::query::find_path;
use crate::exit::Status;
use crate::input::{self, GameFile, KeyArgs, ParseArgs};
use crate::output::{self, STDOUT};
use crate::progress::Progress;
use crate::values;
use anyhow::{anyhow, Context};
use jmxv::mfo::MapInfo;
use jmxv::nvm::NavMesh;
use jmxv::RegionId;
use silknav::files::{WorldFiles, WorldOrFile, WorldSource};
use silknav::pk2_archive::Key;
use silknav::{LoadOptions, Navigator, PathError, PathOptions, PathScratch, World, WorldPath};
use silknav_render::{
    render_dungeon, render_world, DungeonFloor, ObjectShapes, Overlay, Picture, Pin, RenderError,
    RenderOptions, PATH_COLOURS, PATH_COLOUR_NAMES,
};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `silknav render`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A world (a folder, a PK2 archive or a folder in one: Data.pk2:navmesh), or one navmesh
    /// file (on disk or in an archive)
    #[arg(value_name = "PATH")]
    path: PathBuf,
    /// The PNG file to write (atomically)
    #[arg(short, long, value_name = "OUT.png", required = true)]
    output: PathBuf,
    /// Draw only this region: 4 hex digits (4080) or a file name (nv_4080.nvm). For a single
    /// file whose name does not say its region, the region it is
    #[arg(long, value_name = "ID", value_parser = values::region, conflicts_with = "dungeon")]
    region: Option<RegionId>,
    /// Draw one floor of the dungeon with this id in dungeoninfo.txt (region 0x8000 | ID), in
    /// the dungeon's own coordinates; `--path` points are the dungeon's too
    #[arg(long, value_name = "ID")]
    dungeon: Option<u16>,
    /// With --dungeon: the floor to draw, by the blocks' floor index [default: the lowest]
    #[arg(long, value_name = "N", requires = "dungeon")]
    floor: Option<u32>,
    /// Pixels per tile (a tile is 20 units, a region 96 tiles) [default: up to 8, less to keep
    /// the picture within 4096 pixels]
    #[arg(long, value_name = "N")]
    scale: Option<f32>,
    /// Draw the shortest path from (X1, Z1) to (X2, Z2), in world coordinates, as `silknav
    /// path` finds it; repeatable
    #[arg(
        long = "path",
        value_names = ["X1", "Z1", "X2", "Z2"],
        num_args = 4,
        action = clap::ArgAction::Append,
        allow_negative_numbers = true,
        value_parser = values::coordinate,
    )]
    paths: Vec<f64>,
    /// Replace OUT.png if it exists
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    key: KeyArgs,
}

/// Draws the world (or the one region), with the paths asked for, and writes the PNG.
///
/// # Errors
/// The input is unreadable, the region is not in it, the scale is not usable, or the output
/// cannot be written (or exists, without `--force`).
pub fn run(args: &Args) -> anyhow::Result<Status> {
    output::check_can_create(&args.output, args.force)?;
    if let Some(id) = args.dungeon {
        return run_dungeon(args, id);
    }
    let files = read_meshes(&args.path, args.region, &args.key.key()?)?;
    let (meshes, mapinfo) = (&files.navmeshes, files.mapinfo.clone());
    let options = RenderOptions {
        scale: args.scale,
        region: args.region,
        ..RenderOptions::default()
    };
    let queries = path_queries(&args.paths);
    let found = if queries.is_empty() {
        Vec::new()
    } else {
        find_paths(&args.path, meshes, mapinfo.as_ref(), &queries)
    };
    let overlay = paths_overlay(&queries, &found);
    let shapes = object_shapes(&files);
    let line = draw_and_save(
        &args.output,
        meshes,
        &shapes,
        &options,
        &overlay,
        args.force,
    )
    .with_context(|| args.path.display().to_string())?;
    write_answer(&line, &found)
}

/// Writes the picture's line and one line per path, and says whether every path was found.
fn write_answer(line: &str, found: &[Result<WorldPath, PathError>]) -> anyhow::Result<Status> {
    let mut out = output::stdout();
    writeln!(out, "{line}").context(STDOUT)?;
    for (i, path) in found.iter().enumerate() {
        writeln!(
            out,
            "path {} ({}): {}",
            i + 1,
            colour_name(i),
            find_path::text(path)
        )
        .context(STDOUT)?;
    }
    out.flush().context(STDOUT)?;
    Ok(if found.iter().all(Result::is_ok) {
        Status::Success
    } else {
        Status::No
    })
}

/// Draws one floor of dungeon `id`, with the paths asked for (found in the dungeon on the
/// world the query commands load), and writes the PNG.
fn run_dungeon(args: &Args, id: u16) -> anyhow::Result<Status> {
    let name = args.path.display().to_string();
    let source = match input::open_input(&args.path, &args.key.key()?)? {
        WorldOrFile::World(source) => source,
        WorldOrFile::File { .. } => anyhow::bail!("{name}: --dungeon draws a dungeon of a world"),
    };
    let files = Progress::timed(format!("reading {name}"), || WorldFiles::read(&source))
        .map_err(|e| anyhow!(e))?;
    let floor = DungeonFloor::of(&files.dungeons, RegionId(0x8000 | id), args.floor).map_err(
        |e| match e {
            RenderError::NoDungeon { .. } => anyhow!("{name}: --dungeon {id}: {e}"),
            _ => anyhow!("{name}: dungeon {id}: {e}"),
        },
    )?;
    let queries = path_queries(&args.paths);
    let found = if queries.is_empty() {
        Vec::new()
    } else {
        find_dungeon_paths(&source, &args.path, id, &queries)?
    };
    let overlay = paths_overlay(&queries, &found);
    let options = RenderOptions {
        scale: args.scale,
        ..RenderOptions::default()
    };
    let line = save_picture(&args.output, args.force, || {
        render_dungeon(&floor.map, &options, &overlay)
    })
    .with_context(|| name.clone())?;
    let floors: Vec<String> = floor.floors.iter().map(u32::to_string).collect();
    let line = format!(
        "{line}, dungeon {id} floor {} (floors {})",
        floor.floor,
        floors.join(", ")
    );
    write_answer(&line, &found)
}

/// The paths in dungeon `id`, as `silknav path --dungeon` finds them.
///
/// # Errors
/// The world cannot be loaded, or the dungeon is not loaded in it.
fn find_dungeon_paths(
    source: &WorldSource,
    input: &Path,
    id: u16,
    queries: &[[f64; 4]],
) -> anyhow::Result<Vec<Result<WorldPath, PathError>>> {
    let world = Progress::timed(format!("loading {}", input.display()), || {
        World::load_source(source, &LoadOptions::default())
    })
    .map_err(|e| anyhow!(e))?;
    let nav = Navigator::new(world);
    super::query::check_dungeon(&nav, input, id)?;
    let paths = find_path::prepare(&nav, &input.display().to_string());
    let mut scratch = PathScratch::new();
    Ok(queries
        .iter()
        .map(|&q| {
            find_path::find_with(
                nav.world(),
                paths,
                q,
                Some(id),
                &PathOptions::default(),
                &mut scratch,
            )
        })
        .collect())
}

/// The `--path` numbers as queries.
fn path_queries(numbers: &[f64]) -> Vec<[f64; 4]> {
    numbers
        .chunks_exact(4)
        .map(|q| [q[0], q[1], q[2], q[3]])
        .collect()
}

/// The files of a world (its navmeshes, companions and object meshes), or the one navmesh
/// file (whose region is its name's or `region`).
fn read_meshes(path: &Path, region: Option<RegionId>, key: &Key) -> anyhow::Result<WorldFiles> {
    let bytes = match input::open_input(path, key)? {
        WorldOrFile::World(source) => {
            return Progress::timed(format!("reading {}", path.display()), || {
                WorldFiles::read(&source)
            })
            .map_err(|e| anyhow!(e))
        }
        WorldOrFile::File { bytes, .. } => bytes,
    };
    let file = match input::parse_game_file(path, &bytes, ParseArgs::default())? {
        GameFile::Nvm(file) => file,
        other => anyhow::bail!(
            "{}: {}; render draws worlds and navmesh files",
            path.display(),
            other.description()
        ),
    };
    let id = input::region_of(path).or(region).ok_or_else(|| {
        anyhow!(
            "{}: the file name does not say the region (nv_XXXX.nvm); name it with --region",
            path.display()
        )
    })?;
    Ok(WorldFiles {
        navmeshes: BTreeMap::from([(id, file.mesh)]),
        ..WorldFiles::default()
    })
}

/// The navigation sections of the world's object meshes by object id, for the picture.
pub fn object_shapes(files: &WorldFiles) -> ObjectShapes<'_> {
    files
        .object_ifo
        .as_ref()
        .map(|ifo| silknav_render::object_shapes(ifo, &files.object_files))
        .unwrap_or_default()
}

/// The shortest paths, on the world the query commands would load from the same files: the
/// regions `mapinfo.mfo` enables (all without it), so that a drawn path is the one `silknav
/// path` answers.
fn find_paths(
    input: &Path,
    meshes: &BTreeMap<RegionId, NavMesh>,
    mapinfo: Option<&MapInfo>,
    queries: &[[f64; 4]],
) -> Vec<Result<WorldPath, PathError>> {
    let enabled = |r: &RegionId| match mapinfo {
        Some(m) => m.is_enabled(*r),
        None => true,
    };
    let world = World::from_navmeshes(
        meshes
            .iter()
            .filter(|(r, _)| enabled(r))
            .map(|(&r, m)| (r, m)),
    );
    let nav = Navigator::new(world);
    let paths = find_path::prepare(&nav, &input.display().to_string());
    let mut scratch = PathScratch::new();
    queries
        .iter()
        .map(|&q| find_path::find(nav.world(), paths, q, &mut scratch))
        .collect()
}

/// The paths as an overlay, the `i`-th in colour `i`. A missing path keeps its place (and so
/// the colours of the others) as an empty line, and its ends are marked by pins in its colour,
/// the start labelled with the reason.
fn paths_overlay(queries: &[[f64; 4]], found: &[Result<WorldPath, PathError>]) -> Overlay {
    let mut overlay = Overlay::default();
    for (i, (q, path)) in queries.iter().zip(found).enumerate() {
        match path {
            Ok(p) => overlay.paths.push(
                p.waypoints
                    .iter()
                    .map(|w| [w.world_x(), w.world_z()])
                    .collect(),
            ),
            Err(e) => {
                overlay.paths.push(Vec::new());
                let colour = PATH_COLOURS[i % PATH_COLOURS.len()];
                overlay.points.push(Pin {
                    at: [q[0], q[1]],
                    colour,
                    label: format!("path {}: none {}", i + 1, e.word()),
                });
                overlay.points.push(Pin {
                    at: [q[2], q[3]],
                    colour,
                    label: String::new(),
                });
            }
        }
    }
    overlay
}

/// The name of the colour of the `i`-th overlay path (`cyan`).
pub fn colour_name(i: usize) -> &'static str {
    PATH_COLOUR_NAMES[i % PATH_COLOUR_NAMES.len()]
}

/// Renders, encodes and writes the PNG (with a progress line named after the output), and
/// returns the line that says what was written.
///
/// # Errors
/// The renderer's (no regions, region not in the world, bad scale, too large), or those of
/// [`output::write_file`].
pub fn draw_and_save(
    path: &Path,
    meshes: &BTreeMap<RegionId, NavMesh>,
    shapes: &ObjectShapes<'_>,
    options: &RenderOptions,
    overlay: &Overlay,
    force: bool,
) -> anyhow::Result<String> {
    save_picture(path, force, || {
        render_world(meshes, shapes, options, overlay)
    })
}

/// Draws the picture `render` makes, encodes and writes the PNG (with a progress line named
/// after the output), and returns the line that says what was written.
///
/// # Errors
/// The renderer's, or those of [`output::write_file`].
fn save_picture(
    path: &Path,
    force: bool,
    render: impl FnOnce() -> Result<Picture, RenderError>,
) -> anyhow::Result<String> {
    let (picture, png) = Progress::timed(format!("rendering {}", path.display()), || {
        render().map(|p| {
            let png = p.encode_png();
            (p, png)
        })
    })?;
    output::write_file(path, &png, force)?;
    let scale = output::short_decimal(picture.scale());
    let pixels = if scale == "1" { "pixel" } else { "pixels" };
    Ok(format!(
        "{}: {}x{} pixels, scale {scale} {pixels} per tile, {} bytes",
        path.display(),
        picture.width(),
        picture.height(),
        png.len()
    ))
}
