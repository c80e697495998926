//! The shortest distance between every two corners of a small index, and the corner before the
//! last on each such path, so that a query there needs no graph search.
//!
//! A shortest path from `s` to `t` that is not the straight segment turns at corners: it
//! leaves `s` for a corner `a` that `s` sees, follows the visibility graph to a corner `b`
//! that `t` sees, and ends at `t`. Each of its pieces is a shortest path itself, so its length
//! is the least `|s a| + D(a, b) + |b t|` over the corners the two ends link to, with `D` the
//! graph's shortest distance; and each such sum is the length of a path through free space
//! (three pieces of visible segments), so the least of them is the optimum. The table holds
//! `D` for every pair; the query is then a scan of the pairs ([`super::search`]).
//!
//! With it come the rectangles' record cells ([`RecordCells`]): the ends of a query are linked
//! to the corners they see by the records of their cell alone, fewer than their rectangle's.
//!
//! It is kept only where it is small and quick to make ([`MAX_WORK`]: one Dijkstra search per
//! corner), so it never takes more than 10 MB, and the cells at most 16 MB more
//! ([`MAX_CELL_RECORDS`]; none where they would take more). Both are made in memory with the
//! index and after an index file is read (never stored in the file). Making the table is
//! O(C·(E + C) log C) for C corners and E edges. Measurements: `docs/design/paths.md`.

use super::graph::Seen;
use super::index::{vertex_point, Corner, TerrainIndex};
use super::search::distance;
use super::visibility::Cone;
use crate::geometry::orient;
use rayon::prelude::*;
use std::collections::BinaryHeap;

/// The most work a table may take to make, as corners × (edges + corners): a million keeps
/// the making short next to the index's build (`docs/design/paths.md`). It keeps the corners
/// at most 1,000 too, so the table at most 10 MB, and corner numbers fit the `u16` of
/// [`CornerTable::before`].
pub(crate) const MAX_WORK: usize = 1_000_000;
/// No corner before: the path's first corner, or a corner the path cannot reach.
const NO_CORNER: u16 = u16::MAX;

/// All-pairs shortest distances over the visibility graph of an index with `n` corners.
#[derive(Debug, Clone)]
pub(crate) struct CornerTable {
    n: usize,
    /// `distance[a · n + b]`: the graph's shortest distance from corner `a` to corner `b`
    /// (infinite where there is no path).
    distance: Vec<f64>,
    /// `before[a · n + b]`: the corner before `b` on that path ([`NO_CORNER`] for `b = a`).
    before: Vec<u16>,
    /// The "seen by" records of each rectangle that may hold a point of each of its cells,
    /// so that linking an end tests a few of them ([`RecordCells`]); `None` where they would
    /// take too much memory.
    pub cells: Option<RecordCells>,
}

impl CornerTable {
    /// The table of `index`, when it is small enough ([`MAX_WORK`]).
    pub fn build(index: &TerrainIndex) -> Option<CornerTable> {
        let n = index.corners.len();
        let work = n.saturating_mul(index.edges.len().saturating_add(n));
        (n > 0 && work <= MAX_WORK).then(|| CornerTable::make(index))
    }

    /// The table of `index`, whatever its size (below `u16::MAX` corners).
    pub fn make(index: &TerrainIndex) -> CornerTable {
        let n = index.corners.len();
        assert!(
            n < usize::from(NO_CORNER),
            "{n} corners: too many for a table"
        );
        let mut distance = vec![f64::INFINITY; n * n];
        let mut before = vec![NO_CORNER; n * n];
        distance
            .par_chunks_mut(n.max(1))
            .zip(before.par_chunks_mut(n.max(1)))
            .enumerate()
            .for_each_init(BinaryHeap::new, |heap, (a, (row, back))| {
                dijkstra(index, a as u32, row, heap, |to, via| {
                    back[to as usize] = via as u16;
                });
            });
        CornerTable {
            n,
            distance,
            before,
            cells: RecordCells::build(index),
        }
    }

    /// The distances from corner `a` to every corner.
    #[inline]
    pub fn row(&self, a: u32) -> &[f64] {
        let from = a as usize * self.n;
        &self.distance[from..from + self.n]
    }

    /// Appends the corners of the shortest path from `a` to `b` to `out`, `a` and `b`
    /// included. `b` must be reachable from `a` (a finite distance in `a`'s row): the corners
    /// before it then lead back to `a`, a shortest-path tree having no cycle.
    pub fn corners_between(&self, a: u32, b: u32, out: &mut Vec<u32>) {
        let from = out.len();
        let row = a as usize * self.n;
        let mut c = b;
        out.push(c);
        while c != a {
            c = u32::from(self.before[row + c as usize]);
            out.push(c);
        }
        out[from..].reverse();
    }

    /// Heap bytes the table holds.
    pub fn heap_bytes(&self) -> usize {
        self.distance.capacity() * std::mem::size_of::<f64>()
            + self.before.capacity() * std::mem::size_of::<u16>()
            + self.cells.as_ref().map_or(0, RecordCells::heap_bytes)
    }
}

/// Dijkstra's search from corner `a` over the visibility graph: fills `row` (infinite where
/// not reached, on entry) with each corner's graph distance from `a`, and calls
/// `improved(to, via)` each time corner `to` gets a shorter distance through corner `via`
/// (the last call for a corner names the corner before it on a shortest path). Shared by the
/// table's rows and the landmarks' columns ([`super::landmarks`]).
pub(super) fn dijkstra(
    index: &TerrainIndex,
    a: u32,
    row: &mut [f64],
    heap: &mut BinaryHeap<Reached>,
    mut improved: impl FnMut(u32, u32),
) {
    heap.clear();
    row[a as usize] = 0.0;
    heap.push(Reached { d: 0.0, node: a });
    while let Some(Reached { d, node: corner }) = heap.pop() {
        if d > row[corner as usize] {
            continue;
        }
        let here = index.corners[corner as usize].point();
        for e in index.edges_of(corner) {
            let candidate = d + distance(here, e.point());
            if candidate < row[e.to as usize] {
                row[e.to as usize] = candidate;
                improved(e.to, corner);
                heap.push(Reached {
                    d: candidate,
                    node: e.to,
                });
            }
        }
    }
}

/// A heap entry of [`dijkstra`]: 16 bytes, a third less than the search's, which the
/// searches over a big world's graph feel.
#[derive(Debug, Clone, Copy)]
pub(super) struct Reached {
    d: f64,
    node: u32,
}

impl PartialEq for Reached {
    fn eq(&self, other: &Reached) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}
impl Eq for Reached {}
impl PartialOrd for Reached {
    fn partial_cmp(&self, other: &Reached) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Reached {
    /// The nearest first (a max-heap of reversed order).
    fn cmp(&self, other: &Reached) -> std::cmp::Ordering {
        other.d.total_cmp(&self.d)
    }
}

/// Cells per side of a rectangle, at most (cells are whole tiles).
const CELLS_PER_SIDE: i32 = 8;
/// The most records the cells may hold together (16 MB of [`CellRecord`]s).
const MAX_CELL_RECORDS: usize = 500_000;

/// A "seen by" record as a cell keeps it: with a copy of its corner, so that linking an end
/// reads the cell's records one after the other and nothing else (the record's number and
/// then its corner were two reads more per record, each depending on the one before).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CellRecord {
    pub seen: Seen,
    /// The record's corner (`seen.corner`).
    pub at: Corner,
}

/// Each rectangle cut into up to [`CELLS_PER_SIDE`]² cells of whole tiles, and per cell the
/// rectangle's "seen by" records whose cone may hold a point of it: a record is left out only
/// when all four corners of the cell (a closed box) lie strictly outside one of the two
/// half-planes the cone is made of, so that every record that holds a point of the cell is
/// kept. On open small maps a point's cell keeps about half of its rectangle's records.
#[derive(Debug, Clone)]
pub(crate) struct RecordCells {
    /// Per rectangle: its first cell, and the cells' size in tiles along x and z.
    rects: Vec<(u32, i32, i32)>,
    /// Cell c's records are `records[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    records: Vec<CellRecord>,
}

impl RecordCells {
    /// The cells of `index`'s rectangles, or `None` without records or when they would hold
    /// more than [`MAX_CELL_RECORDS`] records (counted as they are made: a cell keeps a few
    /// of its rectangle's records, so a bound of every record in every cell would refuse
    /// maps whose cells fit well).
    fn build(index: &TerrainIndex) -> Option<RecordCells> {
        if !index.has_seen_by() {
            return None;
        }
        let mut cells = RecordCells {
            rects: Vec::with_capacity(index.rects.len()),
            start: vec![0],
            records: Vec::new(),
        };
        for (r, rect) in index.rects.iter().enumerate() {
            let size = |lo: i32, hi: i32| (hi - lo + CELLS_PER_SIDE - 1) / CELLS_PER_SIDE;
            let (cx, cz) = (size(rect.x0, rect.x1), size(rect.z0, rect.z1));
            cells
                .rects
                .push((cells.start.len() as u32 - 1, cx.max(1), cz.max(1)));
            // Each record's apex and cone once, for every cell; a record that sees the
            // rectangle whole is kept in every cell.
            let seen: Vec<([f64; 2], Cone, bool, CellRecord)> = index
                .seen_by(r as u32)
                .iter()
                .map(|record| {
                    let at = index.corners[record.corner as usize];
                    let root = at.point();
                    let cone = record.cone();
                    let kept = CellRecord { seen: *record, at };
                    (
                        root,
                        cone,
                        record.right == record.left && cone.right == root,
                        kept,
                    )
                })
                .collect();
            let mut z = rect.z0;
            while z < rect.z1 {
                let mut x = rect.x0;
                while x < rect.x1 {
                    let (x1, z1) = ((x + cx).min(rect.x1), (z + cz).min(rect.z1));
                    let corners = [
                        vertex_point(x, z),
                        vertex_point(x1, z),
                        vertex_point(x1, z1),
                        vertex_point(x, z1),
                    ];
                    for &(root, cone, whole, kept) in &seen {
                        // Outside `orient(root, right, p) >= 0`, or outside
                        // `orient(root, p, left) >= 0`: the two tests of `Cone::holds`.
                        let outside = corners.iter().all(|&p| orient(root, cone.right, p) < 0.0)
                            || corners.iter().all(|&p| orient(root, p, cone.left) < 0.0);
                        if whole || !outside {
                            cells.records.push(kept);
                        }
                    }
                    if cells.records.len() > MAX_CELL_RECORDS {
                        return None;
                    }
                    cells.start.push(cells.records.len() as u32);
                    x = x1;
                }
                z = (z + cz).min(rect.z1);
            }
        }
        Some(cells)
    }

    /// The records of rectangle `rect` that may hold the point at global tile coordinates
    /// `tile` (clamped into the rectangle: a point on its far sides is in its last cells).
    #[inline]
    pub fn records(&self, index: &TerrainIndex, rect: u32, tile: [i64; 2]) -> &[CellRecord] {
        let r = &index.rects[rect as usize];
        let (first, cx, cz) = self.rects[rect as usize];
        let across = (r.x1 - r.x0 + cx - 1) / cx;
        let cell = |t: i64, lo: i32, hi: i32, size: i32| {
            (t.clamp(i64::from(lo), i64::from(hi) - 1) - i64::from(lo)) as u32 / size as u32
        };
        let c = (first
            + cell(tile[1], r.z0, r.z1, cz) * across as u32
            + cell(tile[0], r.x0, r.x1, cx)) as usize;
        &self.records[self.start[c] as usize..self.start[c + 1] as usize]
    }

    fn heap_bytes(&self) -> usize {
        self.rects.capacity() * std::mem::size_of::<(u32, i32, i32)>()
            + self.start.capacity() * std::mem::size_of::<u32>()
            + self.records.capacity() * std::mem::size_of::<CellRecord>()
    }
}
