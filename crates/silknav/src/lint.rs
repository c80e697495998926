//! World lint: the checks that need more than one file of a world folder.
//!
//! Each finding has a stable code (`X…`), a severity, the file it is about and a location in
//! that file named like the JSON dump. Single-file checks ([`jmxv::nvm::lint`]) run too.
//!
//! | code | severity | finding |
//! |---|---|---|
//! | X001 | error | a global edge has no twin in the neighbour's file (mirrored coordinates, swapped cells and regions) |
//! | X002 | error | a global edge leads to a region that has no file |
//! | X003 | error | a global edge's `cell[1]` is not an open cell of the neighbour |
//! | X004 | error | a region enabled in `mapinfo.mfo` has no file |
//! | X005 | error | a file's region is not enabled in `mapinfo.mfo` |
//! | X006 | error | an object id is not in `object.ifo` |
//! | X007 | error | a tile's texture id is not below the `tile2d.ifo` count |
//! | X008 | warning | the height vertices two neighbours share on their border disagree |
//! | X009 | error | an instance of an object owned by another region disagrees with the owner's |
//! | X010 | error | an object owned by another region is not listed by the owner |
//! | X011 | warning | a companion file is missing, so its checks were skipped |
//! | X012 | error | an object mesh (`.bms`) that an instance's object id names in `object.ifo` has no file under the data root |
//! | X013 | error | an instance's position lies outside its file's region: `[0, 1920]` on x and z when the file's region owns it, `[−1920, 3840]` when a neighbour does |
//!
//! Every object mesh of the world is linted on its own too ([`jmxv::bms::lint`]); its
//! findings (`B…`) are listed with the mesh's `object.ifo` path as their file. Only `.bms`
//! paths are checked for a file: silknav does not read `.bsr`, `.cpd` or `.dof` files yet.
//!
//! At most [`MAX_PER_CODE`] findings of a code are listed per file, then one that counts the
//! rest.
//!
//! Objects are compared by identity `(region_id << 16) | uid`; positions are compared in
//! world coordinates with a tolerance of [`POSITION_TOLERANCE`] units, because each file
//! stores the position in its own frame as an f32.

use crate::files::WorldFiles;
use jmxv::nvm::lint::{lint_with, Finding, LintOptions, Report, Severity};
use jmxv::nvm::{NavMesh, Object, HEIGHTS_PER_SIDE};
use jmxv::RegionId;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};

/// How far apart (in world units) two files' copies of one object may be: an f32 position
/// near 1920 has a resolution of about 1e-4, and a shift of frame loses a little more.
pub const POSITION_TOLERANCE: f64 = 0.01;

/// Every world-lint code, its severity and what it means.
pub const CODES: &[(&str, Severity, &str)] = &[
    (
        "X001",
        Severity::Error,
        "global edge without a twin in the neighbour's file",
    ),
    (
        "X002",
        Severity::Error,
        "global edge leads to a region that has no file",
    ),
    (
        "X003",
        Severity::Error,
        "global edge's cell[1] is not an open cell of the neighbour",
    ),
    (
        "X004",
        Severity::Error,
        "region enabled in mapinfo.mfo has no file",
    ),
    (
        "X005",
        Severity::Error,
        "file's region is not enabled in mapinfo.mfo",
    ),
    ("X006", Severity::Error, "object id not in object.ifo"),
    (
        "X007",
        Severity::Error,
        "tile texture id not below the tile2d.ifo count",
    ),
    (
        "X008",
        Severity::Warning,
        "shared border height vertices disagree",
    ),
    (
        "X009",
        Severity::Error,
        "copy of a neighbour-owned object disagrees with the owner's",
    ),
    (
        "X010",
        Severity::Error,
        "neighbour-owned object not listed by its owner",
    ),
    (
        "X011",
        Severity::Warning,
        "companion file missing; its checks were skipped",
    ),
    (
        "X012",
        Severity::Error,
        "object mesh named in object.ifo has no file under the data root",
    ),
    (
        "X013",
        Severity::Error,
        "object instance lies outside its file's region",
    ),
    (
        "X014",
        Severity::Error,
        "dungeon file named by dungeoninfo.txt, a .dof or a .bsr has no file under the data root",
    ),
    (
        "X015",
        Severity::Warning,
        "dungeon dungeoninfo.txt loads has no AINavData file",
    ),
];

/// A finding about one file of a world.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorldFinding {
    /// The file's name in the folder (`nv_4080.nvm`, `mapinfo.mfo`), or an object mesh's
    /// path as `object.ifo` spells it (`res\bldg\house.bms`).
    pub file: String,
    /// The finding.
    pub finding: Finding,
}

/// The result of linting a world folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorldReport {
    /// The single-file report of every navmesh.
    pub files: BTreeMap<RegionId, Report>,
    /// Cross-file findings and the companion files' own findings.
    pub world: Vec<WorldFinding>,
}

impl WorldReport {
    /// Every finding of the world, per-file ones first, with the file each is about.
    pub fn all(&self) -> impl Iterator<Item = (String, &Finding)> {
        let per_file = self
            .files
            .iter()
            .flat_map(|(r, rep)| rep.findings.iter().map(move |f| (r.file_name(), f)));
        per_file.chain(self.world.iter().map(|w| (w.file.clone(), &w.finding)))
    }

    /// Number of findings of a severity, over all files.
    pub fn count(&self, severity: Severity) -> usize {
        self.all().filter(|(_, f)| f.severity == severity).count()
    }

    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.count(Severity::Error) > 0
    }
}

/// How [`lint_world_with`] lints a world.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct WorldLintOptions {
    /// Findings of one code listed per file before one closing finding counts the rest
    /// ([`MAX_PER_CODE`] by default); `usize::MAX` lists all.
    pub max_per_code: usize,
    /// Whether every file is also linted on its own (navmeshes, companions, object meshes):
    /// on by default; off, only the checks between files (`X…`) run, and
    /// [`WorldReport::files`] is empty.
    pub single_files: bool,
}

impl Default for WorldLintOptions {
    fn default() -> WorldLintOptions {
        WorldLintOptions {
            max_per_code: MAX_PER_CODE,
            single_files: true,
        }
    }
}

impl WorldLintOptions {
    /// Every finding listed, none counted in a closing finding: for statistics.
    pub fn all_findings(mut self) -> WorldLintOptions {
        self.max_per_code = usize::MAX;
        self
    }

    /// Only the checks between files (`X…`): for callers that lint each file themselves.
    pub fn cross_file_only(mut self) -> WorldLintOptions {
        self.single_files = false;
        self
    }
}

/// Lints a whole world: every file on its own (navmeshes in parallel), then the cross-file
/// invariants.
pub fn lint_world(files: &WorldFiles) -> WorldReport {
    lint_world_with(files, &WorldLintOptions::default())
}

/// [`lint_world`] with options: all findings, or the checks between files alone.
pub fn lint_world_with(files: &WorldFiles, options: &WorldLintOptions) -> WorldReport {
    let mut single = LintOptions::default();
    single.max_per_code = options.max_per_code;
    let navmeshes: Vec<(&RegionId, &NavMesh)> = if options.single_files {
        files.navmeshes.iter().collect()
    } else {
        Vec::new()
    };
    let mut report = WorldReport {
        files: navmeshes
            .par_iter()
            .map(|&(&r, mesh)| (r, lint_with(mesh, Some(r), &single)))
            .collect(),
        world: Vec::new(),
    };
    let mut out = Findings {
        list: &mut report.world,
        counts: HashMap::new(),
        max_per_code: options.max_per_code,
        single_files: options.single_files,
    };
    check_global_edges(files, &mut out);
    check_mapinfo(files, &mut out);
    check_tables(files, &mut out);
    check_border_heights(files, &mut out);
    check_shared_objects(files, &mut out);
    check_object_files(files, &mut out);
    check_instance_positions(files, &mut out);
    check_dungeons(files, &mut out);
    out.summarise_overflow();
    report
}

/// At most this many findings of one code are listed per file; the rest are counted in one
/// closing finding, so that one missing file does not bury the report under its border edges.
pub const MAX_PER_CODE: usize = 20;

/// Collects findings, looking up each code's severity in [`CODES`].
struct Findings<'a> {
    list: &'a mut Vec<WorldFinding>,
    /// Findings seen per (file, code), listed or not.
    counts: HashMap<(String, &'static str), usize>,
    /// Listed per (file, code) before the rest are counted.
    max_per_code: usize,
    /// Whether single-file findings (of companions and object meshes) are wanted.
    single_files: bool,
}

impl Findings<'_> {
    fn push(&mut self, code: &'static str, file: String, location: String, message: String) {
        let seen = self.counts.entry((file.clone(), code)).or_default();
        *seen += 1;
        if *seen > self.max_per_code {
            return;
        }
        let severity = CODES
            .iter()
            .find(|c| c.0 == code)
            .map_or(Severity::Error, |c| c.1);
        self.list.push(WorldFinding {
            file,
            finding: Finding {
                code,
                severity,
                location,
                message,
            },
        });
    }

    /// One closing finding per (file, code) past the cap: "and N more".
    fn summarise_overflow(&mut self) {
        let max = self.max_per_code;
        let mut over: Vec<(&(String, &'static str), &usize)> =
            self.counts.iter().filter(|(_, &n)| n > max).collect();
        over.sort();
        for ((file, code), &n) in over {
            let severity = CODES
                .iter()
                .find(|c| c.0 == *code)
                .map_or(Severity::Error, |c| c.1);
            self.list.push(WorldFinding {
                file: file.clone(),
                finding: Finding {
                    code,
                    severity,
                    location: String::new(),
                    message: format!("and {} more like this", n - max),
                },
            });
        }
    }
}

/// X012 and each object mesh's own lint.
fn check_object_files(files: &WorldFiles, out: &mut Findings<'_>) {
    if let Some(table) = &files.object_ifo {
        // The first instance of each used id, to name in the finding.
        let mut used: BTreeMap<u32, (RegionId, usize, usize)> = BTreeMap::new();
        for (&region, mesh) in &files.navmeshes {
            for (i, o) in mesh.objects.iter().enumerate() {
                used.entry(o.object_id).or_insert((region, i, 0)).2 += 1;
            }
        }
        for (e, entry) in table.entries.iter().enumerate() {
            let Some(&(region, first, count)) = used.get(&entry.index) else {
                continue;
            };
            let name = String::from_utf8_lossy(&entry.path);
            if !crate::files::is_object_mesh_path(&name) || files.object_files.contains_key(&*name)
            {
                continue;
            }
            let why = if std::str::from_utf8(&entry.path).is_ok() {
                "no such file under the data root"
            } else {
                "the path is not UTF-8, so it names no file silknav can open"
            };
            out.push(
                "X012",
                crate::files::OBJECT_IFO.into(),
                format!("entries[{e}].path"),
                format!(
                    "{name}: {why} (object id {}, {count} instances, first {} objects[{first}])",
                    entry.index,
                    region.file_name()
                ),
            );
        }
    }
    if !out.single_files {
        return;
    }
    for (name, mesh) in &files.object_files {
        for finding in jmxv::bms::lint::lint(mesh) {
            out.list.push(WorldFinding {
                file: name.clone(),
                finding,
            });
        }
    }
}

/// The dungeon files: each on its own (D…, I…, A…, B… codes), the chain from
/// `dungeoninfo.txt` to every `.dof`, `.bsr` and `.bms` (X014), every loaded dungeon's
/// `AINavData` (X015), and each `AINavData` against its dungeon's blocks (A018–A020).
fn check_dungeons(files: &WorldFiles, out: &mut Findings<'_>) {
    use crate::files::DUNGEON_INFO_PATH;
    use jmxv::ifo::DungeonLine;
    let d = &files.dungeons;
    let Some(info) = &d.info else {
        return;
    };
    let missing = |out: &mut Findings<'_>, file: &str, location: String, path: &[u8]| {
        out.push(
            "X014",
            file.to_owned(),
            location,
            format!(
                "{}: no such file under the data root",
                String::from_utf8_lossy(path)
            ),
        );
    };
    let mut seen = std::collections::BTreeSet::new();
    for (line, row) in info.lines.iter().enumerate().filter_map(|(i, l)| match l {
        DungeonLine::Row(row) => Some((i, row)),
        _ => None,
    }) {
        let routes = row.region().and_then(|region| {
            let routes = d.routes.get(&region);
            if routes.is_none() && row.is_served() {
                out.push(
                    "X015",
                    DUNGEON_INFO_PATH.to_owned(),
                    format!("lines[{line}]"),
                    format!(
                        "dungeon {} (region {region}) has no {}",
                        row.id,
                        jmxv::ainav::file_name(region)
                    ),
                );
            }
            routes.map(|r| (region, r))
        });
        let path = String::from_utf8_lossy(&row.path).into_owned();
        let Some(layout) = d.layouts.get(&path) else {
            missing(
                out,
                DUNGEON_INFO_PATH,
                format!("lines[{line}].path"),
                &row.path,
            );
            continue;
        };
        // Each block's counts, while the chain to its mesh is whole.
        let mut counts = Some(Vec::with_capacity(layout.blocks.len()));
        for (b, block) in layout.blocks.iter().enumerate() {
            let bsr = String::from_utf8_lossy(&block.path).into_owned();
            let mesh = match d.resources.get(&bsr) {
                None => {
                    if seen.insert(bsr.clone()) {
                        missing(out, &path, format!("blocks[{b}].path"), &block.path);
                    }
                    None
                }
                Some(resource) => {
                    let bms = resource
                        .target_path()
                        .map(|p| String::from_utf8_lossy(p).into_owned());
                    let mesh = bms.as_ref().and_then(|bms| d.meshes.get(bms));
                    if let (None, Some(bms)) = (mesh, &bms) {
                        if seen.insert(bms.clone()) {
                            missing(out, &bsr, "collision_mesh".into(), bms.as_bytes());
                        }
                    }
                    mesh
                }
            };
            match (mesh.and_then(|m| m.nav.as_ref()), counts.as_mut()) {
                (Some(nav), Some(list)) => list.push(jmxv::ainav::lint::BlockCounts {
                    cells: nav.cells.len() as u32,
                    edges: (nav.outline_edges.len() + nav.inline_edges.len()) as u32,
                }),
                _ => counts = None,
            }
        }
        if let (Some((region, routes)), Some(counts)) = (routes, counts) {
            for finding in jmxv::ainav::lint::lint_dungeon(routes, &counts) {
                out.list.push(WorldFinding {
                    file: jmxv::ainav::file_name(region),
                    finding,
                });
            }
        }
    }
    if !out.single_files {
        return;
    }
    let mut own = |file: String, findings: Vec<Finding>| {
        out.list
            .extend(findings.into_iter().map(|finding| WorldFinding {
                file: file.clone(),
                finding,
            }));
    };
    own(DUNGEON_INFO_PATH.to_owned(), jmxv::ifo::dungeon::lint(info));
    for (path, layout) in &d.layouts {
        own(path.clone(), jmxv::dof::lint::lint(layout));
    }
    for (path, mesh) in &d.meshes {
        own(path.clone(), jmxv::bms::lint::lint(mesh));
    }
    for (region, routes) in &d.routes {
        own(
            jmxv::ainav::file_name(*region),
            jmxv::ainav::lint::lint(routes),
        );
    }
}

/// X013: owned instances inside their region, neighbour-owned ones within a region of it.
fn check_instance_positions(files: &WorldFiles, out: &mut Findings<'_>) {
    const SIDE: f32 = RegionId::SIZE;
    for (&region, mesh) in &files.navmeshes {
        for (i, o) in mesh.objects.iter().enumerate() {
            let owned = o.region_id == region.0;
            let (lo, hi) = if owned {
                (0.0, SIDE)
            } else {
                (-SIDE, 2.0 * SIDE)
            };
            let inside = |v: f32| (lo..=hi).contains(&v);
            let (x, z) = (o.position[0].get(), o.position[2].get());
            if !(inside(x) && inside(z)) {
                let whose = if owned { "owned" } else { "neighbour-owned" };
                out.push(
                    "X013",
                    region.file_name(),
                    format!("objects[{i}].position"),
                    format!("{whose} instance at ({x}, {z}) lies outside [{lo}, {hi}]"),
                );
            }
        }
    }
}

/// Offset (in units) that takes a point from `from`'s frame into `to`'s frame.
fn frame_shift(from: RegionId, to: RegionId) -> (f64, f64) {
    (
        (f64::from(from.x()) - f64::from(to.x())) * 1920.0,
        (f64::from(from.z()) - f64::from(to.z())) * 1920.0,
    )
}

fn check_global_edges(files: &WorldFiles, out: &mut Findings<'_>) {
    // Every global edge keyed as its twin would see it: (region, cells, endpoints in the
    // region's frame, in ascending order so that reversed twins match).
    type Key = (u16, u16, [u16; 2], [[u64; 2]; 2]);
    let key =
        |region: RegionId, other: RegionId, cells: [u16; 2], a: [f64; 2], b: [f64; 2]| -> Key {
            let (p, q) = if (a[0], a[1]) <= (b[0], b[1]) {
                (a, b)
            } else {
                (b, a)
            };
            (
                region.0,
                other.0,
                cells,
                [
                    [p[0].to_bits(), p[1].to_bits()],
                    [q[0].to_bits(), q[1].to_bits()],
                ],
            )
        };
    let mut edges: HashMap<Key, usize> = HashMap::new();
    for (&region, mesh) in &files.navmeshes {
        for e in &mesh.global_edges {
            let a = [f64::from(e.a[0].get()), f64::from(e.a[1].get())];
            let b = [f64::from(e.b[0].get()), f64::from(e.b[1].get())];
            *edges
                .entry(key(region, RegionId(e.region[1]), e.cell, a, b))
                .or_default() += 1;
        }
    }
    for (&region, mesh) in &files.navmeshes {
        for (i, e) in mesh.global_edges.iter().enumerate() {
            let other = RegionId(e.region[1]);
            let location = format!("global_edges[{i}]");
            let Some(neighbour) = files.navmeshes.get(&other) else {
                out.push(
                    "X002",
                    region.file_name(),
                    location,
                    format!("leads to region {other}, which has no file"),
                );
                continue;
            };
            let c1 = e.cell[1];
            if u32::from(c1) >= neighbour.open_cell_count
                || usize::from(c1) >= neighbour.cells.len()
            {
                out.push(
                    "X003",
                    region.file_name(),
                    format!("{location}.cell[1]"),
                    format!(
                        "cell {c1} is not an open cell of {} ({} open of {})",
                        other.file_name(),
                        neighbour.open_cell_count,
                        neighbour.cells.len()
                    ),
                );
            }
            let (dx, dz) = frame_shift(region, other);
            let shift =
                |p: [jmxv::F32; 2]| [f64::from(p[0].get()) + dx, f64::from(p[1].get()) + dz];
            let twin = key(
                other,
                region,
                [e.cell[1], e.cell[0]],
                shift(e.a),
                shift(e.b),
            );
            if !edges.contains_key(&twin) {
                out.push(
                    "X001",
                    region.file_name(),
                    location,
                    format!(
                        "no twin in {} (expected cells [{}, {}] from ({}, {}) to ({}, {}) there)",
                        other.file_name(),
                        e.cell[1],
                        e.cell[0],
                        shift(e.a)[0],
                        shift(e.a)[1],
                        shift(e.b)[0],
                        shift(e.b)[1]
                    ),
                );
            }
        }
    }
}

fn check_mapinfo(files: &WorldFiles, out: &mut Findings<'_>) {
    let Some(mapinfo) = &files.mapinfo else {
        out.push(
            "X011",
            crate::files::MAPINFO.into(),
            String::new(),
            "no mapinfo.mfo: enabled regions not checked".into(),
        );
        return;
    };
    for region in mapinfo.enabled_regions() {
        if !files.navmeshes.contains_key(&region) {
            out.push(
                "X004",
                crate::files::MAPINFO.into(),
                format!("bitmap[{}]", region.0),
                format!(
                    "region {region} is enabled but {} is missing",
                    region.file_name()
                ),
            );
        }
    }
    for &region in files.navmeshes.keys() {
        if !mapinfo.is_enabled(region) {
            out.push(
                "X005",
                region.file_name(),
                String::new(),
                format!("region {region} is not enabled in mapinfo.mfo"),
            );
        }
    }
    if out.single_files {
        for finding in jmxv::mfo::lint(mapinfo) {
            out.list.push(WorldFinding {
                file: crate::files::MAPINFO.into(),
                finding,
            });
        }
    }
}

fn check_tables(files: &WorldFiles, out: &mut Findings<'_>) {
    match &files.object_ifo {
        None => out.push(
            "X011",
            crate::files::OBJECT_IFO.into(),
            String::new(),
            "no object.ifo: object ids not checked".into(),
        ),
        Some(table) => {
            for (&region, mesh) in &files.navmeshes {
                for (i, o) in mesh.objects.iter().enumerate() {
                    if !table.contains(o.object_id) {
                        out.push(
                            "X006",
                            region.file_name(),
                            format!("objects[{i}].object_id"),
                            format!("object id {} is not in object.ifo", o.object_id),
                        );
                    }
                }
            }
            if out.single_files {
                for finding in jmxv::ifo::object::lint(table) {
                    out.list.push(WorldFinding {
                        file: crate::files::OBJECT_IFO.into(),
                        finding,
                    });
                }
            }
        }
    }
    match &files.tile2d {
        None => out.push(
            "X011",
            crate::files::TILE2D_IFO.into(),
            String::new(),
            "no tile2d.ifo: texture ids not checked".into(),
        ),
        Some(table) => {
            let count = table.len();
            for (&region, mesh) in &files.navmeshes {
                let bad: Vec<usize> = (0..mesh.tiles.len())
                    .filter(|&t| {
                        usize::from(mesh.tiles[t].texture_id) >= count
                            && mesh.layout.has_tile_flags()
                    })
                    .collect();
                if let Some(&first) = bad.first() {
                    out.push(
                        "X007",
                        region.file_name(),
                        format!("tiles[{first}].texture"),
                        format!(
                            "texture id {} is not below the tile2d.ifo count {count} ({} tiles like this)",
                            mesh.tiles[first].texture_id,
                            bad.len()
                        ),
                    );
                }
            }
            if out.single_files {
                for finding in jmxv::ifo::tile2d::lint(table) {
                    out.list.push(WorldFinding {
                        file: crate::files::TILE2D_IFO.into(),
                        finding,
                    });
                }
            }
        }
    }
}

fn check_border_heights(files: &WorldFiles, out: &mut Findings<'_>) {
    let n = HEIGHTS_PER_SIDE;
    for (&region, mesh) in &files.navmeshes {
        // East and north neighbours only, so each border is checked once.
        let east = (region.x() < 255).then(|| RegionId::new(region.x() + 1, region.z()));
        let north = (region.z() < 127).then(|| RegionId::new(region.x(), region.z() + 1));
        for (other, ours, theirs, name) in [
            (
                east,
                (0..n).map(|v| v * n + n - 1).collect::<Vec<_>>(),
                (0..n).map(|v| v * n).collect::<Vec<_>>(),
                "east",
            ),
            (
                north,
                (0..n).map(|v| (n - 1) * n + v).collect(),
                (0..n).collect(),
                "north",
            ),
        ] {
            let Some(neighbour) = other.and_then(|o| files.navmeshes.get(&o)) else {
                continue;
            };
            let mismatched: Vec<(usize, f32, f32)> = ours
                .iter()
                .zip(&theirs)
                .map(|(&a, &b)| (a, mesh.heights[a].get(), neighbour.heights[b].get()))
                .filter(|(_, a, b)| a != b)
                .collect();
            if let Some(&(first, a, b)) = mismatched.first() {
                out.push(
                    "X008",
                    region.file_name(),
                    format!("heights[{first}]"),
                    format!(
                        "{} of {n} vertices on the {name} border differ from {} (first: {a} vs {b})",
                        mismatched.len(),
                        other.map(RegionId::file_name).unwrap_or_default()
                    ),
                );
            }
        }
    }
}

fn check_shared_objects(files: &WorldFiles, out: &mut Findings<'_>) {
    for (&region, mesh) in &files.navmeshes {
        for (i, o) in mesh.objects.iter().enumerate() {
            let owner = RegionId(o.region_id);
            if owner == region {
                continue;
            }
            let Some(owner_mesh) = files.navmeshes.get(&owner) else {
                continue;
            };
            let location = format!("objects[{i}]");
            let Some(original) = owner_mesh
                .objects
                .iter()
                .find(|c| c.region_id == owner.0 && c.uid == o.uid)
            else {
                out.push(
                    "X010",
                    region.file_name(),
                    location,
                    format!(
                        "owned by {} (uid {}), which does not list it",
                        owner.file_name(),
                        o.uid
                    ),
                );
                continue;
            };
            if let Some(difference) = disagreement(o, region, original, owner) {
                out.push(
                    "X009",
                    region.file_name(),
                    location,
                    format!(
                        "differs from its owner's copy in {} (uid {}): {difference}",
                        owner.file_name(),
                        o.uid
                    ),
                );
            }
        }
    }
}

/// What differs between a copy of an object and its owner's record, if anything.
fn disagreement(
    copy: &Object,
    copy_region: RegionId,
    original: &Object,
    owner: RegionId,
) -> Option<String> {
    let fields = [
        ("object_id", copy.object_id == original.object_id),
        ("type", copy.kind == original.kind),
        ("yaw", copy.yaw == original.yaw),
        ("short0", copy.short0 == original.short0),
        ("is_big", copy.is_big == original.is_big),
        ("is_struct", copy.is_struct == original.is_struct),
        ("position[1]", copy.position[1] == original.position[1]),
    ];
    if let Some((name, _)) = fields.iter().find(|(_, same)| !same) {
        return Some(format!("{name} differs"));
    }
    let (dx, dz) = frame_shift(copy_region, owner);
    let x = f64::from(copy.position[0].get()) + dx - f64::from(original.position[0].get());
    let z = f64::from(copy.position[2].get()) + dz - f64::from(original.position[2].get());
    (x.hypot(z) > POSITION_TOLERANCE || x.is_nan() || z.is_nan())
        .then(|| format!("position differs by ({x}, {z}) units in world coordinates"))
}

/// The navmeshes of a world, for tests and tools that have no folder.
pub fn lint_navmeshes(navmeshes: BTreeMap<RegionId, NavMesh>) -> WorldReport {
    lint_world(&WorldFiles {
        navmeshes,
        ..WorldFiles::default()
    })
}
