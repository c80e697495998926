//! `silknav info FILE...`: what each file holds, one line per file.

use crate::exit::{self, Status};
use crate::input::{self, NvmFile, ParseArgs};
use crate::output::{self, STDOUT};
use anyhow::Context;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `silknav info`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Navmesh files (nv_XXXX.nvm)
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Print one JSON object per file (JSON lines) instead of text
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    parse: ParseArgs,
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

/// Describes every file; an unreadable one is reported and skipped.
///
/// # Errors
/// Only failures to write to standard output.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let mut out = output::stdout();
    let mut status = Status::Success;
    for path in &args.files {
        match input::read_nvm(path, args.parse) {
            Ok(file) => {
                let info = Info::of(&file);
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
