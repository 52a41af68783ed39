//! Liveness, readiness and Prometheus metrics.

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use serde_json::json;

use super::AppState;

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

async fn get_metrics(State(state): State<AppState>) -> impl IntoResponse {
    state.metrics.run_upkeep();
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        state.metrics.render(),
    )
}
