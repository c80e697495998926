//! The world's units (a region's and a tile's side), the geometric predicates every query
//! relies on, and the closed axis-aligned boxes of the x-z plane the searches bound things
//! with, in one place (the predicates are the crate's own).
//!
//! Queries decide "which side of this line", "through this corner or past it" with exact
//! orientation tests instead of tolerances: the inputs are f32 positions and 20-unit grid
//! points, which f64 represents exactly, and the adaptive predicate returns the sign of the
//! exact determinant. The movement module reproduces the game server's own float arithmetic
//! instead, with the server's constants named there.
//!
//! Boxes (`Bounds`) are closed and plain floating point, with no slack of their own: the
//! searches grow a box themselves where rounding matters.

pub(crate) mod server_arith;

/// Side of a region in world units.
pub const REGION_SIZE: f32 = 1920.0;

/// Side of a tile in world units, in the f64 the queries compute in: a region is 96 × 96
/// tiles ([`jmxv::nvm::TILE_SIZE`]).
pub const TILE: f64 = jmxv::nvm::TILE_SIZE as f64;

/// The sign of `v`: 1, −1, or 0 for zero and NaN (which no side claims).
#[inline]
pub(crate) fn sign(v: f64) -> i8 {
    (v > 0.0) as i8 - (v < 0.0) as i8
}

/// Twice the signed area of the triangle (a, b, c), with the exact sign: positive when c lies
/// to the left of the directed line a → b, negative to the right, zero on it.
///
/// The plain floating-point determinant decides whenever it exceeds its worst-case rounding
/// error (Shewchuk's first-stage bound); only near-degenerate triples take the adaptive exact
/// path. One well-predicted branch on the common path, which matters in the visibility scans.
#[inline]
pub(crate) fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    // (3 + 16ε)ε, ε = 2^-53: the bound of the first stage of orient2d.
    const BOUND: f64 = (3.0 + 16.0 * f64::EPSILON / 2.0) * (f64::EPSILON / 2.0);
    let left = (a[0] - c[0]) * (b[1] - c[1]);
    let right = (a[1] - c[1]) * (b[0] - c[0]);
    let det = left - right;
    if det.abs() > BOUND * (left.abs() + right.abs()) {
        return det;
    }
    orient_near_degenerate(a, b, c, det)
}

/// [`orient`] where the filter could not decide: out of line, so that the common path stays
/// small enough to inline everywhere.
#[cold]
#[inline(never)]
fn orient_near_degenerate(a: [f64; 2], b: [f64; 2], c: [f64; 2], det: f64) -> f64 {
    const SMALL: f64 = (1u64 << 25) as f64;
    // Integers below 2^25 (grid points, world coordinates of lattice points): every
    // difference, product and the determinant were exact.
    if [a, b, c]
        .iter()
        // (A cast, not `trunc`, which is a library call on the baseline x86-64 target.)
        .all(|p| {
            p.iter()
                .all(|&v| v.abs() < SMALL && v == f64::from(v as i32))
        })
    {
        return det;
    }
    let coord = |p: [f64; 2]| robust::Coord { x: p[0], y: p[1] };
    robust::orient2d(coord(a), coord(b), coord(c))
}

/// The smallest positive radius of a walker ([`PathIndex::find_path`] with a radius): the octagon
/// around an obstacle corner has sides of 0.83 r, which the f64 world coordinates (steps of
/// 6e-11 below 2^19) must represent with room to spare for its shape to stay convex.
///
/// [`PathIndex::find_path`]: crate::PathIndex::find_path
pub const MIN_RADIUS: f64 = 1e-6;

/// Whether `p` lies in the interior of the convex polygon `poly` (vertices counter-clockwise):
/// strictly to the left of every edge. Exact for the given vertices.
pub(crate) fn convex_contains_strictly(poly: &[[f64; 2]], p: [f64; 2]) -> bool {
    edges(poly).all(|(a, b)| orient(a, b, p) > 0.0)
}

/// Whether the closed segment p–q meets the interior of the convex polygon `poly` (vertices
/// counter-clockwise, no two equal). Touching the boundary, or running along an edge, is not
/// entering. Exact for the given points.
///
/// Separating axes: the segment misses the interior exactly when a line weakly separates them,
/// and for convex polygons one can be found among the lines of the polygon's edges (both ends
/// on or right of an edge) and the segment's own line (the polygon on one closed side).
pub(crate) fn segment_enters_convex(poly: &[[f64; 2]], p: [f64; 2], q: [f64; 2]) -> bool {
    if p == q {
        return convex_contains_strictly(poly, p);
    }
    if edges(poly).any(|(a, b)| orient(a, b, p) <= 0.0 && orient(a, b, q) <= 0.0) {
        return false;
    }
    let (mut left, mut right) = (false, false);
    for &v in poly {
        let side = orient(p, q, v);
        left |= side > 0.0;
        right |= side < 0.0;
    }
    left && right
}

/// How much the stretch [`interior_stretch`] returns is narrowed at each end, as a fraction
/// of the segment: for segments of a tile side (20 units) 2e-8 units, far above the
/// rounding of its arithmetic on world coordinates (about 1e-10 units), so that a point of
/// the segment outside the polygon's interior is never inside the stretch.
pub(crate) const STRETCH_SLACK: f64 = 1e-9;

/// The part of the segment a–b inside the interior of the convex polygon `poly` (vertices
/// counter-clockwise), as the open interval of the parameter u (point a + u (b − a)),
/// narrowed by [`STRETCH_SLACK`] at each end; `None` when that leaves nothing. Plain floating
/// point: an under-approximation, for tests that must never call a free point covered.
pub(crate) fn interior_stretch(poly: &[[f64; 2]], a: [f64; 2], b: [f64; 2]) -> Option<(f64, f64)> {
    let d = [b[0] - a[0], b[1] - a[1]];
    let (mut from, mut to) = (f64::NEG_INFINITY, f64::INFINITY);
    for (v, w) in edges(poly) {
        let e = [w[0] - v[0], w[1] - v[1]];
        // Strictly left of the edge where c0 + u c1 > 0.
        let c0 = e[0] * (a[1] - v[1]) - e[1] * (a[0] - v[0]);
        let c1 = e[0] * d[1] - e[1] * d[0];
        if c1 == 0.0 {
            if c0 <= 0.0 {
                return None;
            }
        } else if c1 > 0.0 {
            from = from.max(-c0 / c1);
        } else {
            to = to.min(-c0 / c1);
        }
    }
    let (from, to) = (from + STRETCH_SLACK, to - STRETCH_SLACK);
    (from < to).then_some((from, to))
}

/// The edges of a polygon, closing it.
fn edges(poly: &[[f64; 2]]) -> impl Iterator<Item = ([f64; 2], [f64; 2])> + '_ {
    poly.iter()
        .zip(poly.iter().cycle().skip(1))
        .map(|(&a, &b)| (a, b))
}

/// A closed axis-aligned box of the x-z plane: the points `p` with `min[k] ≤ p[k] ≤ max[k]`
/// on both axes (x, then z). A point is a box of no size; [`Bounds::EMPTY`] holds nothing.
/// Plain floating point: each operation is the one obvious expression, no rounding slack.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bounds {
    /// The low corner (x, z).
    pub min: [f64; 2],
    /// The high corner (x, z).
    pub max: [f64; 2],
}

impl Bounds {
    /// The box of no points (low corner +∞, high corner −∞), which extending by a point makes
    /// that point's box.
    pub const EMPTY: Bounds = Bounds {
        min: [f64::INFINITY; 2],
        max: [f64::NEG_INFINITY; 2],
    };

    /// The box of the single point `p`.
    pub fn point(p: [f64; 2]) -> Bounds {
        Bounds { min: p, max: p }
    }

    /// The box of the segment `[a, b]`.
    pub fn of_segment([a, b]: [[f64; 2]; 2]) -> Bounds {
        Bounds {
            min: [a[0].min(b[0]), a[1].min(b[1])],
            max: [a[0].max(b[0]), a[1].max(b[1])],
        }
    }

    /// The box of `points`: [`Bounds::EMPTY`] extended by each in turn.
    pub fn of_points(points: impl IntoIterator<Item = [f64; 2]>) -> Bounds {
        let mut b = Bounds::EMPTY;
        for p in points {
            b.extend(p);
        }
        b
    }

    /// Grows the box to hold `p` too.
    pub fn extend(&mut self, p: [f64; 2]) {
        self.min = [self.min[0].min(p[0]), self.min[1].min(p[1])];
        self.max = [self.max[0].max(p[0]), self.max[1].max(p[1])];
    }

    /// The least box holding both boxes.
    pub fn union(&self, other: &Bounds) -> Bounds {
        Bounds {
            min: [self.min[0].min(other.min[0]), self.min[1].min(other.min[1])],
            max: [self.max[0].max(other.max[0]), self.max[1].max(other.max[1])],
        }
    }

    /// The box grown by `margin` on every side (`min − margin`, `max + margin`).
    pub fn grown(&self, margin: f64) -> Bounds {
        Bounds {
            min: [self.min[0] - margin, self.min[1] - margin],
            max: [self.max[0] + margin, self.max[1] + margin],
        }
    }

    /// Its corners counter-clockwise from the low one: (min x, min z), (max x, min z),
    /// (max x, max z), (min x, max z).
    pub fn corners(&self) -> [[f64; 2]; 4] {
        let (lo, hi) = (self.min, self.max);
        [
            [lo[0], lo[1]],
            [hi[0], lo[1]],
            [hi[0], hi[1]],
            [lo[0], hi[1]],
        ]
    }

    /// Its centre, `(min + max) / 2` per axis.
    pub fn centre(&self) -> [f64; 2] {
        [
            (self.min[0] + self.max[0]) / 2.0,
            (self.min[1] + self.max[1]) / 2.0,
        ]
    }

    /// Whether it holds the point `p` (its boundary included).
    pub fn holds(&self, p: [f64; 2]) -> bool {
        (self.min[0]..=self.max[0]).contains(&p[0]) && (self.min[1]..=self.max[1]).contains(&p[1])
    }

    /// Whether it holds every point of `other`.
    pub fn covers(&self, other: &Bounds) -> bool {
        self.min[0] <= other.min[0]
            && self.min[1] <= other.min[1]
            && self.max[0] >= other.max[0]
            && self.max[1] >= other.max[1]
    }

    /// Whether the two (closed) boxes share a point.
    pub fn meets(&self, other: &Bounds) -> bool {
        self.min[0] <= other.max[0]
            && self.max[0] >= other.min[0]
            && self.min[1] <= other.max[1]
            && self.max[1] >= other.min[1]
    }

    /// The part of both boxes, where they share a point.
    pub fn intersection(&self, other: &Bounds) -> Option<Bounds> {
        let part = Bounds {
            min: [self.min[0].max(other.min[0]), self.min[1].max(other.min[1])],
            max: [self.max[0].min(other.max[0]), self.max[1].min(other.max[1])],
        };
        (part.min[0] <= part.max[0] && part.min[1] <= part.max[1]).then_some(part)
    }

    /// The least (Euclidean) distance between a point of it and a point of `other`: zero where
    /// they meet.
    pub fn gap(&self, other: &Bounds) -> f64 {
        let dx = (self.min[0] - other.max[0])
            .max(other.min[0] - self.max[0])
            .max(0.0);
        let dz = (self.min[1] - other.max[1])
            .max(other.min[1] - self.max[1])
            .max(0.0);
        (dx * dx + dz * dz).sqrt()
    }

    /// Its four numbers' bits, `[min x, min z, max x, max z]`: a key for maps of boxes.
    pub fn to_bits(self) -> [u64; 4] {
        [self.min[0], self.min[1], self.max[0], self.max[1]].map(f64::to_bits)
    }

    /// The box whose [`Bounds::to_bits`] are `bits`.
    pub fn from_bits(bits: [u64; 4]) -> Bounds {
        let [x0, z0, x1, z1] = bits.map(f64::from_bits);
        Bounds {
            min: [x0, z0],
            max: [x1, z1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_against_a_square() {
        let square = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]];
        // Through, along an edge, touching a vertex, outside, inside, ending on the boundary.
        assert!(segment_enters_convex(&square, [-1.0, 1.0], [3.0, 1.0]));
        assert!(!segment_enters_convex(&square, [-1.0, 0.0], [3.0, 0.0]));
        assert!(!segment_enters_convex(&square, [-1.0, 1.0], [1.0, 3.0]));
        assert!(!segment_enters_convex(&square, [-1.0, 3.0], [3.0, 3.0]));
        assert!(segment_enters_convex(&square, [0.5, 0.5], [0.6, 0.6]));
        assert!(segment_enters_convex(&square, [0.5, 0.5], [0.5, 0.5]));
        assert!(!segment_enters_convex(&square, [2.0, 2.0], [2.0, 2.0]));
        assert!(!segment_enters_convex(&square, [-1.0, 1.0], [0.0, 1.0]));
        assert!(segment_enters_convex(&square, [-1.0, 1.0], [1e-300, 1.0]));
        // The diagonal, from vertex to vertex, crosses the interior.
        assert!(segment_enters_convex(&square, [0.0, 0.0], [2.0, 2.0]));
        // Through the middle: the inside is u in (0.25, 0.75), narrowed; along an edge: none.
        let (from, to) = interior_stretch(&square, [-1.0, 1.0], [3.0, 1.0]).unwrap();
        assert!(from > 0.25 && from < 0.25 + 2.0 * STRETCH_SLACK);
        assert!(to < 0.75 && to > 0.75 - 2.0 * STRETCH_SLACK);
        assert_eq!(interior_stretch(&square, [-1.0, 0.0], [3.0, 0.0]), None);
        assert!(!convex_contains_strictly(&square, [2.0, 1.0]));
    }

    #[test]
    fn exact_where_naive_arithmetic_fails() {
        assert!(orient([0.0, 0.0], [1.0, 0.0], [0.5, 1.0]) > 0.0);
        assert!(orient([0.0, 0.0], [1.0, 0.0], [0.5, -1.0]) < 0.0);
        // Collinear points whose naive determinant rounds away from zero.
        let a = [0.1_f32 as f64, 0.1_f32 as f64];
        let b = [1920.0 - 0.1_f32 as f64, 1920.0 - 0.1_f32 as f64];
        let c = [960.0, 960.0];
        assert_eq!(orient(a, b, c), 0.0);
        let above = [960.0, 960.0 + f64::EPSILON * 1024.0];
        assert!(orient(a, b, above) > 0.0);
    }

    /// The sign against an exact integer determinant, on points of a 1/64 grid in world
    /// range, many of them collinear or nearly so (where the fast path must defer).
    #[test]
    fn sign_matches_exact_integer_arithmetic() {
        let mut rng = crate::rng::SplitMix64::new(3);
        let scale = 64.0;
        for i in 0..200_000 {
            let mut p = || (rng.next_u64() % (500_000 * 64)) as i64;
            let (a, b) = ([p(), p()], [p(), p()]);
            // Every other triple: c on the line a–b (or one grid step off it).
            let c = if i % 2 == 0 {
                let k = (rng.next_u64() % 7) as i64 - 3;
                let off = (rng.next_u64() % 3) as i64 - 1;
                [
                    a[0] + k * (b[0] - a[0]) / 4,
                    a[1] + k * (b[1] - a[1]) / 4 + off,
                ]
            } else {
                [p(), p()]
            };
            let exact = i128::from(b[0] - a[0]) * i128::from(c[1] - a[1])
                - i128::from(b[1] - a[1]) * i128::from(c[0] - a[0]);
            let scaled = |q: [i64; 2]| [q[0] as f64 / scale, q[1] as f64 / scale];
            // The same triple in whole numbers too (the integer shortcut).
            let whole = |q: [i64; 2]| [q[0] as f64, q[1] as f64];
            for got in [
                orient(scaled(a), scaled(b), scaled(c)),
                orient(whole(a), whole(b), whole(c)),
            ] {
                assert_eq!(
                    got.partial_cmp(&0.0),
                    Some(exact.cmp(&0)),
                    "{a:?} {b:?} {c:?}"
                );
            }
        }
    }
}
