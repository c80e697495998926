//! Map tiles for the viewer: square PNG pictures of blocks of regions, and pictures of
//! dungeon floors, drawn on demand by [`silknav_render`] and kept in a cache of bounded size.
//!
//! `GET /api/tile/{level}/{tx}/{tz}?layers=heights,cells,walls,objects,water` is the block of
//! `2^level × 2^level` regions (one region for levels -1 and 0) whose south-west region is
//! `(tx·2^level, tz·2^level)`, drawn at `4 / 2^level` pixels per 20-unit tile: 384 pixels a
//! side (768 at level -1, 8 pixels per tile), north up. `layers` picks what is drawn (all
//! when absent); region borders are not in tiles, the viewer draws them over.
//! Tiles of one world meet without a seam: each is exactly its part of the picture of the
//! whole world (`silknav-render`'s tests check this pixel by pixel).
//!
//! `GET /api/dungeons` lists the loaded dungeons with their floors, and
//! `GET /api/dungeon/{id}/{floor}` is the map of one floor ([`silknav_render::render_dungeon`],
//! 8 pixels per tile, the tint spanning the whole dungeon), with the dungeon box it covers in
//! the header `x-map-bounds: X0 Z0 X1 Z1`.

use crate::error::ApiError;
use crate::Shared;
use axum::extract::{Path, RawQuery, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use jmxv::RegionId;
use silknav::files::WorldFiles;
use silknav::World;
use silknav_render::{Layers, RegionRect, RenderOptions};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// The levels tiles are drawn at, most detailed first.
pub const LEVELS: [i32; 7] = [-1, 0, 1, 2, 3, 4, 5];

/// What a tile shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileLayers {
    /// Height tint and relief.
    pub heights: bool,
    /// Cell outlines (drawn from 2 pixels per tile up).
    pub cells: bool,
    /// Blocked edges.
    pub walls: bool,
    /// Object meshes and markers.
    pub objects: bool,
    /// Water and ice planes.
    pub water: bool,
}

impl TileLayers {
    /// Every layer.
    pub const ALL: TileLayers = TileLayers {
        heights: true,
        cells: true,
        walls: true,
        objects: true,
        water: true,
    };

    /// The layers of a comma-separated list of names (`heights,walls`); empty for none.
    ///
    /// # Errors
    /// A name that is not a layer's.
    pub fn parse(list: &str) -> Result<TileLayers, String> {
        let mut layers = TileLayers {
            heights: false,
            cells: false,
            walls: false,
            objects: false,
            water: false,
        };
        for name in list.split(',').filter(|n| !n.is_empty()) {
            let on = match name {
                "heights" => &mut layers.heights,
                "cells" => &mut layers.cells,
                "walls" => &mut layers.walls,
                "objects" => &mut layers.objects,
                "water" => &mut layers.water,
                _ => {
                    return Err(format!(
                    "unknown layer {name:?}; the layers are heights, cells, walls, objects, water"
                ))
                }
            };
            *on = true;
        }
        Ok(layers)
    }

    fn render_layers(self) -> Layers {
        Layers {
            relief: self.heights,
            tint: self.heights,
            cell_outlines: self.cells,
            walls: self.walls,
            region_borders: false,
            objects: self.objects,
            water: self.water,
            title: false,
            legend: false,
        }
    }
}

/// One tile: level, block, layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileKey {
    /// The level, one of [`LEVELS`].
    pub level: i32,
    /// Block column: its west region is `tx · 2^level`.
    pub tx: u32,
    /// Block row: its south region is `tz · 2^level`.
    pub tz: u32,
    /// What it shows.
    pub layers: TileLayers,
}

impl TileKey {
    /// Regions along a side of the block.
    fn side(self) -> u32 {
        1 << self.level.max(0)
    }

    /// Pixels per 20-unit tile.
    fn scale(self) -> f32 {
        4.0 / 2f32.powi(self.level)
    }

    /// The block's rectangle of regions, or `None` past the id space.
    fn rect(self) -> Option<RegionRect> {
        let side = self.side();
        let (x0, z0) = (self.tx.checked_mul(side)?, self.tz.checked_mul(side)?);
        if x0 > 255 || z0 > 255 {
            return None;
        }
        Some(RegionRect {
            x0: x0 as u8,
            z0: z0 as u8,
            x1: (x0 + side - 1).min(255) as u8,
            z1: (z0 + side - 1).min(255) as u8,
        })
    }
}

/// Pixels per tile of a dungeon floor's map.
const DUNGEON_SCALE: f32 = 8.0;

/// A picture the cache holds: a tile or a dungeon floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Drawing {
    Tile(TileKey),
    /// Dungeon id, floor.
    Floor(u16, u32),
}

/// A drawn map: PNG bytes and the world (or dungeon) box they cover, `[x0, z0, x1, z1]`.
#[derive(Debug)]
pub struct DrawnMap {
    /// The PNG.
    pub png: Vec<u8>,
    /// West, south, east and north edges.
    pub bounds: [f64; 4],
}

/// A loaded dungeon as `GET /api/dungeons` lists it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DungeonEntry {
    /// Its id in `dungeoninfo.txt`.
    pub id: u16,
    /// Its region, `0x8000 | id`, as 4 hex digits.
    pub region: String,
    /// The layout's name.
    pub name: String,
    /// Its blocks.
    pub blocks: usize,
    /// Its floors, lowest index first.
    pub floors: Vec<FloorEntry>,
}

/// A floor of a dungeon.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FloorEntry {
    /// The blocks' floor index.
    pub floor: u32,
    /// Its label in the layout, empty without one.
    pub name: String,
    /// The lowest and highest block vertex on it.
    pub heights: [f32; 2],
}

/// Draws tiles from a world's files and keeps the latest in a cache of bounded bytes.
pub(crate) struct TileMaker {
    files: WorldFiles,
    tint: (f32, f32),
    /// The dungeons the world loaded.
    dungeons: Vec<RegionId>,
    cache: Mutex<Cache>,
}

#[derive(Default)]
struct Cache {
    tiles: HashMap<Drawing, Arc<DrawnMap>>,
    order: VecDeque<Drawing>,
    bytes: usize,
    max_bytes: usize,
}

impl Cache {
    fn insert(&mut self, key: Drawing, png: Arc<DrawnMap>) {
        if png.png.len() > self.max_bytes || self.tiles.contains_key(&key) {
            return;
        }
        self.bytes += png.png.len();
        self.tiles.insert(key, png);
        self.order.push_back(key);
        while self.bytes > self.max_bytes {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if let Some(gone) = self.tiles.remove(&old) {
                self.bytes -= gone.png.len();
            }
        }
    }
}

impl TileMaker {
    /// Tiles of the regions `world` loaded, drawn from `files`.
    pub fn new(world: &World, mut files: WorldFiles, max_bytes: usize) -> TileMaker {
        files.navmeshes.retain(|&r, _| world.contains(r));
        let tint = silknav_render::tint_range(files.navmeshes.values());
        TileMaker {
            files,
            tint,
            dungeons: world.dungeons().map(|d| d.region()).collect(),
            cache: Mutex::new(Cache {
                max_bytes,
                ..Cache::default()
            }),
        }
    }

    /// Whether a block has a region to draw.
    fn has_regions(&self, rect: RegionRect) -> bool {
        let lo = RegionId::new(rect.x0, rect.z0);
        let hi = RegionId::new(rect.x1, rect.z1);
        self.files
            .navmeshes
            .range(lo..=hi)
            .any(|(&r, _)| rect.contains(r))
    }

    /// The PNG of a tile, from the cache or drawn now.
    ///
    /// # Errors
    /// No region in the block, or the block is past the id space (not found).
    pub fn tile(&self, key: TileKey) -> Result<Arc<DrawnMap>, ApiError> {
        let cached = self.lock().tiles.get(&Drawing::Tile(key)).cloned();
        if let Some(png) = cached {
            return Ok(png);
        }
        let not_found = || {
            ApiError::NotFound(format!(
                "no region in tile {}/{}/{}",
                key.level, key.tx, key.tz
            ))
        };
        let rect = key.rect().ok_or_else(not_found)?;
        if !self.has_regions(rect) {
            return Err(not_found());
        }
        let shapes = match &self.files.object_ifo {
            Some(ifo) => silknav_render::object_shapes(ifo, &self.files.object_files),
            None => Default::default(),
        };
        let options = RenderOptions {
            scale: Some(key.scale()),
            area: Some(rect),
            tint_range: Some(self.tint),
            layers: key.layers.render_layers(),
            ..RenderOptions::default()
        };
        let picture = silknav_render::render_world(
            &self.files.navmeshes,
            &shapes,
            &options,
            &Default::default(),
        )
        .map_err(|e| ApiError::Internal(format!("drawing the tile: {e}")))?;
        let png = Arc::new(DrawnMap {
            png: picture.encode_map_png(),
            bounds: picture.map_bounds(),
        });
        self.lock().insert(Drawing::Tile(key), png.clone());
        Ok(png)
    }

    /// The loaded dungeons, with their floors, by id.
    pub fn dungeons(&self) -> Vec<DungeonEntry> {
        let mut out = Vec::new();
        for &region in &self.dungeons {
            let Some((_, layout)) = self.files.dungeons.layout_of(region) else {
                continue;
            };
            let Ok(floors) = silknav_render::dungeon_floors(&self.files.dungeons, region) else {
                continue;
            };
            out.push(DungeonEntry {
                id: region.0 & 0x7FFF,
                region: format!("{region}"),
                name: String::from_utf8_lossy(&layout.info.name).into_owned(),
                blocks: layout.blocks.len(),
                floors: floors
                    .into_iter()
                    .map(|f| FloorEntry {
                        floor: f.floor,
                        name: f.label,
                        heights: f.heights,
                    })
                    .collect(),
            });
        }
        out
    }

    /// The map of one floor of a loaded dungeon, from the cache or drawn now.
    ///
    /// # Errors
    /// The dungeon is not loaded, or has no such floor (not found).
    pub fn dungeon_floor(&self, id: u16, floor: u32) -> Result<Arc<DrawnMap>, ApiError> {
        let key = Drawing::Floor(id, floor);
        let cached = self.lock().tiles.get(&key).cloned();
        if let Some(png) = cached {
            return Ok(png);
        }
        let region = RegionId(0x8000 | id);
        if !self.dungeons.contains(&region) {
            let loaded: Vec<String> = self
                .dungeons
                .iter()
                .map(|r| (r.0 & 0x7FFF).to_string())
                .collect();
            return Err(ApiError::NotFound(format!(
                "dungeon {id} is not loaded; loaded dungeons: {}",
                if loaded.is_empty() {
                    "none".to_owned()
                } else {
                    loaded.join(", ")
                }
            )));
        }
        let drawn = silknav_render::DungeonFloor::of(&self.files.dungeons, region, Some(floor))
            .map_err(|e| ApiError::NotFound(format!("dungeon {id}: {e}")))?;
        let options = RenderOptions {
            scale: Some(DUNGEON_SCALE),
            layers: Layers {
                title: false,
                legend: false,
                ..Layers::default()
            },
            ..RenderOptions::default()
        };
        let picture = silknav_render::render_dungeon(&drawn.map, &options, &Default::default())
            .map_err(|e| ApiError::Internal(format!("drawing dungeon {id} floor {floor}: {e}")))?;
        let png = Arc::new(DrawnMap {
            png: picture.encode_map_png(),
            bounds: picture.map_bounds(),
        });
        self.lock().insert(key, png.clone());
        Ok(png)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Cache> {
        // A panic while holding the lock leaves a consistent cache (inserts finish or not).
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `GET /api/tile/{level}/{tx}/{tz}`.
pub(crate) async fn endpoint(
    State(shared): State<Arc<Shared>>,
    Path((level, tx, tz)): Path<(String, String, String)>,
    RawQuery(query): RawQuery,
) -> Response {
    match tile_key(&level, &tx, &tz, query.as_deref()) {
        Ok(key) => {
            let limits = shared.limits;
            let work = tokio::task::spawn_blocking(move || shared.tiles.tile(key));
            match tokio::time::timeout(limits.timeout, work).await {
                Ok(Ok(Ok(png))) => png_response(&png, false),
                Ok(Ok(Err(e))) => e.into_response(),
                Ok(Err(e)) => ApiError::Internal(format!("drawing the tile: {e}")).into_response(),
                Err(_) => crate::queries::timeout_error(&limits).into_response(),
            }
        }
        Err(e) => e.into_response(),
    }
}

/// `GET /api/dungeons`.
pub(crate) async fn dungeons(State(shared): State<Arc<Shared>>) -> Response {
    axum::Json(shared.tiles.dungeons()).into_response()
}

/// `GET /api/dungeon/{id}/{floor}`.
pub(crate) async fn dungeon_endpoint(
    State(shared): State<Arc<Shared>>,
    Path((id, floor)): Path<(String, String)>,
) -> Response {
    let id = match id.parse::<u16>() {
        Ok(id) if id <= 0x7FFF => id,
        _ => {
            return ApiError::bad(
                "id",
                format!("expected a dungeon id from 0 to 32767, found {id:?}"),
            )
            .into_response()
        }
    };
    let Ok(floor) = floor.parse::<u32>() else {
        return ApiError::bad("floor", format!("expected a whole number, found {floor:?}"))
            .into_response();
    };
    let limits = shared.limits;
    let work = tokio::task::spawn_blocking(move || shared.tiles.dungeon_floor(id, floor));
    match tokio::time::timeout(limits.timeout, work).await {
        Ok(Ok(Ok(png))) => png_response(&png, true),
        Ok(Ok(Err(e))) => e.into_response(),
        Ok(Err(e)) => ApiError::Internal(format!("drawing the floor: {e}")).into_response(),
        Err(_) => crate::queries::timeout_error(&limits).into_response(),
    }
}

/// A PNG answer; with `bounds`, the header `x-map-bounds: X0 Z0 X1 Z1`.
fn png_response(png: &DrawnMap, bounds: bool) -> Response {
    let mut response = (
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        png.png.clone(),
    )
        .into_response();
    if bounds {
        let [x0, z0, x1, z1] = png.bounds;
        if let Ok(value) = header::HeaderValue::from_str(&format!("{x0} {z0} {x1} {z1}")) {
            response.headers_mut().insert("x-map-bounds", value);
        }
    }
    response
}

/// The tile a request names.
fn tile_key(level: &str, tx: &str, tz: &str, query: Option<&str>) -> Result<TileKey, ApiError> {
    let level: i32 = level
        .parse()
        .ok()
        .filter(|l| LEVELS.contains(l))
        .ok_or_else(|| {
            ApiError::bad(
                "level",
                format!("expected a level from -1 to 5, found {level:?}"),
            )
        })?;
    let index = |field: &str, text: &str| {
        text.parse::<u32>()
            .map_err(|_| ApiError::bad(field, format!("expected a whole number, found {text:?}")))
    };
    let (tx, tz) = (index("tx", tx)?, index("tz", tz)?);
    let mut layers = TileLayers::ALL;
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some(("layers", list)) => {
                layers = TileLayers::parse(&list.replace("%2C", ",").replace("%2c", ","))
                    .map_err(|e| ApiError::bad("layers", e))?;
            }
            _ => return Err(ApiError::bad(pair, "unknown parameter; tiles take layers=")),
        }
    }
    Ok(TileKey {
        level,
        tx,
        tz,
        layers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_blocks_and_scales() {
        let key = |level, tx, tz| TileKey {
            level,
            tx,
            tz,
            layers: TileLayers::ALL,
        };
        assert_eq!(key(-1, 3, 4).scale(), 8.0);
        assert_eq!(key(0, 3, 4).scale(), 4.0);
        assert_eq!(key(5, 0, 0).scale(), 0.125);
        let r = key(2, 3, 1).rect().unwrap();
        assert_eq!((r.x0, r.z0, r.x1, r.z1), (12, 4, 15, 7));
        assert_eq!(key(0, 256, 0).rect(), None);
        assert_eq!(key(5, 7, 7).rect().unwrap().x1, 255);
    }

    #[test]
    fn tile_requests_name_their_bad_part() {
        assert!(tile_key("0", "1", "2", None).is_ok());
        let layers = tile_key("1", "0", "0", Some("layers=walls%2Cwater"))
            .unwrap()
            .layers;
        assert!(layers.walls && layers.water && !layers.heights);
        let field = |r: Result<TileKey, ApiError>| match r {
            Err(ApiError::BadRequest { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        assert_eq!(field(tile_key("9", "0", "0", None)), "level");
        assert_eq!(field(tile_key("0", "-1", "0", None)), "tx");
        assert_eq!(
            field(tile_key("0", "0", "0", Some("layers=roads"))),
            "layers"
        );
        assert_eq!(field(tile_key("0", "0", "0", Some("scale=2"))), "scale=2");
    }
}
