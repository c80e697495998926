//! Worlds written to temporary folders, and servers over them.

use crate::demo_world::write_demo_world;
use silknav::files::WorldFiles;
use silknav::Surface;
use silknav::World;
use silknav_server::{Config, Limits, Server};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub use silknav_testkit::http::{self, Connection, Response};

/// The demo's world (3×3 regions, seed 1), written once per test run.
pub fn demo_root() -> &'static Path {
    static ROOT: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, root) = ROOT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("demo");
        write_demo_world(&root).unwrap();
        (dir, root)
    });
    root
}

/// The demo world, loaded.
pub fn demo_world() -> World {
    World::load(demo_root()).unwrap()
}

/// A server of the demo world with these limits, on a free loopback port.
pub fn serve(limits: Limits) -> Server {
    serve_root(demo_root(), limits)
}

/// A server of the world at `root`.
pub fn serve_root(root: &Path, limits: Limits) -> Server {
    let nav = silknav::Navigator::load(root).unwrap();
    let files = WorldFiles::read_dir(root).unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let config = Config {
        limits,
        ..Config::default()
    };
    Server::start(nav, files, listener, config).unwrap()
}

/// `POST path` with a JSON body.
pub fn post(addr: SocketAddr, path: &str, body: &str) -> Response {
    http::post(addr, path, body).unwrap()
}

/// `GET path`.
pub fn get(addr: SocketAddr, path: &str) -> Response {
    http::get(addr, path).unwrap()
}

/// A response's JSON body.
pub fn json(r: &Response) -> serde_json::Value {
    serde_json::from_slice(&r.body).unwrap_or_else(|e| panic!("{e}: {}", r.text()))
}

/// Open ground of the demo world: points with a cell, spread over it.
pub fn open_points(world: &World, count: usize) -> Vec<[f64; 2]> {
    let mut out = Vec::new();
    let mut rng = silknav_testkit::rng::SplitMix64::new(11);
    while out.len() < count {
        let x = 245_760.0 + rng.unit() * 5760.0;
        let z = 122_880.0 + rng.unit() * 5760.0;
        let p = silknav::Position::from_world(x, z).unwrap();
        if world.cell_at(p, Surface::Terrain).is_some() {
            out.push([x, z]);
        }
    }
    out
}
