//! What the status page reads and writes: the server's own health checks, the signals it
//! derives them from, and the operator's incidents.

use async_trait::async_trait;
use sqlx::Row;

use super::admin::insert_audit;
use super::sql::SqlStore;
use super::{AuditEntry, StoreError};

/// One health check of one component.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusCheck {
    pub component: String,
    pub status: String,
    pub latency_ms: Option<i64>,
    pub checked_at: i64,
    /// The interval it belongs to (its first second): one check per component and slot is
    /// kept, whichever replica made it.
    pub slot: i64,
}

/// How a component fared since a moment: checks that found it operational, all checks, and
/// the first check in that window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckTally {
    pub component: String,
    pub operational: i64,
    pub total: i64,
    pub first_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incident {
    pub id: String,
    pub title: String,
    pub description: String,
    pub status: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub updates: Vec<IncidentUpdate>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncidentUpdate {
    pub status: String,
    pub message: String,
    pub created_at: i64,
}

#[async_trait]
pub trait StatusStore: Send + Sync {
    async fn record_status_checks(&self, checks: &[StatusCheck]) -> Result<(), StoreError>;
    async fn tally_status_checks(&self, since: i64) -> Result<Vec<CheckTally>, StoreError>;
    async fn prune_status_checks(&self, before: i64) -> Result<(), StoreError>;
    /// The earliest simulated order step that is due but not done (processing lag).
    async fn oldest_due_step(&self, now: i64) -> Result<Option<i64>, StoreError>;
    /// When the oldest mail still waiting in the outbox was queued (one the server refused for
    /// good waits for nothing).
    async fn oldest_unsent_mail(&self) -> Result<Option<i64>, StoreError>;
    /// `(currency code, seconds)` from deposit seen (CONFIRMING) to confirmed (EXCHANGE), for
    /// deposits seen since `since`.
    async fn confirmation_times(&self, since: i64) -> Result<Vec<(String, i64)>, StoreError>;
    /// Stores a new incident with the audit entry of who opened it (one transaction); the
    /// entry's id.
    async fn insert_incident(
        &self,
        incident: &Incident,
        audit: &AuditEntry,
    ) -> Result<i64, StoreError>;
    /// Appends an update and sets the incident's status, with the audit entry of who did (its
    /// `before` and `after` filled in here); the entry's id, `None` for an unknown incident.
    async fn update_incident(
        &self,
        id: &str,
        update: &IncidentUpdate,
        audit: &AuditEntry,
    ) -> Result<Option<i64>, StoreError>;
    /// The latest incidents with their updates, newest first.
    async fn incidents(&self, limit: i64) -> Result<Vec<Incident>, StoreError>;
}

#[async_trait]
impl StatusStore for SqlStore {
    async fn record_status_checks(&self, checks: &[StatusCheck]) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        for check in checks {
            sqlx::query(
                "INSERT INTO status_checks (component, status, latency_ms, checked_at, slot) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (component, slot) DO NOTHING",
            )
            .bind(&check.component)
            .bind(&check.status)
            .bind(check.latency_ms)
            .bind(check.checked_at)
            .bind(check.slot)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn tally_status_checks(&self, since: i64) -> Result<Vec<CheckTally>, StoreError> {
        let rows = sqlx::query(
            "SELECT component, \
                 SUM(CASE WHEN status = 'operational' THEN 1 ELSE 0 END) AS ok, \
                 COUNT(*) AS total, MIN(checked_at) AS first_at \
             FROM status_checks WHERE checked_at >= $1 GROUP BY component ORDER BY component",
        )
        .bind(since)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(CheckTally {
                    component: r.try_get("component")?,
                    operational: r.try_get("ok")?,
                    total: r.try_get("total")?,
                    first_at: r.try_get("first_at")?,
                })
            })
            .collect()
    }

    async fn prune_status_checks(&self, before: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM status_checks WHERE checked_at < $1")
            .bind(before)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    async fn oldest_due_step(&self, now: i64) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "SELECT MIN(next_step_at) AS due FROM orders \
             WHERE next_step_at IS NOT NULL AND next_step_at <= $1",
        )
        .bind(now)
        .fetch_one(self.pool())
        .await?;
        Ok(row.try_get("due")?)
    }

    async fn oldest_unsent_mail(&self) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "SELECT MIN(created_at) AS oldest FROM mail_outbox \
                 WHERE sent_at IS NULL AND failed_at IS NULL",
        )
        .fetch_one(self.pool())
        .await?;
        Ok(row.try_get("oldest")?)
    }

    async fn confirmation_times(&self, since: i64) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT o.from_code AS code, MIN(done.created_at) - seen.created_at AS seconds \
             FROM order_events seen \
             JOIN order_events done ON done.order_id = seen.order_id \
                 AND done.status = 'EXCHANGE' AND done.created_at >= seen.created_at \
             JOIN orders o ON o.id = seen.order_id \
             WHERE seen.status = 'CONFIRMING' AND seen.created_at >= $1 \
             GROUP BY seen.order_id, o.from_code, seen.created_at",
        )
        .bind(since)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("code")?, r.try_get("seconds")?)))
            .collect()
    }

    async fn insert_incident(
        &self,
        incident: &Incident,
        audit: &AuditEntry,
    ) -> Result<i64, StoreError> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool().begin().await?;
        let entry = AuditEntry {
            after: Some(serde_json::json!({ "title": incident.title, "status": incident.status })),
            ..audit.clone()
        };
        let audit_id = insert_audit(&mut *tx, &entry).await?;
        sqlx::query(
            "INSERT INTO incidents (id, title, description, status, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&incident.id)
        .bind(&incident.title)
        .bind(&incident.description)
        .bind(&incident.status)
        .bind(incident.created_at)
        .bind(incident.updated_at)
        .execute(&mut *tx)
        .await?;
        for (position, update) in incident.updates.iter().enumerate() {
            sqlx::query(
                "INSERT INTO incident_updates (incident_id, position, status, message, created_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&incident.id)
            .bind(position as i64)
            .bind(&update.status)
            .bind(&update.message)
            .bind(update.created_at)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(audit_id)
    }

    async fn update_incident(
        &self,
        id: &str,
        update: &IncidentUpdate,
        audit: &AuditEntry,
    ) -> Result<Option<i64>, StoreError> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool().begin().await?;
        // A write first, so that SQLite takes its write lock before the read (see
        // `set_currency_override`).
        sqlx::query("UPDATE incidents SET updated_at = updated_at WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let lock = self.row_lock();
        let Some(before) =
            sqlx::query(&format!("SELECT status FROM incidents WHERE id = $1{lock}"))
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?
        else {
            return Ok(None);
        };
        let entry = AuditEntry {
            before: Some(serde_json::json!({ "status": before.try_get::<String, _>("status")? })),
            after: Some(serde_json::json!({ "status": update.status, "message": update.message })),
            ..audit.clone()
        };
        let audit_id = insert_audit(&mut *tx, &entry).await?;
        sqlx::query("UPDATE incidents SET status = $2, updated_at = $3 WHERE id = $1")
            .bind(id)
            .bind(&update.status)
            .bind(update.created_at)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO incident_updates (incident_id, position, status, message, created_at) \
             SELECT $1, COUNT(*), $2, $3, $4 FROM incident_updates WHERE incident_id = $1",
        )
        .bind(id)
        .bind(&update.status)
        .bind(&update.message)
        .bind(update.created_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(audit_id))
    }

    async fn incidents(&self, limit: i64) -> Result<Vec<Incident>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, title, description, status, created_at, updated_at FROM incidents \
             ORDER BY created_at DESC, id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        let mut incidents = Vec::with_capacity(rows.len());
        for r in &rows {
            let id: String = r.try_get("id")?;
            let updates = sqlx::query(
                "SELECT status, message, created_at FROM incident_updates \
                 WHERE incident_id = $1 ORDER BY position DESC",
            )
            .bind(&id)
            .fetch_all(self.pool())
            .await?
            .iter()
            .map(|u| {
                Ok(IncidentUpdate {
                    status: u.try_get("status")?,
                    message: u.try_get("message")?,
                    created_at: u.try_get("created_at")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
            incidents.push(Incident {
                id,
                title: r.try_get("title")?,
                description: r.try_get("description")?,
                status: r.try_get("status")?,
                created_at: r.try_get("created_at")?,
                updated_at: r.try_get("updated_at")?,
                updates,
            });
        }
        Ok(incidents)
    }
}
