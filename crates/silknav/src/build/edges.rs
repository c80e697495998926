//! Finding the edges of a region's open cells: passages, walls and region-border links.

use super::cells::CellLayout;
use jmxv::nvm::{
    GlobalEdge, InternalEdge, EDGE_BLOCK_SRC_TO_DST, EDGE_GLOBAL, EDGE_INTERNAL, NONE_U16,
    NO_DIRECTION, TILES_PER_SIDE, TILE_SIZE,
};
use jmxv::{RegionId, F32};
use std::collections::BTreeMap;

/// The side of a cell, numbered by the spec page's direction convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    MinusZ = 0,
    MinusX = 1,
    PlusZ = 2,
    PlusX = 3,
}

impl Side {
    const ALL: [Side; 4] = [Side::MinusZ, Side::MinusX, Side::PlusZ, Side::PlusX];

    fn opposite(self) -> Side {
        match self {
            Side::MinusZ => Side::PlusZ,
            Side::MinusX => Side::PlusX,
            Side::PlusZ => Side::MinusZ,
            Side::PlusX => Side::MinusX,
        }
    }
}

/// What lies across one tile-length of a cell's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Across {
    /// Another open cell of the same region.
    Passage(u16),
    /// A blocked tile, or nothing (the world's outer border).
    Wall,
    /// An open cell of the neighbouring region.
    Global(RegionId, u16),
}

/// The neighbour of `region` across `side`, if the id space has one.
fn neighbour(region: RegionId, side: Side) -> Option<RegionId> {
    let (x, z) = (region.x(), region.z());
    let (x, z) = match side {
        Side::MinusZ => (x, z.checked_sub(1)?),
        Side::MinusX => (x.checked_sub(1)?, z),
        Side::PlusZ => (x, z.checked_add(1).filter(|&z| z < 0x80)?),
        Side::PlusX => (x.checked_add(1)?, z),
    };
    Some(RegionId::new(x, z))
}

/// Global and internal edges of one region, given the cell layouts of every region.
pub(crate) fn edges_of(
    region: RegionId,
    layout: &CellLayout,
    layouts: &BTreeMap<RegionId, CellLayout>,
) -> (Vec<GlobalEdge>, Vec<InternalEdge>) {
    let last = TILES_PER_SIDE - 1;
    let mut global = Vec::new();
    let mut internal = Vec::new();
    for (i, r) in layout
        .rects
        .iter()
        .enumerate()
        .take(layout.open_count.into())
    {
        let i = i as u16;
        for side in Side::ALL {
            let neighbour_layout =
                neighbour(region, side).and_then(|n| layouts.get(&n).map(|l| (n, l)));
            // Tiles along the side, and for each the tile across it (same region or neighbour).
            let (fixed, along) = match side {
                Side::MinusZ => (r.z0, r.x0..r.x1),
                Side::PlusZ => (r.z1, r.x0..r.x1),
                Side::MinusX => (r.x0, r.z0..r.z1),
                Side::PlusX => (r.x1, r.z0..r.z1),
            };
            let classify = |k: u8| -> Across {
                let k = usize::from(k);
                let fixed = usize::from(fixed);
                let (inside, across) = match side {
                    Side::MinusZ => (fixed > 0, (k, fixed.wrapping_sub(1), k, last)),
                    Side::PlusZ => (fixed <= last, (k, fixed, k, 0)),
                    Side::MinusX => (fixed > 0, (fixed.wrapping_sub(1), k, last, k)),
                    Side::PlusX => (fixed <= last, (fixed, k, 0, k)),
                };
                let (tx, tz, nx, nz) = across;
                if inside {
                    let j = layout.cell_at(tx, tz);
                    if layout.is_open(j) {
                        Across::Passage(j)
                    } else {
                        Across::Wall
                    }
                } else {
                    match neighbour_layout {
                        Some((n, nl)) if nl.is_open(nl.cell_at(nx, nz)) => {
                            Across::Global(n, nl.cell_at(nx, nz))
                        }
                        _ => Across::Wall,
                    }
                }
            };
            let mut start = along.start;
            while start < along.end {
                let kind = classify(start);
                let mut end = start + 1;
                while end < along.end && classify(end) == kind {
                    end += 1;
                }
                let (a, b) = endpoints(side, fixed, start, end);
                match kind {
                    // Each passage is found from both cells; keep the one seen from the lower index.
                    Across::Passage(j) if i < j => internal.push(InternalEdge {
                        a,
                        b,
                        flag: EDGE_INTERNAL,
                        dir: [side as u8, side.opposite() as u8],
                        cell: [i, j],
                    }),
                    Across::Passage(_) => {}
                    Across::Wall => internal.push(InternalEdge {
                        a,
                        b,
                        flag: EDGE_BLOCK_SRC_TO_DST,
                        dir: [side as u8, NO_DIRECTION],
                        cell: [i, NONE_U16],
                    }),
                    Across::Global(n, j) => global.push(GlobalEdge {
                        a,
                        b,
                        flag: EDGE_GLOBAL,
                        dir: [side as u8, side.opposite() as u8],
                        cell: [i, j],
                        region: [region.0, n.0],
                    }),
                }
                start = end;
            }
        }
    }
    (global, internal)
}

/// Endpoints of the side segment from tile `start` to tile `end` (exclusive), ascending.
fn endpoints(side: Side, fixed: u8, start: u8, end: u8) -> ([F32; 2], [F32; 2]) {
    let c = |t: u8| F32::from(f32::from(t) * TILE_SIZE);
    match side {
        Side::MinusZ | Side::PlusZ => ([c(start), c(fixed)], [c(end), c(fixed)]),
        Side::MinusX | Side::PlusX => ([c(fixed), c(start)], [c(fixed), c(end)]),
    }
}
