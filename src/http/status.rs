//! `GET /api/status`: the measured state of the service (spec/accounts-and-pages.md §2.6, §3).

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};

use super::AppState;
use super::error::ApiError;
use crate::services::status::StatusReport;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/status", get(get_status))
}

#[utoipa::path(
    get,
    path = "/api/status",
    tag = "site",
    summary = "The measured status",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn get_status(State(state): State<AppState>) -> Result<Json<StatusReport>, ApiError> {
    Ok(Json(state.status.report(crate::now_unix()).await?))
}
