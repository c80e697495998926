//! `silknav import-movingai MAP --out DIR`: a Moving AI grid map as a world (a data root).

use crate::exit::Status;
use crate::input;
use crate::output::{self, STDOUT};
use crate::progress::Progress;
use crate::values;
use anyhow::Context;
use jmxv::RegionId;
use silknav::files::{WorldFiles, MAPINFO, NAVMESH_FOLDER, OBJECT_IFO, TILE2D_IFO};
use silknav::movingai::GridMap;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `silknav import-movingai`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Moving AI map (`.map`: `type`, `height H`, `width W`, `map`, then H rows); `-` reads
    /// standard input
    #[arg(value_name = "MAP")]
    map: PathBuf,
    /// Data root to write the world into (created when missing): DIR/navmesh/ holds the files
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Region coordinates of the region whose corner holds the map's cell (0, 0)
    #[arg(long, value_name = "X,Z", default_value = "0,0", value_parser = values::origin)]
    origin: (u8, u8),
    /// Replace files of the same names in DIR
    #[arg(long)]
    force: bool,
}

/// Imports the map: map cell (x, y) becomes the 20-unit tile at world
/// `(origin_x·1920 + 20x, origin_z·1920 + 20y)`; `.`, `G` and `S` are open, every other
/// character is blocked, and tiles past the map's edge are blocked.
///
/// # Errors
/// The map is unreadable or malformed (`MAP: line N: what`), too big for the origin, a file
/// exists (without `--force`), or an I/O error.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let name = || args.map.display().to_string();
    let bytes = input::read(&args.map)?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| anyhow::anyhow!("not text: {e}"))
        .with_context(name)?;
    let map = GridMap::parse(text).with_context(name)?;

    let (span_x, span_z) = map.region_span();
    let (ox, oz) = (usize::from(args.origin.0), usize::from(args.origin.1));
    if ox + span_x <= 256 && oz + span_z <= 128 {
        // Refuse before the work; beyond the id space, `to_world` below says why instead.
        let mut names: Vec<String> = (oz..oz + span_z)
            .flat_map(|z| (ox..ox + span_x).map(move |x| RegionId::new(x as u8, z as u8)))
            .map(|r| r.file_name())
            .collect();
        names.extend([MAPINFO, OBJECT_IFO, TILE2D_IFO].map(String::from));
        let names: Vec<String> = names
            .iter()
            .map(|n| format!("{NAVMESH_FOLDER}/{n}"))
            .collect();
        output::check_new_all(&args.out, &names, args.force)?;
    }
    let navmeshes = Progress::timed(format!("importing {}", name()), || {
        map.to_world(args.origin)
    })
    .with_context(name)?;
    let files = WorldFiles::with_companions(navmeshes);
    let written = Progress::timed(format!("writing {}", args.out.display()), || {
        output::write_world(&args.out, &files, args.force)
    })?;

    let open = map.open.iter().filter(|&&o| o).count();
    const REGION: usize = silknav::geometry::REGION_SIZE as usize;
    let mut out = output::stdout();
    writeln!(out, "{written}").context(STDOUT)?;
    writeln!(
        out,
        "{}: {}x{} cells, {open} open; cell (x, y) is the tile at world x {} + 20·x, z {} + 20·y; world {}",
        name(),
        map.width,
        map.height,
        ox * REGION,
        oz * REGION,
        output::world_extent(files.navmeshes.keys().copied())
    )
    .context(STDOUT)?;
    out.flush().context(STDOUT)?;
    Ok(Status::Success)
}
