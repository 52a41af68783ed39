//! Persistence: one logical schema on SQLite (the embedded default) or PostgreSQL.
//!
//! Services see only the [`Store`] trait. The one implementation, [`sql::SqlStore`], speaks
//! through sqlx's `Any` driver: the schema keeps to types both backends share (TEXT, BIGINT),
//! queries use `$n` placeholders that both accept, and each backend has its own migrations tree
//! for the places where their DDL differs.

mod accounts;
mod migrations;
mod order_writer;
mod partners;
pub mod sql;
mod status;

use std::sync::Arc;

use async_trait::async_trait;

pub use accounts::{
    AccountStore, MailRecord, SessionRecord, Throttle, TokenUse, UserRecord, UserToken,
};
pub use partners::{
    ApiKeyRecord, Commission, DeliveryAttempt, PartnerStore, Payout, WebhookDelivery,
};
pub use sql::SqlStore;
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
    #[error("unsupported database URL {0:?}: use sqlite://… or postgres://…")]
    UnsupportedUrl(String),
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

/// The operator's send/receive switch for one currency; `None` leaves the provider's flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CurrencyOverride {
    pub code: String,
    pub send_enabled: Option<bool>,
    pub recv_enabled: Option<bool>,
    pub updated_at: i64,
}

/// An order as stored. Amounts are decimal strings, times Unix seconds; the services turn them
/// into domain values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderRecord {
    pub id: String,
    pub status: String,
    pub rate_type: String,
    pub direction: String,
    pub provider: String,
    pub from_code: String,
    pub to_code: String,
    pub from_amount: String,
    pub to_amount: String,
    pub rate: String,
    pub from_usd: String,
    pub to_usd: String,
    pub deposit_address: String,
    pub deposit_tag: Option<String>,
    pub to_address: String,
    pub to_tag: Option<String>,
    pub refund_address: Option<String>,
    pub refund_tag: Option<String>,
    pub metadata: Option<String>,
    pub owner_user_id: Option<String>,
    pub idempotency_key: Option<String>,
    pub received_amount: Option<String>,
    pub payout_amount: Option<String>,
    pub emergency_reason: Option<String>,
    pub emergency_choice: Option<String>,
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
    pub partner_fee_percent: Option<String>,
    /// Where status mails go for an order placed through the partner API (`setEmail`).
    pub notify_email: Option<String>,
    /// The order's id at an upstream provider that fills it, if one does.
    pub provider_order_id: Option<String>,
    /// The token that upstream provider gave with it (a secret: it controls the order there).
    pub provider_order_token: Option<String>,
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
pub trait Store: AccountStore + StatusStore + PartnerStore + Send + Sync + 'static {
    fn backend(&self) -> Backend;

    /// Answers when the database does (for `/readyz`).
    async fn ping(&self) -> Result<(), StoreError>;

    /// Records a click; `false` when this visitor already clicked this code today.
    async fn record_referral_click(&self, click: &NewReferralClick) -> Result<bool, StoreError>;

    async fn count_referral_clicks(&self, referral_code: &str) -> Result<i64, StoreError>;

    async fn set_currency_override(&self, value: &CurrencyOverride) -> Result<(), StoreError>;

    async fn currency_overrides(&self) -> Result<Vec<CurrencyOverride>, StoreError>;

    /// Stores a new order and its first event in one transaction (on SQLite, with the other
    /// orders being created at the same moment). A unique violation (a reused idempotency key or
    /// deposit address) is `StoreError::Conflict`.
    async fn insert_order(&self, order: &OrderRecord) -> Result<(), StoreError>;

    async fn find_order(&self, id: &str) -> Result<Option<OrderRecord>, StoreError>;

    async fn find_order_by_idempotency_key(
        &self,
        key: &str,
    ) -> Result<Option<OrderRecord>, StoreError>;

    /// Writes `order`'s mutable fields if its stored status is still `expected_status`, and
    /// appends an event when the status changed — one transaction. `false` when another writer
    /// changed the order first.
    async fn update_order(
        &self,
        order: &OrderRecord,
        expected_status: &str,
        detail: Option<&str>,
    ) -> Result<bool, StoreError>;

    /// Events of one order after the event id `after`, oldest first.
    async fn order_events(&self, id: &str, after: i64)
    -> Result<Vec<OrderEventRecord>, StoreError>;

    /// Leases up to `limit` orders with a simulated step due by `now` for `lease_seconds`, so that
    /// replicas sharing a database never work on the same order at once.
    async fn lease_due_orders(
        &self,
        now: i64,
        owner: &str,
        lease_seconds: i64,
        limit: i64,
    ) -> Result<Vec<OrderRecord>, StoreError>;

    /// Orders Ferry follows itself still awaiting their deposit after their deadline (an
    /// upstream provider says by itself when its orders expire).
    async fn overdue_new_orders(
        &self,
        now: i64,
        limit: i64,
    ) -> Result<Vec<OrderRecord>, StoreError>;

    /// The most recently completed orders.
    async fn recent_completed_orders(&self, limit: i64) -> Result<Vec<OrderRecord>, StoreError>;

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
