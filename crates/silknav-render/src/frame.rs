//! Where everything goes: the scale, the map's pixel rectangle, the title and the legend, and
//! the mapping between world units and pixels.

use crate::error::RenderError;
use jmxv::nvm::TILES_PER_SIDE;
use jmxv::RegionId;

/// Largest width or height of a picture, in pixels, whatever the options say.
pub const MAX_SIDE: u32 = 16_384;
/// Largest number of pixels of a picture (256 MiB of RGBA), whatever the options say.
pub const MAX_PIXELS: u64 = 1 << 26;

/// Scales the automatic choice prefers, largest first: whole or half pixels per tile keep tile
/// edges on pixel edges, so small cells stay crisp.
const LADDER: [f64; 5] = [8.0, 6.0, 4.0, 3.0, 2.0];
/// The automatic scale takes the largest ladder step that keeps the map within this many
/// pixels: enough to tell 20-unit cells apart, small enough to view without panning.
const PREFERRED_MAP_SIDE: f64 = 2048.0;

const TILES: u32 = TILES_PER_SIDE as u32;
const UNITS_PER_TILE: f64 = 20.0;
const REGION_UNITS: f64 = 1920.0;

/// The rectangle of regions the map covers, in region coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Extent {
    /// Region x of the west column.
    pub x0: i32,
    /// Region z of the south row.
    pub z0: i32,
    /// Regions along x.
    pub cols: u32,
    /// Regions along z.
    pub rows: u32,
}

impl Extent {
    /// The smallest extent holding every region.
    pub fn around(regions: impl IntoIterator<Item = RegionId>) -> Option<Extent> {
        let mut bounds: Option<(i32, i32, i32, i32)> = None;
        for r in regions {
            let (x, z) = (i32::from(r.x()), i32::from(r.z()));
            bounds = Some(match bounds {
                None => (x, z, x, z),
                Some((x0, z0, x1, z1)) => (x0.min(x), z0.min(z), x1.max(x), z1.max(z)),
            });
        }
        bounds.map(|(x0, z0, x1, z1)| Extent {
            x0,
            z0,
            cols: (x1 - x0 + 1) as u32,
            rows: (z1 - z0 + 1) as u32,
        })
    }

    /// Tiles along x.
    pub fn tiles_w(self) -> u32 {
        self.cols * TILES
    }

    /// Tiles along z.
    pub fn tiles_h(self) -> u32 {
        self.rows * TILES
    }

    /// The world box the extent covers.
    pub fn map_box(self) -> MapBox {
        MapBox {
            x0: f64::from(self.x0) * REGION_UNITS,
            z0: f64::from(self.z0) * REGION_UNITS,
            tiles_w: self.tiles_w(),
            tiles_h: self.tiles_h(),
        }
    }
}

/// The box of the plane a map covers: its south-west corner in world units and its size in
/// tiles (20 units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MapBox {
    /// West edge.
    pub x0: f64,
    /// South edge.
    pub z0: f64,
    /// Tiles along x.
    pub tiles_w: u32,
    /// Tiles along z.
    pub tiles_h: u32,
}

/// Sizes of the parts around the map, for one text size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Chrome {
    /// Height of the title block (0 without a title).
    pub title_h: u32,
    /// Width of the legend panel (0 without a legend).
    pub panel_w: u32,
    /// Height of the legend panel.
    pub panel_h: u32,
    /// Width of the title's longer line; the picture is at least this wide.
    pub title_w: u32,
}

/// A pixel rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct PixelRect {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
}

/// The layout of one picture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Frame {
    pub bounds: MapBox,
    /// Pixels per tile along x and z after rounding the map to whole pixels.
    pub sx: f64,
    pub sz: f64,
    /// Pixels per font cell.
    pub text: u32,
    pub margin: u32,
    pub title: PixelRect,
    pub map: PixelRect,
    pub panel: PixelRect,
    pub width: u32,
    pub height: u32,
}

/// Pixels per font cell for a map whose longer side is `map_long` pixels: text grows with the
/// map so that it stays readable when a big picture is viewed shrunk to fit a screen.
pub(crate) fn text_size(map_long: f64) -> u32 {
    ((map_long / 600.0).round() as u32).clamp(2, 5)
}

/// Space between the picture's edge and its parts.
fn margin(text: u32) -> u32 {
    3 * text
}

impl Frame {
    /// Lays out a picture of the plane in `extent`.
    ///
    /// `chrome(text)` gives the sizes of the title and legend drawn with that text size.
    pub fn new(
        extent: MapBox,
        scale: Option<f32>,
        max_size: u32,
        chrome: impl Fn(u32) -> Chrome,
    ) -> Result<Frame, RenderError> {
        let (tw, th) = (f64::from(extent.tiles_w), f64::from(extent.tiles_h));
        let long = tw.max(th);
        let scale = match scale {
            Some(s) if s.is_finite() && s > 0.0 => f64::from(s),
            Some(s) => return Err(RenderError::BadScale(s)),
            None => {
                let preferred = LADDER
                    .into_iter()
                    .find(|s| long * s <= PREFERRED_MAP_SIDE)
                    .unwrap_or(LADDER[LADDER.len() - 1]);
                let frame = Frame::at(extent, preferred, &chrome);
                if frame.width.max(frame.height) <= max_size {
                    preferred
                } else {
                    fit(extent, max_size, &chrome)?
                }
            }
        };
        let (w, h) = Frame::outer_size(extent, scale, &chrome);
        if w > u64::from(MAX_SIDE) || h > u64::from(MAX_SIDE) || w * h > MAX_PIXELS {
            return Err(RenderError::TooLarge {
                width: w,
                height: h,
            });
        }
        Ok(Frame::at(extent, scale, &chrome))
    }

    /// Map size in pixels at `scale`, at least one pixel a side, without limits (so that an
    /// absurd scale is measured before anything is allocated).
    fn map_size(extent: MapBox, scale: f64) -> (u64, u64) {
        let side = |tiles: u32| (f64::from(tiles) * scale).round().clamp(1.0, 1e15) as u64;
        (side(extent.tiles_w), side(extent.tiles_h))
    }

    fn outer_size(extent: MapBox, scale: f64, chrome: &impl Fn(u32) -> Chrome) -> (u64, u64) {
        let (mw, mh) = Frame::map_size(extent, scale);
        let text = text_size(mw.max(mh) as f64);
        let c = chrome(text);
        let m = u64::from(margin(text));
        let panel = if c.panel_w > 0 {
            m + u64::from(c.panel_w)
        } else {
            0
        };
        let w = (2 * m + mw + panel).max(2 * m + u64::from(c.title_w));
        let h = 2 * m + u64::from(c.title_h) + mh.max(u64::from(c.panel_h));
        (w, h)
    }

    /// The layout at `scale`; the caller has checked that it is of a sane size.
    fn at(extent: MapBox, scale: f64, chrome: &impl Fn(u32) -> Chrome) -> Frame {
        let (mw, mh) = Frame::map_size(extent, scale);
        let (mw, mh) = (
            mw.min(u64::from(MAX_SIDE)) as u32,
            mh.min(u64::from(MAX_SIDE)) as u32,
        );
        let text = text_size(f64::from(mw.max(mh)));
        let c = chrome(text);
        let m = margin(text);
        let title = PixelRect {
            x: m,
            y: m,
            w: c.title_w,
            h: c.title_h,
        };
        let map = PixelRect {
            x: m,
            y: m + c.title_h,
            w: mw,
            h: mh,
        };
        let panel = PixelRect {
            x: map.x + mw + m,
            y: map.y,
            w: c.panel_w,
            h: c.panel_h,
        };
        let width = if c.panel_w > 0 {
            panel.x + panel.w + m
        } else {
            map.x + mw + m
        }
        .max(2 * m + c.title_w);
        let height = map.y + mh.max(c.panel_h) + m;
        Frame {
            bounds: extent,
            sx: f64::from(mw) / f64::from(extent.tiles_w),
            sz: f64::from(mh) / f64::from(extent.tiles_h),
            text,
            margin: m,
            title,
            map,
            panel,
            width,
            height,
        }
    }

    /// Mean pixels per tile.
    pub fn scale(&self) -> f64 {
        (self.sx + self.sz) / 2.0
    }

    /// West edge of the map in world units.
    pub fn world_x0(&self) -> f64 {
        self.bounds.x0
    }

    /// North edge of the map in world units.
    pub fn world_z1(&self) -> f64 {
        self.bounds.z0 + f64::from(self.bounds.tiles_h) * UNITS_PER_TILE
    }

    /// Pixel position (fractional, from the picture's top-left corner) of world point (x, z).
    /// North (+z) is up.
    pub fn to_pixel(self, x: f64, z: f64) -> (f64, f64) {
        (
            f64::from(self.map.x) + (x - self.world_x0()) / UNITS_PER_TILE * self.sx,
            f64::from(self.map.y) + (self.world_z1() - z) / UNITS_PER_TILE * self.sz,
        )
    }

    /// World x of the centre of map column `c`.
    pub fn column_x(&self, c: u32) -> f64 {
        self.world_x0() + (f64::from(c) + 0.5) / self.sx * UNITS_PER_TILE
    }

    /// World z of the centre of map row `r` (row 0 is the north edge).
    pub fn row_z(&self, r: u32) -> f64 {
        self.world_z1() - (f64::from(r) + 0.5) / self.sz * UNITS_PER_TILE
    }
}

/// The scale that fits the picture within `max_size` pixels.
fn fit(extent: MapBox, max_size: u32, chrome: &impl Fn(u32) -> Chrome) -> Result<f64, RenderError> {
    // Text never gets larger than for a map of the whole allowed size, so chrome measured with
    // that text size bounds the chrome of the picture actually made.
    let text = text_size(f64::from(max_size));
    let c = chrome(text);
    let m = margin(text);
    let panel = if c.panel_w > 0 { m + c.panel_w } else { 0 };
    let extra_w = 2 * m + panel;
    let extra_h = 2 * m + c.title_h;
    let needed = (extra_w + 1)
        .max(extra_h + c.panel_h.max(1))
        .max(2 * m + c.title_w);
    if max_size < needed {
        return Err(RenderError::MaxSizeTooSmall { max_size, needed });
    }
    let avail_w = f64::from(max_size - extra_w);
    let avail_h = f64::from(max_size - extra_h);
    Ok((avail_w / f64::from(extent.tiles_w)).min(avail_h / f64::from(extent.tiles_h)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chrome(text: u32) -> Chrome {
        Chrome {
            title_h: 20 * text,
            title_w: 150 * text,
            panel_w: 100 * text,
            panel_h: 150 * text,
        }
    }

    fn square(n: u32) -> MapBox {
        Extent {
            x0: 128,
            z0: 64,
            cols: n,
            rows: n,
        }
        .map_box()
    }

    #[test]
    fn automatic_scale_prefers_crisp_steps() {
        let one = Frame::new(square(1), None, 4096, chrome).unwrap();
        assert_eq!((one.sx, one.map.w), (8.0, 768));
        let four = Frame::new(square(4), None, 4096, chrome).unwrap();
        assert_eq!(four.sx, 4.0);
        let sixteen = Frame::new(square(16), None, 4096, chrome).unwrap();
        assert_eq!(sixteen.sx, 2.0);
        assert!(sixteen.width <= 4096 && sixteen.height <= 4096);
    }

    #[test]
    fn automatic_scale_shrinks_big_worlds_to_the_limit() {
        let big = Frame::new(square(40), None, 4096, chrome).unwrap();
        assert!(big.sx < 2.0, "{}", big.sx);
        assert!(
            big.width <= 4096 && big.height <= 4096,
            "{}×{}",
            big.width,
            big.height
        );
        assert!(
            big.width >= 4000 || big.height >= 4000,
            "uses the room it has"
        );
        let small = Frame::new(square(40), None, 1000, chrome).unwrap();
        assert!(small.width <= 1000 && small.height <= 1000);
    }

    #[test]
    fn explicit_scale_is_kept_and_checked() {
        let f = Frame::new(square(2), Some(3.0), 100, chrome).unwrap();
        assert_eq!((f.sx, f.map.w, f.map.h), (3.0, 576, 576));
        for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            assert!(matches!(
                Frame::new(square(2), Some(bad), 4096, chrome),
                Err(RenderError::BadScale(_))
            ));
        }
        assert!(matches!(
            Frame::new(square(40), Some(100.0), 4096, chrome),
            Err(RenderError::TooLarge { .. })
        ));
        assert!(matches!(
            Frame::new(square(40), Some(1e30), 4096, chrome),
            Err(RenderError::TooLarge { .. })
        ));
    }

    #[test]
    fn tiny_limits_are_refused() {
        assert!(matches!(
            Frame::new(square(40), None, 50, chrome),
            Err(RenderError::MaxSizeTooSmall { .. })
        ));
    }

    #[test]
    fn north_is_up_and_pixels_round_trip() {
        let f = Frame::new(square(2), Some(1.0), 4096, chrome).unwrap();
        let (x0, z1) = (128.0 * 1920.0, 66.0 * 1920.0);
        assert_eq!(f.to_pixel(x0, z1), (f64::from(f.map.x), f64::from(f.map.y)));
        let (_, y_south) = f.to_pixel(x0, 64.0 * 1920.0);
        assert_eq!(
            y_south,
            f64::from(f.map.y + f.map.h),
            "south edge at the bottom"
        );
        // Column 0's centre is half a pixel into the map: 10 world units at one pixel per tile.
        assert_eq!(f.column_x(0), x0 + 10.0);
        assert_eq!(f.row_z(0), z1 - 10.0);
    }

    #[test]
    fn extent_around_regions() {
        let e = Extent::around([RegionId::new(3, 9), RegionId::new(5, 7)]).unwrap();
        assert_eq!(
            e,
            Extent {
                x0: 3,
                z0: 7,
                cols: 3,
                rows: 3
            }
        );
        assert_eq!(Extent::around([]), None);
    }
}
