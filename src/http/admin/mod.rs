//! `/api/admin/*`: the back office's endpoints, for scripts with `FERRY_ADMIN_TOKEN` (acting as
//! an owner) and for operators: users with a role, two-factor authentication on, and the
//! console unlocked with a recent code (issue 22). To anyone else every admin path answers 404,
//! as if it did not exist (401 where a token is configured).
//!
//! Every act is audited (issue 22): its entry is written in the transaction of the change, and
//! a request that sends an `Idempotency-Key` is carried out once: a retry with the same key
//! answers `{audit_id, replayed: true, after}` and changes nothing again.

mod audit_csv;
mod currencies;
mod orders;
mod queue;
mod users;

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
use super::auth::{AuthUser, Client, MaybeUser};
use super::error::ApiError;
use super::extract::{ApiJson, ApiQuery, IdempotencyKeyHeader};
use crate::domain::operator::{Actor, Role};
use crate::domain::secret::constant_time_eq;
use crate::store::{
    AuditEntry, AuditFilter, AuditRecord, MessageFilter, RoleChange, SessionRecord, UserRecord,
};

pub fn router(state: &AppState) -> Router<AppState> {
    Router::new()
        .route("/api/admin/currencies", get(currencies::list_currencies))
        .route(
            "/api/admin/currency-overrides",
            get(currencies::list_currency_overrides),
        )
        .route(
            "/api/admin/currency-overrides/{code}",
            put(currencies::set_currency_override),
        )
        .route(
            "/api/admin/sandbox/deposit",
            post(super::orders::simulate_deposit),
        )
        .route(
            "/api/admin/sandbox/expire",
            post(super::orders::simulate_expiry),
        )
        .route("/api/admin/sandbox/outage", put(set_sandbox_outage))
        .route(
            "/api/admin/incidents",
            get(list_incidents).post(open_incident),
        )
        .route("/api/admin/contact-messages", get(list_contact_messages))
        .route(
            "/api/admin/contact-messages/{id}/answered",
            post(mark_contact_message),
        )
        .route(
            "/api/admin/contact-messages/{id}/order",
            put(link_contact_message),
        )
        .route("/api/admin/incidents/{id}/updates", post(update_incident))
        .route("/api/admin/payouts", get(list_payouts))
        .route("/api/admin/payouts/{id}", post(close_payout))
        .route("/api/admin/audit", get(list_audit))
        .route("/api/admin/audit.csv", get(audit_csv::audit_csv))
        .route(
            "/api/admin/operators",
            get(list_operators).put(set_operator),
        )
        .route("/api/admin/console/me", get(console_me))
        .route("/api/admin/console/unlock", post(unlock_console))
        .route("/api/admin/console/lock", post(lock_console))
        .route("/api/admin/users", get(users::list_users))
        .route("/api/admin/users/{id}", get(users::get_user))
        .route("/api/admin/users/{id}/lock", post(users::lock_user))
        .route("/api/admin/users/{id}/unlock", post(users::unlock_user))
        .route("/api/admin/users/{id}/sign-out", post(users::sign_out_user))
        .route("/api/admin/api-keys", get(users::list_api_keys))
        .route(
            "/api/admin/api-keys/{id}/revoke",
            post(users::revoke_api_key),
        )
        .route("/api/admin/queue", get(queue::get_queue))
        .route("/api/admin/stats", get(queue::get_stats))
        .route("/api/admin/orders", get(orders::list_orders))
        .route("/api/admin/orders/{id}", get(orders::get_order))
        .route(
            "/api/admin/orders/{id}/upstream",
            get(orders::get_upstream_state),
        )
        .route("/api/admin/orders/{id}/notes", post(orders::add_note))
        .route("/api/admin/orders/{id}/refund", post(orders::refund_order))
        .route(
            "/api/admin/orders/{id}/refund-address",
            put(orders::set_refund_address),
        )
        .route("/api/admin/orders/{id}/retry", post(orders::retry_order))
        .route("/api/admin/orders/{id}/cancel", post(orders::cancel_order))
        .route_layer(middleware::from_fn_with_state(state.clone(), identify))
}

/// Who is calling the back office: a script with the admin token, or a signed-in operator.
#[derive(Clone)]
enum Caller {
    Token,
    Operator {
        user: Box<UserRecord>,
        session: Box<SessionRecord>,
        role: Role,
    },
}

/// Lets only the token and operators in; to anyone else `/api/admin/*` does not exist (404),
/// or, where a token is configured, asks for it (401). What each caller may do is checked by
/// the handler's [`AdminCall`].
async fn identify(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let (mut parts, body) = request.into_parts();
    let token = state.config.admin_token.as_ref();
    let given = parts
        .headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let caller = match (token, given) {
        (Some(token), Some(given)) if same_secret(given, token.expose_secret()) => {
            Some(Caller::Token)
        }
        _ => match MaybeUser::from_request_parts(&mut parts, &state).await?.0 {
            Some(AuthUser { user, session }) => user.operator_role.map(|role| Caller::Operator {
                user: Box::new(user),
                session: Box::new(session),
                role,
            }),
            None => None,
        },
    };
    let Some(caller) = caller else {
        return Err(match token {
            Some(_) => ApiError::Unauthorized,
            None => ApiError::NotFound,
        });
    };
    parts.extensions.insert(caller);
    Ok(next.run(Request::from_parts(parts, body)).await)
}

/// Compares two secrets in time independent of where they differ (or of their lengths: the
/// digests always have the same length).
fn same_secret(given: &str, expected: &str) -> bool {
    constant_time_eq(&Sha256::digest(given), &Sha256::digest(expected))
}

/// Longest reason an operator gives for an act.
const REASON_LIMIT: usize = 500;

/// How long a request with a used `Idempotency-Key` is answered as a retry of the first.
const KEY_REPLAY_SECONDS: i64 = 86_400;

/// The least role a handler needs, as a type: `AdminCall<Operator>` in a handler's arguments
/// is its entry in the permission matrix (docs/back-office-plan.md §2).
pub(super) trait Needs: Send + Sync {
    const ROLE: Role;
}

/// Reads orders, answers messages, adds notes.
pub(super) struct Support;
/// Also acts on orders, currencies, incidents, payouts.
pub(super) struct Operator;
/// Also manages operators and site-wide switches.
pub(super) struct Owner;

impl Needs for Support {
    const ROLE: Role = Role::Support;
}
impl Needs for Operator {
    const ROLE: Role = Role::Operator;
}
impl Needs for Owner {
    const ROLE: Role = Role::Owner;
}

/// An admin request by someone allowed to make it: who (the token, or an operator with
/// two-factor authentication on, whose console is unlocked, with the role `R` at least), from
/// where, and under which `Idempotency-Key`, as its audit entry records it.
pub(super) struct AdminCall<R> {
    actor: Actor,
    client_ip: String,
    user_agent: String,
    key: Option<String>,
    role: std::marker::PhantomData<R>,
}

impl<S, R: Needs> FromRequestParts<S> for AdminCall<R>
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let app = AppState::from_ref(state);
        let caller = parts.extensions.get::<Caller>().cloned();
        let actor = match caller.ok_or(ApiError::NotFound)? {
            Caller::Token => Actor::Token,
            Caller::Operator {
                user,
                session,
                role,
            } => {
                // A page refreshing itself is no use of the console: it must still lock.
                let in_use = !parts.headers.contains_key(BACKGROUND_HEADER);
                admit(&app, &user, &session, role, R::ROLE, in_use).await?;
                Actor::User {
                    id: user.id,
                    email: user.email,
                    role,
                }
            }
        };
        let Client(client) = Client::from_request_parts(parts, state).await?;
        let IdempotencyKeyHeader(key) =
            IdempotencyKeyHeader::from_request_parts(parts, state).await?;
        Ok(AdminCall {
            actor,
            client_ip: client.ip,
            user_agent: client.user_agent,
            key,
            role: std::marker::PhantomData,
        })
    }
}

/// What an operator without two-factor authentication hears (403).
fn two_factor_needed() -> ApiError {
    ApiError::ForbiddenBecause {
        message: "Turn on two-factor authentication to use the back office".into(),
        reason: "two_factor_required",
    }
}

/// What a locked console answers (403); `console/unlock` opens it.
const CONSOLE_LOCKED: &str = "The back office is locked: enter a code from your authenticator app";

/// Sent by a console page that refreshes itself (`1`): the request is answered, but it does
/// not keep the console open.
const BACKGROUND_HEADER: &str = "x-ferry-background";

/// The console's rules for an operator's request, checked on every one (so a demotion, a
/// removal or 2FA turned off takes effect at once): two-factor authentication on, the console
/// unlocked within `FERRY_CONSOLE_IDLE_SECONDS`, and the role the act needs.
async fn admit(
    state: &AppState,
    user: &UserRecord,
    session: &SessionRecord,
    role: Role,
    needed: Role,
    in_use: bool,
) -> Result<(), ApiError> {
    if !user.totp_enabled {
        return Err(two_factor_needed());
    }
    let now = crate::now_unix();
    let idle = state.config.console_idle_seconds as i64;
    let seen = session.console_seen_at.filter(|seen| now - seen < idle);
    // 403, not 401: the session is fine (the app would sign out on a 401), the console is not.
    let Some(seen) = seen else {
        return Err(ApiError::ForbiddenBecause {
            message: CONSOLE_LOCKED.into(),
            reason: "console_locked",
        });
    };
    if role < needed {
        return Err(ApiError::ForbiddenBecause {
            message: format!("This needs the {needed} role; you are {role}"),
            reason: "role_required",
        });
    }
    // Use keeps it open; written at most once a minute (or half the idle time, if shorter).
    if in_use && now - seen >= (idle / 2).min(60) {
        state.store.touch_console(&session.token_hash, now).await?;
    }
    Ok(())
}

impl<R> AdminCall<R> {
    /// The caller's role (the token acts as an owner).
    pub(super) fn role(&self) -> Role {
        self.actor.role()
    }

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

    /// [`Self::audit`] for an act that must say why: `reason` is required (trimmed, at most
    /// [`REASON_LIMIT`] characters) and kept in the entry.
    pub(super) fn audit_because(
        &self,
        action: &str,
        subject: (&str, &str),
        request: &impl Serialize,
        reason: &str,
    ) -> Result<AuditEntry, ApiError> {
        let reason = orders::required_text(reason, "Give a reason", REASON_LIMIT)?;
        Ok(AuditEntry {
            reason: Some(reason),
            ..self.audit(action, subject, request)
        })
    }

    /// [`Self::audit_because`] for an act whose reason may be left out (empty is none).
    pub(super) fn audit_maybe_because(
        &self,
        action: &str,
        subject: (&str, &str),
        request: &impl Serialize,
        reason: Option<&str>,
    ) -> Result<AuditEntry, ApiError> {
        match reason.map(str::trim).filter(|r| !r.is_empty()) {
            Some(reason) => self.audit_because(action, subject, request, reason),
            None => Ok(self.audit(action, subject, request)),
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
        // A retry comes within minutes; the same key much later is a script reusing it, and
        // doing nothing would be a silent surprise.
        if audit.at - earlier.entry.at > KEY_REPLAY_SECONDS {
            return Err(ApiError::Unprocessable(
                "This Idempotency-Key was used more than a day ago: send a new one".into(),
            ));
        }
        Ok(Some(Json(serde_json::json!({
            "audit_id": earlier.id,
            "replayed": true,
            "subject_kind": earlier.entry.subject_kind,
            "subject_id": earlier.entry.subject_id,
            "after": earlier.entry.after,
        }))))
    }
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

static OUTAGE_SWITCH: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Starts or ends a simulated outage of the sandbox provider. The switch lives in memory: its
/// audit entry is written first, and the switch is not thrown if it cannot be.
async fn set_sandbox_outage(
    State(state): State<AppState>,
    call: AdminCall<Owner>,
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
        // One switch at a time, so that the log's last entry is the switch's state.
        let _one = OUTAGE_SWITCH.lock().await;
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
    call: AdminCall<Operator>,
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
    call: AdminCall<Operator>,
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
    _: AdminCall<Support>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let incidents = state.status.incidents().await?;
    Ok(Json(serde_json::json!(
        incidents
            .iter()
            .map(|i| serde_json::json!({
                "id": i.id, "title": i.title, "description": i.description, "status": i.status,
                "created_at": i.created_at, "updated_at": i.updated_at,
                "updates": i.updates.iter().map(|u| serde_json::json!({
                    "status": u.status, "message": u.message, "created_at": u.created_at,
                })).collect::<Vec<_>>(),
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
#[derive(Deserialize)]
struct MessagesQuery {
    /// `false`: the unanswered only; `true`: the answered only.
    answered: Option<bool>,
    order_id: Option<String>,
    /// `created_at:id` of the last message of the previous page.
    before: Option<String>,
    limit: Option<i64>,
}

/// Contact messages, newest first (`?answered=false` for those still waiting).
async fn list_contact_messages(
    State(state): State<AppState>,
    _: AdminCall<Support>,
    ApiQuery(query): ApiQuery<MessagesQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let before = match query.before.filter(|b| !b.is_empty()) {
        None => None,
        Some(raw) => Some(orders::page_mark(&raw).ok_or_else(|| {
            ApiError::BadRequest("before must be `created_at:id` of a message".into())
        })?),
    };
    let messages = state
        .store
        .contact_messages_page(&MessageFilter {
            answered: query.answered,
            order_id: query.order_id.filter(|id| !id.is_empty()),
            before,
            limit: query.limit.unwrap_or(100).clamp(1, 200),
        })
        .await?;
    Ok(Json(serde_json::json!(
        messages.iter().map(message_view).collect::<Vec<_>>()
    )))
}

fn message_view(m: &crate::store::ContactMessage) -> serde_json::Value {
    serde_json::json!({
        "id": m.id, "name": m.name, "email": m.email, "subject": m.subject,
        "category": m.category, "message": m.message, "created_at": m.created_at,
        "user_id": m.user_id, "order_id": m.order_id, "answered_at": m.answered_at,
        "answered_by": m.answered_by,
    })
}

#[derive(Deserialize, Serialize)]
struct AnsweredRequest {
    /// `false` opens it again.
    #[serde(default = "answered_by_default")]
    answered: bool,
}

fn answered_by_default() -> bool {
    true
}

/// Marks a message answered (or open again).
async fn mark_contact_message(
    State(state): State<AppState>,
    call: AdminCall<Support>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<AnsweredRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let audit = call.audit("message.answered", ("message", &id), &body);
    call.once(&state, &audit, async {
        let now = crate::now_unix();
        let message = state
            .store
            .mark_contact_message(&id, body.answered, now, &audit)
            .await?
            .ok_or_else(|| ApiError::NotFoundWith("No such message".into()))?;
        Ok(Json(message_view(&message)))
    })
    .await
}

#[derive(Deserialize, Serialize)]
struct LinkRequest {
    /// The order the message is about; `null` unlinks it.
    order_id: Option<String>,
}

/// Links a message to the order it is about: an unanswered one puts the order in the queue.
async fn link_contact_message(
    State(state): State<AppState>,
    call: AdminCall<Support>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<LinkRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let order_id = body
        .order_id
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty());
    if let Some(order_id) = order_id {
        state.orders.find(order_id).await?;
    }
    let audit = call.audit("message.link", ("message", &id), &body);
    call.once(&state, &audit, async {
        let message = state
            .store
            .link_contact_message(&id, order_id, &audit)
            .await?
            .ok_or_else(|| ApiError::NotFoundWith("No such message".into()))?;
        Ok(Json(message_view(&message)))
    })
    .await
}

#[derive(Deserialize)]
struct PayoutFilter {
    #[serde(default)]
    status: Option<String>,
}

/// Affiliate payout requests, oldest first (`?status=requested|paid|rejected`).
async fn list_payouts(
    State(state): State<AppState>,
    _: AdminCall<Operator>,
    super::extract::ApiQuery(filter): super::extract::ApiQuery<PayoutFilter>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let payouts = state
        .partners
        .ledger
        .payouts(filter.status.as_deref())
        .await?;
    // A locked account's requests are held: the console offers no "paid" for them.
    let mut locked = std::collections::HashMap::new();
    for payout in &payouts {
        if !locked.contains_key(&payout.user_id) {
            locked.insert(
                payout.user_id.clone(),
                account_locked(&state, &payout.user_id).await?,
            );
        }
    }
    Ok(Json(serde_json::json!(
        payouts
            .into_iter()
            .map(|p| serde_json::json!({
                "account_locked": locked.get(&p.user_id).copied().unwrap_or(false),
                "id": p.id, "user_id": p.user_id, "amount_usd": p.amount_usd,
                "currency": p.currency, "address": p.address, "tag": p.tag,
                "status": p.status, "txid": p.txid, "created_at": p.created_at,
                "processed_at": p.processed_at,
            }))
            .collect::<Vec<_>>()
    )))
}

async fn account_locked(state: &AppState, user_id: &str) -> Result<bool, ApiError> {
    Ok(state
        .store
        .find_user(user_id)
        .await?
        .is_some_and(|u| u.locked_at.is_some()))
}

#[derive(Deserialize, Serialize)]
struct ClosePayout {
    /// `paid` or `rejected`.
    status: String,
    #[serde(default)]
    txid: Option<String>,
    /// Why (kept in the audit log); the console asks for one to reject.
    #[serde(default)]
    reason: Option<String>,
}

async fn close_payout(
    State(state): State<AppState>,
    call: AdminCall<Operator>,
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
    let audit = call.audit_maybe_because(
        "payout.close",
        ("payout", &id),
        &body,
        body.reason.as_deref(),
    )?;
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
pub(super) struct AuditQuery {
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
    _: AdminCall<Operator>,
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

#[derive(Deserialize, Serialize)]
struct OperatorRequest {
    email: String,
    /// `support`, `operator`, `owner`, or `null` to take the role away.
    role: Option<String>,
}

fn operator_view(user: &UserRecord) -> serde_json::Value {
    serde_json::json!({
        "id": user.id,
        "email": user.email,
        "role": user.operator_role.map(Role::as_str),
        "two_factor": user.totp_enabled,
    })
}

async fn list_operators(
    State(state): State<AppState>,
    _: AdminCall<Owner>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let operators = state.store.operators().await?;
    Ok(Json(serde_json::json!(
        operators.iter().map(operator_view).collect::<Vec<_>>()
    )))
}

/// Gives a user (by e-mail) a role in the back office, changes it, or takes it away; never
/// leaves the exchange without an owner.
async fn set_operator(
    State(state): State<AppState>,
    call: AdminCall<Owner>,
    ApiJson(body): ApiJson<OperatorRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let role = match body.role.as_deref() {
        None => None,
        Some(text) => Some(Role::parse(text).ok_or_else(|| {
            ApiError::BadRequest("role must be support, operator, owner or null".into())
        })?),
    };
    let email = crate::domain::account::sign_in_key(&body.email, state.config.email_idn());
    let audit = call.audit("operator.set", ("user", &email), &body);
    call.once(&state, &audit, async {
        let change = state
            .store
            .set_operator_role(&email, role, crate::now_unix(), &audit)
            .await?;
        match change {
            RoleChange::Changed { user, audit_id } => {
                let mut view = operator_view(&user);
                view["audit_id"] = audit_id.into();
                Ok(Json(view))
            }
            RoleChange::NoSuchUser => Err(ApiError::NotFoundWith(
                "No account with this e-mail: the operator signs up first".into(),
            )),
            RoleChange::Unverified => Err(ApiError::Conflict(
                "This account has not confirmed its e-mail address yet".into(),
            )),
            RoleChange::LastOwner => Err(ApiError::Conflict(
                "This is the last owner: make another owner first".into(),
            )),
        }
    })
    .await
}

/// The signed-in operator (or the token): their role and whether the console is open.
async fn console_me(
    State(state): State<AppState>,
    caller: axum::Extension<Caller>,
) -> Json<serde_json::Value> {
    match caller.0 {
        Caller::Token => Json(serde_json::json!({ "token": true, "role": "owner" })),
        Caller::Operator {
            user,
            session,
            role,
        } => {
            let idle = state.config.console_idle_seconds as i64;
            let until = session
                .console_seen_at
                .map(|seen| seen + idle)
                .filter(|until| *until > crate::now_unix());
            Json(serde_json::json!({
                "token": false,
                "email": user.email,
                "role": role.as_str(),
                "two_factor": user.totp_enabled,
                "unlocked_until": until,
                "idle_seconds": idle,
            }))
        }
    }
}

#[derive(Deserialize)]
struct UnlockRequest {
    code: String,
}

/// Opens the console for this session with a fresh code from the authenticator app (or a
/// recovery code).
async fn unlock_console(
    State(state): State<AppState>,
    caller: axum::Extension<Caller>,
    ApiJson(body): ApiJson<UnlockRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Caller::Operator { user, session, .. } = caller.0 else {
        return Err(ApiError::BadRequest("The token needs no unlocking".into()));
    };
    if !user.totp_enabled {
        return Err(two_factor_needed());
    }
    let now = crate::now_unix();
    state
        .accounts
        .unlock_console(&user, &session, &body.code, now)
        .await?;
    let until = now + state.config.console_idle_seconds as i64;
    Ok(Json(serde_json::json!({ "unlocked_until": until })))
}

/// Locks the console for this session (the account stays signed in).
async fn lock_console(
    State(state): State<AppState>,
    caller: axum::Extension<Caller>,
) -> Result<axum::http::StatusCode, ApiError> {
    if let Caller::Operator { session, .. } = caller.0 {
        state
            .store
            .set_console_seen(&session.token_hash, None)
            .await?;
    }
    Ok(axum::http::StatusCode::NO_CONTENT)
}
