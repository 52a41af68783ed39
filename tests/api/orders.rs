//! Orders: create, details, tracking, the sandbox lifecycle over SSE, emergencies, expiry,
//! idempotency, the recent feed and bad input (spec/exchange.md §3, §4, §7, §9).

use std::time::Duration;

use ferry::domain::address::validate_address;
use ferry::domain::currency::Catalogue;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::Row;

use crate::helpers::{Db, STILL_PRICES_AT, TestApp, json_of, raw_store, spawn_app_with};
use crate::on_both_backends;

const ADMIN: &str = "orders-admin-token";
const ETH_ADDRESS: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const BTC_ADDRESS: &str = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";

on_both_backends!(
    an_order_driven_by_a_sandbox_deposit_reaches_completed_with_every_event_on_sse,
    a_short_deposit_on_a_fixed_order_asks_the_customer_and_the_refund_choice_refunds_it,
    fifty_concurrent_creations_with_one_idempotency_key_make_one_order,
);

async fn app_on(db: Db) -> Option<TestApp> {
    spawn_app_with(db, |c| {
        c.admin_token = Some(ADMIN.into());
        c.sandbox_step_seconds = 0;
        c.worker_interval_ms = 50;
    })
    .await
}

async fn app() -> TestApp {
    app_on(Db::Sqlite).await.expect("sqlite")
}

fn btc_to_eth(amount: &str) -> Value {
    json!({
        "fromCcy": "BTC", "toCcy": "ETH", "amount": amount, "toAddress": ETH_ADDRESS,
        "direction": "from", "type": "float",
        "metadata": "{\"from_usd_value\":\"1050.00\",\"to_usd_value\":\"1044.75\"}"
    })
}

async fn create(app: &TestApp, body: &Value) -> (StatusCode, Value) {
    let response = app.post_json("/api/create-order", body).await;
    let status = response.status();
    (status, json_of(response).await)
}

async fn create_ok(app: &TestApp, body: &Value) -> Value {
    let (status, answer) = create(app, body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["code"], 0, "{answer}");
    answer["data"].clone()
}

async fn deposit(app: &TestApp, id: &str, amount: Option<&str>) -> (StatusCode, Value) {
    let mut body = json!({ "order_id": id });
    if let Some(amount) = amount {
        body["amount"] = json!(amount);
    }
    let response = app
        .client
        .post(app.url("/api/admin/sandbox/deposit"))
        .bearer_auth(ADMIN)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, json_of(response).await)
}

async fn details(app: &TestApp, id: &str, token: &str) -> Value {
    let response = app
        .get(&format!("/api/order-details/{id}?token={token}"))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    json_of(response).await["data"].clone()
}

async fn wait_for_status(app: &TestApp, order: &Value, wanted: &str) -> Value {
    let (id, token) = (
        order["id"].as_str().unwrap(),
        order["token"].as_str().unwrap(),
    );
    for _ in 0..100 {
        let current = details(app, id, token).await;
        if current["status"] == wanted {
            return current;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("order {id} never reached {wanted}");
}

async fn count_orders(app: &TestApp) -> i64 {
    let raw = raw_store(&app.db).await;
    sqlx::query("SELECT COUNT(*) AS n FROM orders")
        .fetch_one(raw.pool())
        .await
        .unwrap()
        .try_get("n")
        .unwrap()
}

#[tokio::test]
async fn a_created_order_has_the_spec_shape_and_a_valid_deposit_address() {
    let app = app().await;
    let order = create_ok(&app, &btc_to_eth("0.01")).await;
    assert_eq!(order["id"].as_str().unwrap().len(), 16);
    assert_eq!(order["token"].as_str().unwrap().len(), 32);
    assert_eq!(
        (order["status"].clone(), order["type"].clone()),
        (json!("NEW"), json!("float"))
    );
    let from = &order["from"];
    assert_eq!(
        (
            from["amount"].clone(),
            from["code"].clone(),
            from["coin"].clone(),
            from["network"].clone()
        ),
        (json!("0.01"), json!("BTC"), json!("BTC"), json!("BTC"))
    );
    let btc = Catalogue::embedded().get("BTC").unwrap();
    assert_eq!(
        validate_address(btc.family, "BTC", from["address"].as_str().unwrap()),
        Ok(())
    );
    assert_eq!(from["tag"], Value::Null);
    assert!(from["usd"].as_str().unwrap().parse::<f64>().unwrap() > 0.0);
    let to = &order["to"];
    assert_eq!(
        (to["code"].clone(), to["address"].clone()),
        (json!("ETH"), json!(ETH_ADDRESS))
    );
    assert!(to["amount"].as_str().unwrap().parse::<f64>().unwrap() > 0.0);
    let time = &order["time"];
    let left = time["left"].as_i64().unwrap();
    assert!((1790..=1800).contains(&left), "{left}");
    assert_eq!(
        time["expiration"].as_i64().unwrap() - time["reg"].as_i64().unwrap(),
        1800
    );
    assert_eq!(
        order["metadata"],
        "{\"from_usd_value\":\"1050.00\",\"to_usd_value\":\"1044.75\"}"
    );
    assert_eq!(order["progress"], 20);
    // No refund address given (the widget sends the destination only where it is valid for
    // the send coin): none is stored, and the refund choice asks for one.
    assert_eq!(order["refund"]["address"], Value::Null);
}

#[tokio::test]
async fn a_coin_with_a_tag_gets_a_deposit_tag_and_its_label() {
    let app = app().await;
    let order = create_ok(
        &app,
        &json!({"fromCcy": "XRP", "toCcy": "BTC", "amount": "300", "toAddress": BTC_ADDRESS, "type": "fixed", "direction": "from"}),
    )
    .await;
    assert_eq!(order["from"]["tagName"], "Destination tag");
    assert!(
        order["from"]["tag"]
            .as_str()
            .unwrap()
            .parse::<u32>()
            .is_ok()
    );
    assert!(
        order["time"]["rateExpiration"].as_i64().unwrap() - order["time"]["reg"].as_i64().unwrap()
            == 600
    );
}

#[tokio::test]
async fn a_valid_refund_address_for_the_send_coin_is_kept() {
    let app = app().await;
    let order = create_ok(
        &app,
        &json!({"fromCcy": "ETH", "toCcy": "USDT", "amount": "1", "toAddress": ETH_ADDRESS, "refundAddress": ETH_ADDRESS}),
    )
    .await;
    assert_eq!(order["refund"]["address"], ETH_ADDRESS);
}

#[tokio::test]
async fn a_wrong_refund_address_or_memo_is_refused_not_dropped() {
    let app = app().await;
    let mut body = btc_to_eth("0.01");
    // The destination, which is no BTC address, sent as the refund address.
    body["refundAddress"] = json!(ETH_ADDRESS);
    let (status, answer) = create(&app, &body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer["msg"],
        "Refund address: Invalid BTC (BTC) address format"
    );
    body["refundAddress"] = json!(BTC_ADDRESS);
    body["refundTag"] = json!("<b>x</b>");
    let (status, answer) = create(&app, &body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(answer["msg"], "BTC (BTC) takes no memo or tag");
    // Nor a memo on a destination that has none.
    let mut eth_tag = btc_to_eth("0.01");
    eth_tag["tag"] = json!("<b>x</b>");
    let (status, answer) = create(&app, &eth_tag).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(answer["msg"], "ETH (ERC20) takes no memo or tag");
    assert_eq!(count_orders(&app).await, 0);
}

#[tokio::test]
async fn details_need_the_token_and_unknown_or_wrong_ones_are_plain_404s() {
    let app = app().await;
    let order = create_ok(&app, &btc_to_eth("0.01")).await;
    let id = order["id"].as_str().unwrap();
    for path in [
        format!("/api/order-details/{id}"),
        format!("/api/order-details/{id}?token=00000000000000000000000000000000"),
        format!(
            "/api/order-details/NOSUCHORDER00000?token={}",
            order["token"].as_str().unwrap()
        ),
    ] {
        let response = app.get(&path).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(json_of(response).await["msg"], "Order not found");
    }
    let shown = details(&app, id, order["token"].as_str().unwrap()).await;
    assert_eq!(shown["id"], order["id"]);
    assert_eq!(shown["metadata"], order["metadata"]);
}

#[tokio::test]
async fn tracking_is_public_and_shows_no_addresses() {
    let app = app().await;
    let order = create_ok(&app, &btc_to_eth("0.01")).await;
    let body = json_of(
        app.post_json("/api/track-order", &json!({"order_id": order["id"]}))
            .await,
    )
    .await;
    assert_eq!(body["data"]["status"], "NEW");
    assert_eq!(body["data"]["from"]["code"], "BTC");
    let text = body.to_string();
    assert!(
        !text.contains(ETH_ADDRESS) && !text.contains(order["from"]["address"].as_str().unwrap())
    );
    assert!(!text.contains(order["token"].as_str().unwrap()));
    let missing = app
        .post_json("/api/track-order", &json!({"order_id": "NOPE"}))
        .await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
}

async fn an_order_driven_by_a_sandbox_deposit_reaches_completed_with_every_event_on_sse(db: Db) {
    let Some(app) = app_on(db).await else { return };
    let order = create_ok(&app, &btc_to_eth("0.01")).await;
    let (id, token) = (
        order["id"].as_str().unwrap().to_owned(),
        order["token"].as_str().unwrap().to_owned(),
    );

    let mut stream = app
        .client
        .get(app.url(&format!("/api/orders/{id}/events?token={token}")))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    assert!(
        stream.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );

    let (status, deposited) = deposit(&app, &id, None).await;
    assert_eq!(status, StatusCode::OK, "{deposited}");
    assert_eq!(deposited["data"]["status"], "CONFIRMING");

    let mut seen = Vec::new();
    let mut text = String::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while !seen.contains(&"COMPLETED".to_owned()) {
        let chunk = tokio::time::timeout_at(deadline, stream.chunk())
            .await
            .expect("SSE in time")
            .unwrap();
        let Some(chunk) = chunk else { break };
        text.push_str(&String::from_utf8_lossy(&chunk));
        seen = text
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .map(|d| {
                serde_json::from_str::<Value>(d).unwrap()["status"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
    }
    assert_eq!(
        seen,
        ["NEW", "CONFIRMING", "EXCHANGE", "SENDING", "COMPLETED"]
    );
    // The browser reconnects after the stream ends: the order is over and it has the last
    // event, so it is told not to come back (204) rather than given a stream that ends again.
    let last_id = text
        .lines()
        .filter_map(|l| l.strip_prefix("id: "))
        .next_back()
        .unwrap()
        .to_owned();
    let resumed = app
        .client
        .get(app.url(&format!("/api/orders/{id}/events?token={token}")))
        .header("last-event-id", last_id)
        .send()
        .await
        .unwrap();
    assert_eq!(resumed.status(), StatusCode::NO_CONTENT);

    let done = details(&app, &id, &token).await;
    assert_eq!(done["progress"], 100);
    assert_eq!(done["to"]["sent"], done["to"]["amount"]);
    assert!(done["time"]["finish"].as_i64().is_some());

    // The recent feed shows this order, and nothing invented.
    let recent = json_of(app.get("/api/recent-transactions").await).await;
    let list = recent.as_array().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["from_currency"], "BTC");
    assert_eq!(list[0]["from_amount"], "0.01");
    assert_eq!(list[0]["to_currency"], "ETH");
    assert_eq!(list[0]["to_amount"], done["to"]["amount"]);
    assert!(list[0]["execution_time"].as_i64().unwrap() >= 0);
    assert!(!recent.to_string().contains(&id));
}

async fn a_short_deposit_on_a_fixed_order_asks_the_customer_and_the_refund_choice_refunds_it(
    db: Db,
) {
    let Some(app) = app_on(db).await else { return };
    let mut body = btc_to_eth("0.01");
    body["type"] = json!("fixed");
    let order = create_ok(&app, &body).await;
    let (id, token) = (
        order["id"].as_str().unwrap(),
        order["token"].as_str().unwrap(),
    );

    let (status, answer) = deposit(&app, id, Some("0.008")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["data"]["status"], "EMERGENCY");
    assert_eq!(answer["data"]["emergency"]["reason"], "LESS");
    assert_eq!(answer["data"]["emergency"]["choice"], "NONE");

    // A refund needs an address valid for the send coin.
    let refused = app
        .post_json(
            "/api/order-emergency",
            &json!({"id": id, "token": token, "choice": "REFUND"}),
        )
        .await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    assert_eq!(json_of(refused).await["msg"], "Enter a refund address");
    let wrong = app
        .post_json(
            "/api/order-emergency",
            &json!({"id": id, "token": token, "choice": "REFUND", "address": ETH_ADDRESS}),
        )
        .await;
    assert_eq!(wrong.status(), StatusCode::BAD_REQUEST);

    let chosen = app
        .post_json(
            "/api/order-emergency",
            &json!({"id": id, "token": token, "choice": "REFUND", "address": BTC_ADDRESS}),
        )
        .await;
    assert_eq!(chosen.status(), StatusCode::OK);
    let refunded = wait_for_status(&app, &order, "REFUNDED").await;
    assert_eq!(refunded["refund"]["address"], BTC_ADDRESS);
    assert_eq!(refunded["emergency"]["choice"], "REFUND");

    let again = app
        .post_json(
            "/api/order-emergency",
            &json!({"id": id, "token": token, "choice": "EXCHANGE"}),
        )
        .await;
    assert_eq!(again.status(), StatusCode::CONFLICT);
}

#[tokio::test]
async fn continuing_after_an_emergency_exchanges_what_arrived() {
    let app = app().await;
    let mut body = btc_to_eth("0.01");
    body["type"] = json!("fixed");
    let order = create_ok(&app, &body).await;
    let (id, token) = (
        order["id"].as_str().unwrap(),
        order["token"].as_str().unwrap(),
    );
    deposit(&app, id, Some("0.012")).await;
    let chosen = app
        .post_json(
            "/api/order-emergency",
            &json!({"id": id, "token": token, "choice": "EXCHANGE"}),
        )
        .await;
    assert_eq!(chosen.status(), StatusCode::OK);
    let done = wait_for_status(&app, &order, "COMPLETED").await;
    let (ordered, paid) = (
        order["to"]["amount"]
            .as_str()
            .unwrap()
            .parse::<f64>()
            .unwrap(),
        done["to"]["sent"].as_str().unwrap().parse::<f64>().unwrap(),
    );
    assert!(paid > ordered * 1.15, "{ordered} → {paid}");
}

#[tokio::test]
async fn an_order_without_a_deposit_expires_and_a_late_deposit_needs_a_decision() {
    let app = app().await;
    let order = create_ok(&app, &btc_to_eth("0.01")).await;
    let id = order["id"].as_str().unwrap();
    assert_eq!(
        app.orders
            .expire_overdue(ferry::now_unix() + 60)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        app.orders
            .expire_overdue(ferry::now_unix() + 1801)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        wait_for_status(&app, &order, "EXPIRED").await["progress"],
        20
    );
    let (status, late) = deposit(&app, id, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(late["data"]["status"], "EMERGENCY");
    assert_eq!(late["data"]["emergency"]["reason"], "EXPIRED");
    let events = app.store.order_events(id, 0).await.unwrap();
    let statuses: Vec<_> = events.iter().map(|e| e.status.as_str()).collect();
    assert_eq!(statuses, ["NEW", "EXPIRED", "EMERGENCY"]);
}

#[tokio::test]
async fn the_refund_address_can_be_set_while_the_order_runs() {
    let app = app().await;
    let order = create_ok(&app, &btc_to_eth("0.01")).await;
    let (id, token) = (
        order["id"].as_str().unwrap(),
        order["token"].as_str().unwrap(),
    );
    let bad = app
        .post_json(
            "/api/order-refund-address",
            &json!({"id": id, "token": token, "address": ETH_ADDRESS}),
        )
        .await;
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    let good = app
        .post_json(
            "/api/order-refund-address",
            &json!({"id": id, "token": token, "address": BTC_ADDRESS}),
        )
        .await;
    assert_eq!(good.status(), StatusCode::OK);
    assert_eq!(
        details(&app, id, token).await["refund"]["address"],
        BTC_ADDRESS
    );
    let stranger = app
        .post_json(
            "/api/order-refund-address",
            &json!({"id": id, "token": "ab", "address": BTC_ADDRESS}),
        )
        .await;
    assert_eq!(stranger.status(), StatusCode::NOT_FOUND);
}

async fn fifty_concurrent_creations_with_one_idempotency_key_make_one_order(db: Db) {
    let Some(app) = app_on(db).await else { return };
    let body = btc_to_eth("0.01");
    let requests = (0..50).map(|_| {
        app.client
            .post(app.url("/api/create-order"))
            .header("idempotency-key", "retry-42")
            .json(&body)
            .send()
    });
    let answers = futures_util::future::join_all(requests).await;
    let mut ids = std::collections::HashSet::new();
    for answer in answers {
        let answer = answer.unwrap();
        assert_eq!(answer.status(), StatusCode::OK);
        let body = json_of(answer).await;
        ids.insert(body["data"]["id"].as_str().unwrap().to_owned());
        assert!(body["data"]["token"].as_str().is_some());
    }
    assert_eq!(ids.len(), 1);
    assert_eq!(count_orders(&app).await, 1);
}

#[tokio::test]
async fn deposit_addresses_are_never_reused() {
    let app = app().await;
    let mut addresses = std::collections::HashSet::new();
    for _ in 0..25 {
        let order = create_ok(&app, &btc_to_eth("0.01")).await;
        assert!(addresses.insert(order["from"]["address"].as_str().unwrap().to_owned()));
    }
}

#[tokio::test]
async fn the_recent_feed_starts_empty() {
    let app = app().await;
    create_ok(&app, &btc_to_eth("0.01")).await;
    assert_eq!(
        json_of(app.get("/api/recent-transactions").await).await,
        json!([])
    );
}

#[tokio::test]
async fn the_deposit_simulator_is_for_the_operator_only() {
    let app = app().await;
    let order = create_ok(&app, &btc_to_eth("0.01")).await;
    let body = json!({"order_id": order["id"]});
    let anonymous = app.post_json("/api/admin/sandbox/deposit", &body).await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let no_admin = spawn_app_with(Db::Sqlite, |_| {}).await.unwrap();
    let hidden = no_admin
        .post_json("/api/admin/sandbox/deposit", &body)
        .await;
    assert_eq!(hidden.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn on_a_sandbox_the_order_holder_can_simulate_the_deposit_and_nobody_else() {
    let app = app().await;
    let order = create_ok(&app, &btc_to_eth("0.01")).await;
    let (id, token) = (
        order["id"].as_str().unwrap(),
        order["token"].as_str().unwrap(),
    );
    let simulate = |body: Value| {
        let app = &app;
        async move { app.post_json("/api/sandbox/deposit", &body).await }
    };

    let stranger = simulate(json!({"id": id, "token": "0".repeat(32)})).await;
    assert_eq!(stranger.status(), StatusCode::NOT_FOUND);
    let bad_amount = simulate(json!({"id": id, "token": token, "amount": "ten"})).await;
    assert_eq!(bad_amount.status(), StatusCode::BAD_REQUEST);
    assert_eq!(details(&app, id, token).await["status"], "NEW");

    let deposited = simulate(json!({"id": id, "token": token})).await;
    assert_eq!(deposited.status(), StatusCode::OK);
    let deposited = json_of(deposited).await;
    assert_eq!(deposited["code"], 0, "{deposited}");
    assert_ne!(deposited["data"]["status"], "NEW", "{deposited}");
    wait_for_status(&app, &order, "COMPLETED").await;

    let again = simulate(json!({"id": id, "token": token})).await;
    assert_eq!(again.status(), StatusCode::CONFLICT);
    assert_eq!(
        json_of(again).await["msg"],
        "The order is not awaiting a deposit"
    );
}

#[tokio::test]
async fn bad_orders_get_a_clear_400_and_nothing_is_stored() {
    let app = app().await;
    let with = |key: &str, value: Value| {
        let mut body = btc_to_eth("0.01");
        body[key] = value;
        body
    };
    let without = |key: &str| {
        let mut body = btc_to_eth("0.01");
        body.as_object_mut().unwrap().remove(key);
        body
    };
    let cases = [
        (
            with("toAddress", json!("0x123")),
            "Invalid ETH (ERC20) address format",
        ),
        (
            with(
                "toAddress",
                json!("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"),
            ),
            "checksum",
        ),
        (
            with("toAddress", json!("")),
            "Enter your ETH (ERC20) address",
        ),
        (
            with("toAddress", json!(BTC_ADDRESS)),
            "Invalid ETH (ERC20) address format",
        ),
        (with("amount", json!("0.000001")), "minimum"),
        (with("amount", json!("500")), "You exceeded the limit of"),
        (with("amount", json!("-1")), "greater than zero"),
        (with("amount", json!("1e400")), "too large"),
        (with("fromCcy", json!("NOPE")), "Unknown currency NOPE"),
        (with("type", json!("magic")), "type"),
        (with("metadata", json!("not json")), "metadata"),
        (with("tag", json!("x".repeat(300))), "memo"),
        (without("toAddress"), "toAddress"),
        (without("amount"), "amount"),
    ];
    for (body, expected) in cases {
        let (status, answer) = create(&app, &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body} → {answer}");
        assert_ne!(answer["code"], 0);
        let msg = answer["msg"].as_str().unwrap();
        assert!(
            msg.contains(expected),
            "{body}: {msg:?} should contain {expected:?}"
        );
    }
    let malformed = app
        .client
        .post(app.url("/api/create-order"))
        .header("content-type", "application/json")
        .body("{\"fromCcy\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(malformed.status(), StatusCode::BAD_REQUEST);
    assert_eq!(count_orders(&app).await, 0);
}

#[tokio::test]
async fn with_the_autopilot_the_sandbox_deposits_and_completes_by_itself() {
    let app = spawn_app_with(Db::Sqlite, |c| {
        c.sandbox_autopilot = Some(0);
        c.sandbox_step_seconds = 0;
        c.worker_interval_ms = 50;
    })
    .await
    .unwrap();
    let order = create_ok(&app, &btc_to_eth("0.01")).await;
    let done = wait_for_status(&app, &order, "COMPLETED").await;
    assert_eq!(done["from"]["received"], "0.01");
}

#[tokio::test]
async fn a_reconnecting_event_stream_resumes_after_the_last_event_it_saw() {
    let app = app().await;
    let order = create_ok(&app, &btc_to_eth("0.01")).await;
    let (id, token) = (
        order["id"].as_str().unwrap(),
        order["token"].as_str().unwrap(),
    );
    deposit(&app, id, None).await;
    wait_for_status(&app, &order, "COMPLETED").await;
    let events = app.store.order_events(id, 0).await.unwrap();
    let third = events[2].id;
    let body = app
        .client
        .get(app.url(&format!("/api/orders/{id}/events?token={token}")))
        .header("last-event-id", third.to_string())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let statuses: Vec<String> = body
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| {
            serde_json::from_str::<Value>(d).unwrap()["status"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        statuses,
        ["SENDING", "COMPLETED"],
        "the stream ends after a final status"
    );
}

#[tokio::test]
async fn the_operator_can_close_a_sandbox_orders_deposit_window_at_once() {
    let app = app().await;
    let order = create_ok(&app, &btc_to_eth("0.01")).await;
    let expire = |token: &'static str| {
        let (client, url) = (app.client.clone(), app.url("/api/admin/sandbox/expire"));
        let body = json!({ "order_id": order["id"] });
        async move {
            client
                .post(url)
                .bearer_auth(token)
                .json(&body)
                .send()
                .await
                .unwrap()
        }
    };
    assert_eq!(expire("wrong").await.status(), StatusCode::UNAUTHORIZED);
    let expired = expire(ADMIN).await;
    assert_eq!(expired.status(), StatusCode::OK);
    assert_eq!(json_of(expired).await["data"]["status"], "EXPIRED");
    assert_eq!(
        expire(ADMIN).await.status(),
        StatusCode::CONFLICT,
        "only a NEW order"
    );
}

#[tokio::test]
async fn a_fixed_order_whose_amount_changed_since_the_quote_asks_first_and_makes_nothing() {
    // Still prices: the amount the refusal names is the amount the next order gives.
    let app = spawn_app_with(Db::Sqlite, |c| c.sandbox_prices_at = Some(STILL_PRICES_AT))
        .await
        .expect("sqlite");
    let mut body = btc_to_eth("0.1");
    body["type"] = json!("fixed");
    body["expectedToAmount"] = json!("1000");
    let before = count_orders(&app).await;
    let (status, refused) = create(&app, &body).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    let now = refused["data"]["to_amount"]
        .as_str()
        .expect("the new amount")
        .to_owned();
    assert_eq!(
        refused["message"],
        format!("The amount changed: you would now receive {now} ETH").as_str()
    );
    assert_eq!(count_orders(&app).await, before, "no order was made");

    // Confirmed at the new amount.
    body["expectedToAmount"] = json!(now);
    let order = create_ok(&app, &body).await;
    assert_eq!(order["to"]["amount"], now.as_str());

    // Shown less than the order gives now: nothing to confirm, the order gives what it gives.
    body["expectedToAmount"] = json!("0.00000001");
    let better = create_ok(&app, &body).await;
    assert_eq!(better["to"]["amount"], now.as_str());

    // A float amount is an estimate: no confirmation asked for.
    let mut float = btc_to_eth("0.1");
    float["expectedToAmount"] = json!("0.00000001");
    create_ok(&app, &float).await;
    float["expectedToAmount"] = json!("a lot");
    assert_eq!(create(&app, &float).await.0, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn an_address_of_another_chain_is_named_for_what_it_is() {
    let app = app().await;
    let check = |currency: &'static str, address: &'static str| {
        let app = &app;
        async move {
            let response = app
                .post_json(
                    "/api/validate-address",
                    &json!({ "currency": currency, "address": address }),
                )
                .await;
            assert_eq!(response.status(), StatusCode::OK);
            json_of(response).await["data"].clone()
        }
    };
    let bitcoin_in_eth = check("ETH", BTC_ADDRESS).await;
    assert_eq!(bitcoin_in_eth["valid"], false);
    assert_eq!(bitcoin_in_eth["looks_like"]["network"], "BTC");
    assert_eq!(bitcoin_in_eth["looks_like"]["networkName"], "Bitcoin");
    let fine = check("USDTBSC", ETH_ADDRESS).await;
    assert_eq!(fine["valid"], true);
    assert_eq!(fine["looks_like"], Value::Null);
    let typo = check("ETH", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD").await;
    assert_eq!(typo["reason"], "checksum");
    assert_eq!(
        typo["looks_like"],
        Value::Null,
        "a typo is not another chain"
    );
    let nonsense = check("BTC", "hello world").await;
    assert_eq!(nonsense["looks_like"], Value::Null);
}

#[tokio::test]
async fn the_site_counts_only_what_really_completed() {
    let app = app().await;
    let order = create_ok(&app, &btc_to_eth("0.1")).await;
    deposit(&app, order["id"].as_str().unwrap(), None).await;
    wait_for_status(&app, &order, "COMPLETED").await;
    create_ok(&app, &btc_to_eth("0.2")).await;
    let response = app.get("/api/site-stats").await;
    assert_eq!(response.status(), StatusCode::OK);
    let stats = json_of(response).await;
    assert_eq!(stats["completed_orders"], 1, "{stats}");
    let volume: f64 = stats["volume_usd"].as_str().unwrap().parse().unwrap();
    let from_usd: f64 = order["from"]["usd"].as_str().unwrap().parse().unwrap();
    assert!((volume - from_usd).abs() < 0.011, "{stats} vs {from_usd}");
}

#[tokio::test]
async fn a_guest_can_have_the_orders_news_mailed_without_an_account() {
    let app = app().await;
    let order = create_ok(&app, &btc_to_eth("0.1")).await;
    let (id, token) = (
        order["id"].as_str().unwrap(),
        order["token"].as_str().unwrap(),
    );
    let ask = |email: &'static str, token: String| {
        let app = &app;
        async move {
            let response = app
                .post_json(
                    "/api/order-email",
                    &json!({ "id": id, "token": token, "email": email }),
                )
                .await;
            (response.status(), json_of(response).await)
        }
    };
    assert_eq!(
        ask("guest@example.com", "00".repeat(16)).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        ask("not an address", token.to_owned()).await.0,
        StatusCode::BAD_REQUEST
    );
    let (status, answer) = ask("guest@example.com", token.to_owned()).await;
    assert_eq!((status, answer["code"].as_i64()), (StatusCode::OK, Some(0)));

    deposit(&app, id, None).await;
    wait_for_status(&app, &order, "COMPLETED").await;
    let mails = app.store.mail_to("guest@example.com").await.unwrap();
    assert!(
        mails
            .iter()
            .any(|m| m.subject.contains("completed")
                && m.body.contains(&format!("/order-details/{id}"))),
        "{:?}",
        mails.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert_eq!(
        ask("late@example.com", token.to_owned()).await.0,
        StatusCode::CONFLICT,
        "nothing more to tell once it is over"
    );
}
