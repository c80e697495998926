//! Load test of the query server, on loopback only: a server of a world in this process, N
//! clients sending mixed queries over kept-alive connections for a fixed time, a slow client
//! that trickles its body, and a client that declares oversized bodies. Prints throughput and
//! latency percentiles per endpoint and the process's resident memory at the start and end;
//! exits 1 on any error (an unexpected status or a failed connection).
//!
//! ```text
//! cargo run --release -p silknav-server --example load -- [--clients 32] [--seconds 30] [--world DIR]
//! ```
//!
//! Without `--world` it serves the demo's world (3×3 regions, seed 1), generated into a
//! temporary folder. Every loop is bounded by the duration; the process stops by itself.

use silknav::files::WorldFiles;
use silknav::{Position, Surface, World};
use silknav_server::{Config, Limits, Server};
use silknav_testkit::http::Connection;
use silknav_testkit::rng::SplitMix64;
use std::collections::BTreeMap;
use std::io::Write;
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[path = "../tests/integration/demo_world.rs"]
mod demo_world;
use demo_world::write_demo_world;

struct Options {
    clients: usize,
    seconds: f64,
    world: Option<PathBuf>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        clients: 32,
        seconds: 30.0,
        world: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--clients" => o.clients = value()?.parse().map_err(|e| format!("--clients: {e}"))?,
            "--seconds" => o.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--world" => o.world = Some(value()?.into()),
            _ => return Err(format!("unknown argument {flag}")),
        }
    }
    if o.clients == 0 || o.clients > 1024 || !(o.seconds > 0.0 && o.seconds <= 600.0) {
        return Err("--clients 1..=1024, --seconds up to 600".into());
    }
    Ok(o)
}

/// Resident memory of this process, in MiB (Linux; 0 elsewhere).
fn rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

/// The endpoints the clients ask, in turn.
const ENDPOINTS: [&str; 7] = [
    "cell",
    "height",
    "los",
    "move",
    "path",
    "snap",
    "height batch",
];

/// Open points of the world to ask about.
fn open_points(world: &World, count: usize) -> Vec<[f64; 2]> {
    let size = 1920.0;
    let regions: Vec<_> = world.regions().collect();
    let mut rng = SplitMix64::new(7);
    let mut out = Vec::new();
    while out.len() < count {
        let r = regions[rng.range(0, regions.len() as u32) as usize];
        let x = f64::from(r.x()) * size + rng.unit() * size;
        let z = f64::from(r.z()) * size + rng.unit() * size;
        if world
            .cell_at(Position::from_world(x, z).unwrap(), Surface::Terrain)
            .is_some()
        {
            out.push([x, z]);
        }
    }
    out
}

/// The path and body of the `k`-th query of a client.
fn query(points: &[[f64; 2]], rng: &mut SplitMix64, k: usize) -> (&'static str, String) {
    let mut p = || points[rng.range(0, points.len() as u32) as usize];
    let [x1, z1] = p();
    let [x2, z2] = p();
    match k % ENDPOINTS.len() {
        0 => ("/api/cell", format!(r#"{{"x":{x1},"z":{z1}}}"#)),
        1 => ("/api/height", format!(r#"{{"x":{x1},"z":{z1}}}"#)),
        2 => (
            "/api/los",
            format!(r#"{{"x1":{x1},"z1":{z1},"x2":{x2},"z2":{z2}}}"#),
        ),
        3 => (
            "/api/move",
            format!(r#"{{"x1":{x1},"z1":{z1},"x2":{x2},"z2":{z2}}}"#),
        ),
        4 => (
            "/api/path",
            format!(r#"{{"x1":{x1},"z1":{z1},"x2":{x2},"z2":{z2}}}"#),
        ),
        // Clicks beside the open points, some on blocked ground.
        5 => (
            "/api/snap",
            format!(
                r#"{{"x":{},"z":{},"max_distance":50}}"#,
                x1 + 13.0,
                z1 - 7.0
            ),
        ),
        _ => {
            let batch: Vec<String> = (0..50)
                .map(|_| {
                    let [x, z] = p();
                    format!(r#"{{"x":{x},"z":{z}}}"#)
                })
                .collect();
            ("/api/height", format!("[{}]", batch.join(",")))
        }
    }
}

/// Latencies of one endpoint, counted in fixed buckets allocated before the run, so the
/// client's own memory does not grow with the number of requests and the resident memory
/// measured through the run is the server's: 1 µs buckets up to 10 ms, 100 µs buckets up to
/// about 1 s, and one bucket for anything slower.
struct Histogram {
    buckets: Vec<AtomicU64>,
}

impl Histogram {
    const FINE: u64 = 10_000;
    const COARSE: u64 = 10_000;
    const COARSE_WIDTH: u64 = 100;

    fn new() -> Histogram {
        let len = (Self::FINE + Self::COARSE + 1) as usize;
        Histogram {
            buckets: (0..len).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn record(&self, micros: u64) {
        let i = if micros < Self::FINE {
            micros
        } else {
            Self::FINE + ((micros - Self::FINE) / Self::COARSE_WIDTH).min(Self::COARSE)
        };
        self.buckets[i as usize].fetch_add(1, Ordering::Relaxed);
    }

    fn count(&self) -> u64 {
        self.buckets.iter().map(|b| b.load(Ordering::Relaxed)).sum()
    }

    /// The latency (milliseconds) below which a fraction `p` of the requests fall: the lower
    /// bound of the bucket holding the request of that rank.
    fn percentile(&self, p: f64) -> f64 {
        let rank = ((self.count().saturating_sub(1)) as f64 * p).round() as u64;
        let mut seen = 0;
        for (i, b) in self.buckets.iter().enumerate() {
            seen += b.load(Ordering::Relaxed);
            if seen > rank {
                let i = i as u64;
                let micros = if i < Self::FINE {
                    i
                } else {
                    Self::FINE + (i - Self::FINE) * Self::COARSE_WIDTH
                };
                return micros as f64 / 1000.0;
            }
        }
        f64::NAN
    }
}

/// Latencies per endpoint, and the errors.
struct Tally {
    latencies: BTreeMap<&'static str, Histogram>,
    errors: Mutex<Vec<String>>,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            latencies: ENDPOINTS.iter().map(|&n| (n, Histogram::new())).collect(),
            errors: Mutex::new(Vec::new()),
        }
    }
}

fn client(
    addr: SocketAddr,
    points: Arc<Vec<[f64; 2]>>,
    seed: u64,
    deadline: Instant,
    tally: Arc<Tally>,
) {
    let mut rng = SplitMix64::new(seed);
    let mut errors = Vec::new();
    let mut connection: Option<Connection> = None;
    let mut k = seed as usize;
    while Instant::now() < deadline && errors.len() < 10 {
        let (path, body) = query(&points, &mut rng, k);
        let name = ENDPOINTS[k % ENDPOINTS.len()];
        k += 1;
        let c = match &mut connection {
            Some(c) => c,
            None => match Connection::open(addr, Duration::from_secs(60)) {
                Ok(c) => connection.insert(c),
                Err(e) => {
                    errors.push(format!("connect: {e}"));
                    continue;
                }
            },
        };
        let start = Instant::now();
        match c.request("POST", path, Some(body.as_bytes())) {
            Ok(r) if r.status == 200 => {
                tally.latencies[name].record(start.elapsed().as_micros() as u64);
            }
            Ok(r) => errors.push(format!("{name}: {} {}", r.status, r.text())),
            Err(e) => {
                errors.push(format!("{name}: {e}"));
                connection = None;
            }
        }
    }
    tally.errors.lock().unwrap().extend(errors);
}

/// A client that sends a body of 100 bytes one byte a second, until the server's timeout
/// answers 408; then again, until the deadline. Returns (408 answers, unexpected answers).
fn slow_client(addr: SocketAddr, deadline: Instant, stop: &AtomicBool) -> (u64, Vec<String>) {
    let (mut timed_out, mut errors) = (0, Vec::new());
    while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
        let Ok(mut c) = Connection::open(addr, Duration::from_secs(60)) else {
            errors.push("slow client: connect".into());
            break;
        };
        let head = "POST /api/cell HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n";
        if c.stream().write_all(head.as_bytes()).is_err() {
            errors.push("slow client: write".into());
            break;
        }
        // Trickle on a thread of its own while this one waits for the answer.
        let mut writer = c.stream().try_clone().unwrap();
        let trickle = std::thread::spawn(move || {
            for _ in 0..100 {
                std::thread::sleep(Duration::from_secs(1));
                if writer.write_all(b" ").is_err() {
                    break;
                }
            }
        });
        match c.read_response() {
            Ok(r) if r.status == 408 => timed_out += 1,
            Ok(r) => errors.push(format!("slow client: {} {}", r.status, r.text())),
            Err(e) => errors.push(format!("slow client: {e}")),
        }
        drop(c);
        let _ = trickle.join();
    }
    (timed_out, errors)
}

/// A client that declares bodies over the limit, once every 100 ms; each must get 413.
fn oversized_client(addr: SocketAddr, max: usize, deadline: Instant) -> (u64, Vec<String>) {
    let (mut refused, mut errors) = (0, Vec::new());
    while Instant::now() < deadline {
        let result = Connection::open(addr, Duration::from_secs(60)).and_then(|mut c| {
            let head = format!(
                "POST /api/path HTTP/1.1\r\nhost: x\r\ncontent-length: {}\r\n\r\n",
                max + 1
            );
            c.stream().write_all(head.as_bytes())?;
            c.read_response()
        });
        match result {
            Ok(r) if r.status == 413 => refused += 1,
            Ok(r) => errors.push(format!("oversized: {} {}", r.status, r.text())),
            Err(e) => errors.push(format!("oversized: {e}")),
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    (refused, errors)
}

fn main() -> ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("load: {e}");
            return ExitCode::from(2);
        }
    };
    let temp = tempfile::tempdir().unwrap();
    let root = o.world.clone().unwrap_or_else(|| {
        let root = temp.path().join("demo");
        write_demo_world(&root).unwrap();
        root
    });
    let world = World::load(&root).expect("the world loads");
    let files = WorldFiles::read_dir(&root).expect("the world's files read");
    let points = Arc::new(open_points(&world, 2000));
    let regions = world.regions().len();
    let limits = Limits::default();
    let config = Config {
        limits,
        ..Config::default()
    };
    let threads = config.query_threads;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = Server::start(silknav::Navigator::new(world), files, listener, config).unwrap();
    let addr = server.addr();
    println!(
        "load: {} clients for {} s on http://{addr}/, {threads} query threads, {} ({regions} regions)",
        o.clients,
        o.seconds,
        root.display()
    );
    let tally = Arc::new(Tally::new());
    let rss_start = rss_mib();

    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(o.seconds);
    let stop = Arc::new(AtomicBool::new(false));
    let slow = {
        let stop = stop.clone();
        std::thread::spawn(move || slow_client(addr, deadline, &stop))
    };
    let oversized = std::thread::spawn(move || oversized_client(addr, limits.max_body, deadline));
    // Resident memory through the run, ten samples: flat after the first one means no leak
    // (the first includes the clients' threads and the pools warming up).
    let seconds = o.seconds;
    let sampler = std::thread::spawn(move || {
        let mut samples = Vec::new();
        for i in 1..=10 {
            let at = start + Duration::from_secs_f64(seconds * f64::from(i) / 10.0);
            std::thread::sleep(at.saturating_duration_since(Instant::now()));
            samples.push(rss_mib());
        }
        samples
    });
    let clients: Vec<_> = (0..o.clients)
        .map(|i| {
            let (points, tally) = (points.clone(), tally.clone());
            std::thread::spawn(move || client(addr, points, i as u64 + 1, deadline, tally))
        })
        .collect();
    for c in clients {
        c.join().unwrap();
    }
    let elapsed = start.elapsed().as_secs_f64();
    let samples = sampler.join().unwrap();
    let rss_end = rss_mib();
    stop.store(true, Ordering::Relaxed);
    let (oversized_refused, oversized_errors) = oversized.join().unwrap();
    let (slow_timed_out, slow_errors) = slow.join().unwrap();
    let stopped = server.stop();

    println!(
        "{:<14} {:>9} {:>9} {:>9} {:>9}",
        "endpoint", "requests", "per s", "p50 ms", "p99 ms"
    );
    let mut total = 0;
    for name in ENDPOINTS {
        let l = &tally.latencies[name];
        let count = l.count();
        total += count;
        println!(
            "{name:<14} {count:>9} {:>9.0} {:>9.2} {:>9.2}",
            count as f64 / elapsed,
            l.percentile(0.5),
            l.percentile(0.99)
        );
    }
    println!(
        "{:<14} {total:>9} {:>9.0}   (the batch is 50 heights a request)",
        "all",
        total as f64 / elapsed
    );
    println!("slow client: {slow_timed_out} bodies cut off by the timeout (408), as expected");
    println!("oversized bodies: {oversized_refused} refused (413), as expected");
    let series: Vec<String> = samples.iter().map(|m| format!("{m:.1}")).collect();
    println!(
        "resident memory: {rss_start:.1} MiB at the start, {rss_end:.1} MiB at the end; \
         every tenth of the run: {} MiB",
        series.join(" ")
    );
    let mut errors = std::mem::take(&mut *tally.errors.lock().unwrap());
    errors.extend(oversized_errors);
    errors.extend(slow_errors);
    if let Err(e) = stopped {
        errors.push(format!("stop: {e}"));
    }
    println!("errors: {}", errors.len());
    for e in errors.iter().take(10) {
        println!("  {e}");
    }
    if errors.is_empty() && total > 0 && oversized_refused > 0 && slow_timed_out > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
