//! Writing: [`AiNavData`] → bytes, section by section in file order (mirrors `read.rs`).

use super::model::*;
use super::read::{BLOCK_FIXED_LEN, CENTRE_LEN, ENTRY_LEN, LINK_LEN};
use crate::error::{write_bytes, WriteError};
use std::io::{self, Write};

impl AiNavData {
    /// Bytes of the routing section: region id, block count, blocks, sub-goal table, unknown0.
    pub(crate) fn routing_len(&self) -> usize {
        2 + 4
            + self
                .blocks
                .iter()
                .map(RouteBlock::encoded_len)
                .sum::<usize>()
            + 2 * self.sub_goals.entries().len()
            + 4
    }

    /// The exact size of the written file in bytes.
    pub fn encoded_len(&self) -> usize {
        let centres: usize = self
            .edge_centres
            .iter()
            .map(|c| 4 + CENTRE_LEN * c.len())
            .sum();
        self.centres_position() + 2 + 4 + centres + 4 + self.trailing.len()
    }

    /// Checks that the model can be written and read back as itself.
    ///
    /// # Errors
    /// A sub-goal table whose side is not the number of blocks (the file stores the count
    /// once), a count beyond a u32, or an edge-centre section starting past 4 GiB (its offset
    /// is a u32).
    pub fn check_writable(&self) -> Result<(), WriteError> {
        check_u32("blocks", self.blocks.len())?;
        for (i, block) in self.blocks.iter().enumerate() {
            check_u32(format_args!("blocks[{i}].links"), block.links.len())?;
        }
        if self.sub_goals.side() as usize != self.blocks.len() {
            return Err(WriteError::new(
                "sub_goals",
                format_args!(
                    "the table's side is {}, but there are {} blocks (the file stores the count once)",
                    self.sub_goals.side(),
                    self.blocks.len()
                ),
            ));
        }
        check_u32("edge_centres", self.edge_centres.len())?;
        for (i, centres) in self.edge_centres.iter().enumerate() {
            check_u32(format_args!("edge_centres[{i}]"), centres.len())?;
        }
        let position = self.centres_position();
        if position as u64 > u64::from(u32::MAX) {
            return Err(WriteError::new(
                "centres_offset",
                format_args!("the edge-centre section would start at byte {position}, past a u32"),
            ));
        }
        Ok(())
    }

    /// The file's bytes.
    ///
    /// # Errors
    /// As for [`AiNavData::check_writable`].
    pub fn to_vec(&self) -> Result<Vec<u8>, WriteError> {
        self.check_writable()?;
        let mut out = Vec::with_capacity(self.encoded_len());
        out.push(VERSION);
        put_u32(&mut out, self.centres_position() as u32);
        put_u16(&mut out, self.region.0);
        put_u32(&mut out, self.blocks.len() as u32);
        for block in &self.blocks {
            write_block(&mut out, block);
        }
        for &cell in self.sub_goals.entries() {
            put_u16(&mut out, cell as u16);
        }
        put_u32(&mut out, self.unknown0);
        out.extend_from_slice(&self.gap);
        debug_assert_eq!(out.len(), self.centres_position());

        put_u16(&mut out, self.centre_region.0);
        put_u32(&mut out, self.edge_centres.len() as u32);
        for centres in &self.edge_centres {
            put_u32(&mut out, centres.len() as u32);
            for c in centres.iter().flatten() {
                out.extend_from_slice(&c.to_le_bytes());
            }
        }
        put_u32(&mut out, self.unknown1);
        out.extend_from_slice(&self.trailing);
        debug_assert_eq!(out.len(), self.encoded_len());
        Ok(out)
    }

    /// Writes the file's bytes to a stream.
    ///
    /// # Errors
    /// An [`io::Error`] from the stream, or one of kind `InvalidInput` wrapping a
    /// [`WriteError`] when the model cannot be written.
    pub fn write_to(&self, writer: impl Write) -> io::Result<()> {
        write_bytes(self.to_vec(), writer)
    }
}

impl RouteBlock {
    /// Bytes of the block as stored: its fixed fields, its cell table, its links.
    pub fn encoded_len(&self) -> usize {
        BLOCK_FIXED_LEN
            + ENTRY_LEN * self.next_edge.entries().len()
            + 4
            + LINK_LEN * self.links.len()
    }
}

fn check_u32(section: impl std::fmt::Display, len: usize) -> Result<(), WriteError> {
    if len as u64 > u64::from(u32::MAX) {
        return Err(WriteError::new(
            section,
            format_args!("{len} entries, at most {} fit", u32::MAX),
        ));
    }
    Ok(())
}

fn put_u16(out: &mut Vec<u8>, value: u16) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn put_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn write_block(out: &mut Vec<u8>, block: &RouteBlock) {
    put_u32(out, block.index);
    put_u32(out, block.next_edge.side());
    put_u32(out, block.edge_count);
    for e in block.next_edge.entries() {
        put_u16(out, e.forward as u16);
        put_u16(out, e.backward as u16);
    }
    put_u32(out, block.links.len() as u32);
    for link in &block.links {
        put_u32(out, link.id);
        put_u16(out, link.cell);
        put_u16(out, link.linked_block);
        put_u16(out, link.linked_edge);
    }
}
