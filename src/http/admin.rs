//! `/api/admin/*`: operator endpoints, enabled by `FERRY_ADMIN_TOKEN`. Without a token every
//! admin path answers 404, as if it did not exist.

use axum::extract::{Path, Request, State};
use axum::http::header;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use secrecy::ExposeSecret;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::AppState;
use super::error::ApiError;
use super::extract::ApiJson;
use crate::domain::secret::constant_time_eq;
use crate::store::CurrencyOverride;

pub fn router(state: &AppState) -> Router<AppState> {
    if state.config.admin_token.is_none() {
        return Router::new().fallback(super::error::api_not_found);
    }
    Router::new()
        .route("/currency-overrides", get(list_currency_overrides))
        .route("/currency-overrides/{code}", put(set_currency_override))
        .route("/sandbox/deposit", post(super::orders::simulate_deposit))
        .route("/sandbox/expire", post(super::orders::simulate_expiry))
        .route("/sandbox/outage", put(set_sandbox_outage))
        .route("/incidents", get(list_incidents).post(open_incident))
        .route("/contact-messages", get(list_contact_messages))
        .route("/incidents/{id}/updates", post(update_incident))
        .route("/payouts", get(list_payouts))
        .route("/payouts/{id}", post(close_payout))
        .fallback(super::error::api_not_found)
        .route_layer(middleware::from_fn_with_state(state.clone(), require_admin))
}

async fn require_admin(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let expected = state
        .config
        .admin_token
        .as_ref()
        .ok_or(ApiError::NotFound)?;
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if same_secret(given, expected.expose_secret()) {
        Ok(next.run(request).await)
    } else {
        Err(ApiError::Unauthorized)
    }
}

/// Compares two secrets in time independent of where they differ (or of their lengths: the
/// digests always have the same length).
fn same_secret(given: &str, expected: &str) -> bool {
    constant_time_eq(&Sha256::digest(given), &Sha256::digest(expected))
}

#[derive(Serialize)]
struct OverrideView {
    code: String,
    send: Option<bool>,
    recv: Option<bool>,
    updated_at: i64,
}

async fn list_currency_overrides(
    State(state): State<AppState>,
) -> Result<Json<Vec<OverrideView>>, ApiError> {
    let overrides = state.store.currency_overrides().await?;
    Ok(Json(
        overrides
            .into_iter()
            .map(|o| OverrideView {
                code: o.code,
                send: o.send_enabled,
                recv: o.recv_enabled,
                updated_at: o.updated_at,
            })
            .collect(),
    ))
}

#[derive(Deserialize)]
struct OverrideRequest {
    send: Option<bool>,
    recv: Option<bool>,
}

async fn set_currency_override(
    State(state): State<AppState>,
    Path(code): Path<String>,
    ApiJson(body): ApiJson<OverrideRequest>,
) -> Result<Json<OverrideView>, ApiError> {
    let code = code.trim().to_ascii_uppercase();
    let well_formed =
        (2..=20).contains(&code.len()) && code.chars().all(|c| c.is_ascii_alphanumeric());
    if !well_formed {
        return Err(ApiError::BadRequest(format!(
            "Unknown currency code {code:?}"
        )));
    }
    let value = CurrencyOverride {
        code,
        send_enabled: body.send,
        recv_enabled: body.recv,
        updated_at: crate::now_unix(),
    };
    state.store.set_currency_override(&value).await?;
    state.switches.reload(state.store.as_ref()).await?;
    Ok(Json(OverrideView {
        code: value.code,
        send: value.send_enabled,
        recv: value.recv_enabled,
        updated_at: value.updated_at,
    }))
}

#[cfg(test)]
mod tests {
    use super::same_secret;

    #[test]
    fn only_the_exact_secret_matches() {
        assert!(same_secret("s3cret", "s3cret"));
        assert!(!same_secret("s3cre", "s3cret"));
        assert!(!same_secret("", "s3cret"));
    }
}

#[derive(Deserialize)]
struct OutageRequest {
    down: bool,
    /// Down by hanging (never answering) rather than by failing at once.
    #[serde(default)]
    hang: bool,
}

/// Starts or ends a simulated outage of the sandbox provider.
async fn set_sandbox_outage(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<OutageRequest>,
) -> Json<serde_json::Value> {
    use crate::providers::sandbox::SimulatedOutage;
    let outage = match (body.down, body.hang) {
        (false, _) => SimulatedOutage::None,
        (true, false) => SimulatedOutage::Failing,
        (true, true) => SimulatedOutage::Hanging,
    };
    state.sandbox.set_outage(outage);
    tracing::warn!(?outage, "sandbox outage simulation switched");
    Json(serde_json::json!({ "down": body.down, "hang": body.hang }))
}

#[derive(Deserialize)]
struct IncidentRequest {
    title: String,
    #[serde(default)]
    description: String,
}

async fn open_incident(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<IncidentRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let id = state
        .status
        .open_incident(&body.title, &body.description, crate::now_unix())
        .await
        .map_err(incident_error)?;
    Ok(Json(serde_json::json!({ "id": id })))
}

#[derive(Deserialize)]
struct IncidentUpdateRequest {
    status: String,
    message: String,
}

async fn update_incident(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<IncidentUpdateRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    state
        .status
        .update_incident(&id, &body.status, &body.message, crate::now_unix())
        .await
        .map_err(incident_error)?;
    Ok(Json(serde_json::json!({ "id": id, "status": body.status })))
}

async fn list_incidents(
    State(state): State<AppState>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let incidents = state.status.incidents().await?;
    Ok(Json(serde_json::json!(
        incidents
            .iter()
            .map(|i| serde_json::json!({
                "id": i.id, "title": i.title, "status": i.status, "created_at": i.created_at,
            }))
            .collect::<Vec<_>>()
    )))
}

fn incident_error(error: crate::services::status::IncidentError) -> ApiError {
    use crate::services::status::IncidentError;
    match error {
        IncidentError::Invalid(what) => ApiError::BadRequest(format!("Give {what}")),
        IncidentError::NotFound(_) => ApiError::NotFoundWith(error.to_string()),
        IncidentError::Store(e) => e.into(),
    }
}

/// The latest contact messages (they are also mailed to the support address).
async fn list_contact_messages(
    State(state): State<AppState>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let messages = state.store.contact_messages(100).await?;
    Ok(Json(serde_json::json!(
        messages
            .iter()
            .map(|m| serde_json::json!({
                "id": m.id, "name": m.name, "email": m.email, "subject": m.subject,
                "category": m.category, "message": m.message, "created_at": m.created_at,
            }))
            .collect::<Vec<_>>()
    )))
}

#[derive(Deserialize)]
struct PayoutFilter {
    #[serde(default)]
    status: Option<String>,
}

/// Affiliate payout requests, oldest first (`?status=requested|paid|rejected`).
async fn list_payouts(
    State(state): State<AppState>,
    super::extract::ApiQuery(filter): super::extract::ApiQuery<PayoutFilter>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let payouts = state
        .partners
        .ledger
        .payouts(filter.status.as_deref())
        .await?;
    Ok(Json(serde_json::json!(
        payouts
            .into_iter()
            .map(|p| serde_json::json!({
                "id": p.id, "user_id": p.user_id, "amount_usd": p.amount_usd,
                "currency": p.currency, "address": p.address, "tag": p.tag,
                "status": p.status, "txid": p.txid, "created_at": p.created_at,
                "processed_at": p.processed_at,
            }))
            .collect::<Vec<_>>()
    )))
}

#[derive(Deserialize)]
struct ClosePayout {
    /// `paid` or `rejected`.
    status: String,
    #[serde(default)]
    txid: Option<String>,
}

async fn close_payout(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ClosePayout>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let paid = match body.status.as_str() {
        "paid" => true,
        "rejected" => false,
        _ => {
            return Err(ApiError::BadRequest(
                "status must be paid or rejected".into(),
            ));
        }
    };
    state
        .partners
        .ledger
        .close_payout(&id, paid, body.txid.as_deref(), crate::now_unix())
        .await?;
    Ok(Json(serde_json::json!({ "id": id, "status": body.status })))
}
