//! `silknav los DIR X1 Z1 X2 Z2 [--y Y]`: whether the segment is clear, and where it is
//! blocked.
//!
//! The segment starts on the surface `cell` picks for the start (with `--y`, or a fifth number
//! on a batch line, the one nearest Y). Text: `clear`, `blocked X Z` (the first blocking
//! point, world coordinates), `blocked X Z object OOOO:UID KIND N` when an object edge
//! blocked it (the instance's owner region and uid, `outline` or `inline`, the edge's index
//! in that list of the mesh), or `none REASON` when the segment cannot be cast:
//! `start-blocked` (the start is on no object and not on walkable ground) or `bad-end` (the
//! end is outside the terrain id space). JSON: `{"clear":true}`,
//! `{"clear":false,"x":..,"z":..,"t":..,"edge":..,"object_edge":..,"normal":[..]}` (`t` from
//! 0 at the start to 1 at the end; `edge` `{"region","kind","index"}` of the terrain wall, or
//! null; `object_edge` `{"owner","uid","kind","index"}` of the object edge, or null), or
//! `{"clear":null,"error":"start-blocked"}`.

use super::{object_words, position, world_xz, Answer, EdgeJson, ObjectEdgeJson, SegmentYArgs};
use crate::exit::Status;
use serde::Serialize;
use silknav::world::{RayError, RayHit};
use silknav::World;
use std::io::{self, Write};

/// The first blocking point of a segment, as the library's [`World::raycast`] finds it.
pub struct LosAnswer(pub Result<Option<RayHit>, RayError>);

/// Answers one query: numbers are `x1 z1 x2 z2`, and the start's reference height `y` if any.
pub fn ask(world: &World, n: &[f64], y: Option<f32>) -> LosAnswer {
    let Some(from) = position(n[0], n[1]) else {
        return LosAnswer(Err(RayError::StartNotWalkable));
    };
    let Some(to) = position(n[2], n[3]) else {
        return LosAnswer(Err(RayError::BadEnd));
    };
    LosAnswer(match y {
        None => world.raycast(from, to),
        Some(y) => world.raycast_y(from, y, to),
    })
}

/// Runs `silknav los`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &SegmentYArgs) -> anyhow::Result<Status> {
    let default_y = args.y;
    super::run_range(
        &args.segment.world,
        args.numbers(),
        (4, 5),
        move |world, n| {
            let y = n.get(4).copied().or(default_y).map(|y| y as f32);
            ask(world, n, y)
        },
    )
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
    object_edge: Option<ObjectEdgeJson>,
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
                write!(out, "blocked {x} {z}")?;
                if let Some(e) = hit.object_edge {
                    let (instance, kind) = object_words(e);
                    write!(out, " object {instance} {kind} {}", e.edge)?;
                }
                Ok(())
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
                        object_edge: hit.object_edge.map(ObjectEdgeJson::new),
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
