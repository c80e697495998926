//! `silknav info FILE...`: what each navmesh or object mesh file holds, one line per file.

use crate::exit::{self, Status};
use crate::input::{self, BmsFile, KeyArgs, MeshFile, NvmFile, ParseArgs};
use crate::output::{self, STDOUT};
use anyhow::Context;
use jmxv::bms::OFFSET_COUNT;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `silknav info`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Navmesh files (nv_XXXX.nvm) or object mesh files (.bms, told apart by their signature),
    /// on disk or in an archive (Data.pk2:navmesh/nv_694e.nvm)
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

/// The facts about one file; the JSON line has these keys, the text line `key=value` pairs.
#[derive(Serialize)]
struct Info {
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

impl Info {
    fn of(file: &NvmFile) -> Info {
        let mesh = &file.mesh;
        Info {
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

    fn write_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        let count = |n: Option<usize>| n.map_or_else(|| "-".to_owned(), |n| n.to_string());
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
            count(self.vertices),
            count(self.cells),
            count(self.outline_edges),
            count(self.inline_edges),
            count(self.event_names),
            self.grid
                .map_or_else(|| "-".to_owned(), |[w, h]| format!("{w}x{h}")),
            offsets.join(","),
            self.before_nav,
            self.after_nav,
            self.size
        )
    }
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
        match input::read_mesh(path, args.parse, &key) {
            Ok(MeshFile::Nvm(file)) => {
                let info = Info::of(&file);
                if args.json {
                    output::json_line(&mut out, &info)
                } else {
                    info.write_text(&mut out)
                }
                .context(STDOUT)?;
            }
            Ok(MeshFile::Bms(file)) => {
                let info = BmsInfo::of(&file);
                if args.json {
                    output::json_line(&mut out, &info)
                } else {
                    info.write_text(&mut out)
                }
                .context(STDOUT)?;
            }
            Err(e) => {
                // Keep stdout and stderr in order on a terminal.
                out.flush().context(STDOUT)?;
                exit::report(&e);
                status = Status::Failed;
            }
        }
    }
    out.flush().context(STDOUT)?;
    Ok(status)
}
