//! Webhooks: every status change of an order placed with a key (or attributed to its owner) is
//! POSTed to the key's webhook URL as JSON, signed with the key's webhook secret, from a
//! persisted queue with exponential backoff for 24 hours.
//!
//! Calls go only to public addresses (unless `FERRY_WEBHOOK_ALLOW_PRIVATE`): the URL's host is
//! checked before each delivery, and a name is resolved by a resolver that answers only with
//! public addresses, which are the ones the request then connects to. No proxy, no redirects.
//!
//! Headers: `X-Ferry-Signature` = lowercase hex HMAC-SHA256 of the exact body bytes under the
//! webhook secret; `X-Ferry-Timestamp` = the Unix time the event happened, also in the body,
//! so a receiver can refuse old replays.

use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::Resolve;
use serde_json::json;

use super::keys::{ApiKeys, sign};
use super::public_net::{PublicOnly, is_public_host, refused_as_not_public};
use super::wire::order_object;
use crate::domain::currency::Catalogue;
use crate::domain::money::to_wire;
use crate::store::{
    ApiKeyRecord, DeliveryAttempt, DynStore, OrderEventRecord, OrderRecord, StoreError,
    WebhookDelivery,
};

/// How long a notification is retried.
pub const RETRY_WINDOW_SECONDS: i64 = 24 * 3600;
const MAX_RETRY_SECONDS: i64 = 3600;
const LEASE_SECONDS: i64 = 60;
const TIMEOUT: Duration = Duration::from_secs(10);
/// How much of a failed answer is kept in the delivery log.
const ERROR_LIMIT: usize = 200;
const NOT_PUBLIC: &str = "the webhook host is not a public address";

pub struct Webhooks {
    store: DynStore,
    keys: Arc<ApiKeys>,
    catalogue: &'static Catalogue,
    client: reqwest::Client,
    first_retry_seconds: i64,
    allow_private: bool,
}

impl Webhooks {
    /// `first_retry_seconds`: the wait after the first failure, doubling after each;
    /// `resolver`: how host names are looked up (the system's, or a test's).
    pub fn new(
        store: DynStore,
        keys: Arc<ApiKeys>,
        catalogue: &'static Catalogue,
        first_retry_seconds: u32,
        allow_private: bool,
        resolver: Arc<dyn Resolve>,
    ) -> Webhooks {
        let resolver: Arc<dyn Resolve> = if allow_private {
            resolver
        } else {
            Arc::new(PublicOnly::new(resolver))
        };
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            // A proxy would resolve and connect on our behalf, past the check.
            .no_proxy()
            .dns_resolver2(resolver)
            .user_agent("Ferry-Webhooks/1")
            .build()
            .expect("a TLS backend is compiled in");
        Webhooks {
            store,
            keys,
            catalogue,
            client,
            first_retry_seconds: i64::from(first_retry_seconds.max(1)),
            allow_private,
        }
    }

    /// The keys to tell about `order`: the key it was placed with, else every key of the
    /// partner it is attributed to; only active keys with a webhook.
    async fn targets(&self, order: &OrderRecord) -> Result<Vec<ApiKeyRecord>, StoreError> {
        let keys = match (&order.api_key_id, &order.affiliate_user_id) {
            (Some(id), _) => self.store.find_api_key(id).await?.into_iter().collect(),
            (None, Some(partner)) => self.store.api_keys_of(partner).await?,
            (None, None) => Vec::new(),
        };
        Ok(keys
            .into_iter()
            .filter(|k| k.revoked_at.is_none() && k.webhook_url.is_some())
            .collect())
    }

    /// One notification per target for the order's current status (`events` is its history
    /// with the change being made), to be stored with the change itself.
    pub async fn deliveries(
        &self,
        order: &OrderRecord,
        events: &[OrderEventRecord],
        token: &str,
        now: i64,
    ) -> Result<Vec<WebhookDelivery>, StoreError> {
        let targets = self.targets(order).await?;
        if targets.is_empty() {
            return Ok(Vec::new());
        }
        let event = |data: serde_json::Value| {
            json!({
                "event": "order.status",
                "timestamp": now,
                "status": order.status.partner_status(),
                "siteStatus": order.status.as_str(),
                "data": data,
            })
            .to_string()
        };
        // The key that placed the order gets the whole order object (with its token); the
        // owner's keys hear of orders merely attributed to them (a referred visitor's) without
        // the token or the customer's addresses, which would let them act on the order.
        let placed = event(order_object(order, events, self.catalogue, token, now));
        let attributed = event(attributed_summary(order));
        Ok(targets
            .into_iter()
            .map(|key| WebhookDelivery {
                id: uuid::Uuid::new_v4().to_string(),
                order_id: order.id.clone(),
                order_status: order.status.as_str().to_owned(),
                body: if order.api_key_id.as_deref() == Some(key.id.as_str()) {
                    placed.clone()
                } else {
                    attributed.clone()
                },
                api_key_id: key.id,
                created_at: now,
                give_up_at: now + RETRY_WINDOW_SECONDS,
                attempts: 0,
                next_attempt_at: Some(now),
                delivered_at: None,
                last_status_code: None,
                last_error: None,
            })
            .collect())
    }

    /// Sends every notification that is due. Returns how many were delivered.
    pub async fn deliver_due(&self, owner: &str, now: i64) -> Result<usize, StoreError> {
        let due = self
            .store
            .lease_due_webhooks(now, owner, LEASE_SECONDS, 20)
            .await?;
        let mut delivered = 0;
        for delivery in due {
            let attempt = self.attempt(&delivery, now).await?;
            if attempt.delivered_at.is_some() {
                delivered += 1;
            }
            self.store
                .record_webhook_attempt(&delivery.id, &attempt)
                .await?;
        }
        Ok(delivered)
    }

    async fn attempt(
        &self,
        delivery: &WebhookDelivery,
        now: i64,
    ) -> Result<DeliveryAttempt, StoreError> {
        let key = self
            .store
            .find_api_key(&delivery.api_key_id)
            .await?
            .filter(|k| k.revoked_at.is_none());
        let Some((key, url)) = key.and_then(|k| k.webhook_url.clone().map(|u| (k, u))) else {
            return Ok(DeliveryAttempt {
                next_attempt_at: None,
                delivered_at: None,
                status_code: None,
                error: Some("the key was revoked or its webhook removed".into()),
            });
        };
        // Address literals never reach the resolver, and local names need no lookup.
        if !self.allow_private && !has_public_host(&url) {
            return Ok(self.failed(delivery, now, None, NOT_PUBLIC));
        }
        let signature = hex::encode(sign(
            self.keys.webhook_secret_of(&key).as_bytes(),
            delivery.body.as_bytes(),
        ));
        let timestamp = serde_json::from_str::<serde_json::Value>(&delivery.body)
            .ok()
            .and_then(|b| b["timestamp"].as_i64())
            .unwrap_or(delivery.created_at);
        let answer = self
            .client
            .post(&url)
            .header("content-type", "application/json")
            .header("x-ferry-signature", signature)
            .header("x-ferry-timestamp", timestamp.to_string())
            .header("x-ferry-delivery", &delivery.id)
            .body(delivery.body.clone())
            .send()
            .await;
        let (status_code, error) = match answer {
            Ok(response) if response.status().is_success() => {
                tracing::info!(delivery = %delivery.id, order.id = %delivery.order_id, "webhook delivered");
                return Ok(DeliveryAttempt {
                    next_attempt_at: None,
                    delivered_at: Some(now),
                    status_code: Some(i64::from(response.status().as_u16())),
                    error: None,
                });
            }
            Ok(response) => (
                Some(i64::from(response.status().as_u16())),
                format!("answered HTTP {}", response.status().as_u16()),
            ),
            // reqwest's error names the URL only; its query could hold a partner's token.
            Err(e) if refused_as_not_public(&e) => (None, NOT_PUBLIC.to_owned()),
            Err(e) if e.is_timeout() => (None, "timed out".to_owned()),
            Err(e) if e.is_connect() => (None, "could not connect".to_owned()),
            Err(_) => (None, "request failed".to_owned()),
        };
        Ok(self.failed(delivery, now, status_code, &error))
    }

    /// A failed attempt, retried after the backoff while the 24 hours last.
    fn failed(
        &self,
        delivery: &WebhookDelivery,
        now: i64,
        status_code: Option<i64>,
        error: &str,
    ) -> DeliveryAttempt {
        let next = now + backoff(self.first_retry_seconds, delivery.attempts + 1);
        tracing::warn!(delivery = %delivery.id, error = %error, "webhook not delivered");
        DeliveryAttempt {
            next_attempt_at: (next <= delivery.give_up_at).then_some(next),
            delivered_at: None,
            status_code,
            error: Some(error.chars().take(ERROR_LIMIT).collect()),
        }
    }
}

/// Whether the URL's host may be public as written (see `is_public_host`).
fn has_public_host(url: &str) -> bool {
    reqwest::Url::parse(url)
        .ok()
        .and_then(|parsed| parsed.host().map(|host| is_public_host(&host)))
        .unwrap_or(false)
}

/// What an affiliate may know of an order attributed to them: no token, no addresses.
fn attributed_summary(order: &OrderRecord) -> serde_json::Value {
    json!({
        "id": order.id,
        "type": order.rate_type.as_str(),
        "attributed": true,
        "time": { "reg": order.created_at, "update": order.updated_at, "finish": order.finished_at },
        "from": { "code": order.from_code, "amount": to_wire(order.received_amount.unwrap_or(order.from_amount)) },
        "to": { "code": order.to_code, "amount": to_wire(order.payout_amount.unwrap_or(order.to_amount)) },
    })
}

/// Seconds before the next attempt after `failures` failures: `first`, twice that, four
/// times … at most an hour.
pub fn backoff(first: i64, failures: i64) -> i64 {
    let exponent = (failures - 1).clamp(0, 20) as u32;
    (first * 2i64.pow(exponent)).min(MAX_RETRY_SECONDS)
}

#[cfg(test)]
mod tests {
    use super::backoff;

    #[test]
    fn retries_back_off_exponentially_up_to_an_hour() {
        assert_eq!(backoff(10, 1), 10);
        assert_eq!(backoff(10, 2), 20);
        assert_eq!(backoff(10, 3), 40);
        assert_eq!(backoff(10, 9), 2560);
        assert_eq!(backoff(10, 10), 3600);
        assert_eq!(backoff(10, 500), 3600);
    }
}
