//! Several providers behind one: a quote takes the best rate any of them offers right now, an
//! order is opened where the rate is best, and everything about an order goes to the provider
//! that holds it.

use std::sync::Arc;

use async_trait::async_trait;
use futures_util::future::join_all;
use rust_decimal::Decimal;

use super::{
    Availability, LiquidityProvider, OpenedOrder, OrderRequest, PairMarket, ProviderError,
    UpstreamRef, UpstreamState,
};
use crate::domain::currency::Currency;
use crate::domain::fees::RateType;
use crate::domain::order::EmergencyChoice;

/// Why an order with a partner's markup is refused where no provider can carry it.
pub const NO_MARKUP: &str =
    "Orders with a partner's markup cannot be filled by this exchange's providers";

pub struct Routed {
    members: Vec<Arc<dyn LiquidityProvider>>,
}

impl Routed {
    /// `members` each behind its own deadline and breaker, so one that is down costs nothing.
    pub fn new(members: Vec<Arc<dyn LiquidityProvider>>) -> Routed {
        assert!(!members.is_empty(), "routing needs a provider");
        Routed { members }
    }

    /// The member with the best rate for the pair now, and its market; the first error when
    /// none can quote.
    async fn best(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Result<(&Arc<dyn LiquidityProvider>, PairMarket), ProviderError> {
        self.best_of(self.members.iter().collect(), from, to, rate_type)
            .await
    }

    /// [`Self::best`] among `members`.
    async fn best_of<'m>(
        &self,
        members: Vec<&'m Arc<dyn LiquidityProvider>>,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Result<(&'m Arc<dyn LiquidityProvider>, PairMarket), ProviderError> {
        let markets = join_all(
            members
                .iter()
                .map(|member| member.market(from, to, rate_type)),
        )
        .await;
        let mut best: Option<(&Arc<dyn LiquidityProvider>, PairMarket)> = None;
        let mut first_error = None;
        for (member, market) in members.into_iter().zip(markets) {
            match market {
                Ok(market) if best.as_ref().is_none_or(|(_, b)| market.rate > b.rate) => {
                    best = Some((member, market));
                }
                Ok(_) => {}
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
        best.ok_or_else(|| {
            first_error.unwrap_or_else(|| ProviderError::Unavailable("no provider".into()))
        })
    }

    fn member(&self, name: &str) -> Result<&Arc<dyn LiquidityProvider>, ProviderError> {
        self.members
            .iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| ProviderError::Unavailable(format!("no provider {name} is enabled")))
    }
}

#[async_trait]
impl LiquidityProvider for Routed {
    fn name(&self) -> &'static str {
        "routed"
    }

    fn is_remote(&self) -> bool {
        self.members.iter().any(|m| m.is_remote())
    }

    fn members(&self) -> Vec<Arc<dyn LiquidityProvider>> {
        self.members.clone()
    }

    fn carries_partner_markup(&self) -> bool {
        self.members.iter().any(|m| m.carries_partner_markup())
    }

    async fn refresh_currencies(&self) -> Result<usize, ProviderError> {
        let counts = join_all(self.members.iter().map(|m| m.refresh_currencies())).await;
        counts.into_iter().sum()
    }

    /// Under maintenance only where every member is.
    fn availability(&self, currency: &Currency) -> Availability {
        let all: Vec<_> = self
            .members
            .iter()
            .map(|m| m.availability(currency))
            .collect();
        Availability {
            deposit_maintenance: all.iter().all(|a| a.deposit_maintenance),
            payout_maintenance: all.iter().all(|a| a.payout_maintenance),
        }
    }

    fn reference_usd(&self, currency: &Currency) -> Option<Decimal> {
        self.members.iter().find_map(|m| m.reference_usd(currency))
    }

    async fn market(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Result<PairMarket, ProviderError> {
        Ok(self.best(from, to, rate_type).await?.1)
    }

    /// The best of the members' last good markets.
    fn last_market(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Option<PairMarket> {
        self.members
            .iter()
            .filter_map(|m| m.last_market(from, to, rate_type))
            .max_by(|a, b| a.rate.cmp(&b.rate))
    }

    /// Where the rate is best, among the members that can carry a partner's markup when the
    /// order has one.
    async fn open_order(&self, request: &OrderRequest<'_>) -> Result<OpenedOrder, ProviderError> {
        let members: Vec<_> = self
            .members
            .iter()
            .filter(|m| !request.partner_markup || m.carries_partner_markup())
            .collect();
        if members.is_empty() {
            return Err(ProviderError::Rejected(NO_MARKUP.into()));
        }
        let (member, _) = self
            .best_of(members, request.from, request.to, request.rate_type)
            .await?;
        member.open_order(request).await
    }

    async fn order_state(&self, order: &UpstreamRef<'_>) -> Result<UpstreamState, ProviderError> {
        self.member(order.provider)?.order_state(order).await
    }

    async fn choose(
        &self,
        order: &UpstreamRef<'_>,
        choice: EmergencyChoice,
        refund: Option<(&str, Option<&str>)>,
    ) -> Result<(), ProviderError> {
        self.member(order.provider)?
            .choose(order, choice, refund)
            .await
    }
}
