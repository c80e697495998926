//! `silknav corpus PATH`: statistics over every file of a folder or archive, to paste into a
//! bug report ([`silknav::corpus`]).

use crate::exit::Status;
use crate::input::{self, KeyArgs};
use crate::output::{self, STDOUT};
use crate::progress::Progress;
use anyhow::{anyhow, Context};
use silknav::corpus::{self, Corpus};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `silknav corpus`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A folder, a PK2 archive (Data.pk2: all of it), or a folder in one (Data.pk2:navmesh)
    #[arg(value_name = "PATH")]
    path: PathBuf,
    /// Print the report as one JSON object instead of text
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    key: KeyArgs,
}

/// How many unreadable files the text lists before it only counts the rest.
const LISTED: usize = 20;

/// Scans the folder or archive and prints the report.
///
/// # Errors
/// The path cannot be opened (a missing folder, a damaged archive), a folder below it cannot
/// be listed, or standard output fails. Files that cannot be read are part of the report.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let source = input::open_world(&args.path, &args.key.key()?)?;
    let report = Progress::timed(format!("reading {}", args.path.display()), || {
        corpus::scan(&source)
    })
    .map_err(|e| anyhow!(e))?;
    let mut out = output::stdout();
    if args.json {
        output::json_line(&mut out, &report).context(STDOUT)?;
    } else {
        write_text(&mut out, &report).context(STDOUT)?;
    }
    out.flush().context(STDOUT)?;
    Ok(Status::Success)
}

/// `key count, key count`, or `none`.
fn histogram(map: &BTreeMap<String, u64>) -> String {
    if map.is_empty() {
        return "none".to_owned();
    }
    map.iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `files not read` by extension, the most common first.
fn by_count(map: &BTreeMap<String, u64>) -> String {
    let mut items: Vec<(&String, &u64)> = map.iter().collect();
    items.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    items
        .iter()
        .map(|(ext, n)| {
            let ext = if ext.is_empty() { "(none)" } else { ext };
            format!(".{ext} {n}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn write_text(out: &mut impl Write, c: &Corpus) -> std::io::Result<()> {
    let not_read: u64 = c.not_read.values().sum();
    write!(
        out,
        "{}: {}, {} read ({} unreadable), {} not read",
        c.path,
        plural(c.files, "file"),
        c.read,
        c.unreadable.len(),
        not_read
    )?;
    if not_read > 0 {
        write!(out, " ({})", by_count(&c.not_read))?;
    }
    writeln!(out)?;

    let n = &c.navmeshes;
    writeln!(
        out,
        "navmeshes: {} ({}), {} dungeons",
        plural(n.files, "file"),
        n.layouts
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", "),
        n.dungeons
    )?;
    writeln!(
        out,
        "  end: {} exactly at their last section, {} with trailing bytes ({} bytes)",
        n.exact_end, n.with_trailing, n.trailing_bytes
    )?;
    writeln!(
        out,
        "  totals: {} objects, {} cells ({} open), {} global edges, {} internal edges",
        n.objects, n.cells, n.open_cells, n.global_edges, n.internal_edges
    )?;
    writeln!(out, "  tile flags: {}", histogram(&n.tile_flags))?;
    writeln!(
        out,
        "  global edge flags: {}",
        histogram(&n.global_edge_flags)
    )?;
    writeln!(
        out,
        "  internal edge flags: {}",
        histogram(&n.internal_edge_flags)
    )?;
    writeln!(
        out,
        "  direction bytes dir[0]: {}",
        histogram(&n.direction_bytes_a)
    )?;
    writeln!(
        out,
        "  direction bytes dir[1]: {}",
        histogram(&n.direction_bytes_b)
    )?;
    writeln!(out, "  plane types: {}", histogram(&n.plane_types))?;
    let d = &n.directions;
    let found = if d.found.is_empty() {
        "no named convention fits every measured edge".to_owned()
    } else {
        d.found.join(", ")
    };
    writeln!(
        out,
        "  directions: {found} (files agreeing: {}; {} not measured; {} fit no convention)",
        histogram(&d.files_agreeing),
        d.not_measured,
        d.no_convention
    )?;
    let matrix = |m: &[[u64; 4]; 4]| {
        m.iter()
            .enumerate()
            .map(|(dir, row)| format!("{dir}: {row:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    writeln!(
        out,
        "  edges by direction byte and side (-z, -x, +z, +x): dir[0] {}; dir[1] {}",
        matrix(&d.counts),
        matrix(&d.counts_b)
    )?;

    for (name, t, what) in [
        ("mapinfo.mfo", &c.mapinfo, "regions enabled"),
        ("object.ifo", &c.object_ifo, "entries"),
        ("tile2d.ifo", &c.tile2d, "entries"),
    ] {
        write!(
            out,
            "{name}: {}, {} {what}",
            plural(t.files, "file"),
            t.entries
        )?;
        if t.trailing_bytes > 0 {
            write!(out, ", {} trailing bytes", t.trailing_bytes)?;
        }
        writeln!(out)?;
    }

    let o = &c.object_meshes;
    writeln!(
        out,
        "object meshes (.bms): {} ({}), {} with a navigation section, {} without",
        plural(o.files, "file"),
        histogram(&o.versions),
        o.with_nav,
        o.without_nav
    )?;
    writeln!(out, "  nav flags: {}", histogram(&o.nav_flags))?;
    writeln!(out, "  navigation cells: {}", o.cells)?;
    writeln!(
        out,
        "  outline edge flags: {}",
        histogram(&o.outline_edge_flags)
    )?;
    writeln!(
        out,
        "  inline edge flags: {}",
        histogram(&o.inline_edge_flags)
    )?;

    let r = &c.resources;
    writeln!(
        out,
        "resources: {} .bsr, {} .cpd (by signature: {}); {} name a file ({}), {} name none",
        r.bsr,
        r.cpd,
        histogram(&r.kinds),
        r.with_target,
        histogram(&r.target_extensions),
        r.without_target
    )?;

    write_dungeons(out, c)?;

    let scope = match c.world_checks {
        "run" => "each file on its own, and between the files of the world",
        "skipped-unreadable" => {
            "each file on its own; a file of the world is unreadable, so no checks between files"
        }
        _ => "each file on its own; no world here, so no checks between files",
    };
    writeln!(out, "lint ({scope}):")?;
    if c.lint.is_empty() {
        writeln!(out, "  no findings")?;
    }
    for (code, s) in &c.lint {
        writeln!(
            out,
            "  {code} {}: {} in {}: {}",
            s.severity,
            plural(s.findings, "finding"),
            plural(s.files, "file"),
            s.meaning
        )?;
    }

    writeln!(out, "unreadable: {}", c.unreadable.len())?;
    for u in c.unreadable.iter().take(LISTED) {
        writeln!(out, "  {}: {}", u.path, u.error)?;
    }
    if c.unreadable.len() > LISTED {
        writeln!(
            out,
            "  and {} more (--json lists them all)",
            c.unreadable.len() - LISTED
        )?;
    }
    Ok(())
}

/// The lines of the dungeon files: `.dof`, `dungeoninfo.txt`, AINavData, and their comparison.
fn write_dungeons(out: &mut impl Write, c: &Corpus) -> std::io::Result<()> {
    let d = &c.dungeons;
    writeln!(
        out,
        "dungeons (.dof): {} ({}), {}, {} distinct block paths",
        plural(d.files, "file"),
        histogram(&d.layouts),
        plural(d.blocks, "block"),
        d.block_paths
    )?;
    writeln!(
        out,
        "  blocks: {} with height fog, {} with the extra group; {}",
        d.height_fog_blocks,
        d.extra_blocks,
        plural(d.lights, "light")
    )?;
    writeln!(
        out,
        "  objects by flag: {}; {}",
        histogram(&d.object_flags),
        plural(d.collision_circles, "collision circle")
    )?;
    let [w, h, l] = d.grid_max;
    writeln!(
        out,
        "  files: {} labelled; largest voxel grid {w} x {h} x {l} (width, height, length); \
         {} with unclaimed bytes ({} bytes)",
        d.labelled, d.with_unclaimed, d.unclaimed_bytes
    )?;

    let i = &c.dungeon_info;
    writeln!(
        out,
        "dungeoninfo.txt: {}, {} ({} served); service column: {} with, {} without, {} mixed",
        plural(i.files, "file"),
        plural(i.rows, "row"),
        i.served,
        i.with_service_column,
        i.without_service_column,
        i.mixed_service_column
    )?;

    let a = &c.ainav;
    let cells = match (a.cells_min, a.cells_max) {
        (Some(min), Some(max)) => format!("cells per file {min} to {max}"),
        _ => "no cells".to_owned(),
    };
    writeln!(
        out,
        "AINavData: {}, {}, {cells}; {} bytes between the sections, {} after them",
        plural(a.files, "file"),
        plural(a.blocks, "block"),
        a.gap_bytes,
        a.trailing_bytes
    )?;

    write!(
        out,
        "dungeon checks (dungeoninfo.txt and AINavData by region): "
    )?;
    match (a.unlisted, i.served_without_ainav) {
        (Some(unlisted), Some(served)) => writeln!(
            out,
            "{} for a region no row names; {} without an AINavData file",
            plural(unlisted, "AINavData file"),
            plural(served, "served row"),
        ),
        _ => {
            let why = match c.dungeon_checks {
                "no-dungeoninfo" => "no dungeoninfo.txt",
                "several-dungeoninfo" => "more than one dungeoninfo.txt",
                "skipped-unreadable" => "dungeoninfo.txt is unreadable",
                _ => "no AINavData file",
            };
            writeln!(out, "not run, {why}")
        }
    }
}

/// `1 file`, `2 files`.
fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
