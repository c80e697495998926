//! A world and its path index, loaded together: what the command line, the query server and
//! the bindings hold.
//!
//! A [`World`] answers the game server's queries (cell, height, line of sight, movement); a
//! [`PathIndex`], a value of its own beside it, answers paths. [`Navigator`] keeps the two:
//! it loads the world, reads the index file `silknav index` wrote when it is there and made
//! from the same files ([`PathIndexUse`]), and otherwise builds the index on the first path
//! query, once, on all cores.
//!
//! ```
//! # let dir = std::env::temp_dir().join(format!("silknav-navigator-doc-{}", std::process::id()));
//! # let options = silknav::worldgen::GenOptions { width: 1, height: 1, ..Default::default() };
//! # silknav::worldgen::generate(&options)?.into_files().write_data_root(&dir, silknav::files::Overwrite::Replace)?;
//! use silknav::{Navigator, PathOptions, PathScratch, Position};
//! use silknav::jmxv::RegionId;
//!
//! let nav = Navigator::load(&dir)?;
//! let region = RegionId::new(128, 64);
//! let (a, b) = (Position::new(region, 500.0, 500.0), Position::new(region, 900.0, 700.0));
//! let height = nav.world().height_at(a, silknav::Surface::Highest);
//! let path = nav.find_path(a, b, &PathOptions::default(), &mut PathScratch::new());
//! # let _ = (height, path);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::files::{IndexFileError, LoadError, WorldSource};
use crate::path::{PathError, PathIndex, PathOptions, PathScratch, WorldPath};
use crate::world::{LoadOptions, Position, World};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A world and its path index.
#[derive(Debug, Clone)]
pub struct Navigator {
    world: World,
    paths: OnceLock<PathIndex>,
    index_file: PathIndexFound,
}

/// What [`Navigator::load_source`] does with the world's path index file (written by
/// `silknav index`, [`PathIndex::write`]; where it lives: [`crate::files::index_file_in`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathIndexUse {
    /// Use it when present and valid; a stale or damaged one is ignored and reported
    /// ([`Navigator::index_file`]).
    #[default]
    IfValid,
    /// Do not look for it (for work without paths: it saves reading the file).
    Skip,
    /// Fail the load unless it is present and valid ([`LoadError::PathIndex`]).
    Require,
}

/// What loading did with the world's path index file ([`crate::files::index_file_in`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathIndexFound {
    /// Not looked for: [`PathIndexUse::Skip`], or a world not read from a folder.
    #[default]
    NotLookedFor,
    /// The world has no index file there; the first path query builds the index.
    Missing(PathBuf),
    /// Read, checked and used: path queries answer at once.
    Used(PathBuf),
    /// Present and not used, so that no query ever answers from a wrong index: stale (built
    /// from other navmeshes), damaged, or of another format version. The first path query
    /// builds the index in memory; `silknav index --force` writes it again.
    Unusable {
        /// The file.
        path: PathBuf,
        /// Whether it is sound but built from other inputs.
        stale: bool,
        /// Why, as [`IndexFileError`] says it.
        reason: String,
    },
}

impl Navigator {
    /// A navigator over `world`, whose path index is built on the first path query.
    pub fn new(world: World) -> Navigator {
        Navigator {
            world,
            paths: OnceLock::new(),
            index_file: PathIndexFound::NotLookedFor,
        }
    }

    /// A navigator over `world` and its path index.
    ///
    /// # Panics
    /// When `paths` is not the index of `world` ([`PathIndex::is_for`]).
    pub fn with_paths(world: World, paths: PathIndex) -> Navigator {
        assert!(paths.is_for(&world), "the path index of another world");
        Navigator {
            world,
            paths: OnceLock::from(paths),
            index_file: PathIndexFound::NotLookedFor,
        }
    }

    /// Loads the world at `dir` as [`World::load`] does, with its path index file when it is
    /// there and valid ([`PathIndexUse::IfValid`]).
    ///
    /// # Errors
    /// As for [`World::load`].
    pub fn load(dir: impl AsRef<Path>) -> Result<Navigator, LoadError> {
        let source = WorldSource::open(dir)?;
        Navigator::load_source(&source, &LoadOptions::default(), PathIndexUse::IfValid)
    }

    /// Loads the world of `source` ([`World::load_source`]) and does with its path index file
    /// what `use_index` says.
    ///
    /// # Errors
    /// As for [`World::load_source`]; with [`PathIndexUse::Require`], a missing, unreadable,
    /// damaged or stale index file ([`LoadError::PathIndex`]).
    pub fn load_source(
        source: &WorldSource,
        options: &LoadOptions<'_>,
        use_index: PathIndexUse,
    ) -> Result<Navigator, LoadError> {
        let world = World::load_source(source, options)?;
        let mut nav = Navigator::new(world);
        if let (Some(path), true) = (source.path_index_file(), use_index != PathIndexUse::Skip) {
            let (paths, found) = read_index(&nav.world, &path, use_index)?;
            if let Some(paths) = paths {
                nav.paths = OnceLock::from(paths);
            }
            nav.index_file = found;
        }
        Ok(nav)
    }

    /// The world.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, without its index.
    pub fn into_world(self) -> World {
        self.world
    }

    /// What loading did with the world's path index file.
    pub fn index_file(&self) -> &PathIndexFound {
        &self.index_file
    }

    /// Whether the path index is there already, read from its file or built.
    pub fn has_paths(&self) -> bool {
        self.paths.get().is_some()
    }

    /// The path index, built now if it is not there yet.
    pub fn paths(&self) -> &PathIndex {
        self.paths_with_progress(|_, _| {})
    }

    /// [`Navigator::paths`], calling `progress(done, total)` while it builds
    /// ([`PathIndex::build_with_progress`]).
    pub fn paths_with_progress(&self, progress: impl Fn(usize, usize) + Sync) -> &PathIndex {
        self.paths
            .get_or_init(|| PathIndex::build_with_progress(&self.world, progress))
    }

    /// The path from `from` to `to` made as `options` say ([`PathIndex::find_path`]).
    ///
    /// # Errors
    /// As for [`PathIndex::find_path`].
    pub fn find_path(
        &self,
        from: Position,
        to: Position,
        options: &PathOptions,
        scratch: &mut PathScratch,
    ) -> Result<WorldPath, PathError> {
        self.paths()
            .find_path(&self.world, from, to, options, scratch)
    }
}

/// Reads the path index file at `path` for `world`, as `use_index` says: the index when it is
/// usable, and what became of the file.
///
/// # Errors
/// With [`PathIndexUse::Require`], a missing, unreadable, damaged or stale file.
fn read_index(
    world: &World,
    path: &Path,
    use_index: PathIndexUse,
) -> Result<(Option<PathIndex>, PathIndexFound), LoadError> {
    match PathIndex::read(world, path) {
        Ok(paths) => Ok((Some(paths), PathIndexFound::Used(path.to_path_buf()))),
        Err(e) if use_index == PathIndexUse::Require => Err(LoadError::PathIndex(e)),
        Err(e) => Ok((
            None,
            match &e.error {
                IndexFileError::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
                    PathIndexFound::Missing(e.path)
                }
                error => PathIndexFound::Unusable {
                    stale: error.is_stale(),
                    reason: error.to_string(),
                    path: e.path,
                },
            },
        )),
    }
}
