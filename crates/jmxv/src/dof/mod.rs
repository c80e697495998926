//! `JMXVDOF 0101`: a dungeon (`.dof`). A dungeon has no terrain: its ground is the navmeshes of
//! its *blocks*, object meshes that the file places, and this file says where each block lies,
//! which blocks a walker can step between, which blocks to test for a point (a voxel grid), and
//! the names of its rooms and floors.
//!
//! [`DungeonFile::parse`] reads every section into a model that keeps every value verbatim
//! (floats by their bits, strings as the bytes they are: the game's text is CP949), and keeps
//! the bytes that no section claims. [`DungeonFile::to_vec`] writes it back: for every input
//! that parses, writing gives the same bytes; for every model that writes, parsing gives the
//! same model.
//!
//! # Layout
//! All little-endian; a string is a u32 length and that many bytes.
//!
//! | bytes | what |
//! |---|---|
//! | 0..12 | signature `JMXVDOF 0101` |
//! | 12..44 | eight u32 offsets: blocks, links, grid, groups, labels (0 = none), two reserved ([`DungeonFile::reserved_offsets`]), boxes |
//! | 44.. | [`Info`]: i16 type, i16 category, string name, u32, u32, u16 region id |
//! | @boxes | [`DungeonFile::box0`] (the dungeon's frame; its min is the grid's origin) and [`DungeonFile::box1`]: f32 min x, y, z, max x, y, z each |
//! | @blocks | u32 count, then the [`Block`]s |
//! | @grid | u32 width, height, length; u32 count; per [`Voxel`] u32 id, u32 count and u32 block indices |
//! | @links | u32 count; per entry a u32 count and u32 block indices |
//! | @labels | u32 count and strings (room names); u32 count and strings (floor names) |
//! | @groups | u32 count; per [`Group`] a string, u32 flag, u32 count and u32 block indices |
//!
//! A block: string path, string name, u32, f32 position x, y, z, f32 yaw, u32 is-entrance,
//! f32 × 6 box (in the block's frame), u32, the fog (u32 colour, f32 near, far, intensity),
//! u8 height-fog byte (1: four f32 follow), u8 extra byte (2: f32 × 6 and a u32 follow), string,
//! i32 room index, u32 floor index, u32 count and u32 connected blocks, u32 count and u32
//! visible blocks, u32 object count, u32 collision-object count, the objects (string name,
//! string path, f32 × 9 position, rotation, scale, u32 flag, u32, f32 radius², and a u32 water
//! colour when the flag has 0x4), u32 light count, the lights (string name, f32 × 15).
//! `docs/format.md` ("JMXVDOF dungeons") has the sources and the decisions.
//!
//! # Where the sections lie
//! The sections are found by their offsets and may lie in any order. The model keeps that
//! order ([`DungeonFile::order`]) with the unclaimed bytes before each section, and those after
//! the last ([`DungeonFile::trailing`]), but not the offsets themselves: the writer derives
//! each from where its section lands. Writing an edited model therefore keeps the sections'
//! order and the unclaimed bytes, moves what follows a section that grew or shrank, and writes
//! the offsets that say so; it never refuses an edit for its offsets. The two reserved offsets
//! are written as stored. The reader refuses an offset inside the header or the info, past the
//! end of the file, or shared by two sections, and a section that runs into the next one; each
//! error names the offset and the section.
//!
//! # The block layout
//! One known file stores one flag byte per block (the extra byte) instead of two; its
//! signature is the same. The reader takes the standard layout when its records end exactly
//! where the next section starts (or the file ends), else the legacy layout when its records
//! do, else the standard layout with the bytes up to the next section kept as unclaimed. The
//! model keeps which ([`DungeonFile::block_layout`]), and the writer refuses a model whose
//! block section would read back in the other layout ([`DungeonFile::check_writable`]).
//!
//! The height-fog byte must be 0 or 1 and the extra byte 0 or 2; other values are refused
//! where they are read (the sources disagree on whether they bring their fields, and no known
//! file has one), so [`Fog::height`] and [`Block::extra`] are those bytes, verbatim.
//!
//! # Cost
//! Reading and writing are O(file size), and the reader never holds more than a small multiple
//! of the input's size: every count is checked against the bytes left before anything is
//! allocated. A legacy block section, or a standard one followed by unclaimed bytes, is read
//! two or three times (once per layout).
//!
//! # Example
//! ```
//! use jmxv::dof::{lint::lint, Block, DungeonFile, SectionKind};
//!
//! let mut dungeon = DungeonFile::default();
//! dungeon.blocks.push(Block { path: b"dungeon\\room01.bsr".to_vec(), ..Block::default() });
//! dungeon.links.push(Vec::new());
//! assert_eq!(lint(&dungeon), vec![]);
//!
//! let bytes = dungeon.to_vec()?;
//! assert_eq!(bytes.len(), dungeon.encoded_len());
//! let back = DungeonFile::parse(&bytes)?;
//! assert_eq!(back, dungeon);
//! assert_eq!(back.to_vec()?, bytes);
//!
//! // A longer path moves every section after the blocks, and the header with them.
//! let grid = dungeon.offsets()?[SectionKind::Grid.offset_index()];
//! dungeon.blocks[0].path.extend_from_slice(b".old");
//! assert_eq!(dungeon.offsets()?[SectionKind::Grid.offset_index()], grid + 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "serde")]
pub mod json;
pub mod lint;
mod model;
mod read;
mod write;

pub use model::*;
