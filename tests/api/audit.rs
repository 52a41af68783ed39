//! The back office's audit log (issue 22): every admin act is written with who, from where and
//! what changed, in the transaction of the change; a retried act (the same `Idempotency-Key`)
//! is carried out and written once.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{Db, TestApp, json_of, spawn_app_with};
use crate::on_both_backends;

on_both_backends!(
    every_admin_act_is_audited_with_who_where_and_what_changed,
    a_retried_act_with_the_same_key_is_carried_out_and_written_once,
    a_refused_act_writes_no_audit_entry,
    the_log_downloads_as_csv_page_after_page_with_formulas_disarmed,
);

const TOKEN: &str = "audit-test-token-19c2";
const ETH_ADDRESS: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

async fn app_on(db: Db) -> Option<TestApp> {
    spawn_app_with(db, |c| {
        c.admin_token = Some(TOKEN.into());
        c.worker_interval_ms = 50;
    })
    .await
}

async fn admin(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    admin_keyed(app, method, path, body, None).await
}

async fn admin_keyed(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<Value>,
    key: Option<&str>,
) -> (StatusCode, Value) {
    let mut request = app
        .client
        .request(method, app.url(path))
        .bearer_auth(TOKEN)
        .header("user-agent", "audit-test/1.0");
    if let Some(body) = body {
        request = request.json(&body);
    }
    if let Some(key) = key {
        request = request.header("idempotency-key", key);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, json_of(response).await)
}

async fn new_order(app: &TestApp) -> String {
    let body = json!({
        "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.01", "toAddress": ETH_ADDRESS,
        "direction": "from", "type": "float",
    });
    let answer = json_of(app.post_json("/api/create-order", &body).await).await;
    answer["data"]["id"].as_str().expect("an order").to_owned()
}

async fn audit(app: &TestApp, query: &str) -> Value {
    let (status, body) = admin(app, Method::GET, &format!("/api/admin/audit{query}"), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

async fn every_admin_act_is_audited_with_who_where_and_what_changed(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let put = |path: &'static str, body| admin(&app, Method::PUT, path, Some(body));
    let (status, switched) = put(
        "/api/admin/currency-overrides/xmr",
        json!({ "send": false }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{switched}");
    assert!(switched["audit_id"].as_i64().unwrap() > 0);
    let (_, incident) = admin(
        &app,
        Method::POST,
        "/api/admin/incidents",
        Some(json!({ "title": "Slow BTC deposits", "description": "Looking" })),
    )
    .await;
    let incident_id = incident["id"].as_str().unwrap().to_owned();
    let (status, _) = admin(
        &app,
        Method::POST,
        &format!("/api/admin/incidents/{incident_id}/updates"),
        Some(json!({ "status": "resolved", "message": "Back to normal" })),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    put("/api/admin/sandbox/outage", json!({ "down": true })).await;
    put("/api/admin/sandbox/outage", json!({ "down": false })).await;
    let order_id = new_order(&app).await;
    let (status, deposited) = admin(
        &app,
        Method::POST,
        "/api/admin/sandbox/deposit",
        Some(json!({ "order_id": order_id })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{deposited}");

    let log = audit(&app, "").await;
    let entries = log["entries"].as_array().unwrap();
    let acts: Vec<(&str, &str)> = entries
        .iter()
        .map(|e| {
            (
                e["action"].as_str().unwrap(),
                e["subject_kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        acts,
        [
            ("order.deposit", "order"),
            ("sandbox.outage", "sandbox"),
            ("sandbox.outage", "sandbox"),
            ("incident.update", "incident"),
            ("incident.open", "incident"),
            ("currency.set", "currency"),
        ]
    );
    for entry in entries {
        assert_eq!(entry["actor"], "token", "{entry}");
        assert_eq!(entry["actor_role"], "owner");
        assert_eq!(entry["client_ip"], "127.0.0.1");
        assert_eq!(entry["user_agent"], "audit-test/1.0");
    }
    // What changed, as it was and as it became.
    let deposit = &entries[0];
    assert_eq!(deposit["subject_id"], order_id.as_str());
    assert_eq!(deposit["before"]["status"], "NEW");
    assert_eq!(deposit["after"]["status"], "CONFIRMING");
    assert_eq!(deposit["after"]["received_amount"], "0.01");
    assert_eq!(entries[3]["subject_id"], incident_id.as_str());
    assert_eq!(entries[3]["before"], json!({ "status": "investigating" }));
    assert_eq!(entries[3]["after"]["status"], "resolved");
    assert_eq!(entries[4]["subject_id"], incident_id.as_str());
    assert_eq!(entries[5]["subject_id"], "XMR");
    assert_eq!(
        entries[5]["after"],
        json!({ "send": false, "recv": null, "maintenance": null, "min": null, "max": null })
    );

    // Filters and pages.
    let incidents = audit(&app, "?subject_kind=incident").await;
    assert_eq!(incidents["entries"].as_array().unwrap().len(), 2);
    let first_page = audit(&app, "?limit=4").await;
    assert_eq!(first_page["entries"].as_array().unwrap().len(), 4);
    let next = first_page["next"].as_i64().expect("a next page");
    let second_page = audit(&app, &format!("?limit=4&before={next}")).await;
    assert_eq!(second_page["entries"].as_array().unwrap().len(), 2);
    assert_eq!(second_page["entries"][1]["action"], "currency.set");
    assert!(second_page["next"].is_null());
}

async fn a_retried_act_with_the_same_key_is_carried_out_and_written_once(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let order_id = new_order(&app).await;
    let body = json!({ "order_id": order_id, "amount": "0.01" });
    // Five at once, as a double-clicking operator or a retrying script would send them.
    let answers = futures_util::future::join_all((0..5).map(|_| {
        admin_keyed(
            &app,
            Method::POST,
            "/api/admin/sandbox/deposit",
            Some(body.clone()),
            Some("deposit-once-1"),
        )
    }))
    .await;
    for (status, answer) in &answers {
        assert_eq!(*status, StatusCode::OK, "{answer}");
    }
    let replays = answers
        .iter()
        .filter(|(_, a)| a["replayed"] == true)
        .count();
    assert_eq!(replays, 4, "{answers:?}");
    let log = audit(&app, &format!("?subject_id={order_id}")).await;
    assert_eq!(log["entries"].as_array().unwrap().len(), 1, "{log}");
    let events = app.store.order_events(&order_id, 0).await.unwrap();
    let deposits = events.iter().filter(|e| e.status == "CONFIRMING").count();
    assert_eq!(deposits, 1, "{events:?}");
    let replayed = answers.iter().find(|(_, a)| a["replayed"] == true).unwrap();
    assert_eq!(replayed.1["audit_id"], log["entries"][0]["id"]);
    assert_eq!(replayed.1["after"]["status"], "CONFIRMING");
    assert_eq!(replayed.1["subject_id"], order_id.as_str());

    // The same key for another request: refused, nothing written.
    let (status, refused) = admin_keyed(
        &app,
        Method::PUT,
        "/api/admin/currency-overrides/xmr",
        Some(json!({ "send": false })),
        Some("deposit-once-1"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    let (_, overrides) = admin(&app, Method::GET, "/api/admin/currency-overrides", None).await;
    assert_eq!(overrides, json!([]));

    // Currency switches and incidents are carried out once too.
    for _ in 0..2 {
        let (status, _) = admin_keyed(
            &app,
            Method::POST,
            "/api/admin/incidents",
            Some(json!({ "title": "Once" })),
            Some("incident-once-1"),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let (_, incidents) = admin(&app, Method::GET, "/api/admin/incidents", None).await;
    assert_eq!(incidents.as_array().unwrap().len(), 1, "{incidents}");
}

async fn a_refused_act_writes_no_audit_entry(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let (status, _) = admin(
        &app,
        Method::POST,
        "/api/admin/incidents/inc-missing/updates",
        Some(json!({ "status": "resolved", "message": "?" })),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = admin(
        &app,
        Method::POST,
        "/api/admin/payouts/no-such-payout",
        Some(json!({ "status": "paid", "txid": "abc" })),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // A deposit on an order that already has one: the state machine refuses it.
    let order_id = new_order(&app).await;
    let deposit = json!({ "order_id": order_id });
    let path = "/api/admin/sandbox/deposit";
    let (status, _) = admin(&app, Method::POST, path, Some(deposit.clone())).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = admin(&app, Method::POST, path, Some(deposit)).await;
    assert_eq!(status, StatusCode::CONFLICT);

    let log = audit(&app, "").await;
    let actions: Vec<&str> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["order.deposit"]);
}

async fn the_log_downloads_as_csv_page_after_page_with_formulas_disarmed(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let actor = ferry::domain::operator::Actor::Token;
    // More than two of the download's pages (500 entries each).
    for n in 0..1001 {
        let mut entry = ferry::store::AuditEntry::new(&actor, "order.note", ("order", "o-1"), n);
        entry.reason = Some(if n == 1000 {
            "=HYPERLINK(\"http://evil.example\", \"click\")".into()
        } else {
            format!("note {n}")
        });
        app.store.append_audit(&entry).await.unwrap();
    }
    let response = app
        .client
        .get(app.url("/api/admin/audit.csv?subject_id=o-1"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-type"],
        "text/csv; charset=utf-8"
    );
    assert!(
        response.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("attachment")
    );
    let text = response.text().await.unwrap();
    let lines: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 1 + 1001, "a header and every entry");
    // A byte-order mark first, so that a spreadsheet reads UTF-8.
    assert!(lines[0].starts_with("\u{feff}id,at_utc,at_unix,actor,"));
    // Newest first; the typed formula is text.
    assert!(
        lines[1].contains("\"'=HYPERLINK(\"\"http://evil.example\"\""),
        "{}",
        lines[1]
    );
    assert!(lines[1001].contains("\"note 0\""));
    assert!(lines[1001].contains("\"1970-01-01T00:00:00Z\",\"0\",\"token\""));
    // Filters apply: nothing for another subject.
    let other = app
        .client
        .get(app.url("/api/admin/audit.csv?subject_id=o-2"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(other.split("\r\n").filter(|l| !l.is_empty()).count(), 1);
}
