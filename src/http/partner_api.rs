//! The partner API `POST /api/v2/{method}`, wire-compatible with the FixedFloat API v2
//! (../shared/partner-api.md): `X-API-KEY` / `X-API-SIGN` (hex HMAC-SHA256 of the raw body),
//! the `{code, msg, data}` envelope, string decimals, the partner statuses and error codes.

use std::str::FromStr;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use rust_decimal::Decimal;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::AppState;
use super::exchange::WireSide;
use super::extract::ClientAddress;
use crate::domain::address::{validate_address, validate_tag};
use crate::domain::currency::Currency;
use crate::domain::fees::{Direction, RateType};
use crate::domain::money::{Amount, to_wire};
use crate::domain::order::EmergencyChoice;
use crate::providers::ProviderError;
use crate::services::orders::{NewOrder, OrderError};
use crate::services::partners::keys::{KeyAuthError, Permission};
use crate::services::partners::qr::{payment_uri, png_data_uri};
use crate::services::partners::wire::order_object;
use crate::services::quotes::{Quote, QuoteError, QuoteIssue, QuoteRequest, QuoteService};
use crate::store::{ApiKeyRecord, OrderRecord};

/// Largest body the partner API reads.
const BODY_LIMIT: usize = 16 * 1024;
/// A `create` repeated with the same key and body within this window returns the first order.
const REPLAY_WINDOW_SECONDS: i64 = 600;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v2/ccies", post(ccies))
        .route("/api/v2/price", post(price))
        .route("/api/v2/create", post(create))
        .route("/api/v2/order", post(order))
        .route("/api/v2/emergency", post(emergency))
        .route("/api/v2/setEmail", post(set_email))
        .route("/api/v2/qr", post(qr))
        .route("/api/v2/{method}", post(unknown_method))
}

/// The partner API's error codes.
mod code {
    pub const INVALID: i64 = 301;
    pub const AUTH: i64 = 311;
    pub const PERMISSION: i64 = 312;
    pub const NOT_FOUND: i64 = 320;
    pub const WRONG_STATE: i64 = 321;
    pub const RATE_LIMIT: i64 = 429;
    pub const INTERNAL: i64 = 500;
}

/// A refusal in the envelope; business errors answer HTTP 200.
struct Failure {
    http: StatusCode,
    code: i64,
    msg: String,
    retry_after: Option<u64>,
}

impl Failure {
    fn new(code: i64, msg: impl Into<String>) -> Failure {
        Failure {
            http: StatusCode::OK,
            code,
            msg: msg.into(),
            retry_after: None,
        }
    }

    fn invalid(msg: impl Into<String>) -> Failure {
        Failure::new(code::INVALID, msg)
    }

    fn internal(error: impl std::fmt::Display) -> Failure {
        tracing::error!(error = %error, "partner API: internal error");
        Failure {
            http: StatusCode::INTERNAL_SERVER_ERROR,
            ..Failure::new(code::INTERNAL, "Internal error")
        }
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let mut response = (
            self.http,
            Json(json!({ "code": self.code, "msg": self.msg, "data": null })),
        )
            .into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

impl From<OrderError> for Failure {
    fn from(error: OrderError) -> Self {
        match error {
            OrderError::Invalid(msg) => Failure::invalid(msg),
            OrderError::NotFound => Failure::new(code::NOT_FOUND, "Order not found"),
            OrderError::Conflict(msg) => Failure::new(code::WRONG_STATE, msg),
            // The partner API never sends an expected amount; kept for completeness.
            error @ OrderError::AmountChanged { .. } => Failure::invalid(error.to_string()),
            OrderError::KeyReused(msg) => Failure::invalid(msg),
            OrderError::Quote(e) => quote_failure(e),
            OrderError::Store(e) => Failure::internal(e),
        }
    }
}

fn quote_failure(error: QuoteError) -> Failure {
    match error {
        QuoteError::UnknownCurrency(_) | QuoteError::SameCurrency => {
            Failure::invalid("toCcy is incorrect")
        }
        QuoteError::InvalidAmount(_) => Failure::invalid("amount is incorrect"),
        QuoteError::Provider(ProviderError::Busy(seconds)) => rate_limited(seconds),
        QuoteError::Provider(ProviderError::Rejected(reason)) => Failure::invalid(reason),
        QuoteError::Provider(e) => {
            tracing::warn!(error = %e, "partner API: provider unavailable");
            Failure::invalid("Temporarily unavailable, try again later")
        }
    }
}

/// A checked request: its key and JSON body.
struct Call {
    key: ApiKeyRecord,
    body: serde_json::Map<String, Value>,
    raw: Bytes,
    /// The address the call came from (the partner's server).
    client: std::net::IpAddr,
}

/// Authenticates and parses a request, in the order that charges the partner nothing for a
/// refused one: size, key and signature, permission, JSON, then the key's allowance. A client
/// that keeps sending bad signatures (guessing a secret) is paused, per key and over all keys.
async fn admit(
    state: &AppState,
    client: &ClientAddress,
    headers: &HeaderMap,
    body: Body,
    needs: Permission,
) -> Result<Call, Failure> {
    let raw = axum::body::to_bytes(body, BODY_LIMIT)
        .await
        .map_err(|_| Failure {
            http: StatusCode::PAYLOAD_TOO_LARGE,
            ..Failure::invalid(format!(
                "Request body is too large (at most {} KB)",
                BODY_LIMIT / 1024
            ))
        })?;
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let keys = &state.partners.keys;
    let limits = &state.limits;
    let claimed = (
        header("x-api-key")
            .unwrap_or_default()
            .trim()
            .chars()
            .take(128)
            .collect::<String>(),
        client.key(),
    );
    if !limits.auth_failures.has_room(&claimed).await
        || !limits.auth_failures_by_client.has_room(&claimed.1).await
    {
        return Err(rate_limited(60));
    }
    let key = match keys
        .authenticate(header("x-api-key"), header("x-api-sign"), &raw)
        .await
    {
        Ok(key) => key,
        Err(KeyAuthError::Refused(refusal)) => {
            limits.auth_failures.count(&claimed).await;
            limits.auth_failures_by_client.count(&claimed.1).await;
            return Err(Failure::new(code::AUTH, refusal.to_string()));
        }
        Err(KeyAuthError::Store(e)) => return Err(Failure::internal(e)),
    };
    let allowed = Permission::parse(&key.permission).is_some_and(|p| p.allows(needs));
    if !allowed {
        return Err(Failure::new(
            code::PERMISSION,
            "Permission denied: this key may only read currencies and prices",
        ));
    }
    if let Some(content_type) = header("content-type")
        && !content_type
            .split(';')
            .next()
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
    {
        return Err(Failure::invalid("Content-Type must be application/json"));
    }
    let body = match serde_json::from_slice::<Value>(&raw) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return Err(Failure::invalid("The body must be a JSON object")),
        Err(_) => return Err(Failure::invalid("The body is not valid JSON")),
    };
    keys.take_allowance(&key).await.map_err(rate_limited)?;
    Ok(Call {
        key,
        body,
        raw,
        client: client.0,
    })
}

/// HTTP 429 and code 429, saying when to come back.
fn rate_limited(wait: u64) -> Failure {
    Failure {
        http: StatusCode::TOO_MANY_REQUESTS,
        retry_after: Some(wait),
        ..Failure::new(
            code::RATE_LIMIT,
            format!("Rate limit exceeded, retry in {wait} s"),
        )
    }
}

/// Answers a method: success counts one use of the key.
async fn answer(state: &AppState, call: &Call, result: Result<Value, Failure>) -> Response {
    match result {
        Ok(data) => {
            if let Err(e) = state
                .partners
                .keys
                .record_use(&call.key, crate::now_unix())
                .await
            {
                tracing::warn!(error = %e, "partner API: usage not counted");
            }
            Json(json!({ "code": 0, "msg": "OK", "data": data })).into_response()
        }
        Err(failure) => failure.into_response(),
    }
}

async fn run<F, Fut>(
    state: AppState,
    client: ClientAddress,
    headers: HeaderMap,
    body: Body,
    needs: Permission,
    method: F,
) -> Response
where
    F: FnOnce(AppState, Call) -> Fut,
    Fut: std::future::Future<Output = (Call, Result<Value, Failure>)>,
{
    let call = match admit(&state, &client, &headers, body, needs).await {
        Ok(call) => call,
        Err(failure) => return failure.into_response(),
    };
    let (call, result) = method(state.clone(), call).await;
    answer(&state, &call, result).await
}

// ---- request fields ----

fn text<'a>(body: &'a serde_json::Map<String, Value>, name: &str) -> Option<&'a str> {
    body.get(name)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

fn required<'a>(body: &'a serde_json::Map<String, Value>, name: &str) -> Result<&'a str, Failure> {
    text(body, name).ok_or_else(|| Failure::invalid(format!("{name} is incorrect")))
}

/// A decimal given as a string or a number.
fn decimal(body: &serde_json::Map<String, Value>, name: &str) -> Result<Option<String>, Failure> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.trim().to_owned())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(_) => Err(Failure::invalid(format!("{name} is incorrect"))),
    }
}

fn currency(
    state: &AppState,
    body: &serde_json::Map<String, Value>,
    name: &str,
) -> Result<&'static Currency, Failure> {
    state
        .catalogue
        .get(required(body, name)?)
        .ok_or_else(|| Failure::invalid(format!("{name} is incorrect")))
}

/// The fields `price` and `create` share.
struct PriceFields {
    from: &'static Currency,
    to: &'static Currency,
    rate_type: RateType,
    direction: Direction,
    amount: String,
    markup: Option<Decimal>,
    refcode: Option<String>,
}

fn price_fields(
    state: &AppState,
    body: &serde_json::Map<String, Value>,
) -> Result<PriceFields, Failure> {
    let rate_type = match text(body, "type") {
        Some("float") => RateType::Float,
        Some("fixed") => RateType::Fixed,
        _ => return Err(Failure::invalid("type is incorrect")),
    };
    let from = currency(state, body, "fromCcy")?;
    let to = currency(state, body, "toCcy")?;
    if from.code == to.code {
        return Err(Failure::invalid("toCcy is incorrect"));
    }
    let direction = match text(body, "direction").unwrap_or("from") {
        "from" => Direction::From,
        "to" => Direction::To,
        _ => return Err(Failure::invalid("Incorrect direction")),
    };
    let amount = decimal(body, "amount")?
        .filter(|a| Amount::parse(a).is_ok())
        .ok_or_else(|| Failure::invalid("amount is incorrect"))?;
    let afftax = decimal(body, "afftax")?
        .map(|a| Decimal::from_str(&a).map_err(|_| Failure::invalid("afftax is incorrect")))
        .transpose()?;
    let markup = state
        .partners
        .ledger
        .markup(afftax)
        .map_err(|e| Failure::invalid(e.to_string()))?;
    Ok(PriceFields {
        from,
        to,
        rate_type,
        direction,
        amount,
        markup,
        refcode: text(body, "refcode").map(str::to_owned),
    })
}

async fn quote(state: &AppState, fields: &PriceFields) -> Result<Quote, Failure> {
    let fees = state.config.fees();
    QuoteService {
        catalogue: state.catalogue,
        provider: state.provider.as_ref(),
        switches: &state.switches,
        fees: fields.markup.map_or(fees, |m| fees.with_markup(m)),
        partner_markup: fields.markup.is_some_and(|m| m > Decimal::ZERO),
    }
    .quote(QuoteRequest {
        from: &fields.from.code,
        to: &fields.to.code,
        amount: &fields.amount,
        direction: fields.direction,
        rate_type: fields.rate_type,
    })
    .await
    .map_err(quote_failure)
}

/// The quote's problems in the partner API's words.
fn price_errors(state: &AppState, quote: &Quote) -> Vec<&'static str> {
    let mut errors = Vec::new();
    let mut push = |e: &'static str| {
        if !errors.contains(&e) {
            errors.push(e);
        }
    };
    for issue in &quote.issues {
        match issue {
            QuoteIssue::LimitMin => push("LIMIT_MIN"),
            QuoteIssue::LimitMax | QuoteIssue::FromAmountExceedsMax => push("LIMIT_MAX"),
            // The site's name for "over the maximum, asked in the receive coin": it always comes
            // with the cause, LIMIT_MAX or RESERVE_TO.
            QuoteIssue::ToAmountExceedsMax => {}
            QuoteIssue::ReserveTo => push("RESERVE_TO"),
            QuoteIssue::MaintenanceFrom => push("MAINTENANCE_FROM"),
            QuoteIssue::MaintenanceTo => push("MAINTENANCE_TO"),
            QuoteIssue::PairUnavailable => {
                let provider = state.provider.as_ref();
                if !state.switches.state(provider, quote.from.currency).send {
                    push("OFFLINE_FROM");
                }
                if !state.switches.state(provider, quote.to.currency).recv {
                    push("OFFLINE_TO");
                }
            }
        }
    }
    errors
}

fn availability(state: &AppState, c: &Currency) -> (u8, u8) {
    let a = state.switches.state(state.provider.as_ref(), c);
    // The partner API speaks from Ferry's side: it receives what the user sends.
    (u8::from(a.send), u8::from(a.recv))
}

// ---- methods ----

/// Every answer: `code` 0 is success; see the error codes in the API documentation. The
/// 413, 429 and 500 answers every method may give are added in `openapi.rs`.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
pub(super) struct Envelope {
    code: i64,
    msg: String,
    data: Value,
}

#[derive(utoipa::ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
struct PriceRequest {
    /// `fixed` or `float`.
    #[schema(example = "float")]
    r#type: String,
    #[schema(example = "BTC")]
    from_ccy: String,
    #[schema(example = "ETH")]
    to_ccy: String,
    /// `from` (amount in fromCcy, the default) or `to` (amount in toCcy).
    #[schema(example = "from")]
    direction: Option<String>,
    /// A decimal as a string (or a number).
    #[schema(example = "0.1")]
    amount: String,
    /// Also list every currency's availability.
    ccies: Option<bool>,
    /// Attribute the order to this affiliate's referral code.
    refcode: Option<String>,
    /// The partner's markup in percent, added to Ferry's fee (capped by the operator).
    afftax: Option<String>,
}

#[derive(utoipa::ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
struct CreateRequest {
    #[schema(example = "float")]
    r#type: String,
    #[schema(example = "BTC")]
    from_ccy: String,
    #[schema(example = "ETH")]
    to_ccy: String,
    /// `from` (the default) or `to`. Paid out over Lightning (`BTCLN`), the invoice sets the
    /// amount: the order is for it, direction `to`, at the fixed rate.
    #[schema(example = "from")]
    direction: Option<String>,
    #[schema(example = "0.1")]
    amount: String,
    /// Where the user receives `toCcy` (for `BTCLN`, a BOLT 11 invoice with an amount).
    #[schema(example = "0x52908400098527886E0F7030069857D2E4169EE7")]
    to_address: String,
    /// The memo or destination tag, for currencies that use one.
    tag: Option<String>,
    refcode: Option<String>,
    afftax: Option<String>,
}

#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
struct OrderRequest {
    id: String,
    token: String,
}

#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
struct EmergencyRequest {
    id: String,
    token: String,
    /// `EXCHANGE` (continue at the current rate) or `REFUND`.
    choice: String,
    /// The refund address (required for REFUND unless the order has one).
    address: Option<String>,
    tag: Option<String>,
}

#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
struct SetEmailRequest {
    id: String,
    token: String,
    email: String,
}

#[utoipa::path(
    post, path = "/api/v2/ccies", tag = "partner",
    summary = "Currencies and whether Ferry can receive (recv) and send (send) each",
    params(("X-API-KEY" = String, Header), ("X-API-SIGN" = String, Header, description = "hex HMAC-SHA256 of the raw body with the key's secret")),
    request_body(content = Object, example = json!({})),
    responses((status = 200, description = "The envelope; data is the currency list", body = Envelope, example = json!({"code": 0, "msg": "OK", "data": [{"code": "BTC", "coin": "BTC", "network": "BTC", "name": "Bitcoin", "recv": 1, "send": 1, "tag": null, "logo": "https://ferry.example/coins/btc.svg", "color": "#f7931a", "priority": 10}]})))
)]
async fn ccies(
    State(state): State<AppState>,
    client: ClientAddress,
    headers: HeaderMap,
    body: Body,
) -> Response {
    run(
        state,
        client,
        headers,
        body,
        Permission::Read,
        |state, call| async move {
            let base = state.config.public_url.trim_end_matches('/').to_owned();
            let list: Vec<Value> = state
            .catalogue
            .all()
            .iter()
            .map(|c| {
                let (recv, send) = availability(&state, c);
                json!({
                    "code": c.code, "coin": c.coin, "network": c.network, "name": c.name,
                    "recv": recv, "send": send, "tag": c.tag,
                    "logo": format!("{base}/coins/{}.svg", c.logo), "color": c.color, "priority": c.priority,
                })
            })
            .collect();
            (call, Ok(Value::Array(list)))
        },
    )
    .await
}

#[utoipa::path(
    post, path = "/api/v2/price", tag = "partner",
    summary = "A quote: both sides with limits, and any errors (still code 0)",
    params(("X-API-KEY" = String, Header), ("X-API-SIGN" = String, Header)),
    request_body = PriceRequest,
    responses((status = 200, description = "The envelope; data is {from, to, errors, ccies?}", body = Envelope, example = json!({"code": 0, "msg": "OK", "data": {"from": {"code": "BTC", "coin": "BTC", "network": "BTC", "amount": "0.1", "rate": "32.841", "precision": 8, "min": "0.00009524", "max": "0.95238096", "usd": "10500.21", "btc": "0.1"}, "to": {"code": "ETH", "coin": "ETH", "network": "ETH", "amount": "3.2841", "rate": "0.03044974", "precision": 8, "min": "0.0031", "max": "31.27", "usd": "10447.70"}, "errors": []}})))
)]
async fn price(
    State(state): State<AppState>,
    client: ClientAddress,
    headers: HeaderMap,
    body: Body,
) -> Response {
    run(
        state,
        client,
        headers,
        body,
        Permission::Read,
        |state, call| async move {
            let result = price_data(&state, &call).await;
            (call, result)
        },
    )
    .await
}

async fn price_data(state: &AppState, call: &Call) -> Result<Value, Failure> {
    let fields = price_fields(state, &call.body)?;
    let quote = quote(state, &fields).await?;
    let mut data = json!({
        "from": WireSide::asset(&quote.from, Some(to_wire(quote.from_btc))),
        "to": WireSide::asset(&quote.to, None),
        "errors": price_errors(state, &quote),
    });
    if call.body.get("ccies").and_then(Value::as_bool) == Some(true) {
        data["ccies"] = state
            .catalogue
            .all()
            .iter()
            .map(|c| {
                let (recv, send) = availability(state, c);
                json!({ "code": c.code, "recv": recv, "send": send })
            })
            .collect();
    }
    Ok(data)
}

#[utoipa::path(
    post, path = "/api/v2/create", tag = "partner",
    summary = "Create an order (trade keys)",
    params(("X-API-KEY" = String, Header), ("X-API-SIGN" = String, Header)),
    request_body = CreateRequest,
    responses((status = 200, description = "The envelope; data is the order object", body = Envelope, example = json!({"code": 0, "msg": "OK", "data": {"id": "7KQ2M9XHT4WZ3PNA", "type": "float", "email": "", "status": "NEW", "token": "3f9c0d6a1b2e4c5d8e7f6a5b4c3d2e1f", "time": {"reg": 1795400000, "start": null, "finish": null, "update": 1795400000, "expiration": 1795401800, "left": 1800}, "from": {"code": "BTC", "coin": "BTC", "network": "BTC", "name": "Bitcoin", "alias": "btc", "amount": "0.1", "address": "bc1qsr474eqlpkjz39x8nzs4fmexd50fcmmr4mfl7c", "addressAlt": null, "tag": null, "tagName": null, "reqConfirmations": 2, "maxConfirmations": 2, "tx": {"id": null, "amount": null, "fee": null, "ccyfee": null, "timeReg": null, "timeBlock": null, "confirmations": null}}, "to": {"code": "ETH", "coin": "ETH", "network": "ETH", "name": "Ethereum", "alias": "eth", "amount": "3.2841", "address": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "tag": null, "tagName": null, "tx": {"id": null, "amount": null, "fee": null, "ccyfee": null, "timeReg": null, "timeBlock": null, "confirmations": null}}, "back": {"code": null, "coin": null, "network": null, "name": null, "alias": null, "amount": null, "address": null, "tag": null, "tagName": null, "tx": {"id": null, "amount": null, "fee": null, "ccyfee": null, "timeReg": null, "timeBlock": null, "confirmations": null}}, "emergency": {"status": [], "choice": "NONE", "repeat": "0"}}})))
)]
async fn create(
    State(state): State<AppState>,
    client: ClientAddress,
    headers: HeaderMap,
    body: Body,
) -> Response {
    run(
        state,
        client,
        headers,
        body,
        Permission::Trade,
        |state, call| async move {
            let result = create_order(&state, &call).await;
            (call, result)
        },
    )
    .await
}

async fn create_order(state: &AppState, call: &Call) -> Result<Value, Failure> {
    let fields = price_fields(state, &call.body)?;
    let to_address = required(&call.body, "toAddress")?;
    validate_address(fields.to.family, &fields.to.network, to_address)
        .map_err(|_| Failure::invalid("Invalid address"))?;
    let tag = text(&call.body, "tag");
    if let Some(tag) = tag {
        validate_tag(fields.to.family, tag).map_err(|_| Failure::invalid("Invalid tag"))?;
    }
    let quote = quote(state, &fields).await?;
    let errors = price_errors(state, &quote);
    if errors
        .iter()
        .any(|e| e.starts_with("LIMIT") || e.starts_with("RESERVE"))
    {
        return Err(Failure::invalid("Out of limits"));
    }
    if let Some(problem) = errors.first() {
        return Err(Failure::invalid(match *problem {
            "MAINTENANCE_FROM" | "OFFLINE_FROM" => "fromCcy is temporarily unavailable",
            _ => "toCcy is temporarily unavailable",
        }));
    }
    // A replayed request (same key, same bytes) within the window gets the first order back:
    // the body is its own idempotency key, scoped to the API key.
    let replay = hex::encode(&Sha256::digest(&call.raw)[..16]);
    let ledger = &state.partners.ledger;
    let affiliate = ledger
        .attribute_partner_order(&call.key, fields.refcode.as_deref())
        .await
        .map_err(Failure::internal)?;
    let order = state
        .orders
        .create(
            NewOrder {
                from: &fields.from.code,
                to: &fields.to.code,
                amount: &fields.amount,
                direction: fields.direction,
                rate_type: fields.rate_type,
                to_address,
                to_tag: tag,
                refund_address: None,
                refund_tag: None,
                metadata: None,
                idempotency_key: Some(&format!("v2:{replay}")),
                idempotency_ttl_seconds: REPLAY_WINDOW_SECONDS,
                replay_only_while_new: true,
                caller: &format!("key:{}", call.key.id),
                customer_ip: Some(call.client),
                owner_user_id: Some(&call.key.user_id),
                api_key_id: Some(&call.key.id),
                affiliate_user_id: affiliate.as_deref(),
                partner_fee_percent: fields.markup,
                expected_to_amount: None,
            },
            crate::now_unix(),
        )
        .await?;
    order_data(state, &order).await
}

async fn order_data(state: &AppState, order: &OrderRecord) -> Result<Value, Failure> {
    let events = state.orders.events(&order.id, 0).await?;
    Ok(order_object(
        order,
        &events,
        state.catalogue,
        &state.orders.token_of(&order.id),
        crate::now_unix(),
    ))
}

/// The order named by `id` and `token`, or 320.
async fn find_order(state: &AppState, call: &Call) -> Result<OrderRecord, Failure> {
    let id = text(&call.body, "id").ok_or_else(|| Failure::invalid("id is incorrect"))?;
    let token = text(&call.body, "token").ok_or_else(|| Failure::invalid("token is incorrect"))?;
    if id.len() > 64 || token.len() > 128 {
        return Err(Failure::new(code::NOT_FOUND, "Order not found"));
    }
    Ok(state.orders.authorized(id, Some(token), None).await?)
}

#[utoipa::path(
    post, path = "/api/v2/order", tag = "partner",
    summary = "An order by id and token (trade keys)",
    params(("X-API-KEY" = String, Header), ("X-API-SIGN" = String, Header)),
    request_body = OrderRequest,
    responses((status = 200, description = "The envelope; data is the order object", body = Envelope, example = json!({"code": 0, "msg": "OK", "data": {"id": "7KQ2M9XHT4WZ3PNA", "type": "float", "email": "", "status": "NEW", "token": "3f9c0d6a1b2e4c5d8e7f6a5b4c3d2e1f", "time": {"reg": 1795400000, "start": null, "finish": null, "update": 1795400000, "expiration": 1795401800, "left": 1800}, "from": {"code": "BTC", "coin": "BTC", "network": "BTC", "name": "Bitcoin", "alias": "btc", "amount": "0.1", "address": "bc1qsr474eqlpkjz39x8nzs4fmexd50fcmmr4mfl7c", "addressAlt": null, "tag": null, "tagName": null, "reqConfirmations": 2, "maxConfirmations": 2, "tx": {"id": null, "amount": null, "fee": null, "ccyfee": null, "timeReg": null, "timeBlock": null, "confirmations": null}}, "to": {"code": "ETH", "coin": "ETH", "network": "ETH", "name": "Ethereum", "alias": "eth", "amount": "3.2841", "address": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "tag": null, "tagName": null, "tx": {"id": null, "amount": null, "fee": null, "ccyfee": null, "timeReg": null, "timeBlock": null, "confirmations": null}}, "back": {"code": null, "coin": null, "network": null, "name": null, "alias": null, "amount": null, "address": null, "tag": null, "tagName": null, "tx": {"id": null, "amount": null, "fee": null, "ccyfee": null, "timeReg": null, "timeBlock": null, "confirmations": null}}, "emergency": {"status": [], "choice": "NONE", "repeat": "0"}}})))
)]
async fn order(
    State(state): State<AppState>,
    client: ClientAddress,
    headers: HeaderMap,
    body: Body,
) -> Response {
    run(
        state,
        client,
        headers,
        body,
        Permission::Trade,
        |state, call| async move {
            let result = match find_order(&state, &call).await {
                Ok(order) => order_data(&state, &order).await,
                Err(f) => Err(f),
            };
            (call, result)
        },
    )
    .await
}

#[utoipa::path(
    post, path = "/api/v2/emergency", tag = "partner",
    summary = "Choose EXCHANGE or REFUND for an order in EMERGENCY (trade keys)",
    params(("X-API-KEY" = String, Header), ("X-API-SIGN" = String, Header)),
    request_body = EmergencyRequest,
    responses((status = 200, description = "The envelope; data is true", body = Envelope, example = json!({"code": 0, "msg": "OK", "data": true})))
)]
async fn emergency(
    State(state): State<AppState>,
    client: ClientAddress,
    headers: HeaderMap,
    body: Body,
) -> Response {
    run(
        state,
        client,
        headers,
        body,
        Permission::Trade,
        |state, call| async move {
            let result = choose(&state, &call).await;
            (call, result)
        },
    )
    .await
}

async fn choose(state: &AppState, call: &Call) -> Result<Value, Failure> {
    let choice = text(&call.body, "choice")
        .and_then(EmergencyChoice::parse)
        .ok_or_else(|| Failure::invalid("choice is incorrect"))?;
    let order = find_order(state, call).await?;
    let address = text(&call.body, "address");
    if choice == EmergencyChoice::Refund && address.is_none() && order.refund_address.is_none() {
        return Err(Failure::invalid("address is incorrect"));
    }
    state
        .orders
        .choose(
            order,
            choice,
            address,
            text(&call.body, "tag"),
            crate::now_unix(),
            None,
        )
        .await
        .map_err(|e| match e {
            // FixedFloat's words, then why (a Lightning refund invoice's amount, say).
            OrderError::Invalid(reason) if address.is_some() => {
                Failure::invalid(format!("Invalid address: {reason}"))
            }
            other => other.into(),
        })?;
    Ok(Value::Bool(true))
}

#[utoipa::path(
    post, path = "/api/v2/setEmail", tag = "partner",
    summary = "Mail the order's status changes to an address (trade keys)",
    params(("X-API-KEY" = String, Header), ("X-API-SIGN" = String, Header)),
    request_body = SetEmailRequest,
    responses((status = 200, description = "The envelope; data is true", body = Envelope, example = json!({"code": 0, "msg": "OK", "data": true})))
)]
async fn set_email(
    State(state): State<AppState>,
    client: ClientAddress,
    headers: HeaderMap,
    body: Body,
) -> Response {
    run(
        state,
        client,
        headers,
        body,
        Permission::Trade,
        |state, call| async move {
            let result = async {
                let email = required(&call.body, "email")?;
                let order = find_order(&state, &call).await?;
                state
                    .orders
                    .set_notify_email(&order, email)
                    .await
                    .map_err(|e| match e {
                        OrderError::Invalid(_) => Failure::invalid("email is incorrect"),
                        other => other.into(),
                    })?;
                Ok(Value::Bool(true))
            }
            .await;
            (call, result)
        },
    )
    .await
}

#[utoipa::path(
    post, path = "/api/v2/qr", tag = "partner",
    summary = "QR codes of the deposit address, alone and with the amount (trade keys)",
    params(("X-API-KEY" = String, Header), ("X-API-SIGN" = String, Header)),
    request_body = OrderRequest,
    responses((status = 200, description = "The envelope; data is [{title, src, checked}]", body = Envelope, example = json!({"code": 0, "msg": "OK", "data": [{"title": "Address", "src": "data:image/png;base64,iVBORw0KGgo…", "checked": false}, {"title": "With amount", "src": "data:image/png;base64,iVBORw0KGgo…", "checked": true}]})))
)]
async fn qr(
    State(state): State<AppState>,
    client: ClientAddress,
    headers: HeaderMap,
    body: Body,
) -> Response {
    run(
        state,
        client,
        headers,
        body,
        Permission::Trade,
        |state, call| async move {
            let result = async {
                let order = find_order(&state, &call).await?;
                let from = state
                    .catalogue
                    .get(&order.from_code)
                    .ok_or_else(|| Failure::internal("unknown currency on a stored order"))?;
                let with_amount = payment_uri(
                    &from.coin,
                    &from.network,
                    &order.deposit_address,
                    &to_wire(order.from_amount),
                );
                let image = |text: &str| {
                    png_data_uri(text).ok_or_else(|| Failure::internal("QR code too long"))
                };
                Ok(json!([
                    { "title": "Address", "src": image(&order.deposit_address)?, "checked": false },
                    { "title": "With amount", "src": image(&with_amount)?, "checked": true },
                ]))
            }
            .await;
            (call, result)
        },
    )
    .await
}

async fn unknown_method(axum::extract::Path(method): axum::extract::Path<String>) -> Response {
    let shown: String = method.chars().take(32).collect();
    Failure {
        http: StatusCode::NOT_FOUND,
        ..Failure::invalid(format!("Unknown method {shown}"))
    }
    .into_response()
}
