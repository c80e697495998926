//! Lint of one dungeon file: the indices the server and the client follow, the voxel grid's
//! ids, the collision circles, and what no known file has.
//!
//! Every finding has a stable code, a location named like the model's fields and the JSON form
//! (`blocks[3].connected[1]`, `grid_voxels[7].id`) and a message with the values involved. The
//! codes never change meaning; new checks get new codes. [`CODES`] lists them for programs,
//! this table for people.
//!
//! | code | severity | what it means |
//! |---|---|---|
//! | D001 | error | a block's connected block index is ≥ the block count |
//! | D002 | error | a block's visible block index is ≥ the block count |
//! | D003 | error | the link section does not hold one list per block |
//! | D004 | error | a link's block index is ≥ the block count |
//! | D005 | error | a voxel's block index is ≥ the block count |
//! | D006 | warning | a voxel's x, y or z (from its id) is outside the grid's width, height or length |
//! | D007 | warning | a voxel id has bit 30 or 31 set: no lookup makes such an id |
//! | D008 | warning | two voxels have the same id: a lookup finds only one of them |
//! | D009 | error | a group's block index is ≥ the block count |
//! | D010 | error | with labels, a block's room index is neither -1 nor < the number of room names |
//! | D011 | error | with labels, a block's floor index is ≥ the number of floor names |
//! | D012 | warning | a block's collision-object count is not the number of its objects with flag 0x2 |
//! | D013 | warning | an object's flag has bits other than 0x2 (collision) and 0x4 (water) |
//! | D014 | error | a collision object's radius² is negative, NaN or infinite |
//! | D015 | error | a block's path is empty |
//! | D016 | error | a float the placement rests on is NaN or infinite: a block's position or yaw, a collision object's position, or box0's min (the grid's origin) |
//! | D017 | warning | a reserved header offset (0x20, 0x24) is not 0 |
//! | D018 | warning | bytes lie between or after the sections that no section claims |
//! | D019 | warning | the blocks use the legacy layout |
//!
//! # Decisions
//! - **What the server follows is an error.** Its loader links each block's outline edges to
//!   the blocks it names as connected, takes each voxel's blocks by index, and expects one link
//!   list per block (D001, D003–D005); a collision circle's radius is the square root of the
//!   stored value (D014); a block's navmesh is loaded from its path (D015); a block is placed by
//!   its position and yaw, a point found in the grid from box0's min (D016). The client names
//!   rooms, floors and visible blocks by index (D002, D010, D011); groups hold block indices
//!   too (D009).
//! - **The grid's axes**: the width, height and length are taken as the extents along x, y and
//!   z, as the public readers that bound lookups take them; the id packs x, z, y. A voxel
//!   outside them is a warning (D006): a reader that does not bound its lookups still finds it.
//! - **What no known file has is a warning**: ids with reserved bits or repeated (D007, D008),
//!   unknown object flag bits (D013), reserved offsets (D017), unclaimed bytes (D018), the
//!   legacy layout, which the one file that has it is referenced by nothing (D019). The
//!   collision-object count is read by nothing; D012 says when it disagrees with the flags.
//! - **Offsets are not linted**: the reader refuses offsets inside the header or the info,
//!   past the end, shared, or overlapping, and the writer derives them, so a model cannot hold
//!   such an offset.
//!
//! # Cost
//! O(size of the file): one pass over each list, and a hash set of the voxel ids.

use super::model::*;
use std::collections::HashMap;

use crate::lint::{finding, sort};
pub use crate::lint::{Finding, Severity};

/// Every lint code: (code, severity, one-line description), in code order.
pub const CODES: &[(&str, Severity, &str)] = &[
    (
        "D001",
        Severity::Error,
        "a block's connected block index is >= the block count",
    ),
    (
        "D002",
        Severity::Error,
        "a block's visible block index is >= the block count",
    ),
    (
        "D003",
        Severity::Error,
        "the link section does not hold one list per block",
    ),
    (
        "D004",
        Severity::Error,
        "a link's block index is >= the block count",
    ),
    (
        "D005",
        Severity::Error,
        "a voxel's block index is >= the block count",
    ),
    (
        "D006",
        Severity::Warning,
        "a voxel's x, y or z is outside the grid's width, height or length",
    ),
    ("D007", Severity::Warning, "a voxel id has bit 30 or 31 set"),
    ("D008", Severity::Warning, "two voxels have the same id"),
    (
        "D009",
        Severity::Error,
        "a group's block index is >= the block count",
    ),
    (
        "D010",
        Severity::Error,
        "a block's room index is neither -1 nor < the number of room names",
    ),
    (
        "D011",
        Severity::Error,
        "a block's floor index is >= the number of floor names",
    ),
    (
        "D012",
        Severity::Warning,
        "a block's collision-object count is not the number of its objects with flag 0x2",
    ),
    (
        "D013",
        Severity::Warning,
        "an object's flag has bits other than 0x2 and 0x4",
    ),
    (
        "D014",
        Severity::Error,
        "a collision object's radius squared is negative, NaN or infinite",
    ),
    ("D015", Severity::Error, "a block's path is empty"),
    (
        "D016",
        Severity::Error,
        "a block's position or yaw, a collision object's position or box0's min is NaN or infinite",
    ),
    (
        "D017",
        Severity::Warning,
        "a reserved header offset is not 0",
    ),
    (
        "D018",
        Severity::Warning,
        "bytes no section claims lie between or after the sections",
    ),
    (
        "D019",
        Severity::Warning,
        "the blocks use the legacy layout",
    ),
];

/// The object flag bits whose meaning is known.
const KNOWN_OBJECT_FLAGS: u32 = OBJECT_COLLISION | OBJECT_WATER;

/// Lints one dungeon: the codes in [`CODES`], in code order (file order within a code).
pub fn lint(dungeon: &DungeonFile) -> Vec<Finding> {
    let mut l = Linter {
        d: dungeon,
        findings: Vec::new(),
    };
    for (i, block) in dungeon.blocks.iter().enumerate() {
        l.block(i, block);
    }
    l.links();
    l.grid();
    l.groups();
    l.file();
    sort(&mut l.findings);
    l.findings
}

struct Linter<'a> {
    d: &'a DungeonFile,
    findings: Vec<Finding>,
}

impl Linter<'_> {
    fn report(&mut self, code: &'static str, location: String, message: String) {
        self.findings.push(finding(CODES, code, location, message));
    }

    /// Reports every index of `list` that is not a block.
    fn block_indices(&mut self, code: &'static str, path: &str, list: &[u32]) {
        let n = self.d.blocks.len();
        for (k, &index) in list.iter().enumerate() {
            if index as usize >= n {
                self.report(
                    code,
                    format!("{path}[{k}]"),
                    format!("block {index}, but there are {n} blocks"),
                );
            }
        }
    }

    fn block(&mut self, i: usize, b: &Block) {
        self.block_indices("D001", &format!("blocks[{i}].connected"), &b.connected);
        self.block_indices("D002", &format!("blocks[{i}].visible"), &b.visible);
        if let Some(labels) = &self.d.labels {
            let rooms = labels.rooms.len();
            let room = b.room_index;
            if room != NO_ROOM && (room < 0 || room as usize >= rooms) {
                self.report(
                    "D010",
                    format!("blocks[{i}].room_index"),
                    format!("room {room}, but there are {rooms} room names (and it is not -1)"),
                );
            }
            let floors = labels.floors.len();
            let floor = b.floor_index;
            if floor as usize >= floors {
                self.report(
                    "D011",
                    format!("blocks[{i}].floor_index"),
                    format!("floor {floor}, but there are {floors} floor names"),
                );
            }
        }
        let colliding = b
            .objects
            .iter()
            .filter(|o| o.flag & OBJECT_COLLISION != 0)
            .count();
        if b.collision_object_count as usize != colliding {
            self.report(
                "D012",
                format!("blocks[{i}].collision_object_count"),
                format!(
                    "{} collision objects stored, but {colliding} of the {} objects have flag 0x2",
                    b.collision_object_count,
                    b.objects.len()
                ),
            );
        }
        for (j, o) in b.objects.iter().enumerate() {
            let at = |field: &str| format!("blocks[{i}].objects[{j}].{field}");
            if o.flag & !KNOWN_OBJECT_FLAGS != 0 {
                self.report(
                    "D013",
                    at("flag"),
                    format!(
                        "flag 0x{:x} has unknown bits 0x{:x}",
                        o.flag,
                        o.flag & !KNOWN_OBJECT_FLAGS
                    ),
                );
            }
            if o.flag & OBJECT_COLLISION == 0 {
                continue;
            }
            let r2 = o.radius_squared.get();
            if !(r2 >= 0.0) || r2.is_infinite() {
                self.report(
                    "D014",
                    at("radius_squared"),
                    format!(
                        "{:?}: the collision circle's radius is its square root",
                        o.radius_squared
                    ),
                );
            }
            if let Some(bad) = o.position.iter().find(|c| !c.get().is_finite()) {
                self.report(
                    "D016",
                    at("position"),
                    format!("the collision circle's centre has a non-finite coordinate {bad:?}"),
                );
            }
        }
        if b.path.is_empty() {
            self.report(
                "D015",
                format!("blocks[{i}].path"),
                "an empty path: the block's navmesh is loaded from it".to_owned(),
            );
        }
        if let Some(bad) = b.position.iter().find(|c| !c.get().is_finite()) {
            self.report(
                "D016",
                format!("blocks[{i}].position"),
                format!("the position has a non-finite coordinate {bad:?}"),
            );
        }
        if !b.yaw.get().is_finite() {
            self.report(
                "D016",
                format!("blocks[{i}].yaw"),
                format!("the yaw is {:?}", b.yaw),
            );
        }
    }

    fn links(&mut self) {
        let (lists, blocks) = (self.d.links.len(), self.d.blocks.len());
        if lists != blocks {
            self.report(
                "D003",
                "links".to_owned(),
                format!("{lists} link lists for {blocks} blocks"),
            );
        }
        for (i, list) in self.d.links.iter().enumerate() {
            self.block_indices("D004", &format!("links[{i}]"), list);
        }
    }

    fn grid(&mut self) {
        let [width, height, length] = self.d.grid.size;
        let mut first: HashMap<u32, usize> = HashMap::with_capacity(self.d.grid.voxels.len());
        for (v, voxel) in self.d.grid.voxels.iter().enumerate() {
            self.block_indices("D005", &format!("grid_voxels[{v}].blocks"), &voxel.blocks);
            let [x, y, z] = voxel.coordinates();
            if x >= width || y >= height || z >= length {
                self.report(
                    "D006",
                    format!("grid_voxels[{v}].id"),
                    format!(
                        "voxel (x {x}, y {y}, z {z}) lies outside the grid of width {width}, \
                         height {height} and length {length}"
                    ),
                );
            }
            if voxel.id & VOXEL_RESERVED_BITS != 0 {
                self.report(
                    "D007",
                    format!("grid_voxels[{v}].id"),
                    format!("id 0x{:08x} has reserved bits set", voxel.id),
                );
            }
            if let Some(&u) = first.get(&voxel.id) {
                self.report(
                    "D008",
                    format!("grid_voxels[{v}].id"),
                    format!("id 0x{:08x} is grid_voxels[{u}]'s too", voxel.id),
                );
            } else {
                first.insert(voxel.id, v);
            }
        }
    }

    fn groups(&mut self) {
        for (g, group) in self.d.groups.iter().enumerate() {
            self.block_indices("D009", &format!("groups[{g}].blocks"), &group.blocks);
        }
    }

    fn file(&mut self) {
        let origin = self.d.box0.min;
        if let Some(bad) = origin.iter().find(|c| !c.get().is_finite()) {
            self.report(
                "D016",
                "box0.min".to_owned(),
                format!("the grid's origin has a non-finite coordinate {bad:?}"),
            );
        }
        for (k, &offset) in self.d.reserved_offsets.iter().enumerate() {
            if offset != 0 {
                self.report(
                    "D017",
                    format!("reserved_offsets[{k}]"),
                    format!("offset {offset}; no reader follows it, and edits do not move it"),
                );
            }
        }
        for (k, p) in self.d.order.iter().enumerate() {
            if !p.gap_before.is_empty() {
                self.report(
                    "D018",
                    format!("order[{k}].gap_before"),
                    format!(
                        "{} unclaimed bytes before the {} section",
                        p.gap_before.len(),
                        p.section.name()
                    ),
                );
            }
        }
        if !self.d.trailing.is_empty() {
            self.report(
                "D018",
                "trailing".to_owned(),
                format!(
                    "{} unclaimed bytes after the last section",
                    self.d.trailing.len()
                ),
            );
        }
        if self.d.block_layout == BlockLayout::Legacy {
            self.report(
                "D019",
                "block_layout".to_owned(),
                "one flag byte per block, as in one known file that nothing references; \
                 every file the game uses has two"
                    .to_owned(),
            );
        }
    }
}
