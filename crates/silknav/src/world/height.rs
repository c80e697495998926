//! The server's `FindHeight`, to the bit.
//!
//! Each 20×20 tile is two flat triangles whose diagonal alternates with the tile's parity;
//! an ice plane above the ground is the ground. The steps follow the server's arithmetic: the
//! tile index is `trunc(x / 20)` computed in double, the fraction inside the tile is rounded to
//! f32, the interpolation runs in double in the server's order of operations, and the result
//! is rounded to f32. (The server's x87 code runs with 53-bit precision, which is IEEE double,
//! and Rust never fuses multiply-adds on its own, so plain `f64` arithmetic reproduces it.)

use super::region::Region;
use crate::geometry::TILE;
use jmxv::nvm::{HEIGHTS_PER_SIDE, PLANES_PER_SIDE, PLANE_ICE, TILES_PER_SIDE};

/// `trunc(pos / 20)` in double, as the server computes a tile index.
#[inline]
pub(crate) fn tile_index(pos: f32) -> i32 {
    (f64::from(pos) / TILE) as i32
}

/// The position's fraction inside tile `tile`, rounded to f32 as the server stores it.
#[inline]
fn tile_fraction(pos: f32, tile: i32) -> f64 {
    f64::from(((f64::from(pos) - f64::from(tile) * TILE) / TILE) as f32)
}

/// Height at local (x, z), or `None` when the tile is outside the region's 96×96 tiles.
pub(crate) fn find_height(region: &Region, x: f32, z: f32) -> Option<f32> {
    let (tx, tz) = (tile_index(x), tile_index(z));
    let n = TILES_PER_SIDE as i32;
    if !(0..n).contains(&tx) || !(0..n).contains(&tz) {
        return None;
    }
    let (fx, fz) = (tile_fraction(x, tx), tile_fraction(z, tz));
    let v = tz as usize * HEIGHTS_PER_SIDE + tx as usize;
    let h = &region.heights;
    let h00 = f64::from(h[v]);
    let h10 = f64::from(h[v + 1]);
    let h01 = f64::from(h[v + HEIGHTS_PER_SIDE]);
    let h11 = f64::from(h[v + HEIGHTS_PER_SIDE + 1]);
    let y = if tx % 2 == tz % 2 {
        // Diagonal (0,0)–(1,1).
        if fz >= fx {
            (h00 + fz * (h01 - h00)) + fx * (h11 - h01)
        } else {
            (h10 + fz * (h11 - h10)) + (1.0 - fx) * (h00 - h10)
        }
    } else if (1.0 - fz) >= fx {
        // Diagonal (1,0)–(0,1), lower-left triangle.
        (h10 + fz * (h01 - h00)) + (1.0 - fx) * (h00 - h10)
    } else {
        ((1.0 - fx) * (h01 - h11) + h10) + fz * (h11 - h10)
    };
    let mut y = y as f32;
    let plane = (tz as usize / 16) * PLANES_PER_SIDE + tx as usize / 16;
    if region.plane_types[plane] & PLANE_ICE != 0 {
        let ice = region.plane_heights[plane];
        // Written as the server compares: a NaN ground also takes the ice height.
        if !(ice <= y) {
            y = ice;
        }
    }
    Some(y)
}
