//! Moving AI benchmark maps as worlds: `silknav import-movingai`.
//!
//! Grid cell (x, y) becomes tile (x mod 96, y mod 96) of region (origin_x + x div 96,
//! origin_z + y div 96): map rows run along +z, without a flip, so a map's (x, y) is world
//! (x·20, y·20) from the origin region's corner. `.`, `G` and `S` are open, everything else is
//! blocked, tiles past the map's edge are blocked, heights are flat.
//! Formats: <https://movingai.com/benchmarks/formats.html>.

use crate::build::{build_world, RegionInput};
use jmxv::nvm::{NavMesh, TILES_PER_SIDE};
use jmxv::RegionId;
use std::collections::BTreeMap;
use std::fmt;

/// A grid map: which cells are open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridMap {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `open[y * width + x]`.
    pub open: Vec<bool>,
}

impl GridMap {
    /// Whether cell (x, y) is open; cells outside the map are not.
    pub fn is_open(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height && self.open[y * self.width + x]
    }

    /// Parses a `.map` file: `type`, `height H`, `width W`, `map`, then H rows of W characters.
    ///
    /// # Errors
    /// A missing or malformed header line, a row of the wrong length, too few rows, or a map
    /// too large to import (over 24,576 cells a side: 256 regions).
    pub fn parse(text: &str) -> Result<GridMap, MapError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
        // Header lines are `key` or `key value`; returns the value and the line number.
        let mut header = |key: &str| -> Result<(Option<&str>, usize), MapError> {
            let (n, line) = lines
                .next()
                .ok_or_else(|| MapError::new(0, format!("missing `{key}` line")))?;
            let mut words = line.split_whitespace();
            if words.next() != Some(key) {
                return Err(MapError::new(
                    n,
                    format!("expected `{key} …`, found {line:?}"),
                ));
            }
            Ok((words.next(), n))
        };
        let number = |(value, n): (Option<&str>, usize), key: &str| -> Result<usize, MapError> {
            value.and_then(|w| w.parse().ok()).ok_or_else(|| {
                MapError::new(
                    n,
                    format!("expected a number after `{key}`, found {value:?}"),
                )
            })
        };
        header("type")?;
        let height = number(header("height")?, "height")?;
        let width = number(header("width")?, "width")?;
        header("map")?;
        const MAX_SIDE: usize = 256 * TILES_PER_SIDE;
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(MapError::new(
                3,
                format!("a {width}×{height} map cannot be imported (1..={MAX_SIDE} a side)"),
            ));
        }
        let mut open = Vec::with_capacity(width.saturating_mul(height).min(text.len()));
        for y in 0..height {
            let (n, row) = lines
                .next()
                .ok_or_else(|| MapError::new(0, format!("expected {height} rows, found {y}")))?;
            if row.len() != width {
                return Err(MapError::new(
                    n,
                    format!("expected a row of {width} cells, found {}", row.len()),
                ));
            }
            open.extend(row.bytes().map(|c| matches!(c, b'.' | b'G' | b'S')));
        }
        Ok(GridMap {
            width,
            height,
            open,
        })
    }

    /// Regions needed along x and z.
    pub fn region_span(&self) -> (usize, usize) {
        (
            self.width.div_ceil(TILES_PER_SIDE),
            self.height.div_ceil(TILES_PER_SIDE),
        )
    }

    /// The map as one navmesh per region, with the map's (0, 0) at the corner of region
    /// `origin` (x, z).
    ///
    /// # Errors
    /// When the map would reach past region x 255 or z 127.
    pub fn to_world(&self, origin: (u8, u8)) -> Result<BTreeMap<RegionId, NavMesh>, MapError> {
        Ok(build_world(&self.region_inputs(origin)?))
    }

    /// The builder input of every region the map covers.
    ///
    /// # Errors
    /// As for [`GridMap::to_world`].
    pub fn region_inputs(&self, origin: (u8, u8)) -> Result<Vec<RegionInput>, MapError> {
        let (span_x, span_z) = self.region_span();
        let (ox, oz) = (usize::from(origin.0), usize::from(origin.1));
        if ox + span_x > 256 || oz + span_z > 128 {
            return Err(MapError::new(
                0,
                format!("a {span_x}×{span_z}-region map at origin {ox},{oz} reaches past region x 255 or z 127"),
            ));
        }
        let n = TILES_PER_SIDE;
        let mut inputs = Vec::with_capacity(span_x * span_z);
        for rz in 0..span_z {
            for rx in 0..span_x {
                let mut input = RegionInput::open(RegionId::new((ox + rx) as u8, (oz + rz) as u8));
                for (t, blocked) in input.blocked.iter_mut().enumerate() {
                    *blocked = !self.is_open(rx * n + t % n, rz * n + t / n);
                }
                inputs.push(input);
            }
        }
        Ok(inputs)
    }
}

/// One query of a `.scen` file.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Difficulty bucket.
    pub bucket: u32,
    /// Map file name.
    pub map: String,
    /// Start (x, y).
    pub start: (u32, u32),
    /// Goal (x, y).
    pub goal: (u32, u32),
    /// The listed optimal length (−1 for none in derived files).
    pub length: f64,
}

/// Parses a `.scen` file: `version 1`, then tab-separated
/// `bucket map width height sx sy gx gy length` lines.
///
/// # Errors
/// A line with too few fields or a field that is not a number.
pub fn parse_scenarios(text: &str) -> Result<Vec<Scenario>, MapError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with("version") {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 9 {
            return Err(MapError::new(
                i + 1,
                format!("expected 9 tab-separated fields, found {}", f.len()),
            ));
        }
        let num = |k: usize| -> Result<u32, MapError> {
            f[k].trim().parse().map_err(|_| {
                MapError::new(
                    i + 1,
                    format!("field {} is not a whole number: {:?}", k + 1, f[k]),
                )
            })
        };
        out.push(Scenario {
            bucket: num(0)?,
            map: f[1].to_string(),
            start: (num(4)?, num(5)?),
            goal: (num(6)?, num(7)?),
            length: f[8]
                .trim()
                .parse()
                .map_err(|_| MapError::new(i + 1, format!("length is not a number: {:?}", f[8])))?,
        });
    }
    Ok(out)
}

/// A malformed map or scenario file, with the line it was found on (0 when not tied to one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapError {
    line: usize,
    message: String,
}

impl MapError {
    fn new(line: usize, message: impl Into<String>) -> MapError {
        MapError {
            line,
            message: message.into(),
        }
    }

    /// The 1-based line number, or 0.
    pub fn line(&self) -> usize {
        self.line
    }
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for MapError {}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "type octile\nheight 3\nwidth 4\nmap\n.@..\nGTS.\n....\n";

    #[test]
    fn parses_and_classifies_cells() {
        let map = GridMap::parse(SMALL).unwrap();
        assert_eq!((map.width, map.height), (4, 3));
        assert!(map.is_open(0, 0) && !map.is_open(1, 0) && map.is_open(0, 1));
        assert!(!map.is_open(1, 1) && map.is_open(2, 1) && !map.is_open(4, 0));
    }

    #[test]
    fn malformed_maps_name_their_line() {
        let short_row = "type octile\nheight 2\nwidth 3\nmap\n...\n..\n";
        assert_eq!(GridMap::parse(short_row).unwrap_err().line(), 6);
        let bad_header = "type octile\nheight x\nwidth 3\nmap\n";
        assert_eq!(GridMap::parse(bad_header).unwrap_err().line(), 2);
        assert!(GridMap::parse("type octile\nheight 2\nwidth 3\nmap\n...\n").is_err());
        assert!(GridMap::parse("").is_err());
    }

    #[test]
    fn tiles_come_out_exactly() {
        let map = GridMap::parse(SMALL).unwrap();
        let world = map.to_world((10, 20)).unwrap();
        let mesh = &world[&RegionId::new(10, 20)];
        for y in 0..96 {
            for x in 0..96 {
                let tile = mesh.tiles[y * 96 + x];
                let open = usize::from(tile.cell()) < mesh.open_cell_count as usize;
                assert_eq!(open, map.is_open(x, y), "({x}, {y})");
                assert_eq!(tile.is_blocked(), !open);
            }
        }
    }

    #[test]
    fn scenarios_parse() {
        let text = "version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1.00000000\n";
        let s = parse_scenarios(text).unwrap();
        assert_eq!(s[0].start, (1, 11));
        assert_eq!(s[0].goal, (1, 12));
        assert_eq!(s[0].length, 1.0);
        assert!(parse_scenarios("0\tx\t1\n").is_err());
    }
}
