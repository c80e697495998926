//! A finished picture: its pixels, where the map lies in it, and PNG output.

use crate::frame::{Frame, PixelRect};
use crate::raster::Canvas;

/// A rendered picture, opaque RGBA.
#[derive(Debug, Clone)]
pub struct Picture {
    pub(crate) canvas: Canvas,
    pub(crate) frame: Frame,
}

/// A rectangle of pixels in a picture, from its top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Area {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl From<PixelRect> for Area {
    fn from(r: PixelRect) -> Area {
        Area {
            x: r.x,
            y: r.y,
            width: r.w,
            height: r.h,
        }
    }
}

impl Picture {
    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.canvas.width()
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.canvas.height()
    }

    /// The pixel at (x, y) as `[r, g, b, a]` (a is always 255), or `None` outside.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        self.canvas.get(x, y).map(|c| c.to_rgba())
    }

    /// All pixels, RGBA, row by row from the top.
    pub fn rgba(&self) -> &[u8] {
        self.canvas.data()
    }

    /// Where the map lies in the picture.
    pub fn map_area(&self) -> Area {
        self.frame.map.into()
    }

    /// Where the legend lies in the picture, if it has one.
    pub fn legend_area(&self) -> Option<Area> {
        (self.frame.panel.w > 0).then(|| self.frame.panel.into())
    }

    /// Pixels per tile (20 world units) along x; the picture's scale.
    pub fn scale(&self) -> f64 {
        self.frame.sx
    }

    /// The world box the map covers, `[x0, z0, x1, z1]`: its west, south, east and north
    /// edges.
    pub fn map_bounds(&self) -> [f64; 4] {
        let f = &self.frame;
        let b = f.bounds;
        [
            b.x0,
            b.z0,
            b.x0 + f64::from(b.tiles_w) * 20.0,
            b.z0 + f64::from(b.tiles_h) * 20.0,
        ]
    }

    /// The picture position (fractional pixels from the top-left corner) of world point
    /// `[x, z]`. North (+z) is up, so larger z gives smaller y.
    pub fn world_to_pixel(&self, world: [f64; 2]) -> [f64; 2] {
        let (x, y) = self.frame.to_pixel(world[0], world[1]);
        [x, y]
    }

    /// The picture as PNG bytes (8-bit RGB). The renderer writes no files: store them with
    /// `silknav::files::write_atomic`, as the command line does.
    pub fn encode_png(&self) -> Vec<u8> {
        crate::png::encode_rgb(self.width(), self.height(), self.canvas.data())
    }

    /// The map alone, without margins, title or legend, as PNG bytes: a tile of a bigger map
    /// when drawn with [`crate::RenderOptions::area`].
    pub fn encode_map_png(&self) -> Vec<u8> {
        let m = self.frame.map;
        let stride = self.width() as usize * 4;
        let mut rgba = Vec::with_capacity(m.w as usize * m.h as usize * 4);
        for row in m.y..m.y + m.h {
            let start = row as usize * stride + m.x as usize * 4;
            rgba.extend_from_slice(&self.canvas.data()[start..start + m.w as usize * 4]);
        }
        crate::png::encode_rgb(m.w, m.h, &rgba)
    }
}
