//! Background work inside the server process.

use std::sync::Arc;
use std::time::Duration;

use crate::providers::sandbox::SandboxMarket;
use crate::services::availability::CurrencySwitches;
use crate::store::DynStore;

/// How often the sandbox market looks at the clock: its prices change at each 5-second step of
/// the clock itself, so every replica moves them at the same moment (unless
/// `FERRY_SANDBOX_PRICES_AT` holds them still).
const SANDBOX_TICK: Duration = Duration::from_secs(1);
/// How often idempotency keys past their time are forgotten.
const IDEMPOTENCY_PRUNE_SECONDS: i64 = 60;
/// How often a replica re-reads the operator's currency switches: a switch made on one replica
/// reaches the others within a second (one small query per second per replica).
const SWITCHES_REFRESH: Duration = Duration::from_secs(1);

pub async fn run_sandbox_market(market: Arc<SandboxMarket>) {
    let mut interval = tokio::time::interval(SANDBOX_TICK);
    interval.tick().await;
    loop {
        interval.tick().await;
        market.tick();
    }
}

/// How often the upstream provider's currency list is re-read.
const UPSTREAM_CURRENCIES_REFRESH: Duration = Duration::from_secs(60);

/// Keeps the upstream provider's list of what it receives and sends current.
pub async fn run_upstream_currencies(upstream: Arc<dyn crate::providers::LiquidityProvider>) {
    let mut interval = tokio::time::interval(UPSTREAM_CURRENCIES_REFRESH);
    loop {
        interval.tick().await;
        match upstream.refresh_currencies().await {
            Ok(count) => tracing::debug!(count, "upstream currencies refreshed"),
            Err(error) => {
                tracing::warn!(error = %error, "could not read the upstream's currencies")
            }
        }
    }
}

pub async fn refresh_currency_switches(switches: CurrencySwitches, store: DynStore) {
    let mut interval = tokio::time::interval(SWITCHES_REFRESH);
    interval.tick().await;
    loop {
        interval.tick().await;
        if let Err(error) = switches.reload(store.as_ref()).await {
            tracing::warn!(error = %error, "could not refresh the currency switches");
        }
    }
}

/// The order worker: advances due steps (leased, so replicas never double-process), expires
/// orders whose deposit never came and forgets idempotency keys past their time.
pub async fn run_orders(orders: Arc<crate::services::orders::Orders>, every: Duration) {
    let owner = uuid::Uuid::new_v4().to_string();
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_pruned = 0;
    loop {
        interval.tick().await;
        let now = crate::now_unix();
        if let Err(error) = orders.advance_due(&owner, now).await {
            tracing::warn!(error = %error, "order worker: advancing failed");
        }
        if let Err(error) = orders.expire_overdue(now).await {
            tracing::warn!(error = %error, "order worker: expiring failed");
        }
        if now - last_pruned >= IDEMPOTENCY_PRUNE_SECONDS {
            last_pruned = now;
            if let Err(error) = orders.prune_idempotency_keys(now).await {
                tracing::warn!(error = %error, "order worker: pruning idempotency keys failed");
            }
        }
    }
}

/// The mail outbox: sends what is due, leased like the order worker.
pub async fn run_mail_outbox(mailer: crate::services::mail::Mailer, every: Duration) {
    let owner = uuid::Uuid::new_v4().to_string();
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        if let Err(error) = mailer.deliver_due(&owner, crate::now_unix()).await {
            tracing::warn!(error = %error, "mail worker: delivery round failed");
        }
    }
}

/// Sends due webhook notifications; a failed round is retried on the next tick.
pub async fn run_webhooks(
    webhooks: Arc<crate::services::partners::webhooks::Webhooks>,
    every: Duration,
) {
    let owner = uuid::Uuid::new_v4().to_string();
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        if let Err(error) = webhooks.deliver_due(&owner, crate::now_unix()).await {
            tracing::warn!(error = %error, "webhook worker: delivery round failed");
        }
    }
}

/// Records a health check of every part of the server, for the status page's uptime.
pub async fn run_status_checks(
    status: Arc<crate::services::status::StatusService>,
    every: Duration,
) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        if let Err(error) = status.record(crate::now_unix()).await {
            tracing::warn!(error = %error, "status worker: could not record the checks");
        }
    }
}

/// Refreshes live market data on a schedule (only when a source is configured).
pub async fn run_market_refresh(
    markets: Arc<crate::services::market_data::MarketData>,
    every: Duration,
) {
    if !markets.has_live_source() {
        return;
    }
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let min_age = i64::try_from(every.as_secs() / 2).unwrap_or(0);
    loop {
        interval.tick().await;
        if let Err(error) = markets.refresh(crate::now_unix(), min_age).await {
            tracing::warn!(error = %error, "market data not refreshed; the last good data stays");
        }
    }
}

/// How often a replica looks whether the rate files' interval is over or another replica stored
/// newer files.
const RATE_FILES_LOOK: Duration = Duration::from_secs(1);

/// Keeps the rate files for monitoring sites current (see `services::rate_export`).
pub async fn run_rate_export(rates: Arc<crate::services::rate_export::RateExport>) {
    let mut interval = tokio::time::interval(RATE_FILES_LOOK);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        if let Err(error) = rates.refresh(crate::now_unix()).await {
            tracing::warn!(error = %error, "could not refresh the rate files");
        }
    }
}
