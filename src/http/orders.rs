//! Orders over HTTP (spec/exchange.md §3, §7): create, details, public tracking, the emergency
//! choice, the refund address, live events and the recent-transactions feed.

use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tracing::Instrument;

use super::AppState;
use super::admin::{AdminCall, Operator};
use super::auth::MaybeUser;
use super::error::ApiError;
use super::extract::{ApiJson, ApiQuery, ClientAddress, IdempotencyKeyHeader};
use crate::domain::currency::Currency;
use crate::domain::fees::{Direction, RateType};
use crate::domain::money::AmountInput;
use crate::domain::money::to_wire;
use crate::domain::order::OrderStatus;
use crate::domain::transaction::Transaction;
use crate::services::orders::{
    IDEMPOTENCY_KEY_TTL_SECONDS, NewOrder, OrderError, Orders, parse_choice,
};
use crate::store::OrderRecord;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/create-order", post(create_order))
        .route("/api/order-details/{id}", get(get_order_details))
        .route("/api/track-order", post(track_order))
        .route("/api/order-emergency", post(choose_emergency))
        .route("/api/order-refund-address", post(set_refund_address))
        .route("/api/sandbox/deposit", post(simulate_own_deposit))
        .route("/api/orders/{id}/events", get(stream_order_events))
        .route("/api/recent-transactions", get(list_recent_transactions))
        .route("/api/site-stats", get(site_stats))
        .route("/api/order-email", post(set_order_email))
}

impl From<OrderError> for ApiError {
    fn from(error: OrderError) -> Self {
        let error_text = error.to_string();
        match error {
            OrderError::Invalid(message) => ApiError::BadRequest(message),
            OrderError::NotFound => ApiError::NotFoundWith("Order not found".into()),
            OrderError::Conflict(message) => ApiError::Conflict(message),
            OrderError::AmountChanged { to_amount, .. } => ApiError::ConflictWith {
                message: error_text.clone(),
                data: json!({ "to_amount": to_wire(to_amount) }),
            },
            OrderError::KeyReused(message) => ApiError::Unprocessable(message),
            OrderError::Quote(e) => super::exchange::quote_error(e),
            OrderError::Store(e) => e.into(),
        }
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CreateOrderRequest {
    from_ccy: String,
    to_ccy: String,
    /// A decimal as a string (or a JSON number).
    #[schema(value_type = String, example = "0.1")]
    amount: AmountInput,
    to_address: String,
    #[serde(default)]
    refund_address: Option<String>,
    #[serde(default)]
    refund_tag: Option<String>,
    #[serde(default = "default_direction")]
    #[schema(value_type = String, example = "from")]
    direction: Direction,
    #[serde(default = "default_rate_type", rename = "type")]
    #[schema(value_type = String, example = "float")]
    rate_type: RateType,
    #[serde(default)]
    tag: Option<String>,
    #[serde(default)]
    metadata: Option<String>,
    /// The referral code the visitor arrived with (`?ref=`), for the affiliate programme.
    #[serde(default, alias = "referral_code")]
    referral_code: Option<String>,
    /// What the customer was shown they would receive on a fixed-rate order: if the order would
    /// now give less, 409 with the new amount instead of an order (as much or more goes
    /// through). Float amounts are estimates; ignored there.
    #[serde(default)]
    #[schema(value_type = Option<String>, example = "3.2841")]
    expected_to_amount: Option<AmountInput>,
}

fn default_direction() -> Direction {
    Direction::From
}

fn default_rate_type() -> RateType {
    RateType::Float
}

#[utoipa::path(
    post,
    path = "/api/create-order",
    tag = "exchange",
    summary = "Create an order",
    request_body = CreateOrderRequest,
    params(("idempotency-key" = Option<String>, Header)),
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn create_order(
    State(state): State<AppState>,
    client: ClientAddress,
    MaybeUser(user): MaybeUser,
    IdempotencyKeyHeader(key): IdempotencyKeyHeader,
    ApiJson(body): ApiJson<CreateOrderRequest>,
) -> Result<Json<Value>, ApiError> {
    // First of all: a flood is refused before it costs a quote or a call to a provider.
    state
        .limits
        .orders
        .take(&client.key())
        .await
        .map_err(|wait| ApiError::too_many("orders", wait))?;
    let affiliate = state
        .partners
        .ledger
        .attribute(
            user.as_ref().map(|u| &u.user),
            body.referral_code.as_deref(),
        )
        .await?;
    let orders = &state.orders;
    let order = orders
        .create(
            NewOrder {
                from: &body.from_ccy,
                to: &body.to_ccy,
                amount: &body.amount.0,
                direction: body.direction,
                rate_type: body.rate_type,
                to_address: &body.to_address,
                to_tag: body.tag.as_deref(),
                refund_address: body.refund_address.as_deref(),
                refund_tag: body.refund_tag.as_deref(),
                metadata: body.metadata.as_deref(),
                idempotency_key: key.as_deref(),
                idempotency_ttl_seconds: IDEMPOTENCY_KEY_TTL_SECONDS,
                replay_only_while_new: false,
                caller: &client.key().label(),
                customer_ip: Some(client.0),
                owner_user_id: user.as_ref().map(|u| u.user.id.as_str()),
                api_key_id: None,
                affiliate_user_id: affiliate.as_deref(),
                partner_fee_percent: None,
                expected_to_amount: expected_to_amount(body.expected_to_amount.as_ref())?,
            },
            crate::now_unix(),
        )
        .await?;
    Ok(order_answer(orders, &order))
}

fn expected_to_amount(
    amount: Option<&AmountInput>,
) -> Result<Option<rust_decimal::Decimal>, ApiError> {
    amount
        .map(|a| {
            crate::domain::money::Amount::parse(&a.0)
                .map(|a| a.value())
                .map_err(|e| ApiError::BadRequest(format!("Invalid expectedToAmount: {e}")))
        })
        .transpose()
}

#[derive(Deserialize)]
struct TokenQuery {
    #[serde(default)]
    token: Option<String>,
}

#[utoipa::path(
    get,
    path = "/api/order-details/{id}",
    tag = "exchange",
    summary = "An order, for its token holder or owner",
    params(("id" = String, Path), ("token" = Option<String>, Query)),
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn get_order_details(
    State(state): State<AppState>,
    client: ClientAddress,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<TokenQuery>,
) -> Result<Json<Value>, ApiError> {
    let owner = user.as_ref().map(|u| u.user.id.as_str());
    let order = state
        .orders
        .authorized(&id, query.token.as_deref(), owner)
        .await?;
    Ok(order_answer_with_outcomes(&state, &client, &order).await)
}

#[derive(Deserialize, utoipa::ToSchema)]
struct TrackRequest {
    order_id: String,
}

/// A public status view: no addresses, no token.
#[utoipa::path(
    post,
    path = "/api/track-order",
    tag = "exchange",
    summary = "Public status of an order",
    request_body = TrackRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn track_order(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<TrackRequest>,
) -> Result<Json<Value>, ApiError> {
    let order = state.orders.find(body.order_id.trim()).await?;
    let status = order.status;
    let side = |code: &str, amount: rust_decimal::Decimal| {
        let currency = state.orders.currency(code);
        json!({
            "code": code,
            "coin": currency.map(|c| c.coin.as_str()),
            "network": currency.map(|c| c.network.as_str()),
            "amount": to_wire(amount),
        })
    };
    Ok(Json(json!({
        "code": 0,
        "msg": "OK",
        "data": {
            "id": order.id,
            "status": status.as_str(),
            "type": order.rate_type.as_str(),
            "progress": status.progress(),
            "from": side(&order.from_code, order.received_amount.unwrap_or(order.from_amount)),
            "to": side(&order.to_code, order.payout_amount.unwrap_or(order.to_amount)),
            "time": { "reg": order.created_at, "expiration": order.expires_at, "finished": order.finished_at },
        }
    })))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct EmergencyRequest {
    id: String,
    token: String,
    choice: String,
    #[serde(default)]
    address: Option<String>,
    #[serde(default)]
    tag: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/order-emergency",
    tag = "exchange",
    summary = "Refund or continue an order that needs a decision",
    request_body = EmergencyRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn choose_emergency(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<EmergencyRequest>,
) -> Result<Json<Value>, ApiError> {
    let choice = parse_choice(&body.choice)?;
    let order = state
        .orders
        .authorized(&body.id, Some(&body.token), None)
        .await?;
    let order = state
        .orders
        .choose(
            order,
            choice,
            body.address.as_deref(),
            body.tag.as_deref(),
            crate::now_unix(),
            None,
        )
        .await?;
    Ok(order_answer(&state.orders, &order))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct RefundAddressRequest {
    id: String,
    token: String,
    address: String,
    #[serde(default)]
    tag: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/order-refund-address",
    tag = "exchange",
    summary = "Set or change the refund address",
    request_body = RefundAddressRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn set_refund_address(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<RefundAddressRequest>,
) -> Result<Json<Value>, ApiError> {
    let order = state
        .orders
        .authorized(&body.id, Some(&body.token), None)
        .await?;
    let order = state
        .orders
        .set_refund_address(
            order,
            &body.address,
            body.tag.as_deref(),
            crate::now_unix(),
            None,
        )
        .await?;
    Ok(order_answer(&state.orders, &order))
}

/// Server-sent events: every status change of the order as it happens (the history first).
/// The stream reads the order's events when the order changes (on any replica: see
/// `services::orders::watch`), never on a timer.
#[utoipa::path(
    get,
    path = "/api/orders/{id}/events",
    tag = "exchange",
    summary = "Server-sent events of the order",
    params(("id" = String, Path), ("token" = Option<String>, Query)),
    responses(
        (status = 200, description = "OK", content_type = "text/event-stream", body = String),
        (status = 204, description = "The order is over and the client has seen its last event")
    )
)]
async fn stream_order_events(
    State(state): State<AppState>,
    client: ClientAddress,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<TokenQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let order = state
        .orders
        .authorized(&id, query.token.as_deref(), None)
        .await?;
    // A reconnecting EventSource says which event it saw last: resume after it.
    let after = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<i64>().ok())
        .unwrap_or(0);
    // An order that is over, whose last event the client has: 204 tells the EventSource not
    // to reconnect (a stream would end at once and be opened again, forever).
    if after > 0
        && order.is_final(crate::now_unix())
        && state.orders.events(&order.id, after).await?.is_empty()
    {
        return Ok(axum::http::StatusCode::NO_CONTENT.into_response());
    }
    // Each stream holds a connection open: one client, one order and the server have only so
    // many (the page falls back to polling when refused).
    let too_many = || ApiError::TooManyRequests {
        message: "Too many open event streams; try again later".into(),
        retry_after: 30,
    };
    let permits = (
        state
            .limits
            .streams_by_client
            .enter_across_replicas(client.key())
            .await
            .ok_or_else(too_many)?,
        state
            .limits
            .streams_by_order
            .enter_across_replicas(order.id.clone())
            .await
            .ok_or_else(too_many)?,
    );
    let start = StreamState {
        watching: state.orders.watch(&order.id),
        state,
        id: order.id,
        after,
        finished: false,
        // A stream resumed after the order's last event ends on time as the order stands (a new
        // one learns the status from the history it is sent first).
        last: (after > 0).then(|| (order.status, order.finished_at.unwrap_or(order.updated_at))),
        _permits: permits,
    };
    // The stream runs after the handler has answered: its log lines keep the request's span.
    let span = tracing::Span::current();
    let events = stream::unfold(start, move |mut s| {
        async move {
            loop {
                // The server is stopping: end the stream (the page reconnects to another replica).
                if s.finished || *s.state.stopping.borrow() {
                    return None;
                }
                let mut retry = None;
                match s.state.orders.events(&s.id, s.after).await {
                    Ok(found) if !found.is_empty() => {
                        let batch: Vec<Event> = found.iter().map(|e| s.sent(e)).collect();
                        return Some((
                            stream::iter(
                                batch.into_iter().map(Ok::<Event, std::convert::Infallible>),
                            ),
                            s,
                        ));
                    }
                    Ok(_) => {}
                    Err(error) => {
                        tracing::warn!(error = %error, "reading order events failed");
                        retry = Some(STREAM_RETRY);
                    }
                }
                let now = crate::now_unix();
                if s.last
                    .is_some_and(|(status, at)| status.is_final(Some(at), now))
                {
                    return None;
                }
                // An expired order stays open for late deposits; the stream ends when that is over.
                let ends_in = s
                    .last
                    .and_then(|(status, at)| status.ends_by_time_at(at))
                    .map(|end| Duration::from_secs(u64::try_from(end - now).unwrap_or(0)));
                let wait = match (retry, ends_in) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                let mut stopping = s.state.stopping.clone();
                tokio::select! {
                    () = s.watching.changed() => {}
                    _ = stopping.changed() => {}
                    () = sleep_or_never(wait) => {}
                }
            }
        }
        .instrument(span.clone())
    });
    use futures_util::StreamExt;
    Ok(Sse::new(events.flatten())
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// How soon a stream reads again after the database failed.
const STREAM_RETRY: Duration = Duration::from_secs(2);

async fn sleep_or_never(wait: Option<Duration>) {
    match wait {
        Some(wait) => tokio::time::sleep(wait).await,
        None => std::future::pending().await,
    }
}

struct StreamState {
    state: AppState,
    id: String,
    after: i64,
    finished: bool,
    /// The last status sent and when it began.
    last: Option<(OrderStatus, i64)>,
    /// Wakes the stream when its order changes.
    watching: crate::services::orders::watch::Watching,
    /// The stream's places among the open ones, given back when it ends.
    _permits: (
        crate::limits::Permit<crate::limits::ClientKey>,
        crate::limits::Permit<String>,
    ),
}

impl StreamState {
    /// `event` as the stream sends it; a final status ends the stream after it.
    fn sent(&mut self, event: &crate::store::OrderEventRecord) -> Event {
        self.after = event.id;
        let status = OrderStatus::parse(&event.status);
        if let Some(status) = status {
            self.last = Some((status, event.created_at));
            self.finished |= status.is_final(Some(event.created_at), crate::now_unix());
        }
        Event::default()
            .event("status")
            .id(event.id.to_string())
            .data(
                json!({
                    "status": event.status,
                    "progress": status.map_or(20, OrderStatus::progress),
                    "detail": event.detail,
                    "at": event.created_at,
                })
                .to_string(),
            )
    }
}

/// The latest completed orders: real data only, no addresses, ids hashed.
#[utoipa::path(
    get,
    path = "/api/recent-transactions",
    tag = "exchange",
    summary = "Recently completed exchanges",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn list_recent_transactions(State(state): State<AppState>) -> Result<Response, ApiError> {
    let orders = state.orders.recent_completed(10).await?;
    let list: Vec<Value> = orders
        .iter()
        .map(|o| {
            let coin = |code: &str| {
                state
                    .orders
                    .currency(code)
                    .map_or(code.to_owned(), |c| c.coin.clone())
            };
            let finished = o.finished_at.unwrap_or(o.updated_at);
            json!({
                "id": hex::encode(&Sha256::digest(o.id.as_bytes())[..6]),
                "from_currency": coin(&o.from_code),
                "from_amount": to_wire(o.received_amount.unwrap_or(o.from_amount)),
                "to_currency": coin(&o.to_code),
                "to_amount": to_wire(o.payout_amount.unwrap_or(o.to_amount)),
                "timestamp": finished,
                "execution_time": finished - o.created_at,
            })
        })
        .collect();
    Ok((
        [(axum::http::header::CACHE_CONTROL, "no-cache")],
        Json(list),
    )
        .into_response())
}

/// What the site may truly say of itself: how many exchanges completed and their volume.
#[utoipa::path(
    get,
    path = "/api/site-stats",
    tag = "exchange",
    summary = "Completed exchanges and their volume in USD",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn site_stats(State(state): State<AppState>) -> Result<Response, ApiError> {
    let (completed, volume) = state.orders.completed_totals().await?;
    Ok((
        [(axum::http::header::CACHE_CONTROL, "public, max-age=60")],
        Json(json!({
            "completed_orders": completed,
            "volume_usd": format!("{:.2}", volume),
        })),
    )
        .into_response())
}

#[derive(Deserialize, utoipa::ToSchema)]
struct OrderEmailRequest {
    id: String,
    token: String,
    email: String,
}

/// The holder of an order's token asks for its status mails at an address (they link the
/// order's public page, never its private link): never required, for guests who want it.
#[utoipa::path(
    post,
    path = "/api/order-email",
    tag = "exchange",
    summary = "Mail the order's status changes to an address",
    request_body = OrderEmailRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn set_order_email(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<OrderEmailRequest>,
) -> Result<Json<Value>, ApiError> {
    let order = state
        .orders
        .authorized(body.id.trim(), Some(&body.token), None)
        .await?;
    if order.is_final(crate::now_unix()) {
        return Err(ApiError::Conflict("The order is finished".into()));
    }
    state.orders.set_notify_email(&order, &body.email).await?;
    Ok(Json(json!({ "code": 0, "msg": "OK" })))
}

/// `{code: 0, msg, data: order}`: how every order endpoint answers.
fn order_answer(orders: &Orders, order: &OrderRecord) -> Json<Value> {
    Json(json!({ "code": 0, "msg": "OK", "data": order_view(orders, order) }))
}

/// The order with, while the customer has a choice to make, what each choice would bring.
/// Each estimate asks the market, so it counts toward the caller's quotes: past them, the
/// order comes without the estimates.
async fn order_answer_with_outcomes(
    state: &AppState,
    client: &ClientAddress,
    order: &OrderRecord,
) -> Json<Value> {
    let mut view = order_view(&state.orders, order);
    let wanted = order.status == OrderStatus::Emergency && order.emergency_choice.is_none();
    if wanted && state.limits.quotes.take(&client.key()).await.is_ok() {
        let outcomes = emergency_outcomes(&state.orders, order).await;
        if let Some(amount) = outcomes["refund"]["amount"].as_str() {
            view["refund"]["amount"] = json!(amount);
        }
        view["emergency"]["outcomes"] = outcomes;
    }
    Json(json!({ "code": 0, "msg": "OK", "data": view }))
}

/// While the customer has a choice to make: what each choice would bring now — continuing
/// pays out this much (or cannot, and why), a refund sends back this much after the network
/// fee. Estimates at the current market; none when the market cannot be asked.
async fn emergency_outcomes(orders: &Orders, order: &OrderRecord) -> Value {
    let exchange = match orders.continue_outcome(order).await {
        Ok(amount) => json!({ "amount": to_wire(amount) }),
        Err(OrderError::Conflict(reason)) => json!({ "refused": reason }),
        Err(error) => {
            tracing::warn!(order.id = %order.id, error = %error, "no estimate for continuing");
            Value::Null
        }
    };
    let refund = match orders.refund_of(order).await {
        Ok(refund) => json!({ "amount": to_wire(refund.amount), "fee": to_wire(refund.fee) }),
        Err(error) => {
            tracing::warn!(order.id = %order.id, error = %error, "no estimate for a refund");
            Value::Null
        }
    };
    json!({ "exchange": exchange, "refund": refund })
}

/// The order as the web client reads it (spec/exchange.md §3).
pub fn order_view(orders: &Orders, order: &OrderRecord) -> Value {
    let from = orders.currency(&order.from_code);
    let to = orders.currency(&order.to_code);
    let status = order.status;
    let now = crate::now_unix();
    let left = if status == OrderStatus::New {
        (order.expires_at - now).max(0)
    } else {
        0
    };
    let names = |c: Option<&Currency>| {
        (
            c.map(|c| c.coin.clone()),
            c.map(|c| c.network.clone()),
            c.map(|c| c.name.clone()),
            c.and_then(|c| c.tag.clone()),
        )
    };
    let (from_coin, from_network, from_name, from_tag_name) = names(from);
    let (to_coin, to_network, to_name, to_tag_name) = names(to);
    let amount = |value: Option<rust_decimal::Decimal>| value.map(to_wire);
    json!({
        "id": order.id,
        "token": orders.token_of(&order.id),
        "status": status.as_str(),
        "type": order.rate_type.as_str(),
        "direction": order.direction.as_str(),
        "progress": status.progress(),
        "rate": to_wire(order.rate),
        "from": {
            "amount": to_wire(order.from_amount),
            "code": order.from_code,
            "coin": from_coin,
            "network": from_network,
            "name": from_name,
            "address": order.deposit_address,
            "tag": order.deposit_tag,
            "tagName": from_tag_name,
            "usd": format!("{:.2}", order.from_usd),
            "received": amount(order.received_amount),
            "confirmations": from.map(|c| c.confirmations),
        },
        "to": {
            "amount": to_wire(order.to_amount),
            "code": order.to_code,
            "coin": to_coin,
            "network": to_network,
            "name": to_name,
            "address": order.to_address,
            "tag": order.to_tag,
            "tagName": to_tag_name,
            "usd": format!("{:.2}", order.to_usd),
            "sent": amount(order.payout_amount),
        },
        "refund": {
            "address": order.refund_address,
            "tag": order.refund_tag,
            "amount": order.transactions.refund.as_ref().map(|t| to_wire(t.amount)),
        },
        "transactions": {
            "deposit": transaction_view(orders, order, from, order.transactions.deposit.as_ref()),
            "payout": transaction_view(orders, order, to, order.transactions.payout.as_ref()),
            "refund": transaction_view(orders, order, from, order.transactions.refund.as_ref()),
        },
        "emergency": order.emergency_reason.map(|reason| json!({
            "reason": reason.as_str(),
            "choice": order.emergency_choice.map_or("NONE", |c| c.as_str()),
        })),
        "time": {
            "reg": order.created_at,
            "expiration": order.expires_at,
            "left": left,
            "rateExpiration": order.rate_expires_at,
            "update": order.updated_at,
            "finish": order.finished_at,
        },
        "metadata": order.metadata,
    })
}

/// A transaction as the web client reads it, with its explorer link.
fn transaction_view(
    orders: &Orders,
    order: &OrderRecord,
    currency: Option<&Currency>,
    tx: Option<&Transaction>,
) -> Value {
    let Some(tx) = tx else {
        return Value::Null;
    };
    let explorer = currency.and_then(|c| orders.explorer_link(order, c, tx));
    json!({
        "id": tx.id,
        "amount": to_wire(tx.amount),
        "fee": tx.fee.map(to_wire),
        "confirmations": tx.confirmations,
        "at": tx.at,
        "explorer": explorer,
    })
}

#[derive(Deserialize, Serialize)]
pub(super) struct SandboxDepositRequest {
    order_id: String,
    #[serde(default)]
    amount: Option<AmountInput>,
}

/// `POST /api/admin/sandbox/deposit`: simulates the customer's deposit (audited).
pub(super) async fn simulate_deposit(
    State(state): State<AppState>,
    call: AdminCall<Operator>,
    ApiJson(body): ApiJson<SandboxDepositRequest>,
) -> Result<Json<Value>, ApiError> {
    if !state.config.is_sandbox() {
        return Err(ApiError::NotFound);
    }
    let id = body.order_id.trim();
    let audit = call.audit("order.deposit", ("order", id), &body);
    let amount = deposit_amount(body.amount.clone())?;
    call.once(&state, &audit, async {
        let order = state
            .orders
            .deposit(id, amount, crate::now_unix(), Some(audit.clone()))
            .await?;
        Ok(order_answer(&state.orders, &order))
    })
    .await
}

#[derive(Deserialize, Serialize)]
pub(super) struct SandboxExpiryRequest {
    order_id: String,
}

/// `POST /api/admin/sandbox/expire`: the order's deposit window closes now, as if its time had
/// run out (so a late deposit can be tried without waiting half an hour).
pub(super) async fn simulate_expiry(
    State(state): State<AppState>,
    call: AdminCall<Operator>,
    ApiJson(body): ApiJson<SandboxExpiryRequest>,
) -> Result<Json<Value>, ApiError> {
    if !state.config.is_sandbox() {
        return Err(ApiError::NotFound);
    }
    let id = body.order_id.trim();
    let audit = call.audit("order.expire", ("order", id), &body);
    call.once(&state, &audit, async {
        let order = state
            .orders
            .expire_now(id, crate::now_unix(), audit.clone())
            .await?;
        Ok(order_answer(&state.orders, &order))
    })
    .await
}

#[derive(Deserialize, utoipa::ToSchema)]
struct OwnDepositRequest {
    id: String,
    token: String,
    /// What the customer pretends to send (a decimal string); the ordered amount when absent.
    #[serde(default)]
    #[schema(value_type = Option<String>, example = "0.1")]
    amount: Option<AmountInput>,
}

/// On a sandbox exchange nothing can really be sent: the holder of an order's token may
/// pretend to send its deposit, to watch the order go through its steps. Elsewhere a 404.
#[utoipa::path(
    post,
    path = "/api/sandbox/deposit",
    tag = "exchange",
    summary = "Simulate the deposit of one's own order (sandbox exchanges only)",
    request_body = OwnDepositRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn simulate_own_deposit(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<OwnDepositRequest>,
) -> Result<Json<Value>, ApiError> {
    if !state.config.is_sandbox() {
        return Err(ApiError::NotFound);
    }
    let amount = deposit_amount(body.amount)?;
    let order = state
        .orders
        .authorized(body.id.trim(), Some(&body.token), None)
        .await?;
    let order = state
        .orders
        .deposit(&order.id, amount, crate::now_unix(), None)
        .await?;
    Ok(order_answer(&state.orders, &order))
}

fn deposit_amount(amount: Option<AmountInput>) -> Result<Option<rust_decimal::Decimal>, ApiError> {
    amount
        .map(|a| {
            crate::domain::money::Amount::parse(&a.0)
                .map(|a| a.value())
                .map_err(|e| ApiError::BadRequest(format!("Invalid amount: {e}")))
        })
        .transpose()
}
