//! `silknav move DIR X1 Z1 X2 Z2 [--guard one-sided|symmetric|off]`: where a walk from the
//! start toward the end stops.
//!
//! Text: `X Z REASON`, the stop in world coordinates and why the walk stopped there (`arrived`,
//! `wall`, `no-edge`), or `none REASON` when the walk fails (`start-blocked`, `too-far`,
//! `off-mesh`, `missing-region`, `step-limit`). JSON: `{"x":..,"z":..,"height":..,"stop":"wall","edge":..}`
//! (`edge` `{"region","kind","index"}` for a wall, else null), or
//! `{"stop":null,"error":"off-mesh"}` (with `"region":"RRRR"` for `missing-region`).

use super::{position, world_xz, Answer, EdgeJson, SegmentArgs};
use crate::exit::Status;
use jmxv::json::Float;
use jmxv::F32;
use serde::Serialize;
use silknav::world::{DistanceGuard, MoveError, MoveOptions, MoveOutcome, MoveStop};
use silknav::World;
use std::io::{self, Write};

/// Where a walk stops, as the library's [`World::move_along`] finds it.
pub struct MoveAnswer(pub Result<MoveOutcome, MoveError>);

/// `silknav move`'s arguments.
#[derive(Debug, clap::Args)]
pub struct MoveArgs {
    #[command(flatten)]
    segment: SegmentArgs,
    /// The server's refusal of goals more than 1920 units away: `one-sided` (the server's:
    /// only goals east or north), `symmetric` (either way), `off`
    #[arg(long, value_enum, default_value_t = GuardArg::OneSided)]
    guard: GuardArg,
}

/// [`DistanceGuard`] on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GuardArg {
    /// Refuse goals more than 1920 units east or north of the start, as the server does
    OneSided,
    /// Refuse goals more than 1920 units away along x or z, either way
    Symmetric,
    /// Refuse nothing
    Off,
}

impl From<GuardArg> for DistanceGuard {
    fn from(g: GuardArg) -> DistanceGuard {
        match g {
            GuardArg::OneSided => DistanceGuard::OneSided,
            GuardArg::Symmetric => DistanceGuard::Symmetric,
            GuardArg::Off => DistanceGuard::Off,
        }
    }
}

/// Answers one query: numbers are `x1 z1 x2 z2`.
pub fn ask(world: &World, n: &[f64], options: &MoveOptions) -> MoveAnswer {
    let Some(from) = position(n[0], n[1]) else {
        return MoveAnswer(Err(MoveError::StartNotWalkable));
    };
    let Some(to) = position(n[2], n[3]) else {
        return MoveAnswer(Err(MoveError::OffMesh));
    };
    MoveAnswer(world.move_with(from, to, options))
}

/// Runs `silknav move`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &MoveArgs) -> anyhow::Result<Status> {
    let options = MoveOptions::new().with_guard(args.guard.into());
    super::run(
        &args.segment.world,
        args.segment.numbers(),
        4,
        |world, n| ask(world, n, &options),
    )
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
                let (x, z) = world_xz(outcome.position);
                write!(out, "{x} {z} {}", outcome.stop.word())
            }
            Err(e) => write!(out, "none {}", e.word()),
        }
    }

    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        let json = match self.0 {
            Ok(outcome) => {
                let (x, z) = world_xz(outcome.position);
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
