//! The Moving AI benchmark data committed under `crates/silknav/tests/data/movingai`: the one
//! place tests and benches find it, and readers of its files.
//!
//! The data is part of the repository, so it is never missing in a checkout: every reader
//! panics with the path and the reason when a file cannot be read or parsed, and a test that
//! needs the data fails instead of passing without it. The folder's `SOURCES.md` names each
//! file's origin; [`sources`] reads its table so a test can check the files against it.

use silknav::movingai::{parse_scenarios, GridMap, Scenario};
use std::path::{Path, PathBuf};

/// The benchmark maps, smallest first, by the names their files have under `maps/`.
pub const MAPS: [&str; 5] = [
    "arena.map",
    "rmtst01.map",
    "maze512-32-9.map",
    "random512-25-0.map",
    "brc202d.map",
];

/// The folder of the data: `maps/`, `scen-octile/`, `derived-anyangle/` and `SOURCES.md`.
///
/// # Panics
/// When the folder is missing (a checkout without it is broken).
pub fn data_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../silknav/tests/data/movingai");
    assert!(
        dir.join("SOURCES.md").is_file(),
        "the Moving AI test data is missing: no {} (it is committed under \
         crates/silknav/tests/data/movingai)",
        dir.join("SOURCES.md").display()
    );
    dir
}

/// The text of a data file, by its path inside the folder (`maps/arena.map`).
///
/// # Panics
/// When the file cannot be read; the message names the file and the reason.
pub fn read(relative: &str) -> String {
    let path = data_dir().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "Moving AI test data: cannot read {}: {e} (SOURCES.md lists the files)",
            path.display()
        )
    })
}

/// A map by its file name (`arena.map`), parsed.
///
/// # Panics
/// When the file cannot be read or does not parse.
pub fn map(name: &str) -> GridMap {
    let relative = format!("maps/{name}");
    GridMap::parse(&read(&relative))
        .unwrap_or_else(|e| panic!("Moving AI test data: {relative}: {e}"))
}

/// Every map under `maps/` with its file name, sorted by name.
///
/// # Panics
/// When the folder cannot be listed or a map cannot be read or parsed.
pub fn maps() -> Vec<(String, GridMap)> {
    let dir = data_dir().join("maps");
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("Moving AI test data: cannot list {}: {e}", dir.display()));
    let mut names: Vec<String> = entries
        .map(|e| {
            e.unwrap_or_else(|e| panic!("Moving AI test data: listing {}: {e}", dir.display()))
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".map"))
        .collect();
    names.sort();
    names.into_iter().map(|n| (n.clone(), map(&n))).collect()
}

/// The published octile queries of a map (`scen-octile/<map>.scen`).
///
/// # Panics
/// When the file cannot be read or does not parse.
pub fn octile(map: &str) -> Vec<Scenario> {
    scenarios(&format!("scen-octile/{map}.scen"))
}

/// The derived any-angle queries of a map (`derived-anyangle/<map>.scen`): the octile file's
/// queries with their any-angle optima, −1 for none.
///
/// # Panics
/// When the file cannot be read or does not parse.
pub fn anyangle(map: &str) -> Vec<Scenario> {
    scenarios(&format!("derived-anyangle/{map}.scen"))
}

/// A scenario file by its path inside the folder, parsed.
///
/// # Panics
/// When the file cannot be read or does not parse.
pub fn scenarios(relative: &str) -> Vec<Scenario> {
    parse_scenarios(&read(relative))
        .unwrap_or_else(|e| panic!("Moving AI test data: {relative}: {e}"))
}

/// One row of the file table in `SOURCES.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The file's path inside the folder (`maps/arena.map`).
    pub file: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// How many queries it lists (scenario files), `None` for a map.
    pub queries: Option<usize>,
    /// Its SHA-1, in lowercase hex.
    pub sha1: String,
}

/// The file table of `SOURCES.md`: every row whose first column is a path in backticks.
///
/// # Panics
/// When `SOURCES.md` cannot be read or a row of the table is malformed; the message names the
/// line.
pub fn sources() -> Vec<Source> {
    let text = read("SOURCES.md");
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(row) = line.strip_prefix("| `") else {
            continue;
        };
        let columns: Vec<&str> = row.trim_end_matches('|').split(" | ").collect();
        let bad = |what: &str| -> ! { panic!("SOURCES.md line {}: {what} in {line:?}", n + 1) };
        // file | content | source @ commit | path in source | bytes | queries | sha1
        if columns.len() != 7 {
            bad(&format!("expected 7 columns, found {}", columns.len()));
        }
        let file = columns[0]
            .strip_suffix('`')
            .unwrap_or_else(|| bad("expected a path in backticks"));
        let bytes = columns[4]
            .trim()
            .parse()
            .unwrap_or_else(|_| bad("expected a size in bytes in column 5"));
        let queries = match columns[5].trim() {
            "-" => None,
            count => Some(
                count
                    .parse()
                    .unwrap_or_else(|_| bad("expected a query count or `-` in column 6")),
            ),
        };
        let sha1 = columns[6].trim();
        if sha1.len() != 40 || !sha1.bytes().all(|b| b.is_ascii_hexdigit()) {
            bad("expected 40 hex digits of SHA-1 in column 7");
        }
        out.push(Source {
            file: file.to_string(),
            bytes,
            queries,
            sha1: sha1.to_ascii_lowercase(),
        });
    }
    out
}
