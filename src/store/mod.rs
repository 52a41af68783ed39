//! Persistence: one logical schema on SQLite (the embedded default) or PostgreSQL.
//!
//! Services see only the [`Store`] trait. The one implementation, [`sql::SqlStore`], speaks
//! through sqlx's `Any` driver: the schema keeps to types both backends share (TEXT, BIGINT),
//! queries use `$n` placeholders that both accept, and each backend has its own migrations tree
//! for the places where their DDL differs.

mod migrations;
pub mod sql;

use std::sync::Arc;

use async_trait::async_trait;

pub use sql::SqlStore;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database unavailable: {0}")]
    Unavailable(String),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
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

#[async_trait]
pub trait Store: Send + Sync + 'static {
    fn backend(&self) -> Backend;

    /// Answers when the database does (for `/readyz`).
    async fn ping(&self) -> Result<(), StoreError>;

    /// Records a click; `false` when this visitor already clicked this code today.
    async fn record_referral_click(&self, click: &NewReferralClick) -> Result<bool, StoreError>;

    async fn count_referral_clicks(&self, referral_code: &str) -> Result<i64, StoreError>;

    async fn set_currency_override(&self, value: &CurrencyOverride) -> Result<(), StoreError>;

    async fn currency_overrides(&self) -> Result<Vec<CurrencyOverride>, StoreError>;

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
