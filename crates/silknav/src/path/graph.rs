//! The sparse visibility graph: between corners that see each other, the edges a taut path
//! can use at both ends.
//!
//! A shortest path turns only at corners and wraps around each one; a segment leaving a
//! corner into the half of the plane behind its obstacle can never be part of such a path, so
//! only edges whose direction is in both corners' taut sets are kept. Built once per world on
//! rayon's current pool.

use super::index::{direction_class, vertex_point, PathIndex, NONE, TILE};
use super::visibility::{scan, Cone, ScanScratch};

use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// At most this many [`Seen`] records are kept (about 48 MB); a world that needs more keeps
/// none and connects start and goal by scans.
const MAX_SEEN: usize = 2_000_000;

/// How a corner sees a rectangle: through the cone between the rays from the corner through
/// two grid vertices (both the corner's own vertex: the whole rectangle, a root of its scan).
/// Visibility is symmetric, so a point of the rectangle inside the cone sees the corner.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Seen {
    pub corner: u32,
    pub right: [i32; 2],
    pub left: [i32; 2],
}

impl Seen {
    /// The cone as the scans keep it.
    #[inline]
    pub fn cone(&self) -> Cone {
        Cone {
            right: vertex_point(self.right[0], self.right[1]),
            left: vertex_point(self.left[0], self.left[1]),
        }
    }
}

/// The rectangles' [`Seen`] records, as (`start`, `records`) with rectangle r's at
/// `records[start[r]..start[r + 1]]`; both empty when there would be too many.
pub(crate) type SeenBy = (Vec<u32>, Vec<Seen>);

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
        vertex_point(self.gx, self.gz)
    }
}

/// A thread's results for a run of corners from `.0`: per corner its edge count, the edges,
/// and the (rectangle, record) pairs of what the corners see.
type Chunk = (usize, Vec<u32>, Vec<Edge>, Vec<(u32, Seen)>);

/// Corners per unit of work handed to a thread.
const CHUNK: usize = 256;

/// The edges of every corner: (`edge_start`, `edges`), as in [`PathIndex`], and what each
/// rectangle is seen by. Built on rayon's current pool.
pub(crate) fn build(index: &PathIndex) -> (Vec<u32>, Vec<Edge>, SeenBy) {
    let count = index.corners.len();
    let seen_total = AtomicUsize::new(0);
    let too_many = AtomicBool::new(false);
    // Chunks come back in corner order; each worker keeps one scan scratch across its chunks.
    let mut chunks: Vec<Chunk> = (0..count.div_ceil(CHUNK))
        .into_par_iter()
        .map_init(
            || (ScanScratch::default(), vec![u32::MAX; count]),
            |(stack, stamp), chunk| {
                let first = chunk * CHUNK;
                let last = (first + CHUNK).min(count);
                let mut lengths = Vec::with_capacity(last - first);
                let mut edges = Vec::new();
                let mut seen = Vec::new();
                let keep = !too_many.load(Ordering::Relaxed);
                for c in first..last {
                    let before = edges.len();
                    let seen_out = if keep { Some(&mut seen) } else { None };
                    neighbours(index, c as u32, stack, stamp, &mut edges, seen_out);
                    lengths.push((edges.len() - before) as u32);
                }
                if seen_total.fetch_add(seen.len(), Ordering::Relaxed) + seen.len() > MAX_SEEN {
                    too_many.store(true, Ordering::Relaxed);
                    seen = Vec::new();
                }
                (first, lengths, edges, seen)
            },
        )
        .collect();
    let total: usize = chunks.iter().map(|c| c.2.len()).sum();
    let mut edge_start = Vec::with_capacity(count + 1);
    let mut edges = Vec::with_capacity(total);
    let too_many = too_many.load(Ordering::Relaxed);
    if too_many {
        for chunk in &mut chunks {
            chunk.3 = Vec::new();
        }
    }
    let mut per_rect = vec![0u32; if too_many { 0 } else { index.rects.len() + 1 }];
    for (_, _, _, seen) in &chunks {
        for (rect, _) in seen {
            per_rect[*rect as usize + 1] += 1;
        }
    }
    for r in 1..per_rect.len() {
        per_rect[r] += per_rect[r - 1];
    }
    let mut fill = per_rect.clone();
    let mut records = vec![
        Seen {
            corner: 0,
            right: [0; 2],
            left: [0; 2],
        };
        per_rect.last().map_or(0, |&n| n as usize)
    ];
    for (_, lengths, chunk_edges, seen) in chunks {
        let mut offset = edges.len();
        for n in lengths {
            edge_start.push(offset as u32);
            offset += n as usize;
        }
        edges.extend(chunk_edges);
        for (rect, record) in seen {
            let slot = &mut fill[rect as usize];
            records[*slot as usize] = record;
            *slot += 1;
        }
    }
    edge_start.push(edges.len() as u32);
    (edge_start, edges, (per_rect, records))
}

/// Appends the kept edges of corner `c`, and (when asked) how it sees each rectangle.
fn neighbours(
    index: &PathIndex,
    c: u32,
    stack: &mut ScanScratch,
    stamp: &mut [u32],
    out: &mut Vec<Edge>,
    mut seen: Option<&mut Vec<(u32, Seen)>>,
) {
    let corner = &index.corners[c as usize];
    let p = corner.point();
    let roots: Vec<u32> = index.corner_roots[c as usize]
        .iter()
        .copied()
        .filter(|&r| r != NONE)
        .collect();
    let vertex = |q: [f64; 2]| [(q[0] / TILE) as i32, (q[1] / TILE) as i32];
    scan(index, p, &roots, stack, |rect, cone| {
        if let Some(seen) = seen.as_deref_mut() {
            let (right, left) = cone
                .map_or(([corner.gx, corner.gz], [corner.gx, corner.gz]), |k| {
                    (vertex(k.right), vertex(k.left))
                });
            seen.push((
                rect,
                Seen {
                    corner: c,
                    right,
                    left,
                },
            ));
        }
        for other in index.corners_of(rect) {
            let d = other.id;
            if d == c || stamp[d as usize] == c {
                continue;
            }
            let q = other.point();
            let Some(class) = direction_class(p, q) else {
                continue;
            };
            if corner.taut_mask & (1 << class) == 0
                || other.taut_mask & (1 << ((class + 4) % 8)) == 0
                || cone.is_some_and(|k| !k.holds(p, q))
            {
                continue;
            }
            stamp[d as usize] = c;
            out.push(Edge {
                to: d,
                gx: other.gx,
                gz: other.gz,
            });
        }
        false
    });
}
