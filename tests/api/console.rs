//! Operators in the back office (issue 22): users with a role, two-factor authentication on and
//! the console unlocked with a recent code; each admin route allows its role and those above.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use sqlx::Row;

use crate::helpers::{Db, TestApp, json_of, raw_store, spawn_app_with};
use crate::on_both_backends;

on_both_backends!(
    each_admin_route_allows_its_role_and_refuses_the_ones_below,
    the_console_needs_two_factor_and_a_recent_code,
    owners_manage_operators_and_the_last_owner_stays,
    operators_find_an_order_by_each_of_its_keys,
    a_support_operator_notes_but_cannot_refund_and_an_operator_refunds_once,
    the_queue_lists_what_needs_a_person_and_every_replica_counts_the_same,
    operators_correct_a_refund_address_retry_a_stuck_order_and_cancel_one_waiting,
    a_page_refreshing_itself_does_not_keep_the_console_open,
    an_operator_locks_an_account_and_no_sign_in_opens_it_until_unlocked,
);

pub(crate) const TOKEN: &str = "console-test-token-5d1e";
const PASSWORD: &str = "Correct1horse";

pub(crate) async fn app_on(db: Db) -> Option<TestApp> {
    spawn_app_with(db, |c| {
        c.admin_token = Some(TOKEN.into());
        c.sandbox_step_seconds = 0;
        c.worker_interval_ms = 50;
    })
    .await
}

/// A request with a bearer: the admin token or a session token.
pub(crate) async fn call(
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
    // The current step: still within the accepted window if the request crosses into the next
    // (a code from the step before would fall out of it).
    let code = code_at(secret, ferry::now_unix());
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
pub(crate) async fn operator(app: &TestApp, email: &str, role: &str) -> String {
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
    // The matrix of docs/back-office-plan.md §2 for today's routes (30).
    let routes: &[(Method, &str, Option<Value>, usize)] = &[
        (Method::GET, "/api/admin/currency-overrides", None, 0),
        (Method::GET, "/api/admin/incidents", None, 0),
        (Method::GET, "/api/admin/contact-messages", None, 0),
        (
            Method::POST,
            "/api/admin/contact-messages/none/answered",
            Some(json!({})),
            0,
        ),
        (
            Method::PUT,
            "/api/admin/contact-messages/none/order",
            Some(json!({ "order_id": null })),
            0,
        ),
        (Method::GET, "/api/admin/orders", None, 0),
        (Method::GET, "/api/admin/queue", None, 0),
        (Method::GET, "/api/admin/users", None, 0),
        (Method::GET, "/api/admin/users/none", None, 0),
        (
            Method::POST,
            "/api/admin/users/none/lock",
            Some(json!({ "reason": "Stolen" })),
            1,
        ),
        (
            Method::POST,
            "/api/admin/users/none/unlock",
            Some(json!({ "reason": "Found" })),
            1,
        ),
        (
            Method::POST,
            "/api/admin/users/none/sign-out",
            Some(json!({ "reason": "Stolen" })),
            1,
        ),
        (Method::GET, "/api/admin/stats", None, 0),
        (Method::GET, "/api/admin/orders/none", None, 0),
        (
            Method::POST,
            "/api/admin/orders/none/notes",
            Some(json!({ "text": "Called" })),
            0,
        ),
        (
            Method::POST,
            "/api/admin/orders/none/refund",
            Some(json!({ "reason": "Asked" })),
            1,
        ),
        (
            Method::PUT,
            "/api/admin/orders/none/refund-address",
            Some(json!({ "reason": "Asked", "address": "x" })),
            1,
        ),
        (
            Method::POST,
            "/api/admin/orders/none/retry",
            Some(json!({ "reason": "Stuck" })),
            1,
        ),
        (
            Method::POST,
            "/api/admin/orders/none/cancel",
            Some(json!({ "reason": "Asked" })),
            1,
        ),
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
        (Method::GET, "/api/admin/audit.csv", None, 1),
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
    // The next step: the first code's step was claimed and a step is used once.
    let code = code_at(secret, ferry::now_unix() + 30);
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

const ETH_ADDRESS: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const BTC_ADDRESS: &str = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";

/// A fixed BTC → ETH order of 0.01 placed by the holder of `session` (or a visitor), and its id.
pub(crate) async fn fixed_order(app: &TestApp, session: Option<&str>) -> String {
    let body = json!({
        "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.01", "toAddress": ETH_ADDRESS,
        "direction": "from", "type": "fixed",
    });
    let (status, answer) = match session {
        Some(token) => call(app, token, Method::POST, "/api/create-order", Some(&body)).await,
        None => {
            let response = app.post_json("/api/create-order", &body).await;
            (response.status(), json_of(response).await)
        }
    };
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer["data"]["id"].as_str().expect("an order").to_owned()
}

/// The sandbox's deposit of `amount` on the order (0.008 of 0.01 puts a fixed order in
/// EMERGENCY).
pub(crate) async fn deposit(app: &TestApp, id: &str, amount: &str) {
    let body = json!({ "order_id": id, "amount": amount });
    let path = "/api/admin/sandbox/deposit";
    let (status, answer) = call(app, TOKEN, Method::POST, path, Some(&body)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

async fn found_ids(app: &TestApp, bearer: &str, query: &str) -> Vec<String> {
    let path = format!("/api/admin/orders?{query}");
    let (status, answer) = call(app, bearer, Method::GET, &path, None).await;
    assert_eq!(status, StatusCode::OK, "{query}: {answer}");
    answer["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn operators_find_an_order_by_each_of_its_keys(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let support = operator(&app, "desk@example.com", "support").await;
    let (customer, _) = with_two_factor(&app, "Buyer@Example.com").await;
    let wanted = fixed_order(&app, Some(&customer)).await;
    let other = fixed_order(&app, None).await;
    deposit(&app, &wanted, "0.008").await;
    let (_, detail) = call(
        &app,
        &support,
        Method::GET,
        &format!("/api/admin/orders/{wanted}"),
        None,
    )
    .await;
    let order = &detail["order"];
    assert_eq!(order["status"], "EMERGENCY", "{detail}");
    assert_eq!(order["owner_email"], "buyer@example.com");
    assert!(order.get("provider_order_token").is_none());
    let txid = order["transactions"]["deposit"]["id"]
        .as_str()
        .expect("a deposit");
    let deposit_address = order["deposit_address"].as_str().unwrap();

    let by = |q: String| {
        let app = &app;
        let support = &support;
        async move { found_ids(app, support, &q).await }
    };
    for key in [wanted.as_str(), deposit_address, txid, "BUYER@example.com"] {
        let q = format!("q={}", urlencode(key));
        assert_eq!(by(q).await, [wanted.as_str()], "by {key}");
    }
    // Both orders pay out to the same address: newest first (made in one second, by id).
    let both = by(format!("q={ETH_ADDRESS}")).await;
    let mut sorted = both.clone();
    sorted.sort();
    let mut expected = vec![wanted.clone(), other.clone()];
    expected.sort();
    assert_eq!(sorted, expected);
    assert_eq!(by("status=emergency".into()).await, [wanted.as_str()]);
    assert_eq!(by("q=nothing-like-it".into()).await, Vec::<String>::new());
    let emergency_there = format!("q={ETH_ADDRESS}&status=EMERGENCY");
    assert_eq!(by(emergency_there).await, [wanted.as_str()]);
    let path = "/api/admin/orders?q=%00abc";
    let (status, _) = call(&app, &support, Method::GET, path, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Pages of one order: the same two in the same order, then none.
    assert_eq!(by("limit=1".into()).await, [both[0].clone()]);
    let (_, first) = call(
        &app,
        &support,
        Method::GET,
        "/api/admin/orders?limit=1",
        None,
    )
    .await;
    let next = first["next"].as_str().expect("a next page");
    let (_, second) = call(
        &app,
        &support,
        Method::GET,
        &format!("/api/admin/orders?limit=1&before={}", urlencode(next)),
        None,
    )
    .await;
    assert_eq!(second["orders"][0]["id"], both[1].as_str());
    let last = second["next"].as_str().expect("a next page");
    let after = by(format!("limit=1&before={}", urlencode(last))).await;
    assert_eq!(after, Vec::<String>::new());
    let (status, _) = call(
        &app,
        &support,
        Method::GET,
        "/api/admin/orders?status=LOST",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // The customer is no operator.
    let (status, _) = call(&app, &customer, Method::GET, "/api/admin/orders", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

fn urlencode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// A keyed console request, as the console sends its acts.
pub(crate) async fn act(
    app: &TestApp,
    bearer: &str,
    path: &str,
    body: &Value,
    key: &str,
) -> (StatusCode, Value) {
    act_with(app, bearer, Method::POST, path, body, key).await
}

/// [`act`] with another method (`PUT`).
pub(crate) async fn act_with(
    app: &TestApp,
    bearer: &str,
    method: Method,
    path: &str,
    body: &Value,
    key: &str,
) -> (StatusCode, Value) {
    let response = app
        .client
        .request(method, app.url(path))
        .bearer_auth(bearer)
        .header("Idempotency-Key", key)
        .json(body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn a_support_operator_notes_but_cannot_refund_and_an_operator_refunds_once(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let support = operator(&app, "desk@example.com", "support").await;
    let ops = operator(&app, "ops@example.com", "operator").await;
    let id = fixed_order(&app, None).await;
    deposit(&app, &id, "0.008").await;
    let order_path = format!("/api/admin/orders/{id}");
    let refund_path = format!("{order_path}/refund");
    let refund = json!({ "reason": "Customer asked by mail", "address": BTC_ADDRESS });

    let (_, seen) = call(&app, &support, Method::GET, &order_path, None).await;
    assert_eq!(seen["actions"], json!(["note"]));
    let note = json!({ "text": "Customer wrote: sent too little by mistake" });
    let (status, noted) = act(&app, &support, &format!("{order_path}/notes"), &note, "n-1").await;
    assert_eq!(status, StatusCode::OK, "{noted}");
    let (status, refused) = act(&app, &support, &refund_path, &refund, "r-0").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(refused["reason"], "role_required");
    assert_eq!(
        refused["message"],
        "This needs the operator role; you are support"
    );

    let (_, seen) = call(&app, &ops, Method::GET, &order_path, None).await;
    assert_eq!(seen["actions"], json!(["note", "refund", "refund_address"]));
    let no_reason = json!({ "reason": " ", "address": BTC_ADDRESS });
    let (status, _) = act(&app, &ops, &refund_path, &no_reason, "r-1").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A double click: both answered, one refund, one entry.
    let (first, second) = tokio::join!(
        act(&app, &ops, &refund_path, &refund, "r-2"),
        act(&app, &ops, &refund_path, &refund, "r-2"),
    );
    assert_eq!(first.0, StatusCode::OK, "{}", first.1);
    assert_eq!(second.0, StatusCode::OK, "{}", second.1);
    assert_eq!(
        [&first.1, &second.1]
            .iter()
            .filter(|a| a["replayed"] == true)
            .count(),
        1
    );
    // Another refund later is refused: the choice is made.
    let (status, _) = act(&app, &ops, &refund_path, &refund, "r-3").await;
    assert_eq!(status, StatusCode::CONFLICT);

    // The sandbox sends it back; the timeline shows who did what, and why.
    let mut detail = Value::Null;
    for _ in 0..100 {
        detail = call(&app, &ops, Method::GET, &order_path, None).await.1;
        if detail["order"]["status"] == "REFUNDED" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(detail["order"]["status"], "REFUNDED", "{detail}");
    assert_eq!(detail["order"]["refund_address"], BTC_ADDRESS);
    assert_eq!(detail["actions"], json!(["note"]));
    let acts: Vec<(&str, &str, &str)> = detail["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["kind"] == "audit")
        .map(|item| {
            (
                item["action"].as_str().unwrap(),
                item["actor_email"].as_str().unwrap_or("token"),
                item["reason"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        acts,
        [
            ("order.deposit", "token", ""),
            (
                "order.note",
                "desk@example.com",
                "Customer wrote: sent too little by mistake"
            ),
            ("order.refund", "ops@example.com", "Customer asked by mail"),
        ]
    );
    let statuses: Vec<&str> = detail["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|item| item["status"].as_str())
        .collect();
    assert_eq!(statuses.first(), Some(&"NEW"));
    assert_eq!(statuses.last(), Some(&"REFUNDED"));
    let (_, log) = call(
        &app,
        TOKEN,
        Method::GET,
        &format!("/api/admin/audit?action=order.refund&subject_id={id}"),
        None,
    )
    .await;
    let entry = &log["entries"][0];
    assert_eq!(log["entries"].as_array().unwrap().len(), 1, "{log}");
    assert_eq!(entry["actor_role"], "operator");
    assert_eq!(entry["before"]["status"], "EMERGENCY");
    assert_eq!(entry["after"]["emergency_choice"], "REFUND");
    assert_eq!(entry["after"]["refund_address_set"], true);

    // The customer's own refund address is never replaced in passing.
    let body = json!({
        "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.01", "toAddress": ETH_ADDRESS,
        "direction": "from", "type": "fixed", "refundAddress": BTC_ADDRESS,
    });
    let created = json_of(app.post_json("/api/create-order", &body).await).await;
    let id = created["data"]["id"].as_str().unwrap();
    deposit(&app, id, "0.008").await;
    let refund_path = format!("/api/admin/orders/{id}/refund");
    let other = json!({ "reason": "Asked", "address": "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa" });
    let (status, refused) = act(&app, &ops, &refund_path, &other, "r-4").await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    let (_, seen) = call(
        &app,
        &ops,
        Method::GET,
        &format!("/api/admin/orders/{id}"),
        None,
    )
    .await;
    assert_eq!(seen["order"]["refund_address"], BTC_ADDRESS);
    assert_eq!(seen["order"]["emergency_choice"], Value::Null);
    let (status, _) = act(
        &app,
        &ops,
        &refund_path,
        &json!({ "reason": "Asked" }),
        "r-5",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

/// Puts an order where a test needs it, as time and the worker would have.
pub(crate) async fn set_order(app: &TestApp, id: &str, status: &str, updated_at: i64) {
    let raw = raw_store(&app.db).await;
    sqlx::query(
        "UPDATE orders SET status = $1, updated_at = $2, next_step_at = NULL WHERE id = $3",
    )
    .bind(status)
    .bind(updated_at)
    .bind(id)
    .execute(raw.pool())
    .await
    .unwrap();
}

async fn the_queue_lists_what_needs_a_person_and_every_replica_counts_the_same(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let support = operator(&app, "desk@example.com", "support").await;
    let now = ferry::now_unix();
    let emergency = fixed_order(&app, None).await;
    deposit(&app, &emergency, "0.008").await;
    let stuck = fixed_order(&app, None).await;
    set_order(&app, &stuck, "EXCHANGE", now - 7201).await;
    let moving = fixed_order(&app, None).await;
    set_order(&app, &moving, "SENDING", now - 60).await;
    let failed = fixed_order(&app, None).await;
    set_order(&app, &failed, "FAILED", now - 100).await;
    let failed_long_ago = fixed_order(&app, None).await;
    set_order(&app, &failed_long_ago, "FAILED", now - 8 * 86_400).await;
    let completed = fixed_order(&app, None).await;
    deposit(&app, &completed, "0.01").await;
    let mut status = Value::Null;
    for _ in 0..100 {
        let path = format!("/api/admin/orders/{completed}");
        status = call(&app, &support, Method::GET, &path, None).await.1["order"]["status"].clone();
        if status == "COMPLETED" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(status, "COMPLETED");

    let (code, queue) = call(&app, &support, Method::GET, "/api/admin/queue", None).await;
    assert_eq!(code, StatusCode::OK, "{queue}");
    assert_eq!(
        queue["counts"],
        json!({ "emergency": 1, "stuck": 1, "failed": 1, "messages": 0 })
    );
    assert_eq!(queue["stuck_after_seconds"], 7200);
    let listed: Vec<(&str, &str)> = queue["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["id"].as_str().unwrap(), o["reason"].as_str().unwrap()))
        .collect();
    // The longest waiting first.
    assert_eq!(
        listed,
        [
            (stuck.as_str(), "stuck"),
            (failed.as_str(), "failed"),
            (emergency.as_str(), "emergency"),
        ]
    );
    assert_eq!(queue["orders"][0]["waiting_since"], now - 7201);

    let (code, stats) = call(&app, &support, Method::GET, "/api/admin/stats?days=1", None).await;
    assert_eq!(code, StatusCode::OK, "{stats}");
    assert_eq!(stats["deposited"], 2, "{stats}");
    assert_eq!(stats["emergency"], 1);
    assert_eq!(stats["refunded"], 0);
    assert_eq!(stats["completion_seconds"]["count"], 1);
    assert!(stats["completion_seconds"]["p50"].as_i64().unwrap() >= 0);
    assert_eq!(
        stats["completion_seconds"]["p50"],
        stats["completion_seconds"]["p99"]
    );
    // The order made 8 days ago (by its creation, today) counts with today's.
    let day = &stats["days"][0];
    assert_eq!(stats["days"].as_array().unwrap().len(), 1, "{stats}");
    assert_eq!(day["orders"], 6);
    assert_eq!(day["completed"], 1);
    assert!(day["volume_usd"].as_str().unwrap().parse::<f64>().unwrap() > 0.0);
    let (code, _) = call(&app, &support, Method::GET, "/api/admin/stats?days=0", None).await;
    assert_eq!(code, StatusCode::BAD_REQUEST);

    // From the database, not the process: another replica answers the same.
    let replica = crate::helpers::spawn_replica_of(&app, |c| {
        c.admin_token = Some(TOKEN.into());
    })
    .await;
    let (_, there) = call(
        &replica,
        TOKEN,
        Method::GET,
        "/api/admin/stats?days=1",
        None,
    )
    .await;
    assert_eq!(there, stats);
    let (_, queue_there) = call(&replica, TOKEN, Method::GET, "/api/admin/queue", None).await;
    assert_eq!(queue_there["counts"], queue["counts"]);

    // A customer writes about the order that is moving fine: linked, it needs a person until
    // the message is answered.
    let message = json!({
        "name": "Grace", "email": "grace@example.com", "subject": "Where is my ETH?",
        "category": "billing", "message": "I sent BTC an hour ago.",
    });
    assert_eq!(
        app.post_json("/api/contact", &message).await.status(),
        StatusCode::CREATED
    );
    let path = "/api/admin/contact-messages?answered=false";
    let (_, open) = call(&app, &support, Method::GET, path, None).await;
    let message_id = open[0]["id"].as_str().expect("the message").to_owned();
    assert_eq!(open[0]["order_id"], Value::Null);
    let link = json!({ "order_id": moving });
    let link_path = format!("/api/admin/contact-messages/{message_id}/order");
    let (status, linked) = call(&app, &support, Method::PUT, &link_path, Some(&link)).await;
    assert_eq!(status, StatusCode::OK, "{linked}");
    assert_eq!(linked["order_id"], moving.as_str());
    let unknown = json!({ "order_id": "no-such-order" });
    let (status, _) = call(&app, &support, Method::PUT, &link_path, Some(&unknown)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, queue) = call(&app, &support, Method::GET, "/api/admin/queue", None).await;
    assert_eq!(queue["counts"]["messages"], 1, "{queue}");
    let listed = queue["orders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == moving.as_str())
        .expect("the order written about");
    assert_eq!(listed["reason"], "message");
    assert_eq!(listed["open_message"], true);

    let answered_path = format!("/api/admin/contact-messages/{message_id}/answered");
    let (status, answered) = call(
        &app,
        &support,
        Method::POST,
        &answered_path,
        Some(&json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answered}");
    assert!(answered["answered_at"].is_i64());
    assert!(
        answered["answered_by"]
            .as_str()
            .unwrap()
            .starts_with("user:")
    );
    let (_, queue) = call(&app, &support, Method::GET, "/api/admin/queue", None).await;
    assert_eq!(queue["counts"]["messages"], 0);
    let (_, open) = call(&app, &support, Method::GET, path, None).await;
    assert_eq!(open, json!([]));
}

pub(crate) async fn detail_of(app: &TestApp, bearer: &str, id: &str) -> Value {
    let (status, detail) = call(
        app,
        bearer,
        Method::GET,
        &format!("/api/admin/orders/{id}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{detail}");
    detail
}

async fn operators_correct_a_refund_address_retry_a_stuck_order_and_cancel_one_waiting(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let ops = operator(&app, "ops@example.com", "operator").await;
    let support = operator(&app, "desk@example.com", "support").await;

    // Waiting for its deposit: its refund address can be set, and it can be cancelled.
    let waiting = fixed_order(&app, None).await;
    let seen = detail_of(&app, &ops, &waiting).await;
    assert_eq!(seen["actions"], json!(["note", "refund_address", "cancel"]));
    assert_eq!(
        detail_of(&app, &support, &waiting).await["actions"],
        json!(["note"])
    );
    let address_path = format!("/api/admin/orders/{waiting}/refund-address");
    let wrong = json!({ "reason": "Customer called", "address": ETH_ADDRESS });
    let (status, _) = call(&app, &ops, Method::PUT, &address_path, Some(&wrong)).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "an ETH address for a BTC refund"
    );
    let right = json!({ "reason": "Customer called", "address": BTC_ADDRESS });
    let (status, set) = call(&app, &ops, Method::PUT, &address_path, Some(&right)).await;
    assert_eq!(status, StatusCode::OK, "{set}");
    assert_eq!(set["order"]["refund_address"], BTC_ADDRESS);
    let (status, _) = call(&app, &support, Method::PUT, &address_path, Some(&right)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    let cancel_path = format!("/api/admin/orders/{waiting}/cancel");
    let why = json!({ "reason": "Customer asked to cancel" });
    let (status, cancelled) = act(&app, &ops, &cancel_path, &why, "c-1").await;
    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["order"]["status"], "EXPIRED");
    let (status, _) = act(&app, &ops, &cancel_path, &why, "c-2").await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "only a waiting order is cancelled"
    );
    let detail = detail_of(&app, &ops, &waiting).await;
    let timeline = detail["timeline"].as_array().unwrap();
    assert!(
        timeline
            .iter()
            .any(|item| item["status"] == "EXPIRED" && item["detail"] == "cancelled by an operator"),
        "{detail}"
    );
    let acts: Vec<&str> = timeline
        .iter()
        .filter_map(|item| item["action"].as_str())
        .collect();
    assert_eq!(acts, ["order.refund_address", "order.cancel"]);

    // Stuck while exchanging: looked at again now, it moves on.
    let stuck = fixed_order(&app, None).await;
    set_order(&app, &stuck, "EXCHANGE", ferry::now_unix() - 8000).await;
    assert_eq!(
        detail_of(&app, &ops, &stuck).await["actions"],
        json!(["note", "refund_address", "retry"])
    );
    let retry_path = format!("/api/admin/orders/{stuck}/retry");
    let (status, retried) = act(
        &app,
        &ops,
        &retry_path,
        &json!({ "reason": "Stuck" }),
        "t-1",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{retried}");
    // Due now: another look at once is refused.
    let again = json!({ "reason": "Stuck" });
    let (status, _) = act(&app, &ops, &retry_path, &again, "t-1b").await;
    assert_eq!(status, StatusCode::CONFLICT);
    let mut status = Value::Null;
    for _ in 0..100 {
        status = detail_of(&app, &ops, &stuck).await["order"]["status"].clone();
        if status == "COMPLETED" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(status, "COMPLETED");
    let (status, _) = act(
        &app,
        &ops,
        &retry_path,
        &json!({ "reason": "Again" }),
        "t-2",
    )
    .await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "a completed order does not move"
    );
}

/// When this operator's console was last used, as the store has it.
async fn console_seen(app: &TestApp) -> i64 {
    let raw = raw_store(&app.db).await;
    sqlx::query("SELECT MAX(console_seen_at) AS seen FROM sessions")
        .fetch_one(raw.pool())
        .await
        .unwrap()
        .try_get("seen")
        .unwrap()
}

async fn a_page_refreshing_itself_does_not_keep_the_console_open(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let support = operator(&app, "desk@example.com", "support").await;
    let a_while_ago = ferry::now_unix() - 300;
    let raw = raw_store(&app.db).await;
    sqlx::query("UPDATE sessions SET console_seen_at = $1 WHERE console_seen_at IS NOT NULL")
        .bind(a_while_ago)
        .execute(raw.pool())
        .await
        .unwrap();
    let polled = app
        .client
        .get(app.url("/api/admin/queue"))
        .bearer_auth(&support)
        .header("X-Ferry-Background", "1")
        .send()
        .await
        .unwrap();
    assert_eq!(polled.status(), StatusCode::OK);
    assert_eq!(console_seen(&app).await, a_while_ago);
    let (status, _) = call(&app, &support, Method::GET, "/api/admin/queue", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(console_seen(&app).await > a_while_ago);
}

/// A customer who signed up with a password: their id and session token.
pub(crate) async fn customer(app: &TestApp, email: &str) -> (String, String) {
    let registered = json_of(
        app.post_json(
            "/api/register",
            &json!({
                "email": email, "username": email, "password": PASSWORD,
                "confirm_password": PASSWORD, "full_name": "Cus Tomer",
            }),
        )
        .await,
    )
    .await;
    let token = registered["token"].as_str().expect("registered").to_owned();
    let id = registered["user"]["id"]
        .as_str()
        .expect("a user")
        .to_owned();
    (id, token)
}

async fn password_sign_in(app: &TestApp, email: &str) -> (StatusCode, Value) {
    let body = json!({ "username": email, "password": PASSWORD });
    let response = app.post_json("/api/login", &body).await;
    (response.status(), json_of(response).await)
}

async fn an_operator_locks_an_account_and_no_sign_in_opens_it_until_unlocked(db: Db) {
    let Some(app) = app_on(db).await else {
        return;
    };
    let ops = operator(&app, "ops@example.com", "operator").await;
    let support = operator(&app, "desk@example.com", "support").await;
    let (id, token) = customer(&app, "stolen@example.com").await;

    let (_, found) = call(
        &app,
        &support,
        Method::GET,
        "/api/admin/users?q=STOLEN@",
        None,
    )
    .await;
    assert_eq!(found["users"].as_array().unwrap().len(), 1, "{found}");
    assert_eq!(found["users"][0]["id"], id.as_str());
    let (_, none) = call(
        &app,
        &support,
        Method::GET,
        "/api/admin/users?q=st%25",
        None,
    )
    .await;
    assert_eq!(none["users"], json!([]), "a % is no wildcard");
    let (_, page) = call(
        &app,
        &support,
        Method::GET,
        "/api/admin/users?limit=1",
        None,
    )
    .await;
    assert_eq!(page["users"].as_array().unwrap().len(), 1);
    assert!(page["next"].is_string(), "{page}");
    let user_path = format!("/api/admin/users/{id}");
    let (_, detail) = call(&app, &support, Method::GET, &user_path, None).await;
    assert_eq!(detail["sessions"].as_array().unwrap().len(), 1, "{detail}");
    assert_eq!(detail["user"]["locked_at"], Value::Null);

    let why = json!({ "reason": "Customer reports a stolen password" });
    let lock_path = format!("{user_path}/lock");
    let (status, _) = call(&app, &support, Method::POST, &lock_path, Some(&why)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, locked) = call(&app, &ops, Method::POST, &lock_path, Some(&why)).await;
    assert_eq!(status, StatusCode::OK, "{locked}");
    assert!(locked["user"]["locked_at"].is_i64());
    // Its session ended, and the password opens none.
    let (status, _) = call(&app, &token, Method::GET, "/api/user", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, refused) = password_sign_in(&app, "stolen@example.com").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        refused["message"],
        "This account is locked. Write to support to have it unlocked."
    );

    // Nobody locks themselves, and only an owner locks an owner.
    let (_, me) = call(&app, &ops, Method::GET, "/api/user", None).await;
    let own = format!(
        "/api/admin/users/{}/lock",
        me["user"]["id"].as_str().unwrap()
    );
    let (status, _) = call(&app, &ops, Method::POST, &own, Some(&why)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let boss = operator(&app, "boss@example.com", "owner").await;
    let (_, boss_user) = call(&app, &boss, Method::GET, "/api/user", None).await;
    let boss_lock = format!(
        "/api/admin/users/{}/lock",
        boss_user["user"]["id"].as_str().unwrap()
    );
    let (status, _) = call(&app, &ops, Method::POST, &boss_lock, Some(&why)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // The only owner stays: nobody would be left to unlock anyone.
    let (status, refused) = call(&app, TOKEN, Method::POST, &boss_lock, Some(&why)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    // An operator acts on support accounts, not on another operator.
    let (_, desk) = call(&app, &support, Method::GET, "/api/user", None).await;
    let desk_id = desk["user"]["id"].as_str().unwrap().to_owned();
    let (status, _) = call(
        &app,
        &ops,
        Method::POST,
        &format!("/api/admin/users/{desk_id}/sign-out"),
        Some(&why),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let other_ops = operator(&app, "ops2@example.com", "operator").await;
    let (_, other) = call(&app, &other_ops, Method::GET, "/api/user", None).await;
    let other_lock = format!(
        "/api/admin/users/{}/lock",
        other["user"]["id"].as_str().unwrap()
    );
    let (status, _) = call(&app, &ops, Method::POST, &other_lock, Some(&why)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    let unlock_path = format!("{user_path}/unlock");
    let (status, _) = call(&app, &ops, Method::POST, &unlock_path, Some(&why)).await;
    assert_eq!(status, StatusCode::OK);
    let (status, signed_in) = password_sign_in(&app, "stolen@example.com").await;
    assert_eq!(status, StatusCode::OK, "{signed_in}");
    let (status, out) = call(
        &app,
        &ops,
        Method::POST,
        &format!("{user_path}/sign-out"),
        Some(&why),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(out["sessions_ended"], 1);
    let fresh = signed_in["token"].as_str().unwrap();
    let (status, _) = call(&app, fresh, Method::GET, "/api/user", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let (_, log) = call(
        &app,
        TOKEN,
        Method::GET,
        &format!("/api/admin/audit?subject_kind=user&subject_id={id}"),
        None,
    )
    .await;
    let acts: Vec<&str> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(acts, ["user.sign_out", "user.unlock", "user.lock"]);
    assert_eq!(log["entries"][2]["before"], json!({ "locked_at": null }));
}
