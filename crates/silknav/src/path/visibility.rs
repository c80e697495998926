//! What a point sees: cones of directions pushed from rectangle to rectangle through portals.
//!
//! From the root, every rectangle whose closure holds it is seen whole. Through each portal
//! ahead of the root (the root strictly behind the portal's line), the directions that pass
//! the portal form a cone, bounded by the rays to two grid points; the cone narrows at every
//! further portal and dies where it misses one. A segment from the root is clear exactly when
//! it stays inside such a chain of cones, so a rectangle reached with a cone sees every point
//! of its closure inside that cone, and nothing else behind it.
//!
//! A root on a grid line also sees along that line: the ray runs between the rectangles on
//! either side, touching both even where a wall lies on the line, so a contact on the line
//! itself (a run of side along a walkable neighbour, the root on its line, the run ahead
//! along it) passes a one-ray cone to the rectangle across; so does a side crossing the line
//! at the end of a contact, where the ray only touches the end of a wall (unless the side
//! beyond is a wall too: a squeeze). A scan enters each rectangle along the line at most once,
//! so these hops cannot cycle.
//!
//! All decisions are exact orientation tests on grid points and the root, so rays through
//! portal ends (grazing a corner, running along a wall) are decided exactly: cones are closed.
//! Squeezing between two blocked tiles that meet at a corner is impossible by construction: no
//! portal holds such a vertex from both sides.
//!
//! Each step moves strictly away from the root, so the scan ends; every rectangle reached is
//! seen from outside its closure, within less than 180°, where comparing rays by orientation
//! is sound.

use super::index::{Portal, RectCorner, Side, TerrainIndex, TILE};
use crate::geometry::orient;

/// The closed set of directions between the rays from the root through `right` and `left`
/// (counter-clockwise from `right` to `left`, less than 180°).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cone {
    pub right: [f64; 2],
    pub left: [f64; 2],
}

impl Cone {
    /// Whether `p` lies in the cone seen from `root`.
    #[inline]
    pub fn holds(&self, root: [f64; 2], p: [f64; 2]) -> bool {
        orient(root, self.right, p) >= 0.0 && orient(root, p, self.left) >= 0.0
    }

    /// Whether the direction from `root` to `p` is one of the cone's, for any `p` around the
    /// root (not only ahead of it): a one-ray cone holds its ray's direction and not the
    /// opposite one.
    #[inline]
    fn holds_direction(&self, root: [f64; 2], p: [f64; 2]) -> bool {
        if self.right != self.left {
            // A proper cone of less than 180°: the two orientation tests pin it exactly.
            return self.holds(root, p);
        }
        let (u, v) = (
            [self.right[0] - root[0], self.right[1] - root[1]],
            [p[0] - root[0], p[1] - root[1]],
        );
        // Grid points and the root: the products are exact (see `crate::geometry`).
        orient(root, self.right, p) == 0.0 && u[0] * v[0] + u[1] * v[1] > 0.0
    }

    /// The directions of a cone through a portal (proper, less than 180°) that this limit
    /// (less than 180°, or one ray, anywhere around the root) lets through: a convex cone, so
    /// its right edge is one of the two right edges, the one inside the other cone, and so
    /// for the left.
    #[inline]
    fn clip(&self, root: [f64; 2], portal: &Cone) -> Option<Cone> {
        if self.right == self.left {
            return portal.holds(root, self.right).then_some(*self);
        }
        let right = if portal.holds(root, self.right) {
            self.right
        } else if self.holds(root, portal.right) {
            portal.right
        } else {
            return None;
        };
        let left = if portal.holds(root, self.left) {
            self.left
        } else if self.holds(root, portal.left) {
            portal.left
        } else {
            return None;
        };
        (orient(root, right, left) >= 0.0).then_some(Cone { right, left })
    }

    /// The cone narrowed to another cone (both seen from `root` within less than 180°).
    #[inline]
    fn narrowed(&self, root: [f64; 2], other: &Cone) -> Option<Cone> {
        let right = if orient(root, self.right, other.right) > 0.0 {
            other.right
        } else {
            self.right
        };
        let left = if orient(root, other.left, self.left) > 0.0 {
            other.left
        } else {
            self.left
        };
        (orient(root, right, left) >= 0.0).then_some(Cone { right, left })
    }
}

/// The cone of directions from `root` through a portal, when the portal lies ahead of it.
#[inline]
fn portal_cone(root: [f64; 2], p: &Portal) -> Option<Cone> {
    let line = f64::from(p.line) * TILE;
    let (lo, hi) = (f64::from(p.lo) * TILE, f64::from(p.hi) * TILE);
    // Seen from a root behind the side, which end is on the right follows from the side
    // alone (the sign of orient(root, lo end, hi end) is that of the side's outward normal
    // crossed with its direction).
    let (ahead, right, left) = match p.side() {
        Side::West => (root[0] > line, [line, hi], [line, lo]),
        Side::East => (root[0] < line, [line, lo], [line, hi]),
        Side::South => (root[1] > line, [lo, line], [hi, line]),
        Side::North => (root[1] < line, [hi, line], [lo, line]),
    };
    ahead.then_some(Cone { right, left })
}

/// A rectangle to visit and the cone it is seen through.
type Pending = (u32, Cone);

/// Working memory of scans.
#[derive(Debug, Default, Clone)]
pub(crate) struct ScanScratch {
    stack: Vec<Pending>,
    /// Per rectangle and axis, the scan that last entered it along the root's grid line of
    /// that axis (each does so once: several routes lead there along one ray).
    along: Vec<u32>,
    scan: u32,
}

impl ScanScratch {
    fn begin(&mut self, rects: usize) {
        self.stack.clear();
        if self.along.len() < 2 * rects {
            self.along = vec![0; 2 * rects];
            self.scan = 0;
        }
        self.scan = self.scan.wrapping_add(1);
        if self.scan == 0 {
            self.along.fill(0);
            self.scan = 1;
        }
    }

    /// Whether the rectangle is entered along the root's line through `ray` (a point on it)
    /// for the first time in this scan.
    #[inline]
    fn first_along(&mut self, rect: u32, root: [f64; 2], ray: [f64; 2]) -> bool {
        let axis = usize::from(ray[1] == root[1]);
        let seen = &mut self.along[rect as usize * 2 + axis];
        let first = *seen != self.scan;
        *seen = self.scan;
        first
    }
}

/// The one-ray cone along the grid line through the root, into the rectangle across a contact
/// on that line: when the root lies on the contact's line, outside it or at one of its ends.
#[inline]
fn along_cone(root: [f64; 2], p: &Portal) -> Option<Cone> {
    let line = f64::from(p.line) * TILE;
    let (lo, hi) = (f64::from(p.lo) * TILE, f64::from(p.hi) * TILE);
    let vertical = matches!(p.side(), Side::West | Side::East);
    let (on, u) = if vertical {
        (root[0] == line, root[1])
    } else {
        (root[1] == line, root[0])
    };
    if !on || (lo < u && u < hi) {
        return None;
    }
    // The ray's direction is given by a point on the run other than the root: its near end,
    // or its far end when the run starts at the root.
    // Outside the run: its near end; at one end of it: the other end.
    let near = if lo > u || hi == u { lo } else { hi };
    let point = if vertical { [line, near] } else { [near, line] };
    Some(Cone {
        right: point,
        left: point,
    })
}

/// The one-ray cone along the grid line through the root that crosses a contact's side line
/// exactly at one of the contact's ends (the ray touches the end of whatever wall the side
/// holds there): `Some((cone, far))` when the contact lies ahead of the root, the root's line
/// meets the contact at an end, and the side beyond that end is no wall (else the ray would
/// squeeze between the two).
#[inline]
fn past_end(root: [f64; 2], p: &Portal) -> Option<Cone> {
    let line = f64::from(p.line) * TILE;
    let (lo, hi) = (f64::from(p.lo) * TILE, f64::from(p.hi) * TILE);
    let (ahead, along) = match p.side() {
        Side::West => (root[0] > line, root[1]),
        Side::East => (root[0] < line, root[1]),
        Side::South => (root[1] > line, root[0]),
        Side::North => (root[1] < line, root[0]),
    };
    if !ahead {
        return None;
    }
    let end = if along == lo && p.ends_walled & 1 == 0 {
        lo
    } else if along == hi && p.ends_walled & 2 == 0 {
        hi
    } else {
        return None;
    };
    let point = match p.side() {
        Side::West | Side::East => [line, end],
        Side::South | Side::North => [end, line],
    };
    Some(Cone {
        right: point,
        left: point,
    })
}

/// Whether the root lies on the line of one of the rectangle's sides.
#[inline]
fn on_side_line(index: &TerrainIndex, rect: u32, root: [f64; 2]) -> bool {
    let r = &index.rects[rect as usize];
    let line = |v: i32| f64::from(v) * TILE;
    root[0] == line(r.x0) || root[0] == line(r.x1) || root[1] == line(r.z0) || root[1] == line(r.z1)
}

/// Calls `visit(rect, cone)` for the rectangles seen from `root` (`None`: a root rectangle,
/// seen whole). `visit` returns true to stop the scan. Returns whether it was stopped.
pub(crate) fn scan(
    index: &TerrainIndex,
    root: [f64; 2],
    roots: &[u32],
    scratch: &mut ScanScratch,
    visit: impl FnMut(u32, Option<&Cone>) -> bool,
) -> bool {
    scan_within(index, root, roots, None, scratch, visit)
}

/// [`scan`] of only the directions of `limits` (each less than 180° or one ray, anywhere
/// around the root; `None`: every direction): the cones leaving the root rectangles are
/// clipped to each limit, so nothing outside them is visited past the roots. The roots are
/// still visited whole: the caller filters their content by direction.
pub(crate) fn scan_within(
    index: &TerrainIndex,
    root: [f64; 2],
    roots: &[u32],
    limits: Option<&[Cone]>,
    scratch: &mut ScanScratch,
    visit: impl FnMut(u32, Option<&Cone>) -> bool,
) -> bool {
    scan_where(index, root, roots, limits, |_| true, scratch, visit)
}

/// [`scan`] of the rectangles past the roots for which `enter` holds: the scan neither visits
/// the others nor looks through them. So a scan of the rectangles that meet a convex region
/// holding the root sees all of that region it would see (a ray from the root that leaves the
/// region never comes back to it).
pub(crate) fn scan_inside(
    index: &TerrainIndex,
    root: [f64; 2],
    roots: &[u32],
    enter: impl Fn(u32) -> bool,
    scratch: &mut ScanScratch,
    visit: impl FnMut(u32, Option<&Cone>) -> bool,
) -> bool {
    scan_where(index, root, roots, None, enter, scratch, visit)
}

fn scan_where(
    index: &TerrainIndex,
    root: [f64; 2],
    roots: &[u32],
    limits: Option<&[Cone]>,
    enter: impl Fn(u32) -> bool,
    scratch: &mut ScanScratch,
    mut visit: impl FnMut(u32, Option<&Cone>) -> bool,
) -> bool {
    scratch.begin(index.rects.len());
    for &rect in roots {
        if visit(rect, None) {
            return true;
        }
        for p in index.portals_of(rect) {
            if let Some(cone) = portal_cone(root, p) {
                match limits {
                    None => scratch.stack.push((p.to, cone)),
                    Some(limits) => {
                        for limit in limits {
                            if let Some(clipped) = limit.clip(root, &cone) {
                                scratch.stack.push((p.to, clipped));
                            }
                        }
                    }
                }
            }
        }
        if on_side_line(index, rect, root) {
            for p in index.contacts_of(rect) {
                if let Some(cone) = along_cone(root, p).or_else(|| past_end(root, p)) {
                    let allowed = limits.map_or(true, |limits| {
                        limits.iter().any(|l| l.holds_direction(root, cone.right))
                    });
                    if allowed
                        && !roots.contains(&p.to)
                        && scratch.first_along(p.to, root, cone.right)
                    {
                        scratch.stack.push((p.to, cone));
                    }
                }
            }
        }
    }
    while let Some((rect, cone)) = scratch.stack.pop() {
        if !enter(rect) {
            continue;
        }
        if visit(rect, Some(&cone)) {
            scratch.stack.clear();
            return true;
        }
        for p in index.portals_of(rect) {
            if let Some(through) = portal_cone(root, p) {
                if let Some(next) = cone.narrowed(root, &through) {
                    scratch.stack.push((p.to, next));
                }
            }
        }
        if on_side_line(index, rect, root) {
            for p in index.contacts_of(rect) {
                if let Some(ray) = along_cone(root, p).or_else(|| past_end(root, p)) {
                    if cone.holds(root, ray.right) && scratch.first_along(p.to, root, ray.right) {
                        scratch.stack.push((p.to, ray));
                    }
                }
            }
        }
    }
    false
}

/// A point the scan looks for, with the rectangles of the free space it may be reached in.
pub(crate) struct Target<'a> {
    pub point: [f64; 2],
    pub roots: &'a [u32],
}

/// Whether `target` is in sight of `root` (in the free space of its rectangles `roots`): the
/// scan of the one direction towards it, which visits only the rectangles the segment runs
/// through (both sides where it passes exactly through a portal's end), and decides as the
/// full scan would.
pub(crate) fn sees_point(
    index: &TerrainIndex,
    root: [f64; 2],
    roots: &[u32],
    target: &Target<'_>,
    scratch: &mut ScanScratch,
) -> bool {
    let t = target.point;
    let ray = [Cone { right: t, left: t }];
    scan_within(index, root, roots, Some(&ray), scratch, |rect, cone| {
        target.roots.contains(&rect) && cone.map_or(true, |k| k.holds(root, t))
    })
}

/// Everything `root` sees from the free space of its rectangles `roots`: calls
/// `corner(c, cone)` for every corner on a rectangle in sight (possibly more than once), with
/// the cone the rectangle is seen through (`None`: seen whole), so that the caller tests the
/// corner against it after its own cheaper tests; returns true as soon as `target` is in
/// sight.
pub(crate) fn sees(
    index: &TerrainIndex,
    root: [f64; 2],
    roots: &[u32],
    target: Option<&Target<'_>>,
    scratch: &mut ScanScratch,
    mut corner: impl FnMut(&RectCorner, Option<&Cone>),
) -> bool {
    scan(index, root, roots, scratch, |rect, cone| {
        if let Some(target) = target {
            if target.roots.contains(&rect) && cone.map_or(true, |k| k.holds(root, target.point)) {
                return true;
            }
        }
        for c in index.corners_of(rect) {
            corner(c, cone);
        }
        false
    })
}
