//! Ferry filling its orders at an upstream provider over the FixedFloat API v2: here another
//! Ferry on the sandbox, reached over HTTP exactly as FixedFloat itself would be. The customer
//! pays the upstream's deposit address; Ferry follows the order there and tells its own
//! customer every step.

use std::time::Duration;

use ferry::config::{UpstreamApi, UpstreamSettings};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::Row;

use crate::helpers::{Db, STILL_PRICES_AT, TestApp, json_of, raw_store, spawn_app_with};
use crate::on_both_backends;
use crate::partners::{ADMIN, ETH_ADDRESS, partner};

/// The upstream: a Ferry on the sandbox whose steps follow one another at once, with room for
/// the calls of a downstream Ferry that quotes, looks at orders every second and publishes rates.
async fn upstream() -> TestApp {
    spawn_app_with(Db::Sqlite, |c| {
        c.admin_token = Some(ADMIN.into());
        c.sandbox_step_seconds = 0;
        c.worker_interval_ms = 50;
        c.partner_rate_per_minute = 100_000;
        c.sandbox_prices_at = Some(STILL_PRICES_AT);
    })
    .await
    .expect("sqlite")
}

on_both_backends!(
    quotes_come_from_the_upstream_and_an_order_filled_there_is_followed_to_completion,
    a_short_deposit_upstream_asks_the_customer_and_their_refund_is_passed_on,
    memo_coin_orders_upstream_each_get_their_own_tag_and_one_upstream_order,
);

/// `upstream` as an upstream named `name`, signing with a new trade key of a partner's there.
pub(crate) async fn settings_for(upstream: &TestApp, name: &str, email: &str) -> UpstreamSettings {
    let desk = partner(upstream, email, true).await;
    let (key, secret, _) = upstream.create_key(&desk, "trade").await;
    UpstreamSettings {
        name: name.to_owned(),
        api: UpstreamApi::FixedFloat,
        url: upstream.url("").trim_end_matches('/').to_owned(),
        key,
        secret: secret.into(),
        weight_per_minute: 100_000,
    }
}

/// A downstream Ferry on `db` filling its orders at `upstreams`.
async fn downstream_with(upstreams: Vec<UpstreamSettings>, db: Db) -> Option<TestApp> {
    spawn_app_with(db, |c| {
        c.providers = upstreams.iter().map(|u| u.name.clone()).collect();
        c.upstreams = upstreams;
        c.provider_poll_seconds = 1;
        c.worker_interval_ms = 100;
        c.admin_token = Some(ADMIN.into());
    })
    .await
}

/// A downstream Ferry on `db` whose provider is `upstream`.
async fn downstream_of(upstream: &TestApp, email: &str, db: Db) -> Option<TestApp> {
    downstream_with(vec![settings_for(upstream, "fixedfloat", email).await], db).await
}

pub(crate) async fn quote(app: &TestApp, amount: &str) -> Value {
    quote_of(app, amount, "float").await
}

pub(crate) async fn quote_of(app: &TestApp, amount: &str, rate_type: &str) -> Value {
    let response = app
        .post_json(
            "/api/exchange-rate",
            &json!({"from_currency": "BTC", "to_currency": "ETH", "amount": amount,
                    "direction": "from", "type": rate_type}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    json_of(response).await
}

/// Orders `amount` BTC → ETH (ETH for `direction` "to") at `rate_type`; the answer's `data`.
pub(crate) async fn create_order(
    app: &TestApp,
    amount: &str,
    direction: &str,
    rate_type: &str,
) -> Value {
    let response = app
        .post_json(
            "/api/create-order",
            &json!({"fromCcy": "BTC", "toCcy": "ETH", "amount": amount, "toAddress": ETH_ADDRESS,
                    "direction": direction, "type": rate_type}),
        )
        .await;
    let (status, created) = (response.status(), json_of(response).await);
    assert_eq!(status, StatusCode::OK, "{created}");
    created["data"].clone()
}

/// The `id` and `token` of a created order's answer.
pub(crate) fn id_and_token(created: &Value) -> (&str, &str) {
    (
        created["id"].as_str().expect("an order id"),
        created["token"].as_str().expect("an order token"),
    )
}

/// The customer's emergency `choice` on the order (with a refund `address`), which is taken.
pub(crate) async fn choose_on(
    app: &TestApp,
    (id, token): (&str, &str),
    choice: &str,
    address: Option<&str>,
) {
    let mut body = json!({ "id": id, "token": token, "choice": choice });
    if let Some(address) = address {
        body["address"] = json!(address);
    }
    let chose = app.post_json("/api/order-emergency", &body).await;
    let status = chose.status();
    assert_eq!(status, StatusCode::OK, "{}", chose.text().await.unwrap());
}

pub(crate) fn dec(value: &Value) -> f64 {
    value
        .as_str()
        .expect("decimal string")
        .parse()
        .expect("decimal")
}

pub(crate) async fn details(app: &TestApp, id: &str, token: &str) -> Value {
    let response = app
        .get(&format!("/api/order-details/{id}?token={token}"))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    json_of(response).await["data"].clone()
}

pub(crate) async fn wait_for(app: &TestApp, id: &str, token: &str, wanted: &str) -> Value {
    for _ in 0..150 {
        let current = details(app, id, token).await;
        if current["status"] == wanted {
            return current;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let last = details(app, id, token).await;
    panic!("order {id} never reached {wanted}: {last}");
}

/// The order `id` as the downstream keeps it, and as the upstream that fills it keeps it.
async fn both_sides(
    downstream: &TestApp,
    upstream: &TestApp,
    id: &str,
) -> (ferry::store::OrderRecord, ferry::store::OrderRecord) {
    let ours = downstream.store.find_order(id).await.unwrap().unwrap();
    let upstream_id = ours.provider_order_id.as_deref().expect("filled upstream");
    let theirs = upstream
        .store
        .find_order(upstream_id)
        .await
        .unwrap()
        .unwrap();
    (ours, theirs)
}

async fn quotes_come_from_the_upstream_and_an_order_filled_there_is_followed_to_completion(db: Db) {
    let upstream = upstream().await;
    let Some(downstream) = downstream_of(&upstream, "desk@ferry.test", db).await else {
        return;
    };

    // Ferry's quote is the upstream's price less Ferry's own fee (0.5 % on float).
    let theirs = dec(&quote(&upstream, "0.1").await["data"]["to"]["amount"]);
    let ours = quote(&downstream, "0.1").await;
    assert_eq!(ours["code"], 0, "{ours}");
    let ours = dec(&ours["data"]["to"]["amount"]);
    assert!(
        ours < theirs && ours > theirs * 0.99,
        "ours {ours}, upstream {theirs}"
    );

    let created = create_order(&downstream, "0.1", "from", "float").await;
    let (id, token) = id_and_token(&created);
    let (ours, theirs) = both_sides(&downstream, &upstream, id).await;
    let upstream_id = theirs.id.clone();
    assert_eq!(
        theirs.deposit_address, ours.deposit_address,
        "the customer pays the upstream"
    );
    assert_eq!(
        theirs.to_address, ETH_ADDRESS,
        "the upstream pays the customer"
    );
    assert_eq!(
        (ours.from_amount, ours.to_amount),
        (theirs.from_amount, theirs.to_amount),
        "Ferry holds the customer to the upstream's amounts"
    );
    assert_eq!(
        theirs.partner_fee_percent.map(|p| p.to_string()),
        Some("0.5".to_owned()),
        "Ferry's fee is its share at the upstream"
    );
    assert_eq!(created["status"], "NEW");

    upstream.deposit(&upstream_id, None).await;
    let done = wait_for(&downstream, id, token, "COMPLETED").await;
    // The upstream's transactions are the customer's, with links to public explorers.
    let theirs = upstream
        .store
        .find_order(&upstream_id)
        .await
        .unwrap()
        .unwrap();
    // What the upstream paid out (a float order's amount is set when it exchanges).
    assert_eq!(done["to"]["amount"], json!(theirs.to_amount));
    let (deposit, payout) = (
        theirs.transactions.deposit.expect("a deposit upstream"),
        theirs.transactions.payout.expect("a payout upstream"),
    );
    let txs = &done["transactions"];
    assert_eq!(txs["deposit"]["id"], deposit.id.as_str(), "{txs}");
    assert_eq!(
        txs["deposit"]["explorer"],
        format!("https://mempool.space/tx/{}", deposit.id).as_str()
    );
    assert_eq!(txs["payout"]["id"], payout.id.as_str());
    assert_eq!(
        txs["payout"]["explorer"],
        format!("https://etherscan.io/tx/{}", payout.id).as_str()
    );
    assert_eq!(
        txs["payout"]["fee"],
        json!(payout.fee.map(|f| f.to_string()))
    );
    let events = downstream.store.order_events(id, 0).await.unwrap();
    let statuses: Vec<_> = events.iter().map(|e| e.status.as_str()).collect();
    assert_eq!(
        statuses,
        ["NEW", "CONFIRMING", "EXCHANGE", "SENDING", "COMPLETED"],
        "every step is in the history, however many one look saw"
    );
    let ours = downstream.store.find_order(id).await.unwrap().unwrap();
    assert_eq!(
        ours.next_step_at, None,
        "a finished order is not looked at again"
    );

    // The monitors' rate file asks the upstream for the popular pairs only, not for every one
    // of the ~22,000 pairs a market in memory can price.
    let mut file = String::new();
    for _ in 0..50 {
        let response = downstream.get("/rates/float.xml").await;
        if response.status() == StatusCode::OK {
            file = response.text().await.unwrap();
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let items = file.matches("<item>").count();
    assert!((1..=12).contains(&items), "{items} items: {file}");
    assert!(file.contains("<from>BTC</from><to>ETH</to>"), "{file}");
}

async fn a_short_deposit_upstream_asks_the_customer_and_their_refund_is_passed_on(db: Db) {
    let upstream = upstream().await;
    let Some(downstream) = downstream_of(&upstream, "refunds@ferry.test", db).await else {
        return;
    };
    // A fixed quote comes from the upstream's fixed market: the order holds what was quoted
    // (up to the product of the two fees, which the upstream adds instead; its prices are
    // still).
    let quoted = dec(&quote_of(&downstream, "0.11", "fixed").await["data"]["to"]["amount"]);
    let created = create_order(&downstream, "0.11", "from", "fixed").await;
    let ordered = dec(&created["to"]["amount"]);
    assert!(
        (ordered - quoted).abs() / quoted < 0.0005,
        "quoted {quoted}, ordered {ordered}"
    );
    let (id, token) = id_and_token(&created);
    let upstream_id = downstream
        .store
        .find_order(id)
        .await
        .unwrap()
        .unwrap()
        .provider_order_id
        .unwrap();

    upstream.deposit(&upstream_id, Some("0.05")).await;
    let emergency = wait_for(&downstream, id, token, "EMERGENCY").await;
    assert_eq!(emergency["emergency"]["reason"], "LESS", "{emergency}");

    // The back office asks the upstream now and shows its own words beside Ferry's.
    let asked = downstream
        .client
        .get(downstream.url(&format!("/api/admin/orders/{id}/upstream")))
        .bearer_auth(ADMIN)
        .send()
        .await
        .unwrap();
    assert_eq!(asked.status(), StatusCode::OK);
    let asked = json_of(asked).await;
    assert_eq!(
        (&asked["raw_status"], &asked["status"], &asked["reference"]),
        (
            &json!("EMERGENCY [LESS]"),
            &json!("EMERGENCY"),
            &json!(upstream_id)
        ),
        "{asked}"
    );

    let response = downstream
        .post_json(
            "/api/order-emergency",
            &json!({"id": id, "token": token, "choice": "REFUND",
                    "address": "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"}),
        )
        .await;
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "{}",
        response.text().await.unwrap()
    );
    let theirs = upstream
        .store
        .find_order(&upstream_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        theirs.emergency_choice,
        Some(ferry::domain::order::EmergencyChoice::Refund)
    );
    assert_eq!(
        theirs.refund_address.as_deref(),
        Some("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")
    );
    // The choice is final: continuing after all is refused here and never reaches the upstream.
    let again = downstream
        .post_json(
            "/api/order-emergency",
            &json!({"id": id, "token": token, "choice": "EXCHANGE"}),
        )
        .await;
    assert_eq!(again.status(), StatusCode::CONFLICT);
    let refunded = wait_for(&downstream, id, token, "REFUNDED").await;
    let theirs = upstream
        .store
        .find_order(&upstream_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(theirs.status.as_str(), "REFUNDED");
    // The refund the upstream sent is the customer's refund, amount and transaction.
    let refund = theirs.transactions.refund.expect("a refund upstream");
    assert_eq!(
        refunded["transactions"]["refund"]["id"],
        refund.id.as_str(),
        "{refunded}"
    );
    assert_eq!(
        refunded["refund"]["amount"],
        json!(refund.amount.to_string())
    );
    assert_eq!(refunded["transactions"]["payout"], Value::Null);
}

#[tokio::test]
async fn an_upstream_that_is_away_leaves_no_order_and_a_clear_answer() {
    // A port nothing listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = closed.local_addr().unwrap();
    drop(closed);
    let downstream = downstream_with(
        vec![UpstreamSettings {
            name: "fixedfloat".into(),
            api: UpstreamApi::FixedFloat,
            url: format!("http://{address}"),
            key: "key".into(),
            secret: "secret".to_owned().into(),
            weight_per_minute: 250,
        }],
        Db::Sqlite,
    )
    .await
    .expect("sqlite");
    let response = downstream
        .post_json(
            "/api/create-order",
            &json!({"fromCcy": "BTC", "toCcy": "ETH", "amount": "0.1", "toAddress": ETH_ADDRESS,
                    "direction": "from", "type": "float"}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let count = sqlx::query("SELECT COUNT(*) AS n FROM orders")
        .fetch_one(raw_store(&downstream.db).await.pool())
        .await
        .unwrap();
    assert_eq!(
        count.try_get::<i64, _>("n").unwrap(),
        0,
        "no order is made half"
    );
    let quote = downstream
        .post_json(
            "/api/exchange-rate",
            &json!({"from_currency": "BTC", "to_currency": "ETH", "amount": "0.1"}),
        )
        .await;
    assert_eq!(
        quote.status(),
        StatusCode::SERVICE_UNAVAILABLE,
        "no made-up price"
    );
    let status = json_of(downstream.get("/api/status").await).await;
    let provider = status["services"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == "provider:fixedfloat")
        .cloned()
        .expect("the upstream is on the status page");
    assert_eq!(provider["status"], "outage", "{provider}");
    assert_eq!(provider["name"], "Liquidity provider: FixedFloat");
}

#[tokio::test]
async fn an_order_for_an_amount_to_receive_asks_the_upstream_for_that_amount() {
    let upstream = upstream().await;
    let downstream = downstream_of(&upstream, "receive@ferry.test", Db::Sqlite)
        .await
        .expect("sqlite");
    let created = create_order(&downstream, "2.5", "to", "fixed").await;
    assert_eq!(created["to"]["amount"], "2.5", "{created}");
    let (ours, theirs) = both_sides(&downstream, &upstream, created["id"].as_str().unwrap()).await;
    assert_eq!(
        (theirs.direction.as_str(), theirs.to_amount.to_string()),
        ("to", "2.5".to_owned())
    );
    assert_eq!(
        ours.from_amount, theirs.from_amount,
        "what to send is the upstream's figure"
    );
}

/// An upstream whose fees (in percent) are `float` and `fixed`.
pub(crate) async fn upstream_charging(float: &str, fixed: &str) -> TestApp {
    let (float, fixed) = (float.parse().unwrap(), fixed.parse().unwrap());
    spawn_app_with(Db::Sqlite, |c| {
        c.admin_token = Some(ADMIN.into());
        c.sandbox_step_seconds = 0;
        c.worker_interval_ms = 50;
        c.partner_rate_per_minute = 100_000;
        c.sandbox_prices_at = Some(STILL_PRICES_AT);
        c.fee_float_percent = float;
        c.fee_fixed_percent = fixed;
    })
    .await
    .expect("sqlite")
}

async fn sandbox_outage(app: &TestApp, down: bool) {
    let response = app
        .client
        .put(app.url("/api/admin/sandbox/outage"))
        .bearer_auth(ADMIN)
        .json(&json!({ "down": down }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn with_two_upstreams_the_better_rate_wins_and_each_order_stays_with_its_upstream() {
    let dear = upstream_charging("3", "4").await;
    let cheap = upstream_charging("0.2", "0.4").await;
    let downstream = downstream_with(
        vec![
            settings_for(&dear, "dear", "desk@dear.test").await,
            settings_for(&cheap, "cheap", "desk@cheap.test").await,
        ],
        Db::Sqlite,
    )
    .await
    .expect("sqlite");

    let cheap_quote = dec(&quote(&cheap, "0.1").await["data"]["to"]["amount"]);
    let ours = dec(&quote(&downstream, "0.1").await["data"]["to"]["amount"]);
    assert!(
        ours < cheap_quote && ours > cheap_quote * 0.99,
        "ours {ours}, the cheaper upstream's {cheap_quote}"
    );
    let created = create_order(&downstream, "0.1", "from", "float").await;
    let id = created["id"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let ours = downstream.store.find_order(&id).await.unwrap().unwrap();
    assert_eq!(ours.provider, "cheap");
    let upstream_id = ours.provider_order_id.clone().unwrap();
    assert!(
        cheap
            .store
            .find_order(&upstream_id)
            .await
            .unwrap()
            .is_some()
    );

    // The cheaper one goes down: quotes and new orders go to the other, and the status page
    // shows each provider as it is.
    sandbox_outage(&cheap, true).await;
    tokio::time::sleep(std::time::Duration::from_millis(10_500)).await; // past the price cache
    let dear_quote = dec(&quote(&dear, "0.1").await["data"]["to"]["amount"]);
    let ours_now = dec(&quote(&downstream, "0.1").await["data"]["to"]["amount"]);
    assert!(
        ours_now < dear_quote && ours_now > dear_quote * 0.99,
        "ours {ours_now}, the dearer upstream's {dear_quote}"
    );
    let second = create_order(&downstream, "0.1", "from", "float").await;
    let second = downstream
        .store
        .find_order(second["id"].as_str().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(second.provider, "dear");
    let status = json_of(downstream.get("/api/status").await).await;
    let state_of = |key: &str| {
        status["services"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["key"] == key)
            .map(|s| s["status"].clone())
    };
    assert_eq!(
        state_of("provider:cheap"),
        Some(json!("outage")),
        "{status}"
    );
    assert_eq!(
        state_of("provider:dear"),
        Some(json!("operational")),
        "{status}"
    );

    // Back up, the first order is still followed where it was made.
    sandbox_outage(&cheap, false).await;
    cheap.deposit(&upstream_id, None).await;
    wait_for(&downstream, &id, &token, "COMPLETED").await;
}

/// Memo coins share one deposit address at the upstream too: every order is the upstream's
/// own, with its own tag, and each is opened there once.
async fn memo_coin_orders_upstream_each_get_their_own_tag_and_one_upstream_order(db: Db) {
    let upstream = upstream().await;
    let Some(downstream) = downstream_of(&upstream, "memo@ferry.test", db).await else {
        return;
    };
    for coin in ["EOS", "XRP"] {
        let mut deposits = Vec::new();
        for amount in ["100", "101"] {
            let response = downstream
                .post_json(
                    "/api/create-order",
                    &json!({"fromCcy": coin, "toCcy": "ETH", "amount": amount,
                            "toAddress": ETH_ADDRESS, "direction": "from", "type": "float"}),
                )
                .await;
            let (status, created) = (response.status(), json_of(response).await);
            assert_eq!(status, StatusCode::OK, "{coin}: {created}");
            deposits.push((
                created["data"]["from"]["address"].clone(),
                created["data"]["from"]["tag"].clone(),
            ));
        }
        assert_eq!(deposits[0].0, deposits[1].0, "{coin}: one address");
        assert_ne!(deposits[0].1, deposits[1].1, "{coin}: own tags");
    }
    let upstream_orders = sqlx::query("SELECT COUNT(*) AS n FROM orders")
        .fetch_one(raw_store(&upstream.db).await.pool())
        .await
        .unwrap()
        .try_get::<i64, _>("n")
        .unwrap();
    assert_eq!(
        upstream_orders, 4,
        "one upstream order per order, none orphaned"
    );
}

pub(crate) async fn count_orders(app: &TestApp) -> i64 {
    sqlx::query("SELECT COUNT(*) AS n FROM orders")
        .fetch_one(raw_store(&app.db).await.pool())
        .await
        .unwrap()
        .try_get("n")
        .unwrap()
}

async fn create_of(app: &TestApp, amount: String) -> reqwest::Response {
    app.post_json(
        "/api/create-order",
        &json!({"fromCcy": "BTC", "toCcy": "ETH", "amount": amount, "toAddress": ETH_ADDRESS,
                "direction": "from", "type": "float"}),
    )
    .await
}

/// A flood of orders from one client is refused before it costs the operator's upstream
/// quota: the upstream sees only what the client's budget allows.
#[tokio::test]
async fn a_create_order_flood_reaches_the_upstream_only_as_far_as_the_clients_budget() {
    let upstream = upstream().await;
    let settings = settings_for(&upstream, "fixedfloat", "flood@ferry.test").await;
    let downstream = spawn_app_with(Db::Sqlite, |c| {
        c.providers = vec![settings.name.clone()];
        c.upstreams = vec![settings];
        c.order_rate_per_minute = 3;
    })
    .await
    .expect("sqlite");
    // Twelve customers' orders at once (each its own amount: an upstream Ferry answers a
    // repeated identical request with its first order).
    let statuses = futures_util::future::join_all(
        (0..12).map(|n| create_of(&downstream, format!("0.1{n:02}"))),
    )
    .await;
    let created = statuses
        .iter()
        .filter(|r| r.status() == StatusCode::OK)
        .count();
    let refused = statuses
        .iter()
        .filter(|r| r.status() == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!((created, refused), (3, 9));
    assert_eq!(
        count_orders(&upstream).await,
        3,
        "no upstream call for a refused one"
    );
}

/// Ferry keeps within the upstream's request budget (FixedFloat: 250 units a minute, 50 per
/// order): past it, orders wait (429, busy) while quotes go on from the last good prices.
#[tokio::test]
async fn past_the_upstreams_budget_orders_wait_and_quotes_go_on_from_the_last_prices() {
    let upstream = upstream().await;
    let mut settings = settings_for(&upstream, "fixedfloat", "budget@ferry.test").await;
    settings.weight_per_minute = 200;
    let downstream = downstream_with(vec![settings], Db::Sqlite)
        .await
        .expect("sqlite");
    let mut created = 0;
    let mut busy = 0;
    for n in 0..6 {
        let response = create_of(&downstream, format!("0.1{n}")).await;
        match response.status() {
            StatusCode::OK => created += 1,
            StatusCode::TOO_MANY_REQUESTS => {
                assert!(response.headers().contains_key("retry-after"));
                let answer = json_of(response).await;
                assert!(
                    answer["msg"]
                        .as_str()
                        .unwrap()
                        .starts_with("The exchange service is busy; try again in "),
                    "{answer}"
                );
                busy += 1;
            }
            other => panic!("{other}: {}", response.text().await.unwrap()),
        }
    }
    assert!(
        (1..=3).contains(&created) && busy >= 3,
        "{created} made, {busy} busy"
    );
    assert_eq!(count_orders(&upstream).await, created as i64);
    let quote = quote(&downstream, "0.1").await;
    assert_eq!(quote["code"], 0, "{quote}");
}

/// The upstream saying "too many requests" is back-pressure: the customer is told to wait, no
/// order is half-made, and the upstream is not taken for down.
#[tokio::test]
async fn an_upstreams_429_is_passed_on_as_busy_not_counted_as_a_failure() {
    let upstream = spawn_app_with(Db::Sqlite, |c| {
        c.admin_token = Some(ADMIN.into());
        c.partner_rate_per_minute = 8;
    })
    .await
    .expect("sqlite");
    let downstream = downstream_of(&upstream, "busy@ferry.test", Db::Sqlite)
        .await
        .expect("sqlite");
    let mut answers = Vec::new();
    for n in 0..10 {
        answers.push(create_of(&downstream, format!("0.1{n}")).await.status());
    }
    assert!(
        answers
            .iter()
            .all(|s| *s == StatusCode::OK || *s == StatusCode::TOO_MANY_REQUESTS),
        "{answers:?}"
    );
    assert!(
        answers.contains(&StatusCode::TOO_MANY_REQUESTS),
        "{answers:?}"
    );
    let status = json_of(downstream.get("/api/status").await).await;
    let provider = status["services"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == "provider:fixedfloat")
        .cloned();
    assert_ne!(
        provider.as_ref().map(|p| p["status"].clone()),
        Some(json!("outage")),
        "{status}"
    );
}

#[tokio::test]
async fn a_lightning_payout_is_carried_to_the_upstream_with_its_invoice() {
    let upstream = upstream().await;
    let downstream = downstream_of(&upstream, "lightning@ferry.test", Db::Sqlite)
        .await
        .expect("sqlite");
    let invoice = ferry::domain::lightning::sign_invoice(
        "0.0004".parse().unwrap(),
        ferry::now_unix(),
        Duration::from_secs(7200),
        b"a customer's wallet",
        "payout",
    )
    .unwrap();
    let response = downstream
        .post_json(
            "/api/create-order",
            &json!({"fromCcy": "USDTTRC", "toCcy": "BTCLN", "amount": "100", "toAddress": invoice}),
        )
        .await;
    let (status, created) = (response.status(), json_of(response).await);
    assert_eq!(status, StatusCode::OK, "{created}");
    let created = &created["data"];
    assert_eq!(
        (&created["type"], &created["to"]["amount"]),
        (&json!("fixed"), &json!("0.0004"))
    );
    let (ours, theirs) = both_sides(&downstream, &upstream, created["id"].as_str().unwrap()).await;
    let upstream_id = theirs.id.clone();
    // The upstream pays the same invoice, for its amount, and counts its payment hash too.
    assert_eq!(theirs.to_address, invoice);
    assert_eq!(theirs.to_amount.to_string(), "0.0004");
    assert_eq!(theirs.payment_hash, ours.payment_hash);
    upstream.deposit(&upstream_id, None).await;
    let (id, token) = id_and_token(created);
    let done = wait_for(&downstream, id, token, "COMPLETED").await;
    assert_eq!(done["to"]["amount"], "0.0004");
}
