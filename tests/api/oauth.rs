//! Social sign-in against a local OAuth 2.0 provider started by the test (GitHub-shaped:
//! authorize, token, user and user/emails endpoints), on SQLite and PostgreSQL.

use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::helpers::{Db, TestApp, json_of, spawn_app_with};
use crate::on_both_backends;

on_both_backends!(
    github_sign_in_creates_an_account_checks_pkce_and_signs_in,
    a_verified_provider_email_links_the_existing_account,
    a_forged_state_or_an_unconfigured_provider_go_back_to_sign_in,
);

#[derive(Clone, Default)]
struct Provider {
    /// The PKCE challenge the authorize step received, checked at the token step.
    challenge: Arc<Mutex<Option<String>>>,
    email: Arc<Mutex<String>>,
}

async fn token(State(p): State<Provider>, body: String) -> Json<Value> {
    // The body is a form; a URL's query parser reads it.
    let form = reqwest::Url::parse(&format!("http://form/?{body}")).unwrap();
    let field = |name: &str| {
        form.query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
            .unwrap_or_default()
    };
    let verifier = field("code_verifier");
    let computed = data_encoding::BASE64URL_NOPAD.encode(&Sha256::digest(verifier.as_bytes()));
    let expected = p.challenge.lock().unwrap().clone().unwrap_or_default();
    if field("code") != "good-code" || computed != expected {
        return Json(json!({ "error": "invalid_grant" }));
    }
    Json(json!({ "access_token": "provider-access", "token_type": "bearer" }))
}

async fn start_provider() -> (String, Provider) {
    let provider = Provider::default();
    *provider.email.lock().unwrap() = "octo@example.com".into();
    let state = provider.clone();
    let router = Router::new()
        .route("/token", post(token))
        .route(
            "/user",
            get(|| async { Json(json!({ "id": 4242, "login": "octocat", "name": "Octo Cat" })) }),
        )
        .route(
            "/user/emails",
            get(|State(p): State<Provider>| async move {
                let email = p.email.lock().unwrap().clone();
                Json(json!([
                    { "email": "unverified@example.com", "primary": false, "verified": false },
                    { "email": email, "primary": true, "verified": true },
                ]))
            }),
        )
        .with_state(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    (base, provider)
}

async fn app_with_github(db: Db) -> Option<(TestApp, Provider)> {
    let (base, provider) = start_provider().await;
    let app = spawn_app_with(db, |config| {
        config.github_client_id = Some("client-1".into());
        config.github_client_secret = Some("secret-1".to_owned().into());
        config.oauth_endpoints_override =
            Some(format!("{base}/authorize,{base}/token,{base}/user"));
    })
    .await?;
    Some((app, provider))
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

fn location(response: &reqwest::Response) -> String {
    response.headers()["location"].to_str().unwrap().to_owned()
}

/// Runs the browser's part: start, "approve" at the provider, come back; answers where the
/// callback sends the browser.
async fn sign_in_through_github(app: &TestApp, provider: &Provider, code: &str) -> String {
    let client = no_redirects();
    let start = client
        .get(app.url("/api/auth/github"))
        .send()
        .await
        .unwrap();
    assert_eq!(start.status(), StatusCode::SEE_OTHER);
    let authorize = reqwest::Url::parse(&location(&start)).unwrap();
    let query: std::collections::HashMap<_, _> = authorize.query_pairs().into_owned().collect();
    assert_eq!(query["client_id"], "client-1");
    assert_eq!(query["code_challenge_method"], "S256");
    assert!(query["scope"].contains("user:email"));
    assert_eq!(
        query["redirect_uri"],
        "http://127.0.0.1:8080/api/auth/github/callback"
    );
    *provider.challenge.lock().unwrap() = Some(query["code_challenge"].clone());
    let back = client
        .get(app.url(&format!(
            "/api/auth/github/callback?code={code}&state={}",
            query["state"]
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(back.status(), StatusCode::SEE_OTHER);
    location(&back)
}

async fn redeem(app: &TestApp, location: &str) -> Value {
    let code = location
        .strip_prefix("/auth#social=")
        .unwrap_or_else(|| panic!("not a hand-off: {location}"));
    let response = app
        .post_json("/api/auth/exchange", &json!({ "code": code }))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let answer = json_of(response).await;
    // A hand-off code works once.
    let again = app
        .post_json("/api/auth/exchange", &json!({ "code": code }))
        .await;
    assert_eq!(again.status(), StatusCode::BAD_REQUEST);
    answer
}

async fn github_sign_in_creates_an_account_checks_pkce_and_signs_in(db: Db) {
    let Some((app, provider)) = app_with_github(db).await else {
        return;
    };
    let back = sign_in_through_github(&app, &provider, "good-code").await;
    let answer = redeem(&app, &back).await;
    assert_eq!(answer["user"]["email"], "octo@example.com");
    assert_eq!(answer["user"]["full_name"], "Octo Cat");
    assert_eq!(answer["user"]["email_verified"], true);
    assert_eq!(answer["user"]["has_password"], false);

    // Signing in again finds the same account.
    let back = sign_in_through_github(&app, &provider, "good-code").await;
    let again = redeem(&app, &back).await;
    assert_eq!(again["user"]["id"], answer["user"]["id"]);

    // A wrong code (the provider refuses) goes back to sign-in.
    let back = sign_in_through_github(&app, &provider, "bad-code").await;
    assert_eq!(back, "/signin?social_error=github&reason=failed");
}

async fn a_verified_provider_email_links_the_existing_account(db: Db) {
    let Some((app, provider)) = app_with_github(db).await else {
        return;
    };
    let registered = json_of(
        app.post_json(
            "/api/register",
            &json!({ "email": "octo@example.com", "password": "Correct1horse", "confirm_password": "Correct1horse" }),
        )
        .await,
    )
    .await;
    let back = sign_in_through_github(&app, &provider, "good-code").await;
    let answer = redeem(&app, &back).await;
    assert_eq!(answer["user"]["id"], registered["user"]["id"]);
    assert_eq!(answer["user"]["email_verified"], true);
    assert_eq!(answer["user"]["has_password"], true);
}

async fn a_forged_state_or_an_unconfigured_provider_go_back_to_sign_in(db: Db) {
    let Some((app, _provider)) = app_with_github(db).await else {
        return;
    };
    let client = no_redirects();
    let forged = client
        .get(app.url("/api/auth/github/callback?code=good-code&state=made-up"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        location(&forged),
        "/signin?social_error=github&reason=failed"
    );
    let google = client
        .get(app.url("/api/auth/google"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        location(&google),
        "/signin?social_error=google&reason=not_configured"
    );
    let unknown = client
        .get(app.url("/api/auth/facebook"))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
}
