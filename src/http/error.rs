//! One error type for the site API, mapped to HTTP in one place.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::services::accounts::AccountError;
use crate::store::StoreError;

/// An answer other than success. The body is `{code, msg, error, message}`: `code` and `msg`
/// follow the exchange API's envelope, `error` and `message` (the same text) are what the web
/// client shows (spec/exchange.md §8, spec/accounts-and-pages.md §3, §8).
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("Unauthorized")]
    Unauthorized,
    #[error("{0}")]
    UnauthorizedWith(String),
    #[error("{0}")]
    Forbidden(String),
    /// 403 with a machine-readable `reason` beside the text (the console tells a locked
    /// console from a missing role or second factor by it).
    #[error("{message}")]
    ForbiddenBecause {
        message: String,
        reason: &'static str,
    },
    /// 429 with `Retry-After`.
    #[error("{message}")]
    TooManyRequests { message: String, retry_after: i64 },
    #[error("Not found")]
    NotFound,
    #[error("{0}")]
    NotFoundWith(String),
    #[error("{0}")]
    Conflict(String),
    /// 409 with what the client needs to decide again (`data` in the body).
    #[error("{message}")]
    ConflictWith {
        message: String,
        data: serde_json::Value,
    },
    /// 409: an audited act whose `Idempotency-Key` an earlier request used (see `admin`).
    #[error("This request was already carried out")]
    Replayed,
    /// 422: well-formed, but refused as it stands (an idempotency key reused for another request).
    #[error("{0}")]
    Unprocessable(String),
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("{0}")]
    Unavailable(String),
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized | ApiError::UnauthorizedWith(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) | ApiError::ForbiddenBecause { .. } => StatusCode::FORBIDDEN,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::NotFound | ApiError::NotFoundWith(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) | ApiError::ConflictWith { .. } | ApiError::Replayed => {
                StatusCode::CONFLICT
            }
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl ApiError {
    /// 429 for a client over one of its budgets: what it asked too often, and when to come back.
    pub fn too_many(what: &str, wait: crate::limits::RetryAfter) -> ApiError {
        let seconds = wait.seconds();
        ApiError::TooManyRequests {
            message: format!("Too many {what} from your address; try again in {seconds} s"),
            retry_after: seconds as i64,
        }
    }
}

impl From<AccountError> for ApiError {
    fn from(error: AccountError) -> Self {
        let message = error.to_string();
        match error {
            AccountError::Invalid(_)
            | AccountError::WrongPassword
            | AccountError::InvalidCode
            | AccountError::LinkExpired(_)
            | AccountError::LinkInvalid(_) => ApiError::BadRequest(message),
            AccountError::InvalidCredentials | AccountError::ChallengeExpired => {
                ApiError::UnauthorizedWith(message)
            }
            AccountError::EmailTaken | AccountError::Conflict(_) => ApiError::Conflict(message),
            AccountError::FreshSignInRequired | AccountError::Locked => {
                ApiError::Forbidden(message)
            }
            AccountError::TooManyAttempts { retry_after, .. } => ApiError::TooManyRequests {
                message,
                retry_after,
            },
            AccountError::Busy => ApiError::TooManyRequests {
                message,
                retry_after: 5,
            },
            AccountError::NotFound => ApiError::NotFound,
            AccountError::Store(e) => ApiError::Internal(e.into()),
            AccountError::Internal(e) => ApiError::Internal(anyhow::anyhow!(e)),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Replayed => ApiError::Replayed,
            _ => ApiError::Internal(error.into()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if let ApiError::Internal(cause) = &self {
            // The cause is logged here, once; the body says only "internal error".
            tracing::error!(error = format!("{cause:#}"), "request failed");
        }
        let message = self.to_string();
        let mut body = json!({
            "code": status.as_u16(),
            "msg": message,
            "error": message,
            "message": message,
        });
        match &self {
            ApiError::ConflictWith { data, .. } => body["data"] = data.clone(),
            ApiError::ForbiddenBecause { reason, .. } => body["reason"] = (*reason).into(),
            _ => {}
        }
        let mut response = (status, Json(body)).into_response();
        if let ApiError::TooManyRequests { retry_after, .. } = &self {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(*retry_after),
            );
        }
        response
    }
}

/// The JSON 404 for any `/api/…` path no route matches — never the SPA's HTML.
pub async fn api_not_found() -> ApiError {
    ApiError::NotFound
}
