//! Orders: creation (validated again on the server), the deposit, the simulated lifecycle,
//! expiry, the emergency choice and the refund address (spec/exchange.md §3, §4, §9).

use std::str::FromStr;
use std::sync::Arc;

use hmac::{Hmac, Mac};
use rand::Rng;
use rust_decimal::Decimal;
use sha2::Sha256;
use tokio::sync::broadcast;

use super::availability::CurrencySwitches;
use super::partners::Partners;
use super::quotes::{QuoteError, QuoteIssue, QuoteRequest, QuoteService};
use crate::domain::address::{AddressError, validate_address, validate_tag};
use crate::domain::currency::{Catalogue, Currency};
use crate::domain::fees::{self, Direction, FeeSchedule, QuoteInput, RateType};
use crate::domain::language::Language;
use crate::domain::money::{round_down, to_wire};
use crate::domain::order::{EmergencyReason, OrderEvent, OrderStatus, events_toward};
use crate::domain::secret::constant_time_eq;
use crate::providers::{
    LiquidityProvider, OrderRequest, PairMarket, ProviderError, UpstreamOrder, UpstreamRef,
};
use crate::store::{DynStore, OrderRecord, StoreError};

const ID_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const ID_LENGTH: usize = 16;
const METADATA_LIMIT: usize = 2048;

#[derive(Debug, thiserror::Error)]
pub enum OrderError {
    #[error("{0}")]
    Invalid(String),
    #[error("Order not found")]
    NotFound,
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Quote(#[from] QuoteError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a customer asks for.
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
    pub idempotency_key: Option<&'a str>,
    pub owner_user_id: Option<&'a str>,
    /// The partner API key the order is placed with.
    pub api_key_id: Option<&'a str>,
    /// The affiliate the order is attributed to (see `partners::ledger::Ledger::attribute`).
    pub affiliate_user_id: Option<&'a str>,
    /// The partner's markup on top of Ferry's fee, in percent (already capped).
    pub partner_fee_percent: Option<Decimal>,
}

#[derive(Clone)]
pub struct OrderSettings {
    /// Seconds an order waits for its deposit.
    pub expiry_seconds: i64,
    /// Seconds between simulated steps once the deposit is in.
    pub sandbox_step_seconds: i64,
    /// When set, the sandbox deposits the exact amount by itself this long after creation.
    pub autopilot_seconds: Option<i64>,
    /// Seconds between two looks at an order an upstream provider fills.
    pub provider_poll_seconds: i64,
    /// Tells signed-in owners about their orders by mail (when their profile wants it).
    pub status_mails: Option<StatusMails>,
    /// The partner programme: commissions and webhooks follow every order.
    pub partners: Option<Arc<Partners>>,
}

/// What order-status mails need: the outbox and the site's name and address.
#[derive(Clone)]
pub struct StatusMails {
    pub mailer: crate::services::mail::Mailer,
    pub site_name: String,
    pub public_url: String,
}

pub use crate::domain::order::EmergencyChoice;

pub struct Orders {
    pub store: DynStore,
    pub catalogue: &'static Catalogue,
    pub provider: Arc<dyn LiquidityProvider>,
    pub switches: CurrencySwitches,
    pub fees: FeeSchedule,
    pub settings: OrderSettings,
    token_key: Vec<u8>,
    changes: broadcast::Sender<String>,
}

/// Which order changed: wakes the event streams of this process at once.
pub type OrderChanges = broadcast::Receiver<String>;

impl Orders {
    pub async fn new(
        store: DynStore,
        catalogue: &'static Catalogue,
        provider: Arc<dyn LiquidityProvider>,
        switches: CurrencySwitches,
        fees: FeeSchedule,
        settings: OrderSettings,
    ) -> Result<Orders, StoreError> {
        let candidate = hex::encode(rand::rng().random::<[u8; 32]>());
        let token_key = hex::decode(store.secret("order_token_key", &candidate).await?)
            .unwrap_or_else(|_| candidate.into_bytes());
        let (changes, _) = broadcast::channel(256);
        Ok(Orders {
            store,
            catalogue,
            provider,
            switches,
            fees,
            settings,
            token_key,
            changes,
        })
    }

    pub fn subscribe(&self) -> OrderChanges {
        self.changes.subscribe()
    }

    /// The secret that proves the holder created the order: an HMAC of its id, so it is
    /// never stored and a retried creation can hand it out again.
    pub fn token_of(&self, id: &str) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.token_key).expect("any key length");
        mac.update(b"order-token:");
        mac.update(id.as_bytes());
        hex::encode(&mac.finalize().into_bytes()[..16])
    }

    fn token_matches(&self, id: &str, token: &str) -> bool {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.token_key).expect("any key length");
        mac.update(b"order-token:");
        mac.update(id.as_bytes());
        let expected = mac.finalize().into_bytes();
        hex::decode(token)
            .is_ok_and(|given| given.len() == 16 && constant_time_eq(&given, &expected[..16]))
    }

    pub fn currency(&self, code: &str) -> Option<&'static Currency> {
        self.catalogue.get(code)
    }

    fn quotes(&self, markup: Option<Decimal>) -> QuoteService<'_> {
        QuoteService {
            catalogue: self.catalogue,
            provider: self.provider.as_ref(),
            switches: &self.switches,
            fees: markup.map_or(self.fees, |m| self.fees.with_markup(m)),
        }
    }

    /// The fee percent an order pays: Ferry's, plus the partner's markup if any.
    fn fee_percent_of(&self, order: &OrderRecord, rate_type: RateType) -> Decimal {
        self.fees.percent(rate_type)
            + order
                .partner_fee_percent
                .as_deref()
                .map_or(Decimal::ZERO, dec)
    }

    #[tracing::instrument(skip_all, fields(from = request.from, to = request.to))]
    pub async fn create(&self, request: NewOrder<'_>, now: i64) -> Result<OrderRecord, OrderError> {
        if let Some(existing) = self.existing(request.idempotency_key).await? {
            return Ok(existing);
        }
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
        let to_tag = non_empty(request.to_tag);
        if let Some(tag) = to_tag {
            validate_tag(to.family, tag).map_err(|e| {
                OrderError::Invalid(format!("Invalid {} {}: {e}", to.coin, tag_label(to)))
            })?;
        }
        // The widget sends the destination as the refund address by default (spec §5): keep it
        // only when it is valid for the send coin's network; the refund choice asks otherwise.
        let refund_address = non_empty(request.refund_address)
            .filter(|a| validate_address(from.family, &from.network, a).is_ok())
            .map(str::to_owned);
        let refund_tag = refund_address
            .as_ref()
            .and(non_empty(request.refund_tag))
            .filter(|t| validate_tag(from.family, t).is_ok())
            .map(str::to_owned);
        let metadata = check_metadata(request.metadata)?;

        let is_fixed = request.rate_type == RateType::Fixed;
        let mut attempts = 0;
        loop {
            attempts += 1;
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
                    to_address: request.to_address.trim(),
                    to_tag,
                    fee_percent: self.fees.percent(request.rate_type)
                        + request.partner_fee_percent.unwrap_or_default(),
                })
                .await
                .map_err(|e| match e {
                    ProviderError::Rejected(reason) => OrderError::Invalid(reason),
                    other => QuoteError::from(other).into(),
                })?;
            let mut record = OrderRecord {
                id: new_order_id(),
                status: OrderStatus::New.as_str().to_owned(),
                rate_type: request.rate_type.as_str().to_owned(),
                direction: request.direction.as_str().to_owned(),
                provider: opened.provider.to_owned(),
                from_code: from.code.clone(),
                to_code: to.code.clone(),
                from_amount: to_wire(quote.from.amount),
                to_amount: to_wire(quote.to.amount),
                rate: to_wire(quote.from.rate),
                from_usd: format!("{:.2}", quote.from.usd),
                to_usd: format!("{:.2}", quote.to.usd),
                deposit_address: opened.deposit_address,
                deposit_tag: opened.deposit_tag,
                to_address: request.to_address.trim().to_owned(),
                to_tag: to_tag.map(str::to_owned),
                refund_address: refund_address.clone(),
                refund_tag: refund_tag.clone(),
                metadata: metadata.clone(),
                owner_user_id: request.owner_user_id.map(str::to_owned),
                idempotency_key: request.idempotency_key.map(str::to_owned),
                received_amount: None,
                payout_amount: None,
                emergency_reason: None,
                emergency_choice: None,
                created_at: now,
                expires_at: now + self.settings.expiry_seconds,
                rate_expires_at: is_fixed.then(|| now + fees::FIXED_RATE_HOLD.as_secs() as i64),
                updated_at: now,
                finished_at: None,
                next_step_at: self.settings.autopilot_seconds.map(|s| now + s),
                api_key_id: request.api_key_id.map(str::to_owned),
                affiliate_user_id: request.affiliate_user_id.map(str::to_owned),
                partner_fee_percent: request
                    .partner_fee_percent
                    .map(|m| m.normalize().to_string()),
                notify_email: None,
                provider_order_id: None,
                provider_order_token: None,
            };
            if let Some(upstream) = opened.upstream {
                follow_upstream_order(
                    &mut record,
                    upstream,
                    now,
                    self.settings.provider_poll_seconds,
                );
            }
            match self.store.insert_order(&record).await {
                Ok(()) => {
                    tracing::info!(order.id = %record.id, "order created");
                    self.notify(&record.id);
                    if let Some(partners) = &self.settings.partners {
                        partners
                            .order_created(&record, &self.token_of(&record.id), now)
                            .await;
                    }
                    return Ok(record);
                }
                Err(StoreError::Conflict) => {
                    if let Some(existing) = self.existing(request.idempotency_key).await? {
                        return Ok(existing);
                    }
                    if attempts >= 5 {
                        return Err(OrderError::Conflict(
                            "Could not allocate a deposit address".into(),
                        ));
                    }
                }
                Err(other) => return Err(other.into()),
            }
        }
    }

    /// The order already made under `key`, if any.
    async fn existing(&self, key: Option<&str>) -> Result<Option<OrderRecord>, OrderError> {
        match key {
            Some(key) => Ok(self.store.find_order_by_idempotency_key(key).await?),
            None => Ok(None),
        }
    }

    /// The order, if `token` is its token or `user_id` its owner; otherwise not found (no
    /// enumeration).
    pub async fn authorized(
        &self,
        id: &str,
        token: Option<&str>,
        user_id: Option<&str>,
    ) -> Result<OrderRecord, OrderError> {
        let order = self
            .store
            .find_order(id)
            .await?
            .ok_or(OrderError::NotFound)?;
        let by_token = token.is_some_and(|t| self.token_matches(&order.id, t));
        let by_owner = user_id.is_some() && order.owner_user_id.as_deref() == user_id;
        if by_token || by_owner {
            Ok(order)
        } else {
            Err(OrderError::NotFound)
        }
    }

    pub async fn find(&self, id: &str) -> Result<OrderRecord, OrderError> {
        self.store.find_order(id).await?.ok_or(OrderError::NotFound)
    }

    /// A (simulated) deposit of `amount` (default: exactly what was ordered).
    pub async fn deposit(
        &self,
        id: &str,
        amount: Option<Decimal>,
        now: i64,
    ) -> Result<OrderRecord, OrderError> {
        let order = self.find(id).await?;
        let status = parse_status(&order)?;
        let from = self.currency_of(&order.from_code)?;
        let ordered = dec(&order.from_amount);
        let received = round_down(amount.unwrap_or(ordered), from.precision);
        if received <= Decimal::ZERO {
            return Err(OrderError::Invalid(
                "The deposit must be greater than zero".into(),
            ));
        }
        let mut next = order.clone();
        next.received_amount = Some(to_wire(received));
        let event = match status {
            OrderStatus::Expired => OrderEvent::Problem(EmergencyReason::Expired),
            OrderStatus::New => self.judge_deposit(&order, &mut next, received, now).await?,
            _ => {
                return Err(OrderError::Conflict(
                    "The order is not awaiting a deposit".into(),
                ));
            }
        };
        let detail = match event {
            OrderEvent::Problem(reason) => {
                format!("deposit of {} {}: {reason:?}", to_wire(received), from.coin)
            }
            _ => format!("deposit of {} {} detected", to_wire(received), from.coin),
        };
        self.transition(next, status, event, now, Some(&detail))
            .await
    }

    /// Decides what a deposit on a NEW order means: fine, or a problem for the customer.
    async fn judge_deposit(
        &self,
        order: &OrderRecord,
        next: &mut OrderRecord,
        received: Decimal,
        now: i64,
    ) -> Result<OrderEvent, OrderError> {
        let ordered = dec(&order.from_amount);
        if order.rate_type == "fixed" {
            if received < ordered {
                return Ok(OrderEvent::Problem(EmergencyReason::Less));
            }
            if received > ordered {
                return Ok(OrderEvent::Problem(EmergencyReason::More));
            }
            let late = order.rate_expires_at.is_some_and(|t| now > t);
            if late
                && fees::moved_beyond_tolerance(
                    dec(&order.rate),
                    self.current_rate(order, received).await?,
                )
            {
                return Ok(OrderEvent::Problem(EmergencyReason::Rate));
            }
            return Ok(OrderEvent::DepositDetected);
        }
        let (_, _, market) = self.market_of(order).await?;
        if received < market.min_from || received > market.max_from {
            return Ok(OrderEvent::Problem(EmergencyReason::Limit));
        }
        next.to_amount = to_wire(self.payout_for(order, received).await?);
        Ok(OrderEvent::DepositDetected)
    }

    /// The order's two currencies and their market right now.
    async fn market_of(
        &self,
        order: &OrderRecord,
    ) -> Result<(&'static Currency, &'static Currency, PairMarket), OrderError> {
        let from = self.currency_of(&order.from_code)?;
        let to = self.currency_of(&order.to_code)?;
        let market = self
            .provider
            .market(from, to, rate_type_of(order))
            .await
            .map_err(QuoteError::from)?;
        Ok((from, to, market))
    }

    /// What `received` buys at the current market, after every fee.
    async fn payout_for(
        &self,
        order: &OrderRecord,
        received: Decimal,
    ) -> Result<Decimal, OrderError> {
        let (from, to, market) = self.market_of(order).await?;
        let rate_type = rate_type_of(order);
        let amounts = fees::quote(QuoteInput {
            direction: Direction::From,
            amount: received,
            market_rate: market.rate,
            fee_percent: self.fee_percent_of(order, rate_type),
            network_fee: market.network_fee_to,
            from_precision: from.precision,
            to_precision: to.precision,
        });
        Ok(amounts.map_or(Decimal::ZERO, |a| a.to))
    }

    async fn current_rate(
        &self,
        order: &OrderRecord,
        received: Decimal,
    ) -> Result<Decimal, OrderError> {
        let payout = self.payout_for(order, received).await?;
        Ok(if received.is_zero() {
            Decimal::ZERO
        } else {
            payout / received
        })
    }

    /// The customer's decision on an order in EMERGENCY.
    pub async fn choose(
        &self,
        order: OrderRecord,
        choice: EmergencyChoice,
        refund_address: Option<&str>,
        refund_tag: Option<&str>,
        now: i64,
    ) -> Result<OrderRecord, OrderError> {
        let status = parse_status(&order)?;
        if status != OrderStatus::Emergency {
            return Err(OrderError::Conflict(
                "The order does not need a decision".into(),
            ));
        }
        let mut next = order.clone();
        match choice {
            EmergencyChoice::Refund => {
                if let Some(address) = non_empty(refund_address) {
                    self.apply_refund_address(&mut next, address, refund_tag)?;
                }
                let Some(address) = next.refund_address.as_deref() else {
                    return Err(OrderError::Invalid("Enter a refund address".into()));
                };
                self.tell_upstream(&order, choice, Some((address, next.refund_tag.as_deref())))
                    .await?;
                next.emergency_choice = Some("REFUND".into());
                next.next_step_at = Some(if order.provider_order_id.is_some() {
                    now + self.settings.provider_poll_seconds
                } else {
                    now + self.settings.sandbox_step_seconds
                });
                next.updated_at = now;
                if !self
                    .store
                    .update_order(&next, status.as_str(), None)
                    .await?
                {
                    return Err(OrderError::Conflict("The order changed; try again".into()));
                }
                self.notify(&next.id);
                Ok(next)
            }
            EmergencyChoice::Exchange => {
                self.tell_upstream(&order, choice, None).await?;
                next.emergency_choice = Some("EXCHANGE".into());
                let received = next
                    .received_amount
                    .as_deref()
                    .map(dec)
                    .unwrap_or_else(|| dec(&order.from_amount));
                next.to_amount = to_wire(self.payout_for(&order, received).await?);
                self.transition(
                    next,
                    status,
                    OrderEvent::ContinueChosen,
                    now,
                    Some("continue chosen"),
                )
                .await
            }
        }
    }

    /// Passes the customer's choice on to the provider that fills the order, if one does.
    async fn tell_upstream(
        &self,
        order: &OrderRecord,
        choice: EmergencyChoice,
        refund: Option<(&str, Option<&str>)>,
    ) -> Result<(), OrderError> {
        let (Some(id), Some(token)) = (&order.provider_order_id, &order.provider_order_token)
        else {
            return Ok(());
        };
        self.provider
            .choose(
                &UpstreamRef {
                    provider: &order.provider,
                    id,
                    token,
                },
                choice,
                refund,
            )
            .await
            .map_err(|e| match e {
                ProviderError::Rejected(reason) => OrderError::Conflict(reason),
                other => QuoteError::from(other).into(),
            })
    }

    /// Sets or changes the refund address while the order is not finished.
    pub async fn set_refund_address(
        &self,
        order: OrderRecord,
        address: &str,
        tag: Option<&str>,
        now: i64,
    ) -> Result<OrderRecord, OrderError> {
        let status = parse_status(&order)?;
        if matches!(status, OrderStatus::Completed | OrderStatus::Refunded) {
            return Err(OrderError::Conflict("The order is finished".into()));
        }
        let mut next = order;
        self.apply_refund_address(&mut next, address, tag)?;
        next.updated_at = now;
        if !self
            .store
            .update_order(&next, status.as_str(), None)
            .await?
        {
            return Err(OrderError::Conflict("The order changed; try again".into()));
        }
        Ok(next)
    }

    fn apply_refund_address(
        &self,
        order: &mut OrderRecord,
        address: &str,
        tag: Option<&str>,
    ) -> Result<(), OrderError> {
        let from = self.currency_of(&order.from_code)?;
        check_address(from, address)?;
        let tag = non_empty(tag);
        if let Some(tag) = tag {
            validate_tag(from.family, tag).map_err(|e| {
                OrderError::Invalid(format!("Invalid {} {}: {e}", from.coin, tag_label(from)))
            })?;
        }
        order.refund_address = Some(address.trim().to_owned());
        order.refund_tag = tag.map(str::to_owned);
        Ok(())
    }

    /// Moves every order whose simulated step is due one step on. Returns how many moved.
    pub async fn advance_due(&self, owner: &str, now: i64) -> Result<usize, OrderError> {
        let due = self.store.lease_due_orders(now, owner, 30, 50).await?;
        let mut moved = 0;
        for order in due {
            match self.advance(order, now).await {
                Ok(()) => moved += 1,
                Err(error) => tracing::warn!(error = %error, "could not advance an order"),
            }
        }
        Ok(moved)
    }

    async fn advance(&self, order: OrderRecord, now: i64) -> Result<(), OrderError> {
        if order.provider_order_id.is_some() {
            return self.follow_upstream(order, now).await;
        }
        let status = parse_status(&order)?;
        let step = self.settings.sandbox_step_seconds;
        let mut next = order.clone();
        let (event, detail, next_step) = match status {
            OrderStatus::New => {
                // The autopilot pays exactly what was ordered.
                self.deposit(&order.id, None, now).await?;
                return Ok(());
            }
            OrderStatus::Confirming => {
                let from = self.currency_of(&order.from_code)?;
                let detail = format!("{} confirmations reached", from.confirmations);
                (OrderEvent::DepositConfirmed, detail, Some(now + step))
            }
            OrderStatus::Exchange => {
                next.payout_amount = Some(order.to_amount.clone());
                (
                    OrderEvent::Exchanged,
                    "exchanged".to_owned(),
                    Some(now + step),
                )
            }
            OrderStatus::Sending => (OrderEvent::PayoutSent, "payout sent".to_owned(), None),
            OrderStatus::Emergency if order.emergency_choice.as_deref() == Some("REFUND") => {
                (OrderEvent::Refunded, "refund sent".to_owned(), None)
            }
            _ => {
                next.next_step_at = None;
                next.updated_at = now;
                self.store
                    .update_order(&next, status.as_str(), None)
                    .await?;
                return Ok(());
            }
        };
        next.next_step_at = next_step;
        self.transition(next, status, event, now, Some(&detail))
            .await?;
        Ok(())
    }

    /// Brings an order an upstream provider fills up to what the provider says of it, replaying
    /// any steps missed between two looks, and schedules the next look.
    async fn follow_upstream(&self, order: OrderRecord, now: i64) -> Result<(), OrderError> {
        let current = parse_status(&order)?;
        let reference = UpstreamRef {
            provider: &order.provider,
            id: order.provider_order_id.as_deref().unwrap_or_default(),
            token: order.provider_order_token.as_deref().unwrap_or_default(),
        };
        // Each look moves the next one on and releases the lease; only news changes `updated_at`.
        let mut next = order.clone();
        next.next_step_at = self.next_look(&order, current, now);
        let state = match self.provider.order_state(&reference).await {
            Ok(state) => state,
            Err(error) => {
                // Look again later: the provider being away changes nothing about the order.
                self.store
                    .update_order(&next, current.as_str(), None)
                    .await?;
                return Err(QuoteError::from(error).into());
            }
        };
        if let Some(received) = state.received {
            next.received_amount = Some(to_wire(received));
        }
        if let Some(to_amount) = state.to_amount {
            next.to_amount = to_wire(to_amount);
        }
        if let Some(paid_out) = state.paid_out {
            next.payout_amount = Some(to_wire(paid_out));
        }
        if (&next.received_amount, &next.to_amount, &next.payout_amount)
            != (
                &order.received_amount,
                &order.to_amount,
                &order.payout_amount,
            )
        {
            next.updated_at = now;
        }
        let problem = state.problem.unwrap_or(EmergencyReason::Less);
        // Done after the customer asked for their money back is a refund, however it is told.
        let target = match (state.status, order.emergency_choice.as_deref()) {
            (OrderStatus::Completed, Some("REFUND")) => OrderStatus::Refunded,
            (status, _) => status,
        };
        let events = events_toward(current, target, problem).unwrap_or_else(|| {
            tracing::warn!(order.id = %order.id, from = current.as_str(), to = target.as_str(),
                "the provider's status cannot be reached from the order's; following on");
            Vec::new()
        });
        if events.is_empty() {
            self.store
                .update_order(&next, current.as_str(), None)
                .await?;
            return Ok(());
        }
        let detail = format!("{} at {}", target.partner_status(), order.provider);
        let mut status = current;
        for event in events {
            next = self
                .transition(next, status, event, now, Some(&detail))
                .await?;
            status = parse_status(&next)?;
        }
        Ok(())
    }

    /// When to look at an upstream order again: until it is done, and for a day after it
    /// expired (a late deposit turns it into an emergency there).
    fn next_look(&self, order: &OrderRecord, status: OrderStatus, now: i64) -> Option<i64> {
        let done = matches!(status, OrderStatus::Completed | OrderStatus::Refunded)
            || (status == OrderStatus::Expired && now > order.expires_at + 86_400);
        (!done).then_some(now + self.settings.provider_poll_seconds)
    }

    /// Settles partner commissions whose order ended without its settlement being stored (a
    /// crash or an error in between). Returns how many it settled.
    pub async fn settle_missed_commissions(&self, now: i64) -> Result<usize, OrderError> {
        match &self.settings.partners {
            Some(partners) => Ok(partners.ledger.settle_missed(now).await?),
            None => Ok(0),
        }
    }

    /// Expires NEW orders past their deadline. Returns how many expired.
    pub async fn expire_overdue(&self, now: i64) -> Result<usize, OrderError> {
        let overdue = self.store.overdue_new_orders(now, 100).await?;
        let mut expired = 0;
        for order in overdue {
            let mut next = order.clone();
            next.next_step_at = None;
            if self
                .transition(
                    next,
                    OrderStatus::New,
                    OrderEvent::DeadlinePassed,
                    now,
                    Some("no deposit in time"),
                )
                .await
                .is_ok()
            {
                expired += 1;
            }
        }
        Ok(expired)
    }

    /// Applies `event` through the state machine and stores the change with its event.
    async fn transition(
        &self,
        mut next: OrderRecord,
        from: OrderStatus,
        event: OrderEvent,
        now: i64,
        detail: Option<&str>,
    ) -> Result<OrderRecord, OrderError> {
        let to = from
            .apply(event)
            .map_err(|e| OrderError::Conflict(e.to_string()))?;
        next.status = to.as_str().to_owned();
        next.updated_at = now;
        match (to, event) {
            (OrderStatus::Emergency, OrderEvent::Problem(reason)) => {
                next.emergency_reason = Some(format!("{reason:?}").to_uppercase());
                next.next_step_at = None;
            }
            (OrderStatus::Confirming | OrderStatus::Exchange, _) => {
                next.next_step_at = Some(now + self.settings.sandbox_step_seconds);
            }
            _ => {}
        }
        if matches!(
            to,
            OrderStatus::Completed
                | OrderStatus::Refunded
                | OrderStatus::Expired
                | OrderStatus::Failed
        ) {
            next.finished_at = Some(now);
            next.next_step_at = None;
        }
        if next.provider_order_id.is_some() {
            next.next_step_at = self.next_look(&next, to, now);
        }
        if !self
            .store
            .update_order(&next, from.as_str(), detail)
            .await?
        {
            return Err(OrderError::Conflict("The order changed; try again".into()));
        }
        tracing::info!(order.id = %next.id, from = from.as_str(), to = to.as_str(), "order status changed");
        self.notify(&next.id);
        if let Err(error) = self.mail_owner(&next, to, now).await {
            // The change stands; only its notification is missing.
            tracing::warn!(order.id = %next.id, error = %error, "order-status mail not queued");
        }
        if let Some(partners) = &self.settings.partners {
            partners
                .order_changed(&next, to, &self.token_of(&next.id), now)
                .await;
        }
        Ok(next)
    }

    /// Queues a mail to a signed-in owner who wants them, for the changes worth a mail: the
    /// deposit arrived, a decision is needed, and the end of the order.
    async fn mail_owner(
        &self,
        order: &OrderRecord,
        status: OrderStatus,
        now: i64,
    ) -> Result<(), StoreError> {
        let Some(mails) = &self.settings.status_mails else {
            return Ok(());
        };
        use crate::services::mail::templates::{self, Reason, StatusMail};
        let status = match status {
            OrderStatus::Confirming => StatusMail::Confirming,
            OrderStatus::Emergency => StatusMail::Emergency,
            OrderStatus::Completed => StatusMail::Completed,
            OrderStatus::Refunded => StatusMail::Refunded,
            OrderStatus::Failed => StatusMail::Failed,
            _ => return Ok(()),
        };
        // The owner in their language; an address given for the order in English.
        let mut recipients = Vec::new();
        if let Some(owner) = &order.owner_user_id
            && let Some(user) = self
                .store
                .find_user(owner)
                .await?
                .filter(|u| u.order_emails)
        {
            recipients.push((user.email.clone(), user.mail_language(), Reason::Profile));
        }
        if let Some(email) = &order.notify_email
            && !recipients.iter().any(|(r, _, _)| r == email)
        {
            recipients.push((email.clone(), Language::En, Reason::Order));
        }
        // The public page: the token is not mailed, so a mistyped address cannot act on it.
        let link = format!(
            "{}/order-details/{}",
            mails.public_url.trim_end_matches('/'),
            order.id
        );
        for (recipient, language, reason) in recipients {
            let mail = templates::order_status(
                language,
                &mails.site_name,
                &order.id,
                status,
                &link,
                reason,
            );
            mails
                .mailer
                .enqueue(&recipient, &mail.subject, &mail.body, now)
                .await?;
        }
        Ok(())
    }

    /// Sends this order's status mails to `email` too (the partner API's `setEmail`).
    pub async fn set_notify_email(
        &self,
        order: &OrderRecord,
        email: &str,
    ) -> Result<(), OrderError> {
        let email = crate::domain::account::Email::parse(email)
            .map_err(|_| OrderError::Invalid("Invalid email".into()))?;
        if !self
            .store
            .set_order_email(&order.id, email.as_str())
            .await?
        {
            return Err(OrderError::NotFound);
        }
        Ok(())
    }

    fn notify(&self, id: &str) {
        let _ = self.changes.send(id.to_owned());
    }

    fn currency_of(&self, code: &str) -> Result<&'static Currency, OrderError> {
        self.catalogue
            .get(code)
            .ok_or_else(|| OrderError::Invalid(format!("Unknown currency {code}")))
    }
}

/// Takes the amounts and deadline an upstream provider holds the order to, and how to follow it.
fn follow_upstream_order(record: &mut OrderRecord, upstream: UpstreamOrder, now: i64, poll: i64) {
    record.from_amount = to_wire(upstream.from_amount);
    record.to_amount = to_wire(upstream.to_amount);
    if !upstream.from_amount.is_zero() {
        record.rate = to_wire((upstream.to_amount / upstream.from_amount).round_dp(8));
    }
    record.expires_at = upstream.expires_at;
    record.next_step_at = Some(now + poll);
    record.provider_order_id = Some(upstream.id);
    record.provider_order_token = Some(upstream.token);
}

fn rate_type_of(order: &OrderRecord) -> RateType {
    if order.rate_type == "fixed" {
        RateType::Fixed
    } else {
        RateType::Float
    }
}

fn parse_status(order: &OrderRecord) -> Result<OrderStatus, OrderError> {
    OrderStatus::parse(&order.status)
        .ok_or_else(|| OrderError::Conflict(format!("unknown stored status {}", order.status)))
}

fn check_address(currency: &Currency, address: &str) -> Result<(), OrderError> {
    validate_address(currency.family, &currency.network, address).map_err(|error| {
        let label = format!("{} ({})", currency.coin, currency.network_label());
        OrderError::Invalid(match error {
            AddressError::Empty => format!("Enter your {label} address"),
            AddressError::Checksum => {
                format!("Invalid {label} address: the checksum does not match, check it for typos")
            }
            AddressError::Format | AddressError::WrongNetwork => {
                format!("Invalid {label} address format")
            }
        })
    })
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

fn issue_message(
    issue: QuoteIssue,
    from: &super::quotes::QuoteSide,
    to: &super::quotes::QuoteSide,
) -> String {
    match issue {
        QuoteIssue::LimitMin => format!(
            "The minimum amount is {} {}",
            to_wire(from.min),
            from.currency.coin
        ),
        QuoteIssue::LimitMax | QuoteIssue::FromAmountExceedsMax => {
            format!(
                "You exceeded the limit of {} {}",
                to_wire(from.max),
                from.currency.coin
            )
        }
        QuoteIssue::ToAmountExceedsMax | QuoteIssue::ReserveTo => {
            format!(
                "You exceeded the limit of {} {}",
                to_wire(to.max),
                to.currency.coin
            )
        }
        QuoteIssue::MaintenanceFrom | QuoteIssue::MaintenanceTo => {
            "Network temporarily suspended for maintenance".into()
        }
        QuoteIssue::PairUnavailable => "Network temporarily suspended".into(),
    }
}

fn tag_label(currency: &Currency) -> String {
    currency
        .tag
        .clone()
        .unwrap_or_else(|| "memo".into())
        .to_lowercase()
}

fn non_empty(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

fn dec(value: &str) -> Decimal {
    Decimal::from_str(value).unwrap_or(Decimal::ZERO)
}

fn new_order_id() -> String {
    let mut rng = rand::rng();
    (0..ID_LENGTH)
        .map(|_| ID_ALPHABET[rng.random_range(0..ID_ALPHABET.len())] as char)
        .collect()
}
