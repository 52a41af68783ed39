//! Request counts and latency histograms by route and status, in Prometheus text.

use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};
use std::time::Duration;

use axum::http::Method;
use metrics::{Counter, Histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

const LATENCY_BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// The process-wide recorder (the `metrics` facade allows one), installed on first use.
pub fn recorder() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full("http_request_duration_seconds".into()),
                    LATENCY_BUCKETS,
                )
                .expect("static buckets are valid")
                .install_recorder()
                .expect("no other metrics recorder is installed")
        })
        .clone()
}

/// Counts one answered request and its time, under its method, route pattern and status.
pub fn record(method: &Method, route: &str, status: u16, took: Duration) {
    let (requests, duration) = handles(method, route, status);
    requests.increment(1);
    duration.record(took.as_secs_f64());
}

/// Per route, the request counter and latency histogram of each method and status seen.
type HandlesByRoute = HashMap<String, Vec<(&'static str, u16, Counter, Histogram)>>;

/// A method as a label: the standard ones by name, any other as `OTHER`, so that made-up
/// methods cannot add label sets without end.
fn method_label(method: &Method) -> &'static str {
    [
        Method::GET,
        Method::POST,
        Method::PUT,
        Method::DELETE,
        Method::PATCH,
        Method::HEAD,
        Method::OPTIONS,
    ]
    .iter()
    .find(|m| *m == method)
    .map_or("OTHER", Method::as_str)
}

/// The metric handles of one method, route and status. Made once: a request then costs a
/// read lock and two atomic updates, not the formatting and hashing of three labels.
fn handles(method: &Method, route: &str, status: u16) -> (Counter, Histogram) {
    static HANDLES: OnceLock<RwLock<HandlesByRoute>> = OnceLock::new();
    let all = HANDLES.get_or_init(Default::default);
    let method = method_label(method);
    let find = |by_route: &HandlesByRoute| {
        by_route.get(route).and_then(|seen| {
            seen.iter()
                .find(|(m, s, _, _)| *m == method && *s == status)
                .map(|(_, _, counter, histogram)| (counter.clone(), histogram.clone()))
        })
    };
    if let Some(found) = find(&all.read().unwrap_or_else(|e| e.into_inner())) {
        return found;
    }
    let mut by_route = all.write().unwrap_or_else(|e| e.into_inner());
    if let Some(found) = find(&by_route) {
        return found;
    }
    let labels = [
        ("method", method.to_owned()),
        ("route", route.to_owned()),
        ("status", status.to_string()),
    ];
    let counter = metrics::counter!("http_requests_total", &labels);
    let histogram = metrics::histogram!("http_request_duration_seconds", &labels);
    by_route.entry(route.to_owned()).or_default().push((
        method,
        status,
        counter.clone(),
        histogram.clone(),
    ));
    (counter, histogram)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_up_methods_share_one_label() {
        assert_eq!(method_label(&Method::POST), "POST");
        let made_up = Method::from_bytes(b"XYZ123").unwrap();
        assert_eq!(method_label(&made_up), "OTHER");
    }
}
