//! Writing: [`DungeonFile`] → bytes: the header with offsets derived from
//! [`DungeonFile::order`], the info, then each section after its unclaimed bytes (mirrors
//! `read.rs`).

use super::model::*;
use super::read::{
    read_block_section, BLOCK_FIXED_LEN, BOXES_LEN, EXTRA_BYTE, EXTRA_LEN, GROUP_FIXED_LEN,
    HEIGHT_FOG_BYTE, HEIGHT_FOG_LEN, INFO_FIXED_LEN, LIGHT_FIXED_LEN, OBJECT_FIXED_LEN,
    VOXEL_FIXED_LEN,
};
use crate::error::{write_bytes, WriteError};
use crate::F32;
use std::fmt;
use std::io::{self, Write};

impl DungeonFile {
    /// The exact size of the written file in bytes, when the model is writable.
    pub fn encoded_len(&self) -> usize {
        let sections: usize = self
            .order
            .iter()
            .map(|p| p.gap_before.len() + self.section_len(p.section))
            .sum();
        HEADER_LEN + self.info_len() + sections + self.trailing.len()
    }

    /// Bytes of one section as written (0 for labels when there are none).
    pub fn section_len(&self, section: SectionKind) -> usize {
        match section {
            SectionKind::Boxes => BOXES_LEN,
            SectionKind::Blocks => {
                4 + self
                    .blocks
                    .iter()
                    .map(|b| block_len(b, self.block_layout))
                    .sum::<usize>()
            }
            SectionKind::Grid => {
                16 + self
                    .grid
                    .voxels
                    .iter()
                    .map(|v| VOXEL_FIXED_LEN + 4 * v.blocks.len())
                    .sum::<usize>()
            }
            SectionKind::Links => 4 + self.links.iter().map(|l| 4 + 4 * l.len()).sum::<usize>(),
            SectionKind::Labels => self.labels.as_ref().map_or(0, |l| {
                let names = |n: &[Vec<u8>]| 4 + n.iter().map(|s| 4 + s.len()).sum::<usize>();
                names(&l.rooms) + names(&l.floors)
            }),
            SectionKind::Groups => {
                4 + self
                    .groups
                    .iter()
                    .map(|g| GROUP_FIXED_LEN + g.name.len() + 4 * g.blocks.len())
                    .sum::<usize>()
            }
        }
    }

    fn info_len(&self) -> usize {
        INFO_FIXED_LEN + self.info.name.len()
    }

    /// The header's eight offsets as written: each section's position from
    /// [`DungeonFile::order`], the label offset 0 without labels, and the reserved offsets as
    /// stored.
    ///
    /// # Errors
    /// As for [`DungeonFile::check_writable`], but for the block layout check.
    pub fn offsets(&self) -> Result<[u32; OFFSET_COUNT], WriteError> {
        let positions = self.check_structure()?;
        Ok(self.header_offsets(&positions))
    }

    /// Checks that the model can be written and read back as itself.
    ///
    /// # Errors
    /// - `order` does not place the boxes, blocks, grid, links and groups once each, or places
    ///   the labels other than once exactly when there are labels;
    /// - a section would start past byte `u32::MAX`, or a count or length does not fit a u32;
    /// - an object's water colour is present without [`OBJECT_WATER`] in its flag, or missing
    ///   with it;
    /// - in the legacy layout: a block has height fog (the layout has no byte for it), or
    ///   unclaimed bytes follow the block section (the layout is recognised by the section
    ///   ending where the next one starts);
    /// - the block section would read back in the other layout: legacy blocks that also read
    ///   as standard ones up to the next section, or standard blocks followed by unclaimed
    ///   bytes that read as legacy ones up to the next section.
    pub fn check_writable(&self) -> Result<(), WriteError> {
        let positions = self.check_structure()?;
        if self.layout_needs_checking() {
            let bytes = self.write_unchecked(&positions);
            self.check_block_layout(&bytes, &positions)?;
        }
        Ok(())
    }

    /// The file's bytes.
    ///
    /// # Errors
    /// As for [`DungeonFile::check_writable`].
    pub fn to_vec(&self) -> Result<Vec<u8>, WriteError> {
        let positions = self.check_structure()?;
        let bytes = self.write_unchecked(&positions);
        if self.layout_needs_checking() {
            self.check_block_layout(&bytes, &positions)?;
        }
        Ok(bytes)
    }

    /// Writes the file's bytes to a stream.
    ///
    /// # Errors
    /// An [`io::Error`] from the stream, or one of kind `InvalidInput` wrapping a
    /// [`WriteError`] when the model cannot be written.
    pub fn write_to(&self, writer: impl Write) -> io::Result<()> {
        write_bytes(self.to_vec(), writer)
    }

    /// Every check but the block layout's; returns where each placed section starts.
    fn check_structure(&self) -> Result<Vec<usize>, WriteError> {
        self.check_order()?;
        self.check_counts()?;
        self.check_records()?;
        let mut positions = Vec::with_capacity(self.order.len());
        let mut at = HEADER_LEN + self.info_len();
        for (k, p) in self.order.iter().enumerate() {
            at += p.gap_before.len();
            if at > u32::MAX as usize {
                return Err(WriteError::new(
                    format_args!("order[{k}]"),
                    format_args!(
                        "the {} section would start at byte {at}, past what a u32 offset holds",
                        p.section.name()
                    ),
                ));
            }
            positions.push(at);
            at += self.section_len(p.section);
        }
        Ok(positions)
    }

    fn check_order(&self) -> Result<(), WriteError> {
        for (k, p) in self.order.iter().enumerate() {
            if let Some(first) = self.order[..k].iter().position(|q| q.section == p.section) {
                return Err(WriteError::new(
                    format_args!("order[{k}].section"),
                    format_args!(
                        "the {} section is placed twice (first at order[{first}])",
                        p.section.name()
                    ),
                ));
            }
            if p.section == SectionKind::Labels && self.labels.is_none() {
                return Err(WriteError::new(
                    format_args!("order[{k}].section"),
                    "the labels section is placed, but the dungeon has no labels",
                ));
            }
        }
        for section in SectionKind::ALL {
            if self.order.iter().any(|p| p.section == section) {
                continue;
            }
            if section == SectionKind::Labels {
                if self.labels.is_some() {
                    return Err(WriteError::new(
                        "labels",
                        "the dungeon has labels, but order does not place the labels section",
                    ));
                }
            } else {
                return Err(WriteError::new(
                    "order",
                    format_args!("the {} section is not placed", section.name()),
                ));
            }
        }
        Ok(())
    }

    fn check_counts(&self) -> Result<(), WriteError> {
        check_u32("info.name", self.info.name.len())?;
        check_u32("blocks", self.blocks.len())?;
        for (i, b) in self.blocks.iter().enumerate() {
            let lens = [
                ("path", b.path.len()),
                ("name", b.name.len()),
                ("unknown_string", b.unknown_string.len()),
                ("connected", b.connected.len()),
                ("visible", b.visible.len()),
                ("objects", b.objects.len()),
                ("lights", b.lights.len()),
            ];
            for (field, len) in lens {
                check_u32(format_args!("blocks[{i}].{field}"), len)?;
            }
            for (j, o) in b.objects.iter().enumerate() {
                check_u32(format_args!("blocks[{i}].objects[{j}].name"), o.name.len())?;
                check_u32(format_args!("blocks[{i}].objects[{j}].path"), o.path.len())?;
            }
            for (k, l) in b.lights.iter().enumerate() {
                check_u32(format_args!("blocks[{i}].lights[{k}].name"), l.name.len())?;
            }
        }
        check_u32("grid_voxels", self.grid.voxels.len())?;
        for (v, voxel) in self.grid.voxels.iter().enumerate() {
            check_u32(format_args!("grid_voxels[{v}].blocks"), voxel.blocks.len())?;
        }
        check_u32("links", self.links.len())?;
        for (i, l) in self.links.iter().enumerate() {
            check_u32(format_args!("links[{i}]"), l.len())?;
        }
        if let Some(labels) = &self.labels {
            for (list, names) in [
                ("labels.rooms", &labels.rooms),
                ("labels.floors", &labels.floors),
            ] {
                check_u32(list, names.len())?;
                for (i, name) in names.iter().enumerate() {
                    check_u32(format_args!("{list}[{i}]"), name.len())?;
                }
            }
        }
        check_u32("groups", self.groups.len())?;
        for (g, group) in self.groups.iter().enumerate() {
            check_u32(format_args!("groups[{g}].name"), group.name.len())?;
            check_u32(format_args!("groups[{g}].blocks"), group.blocks.len())?;
        }
        Ok(())
    }

    fn check_records(&self) -> Result<(), WriteError> {
        for (i, b) in self.blocks.iter().enumerate() {
            if self.block_layout == BlockLayout::Legacy && b.fog.height.is_some() {
                return Err(WriteError::new(
                    format_args!("blocks[{i}].fog.height"),
                    "the legacy block layout has no height-fog byte, so it stores no height fog",
                ));
            }
            for (j, o) in b.objects.iter().enumerate() {
                let water = o.flag & OBJECT_WATER != 0;
                if water != o.water_colour.is_some() {
                    return Err(WriteError::new(
                        format_args!("blocks[{i}].objects[{j}].water_colour"),
                        if water {
                            format!(
                                "flag 0x{:x} has the water bit (0x4), so a water colour is \
                                 stored, but there is none",
                                o.flag
                            )
                        } else {
                            format!(
                                "flag 0x{:x} has no water bit (0x4), so no water colour is \
                                 stored, but there is one",
                                o.flag
                            )
                        },
                    ));
                }
            }
        }
        if self.block_layout == BlockLayout::Legacy {
            let (path, after) = self.after_blocks();
            if !after.is_empty() {
                return Err(WriteError::new(
                    path,
                    format_args!(
                        "the legacy block layout is recognised by the block section ending where \
                         the next section (or the file) starts, so no unclaimed bytes may follow \
                         it, but there are {}",
                        after.len()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The unclaimed bytes right after the block section, and their path: the next
    /// placement's gap, or the trailing bytes. Empty when the blocks are not placed.
    fn after_blocks(&self) -> (String, &[u8]) {
        let Some(k) = self
            .order
            .iter()
            .position(|p| p.section == SectionKind::Blocks)
        else {
            return (String::new(), &[]);
        };
        match self.order.get(k + 1) {
            Some(next) => (format!("order[{}].gap_before", k + 1), &next.gap_before),
            None => ("trailing".to_owned(), &self.trailing),
        }
    }

    /// Whether the reader could take the written block section for the other layout: the
    /// standard layout wins whenever its records end at the next section, so only legacy
    /// blocks, or standard blocks followed by unclaimed bytes, need a look.
    fn layout_needs_checking(&self) -> bool {
        self.block_layout == BlockLayout::Legacy || !self.after_blocks().1.is_empty()
    }

    /// Reads the written block section back as the reader would and compares the layout.
    fn check_block_layout(&self, bytes: &[u8], positions: &[usize]) -> Result<(), WriteError> {
        let Some(k) = self
            .order
            .iter()
            .position(|p| p.section == SectionKind::Blocks)
        else {
            return Ok(());
        };
        let offset = positions[k];
        // The reader's limit: the next section's offset, or the end of the file.
        let limit = positions.get(k + 1).copied().unwrap_or(bytes.len());
        let read_back = read_block_section(bytes, offset, limit).map(|(_, layout, _)| layout);
        let expected = self.block_layout;
        match read_back {
            Ok(layout) if layout == expected => Ok(()),
            Ok(_) if self.blocks.is_empty() => Err(WriteError::new(
                "blocks",
                "without blocks the two layouts are the same bytes, which read back as the \
                 standard layout",
            )),
            Ok(layout) => Err(WriteError::new(
                "blocks",
                format_args!(
                    "these {} blocks would read back as {} ones: their records also end where \
                     the next section starts in that layout",
                    expected.name(),
                    layout.name()
                ),
            )),
            Err(_) => Err(WriteError::new(
                "blocks",
                format_args!("these {} blocks would not read back", expected.name()),
            )),
        }
    }

    fn header_offsets(&self, positions: &[usize]) -> [u32; OFFSET_COUNT] {
        let mut offsets = [0; OFFSET_COUNT];
        for (i, o) in RESERVED_OFFSET_INDICES
            .into_iter()
            .zip(self.reserved_offsets)
        {
            offsets[i] = o;
        }
        for (p, &at) in self.order.iter().zip(positions) {
            offsets[p.section.offset_index()] = at as u32;
        }
        offsets
    }

    /// The bytes of a model that passed [`DungeonFile::check_structure`].
    fn write_unchecked(&self, positions: &[usize]) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.encoded_len());
        out.extend_from_slice(SIGNATURE);
        for offset in self.header_offsets(positions) {
            put_u32(&mut out, offset);
        }
        write_info(&mut out, &self.info);
        for p in &self.order {
            out.extend_from_slice(&p.gap_before);
            match p.section {
                SectionKind::Boxes => {
                    put_box(&mut out, &self.box0);
                    put_box(&mut out, &self.box1);
                }
                SectionKind::Blocks => write_blocks(&mut out, &self.blocks, self.block_layout),
                SectionKind::Grid => write_grid(&mut out, &self.grid),
                SectionKind::Links => {
                    put_u32(&mut out, self.links.len() as u32);
                    for l in &self.links {
                        put_u32_list(&mut out, l);
                    }
                }
                SectionKind::Labels => {
                    if let Some(labels) = &self.labels {
                        for names in [&labels.rooms, &labels.floors] {
                            put_u32(&mut out, names.len() as u32);
                            for name in names {
                                put_string(&mut out, name);
                            }
                        }
                    }
                }
                SectionKind::Groups => {
                    put_u32(&mut out, self.groups.len() as u32);
                    for g in &self.groups {
                        put_string(&mut out, &g.name);
                        put_u32(&mut out, g.flag);
                        put_u32_list(&mut out, &g.blocks);
                    }
                }
            }
        }
        out.extend_from_slice(&self.trailing);
        debug_assert_eq!(out.len(), self.encoded_len());
        out
    }
}

fn block_len(b: &Block, layout: BlockLayout) -> usize {
    let height = match layout {
        BlockLayout::Standard => b.fog.height.map_or(0, |_| HEIGHT_FOG_LEN),
        BlockLayout::Legacy => 0,
    };
    BLOCK_FIXED_LEN
        + layout.flag_bytes()
        + height
        + b.extra.map_or(0, |_| EXTRA_LEN)
        + b.path.len()
        + b.name.len()
        + b.unknown_string.len()
        + 4 * (b.connected.len() + b.visible.len())
        + b.objects
            .iter()
            .map(|o| {
                OBJECT_FIXED_LEN + o.name.len() + o.path.len() + o.water_colour.map_or(0, |_| 4)
            })
            .sum::<usize>()
        + b.lights
            .iter()
            .map(|l| LIGHT_FIXED_LEN + l.name.len())
            .sum::<usize>()
}

fn check_u32(section: impl fmt::Display, len: usize) -> Result<(), WriteError> {
    if len as u64 > u64::from(u32::MAX) {
        return Err(WriteError::new(
            section,
            format_args!("{len} entries, at most {} fit", u32::MAX),
        ));
    }
    Ok(())
}

fn put_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn put_floats(out: &mut Vec<u8>, values: &[F32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn put_box(out: &mut Vec<u8>, b: &BoundingBox) {
    put_floats(out, &b.min);
    put_floats(out, &b.max);
}

fn put_string(out: &mut Vec<u8>, s: &[u8]) {
    put_u32(out, s.len() as u32);
    out.extend_from_slice(s);
}

fn put_u32_list(out: &mut Vec<u8>, list: &[u32]) {
    put_u32(out, list.len() as u32);
    for &v in list {
        put_u32(out, v);
    }
}

fn write_info(out: &mut Vec<u8>, info: &Info) {
    out.extend_from_slice(&info.object_type.to_le_bytes());
    out.extend_from_slice(&info.category.to_le_bytes());
    put_string(out, &info.name);
    put_u32(out, info.unknown0);
    put_u32(out, info.unknown1);
    out.extend_from_slice(&info.region_id.to_le_bytes());
}

fn write_blocks(out: &mut Vec<u8>, blocks: &[Block], layout: BlockLayout) {
    put_u32(out, blocks.len() as u32);
    for b in blocks {
        put_string(out, &b.path);
        put_string(out, &b.name);
        put_u32(out, b.unknown0);
        put_floats(out, &b.position);
        put_floats(out, &[b.yaw]);
        put_u32(out, b.is_entrance);
        put_box(out, &b.bounding_box);
        put_u32(out, b.unknown1);
        put_u32(out, b.fog.colour);
        put_floats(out, &[b.fog.near, b.fog.far, b.fog.intensity]);
        if layout == BlockLayout::Standard {
            match &b.fog.height {
                Some(height) => {
                    out.push(HEIGHT_FOG_BYTE);
                    put_floats(out, height);
                }
                None => out.push(0),
            }
        }
        match &b.extra {
            Some(extra) => {
                out.push(EXTRA_BYTE);
                put_floats(out, &extra.vector0);
                put_floats(out, &extra.vector1);
                put_u32(out, extra.value);
            }
            None => out.push(0),
        }
        put_string(out, &b.unknown_string);
        put_u32(out, b.room_index as u32);
        put_u32(out, b.floor_index);
        put_u32_list(out, &b.connected);
        put_u32_list(out, &b.visible);
        put_u32(out, b.objects.len() as u32);
        put_u32(out, b.collision_object_count);
        for o in &b.objects {
            put_string(out, &o.name);
            put_string(out, &o.path);
            put_floats(out, &o.position);
            put_floats(out, &o.rotation);
            put_floats(out, &o.scale);
            put_u32(out, o.flag);
            put_u32(out, o.unknown);
            put_floats(out, &[o.radius_squared]);
            if let Some(colour) = o.water_colour {
                put_u32(out, colour);
            }
        }
        put_u32(out, b.lights.len() as u32);
        for l in &b.lights {
            put_string(out, &l.name);
            for v in [
                &l.position,
                &l.diffuse,
                &l.ambient,
                &l.specular,
                &l.attenuation,
            ] {
                put_floats(out, v);
            }
        }
    }
}

fn write_grid(out: &mut Vec<u8>, grid: &VoxelGrid) {
    for s in grid.size {
        put_u32(out, s);
    }
    put_u32(out, grid.voxels.len() as u32);
    for v in &grid.voxels {
        put_u32(out, v.id);
        put_u32_list(out, &v.blocks);
    }
}
