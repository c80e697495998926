//! A local HTTP server of a world's queries, and a map viewer in the browser.
//!
//! Programs in any language ask a [`Navigator`] (a world and its path index) over HTTP what the command line answers: the
//! endpoints under `/api/` take the query as JSON and answer with the very bytes `silknav
//! QUERY --json` prints ([`silknav::json`] writes both). The page at `/` is a map viewer over
//! image tiles that [`silknav_render`] draws on demand.
//!
//! | endpoint | takes | answers |
//! |---|---|---|
//! | `GET /api/health` | | `{"status":"ok","version":..,"regions":N,"objects":N,"limits":{..}}` |
//! | `GET /api/regions` | | [`silknav::json::regions`] |
//! | `POST /api/cell` | `{"x","z","y"?}` | as `silknav cell --json` |
//! | `POST /api/height` | `{"x","z","y"?}` | as `silknav height --json` |
//! | `POST /api/los` | `{"x1","z1","x2","z2","y"?}` | as `silknav los --json` |
//! | `POST /api/move` | `{"x1","z1","x2","z2"}` | as `silknav move --json` |
//! | `POST /api/path` | `{"x1","z1","x2","z2","y"?,"budget"?,"exact"?,"objects"?,"clearance"?,"radius"?}` | as `silknav path --json` |
//! | `GET /api/tile/{level}/{tx}/{tz}` | `?layers=heights,cells,walls,objects,water` | a PNG tile ([`tiles`]) |
//!
//! Every query endpoint takes one query (a JSON object) and answers one JSON object, or a
//! batch (an array of queries) and answers an array of answers in the same order. Errors are
//! JSON too ([`error`]), and every request is held to the [`Limits`].
//!
//! The world is loaded once and shared read-only; queries and tile drawing run on tokio's
//! blocking pool, sized to [`Config::query_threads`], never on the threads that serve
//! sockets. Each pool thread keeps its own path scratch.
//!
//! ```no_run
//! use silknav_server::{Config, Server};
//! let nav = silknav::Navigator::load("Data")?;
//! let files = silknav::files::WorldFiles::read_dir("Data")?;
//! let listener = std::net::TcpListener::bind("127.0.0.1:7420")?;
//! let server = Server::start(nav, files, listener, Config::default())?;
//! println!("serving on http://{}/", server.addr());
//! server.wait_for_signal();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod error;
mod limits;
mod queries;
mod router;
pub mod tiles;

pub use limits::Limits;

use silknav::files::WorldFiles;
use silknav::Navigator;
use std::io;
use std::net::{SocketAddr, TcpListener};
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::thread::JoinHandle;

/// The address `silknav serve` listens on by default.
pub const DEFAULT_ADDR: &str = "127.0.0.1:7420";

/// How a server runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// What one request may ask.
    pub limits: Limits,
    /// Threads that answer queries and draw tiles (the blocking pool); default: the cores.
    pub query_threads: NonZeroUsize,
    /// Bytes of drawn tiles kept for the viewer.
    pub tile_cache_bytes: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            limits: Limits::default(),
            query_threads: std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN),
            tile_cache_bytes: 64 << 20,
        }
    }
}

/// What every request handler shares: the world and its path index, the map the tiles are drawn from, the
/// limits. Read-only but for the tile cache.
pub(crate) struct Shared {
    pub nav: Navigator,
    pub limits: Limits,
    pub tiles: tiles::TileMaker,
    pub semaphore: Arc<tokio::sync::Semaphore>,
}

/// A running server: its address, and the way to stop it.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<io::Result<()>>>,
}

impl Server {
    /// Serves the world of `nav` on `listener` from a thread of its own, with the tiles of the
    /// viewer drawn from `files` (the same world's files; regions the world did not load are
    /// left off the map). Builds the world's path index first when `nav` has none yet, so the
    /// first path query costs only its search.
    ///
    /// # Errors
    /// The listener's address cannot be read, or the runtime cannot be built.
    pub fn start(
        nav: Navigator,
        files: WorldFiles,
        listener: TcpListener,
        config: Config,
    ) -> io::Result<Server> {
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        nav.paths();
        let tiles = tiles::TileMaker::new(nav.world(), files, config.tile_cache_bytes);
        let shared = Arc::new(Shared {
            nav,
            limits: config.limits,
            tiles,
            semaphore: Arc::new(tokio::sync::Semaphore::new(config.limits.max_concurrent)),
        });
        let runtime = tokio::runtime::Builder::new_multi_thread()
            // Sockets need little: the work is on the blocking pool.
            .worker_threads(2)
            .max_blocking_threads(config.query_threads.get())
            .thread_name("silknav-server")
            .enable_all()
            .build()?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("silknav-server".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener)?;
                    let app = router::router(shared);
                    axum::serve(listener, app)
                        .with_graceful_shutdown(async move {
                            let _ = stopped.await;
                        })
                        .await
                })
            })?;
        Ok(Server {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops taking connections, lets the requests under way finish, and returns when the
    /// server has stopped.
    ///
    /// # Errors
    /// The server failed while serving.
    pub fn stop(mut self) -> io::Result<()> {
        self.stop_and_join()
    }

    fn stop_and_join(&mut self) -> io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(io::Error::other("the server thread panicked")),
            None => Ok(()),
        }
    }

    /// Serves until the process gets SIGINT (Ctrl-C) or SIGTERM, then stops gracefully
    /// ([`Server::stop`]).
    ///
    /// # Errors
    /// The signals cannot be watched, or the server failed while serving.
    pub fn wait_for_signal(self) -> io::Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        runtime.block_on(shutdown_signal())?;
        self.stop()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.stop_and_join();
    }
}

/// The first of SIGINT and SIGTERM (Ctrl-C elsewhere).
async fn shutdown_signal() -> io::Result<()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = signal(SignalKind::terminate())?;
        tokio::select! {
            r = tokio::signal::ctrl_c() => r,
            _ = term.recv() => Ok(()),
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c().await
    }
}
