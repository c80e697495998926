//! `silknav cell DIR X Z`: the cell under a point.
//!
//! Text: `RRRR C` (the region as four lower-case hex digits, the cell's index in its file), or
//! `none` on a blocked tile or outside the loaded regions. JSON: `{"region":"4080","cell":12}`,
//! or `{"region":null,"cell":null}`.

use super::{position, Answer, PointArgs};
use crate::exit::Status;
use serde::Serialize;
use silknav::{CellRef, World};
use std::io::{self, Write};

/// The cell at a point, as the library's [`World::cell_at`] finds it.
pub struct CellAnswer(pub Option<CellRef>);

/// Answers one query: numbers are `x z`.
pub fn ask(world: &World, numbers: &[f64]) -> CellAnswer {
    CellAnswer(position(numbers[0], numbers[1]).and_then(|p| world.cell_at(p)))
}

/// Runs `silknav cell`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &PointArgs) -> anyhow::Result<Status> {
    super::run(&args.world, args.numbers(), 2, ask)
}

#[derive(Serialize)]
struct CellJson {
    region: Option<String>,
    cell: Option<u16>,
}

impl Answer for CellAnswer {
    fn is_yes(&self) -> bool {
        self.0.is_some()
    }

    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self.0 {
            Some(c) => write!(out, "{} {}", c.region, c.cell),
            None => out.write_all(b"none"),
        }
    }

    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        let json = CellJson {
            region: self.0.map(|c| c.region.to_string()),
            cell: self.0.map(|c| c.cell),
        };
        serde_json::to_writer(out, &json).map_err(io::Error::from)
    }
}
