//! Lines and markers over the ground: region borders, global edges, walls, objects.

use crate::colour::{palette, Colour};
use crate::frame::{Frame, PixelRect};
use crate::raster::Canvas;
use crate::scene::Scene;
use jmxv::nvm::{NavMesh, EDGE_BLOCKED};
use jmxv::RegionId;
use std::collections::BTreeSet;

const REGION_UNITS: f64 = 1920.0;

/// Line widths and marker sizes for one scale, so that they grow with the map but never vanish.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pens {
    pub border: i64,
    pub wall: i64,
    pub tick: i64,
    /// Side of an object marker's inside.
    pub marker: i64,
}

impl Pens {
    pub fn for_scale(scale: f64) -> Pens {
        Pens {
            border: if scale >= 12.0 {
                3
            } else if scale >= 3.0 {
                2
            } else {
                1
            },
            wall: (scale * 0.4).round().clamp(1.0, 4.0) as i64,
            tick: (scale * 0.75).round().clamp(2.0, 6.0) as i64,
            marker: ((scale * 1.2).round() as i64 | 1).clamp(3, 9),
        }
    }
}

/// Fills the pixels of the world segment a→b, `width` pixels wide, clipped to `clip`.
///
/// Terrain edges are axis-aligned, so they become one rectangle that straddles the tile line
/// and includes both end points (so that walls meeting at a corner join). Other segments are
/// stamped with squares along their length.
pub(crate) fn segment(
    canvas: &mut Canvas,
    frame: &Frame,
    clip: PixelRect,
    a: [f64; 2],
    b: [f64; 2],
    width: i64,
    colour: Colour,
) {
    segment_within(canvas, frame, clip, edge_of(clip), a, b, width, colour);
}

/// The pixel rectangle `[x0, y0, x1, y1]` of a clip rectangle.
fn edge_of(clip: PixelRect) -> [i64; 4] {
    let (x, y) = (i64::from(clip.x), i64::from(clip.y));
    [x, y, x + i64::from(clip.w), y + i64::from(clip.h)]
}

/// The pixel rectangle of the world's outer border, which walls and object edges on it are
/// moved inside: not the map's, so that a tile of a bigger map keeps a neighbour's lines
/// beyond its edge off the tile.
pub(crate) fn world_edge(scene: &Scene) -> [i64; 4] {
    let frame = &scene.frame;
    match scene.world_box() {
        Some([x0, z0, x1, z1]) => {
            let (px0, py0) = frame.to_pixel(x0, z1);
            let (px1, py1) = frame.to_pixel(x1, z0);
            let r = |v: f64| v.clamp(-1e7, 1e7).round() as i64;
            [r(px0), r(py0), r(px1), r(py1)]
        }
        None => edge_of(frame.map),
    }
}

/// [`segment`], with an axis-aligned line on an edge of `edge` (pixels `[x0, y0, x1, y1]`,
/// which may reach beyond the clip rectangle) moved inside it rather than inside the clip.
#[allow(clippy::too_many_arguments)]
pub(crate) fn segment_within(
    canvas: &mut Canvas,
    frame: &Frame,
    clip: PixelRect,
    edge: [i64; 4],
    a: [f64; 2],
    b: [f64; 2],
    width: i64,
    colour: Colour,
) {
    let (ax, ay) = frame.to_pixel(a[0], a[1]);
    let (bx, by) = frame.to_pixel(b[0], b[1]);
    if !(ax.is_finite() && ay.is_finite() && bx.is_finite() && by.is_finite()) {
        return;
    }
    let clip_rect = |canvas: &mut Canvas, x0: i64, y0: i64, x1: i64, y1: i64| {
        let (cx0, cy0) = (i64::from(clip.x), i64::from(clip.y));
        let (cx1, cy1) = (cx0 + i64::from(clip.w), cy0 + i64::from(clip.h));
        canvas.fill_rect(
            x0.max(cx0),
            y0.max(cy0),
            x1.min(cx1),
            y1.min(cy1),
            colour,
            1.0,
        );
    };
    let half = width / 2;
    // Pixel coordinates of a huge or far-away segment are clamped first, so the rounding and
    // the stamping loop below stay bounded whatever a file holds.
    let limit = 1e7;
    let r = |v: f64| v.clamp(-limit, limit).round() as i64;
    // A line on the map's edge (a wall on the world's outer border) would fall half or wholly
    // outside the map; it is moved inside so it stays visible.
    let inside = |v: i64, start: i64, end: i64| {
        let lo = start + half;
        let hi = (end - width + half).max(lo);
        v.clamp(lo, hi)
    };
    let vertical = (ax - bx).abs() < 1e-6;
    if vertical || (ay - by).abs() < 1e-6 {
        let (mut x0, mut x1) = (r(ax.min(bx)), r(ax.max(bx)));
        let (mut y0, mut y1) = (r(ay.min(by)), r(ay.max(by)));
        if vertical {
            x0 = inside(x0, edge[0], edge[2]);
            x1 = x0;
        } else {
            y0 = inside(y0, edge[1], edge[3]);
            y1 = y0;
        }
        clip_rect(
            canvas,
            x0 - half,
            y0 - half,
            x1 - half + width,
            y1 - half + width,
        );
        return;
    }
    let length = (bx - ax)
        .hypot(by - ay)
        .min(2.0 * f64::from(crate::frame::MAX_SIDE));
    let steps = length.ceil() as i64;
    for i in 0..=steps {
        let t = i as f64 / steps as f64;
        let (x, y) = (r(ax + (bx - ax) * t) - half, r(ay + (by - ay) * t) - half);
        clip_rect(canvas, x, y, x + width, y + width);
    }
}

/// World position of local point (x, z) of `region`.
pub(crate) fn world(region: RegionId, x: f64, z: f64) -> [f64; 2] {
    [
        f64::from(region.x()) * REGION_UNITS + x,
        f64::from(region.z()) * REGION_UNITS + z,
    ]
}

/// Draws the lines between regions and, across them, a tick at each end of every global edge.
pub(crate) fn draw_borders(canvas: &mut Canvas, scene: &Scene, pens: Pens) {
    let frame = &scene.frame;
    let e = scene.extent;
    let map = frame.map;
    let (z_lo, z_hi) = (f64::from(e.z0) * REGION_UNITS, frame.world_z1());
    let (x_lo, x_hi) = (
        frame.world_x0(),
        f64::from(e.x0 + e.cols as i32) * REGION_UNITS,
    );
    for i in 1..e.cols {
        let x = f64::from(e.x0 + i as i32) * REGION_UNITS;
        segment(
            canvas,
            frame,
            map,
            [x, z_lo],
            [x, z_hi],
            pens.border,
            palette::REGION_BORDER,
        );
    }
    for i in 1..e.rows {
        let z = f64::from(e.z0 + i as i32) * REGION_UNITS;
        segment(
            canvas,
            frame,
            map,
            [x_lo, z],
            [x_hi, z],
            pens.border,
            palette::REGION_BORDER,
        );
    }
    for (region, mesh) in scene.drawn() {
        for edge in &mesh.global_edges {
            let a = local(edge.a);
            let b = local(edge.b);
            let (wa, wb) = (world(region, a[0], a[1]), world(region, b[0], b[1]));
            // Most of a border is crossable, so a line along each global edge would only
            // recolour the border; a tick across it at each end shows how the crossings are
            // cut instead, and the border keeps one colour.
            let across = if (a[0] - b[0]).abs() < (a[1] - b[1]).abs() {
                [1.0, 0.0]
            } else {
                [0.0, 1.0]
            };
            let reach = f64::from(pens.tick as i32) * 20.0 / frame.scale();
            for p in [wa, wb] {
                let lo = [p[0] - across[0] * reach, p[1] - across[1] * reach];
                let hi = [p[0] + across[0] * reach, p[1] + across[1] * reach];
                segment(canvas, frame, map, lo, hi, 1, palette::GLOBAL_EDGE);
            }
        }
    }
}

fn local(p: [jmxv::F32; 2]) -> [f64; 2] {
    [f64::from(p[0].get()), f64::from(p[1].get())]
}

/// Whether an internal edge is a wall: either blocking bit, as the game's terrain test reads it.
pub(crate) fn is_wall(flag: u8) -> bool {
    flag & EDGE_BLOCKED != 0
}

/// Draws every blocked internal edge.
pub(crate) fn draw_walls(canvas: &mut Canvas, scene: &Scene, pens: Pens) {
    let frame = &scene.frame;
    let edge = world_edge(scene);
    for (region, mesh) in scene.featured() {
        for wall in mesh.internal_edges.iter().filter(|e| is_wall(e.flag)) {
            let (a, b) = (local(wall.a), local(wall.b));
            segment_within(
                canvas,
                frame,
                frame.map,
                edge,
                world(region, a[0], a[1]),
                world(region, b[0], b[1]),
                pens.wall,
                palette::WALL,
            );
        }
    }
}

/// An object instance to mark, once per world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Marker {
    /// World position.
    pub at: [f64; 2],
    /// The `object.ifo` index.
    pub object_id: u32,
    /// Rotation about +y, radians.
    pub yaw: f64,
    /// Its owner is not drawn: only a neighbour's listing of it is.
    pub foreign: bool,
}

/// The object instances of the drawn regions, each once. An instance is listed by every region
/// its footprint touches, with that region's local position; the owner's own listing is used
/// when the owner is drawn, otherwise the first other listing, marked foreign.
pub(crate) fn markers<'a>(
    drawn: impl Iterator<Item = (RegionId, &'a NavMesh)> + Clone,
) -> Vec<Marker> {
    let identity = |o: &jmxv::nvm::Object| (u32::from(o.region_id) << 16) | u32::from(o.uid);
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for own in [true, false] {
        for (region, mesh) in drawn.clone() {
            for o in mesh
                .objects
                .iter()
                .filter(|o| (o.region_id == region.0) == own)
            {
                if seen.insert(identity(o)) {
                    let (x, z) = (
                        f64::from(o.position[0].get()),
                        f64::from(o.position[2].get()),
                    );
                    out.push(Marker {
                        at: world(region, x, z),
                        object_id: o.object_id,
                        yaw: f64::from(o.yaw.get()),
                        foreign: !own,
                    });
                }
            }
        }
    }
    out
}

/// Draws object markers: a filled square with a dark rim for instances whose owner is drawn,
/// a hollow one in another colour for instances owned elsewhere. Instances drawn by their
/// mesh ([`crate::objects`]) are left out by the caller.
pub(crate) fn draw_objects(canvas: &mut Canvas, scene: &Scene, markers: &[&Marker], pens: Pens) {
    let frame = &scene.frame;
    let map = frame.map;
    // A marker whose centre lies just off the map still shows its part on it: a tile of a
    // bigger map gets the markers of its neighbours that reach into it.
    let reach = pens.marker / 2 + 1;
    let (mx0, my0) = (i64::from(map.x) - reach, i64::from(map.y) - reach);
    let (mx1, my1) = (
        i64::from(map.x) + i64::from(map.w) + reach,
        i64::from(map.y) + i64::from(map.h) + reach,
    );
    for m in markers {
        let (px, py) = frame.to_pixel(m.at[0], m.at[1]);
        if !(px.is_finite() && py.is_finite()) {
            continue;
        }
        let (cx, cy) = (px.floor() as i64, py.floor() as i64);
        if cx < mx0 || cy < my0 || cx >= mx1 || cy >= my1 {
            continue;
        }
        draw_marker(canvas, cx, cy, pens.marker, m.foreign);
    }
}

/// One object marker centred on pixel (cx, cy); also used by the legend.
pub(crate) fn draw_marker(canvas: &mut Canvas, cx: i64, cy: i64, side: i64, foreign: bool) {
    let half = side / 2;
    let (x0, y0, x1, y1) = (cx - half, cy - half, cx - half + side, cy - half + side);
    canvas.stroke_rect(x0 - 1, y0 - 1, x1 + 1, y1 + 1, 1, palette::OBJECT_EDGE);
    if foreign {
        canvas.stroke_rect(x0, y0, x1, y1, (side / 3).max(1), palette::OBJECT_FOREIGN);
    } else {
        canvas.fill_rect(x0, y0, x1, y1, palette::OBJECT, 1.0);
    }
}
