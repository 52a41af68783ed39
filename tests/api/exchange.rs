//! `GET /api/available-currencies` and `POST /api/exchange-rate` (spec/exchange.md §3, §7, §8).

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Db, TestApp, json_of, spawn_app, spawn_app_with};

const ADMIN: &str = "admin-token-for-exchange-tests";

async fn quote(app: &TestApp, body: Value) -> (StatusCode, Value) {
    let response = app.post_json("/api/exchange-rate", &body).await;
    let status = response.status();
    (status, json_of(response).await)
}

fn errors(body: &Value) -> Vec<String> {
    body["data"]["errors"]
        .as_array()
        .expect("errors list")
        .iter()
        .map(|e| e.as_str().unwrap().to_owned())
        .collect()
}

fn dec(value: &Value) -> f64 {
    value
        .as_str()
        .expect("decimal string")
        .parse()
        .expect("decimal")
}

#[tokio::test]
async fn the_currency_list_has_the_spec_fields_for_about_150_currencies() {
    let app = spawn_app().await;
    let body = json_of(app.get("/api/available-currencies").await).await;
    let list = body.as_array().expect("a list");
    assert!(list.len() >= 140, "{}", list.len());
    let find = |code: &str| {
        list.iter()
            .find(|c| c["code"] == code)
            .cloned()
            .expect(code)
    };
    let btc = find("BTC");
    for field in ["code", "coin", "name", "network", "recv", "send", "tag"] {
        assert!(btc.get(field).is_some(), "{field}");
    }
    assert_eq!(
        (btc["send"].clone(), btc["recv"].clone(), btc["tag"].clone()),
        (json!(1), json!(1), Value::Null)
    );
    assert_eq!(find("XRP")["tag"], "Destination tag");
    assert_eq!(find("USDTBSC")["network"], "BSC");
    assert_eq!(find("USDTBSC")["coin"], "USDT");
}

#[tokio::test]
async fn a_float_quote_has_both_sides_with_limits_usd_and_btc() {
    let app = spawn_app().await;
    let (status, body) = quote(
        &app,
        json!({"from_currency": "BTC", "to_currency": "ETH", "amount": "0.01", "direction": "from", "type": "float"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["code"], 0);
    assert_eq!(errors(&body), Vec::<String>::new());
    let (from, to) = (&body["data"]["from"], &body["data"]["to"]);
    assert_eq!(from["amount"], "0.01");
    assert_eq!(from["btc"], "0.01");
    assert_eq!(
        (
            from["code"].clone(),
            from["coin"].clone(),
            from["network"].clone()
        ),
        (json!("BTC"), json!("BTC"), json!("BTC"))
    );
    assert_eq!(from["precision"], 8);
    assert_eq!(to["code"], "ETH");
    for field in ["amount", "min", "max", "rate", "usd"] {
        assert!(dec(&from[field]) > 0.0, "from.{field}");
        assert!(dec(&to[field]) > 0.0, "to.{field}");
    }
    // The receive side is worth a little less than the send side: fee plus network fee.
    let (from_usd, to_usd) = (dec(&from["usd"]), dec(&to["usd"]));
    assert!(
        to_usd < from_usd && to_usd > from_usd * 0.98,
        "{from_usd} → {to_usd}"
    );
    assert!(dec(&from["min"]) < 0.01 && dec(&from["max"]) > 0.01);
}

#[tokio::test]
async fn a_fixed_quote_costs_more_than_a_float_one() {
    let app = spawn_app().await;
    let ask = |rate_type: &'static str| json!({"from_currency": "ETH", "to_currency": "USDTTRC", "amount": 1, "direction": "from", "type": rate_type});
    let (_, float) = quote(&app, ask("float")).await;
    let (_, fixed) = quote(&app, ask("fixed")).await;
    let (f, x) = (
        dec(&float["data"]["to"]["amount"]),
        dec(&fixed["data"]["to"]["amount"]),
    );
    // 0.5 % against 1.0 % of the same gross amount.
    assert!(
        x < f && (f - x) / f > 0.004 && (f - x) / f < 0.006,
        "{f} vs {x}"
    );
}

#[tokio::test]
async fn direction_to_prices_the_send_amount_for_a_wanted_receive_amount() {
    let app = spawn_app().await;
    let (status, body) = quote(
        &app,
        json!({"from_currency": "USDTBSC", "to_currency": "BTC", "amount": "0.01", "direction": "to", "type": "fixed"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["data"]["to"]["amount"], "0.01");
    assert!(dec(&body["data"]["from"]["amount"]) > 100.0);
}

#[tokio::test]
async fn below_the_minimum_the_answer_says_limit_min_and_keeps_the_limits() {
    let app = spawn_app().await;
    let (status, body) = quote(
        &app,
        json!({"from_currency": "BTC", "to_currency": "ETH", "amount": "0.00001"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["code"], 0);
    assert!(errors(&body).contains(&"LIMIT_MIN".to_owned()), "{body}");
    assert!(dec(&body["data"]["from"]["min"]) > 0.00001);
    assert!(dec(&body["data"]["from"]["max"]) > 0.0);
}

#[tokio::test]
async fn above_the_maximum_the_answer_names_the_side_that_exceeds() {
    let app = spawn_app().await;
    let (_, body) = quote(
        &app,
        json!({"from_currency": "BTC", "to_currency": "ETH", "amount": "50"}),
    )
    .await;
    let found = errors(&body);
    assert!(
        found.contains(&"LIMIT_MAX".to_owned())
            && found.contains(&"from_amount_exceeds_max".to_owned()),
        "{found:?}"
    );
    let (_, body) = quote(
        &app,
        json!({"from_currency": "ETH", "to_currency": "BTC", "amount": "50", "direction": "to"}),
    )
    .await;
    assert!(
        errors(&body).contains(&"to_amount_exceeds_max".to_owned()),
        "{body}"
    );
}

#[tokio::test]
async fn maintenance_is_reported_for_either_side() {
    let app = spawn_app_with(Db::Sqlite, |c| c.sandbox_maintenance = vec!["XMR".into()])
        .await
        .unwrap();
    let (_, body) = quote(
        &app,
        json!({"from_currency": "XMR", "to_currency": "BTC", "amount": "1"}),
    )
    .await;
    assert!(
        errors(&body).contains(&"MAINTENANCE_FROM".to_owned()),
        "{body}"
    );
    let (_, body) = quote(
        &app,
        json!({"from_currency": "BTC", "to_currency": "XMR", "amount": "0.01"}),
    )
    .await;
    assert!(
        errors(&body).contains(&"MAINTENANCE_TO".to_owned()),
        "{body}"
    );
    let list = json_of(app.get("/api/available-currencies").await).await;
    let xmr = list
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "XMR")
        .unwrap()
        .clone();
    assert_eq!(
        (xmr["send"].clone(), xmr["recv"].clone()),
        (json!(0), json!(0))
    );
}

#[tokio::test]
async fn an_operator_switch_makes_the_pair_unavailable_and_shows_in_the_list() {
    let app = spawn_app_with(Db::Sqlite, |c| c.admin_token = Some(ADMIN.into()))
        .await
        .unwrap();
    let switched = app
        .client
        .put(app.url("/api/admin/currency-overrides/LINK"))
        .bearer_auth(ADMIN)
        .json(&json!({"send": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(switched.status(), StatusCode::OK);
    let (_, body) = quote(
        &app,
        json!({"from_currency": "LINK", "to_currency": "BTC", "amount": "100"}),
    )
    .await;
    assert!(
        errors(&body).contains(&"PAIR_UNAVAILABLE".to_owned()),
        "{body}"
    );
    let list = json_of(app.get("/api/available-currencies").await).await;
    let link = list
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "LINK")
        .unwrap()
        .clone();
    assert_eq!(
        (link["send"].clone(), link["recv"].clone()),
        (json!(0), json!(1))
    );
}

#[tokio::test]
async fn a_warm_quote_does_not_need_the_database() {
    let app = spawn_app().await;
    app.store.close().await;
    let (status, body) = quote(
        &app,
        json!({"from_currency": "BTC", "to_currency": "ETH", "amount": "0.01"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["code"], 0);
}

#[tokio::test]
async fn past_the_rate_limit_the_answer_is_a_429_saying_until_when() {
    let app = spawn_app_with(Db::Sqlite, |c| c.quote_rate_per_minute = 3)
        .await
        .unwrap();
    let body = json!({"from_currency": "BTC", "to_currency": "ETH", "amount": "0.01"});
    for _ in 0..3 {
        assert_eq!(quote(&app, body.clone()).await.0, StatusCode::OK);
    }
    let response = app.post_json("/api/exchange-rate", &body).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry_after));
    let body = json_of(response).await;
    assert_eq!(body["code"], 429);
    let msg = body["msg"].as_str().unwrap();
    let until: i64 = msg.rsplit("until ").next().unwrap().parse().expect(msg);
    assert!(
        until > ferry::now_unix() && until <= ferry::now_unix() + 61,
        "{msg}"
    );
}

#[tokio::test]
async fn bad_input_gets_a_clear_4xx_envelope_never_a_500() {
    let app = spawn_app().await;
    let base = json!({"from_currency": "BTC", "to_currency": "ETH", "amount": "0.01"});
    let with = |key: &str, value: Value| {
        let mut body = base.clone();
        body[key] = value;
        body
    };
    let without = |key: &str| {
        let mut body = base.clone();
        body.as_object_mut().unwrap().remove(key);
        body
    };
    let cases = [
        (
            with("from_currency", json!("NOPE")),
            "Unknown currency NOPE",
        ),
        (
            with("to_currency", json!("BTC")),
            "Choose two different currencies",
        ),
        (with("amount", json!("0")), "greater than zero"),
        (with("amount", json!(-1)), "greater than zero"),
        (with("amount", json!("abc")), "not a number"),
        (with("amount", json!("1e400")), "too large"),
        (
            with("amount", json!("0.0000000000000000001")),
            "too many decimals",
        ),
        (with("amount", json!(true)), "amount"),
        (with("direction", json!("sideways")), "direction"),
        (with("type", json!("magic")), "type"),
        (without("amount"), "amount"),
        (without("from_currency"), "from_currency"),
    ];
    for (body, expected) in cases {
        let (status, answer) = quote(&app, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body} → {answer}");
        assert_ne!(answer["code"], 0);
        let msg = answer["msg"].as_str().unwrap();
        assert!(
            msg.contains(expected),
            "{body}: {msg:?} should mention {expected:?}"
        );
    }
    // A JSON number too big for any float is refused by the parser, still as a 400.
    let raw = app
        .client
        .post(app.url("/api/exchange-rate"))
        .header("content-type", "application/json")
        .body(r#"{"from_currency":"BTC","to_currency":"ETH","amount":1e400}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_address_check_tells_a_checksum_typo_from_a_wrong_format() {
    let app = spawn_app().await;
    let check = |currency: &'static str, address: &'static str| {
        let app = &app;
        async move {
            let body = json_of(
                app.post_json(
                    "/api/validate-address",
                    &json!({"currency": currency, "address": address}),
                )
                .await,
            )
            .await;
            body["data"].clone()
        }
    };
    let ok = check("ETH", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed").await;
    assert_eq!(
        (ok["valid"].clone(), ok["reason"].clone()),
        (json!(true), Value::Null)
    );
    let typo = check("ETH", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD").await;
    assert_eq!(
        (typo["valid"].clone(), typo["reason"].clone()),
        (json!(false), json!("checksum"))
    );
    let wrong = check("BTC", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed").await;
    assert_eq!(wrong["reason"], "format");
    let tag = json_of(
        app.post_json("/api/validate-address", &json!({"currency": "XRP", "address": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "tag": "abc"}))
            .await,
    )
    .await;
    assert_eq!(tag["data"]["valid"], false);
    assert!(
        tag["data"]["tag_error"]
            .as_str()
            .unwrap()
            .contains("whole number")
    );
}

/// `make soak` runs the load tests longer: `FERRY_SOAK_SECONDS` (3 in CI).
fn soak_seconds() -> u64 {
    std::env::var("FERRY_SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_concurrent_quoting_clients_get_quotes_or_well_formed_429s() {
    // Two hundred clients, all on this machine's one address: let that address hold their
    // connections (the per-client cap has tests of its own).
    let app = spawn_app_with(Db::Sqlite, |c| {
        c.quote_rate_per_minute = 600;
        c.connections_per_client = 1_000;
    })
    .await
    .unwrap();
    let seconds = soak_seconds();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(seconds);
    let clients: Vec<_> = (0..200)
        .map(|n| {
            let (client, url) = (app.client.clone(), app.url("/api/exchange-rate"));
            tokio::spawn(async move {
                let (mut quotes, mut limited) = (0, 0);
                while tokio::time::Instant::now() < deadline {
                    let amount = format!("0.0{}", 1 + n % 9);
                    let response = client
                        .post(&url)
                        .json(&json!({"from_currency": "BTC", "to_currency": "ETH", "amount": amount}))
                        .send()
                        .await
                        .expect("an answer");
                    let status = response.status();
                    let retry_after = response.headers().get("retry-after").cloned();
                    let body: Value = response.json().await.expect("JSON");
                    match status {
                        StatusCode::OK => {
                            assert_eq!(body["code"], 0);
                            assert!(body["data"]["to"]["amount"].as_str().unwrap().parse::<f64>().unwrap() > 0.0);
                            quotes += 1;
                        }
                        StatusCode::TOO_MANY_REQUESTS => {
                            assert_eq!(body["code"], 429);
                            assert!(body["msg"].as_str().unwrap().contains("until "));
                            assert!(retry_after.is_some());
                            limited += 1;
                        }
                        other => panic!("unexpected {other}: {body}"),
                    }
                }
                (quotes, limited)
            })
        })
        .collect();
    let (mut quotes, mut limited) = (0, 0);
    for client in clients {
        let (q, l) = client.await.unwrap();
        quotes += q;
        limited += l;
    }
    // The burst is the per-minute budget; it refills at 10 a second over the run.
    let budget = 600 + 10 * seconds;
    assert!(
        (budget - 20..=budget + 40).contains(&quotes),
        "{quotes} quotes served to one client address in {seconds} s (budget {budget})"
    );
    eprintln!("{seconds} s, 200 clients: {quotes} quotes, {limited} well-formed 429s");
    assert!(limited > 0);
}
