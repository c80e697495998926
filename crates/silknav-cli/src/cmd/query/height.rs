//! `silknav height DIR X Z [--y Y]`: the ground height at a point.
//!
//! Without `--y`, the terrain's height ([`World::height_at`] on [`silknav::Surface::Terrain`]);
//! with it, the height of the object floor or ground nearest Y ([`silknav::Surface::Near`]).
//! Text: the height as the shortest decimal that reads back to the same `f32` (`84.5`, `100`),
//! or `none` outside the loaded regions (blocked tiles have a height too). JSON:
//! `{"height":84.5}` or `{"height":null}`; a height that is not finite (damaged files hold
//! such) is a string, `"inf"`, `"-inf"` or `"nan:XXXXXXXX"`, as in the JSON form of `dump`.

use super::{Answer, PointYArgs};
use crate::exit::Status;
use silknav::query::PointQuery;
use silknav::World;
use std::io::{self, Write};

/// The height at a point, as the library's [`silknav::query::height`] computes it.
pub struct HeightAnswer(pub Option<f32>);

/// Answers one query.
pub fn ask(world: &World, q: PointQuery) -> HeightAnswer {
    HeightAnswer(silknav::query::height(world, q))
}

/// Runs `silknav height`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &PointYArgs) -> anyhow::Result<Status> {
    super::run_with_y(args, ask)
}

impl Answer for HeightAnswer {
    fn is_yes(&self) -> bool {
        self.0.is_some()
    }

    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self.0 {
            // `Display` of an f32 is the shortest decimal that reads back to it, never in
            // exponent form.
            Some(h) => write!(out, "{h}"),
            None => out.write_all(b"none"),
        }
    }

    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        super::write_json(out, &silknav::json::height(self.0))
    }
}
