//! The checks every text table gets: its count line, its indices, its spelling, its line
//! breaks. Each table names its own codes for them.

use super::text::{LineEnding, NumberFormat, Row};
use crate::lint::{finding, Finding, Severity};
use std::collections::HashMap;

/// A table's list of codes, and which of them the shared checks use.
pub(crate) struct TableCodes {
    pub table: &'static [(&'static str, Severity, &'static str)],
    pub count: &'static str,
    pub duplicate: &'static str,
    /// Indices should ascend (object.ifo); `None` where the position check says enough.
    pub order: Option<&'static str>,
    pub position: &'static str,
    pub decimal: &'static str,
    pub spelling: &'static str,
    pub trailing: &'static str,
    pub endings: &'static str,
}

/// One finding for a check that could fire on every line: how many lines, and the first.
fn summary(
    codes: &TableCodes,
    code: &'static str,
    lines: &[usize],
    what: &str,
    first: impl FnOnce(usize) -> String,
) -> Option<Finding> {
    let &i = lines.first()?;
    let message = match lines.len() {
        1 => format!("1 entry {what}: {}", first(i)),
        n => format!("{n} entries {what}; the first: {}", first(i)),
    };
    Some(finding(codes.table, code, format!("entries[{i}]"), message))
}

/// The shared checks. `spelling` gives an entry's number format and whether the line is in the
/// game's spelling.
pub(crate) fn lint_table<E: Row>(
    codes: &TableCodes,
    count: u32,
    signature_ending: LineEnding,
    count_ending: LineEnding,
    entries: &[E],
    trailing: &[u8],
    spelling: impl Fn(&E) -> (NumberFormat, bool),
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let table = codes.table;
    if u64::from(count) != entries.len() as u64 {
        findings.push(finding(
            table,
            codes.count,
            "count",
            format!(
                "the count line says {count}, but the file has {} entries",
                entries.len()
            ),
        ));
    }

    let mut first_at = HashMap::with_capacity(entries.len());
    let mut off_position = Vec::new();
    let mut decimal = Vec::new();
    let mut misspelled = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let index = entry.index();
        if let Some(j) = first_at.get(&index) {
            findings.push(finding(
                table,
                codes.duplicate,
                format!("entries[{i}].index"),
                format!("index {index} is also the index of entries[{j}]"),
            ));
        } else {
            first_at.insert(index, i);
        }
        if let Some(code) = codes.order {
            if let Some(before) = i.checked_sub(1).map(|j| entries[j].index()) {
                if index < before {
                    findings.push(finding(
                        table,
                        code,
                        format!("entries[{i}].index"),
                        format!("index {index} comes after index {before}"),
                    ));
                }
            }
        }
        if u64::from(index) != i as u64 {
            off_position.push(i);
        }
        match spelling(entry) {
            (NumberFormat::Decimal { .. }, _) => decimal.push(i),
            (_, false) => misspelled.push(i),
            _ => {}
        }
    }
    findings.extend(summary(
        codes,
        codes.position,
        &off_position,
        "have an index other than their line position",
        |i| format!("entries[{i}] has index {}", entries[i].index()),
    ));
    findings.extend(summary(
        codes,
        codes.decimal,
        &decimal,
        "write their number in decimal, where the game writes 0x and 8 hex digits",
        |i| format!("entries[{i}]"),
    ));
    findings.extend(summary(
        codes,
        codes.spelling,
        &misspelled,
        "are not spelled as the game spells them (5-digit index, 0x and 8 lower-case hex \
         digits, single spaces, nothing at the end)",
        |i| format!("entries[{i}]"),
    ));

    if !trailing.is_empty() {
        findings.push(finding(
            table,
            codes.trailing,
            "trailing",
            format!(
                "{} bytes of blank lines after the last entry",
                trailing.len()
            ),
        ));
    }

    let endings = [signature_ending, count_ending]
        .into_iter()
        .chain(entries.iter().map(Row::ending));
    if let Some((line, message)) = mixed_ending(endings) {
        let location = match line {
            0 => "signature".to_string(),
            1 => "count".to_string(),
            n => format!("entries[{}]", n - 2),
        };
        findings.push(finding(table, codes.endings, location, message));
    }
    findings
}

/// The first line whose break differs from the first line's, among lines given by their breaks
/// (lines without a break are skipped): its position, and the message naming both breaks.
pub(crate) fn mixed_ending(
    endings: impl IntoIterator<Item = LineEnding>,
) -> Option<(usize, String)> {
    let mut endings = endings
        .into_iter()
        .enumerate()
        .filter(|(_, e)| *e != LineEnding::None);
    let (_, first) = endings.next()?;
    let (line, ending) = endings.find(|(_, e)| *e != first)?;
    let message = format!(
        "this line ends with {}, the first line with {}",
        name(ending),
        name(first)
    );
    Some((line, message))
}

fn name(ending: LineEnding) -> &'static str {
    match ending {
        LineEnding::Lf => "\\n",
        LineEnding::CrLf => "\\r\\n",
        LineEnding::None => "no line break",
    }
}
