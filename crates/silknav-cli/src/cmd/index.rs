//! `silknav index DIR`: build a world's path index and write it next to the world, so that
//! path queries of every later process answer at once.
//!
//! The file is `navmesh/silknav.index` (the same for the data root and its navmesh folder), or
//! `Data.pk2.silknav.index` beside an archive; `World::load` uses it when it matches the
//! world's navmeshes. `--check` only tells whether the file there is valid for the world.

use crate::exit::Status;
use crate::progress::Progress;
use anyhow::Context;
use silknav::files::{check_new, Overwrite};
use silknav::{PathIndex, PathIndexUse};
use std::io::Write;
use std::time::Instant;

/// Arguments of `silknav index`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    world: crate::input::WorldArg,
    /// Replace an index file that is there already (stale or not)
    #[arg(long)]
    force: bool,
    /// Write nothing: check the index file that is there (exit 0 when it is valid for the
    /// world, 1 when it is missing, stale or damaged)
    #[arg(long, conflicts_with = "force")]
    check: bool,
}

/// Runs `silknav index`.
///
/// # Errors
/// The world cannot be loaded, the index file exists (without `--force`), or it cannot be
/// written.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let source = args.world.open()?;
    let path = source.path_index_file().with_context(|| {
        format!(
            "{}: an archive in memory has no place for an index file",
            args.world.path.display()
        )
    })?;
    if args.check {
        return check(&source, &path, &args.world.path);
    }
    // Refused before minutes of work, not after.
    check_new(&path, Overwrite::from_force(args.force))?;
    let nav = crate::cmd::query::load_with(&source, true, PathIndexUse::Skip)?;
    let started = Instant::now();
    let progress = Progress::counting(format!("indexing {}", args.world.path.display()), "corners");
    let paths =
        PathIndex::build_with_progress(nav.world(), |done, total| progress.update(done, total));
    let stats = paths.stats();
    drop(progress);
    let bytes = Progress::timed(format!("writing {}", path.display()), || {
        paths.write(&path, Overwrite::from_force(args.force))
    })?;
    let mut out = crate::output::stdout();
    writeln!(
        out,
        "{}: {} regions, {} rectangles, {} corners, {} edges, {} seen-by records, {}; {}",
        path.display(),
        stats.regions,
        stats.rects,
        stats.corners,
        stats.edges,
        stats.seen_records,
        if stats.corner_table {
            "a corner table"
        } else if stats.landmarks {
            "landmarks"
        } else {
            "no landmarks"
        },
        megabytes(bytes as usize)
    )
    .context(crate::output::STDOUT)?;
    writeln!(
        out,
        "built in {:.1} s (written in {:.1} s); in memory: world {}, index {}{}",
        stats.build_time.as_secs_f64(),
        (started.elapsed() - stats.build_time).as_secs_f64(),
        megabytes(nav.world().heap_bytes()),
        megabytes(stats.heap_bytes),
        peak_resident().map_or_else(String::new, |kib| format!(
            "; peak resident {}",
            megabytes(kib * 1024)
        )),
    )
    .context(crate::output::STDOUT)?;
    out.flush().context(crate::output::STDOUT)?;
    Ok(Status::Success)
}

/// `--check`: whether the file there is valid for the world.
fn check(
    source: &silknav::files::WorldSource,
    path: &std::path::Path,
    dir: &std::path::Path,
) -> anyhow::Result<Status> {
    let nav = crate::cmd::query::load_with(source, true, PathIndexUse::Skip)?;
    let verdict = PathIndex::read(nav.world(), path).map(|paths| paths.stats());
    let mut out = crate::output::stdout();
    let status = match verdict {
        Ok(stats) => {
            // A file from before landmarks were kept is valid and exact, only slower.
            let advice = if stats.corner_table || stats.landmarks || stats.edges == 0 {
                String::new()
            } else {
                format!(
                    "; no landmarks, so long paths search more (`silknav index {} --force` adds them)",
                    dir.display()
                )
            };
            writeln!(
                out,
                "{}: valid: {} regions, {} corners, {} edges{advice}",
                path.display(),
                stats.regions,
                stats.corners,
                stats.edges
            )?;
            Status::Success
        }
        Err(e) => {
            writeln!(out, "{e}")?;
            Status::No
        }
    };
    out.flush().context(crate::output::STDOUT)?;
    Ok(status)
}

/// `12.3 MB`.
fn megabytes(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// The peak resident memory of this process in KiB (`VmHWM`), where the system tells it.
fn peak_resident() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|line| {
        let rest = line.strip_prefix("VmHWM:")?;
        rest.trim().strip_suffix("kB")?.trim().parse().ok()
    })
}
