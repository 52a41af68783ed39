//! Liquidity providers: who actually prices and fills a swap. The sandbox is a complete
//! simulated market and the embedded default; real adapters (FixedFloat, ChangeNOW …) implement
//! the same trait.

pub mod changenow;
pub mod fixedfloat;
pub mod routed;
pub mod sandbox;
pub mod sideshift;
mod wire;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use rust_decimal::Decimal;

use crate::domain::currency::Currency;
use crate::domain::fees::{Direction, RateType};
use crate::domain::order::{EmergencyChoice, EmergencyReason, OrderStatus};
use crate::domain::transaction::OrderTransactions;

/// A pair's market as the provider sees it right now.
#[derive(Debug, Clone, PartialEq)]
pub struct PairMarket {
    /// Receive units per send unit, before Ferry's fee.
    pub rate: Decimal,
    /// USD price of one unit of each side.
    pub from_usd: Decimal,
    pub to_usd: Decimal,
    /// Limits, in the send coin.
    pub min_from: Decimal,
    pub max_from: Decimal,
    /// What the provider holds of the receive coin.
    pub reserve_to: Decimal,
    /// The receive coin's network fee, in the receive coin.
    pub network_fee_to: Decimal,
}

/// What a quote is for: an amount to send (`From`) or to receive (`To`), and whether a
/// partner's markup rides on it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuotedAmount {
    pub direction: Direction,
    pub amount: Decimal,
    pub partner_markup: bool,
}

/// A currency's state at the provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Availability {
    /// Deposits of this coin are paused.
    pub deposit_maintenance: bool,
    /// Payouts of this coin are paused.
    pub payout_maintenance: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    #[error("the provider does not trade {0}")]
    UnknownCurrency(String),
    #[error("the provider is unavailable: {0}")]
    Unavailable(String),
    /// The provider answered and said no (a bad address, out of limits …), in its words.
    #[error("{0}")]
    Rejected(String),
    /// The provider asks Ferry to slow down (its request budget is spent): back-pressure, not
    /// a failure; try again in this many seconds.
    #[error("the provider is busy: try again in {0} s")]
    Busy(u64),
}

/// An order Ferry asks a provider to fill.
#[derive(Debug, Clone)]
pub struct OrderRequest<'a> {
    pub from: &'a Currency,
    pub to: &'a Currency,
    pub rate_type: RateType,
    pub direction: Direction,
    /// In the send coin for `Direction::From`, in the receive coin for `Direction::To`.
    pub amount: Decimal,
    /// What the customer is to send, as quoted (a Lightning deposit is an invoice for it).
    pub send_amount: Decimal,
    /// How long the deposit may take, in seconds (a Lightning deposit invoice lasts as long).
    pub deposit_seconds: i64,
    pub to_address: &'a str,
    pub to_tag: Option<&'a str>,
    /// Ferry's fee (and any partner markup) on this order, in percent: what an upstream
    /// provider adds to its own fee and credits Ferry with.
    pub fee_percent: Decimal,
    /// A partner's markup is part of `fee_percent`: only a provider that takes a fee per order
    /// can carry it.
    pub partner_markup: bool,
    /// Where the customer wants a refund, if they gave it with the order.
    pub refund_address: Option<&'a str>,
    pub refund_tag: Option<&'a str>,
    /// The customer's address, for an upstream that wants to know whom it serves (SideShift).
    pub customer_ip: Option<std::net::IpAddr>,
}

/// Where the customer pays, and, when a provider fills the order itself, how to follow it there.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenedOrder {
    /// The provider that holds the order (one of several, when Ferry routes).
    pub provider: &'static str,
    pub deposit_address: String,
    pub deposit_tag: Option<String>,
    pub upstream: Option<UpstreamOrder>,
}

/// An order as an upstream provider made it: its reference and the amounts it holds to.
#[derive(Debug, Clone, PartialEq)]
pub struct UpstreamOrder {
    pub id: String,
    pub token: String,
    pub from_amount: Decimal,
    pub to_amount: Decimal,
    /// Unix seconds by which the deposit must arrive there.
    pub expires_at: i64,
}

/// What an upstream provider says of an order now.
#[derive(Debug, Clone, PartialEq)]
pub struct UpstreamState {
    pub status: OrderStatus,
    /// The provider's own words for it (its status, and any emergency flags), for the operator.
    pub raw_status: String,
    /// Why it needs the customer's choice, when it does.
    pub problem: Option<EmergencyReason>,
    /// What arrived, in the send coin.
    pub received: Option<Decimal>,
    /// What the customer gets (or got), in the receive coin.
    pub to_amount: Option<Decimal>,
    /// What went out, in the receive coin.
    pub paid_out: Option<Decimal>,
    /// The customer's emergency choice as the provider knows it (`None` while it knows none).
    pub choice: Option<EmergencyChoice>,
    /// The deposit, payout and refund transactions it reports (those with an id).
    pub transactions: OrderTransactions,
}

#[async_trait]
pub trait LiquidityProvider: Send + Sync + 'static {
    fn name(&self) -> &'static str;

    /// Each call is a request to someone else's server (which limits how often Ferry may ask),
    /// not a look at a market in memory.
    fn is_remote(&self) -> bool {
        false
    }

    /// The providers behind this one when it routes between several (each is on the status
    /// page); empty when it is a provider itself.
    fn members(&self) -> Vec<Arc<dyn LiquidityProvider>> {
        Vec::new()
    }

    /// Whether an order's own fee reaches Ferry through this provider (a partner's markup
    /// rides on it). ChangeNOW credits a share per API key instead.
    fn carries_partner_markup(&self) -> bool {
        true
    }

    /// Reloads which currencies the provider trades now, where it says so (an upstream's
    /// list); how many it lists.
    async fn refresh_currencies(&self) -> Result<usize, ProviderError> {
        Ok(0)
    }

    /// The currency's maintenance state.
    fn availability(&self, currency: &Currency) -> Availability;

    /// The provider's current USD price of one unit, if it has one.
    fn reference_usd(&self, currency: &Currency) -> Option<Decimal>;

    /// Rate, limits, reserve and network fee of `from → to` for that kind of rate (an
    /// upstream prices a fixed rate, which it guarantees, below a float one).
    async fn market(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Result<PairMarket, ProviderError>;

    /// The market to quote `amount` from: a provider's own, or, where several route, the
    /// market of the one that pays the customer most for that amount.
    async fn market_for(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
        amount: QuotedAmount,
    ) -> Result<PairMarket, ProviderError> {
        let _ = amount;
        self.market(from, to, rate_type).await
    }

    /// The share of this provider's calls that failed in the last hour (0 where none are
    /// counted): between two that pay alike, routing takes the steadier.
    fn failure_rate(&self) -> f64 {
        0.0
    }

    /// The last market this provider priced for the pair, while it is recent enough to quote
    /// from when the provider is away or busy (none for a provider that prices in memory).
    fn last_market(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Option<PairMarket> {
        let _ = (from, to, rate_type);
        None
    }

    /// Opens an order: where the customer pays (a fresh address, and memo/tag where the chain
    /// needs one), and, when the provider makes the order on its side, how to follow it there.
    async fn open_order(&self, request: &OrderRequest<'_>) -> Result<OpenedOrder, ProviderError>;

    /// The state of an order this provider fills (one `open_order` returned `upstream` for).
    async fn order_state(&self, order: &UpstreamRef<'_>) -> Result<UpstreamState, ProviderError> {
        Err(ProviderError::Unavailable(format!(
            "{} does not fill order {}",
            self.name(),
            order.id
        )))
    }

    /// Passes the customer's emergency choice on to the provider that fills the order.
    async fn choose(
        &self,
        order: &UpstreamRef<'_>,
        choice: EmergencyChoice,
        refund: Option<(&str, Option<&str>)>,
    ) -> Result<(), ProviderError> {
        let _ = (order, choice, refund);
        Ok(())
    }
}

/// How an order is known at the provider that fills it.
#[derive(Debug, Clone, Copy)]
pub struct UpstreamRef<'a> {
    /// The provider that holds it.
    pub provider: &'a str,
    pub id: &'a str,
    pub token: &'a str,
}

/// Any provider with a deadline on every call it makes over the network: a provider that hangs
/// then fails like one that is down, and the customer gets an answer (a fallback estimate, no
/// half-made order) instead of waiting. A remote provider that keeps failing is also given a
/// rest (a circuit breaker): after `TRIP_AFTER` failures in a row, calls fail at once for
/// `cool_down`, then one call tries again.
pub struct Deadline {
    inner: Arc<dyn LiquidityProvider>,
    limit: Duration,
    cool_down: Duration,
    breaker: std::sync::Mutex<Breaker>,
    last_hour: std::sync::Mutex<LastHour>,
}

/// Calls and failures per minute over the last hour.
pub(crate) struct LastHour {
    /// `(minute since 1970, calls, failures)`, one slot per minute of the hour.
    pub(crate) minutes: [(u64, u32, u32); 60],
}

impl LastHour {
    fn minute_now() -> u64 {
        u64::try_from(crate::now_unix()).unwrap_or_default() / 60
    }

    pub(crate) fn record(&mut self, minute: u64, failed: bool) {
        let slot = &mut self.minutes[(minute % 60) as usize];
        if slot.0 != minute {
            *slot = (minute, 0, 0);
        }
        slot.1 += 1;
        slot.2 += u32::from(failed);
    }

    pub(crate) fn failure_rate(&self, minute: u64) -> f64 {
        let (calls, failures) = self
            .minutes
            .iter()
            .filter(|(at, calls, _)| *calls > 0 && minute.saturating_sub(*at) < 60)
            .fold((0u64, 0u64), |(c, f), (_, calls, failures)| {
                (c + u64::from(*calls), f + u64::from(*failures))
            });
        if calls == 0 {
            0.0
        } else {
            failures as f64 / calls as f64
        }
    }
}

/// Failed calls in a row to a remote provider this many times opens the breaker.
const TRIP_AFTER: u32 = 5;

#[derive(Default)]
struct Breaker {
    failures_in_a_row: u32,
    open_until: Option<std::time::Instant>,
}

impl Deadline {
    pub fn new(inner: Arc<dyn LiquidityProvider>, limit: Duration) -> Deadline {
        Deadline::with_cool_down(inner, limit, Duration::from_secs(30))
    }

    pub fn with_cool_down(
        inner: Arc<dyn LiquidityProvider>,
        limit: Duration,
        cool_down: Duration,
    ) -> Deadline {
        Deadline {
            inner,
            limit,
            cool_down,
            breaker: std::sync::Mutex::default(),
            last_hour: std::sync::Mutex::new(LastHour {
                minutes: [(0, 0, 0); 60],
            }),
        }
    }

    async fn within<T>(
        &self,
        call: impl std::future::Future<Output = Result<T, ProviderError>>,
    ) -> Result<T, ProviderError> {
        let remote = self.inner.is_remote();
        if remote && let Some(rest) = self.resting() {
            return Err(ProviderError::Unavailable(format!(
                "paused for {} s after {TRIP_AFTER} failed calls in a row",
                rest.as_secs().max(1)
            )));
        }
        let result = tokio::time::timeout(self.limit, call)
            .await
            .unwrap_or_else(|_| {
                Err(ProviderError::Unavailable(format!(
                    "no answer within {} ms",
                    self.limit.as_millis()
                )))
            });
        // A busy provider asked to be left alone a while: that is not a failure.
        if remote && !matches!(result, Err(ProviderError::Busy(_))) {
            self.record(matches!(result, Err(ProviderError::Unavailable(_))));
        }
        result
    }

    /// How long the breaker stays open, if it is.
    fn resting(&self) -> Option<Duration> {
        let breaker = self.breaker.lock().expect("breaker lock");
        breaker
            .open_until
            .and_then(|until| until.checked_duration_since(std::time::Instant::now()))
    }

    fn record(&self, failed: bool) {
        self.last_hour
            .lock()
            .expect("last hour lock")
            .record(LastHour::minute_now(), failed);
        let mut breaker = self.breaker.lock().expect("breaker lock");
        if !failed {
            *breaker = Breaker::default();
            return;
        }
        breaker.failures_in_a_row += 1;
        if breaker.failures_in_a_row >= TRIP_AFTER {
            // Also after a failed try once the rest is over: rest again.
            breaker.open_until = Some(std::time::Instant::now() + self.cool_down);
            tracing::warn!(
                provider = self.inner.name(),
                failures = breaker.failures_in_a_row,
                "provider paused after failing calls in a row"
            );
        }
    }
}

#[async_trait]
impl LiquidityProvider for Deadline {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn is_remote(&self) -> bool {
        self.inner.is_remote()
    }

    fn members(&self) -> Vec<Arc<dyn LiquidityProvider>> {
        self.inner.members()
    }

    fn carries_partner_markup(&self) -> bool {
        self.inner.carries_partner_markup()
    }

    fn failure_rate(&self) -> f64 {
        self.last_hour
            .lock()
            .expect("last hour lock")
            .failure_rate(LastHour::minute_now())
    }

    async fn market_for(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
        amount: QuotedAmount,
    ) -> Result<PairMarket, ProviderError> {
        self.within(self.inner.market_for(from, to, rate_type, amount))
            .await
    }

    async fn refresh_currencies(&self) -> Result<usize, ProviderError> {
        self.within(self.inner.refresh_currencies()).await
    }

    fn availability(&self, currency: &Currency) -> Availability {
        self.inner.availability(currency)
    }

    fn reference_usd(&self, currency: &Currency) -> Option<Decimal> {
        self.inner.reference_usd(currency)
    }

    async fn market(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Result<PairMarket, ProviderError> {
        self.within(self.inner.market(from, to, rate_type)).await
    }

    fn last_market(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Option<PairMarket> {
        self.inner.last_market(from, to, rate_type)
    }

    async fn open_order(&self, request: &OrderRequest<'_>) -> Result<OpenedOrder, ProviderError> {
        self.within(self.inner.open_order(request)).await
    }

    async fn order_state(&self, order: &UpstreamRef<'_>) -> Result<UpstreamState, ProviderError> {
        self.within(self.inner.order_state(order)).await
    }

    async fn choose(
        &self,
        order: &UpstreamRef<'_>,
        choice: EmergencyChoice,
        refund: Option<(&str, Option<&str>)>,
    ) -> Result<(), ProviderError> {
        self.within(self.inner.choose(order, choice, refund)).await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;
    use crate::domain::currency::Catalogue;

    /// A remote provider that is down, counting the calls that reach it.
    #[derive(Default)]
    struct Down {
        calls: AtomicU32,
    }

    #[async_trait]
    impl LiquidityProvider for Down {
        fn name(&self) -> &'static str {
            "down"
        }
        fn is_remote(&self) -> bool {
            true
        }
        fn availability(&self, _: &Currency) -> Availability {
            Availability::default()
        }
        fn reference_usd(&self, _: &Currency) -> Option<Decimal> {
            None
        }
        async fn open_order(&self, _: &OrderRequest<'_>) -> Result<OpenedOrder, ProviderError> {
            unreachable!("the breaker test only asks for prices")
        }
        async fn market(
            &self,
            _: &Currency,
            _: &Currency,
            _: RateType,
        ) -> Result<PairMarket, ProviderError> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            Err(ProviderError::Unavailable("connection refused".into()))
        }
    }

    /// A remote provider that asks to be left alone (its request budget is spent).
    #[derive(Default)]
    struct Busy {
        calls: AtomicU32,
    }

    #[async_trait]
    impl LiquidityProvider for Busy {
        fn name(&self) -> &'static str {
            "busy"
        }
        fn is_remote(&self) -> bool {
            true
        }
        fn availability(&self, _: &Currency) -> Availability {
            Availability::default()
        }
        fn reference_usd(&self, _: &Currency) -> Option<Decimal> {
            None
        }
        async fn open_order(&self, _: &OrderRequest<'_>) -> Result<OpenedOrder, ProviderError> {
            unreachable!("only prices are asked")
        }
        async fn market(
            &self,
            _: &Currency,
            _: &Currency,
            _: RateType,
        ) -> Result<PairMarket, ProviderError> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            Err(ProviderError::Busy(30))
        }
    }

    #[tokio::test]
    async fn a_busy_provider_is_not_rested_as_if_it_had_failed() {
        let busy = Arc::new(Busy::default());
        let guarded = Deadline::new(busy.clone(), Duration::from_secs(1));
        let catalogue = Catalogue::embedded();
        let (btc, eth) = (catalogue.get("BTC").unwrap(), catalogue.get("ETH").unwrap());
        for _ in 0..(TRIP_AFTER * 3) {
            let error = guarded.market(btc, eth, RateType::Float).await.unwrap_err();
            assert!(matches!(error, ProviderError::Busy(30)), "{error}");
        }
        assert_eq!(
            busy.calls.load(Ordering::SeqCst),
            TRIP_AFTER * 3,
            "never paused"
        );
    }

    #[tokio::test]
    async fn a_remote_provider_failing_again_and_again_is_rested_then_tried_again() {
        let down = Arc::new(Down::default());
        let guarded = Deadline::with_cool_down(
            down.clone(),
            Duration::from_secs(1),
            Duration::from_millis(200),
        );
        let catalogue = Catalogue::embedded();
        let (btc, eth) = (catalogue.get("BTC").unwrap(), catalogue.get("ETH").unwrap());
        let price = || guarded.market(btc, eth, RateType::Float);
        for _ in 0..TRIP_AFTER {
            assert!(price().await.is_err());
        }
        assert_eq!(down.calls.load(Ordering::SeqCst), TRIP_AFTER);
        let rested = price().await.unwrap_err().to_string();
        assert!(rested.contains("paused"), "{rested}");
        assert_eq!(
            down.calls.load(Ordering::SeqCst),
            TRIP_AFTER,
            "not called while resting"
        );

        tokio::time::sleep(Duration::from_millis(250)).await;
        assert!(price().await.is_err());
        assert_eq!(
            down.calls.load(Ordering::SeqCst),
            TRIP_AFTER + 1,
            "one try after the rest"
        );
        let again = price().await.unwrap_err().to_string();
        assert!(
            again.contains("paused"),
            "a failed try rests it again: {again}"
        );
    }
}
