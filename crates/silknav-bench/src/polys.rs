//! A [`RectMesh`] as the input Detour takes: convex polygons of at most a few vertices each
//! (Detour's `DT_VERTS_PER_POLYGON` is 6), with the polygon across every edge.
//!
//! A rectangle of the mesh may carry many T-junction vertices on its sides, so it is cut into
//! pieces along diagonals between its own vertices: first into triangles (ears of positive
//! area, never leaving a remainder whose vertices are all on one line), then the triangles are
//! merged back, longest shared edge first, while the union stays convex and small enough —
//! the way Recast merges its polygons. Pieces only ever use the rectangle's vertices, so two
//! neighbouring rectangles still meet edge to edge, and the polygon across each edge is found
//! by the reversed edge.

use crate::rects::RectMesh;
use std::collections::HashMap;

/// No polygon across an edge.
pub const NO_NEIGHBOUR: u32 = u32::MAX;

/// Convex polygons over a mesh's vertices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvexPolys {
    /// Per polygon, its vertex indices counter-clockwise (x east, z north).
    pub polygons: Vec<Vec<u32>>,
    /// Per polygon, per edge `k` (from vertex `k` to vertex `k + 1`), the polygon across it or
    /// [`NO_NEIGHBOUR`].
    pub neighbours: Vec<Vec<u32>>,
}

impl ConvexPolys {
    /// The rectangles of `mesh` cut into convex pieces of at most `max_vertices` (≥ 3).
    ///
    /// # Panics
    /// When `max_vertices < 3`, or when a polygon of the mesh is not convex and
    /// counter-clockwise (a [`RectMesh`] always is).
    pub fn new(mesh: &RectMesh, max_vertices: usize) -> ConvexPolys {
        assert!(max_vertices >= 3, "a polygon has at least 3 vertices");
        let point = |v: u32| mesh.vertices[v as usize];
        let mut polygons = Vec::with_capacity(mesh.polygons.len());
        for polygon in &mesh.polygons {
            if polygon.len() <= max_vertices {
                polygons.push(polygon.clone());
            } else {
                polygons.extend(merge(triangulate(polygon, &point), max_vertices, &point));
            }
        }
        let mut by_edge: HashMap<(u32, u32), u32> = HashMap::new();
        for (p, polygon) in polygons.iter().enumerate() {
            for k in 0..polygon.len() {
                let edge = (polygon[k], polygon[(k + 1) % polygon.len()]);
                let previous = by_edge.insert(edge, p as u32);
                assert!(previous.is_none(), "edge {edge:?} is in two polygons");
            }
        }
        let neighbours = polygons
            .iter()
            .map(|polygon| {
                (0..polygon.len())
                    .map(|k| {
                        let (a, b) = (polygon[k], polygon[(k + 1) % polygon.len()]);
                        by_edge.get(&(b, a)).copied().unwrap_or(NO_NEIGHBOUR)
                    })
                    .collect()
            })
            .collect();
        ConvexPolys {
            polygons,
            neighbours,
        }
    }
}

/// Twice the signed area of triangle `a b c` (positive counter-clockwise); exact for the
/// mesh's integer coordinates.
fn cross(a: [i64; 2], b: [i64; 2], c: [i64; 2]) -> i64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// Twice the area of a polygon (shoelace).
fn area(polygon: &[u32], point: &impl Fn(u32) -> [i64; 2]) -> i64 {
    let n = polygon.len();
    (0..n)
        .map(|k| {
            let (a, b) = (point(polygon[k]), point(polygon[(k + 1) % n]));
            a[0] * b[1] - a[1] * b[0]
        })
        .sum()
}

/// A convex counter-clockwise polygon (collinear vertices allowed) as triangles of positive
/// area over its own vertices.
fn triangulate(polygon: &[u32], point: &impl Fn(u32) -> [i64; 2]) -> Vec<Vec<u32>> {
    let mut rest = polygon.to_vec();
    let mut triangles = Vec::with_capacity(polygon.len() - 2);
    while rest.len() > 3 {
        let n = rest.len();
        // An ear: a strictly convex vertex whose removal leaves a polygon of positive area
        // (clipping the wrong ear can leave only collinear vertices behind).
        let ear = (0..n)
            .find(|&k| {
                let (a, b, c) = (rest[(k + n - 1) % n], rest[k], rest[(k + 1) % n]);
                if cross(point(a), point(b), point(c)) <= 0 {
                    return false;
                }
                let mut left = rest.clone();
                left.remove(k);
                area(&left, point) > 0
            })
            .unwrap_or_else(|| panic!("polygon {polygon:?} is not convex counter-clockwise"));
        triangles.push(vec![
            rest[(ear + n - 1) % n],
            rest[ear],
            rest[(ear + 1) % n],
        ]);
        rest.remove(ear);
    }
    assert!(
        cross(point(rest[0]), point(rest[1]), point(rest[2])) > 0,
        "polygon {polygon:?} is not convex counter-clockwise"
    );
    triangles.push(rest);
    triangles
}

/// Merges neighbouring pieces, longest shared edge first, while the union is convex (straight
/// angles allowed) and has at most `max_vertices` vertices.
fn merge(
    mut pieces: Vec<Vec<u32>>,
    max_vertices: usize,
    point: &impl Fn(u32) -> [i64; 2],
) -> Vec<Vec<u32>> {
    loop {
        let mut best: Option<(i64, usize, usize, Vec<u32>)> = None;
        for i in 0..pieces.len() {
            for j in i + 1..pieces.len() {
                let Some((length, union)) = join(&pieces[i], &pieces[j], point) else {
                    continue;
                };
                if union.len() > max_vertices || !convex(&union, point) {
                    continue;
                }
                if best.as_ref().map_or(true, |b| length > b.0) {
                    best = Some((length, i, j, union));
                }
            }
        }
        let Some((_, i, j, union)) = best else {
            return pieces;
        };
        pieces[i] = union;
        pieces.swap_remove(j);
    }
}

/// The union of two pieces sharing an edge (`a → b` in one, `b → a` in the other), with the
/// shared edge's squared length; `None` when they share none.
fn join(p: &[u32], q: &[u32], point: &impl Fn(u32) -> [i64; 2]) -> Option<(i64, Vec<u32>)> {
    let (n, m) = (p.len(), q.len());
    for k in 0..n {
        let (a, b) = (p[k], p[(k + 1) % n]);
        let Some(l) = (0..m).find(|&l| q[l] == b && q[(l + 1) % m] == a) else {
            continue;
        };
        // p from b around to a, then q from a around to b, leaving out the shared ends once.
        let mut union = Vec::with_capacity(n + m - 2);
        union.extend((0..n).map(|i| p[(k + 1 + i) % n]));
        union.extend((2..m).map(|i| q[(l + i) % m]));
        let (pa, pb) = (point(a), point(b));
        let length = (pa[0] - pb[0]).pow(2) + (pa[1] - pb[1]).pow(2);
        return Some((length, union));
    }
    None
}

/// Whether every turn of a counter-clockwise polygon is left or straight.
fn convex(polygon: &[u32], point: &impl Fn(u32) -> [i64; 2]) -> bool {
    let n = polygon.len();
    (0..n).all(|k| {
        let (a, b, c) = (polygon[k], polygon[(k + 1) % n], polygon[(k + 2) % n]);
        cross(point(a), point(b), point(c)) >= 0
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rects::rect;

    /// Checks the pieces of one polygon: convex, small, of positive area, summing to the
    /// polygon's area, over its vertices only.
    fn check(mesh: &RectMesh, polys: &ConvexPolys, max_vertices: usize) {
        let point = |v: u32| mesh.vertices[v as usize];
        let total: i64 = mesh.polygons.iter().map(|p| area(p, &point)).sum();
        let pieces: i64 = polys.polygons.iter().map(|p| area(p, &point)).sum();
        assert_eq!(total, pieces);
        for (p, polygon) in polys.polygons.iter().enumerate() {
            assert!(polygon.len() <= max_vertices && polygon.len() >= 3);
            assert!(convex(polygon, &point), "piece {p} {polygon:?}");
            assert!(area(polygon, &point) > 0);
            for (k, &n) in polys.neighbours[p].iter().enumerate() {
                if n == NO_NEIGHBOUR {
                    continue;
                }
                // The neighbour has the same edge, reversed.
                let (a, b) = (polygon[k], polygon[(k + 1) % polygon.len()]);
                let q = &polys.polygons[n as usize];
                let l = q.iter().position(|&v| v == b).unwrap();
                assert_eq!(q[(l + 1) % q.len()], a);
                assert_eq!(polys.neighbours[n as usize][l], p as u32);
            }
        }
    }

    #[test]
    fn a_rectangle_with_many_junctions_is_cut_into_small_convex_pieces() {
        // A wide rectangle on top of eight narrow ones and beside four short ones: 4 + 7 + 3
        // vertices on its sides.
        let mut rects = vec![rect(0, 10, 80, 20)];
        rects.extend((0..8).map(|i| rect(i * 10, 0, i * 10 + 10, 10)));
        rects.extend((0..3).map(|i| rect(80, 10 + i * 3, 90, 13 + i * 3)));
        rects.push(rect(80, 19, 90, 20));
        let mesh = RectMesh::new(&rects);
        assert_eq!(mesh.polygons[0].len(), 4 + 7 + 3);
        for max in [3, 4, 6] {
            let polys = ConvexPolys::new(&mesh, max);
            check(&mesh, &polys, max);
            // Every side of a narrow rectangle below touches a piece of the wide one.
            let across_bottom = polys.neighbours[1..9]
                .iter()
                .filter(|n| n.iter().any(|&p| p != NO_NEIGHBOUR))
                .count();
            assert!(across_bottom >= 8, "{max}: {across_bottom}");
        }
    }

    #[test]
    fn collinear_runs_never_leave_a_flat_piece() {
        // Junctions on one side only: clipping the corners first would leave them flat.
        let mut rects = vec![rect(0, 0, 60, 10)];
        rects.extend((0..6).map(|i| rect(i * 10, 10, i * 10 + 10, 20)));
        let mesh = RectMesh::new(&rects);
        let polys = ConvexPolys::new(&mesh, 6);
        check(&mesh, &polys, 6);
    }
}
