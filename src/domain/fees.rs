//! Fee and quote arithmetic (spec/exchange.md §9): Ferry's fee (float 0.5 %, fixed 1.0 %,
//! configurable) plus the receive coin's network fee, in both directions.

use std::time::Duration;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::money::{round_down, round_up};

/// How long a fixed rate holds after the order is created.
pub const FIXED_RATE_HOLD: Duration = Duration::from_secs(10 * 60);

/// A fixed order whose market moved more than this (percent) gets the refund-or-continue choice.
pub fn fixed_rate_tolerance_percent() -> Decimal {
    Decimal::new(12, 1)
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RateType {
    #[default]
    Float,
    Fixed,
}

impl RateType {
    /// As the API and the store write it.
    pub fn as_str(self) -> &'static str {
        match self {
            RateType::Float => "float",
            RateType::Fixed => "fixed",
        }
    }

    pub fn parse(raw: &str) -> Option<RateType> {
        [RateType::Float, RateType::Fixed]
            .into_iter()
            .find(|t| t.as_str() == raw)
    }
}

/// Which side's amount the customer typed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    #[default]
    From,
    To,
}

impl Direction {
    /// As the API and the store write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::From => "from",
            Direction::To => "to",
        }
    }

    pub fn parse(raw: &str) -> Option<Direction> {
        [Direction::From, Direction::To]
            .into_iter()
            .find(|d| d.as_str() == raw)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeeSchedule {
    pub float_percent: Decimal,
    pub fixed_percent: Decimal,
}

impl FeeSchedule {
    pub fn percent(&self, rate_type: RateType) -> Decimal {
        match rate_type {
            RateType::Float => self.float_percent,
            RateType::Fixed => self.fixed_percent,
        }
    }

    /// The schedule with a partner's markup added to both rates.
    pub fn with_markup(self, markup_percent: Decimal) -> FeeSchedule {
        FeeSchedule {
            float_percent: self.float_percent + markup_percent,
            fixed_percent: self.fixed_percent + markup_percent,
        }
    }
}

/// What a quote is computed from.
#[derive(Debug, Clone, Copy)]
pub struct QuoteInput {
    pub direction: Direction,
    /// The typed amount: in the send coin for `From`, in the receive coin for `To`.
    pub amount: Decimal,
    /// Units of the receive coin per unit of the send coin, before fees.
    pub market_rate: Decimal,
    pub fee_percent: Decimal,
    /// The receive coin's network fee, in the receive coin.
    pub network_fee: Decimal,
    pub from_precision: u32,
    pub to_precision: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuoteAmounts {
    pub from: Decimal,
    pub to: Decimal,
}

impl QuoteAmounts {
    /// Receive units per send unit after every fee.
    pub fn effective_rate(&self) -> Decimal {
        if self.from.is_zero() {
            Decimal::ZERO
        } else {
            self.to / self.from
        }
    }
}

/// Both amounts of a quote. The receive amount is rounded down and the send amount up, so the
/// customer always gets at least what the quote says for what they send. `None` when the fees
/// eat the whole amount.
pub fn quote(input: QuoteInput) -> Option<QuoteAmounts> {
    let keep = Decimal::ONE - input.fee_percent / Decimal::ONE_HUNDRED;
    if input.market_rate <= Decimal::ZERO || keep <= Decimal::ZERO {
        return None;
    }
    let amounts = match input.direction {
        Direction::From => {
            let to = input
                .amount
                .checked_mul(input.market_rate)?
                .checked_mul(keep)?
                - input.network_fee;
            QuoteAmounts {
                from: round_up(input.amount, input.from_precision),
                to: round_down(to, input.to_precision),
            }
        }
        Direction::To => {
            let gross = input.amount.checked_add(input.network_fee)?;
            let from = gross.checked_div(input.market_rate.checked_mul(keep)?)?;
            QuoteAmounts {
                from: round_up(from, input.from_precision),
                to: round_down(input.amount, input.to_precision),
            }
        }
    };
    (amounts.to > Decimal::ZERO && amounts.from > Decimal::ZERO).then_some(amounts)
}

/// Whether the market moved against (or for) a fixed quote by more than the tolerance.
pub fn moved_beyond_tolerance(quoted_rate: Decimal, current_rate: Decimal) -> bool {
    if quoted_rate.is_zero() {
        return true;
    }
    let change = ((current_rate - quoted_rate) / quoted_rate).abs() * Decimal::ONE_HUNDRED;
    change > fixed_rate_tolerance_percent()
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    fn input(direction: Direction, amount: &str, fee: &str) -> QuoteInput {
        QuoteInput {
            direction,
            amount: dec(amount),
            market_rate: dec("20"), // 1 BTC-like = 20 ETH-like
            fee_percent: dec(fee),
            network_fee: dec("0.002"),
            from_precision: 8,
            to_precision: 6,
        }
    }

    #[test]
    fn float_fee_and_network_fee_come_off_the_receive_amount() {
        // 0.5 × 20 = 10; less 0.5 % = 9.95; less the 0.002 network fee = 9.948.
        let q = quote(input(Direction::From, "0.5", "0.5")).unwrap();
        assert_eq!(q.from, dec("0.5"));
        assert_eq!(q.to, dec("9.948"));
    }

    #[test]
    fn the_fixed_fee_is_one_percent() {
        // 0.5 × 20 = 10; less 1 % = 9.9; less 0.002 = 9.898.
        let q = quote(input(Direction::From, "0.5", "1.0")).unwrap();
        assert_eq!(q.to, dec("9.898"));
    }

    #[test]
    fn direction_to_computes_what_to_send_and_rounds_it_up() {
        // (9.948 + 0.002) / (20 × 0.995) = 0.5 exactly.
        let q = quote(input(Direction::To, "9.948", "0.5")).unwrap();
        assert_eq!(q.from, dec("0.5"));
        assert_eq!(q.to, dec("9.948"));
        // (1 + 0.002) / (20 × 0.99) = 0.0506060606… → up to 8 decimals.
        let q = quote(input(Direction::To, "1", "1.0")).unwrap();
        assert_eq!(q.from, dec("0.05060607"));
    }

    #[test]
    fn both_directions_agree_within_rounding() {
        let forward = quote(input(Direction::From, "0.123456789", "0.5")).unwrap();
        let back = quote(input(Direction::To, &forward.to.to_string(), "0.5")).unwrap();
        assert!(back.from <= forward.from);
        assert!(forward.from - back.from < dec("0.00000002"));
    }

    #[test]
    fn an_amount_smaller_than_the_fees_has_no_quote() {
        assert_eq!(quote(input(Direction::From, "0.0001", "0.5")), None);
    }

    #[test]
    fn the_fixed_rate_tolerance_is_1_2_percent_either_way() {
        assert!(!moved_beyond_tolerance(dec("100"), dec("101.2")));
        assert!(moved_beyond_tolerance(dec("100"), dec("101.21")));
        assert!(moved_beyond_tolerance(dec("100"), dec("98.7")));
        assert!(!moved_beyond_tolerance(dec("100"), dec("98.8")));
    }
}
