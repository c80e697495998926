//! The subcommands, one module each: its `Args` (clap) and its `run`.
//!
//! A command returns the [`Status`] it ended with, or an error for [`crate::exit`] to report.
//! Commands over many files report each unreadable file themselves (one line each), carry on,
//! and end with [`Status::Failed`].

mod corpus;
mod demo;
mod dump;
mod export;
mod generate;
mod import_movingai;
mod index;
mod info;
mod lint;
mod pack;
mod pk2;
mod query;
mod render;
mod serve;

use crate::exit::Status;

/// A subcommand and its arguments.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Generate a world, lint it, draw it and query it, with no game files: the tour
    Demo(demo::Args),
    /// Generate a game-like world folder (navmeshes, mapinfo.mfo, object.ifo, tile2d.ifo)
    Gen(generate::Args),
    /// Turn a Moving AI grid map (.map) into a world folder
    ImportMovingai(import_movingai::Args),
    /// One line per file: layout, region, counts, trailing bytes, size (of .bms: version, nav
    /// flags, counts, section offsets; of .dof, AINavData and dungeoninfo.txt: their counts)
    Info(info::Args),
    /// Write a navmesh, object mesh (.bms), dungeon (.dof) or AINavData file as lossless JSON
    Dump(dump::Args),
    /// Write the file described by JSON from `dump` (byte-identical to the original)
    Pack(pack::Args),
    /// Game archives (Data.pk2): `ls`, `extract` and `pack`
    Pk2(pk2::Args),
    /// Check navmesh, object mesh and dungeon files, or whole world folders, against the rules
    /// of the game server and data
    Lint(lint::Args),
    /// Statistics over every file of a folder or archive, for bug reports: layouts, trailing
    /// bytes, flag and direction histograms, lint codes, object meshes, unreadable files
    Corpus(corpus::Args),
    /// Draw a world folder or a navmesh file as a PNG picture
    Render(render::Args),
    /// Write a world as a 3-D model: glTF 2.0 binary (.glb) or OBJ
    Export(export::Args),
    /// The cell under a point: `RRRR C`, `RRRR C object OOOO:UID CELL` on an object, or `none`
    Cell(query::PointYArgs),
    /// The ground height at a point (with --y, the object floor or ground nearest Y), or `none`
    Height(query::PointYArgs),
    /// Line of sight: `clear`, or `blocked X Z` (and the object edge) where it is first blocked
    Los(query::SegmentYArgs),
    /// Walk from one point toward another as the game server does: `X Z REASON height H cell
    /// …` where the walk stops
    Move(query::move_along::MoveArgs),
    /// The walkable point nearest a point: `X Z distance D cell …`, or `none`
    Snap(query::snap::SnapArgs),
    /// The shortest path between two points: its length and waypoints, or `none`
    Path(query::find_path::PathArgs),
    /// Build the world's path index and write it next to the world (navmesh/silknav.index),
    /// so that path queries answer at once
    Index(index::Args),
    /// Serve the queries over HTTP (JSON) and a map viewer in the browser, on loopback
    Serve(serve::Args),
}

impl Command {
    /// Runs the command.
    ///
    /// # Errors
    /// Whatever stopped the command; see each command.
    pub fn run(self) -> anyhow::Result<Status> {
        match self {
            Command::Demo(args) => demo::run(&args),
            Command::Gen(args) => generate::run(&args),
            Command::ImportMovingai(args) => import_movingai::run(&args),
            Command::Info(args) => info::run(&args),
            Command::Dump(args) => dump::run(&args),
            Command::Pack(args) => pack::run(&args),
            Command::Pk2(args) => pk2::run(&args),
            Command::Lint(args) => lint::run(&args),
            Command::Corpus(args) => corpus::run(&args),
            Command::Render(args) => render::run(&args),
            Command::Export(args) => export::run(&args),
            Command::Cell(args) => query::cell::run(&args),
            Command::Height(args) => query::height::run(&args),
            Command::Los(args) => query::los::run(&args),
            Command::Move(args) => query::move_along::run(&args),
            Command::Snap(args) => query::snap::run(&args),
            Command::Path(args) => query::find_path::run(&args),
            Command::Index(args) => index::run(&args),
            Command::Serve(args) => serve::run(&args),
        }
    }
}
