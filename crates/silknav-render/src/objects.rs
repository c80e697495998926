//! Object meshes placed on the map by their instances' transforms: floors and decks filled,
//! walls, doorways, underpass sides, links and siege lines drawn on their edges.

use crate::colour::{palette, Colour};
use crate::features::{segment_within, Marker, Pens};
use crate::frame::Frame;
use crate::raster::Canvas;
use crate::scene::Scene;
use jmxv::bms::{NavEdge, NavSection, ObjectMesh};
use jmxv::ifo::ObjectIfo;
use std::collections::BTreeMap;

/// The navigation sections of a world's object meshes, by the object id instances name them
/// with (the `object.ifo` index). Instances whose id is missing are drawn as markers.
pub type ObjectShapes<'a> = BTreeMap<u32, &'a NavSection>;

/// The shapes of the meshes `object.ifo` names: each entry whose path (as UTF-8) is a key of
/// `meshes` and whose mesh has a navigation section, by its index.
pub fn object_shapes<'a>(
    ifo: &ObjectIfo,
    meshes: &'a BTreeMap<String, ObjectMesh>,
) -> ObjectShapes<'a> {
    ifo.entries
        .iter()
        .filter_map(|e| {
            let name = std::str::from_utf8(&e.path).ok()?;
            let nav = meshes.get(name)?.nav.as_ref()?;
            Some((e.index, nav))
        })
        .collect()
}

/// Outline edge bits that refuse entering (0x01) or leaving (0x02) the mesh.
const BLOCKING: u8 = 0x03;
/// Outline edge bit: an underpass side (refused from the deck, passed below).
const UNDERPASS: u8 = 0x10;
/// Edge bit: a link to the terrain or to another object.
const LINK: u8 = 0x08;
/// Inline edge bit: a siege gate.
const SIEGE: u8 = 0x80;

/// What an outline edge is drawn as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EdgeKind {
    Wall,
    Underpass,
    Link,
    Doorway,
}

/// The class of an outline edge by its flag; blocking bits win, then underpass, then link.
pub(crate) fn outline_kind(flag: u8) -> EdgeKind {
    if flag & BLOCKING != 0 {
        EdgeKind::Wall
    } else if flag & UNDERPASS != 0 {
        EdgeKind::Underpass
    } else if flag & LINK != 0 {
        EdgeKind::Link
    } else {
        EdgeKind::Doorway
    }
}

/// The colour of an outline edge class.
pub(crate) fn edge_colour(kind: EdgeKind) -> Colour {
    match kind {
        EdgeKind::Wall => palette::OBJECT_WALL,
        EdgeKind::Underpass => palette::OBJECT_UNDERPASS,
        EdgeKind::Link => palette::OBJECT_LINK,
        EdgeKind::Doorway => palette::OBJECT_DOORWAY,
    }
}

/// Which classes the placed meshes show, for the legend.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Shown {
    pub floor: bool,
    pub wall: bool,
    pub doorway: bool,
    pub underpass: bool,
    pub link: bool,
    pub siege: bool,
}

impl Shown {
    /// Adds what `nav` shows.
    pub fn add(&mut self, nav: &NavSection) {
        self.floor |= !nav.cells.is_empty();
        for e in &nav.outline_edges {
            match outline_kind(e.flag) {
                EdgeKind::Wall => self.wall = true,
                EdgeKind::Underpass => self.underpass = true,
                EdgeKind::Link => self.link = true,
                EdgeKind::Doorway => self.doorway = true,
            }
        }
        self.siege |= nav.inline_edges.iter().any(|e| e.flag & SIEGE != 0);
    }
}

/// What the meshes of these markers show.
pub(crate) fn shown(markers: &[Marker], shapes: &ObjectShapes<'_>) -> Shown {
    let mut s = Shown::default();
    for nav in markers.iter().filter_map(|m| shapes.get(&m.object_id)) {
        s.add(nav);
    }
    s
}

/// Draws the mesh of every marker that has one: cells, then siege lines, then outline edges.
pub(crate) fn draw(
    canvas: &mut Canvas,
    scene: &Scene,
    markers: &[Marker],
    shapes: &ObjectShapes<'_>,
    pens: Pens,
) {
    let edge = crate::features::world_edge(scene);
    for m in markers {
        let Some(nav) = shapes.get(&m.object_id) else {
            continue;
        };
        let placed = Placed {
            at: [m.at[0], 0.0, m.at[1]],
            yaw: m.yaw,
        };
        fill_cells(canvas, &scene.frame, nav, placed, &|_| {
            palette::OBJECT_FLOOR
        });
        draw_lines(canvas, &scene.frame, edge, nav, placed, pens);
    }
}

/// Where a mesh lies: rotated about +y by `yaw` (radians), then moved to `at` (x, y, z).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Placed {
    pub at: [f64; 3],
    pub yaw: f64,
}

impl Placed {
    /// The placed position of vertex `v` of `nav`; `None` for a missing vertex or a position
    /// that is not finite.
    pub fn vertex(self, nav: &NavSection, v: u16) -> Option<[f64; 3]> {
        let (sin, cos) = self.yaw.sin_cos();
        let p = nav
            .vertices
            .get(usize::from(v))?
            .position
            .map(|c| f64::from(c.get()));
        // NOTES §8: rotate about +y by the yaw, then translate.
        let w = [
            p[0] * cos - p[2] * sin + self.at[0],
            p[1] + self.at[1],
            p[0] * sin + p[2] * cos + self.at[2],
        ];
        w.iter().all(|c| c.is_finite()).then_some(w)
    }
}

/// Fills the cells of one placed mesh, each in the colour `floor` gives for its corners.
pub(crate) fn fill_cells(
    canvas: &mut Canvas,
    frame: &Frame,
    nav: &NavSection,
    placed: Placed,
    floor: &dyn Fn(&[[f64; 3]; 3]) -> Colour,
) {
    for cell in &nav.cells {
        if let [Some(a), Some(b), Some(c)] = cell.vertices.map(|v| placed.vertex(nav, v)) {
            let px = |p: [f64; 3]| frame.to_pixel(p[0], p[2]);
            canvas.fill_triangle([px(a), px(b), px(c)], frame.map, floor(&[a, b, c]), 0.9);
        }
    }
}

/// Draws the siege lines, then the outline edges, of one placed mesh, clipped to `edge` (a
/// pixel box).
pub(crate) fn draw_lines(
    canvas: &mut Canvas,
    frame: &Frame,
    edge: [i64; 4],
    nav: &NavSection,
    placed: Placed,
    pens: Pens,
) {
    let mut line = |e: &NavEdge, width: i64, colour: Colour| {
        if let (Some(a), Some(b)) = (
            placed.vertex(nav, e.vertices[0]),
            placed.vertex(nav, e.vertices[1]),
        ) {
            let (a, b) = ([a[0], a[2]], [b[0], b[2]]);
            segment_within(canvas, frame, frame.map, edge, a, b, width, colour);
        }
    };
    for e in nav.inline_edges.iter().filter(|e| e.flag & SIEGE != 0) {
        line(e, pens.wall, palette::OBJECT_SIEGE);
    }
    for e in &nav.outline_edges {
        let kind = outline_kind(e.flag);
        let width = match kind {
            EdgeKind::Wall | EdgeKind::Doorway | EdgeKind::Link => pens.wall,
            EdgeKind::Underpass => (pens.wall / 2).max(1),
        };
        line(e, width, edge_colour(kind));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outline_flags_pick_their_class() {
        assert_eq!(outline_kind(0x03), EdgeKind::Wall);
        assert_eq!(outline_kind(0x01), EdgeKind::Wall);
        assert_eq!(outline_kind(0x13), EdgeKind::Wall);
        assert_eq!(outline_kind(0x10), EdgeKind::Underpass);
        assert_eq!(outline_kind(0x08), EdgeKind::Link);
        assert_eq!(outline_kind(0x00), EdgeKind::Doorway);
        assert_eq!(outline_kind(0x80), EdgeKind::Doorway);
    }
}
