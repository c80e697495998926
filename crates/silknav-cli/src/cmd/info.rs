//! `silknav info FILE...`: what each of the game's files holds (a navmesh, an object mesh, a
//! dungeon, its routes, the dungeon list), one line per file.

use crate::exit::{self, Status};
use crate::input::{
    self, AiNavFile, BmsFile, DofFile, DungeonInfoFile, GameFile, KeyArgs, NvmFile, ParseArgs,
};
use crate::output::{self, STDOUT};
use anyhow::Context;
use jmxv::bms::OFFSET_COUNT;
use jmxv::dof::OBJECT_COLLISION;
use jmxv::RegionId;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `silknav info`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Navmesh files (nv_XXXX.nvm), object meshes (.bms) and dungeons (.dof), told apart by
    /// their signature; dungeoninfo.txt and AINavData_NNNNN.dat, by their name; on disk or in
    /// an archive (Data.pk2:navmesh/nv_694e.nvm)
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Print one JSON object per file (JSON lines) instead of text
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    parse: ParseArgs,
    #[command(flatten)]
    key: KeyArgs,
}

/// Describes every file; an unreadable one is reported and skipped.
///
/// # Errors
/// Only failures to write to standard output.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let mut out = output::stdout();
    let mut status = Status::Success;
    let key = args.key.key()?;
    for path in &args.files {
        let json = args.json;
        let written = match input::read_game_file(path, args.parse, &key) {
            Ok(GameFile::Nvm(f)) => write_line(&mut out, &NvmInfo::of(&f), json),
            Ok(GameFile::Bms(f)) => write_line(&mut out, &BmsInfo::of(&f), json),
            Ok(GameFile::Dof(f)) => write_line(&mut out, &DofInfo::of(&f), json),
            Ok(GameFile::AiNav(f)) => write_line(&mut out, &AiNavInfo::of(&f), json),
            Ok(GameFile::DungeonInfo(f)) => write_line(&mut out, &DungeonListInfo::of(&f), json),
            Err(e) => {
                // Keep stdout and stderr in order on a terminal.
                out.flush().context(STDOUT)?;
                exit::report(&e);
                status = Status::Failed;
                continue;
            }
        };
        written.context(STDOUT)?;
    }
    out.flush().context(STDOUT)?;
    Ok(status)
}

/// The facts about one file of some kind: its JSON line has the keys of the struct, its text
/// line `key=value` pairs.
trait Facts: Serialize {
    fn write_text(&self, out: &mut impl Write) -> std::io::Result<()>;
}

/// The file's line, JSON or text.
fn write_line(out: &mut impl Write, facts: &impl Facts, json: bool) -> std::io::Result<()> {
    if json {
        output::json_line(out, facts)
    } else {
        facts.write_text(out)
    }
}

/// `-` for a value a file does not have (JSON `null`).
fn or_dash(value: Option<impl ToString>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

/// `yes` or `no` in the text line (JSON `true` or `false`).
fn yes_no(value: bool) -> &'static str {
    if value {
        "yes"
    } else {
        "no"
    }
}

/// The facts about one navmesh; the JSON line has these keys, the text line `key=value` pairs.
#[derive(Serialize)]
struct NvmInfo {
    path: String,
    layout: &'static str,
    /// Four hex digits from the file name; none when the name is not `nv_XXXX.nvm`.
    region: Option<String>,
    objects: usize,
    cells: usize,
    open_cells: u32,
    global_edges: usize,
    internal_edges: usize,
    trailing: usize,
    size: usize,
}

impl NvmInfo {
    fn of(file: &NvmFile) -> NvmInfo {
        let mesh = &file.mesh;
        NvmInfo {
            path: file.path.display().to_string(),
            layout: mesh.layout.name(),
            region: input::region_name(input::region_of(&file.path)),
            objects: mesh.objects.len(),
            cells: mesh.cells.len(),
            open_cells: mesh.open_cell_count,
            global_edges: mesh.global_edges.len(),
            internal_edges: mesh.internal_edges.len(),
            trailing: mesh.trailing.len(),
            size: file.size,
        }
    }
}

impl Facts for NvmInfo {
    fn write_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(
            out,
            "{}: layout={} region={} objects={} cells={} open_cells={} global_edges={} \
             internal_edges={} trailing={} size={}",
            self.path,
            self.layout,
            self.region.as_deref().unwrap_or("-"),
            self.objects,
            self.cells,
            self.open_cells,
            self.global_edges,
            self.internal_edges,
            self.trailing,
            self.size
        )
    }
}

/// The facts about one object mesh; the JSON line has these keys, the text line `key=value`
/// pairs (`-` for the counts of a mesh without a navigation section).
#[derive(Serialize)]
struct BmsInfo {
    path: String,
    /// Always `bms`: a navmesh's line has a `layout` instead.
    kind: &'static str,
    /// The signature's four digits.
    version: &'static str,
    nav_flags: u32,
    /// The ten section offsets of the header, in file order; 0 = absent.
    offsets: [u32; OFFSET_COUNT],
    /// The navigation section's offset (the eighth); 0 = none.
    nav_offset: u32,
    vertices: Option<usize>,
    cells: Option<usize>,
    outline_edges: Option<usize>,
    inline_edges: Option<usize>,
    event_names: Option<usize>,
    /// The outline grid's width and height in tiles.
    grid: Option<[i32; 2]>,
    /// Raw bytes before and after the navigation section.
    before_nav: usize,
    after_nav: usize,
    size: usize,
}

impl BmsInfo {
    fn of(file: &BmsFile) -> BmsInfo {
        let mesh = &file.mesh;
        let nav = mesh.nav.as_ref();
        let signature = mesh.version.signature();
        BmsInfo {
            path: file.path.display().to_string(),
            kind: "bms",
            version: std::str::from_utf8(&signature[8..]).unwrap_or("?"),
            nav_flags: mesh.header.nav_flags,
            offsets: mesh.header.offsets,
            nav_offset: mesh.header.nav_offset(),
            vertices: nav.map(|n| n.vertices.len()),
            cells: nav.map(|n| n.cells.len()),
            outline_edges: nav.map(|n| n.outline_edges.len()),
            inline_edges: nav.map(|n| n.inline_edges.len()),
            event_names: nav.map(|n| n.event_names.len()),
            grid: nav.map(|n| [n.grid.width, n.grid.height]),
            before_nav: mesh.before_nav.len(),
            after_nav: mesh.after_nav.len(),
            size: file.size,
        }
    }
}

impl Facts for BmsInfo {
    fn write_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        let offsets: Vec<String> = self.offsets.iter().map(u32::to_string).collect();
        writeln!(
            out,
            "{}: kind={} version={} nav_flags=0x{:x} nav_offset={} vertices={} cells={} \
             outline_edges={} inline_edges={} event_names={} grid={} offsets={} before_nav={} \
             after_nav={} size={}",
            self.path,
            self.kind,
            self.version,
            self.nav_flags,
            self.nav_offset,
            or_dash(self.vertices),
            or_dash(self.cells),
            or_dash(self.outline_edges),
            or_dash(self.inline_edges),
            or_dash(self.event_names),
            self.grid
                .map_or_else(|| "-".to_owned(), |[w, h]| format!("{w}x{h}")),
            offsets.join(","),
            self.before_nav,
            self.after_nav,
            self.size
        )
    }
}

/// The facts about one dungeon (`.dof`); the JSON line has these keys, the text line
/// `key=value` pairs (`-` for the label counts of a file without labels).
#[derive(Serialize)]
struct DofInfo {
    path: String,
    /// Always `dof`.
    kind: &'static str,
    blocks: usize,
    /// `standard` or `legacy`.
    block_layout: &'static str,
    /// Objects placed in all blocks, and those of them that are collision circles (flag 0x2).
    objects: usize,
    collision_circles: usize,
    lights: usize,
    /// The voxel grid's width, height and length, and the voxels it stores.
    grid: [u32; 3],
    voxels: usize,
    /// Link lists.
    links: usize,
    /// Room and floor names; none without a label section.
    rooms: Option<usize>,
    floors: Option<usize>,
    groups: usize,
    /// Bytes between and after the sections that no section claims.
    unclaimed: usize,
    /// The region id of the header's info, four hex digits (not authoritative:
    /// `dungeoninfo.txt` is).
    header_region: String,
    size: usize,
}

impl DofInfo {
    fn of(file: &DofFile) -> DofInfo {
        let d = &file.dungeon;
        let objects = || d.blocks.iter().flat_map(|b| &b.objects);
        DofInfo {
            path: file.path.display().to_string(),
            kind: "dof",
            blocks: d.blocks.len(),
            block_layout: d.block_layout.name(),
            objects: objects().count(),
            collision_circles: objects().filter(|o| o.flag & OBJECT_COLLISION != 0).count(),
            lights: d.blocks.iter().map(|b| b.lights.len()).sum(),
            grid: d.grid.size,
            voxels: d.grid.voxels.len(),
            links: d.links.len(),
            rooms: d.labels.as_ref().map(|l| l.rooms.len()),
            floors: d.labels.as_ref().map(|l| l.floors.len()),
            groups: d.groups.len(),
            unclaimed: d.order.iter().map(|p| p.gap_before.len()).sum::<usize>() + d.trailing.len(),
            header_region: RegionId(d.info.region_id).to_string(),
            size: file.size,
        }
    }
}

impl Facts for DofInfo {
    fn write_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        let [w, h, l] = self.grid;
        writeln!(
            out,
            "{}: kind={} blocks={} block_layout={} objects={} collision_circles={} lights={} \
             grid={w}x{h}x{l} voxels={} links={} rooms={} floors={} groups={} unclaimed={} \
             header_region={} size={}",
            self.path,
            self.kind,
            self.blocks,
            self.block_layout,
            self.objects,
            self.collision_circles,
            self.lights,
            self.voxels,
            self.links,
            or_dash(self.rooms),
            or_dash(self.floors),
            self.groups,
            self.unclaimed,
            self.header_region,
            self.size
        )
    }
}

/// The facts about one dungeon's routes (`AINavData_NNNNN.dat`); the JSON line has these keys,
/// the text line `key=value` pairs.
#[derive(Serialize)]
struct AiNavInfo {
    path: String,
    /// Always `ainav`.
    kind: &'static str,
    /// The routing section's region id, four hex digits, and whether the file name (in
    /// decimal) names the same.
    region: String,
    name_matches: bool,
    /// The edge-centre section's region id, four hex digits.
    centre_region: String,
    blocks: usize,
    /// Cells, links and edge centres of all blocks.
    cells: u64,
    links: usize,
    edge_centres: usize,
    /// Raw bytes between the two sections, and after the last.
    gap: usize,
    trailing: usize,
    size: usize,
}

impl AiNavInfo {
    fn of(file: &AiNavFile) -> AiNavInfo {
        let nav = &file.nav;
        AiNavInfo {
            path: file.path.display().to_string(),
            kind: "ainav",
            region: nav.region.to_string(),
            name_matches: nav.region == file.name_region,
            centre_region: nav.centre_region.to_string(),
            blocks: nav.blocks.len(),
            cells: nav
                .blocks
                .iter()
                .map(|b| u64::from(b.next_edge.side()))
                .sum(),
            links: nav.blocks.iter().map(|b| b.links.len()).sum(),
            edge_centres: nav.edge_centres.iter().map(Vec::len).sum(),
            gap: nav.gap.len(),
            trailing: nav.trailing.len(),
            size: file.size,
        }
    }
}

impl Facts for AiNavInfo {
    fn write_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(
            out,
            "{}: kind={} region={} name_matches={} centre_region={} blocks={} cells={} links={} \
             edge_centres={} gap={} trailing={} size={}",
            self.path,
            self.kind,
            self.region,
            yes_no(self.name_matches),
            self.centre_region,
            self.blocks,
            self.cells,
            self.links,
            self.edge_centres,
            self.gap,
            self.trailing,
            self.size
        )
    }
}

/// The facts about the dungeon list (`dungeoninfo.txt`); the JSON line has these keys, the
/// text line `key=value` pairs.
#[derive(Serialize)]
struct DungeonListInfo {
    path: String,
    /// Always `dungeoninfo`.
    kind: &'static str,
    /// Rows, and those the server loads.
    rows: usize,
    served: usize,
    /// Whether the rows have the service column; none when they mix both forms or there are
    /// no rows.
    service_column: Option<bool>,
    size: usize,
}

impl DungeonListInfo {
    fn of(file: &DungeonInfoFile) -> DungeonListInfo {
        DungeonListInfo {
            path: file.path.display().to_string(),
            kind: "dungeoninfo",
            rows: file.info.rows().count(),
            served: file.info.served().count(),
            service_column: file.info.has_service_column(),
            size: file.size,
        }
    }
}

impl Facts for DungeonListInfo {
    fn write_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(
            out,
            "{}: kind={} rows={} served={} service_column={} size={}",
            self.path,
            self.kind,
            self.rows,
            self.served,
            or_dash(self.service_column.map(yes_no)),
            self.size
        )
    }
}
