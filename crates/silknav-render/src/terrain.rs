//! The ground pass: every map pixel gets its colour from the tile under it — shaded, tinted
//! height on open ground, dark on blocked ground, water and ice over both, thin cell outlines.
//!
//! The pass works region by region on whole pixel rows, looking up per column and per row
//! which tile and fraction of it a pixel centre falls on. That keeps the cost at a few
//! arithmetic steps per pixel: a 16×16 world at two pixels per tile is about 9 million pixels.

use crate::colour::{height_tint, palette, Colour};
use crate::frame::Frame;
use crate::options::Layers;
use crate::scene::Scene;
use jmxv::nvm::{
    NavMesh, HEIGHTS_PER_SIDE, PLANES_PER_SIDE, PLANE_ICE, PLANE_WATER, TILES_PER_SIDE,
};
use jmxv::RegionId;

const TILES: usize = TILES_PER_SIDE;
const VERTS: usize = HEIGHTS_PER_SIDE;
/// Tiles per plane side.
const PLANE_TILES: usize = TILES / PLANES_PER_SIDE;

/// Open ground when the height tint is off.
const PLAIN_GROUND: Colour = Colour::rgb(196, 206, 170);

/// Cell outlines are drawn only when a tile is at least this many pixels wide: below it, the
/// outlines of 20-unit cells would cover most pixels and hide the ground.
pub(crate) const OUTLINE_MIN_SCALE: f64 = 2.0;

/// Light for the relief: from the north-west, 45° above the horizon (the cartographic habit,
/// which makes hills read as raised rather than sunken). Components are x (east), y (up),
/// z (north), normalised.
const LIGHT: [f32; 3] = [-0.5, std::f32::consts::FRAC_1_SQRT_2, 0.5];
/// Heights are exaggerated for shading: the game's slopes are gentle next to its 20-unit grid,
/// and unexaggerated they shade to almost nothing.
const RELIEF_EXAGGERATION: f32 = 2.0;

/// The tint changes in this many steps over the height range, like the layer tints of a
/// printed map: each band reads as a contour interval, and flat colour runs compress several
/// times better in the PNG than a continuous ramp.
const TINT_BANDS: f32 = 24.0;
/// Relief shading is rounded to this many levels per unit of brightness, for the same reason;
/// steps of 4 % are below what the eye picks out on a textured map.
const SHADE_LEVELS: f32 = 24.0;

/// The tint spans at least this many units, so that gentle ground (one region of a plain may
/// vary by a hundred units) is not painted from lowland green to snow as if it were a range of
/// mountains.
const MIN_TINT_SPAN: f32 = 300.0;

/// The range of heights the tint spreads over.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct HeightRange {
    pub lo: f32,
    pub hi: f32,
}

impl HeightRange {
    /// The range of the drawn regions' heights, ignoring the extreme half percent at each end
    /// so that a few wild values (real files have some) do not flatten the tint of the rest.
    pub fn of<'a>(meshes: impl Iterator<Item = &'a NavMesh> + Clone) -> HeightRange {
        let total: usize = meshes.clone().map(|m| m.heights.len()).sum();
        // Sorting every height of a big world is wasteful; a strided sample of up to 2^18
        // values gives the same percentiles to well under a unit.
        let stride = (total / (1 << 18)).max(1);
        let mut sample: Vec<f32> = meshes
            .flat_map(|m| m.heights.iter())
            .step_by(stride)
            .map(|h| h.get())
            .filter(|h| h.is_finite())
            .collect();
        if sample.is_empty() {
            return HeightRange { lo: 0.0, hi: 1.0 };
        }
        sample.sort_unstable_by(f32::total_cmp);
        let at = |q: f64| sample[((sample.len() - 1) as f64 * q).round() as usize];
        let (lo, hi) = (at(0.005), at(0.995));
        if hi - lo < MIN_TINT_SPAN {
            let mid = (lo + hi) / 2.0;
            HeightRange {
                lo: mid - MIN_TINT_SPAN / 2.0,
                hi: mid + MIN_TINT_SPAN / 2.0,
            }
        } else {
            HeightRange { lo, hi }
        }
    }

    fn relative(self, h: f32) -> f32 {
        (h - self.lo) / (self.hi - self.lo)
    }
}

/// Where one map column (or row) falls: which region of the extent, which tile, and how far
/// into the tile.
#[derive(Debug, Clone, Copy)]
struct Sample {
    /// Region index within the extent (column from the west, or row from the south).
    region: u32,
    tile: usize,
    frac: f32,
    /// The previous column (row) lies in another tile of the same region.
    new_tile: bool,
    /// The tile of the previous column (row), when `new_tile`.
    prev_tile: usize,
}

fn samples(count: u32, regions: u32, world: impl Fn(u32) -> f64, origin: f64) -> Vec<Sample> {
    let mut out: Vec<Sample> = Vec::with_capacity(count as usize);
    for i in 0..count {
        let units = world(i) - origin;
        let region = ((units / 1920.0).floor().max(0.0) as u32).min(regions - 1);
        let local = units - f64::from(region) * 1920.0;
        let t = (local / 20.0).clamp(0.0, TILES as f64 - 1e-9);
        let tile = t.floor() as usize;
        let prev = out.last();
        let same_region = prev.is_some_and(|p| p.region == region);
        out.push(Sample {
            region,
            tile,
            frac: (t - tile as f64) as f32,
            new_tile: same_region && prev.is_some_and(|p| p.tile != tile),
            prev_tile: prev.map_or(tile, |p| p.tile),
        });
    }
    out
}

/// Paints every map pixel.
pub(crate) fn draw(scene: &Scene, canvas: &mut crate::raster::Canvas, layers: &Layers) {
    let frame = &scene.frame;
    let extent = scene.extent;
    let columns = samples(
        frame.map.w,
        extent.cols,
        |c| frame.column_x(c),
        frame.world_x0(),
    );
    // Rows are sampled south-relative so that region and tile indices grow northwards, as in
    // the files; row 0 of the map is the north edge.
    let rows = samples(
        frame.map.h,
        extent.rows,
        |r| frame.row_z(r),
        f64::from(extent.z0) * 1920.0,
    );
    let outlines = layers.cell_outlines && frame.scale() >= OUTLINE_MIN_SCALE;

    for rz in 0..extent.rows {
        let row_range: Vec<u32> = (0..frame.map.h)
            .filter(|&r| rows[r as usize].region == rz)
            .collect();
        for rx in 0..extent.cols {
            let region =
                RegionId::new((extent.x0 + rx as i32) as u8, (extent.z0 + rz as i32) as u8);
            let col_lo = columns.partition_point(|s| s.region < rx);
            let col_hi = columns.partition_point(|s| s.region <= rx);
            let Some(mesh) = scene.drawn_mesh(region) else {
                draw_missing(canvas, frame, &row_range, col_lo as u32..col_hi as u32);
                continue;
            };
            let shade = if layers.relief {
                shade_grid(scene, region, mesh)
            } else {
                vec![1.0; VERTS * VERTS]
            };
            let painter = RegionPainter {
                mesh,
                shade: &shade,
                range: scene.heights,
                layers,
                outlines,
            };
            for &r in &row_range {
                let row = rows[r as usize];
                let bytes = canvas.row_mut(frame.map.y + r);
                for (c, &col) in columns.iter().enumerate().take(col_hi).skip(col_lo) {
                    let colour = painter.pixel(col, row);
                    let i = (frame.map.x as usize + c) * 4;
                    bytes[i..i + 3].copy_from_slice(&[colour.r, colour.g, colour.b]);
                }
            }
        }
    }
}

/// Hatches a region of the extent that has no file, so a hole in the world is not mistaken
/// for blocked ground.
fn draw_missing(
    canvas: &mut crate::raster::Canvas,
    frame: &Frame,
    rows: &[u32],
    cols: std::ops::Range<u32>,
) {
    let period = (4 * frame.text).max(6);
    for &r in rows {
        let y = frame.map.y + r;
        for c in cols.clone() {
            let x = frame.map.x + c;
            let colour = if (x + y) % period < period / 4 {
                palette::MISSING_HATCH
            } else {
                palette::MISSING
            };
            canvas.set(x, y, colour);
        }
    }
}

struct RegionPainter<'a> {
    mesh: &'a NavMesh,
    shade: &'a [f32],
    range: crate::terrain::HeightRange,
    layers: &'a Layers,
    outlines: bool,
}

impl RegionPainter<'_> {
    fn pixel(&self, col: Sample, row: Sample) -> Colour {
        let (tx, tz) = (col.tile, row.tile);
        let mesh = self.mesh;
        let closed = is_closed(mesh, tx, tz);
        let h = ground_height(mesh, tx, tz, col.frac, row.frac);
        let s = (bilinear(self.shade, tx, tz, col.frac, row.frac) * SHADE_LEVELS).round()
            / SHADE_LEVELS;
        let mut colour = if closed {
            // Relief stays faintly visible on blocked ground, so cliffs still read as slopes,
            // but the range is kept narrow so blocked ground stays unmistakably dark.
            palette::BLOCKED.scaled(0.85 + 0.3 * (s - 1.0))
        } else if self.layers.tint {
            height_tint((self.range.relative(h) * TINT_BANDS).round() / TINT_BANDS).scaled(s)
        } else {
            PLAIN_GROUND.scaled(s)
        };
        if self.layers.water {
            let plane = (tz / PLANE_TILES) * PLANES_PER_SIDE + tx / PLANE_TILES;
            let kind = mesh.planes.types[plane];
            let level = mesh.planes.heights[plane].get();
            // Ice is drawn over water when a plane has both: it is the surface one stands on.
            if kind & PLANE_ICE != 0 && h < level {
                colour = colour.mix(palette::ICE, 0.75);
            } else if kind & PLANE_WATER != 0 && h < level {
                // Deeper water is more opaque, so shores fade in and lake beds disappear.
                let depth = ((level - h) / 60.0).clamp(0.0, 1.0);
                let water = if closed {
                    palette::WATER_BLOCKED
                } else {
                    palette::WATER
                };
                colour = colour.mix(water, 0.6 + 0.35 * depth);
            }
        }
        if self.outlines {
            let west = col.new_tile && cell_of(mesh, col.prev_tile, tz) != cell_of(mesh, tx, tz);
            let north = row.new_tile && cell_of(mesh, tx, row.prev_tile) != cell_of(mesh, tx, tz);
            if west || north {
                colour = if closed {
                    colour.mix(Colour::WHITE, 0.06)
                } else {
                    colour.scaled(0.72)
                };
            }
        }
        colour
    }
}

/// The cell a tile says it belongs to (the game uses the low 16 bits).
fn cell_of(mesh: &NavMesh, tx: usize, tz: usize) -> u16 {
    mesh.tiles[tz * TILES + tx].cell()
}

/// Whether a tile is not walkable: flagged blocked, or in a closed (or nonexistent) cell.
pub(crate) fn is_closed(mesh: &NavMesh, tx: usize, tz: usize) -> bool {
    let tile = mesh.tiles[tz * TILES + tx];
    tile.is_blocked() || u32::from(tile.cell()) >= mesh.open_cell_count.min(mesh.cells.len() as u32)
}

fn vertex(mesh: &NavMesh, vx: usize, vz: usize) -> f32 {
    let h = mesh.heights[vz * VERTS + vx].get();
    if h.is_finite() {
        h
    } else {
        0.0
    }
}

/// Height of the ground at fraction (fx, fz) of tile (tx, tz): the plane of the tile's
/// triangle, with the diagonal alternating by tile parity, as the game computes it. (Using
/// the game's triangles keeps shorelines where the game has them.)
fn ground_height(mesh: &NavMesh, tx: usize, tz: usize, fx: f32, fz: f32) -> f32 {
    let h00 = vertex(mesh, tx, tz);
    let h10 = vertex(mesh, tx + 1, tz);
    let h01 = vertex(mesh, tx, tz + 1);
    let h11 = vertex(mesh, tx + 1, tz + 1);
    if (tx + tz) % 2 == 0 {
        if fz >= fx {
            h00 + fz * (h01 - h00) + fx * (h11 - h01)
        } else {
            h00 + fx * (h10 - h00) + fz * (h11 - h10)
        }
    } else if fx + fz <= 1.0 {
        h00 + fx * (h10 - h00) + fz * (h01 - h00)
    } else {
        h11 + (1.0 - fx) * (h01 - h11) + (1.0 - fz) * (h10 - h11)
    }
}

fn bilinear(grid: &[f32], tx: usize, tz: usize, fx: f32, fz: f32) -> f32 {
    let at = |x: usize, z: usize| grid[z * VERTS + x];
    let south = at(tx, tz) + (at(tx + 1, tz) - at(tx, tz)) * fx;
    let north = at(tx, tz + 1) + (at(tx + 1, tz + 1) - at(tx, tz + 1)) * fx;
    south + (north - south) * fz
}

/// Brightness factor of each height vertex of `region` (1 = flat ground), from the slope by
/// central differences. At the region's border the differences reach into the neighbours'
/// files when they exist, so shading runs on across borders without a seam.
fn shade_grid(scene: &Scene, region: RegionId, mesh: &NavMesh) -> Vec<f32> {
    let neighbour = |dx: i32, dz: i32| -> Option<&NavMesh> {
        if region.is_dungeon() {
            return None;
        }
        let (x, z) = (i32::from(region.x()) + dx, i32::from(region.z()) + dz);
        if !(0..256).contains(&x) || !(0..128).contains(&z) {
            return None;
        }
        scene.mesh(RegionId::new(x as u8, z as u8))
    };
    let (west, east, south, north) = (
        neighbour(-1, 0),
        neighbour(1, 0),
        neighbour(0, -1),
        neighbour(0, 1),
    );
    let last = VERTS - 1;
    // Height at vertex (vx, vz) for vx, vz in -1..=97 along one axis at a time; a neighbour's
    // vertex 95 (1) lies one step west (east) of this region's vertex 0 (96).
    let along_x = |vx: isize, vz: usize| -> Option<f32> {
        match vx {
            -1 => west.map(|m| vertex(m, last - 1, vz)),
            v if v as usize > last => east.map(|m| vertex(m, 1, vz)),
            v => Some(vertex(mesh, v as usize, vz)),
        }
    };
    let along_z = |vx: usize, vz: isize| -> Option<f32> {
        match vz {
            -1 => south.map(|m| vertex(m, vx, last - 1)),
            v if v as usize > last => north.map(|m| vertex(m, vx, 1)),
            v => Some(vertex(mesh, vx, v as usize)),
        }
    };
    let mut grid = vec![1.0f32; VERTS * VERTS];
    for vz in 0..VERTS {
        for vx in 0..VERTS {
            let (ix, iz) = (vx as isize, vz as isize);
            let slope = |lo: Option<f32>, hi: Option<f32>, centre: f32| -> f32 {
                match (lo, hi) {
                    (Some(a), Some(b)) => (b - a) / 40.0,
                    (None, Some(b)) => (b - centre) / 20.0,
                    (Some(a), None) => (centre - a) / 20.0,
                    (None, None) => 0.0,
                }
            };
            let centre = vertex(mesh, vx, vz);
            let dx = slope(along_x(ix - 1, vz), along_x(ix + 1, vz), centre);
            let dz = slope(along_z(vx, iz - 1), along_z(vx, iz + 1), centre);
            let (nx, ny, nz) = (-dx * RELIEF_EXAGGERATION, 1.0, -dz * RELIEF_EXAGGERATION);
            let len = (nx * nx + ny * ny + nz * nz).sqrt();
            let lambert = (nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2]) / len;
            // Relative to flat ground, so flat ground shows its tint unchanged; the floor keeps
            // slopes facing away from the light from going black (black means blocked).
            grid[vz * VERTS + vx] = (0.4 + 0.6 * lambert / LIGHT[1]).clamp(0.45, 1.3);
        }
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::*;
    use jmxv::F32;

    #[test]
    fn ground_height_follows_the_game_triangles() {
        let mut mesh = NavMesh::default();
        // One tile (0, 0) with a single raised corner (1, 1): on the (0,0)–(1,1) diagonal the
        // height rises linearly; off it, the far triangle's corner decides.
        mesh.heights[VERTS + 1] = F32::from(10.0);
        assert_eq!(ground_height(&mesh, 0, 0, 0.5, 0.5), 5.0);
        assert_eq!(ground_height(&mesh, 0, 0, 0.75, 0.25), 2.5);
        // Tile (1, 0) has the other diagonal: its corner (0, 1) is the raised vertex.
        assert_eq!(ground_height(&mesh, 1, 0, 0.0, 1.0), 10.0);
        assert_eq!(ground_height(&mesh, 1, 0, 0.5, 0.5), 5.0);
        assert!((ground_height(&mesh, 1, 0, 0.9, 0.9) - 1.0).abs() < 1e-5);
    }

    #[test]
    fn height_range_ignores_wild_values() {
        let mut mesh = NavMesh::default();
        for (i, h) in mesh.heights.iter_mut().enumerate() {
            *h = F32::from((i % 100) as f32);
        }
        mesh.heights[7] = F32::from(1e30);
        mesh.heights[8] = F32::from(f32::NAN);
        let r = HeightRange::of(std::iter::once(&mesh));
        // 0..99 is narrower than the least span: widened around its middle, and the wild
        // values did not move the middle.
        assert!((r.hi - r.lo - 300.0).abs() < 1e-3, "{r:?}");
        assert!(((r.lo + r.hi) / 2.0 - 49.5).abs() < 1.0, "{r:?}");
        for (i, h) in mesh.heights.iter_mut().enumerate() {
            *h = F32::from((i % 1000) as f32);
        }
        mesh.heights[7] = F32::from(-1e30);
        let wide = HeightRange::of(std::iter::once(&mesh));
        assert!(
            wide.lo < 10.0 && wide.hi > 990.0 && wide.hi <= 999.0,
            "{wide:?}"
        );
        let flat = HeightRange::of(std::iter::once(&NavMesh::default()));
        assert_eq!((flat.lo, flat.hi), (-150.0, 150.0));
    }
}
