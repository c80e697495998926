//! Things drawn over the map by the caller: paths and labelled points, in world coordinates.

use crate::colour::{palette, Colour};
use crate::font;
use crate::frame::{Frame, PixelRect};
use crate::raster::Canvas;
use tiny_skia::{
    FillRule, LineCap, LineJoin, Mask, Paint, PathBuilder, PixmapMut, Rect, Stroke, Transform,
};

/// Paths and points to draw over the map. Coordinates are world units `[x, z]`
/// (region · 1920 + local), the same for every region.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overlay {
    /// Polylines, each drawn thick and bright with a start marker (green disc) at its first
    /// point and a goal marker (white ring with a red centre) at its last. Colours cycle
    /// through [`PATH_COLOURS`].
    pub paths: Vec<Vec<[f64; 2]>>,
    /// Labelled points.
    pub points: Vec<Pin>,
}

impl Overlay {
    /// Whether there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty() && self.points.is_empty()
    }
}

/// A labelled point over the map.
#[derive(Debug, Clone, PartialEq)]
pub struct Pin {
    /// World position `[x, z]`.
    pub at: [f64; 2],
    /// Fill of the disc.
    pub colour: Colour,
    /// Text drawn beside the disc; may be empty.
    pub label: String,
}

/// The colours of overlay paths, in order: bright colours that no terrain class uses.
pub const PATH_COLOURS: [Colour; 6] = [
    Colour::CYAN,
    Colour::PINK,
    Colour::YELLOW,
    Colour::WHITE,
    Colour::LIME,
    Colour::VIOLET,
];

/// The names of [`PATH_COLOURS`], for captions that say which path is which.
pub const PATH_COLOUR_NAMES: [&str; 6] = ["cyan", "pink", "yellow", "white", "lime", "violet"];

/// Sizes of overlay parts at one map scale.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OverlayPens {
    pub line: f32,
    pub disc: f32,
}

impl OverlayPens {
    pub fn for_scale(scale: f64) -> OverlayPens {
        let line = (scale * 0.9).clamp(3.0, 10.0) as f32;
        OverlayPens {
            line,
            disc: line * 1.3 + 2.0,
        }
    }
}

fn clip_mask(width: u32, height: u32, clip: PixelRect) -> Option<Mask> {
    let mut mask = Mask::new(width, height)?;
    let rect = Rect::from_xywh(clip.x as f32, clip.y as f32, clip.w as f32, clip.h as f32)?;
    mask.fill_path(
        &PathBuilder::from_rect(rect),
        FillRule::Winding,
        false,
        Transform::identity(),
    );
    Some(mask)
}

fn solid(colour: Colour, alpha: u8) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(colour.r, colour.g, colour.b, alpha);
    paint.anti_alias = true;
    paint
}

/// A rectangle in fractional pixels: the map, grown by a margin so that lines and discs
/// just outside it still draw their part that reaches in.
#[derive(Debug, Clone, Copy)]
struct Window {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Window {
    fn around(map: PixelRect, margin: f64) -> Window {
        Window {
            x0: f64::from(map.x) - margin,
            y0: f64::from(map.y) - margin,
            x1: f64::from(map.x + map.w) + margin,
            y1: f64::from(map.y + map.h) + margin,
        }
    }

    fn contains(&self, (x, y): (f64, f64)) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }

    /// The part of segment a→b inside the window (Liang–Barsky), so that only coordinates
    /// near the map reach tiny-skia, however far off the map a path runs.
    fn clip(&self, a: (f64, f64), b: (f64, f64)) -> Option<((f64, f64), (f64, f64))> {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in [
            (-dx, a.0 - self.x0),
            (dx, self.x1 - a.0),
            (-dy, a.1 - self.y0),
            (dy, self.y1 - a.1),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return None;
                }
            } else {
                let r = q / p;
                if p < 0.0 {
                    t0 = t0.max(r);
                } else {
                    t1 = t1.min(r);
                }
            }
        }
        (t0 <= t1).then_some((
            (a.0 + t0 * dx, a.1 + t0 * dy),
            (a.0 + t1 * dx, a.1 + t1 * dy),
        ))
    }
}

fn pixel(frame: &Frame, p: [f64; 2]) -> Option<(f64, f64)> {
    let (x, y) = frame.to_pixel(p[0], p[1]);
    (x.is_finite() && y.is_finite()).then_some((x, y))
}

/// The pieces of a polyline inside the window, in pixels.
fn clipped_pieces(points: &[(f64, f64)], window: &Window) -> Vec<Vec<(f32, f32)>> {
    let mut pieces: Vec<Vec<(f32, f32)>> = Vec::new();
    let mut open = false;
    for pair in points.windows(2) {
        let Some((a, b)) = window.clip(pair[0], pair[1]) else {
            open = false;
            continue;
        };
        let to32 = |p: (f64, f64)| (p.0 as f32, p.1 as f32);
        if !open {
            pieces.push(vec![to32(a)]);
        }
        if let Some(piece) = pieces.last_mut() {
            piece.push(to32(b));
        }
        // The next segment continues this piece only if this one was not cut at its end.
        open = b == pair[1];
    }
    pieces
}

/// Draws the overlay, clipped to the map.
pub(crate) fn draw(canvas: &mut Canvas, frame: &Frame, overlay: &Overlay) {
    if overlay.is_empty() {
        return;
    }
    let pens = OverlayPens::for_scale(frame.scale());
    let (w, h) = (canvas.width(), canvas.height());
    let mask = clip_mask(w, h, frame.map);
    let window = Window::around(frame.map, f64::from(pens.line + pens.disc) + 4.0);
    let near = |p: [f64; 2]| {
        pixel(frame, p)
            .filter(|&q| window.contains(q))
            .map(|(x, y)| (x as f32, y as f32))
    };
    if let Some(mut pixmap) = canvas.pixmap() {
        for (i, path) in overlay.paths.iter().enumerate() {
            let points: Vec<(f64, f64)> = path.iter().filter_map(|&p| pixel(frame, p)).collect();
            let colour = PATH_COLOURS[i % PATH_COLOURS.len()];
            let pieces = clipped_pieces(&points, &window);
            draw_polyline(&mut pixmap, &pieces, colour, pens.line, mask.as_ref());
        }
        for path in &overlay.paths {
            if let Some((x, y)) = path.last().and_then(|&p| near(p)) {
                draw_goal(&mut pixmap, x, y, pens.disc, mask.as_ref());
            }
            if let Some((x, y)) = path.first().and_then(|&p| near(p)) {
                draw_start(&mut pixmap, x, y, pens.disc, mask.as_ref());
            }
        }
        for pin in &overlay.points {
            if let Some((x, y)) = near(pin.at) {
                draw_disc(
                    &mut pixmap,
                    x,
                    y,
                    pens.disc * 0.8,
                    pin.colour,
                    mask.as_ref(),
                );
            }
        }
    }
    // Labels last, over every disc, in the font (which draws straight into the canvas). A
    // label stays inside the map: beside its disc on the right, or on the left when the right
    // has no room.
    let map = frame.map;
    let (mx0, my0) = (i64::from(map.x), i64::from(map.y));
    let (mx1, my1) = (mx0 + i64::from(map.w), my0 + i64::from(map.h));
    for pin in overlay.points.iter().filter(|p| !p.label.is_empty()) {
        let Some((x, y)) = pixel(frame, pin.at) else {
            continue;
        };
        if !(x >= mx0 as f64 && x < mx1 as f64 && y >= my0 as f64 && y < my1 as f64) {
            continue;
        }
        let size = frame.text;
        let pad = i64::from(size);
        let (tw, th) = (
            i64::from(font::text_width(&pin.label, size)),
            i64::from(font::text_height(size)),
        );
        let gap = f64::from(pens.disc) + 3.0;
        let mut tx = (x + gap) as i64 + pad;
        if tx + tw + pad > mx1 {
            tx = (x - gap) as i64 - pad - tw;
        }
        let tx = tx.clamp(mx0 + pad, (mx1 - pad - tw).max(mx0 + pad));
        let ty = (y as i64 - th / 2).clamp(my0 + pad, (my1 - pad - th).max(my0 + pad));
        let (bx0, by0) = ((tx - pad).max(mx0), (ty - pad).max(my0));
        let (bx1, by1) = ((tx + tw + pad).min(mx1), (ty + th + pad).min(my1));
        canvas.fill_rect(bx0, by0, bx1, by1, palette::INK, 0.75);
        if tx + tw <= mx1 {
            font::draw_text(canvas, tx, ty, &pin.label, size, Colour::WHITE);
        }
    }
}

/// Thick lines with a dark casing, so they read on light and dark ground alike; each piece
/// is one polyline.
pub(crate) fn draw_polyline(
    pixmap: &mut PixmapMut,
    pieces: &[Vec<(f32, f32)>],
    colour: Colour,
    width: f32,
    mask: Option<&Mask>,
) {
    let mut pb = PathBuilder::new();
    for piece in pieces {
        let Some((&(x0, y0), rest)) = piece.split_first() else {
            continue;
        };
        pb.move_to(x0, y0);
        for &(x, y) in rest {
            pb.line_to(x, y);
        }
    }
    let Some(path) = pb.finish() else { return };
    let stroke = |w: f32| Stroke {
        width: w,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        ..Stroke::default()
    };
    let t = Transform::identity();
    pixmap.stroke_path(
        &path,
        &solid(palette::INK, 200),
        &stroke(width + 3.0),
        t,
        mask,
    );
    pixmap.stroke_path(&path, &solid(colour, 255), &stroke(width), t, mask);
}

/// A disc with a dark rim.
pub(crate) fn draw_disc(
    pixmap: &mut PixmapMut,
    x: f32,
    y: f32,
    r: f32,
    colour: Colour,
    mask: Option<&Mask>,
) {
    let t = Transform::identity();
    if let Some(rim) = PathBuilder::from_circle(x, y, r + 1.5) {
        pixmap.fill_path(&rim, &solid(palette::INK, 255), FillRule::Winding, t, mask);
    }
    if let Some(disc) = PathBuilder::from_circle(x, y, r) {
        pixmap.fill_path(&disc, &solid(colour, 255), FillRule::Winding, t, mask);
    }
}

/// Where a path begins: a green disc.
pub(crate) fn draw_start(pixmap: &mut PixmapMut, x: f32, y: f32, r: f32, mask: Option<&Mask>) {
    draw_disc(pixmap, x, y, r, Colour::GREEN, mask);
}

/// Where a path ends: a white disc with a red centre, a target.
pub(crate) fn draw_goal(pixmap: &mut PixmapMut, x: f32, y: f32, r: f32, mask: Option<&Mask>) {
    draw_disc(pixmap, x, y, r, Colour::WHITE, mask);
    if let Some(centre) = PathBuilder::from_circle(x, y, r * 0.5) {
        let paint = solid(Colour::RED, 255);
        pixmap.fill_path(
            &centre,
            &paint,
            FillRule::Winding,
            Transform::identity(),
            mask,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_colours_stand_apart() {
        use crate::palette;
        let taken = [
            palette::WALL,
            palette::REGION_BORDER,
            palette::GLOBAL_EDGE,
            palette::WATER,
            palette::ICE,
            palette::OBJECT_FOREIGN,
            Colour::GREEN,
            Colour::RED,
        ];
        for (i, a) in PATH_COLOURS.iter().enumerate() {
            assert!(!taken.contains(a), "{}", PATH_COLOUR_NAMES[i]);
            assert!(
                PATH_COLOURS[..i].iter().all(|b| b != a),
                "{} twice",
                PATH_COLOUR_NAMES[i]
            );
        }
    }

    #[test]
    fn segments_are_clipped_to_the_window() {
        let w = Window {
            x0: 0.0,
            y0: 0.0,
            x1: 10.0,
            y1: 10.0,
        };
        assert_eq!(
            w.clip((-10.0, 5.0), (20.0, 5.0)),
            Some(((0.0, 5.0), (10.0, 5.0)))
        );
        assert_eq!(
            w.clip((2.0, 2.0), (3.0, 4.0)),
            Some(((2.0, 2.0), (3.0, 4.0)))
        );
        assert_eq!(w.clip((-5.0, -5.0), (-1.0, 20.0)), None);
        assert_eq!(
            w.clip((5.0, 5.0), (5.0e12, 5.0e12)),
            Some(((5.0, 5.0), (10.0, 10.0)))
        );
    }

    #[test]
    fn a_path_leaving_and_re_entering_makes_two_pieces() {
        let w = Window {
            x0: 0.0,
            y0: 0.0,
            x1: 10.0,
            y1: 10.0,
        };
        let points = [(1.0, 1.0), (5.0, 1.0), (50.0, 1.0), (50.0, 8.0), (5.0, 8.0)];
        let pieces = clipped_pieces(&points, &w);
        assert_eq!(
            pieces,
            vec![
                vec![(1.0, 1.0), (5.0, 1.0), (10.0, 1.0)],
                vec![(10.0, 8.0), (5.0, 8.0)]
            ]
        );
    }
}
