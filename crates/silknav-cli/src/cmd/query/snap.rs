//! `silknav snap DIR X Z [--max-distance D] [--y Y]`: the walkable point nearest a point.
//!
//! Text: `X Z distance D cell CELL` — the point in world coordinates, its distance from the
//! query, its cell as `silknav cell` prints it — or `none` when nothing walkable lies within
//! the distance. JSON: [`silknav::json::snap`]. Walkable is what `silknav cell` answers (with
//! `--y`, what `cell --y` answers); the point is the closest f32 point of it, so that `cell`
//! answers it and a walk (`move`) starts from it.

use super::{cell_words, world_xz, Answer, PointYArgs};
use crate::exit::Status;
use crate::values;
use silknav::query::PointQuery;
use silknav::world::snap::Snap;
use silknav::World;
use std::io::{self, Write};

/// The nearest walkable point, as the library's [`silknav::query::snap`] finds it.
pub struct SnapAnswer(pub Option<Snap>);

/// `silknav snap`'s arguments.
#[derive(Debug, clap::Args)]
pub struct SnapArgs {
    #[command(flatten)]
    point: PointYArgs,
    /// How far from the point to look, in world units
    #[arg(long, value_name = "D", default_value_t = 100.0, value_parser = values::distance)]
    max_distance: f64,
}

/// Answers one query.
pub fn ask(world: &World, q: PointQuery, max_distance: f64) -> SnapAnswer {
    SnapAnswer(silknav::query::snap(world, q, max_distance))
}

/// Runs `silknav snap`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &SnapArgs) -> anyhow::Result<Status> {
    let max = args.max_distance;
    super::run_with_y(&args.point, move |world, q| ask(world, q, max))
}

impl Answer for SnapAnswer {
    fn is_yes(&self) -> bool {
        self.0.is_some()
    }

    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self.0 {
            Some(s) => {
                let (x, z) = world_xz(s.position);
                write!(
                    out,
                    "{x} {z} distance {} cell {}",
                    s.distance,
                    cell_words(s.cell)
                )
            }
            None => out.write_all(b"none"),
        }
    }

    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        super::write_json(out, &silknav::json::snap(self.0))
    }
}
