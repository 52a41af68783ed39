//! Ferry filling its orders at SideShift.ai (API v2), against a fake SideShift in this process
//! that answers the documented requests with the documented shapes and error forms
//! (`docs/upstreams/`): coins, pair prices, fixed quotes, fixed and variable shifts, a shift's
//! status, and the refund address.

// The fake's checks answer with the refusal itself as their error, as axum handlers do.
#![allow(clippy::result_large_err)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, Query, State};
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

const ACCOUNT: &str = "ferryaffiliate1";
const SECRET: &str = "ss-private-key";
const BTC_REFUND: &str = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";

on_both_backends!(a_variable_shift_is_quoted_at_sideshifts_rate_and_followed_to_completion,);

#[derive(Default)]
struct Fake {
    calls: Vec<String>,
    /// The customer addresses (`x-user-ip`) quotes and shifts came with.
    user_ips: Vec<String>,
    bodies: Vec<Value>,
    shifts: HashMap<String, Value>,
    quotes: HashMap<String, Value>,
}

type Shared = Arc<Mutex<Fake>>;

fn refusal(status: FakeStatus, message: &str) -> Response {
    (status, Json(json!({ "error": { "message": message } }))).into_response()
}

fn usd(coin: &str) -> Option<f64> {
    match coin {
        "btc" => Some(60_000.0),
        "eth" => Some(3_000.0),
        "usdt" => Some(1.0),
        _ => None,
    }
}

/// SideShift's rate for `amount` of `from` into `to`, with the commission taken and the
/// settle network's fee spread over the amount (as its rate "after network fees").
fn rate(from: &str, to: &str, amount: f64, commission: f64) -> Option<f64> {
    let coin = |side: &str| side.split('-').next().unwrap_or_default().to_owned();
    let (from_usd, to_usd) = (usd(&coin(from))?, usd(&coin(to))?);
    let fee_in_to = 2.0 / to_usd;
    let gross = amount * from_usd / to_usd * (1.0 - commission);
    Some(((gross - fee_in_to) / amount * 1e8).round() / 1e8)
}

fn checked(
    fake: &Shared,
    headers: &HeaderMap,
    what: String,
    needs_ip: bool,
) -> Result<(), Response> {
    let mut fake = fake.lock().unwrap();
    fake.calls.push(what);
    if headers
        .get("x-sideshift-secret")
        .and_then(|v| v.to_str().ok())
        != Some(SECRET)
    {
        return Err(refusal(FakeStatus::NOT_FOUND, "Account not found"));
    }
    if needs_ip {
        match headers.get("x-user-ip").and_then(|v| v.to_str().ok()) {
            Some(ip) => fake.user_ips.push(ip.to_owned()),
            None => {
                return Err(refusal(
                    FakeStatus::BAD_REQUEST,
                    "The x-user-ip header must be set to the end-user IP address",
                ));
            }
        }
    }
    Ok(())
}

async fn coins(State(fake): State<Shared>) -> Response {
    fake.lock().unwrap().calls.push("GET coins".into());
    Json(json!([
        { "coin": "BTC", "name": "Bitcoin", "networks": ["bitcoin"], "hasMemo": false, "fixedOnly": false,
          "variableOnly": false, "depositOffline": false, "settleOffline": false, "networksWithMemo": [] },
        { "coin": "ETH", "name": "Ethereum", "networks": ["ethereum", "arbitrum"], "hasMemo": false, "fixedOnly": false,
          "variableOnly": false, "depositOffline": ["arbitrum"], "settleOffline": false, "networksWithMemo": [] },
        { "coin": "USDT", "name": "Tether", "networks": ["ethereum", "tron"], "hasMemo": false, "fixedOnly": false,
          "variableOnly": false, "depositOffline": false, "settleOffline": false, "networksWithMemo": [] },
    ]))
    .into_response()
}

async fn pair(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Path((from, to)): Path<(String, String)>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if let Err(r) = checked(&fake, &headers, format!("GET pair/{from}/{to}"), false) {
        return r;
    }
    if q.get("affiliateId").map(String::as_str) != Some(ACCOUNT) {
        return refusal(FakeStatus::BAD_REQUEST, "Invalid \"affiliateId\"");
    }
    let commission: f64 = q
        .get("commissionRate")
        .and_then(|c| c.parse().ok())
        .unwrap_or(0.005);
    if commission > 0.02 {
        return refusal(
            FakeStatus::BAD_REQUEST,
            "Commission rate cannot be higher than 0.02",
        );
    }
    let amount: f64 = q.get("amount").and_then(|a| a.parse().ok()).unwrap_or(0.01);
    let Some(rate) = rate(&from, &to, amount, commission) else {
        return refusal(FakeStatus::INTERNAL_SERVER_ERROR, "Invalid coin");
    };
    let from_usd = usd(from.split('-').next().unwrap()).unwrap();
    Json(json!({
        "min": format!("{:.8}", 10.0 / from_usd), "max": format!("{:.8}", 30_000.0 / from_usd),
        "rate": format!("{rate:.8}"), "depositCoin": from, "settleCoin": to,
    }))
    .into_response()
}

async fn quotes(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Err(r) = checked(&fake, &headers, "POST quotes".into(), true) {
        return r;
    }
    let side = |coin: &str, network: &str| {
        format!(
            "{}-{}",
            body[coin].as_str().unwrap_or_default().to_lowercase(),
            body[network].as_str().unwrap_or_default()
        )
    };
    let (from, to) = (
        side("depositCoin", "depositNetwork"),
        side("settleCoin", "settleNetwork"),
    );
    let commission: f64 = body["commissionRate"]
        .as_str()
        .and_then(|c| c.parse().ok())
        .unwrap_or(0.005);
    let deposit: Option<f64> = body["depositAmount"].as_str().and_then(|a| a.parse().ok());
    let settle: Option<f64> = body["settleAmount"].as_str().and_then(|a| a.parse().ok());
    let (deposit, settle) = match (deposit, settle) {
        (Some(_), Some(_)) => {
            return refusal(
                FakeStatus::BAD_REQUEST,
                "Cannot specify both depositAmount and settleAmount",
            );
        }
        (Some(d), None) => (d, d * rate(&from, &to, d, commission).unwrap_or(0.0)),
        (None, Some(s)) => {
            let r = rate(&from, &to, 1.0, commission).unwrap_or(1.0);
            (s / r, s)
        }
        (None, None) => {
            return refusal(
                FakeStatus::BAD_REQUEST,
                "Bad request: Invalid parameters: depositAmount",
            );
        }
    };
    let mut fake = fake.lock().unwrap();
    fake.bodies.push(body.clone());
    let id = format!("q{}", fake.quotes.len() + 1);
    let quote = json!({
        "id": id, "createdAt": "2026-11-27T10:00:00.000Z", "depositCoin": body["depositCoin"],
        "settleCoin": body["settleCoin"], "depositNetwork": body["depositNetwork"],
        "settleNetwork": body["settleNetwork"], "expiresAt": "2099-01-01T00:15:00.000Z",
        "depositAmount": format!("{deposit:.8}"), "settleAmount": format!("{settle:.8}"),
        "rate": format!("{:.8}", settle / deposit), "affiliateId": body["affiliateId"],
    });
    fake.quotes.insert(id, quote.clone());
    Json(quote).into_response()
}

fn new_shift(fake: &mut Fake, body: &Value, fields: Value) -> Response {
    if !body["settleAddress"]
        .as_str()
        .is_some_and(|a| a.starts_with("0x") && a.len() == 42)
    {
        return refusal(FakeStatus::BAD_REQUEST, "Invalid receiving address");
    }
    fake.bodies.push(body.clone());
    let id = format!("s{:06}", fake.shifts.len() + 1);
    let mut shift = json!({
        "id": id, "createdAt": "2026-11-27T10:00:00.000Z", "depositAddress": format!("bc1qsideshift{}", fake.shifts.len() + 1),
        "settleAddress": body["settleAddress"], "refundAddress": body["refundAddress"],
        "status": "waiting", "averageShiftSeconds": "60",
    });
    for (field, value) in fields.as_object().unwrap() {
        shift[field] = value.clone();
    }
    fake.shifts.insert(id, shift.clone());
    Json(shift).into_response()
}

async fn fixed(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Err(r) = checked(&fake, &headers, "POST shifts/fixed".into(), true) {
        return r;
    }
    let mut fake = fake.lock().unwrap();
    let Some(quote) = body["quoteId"]
        .as_str()
        .and_then(|id| fake.quotes.get(id))
        .cloned()
    else {
        return refusal(FakeStatus::INTERNAL_SERVER_ERROR, "Internal Server Error");
    };
    if quote["affiliateId"] != body["affiliateId"] {
        return refusal(
            FakeStatus::BAD_REQUEST,
            "Quote has different affiliateId than input.",
        );
    }
    new_shift(
        &mut fake,
        &body,
        json!({
            "type": "fixed", "quoteId": quote["id"], "depositAmount": quote["depositAmount"],
            "settleAmount": quote["settleAmount"], "expiresAt": quote["expiresAt"],
            "depositCoin": quote["depositCoin"], "settleCoin": quote["settleCoin"],
        }),
    )
}

async fn variable(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Err(r) = checked(&fake, &headers, "POST shifts/variable".into(), true) {
        return r;
    }
    let mut fake = fake.lock().unwrap();
    new_shift(
        &mut fake,
        &body,
        json!({
            "type": "variable", "depositMin": "0.00016667", "depositMax": "0.5",
            "expiresAt": ferry::domain::calendar::utc_time_text(ferry::now_unix() + 7 * 86_400),
        "depositCoin": body["depositCoin"], "settleCoin": body["settleCoin"],
        }),
    )
}

async fn shift(State(fake): State<Shared>, Path(id): Path<String>) -> Response {
    let mut fake = fake.lock().unwrap();
    fake.calls.push(format!("GET shifts/{id}"));
    match fake.shifts.get(&id) {
        Some(shift) => Json(shift.clone()).into_response(),
        None => refusal(FakeStatus::NOT_FOUND, "Order not found"),
    }
}

async fn set_refund_address(
    State(fake): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<Value>,
) -> Response {
    if let Err(r) = checked(
        &fake,
        &headers,
        format!("POST shifts/{id}/set-refund-address {body}"),
        false,
    ) {
        return r;
    }
    let mut fake = fake.lock().unwrap();
    let Some(shift) = fake.shifts.get_mut(&id) else {
        return refusal(FakeStatus::NOT_FOUND, "Order not found");
    };
    shift["refundAddress"] = body["address"].clone();
    Json(shift.clone()).into_response()
}

async fn fake_sideshift() -> (String, Shared) {
    let fake: Shared = Arc::default();
    let router = Router::new()
        .route("/api/v2/coins", get(coins))
        .route("/api/v2/pair/{from}/{to}", get(pair))
        .route("/api/v2/quotes", post(quotes))
        .route("/api/v2/shifts/fixed", post(fixed))
        .route("/api/v2/shifts/variable", post(variable))
        .route("/api/v2/shifts/{id}", get(shift))
        .route(
            "/api/v2/shifts/{id}/set-refund-address",
            post(set_refund_address),
        )
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    (url, fake)
}

async fn ferry_at(url: &str, db: Db) -> Option<TestApp> {
    spawn_app_with(db, |c| {
        c.providers = vec!["sideshift".into()];
        c.upstreams = vec![UpstreamSettings {
            name: "sideshift".into(),
            api: UpstreamApi::SideShift,
            url: url.to_owned(),
            key: ACCOUNT.into(),
            secret: SECRET.to_owned().into(),
            weight_per_minute: 100_000,
        }];
        c.provider_poll_seconds = 1;
        c.worker_interval_ms = 100;
        c.admin_token = Some(ADMIN.into());
    })
    .await
}

fn set(fake: &Shared, id: &str, fields: Value) {
    let mut fake = fake.lock().unwrap();
    let shift = fake.shifts.get_mut(id).expect("a shift at the fake");
    for (field, value) in fields.as_object().unwrap() {
        shift[field] = value.clone();
    }
}

async fn reference(app: &TestApp, id: &str) -> String {
    app.store
        .find_order(id)
        .await
        .unwrap()
        .unwrap()
        .provider_order_id
        .expect("a shift")
}

async fn a_variable_shift_is_quoted_at_sideshifts_rate_and_followed_to_completion(db: Db) {
    let (url, fake) = fake_sideshift().await;
    let Some(ferry) = ferry_at(&url, db).await else {
        return;
    };
    // Ferry's quote is SideShift's figure with Ferry's fee as its commission (0.5 %).
    let quote = quote_of(&ferry, "0.1", "float").await;
    assert_eq!(quote["code"], 0, "{quote}");
    let theirs = 0.1 * rate("btc-bitcoin", "eth-ethereum", 0.1, 0.005).unwrap();
    let quoted = dec(&quote["data"]["to"]["amount"]);
    assert!(
        (quoted - theirs).abs() < 1e-5,
        "quoted {quoted}, SideShift pays {theirs}"
    );
    assert!(
        fake.lock()
            .unwrap()
            .calls
            .iter()
            .any(|c| c == "GET pair/btc-bitcoin/eth-ethereum"),
        "{:?}",
        fake.lock().unwrap().calls
    );

    let created = create_order(&ferry, "0.1", "from", "float").await;
    let (id, token) = id_and_token(&created);
    let shift_id = reference(&ferry, id).await;
    let sent = fake.lock().unwrap().bodies.last().cloned().unwrap();
    assert_eq!(
        sent,
        json!({ "settleAddress": ETH_ADDRESS, "affiliateId": ACCOUNT, "depositCoin": "BTC",
                "depositNetwork": "bitcoin", "settleCoin": "ETH", "settleNetwork": "ethereum",
                "commissionRate": "0.005" }),
        "the documented variable-shift body, Ferry's fee as the commission"
    );
    assert_eq!(
        fake.lock().unwrap().user_ips,
        ["127.0.0.1"],
        "the customer's address"
    );
    assert_eq!(created["from"]["address"], "bc1qsideshift1");
    assert!(
        (dec(&created["to"]["amount"]) - theirs).abs() < 1e-5,
        "{created}"
    );

    set(
        &fake,
        &shift_id,
        json!({ "status": "pending", "depositHash": "d0d0", "depositAmount": "0.1",
                                   "depositReceivedAt": "2026-11-27T10:01:00.000Z" }),
    );
    wait_for(&ferry, id, token, "CONFIRMING").await;
    set(
        &fake,
        &shift_id,
        json!({ "status": "processing", "settleAmount": "1.98" }),
    );
    wait_for(&ferry, id, token, "EXCHANGE").await;
    set(
        &fake,
        &shift_id,
        json!({ "status": "settled", "settleHash": "0xfeed" }),
    );
    let done = wait_for(&ferry, id, token, "COMPLETED").await;
    assert_eq!(done["transactions"]["deposit"]["id"], "d0d0", "{done}");
    assert_eq!(done["transactions"]["payout"]["id"], "0xfeed", "{done}");
    assert_eq!(done["transactions"]["payout"]["amount"], "1.98", "{done}");
}

#[tokio::test]
async fn a_fixed_shift_takes_a_quote_for_the_amount_and_a_refund_goes_to_the_customers_address() {
    let (url, fake) = fake_sideshift().await;
    let ferry = ferry_at(&url, Db::Sqlite).await.expect("sqlite");
    let created = create_order(&ferry, "0.1", "from", "fixed").await;
    let (id, token) = id_and_token(&created);
    let bodies = fake.lock().unwrap().bodies.clone();
    assert_eq!(bodies.len(), 2, "a quote, then the shift: {bodies:?}");
    assert_eq!(
        bodies[0],
        json!({ "depositCoin": "BTC", "depositNetwork": "bitcoin", "settleCoin": "ETH",
                "settleNetwork": "ethereum", "depositAmount": "0.1", "settleAmount": null,
                "affiliateId": ACCOUNT, "commissionRate": "0.01" }),
        "Ferry's fixed fee (1 %) as the commission"
    );
    assert_eq!(
        bodies[1],
        json!({ "settleAddress": ETH_ADDRESS, "affiliateId": ACCOUNT, "quoteId": "q1" })
    );
    let shift_id = reference(&ferry, id).await;

    // The deposit came too late: SideShift refunds it, to an address the customer gives.
    set(
        &fake,
        &shift_id,
        json!({ "status": "refund", "issue": "order expired", "depositHash": "d1d1",
                                   "depositReceivedAt": "2026-11-27T10:20:00.000Z" }),
    );
    let emergency = wait_for(&ferry, id, token, "EMERGENCY").await;
    assert_eq!(emergency["emergency"]["reason"], "EXPIRED", "{emergency}");
    choose_on(&ferry, (id, token), "REFUND", Some(BTC_REFUND)).await;
    let call = format!(
        "POST shifts/{shift_id}/set-refund-address {}",
        json!({ "address": BTC_REFUND })
    );
    assert!(
        fake.lock().unwrap().calls.contains(&call),
        "{:?}",
        fake.lock().unwrap().calls
    );
    set(
        &fake,
        &shift_id,
        json!({ "status": "refunded", "settleHash": "r1r1" }),
    );
    let refunded = wait_for(&ferry, id, token, "REFUNDED").await;
    assert_eq!(
        refunded["transactions"]["refund"]["id"], "r1r1",
        "{refunded}"
    );
    assert_eq!(
        refunded["transactions"]["payout"],
        Value::Null,
        "{refunded}"
    );
}

#[tokio::test]
async fn sideshift_refusals_reach_the_customer_and_its_offline_networks_are_in_maintenance() {
    let (url, fake) = fake_sideshift().await;
    let ferry = ferry_at(&url, Db::Sqlite).await.expect("sqlite");
    // SideShift refuses an address Ferry's checks let through: its words, no order.
    let response = ferry
        .post_json(
            "/api/create-order",
            &json!({"fromCcy": "BTC", "toCcy": "USDTTRC", "amount": "0.1", "type": "float",
                    "toAddress": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(json_of(response).await["msg"], "Invalid receiving address");
    assert_eq!(count_orders(&ferry).await, 0);

    // ETH on Arbitrum cannot be deposited at SideShift now (its coin list, read at start and
    // every minute): the quote says so.
    let ferry = &ferry;
    crate::partners::eventually("ETH on Arbitrum in maintenance", || async move {
        let quote = ferry
            .post_json(
                "/api/exchange-rate",
                &json!({"from_currency": "ETHARB", "to_currency": "BTC", "amount": "1",
                        "direction": "from", "type": "float"}),
            )
            .await;
        let quote = json_of(quote).await;
        quote["data"]["errors"]
            .as_array()
            .is_some_and(|e| e.contains(&json!("MAINTENANCE_FROM")))
    })
    .await;
    assert!(fake.lock().unwrap().calls.iter().any(|c| c == "GET coins"));
}
