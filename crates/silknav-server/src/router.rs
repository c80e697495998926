//! The routes: the API, the tiles, the viewer's files, and the concurrency limit over all.

use crate::error::ApiError;
use crate::limits::name;
use crate::queries::{
    self, CellRequest, HeightRequest, LosRequest, MoveRequest, PathRequest, SnapRequest,
};
use crate::{tiles, Shared};
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;

/// The viewer's files, built into the binary: no build step, no network.
const INDEX_HTML: &str = include_str!("../assets/index.html");
const VIEWER_JS: &str = include_str!("../assets/viewer.js");
const VIEWER_CSS: &str = include_str!("../assets/viewer.css");

/// Every route, over the shared state.
pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(|| asset("text/html; charset=utf-8", INDEX_HTML)))
        .route(
            "/viewer.js",
            get(|| asset("text/javascript; charset=utf-8", VIEWER_JS)),
        )
        .route(
            "/viewer.css",
            get(|| asset("text/css; charset=utf-8", VIEWER_CSS)),
        )
        .route("/api/health", get(queries::health))
        .route("/api/regions", get(queries::regions))
        .route("/api/cell", post(queries::endpoint::<CellRequest>))
        .route("/api/height", post(queries::endpoint::<HeightRequest>))
        .route("/api/los", post(queries::endpoint::<LosRequest>))
        .route("/api/move", post(queries::endpoint::<MoveRequest>))
        .route("/api/path", post(queries::endpoint::<PathRequest>))
        .route("/api/snap", post(queries::endpoint::<SnapRequest>))
        .route("/api/tile/{level}/{tx}/{tz}", get(tiles::endpoint))
        .route("/api/dungeons", get(tiles::dungeons))
        .route("/api/dungeon/{id}/{floor}", get(tiles::dungeon_endpoint))
        .fallback(|| async { ApiError::NotFound("no such endpoint; see /api/health".into()) })
        .method_not_allowed_fallback(|| async {
            ApiError::MethodNotAllowed(
                "queries are POST with a JSON body; health, regions and tiles are GET".into(),
            )
        })
        .layer(middleware::from_fn_with_state(
            shared.clone(),
            limit_concurrency,
        ))
        .with_state(shared)
}

async fn asset(content_type: &'static str, text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], text).into_response()
}

/// Refuses a request at once when `max-concurrent` are under way (429), rather than queueing
/// it: a client learns it should slow down, and the server's memory stays bounded.
async fn limit_concurrency(
    State(shared): State<Arc<Shared>>,
    req: Request,
    next: Next,
) -> Response {
    match shared.semaphore.clone().try_acquire_owned() {
        Ok(permit) => {
            let response = next.run(req).await;
            drop(permit);
            response
        }
        Err(_) => {
            let max = shared.limits.max_concurrent;
            ApiError::Limit {
                limit: name::MAX_CONCURRENT,
                max: max as u64,
                message: format!("{max} requests are under way; try again shortly"),
            }
            .into_response()
        }
    }
}
