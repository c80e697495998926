//! The sparse visibility graph: between corners that see each other, the edges a taut path
//! can use at both ends.
//!
//! A shortest path turns only at corners and wraps around each one; a segment leaving a
//! corner into the half of the plane behind its obstacle can never be part of such a path, so
//! only edges whose direction is in both corners' taut sets are kept. Built once per world on
//! rayon's current pool.
//!
//! # How it is built
//! Visibility is symmetric, and so is the edge rule, so each edge is found once, from the end
//! it leaves upwards (direction classes 0 to 3: from +x, counter-clockwise, up to but not
//! including −x) and stored at both ends. Each corner scans only those of its taut directions
//! ([`scan_within`]): for a corner with one blocked quadrant, one quadrant and one ray instead
//! of the three open quadrants, a third of the rectangles. The "seen by" records need every
//! taut direction; for worlds small enough to keep them, a second scan covers the taut
//! directions below (classes 4 to 7). A scan cuts a rectangle's directions into pieces at
//! every portal end in front of it; a corner's pieces of one rectangle that touch are joined
//! into one record ([`merge_cones`]). In open ground that is what lets the records fit under
//! their limit ([`MAX_SEEN`]). Each corner's edges are sorted by their
//! direction (and the corner they lead to, where two share one), so the graph does not depend
//! on the order the scans ran in: built on one thread or on many, it is the same; and a bend
//! at the corner takes only the run of them beyond its obstacle
//! ([`TerrainIndex::turning_edges`]). Measurements: `docs/design/paths.md`.

use super::index::{direction_class, vertex_point, Corner, TerrainIndex, NONE, TILE};
use super::visibility::{scan_within, Cone, ScanScratch};
use crate::geometry::orient;

use bytemuck::{Pod, Zeroable};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// At most this many [`Seen`] records are kept (about 48 MB); a world that needs more keeps
/// none and connects start and goal by scans.
const MAX_SEEN: usize = 2_000_000;

/// How a corner sees a rectangle: through the cone between the rays from the corner through
/// two grid vertices (both the corner's own vertex: the whole rectangle, a root of its scan).
/// Visibility is symmetric, so a point of the rectangle inside the cone sees the corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
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

/// Records per block of [`SeenBlocks`].
pub(crate) const SEEN_BLOCK: usize = 16;

/// What each block of [`SEEN_BLOCK`] records in a row (the last one shorter) holds, so that a
/// search finds its way in the records touching few of them. Made with the index and when an
/// index file is read (a pass over the records), not stored.
#[derive(Debug, Clone, Default)]
pub(crate) struct SeenBlocks {
    /// The box of the block's corners' grid vertices, `[gx0, gz0, gx1, gz1]`, so that a
    /// search may skip a block whose corners all lie far from where it looks. The corners
    /// are numbered region by region and in Z-order within a region, and a rectangle's
    /// records by corner, so a block's corners lie close together.
    pub boxes: Vec<[i32; 4]>,
    /// The corner of the block's first record: a bisection over them finds a corner's
    /// records of a rectangle in a few cache lines, where one over the records touched a
    /// line per step ([`super::index::TerrainIndex::seen_of`]).
    pub firsts: Vec<u32>,
}

impl SeenBlocks {
    pub fn new(corners: &[Corner], seen: &[Seen]) -> SeenBlocks {
        let boxes = seen
            .chunks(SEEN_BLOCK)
            .map(|block| {
                block.iter().fold(
                    [i32::MAX, i32::MAX, i32::MIN, i32::MIN],
                    |[x0, z0, x1, z1], record| {
                        let c = &corners[record.corner as usize];
                        [x0.min(c.gx), z0.min(c.gz), x1.max(c.gx), z1.max(c.gz)]
                    },
                )
            })
            .collect();
        let firsts = seen.iter().step_by(SEEN_BLOCK).map(|k| k.corner).collect();
        SeenBlocks { boxes, firsts }
    }

    pub fn heap_bytes(&self) -> usize {
        self.boxes.capacity() * std::mem::size_of::<[i32; 4]>()
            + self.firsts.capacity() * std::mem::size_of::<u32>()
    }
}

/// The rectangles' [`Seen`] records, as (`start`, `records`) with rectangle r's at
/// `records[start[r]..start[r + 1]]`; both empty when there would be too many.
pub(crate) type SeenBy = (Vec<u32>, Vec<Seen>);

/// An edge to another corner, with the corner's vertex (so that a search relaxing the edge
/// reads nothing else; the length is recomputed, exactly as from the points). The vertex fits
/// 16 bits: global tile coordinates are below 256 · 96 and 128 · 96.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub(crate) struct Edge {
    pub to: u32,
    pub gx: u16,
    pub gz: u16,
}

impl Edge {
    #[inline]
    pub fn point(&self) -> [f64; 2] {
        vertex_point(i32::from(self.gx), i32::from(self.gz))
    }
}

/// Direction classes 0 to 3 (bit k for class k): from +x counter-clockwise, −x excluded. Of
/// two opposite directions, exactly one is in this half.
const UPWARDS: u8 = 0b0000_1111;

/// Corners per unit of work handed to a thread.
const CHUNK: usize = 256;

/// A thread's results for a run of corners: the (corner, corner) pairs of the edges it found
/// and the (rectangle, record) pairs of what the corners see.
type Chunk = (Vec<[u32; 2]>, Vec<(u32, Seen)>);

/// The edges of every corner: (`edge_start`, `edges`), as in [`TerrainIndex`], and what each
/// rectangle is seen by. Built on rayon's current pool; `progress(done, total)` is called as
/// corners are done (from the pool's threads, counts possibly out of order). Of the pairs of
/// corners in sight of each other in taut directions, only those `keep` accepts become edges
/// (see [`super::index::edge_keeps_side`]).
pub(crate) fn build(
    index: &TerrainIndex,
    keep: &(dyn Fn(&Corner, &Corner) -> bool + Sync),
    progress: &(dyn Fn(usize, usize) + Sync),
) -> (Vec<u32>, Vec<Edge>, SeenBy) {
    let count = index.corners.len();
    let seen_total = AtomicUsize::new(0);
    let too_many = AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    let chunks = run_chunks(index, |scratch, c, pairs, seen| {
        let keep = !too_many.load(Ordering::Relaxed);
        let mut kept = if keep { Some(Vec::new()) } else { None };
        scan_half(index, c, UPWARDS, scratch, Some(pairs), kept.as_mut(), true);
        if let Some(kept) = kept {
            keep_seen(
                &seen_total,
                &too_many,
                seen,
                merge_cones(&index.corners, kept),
            );
        }
        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
        if finished % CHUNK == 0 || finished == count {
            progress(finished, count);
        }
    });
    // The taut directions below, for the records only, while they still fit.
    let below = if too_many.load(Ordering::Relaxed) {
        Vec::new()
    } else {
        run_chunks(index, |scratch, c, _, seen| {
            if too_many.load(Ordering::Relaxed) {
                return;
            }
            let mut kept = Vec::new();
            scan_half(index, c, !UPWARDS, scratch, None, Some(&mut kept), false);
            keep_seen(
                &seen_total,
                &too_many,
                seen,
                merge_cones(&index.corners, kept),
            );
        })
    };
    let too_many = too_many.load(Ordering::Relaxed);

    let mut chunks = chunks;
    chunks.par_iter_mut().for_each(|(pairs, _)| {
        pairs.retain(|&[c, d]| keep(&index.corners[c as usize], &index.corners[d as usize]));
    });
    let (edge_start, edges) =
        edges_from_pairs(&index.corners, chunks.iter().map(|c| c.0.as_slice()));
    let seen = if too_many {
        (Vec::new(), Vec::new())
    } else {
        seen_by_rect(
            &index.corners,
            index.rects.len(),
            chunks.into_iter().chain(below).flat_map(|c| c.1),
        )
    };
    (edge_start, edges, seen)
}

/// Runs `work(scratch, corner, pairs, seen)` for every corner, in chunks on rayon's current
/// pool, each worker with a scan scratch of its own; the chunks' results in corner order.
fn run_chunks(
    index: &TerrainIndex,
    work: impl Fn(&mut Scratch, u32, &mut Vec<[u32; 2]>, &mut Vec<(u32, Seen)>) + Sync,
) -> Vec<Chunk> {
    let count = index.corners.len();
    (0..count.div_ceil(CHUNK))
        .into_par_iter()
        .map_init(
            || Scratch {
                scan: ScanScratch::default(),
                stamp: vec![NONE; count],
            },
            |scratch, chunk| {
                let (mut pairs, mut seen) = (Vec::new(), Vec::new());
                for c in chunk * CHUNK..((chunk + 1) * CHUNK).min(count) {
                    work(scratch, c as u32, &mut pairs, &mut seen);
                }
                pairs.shrink_to_fit();
                (pairs, seen)
            },
        )
        .collect()
}

/// Adds a corner's records to its chunk's, unless the world has too many to keep.
fn keep_seen(
    total: &AtomicUsize,
    too_many: &AtomicBool,
    chunk: &mut Vec<(u32, Seen)>,
    kept: Vec<(u32, Seen)>,
) {
    if total.fetch_add(kept.len(), Ordering::Relaxed) + kept.len() > MAX_SEEN {
        too_many.store(true, Ordering::Relaxed);
    } else {
        chunk.extend(kept);
    }
}

/// A worker's memory: its scans' scratch, and per corner the last corner that found it.
struct Scratch {
    scan: ScanScratch,
    stamp: Vec<u32>,
}

/// The limits of a scan from `p` over the direction classes in `classes`: a quadrant cone for
/// each open quadrant (an odd class), a ray for each axis direction (an even class) not
/// already on the edge of one.
fn limits(p: [f64; 2], classes: u8) -> Vec<Cone> {
    const AXES: [[f64; 2]; 4] = [[TILE, 0.0], [0.0, TILE], [-TILE, 0.0], [0.0, -TILE]];
    let axis = |k: u8| {
        let d = AXES[usize::from(k / 2 % 4)];
        [p[0] + d[0], p[1] + d[1]]
    };
    let has = |k: u8| classes & (1 << (k % 8)) != 0;
    let mut out = Vec::with_capacity(4);
    for k in 0..8u8 {
        if k % 2 == 1 && has(k) {
            out.push(Cone {
                right: axis(k - 1),
                left: axis(k + 1),
            });
        } else if k % 2 == 0 && has(k) && !has(k + 1) && !has(k + 7) {
            out.push(Cone {
                right: axis(k),
                left: axis(k),
            });
        }
    }
    out
}

/// Scans from corner `c` in its taut directions within `half` (bit k: direction class k):
/// appends to `pairs` (when given) the corners it has an edge to in those directions, and to
/// `seen` (when given) how it sees each rectangle, the roots (seen whole) only with
/// `with_roots`.
fn scan_half(
    index: &TerrainIndex,
    c: u32,
    half: u8,
    scratch: &mut Scratch,
    mut pairs: Option<&mut Vec<[u32; 2]>>,
    mut seen: Option<&mut Vec<(u32, Seen)>>,
    with_roots: bool,
) {
    let corner = &index.corners[c as usize];
    let classes = corner.taut_mask & half;
    let roots: Vec<u32> = index.corner_roots[c as usize]
        .iter()
        .copied()
        .filter(|&r| r != NONE)
        .collect();
    if classes == 0 {
        if let (Some(seen), true) = (seen, with_roots) {
            let whole = [corner.gx, corner.gz];
            seen.extend(roots.iter().map(|&rect| {
                let record = Seen {
                    corner: c,
                    right: whole,
                    left: whole,
                };
                (rect, record)
            }));
        }
        return;
    }
    let p = corner.point();
    let limits = limits(p, classes);
    let vertex = |q: [f64; 2]| [(q[0] / TILE) as i32, (q[1] / TILE) as i32];
    let Scratch { scan, stamp } = scratch;
    scan_within(index, p, &roots, Some(&limits), scan, |rect, cone| {
        if let Some(seen) = seen.as_deref_mut() {
            if cone.is_some() || with_roots {
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
        }
        let Some(pairs) = pairs.as_deref_mut() else {
            return false;
        };
        for other in index.corners_of(rect) {
            let d = other.id;
            if d == c || stamp[d as usize] == c {
                continue;
            }
            let q = other.point();
            let Some(class) = direction_class(p, q) else {
                continue;
            };
            if classes & (1 << class) == 0
                || other.taut_mask & (1 << ((class + 4) % 8)) == 0
                || cone.is_some_and(|k| !k.holds(p, q))
            {
                continue;
            }
            stamp[d as usize] = c;
            pairs.push([c, d]);
        }
        false
    });
}

/// The adjacency lists of the undirected edges `pairs`: each edge at both ends, each list
/// sorted by direction ([`direction_order`]), then by the corner it leads to.
fn edges_from_pairs<'a>(
    corners: &[Corner],
    pairs: impl Iterator<Item = &'a [[u32; 2]]> + Clone,
) -> (Vec<u32>, Vec<Edge>) {
    let count = corners.len();
    let mut start = vec![0u32; count + 1];
    for &[c, d] in pairs.clone().flatten() {
        start[c as usize + 1] += 1;
        start[d as usize + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let total = start[count] as usize;
    let mut fill: Vec<u32> = start[..count].to_vec();
    let mut edges = vec![
        Edge {
            to: 0,
            gx: 0,
            gz: 0
        };
        total
    ];
    for &[c, d] in pairs.flatten() {
        edges[fill[c as usize] as usize].to = d;
        fill[c as usize] += 1;
        edges[fill[d as usize] as usize].to = c;
        fill[d as usize] += 1;
    }
    drop(fill);
    // Each corner's list, sorted, its points filled in; in parallel, list by list.
    let mut lists = Vec::with_capacity(count);
    let mut rest = edges.as_mut_slice();
    for c in 0..count {
        let (list, tail) = rest.split_at_mut((start[c + 1] - start[c]) as usize);
        lists.push(list);
        rest = tail;
    }
    lists.into_par_iter().enumerate().for_each(|(c, list)| {
        for e in list.iter_mut() {
            let to = &corners[e.to as usize];
            // Corners lie in the terrain id space (0 ≤ gx < 256 · 96, 0 ≤ gz < 128 · 96).
            (e.gx, e.gz) = (to.gx as u16, to.gz as u16);
        }
        let from = &corners[c];
        list.sort_unstable_by(|a, b| {
            direction_order(direction(from, a), direction(from, b)).then(a.to.cmp(&b.to))
        });
    });
    (start, edges)
}

/// The direction from corner `from` along edge `e`, in tiles.
#[inline]
pub(crate) fn direction(from: &Corner, e: &Edge) -> [i64; 2] {
    [
        i64::from(e.gx) - i64::from(from.gx),
        i64::from(e.gz) - i64::from(from.gz),
    ]
}

/// The order of a corner's edges: by the angle of their directions, counter-clockwise from
/// +x (0 up to 2π), exactly: first the half they lie in, then the sign of a cross product of
/// integers. Directions at the same angle are equal.
pub(crate) fn direction_order(a: [i64; 2], b: [i64; 2]) -> std::cmp::Ordering {
    // The half from +x up to −x (excluded), then the other.
    let lower = |[dx, dz]: [i64; 2]| dz < 0 || (dz == 0 && dx < 0);
    lower(a)
        .cmp(&lower(b))
        .then_with(|| 0.cmp(&(a[0] * b[1] - a[1] * b[0])))
}

/// The axes' directions, +x, +z, −x, −z (direction classes 0, 2, 4, 6).
pub(crate) const AXES: [[i64; 2]; 4] = [[1, 0], [0, 1], [-1, 0], [0, -1]];

/// The records grouped by rectangle (as [`SeenBy`]), each rectangle's by corner.
fn seen_by_rect(
    corners: &[Corner],
    rects: usize,
    records: impl Iterator<Item = (u32, Seen)>,
) -> SeenBy {
    let mut records: Vec<(u32, Seen)> = records.collect();
    // Stable: one corner's records keep the order its scans made them in.
    records.sort_by_key(|(rect, seen)| (*rect, seen.corner));
    let records = merge_cones(corners, records);
    let mut start = vec![0u32; rects + 1];
    for (rect, _) in &records {
        start[*rect as usize + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    (start, records.into_iter().map(|(_, s)| s).collect())
}

/// One corner's records of a rectangle that tell the same as `records` (grouped by rectangle
/// and corner), with fewer of them: a record seeing the rectangle whole stands for all of
/// that corner's records of it, and cones that touch or overlap are joined into one.
///
/// A corner sees a rectangle it reaches through portals within less than 180° (from outside
/// its closure, or from its boundary), so its cones of one rectangle are ordered by their
/// right rays, and two closed cones of which the second's right ray is not past the first's
/// left ray (by one exact orientation test on grid points) hold together exactly the points
/// of the cone from the first's right ray to the farther left ray. Scans cut a rectangle's
/// directions into such pieces at every portal end in front of it, which in open ground is
/// most of them.
fn merge_cones(corners: &[Corner], mut records: Vec<(u32, Seen)>) -> Vec<(u32, Seen)> {
    // Stable: the order within a group is the scans'.
    records.sort_by_key(|(rect, seen)| (*rect, seen.corner));
    let mut out = Vec::with_capacity(records.len());
    let mut i = 0;
    while i < records.len() {
        let (rect, first) = records[i];
        let mut j = i + 1;
        while j < records.len() && records[j].0 == rect && records[j].1.corner == first.corner {
            j += 1;
        }
        let group = &mut records[i..j];
        i = j;
        let corner = &corners[first.corner as usize];
        let apex = [corner.gx, corner.gz];
        if let Some(&whole) = group
            .iter()
            .find(|(_, k)| k.right == apex && k.left == apex)
        {
            out.push(whole);
            continue;
        }
        let v = corner.point();
        let o = |q: [i32; 2]| vertex_point(q[0], q[1]);
        // Clockwise first: `a` before `b` when b's right ray is counter-clockwise of a's.
        group.sort_by(|(_, a), (_, b)| {
            let turn = orient(v, o(a.right), o(b.right));
            if turn > 0.0 {
                std::cmp::Ordering::Less
            } else if turn < 0.0 {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
        let mut current = group[0].1;
        for &(_, next) in &group[1..] {
            if orient(v, o(current.left), o(next.right)) <= 0.0 {
                // Touching or overlapping: the union reaches the farther left ray.
                if orient(v, o(current.left), o(next.left)) > 0.0 {
                    current.left = next.left;
                }
            } else {
                out.push((rect, current));
                current = next;
            }
        }
        out.push((rect, current));
    }
    out
}
