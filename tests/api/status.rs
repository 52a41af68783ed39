//! The status page's data: measured components, uptime from stored checks, networks from the
//! maintenance flags, incidents from the operator (SQLite and PostgreSQL).

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Db, TestApp, json_of, spawn_app_with};
use crate::on_both_backends;

on_both_backends!(the_status_is_measured_and_shows_a_provider_outage_and_incidents);

const TOKEN: &str = "status-admin";

async fn admin(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    body: Value,
) -> reqwest::Response {
    app.client
        .request(method, app.url(path))
        .bearer_auth(TOKEN)
        .json(&body)
        .send()
        .await
        .unwrap()
}

fn service<'a>(report: &'a Value, key: &str) -> &'a Value {
    report["services"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == key)
        .unwrap_or_else(|| panic!("no service {key}: {report}"))
}

/// The status report once `ready` holds of it (it is cached a few seconds), or the last one.
async fn report_when(app: &TestApp, ready: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let report = json_of(app.get("/api/status").await).await;
        if ready(&report) || tokio::time::Instant::now() > deadline {
            return report;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
}

async fn the_status_is_measured_and_shows_a_provider_outage_and_incidents(db: Db) {
    let Some(app) = spawn_app_with(db, |config| {
        config.admin_token = Some(TOKEN.to_owned().into());
        config.status_check_seconds = 1;
        config.sandbox_maintenance = vec!["XMR".into()];
    })
    .await
    else {
        return;
    };
    // The worker records a check a second: wait until it has (a loaded machine takes longer).
    let report = report_when(&app, |r| {
        service(r, "database")["uptime"].as_f64().unwrap_or(0.0) > 0.0
    })
    .await;
    assert_eq!(report["status"], "operational");
    for key in ["api", "database", "orders", "mail", "provider:sandbox"] {
        assert_eq!(service(&report, key)["status"], "operational", "{key}");
    }
    let uptime = service(&report, "database")["uptime"].as_f64().unwrap();
    assert!(uptime > 0.0 && uptime <= 100.0, "{uptime}");
    let networks = report["networks"].as_array().unwrap();
    let names: Vec<String> = networks
        .iter()
        .map(|n| n["name"].as_str().unwrap().to_lowercase())
        .collect();
    assert!(names.is_sorted(), "networks are listed by name: {names:?}");
    let monero = networks.iter().find(|n| n["code"] == "XMR").unwrap();
    assert_eq!(monero["status"], "outage");
    let bitcoin = networks.iter().find(|n| n["code"] == "BTC").unwrap();
    assert_eq!(bitcoin["status"], "operational");
    assert_eq!(bitcoin["blockTime"], 600.0);

    // A provider outage shows at once (the report is cached for a few seconds).
    admin(
        &app,
        reqwest::Method::PUT,
        "/api/admin/sandbox/outage",
        json!({ "down": true }),
    )
    .await;
    let down = report_when(&app, |r| {
        service(r, "provider:sandbox")["status"] == "outage"
    })
    .await;
    assert_eq!(service(&down, "provider:sandbox")["status"], "outage");
    assert_eq!(down["status"], "outage");
    let quote = app
        .post_json("/api/create-order", &json!({ "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.1", "toAddress": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }))
        .await;
    assert_ne!(
        quote.status(),
        StatusCode::OK,
        "no order while the provider is down"
    );

    // Incidents, opened and resolved by the operator.
    let opened = json_of(
        admin(
            &app,
            reqwest::Method::POST,
            "/api/admin/incidents",
            json!({ "title": "Sandbox quotes failing", "description": "We are looking into it." }),
        )
        .await,
    )
    .await;
    let id = opened["id"].as_str().unwrap();
    let resolved = admin(
        &app,
        reqwest::Method::POST,
        &format!("/api/admin/incidents/{id}/updates"),
        json!({ "status": "resolved", "message": "Quotes are back." }),
    )
    .await;
    assert_eq!(resolved.status(), StatusCode::OK);
    let bad = admin(
        &app,
        reqwest::Method::POST,
        &format!("/api/admin/incidents/{id}/updates"),
        json!({ "status": "fixed", "message": "?" }),
    )
    .await;
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    admin(
        &app,
        reqwest::Method::PUT,
        "/api/admin/sandbox/outage",
        json!({ "down": false }),
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_secs(6)).await;
    let back = json_of(app.get("/api/status").await).await;
    assert_eq!(back["status"], "operational");
    let incident = &back["incidents"][0];
    assert_eq!(incident["title"], "Sandbox quotes failing");
    assert_eq!(incident["status"], "resolved");
    assert_eq!(incident["updates"][0]["message"], "Quotes are back.");
    assert_eq!(incident["updates"].as_array().unwrap().len(), 2);
    // Uptime now counts the checks that found the provider down.
    assert!(
        service(&back, "provider:sandbox")["uptime"]
            .as_f64()
            .unwrap()
            < 100.0
    );
}
