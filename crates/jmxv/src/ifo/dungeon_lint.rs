//! Lint of one `dungeoninfo.txt` ([`crate::ifo::dungeon`]): ids the server would confuse, paths
//! it could not load, and spelling that differs from the game's.
//!
//! # Lint codes
//! | code | severity | finding |
//! |---|---|---|
//! | I001 | error | a dungeon id is listed twice among the rows the server loads (two dungeons for one region) |
//! | I002 | warning | a dungeon id is listed again beside a row the server skips (service 0) |
//! | I003 | error | a dungeon id above 0x7FFF: `0x8000 \| id` is not a 16-bit dungeon region id |
//! | I004 | error | an empty path |
//! | I005 | warning | a path that does not end in `.dof` (any case) |
//! | I006 | warning | a service flag other than 0 and 1 (readers differ on whether the row is loaded) |
//! | I007 | warning | rows with and rows without the service column in one file |
//! | I008 | warning | a path with forward slashes (the game's use backslashes) |
//! | I009 | warning | rows not in the game's spelling (one tab between fields, no padding, nothing around them) |
//! | I010 | warning | the file mixes `\n` and `\r\n` line breaks |
//! | I011 | warning | no row the server loads |
//!
//! Locations name the line (`lines[4].id`), counting comment and blank lines. I009 could fire
//! on every row, so it is reported once, with the number of rows and the first.

use super::dungeon::{DungeonInfo, DungeonLine, EXTENSION, MAX_ID};
use super::lint::mixed_ending;
use crate::error::describe_bytes;
use crate::lint::{finding, sort, Finding, Severity};
use std::collections::HashMap;

/// Every lint code with its severity and meaning, as in the module docs.
pub const CODES: &[(&str, Severity, &str)] = &[
    (
        "I001",
        Severity::Error,
        "a dungeon id is listed twice among the rows the server loads",
    ),
    (
        "I002",
        Severity::Warning,
        "a dungeon id is listed again beside a row the server skips",
    ),
    (
        "I003",
        Severity::Error,
        "a dungeon id above 0x7FFF has no dungeon region id",
    ),
    ("I004", Severity::Error, "an empty path"),
    (
        "I005",
        Severity::Warning,
        "a path that does not end in .dof",
    ),
    (
        "I006",
        Severity::Warning,
        "a service flag other than 0 and 1",
    ),
    (
        "I007",
        Severity::Warning,
        "rows with and rows without the service column in one file",
    ),
    ("I008", Severity::Warning, "a path with forward slashes"),
    ("I009", Severity::Warning, "rows not in the game's spelling"),
    (
        "I010",
        Severity::Warning,
        "the file mixes \\n and \\r\\n line breaks",
    ),
    ("I011", Severity::Warning, "no row the server loads"),
];

/// Lints one `dungeoninfo.txt`: the codes in [`CODES`], findings in file order within each
/// code.
pub fn lint(info: &DungeonInfo) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut report = |code, location: String, message: String| {
        findings.push(finding(CODES, code, location, message));
    };
    let mut first_served: HashMap<u32, usize> = HashMap::new();
    let mut first_any: HashMap<u32, usize> = HashMap::new();
    let mut first_form = None;
    let mut mixed_forms = false;
    let mut misspelled = Vec::new();
    let mut any_served = false;
    for (i, line) in info.lines.iter().enumerate() {
        let Some(row) = line.as_row() else {
            continue;
        };
        let at = |field: &str| format!("lines[{i}].{field}");
        let id = row.id;
        let earlier_served = row.is_served().then(|| first_served.get(&id)).flatten();
        if let Some(j) = earlier_served {
            report(
                "I001",
                at("id"),
                format!("dungeon {id} is also loaded from lines[{j}]"),
            );
        } else if let Some(j) = first_any.get(&id) {
            report(
                "I002",
                at("id"),
                format!("dungeon {id} is also listed on lines[{j}], one of the two with service 0"),
            );
        }
        first_any.entry(id).or_insert(i);
        if row.is_served() {
            first_served.entry(id).or_insert(i);
            any_served = true;
        }
        if id > MAX_ID {
            report(
                "I003",
                at("id"),
                format!("dungeon id {id} does not fit 15 bits: 0x8000 | id is no 16-bit region id"),
            );
        }
        if row.path.is_empty() {
            report(
                "I004",
                at("path"),
                "the path is empty: the server has no .dof to load".into(),
            );
        } else if !row
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case(EXTENSION))
        {
            report(
                "I005",
                at("path"),
                format!(
                    "path {} does not name a .dof dungeon",
                    describe_bytes(&row.path)
                ),
            );
        }
        if let Some(service) = row.service.filter(|&s| s > 1) {
            report(
                "I006",
                at("service"),
                format!(
                    "service flag {service}: some readers load only rows with 1, others skip only rows with 0"
                ),
            );
        }
        let form = row.service.is_some();
        match first_form {
            None => first_form = Some((form, i)),
            // One finding: every later row of the other form says the same.
            Some((first, j)) if first != form && !mixed_forms => {
                let has = |f: bool| if f { "has" } else { "lacks" };
                report(
                    "I007",
                    format!("lines[{i}]"),
                    format!(
                        "this row {} the service column, the first row (lines[{j}]) {} it",
                        has(form),
                        has(first)
                    ),
                );
                mixed_forms = true;
            }
            Some(_) => {}
        }
        if row.path.contains(&b'/') {
            report(
                "I008",
                at("path"),
                format!(
                    "path {} uses forward slashes; the game's paths use backslashes",
                    describe_bytes(&row.path)
                ),
            );
        }
        if !row.format.is_game_spelling(row.service, row.id) {
            misspelled.push(i);
        }
    }
    if let Some(&i) = misspelled.first() {
        let message = match misspelled.len() {
            1 => format!(
                "1 row is not spelled as the game spells rows (one tab between fields, no \
                 padding, nothing around them): lines[{i}]"
            ),
            n => format!(
                "{n} rows are not spelled as the game spells rows (one tab between fields, no \
                 padding, nothing around them); the first: lines[{i}]"
            ),
        };
        report("I009", format!("lines[{i}]"), message);
    }
    if let Some((i, message)) = mixed_ending(info.lines.iter().map(DungeonLine::ending)) {
        report("I010", format!("lines[{i}]"), message);
    }
    if !any_served {
        report(
            "I011",
            "lines".into(),
            "no row has a service flag other than 0: the server loads no dungeon".into(),
        );
    }
    sort(&mut findings);
    findings
}
