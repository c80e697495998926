//! Generated worlds kept on disk between bench runs.
//!
//! A world of the live game's size takes about 15 s to generate and 4 s and 390 MB to write,
//! so a bench generates it once into `<target>/bench-worlds/<name>/` and reuses the folder
//! while its marker file still describes it. The marker records the options, a fingerprint of
//! the generator and the folder's file count and byte total; a folder is regenerated when any
//! of them disagree, so a changed generator or a damaged folder never feeds a stale world to a
//! measurement. The folders live in the target directory, which is never committed.

use silknav::files::WorldFiles;
use silknav::worldgen::{generate, GenOptions, Landscape};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The world of the live game's size, as the benches share it: its cache name and options
/// (60×55 = 3,300 regions at region (128, 64), seed 1).
pub const LIVE: (&str, GenOptions) = (
    "live-3300",
    GenOptions {
        seed: 1,
        width: 60,
        height: 55,
        origin: (128, 64),
        landscape: Landscape::Rugged,
    },
);

/// The marker's name inside a cached world folder; written last, so an interrupted
/// generation leaves a folder without one, which is regenerated.
pub const MARKER: &str = "bench-world.txt";

/// A generated world's folder, ready to load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedWorld {
    /// The folder.
    pub dir: PathBuf,
    /// How many regions the world has.
    pub regions: usize,
    /// The world's files in the folder (the marker excluded), sorted by name.
    pub files: Vec<PathBuf>,
    /// Their total size in bytes.
    pub bytes: u64,
}

/// The folder cached worlds live in: `<target>/bench-worlds` ([`crate::target_dir`]).
pub fn bench_worlds_dir() -> PathBuf {
    crate::target_dir().join("bench-worlds")
}

/// The world `options` describes, in `bench_worlds_dir()/name`: reused when its marker matches,
/// generated and written otherwise (with progress on stderr, since that takes a while).
///
/// # Errors
/// Options that describe no world, or I/O errors while scanning or writing the folder.
pub fn cached_world(name: &str, options: &GenOptions) -> io::Result<CachedWorld> {
    if let Some(world) = find_cached(name, options)? {
        eprintln!(
            "bench world {name}: reusing {} ({} files, {} MB)",
            world.dir.display(),
            world.files.len(),
            world.bytes / 1_000_000
        );
        return Ok(world);
    }
    let dir = bench_worlds_dir().join(name);
    let head = marker_head(options)?;
    eprintln!(
        "bench world {name}: generating {}×{} regions at {:?}, seed {} into {} ...",
        options.width,
        options.height,
        options.origin,
        options.seed,
        dir.display()
    );
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    let started = Instant::now();
    let files = generate(options).map_err(invalid)?.into_files();
    let generated = started.elapsed();
    files.write_dir(&dir, silknav::files::Overwrite::Replace)?;
    let (paths, bytes) = scan(&dir)?;
    let regions = files.navmeshes.len();
    std::fs::write(
        dir.join(MARKER),
        format!("{head}files {}\nbytes {bytes}\n", paths.len()),
    )?;
    eprintln!(
        "bench world {name}: generated in {:.1} s, written in {:.1} s ({} files, {} MB)",
        generated.as_secs_f64(),
        (started.elapsed() - generated).as_secs_f64(),
        paths.len(),
        bytes / 1_000_000
    );
    Ok(CachedWorld {
        dir,
        regions,
        files: paths,
        bytes,
    })
}

/// The world `options` describes when `bench_worlds_dir()/name` already holds it, without
/// generating anything.
///
/// # Errors
/// Options that describe no world, or I/O errors while scanning the folder.
pub fn find_cached(name: &str, options: &GenOptions) -> io::Result<Option<CachedWorld>> {
    reuse(&bench_worlds_dir().join(name), &marker_head(options)?)
}

/// The folder as a cached world, when its marker starts with `head` and its counts still hold.
fn reuse(dir: &Path, head: &str) -> io::Result<Option<CachedWorld>> {
    let Ok(marker) = std::fs::read_to_string(dir.join(MARKER)) else {
        return Ok(None);
    };
    let Some(counts) = marker.strip_prefix(head) else {
        return Ok(None);
    };
    let (files, bytes) = scan(dir)?;
    if counts != format!("files {}\nbytes {bytes}\n", files.len()) {
        return Ok(None);
    }
    let regions = files
        .iter()
        .filter_map(|p| p.file_name()?.to_str())
        .filter(|name| jmxv::RegionId::from_file_name(name).is_some())
        .count();
    Ok(Some(CachedWorld {
        dir: dir.to_path_buf(),
        regions,
        files,
        bytes,
    }))
}

/// The marker's lines that do not depend on the folder's contents.
fn marker_head(options: &GenOptions) -> io::Result<String> {
    Ok(format!(
        "silknav bench world\nseed {}\nsize {}x{}\norigin {},{}\nlandscape {:?}\ngenerator {:016x}\n",
        options.seed,
        options.width,
        options.height,
        options.origin.0,
        options.origin.1,
        options.landscape,
        generator_fingerprint(options)?
    ))
}

/// A hash of the bytes of a 1×1 world generated with the same seed and origin: milliseconds to
/// compute, and it changes whenever the generator's output does, which a version number
/// would not. (The hasher may differ between Rust releases; that only costs a regeneration.)
fn generator_fingerprint(options: &GenOptions) -> io::Result<u64> {
    let small = GenOptions {
        width: 1,
        height: 1,
        ..*options
    };
    let files: WorldFiles = generate(&small).map_err(invalid)?.into_files();
    let mut hasher = DefaultHasher::new();
    files.to_files().map_err(invalid)?.hash(&mut hasher);
    Ok(hasher.finish())
}

/// The cached world's files packed into an archive as the client stores them (`navmesh/` at
/// its root, so the archive's root is the data root), kept beside the world's folder as
/// `<name>.pk2`: reused while its marker (`<name>.pk2.txt`: the world's marker and the
/// archive's length) still describes the world, packed again otherwise.
///
/// # Errors
/// I/O errors reading the world or writing the archive; files that cannot be packed.
pub fn cached_archive(world: &CachedWorld) -> io::Result<PathBuf> {
    let archive = world.dir.with_extension("pk2");
    let marker = world.dir.with_extension("pk2.txt");
    let head = std::fs::read_to_string(world.dir.join(MARKER))?;
    if let (Ok(found), Ok(meta)) = (std::fs::read_to_string(&marker), archive.metadata()) {
        if found == format!("{head}archive bytes {}\n", meta.len()) {
            return Ok(archive);
        }
    }
    let started = Instant::now();
    let mut files = Vec::with_capacity(world.files.len());
    for path in &world.files {
        let name = path.file_name().and_then(|n| n.to_str()).ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidData, "a name that is not UTF-8")
        })?;
        files.push((format!("navmesh/{name}"), std::fs::read(path)?));
    }
    let bytes = silknav::pk2_archive::pack(files, &silknav::pk2_archive::Key::default())
        .map_err(invalid)?;
    std::fs::write(&archive, &bytes)?;
    std::fs::write(&marker, format!("{head}archive bytes {}\n", bytes.len()))?;
    eprintln!(
        "bench world archive {}: packed in {:.1} s ({} MB)",
        archive.display(),
        started.elapsed().as_secs_f64(),
        bytes.len() / 1_000_000
    );
    Ok(archive)
}

/// The files of a folder other than the marker, sorted, and their total size.
fn scan(dir: &Path) -> io::Result<(Vec<PathBuf>, u64)> {
    let mut files = Vec::new();
    let mut bytes = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        // The path index file is the index bench's, written beside the world and replaced on
        // each run: not part of the generated world.
        let derived = [MARKER, silknav::files::INDEX_FILE_NAME];
        if derived.iter().any(|d| entry.file_name() == *d) || !entry.file_type()?.is_file() {
            continue;
        }
        bytes += entry.metadata()?.len();
        files.push(entry.path());
    }
    files.sort();
    Ok((files, bytes))
}

fn invalid(error: impl std::error::Error + Send + Sync + 'static) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, error)
}
