//! JSON text → [`ObjectMesh`], section by section in file order (mirrors `write.rs`).

use crate::bms::{Header, NavCell, NavEdge, NavSection, NavVertex, ObjectMesh, OutlineGrid};
use crate::bms::{Version, OFFSET_COUNT};
use crate::json::read::{
    expected, read, record, required, HexBytes, Item, Keys, Scalar, Structure,
};
use crate::F32;
use serde::de::{Deserializer, MapAccess};
use serde::Deserialize;

/// The top-level keys, in the order of the file.
const TOP_KEYS: [&str; 11] = [
    "signature",
    "header",
    "before_nav",
    "vertices",
    "cells",
    "outline_edges",
    "inline_edges",
    "event_names",
    "grid",
    "grid_tiles",
    "after_nav",
];

const SIGNATURE: usize = 0;
const HEADER: usize = 1;
const BEFORE_NAV: usize = 2;
const VERTICES: usize = 3;
const CELLS: usize = 4;
const OUTLINE_EDGES: usize = 5;
const INLINE_EDGES: usize = 6;
const EVENT_NAMES: usize = 7;
const GRID: usize = 8;
const GRID_TILES: usize = 9;
const AFTER_NAV: usize = 10;

/// The document as read; [`super::from_str`] checks that it writes.
pub(super) struct Document(pub(super) ObjectMesh);

/// The top-level keys of the document, read into a [`Document`].
#[derive(Default)]
pub(super) struct DocumentShape;

/// The navigation section's parts as read, each present or not.
#[derive(Default)]
struct NavParts {
    vertices: Option<Vec<NavVertex>>,
    cells: Option<Vec<NavCell>>,
    outline_edges: Option<Vec<NavEdge>>,
    inline_edges: Option<Vec<NavEdge>>,
    event_names: Option<Vec<HexBytes>>,
    grid: Option<GridHead>,
    grid_tiles: Option<Vec<Vec<u16>>>,
}

impl NavParts {
    fn any(&self) -> bool {
        self.vertices.is_some()
            || self.cells.is_some()
            || self.outline_edges.is_some()
            || self.inline_edges.is_some()
            || self.event_names.is_some()
            || self.grid.is_some()
            || self.grid_tiles.is_some()
    }

    /// The section when any of its keys was given, which needs them all.
    fn finish<E: serde::de::Error>(self) -> Result<Option<NavSection>, E> {
        if !self.any() {
            return Ok(None);
        }
        let need = |key: usize| {
            E::custom(format_args!(
                "missing key \"{}\" (the navigation section's keys, vertices to grid_tiles, \
                 come all together or not at all)",
                TOP_KEYS[key]
            ))
        };
        let grid = self.grid.ok_or_else(|| need(GRID))?;
        Ok(Some(NavSection {
            vertices: self.vertices.ok_or_else(|| need(VERTICES))?,
            cells: self.cells.ok_or_else(|| need(CELLS))?,
            outline_edges: self.outline_edges.ok_or_else(|| need(OUTLINE_EDGES))?,
            inline_edges: self.inline_edges.ok_or_else(|| need(INLINE_EDGES))?,
            event_names: self
                .event_names
                .ok_or_else(|| need(EVENT_NAMES))?
                .into_iter()
                .map(|n| n.0)
                .collect(),
            grid: OutlineGrid {
                origin: grid.origin,
                width: grid.width,
                height: grid.height,
                tiles: self.grid_tiles.ok_or_else(|| need(GRID_TILES))?,
            },
        }))
    }
}

impl<'de> Structure<'de> for DocumentShape {
    type Value = Document;
    const EXPECTED: &'static str = "an object";

    fn object<A: MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
        let mut keys = Keys::new(&TOP_KEYS);
        let (mut version, mut header, mut before_nav, mut after_nav) = (None, None, None, None);
        let mut nav = NavParts::default();
        while let Some(key) = keys.next(&mut map)? {
            match key {
                SIGNATURE => version = Some(map.next_value_seed(read::<SignatureText>())?.0),
                HEADER => header = Some(map.next_value_seed(read::<Header>())?),
                BEFORE_NAV => before_nav = Some(map.next_value_seed(read::<HexBytes>())?.0),
                VERTICES => nav.vertices = Some(map.next_value_seed(read())?),
                CELLS => nav.cells = Some(map.next_value_seed(read())?),
                OUTLINE_EDGES => nav.outline_edges = Some(map.next_value_seed(read())?),
                INLINE_EDGES => nav.inline_edges = Some(map.next_value_seed(read())?),
                EVENT_NAMES => nav.event_names = Some(map.next_value_seed(read())?),
                GRID => nav.grid = Some(map.next_value_seed(read())?),
                GRID_TILES => nav.grid_tiles = Some(map.next_value_seed(read())?),
                _ => after_nav = Some(map.next_value_seed(read::<HexBytes>())?.0),
            }
        }
        Ok(Document(ObjectMesh {
            version: required(TOP_KEYS[SIGNATURE], version)?,
            header: required(TOP_KEYS[HEADER], header)?,
            before_nav: required(TOP_KEYS[BEFORE_NAV], before_nav)?,
            nav: nav.finish()?,
            after_nav: required(TOP_KEYS[AFTER_NAV], after_nav)?,
        }))
    }
}

struct SignatureText(Version);

impl<'de> Item<'de> for SignatureText {
    const WHAT: &'static str = "signatures";

    fn read<D: Deserializer<'de>>(d: D) -> Result<SignatureText, D::Error> {
        let value = Scalar::deserialize(d)?;
        match &value {
            Scalar::String(s) => Version::from_signature(s.as_bytes()).map(SignatureText),
            _ => None,
        }
        .ok_or_else(|| expected(r#""JMXVBMS 0110" or "JMXVBMS 0109""#, &value))
    }
}

/// The grid's fixed part; its tiles are the document's `grid_tiles`.
struct GridHead {
    origin: [F32; 2],
    width: i32,
    height: i32,
}

record!(Header, "headers", HeaderShape, [
    "offsets" => offsets: [u32; OFFSET_COUNT],
    "unknown0" => unknown0: u32,
    "nav_flags" => nav_flags: u32,
    "sub_prim_count" => sub_prim_count: u32,
    "vertex_flags" => vertex_flags: u32,
    "unknown2" => unknown2: u32,
], Header { offsets, unknown0, nav_flags, sub_prim_count, vertex_flags, unknown2 });

record!(NavVertex, "vertices", VertexShape, [
    "position" => position: [F32; 3],
    "normal" => normal: u8,
], NavVertex { position, normal });

record!(NavCell, "cells", CellShape, [
    "vertices" => vertices: [u16; 3],
    "flag" => flag: u16,
    "event" => event: u8,
], NavCell { vertices, flag, event });

record!(NavEdge, "edges", EdgeShape, [
    "vertices" => vertices: [u16; 2],
    "cells" => cells: [u16; 2],
    "flag" => flag: u8,
    "event" => event: u8,
], NavEdge { vertices, cells, flag, event });

record!(GridHead, "grids", GridShape, [
    "origin" => origin: [F32; 2],
    "width" => width: i32,
    "height" => height: i32,
], GridHead { origin, width, height });
