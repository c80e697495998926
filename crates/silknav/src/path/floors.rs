//! Exact paths on a ground of object floors only (a dungeon's): the visibility graph of its
//! turning points, made once, and A* over it.
//!
//! # Rule
//! The answer is the exact search's with objects ([`super::exact_objects`]): the shortest path
//! whose every leg is clear by the object-aware line of sight, walked from the surface the leg
//! before ended on, that turns only at the object points. The graph's states are those points,
//! each on a surface it stands on; its edges are the clear legs between them.
//!
//! # Method
//! On a ground without walkable terrain a walk crosses only triangle edges and links (no
//! probe reaches ahead from the terrain), so what a point may see is found by expanding a cone
//! from it over the placed triangles: through the edges a walk may cross (internal edges and
//! links), narrowed by each edge crossed, with every edge widened by [`MARGIN`] for the walk's
//! rounding. Every clear leg ends in a triangle the expansion reaches, in its cone; each
//! candidate leg so found is then walked by the line of sight, so the graph holds exactly the
//! clear legs. The triangles and states are made on the first exact path; each state's legs
//! when a search first expands it, and kept.
//!
//! A query expands from the start (its legs walked at once) and from the goal (the states it
//! reaches may see the goal; their legs to it are walked when the search reaches them), and
//! runs A* with the straight line to the goal as its estimate.
//!
//! # Cost
//! A state's legs: an expansion and a walk per candidate leg, once. A query: two
//! expansions, the walks of their candidates, and A* over the graph, plus the legs of the
//! states it expands for the first time. The dungeons bench
//! measures both (`cargo bench -p silknav-bench --bench dungeons`).
//!
//! # Limits
//! Only grounds with no walkable terrain: a terrain's probe carries walkers onto objects from
//! far off, which no expansion over triangles predicts. An expansion that visits more than
//! [`MAX_VISITS`] triangles gives up and every point is a candidate.

use super::exact_objects::ObjectCorners;
use super::PathError;
use crate::objects::mesh::{flag as mesh_flag, EdgeKey};
use crate::objects::walk::Frame;
use crate::objects::{InstanceKey, ObjectCellRef};
use crate::world::{Position, World};
use rustc_hash::FxHashMap as HashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::OnceLock;

/// Units every edge an expansion crosses, and every triangle's sides, are widened by: far
/// above the difference between the placement in double here and the walk's arithmetic.
const MARGIN: f64 = 0.05;

/// The most triangles one expansion visits before it gives up (every point a candidate).
const MAX_VISITS: usize = 200_000;

/// A placed triangle of the ground.
#[derive(Debug, Clone)]
struct Triangle {
    /// The object triangle it is.
    surface: ObjectCellRef,
    /// Corners, world x and z.
    corners: [[f64; 2]; 3],
    /// The edges a walk may cross from it: the edge's ends (world x, z) and the triangle on
    /// the other side.
    passages: Vec<([f64; 2], [f64; 2], u32)>,
}

/// The cone a point sees through: every direction, or those from `right` turning
/// anticlockwise to `left` (unit vectors, less than half a turn apart).
#[derive(Debug, Clone, Copy)]
enum Cone {
    Full,
    Between { right: [f64; 2], left: [f64; 2] },
}

fn cross(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn sub(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

fn unit(v: [f64; 2]) -> Option<[f64; 2]> {
    let n = v[0].hypot(v[1]);
    (n > 0.0 && n.is_finite()).then(|| [v[0] / n, v[1] / n])
}

fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

impl Cone {
    /// Whether direction `d` is in the cone (to rounding).
    fn has_direction(self, d: [f64; 2]) -> bool {
        match self {
            Cone::Full => true,
            Cone::Between { right, left } => {
                cross(right, d) >= -1e-12
                    && cross(d, left) >= -1e-12
                    && d[0] * (right[0] + left[0]) + d[1] * (right[1] + left[1]) > 0.0
            }
        }
    }

    /// Whether the cone holds every direction of `other`.
    fn contains(self, other: Cone) -> bool {
        match (self, other) {
            (Cone::Full, _) => true,
            (_, Cone::Full) => false,
            (c, Cone::Between { right, left }) => c.has_direction(right) && c.has_direction(left),
        }
    }

    /// The smallest cone holding both (every direction when that is half a turn or more).
    fn hull(self, other: Cone) -> Cone {
        let (
            Cone::Between {
                right: r1,
                left: l1,
            },
            Cone::Between {
                right: r2,
                left: l2,
            },
        ) = (self, other)
        else {
            return Cone::Full;
        };
        let right = if cross(r1, r2) > 0.0 { r1 } else { r2 };
        let left = if cross(l1, l2) > 0.0 { l2 } else { l1 };
        let hull = Cone::Between { right, left };
        if cross(right, left) > 0.0 && hull.contains(self) && hull.contains(other) {
            hull
        } else {
            Cone::Full
        }
    }

    /// Whether `d` (from the apex) is in the cone, or within [`MARGIN`] units of it.
    fn holds(self, d: [f64; 2]) -> bool {
        match self {
            Cone::Full => true,
            Cone::Between { right, left } => {
                let ahead = [right[0] + left[0], right[1] + left[1]];
                cross(right, d) >= -MARGIN
                    && cross(d, left) >= -MARGIN
                    && d[0] * ahead[0] + d[1] * ahead[1] >= -MARGIN
            }
        }
    }

    /// The cone narrowed to what passes from `apex` through edge `a`–`b` widened by
    /// [`MARGIN`] on every side; an edge within [`MARGIN`] of the apex narrows nothing.
    /// `None` when nothing passes.
    fn through(self, apex: [f64; 2], a: [f64; 2], b: [f64; 2]) -> Option<Cone> {
        let along = unit(sub(b, a))?;
        let normal = [-along[1], along[0]];
        // The apex's place along the edge and off it.
        let (t, off) = (
            (apex[0] - a[0]) * along[0] + (apex[1] - a[1]) * along[1],
            cross(along, sub(apex, a)),
        );
        let length = distance(a, b);
        if off.abs() < MARGIN && t > -MARGIN && t < length + MARGIN {
            return Some(self);
        }
        // The cone spanning the corners of the edge's widened rectangle: the apex is outside
        // it, so less than half a turn.
        let m = MARGIN;
        let corners = [
            [
                a[0] - along[0] * m + normal[0] * m,
                a[1] - along[1] * m + normal[1] * m,
            ],
            [
                a[0] - along[0] * m - normal[0] * m,
                a[1] - along[1] * m - normal[1] * m,
            ],
            [
                b[0] + along[0] * m + normal[0] * m,
                b[1] + along[1] * m + normal[1] * m,
            ],
            [
                b[0] + along[0] * m - normal[0] * m,
                b[1] + along[1] * m - normal[1] * m,
            ],
        ];
        let mut directions = [[0.0; 2]; 4];
        for (d, &c) in directions.iter_mut().zip(&corners) {
            *d = unit(sub(c, apex))?;
        }
        let r2 = *directions
            .iter()
            .find(|&&r| directions.iter().all(|&d| cross(r, d) >= -1e-12))?;
        let l2 = *directions
            .iter()
            .find(|&&l| directions.iter().all(|&d| cross(d, l) >= -1e-12))?;
        let (right, left) = match self {
            Cone::Full => (r2, l2),
            Cone::Between { right, left } => (
                if cross(right, r2) > 0.0 { r2 } else { right },
                if cross(left, l2) < 0.0 { l2 } else { left },
            ),
        };
        let narrowed = Cone::Between { right, left };
        // Both sides in both cones, and turning the right way: else nothing passes.
        let edge = Cone::Between {
            right: r2,
            left: l2,
        };
        (cross(right, left) > 0.0
            && [right, left]
                .iter()
                .all(|&d| self.has_direction(d) && edge.has_direction(d)))
        .then_some(narrowed)
    }
}

/// The clear legs from a state: the state each ends in, and its length.
type Legs = Box<[(u32, f64)]>;

/// The ground's triangles and what each point of the search may see.
#[derive(Debug, Clone)]
pub(crate) struct FloorsGraph {
    triangles: Vec<Triangle>,
    /// Each surface's triangle.
    of_surface: HashMap<ObjectCellRef, u32>,
    /// The points in each triangle (within [`MARGIN`]), as CSR over the triangles.
    triangle_start: Vec<u32>,
    triangle_points: Vec<u32>,
    /// The states: a point (its index in the corners' points) on a surface.
    states: Vec<(u32, ObjectCellRef)>,
    state_of: HashMap<(u32, ObjectCellRef), u32>,
    /// The clear legs from each state (the state each ends in, and its length), worked out
    /// when a search first expands it: `None` when a walk ended on a surface that is not a
    /// state (then the graph cannot answer).
    legs: Vec<OnceLock<Option<Legs>>>,
}

/// Whether `p` lies in the triangle, or within [`MARGIN`] of it.
fn near_triangle(t: &[[f64; 2]; 3], p: [f64; 2]) -> bool {
    let area = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    if !(area.abs() > 0.0) {
        return false;
    }
    (0..3).all(|i| {
        let (a, b) = (t[i], t[(i + 1) % 3]);
        let Some(along) = unit(sub(b, a)) else {
            return true;
        };
        cross(along, sub(p, a)) * area.signum() >= -MARGIN
    })
}

impl FloorsGraph {
    /// The graph of `world`'s object points (`corners`), its legs yet to be walked; `None`
    /// when the world has walkable terrain (see the module docs).
    pub(crate) fn of(world: &World, corners: &ObjectCorners) -> Option<FloorsGraph> {
        if !world.is_dungeon_ground {
            return None;
        }
        let (triangles, of_surface) = placed_triangles(world);
        let xz = corners.xz();
        let points = corners.points();
        // Points by triangle and triangles by point, by a grid of the triangles' boxes.
        let mut by_triangle: Vec<Vec<u32>> = vec![Vec::new(); triangles.len()];
        let grid = PointGrid::new(xz);
        for (t, tri) in triangles.iter().enumerate() {
            grid.near(&tri.corners, |k| {
                if near_triangle(&tri.corners, xz[k as usize]) {
                    by_triangle[t].push(k);
                }
            });
        }
        let (triangle_start, triangle_points) = csr(&by_triangle);
        // Every point on every surface it stands on.
        let mut states = Vec::new();
        for (tri, list) in triangles.iter().zip(&by_triangle) {
            for &k in list {
                if world.stands_on(points[k as usize], Some(tri.surface)) {
                    states.push((k, tri.surface));
                }
            }
        }
        let state_of: HashMap<(u32, ObjectCellRef), u32> = states
            .iter()
            .enumerate()
            .map(|(i, &s)| (s, i as u32))
            .collect();
        let legs = (0..states.len()).map(|_| OnceLock::new()).collect();
        Some(FloorsGraph {
            triangles,
            of_surface,
            triangle_start,
            triangle_points,
            states,
            state_of,
            legs,
        })
    }

    /// The clear legs from state `i`: the states they end in and their lengths ([module
    /// docs](self)). `None` when a walk ends on a surface that is not a state.
    fn legs_from(&self, world: &World, corners: &ObjectCorners, i: u32) -> Option<&[(u32, f64)]> {
        self.legs[i as usize]
            .get_or_init(|| {
                let (xz, points) = (corners.xz(), corners.points());
                let (k, surface) = self.states[i as usize];
                let from = points[k as usize];
                let start = *self.of_surface.get(&surface)?;
                let seen = self
                    .seen_from(xz[k as usize], &[start], xz)
                    .unwrap_or_else(|| (0..xz.len() as u32).collect());
                let mut out = Vec::new();
                for j in seen.into_iter().filter(|&j| j != k) {
                    let to = points[j as usize];
                    if let Ok(Some(Some(arrival))) = world.sight_arrival(from, Some(surface), to) {
                        if world.stands_on(to, Some(arrival)) {
                            let state = *self.state_of.get(&(j, arrival))?;
                            out.push((state, distance(xz[k as usize], xz[j as usize])));
                        }
                    }
                }
                Some(out.into_boxed_slice())
            })
            .as_deref()
    }

    /// Expands cones from `apex` over the triangles, from each of `starts` with every
    /// direction, calling `visit` with each triangle reached and the cone it is reached in.
    /// `false` when it gave up ([`MAX_VISITS`]).
    fn expand(&self, apex: [f64; 2], starts: &[u32], mut visit: impl FnMut(u32, Cone)) -> bool {
        let mut stack: Vec<(u32, Cone, Option<u32>)> =
            starts.iter().map(|&t| (t, Cone::Full, None)).collect();
        // The cone each triangle was expanded in: a cone it holds is not expanded again, and
        // a wider one is expanded as their hull (more than the two, never less).
        let mut expanded: HashMap<u32, Cone> = HashMap::default();
        let mut visits = 0;
        while let Some((t, cone, came_from)) = stack.pop() {
            let cone = match expanded.get(&t) {
                Some(old) if old.contains(cone) => continue,
                Some(old) => old.hull(cone),
                None => cone,
            };
            expanded.insert(t, cone);
            visits += 1;
            if visits > MAX_VISITS {
                return false;
            }
            visit(t, cone);
            let tri = &self.triangles[t as usize];
            let c = &tri.corners;
            let inner = [
                (c[0][0] + c[1][0] + c[2][0]) / 3.0,
                (c[0][1] + c[1][1] + c[2][1]) / 3.0,
            ];
            for &(a, b, next) in &tri.passages {
                if Some(next) == came_from {
                    continue;
                }
                // A ray leaves a triangle away from the apex: over an edge whose line has the
                // apex on the triangle's side (or within the margin of it), never back over
                // one it would have entered by.
                if let Some(along) = unit(sub(b, a)) {
                    let (apex_side, inner_side) =
                        (cross(along, sub(apex, a)), cross(along, sub(inner, a)));
                    if apex_side * inner_side.signum() < -MARGIN {
                        continue;
                    }
                }
                if let Some(narrowed) = cone.through(apex, a, b) {
                    stack.push((next, narrowed, Some(t)));
                }
            }
        }
        true
    }
}

impl FloorsGraph {
    /// The points a walk from `apex` on one of the triangles `starts` may end at: those in a
    /// triangle the expansion reaches, held by the cone it is reached in. `None` when the
    /// expansion gave up.
    fn seen_from(&self, apex: [f64; 2], starts: &[u32], xz: &[[f64; 2]]) -> Option<Vec<u32>> {
        let mut out = Vec::new();
        let complete = self.expand(apex, starts, |t, cone| {
            let range = self.triangle_start[t as usize] as usize
                ..self.triangle_start[t as usize + 1] as usize;
            for &k in &self.triangle_points[range] {
                if cone.holds(sub(xz[k as usize], apex)) {
                    out.push(k);
                }
            }
        });
        if !complete {
            return None;
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    }
}

/// Offsets and items of lists laid end to end.
fn csr(lists: &[Vec<u32>]) -> (Vec<u32>, Vec<u32>) {
    let mut start = Vec::with_capacity(lists.len() + 1);
    let mut items = Vec::new();
    start.push(0);
    for l in lists {
        items.extend_from_slice(l);
        start.push(items.len() as u32);
    }
    (start, items)
}

/// Points by square, to find those near a triangle.
struct PointGrid<'a> {
    xz: &'a [[f64; 2]],
    squares: HashMap<(i64, i64), Vec<u32>>,
}

/// Side of a [`PointGrid`] square, world units.
const POINT_SQUARE: f64 = 20.0;

impl<'a> PointGrid<'a> {
    fn new(xz: &'a [[f64; 2]]) -> PointGrid<'a> {
        let mut squares: HashMap<(i64, i64), Vec<u32>> = HashMap::default();
        for (k, p) in xz.iter().enumerate() {
            squares
                .entry((
                    (p[0] / POINT_SQUARE).floor() as i64,
                    (p[1] / POINT_SQUARE).floor() as i64,
                ))
                .or_default()
                .push(k as u32);
        }
        PointGrid { xz, squares }
    }

    /// Calls `f` with every point within [`MARGIN`] of the triangle's box (and some more).
    fn near(&self, t: &[[f64; 2]; 3], mut f: impl FnMut(u32)) {
        let lo = [0, 1].map(|k| t.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min) - MARGIN);
        let hi = [0, 1].map(|k| t.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max) + MARGIN);
        if !(lo.iter().chain(&hi).all(|v| v.is_finite())) {
            return;
        }
        let square = |v: f64| (v / POINT_SQUARE).floor() as i64;
        for sx in square(lo[0])..=square(hi[0]) {
            for sz in square(lo[1])..=square(hi[1]) {
                for &k in self.squares.get(&(sx, sz)).map_or(&[][..], Vec::as_slice) {
                    let p = self.xz[k as usize];
                    if p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1] {
                        f(k);
                    }
                }
            }
        }
    }
}

/// Every object triangle of `world`, placed (each instance once, by its first record), with
/// the passages a walk may cross: internal edges and links.
fn placed_triangles(world: &World) -> (Vec<Triangle>, HashMap<ObjectCellRef, u32>) {
    let mut triangles = Vec::new();
    let mut of_surface: HashMap<ObjectCellRef, u32> = HashMap::default();
    let mut first: HashMap<InstanceKey, (usize, usize)> = HashMap::default();
    for (slot, _) in world.regions().enumerate() {
        for (index, p) in world.objects.region_list(slot).iter().enumerate() {
            let Some(p) = p else { continue };
            if first.contains_key(&p.key) {
                continue;
            }
            first.insert(p.key, (slot, index));
            let mesh = world.objects.server_mesh(p);
            for tri in 0..mesh.tri_count() as u32 {
                of_surface.insert(
                    ObjectCellRef {
                        instance: p.key,
                        cell: tri as u16,
                    },
                    triangles.len() as u32,
                );
                triangles.push(Triangle {
                    surface: ObjectCellRef {
                        instance: p.key,
                        cell: tri as u16,
                    },
                    corners: [[0.0; 2]; 3],
                    passages: Vec::new(),
                });
            }
        }
    }
    let ids: Vec<_> = world.regions().collect();
    for (&key, &(slot, index)) in &first {
        let p = world.objects.region_list(slot)[index]
            .as_ref()
            .expect("listed above");
        let mesh = world.objects.server_mesh(p);
        let frame = Frame::new(ids[slot], p);
        for tri in 0..mesh.tri_count() as u32 {
            let here = of_surface[&ObjectCellRef {
                instance: key,
                cell: tri as u16,
            }];
            let mut passages = Vec::new();
            for edge_key in mesh.tri_edges(tri).into_iter().flatten() {
                let edge = mesh.edge(edge_key);
                let [a, b] = mesh.edge_xz(edge_key).map(|v| frame.world(v));
                let next = if edge.flag & mesh_flag::INTERNAL != 0 {
                    mesh.across(edge_key, tri).map(|t| (key, t))
                } else if edge.flag & mesh_flag::LINK != 0 && edge_key.group == 0 {
                    linked(world, slot, p, edge_key)
                } else {
                    None
                };
                let Some((other, t)) = next else { continue };
                let Some(&there) = of_surface.get(&ObjectCellRef {
                    instance: other,
                    cell: t as u16,
                }) else {
                    continue;
                };
                passages.push((a, b, there));
            }
            let t = &mut triangles[here as usize];
            t.corners = mesh.tri_xz(tri).map(|v| frame.world(v));
            t.passages = passages;
        }
    }
    (triangles, of_surface)
}

/// The instance and triangle a walk steps onto over link edge `key` of record `p` in `slot`.
fn linked(
    world: &World,
    slot: usize,
    p: &crate::objects::Placement,
    key: EdgeKey,
) -> Option<(InstanceKey, u32)> {
    let &[other, other_edge, _] = p.links.iter().find(|l| u32::from(l[2]) == key.index)?;
    let o = world.objects.placement(slot, other)?;
    let omesh = world.objects.server_mesh(o);
    let okey = EdgeKey {
        group: 0,
        index: u32::from(other_edge),
    };
    (usize::from(other_edge) < omesh.outline_count()).then(|| (o.key, omesh.edge(okey).cell_a))
}

/// The parent of a state the search reached from the start.
const START: u32 = u32::MAX;

impl FloorsGraph {
    /// The exact path from `from` on `start` to `to` ([module docs](self)), walking at most
    /// `budget` legs and states together; `corners` the graph's points.
    ///
    /// # Errors
    /// [`Stop::Error`]: [`PathError::Unreachable`], [`PathError::BudgetExceeded`];
    /// [`Stop::Unanswerable`] when a walk ended on a surface the graph does not hold.
    pub(crate) fn path(
        &self,
        world: &World,
        corners: &ObjectCorners,
        from: Position,
        start: ObjectCellRef,
        to: Position,
        budget: usize,
    ) -> Result<(Vec<Position>, f64), Stop> {
        let xz = corners.xz();
        let points = corners.points();
        let (s, t) = (
            [from.world_x(), from.world_z()],
            [to.world_x(), to.world_z()],
        );
        let mut spent = 0usize;
        let mut spend = |n: usize| {
            spent += n;
            if spent > budget {
                Err(Stop::Error(PathError::BudgetExceeded))
            } else {
                Ok(())
            }
        };
        // The points the start may see: their legs are walked when the search reaches them
        // (a leg's length is known before its walk, so A* may wait to walk it).
        let start_tri = *self
            .of_surface
            .get(&start)
            .ok_or(Stop::Error(PathError::StartBlocked))?;
        let from_start = self
            .seen_from(s, &[start_tri], xz)
            .unwrap_or_else(|| (0..xz.len() as u32).collect());
        // The points that may see the goal: those the goal sees, on any surface.
        let goal_tris: Vec<u32> = self
            .triangles
            .iter()
            .enumerate()
            .filter(|(_, tri)| near_triangle(&tri.corners, t))
            .map(|(i, _)| i as u32)
            .collect();
        let mut sees_goal = vec![false; xz.len()];
        match self.seen_from(t, &goal_tris, xz) {
            Some(list) => list.into_iter().for_each(|k| sees_goal[k as usize] = true),
            None => sees_goal.fill(true),
        }
        // A* over the states, the straight line as the estimate. Its items: a state, the
        // goal, or a point the start may see, not yet walked to.
        let n = self.states.len();
        let (goal, unwalked) = (n as u32, n as u32 + 1);
        let xz_of = |item: u32| {
            if item == goal {
                t
            } else if item >= unwalked {
                xz[(item - unwalked) as usize]
            } else {
                xz[self.states[item as usize].0 as usize]
            }
        };
        // The straight line to the goal, from each state's point, worked out once.
        let mut estimates = vec![f64::NAN; n + 1];
        let mut estimate = |item: u32| {
            let e = &mut estimates[item as usize];
            if e.is_nan() {
                *e = distance(xz_of(item), t);
            }
            *e
        };
        let mut g = vec![f64::INFINITY; n + 1];
        let mut parent = vec![START; n + 1];
        let mut done = vec![false; n + 1];
        let mut heap = BinaryHeap::new();
        for &k in &from_start {
            let item = unwalked + k;
            let f = distance(s, xz_of(item)) + distance(xz_of(item), t);
            heap.push(Reverse((f.to_bits(), item)));
        }
        while let Some(Reverse((_, item))) = heap.pop() {
            spend(1)?;
            let (state, gh) = if item >= unwalked {
                // A leg from the start: walked now, and its end expanded at once when it is
                // clear (its key is the end state's).
                let k = item - unwalked;
                let to_k = points[k as usize];
                let Ok(Some(Some(arrival))) = world.sight_arrival(from, Some(start), to_k) else {
                    continue;
                };
                if !world.stands_on(to_k, Some(arrival)) {
                    continue;
                }
                let state = *self.state_of.get(&(k, arrival)).ok_or(Stop::Unanswerable)?;
                let length = distance(s, xz[k as usize]);
                if done[state as usize] || g[state as usize] <= length {
                    continue;
                }
                g[state as usize] = length;
                parent[state as usize] = START;
                (state, length)
            } else {
                if done[item as usize] {
                    continue;
                }
                (item, g[item as usize])
            };
            done[state as usize] = true;
            if state == goal {
                let mut out = vec![to];
                let mut k = parent[goal as usize];
                while k != START {
                    out.push(points[self.states[k as usize].0 as usize]);
                    k = parent[k as usize];
                }
                out.push(from);
                out.reverse();
                return Ok((out, gh));
            }
            let here = xz_of(state);
            let mut relax = |next: u32, length: f64| {
                let g2 = gh + length;
                if !done[next as usize] && g2 < g[next as usize] {
                    g[next as usize] = g2;
                    parent[next as usize] = state;
                    let f = g2 + estimate(next);
                    heap.push(Reverse((f.to_bits(), next)));
                }
            };
            let legs = self
                .legs_from(world, corners, state)
                .ok_or(Stop::Unanswerable)?;
            for &(next, length) in legs {
                relax(next, length);
            }
            let (k, surface) = self.states[state as usize];
            if sees_goal[k as usize] {
                spend(1)?;
                let p = points[k as usize];
                if let Ok(Some(Some(arrival))) = world.sight_arrival(p, Some(surface), to) {
                    if world.stands_on(to, Some(arrival)) {
                        relax(goal, distance(here, t));
                    }
                }
            }
        }
        Err(Stop::Error(PathError::Unreachable))
    }
}

/// Why a search of the graph stops without a path.
pub(crate) enum Stop {
    Error(PathError),
    /// A walk ended on a surface the graph does not hold.
    Unanswerable,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    fn cave() -> World {
        crate::world::dungeon::tests::generated_cave()
            .ground()
            .clone()
    }

    /// The cone scan is a superset of the walks: from random states, every point a walk by
    /// line of sight reaches (and stands on) is among the points the expansion keeps; and
    /// the expansion keeps far fewer than all.
    #[test]
    fn every_clear_leg_ends_where_the_expansion_reaches() {
        let ground = cave();
        let index = crate::PathIndex::build(&ground);
        let corners = ObjectCorners::of(&ground, &index.terrain);
        let graph = FloorsGraph::of(&ground, &corners).expect("a ground of floors only");
        let (points, xz) = (corners.points(), corners.xz());
        let mut rng = SplitMix64::new(3);
        let (mut clear, mut kept, mut all) = (0, 0, 0);
        for _ in 0..if cfg!(debug_assertions) { 40 } else { 400 } {
            let (k, surface) = graph.states[rng.range(0, graph.states.len() as u32) as usize];
            let apex = xz[k as usize];
            let start = graph.of_surface[&surface];
            let seen = graph.seen_from(apex, &[start], xz).expect("complete");
            for (j, &to) in points.iter().enumerate() {
                let walk = ground.sight_arrival(points[k as usize], Some(surface), to);
                if let Ok(Some(Some(arrival))) = walk {
                    if j != k as usize && ground.stands_on(to, Some(arrival)) {
                        clear += 1;
                        assert!(
                            seen.binary_search(&(j as u32)).is_ok(),
                            "{k} on {surface:?} reaches {j} on {arrival:?}, unseen"
                        );
                    }
                }
            }
            kept += seen.len();
            all += points.len();
        }
        assert!(clear > 100, "{clear} clear legs");
        // The cave is small and open (rooms of 3 × 3 blocks): a point sees a third of it.
        assert!(kept * 2 < all, "the expansion keeps {kept} of {all}");
    }

    /// The graph's legs are exactly the clear ones: each walks clear to the state it names.
    #[test]
    fn the_graphs_legs_are_clear_walks() {
        let ground = cave();
        let index = crate::PathIndex::build(&ground);
        let corners = ObjectCorners::of(&ground, &index.terrain);
        let graph = FloorsGraph::of(&ground, &corners).expect("a ground of floors only");
        let points = corners.points();
        let mut rng = SplitMix64::new(5);
        for _ in 0..200 {
            let i = rng.range(0, graph.states.len() as u32) as usize;
            let (k, surface) = graph.states[i];
            for &(next, length) in graph
                .legs_from(&ground, &corners, i as u32)
                .expect("answerable")
            {
                let (j, arrival) = graph.states[next as usize];
                let (a, b) = (corners.xz()[k as usize], corners.xz()[j as usize]);
                assert_eq!(length, distance(a, b));
                let walk =
                    ground.sight_arrival(points[k as usize], Some(surface), points[j as usize]);
                assert_eq!(walk, Ok(Some(Some(arrival))));
            }
        }
    }

    /// A world with walkable terrain gets no graph: the terrain's probe reaches ahead.
    #[test]
    fn terrain_worlds_have_no_graph() {
        let dir = tempfile::tempdir().unwrap();
        silknav_testkit::object_world::write_object_world(dir.path());
        let world = World::load(dir.path()).unwrap();
        let index = crate::PathIndex::build(&world);
        let corners = ObjectCorners::of(&world, &index.terrain);
        assert!(FloorsGraph::of(&world, &corners).is_none());
    }
}
