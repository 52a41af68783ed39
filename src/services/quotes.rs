//! Quoting: the customer's pair, amount, direction and rate type → both sides with limits,
//! USD values and the spec's error codes (spec/exchange.md §3, §8). Warm quotes touch only
//! memory: the provider's market and the in-memory currency switches.

use rust_decimal::Decimal;

use super::availability::CurrencySwitches;
use crate::domain::currency::{Catalogue, Currency};
use crate::domain::fees::{self, Direction, FeeSchedule, QuoteInput, RateType};
use crate::domain::money::{Amount, AmountError, round_down};
use crate::providers::{LiquidityProvider, PairMarket, ProviderError, QuotedAmount};

/// The quote error codes of spec/exchange.md §8 (and the partner API's reserve codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuoteIssue {
    LimitMin,
    LimitMax,
    FromAmountExceedsMax,
    ToAmountExceedsMax,
    MaintenanceFrom,
    MaintenanceTo,
    PairUnavailable,
    ReserveTo,
}

impl QuoteIssue {
    pub fn code(self) -> &'static str {
        match self {
            QuoteIssue::LimitMin => "LIMIT_MIN",
            QuoteIssue::LimitMax => "LIMIT_MAX",
            QuoteIssue::FromAmountExceedsMax => "from_amount_exceeds_max",
            QuoteIssue::ToAmountExceedsMax => "to_amount_exceeds_max",
            QuoteIssue::MaintenanceFrom => "MAINTENANCE_FROM",
            QuoteIssue::MaintenanceTo => "MAINTENANCE_TO",
            QuoteIssue::PairUnavailable => "PAIR_UNAVAILABLE",
            QuoteIssue::ReserveTo => "RESERVE_TO",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum QuoteError {
    #[error("Unknown currency {0}")]
    UnknownCurrency(String),
    #[error("Choose two different currencies")]
    SameCurrency,
    #[error("Invalid amount: {0}")]
    InvalidAmount(#[from] AmountError),
    #[error("{0}")]
    Provider(#[from] ProviderError),
}

pub struct QuoteRequest<'a> {
    pub from: &'a str,
    pub to: &'a str,
    pub amount: &'a str,
    pub direction: Direction,
    pub rate_type: RateType,
}

/// One side of a quote.
#[derive(Debug, Clone)]
pub struct QuoteSide {
    pub currency: &'static Currency,
    pub amount: Decimal,
    pub min: Decimal,
    pub max: Decimal,
    /// Units of the other side per unit of this one, after every fee.
    pub rate: Decimal,
    /// USD value of `amount`.
    pub usd: Decimal,
    /// The operator's message while this currency is in maintenance.
    pub maintenance: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Quote {
    pub issues: Vec<QuoteIssue>,
    pub from: QuoteSide,
    pub to: QuoteSide,
    /// BTC equivalent of the send amount.
    pub from_btc: Decimal,
    pub rate_type: RateType,
    pub market: PairMarket,
}

pub struct QuoteService<'a> {
    pub catalogue: &'static Catalogue,
    pub provider: &'a dyn LiquidityProvider,
    pub switches: &'a CurrencySwitches,
    pub fees: FeeSchedule,
    /// The fees carry a partner's markup: only a provider that takes a fee per order can fill
    /// the quote, so only such a one may give it.
    pub partner_markup: bool,
}

impl QuoteService<'_> {
    pub fn currency(&self, code: &str) -> Result<&'static Currency, QuoteError> {
        self.catalogue
            .get(code)
            .ok_or_else(|| QuoteError::UnknownCurrency(code.trim().to_ascii_uppercase()))
    }

    pub async fn quote(&self, request: QuoteRequest<'_>) -> Result<Quote, QuoteError> {
        let from = self.currency(request.from)?;
        let to = self.currency(request.to)?;
        if from.code == to.code {
            return Err(QuoteError::SameCurrency);
        }
        let amount = Amount::parse(request.amount)?.value();
        // While the provider is away or busy, quotes come from its last good prices (an order
        // is then refused by the provider itself, never made on them).
        // A pair the provider does not trade (now) is an answer, not an outage: the quote says
        // PAIR_UNAVAILABLE, and the widget offers another coin (spec/exchange.md §4).
        let mut pair_refused = false;
        let quoted = QuotedAmount {
            direction: request.direction,
            amount,
            partner_markup: self.partner_markup,
        };
        let market = match self
            .provider
            .market_for(from, to, request.rate_type, quoted)
            .await
        {
            Ok(market) => market,
            Err(error) => match self.provider.last_market(from, to, request.rate_type) {
                Some(market) => market,
                None if matches!(error, ProviderError::UnknownCurrency(_)) => {
                    pair_refused = true;
                    PairMarket {
                        rate: Decimal::ZERO,
                        from_usd: from.usd,
                        to_usd: to.usd,
                        min_from: Decimal::ZERO,
                        max_from: Decimal::ZERO,
                        reserve_to: Decimal::ZERO,
                        network_fee_to: Decimal::ZERO,
                    }
                }
                None => return Err(error.into()),
            },
        };
        let fee_percent = self.fees.percent(request.rate_type);
        let input = |direction, amount| QuoteInput {
            direction,
            amount,
            market_rate: market.rate,
            fee_percent,
            network_fee: market.network_fee_to,
            from_precision: from.precision,
            to_precision: to.precision,
        };

        let amounts = fees::quote(input(request.direction, amount));
        let (from_amount, to_amount) = match (amounts, request.direction) {
            (Some(q), _) => (q.from, q.to),
            (None, Direction::From) => (amount, Decimal::ZERO),
            (None, Direction::To) => (Decimal::ZERO, amount),
        };
        let (min_from, max_from) =
            self.switches
                .send_limits(&from.code, market.min_from, market.max_from);
        let to_min = fees::quote(input(Direction::From, min_from)).map_or(Decimal::ZERO, |q| q.to);
        let to_max_by_limit =
            fees::quote(input(Direction::From, max_from)).map_or(Decimal::ZERO, |q| q.to);
        let to_max = to_max_by_limit.min(market.reserve_to);

        let mut issues = Vec::new();
        let from_state = self.switches.state(self.provider, from);
        let to_state = self.switches.state(self.provider, to);
        if from_state.deposit_maintenance {
            issues.push(QuoteIssue::MaintenanceFrom);
        }
        if to_state.payout_maintenance {
            issues.push(QuoteIssue::MaintenanceTo);
        }
        if (!from_state.send && !from_state.deposit_maintenance)
            || (!to_state.recv && !to_state.payout_maintenance)
        {
            issues.push(QuoteIssue::PairUnavailable);
        }
        if amounts.is_none() || from_amount < min_from {
            issues.push(QuoteIssue::LimitMin);
        } else if from_amount > max_from {
            issues.push(QuoteIssue::LimitMax);
            issues.push(match request.direction {
                Direction::From => QuoteIssue::FromAmountExceedsMax,
                Direction::To => QuoteIssue::ToAmountExceedsMax,
            });
        } else if to_amount > market.reserve_to {
            issues.push(QuoteIssue::ReserveTo);
            issues.push(QuoteIssue::ToAmountExceedsMax);
        }

        if pair_refused {
            issues = vec![QuoteIssue::PairUnavailable];
        }

        let effective = if from_amount.is_zero() {
            Decimal::ZERO
        } else {
            to_amount / from_amount
        };
        let btc_usd = self
            .catalogue
            .get("BTC")
            .map(|btc| market_usd(self.provider, btc, from, &market))
            .unwrap_or(Decimal::ZERO);
        let from_usd_value = from_amount * market.from_usd;
        Ok(Quote {
            issues,
            from: QuoteSide {
                currency: from,
                amount: from_amount,
                min: min_from,
                max: max_from,
                rate: round_down(effective, 10),
                usd: from_usd_value.round_dp(2),
                maintenance: from_state
                    .deposit_maintenance
                    .then(|| self.switches.maintenance_notice(&from.code))
                    .flatten(),
            },
            to: QuoteSide {
                currency: to,
                amount: to_amount,
                min: to_min,
                max: to_max,
                rate: if effective.is_zero() {
                    Decimal::ZERO
                } else {
                    round_down(Decimal::ONE / effective, 10)
                },
                usd: (to_amount * market.to_usd).round_dp(2),
                maintenance: to_state
                    .payout_maintenance
                    .then(|| self.switches.maintenance_notice(&to.code))
                    .flatten(),
            },
            from_btc: if btc_usd.is_zero() {
                Decimal::ZERO
            } else {
                round_down(from_usd_value / btc_usd, 8)
            },
            rate_type: request.rate_type,
            market,
        })
    }
}

/// BTC's USD price as the market currently has it (BTC may be one side of the pair).
fn market_usd(
    provider: &dyn LiquidityProvider,
    btc: &Currency,
    from: &Currency,
    market: &PairMarket,
) -> Decimal {
    if from.code == btc.code {
        return market.from_usd;
    }
    provider.reference_usd(btc).unwrap_or(btc.usd)
}
