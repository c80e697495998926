//! Lint of one `mapinfo.mfo`: its size against the id space and against its bitmap.

use super::{MapInfo, GAME_HEIGHT, GAME_WIDTH};
use crate::lint::{finding, Finding, Severity};
use crate::RegionId;

/// Every lint code with its severity and meaning, as in the module docs.
pub const CODES: &[(&str, Severity, &str)] = &[
    (
        "M001",
        Severity::Error,
        "width not in 1..=256 or height not in 1..=128",
    ),
    (
        "M002",
        Severity::Warning,
        "enabled terrain regions outside width × height",
    ),
    ("M003", Severity::Warning, "enabled dungeon regions"),
    ("M004", Severity::Warning, "the unknown bytes are not zero"),
    ("M005", Severity::Warning, "trailing bytes after the bitmap"),
    ("M006", Severity::Warning, "no region enabled"),
];

/// How many region ids a finding about many regions lists.
const SHOWN: usize = 8;

/// `n regions (0123, 4567, …)`.
fn describe(regions: &[RegionId], total: usize) -> String {
    let shown: Vec<String> = regions.iter().map(RegionId::to_string).collect();
    let more = if total > regions.len() { ", …" } else { "" };
    format!("{total} regions ({}{more})", shown.join(", "))
}

/// Lints one `mapinfo.mfo`: the codes in [`CODES`], in code order.
pub fn lint(map: &MapInfo) -> Vec<Finding> {
    let mut findings = Vec::new();
    let width_ok = (1..=GAME_WIDTH).contains(&map.width);
    let height_ok = (1..=GAME_HEIGHT).contains(&map.height);
    if !width_ok || !height_ok {
        findings.push(finding(
            CODES,
            "M001",
            if width_ok { "height" } else { "width" },
            format!(
                "the map is {} × {} regions; region ids allow 1..=256 columns and 1..=128 rows",
                map.width, map.height
            ),
        ));
    }

    let (mut outside, mut dungeons) = ((Vec::new(), 0), (Vec::new(), 0));
    for region in map.enabled_regions() {
        let list = if region.is_dungeon() {
            &mut dungeons
        } else if i32::from(region.x()) >= i32::from(map.width)
            || i32::from(region.z()) >= i32::from(map.height)
        {
            &mut outside
        } else {
            continue;
        };
        if list.0.len() < SHOWN {
            list.0.push(region);
        }
        list.1 += 1;
    }
    if outside.1 > 0 {
        findings.push(finding(
            CODES,
            "M002",
            "bitmap",
            format!(
                "{} are enabled outside the {} × {} map",
                describe(&outside.0, outside.1),
                map.width,
                map.height
            ),
        ));
    }
    if dungeons.1 > 0 {
        findings.push(finding(
            CODES,
            "M003",
            "bitmap",
            format!(
                "{} with the dungeon bit are enabled; the game's file lists no dungeon",
                describe(&dungeons.0, dungeons.1)
            ),
        ));
    }
    if map.unknown != [0; 8] {
        findings.push(finding(
            CODES,
            "M004",
            "unknown",
            format!(
                "the unknown bytes are {:02x?}, zero in the game's files",
                map.unknown
            ),
        ));
    }
    if !map.trailing.is_empty() {
        findings.push(finding(
            CODES,
            "M005",
            "trailing",
            format!("{} bytes after the bitmap", map.trailing.len()),
        ));
    }
    if map.enabled_count() == 0 {
        findings.push(finding(
            CODES,
            "M006",
            "bitmap",
            "no region is enabled".to_string(),
        ));
    }
    findings
}
