//! Lint of one `AINavData` file, alone ([`lint`]) and against its dungeon ([`lint_dungeon`]).
//!
//! Every finding has a stable code, a location named like the model's fields
//! (`blocks[3].next_edge[12][40].forward`) and a message with the values involved. The codes
//! never change meaning; new checks get new codes. [`CODES`] lists them for programs, this table
//! for people.
//!
//! | code | severity | what it means |
//! |---|---|---|
//! | A001 | error | `unknown0`, the word after the sub-goal table, is not 0: the server refuses the file |
//! | A002 | error | `unknown1`, the word after the edge centres, is not 0: the server refuses the file |
//! | A003 | error | the two sections name different regions: the centres are filed under another dungeon |
//! | A004 | warning | the region id lacks the dungeon bit (0x8000) |
//! | A005 | error | the edge-centre section has another number of blocks than the routing section |
//! | A006 | error | a block's number of edge centres is not its edge count |
//! | A007 | error | a cell-table entry names an edge that is neither -1 nor below the block's edge count |
//! | A008 | error | a sub-goal names a cell that is neither -1 nor below the start block's cell count (the diagonal is not checked) |
//! | A009 | error | a link leaves from a cell at or above its block's cell count |
//! | A010 | error | a link leads into a block at or above the block count |
//! | A011 | error | a link arrives through an edge at or above its target block's edge count |
//! | A012 | warning | a link's id differs from its cell (they are equal in the game's files) |
//! | A013 | warning | a block's index differs from its position |
//! | A014 | warning | a block has more than 32767 cells or edges: an i16 entry cannot name them all |
//! | A015 | error | an edge centre is NaN or infinite |
//! | A016 | warning | bytes between the two sections (the offset does not follow the routing section) |
//! | A017 | warning | bytes after the edge-centre section |
//! | A018 | error | the file has another number of blocks than its dungeon |
//! | A019 | warning | a block's cell count differs from its mesh's |
//! | A020 | warning | a block's edge count differs from its mesh's |
//!
//! A001 to A017 look at the file alone; A018 to A020 compare it with the dungeon's blocks,
//! given as plain counts ([`BlockCounts`]) by whoever read the dungeon.
//!
//! # Decisions
//! - **The server's load checks are errors** (A001, A002): it refuses a file whose words after
//!   either section are not 0. It checks nothing else when loading, so out-of-range entries
//!   (A007 to A011) are errors for what a route through them would read.
//! - **Sub-goals belong to the start block** (A008): a monster in block `start` walks to the
//!   sub-goal with `start`'s cell table and leaves through a link from that cell, so the cell is
//!   checked against `start`'s cell count. The sources do not say which block the cell is in;
//!   this is the reading under which the tables and links fit together.
//! - **Mesh counts are warnings** (A019, A020): openroad found blocks whose tables were built on
//!   a simplified, retriangulated mesh, so a count that differs from the `.bms` is not proof of
//!   a broken file. A different number of blocks (A018) is an error: the tables are indexed by
//!   block.
//! - **One finding for a mistake that repeats.** A007 and A015 are reported once per block,
//!   A008 and A012 once per file, each with the number of entries and the first.
//! - **Dependent checks are skipped**: A011 only for links whose target block exists.
//!
//! # Cost
//! O(blocks² + Σ cells² + links + centres): one pass over every entry.

use super::model::{AiNavData, MAX_INDEX, NO_CELL, NO_EDGE};

use crate::lint::{finding, sort};
pub use crate::lint::{Finding, Severity};

/// Every lint code: (code, severity, one-line description), in code order.
pub const CODES: &[(&str, Severity, &str)] = &[
    (
        "A001",
        Severity::Error,
        "unknown0 (after the sub-goal table) is not 0",
    ),
    (
        "A002",
        Severity::Error,
        "unknown1 (after the edge centres) is not 0",
    ),
    (
        "A003",
        Severity::Error,
        "the two sections name different regions",
    ),
    (
        "A004",
        Severity::Warning,
        "the region id lacks the dungeon bit",
    ),
    (
        "A005",
        Severity::Error,
        "the two sections have different block counts",
    ),
    (
        "A006",
        Severity::Error,
        "a block's number of edge centres is not its edge count",
    ),
    (
        "A007",
        Severity::Error,
        "a cell-table entry names an edge neither -1 nor below the edge count",
    ),
    (
        "A008",
        Severity::Error,
        "a sub-goal names a cell neither -1 nor below the start block's cell count",
    ),
    (
        "A009",
        Severity::Error,
        "a link leaves from a cell out of range",
    ),
    (
        "A010",
        Severity::Error,
        "a link leads into a block out of range",
    ),
    (
        "A011",
        Severity::Error,
        "a link arrives through an edge out of range",
    ),
    (
        "A012",
        Severity::Warning,
        "a link's id differs from its cell",
    ),
    (
        "A013",
        Severity::Warning,
        "a block's index differs from its position",
    ),
    (
        "A014",
        Severity::Warning,
        "a block has more than 32767 cells or edges",
    ),
    ("A015", Severity::Error, "an edge centre is NaN or infinite"),
    ("A016", Severity::Warning, "bytes between the two sections"),
    (
        "A017",
        Severity::Warning,
        "bytes after the edge-centre section",
    ),
    (
        "A018",
        Severity::Error,
        "the file has another number of blocks than its dungeon",
    ),
    (
        "A019",
        Severity::Warning,
        "a block's cell count differs from its mesh's",
    ),
    (
        "A020",
        Severity::Warning,
        "a block's edge count differs from its mesh's",
    ),
];

/// What the dungeon says about one of its blocks, for [`lint_dungeon`]: counts of the block's
/// navigation mesh (the `.bms` its `.dof` entry names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BlockCounts {
    /// The mesh's cells (triangles).
    pub cells: u32,
    /// The mesh's edges, outline and inline together.
    pub edges: u32,
}

/// Lints one file alone: the codes A001 to A017 of [`CODES`], in code order (file order within
/// a code).
pub fn lint(nav: &AiNavData) -> Vec<Finding> {
    let mut l = Linter::default();
    if nav.unknown0 != 0 {
        l.report(
            "A001",
            "unknown0".into(),
            format!(
                "0x{:08x}: the server loads only files with 0 here",
                nav.unknown0
            ),
        );
    }
    if nav.unknown1 != 0 {
        l.report(
            "A002",
            "unknown1".into(),
            format!(
                "0x{:08x}: the server loads only files with 0 here",
                nav.unknown1
            ),
        );
    }
    if nav.centre_region != nav.region {
        l.report(
            "A003",
            "centre_region".into(),
            format!(
                "the edge centres name region {}, the routes region {}",
                nav.centre_region.0, nav.region.0
            ),
        );
    }
    if !nav.region.is_dungeon() {
        l.report(
            "A004",
            "region".into(),
            format!(
                "region {} (0x{:04x}) is not a dungeon's",
                nav.region.0, nav.region.0
            ),
        );
    }
    if nav.edge_centres.len() != nav.blocks.len() {
        l.report(
            "A005",
            "edge_centres".into(),
            format!(
                "{} blocks of edge centres, {} blocks of routes",
                nav.edge_centres.len(),
                nav.blocks.len()
            ),
        );
    }
    for (i, block) in nav.blocks.iter().enumerate() {
        let cells = block.next_edge.side();
        if let Some(centres) = nav.edge_centres.get(i) {
            if centres.len() as u64 != u64::from(block.edge_count) {
                l.report(
                    "A006",
                    format!("edge_centres[{i}]"),
                    format!(
                        "{} edge centres for the block's {} edges",
                        centres.len(),
                        block.edge_count
                    ),
                );
            }
        }
        let edge_ok = |e: i16| e == NO_EDGE || (e >= 0 && (e as u32) < block.edge_count);
        let mut bad = block
            .next_edge
            .entries()
            .iter()
            .enumerate()
            .flat_map(|(k, e)| {
                [("forward", e.forward), ("backward", e.backward)]
                    .into_iter()
                    .filter(|&(_, v)| !edge_ok(v))
                    .map(move |(field, v)| (k, field, v))
            });
        if let Some((k, field, value)) = bad.next() {
            let more = bad.count();
            let side = cells as usize;
            let location = format!("blocks[{i}].next_edge[{}][{}].{field}", k / side, k % side);
            l.report(
                "A007",
                location,
                format!(
                    "{} an edge neither -1 nor below the block's {} edges; the first names \
                     {value}",
                    entries(more + 1, "names", "name"),
                    block.edge_count
                ),
            );
        }
        for (j, link) in block.links.iter().enumerate() {
            let at = |field: &str| format!("blocks[{i}].links[{j}].{field}");
            if u32::from(link.cell) >= cells {
                l.report(
                    "A009",
                    at("cell"),
                    format!("cell {} of a block of {cells} cells", link.cell),
                );
            }
            match nav.blocks.get(usize::from(link.linked_block)) {
                None => l.report(
                    "A010",
                    at("linked_block"),
                    format!(
                        "block {} of a dungeon of {} blocks",
                        link.linked_block,
                        nav.blocks.len()
                    ),
                ),
                Some(target) if u32::from(link.linked_edge) >= target.edge_count => l.report(
                    "A011",
                    at("linked_edge"),
                    format!(
                        "edge {} of block {}, which has {} edges",
                        link.linked_edge, link.linked_block, target.edge_count
                    ),
                ),
                Some(_) => {}
            }
        }
        if block.index as u64 != i as u64 {
            l.report(
                "A013",
                format!("blocks[{i}].index"),
                format!("block {i} says it is block {}", block.index),
            );
        }
        if cells > MAX_INDEX || block.edge_count > MAX_INDEX {
            l.report(
                "A014",
                format!("blocks[{i}]"),
                format!(
                    "{cells} cells and {} edges; i16 entries name at most {}",
                    block.edge_count,
                    MAX_INDEX + 1
                ),
            );
        }
    }
    l.sub_goals(nav);
    l.link_ids(nav);
    for (i, centres) in nav.edge_centres.iter().enumerate() {
        let mut bad = centres
            .iter()
            .enumerate()
            .filter(|(_, c)| c.iter().any(|v| !v.get().is_finite()));
        if let Some((k, c)) = bad.next() {
            l.report(
                "A015",
                format!("edge_centres[{i}][{k}]"),
                format!(
                    "{} not finite; the first is {:?}",
                    entries(bad.count() + 1, "is", "are"),
                    c.map(f32::from)
                ),
            );
        }
    }
    if !nav.gap.is_empty() {
        l.report(
            "A016",
            "gap".into(),
            format!(
                "{} bytes between the routing section and the edge centres",
                nav.gap.len()
            ),
        );
    }
    if !nav.trailing.is_empty() {
        l.report(
            "A017",
            "trailing".into(),
            format!("{} bytes after the edge centres", nav.trailing.len()),
        );
    }
    l.finish()
}

/// Lints a file against its dungeon, whose blocks are given as counts in the dungeon's order:
/// the codes A018 to A020 of [`CODES`]. [`lint`] does the checks of the file alone.
pub fn lint_dungeon(nav: &AiNavData, blocks: &[BlockCounts]) -> Vec<Finding> {
    let mut l = Linter::default();
    if nav.blocks.len() != blocks.len() {
        l.report(
            "A018",
            "blocks".into(),
            format!(
                "{} blocks of routes for a dungeon of {} blocks",
                nav.blocks.len(),
                blocks.len()
            ),
        );
    }
    for (i, (block, mesh)) in nav.blocks.iter().zip(blocks).enumerate() {
        let cells = block.next_edge.side();
        if cells != mesh.cells {
            l.report(
                "A019",
                format!("blocks[{i}].next_edge"),
                format!("tables of {cells} cells for a mesh of {} cells", mesh.cells),
            );
        }
        if block.edge_count != mesh.edges {
            l.report(
                "A020",
                format!("blocks[{i}].edge_count"),
                format!(
                    "{} edges for a mesh of {} edges",
                    block.edge_count, mesh.edges
                ),
            );
        }
    }
    l.finish()
}

/// `1 entry names`, `3 entries name`: the count of a repeated finding with its verb.
fn entries(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 entry {one}"),
        n => format!("{n} entries {many}"),
    }
}

#[derive(Default)]
struct Linter {
    findings: Vec<Finding>,
}

impl Linter {
    fn report(&mut self, code: &'static str, location: String, message: String) {
        self.findings.push(finding(CODES, code, location, message));
    }

    /// A008, once for the file.
    fn sub_goals(&mut self, nav: &AiNavData) {
        let table = &nav.sub_goals;
        let cells = |start: usize| nav.blocks.get(start).map_or(0, |b| b.next_edge.side());
        let mut bad = table.rows().enumerate().flat_map(|(goal, row)| {
            row.iter()
                .enumerate()
                .filter(move |&(start, &cell)| {
                    start != goal && cell != NO_CELL && (cell < 0 || cell as u32 >= cells(start))
                })
                .map(move |(start, &cell)| (goal, start, cell))
        });
        if let Some((goal, start, cell)) = bad.next() {
            let more = bad.count();
            self.report(
                "A008",
                format!("sub_goals[{goal}][{start}]"),
                format!(
                    "{} a cell neither -1 nor in the start block; the first names cell {cell} \
                     of block {start}, which has {} cells",
                    entries(more + 1, "names", "name"),
                    cells(start)
                ),
            );
        }
    }

    /// A012, once for the file.
    fn link_ids(&mut self, nav: &AiNavData) {
        let mut bad = nav.blocks.iter().enumerate().flat_map(|(i, b)| {
            b.links
                .iter()
                .enumerate()
                .filter(|(_, link)| link.id != u32::from(link.cell))
                .map(move |(j, link)| (i, j, *link))
        });
        if let Some((i, j, link)) = bad.next() {
            self.report(
                "A012",
                format!("blocks[{i}].links[{j}].id"),
                format!(
                    "{} an id other than the cell; the first has id {} and cell {}",
                    entries(bad.count() + 1, "has", "have"),
                    link.id,
                    link.cell
                ),
            );
        }
    }

    fn finish(mut self) -> Vec<Finding> {
        sort(&mut self.findings);
        self.findings
    }
}
