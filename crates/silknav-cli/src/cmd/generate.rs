//! `silknav gen --out DIR`: a generated, game-like world folder.

use crate::exit::Status;
use crate::output::{self, STDOUT};
use crate::progress::Progress;
use crate::values;
use anyhow::Context;
use silknav::files::{MAPINFO, NAVMESH_FOLDER, OBJECT_IFO, TILE2D_IFO};
use silknav::worldgen::{generate_with_progress, GenOptions, Landscape, DEFAULT_ORIGIN};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `silknav gen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Data root to write the world into (created when missing): DIR/navmesh/ holds the
    /// navmeshes and their companions, DIR/res/ the object meshes
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Everything random derives from the seed: the same seed and size give the same bytes
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Regions along x (west to east) and z (south to north)
    #[arg(long, value_name = "WxH", default_value = "2x2", value_parser = values::size)]
    size: (u8, u8),
    /// Region coordinates of the south-west region [default: 128,64]
    #[arg(long, value_name = "X,Z", value_parser = values::origin)]
    origin: Option<(u8, u8)>,
    /// Open ground with scattered boulders (no terraced cliffs, badlands or rock masses, few
    /// fortresses) instead of the rugged default
    #[arg(long)]
    open: bool,
    /// Replace files of the same names in DIR
    #[arg(long)]
    force: bool,
}

/// Generates the world and writes its data root: `navmesh/` with one `nv_XXXX.nvm` per region,
/// `mapinfo.mfo`, `object.ifo` and `tile2d.ifo`, and the object meshes under `res/`.
///
/// # Errors
/// Options that describe no world (the generator's message), a file that exists (without
/// `--force`), or an I/O error.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let options = GenOptions {
        seed: args.seed,
        width: args.size.0,
        height: args.size.1,
        origin: args.origin.unwrap_or(DEFAULT_ORIGIN),
        landscape: if args.open {
            Landscape::Open
        } else {
            Landscape::Rugged
        },
    };
    let regions = options.regions()?;
    // Refuse before the work: a big world takes a while to generate.
    let mut names: Vec<String> = regions.iter().map(|r| r.file_name()).collect();
    names.extend([MAPINFO, OBJECT_IFO, TILE2D_IFO].map(String::from));
    let names: Vec<String> = names
        .iter()
        .map(|n| format!("{NAVMESH_FOLDER}/{n}"))
        .collect();
    output::check_new_all(&args.out, &names, args.force)?;

    let progress = Progress::counting("generating", "regions");
    let world = generate_with_progress(&options, |done, total| progress.update(done, total))?;
    drop(progress);
    let files = world.into_files();
    let written = Progress::timed(format!("writing {}", args.out.display()), || {
        output::write_world(&args.out, &files, args.force)
    })?;

    let mut out = output::stdout();
    writeln!(out, "{written}").context(STDOUT)?;
    writeln!(
        out,
        "{}: seed {}, {}x{} regions from region x {} z {}; world {}",
        args.out.display(),
        options.seed,
        options.width,
        options.height,
        options.origin.0,
        options.origin.1,
        output::world_extent(files.navmeshes.keys().copied())
    )
    .context(STDOUT)?;
    out.flush().context(STDOUT)?;
    Ok(Status::Success)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_documented_default_origin_is_the_generators() {
        // The help text and docs/cli.md say 128,64.
        assert_eq!(silknav::worldgen::DEFAULT_ORIGIN, (128, 64));
    }
}
