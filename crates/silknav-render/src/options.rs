//! What to draw and how big.

use jmxv::RegionId;

/// The longest side, in pixels, that the automatic scale keeps a picture within.
pub const DEFAULT_MAX_SIZE: u32 = 4096;

/// How to draw a map.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderOptions {
    /// Pixels per tile (a tile is 20 units; a region is 96 tiles). `None` picks one: up to 8 for
    /// small maps, about 2 for big worlds, and less when needed to keep the picture within
    /// [`max_size`](Self::max_size). A scale given here is used as is, up to the hard limits
    /// ([`crate::MAX_SIDE`], [`crate::MAX_PIXELS`]).
    pub scale: Option<f32>,
    /// Draw only this region (its neighbours still smooth the relief shading at its borders).
    /// `None` draws every terrain region of the map.
    pub region: Option<RegionId>,
    /// Draw this rectangle of region coordinates, whatever of it has regions (the rest
    /// hatched as places without a region); the map then covers exactly the rectangle, which
    /// is what tiles of a bigger map need. Ignored when [`region`](Self::region) is set.
    pub area: Option<RegionRect>,
    /// The heights the tint spans, low to high ([`tint_range`](crate::tint_range) of the
    /// whole world, so that tiles drawn apart match). `None`: the drawn regions' range.
    pub tint_range: Option<(f32, f32)>,
    /// Longest side of the picture, title and legend included, when the scale is automatic.
    pub max_size: u32,
    /// Which layers to draw.
    pub layers: Layers,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            scale: None,
            region: None,
            area: None,
            tint_range: None,
            max_size: DEFAULT_MAX_SIZE,
            layers: Layers::default(),
        }
    }
}

/// Switches for the parts of the picture, all on by default. Turning layers off is mostly
/// for tests and for overlays that need a quieter background.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layers {
    /// Hill shading of the height map (without it, the tint alone shows height).
    pub relief: bool,
    /// Height tint (without it, open ground is a flat light colour).
    pub tint: bool,
    /// Thin outlines of the cells.
    pub cell_outlines: bool,
    /// Blocked internal edges.
    pub walls: bool,
    /// Region borders and, on them, the global edges.
    pub region_borders: bool,
    /// Object markers.
    pub objects: bool,
    /// Water and ice planes.
    pub water: bool,
    /// The title line above the map.
    pub title: bool,
    /// The legend beside the map.
    pub legend: bool,
}

impl Default for Layers {
    fn default() -> Layers {
        Layers {
            relief: true,
            tint: true,
            cell_outlines: true,
            walls: true,
            region_borders: true,
            objects: true,
            water: true,
            title: true,
            legend: true,
        }
    }
}

/// A rectangle of regions by region coordinates, both corners included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegionRect {
    /// Region x of the west column.
    pub x0: u8,
    /// Region z of the south row.
    pub z0: u8,
    /// Region x of the east column (at least `x0`).
    pub x1: u8,
    /// Region z of the north row (at least `z0`).
    pub z1: u8,
}

impl RegionRect {
    /// Whether the rectangle holds a region.
    pub fn contains(&self, r: RegionId) -> bool {
        (self.x0..=self.x1).contains(&r.x()) && (self.z0..=self.z1).contains(&r.z())
    }
}
