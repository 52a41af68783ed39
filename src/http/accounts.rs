//! The account calls of spec/accounts-and-pages.md §7 (register, login, two-factor login,
//! logout, user, e-mail verification, password reset, orders) and what the profile page needs
//! beyond them (`/api/account/…`).

use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::AppState;
use super::auth::{
    AuthUser, CHALLENGE_COOKIE, CHALLENGE_PATH, Client, OAUTH_COOKIE, OAUTH_COOKIE_SECONDS,
    OAUTH_PATH, SESSION_COOKIE, clear_cookie, cookie, set_cookie,
};
use super::error::ApiError;
use super::extract::{ApiJson, ApiQuery, ClientAddress};
use crate::services::accounts::{CHALLENGE_SECONDS, IssuedSession, LoginOutcome, Registration};
use crate::services::oauth::{OAuthError, Provider, browser_hash};
use crate::store::{OrderRecord, SessionRecord, UserRecord};

/// Longest text any account field accepts before it is even looked at.
const FIELD_LIMIT: usize = 1024;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/register", post(register))
        .route("/api/login", post(login))
        .route("/api/two-factor/login", post(login_second_factor))
        .route("/api/logout", post(logout))
        .route("/api/user", get(get_current_user))
        .route(
            "/api/email/verification/send",
            post(send_verification_email),
        )
        .route("/api/email/verification/verify", post(verify_email))
        .route("/api/email/password/forgot", post(forgot_password))
        .route("/api/email/password/check", post(check_reset_link))
        .route("/api/email/password/reset", post(reset_password))
        .route("/api/orders", get(list_orders))
        .route("/api/auth/exchange", post(redeem_social_sign_in))
        .route("/api/auth/{provider}", get(begin_social_sign_in))
        .route("/api/auth/{provider}/callback", get(finish_social_sign_in))
        .route("/api/account", axum::routing::patch(update_profile))
        .route("/api/account/delete", post(delete_account))
        .route("/api/account/password", post(change_password))
        .route("/api/account/2fa/setup", post(begin_two_factor))
        .route("/api/account/2fa/enable", post(enable_two_factor))
        .route("/api/account/2fa/disable", post(disable_two_factor))
        .route("/api/account/sessions", get(list_sessions))
        .route("/api/account/sessions/{id}", delete(revoke_session))
}

/// The user as the app reads it (spec §3), plus what the profile shows.
pub fn user_view(user: &UserRecord) -> Value {
    json!({
        "id": user.id,
        "username": user.email,
        "email": user.email,
        "full_name": user.full_name,
        "email_verified": user.email_verified_at.is_some(),
        "referral_code": user.referral_code,
        "referred_by": user.referred_by,
        "two_factor_enabled": user.totp_enabled,
        "order_emails": user.order_emails,
        "language": user.language,
        "has_password": user.password_hash.is_some(),
        "created_at": user.created_at,
    })
}

/// Rejects over-long fields before any work is done on them.
pub(super) fn bounded<'a>(name: &str, value: &'a str) -> Result<&'a str, ApiError> {
    if value.len() > FIELD_LIMIT {
        return Err(ApiError::BadRequest(format!("{name} is too long")));
    }
    Ok(value)
}

fn secure(state: &AppState) -> bool {
    state.config.public_url.starts_with("https://")
}

/// `{token, user}` and the session cookie.
fn signed_in(
    state: &AppState,
    status: StatusCode,
    issued: &IssuedSession,
    message: &str,
) -> Response {
    let max_age = issued.session.expires_at - issued.session.created_at;
    let body = json!({
        "token": issued.token,
        "user": user_view(&issued.user),
        "message": message,
    });
    let mut response = (status, Json(body)).into_response();
    append_cookie(
        &mut response,
        &set_cookie(SESSION_COOKIE, &issued.token, "/", max_age, secure(state)),
    );
    response
}

fn append_cookie(response: &mut Response, value: &str) {
    if let Ok(value) = HeaderValue::from_str(value) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
struct RegisterRequest {
    email: String,
    password: String,
    confirm_password: String,
    #[serde(default)]
    full_name: Option<String>,
    #[serde(default)]
    referral_code: Option<String>,
    /// The language the visitor reads the site in (mails are written in it).
    #[serde(default)]
    language: Option<String>,
    /// Sent by the spec's client, equal to the e-mail; not used.
    #[serde(default, rename = "username")]
    _username: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/register",
    tag = "accounts",
    summary = "Create an account; answers the user and a session token",
    request_body = RegisterRequest,
    responses((status = 201, description = "OK", body = serde_json::Value))
)]
async fn register(
    State(state): State<AppState>,
    address: ClientAddress,
    Client(client): Client,
    ApiJson(body): ApiJson<RegisterRequest>,
) -> Result<Response, ApiError> {
    // Each registration hashes a password and sends a mail: a client gets only so many.
    state
        .limits
        .registrations
        .take(&address.key())
        .await
        .map_err(|wait| ApiError::too_many("registrations", wait))?;
    let issued = state
        .accounts
        .register(
            Registration {
                email: bounded("Email", &body.email)?,
                password: bounded("Password", &body.password)?,
                confirm_password: bounded("Password confirmation", &body.confirm_password)?,
                full_name: body
                    .full_name
                    .as_deref()
                    .map(|n| bounded("Full name", n))
                    .transpose()?,
                referral_code: body
                    .referral_code
                    .as_deref()
                    .map(|c| bounded("Referral code", c))
                    .transpose()?,
                language: body.language.as_deref(),
            },
            &client,
            crate::now_unix(),
        )
        .await?;
    Ok(signed_in(
        &state,
        StatusCode::CREATED,
        &issued,
        "Registration successful",
    ))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct LoginRequest {
    /// The e-mail (spec §7 calls it username); `email` is accepted too.
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    email: Option<String>,
    password: String,
    #[serde(default)]
    remember: bool,
}

#[utoipa::path(
    post,
    path = "/api/login",
    tag = "accounts",
    summary = "Sign in; answers a token and the user, or requires_2fa with a challenge",
    request_body = LoginRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn login(
    State(state): State<AppState>,
    Client(client): Client,
    ApiJson(body): ApiJson<LoginRequest>,
) -> Result<Response, ApiError> {
    let email = body.username.or(body.email).unwrap_or_default();
    let outcome = state
        .accounts
        .login(
            bounded("Email", &email)?,
            bounded("Password", &body.password)?,
            body.remember,
            &client,
            crate::now_unix(),
        )
        .await?;
    Ok(login_answer(&state, outcome))
}

/// A session, or the challenge of the code step (`{requires_2fa, user_id, email, challenge}`,
/// the challenge also in an HttpOnly cookie for the code step's path).
fn login_answer(state: &AppState, outcome: LoginOutcome) -> Response {
    match outcome {
        LoginOutcome::SignedIn(issued) => {
            signed_in(state, StatusCode::OK, &issued, "Login successful")
        }
        LoginOutcome::SecondFactor {
            user_id,
            email,
            challenge,
        } => {
            let mut response = Json(json!({
                "requires_2fa": true,
                "user_id": user_id,
                "email": email,
                "challenge": challenge,
            }))
            .into_response();
            append_cookie(
                &mut response,
                &set_cookie(
                    CHALLENGE_COOKIE,
                    &challenge,
                    CHALLENGE_PATH,
                    CHALLENGE_SECONDS,
                    secure(state),
                ),
            );
            response
        }
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
struct SecondFactorRequest {
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    email: Option<String>,
    code: String,
    /// From the login answer; the HttpOnly cookie set with it works too.
    #[serde(default)]
    challenge: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/two-factor/login",
    tag = "accounts",
    summary = "The code step of sign-in (TOTP or recovery code)",
    request_body = SecondFactorRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn login_second_factor(
    State(state): State<AppState>,
    Client(client): Client,
    headers: axum::http::HeaderMap,
    ApiJson(body): ApiJson<SecondFactorRequest>,
) -> Result<Response, ApiError> {
    let email = body.username.or(body.email).unwrap_or_default();
    let challenge = body
        .challenge
        .filter(|c| !c.is_empty())
        .or_else(|| cookie(&headers, CHALLENGE_COOKIE));
    let issued = state
        .accounts
        .login_second_factor(
            bounded("Email", &email)?,
            challenge.as_deref(),
            bounded("Code", &body.code)?,
            &client,
            crate::now_unix(),
        )
        .await?;
    let mut response = signed_in(&state, StatusCode::OK, &issued, "Login successful");
    append_cookie(
        &mut response,
        &clear_cookie(CHALLENGE_COOKIE, CHALLENGE_PATH, secure(&state)),
    );
    Ok(response)
}

#[utoipa::path(
    post,
    path = "/api/logout",
    tag = "accounts",
    summary = "End this session",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn logout(State(state): State<AppState>, auth: AuthUser) -> Result<Response, ApiError> {
    state.accounts.logout(&auth.session).await?;
    let mut response = Json(json!({ "message": "Logged out" })).into_response();
    append_cookie(
        &mut response,
        &clear_cookie(SESSION_COOKIE, "/", secure(&state)),
    );
    Ok(response)
}

#[utoipa::path(
    get,
    path = "/api/user",
    tag = "accounts",
    summary = "The signed-in user",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn get_current_user(auth: AuthUser) -> Json<Value> {
    Json(json!({ "user": user_view(&auth.user) }))
}

#[utoipa::path(
    post,
    path = "/api/email/verification/send",
    tag = "accounts",
    summary = "Mail a new verification link",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn send_verification_email(
    State(state): State<AppState>,
    auth: AuthUser,
) -> Result<Json<Value>, ApiError> {
    state
        .accounts
        .request_verification(&auth.user, crate::now_unix())
        .await?;
    Ok(Json(
        json!({ "message": "Verification email has been sent to your inbox." }),
    ))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct TokenRequest {
    token: String,
}

#[utoipa::path(
    post,
    path = "/api/email/verification/verify",
    tag = "accounts",
    summary = "Verify the e-mail with the mailed token",
    request_body = TokenRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn verify_email(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<TokenRequest>,
) -> Result<Json<Value>, ApiError> {
    let email = state
        .accounts
        .verify_email(bounded("Token", &body.token)?, crate::now_unix())
        .await?;
    Ok(Json(
        json!({ "email": email, "message": "Your email has been verified successfully." }),
    ))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct ForgotRequest {
    email: String,
}

#[utoipa::path(
    post,
    path = "/api/email/password/forgot",
    tag = "accounts",
    summary = "Mail a reset link if the address has an account",
    request_body = ForgotRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn forgot_password(
    State(state): State<AppState>,
    Client(client): Client,
    ApiJson(body): ApiJson<ForgotRequest>,
) -> Result<Json<Value>, ApiError> {
    state
        .accounts
        .forgot_password(bounded("Email", &body.email)?, &client, crate::now_unix())
        .await?;
    Ok(Json(json!({
        "message": "If your email is registered, you will receive a reset link shortly."
    })))
}

#[utoipa::path(
    post,
    path = "/api/email/password/check",
    tag = "accounts",
    summary = "Whether a reset token can still be used",
    request_body = TokenRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn check_reset_link(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<TokenRequest>,
) -> Result<Json<Value>, ApiError> {
    state
        .accounts
        .check_reset_link(bounded("Token", &body.token)?, crate::now_unix())
        .await?;
    Ok(Json(json!({ "valid": true })))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct ResetRequest {
    token: String,
    password: String,
    confirm_password: String,
}

#[utoipa::path(
    post,
    path = "/api/email/password/reset",
    tag = "accounts",
    summary = "Set a new password with a reset token",
    request_body = ResetRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn reset_password(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<ResetRequest>,
) -> Result<Json<Value>, ApiError> {
    state
        .accounts
        .reset_password(
            bounded("Token", &body.token)?,
            bounded("Password", &body.password)?,
            bounded("Password confirmation", &body.confirm_password)?,
            crate::now_unix(),
        )
        .await?;
    Ok(Json(
        json!({ "message": "Your password has been reset successfully." }),
    ))
}

/// The listed-order fields of spec §3, newest first.
fn listed_order(order: &OrderRecord) -> Value {
    json!({
        "id": order.id,
        "created_at": order.created_at,
        "status": order.status,
        "from_currency": order.from_code,
        "to_currency": order.to_code,
        "from_amount": order.from_amount,
        "to_amount": order.to_amount,
        "type": order.rate_type,
        "usd_value": order.from_usd,
    })
}

/// Most orders one account lists.
const ORDERS_LIMIT: i64 = 1000;

#[utoipa::path(
    get,
    path = "/api/orders",
    tag = "accounts",
    summary = "The signed-in user's orders, newest first",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn list_orders(
    State(state): State<AppState>,
    auth: AuthUser,
) -> Result<Json<Value>, ApiError> {
    let orders = state.store.orders_of(&auth.user.id, ORDERS_LIMIT).await?;
    Ok(Json(Value::Array(
        orders.iter().map(listed_order).collect(),
    )))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct HandoffRequest {
    code: String,
}

#[utoipa::path(
    post,
    path = "/api/auth/exchange",
    tag = "accounts",
    summary = "Exchange a social sign-in hand-off code for a session",
    request_body = HandoffRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn redeem_social_sign_in(
    State(state): State<AppState>,
    Client(client): Client,
    headers: axum::http::HeaderMap,
    ApiJson(body): ApiJson<HandoffRequest>,
) -> Result<Response, ApiError> {
    let outcome = state
        .accounts
        .redeem_handoff(
            bounded("Code", &body.code)?,
            cookie(&headers, OAUTH_COOKIE).as_deref(),
            &client,
            crate::now_unix(),
        )
        .await?;
    let mut response = login_answer(&state, outcome);
    append_cookie(
        &mut response,
        &clear_cookie(OAUTH_COOKIE, OAUTH_PATH, secure(&state)),
    );
    Ok(response)
}

/// `GET /api/auth/{google|github}`: off to the provider, or back to sign-in with the reason.
#[utoipa::path(
    get,
    path = "/api/auth/{provider}",
    tag = "accounts",
    summary = "Start Google or GitHub sign-in",
    params(("provider" = String, Path)),
    responses((status = 303, description = "A redirect"))
)]
async fn begin_social_sign_in(
    State(state): State<AppState>,
    Path(provider): Path<String>,
) -> Result<Response, ApiError> {
    let provider = Provider::parse(&provider).ok_or(ApiError::NotFound)?;
    Ok(
        match state.social.begin(provider, crate::now_unix()).await {
            Ok((url, binding)) => {
                // The flow is this browser's: the callback and the hand-off check the cookie.
                let mut response = Redirect::to(&url).into_response();
                append_cookie(
                    &mut response,
                    &set_cookie(
                        OAUTH_COOKIE,
                        &binding,
                        OAUTH_PATH,
                        OAUTH_COOKIE_SECONDS,
                        secure(&state),
                    ),
                );
                response
            }
            Err(OAuthError::NotConfigured(_)) => {
                social_failure(provider, "not_configured").into_response()
            }
            Err(error) => {
                tracing::warn!(provider = provider.name(), error = %error, "social sign-in could not start");
                social_failure(provider, "failed").into_response()
            }
        },
    )
}

#[derive(Deserialize)]
struct CallbackQuery {
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    state: Option<String>,
    #[serde(default)]
    error: Option<String>,
}

/// The provider sends the browser back here; on success the browser goes on to the sign-in
/// page with a one-time code in the fragment, which the page exchanges for a session.
#[utoipa::path(
    get,
    path = "/api/auth/{provider}/callback",
    tag = "accounts",
    summary = "The OAuth callback",
    params(("provider" = String, Path), ("code" = Option<String>, Query), ("state" = Option<String>, Query), ("error" = Option<String>, Query)),
    responses((status = 303, description = "A redirect"))
)]
async fn finish_social_sign_in(
    State(state): State<AppState>,
    Path(provider): Path<String>,
    headers: axum::http::HeaderMap,
    ApiQuery(query): ApiQuery<CallbackQuery>,
) -> Result<Redirect, ApiError> {
    let provider = Provider::parse(&provider).ok_or(ApiError::NotFound)?;
    let (Some(code), Some(oauth_state), None) = (query.code, query.state, query.error) else {
        return Ok(social_failure(provider, "failed"));
    };
    let now = crate::now_unix();
    let binding = cookie(&headers, OAUTH_COOKIE);
    let handoff = match state
        .social
        .finish(provider, &code, &oauth_state, binding.as_deref(), now)
        .await
    {
        Ok(identity) => {
            state
                .accounts
                .social_sign_in(
                    provider.name(),
                    &identity.subject,
                    &identity.email,
                    identity.name.as_deref(),
                    &browser_hash(binding.as_deref().unwrap_or_default()),
                    now,
                )
                .await
        }
        Err(error) => {
            tracing::warn!(provider = provider.name(), error = %error, "social sign-in failed");
            return Ok(social_failure(provider, "failed"));
        }
    };
    Ok(match handoff {
        Ok(code) => Redirect::to(&format!("/auth#social={code}")),
        Err(error) => {
            tracing::warn!(provider = provider.name(), error = %error, "social sign-in refused");
            social_failure(provider, "failed")
        }
    })
}

fn social_failure(provider: Provider, reason: &str) -> Redirect {
    Redirect::to(&format!(
        "/signin?social_error={}&reason={reason}",
        provider.name()
    ))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct ProfileRequest {
    #[serde(default)]
    full_name: Option<String>,
    #[serde(default)]
    order_emails: Option<bool>,
    /// A supported language code: the user's mails are written in it.
    #[serde(default)]
    language: Option<String>,
}

#[utoipa::path(
    patch,
    path = "/api/account",
    tag = "accounts",
    summary = "Change the name, the order e-mail preference or the mail language",
    request_body = ProfileRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn update_profile(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(body): ApiJson<ProfileRequest>,
) -> Result<Json<Value>, ApiError> {
    let full_name = body
        .full_name
        .as_deref()
        .map(|n| bounded("Full name", n))
        .transpose()?;
    let user = state
        .accounts
        .update_profile(
            &auth.user,
            full_name,
            body.order_emails,
            body.language.as_deref(),
            crate::now_unix(),
        )
        .await?;
    Ok(Json(json!({ "user": user_view(&user) })))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct PasswordCheck {
    #[serde(default)]
    password: String,
}

#[utoipa::path(
    post,
    path = "/api/account/delete",
    tag = "accounts",
    summary = "Delete the account",
    request_body = PasswordCheck,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn delete_account(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(body): ApiJson<PasswordCheck>,
) -> Result<Response, ApiError> {
    state
        .accounts
        .delete_account(
            &auth.user,
            &auth.session,
            bounded("Password", &body.password)?,
            crate::now_unix(),
        )
        .await?;
    let mut response = Json(json!({ "message": "Your account has been deleted." })).into_response();
    append_cookie(
        &mut response,
        &clear_cookie(SESSION_COOKIE, "/", secure(&state)),
    );
    Ok(response)
}

#[derive(Deserialize, utoipa::ToSchema)]
struct ChangePasswordRequest {
    #[serde(default)]
    current_password: String,
    password: String,
    confirm_password: String,
}

#[utoipa::path(
    post,
    path = "/api/account/password",
    tag = "accounts",
    summary = "Change the password; other sessions end",
    request_body = ChangePasswordRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn change_password(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(body): ApiJson<ChangePasswordRequest>,
) -> Result<Json<Value>, ApiError> {
    state
        .accounts
        .change_password(
            &auth.user,
            &auth.session,
            bounded("Current password", &body.current_password)?,
            bounded("Password", &body.password)?,
            bounded("Password confirmation", &body.confirm_password)?,
            crate::now_unix(),
        )
        .await?;
    Ok(Json(
        json!({ "message": "Your password has been changed." }),
    ))
}

#[utoipa::path(
    post,
    path = "/api/account/2fa/setup",
    tag = "accounts",
    summary = "A new TOTP secret and otpauth URI",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn begin_two_factor(
    State(state): State<AppState>,
    auth: AuthUser,
) -> Result<Json<Value>, ApiError> {
    let setup = state
        .accounts
        .begin_totp(&auth.user, crate::now_unix())
        .await?;
    Ok(Json(
        json!({ "secret": setup.secret, "otpauth_uri": setup.otpauth_uri }),
    ))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct CodeRequest {
    code: String,
}

#[utoipa::path(
    post,
    path = "/api/account/2fa/enable",
    tag = "accounts",
    summary = "Turn on 2FA; answers recovery codes",
    request_body = CodeRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn enable_two_factor(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(body): ApiJson<CodeRequest>,
) -> Result<Json<Value>, ApiError> {
    let codes = state
        .accounts
        .confirm_totp(
            &auth.user,
            &auth.session,
            bounded("Code", &body.code)?,
            crate::now_unix(),
        )
        .await?;
    Ok(Json(json!({
        "message": "Two-factor authentication is on.",
        "recovery_codes": codes,
    })))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct DisableRequest {
    #[serde(default)]
    password: String,
    code: String,
}

#[utoipa::path(
    post,
    path = "/api/account/2fa/disable",
    tag = "accounts",
    summary = "Turn off 2FA",
    request_body = DisableRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn disable_two_factor(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(body): ApiJson<DisableRequest>,
) -> Result<Json<Value>, ApiError> {
    state
        .accounts
        .disable_totp(
            &auth.user,
            bounded("Password", &body.password)?,
            bounded("Code", &body.code)?,
            crate::now_unix(),
        )
        .await?;
    Ok(Json(
        json!({ "message": "Two-factor authentication is off." }),
    ))
}

fn session_view(session: &SessionRecord, current: &SessionRecord) -> Value {
    json!({
        "id": session.id,
        "created_at": session.created_at,
        "last_seen_at": session.last_seen_at,
        "expires_at": session.expires_at,
        "user_agent": session.user_agent,
        "ip": session.ip,
        "current": session.id == current.id,
    })
}

#[utoipa::path(
    get,
    path = "/api/account/sessions",
    tag = "accounts",
    summary = "Signed-in sessions",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn list_sessions(
    State(state): State<AppState>,
    auth: AuthUser,
) -> Result<Json<Value>, ApiError> {
    let sessions = state
        .accounts
        .sessions(&auth.user, crate::now_unix())
        .await?;
    let recovery_codes_left = state.accounts.recovery_codes_left(&auth.user).await?;
    Ok(Json(json!({
        "sessions": sessions.iter().map(|s| session_view(s, &auth.session)).collect::<Vec<_>>(),
        "recovery_codes_left": recovery_codes_left,
    })))
}

#[utoipa::path(
    delete,
    path = "/api/account/sessions/{id}",
    tag = "accounts",
    summary = "Sign one session out",
    params(("id" = String, Path)),
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn revoke_session(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    state
        .accounts
        .revoke_session(&auth.user, bounded("Session", &id)?)
        .await?;
    Ok(Json(json!({ "message": "The session was signed out." })))
}
