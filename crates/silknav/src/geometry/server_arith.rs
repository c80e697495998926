//! The game server's float arithmetic, operation for operation.
//!
//! The server keeps positions, matrices, planes and edge lines as f32. Its x87 code runs with
//! 53-bit precision, so the products and sums it evaluates between two stores are IEEE double
//! operations, rounded to f32 where the server stores the value; where it computes in single
//! precision (its affine inverse), single precision is used here. Each function below follows
//! one routine of the server in its order of operations, with `f64` where the server
//! evaluates in double and `f32` where it stores (Rust never contracts a multiply and an add
//! into one rounding on its own, so the results are the server's to the bit). One caveat:
//! `sin` and `cos` of a yaw come from the platform's double routines, rounded to f32; the
//! server's C runtime may differ from them in the last bit of the double, which changes the
//! f32 only when the value lies within that bit of a rounding boundary.
//!
//! Terrain movement, object heights and object movement all use these routines
//! ([`crate::world::movement`], [`crate::objects`]).

/// A point in the xz plane, as the server's two-float vectors.
pub(crate) type Vec2 = [f32; 2];
/// A point in space: x, y, z.
pub(crate) type Vec3 = [f32; 3];
/// A segment in the xz plane: x0, z0, x1, z1.
pub(crate) type Line = [f32; 4];
/// A row-major 4×4 matrix for row vectors (`m[12..15]` the translation).
pub(crate) type Matrix = [f32; 16];

/// The step a point takes toward a cell's centre: the float 0.2 widened to double.
pub(crate) const NUDGE_STEP: f64 = 0.199_999_988_079_071_04;
/// How far a blocked point is pushed off an object edge: the float 0.01 widened to double.
pub(crate) const PUSH_OUT: f64 = 0.009_999_999_776_482_582;
/// The angle of one step of the 256 vertex directions, as the server stores it (a little
/// less than 2π / 256 = 0.0245436926).
const DIRECTION_STEP: f64 = 0.024_543_600_156_903_267;

/// Double of a float, for brevity.
#[inline(always)]
fn w(v: f32) -> f64 {
    f64::from(v)
}

/// The server's `Vec3_TransformCoord`: `v · m` without the w divide.
#[inline]
pub(crate) fn transform(m: &Matrix, v: Vec3) -> Vec3 {
    let (x, y, z) = (w(v[0]), w(v[1]), w(v[2]));
    [
        (w(m[4]) * y + x * w(m[0]) + w(m[8]) * z + w(m[12])) as f32,
        (w(m[1]) * x + w(m[5]) * y + w(m[9]) * z + w(m[13])) as f32,
        (w(m[2]) * x + w(m[6]) * y + w(m[10]) * z + w(m[14])) as f32,
    ]
}

/// The server's object placement: a rotation about +Y by `yaw`, then the translation
/// `position` (its `Matrix_RotationY` with the position stored into the last row).
pub(crate) fn local_to_world(yaw: f32, position: Vec3) -> Matrix {
    let sin = w(yaw).sin() as f32;
    let cos = w(yaw).cos() as f32;
    let mut m = [0.0; 16];
    m[15] = 1.0;
    m[5] = 1.0;
    m[0] = cos;
    m[2] = sin;
    m[8] = -sin;
    m[10] = cos;
    m[12] = position[0];
    m[13] = position[1];
    m[14] = position[2];
    m
}

/// The server's `Matrix_InverseAffine`, in single precision as the server computes it; a
/// matrix that is not affine (within 0.001) gives the identity.
pub(crate) fn inverse_affine(a: &Matrix) -> Matrix {
    let mut o = [0.0f32; 16];
    o[0] = 1.0;
    o[5] = 1.0;
    o[10] = 1.0;
    o[15] = 1.0;
    let tolerance = 0.001f32;
    if (a[15] - 1.0).abs() > tolerance
        || a[3].abs() > tolerance
        || a[7].abs() > tolerance
        || a[11].abs() > tolerance
    {
        return o;
    }
    let c0 = a[10] * a[5] - a[9] * a[6];
    let c1 = a[10] * a[4] - a[8] * a[6];
    let c2 = a[9] * a[4] - a[8] * a[5];
    let inv = 1.0f32 / (a[0] * c0 - a[1] * c1 + a[2] * c2);
    let neg = -inv;
    o[0] = c0 * inv;
    o[1] = (a[10] * a[1] - a[9] * a[2]) * neg;
    o[2] = (a[6] * a[1] - a[5] * a[2]) * inv;
    o[3] = 0.0;
    o[4] = c1 * neg;
    o[5] = (a[10] * a[0] - a[8] * a[2]) * inv;
    o[6] = (a[6] * a[0] - a[4] * a[2]) * neg;
    o[7] = 0.0;
    o[8] = c2 * inv;
    o[9] = neg * (a[9] * a[0] - a[8] * a[1]);
    o[10] = inv * (a[5] * a[0] - a[4] * a[1]);
    o[11] = 0.0;
    o[12] = -(o[0] * a[12] + o[4] * a[13] + a[14] * o[8]);
    o[13] = -(o[9] * a[14] + o[5] * a[13] + a[12] * o[1]);
    o[14] = -(o[10] * a[14] + o[6] * a[13] + a[12] * o[2]);
    o[15] = 1.0;
    o
}

/// The server's `Vec3_LengthSq`.
#[inline]
pub(crate) fn length_sq(v: Vec3) -> f32 {
    let (x, y, z) = (w(v[0]), w(v[1]), w(v[2]));
    (y * y + x * x + z * z) as f32
}

/// `a − b` component by component, in f32 as the server subtracts its vectors.
#[inline]
pub(crate) fn sub3(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// The server's `Vec3_Normalize` (a zero vector stays zero).
pub(crate) fn normalize3(v: Vec3) -> Vec3 {
    let length_sq = length_sq(v);
    let length = w(length_sq).sqrt() as f32;
    let inv = if length > 0.0 {
        (1.0 / w(length)) as f32
    } else {
        0.0
    };
    [
        (w(v[0]) * w(inv)) as f32,
        (w(inv) * w(v[1])) as f32,
        (w(inv) * w(v[2])) as f32,
    ]
}

/// The server's `Vec2_Normalize`.
pub(crate) fn normalize2(v: Vec2) -> Vec2 {
    let (x, z) = (w(v[0]), w(v[1]));
    let length_sq = (x * x + z * z) as f32;
    let length = w(length_sq).sqrt() as f32;
    let inv = if length > 0.0 {
        (1.0 / w(length)) as f32
    } else {
        0.0
    };
    [(x * w(inv)) as f32, (w(inv) * z) as f32]
}

/// A plane `a·x + b·y + c·z + d = 0` as the server keeps it: a, b, c, d.
pub(crate) type Plane = [f32; 4];

/// The server's `Plane_FromPoints`: the normal of `(p1 − p0) × (p2 − p0)`, normalised, and
/// `d = −n · p0`.
pub(crate) fn plane_from_points(p0: Vec3, p1: Vec3, p2: Vec3) -> Plane {
    let d = |a: f32, b: f32| (w(a) - w(b)) as f32;
    let (ax, ay, az) = (d(p1[0], p0[0]), d(p1[1], p0[1]), d(p1[2], p0[2]));
    let (bx, by, bz) = (d(p2[0], p0[0]), d(p2[1], p0[1]), d(p2[2], p0[2]));
    let n = normalize3([
        (w(az) * w(by) - w(bz) * w(ay)) as f32,
        (w(bz) * w(ax) - w(az) * w(bx)) as f32,
        (w(ay) * w(bx) - w(ax) * w(by)) as f32,
    ]);
    let dist = -(w(n[0]) * w(p0[0]) + w(n[1]) * w(p0[1]) + w(n[2]) * w(p0[2]));
    [n[0], n[1], n[2], dist as f32]
}

/// The height of a plane at (x, z) as the server solves for it; 0 on a vertical plane.
#[inline]
pub(crate) fn plane_height(plane: &Plane, x: f32, z: f32) -> f32 {
    let [a, b, c, d] = *plane;
    if b != 0.0 {
        (-((w(c) * w(z) + w(a) * w(x) + w(d)) / w(b))) as f32
    } else {
        0.0
    }
}

/// The server's `Line2_Intersect` of line A (an edge) and line B (a segment): 0 collinear,
/// 5 parallel, else 2 (both parameters in \[0, 1\]), 3 (only A's), 4 (only B's), 1
/// (neither). The point, computed on B, is given whenever the lines are not parallel: the
/// server writes it out before it classifies, so callers that pass their own point see it
/// replaced even when the answer is not 2.
#[inline]
pub(crate) fn intersect(a: &Line, b: &Line) -> (u8, Option<Vec2>) {
    let d = |p: f32, q: f32| (w(p) - w(q)) as f32;
    let diff_z = d(b[1], a[1]);
    let a_dx = d(a[2], a[0]);
    let diff_x = d(b[0], a[0]);
    let a_dz = d(a[3], a[1]);
    let b_dx = d(b[2], b[0]);
    let b_dz = d(b[3], b[1]);
    let num_b = (w(a_dx) * w(diff_z) - w(a_dz) * w(diff_x)) as f32;
    let denom = (w(a_dz) * w(b_dx) - w(a_dx) * w(b_dz)) as f32;
    if denom == 0.0 {
        return (if num_b != 0.0 { 5 } else { 0 }, None);
    }
    let t_b = (w(num_b) / w(denom)) as f32;
    let t_a = ((w(diff_z) * w(b_dx) - w(diff_x) * w(b_dz)) / w(denom)) as f32;
    let point = [
        (w(b_dx) * w(t_b) + w(b[0])) as f32,
        (w(b_dz) * w(t_b) + w(b[1])) as f32,
    ];
    let in_a = (0.0..=1.0).contains(&t_a);
    let in_b = (0.0..=1.0).contains(&t_b);
    let code = match (in_a, in_b) {
        (true, true) => 2,
        (true, false) => 3,
        (false, true) => 4,
        (false, false) => 1,
    };
    (code, Some(point))
}

/// The server's nudge of a point 0.2 units toward a centre (onto it when closer).
#[inline]
pub(crate) fn nudge(centre: Vec2, p: Vec2) -> Vec2 {
    let mut delta = [centre[0] - p[0], centre[1] - p[1]];
    let (dx, dz) = (w(delta[0]), w(delta[1]));
    let length_sq = (dz * dz + dx * dx) as f32;
    let length = w(length_sq).sqrt() as f32;
    if w(length) > NUDGE_STEP {
        delta = normalize2(delta);
        delta = [
            (w(delta[0]) * NUDGE_STEP) as f32,
            (NUDGE_STEP * w(delta[1])) as f32,
        ];
    }
    [p[0] + delta[0], p[1] + delta[1]]
}

/// The server's `SideTest` of a point against a terrain edge's line (tolerance 0): 2 on the
/// side its normal `(dz, −dx)` points to, 1 on the other, 0 on the line.
#[inline]
pub(crate) fn side_test(a: Vec2, b: Vec2, p: Vec2) -> u8 {
    let dir = normalize2([(w(b[0]) - w(a[0])) as f32, (w(b[1]) - w(a[1])) as f32]);
    let normal = [dir[1], -dir[0]];
    let off_x = (w(p[0]) - w(a[0])) as f32;
    let off_z = (w(p[1]) - w(a[1])) as f32;
    let dot = (w(normal[1]) * w(off_z) + w(normal[0]) * w(off_x)) as f32;
    if 0.0 < dot {
        2
    } else if -0.0 > dot {
        1
    } else {
        0
    }
}

/// The unit direction of vertex direction byte `k`, from the server's 256-entry table.
pub(crate) fn vertex_direction(k: u8) -> Vec2 {
    let angle = (f64::from(k) * DIRECTION_STEP) as f32;
    [w(angle).cos() as f32, -(w(angle).sin() as f32)]
}

/// A point pushed off an object edge by 0.01 along the direction of the edge's vertex nearer
/// to it (vertex B when it is not farther than A), as the server's `PushOffEdge`.
#[inline]
pub(crate) fn push_off(a: Vec2, a_dir: Vec2, b: Vec2, b_dir: Vec2, p: Vec2) -> Vec2 {
    let (ax, az) = (w(a[0] - p[0]), w(a[1] - p[1]));
    let dist_a = (ax * ax + az * az) as f32;
    let (bx, bz) = (w(b[0] - p[0]), w(b[1] - p[1]));
    let dist_b = (bz * bz + bx * bx) as f32;
    let dir = if dist_b <= dist_a { b_dir } else { a_dir };
    let off = [(w(dir[0]) * PUSH_OUT) as f32, (w(dir[1]) * PUSH_OUT) as f32];
    [p[0] + off[0], p[1] + off[1]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nudge_moves_a_fifth_toward_the_centre_or_onto_it() {
        // The server's step is the double 0.19999998807907104, which is an f32 value itself.
        assert_eq!(nudge([100.0, 0.0], [0.0, 0.0]), [NUDGE_STEP as f32, 0.0]);
        assert_eq!(nudge([0.1, 0.1], [0.0, 0.0]), [0.1, 0.1]);
        let [x, z] = nudge([10.0, 10.0], [0.0, 0.0]);
        assert!((f64::from(x).hypot(f64::from(z)) - 0.2).abs() < 1e-6);
    }

    #[test]
    fn line_intersection_codes() {
        let edge = [10.0, 0.0, 10.0, 20.0];
        assert_eq!(
            intersect(&edge, &[0.0, 5.0, 20.0, 5.0]),
            (2, Some([10.0, 5.0]))
        );
        assert_eq!(intersect(&edge, &[0.0, 30.0, 20.0, 30.0]).0, 4);
        assert_eq!(intersect(&edge, &[10.0, 30.0, 10.0, 40.0]).0, 0);
        assert_eq!(intersect(&edge, &[0.0, 30.0, 0.0, 40.0]).0, 5);
        assert_eq!(intersect(&edge, &[20.0, 5.0, 30.0, 5.0]).0, 3);
        assert_eq!(side_test([10.0, 0.0], [10.0, 20.0], [5.0, 5.0]), 1);
        assert_eq!(side_test([10.0, 0.0], [10.0, 20.0], [15.0, 5.0]), 2);
        assert_eq!(side_test([10.0, 0.0], [10.0, 20.0], [10.0, 5.0]), 0);
    }

    #[test]
    fn placement_round_trips_through_the_inverse_within_float_rounding() {
        for (k, yaw) in [0.0f32, 0.3, 1.9, -2.5, 4.0, 2.75].into_iter().enumerate() {
            let to_world = local_to_world(yaw, [1200.0 + k as f32, 5.0, 900.25]);
            let to_local = inverse_affine(&to_world);
            let p = [37.5f32, 2.0, -12.25];
            let back = transform(&to_local, transform(&to_world, p));
            for i in 0..3 {
                assert!((back[i] - p[i]).abs() < 1e-3, "{yaw}: {back:?}");
            }
        }
        // Yaw 0: the identity rotation, exactly.
        let m = inverse_affine(&local_to_world(0.0, [10.0, 2.0, 30.0]));
        assert_eq!(transform(&m, [15.0, 7.0, 40.0]), [5.0, 5.0, 10.0]);
        // A matrix that is not affine inverts to the identity, as the server's does.
        let mut odd = local_to_world(0.5, [1.0, 2.0, 3.0]);
        odd[3] = 0.5;
        let id = inverse_affine(&odd);
        assert_eq!(transform(&id, [1.0, 2.0, 3.0]), [1.0, 2.0, 3.0]);
    }

    #[test]
    fn planes_and_directions() {
        let p = plane_from_points([0.0, 0.0, 0.0], [0.0, 10.0, 10.0], [10.0, 0.0, 0.0]);
        // y = z: the plane's height at (x, z) is z.
        assert_eq!(plane_height(&p, 3.0, 7.0), 7.0);
        let vertical = plane_from_points([0.0, 0.0, 0.0], [0.0, 10.0, 0.0], [10.0, 0.0, 0.0]);
        assert_eq!(plane_height(&vertical, 3.0, 7.0), 0.0);
        assert_eq!(vertex_direction(0), [1.0, -0.0]);
        // The server's step is a little short of 2π / 256: direction 64 is 6e-6 off −z.
        let [x, z] = vertex_direction(64);
        assert!(x > 5e-6 && x < 7e-6 && (z + 1.0).abs() < 1e-9, "{x} {z}");
        // The nearer vertex's direction pushes; a tie goes to B.
        let q = push_off([0.0, 0.0], [0.0, 1.0], [10.0, 0.0], [0.0, -1.0], [5.0, 0.0]);
        assert_eq!(q, [5.0, -(PUSH_OUT as f32)]);
    }
}
