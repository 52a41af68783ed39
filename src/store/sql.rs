//! [`Store`] over sqlx's `Any` driver, for SQLite and PostgreSQL alike.

use std::path::Path;
use std::str::FromStr;
use std::sync::{Arc, Once};
use std::time::Duration;

use async_trait::async_trait;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor, Row};

use super::order_writer::OrderWriter;
use super::{
    Backend, ContactMessage, CurrencyOverride, NewReferralClick, OrderEventRecord, OrderRecord,
    Store, StoreError, migrations,
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
        migrations::migrator(self.backend)
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

/// A URL safe to print: the password, if any, replaced.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            format!("{}://***{}", &url[..scheme_end], &url[at..])
        }
        _ => url.to_owned(),
    }
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

    async fn set_currency_override(&self, value: &CurrencyOverride) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO currency_overrides (code, send_enabled, recv_enabled, updated_at)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT (code) DO UPDATE SET send_enabled = excluded.send_enabled,
                 recv_enabled = excluded.recv_enabled, updated_at = excluded.updated_at",
        )
        .bind(&value.code)
        .bind(flag(value.send_enabled))
        .bind(flag(value.recv_enabled))
        .bind(value.updated_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn currency_overrides(&self) -> Result<Vec<CurrencyOverride>, StoreError> {
        let rows = sqlx::query(
            "SELECT code, send_enabled, recv_enabled, updated_at
             FROM currency_overrides ORDER BY code",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(CurrencyOverride {
                    code: row.try_get("code")?,
                    send_enabled: row
                        .try_get::<Option<i64>, _>("send_enabled")?
                        .map(|v| v != 0),
                    recv_enabled: row
                        .try_get::<Option<i64>, _>("recv_enabled")?
                        .map(|v| v != 0),
                    updated_at: row.try_get("updated_at")?,
                })
            })
            .collect()
    }

    async fn insert_order(&self, order: &OrderRecord) -> Result<(), StoreError> {
        self.insert_order_impl(order).await
    }

    async fn find_order(&self, id: &str) -> Result<Option<OrderRecord>, StoreError> {
        self.find_order_where("id", id).await
    }

    async fn find_order_by_idempotency_key(
        &self,
        key: &str,
    ) -> Result<Option<OrderRecord>, StoreError> {
        self.find_order_where("idempotency_key", key).await
    }

    async fn update_order(
        &self,
        order: &OrderRecord,
        expected_status: &str,
        detail: Option<&str>,
    ) -> Result<bool, StoreError> {
        self.update_order_impl(order, expected_status, detail).await
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
        let rows = sqlx::query(
            "SELECT id, name, email, subject, category, message, user_id, created_at \
             FROM contact_messages ORDER BY created_at DESC, id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ContactMessage {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                    email: r.try_get("email")?,
                    subject: r.try_get("subject")?,
                    category: r.try_get("category")?,
                    message: r.try_get("message")?,
                    user_id: r.try_get("user_id")?,
                    created_at: r.try_get("created_at")?,
                })
            })
            .collect()
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}

pub(super) const ORDER_COLUMNS: &str = "id, status, rate_type, direction, provider, from_code, to_code, \
    from_amount, to_amount, rate, from_usd, to_usd, deposit_address, deposit_tag, to_address, \
    to_tag, refund_address, refund_tag, metadata, owner_user_id, idempotency_key, \
    received_amount, payout_amount, emergency_reason, emergency_choice, created_at, expires_at, \
    rate_expires_at, updated_at, finished_at, next_step_at, api_key_id, affiliate_user_id, \
    partner_fee_percent, notify_email, provider_order_id, provider_order_token";

/// How many columns `ORDER_COLUMNS` names.
const ORDER_COLUMN_COUNT: usize = 37;

fn order_from_row(row: &sqlx::any::AnyRow) -> Result<OrderRecord, sqlx::Error> {
    Ok(OrderRecord {
        id: row.try_get("id")?,
        status: row.try_get("status")?,
        rate_type: row.try_get("rate_type")?,
        direction: row.try_get("direction")?,
        provider: row.try_get("provider")?,
        from_code: row.try_get("from_code")?,
        to_code: row.try_get("to_code")?,
        from_amount: row.try_get("from_amount")?,
        to_amount: row.try_get("to_amount")?,
        rate: row.try_get("rate")?,
        from_usd: row.try_get("from_usd")?,
        to_usd: row.try_get("to_usd")?,
        deposit_address: row.try_get("deposit_address")?,
        deposit_tag: row.try_get("deposit_tag")?,
        to_address: row.try_get("to_address")?,
        to_tag: row.try_get("to_tag")?,
        refund_address: row.try_get("refund_address")?,
        refund_tag: row.try_get("refund_tag")?,
        metadata: row.try_get("metadata")?,
        owner_user_id: row.try_get("owner_user_id")?,
        idempotency_key: row.try_get("idempotency_key")?,
        received_amount: row.try_get("received_amount")?,
        payout_amount: row.try_get("payout_amount")?,
        emergency_reason: row.try_get("emergency_reason")?,
        emergency_choice: row.try_get("emergency_choice")?,
        created_at: row.try_get("created_at")?,
        expires_at: row.try_get("expires_at")?,
        rate_expires_at: row.try_get("rate_expires_at")?,
        updated_at: row.try_get("updated_at")?,
        finished_at: row.try_get("finished_at")?,
        next_step_at: row.try_get("next_step_at")?,
        api_key_id: row.try_get("api_key_id")?,
        affiliate_user_id: row.try_get("affiliate_user_id")?,
        partner_fee_percent: row.try_get("partner_fee_percent")?,
        notify_email: row.try_get("notify_email")?,
        provider_order_id: row.try_get("provider_order_id")?,
        provider_order_token: row.try_get("provider_order_token")?,
    })
}

pub(super) fn orders_from_rows(rows: &[sqlx::any::AnyRow]) -> Result<Vec<OrderRecord>, StoreError> {
    rows.iter()
        .map(|r| order_from_row(r).map_err(StoreError::from))
        .collect()
}

async fn append_event<'c>(
    tx: &mut sqlx::Transaction<'c, sqlx::Any>,
    order: &OrderRecord,
    detail: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO order_events (order_id, status, detail, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(&order.id)
    .bind(&order.status)
    .bind(detail)
    .bind(order.updated_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Stores `orders` and the first event of each in one transaction, with one statement for the
/// orders and one for the events however many there are. A unique violation (a reused
/// idempotency key or deposit address) is `StoreError::Conflict`, and nothing is stored.
pub(super) async fn insert_orders(
    pool: &AnyPool,
    orders: &[&OrderRecord],
) -> Result<(), StoreError> {
    let order_sql = format!(
        "INSERT INTO orders ({ORDER_COLUMNS}) VALUES {}",
        value_rows(orders.len(), ORDER_COLUMN_COUNT)
    );
    let mut insert = sqlx::query(&order_sql);
    for o in orders {
        insert = insert
            .bind(&o.id)
            .bind(&o.status)
            .bind(&o.rate_type)
            .bind(&o.direction)
            .bind(&o.provider)
            .bind(&o.from_code)
            .bind(&o.to_code)
            .bind(&o.from_amount)
            .bind(&o.to_amount)
            .bind(&o.rate)
            .bind(&o.from_usd)
            .bind(&o.to_usd)
            .bind(&o.deposit_address)
            .bind(&o.deposit_tag)
            .bind(&o.to_address)
            .bind(&o.to_tag)
            .bind(&o.refund_address)
            .bind(&o.refund_tag)
            .bind(&o.metadata)
            .bind(&o.owner_user_id)
            .bind(&o.idempotency_key)
            .bind(&o.received_amount)
            .bind(&o.payout_amount)
            .bind(&o.emergency_reason)
            .bind(&o.emergency_choice)
            .bind(o.created_at)
            .bind(o.expires_at)
            .bind(o.rate_expires_at)
            .bind(o.updated_at)
            .bind(o.finished_at)
            .bind(o.next_step_at)
            .bind(&o.api_key_id)
            .bind(&o.affiliate_user_id)
            .bind(&o.partner_fee_percent)
            .bind(&o.notify_email)
            .bind(&o.provider_order_id)
            .bind(&o.provider_order_token);
    }
    let event_sql = format!(
        "INSERT INTO order_events (order_id, status, detail, created_at) VALUES {}",
        value_rows(orders.len(), 4)
    );
    let mut events = sqlx::query(&event_sql);
    for o in orders {
        events = events
            .bind(&o.id)
            .bind(&o.status)
            .bind("created")
            .bind(o.updated_at);
    }
    let mut tx = pool.begin().await?;
    insert.execute(&mut *tx).await?;
    events.execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(())
}

/// `($1, $2), ($3, $4)` for two rows of two columns.
fn value_rows(rows: usize, columns: usize) -> String {
    (0..rows)
        .map(|row| {
            let row = (1..=columns)
                .map(|column| format!("${}", row * columns + column))
                .collect::<Vec<_>>()
                .join(", ");
            format!("({row})")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl SqlStore {
    /// This store's turn to write, on SQLite (see `sqlite_writer`); held until the transaction ends.
    async fn write_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match self.backend {
            Backend::Sqlite => Some(self.sqlite_writer.lock().await),
            Backend::Postgres => None,
        }
    }

    pub(super) async fn insert_order_impl(&self, order: &OrderRecord) -> Result<(), StoreError> {
        match &self.order_writer {
            Some(writer) => writer.insert(order).await,
            None => insert_orders(&self.pool, &[order]).await,
        }
    }

    pub(super) async fn update_order_impl(
        &self,
        o: &OrderRecord,
        expected_status: &str,
        detail: Option<&str>,
    ) -> Result<bool, StoreError> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        let result = sqlx::query(
            "UPDATE orders SET status = $1, to_amount = $2, received_amount = $3, \
             payout_amount = $4, refund_address = $5, refund_tag = $6, emergency_reason = $7, \
             emergency_choice = $8, updated_at = $9, finished_at = $10, next_step_at = $11, \
             lease_owner = NULL, lease_until = NULL \
             WHERE id = $12 AND status = $13",
        )
        .bind(&o.status)
        .bind(&o.to_amount)
        .bind(&o.received_amount)
        .bind(&o.payout_amount)
        .bind(&o.refund_address)
        .bind(&o.refund_tag)
        .bind(&o.emergency_reason)
        .bind(&o.emergency_choice)
        .bind(o.updated_at)
        .bind(o.finished_at)
        .bind(o.next_step_at)
        .bind(&o.id)
        .bind(expected_status)
        .execute(&mut *tx)
        .await?;
        if result.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        if o.status != expected_status {
            append_event(&mut tx, o, detail).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    pub(super) async fn find_order_where(
        &self,
        column: &str,
        value: &str,
    ) -> Result<Option<OrderRecord>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE {column} = $1"
        ))
        .bind(value)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(order_from_row).transpose()?)
    }

    pub(super) async fn order_events_impl(
        &self,
        id: &str,
        after: i64,
    ) -> Result<Vec<OrderEventRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, order_id, status, detail, created_at FROM order_events \
             WHERE order_id = $1 AND id > $2 ORDER BY id",
        )
        .bind(id)
        .bind(after)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(OrderEventRecord {
                    id: r.try_get("id")?,
                    order_id: r.try_get("order_id")?,
                    status: r.try_get("status")?,
                    detail: r.try_get("detail")?,
                    created_at: r.try_get("created_at")?,
                })
            })
            .collect()
    }

    pub(super) async fn lease_due_orders_impl(
        &self,
        now: i64,
        owner: &str,
        lease_seconds: i64,
        limit: i64,
    ) -> Result<Vec<OrderRecord>, StoreError> {
        // Every second, even when nothing is due: a write, so it takes its turn too.
        let _turn = self.write_turn().await;
        // The lease condition is repeated outside the subquery so that PostgreSQL re-checks it
        // after waiting for a row another replica is leasing at the same moment.
        let rows = sqlx::query(&format!(
            "UPDATE orders SET lease_owner = $1, lease_until = $2 \
             WHERE id IN (SELECT id FROM orders WHERE next_step_at IS NOT NULL \
                 AND next_step_at <= $3 AND (lease_until IS NULL OR lease_until < $3) \
                 ORDER BY next_step_at LIMIT $4) \
             AND (lease_until IS NULL OR lease_until < $3) \
             RETURNING {ORDER_COLUMNS}"
        ))
        .bind(owner)
        .bind(now + lease_seconds)
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        orders_from_rows(&rows)
    }

    pub(super) async fn orders_query(
        &self,
        condition: &str,
        order_by: &str,
        value: Option<i64>,
        limit: i64,
    ) -> Result<Vec<OrderRecord>, StoreError> {
        let sql = format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE {condition} ORDER BY {order_by} LIMIT $1"
        );
        let mut query = sqlx::query(&sql).bind(limit);
        if let Some(value) = value {
            query = query.bind(value);
        }
        let rows = query.fetch_all(&self.pool).await?;
        orders_from_rows(&rows)
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
    fn value_rows_number_the_placeholders_row_after_row() {
        assert_eq!(value_rows(1, 3), "($1, $2, $3)");
        assert_eq!(value_rows(2, 2), "($1, $2), ($3, $4)");
        assert_eq!(
            ORDER_COLUMNS.split(',').count(),
            ORDER_COLUMN_COUNT,
            "ORDER_COLUMN_COUNT counts ORDER_COLUMNS"
        );
    }

    #[test]
    fn passwords_are_redacted_from_printed_urls() {
        assert_eq!(redact("postgres://u:pw@h/db"), "postgres://***@h/db");
        assert_eq!(redact("mysql://h/db"), "mysql://h/db");
    }
}
