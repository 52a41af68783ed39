//! Decimal money: amounts are `rust_decimal::Decimal`, never floats. Parsed at the edge from
//! strings or JSON numbers, rounded to a currency's precision on the way out.

use std::str::FromStr;

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Deserializer, Serialize};

/// Most decimals an incoming amount may carry (no coin Ferry lists has more).
pub const MAX_INPUT_DECIMALS: u32 = 18;

/// A strictly positive amount, as typed by a person or sent by a client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Amount(Decimal);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    #[error("enter an amount")]
    Empty,
    #[error("the amount is not a number")]
    NotANumber,
    #[error("the amount must be greater than zero")]
    NotPositive,
    #[error("the amount has too many decimals (at most {MAX_INPUT_DECIMALS})")]
    TooManyDecimals,
    #[error("the amount is too large")]
    TooLarge,
}

impl Amount {
    /// Parses `"0.5"`, `"1000"`, `"1e3"`; refuses empty, negative, zero, non-numeric, out of range
    /// and over-precise input.
    pub fn parse(raw: &str) -> Result<Amount, AmountError> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(AmountError::Empty);
        }
        let plain = raw
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+');
        let value = if plain {
            if let Some((_, decimals)) = raw.split_once('.')
                && decimals.len() as u32 > MAX_INPUT_DECIMALS
            {
                return Err(AmountError::TooManyDecimals);
            }
            Decimal::from_str(raw).map_err(|e| classify(&e.to_string()))?
        } else if raw.bytes().any(|b| b == b'e' || b == b'E') {
            Decimal::from_scientific(raw).map_err(|e| classify(&e.to_string()))?
        } else {
            return Err(AmountError::NotANumber);
        };
        if value.scale() > MAX_INPUT_DECIMALS {
            return Err(AmountError::TooManyDecimals);
        }
        if value <= Decimal::ZERO {
            return Err(AmountError::NotPositive);
        }
        if value > Decimal::from(1_000_000_000_000_000_u64) {
            return Err(AmountError::TooLarge);
        }
        Ok(Amount(value.normalize()))
    }

    pub fn value(self) -> Decimal {
        self.0
    }
}

fn classify(message: &str) -> AmountError {
    if message.contains("overflow") || message.contains("too large") || message.contains("exceed") {
        AmountError::TooLarge
    } else {
        AmountError::NotANumber
    }
}

/// An amount in a request: a JSON string or number. Numbers keep their decimal text (never
/// converted through f64 by us).
#[derive(Debug, Clone, PartialEq)]
pub struct AmountInput(pub String);

impl<'de> Deserialize<'de> for AmountInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::String(s) => Ok(AmountInput(s)),
            serde_json::Value::Number(n) => Ok(AmountInput(n.to_string())),
            _ => Err(serde::de::Error::custom(
                "amount must be a string or a number",
            )),
        }
    }
}

/// As its text: what was asked, as the audit log hashes it.
impl Serialize for AmountInput {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// Rounds toward zero to `decimals` places: what a user receives never exceeds the quote.
pub fn round_down(value: Decimal, decimals: u32) -> Decimal {
    value
        .round_dp_with_strategy(decimals, RoundingStrategy::ToZero)
        .normalize()
}

/// Rounds away from zero to `decimals` places: what a user must send always covers the quote.
pub fn round_up(value: Decimal, decimals: u32) -> Decimal {
    value
        .round_dp_with_strategy(decimals, RoundingStrategy::AwayFromZero)
        .normalize()
}

/// The decimal string an amount leaves the server as.
pub fn to_wire(value: Decimal) -> String {
    value.normalize().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn plain_and_scientific_amounts_parse() {
        assert_eq!(Amount::parse("0.5").unwrap().value(), dec("0.5"));
        assert_eq!(Amount::parse(" 1000 ").unwrap().value(), dec("1000"));
        assert_eq!(Amount::parse("1e3").unwrap().value(), dec("1000"));
        assert_eq!(
            Amount::parse("0.000000000000000001").unwrap().value(),
            dec("0.000000000000000001")
        );
    }

    #[test]
    fn bad_amounts_are_refused_with_a_reason() {
        assert_eq!(Amount::parse(""), Err(AmountError::Empty));
        assert_eq!(Amount::parse("abc"), Err(AmountError::NotANumber));
        assert_eq!(Amount::parse("1.2.3"), Err(AmountError::NotANumber));
        assert_eq!(Amount::parse("0"), Err(AmountError::NotPositive));
        assert_eq!(Amount::parse("-5"), Err(AmountError::NotPositive));
        assert_eq!(Amount::parse("1e400"), Err(AmountError::TooLarge));
        assert_eq!(
            Amount::parse("99999999999999999999999"),
            Err(AmountError::TooLarge)
        );
        assert_eq!(
            Amount::parse("0.0000000000000000001"),
            Err(AmountError::TooManyDecimals)
        );
        assert_eq!(Amount::parse("NaN"), Err(AmountError::NotANumber));
        assert_eq!(Amount::parse("Infinity"), Err(AmountError::NotANumber));
    }

    #[test]
    fn rounding_never_favours_the_user_against_the_quote() {
        assert_eq!(round_down(dec("1.23456789"), 4), dec("1.2345"));
        assert_eq!(round_up(dec("1.23450001"), 4), dec("1.2346"));
        assert_eq!(round_up(dec("1.2345"), 4), dec("1.2345"));
        assert_eq!(to_wire(dec("1.5000")), "1.5");
    }

    #[test]
    fn amounts_arrive_as_strings_or_numbers() {
        let s: AmountInput = serde_json::from_str("\"0.1\"").unwrap();
        let n: AmountInput = serde_json::from_str("0.1").unwrap();
        assert_eq!(s, n);
        assert!(serde_json::from_str::<AmountInput>("true").is_err());
    }
}
