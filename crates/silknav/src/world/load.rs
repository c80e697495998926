//! Loading a world: from a folder, from files in memory, or from navmeshes, and the report of
//! what loading left out.

use super::dungeon::{Dungeon, DungeonError};
use super::region::{EdgeId, Region};
use super::World;
use crate::files::index_file::{file_digest, DigestBuilder};
use crate::files::resolve::ObjectProblem;
use crate::files::InputsDigest;
use crate::files::{DungeonFiles, FileError, FolderFile, FolderListing, LoadError, WorldSource};
use crate::objects::{load_objects, InstanceKey, MeshLoader, ObjectFinding, RegionObjects};
use jmxv::ifo::ObjectIfo;
use jmxv::mfo::MapInfo;
use jmxv::nvm::NavMesh;
use jmxv::RegionId;
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What loading found that did not stop it, one [`LoadFinding`] per region left out or
/// damaged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadReport {
    /// Whether the folder had a `mapinfo.mfo` (without one, every navmesh file is loaded).
    pub has_mapinfo: bool,
    /// What was found, in this order: regions without a file, then files not loaded (by
    /// region), then problems inside loaded files (by region).
    pub findings: Vec<LoadFinding>,
}

impl LoadReport {
    /// Whether loading found nothing to report.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// The findings of one kind, such as `|k| matches!(k, LoadFindingKind::Dungeon)`.
    pub fn findings_where(
        &self,
        kind: impl Fn(&LoadFindingKind) -> bool,
    ) -> impl Iterator<Item = &LoadFinding> {
        self.findings.iter().filter(move |f| kind(&f.kind))
    }

    /// Regions enabled in `mapinfo.mfo` that have no navmesh file.
    pub fn missing_files(&self) -> impl Iterator<Item = RegionId> + '_ {
        self.findings_where(|k| *k == LoadFindingKind::MissingFile)
            .map(|f| f.region)
    }

    /// Navmesh files of regions that `mapinfo.mfo` does not enable (not loaded, as in the game).
    pub fn disabled_files(&self) -> impl Iterator<Item = RegionId> + '_ {
        self.findings_where(|k| *k == LoadFindingKind::DisabledByMapinfo)
            .map(|f| f.region)
    }
}

/// One thing loading found: which region, which file, what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadFinding {
    /// The region.
    pub region: RegionId,
    /// Its file as found (for a missing file: where it would be). For worlds made in memory,
    /// the file's name.
    pub path: PathBuf,
    /// What was found.
    pub kind: LoadFindingKind,
}

/// What a [`LoadFinding`] is about.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadFindingKind {
    /// `mapinfo.mfo` enables the region, and it has no navmesh file.
    MissingFile,
    /// The region has a navmesh file and `mapinfo.mfo` does not enable it: not loaded, as in
    /// the game.
    DisabledByMapinfo,
    /// The region id has the dungeon bit ([`RegionId::is_dungeon`]): dungeons lie outside the
    /// terrain id space the queries cover, so the file is not loaded.
    Dungeon,
    /// The region was given again to [`World::from_navmeshes`]; the first one is loaded.
    Duplicate,
    /// An edge of the region's file names a cell or a direction bucket (0 to 3) that does not
    /// exist, so it is linked to no cell and the movement walk never meets it on that side.
    /// The rest of the region loads.
    UnlinkableEdge {
        /// The edge.
        edge: EdgeId,
        /// The cell it names.
        cell: u16,
        /// The direction bucket it names.
        direction: u8,
    },
    /// A wall of the region's file that does not lie along the 20-unit tile grid; line of
    /// sight ignores it. The rest of the region loads.
    WallOffGrid {
        /// The edge.
        edge: EdgeId,
    },
    /// An object instance the region lists could not be placed (its file is missing,
    /// unreadable or has no navigation section, its id is not in `object.ifo`, it is a
    /// dungeon): the terrain still loads, without it.
    ObjectNotPlaced {
        /// The instance.
        instance: InstanceKey,
        /// Its object id (the `object.ifo` line).
        object_id: u32,
        /// Its `object.ifo` path as stored; empty when the id has no line.
        ifo_path: Vec<u8>,
        /// What went wrong.
        problem: ObjectProblem,
    },
    /// A dungeon `dungeoninfo.txt` names is not loaded (the finding's region is the
    /// dungeon's, its path the `.dof` as the row names it): the rest still loads.
    DungeonLeftOut(DungeonError),
}

/// How [`World::load_source`] loads a world: with or without objects, and who hears of its
/// progress.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct LoadOptions<'p> {
    /// Whether to load the object instances (buildings, gates, bridges) the regions list, with
    /// their meshes from under the data root, and the dungeons. Off: a terrain-only world.
    pub objects: bool,
    /// Called as navmesh files are parsed ([`LoadOptions::with_progress`]).
    progress: Option<&'p (dyn Fn(usize, usize) + Sync)>,
}

impl Default for LoadOptions<'_> {
    /// Objects on, as [`World::load`]; no progress.
    fn default() -> Self {
        LoadOptions {
            objects: true,
            progress: None,
        }
    }
}

impl fmt::Debug for LoadOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LoadOptions")
            .field("objects", &self.objects)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl<'p> LoadOptions<'p> {
    /// Terrain only: no objects, no dungeons.
    pub fn terrain_only() -> LoadOptions<'static> {
        LoadOptions {
            objects: false,
            progress: None,
        }
    }

    /// These options calling `progress(done, total)` as navmesh files are parsed, from the
    /// pool's threads: `done` counts up to `total`, though calls from two threads may arrive
    /// out of order.
    pub fn with_progress<'q>(self, progress: &'q (dyn Fn(usize, usize) + Sync)) -> LoadOptions<'q> {
        LoadOptions {
            objects: self.objects,
            progress: Some(progress),
        }
    }
}

impl fmt::Display for LoadFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (path, region) = (self.path.display(), self.region);
        match &self.kind {
            LoadFindingKind::MissingFile => write!(
                f,
                "{path}: mapinfo.mfo enables region {region}, which has no file"
            ),
            LoadFindingKind::DisabledByMapinfo => write!(
                f,
                "{path}: region {region} is not enabled in mapinfo.mfo; not loaded"
            ),
            LoadFindingKind::Dungeon => write!(
                f,
                "{path}: region {region} is a dungeon id (bit 15 set); dungeons come from dungeoninfo.txt, not navmesh files; not loaded"
            ),
            LoadFindingKind::Duplicate => {
                write!(
                    f,
                    "{path}: region {region} was given twice; the first is loaded"
                )
            }
            LoadFindingKind::UnlinkableEdge {
                edge,
                cell,
                direction,
            } => write!(
                f,
                "{path}: {edge:?}: cell {cell} / direction {direction} cannot be linked"
            ),
            LoadFindingKind::WallOffGrid { edge } => write!(
                f,
                "{path}: {edge:?}: a wall off the 20-unit grid; line of sight ignores it"
            ),
            LoadFindingKind::DungeonLeftOut(why) => {
                write!(f, "{path}: dungeon {region} not loaded: {why}")
            }
            LoadFindingKind::ObjectNotPlaced {
                instance,
                object_id,
                ifo_path,
                problem,
            } => {
                write!(f, "{path}: object instance {instance} (object id {object_id}")?;
                if !ifo_path.is_empty() {
                    write!(f, ", {:?}", String::from_utf8_lossy(ifo_path))?;
                }
                write!(f, "): {problem}; not placed")
            }
        }
    }
}

impl World {
    /// A world of these regions, prepared on rayon's current pool (see [`World::load`]).
    /// Dungeon ids and regions given twice are left out and reported
    /// ([`World::load_report`]), each named by its file name.
    pub fn from_navmeshes<'a>(
        navmeshes: impl IntoIterator<Item = (RegionId, &'a NavMesh)>,
    ) -> World {
        let mut report = LoadReport::default();
        let mut seen = BTreeSet::new();
        let mut kept = Vec::new();
        for (id, mesh) in navmeshes {
            let kind = if id.is_dungeon() {
                LoadFindingKind::Dungeon
            } else if !seen.insert(id) {
                LoadFindingKind::Duplicate
            } else {
                kept.push((id, mesh));
                continue;
            };
            report.findings.push(LoadFinding {
                region: id,
                path: PathBuf::from(id.file_name()),
                kind,
            });
        }
        kept.sort_by_key(|(id, _)| *id);
        report.findings.sort_by_key(|f| f.region);
        let (regions, digests): (Vec<_>, Vec<_>) = kept
            .par_iter()
            .map(|(id, mesh)| {
                // The bytes a mesh is written as are those it was read from (round trips
                // are exact), so the digest is that of its file.
                let digest = mesh.to_vec().ok().map(|bytes| file_digest(&bytes));
                let region = (
                    Region::from_navmesh(*id, mesh),
                    PathBuf::from(id.file_name()),
                );
                (region, digest)
            })
            .unzip();
        let mut world = World::assemble(regions, report);
        world.inputs = inputs_digest(&world, &digests);
        world
    }

    /// Loads a world folder: `mapinfo.mfo` when present, and every `nv_XXXX.nvm` (any case) of
    /// an enabled region, parsed in parallel. `dir` is the navmesh folder or the data root
    /// above it ([`crate::files::WorldLocation`]), or an archive, or a folder inside one
    /// (`Data.pk2`, `Data.pk2:navmesh`; [`WorldSource::open`], with the official clients'
    /// key: open another's with [`WorldSource::open_with_key`] and load it with
    /// [`World::load_source`]). Objects and dungeons are loaded; [`World::load_source`] takes
    /// [`LoadOptions`].
    ///
    /// Files are listed by [`scan_folder`](crate::files::scan_folder). What is left out —
    /// regions without a file, files of regions mapinfo does not enable, dungeons — and parts
    /// of files the queries cannot use are in [`World::load_report`].
    ///
    /// The work runs on rayon's current thread pool: all cores by default (or as many as the
    /// `RAYON_NUM_THREADS` variable says); to cap it, run the load inside a pool of your own:
    ///
    /// ```no_run
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build()?;
    /// let world = pool.install(|| silknav::World::load("Data/navmesh"))?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The folder cannot be listed or the archive opened, two files name one region or
    /// companion ([`LoadError::DuplicateName`]), or a file cannot be read or is malformed (the
    /// error names one such file).
    pub fn load(dir: impl AsRef<Path>) -> Result<World, LoadError> {
        World::load_source(&WorldSource::open(dir)?, &LoadOptions::default())
    }

    /// Loads the world of an opened source (a folder or an archive; [`WorldSource`]) as
    /// `options` say: the one loader, behind [`World::load`] too.
    ///
    /// Objects: every instance the loaded regions list, deduplicated
    /// ([`crate::objects::InstanceKey`]), its mesh found through `object.ifo` under the data
    /// root ([`crate::files::resolve`]), each distinct object id read once, in parallel. An
    /// instance that cannot be placed is a [`LoadFindingKind::ObjectNotPlaced`] finding, never an
    /// error.
    ///
    /// # Errors
    /// A file cannot be read or is malformed (the error names one such file), including a
    /// malformed `object.ifo` when objects are loaded.
    #[allow(clippy::result_large_err)] // the mesh loader's error, as the resolver's
    pub fn load_source(
        source: &WorldSource,
        options: &LoadOptions<'_>,
    ) -> Result<World, LoadError> {
        let progress = |done, total| {
            if let Some(progress) = options.progress {
                progress(done, total);
            }
        };
        let listing = source.listing();
        let mapinfo = match listing.path(FolderFile::MapInfo) {
            Some(path) => {
                let bytes = source.read(FolderFile::MapInfo)?;
                Some(MapInfo::parse(&bytes).map_err(|e| FileError::new(path, e))?)
            }
            None => None,
        };
        let object_ifo = match listing.path(FolderFile::ObjectIfo) {
            Some(path) if options.objects => {
                let bytes = source.read(FolderFile::ObjectIfo)?;
                Some(ObjectIfo::parse(&bytes).map_err(|e| FileError::new(path, e))?)
            }
            _ => None,
        };
        let (files, report) = plan(listing, |file| source.path_of(file), mapinfo.as_ref());
        let parsed = parse_parallel(
            &files,
            |id, _| source.read(FolderFile::Navmesh(id)).map(Cow::Owned),
            &progress,
            options.objects,
        )?;
        let mut digests = Vec::with_capacity(parsed.len());
        let (regions, records): (Vec<_>, Vec<_>) = parsed
            .into_iter()
            .map(|(region, records, digest)| {
                digests.push(Some(digest));
                (region, records)
            })
            .unzip();
        let mut world = World::assemble(regions, report);
        world.inputs = inputs_digest(&world, &digests);
        if options.objects {
            let resolver = source.object_resolver();
            world.place_objects(&records, object_ifo.as_ref(), &|path| {
                resolver.load_mesh(path)
            });
            match DungeonFiles::read(&resolver) {
                Ok(files) => world.load_dungeons(&files, resolver.data_root()),
                Err(e) => world.report.findings.push(LoadFinding {
                    region: RegionId(0x8000),
                    path: e.path.clone(),
                    kind: LoadFindingKind::DungeonLeftOut(DungeonError::Unreadable(
                        crate::error_line(&e),
                    )),
                }),
            }
        }
        Ok(world)
    }

    /// A world from files already in memory: (file name, bytes) pairs, named as in a folder
    /// and sorted out by the same rules as [`World::load`]'s ([`FolderListing`]); findings
    /// name the files by these names.
    ///
    /// # Errors
    /// Two names for one region or companion (the same name twice included), or a malformed
    /// file (the error names it).
    pub fn from_memory<'a>(
        files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    ) -> Result<World, LoadError> {
        let files: Vec<(&str, &[u8])> = files.into_iter().collect();
        let listing = FolderListing::from_paths(files.iter().map(|(name, _)| *name))?;
        // The listing refused two equal names, so each name has one file.
        let bytes: BTreeMap<&Path, &[u8]> = files
            .iter()
            .map(|(name, bytes)| (Path::new(*name), *bytes))
            .collect();
        let mapinfo = match listing.path(FolderFile::MapInfo) {
            Some(path) => Some(MapInfo::parse(bytes[path]).map_err(|e| FileError::new(path, e))?),
            None => None,
        };
        let (navmeshes, report) = plan(
            &listing,
            |file| listing.path_or_canonical(Path::new(""), file),
            mapinfo.as_ref(),
        );
        let parsed = parse_parallel(
            &navmeshes,
            |_, path| Ok(Cow::Borrowed(bytes[path])),
            &|_, _| {},
            false,
        )?;
        let digests: Vec<Option<u128>> = parsed.iter().map(|(_, _, d)| Some(*d)).collect();
        let mut world = World::assemble(parsed.into_iter().map(|(r, _, _)| r).collect(), report);
        world.inputs = inputs_digest(&world, &digests);
        Ok(world)
    }
}

impl World {
    /// Loads the dungeons `files.info` serves, in parallel, reporting those it leaves out,
    /// each named by its `.dof` under `data_root`.
    pub(crate) fn load_dungeons(&mut self, files: &DungeonFiles, data_root: &Path) {
        let Some(info) = &files.info else {
            return;
        };
        let rows: Vec<_> = info.rows().collect();
        let loaded: Vec<(RegionId, PathBuf, Result<Dungeon, DungeonError>)> = rows
            .par_iter()
            .filter_map(|row| {
                let region = row.region()?;
                let path = String::from_utf8_lossy(&row.path).into_owned();
                let result = if row.is_served() {
                    Dungeon::from_files(files, region, &path)
                } else {
                    Err(DungeonError::NotServed)
                };
                let shown = data_root.join(path.replace('\\', "/"));
                Some((region, shown, result))
            })
            .collect();
        let mut dungeons: Vec<Dungeon> = Vec::new();
        for (region, path, result) in loaded {
            let kind = match result {
                Ok(d) if dungeons.iter().all(|o| o.region() != region) => {
                    dungeons.push(d);
                    continue;
                }
                Ok(_) => DungeonError::Duplicate,
                Err(e) => e,
            };
            self.report.findings.push(LoadFinding {
                region,
                path,
                kind: LoadFindingKind::DungeonLeftOut(kind),
            });
        }
        dungeons.sort_by_key(Dungeon::region);
        self.dungeons = std::sync::Arc::new(dungeons);
    }

    /// Places the instances `records` list over the world's regions, their meshes found
    /// through `ifo` by `load_mesh`, and reports those that cannot be placed.
    pub(crate) fn place_objects(
        &mut self,
        records: &[RegionObjects],
        ifo: Option<&ObjectIfo>,
        load_mesh: &MeshLoader<'_>,
    ) {
        let ids: Vec<RegionId> = self.regions().collect();
        let (objects, findings) = load_objects(records, &ids, ifo, load_mesh);
        self.objects = objects;
        let regions = &self.regions;
        self.objects.index_tiles(|slot, tile| {
            let region = &regions[slot];
            region.objects_of_cell(region.raw_tile_cell(tile))
        });
        // Each tile's word leads to its squares ([`super::region::TileWord`]).
        for (slot, region) in self.regions.iter_mut().enumerate() {
            for (record, &tile) in self.objects.tiles_with_squares(slot).iter().enumerate() {
                let word = &mut region.tiles[usize::from(tile)];
                *word = word.with_squares(record);
            }
        }
        self.report
            .findings
            .extend(findings.into_iter().map(|u| LoadFinding {
                region: u.region,
                path: u.path,
                kind: u.finding.into(),
            }));
    }
}

/// Which navmeshes of a listing are loaded, in region order, and the report of the rest: files
/// of dungeons and of regions that `mapinfo` does not enable, and regions it enables without a
/// file (named by `path_of`, as they would be in the folder).
fn plan(
    listing: &FolderListing,
    path_of: impl Fn(FolderFile) -> PathBuf,
    mapinfo: Option<&MapInfo>,
) -> (Vec<(RegionId, PathBuf)>, LoadReport) {
    let mut report = LoadReport {
        has_mapinfo: mapinfo.is_some(),
        ..LoadReport::default()
    };
    let finding = |region, path: &Path, kind| LoadFinding {
        region,
        path: path.to_path_buf(),
        kind,
    };
    if let Some(mapinfo) = mapinfo {
        for region in mapinfo.enabled_regions() {
            if listing.navmesh(region).is_none() {
                let path = path_of(FolderFile::Navmesh(region));
                report
                    .findings
                    .push(finding(region, &path, LoadFindingKind::MissingFile));
            }
        }
    }
    let mut load = Vec::new();
    for (region, path) in listing.navmeshes() {
        if region.is_dungeon() {
            report
                .findings
                .push(finding(region, path, LoadFindingKind::Dungeon));
        } else if mapinfo.is_some_and(|m| !m.is_enabled(region)) {
            report
                .findings
                .push(finding(region, path, LoadFindingKind::DisabledByMapinfo));
        } else {
            load.push((region, path.to_path_buf()));
        }
    }
    (load, report)
}

/// The digest of a world's inputs from its regions' file digests (in region order), `None`
/// when one is unknown.
fn inputs_digest(world: &World, files: &[Option<u128>]) -> Option<InputsDigest> {
    let mut digest = DigestBuilder::new();
    for (id, file) in world.regions().zip(files) {
        digest.region(id, (*file)?);
    }
    Some(digest.finish())
}

/// Reads, parses and prepares navmesh files on rayon's current pool, keeping their order; with
/// `objects`, keeps each file's object records too; and the digest of each file's bytes.
#[allow(clippy::type_complexity)]
fn parse_parallel<'b>(
    files: &[(RegionId, PathBuf)],
    read: impl Fn(RegionId, &Path) -> Result<Cow<'b, [u8]>, FileError> + Sync,
    progress: &(impl Fn(usize, usize) + Sync),
    objects: bool,
) -> Result<Vec<((Region, PathBuf), RegionObjects, u128)>, FileError> {
    let total = files.len();
    let done = AtomicUsize::new(0);
    files
        .par_iter()
        .map(|(id, path)| {
            let result = read(*id, path)
                .and_then(|bytes| {
                    let mesh = NavMesh::parse(&bytes).map_err(|e| FileError::new(path, e))?;
                    Ok((mesh, file_digest(&bytes)))
                })
                .map(|(mesh, digest)| {
                    let region = Region::from_navmesh(*id, &mesh);
                    let records = RegionObjects {
                        region: *id,
                        path: path.clone(),
                        objects: if objects { mesh.objects } else { Vec::new() },
                    };
                    ((region, path.clone()), records, digest)
                });
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            result
        })
        .collect()
}

impl From<ObjectFinding> for LoadFindingKind {
    fn from(o: ObjectFinding) -> LoadFindingKind {
        LoadFindingKind::ObjectNotPlaced {
            instance: o.instance,
            object_id: o.object_id,
            ifo_path: o.ifo_path,
            problem: o.problem,
        }
    }
}
