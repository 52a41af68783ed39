//! Operators in the back office (issue 22): users with a role, two-factor authentication on and
//! the console unlocked with a recent code; each admin route allows its role and those above.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{Db, TestApp, json_of, raw_store, spawn_app_with};
use crate::on_both_backends;

on_both_backends!(
    each_admin_route_allows_its_role_and_refuses_the_ones_below,
    the_console_needs_two_factor_and_a_recent_code,
    owners_manage_operators_and_the_last_owner_stays,
);

const TOKEN: &str = "console-test-token-5d1e";
const PASSWORD: &str = "Correct1horse";

async fn app_on(db: Db) -> Option<TestApp> {
    spawn_app_with(db, |c| c.admin_token = Some(TOKEN.into())).await
}

/// A request with a bearer: the admin token or a session token.
async fn call(
    app: &TestApp,
    bearer: &str,
    method: Method,
    path: &str,
    body: Option<&Value>,
) -> (StatusCode, Value) {
    let mut request = app
        .client
        .request(method, app.url(path))
        .bearer_auth(bearer);
    if let Some(body) = body {
        request = request.json(body);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// The authenticator app's code for `secret` (base32) at Unix time `at`.
fn code_at(secret: &str, at: i64) -> String {
    let bytes = data_encoding::BASE32_NOPAD
        .decode(secret.as_bytes())
        .unwrap();
    let totp = totp_rs::TOTP::new_unchecked(
        totp_rs::Algorithm::SHA1,
        6,
        1,
        30,
        bytes,
        None,
        String::new(),
    );
    totp.generate(at as u64)
}

/// A signed-up user with two-factor authentication on: the registration's session token (its
/// console locked) and the recovery codes.
async fn with_two_factor(app: &TestApp, email: &str) -> (String, Vec<String>) {
    let registered = json_of(
        app.post_json(
            "/api/register",
            &json!({
                "email": email, "username": email, "password": PASSWORD,
                "confirm_password": PASSWORD, "full_name": "Op Erator",
            }),
        )
        .await,
    )
    .await;
    let token = registered["token"].as_str().expect("registered").to_owned();
    let (_, setup) = call(app, &token, Method::POST, "/api/account/2fa/setup", None).await;
    let secret = setup["secret"].as_str().unwrap();
    let code = code_at(secret, ferry::now_unix() - 30);
    let (status, enabled) = call(
        app,
        &token,
        Method::POST,
        "/api/account/2fa/enable",
        Some(&json!({ "code": code })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{enabled}");
    let recovery = serde_json::from_value(enabled["recovery_codes"].clone()).unwrap();
    (token, recovery)
}

/// Signs in with password and a recovery code: a session whose console is open.
async fn sign_in(app: &TestApp, email: &str, code: &str) -> String {
    let first = json_of(
        app.post_json(
            "/api/login",
            &json!({ "username": email, "password": PASSWORD }),
        )
        .await,
    )
    .await;
    let signed_in = json_of(
        app.post_json(
            "/api/two-factor/login",
            &json!({ "username": email, "code": code, "challenge": first["challenge"] }),
        )
        .await,
    )
    .await;
    signed_in["token"].as_str().expect("signed in").to_owned()
}

/// Marks the account's e-mail address confirmed (as its link would).
async fn verified(app: &TestApp, email: &str) {
    let raw = raw_store(&app.db).await;
    sqlx::query("UPDATE users SET email_verified_at = 1 WHERE email = $1")
        .bind(email)
        .execute(raw.pool())
        .await
        .unwrap();
}

async fn set_role(app: &TestApp, by: &str, email: &str, role: Option<&str>) -> (StatusCode, Value) {
    let body = json!({ "email": email, "role": role });
    call(app, by, Method::PUT, "/api/admin/operators", Some(&body)).await
}

/// An operator with `role`, signed in with a code: their session token.
async fn operator(app: &TestApp, email: &str, role: &str) -> String {
    let (_, recovery) = with_two_factor(app, email).await;
    verified(app, email).await;
    let (status, answer) = set_role(app, TOKEN, email, Some(role)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    sign_in(app, email, &recovery[0]).await
}

async fn each_admin_route_allows_its_role_and_refuses_the_ones_below(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let support = operator(&app, "support@example.com", "support").await;
    let operator_ = operator(&app, "operator@example.com", "operator").await;
    let owner = operator(&app, "owner@example.com", "owner").await;
    let (customer, _) = with_two_factor(&app, "customer@example.com").await;
    // The matrix of docs/back-office-plan.md §2 for today's routes.
    let routes: &[(Method, &str, Option<Value>, usize)] = &[
        (Method::GET, "/api/admin/currency-overrides", None, 0),
        (Method::GET, "/api/admin/incidents", None, 0),
        (Method::GET, "/api/admin/contact-messages", None, 0),
        (
            Method::PUT,
            "/api/admin/currency-overrides/XMR",
            Some(json!({ "send": true })),
            1,
        ),
        (
            Method::POST,
            "/api/admin/incidents",
            Some(json!({ "title": "Checking" })),
            1,
        ),
        (
            Method::POST,
            "/api/admin/incidents/inc-none/updates",
            Some(json!({ "status": "resolved", "message": "-" })),
            1,
        ),
        (
            Method::POST,
            "/api/admin/sandbox/deposit",
            Some(json!({ "order_id": "none" })),
            1,
        ),
        (
            Method::POST,
            "/api/admin/sandbox/expire",
            Some(json!({ "order_id": "none" })),
            1,
        ),
        (Method::GET, "/api/admin/payouts", None, 1),
        (
            Method::POST,
            "/api/admin/payouts/none",
            Some(json!({ "status": "paid" })),
            1,
        ),
        (Method::GET, "/api/admin/audit", None, 1),
        (
            Method::PUT,
            "/api/admin/sandbox/outage",
            Some(json!({ "down": false })),
            2,
        ),
        (Method::GET, "/api/admin/operators", None, 2),
    ];
    let ranked = [
        (&support, "support"),
        (&operator_, "operator"),
        (&owner, "owner"),
    ];
    for (method, path, body, least) in routes {
        for (rank, (token, name)) in ranked.iter().enumerate() {
            let (status, answer) = call(&app, token, method.clone(), path, body.as_ref()).await;
            if rank >= *least {
                assert!(
                    !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN),
                    "{name} {method} {path}: {status} {answer}"
                );
            } else {
                assert_eq!(
                    status,
                    StatusCode::FORBIDDEN,
                    "{name} {method} {path}: {answer}"
                );
                assert!(
                    answer["message"]
                        .as_str()
                        .unwrap()
                        .starts_with("This needs the"),
                    "{answer}"
                );
            }
        }
        let (status, _) = call(&app, TOKEN, method.clone(), path, body.as_ref()).await;
        assert!(
            !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN),
            "token {path}"
        );
        // A customer is no operator: the back office asks for the token, as for anyone.
        let (status, _) = call(&app, &customer, method.clone(), path, body.as_ref()).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "customer {method} {path}");
    }
    // What an operator does is theirs in the log.
    let (_, log) = call(
        &app,
        &owner,
        Method::GET,
        "/api/admin/audit?action=incident.open",
        None,
    )
    .await;
    let emails: Vec<&str> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["actor_email"].as_str().unwrap_or("token"))
        .collect();
    assert_eq!(
        emails,
        ["token", "owner@example.com", "operator@example.com"],
        "{log}"
    );
    assert!(
        log["entries"][1]["actor"]
            .as_str()
            .unwrap()
            .starts_with("user:")
    );
    assert_eq!(log["entries"][1]["actor_role"], "owner");
}

async fn the_console_needs_two_factor_and_a_recent_code(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let overrides = "/api/admin/currency-overrides";
    // A role without two-factor authentication opens nothing.
    let registered = json_of(
        app.post_json(
            "/api/register",
            &json!({
                "email": "no2fa@example.com", "username": "no2fa@example.com", "password": PASSWORD,
                "confirm_password": PASSWORD, "full_name": "No Code",
            }),
        )
        .await,
    )
    .await;
    let no_2fa = registered["token"].as_str().unwrap().to_owned();
    // Not before the address is confirmed: anyone may sign up under a new hire's address.
    let (status, refused) = set_role(&app, TOKEN, "no2fa@example.com", Some("owner")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(
        refused["message"],
        "This account has not confirmed its e-mail address yet"
    );
    verified(&app, "no2fa@example.com").await;
    set_role(&app, TOKEN, "no2fa@example.com", Some("owner")).await;
    let (status, answer) = call(&app, &no_2fa, Method::GET, overrides, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    assert_eq!(
        answer["message"],
        "Turn on two-factor authentication to use the back office"
    );
    let (_, me) = call(&app, &no_2fa, Method::GET, "/api/admin/console/me", None).await;
    assert_eq!(
        (me["role"].as_str(), me["two_factor"].as_bool()),
        (Some("owner"), Some(false))
    );

    // A session that has not proved a code since 2FA went on: locked until it does.
    let (session, recovery) = with_two_factor(&app, "ops@example.com").await;
    verified(&app, "ops@example.com").await;
    set_role(&app, TOKEN, "ops@example.com", Some("operator")).await;
    let (status, answer) = call(&app, &session, Method::GET, overrides, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    assert_eq!(
        answer["message"],
        "The back office is locked: enter a code from your authenticator app"
    );
    let unlock = |code: &str| json!({ "code": code });
    let (status, _) = call(
        &app,
        &session,
        Method::POST,
        "/api/admin/console/unlock",
        Some(&unlock("000000")),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, opened) = call(
        &app,
        &session,
        Method::POST,
        "/api/admin/console/unlock",
        Some(&unlock(&recovery[0])),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{opened}");
    assert!(opened["unlocked_until"].as_i64().unwrap() > ferry::now_unix() + 800);
    let (status, _) = call(&app, &session, Method::GET, overrides, None).await;
    assert_eq!(status, StatusCode::OK);
    // A used recovery code does not unlock again.
    call(
        &app,
        &session,
        Method::POST,
        "/api/admin/console/lock",
        None,
    )
    .await;
    let (status, _) = call(&app, &session, Method::GET, overrides, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = call(
        &app,
        &session,
        Method::POST,
        "/api/admin/console/unlock",
        Some(&unlock(&recovery[0])),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Idle past FERRY_CONSOLE_IDLE_SECONDS (900): locked again.
    let signed_in = sign_in(&app, "ops@example.com", &recovery[1]).await;
    let (status, _) = call(&app, &signed_in, Method::GET, overrides, None).await;
    assert_eq!(status, StatusCode::OK);
    let raw = raw_store(&app.db).await;
    sqlx::query("UPDATE sessions SET console_seen_at = $1")
        .bind(ferry::now_unix() - 901)
        .execute(raw.pool())
        .await
        .unwrap();
    let (status, _) = call(&app, &signed_in, Method::GET, overrides, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    call(
        &app,
        &signed_in,
        Method::POST,
        "/api/admin/console/unlock",
        Some(&unlock(&recovery[2])),
    )
    .await;
    let (status, _) = call(&app, &signed_in, Method::GET, overrides, None).await;
    assert_eq!(status, StatusCode::OK);

    // Two-factor authentication turned off and on again: the console waits for a new code.
    let (status, off) = call(
        &app,
        &signed_in,
        Method::POST,
        "/api/account/2fa/disable",
        Some(&json!({ "password": PASSWORD, "code": recovery[3] })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{off}");
    let (status, answer) = call(&app, &signed_in, Method::GET, overrides, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        answer["message"],
        "Turn on two-factor authentication to use the back office"
    );
    let (_, setup) = call(
        &app,
        &signed_in,
        Method::POST,
        "/api/account/2fa/setup",
        None,
    )
    .await;
    let secret = setup["secret"].as_str().unwrap();
    let code = code_at(secret, ferry::now_unix());
    let (status, on) = call(
        &app,
        &signed_in,
        Method::POST,
        "/api/account/2fa/enable",
        Some(&json!({ "code": code })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{on}");
    let (status, answer) = call(&app, &signed_in, Method::GET, overrides, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        answer["message"],
        "The back office is locked: enter a code from your authenticator app"
    );

    // The role is read on every request: taken away, the next request is refused.
    set_role(&app, TOKEN, "ops@example.com", None).await;
    let (status, _) = call(&app, &signed_in, Method::GET, overrides, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

async fn owners_manage_operators_and_the_last_owner_stays(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let ann = operator(&app, "ann@example.com", "owner").await;
    let (_, _) = with_two_factor(&app, "bob@example.com").await;
    verified(&app, "bob@example.com").await;
    let (status, made) = set_role(&app, &ann, "Bob@Example.com", Some("owner")).await;
    assert_eq!(status, StatusCode::OK, "{made}");
    assert_eq!(
        (made["email"].as_str(), made["role"].as_str()),
        (Some("bob@example.com"), Some("owner"))
    );
    let (status, _) = set_role(&app, &ann, "bob@example.com", Some("admin")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = set_role(&app, &ann, "nobody@example.com", Some("support")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Two owners: one may go; then the other is the last and stays.
    let (status, _) = set_role(&app, &ann, "bob@example.com", None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, refused) = set_role(&app, &ann, "ann@example.com", Some("operator")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(
        refused["message"],
        "This is the last owner: make another owner first"
    );
    // The last owner cannot leave by deleting the account either.
    let (status, refused) = call(
        &app,
        &ann,
        Method::POST,
        "/api/account/delete",
        Some(&json!({ "password": PASSWORD })),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(
        refused["message"],
        "An operator's account is deleted once an owner has taken its role away"
    );
    let (_, listed) = call(&app, &ann, Method::GET, "/api/admin/operators", None).await;
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(listed[0]["role"], "owner");
    // Each change is in the log, with the role it was and became.
    let (_, log) = call(
        &app,
        TOKEN,
        Method::GET,
        "/api/admin/audit?action=operator.set",
        None,
    )
    .await;
    let changes: Vec<(Value, Value)> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["before"]["role"].clone(), e["after"]["role"].clone()))
        .collect();
    assert_eq!(
        changes,
        [
            (json!("owner"), json!(null)),
            (json!(null), json!("owner")),
            (json!(null), json!("owner")),
        ]
    );
}
