//! Security headers on every response (set by the edge where a handler has not).

use axum::http::{HeaderName, HeaderValue};

/// The app's scripts and styles all come from its own origin; React sets `style` attributes,
/// which is why inline styles (never inline scripts) are allowed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob:; \
    connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; \
    form-action 'self'; frame-ancestors 'none'";

/// The headers; HSTS only when the public URL is HTTPS (sending it over
/// plain HTTP is meaningless, and on a development box it would pin localhost to TLS).
pub fn headers(public_url: &str) -> Vec<(HeaderName, HeaderValue)> {
    let mut headers = vec![
        ("content-security-policy", CONTENT_SECURITY_POLICY),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "strict-origin-when-cross-origin"),
        ("x-frame-options", "DENY"),
        (
            "permissions-policy",
            "camera=(self), microphone=(), geolocation=(), payment=()",
        ),
        ("cross-origin-opener-policy", "same-origin"),
    ];
    if public_url.starts_with("https://") {
        headers.push((
            "strict-transport-security",
            "max-age=63072000; includeSubDomains",
        ));
    }
    headers
        .into_iter()
        .map(|(name, value)| {
            (
                HeaderName::from_static(name),
                HeaderValue::from_static(value),
            )
        })
        .collect()
}
