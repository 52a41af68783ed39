//! The migrations of both backends, embedded in the binary.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use rust_embed::RustEmbed;
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};

use super::{Backend, StoreError};

#[derive(RustEmbed)]
#[folder = "migrations/"]
struct MigrationFiles;

/// The embedded migrations of a backend, up to a version if one is given.
#[derive(Debug)]
struct Embedded(Backend, Option<i64>);

impl<'s> MigrationSource<'s> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 's>> {
        Box::pin(async move {
            let mut migrations = migrations_of(self.0)?;
            if let Some(last) = self.1 {
                migrations.retain(|m| m.version <= last);
            }
            Ok(migrations)
        })
    }
}

/// Parses `YYYYMMDDHHMMSS_verb_noun.sql` files of one backend's tree, in version order.
fn migrations_of(backend: Backend) -> Result<Vec<Migration>, BoxDynError> {
    let prefix = match backend {
        Backend::Sqlite => "sqlite/",
        Backend::Postgres => "postgres/",
    };
    let mut migrations = Vec::new();
    for path in MigrationFiles::iter().filter(|p| p.starts_with(prefix) && p.ends_with(".sql")) {
        let name = &path[prefix.len()..];
        let (version, description) = name
            .trim_end_matches(".sql")
            .split_once('_')
            .ok_or_else(|| format!("migration {path} is not named VERSION_description.sql"))?;
        let version: i64 = version
            .parse()
            .map_err(|_| format!("bad version in {path}"))?;
        let file = MigrationFiles::get(&path).ok_or_else(|| format!("{path} vanished"))?;
        let sql = String::from_utf8(file.data.into_owned())?;
        migrations.push(Migration::new(
            version,
            Cow::Owned(description.replace('_', " ")),
            MigrationType::Simple,
            Cow::Owned(sql),
            false,
        ));
    }
    migrations.sort_by_key(|m| m.version);
    Ok(migrations)
}

/// Every migration of `backend`, or those up to `last` (to test a migration on older data).
pub async fn migrator(backend: Backend, last: Option<i64>) -> Result<Migrator, StoreError> {
    let mut migrator = Migrator::new(Embedded(backend, last)).await?;
    // A database a later migration reached still opens with the earlier set (in tests).
    migrator.set_ignore_missing(last.is_some());
    Ok(migrator)
}

/// The last migration this binary knows.
pub fn latest_version() -> i64 {
    migrations_of(Backend::Sqlite)
        .ok()
        .and_then(|m| m.last().map(|m| m.version))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_backends_have_the_same_migration_versions() {
        let versions = |b| {
            migrations_of(b)
                .expect("parse")
                .iter()
                .map(|m| m.version)
                .collect::<Vec<_>>()
        };
        let sqlite = versions(Backend::Sqlite);
        assert!(!sqlite.is_empty());
        assert_eq!(sqlite, versions(Backend::Postgres));
    }
}
