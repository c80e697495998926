//! Line of sight and cells on the terrain, written from the documented rules with none of the
//! library's query code: exact integer geometry over every tile and edge near the segment.

use jmxv::nvm::NavMesh;
use jmxv::RegionId;
use std::collections::BTreeMap;

/// Coordinates are in 1/64 units, so that test points (which the tests pick on that grid) and
/// all grid geometry are integers and every predicate is exact.
pub const SCALE: i64 = 64;
const TILE: i64 = 20 * SCALE;

/// A rational number with positive denominator.
#[derive(Debug, Clone, Copy)]
pub struct Ratio(pub i128, pub i128);

impl Ratio {
    fn new(num: i128, den: i128) -> Ratio {
        if den < 0 {
            Ratio(-num, -den)
        } else {
            Ratio(num, den)
        }
    }
    fn lt(self, o: Ratio) -> bool {
        self.0 * o.1 < o.0 * self.1
    }
    fn max(self, o: Ratio) -> Ratio {
        if self.lt(o) {
            o
        } else {
            self
        }
    }
    fn min(self, o: Ratio) -> Ratio {
        if o.lt(self) {
            o
        } else {
            self
        }
    }
    /// The number, rounded to f64.
    pub fn value(self) -> f64 {
        self.0 as f64 / self.1 as f64
    }
}

/// The world as the oracle sees it: walkable tiles and sight-blocking wall edges, in world
/// tile coordinates.
pub struct Ground<'a> {
    /// The navmeshes of the world's regions.
    pub world: &'a BTreeMap<RegionId, NavMesh>,
}

impl Ground<'_> {
    /// Whether world tile (tx, tz) is walkable: in a loaded region and not blocked.
    pub fn open(&self, tx: i64, tz: i64) -> bool {
        if tx < 0 || tz < 0 {
            return false;
        }
        let Some(mesh) = self
            .world
            .get(&RegionId::new((tx / 96) as u8, (tz / 96) as u8))
        else {
            return false;
        };
        if tx / 96 > 255 || tz / 96 > 127 {
            return false;
        }
        !mesh.tiles[((tz % 96) * 96 + tx % 96) as usize].is_blocked()
    }

    /// Wall edges (flag & 3 or siege) in world coordinates (scaled).
    pub fn walls(&self) -> Vec<([i64; 2], [i64; 2])> {
        let mut out = Vec::new();
        for (region, mesh) in self.world {
            let (ox, oz) = (
                i64::from(region.x()) * 96 * TILE,
                i64::from(region.z()) * 96 * TILE,
            );
            let p = |v: [jmxv::F32; 2]| {
                [
                    ox + (v[0].get() as f64 * SCALE as f64) as i64,
                    oz + (v[1].get() as f64 * SCALE as f64) as i64,
                ]
            };
            for e in &mesh.internal_edges {
                if e.flag & 0x83 != 0 {
                    out.push((p(e.a), p(e.b)));
                }
            }
            for e in &mesh.global_edges {
                if e.flag & 0x83 != 0 {
                    out.push((p(e.a), p(e.b)));
                }
            }
        }
        out
    }

    fn covered(walls: &[([i64; 2], [i64; 2])], a: [i64; 2], b: [i64; 2]) -> bool {
        walls.iter().any(|&(p, q)| {
            if a[0] == b[0] {
                p[0] == a[0]
                    && q[0] == a[0]
                    && p[1].min(q[1]) <= a[1].min(b[1])
                    && p[1].max(q[1]) >= a[1].max(b[1])
            } else {
                p[1] == a[1]
                    && q[1] == a[1]
                    && p[0].min(q[0]) <= a[0].min(b[0])
                    && p[0].max(q[0]) >= a[0].max(b[0])
            }
        })
    }

    /// Whether the tile side from grid vertex (gx, gz) one step in direction (ux, uz) is a wall.
    fn side_is_wall(
        &self,
        walls: &[([i64; 2], [i64; 2])],
        gx: i64,
        gz: i64,
        ux: i64,
        uz: i64,
    ) -> bool {
        let a = [gx * TILE, gz * TILE];
        let b = [(gx + ux) * TILE, (gz + uz) * TILE];
        let (t1, t2) = if ux != 0 {
            let tx = gx.min(gx + ux);
            ((tx, gz - 1), (tx, gz))
        } else {
            let tz = gz.min(gz + uz);
            ((gx - 1, tz), (gx, tz))
        };
        self.open(t1.0, t1.1) != self.open(t2.0, t2.1) || Ground::covered(walls, a, b)
    }

    /// Whether a point touches a walkable tile.
    pub fn in_closure(&self, p: [i64; 2]) -> bool {
        let xs = if p[0] % TILE == 0 {
            vec![p[0] / TILE - 1, p[0] / TILE]
        } else {
            vec![p[0].div_euclid(TILE)]
        };
        let zs = if p[1] % TILE == 0 {
            vec![p[1] / TILE - 1, p[1] / TILE]
        } else {
            vec![p[1].div_euclid(TILE)]
        };
        xs.iter().any(|&x| zs.iter().any(|&z| self.open(x, z)))
    }

    /// The first blocking parameter of segment p → q, or `None` when clear.
    pub fn first_block(&self, p: [i64; 2], q: [i64; 2]) -> Option<Ratio> {
        let walls = self.walls();
        let (dx, dz) = (i128::from(q[0] - p[0]), i128::from(q[1] - p[1]));
        if dx == 0 && dz == 0 {
            return None;
        }
        let mut best: Option<Ratio> = None;
        let mut consider = |t: Ratio| best = Some(best.map_or(t, |b| b.min(t)));
        let (tx0, tx1) = (
            p[0].min(q[0]).div_euclid(TILE) - 1,
            p[0].max(q[0]).div_euclid(TILE) + 1,
        );
        let (tz0, tz1) = (
            p[1].min(q[1]).div_euclid(TILE) - 1,
            p[1].max(q[1]).div_euclid(TILE) + 1,
        );
        let zero = Ratio(0, 1);
        let one = Ratio(1, 1);

        // Rule 1a: entering the interior of a non-walkable tile.
        for tz in tz0..=tz1 {
            for tx in tx0..=tx1 {
                if self.open(tx, tz) {
                    continue;
                }
                let range = |lo: i64, hi: i64, start: i64, d: i128| -> Option<(Ratio, Ratio)> {
                    if d == 0 {
                        return (lo < start && start < hi).then_some((Ratio(-1, 1), Ratio(2, 1)));
                    }
                    let a = Ratio::new(i128::from(lo - start), d);
                    let b = Ratio::new(i128::from(hi - start), d);
                    Some((a.min(b), a.max(b)))
                };
                let Some((xl, xh)) = range(tx * TILE, (tx + 1) * TILE, p[0], dx) else {
                    continue;
                };
                let Some((zl, zh)) = range(tz * TILE, (tz + 1) * TILE, p[1], dz) else {
                    continue;
                };
                let (lo, hi) = (xl.max(zl).max(zero), xh.min(zh).min(one));
                // The open interval meets [0, 1] in more than its end points.
                if lo.lt(hi) && xl.max(zl).lt(one) && zero.lt(xh.min(zh)) {
                    consider(lo);
                }
            }
        }
        // Rule 1b: running along the seam between two non-walkable tiles.
        if dx == 0 && p[0] % TILE == 0 || dz == 0 && p[1] % TILE == 0 {
            let vertical = dx == 0;
            let (along0, along1) = if vertical { (p[1], q[1]) } else { (p[0], q[0]) };
            let line = if vertical { p[0] / TILE } else { p[1] / TILE };
            let (lo_t, hi_t) = (
                along0.min(along1).div_euclid(TILE) - 1,
                along0.max(along1).div_euclid(TILE) + 1,
            );
            for k in lo_t..=hi_t {
                let (a, b) = if vertical {
                    ((line - 1, k), (line, k))
                } else {
                    ((k, line - 1), (k, line))
                };
                if self.open(a.0, a.1) || self.open(b.0, b.1) {
                    continue;
                }
                let (s0, s1) = (k * TILE, (k + 1) * TILE);
                let (lo, hi) = (along0.min(along1).max(s0), along0.max(along1).min(s1));
                if lo < hi {
                    let entry = if along1 > along0 { lo } else { hi };
                    consider(Ratio::new(
                        i128::from(entry - along0),
                        i128::from(along1 - along0),
                    ));
                }
            }
        }
        // Rule 2: proper crossings of wall edges.
        let orient = |a: [i64; 2], b: [i64; 2], c: [i64; 2]| -> i128 {
            i128::from(b[0] - a[0]) * i128::from(c[1] - a[1])
                - i128::from(b[1] - a[1]) * i128::from(c[0] - a[0])
        };
        for &(a, b) in &walls {
            let (oa, ob) = (orient(p, q, a), orient(p, q, b));
            let (op, oq) = (orient(a, b, p), orient(a, b, q));
            if oa.signum() * ob.signum() < 0 && op.signum() * oq.signum() < 0 {
                consider(Ratio::new(op, op - oq));
            }
        }
        // Rule 3: squeezing through a vertex with walls on both sides.
        for gz in tz0..=tz1 + 1 {
            for gx in tx0..=tx1 + 1 {
                let v = [gx * TILE, gz * TILE];
                if orient(p, q, v) != 0 {
                    continue;
                }
                let along = i128::from(v[0] - p[0]) * dx + i128::from(v[1] - p[1]) * dz;
                let length2 = dx * dx + dz * dz;
                if along <= 0 || along >= length2 {
                    continue;
                }
                let (mut left, mut right) = (false, false);
                for (ux, uz) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    if self.side_is_wall(&walls, gx, gz, ux, uz) {
                        let cross = dx * i128::from(uz) - dz * i128::from(ux);
                        left |= cross > 0;
                        right |= cross < 0;
                    }
                }
                if left && right {
                    consider(Ratio::new(along, length2));
                }
            }
        }
        best
    }
}
