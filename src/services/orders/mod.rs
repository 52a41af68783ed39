//! Orders: creation (validated again on the server, idempotent per caller), the deposit, the
//! lifecycle (simulated by the sandbox or followed at an upstream), expiry and late deposits,
//! the emergency choice and the refund address (spec/exchange.md §3, §4, §9).
//!
//! Every change of an order is one transaction: the order row (compared and swapped on its
//! version), its event, its commission and its notifications (webhooks, mails) commit together
//! or not at all.

mod create;
mod lifecycle;

pub use lifecycle::{can_retry, operator_may_refund};
pub mod watch;

use std::sync::Arc;

use hmac::{Hmac, Mac};
use rand::Rng;
use rust_decimal::Decimal;
use sha2::Sha256;

use super::availability::CurrencySwitches;
use super::partners::Partners;
use super::quotes::{QuoteError, QuoteService};
use crate::domain::address::{AddressError, AddressFamily, validate_address, validate_tag};
use crate::domain::currency::{Catalogue, Currency};
use crate::domain::fees::FeeSchedule;
use crate::domain::language::Language;
use crate::domain::order::{EmergencyChoice, OrderEvent, OrderStatus};
use crate::domain::secret::constant_time_eq;
use crate::domain::transaction::Transaction;
use crate::providers::LiquidityProvider;
use crate::services::mail::templates::{TransactionLine, TransactionSide};
use crate::store::{
    AuditEntry, DynStore, MailRecord, OrderChange, OrderEffects, OrderEventRecord, OrderRecord,
    StoreError,
};

pub use create::{Caller, IDEMPOTENCY_KEY_TTL_SECONDS, NewOrder};
pub use lifecycle::Refund;

#[derive(Debug, thiserror::Error)]
pub enum OrderError {
    #[error("{0}")]
    Invalid(String),
    #[error("Order not found")]
    NotFound,
    #[error("{0}")]
    Conflict(String),
    /// A fixed-rate order would now pay out another amount than the customer was shown: they
    /// confirm the new one first (no order is made).
    #[error("The amount changed: you would now receive {} {coin}", crate::domain::money::to_wire(*to_amount))]
    AmountChanged { to_amount: Decimal, coin: String },
    /// The `Idempotency-Key` was used before with a different request.
    #[error("{0}")]
    KeyReused(String),
    #[error("{0}")]
    Quote(#[from] QuoteError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[derive(Clone)]
pub struct OrderSettings {
    /// Seconds an order waits for its deposit.
    pub expiry_seconds: i64,
    /// Seconds between simulated steps once the deposit is in.
    pub sandbox_step_seconds: i64,
    /// When set, the sandbox deposits the exact amount by itself this long after creation.
    pub autopilot_seconds: Option<i64>,
    /// Seconds between two looks at an order an upstream provider fills (while it moves).
    pub provider_poll_seconds: i64,
    /// How long one call to a provider may take: the order worker's lease covers a whole batch.
    pub provider_timeout_seconds: i64,
    /// Tells signed-in owners about their orders by mail (when their profile wants it).
    pub status_mails: Option<StatusMails>,
    /// The partner programme: commissions and webhooks follow every order.
    pub partners: Option<Arc<Partners>>,
    /// Which e-mail addresses `set_notify_email` accepts (`FERRY_MAIL_ALLOW_IDN`).
    pub email_idn: crate::domain::account::Idn,
    /// Orders one caller may open at upstreams a minute: a fair share of what the upstream
    /// allows, so no client spends the whole of it (none on the sandbox).
    pub upstream_orders_per_caller_per_minute: Option<u32>,
    /// Where every replica counts those shares together.
    pub shared_limits: Option<Arc<crate::limits::SharedCounter>>,
    /// Where transactions link to (`FERRY_EXPLORERS` over the defaults).
    pub explorers: crate::domain::transaction::Explorers,
}

/// What order-status mails need: the outbox and the site's name and address.
#[derive(Clone)]
pub struct StatusMails {
    pub mailer: crate::services::mail::Mailer,
    pub site_name: String,
    pub public_url: String,
    /// Where a customer writes when a change to their order was not theirs.
    pub support_email: String,
}

pub struct Orders {
    /// Each caller's share of the orders the upstreams allow (see `OrderSettings`).
    upstream_share: Option<crate::limits::Budget<String>>,
    pub store: DynStore,
    pub catalogue: &'static Catalogue,
    pub provider: Arc<dyn LiquidityProvider>,
    pub switches: CurrencySwitches,
    pub fees: FeeSchedule,
    pub settings: OrderSettings,
    token_key: Vec<u8>,
    /// The event streams of this replica, waiting for their order to change.
    watch: Arc<watch::OrderWatch>,
    /// The completed orders' count and volume, as last counted (see `completed_totals`).
    totals: std::sync::Mutex<Option<(std::time::Instant, (i64, Decimal))>>,
}

/// How long the completed orders' count and volume are kept before they are counted again.
const TOTALS_TTL: std::time::Duration = std::time::Duration::from_secs(60);

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
        let upstream_share = settings.upstream_orders_per_caller_per_minute.map(|n| {
            crate::limits::Budget::per_minute(n, 100_000)
                .shared(settings.shared_limits.as_ref(), "upstream-share")
        });
        Ok(Orders {
            upstream_share,
            store,
            catalogue,
            provider,
            switches,
            fees,
            settings,
            token_key,
            watch: Arc::default(),
            totals: std::sync::Mutex::new(None),
        })
    }

    /// Waits for changes of order `id` (see [`watch`]).
    pub fn watch(&self, id: &str) -> watch::Watching {
        self.watch.watch(id)
    }

    /// The orders watched on this replica, for the listener that relays other replicas' changes.
    pub fn watchers(&self) -> Arc<watch::OrderWatch> {
        self.watch.clone()
    }

    /// The secret that proves the holder created the order: an HMAC of its id, so it is
    /// never stored and a retried creation can hand it out again.
    pub fn token_of(&self, id: &str) -> String {
        hex::encode(&self.token_mac(id)[..16])
    }

    fn token_mac(&self, id: &str) -> Vec<u8> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.token_key).expect("any key length");
        mac.update(b"order-token:");
        mac.update(id.as_bytes());
        mac.finalize().into_bytes().to_vec()
    }

    fn token_matches(&self, id: &str, token: &str) -> bool {
        let expected = self.token_mac(id);
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
            partner_markup: markup.is_some_and(|m| m > Decimal::ZERO),
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
        let order = self.find(id).await?;
        let by_token = token.is_some_and(|t| self.token_matches(&order.id, t));
        let by_owner = user_id.is_some() && order.owner_user_id.as_deref() == user_id;
        if by_token || by_owner {
            Ok(order)
        } else {
            Err(OrderError::NotFound)
        }
    }

    /// What the upstream that fills the order says of it now (`None` for the sandbox's own).
    pub async fn upstream_now(
        &self,
        order: &OrderRecord,
    ) -> Result<Option<crate::providers::UpstreamState>, OrderError> {
        let Some(reference) = lifecycle::upstream_ref(order) else {
            return Ok(None);
        };
        let state = self
            .provider
            .order_state(&reference)
            .await
            .map_err(crate::services::quotes::QuoteError::from)?;
        Ok(Some(state))
    }

    pub async fn find(&self, id: &str) -> Result<OrderRecord, OrderError> {
        self.store.find_order(id).await?.ok_or(OrderError::NotFound)
    }

    /// The order's history after the event id `after`, oldest first.
    pub async fn events(&self, id: &str, after: i64) -> Result<Vec<OrderEventRecord>, OrderError> {
        Ok(self.store.order_events(id, after).await?)
    }

    /// The most recently completed orders (the public feed).
    pub async fn recent_completed(&self, limit: i64) -> Result<Vec<OrderRecord>, OrderError> {
        Ok(self.store.recent_completed_orders(limit).await?)
    }

    /// How many orders completed and their volume in USD, counted at most once a minute (the
    /// home page shows them to every visitor).
    pub async fn completed_totals(&self) -> Result<(i64, Decimal), OrderError> {
        let cached = *self.totals.lock().expect("totals lock");
        if let Some((at, totals)) = cached
            && at.elapsed() < TOTALS_TTL
        {
            return Ok(totals);
        }
        let totals = self.store.completed_totals().await?;
        *self.totals.lock().expect("totals lock") = Some((std::time::Instant::now(), totals));
        Ok(totals)
    }

    /// Forgets idempotency keys past their time (the order worker, every minute).
    pub async fn prune_idempotency_keys(&self, now: i64) -> Result<u64, OrderError> {
        Ok(self.store.prune_idempotency_keys(now).await?)
    }

    /// Applies `event` through the state machine and stores the change with its event and its
    /// consequences, in one transaction.
    async fn transition(
        &self,
        next: OrderRecord,
        event: OrderEvent,
        now: i64,
        detail: &str,
    ) -> Result<OrderRecord, OrderError> {
        self.transition_audited(next, event, now, detail, None)
            .await
    }

    /// [`Self::transition`] for an operator's act: its audit entry (with the order as it was in
    /// `before`) is written in the same transaction, with the order as it becomes.
    async fn transition_audited(
        &self,
        mut next: OrderRecord,
        event: OrderEvent,
        now: i64,
        detail: &str,
        audit: Option<AuditEntry>,
    ) -> Result<OrderRecord, OrderError> {
        let from = next.status;
        let to = from
            .apply(event)
            .map_err(|e| OrderError::Conflict(e.to_string()))?;
        next.status = to;
        next.updated_at = now;
        match (to, event) {
            (OrderStatus::Emergency, OrderEvent::Problem(reason)) => {
                next.emergency_reason = Some(reason);
                next.emergency_choice = None;
                next.finished_at = None;
                next.next_step_at = None;
            }
            (OrderStatus::Confirming | OrderStatus::Exchange, _) => {
                next.next_step_at = Some(now + self.settings.sandbox_step_seconds);
            }
            _ => {}
        }
        if to.has_ended() {
            next.finished_at = Some(now);
            next.next_step_at = None;
        }
        if next.provider_order_id.is_some() {
            next.next_step_at = self.next_look(&next, now);
        }
        let mut effects = self.consequences(&next, detail, now).await?;
        effects.audit = audit.map(|entry| AuditEntry {
            subject_kind: "order".into(),
            subject_id: next.id.clone(),
            after: Some(audit_view(&next)),
            ..entry
        });
        let next = self.write(next, Some(detail), &effects).await?;
        tracing::info!(order.id = %next.id, from = from.as_str(), to = to.as_str(), "order status changed");
        Ok(next)
    }

    /// Stores `next` if the order is still at the version it was read at, and wakes the event
    /// streams. Of two writers of one order, the second gets a conflict and nothing is written.
    async fn write(
        &self,
        mut next: OrderRecord,
        event: Option<&str>,
        effects: &OrderEffects,
    ) -> Result<OrderRecord, OrderError> {
        let stored = self
            .store
            .update_order(&OrderChange {
                order: &next,
                event,
                effects,
            })
            .await?;
        if !stored {
            return Err(OrderError::Conflict("The order changed; try again".into()));
        }
        next.version += 1;
        self.notify(&next.id);
        Ok(next)
    }

    /// What a change of status brings with it: the commission as it now stands, the partners'
    /// webhook notifications and the owner's mails.
    async fn consequences(
        &self,
        order: &OrderRecord,
        detail: &str,
        now: i64,
    ) -> Result<OrderEffects, OrderError> {
        let mut effects = OrderEffects {
            mails: self.status_mails(order, now).await?,
            ..OrderEffects::default()
        };
        if let Some(partners) = &self.settings.partners {
            effects.commission = partners.ledger.commission(order, now);
            let mut history = self.store.order_events(&order.id, 0).await?;
            // The event this change appends, as it will be stored.
            history.push(OrderEventRecord {
                id: 0,
                order_id: order.id.clone(),
                status: order.status.as_str().to_owned(),
                detail: Some(detail.to_owned()),
                created_at: now,
            });
            effects.webhooks = partners
                .webhooks
                .deliveries(order, &history, &self.token_of(&order.id), now)
                .await?;
        }
        Ok(effects)
    }

    /// Who hears of an order: its signed-in owner in their language if their profile asks for
    /// order mails, and an address given for the order (in English).
    /// `always`: also an owner who turned order mails off (a notice about their money's safety).
    async fn order_recipients(
        &self,
        order: &OrderRecord,
        always: bool,
    ) -> Result<Vec<(String, Language, crate::services::mail::templates::Reason)>, StoreError> {
        use crate::services::mail::templates::Reason;
        let mut recipients = Vec::new();
        if let Some(owner) = &order.owner_user_id
            && let Some(user) = self
                .store
                .find_user(owner)
                .await?
                .filter(|u| always || u.order_emails)
        {
            recipients.push((user.email.clone(), user.mail_language(), Reason::Profile));
        }
        if let Some(email) = &order.notify_email
            && !recipients.iter().any(|(r, _, _)| r == email)
        {
            recipients.push((email.clone(), Language::En, Reason::Order));
        }
        Ok(recipients)
    }

    /// Mails telling the customer that an operator changed where their refund goes: a change
    /// made for them must never be a surprise to them (nor one made against them).
    /// Nothing when the address and tag are as they were.
    pub(super) async fn refund_address_mails(
        &self,
        before: &OrderRecord,
        order: &OrderRecord,
        now: i64,
    ) -> Result<Vec<MailRecord>, StoreError> {
        let Some(mails) = &self.settings.status_mails else {
            return Ok(Vec::new());
        };
        let unchanged =
            before.refund_address == order.refund_address && before.refund_tag == order.refund_tag;
        let Some(address) = order.refund_address.as_deref().filter(|_| !unchanged) else {
            return Ok(Vec::new());
        };
        let address = match order.refund_tag.as_deref() {
            Some(tag) => format!("{address} / {tag}"),
            None => address.to_owned(),
        };
        let link = public_order_link(mails, order);
        Ok(self
            .order_recipients(order, true)
            .await?
            .into_iter()
            .map(|(recipient, language, _)| {
                let mail = crate::services::mail::templates::refund_address_changed(
                    language,
                    &mails.site_name,
                    &order.id,
                    &address,
                    &link,
                    &mails.support_email,
                );
                mails
                    .mailer
                    .record(&recipient, &mail.subject, &mail.body, now)
            })
            .collect())
    }

    /// Mails to a signed-in owner who wants them and to an address given for the order, for
    /// the changes worth a mail: the deposit arrived, a decision is needed, and the end.
    async fn status_mails(
        &self,
        order: &OrderRecord,
        now: i64,
    ) -> Result<Vec<MailRecord>, StoreError> {
        let Some(mails) = &self.settings.status_mails else {
            return Ok(Vec::new());
        };
        use crate::services::mail::templates::{self, StatusMail};
        let status = match order.status {
            OrderStatus::Confirming => StatusMail::Confirming,
            OrderStatus::Emergency => StatusMail::Emergency,
            OrderStatus::Completed => StatusMail::Completed,
            OrderStatus::Refunded => StatusMail::Refunded,
            OrderStatus::Failed => StatusMail::Failed,
            _ => return Ok(Vec::new()),
        };
        let recipients = self.order_recipients(order, false).await?;
        let link = public_order_link(mails, order);
        let lines = self.transaction_lines(order);
        Ok(recipients
            .into_iter()
            .map(|(recipient, language, reason)| {
                let mail = templates::order_status(
                    language,
                    &mails.site_name,
                    &order.id,
                    status,
                    &link,
                    reason,
                    &lines,
                );
                mails
                    .mailer
                    .record(&recipient, &mail.subject, &mail.body, now)
            })
            .collect())
    }

    /// Where a public block explorer shows `tx`, one of `order`'s transactions on `currency`'s
    /// network. The sandbox's made-up transactions link nowhere: no explorer knows them.
    pub fn explorer_link(
        &self,
        order: &OrderRecord,
        currency: &Currency,
        tx: &Transaction,
    ) -> Option<String> {
        order.provider_order_id.as_ref()?;
        self.settings.explorers.link(&currency.network, &tx.id)
    }

    /// The order's transactions as its mails list them.
    fn transaction_lines(&self, order: &OrderRecord) -> Vec<TransactionLine> {
        let txs = &order.transactions;
        [
            (
                TransactionSide::Deposit,
                &order.from_code,
                &txs.deposit,
                None,
            ),
            (
                TransactionSide::Payout,
                &order.to_code,
                &txs.payout,
                Some(&order.to_address),
            ),
            (
                TransactionSide::Refund,
                &order.from_code,
                &txs.refund,
                order.refund_address.as_ref(),
            ),
        ]
        .into_iter()
        .filter_map(|(side, code, tx, address)| {
            let tx = tx.as_ref()?;
            let currency = self.catalogue.get(code)?;
            Some(TransactionLine {
                side,
                amount: crate::domain::money::to_wire(tx.amount),
                coin: currency.coin.clone(),
                address: address.cloned(),
                id: tx.id.clone(),
                explorer: self.explorer_link(order, currency, tx),
            })
        })
        .collect()
    }

    /// Sends this order's status mails to `email` too (the partner API's `setEmail`).
    pub async fn set_notify_email(
        &self,
        order: &OrderRecord,
        email: &str,
    ) -> Result<(), OrderError> {
        let email = crate::domain::account::Email::parse(email, self.settings.email_idn)
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

    /// Wakes the order's streams on this replica at once (other replicas hear of it from the
    /// database).
    fn notify(&self, id: &str) {
        self.watch.wake(id);
    }

    fn currency_of(&self, code: &str) -> Result<&'static Currency, OrderError> {
        self.catalogue
            .get(code)
            .ok_or_else(|| OrderError::Invalid(format!("Unknown currency {code}")))
    }

    /// Checks and sets the refund address (and memo) for the send coin's network.
    async fn apply_refund_address(
        &self,
        order: &mut OrderRecord,
        address: &str,
        tag: Option<&str>,
        now: i64,
    ) -> Result<(), OrderError> {
        let from = self.currency_of(&order.from_code)?;
        if from.family == AddressFamily::Bolt11 {
            let invoice = self.lightning_refund_invoice(order, address, now).await?;
            order.refund_address = Some(invoice.text);
            order.refund_tag = None;
            return Ok(());
        }
        check_address(from, address)?;
        order.refund_address = Some(address.trim().to_owned());
        order.refund_tag = check_tag(from, tag)?;
        Ok(())
    }

    /// A Lightning deposit's refund goes to an invoice the customer makes once the refund is
    /// needed: for at most what arrived (a payment pays its invoice's amount, so asking for
    /// more could never be paid; Lightning's fee is a few satoshis, so the refund shown, the
    /// deposit less that fee, is what to ask for, and a fee that moved by a satoshi since does
    /// not refuse it), payable long enough to be sent.
    async fn lightning_refund_invoice(
        &self,
        order: &OrderRecord,
        text: &str,
        now: i64,
    ) -> Result<crate::domain::lightning::Invoice, OrderError> {
        if order.status != OrderStatus::Emergency {
            return Err(OrderError::Invalid(create::LIGHTNING_REFUND_LATER.into()));
        }
        let invoice =
            crate::domain::lightning::decode_payable(text, now, LIGHTNING_REFUND_MARGIN_SECONDS)
                .map_err(|reason| OrderError::Invalid(invoice_message(&reason)))?;
        let received = order.received_amount.unwrap_or(order.from_amount);
        if invoice.amount > received {
            return Err(OrderError::Invalid(format!(
                "The refund invoice may ask for at most {} BTC, the deposit that arrived",
                crate::domain::money::to_wire(received)
            )));
        }
        Ok(invoice)
    }
}

/// The customer's decision, as the partner API and the site name it.
pub fn parse_choice(raw: &str) -> Result<EmergencyChoice, OrderError> {
    EmergencyChoice::parse(raw)
        .ok_or_else(|| OrderError::Invalid("choice must be REFUND or EXCHANGE".into()))
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
            AddressError::Invoice(reason) => invoice_message(&reason),
        })
    })
}

/// How long a Lightning refund invoice must stay payable: the refund is sent at the next step.
const LIGHTNING_REFUND_MARGIN_SECONDS: i64 = 30 * 60;

/// A Lightning invoice's problem as a sentence: "This invoice has expired: make a new one".
pub fn invoice_message(reason: &crate::domain::lightning::InvoiceError) -> String {
    let text = reason.to_string();
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A memo/tag for `currency`: checked where the coin has one, refused where it has none.
fn check_tag(currency: &Currency, tag: Option<&str>) -> Result<Option<String>, OrderError> {
    let Some(tag) = non_empty(tag) else {
        return Ok(None);
    };
    if !currency.has_tag() {
        return Err(OrderError::Invalid(format!(
            "{} ({}) takes no memo or tag",
            currency.coin,
            currency.network_label()
        )));
    }
    validate_tag(currency.family, tag).map_err(|e| {
        OrderError::Invalid(format!(
            "Invalid {} {}: {e}",
            currency.coin,
            tag_label(currency)
        ))
    })?;
    Ok(Some(tag.to_owned()))
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

/// The effects of an operator's act on an order that does not move its status: the act's
/// audit entry with the order as it was and becomes (none for a customer's act).
/// The order's public page: the token is not mailed, so a mistyped address cannot act on it.
fn public_order_link(mails: &StatusMails, order: &OrderRecord) -> String {
    format!(
        "{}/order-details/{}",
        mails.public_url.trim_end_matches('/'),
        order.id
    )
}

fn audited(audit: Option<AuditEntry>, before: &OrderRecord, after: &OrderRecord) -> OrderEffects {
    OrderEffects {
        audit: audit.map(|entry| AuditEntry {
            subject_kind: "order".into(),
            subject_id: after.id.clone(),
            before: Some(audit_view(before)),
            after: Some(audit_view(after)),
            ..entry
        }),
        ..OrderEffects::default()
    }
}

/// An order as the audit log shows it before and after an operator's act: where it stands,
/// never its secrets.
pub fn audit_view(order: &OrderRecord) -> serde_json::Value {
    serde_json::json!({
        "next_step_at": order.next_step_at,
        "status": order.status.as_str(),
        "received_amount": order.received_amount.map(crate::domain::money::to_wire),
        "emergency_reason": order.emergency_reason.map(|r| r.as_str()),
        "emergency_choice": order.emergency_choice.map(|c| c.as_str()),
        // Whether and a fingerprint, not what: the log is kept forever, and an address is the
        // customer's; a correction still shows as a change.
        "refund_address_set": order.refund_address.is_some(),
        "refund_address_fingerprint": order
            .refund_address
            .as_ref()
            .map(|a| fingerprint(a, order.refund_tag.as_deref())),
    })
}

/// The first 8 bytes (hex) of the SHA-256 of an address and its tag: the audit log tells two
/// addresses apart (a correction shows), without holding either.
fn fingerprint(address: &str, tag: Option<&str>) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(format!("{address}\n{}", tag.unwrap_or_default()));
    hex::encode(&digest[..8])
}
