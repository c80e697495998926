//! JSON text → [`NavMesh`], section by section in file order (mirrors `write.rs`).
//!
//! The document is read in one pass (see [`crate::json::read`]). What depends on the layout is
//! checked as soon as the layout is known; keys that come before `layout` in an edited document
//! are checked in [`Document::finish`], against the paths they were read at.

use super::write::is_printable;
use crate::json::read::{
    expected, hex, read, record, refuse, required, structured, Fixed, HexBytes, Item, Keys, Scalar,
    Structure,
};
use crate::json::JsonError;
use crate::nvm::{
    boxed_array, Cell, GlobalEdge, InternalEdge, Layout, Link, NavMesh, Object, Planes, Tile,
    HEIGHT_COUNT, PLANE_COUNT, TILE_COUNT,
};
use crate::F32;
use serde::de::{Deserializer, Error as _, MapAccess};
use serde::Deserialize;

/// The top-level keys, in the order of the file.
const TOP_KEYS: [&str; 13] = [
    "signature",
    "signature_hex",
    "layout",
    "objects",
    "open_cell_count",
    "cells",
    "global_edges",
    "internal_edges",
    "tiles",
    "heights",
    "plane_types",
    "plane_heights",
    "trailing",
];

const SIGNATURE: usize = 0;
const SIGNATURE_HEX: usize = 1;
const LAYOUT: usize = 2;
const OBJECTS: usize = 3;
const OPEN_CELL_COUNT: usize = 4;
const CELLS: usize = 5;
const GLOBAL_EDGES: usize = 6;
const INTERNAL_EDGES: usize = 7;
const TILES: usize = 8;
const HEIGHTS: usize = 9;
const PLANE_TYPES: usize = 10;
const PLANE_HEIGHTS: usize = 11;
const TRAILING: usize = 12;

const BOTH_SIGNATURES: &str = r#"give either "signature" or "signature_hex", not both"#;

/// The document as read, before the checks that need all of it.
pub(super) struct Document {
    signature: [u8; 12],
    layout: Layout,
    objects: Vec<Object>,
    open_cell_count: u32,
    cells: Vec<Cell>,
    global_edges: Vec<GlobalEdge>,
    internal_edges: Vec<InternalEdge>,
    tiles: Box<[TileEntry; TILE_COUNT]>,
    heights: Box<[F32; HEIGHT_COUNT]>,
    plane_types: Option<[u8; PLANE_COUNT]>,
    plane_heights: Option<[F32; PLANE_COUNT]>,
    trailing: Vec<u8>,
}

impl Document {
    /// The navmesh, once the keys read before `layout` are checked against it.
    ///
    /// # Errors
    /// Tiles or planes that the layout does not store, or trailing bytes it cannot carry.
    pub(super) fn finish(self) -> Result<NavMesh, JsonError> {
        let layout = self.layout;
        let not_stored = |path: &str| {
            JsonError::at(
                path,
                format_args!("not stored in layout {}; remove this key", layout.name()),
            )
        };
        if !layout.has_planes() {
            if self.plane_types.is_some() {
                return Err(not_stored("plane_types"));
            }
            if self.plane_heights.is_some() {
                return Err(not_stored("plane_heights"));
            }
        }
        let mut tiles = boxed_array(Tile::default());
        for (i, (tile, entry)) in tiles.iter_mut().zip(self.tiles.iter()).enumerate() {
            tile.cell_index = entry.cell;
            if layout.has_tile_flags() {
                let missing = |key: &str| {
                    JsonError::at(
                        format_args!("tiles[{i}]"),
                        format_args!("missing key \"{key}\""),
                    )
                };
                tile.flag = entry.flag.ok_or_else(|| missing("flag"))?;
                tile.texture_id = entry.texture.ok_or_else(|| missing("texture"))?;
            } else if entry.flag.is_some() {
                return Err(not_stored(&format!("tiles[{i}].flag")));
            } else if entry.texture.is_some() {
                return Err(not_stored(&format!("tiles[{i}].texture")));
            }
        }
        if layout != Layout::Standard && !self.trailing.is_empty() {
            return Err(JsonError::at(
                "trailing",
                format_args!(
                    "layout {} cannot carry trailing bytes (the file would read back as another \
                     layout)",
                    layout.name()
                ),
            ));
        }
        let planes = match (self.plane_types, self.plane_heights) {
            (Some(types), Some(heights)) if layout.has_planes() => Planes { types, heights },
            _ => Planes::default(),
        };
        Ok(NavMesh {
            signature: self.signature,
            objects: self.objects,
            open_cell_count: self.open_cell_count,
            cells: self.cells,
            global_edges: self.global_edges,
            internal_edges: self.internal_edges,
            layout,
            tiles,
            heights: self.heights,
            planes,
            trailing: self.trailing,
        })
    }
}

/// The top-level keys of the document, read into a [`Document`].
#[derive(Default)]
pub(super) struct DocumentShape;

impl<'de> Structure<'de> for DocumentShape {
    type Value = Document;
    const EXPECTED: &'static str = "an object";

    fn object<A: MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
        let mut keys = Keys::new(&TOP_KEYS);
        let mut signature = None;
        let mut layout: Option<Layout> = None;
        let (mut objects, mut open_cell_count, mut cells) = (None, None, None);
        let (mut global_edges, mut internal_edges) = (None, None);
        let (mut tiles, mut heights) = (None, None);
        let (mut plane_types, mut plane_heights, mut trailing) = (None, None, None);
        while let Some(key) = keys.next(&mut map)? {
            match key {
                SIGNATURE | SIGNATURE_HEX => {
                    if signature.is_some() {
                        return Err(refuse(&mut map, BOTH_SIGNATURES));
                    }
                    signature = Some(if key == SIGNATURE {
                        map.next_value_seed(read::<SignatureText>())?.0
                    } else {
                        map.next_value_seed(read::<SignatureHex>())?.0
                    });
                }
                LAYOUT => layout = Some(map.next_value_seed(read::<LayoutName>())?.0),
                OBJECTS => objects = Some(map.next_value_seed(read::<Vec<Object>>())?),
                OPEN_CELL_COUNT => open_cell_count = Some(map.next_value_seed(read::<u32>())?),
                CELLS => cells = Some(map.next_value_seed(read::<Vec<Cell>>())?),
                GLOBAL_EDGES => {
                    global_edges = Some(map.next_value_seed(read::<Vec<GlobalEdge>>())?);
                }
                INTERNAL_EDGES => {
                    internal_edges = Some(map.next_value_seed(read::<Vec<InternalEdge>>())?);
                }
                TILES => {
                    let mut all = boxed_array(TileEntry::default());
                    map.next_value_seed(Fixed {
                        slots: &mut all[..],
                    })?;
                    tiles = Some(all);
                }
                HEIGHTS => {
                    let mut all = boxed_array(F32::ZERO);
                    map.next_value_seed(Fixed {
                        slots: &mut all[..],
                    })?;
                    heights = Some(all);
                }
                PLANE_TYPES | PLANE_HEIGHTS => {
                    if let Some(layout) = layout.filter(|l| !l.has_planes()) {
                        let message =
                            format!("not stored in layout {}; remove this key", layout.name());
                        return Err(refuse(&mut map, message));
                    }
                    if key == PLANE_TYPES {
                        plane_types = Some(map.next_value_seed(read::<[u8; PLANE_COUNT]>())?);
                    } else {
                        plane_heights = Some(map.next_value_seed(read::<[F32; PLANE_COUNT]>())?);
                    }
                }
                _ => trailing = Some(map.next_value_seed(read::<HexBytes>())?.0),
            }
        }
        let layout = required(TOP_KEYS[LAYOUT], layout)?;
        let signature = signature
            .ok_or_else(|| A::Error::custom(r#"missing key "signature" (or "signature_hex")"#))?;
        if layout.has_planes() {
            required(TOP_KEYS[PLANE_TYPES], plane_types.as_ref())?;
            required(TOP_KEYS[PLANE_HEIGHTS], plane_heights.as_ref())?;
        }
        Ok(Document {
            signature,
            layout,
            objects: required(TOP_KEYS[OBJECTS], objects)?,
            open_cell_count: required(TOP_KEYS[OPEN_CELL_COUNT], open_cell_count)?,
            cells: required(TOP_KEYS[CELLS], cells)?,
            global_edges: required(TOP_KEYS[GLOBAL_EDGES], global_edges)?,
            internal_edges: required(TOP_KEYS[INTERNAL_EDGES], internal_edges)?,
            tiles: required(TOP_KEYS[TILES], tiles)?,
            heights: required(TOP_KEYS[HEIGHTS], heights)?,
            plane_types,
            plane_heights,
            trailing: required(TOP_KEYS[TRAILING], trailing)?,
        })
    }
}

struct SignatureText([u8; 12]);

impl<'de> Item<'de> for SignatureText {
    const WHAT: &'static str = "signatures";

    fn read<D: Deserializer<'de>>(d: D) -> Result<SignatureText, D::Error> {
        let value = Scalar::deserialize(d)?;
        match &value {
            Scalar::String(s) if is_printable(s.as_bytes()) => {
                if let Ok(bytes) = <[u8; 12]>::try_from(s.as_bytes()) {
                    return Ok(SignatureText(bytes));
                }
            }
            _ => {}
        }
        Err(expected(
            "a string of 12 printable ASCII characters (other bytes go in \"signature_hex\")",
            &value,
        ))
    }
}

struct SignatureHex([u8; 12]);

impl<'de> Item<'de> for SignatureHex {
    const WHAT: &'static str = "signatures";

    fn read<D: Deserializer<'de>>(d: D) -> Result<SignatureHex, D::Error> {
        let value = Scalar::deserialize(d)?;
        let bytes = hex(&value, Some(12)).map_err(D::Error::custom)?;
        <[u8; 12]>::try_from(bytes)
            .map(SignatureHex)
            .map_err(|_| D::Error::custom("expected 12 bytes"))
    }
}

struct LayoutName(Layout);

impl<'de> Item<'de> for LayoutName {
    const WHAT: &'static str = "layouts";

    fn read<D: Deserializer<'de>>(d: D) -> Result<LayoutName, D::Error> {
        const EXPECTED: &str = r#""standard", "tiles4" or "tiles4-noplanes""#;
        let value = Scalar::deserialize(d)?;
        match &value {
            Scalar::String(name) => Layout::from_name(name).map(LayoutName),
            _ => None,
        }
        .ok_or_else(|| expected(EXPECTED, &value))
    }
}

record!(Object, "objects", ObjectShape, [
    "object_id" => object_id: u32,
    "position" => position: [F32; 3],
    "type" => kind: u16,
    "yaw" => yaw: F32,
    "uid" => uid: u16,
    "short0" => short0: u16,
    "is_big" => is_big: u8,
    "is_struct" => is_struct: u8,
    "region_id" => region_id: u16,
    "links" => links: Vec<Link>,
], Object { object_id, position, kind, yaw, uid, short0, is_big, is_struct, region_id, links });

record!(Link, "links", LinkShape, [
    "link_object" => link_object: u16,
    "link_edge" => link_edge: u16,
    "edge" => edge: u16,
], Link { link_object, link_edge, edge });

record!(Cell, "cells", CellShape, [
    "min" => min: [F32; 2],
    "max" => max: [F32; 2],
    "objects" => objects: Vec<u16>,
], Cell { min, max, objects });

record!(GlobalEdge, "edges", GlobalEdgeShape, [
    "a" => a: [F32; 2],
    "b" => b: [F32; 2],
    "flag" => flag: u8,
    "dir" => dir: [u8; 2],
    "cell" => cell: [u16; 2],
    "region" => region: [u16; 2],
], GlobalEdge { a, b, flag, dir, cell, region });

record!(InternalEdge, "edges", InternalEdgeShape, [
    "a" => a: [F32; 2],
    "b" => b: [F32; 2],
    "flag" => flag: u8,
    "dir" => dir: [u8; 2],
    "cell" => cell: [u16; 2],
], InternalEdge { a, b, flag, dir, cell });

/// A tile as read, before the layout says which keys it must have ([`Document::finish`]).
#[derive(Clone, Copy, Default)]
struct TileEntry {
    cell: u32,
    flag: Option<u16>,
    texture: Option<u16>,
}

struct TileShape;

impl<'de> Structure<'de> for TileShape {
    type Value = TileEntry;
    const EXPECTED: &'static str = "an object";

    fn object<A: MapAccess<'de>>(self, mut map: A) -> Result<TileEntry, A::Error> {
        let mut keys = Keys::new(&["cell", "flag", "texture"]);
        let mut cell = None;
        let mut tile = TileEntry::default();
        while let Some(key) = keys.next(&mut map)? {
            match key {
                0 => cell = Some(map.next_value_seed(read::<u32>())?),
                1 => tile.flag = Some(map.next_value_seed(read::<u16>())?),
                _ => tile.texture = Some(map.next_value_seed(read::<u16>())?),
            }
        }
        tile.cell = required("cell", cell)?;
        Ok(tile)
    }
}

impl<'de> Item<'de> for TileEntry {
    const WHAT: &'static str = "tiles";

    fn read<D: Deserializer<'de>>(d: D) -> Result<TileEntry, D::Error> {
        structured(d, TileShape)
    }
}
