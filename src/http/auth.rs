//! Who is calling: the session token from `Authorization: Bearer` (how the web app sends it,
//! spec/exchange.md §6) or from the HttpOnly session cookie, and the cookies themselves.
//!
//! Cross-site request forgery: a cookie is sent by the browser on its own, so a state-changing
//! request authenticated by the cookie alone must come from this site — its `Origin` (or
//! `Sec-Fetch-Site`) is checked. A bearer token cannot be attached by another site.

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, header};
use cookie::{Cookie, SameSite};

use super::AppState;
use super::error::ApiError;
use super::extract::ClientAddress;
use crate::services::accounts::ClientInfo;
use crate::store::{SessionRecord, UserRecord};

pub const SESSION_COOKIE: &str = "ferry_session";
pub const CHALLENGE_COOKIE: &str = "ferry_2fa";
/// The only path the 2FA challenge cookie is sent to.
pub const CHALLENGE_PATH: &str = "/api/two-factor";
/// Binds a social sign-in to the browser that began it (see `services::oauth`).
pub const OAUTH_COOKIE: &str = "ferry_oauth";
/// The social sign-in's paths: its start, its callback and the hand-off exchange.
pub const OAUTH_PATH: &str = "/api/auth";
/// The time to sign in at the provider and come back (the state lives as long).
pub const OAUTH_COOKIE_SECONDS: i64 = 10 * 60;

/// A signed-in caller. As an extractor it answers 401 when there is none.
pub struct AuthUser {
    pub user: UserRecord,
    pub session: SessionRecord,
}

/// A caller who may or may not be signed in.
pub struct MaybeUser(pub Option<AuthUser>);

impl<S> FromRequestParts<S> for AuthUser
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        MaybeUser::from_request_parts(parts, state)
            .await?
            .0
            .ok_or(ApiError::Unauthorized)
    }
}

impl<S> FromRequestParts<S> for MaybeUser
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        let (token, by_cookie) = match bearer(&parts.headers) {
            Some(token) => (token, false),
            None => match cookie(&parts.headers, SESSION_COOKIE) {
                Some(token) => (token, true),
                None => return Ok(MaybeUser(None)),
            },
        };
        if by_cookie && !is_safe(&parts.method) && !same_site(&parts.headers) {
            return Err(ApiError::Forbidden(
                "Cross-site request refused: send it from the site itself".into(),
            ));
        }
        let found = state
            .accounts
            .authenticate(&token, crate::now_unix())
            .await?;
        Ok(MaybeUser(
            found.map(|(user, session)| AuthUser { user, session }),
        ))
    }
}

/// The client's address and browser, for the session list and throttling.
pub struct Client(pub ClientInfo);

impl<S> FromRequestParts<S> for Client
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let address = ClientAddress::from_request_parts(parts, state).await?;
        let user_agent = parts
            .headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        Ok(Client(ClientInfo {
            ip: address.0.to_string(),
            throttle_key: address.key().label(),
            user_agent,
        }))
    }
}

fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = value
        .strip_prefix("Bearer ")
        .or_else(|| value.strip_prefix("bearer "))?
        .trim();
    (!token.is_empty()).then(|| token.to_owned())
}

/// The value of cookie `name`, if the request carries it.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| Cookie::parse(pair.trim()).ok())
        .find(|c| c.name() == name)
        .map(|c| c.value().to_owned())
        .filter(|v| !v.is_empty())
}

fn is_safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The request comes from a page of this site: its `Origin` names the host it was sent to, or
/// the browser says it is same-origin. Clients that send neither (curl, scripts) are no
/// forgery vector and pass.
fn same_site(headers: &HeaderMap) -> bool {
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok())
        && !matches!(site, "same-origin" | "none")
    {
        return false;
    }
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let origin_host = origin.split_once("://").map(|(_, rest)| rest).unwrap_or("");
    !host.is_empty() && origin_host.eq_ignore_ascii_case(host)
}

/// A `Set-Cookie` value: HttpOnly, SameSite=Lax, Secure when the site is served over HTTPS.
pub fn set_cookie(name: &str, value: &str, path: &str, max_age: i64, secure: bool) -> String {
    Cookie::build((name.to_owned(), value.to_owned()))
        .path(path.to_owned())
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .max_age(time_seconds(max_age))
        .build()
        .to_string()
}

/// A `Set-Cookie` value that removes the cookie.
pub fn clear_cookie(name: &str, path: &str, secure: bool) -> String {
    set_cookie(name, "", path, 0, secure)
}

fn time_seconds(seconds: i64) -> cookie::time::Duration {
    cookie::time::Duration::seconds(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn cookies_are_found_among_others() {
        let h = headers(&[("cookie", "a=1; ferry_session=tok; b=2")]);
        assert_eq!(cookie(&h, SESSION_COOKIE).as_deref(), Some("tok"));
        assert_eq!(cookie(&h, "missing"), None);
    }

    #[test]
    fn only_same_site_requests_pass_the_forgery_check() {
        assert!(same_site(&headers(&[
            ("host", "ferry.example"),
            ("origin", "https://ferry.example")
        ])));
        assert!(!same_site(&headers(&[
            ("host", "ferry.example"),
            ("origin", "https://evil.example")
        ])));
        assert!(!same_site(&headers(&[("sec-fetch-site", "cross-site")])));
        assert!(same_site(&headers(&[])));
    }

    #[test]
    fn session_cookies_are_http_only_and_lax() {
        let value = set_cookie(SESSION_COOKIE, "tok", "/", 60, true);
        assert!(value.contains("HttpOnly"), "{value}");
        assert!(value.contains("SameSite=Lax"), "{value}");
        assert!(value.contains("Secure"), "{value}");
        assert!(value.contains("Max-Age=60"), "{value}");
    }
}
