//! Cutting a region's tile mask into cells.

use jmxv::nvm::{TILES_PER_SIDE, TILE_COUNT};

/// The largest cell side in tiles (960 units), as in the game data.
pub const MAX_CELL_TILES: usize = 48;

/// A rectangle of tiles, half-open: tiles `x0..x1` × `z0..z1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileRect {
    /// First column.
    pub x0: u8,
    /// First row.
    pub z0: u8,
    /// One past the last column.
    pub x1: u8,
    /// One past the last row.
    pub z1: u8,
}

impl TileRect {
    /// Whether the two rectangles share at least one tile.
    pub fn overlaps(self, other: TileRect) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.z0 < other.z1 && other.z0 < self.z1
    }

    /// Whether the two rectangles share a tile, a side or a corner.
    pub fn touches(self, other: TileRect) -> bool {
        self.x0 <= other.x1 && other.x0 <= self.x1 && self.z0 <= other.z1 && other.z0 <= self.z1
    }
}

/// The cells of one region: rectangles (open ones first) and the cell of each tile.
#[derive(Debug, Clone)]
pub(crate) struct CellLayout {
    pub rects: Vec<TileRect>,
    pub open_count: u16,
    pub cell_of_tile: Vec<u16>,
}

impl CellLayout {
    /// Cell of tile (tx, tz).
    pub fn cell_at(&self, tx: usize, tz: usize) -> u16 {
        self.cell_of_tile[tz * TILES_PER_SIDE + tx]
    }

    pub fn is_open(&self, cell: u16) -> bool {
        cell < self.open_count
    }

    /// Cells sharing a tile, a side or a corner with `rect`, each once.
    pub fn cells_touching(&self, rect: TileRect) -> impl Iterator<Item = u16> + '_ {
        self.rects
            .iter()
            .enumerate()
            .filter(move |(_, r)| r.touches(rect))
            .map(|(i, _)| i as u16)
    }
}

/// Greedy maximal rectangles: open tiles first, then blocked ones. Scanning row-major, each
/// rectangle starts at the first free tile and takes the larger of two growths, up to 48
/// tiles each way: along +x then +z, or along +z then +x. Trying both keeps cells near ragged
/// edges from all becoming one-tile strips in the same direction.
pub(crate) fn decompose(blocked: &[bool]) -> CellLayout {
    const UNSET: u16 = u16::MAX;
    let n = TILES_PER_SIDE;
    let mut cell_of_tile = vec![UNSET; TILE_COUNT];
    let mut rects = Vec::new();
    let mut open_count = 0;
    for want_blocked in [false, true] {
        let free = |cell_of_tile: &[u16], x: usize, z: usize| {
            let t = z * n + x;
            cell_of_tile[t] == UNSET && blocked[t] == want_blocked
        };
        for tz in 0..n {
            for tx in 0..n {
                if !free(&cell_of_tile, tx, tz) {
                    continue;
                }
                // Along x first: the longest run, then as many whole rows as match.
                let mut w = 1;
                while tx + w < n && w < MAX_CELL_TILES && free(&cell_of_tile, tx + w, tz) {
                    w += 1;
                }
                let mut h = 1;
                while tz + h < n
                    && h < MAX_CELL_TILES
                    && (tx..tx + w).all(|x| free(&cell_of_tile, x, tz + h))
                {
                    h += 1;
                }
                // Along z first.
                let mut h2 = 1;
                while tz + h2 < n && h2 < MAX_CELL_TILES && free(&cell_of_tile, tx, tz + h2) {
                    h2 += 1;
                }
                let mut w2 = 1;
                while tx + w2 < n
                    && w2 < MAX_CELL_TILES
                    && (tz..tz + h2).all(|z| free(&cell_of_tile, tx + w2, z))
                {
                    w2 += 1;
                }
                if w2 * h2 > w * h {
                    (w, h) = (w2, h2);
                }
                let index = rects.len() as u16;
                for z in tz..tz + h {
                    cell_of_tile[z * n + tx..z * n + tx + w].fill(index);
                }
                rects.push(TileRect {
                    x0: tx as u8,
                    z0: tz as u8,
                    x1: (tx + w) as u8,
                    z1: (tz + h) as u8,
                });
            }
        }
        if !want_blocked {
            open_count = rects.len() as u16;
        }
    }
    CellLayout {
        rects,
        open_count,
        cell_of_tile,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_region_is_four_big_cells() {
        let layout = decompose(&vec![false; TILE_COUNT]);
        assert_eq!(layout.rects.len(), 4);
        assert_eq!(layout.open_count, 4);
        assert!(layout
            .rects
            .iter()
            .all(|r| r.x1 - r.x0 == 48 && r.z1 - r.z0 == 48));
    }

    #[test]
    fn every_tile_in_exactly_its_homogeneous_cell() {
        let blocked: Vec<bool> = (0..TILE_COUNT)
            .map(|t| (t * 7919 + t / 96 * 13) % 11 < 3)
            .collect();
        let layout = decompose(&blocked);
        let mut covered = vec![0u32; TILE_COUNT];
        for (i, r) in layout.rects.iter().enumerate() {
            assert!(r.x1 - r.x0 <= 48 && r.z1 - r.z0 <= 48);
            for z in r.z0..r.z1 {
                for x in r.x0..r.x1 {
                    let t = usize::from(z) * 96 + usize::from(x);
                    covered[t] += 1;
                    assert_eq!(usize::from(layout.cell_of_tile[t]), i);
                    assert_eq!(blocked[t], !layout.is_open(i as u16));
                }
            }
        }
        assert!(covered.iter().all(|&c| c == 1));
    }
}
