//! What needs a person in the back office (issue 22), and how the orders went: read from the
//! database on every call, so every replica answers the same.

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::{Value, json};

use super::orders::order_row;
use super::{AdminCall, Support};
use crate::domain::money::to_wire;
use crate::domain::order::OrderStatus;
use crate::http::AppState;
use crate::http::error::ApiError;
use crate::http::extract::ApiQuery;
use crate::store::{OrderRecord, QueueSearch};

/// How long a FAILED order stays in the queue.
const FAILED_WITHIN_SECONDS: i64 = 7 * 86_400;
/// Longest queue page.
const QUEUE_LIMIT: i64 = 200;
/// Longest period of the figures.
const STATS_MAX_DAYS: i64 = 90;

#[derive(Deserialize)]
pub(super) struct QueueQuery {
    limit: Option<i64>,
}

fn queue_search(state: &AppState, now: i64, limit: i64) -> QueueSearch {
    QueueSearch {
        stuck_before: now - state.config.console_stuck_seconds as i64,
        failed_since: now - FAILED_WITHIN_SECONDS,
        limit,
    }
}

/// Why an order of the queue is there: its status, or else a message about it.
fn queue_reason(order: &OrderRecord, stuck_before: i64) -> &'static str {
    match order.status {
        OrderStatus::Emergency => "emergency",
        OrderStatus::Failed => "failed",
        OrderStatus::Confirming | OrderStatus::Exchange | OrderStatus::Sending
            if order.updated_at < stuck_before =>
        {
            "stuck"
        }
        _ => "message",
    }
}

/// Orders in EMERGENCY, stuck past their expected time, or failed lately: the longest
/// waiting first, with how many of each.
pub(super) async fn get_queue(
    State(state): State<AppState>,
    _: AdminCall<Support>,
    ApiQuery(query): ApiQuery<QueueQuery>,
) -> Result<Json<Value>, ApiError> {
    let limit = query.limit.unwrap_or(100).clamp(1, QUEUE_LIMIT);
    let search = queue_search(&state, crate::now_unix(), limit);
    let counts = state.store.queue_counts(&search).await?;
    let orders = state.store.order_queue(&search).await?;
    let ids: Vec<String> = orders.iter().map(|o| o.id.clone()).collect();
    let messaged = state.store.orders_with_open_messages(&ids).await?;
    let rows: Vec<Value> = orders
        .iter()
        .map(|order| {
            let mut row = order_row(order);
            row["reason"] = queue_reason(order, search.stuck_before).into();
            row["open_message"] = messaged.contains(&order.id).into();
            row["waiting_since"] = order.updated_at.into();
            row
        })
        .collect();
    Ok(Json(json!({
        "counts": {
            "emergency": counts.emergency, "stuck": counts.stuck, "failed": counts.failed,
            "messages": counts.messages,
        },
        "stuck_after_seconds": state.config.console_stuck_seconds,
        "failed_within_seconds": FAILED_WITHIN_SECONDS,
        "orders": rows,
    })))
}

#[derive(Deserialize)]
pub(super) struct StatsQuery {
    days: Option<i64>,
}

/// The orders of the last `days` UTC days (today included): per day, how fast they completed,
/// and how many went into EMERGENCY or were refunded.
pub(super) async fn get_stats(
    State(state): State<AppState>,
    _: AdminCall<Support>,
    ApiQuery(query): ApiQuery<StatsQuery>,
) -> Result<Json<Value>, ApiError> {
    let days = query.days.unwrap_or(30);
    if !(1..=STATS_MAX_DAYS).contains(&days) {
        return Err(ApiError::BadRequest(format!(
            "days must be between 1 and {STATS_MAX_DAYS}"
        )));
    }
    let today = crate::now_unix().div_euclid(86_400);
    let since = (today - days + 1) * 86_400;
    let stats = state.store.order_stats(since).await?;
    let p = stats.completion_seconds;
    // The upstreams as the status page sees them now, with their uptime from the stored checks.
    let report = state.status.report(crate::now_unix()).await?;
    let providers: Vec<_> = report
        .services
        .iter()
        .filter(|s| s.key.starts_with("provider:"))
        .collect();
    Ok(Json(json!({
        "since": since,
        "days": stats.days.iter().map(|day| json!({
            "day": day_text(day.day),
            "orders": day.orders,
            "completed": day.completed,
            "volume_usd": to_wire(day.volume_usd),
        })).collect::<Vec<_>>(),
        "completion_seconds": { "count": p.count, "p50": p.p50, "p90": p.p90, "p99": p.p99 },
        "deposited": stats.deposited,
        "emergency": stats.emergency,
        "refunded": stats.refunded,
        "providers": providers,
    })))
}

/// `YYYY-MM-DDTHH:MM:SSZ` of a Unix time.
pub(super) fn utc_time_text(at: i64) -> String {
    let seconds = at.rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        day_text(at.div_euclid(86_400)),
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// `YYYY-MM-DD` of a day counted from 1970-01-01 (Howard Hinnant's civil-from-days).
/// The day (since 1970-01-01) a `YYYY-MM-DD` text names, if it names one.
pub(super) fn day_of(text: &str) -> Option<i64> {
    let mut parts = text.trim().splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    if !(1970..=9999).contains(&y) || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Howard Hinnant's days_from_civil, the inverse of `day_text`.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let day = era * 146_097 + doe - 719_468;
    // 2026-02-31 is not a day: it would come back as another.
    (day_text(day) == text.trim()).then_some(day)
}

pub(super) fn day_text(day: i64) -> String {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::{day_of, day_text, utc_time_text};

    #[test]
    fn a_day_number_is_written_as_its_utc_date() {
        assert_eq!(day_text(0), "1970-01-01");
        assert_eq!(day_text(20_418), "2025-11-26");
        assert_eq!(day_text(20_513), "2026-03-01");
        assert_eq!(day_text(11_016), "2000-02-29");
        assert_eq!(utc_time_text(1_764_115_199), "2025-11-25T23:59:59Z");
    }

    #[test]
    fn a_date_is_read_back_as_its_day_and_a_date_that_is_not_one_is_refused() {
        for day in [0, 11_016, 20_418, 20_513, 2_932_896] {
            assert_eq!(day_of(&day_text(day)), Some(day), "{}", day_text(day));
        }
        for bad in [
            "2026-02-31",
            "2026-13-01",
            "2026-1-1x",
            "1969-12-31",
            "",
            "2026-02",
        ] {
            assert_eq!(day_of(bad), None, "{bad}");
        }
    }
}
