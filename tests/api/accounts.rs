//! Accounts (spec/accounts-and-pages.md §2.8–2.13, §4.1, §5, §7, §8) on SQLite and PostgreSQL.

use reqwest::StatusCode;
use serde_json::{Value, json};
use totp_rs::{Algorithm, TOTP};

use crate::helpers::{Db, TestApp, json_of, spawn_app_with};
use crate::on_both_backends;
use crate::smtp_sink::SmtpSink;

const PASSWORD: &str = "Correct1horse";

on_both_backends!(
    sign_up_verifies_the_email_by_the_mailed_link_once,
    a_referral_code_at_sign_up_sets_referred_by,
    sign_in_is_paused_after_five_wrong_passwords,
    two_factor_sign_in_needs_the_challenge_and_a_fresh_code,
    two_factor_is_turned_off_with_the_password_and_a_code,
    a_password_reset_link_works_once_expires_and_ends_every_session,
    forgot_password_answers_the_same_for_unknown_addresses,
    orders_created_while_signed_in_are_listed_for_their_owner_only,
    sessions_are_listed_and_revoked_and_logout_ends_the_session,
    cookie_sessions_refuse_cross_site_writes,
    bad_input_gets_a_clear_error_and_stores_nothing,
    mail_waits_through_an_smtp_outage_and_goes_out_when_it_returns,
    a_mail_the_server_refuses_for_good_is_not_retried_and_leaves_the_status_operational,
    a_mail_the_server_defers_is_retried,
    profile_changes_and_account_deletion,
    mails_are_written_in_the_users_language,
    one_mailbox_has_one_account_whatever_its_spelling,
    accounts_stored_before_the_address_rules_still_sign_in,
);

struct Session {
    token: String,
    user: Value,
}

impl TestApp {
    async fn register(&self, email: &str, extra: Value) -> Session {
        let mut body = json!({
            "email": email,
            "username": email,
            "password": PASSWORD,
            "confirm_password": PASSWORD,
            "full_name": "Ada Lovelace",
        });
        if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
            body.extend(extra.clone());
        }
        let response = self.post_json("/api/register", &body).await;
        assert_eq!(response.status(), StatusCode::CREATED);
        let body = json_of(response).await;
        Session {
            token: body["token"].as_str().expect("token").to_owned(),
            user: body["user"].clone(),
        }
    }

    async fn authed(
        &self,
        method: reqwest::Method,
        path: &str,
        token: &str,
    ) -> reqwest::RequestBuilder {
        self.client
            .request(method, self.url(path))
            .bearer_auth(token)
    }

    async fn user_status(&self, token: &str) -> StatusCode {
        self.authed(reqwest::Method::GET, "/api/user", token)
            .await
            .send()
            .await
            .expect("request")
            .status()
    }

    /// The link in the latest mail to `email` containing `path`, as the token it carries.
    async fn mailed_token(&self, email: &str, path: &str) -> String {
        let mails = self.store.mail_to(email).await.expect("outbox");
        let body = mails
            .iter()
            .rev()
            .find(|m| m.body.contains(path))
            .unwrap_or_else(|| panic!("no mail with {path} to {email}: {mails:?}"))
            .body
            .clone();
        let start = body.find(path).expect("link") + path.len();
        let rest = &body[start..];
        let token = rest.strip_prefix("?token=").expect("token parameter");
        token.split_whitespace().next().expect("token").to_owned()
    }
}

async fn sign_up_verifies_the_email_by_the_mailed_link_once(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let session = app.register("Ada@Example.com", json!({})).await;
    assert_eq!(session.user["email"], "ada@example.com");
    assert_eq!(session.user["username"], "ada@example.com");
    assert_eq!(session.user["email_verified"], false);
    assert!(
        session.user["referral_code"]
            .as_str()
            .is_some_and(|c| c.len() == 8)
    );

    let mails = app.store.mail_to("ada@example.com").await.unwrap();
    assert_eq!(mails.len(), 1);
    assert!(
        mails[0]
            .body
            .contains("http://127.0.0.1:8080/verify-email?token=")
    );
    let token = app.mailed_token("ada@example.com", "/verify-email").await;

    let response = app
        .post_json("/api/email/verification/verify", &json!({ "token": token }))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(json_of(response).await["email"], "ada@example.com");
    let user = json_of(
        app.authed(reqwest::Method::GET, "/api/user", &session.token)
            .await
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(user["user"]["email_verified"], true);

    let again = app
        .post_json("/api/email/verification/verify", &json!({ "token": token }))
        .await;
    assert_eq!(again.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        json_of(again).await["error"],
        "This verification link is invalid or was already used."
    );
    // Verified: asking for another mail is refused.
    let resend = app
        .authed(
            reqwest::Method::POST,
            "/api/email/verification/send",
            &session.token,
        )
        .await
        .send()
        .await
        .unwrap();
    assert_eq!(resend.status(), StatusCode::CONFLICT);

    let taken = app
        .post_json(
            "/api/register",
            &json!({ "email": "ada@example.com", "password": PASSWORD, "confirm_password": PASSWORD }),
        )
        .await;
    assert_eq!(taken.status(), StatusCode::CONFLICT);
    assert_eq!(
        json_of(taken).await["message"],
        "An account with this email already exists"
    );
}

async fn a_referral_code_at_sign_up_sets_referred_by(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let referrer = app.register("ref@example.com", json!({})).await;
    let code = referrer.user["referral_code"].as_str().unwrap().to_owned();
    let referred = app
        .register("new@example.com", json!({ "referral_code": code }))
        .await;
    assert_eq!(referred.user["referred_by"], code);
    let unknown = app
        .register(
            "other@example.com",
            json!({ "referral_code": "nobody-here" }),
        )
        .await;
    assert_eq!(unknown.user["referred_by"], Value::Null);
}

async fn sign_in_is_paused_after_five_wrong_passwords(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    app.register("bob@example.com", json!({})).await;
    for _ in 0..5 {
        let response = app
            .post_json(
                "/api/login",
                &json!({ "username": "bob@example.com", "password": "Wrong1pass" }),
            )
            .await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(
            json_of(response).await["message"],
            "Invalid email or password"
        );
    }
    let paused = app
        .post_json(
            "/api/login",
            &json!({ "username": "bob@example.com", "password": PASSWORD }),
        )
        .await;
    assert_eq!(paused.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after: i64 = paused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((899..=900).contains(&retry_after), "{retry_after}");
    assert_eq!(
        json_of(paused).await["message"],
        "Too many attempts. Try again in 15 minute(s)."
    );
    // An unknown address answers like a wrong password.
    let unknown = app
        .post_json(
            "/api/login",
            &json!({ "username": "nobody@example.com", "password": PASSWORD }),
        )
        .await;
    assert_eq!(unknown.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        json_of(unknown).await["message"],
        "Invalid email or password"
    );
}

async fn eve_login(app: &TestApp) -> Value {
    json_of(
        app.post_json(
            "/api/login",
            &json!({ "username": "eve@example.com", "password": PASSWORD }),
        )
        .await,
    )
    .await
}

fn totp_of(secret: &str) -> TOTP {
    let bytes = data_encoding::BASE32_NOPAD
        .decode(secret.as_bytes())
        .expect("base32");
    TOTP::new_unchecked(Algorithm::SHA1, 6, 1, 30, bytes, None, String::new())
}

/// Now, moved off the last seconds of a 30-second step so that the test and the server agree
/// on the current step.
async fn now_inside_a_step() -> u64 {
    loop {
        let now = ferry::now_unix() as u64;
        if now % 30 < 26 {
            return now;
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    }
}

async fn two_factor_sign_in_needs_the_challenge_and_a_fresh_code(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let session = app.register("eve@example.com", json!({})).await;
    let setup = json_of(
        app.authed(
            reqwest::Method::POST,
            "/api/account/2fa/setup",
            &session.token,
        )
        .await
        .send()
        .await
        .unwrap(),
    )
    .await;
    let secret = setup["secret"].as_str().unwrap();
    let uri = setup["otpauth_uri"].as_str().unwrap();
    assert!(uri.starts_with("otpauth://totp/"), "{uri}");
    assert!(uri.contains(&format!("secret={secret}")), "{uri}");
    let totp = totp_of(secret);
    let now = now_inside_a_step().await;

    let wrong = app
        .authed(
            reqwest::Method::POST,
            "/api/account/2fa/enable",
            &session.token,
        )
        .await
        .json(&json!({ "code": "000000" }))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::BAD_REQUEST);
    let enabled = json_of(
        app.authed(
            reqwest::Method::POST,
            "/api/account/2fa/enable",
            &session.token,
        )
        .await
        .json(&json!({ "code": totp.generate(now - 30) }))
        .send()
        .await
        .unwrap(),
    )
    .await;
    let recovery: Vec<String> = serde_json::from_value(enabled["recovery_codes"].clone()).unwrap();
    assert_eq!(recovery.len(), 10);

    let first = eve_login(&app).await;
    assert_eq!(first["requires_2fa"], true);
    assert_eq!(first["user_id"], session.user["id"]);
    assert!(first.get("token").is_none());
    let challenge = first["challenge"].as_str().unwrap().to_owned();

    // Without the challenge of the password step, a right code is useless.
    let code = totp.generate(now);
    let no_challenge = app
        .post_json(
            "/api/two-factor/login",
            &json!({ "username": "eve@example.com", "code": code }),
        )
        .await;
    assert_eq!(no_challenge.status(), StatusCode::UNAUTHORIZED);

    let ok = app
        .post_json(
            "/api/two-factor/login",
            &json!({ "username": "eve@example.com", "code": code, "challenge": challenge }),
        )
        .await;
    assert_eq!(ok.status(), StatusCode::OK);
    let ok = json_of(ok).await;
    assert!(ok["token"].as_str().is_some());
    assert_eq!(ok["user"]["two_factor_enabled"], true);

    // The same code does not work twice, nor does a used challenge.
    let second = eve_login(&app).await;
    let challenge2 = second["challenge"].as_str().unwrap().to_owned();
    let replay = app
        .post_json(
            "/api/two-factor/login",
            &json!({ "username": "eve@example.com", "code": code, "challenge": challenge2 }),
        )
        .await;
    assert_eq!(replay.status(), StatusCode::BAD_REQUEST);
    assert_eq!(json_of(replay).await["message"], "Invalid two-factor code");
    let used_challenge = app
        .post_json(
            "/api/two-factor/login",
            &json!({ "username": "eve@example.com", "code": recovery[0], "challenge": challenge }),
        )
        .await;
    assert_eq!(used_challenge.status(), StatusCode::UNAUTHORIZED);

    // A recovery code works once, typed in capitals.
    let by_recovery = app
        .post_json(
            "/api/two-factor/login",
            &json!({ "username": "eve@example.com", "code": recovery[0].to_uppercase(), "challenge": challenge2 }),
        )
        .await;
    assert_eq!(by_recovery.status(), StatusCode::OK);
    let third = eve_login(&app).await;
    let reused = app
        .post_json(
            "/api/two-factor/login",
            &json!({ "username": "eve@example.com", "code": recovery[0], "challenge": third["challenge"] }),
        )
        .await;
    assert_eq!(reused.status(), StatusCode::BAD_REQUEST);

    // Five wrong codes pause the code step.
    for _ in 0..4 {
        app.post_json(
            "/api/two-factor/login",
            &json!({ "username": "eve@example.com", "code": "123456", "challenge": third["challenge"] }),
        )
        .await;
    }
    let paused = app
        .post_json(
            "/api/two-factor/login",
            &json!({ "username": "eve@example.com", "code": recovery[1], "challenge": third["challenge"] }),
        )
        .await;
    assert_eq!(paused.status(), StatusCode::TOO_MANY_REQUESTS);
}

async fn a_password_reset_link_works_once_expires_and_ends_every_session(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let session = app.register("carol@example.com", json!({})).await;
    let forgot = app
        .post_json(
            "/api/email/password/forgot",
            &json!({ "email": "carol@example.com" }),
        )
        .await;
    assert_eq!(forgot.status(), StatusCode::OK);
    assert_eq!(
        json_of(forgot).await["message"],
        "If your email is registered, you will receive a reset link shortly."
    );
    let token = app
        .mailed_token("carol@example.com", "/reset-password")
        .await;

    let weak = app
        .post_json(
            "/api/email/password/reset",
            &json!({ "token": token, "password": "short", "confirm_password": "short" }),
        )
        .await;
    assert_eq!(weak.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        json_of(weak).await["error"],
        "Password must be at least 8 characters"
    );

    let new_password = "Brand2newpass";
    let reset = app
        .post_json(
            "/api/email/password/reset",
            &json!({ "token": token, "password": new_password, "confirm_password": new_password }),
        )
        .await;
    assert_eq!(reset.status(), StatusCode::OK);
    assert_eq!(
        json_of(reset).await["message"],
        "Your password has been reset successfully."
    );
    assert_eq!(
        app.user_status(&session.token).await,
        StatusCode::UNAUTHORIZED
    );

    let reused = app
        .post_json(
            "/api/email/password/reset",
            &json!({ "token": token, "password": new_password, "confirm_password": new_password }),
        )
        .await;
    assert_eq!(reused.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        json_of(reused).await["error"],
        "Invalid or already used reset link"
    );

    let old = app
        .post_json(
            "/api/login",
            &json!({ "username": "carol@example.com", "password": PASSWORD }),
        )
        .await;
    assert_eq!(old.status(), StatusCode::UNAUTHORIZED);
    let new = app
        .post_json(
            "/api/login",
            &json!({ "username": "carol@example.com", "password": new_password }),
        )
        .await;
    assert_eq!(new.status(), StatusCode::OK);

    // An expired link says so with the value the reset page recognises (spec §8).
    let user_id = session.user["id"].as_str().unwrap();
    let now = ferry::now_unix();
    app.store
        .insert_token(&ferry::store::UserToken {
            token_hash: ferry::domain::account::token_hash("an-expired-token"),
            user_id: user_id.to_owned(),
            purpose: "reset".into(),
            detail: None,
            expires_at: now - 1,
            used_at: None,
            created_at: now - 3601,
        })
        .await
        .unwrap();
    let expired = app
        .post_json(
            "/api/email/password/reset",
            &json!({ "token": "an-expired-token", "password": new_password, "confirm_password": new_password }),
        )
        .await;
    assert_eq!(expired.status(), StatusCode::BAD_REQUEST);
    assert_eq!(json_of(expired).await["error"], "Reset token expired");
    let check = app
        .post_json(
            "/api/email/password/check",
            &json!({ "token": "an-expired-token" }),
        )
        .await;
    assert_eq!(json_of(check).await["error"], "Reset token expired");
    let check = app
        .post_json("/api/email/password/check", &json!({ "token": token }))
        .await;
    assert_eq!(
        json_of(check).await["error"],
        "Invalid or already used reset link"
    );
}

async fn forgot_password_answers_the_same_for_unknown_addresses(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let response = app
        .post_json(
            "/api/email/password/forgot",
            &json!({ "email": "ghost@example.com" }),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        json_of(response).await["message"],
        "If your email is registered, you will receive a reset link shortly."
    );
    assert!(
        app.store
            .mail_to("ghost@example.com")
            .await
            .unwrap()
            .is_empty()
    );
    let invalid = app
        .post_json(
            "/api/email/password/forgot",
            &json!({ "email": "not-an-email" }),
        )
        .await;
    assert_eq!(invalid.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        json_of(invalid).await["message"],
        "Please enter a valid email address"
    );
}

const BTC_ADDRESS: &str = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

async fn orders_created_while_signed_in_are_listed_for_their_owner_only(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let owner = app.register("owner@example.com", json!({})).await;
    let other = app.register("other@example.com", json!({})).await;
    let body = json!({
        "fromCcy": "ETH", "toCcy": "BTC", "amount": "1", "direction": "from", "type": "float",
        "toAddress": BTC_ADDRESS,
    });
    let created = json_of(
        app.authed(reqwest::Method::POST, "/api/create-order", &owner.token)
            .await
            .json(&body)
            .send()
            .await
            .unwrap(),
    )
    .await;
    let id = created["data"]["id"].as_str().expect("order id").to_owned();
    app.post_json("/api/create-order", &body).await; // anonymous: nobody's

    let listed = json_of(
        app.authed(reqwest::Method::GET, "/api/orders", &owner.token)
            .await
            .send()
            .await
            .unwrap(),
    )
    .await;
    let listed = listed.as_array().expect("a list");
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["id"], id);
    assert_eq!(listed[0]["from_currency"], "ETH");
    assert_eq!(listed[0]["to_currency"], "BTC");
    assert_eq!(listed[0]["status"], "NEW");
    assert!(listed[0]["created_at"].is_i64());
    assert!(listed[0]["from_amount"].is_string());

    let others = json_of(
        app.authed(reqwest::Method::GET, "/api/orders", &other.token)
            .await
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(others.as_array().unwrap().len(), 0);
    assert_eq!(
        app.get("/api/orders").await.status(),
        StatusCode::UNAUTHORIZED
    );

    // The owner opens the order without its token; a stranger does not.
    let path = format!("/api/order-details/{id}");
    let mine = app
        .authed(reqwest::Method::GET, &path, &owner.token)
        .await
        .send()
        .await
        .unwrap();
    assert_eq!(mine.status(), StatusCode::OK);
    let theirs = app
        .authed(reqwest::Method::GET, &path, &other.token)
        .await
        .send()
        .await
        .unwrap();
    assert_eq!(theirs.status(), StatusCode::NOT_FOUND);

    // The deposit is worth a mail to the owner; an owner who turned them off gets none.
    app.orders
        .deposit(&id, None, ferry::now_unix(), None)
        .await
        .unwrap();
    let mails = app.store.mail_to("owner@example.com").await.unwrap();
    let status_mail = mails
        .iter()
        .find(|m| m.subject == format!("Order {id}: confirming: your deposit has arrived"))
        .expect("an order-status mail");
    assert!(status_mail.body.contains(&format!("/order-details/{id}")));
    app.authed(reqwest::Method::PATCH, "/api/account", &other.token)
        .await
        .json(&json!({ "order_emails": false }))
        .send()
        .await
        .unwrap();
    let theirs = json_of(
        app.authed(reqwest::Method::POST, "/api/create-order", &other.token)
            .await
            .json(&body)
            .send()
            .await
            .unwrap(),
    )
    .await;
    let their_id = theirs["data"]["id"].as_str().unwrap().to_owned();
    app.orders
        .deposit(&their_id, None, ferry::now_unix(), None)
        .await
        .unwrap();
    let mails = app.store.mail_to("other@example.com").await.unwrap();
    assert!(
        mails.iter().all(|m| !m.subject.starts_with("Order ")),
        "{mails:?}"
    );
}

async fn sessions_are_listed_and_revoked_and_logout_ends_the_session(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let first = app.register("dan@example.com", json!({})).await;
    let second = json_of(
        app.post_json(
            "/api/login",
            &json!({ "username": "dan@example.com", "password": PASSWORD, "remember": true }),
        )
        .await,
    )
    .await;
    let second_token = second["token"].as_str().unwrap().to_owned();
    let listed = json_of(
        app.authed(reqwest::Method::GET, "/api/account/sessions", &first.token)
            .await
            .send()
            .await
            .unwrap(),
    )
    .await;
    let sessions = listed["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2);
    let remembered = sessions.iter().find(|s| s["current"] == false).unwrap();
    let lifetime =
        remembered["expires_at"].as_i64().unwrap() - remembered["created_at"].as_i64().unwrap();
    assert_eq!(lifetime, 30 * 24 * 3600);
    let path = format!(
        "/api/account/sessions/{}",
        remembered["id"].as_str().unwrap()
    );
    let revoked = app
        .authed(reqwest::Method::DELETE, &path, &first.token)
        .await
        .send()
        .await
        .unwrap();
    assert_eq!(revoked.status(), StatusCode::OK);
    assert_eq!(
        app.user_status(&second_token).await,
        StatusCode::UNAUTHORIZED
    );
    let unknown = app
        .authed(reqwest::Method::DELETE, &path, &first.token)
        .await
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);

    let logout = app
        .authed(reqwest::Method::POST, "/api/logout", &first.token)
        .await
        .send()
        .await
        .unwrap();
    assert_eq!(logout.status(), StatusCode::OK);
    assert_eq!(json_of(logout).await["message"], "Logged out");
    assert_eq!(
        app.user_status(&first.token).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.user_status("not-a-token").await,
        StatusCode::UNAUTHORIZED
    );
}

async fn cookie_sessions_refuse_cross_site_writes(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let response = app
        .post_json(
            "/api/register",
            &json!({ "email": "fay@example.com", "password": PASSWORD, "confirm_password": PASSWORD }),
        )
        .await;
    let set_cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(set_cookie.starts_with("ferry_session="), "{set_cookie}");
    assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Lax"));
    let cookie = set_cookie.split(';').next().unwrap().to_owned();

    let read = app
        .client
        .get(app.url("/api/user"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(read.status(), StatusCode::OK);
    let forged = app
        .client
        .post(app.url("/api/logout"))
        .header("cookie", &cookie)
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let same_site = app
        .client
        .post(app.url("/api/logout"))
        .header("cookie", &cookie)
        .header("origin", format!("http://{}", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(same_site.status(), StatusCode::OK);
}

async fn bad_input_gets_a_clear_error_and_stores_nothing(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let cases = [
        (
            json!({ "email": "x'; DROP TABLE users; --", "password": PASSWORD, "confirm_password": PASSWORD }),
            "Please enter a valid email",
        ),
        (
            json!({ "email": "a@example.com", "password": "Abcdefg1", "confirm_password": "Abcdefg2" }),
            "Passwords do not match",
        ),
        (
            json!({ "email": "a@example.com", "password": "abcdefgh", "confirm_password": "abcdefgh" }),
            "Password must contain an uppercase letter, a lowercase letter and a number",
        ),
        (
            json!({ "email": "a@example.com", "password": PASSWORD, "confirm_password": PASSWORD, "full_name": "  " }),
            "Full name is required",
        ),
        (
            json!({ "email": "a".repeat(2000), "password": PASSWORD, "confirm_password": PASSWORD }),
            "Email is too long",
        ),
        (
            json!({ "email": 42, "password": PASSWORD, "confirm_password": PASSWORD }),
            "",
        ),
    ];
    for (body, message) in cases {
        let response = app.post_json("/api/register", &body).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        let answer = json_of(response).await;
        if !message.is_empty() {
            assert_eq!(answer["message"], message, "{body}");
        }
    }
    assert!(
        app.store
            .find_user_by_email("a@example.com")
            .await
            .unwrap()
            .is_none()
    );

    // Markup in a name is kept as text; the API answers JSON, never HTML.
    let session = app
        .register(
            "html@example.com",
            json!({ "full_name": "<img src=x onerror=alert(1)>" }),
        )
        .await;
    assert_eq!(session.user["full_name"], "<img src=x onerror=alert(1)>");
    let not_json = app
        .client
        .post(app.url("/api/login"))
        .body("username=a&password=b")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let unknown_token = app
        .post_json(
            "/api/email/verification/verify",
            &json!({ "token": "nope" }),
        )
        .await;
    assert_eq!(unknown_token.status(), StatusCode::BAD_REQUEST);
}

async fn mail_waits_through_an_smtp_outage_and_goes_out_when_it_returns(db: Db) {
    // A port nobody listens on yet: the SMTP server is "down".
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let Some(app) = spawn_app_with(db, |config| {
        config.smtp_url = Some(format!("smtp://127.0.0.1:{port}").into());
        config.mail_retry_seconds = 1;
        config.worker_interval_ms = 100;
    })
    .await
    else {
        return;
    };
    app.register("gil@example.com", json!({})).await;
    let failed = wait_for(|| async {
        let mails = app.store.mail_to("gil@example.com").await.unwrap();
        mails
            .first()
            .filter(|m| m.attempts >= 1 && m.sent_at.is_none())
            .cloned()
    })
    .await;
    assert!(failed.last_error.is_some());

    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .unwrap();
    let sink = SmtpSink::serve(listener);
    let sent = wait_for(|| async {
        let mails = app.store.mail_to("gil@example.com").await.unwrap();
        mails.first().filter(|m| m.sent_at.is_some()).cloned()
    })
    .await;
    assert!(sent.attempts >= 2);
    let received = sink.all();
    assert_eq!(received.len(), 1);
    assert!(
        received[0].contains("Subject: Verify your email for Ferry"),
        "{}",
        received[0]
    );
    assert!(received[0].contains("gil@example.com"));
}

/// The app with its mail going to an SMTP server that answers every recipient with `reply`.
async fn app_whose_smtp_server_answers(db: Db, reply: &'static str) -> Option<TestApp> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    SmtpSink::serve_answering_recipients(listener, reply);
    spawn_app_with(db, |config| {
        config.smtp_url = Some(format!("smtp://127.0.0.1:{port}").into());
        config.mail_retry_seconds = 1;
        config.worker_interval_ms = 100;
        config.status_check_seconds = 1;
    })
    .await
}

async fn a_mail_the_server_refuses_for_good_is_not_retried_and_leaves_the_status_operational(
    db: Db,
) {
    let Some(app) = app_whose_smtp_server_answers(db, "550 5.1.1 No such user").await else {
        return;
    };
    // Queued two hours ago: were it still waiting, the status page would call mail an outage.
    let two_hours_ago = ferry::now_unix() - 2 * 3600;
    app.store
        .enqueue_mail(&ferry::store::MailRecord {
            id: "old-mail".into(),
            recipient: "gone@example.com".into(),
            subject: "s".into(),
            body: "b".into(),
            created_at: two_hours_ago,
            attempts: 0,
            next_attempt_at: two_hours_ago,
            sent_at: None,
            last_error: None,
            failed_at: None,
            reply_to_name: None,
            reply_to_email: None,
        })
        .await
        .unwrap();
    let refused = wait_for(|| async {
        let mails = app.store.mail_to("gone@example.com").await.unwrap();
        mails.first().filter(|m| m.failed_at.is_some()).cloned()
    })
    .await;
    assert_eq!(refused.attempts, 1);
    assert!(
        refused.last_error.as_deref().unwrap_or("").contains("550"),
        "{refused:?}"
    );
    // Well past the one-second backoff, and a status check later: no second attempt.
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let mails = app.store.mail_to("gone@example.com").await.unwrap();
    assert_eq!(mails[0].attempts, 1);
    let report = json_of(app.get("/api/status").await).await;
    let mail_status = report["services"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == "mail")
        .unwrap()["status"]
        .clone();
    assert_eq!(mail_status, "operational", "{report}");
}

async fn a_mail_the_server_defers_is_retried(db: Db) {
    let Some(app) = app_whose_smtp_server_answers(db, "451 4.3.0 Try again later").await else {
        return;
    };
    app.register("later@example.com", json!({})).await;
    let retried = wait_for(|| async {
        let mails = app.store.mail_to("later@example.com").await.unwrap();
        mails.first().filter(|m| m.attempts >= 2).cloned()
    })
    .await;
    assert_eq!((retried.failed_at, retried.sent_at), (None, None));
}

async fn wait_for<T, F, Fut>(mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    for _ in 0..300 {
        if let Some(value) = probe().await {
            return value;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("condition not met within 15 s");
}

async fn profile_changes_and_account_deletion(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let session = app.register("hal@example.com", json!({})).await;
    let updated = json_of(
        app.authed(reqwest::Method::PATCH, "/api/account", &session.token)
            .await
            .json(&json!({ "full_name": "Hal", "order_emails": false }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(updated["user"]["full_name"], "Hal");
    assert_eq!(updated["user"]["order_emails"], false);

    let other = json_of(
        app.post_json(
            "/api/login",
            &json!({ "username": "hal@example.com", "password": PASSWORD }),
        )
        .await,
    )
    .await;
    let wrong = app
        .authed(reqwest::Method::POST, "/api/account/password", &session.token)
        .await
        .json(&json!({ "current_password": "Nope1nope", "password": "Newer1pass", "confirm_password": "Newer1pass" }))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        json_of(wrong).await["message"],
        "The current password is not correct"
    );
    let changed = app
        .authed(reqwest::Method::POST, "/api/account/password", &session.token)
        .await
        .json(&json!({ "current_password": PASSWORD, "password": "Newer1pass", "confirm_password": "Newer1pass" }))
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), StatusCode::OK);
    // This session stays; the other one ends.
    assert_eq!(app.user_status(&session.token).await, StatusCode::OK);
    assert_eq!(
        app.user_status(other["token"].as_str().unwrap()).await,
        StatusCode::UNAUTHORIZED
    );

    let refused = app
        .authed(reqwest::Method::POST, "/api/account/delete", &session.token)
        .await
        .json(&json!({ "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    let deleted = app
        .authed(reqwest::Method::POST, "/api/account/delete", &session.token)
        .await
        .json(&json!({ "password": "Newer1pass" }))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::OK);
    assert_eq!(
        app.user_status(&session.token).await,
        StatusCode::UNAUTHORIZED
    );
    assert!(
        app.store
            .find_user_by_email("hal@example.com")
            .await
            .unwrap()
            .is_none()
    );
}

async fn two_factor_is_turned_off_with_the_password_and_a_code(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let session = app.register("ivy@example.com", json!({})).await;
    let post = |path: &'static str, body: Value| {
        let request = app
            .client
            .post(app.url(path))
            .bearer_auth(&session.token)
            .json(&body);
        async move { request.send().await.unwrap() }
    };
    let setup = json_of(post("/api/account/2fa/setup", json!({})).await).await;
    let totp = totp_of(setup["secret"].as_str().unwrap());
    let now = now_inside_a_step().await;
    let enabled = json_of(
        post(
            "/api/account/2fa/enable",
            json!({ "code": totp.generate(now) }),
        )
        .await,
    )
    .await;
    let recovery: Vec<String> = serde_json::from_value(enabled["recovery_codes"].clone()).unwrap();
    let again = post("/api/account/2fa/setup", json!({})).await;
    assert_eq!(again.status(), StatusCode::CONFLICT);

    let wrong_password = post(
        "/api/account/2fa/disable",
        json!({ "password": "Nope1nope", "code": recovery[0] }),
    )
    .await;
    assert_eq!(wrong_password.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        json_of(wrong_password).await["message"],
        "The current password is not correct"
    );
    let wrong_code = post(
        "/api/account/2fa/disable",
        json!({ "password": PASSWORD, "code": "000000" }),
    )
    .await;
    assert_eq!(
        json_of(wrong_code).await["message"],
        "Invalid two-factor code"
    );
    let off = post(
        "/api/account/2fa/disable",
        json!({ "password": PASSWORD, "code": recovery[0] }),
    )
    .await;
    assert_eq!(off.status(), StatusCode::OK);

    let login = json_of(
        app.post_json(
            "/api/login",
            &json!({ "username": "ivy@example.com", "password": PASSWORD }),
        )
        .await,
    )
    .await;
    assert!(login["token"].is_string(), "{login}");
    assert!(login.get("requires_2fa").is_none());
    let user = json_of(
        app.authed(reqwest::Method::GET, "/api/user", &session.token)
            .await
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(user["user"]["two_factor_enabled"], false);
}

async fn mails_are_written_in_the_users_language(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let session = app
        .register("greta@example.com", json!({ "language": "de" }))
        .await;
    assert_eq!(session.user["language"], "de");
    let welcome = app.store.mail_to("greta@example.com").await.unwrap();
    let german = ferry::services::mail::templates::verify_email(
        ferry::domain::language::Language::De,
        "Ferry",
        "",
    );
    assert_eq!(welcome[0].subject, german.subject);
    assert_ne!(welcome[0].subject, "Verify your email for Ferry");

    let refused = app
        .authed(reqwest::Method::PATCH, "/api/account", &session.token)
        .await
        .json(&json!({ "language": "xx" }))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    let changed = json_of(
        app.authed(reqwest::Method::PATCH, "/api/account", &session.token)
            .await
            .json(&json!({ "language": "fr" }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(changed["user"]["language"], "fr");
    app.post_json(
        "/api/email/password/forgot",
        &json!({ "email": "greta@example.com" }),
    )
    .await;
    let mails = app.store.mail_to("greta@example.com").await.unwrap();
    let french = ferry::services::mail::templates::reset_password(
        ferry::domain::language::Language::Fr,
        "Ferry",
        "",
    );
    assert!(
        mails.iter().any(|m| m.subject == french.subject),
        "a French reset mail among {mails:?}"
    );

    // Unknown codes at sign-up mean English.
    let other = app
        .register("hugo@example.com", json!({ "language": "klingon" }))
        .await;
    assert_eq!(other.user["language"], "en");
}

/// Quoted local parts, address literals and look-alike letters do not make a second account
/// for one mailbox, nor aim mail at a private network; case does not matter anywhere.
async fn one_mailbox_has_one_account_whatever_its_spelling(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    let ada = app.register(" Ada@Example.COM ", json!({})).await;
    assert_eq!(ada.user["email"], "ada@example.com");
    for (email, error) in [
        ("\"ada\"@example.com", "Please enter a valid email"),
        ("\"x y\"@example.org", "Please enter a valid email"),
        ("poison@[10.1.2.3]", "Please enter a valid email"),
        ("poison@10.1.2.3", "Please enter a valid email"),
        ("ada@example.com.", "Please enter a valid email"),
        (
            "\u{FF41}da@example.com",
            "Email addresses with accented or non-Latin letters are not accepted",
        ),
        (
            "\u{0430}da@example.com",
            "Email addresses with accented or non-Latin letters are not accepted",
        ),
    ] {
        let response = app
            .post_json(
                "/api/register",
                &json!({ "email": email, "password": PASSWORD, "confirm_password": PASSWORD }),
            )
            .await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{email}");
        assert_eq!(json_of(response).await["message"], error, "{email}");
    }
    let twice = app
        .post_json(
            "/api/register",
            &json!({ "email": "ADA@example.com", "password": PASSWORD, "confirm_password": PASSWORD }),
        )
        .await;
    assert_eq!(twice.status(), StatusCode::CONFLICT);

    let signed_in = app
        .post_json(
            "/api/login",
            &json!({ "username": "  ADA@EXAMPLE.com", "password": PASSWORD }),
        )
        .await;
    assert_eq!(signed_in.status(), StatusCode::OK);

    // Forgot-password refuses the forms alike whether or not an account has the mailbox, and
    // mails the account under any case.
    for email in [
        "\"ada\"@example.com",
        "\"ghost\"@example.com",
        "poison@[10.1.2.3]",
    ] {
        let refused = app
            .post_json("/api/email/password/forgot", &json!({ "email": email }))
            .await;
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST, "{email}");
        assert_eq!(
            json_of(refused).await["message"],
            "Please enter a valid email address"
        );
    }
    let reset = app
        .post_json(
            "/api/email/password/forgot",
            &json!({ "email": "Ada@EXAMPLE.com" }),
        )
        .await;
    assert_eq!(reset.status(), StatusCode::OK);
    app.mailed_token("ada@example.com", "/reset-password").await;

    let contact = app
        .post_json(
            "/api/contact",
            &json!({ "name": "Eve", "email": "poison@[10.1.2.3]", "subject": "s", "message": "m" }),
        )
        .await;
    assert_eq!(contact.status(), StatusCode::BAD_REQUEST);
    assert!(
        app.store
            .mail_to("poison@[10.1.2.3]")
            .await
            .unwrap()
            .is_empty()
    );
}

/// An account whose address today's rules refuse (made before them) is found by its stored
/// text, so its owner still signs in; nothing is migrated.
async fn accounts_stored_before_the_address_rules_still_sign_in(db: Db) {
    let Some(app) = spawn_app_with(db, |_| {}).await else {
        return;
    };
    app.register("carl@example.com", json!({})).await;
    let mut legacy = app
        .store
        .find_user_by_email("carl@example.com")
        .await
        .unwrap()
        .expect("registered");
    legacy.id = "legacy-user".into();
    legacy.email = "\"carl\"@example.com".into();
    legacy.referral_code = "LEGACY01".into();
    app.store.insert_user(&legacy).await.unwrap();
    let signed_in = app
        .post_json(
            "/api/login",
            &json!({ "username": "\"Carl\"@Example.com", "password": PASSWORD }),
        )
        .await;
    assert_eq!(signed_in.status(), StatusCode::OK);
    assert_eq!(
        json_of(signed_in).await["user"]["id"],
        "legacy-user",
        "the stored account, not carl@example.com"
    );
}

#[tokio::test]
async fn with_idn_allowed_full_width_letters_reach_the_ascii_account() {
    let app = spawn_app_with(Db::Sqlite, |c| c.mail_allow_idn = true)
        .await
        .expect("SQLite");
    app.register("alice@example.com", json!({})).await;
    let look_alike = app
        .post_json(
            "/api/register",
            &json!({ "email": "\u{FF41}lice@\u{FF45}xample.com", "password": PASSWORD, "confirm_password": PASSWORD }),
        )
        .await;
    assert_eq!(look_alike.status(), StatusCode::CONFLICT);
    let german = app.register("J\u{F6}rg@M\u{DC}NCHEN.de", json!({})).await;
    assert_eq!(german.user["email"], "j\u{f6}rg@m\u{fc}nchen.de");
}
