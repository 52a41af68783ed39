//! What every request passes through once, around the whole router: its request id, its log
//! span, a time limit, a panic turned into a 500, its metrics and the security headers.
//!
//! One hand-written service rather than a stack of tower layers on the router: axum applies a
//! router's layers to each route, and clones each route's whole stack of services for every
//! request; with eight layers that was a third of a quote's time (docs/benchmarks.md).

use std::convert::Infallible;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::FutureExt;
use tower::{Layer, Service};
use tracing::Instrument;

use super::error::ApiError;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The longest a request may take before it is answered 503.
const REQUEST_TIME_LIMIT: Duration = Duration::from_secs(30);

/// The edge around `inner` (the router): `security_headers` go on every answer that has not set
/// its own.
#[derive(Clone)]
pub struct Edge<S> {
    inner: S,
    security_headers: Arc<[(HeaderName, HeaderValue)]>,
}

impl<S> Edge<S> {
    pub fn new(inner: S, security_headers: Vec<(HeaderName, HeaderValue)>) -> Edge<S> {
        Edge {
            inner,
            security_headers: security_headers.into(),
        }
    }
}

impl<S> Service<Request> for Edge<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        let started = Instant::now();
        let id = match request.headers().get(REQUEST_ID).filter(|id| usable_id(id)) {
            Some(id) => id.clone(),
            None => {
                let id = new_request_id();
                request.headers_mut().insert(REQUEST_ID, id.clone());
                id
            }
        };
        let method = request.method().clone();
        let api = request.uri().path().starts_with("/api/");
        let span = tracing::info_span!(
            "request",
            method = %request.method(),
            uri = %request.uri().path(),
            request_id = %id.to_str().unwrap_or("-"),
        );
        // The router is always ready; the clone `call` leaves behind is the next request's.
        let next = self.inner.clone();
        let inner = std::mem::replace(&mut self.inner, next).call(request);
        let security_headers = self.security_headers.clone();
        let answered = async move {
            let outcome = AssertUnwindSafe(tokio::time::timeout(REQUEST_TIME_LIMIT, inner))
                .catch_unwind()
                .await;
            let mut response = match outcome {
                Ok(Ok(Ok(response))) => response,
                Ok(Ok(Err(never))) => match never {},
                Ok(Err(_elapsed)) => StatusCode::SERVICE_UNAVAILABLE.into_response(),
                Err(_panic) => {
                    ApiError::Internal(anyhow::anyhow!("a handler panicked")).into_response()
                }
            };
            let route = response.extensions_mut().remove::<MatchedPath>();
            let route = match &route {
                Some(path) => path.as_str(),
                None if api => "/api/{unmatched}",
                None => "/{app}",
            };
            let status = response.status();
            super::metrics::record(&method, route, status.as_u16(), started.elapsed());
            if status.is_server_error() {
                tracing::error!(
                    status = status.as_u16(),
                    latency_ms = started.elapsed().as_millis() as u64,
                    "response failed"
                );
            }
            let headers = response.headers_mut();
            headers.reserve(security_headers.len() + 1);
            headers.entry(REQUEST_ID).or_insert(id);
            for (name, value) in security_headers.iter() {
                headers.entry(name).or_insert_with(|| value.clone());
            }
            Ok(response)
        };
        if span.is_disabled() {
            Box::pin(answered)
        } else {
            Box::pin(answered.instrument(span))
        }
    }
}

/// A client's own request id is kept (to follow a call across systems) when it is short and
/// plain; anything else is replaced, so that it cannot bloat or garble every log line.
fn usable_id(id: &HeaderValue) -> bool {
    id.len() <= 128
        && id
            .as_bytes()
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"._:-".contains(b))
}

/// A random UUID (v4), from `uuid`'s thread-local generator: no system call per request.
fn new_request_id() -> HeaderValue {
    let mut text = [0u8; uuid::fmt::Hyphenated::LENGTH];
    let text = uuid::Uuid::new_v4().hyphenated().encode_lower(&mut text);
    HeaderValue::from_str(text).expect("a UUID is a valid header value")
}

/// Per route, hands the route's pattern (`/api/order-details/{id}`) from the request to its
/// answer, where the edge reads it to label the route's metrics.
#[derive(Clone, Copy)]
pub struct TagRoute;

impl<S> Layer<S> for TagRoute {
    type Service = TaggedRoute<S>;

    fn layer(&self, inner: S) -> TaggedRoute<S> {
        TaggedRoute(inner)
    }
}

#[derive(Clone)]
pub struct TaggedRoute<S>(S);

impl<S> Service<Request> for TaggedRoute<S>
where
    S: Service<Request, Response = Response, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let path = request.extensions().get::<MatchedPath>().cloned();
        let answer = self.0.call(request);
        Box::pin(async move {
            let mut response = answer.await?;
            if let Some(path) = path {
                response.extensions_mut().insert(path);
            }
            Ok(response)
        })
    }
}

#[cfg(test)]
mod tests {
    use axum::Router;
    use axum::body::Body;
    use axum::routing::get;
    use tower::ServiceExt;

    use super::*;

    fn site(router: Router) -> Edge<Router> {
        Edge::new(
            router.route_layer(TagRoute),
            super::super::security::headers("http://127.0.0.1:8080"),
        )
    }

    async fn answer(router: Router, path: &str) -> Response {
        let request = Request::builder().uri(path).body(Body::empty()).unwrap();
        site(router).oneshot(request).await.unwrap()
    }

    async fn boom() -> &'static str {
        panic!("boom")
    }

    #[tokio::test]
    async fn a_panicking_handler_is_a_json_500_with_the_usual_headers() {
        let router = Router::new().route("/boom", get(boom));
        let response = answer(router, "/boom").await;
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(response.headers()["content-type"], "application/json");
        assert_eq!(response.headers()["x-frame-options"], "DENY");
        assert_eq!(response.headers()["x-request-id"].len(), 36);
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_past_the_time_limit_is_a_503() {
        let router = Router::new().route(
            "/slow",
            get(|| async {
                tokio::time::sleep(REQUEST_TIME_LIMIT * 2).await;
                "late"
            }),
        );
        let response = answer(router, "/slow").await;
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    }

    #[tokio::test]
    async fn a_handlers_own_header_is_kept_and_the_route_tag_is_not_sent() {
        let router = Router::new().route(
            "/framed/{id}",
            get(|| async { ([("x-frame-options", "SAMEORIGIN")], "ok") }),
        );
        let response = answer(router, "/framed/7").await;
        assert_eq!(response.headers()["x-frame-options"], "SAMEORIGIN");
        assert_eq!(
            response.headers()["referrer-policy"],
            "strict-origin-when-cross-origin"
        );
        assert!(response.extensions().get::<MatchedPath>().is_none());
    }

    #[tokio::test]
    async fn a_request_id_sent_by_the_client_is_passed_to_the_handler_and_returned() {
        let router = Router::new().route(
            "/id",
            get(|headers: axum::http::HeaderMap| async move {
                headers["x-request-id"].to_str().unwrap().to_owned()
            }),
        );
        let request = Request::builder()
            .uri("/id")
            .header("x-request-id", "trace-me-7")
            .body(Body::empty())
            .unwrap();
        let response = site(router).oneshot(request).await.unwrap();
        assert_eq!(response.headers()["x-request-id"], "trace-me-7");
        let body = axum::body::to_bytes(response.into_body(), 100)
            .await
            .unwrap();
        assert_eq!(&body[..], b"trace-me-7");
    }
}
