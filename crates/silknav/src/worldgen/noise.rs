//! Smooth value noise over world coordinates.
//!
//! Every value is a pure function of the seed and the world position, so regions generated
//! separately agree on their shared border vertices, and the same seed gives the same terrain.

/// A well-mixed hash of a seed and a lattice point.
fn hash(seed: u64, ix: i64, iz: i64) -> u64 {
    let mut h = seed ^ (ix as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^= (iz as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    h = (h ^ (h >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 29)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 32)
}

/// The lattice value in [-1, 1].
fn lattice(seed: u64, ix: i64, iz: i64) -> f64 {
    (hash(seed, ix, iz) >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

/// Quintic fade: continuous slope and curvature at lattice lines, so no creases show.
fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// Value noise in [-1, 1] with one lattice cell per unit of `x` and `z`.
pub fn value(seed: u64, x: f64, z: f64) -> f64 {
    let (fx, fz) = (x.floor(), z.floor());
    let (ix, iz) = (fx as i64, fz as i64);
    let (tx, tz) = (fade(x - fx), fade(z - fz));
    let v00 = lattice(seed, ix, iz);
    let v10 = lattice(seed, ix + 1, iz);
    let v01 = lattice(seed, ix, iz + 1);
    let v11 = lattice(seed, ix + 1, iz + 1);
    let a = v00 + (v10 - v00) * tx;
    let b = v01 + (v11 - v01) * tx;
    a + (b - a) * tz
}

/// Fractal noise: `octaves` layers of value noise, each at twice the frequency and half the
/// amplitude of the one before, normalised to about [-1, 1].
pub fn fbm(seed: u64, x: f64, z: f64, octaves: u32) -> f64 {
    let (mut sum, mut amplitude, mut frequency, mut norm) = (0.0, 1.0, 1.0, 0.0);
    for octave in 0..octaves {
        sum += amplitude
            * value(
                seed.wrapping_add(u64::from(octave) * 0x51ed_2701),
                x * frequency,
                z * frequency,
            );
        norm += amplitude;
        amplitude *= 0.5;
        frequency *= 2.0;
    }
    sum / norm
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_continuous_and_deterministic() {
        for i in 0..1000 {
            let (x, z) = (i as f64 * 0.137, i as f64 * 0.071 - 20.0);
            let v = fbm(3, x, z, 5);
            assert!((-1.0..=1.0).contains(&v), "{v}");
            assert_eq!(v, fbm(3, x, z, 5));
            // A tiny step moves the value only a little: no jumps at lattice lines.
            assert!((fbm(3, x + 1e-6, z, 5) - v).abs() < 1e-3);
        }
        assert_ne!(value(1, 0.5, 0.5), value(2, 0.5, 0.5));
    }
}
