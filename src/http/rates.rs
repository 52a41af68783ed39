//! `/rates/float.xml` and `/rates/fixed.xml`: the rate files exchange-rate monitors read, from
//! memory, with `ETag` and `Last-Modified`; 503 while no pair can be traded.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::AppState;
use crate::domain::fees::RateType;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/rates/float.xml",
            get(|state: State<AppState>, headers: HeaderMap| {
                rate_file(state, headers, RateType::Float)
            }),
        )
        .route(
            "/rates/fixed.xml",
            get(|state: State<AppState>, headers: HeaderMap| {
                rate_file(state, headers, RateType::Fixed)
            }),
        )
}

async fn rate_file(
    State(state): State<AppState>,
    headers: HeaderMap,
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
    let not_modified = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == file.etag));
    let mut response = if not_modified {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        (
            [(header::CONTENT_TYPE, "application/xml; charset=utf-8")],
            file.xml.clone(),
        )
            .into_response()
    };
    let out = response.headers_mut();
    if let Ok(etag) = HeaderValue::from_str(&file.etag) {
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
