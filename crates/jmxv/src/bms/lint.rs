//! Lint of one object mesh's navigation section: the server's load checks and the shape of a
//! valid triangle mesh with its edges and outline grid.
//!
//! Every finding has a stable code, a location named like the model's fields
//! (`outline_edges[3].cells[0]`) and a message with the values involved. The codes never
//! change meaning; new checks get new codes. [`CODES`] lists them for programs, this table for
//! people.
//!
//! | code | severity | what it means |
//! |---|---|---|
//! | B001 | error | a cell's vertex index is ≥ the vertex count |
//! | B002 | error | an edge's vertex index is ≥ the vertex count |
//! | B003 | error | an edge's `cells[0]` is ≥ the cell count, or its `cells[1]` is neither 0xFFFF nor < the cell count |
//! | B004 | error | an edge does not belong to one of its cells: its two vertices are not two different vertices of that cell |
//! | B005 | error | an inline edge is not shared by two cells: its `cells[1]` is 0xFFFF or equals `cells[0]` |
//! | B006 | warning | an outline edge has a second cell (`cells[1]` is not 0xFFFF) |
//! | B007 | error | a cell is degenerate: a repeated vertex, or zero area in the xz plane |
//! | B008 | error | a float (vertex position, grid origin) is NaN or infinite |
//! | B009 | error | the grid's width or height is negative, or its tile count is not width × height |
//! | B010 | error | a grid tile lists an outline-edge index ≥ the outline-edge count |
//! | B011 | error | an outline edge is missing from a grid tile it crosses |
//! | B012 | error | an event byte fires (bits 6–7 not 0) an event whose index (bits 0–5) is ≥ the number of event names |
//! | B013 | warning | there are more than 64 event names: a 6-bit event index reaches only the first 64 |
//! | B014 | warning | the nav flags have bits other than 0x01, 0x02, 0x04 and 0x08 |
//!
//! A mesh without a navigation section has no findings.
//!
//! # Decisions
//! - **The server's load checks are errors** (B001–B003, B010): the server refuses to load a
//!   mesh that breaks them.
//! - **Ownership is by index.** The server links an edge to its cells through the record's cell
//!   fields and walks from a cell through the edges it was given; an edge whose vertices are not
//!   two of the cell's corners puts a wrong side on that cell (B004). Coordinates are not
//!   compared, so a mesh that repeats a position under two indices is judged by the indices.
//! - **Outline edges with a second cell** are a warning (B006): the server follows only
//!   `cells[0]` of an outline edge, so the second cell is unused.
//! - **Which tiles an edge crosses** (B011) is the server's rule: a move looks for an outline
//!   edge in the tiles `trunc((p − origin) / 100)`, clamped to the grid, between its two ends,
//!   so the edge must be listed in that tile for every point `p` of the edge. An edge on a tile
//!   border therefore belongs to the tile on its max side. The tile of each point is computed
//!   in f64 from the f32 coordinates; the points where the edge crosses a tile line are put on
//!   the line exactly. Extra listings are not findings: the server tests each listed edge.
//! - **Degenerate cells** (B007) are measured in the xz plane, where the server's point-in-cell
//!   test works; the area's sign (winding) is not checked.
//! - **Dependent checks are skipped.** Ownership (B004) is checked only where the edge's and
//!   the cell's vertex indices are in range, geometry only where the coordinates are also
//!   finite, and B011 only on a consistent grid (no B009), so one mistake gives one finding,
//!   not many.
//!
//! # Cost
//! O(vertices + cells + edges + grid entries), plus for each outline edge the tiles it
//! crosses (at most width + height of them).

use super::model::{NavEdge, NavSection, ObjectMesh, EVENT_INDEX_MASK, EVENT_MODE_MASK};
use super::model::{GRID_TILE_SIZE, NAV_KNOWN_FLAGS, NO_CELL};
use crate::F32;
use std::collections::BTreeSet;

use crate::lint::{finding, sort};
pub use crate::lint::{Finding, Severity};

/// Every lint code: (code, severity, one-line description), in code order.
pub const CODES: &[(&str, Severity, &str)] = &[
    (
        "B001",
        Severity::Error,
        "a cell's vertex index is >= the vertex count",
    ),
    (
        "B002",
        Severity::Error,
        "an edge's vertex index is >= the vertex count",
    ),
    (
        "B003",
        Severity::Error,
        "an edge's cell index is out of range (cells[0] must exist, cells[1] exist or be 0xFFFF)",
    ),
    (
        "B004",
        Severity::Error,
        "an edge's two vertices are not two different vertices of its cell",
    ),
    (
        "B005",
        Severity::Error,
        "an inline edge is not shared by two different cells",
    ),
    (
        "B006",
        Severity::Warning,
        "an outline edge has a second cell",
    ),
    (
        "B007",
        Severity::Error,
        "a cell has a repeated vertex or zero area in the xz plane",
    ),
    (
        "B008",
        Severity::Error,
        "a vertex position or the grid origin is NaN or infinite",
    ),
    (
        "B009",
        Severity::Error,
        "the grid's width or height is negative, or its tile count is not width x height",
    ),
    (
        "B010",
        Severity::Error,
        "a grid tile lists an outline-edge index >= the outline-edge count",
    ),
    (
        "B011",
        Severity::Error,
        "an outline edge is missing from a grid tile it crosses",
    ),
    (
        "B012",
        Severity::Error,
        "an event byte fires an event index >= the number of event names",
    ),
    (
        "B013",
        Severity::Warning,
        "more than 64 event names (a 6-bit event index reaches only the first 64)",
    ),
    (
        "B014",
        Severity::Warning,
        "the nav flags have bits other than 0x0f",
    ),
];

/// The most event names an event byte can name.
const MAX_EVENTS: usize = 64;

/// Lints one mesh: the codes in [`CODES`], in code order (file order within a code).
pub fn lint(mesh: &ObjectMesh) -> Vec<Finding> {
    let Some(nav) = &mesh.nav else {
        return Vec::new();
    };
    let mut l = Linter {
        nav,
        findings: Vec::new(),
    };
    let flags = mesh.header.nav_flags;
    if flags & !NAV_KNOWN_FLAGS != 0 {
        l.report(
            "B014",
            "header.nav_flags".into(),
            format!(
                "nav flags 0x{flags:x} have unknown bits 0x{:x}",
                flags & !NAV_KNOWN_FLAGS
            ),
        );
    }
    l.vertices();
    l.cells();
    for (list, edges) in l.edge_lists() {
        for (i, e) in edges.iter().enumerate() {
            l.edge(list, i, e);
        }
    }
    l.events();
    l.grid();
    sort(&mut l.findings);
    l.findings
}

struct Linter<'a> {
    nav: &'a NavSection,
    findings: Vec<Finding>,
}

impl<'a> Linter<'a> {
    fn report(&mut self, code: &'static str, location: String, message: String) {
        self.findings.push(finding(CODES, code, location, message));
    }

    fn edge_lists(&self) -> [(&'static str, &'a [NavEdge]); 2] {
        [
            ("outline_edges", &self.nav.outline_edges),
            ("inline_edges", &self.nav.inline_edges),
        ]
    }

    /// The xz position of a vertex, when the index is in range and the position finite.
    fn xz(&self, vertex: u16) -> Option<[f64; 2]> {
        let v = self.nav.vertices.get(usize::from(vertex))?;
        let p = [v.position[0], v.position[2]].map(|c| f64::from(c.get()));
        p.iter().all(|c| c.is_finite()).then_some(p)
    }

    fn vertices(&mut self) {
        for (i, v) in self.nav.vertices.iter().enumerate() {
            if let Some(bad) = v.position.iter().find(|c| !c.get().is_finite()) {
                self.report(
                    "B008",
                    format!("vertices[{i}].position"),
                    format!("the position has a non-finite coordinate {bad:?}"),
                );
            }
        }
        let origin = self.nav.grid.origin;
        if let Some(bad) = origin.iter().find(|c| !c.get().is_finite()) {
            self.report(
                "B008",
                "grid.origin".into(),
                format!("the grid origin has a non-finite coordinate {bad:?}"),
            );
        }
    }

    fn cells(&mut self) {
        let vertex_count = self.nav.vertices.len();
        for (i, c) in self.nav.cells.iter().enumerate() {
            let mut in_range = true;
            for (k, &v) in c.vertices.iter().enumerate() {
                if usize::from(v) >= vertex_count {
                    in_range = false;
                    self.report(
                        "B001",
                        format!("cells[{i}].vertices[{k}]"),
                        format!("vertex {v}, but there are {vertex_count} vertices"),
                    );
                }
            }
            let [a, b, d] = c.vertices;
            if a == b || b == d || a == d {
                self.report(
                    "B007",
                    format!("cells[{i}].vertices"),
                    format!("the triangle repeats a vertex: {:?}", c.vertices),
                );
                continue;
            }
            if !in_range {
                continue;
            }
            if let (Some(p), Some(q), Some(r)) = (self.xz(a), self.xz(b), self.xz(d)) {
                let cross = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
                if cross == 0.0 {
                    self.report(
                        "B007",
                        format!("cells[{i}].vertices"),
                        format!("vertices {a}, {b}, {d} are collinear in the xz plane: zero area"),
                    );
                }
            }
        }
    }

    fn edge(&mut self, list: &'static str, i: usize, e: &NavEdge) {
        let vertex_count = self.nav.vertices.len();
        let cell_count = self.nav.cells.len();
        for (k, &v) in e.vertices.iter().enumerate() {
            if usize::from(v) >= vertex_count {
                self.report(
                    "B002",
                    format!("{list}[{i}].vertices[{k}]"),
                    format!("vertex {v}, but there are {vertex_count} vertices"),
                );
            }
        }
        let [first, second] = e.cells;
        if usize::from(first) >= cell_count {
            self.report(
                "B003",
                format!("{list}[{i}].cells[0]"),
                format!(
                    "cell {first}, but there are {cell_count} cells (the first cell must exist)"
                ),
            );
        }
        if second != NO_CELL && usize::from(second) >= cell_count {
            self.report(
                "B003",
                format!("{list}[{i}].cells[1]"),
                format!("cell {second}, but there are {cell_count} cells (and it is not 0xFFFF)"),
            );
        }
        let [va, vb] = e.vertices;
        let edge_in_range = usize::from(va.max(vb)) < vertex_count;
        for (side, &cell) in e.cells.iter().enumerate() {
            let Some(c) = self.nav.cells.get(usize::from(cell)) else {
                continue;
            };
            let cell_in_range = c.vertices.iter().all(|&v| usize::from(v) < vertex_count);
            if !edge_in_range || !cell_in_range {
                continue;
            }
            if va == vb || !c.vertices.contains(&va) || !c.vertices.contains(&vb) {
                self.report(
                    "B004",
                    format!("{list}[{i}].cells[{side}]"),
                    format!(
                        "the edge runs from vertex {va} to {vb}, which is not a side of cell {cell} \
                         (vertices {:?})",
                        c.vertices
                    ),
                );
            }
        }
        if list == "inline_edges" && (second == NO_CELL || second == first) {
            self.report(
                "B005",
                format!("{list}[{i}].cells"),
                format!("cells {first} and {second:#x}: an inline edge lies between two different cells"),
            );
        }
        if list == "outline_edges" && second != NO_CELL {
            self.report(
                "B006",
                format!("{list}[{i}].cells[1]"),
                format!("cell {second} on the outer side of an outline edge; the server uses only cells[0]"),
            );
        }
    }

    fn events(&mut self) {
        let names = self.nav.event_names.len();
        if names > MAX_EVENTS {
            self.report(
                "B013",
                "event_names".into(),
                format!("{names} event names; event bytes can name only the first {MAX_EVENTS}"),
            );
        }
        let cells = self
            .nav
            .cells
            .iter()
            .enumerate()
            .map(|(i, c)| (format!("cells[{i}].event"), c.event));
        let edges = self.edge_lists().into_iter().flat_map(|(list, edges)| {
            edges
                .iter()
                .enumerate()
                .map(move |(i, e)| (format!("{list}[{i}].event"), e.event))
        });
        let bad: Vec<(String, u8)> = cells
            .chain(edges)
            .filter(|&(_, event)| {
                event & EVENT_MODE_MASK != 0 && usize::from(event & EVENT_INDEX_MASK) >= names
            })
            .collect();
        for (location, event) in bad {
            self.report(
                "B012",
                location,
                format!(
                    "event byte 0x{event:02x} fires event {}, but there are {names} event names",
                    event & EVENT_INDEX_MASK
                ),
            );
        }
    }

    fn grid(&mut self) {
        let grid = &self.nav.grid;
        let outline_count = self.nav.outline_edges.len();
        for (t, tile) in grid.tiles.iter().enumerate() {
            for (k, &e) in tile.iter().enumerate() {
                if usize::from(e) >= outline_count {
                    self.report(
                        "B010",
                        format!("grid.tiles[{t}][{k}]"),
                        format!("outline edge {e}, but there are {outline_count} outline edges"),
                    );
                }
            }
        }
        let (width, height) = (grid.width, grid.height);
        let expected = i64::from(width) * i64::from(height);
        if width < 0 || height < 0 || expected != grid.tiles.len() as i64 {
            self.report(
                "B009",
                "grid.tiles".into(),
                format!(
                    "the grid is {width} × {height} tiles, but it stores {} tiles",
                    grid.tiles.len()
                ),
            );
            return;
        }
        if width == 0 || height == 0 || !grid.origin.iter().all(|c| c.get().is_finite()) {
            return;
        }
        let (width, height) = (width as usize, height as usize);
        let origin = grid.origin.map(|c| f64::from(F32::get(c)));
        for (i, e) in self.nav.outline_edges.iter().enumerate() {
            let (Some(a), Some(b)) = (self.xz(e.vertices[0]), self.xz(e.vertices[1])) else {
                continue;
            };
            let to_grid =
                |p: [f64; 2]| [0, 1].map(|k| (p[k] - origin[k]) / f64::from(GRID_TILE_SIZE));
            let crossed = tiles_crossed(to_grid(a), to_grid(b), [width, height]);
            let missing: Vec<[usize; 2]> = crossed
                .into_iter()
                .filter(|&[x, z]| !grid.tiles[z * width + x].contains(&(i as u16)))
                .collect();
            if let Some(&[x, z]) = missing.first() {
                self.report(
                    "B011",
                    format!("outline_edges[{i}]"),
                    format!(
                        "the edge crosses tile ({x}, {z}) (grid.tiles[{}]) but is not listed \
                         there{}",
                        z * width + x,
                        match missing.len() {
                            1 => String::new(),
                            n => format!(", nor in {} more tiles it crosses", n - 1),
                        }
                    ),
                );
            }
        }
    }
}

/// The tiles `clamp(floor(p))` over every point `p` of the segment from `a` to `b`, in grid
/// units, on a grid of `size` tiles.
///
/// The tile changes only where the segment crosses an inner grid line, so the segment's ends,
/// those crossings (put exactly on their line) and one point between each two consecutive ones
/// give every tile.
fn tiles_crossed(a: [f64; 2], b: [f64; 2], size: [usize; 2]) -> BTreeSet<[usize; 2]> {
    let point = |t: f64| [0, 1].map(|k| a[k] + t * (b[k] - a[k]));
    let tile = |p: [f64; 2]| {
        [0, 1].map(|k| {
            let max = size[k] - 1;
            let f = p[k].floor();
            if f <= 0.0 {
                0
            } else if f >= max as f64 {
                max
            } else {
                f as usize
            }
        })
    };
    // (t, point) of the ends and of every crossing of an inner line.
    let mut stops: Vec<(f64, [f64; 2])> = vec![(0.0, a), (1.0, b)];
    for axis in 0..2 {
        let (lo, hi) = (a[axis].min(b[axis]), a[axis].max(b[axis]));
        if lo == hi {
            continue;
        }
        let first = lo.ceil().max(1.0);
        let last = hi.floor().min((size[axis] - 1) as f64);
        let mut line = first;
        while line <= last {
            let t = (line - a[axis]) / (b[axis] - a[axis]);
            let mut p = point(t);
            p[axis] = line;
            stops.push((t, p));
            line += 1.0;
        }
    }
    stops.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut tiles = BTreeSet::new();
    for (k, &(t, p)) in stops.iter().enumerate() {
        tiles.insert(tile(p));
        if let Some(&(next, _)) = stops.get(k + 1) {
            tiles.insert(tile(point((t + next) / 2.0)));
        }
    }
    tiles
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_of_a_diagonal_and_of_a_border_edge() {
        // From the middle of tile (0, 0) to the middle of tile (2, 1): through (1, 0) and
        // (1, 1) or (2, 0) depending on where it crosses.
        let t = tiles_crossed([0.5, 0.5], [2.5, 1.5], [3, 2]);
        assert_eq!(
            t.into_iter().collect::<Vec<_>>(),
            vec![[0, 0], [1, 0], [1, 1], [2, 1]]
        );
        // An edge on the line x = 1 belongs to the tiles on its max side.
        let t = tiles_crossed([1.0, 0.0], [1.0, 2.0], [3, 2]);
        assert_eq!(t.into_iter().collect::<Vec<_>>(), vec![[1, 0], [1, 1]]);
        // Outside the grid: clamped to the border tiles.
        let t = tiles_crossed([-5.0, 0.5], [0.5, 0.5], [3, 2]);
        assert_eq!(t.into_iter().collect::<Vec<_>>(), vec![[0, 0]]);
        // Through a tile corner exactly: only the tiles the floor rule names.
        let t = tiles_crossed([0.5, 0.5], [1.5, 1.5], [3, 2]);
        assert_eq!(t.into_iter().collect::<Vec<_>>(), vec![[0, 0], [1, 1]]);
    }
}
