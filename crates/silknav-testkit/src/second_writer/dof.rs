//! A second writer of `JMXVDOF 0101` dungeon files, written from the layout in `docs/format.md`
//! ("JMXVDOF dungeons") and sharing no code with `jmxv`, so that tests can check that jmxv
//! reads what another implementation of the layout writes.
//!
//! Floats are given by their bits, strings as bytes. The writer lays the sections out in the
//! order it is given, with the filler bytes it is given before each and after the last, and
//! fills the header's offsets in from where the sections landed. It records where it wrote each
//! section and each count ([`SpecLayout`]), so tests can break a file at a known place.
//!
//! It also builds dungeons: a four-block temple on two floors ([`temple`]), a cave in the legacy
//! block layout ([`legacy_cave`]), the temple with its sections shuffled and padded
//! ([`shuffled_temple`]), and seeded files of odd values ([`odd`]).

use super::ODD_FLOATS;
use crate::rng::SplitMix64;

/// The sections a header offset points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpecSection {
    /// The two bounding boxes.
    Boxes,
    /// The block list.
    Blocks,
    /// The voxel grid.
    Grid,
    /// The link lists.
    Links,
    /// The room and floor names.
    Labels,
    /// The block groups.
    Groups,
}

impl SpecSection {
    /// Every section, in the order the temple's file lays them out.
    pub const ALL: [SpecSection; 6] = [
        SpecSection::Boxes,
        SpecSection::Blocks,
        SpecSection::Grid,
        SpecSection::Links,
        SpecSection::Labels,
        SpecSection::Groups,
    ];

    /// Which of the header's eight u32s holds this section's offset: blocks, links, grid,
    /// groups, labels, two unused, boxes.
    pub const fn header_slot(self) -> usize {
        match self {
            SpecSection::Blocks => 0,
            SpecSection::Links => 1,
            SpecSection::Grid => 2,
            SpecSection::Groups => 3,
            SpecSection::Labels => 4,
            SpecSection::Boxes => 7,
        }
    }
}

/// The info after the header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecInfo {
    /// i16 type.
    pub object_type: i16,
    /// i16 category.
    pub category: i16,
    /// The name.
    pub name: Vec<u8>,
    /// The two u32s after the name.
    pub unknown: [u32; 2],
    /// The u16 region id.
    pub region_id: u16,
}

/// An object of a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecObject {
    /// Name.
    pub name: Vec<u8>,
    /// Resource path.
    pub path: Vec<u8>,
    /// Position, rotation and scale: nine float bit patterns.
    pub transform: [u32; 9],
    /// Flag (2 collision, 4 water).
    pub flag: u32,
    /// The u32 after the flag.
    pub unknown: u32,
    /// Radius squared, as bits.
    pub radius_squared: u32,
    /// Water colour, written only when the flag has 4.
    pub water_colour: u32,
}

/// A light: name and 15 float bit patterns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecLight {
    /// Name.
    pub name: Vec<u8>,
    /// Position, three colours, attenuation.
    pub floats: [u32; 15],
}

/// A block record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecBlock {
    /// Resource path.
    pub path: Vec<u8>,
    /// Name.
    pub name: Vec<u8>,
    /// The u32 after the name.
    pub unknown0: u32,
    /// Position bits.
    pub position: [u32; 3],
    /// Yaw bits.
    pub yaw: u32,
    /// The four is-entrance bytes as a u32.
    pub is_entrance: u32,
    /// Box bits: min x, y, z, max x, y, z.
    pub bounding_box: [u32; 6],
    /// The u32 after the box.
    pub unknown1: u32,
    /// Fog colour.
    pub fog_colour: u32,
    /// Fog near, far, intensity bits.
    pub fog: [u32; 3],
    /// Height fog bits: byte 1 and these, or byte 0 (standard layout only).
    pub height_fog: Option<[u32; 4]>,
    /// The extra group: byte 2 and six float bits and a u32, or byte 0.
    pub extra: Option<([u32; 6], u32)>,
    /// The string after the flags.
    pub unknown_string: Vec<u8>,
    /// Room index (-1 none).
    pub room: i32,
    /// Floor index.
    pub floor: u32,
    /// Connected blocks.
    pub connected: Vec<u32>,
    /// Visible blocks.
    pub visible: Vec<u32>,
    /// The collision-object count, written as given.
    pub collision_count: u32,
    /// Objects.
    pub objects: Vec<SpecObject>,
    /// Lights.
    pub lights: Vec<SpecLight>,
}

/// A group of blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecGroup {
    /// Name.
    pub name: Vec<u8>,
    /// Flag.
    pub flag: u32,
    /// Block indices.
    pub blocks: Vec<u32>,
}

/// Room names and floor names.
pub type SpecLabels = (Vec<Vec<u8>>, Vec<Vec<u8>>);

/// A whole `.dof` file as the independent writer lays it out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecDungeon {
    /// The info.
    pub info: SpecInfo,
    /// The header's sixth and seventh u32s, written as given.
    pub reserved_offsets: [u32; 2],
    /// Box0 and box1 bits.
    pub boxes: [[u32; 6]; 2],
    /// One flag byte per block (the extra byte) instead of two.
    pub legacy: bool,
    /// Blocks.
    pub blocks: Vec<SpecBlock>,
    /// Grid width, height, length.
    pub grid_size: [u32; 3],
    /// Voxels: id and block indices.
    pub voxels: Vec<(u32, Vec<u32>)>,
    /// Link lists.
    pub links: Vec<Vec<u32>>,
    /// Room names and floor names; `None` writes a label offset of 0.
    pub labels: Option<SpecLabels>,
    /// Groups.
    pub groups: Vec<SpecGroup>,
    /// The sections in file order, each with the filler bytes written before it. Labels are
    /// written only when there are some.
    pub sections: Vec<(SpecSection, Vec<u8>)>,
    /// Bytes after the last section.
    pub trailing: Vec<u8>,
}

/// Where the writer put things.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecLayout {
    /// The header's eight u32s as written.
    pub offsets: [u32; 8],
    /// Where the info ends.
    pub info_end: usize,
    /// Each section written: start and end.
    pub sections: Vec<(SpecSection, usize, usize)>,
    /// Where each u32 count or string length was written, named by the field it counts
    /// (`blocks`, `blocks[0].objects`, `blocks[1].lights[0].name`, `grid_voxels[2].blocks`).
    pub counts: Vec<(String, usize)>,
}

/// A little-endian byte builder that records where counts go.
struct Out {
    bytes: Vec<u8>,
    counts: Vec<(String, usize)>,
}

impl Out {
    fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    fn words(&mut self, vs: &[u32]) {
        for &v in vs {
            self.u32(v);
        }
    }

    fn count(&mut self, what: String, n: usize) {
        self.counts.push((what, self.bytes.len()));
        self.u32(n as u32);
    }

    fn string(&mut self, what: String, s: &[u8]) {
        self.count(what, s.len());
        self.bytes.extend_from_slice(s);
    }

    fn list(&mut self, what: String, vs: &[u32]) {
        self.count(what, vs.len());
        self.words(vs);
    }
}

impl SpecDungeon {
    /// The file's bytes and where things went.
    pub fn to_bytes_with_layout(&self) -> (Vec<u8>, SpecLayout) {
        let mut out = Out {
            bytes: b"JMXVDOF 0101".to_vec(),
            counts: Vec::new(),
        };
        // Eight offsets, filled in at the end.
        out.words(&[0; 8]);
        out.bytes
            .extend_from_slice(&self.info.object_type.to_le_bytes());
        out.bytes
            .extend_from_slice(&self.info.category.to_le_bytes());
        out.string("info.name".to_owned(), &self.info.name);
        out.words(&self.info.unknown);
        out.bytes
            .extend_from_slice(&self.info.region_id.to_le_bytes());
        let info_end = out.bytes.len();

        let mut offsets = [0u32; 8];
        offsets[5] = self.reserved_offsets[0];
        offsets[6] = self.reserved_offsets[1];
        let mut sections = Vec::new();
        for (section, filler) in &self.sections {
            if *section == SpecSection::Labels && self.labels.is_none() {
                continue;
            }
            out.bytes.extend_from_slice(filler);
            let start = out.bytes.len();
            offsets[section.header_slot()] = start as u32;
            match section {
                SpecSection::Boxes => {
                    out.words(&self.boxes[0]);
                    out.words(&self.boxes[1]);
                }
                SpecSection::Blocks => self.write_blocks(&mut out),
                SpecSection::Grid => {
                    out.words(&self.grid_size);
                    out.count("grid_voxels".to_owned(), self.voxels.len());
                    for (v, (id, blocks)) in self.voxels.iter().enumerate() {
                        out.u32(*id);
                        out.list(format!("grid_voxels[{v}].blocks"), blocks);
                    }
                }
                SpecSection::Links => {
                    out.count("links".to_owned(), self.links.len());
                    for (i, list) in self.links.iter().enumerate() {
                        out.list(format!("links[{i}]"), list);
                    }
                }
                SpecSection::Labels => {
                    let (rooms, floors) = self.labels.as_ref().expect("checked above");
                    for (what, names) in [("labels.rooms", rooms), ("labels.floors", floors)] {
                        out.count(what.to_owned(), names.len());
                        for (i, name) in names.iter().enumerate() {
                            out.string(format!("{what}[{i}]"), name);
                        }
                    }
                }
                SpecSection::Groups => {
                    out.count("groups".to_owned(), self.groups.len());
                    for (g, group) in self.groups.iter().enumerate() {
                        out.string(format!("groups[{g}].name"), &group.name);
                        out.u32(group.flag);
                        out.list(format!("groups[{g}].blocks"), &group.blocks);
                    }
                }
            }
            sections.push((*section, start, out.bytes.len()));
        }
        out.bytes.extend_from_slice(&self.trailing);
        for (i, o) in offsets.iter().enumerate() {
            out.bytes[12 + 4 * i..16 + 4 * i].copy_from_slice(&o.to_le_bytes());
        }
        (
            out.bytes,
            SpecLayout {
                offsets,
                info_end,
                sections,
                counts: out.counts,
            },
        )
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_bytes_with_layout().0
    }

    fn write_blocks(&self, out: &mut Out) {
        out.count("blocks".to_owned(), self.blocks.len());
        for (i, b) in self.blocks.iter().enumerate() {
            out.string(format!("blocks[{i}].path"), &b.path);
            out.string(format!("blocks[{i}].name"), &b.name);
            out.u32(b.unknown0);
            out.words(&b.position);
            out.u32(b.yaw);
            out.u32(b.is_entrance);
            out.words(&b.bounding_box);
            out.u32(b.unknown1);
            out.u32(b.fog_colour);
            out.words(&b.fog);
            if !self.legacy {
                match &b.height_fog {
                    Some(h) => {
                        out.bytes.push(1);
                        out.words(h);
                    }
                    None => out.bytes.push(0),
                }
            }
            match &b.extra {
                Some((floats, value)) => {
                    out.bytes.push(2);
                    out.words(floats);
                    out.u32(*value);
                }
                None => out.bytes.push(0),
            }
            out.string(format!("blocks[{i}].unknown_string"), &b.unknown_string);
            out.u32(b.room as u32);
            out.u32(b.floor);
            out.list(format!("blocks[{i}].connected"), &b.connected);
            out.list(format!("blocks[{i}].visible"), &b.visible);
            out.count(format!("blocks[{i}].objects"), b.objects.len());
            out.u32(b.collision_count);
            for (j, o) in b.objects.iter().enumerate() {
                out.string(format!("blocks[{i}].objects[{j}].name"), &o.name);
                out.string(format!("blocks[{i}].objects[{j}].path"), &o.path);
                out.words(&o.transform);
                out.u32(o.flag);
                out.u32(o.unknown);
                out.u32(o.radius_squared);
                if o.flag & 4 != 0 {
                    out.u32(o.water_colour);
                }
            }
            out.count(format!("blocks[{i}].lights"), b.lights.len());
            for (k, l) in b.lights.iter().enumerate() {
                out.string(format!("blocks[{i}].lights[{k}].name"), &l.name);
                out.words(&l.floats);
            }
        }
    }
}

fn bits<const N: usize>(values: [f32; N]) -> [u32; N] {
    values.map(f32::to_bits)
}

/// A voxel id: x in bits 0–9, z in bits 10–19, y in bits 20–29.
pub const fn voxel_id(x: u32, y: u32, z: u32) -> u32 {
    x | z << 10 | y << 20
}

fn light(name: &[u8], position: [f32; 3], colour: [f32; 3]) -> SpecLight {
    let mut floats = [0.0f32; 15];
    floats[..3].copy_from_slice(&position);
    floats[3..6].copy_from_slice(&colour);
    floats[6..9].copy_from_slice(&colour.map(|c| c * 0.2));
    floats[12..15].copy_from_slice(&[1.0, 0.01, 0.0001]);
    SpecLight {
        name: name.to_vec(),
        floats: bits(floats),
    }
}

fn object(name: &[u8], path: &[u8], position: [f32; 3], flag: u32, radius: f32) -> SpecObject {
    let mut transform = [0.0f32; 9];
    transform[..3].copy_from_slice(&position);
    transform[6..].copy_from_slice(&[1.0; 3]);
    SpecObject {
        name: name.to_vec(),
        path: path.to_vec(),
        transform: bits(transform),
        flag,
        unknown: 0,
        radius_squared: (radius * radius).to_bits(),
        water_colour: if flag & 4 != 0 { 0xFF30_60A0 } else { 0 },
    }
}

#[allow(clippy::too_many_arguments)]
fn block(
    path: &[u8],
    name: &[u8],
    position: [f32; 3],
    yaw: f32,
    half: [f32; 3],
    room: i32,
    floor: u32,
    connected: Vec<u32>,
) -> SpecBlock {
    SpecBlock {
        path: path.to_vec(),
        name: name.to_vec(),
        unknown0: 0,
        position: bits(position),
        yaw: yaw.to_bits(),
        is_entrance: 0,
        bounding_box: bits([-half[0], 0.0, -half[2], half[0], half[1], half[2]]),
        unknown1: 0xFF1E_1E1E,
        fog_colour: 0xFF20_3040,
        fog: bits([100.0, 2000.0, 0.8]),
        height_fog: None,
        extra: None,
        unknown_string: Vec::new(),
        room,
        floor,
        visible: connected.clone(),
        connected,
        collision_count: 0,
        objects: Vec::new(),
        lights: Vec::new(),
    }
}

/// A temple of four blocks on two floors, in the standard layout with every section in the
/// order boxes, blocks, grid, links, labels, groups and nothing between them: an entrance hall
/// (height fog, is-entrance 1, a torch and a pillar that is a collision circle of radius 25), a
/// corridor with the extra group, a stair block without a room, and an upper chamber (named in
/// CP949) with a pool of water. The voxel grid is 8 × 2 × 4 voxels from box0's min
/// (−400, −100, −400); the links are the connected lists; two groups. Lints clean.
pub fn temple() -> SpecDungeon {
    let mut hall = block(
        b"dungeon\\temple\\hall.bsr",
        b"hall",
        [-200.0, 0.0, -200.0],
        0.0,
        [200.0, 150.0, 200.0],
        0,
        0,
        vec![1],
    );
    hall.is_entrance = 1;
    hall.height_fog = Some(bits([1.0, 50.0, 0.5, 200.0]));
    hall.objects = vec![
        object(
            b"torch01",
            b"dungeon\\temple\\torch.bsr",
            [50.0, 0.0, 50.0],
            0,
            0.0,
        ),
        object(
            b"pillar01",
            b"dungeon\\temple\\pillar.bsr",
            [0.0, 0.0, 0.0],
            2,
            25.0,
        ),
    ];
    hall.collision_count = 1;
    hall.lights = vec![
        light(b"hall_light0", [0.0, 120.0, 0.0], [1.0, 0.9, 0.7]),
        light(b"hall_light1", [150.0, 120.0, 0.0], [0.9, 0.5, 0.3]),
    ];
    let mut corridor = block(
        b"dungeon\\temple\\corridor.bsr",
        b"corridor",
        [200.0, 0.0, -100.0],
        std::f32::consts::FRAC_PI_2,
        [100.0, 120.0, 200.0],
        1,
        0,
        vec![0, 2],
    );
    corridor.extra = Some((bits([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), 7));
    corridor.lights = vec![light(b"corridor_light", [0.0, 100.0, 0.0], [0.6, 0.6, 0.8])];
    let stair = block(
        b"dungeon\\temple\\stair.bsr",
        b"stair",
        [500.0, 0.0, -100.0],
        0.0,
        [100.0, 400.0, 100.0],
        -1,
        0,
        vec![1, 3],
    );
    let mut chamber = block(
        b"dungeon\\temple\\chamber.bsr",
        // "방" (room) in CP949.
        &[0xB9, 0xE6],
        [800.0, 200.0, 0.0],
        -std::f32::consts::FRAC_PI_2,
        [200.0, 150.0, 200.0],
        2,
        1,
        vec![2],
    );
    chamber.objects = vec![object(
        b"pool",
        b"dungeon\\temple\\pool.bsr",
        [0.0, 0.0, 50.0],
        4,
        0.0,
    )];
    chamber.lights = vec![light(b"chamber_light", [0.0, 100.0, 0.0], [0.3, 0.5, 1.0])];
    let blocks = vec![hall, corridor, stair, chamber];
    let links = blocks.iter().map(|b| b.connected.clone()).collect();
    let mut voxels = Vec::new();
    for (x, y, z, b) in [
        (0, 0, 0, 0),
        (1, 0, 0, 0),
        (0, 0, 1, 0),
        (1, 0, 1, 0),
        (2, 0, 1, 1),
        (3, 0, 1, 1),
        (4, 0, 1, 2),
        (4, 1, 1, 2),
        (5, 1, 1, 3),
        (6, 1, 1, 3),
        (5, 1, 2, 3),
        (6, 1, 2, 3),
    ] {
        voxels.push((voxel_id(x, y, z), vec![b]));
    }
    // The stair's upper voxel holds the chamber's edge too.
    voxels[7].1.push(3);
    SpecDungeon {
        info: SpecInfo {
            object_type: -1,
            category: 4,
            name: b"Noname".to_vec(),
            unknown: [u32::MAX; 2],
            region_id: 0x8010,
        },
        reserved_offsets: [0, 0],
        boxes: [
            bits([-400.0, -100.0, -400.0, 1200.0, 300.0, 400.0]),
            bits([0.0; 6]),
        ],
        legacy: false,
        blocks,
        grid_size: [8, 2, 4],
        voxels,
        links,
        labels: Some((
            vec![
                b"Hall of Entry".to_vec(),
                b"Corridor".to_vec(),
                b"Chamber".to_vec(),
            ],
            vec![b"B1".to_vec(), b"B2".to_vec()],
        )),
        groups: vec![
            SpecGroup {
                name: b"lower".to_vec(),
                flag: 1,
                blocks: vec![0, 1, 2],
            },
            SpecGroup {
                name: b"upper".to_vec(),
                flag: 0,
                blocks: vec![3],
            },
        ],
        sections: SpecSection::ALL.map(|s| (s, Vec::new())).to_vec(),
        trailing: Vec::new(),
    }
}

/// A cave of two blocks in the legacy block layout (one flag byte per block: the second block
/// has the extra group), without labels (label offset 0), region 0. Lints with the legacy
/// layout's warning only.
pub fn legacy_cave() -> SpecDungeon {
    let mut mouth = block(
        b"dungeon\\cave\\mouth.bsr",
        b"mouth",
        [0.0, 0.0, 0.0],
        0.0,
        [150.0, 100.0, 150.0],
        NO_ROOM,
        0,
        vec![1],
    );
    mouth.lights = vec![light(b"mouth_light", [0.0, 80.0, 0.0], [0.8, 0.8, 0.6])];
    let mut depths = block(
        b"dungeon\\cave\\depths.bsr",
        b"depths",
        [300.0, -50.0, 0.0],
        std::f32::consts::PI,
        [150.0, 100.0, 150.0],
        NO_ROOM,
        0,
        vec![0],
    );
    depths.extra = Some((bits([0.5, 0.25, 0.125, -1.0, -2.0, -3.0]), 0xAB));
    let blocks = vec![mouth, depths];
    SpecDungeon {
        info: SpecInfo {
            object_type: -1,
            category: 4,
            name: b"Noname".to_vec(),
            unknown: [u32::MAX; 2],
            region_id: 0,
        },
        reserved_offsets: [0, 0],
        boxes: [
            bits([-200.0, -200.0, -200.0, 600.0, 200.0, 200.0]),
            bits([-200.0, -200.0, -200.0, 600.0, 200.0, 200.0]),
        ],
        legacy: true,
        links: blocks.iter().map(|b| b.connected.clone()).collect(),
        blocks,
        grid_size: [4, 2, 2],
        voxels: vec![
            (voxel_id(0, 0, 0), vec![0]),
            (voxel_id(1, 0, 0), vec![0, 1]),
            (voxel_id(2, 0, 0), vec![1]),
        ],
        labels: None,
        groups: vec![SpecGroup {
            name: b"all".to_vec(),
            flag: 1,
            blocks: vec![0, 1],
        }],
        sections: SpecSection::ALL.map(|s| (s, Vec::new())).to_vec(),
        trailing: Vec::new(),
    }
}

/// No room label.
const NO_ROOM: i32 = -1;

/// The temple with its sections in the order groups, grid, labels, blocks, boxes, links,
/// filler bytes before three of them (none right after the blocks), trailing bytes, and both
/// reserved offsets set.
pub fn shuffled_temple() -> SpecDungeon {
    let mut t = temple();
    t.sections = vec![
        (SpecSection::Groups, vec![0xEE; 3]),
        (SpecSection::Grid, Vec::new()),
        (SpecSection::Labels, b"pad".to_vec()),
        (SpecSection::Blocks, Vec::new()),
        (SpecSection::Boxes, Vec::new()),
        (SpecSection::Links, vec![0, 0, 0, 0, 0x11]),
    ];
    t.trailing = vec![0xDE, 0xAD, 0xBE, 0xEF, 0x00];
    t.reserved_offsets = [7, 0xFFFF_FFFF];
    t
}

/// The dungeons above: temple, legacy cave, shuffled temple.
pub fn dungeons() -> Vec<(&'static str, SpecDungeon)> {
    vec![
        ("temple", temple()),
        ("legacy_cave", legacy_cave()),
        ("shuffled_temple", shuffled_temple()),
    ]
}

/// A file of random records with odd values everywhere (indices out of range, NaN positions,
/// any object flags, counts that disagree, strings with NUL padding and high bytes), both
/// layouts, the sections in a random order with random filler, and trailing bytes: not valid,
/// but every value must come back as written. In the legacy layout there is at least one
/// block, none has height fog (the layout has no byte for it), and nothing follows the block
/// section unclaimed.
pub fn odd(seed: u64) -> SpecDungeon {
    let mut rng = SplitMix64::new(seed);
    let rng = &mut rng;
    fn float(rng: &mut SplitMix64) -> u32 {
        if rng.chance(0.3) {
            ODD_FLOATS[rng.range(0, ODD_FLOATS.len() as u32) as usize]
        } else {
            rng.next_u64() as u32
        }
    }
    fn floats<const N: usize>(rng: &mut SplitMix64) -> [u32; N] {
        std::array::from_fn(|_| float(rng))
    }
    fn bytes(rng: &mut SplitMix64, max: u32) -> Vec<u8> {
        let mut s: Vec<u8> = (0..rng.range(0, max))
            .map(|_| rng.next_u64() as u8)
            .collect();
        if rng.chance(0.3) {
            s.extend_from_slice(&[0, 0]);
        }
        s
    }
    fn words(rng: &mut SplitMix64, max: u32) -> Vec<u32> {
        (0..rng.range(0, max))
            .map(|_| {
                if rng.chance(0.5) {
                    rng.range(0, 6)
                } else {
                    rng.next_u64() as u32
                }
            })
            .collect()
    }
    let legacy = rng.chance(0.3);
    // Without blocks the two layouts are the same bytes, which read as the standard one.
    let blocks = (0..rng.range(u32::from(legacy), 4))
        .map(|_| SpecBlock {
            path: bytes(rng, 12),
            name: bytes(rng, 6),
            unknown0: rng.next_u64() as u32,
            position: floats(rng),
            yaw: float(rng),
            is_entrance: rng.next_u64() as u32,
            bounding_box: floats(rng),
            unknown1: rng.next_u64() as u32,
            fog_colour: rng.next_u64() as u32,
            fog: floats(rng),
            height_fog: (!legacy && rng.chance(0.5)).then(|| floats(rng)),
            extra: rng
                .chance(0.5)
                .then(|| (floats(rng), rng.next_u64() as u32)),
            unknown_string: bytes(rng, 4),
            room: rng.next_u64() as i32,
            floor: rng.next_u64() as u32,
            connected: words(rng, 4),
            visible: words(rng, 4),
            collision_count: rng.next_u64() as u32,
            objects: (0..rng.range(0, 3))
                .map(|_| SpecObject {
                    name: bytes(rng, 6),
                    path: bytes(rng, 10),
                    transform: floats(rng),
                    flag: match rng.range(0, 4) {
                        0 => 2,
                        1 => 4,
                        2 => 0,
                        _ => rng.next_u64() as u32,
                    },
                    unknown: rng.next_u64() as u32,
                    radius_squared: float(rng),
                    water_colour: rng.next_u64() as u32,
                })
                .collect(),
            lights: (0..rng.range(0, 3))
                .map(|_| SpecLight {
                    name: bytes(rng, 8),
                    floats: floats(rng),
                })
                .collect(),
        })
        .collect();
    let mut sections: Vec<(SpecSection, Vec<u8>)> = SpecSection::ALL
        .into_iter()
        .map(|s| {
            let filler = if rng.chance(0.4) {
                bytes(rng, 5)
            } else {
                Vec::new()
            };
            (s, filler)
        })
        .collect();
    for i in (1..sections.len()).rev() {
        let j = rng.range(0, i as u32 + 1) as usize;
        sections.swap(i, j);
    }
    let labels = rng.chance(0.6).then(|| {
        ((0..rng.range(0, 3)).map(|_| bytes(rng, 6)).collect(), {
            (0..rng.range(0, 3)).map(|_| bytes(rng, 6)).collect()
        })
    });
    let mut trailing = if rng.chance(0.5) {
        bytes(rng, 6)
    } else {
        Vec::new()
    };
    if legacy {
        // The legacy layout is recognised by the block section ending where the next written
        // section starts, or the file ends.
        let written: Vec<usize> = (0..sections.len())
            .filter(|&k| sections[k].0 != SpecSection::Labels || labels.is_some())
            .collect();
        let at = written
            .iter()
            .position(|&k| sections[k].0 == SpecSection::Blocks)
            .expect("the blocks are placed");
        match written.get(at + 1) {
            Some(&next) => sections[next].1.clear(),
            None => trailing.clear(),
        }
    }
    SpecDungeon {
        info: SpecInfo {
            object_type: rng.next_u64() as i16,
            category: rng.next_u64() as i16,
            name: bytes(rng, 8),
            unknown: [rng.next_u64() as u32, rng.next_u64() as u32],
            region_id: rng.next_u64() as u16,
        },
        reserved_offsets: if rng.chance(0.5) {
            [0, 0]
        } else {
            [rng.next_u64() as u32, rng.next_u64() as u32]
        },
        boxes: [floats(rng), floats(rng)],
        legacy,
        blocks,
        grid_size: [rng.range(0, 5), rng.range(0, 5), rng.next_u64() as u32],
        voxels: (0..rng.range(0, 4))
            .map(|_| (rng.next_u64() as u32, words(rng, 3)))
            .collect(),
        links: (0..rng.range(0, 4)).map(|_| words(rng, 3)).collect(),
        labels,
        groups: (0..rng.range(0, 3))
            .map(|_| SpecGroup {
                name: bytes(rng, 6),
                flag: rng.next_u64() as u32,
                blocks: words(rng, 3),
            })
            .collect(),
        sections,
        trailing,
    }
}
