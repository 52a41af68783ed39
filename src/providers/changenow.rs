//! An upstream provider spoken to over the ChangeNOW API v2 (`docs/upstreams/`): the customer
//! pays ChangeNOW's deposit address and ChangeNOW pays the customer; Ferry never holds the funds.
//!
//! ChangeNOW credits its partners per API key (the commission is set on the partner account),
//! not per order: Ferry's fee is the share that account is set to. So that Ferry's quote is what
//! ChangeNOW pays, the market priced here is ChangeNOW's estimate with Ferry's fee put back on.

use std::collections::HashMap;
use std::time::Duration;

use async_trait::async_trait;
use rust_decimal::Decimal;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::wire::{
    Listing, MarketCache, UsdCache, decimal, optional_decimal, retry_after, two_point_market,
    usd_from_quotes,
};
use super::{
    Availability, LiquidityProvider, OpenedOrder, OrderRequest, PairMarket, ProviderError,
    UpstreamOrder, UpstreamRef, UpstreamState,
};
use crate::domain::calendar::unix_of_rfc3339;
use crate::domain::currency::Currency;
use crate::domain::fees::{Direction, FeeSchedule, RateType};
use crate::domain::money::{round_down, round_up, to_wire};
use crate::domain::order::{EmergencyChoice, EmergencyReason, OrderStatus};
use crate::domain::transaction::{OrderTransactions, Transaction};
use crate::limits::{Budget, SharedCounter};

/// What creating an order weighs in the request budget (as at FixedFloat, so that one caller's
/// share of orders is as small); every other call weighs 1.
const CREATE_WEIGHT: u32 = super::fixedfloat::CREATE_WEIGHT;
/// The USD value the first estimate of a pair asks for.
const PROBE_USD: Decimal = Decimal::from_parts(100, 0, 0, false, 0);
/// The largest order, in USD, Ferry sends to a pair ChangeNOW gives no maximum for.
const NO_MAX_USD: Decimal = Decimal::from_parts(1_000_000, 0, 0, false, 0);
/// ChangeNOW's error codes for a pair it does not trade (now): not an outage, so they do not
/// count towards pausing ChangeNOW for everyone.
const PAIR_REFUSALS: [&str; 3] = [
    "not_valid_params",
    "pair_is_inactive",
    "not_valid_fixed_rate_pair",
];
/// ChangeNOW's error codes for a request it understood and refused (an address, an amount, a
/// rate that expired, an action not possible now): the customer's to hear, not a failure.
const REFUSALS: [&str; 9] = [
    "not_valid_address",
    "not_valid_refund_address",
    "not_valid_extra_id",
    "out_of_range",
    "deposit_too_small",
    "max_amount_exceeded",
    "rate_id_not_found_or_expired",
    "fixed_rate_not_enabled",
    "not_available",
];

pub struct ChangeNowConfig {
    /// The name it has in `FERRY_PROVIDERS`.
    pub name: &'static str,
    /// The API's base, without `/v2` (`https://api.changenow.io`).
    pub base_url: String,
    pub key: SecretString,
    pub timeout: Duration,
    pub calls_per_minute: u32,
    pub shared_limits: Option<std::sync::Arc<SharedCounter>>,
    /// Ferry's fees, which the partner account's commission stands for.
    pub fees: FeeSchedule,
}

pub struct ChangeNow {
    config: ChangeNowConfig,
    client: reqwest::Client,
    /// `x-changenow-api-key`, marked sensitive so that no debug output shows it.
    key: reqwest::header::HeaderValue,
    /// By ChangeNOW's `(ticker, network)`.
    currencies: Listing<(String, String)>,
    markets: MarketCache,
    /// Dollar prices from ChangeNOW's estimates into USDT.
    usd: UsdCache,
    budget: Budget<()>,
}

/// How ChangeNOW names a currency of Ferry's catalogue: the coin's ticker and its network, both
/// lower case, where its network ids differ from Ferry's (edge-exchange-plugins' mapping).
pub fn changenow_ids(currency: &Currency) -> Option<(String, String)> {
    let network = match currency.network.as_str() {
        // Lightning is not a ChangeNOW network.
        "LN" => return None,
        "POL" => "matic".to_owned(),
        "ARB" => "arbitrum".to_owned(),
        other => other.to_ascii_lowercase(),
    };
    Some((currency.coin.to_ascii_lowercase(), network))
}

fn flow(rate_type: RateType) -> &'static str {
    match rate_type {
        RateType::Float => "standard",
        RateType::Fixed => "fixed-rate",
    }
}

impl ChangeNow {
    pub fn new(config: ChangeNowConfig) -> anyhow::Result<ChangeNow> {
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .user_agent(concat!("ferry/", env!("CARGO_PKG_VERSION")))
            .build()?;
        let mut key = reqwest::header::HeaderValue::from_str(config.key.expose_secret().trim())
            .map_err(|_| {
                anyhow::anyhow!("the ChangeNOW key has characters a header cannot carry")
            })?;
        key.set_sensitive(true);
        Ok(ChangeNow {
            key,
            budget: Budget::per_minute(config.calls_per_minute, 1)
                .shared(config.shared_limits.as_ref(), config.name),
            config,
            client,
            currencies: Listing::default(),
            markets: MarketCache::default(),
            usd: UsdCache::default(),
        })
    }

    fn url(&self, path: &str) -> String {
        format!("{}/v2/{path}", self.config.base_url.trim_end_matches('/'))
    }

    async fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<T, ProviderError> {
        self.send(path, 1, self.client.get(self.url(path)).query(query))
            .await
    }

    async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        weight: u32,
        body: &Value,
    ) -> Result<T, ProviderError> {
        self.send(path, weight, self.client.post(self.url(path)).json(body))
            .await
    }

    /// One call with the key; its answer, else why not. A call the budget has no room for is
    /// not made; ChangeNOW saying "too many" is back-pressure, not a failure.
    async fn send<T: DeserializeOwned>(
        &self,
        path: &str,
        weight: u32,
        request: reqwest::RequestBuilder,
    ) -> Result<T, ProviderError> {
        self.budget
            .take_weight(&(), weight)
            .await
            .map_err(|wait| ProviderError::Busy(wait.seconds()))?;
        let response = request
            .header("x-changenow-api-key", self.key.clone())
            .send()
            .await
            // reqwest's message names the URL, never the headers: the key stays out.
            .map_err(|e| ProviderError::Unavailable(format!("{path}: {e}")))?;
        let status = response.status();
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            return Err(ProviderError::Busy(retry_after(response.headers())));
        }
        if status.is_success() {
            return response
                .json()
                .await
                .map_err(|e| ProviderError::Unavailable(format!("{path}: {e}")));
        }
        let refusal: ErrorAnswer = response.json().await.unwrap_or_default();
        let message = refusal
            .message
            .filter(|m| !m.trim().is_empty())
            .unwrap_or_else(|| format!("HTTP {}", status.as_u16()));
        match refusal.error.as_deref() {
            Some(code) if status.is_client_error() && REFUSALS.contains(&code) => {
                Err(ProviderError::Rejected(message))
            }
            Some(code) if status.is_client_error() && PAIR_REFUSALS.contains(&code) => {
                Err(ProviderError::UnknownCurrency(message))
            }
            code => Err(ProviderError::Unavailable(format!(
                "{path}: {} {}: {message}",
                status.as_u16(),
                code.unwrap_or("error")
            ))),
        }
    }

    fn ids(&self, currency: &Currency) -> Result<(String, String), ProviderError> {
        changenow_ids(currency).ok_or_else(|| ProviderError::UnknownCurrency(currency.code.clone()))
    }

    /// The query naming a pair and a flow, as range and estimate take it.
    fn pair_query(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Result<Vec<(&'static str, String)>, ProviderError> {
        let (from_ticker, from_network) = self.ids(from)?;
        let (to_ticker, to_network) = self.ids(to)?;
        Ok(vec![
            ("fromCurrency", from_ticker),
            ("toCurrency", to_ticker),
            ("fromNetwork", from_network),
            ("toNetwork", to_network),
            ("flow", flow(rate_type).to_owned()),
        ])
    }

    async fn estimate(
        &self,
        pair: (&Currency, &Currency, RateType),
        direction: Direction,
        amount: Decimal,
        with_rate_id: bool,
    ) -> Result<Estimate, ProviderError> {
        let (from, to, rate_type) = pair;
        let mut query = self.pair_query(from, to, rate_type)?;
        let (kind, field) = match direction {
            Direction::From => ("direct", "fromAmount"),
            Direction::To => ("reverse", "toAmount"),
        };
        query.push(("type", kind.to_owned()));
        query.push((field, to_wire(amount)));
        if with_rate_id {
            query.push(("useRateId", "true".to_owned()));
        }
        self.get("exchange/estimated-amount", &query).await
    }

    /// One unit of `currency` in USDT, by ChangeNOW's estimate for `amount` of it.
    async fn usdt_for(
        &self,
        currency: &Currency,
        amount: Decimal,
    ) -> Result<Decimal, ProviderError> {
        let usdt = crate::domain::currency::Catalogue::embedded()
            .get("USDT")
            .ok_or_else(|| ProviderError::UnknownCurrency("USDT".into()))?;
        self.estimate(
            (currency, usdt, RateType::Float),
            Direction::From,
            amount,
            false,
        )
        .await?
        .to_amount()
    }

    async fn usd_of(&self, currency: &Currency) -> Decimal {
        self.usd
            .price(
                currency,
                usd_from_quotes(currency, |amount| self.usdt_for(currency, amount)),
            )
            .await
    }

    /// Derives the pair's market from its range and two estimates: ChangeNOW pays
    /// `to = amount × rate − network fee`, so two amounts give both.
    async fn derive_market(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Result<PairMarket, ProviderError> {
        let pair = (from, to, rate_type);
        let range: Range = self
            .get("exchange/range", &self.pair_query(from, to, rate_type)?)
            .await?;
        // The catalogue's reference price sizes the probes and an open-ended maximum.
        let reference = from.usd.max(Decimal::new(1, 8));
        // Rounded up to what Ferry writes: a customer typing the minimum shown is not below it.
        let min = round_up(range.min_amount, from.precision);
        let max = range
            .max_amount
            .unwrap_or_else(|| round_down(NO_MAX_USD / reference, from.precision));
        if max <= Decimal::ZERO || min > max {
            return Err(ProviderError::Unavailable(format!(
                "{} → {} has no limits at ChangeNOW",
                from.code, to.code
            )));
        }
        let first_amount = round_down(PROBE_USD / reference, from.precision).clamp(min, max);
        let second_amount = (first_amount * Decimal::TWO).min(max);
        // Both at once: the call's deadline covers the range and one round of estimates.
        let (first, second) = futures_util::future::join(
            self.estimate(pair, Direction::From, first_amount, false),
            async {
                if second_amount > first_amount {
                    Some(
                        self.estimate(pair, Direction::From, second_amount, false)
                            .await,
                    )
                } else {
                    None
                }
            },
        )
        .await;
        let first = first?.to_amount()?;
        let (rate, network_fee) = match second {
            Some(second) => {
                two_point_market((first_amount, first), (second_amount, second?.to_amount()?))
            }
            None => (first / first_amount, Decimal::ZERO),
        };
        if rate <= Decimal::ZERO {
            return Err(ProviderError::Unavailable(format!(
                "{} → {} has no rate at ChangeNOW",
                from.code, to.code
            )));
        }
        // Ferry's fee comes off again in the quote: put back, the quote is ChangeNOW's figure.
        let keep = Decimal::ONE - self.config.fees.percent(rate_type) / Decimal::ONE_HUNDRED;
        let rate = if keep > Decimal::ZERO {
            rate / keep
        } else {
            rate
        };
        let (from_usd, to_usd) =
            futures_util::future::join(self.usd_of(from), self.usd_of(to)).await;
        Ok(PairMarket {
            rate,
            from_usd,
            to_usd,
            min_from: min,
            max_from: max,
            // ChangeNOW publishes no reserve: its maximum is the limit.
            reserve_to: max * rate,
            network_fee_to: network_fee,
        })
    }
}

#[async_trait]
impl LiquidityProvider for ChangeNow {
    fn name(&self) -> &'static str {
        self.config.name
    }

    fn is_remote(&self) -> bool {
        true
    }

    fn carries_partner_markup(&self) -> bool {
        false
    }

    async fn refresh_currencies(&self) -> Result<usize, ProviderError> {
        let list: Vec<ListedCurrency> = self
            .get("exchange/currencies", &[("active", "true".to_owned())])
            .await?;
        let map: HashMap<_, _> = list
            .into_iter()
            .filter(|c| c.is_fiat != Some(true))
            .map(|c| {
                (
                    (
                        c.ticker.to_ascii_lowercase(),
                        c.network.to_ascii_lowercase(),
                    ),
                    // It buys what the customer sends and sells what the customer gets.
                    (c.buy == Some(true), c.sell == Some(true)),
                )
            })
            .collect();
        Ok(self.currencies.replace(map))
    }

    fn availability(&self, currency: &Currency) -> Availability {
        self.currencies.availability(changenow_ids(currency))
    }

    fn reference_usd(&self, currency: &Currency) -> Option<Decimal> {
        self.usd.last(currency)
    }

    async fn market(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Result<PairMarket, ProviderError> {
        self.markets
            .get_or_derive(
                (from, to, rate_type),
                self.derive_market(from, to, rate_type),
            )
            .await
    }

    fn last_market(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Option<PairMarket> {
        self.markets.last_good(from, to, rate_type)
    }

    /// A float order sends the amount to deposit; a fixed one first freezes an estimate for
    /// the order's amount (its `rateId`) and creates the order with it at once.
    async fn open_order(&self, request: &OrderRequest<'_>) -> Result<OpenedOrder, ProviderError> {
        if request.partner_markup {
            return Err(ProviderError::Rejected(super::routed::NO_MARKUP.into()));
        }
        let (from_ticker, from_network) = self.ids(request.from)?;
        let (to_ticker, to_network) = self.ids(request.to)?;
        let mut body = json!({
            "fromCurrency": from_ticker,
            "fromNetwork": from_network,
            "toCurrency": to_ticker,
            "toNetwork": to_network,
            "address": request.to_address,
            "extraId": request.to_tag.unwrap_or_default(),
            "refundAddress": request.refund_address.unwrap_or_default(),
            "refundExtraId": request.refund_tag.unwrap_or_default(),
            "flow": flow(request.rate_type),
        });
        let mut valid_until = None;
        match request.rate_type {
            RateType::Float => {
                body["type"] = json!("direct");
                body["fromAmount"] = json!(to_wire(request.send_amount));
            }
            RateType::Fixed => {
                let pair = (request.from, request.to, request.rate_type);
                let frozen = self
                    .estimate(pair, request.direction, request.amount, true)
                    .await?;
                let Some(rate_id) = frozen.rate_id.filter(|id| !id.is_empty()) else {
                    return Err(ProviderError::Unavailable(
                        "ChangeNOW froze no rate for a fixed order".into(),
                    ));
                };
                valid_until = frozen.valid_until.as_deref().and_then(unix_of_rfc3339);
                let (kind, field) = match request.direction {
                    Direction::From => ("direct", "fromAmount"),
                    Direction::To => ("reverse", "toAmount"),
                };
                body["type"] = json!(kind);
                body[field] = json!(to_wire(request.amount));
                body["rateId"] = json!(rate_id);
            }
        }
        let created: Created = self.post("exchange", CREATE_WEIGHT, &body).await?;
        let (Some(from_amount), Some(to_amount)) = (created.from_amount, created.to_amount) else {
            return Err(ProviderError::Unavailable(format!(
                "ChangeNOW's order {} came without its amounts",
                created.id
            )));
        };
        let expires_at = created
            .valid_until
            .as_deref()
            .and_then(unix_of_rfc3339)
            .or(valid_until)
            // A float order has no deadline at ChangeNOW: Ferry's own window stands.
            .unwrap_or_else(|| crate::now_unix() + request.deposit_seconds);
        Ok(OpenedOrder {
            provider: self.name(),
            deposit_address: created.payin_address,
            deposit_tag: created.payin_extra_id.filter(|t| !t.trim().is_empty()),
            upstream: Some(UpstreamOrder {
                id: created.id,
                // ChangeNOW knows an order by its id and Ferry's key alone.
                token: String::new(),
                from_amount,
                to_amount,
                expires_at,
            }),
        })
    }

    async fn order_state(&self, order: &UpstreamRef<'_>) -> Result<UpstreamState, ProviderError> {
        let exchange: Exchange = self
            .get("exchange/by-id", &[("id", order.id.to_owned())])
            .await?;
        exchange.state(crate::now_unix())
    }

    /// Continue calls `continue`; a refund calls `refund` with the address (ChangeNOW's refund
    /// takes no memo: one given is refused rather than dropped).
    async fn choose(
        &self,
        order: &UpstreamRef<'_>,
        choice: EmergencyChoice,
        refund: Option<(&str, Option<&str>)>,
    ) -> Result<(), ProviderError> {
        let answer = match self.act(order, choice, refund).await {
            Ok(answer) => answer,
            // Asked again while ChangeNOW carries the choice out: it no longer offers it.
            Err(ProviderError::Rejected(reason)) => {
                let now: Exchange = self
                    .get("exchange/by-id", &[("id", order.id.to_owned())])
                    .await?;
                if now.status != "failed" || !now.actions_available {
                    return Ok(());
                }
                return Err(ProviderError::Rejected(reason));
            }
            Err(other) => return Err(other),
        };
        if answer.accepted() {
            Ok(())
        } else {
            Err(ProviderError::Unavailable(format!(
                "ChangeNOW did not confirm the {} of order {}",
                choice.as_str(),
                order.id
            )))
        }
    }
}

impl ChangeNow {
    /// The call that carries `choice` out.
    async fn act(
        &self,
        order: &UpstreamRef<'_>,
        choice: EmergencyChoice,
        refund: Option<(&str, Option<&str>)>,
    ) -> Result<ActionAnswer, ProviderError> {
        Ok(match (choice, refund) {
            (EmergencyChoice::Exchange, _) => {
                self.post("exchange/continue", 1, &json!({ "id": order.id }))
                    .await?
            }
            (EmergencyChoice::Refund, Some((_, Some(tag)))) if !tag.trim().is_empty() => {
                return Err(ProviderError::Rejected(
                    "ChangeNOW refunds to an address without a memo".into(),
                ));
            }
            (EmergencyChoice::Refund, Some((address, _))) => {
                self.post(
                    "exchange/refund",
                    1,
                    &json!({ "id": order.id, "address": address }),
                )
                .await?
            }
            // To the refund address given with the order, or back where the deposit came from.
            (EmergencyChoice::Refund, None) => {
                self.post("exchange/refund", 1, &json!({ "id": order.id }))
                    .await?
            }
        })
    }
}

// ---- the wire ----

#[derive(Deserialize, Default)]
struct ErrorAnswer {
    error: Option<String>,
    message: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ListedCurrency {
    ticker: String,
    network: String,
    #[serde(default)]
    is_fiat: Option<bool>,
    #[serde(default)]
    buy: Option<bool>,
    #[serde(default)]
    sell: Option<bool>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Range {
    #[serde(deserialize_with = "decimal")]
    min_amount: Decimal,
    #[serde(default, deserialize_with = "optional_decimal")]
    max_amount: Option<Decimal>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Estimate {
    #[serde(default, deserialize_with = "optional_decimal")]
    to_amount: Option<Decimal>,
    #[serde(default)]
    rate_id: Option<String>,
    #[serde(default)]
    valid_until: Option<String>,
}

impl Estimate {
    fn to_amount(&self) -> Result<Decimal, ProviderError> {
        self.to_amount
            .filter(|a| *a > Decimal::ZERO)
            .ok_or_else(|| ProviderError::Unavailable("ChangeNOW estimated nothing".into()))
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Created {
    id: String,
    #[serde(default, deserialize_with = "optional_decimal")]
    from_amount: Option<Decimal>,
    #[serde(default, deserialize_with = "optional_decimal")]
    to_amount: Option<Decimal>,
    payin_address: String,
    #[serde(default)]
    payin_extra_id: Option<String>,
    #[serde(default)]
    valid_until: Option<String>,
}

/// `continue` answers `{"result": {"result": true, …}}`, `refund` `{"result": true}`.
#[derive(Deserialize)]
struct ActionAnswer {
    result: Value,
}

impl ActionAnswer {
    fn accepted(&self) -> bool {
        match &self.result {
            Value::Bool(done) => *done,
            Value::Object(inner) => inner.get("result") == Some(&Value::Bool(true)),
            _ => false,
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Exchange {
    id: String,
    status: String,
    #[serde(default)]
    actions_available: bool,
    #[serde(default)]
    flow: Option<String>,
    #[serde(default)]
    valid_until: Option<String>,
    #[serde(default)]
    updated_at: Option<String>,
    #[serde(default)]
    deposit_received_at: Option<String>,
    #[serde(default, deserialize_with = "optional_decimal")]
    expected_amount_from: Option<Decimal>,
    #[serde(default, deserialize_with = "optional_decimal")]
    expected_amount_to: Option<Decimal>,
    #[serde(default, deserialize_with = "optional_decimal")]
    amount_from: Option<Decimal>,
    #[serde(default, deserialize_with = "optional_decimal")]
    amount_to: Option<Decimal>,
    #[serde(default, deserialize_with = "optional_decimal")]
    refund_amount: Option<Decimal>,
    #[serde(default)]
    payin_hash: Option<String>,
    #[serde(default)]
    payout_hash: Option<String>,
    #[serde(default)]
    refund_hash: Option<String>,
}

impl Exchange {
    /// The order in Ferry's terms (the table in `docs/upstreams/status-mapping.md`).
    fn state(&self, now: i64) -> Result<UpstreamState, ProviderError> {
        let mut problem = None;
        let status = match self.status.as_str() {
            "new" | "waiting" => OrderStatus::New,
            "confirming" => OrderStatus::Confirming,
            "exchanging" => OrderStatus::Exchange,
            // Held for a check of the funds' origin: the deposit is being looked at, and what
            // follows may still ask the customer (an order moved past CONFIRMING stays where
            // it is). The operator sees ChangeNOW's word.
            "verifying" => {
                tracing::warn!(upstream.order = %self.id, "ChangeNOW holds the order for verification");
                if self.amount_from.is_some() || self.payin_hash.is_some() {
                    OrderStatus::Confirming
                } else {
                    OrderStatus::New
                }
            }
            "sending" => OrderStatus::Sending,
            "finished" => OrderStatus::Completed,
            "refunded" => OrderStatus::Refunded,
            "expired" => OrderStatus::Expired,
            "failed" if self.actions_available => {
                problem = Some(self.problem(now));
                OrderStatus::Emergency
            }
            "failed" => OrderStatus::Failed,
            other => {
                return Err(ProviderError::Unavailable(format!(
                    "ChangeNOW order {}: unknown status {other:?}",
                    self.id
                )));
            }
        };
        let raw_status = if self.actions_available {
            format!("{} [actions available]", self.status)
        } else {
            self.status.clone()
        };
        let time = |text: &Option<String>| text.as_deref().and_then(unix_of_rfc3339);
        let updated = time(&self.updated_at).unwrap_or(now);
        let transaction = |hash: &Option<String>, amount: Option<Decimal>, at: i64| {
            let id = hash.as_deref().map(str::trim).filter(|h| !h.is_empty())?;
            Some(Transaction {
                id: id.to_owned(),
                amount: amount?,
                fee: None,
                confirmations: None,
                at,
            })
        };
        let finished = status == OrderStatus::Completed;
        Ok(UpstreamState {
            status,
            raw_status,
            problem,
            received: self.amount_from,
            to_amount: self.amount_to.or(self.expected_amount_to),
            paid_out: self.amount_to.filter(|_| finished),
            choice: (status == OrderStatus::Refunded).then_some(EmergencyChoice::Refund),
            transactions: OrderTransactions {
                deposit: transaction(
                    &self.payin_hash,
                    self.amount_from,
                    time(&self.deposit_received_at).unwrap_or(updated),
                ),
                payout: transaction(&self.payout_hash, self.amount_to, updated),
                // What went back, or else all that arrived.
                refund: transaction(
                    &self.refund_hash,
                    self.refund_amount.or(self.amount_from),
                    updated,
                ),
            },
        })
    }

    /// Why a failed order waits for the customer. A fixed rate holds for one amount until a
    /// time: the amount that arrived against it, or the time that ran out. A float order takes
    /// any amount within the pair's limits: it waits because of them.
    fn problem(&self, now: i64) -> EmergencyReason {
        let fixed = self.flow.as_deref() == Some("fixed-rate");
        if !fixed {
            return EmergencyReason::Limit;
        }
        if let (Some(arrived), Some(ordered)) = (self.amount_from, self.expected_amount_from) {
            if arrived < ordered {
                return EmergencyReason::Less;
            }
            if arrived > ordered {
                return EmergencyReason::More;
            }
        }
        let late = self
            .valid_until
            .as_deref()
            .and_then(unix_of_rfc3339)
            .is_some_and(|until| until < now);
        if late {
            EmergencyReason::Expired
        } else {
            EmergencyReason::Limit
        }
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    fn exchange(status: &str, actions: bool, from: Option<f64>) -> Exchange {
        exchange_at("fixed-rate", status, actions, from)
    }

    fn exchange_at(flow: &str, status: &str, actions: bool, from: Option<f64>) -> Exchange {
        serde_json::from_value(json!({
            "id": "a1b2c3", "status": status, "actionsAvailable": actions,
            "fromCurrency": "btc", "fromNetwork": "btc", "toCurrency": "eth", "toNetwork": "eth",
            "flow": flow, "type": "direct", "validUntil": "2026-11-27T10:20:00.000Z",
            "expectedAmountFrom": 0.1, "expectedAmountTo": 2.79812,
            "amountFrom": from, "amountTo": null,
            "payinAddress": "bc1qpayin", "payoutAddress": "0x5a", "payinExtraId": null,
            "payinHash": from.map(|_| "f1"), "payoutHash": null, "refundHash": null,
            "refundAmount": null, "createdAt": "2026-11-27T10:00:00.000Z",
            "updatedAt": "2026-11-27T10:05:00.000Z", "depositReceivedAt": null
        }))
        .unwrap()
    }

    #[test]
    fn every_changenow_status_reads_as_a_ferry_status() {
        let cases = [
            ("new", false, None, OrderStatus::New),
            ("waiting", false, None, OrderStatus::New),
            ("confirming", false, Some(0.1), OrderStatus::Confirming),
            ("exchanging", false, Some(0.1), OrderStatus::Exchange),
            ("verifying", false, None, OrderStatus::New),
            ("verifying", false, Some(0.1), OrderStatus::Confirming),
            ("sending", false, Some(0.1), OrderStatus::Sending),
            ("finished", false, Some(0.1), OrderStatus::Completed),
            ("refunded", false, Some(0.1), OrderStatus::Refunded),
            ("expired", false, None, OrderStatus::Expired),
            ("failed", false, Some(0.1), OrderStatus::Failed),
            ("failed", true, Some(0.05), OrderStatus::Emergency),
        ];
        for (status, actions, from, expected) in cases {
            let state = exchange(status, actions, from).state(0).unwrap();
            assert_eq!(state.status, expected, "{status} {actions}");
        }
        assert!(
            exchange("lost", false, None).state(0).is_err(),
            "held, not guessed"
        );
    }

    #[test]
    fn a_failed_order_with_actions_says_why_from_its_amounts() {
        let short = exchange("failed", true, Some(0.05)).state(0).unwrap();
        assert_eq!(short.problem, Some(EmergencyReason::Less));
        assert_eq!(short.raw_status, "failed [actions available]");
        assert_eq!(short.received, Some(dec("0.05")));
        assert_eq!(short.transactions.deposit.unwrap().amount, dec("0.05"));
        let more = exchange("failed", true, Some(0.2)).state(0).unwrap();
        assert_eq!(more.problem, Some(EmergencyReason::More));
        let exact = exchange("failed", true, Some(0.1)).state(0).unwrap();
        assert_eq!(exact.problem, Some(EmergencyReason::Limit));
        let late = crate::domain::calendar::unix_of_rfc3339("2026-11-27T10:21:00Z").unwrap();
        let expired = exchange("failed", true, Some(0.1)).state(late).unwrap();
        assert_eq!(expired.problem, Some(EmergencyReason::Expired));
        // A float order takes any amount within the limits: it fails because of them.
        let float = exchange_at("standard", "failed", true, Some(0.05))
            .state(0)
            .unwrap();
        assert_eq!(float.problem, Some(EmergencyReason::Limit));
    }

    #[test]
    fn a_refund_without_its_amount_is_all_that_arrived_and_a_deposit_keeps_its_time() {
        let mut refunded = exchange("refunded", false, Some(0.05));
        refunded.refund_hash = Some("r1".into());
        refunded.deposit_received_at = Some("2026-11-27T10:01:00.000Z".into());
        let state = refunded.state(0).unwrap();
        assert_eq!(state.choice, Some(EmergencyChoice::Refund));
        assert_eq!(state.transactions.refund.unwrap().amount, dec("0.05"));
        let deposit = state.transactions.deposit.unwrap();
        assert_eq!(Some(deposit.at), unix_of_rfc3339("2026-11-27T10:01:00Z"));
    }

    #[test]
    fn a_currency_list_with_nulls_is_read() {
        let list: Vec<ListedCurrency> = serde_json::from_value(json!([
            { "ticker": "btc", "network": "btc", "buy": true, "sell": null, "isFiat": null },
            { "ticker": "usd", "network": "usd", "isFiat": true }
        ]))
        .unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!((list[0].buy, list[0].sell), (Some(true), None));
    }

    #[test]
    fn ferry_names_its_currencies_as_changenow_does() {
        let catalogue = crate::domain::currency::Catalogue::embedded();
        let ids = |code: &str| changenow_ids(catalogue.get(code).unwrap());
        assert_eq!(ids("BTC"), Some(("btc".into(), "btc".into())));
        assert_eq!(ids("USDTTRC"), Some(("usdt".into(), "trx".into())));
        assert_eq!(ids("USDTBSC"), Some(("usdt".into(), "bsc".into())));
        assert_eq!(ids("USDTPOL"), Some(("usdt".into(), "matic".into())));
        assert_eq!(ids("USDCARB"), Some(("usdc".into(), "arbitrum".into())));
        assert_eq!(ids("BTCLN"), None);
    }

    #[test]
    fn both_forms_of_an_actions_answer_are_read() {
        let refund: ActionAnswer = serde_json::from_value(json!({ "result": true })).unwrap();
        assert!(refund.accepted());
        let continued: ActionAnswer = serde_json::from_value(json!({
            "result": { "result": true, "data": { "estimate": { "amount": 48.46847508, "currency": "trx", "network": "trx" } } }
        }))
        .unwrap();
        assert!(continued.accepted());
        let no: ActionAnswer = serde_json::from_value(json!({ "result": false })).unwrap();
        assert!(!no.accepted());
    }
}
