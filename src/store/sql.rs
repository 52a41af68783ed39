//! [`Store`] over sqlx's `Any` driver, for SQLite and PostgreSQL alike.

use std::path::Path;
use std::str::FromStr;
use std::sync::Once;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor, Row};

use super::{Backend, CurrencyOverride, NewReferralClick, Store, StoreError, migrations};

pub struct SqlStore {
    pool: AnyPool,
    backend: Backend,
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
        Ok(SqlStore { pool, backend })
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

    async fn close(&self) {
        self.pool.close().await;
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
    fn passwords_are_redacted_from_printed_urls() {
        assert_eq!(redact("postgres://u:pw@h/db"), "postgres://***@h/db");
        assert_eq!(redact("mysql://h/db"), "mysql://h/db");
    }
}
