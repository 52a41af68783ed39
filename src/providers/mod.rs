//! Liquidity providers: who actually prices and fills a swap. The sandbox is a complete
//! simulated market and the embedded default; real adapters (FixedFloat, ChangeNOW …) implement
//! the same trait.

pub mod sandbox;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use rust_decimal::Decimal;

use crate::domain::currency::Currency;

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
}

#[async_trait]
pub trait LiquidityProvider: Send + Sync + 'static {
    fn name(&self) -> &'static str;

    /// The currency's maintenance state.
    fn availability(&self, currency: &Currency) -> Availability;

    /// The provider's current USD price of one unit, if it has one.
    fn reference_usd(&self, currency: &Currency) -> Option<Decimal>;

    /// A fresh deposit address (and memo/tag where the chain needs one) for one order.
    async fn deposit_address(
        &self,
        currency: &Currency,
    ) -> Result<(String, Option<String>), ProviderError>;

    /// Rate, limits, reserve and network fee of `from → to`.
    async fn market(&self, from: &Currency, to: &Currency) -> Result<PairMarket, ProviderError>;
}

/// Any provider with a deadline on every call it makes over the network: a provider that hangs
/// then fails like one that is down, and the customer gets an answer (a fallback estimate, no
/// half-made order) instead of waiting.
pub struct Deadline {
    inner: Arc<dyn LiquidityProvider>,
    limit: Duration,
}

impl Deadline {
    pub fn new(inner: Arc<dyn LiquidityProvider>, limit: Duration) -> Deadline {
        Deadline { inner, limit }
    }

    async fn within<T>(
        &self,
        call: impl std::future::Future<Output = Result<T, ProviderError>>,
    ) -> Result<T, ProviderError> {
        tokio::time::timeout(self.limit, call)
            .await
            .unwrap_or_else(|_| {
                Err(ProviderError::Unavailable(format!(
                    "no answer within {} ms",
                    self.limit.as_millis()
                )))
            })
    }
}

#[async_trait]
impl LiquidityProvider for Deadline {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn availability(&self, currency: &Currency) -> Availability {
        self.inner.availability(currency)
    }

    fn reference_usd(&self, currency: &Currency) -> Option<Decimal> {
        self.inner.reference_usd(currency)
    }

    async fn deposit_address(
        &self,
        currency: &Currency,
    ) -> Result<(String, Option<String>), ProviderError> {
        self.within(self.inner.deposit_address(currency)).await
    }

    async fn market(&self, from: &Currency, to: &Currency) -> Result<PairMarket, ProviderError> {
        self.within(self.inner.market(from, to)).await
    }
}
