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
//! It is kept only where it is small and quick to make ([`MAX_WORK`]: one Dijkstra search per
//! corner), so it never takes more than 10 MB or about 10 ms. It is made in memory with the index and after an index file is read (never stored
//! in the file).

use super::index::PathIndex;
use super::search::{distance, Entry};
use rayon::prelude::*;
use std::collections::BinaryHeap;

/// The most work a table may take to make, as corners × (edges + corners): a million is
/// under 10 ms on one core (the 203 corners and 1,670 edges of the Moving AI map rmtst01,
/// 380,000, take 2.5 ms on two). It keeps the corners at most 1,000 too, so the table at
/// most 10 MB, and corner numbers fit the `u16` of [`CornerTable::before`].
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
}

impl CornerTable {
    /// The table of `index`, when it is small enough ([`MAX_WORK`]).
    pub fn build(index: &PathIndex) -> Option<CornerTable> {
        let n = index.corners.len();
        let work = n.saturating_mul(index.edges.len().saturating_add(n));
        (n > 0 && work <= MAX_WORK).then(|| CornerTable::make(index))
    }

    /// The table of `index`, whatever its size (below `u16::MAX` corners).
    pub fn make(index: &PathIndex) -> CornerTable {
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
                dijkstra(index, a as u32, row, back, heap);
            });
        CornerTable {
            n,
            distance,
            before,
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
    }
}

/// Dijkstra's search from corner `a` over the visibility graph, filling `a`'s row.
fn dijkstra(
    index: &PathIndex,
    a: u32,
    row: &mut [f64],
    before: &mut [u16],
    heap: &mut BinaryHeap<Entry>,
) {
    heap.clear();
    row[a as usize] = 0.0;
    heap.push(Entry {
        f: 0.0,
        g: 0.0,
        node: a,
    });
    while let Some(Entry {
        g: d, node: corner, ..
    }) = heap.pop()
    {
        if d > row[corner as usize] {
            continue;
        }
        let here = index.corners[corner as usize].point();
        for e in index.edges_of(corner) {
            let candidate = d + distance(here, e.point());
            let to = e.to as usize;
            if candidate < row[to] {
                row[to] = candidate;
                before[to] = corner as u16;
                heap.push(Entry {
                    f: candidate,
                    g: candidate,
                    node: e.to,
                });
            }
        }
    }
}
