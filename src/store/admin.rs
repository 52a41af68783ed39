//! The back office's record (issue 22): the audit log. Entries are written inside the
//! transaction of the change they describe (see the audited store methods), and nothing here
//! updates or deletes one; the database refuses that too (triggers).

use std::str::FromStr;

use async_trait::async_trait;
use rust_decimal::Decimal;
use serde_json::Value;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::accounts::{USER_COLUMNS, user_from_row};
use super::orders::{ORDER_COLUMNS, orders_from_rows};
use super::partners::{ApiKeyRecord, KEY_COLUMNS, key_from_row};
use super::sql::{MESSAGE_COLUMNS, SqlStore, message_from_row};
use super::{ContactMessage, OrderRecord, StoreError, UserRecord};
use crate::domain::operator::{Actor, Role};

/// One act of an operator, a script with the admin token, or the command line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AuditEntry {
    pub at: i64,
    /// `token`, `cli` or `user:<id>`.
    pub actor: String,
    pub actor_email: Option<String>,
    pub actor_role: String,
    /// What was done: `currency.set`, `incident.open`, `payout.close`, `order.deposit` …
    pub action: String,
    /// What it was done to: `currency`, `incident`, `payout`, `order`, `sandbox` …
    pub subject_kind: String,
    pub subject_id: String,
    pub reason: Option<String>,
    pub client_ip: String,
    pub user_agent: String,
    /// The subject as it was and as it became (small views, never secrets).
    pub before: Option<Value>,
    pub after: Option<Value>,
    /// The request's `Idempotency-Key`: one entry per actor and key, so a retry writes nothing.
    pub request_key: Option<String>,
    /// What the request asked for, to tell a retry from another request with the same key.
    pub request_hash: Option<String>,
}

impl AuditEntry {
    /// An entry of `actor` doing `action` to a subject at `at`; where from, why, the views
    /// and the request key are the caller's to add.
    pub fn new(actor: &Actor, action: &str, subject: (&str, &str), at: i64) -> AuditEntry {
        AuditEntry {
            at,
            actor: actor.key(),
            actor_email: match actor {
                Actor::User { email, .. } => Some(email.clone()),
                _ => None,
            },
            actor_role: actor.role().as_str().to_owned(),
            action: action.to_owned(),
            subject_kind: subject.0.to_owned(),
            subject_id: subject.1.to_owned(),
            user_agent: match actor {
                Actor::Cli { login } => login.clone(),
                _ => String::new(),
            },
            client_ip: match actor {
                Actor::Cli { .. } => "cli".to_owned(),
                _ => String::new(),
            },
            ..AuditEntry::default()
        }
    }
}

/// A stored entry.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditRecord {
    pub id: i64,
    pub entry: AuditEntry,
}

/// Which entries to list: every field that is set must match. Newest first, `before` an id.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    pub actor: Option<String>,
    pub action: Option<String>,
    pub subject_kind: Option<String>,
    pub subject_id: Option<String>,
    pub since: Option<i64>,
    pub until: Option<i64>,
    pub before: Option<i64>,
    pub limit: i64,
}

/// Which orders the back office lists: every field that is set must match. Newest first.
#[derive(Debug, Clone, Default)]
pub struct OrderSearch {
    /// An order id, a deposit or destination address, a transaction id, a provider reference,
    /// a partner API key id, or an e-mail (the owner's account or the partner's `setEmail`).
    pub query: Option<String>,
    /// `query` as an e-mail address is stored (see `domain::email::sign_in_key`).
    pub email: Option<String>,
    /// A deposit or destination tag (memo), to tell apart orders at one shared address.
    pub tag: Option<String>,
    pub status: Option<String>,
    /// The pair's codes, each alone or both.
    pub from_code: Option<String>,
    pub to_code: Option<String>,
    /// The upstream that fills it (`sandbox` for the built-in one).
    pub provider: Option<String>,
    /// Made at or after / before these Unix times.
    pub since: Option<i64>,
    pub until: Option<i64>,
    /// The page after this order (`created_at`, `id`) of the previous one.
    pub before: Option<(i64, String)>,
    pub limit: i64,
}

/// How many orders need a person, by why.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueueCounts {
    /// In EMERGENCY.
    pub emergency: i64,
    /// With an unanswered contact message about it, and no other reason.
    pub messages: i64,
    /// Still moving, with no change for too long.
    pub stuck: i64,
    /// FAILED lately.
    pub failed: i64,
}

/// One UTC day's orders.
#[derive(Debug, Clone, PartialEq)]
pub struct DayStats {
    /// Days since 1970-01-01.
    pub day: i64,
    pub orders: i64,
    pub completed: i64,
    /// What the completed orders sent, in USD.
    pub volume_usd: Decimal,
}

/// The orders made since a time, from the database (every replica sees the same).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OrderStats {
    /// Days with orders, oldest first.
    pub days: Vec<DayStats>,
    /// Seconds from creation to completion of the completed orders, sorted.
    pub completion_seconds: Percentiles,
    /// Orders whose deposit arrived.
    pub deposited: i64,
    /// Orders that went into EMERGENCY at some point.
    pub emergency: i64,
    /// Orders that ended REFUNDED.
    pub refunded: i64,
}

/// The median, 90th and 99th percentiles of a measure, and how many values it has.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Percentiles {
    pub count: i64,
    pub p50: Option<i64>,
    pub p90: Option<i64>,
    pub p99: Option<i64>,
}

/// Which orders need a person: those in EMERGENCY, those moving with no change since
/// `stuck_before`, and those FAILED since `failed_since`.
#[derive(Debug, Clone, Copy)]
pub struct QueueSearch {
    pub stuck_before: i64,
    pub failed_since: i64,
    pub limit: i64,
}

/// Which contact messages to list: newest first.
#[derive(Debug, Clone, Default)]
pub struct MessageFilter {
    /// `Some(false)`: the unanswered only; `Some(true)`: the answered only.
    pub answered: Option<bool>,
    /// Those about this order.
    pub order_id: Option<String>,
    /// The page after this message (`created_at`, `id`).
    pub before: Option<(i64, String)>,
    pub limit: i64,
}

/// The orders with an unanswered contact message about them.
const OPEN_MESSAGE_ORDERS: &str =
    "SELECT order_id FROM contact_messages WHERE answered_at IS NULL AND order_id IS NOT NULL";

/// The statuses of an order that is still moving on its own.
const MOVING: &str = "('CONFIRMING', 'EXCHANGE', 'SENDING')";

/// What locking or unlocking an account did.
#[derive(Debug, Clone, PartialEq)]
pub enum LockChange {
    Done {
        user: Box<UserRecord>,
        keys_revoked: u64,
        audit_id: i64,
    },
    NoSuchUser,
    /// Refused: no owner would be left to unlock anyone.
    LastOwner,
}

/// What revoking one partner key did.
#[derive(Debug)]
pub enum KeyRevoke {
    Done {
        key: Box<ApiKeyRecord>,
        audit_id: i64,
    },
    NoSuchKey,
    AlreadyRevoked,
}

/// What changing an operator's role did.
#[derive(Debug, Clone, PartialEq)]
pub enum RoleChange {
    /// Changed (or confirmed): the user as they now are, and the audit entry's id.
    Changed {
        user: Box<UserRecord>,
        audit_id: i64,
    },
    NoSuchUser,
    /// Refused: the account never proved its e-mail address (anyone may sign up as
    /// `newhire@…` before the new hire does).
    Unverified,
    /// Refused: the exchange would be left without an owner.
    LastOwner,
}

#[async_trait]
pub trait AdminStore: Send + Sync {
    /// Every user with a role, by e-mail.
    async fn operators(&self) -> Result<Vec<UserRecord>, StoreError>;

    /// Gives the user with this (lower-cased) e-mail a role, or takes it (`None`), with the
    /// audit entry of who did, in one transaction; never the last owner's.
    async fn set_operator_role(
        &self,
        email: &str,
        role: Option<Role>,
        now: i64,
        audit: &AuditEntry,
    ) -> Result<RoleChange, StoreError>;

    /// Records an act that changes nothing in the database by itself (a switch kept in
    /// memory): it is written before the act, and the act is refused if it cannot be.
    async fn append_audit(&self, entry: &AuditEntry) -> Result<i64, StoreError>;

    async fn audit_entries(&self, filter: &AuditFilter) -> Result<Vec<AuditRecord>, StoreError>;

    /// Orders matching `search`, newest first.
    async fn search_orders(&self, search: &OrderSearch) -> Result<Vec<OrderRecord>, StoreError>;

    /// Orders that need a person, the longest waiting first.
    async fn order_queue(&self, search: &QueueSearch) -> Result<Vec<OrderRecord>, StoreError>;

    async fn queue_counts(&self, search: &QueueSearch) -> Result<QueueCounts, StoreError>;

    /// What happened to the orders made since `since`.
    async fn order_stats(&self, since: i64) -> Result<OrderStats, StoreError>;

    /// Accounts by id or e-mail (a prefix of the stored, lower-cased address), newest first;
    /// `before` is the (`created_at`, `id`) of the previous page's last.
    async fn search_users(
        &self,
        query: Option<&str>,
        before: Option<(i64, String)>,
        limit: i64,
    ) -> Result<Vec<UserRecord>, StoreError>;

    /// Locks the account (`lock`: its sessions end, its pending links and its partner keys
    /// are revoked) or unlocks it, with its audit entry, in one transaction; never the last
    /// unlocked owner.
    async fn set_user_lock(
        &self,
        user_id: &str,
        lock: bool,
        now: i64,
        audit: &AuditEntry,
    ) -> Result<LockChange, StoreError>;

    /// Ends every session of the user, with the audit entry; how many ended.
    async fn end_sessions(&self, user_id: &str, audit: &AuditEntry) -> Result<u64, StoreError>;

    async fn contact_messages_page(
        &self,
        filter: &MessageFilter,
    ) -> Result<Vec<ContactMessage>, StoreError>;

    /// Marks a message answered (by the audit entry's actor) or open again, with its audit
    /// entry; the message as it now is, `None` if there is none.
    async fn mark_contact_message(
        &self,
        id: &str,
        answered: bool,
        now: i64,
        audit: &AuditEntry,
    ) -> Result<Option<ContactMessage>, StoreError>;

    /// Links a message to the order it is about (or unlinks it), with its audit entry.
    async fn link_contact_message(
        &self,
        id: &str,
        order_id: Option<&str>,
        audit: &AuditEntry,
    ) -> Result<Option<ContactMessage>, StoreError>;

    /// The orders with an unanswered message about them, among `order_ids`.
    async fn orders_with_open_messages(
        &self,
        order_ids: &[String],
    ) -> Result<Vec<String>, StoreError>;

    /// Partner API keys with their owner's e-mail, the most recently used first (never used: by
    /// creation); `revoked`: only revoked keys (`true`) or only active ones (`false`).
    async fn api_keys_page(
        &self,
        revoked: Option<bool>,
        limit: i64,
    ) -> Result<Vec<(ApiKeyRecord, Option<String>)>, StoreError>;

    /// Revokes one partner key with its audit entry.
    async fn revoke_key(
        &self,
        id: &str,
        now: i64,
        audit: &AuditEntry,
    ) -> Result<KeyRevoke, StoreError>;

    /// The entry an earlier request of `actor` with the `Idempotency-Key` `key` wrote.
    async fn audit_by_request(
        &self,
        actor: &str,
        key: &str,
    ) -> Result<Option<AuditRecord>, StoreError>;
}

/// A page of a table's rows, newest first (`created_at DESC, id DESC`), after the previous
/// page's last: the search's conditions, with their values bound in the order of their
/// placeholders.
#[derive(Default)]
struct NewestFirst {
    clauses: Vec<String>,
    binds: Vec<Bind>,
}

enum Bind {
    Text(String),
    Int(i64),
}

impl NewestFirst {
    /// The placeholder of a text value.
    fn text(&mut self, value: impl Into<String>) -> String {
        self.binds.push(Bind::Text(value.into()));
        format!("${}", self.binds.len())
    }

    fn int(&mut self, value: i64) -> String {
        self.binds.push(Bind::Int(value));
        format!("${}", self.binds.len())
    }

    fn when(&mut self, clause: String) {
        self.clauses.push(clause);
    }

    /// Only rows after `before`, the (`created_at`, `id`) of the previous page's last.
    fn after(&mut self, before: Option<&(i64, String)>) {
        if let Some((created_at, id)) = before {
            let at = self.int(*created_at);
            let id = self.text(id.as_str());
            self.when(format!(
                "(created_at < {at} OR (created_at = {at} AND id < {id}))"
            ));
        }
    }

    async fn fetch(
        mut self,
        store: &SqlStore,
        columns: &str,
        table: &str,
        limit: i64,
    ) -> Result<Vec<AnyRow>, StoreError> {
        let limit = self.int(limit);
        let filter = if self.clauses.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", self.clauses.join(" AND "))
        };
        let sql = format!(
            "SELECT {columns} FROM {table} {filter} ORDER BY created_at DESC, id DESC LIMIT {limit}"
        );
        let mut query = sqlx::query(&sql);
        for bind in self.binds {
            query = match bind {
                Bind::Text(text) => query.bind(text),
                Bind::Int(number) => query.bind(number),
            };
        }
        Ok(query.fetch_all(store.pool()).await?)
    }
}

const AUDIT_COLUMNS: &str = "id, at, actor, actor_email, actor_role, action, subject_kind, \
    subject_id, reason, client_ip, user_agent, before_json, after_json, request_key, request_hash";

/// Writes `entry` with `executor` (inside the change's transaction); its id. A second entry
/// for the same actor and `Idempotency-Key` is [`StoreError::Replayed`].
pub(super) async fn insert_audit<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    entry: &AuditEntry,
) -> Result<i64, StoreError> {
    let json = |value: &Option<Value>| value.as_ref().map(Value::to_string);
    let inserted = sqlx::query(
        "INSERT INTO audit_log (at, actor, actor_email, actor_role, action, subject_kind, \
             subject_id, reason, client_ip, user_agent, before_json, after_json, request_key, \
             request_hash) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id",
    )
    .bind(entry.at)
    .bind(&entry.actor)
    .bind(&entry.actor_email)
    .bind(&entry.actor_role)
    .bind(&entry.action)
    .bind(&entry.subject_kind)
    .bind(&entry.subject_id)
    .bind(&entry.reason)
    .bind(&entry.client_ip)
    .bind(&entry.user_agent)
    .bind(json(&entry.before))
    .bind(json(&entry.after))
    .bind(&entry.request_key)
    .bind(&entry.request_hash)
    .fetch_one(executor)
    .await;
    match inserted {
        Ok(row) => Ok(row.try_get("id")?),
        // The only unique key besides the id is (actor, request_key).
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(StoreError::Replayed),
        Err(e) => Err(e.into()),
    }
}

/// `text` with LIKE's wildcards (and the escape character) escaped by `\\`.
fn like_escaped(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

/// A sum the database wrote as text (a float's on SQLite may be in scientific notation).
fn parse_sum(text: &str) -> Result<Decimal, StoreError> {
    Decimal::from_str(text)
        .or_else(|_| Decimal::from_scientific(text))
        .map(|sum| sum.round_dp(2))
        .map_err(|_| StoreError::Corrupt(format!("a sum of amounts: {text:?}")))
}

fn audit_from_row(row: &AnyRow) -> Result<AuditRecord, StoreError> {
    let json = |column: &str| -> Result<Option<Value>, StoreError> {
        row.try_get::<Option<String>, _>(column)?
            .map(|text| {
                serde_json::from_str(&text)
                    .map_err(|e| StoreError::Corrupt(format!("audit_log.{column}: {e}")))
            })
            .transpose()
    };
    Ok(AuditRecord {
        id: row.try_get("id")?,
        entry: AuditEntry {
            at: row.try_get("at")?,
            actor: row.try_get("actor")?,
            actor_email: row.try_get("actor_email")?,
            actor_role: row.try_get("actor_role")?,
            action: row.try_get("action")?,
            subject_kind: row.try_get("subject_kind")?,
            subject_id: row.try_get("subject_id")?,
            reason: row.try_get("reason")?,
            client_ip: row.try_get("client_ip")?,
            user_agent: row.try_get("user_agent")?,
            before: json("before_json")?,
            after: json("after_json")?,
            request_key: row.try_get("request_key")?,
            request_hash: row.try_get("request_hash")?,
        },
    })
}

#[async_trait]
impl AdminStore for SqlStore {
    async fn operators(&self) -> Result<Vec<UserRecord>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {USER_COLUMNS} FROM users WHERE operator_role IS NOT NULL ORDER BY email"
        ))
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(user_from_row).collect::<Result<_, _>>()?)
    }

    async fn set_operator_role(
        &self,
        email: &str,
        role: Option<Role>,
        now: i64,
        audit: &AuditEntry,
    ) -> Result<RoleChange, StoreError> {
        let _turn = self.write_turn().await;
        let lock = self.row_lock();
        let mut tx = self.pool().begin().await?;
        // A write first: SQLite takes its write lock before it reads (another process, the
        // command line, may write meanwhile).
        sqlx::query("UPDATE users SET updated_at = updated_at WHERE email = $1")
            .bind(email)
            .execute(&mut *tx)
            .await?;
        // Every owner's row is locked first, in one order (on PostgreSQL): two owners demoting
        // each other at once wait in turn, and the second sees the first's change.
        let owners = sqlx::query(&format!(
            "SELECT id FROM users WHERE operator_role = 'owner' ORDER BY id{lock}"
        ))
        .fetch_all(&mut *tx)
        .await?;
        let found = sqlx::query(&format!(
            "SELECT {USER_COLUMNS} FROM users WHERE email = $1{lock}"
        ))
        .bind(email)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(mut user) = found.as_ref().map(user_from_row).transpose()? else {
            return Ok(RoleChange::NoSuchUser);
        };
        if role.is_some() && user.email_verified_at.is_none() {
            return Ok(RoleChange::Unverified);
        }
        if user.operator_role == Some(Role::Owner) && role != Some(Role::Owner) && owners.len() <= 1
        {
            return Ok(RoleChange::LastOwner);
        }
        let view = |role: Option<Role>| serde_json::json!({ "role": role.map(Role::as_str) });
        let entry = AuditEntry {
            subject_kind: "user".into(),
            subject_id: user.id.clone(),
            before: Some(view(user.operator_role)),
            after: Some(view(role)),
            ..audit.clone()
        };
        let audit_id = insert_audit(&mut *tx, &entry).await?;
        sqlx::query("UPDATE users SET operator_role = $2, updated_at = $3 WHERE id = $1")
            .bind(&user.id)
            .bind(role.map(Role::as_str))
            .bind(now)
            .execute(&mut *tx)
            .await?;
        // A new role starts with the console locked in every session.
        sqlx::query("UPDATE sessions SET console_seen_at = NULL WHERE user_id = $1")
            .bind(&user.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        user.operator_role = role;
        user.updated_at = now;
        Ok(RoleChange::Changed {
            user: Box::new(user),
            audit_id,
        })
    }

    async fn append_audit(&self, entry: &AuditEntry) -> Result<i64, StoreError> {
        let _turn = self.write_turn().await;
        insert_audit(self.pool(), entry).await
    }

    async fn audit_entries(&self, filter: &AuditFilter) -> Result<Vec<AuditRecord>, StoreError> {
        // Unset filters match everything (typed, so that PostgreSQL knows a NULL's type).
        let sql = format!(
            "SELECT {AUDIT_COLUMNS} FROM audit_log \
             WHERE (CAST($1 AS TEXT) IS NULL OR actor = $1) \
               AND (CAST($2 AS TEXT) IS NULL OR action = $2) \
               AND (CAST($3 AS TEXT) IS NULL OR subject_kind = $3) \
               AND (CAST($4 AS TEXT) IS NULL OR subject_id = $4) \
               AND (CAST($5 AS BIGINT) IS NULL OR at >= $5) \
               AND (CAST($6 AS BIGINT) IS NULL OR at < $6) \
               AND (CAST($7 AS BIGINT) IS NULL OR id < $7) \
             ORDER BY id DESC LIMIT $8"
        );
        let rows = sqlx::query(&sql)
            .bind(&filter.actor)
            .bind(&filter.action)
            .bind(&filter.subject_kind)
            .bind(&filter.subject_id)
            .bind(filter.since)
            .bind(filter.until)
            .bind(filter.before)
            .bind(filter.limit)
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(audit_from_row).collect()
    }

    async fn search_orders(&self, search: &OrderSearch) -> Result<Vec<OrderRecord>, StoreError> {
        let mut page = NewestFirst::default();
        if let Some(query) = &search.query {
            let q = page.text(query);
            let email = page.text(search.email.as_deref().unwrap_or_default());
            // One indexed lookup per key, united: an OR of them (with subqueries) would make
            // PostgreSQL scan the table.
            page.when(format!(
                "id IN (SELECT id FROM orders WHERE id = {q} \
                 UNION ALL SELECT id FROM orders WHERE deposit_address = {q} \
                 UNION ALL SELECT id FROM orders WHERE to_address = {q} \
                 UNION ALL SELECT id FROM orders WHERE provider_order_id = {q} \
                 UNION ALL SELECT id FROM orders WHERE api_key_id = {q} \
                 UNION ALL SELECT id FROM orders WHERE notify_email = {email} \
                 UNION ALL SELECT o.id FROM users u JOIN orders o ON o.owner_user_id = u.id \
                     WHERE u.email = {email} \
                 UNION ALL SELECT order_id FROM order_txids WHERE txid = {q})"
            ));
        }
        if let Some(tag) = &search.tag {
            let t = page.text(tag);
            page.when(format!("(deposit_tag = {t} OR to_tag = {t})"));
        }
        for (column, value) in [
            ("status", &search.status),
            ("from_code", &search.from_code),
            ("to_code", &search.to_code),
            ("provider", &search.provider),
        ] {
            if let Some(value) = value {
                let v = page.text(value);
                page.when(format!("{column} = {v}"));
            }
        }
        if let Some(since) = search.since {
            let at = page.int(since);
            page.when(format!("created_at >= {at}"));
        }
        if let Some(until) = search.until {
            let at = page.int(until);
            page.when(format!("created_at < {at}"));
        }
        page.after(search.before.as_ref());
        let rows = page
            .fetch(self, ORDER_COLUMNS, "orders", search.limit)
            .await?;
        orders_from_rows(&rows)
    }

    async fn order_queue(&self, search: &QueueSearch) -> Result<Vec<OrderRecord>, StoreError> {
        let sql = format!(
            "SELECT {ORDER_COLUMNS} FROM orders \
             WHERE status = 'EMERGENCY' \
                OR (status IN {MOVING} AND updated_at < $1) \
                OR (status = 'FAILED' AND updated_at >= $2) \
                OR id IN ({OPEN_MESSAGE_ORDERS}) \
             ORDER BY updated_at, id LIMIT $3"
        );
        let rows = sqlx::query(&sql)
            .bind(search.stuck_before)
            .bind(search.failed_since)
            .bind(search.limit)
            .fetch_all(self.pool())
            .await?;
        orders_from_rows(&rows)
    }

    async fn queue_counts(&self, search: &QueueSearch) -> Result<QueueCounts, StoreError> {
        let sql = format!(
            "SELECT COUNT(CASE WHEN status = 'EMERGENCY' THEN 1 END) AS emergency, \
                COUNT(CASE WHEN status IN {MOVING} AND updated_at < $1 THEN 1 END) AS stuck, \
                COUNT(CASE WHEN status = 'FAILED' AND updated_at >= $2 THEN 1 END) AS failed \
             FROM orders WHERE status = 'EMERGENCY' OR status = 'FAILED' OR status IN {MOVING}"
        );
        let row = sqlx::query(&sql)
            .bind(search.stuck_before)
            .bind(search.failed_since)
            .fetch_one(self.pool())
            .await?;
        // Orders listed for a message alone: one in EMERGENCY with a message counts once.
        let messages = sqlx::query(&format!(
            "SELECT COUNT(DISTINCT m.order_id) AS n FROM contact_messages m \
             JOIN orders o ON o.id = m.order_id \
             WHERE m.answered_at IS NULL AND NOT (o.status = 'EMERGENCY' \
                OR (o.status IN {MOVING} AND o.updated_at < $1) \
                OR (o.status = 'FAILED' AND o.updated_at >= $2))"
        ))
        .bind(search.stuck_before)
        .bind(search.failed_since)
        .fetch_one(self.pool())
        .await?;
        Ok(QueueCounts {
            emergency: row.try_get("emergency")?,
            stuck: row.try_get("stuck")?,
            failed: row.try_get("failed")?,
            messages: messages.try_get("n")?,
        })
    }

    async fn order_stats(&self, since: i64) -> Result<OrderStats, StoreError> {
        // Decimal text summed as the store's `completed_totals` does: exactly on PostgreSQL,
        // as a float on SQLite (a figure shown to the cent).
        let number = match super::Store::backend(self) {
            super::Backend::Postgres => "NUMERIC",
            super::Backend::Sqlite => "REAL",
        };
        let rows = sqlx::query(&format!(
            "SELECT created_at / 86400 AS day, COUNT(*) AS orders, \
                COUNT(CASE WHEN status = 'COMPLETED' THEN 1 END) AS completed, \
                CAST(COALESCE(SUM(CASE WHEN status = 'COMPLETED' \
                    THEN CAST(from_usd AS {number}) END), 0) AS TEXT) AS volume \
             FROM orders WHERE created_at >= $1 GROUP BY created_at / 86400 ORDER BY day"
        ))
        .bind(since)
        .fetch_all(self.pool())
        .await?;
        let days = rows
            .iter()
            .map(|row| {
                let volume: String = row.try_get("volume")?;
                Ok(DayStats {
                    day: row.try_get("day")?,
                    orders: row.try_get("orders")?,
                    completed: row.try_get("completed")?,
                    volume_usd: parse_sum(&volume)?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        let row = sqlx::query(
            "SELECT COUNT(received_amount) AS deposited, \
                COUNT(emergency_reason) AS emergency, \
                COUNT(CASE WHEN status = 'REFUNDED' THEN 1 END) AS refunded, \
                COUNT(CASE WHEN status = 'COMPLETED' AND finished_at IS NOT NULL THEN 1 END) \
                    AS completed \
             FROM orders WHERE created_at >= $1",
        )
        .bind(since)
        .fetch_one(self.pool())
        .await?;
        let completed: i64 = row.try_get("completed")?;
        let mut completion_seconds = Percentiles {
            count: completed,
            ..Percentiles::default()
        };
        for (share, slot) in [
            (50, &mut completion_seconds.p50),
            (90, &mut completion_seconds.p90),
            (99, &mut completion_seconds.p99),
        ] {
            if completed == 0 {
                break;
            }
            // The nearest-rank percentile: the smallest value with `share` % at or below it.
            let rank = (completed * share + 99) / 100;
            let took = sqlx::query(
                "SELECT finished_at - created_at AS took FROM orders \
                 WHERE created_at >= $1 AND status = 'COMPLETED' AND finished_at IS NOT NULL \
                 ORDER BY took LIMIT 1 OFFSET $2",
            )
            .bind(since)
            .bind(rank - 1)
            .fetch_optional(self.pool())
            .await?;
            *slot = took.map(|row| row.try_get("took")).transpose()?;
        }
        Ok(OrderStats {
            days,
            completion_seconds,
            deposited: row.try_get("deposited")?,
            emergency: row.try_get("emergency")?,
            refunded: row.try_get("refunded")?,
        })
    }

    async fn search_users(
        &self,
        query: Option<&str>,
        before: Option<(i64, String)>,
        limit: i64,
    ) -> Result<Vec<UserRecord>, StoreError> {
        let mut page = NewestFirst::default();
        if let Some(query) = query {
            let id = page.text(query);
            let email = page.text(format!("{}%", like_escaped(&query.to_lowercase())));
            page.when(format!("(id = {id} OR email LIKE {email} ESCAPE '\\')"));
        }
        page.after(before.as_ref());
        let rows = page.fetch(self, USER_COLUMNS, "users", limit).await?;
        Ok(rows.iter().map(user_from_row).collect::<Result<_, _>>()?)
    }

    async fn set_user_lock(
        &self,
        user_id: &str,
        lock: bool,
        now: i64,
        audit: &AuditEntry,
    ) -> Result<LockChange, StoreError> {
        let _turn = self.write_turn().await;
        let row_lock = self.row_lock();
        let mut tx = self.pool().begin().await?;
        // A write first: SQLite takes its write lock before it reads.
        sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        // Every owner's row is locked first, in one order (on PostgreSQL): two owners locking
        // each other at once wait in turn, and the second sees the first's lock.
        let owners = sqlx::query(&format!(
            "SELECT id FROM users WHERE operator_role = 'owner' AND locked_at IS NULL \
             ORDER BY id{row_lock}"
        ))
        .fetch_all(&mut *tx)
        .await?;
        let found = sqlx::query(&format!(
            "SELECT {USER_COLUMNS} FROM users WHERE id = $1{row_lock}"
        ))
        .bind(user_id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(before) = found.as_ref().map(user_from_row).transpose()? else {
            return Ok(LockChange::NoSuchUser);
        };
        let other_owners = owners
            .iter()
            .filter(|row| {
                row.try_get::<String, _>("id")
                    .is_ok_and(|id| id != before.id)
            })
            .count();
        if lock && before.operator_role == Some(Role::Owner) && other_owners == 0 {
            return Ok(LockChange::LastOwner);
        }
        let locked_at = if lock {
            Some(before.locked_at.unwrap_or(now))
        } else {
            None
        };
        sqlx::query("UPDATE users SET locked_at = $2, updated_at = $3 WHERE id = $1")
            .bind(user_id)
            .bind(locked_at)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        // Locked, nothing of the account works: not its sessions, not its pending links and
        // sign-in challenges, not its partner keys (a thief's would keep trading). Unlocked,
        // any session left was opened while it was locked (a sign-in under way): it goes too.
        let sessions_ended = sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let mut keys_revoked = 0;
        if lock {
            sqlx::query(
                "UPDATE user_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL",
            )
            .bind(user_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            keys_revoked = sqlx::query(
                "UPDATE api_keys SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL",
            )
            .bind(user_id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        }
        let mut user = before.clone();
        user.locked_at = locked_at;
        user.updated_at = now;
        let entry = AuditEntry {
            subject_kind: "user".into(),
            subject_id: user.id.clone(),
            before: Some(serde_json::json!({ "locked_at": before.locked_at })),
            after: Some(serde_json::json!({
                "locked_at": locked_at,
                "sessions_ended": sessions_ended,
                "api_keys_revoked": keys_revoked,
            })),
            ..audit.clone()
        };
        let audit_id = insert_audit(&mut *tx, &entry).await?;
        tx.commit().await?;
        Ok(LockChange::Done {
            user: Box::new(user),
            keys_revoked,
            audit_id,
        })
    }

    async fn api_keys_page(
        &self,
        revoked: Option<bool>,
        limit: i64,
    ) -> Result<Vec<(ApiKeyRecord, Option<String>)>, StoreError> {
        let which = match revoked {
            None => "",
            Some(true) => "WHERE k.revoked_at IS NOT NULL",
            Some(false) => "WHERE k.revoked_at IS NULL",
        };
        let columns = KEY_COLUMNS
            .split(", ")
            .map(|c| format!("k.{}", c.trim()))
            .collect::<Vec<_>>()
            .join(", ");
        let rows = sqlx::query(&format!(
            "SELECT {columns}, u.email AS owner_email FROM api_keys k \
             LEFT JOIN users u ON u.id = k.user_id {which} \
             ORDER BY COALESCE(k.last_used_at, k.created_at) DESC, k.id LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| Ok((key_from_row(row)?, row.try_get("owner_email")?)))
            .collect()
    }

    async fn revoke_key(
        &self,
        id: &str,
        now: i64,
        audit: &AuditEntry,
    ) -> Result<KeyRevoke, StoreError> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool().begin().await?;
        // The write is the check: of two revocations at once, one changes the row.
        let revoked =
            sqlx::query("UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL")
                .bind(id)
                .bind(now)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        let found = sqlx::query(&format!("SELECT {KEY_COLUMNS} FROM api_keys WHERE id = $1"))
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(key) = found.as_ref().map(key_from_row).transpose()? else {
            return Ok(KeyRevoke::NoSuchKey);
        };
        if revoked == 0 {
            return Ok(KeyRevoke::AlreadyRevoked);
        }
        let entry = AuditEntry {
            subject_kind: "api_key".into(),
            subject_id: key.id.clone(),
            before: Some(serde_json::json!({ "revoked_at": null })),
            after: Some(serde_json::json!({ "revoked_at": key.revoked_at, "owner": key.user_id })),
            ..audit.clone()
        };
        let audit_id = insert_audit(&mut *tx, &entry).await?;
        tx.commit().await?;
        Ok(KeyRevoke::Done {
            key: Box::new(key),
            audit_id,
        })
    }

    async fn end_sessions(&self, user_id: &str, audit: &AuditEntry) -> Result<u64, StoreError> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool().begin().await?;
        let ended = sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let entry = AuditEntry {
            subject_kind: "user".into(),
            subject_id: user_id.to_owned(),
            after: Some(serde_json::json!({ "sessions_ended": ended })),
            ..audit.clone()
        };
        insert_audit(&mut *tx, &entry).await?;
        tx.commit().await?;
        Ok(ended)
    }

    async fn contact_messages_page(
        &self,
        filter: &MessageFilter,
    ) -> Result<Vec<ContactMessage>, StoreError> {
        let mut page = NewestFirst::default();
        match filter.answered {
            Some(true) => page.when("answered_at IS NOT NULL".to_owned()),
            Some(false) => page.when("answered_at IS NULL".to_owned()),
            None => {}
        }
        if let Some(order_id) = &filter.order_id {
            let id = page.text(order_id);
            page.when(format!("order_id = {id}"));
        }
        page.after(filter.before.as_ref());
        let rows = page
            .fetch(self, MESSAGE_COLUMNS, "contact_messages", filter.limit)
            .await?;
        Ok(rows
            .iter()
            .map(message_from_row)
            .collect::<Result<_, _>>()?)
    }

    async fn mark_contact_message(
        &self,
        id: &str,
        answered: bool,
        now: i64,
        audit: &AuditEntry,
    ) -> Result<Option<ContactMessage>, StoreError> {
        let (at, by) = if answered {
            (Some(now), Some(audit.actor.as_str()))
        } else {
            (None, None)
        };
        self.change_message(
            id,
            "answered_at = $2, answered_by = $3",
            (at, by),
            audit,
            |m| serde_json::json!({ "answered_at": m.answered_at }),
        )
        .await
    }

    async fn link_contact_message(
        &self,
        id: &str,
        order_id: Option<&str>,
        audit: &AuditEntry,
    ) -> Result<Option<ContactMessage>, StoreError> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool().begin().await?;
        let changed = sqlx::query("UPDATE contact_messages SET order_id = $2 WHERE id = $1")
            .bind(id)
            .bind(order_id)
            .execute(&mut *tx)
            .await?;
        if changed.rows_affected() == 0 {
            return Ok(None);
        }
        let message = message_in(&mut tx, id).await?;
        let entry = AuditEntry {
            subject_kind: "message".into(),
            subject_id: id.to_owned(),
            after: Some(serde_json::json!({ "order_id": message.order_id })),
            ..audit.clone()
        };
        insert_audit(&mut *tx, &entry).await?;
        tx.commit().await?;
        Ok(Some(message))
    }

    async fn orders_with_open_messages(
        &self,
        order_ids: &[String],
    ) -> Result<Vec<String>, StoreError> {
        if order_ids.is_empty() {
            return Ok(Vec::new());
        }
        let places = (1..=order_ids.len())
            .map(|n| format!("${n}"))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT DISTINCT order_id FROM contact_messages \
             WHERE answered_at IS NULL AND order_id IN ({places})"
        );
        let mut select = sqlx::query(&sql);
        for id in order_ids {
            select = select.bind(id);
        }
        let rows = select.fetch_all(self.pool()).await?;
        Ok(rows
            .iter()
            .map(|row| row.try_get("order_id"))
            .collect::<Result<_, _>>()?)
    }

    async fn audit_by_request(
        &self,
        actor: &str,
        key: &str,
    ) -> Result<Option<AuditRecord>, StoreError> {
        let sql =
            format!("SELECT {AUDIT_COLUMNS} FROM audit_log WHERE actor = $1 AND request_key = $2");
        let row = sqlx::query(&sql)
            .bind(actor)
            .bind(key)
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(audit_from_row).transpose()
    }
}

/// The message `id` as it is inside `tx`.
async fn message_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
) -> Result<ContactMessage, StoreError> {
    let row = sqlx::query(&format!(
        "SELECT {MESSAGE_COLUMNS} FROM contact_messages WHERE id = $1"
    ))
    .bind(id)
    .fetch_one(&mut **tx)
    .await?;
    Ok(message_from_row(&row)?)
}

impl SqlStore {
    /// Marks a message: `set` (with `$2`, `$3`) applied, and the audit entry with `view` of
    /// the message as it became, in one transaction.
    async fn change_message(
        &self,
        id: &str,
        set: &str,
        values: (Option<i64>, Option<&str>),
        audit: &AuditEntry,
        view: impl Fn(&ContactMessage) -> Value,
    ) -> Result<Option<ContactMessage>, StoreError> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool().begin().await?;
        let changed = sqlx::query(&format!("UPDATE contact_messages SET {set} WHERE id = $1"))
            .bind(id)
            .bind(values.0)
            .bind(values.1)
            .execute(&mut *tx)
            .await?;
        if changed.rows_affected() == 0 {
            return Ok(None);
        }
        let message = message_in(&mut tx, id).await?;
        let entry = AuditEntry {
            subject_kind: "message".into(),
            subject_id: id.to_owned(),
            after: Some(view(&message)),
            ..audit.clone()
        };
        insert_audit(&mut *tx, &entry).await?;
        tx.commit().await?;
        Ok(Some(message))
    }
}
