//! Liveness, readiness and Prometheus metrics.

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use serde_json::json;

use super::AppState;
use super::error::ApiError;
use super::extract::ClientAddress;
use crate::domain::secret::constant_time_eq;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(get_health))
        .route("/readyz", get(get_readiness))
        .route("/metrics", get(get_metrics))
}

/// The process is up and serving.
async fn get_health() -> impl IntoResponse {
    Json(json!({ "status": "ok" }))
}

/// The process can do its work: the database answers.
async fn get_readiness(State(state): State<AppState>) -> impl IntoResponse {
    match state.store.ping().await {
        Ok(()) => (StatusCode::OK, Json(json!({ "status": "ready" }))),
        Err(error) => {
            tracing::warn!(error = %error, "readiness check failed");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({ "status": "unavailable", "database": "down" })),
            )
        }
    }
}

/// Prometheus text, for the operator's scraper only: a bearer of `FERRY_METRICS_TOKEN` or a
/// client in `FERRY_METRICS_ALLOW`; everyone else gets the 404 of a page that is not there.
async fn get_metrics(
    State(state): State<AppState>,
    client: ClientAddress,
    headers: HeaderMap,
) -> Result<impl IntoResponse, ApiError> {
    use secrecy::ExposeSecret;
    let config = &state.config;
    let by_token = config.metrics_token.as_ref().is_some_and(|token| {
        headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|given| {
                constant_time_eq(given.trim().as_bytes(), token.expose_secret().as_bytes())
            })
    });
    let by_address = config.metrics_allow.iter().any(|n| n.contains(&client.0));
    if !(by_token || by_address) {
        return Err(ApiError::NotFound);
    }
    state.metrics.run_upkeep();
    Ok((
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        state.metrics.render(),
    ))
}
