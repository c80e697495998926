//! The corpus report: statistics over every file of a folder or archive that silknav reads,
//! for a bug report or a survey of a client's data.
//!
//! [`scan`] reads every file below the folder a [`WorldSource`] opened (an archive's whole
//! tree when it opened the archive), in parallel, and sorts them by name: navmeshes
//! (`nv_XXXX.nvm`, any layout), `mapinfo.mfo`, `object.ifo`, `tile2d.ifo`, object meshes
//! (`.bms`), collision resources (`.bsr`, `.cpd`), dungeons (`.dof`), `dungeoninfo.txt` and
//! dungeon routes (`AINavData_<region>.dat`, as [`jmxv::ainav::region_from_file_name`] reads
//! the name), all in any case; other files are counted by extension and not read. Each file is
//! parsed and linted on its own with every finding kept (no caps); when the source has a world
//! (navmeshes in its navmesh folder), the checks between files run too. A file that cannot be
//! read or parsed is listed with its error, never a failure of the scan.
//!
//! When the corpus holds one `dungeoninfo.txt` and AINavData files, the two are compared by
//! region ([`Corpus::dungeon_checks`]): the AINavData files whose name gives a region that no
//! row names, and the rows the server loads whose region has no AINavData file. The files are
//! taken by name, read or not, as the server looks them up. The `.dof` files are not part of
//! this check: a row names its `.dof` by a path from the data root, which a folder inside the
//! data need not match.
//!
//! Histograms are keyed by the value in hexadecimal, zero-padded to the field's width
//! (`0x02`, `0x0001`), so that their keys sort as the values do.

use crate::files::{FileError, FolderFile, SourceFile, WorldFiles, WorldSource};
use crate::lint::{lint_world_with, WorldLintOptions};
use jmxv::ainav::AiNavData;
use jmxv::bms::ObjectMesh;
use jmxv::dof::{BlockLayout, DungeonFile};
use jmxv::ifo::{DungeonInfo, ObjectIfo, Tile2dIfo};
use jmxv::mfo::MapInfo;
use jmxv::nvm::lint::{
    lint_with, DirectionReport, Finding, LintOptions, Severity, DIRECTION_CONVENTIONS,
};
use jmxv::nvm::{Layout, NavMesh, ParseOptions};
use jmxv::res::{ResourceFile, ResourceKind};
use jmxv::RegionId;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
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
    /// The dungeons (`.dof`).
    pub dungeons: DungeonStats,
    /// The `dungeoninfo.txt` files.
    pub dungeon_info: DungeonInfoStats,
    /// The dungeon route files (`AINavData_<region>.dat`).
    pub ainav: AiNavStats,
    /// Whether `dungeoninfo.txt` and the AINavData files were compared
    /// ([`DungeonInfoStats::served_without_ainav`], [`AiNavStats::unlisted`]): `run`;
    /// `no-dungeoninfo` when the corpus has no `dungeoninfo.txt`; `several-dungeoninfo` when it
    /// has more than one (which the server reads is not known); `skipped-unreadable` when its
    /// one is unreadable; `no-ainav` when it has no AINavData file.
    pub dungeon_checks: &'static str,
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

/// The dungeons (`.dof`) of a corpus.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct DungeonStats {
    /// Dungeons parsed.
    pub files: u64,
    /// Files by block layout: `standard`, `legacy` (both present).
    pub layouts: BTreeMap<String, u64>,
    /// Blocks, over all files.
    pub blocks: u64,
    /// Distinct block paths over all files, compared in any ASCII case and with `\` and `/`
    /// alike: the block resources (`.bsr`) the dungeons place.
    pub block_paths: u64,
    /// Blocks with height fog (the height-fog byte is 1).
    pub height_fog_blocks: u64,
    /// Blocks with the extra group (the extra byte is 2).
    pub extra_blocks: u64,
    /// Objects placed in blocks, by their flag (0x2 collision circle, 0x4 water).
    pub object_flags: BTreeMap<String, u64>,
    /// Objects that are collision circles (flag bit 0x2), over all files.
    pub collision_circles: u64,
    /// Lights, over all blocks.
    pub lights: u64,
    /// Files with room and floor names (a label section).
    pub labelled: u64,
    /// The largest voxel grid width, height and length (x, y, z) of any file, each the
    /// largest on its own axis.
    pub grid_max: [u32; 3],
    /// Files with bytes that no section claims, between the sections or after the last.
    pub with_unclaimed: u64,
    /// Those bytes, over all files.
    pub unclaimed_bytes: u64,
}

/// The `dungeoninfo.txt` files of a corpus.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct DungeonInfoStats {
    /// Files parsed.
    pub files: u64,
    /// Rows (dungeons listed), over all files.
    pub rows: u64,
    /// Of them the rows the server loads (service flag not 0, or no service column).
    pub served: u64,
    /// Files whose every row has the service column.
    pub with_service_column: u64,
    /// Files where no row has it (files without rows count in none of the three).
    pub without_service_column: u64,
    /// Files with rows of both forms (lint I007).
    pub mixed_service_column: u64,
    /// Rows the server loads whose region has no AINavData file in the corpus; `None` unless
    /// [`Corpus::dungeon_checks`] is `run`.
    pub served_without_ainav: Option<u64>,
}

/// The dungeon route files (`AINavData_<region>.dat`) of a corpus.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct AiNavStats {
    /// Files parsed.
    pub files: u64,
    /// Blocks of the routing section, over all files.
    pub blocks: u64,
    /// The fewest cells of a file (the sum of its blocks' cell counts, the sides of their
    /// tables); `None` without files.
    pub cells_min: Option<u64>,
    /// The most cells of a file; `None` without files.
    pub cells_max: Option<u64>,
    /// Bytes between the routing and the edge-centre sections, over all files.
    pub gap_bytes: u64,
    /// Bytes after the edge-centre section, over all files.
    pub trailing_bytes: u64,
    /// Files (read or not) whose name gives a region that no row of `dungeoninfo.txt` names;
    /// `None` unless [`Corpus::dungeon_checks`] is `run`.
    pub unlisted: Option<u64>,
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
    Dof,
    DungeonInfo,
    AiNav(RegionId),
}

/// The name of the dungeon list (`dungeon\dungeoninfo.txt` in `Data.pk2`), in any case.
const DUNGEON_INFO: &str = "dungeoninfo.txt";

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
        if name.eq_ignore_ascii_case(DUNGEON_INFO) {
            return Some(Kind::DungeonInfo);
        }
        if let Some(region) = jmxv::ainav::region_from_file_name(name) {
            return Some(Kind::AiNav(region));
        }
        match extension(name).as_str() {
            "bms" => Some(Kind::Bms),
            "bsr" => Some(Kind::Bsr),
            "cpd" => Some(Kind::Cpd),
            "dof" => Some(Kind::Dof),
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
    /// What the statistics and checks over all dungeon files take from it.
    dungeon: DungeonPart,
}

/// What the statistics and checks over all dungeon files take from one file.
enum DungeonPart {
    /// Nothing: not a dungeon file, or a `.dof` that could not be read.
    None,
    /// A `.dof`'s block paths, as [`block_path_key`] spells them.
    BlockPaths(Vec<Vec<u8>>),
    /// An AINavData file's region, by its name, whether it could be read or not.
    AiNav(RegionId),
    /// A `dungeoninfo.txt`: the regions of its rows, and of its served rows; `None` when it
    /// could not be read.
    Info(Option<InfoRegions>),
}

/// The regions of a `dungeoninfo.txt`'s rows (ids above 0x7FFF have none, lint I003).
struct InfoRegions {
    /// Of every row, served or not.
    named: HashSet<RegionId>,
    /// Of each row the server loads.
    served: Vec<RegionId>,
}

impl DungeonPart {
    /// The part of a file of this kind that could not be read.
    fn unread(kind: Kind) -> DungeonPart {
        match kind {
            Kind::AiNav(region) => DungeonPart::AiNav(region),
            Kind::DungeonInfo => DungeonPart::Info(None),
            _ => DungeonPart::None,
        }
    }
}

/// A block path as paths in the data are compared: ASCII letters in any case, `\` and `/`
/// alike.
fn block_path_key(path: &[u8]) -> Vec<u8> {
    path.iter()
        .map(|&b| {
            if b == b'\\' {
                b'/'
            } else {
                b.to_ascii_lowercase()
            }
        })
        .collect()
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
        dungeons: DungeonStats {
            layouts: BlockLayout::ALL
                .iter()
                .map(|l| (l.name().to_owned(), 0))
                .collect(),
            ..DungeonStats::default()
        },
        ..Corpus::default()
    };
    let mut world_files = WorldFiles::default();
    let mut meshes: HashMap<PathBuf, Box<ObjectMesh>> = HashMap::new();
    let mut lost = false;
    let mut block_paths: HashSet<Vec<u8>> = HashSet::new();
    let mut ainav_regions: Vec<RegionId> = Vec::new();
    let mut infos: Vec<Option<InfoRegions>> = Vec::new();
    for one in parsed {
        lost |= one.lost;
        corpus.add(one.corpus);
        match one.dungeon {
            DungeonPart::None => {}
            DungeonPart::BlockPaths(paths) => block_paths.extend(paths),
            DungeonPart::AiNav(region) => ainav_regions.push(region),
            DungeonPart::Info(info) => infos.push(info),
        }
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
    corpus.dungeons.block_paths = block_paths.len() as u64;
    corpus.dungeon_checks = dungeon_checks(&mut corpus, &infos, &ainav_regions);
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

/// Compares the one `dungeoninfo.txt` with the AINavData files by region, when the corpus has
/// both: see [`Corpus::dungeon_checks`].
fn dungeon_checks(
    corpus: &mut Corpus,
    infos: &[Option<InfoRegions>],
    ainav: &[RegionId],
) -> &'static str {
    let info = match infos {
        [] => return "no-dungeoninfo",
        [None] => return "skipped-unreadable",
        [Some(info)] => info,
        _ => return "several-dungeoninfo",
    };
    if ainav.is_empty() {
        return "no-ainav";
    }
    let files: HashSet<RegionId> = ainav.iter().copied().collect();
    corpus.ainav.unlisted = Some(ainav.iter().filter(|r| !info.named.contains(r)).count() as u64);
    corpus.dungeon_info.served_without_ainav =
        Some(info.served.iter().filter(|r| !files.contains(r)).count() as u64);
    "run"
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
            dungeon: DungeonPart::None,
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
            dungeon: DungeonPart::unread(kind),
        }
    };
    let bytes = match source.read_file(file) {
        Ok(bytes) => bytes,
        Err(e) => return unreadable(corpus, e.error.to_string()),
    };
    let mut dungeon = DungeonPart::None;
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
        Kind::Dof => match DungeonFile::parse(&bytes) {
            Err(e) => return unreadable(corpus, e.to_string()),
            Ok(d) => {
                corpus.dungeons.add_file(&d);
                corpus.add_findings(&jmxv::dof::lint::lint(&d));
                dungeon = DungeonPart::BlockPaths(
                    d.blocks.iter().map(|b| block_path_key(&b.path)).collect(),
                );
                None
            }
        },
        Kind::DungeonInfo => match DungeonInfo::parse(&bytes) {
            Err(e) => return unreadable(corpus, e.to_string()),
            Ok(info) => {
                corpus.dungeon_info.add_file(&info);
                corpus.add_findings(&jmxv::ifo::dungeon::lint(&info));
                dungeon = DungeonPart::Info(Some(InfoRegions {
                    named: info.rows().filter_map(|r| r.region()).collect(),
                    served: info.served().filter_map(|r| r.region()).collect(),
                }));
                None
            }
        },
        Kind::AiNav(region) => match AiNavData::parse(&bytes) {
            Err(e) => return unreadable(corpus, e.to_string()),
            Ok(nav) => {
                corpus.ainav.add_file(&nav);
                corpus.add_findings(&jmxv::ainav::lint::lint(&nav));
                dungeon = DungeonPart::AiNav(region);
                None
            }
        },
    };
    Parsed {
        corpus,
        kept,
        lost: false,
        dungeon,
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
        self.dungeons.add(other.dungeons);
        self.dungeon_info.add(&other.dungeon_info);
        self.ainav.add(&other.ainav);
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
    let tables: [&[(&str, Severity, &'static str)]; 9] = [
        jmxv::nvm::lint::CODES,
        jmxv::bms::lint::CODES,
        jmxv::mfo::CODES,
        jmxv::ifo::object::CODES,
        jmxv::ifo::tile2d::CODES,
        jmxv::dof::lint::CODES,
        jmxv::ifo::dungeon::CODES,
        jmxv::ainav::lint::CODES,
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

impl DungeonStats {
    fn add_file(&mut self, d: &DungeonFile) {
        self.files += 1;
        count(&mut self.layouts, d.block_layout.name().to_owned());
        self.blocks += d.blocks.len() as u64;
        for b in &d.blocks {
            self.height_fog_blocks += u64::from(b.fog.height.is_some());
            self.extra_blocks += u64::from(b.extra.is_some());
            self.lights += b.lights.len() as u64;
            for o in &b.objects {
                count(&mut self.object_flags, hex32(o.flag));
                self.collision_circles += u64::from(o.flag & jmxv::dof::OBJECT_COLLISION != 0);
            }
        }
        self.labelled += u64::from(d.labels.is_some());
        self.grid_max = max_each(self.grid_max, d.grid.size);
        let unclaimed: usize =
            d.order.iter().map(|p| p.gap_before.len()).sum::<usize>() + d.trailing.len();
        if unclaimed > 0 {
            self.with_unclaimed += 1;
            self.unclaimed_bytes += unclaimed as u64;
        }
    }

    /// Adds another part's statistics; the distinct block paths are counted over the whole
    /// corpus by [`scan`], not here.
    fn add(&mut self, o: DungeonStats) {
        self.files += o.files;
        merge(&mut self.layouts, o.layouts);
        self.blocks += o.blocks;
        self.height_fog_blocks += o.height_fog_blocks;
        self.extra_blocks += o.extra_blocks;
        merge(&mut self.object_flags, o.object_flags);
        self.collision_circles += o.collision_circles;
        self.lights += o.lights;
        self.labelled += o.labelled;
        self.grid_max = max_each(self.grid_max, o.grid_max);
        self.with_unclaimed += o.with_unclaimed;
        self.unclaimed_bytes += o.unclaimed_bytes;
    }
}

fn max_each(a: [u32; 3], b: [u32; 3]) -> [u32; 3] {
    [a[0].max(b[0]), a[1].max(b[1]), a[2].max(b[2])]
}

impl DungeonInfoStats {
    fn add_file(&mut self, info: &DungeonInfo) {
        self.files += 1;
        self.rows += info.rows().count() as u64;
        self.served += info.served().count() as u64;
        let rows = info.rows().next().is_some();
        match info.has_service_column() {
            Some(true) => self.with_service_column += 1,
            Some(false) => self.without_service_column += 1,
            None if rows => self.mixed_service_column += 1,
            None => {}
        }
    }

    /// Adds another part's counts; the cross check is made over the whole corpus by [`scan`].
    fn add(&mut self, o: &DungeonInfoStats) {
        self.files += o.files;
        self.rows += o.rows;
        self.served += o.served;
        self.with_service_column += o.with_service_column;
        self.without_service_column += o.without_service_column;
        self.mixed_service_column += o.mixed_service_column;
    }
}

impl AiNavStats {
    fn add_file(&mut self, nav: &AiNavData) {
        self.files += 1;
        self.blocks += nav.blocks.len() as u64;
        let cells: u64 = nav
            .blocks
            .iter()
            .map(|b| u64::from(b.next_edge.side()))
            .sum();
        self.cells_min = Some(cells);
        self.cells_max = Some(cells);
        self.gap_bytes += nav.gap.len() as u64;
        self.trailing_bytes += nav.trailing.len() as u64;
    }

    /// Adds another part's counts; the cross check is made over the whole corpus by [`scan`].
    fn add(&mut self, o: &AiNavStats) {
        self.files += o.files;
        self.blocks += o.blocks;
        self.cells_min = match (self.cells_min, o.cells_min) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.cells_max = self.cells_max.max(o.cells_max);
        self.gap_bytes += o.gap_bytes;
        self.trailing_bytes += o.trailing_bytes;
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
        assert_eq!(Kind::of("Cave.DOF"), Some(Kind::Dof));
        assert_eq!(Kind::of("DungeonInfo.TXT"), Some(Kind::DungeonInfo));
        assert_eq!(Kind::of("dungeoninfo.txt.bak"), None);
        assert_eq!(
            Kind::of("ainavdata_32769.DAT"),
            Some(Kind::AiNav(RegionId(0x8001)))
        );
        assert_eq!(Kind::of("AINavData_032769.dat"), None);
        assert_eq!(Kind::of("other.txt"), None);
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

    /// `dungeoninfo.txt` for the dungeon scan: ids 17 (served), 18 (skipped) and 19 (served,
    /// with forward slashes: I008).
    const DUNGEON_INFO_TXT: &[u8] = b"// service\tid\tpath\r\n\
        1\t17\t\"Dungeon\\temple.dof\"\r\n\
        0\t18\t\"Dungeon\\shuffled.dof\"\r\n\
        1\t19\t\"Dungeon/cave.dof\"\r\n";

    /// Routes of one block of two cells, region 0x8012, with 2 bytes between the sections
    /// (A016) and 3 after them (A017).
    fn small_routes() -> Vec<u8> {
        use jmxv::ainav::{NextEdge, RouteBlock, SquareTable, NO_EDGE};
        let region = RegionId(0x8012);
        let nav = AiNavData {
            region,
            centre_region: region,
            blocks: vec![RouteBlock {
                edge_count: 1,
                next_edge: SquareTable::from_fn(2, |goal, start| {
                    let edge = if goal == start { NO_EDGE } else { 0 };
                    NextEdge {
                        forward: edge,
                        backward: edge,
                    }
                }),
                ..RouteBlock::default()
            }],
            sub_goals: SquareTable::from_fn(1, |_, _| -1),
            edge_centres: vec![vec![[jmxv::F32::from(10.0); 3]]],
            gap: vec![0xAA, 0xBB],
            trailing: vec![1, 2, 3],
            ..AiNavData::default()
        };
        nav.to_vec().unwrap()
    }

    fn write(dir: &std::path::Path, relative: &str, bytes: &[u8]) {
        let path = dir.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }

    fn lint_counts(corpus: &Corpus) -> Vec<(&str, u64, u64)> {
        corpus
            .lint
            .iter()
            .map(|(code, s)| (code.as_str(), s.findings, s.files))
            .collect()
    }

    #[test]
    fn dungeon_files_are_counted_linted_and_compared() {
        use silknav_testkit::second_writer;
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("Data");
        let temple = second_writer::dof::temple().to_bytes();
        write(&data, "dungeon/temple.dof", &temple);
        // The same block paths as the temple's: one in another case and with `/`.
        let mut shuffled = second_writer::dof::shuffled_temple();
        shuffled.blocks[0].path = b"DUNGEON/Temple/HALL.BSR".to_vec();
        write(&data, "dungeon/Shuffled.DOF", &shuffled.to_bytes());
        // A taller grid than the temple's, and a connected block that does not exist (D001).
        let mut cave = second_writer::dof::legacy_cave();
        cave.grid_size = [4, 3, 2];
        cave.blocks[0].connected = vec![1, 5];
        write(&data, "dungeon/cave.dof", &cave.to_bytes());
        write(&data, "dungeon/broken.dof", &temple[..temple.len() / 2]);
        write(&data, "dungeon/dungeoninfo.txt", DUNGEON_INFO_TXT);
        write(
            &data,
            "navmesh/AINavData_32785.dat",
            &second_writer::ainav::corridor().to_bytes(),
        );
        write(&data, "navmesh/AINavData_32786.DAT", &small_routes());
        let mut version_2 = second_writer::ainav::corridor().to_bytes();
        version_2[0] = 2;
        write(&data, "navmesh/AINavData_32800.dat", &version_2);
        write(&data, "navmesh/AINavData_032785.dat", &small_routes());

        let corpus = scan(&WorldSource::folder(&data).unwrap()).unwrap();
        assert_eq!((corpus.files, corpus.read), (9, 8));
        assert_eq!(corpus.not_read, BTreeMap::from([("dat".to_owned(), 1)]));
        assert_eq!(corpus.world_checks, "no-world");

        let d = &corpus.dungeons;
        assert_eq!(d.files, 3);
        let layouts: Vec<(&str, u64)> = d.layouts.iter().map(|(k, n)| (k.as_str(), *n)).collect();
        assert_eq!(layouts, [("legacy", 1), ("standard", 2)]);
        assert_eq!(d.blocks, 4 + 4 + 2);
        assert_eq!(
            d.block_paths,
            4 + 2,
            "the shuffled temple's paths are the temple's"
        );
        assert_eq!((d.height_fog_blocks, d.extra_blocks), (2, 3));
        let flags: Vec<(&str, u64)> = d
            .object_flags
            .iter()
            .map(|(k, n)| (k.as_str(), *n))
            .collect();
        assert_eq!(
            flags,
            [("0x00000000", 2), ("0x00000002", 2), ("0x00000004", 2)]
        );
        assert_eq!(d.collision_circles, 2);
        assert_eq!(d.lights, 4 + 4 + 1);
        assert_eq!(d.labelled, 2);
        assert_eq!(d.grid_max, [8, 3, 4]);
        assert_eq!(d.with_unclaimed, 1);
        assert_eq!(
            d.unclaimed_bytes,
            3 + 3 + 5 + 5,
            "three gaps and the trailing bytes"
        );

        let i = &corpus.dungeon_info;
        assert_eq!((i.files, i.rows, i.served), (1, 3, 2));
        assert_eq!(
            (
                i.with_service_column,
                i.without_service_column,
                i.mixed_service_column
            ),
            (1, 0, 0)
        );

        let a = &corpus.ainav;
        assert_eq!((a.files, a.blocks), (2, 3 + 1));
        assert_eq!((a.cells_min, a.cells_max), (Some(2), Some(4 + 3 + 5)));
        assert_eq!((a.gap_bytes, a.trailing_bytes), (2, 3));

        // 32800 (unreadable, but named) has no row; row 19 is served and has no file; row 18
        // is skipped, and named, so 32786 is listed.
        assert_eq!(corpus.dungeon_checks, "run");
        assert_eq!(a.unlisted, Some(1));
        assert_eq!(i.served_without_ainav, Some(1));

        assert_eq!(
            lint_counts(&corpus),
            [
                ("A016", 1, 1),
                ("A017", 1, 1),
                ("D001", 1, 1),
                ("D017", 2, 1),
                ("D018", 4, 1),
                ("D019", 1, 1),
                ("I008", 1, 1),
            ]
        );
        let d001 = &corpus.lint["D001"];
        assert_eq!(d001.severity, "error");
        assert_eq!(
            d001.meaning,
            "a block's connected block index is >= the block count"
        );
        assert_eq!(corpus.lint["I008"].severity, "warning");
        assert_eq!(
            corpus.lint["A017"].meaning,
            "bytes after the edge-centre section"
        );

        let unreadable: Vec<String> = corpus
            .unreadable
            .iter()
            .map(|u| {
                let path = std::path::Path::new(&u.path);
                let folder = path.parent().unwrap().file_name().unwrap();
                let name = path.file_name().unwrap();
                format!("{}/{}", folder.to_string_lossy(), name.to_string_lossy())
            })
            .collect();
        assert_eq!(
            unreadable,
            ["dungeon/broken.dof", "navmesh/AINavData_32800.dat"]
        );
        assert!(
            corpus.unreadable[1].error.contains("version"),
            "{}",
            corpus.unreadable[1].error
        );
    }

    #[test]
    fn dungeon_lists_count_their_forms_and_two_skip_the_checks() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "a/dungeoninfo.txt",
            b"17\t\"Dungeon\\a.dof\"\r\n",
        );
        write(
            dir.path(),
            "b/DungeonInfo.TXT",
            b"0\t17\t\"Dungeon\\a.dof\"\r\n18\t\"Dungeon\\b.dof\"\r\n",
        );
        write(dir.path(), "c/dungeoninfo.txt", b"// no rows\r\n");
        write(dir.path(), "AINavData_32785.dat", &small_routes());
        let corpus = scan(&WorldSource::folder(dir.path()).unwrap()).unwrap();
        let i = &corpus.dungeon_info;
        assert_eq!((i.files, i.rows, i.served), (3, 3, 2));
        assert_eq!(
            (
                i.with_service_column,
                i.without_service_column,
                i.mixed_service_column
            ),
            (0, 1, 1),
            "a file without rows has no form"
        );
        assert_eq!(corpus.dungeon_checks, "several-dungeoninfo");
        assert_eq!(
            (corpus.ainav.unlisted, i.served_without_ainav),
            (None, None)
        );
        assert_eq!(corpus.lint["I007"].findings, 1);
        let i011 = &corpus.lint["I011"];
        assert_eq!((i011.findings, i011.files), (1, 1), "c loads no dungeon");
    }

    #[test]
    fn dungeon_checks_need_one_readable_list_and_routes() {
        let region = RegionId(0x8001);
        let info = || InfoRegions {
            named: HashSet::from([region]),
            served: vec![region, RegionId(0x8002)],
        };
        let mut corpus = Corpus::default();
        assert_eq!(
            dungeon_checks(&mut corpus, &[], &[region]),
            "no-dungeoninfo"
        );
        assert_eq!(
            dungeon_checks(&mut corpus, &[None], &[region]),
            "skipped-unreadable"
        );
        assert_eq!(
            dungeon_checks(&mut corpus, &[Some(info()), None], &[region]),
            "several-dungeoninfo"
        );
        assert_eq!(
            dungeon_checks(&mut corpus, &[Some(info())], &[]),
            "no-ainav"
        );
        assert_eq!(corpus.ainav.unlisted, None);
        assert_eq!(
            dungeon_checks(
                &mut corpus,
                &[Some(info())],
                &[region, RegionId(0x8003), RegionId(0x8004)]
            ),
            "run"
        );
        assert_eq!(corpus.ainav.unlisted, Some(2));
        assert_eq!(corpus.dungeon_info.served_without_ainav, Some(1));
    }
}
