//! `/api/admin/*`: operator endpoints, enabled by `FERRY_ADMIN_TOKEN`. Without a token every
//! admin path answers 404, as if it did not exist.
//!
//! Every act is audited (issue 22): its entry is written in the transaction of the change, and
//! a request that sends an `Idempotency-Key` is carried out once: a retry with the same key
//! answers `{audit_id, replayed: true, after}` and changes nothing again.

use std::future::Future;

use axum::extract::{FromRef, FromRequestParts, Path, Request, State};
use axum::http::header;
use axum::http::request::Parts;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use secrecy::ExposeSecret;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::AppState;
use super::auth::Client;
use super::error::ApiError;
use super::extract::{ApiJson, ApiQuery, IdempotencyKeyHeader};
use crate::domain::operator::Actor;
use crate::domain::secret::constant_time_eq;
use crate::store::{AuditEntry, AuditFilter, AuditRecord, CurrencyOverride};

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
        .route("/audit", get(list_audit))
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

/// An admin request as its audit entry records it: who (behind `require_admin`, the token),
/// from where, and under which `Idempotency-Key`.
pub(super) struct AdminCall {
    actor: Actor,
    client_ip: String,
    user_agent: String,
    key: Option<String>,
}

impl<S> FromRequestParts<S> for AdminCall
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Client(client) = Client::from_request_parts(parts, state).await?;
        let IdempotencyKeyHeader(key) =
            IdempotencyKeyHeader::from_request_parts(parts, state).await?;
        Ok(AdminCall {
            actor: Actor::Token,
            client_ip: client.ip,
            user_agent: client.user_agent,
            key,
        })
    }
}

impl AdminCall {
    /// The audit entry of this call doing `action` to `subject` (kind, id), as asked by
    /// `request` (hashed, to tell a retry from another request under the same key).
    pub(super) fn audit(
        &self,
        action: &str,
        subject: (&str, &str),
        request: &impl Serialize,
    ) -> AuditEntry {
        let asked = serde_json::to_string(request).unwrap_or_default();
        let hash = Sha256::digest(format!("{action}\n{}\n{}\n{asked}", subject.0, subject.1));
        AuditEntry {
            client_ip: self.client_ip.clone(),
            user_agent: self.user_agent.chars().take(500).collect(),
            request_key: self.key.clone(),
            request_hash: Some(hex::encode(hash)),
            ..AuditEntry::new(&self.actor, action, subject, crate::now_unix())
        }
    }

    /// Carries out `act` once per `Idempotency-Key`: a retry (the same key and request) gets
    /// the first one's answer, another request under a used key a 422. Two at once: the
    /// database keeps one entry, and the other's change rolls back with its entry (or finds
    /// the order already changed); the loser then answers as a retry.
    pub(super) async fn once<F>(
        &self,
        state: &AppState,
        audit: &AuditEntry,
        act: F,
    ) -> Result<Json<serde_json::Value>, ApiError>
    where
        F: Future<Output = Result<Json<serde_json::Value>, ApiError>>,
    {
        if let Some(answer) = self.earlier(state, audit).await? {
            return Ok(answer);
        }
        match act.await {
            Ok(answer) => Ok(answer),
            Err(error) => match self.earlier(state, audit).await? {
                Some(answer) => Ok(answer),
                None => Err(error),
            },
        }
    }

    async fn earlier(
        &self,
        state: &AppState,
        audit: &AuditEntry,
    ) -> Result<Option<Json<serde_json::Value>>, ApiError> {
        let Some(key) = &self.key else {
            return Ok(None);
        };
        let Some(earlier) = state.store.audit_by_request(&audit.actor, key).await? else {
            return Ok(None);
        };
        if earlier.entry.request_hash != audit.request_hash {
            return Err(ApiError::Unprocessable(
                "This Idempotency-Key was used for another request".into(),
            ));
        }
        Ok(Some(Json(serde_json::json!({
            "audit_id": earlier.id,
            "replayed": true,
            "after": earlier.entry.after,
        }))))
    }
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

#[derive(Deserialize, Serialize)]
struct OverrideRequest {
    send: Option<bool>,
    recv: Option<bool>,
}

async fn set_currency_override(
    State(state): State<AppState>,
    call: AdminCall,
    Path(code): Path<String>,
    ApiJson(body): ApiJson<OverrideRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let code = code.trim().to_ascii_uppercase();
    let well_formed =
        (2..=20).contains(&code.len()) && code.chars().all(|c| c.is_ascii_alphanumeric());
    if !well_formed {
        return Err(ApiError::BadRequest(format!(
            "Unknown currency code {code:?}"
        )));
    }
    let audit = call.audit("currency.set", ("currency", &code), &body);
    call.once(&state, &audit, async {
        let value = CurrencyOverride {
            code: code.clone(),
            send_enabled: body.send,
            recv_enabled: body.recv,
            updated_at: crate::now_unix(),
        };
        let audit_id = state.store.set_currency_override(&value, &audit).await?;
        state.switches.reload(state.store.as_ref()).await?;
        Ok(Json(serde_json::json!({
            "code": value.code,
            "send": value.send_enabled,
            "recv": value.recv_enabled,
            "updated_at": value.updated_at,
            "audit_id": audit_id,
        })))
    })
    .await
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

#[derive(Deserialize, Serialize)]
struct OutageRequest {
    down: bool,
    /// Down by hanging (never answering) rather than by failing at once.
    #[serde(default)]
    hang: bool,
}

/// Starts or ends a simulated outage of the sandbox provider. The switch lives in memory: its
/// audit entry is written first, and the switch is not thrown if it cannot be.
async fn set_sandbox_outage(
    State(state): State<AppState>,
    call: AdminCall,
    ApiJson(body): ApiJson<OutageRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    use crate::providers::sandbox::SimulatedOutage;
    let outage = match (body.down, body.hang) {
        (false, _) => SimulatedOutage::None,
        (true, false) => SimulatedOutage::Failing,
        (true, true) => SimulatedOutage::Hanging,
    };
    let audit = AuditEntry {
        after: Some(serde_json::json!({ "down": body.down, "hang": body.hang })),
        ..call.audit("sandbox.outage", ("sandbox", "outage"), &body)
    };
    call.once(&state, &audit, async {
        let audit_id = state.store.append_audit(&audit).await?;
        state.sandbox.set_outage(outage);
        tracing::warn!(?outage, "sandbox outage simulation switched");
        Ok(Json(serde_json::json!({
            "down": body.down,
            "hang": body.hang,
            "audit_id": audit_id,
        })))
    })
    .await
}

#[derive(Deserialize, Serialize)]
struct IncidentRequest {
    title: String,
    #[serde(default)]
    description: String,
}

async fn open_incident(
    State(state): State<AppState>,
    call: AdminCall,
    ApiJson(body): ApiJson<IncidentRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    // The incident's id is made when it opens: the entry names it then.
    let audit = call.audit("incident.open", ("incident", ""), &body);
    call.once(&state, &audit, async {
        let (id, audit_id) = state
            .status
            .open_incident(
                &body.title,
                &body.description,
                crate::now_unix(),
                audit.clone(),
            )
            .await
            .map_err(incident_error)?;
        Ok(Json(serde_json::json!({ "id": id, "audit_id": audit_id })))
    })
    .await
}

#[derive(Deserialize, Serialize)]
struct IncidentUpdateRequest {
    status: String,
    message: String,
}

async fn update_incident(
    State(state): State<AppState>,
    call: AdminCall,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<IncidentUpdateRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let audit = call.audit("incident.update", ("incident", &id), &body);
    call.once(&state, &audit, async {
        let audit_id = state
            .status
            .update_incident(&id, &body.status, &body.message, crate::now_unix(), &audit)
            .await
            .map_err(incident_error)?;
        Ok(Json(
            serde_json::json!({ "id": id, "status": body.status, "audit_id": audit_id }),
        ))
    })
    .await
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

#[derive(Deserialize, Serialize)]
struct ClosePayout {
    /// `paid` or `rejected`.
    status: String,
    #[serde(default)]
    txid: Option<String>,
}

async fn close_payout(
    State(state): State<AppState>,
    call: AdminCall,
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
    let audit = call.audit("payout.close", ("payout", &id), &body);
    call.once(&state, &audit, async {
        let audit_id = state
            .partners
            .ledger
            .close_payout(&id, paid, body.txid.as_deref(), crate::now_unix(), &audit)
            .await?;
        Ok(Json(
            serde_json::json!({ "id": id, "status": body.status, "audit_id": audit_id }),
        ))
    })
    .await
}

/// Longest page of the audit log.
const AUDIT_PAGE_LIMIT: i64 = 200;

#[derive(Deserialize)]
struct AuditQuery {
    actor: Option<String>,
    action: Option<String>,
    subject_kind: Option<String>,
    subject_id: Option<String>,
    /// Unix seconds: entries at or after.
    since: Option<i64>,
    /// Unix seconds: entries before.
    until: Option<i64>,
    /// An entry id: the page after it (`next` of the previous page).
    before: Option<i64>,
    limit: Option<i64>,
}

/// The audit log, newest first, filtered; `next` pages on.
async fn list_audit(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<AuditQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let limit = query.limit.unwrap_or(50).clamp(1, AUDIT_PAGE_LIMIT);
    let entries = state
        .store
        .audit_entries(&AuditFilter {
            actor: query.actor,
            action: query.action,
            subject_kind: query.subject_kind,
            subject_id: query.subject_id,
            since: query.since,
            until: query.until,
            before: query.before,
            limit,
        })
        .await?;
    let next = (entries.len() as i64 == limit)
        .then(|| entries.last().map(|e| e.id))
        .flatten();
    Ok(Json(serde_json::json!({
        "entries": entries.iter().map(audit_view).collect::<Vec<_>>(),
        "next": next,
    })))
}

fn audit_view(record: &AuditRecord) -> serde_json::Value {
    let e = &record.entry;
    serde_json::json!({
        "id": record.id, "at": e.at, "actor": e.actor, "actor_email": e.actor_email,
        "actor_role": e.actor_role, "action": e.action, "subject_kind": e.subject_kind,
        "subject_id": e.subject_id, "reason": e.reason, "client_ip": e.client_ip,
        "user_agent": e.user_agent, "before": e.before, "after": e.after,
        "replayable": e.request_key.is_some(),
    })
}
