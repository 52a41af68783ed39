//! Bitcoin over Lightning (`BTCLN`, issue 19): paid out to a customer's BOLT 11 invoice, whose
//! amount the order takes, and paid in with an invoice the sandbox signs. Invoices that cannot
//! be paid (test network, no amount, expired or expiring too soon, used before) are refused with
//! a reason, on the site and in the partner API, and one invoice never makes two orders.

use std::time::Duration;

use bitcoin::hashes::{Hash, sha256};
use bitcoin::secp256k1::{Secp256k1, SecretKey};
use ferry::domain::lightning::{decode, sign_invoice};
use lightning_invoice::{Currency, InvoiceBuilder, PaymentSecret};
use reqwest::StatusCode;
use rust_decimal::Decimal;
use serde_json::{Value, json};

use crate::helpers::{Db, TestApp, json_of};
use crate::on_both_backends;
use crate::partners::{ETH_ADDRESS, app_on, eventually, partner};

on_both_backends!(
    an_invoice_sets_the_amount_of_a_fixed_order_and_is_paid_once,
    a_lightning_deposit_is_an_invoice_for_the_amount_to_send,
    a_lightning_deposit_is_refunded_to_an_invoice_made_for_the_refund,
);

/// A customer's invoice for `msat`, signed by their wallet's key, issued `age` seconds ago.
fn invoice(currency: Currency, msat: Option<u64>, age: u64, expiry: u64) -> String {
    invoice_for_hash(currency, msat, age, expiry, rand::random())
}

fn invoice_for_hash(
    currency: Currency,
    msat: Option<u64>,
    age: u64,
    expiry: u64,
    preimage: [u8; 32],
) -> String {
    let key = SecretKey::from_slice(&[0x42; 32]).unwrap();
    let issued = ferry::now_unix() as u64 - age;
    let builder = InvoiceBuilder::new(currency)
        .description("payout".into())
        .payment_hash(sha256::Hash::hash(&preimage))
        .payment_secret(PaymentSecret(rand::random()))
        .duration_since_epoch(Duration::from_secs(issued))
        .min_final_cltv_expiry_delta(144)
        .expiry_time(Duration::from_secs(expiry));
    let sign = |hash: &bitcoin::secp256k1::Message| {
        Secp256k1::signing_only().sign_ecdsa_recoverable(hash, &key)
    };
    match msat {
        Some(msat) => builder.amount_milli_satoshis(msat).build_signed(sign),
        None => builder.build_signed(sign),
    }
    .unwrap()
    .to_string()
}

fn payable(msat: u64) -> String {
    invoice(Currency::Bitcoin, Some(msat), 0, 7200)
}

async fn trade_key(app: &TestApp, email: &str) -> (String, String) {
    let owner = partner(app, email, true).await;
    let (key, secret, _) = app.create_key(&owner, "trade").await;
    (key, secret)
}

async fn create(app: &TestApp, key: &(String, String), body: Value) -> Value {
    app.v2("create", &key.0, &key.1, &body).await
}

fn to_lightning(invoice: &str) -> Value {
    // A float order "from" 100 USDT: the invoice overrides all three.
    json!({ "type": "float", "fromCcy": "USDTTRC", "toCcy": "BTCLN", "direction": "from",
            "amount": "100", "toAddress": invoice })
}

async fn an_invoice_sets_the_amount_of_a_fixed_order_and_is_paid_once(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let key = trade_key(&app, "ln-payout@example.com").await;

    let ccies = app.v2("ccies", &key.0, &key.1, &json!({})).await;
    let listed = ccies["data"].as_array().unwrap();
    let btcln = listed.iter().find(|c| c["code"] == "BTCLN").expect("BTCLN");
    assert_eq!(
        (&btcln["coin"], &btcln["network"]),
        (&json!("BTC"), &json!("LN"))
    );

    // 50,000 sat, given as a `lightning:` URI in upper case (as QR codes carry it).
    let text = payable(50_000_000);
    let created = create(
        &app,
        &key,
        to_lightning(&format!("LIGHTNING:{}", text.to_uppercase())),
    )
    .await;
    assert_eq!(created["code"], 0, "{created}");
    let order = &created["data"];
    assert_eq!(order["type"], "fixed", "an invoice is paid exactly");
    assert_eq!(order["to"]["amount"], "0.0005");
    assert_eq!(
        order["to"]["address"],
        text.as_str(),
        "kept as the invoice itself"
    );
    assert!(
        order["from"]["amount"]
            .as_str()
            .unwrap()
            .parse::<Decimal>()
            .unwrap()
            > Decimal::ZERO
    );

    // Given again, by anyone and in any spelling: refused, no second order.
    let again = create(
        &app,
        &trade_key(&app, "ln-other@example.com").await,
        to_lightning(&text),
    )
    .await;
    assert_eq!(again["code"], 301, "{again}");
    assert_eq!(
        again["msg"],
        "This invoice was given for another order already: make a new one"
    );

    // The deposit arrives: the invoice is paid, its amount exactly.
    let (id, token) = (
        order["id"].as_str().unwrap(),
        order["token"].as_str().unwrap(),
    );
    app.deposit(id, None).await;
    let which = json!({ "id": id, "token": token });
    let order_now = || app.v2("order", &key.0, &key.1, &which);
    eventually("the payout", || async {
        order_now().await["data"]["status"] == "DONE"
    })
    .await;
    let done = order_now().await["data"].clone();
    assert_eq!(done["to"]["tx"]["amount"], "0.0005");
    assert_eq!(done["to"]["tx"]["ccyfee"], "BTCLN");
}

async fn a_lightning_deposit_is_an_invoice_for_the_amount_to_send(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let key = trade_key(&app, "ln-deposit@example.com").await;
    let created = create(
        &app,
        &key,
        json!({ "type": "float", "fromCcy": "BTCLN", "toCcy": "ETH", "direction": "from",
                "amount": "0.001", "toAddress": ETH_ADDRESS }),
    )
    .await;
    assert_eq!(created["code"], 0, "{created}");
    let order = &created["data"];
    let deposit = order["from"]["address"].as_str().unwrap();
    assert!(
        deposit.starts_with("lnbc1m1"),
        "0.001 BTC is one milli-bitcoin: {deposit}"
    );
    let now = ferry::now_unix();
    let invoice = decode(deposit, now).expect("a payable invoice");
    assert_eq!(invoice.amount.to_string(), order["from"]["amount"]);
    // Payable for as long as the order waits for it.
    let expiration = order["time"]["expiration"].as_i64().unwrap();
    assert!(
        (invoice.expires_at - expiration).abs() <= 5,
        "{} vs {expiration}",
        invoice.expires_at
    );

    let qr = app
        .v2(
            "qr",
            &key.0,
            &key.1,
            &json!({ "id": order["id"], "token": order["token"] }),
        )
        .await;
    assert_eq!(qr["code"], 0, "{qr}");
}

#[tokio::test]
async fn invoices_that_cannot_be_paid_are_refused_with_their_reason() {
    let Some(app) = app_on(Db::Sqlite).await else {
        return;
    };
    let verdict = |address: String, from: Option<&'static str>| {
        let app = &app;
        async move {
            let response = app
                .post_json(
                    "/api/validate-address",
                    &json!({ "currency": "BTCLN", "address": address, "from_currency": from }),
                )
                .await;
            assert_eq!(response.status(), StatusCode::OK);
            json_of(response).await["data"].clone()
        }
    };
    let good = verdict(payable(1_234_000), None).await;
    assert_eq!(good["valid"], true, "{good}");
    assert_eq!(good["invoice"]["amount"], "0.00001234");

    for (text, reason, message) in [
        (
            invoice(Currency::BitcoinTestnet, Some(1_000_000), 0, 7200),
            "invoice_network",
            "This invoice is for a test network: give an invoice of Bitcoin's main network (lnbc…)",
        ),
        (
            invoice(Currency::Bitcoin, None, 0, 7200),
            "invoice_no_amount",
            "This invoice has no amount: make one for the amount you want to receive",
        ),
        (
            invoice(Currency::Bitcoin, Some(1_000_000), 7200, 3600),
            "invoice_expired",
            "This invoice has expired: make a new one",
        ),
        (
            // 10½ minutes: still "10 minutes" however slowly the checks before this one run.
            invoice(Currency::Bitcoin, Some(1_000_000), 0, 630),
            "invoice_expires_soon",
            // The deposit window (30), USDT's 19 Tron confirmations (doubled: 2), the exchange (15).
            "This invoice expires in 10 minutes: make one valid for at least 47 minutes, so that it can be paid",
        ),
        (
            invoice(Currency::Bitcoin, Some(1_000_500), 0, 7200),
            "invoice_sub_satoshi",
            "This invoice asks for a fraction of a satoshi: make one for whole satoshis",
        ),
        (
            ETH_ADDRESS.to_owned(),
            "invoice_malformed",
            "This is not a Lightning invoice (BOLT 11), or part of it is missing",
        ),
    ] {
        let answer = verdict(text.clone(), Some("USDTTRC")).await;
        assert_eq!(answer["valid"], false, "{answer}");
        assert_eq!(answer["reason"], reason, "{answer}");
        assert_eq!(answer["message"], message, "{answer}");
        // The same refusal when the order is asked for, and no order.
        let response = app
            .post_json(
                "/api/create-order",
                &json!({ "fromCcy": "USDTTRC", "toCcy": "BTCLN", "amount": "100", "toAddress": text }),
            )
            .await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        assert_eq!(json_of(response).await["message"], message);
    }
    // Without the send coin, only the deposit window and the exchange count; paid in bitcoin,
    // its two slow confirmations too.
    let soon = invoice(Currency::Bitcoin, Some(1_000_000), 0, 600);
    let needed = |from| {
        let soon = soon.clone();
        let verdict = &verdict;
        async move { verdict(soon, from).await["invoice_minutes"]["needed"].clone() }
    };
    assert_eq!(needed(None).await, 45);
    assert_eq!(needed(Some("BTC")).await, 85);

    // One payment hash is one payment: another invoice for it (another amount, even) is used.
    let preimage: [u8; 32] = rand::random();
    let first = invoice_for_hash(Currency::Bitcoin, Some(30_000_000), 0, 7200, preimage);
    let second = invoice_for_hash(Currency::Bitcoin, Some(40_000_000), 0, 7200, preimage);
    let order = |text: &String| {
        let body =
            json!({ "fromCcy": "USDTTRC", "toCcy": "BTCLN", "amount": "1", "toAddress": text });
        let app = &app;
        async move { app.post_json("/api/create-order", &body).await }
    };
    assert_eq!(order(&first).await.status(), StatusCode::OK);
    let again = order(&second).await;
    assert_eq!(again.status(), StatusCode::BAD_REQUEST);
    assert_eq!(verdict(second, None).await["reason"], "invoice_used");

    // The sandbox's own signer is the same code the customer's invoices are checked with.
    let ours = sign_invoice(
        Decimal::new(5, 4),
        ferry::now_unix(),
        Duration::from_secs(3600),
        b"k",
        "d",
    )
    .unwrap();
    assert_eq!(verdict(ours, None).await["valid"], true);
}

#[tokio::test]
async fn one_invoice_given_twice_at_once_makes_one_order() {
    let Some(app) = app_on(Db::Sqlite).await else {
        return;
    };
    let text = payable(20_000_000);
    let body =
        json!({ "fromCcy": "USDTTRC", "toCcy": "BTCLN", "amount": "100", "toAddress": text });
    let attempts = (0..6).map(|_| app.post_json("/api/create-order", &body));
    let answers = futures_util::future::join_all(attempts).await;
    let statuses: Vec<StatusCode> = answers.iter().map(|r| r.status()).collect();
    let made = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    assert_eq!(made, 1, "{statuses:?}");
    assert!(
        statuses
            .iter()
            .all(|s| *s == StatusCode::OK || *s == StatusCode::BAD_REQUEST),
        "{statuses:?}"
    );
}

#[tokio::test]
async fn a_price_over_the_maximum_in_the_receive_coin_is_limit_max_not_reserve() {
    let Some(app) = app_on(Db::Sqlite).await else {
        return;
    };
    let key = trade_key(&app, "limit-max@example.com").await;
    let price = app
        .v2(
            "price",
            &key.0,
            &key.1,
            &json!({ "type": "float", "fromCcy": "BTC", "toCcy": "USDTTRC", "direction": "to",
                     "amount": "90000000" }),
        )
        .await;
    assert_eq!(price["code"], 0, "{price}");
    assert_eq!(price["data"]["errors"], json!(["LIMIT_MAX"]), "{price}");
}

async fn a_lightning_deposit_is_refunded_to_an_invoice_made_for_the_refund(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let key = trade_key(&app, "ln-refund@example.com").await;
    let mut body = json!({ "type": "fixed", "fromCcy": "BTCLN", "toCcy": "ETH", "direction": "from",
                           "amount": "0.01", "toAddress": ETH_ADDRESS });
    // No refund invoice up front: it needs the refund's amount.
    let site_body = json!({ "fromCcy": "BTCLN", "toCcy": "ETH", "amount": "0.01", "type": "fixed",
                            "toAddress": ETH_ADDRESS, "refundAddress": payable(1_000_000) });
    let refused = app.post_json("/api/create-order", &site_body).await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    assert!(
        json_of(refused).await["message"]
            .as_str()
            .unwrap()
            .starts_with(
                "A Lightning deposit is refunded to an invoice you make if a refund is needed"
            )
    );
    let created = create(&app, &key, body.take()).await;
    assert_eq!(created["code"], 0, "{created}");
    let (id, token) = (
        created["data"]["id"].as_str().unwrap().to_owned(),
        created["data"]["token"].as_str().unwrap().to_owned(),
    );
    // Half arrives: the customer must choose; the refund is what came less the network fee.
    app.deposit(&id, Some("0.005")).await;
    let details = json_of(
        app.get(&format!("/api/order-details/{id}?token={token}"))
            .await,
    )
    .await;
    assert_eq!(details["data"]["status"], "EMERGENCY", "{details}");
    let refund: Decimal = details["data"]["emergency"]["outcomes"]["refund"]["amount"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(refund > Decimal::ZERO && refund < Decimal::new(5, 3));
    let msat = |btc: Decimal| {
        use rust_decimal::prelude::ToPrimitive;
        (btc * Decimal::new(100_000_000_000, 0)).to_u64().unwrap()
    };
    let choose = |invoice: String| {
        let (app, key, id, token) = (&app, &key, id.clone(), token.clone());
        async move {
            app.v2(
                "emergency",
                &key.0,
                &key.1,
                &json!({ "id": id, "token": token, "choice": "REFUND", "address": invoice }),
            )
            .await
        }
    };
    // An invoice for more than arrived could never be paid: refused, and the choice is open.
    let greedy = choose(payable(msat(Decimal::new(10, 0)))).await;
    assert_eq!(greedy["code"], 301, "{greedy}");
    assert!(
        greedy["msg"]
            .as_str()
            .unwrap()
            .starts_with("Invalid address: The refund invoice may ask for at most 0.005 BTC"),
        "{greedy}"
    );
    // One for the refund: the refund pays it, its amount exactly.
    let refund_invoice = payable(msat(refund));
    let chosen = choose(refund_invoice.clone()).await;
    assert_eq!(chosen["data"], true, "{chosen}");
    let which = json!({ "id": id, "token": token });
    let order_now = || app.v2("order", &key.0, &key.1, &which);
    eventually("the refund", || async {
        order_now().await["data"]["back"]["tx"]["id"].is_string()
    })
    .await;
    let refunded = order_now().await["data"].clone();
    assert_eq!(refunded["back"]["address"], refund_invoice.as_str());
    let sent: Decimal = refunded["back"]["tx"]["amount"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(sent, refund);
}
