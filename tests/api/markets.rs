//! `/api/coins`: live data from a CoinGecko-compatible source (a local server stands in for
//! it), the last good data kept through its outages and restarts, the sample otherwise.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use serde_json::{Value, json};

use crate::helpers::{Db, json_of, spawn_app, spawn_app_with};

async fn coins(State(failing): State<Arc<AtomicBool>>) -> axum::response::Response {
    if failing.load(Ordering::SeqCst) {
        return (StatusCode::INTERNAL_SERVER_ERROR, "upstream down").into_response();
    }
    let coin = |id: &str, symbol: &str, rank: u32, price: f64| {
        json!({
            "id": id, "symbol": symbol, "name": id, "image": "https://example/img.png",
            "market_cap_rank": rank, "current_price": price, "market_cap": price * 1000.0,
            "total_volume": price * 10.0, "circulating_supply": 1000.0,
            "price_change_percentage_24h": 1.5, "price_change_percentage_7d_in_currency": -2.25,
            "sparkline_in_7d": { "price": [price, price * 1.01, price] },
        })
    };
    axum::Json(json!([
        coin("bitcoin", "btc", 1, 64000.0),
        coin("ethereum", "eth", 2, 3100.0),
        coin("solana", "sol", 3, 140.0),
    ]))
    .into_response()
}

async fn wait_for(app_url: &str, check: impl Fn(&Value) -> bool) -> Value {
    let client = reqwest::Client::new();
    for _ in 0..100 {
        let body: Value = client
            .get(format!("{app_url}/api/coins"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if check(&body) {
            return body;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("/api/coins never matched");
}

#[tokio::test]
async fn live_market_data_survives_an_outage_and_a_restart() {
    let failing = Arc::new(AtomicBool::new(false));
    let router = Router::new()
        .route("/api/v3/coins/markets", get(coins))
        .with_state(failing.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/api/v3", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });

    let configure = |base: String| {
        move |config: &mut ferry::config::Config| {
            config.coingecko_url = Some(base);
            config.markets_refresh_seconds = 1;
        }
    };
    let app = spawn_app_with(Db::Sqlite, configure(base.clone()))
        .await
        .unwrap();
    let live = wait_for(&app.url(""), |b| {
        b["source"] == "live" && b["stale"] == false
    })
    .await;
    assert_eq!(live["coins"].as_array().unwrap().len(), 3);
    assert_eq!(
        live["coins"][0]["price_change_percentage_7d_in_currency"],
        -2.25
    );

    failing.store(true, Ordering::SeqCst);
    let stale = wait_for(&app.url(""), |b| b["stale"] == true).await;
    assert_eq!(stale["source"], "live");
    assert_eq!(
        stale["coins"].as_array().unwrap().len(),
        3,
        "the last good data stays"
    );

    // A restart with the source still down serves the stored data, not nothing.
    let mut config = ferry::config::Config::defaults();
    config.listen = "127.0.0.1:0".parse().unwrap();
    let data = tempfile::tempdir().unwrap();
    config.data_dir = data.path().to_path_buf();
    config.database_url = Some(app.db.url.clone().into());
    configure(base)(&mut config);
    let restarted = ferry::build(config).await.unwrap();
    let url = format!("http://{}", restarted.local_addr());
    tokio::spawn(restarted.run_until(std::future::pending()));
    let after = wait_for(&url, |b| b["source"] == "live").await;
    assert_eq!(after["coins"][2]["id"], "solana");
}

#[tokio::test]
async fn without_a_source_the_dated_sample_is_served() {
    let app = spawn_app().await;
    let body = json_of(app.get("/api/coins").await).await;
    assert_eq!(body["source"], "sample");
    assert!(body["as_of"].as_str().is_some());
    let first = &body["coins"][0];
    for field in [
        "id",
        "name",
        "symbol",
        "image",
        "market_cap_rank",
        "current_price",
        "price_change_percentage_24h",
        "price_change_percentage_7d_in_currency",
        "market_cap",
        "total_volume",
        "circulating_supply",
    ] {
        assert!(!first[field].is_null(), "{field}");
    }
}
