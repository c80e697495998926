//! [`NavMesh`] → JSON text, section by section in file order (mirrored by `read.rs`).

use crate::json::read::to_hex as hex;
use crate::json::write::Lines;
use crate::json::Float;
use crate::nvm::{Cell, GlobalEdge, InternalEdge, Link, NavMesh, Object, Tile};
use crate::nvm::{HEIGHTS_PER_SIDE, PLANES_PER_SIDE, TILES_PER_SIDE};
use crate::F32;
use serde::Serialize;
use std::io::{self, Write};

/// Writes the JSON form of `mesh` (see the [module docs](super)).
///
/// Everything the file stores is written, and nothing else: in the legacy layouts the tile
/// flags and textures (and in `tiles4-noplanes` the plane maps) are left out, which is lossless
/// for every mesh that [`NavMesh::check_writable`] accepts, as every parsed mesh is.
pub(super) fn write(mesh: &NavMesh, out: &mut impl Write) -> io::Result<()> {
    let layout = mesh.layout;
    let mut doc = Lines::start(out)?;
    if is_printable(&mesh.signature) {
        // Printable ASCII is valid UTF-8, so the lossy conversion never replaces anything.
        doc.key("signature", &String::from_utf8_lossy(&mesh.signature))?;
    } else {
        doc.key("signature_hex", &hex(&mesh.signature))?;
    }
    doc.key("layout", layout.name())?;
    doc.list("objects", 1, mesh.objects.iter().map(ObjectJson::from))?;
    doc.key("open_cell_count", &mesh.open_cell_count)?;
    doc.list("cells", 1, mesh.cells.iter().map(CellJson::from))?;
    doc.list(
        "global_edges",
        1,
        mesh.global_edges.iter().map(GlobalEdgeJson::from),
    )?;
    doc.list(
        "internal_edges",
        1,
        mesh.internal_edges.iter().map(InternalEdgeJson::from),
    )?;
    let with_flags = layout.has_tile_flags();
    doc.list(
        "tiles",
        TILES_PER_SIDE,
        mesh.tiles.iter().map(|t| TileJson::new(t, with_flags)),
    )?;
    doc.list(
        "heights",
        HEIGHTS_PER_SIDE,
        mesh.heights.iter().map(|&h| Float(h)),
    )?;
    if layout.has_planes() {
        doc.list("plane_types", PLANES_PER_SIDE, mesh.planes.types.iter())?;
        doc.list(
            "plane_heights",
            PLANES_PER_SIDE,
            mesh.planes.heights.iter().map(|&h| Float(h)),
        )?;
    }
    doc.key("trailing", &hex(&mesh.trailing))?;
    doc.end()
}

/// Whether every byte is printable ASCII (space to tilde), so the signature can be a string.
pub(super) fn is_printable(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| (0x20..=0x7e).contains(&b))
}

#[derive(Serialize)]
struct ObjectJson {
    object_id: u32,
    position: [Float; 3],
    #[serde(rename = "type")]
    kind: u16,
    yaw: Float,
    uid: u16,
    short0: u16,
    is_big: u8,
    is_struct: u8,
    region_id: u16,
    links: Vec<LinkJson>,
}

impl From<&Object> for ObjectJson {
    fn from(o: &Object) -> ObjectJson {
        ObjectJson {
            object_id: o.object_id,
            position: floats(o.position),
            kind: o.kind,
            yaw: Float(o.yaw),
            uid: o.uid,
            short0: o.short0,
            is_big: o.is_big,
            is_struct: o.is_struct,
            region_id: o.region_id,
            links: o.links.iter().map(LinkJson::from).collect(),
        }
    }
}

#[derive(Serialize)]
struct LinkJson {
    link_object: u16,
    link_edge: u16,
    edge: u16,
}

impl From<&Link> for LinkJson {
    fn from(l: &Link) -> LinkJson {
        LinkJson {
            link_object: l.link_object,
            link_edge: l.link_edge,
            edge: l.edge,
        }
    }
}

#[derive(Serialize)]
struct CellJson<'a> {
    min: [Float; 2],
    max: [Float; 2],
    objects: &'a [u16],
}

impl<'a> From<&'a Cell> for CellJson<'a> {
    fn from(c: &'a Cell) -> CellJson<'a> {
        CellJson {
            min: floats(c.min),
            max: floats(c.max),
            objects: &c.objects,
        }
    }
}

#[derive(Serialize)]
struct GlobalEdgeJson {
    a: [Float; 2],
    b: [Float; 2],
    flag: u8,
    dir: [u8; 2],
    cell: [u16; 2],
    region: [u16; 2],
}

impl From<&GlobalEdge> for GlobalEdgeJson {
    fn from(e: &GlobalEdge) -> GlobalEdgeJson {
        GlobalEdgeJson {
            a: floats(e.a),
            b: floats(e.b),
            flag: e.flag,
            dir: e.dir,
            cell: e.cell,
            region: e.region,
        }
    }
}

#[derive(Serialize)]
struct InternalEdgeJson {
    a: [Float; 2],
    b: [Float; 2],
    flag: u8,
    dir: [u8; 2],
    cell: [u16; 2],
}

impl From<&InternalEdge> for InternalEdgeJson {
    fn from(e: &InternalEdge) -> InternalEdgeJson {
        InternalEdgeJson {
            a: floats(e.a),
            b: floats(e.b),
            flag: e.flag,
            dir: e.dir,
            cell: e.cell,
        }
    }
}

#[derive(Serialize)]
struct TileJson {
    cell: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    flag: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    texture: Option<u16>,
}

impl TileJson {
    fn new(t: &Tile, with_flags: bool) -> TileJson {
        TileJson {
            cell: t.cell_index,
            flag: with_flags.then_some(t.flag),
            texture: with_flags.then_some(t.texture_id),
        }
    }
}

fn floats<const N: usize>(values: [F32; N]) -> [Float; N] {
    values.map(Float)
}
