//! [`ObjectMesh`] → JSON text, section by section in file order (mirrored by `read.rs`).

use crate::bms::{Header, NavCell, NavEdge, NavVertex, ObjectMesh, OutlineGrid};
use crate::json::read::to_hex as hex;
use crate::json::write::Lines;
use crate::json::Float;
use serde::Serialize;
use std::io::{self, Write};

/// Writes the JSON form of `mesh` (see the [module docs](super)).
pub(super) fn write(mesh: &ObjectMesh, out: &mut impl Write) -> io::Result<()> {
    let mut doc = Lines::start(out)?;
    // Both signatures are printable ASCII, so the lossy conversion never replaces anything.
    doc.key(
        "signature",
        &String::from_utf8_lossy(mesh.version.signature()),
    )?;
    doc.key("header", &HeaderJson::from(&mesh.header))?;
    doc.key("before_nav", &hex(&mesh.before_nav))?;
    if let Some(nav) = &mesh.nav {
        doc.list("vertices", 1, nav.vertices.iter().map(VertexJson::from))?;
        doc.list("cells", 1, nav.cells.iter().map(CellJson::from))?;
        doc.list(
            "outline_edges",
            1,
            nav.outline_edges.iter().map(EdgeJson::from),
        )?;
        doc.list(
            "inline_edges",
            1,
            nav.inline_edges.iter().map(EdgeJson::from),
        )?;
        doc.list("event_names", 1, nav.event_names.iter().map(|n| hex(n)))?;
        doc.key("grid", &GridJson::from(&nav.grid))?;
        doc.list("grid_tiles", 1, nav.grid.tiles.iter())?;
    }
    doc.key("after_nav", &hex(&mesh.after_nav))?;
    doc.end()
}

#[derive(Serialize)]
struct HeaderJson {
    offsets: [u32; 10],
    unknown0: u32,
    nav_flags: u32,
    sub_prim_count: u32,
    vertex_flags: u32,
    unknown2: u32,
}

impl From<&Header> for HeaderJson {
    fn from(h: &Header) -> HeaderJson {
        HeaderJson {
            offsets: h.offsets,
            unknown0: h.unknown0,
            nav_flags: h.nav_flags,
            sub_prim_count: h.sub_prim_count,
            vertex_flags: h.vertex_flags,
            unknown2: h.unknown2,
        }
    }
}

#[derive(Serialize)]
struct VertexJson {
    position: [Float; 3],
    normal: u8,
}

impl From<&NavVertex> for VertexJson {
    fn from(v: &NavVertex) -> VertexJson {
        VertexJson {
            position: v.position.map(Float),
            normal: v.normal,
        }
    }
}

#[derive(Serialize)]
struct CellJson {
    vertices: [u16; 3],
    flag: u16,
    event: u8,
}

impl From<&NavCell> for CellJson {
    fn from(c: &NavCell) -> CellJson {
        CellJson {
            vertices: c.vertices,
            flag: c.flag,
            event: c.event,
        }
    }
}

#[derive(Serialize)]
struct EdgeJson {
    vertices: [u16; 2],
    cells: [u16; 2],
    flag: u8,
    event: u8,
}

impl From<&NavEdge> for EdgeJson {
    fn from(e: &NavEdge) -> EdgeJson {
        EdgeJson {
            vertices: e.vertices,
            cells: e.cells,
            flag: e.flag,
            event: e.event,
        }
    }
}

#[derive(Serialize)]
struct GridJson {
    origin: [Float; 2],
    width: i32,
    height: i32,
}

impl From<&OutlineGrid> for GridJson {
    fn from(g: &OutlineGrid) -> GridJson {
        GridJson {
            origin: g.origin.map(Float),
            width: g.width,
            height: g.height,
        }
    }
}
