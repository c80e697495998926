//! What one request may ask of the server: each limit has a `silknav serve` flag of the same
//! name, and a request over it is refused with a 4xx whose JSON names it
//! ([`crate::error::ApiError::Limit`]).

use std::time::Duration;

/// The limits of a server, with the defaults `silknav serve` documents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// `--max-body`: bytes of a request body (413 over it).
    pub max_body: usize,
    /// `--max-batch`: queries in one batch (413 over it).
    pub max_batch: usize,
    /// `--max-budget`: corners one path search may expand; a path query without a `budget`
    /// gets this one, and one asking for more is refused (400).
    pub max_budget: usize,
    /// `--max-snap-distance`: how far (world units) one snap query may look for walkable
    /// ground (400 over it); the work grows with the square of the distance.
    pub max_snap_distance: f64,
    /// `--timeout`: time to read a request and answer it (408 over it; what is left of a
    /// batch is not computed).
    pub timeout: Duration,
    /// `--max-concurrent`: requests under way at once; one more is refused at once (429).
    pub max_concurrent: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_body: 1 << 20,
            max_batch: 10_000,
            max_budget: 1_000_000,
            max_snap_distance: 1920.0,
            timeout: Duration::from_secs(10),
            max_concurrent: 256,
        }
    }
}

/// The names of the limits, as in their flags and error answers.
pub(crate) mod name {
    pub const MAX_BODY: &str = "max-body";
    pub const MAX_BATCH: &str = "max-batch";
    pub const MAX_BUDGET: &str = "max-budget";
    pub const MAX_SNAP_DISTANCE: &str = "max-snap-distance";
    pub const TIMEOUT: &str = "timeout";
    pub const MAX_CONCURRENT: &str = "max-concurrent";
}
