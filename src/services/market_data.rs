//! Market data for the markets page (spec/accounts-and-pages.md §2.3, §3): live from a
//! CoinGecko-compatible API when the operator configures one, refreshed on a schedule, the
//! last good answer kept in the database so a restart or an outage never blanks the page;
//! otherwise the embedded sample snapshot, labelled with its date.
//!
//! These are display figures from a third party, never used to price an order: they stay
//! floating-point as the source sends them.

use std::sync::{Arc, RwLock};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::store::{DynStore, StoreError};

const SNAPSHOT: &str = include_str!("../../catalogue/market-snapshot.json");
const LIVE_SOURCE: &str = "coingecko";
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);
/// Coins asked for per refresh (one page of the source).
const PER_PAGE: u32 = 100;

/// One coin, with CoinGecko's field names (the web client reads them as they are).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Coin {
    pub id: String,
    pub symbol: String,
    pub name: String,
    #[serde(default)]
    pub image: Option<String>,
    #[serde(default)]
    pub market_cap_rank: Option<u32>,
    #[serde(default)]
    pub current_price: Option<f64>,
    #[serde(default)]
    pub price_change_percentage_24h: Option<f64>,
    #[serde(default)]
    pub price_change_percentage_7d_in_currency: Option<f64>,
    #[serde(default)]
    pub market_cap: Option<f64>,
    #[serde(default)]
    pub total_volume: Option<f64>,
    #[serde(default)]
    pub circulating_supply: Option<f64>,
    #[serde(default)]
    pub sparkline_in_7d: Option<Sparkline>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Sparkline {
    pub price: Vec<f64>,
}

/// What `GET /api/coins` answers.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CoinList {
    /// `live` (from the configured source) or `sample` (the embedded snapshot).
    pub source: &'static str,
    /// For live data, when it was fetched (Unix seconds); for the sample, its date.
    pub fetched_at: Option<i64>,
    pub as_of: Option<String>,
    /// The last refresh failed: this is the last good data.
    pub stale: bool,
    pub coins: Vec<Coin>,
}

#[derive(Deserialize)]
struct Snapshot {
    as_of: String,
    coins: Vec<Coin>,
}

/// A CoinGecko-compatible source: its base URL (`…/api/v3`) and an optional key.
#[derive(Clone)]
pub struct LiveSource {
    pub base_url: String,
    pub api_key: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum MarketError {
    #[error("market source: {0}")]
    Source(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

pub struct MarketData {
    store: DynStore,
    live: Option<LiveSource>,
    http: reqwest::Client,
    current: RwLock<Arc<CoinList>>,
}

impl MarketData {
    /// Starts from the last good live data in the database (when a source is configured), or
    /// the sample snapshot.
    pub async fn new(store: DynStore, live: Option<LiveSource>) -> Result<MarketData, StoreError> {
        let mut current = sample();
        if live.is_some()
            && let Some((fetched_at, body)) = store.market_data(LIVE_SOURCE).await?
            && let Ok(coins) = serde_json::from_str::<Vec<Coin>>(&body)
        {
            current = CoinList {
                source: "live",
                fetched_at: Some(fetched_at),
                as_of: None,
                stale: true,
                coins,
            };
        }
        Ok(MarketData {
            store,
            live,
            http: reqwest::Client::builder()
                .timeout(FETCH_TIMEOUT)
                .user_agent("Ferry")
                .build()
                .unwrap_or_default(),
            current: RwLock::new(Arc::new(current)),
        })
    }

    pub fn has_live_source(&self) -> bool {
        self.live.is_some()
    }

    pub fn current(&self) -> Arc<CoinList> {
        self.current.read().expect("market data lock").clone()
    }

    /// Fetches fresh data; on failure the last good data stays, marked stale. When another
    /// replica fetched recently (its data is in the database), that is used instead.
    pub async fn refresh(&self, now: i64, min_age: i64) -> Result<(), MarketError> {
        let Some(live) = &self.live else {
            return Ok(());
        };
        if let Some((fetched_at, body)) = self.store.market_data(LIVE_SOURCE).await?
            && now - fetched_at < min_age
            && self.current().fetched_at != Some(fetched_at)
            && let Ok(coins) = serde_json::from_str::<Vec<Coin>>(&body)
        {
            self.set(live_list(fetched_at, coins, false));
            return Ok(());
        }
        match self.fetch(live).await {
            Ok((coins, body)) => {
                self.store.save_market_data(LIVE_SOURCE, now, &body).await?;
                self.set(live_list(now, coins, false));
                Ok(())
            }
            Err(error) => {
                let mut kept = (*self.current()).clone();
                kept.stale = true;
                self.set(kept);
                Err(error)
            }
        }
    }

    async fn fetch(&self, live: &LiveSource) -> Result<(Vec<Coin>, String), MarketError> {
        let url = format!(
            "{}/coins/markets?vs_currency=usd&order=market_cap_desc&per_page={PER_PAGE}&page=1\
             &sparkline=true&price_change_percentage=24h,7d",
            live.base_url.trim_end_matches('/')
        );
        let mut request = self.http.get(&url).header("accept", "application/json");
        if let Some(key) = &live.api_key {
            // The demo and the pro plans read different headers; each ignores the other.
            request = request
                .header("x-cg-demo-api-key", key)
                .header("x-cg-pro-api-key", key);
        }
        let response = request
            .send()
            .await
            .map_err(|e| MarketError::Source(e.without_url().to_string()))?;
        if !response.status().is_success() {
            return Err(MarketError::Source(format!("HTTP {}", response.status())));
        }
        let coins: Vec<Coin> = response
            .json()
            .await
            .map_err(|e| MarketError::Source(format!("unreadable answer: {}", e.without_url())))?;
        if coins.is_empty() {
            return Err(MarketError::Source("an empty list".into()));
        }
        let body = serde_json::to_string(&coins).map_err(|e| MarketError::Source(e.to_string()))?;
        Ok((coins, body))
    }

    fn set(&self, list: CoinList) {
        *self.current.write().expect("market data lock") = Arc::new(list);
    }
}

fn live_list(fetched_at: i64, coins: Vec<Coin>, stale: bool) -> CoinList {
    CoinList {
        source: "live",
        fetched_at: Some(fetched_at),
        as_of: None,
        stale,
        coins,
    }
}

/// The embedded snapshot, labelled as the sample it is.
pub fn sample() -> CoinList {
    let snapshot: Snapshot =
        serde_json::from_str(SNAPSHOT).expect("the embedded market snapshot is valid");
    CoinList {
        source: "sample",
        fetched_at: None,
        as_of: Some(snapshot.as_of),
        stale: false,
        coins: snapshot.coins,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_sample_is_dated_ranked_and_complete() {
        let sample = super::sample();
        assert_eq!(sample.source, "sample");
        assert!(sample.as_of.is_some());
        assert!(sample.coins.len() >= 40);
        assert_eq!(sample.coins[0].symbol, "btc");
        assert_eq!(sample.coins[0].market_cap_rank, Some(1));
        for coin in &sample.coins {
            assert!(
                coin.current_price.is_some() && coin.market_cap.is_some(),
                "{}",
                coin.id
            );
            assert_eq!(
                coin.sparkline_in_7d.as_ref().map(|s| s.price.len()),
                Some(42),
                "{}",
                coin.id
            );
        }
    }
}
