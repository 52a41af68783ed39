//! `/rates/float.xml` and `/rates/fixed.xml`: the rate files exchange-rate monitors read, from
//! memory, with `ETag` and `Last-Modified`; 503 while no pair can be traded.

use axum::Router;
use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use serde::Deserialize;

use super::AppState;
use crate::domain::fees::RateType;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/rates/float.xml",
            get(
                |state: State<AppState>, headers: HeaderMap, query: Query<PairFilter>| {
                    rate_file(state, headers, query, RateType::Float)
                },
            ),
        )
        .route(
            "/rates/fixed.xml",
            get(
                |state: State<AppState>, headers: HeaderMap, query: Query<PairFilter>| {
                    rate_file(state, headers, query, RateType::Fixed)
                },
            ),
        )
}

/// `?from=BTC,ETH&to=USDTTRC`: only those pairs (either list may be left out).
#[derive(Debug, Default, Deserialize)]
struct PairFilter {
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    to: Option<String>,
}

/// Currency codes of a comma-separated list, upper-cased; `None` for no list (every code).
fn codes(list: Option<&str>) -> Option<Vec<String>> {
    let list = list?.trim();
    (!list.is_empty()).then(|| {
        list.split(',')
            .map(|c| c.trim().to_ascii_uppercase())
            .filter(|c| !c.is_empty())
            .collect()
    })
}

async fn rate_file(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(filter): Query<PairFilter>,
    rate_type: RateType,
) -> Response {
    let Some(file) = state.rates.current(rate_type) else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "60")],
            "No rates right now: the service is in maintenance or still starting.",
        )
            .into_response();
    };
    let (from, to) = (codes(filter.from.as_deref()), codes(filter.to.as_deref()));
    for code in from.iter().chain(to.iter()).flatten() {
        if state.catalogue.get(code).is_none() {
            return (StatusCode::BAD_REQUEST, format!("Unknown currency {code}")).into_response();
        }
    }
    let listed = |list: &Option<Vec<String>>, code: &str| {
        list.as_ref().is_none_or(|l| l.iter().any(|c| c == code))
    };
    // The whole file is sent gzipped to whoever accepts it (a few hundred kilobytes instead of
    // megabytes); a few pairs are small enough as they are.
    let (body, etag, gzip) = if from.is_none() && to.is_none() {
        let gzip = accepts_gzip(&headers);
        let body = if gzip {
            // Compressed once, when the file was made (it is stored so).
            Body::from(file.gzip())
        } else {
            Body::from(file.xml.clone())
        };
        (body, file.etag.clone(), gzip)
    } else {
        let (xml, etag) = file.filtered(|i| listed(&from, i.from) && listed(&to, i.to));
        (Body::from(xml), etag, false)
    };
    // One validator per representation: the gzipped file is another one.
    let etag = if gzip {
        format!("{}-gzip\"", etag.trim_end_matches('"'))
    } else {
        etag
    };
    let not_modified = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag));
    let mut response = if not_modified {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = (
            [(header::CONTENT_TYPE, "application/xml; charset=utf-8")],
            body,
        )
            .into_response();
        if gzip {
            response
                .headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
        response
    };
    let out = response.headers_mut();
    out.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Ok(etag) = HeaderValue::from_str(&etag) {
        out.insert(header::ETAG, etag);
    }
    if let Ok(modified) = HeaderValue::from_str(&http_date(file.generated_at)) {
        out.insert(header::LAST_MODIFIED, modified);
    }
    out.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=30"),
    );
    response
}

/// The client takes gzip (`Accept-Encoding: gzip`, not refused with `q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// Unix seconds as an HTTP date (`Sun, 22 Nov 2026 08:58:01 GMT`).
fn http_date(unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let seconds = unix.rem_euclid(86_400);
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][days.rem_euclid(7) as usize];
    let month_name = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ][(month - 1) as usize];
    format!(
        "{weekday}, {day:02} {month_name} {year} {:02}:{:02}:{:02} GMT",
        seconds / 3600,
        seconds % 3600 / 60,
        seconds % 60
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn gzip_is_taken_unless_refused() {
        let with = |value: &str| {
            let mut headers = super::HeaderMap::new();
            headers.insert(super::header::ACCEPT_ENCODING, value.parse().unwrap());
            super::accepts_gzip(&headers)
        };
        assert!(with("gzip, deflate, br"));
        assert!(with("br;q=1.0, gzip;q=0.8"));
        assert!(with("*"));
        assert!(!with("gzip;q=0"));
        assert!(!with("br"));
        assert!(!super::accepts_gzip(&super::HeaderMap::new()));
    }

    #[test]
    fn http_dates_are_imf_fixdate() {
        assert_eq!(super::http_date(0), "Thu, 01 Jan 1970 00:00:00 GMT");
        assert_eq!(
            super::http_date(1_795_337_881),
            "Sun, 22 Nov 2026 08:58:01 GMT"
        );
        assert_eq!(
            super::http_date(951_782_400),
            "Tue, 29 Feb 2000 00:00:00 GMT"
        );
    }
}
