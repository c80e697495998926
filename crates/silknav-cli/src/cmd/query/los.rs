//! `silknav los DIR X1 Z1 X2 Z2`: whether the segment is clear, and where it is blocked.
//!
//! Text: `clear`, `blocked X Z` (the first blocking point, world coordinates), or `none
//! REASON` when the segment cannot be cast: `start-blocked` (the start is not on walkable
//! ground) or `bad-end` (the end is outside the terrain id space). JSON: `{"clear":true}`,
//! `{"clear":false,"x":..,"z":..,"t":..,"edge":..,"normal":[..]}` (`t` from 0 at the start to 1
//! at the end; `edge` `{"region","kind","index"}` of the wall, or null where the ground ends
//! without a stored wall), or `{"clear":null,"error":"start-blocked"}`.

use super::{position, world_xz, Answer, EdgeJson, SegmentArgs};
use crate::exit::Status;
use serde::Serialize;
use silknav::world::{RayError, RayHit};
use silknav::World;
use std::io::{self, Write};

/// The first blocking point of a segment, as the library's [`World::raycast`] finds it.
pub struct LosAnswer(pub Result<Option<RayHit>, RayError>);

/// Answers one query: numbers are `x1 z1 x2 z2`.
pub fn ask(world: &World, n: &[f64]) -> LosAnswer {
    let Some(from) = position(n[0], n[1]) else {
        return LosAnswer(Err(RayError::StartNotWalkable));
    };
    let Some(to) = position(n[2], n[3]) else {
        return LosAnswer(Err(RayError::BadEnd));
    };
    LosAnswer(world.raycast(from, to))
}

/// Runs `silknav los`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &SegmentArgs) -> anyhow::Result<Status> {
    super::run(&args.world, args.numbers(), 4, ask)
}

#[derive(Serialize)]
struct LosJson {
    clear: Option<bool>,
    #[serde(flatten)]
    hit: Option<HitJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'static str>,
}

#[derive(Serialize)]
struct HitJson {
    x: f64,
    z: f64,
    t: f64,
    edge: Option<EdgeJson>,
    normal: [f32; 2],
}

impl Answer for LosAnswer {
    fn is_yes(&self) -> bool {
        matches!(self.0, Ok(None))
    }

    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self.0 {
            Ok(None) => out.write_all(b"clear"),
            Ok(Some(hit)) => {
                let (x, z) = world_xz(hit.point);
                write!(out, "blocked {x} {z}")
            }
            Err(e) => write!(out, "none {}", e.word()),
        }
    }

    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        let json = match self.0 {
            Ok(None) => LosJson {
                clear: Some(true),
                hit: None,
                error: None,
            },
            Ok(Some(hit)) => {
                let (x, z) = world_xz(hit.point);
                LosJson {
                    clear: Some(false),
                    hit: Some(HitJson {
                        x,
                        z,
                        t: hit.t,
                        edge: hit.edge.map(|(r, e)| EdgeJson::new(r, e)),
                        normal: hit.normal,
                    }),
                    error: None,
                }
            }
            Err(e) => LosJson {
                clear: None,
                hit: None,
                error: Some(e.word()),
            },
        };
        serde_json::to_writer(out, &json).map_err(io::Error::from)
    }
}
