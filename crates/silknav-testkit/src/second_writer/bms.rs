//! A second writer of `JMXVBMS` object meshes, written from the layout in `docs/format.md`
//! ("JMXVBMS object meshes") and sharing no code with `jmxv`, so that tests can check that
//! jmxv reads what another implementation of the layout writes.
//!
//! It also builds the object meshes the world generator places: a walled building with a
//! doorway, a bridge deck whose ends link to the next span, a fortress gate with event zones,
//! and a render-only mesh without navigation. Each is laid out like a game file: a name and a
//! material string, a render vertex section before the navigation section and a bounding box
//! after it, with the header's offsets pointing at all three.

use super::ODD_FLOATS;
use crate::rng::SplitMix64;

/// Nav flag bits (the header's u32 at 0x38).
pub const EDGE_EVENTS: u32 = 1;
/// Cells carry an event byte.
pub const CELL_EVENTS: u32 = 2;
/// The event names are stored.
pub const EVENT_NAMES: u32 = 4;

/// Edge flags used by the meshes, as in the game data.
pub const WALL: u8 = 0x03;
/// Open outline edge: walkers pass between the object and the terrain.
pub const OPEN: u8 = 0x00;
/// Link to the edge of a linked object.
pub const LINK: u8 = 0x08;
/// Underpass: walkers below pass through, walkers on top cannot leave over it.
pub const UNDERPASS: u8 = 0x10;
/// Siege gate: blocks line of sight.
pub const SIEGE: u8 = 0x80;

/// No cell on an edge's second side.
pub const NONE: u16 = 0xFFFF;

/// An edge record: (vertex A, vertex B), (cell A, cell B), flag, event byte.
pub type SpecEdge = ([u16; 2], [u16; 2], u8, u8);

/// The navigation section, in the layout's terms.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecNav {
    /// Vertex position bits and direction byte.
    pub vertices: Vec<([u32; 3], u8)>,
    /// Cell vertex indices, flag, event byte (written only with [`CELL_EVENTS`]).
    pub cells: Vec<([u16; 3], u16, u8)>,
    /// Outline edges (event bytes written only with [`EDGE_EVENTS`]).
    pub outline: Vec<SpecEdge>,
    /// Inline edges.
    pub inline: Vec<SpecEdge>,
    /// Event names (written only with [`EVENT_NAMES`]).
    pub events: Vec<Vec<u8>>,
    /// Grid origin bits (x, z).
    pub grid_origin: [u32; 2],
    /// Grid width and height.
    pub grid_size: [i32; 2],
    /// Per tile, the outline edges listed.
    pub grid: Vec<Vec<u16>>,
}

/// The internal bit of an edge's flag: the edge joins two triangles of one mesh.
const EDGE_INTERNAL: u8 = 0x04;

/// `mesh` made like the game's meshes, as the server's walk over an object takes them for
/// granted: each triangle wound clockwise seen from above (this writer's meshes wind the
/// other way, and the walk never crosses their triangles), the internal bit 0x04 on each
/// inline edge (without it an inline edge leaves the object), and each vertex's direction
/// byte pointing away from the vertices' centre (a turn of 256 steps counter-clockwise from
/// +x, seen from above: the way a walker stepping off is pushed; this writer's point inward).
pub fn game_like(mut mesh: SpecObjectMesh) -> SpecObjectMesh {
    if let Some(nav) = mesh.nav.as_mut() {
        let xz =
            |bits: &[u32; 3]| [f32::from_bits(bits[0]), f32::from_bits(bits[2])].map(f64::from);
        let n = nav.vertices.len() as f64;
        let centre = nav.vertices.iter().fold([0.0; 2], |c, (p, _)| {
            let p = xz(p);
            [c[0] + p[0] / n, c[1] + p[1] / n]
        });
        for (p, direction) in &mut nav.vertices {
            let p = xz(p);
            let turns = (centre[1] - p[1]).atan2(p[0] - centre[0]) / std::f64::consts::TAU;
            *direction = (turns * 256.0).round().rem_euclid(256.0) as u8;
        }
        for cell in &mut nav.cells {
            cell.0.swap(1, 2);
        }
        for edge in &mut nav.inline {
            edge.2 |= EDGE_INTERNAL;
        }
    }
    mesh
}

/// A whole `.bms` file as the independent writer lays it out.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecObjectMesh {
    /// The 12 signature bytes.
    pub signature: [u8; 12],
    /// The mesh name string.
    pub name: Vec<u8>,
    /// The material name string.
    pub material: Vec<u8>,
    /// Render vertex positions, stored before the navigation section as 44-byte records.
    pub render_vertices: Vec<[f32; 3]>,
    /// The nav flags.
    pub nav_flags: u32,
    /// The navigation section; `None` writes a nav offset of 0.
    pub nav: Option<SpecNav>,
    /// The render bounding box (min, max), stored after the navigation section.
    pub bounding_box: [f32; 6],
    /// Bytes after the last section.
    pub trailing: Vec<u8>,
}

/// Byte positions the writer chose, for tests to check the reader against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpecLayout {
    /// Start of the render vertex section.
    pub render_vertices: usize,
    /// Start of the navigation section (0 when there is none).
    pub nav: usize,
    /// Start of the bounding box.
    pub bounding_box: usize,
    /// End of the bounding box, where the trailing bytes begin.
    pub end: usize,
}

fn u16le(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn u32le(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn f32le(out: &mut Vec<u8>, v: f32) {
    out.extend_from_slice(&v.to_le_bytes());
}

impl SpecNav {
    fn bytes(&self, flags: u32) -> Vec<u8> {
        let mut out = Vec::new();
        u32le(&mut out, self.vertices.len() as u32);
        for (pos, dir) in &self.vertices {
            for &bits in pos {
                u32le(&mut out, bits);
            }
            out.push(*dir);
        }
        u32le(&mut out, self.cells.len() as u32);
        for (v, flag, event) in &self.cells {
            for &i in v {
                u16le(&mut out, i);
            }
            u16le(&mut out, *flag);
            if flags & CELL_EVENTS != 0 {
                out.push(*event);
            }
        }
        for list in [&self.outline, &self.inline] {
            u32le(&mut out, list.len() as u32);
            for (v, c, flag, event) in list {
                u16le(&mut out, v[0]);
                u16le(&mut out, v[1]);
                u16le(&mut out, c[0]);
                u16le(&mut out, c[1]);
                out.push(*flag);
                if flags & EDGE_EVENTS != 0 {
                    out.push(*event);
                }
            }
        }
        if flags & EVENT_NAMES != 0 {
            u32le(&mut out, self.events.len() as u32);
            for name in &self.events {
                u32le(&mut out, name.len() as u32);
                out.extend_from_slice(name);
            }
        }
        u32le(&mut out, self.grid_origin[0]);
        u32le(&mut out, self.grid_origin[1]);
        out.extend_from_slice(&self.grid_size[0].to_le_bytes());
        out.extend_from_slice(&self.grid_size[1].to_le_bytes());
        u32le(&mut out, self.grid.len() as u32);
        for tile in &self.grid {
            u32le(&mut out, tile.len() as u32);
            for &e in tile {
                u16le(&mut out, e);
            }
        }
        out
    }
}

impl SpecObjectMesh {
    /// The file's bytes and where its sections went.
    pub fn to_bytes_with_layout(&self) -> (Vec<u8>, SpecLayout) {
        // Header: signature, ten offsets, unknown, nav flags, sub-primitive count, vertex
        // flags, unknown: 72 bytes. Then the two strings and a zero word.
        let strings = 4 + self.name.len() + 4 + self.material.len() + 4;
        let render_vertices = 72 + strings;
        let render_len = 4 + 44 * self.render_vertices.len();
        let nav_bytes = self.nav.as_ref().map(|n| n.bytes(self.nav_flags));
        let nav = if nav_bytes.is_some() {
            render_vertices + render_len
        } else {
            0
        };
        let bounding_box = render_vertices + render_len + nav_bytes.as_ref().map_or(0, Vec::len);
        let end = bounding_box + 24;

        let mut out = Vec::with_capacity(end + self.trailing.len());
        out.extend_from_slice(&self.signature);
        let mut offsets = [0u32; 10];
        offsets[0] = render_vertices as u32;
        offsets[5] = bounding_box as u32;
        offsets[7] = nav as u32;
        for o in offsets {
            u32le(&mut out, o);
        }
        for field in [0, self.nav_flags, 1, 0, 0] {
            u32le(&mut out, field);
        }
        u32le(&mut out, self.name.len() as u32);
        out.extend_from_slice(&self.name);
        u32le(&mut out, self.material.len() as u32);
        out.extend_from_slice(&self.material);
        u32le(&mut out, 0);
        u32le(&mut out, self.render_vertices.len() as u32);
        for p in &self.render_vertices {
            // Position, normal (up), uv, then a float and two words, as vertex flags 0 store.
            for v in p.iter().chain(&[0.0, 1.0, 0.0, 0.5, 0.5, 0.0]) {
                f32le(&mut out, *v);
            }
            u32le(&mut out, 0xFFFF_FFFF);
            u32le(&mut out, 0);
        }
        if let Some(nav) = nav_bytes {
            out.extend_from_slice(&nav);
        }
        for v in self.bounding_box {
            f32le(&mut out, v);
        }
        out.extend_from_slice(&self.trailing);
        debug_assert_eq!(out.len(), end + self.trailing.len());
        (
            out,
            SpecLayout {
                render_vertices,
                nav,
                bounding_box,
                end,
            },
        )
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_bytes_with_layout().0
    }
}

/// The direction byte (angle `i · 2π / 256`, direction `(cos, −sin)` in x, z) nearest to the
/// direction from `from` to `to`.
fn direction_byte(from: [f32; 2], to: [f32; 2]) -> u8 {
    let (dx, dz) = (f64::from(to[0] - from[0]), f64::from(to[1] - from[1]));
    let turns = (-dz).atan2(dx) / std::f64::consts::TAU;
    (turns * 256.0).round().rem_euclid(256.0) as u8
}

/// A navigation section from vertex positions, cells and edges: direction bytes toward the
/// centre of the vertices, and the outline grid with its origin at the vertices' min x and z,
/// 100-unit tiles, and every outline edge listed in every tile whose closed square it touches.
fn nav_from(
    positions: &[[f32; 3]],
    cells: Vec<([u16; 3], u16, u8)>,
    outline: Vec<SpecEdge>,
    inline: Vec<SpecEdge>,
    events: Vec<Vec<u8>>,
) -> SpecNav {
    let n = positions.len() as f32;
    let centre = [
        positions.iter().map(|p| p[0]).sum::<f32>() / n,
        positions.iter().map(|p| p[2]).sum::<f32>() / n,
    ];
    let vertices = positions
        .iter()
        .map(|p| (p.map(f32::to_bits), direction_byte([p[0], p[2]], centre)))
        .collect();
    let min = [0, 2].map(|k| positions.iter().map(|p| p[k]).fold(f32::MAX, f32::min));
    let max = [0, 2].map(|k| positions.iter().map(|p| p[k]).fold(f32::MIN, f32::max));
    let size = [0, 1].map(|k| (((max[k] - min[k]) / 100.0).ceil() as i32).max(1));
    let mut grid = vec![Vec::new(); (size[0] * size[1]) as usize];
    for (i, (v, ..)) in outline.iter().enumerate() {
        let a = positions[usize::from(v[0])];
        let b = positions[usize::from(v[1])];
        let (a, b) = (
            [a[0] - min[0], a[2] - min[1]],
            [b[0] - min[0], b[2] - min[1]],
        );
        for tz in 0..size[1] {
            for tx in 0..size[0] {
                let lo = [tx as f32 * 100.0, tz as f32 * 100.0];
                let hi = [lo[0] + 100.0, lo[1] + 100.0];
                if segment_touches_square(a, b, lo, hi) {
                    grid[(tz * size[0] + tx) as usize].push(i as u16);
                }
            }
        }
    }
    SpecNav {
        vertices,
        cells,
        outline,
        inline,
        events,
        grid_origin: min.map(f32::to_bits),
        grid_size: size,
        grid,
    }
}

/// Whether the segment touches the closed square: their boxes overlap, and the square's corners
/// are not all strictly on one side of the segment's line.
fn segment_touches_square(a: [f32; 2], b: [f32; 2], lo: [f32; 2], hi: [f32; 2]) -> bool {
    if a[0].max(b[0]) < lo[0] || a[0].min(b[0]) > hi[0] {
        return false;
    }
    if a[1].max(b[1]) < lo[1] || a[1].min(b[1]) > hi[1] {
        return false;
    }
    let side = |p: [f32; 2]| {
        let s = f64::from(b[0] - a[0]) * f64::from(p[1] - a[1])
            - f64::from(b[1] - a[1]) * f64::from(p[0] - a[0]);
        s.signum() as i32 * i32::from(s != 0.0)
    };
    let sides = [
        side(lo),
        side([hi[0], lo[1]]),
        side(hi),
        side([lo[0], hi[1]]),
    ];
    !(sides.iter().all(|&s| s > 0) || sides.iter().all(|&s| s < 0))
}

/// A render box around the nav vertices: eight corners from `y0` to `y1`.
fn render_box(positions: &[[f32; 3]], y0: f32, y1: f32) -> (Vec<[f32; 3]>, [f32; 6]) {
    let min = [0, 2].map(|k| positions.iter().map(|p| p[k]).fold(f32::MAX, f32::min));
    let max = [0, 2].map(|k| positions.iter().map(|p| p[k]).fold(f32::MIN, f32::max));
    let mut corners = Vec::new();
    for y in [y0, y1] {
        for (x, z) in [
            (min[0], min[1]),
            (max[0], min[1]),
            (max[0], max[1]),
            (min[0], max[1]),
        ] {
            corners.push([x, y, z]);
        }
    }
    (corners, [min[0], y0, min[1], max[0], y1, max[1]])
}

/// A mesh whose navigation section is made from vertex positions, cells and edges (as the
/// meshes below are: direction bytes toward the vertices' centre, the outline grid in 100-unit
/// tiles), with a render box around it.
pub fn mesh_of(
    positions: &[[f32; 3]],
    cells: Vec<([u16; 3], u16, u8)>,
    outline: Vec<SpecEdge>,
    inline: Vec<SpecEdge>,
) -> SpecObjectMesh {
    let (render_vertices, bounding_box) = render_box(positions, 0.0, 60.0);
    SpecObjectMesh {
        signature: *b"JMXVBMS 0110",
        name: b"mesh".to_vec(),
        material: b"mesh_mat".to_vec(),
        render_vertices,
        nav_flags: 0,
        nav: Some(nav_from(positions, cells, outline, inline, Vec::new())),
        bounding_box,
        trailing: Vec::new(),
    }
}

/// A 400 × 300 building: a walled rectangle whose south wall (z = 0) has a doorway from x = 160
/// to 240. Four floor triangles fanned from the north-west corner; five wall edges (0x03), one
/// open doorway edge; three inline edges. Lints clean.
pub fn box_building() -> SpecObjectMesh {
    let p: Vec<[f32; 3]> = vec![
        [0.0, 2.0, 0.0],
        [160.0, 2.0, 0.0],
        [240.0, 2.0, 0.0],
        [400.0, 2.0, 0.0],
        [400.0, 2.0, 300.0],
        [0.0, 2.0, 300.0],
    ];
    let cells = vec![
        ([5, 0, 1], 0, 0),
        ([5, 1, 2], 0, 0),
        ([5, 2, 3], 0, 0),
        ([5, 3, 4], 0, 0),
    ];
    let outline = vec![
        ([0, 1], [0, NONE], WALL, 0),
        ([1, 2], [1, NONE], OPEN, 0),
        ([2, 3], [2, NONE], WALL, 0),
        ([3, 4], [3, NONE], WALL, 0),
        ([4, 5], [3, NONE], WALL, 0),
        ([5, 0], [0, NONE], WALL, 0),
    ];
    let inline = vec![
        ([1, 5], [0, 1], 0, 0),
        ([2, 5], [1, 2], 0, 0),
        ([3, 5], [2, 3], 0, 0),
    ];
    let (render_vertices, bounding_box) = render_box(&p, 0.0, 120.0);
    SpecObjectMesh {
        signature: *b"JMXVBMS 0110",
        name: b"house_a01".to_vec(),
        material: b"house_a01_mat".to_vec(),
        render_vertices,
        nav_flags: 0,
        nav: Some(nav_from(&p, cells, outline, inline, Vec::new())),
        bounding_box,
        trailing: Vec::new(),
    }
}

/// A 600 × 80 bridge span rising from y = 40 at its ends to 46 in the middle, in three
/// 200-unit segments of two triangles each. Its sides are underpass edges (0x10: walkers below
/// pass, walkers on the deck cannot step off); both ends are link edges (0x08) to the next
/// span. A `JMXVBMS 0109` file. Lints clean.
pub fn bridge_deck() -> SpecObjectMesh {
    let y = [40.0, 46.0, 46.0, 40.0];
    let mut p = Vec::new();
    for z in [0.0, 80.0] {
        for (s, &h) in y.iter().enumerate() {
            p.push([200.0 * s as f32, h, z]);
        }
    }
    let mut cells = Vec::new();
    let mut outline = Vec::new();
    let mut inline = Vec::new();
    for s in 0..3u16 {
        // Segment s: vertices s, s+1 on the south side, s+4, s+5 on the north side.
        cells.push(([s, s + 1, s + 5], 0, 0));
        cells.push(([s, s + 5, s + 4], 0, 0));
        outline.push(([s, s + 1], [2 * s, NONE], UNDERPASS, 0));
        outline.push(([s + 5, s + 4], [2 * s + 1, NONE], UNDERPASS, 0));
        inline.push(([s, s + 5], [2 * s, 2 * s + 1], 0, 0));
        if s < 2 {
            inline.push(([s + 1, s + 5], [2 * s, 2 * s + 3], 0, 0));
        }
    }
    outline.push(([4, 0], [1, NONE], LINK, 0));
    outline.push(([3, 7], [4, NONE], LINK, 0));
    let (render_vertices, bounding_box) = render_box(&p, 30.0, 60.0);
    SpecObjectMesh {
        signature: *b"JMXVBMS 0109",
        name: b"bridge_span".to_vec(),
        material: b"bridge_stone".to_vec(),
        render_vertices,
        nav_flags: 0,
        nav: Some(nav_from(&p, cells, outline, inline, Vec::new())),
        bounding_box,
        trailing: Vec::new(),
    }
}

/// A 200 × 100 fortress gate passage: an outer and an inner half (two triangles each) split at
/// x = 100 by a siege gate (inline edge 0x80). Nav flags 7: the outer entrance edge fires event
/// 0 (`gate_outer`) when entered, the inner cells fire event 1 (`gate_inner`); the side walls
/// are 0x03. Four trailing bytes after the last section. Lints clean.
pub fn event_gate() -> SpecObjectMesh {
    let p: Vec<[f32; 3]> = vec![
        [0.0, 0.0, 0.0],
        [100.0, 0.0, 0.0],
        [200.0, 0.0, 0.0],
        [200.0, 0.0, 100.0],
        [100.0, 0.0, 100.0],
        [0.0, 0.0, 100.0],
    ];
    let enter = |event: u8| 0x40 | event;
    let cells = vec![
        ([0, 1, 4], 0, 0),
        ([0, 4, 5], 0, 0),
        ([1, 2, 3], 0, enter(1)),
        ([1, 3, 4], 0, enter(1)),
    ];
    let outline = vec![
        ([0, 1], [0, NONE], WALL, 0),
        ([1, 2], [2, NONE], WALL, 0),
        ([2, 3], [2, NONE], OPEN, 0),
        ([3, 4], [3, NONE], WALL, 0),
        ([4, 5], [1, NONE], WALL, 0),
        ([5, 0], [1, NONE], OPEN, enter(0)),
    ];
    let inline = vec![
        ([0, 4], [0, 1], 0, 0),
        ([1, 4], [0, 3], SIEGE, 0),
        ([1, 3], [2, 3], 0, 0),
    ];
    let events = vec![b"gate_outer".to_vec(), b"gate_inner".to_vec()];
    let (render_vertices, bounding_box) = render_box(&p, 0.0, 80.0);
    SpecObjectMesh {
        signature: *b"JMXVBMS 0110",
        name: b"fort_gate".to_vec(),
        material: b"fort_stone".to_vec(),
        render_vertices,
        nav_flags: EDGE_EVENTS | CELL_EVENTS | EVENT_NAMES,
        nav: Some(nav_from(&p, cells, outline, inline, events)),
        bounding_box,
        trailing: vec![0xde, 0xad, 0xbe, 0xef],
    }
}

/// A tree: a render mesh without a navigation section (nav offset 0).
pub fn render_only() -> SpecObjectMesh {
    let (render_vertices, bounding_box) =
        render_box(&[[-5.0, 0.0, -5.0], [5.0, 0.0, 5.0]], 0.0, 30.0);
    SpecObjectMesh {
        signature: *b"JMXVBMS 0110",
        name: b"tree01".to_vec(),
        material: b"tree01_mat".to_vec(),
        render_vertices,
        nav_flags: 0,
        nav: None,
        bounding_box,
        trailing: Vec::new(),
    }
}

/// The realistic meshes: building, bridge, gate, tree.
pub fn meshes() -> Vec<SpecObjectMesh> {
    vec![box_building(), bridge_deck(), event_gate(), render_only()]
}

/// A mesh of random records with odd values everywhere (indices out of range, NaN positions,
/// odd flags and events, a grid that does not match its size): not valid, but every value must
/// come back as written.
pub fn odd(seed: u64) -> SpecObjectMesh {
    let mut rng = SplitMix64::new(seed);
    let bits = |rng: &mut SplitMix64| {
        if rng.chance(0.3) {
            ODD_FLOATS[rng.range(0, ODD_FLOATS.len() as u32) as usize]
        } else {
            rng.next_u64() as u32
        }
    };
    let nav_flags = rng.next_u64() as u32;
    let edge = |rng: &mut SplitMix64| -> SpecEdge {
        let w = rng.next_u64();
        let second = if rng.chance(0.5) {
            NONE
        } else {
            rng.next_u64() as u16
        };
        let event = if nav_flags & EDGE_EVENTS != 0 {
            (w >> 56) as u8
        } else {
            0
        };
        (
            [w as u16, (w >> 16) as u16],
            [(w >> 32) as u16, second],
            (w >> 48) as u8,
            event,
        )
    };
    let vertices = (0..rng.range(0, 6))
        .map(|_| {
            (
                [bits(&mut rng), bits(&mut rng), bits(&mut rng)],
                rng.next_u64() as u8,
            )
        })
        .collect();
    let cells = (0..rng.range(0, 6))
        .map(|_| {
            let w = rng.next_u64();
            let event = if nav_flags & CELL_EVENTS != 0 {
                (w >> 56) as u8
            } else {
                0
            };
            (
                [w as u16, (w >> 16) as u16, (w >> 32) as u16],
                (w >> 40) as u16,
                event,
            )
        })
        .collect();
    let outline = (0..rng.range(0, 5)).map(|_| edge(&mut rng)).collect();
    let inline = (0..rng.range(0, 5)).map(|_| edge(&mut rng)).collect();
    let events = if nav_flags & EVENT_NAMES != 0 {
        (0..rng.range(0, 4))
            .map(|_| {
                (0..rng.range(0, 12))
                    .map(|_| rng.next_u64() as u8)
                    .collect()
            })
            .collect()
    } else {
        Vec::new()
    };
    let grid = (0..rng.range(0, 5))
        .map(|_| {
            (0..rng.range(0, 4))
                .map(|_| rng.next_u64() as u16)
                .collect()
        })
        .collect();
    let nav = SpecNav {
        vertices,
        cells,
        outline,
        inline,
        events,
        grid_origin: [bits(&mut rng), bits(&mut rng)],
        grid_size: [rng.next_u64() as i32, -(rng.range(0, 3) as i32)],
        grid,
    };
    SpecObjectMesh {
        signature: if rng.chance(0.5) {
            *b"JMXVBMS 0109"
        } else {
            *b"JMXVBMS 0110"
        },
        name: (0..rng.range(0, 8)).map(|_| rng.next_u64() as u8).collect(),
        material: vec![0xb3, 0xaa],
        render_vertices: vec![[f32::from_bits(ODD_FLOATS[0]), -0.0, 1.0]],
        nav_flags,
        nav: Some(nav),
        bounding_box: [f32::from_bits(ODD_FLOATS[3]), -0.0, 0.0, 1.0, 2.0, 3.0],
        trailing: (0..rng.range(0, 6)).map(|_| rng.next_u64() as u8).collect(),
    }
}
