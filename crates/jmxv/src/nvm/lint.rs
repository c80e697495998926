//! Single-file lint: the game server's load-time checks and the invariants of the game data
//! that one navmesh file can show.
//!
//! Every finding has a stable code (`E…` errors, `W…` warnings), a location named like the
//! JSON dump (`cells[12].objects[0]`) and a message with the values involved. The codes are a
//! public interface: they never change meaning, and new checks get new codes. [`CODES`] lists
//! them for programs; this table for people.
//!
//! | code | severity | what it means |
//! |---|---|---|
//! | E001 | error | the signature is not `JMXVNVM 1000` |
//! | E002 | error | a float (object position or yaw, cell bound, edge endpoint, height, plane height) is NaN or infinite |
//! | E003 | error | a cell lists an object index ≥ the object count |
//! | E004 | error | `open_cell_count` is larger than the number of cells |
//! | E005 | error | a cell bound is not a multiple of 20 |
//! | E006 | error | a cell's min is not below its max on some axis |
//! | E007 | error | a cell bound lies outside `[0, 1920]` |
//! | E008 | error | no tile points to the cell |
//! | E009 | error | a tile inside the cell's rectangle points to another cell |
//! | E010 | error | two cells' rectangles overlap |
//! | E011 | error | an edge's `cell[0]` is ≥ the cell count |
//! | E012 | error | a passable internal edge's `cell[1]` is ≥ the cell count |
//! | E013 | error | a direction byte is neither 0..=3 nor 0xFF |
//! | E014 | error | an edge has length zero |
//! | E015 | error | an edge is not axis-aligned |
//! | E016 | error | an edge does not lie on a side of its `cell[0]` |
//! | E017 | error | a passable internal edge does not lie on a side of its `cell[1]` |
//! | E018 | error | a passable internal edge's cells are not on opposite sides of it |
//! | E019 | error | a global edge does not lie on the region border |
//! | E020 | error | a global edge's `region[0]` is not the file's region |
//! | E021 | error | a global edge's `region[1]` is not the region across the border it lies on |
//! | E022 | error | a tile's cell index (low 16 bits) is ≥ the cell count |
//! | E023 | error | a tile lies outside its cell's rectangle |
//! | E024 | error | a tile's blocked bit disagrees with its cell being open or closed |
//! | E025 | error | a link names an object index ≥ the object count (and not 0xFFFF) |
//! | E026 | error | a link has no reciprocal row in the linked object |
//! | W001 | warning | the file uses a legacy tail layout |
//! | W002 | warning | the file has bytes after its last section |
//! | W003 | warning | an object's `is_big` or `is_struct` is neither 0 nor 1 |
//! | W004 | warning | a plane type has bits other than water (1) and ice (2) |
//! | W005 | warning | a tile's cell index has nonzero high 16 bits |
//! | W006 | warning | a blocked internal edge's `cell[1]` is not 0xFFFF |
//! | W007 | warning | an internal edge's flag is neither 0x02 (wall) nor 0x04 (passage) |
//! | W008 | warning | a global edge is blocked |
//! | W009 | warning | a cell is larger than 960 units on some axis |
//!
//! # Decisions
//! - **Cell size.** Cells in the game data are at most 960×960, but nothing in the server
//!   depends on it, so a larger cell is a warning (W009), not an error. [`NavMesh::default`]
//!   (one 1920×1920 cell) therefore lints with exactly one warning.
//! - **Dependent checks are skipped.** A cell whose bounds are not finite, 20-aligned, ordered
//!   and inside the region has its own error; containment (E009, E010, E023) is not checked
//!   against it, and edges are placed against it only when its bounds are finite. An edge
//!   pointing at a cell that does not exist gets E011/E012 and no geometry finding for that
//!   side. One mistake thus gives one or two findings, not hundreds.
//! - **Exact comparisons.** Cell bounds are multiples of 20 and edges run between cell
//!   corners, so every coordinate in a valid file is a small integer held exactly by an `f32`;
//!   no tolerance is needed and none would be right.
//! - **`region[1]` without a file name.** When the caller does not know the file's region, the
//!   neighbour a global edge must name is computed from the edge's own `region[0]`.
//! - **Caps.** A broken file can repeat one problem thousands of times (a wrong tile map has
//!   9216 bad tiles). [`lint`] lists the first [`MAX_PER_CODE`] findings of each code, then one
//!   more finding of the same code and severity, at the place of the first one left out, whose
//!   location is the section (`tiles`) and whose message says how many were left out.
//!   [`lint_with`] takes another limit.
//!
//! # Cost
//! O(objects + links + cells + edges + tiles): every tile is visited once through the tile map
//! and at most once through the rectangle of the cell that claims it first; a cell's scan
//! stops at the first tile another cell already claimed (that is E010), so overlapping cells
//! cannot make it quadratic. Links are matched through a hash set.
//!
//! # Direction bytes
//! What the edge direction values 0..=3 name is contested (see the notes on the format). The
//! lint measures it: for every edge whose `cell[0]` exists, has finite bounds and has the edge
//! on exactly one of its sides, it counts the pair (`dir[0]`, side) in
//! [`DirectionReport::counts`]; for passable internal edges also (`dir[1]`, side of `cell[1]`)
//! in [`DirectionReport::counts_b`]. Sides are numbered −z, −x, +z, +x (the edge lies on the
//! cell's min z, min x, max z or max x). [`DIRECTION_CONVENTIONS`] names the candidate
//! meanings:
//!
//! | name | 0 | 1 | 2 | 3 | source |
//! |---|---|---|---|---|---|
//! | `spec` | −z | −x | +z | +x | the spec page: Bottom, Left, Top, Right |
//! | `nesw` | +z | +x | −z | −x | North, East, South, West |
//! | `zxzx` | −z | +x | +z | −x | 0 = −z, 1 = +x, 2 = +z, 3 = −x |
//!
//! [`DirectionReport::matching`] lists those that agree with every count in both matrices.

use super::model::{
    Cell, Layout, NavMesh, Object, Tile, EDGE_BLOCKED, EDGE_BLOCK_SRC_TO_DST, EDGE_INTERNAL,
    NONE_U16, NO_DIRECTION, PLANE_ICE, PLANE_WATER, SIGNATURE, TILES_PER_SIDE, TILE_SIZE,
};
use crate::{RegionId, F32};
use std::collections::{HashMap, HashSet};
use std::fmt;

pub use crate::lint::{Finding, Severity};

/// Which meaning of the edge direction bytes a file's geometry supports.
///
/// The community disagrees on what the values 0..=3 name. Lint measures, for every edge whose
/// cell on side A is known, which side of that cell the edge lies on, and counts the pairs
/// (direction byte, side).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DirectionReport {
    /// `counts[d][s]`: edges with `dir[0] == d` lying on side `s` of their cell on side A,
    /// sides ordered −z, −x, +z, +x.
    pub counts: [[u32; 4]; 4],
    /// `counts_b[d][s]`: passable internal edges with `dir[1] == d` lying on side `s` of their
    /// cell on side B, sides ordered as in `counts`.
    pub counts_b: [[u32; 4]; 4],
    /// The named conventions that every counted edge agrees with (empty when none does, or
    /// when no edge could be measured).
    pub matching: Vec<&'static str>,
}

impl DirectionReport {
    /// Number of direction bytes counted in both matrices.
    pub fn measured(&self) -> u32 {
        self.counts.iter().chain(&self.counts_b).flatten().sum()
    }
}

/// The result of linting one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Findings in file order.
    pub findings: Vec<Finding>,
    /// What the edges' direction bytes mean in this file.
    pub directions: DirectionReport,
}

impl Report {
    /// Number of findings of this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }

    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.count(Severity::Error) > 0
    }
}

/// How [`lint_with`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct LintOptions {
    /// Findings listed per code before one summary finding stands for the rest;
    /// `usize::MAX` lists all.
    pub max_per_code: usize,
}

impl Default for LintOptions {
    fn default() -> LintOptions {
        LintOptions {
            max_per_code: MAX_PER_CODE,
        }
    }
}

/// Findings of one code that [`lint`] lists before summarising the rest.
pub const MAX_PER_CODE: usize = 20;

/// One lint code: (code, severity, one-line description).
type Code = (&'static str, Severity, &'static str);

const E_SIGNATURE: Code = (
    "E001",
    Severity::Error,
    "the signature is not `JMXVNVM 1000`",
);
const E_NON_FINITE: Code = ("E002", Severity::Error, "a float is NaN or infinite");
const E_CELL_OBJECT: Code = (
    "E003",
    Severity::Error,
    "a cell lists an object index >= the object count",
);
const E_OPEN_COUNT: Code = (
    "E004",
    Severity::Error,
    "open_cell_count is larger than the number of cells",
);
const E_CELL_ALIGN: Code = (
    "E005",
    Severity::Error,
    "a cell bound is not a multiple of 20",
);
const E_CELL_EMPTY: Code = (
    "E006",
    Severity::Error,
    "a cell's min is not below its max on some axis",
);
const E_CELL_OUTSIDE: Code = (
    "E007",
    Severity::Error,
    "a cell bound lies outside [0, 1920]",
);
const E_CELL_NO_TILES: Code = ("E008", Severity::Error, "no tile points to the cell");
const E_CELL_FOREIGN_TILE: Code = (
    "E009",
    Severity::Error,
    "a tile inside the cell's rectangle points to another cell",
);
const E_CELL_OVERLAP: Code = ("E010", Severity::Error, "two cells' rectangles overlap");
const E_EDGE_CELL_A: Code = (
    "E011",
    Severity::Error,
    "an edge's cell[0] is >= the cell count",
);
const E_EDGE_CELL_B: Code = (
    "E012",
    Severity::Error,
    "a passable internal edge's cell[1] is >= the cell count",
);
const E_EDGE_DIR: Code = (
    "E013",
    Severity::Error,
    "a direction byte is neither 0..=3 nor 0xFF",
);
const E_EDGE_ZERO: Code = ("E014", Severity::Error, "an edge has length zero");
const E_EDGE_DIAGONAL: Code = ("E015", Severity::Error, "an edge is not axis-aligned");
const E_EDGE_OFF_A: Code = (
    "E016",
    Severity::Error,
    "an edge does not lie on a side of its cell[0]",
);
const E_EDGE_OFF_B: Code = (
    "E017",
    Severity::Error,
    "a passable internal edge does not lie on a side of its cell[1]",
);
const E_EDGE_NOT_SHARED: Code = (
    "E018",
    Severity::Error,
    "a passable internal edge's cells are not on opposite sides of it",
);
const E_GLOBAL_OFF_BORDER: Code = (
    "E019",
    Severity::Error,
    "a global edge does not lie on the region border",
);
const E_GLOBAL_REGION_A: Code = (
    "E020",
    Severity::Error,
    "a global edge's region[0] is not the file's region",
);
const E_GLOBAL_REGION_B: Code = (
    "E021",
    Severity::Error,
    "a global edge's region[1] is not the region across the border it lies on",
);
const E_TILE_CELL: Code = (
    "E022",
    Severity::Error,
    "a tile's cell index (low 16 bits) is >= the cell count",
);
const E_TILE_OUTSIDE: Code = (
    "E023",
    Severity::Error,
    "a tile lies outside its cell's rectangle",
);
const E_TILE_BLOCKED: Code = (
    "E024",
    Severity::Error,
    "a tile's blocked bit disagrees with its cell being open or closed",
);
const E_LINK_OBJECT: Code = (
    "E025",
    Severity::Error,
    "a link names an object index >= the object count (and not 0xFFFF)",
);
const E_LINK_RECIPROCAL: Code = (
    "E026",
    Severity::Error,
    "a link has no reciprocal row in the linked object",
);
const W_LEGACY: Code = (
    "W001",
    Severity::Warning,
    "the file uses a legacy tail layout",
);
const W_TRAILING: Code = (
    "W002",
    Severity::Warning,
    "the file has bytes after its last section",
);
const W_BOOL: Code = (
    "W003",
    Severity::Warning,
    "an object's is_big or is_struct is neither 0 nor 1",
);
const W_PLANE_TYPE: Code = (
    "W004",
    Severity::Warning,
    "a plane type has bits other than water (1) and ice (2)",
);
const W_TILE_HIGH: Code = (
    "W005",
    Severity::Warning,
    "a tile's cell index has nonzero high 16 bits",
);
const W_WALL_CELL_B: Code = (
    "W006",
    Severity::Warning,
    "a blocked internal edge's cell[1] is not 0xFFFF",
);
const W_INTERNAL_FLAG: Code = (
    "W007",
    Severity::Warning,
    "an internal edge's flag is neither 0x02 (wall) nor 0x04 (passage)",
);
const W_GLOBAL_BLOCKED: Code = ("W008", Severity::Warning, "a global edge is blocked");
const W_CELL_LARGE: Code = (
    "W009",
    Severity::Warning,
    "a cell is larger than 960 units on some axis",
);

/// Every lint code: (code, severity, one-line description), in code order.
pub const CODES: &[(&str, Severity, &str)] = &[
    E_SIGNATURE,
    E_NON_FINITE,
    E_CELL_OBJECT,
    E_OPEN_COUNT,
    E_CELL_ALIGN,
    E_CELL_EMPTY,
    E_CELL_OUTSIDE,
    E_CELL_NO_TILES,
    E_CELL_FOREIGN_TILE,
    E_CELL_OVERLAP,
    E_EDGE_CELL_A,
    E_EDGE_CELL_B,
    E_EDGE_DIR,
    E_EDGE_ZERO,
    E_EDGE_DIAGONAL,
    E_EDGE_OFF_A,
    E_EDGE_OFF_B,
    E_EDGE_NOT_SHARED,
    E_GLOBAL_OFF_BORDER,
    E_GLOBAL_REGION_A,
    E_GLOBAL_REGION_B,
    E_TILE_CELL,
    E_TILE_OUTSIDE,
    E_TILE_BLOCKED,
    E_LINK_OBJECT,
    E_LINK_RECIPROCAL,
    W_LEGACY,
    W_TRAILING,
    W_BOOL,
    W_PLANE_TYPE,
    W_TILE_HIGH,
    W_WALL_CELL_B,
    W_INTERNAL_FLAG,
    W_GLOBAL_BLOCKED,
    W_CELL_LARGE,
];

/// The named meanings of the direction bytes: for each name, the side that values 0, 1, 2, 3
/// name, sides numbered 0 −z, 1 −x, 2 +z, 3 +x (as in [`DirectionReport::counts`]).
pub const DIRECTION_CONVENTIONS: &[(&str, [usize; 4])] = &[
    ("spec", [0, 1, 2, 3]),
    ("nesw", [2, 3, 0, 1]),
    ("zxzx", [0, 3, 2, 1]),
];

/// Side length of a region in local units.
const REGION: f32 = RegionId::SIZE;
/// The largest cell side in the game data.
const MAX_CELL_SIDE: f32 = 960.0;
/// Internal edge flags the game data uses: a wall and a passage.
const WALL_FLAG: u8 = EDGE_BLOCK_SRC_TO_DST;
const PASSAGE_FLAG: u8 = EDGE_INTERNAL;
/// The tile that no cell has claimed yet, in the overlap scan.
const UNCLAIMED: u32 = u32::MAX;

/// Lints one file. `region` is the region the file name says it is (when the name follows
/// `nv_XXXX.nvm`); without it the checks that need it are skipped.
pub fn lint(mesh: &NavMesh, region: Option<RegionId>) -> Report {
    lint_with(mesh, region, &LintOptions::default())
}

/// Lints one file with options, such as listing every finding.
pub fn lint_with(mesh: &NavMesh, region: Option<RegionId>, options: &LintOptions) -> Report {
    let mut linter = Linter {
        mesh,
        region,
        sink: Sink::new(options.max_per_code),
        cells: Vec::with_capacity(mesh.cells.len()),
        directions: DirectionReport::default(),
    };
    linter.run();
    linter.directions.matching = matching_conventions(&linter.directions);
    Report {
        findings: linter.sink.finish(),
        directions: linter.directions,
    }
}

/// Collects findings, keeping at most `max` per code and one summary for the rest.
struct Sink {
    max: usize,
    findings: Vec<Finding>,
    /// Per code: findings seen, and the index of its summary finding once there is one.
    seen: HashMap<&'static str, (usize, Option<usize>)>,
}

impl Sink {
    fn new(max: usize) -> Sink {
        Sink {
            max,
            findings: Vec::new(),
            seen: HashMap::new(),
        }
    }

    /// Takes `fmt::Arguments` so that findings past the cap are never formatted.
    fn report(&mut self, code: Code, location: fmt::Arguments<'_>, message: fmt::Arguments<'_>) {
        let (seen, summary) = self.seen.entry(code.0).or_insert((0, None));
        *seen += 1;
        if *seen <= self.max {
            self.findings.push(Finding {
                code: code.0,
                severity: code.1,
                location: location.to_string(),
                message: message.to_string(),
            });
        } else if summary.is_none() {
            let location = location.to_string();
            let section = location.split('[').next().unwrap_or_default().to_owned();
            *summary = Some(self.findings.len());
            // The message is written in `finish`, when the number left out is known.
            self.findings.push(Finding {
                code: code.0,
                severity: code.1,
                location: section,
                message: String::new(),
            });
        }
    }

    fn finish(mut self) -> Vec<Finding> {
        for (seen, summary) in self.seen.values() {
            if let Some(index) = *summary {
                let left_out = seen - self.max;
                self.findings[index].message = format!(
                    "and {left_out} more like this, not listed (the first {} are)",
                    self.max
                );
            }
        }
        self.findings
    }
}

/// A side of an axis-aligned rectangle, numbered as in [`DirectionReport::counts`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    MinZ = 0,
    MinX = 1,
    MaxZ = 2,
    MaxX = 3,
}

impl Side {
    /// The side at the min (`false`) or max (`true`) end of axis `axis` (0 = x, 1 = z).
    fn new(axis: usize, at_max: bool) -> Side {
        match (axis, at_max) {
            (0, false) => Side::MinX,
            (0, true) => Side::MaxX,
            (_, false) => Side::MinZ,
            (_, true) => Side::MaxZ,
        }
    }

    fn opposite(self) -> Side {
        match self {
            Side::MinZ => Side::MaxZ,
            Side::MinX => Side::MaxX,
            Side::MaxZ => Side::MinZ,
            Side::MaxX => Side::MinX,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Side::MinZ => "-z",
            Side::MinX => "-x",
            Side::MaxZ => "+z",
            Side::MaxX => "+x",
        }
    }
}

/// An axis-aligned rectangle with finite bounds.
#[derive(Debug, Clone, Copy)]
struct Rect {
    min: [f32; 2],
    max: [f32; 2],
}

impl Rect {
    const REGION: Rect = Rect {
        min: [0.0; 2],
        max: [REGION; 2],
    };

    /// The cell's bounds, when all four are finite.
    fn of(cell: &Cell) -> Option<Rect> {
        let rect = Rect {
            min: [cell.min[0].get(), cell.min[1].get()],
            max: [cell.max[0].get(), cell.max[1].get()],
        };
        rect.min
            .iter()
            .chain(&rect.max)
            .all(|v| v.is_finite())
            .then_some(rect)
    }

    /// The side the segment lies on, within the side's extent; `None` when it lies on none,
    /// or on two (a rectangle of zero width, which has its own error).
    fn side_of(&self, seg: &Segment) -> Option<Side> {
        let k = seg.fixed_axis;
        let v = 1 - k;
        if seg.lo < self.min[v] || seg.hi > self.max[v] {
            return None;
        }
        match (seg.fixed == self.min[k], seg.fixed == self.max[k]) {
            (true, false) => Some(Side::new(k, false)),
            (false, true) => Some(Side::new(k, true)),
            _ => None,
        }
    }
}

impl fmt::Display for Rect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "x {}..{}, z {}..{}",
            self.min[0], self.max[0], self.min[1], self.max[1]
        )
    }
}

/// A non-degenerate axis-aligned edge: coordinate `fixed_axis` is `fixed`, the other runs
/// from `lo` to `hi` (`lo < hi`).
#[derive(Debug, Clone, Copy)]
struct Segment {
    fixed_axis: usize,
    fixed: f32,
    lo: f32,
    hi: f32,
}

/// What an edge's endpoints make.
enum Shape {
    NonFinite,
    ZeroLength,
    Diagonal,
    Segment(Segment),
}

impl Shape {
    fn of(a: [F32; 2], b: [F32; 2]) -> Shape {
        let (a, b) = ([a[0].get(), a[1].get()], [b[0].get(), b[1].get()]);
        if !a.iter().chain(&b).all(|v| v.is_finite()) {
            Shape::NonFinite
        } else if a == b {
            Shape::ZeroLength
        } else if a[0] != b[0] && a[1] != b[1] {
            Shape::Diagonal
        } else {
            let fixed_axis = if a[1] == b[1] { 1 } else { 0 };
            let v = 1 - fixed_axis;
            Shape::Segment(Segment {
                fixed_axis,
                fixed: a[fixed_axis],
                lo: a[v].min(b[v]),
                hi: a[v].max(b[v]),
            })
        }
    }
}

/// An edge's endpoints as stored, for messages (formatted only when a finding is made).
#[derive(Clone, Copy)]
struct Ends([F32; 2], [F32; 2]);

impl fmt::Display for Ends {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Ends(a, b) = self;
        write!(f, "({}, {}) -> ({}, {})", a[0], a[1], b[0], b[1])
    }
}

/// What the edge checks need to know of a cell, from the cell pass.
#[derive(Debug, Clone, Copy)]
struct CellInfo {
    /// Finite bounds (for placing edges).
    rect: Option<Rect>,
    /// The tile range `[x0, x1) × [z0, z1)` when the bounds are fully valid (for containment).
    tiles: Option<[usize; 4]>,
}

/// The fields both edge kinds share, with where they are.
struct EdgeView {
    section: &'static str,
    index: usize,
    a: [F32; 2],
    b: [F32; 2],
    dir: [u8; 2],
    cell: [u16; 2],
}

struct Linter<'m> {
    mesh: &'m NavMesh,
    region: Option<RegionId>,
    sink: Sink,
    cells: Vec<CellInfo>,
    directions: DirectionReport,
}

impl Linter<'_> {
    /// Runs the checks section by section in file order, so findings come in file order.
    fn run(&mut self) {
        let mesh = self.mesh;
        if mesh.signature != *SIGNATURE {
            self.sink.report(
                E_SIGNATURE,
                format_args!("signature"),
                format_args!(
                    "found \"{}\", expected \"{}\"",
                    mesh.signature.escape_ascii(),
                    SIGNATURE.escape_ascii()
                ),
            );
        }
        self.objects();
        self.cells();
        for (index, edge) in mesh.global_edges.iter().enumerate() {
            let view = EdgeView {
                section: "global_edges",
                index,
                a: edge.a,
                b: edge.b,
                dir: edge.dir,
                cell: edge.cell,
            };
            let shape = self.edge_common(&view);
            self.global_edge(index, edge.flag, edge.region, &shape);
        }
        for (index, edge) in mesh.internal_edges.iter().enumerate() {
            let view = EdgeView {
                section: "internal_edges",
                index,
                a: edge.a,
                b: edge.b,
                dir: edge.dir,
                cell: edge.cell,
            };
            let shape = self.edge_common(&view);
            self.internal_edge(&view, edge.flag, &shape);
        }
        if mesh.layout != Layout::Standard {
            self.sink.report(
                W_LEGACY,
                format_args!("layout"),
                format_args!(
                    "legacy layout {}: 4-byte tiles without flags{}",
                    mesh.layout.name(),
                    if mesh.layout.has_planes() {
                        ""
                    } else {
                        ", no plane maps"
                    }
                ),
            );
        }
        self.tiles();
        self.floats("heights", mesh.heights.iter());
        if mesh.layout.has_planes() {
            for (i, &t) in mesh.planes.types.iter().enumerate() {
                if t & !(PLANE_WATER | PLANE_ICE) != 0 {
                    self.sink.report(
                        W_PLANE_TYPE,
                        format_args!("planes.types[{i}]"),
                        format_args!("plane type 0x{t:02x}; only 0..=3 occur"),
                    );
                }
            }
            self.floats("planes.heights", mesh.planes.heights.iter());
        }
        if !mesh.trailing.is_empty() {
            self.sink.report(
                W_TRAILING,
                format_args!("trailing"),
                format_args!("{} bytes after the plane maps", mesh.trailing.len()),
            );
        }
    }

    fn floats<'a>(&mut self, section: &str, values: impl Iterator<Item = &'a F32>) {
        for (i, v) in values.enumerate() {
            if !v.get().is_finite() {
                self.non_finite(format_args!("{section}[{i}]"), *v);
            }
        }
    }

    fn non_finite(&mut self, location: fmt::Arguments<'_>, value: F32) {
        self.sink.report(
            E_NON_FINITE,
            location,
            format_args!("{value} is not finite"),
        );
    }

    fn objects(&mut self) {
        let objects = &self.mesh.objects;
        // Every (from, to, from's edge, to's edge) link row, to answer "is there a reciprocal
        // row" in constant time whatever the number of links per object.
        let rows: HashSet<(usize, u16, u16, u16)> = objects
            .iter()
            .enumerate()
            .flat_map(|(i, o)| {
                o.links
                    .iter()
                    .map(move |l| (i, l.link_object, l.edge, l.link_edge))
            })
            .collect();
        for (i, object) in objects.iter().enumerate() {
            self.object_fields(i, object);
            for (k, link) in object.links.iter().enumerate() {
                if link.link_object == NONE_U16 {
                    continue;
                }
                let j = usize::from(link.link_object);
                if j >= objects.len() {
                    self.sink.report(
                        E_LINK_OBJECT,
                        format_args!("objects[{i}].links[{k}].link_object"),
                        format_args!("object {j}, but the file has {} objects", objects.len()),
                    );
                    continue;
                }
                // Object j must link back: its edge link_edge to our edge, named from its side.
                let back = u16::try_from(i)
                    .ok()
                    .map(|i| (j, i, link.link_edge, link.edge));
                if !back.is_some_and(|row| rows.contains(&row)) {
                    self.sink.report(
                        E_LINK_RECIPROCAL,
                        format_args!("objects[{i}].links[{k}]"),
                        format_args!(
                            "links edge {} to objects[{j}] edge {}, but objects[{j}] has no link \
                             {{link_object: {i}, link_edge: {}, edge: {}}}",
                            link.edge, link.link_edge, link.edge, link.link_edge
                        ),
                    );
                }
            }
        }
    }

    fn object_fields(&mut self, i: usize, object: &Object) {
        for (axis, v) in object.position.iter().enumerate() {
            if !v.get().is_finite() {
                self.non_finite(format_args!("objects[{i}].position[{axis}]"), *v);
            }
        }
        if !object.yaw.get().is_finite() {
            self.non_finite(format_args!("objects[{i}].yaw"), object.yaw);
        }
        for (name, value) in [("is_big", object.is_big), ("is_struct", object.is_struct)] {
            if value > 1 {
                self.sink.report(
                    W_BOOL,
                    format_args!("objects[{i}].{name}"),
                    format_args!("{value}; a boolean is 0 or 1"),
                );
            }
        }
    }

    fn cells(&mut self) {
        let mesh = self.mesh;
        let count = mesh.cells.len();
        if mesh.open_cell_count as usize > count {
            self.sink.report(
                E_OPEN_COUNT,
                format_args!("open_cell_count"),
                format_args!(
                    "{} open cells, but the file has {count} cells",
                    mesh.open_cell_count
                ),
            );
        }
        let mut tiles_per_cell = vec![0u32; count];
        for tile in mesh.tiles.iter() {
            if let Some(n) = tiles_per_cell.get_mut(usize::from(tile.cell())) {
                *n += 1;
            }
        }
        let mut claimed = vec![UNCLAIMED; mesh.tiles.len()];
        for (c, cell) in mesh.cells.iter().enumerate() {
            for (k, &o) in cell.objects.iter().enumerate() {
                if usize::from(o) >= mesh.objects.len() {
                    self.sink.report(
                        E_CELL_OBJECT,
                        format_args!("cells[{c}].objects[{k}]"),
                        format_args!(
                            "object {o}, but the file has {} objects",
                            mesh.objects.len()
                        ),
                    );
                }
            }
            let info = self.cell_bounds(c, cell);
            if tiles_per_cell[c] == 0 {
                self.sink.report(
                    E_CELL_NO_TILES,
                    format_args!("cells[{c}]"),
                    format_args!("no tile points to this cell"),
                );
            }
            if let Some(range) = info.tiles {
                self.cell_tiles(c, range, &mut claimed);
            }
            self.cells.push(info);
        }
    }

    /// Checks one cell's bounds and says what later checks may use.
    fn cell_bounds(&mut self, c: usize, cell: &Cell) -> CellInfo {
        for (name, pair) in [("min", cell.min), ("max", cell.max)] {
            for (axis, v) in pair.iter().enumerate() {
                if !v.get().is_finite() {
                    self.non_finite(format_args!("cells[{c}].{name}[{axis}]"), *v);
                }
            }
        }
        let Some(rect) = Rect::of(cell) else {
            return CellInfo {
                rect: None,
                tiles: None,
            };
        };
        let mut usable = true;
        for (name, pair) in [("min", rect.min), ("max", rect.max)] {
            for (axis, v) in pair.into_iter().enumerate() {
                // `%` on f32 is exact, so any fraction or misalignment shows.
                if v % TILE_SIZE != 0.0 {
                    usable = false;
                    self.sink.report(
                        E_CELL_ALIGN,
                        format_args!("cells[{c}].{name}[{axis}]"),
                        format_args!("{v} is not a multiple of 20"),
                    );
                }
                if !(0.0..=REGION).contains(&v) {
                    usable = false;
                    self.sink.report(
                        E_CELL_OUTSIDE,
                        format_args!("cells[{c}].{name}[{axis}]"),
                        format_args!("{v} is outside 0..=1920"),
                    );
                }
            }
        }
        let size = [rect.max[0] - rect.min[0], rect.max[1] - rect.min[1]];
        for (axis, name) in ["x", "z"].into_iter().enumerate() {
            if size[axis] <= 0.0 {
                usable = false;
                self.sink.report(
                    E_CELL_EMPTY,
                    format_args!("cells[{c}]"),
                    format_args!(
                        "min {name} {} is not below max {name} {}",
                        rect.min[axis], rect.max[axis]
                    ),
                );
            }
        }
        if size.iter().any(|&s| s > MAX_CELL_SIDE) {
            self.sink.report(
                W_CELL_LARGE,
                format_args!("cells[{c}]"),
                format_args!(
                    "{} x {} units ({rect}); game cells are at most 960 x 960",
                    size[0], size[1]
                ),
            );
        }
        let tiles = usable.then(|| {
            let t = |v: f32| (v / TILE_SIZE) as usize;
            [
                t(rect.min[0]),
                t(rect.min[1]),
                t(rect.max[0]),
                t(rect.max[1]),
            ]
        });
        CellInfo {
            rect: Some(rect),
            tiles,
        }
    }

    /// Every tile inside cell `c`'s rectangle must point to `c`. Claims the tiles, so that a
    /// later cell reaching a claimed tile is an overlap (and its scan stops there, which keeps
    /// the total work within one visit per tile plus one per cell).
    fn cell_tiles(&mut self, c: usize, [x0, z0, x1, z1]: [usize; 4], claimed: &mut [u32]) {
        let tiles = &self.mesh.tiles;
        let mut foreign = 0usize;
        let mut first_foreign = None;
        let mut overlap = None;
        'scan: for tz in z0..z1 {
            for tx in x0..x1 {
                let t = tz * TILES_PER_SIDE + tx;
                if claimed[t] != UNCLAIMED {
                    overlap = Some((t, claimed[t]));
                    break 'scan;
                }
                claimed[t] = c as u32;
                if usize::from(tiles[t].cell()) != c {
                    foreign += 1;
                    first_foreign.get_or_insert(t);
                }
            }
        }
        if let Some(t) = first_foreign {
            let at_least = if overlap.is_some() { "at least " } else { "" };
            self.sink.report(
                E_CELL_FOREIGN_TILE,
                format_args!("cells[{c}]"),
                format_args!(
                    "{at_least}{foreign} tiles inside its rectangle point elsewhere, first \
                     tiles[{t}] (tx {}, tz {}) to cell {}",
                    t % TILES_PER_SIDE,
                    t / TILES_PER_SIDE,
                    tiles[t].cell()
                ),
            );
        }
        if let Some((t, other)) = overlap {
            self.sink.report(
                E_CELL_OVERLAP,
                format_args!("cells[{c}]"),
                format_args!(
                    "overlaps cells[{other}] at tiles[{t}] (tx {}, tz {})",
                    t % TILES_PER_SIDE,
                    t / TILES_PER_SIDE
                ),
            );
        }
    }

    /// The cell at `index`, when it exists and has finite bounds.
    fn cell_rect(&self, index: u16) -> Option<Rect> {
        self.cells
            .get(usize::from(index))
            .and_then(|info| info.rect)
    }

    /// Checks shared by both edge kinds: floats, direction bytes, `cell[0]` and where the edge
    /// lies on it. Counts `dir[0]` for the direction report.
    fn edge_common(&mut self, e: &EdgeView) -> Shape {
        let (section, i) = (e.section, e.index);
        for (name, point) in [("a", e.a), ("b", e.b)] {
            for (axis, v) in point.iter().enumerate() {
                if !v.get().is_finite() {
                    self.non_finite(format_args!("{section}[{i}].{name}[{axis}]"), *v);
                }
            }
        }
        for (k, d) in e.dir.into_iter().enumerate() {
            if d > 3 && d != NO_DIRECTION {
                self.sink.report(
                    E_EDGE_DIR,
                    format_args!("{section}[{i}].dir[{k}]"),
                    format_args!("direction {d}; expected 0..=3 or 255 (none)"),
                );
            }
        }
        let shape = Shape::of(e.a, e.b);
        let ends = Ends(e.a, e.b);
        match shape {
            Shape::ZeroLength => self.sink.report(
                E_EDGE_ZERO,
                format_args!("{section}[{i}]"),
                format_args!("both ends at ({}, {})", e.a[0], e.a[1]),
            ),
            Shape::Diagonal => self.sink.report(
                E_EDGE_DIAGONAL,
                format_args!("{section}[{i}]"),
                format_args!("{ends} is not axis-aligned"),
            ),
            Shape::NonFinite | Shape::Segment(_) => {}
        }
        let cell_count = self.mesh.cells.len();
        if usize::from(e.cell[0]) >= cell_count {
            self.sink.report(
                E_EDGE_CELL_A,
                format_args!("{section}[{i}].cell[0]"),
                format_args!("cell {}, but the file has {cell_count} cells", e.cell[0]),
            );
        } else if let (Shape::Segment(seg), Some(rect)) = (&shape, self.cell_rect(e.cell[0])) {
            match rect.side_of(seg) {
                Some(side) => {
                    if let Some(d) = direction_index(e.dir[0]) {
                        self.directions.counts[d][side as usize] += 1;
                    }
                }
                None => self.sink.report(
                    E_EDGE_OFF_A,
                    format_args!("{section}[{i}]"),
                    format_args!("{ends} is not on a side of cells[{}] ({rect})", e.cell[0]),
                ),
            }
        }
        shape
    }

    fn internal_edge(&mut self, e: &EdgeView, flag: u8, shape: &Shape) {
        let i = e.index;
        let passable = flag & EDGE_BLOCKED == 0;
        if flag != WALL_FLAG && flag != PASSAGE_FLAG {
            self.sink.report(
                W_INTERNAL_FLAG,
                format_args!("internal_edges[{i}].flag"),
                format_args!("flag 0x{flag:02x}; the game data has 0x02 (wall) or 0x04 (passage)"),
            );
        }
        if !passable {
            if e.cell[1] != NONE_U16 {
                self.sink.report(
                    W_WALL_CELL_B,
                    format_args!("internal_edges[{i}].cell[1]"),
                    format_args!(
                        "cell {} on a blocked edge (flag 0x{flag:02x}); the game data has 65535",
                        e.cell[1]
                    ),
                );
            }
            return;
        }
        let cell_count = self.mesh.cells.len();
        if usize::from(e.cell[1]) >= cell_count {
            self.sink.report(
                E_EDGE_CELL_B,
                format_args!("internal_edges[{i}].cell[1]"),
                format_args!(
                    "cell {} on a passable edge (flag 0x{flag:02x}), but the file has \
                     {cell_count} cells",
                    e.cell[1]
                ),
            );
            return;
        }
        let (Shape::Segment(seg), Some(rect_b)) = (shape, self.cell_rect(e.cell[1])) else {
            return;
        };
        let ends = Ends(e.a, e.b);
        let Some(side_b) = rect_b.side_of(seg) else {
            self.sink.report(
                E_EDGE_OFF_B,
                format_args!("internal_edges[{i}]"),
                format_args!("{ends} is not on a side of cells[{}] ({rect_b})", e.cell[1]),
            );
            return;
        };
        if let Some(d) = direction_index(e.dir[1]) {
            self.directions.counts_b[d][side_b as usize] += 1;
        }
        let side_a = self.cell_rect(e.cell[0]).and_then(|rect| rect.side_of(seg));
        if let Some(side_a) = side_a.filter(|&a| a != side_b.opposite()) {
            self.sink.report(
                E_EDGE_NOT_SHARED,
                format_args!("internal_edges[{i}]"),
                format_args!(
                    "{ends} is on side {} of cells[{}] and side {} of cells[{}]; a shared \
                     boundary has the cells on opposite sides",
                    side_a.name(),
                    e.cell[0],
                    side_b.name(),
                    e.cell[1]
                ),
            );
        }
    }

    fn global_edge(&mut self, i: usize, flag: u8, region: [u16; 2], shape: &Shape) {
        if flag & EDGE_BLOCKED != 0 {
            self.sink.report(
                W_GLOBAL_BLOCKED,
                format_args!("global_edges[{i}].flag"),
                format_args!("flag 0x{flag:02x} blocks; no global edge in the game data does"),
            );
        }
        if let Some(own) = self.region.filter(|own| own.0 != region[0]) {
            self.sink.report(
                E_GLOBAL_REGION_A,
                format_args!("global_edges[{i}].region[0]"),
                format_args!("region {:04x}, but the file is region {own}", region[0]),
            );
        }
        let Shape::Segment(seg) = shape else { return };
        let Some(border) = Rect::REGION.side_of(seg) else {
            self.sink.report(
                E_GLOBAL_OFF_BORDER,
                format_args!("global_edges[{i}]"),
                format_args!(
                    "{} {} is not on the region border",
                    ["x", "z"][seg.fixed_axis],
                    seg.fixed
                ),
            );
            return;
        };
        let base = self.region.unwrap_or(RegionId(region[0]));
        let expected = neighbour(base, border);
        if expected.map(|r| r.0) != Some(region[1]) {
            let wanted = match expected {
                Some(r) => format!("region {r}"),
                None => "nothing: no region lies there".to_owned(),
            };
            self.sink.report(
                E_GLOBAL_REGION_B,
                format_args!("global_edges[{i}].region[1]"),
                format_args!(
                    "region {:04x}; the edge is on side {} of region {base}, across which is {wanted}",
                    region[1],
                    border.name()
                ),
            );
        }
    }

    fn tiles(&mut self) {
        let mesh = self.mesh;
        let check_flags = mesh.layout.has_tile_flags();
        for (t, tile) in mesh.tiles.iter().enumerate() {
            let (tx, tz) = (t % TILES_PER_SIDE, t / TILES_PER_SIDE);
            if tile.cell_index >> 16 != 0 {
                self.sink.report(
                    W_TILE_HIGH,
                    format_args!("tiles[{t}].cell_index"),
                    format_args!(
                        "0x{:08x}; the game uses only the low 16 bits",
                        tile.cell_index
                    ),
                );
            }
            let c = usize::from(tile.cell());
            let Some(info) = self.cells.get(c) else {
                self.sink.report(
                    E_TILE_CELL,
                    format_args!("tiles[{t}].cell_index"),
                    format_args!(
                        "cell {c} (tx {tx}, tz {tz}), but the file has {} cells",
                        mesh.cells.len()
                    ),
                );
                continue;
            };
            if let Some([x0, z0, x1, z1]) = info.tiles {
                if !((x0..x1).contains(&tx) && (z0..z1).contains(&tz)) {
                    self.sink.report(
                        E_TILE_OUTSIDE,
                        format_args!("tiles[{t}]"),
                        format_args!(
                            "tile tx {tx}, tz {tz} (x {}, z {}) is outside cells[{c}] (tiles x \
                             {x0}..{x1}, z {z0}..{z1})",
                            tx * 20,
                            tz * 20
                        ),
                    );
                }
            }
            if check_flags {
                self.tile_flag(t, *tile, c);
            }
        }
    }

    /// Open cells come first and hold exactly the unblocked tiles.
    fn tile_flag(&mut self, t: usize, tile: Tile, c: usize) {
        let open = (c as u64) < u64::from(self.mesh.open_cell_count);
        if tile.is_blocked() == open {
            let (kind, state) = if open {
                ("open", "blocked")
            } else {
                ("closed", "not blocked")
            };
            self.sink.report(
                E_TILE_BLOCKED,
                format_args!("tiles[{t}].flag"),
                format_args!(
                    "flag 0x{:04x}: {state}, but cells[{c}] is {kind} (open cells are 0..{})",
                    tile.flag, self.mesh.open_cell_count
                ),
            );
        }
    }
}

/// The direction byte as an index into the count matrices, when it names a side.
fn direction_index(d: u8) -> Option<usize> {
    (d <= 3).then_some(usize::from(d))
}

/// The region across side `border` of `base`, when there is one.
fn neighbour(base: RegionId, border: Side) -> Option<RegionId> {
    let (x, z) = (base.x(), base.z());
    match border {
        Side::MinX => x.checked_sub(1).map(|x| RegionId::new(x, z)),
        Side::MaxX => x.checked_add(1).map(|x| RegionId::new(x, z)),
        Side::MinZ => z.checked_sub(1).map(|z| RegionId::new(x, z)),
        // z has 7 bits: row 127 is the last.
        Side::MaxZ => (z < 0x7f).then(|| RegionId::new(x, z + 1)),
    }
}

/// The conventions every counted direction byte agrees with; none when nothing was counted.
fn matching_conventions(report: &DirectionReport) -> Vec<&'static str> {
    if report.measured() == 0 {
        return Vec::new();
    }
    DIRECTION_CONVENTIONS
        .iter()
        .filter(|(_, sides)| {
            [&report.counts, &report.counts_b]
                .iter()
                .all(|counts| (0..4).all(|d| (0..4).all(|s| counts[d][s] == 0 || sides[d] == s)))
        })
        .map(|(name, _)| *name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_ordered_and_documented() {
        let source = include_str!("lint.rs");
        let mut previous = "";
        for (code, severity, description) in CODES {
            assert!(*code > previous, "{code} out of order after {previous}");
            previous = code;
            let letter = if *severity == Severity::Error {
                'E'
            } else {
                'W'
            };
            assert!(code.starts_with(letter), "{code} has severity {severity:?}");
            assert!(!description.is_empty());
            let row = format!("//! | {code} | {} |", severity.name());
            assert!(
                source.contains(&row),
                "{code} missing from the module docs table"
            );
        }
        assert_eq!(CODES.len(), 35);
    }

    #[test]
    fn sides_of_a_rectangle() {
        let rect = Rect {
            min: [20.0, 40.0],
            max: [100.0, 200.0],
        };
        let seg = |fixed_axis, fixed, lo, hi| Segment {
            fixed_axis,
            fixed,
            lo,
            hi,
        };
        assert_eq!(rect.side_of(&seg(1, 40.0, 20.0, 100.0)), Some(Side::MinZ));
        assert_eq!(rect.side_of(&seg(0, 20.0, 60.0, 80.0)), Some(Side::MinX));
        assert_eq!(rect.side_of(&seg(1, 200.0, 40.0, 60.0)), Some(Side::MaxZ));
        assert_eq!(rect.side_of(&seg(0, 100.0, 40.0, 200.0)), Some(Side::MaxX));
        // Past the side's end, or on the line through a side but beyond the rectangle.
        assert_eq!(rect.side_of(&seg(0, 100.0, 40.0, 220.0)), None);
        assert_eq!(rect.side_of(&seg(1, 40.0, 100.0, 120.0)), None);
        // Inside, not on the boundary.
        assert_eq!(rect.side_of(&seg(0, 60.0, 40.0, 200.0)), None);
    }

    #[test]
    fn neighbours_at_the_edge_of_the_world() {
        let r = RegionId::new(0, 0x7f);
        assert_eq!(neighbour(r, Side::MinX), None);
        assert_eq!(neighbour(r, Side::MaxZ), None);
        assert_eq!(neighbour(r, Side::MaxX), Some(RegionId::new(1, 0x7f)));
        assert_eq!(neighbour(r, Side::MinZ), Some(RegionId::new(0, 0x7e)));
        assert_eq!(neighbour(RegionId::new(0xff, 0), Side::MaxX), None);
    }
}
