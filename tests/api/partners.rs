//! Partners (issue #7): API keys, the FixedFloat-compatible partner API, the commission
//! ledger, payouts and webhooks, on SQLite and PostgreSQL. Requests are signed here with the
//! `hmac` crate directly, never with the server's own helper.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hmac::{Hmac, Mac};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::Sha256;

use crate::helpers::{Db, STILL_PRICES_AT, TestApp, json_of, spawn_app_with, test_store};
use crate::on_both_backends;

pub(crate) const ADMIN: &str = "partners-admin-token";
pub(crate) const PASSWORD: &str = "Correct1horse";
pub(crate) const ETH_ADDRESS: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
pub(crate) const BTC_ADDRESS: &str = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";

on_both_backends!(
    a_refcode_names_the_partner_over_the_key_owners_own_referrer,
    a_partner_trades_through_the_signed_api_and_earns_when_the_order_completes,
    an_emergency_refund_through_the_api_reverses_the_commission,
    a_visitor_with_a_referral_code_earns_the_partner_a_commission_they_can_ask_to_be_paid,
    webhooks_are_signed_and_retried_after_a_server_error,
    a_webhook_whose_name_resolves_to_a_private_address_is_refused_and_nothing_connects,
);

/// Lowercase hex HMAC-SHA256 of `body` under `secret`.
fn hmac_hex(secret: &str, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(body);
    hex::encode(mac.finalize().into_bytes())
}

#[test]
fn the_test_signer_matches_the_published_hmac_sha256_vector() {
    // RFC 4231-style check with the well-known Wikipedia example.
    assert_eq!(
        hmac_hex("key", b"The quick brown fox jumps over the lazy dog"),
        "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"
    );
}

pub(crate) async fn app_on(db: Db) -> Option<TestApp> {
    spawn_app_with(db, |c| {
        c.admin_token = Some(ADMIN.into());
        c.sandbox_step_seconds = 0;
        c.worker_interval_ms = 50;
        c.webhook_retry_seconds = 1;
        // The test's receiver listens on 127.0.0.1.
        c.webhook_allow_private = true;
        c.affiliate_min_payout_usd = "0.01".parse().unwrap();
    })
    .await
}

pub(crate) struct Partner {
    pub(crate) token: String,
    pub(crate) referral_code: String,
}

pub(crate) async fn partner(app: &TestApp, email: &str, verified: bool) -> Partner {
    let response = app
        .post_json(
            "/api/register",
            &json!({ "email": email, "username": email, "password": PASSWORD,
                     "confirm_password": PASSWORD }),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let body = json_of(response).await;
    if verified {
        let user = app.store.find_user_by_email(email).await.unwrap().unwrap();
        app.store
            .change_user(&user.id, ferry::store::UserChange::EmailVerified, 1)
            .await
            .unwrap();
    }
    Partner {
        token: body["token"].as_str().unwrap().to_owned(),
        referral_code: body["user"]["referral_code"].as_str().unwrap().to_owned(),
    }
}

impl TestApp {
    pub(crate) async fn as_user(
        &self,
        method: reqwest::Method,
        path: &str,
        token: &str,
    ) -> reqwest::RequestBuilder {
        self.client
            .request(method, self.url(path))
            .bearer_auth(token)
    }

    pub(crate) async fn create_key(
        &self,
        partner: &Partner,
        permission: &str,
    ) -> (String, String, String) {
        let response = self
            .as_user(reqwest::Method::POST, "/api/api-keys", &partner.token)
            .await
            .json(&json!({ "name": format!("{permission} bot"), "permission": permission }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let body = json_of(response).await;
        (
            body["key"]["id"].as_str().unwrap().to_owned(),
            body["secret"].as_str().unwrap().to_owned(),
            body["webhook_secret"].as_str().unwrap().to_owned(),
        )
    }

    /// Sends `body` (exact bytes) to `/api/v2/{method}` signed with `secret`.
    pub(crate) async fn v2_raw(
        &self,
        method: &str,
        key: &str,
        secret: &str,
        body: &str,
    ) -> (StatusCode, Value) {
        let response = self
            .client
            .post(self.url(&format!("/api/v2/{method}")))
            .header("content-type", "application/json; charset=UTF-8")
            .header("x-api-key", key)
            .header("x-api-sign", hmac_hex(secret, body.as_bytes()))
            .body(body.to_owned())
            .send()
            .await
            .unwrap();
        let status = response.status();
        (status, json_of(response).await)
    }

    pub(crate) async fn v2(&self, method: &str, key: &str, secret: &str, body: &Value) -> Value {
        let (status, answer) = self.v2_raw(method, key, secret, &body.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        answer
    }

    pub(crate) async fn deposit(&self, id: &str, amount: Option<&str>) {
        let mut body = json!({ "order_id": id });
        if let Some(amount) = amount {
            body["amount"] = json!(amount);
        }
        let response = self
            .client
            .post(self.url("/api/admin/sandbox/deposit"))
            .bearer_auth(ADMIN)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
    }

    pub(crate) async fn summary(&self, partner: &Partner) -> Value {
        json_of(
            self.as_user(reqwest::Method::GET, "/api/affiliate", &partner.token)
                .await
                .send()
                .await
                .unwrap(),
        )
        .await
    }

    async fn keys_of(&self, partner: &Partner) -> Value {
        json_of(
            self.as_user(reqwest::Method::GET, "/api/api-keys", &partner.token)
                .await
                .send()
                .await
                .unwrap(),
        )
        .await
    }
}

pub(crate) async fn eventually<F, Fut>(what: &str, mut probe: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..600 {
        if probe().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never happened: {what}");
}

/// Waits until the order's commission is in `state`: the order's last change and its settlement
/// are two writes, so a client may see the order ended a moment before its commission.
async fn commission_settles(app: &TestApp, partner: &Partner, order_id: &str, state: &str) {
    eventually(
        &format!("the commission of {order_id} is {state}"),
        || async move {
            commission_of(&app.summary(partner).await, order_id)["commission_state"] == state
        },
    )
    .await;
}

fn commission_of(summary: &Value, order_id: &str) -> Value {
    summary["recent_orders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == order_id)
        .cloned()
        .unwrap_or_else(|| panic!("{order_id} not in {summary}"))
}

fn btc_to_eth(amount: &str, rate_type: &str) -> Value {
    json!({ "type": rate_type, "fromCcy": "BTC", "toCcy": "ETH", "direction": "from",
            "amount": amount, "toAddress": ETH_ADDRESS })
}

async fn a_partner_trades_through_the_signed_api_and_earns_when_the_order_completes(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let unverified = partner(&app, "new@example.com", false).await;
    let refused = app
        .as_user(reqwest::Method::POST, "/api/api-keys", &unverified.token)
        .await
        .json(&json!({ "name": "bot", "permission": "trade" }))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        json_of(refused).await["message"],
        "Verify your e-mail address before creating API keys"
    );

    let alice = partner(&app, "alice@example.com", true).await;
    let (trade, trade_secret, _) = app.create_key(&alice, "trade").await;
    let (read, read_secret, _) = app.create_key(&alice, "read").await;
    assert_ne!(trade_secret, read_secret);
    let listed = app.keys_of(&alice).await;
    assert!(
        !listed.to_string().contains(&trade_secret),
        "secrets are shown once"
    );

    // ccies, signed over the exact bytes; Python's json.dumps spacing is fine.
    let ccies = app.v2("ccies", &read, &read_secret, &json!({})).await;
    assert_eq!(ccies["code"], 0);
    let btc = ccies["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "BTC")
        .unwrap()
        .clone();
    assert_eq!(
        (btc["recv"].as_i64(), btc["send"].as_i64()),
        (Some(1), Some(1))
    );
    let spaced = r#"{"type": "float", "fromCcy": "BTC", "toCcy": "ETH", "direction": "from", "amount": "0.1"}"#;
    let (_, price) = app.v2_raw("price", &read, &read_secret, spaced).await;
    assert_eq!(price["code"], 0, "{price}");
    assert!(price["data"]["from"]["min"].is_string());
    assert_eq!(price["data"]["errors"], json!([]));

    // Refusals: wrong signature, unknown key, no key, a read key creating, a body not JSON.
    let body = btc_to_eth("0.1", "float").to_string();
    let (_, wrong) = app.v2_raw("create", &trade, "not-the-secret", &body).await;
    assert_eq!(
        (wrong["code"].as_i64(), wrong["msg"].as_str()),
        (Some(311), Some("Invalid signature"))
    );
    let (_, unknown) = app.v2_raw("ccies", "nope", &trade_secret, "{}").await;
    assert_eq!(unknown["code"], 311);
    let bare = app
        .client
        .post(app.url("/api/v2/ccies"))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(bare.status(), StatusCode::OK);
    assert_eq!(json_of(bare).await["code"], 311);
    let (_, denied) = app.v2_raw("create", &read, &read_secret, &body).await;
    assert_eq!(denied["code"], 312);
    let (_, not_json) = app
        .v2_raw("price", &trade, &trade_secret, "{not json")
        .await;
    assert_eq!(not_json["code"], 301);
    let (_, bad_ccy) = app
        .v2_raw(
            "price",
            &trade,
            &trade_secret,
            r#"{"type":"float","fromCcy":"NOPE","toCcy":"ETH","direction":"from","amount":"1"}"#,
        )
        .await;
    assert_eq!(
        (bad_ccy["code"].as_i64(), bad_ccy["msg"].as_str()),
        (Some(301), Some("fromCcy is incorrect"))
    );
    let mut bad_address = btc_to_eth("0.1", "float");
    bad_address["toAddress"] = json!("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD");
    let bad_address = app.v2("create", &trade, &trade_secret, &bad_address).await;
    assert_eq!(
        (bad_address["code"].as_i64(), bad_address["msg"].as_str()),
        (Some(301), Some("Invalid address"))
    );
    let big = format!("{{\"pad\":\"{}\"}}", "x".repeat(20_000));
    let (status, oversize) = app.v2_raw("price", &trade, &trade_secret, &big).await;
    assert_eq!(
        (status, oversize["code"].as_i64()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some(301))
    );
    let before = app.keys_of(&alice).await;
    let count = |keys: &Value, id: &str| {
        keys["keys"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["id"] == id)
            .unwrap()["request_count"]
            .as_i64()
            .unwrap()
    };
    assert_eq!(count(&before, &read), 2, "refused requests cost nothing");
    assert_eq!(count(&before, &trade), 0);

    // Create, replay, read back. The partner adds a markup (afftax) for itself: on its own
    // key's orders that markup is what it earns, never a share of Ferry's fee.
    let mut marked_up = btc_to_eth("0.1", "float");
    marked_up["afftax"] = json!("0.5");
    let body = marked_up.to_string();
    let created = app.v2_raw("create", &trade, &trade_secret, &body).await.1;
    assert_eq!(created["code"], 0, "{created}");
    let order = &created["data"];
    let id = order["id"].as_str().unwrap().to_owned();
    let token = order["token"].as_str().unwrap().to_owned();
    assert_eq!(order["status"], "NEW");
    assert_eq!(order["to"]["address"], ETH_ADDRESS);
    assert!(order["time"]["left"].as_i64().unwrap() > 0);
    assert_eq!(order["emergency"]["choice"], "NONE");
    let replayed = app.v2_raw("create", &trade, &trade_secret, &body).await.1;
    assert_eq!(
        replayed["data"]["id"], id,
        "a replayed create returns the first order"
    );
    let read_back = app
        .v2(
            "order",
            &trade,
            &trade_secret,
            &json!({ "id": id, "token": token }),
        )
        .await;
    assert_eq!(read_back["data"]["id"], id);
    let missing = app
        .v2(
            "order",
            &trade,
            &trade_secret,
            &json!({ "id": id, "token": "00" }),
        )
        .await;
    assert_eq!(missing["code"], 320);
    let not_now = app
        .v2(
            "emergency",
            &trade,
            &trade_secret,
            &json!({ "id": id, "token": token, "choice": "EXCHANGE" }),
        )
        .await;
    assert_eq!(not_now["code"], 321);
    let qr = app
        .v2(
            "qr",
            &trade,
            &trade_secret,
            &json!({ "id": id, "token": token }),
        )
        .await;
    let codes = qr["data"].as_array().unwrap();
    assert_eq!(codes.len(), 2);
    assert!(codes.iter().all(|c| {
        c["src"]
            .as_str()
            .unwrap()
            .starts_with("data:image/png;base64,")
    }));
    assert_eq!(codes.iter().filter(|c| c["checked"] == true).count(), 1);
    let mailed = app
        .v2(
            "setEmail",
            &trade,
            &trade_secret,
            &json!({ "id": id, "token": token, "email": "watcher@example.com" }),
        )
        .await;
    assert_eq!(mailed["data"], true);
    for undeliverable in [
        "\"x y\"@example.org",
        "poison@[10.1.2.3]",
        "\u{FF41}lice@example.com",
    ] {
        let refused = app
            .v2(
                "setEmail",
                &trade,
                &trade_secret,
                &json!({ "id": id, "token": token, "email": undeliverable }),
            )
            .await;
        assert_eq!(refused["msg"], "email is incorrect", "{undeliverable}");
    }

    let mine = json_of(
        app.as_user(reqwest::Method::GET, "/api/orders", &alice.token)
            .await
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(
        mine.as_array().unwrap().iter().any(|o| o["id"] == id),
        "the key owner sees the order"
    );
    assert_eq!(
        commission_of(&app.summary(&alice).await, &id)["commission_state"],
        "pending"
    );

    // The sandbox deposit drives it to DONE; the commission becomes available, in BTC too.
    app.deposit(&id, None).await;
    let app_ref = &app;
    let (id_ref, token_ref) = (&id, &token);
    let (k, s) = (&trade, &trade_secret);
    eventually("the order is DONE", || async move {
        app_ref
            .v2("order", k, s, &json!({ "id": id_ref, "token": token_ref }))
            .await["data"]["status"]
            == "DONE"
    })
    .await;
    // The same request once the order is over is a new order, never the closed one's deposit.
    let (_, after_done) = app.v2_raw("create", &trade, &trade_secret, &body).await;
    assert_eq!(after_done["code"], 0, "{after_done}");
    assert_ne!(after_done["data"]["id"], id, "{after_done}");
    assert_eq!(after_done["data"]["status"], "NEW");
    let done = app
        .v2(
            "order",
            &trade,
            &trade_secret,
            &json!({ "id": id, "token": token }),
        )
        .await;
    assert!(done["data"]["to"]["tx"]["amount"].is_string(), "{done}");
    assert!(done["data"]["time"]["finish"].is_i64());
    commission_settles(&app, &alice, &id, "available").await;
    let summary = app.summary(&alice).await;
    let figure = |name: &str| summary[name].as_str().unwrap().parse::<f64>().unwrap();
    let markup_only = figure("volume_usd") * 0.005;
    assert!(
        figure("earned_usd") > 0.0 && (figure("earned_usd") - markup_only).abs() < 0.011,
        "the markup and nothing more: {summary}"
    );
    assert!(
        summary["earned_btc"]
            .as_str()
            .unwrap()
            .parse::<f64>()
            .unwrap()
            > 0.0,
        "{summary}"
    );
    let mails = app.store.mail_to("watcher@example.com").await.unwrap();
    assert!(
        mails.iter().any(|m| m.body.contains("completed")),
        "setEmail's address is told"
    );

    // Revocation works at once.
    let after = app.keys_of(&alice).await;
    assert!(count(&after, &trade) >= 7);
    let revoke = app
        .as_user(
            reqwest::Method::DELETE,
            &format!("/api/api-keys/{trade}"),
            &alice.token,
        )
        .await
        .send()
        .await
        .unwrap();
    assert_eq!(revoke.status(), StatusCode::OK);
    let (_, revoked) = app.v2_raw("ccies", &trade, &trade_secret, "{}").await;
    assert_eq!(
        (revoked["code"].as_i64(), revoked["msg"].as_str()),
        (Some(311), Some("Invalid API key"))
    );
}

async fn an_emergency_refund_through_the_api_reverses_the_commission(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let bob = partner(&app, "bob@example.com", true).await;
    let (key, secret, _) = app.create_key(&bob, "trade").await;
    let created = app
        .v2("create", &key, &secret, &btc_to_eth("0.1", "fixed"))
        .await;
    assert_eq!(created["code"], 0, "{created}");
    let id = created["data"]["id"].as_str().unwrap().to_owned();
    let token = created["data"]["token"].as_str().unwrap().to_owned();

    app.deposit(&id, Some("0.05")).await;
    let order = app
        .v2("order", &key, &secret, &json!({ "id": id, "token": token }))
        .await;
    assert_eq!(order["data"]["status"], "EMERGENCY");
    assert_eq!(order["data"]["emergency"]["status"], json!(["LESS"]));
    let no_address = app
        .v2(
            "emergency",
            &key,
            &secret,
            &json!({ "id": id, "token": token, "choice": "REFUND" }),
        )
        .await;
    assert_eq!(
        (no_address["code"].as_i64(), no_address["msg"].as_str()),
        (Some(301), Some("address is incorrect"))
    );
    let chosen = app
        .v2(
            "emergency",
            &key,
            &secret,
            &json!({ "id": id, "token": token, "choice": "REFUND", "address": BTC_ADDRESS }),
        )
        .await;
    assert_eq!(chosen["data"], true, "{chosen}");

    let (app_ref, id_ref, token_ref, k, s) = (&app, &id, &token, &key, &secret);
    eventually("the refund is DONE", || async move {
        app_ref
            .v2("order", k, s, &json!({ "id": id_ref, "token": token_ref }))
            .await["data"]["status"]
            == "DONE"
    })
    .await;
    let done = app
        .v2("order", &key, &secret, &json!({ "id": id, "token": token }))
        .await;
    assert_eq!(done["data"]["back"]["address"], BTC_ADDRESS);
    // What went back: the deposit less the network fee, with its transaction.
    let back = &done["data"]["back"]["tx"];
    let refunded: rust_decimal::Decimal = back["amount"].as_str().unwrap().parse().unwrap();
    let fee: rust_decimal::Decimal = back["fee"].as_str().unwrap().parse().unwrap();
    assert_eq!(refunded + fee, "0.05".parse().unwrap(), "{back}");
    assert!(back["id"].is_string(), "{back}");
    assert_eq!(done["data"]["emergency"]["choice"], "REFUND");
    commission_settles(&app, &bob, &id, "reversed").await;
    let summary = app.summary(&bob).await;
    assert_eq!(summary["earned_usd"], "0");
    assert_eq!(summary["available_usd"], "0");
}

async fn a_visitor_with_a_referral_code_earns_the_partner_a_commission_they_can_ask_to_be_paid(
    db: Db,
) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let carol = partner(&app, "carol@example.com", true).await;
    let click = app
        .post_json(
            "/api/affiliate/click",
            &json!({ "referral_code": carol.referral_code, "source": "direct" }),
        )
        .await;
    assert_eq!(click.status(), StatusCode::ACCEPTED);
    let order = json_of(
        app.post_json(
            "/api/create-order",
            &json!({ "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.5", "toAddress": ETH_ADDRESS,
                     "direction": "from", "type": "float", "referral_code": carol.referral_code }),
        )
        .await,
    )
    .await;
    let id = order["data"]["id"].as_str().unwrap().to_owned();
    // A referred user's orders count too; the partner's own orders do not.
    let response = app
        .post_json(
            "/api/register",
            &json!({ "email": "dave@example.com", "username": "dave@example.com", "password": PASSWORD,
                     "confirm_password": PASSWORD, "referral_code": carol.referral_code }),
        )
        .await;
    let dave = json_of(response).await["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let daves = json_of(
        app.as_user(reqwest::Method::POST, "/api/create-order", &dave)
            .await
            .json(
                &json!({ "fromCcy": "ETH", "toCcy": "BTC", "amount": "2", "toAddress": BTC_ADDRESS,
                           "direction": "from", "type": "float" }),
            )
            .send()
            .await
            .unwrap(),
    )
    .await;
    let daves = daves["data"]["id"].as_str().unwrap().to_owned();
    json_of(
        app.as_user(reqwest::Method::POST, "/api/create-order", &carol.token)
            .await
            .json(&json!({ "fromCcy": "ETH", "toCcy": "BTC", "amount": "2", "toAddress": BTC_ADDRESS,
                           "direction": "from", "type": "float", "referral_code": carol.referral_code }))
            .send()
            .await
            .unwrap(),
    )
    .await;

    let summary = app.summary(&carol).await;
    assert_eq!(summary["clicks"], 1);
    assert_eq!(summary["signups"], 1);
    assert_eq!(summary["orders"], 2, "{summary}");
    assert_eq!(summary["chart"].as_array().unwrap().len(), 90);
    assert_eq!(summary["chart"][89]["clicks"], 1);
    assert!(
        summary["referral_link"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/?ref={}", carol.referral_code))
    );

    let too_early = app
        .as_user(
            reqwest::Method::POST,
            "/api/affiliate/payouts",
            &carol.token,
        )
        .await
        .json(&json!({ "currency": "BTC", "address": BTC_ADDRESS }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        too_early.status(),
        StatusCode::BAD_REQUEST,
        "nothing is available before completion"
    );

    app.deposit(&id, None).await;
    app.deposit(&daves, None).await;
    let app_ref = &app;
    let carol_ref = &carol;
    eventually("both commissions are available", || async move {
        app_ref.summary(carol_ref).await["completed_orders"] == 2
    })
    .await;
    let summary = app.summary(&carol).await;
    let earned: f64 = summary["earned_usd"].as_str().unwrap().parse().unwrap();
    assert!(earned > 0.0);
    assert_eq!(summary["available_usd"], summary["earned_usd"]);

    let bad_address = app
        .as_user(
            reqwest::Method::POST,
            "/api/affiliate/payouts",
            &carol.token,
        )
        .await
        .json(
            &json!({ "currency": "BTC", "address": "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5" }),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(bad_address.status(), StatusCode::BAD_REQUEST);
    // Valid by every checksum, and whatever is sent there is gone: refused.
    let ask = |currency: &'static str, address: &'static str| {
        let (app, token) = (&app, carol.token.clone());
        async move {
            let response = app
                .as_user(reqwest::Method::POST, "/api/affiliate/payouts", &token)
                .await
                .json(&json!({ "currency": currency, "address": address }))
                .send()
                .await
                .unwrap();
            (response.status(), json_of(response).await)
        }
    };
    let (status, burn) = ask("ETH", "0x000000000000000000000000000000000000dEaD").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        burn["error"],
        "That address burns whatever is sent to it; enter an address you control"
    );
    // A currency the operator stopped paying out is not offered for payouts either.
    let switched = app
        .client
        .put(app.url("/api/admin/currency-overrides/ETH"))
        .bearer_auth(ADMIN)
        .json(&json!({ "recv": false }))
        .send()
        .await
        .unwrap();
    assert_eq!(switched.status(), StatusCode::OK);
    let (status, paused) = ask("ETH", ETH_ADDRESS).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        paused["error"],
        "ETH (ERC20) payouts are paused; choose another currency"
    );
    let requested = app
        .as_user(
            reqwest::Method::POST,
            "/api/affiliate/payouts",
            &carol.token,
        )
        .await
        .json(&json!({ "currency": "BTC", "address": BTC_ADDRESS }))
        .send()
        .await
        .unwrap();
    assert_eq!(requested.status(), StatusCode::OK);
    let payout = json_of(requested).await["payout"].clone();
    assert_eq!(payout["amount_usd"], summary["earned_usd"]);
    let twice = app
        .as_user(
            reqwest::Method::POST,
            "/api/affiliate/payouts",
            &carol.token,
        )
        .await
        .json(&json!({ "currency": "BTC", "address": BTC_ADDRESS }))
        .send()
        .await
        .unwrap();
    assert_eq!(twice.status(), StatusCode::CONFLICT);
    assert_eq!(app.summary(&carol).await["available_usd"], "0");

    // The operator sees the request and rejects it: the balance is back.
    let queue = json_of(
        app.client
            .get(app.url("/api/admin/payouts?status=requested"))
            .bearer_auth(ADMIN)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(queue[0]["id"], payout["id"]);
    let rejected = app
        .client
        .post(app.url(&format!(
            "/api/admin/payouts/{}",
            payout["id"].as_str().unwrap()
        )))
        .bearer_auth(ADMIN)
        .json(&json!({ "status": "rejected", "reason": "The address is an exchange's deposit" }))
        .send()
        .await
        .unwrap();
    assert_eq!(rejected.status(), StatusCode::OK);
    // Why is kept with the act.
    let log = json_of(
        app.client
            .get(app.url("/api/admin/audit?action=payout.close"))
            .bearer_auth(ADMIN)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        log["entries"][0]["reason"],
        "The address is an exchange's deposit"
    );
    assert_eq!(
        app.summary(&carol).await["available_usd"],
        summary["earned_usd"]
    );
}

/// What the test's webhook receiver saw.
#[derive(Default)]
struct Received {
    calls: Vec<(String, String, String)>,
}

async fn webhook_receiver() -> (String, Arc<Mutex<Received>>) {
    use axum::http::HeaderMap;
    let received = Arc::new(Mutex::new(Received::default()));
    let seen = received.clone();
    let router = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |headers: HeaderMap, body: String| {
            let seen = seen.clone();
            async move {
                let header = |n: &str| {
                    headers
                        .get(n)
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("")
                        .to_owned()
                };
                let mut seen = seen.lock().unwrap();
                seen.calls.push((
                    header("x-ferry-signature"),
                    header("x-ferry-timestamp"),
                    body,
                ));
                // The very first call fails, to prove the retry.
                if seen.calls.len() == 1 {
                    StatusCode::INTERNAL_SERVER_ERROR
                } else {
                    StatusCode::OK
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    (url, received)
}

async fn webhooks_are_signed_and_retried_after_a_server_error(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let (url, received) = webhook_receiver().await;
    let erin = partner(&app, "erin@example.com", true).await;
    let (key, secret, webhook_secret) = app.create_key(&erin, "trade").await;
    let bad_url = app
        .as_user(
            reqwest::Method::PUT,
            &format!("/api/api-keys/{key}/webhook"),
            &erin.token,
        )
        .await
        .json(&json!({ "url": "ftp://example.com/x" }))
        .send()
        .await
        .unwrap();
    assert_eq!(bad_url.status(), StatusCode::BAD_REQUEST);
    let saved = app
        .as_user(
            reqwest::Method::PUT,
            &format!("/api/api-keys/{key}/webhook"),
            &erin.token,
        )
        .await
        .json(&json!({ "url": url }))
        .send()
        .await
        .unwrap();
    assert_eq!(saved.status(), StatusCode::OK);

    let created = app
        .v2("create", &key, &secret, &btc_to_eth("0.1", "float"))
        .await;
    let id = created["data"]["id"].as_str().unwrap().to_owned();
    let seen = received.clone();
    eventually("the NEW notification arrives after one failure", || {
        let seen = seen.clone();
        async move { seen.lock().unwrap().calls.len() >= 2 }
    })
    .await;
    {
        let calls = &received.lock().unwrap().calls;
        assert_eq!(calls[0].2, calls[1].2, "the retry sends the same body");
        for (signature, timestamp, body) in calls.iter() {
            assert_eq!(signature, &hmac_hex(&webhook_secret, body.as_bytes()));
            assert_ne!(signature, &hmac_hex(&secret, body.as_bytes()));
            let parsed: Value = serde_json::from_str(body).unwrap();
            assert_eq!(parsed["timestamp"].to_string(), *timestamp);
            assert_eq!(parsed["data"]["id"], id);
            assert_eq!(parsed["status"], "NEW");
        }
    }

    app.deposit(&id, None).await;
    let seen = received.clone();
    eventually("the DONE notification arrives", || {
        let seen = seen.clone();
        async move {
            seen.lock()
                .unwrap()
                .calls
                .iter()
                .any(|(_, _, body)| body.contains(r#""status":"DONE""#))
        }
    })
    .await;

    let log = json_of(
        app.as_user(
            reqwest::Method::GET,
            &format!("/api/api-keys/{key}/deliveries"),
            &erin.token,
        )
        .await
        .send()
        .await
        .unwrap(),
    )
    .await;
    let deliveries = log["deliveries"].as_array().unwrap();
    let first = deliveries
        .iter()
        .find(|d| d["order_status"] == "NEW")
        .unwrap();
    assert_eq!(first["attempts"], 2, "{log}");
    assert_eq!(first["last_status_code"], 200);
    assert!(first["delivered_at"].is_i64());
    // An order a referred visitor makes is reported to the partner's webhook without its
    // token or the customer's addresses.
    let visitor = json_of(
        app.post_json(
            "/api/create-order",
            &json!({ "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.2", "toAddress": ETH_ADDRESS,
                     "direction": "from", "type": "float", "referralCode": erin.referral_code }),
        )
        .await,
    )
    .await;
    let visitor_id = visitor["data"]["id"].as_str().unwrap().to_owned();
    let seen = received.clone();
    let wanted = visitor_id.clone();
    eventually("the attributed order is reported", || {
        let seen = seen.clone();
        let wanted = wanted.clone();
        async move {
            seen.lock()
                .unwrap()
                .calls
                .iter()
                .any(|(_, _, body)| body.contains(&wanted))
        }
    })
    .await;
    {
        let calls = &received.lock().unwrap().calls;
        let (_, _, body) = calls
            .iter()
            .find(|(_, _, b)| b.contains(&visitor_id))
            .unwrap();
        let parsed: Value = serde_json::from_str(body).unwrap();
        assert_eq!(parsed["data"]["attributed"], true);
        assert!(parsed["data"]["token"].is_null(), "{body}");
        assert!(!body.contains(ETH_ADDRESS), "no customer address: {body}");
        assert!(!body.contains(visitor["data"]["token"].as_str().unwrap()));
    }
    let strangers = partner(&app, "mallory@example.com", true).await;
    let peek = app
        .as_user(
            reqwest::Method::GET,
            &format!("/api/api-keys/{key}/deliveries"),
            &strangers.token,
        )
        .await
        .send()
        .await
        .unwrap();
    assert_eq!(peek.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_rate_export_limits_match_the_partner_price() {
    // Still prices: the file and the price are worked out from the same market.
    let app = spawn_app_with(Db::Sqlite, |c| c.sandbox_prices_at = Some(STILL_PRICES_AT))
        .await
        .unwrap();
    let carol = partner(&app, "rates@example.com", true).await;
    let (key, secret, _) = app.create_key(&carol, "read").await;
    let element = |item: &str, name: &str| {
        let start = item.find(&format!("<{name}>")).unwrap() + name.len() + 2;
        let end = item.find(&format!("</{name}>")).unwrap();
        item[start..end].to_owned()
    };
    // Limits are written with their currency (`0.0015 BTC`): the amount, checked for its unit.
    let limit = |item: &str, name: &str| {
        let text = element(item, name);
        let (amount, unit) = text.split_once(' ').expect("an amount and its unit");
        assert_eq!(unit, element(item, "from"), "{item}");
        amount.to_owned()
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let mut file = app.get("/rates/float.xml").await;
    while file.status() != StatusCode::OK && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
        file = app.get("/rates/float.xml").await;
    }
    assert_eq!(file.status(), StatusCode::OK, "the first rate file");
    let xml = file.text().await.unwrap();
    let items: Vec<&str> = xml.lines().filter(|l| l.starts_with("<item>")).collect();
    assert!(items.len() > 100, "every enabled pair is listed");
    for item in items.iter().step_by(items.len() / 5) {
        let (from, to) = (element(item, "from"), element(item, "to"));
        let price = app
            .v2("price", &key, &secret, &json!({ "type": "float", "fromCcy": from, "toCcy": to,
                                                  "direction": "from", "amount": limit(item, "minamount") }))
            .await;
        assert_eq!(price["code"], 0, "{price}");
        assert_eq!(
            (&price["data"]["from"]["min"], &price["data"]["from"]["max"]),
            (
                &json!(limit(item, "minamount")),
                &json!(limit(item, "maxamount"))
            ),
            "the export and the price disagree: {item}"
        );
    }
}

#[tokio::test]
async fn slash_api_is_the_api_management_page_and_only_paths_below_it_are_the_api() {
    let app = spawn_app_with(Db::Sqlite, |_| {}).await.unwrap();
    let page = app.get("/api").await;
    let content_type = page.headers()["content-type"].to_str().unwrap().to_owned();
    // The app's HTML (or, in a build without the web app, the notice saying so).
    assert!(!content_type.contains("json"), "{content_type}");
    assert_ne!(page.status(), StatusCode::NOT_FOUND);
    let unknown = app.get("/api/no-such-call").await;
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    assert!(
        unknown.headers()["content-type"]
            .to_str()
            .unwrap()
            .contains("json")
    );
}

#[tokio::test]
async fn webhooks_may_not_point_at_the_servers_own_network_by_default() {
    let app = spawn_app_with(Db::Sqlite, |_| {}).await.unwrap();
    let frank = partner(&app, "frank@example.com", true).await;
    let (key, _, _) = app.create_key(&frank, "trade").await;
    for url in [
        "http://127.0.0.1:6379/",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/hook",
        "http://localhost/hook",
        "http://localhost./hook",
        "http://[64:ff9b::7f00:1]/",
        "http://[::127.0.0.1]/",
        "http://[::ffff:10.0.0.1]/",
        "http://192.0.0.1/",
        "http://198.18.0.1/",
        "http://2130706433/",
        "http://0x7f.1/",
        "http://127.1/",
        "http://[fe80::1]/",
    ] {
        let refused = app
            .as_user(
                reqwest::Method::PUT,
                &format!("/api/api-keys/{key}/webhook"),
                &frank.token,
            )
            .await
            .json(&json!({ "url": url }))
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST, "{url}");
        assert_eq!(
            json_of(refused).await["message"],
            "The webhook must be a public address, not a local or private one",
            "{url}"
        );
    }
    let keys = app.keys_of(&frank).await;
    assert!(
        keys["keys"]
            .as_array()
            .unwrap()
            .iter()
            .all(|k| k["webhook_url"].is_null()),
        "nothing was saved: {keys}"
    );
}

#[tokio::test]
async fn a_key_past_its_allowance_gets_429_with_retry_after_and_other_keys_do_not() {
    let app = spawn_app_with(Db::Sqlite, |c| c.partner_rate_per_minute = 2)
        .await
        .unwrap();
    let gina = partner(&app, "gina@example.com", true).await;
    let (busy, busy_secret, _) = app.create_key(&gina, "read").await;
    let (calm, calm_secret, _) = app.create_key(&gina, "read").await;
    for _ in 0..2 {
        assert_eq!(
            app.v2("ccies", &busy, &busy_secret, &json!({})).await["code"],
            0
        );
    }
    let response = app
        .client
        .post(app.url("/api/v2/ccies"))
        .header("x-api-key", &busy)
        .header("x-api-sign", hmac_hex(&busy_secret, b"{}"))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait));
    let answer = json_of(response).await;
    assert_eq!(answer["code"], 429);
    assert!(answer["msg"].as_str().unwrap().contains("retry in"));
    assert_eq!(
        app.v2("ccies", &calm, &calm_secret, &json!({})).await["code"],
        0
    );
}

/// A test's DNS: every name is `address`.
struct AnswersWith(std::net::SocketAddr);

impl reqwest::dns::Resolve for AnswersWith {
    fn resolve(&self, _: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let address = self.0;
        Box::pin(async move { Ok(Box::new(std::iter::once(address)) as reqwest::dns::Addrs) })
    }
}

/// An HTTP server that answers 200 to anything and counts the connections it accepts.
async fn counting_receiver() -> (std::net::SocketAddr, Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let connections = Arc::new(AtomicUsize::new(0));
    let counted = connections.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut chunk = [0_u8; 4096];
                // The request is small: read until its body (after the blank line) is in.
                while let Ok(n) = stream.read(&mut chunk).await {
                    request.extend_from_slice(&chunk[..n]);
                    let text = String::from_utf8_lossy(&request);
                    let complete = text.split_once("\r\n\r\n").is_some_and(|(head, body)| {
                        let length = head
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase()
                                    .strip_prefix("content-length:")
                                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                            })
                            .unwrap_or(0);
                        body.len() >= length
                    });
                    if n == 0 || complete {
                        break;
                    }
                }
                let _ = stream
                    .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
                    .await;
            });
        }
    });
    (address, connections)
}

/// The webhook's name passes the check at save time, but the test's DNS answers it with a
/// loopback address: the delivery is refused and nothing connects. The same delivery with
/// private addresses allowed reaches the receiver, so it is the check that stopped it.
async fn a_webhook_whose_name_resolves_to_a_private_address_is_refused_and_nothing_connects(
    db: Db,
) {
    use ferry::services::partners::keys::ApiKeys;
    use ferry::services::partners::webhooks::Webhooks;
    use ferry::store::{ApiKeyRecord, UserRecord, WebhookDelivery};
    use std::sync::atomic::Ordering;

    let Some((store, _guard)) = test_store(db).await else {
        return;
    };
    let (receiver, connections) = counting_receiver().await;
    let now = ferry::now_unix();
    store
        .insert_user(&UserRecord {
            id: "partner".into(),
            email: "partner@example.com".into(),
            full_name: "Partner".into(),
            password_hash: None,
            email_verified_at: Some(now),
            referral_code: "PARTNER1".into(),
            referred_by: None,
            totp_secret: None,
            totp_enabled: false,
            order_emails: false,
            language: "en".into(),
            created_at: now,
            updated_at: now,
            operator_role: None,
            locked_at: None,
        })
        .await
        .unwrap();
    store
        .insert_api_key(&ApiKeyRecord {
            id: "key".into(),
            user_id: "partner".into(),
            name: "hook".into(),
            permission: "trade".into(),
            salt: "00".into(),
            webhook_url: Some(format!("http://hook.example:{}/hook", receiver.port())),
            request_count: 0,
            last_used_at: None,
            created_at: now,
            revoked_at: None,
        })
        .await
        .unwrap();
    store
        .insert_webhook_delivery(&WebhookDelivery {
            id: "delivery".into(),
            api_key_id: "key".into(),
            order_id: "ORDER".into(),
            order_status: "NEW".into(),
            body: format!("{{\"timestamp\":{now}}}"),
            created_at: now,
            give_up_at: now + 3600,
            attempts: 0,
            next_attempt_at: Some(now),
            delivered_at: None,
            last_status_code: None,
            last_error: None,
        })
        .await
        .unwrap();
    let webhooks = |allow_private: bool| {
        let keys = Arc::new(ApiKeys::new(
            store.clone(),
            b"secret".to_vec(),
            60,
            None,
            allow_private,
        ));
        Webhooks::new(
            store.clone(),
            keys,
            ferry::domain::currency::Catalogue::embedded(),
            1,
            allow_private,
            Arc::new(AnswersWith(receiver)),
        )
    };

    assert_eq!(webhooks(false).deliver_due("test", now).await.unwrap(), 0);
    let attempts = store.webhook_deliveries_of("key", 10).await.unwrap();
    assert_eq!(
        attempts[0].last_error.as_deref(),
        Some("the webhook host is not a public address")
    );
    assert!(
        attempts[0].next_attempt_at.is_some(),
        "retried later, checked again"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(connections.load(Ordering::SeqCst), 0, "nothing connected");

    assert_eq!(
        webhooks(true).deliver_due("test", now + 60).await.unwrap(),
        1
    );
    assert_eq!(connections.load(Ordering::SeqCst), 1);
}

/// A partner's `refcode` names who the order is attributed to, even when the key's owner was
/// once referred by someone else.
async fn a_refcode_names_the_partner_over_the_key_owners_own_referrer(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let carol = partner(&app, "carol@example.com", true).await;
    let bob = partner(&app, "bob@example.com", true).await;
    let response = app
        .post_json(
            "/api/register",
            &json!({ "email": "alice@example.com", "username": "alice@example.com",
                     "password": PASSWORD, "confirm_password": PASSWORD,
                     "referral_code": carol.referral_code }),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let alice_body = json_of(response).await;
    let alice_user = app
        .store
        .find_user_by_email("alice@example.com")
        .await
        .unwrap()
        .unwrap();
    assert!(
        alice_user.referred_by.is_some(),
        "alice was referred by carol"
    );
    app.store
        .change_user(&alice_user.id, ferry::store::UserChange::EmailVerified, 1)
        .await
        .unwrap();
    let alice = Partner {
        token: alice_body["token"].as_str().unwrap().to_owned(),
        referral_code: alice_body["user"]["referral_code"]
            .as_str()
            .unwrap()
            .to_owned(),
    };
    let (key, secret, _) = app.create_key(&alice, "trade").await;
    let mut body = btc_to_eth("0.1", "float");
    body["refcode"] = json!(bob.referral_code);
    let created = app.v2("create", &key, &secret, &body).await;
    assert_eq!(created["code"], 0, "{created}");
    let id = created["data"]["id"].as_str().unwrap();
    let order = app.store.find_order(id).await.unwrap().unwrap();
    let bob_user = app
        .store
        .find_user_by_email("bob@example.com")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        order.affiliate_user_id.as_deref(),
        Some(bob_user.id.as_str())
    );
    let _ = carol;
}
