//! `silknav export WORLD -o OUT.glb|OUT.obj [--region ID | --dungeon ID]`: the world, or one
//! of its dungeons, as a 3-D model ([`silknav_export`]), glTF binary or OBJ by the output's
//! extension.

use super::query::load_with;
use crate::exit::Status;
use crate::output::{self, STDOUT};
use crate::progress::Progress;
use crate::values;
use anyhow::{anyhow, bail, Context};
use jmxv::RegionId;
use silknav::files::WorldFiles;
use silknav::PathIndexUse;
use silknav_export::{build, build_dungeon, ExportOptions};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `silknav export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    world: crate::input::WorldArg,
    /// The model to write (atomically): `.glb` for glTF 2.0 binary, `.obj` for Wavefront OBJ
    #[arg(short, long, value_name = "OUT.glb|OUT.obj", required = true)]
    output: PathBuf,
    /// Export only this region (4 hex digits or a file name) and the objects it owns
    #[arg(long, value_name = "ID", value_parser = values::region, conflicts_with = "dungeon")]
    region: Option<RegionId>,
    /// Leave out the object instances (buildings, gates, bridges)
    #[arg(long, conflicts_with = "dungeon")]
    terrain_only: bool,
    /// Export the dungeon with this id in dungeoninfo.txt instead: its blocks, one group each,
    /// in the dungeon's own coordinates
    #[arg(long, value_name = "ID", value_parser = clap::value_parser!(u16).range(0..0x8000))]
    dungeon: Option<u16>,
    /// Replace the output if it exists
    #[arg(long)]
    force: bool,
}

/// The model formats, by extension.
enum Format {
    Glb,
    Obj,
}

/// Loads the world, builds the model and writes it.
///
/// # Errors
/// The output's extension is neither `.glb` nor `.obj`, it exists (without `--force`), the
/// world cannot be loaded, or the region is not in it.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let extension = args
        .output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let format = match extension.as_deref() {
        Some("glb") => Format::Glb,
        Some("obj") => Format::Obj,
        _ => bail!(
            "{}: the output's extension says the format: .glb (glTF 2.0 binary) or .obj",
            args.output.display()
        ),
    };
    output::check_can_create(&args.output, args.force)?;
    let source = args.world.open()?;
    let nav = load_with(&source, args.terrain_only, PathIndexUse::Skip)?;
    let world = nav.world();
    let model = match args.dungeon {
        Some(id) => build_dungeon(world, RegionId(0x8000 | id))
            .with_context(|| args.world.path.display().to_string())?,
        None => {
            let files = Progress::timed(format!("reading {}", args.world.path.display()), || {
                WorldFiles::read(&source)
            })
            .map_err(|e| anyhow!(e))?;
            let options = ExportOptions {
                region: args.region,
            };
            build(world, &files.navmeshes, &options)
                .with_context(|| args.world.path.display().to_string())?
        }
    };
    let bytes = match format {
        Format::Glb => model.to_glb(),
        Format::Obj => model.to_obj().into_bytes(),
    };
    output::write_file(&args.output, &bytes, args.force)?;
    let (triangles, lines) = model
        .groups
        .iter()
        .fold((0, 0), |(t, l), g| match &g.primitive {
            silknav_export::Primitive::Triangles(i) => (t + i.len() / 3, l),
            silknav_export::Primitive::Lines(i) => (t, l + i.len() / 2),
        });
    let mut out = output::stdout();
    writeln!(
        out,
        "{}: {} groups, {triangles} triangles, {lines} lines, {} bytes; origin x {} z {} \
         (game x = origin x + X, y = Y, z = origin z - Z)",
        args.output.display(),
        model.groups.len(),
        bytes.len(),
        model.origin[0],
        model.origin[1],
    )
    .context(STDOUT)?;
    out.flush().context(STDOUT)?;
    Ok(Status::Success)
}
