//! An upstream provider spoken to over the FixedFloat API v2 (`../shared/partner-api.md`): the
//! de-facto standard of instant-swap services, which Ferry's own partner API serves too — so a
//! Ferry can fill its orders at FixedFloat or at another Ferry. The customer pays the upstream's
//! deposit address and the upstream pays the customer: Ferry never holds the funds. Ferry's fee
//! reaches it as the upstream's affiliate share (`afftax`).

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::RwLock;
use std::time::Duration;

use async_trait::async_trait;
use rust_decimal::Decimal;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use serde_json::{Value, json};

use super::wire::{
    Listing, MarketCache, decimal, optional_decimal, optional_integer, per_unit, retry_after,
    two_point_market,
};
use super::{
    Availability, LiquidityProvider, OpenedOrder, OrderRequest, PairMarket, ProviderError,
    UpstreamOrder, UpstreamRef, UpstreamState,
};
use crate::domain::currency::Currency;
use crate::domain::fees::RateType;
use crate::domain::money::{round_down, to_wire};
use crate::domain::order::{EmergencyChoice, EmergencyReason, OrderStatus};
use crate::domain::transaction::{OrderTransactions, Transaction};
use crate::limits::{Budget, SharedCounter};
use crate::services::partners::keys;

/// What creating an order costs of the request budget; every other call costs 1 (FixedFloat's
/// "Request limits").
pub const CREATE_WEIGHT: u32 = 50;

/// The USD value the first price probe of a pair asks for.
const PROBE_USD: Decimal = Decimal::from_parts(100, 0, 0, false, 0);

/// Where the upstream is and the key Ferry signs its calls with.
pub struct FixedFloatConfig {
    /// The name it has in `FERRY_PROVIDERS`.
    pub name: &'static str,
    /// The API's base, without `/api/v2` (`https://ff.io`).
    pub base_url: String,
    pub key: String,
    pub secret: SecretString,
    pub timeout: Duration,
    /// The request weight the upstream allows a minute.
    pub weight_per_minute: u32,
    /// Where every replica spends the weight together (the upstream counts per key, not per
    /// replica).
    pub shared_limits: Option<std::sync::Arc<SharedCounter>>,
}

pub struct FixedFloat {
    config: FixedFloatConfig,
    client: reqwest::Client,
    /// `(recv, send)` per currency code, from the upstream's point of view.
    currencies: Listing<String>,
    /// The latest USD price of one unit per currency code, from its price answers.
    usd: RwLock<HashMap<String, Decimal>>,
    markets: MarketCache,
    /// The upstream's request budget: spent here before a call, so Ferry stays within it.
    budget: Budget<()>,
}

impl FixedFloat {
    pub fn new(config: FixedFloatConfig) -> anyhow::Result<FixedFloat> {
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .user_agent(concat!("ferry/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(FixedFloat {
            budget: Budget::per_minute(config.weight_per_minute, 1)
                .shared(config.shared_limits.as_ref(), config.name),
            config,
            client,
            currencies: Listing::default(),
            usd: RwLock::default(),
            markets: MarketCache::default(),
        })
    }

    /// One signed call; `data` of a code-0 answer, else why not. A call the budget has no room
    /// for is not made; the upstream saying "too many" is back-pressure, not a failure.
    async fn call<T: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        body: &Value,
    ) -> Result<T, ProviderError> {
        let weight = if method == "create" { CREATE_WEIGHT } else { 1 };
        self.budget
            .take_weight(&(), weight)
            .await
            .map_err(|wait| ProviderError::Busy(wait.seconds()))?;
        let body = body.to_string();
        let signature = hex::encode(keys::sign(
            self.config.secret.expose_secret().as_bytes(),
            body.as_bytes(),
        ));
        let url = format!(
            "{}/api/v2/{method}",
            self.config.base_url.trim_end_matches('/')
        );
        let response = self
            .client
            .post(url)
            .header("content-type", "application/json; charset=UTF-8")
            .header("x-api-key", &self.config.key)
            .header("x-api-sign", signature)
            .body(body)
            .send()
            .await
            .map_err(|e| unavailable(method, e))?;
        if response.status() == reqwest::StatusCode::TOO_MANY_REQUESTS {
            return Err(ProviderError::Busy(retry_after(response.headers())));
        }
        let envelope: Envelope<T> = response.json().await.map_err(|e| unavailable(method, e))?;
        match (envelope.code, envelope.data) {
            (0, Some(data)) => Ok(data),
            (429, _) => Err(ProviderError::Busy(60)),
            // The request was understood and refused: bad address, limits, order state.
            (301 | 320 | 321, _) => Err(ProviderError::Rejected(envelope.msg)),
            (code, _) => Err(ProviderError::Unavailable(format!(
                "{method}: code {code}: {}",
                envelope.msg
            ))),
        }
    }

    async fn price(
        &self,
        pair: (&Currency, &Currency, RateType),
        amount: Decimal,
    ) -> Result<PriceAnswer, ProviderError> {
        let (from, to, rate_type) = pair;
        self.call(
            "price",
            &json!({ "type": rate_type.as_str(), "fromCcy": from.code, "toCcy": to.code,
                     "direction": "from", "amount": number(amount) }),
        )
        .await
    }

    /// Derives the pair's market from two price answers: the upstream quotes
    /// `to = amount × rate − network fee`, so two amounts give both.
    async fn derive_market(
        &self,
        from: &Currency,
        to: &Currency,
        rate_type: RateType,
    ) -> Result<PairMarket, ProviderError> {
        let pair = (from, to, rate_type);
        let probe_amount = round_down(PROBE_USD / from.usd.max(Decimal::new(1, 8)), from.precision);
        let probe = self.price(pair, probe_amount).await?;
        let (min, max) = (probe.from.min, probe.from.max);
        if max <= Decimal::ZERO || min > max {
            return Err(ProviderError::Unavailable(format!(
                "{} → {} has no limits upstream",
                from.code, to.code
            )));
        }
        let first = if (min..=max).contains(&probe_amount) && probe.to.amount > Decimal::ZERO {
            probe
        } else {
            self.price(pair, min).await?
        };
        let second_amount = (first.from.amount * Decimal::TWO).min(max);
        let (rate, network_fee) = if second_amount > first.from.amount {
            let second = self.price(pair, second_amount).await?;
            two_point_market(
                (first.from.amount, first.to.amount),
                (second.from.amount, second.to.amount),
            )
        } else {
            (first.to.amount / first.from.amount, Decimal::ZERO)
        };
        if rate <= Decimal::ZERO {
            return Err(ProviderError::Unavailable(format!(
                "{} → {} has no rate upstream",
                from.code, to.code
            )));
        }
        let from_usd = per_unit(first.from.usd, first.from.amount);
        let to_usd = per_unit(first.to.usd, first.to.amount);
        {
            let mut usd = self.usd.write().expect("usd lock");
            usd.insert(from.code.clone(), from_usd);
            usd.insert(to.code.clone(), to_usd);
        }
        Ok(PairMarket {
            rate,
            from_usd,
            to_usd,
            min_from: min,
            max_from: max,
            reserve_to: first.to.max,
            network_fee_to: network_fee,
        })
    }
}

/// A decimal as a JSON number, as FixedFloat's documentation sends amounts (Ferry's partner
/// API takes numbers and strings alike). An amount has at most 8 decimals, which a double holds.
fn number(value: Decimal) -> Value {
    serde_json::Number::from_str(&to_wire(value))
        .map(Value::Number)
        .unwrap_or_else(|_| Value::String(to_wire(value)))
}

fn unavailable(method: &str, error: reqwest::Error) -> ProviderError {
    // reqwest's message names the URL, never the headers: the key and signature stay out.
    ProviderError::Unavailable(format!("{method}: {error}"))
}

#[async_trait]
impl LiquidityProvider for FixedFloat {
    fn name(&self) -> &'static str {
        self.config.name
    }

    fn is_remote(&self) -> bool {
        true
    }

    /// Reloads which currencies the upstream receives and sends (the `ccies` method).
    async fn refresh_currencies(&self) -> Result<usize, ProviderError> {
        let list: Vec<CurrencyEntry> = self.call("ccies", &json!({})).await?;
        let map: HashMap<_, _> = list
            .into_iter()
            .map(|c| (c.code, (c.recv != 0, c.send != 0)))
            .collect();
        Ok(self.currencies.replace(map))
    }

    fn availability(&self, currency: &Currency) -> Availability {
        self.currencies.availability(Some(currency.code.clone()))
    }

    fn reference_usd(&self, currency: &Currency) -> Option<Decimal> {
        self.usd
            .read()
            .expect("usd lock")
            .get(&currency.code)
            .copied()
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

    async fn open_order(&self, request: &OrderRequest<'_>) -> Result<OpenedOrder, ProviderError> {
        let mut body = json!({
            "type": request.rate_type.as_str(),
            "fromCcy": request.from.code,
            "toCcy": request.to.code,
            "direction": request.direction.as_str(),
            "amount": number(request.amount),
            "toAddress": request.to_address,
            "afftax": number(request.fee_percent),
        });
        if let Some(tag) = request.to_tag {
            body["tag"] = json!(tag);
        }
        let order: OrderObject = self.call("create", &body).await?;
        let (Some(from_amount), Some(to_amount)) = (order.from.amount, order.to.amount) else {
            return Err(ProviderError::Unavailable(format!(
                "order {} came without its amounts",
                order.id
            )));
        };
        Ok(OpenedOrder {
            provider: self.name(),
            deposit_address: order.from.address.clone().unwrap_or_default(),
            deposit_tag: order.from.tag.clone().filter(|t| !t.is_empty()),
            upstream: Some(UpstreamOrder {
                from_amount,
                to_amount,
                expires_at: order.time.expiration,
                id: order.id,
                token: order.token,
            }),
        })
    }

    async fn order_state(&self, order: &UpstreamRef<'_>) -> Result<UpstreamState, ProviderError> {
        let object: OrderObject = self
            .call("order", &json!({ "id": order.id, "token": order.token }))
            .await?;
        object.state()
    }

    async fn choose(
        &self,
        order: &UpstreamRef<'_>,
        choice: EmergencyChoice,
        refund: Option<(&str, Option<&str>)>,
    ) -> Result<(), ProviderError> {
        let mut body = json!({ "id": order.id, "token": order.token, "choice": choice.as_str() });
        if let Some((address, tag)) = refund {
            body["address"] = json!(address);
            if let Some(tag) = tag {
                body["tag"] = json!(tag);
            }
        }
        let _: Value = self.call("emergency", &body).await?;
        Ok(())
    }
}

// ---- the wire ----

#[derive(Deserialize)]
struct Envelope<T> {
    code: i64,
    #[serde(default)]
    msg: String,
    data: Option<T>,
}

#[derive(Deserialize)]
struct CurrencyEntry {
    code: String,
    recv: u8,
    send: u8,
}

#[derive(Deserialize)]
struct PriceAnswer {
    from: PriceSide,
    to: PriceSide,
}

#[derive(Deserialize)]
struct PriceSide {
    #[serde(deserialize_with = "decimal")]
    amount: Decimal,
    #[serde(deserialize_with = "decimal")]
    min: Decimal,
    #[serde(deserialize_with = "decimal")]
    max: Decimal,
    #[serde(deserialize_with = "decimal")]
    usd: Decimal,
}

#[derive(Deserialize)]
struct OrderObject {
    id: String,
    token: String,
    status: String,
    time: OrderTime,
    from: OrderSide,
    to: OrderSide,
    back: OrderSide,
    emergency: OrderEmergency,
}

#[derive(Deserialize)]
struct OrderTime {
    expiration: i64,
}

#[derive(Deserialize)]
struct OrderSide {
    /// Null on the refund side until there is one.
    #[serde(default, deserialize_with = "optional_decimal")]
    amount: Option<Decimal>,
    address: Option<String>,
    tag: Option<String>,
    tx: Tx,
}

#[derive(Deserialize)]
struct Tx {
    id: Option<String>,
    #[serde(default, deserialize_with = "optional_decimal")]
    amount: Option<Decimal>,
    #[serde(default, deserialize_with = "optional_decimal")]
    fee: Option<Decimal>,
    #[serde(default, rename = "timeReg", deserialize_with = "optional_integer")]
    time_reg: Option<i64>,
    #[serde(default, rename = "timeBlock", deserialize_with = "optional_integer")]
    time_block: Option<i64>,
    #[serde(default, deserialize_with = "optional_integer")]
    confirmations: Option<i64>,
}

impl Tx {
    /// The transaction, once the upstream names it (an id and an amount).
    fn transaction(&self) -> Option<Transaction> {
        let id = self
            .id
            .as_deref()
            .map(str::trim)
            .filter(|id| !id.is_empty())?;
        Some(Transaction {
            id: id.to_owned(),
            amount: self.amount?,
            fee: self.fee,
            confirmations: self.confirmations.and_then(|c| u32::try_from(c).ok()),
            at: self
                .time_block
                .or(self.time_reg)
                .unwrap_or_else(crate::now_unix),
        })
    }
}

#[derive(Deserialize)]
struct OrderEmergency {
    status: Vec<String>,
    /// `NONE`, `EXCHANGE` or `REFUND`.
    #[serde(default)]
    choice: Option<String>,
}

impl OrderObject {
    /// The order in Ferry's terms (the status table of `partner-api.md`, read backwards).
    fn state(&self) -> Result<UpstreamState, ProviderError> {
        let problem = self.emergency.status.iter().find_map(|s| match s.as_str() {
            "EXPIRED" => Some(EmergencyReason::Expired),
            "LESS" => Some(EmergencyReason::Less),
            "MORE" => Some(EmergencyReason::More),
            "LIMIT" => Some(EmergencyReason::Limit),
            _ => None,
        });
        let status = match self.status.as_str() {
            "NEW" => OrderStatus::New,
            "PENDING" => OrderStatus::Confirming,
            "EXCHANGE" => OrderStatus::Exchange,
            "WITHDRAW" => OrderStatus::Sending,
            // A refund is a DONE order whose refund transaction is filled.
            "DONE" if self.back.tx.id.is_some() || self.back.tx.amount.is_some() => {
                OrderStatus::Refunded
            }
            "DONE" => OrderStatus::Completed,
            "EXPIRED" => OrderStatus::Expired,
            // An emergency with no reason the customer can act on is a failure.
            "EMERGENCY" if problem.is_some() => OrderStatus::Emergency,
            "EMERGENCY" => OrderStatus::Failed,
            other => {
                return Err(ProviderError::Unavailable(format!(
                    "order {}: unknown status {other:?}",
                    self.id
                )));
            }
        };
        let raw_status = if self.emergency.status.is_empty() {
            self.status.clone()
        } else {
            format!("{} [{}]", self.status, self.emergency.status.join(", "))
        };
        Ok(UpstreamState {
            status,
            raw_status,
            problem,
            received: self.from.tx.amount,
            to_amount: self.to.amount.filter(|a| !a.is_zero()),
            paid_out: self.to.tx.amount,
            choice: self
                .emergency
                .choice
                .as_deref()
                .and_then(EmergencyChoice::parse),
            transactions: OrderTransactions {
                deposit: self.from.tx.transaction(),
                payout: self.to.tx.transaction(),
                refund: self.back.tx.transaction(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn amounts_go_out_as_json_numbers_with_every_decimal() {
        assert_eq!(number(dec("0.12345678")).to_string(), "0.12345678");
        assert_eq!(number(dec("1500")).to_string(), "1500");
        assert_eq!(number(dec("0.5")).to_string(), "0.5");
    }

    fn order(status: &str, emergency: &[&str], refund_tx: Option<&str>) -> OrderObject {
        serde_json::from_value(json!({
            "id": "ABC", "type": "float", "email": "", "status": status, "token": "t",
            "time": { "reg": 1, "start": null, "finish": null, "update": 1, "expiration": 1801, "left": 0 },
            "from": { "code": "BTC", "amount": "0.1", "address": "bc1q", "tag": null,
                      "tx": { "id": "f1", "amount": 0.1, "fee": null } },
            "to": { "code": "ETH", "amount": "3.2841", "address": "0x5a", "tag": null,
                    "tx": { "id": null, "amount": null } },
            "back": { "code": null, "amount": null, "address": null, "tag": null,
                      "tx": { "id": refund_tx, "amount": null } },
            "emergency": { "status": emergency, "choice": "NONE", "repeat": "0" }
        }))
        .unwrap()
    }

    #[test]
    fn upstream_statuses_read_as_ferry_statuses() {
        let cases = [
            ("NEW", vec![], None, OrderStatus::New),
            ("PENDING", vec![], None, OrderStatus::Confirming),
            ("EXCHANGE", vec![], None, OrderStatus::Exchange),
            ("WITHDRAW", vec![], None, OrderStatus::Sending),
            ("DONE", vec![], None, OrderStatus::Completed),
            ("DONE", vec!["LESS"], Some("r1"), OrderStatus::Refunded),
            ("EXPIRED", vec![], None, OrderStatus::Expired),
            ("EMERGENCY", vec!["LESS"], None, OrderStatus::Emergency),
            ("EMERGENCY", vec![], None, OrderStatus::Failed),
        ];
        for (status, emergency, refund, expected) in cases {
            let state = order(status, &emergency, refund).state().unwrap();
            assert_eq!(state.status, expected, "{status} {emergency:?}");
        }
        let state = order("EMERGENCY", &["MORE"], None).state().unwrap();
        assert_eq!(state.problem, Some(EmergencyReason::More));
        assert_eq!(
            state.raw_status, "EMERGENCY [MORE]",
            "the provider's words, for operators"
        );
        assert_eq!(
            order("EXCHANGE", &[], None).state().unwrap().raw_status,
            "EXCHANGE"
        );
        assert_eq!(state.received, Some(dec("0.1")), "a number is read too");
        assert_eq!(state.to_amount, Some(dec("3.2841")));
        assert!(order("LOST", &[], None).state().is_err());
    }
}
