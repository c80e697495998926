//! `silknav render PATH -o OUT.png`: a picture of a world folder or of one navmesh file.

use crate::exit::Status;
use crate::input::{self, ParseArgs};
use crate::output::{self, STDOUT};
use crate::progress::Progress;
use crate::values;
use anyhow::{anyhow, Context};
use jmxv::nvm::NavMesh;
use jmxv::RegionId;
use silknav::files::WorldFiles;
use silknav_render::{render_with_overlay, Overlay, RenderOptions};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `silknav render`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A world folder (its nv_XXXX.nvm files), or one navmesh file
    #[arg(value_name = "PATH")]
    path: PathBuf,
    /// The PNG file to write (atomically)
    #[arg(short, long, value_name = "OUT.png", required = true)]
    output: PathBuf,
    /// Draw only this region: 4 hex digits (4080) or a file name (nv_4080.nvm). For a single
    /// file whose name does not say its region, the region it is
    #[arg(long, value_name = "ID", value_parser = values::region)]
    region: Option<RegionId>,
    /// Pixels per tile (a tile is 20 units, a region 96 tiles) [default: up to 8, less to keep
    /// the picture within 4096 pixels]
    #[arg(long, value_name = "N")]
    scale: Option<f32>,
    /// Replace OUT.png if it exists
    #[arg(long)]
    force: bool,
}

/// Draws the world (or the one region) and writes the PNG.
///
/// # Errors
/// The input is unreadable, the region is not in it, the scale is not usable, or the output
/// cannot be written (or exists, without `--force`).
pub fn run(args: &Args) -> anyhow::Result<Status> {
    output::check_can_create(&args.output, args.force)?;
    let meshes = read_meshes(&args.path, args.region)?;
    let options = RenderOptions {
        scale: args.scale,
        region: args.region,
        ..RenderOptions::default()
    };
    let line = draw_and_save(
        &args.output,
        &meshes,
        &options,
        &Overlay::default(),
        args.force,
    )
    .with_context(|| args.path.display().to_string())?;
    let mut out = output::stdout();
    writeln!(out, "{line}").context(STDOUT)?;
    out.flush().context(STDOUT)?;
    Ok(Status::Success)
}

/// The navmeshes of a folder, or the one file (whose region is its name's or `region`).
fn read_meshes(
    path: &Path,
    region: Option<RegionId>,
) -> anyhow::Result<BTreeMap<RegionId, NavMesh>> {
    if path.is_dir() {
        let files = Progress::timed(format!("reading {}", path.display()), || {
            WorldFiles::read_dir(path)
        })
        .map_err(|e| anyhow!(e))?;
        return Ok(files.navmeshes);
    }
    let file = input::read_nvm(path, ParseArgs::default())?;
    let id = input::region_of(path).or(region).ok_or_else(|| {
        anyhow!(
            "{}: the file name does not say the region (nv_XXXX.nvm); name it with --region",
            path.display()
        )
    })?;
    Ok(BTreeMap::from([(id, file.mesh)]))
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
    options: &RenderOptions,
    overlay: &Overlay,
    force: bool,
) -> anyhow::Result<String> {
    let (picture, png) = Progress::timed(format!("rendering {}", path.display()), || {
        render_with_overlay(meshes, options, overlay).map(|p| {
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
