//! The signed-in partner's pages: API keys (`/api-management`) and the affiliate dashboard
//! (`/affiliate`) with payout requests.

use axum::extract::{Path, State};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::AppState;
use super::accounts::bounded;
use super::auth::AuthUser;
use super::error::ApiError;
use super::extract::ApiJson;
use crate::services::partners::keys::KeyError;
use crate::services::partners::ledger::LedgerError;
use crate::store::{ApiKeyRecord, WebhookDelivery};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/api-keys", get(list_api_keys).post(create_api_key))
        .route("/api/api-keys/{id}", axum::routing::delete(revoke_api_key))
        .route("/api/api-keys/{id}/webhook", put(set_webhook))
        .route("/api/api-keys/{id}/deliveries", get(list_deliveries))
        .route("/api/affiliate", get(get_affiliate_summary))
        .route("/api/affiliate/payouts", post(request_payout))
}

impl From<KeyError> for ApiError {
    fn from(error: KeyError) -> Self {
        match error {
            KeyError::Invalid(m) => ApiError::BadRequest(m),
            KeyError::EmailNotVerified => ApiError::Forbidden(error.to_string()),
            KeyError::TooMany => ApiError::Conflict(error.to_string()),
            KeyError::NotFound => ApiError::NotFoundWith(error.to_string()),
            KeyError::Store(e) => e.into(),
        }
    }
}

impl From<LedgerError> for ApiError {
    fn from(error: LedgerError) -> Self {
        match error {
            LedgerError::Invalid(m) => ApiError::BadRequest(m),
            LedgerError::Conflict(m) => ApiError::Conflict(m),
            LedgerError::NotFound => ApiError::NotFoundWith(error.to_string()),
            LedgerError::Store(e) => e.into(),
        }
    }
}

/// A key as its owner sees it: never its secret.
fn key_view(key: &ApiKeyRecord) -> Value {
    json!({
        "id": key.id,
        "name": key.name,
        "permission": key.permission,
        "webhook_url": key.webhook_url,
        "request_count": key.request_count,
        "last_used_at": key.last_used_at,
        "created_at": key.created_at,
        "revoked_at": key.revoked_at,
    })
}

fn delivery_view(d: &WebhookDelivery) -> Value {
    json!({
        "id": d.id,
        "order_id": d.order_id,
        "order_status": d.order_status,
        "created_at": d.created_at,
        "attempts": d.attempts,
        "next_attempt_at": d.next_attempt_at,
        "delivered_at": d.delivered_at,
        "last_status_code": d.last_status_code,
        "last_error": d.last_error,
    })
}

#[utoipa::path(
    get, path = "/api/api-keys", tag = "partners",
    summary = "The signed-in user's API keys",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn list_api_keys(
    State(state): State<AppState>,
    auth: AuthUser,
) -> Result<Json<Value>, ApiError> {
    let keys = state.partners.keys.list(&auth.user).await?;
    Ok(Json(json!({
        "keys": keys.iter().map(key_view).collect::<Vec<_>>(),
        "email_verified": auth.user.email_verified_at.is_some(),
    })))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct CreateKeyRequest {
    name: String,
    /// `read` or `trade`.
    permission: String,
}

#[utoipa::path(
    post, path = "/api/api-keys", tag = "partners",
    summary = "Create an API key; the answer holds its secrets, shown this once",
    request_body = CreateKeyRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn create_api_key(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(body): ApiJson<CreateKeyRequest>,
) -> Result<Json<Value>, ApiError> {
    let created = state
        .partners
        .keys
        .create(&auth.user, &body.name, &body.permission, crate::now_unix())
        .await?;
    Ok(Json(json!({
        "key": key_view(&created.key),
        "secret": created.secret,
        "webhook_secret": created.webhook_secret,
        "message": "API key created. Copy the secret now: it will not be shown again.",
    })))
}

#[utoipa::path(
    delete, path = "/api/api-keys/{id}", tag = "partners",
    summary = "Revoke an API key at once",
    params(("id" = String, Path)),
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn revoke_api_key(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    state
        .partners
        .keys
        .revoke(&auth.user, bounded("API key", &id)?, crate::now_unix())
        .await?;
    Ok(Json(json!({ "message": "API key revoked." })))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct WebhookRequest {
    /// An `https://` (or `http://`) URL; empty or null removes the webhook.
    #[serde(default)]
    url: Option<String>,
}

#[utoipa::path(
    put, path = "/api/api-keys/{id}/webhook", tag = "partners",
    summary = "Set or remove the key's webhook",
    params(("id" = String, Path)),
    request_body = WebhookRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn set_webhook(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<WebhookRequest>,
) -> Result<Json<Value>, ApiError> {
    state
        .partners
        .keys
        .set_webhook(&auth.user, bounded("API key", &id)?, body.url.as_deref())
        .await?;
    Ok(Json(json!({ "message": "Webhook saved." })))
}

#[utoipa::path(
    get, path = "/api/api-keys/{id}/deliveries", tag = "partners",
    summary = "The latest webhook deliveries of a key",
    params(("id" = String, Path)),
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn list_deliveries(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let deliveries = state
        .partners
        .keys
        .deliveries(&auth.user, bounded("API key", &id)?)
        .await?;
    Ok(Json(json!({
        "deliveries": deliveries.iter().map(delivery_view).collect::<Vec<_>>(),
    })))
}

#[utoipa::path(
    get, path = "/api/affiliate", tag = "partners",
    summary = "The affiliate dashboard: link, statistics, 90-day chart, orders and payouts",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn get_affiliate_summary(
    State(state): State<AppState>,
    auth: AuthUser,
) -> Result<Json<Value>, ApiError> {
    let summary = state
        .partners
        .ledger
        .summary(&auth.user, crate::now_unix())
        .await?;
    let link = format!(
        "{}/?ref={}",
        state.config.public_url.trim_end_matches('/'),
        summary.referral_code
    );
    let mut body = serde_json::to_value(&summary).map_err(|e| ApiError::Internal(e.into()))?;
    body["referral_link"] = Value::String(link);
    Ok(Json(body))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct PayoutRequest {
    /// A currency code of the catalogue, such as `BTC` or `USDTTRC`.
    currency: String,
    address: String,
    #[serde(default)]
    tag: Option<String>,
}

#[utoipa::path(
    post, path = "/api/affiliate/payouts", tag = "partners",
    summary = "Ask for the available balance to be paid out",
    request_body = PayoutRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn request_payout(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(body): ApiJson<PayoutRequest>,
) -> Result<Json<Value>, ApiError> {
    let payout = state
        .partners
        .ledger
        .request_payout(
            &auth.user,
            bounded("Currency", &body.currency)?,
            bounded("Address", &body.address)?,
            body.tag.as_deref(),
            crate::now_unix(),
        )
        .await?;
    tracing::info!(payout = %payout.id, "payout requested");
    Ok(Json(json!({
        "message": "Payout requested. You will be paid after review.",
        "payout": crate::services::partners::ledger::PayoutView::from(payout),
    })))
}
