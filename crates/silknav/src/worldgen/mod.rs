//! Synthetic worlds that look like the game's: `silknav gen`.
//!
//! A world is W×H adjacent regions. Everything is a function of the seed, so the same seed and
//! size give the same bytes:
//!
//! - **terrain**: fractal noise over world coordinates (so shared border vertices agree), with
//!   plateaus cut into terraces whose steps are cliffs;
//! - **blocked tiles**: cliffs (steep tiles), lakes (tiles under the water level), fortress
//!   walls (some without gates: enclosed open pockets), and rock masses with a thin corridor
//!   carved through;
//! - or, with [`Landscape::Open`], wide open ground: gentle hills without terraces or
//!   badlands, few fortresses, and scattered boulders (small blocked clusters) instead of rock
//!   masses — the open maps with scattered obstacles much of the game's world is;
//! - **planes**: water over lakes; some lakes frozen (ice plane, walkable at the ice height);
//! - **objects**, each a `.bms` mesh of its own ([`meshes`]): buildings with walls and a
//!   doorway, a linked pair of gates with a siege edge in each fortress's wall gaps, bridges
//!   over walkable ground and over lakes (deck, underpass sides, link edges at both ends;
//!   a bridge over a lake stands at the height of its higher bank), stairs up to a
//!   landing, and trees and rocks (no mesh); buildings on a region border are owned by one
//!   region and listed in both. The terrain under an object stays open ground (trodden, so
//!   textured as dirt), as in the game: the object's outline decides who enters, so a world
//!   loaded without its objects walks through them;
//! - **textures** by ground: grass, rock, sand, snow, dirt.
//!
//! The back end ([`crate::build`]) turns the tile masks into cells and edges.

pub mod catalog;
pub mod dungeon;
pub mod meshes;
mod noise;
mod plan;

use crate::build::{build_world, RegionInput};
use crate::files::{DungeonFiles, WorldFiles};
use jmxv::ifo::dungeon::{DungeonInfo, DungeonLine};
use jmxv::ifo::{ObjectEntry, ObjectIfo, Tile2dEntry, Tile2dIfo};
use jmxv::mfo::MapInfo;
use jmxv::nvm::NavMesh;
use jmxv::RegionId;
use std::collections::BTreeMap;
use std::fmt;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenOptions {
    /// Everything random derives from this.
    pub seed: u64,
    /// Regions along x.
    pub width: u8,
    /// Regions along z.
    pub height: u8,
    /// Region coordinates (x, z) of the south-west region.
    pub origin: (u8, u8),
    /// What the ground looks like.
    pub landscape: Landscape,
}

/// The kind of ground a world is generated with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Landscape {
    /// Hills, terraced plateaus with cliffs, badlands, lakes, fortresses and rock masses with
    /// winding corridors: much blocked ground and many corners.
    #[default]
    Rugged,
    /// Wide open ground with scattered obstacles: gentle hills, lakes, few fortresses, and
    /// boulders of one to a dozen tiles strewn over each region instead of rock masses.
    Open,
}

impl Default for GenOptions {
    /// A 2×2 rugged world at region (128, 64), seed 1.
    fn default() -> GenOptions {
        GenOptions {
            seed: 1,
            width: 2,
            height: 2,
            origin: DEFAULT_ORIGIN,
            landscape: Landscape::Rugged,
        }
    }
}

/// Where generated worlds start unless told otherwise: region x 128, z 64, inside the id range
/// of the live game's world and with room for worlds up to 127×63 regions.
pub const DEFAULT_ORIGIN: (u8, u8) = (128, 64);

/// Options that describe no valid world.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenError(String);

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GenError {}

impl GenOptions {
    /// The regions of the world, row by row from the south-west.
    ///
    /// # Errors
    /// An empty size, or regions beyond x 255 or z 127.
    pub fn regions(&self) -> Result<Vec<RegionId>, GenError> {
        let (x0, z0) = (u32::from(self.origin.0), u32::from(self.origin.1));
        let (w, h) = (u32::from(self.width), u32::from(self.height));
        if w == 0 || h == 0 {
            return Err(GenError(format!("size {w}x{h} has no regions")));
        }
        if x0 + w > 256 || z0 + h > 128 {
            return Err(GenError(format!(
                "size {w}x{h} at origin {x0},{z0} reaches region x {} z {}; x must stay ≤ 255 and z ≤ 127",
                x0 + w - 1,
                z0 + h - 1
            )));
        }
        Ok((z0..z0 + h)
            .flat_map(|z| (x0..x0 + w).map(move |x| RegionId::new(x as u8, z as u8)))
            .collect())
    }
}

/// A generated world: one navmesh per region, and its dungeons.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratedWorld {
    /// The navmesh of each region.
    pub regions: BTreeMap<RegionId, NavMesh>,
    /// The dungeons beside it ([`dungeon::dungeons`]).
    pub dungeons: Vec<dungeon::GeneratedDungeon>,
}

impl GeneratedWorld {
    /// The world as the files of a data root: the navmeshes, a `mapinfo.mfo` enabling exactly
    /// these regions, the `object.ifo` and `tile2d.ifo` its ids refer to, and the mesh of
    /// every `object.ifo` entry, and the dungeons: a `dungeon\dungeoninfo.txt` naming each,
    /// its `.dof`, its blocks' resources and meshes, and its `AINavData`.
    pub fn into_files(self) -> WorldFiles {
        let mapinfo = MapInfo::with_regions(self.regions.keys().copied());
        let objects = catalog::OBJECTS
            .iter()
            .enumerate()
            .map(|(i, o)| ObjectEntry::new(i as u32, 0, o.path.as_bytes()))
            .collect();
        let textures = catalog::TEXTURES
            .iter()
            .enumerate()
            .map(|(i, (ground, file))| {
                // The game tags textures with the area they belong to; ours by their folder.
                let area = if file.starts_with("oasis") {
                    "Oasis"
                } else {
                    "China"
                };
                Tile2dEntry::new(i as u32, ground.tile_kind(), area, file.as_bytes())
            })
            .collect();
        WorldFiles {
            navmeshes: self.regions,
            mapinfo: Some(mapinfo),
            object_ifo: Some(ObjectIfo::new(objects)),
            tile2d: Some(Tile2dIfo::new(textures)),
            object_files: catalog::OBJECTS
                .iter()
                .map(|o| (o.path.to_owned(), meshes::object_mesh(o)))
                .collect(),
            dungeons: dungeon_files(self.dungeons),
        }
    }
}

/// Generates a world.
///
/// # Errors
/// As for [`GenOptions::regions`].
pub fn generate(options: &GenOptions) -> Result<GeneratedWorld, GenError> {
    generate_with_progress(options, |_, _| {})
}

/// Generates a world, calling `progress(done, total)` as regions are planned and rasterised.
///
/// # Errors
/// As for [`GenOptions::regions`].
pub fn generate_with_progress(
    options: &GenOptions,
    mut progress: impl FnMut(usize, usize),
) -> Result<GeneratedWorld, GenError> {
    let regions = options.regions()?;
    let terrain = plan::Terrain::new(options.seed, options.landscape);
    let plans: BTreeMap<RegionId, plan::RegionPlan> = regions
        .iter()
        .map(|&r| (r, plan::plan_region(&terrain, r, &regions)))
        .collect();
    let total = regions.len();
    let inputs: Vec<RegionInput> = regions
        .iter()
        .enumerate()
        .map(|(i, &r)| {
            progress(i, total);
            plan::rasterise(&terrain, r, &plans)
        })
        .collect();
    progress(total, total);
    Ok(GeneratedWorld {
        regions: build_world(&inputs),
        dungeons: dungeon::dungeons(options.seed),
    })
}

/// The files of generated dungeons.
fn dungeon_files(dungeons: Vec<dungeon::GeneratedDungeon>) -> DungeonFiles {
    let (meshes, resources) = dungeon::block_files();
    let mut rows = Vec::new();
    let mut files = DungeonFiles {
        meshes,
        resources,
        ..DungeonFiles::default()
    };
    for d in dungeons {
        rows.push(d.row());
        files.routes.insert(d.region(), d.routes);
        files.layouts.insert(d.path, d.layout);
    }
    // Only the blocks the layouts use, so that the files read back as written.
    let used: std::collections::BTreeSet<Vec<u8>> = files
        .layouts
        .values()
        .flat_map(|l| l.blocks.iter().map(|b| b.path.clone()))
        .collect();
    files
        .resources
        .retain(|path, _| used.contains(path.as_bytes()));
    let targets: std::collections::BTreeSet<Vec<u8>> = files
        .resources
        .values()
        .filter_map(|r| r.target_path().map(<[u8]>::to_vec))
        .collect();
    files
        .meshes
        .retain(|path, _| targets.contains(path.as_bytes()));
    let mut info = DungeonInfo::new(rows);
    info.lines.insert(
        0,
        DungeonLine::Comment {
            text: b"// service\tid\tpath".to_vec(),
            ending: jmxv::ifo::LineEnding::CrLf,
        },
    );
    files.info = Some(info);
    files
}

/// The generated world the object tests share: 2×2 rugged regions (seed 3) with a village, a
/// fortress, bridges and stairs, written as a data root into a temporary folder (kept alive by
/// the returned guard) and loaded.
#[cfg(test)]
pub(crate) fn rugged_test_world() -> (tempfile::TempDir, crate::world::World) {
    let dir = tempfile::tempdir().unwrap();
    generate(&GenOptions {
        seed: 3,
        width: 2,
        height: 2,
        origin: (120, 90),
        landscape: Landscape::Rugged,
    })
    .unwrap()
    .into_files()
    .write_data_root(dir.path(), crate::files::Overwrite::Replace)
    .unwrap();
    let world = crate::world::World::load(dir.path()).unwrap();
    (dir, world)
}
