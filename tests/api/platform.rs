//! Health, readiness, metrics, request ids, the JSON 404 and `/api/config`.

use reqwest::StatusCode;

use crate::helpers::{Db, json_of, spawn_app, spawn_app_with};
use crate::on_both_backends;

on_both_backends!(readiness_reports_the_database_answering);

async fn readiness_reports_the_database_answering(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let response = app.get("/readyz").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(json_of(response).await["status"], "ready");
}

#[tokio::test]
async fn healthz_answers_while_the_process_is_up() {
    let app = spawn_app().await;
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(json_of(response).await["status"], "ok");
}

#[tokio::test]
async fn readiness_fails_once_the_database_is_closed() {
    let app = spawn_app().await;
    app.store.close().await;
    let response = app.get("/readyz").await;
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
}

#[tokio::test]
async fn unknown_api_paths_answer_a_json_404_never_html() {
    let app = spawn_app().await;
    for path in ["/api/nope", "/api/nope/deeper", "/api/admin/anything"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            content_type.starts_with("application/json"),
            "{path}: {content_type}"
        );
        let body = json_of(response).await;
        assert_eq!(body["code"], 404);
        assert_eq!(body["error"], "Not found");
    }
    let response = app.post_json("/api/nope", &serde_json::json!({})).await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert_eq!(json_of(response).await["msg"], "Not found");
}

#[tokio::test]
async fn a_missing_static_file_is_a_404_not_the_app_shell() {
    let app = spawn_app().await;
    let response = app.get("/assets/no-such-file-abc123.js").await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn every_response_carries_a_request_id() {
    let app = spawn_app().await;
    let response = app.get("/healthz").await;
    let id = response
        .headers()
        .get("x-request-id")
        .expect("x-request-id");
    assert_eq!(id.to_str().unwrap().len(), 36);
    let response = app
        .client
        .get(app.url("/healthz"))
        .header("x-request-id", "trace-me-42")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], "trace-me-42");
}

#[tokio::test]
async fn metrics_count_requests_by_route_and_status_with_latency_histograms() {
    let app = spawn_app_with(Db::Sqlite, |c| c.metrics_token = Some("scrape-me".into()))
        .await
        .unwrap();
    app.get("/api/config").await;
    app.get("/api/definitely-missing").await;
    app.get("/api/order-details/no-such-order").await;
    let response = app
        .client
        .get(app.url("/metrics"))
        .bearer_auth("scrape-me")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let text = response.text().await.unwrap();
    assert!(text.contains("http_requests_total"), "{text}");
    assert!(text.contains(r#"route="/api/config""#), "{text}");
    // A route with a parameter is counted under its pattern, not each id.
    assert!(
        text.contains(r#"route="/api/order-details/{id}""#),
        "{text}"
    );
    assert!(!text.contains("no-such-order"), "{text}");
    assert!(text.contains(r#"status="404""#), "{text}");
    assert!(
        text.contains("http_request_duration_seconds_bucket"),
        "{text}"
    );
}

#[tokio::test]
async fn site_config_exposes_the_public_settings() {
    let app = spawn_app().await;
    let body = json_of(app.get("/api/config").await).await;
    assert_eq!(body["site_name"], "Ferry");
    assert_eq!(body["fees"]["float_percent"], "0.5");
    assert_eq!(body["fees"]["fixed_percent"], "1.0");
    assert_eq!(body["sandbox"], true);
    assert_eq!(body["default_language"], "en");
    assert_eq!(body["trusted_since"], 2024);
    let languages = body["languages"].as_array().expect("languages");
    assert_eq!(languages.len(), 14);
    assert!(body["support_email"].as_str().unwrap().contains('@'));
    assert_eq!(
        body["support_hours"],
        "Mon-Fri 9:00 AM-8:00 PM EST, Sat 10:00 AM-6:00 PM EST, Sun closed"
    );
    assert_eq!(
        body["support_always_open"], false,
        "no 24/7 claim by default"
    );
}

#[tokio::test]
async fn site_config_follows_the_operators_settings() {
    let app = spawn_app_with(Db::Sqlite, |c| {
        c.site_name = "Harbour".into();
        c.languages = vec![
            ferry::domain::language::Language::En,
            ferry::domain::language::Language::De,
        ];
        c.fee_fixed_percent = "0.8".parse().unwrap();
        c.support_hours = "24/7".into();
    })
    .await
    .unwrap();
    let body = json_of(app.get("/api/config").await).await;
    assert_eq!(body["site_name"], "Harbour");
    assert_eq!(body["support_hours"], serde_json::Value::Null);
    assert_eq!(body["support_always_open"], true);
    assert_eq!(body["fees"]["fixed_percent"], "0.8");
    assert_eq!(body["languages"], serde_json::json!(["en", "de"]));
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = spawn_app().await;
    for path in ["/", "/api/config", "/api/nope", "/healthz"] {
        let response = app.get(path).await;
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("script-src 'self' 'unsafe-inline'"),
            "{path}: {csp}"
        );
        assert!(csp.contains("frame-ancestors 'none'"), "{path}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(
            headers["referrer-policy"], "strict-origin-when-cross-origin",
            "{path}"
        );
        assert!(
            headers.get("strict-transport-security").is_none(),
            "no HSTS over plain HTTP"
        );
    }
}

#[tokio::test]
async fn hsts_is_sent_when_the_site_is_served_over_https() {
    let app = spawn_app_with(Db::Sqlite, |c| {
        c.public_url = "https://ferry.example".into()
    })
    .await
    .unwrap();
    let response = app.get("/healthz").await;
    assert!(
        response.headers()["strict-transport-security"]
            .to_str()
            .unwrap()
            .starts_with("max-age=")
    );
}

#[tokio::test]
async fn legal_documents_are_served_with_the_operators_details() {
    let app = spawn_app_with(Db::Sqlite, |c| {
        c.company_name = "Harbour Swaps Ltd".into();
        c.support_email = "help@harbour.example".into();
    })
    .await
    .unwrap();
    let body = json_of(app.get("/api/content/legal/terms").await).await;
    assert_eq!(body["title"], "Terms of Service");
    assert_eq!(body["updated"], "2025-05-01");
    let html = body["html"].as_str().unwrap();
    assert!(html.contains("Harbour Swaps Ltd") && html.contains("help@harbour.example"));
    let missing = app.get("/api/content/legal/nope").await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let sneaky = app.get("/api/content/legal/..%2F..%2FCargo").await;
    assert_eq!(sneaky.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn metrics_are_for_the_operators_scraper_only() {
    let off = spawn_app().await;
    assert_eq!(
        off.get("/metrics").await.status(),
        StatusCode::NOT_FOUND,
        "off by default"
    );
    let app = spawn_app_with(Db::Sqlite, |c| {
        c.metrics_token = Some("scrape-me".into());
        c.metrics_allow = vec!["10.1.0.0/16".parse().unwrap()];
    })
    .await
    .unwrap();
    let with = |token: &str| {
        app.client
            .get(app.url("/metrics"))
            .bearer_auth(token)
            .send()
    };
    assert_eq!(app.get("/metrics").await.status(), StatusCode::NOT_FOUND);
    assert_eq!(with("wrong").await.unwrap().status(), StatusCode::NOT_FOUND);
    assert_eq!(with("scrape-me").await.unwrap().status(), StatusCode::OK);
    let allowed = spawn_app_with(Db::Sqlite, |c| {
        c.metrics_allow = vec!["127.0.0.0/8".parse().unwrap()];
    })
    .await
    .unwrap();
    assert_eq!(
        allowed.get("/metrics").await.status(),
        StatusCode::OK,
        "an allowed address"
    );
}
