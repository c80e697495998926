//! `silknav move DIR X1 Z1 X2 Z2`: where a walk from the start toward the end stops.
//!
//! Text: `X Z REASON`, the stop in world coordinates and why the walk stopped there (`arrived`,
//! `wall`, `no-edge`), or `none REASON` when the walk fails (`start-blocked`, `off-mesh`,
//! `missing-region`, `step-limit`). JSON: `{"x":..,"z":..,"height":..,"stop":"wall","edge":..}`
//! (`edge` `{"region","kind","index"}` for a wall, else null), or
//! `{"stop":null,"error":"off-mesh"}` (with `"region":"RRRR"` for `missing-region`).

use super::{world_xz, Answer, SegmentArgs};
use crate::exit::Status;
use silknav::query::SegmentQuery;
use silknav::world::{MoveError, MoveOutcome};
use silknav::World;
use std::io::{self, Write};

/// Where a walk stops, as the library's [`silknav::query::move_along`] finds it.
pub struct MoveAnswer(pub Result<MoveOutcome, MoveError>);

/// Answers one query: numbers are `x1 z1 x2 z2`.
pub fn ask(world: &World, n: &[f64]) -> MoveAnswer {
    let q = SegmentQuery::new(n[0], n[1], n[2], n[3]);
    MoveAnswer(silknav::query::move_along(world, q))
}

/// Runs `silknav move`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &SegmentArgs) -> anyhow::Result<Status> {
    super::run(&args.world, args.numbers(), 4, ask)
}

impl Answer for MoveAnswer {
    fn is_yes(&self) -> bool {
        self.0.is_ok()
    }

    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self.0 {
            Ok(outcome) => {
                let (x, z) = world_xz(outcome.position);
                write!(out, "{x} {z} {}", outcome.stop.word())
            }
            Err(e) => write!(out, "none {}", e.word()),
        }
    }

    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        super::write_json(out, &silknav::json::move_along(&self.0))
    }
}
