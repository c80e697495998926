//! The query endpoints: one request type per endpoint (the JSON it takes), mapped onto the
//! library's query ([`silknav::query`]) and answered with the library's JSON
//! ([`silknav::json`]), on the blocking pool.

use crate::error::ApiError;
use crate::limits::name;
use crate::{Limits, Shared};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use silknav::query::{PointQuery, SegmentQuery};
use silknav::world::movement::{DistanceGuard, MoveOptions};
use silknav::{Navigator, PathOptions, PathOptionsError, PathScratch};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A query one endpoint takes: how it is checked and answered.
pub(crate) trait Query: DeserializeOwned + Send + 'static {
    /// Refuses a query that asks for more than the limits allow.
    ///
    /// # Errors
    /// The limit it is over; `at` is the query's place in a batch (`[3]`), empty alone.
    fn check(&self, _limits: &Limits, _at: &str) -> Result<(), ApiError> {
        Ok(())
    }

    /// Writes the answer's JSON, as the command line's `--json` line (without its break).
    fn answer(&self, nav: &Navigator, limits: &Limits, out: &mut Vec<u8>);
}

/// `POST /api/cell` and `/api/height`: a point, an optional reference height, and the
/// dungeon it is in (`dungeon`, its id; its own coordinates), if any.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PointRequest {
    x: f64,
    z: f64,
    #[serde(default)]
    y: Option<f64>,
    /// The dungeon (its id in `dungeoninfo.txt`), whose own coordinates `x` and `z` are.
    #[serde(default)]
    dungeon: Option<u16>,
}

impl PointRequest {
    fn query(&self) -> PointQuery {
        PointQuery {
            x: self.x,
            z: self.z,
            // As the command line reads `--y`: a number, then the library's f32.
            y: self.y.map(|y| y as f32),
            dungeon: self.dungeon,
        }
    }
}

/// `POST /api/cell`.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub(crate) struct CellRequest(PointRequest);

impl Query for CellRequest {
    fn answer(&self, nav: &Navigator, _: &Limits, out: &mut Vec<u8>) {
        let world = nav.world();
        let answer = silknav::query::cell(world, self.0.query());
        write(out, &silknav::json::cell(answer));
    }
}

/// `POST /api/height`.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub(crate) struct HeightRequest(PointRequest);

impl Query for HeightRequest {
    fn answer(&self, nav: &Navigator, _: &Limits, out: &mut Vec<u8>) {
        let world = nav.world();
        let answer = silknav::query::height(world, self.0.query());
        write(out, &silknav::json::height(answer));
    }
}

/// `POST /api/los`: a segment and an optional reference height for its start.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LosRequest {
    x1: f64,
    z1: f64,
    x2: f64,
    z2: f64,
    #[serde(default)]
    y: Option<f64>,
    #[serde(default)]
    dungeon: Option<u16>,
}

impl Query for LosRequest {
    fn answer(&self, nav: &Navigator, _: &Limits, out: &mut Vec<u8>) {
        let world = nav.world();
        let q = SegmentQuery {
            y: self.y.map(|y| y as f32),
            dungeon: self.dungeon,
            ..SegmentQuery::new(self.x1, self.z1, self.x2, self.z2)
        };
        write(out, &silknav::json::los(&silknav::query::los(world, q)));
    }
}

/// `POST /api/move`: a segment, and the options of `silknav move`: the start's reference
/// height (`y`), the server's 1920-unit guard (`guard`: `"one-sided"`, the default,
/// `"symmetric"` or `"off"`) and whether objects refuse entries and exits (`object_checks`,
/// default `true`; `false` is the command line's `--no-object-checks`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveRequest {
    x1: f64,
    z1: f64,
    x2: f64,
    z2: f64,
    #[serde(default)]
    y: Option<f64>,
    #[serde(default)]
    dungeon: Option<u16>,
    #[serde(default)]
    guard: Guard,
    #[serde(default = "yes")]
    object_checks: bool,
}

/// [`DistanceGuard`] by the command line's words.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Guard {
    #[default]
    OneSided,
    Symmetric,
    Off,
}

fn yes() -> bool {
    true
}

impl Query for MoveRequest {
    fn answer(&self, nav: &Navigator, _: &Limits, out: &mut Vec<u8>) {
        let world = nav.world();
        let q = SegmentQuery {
            y: self.y.map(|y| y as f32),
            dungeon: self.dungeon,
            ..SegmentQuery::new(self.x1, self.z1, self.x2, self.z2)
        };
        let guard = match self.guard {
            Guard::OneSided => DistanceGuard::OneSided,
            Guard::Symmetric => DistanceGuard::Symmetric,
            Guard::Off => DistanceGuard::Off,
        };
        let options = MoveOptions::new()
            .with_guard(guard)
            .with_object_checks(self.object_checks);
        let answer = silknav::query::move_along(world, q, &options);
        write(out, &silknav::json::move_along(&answer));
    }
}

/// `POST /api/snap`: a point, an optional reference height, and how far to look
/// (`max_distance`, default 100 units as `silknav snap`'s, at most the server's
/// `--max-snap-distance`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SnapRequest {
    x: f64,
    z: f64,
    #[serde(default)]
    y: Option<f64>,
    #[serde(default)]
    dungeon: Option<u16>,
    #[serde(default = "default_snap_distance")]
    max_distance: f64,
}

fn default_snap_distance() -> f64 {
    100.0
}

impl Query for SnapRequest {
    fn check(&self, limits: &Limits, at: &str) -> Result<(), ApiError> {
        let d = self.max_distance;
        if !(d >= 0.0) || !d.is_finite() {
            return Err(ApiError::BadRequest {
                field: format!("{at}max_distance"),
                message: format!(
                    "{at}max_distance: {d} is not a distance (a finite number, 0 or more)"
                ),
            });
        }
        if d > limits.max_snap_distance {
            return Err(ApiError::Limit {
                limit: name::MAX_SNAP_DISTANCE,
                max: limits.max_snap_distance as u64,
                message: format!(
                    "{at}max_distance: {d} is over the server's largest snap distance, {}",
                    limits.max_snap_distance
                ),
            });
        }
        Ok(())
    }

    fn answer(&self, nav: &Navigator, _: &Limits, out: &mut Vec<u8>) {
        let world = nav.world();
        let point = PointRequest {
            x: self.x,
            z: self.z,
            y: self.y,
            dungeon: self.dungeon,
        };
        let answer = silknav::query::snap(world, point.query(), self.max_distance);
        write(out, &silknav::json::snap(answer));
    }
}

/// `POST /api/path`: a segment and the options of `silknav path`: the walker's height at the
/// start (`y`, `--y`), a search budget (corners expanded), `exact` (`--exact`), `objects`
/// (`--objects`), `clearance` (`--clearance`) and `radius` (`--radius`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PathRequest {
    x1: f64,
    z1: f64,
    x2: f64,
    z2: f64,
    #[serde(default)]
    y: Option<f64>,
    #[serde(default)]
    dungeon: Option<u16>,
    #[serde(default)]
    budget: Option<u64>,
    #[serde(default)]
    exact: bool,
    #[serde(default)]
    objects: bool,
    #[serde(default)]
    clearance: Option<f64>,
    #[serde(default)]
    radius: f64,
}

impl PathRequest {
    /// The request's options, or the one that cannot be honoured.
    fn options(&self) -> Result<PathOptions, PathOptionsError> {
        let options = match self.clearance {
            None if self.exact => PathOptions::exact(),
            None => PathOptions::new(),
            Some(c) if self.exact => PathOptions::exact().with_clearance(c)?,
            Some(c) => PathOptions::new().with_clearance(c)?,
        };
        options.with_objects(self.objects)?.with_radius(self.radius)
    }
}

thread_local! {
    /// Each pool thread's path scratch, kept across requests.
    static SCRATCH: RefCell<PathScratch> = RefCell::new(PathScratch::new());
}

impl Query for PathRequest {
    fn check(&self, limits: &Limits, at: &str) -> Result<(), ApiError> {
        if let Err(e) = self.options() {
            return Err(ApiError::bad(
                format!("{at}{}", e.option()),
                format!("{at}{e}"),
            ));
        }
        match self.budget {
            Some(b) if b > limits.max_budget as u64 => Err(ApiError::Limit {
                limit: name::MAX_BUDGET,
                max: limits.max_budget as u64,
                message: format!(
                    "{at}budget: {b} is over the server's largest path budget, {}",
                    limits.max_budget
                ),
            }),
            _ => Ok(()),
        }
    }

    fn answer(&self, nav: &Navigator, limits: &Limits, out: &mut Vec<u8>) {
        let world = nav.world();
        let q = SegmentQuery {
            y: self.y.map(|y| y as f32),
            dungeon: self.dungeon,
            ..SegmentQuery::new(self.x1, self.z1, self.x2, self.z2)
        };
        let budget = self.budget.map_or(limits.max_budget, |b| b as usize);
        let answer = SCRATCH.with_borrow_mut(|scratch| {
            scratch.set_budget(Some(budget));
            // `check` refused options that cannot be honoured.
            let options = self.options().unwrap_or_default();
            silknav::query::path(world, nav.paths(), q, &options, scratch)
        });
        write(out, &silknav::json::path_from(world, &answer, q.y));
    }
}

/// Appends a value's compact JSON.
fn write(out: &mut Vec<u8>, value: &impl Serialize) {
    // Writing the library's answers into a Vec cannot fail.
    let _ = serde_json::to_writer(out, value);
}

/// One query, or a batch of them.
enum Queries<Q> {
    One(Q),
    Batch(Vec<Q>),
}

/// Answers one query endpoint: reads the body within the limits, parses it, and answers on
/// the blocking pool, all within the request timeout.
pub(crate) async fn endpoint<Q: Query>(
    State(shared): State<Arc<Shared>>,
    req: Request,
) -> Response {
    let limits = shared.limits;
    // Set when the timeout fires, so that the rest of a batch is not computed for nobody.
    let abandoned = Arc::new(AtomicBool::new(false));
    let work = answer::<Q>(shared, req, abandoned.clone());
    match tokio::time::timeout(limits.timeout, work).await {
        Ok(Ok(body)) => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Ok(Err(e)) => e.into_response(),
        Err(_) => {
            abandoned.store(true, Ordering::Relaxed);
            timeout_error(&limits).into_response()
        }
    }
}

/// The error of a request that took longer than the timeout.
pub(crate) fn timeout_error(limits: &Limits) -> ApiError {
    ApiError::Limit {
        limit: name::TIMEOUT,
        max: limits.timeout.as_secs(),
        message: format!(
            "the request was not read and answered within {} s",
            limits.timeout.as_secs_f64()
        ),
    }
}

async fn answer<Q: Query>(
    shared: Arc<Shared>,
    req: Request,
    abandoned: Arc<AtomicBool>,
) -> Result<Vec<u8>, ApiError> {
    let limits = shared.limits;
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limits.max_body as u64) {
        // Refused before a byte of it is read.
        return Err(body_too_big(limits.max_body));
    }
    let bytes = read_body(req.into_body(), limits.max_body).await?;
    let queries = parse::<Q>(&bytes)?;
    match &queries {
        Queries::One(q) => q.check(&limits, "")?,
        Queries::Batch(batch) => {
            if batch.len() > limits.max_batch {
                return Err(ApiError::Limit {
                    limit: name::MAX_BATCH,
                    max: limits.max_batch as u64,
                    message: format!(
                        "a batch of {} queries is over the server's largest, {}",
                        batch.len(),
                        limits.max_batch
                    ),
                });
            }
            for (i, q) in batch.iter().enumerate() {
                q.check(&limits, &format!("[{i}]."))?;
            }
        }
    }
    let task = tokio::task::spawn_blocking(move || {
        let world = &shared.nav;
        let mut out = Vec::new();
        match queries {
            Queries::One(q) => q.answer(world, &limits, &mut out),
            Queries::Batch(batch) => {
                out.push(b'[');
                for (i, q) in batch.iter().enumerate() {
                    if abandoned.load(Ordering::Relaxed) {
                        break;
                    }
                    if i > 0 {
                        out.push(b',');
                    }
                    q.answer(world, &limits, &mut out);
                }
                out.push(b']');
            }
        }
        out
    });
    task.await
        .map_err(|e| ApiError::Internal(format!("the query failed: {e}")))
}

/// The body, refused as soon as it grows past `max` bytes.
async fn read_body(body: Body, max: usize) -> Result<Vec<u8>, ApiError> {
    let too_big = || body_too_big(max);
    let limited = http_body_util::Limited::new(body, max);
    match limited.collect().await {
        Ok(collected) => Ok(collected.to_bytes().to_vec()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(too_big()),
        Err(e) => Err(ApiError::bad(
            "",
            format!("the body could not be read: {e}"),
        )),
    }
}

fn body_too_big(max: usize) -> ApiError {
    ApiError::Limit {
        limit: name::MAX_BODY,
        max: max as u64,
        message: format!("the request body is over the server's largest, {max} bytes"),
    }
}

/// One query (a JSON object) or a batch (an array), with the JSON path of the first value
/// that is not of the query's form.
fn parse<Q: DeserializeOwned>(bytes: &[u8]) -> Result<Queries<Q>, ApiError> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let parsed = if first == Some(&b'[') {
        serde_path_to_error::deserialize(&mut de).map(Queries::Batch)
    } else {
        serde_path_to_error::deserialize(&mut de).map(Queries::One)
    };
    let queries = parsed.map_err(|e| {
        let field = e.path().to_string();
        let field = if field == "." { String::new() } else { field };
        ApiError::bad(field, e.inner().to_string())
    })?;
    de.end()
        .map_err(|e| ApiError::bad("", format!("after the JSON value: {e}")))?;
    Ok(queries)
}

#[derive(Serialize)]
struct Health<'a> {
    status: &'static str,
    version: &'static str,
    regions: usize,
    objects: usize,
    limits: LimitsJson,
    tile_levels: &'a [i32],
}

#[derive(Serialize)]
struct LimitsJson {
    #[serde(rename = "max-body")]
    max_body: usize,
    #[serde(rename = "max-batch")]
    max_batch: usize,
    #[serde(rename = "max-budget")]
    max_budget: usize,
    #[serde(rename = "max-snap-distance")]
    max_snap_distance: f64,
    timeout: f64,
    #[serde(rename = "max-concurrent")]
    max_concurrent: usize,
}

/// `GET /api/health`: that the server answers, what it serves, and its limits.
pub(crate) async fn health(State(shared): State<Arc<Shared>>) -> Response {
    let l = shared.limits;
    let health = Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
        regions: shared.nav.world().regions().len(),
        objects: shared.nav.world().object_instances().len(),
        limits: LimitsJson {
            max_body: l.max_body,
            max_batch: l.max_batch,
            max_budget: l.max_budget,
            max_snap_distance: l.max_snap_distance,
            timeout: l.timeout.as_secs_f64(),
            max_concurrent: l.max_concurrent,
        },
        tile_levels: &crate::tiles::LEVELS,
    };
    axum::Json(health).into_response()
}

/// `GET /api/regions`: the loaded regions and their bounds ([`silknav::json::regions`]).
pub(crate) async fn regions(State(shared): State<Arc<Shared>>) -> Response {
    axum::Json(silknav::json::regions(shared.nav.world())).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_or_a_batch_and_the_path_of_a_bad_value() {
        let one = parse::<LosRequest>(br#" {"x1":1,"z1":2,"x2":3,"z2":4,"y":5}"#).unwrap();
        assert!(matches!(one, Queries::One(LosRequest { y: Some(5.0), .. })));
        let batch = parse::<MoveRequest>(br#"[{"x1":1,"z1":2,"x2":3,"z2":4}]"#).unwrap();
        assert!(matches!(batch, Queries::Batch(b) if b.len() == 1));
        let bad = |body: &[u8]| match parse::<PathRequest>(body) {
            Err(ApiError::BadRequest { field, message }) => (field, message),
            _ => panic!("accepted {}", String::from_utf8_lossy(body)),
        };
        let (field, message) =
            bad(br#"[{"x1":1,"z1":2,"x2":3,"z2":4},{"x1":1,"z1":"a","x2":3,"z2":4}]"#);
        assert_eq!(field, "[1].z1");
        assert!(message.contains("expected f64"), "{message}");
        let (field, message) = bad(br#"{"x1":1,"z1":2,"x2":3}"#);
        assert_eq!(field, "");
        assert!(message.contains("missing field `z2`"), "{message}");
        let (_, message) = bad(br#"{"x1":1,"z1":2,"x2":3,"z2":4,"X":1}"#);
        assert!(message.contains("unknown field `X`"), "{message}");
        let (field, _) = bad(br#"{"x1":1,"z1":2,"x2":3,"z2":4,"budget":-1}"#);
        assert_eq!(field, "budget");
        let (_, message) = bad(br#"{"x1":1,"z1":2,"x2":3,"z2":4} x"#);
        assert!(message.starts_with("after the JSON value"), "{message}");
        let (_, message) = bad(b"{\"x1\":1e999}");
        assert!(message.contains("number out of range"), "{message}");
    }
}
