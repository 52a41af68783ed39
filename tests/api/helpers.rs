//! `spawn_app()` and friends: a fresh database per test, port 0, no sleeps.

use std::net::SocketAddr;

use ferry::config::Config;
use ferry::store::{DynStore, SqlStore};
use reqwest::Response;
use serde_json::Value;
use sqlx::{Connection, Executor};

/// Which database a test runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

/// A fresh database that lives as long as the value.
pub struct TestDb {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
    postgres: Option<(String, String)>,
}

impl TestDb {
    /// `None` when PostgreSQL is not configured for tests and this is not CI (CI never skips).
    pub async fn create(db: Db) -> Option<TestDb> {
        match db {
            Db::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = format!("sqlite://{}", dir.path().join("ferry.db").display());
                Some(TestDb {
                    url,
                    _dir: Some(dir),
                    postgres: None,
                })
            }
            Db::Postgres => {
                let Some(admin_url) = postgres_admin_url() else {
                    eprintln!("FERRY_TEST_DATABASE_URL is not set: skipping a PostgreSQL test");
                    return None;
                };
                sqlx::any::install_default_drivers();
                let name = format!("ferry_test_{}", uuid::Uuid::new_v4().simple());
                let mut admin = sqlx::AnyConnection::connect(&admin_url)
                    .await
                    .unwrap_or_else(|e| panic!("PostgreSQL at FERRY_TEST_DATABASE_URL: {e}"));
                admin
                    .execute(format!("CREATE DATABASE {name}").as_str())
                    .await
                    .expect("create test database");
                let url = replace_database(&admin_url, &name);
                Some(TestDb {
                    url,
                    _dir: None,
                    postgres: Some((admin_url, name)),
                })
            }
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((admin_url, name)) = self.postgres.take() {
            // Dropping needs async I/O; do it on a thread of its own so any runtime may drop us.
            let _ = std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("runtime");
                runtime.block_on(async move {
                    if let Ok(mut admin) = sqlx::AnyConnection::connect(&admin_url).await {
                        let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                        let _ = admin.execute(sql.as_str()).await;
                    }
                });
            })
            .join();
        }
    }
}

fn postgres_admin_url() -> Option<String> {
    match std::env::var("FERRY_TEST_DATABASE_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but FERRY_TEST_DATABASE_URL is not set: PostgreSQL tests must run")
        }
        _ => None,
    }
}

fn replace_database(url: &str, name: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let base = match base[scheme_end..].find('/') {
        Some(slash) => &base[..scheme_end + slash],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

/// A moment for `sandbox_prices_at`: tests that compare two readings of the sandbox market (a
/// quote and an order, a rate file and a price) hold its prices still there, rather than race
/// its five-second steps.
pub const STILL_PRICES_AT: i64 = 1_790_000_000;

/// An opened, migrated store on a fresh database.
pub async fn test_store(db: Db) -> Option<(DynStore, TestDb)> {
    let test_db = TestDb::create(db).await?;
    let store = ferry::store::open(&test_db.url).await.expect("open store");
    Some((store, test_db))
}

pub async fn raw_store(db: &TestDb) -> SqlStore {
    SqlStore::connect(&db.url).await.expect("connect")
}

pub struct TestApp {
    pub address: SocketAddr,
    pub client: reqwest::Client,
    pub store: DynStore,
    pub orders: std::sync::Arc<ferry::services::orders::Orders>,
    pub db: TestDb,
    _data_dir: tempfile::TempDir,
}

/// The app on SQLite with default settings.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(Db::Sqlite, |_| {})
        .await
        .expect("SQLite is always available")
}

/// The app on `db`, with `configure` applied to the default settings.
pub async fn spawn_app_with(db: Db, configure: impl FnOnce(&mut Config)) -> Option<TestApp> {
    let test_db = TestDb::create(db).await?;
    let data_dir = tempfile::tempdir().expect("temp dir");
    let mut config = Config::defaults();
    config.listen = "127.0.0.1:0".parse().expect("addr");
    config.data_dir = data_dir.path().to_path_buf();
    config.database_url = Some(test_db.url.clone().into());
    // Tests create orders and accounts far faster than any customer; the limits' own tests
    // set them back.
    config.order_rate_per_minute = 100_000;
    config.register_rate_per_hour = 100_000;
    configure(&mut config);
    let app = ferry::build(config).await.expect("build app");
    let address = app.local_addr();
    let store = app.store();
    let orders = app.orders();
    tokio::spawn(app.run_until(std::future::pending()));
    Some(TestApp {
        address,
        client: reqwest::Client::new(),
        store,
        orders,
        db: test_db,
        _data_dir: data_dir,
    })
}

/// Another replica of `app`: its own process state and data directory, the same database.
pub async fn spawn_replica_of(app: &TestApp, configure: impl FnOnce(&mut Config)) -> TestApp {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let mut config = Config::defaults();
    config.listen = "127.0.0.1:0".parse().expect("addr");
    config.data_dir = data_dir.path().to_path_buf();
    config.database_url = Some(app.db.url.clone().into());
    configure(&mut config);
    let replica = ferry::build(config).await.expect("build replica");
    let address = replica.local_addr();
    let (store, orders) = (replica.store(), replica.orders());
    tokio::spawn(replica.run_until(std::future::pending()));
    TestApp {
        address,
        client: reqwest::Client::new(),
        store,
        orders,
        // The first app owns the database and drops it.
        db: TestDb {
            url: app.db.url.clone(),
            _dir: None,
            postgres: None,
        },
        _data_dir: data_dir,
    }
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.address, path)
    }

    pub async fn get(&self, path: &str) -> Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("request")
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> Response {
        self.client
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .expect("request")
    }
}

/// Reads a JSON body, failing the test with the raw text when it is not JSON.
pub async fn json_of(response: Response) -> Value {
    let text = response.text().await.expect("body");
    serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"))
}

/// Generates a `sqlite` and a `postgres` test for each listed `async fn name(db: Db)`.
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $( #[tokio::test] async fn $name() { super::$name($crate::helpers::Db::Sqlite).await } )*
        }
        mod on_postgres {
            $( #[tokio::test] async fn $name() { super::$name($crate::helpers::Db::Postgres).await } )*
        }
    };
}

#[test]
fn the_database_name_is_replaced_in_postgres_urls() {
    assert_eq!(
        replace_database("postgres://p@h:5432/test", "x"),
        "postgres://p@h:5432/x"
    );
    assert_eq!(
        replace_database("postgres://p@h/test?sslmode=disable", "x"),
        "postgres://p@h/x?sslmode=disable"
    );
    assert_eq!(replace_database("postgres://p@h", "x"), "postgres://p@h/x");
}
