//! `silknav height DIR X Z`: the ground height at a point.
//!
//! Text: the height as the shortest decimal that reads back to the same `f32` (`84.5`, `100`),
//! or `none` outside the loaded regions (blocked tiles have a height too). JSON:
//! `{"height":84.5}` or `{"height":null}`; a height that is not finite (damaged files hold
//! such) is a string, `"inf"`, `"-inf"` or `"nan:XXXXXXXX"`, as in the JSON form of `dump`.

use super::{position, Answer, PointArgs};
use crate::exit::Status;
use jmxv::json::Float;
use jmxv::F32;
use serde::Serialize;
use silknav::World;
use std::io::{self, Write};

/// The height at a point, as the library's [`World::height_at`] computes it.
pub struct HeightAnswer(pub Option<f32>);

/// Answers one query: numbers are `x z`.
pub fn ask(world: &World, numbers: &[f64]) -> HeightAnswer {
    HeightAnswer(position(numbers[0], numbers[1]).and_then(|p| world.height_at(p)))
}

/// Runs `silknav height`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &PointArgs) -> anyhow::Result<Status> {
    super::run(&args.world, args.numbers(), 2, ask)
}

#[derive(Serialize)]
struct HeightJson {
    height: Option<Float>,
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
        let json = HeightJson {
            height: self.0.map(|h| Float(F32::from(h))),
        };
        serde_json::to_writer(out, &json).map_err(io::Error::from)
    }
}
