//! An upstream provider spoken to over the SideShift.ai API v2 (`docs/upstreams/`): the customer
//! pays SideShift's deposit address and SideShift pays the customer; Ferry never holds the funds.
//!
//! Ferry's fee reaches it as SideShift's commission (`commissionRate`, a fraction, at most 2 %),
//! which SideShift takes off the rate it quotes; the market priced here puts it back on, so
//! that Ferry's quote, which takes the fee off again, is SideShift's figure. SideShift wants
//! the end customer's address on quotes and shifts (`x-user-ip`).

use std::collections::HashMap;
use std::net::IpAddr;
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

/// What creating a shift weighs in the request budget (SideShift allows 5 a minute per
/// address); every other call weighs 1.
const CREATE_WEIGHT: u32 = super::fixedfloat::CREATE_WEIGHT;
/// The USD value the first price of a pair asks for.
const PROBE_USD: Decimal = Decimal::from_parts(100, 0, 0, false, 0);
/// The most SideShift lets a partner take ("Commission rate cannot be higher than 0.02").
const MAX_COMMISSION: Decimal = Decimal::from_parts(2, 0, 0, false, 2);

pub struct SideShiftConfig {
    /// The name it has in `FERRY_PROVIDERS`.
    pub name: &'static str,
    /// The API's base, without `/api/v2` (`https://sideshift.ai`).
    pub base_url: String,
    /// The account id, sent as `affiliateId`.
    pub affiliate_id: String,
    /// The account's private key (`x-sideshift-secret`).
    pub secret: SecretString,
    pub timeout: Duration,
    pub weight_per_minute: u32,
    pub shared_limits: Option<std::sync::Arc<SharedCounter>>,
    /// Ferry's fees: SideShift's commission on each order.
    pub fees: FeeSchedule,
}

pub struct SideShift {
    config: SideShiftConfig,
    client: reqwest::Client,
    secret: reqwest::header::HeaderValue,
    /// `(deposit open, settle open)` by SideShift's `(COIN, network)`.
    coins: Listing<(String, String)>,
    markets: MarketCache,
    usd: UsdCache,
    budget: Budget<()>,
}

/// How SideShift names a currency of Ferry's catalogue: the coin, and its network id
/// (SideShift's docs and edge-exchange-plugins' mapping).
pub fn sideshift_ids(currency: &Currency) -> Option<(String, String)> {
    let network = match currency.network.as_str() {
        "BTC" => "bitcoin",
        "ETH" => "ethereum",
        "TRX" => "tron",
        "BSC" => "bsc",
        "SOL" => "solana",
        "TON" => "ton",
        "POL" => "polygon",
        "ARB" => "arbitrum",
        "OP" => "optimism",
        "BASE" => "base",
        "AVAXC" => "avax",
        "LTC" => "litecoin",
        "XMR" => "monero",
        "XRP" => "ripple",
        "XLM" => "stellar",
        "DOGE" => "doge",
        "BCH" => "bitcoincash",
        "ADA" => "cardano",
        "DASH" => "dash",
        // Paid out on-chain only; ZEC's shielded network wants another kind of address.
        _ => return None,
    };
    Some((currency.coin.to_ascii_uppercase(), network.to_owned()))
}

/// `coin-network`, as the pair path names a side.
fn path_id((coin, network): &(String, String)) -> String {
    format!("{}-{network}", coin.to_ascii_lowercase())
}

impl SideShift {
    pub fn new(config: SideShiftConfig) -> anyhow::Result<SideShift> {
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .user_agent(concat!("ferry/", env!("CARGO_PKG_VERSION")))
            .build()?;
        let mut secret =
            reqwest::header::HeaderValue::from_str(config.secret.expose_secret().trim()).map_err(
                |_| anyhow::anyhow!("the SideShift secret has characters a header cannot carry"),
            )?;
        secret.set_sensitive(true);
        Ok(SideShift {
            secret,
            budget: Budget::per_minute(config.weight_per_minute, 1)
                .shared(config.shared_limits.as_ref(), config.name),
            config,
            client,
            coins: Listing::default(),
            markets: MarketCache::default(),
            usd: UsdCache::default(),
        })
    }

    fn url(&self, path: &str) -> String {
        format!(
            "{}/api/v2/{path}",
            self.config.base_url.trim_end_matches('/')
        )
    }

    fn ids(&self, currency: &Currency) -> Result<(String, String), ProviderError> {
        sideshift_ids(currency).ok_or_else(|| ProviderError::UnknownCurrency(currency.code.clone()))
    }

    /// Ferry's fee as SideShift's commission (a fraction).
    fn commission(&self, fee_percent: Decimal) -> Result<Decimal, ProviderError> {
        let rate = fee_percent / Decimal::ONE_HUNDRED;
        if rate > MAX_COMMISSION {
            return Err(ProviderError::Rejected(
                "This pair cannot be ordered with this fee right now".into(),
            ));
        }
        Ok(rate.normalize())
    }

    /// One call with the secret (and the customer's address where SideShift wants it); its
    /// answer, else why not. A call the budget has no room for is not made.
    async fn send<T: DeserializeOwned>(
        &self,
        what: &str,
        weight: u32,
        request: reqwest::RequestBuilder,
        customer: Option<IpAddr>,
    ) -> Result<T, ProviderError> {
        self.budget
            .take_weight(&(), weight)
            .await
            .map_err(|wait| ProviderError::Busy(wait.seconds()))?;
        let mut request = request.header("x-sideshift-secret", self.secret.clone());
        if let Some(ip) = customer {
            request = request.header("x-user-ip", ip.to_string());
        }
        let response = request
            .send()
            .await
            // reqwest's message names the URL, never the headers: the secret stays out.
            .map_err(|e| ProviderError::Unavailable(format!("{what}: {e}")))?;
        let status = response.status();
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            return Err(ProviderError::Busy(retry_after(response.headers())));
        }
        if status.is_success() {
            return response
                .json()
                .await
                .map_err(|e| ProviderError::Unavailable(format!("{what}: {e}")));
        }
        let answer: ErrorAnswer = response.json().await.unwrap_or_default();
        let message = answer
            .error
            .and_then(|e| e.message)
            .filter(|m| !m.trim().is_empty())
            .unwrap_or_else(|| format!("HTTP {}", status.as_u16()));
        Err(refusal_of(status.as_u16(), message, what))
    }

    async fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<T, ProviderError> {
        self.send(path, 1, self.client.get(self.url(path)).query(query), None)
            .await
    }

    /// SideShift's rate for `amount` of `from` into `to` (net of network fees; without an
    /// amount, for its default one), and the pair's limits, with Ferry's commission for
    /// `rate_type` taken.
    async fn pair(
        &self,
        (from, to, rate_type): (&Currency, &Currency, RateType),
        amount: Option<Decimal>,
    ) -> Result<PairAnswer, ProviderError> {
        let commission = self.commission(self.config.fees.percent(rate_type))?;
        self.pair_at(from, to, amount, commission).await
    }

    async fn pair_at(
        &self,
        from: &Currency,
        to: &Currency,
        amount: Option<Decimal>,
        commission: Decimal,
    ) -> Result<PairAnswer, ProviderError> {
        let path = format!(
            "pair/{}/{}",
            path_id(&self.ids(from)?),
            path_id(&self.ids(to)?)
        );
        let mut query = vec![
            ("affiliateId", self.config.affiliate_id.clone()),
            ("commissionRate", to_wire(commission)),
        ];
        if let Some(amount) = amount {
            query.push(("amount", to_wire(amount)));
        }
        self.get(&path, &query).await
    }

    async fn derive_market(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Result<PairMarket, ProviderError> {
        let pair = (from, to, rate_type);
        let reference = from.usd.max(Decimal::new(1, 8));
        // First the limits (for SideShift's default amount: one outside them is refused).
        let probe = self.pair(pair, None).await?;
        // Rounded up to what Ferry writes: a customer typing the minimum shown is not below it.
        let (min, max) = (round_up(probe.min, from.precision), probe.max);
        if max <= Decimal::ZERO || min > max {
            return Err(ProviderError::UnknownCurrency(format!(
                "{} → {} has no limits at SideShift",
                from.code, to.code
            )));
        }
        let first_amount = round_down(PROBE_USD / reference, from.precision).clamp(min, max);
        let second_amount = (first_amount * Decimal::TWO).min(max);
        let (first, second) = futures_util::future::join(
            self.pair(pair, Some(first_amount)),
            self.pair(pair, Some(second_amount)),
        )
        .await;
        let first_to = first_amount * first?.rate;
        let (rate, network_fee) = if second_amount > first_amount {
            two_point_market(
                (first_amount, first_to),
                (second_amount, second_amount * second?.rate),
            )
        } else {
            (first_to / first_amount, Decimal::ZERO)
        };
        if rate <= Decimal::ZERO {
            return Err(ProviderError::UnknownCurrency(format!(
                "{} → {} has no rate at SideShift",
                from.code, to.code
            )));
        }
        // Ferry's fee comes off again in the quote: put back, the quote is SideShift's figure.
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
            // SideShift publishes no reserve: its maximum is the limit.
            reserve_to: max * rate,
            network_fee_to: network_fee,
        })
    }

    async fn usd_of(&self, currency: &Currency) -> Decimal {
        let usdt = crate::domain::currency::Catalogue::embedded().get("USDT");
        self.usd
            .price(
                currency,
                usd_from_quotes(currency, |amount| async move {
                    let usdt = usdt.ok_or_else(|| ProviderError::UnknownCurrency("USDT".into()))?;
                    Ok(amount
                        * self
                            .pair((currency, usdt, RateType::Float), Some(amount))
                            .await?
                            .rate)
                }),
            )
            .await
    }

    async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        weight: u32,
        body: &Value,
        customer: IpAddr,
    ) -> Result<T, ProviderError> {
        self.send(
            path,
            weight,
            self.client.post(self.url(path)).json(body),
            Some(customer),
        )
        .await
    }
}

/// SideShift's error, by its message (they carry amounts, so by their start): a refusal the
/// customer is told, a pair SideShift does not trade now, being busy, or an outage.
fn refusal_of(status: u16, message: String, what: &str) -> ProviderError {
    const REFUSED: [&str; 14] = [
        "Amount too low",
        "Amount too high",
        "Amount is below the minimum",
        "Amount is above the maximum",
        "Invalid receiving address",
        "Invalid refundDestination",
        "Invalid refund address",
        "This settle address belongs to SideShift",
        "This refund address belongs to SideShift",
        "Memo is not supported",
        "Quote has already expired",
        "Quote has already been accepted",
        "Access denied",
        "Invalid settleMemo",
    ];
    const PAIR: [&str; 6] = [
        "Method ",
        "Cannot shift between the same",
        "Invalid coin",
        "Invalid network",
        "Shift unavailable",
        "Rate unavailable",
    ];
    if status == 403 && message.starts_with("You have too many open orders") {
        return ProviderError::Busy(60);
    }
    if REFUSED.iter().any(|start| message.starts_with(start)) {
        return ProviderError::Rejected(message);
    }
    if PAIR.iter().any(|start| message.starts_with(start)) {
        return ProviderError::UnknownCurrency(message);
    }
    ProviderError::Unavailable(format!("{what}: {status}: {message}"))
}

#[async_trait]
impl LiquidityProvider for SideShift {
    fn name(&self) -> &'static str {
        self.config.name
    }

    fn is_remote(&self) -> bool {
        true
    }

    async fn refresh_currencies(&self) -> Result<usize, ProviderError> {
        let coins: Vec<Coin> = self.get("coins", &[]).await?;
        let mut map = HashMap::new();
        for coin in coins {
            for network in &coin.networks {
                let deposit_open = !coin.deposit_offline.covers(network);
                let settle_open = !coin.settle_offline.covers(network);
                map.insert(
                    (coin.coin.to_ascii_uppercase(), network.to_ascii_lowercase()),
                    (deposit_open, settle_open),
                );
            }
        }
        Ok(self.coins.replace(map))
    }

    fn availability(&self, currency: &Currency) -> Availability {
        self.coins.availability(sideshift_ids(currency))
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

    /// A fixed order takes a quote for its amount (15 minutes, the deposit exact) and creates
    /// the shift with it at once; a float one is a variable shift, which takes any amount
    /// within its limits at the rate when the deposit arrives.
    async fn open_order(&self, request: &OrderRequest<'_>) -> Result<OpenedOrder, ProviderError> {
        // SideShift serves the end customer, never a proxy: an order without the customer's
        // own address (a partner's server asks for it) is not made here.
        let Some(customer) = request.customer_ip else {
            return Err(ProviderError::Rejected(
                "This pair cannot be ordered through the partner API right now".into(),
            ));
        };
        let commission = self.commission(request.fee_percent)?;
        let (deposit_coin, deposit_network) = self.ids(request.from)?;
        let (settle_coin, settle_network) = self.ids(request.to)?;
        let mut body = json!({
            "settleAddress": request.to_address,
            "affiliateId": self.config.affiliate_id,
        });
        if let Some(tag) = request.to_tag.filter(|t| !t.trim().is_empty()) {
            body["settleMemo"] = json!(tag);
        }
        if let Some(address) = request.refund_address {
            body["refundAddress"] = json!(address);
            if let Some(memo) = request.refund_tag.filter(|t| !t.trim().is_empty()) {
                body["refundMemo"] = json!(memo);
            }
        }
        let mut variable_to = None;
        let shift: Shift = match request.rate_type {
            RateType::Fixed => {
                let (deposit_amount, settle_amount) = match request.direction {
                    Direction::From => (json!(to_wire(request.amount)), Value::Null),
                    Direction::To => (Value::Null, json!(to_wire(request.amount))),
                };
                let quote: Quote = self
                    .post(
                        "quotes",
                        1,
                        &json!({
                            "depositCoin": deposit_coin, "depositNetwork": deposit_network,
                            "settleCoin": settle_coin, "settleNetwork": settle_network,
                            "depositAmount": deposit_amount, "settleAmount": settle_amount,
                            "affiliateId": self.config.affiliate_id,
                            "commissionRate": to_wire(commission),
                        }),
                        customer,
                    )
                    .await?;
                body["quoteId"] = json!(quote.id);
                self.post("shifts/fixed", CREATE_WEIGHT, &body, customer)
                    .await?
            }
            RateType::Float => {
                // What the amount quoted gets now, asked before the shift is made (a shift
                // whose amount cannot be told is not made at all).
                let estimate = self
                    .pair_at(
                        request.from,
                        request.to,
                        Some(request.send_amount),
                        commission,
                    )
                    .await?;
                variable_to = Some(round_down(
                    request.send_amount * estimate.rate,
                    request.to.precision,
                ));
                for (field, value) in [
                    ("depositCoin", &deposit_coin),
                    ("depositNetwork", &deposit_network),
                    ("settleCoin", &settle_coin),
                    ("settleNetwork", &settle_network),
                ] {
                    body[field] = json!(value);
                }
                body["commissionRate"] = json!(to_wire(commission));
                self.post("shifts/variable", CREATE_WEIGHT, &body, customer)
                    .await?
            }
        };
        // A variable shift holds no amount: the customer sends what Ferry quoted, and gets
        // what SideShift's rate gave for it just before.
        let (from_amount, to_amount) =
            match (shift.deposit_amount, shift.settle_amount, variable_to) {
                (Some(from), Some(to), _) => (from, to),
                (_, _, Some(to)) => (request.send_amount, to),
                _ => {
                    return Err(ProviderError::Unavailable(format!(
                        "SideShift's shift {} came without its amounts",
                        shift.id
                    )));
                }
            };
        let Some(deposit_address) = shift.deposit_address.filter(|a| !a.trim().is_empty()) else {
            return Err(ProviderError::Unavailable(format!(
                "SideShift's shift {} came without a deposit address",
                shift.id
            )));
        };
        // A variable shift stays open a week there; Ferry's own window is the customer's.
        let window = crate::now_unix() + request.deposit_seconds;
        Ok(OpenedOrder {
            provider: self.name(),
            deposit_address,
            deposit_tag: shift.deposit_memo.filter(|m| !m.trim().is_empty()),
            upstream: Some(UpstreamOrder {
                id: shift.id,
                // SideShift knows a shift by its id alone.
                token: String::new(),
                from_amount,
                to_amount,
                expires_at: shift
                    .expires_at
                    .as_deref()
                    .and_then(unix_of_rfc3339)
                    .map_or(window, |until| until.min(window)),
            }),
        })
    }

    async fn order_state(&self, order: &UpstreamRef<'_>) -> Result<UpstreamState, ProviderError> {
        let shift: Shift = self.get(&format!("shifts/{}", order.id), &[]).await?;
        shift.state(crate::now_unix())
    }

    /// SideShift only refunds: a refund goes to the address the customer gives (its
    /// set-refund-address); going on is SideShift's staff's to decide, not the customer's.
    async fn choose(
        &self,
        order: &UpstreamRef<'_>,
        choice: EmergencyChoice,
        refund: Option<(&str, Option<&str>)>,
    ) -> Result<(), ProviderError> {
        match (choice, refund) {
            (EmergencyChoice::Exchange, _) => Err(ProviderError::Rejected(
                "This deposit can only be refunded: give a refund address".into(),
            )),
            (EmergencyChoice::Refund, None) => {
                Err(ProviderError::Rejected("A refund address is needed".into()))
            }
            (EmergencyChoice::Refund, Some((address, memo))) => {
                let mut body = json!({ "address": address });
                if let Some(memo) = memo.filter(|m| !m.trim().is_empty()) {
                    body["memo"] = json!(memo);
                }
                let path = format!("shifts/{}/set-refund-address", order.id);
                let _: Value = self
                    .send(
                        &path,
                        1,
                        self.client.post(self.url(&path)).json(&body),
                        None,
                    )
                    .await?;
                Ok(())
            }
        }
    }
}

// ---- the wire ----

#[derive(Deserialize, Default)]
struct ErrorAnswer {
    error: Option<ErrorBody>,
}

#[derive(Deserialize)]
struct ErrorBody {
    message: Option<String>,
}

/// `false`, `true`, or the networks it is true for.
#[derive(Deserialize, Default)]
#[serde(untagged)]
enum PerNetwork {
    All(bool),
    Some(Vec<String>),
    #[default]
    #[serde(skip_deserializing)]
    Unset,
}

impl PerNetwork {
    fn covers(&self, network: &str) -> bool {
        match self {
            PerNetwork::All(all) => *all,
            PerNetwork::Some(networks) => networks.iter().any(|n| n.eq_ignore_ascii_case(network)),
            PerNetwork::Unset => false,
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Coin {
    coin: String,
    #[serde(default)]
    networks: Vec<String>,
    #[serde(default)]
    deposit_offline: PerNetwork,
    #[serde(default)]
    settle_offline: PerNetwork,
}

#[derive(Deserialize)]
struct PairAnswer {
    #[serde(deserialize_with = "decimal")]
    min: Decimal,
    #[serde(deserialize_with = "decimal")]
    max: Decimal,
    #[serde(deserialize_with = "decimal")]
    rate: Decimal,
}

#[derive(Deserialize)]
struct Quote {
    id: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Shift {
    id: String,
    #[serde(default)]
    status: String,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    /// Null some 60 days after the shift was made.
    #[serde(default)]
    deposit_address: Option<String>,
    #[serde(default)]
    deposit_memo: Option<String>,
    #[serde(default, deserialize_with = "optional_decimal")]
    deposit_amount: Option<Decimal>,
    #[serde(default, deserialize_with = "optional_decimal")]
    settle_amount: Option<Decimal>,
    #[serde(default)]
    expires_at: Option<String>,
    #[serde(default)]
    updated_at: Option<String>,
    #[serde(default)]
    deposit_received_at: Option<String>,
    #[serde(default)]
    deposit_hash: Option<String>,
    #[serde(default)]
    settle_hash: Option<String>,
    #[serde(default)]
    refund_address: Option<String>,
    #[serde(default)]
    issue: Option<String>,
}

impl Shift {
    /// The shift in Ferry's terms (the table in `docs/upstreams/status-mapping.md`).
    fn state(&self, now: i64) -> Result<UpstreamState, ProviderError> {
        let deposit_seen = self.deposit_hash.is_some() || self.deposit_received_at.is_some();
        let refund_given = self
            .refund_address
            .as_deref()
            .is_some_and(|a| !a.trim().is_empty());
        let (status, problem, choice) = match self.status.as_str() {
            "waiting" => (OrderStatus::New, None, None),
            "pending" => (OrderStatus::Confirming, None, None),
            "processing" => (OrderStatus::Exchange, None, None),
            // A person at SideShift looks at it, or several deposits came: the order holds
            // where the deposit is, and the operator sees SideShift's word.
            "review" | "multiple" => {
                tracing::warn!(upstream.order = %self.id, status = %self.status, "SideShift holds the shift for a person");
                let status = if deposit_seen {
                    OrderStatus::Confirming
                } else {
                    OrderStatus::New
                };
                (status, None, None)
            }
            "settling" => (OrderStatus::Sending, None, None),
            "settled" => (OrderStatus::Completed, None, None),
            "refund" => (
                OrderStatus::Emergency,
                Some(self.problem()),
                refund_given.then_some(EmergencyChoice::Refund),
            ),
            "refunding" => (
                OrderStatus::Emergency,
                Some(self.problem()),
                Some(EmergencyChoice::Refund),
            ),
            "refunded" => (OrderStatus::Refunded, None, Some(EmergencyChoice::Refund)),
            "expired" => (OrderStatus::Expired, None, None),
            other => {
                return Err(ProviderError::Unavailable(format!(
                    "SideShift shift {}: unknown status {other:?}",
                    self.id
                )));
            }
        };
        let raw_status = match &self.issue {
            Some(issue) => format!("{} [{issue}]", self.status),
            None => self.status.clone(),
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
        // The settle transaction is the payout while settling, the refund while refunding.
        let refunding = matches!(self.status.as_str(), "refunding" | "refunded");
        let received = self.deposit_amount.filter(|_| deposit_seen);
        Ok(UpstreamState {
            status,
            raw_status,
            problem,
            received,
            to_amount: self.settle_amount,
            paid_out: self
                .settle_amount
                .filter(|_| status == OrderStatus::Completed),
            choice,
            transactions: OrderTransactions {
                deposit: transaction(
                    &self.deposit_hash,
                    received,
                    time(&self.deposit_received_at).unwrap_or(updated),
                ),
                // A refund goes out as the shift's settle transaction (SideShift's example).
                payout: transaction(&self.settle_hash, self.settle_amount, updated)
                    .filter(|_| !refunding),
                refund: transaction(&self.settle_hash, received, updated).filter(|_| refunding),
            },
        })
    }

    /// Why SideShift refunds, from its `issue`.
    fn problem(&self) -> EmergencyReason {
        let fixed = self.kind.as_deref() == Some("fixed");
        match self.issue.as_deref() {
            Some("order expired") => EmergencyReason::Expired,
            Some("rate drift") => EmergencyReason::Rate,
            Some("incorrect amount") if fixed => EmergencyReason::Less,
            _ => EmergencyReason::Limit,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shift(status: &str, issue: Option<&str>, refund_address: Option<&str>) -> Shift {
        serde_json::from_value(json!({
            "id": "f7a0c3", "createdAt": "2026-11-27T10:00:00.000Z", "depositCoin": "BTC",
            "settleCoin": "ETH", "depositNetwork": "bitcoin", "settleNetwork": "ethereum",
            "depositAddress": "bc1qsideshift", "settleAddress": "0x5a", "type": "fixed",
            "depositAmount": "0.1", "settleAmount": "2.5", "expiresAt": "2026-11-27T10:15:00.000Z",
            "status": status, "issue": issue, "refundAddress": refund_address,
            "depositHash": if status == "waiting" { Value::Null } else { json!("d1") },
            "settleHash": if matches!(status, "settled" | "refunded") { json!("s1") } else { Value::Null },
            "updatedAt": "2026-11-27T10:05:00.000Z"
        }))
        .unwrap()
    }

    #[test]
    fn every_sideshift_status_reads_as_a_ferry_status() {
        let cases = [
            ("waiting", OrderStatus::New),
            ("pending", OrderStatus::Confirming),
            ("processing", OrderStatus::Exchange),
            ("review", OrderStatus::Confirming),
            ("multiple", OrderStatus::Confirming),
            ("settling", OrderStatus::Sending),
            ("settled", OrderStatus::Completed),
            ("refund", OrderStatus::Emergency),
            ("refunding", OrderStatus::Emergency),
            ("refunded", OrderStatus::Refunded),
            ("expired", OrderStatus::Expired),
        ];
        for (status, expected) in cases {
            assert_eq!(
                shift(status, None, None).state(0).unwrap().status,
                expected,
                "{status}"
            );
        }
        assert!(
            shift("lost", None, None).state(0).is_err(),
            "held, not guessed"
        );
    }

    #[test]
    fn a_refund_says_why_and_whether_the_customer_gave_the_address() {
        let asked = shift("refund", Some("order expired"), None)
            .state(0)
            .unwrap();
        assert_eq!(
            (asked.problem, asked.choice),
            (Some(EmergencyReason::Expired), None)
        );
        assert_eq!(asked.raw_status, "refund [order expired]");
        let given = shift("refund", Some("amount under min"), Some("bc1qback"))
            .state(0)
            .unwrap();
        assert_eq!(
            (given.problem, given.choice),
            (Some(EmergencyReason::Limit), Some(EmergencyChoice::Refund))
        );
        let short = shift("refund", Some("incorrect amount"), None)
            .state(0)
            .unwrap();
        assert_eq!(short.problem, Some(EmergencyReason::Less));
        let mut going_back = shift("refunding", Some("order expired"), Some("bc1qback"));
        going_back.settle_hash = Some("s0".into());
        let going_back = going_back.state(0).unwrap();
        assert!(
            going_back.transactions.payout.is_none(),
            "a refund is never a payout"
        );
        assert_eq!(going_back.transactions.refund.unwrap().id, "s0");
        let done = shift("refunded", None, Some("bc1qback")).state(0).unwrap();
        let refund = done.transactions.refund.unwrap();
        assert_eq!(
            (refund.id.as_str(), refund.amount),
            ("s1", Decimal::new(1, 1))
        );
        assert!(
            done.transactions.payout.is_none(),
            "the settle hash of a refund is the refund"
        );
    }

    #[test]
    fn errors_are_read_by_their_start() {
        let read = |status, message: &str| refusal_of(status, message.into(), "shifts/fixed");
        assert!(matches!(
            read(500, "Amount too low. Minimum deposit amount: 0.0001."),
            ProviderError::Rejected(_)
        ));
        assert!(matches!(
            read(400, "Invalid receiving address"),
            ProviderError::Rejected(_)
        ));
        assert!(matches!(
            read(400, "Quote has already expired. Request a new quote."),
            ProviderError::Rejected(_)
        ));
        assert!(matches!(
            read(400, "Method ETH/bitcoin not found"),
            ProviderError::UnknownCurrency(_)
        ));
        assert!(matches!(
            read(403, "You have too many open orders. Cancel one."),
            ProviderError::Busy(60)
        ));
        assert!(matches!(
            read(500, "Internal Server Error"),
            ProviderError::Unavailable(_)
        ));
    }

    #[test]
    fn offline_flags_are_per_network_or_for_all() {
        let coins: Vec<Coin> = serde_json::from_value(json!([
            { "coin": "USDT", "networks": ["ethereum", "tron"], "depositOffline": ["tron"], "settleOffline": false },
            { "coin": "BTC", "networks": ["bitcoin"], "depositOffline": true },
        ]))
        .unwrap();
        assert!(coins[0].deposit_offline.covers("tron"));
        assert!(!coins[0].deposit_offline.covers("ethereum"));
        assert!(!coins[0].settle_offline.covers("tron"));
        assert!(coins[1].deposit_offline.covers("bitcoin"));
        assert!(!coins[1].settle_offline.covers("bitcoin"));
    }

    #[test]
    fn ferry_names_its_currencies_as_sideshift_does() {
        let catalogue = crate::domain::currency::Catalogue::embedded();
        let ids = |code: &str| sideshift_ids(catalogue.get(code).unwrap()).map(|ids| path_id(&ids));
        assert_eq!(ids("BTC").as_deref(), Some("btc-bitcoin"));
        assert_eq!(ids("USDTTRC").as_deref(), Some("usdt-tron"));
        assert_eq!(ids("ETHARB").as_deref(), Some("eth-arbitrum"));
        assert_eq!(ids("BTCLN"), None);
    }
}
