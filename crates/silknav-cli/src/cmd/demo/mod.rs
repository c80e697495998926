//! `silknav demo [--out DIR]`: the whole job on a built-in world, no game files needed.
//!
//! It generates a world of 3×3 regions at a fixed seed into the data root DIR (the same files
//! as `silknav gen --out DIR --seed 1 --size 3x3`: `DIR/navmesh/`, `DIR/res/`, `DIR/dungeon/`), lints it as `silknav lint DIR` does, loads it as the
//! query commands do, picks query points from the world itself ([`points`]) and finds shortest
//! paths between far-apart open ground ([`paths`]), draws the world with the query segments and
//! the paths to `DIR/world.png`, and prints what it made, the answers, the paths, and commands
//! to try next.
//!
//! The demo replaces its own files in DIR on every run (they are the same bytes each time), but
//! refuses a folder holding navmesh files of other regions: those would join the world it
//! lints and loads, and are someone's data.

mod paths;
mod points;

use super::lint::{finding_text, lint_world_source, plural};
use super::query::{self, find_path};
use super::render;
use crate::exit::Status;
use crate::output::{self, short_decimal, STDOUT};
use crate::progress::Progress;
use anyhow::Context;
use jmxv::nvm::lint::Severity;
use jmxv::RegionId;
use paths::Route;
use points::{Building, Points};
use silknav::world::{
    movement::{MoveOptions, MoveStop},
    raycast::RayHit,
    EdgeId,
};
use silknav::worldgen::{generate_with_progress, GenOptions, Landscape, DEFAULT_ORIGIN};
use silknav::{PathIndexStats, Position, Surface, World};
use silknav_render::{Overlay, RenderOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `silknav demo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folder for the demo's files (created when missing; the demo replaces its own files in it)
    #[arg(long, value_name = "DIR", default_value = "silknav-demo")]
    out: PathBuf,
}

/// The demo world: a fixed seed, so every run shows the same world.
const OPTIONS: GenOptions = GenOptions {
    seed: 1,
    width: 3,
    height: 3,
    origin: DEFAULT_ORIGIN,
    landscape: Landscape::Rugged,
};

/// The picture's name in DIR.
const PICTURE: &str = "world.png";

/// Runs the demo.
///
/// # Errors
/// DIR holds other navmesh files or cannot be written, or a step fails (which would be a bug).
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let dir = &args.out;
    let regions = OPTIONS.regions()?;
    refuse_other_worlds(dir, &regions)?;

    let started = Instant::now();
    let progress = Progress::counting("generating", "regions");
    let generated = generate_with_progress(&OPTIONS, |done, total| progress.update(done, total))?;
    drop(progress);
    let files = generated.into_files();
    let written = Progress::timed(format!("writing {}", dir.display()), || {
        output::write_world(dir, &files, true)
    })?;
    let generate_time = started.elapsed();

    let source = crate::input::open_world(dir, &Default::default())?;
    let linted = lint_world_source(&source)?;
    let lint_files = linted.iter().filter(|f| f.exists).count();
    let findings: Vec<String> = linted
        .iter()
        .flat_map(|f| {
            f.findings
                .iter()
                .map(move |finding| format!("{}: {}", f.path.display(), finding_text(finding)))
        })
        .collect();
    let count = |severity| {
        linted
            .iter()
            .flat_map(|f| &f.findings)
            .filter(|f| f.severity == severity)
            .count()
    };
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));

    let nav = query::load(dir)?;
    let world = nav.world();
    let points = points::pick(world);
    let building = points::building(world);
    let paths = find_path::prepare(&nav, &dir.display().to_string());
    let index = paths.stats();
    let started = Instant::now();
    let routes = paths::find(world, paths);
    let route_time = started.elapsed();
    let started = Instant::now();
    let visit = points::dungeon_visit(world, paths);
    let visit_time = started.elapsed();

    let picture_path = dir.join(PICTURE);
    let mut overlay = Overlay::default();
    if let Some(p) = points {
        // Drawn in the overlay's first two colours, cyan and pink; the text below says so.
        overlay.paths.push(vec![p.b, p.a]);
        overlay.paths.push(vec![p.a, p.c]);
    }
    // The paths take the colours after the segments'.
    let mut route_colours = Vec::new();
    for route in &routes {
        route_colours.push(render::colour_name(overlay.paths.len()));
        overlay.paths.push(
            route
                .path
                .waypoints
                .iter()
                .map(|w| [w.world_x(), w.world_z()])
                .collect(),
        );
    }
    let started = Instant::now();
    let picture_line = render::draw_and_save(
        &picture_path,
        &files.navmeshes,
        &render::object_shapes(&files),
        &RenderOptions::default(),
        &overlay,
        true,
    )?;
    let render_time = started.elapsed();

    let mut text = Vec::new();
    let t = &mut text;
    writeln!(
        t,
        "silknav demo: a generated world of {}x{} regions (seed {}), linted, drawn and queried; \
         no game files needed",
        OPTIONS.width, OPTIONS.height, OPTIONS.seed
    )?;
    writeln!(t)?;
    writeln!(t, "generate  {written}")?;
    writeln!(
        t,
        "          world {}, in {:.1} s",
        output::world_extent(files.navmeshes.keys().copied()),
        generate_time.as_secs_f64()
    )?;
    writeln!(
        t,
        "lint      {}, {}, {}",
        plural(lint_files, "file"),
        plural(errors, "error"),
        plural(warnings, "warning")
    )?;
    for finding in findings.iter().take(5) {
        writeln!(t, "          {finding}")?;
    }
    if findings.len() > 5 {
        writeln!(t, "          … and {} more", findings.len() - 5)?;
    }
    writeln!(
        t,
        "render    {picture_line}, in {:.1} s",
        render_time.as_secs_f64()
    )?;
    let mut drawn = Vec::new();
    if points.is_some() {
        drawn.push("the query segments B → A in cyan and A → C in pink".to_owned());
    }
    if !routes.is_empty() {
        drawn.push(format!(
            "{} in {}",
            plural(routes.len(), "shortest path"),
            words_list(&route_colours)
        ));
    }
    if !drawn.is_empty() {
        writeln!(t, "          with {}", drawn.join(", and "))?;
    }
    writeln!(
        t,
        "load      {} from {}",
        plural(world.regions().len(), "region"),
        dir.display()
    )?;
    writeln!(t)?;
    match points {
        Some(p) => write_queries(t, world, &p, building.as_ref())?,
        None => writeln!(
            t,
            "queries   no open ground beside a wall was found to query"
        )?,
    }
    writeln!(t)?;
    write_paths(t, &routes, &route_colours, &index, route_time.as_secs_f64())?;
    writeln!(t)?;
    write_dungeon(t, world, visit.as_ref(), visit_time.as_secs_f64())?;
    writeln!(t)?;
    write_next(
        t,
        world,
        dir,
        points.as_ref(),
        building.as_ref(),
        routes.first(),
        visit.as_ref(),
    )?;
    writeln!(t)?;
    writeln!(
        t,
        "The demo replaces its own files in {} on each run; `silknav gen` replaces nothing \
         without --force.",
        dir.display()
    )?;

    let mut out = output::stdout();
    out.write_all(&text).context(STDOUT)?;
    out.flush().context(STDOUT)?;
    Ok(if errors > 0 {
        Status::Findings
    } else {
        Status::Success
    })
}

/// Refuses a folder that holds navmesh files of regions outside the demo world.
///
/// # Errors
/// Such a file exists, or the folder exists and cannot be listed.
fn refuse_other_worlds(dir: &Path, regions: &[RegionId]) -> anyhow::Result<()> {
    if !dir.exists() {
        return Ok(());
    }
    let source = crate::input::open_world(dir, &Default::default())?;
    for (_, path) in source.listing().iter() {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if RegionId::from_file_name(name).is_some_and(|r| !regions.contains(&r)) {
            anyhow::bail!(
                "{}: a navmesh of another world; the demo writes only into a folder without \
                 other navmesh files (choose another --out)",
                path.display()
            );
        }
    }
    Ok(())
}

/// The queries at the chosen points, each with the library's answer in words.
fn write_queries(
    t: &mut Vec<u8>,
    world: &World,
    p: &Points,
    building: Option<&Building>,
) -> std::io::Result<()> {
    let at = |q: [f64; 2]| Position::from_world(q[0], q[1]);
    let (Some(a), Some(b), Some(c)) = (at(p.a), at(p.b), at(p.c)) else {
        return writeln!(t, "queries   the chosen points are outside the world");
    };
    let tiles_west = ((p.a[0] - p.b[0]) / 20.0).round();
    writeln!(
        t,
        "queries   world coordinates: x = region_x·1920 + local_x, z = region_z·1920 + local_z"
    )?;
    writeln!(
        t,
        "          A = {}, open ground with a wall on its east side",
        xz(p.a)
    )?;
    writeln!(
        t,
        "          B = {}, open ground {tiles_west} tiles (of 20 units) west of A",
        xz(p.b)
    )?;
    writeln!(
        t,
        "          C = {}, the first open ground east of the wall",
        xz(p.c)
    )?;

    let cell = match world.cell_at(a, Surface::Highest) {
        Some(c) => format!("region {}, cell {}", c.region, c.cell),
        None => "none".to_owned(),
    };
    writeln!(t, "  cell A        {cell}")?;
    let height = world
        .height_at(a, Surface::Terrain)
        .map_or("none".to_owned(), |h| h.to_string());
    writeln!(t, "  height A      {height}")?;
    for (label, from, to) in [("los B → A", b, a), ("los A → C", a, c)] {
        let answer = match world.raycast(from, to, Surface::Highest) {
            Ok(None) => "clear".to_owned(),
            Ok(Some(hit)) => blocked(&hit),
            Err(e) => format!("none ({e})"),
        };
        writeln!(t, "  {label}     {answer}")?;
    }
    for (label, from, to) in [("move B → A", b, a), ("move A → C", a, c)] {
        writeln!(t, "  {label}    {}", move_words(world, from, to))?;
    }
    if let Some(w) = snap_point(world, p) {
        let answer = match at(w).and_then(|q| world.nearest_walkable(q, Surface::Highest, 100.0)) {
            // Exactly, as `silknav snap` prints it: the point is the largest f32 below the
            // wall's x, not the wall's x.
            Some(s) => format!(
                "{} {}, {} units away (region {}, cell {})",
                s.position.world_x(),
                s.position.world_z(),
                s.distance,
                s.cell.region,
                s.cell.cell
            ),
            None => "none".to_owned(),
        };
        writeln!(t, "          W = {}, blocked ground between A and C", xz(w))?;
        writeln!(t, "  snap W        {answer}")?;
    }
    if let Some(bld) = building {
        let (Some(d), Some(e), Some(f)) = (at(bld.d), at(bld.e), at(bld.f)) else {
            return Ok(());
        };
        writeln!(
            t,
            "          E = {}, on the floor of object {} (a building, gate or bridge)",
            xz(bld.e),
            bld.key
        )?;
        writeln!(
            t,
            "          D = {}, F = {}, open ground outside it",
            xz(bld.d),
            xz(bld.f)
        )?;
        writeln!(t, "  move D → E    {}", move_words(world, d, e))?;
        writeln!(t, "  move F → E    {}", move_words(world, f, e))?;
    }
    Ok(())
}

/// The first blocked tile centre east of A and west of C, if the wall has blocked ground.
fn snap_point(world: &World, p: &Points) -> Option<[f64; 2]> {
    let mut x = p.a[0] + 20.0;
    while x < p.c[0] {
        let q = [x, p.a[1]];
        if Position::from_world(q[0], q[1])
            .is_some_and(|q| world.cell_at(q, Surface::Highest).is_none())
        {
            return Some(q);
        }
        x += 20.0;
    }
    None
}

/// A walk's answer in words.
fn move_words(world: &World, from: Position, to: Position) -> String {
    match world.move_along(from, to, &MoveOptions::default()) {
        Ok(m) => {
            let mut place = format!(
                "at {}, height {}",
                xz([m.position.world_x(), m.position.world_z()]),
                m.height
            );
            if let Some(o) = m.cell.object {
                place.push_str(&format!(", on object {} (triangle {})", o.instance, o.cell));
            }
            match m.stop {
                MoveStop::Arrived => format!("arrived {place}"),
                MoveStop::Wall { region, edge } => {
                    format!("stopped by a wall {place} ({})", edge_name(region, edge))
                }
                MoveStop::NoEdge => format!("stopped where the cell has no edge {place}"),
                MoveStop::ObjectWall { edge } => {
                    format!("stopped by an object's edge {place} ({edge})")
                }
                MoveStop::Transition => {
                    format!("stopped entering or leaving an object {place}")
                }
                MoveStop::Looped => {
                    format!("circled until the server's budget ran out {place}")
                }
                MoveStop::Circle { index } => {
                    format!("stopped short of collision circle {index} {place}")
                }
            }
        }
        Err(e) => format!("none ({e})"),
    }
}

/// The paths, each with the answer `silknav path` gives for it.
fn write_paths(
    t: &mut Vec<u8>,
    routes: &[Route],
    colours: &[&str],
    index: &PathIndexStats,
    seconds: f64,
) -> std::io::Result<()> {
    if routes.is_empty() {
        return writeln!(t, "paths     no path joins far-apart open ground");
    }
    writeln!(
        t,
        "paths     shortest paths between far-apart open ground, each as `silknav path` prints \
         it:"
    )?;
    writeln!(
        t,
        "          the length, then the waypoints x z from start to goal"
    )?;
    writeln!(
        t,
        "          index: {}, {}, {}, {} MB, built in {:.1} s; {} found in {:.1} ms",
        plural(index.rects, "rectangle"),
        plural(index.corners, "corner"),
        plural(index.edges, "edge"),
        short_decimal(index.heap_bytes as f64 / 1e6),
        index.build_time.as_secs_f64(),
        plural(routes.len(), "path"),
        seconds * 1e3,
    )?;
    for (i, (route, colour)) in routes.iter().zip(colours).enumerate() {
        let region = |p: [f64; 2]| {
            Position::from_world(p[0], p[1]).map_or("-".to_owned(), |p| p.region.to_string())
        };
        writeln!(
            t,
            "  {:<14}{} → {} (regions {} → {}), {}, {}× the straight line, in {colour}",
            format!("path {}", i + 1),
            xz(route.from),
            xz(route.to),
            region(route.from),
            region(route.to),
            plural(route.path.waypoints.len(), "waypoint"),
            short_decimal(route.detour()),
        )?;
        writeln!(t, "{:16}{}", "", find_path::path_text(&route.path))?;
    }
    Ok(())
}

/// The dungeon visit: the dungeon, the cell of a point P on its lowest floor, and the path from
/// there to a point Q on its highest floor.
fn write_dungeon(
    t: &mut Vec<u8>,
    world: &World,
    visit: Option<&points::DungeonVisit>,
    seconds: f64,
) -> std::io::Result<()> {
    let Some(v) = visit else {
        return writeln!(t, "dungeon   no dungeon loaded");
    };
    let region = RegionId(0x8000 | v.id);
    let d = world
        .dungeon(region)
        .expect("the visit's dungeon is loaded");
    writeln!(
        t,
        "dungeon   {} (region {region}): {}, {} made at load, {}; coordinates are the \
         dungeon's own (`--dungeon {}`)",
        v.id,
        plural(d.block_count(), "block"),
        plural(d.links().len(), "link"),
        plural(d.collision_circles().len(), "collision circle"),
        v.id
    )?;
    let [x, z, y] = v.from;
    let cell = world
        .cell_at(Position::in_dungeon(v.id, x, z), Surface::Near(y))
        .map_or("none".to_owned(), super::query::cell_words);
    writeln!(t, "  cell P        {cell}")?;
    writeln!(t, "{:16}P = {x} {z} at y {y}, on the lowest floor", "")?;
    let [x2, z2, y2] = v.to;
    writeln!(
        t,
        "  route P → Q   the walkable path, {}, up {}, found in {:.0} ms:",
        plural(v.path.waypoints.len(), "waypoint"),
        plural(v.floors, "floor"),
        seconds * 1e3
    )?;
    writeln!(t, "{:16}Q = {x2} {z2} at y {y2}, on the highest floor", "")?;
    writeln!(t, "{:16}{}", "", find_path::path_text(&v.path))
}

/// `a`, `a and b`, `a, b and c`.
fn words_list(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [only] => (*only).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A blocked line of sight in words.
fn blocked(hit: &RayHit) -> String {
    let point = xz([hit.point.world_x(), hit.point.world_z()]);
    match hit.edge {
        Some((region, edge)) => format!("blocked at {point} by {}", edge_name(region, edge)),
        None => format!("blocked at {point}, where the walkable ground ends"),
    }
}

/// An edge named as in the JSON form of the file: `nv_4181.nvm internal_edges[12]`.
fn edge_name(region: RegionId, edge: EdgeId) -> String {
    let (list, index) = match edge {
        EdgeId::Internal(i) => ("internal_edges", i),
        EdgeId::Global(i) => ("global_edges", i),
    };
    format!("{} {list}[{index}]", region.file_name())
}

/// World coordinates for people: `247219.8 124810`.
fn xz(p: [f64; 2]) -> String {
    format!("{} {}", short_decimal(p[0]), short_decimal(p[1]))
}

/// Commands to try on what the demo made.
fn write_next(
    t: &mut Vec<u8>,
    world: &World,
    dir: &Path,
    points: Option<&Points>,
    building: Option<&Building>,
    route: Option<&Route>,
    visit: Option<&points::DungeonVisit>,
) -> std::io::Result<()> {
    let d = shell_word(&dir.display().to_string());
    let region = points
        .and_then(|p| Position::from_world(p.a[0], p.a[1]))
        .map_or(OPTIONS_FIRST_REGION, |p| p.region);
    let file = dir
        .join(silknav::files::NAVMESH_FOLDER)
        .join(region.file_name());
    let file = shell_word(&file.display().to_string());
    writeln!(t, "try next")?;
    writeln!(t, "  silknav info {file}")?;
    writeln!(t, "  silknav lint {d}")?;
    if let Some(p) = points {
        let (a, b, c) = (xz(p.a), xz(p.b), xz(p.c));
        writeln!(t, "  silknav cell {d} {a}")?;
        writeln!(t, "  silknav height {d} {a} --json")?;
        writeln!(t, "  silknav los {d} {a} {c}")?;
        writeln!(t, "  silknav move {d} {a} {c}")?;
        writeln!(t, "  printf '{b} {a}\\n{a} {c}\\n' | silknav move {d}")?;
        if let Some(w) = snap_point(world, p) {
            writeln!(t, "  silknav snap {d} {}", xz(w))?;
        }
    }
    if let Some(bld) = building {
        let (from, to) = (xz(bld.d), xz(bld.e));
        writeln!(t, "  silknav cell {d} {to}")?;
        writeln!(t, "  silknav move {d} {from} {to}")?;
    }
    if let Some(r) = route {
        let (from, to) = (xz(r.from), xz(r.to));
        writeln!(t, "  silknav path {d} {from} {to}")?;
        writeln!(t, "  silknav render {d} --path {from} {to} -o path.png")?;
    }
    if let Some(v) = visit {
        let (id, [x, z, y]) = (v.id, v.from);
        writeln!(t, "  silknav cell {d} --dungeon {id} {x} {z} --y {y}")?;
        let [x2, z2, _] = v.to;
        writeln!(
            t,
            "  silknav path {d} --dungeon {id} {x} {z} {x2} {z2} --y {y} --json"
        )?;
    }
    writeln!(t, "  silknav render {d} --region {region} -o region.png")?;
    writeln!(t, "  silknav gen --out my-world --seed 7 --size 4x2")?;
    Ok(())
}

/// The south-west region of the demo world.
const OPTIONS_FIRST_REGION: RegionId = RegionId::new(OPTIONS.origin.0, OPTIONS.origin.1);

/// `text` as one word for a POSIX shell: as it is when that is safe, else in single quotes.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=+,@%".contains(&b));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words() {
        assert_eq!(
            shell_word("silknav-demo/nv_4080.nvm"),
            "silknav-demo/nv_4080.nvm"
        );
        assert_eq!(shell_word("my demo"), "'my demo'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn lists_in_words() {
        assert_eq!(words_list(&[]), "");
        assert_eq!(words_list(&["yellow"]), "yellow");
        assert_eq!(words_list(&["yellow", "white"]), "yellow and white");
        assert_eq!(
            words_list(&["yellow", "white", "lime"]),
            "yellow, white and lime"
        );
    }

    #[test]
    fn edges_are_named_like_the_json_keys() {
        assert_eq!(
            edge_name(RegionId(0x4181), EdgeId::Internal(12)),
            "nv_4181.nvm internal_edges[12]"
        );
        assert_eq!(
            edge_name(RegionId(0x4080), EdgeId::Global(0)),
            "nv_4080.nvm global_edges[0]"
        );
    }
}
