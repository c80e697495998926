//! `silknav cell DIR X Z [--y Y]`: the cell under a point.
//!
//! Text: `RRRR C` (the region as four lower-case hex digits, the cell's index in its file);
//! on an object, `RRRR C object OOOO:UID CELL` (the instance's owner region and uid, the
//! triangle's index in its mesh; `C` is then the terrain cell of the tile); or `none` on a
//! blocked tile without an object or outside the loaded regions. Without `--y` the highest
//! object triangle wins over the terrain; with it, the object triangle or ground whose height
//! is closest to Y. JSON: `{"region":"4080","cell":12,"object":null}`, with `"object":
//! {"owner":"694f","uid":1,"cell":3}` on an object, or `{"region":null,"cell":null,
//! "object":null}`.

use super::{Answer, PointYArgs};
use crate::exit::Status;
use silknav::query::PointQuery;
use silknav::{CellRef, World};
use std::io::{self, Write};

/// The cell at a point, as the library's [`silknav::query::cell`] finds it.
pub struct CellAnswer(pub Option<CellRef>);

/// Answers one query.
pub fn ask(world: &World, q: PointQuery) -> CellAnswer {
    CellAnswer(silknav::query::cell(world, q))
}

/// Runs `silknav cell`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &PointYArgs) -> anyhow::Result<Status> {
    super::run_with_y(args, ask)
}

impl Answer for CellAnswer {
    fn is_yes(&self) -> bool {
        self.0.is_some()
    }

    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self.0 {
            Some(c) => out.write_all(super::cell_words(c).as_bytes()),
            None => out.write_all(b"none"),
        }
    }

    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        super::write_json(out, &silknav::json::cell(self.0))
    }
}
