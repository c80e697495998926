//! The corpus report: statistics over every file of a folder or archive that silknav reads,
//! for a bug report or a survey of a client's data.
//!
//! [`scan`] reads every file below the folder a [`WorldSource`] opened (an archive's whole
//! tree when it opened the archive), in parallel, and sorts them by name: navmeshes
//! (`nv_XXXX.nvm`, any layout), `mapinfo.mfo`, `object.ifo`, `tile2d.ifo`, object meshes
//! (`.bms`) and collision resources (`.bsr`, `.cpd`); other files are counted by extension and
//! not read. Each file is parsed and linted on its own with every finding kept (no caps);
//! when the source has a world (navmeshes in its navmesh folder), the checks between files run
//! too. A file that cannot be read or parsed is listed with its error, never a failure of the
//! scan.
//!
//! Histograms are keyed by the value in hexadecimal, zero-padded to the field's width
//! (`0x02`, `0x0001`), so that their keys sort as the values do.

use crate::files::{FileError, FolderFile, SourceFile, WorldFiles, WorldSource};
use crate::lint::{lint_world_with, WorldLintOptions};
use jmxv::bms::ObjectMesh;
use jmxv::ifo::{ObjectIfo, Tile2dIfo};
use jmxv::mfo::MapInfo;
use jmxv::nvm::lint::{
    lint_with, DirectionReport, Finding, LintOptions, Severity, DIRECTION_CONVENTIONS,
};
use jmxv::nvm::{Layout, NavMesh, ParseOptions};
use jmxv::res::{ResourceFile, ResourceKind};
use jmxv::RegionId;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

/// Statistics over every file of a folder or archive: what [`scan`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Corpus {
    /// The folder scanned, as reports name it (`Data`, `Data.pk2`, `Data.pk2:navmesh`).
    pub path: String,
    /// Every file below it.
    pub files: u64,
    /// The files of the kinds silknav reads (the rest are in `not_read`).
    pub read: u64,
    /// Files of other kinds, by extension (lower case, without the dot; `""` for none).
    pub not_read: BTreeMap<String, u64>,
    /// The navmeshes.
    pub navmeshes: NavmeshStats,
    /// The `mapinfo.mfo` files.
    pub mapinfo: TableStats,
    /// The `object.ifo` files.
    pub object_ifo: TableStats,
    /// The `tile2d.ifo` files.
    pub tile2d: TableStats,
    /// The object meshes (`.bms`).
    pub object_meshes: ObjectMeshStats,
    /// The collision resources (`.bsr`) and compounds (`.cpd`).
    pub resources: ResourceStats,
    /// Whether the checks between files ran: `run`; `no-world` when the source's navmesh
    /// folder holds no navmesh; `skipped-unreadable` when a file of that folder is unreadable
    /// (the checks would report it as missing).
    pub world_checks: &'static str,
    /// Lint findings by code, of every file on its own and between files.
    pub lint: BTreeMap<String, CodeStats>,
    /// Files of a kind silknav reads that could not be read or parsed, by path.
    pub unreadable: Vec<Unreadable>,
}

/// The navmeshes of a corpus.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct NavmeshStats {
    /// Navmeshes parsed.
    pub files: u64,
    /// Of them dungeons (region id bit 15 set).
    pub dungeons: u64,
    /// Files by layout: `standard`, `tiles4`, `tiles4-noplanes` (all three present).
    pub layouts: BTreeMap<String, u64>,
    /// Files whose last section ends exactly at the end of the file.
    pub exact_end: u64,
    /// Files with bytes after their last section.
    pub with_trailing: u64,
    /// Those bytes, over all files.
    pub trailing_bytes: u64,
    /// Object instances listed, over all files.
    pub objects: u64,
    /// Cells, over all files.
    pub cells: u64,
    /// The stored open cell counts, summed.
    pub open_cells: u64,
    /// Global (region border) edges, over all files.
    pub global_edges: u64,
    /// Internal edges, over all files.
    pub internal_edges: u64,
    /// Tiles by their flag (standard layout only; the legacy layouts store none).
    pub tile_flags: BTreeMap<String, u64>,
    /// Global edges by their flag.
    pub global_edge_flags: BTreeMap<String, u64>,
    /// Internal edges by their flag.
    pub internal_edge_flags: BTreeMap<String, u64>,
    /// Edges (global and internal) by their direction byte on side A, `dir[0]`.
    pub direction_bytes_a: BTreeMap<String, u64>,
    /// Edges by their direction byte on side B, `dir[1]`.
    pub direction_bytes_b: BTreeMap<String, u64>,
    /// The 36 plane cells of each file by their type byte (water 1, ice 2).
    pub plane_types: BTreeMap<String, u64>,
    /// What the direction bytes mean, measured against the geometry.
    pub directions: DirectionStats,
}

/// The direction convention the corpus's edges agree with (see [`jmxv::nvm::lint`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct DirectionStats {
    /// `counts[d][s]`: edges with `dir[0] == d` lying on side `s` (−z, −x, +z, +x) of their
    /// cell on side A, over all files.
    pub counts: [[u64; 4]; 4],
    /// The same for `dir[1]` and the cell on side B of passable internal edges.
    pub counts_b: [[u64; 4]; 4],
    /// The named conventions every measured edge of the corpus agrees with.
    pub found: Vec<String>,
    /// Per convention, the files whose measured edges all agree with it.
    pub files_agreeing: BTreeMap<String, u64>,
    /// Files with no edge that could be measured.
    pub not_measured: u64,
    /// Files whose measured edges fit no named convention.
    pub no_convention: u64,
}

/// The files of one companion table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct TableStats {
    /// Files parsed.
    pub files: u64,
    /// Entries over all files: enabled regions of `mapinfo.mfo`, lines of the `.ifo` tables.
    pub entries: u64,
    /// Bytes after the last section (`mapinfo.mfo`: after the bitmap), over all files.
    pub trailing_bytes: u64,
}

/// The object meshes of a corpus.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ObjectMeshStats {
    /// Meshes parsed.
    pub files: u64,
    /// Files by version: `0110`, `0109` (both present).
    pub versions: BTreeMap<String, u64>,
    /// Files by their nav flags (the u32 at 0x38).
    pub nav_flags: BTreeMap<String, u64>,
    /// Files with a navigation section.
    pub with_nav: u64,
    /// Files without one (scenery: trees, rocks).
    pub without_nav: u64,
    /// Navigation cells (triangles), over all files.
    pub cells: u64,
    /// Outline edges by flag, over all files.
    pub outline_edge_flags: BTreeMap<String, u64>,
    /// Inline edges by flag, over all files.
    pub inline_edge_flags: BTreeMap<String, u64>,
}

/// The collision resources and compounds of a corpus.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ResourceStats {
    /// `.bsr` files parsed.
    pub bsr: u64,
    /// `.cpd` files parsed.
    pub cpd: u64,
    /// Files by their signature's kind: `resource` (`JMXVRES 0109`), `compound`
    /// (`JMXVCPD 0101`), whatever their extension.
    pub kinds: BTreeMap<String, u64>,
    /// Files that name a next file (a mesh, or a resource).
    pub with_target: u64,
    /// Files that name none.
    pub without_target: u64,
    /// The files named, by extension (lower case).
    pub target_extensions: BTreeMap<String, u64>,
}

/// The findings of one lint code.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct CodeStats {
    /// `error` or `warning`.
    pub severity: &'static str,
    /// What the code means.
    pub meaning: &'static str,
    /// Findings.
    pub findings: u64,
    /// Files with at least one.
    pub files: u64,
}

/// A file that could not be read or parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Unreadable {
    /// The file, as reports name it.
    pub path: String,
    /// What went wrong: the byte offset, section and what was expected, for a parse error.
    pub error: String,
}

/// What a file is, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Navmesh(RegionId),
    MapInfo,
    ObjectIfo,
    Tile2d,
    Bms,
    Bsr,
    Cpd,
}

impl Kind {
    fn of(name: &str) -> Option<Kind> {
        if let Some(role) = FolderFile::from_name(name) {
            return Some(match role {
                FolderFile::Navmesh(region) => Kind::Navmesh(region),
                FolderFile::MapInfo => Kind::MapInfo,
                FolderFile::ObjectIfo => Kind::ObjectIfo,
                FolderFile::Tile2d => Kind::Tile2d,
            });
        }
        match extension(name).as_str() {
            "bms" => Some(Kind::Bms),
            "bsr" => Some(Kind::Bsr),
            "cpd" => Some(Kind::Cpd),
            _ => None,
        }
    }
}

/// The extension of a name, lower case, without the dot; empty for none.
fn extension(name: &str) -> String {
    name.rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default()
}

/// One file parsed: its statistics as a corpus of one, and what the world checks need.
struct Parsed {
    corpus: Corpus,
    /// The parsed file, kept when the world checks will need it.
    kept: Option<Kept>,
    /// Whether the file is one of the world's and could not be read.
    lost: bool,
}

enum Kept {
    Navmesh(RegionId, Box<NavMesh>),
    MapInfo(MapInfo),
    ObjectIfo(ObjectIfo),
    Tile2d(Tile2dIfo),
    Bms(PathBuf, Box<ObjectMesh>),
}

/// Scans every file below the folder `source` opened: see the [module docs](self).
///
/// # Errors
/// A folder on disk that cannot be listed (a file that cannot be read is listed in
/// [`Corpus::unreadable`] instead).
pub fn scan(source: &WorldSource) -> Result<Corpus, FileError> {
    let files = source.files()?;
    let world = source.listing().navmeshes().next().is_some();
    let parsed: Vec<Parsed> = files
        .par_iter()
        .map(|file| scan_file(source, file, world))
        .collect();
    let mut corpus = Corpus {
        path: source.path().display().to_string(),
        navmeshes: NavmeshStats {
            layouts: Layout::ALL
                .iter()
                .map(|l| (l.name().to_owned(), 0))
                .collect(),
            ..NavmeshStats::default()
        },
        object_meshes: ObjectMeshStats {
            versions: jmxv::bms::Version::ALL
                .iter()
                .map(|v| (version_name(*v), 0))
                .collect(),
            ..ObjectMeshStats::default()
        },
        ..Corpus::default()
    };
    let mut world_files = WorldFiles::default();
    let mut meshes: HashMap<PathBuf, Box<ObjectMesh>> = HashMap::new();
    let mut lost = false;
    for one in parsed {
        lost |= one.lost;
        corpus.add(one.corpus);
        match one.kept {
            Some(Kept::Navmesh(region, mesh)) => {
                world_files.navmeshes.insert(region, *mesh);
            }
            Some(Kept::MapInfo(m)) => world_files.mapinfo = Some(m),
            Some(Kept::ObjectIfo(o)) => world_files.object_ifo = Some(o),
            Some(Kept::Tile2d(t)) => world_files.tile2d = Some(t),
            Some(Kept::Bms(path, mesh)) => {
                meshes.insert(path, mesh);
            }
            None => {}
        }
    }
    corpus.world_checks = match (world, lost) {
        (false, _) => "no-world",
        (true, true) => "skipped-unreadable",
        (true, false) => "run",
    };
    if world && !lost {
        world_files.object_files = object_files(source, &world_files, meshes);
        let options = WorldLintOptions::default().all_findings().cross_file_only();
        let report = lint_world_with(&world_files, &options);
        let mut by_code: BTreeMap<&'static str, (u64, BTreeSet<String>)> = BTreeMap::new();
        for w in &report.world {
            let entry = by_code.entry(w.finding.code).or_default();
            entry.0 += 1;
            entry.1.insert(w.file.clone());
        }
        for (code, (findings, files)) in by_code {
            let stats = corpus.code(code);
            stats.findings += findings;
            stats.files += files.len() as u64;
        }
    }
    corpus.finish();
    Ok(corpus)
}

/// The object meshes `object.ifo` names, as [`WorldFiles::read`] reads them: from the meshes
/// the scan parsed, else read from under the data root (when the scan did not reach it).
/// Meshes that cannot be had are left out (the scan lists them as unreadable).
fn object_files(
    source: &WorldSource,
    files: &WorldFiles,
    mut parsed: HashMap<PathBuf, Box<ObjectMesh>>,
) -> BTreeMap<String, ObjectMesh> {
    let mut out = BTreeMap::new();
    let Some(ifo) = &files.object_ifo else {
        return out;
    };
    let resolver = source.object_resolver();
    for entry in &ifo.entries {
        let Ok(name) = std::str::from_utf8(&entry.path) else {
            continue;
        };
        if !crate::files::is_object_mesh_path(name) || out.contains_key(name) {
            continue;
        }
        let Ok(place) = resolver.locate(name.as_bytes()) else {
            continue;
        };
        let shown = resolver.shown(&place);
        let mesh = match parsed.remove(&shown) {
            Some(mesh) => Some(*mesh),
            None => resolver
                .read(&place)
                .ok()
                .and_then(|bytes| ObjectMesh::parse(&bytes).ok()),
        };
        if let Some(mesh) = mesh {
            out.insert(name.to_owned(), mesh);
        }
    }
    out
}

/// Reads, parses and lints one file.
fn scan_file(source: &WorldSource, file: &SourceFile, world: bool) -> Parsed {
    let mut corpus = Corpus {
        files: 1,
        ..Corpus::default()
    };
    let Some(kind) = Kind::of(file.name()) else {
        *corpus.not_read.entry(extension(file.name())).or_default() += 1;
        return Parsed {
            corpus,
            kept: None,
            lost: false,
        };
    };
    corpus.read = 1;
    // Files of the world the checks between files run on are kept for them.
    let in_world = world && source.role_of(file).is_some();
    let path = file.path.display().to_string();
    let unreadable = |mut corpus: Corpus, error: String| {
        corpus.unreadable.push(Unreadable {
            path: path.clone(),
            error,
        });
        Parsed {
            corpus,
            kept: None,
            lost: in_world,
        }
    };
    let bytes = match source.read_file(file) {
        Ok(bytes) => bytes,
        Err(e) => return unreadable(corpus, e.error.to_string()),
    };
    let kept = match kind {
        Kind::Navmesh(region) => match NavMesh::parse_with(&bytes, ParseOptions::any_signature()) {
            Err(e) => return unreadable(corpus, e.to_string()),
            Ok(mesh) => {
                corpus.navmeshes.add_file(&mesh, region);
                let mut options = LintOptions::default();
                options.max_per_code = usize::MAX;
                let report = lint_with(&mesh, Some(region), &options);
                corpus.navmeshes.directions.add_file(&report.directions);
                corpus.add_findings(&report.findings);
                in_world.then(|| Kept::Navmesh(region, Box::new(mesh)))
            }
        },
        Kind::MapInfo => match MapInfo::parse(&bytes) {
            Err(e) => return unreadable(corpus, e.to_string()),
            Ok(m) => {
                corpus.mapinfo = TableStats {
                    files: 1,
                    entries: m.enabled_count() as u64,
                    trailing_bytes: m.trailing.len() as u64,
                };
                corpus.add_findings(&jmxv::mfo::lint(&m));
                in_world.then_some(Kept::MapInfo(m))
            }
        },
        Kind::ObjectIfo => match ObjectIfo::parse(&bytes) {
            Err(e) => return unreadable(corpus, e.to_string()),
            Ok(o) => {
                corpus.object_ifo = TableStats {
                    files: 1,
                    entries: o.entries.len() as u64,
                    trailing_bytes: 0,
                };
                corpus.add_findings(&jmxv::ifo::object::lint(&o));
                in_world.then_some(Kept::ObjectIfo(o))
            }
        },
        Kind::Tile2d => match Tile2dIfo::parse(&bytes) {
            Err(e) => return unreadable(corpus, e.to_string()),
            Ok(t) => {
                corpus.tile2d = TableStats {
                    files: 1,
                    entries: t.len() as u64,
                    trailing_bytes: 0,
                };
                corpus.add_findings(&jmxv::ifo::tile2d::lint(&t));
                in_world.then_some(Kept::Tile2d(t))
            }
        },
        Kind::Bms => match ObjectMesh::parse(&bytes) {
            Err(e) => return unreadable(corpus, e.to_string()),
            Ok(mesh) => {
                corpus.object_meshes.add_file(&mesh);
                corpus.add_findings(&jmxv::bms::lint::lint(&mesh));
                world.then(|| Kept::Bms(file.path.clone(), Box::new(mesh)))
            }
        },
        Kind::Bsr | Kind::Cpd => match ResourceFile::parse(&bytes) {
            Err(e) => return unreadable(corpus, e.to_string()),
            Ok(resource) => {
                corpus.resources.add_file(&resource, kind == Kind::Bsr);
                None
            }
        },
    };
    Parsed {
        corpus,
        kept,
        lost: false,
    }
}

fn version_name(version: jmxv::bms::Version) -> String {
    String::from_utf8_lossy(&version.signature()[8..]).into_owned()
}

fn hex8(v: u8) -> String {
    format!("0x{v:02x}")
}

fn hex16(v: u16) -> String {
    format!("0x{v:04x}")
}

fn hex32(v: u32) -> String {
    format!("0x{v:08x}")
}

fn count(map: &mut BTreeMap<String, u64>, key: String) {
    *map.entry(key).or_default() += 1;
}

fn merge(into: &mut BTreeMap<String, u64>, from: BTreeMap<String, u64>) {
    for (key, n) in from {
        *into.entry(key).or_default() += n;
    }
}

impl Corpus {
    /// The statistics of a code, created on first use with its severity and meaning.
    fn code(&mut self, code: &'static str) -> &mut CodeStats {
        self.lint.entry(code.to_owned()).or_insert_with(|| {
            let (severity, meaning) = code_info(code);
            CodeStats {
                severity: severity.name(),
                meaning,
                findings: 0,
                files: 0,
            }
        })
    }

    /// The findings of one file.
    fn add_findings(&mut self, findings: &[Finding]) {
        let mut seen = BTreeSet::new();
        for f in findings {
            self.code(f.code).findings += 1;
            if seen.insert(f.code) {
                self.code(f.code).files += 1;
            }
        }
    }

    /// Adds the statistics of another part of the corpus.
    fn add(&mut self, other: Corpus) {
        self.files += other.files;
        self.read += other.read;
        merge(&mut self.not_read, other.not_read);
        self.navmeshes.add(other.navmeshes);
        self.mapinfo.add(&other.mapinfo);
        self.object_ifo.add(&other.object_ifo);
        self.tile2d.add(&other.tile2d);
        self.object_meshes.add(other.object_meshes);
        self.resources.add(other.resources);
        for (code, stats) in other.lint {
            let mine = self.lint.entry(code).or_insert(CodeStats {
                findings: 0,
                files: 0,
                ..stats
            });
            mine.findings += stats.findings;
            mine.files += stats.files;
        }
        self.unreadable.extend(other.unreadable);
    }

    /// Settles what depends on the whole: the conventions found, the order of the list.
    fn finish(&mut self) {
        let d = &mut self.navmeshes.directions;
        d.found = DIRECTION_CONVENTIONS
            .iter()
            .filter(|(_, sides)| agrees(sides, &d.counts) && agrees(sides, &d.counts_b))
            .map(|(name, _)| (*name).to_owned())
            .collect();
        if d.counts
            .iter()
            .chain(&d.counts_b)
            .flatten()
            .all(|&n| n == 0)
        {
            d.found.clear();
        }
        self.unreadable.sort_by(|a, b| a.path.cmp(&b.path));
    }
}

/// Whether every counted (direction byte, side) pair is the one the convention names.
fn agrees(sides: &[usize; 4], counts: &[[u64; 4]; 4]) -> bool {
    (0..4).all(|d| (0..4).all(|s| counts[d][s] == 0 || sides[d] == s))
}

/// The severity and meaning of a code, from the table of the lint that reports it.
fn code_info(code: &str) -> (Severity, &'static str) {
    let tables: [&[(&str, Severity, &'static str)]; 6] = [
        jmxv::nvm::lint::CODES,
        jmxv::bms::lint::CODES,
        jmxv::mfo::CODES,
        jmxv::ifo::object::CODES,
        jmxv::ifo::tile2d::CODES,
        crate::lint::CODES,
    ];
    tables
        .iter()
        .flat_map(|t| t.iter())
        .find(|c| c.0 == code)
        .map_or((Severity::Error, ""), |c| (c.1, c.2))
}

impl NavmeshStats {
    fn add_file(&mut self, mesh: &NavMesh, region: RegionId) {
        self.files += 1;
        self.dungeons += u64::from(region.is_dungeon());
        count(&mut self.layouts, mesh.layout.name().to_owned());
        if mesh.trailing.is_empty() {
            self.exact_end += 1;
        } else {
            self.with_trailing += 1;
            self.trailing_bytes += mesh.trailing.len() as u64;
        }
        self.objects += mesh.objects.len() as u64;
        self.cells += mesh.cells.len() as u64;
        self.open_cells += u64::from(mesh.open_cell_count);
        self.global_edges += mesh.global_edges.len() as u64;
        self.internal_edges += mesh.internal_edges.len() as u64;
        if mesh.layout.has_tile_flags() {
            let mut flags: HashMap<u16, u64> = HashMap::new();
            for tile in mesh.tiles.iter() {
                *flags.entry(tile.flag).or_default() += 1;
            }
            for (flag, n) in flags {
                *self.tile_flags.entry(hex16(flag)).or_default() += n;
            }
        }
        for e in &mesh.global_edges {
            count(&mut self.global_edge_flags, hex8(e.flag));
            count(&mut self.direction_bytes_a, hex8(e.dir[0]));
            count(&mut self.direction_bytes_b, hex8(e.dir[1]));
        }
        for e in &mesh.internal_edges {
            count(&mut self.internal_edge_flags, hex8(e.flag));
            count(&mut self.direction_bytes_a, hex8(e.dir[0]));
            count(&mut self.direction_bytes_b, hex8(e.dir[1]));
        }
        if mesh.layout != Layout::Tiles4NoPlanes {
            for &t in &mesh.planes.types {
                count(&mut self.plane_types, hex8(t));
            }
        }
    }

    fn add(&mut self, o: NavmeshStats) {
        self.files += o.files;
        self.dungeons += o.dungeons;
        merge(&mut self.layouts, o.layouts);
        self.exact_end += o.exact_end;
        self.with_trailing += o.with_trailing;
        self.trailing_bytes += o.trailing_bytes;
        self.objects += o.objects;
        self.cells += o.cells;
        self.open_cells += o.open_cells;
        self.global_edges += o.global_edges;
        self.internal_edges += o.internal_edges;
        merge(&mut self.tile_flags, o.tile_flags);
        merge(&mut self.global_edge_flags, o.global_edge_flags);
        merge(&mut self.internal_edge_flags, o.internal_edge_flags);
        merge(&mut self.direction_bytes_a, o.direction_bytes_a);
        merge(&mut self.direction_bytes_b, o.direction_bytes_b);
        merge(&mut self.plane_types, o.plane_types);
        self.directions.add(o.directions);
    }
}

impl DirectionStats {
    fn add_file(&mut self, report: &DirectionReport) {
        for d in 0..4 {
            for s in 0..4 {
                self.counts[d][s] += u64::from(report.counts[d][s]);
                self.counts_b[d][s] += u64::from(report.counts_b[d][s]);
            }
        }
        if report.measured() == 0 {
            self.not_measured += 1;
        } else if report.matching.is_empty() {
            self.no_convention += 1;
        }
        for name in &report.matching {
            count(&mut self.files_agreeing, (*name).to_owned());
        }
    }

    fn add(&mut self, o: DirectionStats) {
        for d in 0..4 {
            for s in 0..4 {
                self.counts[d][s] += o.counts[d][s];
                self.counts_b[d][s] += o.counts_b[d][s];
            }
        }
        merge(&mut self.files_agreeing, o.files_agreeing);
        self.not_measured += o.not_measured;
        self.no_convention += o.no_convention;
    }
}

impl TableStats {
    fn add(&mut self, o: &TableStats) {
        self.files += o.files;
        self.entries += o.entries;
        self.trailing_bytes += o.trailing_bytes;
    }
}

impl ObjectMeshStats {
    fn add_file(&mut self, mesh: &ObjectMesh) {
        self.files += 1;
        count(&mut self.versions, version_name(mesh.version));
        count(&mut self.nav_flags, hex32(mesh.header.nav_flags));
        match &mesh.nav {
            None => self.without_nav += 1,
            Some(nav) => {
                self.with_nav += 1;
                self.cells += nav.cells.len() as u64;
                for e in &nav.outline_edges {
                    count(&mut self.outline_edge_flags, hex8(e.flag));
                }
                for e in &nav.inline_edges {
                    count(&mut self.inline_edge_flags, hex8(e.flag));
                }
            }
        }
    }

    fn add(&mut self, o: ObjectMeshStats) {
        self.files += o.files;
        merge(&mut self.versions, o.versions);
        merge(&mut self.nav_flags, o.nav_flags);
        self.with_nav += o.with_nav;
        self.without_nav += o.without_nav;
        self.cells += o.cells;
        merge(&mut self.outline_edge_flags, o.outline_edge_flags);
        merge(&mut self.inline_edge_flags, o.inline_edge_flags);
    }
}

impl ResourceStats {
    fn add_file(&mut self, resource: &ResourceFile, bsr: bool) {
        if bsr {
            self.bsr += 1;
        } else {
            self.cpd += 1;
        }
        let kind = match resource.kind() {
            ResourceKind::Resource => "resource",
            ResourceKind::Compound => "compound",
        };
        count(&mut self.kinds, kind.to_owned());
        match resource.target_path() {
            Some(target) => {
                self.with_target += 1;
                count(
                    &mut self.target_extensions,
                    extension(&String::from_utf8_lossy(target)),
                );
            }
            None => self.without_target += 1,
        }
    }

    fn add(&mut self, o: ResourceStats) {
        self.bsr += o.bsr;
        self.cpd += o.cpd;
        merge(&mut self.kinds, o.kinds);
        self.with_target += o.with_target;
        self.without_target += o.without_target;
        merge(&mut self.target_extensions, o.target_extensions);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_told_apart_by_name_in_any_case() {
        assert_eq!(
            Kind::of("NV_694E.NVM"),
            Some(Kind::Navmesh(RegionId(0x694e)))
        );
        assert_eq!(Kind::of("MapInfo.mfo"), Some(Kind::MapInfo));
        assert_eq!(Kind::of("OBJECT.IFO"), Some(Kind::ObjectIfo));
        assert_eq!(Kind::of("tile2d.ifo"), Some(Kind::Tile2d));
        assert_eq!(Kind::of("a.BMS"), Some(Kind::Bms));
        assert_eq!(Kind::of("a.bsr"), Some(Kind::Bsr));
        assert_eq!(Kind::of("a.Cpd"), Some(Kind::Cpd));
        assert_eq!(Kind::of("a.ddj"), None);
        assert_eq!(Kind::of("nv_694e.nvm.bak"), None);
        assert_eq!(extension("README"), "");
        assert_eq!(extension("a.DDJ"), "ddj");
    }

    #[test]
    fn a_convention_agrees_when_every_counted_pair_is_its_own() {
        let mut counts = [[0u64; 4]; 4];
        counts[0][0] = 5;
        counts[2][2] = 1;
        assert!(agrees(&[0, 1, 2, 3], &counts));
        assert!(agrees(&[0, 3, 2, 1], &counts), "zxzx agrees on 0 and 2");
        assert!(!agrees(&[2, 3, 0, 1], &counts));
        counts[1][3] = 1;
        assert!(!agrees(&[0, 1, 2, 3], &counts));
        assert!(agrees(&[0, 3, 2, 1], &counts));
    }
}
