//! Ferry filling its orders at ChangeNOW (API v2), against a fake ChangeNOW in this process that
//! answers the documented requests with the documented shapes and error forms
//! (`docs/upstreams/`): currencies, range, estimates (float and fixed with a frozen `rateId`),
//! order creation, the order's status, and the refund and continue actions.

// The fake's checks answer with the refusal itself as their error, as axum handlers do.
#![allow(clippy::result_large_err)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode as FakeStatus};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use ferry::config::{UpstreamApi, UpstreamSettings};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Db, TestApp, json_of, spawn_app_with};
use crate::on_both_backends;
use crate::partners::{ADMIN, ETH_ADDRESS};
use crate::upstream::{
    choose_on, count_orders, create_order, dec, id_and_token, quote_of, wait_for,
};

const KEY: &str = "cn-partner-key";
const BTC_REFUND: &str = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
/// An address that passes Ferry's checksum and that the fake ChangeNOW refuses, as ChangeNOW
/// refuses addresses it will not pay (a contract, a sanctioned one).
const REFUSED_ETH: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";

on_both_backends!(
    a_float_order_at_changenow_is_quoted_at_its_estimate_and_followed_to_completion,
    a_short_deposit_at_changenow_asks_the_customer_and_the_refund_goes_to_their_address,
);

// ---- the fake ChangeNOW ----

#[derive(Default)]
struct Fake {
    /// Every call as `METHOD path?query`, for the tests to read.
    calls: Vec<String>,
    /// The bodies of the orders created, in order.
    created: Vec<Value>,
    exchanges: HashMap<String, Value>,
    /// Frozen fixed rates: id → (pair, amount it was for, to amount).
    rate_ids: HashMap<String, (String, String, f64)>,
    /// Answer every call with 429 and `Retry-After: 7`.
    busy: bool,
    /// Frozen rates are already expired when the order comes.
    rates_expire_at_once: bool,
    /// How much lower, as a fraction, a rate frozen for an order is than the estimates before.
    frozen_lower_by: f64,
    /// The rate of every pair instead of the one from dollar prices (and no network fee).
    rate_override: Option<f64>,
}

type Shared = Arc<Mutex<Fake>>;

fn usd(ticker: &str) -> Option<f64> {
    match ticker {
        "btc" => Some(60_000.0),
        "eth" => Some(3_000.0),
        "usdt" => Some(1.0),
        "ltc" => Some(85.0),
        _ => None,
    }
}

fn network_fee(ticker: &str) -> f64 {
    match ticker {
        "eth" => 0.002,
        "btc" => 0.0001,
        _ => 1.0,
    }
}

fn refusal(status: FakeStatus, error: &str, message: &str) -> Response {
    (status, Json(json!({ "error": error, "message": message }))).into_response()
}

/// Round to 8 decimals, as ChangeNOW's numbers are.
fn r8(x: f64) -> f64 {
    (x * 1e8).round() / 1e8
}

struct Pair {
    from: String,
    to: String,
    fixed: bool,
    min: f64,
    rate: f64,
    fee: f64,
}

fn pair_of(q: &HashMap<String, String>) -> Result<Pair, Response> {
    let (Some(from), Some(to)) = (q.get("fromCurrency"), q.get("toCurrency")) else {
        return Err(refusal(
            FakeStatus::BAD_REQUEST,
            "not_valid_params",
            "fromCurrency is required",
        ));
    };
    let (Some(from_usd), Some(to_usd)) = (usd(from), usd(to)) else {
        return Err(refusal(
            FakeStatus::BAD_REQUEST,
            "not_valid_params",
            &format!("Currency {from} is not supported"),
        ));
    };
    if from == "ltc" && to == "usdt" {
        return Err(refusal(
            FakeStatus::BAD_REQUEST,
            "pair_is_inactive",
            "Pair is inactive",
        ));
    }
    let fixed = q.get("flow").map(String::as_str) == Some("fixed-rate");
    Ok(Pair {
        from: from.clone(),
        to: to.clone(),
        fixed,
        min: 20.0 / from_usd,
        rate: from_usd / to_usd * if fixed { 0.985 } else { 0.995 },
        fee: network_fee(to),
    })
}

/// The pair `q` names, at the fake's rate for it.
fn priced(fake: &Shared, q: &HashMap<String, String>) -> Result<Pair, Response> {
    let mut pair = pair_of(q)?;
    if let Some(rate) = fake.lock().unwrap().rate_override {
        pair.rate = rate;
        pair.fee = 0.0;
    }
    Ok(pair)
}

fn seen(fake: &Shared, what: String) -> Result<(), Response> {
    let mut fake = fake.lock().unwrap();
    fake.calls.push(what);
    if fake.busy {
        let mut response = refusal(
            FakeStatus::TOO_MANY_REQUESTS,
            "too_many_requests",
            "Too many requests",
        );
        response
            .headers_mut()
            .insert("retry-after", "7".parse().unwrap());
        return Err(response);
    }
    Ok(())
}

fn keyed(headers: &HeaderMap) -> Result<(), Response> {
    match headers
        .get("x-changenow-api-key")
        .and_then(|v| v.to_str().ok())
    {
        Some(KEY) => Ok(()),
        _ => Err(refusal(
            FakeStatus::UNAUTHORIZED,
            "unauthorized",
            "Invalid api key",
        )),
    }
}

fn query_text(q: &HashMap<String, String>) -> String {
    let mut pairs: Vec<_> = q.iter().map(|(k, v)| format!("{k}={v}")).collect();
    pairs.sort();
    pairs.join("&")
}

async fn currencies(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if let Err(r) =
        seen(&fake, format!("GET currencies?{}", query_text(&q))).and_then(|()| keyed(&headers))
    {
        return r;
    }
    let coin = |ticker: &str, network: &str, buy: bool, sell: bool| {
        json!({ "ticker": ticker, "name": ticker.to_uppercase(), "image": "", "hasExternalId": false,
                "isExtraIdSupported": false, "isFiat": false, "featured": true, "isStable": ticker == "usdt",
                "supportsFixedRate": true, "network": network, "tokenContract": null,
                "buy": buy, "sell": sell, "legacyTicker": ticker })
    };
    Json(json!([
        coin("btc", "btc", true, true),
        coin("eth", "eth", true, true),
        coin("usdt", "eth", true, true),
        // ChangeNOW does not buy LTC now: the customer cannot send it.
        coin("ltc", "ltc", false, true),
        { "ticker": "usd", "name": "US Dollar", "isFiat": true, "network": "usd", "buy": true, "sell": false },
    ]))
    .into_response()
}

async fn range(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if let Err(r) =
        seen(&fake, format!("GET range?{}", query_text(&q))).and_then(|()| keyed(&headers))
    {
        return r;
    }
    match priced(&fake, &q) {
        Err(r) => r,
        Ok(pair) => Json(json!({
            "fromCurrency": pair.from, "fromNetwork": q.get("fromNetwork"), "toCurrency": pair.to,
            "toNetwork": q.get("toNetwork"), "flow": q.get("flow"),
            "minAmount": r8(pair.min), "maxAmount": if pair.fixed { json!(r8(pair.min * 5000.0)) } else { Value::Null },
        }))
        .into_response(),
    }
}

async fn estimate(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if let Err(r) =
        seen(&fake, format!("GET estimate?{}", query_text(&q))).and_then(|()| keyed(&headers))
    {
        return r;
    }
    let mut pair = match priced(&fake, &q) {
        Ok(pair) => pair,
        Err(r) => return r,
    };
    let reverse = q.get("type").map(String::as_str) == Some("reverse");
    let freezing = pair.fixed && q.get("useRateId").map(String::as_str) == Some("true");
    if freezing {
        pair.rate *= 1.0 - fake.lock().unwrap().frozen_lower_by;
    }
    let amount = |field: &str| {
        q.get(field)
            .and_then(|a| a.parse::<f64>().ok())
            .filter(|a| *a > 0.0)
    };
    let (from_amount, to_amount) = if reverse {
        let Some(to) = amount("toAmount") else {
            return refusal(
                FakeStatus::BAD_REQUEST,
                "not_valid_params",
                "toAmount must be greater then 0",
            );
        };
        (r8((to + pair.fee) / pair.rate), to)
    } else {
        let Some(from) = amount("fromAmount") else {
            return refusal(
                FakeStatus::BAD_REQUEST,
                "not_valid_params",
                "fromAmount must be greater then 0",
            );
        };
        (from, r8(from * pair.rate - pair.fee))
    };
    if from_amount < pair.min {
        return refusal(
            FakeStatus::BAD_REQUEST,
            "deposit_too_small",
            "Amount is less then minimal",
        );
    }
    let mut answer = json!({
        "fromCurrency": pair.from, "fromNetwork": q.get("fromNetwork"), "toCurrency": pair.to,
        "toNetwork": q.get("toNetwork"), "flow": q.get("flow"), "type": if reverse { "reverse" } else { "direct" },
        "rateId": null, "validUntil": null, "transactionSpeedForecast": "10-60", "warningMessage": null,
        "fromAmount": from_amount, "toAmount": to_amount, "depositFee": 0, "withdrawalFee": pair.fee,
    });
    if freezing {
        let mut fake = fake.lock().unwrap();
        let id = format!("rate{}", fake.rate_ids.len() + 1);
        let key = format!("{}-{}", pair.from, pair.to);
        let amount = if reverse { to_amount } else { from_amount };
        fake.rate_ids
            .insert(id.clone(), (key, amount.to_string(), to_amount));
        answer["rateId"] = json!(id);
        answer["validUntil"] = json!("2099-01-01T00:20:00.000Z");
    }
    Json(answer).into_response()
}

fn valid_address(ticker: &str, address: &str) -> bool {
    match ticker {
        "eth" | "usdt" => {
            address.len() == 42 && address.starts_with("0x") && address != REFUSED_ETH
        }
        "btc" => address.starts_with("bc1") || address.starts_with('1') || address.starts_with('3'),
        _ => !address.is_empty(),
    }
}

async fn create(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Err(r) = seen(&fake, "POST exchange".into()).and_then(|()| keyed(&headers)) {
        return r;
    }
    let text = |field: &str| body[field].as_str().unwrap_or_default().to_owned();
    let mut q: HashMap<String, String> = HashMap::new();
    for field in ["fromCurrency", "toCurrency", "flow"] {
        q.insert(field.into(), text(field));
    }
    let pair = match priced(&fake, &q) {
        Ok(pair) => pair,
        Err(r) => return r,
    };
    if !valid_address(&pair.to, &text("address")) {
        return refusal(
            FakeStatus::BAD_REQUEST,
            "not_valid_address",
            "Invalid withdrawal address",
        );
    }
    let mut fake = fake.lock().unwrap();
    let (from_amount, to_amount) = if pair.fixed {
        let rate_id = text("rateId");
        let Some((key, amount, to)) = fake.rate_ids.get(&rate_id).cloned() else {
            return refusal(
                FakeStatus::BAD_REQUEST,
                "rate_id_not_found_or_expired",
                "Rate id not found or expired",
            );
        };
        let asked = if text("type") == "reverse" {
            text("toAmount")
        } else {
            text("fromAmount")
        };
        if fake.rates_expire_at_once
            || key != format!("{}-{}", pair.from, pair.to)
            || asked.parse::<f64>().ok() != amount.parse().ok()
        {
            return refusal(
                FakeStatus::BAD_REQUEST,
                "rate_id_not_found_or_expired",
                "Rate id not found or expired",
            );
        }
        (r8((to + pair.fee) / pair.rate), to)
    } else {
        let Some(from) = text("fromAmount").parse::<f64>().ok() else {
            return refusal(
                FakeStatus::BAD_REQUEST,
                "not_valid_params",
                "fromAmount is required",
            );
        };
        if from < pair.min {
            return refusal(
                FakeStatus::BAD_REQUEST,
                "out_of_range",
                "Amount is less then minimal",
            );
        }
        (from, r8(from * pair.rate - pair.fee))
    };
    fake.created.push(body.clone());
    let id = format!("cn{:012x}", fake.created.len());
    let payin = format!("bc1qchangenowpayin{}", fake.created.len());
    let exchange = json!({
        "id": id, "status": "new", "actionsAvailable": false,
        "fromCurrency": pair.from, "fromNetwork": body["fromNetwork"], "toCurrency": pair.to,
        "toNetwork": body["toNetwork"], "flow": body["flow"], "type": body["type"],
        "expectedAmountFrom": from_amount, "expectedAmountTo": to_amount,
        "amountFrom": null, "amountTo": null, "payinAddress": payin, "payoutAddress": body["address"],
        "payinExtraId": null, "payoutExtraId": body["extraId"], "refundAddress": body["refundAddress"],
        "refundExtraId": null, "createdAt": "2026-11-27T10:00:00.000Z", "updatedAt": "2026-11-27T10:00:00.000Z",
        "depositReceivedAt": null, "payinHash": null, "payoutHash": null, "refundHash": null,
        "refundAmount": null, "validUntil": if pair.fixed { json!("2099-01-01T00:20:00.000Z") } else { Value::Null },
    });
    fake.exchanges.insert(id.clone(), exchange);
    Json(json!({
        "id": id, "fromAmount": from_amount, "toAmount": to_amount, "flow": body["flow"], "type": body["type"],
        "payinAddress": payin, "payoutAddress": body["address"], "payinExtraId": "", "payoutExtraId": body["extraId"],
        "fromCurrency": pair.from, "fromNetwork": body["fromNetwork"], "toCurrency": pair.to,
        "toNetwork": body["toNetwork"], "refundAddress": "", "refundExtraId": "", "payoutExtraIdName": null,
        "rateId": body["rateId"],
    }))
    .into_response()
}

async fn by_id(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if let Err(r) =
        seen(&fake, format!("GET by-id?{}", query_text(&q))).and_then(|()| keyed(&headers))
    {
        return r;
    }
    let fake = fake.lock().unwrap();
    match q.get("id").and_then(|id| fake.exchanges.get(id)) {
        Some(exchange) => Json(exchange.clone()).into_response(),
        None => refusal(FakeStatus::NOT_FOUND, "not_found", "Exchange not found"),
    }
}

/// A documented action on an exchange that offers it (`actionsAvailable`): `apply` carries it
/// out, and ChangeNOW offers no action while it does.
fn act(fake: &Shared, body: &Value, action: &str, apply: impl FnOnce(&mut Value)) -> Response {
    let mut fake = fake.lock().unwrap();
    let id = body["id"].as_str().unwrap_or_default().to_owned();
    let Some(exchange) = fake.exchanges.get_mut(&id) else {
        return refusal(FakeStatus::NOT_FOUND, "not_found", "Exchange not found");
    };
    if exchange["actionsAvailable"] != true {
        return refusal(
            FakeStatus::BAD_REQUEST,
            "not_available",
            &format!("{action} not available for exchange {id}"),
        );
    }
    exchange["actionsAvailable"] = json!(false);
    apply(exchange);
    Json(if action == "Refund" {
        json!({ "result": true })
    } else {
        json!({ "result": { "result": true, "data": { "estimate": { "amount": 2.1, "currency": "eth", "network": "eth" } } } })
    })
    .into_response()
}

async fn refund(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Err(r) = seen(&fake, format!("POST refund {body}")).and_then(|()| keyed(&headers)) {
        return r;
    }
    // The order stays failed while ChangeNOW refunds it.
    act(&fake, &body, "Refund", |exchange| {
        exchange["refundAddress"] = body["address"].clone();
    })
}

async fn continue_exchange(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Err(r) = seen(&fake, format!("POST continue {body}")).and_then(|()| keyed(&headers)) {
        return r;
    }
    act(&fake, &body, "Continue", |exchange| {
        exchange["status"] = json!("exchanging");
    })
}

async fn fake_changenow() -> (String, Shared) {
    let fake: Shared = Arc::default();
    let router = Router::new()
        .route("/v2/exchange/currencies", get(currencies))
        .route("/v2/exchange/range", get(range))
        .route("/v2/exchange/estimated-amount", get(estimate))
        .route("/v2/exchange", post(create))
        .route("/v2/exchange/by-id", get(by_id))
        .route("/v2/exchange/refund", post(refund))
        .route("/v2/exchange/continue", post(continue_exchange))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    (url, fake)
}

/// A Ferry on `db` whose one upstream is the fake ChangeNOW at `url`.
async fn ferry_at(url: &str, db: Db) -> Option<TestApp> {
    spawn_app_with(db, |c| {
        c.providers = vec!["changenow".into()];
        c.upstreams = vec![UpstreamSettings {
            name: "changenow".into(),
            api: UpstreamApi::ChangeNow,
            url: url.to_owned(),
            key: KEY.into(),
            secret: String::new().into(),
            weight_per_minute: 100_000,
        }];
        c.provider_poll_seconds = 1;
        c.worker_interval_ms = 100;
        c.admin_token = Some(ADMIN.into());
    })
    .await
}

/// Changes the fake's exchange `id` as ChangeNOW would as the order moves on.
fn set(fake: &Shared, id: &str, fields: Value) {
    let mut fake = fake.lock().unwrap();
    let exchange = fake.exchanges.get_mut(id).expect("an exchange at the fake");
    for (field, value) in fields.as_object().unwrap() {
        exchange[field] = value.clone();
    }
}

fn upstream_id(app: &TestApp, id: &str) -> impl std::future::Future<Output = String> {
    let store = app.store.clone();
    let id = id.to_owned();
    async move {
        store
            .find_order(&id)
            .await
            .unwrap()
            .unwrap()
            .provider_order_id
            .expect("filled at ChangeNOW")
    }
}

// ---- the tests ----

async fn a_float_order_at_changenow_is_quoted_at_its_estimate_and_followed_to_completion(db: Db) {
    let (url, fake) = fake_changenow().await;
    let Some(ferry) = ferry_at(&url, db).await else {
        return;
    };
    // Ferry's quote is what ChangeNOW pays for the amount (its estimate is net of the network
    // fee, and Ferry's fee is the partner account's share there).
    let quote = quote_of(&ferry, "0.1", "float").await;
    assert_eq!(quote["code"], 0, "{quote}");
    let estimate = 0.1 * 20.0 * 0.995 - 0.002;
    let quoted = dec(&quote["data"]["to"]["amount"]);
    assert!(
        (quoted - estimate).abs() < 1e-6,
        "quoted {quoted}, ChangeNOW pays {estimate}"
    );
    // Dollars as ChangeNOW values the coin (its estimate into USDT), not the catalogue's.
    assert_eq!(quote["data"]["from"]["usd"], "5970.00", "{quote}");
    // The minimum is ChangeNOW's (20 USD of BTC here).
    assert_eq!(quote["data"]["from"]["min"], "0.00033333", "{quote}");
    {
        let calls = &fake.lock().unwrap().calls;
        let range = calls
            .iter()
            .find(|c| c.starts_with("GET range"))
            .expect("a range call");
        assert_eq!(
            range,
            "GET range?flow=standard&fromCurrency=btc&fromNetwork=btc&toCurrency=eth&toNetwork=eth"
        );
    }

    let created = create_order(&ferry, "0.1", "from", "float").await;
    let (id, token) = id_and_token(&created);
    let reference = upstream_id(&ferry, id).await;
    let sent = fake.lock().unwrap().created[0].clone();
    assert_eq!(
        sent,
        json!({ "fromCurrency": "btc", "fromNetwork": "btc", "toCurrency": "eth", "toNetwork": "eth",
                "address": ETH_ADDRESS, "extraId": "", "refundAddress": "", "refundExtraId": "",
                "flow": "standard", "type": "direct", "fromAmount": "0.1" }),
        "the documented body, amounts as strings"
    );
    assert_eq!(
        created["from"]["address"], "bc1qchangenowpayin1",
        "the customer pays ChangeNOW"
    );
    assert!(
        (dec(&created["to"]["amount"]) - estimate).abs() < 1e-8,
        "{created}"
    );

    // ChangeNOW's steps, as its status answers them.
    set(
        &fake,
        &reference,
        json!({ "status": "confirming", "amountFrom": 0.1, "payinHash": "f00d01" }),
    );
    wait_for(&ferry, id, token, "CONFIRMING").await;
    set(&fake, &reference, json!({ "status": "exchanging" }));
    wait_for(&ferry, id, token, "EXCHANGE").await;
    set(
        &fake,
        &reference,
        json!({ "status": "sending", "amountTo": 1.9880 }),
    );
    wait_for(&ferry, id, token, "SENDING").await;
    set(
        &fake,
        &reference,
        json!({ "status": "finished", "payoutHash": "0xbeef02" }),
    );
    let done = wait_for(&ferry, id, token, "COMPLETED").await;
    assert_eq!(done["transactions"]["deposit"]["id"], "f00d01", "{done}");
    assert_eq!(done["transactions"]["payout"]["id"], "0xbeef02", "{done}");
    assert_eq!(done["transactions"]["payout"]["amount"], "1.988", "{done}");

    // The operator sees ChangeNOW's own word for it.
    let asked = ferry
        .client
        .get(ferry.url(&format!("/api/admin/orders/{id}/upstream")))
        .bearer_auth(ADMIN)
        .send()
        .await
        .unwrap();
    let asked = json_of(asked).await;
    assert_eq!(
        (&asked["raw_status"], &asked["reference"]),
        (&json!("finished"), &json!(reference)),
        "{asked}"
    );
}

async fn a_short_deposit_at_changenow_asks_the_customer_and_the_refund_goes_to_their_address(
    db: Db,
) {
    let (url, fake) = fake_changenow().await;
    let Some(ferry) = ferry_at(&url, db).await else {
        return;
    };
    let created = create_order(&ferry, "0.1", "from", "fixed").await;
    let (id, token) = id_and_token(&created);
    let reference = upstream_id(&ferry, id).await;
    // Half of a fixed order's amount arrives: ChangeNOW can refund it or go on with it.
    set(
        &fake,
        &reference,
        json!({ "status": "failed", "actionsAvailable": true, "amountFrom": 0.05, "payinHash": "f00d03" }),
    );
    let emergency = wait_for(&ferry, id, token, "EMERGENCY").await;
    assert_eq!(emergency["emergency"]["reason"], "LESS", "{emergency}");

    choose_on(&ferry, (id, token), "REFUND", Some(BTC_REFUND)).await;
    let refund_call = format!(
        "POST refund {}",
        json!({ "address": BTC_REFUND, "id": reference })
    );
    assert!(
        fake.lock().unwrap().calls.contains(&refund_call),
        "{:?}",
        fake.lock().unwrap().calls
    );
    // While ChangeNOW refunds, its order stays `failed` without actions: Ferry's order waits
    // with the customer's choice (asking again is answered as taken), never a failure.
    tokio::time::sleep(std::time::Duration::from_millis(2_500)).await;
    let waiting = crate::upstream::details(&ferry, id, token).await;
    assert_eq!(waiting["status"], "EMERGENCY", "{waiting}");
    assert_eq!(waiting["emergency"]["choice"], "REFUND", "{waiting}");
    set(
        &fake,
        &reference,
        json!({ "status": "refunded", "refundHash": "f00d04", "refundAmount": 0.0499 }),
    );
    let refunded = wait_for(&ferry, id, token, "REFUNDED").await;
    assert_eq!(
        refunded["transactions"]["refund"]["id"], "f00d04",
        "{refunded}"
    );
    assert_eq!(
        refunded["transactions"]["refund"]["amount"], "0.0499",
        "{refunded}"
    );
    let events: Vec<_> = ferry
        .store
        .order_events(id, 0)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.status)
        .collect();
    assert_eq!(
        events,
        ["NEW", "EMERGENCY", "REFUNDED"],
        "no failure in the history"
    );
}

#[tokio::test]
async fn a_fixed_order_at_changenow_is_made_with_the_rate_it_froze_for_that_amount() {
    let (url, fake) = fake_changenow().await;
    let ferry = ferry_at(&url, Db::Sqlite).await.expect("sqlite");
    let quote = quote_of(&ferry, "0.1", "fixed").await;
    let quoted = dec(&quote["data"]["to"]["amount"]);
    let estimate = 0.1 * 20.0 * 0.985 - 0.002;
    assert!(
        (quoted - estimate).abs() < 1e-6,
        "quoted {quoted}, ChangeNOW's fixed estimate {estimate}"
    );

    let created = create_order(&ferry, "0.1", "from", "fixed").await;
    let sent = fake.lock().unwrap().created[0].clone();
    assert_eq!(
        (&sent["flow"], &sent["type"], &sent["fromAmount"]),
        (&json!("fixed-rate"), &json!("direct"), &json!("0.1"))
    );
    assert_eq!(
        sent["rateId"], "rate1",
        "the rate frozen for this order: {sent}"
    );
    let frozen_for = fake
        .lock()
        .unwrap()
        .calls
        .iter()
        .filter(|c| c.starts_with("GET estimate") && c.contains("useRateId=true"))
        .cloned()
        .collect::<Vec<_>>();
    assert_eq!(frozen_for.len(), 1, "{frozen_for:?}");
    assert!(frozen_for[0].contains("fromAmount=0.1"), "{frozen_for:?}");
    assert!(
        (dec(&created["to"]["amount"]) - estimate).abs() < 1e-8,
        "{created}"
    );

    // ChangeNOW's rate fell between the quote and the order: the order it made is for less
    // than the customer was shown, so the customer is asked first, with ChangeNOW's amount.
    fake.lock().unwrap().frozen_lower_by = 0.01;
    let shown = quote_of(&ferry, "0.1", "fixed").await["data"]["to"]["amount"].clone();
    let response = ferry
        .post_json(
            "/api/create-order",
            &json!({"fromCcy": "BTC", "toCcy": "ETH", "amount": "0.1", "toAddress": ETH_ADDRESS,
                    "type": "fixed", "expectedToAmount": shown}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    let lower = json_of(response).await;
    let now = dec(&lower["data"]["to_amount"]);
    assert!(
        (now - (0.1 * 20.0 * 0.985 * 0.99 - 0.002)).abs() < 1e-6,
        "{lower}"
    );
    assert_eq!(
        count_orders(&ferry).await,
        1,
        "no order below what was shown"
    );
    fake.lock().unwrap().frozen_lower_by = 0.0;

    // A frozen rate that has run out by the time the order comes: the customer hears why and
    // no order is made.
    fake.lock().unwrap().rates_expire_at_once = true;
    let response = ferry
        .post_json(
            "/api/create-order",
            &json!({"fromCcy": "BTC", "toCcy": "ETH", "amount": "0.1", "toAddress": ETH_ADDRESS, "type": "fixed"}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        json_of(response).await["msg"],
        "Rate id not found or expired"
    );
    assert_eq!(fake.lock().unwrap().created.len(), 2);
    assert_eq!(count_orders(&ferry).await, 1);

    // More than ordered arrives at the first order: the customer goes on with the exchange,
    // and ChangeNOW is told to continue.
    let (id, token) = id_and_token(&created);
    let reference = upstream_id(&ferry, id).await;
    set(
        &fake,
        &reference,
        json!({ "status": "failed", "actionsAvailable": true, "amountFrom": 0.12, "payinHash": "f00d05" }),
    );
    let emergency = wait_for(&ferry, id, token, "EMERGENCY").await;
    assert_eq!(emergency["emergency"]["reason"], "MORE", "{emergency}");
    choose_on(&ferry, (id, token), "EXCHANGE", None).await;
    let continued = format!("POST continue {}", json!({ "id": reference }));
    assert!(
        fake.lock().unwrap().calls.contains(&continued),
        "{:?}",
        fake.lock().unwrap().calls
    );
    wait_for(&ferry, id, token, "EXCHANGE").await;
}

#[tokio::test]
async fn changenow_refusals_and_back_pressure_reach_the_customer_and_leave_no_order() {
    let (url, fake) = fake_changenow().await;
    let ferry = ferry_at(&url, Db::Sqlite).await.expect("sqlite");
    // An address ChangeNOW will not pay: its words, no order.
    let response = ferry
        .post_json(
            "/api/create-order",
            &json!({"fromCcy": "BTC", "toCcy": "ETH", "amount": "0.1", "toAddress": REFUSED_ETH, "type": "float"}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(json_of(response).await["msg"], "Invalid withdrawal address");

    // A pair ChangeNOW has switched off is unavailable, not an error page.
    let inactive = ferry
        .post_json(
            "/api/exchange-rate",
            &json!({"from_currency": "LTC", "to_currency": "USDT", "amount": "1", "direction": "from", "type": "float"}),
        )
        .await;
    let inactive = json_of(inactive).await;
    assert_eq!(
        inactive["data"]["errors"],
        json!(["PAIR_UNAVAILABLE"]),
        "{inactive}"
    );
    let refused = ferry
        .post_json(
            "/api/create-order",
            &json!({"fromCcy": "LTC", "toCcy": "USDT", "amount": "1", "toAddress": ETH_ADDRESS, "type": "float"}),
        )
        .await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        json_of(refused).await["msg"],
        "Network temporarily suspended"
    );

    // ChangeNOW's list says it does not take LTC now: the quote says the deposit side is in
    // maintenance.
    let ltc = ferry
        .post_json(
            "/api/exchange-rate",
            &json!({"from_currency": "LTC", "to_currency": "ETH", "amount": "1", "direction": "from", "type": "float"}),
        )
        .await;
    let ltc = json_of(ltc).await;
    assert!(
        ltc["data"]["errors"]
            .as_array()
            .is_some_and(|e| e.contains(&json!("MAINTENANCE_FROM"))),
        "{ltc}"
    );

    // Too many calls: back-pressure with ChangeNOW's wait, and no order.
    fake.lock().unwrap().busy = true;
    let response = ferry
        .post_json(
            "/api/create-order",
            &json!({"fromCcy": "BTC", "toCcy": "ETH", "amount": "0.2", "toAddress": ETH_ADDRESS, "type": "float"}),
        )
        .await;
    let status = response.status();
    let body = response.text().await.unwrap();
    assert!(
        status == StatusCode::SERVICE_UNAVAILABLE || status == StatusCode::TOO_MANY_REQUESTS,
        "{status} {body}"
    );
    assert!(fake.lock().unwrap().created.is_empty());
    assert_eq!(
        count_orders(&ferry).await,
        0,
        "no order is kept of a refusal"
    );
}

#[tokio::test]
async fn with_three_upstreams_orders_go_to_the_one_paying_most_and_are_followed_there() {
    use crate::upstream::{quote, settings_for, upstream_charging};
    let dear = upstream_charging("3", "4").await;
    let cheap = upstream_charging("0.2", "0.4").await;
    let (url, fake) = fake_changenow().await;
    let upstreams = vec![
        settings_for(&dear, "dear", "desk@dear.test").await,
        settings_for(&cheap, "cheap", "desk@cheap.test").await,
        UpstreamSettings {
            name: "changenow".into(),
            api: UpstreamApi::ChangeNow,
            url: url.clone(),
            key: KEY.into(),
            secret: String::new().into(),
            weight_per_minute: 100_000,
        },
    ];
    let ferry = spawn_app_with(Db::Sqlite, |c| {
        // The test asks for quotes until the new prices show.
        c.quote_rate_per_minute = 100_000;
        c.providers = upstreams.iter().map(|u| u.name.clone()).collect();
        c.upstreams = upstreams;
        c.provider_poll_seconds = 1;
        c.worker_interval_ms = 100;
        c.admin_token = Some(ADMIN.into());
    })
    .await
    .expect("sqlite");

    // ChangeNOW pays 10 % less than the cheaper Ferry: the quote and the order are the Ferry's.
    let cheap_quote = dec(&quote(&cheap, "0.1").await["data"]["to"]["amount"]);
    fake.lock().unwrap().rate_override = Some(cheap_quote / 0.1 * 0.9);
    let ours = dec(&quote(&ferry, "0.1").await["data"]["to"]["amount"]);
    assert!(
        ours < cheap_quote && ours > cheap_quote * 0.99,
        "ours {ours}, cheap {cheap_quote}"
    );
    let created = create_order(&ferry, "0.1", "from", "float").await;
    let (id, token) = id_and_token(&created);
    let first = ferry.store.find_order(id).await.unwrap().unwrap();
    assert_eq!(first.provider, "cheap");
    // The customer never sees which upstream fills the order.
    let shown = crate::upstream::details(&ferry, id, token).await;
    assert!(!shown.to_string().contains("cheap"), "{shown}");

    // ChangeNOW answers again and pays 5 % more than the cheaper Ferry: once the prices kept
    // for a few seconds (also by the rate files, in the background) have passed, quotes and
    // orders go there, and the order is followed to its end.
    let paying = cheap_quote / 0.1 * 1.05;
    fake.lock().unwrap().rate_override = Some(paying);
    let ferry_ref = &ferry;
    crate::partners::eventually("ChangeNOW's price quoted", || async move {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        let ours = dec(&quote(ferry_ref, "0.1").await["data"]["to"]["amount"]);
        (ours - 0.1 * paying).abs() < 1e-6
    })
    .await;
    let created = create_order(&ferry, "0.1", "from", "float").await;
    let (id, token) = id_and_token(&created);
    let order = ferry.store.find_order(id).await.unwrap().unwrap();
    assert_eq!(
        order.provider, "changenow",
        "the customer is paid most there"
    );
    let reference = order.provider_order_id.unwrap();
    set(
        &fake,
        &reference,
        json!({ "status": "confirming", "amountFrom": 0.1, "payinHash": "f00d06" }),
    );
    set(
        &fake,
        &reference,
        json!({ "status": "finished", "amountTo": 0.1 * paying, "payoutHash": "0xbeef07" }),
    );
    let done = wait_for(&ferry, id, token, "COMPLETED").await;
    assert_eq!(done["transactions"]["payout"]["id"], "0xbeef07", "{done}");

    // The status page lists each upstream.
    let status = json_of(ferry.get("/api/status").await).await;
    for key in ["provider:dear", "provider:cheap", "provider:changenow"] {
        assert!(
            status["services"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["key"] == key),
            "{key}: {status}"
        );
    }
}
