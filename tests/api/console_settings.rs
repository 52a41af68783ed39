//! The back office's last pieces (issue 22): currency limits and maintenance that customers'
//! quotes obey, incidents with their updates, one partner key revoked on its own, provider
//! health on the home figures, refunds of failed orders and payouts held while an account is
//! locked.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::console::{
    TOKEN, act, act_with, app_on, call, customer, deposit, detail_of, fixed_order, operator,
    set_order,
};
use crate::helpers::{Db, TestApp, json_of, raw_store};
use crate::on_both_backends;
use crate::partners::{eventually, partner};

on_both_backends!(
    operators_set_limits_and_maintenance_that_customers_quotes_obey,
    incidents_keep_their_description_and_updates_and_home_shows_provider_health,
    an_operator_revokes_one_partner_key_and_the_others_keep_working,
    an_operator_refunds_a_failed_order_only_once_its_deposit_came,
    a_locked_accounts_payout_is_held_until_rejected_or_unlocked,
    the_order_search_filters_by_pair_provider_and_day,
    the_customer_is_mailed_when_an_operator_changes_their_refund_address,
);

/// A keyed `PUT`, as the console sends an override.
async fn put_keyed(
    app: &TestApp,
    bearer: &str,
    path: &str,
    body: &Value,
    key: &str,
) -> (StatusCode, Value) {
    act_with(app, bearer, Method::PUT, path, body, key).await
}

async fn quote(app: &TestApp, from: &str, to: &str, amount: &str) -> Value {
    let body = json!({ "from_currency": from, "to_currency": to, "amount": amount });
    json_of(app.post_json("/api/exchange-rate", &body).await).await["data"].clone()
}

fn errors(quote: &Value) -> Vec<String> {
    serde_json::from_value(quote["errors"].clone()).unwrap_or_default()
}

fn row<'a>(list: &'a Value, code: &str) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == code)
        .unwrap_or_else(|| panic!("{code} listed"))
}

async fn operators_set_limits_and_maintenance_that_customers_quotes_obey(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let support = operator(&app, "support@example.com", "support").await;
    let op = operator(&app, "operator@example.com", "operator").await;
    let btc = "/api/admin/currency-overrides/btc";

    // Support reads the page but changes nothing.
    let limits = json!({ "min": "0.05", "max": "0.5", "reason": "Hot wallet is small" });
    let (status, refused) = put_keyed(&app, &support, btc, &limits, "limits-0").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");

    let (status, set) = put_keyed(&app, &op, btc, &limits, "limits-1").await;
    assert_eq!(status, StatusCode::OK, "{set}");
    assert_eq!(set["override"]["min"], "0.05");
    assert_eq!(set["override"]["max"], "0.5");
    assert!(set["audit_id"].as_i64().unwrap() > 0);

    // The tighter limit wins in every quote, and an order outside it is refused.
    let small = quote(&app, "BTC", "ETH", "0.01").await;
    assert!(errors(&small).contains(&"LIMIT_MIN".to_owned()), "{small}");
    assert_eq!(small["from"]["min"], "0.05");
    assert_eq!(small["from"]["max"], "0.5");
    let large = quote(&app, "BTC", "ETH", "0.6").await;
    assert!(errors(&large).contains(&"LIMIT_MAX".to_owned()), "{large}");
    assert!(errors(&quote(&app, "BTC", "ETH", "0.1").await).is_empty());
    let order = json!({
        "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.01",
        "toAddress": crate::partners::ETH_ADDRESS, "direction": "from", "type": "float",
    });
    let refused = json_of(app.post_json("/api/create-order", &order).await).await;
    assert_ne!(refused["code"], 0, "{refused}");

    // A float order made before the limit whose deposit passes it waits for a decision.
    let (status, _) = put_keyed(&app, &op, btc, &json!({}), "limits-2").await;
    assert_eq!(status, StatusCode::OK);
    let float = json!({
        "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.1",
        "toAddress": crate::partners::ETH_ADDRESS, "direction": "from", "type": "float",
    });
    let made = json_of(app.post_json("/api/create-order", &float).await).await;
    let float_id = made["data"]["id"].as_str().expect("an order").to_owned();
    let (status, _) = put_keyed(&app, &op, btc, &limits, "limits-3").await;
    assert_eq!(status, StatusCode::OK);
    deposit(&app, &float_id, "0.7").await;
    let order = detail_of(&app, &op, &float_id).await["order"].clone();
    assert_eq!(
        (order["status"].as_str(), order["emergency_reason"].as_str()),
        (Some("EMERGENCY"), Some("LIMIT")),
        "{order}"
    );

    // Maintenance with a message: the quote says why, both ways, and the list shows it closed.
    let message = "Wallet upgrade until 14:00 UTC";
    let eth = "/api/admin/currency-overrides/ETH";
    let (status, set) =
        put_keyed(&app, &op, eth, &json!({ "maintenance": message }), "eth-1").await;
    assert_eq!(status, StatusCode::OK, "{set}");
    assert_eq!(
        (set["send"].clone(), set["recv"].clone()),
        (json!(false), json!(false))
    );
    let to_eth = quote(&app, "BTC", "ETH", "0.1").await;
    assert!(
        errors(&to_eth).contains(&"MAINTENANCE_TO".to_owned()),
        "{to_eth}"
    );
    assert_eq!(to_eth["to"]["maintenance"], message);
    assert!(to_eth["from"].get("maintenance").is_none(), "{to_eth}");
    let from_eth = quote(&app, "ETH", "BTC", "1").await;
    assert!(
        errors(&from_eth).contains(&"MAINTENANCE_FROM".to_owned()),
        "{from_eth}"
    );
    assert_eq!(from_eth["from"]["maintenance"], message);
    // The partner API's Asset keeps FixedFloat's fields: the code says maintenance, no more.
    let desk = partner(&app, "desk@example.com", true).await;
    let (key, secret, _) = app.create_key(&desk, "read").await;
    let price = json!({
        "type": "float", "fromCcy": "BTC", "toCcy": "ETH", "direction": "from", "amount": "0.1",
    });
    let priced = app.v2("price", &key, &secret, &price).await;
    let mut fields: Vec<_> = priced["data"]["to"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    fields.sort();
    assert_eq!(
        fields,
        [
            "amount",
            "code",
            "coin",
            "max",
            "min",
            "network",
            "precision",
            "rate",
            "usd"
        ],
        "{priced}"
    );
    assert!(
        priced["data"]["errors"]
            .to_string()
            .contains("MAINTENANCE_TO"),
        "{priced}"
    );
    let listed = json_of(app.get("/api/available-currencies").await).await;
    assert_eq!(
        (
            row(&listed, "ETH")["send"].clone(),
            row(&listed, "ETH")["recv"].clone()
        ),
        (json!(0), json!(0))
    );

    // The console's list has both overrides and what customers get.
    let (_, currencies) = call(&app, &support, Method::GET, "/api/admin/currencies", None).await;
    assert_eq!(row(&currencies, "BTC")["override"]["min"], "0.05");
    assert_eq!(row(&currencies, "ETH")["override"]["maintenance"], message);
    assert_eq!(row(&currencies, "ETH")["recv"], false);
    assert_eq!(row(&currencies, "XMR")["override"]["send"], Value::Null);

    // Bad input is refused with a reason and changes nothing.
    for (n, (body, wanted)) in [
        (json!({ "min": "-1" }), "min must be a positive amount"),
        (json!({ "max": "lots" }), "max must be a positive amount"),
        (
            json!({ "min": "2", "max": "1" }),
            "min must not be above max",
        ),
        (json!({ "maintenance": "x".repeat(201) }), "200 characters"),
        (json!({ "maintenance": "two\nlines" }), "one line"),
        (json!({ "maintenance": "two\u{2028}lines" }), "one line"),
    ]
    .into_iter()
    .enumerate()
    {
        let key = format!("bad-{n}");
        let (status, answer) = put_keyed(&app, &op, btc, &body, &key).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body} → {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(wanted),
            "{answer}"
        );
    }
    let (status, _) = put_keyed(
        &app,
        &op,
        "/api/admin/currency-overrides/NOPE",
        &json!({}),
        "n",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Cleared, the currency is open again.
    let (status, _) = put_keyed(&app, &op, eth, &json!({}), "eth-2").await;
    assert_eq!(status, StatusCode::OK);
    let reopened = quote(&app, "BTC", "ETH", "0.1").await;
    assert!(errors(&reopened).is_empty(), "{reopened}");
    assert!(reopened["to"].get("maintenance").is_none());

    // Each change is in the log with the reason given.
    let (_, log) = call(
        &app,
        TOKEN,
        Method::GET,
        "/api/admin/audit?action=currency.set&subject_id=BTC",
        None,
    )
    .await;
    let entry = &log["entries"][0];
    assert_eq!(entry["reason"], "Hot wallet is small");
    assert_eq!(entry["after"]["max"], "0.5");
    assert_eq!(entry["actor_email"], "operator@example.com");
}

async fn incidents_keep_their_description_and_updates_and_home_shows_provider_health(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let support = operator(&app, "support@example.com", "support").await;
    let op = operator(&app, "operator@example.com", "operator").await;
    let (status, opened) = act(
        &app,
        &op,
        "/api/admin/incidents",
        &json!({ "title": "Slow BTC deposits", "description": "Blocks are full" }),
        "incident-1",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{opened}");
    let id = opened["id"].as_str().unwrap();
    let (status, _) = act(
        &app,
        &op,
        &format!("/api/admin/incidents/{id}/updates"),
        &json!({ "status": "monitoring", "message": "Fees raised" }),
        "incident-2",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = act(
        &app,
        &support,
        &format!("/api/admin/incidents/{id}/updates"),
        &json!({ "status": "resolved", "message": "Support may not" }),
        "incident-3",
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (_, incidents) = call(&app, &support, Method::GET, "/api/admin/incidents", None).await;
    let incident = &incidents[0];
    assert_eq!(incident["description"], "Blocks are full");
    assert_eq!(incident["status"], "monitoring");
    let messages: Vec<_> = incident["updates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["message"].as_str().unwrap().to_owned())
        .collect();
    assert!(messages.contains(&"Fees raised".to_owned()), "{incident}");

    let (status, stats) = call(&app, &support, Method::GET, "/api/admin/stats?days=7", None).await;
    assert_eq!(status, StatusCode::OK, "{stats}");
    let providers = stats["providers"].as_array().unwrap();
    assert_eq!(providers.len(), 1, "{stats}");
    assert_eq!(providers[0]["key"], "provider:sandbox");
    assert_eq!(providers[0]["status"], "operational");
}

async fn an_operator_revokes_one_partner_key_and_the_others_keep_working(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let support = operator(&app, "support@example.com", "support").await;
    let op = operator(&app, "operator@example.com", "operator").await;
    let partner = partner(&app, "partner@example.com", true).await;
    let user_id = app
        .store
        .find_user_by_email("partner@example.com")
        .await
        .unwrap()
        .unwrap()
        .id;
    let (leaked, leaked_secret, _) = app.create_key(&partner, "trade").await;
    let (kept, kept_secret, _) = app.create_key(&partner, "read").await;
    assert_eq!(ccies_code(&app, &leaked, &leaked_secret).await, 0);

    let (_, keys) = call(&app, &support, Method::GET, "/api/admin/api-keys", None).await;
    assert_eq!(
        row_by_id(&keys, &leaked)["user_email"],
        "partner@example.com"
    );
    assert_eq!(row_by_id(&keys, &leaked)["request_count"], 1);

    let revoke = format!("/api/admin/api-keys/{leaked}/revoke");
    let (status, _) = act(
        &app,
        &support,
        &revoke,
        &json!({ "reason": "Leaked" }),
        "k0",
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = act(&app, &op, &revoke, &json!({ "reason": " " }), "k1").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, revoked) = act(&app, &op, &revoke, &json!({ "reason": "Leaked" }), "k2").await;
    assert_eq!(status, StatusCode::OK, "{revoked}");
    assert!(revoked["api_key"]["revoked_at"].as_i64().is_some());
    // The same request again is the same act; another one finds it revoked.
    let (status, again) = act(&app, &op, &revoke, &json!({ "reason": "Leaked" }), "k2").await;
    assert_eq!(
        (status, again["replayed"].clone()),
        (StatusCode::OK, json!(true))
    );
    let (status, _) = act(&app, &op, &revoke, &json!({ "reason": "Leaked" }), "k3").await;
    assert_eq!(status, StatusCode::CONFLICT);
    // An operator's own partner key is revoked only by a role above theirs.
    let other = operator(&app, "other@example.com", "operator").await;
    let other_partner = crate::partners::Partner {
        token: other.clone(),
        referral_code: String::new(),
    };
    let (others_key, _, _) = app.create_key(&other_partner, "read").await;
    let path = format!("/api/admin/api-keys/{others_key}/revoke");
    let (status, _) = act(&app, &op, &path, &json!({ "reason": "Leaked" }), "k5").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = act(&app, TOKEN, &path, &json!({ "reason": "Leaked" }), "k6").await;
    assert_eq!(status, StatusCode::OK, "an owner may");
    let none = "/api/admin/api-keys/none/revoke";
    let (status, _) = act(&app, &op, none, &json!({ "reason": "Leaked" }), "k4").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The revoked key is refused; the account's other key and its sessions keep working.
    // The partner API answers a refusal inside its envelope (311: the key is refused).
    assert_eq!(ccies_code(&app, &leaked, &leaked_secret).await, 311);
    assert_eq!(ccies_code(&app, &kept, &kept_secret).await, 0);
    let (_, user) = call(
        &app,
        &op,
        Method::GET,
        &format!("/api/admin/users/{user_id}"),
        None,
    )
    .await;
    assert_eq!(user["user"]["locked_at"], Value::Null);

    let (_, active) = call(
        &app,
        &op,
        Method::GET,
        "/api/admin/api-keys?active=true",
        None,
    )
    .await;
    let ids: Vec<_> = active
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["id"].clone())
        .collect();
    assert_eq!(ids, [json!(kept)]);
    let (_, log) = call(
        &app,
        TOKEN,
        Method::GET,
        &format!("/api/admin/audit?action=api_key.revoke&subject_id={leaked}"),
        None,
    )
    .await;
    assert_eq!(log["entries"].as_array().unwrap().len(), 1, "{log}");
    assert_eq!(log["entries"][0]["reason"], "Leaked");
}

/// The partner API's envelope code for a `ccies` call signed with the key.
async fn ccies_code(app: &TestApp, key: &str, secret: &str) -> i64 {
    let (status, answer) = app.v2_raw("ccies", key, secret, "{}").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer["code"].as_i64().unwrap()
}

fn row_by_id<'a>(list: &'a Value, id: &str) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|k| k["id"] == id)
        .unwrap_or_else(|| panic!("{id} listed in {list}"))
}

async fn an_operator_refunds_a_failed_order_only_once_its_deposit_came(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let op = operator(&app, "operator@example.com", "operator").await;
    let now = ferry::now_unix();

    // Failed before anything arrived: there is nothing to refund.
    let empty = fixed_order(&app, None).await;
    set_order(&app, &empty, "FAILED", now).await;
    assert!(
        !actions_of(&app, &op, &empty)
            .await
            .contains(&json!("refund"))
    );
    let path = format!("/api/admin/orders/{empty}/refund");
    let (status, _) = act(&app, &op, &path, &json!({ "reason": "Failed" }), "f0").await;
    assert_eq!(status, StatusCode::CONFLICT);

    // Failed after its payout went out: refunding would pay twice.
    let paid = fixed_order(&app, None).await;
    deposit(&app, &paid, "0.008").await;
    set_order(&app, &paid, "FAILED", now).await;
    let raw = raw_store(&app.db).await;
    sqlx::query("UPDATE orders SET payout_amount = '0.2' WHERE id = $1")
        .bind(&paid)
        .execute(raw.pool())
        .await
        .unwrap();
    assert!(
        !actions_of(&app, &op, &paid)
            .await
            .contains(&json!("refund"))
    );

    // Failed with the deposit held: the customer cannot choose, an operator refunds.
    let made = json!({
        "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.01",
        "toAddress": crate::partners::ETH_ADDRESS, "direction": "from", "type": "fixed",
    });
    let made = json_of(app.post_json("/api/create-order", &made).await).await;
    let failed = made["data"]["id"].as_str().unwrap().to_owned();
    let order_token = made["data"]["token"].as_str().unwrap();
    deposit(&app, &failed, "0.008").await;
    set_order(&app, &failed, "FAILED", now).await;
    let chosen = json!({
        "id": failed, "token": order_token, "choice": "REFUND",
        "address": crate::partners::BTC_ADDRESS,
    });
    let response = app.post_json("/api/order-emergency", &chosen).await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    let customer_choice = json_of(response).await;
    assert!(
        customer_choice
            .to_string()
            .contains("does not need a decision"),
        "{customer_choice}"
    );
    assert!(
        actions_of(&app, &op, &failed)
            .await
            .contains(&json!("refund"))
    );
    let upstream = format!("/api/admin/orders/{failed}/upstream");
    let (status, answer) = call(&app, &op, Method::GET, &upstream, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "the sandbox's own: {answer}");
    let path = format!("/api/admin/orders/{failed}/refund");
    let body = json!({ "reason": "Payout failed", "address": crate::partners::BTC_ADDRESS });
    let (status, refunded) = act(&app, &op, &path, &body, "f1").await;
    assert_eq!(status, StatusCode::OK, "{refunded}");
    eventually("the failed order is refunded", || async {
        detail_of(&app, &op, &failed).await["order"]["status"] == "REFUNDED"
    })
    .await;
    let detail = detail_of(&app, &op, &failed).await;
    assert!(
        detail["order"]["transactions"]["refund"]["id"].is_string(),
        "{detail}"
    );
}

async fn actions_of(app: &TestApp, bearer: &str, id: &str) -> Vec<Value> {
    detail_of(app, bearer, id).await["actions"]
        .as_array()
        .unwrap()
        .clone()
}

async fn a_locked_accounts_payout_is_held_until_rejected_or_unlocked(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let op = operator(&app, "operator@example.com", "operator").await;
    // One open request per account: two accounts, both locked.
    let raw = raw_store(&app.db).await;
    let mut users = Vec::new();
    for (payout, email) in [
        ("payout-1", "one@example.com"),
        ("payout-2", "two@example.com"),
    ] {
        let (user_id, _) = customer(&app, email).await;
        sqlx::query(
            "INSERT INTO affiliate_payouts (id, user_id, amount_usd, currency, address, tag, \
             status, txid, created_at, processed_at) \
             VALUES ($1, $2, '25.00', 'BTC', $3, NULL, 'requested', NULL, 1, NULL)",
        )
        .bind(payout)
        .bind(&user_id)
        .bind(crate::partners::BTC_ADDRESS)
        .execute(raw.pool())
        .await
        .unwrap();
        let lock = format!("/api/admin/users/{user_id}/lock");
        let key = format!("lock-{payout}");
        let (status, _) = act(&app, &op, &lock, &json!({ "reason": "Fraud" }), &key).await;
        assert_eq!(status, StatusCode::OK);
        users.push(user_id);
    }
    let user_id = &users[0];

    let (_, payouts) = call(
        &app,
        &op,
        Method::GET,
        "/api/admin/payouts?status=requested",
        None,
    )
    .await;
    assert_eq!(row_by_id(&payouts, "payout-1")["account_locked"], true);
    let paid = json!({ "status": "paid", "txid": "ab".repeat(32) });
    let (status, held) = act(&app, &op, "/api/admin/payouts/payout-1", &paid, "p1").await;
    assert_eq!(status, StatusCode::CONFLICT, "{held}");
    assert!(held["error"].as_str().unwrap().contains("locked"), "{held}");
    let rejected = json!({ "status": "rejected", "reason": "Fraud" });
    let (status, _) = act(&app, &op, "/api/admin/payouts/payout-2", &rejected, "p2").await;
    assert_eq!(status, StatusCode::OK);

    // Unlocked, the held request can be paid.
    let unlock = format!("/api/admin/users/{user_id}/unlock");
    let (status, _) = act(&app, &op, &unlock, &json!({ "reason": "Cleared" }), "l2").await;
    assert_eq!(status, StatusCode::OK);
    let (status, done) = act(&app, &op, "/api/admin/payouts/payout-1", &paid, "p3").await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let (_, payouts) = call(&app, &op, Method::GET, "/api/admin/payouts", None).await;
    assert_eq!(row_by_id(&payouts, "payout-1")["status"], "paid");
    assert_eq!(row_by_id(&payouts, "payout-2")["status"], "rejected");
}

async fn the_order_search_filters_by_pair_provider_and_day(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let support = operator(&app, "support@example.com", "support").await;
    let btc_eth = fixed_order(&app, None).await;
    let body = json!({
        "fromCcy": "LTC", "toCcy": "BTC", "amount": "2",
        "toAddress": crate::partners::BTC_ADDRESS, "direction": "from", "type": "float",
    });
    let made = json_of(app.post_json("/api/create-order", &body).await).await;
    let ltc_btc = made["data"]["id"].as_str().expect("an order").to_owned();
    let found = |query: &'static str| {
        let support = support.clone();
        let app = &app;
        async move {
            let (status, page) = call(
                app,
                &support,
                Method::GET,
                &format!("/api/admin/orders?{query}"),
                None,
            )
            .await;
            (status, page)
        }
    };
    let ids = |page: &Value| -> Vec<String> {
        page["orders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let today = ferry::now_unix() / 86_400;
    let date = |day: i64| {
        let (y, m, d) = civil(day);
        format!("{y:04}-{m:02}-{d:02}")
    };
    for (query, wanted) in [
        ("from=btc".to_owned(), vec![btc_eth.clone()]),
        ("to=BTC".to_owned(), vec![ltc_btc.clone()]),
        ("from=LTC&to=ETH".to_owned(), vec![]),
        (
            "provider=sandbox".to_owned(),
            vec![ltc_btc.clone(), btc_eth.clone()],
        ),
        ("provider=changenow".to_owned(), vec![]),
        (
            format!("since={}", date(today)),
            vec![ltc_btc.clone(), btc_eth.clone()],
        ),
        (format!("until={}", date(today - 1)), vec![]),
        (
            format!("since={0}&until={0}&from=BTC", date(today)),
            vec![btc_eth.clone()],
        ),
    ] {
        let query: &'static str = Box::leak(query.into_boxed_str());
        let (status, page) = found(query).await;
        assert_eq!(status, StatusCode::OK, "{query}: {page}");
        // Both orders may be made in one second: their order is then the ids'.
        let (mut got, mut wanted) = (ids(&page), wanted);
        got.sort();
        wanted.sort();
        assert_eq!(got, wanted, "{query}");
    }
    for bad in ["since=2026-02-31", "until=yesterday", "from=NOPE"] {
        let (status, page) = found(bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {page}");
    }
}

/// (year, month, day) of a day since 1970-01-01, computed apart from the server's own code.
fn civil(day: i64) -> (i64, i64, i64) {
    let mut y = 1970;
    let mut d = day;
    loop {
        let len = if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 {
            366
        } else {
            365
        };
        if d < len {
            break;
        }
        d -= len;
        y += 1;
    }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let months = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let mut m = 0;
    while d >= months[m] {
        d -= months[m];
        m += 1;
    }
    (y, m as i64 + 1, d + 1)
}

async fn the_customer_is_mailed_when_an_operator_changes_their_refund_address(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let op = operator(&app, "operator@example.com", "operator").await;
    let (_, session) = customer(&app, "owner@example.com").await;
    let order = fixed_order(&app, Some(&session)).await;
    let subject = format!("Order {order}: refund address changed");
    let mailed = |app: &TestApp| {
        let subject = subject.clone();
        let store = app.store.clone();
        async move {
            store
                .mail_to("owner@example.com")
                .await
                .unwrap()
                .into_iter()
                .filter(|m| m.subject == subject)
                .collect::<Vec<_>>()
        }
    };
    let path = format!("/api/admin/orders/{order}/refund-address");
    let body = json!({ "reason": "Customer called", "address": crate::partners::BTC_ADDRESS });
    let (response, _) = put_keyed(&app, &op, &path, &body, "address-1").await;
    assert_eq!(response, StatusCode::OK);
    let mails = mailed(&app).await;
    assert_eq!(mails.len(), 1, "{mails:?}");
    let text = &mails[0].body;
    assert!(text.contains(crate::partners::BTC_ADDRESS), "{text}");
    assert!(text.contains(&format!("/order-details/{order}")), "{text}");
    assert!(
        text.contains("If you did not ask for this, write to"),
        "{text}"
    );
    // The same request again is the same act: no second mail.
    let (again, _) = put_keyed(&app, &op, &path, &body, "address-1").await;
    assert_eq!(again, StatusCode::OK);
    assert_eq!(mailed(&app).await.len(), 1);
    // Another request that changes nothing mails nothing.
    let (same, _) = put_keyed(&app, &op, &path, &body, "address-2").await;
    assert_eq!(same, StatusCode::OK);
    assert_eq!(mailed(&app).await.len(), 1);

    // A refund an operator makes with the address they give is mailed too, even to an owner
    // who turned order mails off.
    let (_, session) = customer(&app, "quiet@example.com").await;
    let (status, _) = call(
        &app,
        &session,
        Method::PATCH,
        "/api/account",
        Some(&json!({ "order_emails": false })),
    )
    .await;
    assert!(status.is_success(), "{status}");
    let stuck = fixed_order(&app, Some(&session)).await;
    deposit(&app, &stuck, "0.008").await;
    let refund = format!("/api/admin/orders/{stuck}/refund");
    let body = json!({ "reason": "Asked by phone", "address": crate::partners::BTC_ADDRESS });
    let (status, answer) = act(&app, &op, &refund, &body, "refund-1").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let subject = format!("Order {stuck}: refund address changed");
    let mails = app.store.mail_to("quiet@example.com").await.unwrap();
    assert_eq!(
        mails.iter().filter(|m| m.subject == subject).count(),
        1,
        "{mails:?}"
    );
}
