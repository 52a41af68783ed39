//! A liquidity provider that hangs: quotes still answer in time (the app falls back to its
//! estimates), no order is created half, and the status page says the provider is down.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::Row;

use crate::helpers::{Db, TestApp, json_of, raw_store, spawn_app_with};
use crate::on_both_backends;

on_both_backends!(a_hanging_provider_is_cut_off_and_nothing_is_made_half);

const TOKEN: &str = "faults-admin";

async fn outage(app: &TestApp, body: Value) {
    let response = app
        .client
        .put(app.url("/api/admin/sandbox/outage"))
        .bearer_auth(TOKEN)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

async fn order_count(app: &TestApp) -> i64 {
    let store = raw_store(&app.db).await;
    let row = sqlx::query("SELECT COUNT(*) AS n FROM orders")
        .fetch_one(store.pool())
        .await
        .unwrap();
    row.try_get("n").unwrap()
}

async fn a_hanging_provider_is_cut_off_and_nothing_is_made_half(db: Db) {
    let Some(app) = spawn_app_with(db, |config| {
        config.admin_token = Some(TOKEN.to_owned().into());
        config.provider_timeout_ms = 500;
    })
    .await
    else {
        return;
    };
    let quote = json!({ "from_currency": "BTC", "to_currency": "ETH", "amount": "0.1" });
    let order = json!({
        "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.1",
        "toAddress": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    });
    outage(&app, json!({ "down": true, "hang": true })).await;

    let started = Instant::now();
    let answer = app.post_json("/api/exchange-rate", &quote).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(answer.status(), StatusCode::SERVICE_UNAVAILABLE);
    // The client is told what it can do; the provider's own words go to the log only.
    assert_eq!(
        json_of(answer).await["error"],
        "The exchange service is unavailable right now; try again in a moment"
    );

    let started = Instant::now();
    let created = app.post_json("/api/create-order", &order).await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_ne!(created.status(), StatusCode::OK);
    assert_eq!(order_count(&app).await, 0, "no order is made half");

    let status = json_of(app.get("/api/status").await).await;
    let provider = status["services"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == "provider:sandbox")
        .unwrap();
    assert_eq!(provider["status"], "outage");

    // Back up: the same calls work again.
    outage(&app, json!({ "down": false })).await;
    assert_eq!(
        app.post_json("/api/exchange-rate", &quote).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        app.post_json("/api/create-order", &order).await.status(),
        StatusCode::OK
    );
    assert_eq!(order_count(&app).await, 1);
}
