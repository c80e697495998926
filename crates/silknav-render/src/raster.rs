//! The pixel buffer everything is drawn into.
//!
//! Most of the picture is axis-aligned (tiles, cells, walls on tile lines, text), so it is
//! written straight into the buffer: crisp, and much faster than a path per tile. Only the
//! overlay's free-form lines and discs go through tiny-skia.

use crate::colour::Colour;
use tiny_skia::PixmapMut;

/// An opaque RGBA8 image. Because every pixel stays opaque, premultiplied and straight alpha
/// agree, so tiny-skia can draw into the same bytes.
#[derive(Debug, Clone)]
pub struct Canvas {
    width: u32,
    height: u32,
    data: Vec<u8>,
}

impl Canvas {
    /// A canvas filled with one colour.
    pub fn new(width: u32, height: u32, fill: Colour) -> Canvas {
        let pixels = width as usize * height as usize;
        let mut data = Vec::with_capacity(pixels * 4);
        for _ in 0..pixels {
            data.extend_from_slice(&fill.to_rgba());
        }
        Canvas {
            width,
            height,
            data,
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The RGBA bytes, row by row from the top.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The colour at (x, y), if inside.
    pub fn get(&self, x: u32, y: u32) -> Option<Colour> {
        (x < self.width && y < self.height).then(|| {
            let i = self.index(x, y);
            Colour::rgb(self.data[i], self.data[i + 1], self.data[i + 2])
        })
    }

    fn index(&self, x: u32, y: u32) -> usize {
        (y as usize * self.width as usize + x as usize) * 4
    }

    /// Sets (x, y) to `colour`, which must be inside.
    pub fn set(&mut self, x: u32, y: u32, colour: Colour) {
        let i = self.index(x, y);
        self.data[i..i + 3].copy_from_slice(&[colour.r, colour.g, colour.b]);
    }

    /// Mixes `colour` into (x, y) with opacity `alpha`; nothing when outside.
    pub fn blend(&mut self, x: i64, y: i64, colour: Colour, alpha: f32) {
        if x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.height) {
            return;
        }
        let (x, y) = (x as u32, y as u32);
        if alpha >= 1.0 {
            self.set(x, y, colour);
        } else if let Some(old) = self.get(x, y) {
            self.set(x, y, old.mix(colour, alpha));
        }
    }

    /// Fills the half-open pixel rectangle [x0, x1) × [y0, y1), clipped to the canvas.
    pub fn fill_rect(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, colour: Colour, alpha: f32) {
        let (x0, x1) = (x0.max(0), x1.min(i64::from(self.width)));
        let (y0, y1) = (y0.max(0), y1.min(i64::from(self.height)));
        for y in y0..y1 {
            for x in x0..x1 {
                self.blend(x, y, colour, alpha);
            }
        }
    }

    /// Draws the outline of [x0, x1) × [y0, y1), `width` pixels thick, inside the rectangle.
    pub fn stroke_rect(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, width: i64, colour: Colour) {
        let w = width.max(1);
        self.fill_rect(x0, y0, x1, y0 + w, colour, 1.0);
        self.fill_rect(x0, y1 - w, x1, y1, colour, 1.0);
        self.fill_rect(x0, y0 + w, x0 + w, y1 - w, colour, 1.0);
        self.fill_rect(x1 - w, y0 + w, x1, y1 - w, colour, 1.0);
    }

    /// Fills the triangle with these pixel-space corners: every pixel whose centre lies inside
    /// or on it, clipped to `clip` and the canvas. Corners far outside are clamped first, so
    /// the work stays bounded by the clip's size.
    pub(crate) fn fill_triangle(
        &mut self,
        corners: [(f64, f64); 3],
        clip: crate::frame::PixelRect,
        colour: Colour,
        alpha: f32,
    ) {
        if corners
            .iter()
            .any(|c| !(c.0.is_finite() && c.1.is_finite()))
        {
            return;
        }
        // Clamped so that the edge products below stay finite whatever a file holds.
        let limit = 1e7;
        let corners = corners.map(|c| (c.0.clamp(-limit, limit), c.1.clamp(-limit, limit)));
        let (cx0, cy0) = (i64::from(clip.x), i64::from(clip.y));
        let (cx1, cy1) = (cx0 + i64::from(clip.w), cy0 + i64::from(clip.h));
        let lo = |f: fn(&(f64, f64)) -> f64| corners.iter().map(f).fold(f64::INFINITY, f64::min);
        let hi =
            |f: fn(&(f64, f64)) -> f64| corners.iter().map(f).fold(f64::NEG_INFINITY, f64::max);
        let x0 = (lo(|c| c.0).floor() as i64).max(cx0);
        let x1 = (hi(|c| c.0).ceil() as i64).min(cx1);
        let y0 = (lo(|c| c.1).floor() as i64).max(cy0);
        let y1 = (hi(|c| c.1).ceil() as i64).min(cy1);
        let [a, b, c] = corners;
        let side = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
            (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
        };
        let area = side(a, b, c);
        if area == 0.0 {
            return;
        }
        for y in y0..y1 {
            for x in x0..x1 {
                let p = (x as f64 + 0.5, y as f64 + 0.5);
                let (u, v, w) = (side(a, b, p), side(b, c, p), side(c, a, p));
                let inside = if area > 0.0 {
                    u >= 0.0 && v >= 0.0 && w >= 0.0
                } else {
                    u <= 0.0 && v <= 0.0 && w <= 0.0
                };
                if inside {
                    self.blend(x, y, colour, alpha);
                }
            }
        }
    }

    /// The buffer as a tiny-skia pixmap, for anti-aliased paths.
    pub fn pixmap(&mut self) -> Option<PixmapMut<'_>> {
        PixmapMut::from_bytes(&mut self.data, self.width, self.height)
    }

    /// The raw bytes, for the terrain pass that writes every pixel of a row.
    pub fn row_mut(&mut self, y: u32) -> &mut [u8] {
        let w = self.width as usize * 4;
        let start = y as usize * w;
        &mut self.data[start..start + w]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangles_clip_and_blend() {
        let mut c = Canvas::new(4, 3, Colour::BLACK);
        c.fill_rect(-5, 1, 2, 99, Colour::WHITE, 1.0);
        assert_eq!(c.get(0, 0), Some(Colour::BLACK));
        assert_eq!(c.get(1, 2), Some(Colour::WHITE));
        assert_eq!(c.get(2, 2), Some(Colour::BLACK));
        c.blend(3, 0, Colour::WHITE, 0.5);
        assert_eq!(c.get(3, 0), Some(Colour::rgb(128, 128, 128)));
        assert_eq!(c.get(4, 0), None);
        c.stroke_rect(0, 0, 4, 3, 1, Colour::RED);
        assert_eq!(c.get(3, 1), Some(Colour::RED));
        assert_eq!(c.get(1, 1), Some(Colour::WHITE), "the inside stays");
    }

    #[test]
    fn triangles_fill_their_inside_in_either_winding() {
        let clip = crate::frame::PixelRect {
            x: 0,
            y: 0,
            w: 10,
            h: 10,
        };
        for corners in [
            [(0.0, 0.0), (8.0, 0.0), (0.0, 8.0)],
            [(0.0, 0.0), (0.0, 8.0), (8.0, 0.0)],
        ] {
            let mut c = Canvas::new(10, 10, Colour::BLACK);
            c.fill_triangle(corners, clip, Colour::WHITE, 1.0);
            assert_eq!(c.get(1, 1), Some(Colour::WHITE));
            assert_eq!(c.get(7, 7), Some(Colour::BLACK), "beyond the diagonal");
            assert_eq!(c.get(9, 0), Some(Colour::BLACK));
        }
        let mut c = Canvas::new(10, 10, Colour::BLACK);
        let huge = [(-1e300, -1e300), (1e300, 0.0), (0.0, 1e300)];
        c.fill_triangle(
            huge,
            crate::frame::PixelRect {
                x: 2,
                y: 2,
                w: 3,
                h: 3,
            },
            Colour::WHITE,
            1.0,
        );
        assert_eq!(c.get(3, 3), Some(Colour::WHITE));
        assert_eq!(c.get(1, 1), Some(Colour::BLACK), "clipped");
    }
}
