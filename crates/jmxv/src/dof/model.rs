//! The typed model of a `JMXVDOF 0101` file: the info, every section in full, and where the
//! sections lie in the file with the bytes between them.

use crate::float::F32;

/// The 12 signature bytes.
pub const SIGNATURE: &[u8; 12] = b"JMXVDOF 0101";

/// The first eight bytes of the signature, shared by every version of the format.
pub const SIGNATURE_PREFIX: &[u8; 8] = b"JMXVDOF ";

/// Bytes of the header: the signature and eight u32 section offsets. The info follows.
pub const HEADER_LEN: usize = 12 + 4 * OFFSET_COUNT;

/// Number of u32 section offsets in the header (bytes 0x0C..0x2C).
pub const OFFSET_COUNT: usize = 8;

/// Index in [`DungeonFile::offsets`] of the block section's offset (the u32 at 0x0C).
pub const BLOCK_OFFSET_INDEX: usize = 0;
/// Index of the link section's offset (0x10).
pub const LINK_OFFSET_INDEX: usize = 1;
/// Index of the voxel grid's offset (0x14).
pub const GRID_OFFSET_INDEX: usize = 2;
/// Index of the group section's offset (0x18).
pub const GROUP_OFFSET_INDEX: usize = 3;
/// Index of the label section's offset (0x1C); 0 = no labels.
pub const LABEL_OFFSET_INDEX: usize = 4;
/// Indices of the two offsets no reader interprets (0x20, 0x24), kept as
/// [`DungeonFile::reserved_offsets`].
pub const RESERVED_OFFSET_INDICES: [usize; 2] = [5, 6];
/// Index of the bounding boxes' offset (0x28).
pub const BOX_OFFSET_INDEX: usize = 7;

/// Edge of one voxel of the block lookup grid, in dungeon units.
pub const VOXEL_SIZE: f32 = 200.0;

/// [`BlockObject::flag`] bit: a collision circle of radius `√radius_squared` that movers may not
/// enter.
pub const OBJECT_COLLISION: u32 = 0x2;
/// [`BlockObject::flag`] bit: water; the record ends with a water colour.
pub const OBJECT_WATER: u32 = 0x4;

/// [`Block::room_index`] of a block without a room label.
pub const NO_ROOM: i32 = -1;

/// A voxel id: x in bits 0–9, z in bits 10–19, y in bits 20–29.
pub const fn voxel_id(x: u32, y: u32, z: u32) -> u32 {
    (x & VOXEL_AXIS_MASK) | (z & VOXEL_AXIS_MASK) << 10 | (y & VOXEL_AXIS_MASK) << 20
}

/// The bits of one coordinate in a voxel id.
pub const VOXEL_AXIS_MASK: u32 = 0x3FF;

/// The two bits of a voxel id above its coordinates, 0 in every id a lookup makes.
pub const VOXEL_RESERVED_BITS: u32 = 0xC000_0000;

/// A whole `.dof` file: the info, the sections, and the order they lie in.
///
/// The file is the header, the info, then the sections in the order of
/// [`DungeonFile::order`], each after the bytes no section claims before it, then
/// [`DungeonFile::trailing`]. The header's section offsets are not stored: the writer derives
/// them from that order, so an edit that changes a section's length moves the sections after
/// it and their offsets with them (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DungeonFile {
    /// The object info after the header.
    pub info: Info,
    /// Bytes 0x20..0x28: the header's sixth and seventh offsets, 0 in every known file. No
    /// reader interprets them; they are written back as stored, never moved.
    pub reserved_offsets: [u32; 2],
    /// The first bounding box at the box offset: the dungeon's frame; its min is the voxel
    /// grid's origin.
    pub box0: BoundingBox,
    /// The second bounding box, right after the first; the server does not use it.
    pub box1: BoundingBox,
    /// Which block record layout the block section uses.
    pub block_layout: BlockLayout,
    /// The blocks: the dungeon's rooms and corridors, each placing a mesh.
    pub blocks: Vec<Block>,
    /// The block lookup grid.
    pub grid: VoxelGrid,
    /// Per block (in the game data; the count is kept as stored), the blocks it links to.
    pub links: Vec<Vec<u32>>,
    /// The room and floor names, when the label offset is not 0.
    pub labels: Option<Labels>,
    /// Named groups of blocks.
    pub groups: Vec<Group>,
    /// The sections in file order, each with the unclaimed bytes before it. Holds the boxes,
    /// blocks, grid, links and groups once each, and the labels once exactly when
    /// [`DungeonFile::labels`] is `Some`.
    pub order: Vec<Placement>,
    /// Bytes after the last section, which no section claims.
    pub trailing: Vec<u8>,
}

/// The object info right after the header: 18 bytes and the name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Info {
    /// i16 type (-1 in the game data).
    pub object_type: i16,
    /// i16 category (4 in the game data).
    pub category: i16,
    /// u32 length and bytes: the name (`Noname` in the game data), as stored.
    pub name: Vec<u8>,
    /// u32, unknown (0xFFFFFFFF in the game data).
    pub unknown0: u32,
    /// u32, unknown (0xFFFFFFFF in the game data).
    pub unknown1: u32,
    /// u16 region id (`0x8000 | id`), unreliable: ids collide between files, and
    /// `dungeoninfo.txt` is the authority on which region a file is.
    pub region_id: u16,
}

impl Default for Info {
    /// The values every known file has, region 0.
    fn default() -> Info {
        Info {
            object_type: -1,
            category: 4,
            name: b"Noname".to_vec(),
            unknown0: u32::MAX,
            unknown1: u32::MAX,
            region_id: 0,
        }
    }
}

/// An axis-aligned box: 24 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BoundingBox {
    /// Bytes 0..12: min x, y, z.
    pub min: [F32; 3],
    /// Bytes 12..24: max x, y, z.
    pub max: [F32; 3],
}

/// The block record layouts. The signature does not say which a file uses; the reader decides
/// by where the block section ends (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum BlockLayout {
    /// Two flag bytes per block: the height-fog byte and the extra byte.
    #[default]
    Standard,
    /// One flag byte per block, the extra byte: one known file, referenced by nothing. Its
    /// blocks have no height fog.
    Legacy,
}

impl BlockLayout {
    /// Both layouts, the standard one first.
    pub const ALL: [BlockLayout; 2] = [BlockLayout::Standard, BlockLayout::Legacy];

    /// `standard` or `legacy`.
    pub const fn name(self) -> &'static str {
        match self {
            BlockLayout::Standard => "standard",
            BlockLayout::Legacy => "legacy",
        }
    }

    /// Flag bytes per block record.
    pub const fn flag_bytes(self) -> usize {
        match self {
            BlockLayout::Standard => 2,
            BlockLayout::Legacy => 1,
        }
    }
}

/// A block: one placed mesh of the dungeon, its lighting and its neighbours.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Block {
    /// The resource (`.bsr`) whose collision mesh is the block's navmesh, as stored.
    pub path: Vec<u8>,
    /// The block's name.
    pub name: Vec<u8>,
    /// u32, unknown (0 in the game data).
    pub unknown0: u32,
    /// Where the block's origin lies in the dungeon.
    pub position: [F32; 3],
    /// Rotation about y: the block is placed by rotating by `−yaw`, then translating.
    pub yaw: F32,
    /// u32, kept as stored: the sources disagree on its type (u32, float, "pitch").
    pub is_entrance: u32,
    /// The block's bounds, in its own frame (not the dungeon's).
    pub bounding_box: BoundingBox,
    /// u32, unknown: a colour 0xAARRGGBB with alpha 0xFF in the game data.
    pub unknown1: u32,
    /// The fog parameters.
    pub fog: Fog,
    /// The group after the extra flag byte: present when the byte is 2, absent when it is 0.
    pub extra: Option<BlockExtra>,
    /// A string after the flags, empty in the game data.
    pub unknown_string: Vec<u8>,
    /// Index into [`Labels::rooms`], or [`NO_ROOM`].
    pub room_index: i32,
    /// Index into [`Labels::floors`].
    pub floor_index: u32,
    /// The blocks a walker can step into from this one: their outline edges are linked at load.
    pub connected: Vec<u32>,
    /// The blocks visible from this one (the client's occlusion culling).
    pub visible: Vec<u32>,
    /// u32 stored before the objects, kept as stored: the number of collision objects in the
    /// game data's meaning, which nothing reads.
    pub collision_object_count: u32,
    /// The objects placed in the block (the u32 before the collision count is their number).
    pub objects: Vec<BlockObject>,
    /// The lights of the block.
    pub lights: Vec<Light>,
}

/// A block's fog: 16 bytes, the height-fog byte, and four floats when it is 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Fog {
    /// u32 colour.
    pub colour: u32,
    /// f32 near plane.
    pub near: F32,
    /// f32 far plane.
    pub far: F32,
    /// f32 intensity.
    pub intensity: F32,
    /// The height fog's four floats (meaning unknown): present when the height-fog byte is 1,
    /// absent when it is 0. The legacy layout has no such byte: always `None` there.
    pub height: Option<[F32; 4]>,
}

/// The 28 bytes after an extra flag byte of 2; their meaning is unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BlockExtra {
    /// Three floats.
    pub vector0: [F32; 3],
    /// Three more floats.
    pub vector1: [F32; 3],
    /// A u32.
    pub value: u32,
}

/// An object placed in a block: two strings, 48 bytes, and the water colour with
/// [`OBJECT_WATER`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlockObject {
    /// The object's name.
    pub name: Vec<u8>,
    /// Its resource (`.bsr`).
    pub path: Vec<u8>,
    /// Position in the block's frame.
    pub position: [F32; 3],
    /// Rotation.
    pub rotation: [F32; 3],
    /// Scale.
    pub scale: [F32; 3],
    /// u32 bits: [`OBJECT_COLLISION`], [`OBJECT_WATER`].
    pub flag: u32,
    /// u32, unknown.
    pub unknown: u32,
    /// The square of the collision circle's radius.
    pub radius_squared: F32,
    /// u32 water colour: present exactly when `flag` has [`OBJECT_WATER`].
    pub water_colour: Option<u32>,
}

/// A light: its name and 15 floats (the sources' names for them are guesses).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Light {
    /// The light's name.
    pub name: Vec<u8>,
    /// Floats 0..3.
    pub position: [F32; 3],
    /// Floats 3..6.
    pub diffuse: [F32; 3],
    /// Floats 6..9.
    pub ambient: [F32; 3],
    /// Floats 9..12.
    pub specular: [F32; 3],
    /// Floats 12..15: the attenuation's constant, linear and quadratic terms.
    pub attenuation: [F32; 3],
}

/// The block lookup grid: voxels of [`VOXEL_SIZE`] from [`DungeonFile::box0`]'s min, each
/// listing the blocks to test for a point inside it. Only voxels with blocks are stored.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VoxelGrid {
    /// The u32 width, height and length in voxels: the extents along x, y and z.
    pub size: [u32; 3],
    /// The stored voxels.
    pub voxels: Vec<Voxel>,
}

/// One voxel: its id and its blocks.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Voxel {
    /// The id ([`voxel_id`]): x in bits 0–9, z in bits 10–19, y in bits 20–29.
    pub id: u32,
    /// Indices into [`DungeonFile::blocks`].
    pub blocks: Vec<u32>,
}

impl Voxel {
    /// The voxel's x, y and z from its id.
    pub const fn coordinates(&self) -> [u32; 3] {
        [
            self.id & VOXEL_AXIS_MASK,
            (self.id >> 20) & VOXEL_AXIS_MASK,
            (self.id >> 10) & VOXEL_AXIS_MASK,
        ]
    }
}

/// The room and floor names that blocks' indices name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Labels {
    /// Room names (u32 length and bytes each).
    pub rooms: Vec<Vec<u8>>,
    /// Floor names (u32 length and bytes each).
    pub floors: Vec<Vec<u8>>,
}

/// A named group of blocks.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Group {
    /// The group's name.
    pub name: Vec<u8>,
    /// u32 flag (0 or 1 in the sources' files).
    pub flag: u32,
    /// Indices into [`DungeonFile::blocks`].
    pub blocks: Vec<u32>,
}

/// The sections a header offset points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum SectionKind {
    /// [`DungeonFile::box0`] and [`DungeonFile::box1`]: 48 bytes at the box offset.
    Boxes,
    /// [`DungeonFile::blocks`] at the block offset.
    Blocks,
    /// [`DungeonFile::grid`] at the grid offset.
    Grid,
    /// [`DungeonFile::links`] at the link offset.
    Links,
    /// [`DungeonFile::labels`] at the label offset (0 when there are none).
    Labels,
    /// [`DungeonFile::groups`] at the group offset.
    Groups,
}

impl SectionKind {
    /// Every section, in the order silknav lays out a new file.
    pub const ALL: [SectionKind; 6] = [
        SectionKind::Boxes,
        SectionKind::Blocks,
        SectionKind::Grid,
        SectionKind::Links,
        SectionKind::Labels,
        SectionKind::Groups,
    ];

    /// The section's name in errors and in the JSON form: `boxes`, `blocks`, `grid`, `links`,
    /// `labels`, `groups`.
    pub const fn name(self) -> &'static str {
        match self {
            SectionKind::Boxes => "boxes",
            SectionKind::Blocks => "blocks",
            SectionKind::Grid => "grid",
            SectionKind::Links => "links",
            SectionKind::Labels => "labels",
            SectionKind::Groups => "groups",
        }
    }

    /// The index of the section's offset in the header.
    pub const fn offset_index(self) -> usize {
        match self {
            SectionKind::Boxes => BOX_OFFSET_INDEX,
            SectionKind::Blocks => BLOCK_OFFSET_INDEX,
            SectionKind::Grid => GRID_OFFSET_INDEX,
            SectionKind::Links => LINK_OFFSET_INDEX,
            SectionKind::Labels => LABEL_OFFSET_INDEX,
            SectionKind::Groups => GROUP_OFFSET_INDEX,
        }
    }

    /// The name of the section's header offset in errors: `header.block_offset`, ….
    pub const fn offset_name(self) -> &'static str {
        match self {
            SectionKind::Boxes => "header.box_offset",
            SectionKind::Blocks => "header.block_offset",
            SectionKind::Grid => "header.grid_offset",
            SectionKind::Links => "header.link_offset",
            SectionKind::Labels => "header.label_offset",
            SectionKind::Groups => "header.group_offset",
        }
    }

    /// The section with this name.
    pub fn from_name(name: &str) -> Option<SectionKind> {
        SectionKind::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// One section's place in the file: which section, and the bytes before it that no section
/// claims (from the end of the info or of the previous section to this section's offset).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The section.
    pub section: SectionKind,
    /// The unclaimed bytes right before it, verbatim.
    pub gap_before: Vec<u8>,
}

impl Placement {
    /// The section with no bytes before it.
    pub const fn new(section: SectionKind) -> Placement {
        Placement {
            section,
            gap_before: Vec::new(),
        }
    }
}

impl Default for DungeonFile {
    /// A dungeon without blocks: the info every known file has, zero boxes, an empty 0×0×0
    /// grid, no labels, and the sections in [`SectionKind::ALL`] order with nothing between
    /// them. It writes, and lints clean.
    fn default() -> DungeonFile {
        DungeonFile {
            info: Info::default(),
            reserved_offsets: [0; 2],
            box0: BoundingBox::default(),
            box1: BoundingBox::default(),
            block_layout: BlockLayout::Standard,
            blocks: Vec::new(),
            grid: VoxelGrid::default(),
            links: Vec::new(),
            labels: None,
            groups: Vec::new(),
            order: SectionKind::ALL
                .into_iter()
                .filter(|&s| s != SectionKind::Labels)
                .map(Placement::new)
                .collect(),
            trailing: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_positions() {
        assert_eq!(HEADER_LEN, 0x2C);
        let position = |i: usize| 12 + 4 * i;
        assert_eq!(position(BLOCK_OFFSET_INDEX), 0x0C);
        assert_eq!(position(LABEL_OFFSET_INDEX), 0x1C);
        assert_eq!(position(BOX_OFFSET_INDEX), 0x28);
        let mut indices: Vec<usize> = SectionKind::ALL.map(SectionKind::offset_index).to_vec();
        indices.extend(RESERVED_OFFSET_INDICES);
        indices.sort_unstable();
        assert_eq!(indices, (0..OFFSET_COUNT).collect::<Vec<_>>());
        assert!(SIGNATURE.starts_with(SIGNATURE_PREFIX));
        for s in SectionKind::ALL {
            assert_eq!(SectionKind::from_name(s.name()), Some(s));
        }
    }

    #[test]
    fn voxel_ids_pack_x_z_y() {
        let v = Voxel {
            id: voxel_id(3, 7, 5),
            blocks: Vec::new(),
        };
        assert_eq!(v.id, 3 | 5 << 10 | 7 << 20);
        assert_eq!(v.coordinates(), [3, 7, 5]);
        assert_eq!(voxel_id(1023, 1023, 1023) & VOXEL_RESERVED_BITS, 0);
    }
}
