//! Collision circles: round obstacles that only a dungeon's ground has
//! ([`crate::world::dungeon`]).
//!
//! # Rule
//! A segment that starts outside a circle is blocked where it first enters the open disk
//! (touching it is not entering); one that starts inside is blocked at once when it heads
//! toward the centre, and otherwise never (it only moves away). Line of sight stops at that
//! point ([`crate::world::raycast`]); a walk stops [`CIRCLE_STOP`] units short of it
//! ([`crate::world::movement`]).
//!
//! # Method
//! Every circle is tested against the segment, in double, in world units: a circle costs a
//! handful of multiplications, and a dungeon holds tens to hundreds.

use super::Position;

/// How far short of a collision circle a walk stops, along the segment (units): the distance
/// the server pushes a blocked walker off an object edge.
pub const CIRCLE_STOP: f64 = 0.01;

/// A collision circle in world units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Circle {
    pub centre: [f64; 2],
    pub radius: f64,
}

/// Where segment `from → to` (world units) is first blocked by `circle`, as a fraction of the
/// segment ([module docs](self)); `None` when it never is.
pub(crate) fn entry(from: [f64; 2], to: [f64; 2], circle: &Circle) -> Option<f64> {
    let (px, pz) = (from[0] - circle.centre[0], from[1] - circle.centre[1]);
    let (dx, dz) = (to[0] - from[0], to[1] - from[1]);
    let r2 = circle.radius * circle.radius;
    let toward = px * dx + pz * dz < 0.0;
    if px * px + pz * pz < r2 {
        return toward.then_some(0.0);
    }
    let a = dx * dx + dz * dz;
    if a == 0.0 || !toward {
        return None;
    }
    // |p + t d|² = r²: the smaller root is where the segment enters.
    let b = px * dx + pz * dz;
    let disc = b * b - a * (px * px + pz * pz - r2);
    if disc <= 0.0 {
        return None; // passes by, or touches
    }
    let t = (-b - disc.sqrt()) / a;
    (0.0..=1.0).contains(&t).then_some(t)
}

/// The first of `circles` the segment `from → to` meets up to the fraction `t_end`, and where.
pub(crate) fn first(
    circles: &[Circle],
    from: Position,
    to: Position,
    t_end: f64,
) -> Option<(f64, usize)> {
    let (a, b) = (
        [from.world_x(), from.world_z()],
        [to.world_x(), to.world_z()],
    );
    let mut best: Option<(f64, usize)> = None;
    // A circle the segment meets, or whose inside holds its start, has its centre within a
    // radius of the segment's box (and a hair more, for rounding).
    let (lo, hi) = (
        [a[0].min(b[0]), a[1].min(b[1])],
        [a[0].max(b[0]), a[1].max(b[1])],
    );
    for (index, c) in circles.iter().enumerate() {
        let reach = c.radius * (1.0 + 1e-9) + 1e-6;
        let [x, z] = c.centre;
        if x < lo[0] - reach || x > hi[0] + reach || z < lo[1] - reach || z > hi[1] + reach {
            continue;
        }
        if let Some(t) = entry(a, b, c) {
            if t <= t_end && best.is_none_or(|(b, _)| t < b) {
                best = Some((t, index));
            }
        }
    }
    best
}

/// The point a fraction `t` along `from → to`, normalised (`None` past the id space).
pub(crate) fn along(from: Position, to: Position, t: f64) -> Option<Position> {
    let at = |a: f64, b: f64| a + t * (b - a);
    if from.region.is_dungeon() {
        let p = Position::new(
            from.region,
            at(f64::from(from.x), f64::from(to.x)) as f32,
            at(f64::from(from.z), f64::from(to.z)) as f32,
        );
        return Some(p);
    }
    Position::from_world(
        at(from.world_x(), to.world_x()),
        at(from.world_z(), to.world_z()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entering_and_leaving() {
        let c = Circle {
            centre: [0.0, 0.0],
            radius: 10.0,
        };
        // Into it, through it, past it, along its edge, away from inside, deeper from inside.
        assert_eq!(entry([20.0, 0.0], [5.0, 0.0], &c), Some(10.0 / 15.0));
        assert_eq!(entry([20.0, 0.0], [-20.0, 0.0], &c), Some(0.25));
        assert_eq!(entry([20.0, 15.0], [-20.0, 15.0], &c), None);
        assert_eq!(entry([20.0, 10.0], [-20.0, 10.0], &c), None);
        assert_eq!(entry([5.0, 0.0], [8.0, 0.0], &c), None);
        assert_eq!(entry([5.0, 0.0], [1.0, 0.0], &c), Some(0.0));
        // Short of it, and heading away from outside.
        assert_eq!(entry([20.0, 0.0], [12.0, 0.0], &c), None);
        assert_eq!(entry([20.0, 0.0], [30.0, 0.0], &c), None);
    }
}
