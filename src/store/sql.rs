//! [`Store`] over sqlx's `Any` driver, for SQLite and PostgreSQL alike.

use std::path::Path;
use std::str::FromStr;
use std::sync::{Arc, Once};
use std::time::Duration;

use async_trait::async_trait;
use rust_decimal::Decimal;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};

use super::admin::insert_audit;
use super::order_writer::OrderWriter;
use super::orders::insert_orders;
use super::{
    AuditEntry, Backend, ContactMessage, CurrencyOverride, IdempotencyClaim, IdempotencyKey,
    NewOrderRecord, NewReferralClick, OrderChange, OrderEventRecord, OrderRecord, RateFileToStore,
    Store, StoreError, StoredRateFile, migrations,
};

pub struct SqlStore {
    pool: AnyPool,
    backend: Backend,
    /// SQLite takes one writer at a time and makes the others sleep and retry (up to
    /// `busy_timeout`); write transactions take turns here instead, which keeps the latency flat
    /// under concurrent order creation. PostgreSQL needs no turns.
    sqlite_writer: Arc<tokio::sync::Mutex<()>>,
    /// On SQLite, new orders are written in groups (see `order_writer`).
    order_writer: Option<OrderWriter>,
}

impl SqlStore {
    pub async fn connect(url: &str) -> Result<SqlStore, StoreError> {
        static DRIVERS: Once = Once::new();
        DRIVERS.call_once(sqlx::any::install_default_drivers);

        let backend =
            Backend::of_url(url).ok_or_else(|| StoreError::UnsupportedUrl(redact(url)))?;
        let url = match backend {
            Backend::Sqlite => prepare_sqlite_url(url)?,
            Backend::Postgres => url.to_owned(),
        };
        let options = AnyConnectOptions::from_str(&url)?;
        let pool = AnyPoolOptions::new()
            .max_connections(match backend {
                Backend::Sqlite => 8,
                Backend::Postgres => 16,
            })
            .acquire_timeout(Duration::from_secs(5))
            // An SQLite connection is a file in this process: it cannot have gone away, so the
            // round trip of a liveness check before every query buys nothing.
            .test_before_acquire(backend == Backend::Postgres)
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        for pragma in [
                            "PRAGMA journal_mode = WAL",
                            "PRAGMA synchronous = NORMAL",
                            "PRAGMA busy_timeout = 5000",
                            "PRAGMA foreign_keys = ON",
                        ] {
                            conn.execute(pragma).await?;
                        }
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await
            .map_err(|e| StoreError::Unavailable(e.to_string()))?;
        let sqlite_writer = Arc::new(tokio::sync::Mutex::new(()));
        let order_writer = (backend == Backend::Sqlite)
            .then(|| OrderWriter::start(pool.clone(), sqlite_writer.clone()));
        Ok(SqlStore {
            pool,
            backend,
            sqlite_writer,
            order_writer,
        })
    }

    pub async fn migrate(&self) -> Result<(), StoreError> {
        migrations::migrator(self.backend, None)
            .await?
            .run(&self.pool)
            .await?;
        Ok(())
    }

    /// Applies the migrations up to version `last` only: a database as an older release left
    /// it, for tests of the migrations that follow.
    pub async fn migrate_until(&self, last: i64) -> Result<(), StoreError> {
        migrations::migrator(self.backend, Some(last))
            .await?
            .run(&self.pool)
            .await?;
        Ok(())
    }

    /// The pool, for tests that inspect the schema itself.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }
}

/// Creates the SQLite file's folder and asks sqlx to create the file if it is missing.
fn prepare_sqlite_url(url: &str) -> Result<String, StoreError> {
    let rest = url.trim_start_matches("sqlite:").trim_start_matches("//");
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let parent = Path::new(path)
        .parent()
        .filter(|p| !p.as_os_str().is_empty());
    if let (false, Some(parent)) = (path == ":memory:", parent) {
        std::fs::create_dir_all(parent).map_err(|e| {
            StoreError::Unavailable(format!("cannot create {}: {e}", parent.display()))
        })?;
    }
    let query = if query.is_empty() {
        "mode=rwc".to_owned()
    } else {
        query.to_owned()
    };
    Ok(format!("sqlite://{path}?{query}"))
}

/// Copies the SQLite database at `url`, while a server may be using it, to a new file at `path`:
/// one read transaction, so the copy is the database as of one moment. The database is opened
/// read-only (never created or migrated: a wrong setting fails instead of backing up an empty
/// database), and the copy is a new file only its owner can read (it holds order tokens' key and
/// 2FA secrets), never an existing file or a link.
pub async fn backup_sqlite(url: &str, path: &Path) -> Result<(), StoreError> {
    use sqlx::{ConnectOptions, Connection};
    use std::os::unix::fs::OpenOptionsExt;
    let unavailable = |what: &str, e: &dyn std::fmt::Display| {
        StoreError::Unavailable(format!("{what} {}: {e}", path.display()))
    };
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(url)?
        .read_only(true)
        .create_if_missing(false);
    let mut connection = options.connect().await?;
    let target = std::path::absolute(path).map_err(|e| unavailable("cannot resolve", &e))?;
    let target_text = target
        .to_str()
        .ok_or(StoreError::Unsupported("the backup path must be UTF-8"))?
        .to_owned();
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&target)
        .map_err(|e| unavailable("cannot create", &e))?;
    let copied = sqlx::query("VACUUM INTO $1")
        .bind(&target_text)
        .execute(&mut connection)
        .await;
    connection.close().await.ok();
    if let Err(error) = copied {
        let _ = std::fs::remove_file(&target);
        return Err(error.into());
    }
    // SQLite does not sync what VACUUM INTO writes: the copy and its directory entry are made
    // durable here.
    std::fs::File::open(&target)
        .and_then(|f| f.sync_all())
        .map_err(|e| unavailable("cannot sync", &e))?;
    if let Some(dir) = target.parent() {
        std::fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| unavailable("cannot sync the directory of", &e))?;
    }
    Ok(())
}

/// A URL safe to print: the password, if any, replaced.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            format!("{}://***{}", &url[..scheme_end], &url[at..])
        }
        _ => url.to_owned(),
    }
}

/// A currency's switches as the audit log shows them (`null`: the provider's own flag).
const OVERRIDE_COLUMNS: &str =
    "code, send_enabled, recv_enabled, maintenance_message, min_amount, max_amount, updated_at";

fn override_from_row(row: &AnyRow) -> Result<CurrencyOverride, StoreError> {
    let switch = |column| -> Result<Option<bool>, sqlx::Error> {
        Ok(row.try_get::<Option<i64>, _>(column)?.map(|v| v != 0))
    };
    let amount = |column| -> Result<Option<Decimal>, StoreError> {
        row.try_get::<Option<String>, _>(column)?
            .map(|text| {
                Decimal::from_str(&text)
                    .map_err(|_| StoreError::Corrupt(format!("currency_overrides.{column}")))
            })
            .transpose()
    };
    Ok(CurrencyOverride {
        code: row.try_get("code")?,
        send_enabled: switch("send_enabled")?,
        recv_enabled: switch("recv_enabled")?,
        maintenance: row.try_get("maintenance_message")?,
        min_amount: amount("min_amount")?,
        max_amount: amount("max_amount")?,
        updated_at: row.try_get("updated_at")?,
    })
}

fn flag(value: Option<bool>) -> Option<i64> {
    value.map(i64::from)
}

#[async_trait]
impl Store for SqlStore {
    fn backend(&self) -> Backend {
        self.backend
    }

    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn record_referral_click(&self, click: &NewReferralClick) -> Result<bool, StoreError> {
        let result = sqlx::query(
            "INSERT INTO referral_clicks (referral_code, visitor_key, day, source, created_at)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (referral_code, visitor_key, day) DO NOTHING",
        )
        .bind(&click.referral_code)
        .bind(&click.visitor_key)
        .bind(click.day)
        .bind(&click.source)
        .bind(click.created_at)
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    async fn count_referral_clicks(&self, referral_code: &str) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM referral_clicks WHERE referral_code = $1")
            .bind(referral_code)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    async fn set_currency_override(
        &self,
        value: &CurrencyOverride,
        audit: &AuditEntry,
    ) -> Result<i64, StoreError> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        // A write first: SQLite takes its write lock now (a read first could not be upgraded
        // if another process wrote meanwhile), and PostgreSQL has a row to lock. A currency
        // never switched has the providers' own flags (NULL), as the row says.
        sqlx::query(
            "INSERT INTO currency_overrides (code, send_enabled, recv_enabled, updated_at) \
             VALUES ($1, NULL, NULL, $2) ON CONFLICT (code) DO NOTHING",
        )
        .bind(&value.code)
        .bind(value.updated_at)
        .execute(&mut *tx)
        .await?;
        let lock = self.row_lock();
        let before = sqlx::query(&format!(
            "SELECT {OVERRIDE_COLUMNS} FROM currency_overrides WHERE code = $1{lock}"
        ))
        .bind(&value.code)
        .fetch_optional(&mut *tx)
        .await?
        .map(|row| override_from_row(&row))
        .transpose()?;
        let entry = AuditEntry {
            before: before.as_ref().map(CurrencyOverride::audit_view),
            after: Some(value.audit_view()),
            ..audit.clone()
        };
        let id = insert_audit(&mut *tx, &entry).await?;
        sqlx::query(
            "UPDATE currency_overrides SET send_enabled = $2, recv_enabled = $3,
                 maintenance_message = $4, min_amount = $5, max_amount = $6, updated_at = $7
             WHERE code = $1",
        )
        .bind(&value.code)
        .bind(flag(value.send_enabled))
        .bind(flag(value.recv_enabled))
        .bind(value.maintenance.as_deref())
        .bind(value.min_amount.map(|d| d.normalize().to_string()))
        .bind(value.max_amount.map(|d| d.normalize().to_string()))
        .bind(value.updated_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(id)
    }

    async fn currency_overrides(&self) -> Result<Vec<CurrencyOverride>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {OVERRIDE_COLUMNS} FROM currency_overrides ORDER BY code"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(override_from_row).collect()
    }

    async fn insert_order(&self, order: &NewOrderRecord) -> Result<(), StoreError> {
        match &self.order_writer {
            Some(writer) => writer.insert(order).await,
            None => insert_orders(&self.pool, &[order]).await,
        }
    }

    async fn find_order(&self, id: &str) -> Result<Option<OrderRecord>, StoreError> {
        self.find_order_impl(id).await
    }

    async fn update_order(&self, change: &OrderChange<'_>) -> Result<bool, StoreError> {
        self.update_order_impl(change).await
    }

    async fn claim_idempotency_key(
        &self,
        key: &IdempotencyKey,
        request_hash: &str,
        now: i64,
        ttl_seconds: i64,
    ) -> Result<IdempotencyClaim, StoreError> {
        self.claim_idempotency_key_impl(key, request_hash, now, ttl_seconds)
            .await
    }

    async fn reclaim_idempotency_key(
        &self,
        key: &IdempotencyKey,
        since: Option<i64>,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.reclaim_idempotency_key_impl(key, since, now).await
    }

    async fn forget_idempotency_key(
        &self,
        key: &IdempotencyKey,
        order_id: &str,
    ) -> Result<(), StoreError> {
        let _turn = self.write_turn().await;
        sqlx::query("DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND order_id = $3")
            .bind(&key.scope)
            .bind(&key.key)
            .bind(order_id)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    async fn idempotency_answer(&self, key: &IdempotencyKey) -> Result<Option<String>, StoreError> {
        self.idempotency_answer_impl(key).await
    }

    async fn prune_idempotency_keys(&self, now: i64) -> Result<u64, StoreError> {
        self.prune_idempotency_keys_impl(now).await
    }

    async fn order_events(
        &self,
        id: &str,
        after: i64,
    ) -> Result<Vec<OrderEventRecord>, StoreError> {
        self.order_events_impl(id, after).await
    }

    async fn lease_due_orders(
        &self,
        now: i64,
        owner: &str,
        lease_seconds: i64,
        limit: i64,
    ) -> Result<Vec<OrderRecord>, StoreError> {
        self.lease_due_orders_impl(now, owner, lease_seconds, limit)
            .await
    }

    async fn retry_later(&self, id: &str, owner: &str, at: i64) -> Result<(), StoreError> {
        self.retry_later_impl(id, owner, at).await
    }

    async fn overdue_new_orders(
        &self,
        now: i64,
        limit: i64,
    ) -> Result<Vec<OrderRecord>, StoreError> {
        self.orders_query(
            "status = 'NEW' AND expires_at <= $2 AND provider_order_id IS NULL",
            "expires_at",
            Some(now),
            limit,
        )
        .await
    }

    async fn recent_completed_orders(&self, limit: i64) -> Result<Vec<OrderRecord>, StoreError> {
        self.orders_query("status = 'COMPLETED'", "finished_at DESC", None, limit)
            .await
    }

    async fn payment_hash_used(&self, payment_hash: &str) -> Result<bool, StoreError> {
        self.payment_hash_used_impl(payment_hash).await
    }

    async fn completed_totals(&self) -> Result<(i64, rust_decimal::Decimal), StoreError> {
        self.completed_totals_impl().await
    }

    async fn secret(&self, name: &str, candidate: &str) -> Result<String, StoreError> {
        self.secret_impl(name, candidate).await
    }

    async fn insert_contact_message(&self, m: &ContactMessage) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO contact_messages \
             (id, name, email, subject, category, message, user_id, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&m.id)
        .bind(&m.name)
        .bind(&m.email)
        .bind(&m.subject)
        .bind(&m.category)
        .bind(&m.message)
        .bind(&m.user_id)
        .bind(m.created_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn save_market_data(
        &self,
        source: &str,
        fetched_at: i64,
        body: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO market_data (source, fetched_at, body) VALUES ($1, $2, $3) \
             ON CONFLICT (source) DO UPDATE SET fetched_at = excluded.fetched_at, \
                 body = excluded.body",
        )
        .bind(source)
        .bind(fetched_at)
        .bind(body)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn market_data(&self, source: &str) -> Result<Option<(i64, String)>, StoreError> {
        let row = sqlx::query("SELECT fetched_at, body FROM market_data WHERE source = $1")
            .bind(source)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row
            .map(|r| -> Result<(i64, String), sqlx::Error> {
                Ok((r.try_get("fetched_at")?, r.try_get("body")?))
            })
            .transpose()?)
    }

    async fn contact_messages(&self, limit: i64) -> Result<Vec<ContactMessage>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {MESSAGE_COLUMNS} FROM contact_messages \
             ORDER BY created_at DESC, id LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(message_from_row)
            .collect::<Result<_, _>>()?)
    }

    async fn rate_file_slot(&self, kind: &str) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT slot FROM rate_files_gzipped WHERE kind = $1")
            .bind(kind)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("slot")).transpose()?)
    }

    async fn put_rate_file(&self, file: &RateFileToStore<'_>) -> Result<bool, StoreError> {
        let _turn = self.write_turn().await;
        let result = sqlx::query(
            "INSERT INTO rate_files_gzipped (kind, slot, generated_at, body_gzip) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (kind) DO UPDATE SET slot = excluded.slot, \
                 generated_at = excluded.generated_at, body_gzip = excluded.body_gzip \
             WHERE rate_files_gzipped.slot < excluded.slot",
        )
        .bind(file.kind)
        .bind(file.slot)
        .bind(file.generated_at)
        .bind(file.body_gzip)
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    async fn rate_file(&self, kind: &str) -> Result<Option<StoredRateFile>, StoreError> {
        let row = sqlx::query(
            "SELECT kind, slot, generated_at, body_gzip FROM rate_files_gzipped WHERE kind = $1",
        )
        .bind(kind)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(StoredRateFile {
                kind: r.try_get("kind")?,
                slot: r.try_get("slot")?,
                generated_at: r.try_get("generated_at")?,
                body_gzip: r.try_get("body_gzip")?,
            })
        })
        .transpose()
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}

impl SqlStore {
    /// The clause that locks the rows a read inside a write transaction selects: PostgreSQL
    /// needs it; SQLite's writer holds the whole database already.
    pub(super) fn row_lock(&self) -> &'static str {
        match self.backend {
            Backend::Postgres => " FOR UPDATE",
            Backend::Sqlite => "",
        }
    }

    /// This store's turn to write, on SQLite (see `sqlite_writer`); held until the transaction ends.
    pub(super) async fn write_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match self.backend {
            Backend::Sqlite => Some(self.sqlite_writer.lock().await),
            Backend::Postgres => None,
        }
    }

    pub(super) async fn secret_impl(
        &self,
        name: &str,
        candidate: &str,
    ) -> Result<String, StoreError> {
        sqlx::query(
            "INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(candidate)
        .execute(&self.pool)
        .await?;
        let row = sqlx::query("SELECT value FROM app_secrets WHERE name = $1")
            .bind(name)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("value")?)
    }
}

pub(super) const MESSAGE_COLUMNS: &str = "id, name, email, subject, category, message, user_id, \
    created_at, order_id, answered_at, answered_by";

pub(super) fn message_from_row(r: &AnyRow) -> Result<ContactMessage, sqlx::Error> {
    Ok(ContactMessage {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        email: r.try_get("email")?,
        subject: r.try_get("subject")?,
        category: r.try_get("category")?,
        message: r.try_get("message")?,
        user_id: r.try_get("user_id")?,
        created_at: r.try_get("created_at")?,
        order_id: r.try_get("order_id")?,
        answered_at: r.try_get("answered_at")?,
        answered_by: r.try_get("answered_by")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_get_create_mode_and_keep_explicit_options() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("nested/ferry.db");
        let url = prepare_sqlite_url(&format!("sqlite://{}", file.display())).expect("url");
        assert_eq!(url, format!("sqlite://{}?mode=rwc", file.display()));
        assert!(file.parent().expect("parent").is_dir());
        assert_eq!(
            prepare_sqlite_url("sqlite::memory:?cache=shared").expect("url"),
            "sqlite://:memory:?cache=shared"
        );
    }

    #[test]
    fn passwords_are_redacted_from_printed_urls() {
        assert_eq!(redact("postgres://u:pw@h/db"), "postgres://***@h/db");
        assert_eq!(redact("mysql://h/db"), "mysql://h/db");
    }
}
