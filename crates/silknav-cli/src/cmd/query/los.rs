//! `silknav los DIR X1 Z1 X2 Z2 [--y Y]`: whether the segment is clear, and where it is
//! blocked.
//!
//! The segment starts on the surface `cell` picks for the start (with `--y`, or a fifth number
//! on a batch line, the one nearest Y). Text: `clear`, `blocked X Z` (the first blocking
//! point, world coordinates), `blocked X Z object OOOO:UID KIND N` when an object edge
//! blocked it (the instance's owner region and uid, `outline` or `inline`, the edge's index
//! in that list of the mesh), `blocked X Z circle N` when a dungeon's collision circle did (its
//! index among the dungeon's circles), or `none REASON` when the segment cannot be cast:
//! `start-blocked` (the start is on no object and not on walkable ground) or `bad-end` (the
//! end is outside the terrain id space). JSON: `{"clear":true}`,
//! `{"clear":false,"x":..,"z":..,"t":..,"edge":..,"object_edge":..,"normal":[..]}` (`t` from
//! 0 at the start to 1 at the end; `edge` `{"region","kind","index"}` of the terrain wall, or
//! null; `object_edge` `{"owner","uid","kind","index"}` of the object edge, or null), or
//! `{"clear":null,"error":"start-blocked"}`.

use super::{world_xz, Answer, SegmentYArgs};
use crate::exit::Status;
use silknav::query::SegmentQuery;
use silknav::world::raycast::{RayError, RayHit};
use silknav::World;
use std::io::{self, Write};

/// The first blocking point of a segment, as the library's [`silknav::query::los`] finds it.
pub struct LosAnswer(pub Result<Option<RayHit>, RayError>);

/// Answers one query: numbers are `x1 z1 x2 z2`, the start's reference height `y` if any, in
/// the dungeon if any.
pub fn ask(world: &World, n: &[f64], y: Option<f32>, dungeon: Option<u16>) -> LosAnswer {
    let q = SegmentQuery {
        y,
        dungeon,
        ..SegmentQuery::new(n[0], n[1], n[2], n[3])
    };
    LosAnswer(silknav::query::los(world, q))
}

/// Runs `silknav los`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &SegmentYArgs) -> anyhow::Result<Status> {
    let default_y = args.y;
    let dungeon = args.segment.world.dungeon;
    super::run_range(
        &args.segment.world,
        args.numbers(),
        (4, 5),
        move |world, n| {
            let y = n.get(4).copied().or(default_y).map(|y| y as f32);
            ask(world, n, y, dungeon)
        },
    )
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
                    let kind = silknav::json::object_edge_kind(e);
                    let (owner, uid) = (e.instance.owner(), e.instance.uid());
                    write!(out, " object {owner}:{uid} {kind} {}", e.edge)?;
                }
                if let Some(index) = hit.circle {
                    write!(out, " circle {index}")?;
                }
                Ok(())
            }
            Err(e) => write!(out, "none {}", e.word()),
        }
    }

    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        super::write_json(out, &silknav::json::los(&self.0))
    }
}
