//! `silknav move DIR X1 Z1 X2 Z2`: where a walk from the start toward the end stops.
//!
//! Text: `X Z REASON`, the stop in world coordinates and why the walk stopped there (`arrived`,
//! `wall`, `no-edge`), or `none REASON` when the walk fails (`start-blocked`, `off-mesh`,
//! `missing-region`, `step-limit`). JSON: `{"x":..,"z":..,"height":..,"stop":"wall","edge":..}`
//! (`edge` `{"region","kind","index"}` for a wall, else null), or
//! `{"stop":null,"error":"off-mesh"}` (with `"region":"RRRR"` for `missing-region`).

use super::{xz_of, Answer, EdgeJson, SegmentArgs};
use crate::exit::Status;
use jmxv::json::Float;
use jmxv::F32;
use serde::Serialize;
use silknav::world::{MoveError, MoveOutcome, MoveStop};
use silknav::{world_xz, World};
use std::io::{self, Write};

/// Where a walk stops, as the library's [`World::move_along`] finds it.
pub struct MoveAnswer(pub Result<MoveOutcome, MoveError>);

/// Answers one query: numbers are `x1 z1 x2 z2`.
pub fn ask(world: &World, n: &[f64]) -> MoveAnswer {
    MoveAnswer(world_xz::move_along(world, [n[0], n[1], n[2], n[3]]))
}

/// Runs `silknav move`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &SegmentArgs) -> anyhow::Result<Status> {
    super::run(&args.world, args.numbers(), 4, ask)
}

#[derive(Serialize)]
struct MoveJson {
    #[serde(flatten)]
    stop_at: Option<StopJson>,
    stop: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    edge: Option<Option<EdgeJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<String>,
}

#[derive(Serialize)]
struct StopJson {
    x: f64,
    z: f64,
    height: Float,
}

impl Answer for MoveAnswer {
    fn is_yes(&self) -> bool {
        self.0.is_ok()
    }

    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self.0 {
            Ok(outcome) => {
                let (x, z) = xz_of(outcome.position);
                write!(out, "{x} {z} {}", outcome.stop.word())
            }
            Err(e) => write!(out, "none {}", e.word()),
        }
    }

    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        let json = match self.0 {
            Ok(outcome) => {
                let (x, z) = xz_of(outcome.position);
                let edge = match outcome.stop {
                    MoveStop::Wall { region, edge } => Some(EdgeJson::new(region, edge)),
                    _ => None,
                };
                MoveJson {
                    stop_at: Some(StopJson {
                        x,
                        z,
                        height: Float(F32::from(outcome.height)),
                    }),
                    stop: Some(outcome.stop.word()),
                    edge: Some(edge),
                    error: None,
                    region: None,
                }
            }
            Err(e) => MoveJson {
                stop_at: None,
                stop: None,
                edge: None,
                error: Some(e.word()),
                region: match e {
                    MoveError::MissingRegion(r) => Some(r.to_string()),
                    _ => None,
                },
            },
        };
        serde_json::to_writer(out, &json).map_err(io::Error::from)
    }
}
