//! The exception classes, and the library's errors turned into them with the command line's
//! one-line messages.
//!
//! ```text
//! silknav.Error
//! ├── LoadError        a world or a file cannot be loaded (.path)
//! │   └── FormatError  its bytes are malformed (.offset, .section, .path)
//! ├── JsonError        a document is not the JSON form of a navmesh (.json_path, .line, .column)
//! ├── WriteError       a navmesh cannot be written (.section, .path)
//! └── QueryError       a query cannot be answered (.reason, the command line's word; .region)
//! ```

use pyo3::exceptions::{PyBaseException, PyException, PyFileExistsError};
use pyo3::prelude::*;
use silknav::files::{FileError, LoadError as RustLoadError, WriteFileError};
use silknav::world::{movement::MoveError, raycast::RayError};
use silknav::PathError;

pyo3::create_exception!(
    silknav,
    Error,
    PyException,
    "The base class of every error silknav raises."
);
pyo3::create_exception!(
    silknav,
    LoadError,
    Error,
    "A world or a file cannot be loaded: a folder that cannot be listed, an unreadable file, \
     two files for one region, a folder from which no region loads. `.path` names the file or \
     folder (None when there is none)."
);
pyo3::create_exception!(
    silknav,
    FormatError,
    LoadError,
    "A malformed file: `.offset` is the byte offset of the problem, `.section` the section being \
     read (named like the JSON keys, `cells[12].objects`), `.path` the file (None for bytes \
     given directly)."
);
pyo3::create_exception!(
    silknav,
    JsonError,
    Error,
    "A document that is not the JSON form of a navmesh: `.json_path` is the path of the \
     offending value (`cells[3].min[1]`), or `.line` and `.column` locate a syntax error."
);
pyo3::create_exception!(
    silknav,
    WriteError,
    Error,
    "A navmesh that cannot be written (a count beyond its on-disk width, data its layout has \
     no room for: `.section`), or a file that cannot be written (`.path`)."
);
pyo3::create_exception!(
    silknav,
    QueryError,
    Error,
    "A query that cannot be answered: `.reason` is the command line's word for why \
     (`start-blocked`, `goal-blocked`, `unreachable`, `budget-exceeded`, `not-walkable`, `bad-end`, \
     `off-mesh`, `missing-region`, `step-limit`); `.region` names the region of \
     `missing-region`, else None."
);

/// `err` with the attributes `set` gives it (or the error of setting them).
fn with_attributes(
    py: Python<'_>,
    err: PyErr,
    set: impl FnOnce(&Bound<'_, PyBaseException>) -> PyResult<()>,
) -> PyErr {
    match set(err.value(py)) {
        Ok(()) => err,
        Err(failed) => failed,
    }
}

/// A path as Python sees it in an exception: text, with what is not UTF-8 replaced.
fn path_text(path: &std::path::Path) -> String {
    path.to_string_lossy().into_owned()
}

/// A malformed file or buffer, as `FormatError` with the message `message`.
pub fn format_error(
    py: Python<'_>,
    message: String,
    error: &jmxv::Error,
    path: Option<&std::path::Path>,
) -> PyErr {
    with_attributes(py, FormatError::new_err(message), |e| {
        e.setattr("offset", error.offset())?;
        e.setattr("section", error.section())?;
        e.setattr("path", path.map(path_text))
    })
}

/// A file that could not be read or parsed: `FormatError` for malformed bytes, else
/// `LoadError` with the operating system's error as its cause.
fn file_error(py: Python<'_>, message: String, e: FileError) -> PyErr {
    let path = e.path.clone();
    match e.error {
        jmxv::ReadError::Format(format) => format_error(py, message, &format, Some(&path)),
        jmxv::ReadError::Io(io) => {
            let err = plain_load_error(py, message, Some(&path));
            err.set_cause(py, Some(PyErr::from(io)));
            err
        }
        _ => plain_load_error(py, message, Some(&path)),
    }
}

fn plain_load_error(py: Python<'_>, message: String, path: Option<&std::path::Path>) -> PyErr {
    with_attributes(py, LoadError::new_err(message), |e| {
        e.setattr("path", path.map(path_text))
    })
}

/// A world that could not be loaded, with the command line's message.
pub fn load_error(py: Python<'_>, e: RustLoadError) -> PyErr {
    let message = silknav::error_line(&e);
    match e {
        RustLoadError::File(file) => file_error(py, message, file),
        RustLoadError::DuplicateName { second, .. } => plain_load_error(py, message, Some(&second)),
        RustLoadError::NoRegion { dir } => plain_load_error(py, message, Some(&dir)),
        _ => plain_load_error(py, message, None),
    }
}

/// A single file that could not be read or parsed, named `path` in the message as the command
/// line names it.
pub fn read_error(py: Python<'_>, path: &std::path::Path, e: jmxv::ReadError) -> PyErr {
    let file = FileError::new(path, e);
    let message = silknav::error_line(&file);
    file_error(py, message, file)
}

/// A JSON document that does not describe a navmesh.
pub fn json_error(py: Python<'_>, e: &jmxv::json::JsonError) -> PyErr {
    let (line, column) = e.position().unzip();
    with_attributes(py, JsonError::new_err(silknav::error_line(e)), |err| {
        err.setattr("json_path", e.path())?;
        err.setattr("line", line)?;
        err.setattr("column", column)
    })
}

/// A navmesh that cannot be encoded.
pub fn encode_error(py: Python<'_>, e: &jmxv::WriteError, path: Option<&std::path::Path>) -> PyErr {
    let message = match path {
        Some(path) => format!("{}: {}", path.display(), silknav::error_line(e)),
        None => silknav::error_line(e),
    };
    with_attributes(py, WriteError::new_err(message), |err| {
        err.setattr("section", e.section())?;
        err.setattr("path", path.map(path_text))
    })
}

/// A file that could not be written: `FileExistsError` for an existing file without
/// `overwrite=True`, else `WriteError` (with the operating system's error as its cause).
pub fn write_file_error(py: Python<'_>, e: WriteFileError) -> PyErr {
    let path = e.path().to_path_buf();
    match e {
        WriteFileError::Exists { .. } => PyFileExistsError::new_err(format!(
            "{}: already exists (pass overwrite=True to replace it)",
            path.display()
        )),
        WriteFileError::Encode { source, .. } => encode_error(py, &source, Some(&path)),
        other => {
            let message = silknav::error_line(&other);
            let err = with_attributes(py, WriteError::new_err(message), |err| {
                err.setattr("section", None::<&str>)?;
                err.setattr("path", path_text(&path))
            });
            if let WriteFileError::Io { source, .. } = other {
                err.set_cause(py, Some(PyErr::from(source)));
            }
            err
        }
    }
}

/// A query that cannot be answered: its word, the library's sentence, and the region of a
/// walk that leads into one not loaded.
fn query_error(
    py: Python<'_>,
    word: &str,
    e: &(dyn std::error::Error + 'static),
    region: Option<String>,
) -> PyErr {
    with_attributes(
        py,
        QueryError::new_err(format!("{word}: {}", silknav::error_line(e))),
        |err| {
            err.setattr("reason", word)?;
            err.setattr("region", region)
        },
    )
}

/// A segment that cannot be cast.
pub fn ray_error(py: Python<'_>, e: RayError) -> PyErr {
    query_error(py, e.word(), &e, None)
}

/// A walk that fails.
pub fn move_error(py: Python<'_>, e: MoveError) -> PyErr {
    let region = match e {
        MoveError::MissingRegion(r) => Some(r.to_string()),
        _ => None,
    };
    query_error(py, e.word(), &e, region)
}

/// No path.
pub fn path_error(py: Python<'_>, e: PathError) -> PyErr {
    query_error(py, e.word(), &e, None)
}

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("LoadError", py.get_type::<LoadError>())?;
    m.add("FormatError", py.get_type::<FormatError>())?;
    m.add("JsonError", py.get_type::<JsonError>())?;
    m.add("WriteError", py.get_type::<WriteError>())?;
    m.add("QueryError", py.get_type::<QueryError>())?;
    Ok(())
}
