//! `silknav lint PATH...`: lint the game's files one by one (navmeshes, object meshes,
//! dungeons, dungeon routes, the dungeon list), and worlds (folders and PK2 archives) as a
//! whole.

use crate::exit::{self, Status};
use crate::input::{self, GameFile, KeyArgs, ParseArgs};
use crate::output::{self, STDOUT};
use crate::progress::Progress;
use anyhow::{anyhow, Context};
use jmxv::nvm::lint::{lint, DirectionReport, Finding, Severity};
use jmxv::RegionId;
use serde::Serialize;
use silknav::files::{
    FolderFile, WorldFiles, WorldOrFile, WorldSource, MAPINFO, NAVMESH_FOLDER, OBJECT_IFO,
    TILE2D_IFO,
};
use silknav::lint::{lint_world, WorldReport};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `silknav lint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Navmesh, object mesh (.bms), dungeon (.dof), AINavData_NNNNN.dat or dungeoninfo.txt
    /// files, or worlds: folders, PK2 archives (Data.pk2) and folders in them (Data.pk2:navmesh),
    /// their nv_XXXX.nvm files and companion files together; files in archives too
    /// (Data.pk2:navmesh/nv_694e.nvm)
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Print one JSON object per file (JSON lines) instead of text
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    parse: ParseArgs,
    #[command(flatten)]
    key: KeyArgs,
}

/// Lints every path: exit 1 when any finding is an error, 2 when anything could not be read.
///
/// A navmesh file on its own is linted with the region its name says (`nv_XXXX.nvm`; other
/// names are linted without the checks that need it); the other files, told apart as
/// [`input::read_game_file`] says, with their own codes: an object mesh with the B-codes
/// ([`jmxv::bms::lint`]), a dungeon with the D-codes ([`jmxv::dof::lint`]), a dungeon's routes
/// with the A-codes of the file alone ([`jmxv::ainav::lint::lint`]), the dungeon list with the
/// I-codes ([`jmxv::ifo::dungeon::lint`]). A folder is a world: every file alone, then the
/// checks between files ([`silknav::lint`]).
///
/// # Errors
/// Only failures to write to standard output.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let mut out = output::stdout();
    let mut totals = Totals::default();
    let key = args.key.key()?;
    for path in &args.paths {
        let linted = input::open_input(path, &key).and_then(|opened| match opened {
            WorldOrFile::World(source) => lint_world_source(&source),
            WorldOrFile::File { path, bytes } => lint_file(&path, &bytes, args.parse),
        });
        match linted {
            Ok(files) => {
                for file in files {
                    totals.add(&file);
                    if args.json {
                        output::json_line(&mut out, &FileJson::new(&file))
                    } else {
                        file.write_text(&mut out)
                    }
                    .context(STDOUT)?;
                }
            }
            Err(e) => {
                // Keep stdout and stderr in order on a terminal.
                out.flush().context(STDOUT)?;
                exit::report(&e);
                totals.unreadable += 1;
            }
        }
    }
    if !args.json {
        totals.write_text(&mut out).context(STDOUT)?;
    }
    out.flush().context(STDOUT)?;
    Ok(totals.status())
}

/// What the lint found about one file.
pub struct FileLint {
    /// The file, as found.
    pub path: PathBuf,
    /// Whether the file exists (a world's missing companion has findings too).
    pub exists: bool,
    /// The region of a navmesh or AINavData file, by its name; `None` for other files and for
    /// files named otherwise.
    pub region: Option<RegionId>,
    /// The direction report of a navmesh file; `None` for other files.
    pub directions: Option<DirectionReport>,
    /// Findings about this file, its own first, then those from comparing it with others.
    pub findings: Vec<Finding>,
}

impl FileLint {
    fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }

    /// `FILE: severity CODE: location: message` per finding, then the file's summary line.
    fn write_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        let path = self.path.display();
        for finding in &self.findings {
            writeln!(out, "{path}: {}", finding_text(finding))?;
        }
        write!(
            out,
            "{path}: {}, {}",
            plural(self.count(Severity::Error), "error"),
            plural(self.count(Severity::Warning), "warning"),
        )?;
        if let Some(directions) = &self.directions {
            write!(
                out,
                "; region {}; directions: {}",
                input::region_name(self.region).as_deref().unwrap_or("-"),
                describe_directions(directions)
            )?;
        }
        if !self.exists {
            write!(out, "; not in the folder")?;
        }
        writeln!(out)
    }
}

/// One of the game's files on its own.
fn lint_file(path: &Path, bytes: &[u8], parse: ParseArgs) -> anyhow::Result<Vec<FileLint>> {
    let (region, findings) = match input::parse_game_file(path, bytes, parse)? {
        GameFile::Nvm(file) => {
            let region = input::region_of(path);
            let report = lint(&file.mesh, region);
            return Ok(vec![FileLint {
                path: path.to_owned(),
                exists: true,
                region,
                directions: Some(report.directions),
                findings: report.findings,
            }]);
        }
        GameFile::Bms(file) => (None, jmxv::bms::lint::lint(&file.mesh)),
        GameFile::Dof(file) => (None, jmxv::dof::lint::lint(&file.dungeon)),
        // The checks against the dungeon's blocks (A018 to A020) need their meshes.
        GameFile::AiNav(file) => (Some(file.name_region), jmxv::ainav::lint::lint(&file.nav)),
        GameFile::DungeonInfo(file) => (None, jmxv::ifo::dungeon::lint(&file.info)),
    };
    Ok(vec![FileLint {
        path: path.to_owned(),
        exists: true,
        region,
        directions: None,
        findings,
    }])
}

/// A world (a folder or an archive): its navmeshes in region order, then `mapinfo.mfo`,
/// `object.ifo` and `tile2d.ifo` (those present, and missing ones that have findings).
///
/// # Errors
/// A file of the world cannot be read or parsed, or the world has no navmesh file.
pub fn lint_world_source(source: &WorldSource) -> anyhow::Result<Vec<FileLint>> {
    let name = source.path();
    let files = Progress::timed(format!("reading {}", name.display()), || {
        WorldFiles::read(source)
    })
    .map_err(|e| anyhow!(e))?;
    if files.navmeshes.is_empty() {
        anyhow::bail!("{}: no nv_XXXX.nvm file in this folder", name.display());
    }
    let report = Progress::timed(format!("linting {}", name.display()), || lint_world(&files));
    Ok(group_by_file(source, &files, report))
}

/// The world report as one entry per file. Every finding lands in exactly one entry: a
/// cross-file finding about a file that is neither a navmesh nor a known companion gets an
/// entry of its own at the end.
fn group_by_file(source: &WorldSource, files: &WorldFiles, report: WorldReport) -> Vec<FileLint> {
    let mut cross: BTreeMap<String, Vec<Finding>> = BTreeMap::new();
    let mut others: Vec<String> = Vec::new();
    for w in report.world {
        if !cross.contains_key(&w.file) {
            others.push(w.file.clone());
        }
        cross.entry(w.file).or_default().push(w.finding);
    }
    let listing = source.listing();
    // Files of the navmesh folder as found (in any case), or where they would be.
    let path_of = |name: &str| match FolderFile::from_name(name) {
        Some(file) => source.path_of(file),
        None => source.navmesh_dir().join(name),
    };
    let mut entries = Vec::new();
    for (region, own) in report.files {
        let name = region.file_name();
        let mut findings = own.findings;
        findings.extend(cross.remove(&name).unwrap_or_default());
        entries.push(FileLint {
            path: path_of(&name),
            exists: true,
            region: Some(region),
            directions: Some(own.directions),
            findings,
        });
    }
    let companions = [
        (MAPINFO, files.mapinfo.is_some()),
        (OBJECT_IFO, files.object_ifo.is_some()),
        (TILE2D_IFO, files.tile2d.is_some()),
    ];
    for (name, exists) in companions {
        let findings = cross.remove(name).unwrap_or_default();
        if exists || !findings.is_empty() {
            entries.push(FileLint {
                path: path_of(name),
                exists,
                region: None,
                directions: None,
                findings,
            });
        }
    }
    // Object meshes and dungeon files are named by their path under the data root (with
    // `\`), dungeon routes by their name in the navmesh folder.
    let resolver = source.object_resolver();
    for name in others {
        if let Some(findings) = cross.remove(&name) {
            let under_root = if name.contains('\\') {
                Some(name.clone())
            } else {
                jmxv::ainav::region_from_file_name(&name)
                    .map(|_| format!("{NAVMESH_FOLDER}\\{name}"))
            };
            let found = under_root
                .as_ref()
                .and_then(|path| resolver.find(path.as_bytes()).ok());
            let in_folder = FolderFile::from_name(&name).is_some_and(|f| listing.path(f).is_some());
            let path = match (found.clone(), &under_root) {
                (Some(path), _) => path,
                (None, Some(path)) => source.data_root().join(path.replace('\\', "/")),
                (None, None) => path_of(&name),
            };
            entries.push(FileLint {
                exists: in_folder || found.is_some(),
                path,
                region: RegionId::from_file_name(&name),
                directions: None,
                findings,
            });
        }
    }
    entries
}

/// `severity CODE: location: message`, or without the location when the finding is about the
/// file as a whole (the world lint's X011 has an empty one).
pub fn finding_text(f: &Finding) -> String {
    if f.location.is_empty() {
        format!("{} {}: {}", f.severity.name(), f.code, f.message)
    } else {
        f.to_string()
    }
}

/// The direction-byte convention the file's edges agree with, in words.
fn describe_directions(d: &DirectionReport) -> String {
    let measured: u32 = d.counts.iter().flatten().sum();
    if measured == 0 {
        "not measured (no edge with a known cell)".to_owned()
    } else if d.matching.is_empty() {
        format!("no known convention fits the {measured} measured edges")
    } else {
        d.matching.join(", ")
    }
}

/// `1 error`, `2 errors`.
pub fn plural(n: usize, word: &str) -> String {
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
    fn add(&mut self, file: &FileLint) {
        // A missing companion is no file, though its findings count.
        self.files += usize::from(file.exists);
        self.errors += file.count(Severity::Error);
        self.warnings += file.count(Severity::Warning);
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
    /// `None` for companion files, which have no edges.
    directions: Option<DirectionsJson<'a>>,
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
    fn new(file: &'a FileLint) -> FileJson<'a> {
        FileJson {
            path: file.path.display().to_string(),
            region: input::region_name(file.region),
            errors: file.count(Severity::Error),
            warnings: file.count(Severity::Warning),
            findings: file.findings.iter().map(FindingJson::from).collect(),
            directions: file.directions.as_ref().map(|d| DirectionsJson {
                counts: &d.counts,
                matching: &d.matching,
            }),
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
