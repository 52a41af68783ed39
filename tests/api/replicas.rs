//! Several replicas on one database (issue 21): what one replica is told reaches the others.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{Db, json_of, spawn_app_with, spawn_replica_of};
use crate::on_both_backends;

on_both_backends!(
    a_currency_switched_off_on_one_replica_is_off_on_another_within_a_second,
    with_redis_the_quote_limit_holds_across_replicas,
    each_interval_of_status_checks_is_recorded_once_for_all_replicas,
    every_replica_serves_the_same_rate_files,
    with_redis_an_orders_open_streams_are_counted_across_replicas,
);

const TOKEN: &str = "replicas-admin-token";

async fn a_currency_switched_off_on_one_replica_is_off_on_another_within_a_second(db: Db) {
    let Some(first) = spawn_app_with(db, |c| c.admin_token = Some(TOKEN.into())).await else {
        return;
    };
    let second = spawn_replica_of(&first, |_| {}).await;
    let xmr_send = |app: &crate::helpers::TestApp| {
        let url = app.url("/api/available-currencies");
        let client = app.client.clone();
        async move {
            let list = json_of(client.get(url).send().await.unwrap()).await;
            list.as_array()
                .unwrap()
                .iter()
                .find(|c| c["code"] == "XMR")
                .map(|c| c["send"].clone())
                .unwrap()
        }
    };
    assert_eq!(xmr_send(&second).await, json!(1));

    let switched = first
        .client
        .put(first.url("/api/admin/currency-overrides/xmr"))
        .bearer_auth(TOKEN)
        .json(&json!({ "send": false }))
        .send()
        .await
        .unwrap();
    assert_eq!(switched.status(), StatusCode::OK);
    let at = Instant::now();
    while xmr_send(&second).await != json!(0) {
        assert!(
            at.elapsed() < Duration::from_millis(1_500),
            "the other replica still lists XMR as sendable after {:?}",
            at.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A float BTC → ETH order created on `app`: its id and token.
async fn new_order(app: &crate::helpers::TestApp) -> (String, String) {
    let created = json_of(
        app.post_json(
            "/api/create-order",
            &json!({
                "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.01", "direction": "from",
                "type": "float", "toAddress": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            }),
        )
        .await,
    )
    .await;
    (
        created["data"]["id"].as_str().expect("an order").to_owned(),
        created["data"]["token"].as_str().unwrap().to_owned(),
    )
}

/// The order's events as a stream reads them: each `data:` line's status, in order.
fn statuses_in(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| {
            serde_json::from_str::<serde_json::Value>(d).unwrap()["status"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

/// Reads the stream until it has shown `wanted`, or fails after `within`.
async fn read_until(
    stream: &mut reqwest::Response,
    text: &mut String,
    wanted: &str,
    within: Duration,
) {
    let deadline = tokio::time::Instant::now() + within;
    while !statuses_in(text).iter().any(|s| s == wanted) {
        let chunk = tokio::time::timeout_at(deadline, stream.chunk())
            .await
            .unwrap_or_else(|_| panic!("{wanted} not on the stream within {within:?}: {text}"))
            .unwrap()
            .expect("the stream ended early");
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
}

/// PostgreSQL only: SQLite is one process, whose streams its own writes wake.
#[tokio::test]
async fn an_order_event_written_on_one_replica_reaches_a_stream_on_another_within_a_second() {
    let Some(first) = spawn_app_with(Db::Postgres, |c| c.admin_token = Some(TOKEN.into())).await
    else {
        return;
    };
    let second = spawn_replica_of(&first, |_| {}).await;
    let (id, token) = new_order(&first).await;
    // The stream is served by the second replica, which never writes to this order.
    let mut stream = second
        .client
        .get(second.url(&format!("/api/orders/{id}/events?token={token}")))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    let mut text = String::new();
    read_until(&mut stream, &mut text, "NEW", Duration::from_secs(5)).await;

    // Long after any poll interval would have passed, so only an announcement can wake it.
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let deposited = first
        .client
        .post(first.url("/api/admin/sandbox/deposit"))
        .bearer_auth(TOKEN)
        .json(&json!({ "order_id": id }))
        .send()
        .await
        .unwrap();
    assert_eq!(deposited.status(), StatusCode::OK);
    let at = Instant::now();
    read_until(&mut stream, &mut text, "CONFIRMING", Duration::from_secs(1)).await;
    assert!(at.elapsed() < Duration::from_secs(1), "{:?}", at.elapsed());
    assert_eq!(statuses_in(&text), ["NEW", "CONFIRMING"]);
}

/// Redis for the shared limits; `None` (the test is skipped) when FERRY_TEST_REDIS_URL is unset,
/// which `scripts/test-rust.sh` forbids on CI.
fn redis_url() -> Option<String> {
    let url = std::env::var("FERRY_TEST_REDIS_URL")
        .ok()
        .filter(|u| !u.is_empty());
    if url.is_none() {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "CI=true but FERRY_TEST_REDIS_URL is not set: the shared-limit tests must run"
        );
        eprintln!("FERRY_TEST_REDIS_URL is not set: skipping a Redis test");
    }
    url
}

async fn quote_status(app: &crate::helpers::TestApp) -> StatusCode {
    app.post_json(
        "/api/exchange-rate",
        &json!({ "from_currency": "BTC", "to_currency": "ETH", "amount": "0.1",
                 "direction": "from", "type": "float" }),
    )
    .await
    .status()
}

async fn with_redis_the_quote_limit_holds_across_replicas(db: Db) {
    let Some(redis) = redis_url() else { return };
    let limited = |c: &mut ferry::config::Config| {
        c.quote_rate_per_minute = 6;
        c.redis_url = Some(redis.clone().into());
    };
    let Some(first) = spawn_app_with(db, limited).await else {
        return;
    };
    let second = spawn_replica_of(&first, limited).await;
    let mut answered = Vec::new();
    for n in 0..10 {
        let replica = if n % 2 == 0 { &first } else { &second };
        answered.push(quote_status(replica).await);
    }
    let ok = answered.iter().filter(|s| **s == StatusCode::OK).count();
    assert_eq!(
        ok, 6,
        "six quotes a minute for the client in all, not per replica: {answered:?}"
    );
    // Another site on the same Redis (another database) has budgets of its own.
    let Some(other_site) = spawn_app_with(Db::Sqlite, limited).await else {
        return;
    };
    assert_eq!(quote_status(&other_site).await, StatusCode::OK);
}

#[tokio::test]
async fn a_redis_that_does_not_answer_leaves_the_limits_to_each_replica() {
    // Nothing listens on port 1: every call to Redis fails at once.
    let Some(app) = spawn_app_with(Db::Sqlite, |c| {
        c.quote_rate_per_minute = 3;
        c.redis_url = Some("redis://127.0.0.1:1".to_owned().into());
    })
    .await
    else {
        return;
    };
    let mut answered = Vec::new();
    for _ in 0..5 {
        answered.push(quote_status(&app).await);
    }
    assert_eq!(
        answered,
        [
            StatusCode::OK,
            StatusCode::OK,
            StatusCode::OK,
            StatusCode::TOO_MANY_REQUESTS,
            StatusCode::TOO_MANY_REQUESTS
        ]
    );
}

async fn each_interval_of_status_checks_is_recorded_once_for_all_replicas(db: Db) {
    let every_second = |c: &mut ferry::config::Config| c.status_check_seconds = 1;
    let Some(first) = spawn_app_with(db, every_second).await else {
        return;
    };
    let started = ferry::now_unix();
    let _second = spawn_replica_of(&first, every_second).await;
    let _third = spawn_replica_of(&first, every_second).await;
    tokio::time::sleep(Duration::from_millis(4_500)).await;
    let tallies = first.store.tally_status_checks(started - 1).await.unwrap();
    let seconds = ferry::now_unix() - started + 2;
    let database = tallies
        .iter()
        .find(|t| t.component == "database")
        .expect("the database is checked");
    // Three replicas checking every second: still one check a second, not three.
    assert!(
        (3..=seconds).contains(&database.total),
        "{} checks of the database in {seconds} s",
        database.total
    );
}

async fn every_replica_serves_the_same_rate_files(db: Db) {
    let every_half_minute = |c: &mut ferry::config::Config| c.rates_refresh_seconds = 30;
    let Some(first) = spawn_app_with(db, every_half_minute).await else {
        return;
    };
    // Later than the first replica's own file: one of its own would say another time.
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let second = spawn_replica_of(&first, every_half_minute).await;
    let file = |app: &crate::helpers::TestApp| {
        let request = app.client.get(app.url("/rates/float.xml"));
        async move {
            let response = request.send().await.unwrap();
            let header = |name: &str| {
                response
                    .headers()
                    .get(name)
                    .map(|v| v.to_str().unwrap().to_owned())
            };
            let validators = (header("etag"), header("last-modified"));
            (
                response.status(),
                validators,
                response.text().await.unwrap(),
            )
        }
    };
    let at = Instant::now();
    loop {
        let (a, b) = (file(&first).await, file(&second).await);
        if a.0 == StatusCode::OK && a == b {
            assert!(a.2.matches("<item>").count() > 100, "a whole file");
            // The gzipped file too: the second replica serves the very bytes the first stored.
            let gzipped = |app: &crate::helpers::TestApp| {
                let request = app
                    .client
                    .get(app.url("/rates/float.xml"))
                    .header("accept-encoding", "gzip");
                async move { request.send().await.unwrap().bytes().await.unwrap() }
            };
            let (one, other) = (gzipped(&first).await, gzipped(&second).await);
            assert_eq!(one, other);
            let mut unzipped = String::new();
            std::io::Read::read_to_string(
                &mut flate2::read::GzDecoder::new(&one[..]),
                &mut unzipped,
            )
            .unwrap();
            assert_eq!(unzipped, a.2);
            return;
        }
        assert!(
            at.elapsed() < Duration::from_secs(5),
            "the replicas serve different files: {:?} {:?} vs {:?} {:?}",
            a.0,
            a.1,
            b.0,
            b.1
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn with_redis_an_orders_open_streams_are_counted_across_replicas(db: Db) {
    let Some(redis) = redis_url() else { return };
    let two_per_order = |c: &mut ferry::config::Config| {
        c.streams_per_order = 2;
        c.redis_url = Some(redis.clone().into());
    };
    let Some(first) = spawn_app_with(db, two_per_order).await else {
        return;
    };
    let second = spawn_replica_of(&first, two_per_order).await;
    let (id, token) = new_order(&first).await;
    let path = format!("/api/orders/{id}/events?token={token}");
    let open = |app: &crate::helpers::TestApp| {
        let request = app.client.get(app.url(&path));
        async move { request.send().await.unwrap() }
    };
    let one = open(&first).await;
    let two = open(&first).await;
    assert_eq!(
        (one.status(), two.status()),
        (StatusCode::OK, StatusCode::OK)
    );
    // The order's third stream is refused on the other replica too.
    assert_eq!(open(&second).await.status(), StatusCode::TOO_MANY_REQUESTS);
    // A closed stream gives its place back to every replica.
    drop(one);
    let at = Instant::now();
    loop {
        let again = open(&second).await;
        if again.status() == StatusCode::OK {
            break;
        }
        assert!(at.elapsed() < Duration::from_secs(3), "{}", again.status());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
