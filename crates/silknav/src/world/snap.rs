//! The nearest walkable point: where a click or a spawn that lands on a wall, a blocked tile or
//! outside the loaded ground should go.
//!
//! Walkable means what [`World::cell_at`] answers on the surface asked: an open tile, or an
//! object triangle the tile's cell lists.
//! From such a point the server's walk starts ([`World::move_along`] never answers
//! [`super::movement::MoveError::StartNotWalkable`] for it).
//!
//! **Exactness.** Tiles are half-open squares: the point at local x = 20 belongs to the tile on
//! its +x side. So where the walkable ground nearest the query is a tile's +x or +z side, the
//! closest point is not attained; [`World::nearest_walkable`] answers the representable f32
//! point inside that tile closest to the query — the largest f32 below the side. On the
//! terrain the answer is thus the closest f32 point of the walkable ground, exactly. On an
//! object the closest point of each triangle (clipped to the tiles whose cells list the object)
//! is computed in double and rounded to f32; where the server's float containment test
//! refuses that rounded point (within about 1e-4 units of the triangle's side), it is moved
//! toward the triangle's centre by the smallest of a few growing steps that makes it accepted.
//!
//! The search visits tiles in rings around the query, nearest first, and stops when no
//! unvisited tile can hold a closer point or the ring lies beyond `max_distance`.

use super::position::Position;
use super::{CellRef, Surface, World};
use crate::geometry::REGION_SIZE;
use crate::geometry::TILE;
use crate::objects::walk::Frame;
use jmxv::nvm::{TILES_PER_SIDE, TILE_SIZE};
use jmxv::RegionId;

const N: i64 = TILES_PER_SIDE as i64;

/// The nearest walkable point to a query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Snap {
    /// The point.
    pub position: Position,
    /// Its distance from the query (world units, in double).
    pub distance: f64,
    /// Its cell, as [`World::cell_at`] answers it on the surface asked.
    pub cell: CellRef,
}

/// The largest f32 below a positive finite `v`.
fn below(v: f32) -> f32 {
    debug_assert!(v > 0.0 && v.is_finite());
    f32::from_bits(v.to_bits() - 1)
}

/// The closest point of convex polygon `poly` (world units) to `q`.
fn closest_in_polygon(poly: &[[f64; 2]], q: [f64; 2]) -> [f64; 2] {
    let n = poly.len();
    let cross = |a: [f64; 2], b: [f64; 2], p: [f64; 2]| {
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    };
    let signs: Vec<f64> = (0..n)
        .map(|i| cross(poly[i], poly[(i + 1) % n], q))
        .collect();
    if signs.iter().all(|&s| s >= 0.0) || signs.iter().all(|&s| s <= 0.0) {
        return q;
    }
    let mut best = poly[0];
    let mut best_d = f64::INFINITY;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        let (dx, dz) = (b[0] - a[0], b[1] - a[1]);
        let len2 = dx * dx + dz * dz;
        let u = if len2 > 0.0 {
            (((q[0] - a[0]) * dx + (q[1] - a[1]) * dz) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let p = [a[0] + u * dx, a[1] + u * dz];
        let d = (p[0] - q[0]).hypot(p[1] - q[1]);
        if d < best_d {
            best_d = d;
            best = p;
        }
    }
    best
}

/// Triangle `tri` clipped to the axis-aligned square `[lo, hi]` (Sutherland–Hodgman).
fn clip(tri: [[f64; 2]; 3], lo: [f64; 2], hi: [f64; 2]) -> Vec<[f64; 2]> {
    let mut poly = tri.to_vec();
    for (axis, bound, keep_above) in [
        (0, lo[0], true),
        (0, hi[0], false),
        (1, lo[1], true),
        (1, hi[1], false),
    ] {
        let inside = |p: &[f64; 2]| {
            if keep_above {
                p[axis] >= bound
            } else {
                p[axis] <= bound
            }
        };
        let mut out = Vec::with_capacity(poly.len() + 2);
        for i in 0..poly.len() {
            let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
            if inside(&a) {
                out.push(a);
            }
            if inside(&a) != inside(&b) {
                let u = (bound - a[axis]) / (b[axis] - a[axis]);
                out.push([a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1])]);
            }
        }
        poly = out;
        if poly.is_empty() {
            break;
        }
    }
    poly
}

impl World {
    /// The walkable point nearest `pos` within `max_distance` units, walkable being what
    /// [`World::cell_at`] answers on `surface` (see the [module docs](self)): `pos` itself
    /// when it is walkable; `None` when nothing walkable is that close. With
    /// [`Surface::Near`], a point on a bridge's deck is walkable near the deck's height, a
    /// point of the ground below near the ground's.
    pub fn nearest_walkable(
        &self,
        pos: Position,
        surface: Surface,
        max_distance: f64,
    ) -> Option<Snap> {
        if pos.region.is_dungeon() {
            return self.dungeon(pos.region)?.nearest_walkable(
                pos,
                surface.reference_height(),
                max_distance,
            );
        }
        self.snap(pos, max_distance, |p| self.cell_at(p, surface))
    }

    /// The point nearest `pos` within `max_distance` where `cell` answers a cell.
    pub(crate) fn snap(
        &self,
        pos: Position,
        max_distance: f64,
        cell: impl Fn(Position) -> Option<CellRef>,
    ) -> Option<Snap> {
        if !(max_distance >= 0.0) || !pos.x.is_finite() || !pos.z.is_finite() {
            return None;
        }
        let q = [pos.world_x(), pos.world_z()];
        if let Some(pos) = pos.normalized() {
            if let Some(c) = cell(pos) {
                return Some(Snap {
                    position: pos,
                    distance: 0.0,
                    cell: c,
                });
            }
        }
        // The loaded tiles' box, in world tiles.
        let (mut bx0, mut bz0, mut bx1, mut bz1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
        for r in self.regions() {
            let (x, z) = (i64::from(r.x()) * N, i64::from(r.z()) * N);
            (bx0, bz0, bx1, bz1) = (
                bx0.min(x),
                bz0.min(z),
                bx1.max(x + N - 1),
                bz1.max(z + N - 1),
            );
        }
        if bx0 > bx1 {
            return None;
        }
        let (gx, gz) = ((q[0] / TILE).floor() as i64, (q[1] / TILE).floor() as i64);
        let reach = |a: i64, b: i64| (gx - a).abs().max((gz - b).abs());
        let last_ring = reach(bx0, bz0)
            .max(reach(bx1, bz0))
            .max(reach(bx0, bz1))
            .max(reach(bx1, bz1));
        let first_ring = (gx - bx1).max(bx0 - gx).max(gz - bz1).max(bz0 - gz).max(0);
        let mut best: Option<Snap> = None;
        let consider = |p: Position, best: &mut Option<Snap>| {
            let d = (p.world_x() - q[0]).hypot(p.world_z() - q[1]);
            if d > max_distance || best.is_some_and(|b| d >= b.distance) {
                return;
            }
            if let Some(c) = cell(p) {
                *best = Some(Snap {
                    position: p,
                    distance: d,
                    cell: c,
                });
            }
        };
        for ring in first_ring..=last_ring {
            // No tile of this ring is closer than this.
            let floor = (ring - 1).max(0) as f64 * TILE;
            if floor > max_distance || best.is_some_and(|b| floor > b.distance) {
                break;
            }
            for (tx, tz) in ring_tiles(gx, gz, ring, [bx0, bz0, bx1, bz1]) {
                self.snap_tile(tx, tz, q, &mut |p| consider(p, &mut best));
            }
        }
        best
    }

    /// Offers `consider` the candidates of world tile (tx, tz): its closest f32 point when the
    /// tile is open, and the closest points of the object triangles its cell lists, within
    /// the tile.
    fn snap_tile(&self, tx: i64, tz: i64, q: [f64; 2], consider: &mut impl FnMut(Position)) {
        let region_id = RegionId::new((tx / N) as u8, (tz / N) as u8);
        let Some(slot) = self.region_slot(region_id) else {
            return;
        };
        let region = &self.regions[slot];
        let (lx, lz) = ((tx % N) as usize, (tz % N) as usize);
        let size = f64::from(REGION_SIZE);
        let corner = [
            f64::from(region_id.x()) * size,
            f64::from(region_id.z()) * size,
        ];
        let (x0, z0) = (lx as f32 * TILE_SIZE, lz as f32 * TILE_SIZE);
        if region.is_open_tile(lx, lz) {
            // The closest f32 point of the half-open tile.
            let pick = |v: f64, lo: f32| ((v as f32).max(lo)).min(below(lo + TILE_SIZE));
            let x = pick(q[0] - corner[0], x0);
            let z = pick(q[1] - corner[1], z0);
            consider(Position::new(region_id, x, z));
        }
        let raw = region.raw_tile_cell(lz * TILES_PER_SIDE + lx);
        let objects = region.objects_of_cell(raw);
        if objects.is_empty() {
            return;
        }
        let lo = [corner[0] + f64::from(x0), corner[1] + f64::from(z0)];
        let hi = [lo[0] + TILE, lo[1] + TILE];
        for &k in objects {
            let Some(p) = self.objects.placement(slot, k) else {
                continue;
            };
            let mesh = self.objects.server_mesh(p);
            let frame = Frame::new(region_id, p);
            for tri in 0..mesh.tri_count() as u32 {
                let world = mesh.tri_xz(tri).map(|v| frame.world(v));
                let poly = clip(world, lo, hi);
                if poly.len() < 3 {
                    continue;
                }
                let closest = closest_in_polygon(&poly, q);
                let centre = poly.iter().fold([0.0, 0.0], |c, p| {
                    [
                        c[0] + p[0] / poly.len() as f64,
                        c[1] + p[1] / poly.len() as f64,
                    ]
                });
                // The rounded point, or one a little toward the centre where the server's
                // float test refuses it.
                for f in [0.0, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.5] {
                    let p = [
                        closest[0] + f * (centre[0] - closest[0]),
                        closest[1] + f * (centre[1] - closest[1]),
                    ];
                    if let Some(pos) = Position::from_world(p[0], p[1]) {
                        if pos.region == region_id
                            && super::height::tile_index(pos.x) as usize == lx
                            && super::height::tile_index(pos.z) as usize == lz
                            && self.cell_at_tile_object(pos)
                        {
                            consider(pos);
                            break;
                        }
                    }
                }
            }
        }
    }

    /// Whether some object contains the point by the server's test (a pre-check; the caller's
    /// cell function decides).
    fn cell_at_tile_object(&self, pos: Position) -> bool {
        self.highest_object(pos).is_some()
    }
}

/// The world tiles at Chebyshev distance `ring` from (gx, gz), within `bx`.
fn ring_tiles(gx: i64, gz: i64, ring: i64, bx: [i64; 4]) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    let in_box = |x: i64, z: i64| x >= bx[0] && x <= bx[2] && z >= bx[1] && z <= bx[3];
    if ring == 0 {
        if in_box(gx, gz) {
            out.push((gx, gz));
        }
        return out;
    }
    let (x_lo, x_hi) = ((gx - ring).max(bx[0]), (gx + ring).min(bx[2]));
    for z in [gz - ring, gz + ring] {
        if z >= bx[1] && z <= bx[3] {
            out.extend((x_lo..=x_hi).map(|x| (x, z)));
        }
    }
    let (z_lo, z_hi) = ((gz - ring + 1).max(bx[1]), (gz + ring - 1).min(bx[3]));
    for x in [gx - ring, gx + ring] {
        if x >= bx[0] && x <= bx[2] {
            out.extend((z_lo..=z_hi).map(|z| (x, z)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_and_closest_points() {
        let tri = [[0.0, 0.0], [40.0, 0.0], [0.0, 40.0]];
        let poly = clip(tri, [10.0, 10.0], [30.0, 30.0]);
        assert!(poly.len() >= 3);
        assert_eq!(closest_in_polygon(&poly, [15.0, 15.0]), [15.0, 15.0]);
        let p = closest_in_polygon(&poly, [30.0, 30.0]);
        assert!(
            (p[0] - 20.0).abs() < 1e-9 && (p[1] - 20.0).abs() < 1e-9,
            "{p:?}"
        );
        assert_eq!(below(20.0), 19.999998);
        assert_eq!(ring_tiles(5, 5, 1, [0, 0, 10, 10]).len(), 8);
        assert_eq!(ring_tiles(0, 0, 1, [0, 0, 10, 10]).len(), 3);
    }
}
