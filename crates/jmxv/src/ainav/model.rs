//! The typed model of an `AINavData_XXXXX.dat` file: the routing section (per block a table of
//! next edges and the block's links, then the table of sub-goal cells) and the edge-centre
//! section.

use crate::float::F32;
use crate::RegionId;

/// The version byte every file starts with; the server refuses any other.
pub const VERSION: u8 = 1;

/// Bytes before the routing section: the version byte and the u32 offset of the edge-centre
/// section.
pub const HEADER_LEN: usize = 5;

/// The edge index that means "no edge": a cell table entry with no route (its own cell).
pub const NO_EDGE: i16 = -1;

/// The cell index that means "no cell" in the sub-goal table.
pub const NO_CELL: i16 = -1;

/// The largest index an `i16` table entry can hold: a block with more cells or edges cannot
/// have them all named (lint A014).
pub const MAX_INDEX: u32 = i16::MAX as u32;

/// A whole `AINavData_XXXXX.dat`: a dungeon's precomputed monster routes.
///
/// The file is `version · offset · routing section · gap · edge-centre section · trailing`,
/// where the offset (a u32 at byte 1) says where the edge-centre section starts. The offset is
/// not a field: it is always where [`AiNavData::gap`] ends, so it cannot disagree with the
/// model.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AiNavData {
    /// Bytes 5..7: the dungeon's region id, `0x8000 | dungeon id`.
    pub region: RegionId,
    /// After a u32 block count: the dungeon's blocks, in the order of its `.dof`.
    pub blocks: Vec<RouteBlock>,
    /// `blocks × blocks` i16 entries, goal-major: `sub_goals[goal][start]` is the cell a
    /// monster in block `start` heads for to reach block `goal` ([`NO_CELL`] for none). The
    /// diagonal is not initialised in the game's files.
    pub sub_goals: SquareTable<i16>,
    /// The u32 that ends the routing section; 0 in the game's files, and the server refuses
    /// the file otherwise (lint A001).
    pub unknown0: u32,
    /// Bytes between the routing section and the offset the header gives; none in the game's
    /// files (lint A016).
    pub gap: Vec<u8>,
    /// The region id again, at the start of the edge-centre section; the server files the
    /// centres under this one.
    pub centre_region: RegionId,
    /// After a u32 block count: per block, a u32 count and the centre (f32 x, y, z) of each of
    /// the block's edges, in edge order.
    pub edge_centres: Vec<Vec<[F32; 3]>>,
    /// The u32 that ends the edge-centre section; 0 in the game's files, and the server
    /// refuses the file otherwise (lint A002).
    pub unknown1: u32,
    /// Bytes after the edge-centre section; none in the game's files (lint A017).
    pub trailing: Vec<u8>,
}

/// One block's routes: 12 bytes of header, its cell table, its links.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RouteBlock {
    /// Bytes 0..4: the block's index in the dungeon; its position in the file in the game's
    /// files (lint A013).
    pub index: u32,
    /// Bytes 8..12: the number of edges of the block's navigation mesh the tables name.
    pub edge_count: u32,
    /// After the cell count (bytes 4..8, the table's side): `cells × cells` entries of 4 bytes,
    /// goal-major. `next_edge[goal][start]` says which edge to cross from `start` toward `goal`,
    /// and back.
    pub next_edge: SquareTable<NextEdge>,
    /// After a u32 count: 10 bytes each, the cells through which a monster leaves the block
    /// into another.
    pub links: Vec<BlockLink>,
}

/// One cell-table entry: 4 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NextEdge {
    /// Bytes 0..2: the edge a monster in the start cell crosses toward the goal cell
    /// ([`NO_EDGE`] for none).
    pub forward: i16,
    /// Bytes 2..4: the edge a monster in the goal cell crosses toward the start cell.
    pub backward: i16,
}

/// A link out of a block: 10 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BlockLink {
    /// Bytes 0..4: equal to [`BlockLink::cell`] in the game's files (lint A012); one
    /// reconstruction of the server reads it as an index of its own.
    pub id: u32,
    /// Bytes 4..6: the cell of this block the link leaves from.
    pub cell: u16,
    /// Bytes 6..8: the block the link leads into.
    pub linked_block: u16,
    /// Bytes 8..10: the edge of that block the link arrives through.
    pub linked_edge: u16,
}

/// A square table of `side × side` entries, goal-major: `table[goal][start]` is
/// `entries()[goal · side + start]`.
///
/// The side is stored on disk as a u32 before the entries, so the table always holds exactly
/// `side²` of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SquareTable<T> {
    pub(super) side: u32,
    pub(super) entries: Vec<T>,
}

impl<T> Default for SquareTable<T> {
    /// The empty table: side 0, no entries.
    fn default() -> SquareTable<T> {
        SquareTable {
            side: 0,
            entries: Vec::new(),
        }
    }
}

impl<T> SquareTable<T> {
    /// A table of this side with these entries, goal-major; `None` unless there are exactly
    /// `side²` of them.
    pub fn new(side: u32, entries: Vec<T>) -> Option<SquareTable<T>> {
        let n = usize::try_from(side).ok()?;
        (n.checked_mul(n) == Some(entries.len())).then_some(SquareTable { side, entries })
    }

    /// A table whose entry at `[goal][start]` is `f(goal, start)`.
    ///
    /// # Panics
    /// When `side²` entries do not fit in memory.
    pub fn from_fn(side: u32, mut f: impl FnMut(u32, u32) -> T) -> SquareTable<T> {
        let n = side as usize;
        let mut entries = Vec::with_capacity(n.checked_mul(n).expect("side² fits a usize"));
        for goal in 0..side {
            entries.extend((0..side).map(|start| f(goal, start)));
        }
        SquareTable { side, entries }
    }

    /// Rows and columns: the block's cell count, or the dungeon's block count.
    pub fn side(&self) -> u32 {
        self.side
    }

    /// The entry for these two cells or blocks; `None` when either is out of range.
    pub fn get(&self, goal: u32, start: u32) -> Option<&T> {
        self.at(goal, start).map(|i| &self.entries[i])
    }

    /// The entry for these two cells or blocks, to change it.
    pub fn get_mut(&mut self, goal: u32, start: u32) -> Option<&mut T> {
        self.at(goal, start).map(|i| &mut self.entries[i])
    }

    fn at(&self, goal: u32, start: u32) -> Option<usize> {
        (goal < self.side && start < self.side)
            .then(|| goal as usize * self.side as usize + start as usize)
    }

    /// Every entry with a goal: `side` entries, one per start.
    pub fn row(&self, goal: u32) -> Option<&[T]> {
        let n = self.side as usize;
        let start = (goal < self.side).then(|| goal as usize * n)?;
        self.entries.get(start..start + n)
    }

    /// The rows in goal order.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = &[T]> + '_ {
        // `max(1)` keeps `chunks_exact` happy for the empty table, which has no entries.
        self.entries.chunks_exact((self.side as usize).max(1))
    }

    /// Every entry, goal-major, as stored.
    pub fn entries(&self) -> &[T] {
        &self.entries
    }

    /// Every entry, goal-major, to change them.
    pub fn entries_mut(&mut self) -> &mut [T] {
        &mut self.entries
    }

    /// The entries, goal-major.
    pub fn into_entries(self) -> Vec<T> {
        self.entries
    }

    /// The table of `f` of each entry.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> SquareTable<U> {
        SquareTable {
            side: self.side,
            entries: self.entries.into_iter().map(f).collect(),
        }
    }
}

impl AiNavData {
    /// Where the edge-centre section starts when the model is written: the offset stored in
    /// bytes 1..5.
    pub fn centres_position(&self) -> usize {
        HEADER_LEN + self.routing_len() + self.gap.len()
    }
}

/// The name the game gives the file of a dungeon region: `AINavData_32769.dat`, the region id
/// (`0x8000 | dungeon id`) in decimal.
///
/// ```
/// use jmxv::{ainav, RegionId};
///
/// assert_eq!(ainav::file_name(RegionId(0x8001)), "AINavData_32769.dat");
/// assert_eq!(ainav::region_from_file_name("ainavdata_32769.DAT"), Some(RegionId(0x8001)));
/// ```
pub fn file_name(region: RegionId) -> String {
    format!("AINavData_{}.dat", region.0)
}

/// The region a file name such as `AINavData_32769.dat` names (prefix and extension in any
/// case, as the archive's file names are); `None` for names that do not follow the pattern,
/// including numbers with leading zeros or above 65535, which no region id prints as.
pub fn region_from_file_name(name: &str) -> Option<RegionId> {
    const PREFIX: &str = "AINavData_";
    const EXTENSION: &str = ".dat";
    let prefix = name.get(..PREFIX.len())?;
    let rest = &name[PREFIX.len()..];
    let digits = rest.len().checked_sub(EXTENSION.len())?;
    let (number, extension) = (rest.get(..digits)?, rest.get(digits..)?);
    if !prefix.eq_ignore_ascii_case(PREFIX) || !extension.eq_ignore_ascii_case(EXTENSION) {
        return None;
    }
    let plain = !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
        && (number == "0" || !number.starts_with('0'));
    if !plain {
        return None;
    }
    number.parse::<u16>().ok().map(RegionId)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_decimal() {
        assert_eq!(file_name(RegionId(0x8000)), "AINavData_32768.dat");
        for name in [
            "AINavData_32768.dat",
            "ainavdata_32768.dat",
            "AINAVDATA_32768.DAT",
        ] {
            assert_eq!(
                region_from_file_name(name),
                Some(RegionId(0x8000)),
                "{name}"
            );
        }
        for name in [
            "AINavData_032768.dat",
            "AINavData_8000.dat.bak",
            "AINavData_.dat",
            "AINavData_65536.dat",
            "AINavData_+1.dat",
            "AINavData_1.bin",
            "nv_8000.nvm",
            "AINavData_é.dat",
        ] {
            assert_eq!(region_from_file_name(name), None, "{name}");
        }
        assert_eq!(region_from_file_name("AINavData_0.dat"), Some(RegionId(0)));
    }

    #[test]
    fn square_tables_are_goal_major() {
        let t = SquareTable::from_fn(3, |goal, start| goal * 10 + start);
        assert_eq!(t.get(2, 1), Some(&21));
        assert_eq!(t.row(1), Some(&[10, 11, 12][..]));
        assert_eq!(t.get(3, 0), None);
        assert_eq!(t.rows().count(), 3);
        assert_eq!(SquareTable::new(2, vec![0; 3]), None);
        let empty = SquareTable::<u8>::new(0, Vec::new()).unwrap();
        assert_eq!((empty.rows().count(), empty.row(0)), (0, None));
    }
}
