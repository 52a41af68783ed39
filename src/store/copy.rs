//! `ferry db copy`: moves a whole SQLite database into an empty PostgreSQL one, for a site that
//! outgrows one machine. The source is opened read-only and must be at this binary's migrations
//! (`ferry migrate` first); the target is migrated. The rows are read in one read transaction (a
//! consistent snapshot, even while a server writes) and written in one write transaction, parents
//! before children, and every table's row count and content hash are compared before it commits:
//! all or nothing.

use std::collections::{BTreeMap, BTreeSet};

use futures_util::TryStreamExt;
use sha2::{Digest, Sha256};
use sqlx::any::AnyRow;
use sqlx::{Any, Row};

use super::{Backend, SqlStore, StoreError, migrations};

/// How many rows go into one INSERT.
const BATCH_ROWS: usize = 200;

/// One table as copied: its rows, and the hash both sides agreed on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopiedTable {
    pub name: String,
    pub rows: u64,
    pub hash: String,
}

#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("copy goes from sqlite://… to postgres://…")]
    Direction,
    #[error("the target is not empty: table {0} has rows (copy only into a new database)")]
    TargetNotEmpty(String),
    #[error(
        "the source is at migration {found}, this binary at {wanted}: run `ferry migrate` on it first (with FERRY_DATABASE_URL set to it)"
    )]
    SourceVersion { found: i64, wanted: i64 },
    #[error("the source cannot be opened read-only: {0}")]
    Source(String),
    #[error("table {table}: {error}")]
    Table { table: String, error: StoreError },
    #[error("table {table} differs after the copy: {detail}")]
    Mismatch { table: String, detail: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for CopyError {
    fn from(error: sqlx::Error) -> Self {
        CopyError::Store(error.into())
    }
}

/// A table of the source: its columns (name, whether an integer) and the tables it refers to.
struct Table {
    name: String,
    columns: Vec<(String, bool)>,
    parents: BTreeSet<String>,
}

/// A value as both sides hold it: Ferry's schema has only integers and text.
#[derive(Clone)]
enum Value {
    Int(Option<i64>),
    Text(Option<String>),
}

pub async fn copy_database(from: &str, to: &str) -> Result<Vec<CopiedTable>, CopyError> {
    if Backend::of_url(from) != Some(Backend::Sqlite)
        || Backend::of_url(to) != Some(Backend::Postgres)
    {
        return Err(CopyError::Direction);
    }
    let source = open_read_only(from).await?;
    let version: Option<i64> = sqlx::query("SELECT MAX(version) AS v FROM _sqlx_migrations")
        .fetch_one(&source)
        .await
        .map_err(|e| CopyError::Source(e.to_string()))?
        .try_get("v")?;
    let wanted = migrations::latest_version();
    if version != Some(wanted) {
        return Err(CopyError::SourceVersion {
            found: version.unwrap_or(0),
            wanted,
        });
    }
    let target = SqlStore::connect(to).await?;
    target.migrate().await?;
    let tables = in_parent_order(tables_of(&source).await?);
    for table in &tables {
        if count(target.pool(), &table.name).await? > 0 {
            return Err(CopyError::TargetNotEmpty(table.name.clone()));
        }
    }
    let mut read = source.begin().await?;
    let mut write = target.pool().begin().await?;
    let mut copied = Vec::new();
    for table in &tables {
        let in_table = |error: CopyError| match error {
            CopyError::Store(error) => CopyError::Table {
                table: table.name.clone(),
                error,
            },
            other => other,
        };
        let (rows, hash) = copy_table(&mut read, &mut write, table)
            .await
            .map_err(in_table)?;
        // Read back inside the write transaction: a mismatch commits nothing.
        let (stored_rows, stored_hash) = digest(&mut write, table).await.map_err(in_table)?;
        if (stored_rows, &stored_hash) != (rows, &hash) {
            return Err(CopyError::Mismatch {
                table: table.name.clone(),
                detail: format!("{rows} rows read, {stored_rows} written"),
            });
        }
        copied.push(CopiedTable {
            name: table.name.clone(),
            rows,
            hash,
        });
    }
    advance_sequences(&mut write, &tables).await?;
    write.commit().await?;
    read.commit().await?;
    source.close().await;
    target.pool().close().await;
    Ok(copied)
}

/// The source, read-only: never created (a mistyped path fails) nor changed.
async fn open_read_only(url: &str) -> Result<sqlx::AnyPool, CopyError> {
    let path = url.trim_start_matches("sqlite:").trim_start_matches("//");
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    if !std::path::Path::new(path).is_file() {
        return Err(CopyError::Source(format!("{path} is not a file")));
    }
    sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .connect(&format!("sqlite://{path}?mode=ro"))
        .await
        .map_err(|e| CopyError::Source(e.to_string()))
}

async fn tables_of(source: &sqlx::AnyPool) -> Result<Vec<Table>, CopyError> {
    let names: Vec<String> = sqlx::query(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         AND name <> '_sqlx_migrations' ORDER BY name",
    )
    .fetch_all(source)
    .await?
    .iter()
    .map(|r| r.try_get("name"))
    .collect::<Result<_, _>>()?;
    let mut tables = Vec::new();
    // The rate files (the only binary column) are made again within one interval: not copied.
    for name in names.into_iter().filter(|n| n != "rate_files_gzipped") {
        let columns = sqlx::query("SELECT name, type FROM pragma_table_info($1) ORDER BY cid")
            .bind(&name)
            .fetch_all(source)
            .await?
            .iter()
            .map(|r| {
                let kind: String = r.try_get("type")?;
                let integer = kind.to_ascii_uppercase().contains("INT");
                Ok((r.try_get::<String, _>("name")?, integer))
            })
            .collect::<Result<_, sqlx::Error>>()?;
        let parents = sqlx::query("SELECT \"table\" AS parent FROM pragma_foreign_key_list($1)")
            .bind(&name)
            .fetch_all(source)
            .await?
            .iter()
            .map(|r| r.try_get("parent"))
            .collect::<Result<_, _>>()?;
        tables.push(Table {
            name,
            columns,
            parents,
        });
    }
    Ok(tables)
}

/// Tables whose rows others refer to come first.
fn in_parent_order(tables: Vec<Table>) -> Vec<Table> {
    let mut left: BTreeMap<String, Table> =
        tables.into_iter().map(|t| (t.name.clone(), t)).collect();
    let mut ordered: Vec<Table> = Vec::new();
    while !left.is_empty() {
        let ready: Vec<String> = left
            .values()
            .filter(|t| {
                t.parents
                    .iter()
                    .all(|p| p == &t.name || !left.contains_key(p))
            })
            .map(|t| t.name.clone())
            .collect();
        // A cycle cannot happen in Ferry's schema; should one appear, copy the rest as it is.
        let next = if ready.is_empty() {
            left.keys().cloned().collect()
        } else {
            ready
        };
        for name in next {
            ordered.extend(left.remove(&name));
        }
    }
    ordered
}

async fn count(pool: &sqlx::AnyPool, table: &str) -> Result<i64, CopyError> {
    let row = sqlx::query(&format!("SELECT COUNT(*) AS n FROM {}", quoted(table)))
        .fetch_one(pool)
        .await?;
    Ok(row.try_get("n")?)
}

/// Copies one table's rows; their count and content hash.
async fn copy_table(
    read: &mut sqlx::Transaction<'_, Any>,
    write: &mut sqlx::Transaction<'_, Any>,
    table: &Table,
) -> Result<(u64, String), CopyError> {
    let select = select_all(table);
    let mut rows = sqlx::query(&select).fetch(&mut **read);
    let mut batch: Vec<Vec<Value>> = Vec::with_capacity(BATCH_ROWS);
    let mut hashes = Vec::new();
    while let Some(row) = rows.try_next().await? {
        let values = values_of(&row, table)?;
        hashes.push(row_hash(&values));
        batch.push(values);
        if batch.len() == BATCH_ROWS {
            insert(write, table, &batch).await?;
            batch.clear();
        }
    }
    if !batch.is_empty() {
        insert(write, table, &batch).await?;
    }
    let total = hashes.len() as u64;
    Ok((total, table_hash(hashes)))
}

/// The row count and content hash of a table as the write transaction holds it (row by row:
/// only the hashes are kept).
async fn digest(
    write: &mut sqlx::Transaction<'_, Any>,
    table: &Table,
) -> Result<(u64, String), CopyError> {
    let select = select_all(table);
    let mut rows = sqlx::query(&select).fetch(&mut **write);
    let mut hashes = Vec::new();
    while let Some(row) = rows.try_next().await? {
        hashes.push(row_hash(&values_of(&row, table)?));
    }
    Ok((hashes.len() as u64, table_hash(hashes)))
}

fn select_all(table: &Table) -> String {
    let columns: Vec<String> = table.columns.iter().map(|(c, _)| quoted(c)).collect();
    format!("SELECT {} FROM {}", columns.join(", "), quoted(&table.name))
}

fn values_of(row: &AnyRow, table: &Table) -> Result<Vec<Value>, sqlx::Error> {
    table
        .columns
        .iter()
        .enumerate()
        .map(|(i, (_, integer))| {
            Ok(if *integer {
                Value::Int(row.try_get(i)?)
            } else {
                Value::Text(row.try_get(i)?)
            })
        })
        .collect()
}

async fn insert(
    write: &mut sqlx::Transaction<'_, Any>,
    table: &Table,
    rows: &[Vec<Value>],
) -> Result<(), CopyError> {
    let width = table.columns.len();
    let placeholders: Vec<String> = (0..rows.len())
        .map(|r| {
            let row: Vec<String> = (1..=width).map(|c| format!("${}", r * width + c)).collect();
            format!("({})", row.join(", "))
        })
        .collect();
    let columns: Vec<String> = table.columns.iter().map(|(c, _)| quoted(c)).collect();
    let sql = format!(
        "INSERT INTO {} ({}) VALUES {}",
        quoted(&table.name),
        columns.join(", "),
        placeholders.join(", ")
    );
    let mut query = sqlx::query(&sql);
    for value in rows.iter().flatten() {
        query = match value {
            Value::Int(v) => query.bind(*v),
            Value::Text(v) => query.bind(v.clone()),
        };
    }
    query.execute(&mut **write).await?;
    Ok(())
}

/// Serial columns (the order events' ids) continue after the copied rows.
async fn advance_sequences(
    write: &mut sqlx::Transaction<'_, Any>,
    tables: &[Table],
) -> Result<(), CopyError> {
    for table in tables {
        for (column, _) in table.columns.iter().filter(|(_, integer)| *integer) {
            let sequence: Option<String> =
                sqlx::query("SELECT pg_get_serial_sequence($1, $2) AS s")
                    .bind(&table.name)
                    .bind(column)
                    .fetch_one(&mut **write)
                    .await?
                    .try_get("s")?;
            if let Some(sequence) = sequence {
                sqlx::query(&format!(
                    "SELECT setval($1, COALESCE((SELECT MAX({c}) FROM {t}), 0) + 1, false)",
                    c = quoted(column),
                    t = quoted(&table.name)
                ))
                .bind(sequence)
                .execute(&mut **write)
                .await?;
            }
        }
    }
    Ok(())
}

fn row_hash(values: &[Value]) -> [u8; 32] {
    let mut hash = Sha256::new();
    for value in values {
        match value {
            Value::Int(None) | Value::Text(None) => hash.update([0]),
            Value::Int(Some(n)) => {
                hash.update([1]);
                hash.update(n.to_be_bytes());
            }
            Value::Text(Some(text)) => {
                hash.update([2]);
                hash.update((text.len() as u64).to_be_bytes());
                hash.update(text.as_bytes());
            }
        }
    }
    hash.finalize().into()
}

/// The hash of a table's rows in any order (the two engines order text differently).
fn table_hash(mut rows: Vec<[u8; 32]>) -> String {
    rows.sort_unstable();
    let mut hash = Sha256::new();
    for row in rows {
        hash.update(row);
    }
    hex::encode(&hash.finalize()[..16])
}

/// A table or column name as SQL writes it (Ferry's names need no escaping; quoted all the same).
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(name: &str, parents: &[&str]) -> Table {
        Table {
            name: name.into(),
            columns: vec![],
            parents: parents.iter().map(|p| p.to_string()).collect(),
        }
    }

    #[test]
    fn parents_are_copied_before_the_rows_that_refer_to_them() {
        let ordered = in_parent_order(vec![
            table("sessions", &["users"]),
            table("commissions", &["orders", "users"]),
            table("orders", &[]),
            table("users", &[]),
            table("events", &["events", "orders"]),
        ]);
        let position = |n: &str| ordered.iter().position(|t| t.name == n).unwrap();
        assert!(position("users") < position("sessions"));
        assert!(position("orders") < position("commissions"));
        assert!(position("users") < position("commissions"));
        assert!(position("orders") < position("events"));
        assert_eq!(ordered.len(), 5);
    }

    #[test]
    fn a_table_hash_does_not_depend_on_row_order_but_on_every_value() {
        let a = row_hash(&[Value::Int(Some(1)), Value::Text(Some("x".into()))]);
        let b = row_hash(&[Value::Int(Some(2)), Value::Text(None)]);
        assert_eq!(table_hash(vec![a, b]), table_hash(vec![b, a]));
        let c = row_hash(&[Value::Int(Some(2)), Value::Text(Some(String::new()))]);
        assert_ne!(table_hash(vec![a, b]), table_hash(vec![a, c]));
    }
}
