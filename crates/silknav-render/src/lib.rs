//! Pictures of Silkroad Online navmesh regions and worlds, readable at a glance.
//!
//! [`render`] draws a map of regions — one [`NavMesh`] per [`RegionId`], as read from files or
//! made by `silknav::worldgen::generate` — into a [`Picture`], north (+z) up:
//!
//! - the ground: heights shaded by a light from the north-west and tinted in bands from
//!   lowland green through tan and brown to white peaks; blocked tiles and closed cells dark
//!   grey;
//! - thin outlines of the cells, so large cells and fragmented ground tell apart;
//! - walls (blocked internal edges) in red-orange; region borders in magenta, crossed by a pale
//!   tick at each end of every global edge;
//! - object meshes placed by their instances' transforms, when given ([`render_world`]):
//!   floors and decks filled tan, walls dark brown, doorways green, links blue, underpass
//!   sides grey, siege lines crimson;
//! - markers for the other object instances, each once: filled yellow when its owner region
//!   is drawn, hollow cyan when only a neighbour's listing of it is;
//! - water planes blue where the ground lies below them (darker over blocked tiles), ice pale
//!   cyan;
//! - a title naming the regions with their counts, and a legend of the classes shown, with a
//!   height bar and a scale bar.
//!
//! [`render_dungeon`] draws a dungeon, or one floor of it ([`DungeonFloor`]), from its placed
//! blocks ([`DungeonMap`]).
//!
//! [`render_world`] draws the object meshes ([`ObjectShapes`]) too, and
//! [`render_with_overlay`] adds an [`Overlay`] of paths and labelled [`Pin`]s on top, in world
//! coordinates. [`RenderOptions`] picks one region (or a rectangle of them,
//! [`RenderOptions::area`], with a fixed [`RenderOptions::tint_range`]: the tiles of a map
//! viewer, each exactly its part of the whole picture), the scale, the size limit and the
//! [`Layers`]; [`Picture`] gives pixels, the map's place in the picture, the world-to-pixel
//! mapping and PNG bytes, of the whole picture or the map alone ([`Picture::encode_map_png`])
//! (written by the crate's own encoder, several times smaller than
//! tiny-skia's fastest-setting output).
//!
//! ```
//! use jmxv::{nvm::NavMesh, RegionId};
//! use std::collections::BTreeMap;
//!
//! let world = BTreeMap::from([(RegionId::new(128, 64), NavMesh::default())]);
//! let picture = silknav_render::render(&world, &Default::default())?;
//! assert_eq!(picture.scale(), 8.0, "a single region gets 8 pixels per tile");
//! let png = picture.encode_png();
//! assert_eq!(&png[1..4], b"PNG");
//! # Ok::<(), silknav_render::RenderError>(())
//! ```
//!
//! Unless a scale is given, it is chosen so the picture stays within
//! [`RenderOptions::max_size`] (4096 pixels by default); any picture beyond [`MAX_SIDE`] or
//! [`MAX_PIXELS`] is refused before anything is allocated. A 16×16 world at the automatic
//! two pixels per tile renders in under a second.

mod colour;
mod dungeon;
mod error;
mod features;
mod font;
mod frame;
mod legend;
mod objects;
mod options;
mod overlay;
mod picture;
mod png;
mod raster;
mod scene;
mod terrain;

pub use colour::{palette, Colour};
pub use dungeon::{
    dungeon_floors, render_dungeon, DungeonBlock, DungeonCircle, DungeonFloor, DungeonMap,
    FloorSummary,
};
pub use error::RenderError;
pub use frame::{MAX_PIXELS, MAX_SIDE};
pub use objects::{object_shapes, ObjectShapes};
pub use options::{Layers, RegionRect, RenderOptions, DEFAULT_MAX_SIZE};
pub use overlay::{Overlay, Pin, PATH_COLOURS, PATH_COLOUR_NAMES};
pub use picture::{Area, Picture};

use features::{is_wall, Pens};
use frame::{Extent, Frame};
use jmxv::nvm::NavMesh;
use jmxv::RegionId;
use legend::LegendContent;
use raster::Canvas;
use scene::Scene;
use std::collections::BTreeMap;
use terrain::HeightRange;

/// Draws the regions of `regions` (or the one named by [`RenderOptions::region`]).
///
/// Dungeon regions (id bit 15) have no place on the world map and are skipped unless asked
/// for by name. Places of the bounding rectangle without a region are hatched grey.
///
/// # Errors
/// [`RenderError::NoRegions`], [`RenderError::RegionNotInWorld`], [`RenderError::BadScale`],
/// [`RenderError::TooLarge`], [`RenderError::MaxSizeTooSmall`].
pub fn render(
    regions: &BTreeMap<RegionId, NavMesh>,
    options: &RenderOptions,
) -> Result<Picture, RenderError> {
    render_with_overlay(regions, options, &Overlay::default())
}

/// Draws like [`render`], then `overlay` over the map.
///
/// # Errors
/// As for [`render`].
pub fn render_with_overlay(
    regions: &BTreeMap<RegionId, NavMesh>,
    options: &RenderOptions,
    overlay: &Overlay,
) -> Result<Picture, RenderError> {
    render_world(regions, &ObjectShapes::new(), options, overlay)
}

/// Draws like [`render_with_overlay`], with each object instance whose id has a mesh in
/// `objects` drawn as that mesh, placed by the instance's yaw and position.
///
/// # Errors
/// As for [`render`].
pub fn render_world(
    regions: &BTreeMap<RegionId, NavMesh>,
    objects: &ObjectShapes<'_>,
    options: &RenderOptions,
    overlay: &Overlay,
) -> Result<Picture, RenderError> {
    let place = |r: RegionId| (i32::from(r.x()), i32::from(r.z()));
    let drawn: BTreeMap<(i32, i32), RegionId> = match options.region {
        Some(r) if regions.contains_key(&r) => BTreeMap::from([(place(r), r)]),
        Some(r) => return Err(RenderError::RegionNotInWorld(r)),
        None => regions
            .keys()
            .filter(|r| !r.is_dungeon())
            .filter(|&&r| options.area.map_or(true, |a| a.contains(r)))
            .map(|&r| (place(r), r))
            .collect(),
    };
    let extent = match options.area {
        Some(a) if options.region.is_none() && !drawn.is_empty() => Extent {
            x0: i32::from(a.x0),
            z0: i32::from(a.z0),
            cols: u32::from(a.x1.saturating_sub(a.x0)) + 1,
            rows: u32::from(a.z1.saturating_sub(a.z0)) + 1,
        },
        _ => Extent::around(drawn.values().copied()).ok_or(RenderError::NoRegions)?,
    };
    let layers = options.layers;
    let meshes = || {
        drawn
            .values()
            .filter_map(|&r| regions.get(&r).map(|m| (r, m)))
    };
    // Around an area, the regions next to it: their walls and objects reach into the map.
    let ring: Vec<RegionId> = match options.area {
        Some(_) if options.region.is_none() => regions
            .keys()
            .copied()
            .filter(|r| !r.is_dungeon() && !drawn.contains_key(&place(*r)))
            .filter(|r| {
                let (x, z) = place(*r);
                x >= extent.x0 - 1
                    && x <= extent.x0 + extent.cols as i32
                    && z >= extent.z0 - 1
                    && z <= extent.z0 + extent.rows as i32
            })
            .collect(),
        _ => Vec::new(),
    };
    let featured = || meshes().chain(ring.iter().filter_map(|&r| regions.get(&r).map(|m| (r, m))));
    let markers = features::markers(featured());
    let (shaped, plain): (Vec<&features::Marker>, Vec<&features::Marker>) = markers
        .iter()
        .partition(|m| objects.contains_key(&m.object_id));
    let mut content = legend_content(meshes(), &plain, &layers, overlay);
    if layers.objects {
        let shaped: Vec<features::Marker> = shaped.iter().map(|m| **m).collect();
        content.object_meshes = objects::shown(&shaped, objects);
    }
    content.holes = drawn.len() < (extent.cols * extent.rows) as usize;
    content.region_borders &= extent.cols * extent.rows > 1;
    let (title, subtitle) = titles(&drawn, extent, meshes(), markers.len());
    let title_lines = layers.title.then_some((title.as_str(), subtitle.as_str()));
    let layout = |content: LegendContent| {
        Frame::new(extent.map_box(), options.scale, options.max_size, |text| {
            legend::chrome(text, title_lines, layers.legend, content)
        })
    };
    let mut frame = layout(content)?;
    if frame.scale() < terrain::OUTLINE_MIN_SCALE && content.cell_outlines {
        // Too small a scale for outlines: lay out again without their legend line (a smaller
        // legend, so the picture still fits).
        content.cell_outlines = false;
        frame = layout(content)?;
    }
    let heights = match options.tint_range {
        Some((lo, hi)) if lo.is_finite() && hi.is_finite() && lo < hi => HeightRange { lo, hi },
        _ => HeightRange::of(meshes().map(|(_, m)| m)),
    };
    let scene = Scene {
        meshes: regions,
        drawn,
        frame,
        heights,
        ring,
        extent,
    };

    let mut canvas = Canvas::new(frame.width, frame.height, palette::PAPER);
    terrain::draw(&scene, &mut canvas, &layers);
    let pens = Pens::for_scale(frame.scale());
    if layers.region_borders {
        features::draw_borders(&mut canvas, &scene, pens);
    }
    if layers.walls {
        features::draw_walls(&mut canvas, &scene, pens);
    }
    if layers.objects {
        let shaped: Vec<features::Marker> = shaped.iter().map(|m| **m).collect();
        objects::draw(&mut canvas, &scene, &shaped, objects, pens);
        features::draw_objects(&mut canvas, &scene, &plain, pens);
    }
    let m = frame.map;
    let (mx, my) = (i64::from(m.x), i64::from(m.y));
    canvas.stroke_rect(
        mx - 1,
        my - 1,
        mx + i64::from(m.w) + 1,
        my + i64::from(m.h) + 1,
        1,
        palette::INK,
    );
    overlay::draw(&mut canvas, &frame, overlay);
    if layers.title {
        legend::draw_title(&mut canvas, &frame, &title, &subtitle);
    }
    if layers.legend {
        legend::draw_legend(&mut canvas, &frame, content, heights, pens);
    }
    Ok(Picture { canvas, frame })
}

/// The heights the tint spans for these regions (the extreme half percent at each end left
/// out, so that a few wild values do not flatten the tint of the rest), for
/// [`RenderOptions::tint_range`].
pub fn tint_range<'a>(meshes: impl Iterator<Item = &'a NavMesh> + Clone) -> (f32, f32) {
    let range = HeightRange::of(meshes);
    (range.lo, range.hi)
}

/// Which classes the picture will show.
fn legend_content<'a>(
    meshes: impl Iterator<Item = (RegionId, &'a NavMesh)>,
    markers: &[&features::Marker],
    layers: &Layers,
    overlay: &Overlay,
) -> LegendContent {
    let mut c = LegendContent {
        cell_outlines: layers.cell_outlines,
        region_borders: layers.region_borders,
        objects: layers.objects && markers.iter().any(|m| !m.foreign),
        foreign_objects: layers.objects && markers.iter().any(|m| m.foreign),
        paths: !overlay.paths.is_empty(),
        ..LegendContent::default()
    };
    for (_, mesh) in meshes {
        c.blocked |= mesh.tiles.iter().any(|t| t.is_blocked())
            || (mesh.open_cell_count as usize) < mesh.cells.len();
        c.walls |= layers.walls && mesh.internal_edges.iter().any(|e| is_wall(e.flag));
        c.global_edges |= layers.region_borders && !mesh.global_edges.is_empty();
        let planes = &mesh.planes.types;
        c.water |= layers.water && planes.iter().any(|&t| t & jmxv::nvm::PLANE_WATER != 0);
        c.ice |= layers.water && planes.iter().any(|&t| t & jmxv::nvm::PLANE_ICE != 0);
    }
    c
}

/// The title (which regions) and subtitle (what they hold).
fn titles<'a>(
    drawn: &BTreeMap<(i32, i32), RegionId>,
    e: Extent,
    meshes: impl Iterator<Item = (RegionId, &'a NavMesh)>,
    objects: usize,
) -> (String, String) {
    let stem = |r: RegionId| r.file_name().trim_end_matches(".nvm").to_string();
    let title = match drawn.values().next() {
        Some(&r) if drawn.len() == 1 => format!("{}  region x {} z {}", stem(r), r.x(), r.z()),
        _ => {
            let first = RegionId::new(e.x0 as u8, e.z0 as u8);
            let last = RegionId::new(
                (e.x0 + e.cols as i32 - 1) as u8,
                (e.z0 + e.rows as i32 - 1) as u8,
            );
            let count = if drawn.len() < (e.cols * e.rows) as usize {
                format!("{} of {}×{} regions", drawn.len(), e.cols, e.rows)
            } else {
                format!("{}×{} regions", e.cols, e.rows)
            };
            format!("{}..{}  {}", stem(first), stem(last), count)
        }
    };
    let (mut cells, mut open, mut walls) = (0usize, 0usize, 0usize);
    for (_, mesh) in meshes {
        cells += mesh.cells.len();
        open += (mesh.open_cell_count as usize).min(mesh.cells.len());
        walls += mesh
            .internal_edges
            .iter()
            .filter(|e| is_wall(e.flag))
            .count();
    }
    let subtitle = format!("{cells} cells ({open} open) · {walls} walls · {objects} objects");
    (title, subtitle)
}
