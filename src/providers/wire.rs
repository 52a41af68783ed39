//! What the upstream adapters read off the wire alike: amounts written as strings or numbers,
//! a `Retry-After`, and a pair's rate and network fee from two quotes.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::RwLock;
use std::time::{Duration, Instant};

use rust_decimal::Decimal;
use serde::Deserialize;
use serde_json::Value;

use super::{Availability, PairMarket, ProviderError};
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

/// What an upstream's list says it trades: per currency (by the upstream's own key), whether it
/// takes deposits of it and pays it out.
pub struct Listing<K> {
    listed: RwLock<HashMap<K, (bool, bool)>>,
}

impl<K> Default for Listing<K> {
    fn default() -> Self {
        Listing {
            listed: RwLock::default(),
        }
    }
}

impl<K: std::hash::Hash + Eq> Listing<K> {
    /// The list as the upstream gives it now; how many it lists.
    pub fn replace(&self, listed: HashMap<K, (bool, bool)>) -> usize {
        let count = listed.len();
        *self.listed.write().expect("listing lock") = listed;
        count
    }

    /// A currency's state there: in maintenance on the sides it does not take, and on both when
    /// it is not listed (or has no name there); before the first list, open.
    pub fn availability(&self, key: Option<K>) -> Availability {
        let listed = self.listed.read().expect("listing lock");
        match key.and_then(|key| listed.get(&key).copied()) {
            Some((deposits, payouts)) => Availability {
                deposit_maintenance: !deposits,
                payout_maintenance: !payouts,
            },
            None if listed.is_empty() => Availability::default(),
            None => Availability {
                deposit_maintenance: true,
                payout_maintenance: true,
            },
        }
    }
}

/// How long a currency's dollar price, from an upstream's own quotes, is reused.
const USD_TTL: Duration = Duration::from_secs(600);
/// What a dollar price is asked for: enough that the stablecoin's network fee hardly counts
/// (two quotes take it out anyway).
pub const USD_PROBE: Decimal = Decimal::from_parts(1_000, 0, 0, false, 0);
/// Coins worth a dollar.
const DOLLARS: [&str; 5] = ["USDT", "USDC", "DAI", "FDUSD", "PYUSD"];

/// Dollar prices an upstream gave (its quotes into USDT): what orders are worth in the books
/// (volumes, commissions), not the catalogue's sample figures.
#[derive(Default)]
pub struct UsdCache {
    prices: RwLock<HashMap<String, (Instant, Decimal)>>,
}

impl UsdCache {
    /// One unit of `currency` in dollars: `derive`'s, reused for a while; the last one known,
    /// or the catalogue's reference, while the upstream cannot say.
    pub async fn price(
        &self,
        currency: &Currency,
        derive: impl Future<Output = Result<Decimal, ProviderError>>,
    ) -> Decimal {
        if DOLLARS.contains(&currency.coin.as_str()) {
            return Decimal::ONE;
        }
        let known = self.known(currency);
        if let Some((at, usd)) = known
            && at.elapsed() < USD_TTL
        {
            return usd;
        }
        match derive.await {
            Ok(usd) if usd > Decimal::ZERO => {
                self.prices
                    .write()
                    .expect("usd lock")
                    .insert(currency.code.clone(), (Instant::now(), usd));
                usd
            }
            outcome => {
                let why = outcome.map_or_else(|e| e.to_string(), |_| "no price".to_owned());
                tracing::warn!(currency = %currency.code, error = %why, "no dollar price from the upstream");
                known.map_or(currency.usd, |(_, usd)| usd)
            }
        }
    }

    fn known(&self, currency: &Currency) -> Option<(Instant, Decimal)> {
        self.prices
            .read()
            .expect("usd lock")
            .get(&currency.code)
            .copied()
    }

    /// The last dollar price known, for what asks without waiting.
    pub fn last(&self, currency: &Currency) -> Option<Decimal> {
        if DOLLARS.contains(&currency.coin.as_str()) {
            return Some(Decimal::ONE);
        }
        self.known(currency).map(|(_, usd)| usd)
    }
}

/// The dollar price of one unit from two quotes of `amount` and twice it into USDT (which
/// takes the network fee out); `quote` answers what `amount` of `currency` brings in USDT.
pub async fn usd_from_quotes<F, Fut>(
    currency: &Currency,
    quote: F,
) -> Result<Decimal, ProviderError>
where
    F: Fn(Decimal) -> Fut,
    Fut: Future<Output = Result<Decimal, ProviderError>>,
{
    let amount = crate::domain::money::round_down(
        USD_PROBE / currency.usd.max(Decimal::new(1, 8)),
        currency.precision,
    );
    if amount <= Decimal::ZERO {
        return Err(ProviderError::Unavailable("no amount to price".into()));
    }
    let (first, second) =
        futures_util::future::join(quote(amount), quote(amount * Decimal::TWO)).await;
    let (usd, _) = two_point_market((amount, first?), (amount * Decimal::TWO, second?));
    if usd <= Decimal::ZERO {
        return Err(ProviderError::Unavailable("no dollar price".into()));
    }
    Ok(usd)
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
