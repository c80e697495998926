//! Pictures of a dungeon, or one floor of it: [`DungeonFloor::of`] gathers a floor from a
//! world's dungeon files, [`render_dungeon`] draws any [`DungeonMap`].

use crate::colour::{height_tint, palette, Colour};
use crate::error::RenderError;
use crate::features::{segment_within, Pens};
use crate::frame::{Frame, MapBox};
use crate::legend::{self, LegendContent};
use crate::objects::{self, Placed};
use crate::overlay::{self, Overlay};
use crate::raster::Canvas;
use crate::terrain::{HeightRange, OUTLINE_MIN_SCALE};
use crate::{Picture, RenderOptions};
use jmxv::bms::NavSection;
use jmxv::bms::ObjectMesh;
use jmxv::dof::DungeonFile;
use jmxv::RegionId;
use silknav::files::DungeonFiles;
use silknav::geometry::TILE;
use silknav::world::dungeon::CollisionCircle;
use std::collections::BTreeMap;

/// What a dungeon picture shows.
#[derive(Debug, Clone, Default)]
pub struct DungeonMap<'a> {
    /// The title line: which dungeon and floor (`dungeon 1  gen_catacomb  floor 0 (B1) of 3`).
    pub title: String,
    /// The blocks drawn.
    pub blocks: Vec<DungeonBlock<'a>>,
    /// The collision circles drawn.
    pub circles: Vec<DungeonCircle>,
    /// The heights the tint spans when [`RenderOptions::tint_range`] is `None`: those of the
    /// whole dungeon, so that its floors drawn apart share their colours. `None`: the drawn
    /// blocks' range.
    pub heights: Option<(f32, f32)>,
}

/// One floor of a dungeon, from its files ([`DungeonFloor::of`]).
#[derive(Debug, Clone)]
pub struct DungeonFloor<'a> {
    /// The picture's content: the floor's blocks and circles, the whole dungeon's heights.
    pub map: DungeonMap<'a>,
    /// The floor drawn: the blocks' floor index.
    pub floor: u32,
    /// Every floor index of the dungeon's blocks, ascending.
    pub floors: Vec<u32>,
}

/// A floor of a dungeon ([`dungeon_floors`]).
#[derive(Debug, Clone, PartialEq)]
pub struct FloorSummary {
    /// The blocks' floor index.
    pub floor: u32,
    /// Its label in the layout, empty without one.
    pub label: String,
    /// The lowest and highest block vertex on it; `[∞, −∞]` when it has no finite one.
    pub heights: [f32; 2],
}

/// The floors of dungeon `region` as `files` hold it, lowest index first.
///
/// # Errors
/// [`RenderError::NoDungeon`], [`RenderError::MissingBlockFile`].
pub fn dungeon_floors(
    files: &DungeonFiles,
    region: RegionId,
) -> Result<Vec<FloorSummary>, RenderError> {
    let (layout, meshes) = layout_and_meshes(files, region)?;
    Ok(floors_of(layout, &meshes))
}

/// Each block's mesh path and mesh, in the layout's order.
type BlockMeshes<'f> = Vec<(&'f str, &'f ObjectMesh)>;

/// The layout the first row of `dungeoninfo.txt` with `region` names, and each block's mesh
/// through its resource.
fn layout_and_meshes(
    files: &DungeonFiles,
    region: RegionId,
) -> Result<(&DungeonFile, BlockMeshes<'_>), RenderError> {
    let Some((_, layout)) = files.layout_of(region) else {
        let dungeons = files
            .info
            .iter()
            .flat_map(|info| info.rows())
            .filter_map(|r| r.region())
            .collect();
        return Err(RenderError::NoDungeon { region, dungeons });
    };
    let meshes = files
        .block_meshes(layout)
        .map_err(RenderError::MissingBlockFile)?;
    Ok((layout, meshes))
}

/// The floors of `layout` whose blocks' meshes are `meshes`, lowest index first.
fn floors_of(layout: &DungeonFile, meshes: &[(&str, &ObjectMesh)]) -> Vec<FloorSummary> {
    let mut floors: BTreeMap<u32, [f32; 2]> = BTreeMap::new();
    for (b, (_, mesh)) in layout.blocks.iter().zip(meshes) {
        let range = floors
            .entry(b.floor_index)
            .or_insert([f32::INFINITY, f32::NEG_INFINITY]);
        for v in mesh.nav.iter().flat_map(|n| &n.vertices) {
            let y = v.position[1].get() + b.position[1].get();
            if y.is_finite() {
                *range = [range[0].min(y), range[1].max(y)];
            }
        }
    }
    floors
        .into_iter()
        .map(|(floor, heights)| FloorSummary {
            floor,
            label: layout
                .labels
                .as_ref()
                .and_then(|l| l.floors.get(floor as usize))
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .unwrap_or_default(),
            heights,
        })
        .collect()
}

impl<'a> DungeonFloor<'a> {
    /// Floor `floor` (the lowest when `None`) of dungeon `region` as `files` hold it: the
    /// layout the first row of `dungeoninfo.txt` with that region names, each block's mesh
    /// through its resource, and the collision circles placed as the world places them
    /// ([`CollisionCircle::of_layout`]).
    ///
    /// # Errors
    /// [`RenderError::NoDungeon`], [`RenderError::MissingBlockFile`],
    /// [`RenderError::NoFloor`].
    pub fn of(
        files: &'a DungeonFiles,
        region: RegionId,
        floor: Option<u32>,
    ) -> Result<DungeonFloor<'a>, RenderError> {
        let (layout, meshes) = layout_and_meshes(files, region)?;
        let summaries = floors_of(layout, &meshes);
        let floors: Vec<u32> = summaries.iter().map(|f| f.floor).collect();
        let index = match floor {
            Some(f) if floors.contains(&f) => f,
            Some(f) => return Err(RenderError::NoFloor { floor: f, floors }),
            None => *floors.first().ok_or(RenderError::NoBlocks)?,
        };
        let blocks = layout
            .blocks
            .iter()
            .zip(&meshes)
            .filter(|(b, _)| b.floor_index == index)
            .filter_map(|(b, (_, mesh))| {
                Some(DungeonBlock {
                    nav: mesh.nav.as_ref()?,
                    position: b.position.map(|c| f64::from(c.get())),
                    yaw: f64::from(b.yaw.get()),
                })
            })
            .collect();
        let circles = CollisionCircle::of_layout(layout)
            .into_iter()
            .filter(|c| layout.blocks[c.block as usize].floor_index == index)
            .map(|c| DungeonCircle {
                centre: c.centre.map(f64::from),
                radius: f64::from(c.radius),
            })
            .collect();
        let label = summaries
            .iter()
            .find(|f| f.floor == index && !f.label.is_empty())
            .map(|f| format!(" ({})", f.label))
            .unwrap_or_default();
        let title = format!(
            "dungeon {}  {}  floor {index}{label} of {}",
            region.0 & 0x7FFF,
            String::from_utf8_lossy(&layout.info.name),
            floors.len()
        );
        let (lo, hi) = summaries
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), f| {
                (lo.min(f.heights[0]), hi.max(f.heights[1]))
            });
        Ok(DungeonFloor {
            map: DungeonMap {
                title,
                blocks,
                circles,
                heights: (lo < hi).then_some((lo, hi)),
            },
            floor: index,
            floors,
        })
    }
}

/// A block placed in its dungeon.
#[derive(Debug, Clone, Copy)]
pub struct DungeonBlock<'a> {
    /// The navigation section of the block's mesh.
    pub nav: &'a NavSection,
    /// Where the mesh's origin goes, dungeon x, y, z.
    pub position: [f64; 3],
    /// Rotation about +y, radians, applied before the move.
    pub yaw: f64,
}

/// A collision circle of a block's objects, in the dungeon's x, z.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DungeonCircle {
    /// The centre, dungeon x and z.
    pub centre: [f64; 2],
    /// The radius.
    pub radius: f64,
}

/// Units of margin round the blocks.
const MARGIN: f64 = 40.0;
/// Sides of the polygon a circle is drawn as.
const CIRCLE_SIDES: usize = 48;

/// Draws the blocks and circles of `map`, then `overlay` (paths and pins in the dungeon's
/// coordinates) over them, north (+z) up.
///
/// A dungeon has no terrain: the map is dark where no block has a floor, and each block's
/// cells are filled in the height tint (spanning [`RenderOptions::tint_range`], else
/// [`DungeonMap::heights`], else the drawn blocks' range), with thin cell outlines, then its
/// walls, doorways and links as [`crate::render_world`] draws objects, and the collision
/// circles in amber. The map covers the blocks' placed vertices and the circles, with two
/// tiles (40 units) of margin, its edges on multiples of 20 units.
/// [`RenderOptions::region`] and [`RenderOptions::area`] do not apply; the scale and size
/// rules are those of [`crate::render`].
///
/// # Errors
/// [`RenderError::NoBlocks`] when no block has a finite vertex, and the size errors of
/// [`crate::render`].
pub fn render_dungeon(
    map: &DungeonMap<'_>,
    options: &RenderOptions,
    overlay: &Overlay,
) -> Result<Picture, RenderError> {
    let vertices = || {
        map.blocks.iter().flat_map(|b| {
            let placed = Placed {
                at: b.position,
                yaw: b.yaw,
            };
            (0..b.nav.vertices.len()).filter_map(move |v| placed.vertex(b.nav, v as u16))
        })
    };
    let grow = |b: [f64; 4], x: f64, z: f64| [b[0].min(x), b[1].min(z), b[2].max(x), b[3].max(z)];
    let first = vertices().next().ok_or(RenderError::NoBlocks)?;
    let mut bounds = [first[0], first[2], first[0], first[2]];
    for p in vertices() {
        bounds = grow(bounds, p[0], p[2]);
    }
    for c in &map.circles {
        let r = c.radius;
        if [c.centre[0], c.centre[1], r].iter().all(|v| v.is_finite()) {
            bounds = grow(bounds, c.centre[0] - r, c.centre[1] - r);
            bounds = grow(bounds, c.centre[0] + r, c.centre[1] + r);
        }
    }
    let [x0, z0, x1, z1] = bounds;
    let snap_down = |v: f64| ((v - MARGIN) / TILE).floor() * TILE;
    let snap_up = |v: f64| ((v + MARGIN) / TILE).ceil() * TILE;
    let tiles = |lo: f64, hi: f64| ((hi - lo) / TILE).clamp(1.0, f64::from(u32::MAX)) as u32;
    let (bx0, bz0) = (snap_down(x0), snap_down(z0));
    let map_box = MapBox {
        x0: bx0,
        z0: bz0,
        tiles_w: tiles(bx0, snap_up(x1)),
        tiles_h: tiles(bz0, snap_up(z1)),
    };

    let heights = match options.tint_range.or(map.heights) {
        Some((lo, hi)) if lo.is_finite() && hi.is_finite() && lo < hi => HeightRange { lo, hi },
        _ => {
            let (lo, hi) = vertices()
                .map(|p| p[1] as f32)
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), y| {
                    (lo.min(y), hi.max(y))
                });
            if hi - lo >= 1.0 {
                HeightRange { lo, hi }
            } else {
                HeightRange {
                    lo: lo - 1.0,
                    hi: lo + 1.0,
                }
            }
        }
    };
    let layers = options.layers;
    let mut shown = objects::Shown::default();
    for b in &map.blocks {
        shown.add(b.nav);
    }
    shown.floor = false; // the floors are the ground, in the height tint
    let mut content = LegendContent {
        dungeon: true,
        cell_outlines: layers.cell_outlines,
        circles: layers.objects && !map.circles.is_empty(),
        paths: !overlay.paths.is_empty(),
        object_meshes: shown,
        ..LegendContent::default()
    };
    let cells: usize = map.blocks.iter().map(|b| b.nav.cells.len()).sum();
    let subtitle = format!(
        "{} blocks · {cells} cells · {} collision circles",
        map.blocks.len(),
        map.circles.len()
    );
    let title_lines = layers
        .title
        .then_some((map.title.as_str(), subtitle.as_str()));
    let layout = |content: LegendContent| {
        Frame::new(map_box, options.scale, options.max_size, |text| {
            legend::chrome(text, title_lines, layers.legend, content)
        })
    };
    let mut frame = layout(content)?;
    if frame.scale() < OUTLINE_MIN_SCALE && content.cell_outlines {
        content.cell_outlines = false;
        frame = layout(content)?;
    }

    let mut canvas = Canvas::new(frame.width, frame.height, palette::PAPER);
    let m = frame.map;
    let (mx, my) = (i64::from(m.x), i64::from(m.y));
    let (mx1, my1) = (mx + i64::from(m.w), my + i64::from(m.h));
    canvas.fill_rect(mx, my, mx1, my1, palette::BLOCKED, 1.0);
    let pens = Pens::for_scale(frame.scale());
    let edge = [mx, my, mx1, my1];
    let tint = |corners: &[[f64; 3]; 3]| -> Colour {
        let y = (corners[0][1] + corners[1][1] + corners[2][1]) / 3.0;
        height_tint(((y as f32) - heights.lo) / (heights.hi - heights.lo))
    };
    // Floors first, lines after, so that no block's fill hides another's walls.
    for b in &map.blocks {
        let placed = Placed {
            at: b.position,
            yaw: b.yaw,
        };
        objects::fill_cells(&mut canvas, &frame, b.nav, placed, &tint);
    }
    if content.cell_outlines {
        for b in &map.blocks {
            let placed = Placed {
                at: b.position,
                yaw: b.yaw,
            };
            for cell in &b.nav.cells {
                let corners = cell.vertices.map(|v| placed.vertex(b.nav, v));
                if let [Some(p), Some(q), Some(r)] = corners {
                    let colour = tint(&[p, q, r]).scaled(0.72);
                    for (a, c) in [(p, q), (q, r), (r, p)] {
                        let (a, c) = ([a[0], a[2]], [c[0], c[2]]);
                        segment_within(&mut canvas, &frame, m, edge, a, c, 1, colour);
                    }
                }
            }
        }
    }
    if layers.objects {
        for b in &map.blocks {
            let placed = Placed {
                at: b.position,
                yaw: b.yaw,
            };
            objects::draw_lines(&mut canvas, &frame, edge, b.nav, placed, pens);
        }
        for c in &map.circles {
            draw_circle(&mut canvas, &frame, edge, *c, pens.wall);
        }
    }
    canvas.stroke_rect(mx - 1, my - 1, mx1 + 1, my1 + 1, 1, palette::INK);
    overlay::draw(&mut canvas, &frame, overlay);
    if layers.title {
        legend::draw_title(&mut canvas, &frame, &map.title, &subtitle);
    }
    if layers.legend {
        legend::draw_legend(&mut canvas, &frame, content, heights, pens);
    }
    Ok(Picture { canvas, frame })
}

/// Strokes a circle as a polygon of [`CIRCLE_SIDES`] sides.
fn draw_circle(canvas: &mut Canvas, frame: &Frame, edge: [i64; 4], c: DungeonCircle, width: i64) {
    if !(c.radius.is_finite() && c.radius > 0.0) {
        return;
    }
    let at = |i: usize| {
        let a = std::f64::consts::TAU * i as f64 / CIRCLE_SIDES as f64;
        [
            c.centre[0] + c.radius * a.cos(),
            c.centre[1] + c.radius * a.sin(),
        ]
    };
    for i in 0..CIRCLE_SIDES {
        let (a, b) = (at(i), at(i + 1));
        segment_within(
            canvas,
            frame,
            frame.map,
            edge,
            a,
            b,
            width,
            palette::COLLISION,
        );
    }
}
