//! `POST /api/affiliate/click`: a visitor arrived with `?ref=` (spec/accounts-and-pages.md §4.6).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::AppState;
use super::error::ApiError;
use super::extract::{ApiJson, ClientAddress};
use crate::services::affiliate::{self, Click};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/affiliate/click", post(record_affiliate_click))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct ClickRequest {
    referral_code: String,
    #[serde(default)]
    source: Option<String>,
}

/// Always 202 for a well-formed body: whether the code exists is not the caller's business.
#[utoipa::path(
    post,
    path = "/api/affiliate/click",
    tag = "affiliate",
    summary = "Record a referral click",
    request_body = ClickRequest,
    responses((status = 202, description = "OK", body = serde_json::Value))
)]
async fn record_affiliate_click(
    State(state): State<AppState>,
    client: ClientAddress,
    ApiJson(body): ApiJson<ClickRequest>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    affiliate::record_click(
        state.store.as_ref(),
        Click {
            referral_code: &body.referral_code,
            source: body.source.as_deref(),
            client: &client.key().label(),
            now_unix: crate::now_unix(),
        },
    )
    .await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({ "code": 0, "msg": "accepted" })),
    ))
}
