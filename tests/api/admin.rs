//! `/api/admin/*`: 404 without a token, 401 with a wrong one.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{Db, json_of, spawn_app, spawn_app_with};

const TOKEN: &str = "test-admin-token-7f3a";

#[tokio::test]
async fn admin_routes_do_not_exist_without_a_configured_token() {
    let app = spawn_app().await;
    let response = app
        .client
        .get(app.url("/api/admin/currency-overrides"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_wrong_or_missing_admin_token_is_refused() {
    let app = spawn_app_with(Db::Sqlite, |c| c.admin_token = Some(TOKEN.into()))
        .await
        .unwrap();
    let missing = app.get("/api/admin/currency-overrides").await;
    assert_eq!(missing.status(), StatusCode::UNAUTHORIZED);
    let wrong = app
        .client
        .get(app.url("/api/admin/currency-overrides"))
        .bearer_auth("nope")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(json_of(wrong).await["error"], "Unauthorized");
}

#[tokio::test]
async fn the_operator_switches_a_currency_off_and_sees_it_listed() {
    let app = spawn_app_with(Db::Sqlite, |c| c.admin_token = Some(TOKEN.into()))
        .await
        .unwrap();
    let response = app
        .client
        .put(app.url("/api/admin/currency-overrides/xmr"))
        .bearer_auth(TOKEN)
        .json(&json!({ "send": false }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let listed = app
        .client
        .get(app.url("/api/admin/currency-overrides"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    let body = json_of(listed).await;
    assert_eq!(
        body,
        json!([{
            "code": "XMR", "send": false, "recv": null, "maintenance": null, "min": null,
            "max": null, "updated_at": body[0]["updated_at"]
        }])
    );
}

#[tokio::test]
async fn a_malformed_currency_code_is_a_400() {
    let app = spawn_app_with(Db::Sqlite, |c| c.admin_token = Some(TOKEN.into()))
        .await
        .unwrap();
    let response = app
        .client
        .put(app.url("/api/admin/currency-overrides/%3Cb%3E"))
        .bearer_auth(TOKEN)
        .json(&json!({ "send": false }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
}
