//! A* over the sparse visibility graph, with the start and goal joined to the corners they see.
//!
//! The start's and goal's links come from the "seen by" records of their rectangles, or where
//! none were kept from a visibility scan of each ([`super::visibility`]); when the goal is in
//! sight of the start the answer is the straight segment. With records, only the end with
//! fewer of them is linked, and where it sees many corners, at first only to those near the
//! segment to the other end, then ring by ring ([`Near`], [`RINGS`]: on open ground the start
//! sees hundreds of corners and the search expands a few), each ring once the search has
//! nothing left below the bound of the rings before; a block of records whose corners all
//! lie far from a ring is skipped whole ([`graph::SeenBlocks`]). Whether the other end is in
//! sight is asked of its records for the corners the search expands, a bisection each over
//! the first corners of their blocks and then in one block ([`TerrainIndex::seen_of`]). A corner is
//! expanded only along edges that keep the path taut around it (the obstacle inside the bend),
//! which every shortest path is: a bend that is not taut can be cut short near the corner; and
//! not at all when it sees the goal (tautly): no way on from it is shorter than the straight
//! line to the goal, which is pushed instead. The
//! heuristic is the straight-line distance to the goal, or on indexes with landmarks the
//! larger of it and the landmark bounds ([`super::landmarks`]); both are consistent, so a
//! corner's cost is final when it is expanded. With records, the bounds are taken only after
//! [`BOUNDS_AFTER`] expansions (they need the goal's links); the corners estimated before
//! keep their straight-line estimate, which is still admissible, and a corner reached again
//! at a lower cost is pushed and expanded again, so the answer stays the shortest.

use super::graph;
use super::index::{direction_class, vertex_point, Corner, TerrainIndex, NONE, TILE};
use super::landmarks::{GoalBounds, Row};
use super::table::{CornerTable, RecordCells};
use super::visibility::{sees, sees_point, Cone, ScanScratch, Target};
use super::PathError;
use crate::world::raycast::{cell_coordinate, Grid};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// The parent of a corner reached straight from the start.
const FROM_START: u32 = u32::MAX - 1;

/// A corner's search state: one record, so that relaxing an edge touches one cache line.
#[derive(Debug, Clone, Copy, Default)]
struct Node {
    /// The search that last reached the corner (the other fields are stale otherwise).
    seen: u32,
    parent: u32,
    g: f64,
    /// The heuristic's value at the corner, worked out when the search first reaches it.
    h: f64,
}

/// Reusable working memory of searches.
#[derive(Debug, Default)]
pub(crate) struct Search {
    generation: u32,
    nodes: Vec<Node>,
    goal_seen: Vec<u32>,
    start_seen: Vec<u32>,
    heap: BinaryHeap<Entry>,
    stack: ScanScratch,
    /// The corners the start and the goal link to ([`Search::by_table`]).
    start_links: Vec<Link>,
    goal_links: Vec<Link>,
    /// The corners linked to the start, pushed once the heuristic is known.
    linked: Vec<u32>,
    /// Searches that ran again without landmarks ([`Search::run_from`]).
    pub relapses: usize,
    /// Expansions after which a search gives its landmarks up, in place of the default
    /// (a multiple of the corners): for tests of the relapse.
    pub relapse_after: Option<usize>,
    pub corners: Vec<u32>,
}

/// A heap entry of corner `node` at estimate `f` and cost `g` (also the corner table's
/// Dijkstra searches', with `f = g`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    pub f: f64,
    pub g: f64,
    pub node: u32,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Entry) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    /// Smallest f first (a max-heap of reversed order); ties to the larger g (deeper).
    fn cmp(&self, other: &Entry) -> Ordering {
        other.f.total_cmp(&self.f).then(self.g.total_cmp(&other.g))
    }
}

/// Where the search starts or ends: the point and the rectangles of the free space it uses.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    pub point: [f64; 2],
    pub roots: [u32; 4],
    pub count: usize,
    /// The tile the point belongs to, and whether the point lies on its west side (a grid
    /// line x = const) and on its south side (z = const): a corner on such a line is linked
    /// only when a path keeps to a side of the thin walls along it ([`refuses`]).
    tile: [i64; 2],
    on: [bool; 2],
}

impl Endpoint {
    pub fn roots(&self) -> &[u32] {
        &self.roots[..self.count]
    }
}

/// Whether a leg from a corner at `p` (with taut directions `mask`) towards `q` can be part of
/// a taut path through that corner.
#[inline]
pub(super) fn taut_towards(mask: u8, p: [f64; 2], q: [f64; 2]) -> bool {
    direction_class(p, q).is_some_and(|k| mask & (1 << k) != 0)
}

/// The bends from `p` around a corner: whether `p → c → n` is taut at corner `c` (it turns,
/// and the obstacle at `c` lies inside the bend: between the two segments, on the side of the
/// smaller angle), with what depends on `p` alone worked out once for all `n`.
pub(super) struct Bend {
    c: [f64; 2],
    p: [f64; 2],
    arc: [u8; 2],
    /// Whether the arc's axis directions lie counter-clockwise from `c → p` (within 180°),
    /// as a left turn needs, and clockwise from it, as a right turn needs.
    pub left: bool,
    pub right: bool,
}

impl Bend {
    #[inline]
    pub fn new(p: [f64; 2], corner: &Corner) -> Bend {
        let c = corner.point();
        Bend {
            c,
            p,
            arc: corner.arc,
            left: all_of(corner.arc, |e| cross(c, p, e) >= 0.0),
            right: all_of(corner.arc, |e| cross(c, p, e) <= 0.0),
        }
    }

    /// Whether `p → c → n` is taut: turning counter-clockwise from `c → p` to `c → n` (less
    /// than 180°), each axis direction `e` of the arc lies in that sector, cross(p − c, e) ≥ 0
    /// and cross(e, n − c) ≥ 0; turning clockwise, the same with `p` and `n` exchanged. Each
    /// cross product is the sign of one coordinate difference (exact).
    #[inline(always)]
    pub fn taut(&self, n: [f64; 2]) -> bool {
        let o = crate::geometry::orient(self.c, self.p, n);
        if o > 0.0 {
            self.left && all_of(self.arc, |e| cross(self.c, n, e) <= 0.0)
        } else if o < 0.0 {
            self.right && all_of(self.arc, |e| cross(self.c, n, e) >= 0.0)
        } else {
            false
        }
    }
}

/// Whether `f` holds for both axis directions of an obstacle arc (the one of a thin wall's end).
#[inline]
fn all_of(arc: [u8; 2], f: impl Fn(u8) -> bool) -> bool {
    f(arc[0]) && (arc[0] == arc[1] || f(arc[1]))
}

/// The sign of cross(v − c, e) for the unit axis vector of direction class `e` (+x, +z, −x,
/// −z for 0, 2, 4, 6).
#[inline]
fn cross(c: [f64; 2], v: [f64; 2], e: u8) -> f64 {
    let (vx, vz) = (v[0] - c[0], v[1] - c[1]);
    match e {
        0 => -sign(vz),
        2 => sign(vx),
        4 => sign(vz),
        _ => -sign(vx),
    }
}

#[inline]
fn sign(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// Whether corner `c` sees `end`, by the records of `end`'s rectangles (each rectangle's are
/// grouped by corner, ascending), and links to it ([`refuses`] aside).
#[inline]
fn in_sight_of(index: &TerrainIndex, ground: &Grid<'_>, end: &Endpoint, c: u32) -> bool {
    // A link along a thin wall from the side no path keeps is no link.
    if refuses(index, ground, end, c) {
        return false;
    }
    let p = index.corners[c as usize].point();
    end.roots().iter().any(|&rect| {
        index
            .seen_of(rect, c)
            .iter()
            .any(|k| k.cone().holds(p, end.point))
    })
}

/// A corner an end of a path links to ([`Search::by_table`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Link {
    pub corner: u32,
    /// From the end to the corner.
    pub distance: f64,
    /// Whether [`refuses`] is still to be asked (a link along a grid line through the end).
    pub unchecked: bool,
}

/// Appends to `out` each corner `end` may link to by the "seen by" records of its rectangles,
/// once each: the corners whose recorded cones hold the point and whose taut directions
/// include the leg's; [`refuses`] is left to be asked. `marks[c]` is set to `generation` when
/// corner `c` is linked. With `cells`, only the records of the point's cell of each rectangle
/// are tested (the others cannot hold it).
pub(super) fn links(
    index: &TerrainIndex,
    cells: Option<&RecordCells>,
    end: &Endpoint,
    generation: u32,
    marks: &mut [u32],
    out: &mut Vec<Link>,
) {
    links_of(index, cells, end, generation, marks, out, Which::ALL);
}

/// Which of an end's links [`links_of`] makes: the corners at a point `outer`'s box holds
/// (any point without it) and `inner`'s does not (none without it). Rings of growing boxes,
/// the first without `inner`, the last without `outer`, make all the links, each once.
#[derive(Debug, Clone, Copy)]
pub(super) struct Which<'a> {
    pub inner: Option<&'a Near>,
    pub outer: Option<&'a Near>,
}

impl Which<'_> {
    /// Every link.
    pub const ALL: Which<'static> = Which {
        inner: None,
        outer: None,
    };
}

/// [`links`], of the corners `which` names. Without cells, a block of records whose
/// corners' box lies outside `which`'s outer box is skipped whole, and one whose box lies
/// outside its inner box is taken without testing against it.
pub(super) fn links_of(
    index: &TerrainIndex,
    cells: Option<&RecordCells>,
    end: &Endpoint,
    generation: u32,
    marks: &mut [u32],
    out: &mut Vec<Link>,
    which: Which<'_>,
) {
    // A function rather than a closure, so that it can be inlined into the loops over the
    // records (a call per record was a tenth of a search on open ground).
    #[inline(always)]
    fn test(
        end: &Endpoint,
        (generation, marks, out): (u32, &mut [u32], &mut Vec<Link>),
        corner: &Corner,
        seen: &graph::Seen,
        keep: Which<'_>,
    ) {
        let c = seen.corner;
        let mark = &mut marks[c as usize];
        if *mark == generation {
            return;
        }
        let p = corner.point();
        if keep.outer.is_some_and(|outer| !outer.holds(p))
            || keep.inner.is_some_and(|inner| inner.holds(p))
        {
            return;
        }
        let point = end.point;
        let whole = seen.right == seen.left && seen.right == [corner.gx, corner.gz];
        if (whole || seen.cone().holds(p, point)) && taut_towards(corner.taut_mask, p, point) {
            *mark = generation;
            out.push(Link {
                corner: c,
                distance: distance(point, p),
                unchecked: along_line(end, corner),
            });
        }
    }
    for &rect in end.roots() {
        if let Some(cells) = cells {
            for r in cells.records(index, rect, end.tile) {
                test(end, (generation, marks, out), &r.at, &r.seen, which);
            }
            continue;
        }
        let records = index.seen_range(rect);
        let mut first = records.start;
        while first < records.end {
            let block = first / graph::SEEN_BLOCK;
            let last = ((block + 1) * graph::SEEN_BLOCK).min(records.end);
            let meets = |near: &Near| near.meets(&index.seen_blocks.boxes[block]);
            if which.outer.is_none_or(meets) {
                let keep = Which {
                    inner: which.inner.filter(|inner| meets(inner)),
                    outer: which.outer,
                };
                for seen in &index.seen[first..last] {
                    let corner = &index.corners[seen.corner as usize];
                    test(end, (generation, marks, out), corner, seen, keep);
                }
            }
            first = last;
        }
    }
}

/// Euclidean distance (coordinates stay far below the range where squaring overflows).
#[inline]
pub(crate) fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dz) = (b[0] - a[0], b[1] - a[1]);
    (dx * dx + dz * dz).sqrt()
}

impl Search {
    fn prepare(&mut self, corners: usize) {
        if self.nodes.len() < corners {
            self.nodes = vec![Node::default(); corners];
            self.goal_seen = vec![0; corners];
            self.start_seen = vec![0; corners];
            self.generation = 0;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.nodes.fill(Node::default());
            self.goal_seen.fill(0);
            self.start_seen.fill(0);
            self.generation = 1;
        }
        self.heap.clear();
        self.corners.clear();
    }

    /// Finds the shortest path; on success `self.corners` holds the corners it turns at, from
    /// the start, and the length is returned.
    ///
    /// With the "seen by" records, the straight segment is tested first (a scan along it); then
    /// the search starts from the end whose rectangles have fewer records (paths are the same
    /// both ways), links that end to the corners it is in sight of, and asks the records of the
    /// other end's rectangles only about the corners it expands.
    pub fn run(
        &mut self,
        index: &TerrainIndex,
        ground: &Grid<'_>,
        start: &Endpoint,
        goal: &Endpoint,
        budget: usize,
    ) -> Result<f64, PathError> {
        if !index.has_seen_by() {
            return self.run_from(index, ground, start, goal, budget);
        }
        // The straight segment, by a scan along it.
        let target = Target {
            point: goal.point,
            roots: goal.roots(),
        };
        if sees_point(index, start.point, start.roots(), &target, &mut self.stack) {
            self.corners.clear();
            return Ok(distance(start.point, goal.point));
        }
        if let Some(table) = &index.table {
            return self.by_table(index, ground, table, start, goal, budget);
        }
        let records =
            |end: &Endpoint| -> usize { end.roots().iter().map(|&r| index.seen_by(r).len()).sum() };
        if records(goal) < records(start) {
            let length = self.run_from(index, ground, goal, start, budget)?;
            self.corners.reverse();
            Ok(length)
        } else {
            self.run_from(index, ground, start, goal, budget)
        }
    }

    /// [`Search::run`] by the corner table: the least `|s a| + D(a, b) + |b t|` over the
    /// corners `a` the start links to and `b` the goal links to (linked as the search links
    /// them), after the straight segment is ruled out. The corners the path turns at count as
    /// expanded against the budget (a search expands at least those).
    fn by_table(
        &mut self,
        index: &TerrainIndex,
        ground: &Grid<'_>,
        table: &CornerTable,
        start: &Endpoint,
        goal: &Endpoint,
        budget: usize,
    ) -> Result<f64, PathError> {
        self.prepare(index.corners.len());
        let generation = self.generation;
        let Search {
            start_seen,
            goal_seen,
            start_links,
            goal_links,
            corners,
            ..
        } = self;
        start_links.clear();
        goal_links.clear();
        let cells = table.cells.as_ref();
        links(index, cells, start, generation, start_seen, start_links);
        links(index, cells, goal, generation, goal_seen, goal_links);
        let t = goal.point;
        // No path through `a` is shorter than `|s a|` plus the straight line from `a` to the
        // goal: the corner with the lowest such bound goes first, so that the best is found
        // early and the bound rules out most of the others.
        let bound =
            |link: &Link| link.distance + distance(index.corners[link.corner as usize].point(), t);
        if let Some((_, first)) = start_links
            .iter()
            .enumerate()
            .map(|(i, link)| (bound(link), i))
            .min_by(|x, y| x.0.total_cmp(&y.0))
        {
            start_links.swap(0, first);
        }
        // The best pair; a link along a grid line through its end is checked only when it is
        // part of the best pair ([`refuses`] walks the line), and dropped if refused.
        let (length, a, b) = loop {
            let mut best = (f64::INFINITY, usize::MAX, usize::MAX);
            for (i, link) in start_links.iter().enumerate() {
                if bound(link) >= best.0 {
                    continue;
                }
                let row = table.row(link.corner);
                for (j, to) in goal_links.iter().enumerate() {
                    let through = link.distance + row[to.corner as usize] + to.distance;
                    if through < best.0 {
                        best = (through, i, j);
                    }
                }
            }
            let (length, i, j) = best;
            if i == usize::MAX {
                return Err(PathError::Unreachable);
            }
            let refused = |links: &mut Vec<Link>, k: usize, end: &Endpoint| {
                let link = &mut links[k];
                let refused = link.unchecked && refuses(index, ground, end, link.corner);
                link.unchecked = false;
                if refused {
                    links.swap_remove(k);
                }
                refused
            };
            if refused(start_links, i, start) || refused(goal_links, j, goal) {
                continue;
            }
            break (length, start_links[i].corner, goal_links[j].corner);
        };
        table.corners_between(a, b, corners);
        if corners.len() > budget {
            corners.clear();
            return Err(PathError::BudgetExceeded);
        }
        Ok(length)
    }

    /// [`Search::run`] from `start`: with the index's landmarks, or again without them when
    /// the search expands more than [`RELAPSE_PER_CORNER`] times the corners. True landmarks
    /// never make it: their bounds are consistent, and a corner is expanded about once. An
    /// index file's landmarks may lie, though (validation is not trust), and a lying heuristic
    /// can make A* expand corners again and again; without them, the straight line alone
    /// expands each corner at most once.
    fn run_from(
        &mut self,
        index: &TerrainIndex,
        ground: &Grid<'_>,
        start: &Endpoint,
        goal: &Endpoint,
        budget: usize,
    ) -> Result<f64, PathError> {
        if !index.landmarks.is_empty() {
            let limit = self.relapse_after.unwrap_or_else(|| {
                index
                    .corners
                    .len()
                    .saturating_mul(RELAPSE_PER_CORNER)
                    .saturating_add(BOUNDS_AFTER)
            });
            if let Some(length) = self.search_from(index, ground, start, goal, budget, limit)? {
                return Ok(length);
            }
            self.relapses += 1;
        }
        let length = self.search_from(index, ground, start, goal, budget, usize::MAX)?;
        Ok(length.expect("no limit without landmarks"))
    }

    /// [`Search::run_from`]'s search, with the landmarks while `landmark_limit` is finite:
    /// `None` when it expands more corners than that.
    fn search_from(
        &mut self,
        index: &TerrainIndex,
        ground: &Grid<'_>,
        start: &Endpoint,
        goal: &Endpoint,
        budget: usize,
        landmark_limit: usize,
    ) -> Result<Option<f64>, PathError> {
        self.prepare(index.corners.len());
        let generation = self.generation;
        let (s, t) = (start.point, goal.point);

        let Search {
            nodes,
            goal_seen,
            start_seen,
            heap,
            stack,
            start_links,
            goal_links,
            linked,
            corners,
            ..
        } = self;
        let rows: &[Row] = if landmark_limit < usize::MAX {
            &index.landmarks
        } else {
            &[]
        };
        let mut bounds = GoalBounds::new();
        linked.clear();
        // Corner c at p links to the start, or to the goal, when the leg is taut-compatible
        // there, c is not linked yet, and the leg is in sight: `sight` is a cone with its apex
        // and the point it must hold (the corner's cone and the start, or the start's and the
        // corner), `None` when the corner's rectangle is seen whole.
        type ReachableLegs<'a> = Option<(&'a Cone, [f64; 2], [f64; 2])>;
        let in_sight =
            |sight: ReachableLegs<'_>| sight.map_or(true, |(k, apex, q)| k.holds(apex, q));
        let mut link_start = |c: u32, p: [f64; 2], mask: u8, sight: ReachableLegs<'_>| {
            // Sight before the taut test: most corners a scan offers see other parts of the
            // start's rectangles (the taut test rarely fails).
            if nodes[c as usize].seen != generation
                && in_sight(sight)
                && taut_towards(mask, p, s)
                && !refuses(index, ground, start, c)
            {
                nodes[c as usize] = Node {
                    seen: generation,
                    parent: FROM_START,
                    g: distance(s, p),
                    h: 0.0,
                };
                linked.push(c);
            }
        };
        let mut link_goal = |c: u32, p: [f64; 2], mask: u8, sight: ReachableLegs<'_>| {
            if taut_towards(mask, p, t)
                && goal_seen[c as usize] != generation
                && in_sight(sight)
                && !refuses(index, ground, goal, c)
            {
                goal_seen[c as usize] = generation;
                if let Some(row) = rows.get(c as usize) {
                    bounds.link(row, distance(p, t));
                }
            }
        };
        // With records, `run` has ruled out the straight segment, and the corners in sight of
        // the start are those whose recorded cones hold it: linked in the loop below, ring by
        // ring (see `Near`), or where the start sees few corners all in one part.
        let ring_boxes = RINGS.map(|(stretch, extra)| Near::new(s, t, stretch, extra));
        let rings: Option<&[Near]> = index.has_seen_by().then(|| {
            let records: usize = start
                .roots()
                .iter()
                .map(|&r| index.seen_range(r).len())
                .sum();
            let count = if records >= RINGS_AFTER {
                RINGS.len()
            } else {
                0
            };
            &ring_boxes[..count]
        });
        if rings.is_none() {
            // The start's scan: the goal in sight, or the corners it links to; then the goal's.
            let target = Target {
                point: t,
                roots: goal.roots(),
            };
            let direct = sees(
                index,
                s,
                start.roots(),
                Some(&target),
                stack,
                |corner, cone| {
                    let p = corner.point();
                    link_start(corner.id, p, corner.taut_mask, cone.map(|k| (k, s, p)));
                },
            );
            if direct {
                return Ok(Some(distance(s, t)));
            }
            sees(index, t, goal.roots(), None, stack, |corner, cone| {
                let p = corner.point();
                link_goal(corner.id, p, corner.taut_mask, cone.map(|k| (k, t, p)));
            });
        }
        // With records, the goal is asked about each corner the search expands, and the
        // bounds need the corners it may link to: linking them costs as much as a short
        // search on open ground, so a search takes them only once it has expanded
        // `BOUNDS_AFTER` corners (until then, the straight line alone; the estimates made
        // before stay admissible, and corners reached again are expanded again).
        let mut bounds_pending = index.has_seen_by() && !rows.is_empty();
        for &c in linked.iter() {
            let node = &mut nodes[c as usize];
            node.h = estimate(rows, &bounds, c, index.corners[c as usize].point(), t);
            heap.push(Entry {
                f: node.g + node.h,
                g: node.g,
                node: c,
            });
        }

        let goal_node = index.corners.len() as u32;
        let mut goal_g = f64::INFINITY;
        let mut goal_parent = NONE;
        let mut expanded = 0usize;
        // How many parts of the start's links are made: the first ring's at once, each next
        // one when every corner left to expand is estimated above the bound of the rings
        // before it.
        let mut parts = 0usize;
        loop {
            // (A part may be due at once, when those before it link nothing.)
            while let Some(rings) = rings.filter(|r| parts <= r.len()) {
                let inner = parts.checked_sub(1).map(|k| &rings[k]);
                if inner.is_some_and(|inner| heap.peek().is_some_and(|e| e.f <= inner.bound)) {
                    break;
                }
                let which = Which {
                    inner,
                    outer: rings.get(parts),
                };
                parts += 1;
                start_links.clear();
                links_of(
                    index,
                    None,
                    start,
                    generation,
                    start_seen,
                    start_links,
                    which,
                );
                for link in start_links.iter() {
                    let c = link.corner;
                    if refuses(index, ground, start, c) {
                        continue;
                    }
                    // A corner of a later part cannot have been expanded yet (its estimate is
                    // above the bound of the rings before), but it may wait at a higher cost.
                    let p = index.corners[c as usize].point();
                    let step = Step {
                        corner: c,
                        parent: FROM_START,
                        g: link.distance,
                    };
                    reach(nodes, heap, generation, step, goal_g, || {
                        estimate(rows, &bounds, c, p, t)
                    });
                }
            }
            let Some(Entry {
                g: entry_g, node, ..
            }) = heap.pop()
            else {
                break;
            };
            if node == goal_node {
                if entry_g > goal_g {
                    continue;
                }
                let mut c = goal_parent;
                while c != FROM_START {
                    corners.push(c);
                    c = nodes[c as usize].parent;
                }
                corners.reverse();
                return Ok(Some(goal_g));
            }
            let u = node as usize;
            if entry_g > nodes[u].g {
                continue;
            }
            expanded += 1;
            if expanded > budget {
                return Err(PathError::BudgetExceeded);
            }
            if expanded > landmark_limit {
                return Ok(None);
            }
            if bounds_pending && expanded == BOUNDS_AFTER {
                bounds_pending = false;
                // More corners than the search links to the goal only lower the bounds.
                goal_links.clear();
                links(index, None, goal, generation, goal_seen, goal_links);
                for link in goal_links.iter() {
                    bounds.link(&rows[link.corner as usize], link.distance);
                }
            }
            let corner = &index.corners[u];
            let here = corner.point();
            let from = match nodes[u].parent {
                FROM_START => s,
                p => index.corners[p as usize].point(),
            };
            let sees_goal = if index.has_seen_by() {
                taut_towards(corner.taut_mask, here, t) && in_sight_of(index, ground, goal, node)
            } else {
                goal_seen[u] == generation
            };
            let bend = Bend::new(from, corner);
            if sees_goal && bend.taut(t) {
                let through = entry_g + distance(here, t);
                if through < goal_g {
                    goal_g = through;
                    goal_parent = node;
                    heap.push(Entry {
                        f: through,
                        g: through,
                        node: goal_node,
                    });
                }
                // Any way on from here to the goal is at least the straight line to it: no
                // edge of this corner leads to a shorter path.
                continue;
            }
            // Only the edges in the arc beyond the obstacle can be taut (none when no bend
            // from here is).
            let edges = index.turning_edges(node, bend.left, bend.right);
            for e in edges.into_iter().flatten() {
                let next = e.point();
                // The bend first: it needs only the edge, not the corner's record (a load from
                // anywhere in the search's state).
                if !bend.taut(next) {
                    continue;
                }
                let step = Step {
                    corner: e.to,
                    parent: node,
                    g: entry_g + distance(here, next),
                };
                reach(nodes, heap, generation, step, goal_g, || {
                    estimate(rows, &bounds, e.to, next, t)
                });
            }
        }
        Err(PathError::Unreachable)
    }
}

/// The points of a ring a search links its start to ([`RINGS`]): a box round the ellipse of
/// the points `a` with `|s a| + |a t|` at most `bound`, in the frame of the segment from `s`
/// to `t` (no square root per point). On open ground the start sees hundreds of corners, and
/// a search that is not the straight segment expands a few of them, most often on a path
/// barely longer than the segment: the corners of the first ring are linked at once, and
/// those of each next ring (or, after the last, all the others) only when every corner left
/// to expand has an estimate above the bound of the rings before. That keeps the search
/// exact: a corner outside a ring's ellipse has an estimate (its distance from the start plus
/// at least its straight line to the goal) above the ring's bound, so no corner at or below
/// it is expanded before its shortest way in is known.
#[derive(Debug, Clone, Copy)]
pub(super) struct Near {
    s: [f64; 2],
    /// `t − s`.
    d: [f64; 2],
    /// The box: `(a − s)·d` within `along`, `|d × (a − s)|` at most `across`.
    along: [f64; 2],
    across: f64,
    bound: f64,
}

impl Near {
    /// The box round the ellipse of the bound `stretch · |s t| + extra`.
    pub(super) fn new(s: [f64; 2], t: [f64; 2], stretch: f64, extra: f64) -> Near {
        let d = [t[0] - s[0], t[1] - s[1]];
        let length = distance(s, t);
        let bound = length * stretch + extra;
        // A little wider than the ellipse, so that rounding never leaves out a point of it.
        let wide = bound * (1.0 + 1e-9);
        let half_minor = (wide * wide - length * length).max(0.0).sqrt() / 2.0;
        Near {
            s,
            d,
            along: [
                length * (length - wide) / 2.0,
                length * (length + wide) / 2.0,
            ],
            across: length * half_minor,
            bound,
        }
    }

    #[inline]
    fn holds(&self, p: [f64; 2]) -> bool {
        let v = [p[0] - self.s[0], p[1] - self.s[1]];
        let along = v[0] * self.d[0] + v[1] * self.d[1];
        let across = (self.d[0] * v[1] - self.d[1] * v[0]).abs();
        along >= self.along[0] && along <= self.along[1] && across <= self.across
    }

    /// Whether the box of grid vertices `[gx0, gz0, gx1, gz1]` may meet this box: false only
    /// where the two are apart along the segment or across it (its projections on the two
    /// axes). A false answer is a speed-up only: [`Which`] keeps the blocks it gives apart.
    #[inline]
    fn meets(&self, b: &[i32; 4]) -> bool {
        let (lo, hi) = (vertex_point(b[0], b[1]), vertex_point(b[2], b[3]));
        let c = [
            (lo[0] + hi[0]) / 2.0 - self.s[0],
            (lo[1] + hi[1]) / 2.0 - self.s[1],
        ];
        let h = [(hi[0] - lo[0]) / 2.0, (hi[1] - lo[1]) / 2.0];
        let (dx, dz) = (self.d[0].abs(), self.d[1].abs());
        let along = c[0] * self.d[0] + c[1] * self.d[1];
        let reach_along = h[0] * dx + h[1] * dz;
        let across = (self.d[0] * c[1] - self.d[1] * c[0]).abs();
        let reach_across = h[0] * dz + h[1] * dx;
        along + reach_along >= self.along[0]
            && along - reach_along <= self.along[1]
            && across - reach_across <= self.across
    }
}

/// How many records the start's rectangles need for its links to come in rings: on winding
/// ground, where a start sees few corners, a path often leaves the first rings, and linking
/// them all at once is faster there (`docs/design/paths.md`).
const RINGS_AFTER: usize = 256;

/// The bounds of the rings a search links its start to one after the other ([`Near`]), as
/// `(stretch, extra)` for `stretch · |s t| + extra`, growing; the corners outside the last
/// come after them.
pub(super) const RINGS: [(f64, f64); 3] = [(1.0005, 0.1 * TILE), (1.005, 0.5 * TILE), (1.05, TILE)];

/// A step of the search to a corner: from `parent` ([`FROM_START`] for the start) at cost `g`.
#[derive(Debug, Clone, Copy)]
struct Step {
    corner: u32,
    parent: u32,
    g: f64,
}

/// Records `step` and pushes it, unless the corner was reached at no higher cost already
/// or its estimate (`h`, worked out on its first reaching) puts it no lower than the path to
/// the goal found so far (`goal_g`): such a corner would never be expanded.
#[inline(always)]
fn reach(
    nodes: &mut [Node],
    heap: &mut BinaryHeap<Entry>,
    generation: u32,
    step: Step,
    goal_g: f64,
    h: impl FnOnce() -> f64,
) {
    let Step { corner, parent, g } = step;
    let node = &mut nodes[corner as usize];
    let seen = node.seen == generation;
    if seen && g >= node.g {
        return;
    }
    let h = if seen { node.h } else { h() };
    if g + h >= goal_g {
        return;
    }
    *node = Node {
        seen: generation,
        parent,
        g,
        h,
    };
    heap.push(Entry {
        f: g + h,
        g,
        node: corner,
    });
}

/// How many times the corners a search with landmarks may expand before it runs again without
/// them ([`Search::run_from`]).
const RELAPSE_PER_CORNER: usize = 4;

/// Corners a search with records expands before it links the goal's corners for the landmark
/// bounds ([`Search::run_from`]): most searches on open ground end before.
pub(super) const BOUNDS_AFTER: usize = 64;

/// The heuristic at corner `c` at `p` towards `t`: the straight line, or a landmark bound
/// above it ([`super::landmarks`]).
#[inline]
fn estimate(rows: &[Row], bounds: &GoalBounds, c: u32, p: [f64; 2], t: [f64; 2]) -> f64 {
    let line = distance(p, t);
    rows.get(c as usize)
        .map_or(line, |row| line.max(bounds.bound(row)))
}

/// The free space a point uses: every walkable tile it touches (its own, and at a tile side
/// or grid vertex the tiles beyond), as for line of sight. So a point where two blocked tiles
/// meet diagonally may leave through either open quadrant. `None` off the walkable ground.
pub(crate) fn endpoint(
    index: &TerrainIndex,
    ground: &Grid<'_>,
    point: [f64; 2],
) -> Option<Endpoint> {
    if !point[0].is_finite() || !point[1].is_finite() {
        return None;
    }
    let (tx, on_x) = cell_coordinate(point[0]);
    let (tz, on_z) = cell_coordinate(point[1]);
    let xs: &[i64] = if on_x { &[0, -1] } else { &[0] };
    let zs: &[i64] = if on_z { &[0, -1] } else { &[0] };
    let mut end = Endpoint {
        point,
        roots: [NONE; 4],
        count: 0,
        tile: [tx, tz],
        on: [on_x, on_z],
    };
    for &dz in zs {
        for &dx in xs {
            let rect = index.rect_at(ground, tx + dx, tz + dz);
            if rect != NONE && !end.roots().contains(&rect) {
                end.roots[end.count] = rect;
                end.count += 1;
            }
        }
    }
    (end.count > 0).then_some(end)
}

/// Whether the link between `end` and corner `c` runs along a grid line through the point
/// (on the tile side or grid vertex it lies on) and reaches `c` only on a side that a bend at
/// the corner cannot keep (see [`super::index::edge_keeps_side`]); the point may leave on
/// either side it touches. Asked per corner, when the search would link one: only corners on
/// the lines through the point need the walk along the line.
pub(super) fn refuses(index: &TerrainIndex, ground: &Grid<'_>, end: &Endpoint, c: u32) -> bool {
    use super::index::{fixed_side, swap_sides, walk_line, LEFT, RIGHT};
    let corner = &index.corners[c as usize];
    let Some((k, start)) = line_walk(end, corner) else {
        return false;
    };
    let (gx, gz) = (i64::from(corner.gx), i64::from(corner.gz));
    let mut refused = false;
    walk_line(ground, start, k, LEFT | RIGHT, |_, x, z, sides| {
        if (x, z) != (gx, gz) {
            return true;
        }
        // Either side open: every bend can keep it. Else the corner of this vertex the
        // rectangles around it list first decides.
        if sides != LEFT | RIGHT && first_corner_at(index, ground, x, z) == Some(c) {
            let back = swap_sides(fixed_side(corner, (k + 4) % 8));
            refused = sides & back == 0;
        }
        false
    });
    refused
}

/// Whether the link between `end` and `corner` runs along a grid line through the point, the
/// only links [`refuses`] may refuse.
#[inline]
pub(super) fn along_line(end: &Endpoint, corner: &Corner) -> bool {
    line_walk(end, corner).is_some()
}

/// Where [`refuses`] walks for the link between `end` and `corner` when it runs along a grid
/// line through the point: the direction class along the line, and the vertex the walk starts
/// from (behind the point when it lies inside a tile side); `None` for other links.
#[inline]
fn line_walk(end: &Endpoint, corner: &Corner) -> Option<(u8, (i64, i64))> {
    let [on_x, on_z] = end.on;
    let [tx, tz] = end.tile;
    let (gx, gz) = (i64::from(corner.gx), i64::from(corner.gz));
    let p = corner.point();
    if on_x && gx == tx && p[1] != end.point[1] {
        Some(if p[1] > end.point[1] {
            (2, (tx, tz))
        } else {
            (6, (tx, if on_z { tz } else { tz + 1 }))
        })
    } else if on_z && gz == tz && p[0] != end.point[0] {
        Some(if p[0] > end.point[0] {
            (0, (tx, tz))
        } else {
            (4, (if on_x { tx } else { tx + 1 }, tz))
        })
    } else {
        None
    }
}

/// The first corner at grid vertex (x, z) that the rectangles around it list, those of tiles
/// (x, z), (x − 1, z), (x − 1, z − 1) and (x, z − 1) in turn, if any.
fn first_corner_at(index: &TerrainIndex, ground: &Grid<'_>, x: i64, z: i64) -> Option<u32> {
    for (ox, oz) in [(0, 0), (-1, 0), (-1, -1), (0, -1)] {
        let rect = index.rect_at(ground, x + ox, z + oz);
        if rect == NONE {
            continue;
        }
        if let Some(c) = index
            .corners_of(rect)
            .iter()
            .find(|c| (i64::from(c.gx), i64::from(c.gz)) == (x, z))
        {
            return Some(c.id);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{distance, Near, RINGS};
    use crate::path::index::TILE;
    use proptest::prelude::*;

    /// World coordinates: up to 256 regions of 1,920 units.
    fn coordinate() -> impl Strategy<Value = f64> {
        0.0..491_520.0f64
    }

    /// An angle, along the axes a quarter of the time (where boxes touch the ellipse's
    /// box along a side).
    fn angle() -> impl Strategy<Value = f64> {
        use std::f64::consts::{FRAC_PI_2, TAU};
        prop_oneof![
            1 => (0..4).prop_map(|k| f64::from(k) * FRAC_PI_2),
            3 => 0.0..TAU,
        ]
    }

    /// How far a box reaches past a point's tile on one side, in tiles: none half the time.
    fn tiles() -> impl Strategy<Value = i32> {
        prop_oneof![Just(0), 0..48i32]
    }

    proptest! {
        /// Every point of the ellipse of the bound lies in `Near`'s box, and every box of grid
        /// vertices round such a point meets it (points on the ellipse's rim half the time,
        /// at its tips and sides often, boxes up to a rectangle's size): no corner a search
        /// must link at once waits.
        #[test]
        fn near_holds_its_ellipse_and_meets_the_boxes_round_it(
            ring in 0..RINGS.len(),
            s in (coordinate(), coordinate()),
            towards in (angle(), 0.0..30_000.0f64),
            on in (
                prop_oneof![Just(1.0), 0.0..=1.0f64],
                angle(),
            ),
            reach in (tiles(), tiles(), tiles(), tiles()),
        ) {
            let s = [s.0, s.1];
            let t = [s[0] + towards.1 * towards.0.cos(), s[1] + towards.1 * towards.0.sin()];
            let (stretch, extra) = RINGS[ring];
            let near = Near::new(s, t, stretch, extra);
            let length = distance(s, t);
            prop_assert!(near.bound >= length);
            // A point whose distances to the two ends sum to `sum`, at most the bound.
            let sum = length + (near.bound - length) * on.0 * (1.0 - 1e-12);
            let (a, c) = (sum / 2.0, length / 2.0);
            let b = (a * a - c * c).max(0.0).sqrt();
            let axis = if length > 0.0 {
                [(t[0] - s[0]) / length, (t[1] - s[1]) / length]
            } else {
                [1.0, 0.0]
            };
            let centre = [(s[0] + t[0]) / 2.0, (s[1] + t[1]) / 2.0];
            let (cos, sin) = (on.1.cos(), on.1.sin());
            let p = [
                centre[0] + a * cos * axis[0] - b * sin * axis[1],
                centre[1] + a * cos * axis[1] + b * sin * axis[0],
            ];
            // The rounding of the point may take it a hair past the rim: the points that
            // matter are those whose computed distances are within the bound.
            prop_assume!(distance(s, p) + distance(p, t) <= near.bound);
            prop_assert!(near.holds(p), "{p:?}");
            let (gx, gz) = ((p[0] / TILE).floor() as i32, (p[1] / TILE).floor() as i32);
            let block = [gx - reach.0, gz - reach.1, gx + 1 + reach.2, gz + 1 + reach.3];
            prop_assert!(near.meets(&block), "{p:?} in {block:?}");
        }
    }
}
