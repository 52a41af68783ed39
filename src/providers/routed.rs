//! Several providers behind one. A quote for an amount comes from the provider that pays the
//! customer most for it (its rate less its network fee, within its limits and reserve, out of
//! maintenance for both coins; between two that pay alike, the one with fewer failed calls in
//! the last hour); an order is opened there, or at the next best when that one refuses; and
//! everything about an order goes to the provider that holds it.

use std::sync::Arc;

use async_trait::async_trait;
use futures_util::future::join_all;
use rust_decimal::Decimal;

use super::{
    Availability, LiquidityProvider, OpenedOrder, OrderRequest, PairMarket, ProviderError,
    QuotedAmount, UpstreamRef, UpstreamState,
};
use crate::domain::currency::Currency;
use crate::domain::fees::{Direction, RateType};
use crate::domain::order::EmergencyChoice;

/// Why an order with a partner's markup is refused where no provider can carry it.
pub const NO_MARKUP: &str =
    "Orders with a partner's markup cannot be filled by this exchange's providers";

/// How many upstreams one order is tried at: each try may take a whole deadline, and the
/// customer is waiting.
const MAX_TRIES: usize = 2;

pub struct Routed {
    members: Vec<Arc<dyn LiquidityProvider>>,
}

/// A member's offer for a pair: its market, and whether it can fill the amount asked.
struct Offer<'m> {
    member: &'m Arc<dyn LiquidityProvider>,
    market: PairMarket,
    /// Out of maintenance for both coins.
    open: bool,
    /// Open, and the amount is within its limits and reserve.
    fits: bool,
    /// What the customer gets for the amount to send, or minus what they send for the amount
    /// to receive: higher is better for the customer.
    value: Decimal,
    /// Its failed calls in the last hour, as the offer was made.
    failure_rate: f64,
}

/// How good `market` is for `amount`, before Ferry's fee (which is the same everywhere), if
/// the amount is within the market's limits and reserve.
fn value_of(market: &PairMarket, amount: QuotedAmount) -> Option<Decimal> {
    if market.rate <= Decimal::ZERO {
        return None;
    }
    let within = |send: Decimal| (market.min_from..=market.max_from).contains(&send);
    match amount.direction {
        Direction::From => {
            let receive = amount
                .amount
                .checked_mul(market.rate)?
                .checked_sub(market.network_fee_to)?;
            (within(amount.amount) && receive <= market.reserve_to && receive > Decimal::ZERO)
                .then_some(receive)
        }
        Direction::To => {
            let send = amount
                .amount
                .checked_add(market.network_fee_to)?
                .checked_div(market.rate)?;
            (within(send) && amount.amount <= market.reserve_to).then_some(-send)
        }
    }
}

/// The error to answer when no member could quote: a pair none of them trades only when that
/// is what every one said (a member away must not make a pair look unavailable), else being
/// busy before being away.
fn answer_of(errors: Vec<ProviderError>) -> ProviderError {
    if !errors.is_empty()
        && errors
            .iter()
            .all(|e| matches!(e, ProviderError::UnknownCurrency(_)))
    {
        return errors.into_iter().next().expect("not empty");
    }
    let mut errors: Vec<_> = errors
        .into_iter()
        .filter(|e| !matches!(e, ProviderError::UnknownCurrency(_)))
        .collect();
    let busy = errors
        .iter()
        .position(|e| matches!(e, ProviderError::Busy(_)));
    match busy {
        Some(at) => errors.swap_remove(at),
        None if errors.is_empty() => ProviderError::Unavailable("no provider".into()),
        None => errors.swap_remove(0),
    }
}

impl Routed {
    /// `members` each behind its own deadline and breaker, so one that is down costs nothing.
    pub fn new(members: Vec<Arc<dyn LiquidityProvider>>) -> Routed {
        assert!(!members.is_empty(), "routing needs a provider");
        Routed { members }
    }

    /// The members that may fill an order with (or without) a partner's markup.
    fn eligible(&self, partner_markup: bool) -> Vec<&Arc<dyn LiquidityProvider>> {
        self.members
            .iter()
            .filter(|m| !partner_markup || m.carries_partner_markup())
            .collect()
    }

    /// The member with the best rate for the pair now, and its market; the first error when
    /// none can quote.
    async fn best(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Result<(&Arc<dyn LiquidityProvider>, PairMarket), ProviderError> {
        let offers = self
            .offers(self.members.iter().collect(), (from, to, rate_type), None)
            .await?;
        let best = offers
            .into_iter()
            .max_by(|a, b| a.market.rate.cmp(&b.market.rate))
            .expect("offers are never empty");
        Ok((best.member, best.market))
    }

    /// What each of `members` offers for the pair (for `amount`, when there is one), the best
    /// for the customer first: those that can fill it, by value, then by fewer failures; then
    /// the open ones that cannot (their limits say why), by rate; then those in maintenance.
    async fn offers<'m>(
        &self,
        members: Vec<&'m Arc<dyn LiquidityProvider>>,
        (from, to, rate_type): (&Currency, &Currency, RateType),
        amount: Option<QuotedAmount>,
    ) -> Result<Vec<Offer<'m>>, ProviderError> {
        let markets = join_all(
            members
                .iter()
                .map(|member| member.market(from, to, rate_type)),
        )
        .await;
        let mut offers = Vec::new();
        let mut errors = Vec::new();
        for (member, market) in members.into_iter().zip(markets) {
            match market {
                Ok(market) => {
                    let open = !member.availability(from).deposit_maintenance
                        && !member.availability(to).payout_maintenance;
                    let value = match amount {
                        Some(amount) => value_of(&market, amount),
                        None => Some(market.rate),
                    };
                    offers.push(Offer {
                        member,
                        open,
                        fits: open && value.is_some(),
                        value: value.unwrap_or(Decimal::MIN),
                        failure_rate: member.failure_rate(),
                        market,
                    });
                }
                Err(error) => errors.push(error),
            }
        }
        if offers.is_empty() {
            return Err(answer_of(errors));
        }
        offers.sort_by(|a, b| {
            b.fits
                .cmp(&a.fits)
                .then(b.open.cmp(&a.open))
                .then_with(|| match a.fits {
                    true => b
                        .value
                        .cmp(&a.value)
                        .then(a.failure_rate.total_cmp(&b.failure_rate)),
                    false => b.market.rate.cmp(&a.market.rate),
                })
        });
        Ok(offers)
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

    /// The best rate, for what has no amount (the rate files, the markets list).
    async fn market(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Result<PairMarket, ProviderError> {
        Ok(self.best(from, to, rate_type).await?.1)
    }

    async fn market_for(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
        amount: QuotedAmount,
    ) -> Result<PairMarket, ProviderError> {
        let members = self.eligible(amount.partner_markup);
        if members.is_empty() {
            return Err(ProviderError::Rejected(NO_MARKUP.into()));
        }
        let mut offers = self
            .offers(members, (from, to, rate_type), Some(amount))
            .await?;
        Ok(offers.remove(0).market)
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

    /// Where the customer is paid most for the amount (the same ranking as the quote, from the
    /// same cached markets), among the members that can carry a partner's markup when the order
    /// has one and that are open for both coins. A float order that the best refuses or fails
    /// goes to the next that can fill it; a fixed one stays with the upstream whose rate was
    /// quoted. The customer hears a refusal in its words before an outage.
    async fn open_order(&self, request: &OrderRequest<'_>) -> Result<OpenedOrder, ProviderError> {
        let members = self.eligible(request.partner_markup);
        if members.is_empty() {
            return Err(ProviderError::Rejected(NO_MARKUP.into()));
        }
        let amount = QuotedAmount {
            direction: request.direction,
            amount: request.amount,
            partner_markup: request.partner_markup,
        };
        let offers = self
            .offers(
                members,
                (request.from, request.to, request.rate_type),
                Some(amount),
            )
            .await?;
        let open: Vec<_> = offers.iter().filter(|o| o.open).collect();
        if open.is_empty() {
            return Err(ProviderError::Rejected(
                "Network temporarily suspended for maintenance".into(),
            ));
        }
        // None can fill it: the best asks, and answers why not in its own words.
        let tries = match request.rate_type {
            RateType::Fixed => 1,
            RateType::Float => open.iter().filter(|o| o.fits).count().clamp(1, MAX_TRIES),
        };
        let mut errors = Vec::new();
        for offer in open.into_iter().take(tries) {
            match offer.member.open_order(request).await {
                Ok(opened) => return Ok(opened),
                Err(error) => {
                    tracing::warn!(provider = offer.member.name(), error = %error, "the upstream did not open the order");
                    errors.push(error);
                }
            }
        }
        let refusal = errors
            .iter()
            .position(|e| matches!(e, ProviderError::Rejected(_)));
        Err(match refusal {
            Some(at) => errors.swap_remove(at),
            None => answer_of(errors),
        })
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

#[cfg(test)]
mod tests {
    use std::str::FromStr;
    use std::sync::Mutex;
    use std::time::Duration;

    use super::*;
    use crate::domain::currency::Catalogue;
    use crate::providers::{Deadline, LastHour};

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    /// An upstream with a fixed market that opens orders (or refuses them), perhaps slowly.
    struct Fixed {
        name: &'static str,
        rate: &'static str,
        network_fee: &'static str,
        max_from: &'static str,
        delay: Duration,
        maintenance: bool,
        refuses: bool,
        /// Its next price call fails.
        failing: std::sync::atomic::AtomicBool,
        opened: Mutex<u32>,
    }

    fn fixed(name: &'static str, rate: &'static str, network_fee: &'static str) -> Fixed {
        Fixed {
            name,
            rate,
            network_fee,
            max_from: "100",
            delay: Duration::ZERO,
            maintenance: false,
            refuses: false,
            failing: std::sync::atomic::AtomicBool::new(false),
            opened: Mutex::new(0),
        }
    }

    #[async_trait]
    impl LiquidityProvider for Fixed {
        fn name(&self) -> &'static str {
            self.name
        }
        fn is_remote(&self) -> bool {
            true
        }
        fn availability(&self, _: &Currency) -> Availability {
            Availability {
                deposit_maintenance: self.maintenance,
                payout_maintenance: false,
            }
        }
        fn reference_usd(&self, _: &Currency) -> Option<Decimal> {
            None
        }
        async fn market(
            &self,
            _: &Currency,
            _: &Currency,
            _: RateType,
        ) -> Result<PairMarket, ProviderError> {
            tokio::time::sleep(self.delay).await;
            if self
                .failing
                .swap(false, std::sync::atomic::Ordering::SeqCst)
            {
                return Err(ProviderError::Unavailable("connection reset".into()));
            }
            Ok(PairMarket {
                rate: dec(self.rate),
                from_usd: dec("60000"),
                to_usd: dec("3000"),
                min_from: dec("0.001"),
                max_from: dec(self.max_from),
                reserve_to: dec("1000"),
                network_fee_to: dec(self.network_fee),
            })
        }
        async fn open_order(&self, _: &OrderRequest<'_>) -> Result<OpenedOrder, ProviderError> {
            *self.opened.lock().unwrap() += 1;
            if self.refuses {
                return Err(ProviderError::Rejected(format!("{} will not", self.name)));
            }
            Ok(OpenedOrder {
                provider: self.name,
                deposit_address: format!("{}-deposit", self.name),
                deposit_tag: None,
                upstream: None,
            })
        }
    }

    fn routed(members: Vec<Arc<Fixed>>) -> Routed {
        Routed::new(
            members
                .into_iter()
                .map(|m| {
                    Arc::new(Deadline::new(m, Duration::from_millis(300)))
                        as Arc<dyn LiquidityProvider>
                })
                .collect(),
        )
    }

    fn pair() -> (&'static Currency, &'static Currency) {
        let catalogue = Catalogue::embedded();
        (catalogue.get("BTC").unwrap(), catalogue.get("ETH").unwrap())
    }

    /// An order for 0.1 BTC to ETH at a float rate.
    fn float_order() -> OrderRequest<'static> {
        let (btc, eth) = pair();
        OrderRequest {
            from: btc,
            to: eth,
            rate_type: RateType::Float,
            direction: Direction::From,
            amount: dec("0.1"),
            send_amount: dec("0.1"),
            deposit_seconds: 1800,
            to_address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            to_tag: None,
            fee_percent: dec("0.5"),
            partner_markup: false,
            refund_address: None,
            refund_tag: None,
            customer_ip: None,
        }
    }

    fn sending(amount: &str) -> QuotedAmount {
        QuotedAmount {
            direction: Direction::From,
            amount: dec(amount),
            partner_markup: false,
        }
    }

    async fn chosen(routed: &Routed, amount: QuotedAmount) -> Decimal {
        let (btc, eth) = pair();
        routed
            .market_for(btc, eth, RateType::Float, amount)
            .await
            .unwrap()
            .rate
    }

    #[tokio::test]
    async fn the_quote_comes_from_whoever_pays_most_for_the_amount_and_a_slow_one_costs_only_its_deadline()
     {
        // A better rate with a dear network fee wins large amounts; a lower rate with a cheap
        // fee wins small ones; one never answers in time.
        let mut slow = fixed("slow", "25", "0");
        slow.delay = Duration::from_secs(5);
        let routed = routed(vec![
            Arc::new(fixed("wide", "20", "0.05")),
            Arc::new(fixed("narrow", "19.8", "0.001")),
            Arc::new(slow),
        ]);
        let started = std::time::Instant::now();
        assert_eq!(chosen(&routed, sending("0.01")).await, dec("19.8"));
        assert_eq!(chosen(&routed, sending("1")).await, dec("20"));
        // To receive 0.1 ETH: 0.1051/20 = 0.005255 BTC against 0.101/19.8 = 0.0051 BTC.
        let receiving = QuotedAmount {
            direction: Direction::To,
            amount: dec("0.1"),
            partner_markup: false,
        };
        assert_eq!(chosen(&routed, receiving).await, dec("19.8"));
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
    }

    #[tokio::test]
    async fn one_that_cannot_fill_the_amount_or_is_in_maintenance_is_passed_over() {
        let mut capped = fixed("capped", "21", "0");
        capped.max_from = "0.5";
        let mut closed = fixed("closed", "22", "0");
        closed.maintenance = true;
        let routed = routed(vec![
            Arc::new(fixed("plain", "20", "0")),
            Arc::new(capped),
            Arc::new(closed),
        ]);
        assert_eq!(chosen(&routed, sending("0.1")).await, dec("21"));
        assert_eq!(chosen(&routed, sending("1")).await, dec("20"));
        // Beyond everyone's limits, the best open rate answers (its limits say why).
        assert_eq!(chosen(&routed, sending("500")).await, dec("21"));
        // An amount that would overflow is no one's: an answer, not a crash.
        assert_eq!(
            chosen(&routed, sending("79228162514264337593543950335")).await,
            dec("21")
        );
    }

    #[test]
    fn a_pair_is_unavailable_only_when_every_upstream_says_so() {
        let unknown = || ProviderError::UnknownCurrency("BTC → XYZ".into());
        let away = || ProviderError::Unavailable("no answer within 5000 ms".into());
        assert!(matches!(
            answer_of(vec![unknown(), unknown()]),
            ProviderError::UnknownCurrency(_)
        ));
        assert!(matches!(
            answer_of(vec![unknown(), away()]),
            ProviderError::Unavailable(_)
        ));
        assert!(matches!(
            answer_of(vec![away(), ProviderError::Busy(7), unknown()]),
            ProviderError::Busy(7)
        ));
    }

    #[tokio::test]
    async fn an_order_refused_by_the_best_goes_to_the_next_and_a_markup_only_where_it_is_carried() {
        let mut best = fixed("best", "21", "0");
        best.refuses = true;
        let best = Arc::new(best);
        let next = Arc::new(fixed("next", "20", "0"));
        let router = routed(vec![best.clone(), next.clone()]);
        let request = float_order();
        let opened = router.open_order(&request).await.unwrap();
        assert_eq!(opened.provider, "next");
        assert_eq!(
            (*best.opened.lock().unwrap(), *next.opened.lock().unwrap()),
            (1, 1)
        );

        // Everyone refuses: the customer hears the best one's reason.
        let only = routed(vec![best.clone()]);
        let refused = only.open_order(&request).await.unwrap_err();
        assert_eq!(refused.to_string(), "best will not");
    }

    #[tokio::test]
    async fn between_two_that_pay_alike_the_one_that_failed_less_in_the_last_hour_wins() {
        let shaky = fixed("shaky", "20", "0");
        shaky
            .failing
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let routed = Routed::new(vec![
            Arc::new(Deadline::new(Arc::new(shaky), Duration::from_secs(1)))
                as Arc<dyn LiquidityProvider>,
            Arc::new(Deadline::new(
                Arc::new(fixed("steady", "20", "0")),
                Duration::from_secs(1),
            )),
        ]);
        // The first look: shaky fails. From then on both answer alike; steady wins each tie.
        for _ in 0..2 {
            let opened = routed.open_order(&float_order()).await.unwrap();
            assert_eq!(opened.provider, "steady");
        }
        assert!(routed.members[0].failure_rate() > 0.0);
    }

    #[test]
    fn the_last_hour_counts_failures_per_minute_and_forgets_older_ones() {
        let mut hour = LastHour {
            minutes: [(0, 0, 0); 60],
        };
        hour.record(1_000, true);
        hour.record(1_000, false);
        hour.record(1_030, false);
        hour.record(1_030, false);
        assert_eq!(hour.failure_rate(1_030), 0.25);
        assert_eq!(
            hour.failure_rate(1_060),
            0.0,
            "an hour later, only the newer minute counts"
        );
        hour.record(1_060, true);
        let rate = hour.failure_rate(1_060);
        assert!(
            (rate - 1.0 / 3.0).abs() < 1e-9,
            "{rate}: its slot was the old minute's"
        );
    }
}
