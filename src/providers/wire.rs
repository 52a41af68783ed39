//! What the upstream adapters read off the wire alike: amounts written as strings or numbers,
//! a `Retry-After`, and a pair's rate and network fee from two quotes.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::RwLock;
use std::time::{Duration, Instant};

use rust_decimal::Decimal;
use serde::Deserialize;
use serde_json::Value;

use super::{PairMarket, ProviderError};
use crate::domain::currency::Currency;
use crate::domain::fees::RateType;

/// How long a pair's derived market is reused: quotes ask often, rates move slowly.
const MARKET_TTL: Duration = Duration::from_secs(10);
/// How old a market may be and still be quoted from while the upstream is away or busy.
const LAST_GOOD_MARKET: Duration = Duration::from_secs(300);

/// A pair and kind of rate: `(from, to, rate type)`.
type MarketKey = (String, String, RateType);

/// The markets an upstream priced, each reused for a while and kept as the last good one.
#[derive(Default)]
pub struct MarketCache {
    markets: RwLock<HashMap<MarketKey, (Instant, PairMarket)>>,
}

impl MarketCache {
    /// The pair's market: the one priced in the last few seconds, else `derive`'s.
    pub async fn get_or_derive(
        &self,
        (from, to, rate_type): (&Currency, &Currency, RateType),
        derive: impl Future<Output = Result<PairMarket, ProviderError>>,
    ) -> Result<PairMarket, ProviderError> {
        let key = (from.code.clone(), to.code.clone(), rate_type);
        if let Some((at, market)) = self.markets.read().expect("markets lock").get(&key)
            && at.elapsed() < MARKET_TTL
        {
            return Ok(market.clone());
        }
        let market = derive.await?;
        self.markets
            .write()
            .expect("markets lock")
            .insert(key, (Instant::now(), market.clone()));
        Ok(market)
    }

    /// The last market priced for the pair, while it is recent enough to quote from.
    pub fn last_good(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Option<PairMarket> {
        let key = (from.code.clone(), to.code.clone(), rate_type);
        self.markets
            .read()
            .expect("markets lock")
            .get(&key)
            .filter(|(at, _)| at.elapsed() < LAST_GOOD_MARKET)
            .map(|(_, market)| market.clone())
    }
}

/// `rate` and network fee from two `(from, to)` amounts of `to = from × rate − fee`.
pub fn two_point_market(
    first: (Decimal, Decimal),
    second: (Decimal, Decimal),
) -> (Decimal, Decimal) {
    let rate = (second.1 - first.1) / (second.0 - first.0);
    let fee = (first.0 * rate - first.1).max(Decimal::ZERO);
    (rate.normalize(), fee.normalize())
}

pub fn per_unit(value: Decimal, amount: Decimal) -> Decimal {
    if amount.is_zero() {
        Decimal::ZERO
    } else {
        value / amount
    }
}

/// The seconds a `Retry-After` header asks for (a minute when it says nothing usable).
pub fn retry_after(headers: &reqwest::header::HeaderMap) -> u64 {
    headers
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(60, |s| s.clamp(1, 3600))
}

/// A whole number sent as a number or a string (or null).
pub fn optional_integer<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        Value::String(s) if s.trim().is_empty() => Ok(None),
        Value::String(s) => s.trim().parse().map(Some).map_err(serde::de::Error::custom),
        Value::Number(n) => n
            .as_i64()
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom(format!("not a whole number: {n}"))),
        other => Err(serde::de::Error::custom(format!("not a number: {other}"))),
    }
}

/// A decimal sent as a string or a number (the API sends strings; lenient on the way in).
pub fn decimal<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
    optional_decimal(d)?.ok_or_else(|| serde::de::Error::custom("a decimal is missing"))
}

pub fn optional_decimal<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Decimal>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        Value::String(s) if s.is_empty() => Ok(None),
        Value::String(s) => Decimal::from_str(&s)
            .map(Some)
            .map_err(serde::de::Error::custom),
        Value::Number(n) => Decimal::from_str(&n.to_string())
            .or_else(|_| Decimal::from_scientific(&n.to_string()))
            .map(Some)
            .map_err(serde::de::Error::custom),
        other => Err(serde::de::Error::custom(format!("not a decimal: {other}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn two_price_answers_give_the_rate_and_the_network_fee() {
        // to = from × 32.5 − 0.002
        let (rate, fee) = two_point_market((dec("0.1"), dec("3.248")), (dec("0.2"), dec("6.498")));
        assert_eq!((rate, fee), (dec("32.5"), dec("0.002")));
        // A fee the rounding of the answers would make negative is none.
        let (_, fee) = two_point_market((dec("1"), dec("2.0000001")), (dec("2"), dec("4")));
        assert_eq!(fee, Decimal::ZERO);
    }
}
