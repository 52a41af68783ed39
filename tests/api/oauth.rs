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
    a_verified_account_is_linked_and_keeps_what_its_owner_set_up,
    an_unverified_account_squatting_the_address_is_wiped_before_the_provider_owner_gets_it,
    a_forged_state_or_an_unconfigured_provider_go_back_to_sign_in,
    a_sign_in_link_carried_to_another_browser_signs_nobody_in,
    with_2fa_on_social_sign_in_asks_for_the_code,
    enabling_2fa_ends_every_other_session,
    a_squatter_writing_to_the_account_meanwhile_cannot_undo_the_wipe,
    a_passwordless_account_needs_a_fresh_provider_sign_in_for_sensitive_changes,
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

/// The value of `name` in a response's `Set-Cookie` headers.
fn set_cookie(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix(&format!("{name}=")))
        .map(|v| v.split(';').next().unwrap_or_default().to_owned())
}

/// One browser's cookie for the social sign-in paths.
#[derive(Clone, Default)]
struct Browser {
    oauth_cookie: Option<String>,
}

impl Browser {
    fn cookie_header(&self) -> String {
        self.oauth_cookie
            .as_ref()
            .map(|v| format!("ferry_oauth={v}"))
            .unwrap_or_default()
    }
}

/// Runs the browser's part: start, "approve" at the provider, come back; answers where the
/// callback sends the browser.
async fn sign_in_through_github(app: &TestApp, provider: &Provider, code: &str) -> String {
    sign_in_in(app, provider, code, &mut Browser::default()).await
}

/// The state and the authorize URL's query of a flow `browser` begins.
async fn begin_in(
    app: &TestApp,
    provider: &Provider,
    browser: &mut Browser,
) -> std::collections::HashMap<String, String> {
    let client = no_redirects();
    let start = client
        .get(app.url("/api/auth/github"))
        .send()
        .await
        .unwrap();
    assert_eq!(start.status(), StatusCode::SEE_OTHER);
    let binding = set_cookie(&start, "ferry_oauth").expect("the flow binds this browser");
    let header = start
        .headers()
        .get_all("set-cookie")
        .iter()
        .find(|v| v.to_str().unwrap().starts_with("ferry_oauth="));
    let header = header.unwrap().to_str().unwrap();
    assert!(
        header.contains("HttpOnly") && header.contains("Path=/api/auth"),
        "{header}"
    );
    browser.oauth_cookie = Some(binding);
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
    query
}

/// The provider sends `browser` back with `state`; answers where the callback sends it.
async fn come_back(app: &TestApp, code: &str, state: &str, browser: &Browser) -> String {
    let back = no_redirects()
        .get(app.url(&format!(
            "/api/auth/github/callback?code={code}&state={state}"
        )))
        .header("cookie", browser.cookie_header())
        .send()
        .await
        .unwrap();
    assert_eq!(back.status(), StatusCode::SEE_OTHER);
    location(&back)
}

async fn sign_in_in(
    app: &TestApp,
    provider: &Provider,
    code: &str,
    browser: &mut Browser,
) -> String {
    let query = begin_in(app, provider, browser).await;
    come_back(app, code, &query["state"], browser).await
}

async fn exchange(app: &TestApp, location: &str, browser: &Browser) -> (StatusCode, Value) {
    let code = location
        .strip_prefix("/auth#social=")
        .unwrap_or_else(|| panic!("not a hand-off: {location}"));
    let response = app
        .client
        .post(app.url("/api/auth/exchange"))
        .header("cookie", browser.cookie_header())
        .json(&json!({ "code": code }))
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, json_of(response).await)
}

/// Signs in through GitHub in a fresh browser, all the way to the session.
async fn social_session(app: &TestApp, provider: &Provider) -> Value {
    let mut browser = Browser::default();
    let back = sign_in_in(app, provider, "good-code", &mut browser).await;
    let (status, answer) = exchange(app, &back, &browser).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer
}

async fn redeem_in(app: &TestApp, location: &str, browser: &Browser) -> Value {
    let (status, answer) = exchange(app, location, browser).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // A hand-off code works once.
    let (again, _) = exchange(app, location, browser).await;
    assert_eq!(again, StatusCode::BAD_REQUEST);
    answer
}

async fn github_sign_in_creates_an_account_checks_pkce_and_signs_in(db: Db) {
    let Some((app, provider)) = app_with_github(db).await else {
        return;
    };
    let mut browser = Browser::default();
    let back = sign_in_in(&app, &provider, "good-code", &mut browser).await;
    let answer = redeem_in(&app, &back, &browser).await;
    assert_eq!(answer["user"]["email"], "octo@example.com");
    assert_eq!(answer["user"]["full_name"], "Octo Cat");
    assert_eq!(answer["user"]["email_verified"], true);
    assert_eq!(answer["user"]["has_password"], false);

    // Signing in again finds the same account.
    let again = social_session(&app, &provider).await;
    assert_eq!(again["user"]["id"], answer["user"]["id"]);

    // A wrong code (the provider refuses) goes back to sign-in.
    let back = sign_in_through_github(&app, &provider, "bad-code").await;
    assert_eq!(back, "/signin?social_error=github&reason=failed");
}

async fn register(app: &TestApp, email: &str) -> Value {
    let response = app
        .post_json(
            "/api/register",
            &json!({ "email": email, "password": "Correct1horse", "confirm_password": "Correct1horse" }),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    json_of(response).await
}

async fn user_status(app: &TestApp, token: &str) -> StatusCode {
    app.client
        .get(app.url("/api/user"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .status()
}

async fn a_verified_account_is_linked_and_keeps_what_its_owner_set_up(db: Db) {
    let Some((app, provider)) = app_with_github(db).await else {
        return;
    };
    let registered = register(&app, "octo@example.com").await;
    let user = app
        .store
        .find_user_by_email("octo@example.com")
        .await
        .unwrap()
        .unwrap();
    app.store
        .change_user(&user.id, ferry::store::UserChange::EmailVerified, 1)
        .await
        .unwrap();

    let answer = social_session(&app, &provider).await;
    assert_eq!(answer["user"]["id"], registered["user"]["id"]);
    assert_eq!(answer["user"]["has_password"], true);
    assert_eq!(
        user_status(&app, registered["token"].as_str().unwrap()).await,
        StatusCode::OK,
        "the owner's own session goes on"
    );
}

/// An attacker registers the victim's address (never verifying it) with his own password and
/// waits; when the victim signs in through the provider, the account is the victim's alone.
async fn an_unverified_account_squatting_the_address_is_wiped_before_the_provider_owner_gets_it(
    db: Db,
) {
    let Some((app, provider)) = app_with_github(db).await else {
        return;
    };
    let squatter = register(&app, "octo@example.com").await;
    let squatter_token = squatter["token"].as_str().unwrap();
    assert_eq!(user_status(&app, squatter_token).await, StatusCode::OK);

    let victim = social_session(&app, &provider).await;
    assert_eq!(
        victim["user"]["id"], squatter["user"]["id"],
        "the same address, one account"
    );
    assert_eq!(victim["user"]["has_password"], false);
    assert_eq!(victim["user"]["email_verified"], true);
    assert_eq!(
        user_status(&app, squatter_token).await,
        StatusCode::UNAUTHORIZED,
        "the squatter's session is gone"
    );
    let login = app
        .post_json(
            "/api/login",
            &json!({ "username": "octo@example.com", "password": "Correct1horse" }),
        )
        .await;
    assert_eq!(
        login.status(),
        StatusCode::UNAUTHORIZED,
        "so is his password"
    );
    let user = app
        .store
        .find_user_by_email("octo@example.com")
        .await
        .unwrap()
        .unwrap();
    assert!(!user.totp_enabled && user.totp_secret.is_none() && user.referred_by.is_none());
}

/// Login CSRF: an attacker starts a sign-in with his own provider account and sends the victim
/// the link it ends on (or the callback); in the victim's browser neither signs anyone in.
async fn a_sign_in_link_carried_to_another_browser_signs_nobody_in(db: Db) {
    let Some((app, provider)) = app_with_github(db).await else {
        return;
    };
    let mut attacker = Browser::default();
    let back = sign_in_in(&app, &provider, "good-code", &mut attacker).await;
    let victim = Browser::default();
    let (status, answer) = exchange(&app, &back, &victim).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    let (status, _) = exchange(&app, &back, &attacker).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "the code was spent by the failed try"
    );

    // The callback itself, carried to another browser, is refused too.
    let mut attacker = Browser::default();
    let query = begin_in(&app, &provider, &mut attacker).await;
    let other = Browser {
        oauth_cookie: Some("someone-else".into()),
    };
    let back = come_back(&app, "good-code", &query["state"], &other).await;
    assert_eq!(back, "/signin?social_error=github&reason=failed");
    let back = come_back(&app, "good-code", &query["state"], &attacker).await;
    assert_eq!(
        back, "/signin?social_error=github&reason=failed",
        "the state was single-use"
    );
}

fn totp_now(secret: &str) -> String {
    let totp = totp_rs::TOTP::new_unchecked(
        totp_rs::Algorithm::SHA1,
        6,
        1,
        30,
        data_encoding::BASE32_NOPAD
            .decode(secret.as_bytes())
            .unwrap(),
        None,
        String::new(),
    );
    totp.generate_current().unwrap()
}

/// Turns 2FA on for the session's user; answers a recovery code.
async fn enable_2fa(app: &TestApp, token: &str) -> String {
    let setup: Value = app
        .client
        .post(app.url("/api/account/2fa/setup"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let secret = setup["secret"].as_str().expect("a secret").to_owned();
    let enabled = app
        .client
        .post(app.url("/api/account/2fa/enable"))
        .bearer_auth(token)
        .json(&json!({ "code": totp_now(&secret) }))
        .send()
        .await
        .unwrap();
    assert_eq!(enabled.status(), StatusCode::OK);
    let enabled = json_of(enabled).await;
    enabled["recovery_codes"][0]
        .as_str()
        .expect("codes")
        .to_owned()
}

async fn with_2fa_on_social_sign_in_asks_for_the_code(db: Db) {
    let Some((app, provider)) = app_with_github(db).await else {
        return;
    };
    let first = social_session(&app, &provider).await;
    let recovery_code = enable_2fa(&app, first["token"].as_str().unwrap()).await;

    let mut browser = Browser::default();
    let back = sign_in_in(&app, &provider, "good-code", &mut browser).await;
    let (status, step) = exchange(&app, &back, &browser).await;
    assert_eq!(status, StatusCode::OK, "{step}");
    assert_eq!(step["requires_2fa"], true, "{step}");
    assert!(
        step["token"].is_null(),
        "no session before the code: {step}"
    );
    assert_eq!(step["email"], "octo@example.com");
    // The same code step as a password sign-in (a recovery code, as the app's code was just
    // used to turn 2FA on).
    let response = app
        .post_json(
            "/api/two-factor/login",
            &json!({ "username": "octo@example.com", "challenge": step["challenge"],
                     "code": recovery_code }),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(json_of(response).await["token"].is_string());
}

async fn enabling_2fa_ends_every_other_session(db: Db) {
    let Some((app, _provider)) = app_with_github(db).await else {
        return;
    };
    let registered = register(&app, "two@example.com").await;
    let elsewhere = app
        .post_json(
            "/api/login",
            &json!({ "username": "two@example.com", "password": "Correct1horse" }),
        )
        .await;
    let elsewhere = json_of(elsewhere).await;
    let other_token = elsewhere["token"].as_str().unwrap();
    assert_eq!(user_status(&app, other_token).await, StatusCode::OK);
    let here = registered["token"].as_str().unwrap();
    enable_2fa(&app, here).await;
    assert_eq!(
        user_status(&app, here).await,
        StatusCode::OK,
        "this session stays"
    );
    assert_eq!(
        user_status(&app, other_token).await,
        StatusCode::UNAUTHORIZED,
        "a session a thief might hold ends"
    );
}

async fn a_passwordless_account_needs_a_fresh_provider_sign_in_for_sensitive_changes(db: Db) {
    let Some((app, provider)) = app_with_github(db).await else {
        return;
    };
    let session = social_session(&app, &provider).await;
    let token = session["token"].as_str().unwrap();
    // Eleven minutes later the session is no proof that its holder is the owner.
    let raw = crate::helpers::raw_store(&app.db).await;
    sqlx::query("UPDATE sessions SET created_at = created_at - 660")
        .execute(raw.pool())
        .await
        .unwrap();
    let post = |path: &'static str, body: Value| {
        let (client, url) = (app.client.clone(), app.url(path));
        let token = token.to_owned();
        async move {
            client
                .post(url)
                .bearer_auth(token)
                .json(&body)
                .send()
                .await
                .unwrap()
        }
    };
    let set_password = post(
        "/api/account/password",
        json!({ "current_password": "", "password": "Correct1horse", "confirm_password": "Correct1horse" }),
    )
    .await;
    assert_eq!(set_password.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        json_of(set_password).await["error"],
        "For your safety, sign in again with Google or GitHub first, then do this within 10 minutes"
    );
    let delete = post("/api/account/delete", json!({ "password": "" })).await;
    assert_eq!(delete.status(), StatusCode::FORBIDDEN);
    assert!(
        app.store
            .find_user_by_email("octo@example.com")
            .await
            .unwrap()
            .is_some()
    );

    // Signed in through the provider just now: allowed.
    let fresh = social_session(&app, &provider).await;
    let response = app
        .client
        .post(app.url("/api/account/password"))
        .bearer_auth(fresh["token"].as_str().unwrap())
        .json(&json!({ "current_password": "", "password": "Correct1horse", "confirm_password": "Correct1horse" }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "{}",
        response.text().await.unwrap()
    );
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

/// The squatter keeps writing to the account (profile edits, a password change) while its
/// owner signs in through the provider: nothing he writes brings his password back.
async fn a_squatter_writing_to_the_account_meanwhile_cannot_undo_the_wipe(db: Db) {
    let Some((app, provider)) = app_with_github(db).await else {
        return;
    };
    for round in 0..3 {
        let email = "octo@example.com";
        if round > 0 {
            // Start over: a fresh squatter on a fresh address each round.
            *provider.email.lock().unwrap() = format!("octo{round}@example.com");
        }
        let email = if round > 0 {
            format!("octo{round}@example.com")
        } else {
            email.into()
        };
        let squatter = register(&app, &email).await;
        let token = squatter["token"].as_str().unwrap().to_owned();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let writers: Vec<_> = (0..4)
            .map(|n| {
                let (client, stop, token) = (app.client.clone(), stop.clone(), token.clone());
                let (profile, password) =
                    (app.url("/api/account"), app.url("/api/account/password"));
                tokio::spawn(async move {
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        let _ = if n % 2 == 0 {
                            client
                                .patch(&profile)
                                .bearer_auth(&token)
                                .json(&json!({ "full_name": "Squatter" }))
                                .send()
                                .await
                        } else {
                            client
                                .post(&password)
                                .bearer_auth(&token)
                                .json(&json!({ "current_password": "Correct1horse",
                                               "password": "Correct1horse",
                                               "confirm_password": "Correct1horse" }))
                                .send()
                                .await
                        };
                    }
                })
            })
            .collect();
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        // The provider's GitHub user id is the same every round: unlink it first.
        let raw = crate::helpers::raw_store(&app.db).await;
        sqlx::query("DELETE FROM oauth_identities")
            .execute(raw.pool())
            .await
            .unwrap();
        let owner = social_session(&app, &provider).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for writer in writers {
            writer.await.unwrap();
        }
        assert_eq!(owner["user"]["has_password"], false);
        let login = app
            .post_json(
                "/api/login",
                &json!({ "username": email, "password": "Correct1horse" }),
            )
            .await;
        assert_eq!(
            login.status(),
            StatusCode::UNAUTHORIZED,
            "round {round}: the squatter's password is gone"
        );
        assert_eq!(user_status(&app, &token).await, StatusCode::UNAUTHORIZED);
        let user = app.store.find_user_by_email(&email).await.unwrap().unwrap();
        assert!(
            user.password_hash.is_none() && user.email_verified_at.is_some(),
            "round {round}"
        );
    }
}
