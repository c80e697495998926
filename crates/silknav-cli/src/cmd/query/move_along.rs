//! `silknav move DIR X1 Z1 X2 Z2 [--y Y] [--guard one-sided|symmetric|off]
//! [--no-object-checks]`: where a walk from the start toward the end stops, as the game server
//! walks it.
//!
//! Text: `X Z REASON height H cell CELL [edge EDGE]`: the stop in world coordinates, why the
//! walk stopped there (`arrived`, `wall`, `no-edge`, `object-wall`, `transition`, `looped`,
//! `circle`: short of a dungeon's collision circle, then ` circle N` follows the cell),
//! the height the server gives it, its cell as `silknav cell` prints one (`RRRR C` or `RRRR C
//! object OOOO:UID T`), and for `wall` and `object-wall` the edge (`RRRR internal N`, `RRRR
//! global N`, `object OOOO:UID outline N`, `object OOOO:UID inline N`); or `none REASON` when
//! the walk fails (`start-blocked`, `too-far`, `off-mesh`, `missing-region`, `step-limit`,
//! `object-refused`). JSON: [`silknav::json::move_along`].
//!
//! The walk starts on the surface `silknav cell` answers, or with `--y` (or a fifth number on
//! a batch line) on the one nearest that height.

use super::{cell_words, world_xz, Answer, SegmentYArgs};
use crate::exit::Status;
use silknav::query::SegmentQuery;
use silknav::world::{
    movement::{DistanceGuard, MoveError, MoveOptions, MoveOutcome, MoveStop},
    EdgeId,
};
use silknav::World;
use std::io::{self, Write};

/// Where a walk stops, as the library's [`silknav::query::move_along`] finds it.
pub struct MoveAnswer(pub Result<MoveOutcome, MoveError>);

/// `silknav move`'s arguments.
#[derive(Debug, clap::Args)]
pub struct MoveArgs {
    #[command(flatten)]
    segment: SegmentYArgs,
    /// The server's refusal of goals more than 1920 units away: `one-sided` (the server's:
    /// only goals east or north), `symmetric` (either way), `off`
    #[arg(long, value_enum, default_value_t = GuardArg::OneSided)]
    guard: GuardArg,
    /// Walk as with the server's movement flag 0: objects refuse no entry and no exit, and no
    /// probe along the way fails the move
    #[arg(long)]
    no_object_checks: bool,
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

/// Answers one query: numbers are `x1 z1 x2 z2`, the start's reference height when given, in
/// the dungeon if any.
pub fn ask(
    world: &World,
    n: &[f64],
    y: Option<f32>,
    dungeon: Option<u16>,
    options: &MoveOptions,
) -> MoveAnswer {
    let q = SegmentQuery {
        y,
        dungeon,
        ..SegmentQuery::new(n[0], n[1], n[2], n[3])
    };
    MoveAnswer(silknav::query::move_along(world, q, options))
}

/// Runs `silknav move`.
///
/// # Errors
/// As for the query commands (see [`super`]).
pub fn run(args: &MoveArgs) -> anyhow::Result<Status> {
    let options = MoveOptions::new()
        .with_guard(args.guard.into())
        .with_object_checks(!args.no_object_checks);
    let default_y = args.segment.y;
    let dungeon = args.segment.segment.world.dungeon;
    super::run_range(
        &args.segment.segment.world,
        args.segment.numbers(),
        (4, 5),
        move |world, n| {
            let y = n.get(4).copied().or(default_y).map(|y| y as f32);
            ask(world, n, y, dungeon, &options)
        },
    )
}

impl Answer for MoveAnswer {
    fn is_yes(&self) -> bool {
        self.0.is_ok()
    }

    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self.0 {
            Ok(m) => {
                let (x, z) = world_xz(m.position);
                write!(
                    out,
                    "{x} {z} {} height {} cell {}",
                    m.stop.word(),
                    m.height,
                    cell_words(m.cell)
                )?;
                match m.stop {
                    MoveStop::Wall { region, edge } => {
                        let (kind, index) = match edge {
                            EdgeId::Internal(i) => ("internal", i),
                            EdgeId::Global(i) => ("global", i),
                        };
                        write!(out, " edge {region} {kind} {index}")
                    }
                    MoveStop::ObjectWall { edge } => write!(
                        out,
                        " edge object {}:{} {} {}",
                        edge.instance.owner(),
                        edge.instance.uid(),
                        silknav::json::object_edge_kind(edge),
                        edge.edge
                    ),
                    MoveStop::Circle { index } => write!(out, " circle {index}"),
                    _ => Ok(()),
                }
            }
            Err(e) => write!(out, "none {}", e.word()),
        }
    }

    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        super::write_json(out, &silknav::json::move_along(&self.0))
    }
}
