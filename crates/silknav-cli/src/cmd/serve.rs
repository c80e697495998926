//! `silknav serve WORLD`: the query server and map viewer ([`silknav_server`]) over a world
//! loaded once, until SIGINT or SIGTERM.

use super::query::load_with;
use crate::exit::Status;
use crate::progress::Progress;
use anyhow::{anyhow, bail, Context};
use silknav::files::WorldFiles;
use silknav::PathIndexUse;
use silknav_server::{Config, Limits, Server, DEFAULT_ADDR};
use std::io::Write;
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::num::NonZeroUsize;
use std::time::Duration;

/// Arguments of `silknav serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    world: crate::input::WorldArg,
    /// Address to listen on
    #[arg(long, value_name = "HOST:PORT", default_value = DEFAULT_ADDR)]
    addr: String,
    /// Allow an address other than loopback (anyone who reaches it can query the world)
    #[arg(long)]
    public: bool,
    /// Load the terrain only: no object instances (buildings, gates, bridges)
    #[arg(long)]
    terrain_only: bool,
    /// Largest request body, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_body)]
    max_body: usize,
    /// Most queries in one batch
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_batch)]
    max_batch: usize,
    /// Most corners one path search may expand (the budget of path queries that give none)
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_budget)]
    max_budget: usize,
    /// Farthest a snap query may look for walkable ground, in world units
    #[arg(long, value_name = "D", default_value_t = Limits::default().max_snap_distance)]
    max_snap_distance: f64,
    /// Seconds to read a request and answer it
    #[arg(long, value_name = "SECS", default_value_t = Limits::default().timeout.as_secs_f64())]
    timeout: f64,
    /// Most requests under way at once (more are refused with 429)
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_concurrent)]
    max_concurrent: usize,
}

/// Loads the world, listens, and serves until a signal stops the server.
///
/// # Errors
/// The world cannot be loaded, the address is not loopback without `--public`, cannot be
/// resolved or bound, or a limit is zero.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let addr = resolve(&args.addr, args.public)?;
    let limits = limits(args)?;
    let source = args.world.open()?;
    let nav = load_with(&source, args.terrain_only, PathIndexUse::IfValid)?;
    let files = Progress::timed(
        format!("reading {} for the map", args.world.path.display()),
        || WorldFiles::read(&source),
    )
    .map_err(|e| anyhow!(e))?;
    let listener = TcpListener::bind(addr).with_context(|| format!("--addr {addr}"))?;
    let config = Config {
        limits,
        // `--threads` caps rayon's pool, which the command runs in.
        query_threads: NonZeroUsize::new(rayon::current_num_threads()).unwrap_or(NonZeroUsize::MIN),
        ..Config::default()
    };
    let regions = nav.world().regions().len();
    let server = Progress::timed(
        format!("indexing {} for paths", args.world.path.display()),
        || Server::start(nav, files, listener, config),
    )?;
    let mut err = std::io::stderr().lock();
    // The address line is a courtesy: a closed standard error must not stop the server.
    let _ = writeln!(
        err,
        "serving {} ({regions} regions) on http://{}/ (viewer at /, API at /api/); Ctrl-C stops",
        args.world.path.display(),
        server.addr()
    );
    drop(err);
    server.wait_for_signal()?;
    Ok(Status::Success)
}

/// The address to listen on: its first resolution, refused when not loopback unless public.
fn resolve(addr: &str, public: bool) -> anyhow::Result<SocketAddr> {
    let resolved = addr
        .to_socket_addrs()
        .with_context(|| format!("--addr {addr}"))?
        .next()
        .ok_or_else(|| anyhow!("--addr {addr}: resolves to no address"))?;
    if !resolved.ip().is_loopback() && !public {
        bail!(
            "--addr {addr}: not a loopback address, so other machines could query the world; \
             add --public to serve it anyway"
        );
    }
    Ok(resolved)
}

fn limits(args: &Args) -> anyhow::Result<Limits> {
    let positive = |name: &str, v: usize| {
        if v == 0 {
            bail!("--{name}: must be at least 1");
        }
        Ok(v)
    };
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 86_400.0) {
        bail!(
            "--timeout: expected seconds from above 0 to 86400, found {}",
            args.timeout
        );
    }
    if !(args.max_snap_distance.is_finite() && args.max_snap_distance >= 0.0) {
        bail!(
            "--max-snap-distance: expected a distance (a finite number, 0 or more), found {}",
            args.max_snap_distance
        );
    }
    Ok(Limits {
        max_body: positive("max-body", args.max_body)?,
        max_batch: positive("max-batch", args.max_batch)?,
        max_budget: positive("max-budget", args.max_budget)?,
        max_snap_distance: args.max_snap_distance,
        timeout: Duration::from_secs_f64(args.timeout),
        max_concurrent: positive("max-concurrent", args.max_concurrent)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_without_public() {
        assert!(resolve("127.0.0.1:0", false).is_ok());
        assert!(resolve("[::1]:0", false).is_ok());
        let refused = resolve("0.0.0.0:7420", false).unwrap_err().to_string();
        assert!(refused.contains("--public"), "{refused}");
        assert!(resolve("0.0.0.0:7420", true).is_ok());
        assert!(resolve("not an address", false).is_err());
    }
}
