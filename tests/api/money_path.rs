//! The money path under real use and attack (issue 17): idempotency keys that answer only their
//! caller, memo coins that share an address, choices that are final, late deposits that reopen
//! an order, and order changes that commit with their consequences or not at all.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::Row;

use crate::helpers::{Db, TestApp, json_of, raw_store};
use crate::on_both_backends;
use crate::partners::{ADMIN, ETH_ADDRESS, app_on, eventually, partner};

const BTC_ADDRESS: &str = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const LTC_ADDRESS: &str = "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9";

on_both_backends!(
    an_idempotency_key_answers_only_its_caller_and_only_the_same_request,
    memo_coins_get_one_address_and_a_tag_of_their_own_order_after_order,
    an_emergency_choice_is_final_and_a_second_one_is_refused,
    a_late_deposit_after_expiry_reaches_the_open_event_stream_and_reopens_the_commission,
    a_change_whose_consequences_cannot_be_stored_is_not_made_and_its_retry_is_made_once,
    a_deposit_outside_the_limits_can_only_be_refunded,
    a_corrupt_order_row_holds_up_no_other_order,
);

fn order_body(from: &str, amount: &str, address: &str, rate_type: &str) -> Value {
    json!({ "fromCcy": from, "toCcy": "ETH", "amount": amount, "toAddress": ETH_ADDRESS,
            "refundAddress": address, "direction": "from", "type": rate_type })
}

impl TestApp {
    async fn create_with(
        &self,
        body: &Value,
        key: Option<&str>,
        bearer: Option<&str>,
    ) -> (StatusCode, Value) {
        let mut request = self.client.post(self.url("/api/create-order")).json(body);
        if let Some(key) = key {
            request = request.header("idempotency-key", key);
        }
        if let Some(token) = bearer {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        (status, json_of(response).await)
    }

    async fn created(&self, body: &Value, key: Option<&str>, bearer: Option<&str>) -> Value {
        let (status, answer) = self.create_with(body, key, bearer).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        answer["data"].clone()
    }

    async fn admin_deposit(&self, id: &str, amount: Option<&str>) -> (StatusCode, Value) {
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
        let status = response.status();
        (status, json_of(response).await)
    }

    async fn choose(&self, order: &Value, choice: &str, address: Option<&str>) -> StatusCode {
        let mut body = json!({ "id": order["id"], "token": order["token"], "choice": choice });
        if let Some(address) = address {
            body["address"] = json!(address);
        }
        self.post_json("/api/order-emergency", &body).await.status()
    }

    async fn status_of(&self, id: &str) -> String {
        self.store
            .find_order(id)
            .await
            .unwrap()
            .unwrap()
            .status
            .as_str()
            .to_owned()
    }

    async fn count(&self, sql: &str, id: &str) -> i64 {
        let raw = raw_store(&self.db).await;
        sqlx::query(sql)
            .bind(id)
            .fetch_one(raw.pool())
            .await
            .unwrap()
            .try_get("n")
            .unwrap()
    }
}

async fn an_idempotency_key_answers_only_its_caller_and_only_the_same_request(db: Db) {
    let Some(app) = app_on(db).await else { return };
    let btc = order_body("BTC", "0.01", BTC_ADDRESS, "float");
    let ltc = order_body("LTC", "2", LTC_ADDRESS, "fixed");

    // Anonymous callers: the same key and request is a retry; another request is another order.
    let first = app.created(&btc, Some("cart-42"), None).await;
    let retry = app.created(&btc, Some("cart-42"), None).await;
    assert_eq!(retry["id"], first["id"]);
    assert_eq!(retry["token"], first["token"]);
    let stranger = app.created(&ltc, Some("cart-42"), None).await;
    assert_ne!(stranger["id"], first["id"], "never someone else's order");
    assert_ne!(stranger["token"], first["token"]);
    assert_eq!(stranger["from"]["code"], "LTC");
    assert_eq!(stranger["type"], "fixed");

    // A signed-in caller: the key is theirs; another request with it is refused.
    let alice = partner(&app, "alice@example.com", true).await;
    let bob = partner(&app, "bob@example.com", true).await;
    let mine = app.created(&btc, Some("cart-42"), Some(&alice.token)).await;
    assert_ne!(
        mine["id"], first["id"],
        "a user's key is not an anonymous one"
    );
    assert_eq!(
        app.created(&btc, Some("cart-42"), Some(&alice.token)).await["id"],
        mine["id"]
    );
    let (status, refused) = app
        .create_with(&ltc, Some("cart-42"), Some(&alice.token))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(
        refused["msg"],
        "This Idempotency-Key was already used with a different request; use a new key for a new order"
    );
    let theirs = app.created(&btc, Some("cart-42"), Some(&bob.token)).await;
    assert_ne!(
        theirs["id"], mine["id"],
        "another user's key of the same name"
    );

    let orders = app
        .count("SELECT COUNT(*) AS n FROM orders WHERE id <> $1", "")
        .await;
    assert_eq!(orders, 4, "first, stranger, alice's, bob's");
}

async fn memo_coins_get_one_address_and_a_tag_of_their_own_order_after_order(db: Db) {
    let Some(app) = app_on(db).await else { return };
    for (coin, amount) in [("EOS", "100"), ("XRP", "100")] {
        let body = order_body(coin, amount, "", "float");
        let one = app.created(&body, None, None).await;
        let two = app.created(&body, None, None).await;
        assert_eq!(
            one["from"]["address"], two["from"]["address"],
            "{coin}: one address"
        );
        assert!(one["from"]["tag"].is_string(), "{coin}: {one}");
        assert_ne!(one["from"]["tag"], two["from"]["tag"], "{coin}: own tags");
    }
}

async fn an_emergency_choice_is_final_and_a_second_one_is_refused(db: Db) {
    let Some(app) = app_on(db).await else { return };
    let order = app
        .created(&order_body("BTC", "0.01", BTC_ADDRESS, "fixed"), None, None)
        .await;
    let id = order["id"].as_str().unwrap();
    let (status, short) = app.admin_deposit(id, Some("0.005")).await;
    assert_eq!(status, StatusCode::OK, "{short}");
    assert_eq!(short["data"]["status"], "EMERGENCY");

    // Ten at once, half of each: exactly one choice is taken.
    let choices = futures_util::future::join_all((0..10).map(|n| {
        let choice = if n % 2 == 0 { "REFUND" } else { "EXCHANGE" };
        app.choose(&order, choice, Some(BTC_ADDRESS))
    }))
    .await;
    let taken = choices.iter().filter(|s| **s == StatusCode::OK).count();
    assert_eq!(taken, 1, "{choices:?}");
    assert!(
        choices
            .iter()
            .all(|s| *s == StatusCode::OK || *s == StatusCode::CONFLICT),
        "{choices:?}"
    );
    let stored = app.store.find_order(id).await.unwrap().unwrap();
    let made = stored.emergency_choice.expect("a choice").as_str();
    // And after it, neither choice again.
    for again in ["REFUND", "EXCHANGE"] {
        let response = app
            .post_json(
                "/api/order-emergency",
                &json!({ "id": id, "token": order["token"], "choice": again, "address": BTC_ADDRESS }),
            )
            .await;
        let status = response.status();
        let answer = json_of(response).await;
        assert!(
            status == StatusCode::CONFLICT,
            "{again} after {made}: {status} {answer}"
        );
    }
    // The refund address cannot change under a refund that was chosen.
    if made == "REFUND" {
        let response = app
            .post_json(
                "/api/order-refund-address",
                &json!({ "id": id, "token": order["token"], "address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }),
            )
            .await;
        assert_eq!(response.status(), StatusCode::CONFLICT);
    }
    let wanted = if made == "REFUND" {
        "REFUNDED"
    } else {
        "COMPLETED"
    };
    let app_ref = &app;
    eventually(
        wanted,
        || async move { app_ref.status_of(id).await == wanted },
    )
    .await;
}

/// Reads the statuses an event stream sends until `wanted` arrives.
async fn read_until(
    stream: &mut reqwest::Response,
    text: &mut String,
    wanted: &str,
) -> Vec<String> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        let statuses: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .map(|d| {
                serde_json::from_str::<Value>(d).unwrap()["status"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        if statuses.iter().any(|s| s == wanted) {
            return statuses;
        }
        let chunk = tokio::time::timeout_at(deadline, stream.chunk())
            .await
            .unwrap_or_else(|_| panic!("{wanted} in time; saw {statuses:?}"))
            .unwrap()
            .unwrap_or_else(|| panic!("the stream ended before {wanted}: {statuses:?}"));
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
}

async fn a_late_deposit_after_expiry_reaches_the_open_event_stream_and_reopens_the_commission(
    db: Db,
) {
    let Some(app) = app_on(db).await else { return };
    let erin = partner(&app, "erin@example.com", true).await;
    let mut body = order_body("BTC", "0.01", BTC_ADDRESS, "float");
    body["referral_code"] = json!(erin.referral_code);
    let order = app.created(&body, None, None).await;
    let (id, token) = (
        order["id"].as_str().unwrap(),
        order["token"].as_str().unwrap(),
    );
    let mut stream = app
        .client
        .get(app.url(&format!("/api/orders/{id}/events?token={token}")))
        .send()
        .await
        .unwrap();
    let mut text = String::new();
    read_until(&mut stream, &mut text, "NEW").await;

    assert_eq!(
        app.orders
            .expire_overdue(ferry::now_unix() + 1801)
            .await
            .unwrap(),
        1
    );
    read_until(&mut stream, &mut text, "EXPIRED").await;
    let commission = |app: &TestApp| {
        let id = id.to_owned();
        let token = erin.token.clone();
        let app_url = app.url("/api/affiliate");
        let client = app.client.clone();
        async move {
            let summary: Value = client
                .get(app_url)
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            summary["recent_orders"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["id"] == id.as_str())
                .map(|o| o["commission_state"].as_str().unwrap().to_owned())
                .unwrap()
        }
    };
    assert_eq!(commission(&app).await, "reversed");

    // The deposit comes after all: the same stream shows the choice the customer must make.
    let (status, late) = app.admin_deposit(id, None).await;
    assert_eq!(status, StatusCode::OK, "{late}");
    let seen = read_until(&mut stream, &mut text, "EMERGENCY").await;
    assert_eq!(seen, ["NEW", "EXPIRED", "EMERGENCY"]);
    assert_eq!(commission(&app).await, "pending", "the order runs again");

    assert_eq!(app.choose(&order, "EXCHANGE", None).await, StatusCode::OK);
    let seen = read_until(&mut stream, &mut text, "COMPLETED").await;
    assert_eq!(
        seen,
        [
            "NEW",
            "EXPIRED",
            "EMERGENCY",
            "EXCHANGE",
            "SENDING",
            "COMPLETED"
        ]
    );
    let end = tokio::time::timeout(Duration::from_secs(5), stream.chunk()).await;
    assert!(
        matches!(end, Ok(Ok(None))),
        "the stream ends once the order is final: {end:?}"
    );
    assert_eq!(commission(&app).await, "available");
}

/// Makes every insert into `table` fail, as a full disk or a lost connection would, until
/// `heal` is called.
async fn inject_fault(app: &TestApp, db: Db, table: &str) {
    inject_fault_when(app, db, table, "1 = 1").await;
}

/// Makes the inserts into `table` whose new row meets `condition` (SQL on `NEW`) fail, until
/// `heal` is called.
async fn inject_fault_when(app: &TestApp, db: Db, table: &str, condition: &str) {
    let raw = raw_store(&app.db).await;
    let statements = match db {
        Db::Sqlite => vec![format!(
            "CREATE TRIGGER injected_fault BEFORE INSERT ON {table} WHEN {condition} \
             BEGIN SELECT RAISE(ABORT, 'injected fault'); END"
        )],
        Db::Postgres => vec![
            "CREATE OR REPLACE FUNCTION injected_fault() RETURNS trigger LANGUAGE plpgsql \
             AS 'BEGIN RAISE EXCEPTION ''injected fault''; END'"
                .to_owned(),
            format!(
                "CREATE TRIGGER injected_fault BEFORE INSERT ON {table} \
                 FOR EACH ROW WHEN ({condition}) EXECUTE FUNCTION injected_fault()"
            ),
        ],
    };
    for statement in statements {
        sqlx::query(&statement).execute(raw.pool()).await.unwrap();
    }
}

async fn heal(app: &TestApp, db: Db, table: &str) {
    let raw = raw_store(&app.db).await;
    let statement = match db {
        Db::Sqlite => "DROP TRIGGER injected_fault".to_owned(),
        Db::Postgres => format!("DROP TRIGGER injected_fault ON {table}"),
    };
    sqlx::query(&statement).execute(raw.pool()).await.unwrap();
}

async fn a_change_whose_consequences_cannot_be_stored_is_not_made_and_its_retry_is_made_once(
    db: Db,
) {
    let Some(app) = app_on(db).await else { return };
    let owner = partner(&app, "owner@example.com", true).await;
    let affiliate = partner(&app, "affiliate@example.com", true).await;
    let mut body = order_body("BTC", "0.01", BTC_ADDRESS, "float");
    body["referral_code"] = json!(affiliate.referral_code);
    let order = app.created(&body, None, Some(&owner.token)).await;
    let id = order["id"].as_str().unwrap();
    let mails = "SELECT COUNT(*) AS n FROM mail_outbox WHERE recipient = 'owner@example.com' \
                 AND subject LIKE '%' || $1 || '%'";
    let events = "SELECT COUNT(*) AS n FROM order_events WHERE order_id = $1";

    // The deposit's mail cannot be written: the deposit is not taken either.
    inject_fault(&app, db, "mail_outbox").await;
    let (status, failed) = app.admin_deposit(id, None).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{failed}");
    assert_eq!(failed["msg"], "internal error");
    assert_eq!(app.status_of(id).await, "NEW");
    assert_eq!(app.count(events, id).await, 1);
    assert_eq!(app.count(mails, id).await, 0);
    heal(&app, db, "mail_outbox").await;
    // The worker's last step, whose mail cannot be written either, fails the same way until
    // the fault is gone, then happens once. (The fault is in place before the deposit: the
    // worker takes the steps before the last at once, and would race a fault set after.)
    inject_fault_when(&app, db, "mail_outbox", "NEW.subject LIKE '%: completed'").await;
    let (status, taken) = app.admin_deposit(id, None).await;
    assert_eq!(status, StatusCode::OK, "{taken}");
    let app_ref = &app;
    eventually("SENDING", || async move {
        app_ref.status_of(id).await == "SENDING"
    })
    .await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(app.status_of(id).await, "SENDING", "held back by the fault");
    heal(&app, db, "mail_outbox").await;
    eventually("COMPLETED", || async move {
        app_ref.status_of(id).await == "COMPLETED"
    })
    .await;

    let statuses: Vec<String> = app
        .store
        .order_events(id, 0)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.status)
        .collect();
    assert_eq!(
        statuses,
        ["NEW", "CONFIRMING", "EXCHANGE", "SENDING", "COMPLETED"]
    );
    assert_eq!(
        app.count(mails, id).await,
        2,
        "one mail for the deposit, one for the end"
    );
    let commissions = app
        .count(
            "SELECT COUNT(*) AS n FROM affiliate_commissions WHERE order_id = $1 AND state = 'available'",
            id,
        )
        .await;
    assert_eq!(commissions, 1);
}

/// A deposit outside the pair's limits can only be refunded: continuing would pay nothing (or
/// a blank cheque at today's rate).
async fn a_deposit_outside_the_limits_can_only_be_refunded(db: Db) {
    let Some(app) = app_on(db).await else { return };
    let order = app
        .created(&order_body("BTC", "0.01", BTC_ADDRESS, "float"), None, None)
        .await;
    let id = order["id"].as_str().unwrap();
    let (status, tiny) = app.admin_deposit(id, Some("0.00001")).await;
    assert_eq!(status, StatusCode::OK, "{tiny}");
    assert_eq!(tiny["data"]["emergency"]["reason"], "LIMIT");
    let response = app
        .post_json(
            "/api/order-emergency",
            &json!({ "id": id, "token": order["token"], "choice": "EXCHANGE" }),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    let refused = json_of(response).await;
    assert!(
        refused["msg"]
            .as_str()
            .unwrap()
            .ends_with("this deposit can only be refunded"),
        "{refused}"
    );
    assert_eq!(
        app.status_of(id).await,
        "EMERGENCY",
        "the choice is still open"
    );
    assert_eq!(
        app.choose(&order, "REFUND", Some(BTC_ADDRESS)).await,
        StatusCode::OK
    );
}

/// One order whose stored row does not parse is set aside; the orders leased with it go on.
async fn a_corrupt_order_row_holds_up_no_other_order(db: Db) {
    // The worker looks every two seconds: the orders are due and one is corrupted in between.
    let Some(app) = crate::helpers::spawn_app_with(db, |c| {
        c.admin_token = Some(ADMIN.into());
        c.sandbox_step_seconds = 0;
        c.worker_interval_ms = 2_000;
    })
    .await
    else {
        return;
    };
    let mut ids = Vec::new();
    for _ in 0..4 {
        let order = app
            .created(&order_body("BTC", "0.01", BTC_ADDRESS, "float"), None, None)
            .await;
        ids.push(order["id"].as_str().unwrap().to_owned());
    }
    for id in &ids {
        let (status, _) = app.admin_deposit(id, None).await;
        assert_eq!(status, StatusCode::OK);
    }
    let raw = raw_store(&app.db).await;
    sqlx::query("UPDATE orders SET rate = 'not-a-number' WHERE id = $1")
        .bind(&ids[0])
        .execute(raw.pool())
        .await
        .unwrap();
    let app_ref = &app;
    for id in &ids[1..] {
        eventually("the healthy orders complete", || async move {
            app_ref.status_of(id).await == "COMPLETED"
        })
        .await;
    }
    let set_aside: Option<i64> = sqlx::query("SELECT next_step_at FROM orders WHERE id = $1")
        .bind(&ids[0])
        .fetch_one(raw.pool())
        .await
        .unwrap()
        .try_get("next_step_at")
        .unwrap();
    assert_eq!(set_aside, None, "the corrupt one waits for an operator");
}
