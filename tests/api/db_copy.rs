//! `ferry db copy` (issue 21): a populated SQLite database moved into PostgreSQL, after which
//! the same customer, partner key and order token work.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{Db, TestDb, json_of, spawn_app_with};
use crate::partners::{ETH_ADDRESS, partner};

const KEY_SECRET: &str = "the-operator-keeps-this-secret-when-moving-0123456789";

#[tokio::test]
async fn a_populated_sqlite_database_moves_to_postgresql_and_everything_still_works() {
    let Some(target) = TestDb::create(Db::Postgres).await else {
        return;
    };
    let with_secret = |c: &mut ferry::config::Config| {
        c.key_secret = Some(KEY_SECRET.to_owned().into());
        c.admin_token = Some(crate::partners::ADMIN.to_owned().into());
        c.rates_refresh_seconds = 3600;
    };
    let before = spawn_app_with(Db::Sqlite, with_secret).await.unwrap();
    let customer = partner(&before, "mover@example.com", true).await;
    let (key, secret, _) = before.create_key(&customer, "trade").await;
    let created = json_of(
        before
            .as_user(reqwest::Method::POST, "/api/create-order", &customer.token)
            .await
            .json(&json!({ "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.01",
                           "direction": "from", "type": "float", "toAddress": ETH_ADDRESS }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    let (id, token) = (
        created["data"]["id"].as_str().unwrap().to_owned(),
        created["data"]["token"].as_str().unwrap().to_owned(),
    );
    before.deposit(&id, None).await;

    let copied = ferry::store::copy::copy_database(&before.db.url, &target.url)
        .await
        .expect("the copy");
    let rows = |name: &str| copied.iter().find(|t| t.name == name).unwrap().rows;
    assert_eq!(rows("orders"), 1);
    assert_eq!(rows("order_events"), 2, "NEW and CONFIRMING");
    assert_eq!(rows("users"), 1);
    assert!(rows("sessions") >= 1 && rows("api_keys") == 1 && rows("mail_outbox") >= 1);

    // A source that is not there is neither created nor copied.
    let missing =
        ferry::store::copy::copy_database("sqlite:///nonexistent/ferry.db", &target.url).await;
    assert!(
        matches!(missing, Err(ferry::store::copy::CopyError::Source(_))),
        "{missing:?}"
    );
    assert!(!std::path::Path::new("/nonexistent/ferry.db").exists());

    // Never into a database that has data.
    let again = ferry::store::copy::copy_database(&before.db.url, &target.url).await;
    assert!(
        matches!(again, Err(ferry::store::copy::CopyError::TargetNotEmpty(_))),
        "{again:?}"
    );

    let after = spawn_app_with(Db::Sqlite, |c| {
        with_secret(c);
        c.database_url = Some(target.url.clone().into());
    })
    .await
    .unwrap();
    // The guest's link, the customer's session and password, the partner's key.
    let details = after
        .get(&format!("/api/order-details/{id}?token={token}"))
        .await;
    assert_eq!(details.status(), StatusCode::OK);
    assert_eq!(json_of(details).await["data"]["status"], "CONFIRMING");
    let me = after
        .as_user(reqwest::Method::GET, "/api/user", &customer.token)
        .await
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), StatusCode::OK);
    let login = after
        .post_json(
            "/api/login",
            &json!({ "email": "mover@example.com", "password": crate::partners::PASSWORD }),
        )
        .await;
    assert_eq!(login.status(), StatusCode::OK);
    let order = after
        .v2("order", &key, &secret, &json!({ "id": id, "token": token }))
        .await;
    assert_eq!(order["code"], 0, "{order}");
    // New rows continue after the copied ones (the events' sequence moved on).
    let newer = after
        .v2(
            "create",
            &key,
            &secret,
            &json!({ "type": "float", "fromCcy": "BTC", "toCcy": "ETH", "direction": "from",
                     "amount": "0.01", "toAddress": ETH_ADDRESS }),
        )
        .await;
    assert_eq!(newer["code"], 0, "{newer}");
}
