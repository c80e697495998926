//! Parsing: bytes → [`DungeonFile`]: the header and the info, then each section at its offset,
//! in file order (mirrored by `write.rs`).

use super::model::*;
use crate::bytes::{f32_at, u16_at, u32_at, Place, Reader};
use crate::error::{describe_bytes, parse_path, parse_stream, Error, ErrorKind, ReadError};
use crate::F32;
use std::io::Read;
use std::path::Path;

/// The info's fixed fields: two i16, the name's length, two u32 and the u16 region id.
pub(crate) const INFO_FIXED_LEN: usize = 2 + 2 + 4 + 4 + 4 + 2;
/// The two bounding boxes.
pub(crate) const BOXES_LEN: usize = 48;
/// A block's fixed fields, its flag bytes excluded: the 68 bytes from `unknown0` to the fog's
/// intensity, the room and floor indices, and the lengths and counts of its three strings and
/// five lists (the collision-object count with them).
pub(crate) const BLOCK_FIXED_LEN: usize = 4 + 4 + 4 + 12 + 4 + 4 + 24 + 4 + 16 + 4 * 8;
/// The floats after a height-fog byte of 1.
pub(crate) const HEIGHT_FOG_LEN: usize = 16;
/// The group after an extra byte of 2.
pub(crate) const EXTRA_LEN: usize = 28;
/// An object without its strings' bytes and its water colour.
pub(crate) const OBJECT_FIXED_LEN: usize = 4 + 4 + 36 + 12;
/// A light without its name's bytes.
pub(crate) const LIGHT_FIXED_LEN: usize = 4 + 60;
/// A voxel with no blocks.
pub(crate) const VOXEL_FIXED_LEN: usize = 8;
/// A group with an empty name and no blocks.
pub(crate) const GROUP_FIXED_LEN: usize = 12;

/// The height-fog byte that stores its floats.
pub(crate) const HEIGHT_FOG_BYTE: u8 = 1;
/// The extra byte that stores its group.
pub(crate) const EXTRA_BYTE: u8 = 2;

impl DungeonFile {
    /// Parses a whole file.
    ///
    /// Reads the header and the info, then each section at its offset, in file order, and
    /// keeps the bytes between and after them.
    ///
    /// # Errors
    /// A wrong signature; a file that ends inside the header, the info or a section; an offset
    /// inside the header or the info, past the end, or shared with another section; a section
    /// that runs into the next one; a block section that ends at the next section in neither
    /// layout and is not a standard one followed by unclaimed bytes; a height-fog byte other
    /// than 0 or 1 or an extra byte other than 0 or 2; a count larger than the bytes left could
    /// hold. The error names the byte offset and the section.
    pub fn parse(bytes: &[u8]) -> Result<DungeonFile, Error> {
        let mut r = Reader::new(bytes);
        read_signature(&mut r)?;
        r.place = Place::section("header");
        let header = r.take(4 * OFFSET_COUNT)?;
        let offsets: [u32; OFFSET_COUNT] = std::array::from_fn(|i| u32_at(header, 4 * i));
        let info = read_info(&mut r)?;
        let info_end = bytes.len() - r.left();
        let sections = locate(bytes.len(), info_end, &offsets)?;

        let mut dungeon = DungeonFile {
            info,
            reserved_offsets: RESERVED_OFFSET_INDICES.map(|i| offsets[i]),
            order: Vec::with_capacity(sections.len()),
            ..DungeonFile::default()
        };
        let mut end = info_end;
        for (k, &(section, offset)) in sections.iter().enumerate() {
            let next = sections.get(k + 1).copied();
            let limit = next.map_or(bytes.len(), |n| n.1);
            dungeon.order.push(Placement {
                section,
                gap_before: bytes[end..offset].to_vec(),
            });
            end = if section == SectionKind::Blocks {
                let (blocks, layout, block_end) = read_block_section(bytes, offset, limit)
                    .map_err(|e| e.into_error(section, next))?;
                dungeon.blocks = blocks;
                dungeon.block_layout = layout;
                block_end
            } else {
                let mut r = reader_at(bytes, offset);
                match section {
                    SectionKind::Boxes => [dungeon.box0, dungeon.box1] = read_boxes(&mut r)?,
                    SectionKind::Grid => dungeon.grid = read_grid(&mut r)?,
                    SectionKind::Links => dungeon.links = read_links(&mut r)?,
                    SectionKind::Labels => dungeon.labels = Some(read_labels(&mut r)?),
                    SectionKind::Groups => dungeon.groups = read_groups(&mut r)?,
                    SectionKind::Blocks => unreachable!("read above"),
                }
                let section_end = bytes.len() - r.left();
                if section_end > limit {
                    return Err(runs_over(section, section_end, next));
                }
                section_end
            };
        }
        dungeon.trailing = bytes[end..].to_vec();
        Ok(dungeon)
    }

    /// Reads and parses a file.
    ///
    /// # Errors
    /// [`ReadError::Io`] when the file cannot be read, [`ReadError::Format`] as for
    /// [`DungeonFile::parse`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<DungeonFile, ReadError> {
        parse_path(path, Self::parse)
    }

    /// Reads a stream to its end and parses it.
    ///
    /// # Errors
    /// As for [`DungeonFile::from_path`].
    pub fn read_from(reader: impl Read) -> Result<DungeonFile, ReadError> {
        parse_stream(reader, Self::parse)
    }
}

/// A reader whose next byte is `bytes[offset]` (`offset` ≤ the length).
fn reader_at(bytes: &[u8], offset: usize) -> Reader<'_> {
    let mut r = Reader::new(bytes);
    // Cannot fail: the offsets were checked against the length.
    let _ = r.take(offset);
    r
}

fn read_signature(r: &mut Reader<'_>) -> Result<(), Error> {
    r.place = Place::section("signature");
    let found = &r.rest_peek()[..r.left().min(SIGNATURE.len())];
    if !found.starts_with(SIGNATURE_PREFIX) {
        return Err(r.error(ErrorKind::BadSignature {
            expected: SIGNATURE,
            found: found.to_vec(),
        }));
    }
    let signature = r.array::<12>()?;
    if &signature != SIGNATURE {
        return Err(Error::invalid(
            0,
            "signature",
            "version 0101 (\"JMXVDOF 0101\")",
            describe_bytes(&signature),
        ));
    }
    Ok(())
}

fn read_info(r: &mut Reader<'_>) -> Result<Info, Error> {
    r.place = Place::section("info");
    let b = r.take(4)?;
    let (object_type, category) = (u16_at(b, 0) as i16, u16_at(b, 2) as i16);
    let name = string(r, Place::section("info.name"))?;
    r.place = Place::section("info");
    let b = r.take(10)?;
    Ok(Info {
        object_type,
        category,
        name,
        unknown0: u32_at(b, 0),
        unknown1: u32_at(b, 4),
        region_id: u16_at(b, 8),
    })
}

/// The sections the header points at, by offset, after checking each offset: inside the file,
/// after the info, and not shared.
fn locate(
    len: usize,
    info_end: usize,
    offsets: &[u32; OFFSET_COUNT],
) -> Result<Vec<(SectionKind, usize)>, Error> {
    let mut found: Vec<(SectionKind, usize)> = Vec::with_capacity(SectionKind::ALL.len());
    for section in SectionKind::ALL {
        let index = section.offset_index();
        let offset = offsets[index] as usize;
        let labels = section == SectionKind::Labels;
        if labels && offset == 0 {
            continue;
        }
        let refuse = |expected: String| {
            Error::invalid(
                12 + 4 * index,
                section.offset_name(),
                expected,
                offset.to_string(),
            )
        };
        let none = if labels { "0 (no labels) or " } else { "" };
        if offset < HEADER_LEN {
            return Err(refuse(format!(
                "{none}an offset of at least {HEADER_LEN}, the end of the header"
            )));
        }
        if offset < info_end {
            return Err(refuse(format!(
                "{none}an offset of at least {info_end}, where the info ends"
            )));
        }
        if offset > len {
            return Err(refuse(format!(
                "{none}an offset inside the file ({len} bytes)"
            )));
        }
        if let Some((other, _)) = found.iter().find(|f| f.1 == offset) {
            return Err(refuse(format!(
                "an offset of its own, not the {} section's",
                other.name()
            )));
        }
        found.push((section, offset));
    }
    found.sort_unstable_by_key(|f| f.1);
    Ok(found)
}

/// The error for a section that ends at `end`, past the start of the `next` section.
fn runs_over(section: SectionKind, end: usize, next: Option<(SectionKind, usize)>) -> Error {
    let (next_section, next_offset) = next.unwrap_or((section, end));
    Error::invalid(
        next_offset,
        section.name(),
        format!(
            "the {} section to end by byte {next_offset}, where the {} section starts",
            section.name(),
            next_section.name()
        ),
        format!("a section that runs to byte {end}"),
    )
}

/// Why a block section did not read.
pub(super) enum BlockSectionError {
    /// The records themselves are malformed.
    Format(Error),
    /// The records read as standard ones that run to this byte, past the next section.
    RunsOver(usize),
}

impl BlockSectionError {
    fn into_error(self, section: SectionKind, next: Option<(SectionKind, usize)>) -> Error {
        match self {
            BlockSectionError::Format(e) => e,
            BlockSectionError::RunsOver(end) => runs_over(section, end, next),
        }
    }
}

/// Reads the block section at `offset`, choosing the layout by where it ends against `limit`
/// (the next section's offset, or the file's length): the standard layout when its records end
/// exactly there; else the legacy layout when its records do; else the standard layout when
/// its records end before `limit` (the bytes up to it are unclaimed). Returns the blocks, the
/// layout and the section's end. When neither layout reads, the error is the one found
/// further into the section.
pub(super) fn read_block_section(
    bytes: &[u8],
    offset: usize,
    limit: usize,
) -> Result<(Vec<Block>, BlockLayout, usize), BlockSectionError> {
    let attempt = |layout: BlockLayout| {
        let mut r = reader_at(bytes, offset);
        let blocks = read_blocks(&mut r, layout)?;
        Ok::<_, Error>((blocks, bytes.len() - r.left()))
    };
    // The standard records are dropped before the legacy attempt, so that at most one set
    // of blocks is held at a time; the rare file that needs them again reads them again.
    let standard_end = match attempt(BlockLayout::Standard) {
        Ok((blocks, end)) if end == limit => return Ok((blocks, BlockLayout::Standard, end)),
        Ok((_, end)) => Ok(end),
        Err(e) => Err(e),
    };
    let legacy_error = match attempt(BlockLayout::Legacy) {
        Ok((blocks, end)) if end == limit => return Ok((blocks, BlockLayout::Legacy, end)),
        Ok(_) => None,
        Err(e) => Some(e),
    };
    match standard_end {
        Ok(end) if end < limit => attempt(BlockLayout::Standard)
            .map(|(blocks, end)| (blocks, BlockLayout::Standard, end))
            .map_err(BlockSectionError::Format),
        Ok(end) => Err(BlockSectionError::RunsOver(end)),
        // Neither layout reads: the one that got further is the file's, most likely (a legacy
        // file's blocks fail as standard ones at their first flag bytes).
        Err(standard) => Err(BlockSectionError::Format(match legacy_error {
            Some(legacy) if legacy.offset() > standard.offset() => legacy,
            _ => standard,
        })),
    }
}

/// A u32 length and that many bytes.
fn string(r: &mut Reader<'_>, place: Place) -> Result<Vec<u8>, Error> {
    r.place = place;
    let len = r.u32()?;
    let len = r.count(len.into(), 1)?;
    Ok(r.take(len)?.to_vec())
}

/// A u32 count and that many u32s.
fn u32_list(r: &mut Reader<'_>, place: Place) -> Result<Vec<u32>, Error> {
    r.place = place;
    let n = r.u32()?;
    let n = r.count(n.into(), 4)?;
    let bytes = r.take(4 * n)?;
    Ok(bytes.chunks_exact(4).map(|b| u32_at(b, 0)).collect())
}

fn word(r: &mut Reader<'_>, place: Place) -> Result<u32, Error> {
    r.place = place;
    r.u32()
}

fn floats<const N: usize>(r: &mut Reader<'_>, place: Place) -> Result<[F32; N], Error> {
    r.place = place;
    let b = r.take(4 * N)?;
    Ok(std::array::from_fn(|i| f32_at(b, 4 * i)))
}

fn bounding_box(r: &mut Reader<'_>, place: Place) -> Result<BoundingBox, Error> {
    let [a, b, c, d, e, f] = floats::<6>(r, place)?;
    Ok(BoundingBox {
        min: [a, b, c],
        max: [d, e, f],
    })
}

/// A flag byte that must be 0 or `set`; an error names the byte's own offset.
fn flag(r: &mut Reader<'_>, place: Place, set: u8, what: &str) -> Result<bool, Error> {
    r.place = place;
    match r.rest_peek().first() {
        Some(&byte) if byte != 0 && byte != set => Err(r.error(ErrorKind::Invalid {
            expected: format!("0 (no {what}) or {set} ({what} follows)"),
            found: byte.to_string(),
        })),
        _ => Ok(r.array::<1>()?[0] == set),
    }
}

/// An error from inside the `index`th record of `list`, with the record's path in front.
fn within(e: Error, list: &str, index: usize) -> Error {
    Error::new(
        e.offset(),
        format_args!("{list}[{index}].{}", e.section()),
        e.kind().clone(),
    )
}

fn read_boxes(r: &mut Reader<'_>) -> Result<[BoundingBox; 2], Error> {
    Ok([
        bounding_box(r, Place::section("box0"))?,
        bounding_box(r, Place::section("box1"))?,
    ])
}

fn read_blocks(r: &mut Reader<'_>, layout: BlockLayout) -> Result<Vec<Block>, Error> {
    r.place = Place::section("block_count");
    let n = r.u32()?;
    r.place = Place::section("blocks");
    let n = r.count(n.into(), BLOCK_FIXED_LEN + layout.flag_bytes())?;
    let mut blocks = Vec::with_capacity(n);
    for i in 0..n {
        blocks.push(read_block(r, i, layout)?);
    }
    Ok(blocks)
}

fn read_block(r: &mut Reader<'_>, i: usize, layout: BlockLayout) -> Result<Block, Error> {
    let at = |field| Place::item("blocks", i, field);
    let path = string(r, at("path"))?;
    let name = string(r, at("name"))?;
    let unknown0 = word(r, at("unknown0"))?;
    let position = floats(r, at("position"))?;
    let [yaw] = floats(r, at("yaw"))?;
    let is_entrance = word(r, at("is_entrance"))?;
    let bounding_box = bounding_box(r, at("bounding_box"))?;
    let unknown1 = word(r, at("unknown1"))?;
    r.place = at("fog");
    let b = r.take(16)?;
    let height = match layout {
        BlockLayout::Standard if flag(r, at("fog.height"), HEIGHT_FOG_BYTE, "height fog")? => {
            Some(floats(r, at("fog.height"))?)
        }
        BlockLayout::Standard | BlockLayout::Legacy => None,
    };
    let fog = Fog {
        colour: u32_at(b, 0),
        near: f32_at(b, 4),
        far: f32_at(b, 8),
        intensity: f32_at(b, 12),
        height,
    };
    let extra = if flag(r, at("extra"), EXTRA_BYTE, "extra group")? {
        let b = r.take(EXTRA_LEN)?;
        Some(BlockExtra {
            vector0: [f32_at(b, 0), f32_at(b, 4), f32_at(b, 8)],
            vector1: [f32_at(b, 12), f32_at(b, 16), f32_at(b, 20)],
            value: u32_at(b, 24),
        })
    } else {
        None
    };
    let unknown_string = string(r, at("unknown_string"))?;
    let room_index = word(r, at("room_index"))? as i32;
    let floor_index = word(r, at("floor_index"))?;
    let connected = u32_list(r, at("connected"))?;
    let visible = u32_list(r, at("visible"))?;
    let object_count = word(r, at("object_count"))?;
    // Checked before the collision count is read, so that the error is right after the count.
    r.place = at("objects");
    let n = r.count(object_count.into(), OBJECT_FIXED_LEN)?;
    let collision_object_count = word(r, at("collision_object_count"))?;
    let mut objects = Vec::with_capacity(n);
    for j in 0..n {
        objects.push(read_object(r, j).map_err(|e| within(e, "blocks", i))?);
    }
    let light_count = word(r, at("light_count"))?;
    r.place = at("lights");
    let n = r.count(light_count.into(), LIGHT_FIXED_LEN)?;
    let mut lights = Vec::with_capacity(n);
    for k in 0..n {
        lights.push(read_light(r, k).map_err(|e| within(e, "blocks", i))?);
    }
    Ok(Block {
        path,
        name,
        unknown0,
        position,
        yaw,
        is_entrance,
        bounding_box,
        unknown1,
        fog,
        extra,
        unknown_string,
        room_index,
        floor_index,
        connected,
        visible,
        collision_object_count,
        objects,
        lights,
    })
}

fn read_object(r: &mut Reader<'_>, j: usize) -> Result<BlockObject, Error> {
    let at = |field| Place::item("objects", j, field);
    let name = string(r, at("name"))?;
    let path = string(r, at("path"))?;
    let position = floats(r, at("position"))?;
    let rotation = floats(r, at("rotation"))?;
    let scale = floats(r, at("scale"))?;
    let flag = word(r, at("flag"))?;
    let unknown = word(r, at("unknown"))?;
    let [radius_squared] = floats(r, at("radius_squared"))?;
    let water_colour = if flag & OBJECT_WATER != 0 {
        Some(word(r, at("water_colour"))?)
    } else {
        None
    };
    Ok(BlockObject {
        name,
        path,
        position,
        rotation,
        scale,
        flag,
        unknown,
        radius_squared,
        water_colour,
    })
}

fn read_light(r: &mut Reader<'_>, k: usize) -> Result<Light, Error> {
    let at = |field| Place::item("lights", k, field);
    Ok(Light {
        name: string(r, at("name"))?,
        position: floats(r, at("position"))?,
        diffuse: floats(r, at("diffuse"))?,
        ambient: floats(r, at("ambient"))?,
        specular: floats(r, at("specular"))?,
        attenuation: floats(r, at("attenuation"))?,
    })
}

fn read_grid(r: &mut Reader<'_>) -> Result<VoxelGrid, Error> {
    r.place = Place::section("grid_size");
    let b = r.take(12)?;
    let size = [u32_at(b, 0), u32_at(b, 4), u32_at(b, 8)];
    r.place = Place::section("grid_voxel_count");
    let n = r.u32()?;
    r.place = Place::section("grid_voxels");
    let n = r.count(n.into(), VOXEL_FIXED_LEN)?;
    let mut voxels = Vec::with_capacity(n);
    for v in 0..n {
        let id = word(r, Place::item("grid_voxels", v, "id"))?;
        let blocks = u32_list(r, Place::item("grid_voxels", v, "blocks"))?;
        voxels.push(Voxel { id, blocks });
    }
    Ok(VoxelGrid { size, voxels })
}

fn read_links(r: &mut Reader<'_>) -> Result<Vec<Vec<u32>>, Error> {
    r.place = Place::section("link_count");
    let n = r.u32()?;
    r.place = Place::section("links");
    let n = r.count(n.into(), 4)?;
    let mut links = Vec::with_capacity(n);
    for i in 0..n {
        links.push(u32_list(r, Place::item("links", i, ""))?);
    }
    Ok(links)
}

fn read_names(
    r: &mut Reader<'_>,
    [count_name, name]: [&'static str; 2],
) -> Result<Vec<Vec<u8>>, Error> {
    r.place = Place::section(count_name);
    let n = r.u32()?;
    r.place = Place::section(name);
    let n = r.count(n.into(), 4)?;
    let mut names = Vec::with_capacity(n);
    for i in 0..n {
        names.push(string(r, Place::item(name, i, ""))?);
    }
    Ok(names)
}

fn read_labels(r: &mut Reader<'_>) -> Result<Labels, Error> {
    Ok(Labels {
        rooms: read_names(r, ["labels.room_count", "labels.rooms"])?,
        floors: read_names(r, ["labels.floor_count", "labels.floors"])?,
    })
}

fn read_groups(r: &mut Reader<'_>) -> Result<Vec<Group>, Error> {
    r.place = Place::section("group_count");
    let n = r.u32()?;
    r.place = Place::section("groups");
    let n = r.count(n.into(), GROUP_FIXED_LEN)?;
    let mut groups = Vec::with_capacity(n);
    for g in 0..n {
        let at = |field| Place::item("groups", g, field);
        groups.push(Group {
            name: string(r, at("name"))?,
            flag: word(r, at("flag"))?,
            blocks: u32_list(r, at("blocks"))?,
        });
    }
    Ok(groups)
}
