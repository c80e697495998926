//! Navigation over Silkroad Online worlds, built on the [`jmxv`] file formats.
//!
//! - [`build`]: valid navmesh files from tile masks (the back end of world generation and
//!   imports).
//! - [`query`]: the queries in world coordinates, as the command line, the server and the
//!   bindings take them, one at a time or many at once on all cores; with the `serde`
//!   feature, [`json`]: their answers as the JSON the command line and the server send.
//! - [`corpus`]: statistics over every file of a folder or archive, for bug reports.
//! - [`files`]: the files of a world folder, read and written together: which file is which
//!   ([`files::scan_folder`]) and the one atomic writer ([`files::write_atomic`]).
//! - [`worldgen`]: synthetic game-like worlds.
//! - [`geometry`]: the exact predicates and the x-z boxes the queries share.
//! - [`lint`]: world lint, the checks that need several files.
//! - [`movingai`]: Moving AI grid benchmark maps as worlds.
//! - [`rng`]: the seeded generator of generated worlds, for inputs that are the same on every
//!   machine.
//! - [`objects`]: buildings, gates and bridges: their files resolved, placed and indexed.
//! - [`path`]: exact any-angle shortest paths across regions, also for a walker that keeps a
//!   radius from every obstacle ([`path::radius`]).
//! - [`world`]: a world of regions in memory and the game server's queries on it.
//!
//! # Features
//! - `serde`: the [`json`] module (and `jmxv`'s JSON forms).
//!
//! The format crate is re-exported so that users need one dependency.
//!
//! Every item has one home, its module. The crate root also re-exports the dozen types every
//! program names (`World`, `Position`, `Surface`, `PathIndex`, `PathOptions`, …).
//!
//! Parallel work (loading a folder, building the path index) runs on rayon's current thread
//! pool: all cores unless `RAYON_NUM_THREADS` says otherwise, or capped per call by running it
//! inside a pool of your own (`pool.install(|| World::load(dir))`).
//!
//! # Example
//!
//! The calls of the README's example, on a world generated into a temporary data root instead
//! of the game's `Data`:
//!
//! ```
//! use jmxv::nvm::NavMesh;
//! use silknav::{Position, Surface, World};
//!
//! let dir = std::env::temp_dir().join(format!("silknav-doc-{}", std::process::id()));
//! let options = silknav::worldgen::GenOptions { width: 1, height: 1, ..Default::default() };
//! silknav::worldgen::generate(&options)?.into_files().write_data_root(&dir, silknav::files::Overwrite::Replace)?;
//! let region = options.regions()?[0];
//!
//! // Read a file, change nothing, write it back: the same bytes.
//! let bytes = std::fs::read(dir.join("navmesh").join(region.file_name()))?;
//! let mesh = NavMesh::parse(&bytes)?;
//! assert_eq!(mesh.to_vec()?, bytes);
//!
//! // Load a world (mapinfo.mfo + nv_*.nvm, in parallel; the data root or its navmesh folder)
//! // and ask what the server would answer.
//! let world = World::load(&dir)?;
//! let (x, z) = (f64::from(region.x()) * 1920.0, f64::from(region.z()) * 1920.0);
//! let here = Position::from_world(x + 500.0, z + 500.0).expect("inside the id space");
//! if let Some(cell) = world.cell_at(here, Surface::Highest) {
//!     let height = world.height_at(here, Surface::Highest);
//!     println!("cell {} of region {}, height {height:?}", cell.cell, cell.region);
//! }
//! assert!(world.cell_at(here, Surface::Highest).is_some(), "seed 1 has open ground there");
//! let there = Position::from_world(x + 900.0, z + 500.0).unwrap();
//! match world.raycast(here, there, Surface::Highest) {
//!     Ok(None) => println!("clear"),
//!     Ok(Some(hit)) => println!("blocked at {} (t = {:.3})", hit.point, hit.t),
//!     Err(e) => println!("cannot cast: {e}"),
//! }
//!
//! // The shortest path, by the world's path index (a value beside the world, built once on
//! // all cores); one scratch per thread, reused across queries.
//! let paths = silknav::PathIndex::build(&world);
//! let mut scratch = silknav::PathScratch::new();
//! match paths.find_path(&world, here, there, &silknav::PathOptions::default(), &mut scratch) {
//!     Ok(path) => {
//!         println!("{:.1} units through {} waypoints", path.length, path.waypoints.len());
//!         assert_eq!(path.waypoints.first(), Some(&here));
//!     }
//!     Err(e) => println!("no path: {e}"),
//! }
//! std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The README's example is compiled with the tests too (`cargo test --doc`).

pub mod build;
pub mod corpus;
pub mod files;
pub mod geometry;
#[cfg(feature = "serde")]
pub mod json;
pub mod lint;
pub mod movingai;
mod navigator;
pub mod objects;
pub mod path;
pub mod query;
pub mod rng;
pub mod world;
pub mod worldgen;

pub use navigator::{Navigator, PathIndexFound, PathIndexUse};
pub use path::{
    PathError, PathIndex, PathIndexStats, PathOptions, PathOptionsError, PathScratch, WorldPath,
    DEFAULT_CLEARANCE, MAX_RADIUS,
};
pub use world::movement::MoveOptions;
pub use world::{
    CellRef, LoadFinding, LoadFindingKind, LoadOptions, LoadReport, Position, Surface, World,
};

pub use jmxv;
pub use pk2_archive;

/// An error on one line, as the command line reports it: the error, then each of its sources,
/// joined by `": "`, with line breaks (from the operating system or a JSON document) turned
/// into spaces. For a malformed file of a world:
/// `w/nv_4080.nvm: offset 420 (0x1a4): cells[12].objects: unexpected end of input (needed 2
/// bytes, 1 left)`.
pub fn error_line(e: &(dyn std::error::Error + 'static)) -> String {
    let mut line = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        line.push_str(": ");
        line.push_str(&cause.to_string());
        source = cause.source();
    }
    line.replace(['\n', '\r'], " ")
}

/// Compiles every Rust block of the README as a doctest, so that its example keeps up with
/// the API.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

#[cfg(test)]
mod tests {
    use super::world::{movement::MoveError, raycast::RayError};
    use super::*;
    use std::error::Error;

    /// The crate's top-level modules, lowest first: each uses only those before it, so that
    /// they depend one way (geometry → files → objects → world → path → query and JSON).
    const LAYERS: [&str; 14] = [
        "rng",
        "geometry",
        "build",
        "files",
        "lint",
        "corpus",
        "objects",
        "world",
        "worldgen",
        "movingai",
        "path",
        "navigator",
        "query",
        "json",
    ];

    /// The `crate::` paths a source file's code names, without its comments and its tests
    /// (a file named `tests.rs`, or the `#[cfg(test)] mod tests` at its end).
    fn crate_paths(source: &str) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        let mut lines = source.lines().enumerate().peekable();
        while let Some((n, line)) = lines.next() {
            let code = line.trim_start();
            let next = lines.peek().map_or("", |(_, l)| l.trim_start());
            if code.starts_with("#[cfg(test)]") && next.contains("mod tests") {
                break;
            }
            if code.starts_with("//") {
                continue;
            }
            for (at, _) in code.match_indices("crate::") {
                let name: String = code[at + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                out.push((n + 1, name));
            }
        }
        out
    }

    #[test]
    fn top_level_modules_depend_one_way() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let rank = |name: &str| LAYERS.iter().position(|&m| m == name);
        // Every top-level module has its place.
        let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
        for line in lib.lines() {
            let declared = line
                .trim_start_matches("pub ")
                .strip_prefix("mod ")
                .and_then(|rest| rest.strip_suffix(';'));
            if let Some(module) = declared {
                assert!(rank(module).is_some(), "{module} has no place in LAYERS");
            }
        }
        let mut stack = vec![src.clone()];
        let mut checked = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let relative = path.strip_prefix(&src).unwrap();
                let name = relative.file_name().unwrap().to_str().unwrap();
                if !name.ends_with(".rs") || name == "tests.rs" || name == "lib.rs" {
                    continue;
                }
                let top = relative.components().next().unwrap().as_os_str();
                let top = top.to_str().unwrap().trim_end_matches(".rs");
                let own = rank(top).unwrap_or_else(|| panic!("{top} has no place in LAYERS"));
                let text = std::fs::read_to_string(&path).unwrap();
                for (line, used) in crate_paths(&text) {
                    if let Some(other) = rank(&used) {
                        assert!(
                            other <= own,
                            "{}:{line}: {top} uses crate::{used}, which comes after it",
                            relative.display()
                        );
                    }
                }
                checked += 1;
            }
        }
        assert!(checked > 50, "{checked} files read");
    }

    #[test]
    fn no_error_repeats_its_source() {
        let too_wide = worldgen::GenOptions {
            width: 0,
            ..Default::default()
        };
        let errors: Vec<Box<dyn Error>> = vec![
            Box::new(PathError::StartBlocked),
            Box::new(PathError::GoalBlocked),
            Box::new(PathError::Unreachable),
            Box::new(PathError::BudgetExceeded),
            Box::new(MoveError::StartNotWalkable),
            Box::new(MoveError::OffMesh),
            Box::new(MoveError::MissingRegion(jmxv::RegionId(0x694e))),
            Box::new(MoveError::StepLimit),
            Box::new(RayError::StartNotWalkable),
            Box::new(RayError::BadEnd),
            Box::new(worldgen::generate(&too_wide).unwrap_err()),
            Box::new(movingai::GridMap::parse("type octile\n").unwrap_err()),
            Box::new(movingai::parse_scenarios("version 1\n0\tm\n").unwrap_err()),
        ];
        for e in &errors {
            let texts = silknav_testkit::error_chain(e.as_ref());
            assert!(!texts[0].is_empty(), "{e:?}");
        }
    }

    #[test]
    fn error_line_joins_the_chain_on_one_line() {
        let mut bytes = jmxv::nvm::NavMesh::default().to_vec().unwrap();
        bytes.truncate(40);
        let format = jmxv::nvm::NavMesh::parse(&bytes).unwrap_err();
        let error = files::LoadError::from(files::FileError::new("w/nv_4080.nvm", format.clone()));
        assert_eq!(error_line(&error), format!("w/nv_4080.nvm: {format}"));
        assert!(error_line(&error).starts_with("w/nv_4080.nvm: offset "));
        let io = files::FileError::new("w", std::io::Error::other("line one\nline two"));
        assert_eq!(error_line(&io), "w: line one line two");
    }

    #[test]
    fn error_words_for_command_lines() {
        let path = [
            PathError::StartBlocked,
            PathError::GoalBlocked,
            PathError::Unreachable,
            PathError::BudgetExceeded,
        ]
        .map(PathError::word);
        assert_eq!(
            path,
            [
                "start-blocked",
                "goal-blocked",
                "unreachable",
                "budget-exceeded"
            ]
        );
        let ray = [RayError::StartNotWalkable, RayError::BadEnd].map(RayError::word);
        assert_eq!(ray, ["start-blocked", "bad-end"]);
    }
}
