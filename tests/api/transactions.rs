//! Transactions on every order (issue 19): the deposit, the payout and the refund are recorded
//! with their id, amount, fee, confirmations and time, and read back at every step through the
//! partner API (`from.tx`, `to.tx`, `back.tx`), the site's order API and the status mails.
//! The sandbox's steps are driven one by one here (its own step time is an hour).

use serde_json::{Value, json};

use crate::helpers::{Db, TestApp, json_of, spawn_app_with};
use crate::on_both_backends;
use crate::partners::{ADMIN, BTC_ADDRESS, ETH_ADDRESS, partner};

on_both_backends!(
    a_completed_order_shows_its_deposit_and_payout_transactions_at_every_step,
    a_refunded_order_reads_as_a_refund_with_its_transaction_and_amount_after_the_fee,
);

const STEP: i64 = 3600;

async fn app_on(db: Db) -> Option<TestApp> {
    spawn_app_with(db, |c| {
        c.admin_token = Some(ADMIN.into());
        c.sandbox_step_seconds = STEP as u32;
    })
    .await
}

/// Moves every due order one step on, as the worker would an hour later.
async fn step(app: &TestApp, hours: i64) {
    app.orders
        .advance_due("test", ferry::now_unix() + hours * STEP + 1)
        .await
        .expect("a step");
}

struct Api<'a> {
    app: &'a TestApp,
    key: String,
    secret: String,
}

impl Api<'_> {
    async fn order(&self, id: &str, token: &str) -> Value {
        let answer = self
            .app
            .v2(
                "order",
                &self.key,
                &self.secret,
                &json!({ "id": id, "token": token }),
            )
            .await;
        assert_eq!(answer["code"], 0, "{answer}");
        answer["data"].clone()
    }
}

async fn api<'a>(app: &'a TestApp, email: &str) -> Api<'a> {
    let owner = partner(app, email, true).await;
    let (key, secret, _) = app.create_key(&owner, "trade").await;
    Api { app, key, secret }
}

async fn details(app: &TestApp, id: &str, token: &str) -> Value {
    json_of(
        app.get(&format!("/api/order-details/{id}?token={token}"))
            .await,
    )
    .await["data"]
        .clone()
}

fn is_hex(s: &str, len: usize) -> bool {
    s.len() == len
        && s.chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
}

fn dec(value: &Value) -> rust_decimal::Decimal {
    value.as_str().expect("a decimal string").parse().unwrap()
}

const EMPTY_TX: &str = r#"{"amount":null,"ccyfee":null,"confirmations":null,"fee":null,"id":null,"timeBlock":null,"timeReg":null}"#;

async fn a_completed_order_shows_its_deposit_and_payout_transactions_at_every_step(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let api = api(&app, "tx@example.com").await;
    let created = app
        .v2(
            "create",
            &api.key,
            &api.secret,
            &json!({ "type": "float", "fromCcy": "BTC", "toCcy": "ETH", "direction": "from",
                     "amount": "0.1", "toAddress": ETH_ADDRESS }),
        )
        .await;
    assert_eq!(created["code"], 0, "{created}");
    let id = created["data"]["id"].as_str().unwrap().to_owned();
    let token = created["data"]["token"].as_str().unwrap().to_owned();
    app.v2(
        "setEmail",
        &api.key,
        &api.secret,
        &json!({ "id": id, "token": token, "email": "watch-tx@example.com" }),
    )
    .await;

    // NEW: nothing has moved yet.
    let new = api.order(&id, &token).await;
    assert_eq!(new["from"]["tx"].to_string(), EMPTY_TX);
    assert_eq!(new["to"]["tx"].to_string(), EMPTY_TX);
    assert_eq!(new["back"]["tx"].to_string(), EMPTY_TX);

    // PENDING: the deposit's transaction, unconfirmed; `from.amount` stays what was asked.
    app.deposit(&id, Some("0.1")).await;
    let pending = api.order(&id, &token).await;
    assert_eq!(pending["status"], "PENDING");
    let deposit = &pending["from"]["tx"];
    let deposit_id = deposit["id"].as_str().unwrap().to_owned();
    assert!(is_hex(&deposit_id, 64), "a Bitcoin txid: {deposit_id}");
    assert_eq!(deposit["amount"], "0.1");
    assert_eq!(deposit["confirmations"], 0);
    assert!(deposit["timeReg"].is_i64());
    assert_eq!(deposit["timeBlock"], Value::Null, "not in a block yet");
    assert_eq!(pending["from"]["amount"], "0.1");
    assert_eq!(pending["to"]["tx"].to_string(), EMPTY_TX);

    // EXCHANGE: the deposit has its confirmations (Bitcoin: 2).
    step(&app, 1).await;
    let exchange = api.order(&id, &token).await;
    assert_eq!(exchange["status"], "EXCHANGE");
    assert_eq!(exchange["from"]["tx"]["id"], deposit_id.as_str());
    assert_eq!(exchange["from"]["tx"]["confirmations"], 2);
    assert!(exchange["from"]["tx"]["timeBlock"].is_i64());

    // WITHDRAW: the payout is on its way, with an Ethereum hash and the network fee in ETH.
    step(&app, 2).await;
    let withdraw = api.order(&id, &token).await;
    assert_eq!(withdraw["status"], "WITHDRAW");
    let payout = &withdraw["to"]["tx"];
    let payout_id = payout["id"].as_str().unwrap().to_owned();
    assert!(
        payout_id.starts_with("0x") && is_hex(&payout_id[2..], 64),
        "an Ethereum hash: {payout_id}"
    );
    assert_eq!(payout["amount"], withdraw["to"]["amount"]);
    assert!(dec(&payout["fee"]) > rust_decimal::Decimal::ZERO);
    assert_eq!(payout["ccyfee"], "ETH");
    assert_eq!(payout["confirmations"], 0);

    // DONE: paid out and confirmed; no refund.
    step(&app, 3).await;
    let done = api.order(&id, &token).await;
    assert_eq!(done["status"], "DONE");
    assert_eq!(done["to"]["tx"]["id"], payout_id.as_str());
    assert_eq!(done["to"]["tx"]["confirmations"], 1);
    assert_eq!(done["back"]["tx"].to_string(), EMPTY_TX);
    assert_eq!(done["from"]["amount"], "0.1");

    // The site's view: the same transactions; the sandbox's made-up ones link nowhere.
    let site = details(&app, &id, &token).await;
    let txs = &site["transactions"];
    assert_eq!(txs["deposit"]["id"], deposit_id.as_str());
    assert_eq!(txs["deposit"]["amount"], "0.1");
    assert_eq!(txs["deposit"]["confirmations"], 2);
    assert_eq!(txs["payout"]["id"], payout_id.as_str());
    assert!(txs["payout"]["fee"].is_string());
    assert_eq!(txs["deposit"]["explorer"], Value::Null);
    assert_eq!(txs["refund"], Value::Null);

    // The mails name them.
    let mails = app.store.mail_to("watch-tx@example.com").await.unwrap();
    let completed = mails
        .iter()
        .find(|m| m.subject.contains("completed"))
        .expect("a completion mail");
    assert!(
        completed.body.contains(&format!(
            "Deposit received: 0.1 BTC, transaction {deposit_id}"
        )),
        "{}",
        completed.body
    );
    assert!(
        completed
            .body
            .contains(&format!("to {ETH_ADDRESS}, transaction {payout_id}")),
        "{}",
        completed.body
    );
}

async fn a_refunded_order_reads_as_a_refund_with_its_transaction_and_amount_after_the_fee(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let api = api(&app, "refund-tx@example.com").await;
    let created = app
        .v2(
            "create",
            &api.key,
            &api.secret,
            &json!({ "type": "fixed", "fromCcy": "BTC", "toCcy": "ETH", "direction": "from",
                     "amount": "0.1", "toAddress": ETH_ADDRESS }),
        )
        .await;
    assert_eq!(created["code"], 0, "{created}");
    let id = created["data"]["id"].as_str().unwrap().to_owned();
    let token = created["data"]["token"].as_str().unwrap().to_owned();

    // Less than the fixed order asked for: the customer must choose, and sees both outcomes.
    app.deposit(&id, Some("0.05")).await;
    let site = details(&app, &id, &token).await;
    assert_eq!(site["status"], "EMERGENCY");
    // Asked about only once confirmed: the deposit shows its confirmations and block time.
    let asked = api.order(&id, &token).await;
    assert_eq!(asked["from"]["tx"]["confirmations"], 2, "{asked}");
    assert!(asked["from"]["tx"]["timeBlock"].is_i64(), "{asked}");
    let outcomes = &site["emergency"]["outcomes"];
    let refund_estimate = dec(&outcomes["refund"]["amount"]);
    let fee = dec(&outcomes["refund"]["fee"]);
    assert!(fee > rust_decimal::Decimal::ZERO, "{outcomes}");
    assert_eq!(refund_estimate, dec(&json!("0.05")) - fee, "{outcomes}");
    assert_eq!(site["refund"]["amount"], outcomes["refund"]["amount"]);
    assert!(
        dec(&outcomes["exchange"]["amount"]) > rust_decimal::Decimal::ZERO,
        "continuing pays out at today's rate: {outcomes}"
    );

    let chosen = app
        .v2(
            "emergency",
            &api.key,
            &api.secret,
            &json!({ "id": id, "token": token, "choice": "REFUND", "address": BTC_ADDRESS }),
        )
        .await;
    assert_eq!(chosen["data"], true, "{chosen}");
    let chosen_view = details(&app, &id, &token).await;
    assert_eq!(
        chosen_view["emergency"]["outcomes"],
        Value::Null,
        "no estimates once chosen"
    );
    step(&app, 1).await;

    // DONE with `back` filled: a refund, never read as a payout.
    let done = api.order(&id, &token).await;
    assert_eq!(done["status"], "DONE");
    let back = &done["back"];
    let refund_id = back["tx"]["id"].as_str().unwrap().to_owned();
    assert!(is_hex(&refund_id, 64), "a Bitcoin txid: {refund_id}");
    // The deposit less the network fee when sent: the estimate's fee, unless the sandbox market
    // (a step every five seconds) moved between the estimate and the refund.
    let sent_fee = dec(&back["tx"]["fee"]);
    assert_eq!(dec(&back["tx"]["amount"]), dec(&json!("0.05")) - sent_fee);
    assert_eq!(back["amount"], back["tx"]["amount"]);
    assert!(
        (sent_fee - fee).abs() <= fee / rust_decimal::Decimal::TEN,
        "the fee sent {sent_fee} is the estimate's {fee}, give or take a market step"
    );
    assert_eq!(back["tx"]["ccyfee"], "BTC");
    assert_eq!(back["address"], BTC_ADDRESS);
    assert_eq!(back["code"], "BTC");
    assert_eq!(done["from"]["tx"]["amount"], "0.05");
    assert_eq!(done["from"]["amount"], "0.1", "the amount asked for stays");
    assert_eq!(
        done["to"]["tx"].to_string(),
        EMPTY_TX,
        "nothing was paid out"
    );
    assert_eq!(done["emergency"]["choice"], "REFUND");

    let site = details(&app, &id, &token).await;
    assert_eq!(site["status"], "REFUNDED");
    assert_eq!(site["refund"]["address"], BTC_ADDRESS);
    assert_eq!(site["refund"]["amount"], back["tx"]["amount"]);
    assert_eq!(site["transactions"]["refund"]["id"], refund_id.as_str());
    assert_eq!(site["transactions"]["payout"], Value::Null);
}
