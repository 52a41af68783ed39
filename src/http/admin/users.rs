//! The back office's accounts (issue 22): find an account, see its orders, sessions and API
//! keys, and lock it (ending its sessions; no sign-in opens one until it is unlocked), unlock
//! it, or sign it out everywhere.

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::orders::{QUERY_LIMIT, order_row};
use super::{AdminCall, Operator, Support};
use crate::domain::operator::{Actor, Role};
use crate::http::AppState;
use crate::http::error::ApiError;
use crate::http::extract::{ApiJson, ApiQuery};
use crate::store::{ApiKeyRecord, KeyRevoke, LockChange, UserRecord};

/// Longest page of accounts.
const USERS_PAGE_LIMIT: i64 = 100;
/// How many of an account's orders its page lists (newest).
const USER_ORDERS: i64 = 50;

#[derive(Deserialize)]
pub(super) struct UsersQuery {
    q: Option<String>,
    before: Option<String>,
    limit: Option<i64>,
}

fn user_view(user: &UserRecord) -> Value {
    json!({
        "id": user.id,
        "email": user.email,
        "full_name": user.full_name,
        "created_at": user.created_at,
        "email_verified": user.email_verified_at.is_some(),
        "two_factor": user.totp_enabled,
        "has_password": user.password_hash.is_some(),
        "role": user.operator_role.map(Role::as_str),
        "locked_at": user.locked_at,
    })
}

/// Accounts by id or the start of their e-mail address, newest first; `next` pages on.
pub(super) async fn list_users(
    State(state): State<AppState>,
    _: AdminCall<Support>,
    ApiQuery(query): ApiQuery<UsersQuery>,
) -> Result<Json<Value>, ApiError> {
    let limit = query.limit.unwrap_or(50).clamp(1, USERS_PAGE_LIMIT);
    let q = query
        .q
        .map(|q| q.trim().to_owned())
        .filter(|q| !q.is_empty());
    if q.as_deref()
        .is_some_and(|q| q.chars().count() > QUERY_LIMIT || q.chars().any(char::is_control))
    {
        return Err(ApiError::BadRequest(format!(
            "Search for at most {QUERY_LIMIT} characters, without control characters"
        )));
    }
    let before = match query.before.filter(|b| !b.is_empty()) {
        None => None,
        Some(raw) => Some(super::orders::page_mark(&raw).ok_or_else(|| {
            ApiError::BadRequest("before must be the `next` of an earlier page".into())
        })?),
    };
    let users = state
        .store
        .search_users(q.as_deref(), before, limit)
        .await?;
    let next = (users.len() as i64 == limit)
        .then(|| users.last().map(|u| format!("{}:{}", u.created_at, u.id)))
        .flatten();
    Ok(Json(json!({
        "users": users.iter().map(user_view).collect::<Vec<_>>(),
        "next": next,
    })))
}

async fn found_user(state: &AppState, id: &str) -> Result<UserRecord, ApiError> {
    state
        .store
        .find_user(id)
        .await?
        .ok_or_else(|| ApiError::NotFoundWith("No such account".into()))
}

/// The account, its newest orders, its open sessions and its API keys (never a secret).
pub(super) async fn get_user(
    State(state): State<AppState>,
    _: AdminCall<Support>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let user = found_user(&state, &id).await?;
    let now = crate::now_unix();
    let orders = state.store.orders_of(&id, USER_ORDERS).await?;
    let sessions = state.store.sessions_of(&id, now).await?;
    let keys = state.store.api_keys_of(&id).await?;
    Ok(Json(json!({
        "user": user_view(&user),
        "orders": orders.iter().map(order_row).collect::<Vec<_>>(),
        "sessions": sessions.iter().map(|s| json!({
            "id": s.id, "created_at": s.created_at, "last_seen_at": s.last_seen_at,
            "expires_at": s.expires_at, "user_agent": s.user_agent, "ip": s.ip,
        })).collect::<Vec<_>>(),
        "api_keys": keys.iter().map(key_view).collect::<Vec<_>>(),
    })))
}

/// A partner API key as the console shows it (never its secret).
fn key_view(k: &ApiKeyRecord) -> Value {
    json!({
        "id": k.id, "name": k.name, "permission": k.permission, "user_id": k.user_id,
        "created_at": k.created_at, "last_used_at": k.last_used_at,
        "request_count": k.request_count, "revoked_at": k.revoked_at,
    })
}

/// Most keys one page lists.
const KEYS_PAGE_LIMIT: i64 = 200;

#[derive(Deserialize)]
pub(super) struct KeysQuery {
    /// `true`: only active keys; `false`: only revoked ones.
    active: Option<bool>,
}

/// Every partner's API keys with their owner, the most recently used first.
pub(super) async fn list_api_keys(
    State(state): State<AppState>,
    _: AdminCall<Support>,
    ApiQuery(query): ApiQuery<KeysQuery>,
) -> Result<Json<Value>, ApiError> {
    let keys = state
        .store
        .api_keys_page(query.active.map(|active| !active), KEYS_PAGE_LIMIT)
        .await?;
    Ok(Json(Value::Array(
        keys.iter()
            .map(|(key, email)| {
                let mut view = key_view(key);
                view["user_email"] = json!(email);
                view
            })
            .collect(),
    )))
}

/// Revokes one partner key: its next request is refused (the owner's other keys keep working).
pub(super) async fn revoke_api_key(
    State(state): State<AppState>,
    call: AdminCall<Operator>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ReasonRequest>,
) -> Result<Json<Value>, ApiError> {
    let audit = call.audit_because("api_key.revoke", ("api_key", &id), &body, &body.reason)?;
    call.once(&state, &audit, async {
        // The key's owner is acted on as a lock would: an operator's key only by a higher role.
        let key = state
            .store
            .find_api_key(&id)
            .await?
            .ok_or_else(|| ApiError::NotFoundWith("No such API key".into()))?;
        if let Some(owner) = state.store.find_user(&key.user_id).await? {
            may_act_on(&call, &owner)?;
        }
        match state
            .store
            .revoke_key(&id, crate::now_unix(), &audit)
            .await?
        {
            KeyRevoke::Done { key, audit_id } => {
                tracing::info!(api_key = %key.id, "API key revoked in the back office");
                Ok(Json(
                    json!({ "api_key": key_view(&key), "audit_id": audit_id }),
                ))
            }
            KeyRevoke::NoSuchKey => Err(ApiError::NotFoundWith("No such API key".into())),
            KeyRevoke::AlreadyRevoked => {
                Err(ApiError::Conflict("This key is already revoked".into()))
            }
        }
    })
    .await
}

#[derive(Deserialize, Serialize)]
pub(super) struct ReasonRequest {
    reason: String,
}

/// Whether `call` may lock, unlock or sign out `user`: never oneself; an account with a role
/// only by a higher role (owners act on owners; the last one is kept by the store).
fn may_act_on<R>(call: &AdminCall<R>, user: &UserRecord) -> Result<(), ApiError> {
    if let Actor::User { id, .. } = &call.actor
        && *id == user.id
    {
        return Err(ApiError::Conflict("Not your own account".into()));
    }
    let mine = call.role();
    if let Some(theirs) = user.operator_role
        && mine <= theirs
        && mine != Role::Owner
    {
        return Err(ApiError::ForbiddenBecause {
            message: format!("Only a role above {theirs} may do this to a {theirs}"),
            reason: "role_required",
        });
    }
    Ok(())
}

async fn lock_or_unlock(
    state: AppState,
    call: AdminCall<Operator>,
    id: String,
    body: ReasonRequest,
    lock: bool,
) -> Result<Json<Value>, ApiError> {
    let action = if lock { "user.lock" } else { "user.unlock" };
    let audit = call.audit_because(action, ("user", &id), &body, &body.reason)?;
    call.once(&state, &audit, async {
        let user = found_user(&state, &id).await?;
        may_act_on(&call, &user)?;
        let now = crate::now_unix();
        match state.store.set_user_lock(&id, lock, now, &audit).await? {
            LockChange::Done {
                user,
                keys_revoked,
                audit_id,
            } => Ok(Json(json!({
                "user": user_view(&user),
                "api_keys_revoked": keys_revoked,
                "audit_id": audit_id,
            }))),
            LockChange::NoSuchUser => Err(ApiError::NotFoundWith("No such account".into())),
            LockChange::LastOwner => Err(ApiError::Conflict(
                "This is the last owner who could unlock anyone".into(),
            )),
        }
    })
    .await
}

/// Locks the account: its sessions, pending links and partner keys end, and it cannot sign in
/// until unlocked (its keys stay revoked: the owner makes new ones).
pub(super) async fn lock_user(
    State(state): State<AppState>,
    call: AdminCall<Operator>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ReasonRequest>,
) -> Result<Json<Value>, ApiError> {
    lock_or_unlock(state, call, id, body, true).await
}

pub(super) async fn unlock_user(
    State(state): State<AppState>,
    call: AdminCall<Operator>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ReasonRequest>,
) -> Result<Json<Value>, ApiError> {
    lock_or_unlock(state, call, id, body, false).await
}

/// Signs the account out everywhere (it may sign in again).
pub(super) async fn sign_out_user(
    State(state): State<AppState>,
    call: AdminCall<Operator>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ReasonRequest>,
) -> Result<Json<Value>, ApiError> {
    let audit = call.audit_because("user.sign_out", ("user", &id), &body, &body.reason)?;
    call.once(&state, &audit, async {
        let user = found_user(&state, &id).await?;
        may_act_on(&call, &user)?;
        let ended = state.store.end_sessions(&id, &audit).await?;
        Ok(Json(json!({ "sessions_ended": ended })))
    })
    .await
}
