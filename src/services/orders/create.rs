//! Creating an order: the quote checked again, the addresses validated, the order opened at the
//! provider and stored with its consequences; an `Idempotency-Key` as Stripe has them.

use std::time::Duration;

use rust_decimal::Decimal;
use sha2::{Digest, Sha256};

use super::{OrderError, Orders, check_address, check_tag, invoice_message, non_empty};
use crate::domain::address::AddressFamily;
use crate::domain::currency::Currency;
use crate::domain::fees::{self, Direction, RateType};
use crate::domain::lightning::{self, Invoice, InvoiceError};
use crate::domain::money::{Amount, to_wire};
use crate::domain::order::OrderStatus;
use crate::providers::{OpenedOrder, OrderRequest, ProviderError, UpstreamOrder};
use crate::services::quotes::{Quote, QuoteError, QuoteIssue, QuoteRequest, QuoteSide};
use crate::store::{
    IdempotencyClaim, IdempotencyKey, NewOrderRecord, OrderEffects, OrderEventRecord, OrderRecord,
    StoreError,
};

/// How long an `Idempotency-Key` answers with its first order (as Stripe keeps keys).
pub const IDEMPOTENCY_KEY_TTL_SECONDS: i64 = 24 * 3600;
/// A first request with a key still unanswered after this long was abandoned (its process
/// died mid-way): a retry with the same key and request takes the key over.
const ABANDONED_AFTER_SECONDS: i64 = 60;
/// How long a retry waits for the first request with its key to be answered.
const IN_FLIGHT_WAIT: Duration = Duration::from_secs(10);
const IN_FLIGHT_POLL: Duration = Duration::from_millis(50);
/// Deposit allocations tried before giving up (only the sandbox allocates; it is free to retry).
const ALLOCATION_ATTEMPTS: u32 = 5;

/// Beyond the deposit window, how long a Lightning invoice must stay payable: the deposit's
/// confirmations and the exchange itself.
const LIGHTNING_PAYOUT_MARGIN_SECONDS: i64 = 15 * 60;

/// A Lightning deposit is refunded to an invoice, which needs the refund's amount: it is asked
/// for only if a refund is needed.
pub(super) const LIGHTNING_REFUND_LATER: &str = "A Lightning deposit is refunded to an invoice you make if a refund is needed, for the amount shown then: no refund address now";

const ID_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const ID_LENGTH: usize = 16;
const METADATA_LIMIT: usize = 2048;

/// What a customer (or a partner for their customer) asks for.
pub struct NewOrder<'a> {
    pub from: &'a str,
    pub to: &'a str,
    pub amount: &'a str,
    pub direction: Direction,
    pub rate_type: RateType,
    pub to_address: &'a str,
    pub to_tag: Option<&'a str>,
    pub refund_address: Option<&'a str>,
    pub refund_tag: Option<&'a str>,
    pub metadata: Option<&'a str>,
    /// The caller's `Idempotency-Key`: the same key and request answer the first order.
    pub idempotency_key: Option<&'a str>,
    /// How long the key answers (a day for the site's keys; the partner API's replay window).
    pub idempotency_ttl_seconds: i64,
    /// The key answers only while its order still awaits its deposit (the partner API's
    /// implicit replay: the same request again after the order ended is a new order, never a
    /// closed order's deposit address).
    pub replay_only_while_new: bool,
    pub owner_user_id: Option<&'a str>,
    /// The partner API key the order is placed with.
    pub api_key_id: Option<&'a str>,
    /// The affiliate the order is attributed to (see `partners::ledger::Ledger::attribute`).
    pub affiliate_user_id: Option<&'a str>,
    /// The partner's markup on top of Ferry's fee, in percent (already capped).
    pub partner_fee_percent: Option<Decimal>,
    /// Who asks, as budgets count callers: the API key, or the client's address.
    pub caller: &'a str,
    /// The address the request came from (an upstream may want the end customer's).
    pub customer_ip: Option<std::net::IpAddr>,
    /// What the customer was shown they would receive (fixed rate): if the quote now gives
    /// less, no order is made and they are told the new amount; as much or more goes through.
    pub expected_to_amount: Option<Decimal>,
}

/// Who asks, as far as idempotency keys go: a key is its caller's and never answers anyone
/// else. Anonymous callers cannot be told apart, so their key counts only together with the
/// request it came with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caller<'a> {
    ApiKey(&'a str),
    User(&'a str),
    Anonymous,
}

impl NewOrder<'_> {
    pub fn caller(&self) -> Caller<'_> {
        match (self.api_key_id, self.owner_user_id) {
            (Some(key), _) => Caller::ApiKey(key),
            (None, Some(user)) => Caller::User(user),
            (None, None) => Caller::Anonymous,
        }
    }

    /// A digest of everything the request asks for: the same key with another request is
    /// refused, not answered with the first order.
    fn fingerprint(&self) -> String {
        let amount = Amount::parse(self.amount)
            .map(|a| to_wire(a.value()))
            .unwrap_or_else(|_| self.amount.trim().to_owned());
        let markup = self.partner_fee_percent.map(to_wire);
        let fields = [
            Some(self.from.trim().to_ascii_uppercase()),
            Some(self.to.trim().to_ascii_uppercase()),
            Some(amount),
            Some(self.direction.as_str().to_owned()),
            Some(self.rate_type.as_str().to_owned()),
            Some(self.to_address.trim().to_owned()),
            non_empty(self.to_tag).map(str::to_owned),
            non_empty(self.refund_address).map(str::to_owned),
            non_empty(self.refund_tag).map(str::to_owned),
            non_empty(self.metadata).map(str::to_owned),
            self.affiliate_user_id.map(str::to_owned),
            markup,
        ];
        let mut digest = Sha256::new();
        for field in fields {
            // Length-prefixed, so no two requests share a digest by moving text between fields.
            let field = field.unwrap_or_default();
            digest.update((field.len() as u64).to_be_bytes());
            digest.update(field.as_bytes());
        }
        hex::encode(digest.finalize())
    }

    fn idempotency(&self) -> Option<(IdempotencyKey, String)> {
        let key = non_empty(self.idempotency_key)?;
        let fingerprint = self.fingerprint();
        let scope = match self.caller() {
            Caller::ApiKey(id) => format!("key:{id}"),
            Caller::User(id) => format!("user:{id}"),
            Caller::Anonymous => format!("anon:{fingerprint}"),
        };
        Some((
            IdempotencyKey {
                scope,
                key: key.to_owned(),
            },
            fingerprint,
        ))
    }
}

/// Where an idempotent request stands.
enum Claimed {
    /// Go on and make the order; it will answer the key.
    Mine(Option<IdempotencyKey>),
    /// The key's first request made this order.
    Earlier(Box<OrderRecord>),
}

impl Orders {
    #[tracing::instrument(skip_all, fields(from = request.from, to = request.to))]
    pub async fn create(&self, request: NewOrder<'_>, now: i64) -> Result<OrderRecord, OrderError> {
        let key = match self.claim(&request, now).await? {
            Claimed::Earlier(order) => return Ok(*order),
            Claimed::Mine(key) => key,
        };
        let made = self.make(&request, key.clone(), now).await;
        if made.is_err()
            && let Some(key) = &key
        {
            // Nothing was made: the key is free for a corrected or later request.
            if let Err(error) = self.store.reclaim_idempotency_key(key, None, now).await {
                tracing::warn!(error = %error, "idempotency key not released");
            }
        }
        made
    }

    /// Claims the request's idempotency key, or finds what its first request made.
    async fn claim(&self, request: &NewOrder<'_>, now: i64) -> Result<Claimed, OrderError> {
        let Some((key, fingerprint)) = request.idempotency() else {
            return Ok(Claimed::Mine(None));
        };
        let ttl = request.idempotency_ttl_seconds;
        let waited_until = tokio::time::Instant::now() + IN_FLIGHT_WAIT;
        loop {
            let clock = crate::now_unix().max(now);
            match self
                .store
                .claim_idempotency_key(&key, &fingerprint, clock, ttl)
                .await?
            {
                IdempotencyClaim::Claimed => return Ok(Claimed::Mine(Some(key))),
                IdempotencyClaim::Answered(id) => {
                    let earlier = self.find(&id).await?;
                    if request.replay_only_while_new && earlier.status != OrderStatus::New {
                        self.store.forget_idempotency_key(&key, &id).await?;
                        continue;
                    }
                    return Ok(Claimed::Earlier(Box::new(earlier)));
                }
                IdempotencyClaim::Mismatch => {
                    return Err(OrderError::KeyReused(
                        "This Idempotency-Key was already used with a different request; use a new key for a new order".into(),
                    ));
                }
                IdempotencyClaim::InFlight { since } => {
                    if clock - since >= ABANDONED_AFTER_SECONDS
                        && self
                            .store
                            .reclaim_idempotency_key(&key, Some(since), clock)
                            .await?
                    {
                        return Ok(Claimed::Mine(Some(key)));
                    }
                    if tokio::time::Instant::now() >= waited_until {
                        return Err(OrderError::Conflict(
                            "An order with this Idempotency-Key is still being created; try again in a moment".into(),
                        ));
                    }
                    tokio::time::sleep(IN_FLIGHT_POLL).await;
                }
            }
        }
    }

    /// A Lightning payout's invoice, if it can be paid out to: decoded and checked, payable
    /// for as long as the order may take (the deposit window, the send coin's confirmations
    /// when it is known, and the exchange), and its payment hash never given for another order.
    pub async fn lightning_invoice(
        &self,
        text: &str,
        from: Option<&Currency>,
        now: i64,
    ) -> Result<Result<Invoice, InvoiceError>, OrderError> {
        let confirming = from.map_or(0, Currency::expected_confirmation_seconds);
        let needed = self.settings.expiry_seconds + confirming + LIGHTNING_PAYOUT_MARGIN_SECONDS;
        let invoice = match lightning::decode_payable(text, now, needed) {
            Ok(invoice) => invoice,
            Err(reason) => return Ok(Err(reason)),
        };
        if self.store.payment_hash_used(&invoice.payment_hash).await? {
            return Ok(Err(InvoiceError::Used));
        }
        Ok(Ok(invoice))
    }

    /// Quotes, validates, opens the order at the provider and stores it.
    async fn make(
        &self,
        request: &NewOrder<'_>,
        idempotency: Option<IdempotencyKey>,
        now: i64,
    ) -> Result<OrderRecord, OrderError> {
        // Paid out over Lightning, the invoice says how much: the order is for that amount
        // (direction `to`), whatever amount came with it, and at a fixed rate (an invoice is
        // paid exactly, so the amount cannot float).
        let invoice = match self.catalogue.get(request.to) {
            Some(to) if to.family == AddressFamily::Bolt11 => Some(
                self.lightning_invoice(request.to_address, self.catalogue.get(request.from), now)
                    .await?
                    .map_err(|reason| OrderError::Invalid(invoice_message(&reason)))?,
            ),
            _ => None,
        };
        let invoice_amount = invoice.as_ref().map(|i| i.amount.normalize().to_string());
        let for_invoice;
        let request = match (&invoice, &invoice_amount) {
            (Some(invoice), Some(amount)) => {
                for_invoice = NewOrder {
                    amount,
                    direction: Direction::To,
                    rate_type: RateType::Fixed,
                    to_address: &invoice.text,
                    ..*request
                };
                &for_invoice
            }
            _ => request,
        };
        let quote = self
            .quotes(request.partner_fee_percent)
            .quote(QuoteRequest {
                from: request.from,
                to: request.to,
                amount: request.amount,
                direction: request.direction,
                rate_type: request.rate_type,
            })
            .await?;
        let (from, to) = (quote.from.currency, quote.to.currency);
        if let Some(issue) = quote.issues.first() {
            return Err(OrderError::Invalid(issue_message(
                *issue,
                &quote.from,
                &quote.to,
            )));
        }
        check_address(to, request.to_address)?;
        let to_tag = check_tag(to, request.to_tag)?;
        // A refund address given is checked like the destination: a wrong one is refused, never
        // dropped (the customer would believe it is there).
        let refund_address = match non_empty(request.refund_address) {
            Some(_) if from.family == AddressFamily::Bolt11 => {
                return Err(OrderError::Invalid(LIGHTNING_REFUND_LATER.into()));
            }
            Some(address) => {
                check_address(from, address).map_err(|error| match error {
                    OrderError::Invalid(reason) => {
                        OrderError::Invalid(format!("Refund address: {reason}"))
                    }
                    other => other,
                })?;
                Some(address.to_owned())
            }
            None => None,
        };
        let refund_tag = match refund_address {
            Some(_) => check_tag(from, request.refund_tag)?,
            None if non_empty(request.refund_tag).is_some() => {
                return Err(OrderError::Invalid(
                    "A refund memo needs a refund address".into(),
                ));
            }
            None => None,
        };
        let metadata = check_metadata(request.metadata)?;
        if request.rate_type == RateType::Fixed
            && let Some(expected) = request.expected_to_amount
            && quote.to.amount < expected
        {
            return Err(OrderError::AmountChanged {
                to_amount: quote.to.amount,
                coin: to.coin.clone(),
            });
        }
        let fee_percent = self.fees.percent(request.rate_type);
        // Only now, once the request is good: an order at an upstream spends the operator's
        // quota there, of which each caller gets a share.
        if let Some(share) = &self.upstream_share
            && self.provider.is_remote()
        {
            share
                .take(&request.caller.to_owned())
                .await
                .map_err(|wait| QuoteError::from(ProviderError::Busy(wait.seconds())))?;
        }

        for attempt in 1..=ALLOCATION_ATTEMPTS {
            let opened = self
                .provider
                .open_order(&OrderRequest {
                    from,
                    to,
                    rate_type: request.rate_type,
                    direction: request.direction,
                    amount: match request.direction {
                        Direction::From => quote.from.amount,
                        Direction::To => quote.to.amount,
                    },
                    send_amount: quote.from.amount,
                    deposit_seconds: self.settings.expiry_seconds,
                    to_address: request.to_address.trim(),
                    to_tag: to_tag.as_deref(),
                    fee_percent: fee_percent + request.partner_fee_percent.unwrap_or_default(),
                    partner_markup: request
                        .partner_fee_percent
                        .is_some_and(|markup| markup > Decimal::ZERO),
                    refund_address: refund_address.as_deref(),
                    refund_tag: refund_tag.as_deref(),
                    customer_ip: request.customer_ip,
                })
                .await
                .map_err(|e| match e {
                    ProviderError::Rejected(reason) => OrderError::Invalid(reason),
                    other => QuoteError::from(other).into(),
                })?;
            let upstream = opened.upstream.is_some();
            if let (Some(invoice), Some(held)) = (&invoice, &opened.upstream) {
                check_upstream_holds_invoice(invoice, held, from)?;
            }
            // The upstream fixes its own amount when it makes the order: never one below what
            // the customer was shown. (Its order, never paid into, expires there.)
            if request.rate_type == RateType::Fixed
                && let (Some(expected), Some(held)) = (request.expected_to_amount, &opened.upstream)
                && held.to_amount < expected
            {
                tracing::info!(provider = %opened.provider, upstream.order = %held.id, "the upstream's fixed amount fell below the one shown");
                return Err(OrderError::AmountChanged {
                    to_amount: held.to_amount,
                    coin: to.coin.clone(),
                });
            }
            let mut order = self.order_record(request, &quote, opened, now);
            order.fee_percent = fee_percent;
            order.to_tag = to_tag.clone();
            order.refund_address = refund_address.clone();
            order.refund_tag = refund_tag.clone();
            order.metadata = metadata.clone();
            order.payment_hash = invoice.as_ref().map(|i| i.payment_hash.clone());
            let new = NewOrderRecord {
                effects: self.effects_of_new(&order, now).await?,
                order,
                idempotency: idempotency.clone(),
            };
            match self.store.insert_order(&new).await {
                Ok(()) => {
                    tracing::info!(order.id = %new.order.id, provider = %new.order.provider, "order created");
                    self.notify(&new.order.id);
                    return Ok(new.order);
                }
                // Another request answered this key meanwhile (it took an abandoned claim over):
                // that order is the answer.
                Err(StoreError::Conflict)
                    if let Some(earlier) = self.answer_of(&idempotency).await? =>
                {
                    return Ok(earlier);
                }
                // The same invoice, given for another order at the same moment.
                Err(StoreError::Conflict)
                    if let Some(invoice) = &invoice
                        && self.store.payment_hash_used(&invoice.payment_hash).await? =>
                {
                    return Err(OrderError::Invalid(invoice_message(&InvoiceError::Used)));
                }
                // The sandbox handed out a deposit that is taken: ask it again (it costs nothing).
                // An upstream's order is never opened twice for one customer's order.
                Err(StoreError::Conflict) if !upstream && attempt < ALLOCATION_ATTEMPTS => {}
                Err(StoreError::Conflict) => {
                    tracing::error!(provider = %new.order.provider, upstream, "a deposit the provider handed out is taken");
                    return Err(OrderError::Conflict(
                        "Could not allocate a deposit address".into(),
                    ));
                }
                Err(other) => return Err(other.into()),
            }
        }
        Err(OrderError::Conflict(
            "Could not allocate a deposit address".into(),
        ))
    }

    /// The order a key answers with, if it answers with one.
    async fn answer_of(
        &self,
        key: &Option<IdempotencyKey>,
    ) -> Result<Option<OrderRecord>, OrderError> {
        let Some(key) = key else {
            return Ok(None);
        };
        match self.store.idempotency_answer(key).await? {
            Some(id) => Ok(Some(self.find(&id).await?)),
            None => Ok(None),
        }
    }

    fn order_record(
        &self,
        request: &NewOrder<'_>,
        quote: &Quote,
        opened: OpenedOrder,
        now: i64,
    ) -> OrderRecord {
        let is_fixed = request.rate_type == RateType::Fixed;
        let mut order = OrderRecord {
            id: new_order_id(),
            version: 0,
            status: OrderStatus::New,
            rate_type: request.rate_type,
            direction: request.direction,
            provider: opened.provider.to_owned(),
            from_code: quote.from.currency.code.clone(),
            to_code: quote.to.currency.code.clone(),
            from_amount: quote.from.amount,
            to_amount: quote.to.amount,
            rate: quote.from.rate,
            from_usd: quote.from.usd.round_dp(2),
            to_usd: quote.to.usd.round_dp(2),
            deposit_address: opened.deposit_address,
            deposit_tag: opened.deposit_tag,
            to_address: request.to_address.trim().to_owned(),
            owner_user_id: request.owner_user_id.map(str::to_owned),
            created_at: now,
            expires_at: now + self.settings.expiry_seconds,
            rate_expires_at: is_fixed.then(|| now + fees::FIXED_RATE_HOLD.as_secs() as i64),
            updated_at: now,
            next_step_at: self.settings.autopilot_seconds.map(|s| now + s),
            api_key_id: request.api_key_id.map(str::to_owned),
            affiliate_user_id: request.affiliate_user_id.map(str::to_owned),
            partner_fee_percent: request.partner_fee_percent.map(|m| m.normalize()),
            ..OrderRecord::default()
        };
        if let Some(upstream) = opened.upstream {
            follow_upstream_order(
                &mut order,
                upstream,
                now,
                self.settings.provider_poll_seconds,
            );
        }
        order
    }

    /// What a new order brings with it: its pending commission and the partner's webhook.
    async fn effects_of_new(
        &self,
        order: &OrderRecord,
        now: i64,
    ) -> Result<OrderEffects, OrderError> {
        let Some(partners) = &self.settings.partners else {
            return Ok(OrderEffects::default());
        };
        let created = OrderEventRecord {
            id: 0,
            order_id: order.id.clone(),
            status: order.status.as_str().to_owned(),
            detail: Some("created".into()),
            created_at: now,
        };
        Ok(OrderEffects {
            commission: partners.ledger.commission(order, now),
            webhooks: partners
                .webhooks
                .deliveries(order, &[created], &self.token_of(&order.id), now)
                .await?,
            ..OrderEffects::default()
        })
    }
}

/// Takes the amounts and deadline an upstream provider holds the order to, and how to follow it.
fn follow_upstream_order(record: &mut OrderRecord, upstream: UpstreamOrder, now: i64, poll: i64) {
    record.from_amount = upstream.from_amount;
    record.to_amount = upstream.to_amount;
    if !upstream.from_amount.is_zero() {
        record.rate = (upstream.to_amount / upstream.from_amount).round_dp(8);
    }
    record.expires_at = upstream.expires_at;
    record.next_step_at = Some(now + poll);
    record.provider_order_id = Some(upstream.id);
    record.provider_order_token = Some(upstream.token);
}

fn check_metadata(metadata: Option<&str>) -> Result<Option<String>, OrderError> {
    let Some(metadata) = non_empty(metadata) else {
        return Ok(None);
    };
    if metadata.len() > METADATA_LIMIT {
        return Err(OrderError::Invalid("metadata is too long".into()));
    }
    match serde_json::from_str::<serde_json::Value>(metadata) {
        Ok(serde_json::Value::Object(_)) => Ok(Some(metadata.to_owned())),
        _ => Err(OrderError::Invalid(
            "metadata must be a JSON object string".into(),
        )),
    }
}

fn issue_message(issue: QuoteIssue, from: &QuoteSide, to: &QuoteSide) -> String {
    let limit = |amount: Decimal, currency: &Currency| {
        format!(
            "You exceeded the limit of {} {}",
            to_wire(amount),
            currency.coin
        )
    };
    match issue {
        QuoteIssue::LimitMin => format!(
            "The minimum amount is {} {}",
            to_wire(from.min),
            from.currency.coin
        ),
        QuoteIssue::LimitMax | QuoteIssue::FromAmountExceedsMax => limit(from.max, from.currency),
        QuoteIssue::ToAmountExceedsMax | QuoteIssue::ReserveTo => limit(to.max, to.currency),
        QuoteIssue::MaintenanceFrom | QuoteIssue::MaintenanceTo => {
            "Network temporarily suspended for maintenance".into()
        }
        QuoteIssue::PairUnavailable => "Network temporarily suspended".into(),
    }
}

fn new_order_id() -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..ID_LENGTH)
        .map(|_| ID_ALPHABET[rng.random_range(0..ID_ALPHABET.len())] as char)
        .collect()
}

/// An upstream that fills a Lightning payout must pay the invoice's amount exactly, and its
/// deposit deadline must leave the invoice time to be paid (its order, unfunded, then lapses).
fn check_upstream_holds_invoice(
    invoice: &Invoice,
    held: &UpstreamOrder,
    from: &Currency,
) -> Result<(), OrderError> {
    if held.to_amount != invoice.amount {
        return Err(OrderError::Conflict(format!(
            "The exchange would pay {} BTC, not the invoice's {} BTC: try again in a moment",
            to_wire(held.to_amount),
            to_wire(invoice.amount)
        )));
    }
    let paid_by =
        held.expires_at + from.expected_confirmation_seconds() + LIGHTNING_PAYOUT_MARGIN_SECONDS;
    if paid_by > invoice.expires_at {
        return Err(OrderError::Invalid(invoice_message(
            &InvoiceError::ExpiresTooSoon {
                minutes_left: (invoice.expires_at - crate::now_unix()).max(0) / 60,
                minutes_needed: (paid_by - crate::now_unix() + 59) / 60,
            },
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request<'a>(amount: &'a str, address: &'a str) -> NewOrder<'a> {
        NewOrder {
            from: "btc",
            to: "ETH",
            amount,
            direction: Direction::From,
            rate_type: RateType::Float,
            to_address: address,
            to_tag: None,
            refund_address: None,
            refund_tag: None,
            metadata: None,
            idempotency_key: Some("cart-42"),
            idempotency_ttl_seconds: IDEMPOTENCY_KEY_TTL_SECONDS,
            replay_only_while_new: false,
            owner_user_id: None,
            api_key_id: None,
            affiliate_user_id: None,
            partner_fee_percent: None,
            expected_to_amount: None,
            caller: "203.0.113.7",
            customer_ip: None,
        }
    }

    #[test]
    fn the_fingerprint_is_the_request_not_its_spelling() {
        let a = request("0.10", " 0xabc ");
        let b = request("0.1", "0xabc");
        assert_eq!(a.fingerprint(), b.fingerprint());
        assert_ne!(a.fingerprint(), request("0.2", "0xabc").fingerprint());
        assert_ne!(a.fingerprint(), request("0.1", "0xabd").fingerprint());
        let mut fixed = request("0.1", "0xabc");
        fixed.rate_type = RateType::Fixed;
        assert_ne!(a.fingerprint(), fixed.fingerprint());
    }

    #[test]
    fn keys_are_scoped_to_their_caller() {
        let anonymous = request("0.1", "0xabc");
        let (key, _) = anonymous.idempotency().unwrap();
        assert_eq!(key.scope, format!("anon:{}", anonymous.fingerprint()));
        let mut user = request("0.1", "0xabc");
        user.owner_user_id = Some("u1");
        assert_eq!(user.idempotency().unwrap().0.scope, "user:u1");
        let mut partner = request("0.1", "0xabc");
        partner.owner_user_id = Some("u1");
        partner.api_key_id = Some("k1");
        assert_eq!(partner.idempotency().unwrap().0.scope, "key:k1");
        let mut none = request("0.1", "0xabc");
        none.idempotency_key = Some("  ");
        assert!(none.idempotency().is_none());
    }
}
