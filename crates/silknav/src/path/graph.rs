//! The sparse visibility graph: between corners that see each other, the edges a taut path
//! can use at both ends.
//!
//! A shortest path turns only at corners and wraps around each one; a segment leaving a
//! corner into the half of the plane behind its obstacle can never be part of such a path, so
//! only edges whose direction is in both corners' taut sets are kept. Built once per world on
//! all cores.

use super::index::{direction_class, PathIndex, NONE, TILE};
use super::visibility::{sees, ScanScratch};

use std::sync::atomic::{AtomicUsize, Ordering};

/// An edge to another corner, with the corner's vertex (so that a search relaxing the edge
/// reads nothing else; the length is recomputed, exactly as from the points).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Edge {
    pub to: u32,
    pub gx: i32,
    pub gz: i32,
}

impl Edge {
    #[inline]
    pub fn point(&self) -> [f64; 2] {
        [f64::from(self.gx) * TILE, f64::from(self.gz) * TILE]
    }
}

/// Corners per unit of work handed to a thread.
const CHUNK: usize = 256;

/// The edges of every corner: (`edge_start`, `edges`), as in [`PathIndex`].
pub(crate) fn build(index: &PathIndex) -> (Vec<u32>, Vec<Edge>) {
    let count = index.corners.len();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(count.div_ceil(CHUNK).max(1));
    let next = AtomicUsize::new(0);
    let mut chunks: Vec<(usize, Vec<u32>, Vec<Edge>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    let mut stack = ScanScratch::default();
                    let mut stamp = vec![u32::MAX; count];
                    loop {
                        let first = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if first >= count {
                            break;
                        }
                        let last = (first + CHUNK).min(count);
                        let mut lengths = Vec::with_capacity(last - first);
                        let mut edges = Vec::new();
                        for c in first..last {
                            let before = edges.len();
                            neighbours(index, c as u32, &mut stack, &mut stamp, &mut edges);
                            lengths.push((edges.len() - before) as u32);
                        }
                        out.push((first, lengths, edges));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a path index thread panicked"))
            .collect()
    });
    chunks.sort_unstable_by_key(|c| c.0);
    let total: usize = chunks.iter().map(|c| c.2.len()).sum();
    let mut edge_start = Vec::with_capacity(count + 1);
    let mut edges = Vec::with_capacity(total);
    for (_, lengths, chunk_edges) in chunks {
        let mut offset = edges.len();
        for n in lengths {
            edge_start.push(offset as u32);
            offset += n as usize;
        }
        edges.extend(chunk_edges);
    }
    edge_start.push(edges.len() as u32);
    (edge_start, edges)
}

/// Appends the kept edges of corner `c`.
fn neighbours(
    index: &PathIndex,
    c: u32,
    stack: &mut ScanScratch,
    stamp: &mut [u32],
    out: &mut Vec<Edge>,
) {
    let corner = &index.corners[c as usize];
    let p = corner.point();
    let roots: Vec<u32> = index.corner_roots[c as usize]
        .iter()
        .copied()
        .filter(|&r| r != NONE)
        .collect();
    let (from_point, from_roots) = (p, &roots);
    sees(
        index,
        from_point,
        from_roots,
        None,
        stack,
        |other, sight| {
            let d = other.id;
            if d == c || stamp[d as usize] == c {
                return;
            }
            let q = other.point();
            let Some(class) = direction_class(p, q) else {
                return;
            };
            if corner.taut_mask & (1 << class) == 0
                || other.taut_mask & (1 << ((class + 4) % 8)) == 0
                || !sight.clear(q)
            {
                return;
            }
            stamp[d as usize] = c;
            out.push(Edge {
                to: d,
                gx: other.gx,
                gz: other.gz,
            });
        },
    );
}
