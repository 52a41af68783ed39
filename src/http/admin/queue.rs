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

pub(super) use crate::domain::calendar::{day_of, day_text, utc_time_text};
