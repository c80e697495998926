//! Landmark lower bounds for the search on big indexes: the graph distance from a few corners
//! (the landmarks) to every corner, from which the triangle inequality bounds the distance
//! left to the goal far more tightly than the straight line does where the path winds.
//!
//! For a landmark `L` with graph distances `D(x)` to every corner (Dijkstra over the index's
//! visibility graph, which is undirected), and the corners `b` the goal `t` links to:
//! - `lo = min_b D(b) + |b t|`: no path from `L` reaches `t` through the graph shorter, so
//!   for a corner `x`, `lo − D(x)` is at most the cost of any path `x → … → b → t`
//!   (`lo ≤ D(b) + |b t| ≤ D(x) + dist(x, b) + |b t|`);
//! - `hi = max_b D(b) − |b t|`: for every link `b`, `D(b) ≤ hi + |b t|`, so `D(x) − hi` is
//!   at most that cost too (`D(x) ≤ D(b) + dist(b, x)`).
//!
//! The search's remaining cost from `x` is always such a path (its edges are graph edges and
//! its last leg goes to a link), so `max(|x t|, lo − D(x), D(x) − hi)` over the landmarks is
//! admissible; each term changes by at most an edge's length along an edge, so it is
//! consistent too, and A* keeps its guarantee: a corner's cost is final when it is expanded.
//! A set of links that holds more corners than the search links (any corner in sight of the
//! goal) only lowers the bounds. A corner no path from `L` reaches has an infinite distance;
//! a term with an infinity in it is left out (ends in different parts of the world are
//! refused before any search).
//!
//! An index file's distances are checked for range (no NaN, none negative), not for truth:
//! lying ones give other answers and, through a heuristic that is not consistent, could make
//! A* expand corners again and again. So a search that expands more than a few times the
//! corners gives them up and runs again without them ([`super::search`]); true landmarks never
//! come near that.
//!
//! The distances are stored as `f32` (a row of [`LANDMARKS`] per corner, one cache line), and
//! each bound is lowered by [`SLACK`] times the magnitudes it is made of, more than the
//! rounding of the values to `f32` can move it, so that rounding never makes a bound exceed
//! the true cost. The landmarks are the corners of the graph's largest connected part
//! farthest from its centre, one per sector of 360°/[`LANDMARKS`] around it: corners at the
//! rim, behind most pairs of ends in some direction. They are built only for indexes without
//! a corner table ([`super::table`]), whose queries need no search.

use super::index::TerrainIndex;
use super::table::dijkstra;
use rayon::prelude::*;
use std::collections::BinaryHeap;

/// Landmarks per index, and `f32` distances per corner row.
pub(crate) const LANDMARKS: usize = 16;

/// One corner's distances from the landmarks (infinite where none joins them).
pub(crate) type Row = [f32; LANDMARKS];

/// How much each bound is lowered, as a fraction of the sum of the magnitudes it is made of:
/// 2⁻²¹, well over the 2⁻²⁴ relative error of rounding each `f64` distance to `f32`.
const SLACK: f64 = 1.0 / (1u64 << 21) as f64;

/// The landmark rows of `index`, one per corner, or none when the index has no edge.
pub(crate) fn build(index: &TerrainIndex) -> Vec<Row> {
    let landmarks = choose(index);
    if landmarks.is_empty() {
        return Vec::new();
    }
    // One search per distinct landmark (a small world repeats some).
    let mut distinct = landmarks.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let columns: Vec<Vec<f64>> = distinct
        .par_iter()
        .map_init(BinaryHeap::new, |heap, &l| {
            let mut column = vec![f64::INFINITY; index.corners.len()];
            dijkstra(index, l, &mut column, heap, |_, _| {});
            column
        })
        .collect();
    let mut rows = vec![[f32::INFINITY; LANDMARKS]; index.corners.len()];
    for (k, landmark) in landmarks.iter().enumerate() {
        let column = &columns[distinct
            .binary_search(landmark)
            .expect("a landmark's column")];
        for (row, &d) in rows.iter_mut().zip(column) {
            row[k] = d as f32;
        }
    }
    rows
}

/// The landmarks: in the largest connected part of the graph, per sector around its centre,
/// the corner farthest from it; fewer when sectors are empty (repeats fill the rest, so every
/// row has [`LANDMARKS`] columns).
fn choose(index: &TerrainIndex) -> Vec<u32> {
    let n = index.corners.len();
    if index.edges.is_empty() || n == 0 {
        return Vec::new();
    }
    let part = parts(index);
    let mut sizes = vec![0usize; n];
    for &p in &part {
        sizes[p as usize] += 1;
    }
    let largest = (0..n).max_by_key(|&p| sizes[p]).unwrap_or(0) as u32;
    let members: Vec<u32> = (0..n as u32)
        .filter(|&c| part[c as usize] == largest)
        .collect();
    let points: Vec<[f64; 2]> = members
        .iter()
        .map(|&c| index.corners[c as usize].point())
        .collect();
    let count = points.len() as f64;
    let centre = points.iter().fold([0.0, 0.0], |s, p| {
        [s[0] + p[0] / count, s[1] + p[1] / count]
    });
    let mut best: [Option<(f64, u32)>; LANDMARKS] = [None; LANDMARKS];
    for (&c, &p) in members.iter().zip(&points) {
        let (dx, dz) = (p[0] - centre[0], p[1] - centre[1]);
        let turn = (dz.atan2(dx) / std::f64::consts::TAU).rem_euclid(1.0);
        let sector = ((turn * LANDMARKS as f64) as usize).min(LANDMARKS - 1);
        let reach = dx * dx + dz * dz;
        if best[sector].map_or(true, |(r, _)| reach > r) {
            best[sector] = Some((reach, c));
        }
    }
    let mut chosen: Vec<u32> = best.iter().flatten().map(|&(_, c)| c).collect();
    for k in 0..LANDMARKS - chosen.len() {
        chosen.push(chosen[k]);
    }
    chosen
}

/// Each corner's connected part of the graph, named by its lowest corner.
fn parts(index: &TerrainIndex) -> Vec<u32> {
    let n = index.corners.len();
    let mut part = vec![u32::MAX; n];
    let mut stack = Vec::new();
    for root in 0..n as u32 {
        if part[root as usize] != u32::MAX {
            continue;
        }
        part[root as usize] = root;
        stack.push(root);
        while let Some(c) = stack.pop() {
            for e in index.edges_of(c) {
                if part[e.to as usize] == u32::MAX {
                    part[e.to as usize] = root;
                    stack.push(e.to);
                }
            }
        }
    }
    part
}

/// The bounds of one search towards one goal ([module docs](self)).
#[derive(Debug, Clone)]
pub(crate) struct GoalBounds {
    /// Per landmark, `min_b D(b) + |b t|` and `max_b D(b) − |b t|` over the goal's links.
    lo: [f64; LANDMARKS],
    hi: [f64; LANDMARKS],
    /// Whether any link was added (no link: no bound but the straight line).
    any: bool,
}

impl GoalBounds {
    pub fn new() -> GoalBounds {
        GoalBounds {
            lo: [f64::INFINITY; LANDMARKS],
            hi: [f64::NEG_INFINITY; LANDMARKS],
            any: false,
        }
    }

    /// Adds corner `b` at `distance` from the goal as a link of the goal.
    #[inline]
    pub fn link(&mut self, row: &Row, distance: f64) {
        self.any = true;
        for ((lo, hi), &d) in self.lo.iter_mut().zip(&mut self.hi).zip(row) {
            let d = f64::from(d);
            *lo = lo.min(d + distance);
            // An unreachable link makes `hi` infinite: that term is then left out.
            *hi = hi.max(d - distance);
        }
    }

    /// A lower bound on the cost from the corner with landmark row `row` to the goal, not
    /// counting the straight line (the caller takes the larger); `0` when nothing is known.
    /// Always finite: a term with an infinity in it is NaN, which `max` passes over.
    #[inline]
    pub fn bound(&self, row: &Row) -> f64 {
        if !self.any {
            return 0.0;
        }
        let mut best = 0.0f64;
        for ((&lo, &hi), &d) in self.lo.iter().zip(&self.hi).zip(row) {
            let d = f64::from(d);
            // NaN (two infinities) never wins `max`.
            best = best
                .max(lo - d - SLACK * (lo.abs() + d))
                .max(d - hi - SLACK * (hi.abs() + d));
        }
        best
    }
}
