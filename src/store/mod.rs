//! Persistence: one logical schema on SQLite (the embedded default) or PostgreSQL.
//!
//! Services see only the [`Store`] trait. The one implementation, [`sql::SqlStore`], speaks
//! through sqlx's `Any` driver: the schema keeps to types both backends share (TEXT, BIGINT),
//! queries use `$n` placeholders that both accept, and each backend has its own migrations tree
//! for the places where their DDL differs.

mod accounts;
mod admin;
pub mod copy;
mod migrations;
mod order_writer;
mod orders;
mod partners;
pub mod sql;
mod status;

use std::sync::Arc;

use async_trait::async_trait;
use rust_decimal::Decimal;

use crate::domain::fees::{Direction, RateType};
use crate::domain::order::{EmergencyChoice, EmergencyReason, OrderStatus};
use crate::domain::transaction::OrderTransactions;

pub use accounts::{
    AccountStore, MailRecord, OAuthState, SessionRecord, Throttle, TokenUse, UserChange,
    UserRecord, UserToken,
};
pub use admin::{
    AdminStore, AuditEntry, AuditFilter, AuditRecord, DayStats, KeyRevoke, LockChange,
    MessageFilter, OrderSearch, OrderStats, Percentiles, QueueCounts, QueueSearch, RoleChange,
};
pub use partners::{
    ApiKeyRecord, Commission, DeliveryAttempt, PartnerStore, Payout, WebhookDelivery,
};
pub use sql::{SqlStore, backup_sqlite};
pub use status::{CheckTally, Incident, IncidentUpdate, StatusCheck, StatusStore};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database unavailable: {0}")]
    Unavailable(String),
    #[error("database error: {0}")]
    Database(sqlx::Error),
    #[error("migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    #[error("a unique value is already taken")]
    Conflict,
    /// An audited act whose actor and `Idempotency-Key` an earlier request already used:
    /// nothing was written.
    #[error("this request was already carried out")]
    Replayed,
    /// A stored value that does not parse: the database was changed by hand or by a bug.
    #[error("corrupt stored value: {0}")]
    Corrupt(String),
    #[error("unsupported database URL {0:?}: use sqlite://… or postgres://…")]
    UnsupportedUrl(String),
    /// What this backend does not do (the message says what to use instead).
    #[error("{0}")]
    Unsupported(&'static str),
}

/// A rate file as the cluster stores it (see `services::rate_export`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredRateFile {
    pub kind: String,
    pub slot: i64,
    pub generated_at: i64,
    /// The file, gzipped.
    pub body_gzip: Vec<u8>,
}

/// A rate file to store, borrowed from the one being served (its gzip, a tenth of its size).
#[derive(Debug, Clone, Copy)]
pub struct RateFileToStore<'a> {
    pub kind: &'a str,
    pub slot: i64,
    pub generated_at: i64,
    /// The file, gzipped.
    pub body_gzip: &'a [u8],
}

/// Which SQL engine a store runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of_url(url: &str) -> Option<Backend> {
        if url.starts_with("sqlite:") {
            Some(Backend::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Some(Backend::Postgres)
        } else {
            None
        }
    }
}

/// A referral click to record.
#[derive(Debug, Clone)]
pub struct NewReferralClick {
    pub referral_code: String,
    pub visitor_key: String,
    pub day: i64,
    pub source: String,
    pub created_at: i64,
}

/// The operator's say on one currency: send/receive switches (`None` leaves the provider's
/// flag), maintenance with the message customers see, and the least and most a customer may
/// send of it on top of the provider's limits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CurrencyOverride {
    pub code: String,
    pub send_enabled: Option<bool>,
    pub recv_enabled: Option<bool>,
    pub maintenance: Option<String>,
    pub min_amount: Option<Decimal>,
    pub max_amount: Option<Decimal>,
    pub updated_at: i64,
}

impl CurrencyOverride {
    /// What the audit log keeps of it (before and after a change).
    pub fn audit_view(&self) -> serde_json::Value {
        serde_json::json!({
            "send": self.send_enabled,
            "recv": self.recv_enabled,
            "maintenance": self.maintenance,
            "min": self.min_amount.map(|d| d.normalize().to_string()),
            "max": self.max_amount.map(|d| d.normalize().to_string()),
        })
    }
}

/// An order as stored, parsed into domain values as it leaves the store: a stored value that
/// does not parse is [`StoreError::Corrupt`], never a default. Times are Unix seconds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderRecord {
    pub id: String,
    /// Bumped by every write; a write names the version it read (optimistic concurrency).
    pub version: i64,
    pub status: OrderStatus,
    pub rate_type: RateType,
    pub direction: Direction,
    pub provider: String,
    pub from_code: String,
    pub to_code: String,
    pub from_amount: Decimal,
    pub to_amount: Decimal,
    pub rate: Decimal,
    pub from_usd: Decimal,
    pub to_usd: Decimal,
    /// Ferry's own fee on this order, in percent, as it was when the order was made.
    pub fee_percent: Decimal,
    pub deposit_address: String,
    pub deposit_tag: Option<String>,
    pub to_address: String,
    pub to_tag: Option<String>,
    pub refund_address: Option<String>,
    pub refund_tag: Option<String>,
    pub metadata: Option<String>,
    pub owner_user_id: Option<String>,
    pub received_amount: Option<Decimal>,
    pub payout_amount: Option<Decimal>,
    pub emergency_reason: Option<EmergencyReason>,
    pub emergency_choice: Option<EmergencyChoice>,
    pub created_at: i64,
    pub expires_at: i64,
    pub rate_expires_at: Option<i64>,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
    pub next_step_at: Option<i64>,
    /// The partner API key the order was placed with.
    pub api_key_id: Option<String>,
    /// The affiliate (a user id) the order is attributed to.
    pub affiliate_user_id: Option<String>,
    /// The partner's markup on top of Ferry's fee (the partner API's `afftax`), in percent.
    pub partner_fee_percent: Option<Decimal>,
    /// Where status mails go for an order placed through the partner API (`setEmail`).
    pub notify_email: Option<String>,
    /// The order's id at an upstream provider that fills it, if one does.
    pub provider_order_id: Option<String>,
    /// The token that upstream provider gave with it (a secret: it controls the order there).
    pub provider_order_token: Option<String>,
    /// Its deposit, payout and refund transactions, as far as there are any.
    pub transactions: OrderTransactions,
    /// For a payout to a Lightning invoice, the invoice's payment hash (hex): one order per
    /// hash, whatever the invoice's spelling.
    pub payment_hash: Option<String>,
}

impl OrderRecord {
    /// Every fee the order pays, in percent: Ferry's and any partner markup.
    pub fn total_fee_percent(&self) -> Decimal {
        self.fee_percent + self.partner_fee_percent.unwrap_or_default()
    }

    /// Nothing can change this order any more (see [`OrderStatus::is_final`]).
    pub fn is_final(&self, now: i64) -> bool {
        self.status.is_final(self.finished_at, now)
    }
}

/// The consequences of an order's change, written in the same transaction as the change (the
/// outbox pattern): a crash can lose or double none of them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OrderEffects {
    /// The order's commission as it now stands (inserted or replaced).
    pub commission: Option<Commission>,
    /// Notifications for partners' webhooks, delivered later by the webhook worker.
    pub webhooks: Vec<WebhookDelivery>,
    /// Mails, sent later by the mail worker.
    pub mails: Vec<MailRecord>,
    /// The back office's record of the act that made the change, if an operator's did.
    pub audit: Option<AuditEntry>,
}

/// An `Idempotency-Key` as its caller's: `scope` names the caller (see `services::orders`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyKey {
    pub scope: String,
    pub key: String,
}

/// What claiming an idempotency key found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdempotencyClaim {
    /// The key is this request's now.
    Claimed,
    /// An earlier request with the same key and body made this order.
    Answered(String),
    /// An earlier request with the same key and body is still being answered (since then).
    InFlight { since: i64 },
    /// The key was used with a different request.
    Mismatch,
}

/// A new order and what commits with it.
#[derive(Debug, Clone, Default)]
pub struct NewOrderRecord {
    pub order: OrderRecord,
    /// The claimed key that answers with this order from now on.
    pub idempotency: Option<IdempotencyKey>,
    pub effects: OrderEffects,
}

/// One change of an order: its new state (`order.version` is the version it was read at), an
/// event for its history when the status changed, and its consequences — one transaction.
#[derive(Debug, Clone, Copy)]
pub struct OrderChange<'a> {
    pub order: &'a OrderRecord,
    /// The event's detail, when the status changed.
    pub event: Option<&'a str>,
    pub effects: &'a OrderEffects,
}

/// A message sent with the contact form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactMessage {
    pub id: String,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub category: String,
    pub message: String,
    pub user_id: Option<String>,
    pub created_at: i64,
    /// The order it is about, as an operator linked it.
    pub order_id: Option<String>,
    pub answered_at: Option<i64>,
    /// Who marked it answered (an audit actor: `user:<id>`, `token`, `cli`).
    pub answered_by: Option<String>,
}

/// One entry of an order's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderEventRecord {
    pub id: i64,
    pub order_id: String,
    pub status: String,
    pub detail: Option<String>,
    pub created_at: i64,
}

#[async_trait]
pub trait Store:
    AccountStore + StatusStore + PartnerStore + AdminStore + Send + Sync + 'static
{
    fn backend(&self) -> Backend;

    /// Answers when the database does (for `/readyz`).
    async fn ping(&self) -> Result<(), StoreError>;

    /// Records a click; `false` when this visitor already clicked this code today.
    async fn record_referral_click(&self, click: &NewReferralClick) -> Result<bool, StoreError>;

    async fn count_referral_clicks(&self, referral_code: &str) -> Result<i64, StoreError>;

    /// Sets a currency's switches, with the audit entry of who did (its `before` and `after`
    /// are filled in here, in the same transaction).
    async fn set_currency_override(
        &self,
        value: &CurrencyOverride,
        audit: &AuditEntry,
    ) -> Result<i64, StoreError>;

    async fn currency_overrides(&self) -> Result<Vec<CurrencyOverride>, StoreError>;

    /// Stores a new order, its first event, its idempotency key's answer and its effects in one
    /// transaction (on SQLite, with the other orders being created at the same moment). A
    /// deposit that is taken is `StoreError::Conflict`, and nothing is stored.
    async fn insert_order(&self, order: &NewOrderRecord) -> Result<(), StoreError>;

    async fn find_order(&self, id: &str) -> Result<Option<OrderRecord>, StoreError>;

    /// Writes the change if the stored order is still at `change.order.version` (and moves it
    /// one version on), with its event and effects — one transaction. `false` when another
    /// writer changed the order first, and then nothing is written.
    async fn update_order(&self, change: &OrderChange<'_>) -> Result<bool, StoreError>;

    /// Claims `key` for a request whose content hashes to `request_hash`, for `ttl_seconds`.
    async fn claim_idempotency_key(
        &self,
        key: &IdempotencyKey,
        request_hash: &str,
        now: i64,
        ttl_seconds: i64,
    ) -> Result<IdempotencyClaim, StoreError>;

    /// With `since: None`, frees a claimed key whose request made no order; with the time of an
    /// abandoned claim, takes it over. `false` when the key is no longer in that state.
    async fn reclaim_idempotency_key(
        &self,
        key: &IdempotencyKey,
        since: Option<i64>,
        now: i64,
    ) -> Result<bool, StoreError>;

    /// Forgets `key` if it still answers with `order_id`.
    async fn forget_idempotency_key(
        &self,
        key: &IdempotencyKey,
        order_id: &str,
    ) -> Result<(), StoreError>;

    /// The order `key` answers with, if it does.
    async fn idempotency_answer(&self, key: &IdempotencyKey) -> Result<Option<String>, StoreError>;

    /// Forgets idempotency keys past their time; returns how many.
    async fn prune_idempotency_keys(&self, now: i64) -> Result<u64, StoreError>;

    /// Events of one order after the event id `after`, oldest first.
    async fn order_events(&self, id: &str, after: i64)
    -> Result<Vec<OrderEventRecord>, StoreError>;

    /// Leases up to `limit` orders with a step due by `now` for `lease_seconds` of the
    /// database's clock, so that replicas sharing a database never work on the same order at
    /// once (whatever their own clocks say).
    async fn lease_due_orders(
        &self,
        now: i64,
        owner: &str,
        lease_seconds: i64,
        limit: i64,
    ) -> Result<Vec<OrderRecord>, StoreError>;

    /// A step `owner` leased failed (nothing of it was written): the lease ends and the step
    /// is due again at `at`, behind the steps due before then.
    async fn retry_later(&self, id: &str, owner: &str, at: i64) -> Result<(), StoreError>;

    /// Orders Ferry follows itself still awaiting their deposit after their deadline (an
    /// upstream provider says by itself when its orders expire).
    async fn overdue_new_orders(
        &self,
        now: i64,
        limit: i64,
    ) -> Result<Vec<OrderRecord>, StoreError>;

    /// The most recently completed orders.
    async fn recent_completed_orders(&self, limit: i64) -> Result<Vec<OrderRecord>, StoreError>;

    /// Whether an order already pays out to a Lightning invoice with this payment hash.
    async fn payment_hash_used(&self, payment_hash: &str) -> Result<bool, StoreError>;

    /// How many orders completed, and their volume in USD (at each order's own prices).
    async fn completed_totals(&self) -> Result<(i64, Decimal), StoreError>;

    async fn insert_contact_message(&self, message: &ContactMessage) -> Result<(), StoreError>;

    /// Keeps `body` as the last good market data of `source`.
    async fn save_market_data(
        &self,
        source: &str,
        fetched_at: i64,
        body: &str,
    ) -> Result<(), StoreError>;

    /// `(fetched_at, body)` of the last good market data of `source`.
    async fn market_data(&self, source: &str) -> Result<Option<(i64, String)>, StoreError>;

    /// The latest contact messages, newest first.
    async fn contact_messages(&self, limit: i64) -> Result<Vec<ContactMessage>, StoreError>;

    /// A server-wide secret, made from `candidate` the first time it is asked for.
    async fn secret(&self, name: &str, candidate: &str) -> Result<String, StoreError>;

    /// The interval of the stored rate file of `kind` (`float`, `fixed`), if there is one.
    async fn rate_file_slot(&self, kind: &str) -> Result<Option<i64>, StoreError>;

    /// Stores the rate file of `kind` for `slot` unless one for this or a later slot is stored
    /// already; `true` if this one was stored.
    async fn put_rate_file(&self, file: &RateFileToStore<'_>) -> Result<bool, StoreError>;

    /// The stored rate file of `kind`.
    async fn rate_file(&self, kind: &str) -> Result<Option<StoredRateFile>, StoreError>;

    /// Waits for open connections to finish and closes them.
    async fn close(&self);
}

pub type DynStore = Arc<dyn Store>;

/// Opens the database at `url`, creating a SQLite file (and its folder) when needed, and applies
/// the pending migrations.
pub async fn open(url: &str) -> Result<DynStore, StoreError> {
    let store = SqlStore::connect(url).await?;
    store.migrate().await?;
    Ok(Arc::new(store))
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> Self {
        match &error {
            sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict,
            _ => StoreError::Database(error),
        }
    }
}
