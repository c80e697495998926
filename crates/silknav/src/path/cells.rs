//! The cells along a segment, for [`crate::World::path_cells`].

use crate::geometry::TILE;
use crate::world::{CellRef, Position, World};

/// Appends the cells of the tiles the segment `a → b` passes through, skipping repeats of the
/// last one.
pub(super) fn along(world: &World, a: Position, b: Position, out: &mut Vec<CellRef>) {
    let (x0, z0) = (a.world_x(), a.world_z());
    let (x1, z1) = (b.world_x(), b.world_z());
    let (dx, dz) = (x1 - x0, z1 - z0);
    let mut push = |x: f64, z: f64| {
        if let Some(cell) = Position::from_world(x, z).and_then(|p| world.terrain_cell_at(p)) {
            if out.last() != Some(&cell) {
                out.push(cell);
            }
        }
    };
    // Sample the middle of every piece between consecutive grid-line crossings: each piece
    // lies inside one tile (or on one tile side).
    let mut ts = vec![0.0, 1.0];
    for (from, delta) in [(x0, dx), (z0, dz)] {
        if delta == 0.0 {
            continue;
        }
        let (lo, hi) = if delta > 0.0 {
            (from, from + delta)
        } else {
            (from + delta, from)
        };
        let mut k = (lo / TILE).ceil();
        while k * TILE < hi {
            ts.push((k * TILE - from) / delta);
            k += 1.0;
        }
    }
    ts.sort_by(f64::total_cmp);
    for w in ts.windows(2) {
        if w[1] > w[0] {
            let t = 0.5 * (w[0] + w[1]);
            // Along a tile side the midpoint is on the line: nudge it to the left of the segment.
            let (mut x, mut z) = (x0 + t * dx, z0 + t * dz);
            if dx == 0.0 && (x / TILE).fract() == 0.0 {
                x -= dz.signum() * 1e-6;
            }
            if dz == 0.0 && (z / TILE).fract() == 0.0 {
                z += dx.signum() * 1e-6;
            }
            push(x, z);
        }
    }
}
