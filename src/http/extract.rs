//! Extractors that answer in Ferry's error shape instead of axum's plain text.

use std::net::{IpAddr, SocketAddr};

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, FromRef, FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use super::AppState;
use super::error::ApiError;
use crate::limits::{self, ClientKey};

/// `axum::Json`, with malformed bodies reported as `ApiError`s.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(match rejection {
                JsonRejection::MissingJsonContentType(_) => ApiError::UnsupportedMediaType(
                    "Send the body as JSON with Content-Type: application/json".into(),
                ),
                JsonRejection::JsonDataError(e) => ApiError::BadRequest(format!(
                    "Invalid request: {}",
                    e.body_text().trim_start_matches(
                        "Failed to deserialize the JSON body into the target type: "
                    )
                )),
                JsonRejection::JsonSyntaxError(_) => {
                    ApiError::BadRequest("Invalid request: the body is not valid JSON".into())
                }
                JsonRejection::BytesRejection(e)
                    if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE =>
                {
                    ApiError::PayloadTooLarge("The request body is too large".into())
                }
                other => ApiError::BadRequest(format!("Invalid request: {}", other.body_text())),
            }),
        }
    }
}

/// The client's address: the socket peer, or behind the operator's proxies
/// (`FERRY_TRUSTED_PROXIES`) the hop they say the request came from (see
/// [`limits::client_address`]).
pub struct ClientAddress(pub IpAddr);

impl ClientAddress {
    /// How per-client budgets count this client (an IPv6 client by its /64).
    pub fn key(&self) -> ClientKey {
        ClientKey::of(self.0)
    }
}

impl<S> FromRequestParts<S> for ClientAddress
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip())
            .unwrap_or(IpAddr::from([127, 0, 0, 1]));
        let forwarded = parts
            .headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok());
        Ok(ClientAddress(limits::client_address(
            peer,
            forwarded,
            &state.config.trusted_proxies,
        )))
    }
}

/// `axum::extract::Query`, with malformed query strings reported as `ApiError`s (JSON), not
/// axum's plain text.
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(value)| ApiQuery(value))
            .map_err(|rejection| {
                ApiError::BadRequest(format!(
                    "Invalid query: {}",
                    rejection
                        .body_text()
                        .trim_start_matches("Failed to deserialize query string: ")
                ))
            })
    }
}

/// Longest `Idempotency-Key` accepted.
const IDEMPOTENCY_KEY_LIMIT: usize = 128;

/// The request's `Idempotency-Key` (trimmed; none when absent or blank): a retry with the same
/// key and request is answered as the first request was, and does nothing twice.
pub struct IdempotencyKeyHeader(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for IdempotencyKeyHeader {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let key = parts
            .headers
            .get("idempotency-key")
            .map(|v| v.to_str().map(str::trim))
            .transpose()
            .map_err(|_| ApiError::BadRequest("Idempotency-Key must be visible ASCII".into()))?
            .filter(|k| !k.is_empty());
        if key.is_some_and(|k| k.len() > IDEMPOTENCY_KEY_LIMIT) {
            return Err(ApiError::BadRequest("Idempotency-Key is too long".into()));
        }
        Ok(IdempotencyKeyHeader(key.map(str::to_owned)))
    }
}
