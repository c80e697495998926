//! The typed model of a `JMXVBMS` file: the header, the navigation section in full, and the
//! render mesh's sections as the bytes they are.

use crate::float::F32;

/// The first eight bytes of every mesh file; the version's four digits follow.
pub const SIGNATURE_PREFIX: &[u8; 8] = b"JMXVBMS ";

/// Bytes of the header: the 12-byte signature, ten u32 section offsets and five u32 fields.
pub const HEADER_LEN: usize = 72;

/// Number of u32 section offsets in the header (bytes 0x0C..0x34).
pub const OFFSET_COUNT: usize = 10;

/// Index in [`Header::offsets`] of the navigation section's offset (the u32 at 0x28).
pub const NAV_OFFSET_INDEX: usize = 7;

/// Byte position of the navigation section's offset in the file.
pub const NAV_OFFSET_POSITION: usize = 12 + 4 * NAV_OFFSET_INDEX;

/// Byte position of the nav flags in the file.
pub const NAV_FLAGS_POSITION: usize = 12 + 4 * (OFFSET_COUNT + 1);

/// Nav flag bit: every outline and inline edge record ends with an event byte.
pub const NAV_EDGE_EVENTS: u32 = 0x01;
/// Nav flag bit: every cell record ends with an event byte.
pub const NAV_CELL_EVENTS: u32 = 0x02;
/// Nav flag bit: the event names follow the inline edges.
pub const NAV_EVENT_NAMES: u32 = 0x04;
/// Nav flag bit: no bytes depend on it; the server reports a siege edge crossed on such a mesh
/// with one more result bit.
pub const NAV_SIEGE_REPORT: u32 = 0x08;
/// Every nav flag bit whose meaning is known.
pub const NAV_KNOWN_FLAGS: u32 =
    NAV_EDGE_EVENTS | NAV_CELL_EVENTS | NAV_EVENT_NAMES | NAV_SIEGE_REPORT;

/// The u16 value meaning "no cell" on an edge's second side.
pub const NO_CELL: u16 = 0xFFFF;

/// Width of one outline-grid tile in object-local units (the server's constant).
pub const GRID_TILE_SIZE: f32 = 100.0;

/// Event byte bits 6 and 7: when the event fires (1 entering, 2 leaving); 0 never.
pub const EVENT_MODE_MASK: u8 = 0xC0;
/// Event byte bits 0..=5: the index into [`NavSection::event_names`].
pub const EVENT_INDEX_MASK: u8 = 0x3F;

/// The format version named by the signature's last four bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Version {
    /// `JMXVBMS 0109`: a few old files (its skinning records are wider; the navigation
    /// section is the same).
    V0109,
    /// `JMXVBMS 0110`: nearly every file.
    #[default]
    V0110,
}

impl Version {
    /// Both versions, newest first.
    pub const ALL: [Version; 2] = [Version::V0110, Version::V0109];

    /// The 12 signature bytes.
    pub const fn signature(self) -> &'static [u8; 12] {
        match self {
            Version::V0109 => b"JMXVBMS 0109",
            Version::V0110 => b"JMXVBMS 0110",
        }
    }

    /// The version these 12 signature bytes name.
    pub fn from_signature(signature: &[u8]) -> Option<Version> {
        Version::ALL
            .into_iter()
            .find(|v| v.signature().as_slice() == signature)
    }
}

/// A whole `.bms` file: the header, the render mesh's sections as raw bytes, and the
/// navigation section when there is one.
///
/// The file is `signature · header · before_nav · nav · after_nav`. Where the header's offsets
/// point is not interpreted besides the navigation section's, so any arrangement of the other
/// sections, and any bytes after the last one, come back as they were read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ObjectMesh {
    /// The signature's version.
    pub version: Version,
    /// Bytes 12..72: the offset table and the fields after it, verbatim.
    pub header: Header,
    /// Every byte from the end of the header to the navigation section, or to the end of the
    /// file when there is none: the name and material strings and the render mesh's sections.
    pub before_nav: Vec<u8>,
    /// The navigation section, when the header's nav offset is not 0.
    pub nav: Option<NavSection>,
    /// Every byte after the navigation section: the sections stored after it and trailing
    /// bytes. Always empty when there is no navigation section.
    pub after_nav: Vec<u8>,
}

/// The header after the signature: 15 u32 values, 60 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Header {
    /// Bytes 0x0C..0x34: absolute offsets of the vertices, skin, faces, cloth vertices, cloth
    /// edges, bounding box, occlusion portals, navigation, skinned navigation and an unknown
    /// section; 0 = absent. Only the navigation offset ([`NAV_OFFSET_INDEX`]) is interpreted.
    pub offsets: [u32; OFFSET_COUNT],
    /// Bytes 0x34..0x38: unknown (0 in the game data).
    pub unknown0: u32,
    /// Bytes 0x38..0x3C: which optional parts the navigation section has (`NAV_*` bits).
    pub nav_flags: u32,
    /// Bytes 0x3C..0x40: sub-primitive count (1 in the game data).
    pub sub_prim_count: u32,
    /// Bytes 0x40..0x44: vertex format bits of the render mesh.
    pub vertex_flags: u32,
    /// Bytes 0x44..0x48: unknown (0 in the game data).
    pub unknown2: u32,
}

impl Header {
    /// The navigation section's offset; 0 when the file has none.
    pub const fn nav_offset(&self) -> u32 {
        self.offsets[NAV_OFFSET_INDEX]
    }

    /// Whether edge records carry an event byte.
    pub const fn has_edge_events(&self) -> bool {
        self.nav_flags & NAV_EDGE_EVENTS != 0
    }

    /// Whether cell records carry an event byte.
    pub const fn has_cell_events(&self) -> bool {
        self.nav_flags & NAV_CELL_EVENTS != 0
    }

    /// Whether the event names are stored.
    pub const fn has_event_names(&self) -> bool {
        self.nav_flags & NAV_EVENT_NAMES != 0
    }
}

/// The object's own navmesh: triangles over shared vertices, their edges, event names and the
/// outline lookup grid. Coordinates are object-local.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NavSection {
    /// Vertices: 13 bytes each.
    pub vertices: Vec<NavVertex>,
    /// Triangles: 8 bytes each, 9 with cell events.
    pub cells: Vec<NavCell>,
    /// Edges on the border of the walkable surface (walls, entrances, links): 9 bytes each,
    /// 10 with edge events.
    pub outline_edges: Vec<NavEdge>,
    /// Edges between two cells: the same record.
    pub inline_edges: Vec<NavEdge>,
    /// Event zone names as stored (the game's text is CP949), named by event bytes. Stored only
    /// with [`NAV_EVENT_NAMES`]; must be empty otherwise.
    pub event_names: Vec<Vec<u8>>,
    /// Which outline edges cross each 100×100 tile.
    pub grid: OutlineGrid,
}

/// A vertex: 13 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NavVertex {
    /// Bytes 0..12: x, y, z.
    pub position: [F32; 3],
    /// Byte 12: a direction (angle `normal · 2π / 256` in the xz plane) that the server pushes
    /// a blocked point along, off the edge.
    pub normal: u8,
}

/// A triangle: 8 bytes, then the event byte when the nav flags say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NavCell {
    /// Bytes 0..6: indices into [`NavSection::vertices`].
    pub vertices: [u16; 3],
    /// Bytes 6..8: cell flag (0 in the game data).
    pub flag: u16,
    /// Byte 8 with [`NAV_CELL_EVENTS`]: mode bits and event index (see [`EVENT_MODE_MASK`]);
    /// must be 0 without it.
    pub event: u8,
}

/// An outline or inline edge: 9 bytes, then the event byte when the nav flags say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NavEdge {
    /// Bytes 0..4: the two endpoints, indices into [`NavSection::vertices`], in stored order.
    pub vertices: [u16; 2],
    /// Bytes 4..8: the cell on each side; the second is [`NO_CELL`] on outline edges.
    pub cells: [u16; 2],
    /// Byte 8: edge flag bits, as on terrain edges (`crate::nvm::EDGE_*`).
    pub flag: u8,
    /// Byte 9 with [`NAV_EDGE_EVENTS`]: as [`NavCell::event`]; must be 0 without it.
    pub event: u8,
}

/// The outline lookup grid: tiles of [`GRID_TILE_SIZE`] from `origin`, row-major, each listing
/// the outline edges that cross it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OutlineGrid {
    /// Bytes 0..8: the grid's min x and min z.
    pub origin: [F32; 2],
    /// Bytes 8..12: tiles along x (an i32, as the server reads it).
    pub width: i32,
    /// Bytes 12..16: tiles along z.
    pub height: i32,
    /// After a u32 count (width × height in the game data): per tile a u32 count and that many
    /// u16 indices into [`NavSection::outline_edges`]. Tile `(x, z)` is `tiles[z · width + x]`.
    pub tiles: Vec<Vec<u16>>,
}

impl ObjectMesh {
    /// A file holding only a navigation section: the header with its nav offset and flags set,
    /// an empty name and material string and a zero word, then `nav`.
    ///
    /// The world generator and tests build object meshes this way; a game file has its render
    /// mesh's sections between the header and the navigation section.
    pub fn from_nav(version: Version, nav_flags: u32, nav: NavSection) -> ObjectMesh {
        let before_nav = vec![0; 12];
        let mut header = Header {
            nav_flags,
            sub_prim_count: 1,
            ..Header::default()
        };
        header.offsets[NAV_OFFSET_INDEX] = (HEADER_LEN + before_nav.len()) as u32;
        ObjectMesh {
            version,
            header,
            before_nav,
            nav: Some(nav),
            after_nav: Vec::new(),
        }
    }

    /// Where the navigation section must start for the model to write: right after
    /// [`ObjectMesh::before_nav`].
    pub fn nav_position(&self) -> usize {
        HEADER_LEN + self.before_nav.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_positions_match_the_server() {
        // The server reads the nav offset at 0x28 and its struct options at 0x38.
        assert_eq!(NAV_OFFSET_POSITION, 0x28);
        assert_eq!(NAV_FLAGS_POSITION, 0x38);
        assert_eq!(HEADER_LEN, 12 + 15 * 4);
        for v in Version::ALL {
            assert_eq!(Version::from_signature(v.signature()), Some(v));
            assert!(v.signature().starts_with(SIGNATURE_PREFIX));
        }
        assert_eq!(Version::from_signature(b"JMXVBMS 0111"), None);
    }
}
