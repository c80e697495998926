//! `silknav lint PATH...`: lint navmesh files, or every `*.nvm` in folders.

use crate::exit::{self, Status};
use crate::input::{self, ParseArgs};
use crate::output::{self, STDOUT};
use anyhow::Context;
use jmxv::nvm::lint::{lint, DirectionReport, Finding, Report, Severity};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `silknav lint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Navmesh files, or folders: every *.nvm directly inside (any case, sorted by name)
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Print one JSON object per file (JSON lines) instead of text
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    parse: ParseArgs,
}

/// Lints every file: exit 1 when any has an error finding, 2 when any could not be read.
///
/// The region passed to the lint is the one the file name says (`nv_XXXX.nvm`); files named
/// otherwise are linted without the checks that need it.
///
/// # Errors
/// Only failures to write to standard output.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let mut out = output::stdout();
    let mut totals = Totals::default();
    for path in &args.paths {
        let files = match input::nvm_files(path) {
            Ok(files) => files,
            Err(e) => {
                failed(&mut out, &mut totals, &e)?;
                continue;
            }
        };
        for file in files {
            let mesh = match input::read_nvm(&file, args.parse) {
                Ok(nvm) => nvm.mesh,
                Err(e) => {
                    failed(&mut out, &mut totals, &e)?;
                    continue;
                }
            };
            let region = input::region_of(&file);
            let report = lint(&mesh, region);
            totals.add(&report);
            let region = input::region_name(region);
            if args.json {
                output::json_line(&mut out, &FileJson::new(&file, region, &report))
            } else {
                write_text(&mut out, &file, region.as_deref(), &report)
            }
            .context(STDOUT)?;
        }
    }
    if !args.json {
        totals.write_text(&mut out).context(STDOUT)?;
    }
    out.flush().context(STDOUT)?;
    Ok(totals.status())
}

fn failed(out: &mut impl Write, totals: &mut Totals, e: &anyhow::Error) -> anyhow::Result<()> {
    // Keep stdout and stderr in order on a terminal.
    out.flush().context(STDOUT)?;
    exit::report(e);
    totals.unreadable += 1;
    Ok(())
}

/// `FILE: severity CODE: location: message` per finding, then the file's summary line.
fn write_text(
    out: &mut impl Write,
    file: &Path,
    region: Option<&str>,
    report: &Report,
) -> std::io::Result<()> {
    let path = file.display();
    for finding in &report.findings {
        writeln!(out, "{path}: {finding}")?;
    }
    writeln!(
        out,
        "{path}: {}, {}; region {}; directions: {}",
        plural(report.count(Severity::Error), "error"),
        plural(report.count(Severity::Warning), "warning"),
        region.unwrap_or("-"),
        directions(&report.directions)
    )
}

/// The direction-byte convention the file's edges agree with, in words.
fn directions(d: &DirectionReport) -> String {
    let measured: u32 = d.counts.iter().flatten().sum();
    if measured == 0 {
        "not measured (no edge with a known cell)".to_owned()
    } else if d.matching.is_empty() {
        format!("no known convention fits the {measured} measured edges")
    } else {
        d.matching.join(", ")
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Counts over all files.
#[derive(Default)]
struct Totals {
    files: usize,
    errors: usize,
    warnings: usize,
    unreadable: usize,
}

impl Totals {
    fn add(&mut self, report: &Report) {
        self.files += 1;
        self.errors += report.count(Severity::Error);
        self.warnings += report.count(Severity::Warning);
    }

    fn status(&self) -> Status {
        if self.unreadable > 0 {
            Status::Failed
        } else if self.errors > 0 {
            Status::Findings
        } else {
            Status::Success
        }
    }

    fn write_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        write!(
            out,
            "total: {}, {}, {}",
            plural(self.files, "file"),
            plural(self.errors, "error"),
            plural(self.warnings, "warning")
        )?;
        if self.unreadable > 0 {
            write!(out, ", {} unreadable", self.unreadable)?;
        }
        writeln!(out)
    }
}

/// One JSON line: a file and its findings.
#[derive(Serialize)]
struct FileJson<'a> {
    path: String,
    region: Option<String>,
    errors: usize,
    warnings: usize,
    findings: Vec<FindingJson<'a>>,
    directions: DirectionsJson<'a>,
}

#[derive(Serialize)]
struct FindingJson<'a> {
    code: &'a str,
    severity: &'a str,
    location: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
struct DirectionsJson<'a> {
    counts: &'a [[u32; 4]; 4],
    matching: &'a [&'static str],
}

impl<'a> FileJson<'a> {
    fn new(file: &Path, region: Option<String>, report: &'a Report) -> FileJson<'a> {
        FileJson {
            path: file.display().to_string(),
            region,
            errors: report.count(Severity::Error),
            warnings: report.count(Severity::Warning),
            findings: report.findings.iter().map(FindingJson::from).collect(),
            directions: DirectionsJson {
                counts: &report.directions.counts,
                matching: &report.directions.matching,
            },
        }
    }
}

impl<'a> From<&'a Finding> for FindingJson<'a> {
    fn from(f: &'a Finding) -> FindingJson<'a> {
        FindingJson {
            code: f.code,
            severity: f.severity.name(),
            location: &f.location,
            message: &f.message,
        }
    }
}
