//! Loading a world: from a folder, from files in memory, or from navmeshes, and the report of
//! what loading left out.

use super::region::{Region, RegionIssue};
use super::World;
use crate::files::{scan_folder, FileError, FolderFile, FolderListing, LoadError};
use crate::objects::resolve::ObjectResolver;
use crate::objects::{load_objects, ObjectFinding, RegionObjects};
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
    /// The region is loaded, and part of its file is unusable for queries.
    RegionIssue(RegionIssue),
    /// An object instance the region lists could not be placed (its file is missing,
    /// unreadable or has no navigation section, its id is not in `object.ifo`, it is a
    /// dungeon): the terrain still loads, without it.
    Object(ObjectFinding),
}

/// How [`World::load_with`] loads a world.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadOptions {
    /// Whether to load the object instances (buildings, gates, bridges) the regions list, with
    /// their meshes from under the data root. Off: a terrain-only world.
    pub objects: bool,
}

impl Default for LoadOptions {
    /// Objects on, as [`World::load`].
    fn default() -> LoadOptions {
        LoadOptions { objects: true }
    }
}

impl LoadOptions {
    /// Terrain only: no objects.
    pub fn terrain_only() -> LoadOptions {
        LoadOptions { objects: false }
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
                "{path}: region {region} is a dungeon (id bit 15 set); dungeons are not loaded"
            ),
            LoadFindingKind::Duplicate => {
                write!(
                    f,
                    "{path}: region {region} was given twice; the first is loaded"
                )
            }
            LoadFindingKind::RegionIssue(issue) => write!(f, "{path}: {issue}"),
            LoadFindingKind::Object(object) => write!(f, "{path}: {object}"),
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
        let regions = kept
            .par_iter()
            .map(|(id, mesh)| {
                (
                    Region::from_navmesh(*id, mesh),
                    PathBuf::from(id.file_name()),
                )
            })
            .collect();
        World::assemble(regions, report)
    }

    /// Loads a world folder: `mapinfo.mfo` when present, and every `nv_XXXX.nvm` (any case) of
    /// an enabled region, parsed in parallel. `dir` is the navmesh folder or the data root
    /// above it ([`crate::files::WorldLocation`]).
    ///
    /// Files are listed by [`scan_folder`]. What is left out — regions without a file, files
    /// of regions mapinfo does not enable, dungeons — and parts of files the queries cannot
    /// use are in [`World::load_report`].
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
    /// The folder cannot be listed, two files name one region or companion
    /// ([`LoadError::DuplicateName`]), or a file cannot be read or is malformed (the error
    /// names one such file).
    pub fn load(dir: impl AsRef<Path>) -> Result<World, LoadError> {
        World::load_with(dir, &LoadOptions::default(), |_, _| {})
    }

    /// [`World::load`] with options: [`LoadOptions::terrain_only`] leaves the objects out.
    /// `progress(done, total)` is called as navmesh files are parsed, as for
    /// [`World::load_with_progress`].
    ///
    /// Objects: every instance the loaded regions list, deduplicated
    /// ([`crate::objects::InstanceKey`]), its mesh found through `object.ifo` under the data
    /// root ([`crate::objects::resolve`]), each distinct object id read once, in parallel. An
    /// instance that cannot be placed is a [`LoadFindingKind::Object`] finding, never an
    /// error.
    ///
    /// # Errors
    /// As for [`World::load`], and a malformed `object.ifo` (when objects are loaded).
    pub fn load_with(
        dir: impl AsRef<Path>,
        options: &LoadOptions,
        progress: impl Fn(usize, usize) + Sync,
    ) -> Result<World, LoadError> {
        let dir = dir.as_ref();
        let listing = scan_folder(dir)?;
        let mapinfo = match listing.path(FolderFile::MapInfo) {
            Some(path) => {
                let bytes = std::fs::read(path).map_err(|e| FileError::new(path, e))?;
                Some(MapInfo::parse(&bytes).map_err(|e| FileError::new(path, e))?)
            }
            None => None,
        };
        let object_ifo = match listing.path(FolderFile::ObjectIfo) {
            Some(path) if options.objects => {
                let bytes = std::fs::read(path).map_err(|e| FileError::new(path, e))?;
                Some(ObjectIfo::parse(&bytes).map_err(|e| FileError::new(path, e))?)
            }
            _ => None,
        };
        let navmesh_dir = listing.location().map_or(dir, |l| l.navmesh_dir.as_path());
        let (files, report) = plan(&listing, navmesh_dir, mapinfo.as_ref());
        let parsed = parse_parallel(
            &files,
            |path| std::fs::read(path).map(Cow::Owned),
            &progress,
            options.objects,
        )?;
        let (regions, records): (Vec<_>, Vec<_>) = parsed.into_iter().unzip();
        let mut world = World::assemble(regions, report);
        if options.objects {
            let data_root = listing
                .location()
                .map_or_else(|| dir.to_path_buf(), |l| l.data_root.clone());
            let resolver = ObjectResolver::new(data_root);
            let ids: Vec<RegionId> = world.regions().collect();
            let (objects, findings) = load_objects(&records, &ids, object_ifo.as_ref(), &resolver);
            world.objects = objects;
            let regions = &world.regions;
            world.objects.index_tiles(|slot, tile| {
                let region = &regions[slot];
                region.objects_of_cell(region.raw_tile_cell[tile])
            });
            world.report.findings.extend(findings);
        }
        Ok(world)
    }

    /// [`World::load`], calling `progress(done, total)` as files are parsed (from the pool's
    /// threads; `done` counts up to `total`, though calls from two threads may arrive out of
    /// order).
    ///
    /// # Errors
    /// As for [`World::load`].
    pub fn load_with_progress(
        dir: impl AsRef<Path>,
        progress: impl Fn(usize, usize) + Sync,
    ) -> Result<World, LoadError> {
        World::load_with(dir, &LoadOptions::default(), progress)
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
        let (navmeshes, report) = plan(&listing, Path::new(""), mapinfo.as_ref());
        let regions = parse_parallel(
            &navmeshes,
            |path| Ok(Cow::Borrowed(bytes[path])),
            &|_, _| {},
            false,
        )?;
        Ok(World::assemble(
            regions.into_iter().map(|(r, _)| r).collect(),
            report,
        ))
    }
}

/// Which navmeshes of a listing are loaded, in region order, and the report of the rest: files
/// of dungeons and of regions that `mapinfo` does not enable, and regions it enables without a
/// file (named as they would be in `dir`).
fn plan(
    listing: &FolderListing,
    dir: &Path,
    mapinfo: Option<&MapInfo>,
) -> (Vec<(RegionId, PathBuf)>, LoadReport) {
    let mut report = LoadReport {
        has_mapinfo: mapinfo.is_some(),
        findings: Vec::new(),
    };
    let finding = |region, path: &Path, kind| LoadFinding {
        region,
        path: path.to_path_buf(),
        kind,
    };
    if let Some(mapinfo) = mapinfo {
        for region in mapinfo.enabled_regions() {
            if listing.navmesh(region).is_none() {
                let path = listing.path_or_canonical(dir, FolderFile::Navmesh(region));
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

/// Reads, parses and prepares navmesh files on rayon's current pool, keeping their order; with
/// `objects`, keeps each file's object records too.
#[allow(clippy::type_complexity)]
fn parse_parallel<'b>(
    files: &[(RegionId, PathBuf)],
    read: impl Fn(&Path) -> std::io::Result<Cow<'b, [u8]>> + Sync,
    progress: &(impl Fn(usize, usize) + Sync),
    objects: bool,
) -> Result<Vec<((Region, PathBuf), RegionObjects)>, FileError> {
    let total = files.len();
    let done = AtomicUsize::new(0);
    files
        .par_iter()
        .map(|(id, path)| {
            let result = read(path)
                .map_err(|e| FileError::new(path, e))
                .and_then(|bytes| NavMesh::parse(&bytes).map_err(|e| FileError::new(path, e)))
                .map(|mesh| {
                    let region = Region::from_navmesh(*id, &mesh);
                    let records = RegionObjects {
                        region: *id,
                        path: path.clone(),
                        objects: if objects { mesh.objects } else { Vec::new() },
                    };
                    ((region, path.clone()), records)
                });
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            result
        })
        .collect()
}
