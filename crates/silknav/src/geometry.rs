//! The geometric predicates every query relies on, in one place.
//!
//! Queries decide "which side of this line", "through this corner or past it" with exact
//! orientation tests instead of tolerances: the inputs are f32 positions and 20-unit grid
//! points, which f64 represents exactly, and the adaptive predicate returns the sign of the
//! exact determinant. The movement module reproduces the game server's own float arithmetic
//! instead, with the server's constants named there.

/// Twice the signed area of the triangle (a, b, c), with the exact sign: positive when c lies
/// to the left of the directed line a → b, negative to the right, zero on it.
#[inline]
pub fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let coord = |p: [f64; 2]| robust::Coord { x: p[0], y: p[1] };
    robust::orient2d(coord(a), coord(b), coord(c))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
