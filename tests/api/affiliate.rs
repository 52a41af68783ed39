//! `POST /api/affiliate/click`.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{Db, json_of, spawn_app, spawn_app_with};
use crate::on_both_backends;

on_both_backends!(a_click_is_accepted_and_counted_once_per_visitor_and_day);

async fn a_click_is_accepted_and_counted_once_per_visitor_and_day(db: Db) {
    // The test client is its own proxy here, so it can speak for two visitors.
    let Some(app) = spawn_app_with(db, |c| {
        c.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    })
    .await
    else {
        return;
    };
    let body = json!({ "referral_code": "alice-01", "source": "https://blog.example/post" });
    for _ in 0..3 {
        let response = app.post_json("/api/affiliate/click", &body).await;
        assert_eq!(response.status(), StatusCode::ACCEPTED);
    }
    assert_eq!(
        app.store.count_referral_clicks("alice-01").await.unwrap(),
        1
    );

    // A new User-Agent per click is the same visitor: it buys no extra clicks.
    for agent in ["another browser", "yet another", "a third"] {
        let response = app
            .client
            .post(app.url("/api/affiliate/click"))
            .header("user-agent", agent)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::ACCEPTED);
    }
    assert_eq!(
        app.store.count_referral_clicks("alice-01").await.unwrap(),
        1
    );
    let other_visitor = app
        .client
        .post(app.url("/api/affiliate/click"))
        .header("x-forwarded-for", "203.0.113.9")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(other_visitor.status(), StatusCode::ACCEPTED);
    assert_eq!(
        app.store.count_referral_clicks("alice-01").await.unwrap(),
        2
    );
}

#[tokio::test]
async fn a_malformed_code_is_answered_like_any_other_and_not_stored() {
    let app = spawn_app().await;
    let response = app
        .post_json(
            "/api/affiliate/click",
            &json!({ "referral_code": "<script>x</script>" }),
        )
        .await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    assert_eq!(
        app.store
            .count_referral_clicks("<script>x</script>")
            .await
            .unwrap(),
        0
    );
}

#[tokio::test]
async fn a_body_that_is_not_json_gets_a_clear_400() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(app.url("/api/affiliate/click"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body = json_of(response).await;
    assert_eq!(body["error"], "Invalid request: the body is not valid JSON");
}

#[tokio::test]
async fn a_missing_referral_code_gets_a_400_naming_the_field() {
    let app = spawn_app().await;
    let response = app
        .post_json("/api/affiliate/click", &json!({ "source": "direct" }))
        .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body = json_of(response).await;
    assert!(
        body["error"].as_str().unwrap().contains("referral_code"),
        "{body}"
    );
}

#[tokio::test]
async fn an_oversize_body_is_refused_with_413() {
    let app = spawn_app().await;
    let huge = json!({ "referral_code": "abc", "source": "x".repeat(100 * 1024) });
    let response = app.post_json("/api/affiliate/click", &huge).await;
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(json_of(response).await["code"], 413);
}
