//! A second writer of `AINavData_XXXXX.dat` dungeon route files, written from the layout in
//! `docs/format.md` ("AINavData") and sharing no code with `jmxv`, so that tests can check that
//! jmxv reads what another implementation of the layout writes.
//!
//! [`corridor`] builds the routes of a small dungeon the way the tables are meant to be read:
//! three blocks in a row, each a strip of square cells, every route and link consistent, so it
//! lints clean. [`odd`] builds files of random values everywhere.

use super::ODD_FLOATS;
use crate::rng::SplitMix64;

/// The edge index and cell index that mean "none".
pub const NONE: i16 = -1;

/// One block of the routing section, in the layout's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecBlock {
    /// The block's index.
    pub index: u32,
    /// The cell count: the table is `cells × cells`.
    pub cells: u32,
    /// The edge count.
    pub edges: u32,
    /// `cells × cells` (forward, backward) edge pairs, goal-major.
    pub table: Vec<(i16, i16)>,
    /// Links: (id, cell, linked block, linked edge).
    pub links: Vec<(u32, u16, u16, u16)>,
}

/// A whole file, in the layout's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecAiNav {
    /// The region id of the routing section.
    pub region: u16,
    /// The blocks of the routing section.
    pub blocks: Vec<SpecBlock>,
    /// `blocks × blocks` sub-goal cells, goal-major.
    pub sub_goals: Vec<i16>,
    /// The word after the sub-goal table.
    pub int0: u32,
    /// Bytes between the routing section and the edge centres.
    pub gap: Vec<u8>,
    /// The region id of the edge-centre section.
    pub centre_region: u16,
    /// Per block, the bits of each edge centre's x, y, z.
    pub centres: Vec<Vec<[u32; 3]>>,
    /// The word after the edge centres.
    pub int1: u32,
    /// Bytes after the last section.
    pub trailing: Vec<u8>,
}

/// Byte positions the writer chose, for tests to check the reader against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecLayout {
    /// Start of each block (its index field).
    pub blocks: Vec<usize>,
    /// Start of the sub-goal table.
    pub sub_goals: usize,
    /// Start of the edge-centre section: the offset in bytes 1..5.
    pub centres: usize,
    /// End of the edge-centre section's last word, where the trailing bytes begin.
    pub end: usize,
}

fn u16le(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn u32le(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

impl SpecAiNav {
    /// The file's bytes and where its sections went.
    pub fn to_bytes_with_layout(&self) -> (Vec<u8>, SpecLayout) {
        let mut out = vec![1];
        // The offset goes here once the routing section's length is known.
        u32le(&mut out, 0);
        u16le(&mut out, self.region);
        u32le(&mut out, self.blocks.len() as u32);
        let mut starts = Vec::new();
        for b in &self.blocks {
            starts.push(out.len());
            u32le(&mut out, b.index);
            u32le(&mut out, b.cells);
            u32le(&mut out, b.edges);
            for &(forward, backward) in &b.table {
                out.extend_from_slice(&forward.to_le_bytes());
                out.extend_from_slice(&backward.to_le_bytes());
            }
            u32le(&mut out, b.links.len() as u32);
            for &(id, cell, block, edge) in &b.links {
                u32le(&mut out, id);
                u16le(&mut out, cell);
                u16le(&mut out, block);
                u16le(&mut out, edge);
            }
        }
        let sub_goals = out.len();
        for &cell in &self.sub_goals {
            out.extend_from_slice(&cell.to_le_bytes());
        }
        u32le(&mut out, self.int0);
        out.extend_from_slice(&self.gap);
        let centres = out.len();
        out[1..5].copy_from_slice(&(centres as u32).to_le_bytes());
        u16le(&mut out, self.centre_region);
        u32le(&mut out, self.centres.len() as u32);
        for block in &self.centres {
            u32le(&mut out, block.len() as u32);
            for c in block.iter().flatten() {
                u32le(&mut out, *c);
            }
        }
        u32le(&mut out, self.int1);
        let end = out.len();
        out.extend_from_slice(&self.trailing);
        (
            out,
            SpecLayout {
                blocks: starts,
                sub_goals,
                centres,
                end,
            },
        )
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_bytes_with_layout().0
    }

    /// Each block's (cells, edges): what its dungeon's meshes have when the file is right.
    pub fn mesh_counts(&self) -> Vec<(u32, u32)> {
        self.blocks.iter().map(|b| (b.cells, b.edges)).collect()
    }
}

/// Cells per block of [`corridor`].
pub const CORRIDOR_CELLS: [u32; 3] = [4, 3, 5];

/// The diagonal of the sub-goal table: the game's files leave it uninitialised, so the corridor
/// puts a stray value there.
pub const STRAY: i16 = 0x3f3f;

/// The edges of a strip of `n` cells: `n − 1` inline edges (edge `i` between cells `i` and
/// `i + 1`), then a south and a north side per cell, then the west and the east end.
fn strip_edges(n: u32) -> u32 {
    (n - 1) + 2 * n + 2
}

/// The west end's edge index.
fn west_end(n: u32) -> u16 {
    ((n - 1) + 2 * n) as u16
}

/// The east end's edge index.
fn east_end(n: u32) -> u16 {
    west_end(n) + 1
}

/// The routes of a dungeon of three blocks in a row (west to east), each a strip of 100 × 100
/// cells ([`CORRIDOR_CELLS`]): from a cell, the next edge toward any other cell of the strip is
/// the inline edge on that side; each block's east end links to the next block's west end and
/// back; the sub-goal toward a block to the east is the start block's last cell, toward one to
/// the west its first. Region 0x8011 in both sections, edge centres at the edges' midpoints on
/// a floor 10 units higher per block. Lints clean.
pub fn corridor() -> SpecAiNav {
    let region = 0x8011;
    let count = CORRIDOR_CELLS.len();
    let mut blocks = Vec::new();
    let mut centres = Vec::new();
    for (b, &n) in CORRIDOR_CELLS.iter().enumerate() {
        let step = |from: u32, to: u32| -> i16 {
            match from.cmp(&to) {
                std::cmp::Ordering::Less => from as i16,
                std::cmp::Ordering::Greater => from as i16 - 1,
                std::cmp::Ordering::Equal => NONE,
            }
        };
        let mut table = Vec::new();
        for goal in 0..n {
            for start in 0..n {
                table.push((step(start, goal), step(goal, start)));
            }
        }
        let mut links = Vec::new();
        if b + 1 < count {
            let cell = (n - 1) as u16;
            links.push((
                u32::from(cell),
                cell,
                b as u16 + 1,
                west_end(CORRIDOR_CELLS[b + 1]),
            ));
        }
        if b > 0 {
            links.push((0, 0, b as u16 - 1, east_end(CORRIDOR_CELLS[b - 1])));
        }
        blocks.push(SpecBlock {
            index: b as u32,
            cells: n,
            edges: strip_edges(n),
            table,
            links,
        });
        let x0 = 1000.0 * b as f32;
        let y = 10.0 * b as f32;
        let at = |x: f32, z: f32| [x0 + x, y, z].map(f32::to_bits);
        let mut c = Vec::new();
        for i in 1..n {
            c.push(at(100.0 * i as f32, 50.0));
        }
        for i in 0..n {
            c.push(at(100.0 * i as f32 + 50.0, 0.0));
            c.push(at(100.0 * i as f32 + 50.0, 100.0));
        }
        c.push(at(0.0, 50.0));
        c.push(at(100.0 * n as f32, 50.0));
        debug_assert_eq!(c.len() as u32, strip_edges(n));
        centres.push(c);
    }
    let mut sub_goals = Vec::new();
    for goal in 0..count {
        for (start, &n) in CORRIDOR_CELLS.iter().enumerate() {
            sub_goals.push(match goal.cmp(&start) {
                std::cmp::Ordering::Greater => (n - 1) as i16,
                std::cmp::Ordering::Less => 0,
                std::cmp::Ordering::Equal => STRAY,
            });
        }
    }
    SpecAiNav {
        region,
        blocks,
        sub_goals,
        int0: 0,
        gap: Vec::new(),
        centre_region: region,
        centres,
        int1: 0,
        trailing: Vec::new(),
    }
}

/// A file of random values everywhere (indices out of range, counts that disagree between the
/// sections, nonzero words the server refuses, NaN centres, bytes between and after the
/// sections): not valid, but every value must come back as written.
pub fn odd(seed: u64) -> SpecAiNav {
    let mut rng = SplitMix64::new(seed);
    let short = |rng: &mut SplitMix64| {
        if rng.chance(0.3) {
            NONE
        } else {
            rng.next_u64() as i16
        }
    };
    let blocks: Vec<SpecBlock> = (0..rng.range(0, 4))
        .map(|_| {
            let cells = rng.range(0, 5);
            SpecBlock {
                index: if rng.chance(0.7) {
                    0
                } else {
                    rng.next_u64() as u32
                },
                cells,
                edges: rng.range(0, 40),
                table: (0..cells * cells)
                    .map(|_| (short(&mut rng), short(&mut rng)))
                    .collect(),
                links: (0..rng.range(0, 4))
                    .map(|_| {
                        let w = rng.next_u64();
                        (
                            w as u32,
                            (w >> 32) as u16,
                            (w >> 48) as u16,
                            rng.next_u64() as u16,
                        )
                    })
                    .collect(),
            }
        })
        .collect();
    let n = blocks.len();
    let sub_goals = (0..n * n).map(|_| short(&mut rng)).collect();
    let bits = |rng: &mut SplitMix64| {
        if rng.chance(0.3) {
            ODD_FLOATS[rng.range(0, ODD_FLOATS.len() as u32) as usize]
        } else {
            rng.next_u64() as u32
        }
    };
    let centres = (0..rng.range(0, 5))
        .map(|_| {
            (0..rng.range(0, 4))
                .map(|_| [bits(&mut rng), bits(&mut rng), bits(&mut rng)])
                .collect()
        })
        .collect();
    let word = |rng: &mut SplitMix64| {
        if rng.chance(0.5) {
            0
        } else {
            rng.next_u64() as u32
        }
    };
    let bytes = |rng: &mut SplitMix64| (0..rng.range(0, 7)).map(|_| rng.next_u64() as u8).collect();
    SpecAiNav {
        region: rng.next_u64() as u16,
        blocks,
        sub_goals,
        int0: word(&mut rng),
        gap: bytes(&mut rng),
        centre_region: rng.next_u64() as u16,
        centres,
        int1: word(&mut rng),
        trailing: bytes(&mut rng),
    }
}
