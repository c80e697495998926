//! Writing a file atomically: all of the new bytes or none of them, and no existing file
//! replaced unless asked.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Whether a write may replace a file that already exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overwrite {
    /// An existing file is left alone and the write fails with [`WriteFileError::Exists`].
    Refuse,
    /// An existing file is replaced.
    Replace,
}

impl Overwrite {
    /// [`Overwrite::Replace`] when `force` is set (a command's `--force`), else
    /// [`Overwrite::Refuse`].
    pub fn from_force(force: bool) -> Overwrite {
        if force {
            Overwrite::Replace
        } else {
            Overwrite::Refuse
        }
    }
}

/// A file that could not be written.
#[derive(Debug)]
#[non_exhaustive]
pub enum WriteFileError {
    /// The file exists and [`Overwrite::Refuse`] was asked for; it is unchanged.
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// The operating system refused (the source says why).
    Io {
        /// The file (or folder) being written.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// The contents could not be encoded, so nothing was written.
    Encode {
        /// The file or folder that was to be written.
        path: PathBuf,
        /// Why the model has no bytes.
        source: jmxv::WriteError,
    },
}

impl WriteFileError {
    /// The file (or folder) the error is about.
    pub fn path(&self) -> &Path {
        match self {
            WriteFileError::Exists { path }
            | WriteFileError::Io { path, .. }
            | WriteFileError::Encode { path, .. } => path,
        }
    }

    fn io(path: &Path, source: io::Error) -> WriteFileError {
        WriteFileError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

impl fmt::Display for WriteFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteFileError::Exists { path } => write!(
                f,
                "{}: already exists (use --force to replace it)",
                path.display()
            ),
            // The source carries the detail; a chain printed with ": " reads `PATH: why`.
            WriteFileError::Io { path, .. } | WriteFileError::Encode { path, .. } => {
                write!(f, "{}", path.display())
            }
        }
    }
}

impl std::error::Error for WriteFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteFileError::Exists { .. } => None,
            WriteFileError::Io { source, .. } => Some(source),
            WriteFileError::Encode { source, .. } => Some(source),
        }
    }
}

impl From<WriteFileError> for io::Error {
    /// An I/O error of the same kind (`AlreadyExists` for [`WriteFileError::Exists`],
    /// `InvalidInput` for [`WriteFileError::Encode`]), carrying the whole error.
    fn from(e: WriteFileError) -> io::Error {
        let kind = match &e {
            WriteFileError::Exists { .. } => io::ErrorKind::AlreadyExists,
            WriteFileError::Io { source, .. } => source.kind(),
            WriteFileError::Encode { .. } => io::ErrorKind::InvalidInput,
        };
        io::Error::new(kind, e)
    }
}

/// Fails when `path` exists and may not be replaced: a courtesy check before slow work for a
/// file, so that a refusal comes early. [`write_atomic`] decides again, without a race.
///
/// # Errors
/// [`WriteFileError::Exists`] when `path` exists (even as a dangling link) and `overwrite` is
/// [`Overwrite::Refuse`].
pub fn check_new(path: &Path, overwrite: Overwrite) -> Result<(), WriteFileError> {
    if overwrite == Overwrite::Refuse && std::fs::symlink_metadata(path).is_ok() {
        return Err(WriteFileError::Exists {
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// Writes `bytes` to `path` so that the file is either entirely old or entirely new.
///
/// The bytes go to a uniquely named temporary file in the target's folder (so that the rename
/// stays on one file system), are synced to disk, and the temporary file then takes the
/// target's name. With [`Overwrite::Refuse`] the rename itself refuses an existing target
/// (`renameat2(RENAME_NOREPLACE)`, or a hard link where that is missing), so two writers racing
/// for one path cannot both win. The temporary file is removed whatever happens.
///
/// # Errors
/// [`WriteFileError::Exists`] when the file exists and `overwrite` is [`Overwrite::Refuse`]
/// (it is unchanged then); [`WriteFileError::Io`] when the folder is missing or not writable.
pub fn write_atomic(path: &Path, bytes: &[u8], overwrite: Overwrite) -> Result<(), WriteFileError> {
    write_atomic_with(path, overwrite, |out| out.write_all(bytes))
}

/// [`write_atomic`] of the bytes `write` produces, streamed through a buffer into the
/// temporary file, for files too large to assemble in memory first. If `write` fails, nothing
/// is replaced.
///
/// # Errors
/// As for [`write_atomic`], and whatever `write` returns (as [`WriteFileError::Io`]).
pub(crate) fn write_atomic_with(
    path: &Path,
    overwrite: Overwrite,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteFileError> {
    check_new(path, overwrite)?;
    let fail = |e| WriteFileError::io(path, e);
    let name = path.file_name().ok_or_else(|| {
        fail(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the path names no file",
        ))
    })?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    // Hidden, and named after its target, so that a leftover after a crash says whose it is.
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    let mut temp = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(".tmp")
        .tempfile_in(folder)
        .map_err(fail)?;
    {
        let mut out = io::BufWriter::with_capacity(1 << 20, temp.as_file_mut());
        write(&mut out).map_err(fail)?;
        out.flush().map_err(fail)?;
    }
    // The data must be on disk before the name points at it, or a crash could leave an empty
    // file where the old one was.
    temp.as_file().sync_all().map_err(fail)?;
    // A failed persist hands the temporary file back inside the error; dropping it removes it.
    match overwrite {
        Overwrite::Replace => temp.persist(path).map_err(|e| fail(e.error))?,
        Overwrite::Refuse => temp.persist_noclobber(path).map_err(|e| {
            if e.error.kind() == io::ErrorKind::AlreadyExists {
                WriteFileError::Exists {
                    path: path.to_path_buf(),
                }
            } else {
                fail(e.error)
            }
        })?,
    };
    sync_folder(folder);
    Ok(())
}

/// Makes the rename itself durable where the platform allows syncing a folder.
fn sync_folder(folder: &Path) {
    #[cfg(unix)]
    {
        // Best effort: the file is complete and in place already; some file systems refuse
        // to sync a folder, and that must not turn a finished write into an error.
        if let Ok(dir) = std::fs::File::open(folder) {
            let _ = dir.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = folder;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn refuses_an_existing_file_and_replaces_when_asked() {
        let dir = temp_dir();
        let path = dir.path().join("a.nvm");
        write_atomic(&path, b"first", Overwrite::Refuse).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        let refused = write_atomic(&path, b"second", Overwrite::Refuse).unwrap_err();
        assert!(
            matches!(refused, WriteFileError::Exists { .. }),
            "{refused}"
        );
        assert_eq!(
            refused.to_string(),
            format!(
                "{}: already exists (use --force to replace it)",
                path.display()
            )
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        assert_eq!(
            io::Error::from(refused).kind(),
            io::ErrorKind::AlreadyExists
        );
        write_atomic(&path, b"second", Overwrite::Replace).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert_eq!(names(dir.path()), ["a.nvm"], "no temporary file is left");
    }

    #[test]
    fn a_missing_folder_is_an_io_error_naming_the_file() {
        let dir = temp_dir();
        let path = dir.path().join("missing").join("x.png");
        let err = write_atomic(&path, b"x", Overwrite::Replace).unwrap_err();
        let WriteFileError::Io { source, .. } = &err else {
            panic!("{err:?}");
        };
        assert_eq!(source.kind(), io::ErrorKind::NotFound);
        assert_eq!(err.to_string(), path.display().to_string());
        assert!(std::error::Error::source(&err).is_some());
        assert_eq!(err.path(), path);
    }

    #[test]
    fn a_dangling_link_counts_as_existing() {
        #[cfg(unix)]
        {
            let dir = temp_dir();
            let path = dir.path().join("link.json");
            std::os::unix::fs::symlink(dir.path().join("nowhere"), &path).unwrap();
            assert!(matches!(
                write_atomic(&path, b"x", Overwrite::Refuse),
                Err(WriteFileError::Exists { .. })
            ));
            assert!(!dir.path().join("nowhere").exists());
        }
    }

    #[test]
    fn racing_writers_one_wins_and_readers_never_see_part_of_a_file() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Barrier;
        const ROUNDS: usize = 200;
        // Big enough that a write takes several system calls; distinct per writer.
        let contents: [Vec<u8>; 2] = [vec![b'a'; 1 << 18], vec![b'b'; 1 << 18]];
        let dir = temp_dir();
        for round in 0..ROUNDS {
            let path = dir.path().join(format!("r{round}.bin"));
            let barrier = Barrier::new(3);
            let done = AtomicBool::new(false);
            let (results, seen) = std::thread::scope(|scope| {
                let writers: Vec<_> = contents
                    .iter()
                    .map(|bytes| {
                        let (path, barrier) = (&path, &barrier);
                        scope.spawn(move || {
                            barrier.wait();
                            write_atomic(path, bytes, Overwrite::Refuse)
                        })
                    })
                    .collect();
                let reader = scope.spawn(|| {
                    barrier.wait();
                    let mut seen = Vec::new();
                    while !done.load(Ordering::Acquire) {
                        if let Ok(bytes) = std::fs::read(&path) {
                            seen.push(bytes);
                        }
                    }
                    seen
                });
                let results: Vec<_> = writers.into_iter().map(|w| w.join().unwrap()).collect();
                done.store(true, Ordering::Release);
                (results, reader.join().unwrap())
            });
            let winners: Vec<usize> = (0..2).filter(|&i| results[i].is_ok()).collect();
            assert_eq!(winners.len(), 1, "round {round}: {results:?}");
            let loser = 1 - winners[0];
            assert!(
                matches!(&results[loser], Err(WriteFileError::Exists { path: p }) if *p == path),
                "round {round}: {:?}",
                results[loser]
            );
            let winner = &contents[winners[0]];
            assert_eq!(&std::fs::read(&path).unwrap(), winner, "round {round}");
            for bytes in &seen {
                assert!(
                    bytes == winner,
                    "round {round}: a reader saw {} bytes of another file",
                    bytes.len()
                );
            }
        }
        let left = names(dir.path());
        assert_eq!(left.len(), ROUNDS, "no temporary file is left: {left:?}");
        assert!(left.iter().all(|n| !n.ends_with(".tmp")));
    }

    #[test]
    fn racing_replacements_leave_one_whole_file() {
        use std::sync::Barrier;
        let contents: [Vec<u8>; 2] = [vec![1; 1 << 16], vec![2; 1 << 17]];
        let dir = temp_dir();
        let path = dir.path().join("w.bin");
        for round in 0..50 {
            let barrier = Barrier::new(2);
            std::thread::scope(|scope| {
                for bytes in &contents {
                    let (path, barrier) = (&path, &barrier);
                    scope.spawn(move || {
                        barrier.wait();
                        write_atomic(path, bytes, Overwrite::Replace).unwrap();
                    });
                }
            });
            let now = std::fs::read(&path).unwrap();
            assert!(
                contents.contains(&now),
                "round {round}: {} bytes",
                now.len()
            );
        }
        assert_eq!(names(dir.path()), ["w.bin"]);
    }
}
