//! A second writer of `JMXVNVM 1000` bytes, written field by field from the spec page's ImHex
//! pattern (with the errata of NOTES.md §2) and sharing no code with `jmxv`, so that tests can
//! check that jmxv reads what another implementation of the spec writes, in every layout and
//! with odd values.

use crate::rng::SplitMix64;

/// An object record in the pattern's terms: (ResourceId, LocalPosition bits, IsStatic, Yaw
/// bits, UID, unkShort01, IsBig, IsStruct, RegionId, LinkEdges).
pub type SpecObject = (
    u32,
    [u32; 3],
    u16,
    u32,
    u16,
    u16,
    u8,
    u8,
    u16,
    Vec<[u16; 3]>,
);
/// A global edge: line bits, flags, directions, cells, regions.
pub type SpecGlobalEdge = ([u32; 4], u8, [u8; 2], [u16; 2], [u16; 2]);

/// An internal edge: line bits, flags, directions, cells.
pub type SpecInternalEdge = ([u32; 4], u8, [u8; 2], [u16; 2]);

/// What the independent writer put into a file, in the pattern's terms.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecFile {
    /// `char Signature[12]`.
    pub signature: [u8; 12],
    /// `NavMeshObj Objects[ObjectCount]`.
    pub objects: Vec<SpecObject>,
    /// `WalkableCellCount`.
    pub open_cells: u32,
    /// `Cell Cells[CellCount]`: rectangle bits and object indices.
    pub cells: Vec<([u32; 4], Vec<u16>)>,
    /// `GlobalEdge GlobalEdges[GlobalEdgeCount]`.
    pub global_edges: Vec<SpecGlobalEdge>,
    /// `InternalEdge`: line bits, flags, directions, cells.
    pub internal_edges: Vec<SpecInternalEdge>,
    /// `Tile TileMap[96*96]`: (CellIndex, Flags, TextureID); the legacy layouts store the first.
    pub tiles: Vec<(u32, u16, u16)>,
    /// `float HeightMap[97*97]`, as bits.
    pub heights: Vec<u32>,
    /// `PlaneTypeMap` and `PlaneHeightMap` bits; `None` in the layout without planes.
    pub planes: Option<(Vec<u8>, Vec<u32>)>,
    /// Whether tiles are the legacy 4-byte records.
    pub four_byte_tiles: bool,
    /// Bytes after the last section.
    pub trailing: Vec<u8>,
}

/// Odd f32 bit patterns every reader must keep: NaN payloads, −0, infinities, subnormals.
const ODD_FLOATS: [u32; 8] = [
    0x7fc0_0001,
    0xffa0_1234,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x0000_0001,
    0x807f_ffff,
    0x4270_0000,
];

impl SpecFile {
    /// A file with random content and odd values. `layout`: 0 standard (with `trailing`
    /// bytes), 1 four-byte tiles with planes, 2 four-byte tiles without planes.
    pub fn random(seed: u64, layout: u8) -> SpecFile {
        let mut rng = SplitMix64::new(seed);
        let float = |rng: &mut SplitMix64| {
            if rng.chance(0.2) {
                ODD_FLOATS[rng.range(0, ODD_FLOATS.len() as u32) as usize]
            } else {
                (rng.unit() as f32 * 1920.0).to_bits()
            }
        };
        let u16r = |rng: &mut SplitMix64| rng.next_u64() as u16;
        // Array elements are evaluated in order, so the stream is drawn as four calls would.
        let four_floats = |rng: &mut SplitMix64| [float(rng), float(rng), float(rng), float(rng)];
        let objects = (0..rng.range(0, 6))
            .map(|_| {
                let links = (0..rng.range(0, 4))
                    .map(|_| [u16r(&mut rng), u16r(&mut rng), u16r(&mut rng)])
                    .collect();
                (
                    rng.next_u64() as u32,
                    [float(&mut rng), float(&mut rng), float(&mut rng)],
                    [0xffff, 0, 7][rng.range(0, 3) as usize],
                    float(&mut rng),
                    u16r(&mut rng),
                    u16r(&mut rng),
                    rng.range(0, 256) as u8,
                    rng.range(0, 3) as u8,
                    u16r(&mut rng),
                    links,
                )
            })
            .collect();
        let cells = (0..rng.range(1, 8))
            .map(|_| {
                let objs = (0..rng.range(0, 5)).map(|_| u16r(&mut rng)).collect();
                (four_floats(&mut rng), objs)
            })
            .collect();
        let dir = |rng: &mut SplitMix64| [0u8, 1, 2, 3, 0xff, 0x80][rng.range(0, 6) as usize];
        let global_edges = (0..rng.range(0, 5))
            .map(|_| {
                (
                    four_floats(&mut rng),
                    rng.range(0, 256) as u8,
                    [dir(&mut rng), dir(&mut rng)],
                    [u16r(&mut rng), u16r(&mut rng)],
                    [u16r(&mut rng), u16r(&mut rng)],
                )
            })
            .collect();
        let internal_edges = (0..rng.range(0, 7))
            .map(|_| {
                (
                    four_floats(&mut rng),
                    rng.range(0, 256) as u8,
                    [dir(&mut rng), dir(&mut rng)],
                    [u16r(&mut rng), u16r(&mut rng)],
                )
            })
            .collect();
        let four_byte_tiles = layout != 0;
        let tiles = (0..96 * 96)
            .map(|_| {
                let cell = if rng.chance(0.1) {
                    rng.next_u64() as u32
                } else {
                    rng.range(0, 8)
                };
                if four_byte_tiles {
                    (cell, 0, 0)
                } else {
                    (cell, u16r(&mut rng), u16r(&mut rng))
                }
            })
            .collect();
        let heights = (0..97 * 97).map(|_| float(&mut rng)).collect();
        let planes = (layout != 2).then(|| {
            (
                (0..36).map(|_| rng.range(0, 5) as u8).collect(),
                (0..36).map(|_| float(&mut rng)).collect(),
            )
        });
        let trailing = if layout == 0 {
            (0..rng.range(0, 40))
                .map(|_| rng.next_u64() as u8)
                .collect()
        } else {
            Vec::new()
        };
        SpecFile {
            signature: *b"JMXVNVM 1000",
            objects,
            open_cells: rng.range(0, 9),
            cells,
            global_edges,
            internal_edges,
            tiles,
            heights,
            planes,
            four_byte_tiles,
            trailing,
        }
    }

    /// The file's bytes, in the pattern's order.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&self.signature);
        b.extend_from_slice(&(self.objects.len() as u16).to_le_bytes());
        for (id, pos, stat, yaw, uid, unk, big, st, rid, links) in &self.objects {
            b.extend_from_slice(&id.to_le_bytes());
            for p in pos {
                b.extend_from_slice(&p.to_le_bytes());
            }
            b.extend_from_slice(&stat.to_le_bytes());
            b.extend_from_slice(&yaw.to_le_bytes());
            b.extend_from_slice(&uid.to_le_bytes());
            b.extend_from_slice(&unk.to_le_bytes());
            b.push(*big);
            b.push(*st);
            b.extend_from_slice(&rid.to_le_bytes());
            b.extend_from_slice(&(links.len() as u16).to_le_bytes());
            for link in links {
                for v in link {
                    b.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        b.extend_from_slice(&(self.cells.len() as u32).to_le_bytes());
        b.extend_from_slice(&self.open_cells.to_le_bytes());
        for (rect, objs) in &self.cells {
            for v in rect {
                b.extend_from_slice(&v.to_le_bytes());
            }
            b.push(objs.len() as u8);
            for o in objs {
                b.extend_from_slice(&o.to_le_bytes());
            }
        }
        b.extend_from_slice(&(self.global_edges.len() as u32).to_le_bytes());
        for (line, flag, dir, cell, region) in &self.global_edges {
            for v in line {
                b.extend_from_slice(&v.to_le_bytes());
            }
            b.push(*flag);
            b.extend_from_slice(dir);
            for v in cell.iter().chain(region) {
                b.extend_from_slice(&v.to_le_bytes());
            }
        }
        b.extend_from_slice(&(self.internal_edges.len() as u32).to_le_bytes());
        for (line, flag, dir, cell) in &self.internal_edges {
            for v in line {
                b.extend_from_slice(&v.to_le_bytes());
            }
            b.push(*flag);
            b.extend_from_slice(dir);
            for v in cell {
                b.extend_from_slice(&v.to_le_bytes());
            }
        }
        for (cell, flag, texture) in &self.tiles {
            b.extend_from_slice(&cell.to_le_bytes());
            if !self.four_byte_tiles {
                b.extend_from_slice(&flag.to_le_bytes());
                b.extend_from_slice(&texture.to_le_bytes());
            }
        }
        for h in &self.heights {
            b.extend_from_slice(&h.to_le_bytes());
        }
        if let Some((types, heights)) = &self.planes {
            b.extend_from_slice(types);
            for h in heights {
                b.extend_from_slice(&h.to_le_bytes());
            }
        }
        b.extend_from_slice(&self.trailing);
        b
    }
}
