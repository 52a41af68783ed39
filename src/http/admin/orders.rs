//! The back office's orders (issue 22): search by any of an order's keys, the whole order with
//! its timeline (status events and operators' acts), notes, and a refund made for the customer.

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{AdminCall, Operator, Support};
use crate::domain::money::to_wire;
use crate::domain::operator::Role;
use crate::domain::order::{EmergencyChoice, OrderStatus};
use crate::http::AppState;
use crate::http::error::ApiError;
use crate::http::extract::{ApiJson, ApiQuery};
use crate::store::{AuditFilter, AuditRecord, OrderEventRecord, OrderRecord, OrderSearch};

/// Longest page of a search.
const ORDERS_PAGE_LIMIT: i64 = 100;
/// Longest note.
const NOTE_LIMIT: usize = 2000;
/// Longest search term: longer than any id, address, hash or e-mail.
pub(super) const QUERY_LIMIT: usize = 256;
/// How many operators' acts an order's timeline shows (newest).
const TIMELINE_AUDIT_LIMIT: i64 = 200;

#[derive(Deserialize)]
pub(super) struct OrdersQuery {
    q: Option<String>,
    tag: Option<String>,
    status: Option<String>,
    /// The pair's send and receive codes.
    from: Option<String>,
    to: Option<String>,
    provider: Option<String>,
    /// UTC days `YYYY-MM-DD`, both included.
    since: Option<String>,
    until: Option<String>,
    /// `next` of the previous page.
    before: Option<String>,
    limit: Option<i64>,
}

/// The start of a UTC day named `YYYY-MM-DD` (`days` later), or 400.
fn day_start(text: Option<String>, name: &str, days: i64) -> Result<Option<i64>, ApiError> {
    filled(text)
        .map(|text| {
            super::queue::day_of(&text)
                .map(|day| (day + days) * 86_400)
                .ok_or_else(|| ApiError::BadRequest(format!("{name} must be a date YYYY-MM-DD")))
        })
        .transpose()
}

/// A currency code of the catalogue, or 400.
fn currency_code(state: &AppState, text: Option<String>) -> Result<Option<String>, ApiError> {
    filled(text)
        .map(|code| {
            state
                .catalogue
                .get(&code)
                .map(|c| c.code.clone())
                .ok_or_else(|| ApiError::BadRequest(format!("Unknown currency {code}")))
        })
        .transpose()
}

/// Orders matching the search, newest first; `next` pages on.
pub(super) async fn list_orders(
    State(state): State<AppState>,
    _: AdminCall<Support>,
    ApiQuery(query): ApiQuery<OrdersQuery>,
) -> Result<Json<Value>, ApiError> {
    let limit = query.limit.unwrap_or(50).clamp(1, ORDERS_PAGE_LIMIT);
    let status = match filled(query.status) {
        None => None,
        Some(raw) => Some(
            OrderStatus::parse(&raw.to_uppercase())
                .ok_or_else(|| ApiError::BadRequest(format!("Unknown status: {raw}")))?
                .as_str()
                .to_owned(),
        ),
    };
    let before = match filled(query.before) {
        None => None,
        Some(raw) => Some(page_mark(&raw).ok_or_else(|| {
            ApiError::BadRequest("before must be the `next` of an earlier page".into())
        })?),
    };
    let q = search_term(query.q)?;
    let email = q
        .as_deref()
        .map(|q| crate::domain::email::sign_in_key(q, state.config.email_idn()));
    let orders = state
        .store
        .search_orders(&OrderSearch {
            query: q,
            email,
            tag: search_term(query.tag)?,
            status,
            from_code: currency_code(&state, query.from)?,
            to_code: currency_code(&state, query.to)?,
            provider: search_term(query.provider)?,
            since: day_start(query.since, "since", 0)?,
            until: day_start(query.until, "until", 1)?,
            before,
            limit,
        })
        .await?;
    let next = (orders.len() as i64 == limit)
        .then(|| orders.last().map(|o| format!("{}:{}", o.created_at, o.id)))
        .flatten();
    Ok(Json(json!({
        "orders": orders.iter().map(order_row).collect::<Vec<_>>(),
        "next": next,
    })))
}

fn filled(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

/// A search term as given, or 400 if no order could have it (too long, control characters).
fn search_term(value: Option<String>) -> Result<Option<String>, ApiError> {
    let Some(term) = filled(value) else {
        return Ok(None);
    };
    if term.chars().count() > QUERY_LIMIT || term.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(format!(
            "Search for at most {QUERY_LIMIT} characters, without control characters"
        )));
    }
    Ok(Some(term))
}

/// `created_at:id`, as `next` writes it.
pub(super) fn page_mark(raw: &str) -> Option<(i64, String)> {
    let (at, id) = raw.split_once(':')?;
    let at = at.parse().ok()?;
    (!id.is_empty()).then(|| (at, id.to_owned()))
}

/// An order as a row of the search's results.
pub(super) fn order_row(order: &OrderRecord) -> Value {
    json!({
        "id": order.id,
        "status": order.status.as_str(),
        "created_at": order.created_at,
        "updated_at": order.updated_at,
        "from_code": order.from_code,
        "to_code": order.to_code,
        "from_amount": to_wire(order.from_amount),
        "to_amount": to_wire(order.to_amount),
        "rate_type": order.rate_type.as_str(),
        "provider": order.provider,
        "deposit_address": order.deposit_address,
        "deposit_tag": order.deposit_tag,
        "to_address": order.to_address,
        "to_tag": order.to_tag,
        "emergency_reason": order.emergency_reason.map(|r| r.as_str()),
        "emergency_choice": order.emergency_choice.map(|c| c.as_str()),
    })
}

/// The whole order as the back office sees it: never its upstream token.
async fn order_detail(state: &AppState, order: &OrderRecord) -> Result<Value, ApiError> {
    let owner_email = match &order.owner_user_id {
        Some(id) => state.store.find_user(id).await?.map(|user| user.email),
        None => None,
    };
    let mut view = order_row(order);
    let extra = json!({
        "received_amount": order.received_amount.map(to_wire),
        "payout_amount": order.payout_amount.map(to_wire),
        "refund_address": order.refund_address,
        "refund_tag": order.refund_tag,
        "owner_email": owner_email,
        "api_key_id": order.api_key_id,
        "notify_email": order.notify_email,
        "provider_order_id": order.provider_order_id,
        "expires_at": order.expires_at,
        "finished_at": order.finished_at,
        "transactions": order.transactions,
    });
    if let (Value::Object(view), Value::Object(extra)) = (&mut view, extra) {
        view.extend(extra);
    }
    Ok(view)
}

/// What `role` may do to `order` now.
fn actions(order: &OrderRecord, role: Role, now: i64) -> Vec<&'static str> {
    let mut actions = vec!["note"];
    if role < Role::Operator {
        return actions;
    }
    if crate::services::orders::operator_may_refund(order) {
        actions.push("refund");
    }
    let refund_chosen = order.emergency_choice == Some(EmergencyChoice::Refund);
    if !order.is_final(now) && !refund_chosen {
        actions.push("refund_address");
    }
    if crate::services::orders::can_retry(order, now) {
        actions.push("retry");
    }
    if order.status == OrderStatus::New && order.provider_order_id.is_none() {
        actions.push("cancel");
    }
    actions
}

/// The order, its timeline (status events and operators' acts, oldest first) and what the
/// caller may do to it.
pub(super) async fn get_order(
    State(state): State<AppState>,
    call: AdminCall<Support>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let order = state.orders.find(&id).await?;
    let events = state.orders.events(&id, 0).await?;
    let acts = state
        .store
        .audit_entries(&AuditFilter {
            subject_kind: Some("order".into()),
            subject_id: Some(id.clone()),
            limit: TIMELINE_AUDIT_LIMIT,
            ..AuditFilter::default()
        })
        .await?;
    let timeline = merge_timeline(&events, &acts);
    Ok(Json(json!({
        "order": order_detail(&state, &order).await?,
        "timeline": timeline,
        "actions": actions(&order, call.role(), crate::now_unix()),
    })))
}

/// What the upstream that fills the order says of it right now, in its own words and in
/// Ferry's: for an operator comparing the two. Asked only when an operator asks (it spends the
/// upstream's call budget); a sandbox order has no upstream.
pub(super) async fn get_upstream_state(
    State(state): State<AppState>,
    _: AdminCall<Support>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let order = state.orders.find(&id).await?;
    let Some(upstream) = state.orders.upstream_now(&order).await? else {
        return Err(ApiError::NotFoundWith(
            "The sandbox fills this order: there is no upstream to ask".into(),
        ));
    };
    Ok(Json(json!({
        "provider": order.provider,
        "reference": order.provider_order_id,
        "raw_status": upstream.raw_status,
        "status": upstream.status.as_str(),
        "received": upstream.received.map(to_wire),
        "to_amount": upstream.to_amount.map(to_wire),
        "paid_out": upstream.paid_out.map(to_wire),
        "choice": upstream.choice.map(|c| c.as_str()),
        "checked_at": crate::now_unix(),
    })))
}

/// The order's status events and operators' acts in the order they happened. Times have
/// seconds only, so within one second an act goes after the event that brought the order to
/// the status it found (its `before`), and before the events it caused.
fn merge_timeline(events: &[OrderEventRecord], acts: &[AuditRecord]) -> Vec<Value> {
    let mut acts: Vec<&AuditRecord> = acts.iter().collect();
    acts.sort_by_key(|act| act.id);
    // For each act, how many events come before it.
    let place = |act: &AuditRecord| {
        let at = act.entry.at;
        let earlier = events.iter().filter(|e| e.created_at < at).count();
        let found = act.entry.before.as_ref().and_then(|b| b["status"].as_str());
        let after_found = found.and_then(|status| {
            events
                .iter()
                .rposition(|e| e.created_at == at && e.status == status)
                .map(|i| i + 1)
        });
        earlier.max(after_found.unwrap_or(0))
    };
    // Acts keep their own order: none goes before an earlier one.
    let mut latest = 0;
    let placed: Vec<(usize, &AuditRecord)> = acts
        .into_iter()
        .map(|act| {
            latest = latest.max(place(act));
            (latest, act)
        })
        .collect();
    let act_item = |act: &AuditRecord| {
        let e = &act.entry;
        json!({
            "kind": "audit", "at": e.at, "id": act.id, "action": e.action,
            "actor": e.actor, "actor_email": e.actor_email, "actor_role": e.actor_role,
            "reason": e.reason,
        })
    };
    let mut timeline = Vec::with_capacity(events.len() + placed.len());
    let mut next_act = placed.iter().peekable();
    for (index, event) in events.iter().enumerate() {
        while let Some((_, act)) = next_act.next_if(|(slot, _)| *slot <= index) {
            timeline.push(act_item(act));
        }
        timeline.push(json!({
            "kind": "event", "at": event.created_at, "status": event.status,
            "detail": event.detail,
        }));
    }
    timeline.extend(next_act.map(|(_, act)| act_item(act)));
    timeline
}

#[derive(Deserialize, Serialize)]
pub(super) struct NoteRequest {
    text: String,
}

/// A note on the order, kept in the audit log (append-only, like every act).
pub(super) async fn add_note(
    State(state): State<AppState>,
    call: AdminCall<Support>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<NoteRequest>,
) -> Result<Json<Value>, ApiError> {
    let text = required_text(&body.text, "Write the note", NOTE_LIMIT)?;
    state.orders.find(&id).await?;
    let mut audit = call.audit("order.note", ("order", &id), &body);
    audit.reason = Some(text);
    call.once(&state, &audit, async {
        let audit_id = state.store.append_audit(&audit).await?;
        Ok(Json(json!({ "audit_id": audit_id })))
    })
    .await
}

#[derive(Deserialize, Serialize)]
pub(super) struct RefundRequest {
    /// Why, for the audit log.
    reason: String,
    /// Where the refund goes, if the order has no refund address yet.
    address: Option<String>,
    tag: Option<String>,
}

/// Refunds an order in EMERGENCY: the decision the customer would make, made for them (the
/// refund address is checked as the customer's would be).
pub(super) async fn refund_order(
    State(state): State<AppState>,
    call: AdminCall<Operator>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<RefundRequest>,
) -> Result<Json<Value>, ApiError> {
    let audit = call.audit_because("order.refund", ("order", &id), &body, &body.reason)?;
    call.once(&state, &audit, async {
        let order = state.orders.find(&id).await?;
        // The customer's own address is never replaced in passing: a correction is an act of
        // its own.
        if body.address.is_some() && order.refund_address.is_some() {
            return Err(ApiError::Conflict(
                "The order already has a refund address: refund without one".into(),
            ));
        }
        let order = state
            .orders
            .choose(
                order,
                EmergencyChoice::Refund,
                body.address.as_deref(),
                body.tag.as_deref(),
                crate::now_unix(),
                Some(audit.clone()),
            )
            .await?;
        Ok(Json(
            json!({ "order": order_detail(&state, &order).await? }),
        ))
    })
    .await
}

/// `text` trimmed, or the 400 `missing` when there is none; at most `limit` characters, and
/// no control characters but line breaks and tabs.
pub(super) fn required_text(text: &str, missing: &str, limit: usize) -> Result<String, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::BadRequest(missing.into()));
    }
    if text.chars().count() > limit {
        return Err(ApiError::BadRequest(format!("At most {limit} characters")));
    }
    if text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        return Err(ApiError::BadRequest(
            "Control characters are not allowed".into(),
        ));
    }
    Ok(text.to_owned())
}

#[derive(Deserialize, Serialize)]
pub(super) struct RefundAddressRequest {
    reason: String,
    address: String,
    tag: Option<String>,
}

/// Sets or corrects the refund address of a running order (checked as the customer's is),
/// until a refund is on its way.
pub(super) async fn set_refund_address(
    State(state): State<AppState>,
    call: AdminCall<Operator>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<RefundAddressRequest>,
) -> Result<Json<Value>, ApiError> {
    let audit = call.audit_because("order.refund_address", ("order", &id), &body, &body.reason)?;
    call.once(&state, &audit, async {
        let order = state.orders.find(&id).await?;
        let order = state
            .orders
            .set_refund_address(
                order,
                &body.address,
                body.tag.as_deref(),
                crate::now_unix(),
                Some(audit.clone()),
            )
            .await?;
        Ok(Json(
            json!({ "order": order_detail(&state, &order).await? }),
        ))
    })
    .await
}

#[derive(Deserialize, Serialize)]
pub(super) struct ReasonRequest {
    reason: String,
}

/// Makes a moving order's next step due now (a stuck order looked at again).
pub(super) async fn retry_order(
    State(state): State<AppState>,
    call: AdminCall<Operator>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ReasonRequest>,
) -> Result<Json<Value>, ApiError> {
    let audit = call.audit_because("order.retry", ("order", &id), &body, &body.reason)?;
    call.once(&state, &audit, async {
        let order = state.orders.find(&id).await?;
        let order = state
            .orders
            .retry_now(order, crate::now_unix(), audit.clone())
            .await?;
        Ok(Json(
            json!({ "order": order_detail(&state, &order).await? }),
        ))
    })
    .await
}

/// Cancels an order still waiting for its deposit.
pub(super) async fn cancel_order(
    State(state): State<AppState>,
    call: AdminCall<Operator>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ReasonRequest>,
) -> Result<Json<Value>, ApiError> {
    let audit = call.audit_because("order.cancel", ("order", &id), &body, &body.reason)?;
    call.once(&state, &audit, async {
        let order = state
            .orders
            .cancel(&id, crate::now_unix(), audit.clone())
            .await?;
        Ok(Json(
            json!({ "order": order_detail(&state, &order).await? }),
        ))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::page_mark;

    #[test]
    fn an_act_goes_after_the_event_it_found_and_before_the_one_it_caused() {
        use crate::store::{AuditEntry, AuditRecord, OrderEventRecord};
        let event = |id, status: &str, at| OrderEventRecord {
            id,
            order_id: "o".into(),
            status: status.into(),
            detail: None,
            created_at: at,
        };
        let act = |id, action: &str, before: Option<&str>, at| AuditRecord {
            id,
            entry: AuditEntry {
                at,
                action: action.into(),
                before: before.map(|s| serde_json::json!({ "status": s })),
                ..AuditEntry::default()
            },
        };
        let events = [
            event(1, "NEW", 100),
            event(2, "EMERGENCY", 100),
            event(3, "REFUNDED", 130),
        ];
        let acts = [
            act(8, "order.refund", Some("EMERGENCY"), 120),
            act(7, "order.deposit", Some("NEW"), 100),
            act(9, "order.note", None, 140),
        ];
        let names: Vec<String> = super::merge_timeline(&events, &acts)
            .iter()
            .map(|item| {
                item["status"]
                    .as_str()
                    .or(item["action"].as_str())
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(
            names,
            [
                "NEW",
                "order.deposit",
                "EMERGENCY",
                "order.refund",
                "REFUNDED",
                "order.note"
            ]
        );
    }

    #[test]
    fn a_page_mark_is_the_time_and_id_of_the_last_order() {
        assert_eq!(
            page_mark("1700000000:ab12"),
            Some((1700000000, "ab12".into()))
        );
        assert_eq!(page_mark("1700000000:"), None);
        assert_eq!(page_mark("soon:ab12"), None);
        assert_eq!(page_mark("ab12"), None);
    }
}
