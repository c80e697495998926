//! The dungeon files of a data root: `dungeon\dungeoninfo.txt`, the `.dof` layouts its rows
//! name, each block's `.bsr` and the `.bms` it leads to, and each dungeon's
//! `navmesh\AINavData_<region>.dat`.
//!
//! [`DungeonFiles::read`] follows the chain from `dungeoninfo.txt` as the game's files name
//! it: every row's `.dof` (served or not), every block's resource, every resource's mesh, and
//! the routes of every row's region. Paths resolve as object paths do (any case, `\` or `/`;
//! [`super::resolve`]). A file the chain names that does not exist is left out, as an object
//! mesh `object.ifo` names is; a file that exists and does not parse is an error naming it.
//! [`DungeonFiles::file_bytes`] gives every file back, at the same paths, for
//! [`super::WorldFiles::write_data_root`].

use super::resolve::ObjectResolver;
use super::{FileError, NAVMESH_FOLDER};
use jmxv::ainav::{self, AiNavData};
use jmxv::bms::ObjectMesh;
use jmxv::dof::DungeonFile;
use jmxv::ifo::dungeon::DungeonInfo;
use jmxv::res::ResourceFile;
use jmxv::RegionId;
use std::collections::BTreeMap;

/// Where a data root keeps `dungeoninfo.txt`.
pub const DUNGEON_INFO_PATH: &str = "dungeon\\dungeoninfo.txt";

/// A world's dungeons, as files of its data root. Paths are keys as the files that name them
/// spell them.
///
/// Reading follows the chain from `dungeon\dungeoninfo.txt`: every row's `.dof` (served or
/// not), every block's `.bsr`, every resource's `.bms`, and every row's
/// `navmesh\AINavData_<region>.dat`, resolved as object paths are (any case, `\` or `/`). A
/// file the chain names that does not exist is left out; one that exists and does not parse
/// is an error naming it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DungeonFiles {
    /// `dungeon\dungeoninfo.txt`; `None` when the data root has none.
    pub info: Option<DungeonInfo>,
    /// The `.dof` layouts, by the paths `dungeoninfo.txt` gives.
    pub layouts: BTreeMap<String, DungeonFile>,
    /// The block resources (`.bsr`), by the paths the layouts give.
    pub resources: BTreeMap<String, ResourceFile>,
    /// The block meshes (`.bms`), by the paths the resources give.
    pub meshes: BTreeMap<String, ObjectMesh>,
    /// Each dungeon's routes, by its region (`0x8000 | id`).
    pub routes: BTreeMap<RegionId, AiNavData>,
}

/// A block whose `.bsr`, or the `.bms` it names, is not among the files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingBlockFile {
    /// The block's index.
    pub block: usize,
    /// The file that is missing.
    pub path: String,
}

impl std::fmt::Display for MissingBlockFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "blocks[{}]: {}: no such file", self.block, self.path)
    }
}

impl std::error::Error for MissingBlockFile {}

impl DungeonFiles {
    /// Whether there is no dungeon file at all.
    pub fn is_empty(&self) -> bool {
        self.info.is_none()
            && self.layouts.is_empty()
            && self.resources.is_empty()
            && self.meshes.is_empty()
            && self.routes.is_empty()
    }

    /// The layout of dungeon `region`: the path the first row of `dungeoninfo.txt` with that
    /// region gives, and the layout read there; `None` without such a row or file.
    pub fn layout_of(&self, region: RegionId) -> Option<(&str, &DungeonFile)> {
        let row = self
            .info
            .as_ref()?
            .rows()
            .find(|r| r.region() == Some(region))?;
        let path = std::str::from_utf8(&row.path).ok()?;
        self.layouts
            .get_key_value(path)
            .map(|(path, layout)| (path.as_str(), layout))
    }

    /// Each block's mesh, found through its resource: (the mesh's path, the mesh), in the
    /// layout's order.
    ///
    /// # Errors
    /// The first block whose `.bsr`, or the `.bms` it names, is not among the files.
    pub fn block_meshes(
        &self,
        layout: &DungeonFile,
    ) -> Result<Vec<(&str, &ObjectMesh)>, MissingBlockFile> {
        let mut found = Vec::with_capacity(layout.blocks.len());
        for (block, b) in layout.blocks.iter().enumerate() {
            let bsr = String::from_utf8_lossy(&b.path).into_owned();
            let missing = |path: &str| MissingBlockFile {
                block,
                path: path.to_owned(),
            };
            let resource = self.resources.get(&bsr).ok_or_else(|| missing(&bsr))?;
            let bms = resource
                .target_path()
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .ok_or_else(|| missing(&bsr))?;
            let (bms, mesh) = self
                .meshes
                .get_key_value(&bms)
                .ok_or_else(|| missing(&bms))?;
            found.push((bms.as_str(), mesh));
        }
        Ok(found)
    }

    /// Reads the chain from `dungeon\dungeoninfo.txt` ([module docs](self)).
    ///
    /// # Errors
    /// A file that exists but cannot be read or parsed, with its path.
    pub(crate) fn read(resolver: &ObjectResolver) -> Result<DungeonFiles, FileError> {
        let mut out = DungeonFiles::default();
        let Some(bytes) = read_if_present(resolver, DUNGEON_INFO_PATH.as_bytes())? else {
            return Ok(out);
        };
        let info = parse(resolver, DUNGEON_INFO_PATH, &bytes, DungeonInfo::parse)?;
        for row in info.rows() {
            if let Some(region) = row.region() {
                let name = format!("{NAVMESH_FOLDER}\\{}", ainav::file_name(region));
                if let Some(bytes) = read_if_present(resolver, name.as_bytes())? {
                    let routes = parse(resolver, &name, &bytes, AiNavData::parse)?;
                    out.routes.insert(region, routes);
                }
            }
            let Ok(path) = String::from_utf8(row.path.clone()) else {
                continue;
            };
            if out.layouts.contains_key(&path) {
                continue;
            }
            let Some(bytes) = read_if_present(resolver, path.as_bytes())? else {
                continue;
            };
            let layout = parse(resolver, &path, &bytes, DungeonFile::parse)?;
            for block in &layout.blocks {
                let Ok(bsr) = String::from_utf8(block.path.clone()) else {
                    continue;
                };
                if out.resources.contains_key(&bsr) {
                    continue;
                }
                let Some(bytes) = read_if_present(resolver, bsr.as_bytes())? else {
                    continue;
                };
                let resource = parse(resolver, &bsr, &bytes, ResourceFile::parse)?;
                if let Some(bms) = resource
                    .target_path()
                    .and_then(|p| String::from_utf8(p.to_vec()).ok())
                {
                    if let std::collections::btree_map::Entry::Vacant(slot) = out.meshes.entry(bms)
                    {
                        if let Some(bytes) = read_if_present(resolver, slot.key().as_bytes())? {
                            let mesh = parse(resolver, slot.key(), &bytes, ObjectMesh::parse)?;
                            slot.insert(mesh);
                        }
                    }
                }
                out.resources.insert(bsr, resource);
            }
            out.layouts.insert(path, layout);
        }
        out.info = Some(info);
        Ok(out)
    }

    /// Every file as (its path under the data root, as the files name it; bytes), in the
    /// order `dungeoninfo.txt`, layouts, resources, meshes, routes.
    ///
    /// # Errors
    /// A file that cannot be written.
    pub fn file_bytes(&self) -> Result<Vec<(String, Vec<u8>)>, jmxv::WriteError> {
        let mut out = Vec::new();
        if let Some(info) = &self.info {
            out.push((DUNGEON_INFO_PATH.to_owned(), info.to_vec()?));
        }
        for (path, layout) in &self.layouts {
            out.push((path.clone(), layout.to_vec()?));
        }
        for (path, resource) in &self.resources {
            out.push((path.clone(), resource.to_vec()));
        }
        for (path, mesh) in &self.meshes {
            out.push((path.clone(), mesh.to_vec()?));
        }
        for (region, routes) in &self.routes {
            out.push((
                format!("{NAVMESH_FOLDER}\\{}", ainav::file_name(*region)),
                routes.to_vec()?,
            ));
        }
        Ok(out)
    }
}

/// The bytes of the file at `path` under the data root, or `None` when there is none.
fn read_if_present(resolver: &ObjectResolver, path: &[u8]) -> Result<Option<Vec<u8>>, FileError> {
    match resolver.locate(path) {
        Ok(place) => resolver.read(&place).map(Some),
        Err(_) => Ok(None),
    }
}

/// `bytes` parsed by `parse`, or the error with the file's path.
fn parse<T>(
    resolver: &ObjectResolver,
    path: &str,
    bytes: &[u8],
    parse: impl Fn(&[u8]) -> Result<T, jmxv::Error>,
) -> Result<T, FileError> {
    parse(bytes).map_err(|e| {
        let shown = resolver
            .locate(path.as_bytes())
            .map_or_else(|_| path.into(), |place| resolver.shown(&place));
        FileError::new(shown, e)
    })
}
