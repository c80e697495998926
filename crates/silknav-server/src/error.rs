//! Error answers: a status and a JSON body that says what went wrong and where.
//!
//! | status | body |
//! |---|---|
//! | 400 | `{"error":"bad-request","field":"[2].x1","message":"invalid type: string \"a\", expected f64"}` (`field` is the JSON path of the value at fault, `""` for the whole body) |
//! | 404 | `{"error":"not-found","message":".."}` |
//! | 405 | `{"error":"method-not-allowed","message":".."}` |
//! | 408, 413, 429, 400 | `{"error":"limit","limit":"max-batch","max":10000,"message":".."}`: a request over a [`crate::Limits`] limit, named as its flag |
//! | 500 | `{"error":"internal","message":".."}` |

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// Why a request got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// The body is not JSON of the query's form; `field` is the JSON path of the value at
    /// fault (`[2].x1`), empty for the body as a whole.
    BadRequest {
        /// Where.
        field: String,
        /// What.
        message: String,
    },
    /// A request over a limit: its name (the flag's), the limit, and what happened.
    Limit {
        /// The limit's name, as its `silknav serve` flag (`max-batch`).
        limit: &'static str,
        /// The limit's value (seconds for `timeout`).
        max: u64,
        /// What the request did.
        message: String,
    },
    /// No such endpoint or tile.
    NotFound(String),
    /// The endpoint takes another method.
    MethodNotAllowed(String),
    /// The server failed (a query panicked).
    Internal(String),
}

impl ApiError {
    /// A bad request about the field at `field`.
    pub fn bad(field: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError::BadRequest {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The HTTP status of the error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::Limit { limit, .. } => match *limit {
                crate::limits::name::MAX_BODY | crate::limits::name::MAX_BATCH => {
                    StatusCode::PAYLOAD_TOO_LARGE
                }
                crate::limits::name::TIMEOUT => StatusCode::REQUEST_TIMEOUT,
                crate::limits::name::MAX_CONCURRENT => StatusCode::TOO_MANY_REQUESTS,
                _ => StatusCode::BAD_REQUEST,
            },
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

#[derive(Serialize)]
struct ErrorJson<'a> {
    error: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max: Option<u64>,
    message: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let json = match &self {
            ApiError::BadRequest { field, message } => ErrorJson {
                error: "bad-request",
                field: Some(field),
                limit: None,
                max: None,
                message,
            },
            ApiError::Limit {
                limit,
                max,
                message,
            } => ErrorJson {
                error: "limit",
                field: None,
                limit: Some(limit),
                max: Some(*max),
                message,
            },
            ApiError::NotFound(message) => ErrorJson {
                error: "not-found",
                field: None,
                limit: None,
                max: None,
                message,
            },
            ApiError::MethodNotAllowed(message) => ErrorJson {
                error: "method-not-allowed",
                field: None,
                limit: None,
                max: None,
                message,
            },
            ApiError::Internal(message) => ErrorJson {
                error: "internal",
                field: None,
                limit: None,
                max: None,
                message,
            },
        };
        // Serializing strings and numbers cannot fail.
        let body = serde_json::to_vec(&json).unwrap_or_default();
        (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
    }
}
