//! Orders in SQL: typed rows, one transaction per change (the change, its event and its
//! consequences), optimistic concurrency on `version`, leases on the database's clock, and
//! idempotency keys scoped to their caller.

use std::str::FromStr;

use rust_decimal::Decimal;
use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};

use super::admin::insert_audit;
use super::sql::SqlStore;
use super::{
    Backend, Commission, IdempotencyClaim, IdempotencyKey, MailRecord, NewOrderRecord, OrderChange,
    OrderEffects, OrderEventRecord, OrderRecord, StoreError, WebhookDelivery,
};
use crate::domain::fees::{Direction, RateType};
use crate::domain::money::to_wire;
use crate::domain::order::{EmergencyChoice, EmergencyReason, OrderStatus};
use crate::domain::transaction::OrderTransactions;

pub(super) const ORDER_COLUMNS: &str = "id, version, status, rate_type, direction, provider, \
    from_code, to_code, from_amount, to_amount, rate, from_usd, to_usd, fee_percent, \
    deposit_address, deposit_tag, to_address, to_tag, refund_address, refund_tag, metadata, \
    owner_user_id, received_amount, payout_amount, emergency_reason, emergency_choice, \
    created_at, expires_at, rate_expires_at, updated_at, finished_at, next_step_at, api_key_id, \
    affiliate_user_id, partner_fee_percent, notify_email, provider_order_id, provider_order_token, \
    transactions, payment_hash";

/// How many columns `ORDER_COLUMNS` names.
const ORDER_COLUMN_COUNT: usize = 40;

/// Reads a stored value through `parse`; one that does not parse is corrupt, never a default.
fn parsed<T>(
    row: &AnyRow,
    column: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<T, StoreError> {
    let raw: String = row.try_get(column)?;
    parse(&raw).ok_or_else(|| corrupt(row, column, &raw))
}

fn parsed_opt<T>(
    row: &AnyRow,
    column: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, StoreError> {
    let raw: Option<String> = row.try_get(column)?;
    raw.map(|raw| parse(&raw).ok_or_else(|| corrupt(row, column, &raw)))
        .transpose()
}

fn corrupt(row: &AnyRow, column: &str, raw: &str) -> StoreError {
    let id: String = row.try_get("id").unwrap_or_default();
    StoreError::Corrupt(format!("orders.{column} = {raw:?} (order {id})"))
}

fn decimal(raw: &str) -> Option<Decimal> {
    Decimal::from_str(raw).ok()
}

pub(super) fn order_from_row(row: &AnyRow) -> Result<OrderRecord, StoreError> {
    Ok(OrderRecord {
        id: row.try_get("id")?,
        version: row.try_get("version")?,
        status: parsed(row, "status", OrderStatus::parse)?,
        rate_type: parsed(row, "rate_type", RateType::parse)?,
        direction: parsed(row, "direction", Direction::parse)?,
        provider: row.try_get("provider")?,
        from_code: row.try_get("from_code")?,
        to_code: row.try_get("to_code")?,
        from_amount: parsed(row, "from_amount", decimal)?,
        to_amount: parsed(row, "to_amount", decimal)?,
        rate: parsed(row, "rate", decimal)?,
        from_usd: parsed(row, "from_usd", decimal)?,
        to_usd: parsed(row, "to_usd", decimal)?,
        fee_percent: parsed(row, "fee_percent", decimal)?,
        deposit_address: row.try_get("deposit_address")?,
        deposit_tag: row.try_get("deposit_tag")?,
        to_address: row.try_get("to_address")?,
        to_tag: row.try_get("to_tag")?,
        refund_address: row.try_get("refund_address")?,
        refund_tag: row.try_get("refund_tag")?,
        metadata: row.try_get("metadata")?,
        owner_user_id: row.try_get("owner_user_id")?,
        received_amount: parsed_opt(row, "received_amount", decimal)?,
        payout_amount: parsed_opt(row, "payout_amount", decimal)?,
        emergency_reason: parsed_opt(row, "emergency_reason", EmergencyReason::parse)?,
        emergency_choice: parsed_opt(row, "emergency_choice", EmergencyChoice::parse)?,
        created_at: row.try_get("created_at")?,
        expires_at: row.try_get("expires_at")?,
        rate_expires_at: row.try_get("rate_expires_at")?,
        updated_at: row.try_get("updated_at")?,
        finished_at: row.try_get("finished_at")?,
        next_step_at: row.try_get("next_step_at")?,
        api_key_id: row.try_get("api_key_id")?,
        affiliate_user_id: row.try_get("affiliate_user_id")?,
        partner_fee_percent: parsed_opt(row, "partner_fee_percent", decimal)?,
        notify_email: row.try_get("notify_email")?,
        provider_order_id: row.try_get("provider_order_id")?,
        provider_order_token: row.try_get("provider_order_token")?,
        transactions: parsed_opt(row, "transactions", |raw| serde_json::from_str(raw).ok())?
            .unwrap_or_default(),
        payment_hash: row.try_get("payment_hash")?,
    })
}

/// The transactions as stored: NULL while there are none.
fn stored_transactions(transactions: &OrderTransactions) -> Option<String> {
    (!transactions.is_empty())
        .then(|| serde_json::to_string(transactions).expect("transactions serialise"))
}

pub(super) fn orders_from_rows(rows: &[AnyRow]) -> Result<Vec<OrderRecord>, StoreError> {
    rows.iter().map(order_from_row).collect()
}

fn wire(value: Option<Decimal>) -> Option<String> {
    value.map(to_wire)
}

/// The database's clock in Unix seconds: leases compare against it, so replicas whose clocks
/// differ still agree on when a lease ends.
pub(super) fn database_now(backend: Backend) -> &'static str {
    match backend {
        Backend::Sqlite => "CAST(strftime('%s', 'now') AS BIGINT)",
        Backend::Postgres => "CAST(EXTRACT(EPOCH FROM now()) AS BIGINT)",
    }
}

type Tx<'c> = sqlx::Transaction<'c, sqlx::Any>;

async fn append_event(
    tx: &mut Tx<'_>,
    order: &OrderRecord,
    detail: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO order_events (order_id, status, detail, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(&order.id)
    .bind(order.status.as_str())
    .bind(detail)
    .bind(order.updated_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Writes the consequences of an order's change inside its transaction, and the audit entry of
/// the operator's act that made it (a replayed act rolls the change back).
async fn write_effects(tx: &mut Tx<'_>, effects: &OrderEffects) -> Result<(), StoreError> {
    if let Some(audit) = &effects.audit {
        insert_audit(&mut **tx, audit).await?;
    }
    if let Some(c) = &effects.commission {
        upsert_commission(tx, c).await?;
    }
    for delivery in &effects.webhooks {
        insert_delivery(&mut **tx, delivery).await?;
    }
    for mail in &effects.mails {
        insert_mail(&mut **tx, mail).await?;
    }
    Ok(())
}

/// The commission as it now stands: inserted with the order, replaced as the order goes on.
async fn upsert_commission(tx: &mut Tx<'_>, c: &Commission) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO affiliate_commissions (order_id, partner_user_id, state, volume_usd, \
             amount_usd, amount_btc, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (order_id) DO UPDATE SET state = excluded.state, \
             volume_usd = excluded.volume_usd, amount_usd = excluded.amount_usd, \
             amount_btc = excluded.amount_btc, updated_at = excluded.updated_at",
    )
    .bind(&c.order_id)
    .bind(&c.partner_user_id)
    .bind(&c.state)
    .bind(&c.volume_usd)
    .bind(&c.amount_usd)
    .bind(&c.amount_btc)
    .bind(c.created_at)
    .bind(c.updated_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub(super) async fn insert_delivery<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    d: &WebhookDelivery,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO webhook_deliveries (id, api_key_id, order_id, order_status, body, \
             created_at, give_up_at, attempts, next_attempt_at, delivered_at, last_status_code, \
             last_error) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(&d.id)
    .bind(&d.api_key_id)
    .bind(&d.order_id)
    .bind(&d.order_status)
    .bind(&d.body)
    .bind(d.created_at)
    .bind(d.give_up_at)
    .bind(d.attempts)
    .bind(d.next_attempt_at)
    .bind(d.delivered_at)
    .bind(d.last_status_code)
    .bind(&d.last_error)
    .execute(executor)
    .await?;
    Ok(())
}

pub(super) async fn insert_mail<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    m: &MailRecord,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO mail_outbox (id, recipient, subject, body, created_at, attempts, \
             next_attempt_at, sent_at, last_error, failed_at, reply_to_name, reply_to_email) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(&m.id)
    .bind(&m.recipient)
    .bind(&m.subject)
    .bind(&m.body)
    .bind(m.created_at)
    .bind(m.attempts)
    .bind(m.next_attempt_at)
    .bind(m.sent_at)
    .bind(&m.last_error)
    .bind(m.failed_at)
    .bind(&m.reply_to_name)
    .bind(&m.reply_to_email)
    .execute(executor)
    .await?;
    Ok(())
}

/// Stores `orders`, the first event of each and what commits with each (its idempotency key's
/// answer, its commission, its notifications) in one transaction, with one statement for the
/// orders and one for the events however many there are. A unique violation (a deposit that
/// is taken) is `StoreError::Conflict`, and nothing is stored.
pub(super) async fn insert_orders(
    pool: &AnyPool,
    orders: &[&NewOrderRecord],
) -> Result<(), StoreError> {
    let order_sql = format!(
        "INSERT INTO orders ({ORDER_COLUMNS}) VALUES {}",
        value_rows(orders.len(), ORDER_COLUMN_COUNT)
    );
    let mut insert = sqlx::query(&order_sql);
    for new in orders {
        let o = &new.order;
        insert = insert
            .bind(&o.id)
            .bind(o.version)
            .bind(o.status.as_str())
            .bind(o.rate_type.as_str())
            .bind(o.direction.as_str())
            .bind(&o.provider)
            .bind(&o.from_code)
            .bind(&o.to_code)
            .bind(to_wire(o.from_amount))
            .bind(to_wire(o.to_amount))
            .bind(to_wire(o.rate))
            .bind(to_wire(o.from_usd))
            .bind(to_wire(o.to_usd))
            .bind(to_wire(o.fee_percent))
            .bind(&o.deposit_address)
            .bind(&o.deposit_tag)
            .bind(&o.to_address)
            .bind(&o.to_tag)
            .bind(&o.refund_address)
            .bind(&o.refund_tag)
            .bind(&o.metadata)
            .bind(&o.owner_user_id)
            .bind(wire(o.received_amount))
            .bind(wire(o.payout_amount))
            .bind(o.emergency_reason.map(EmergencyReason::as_str))
            .bind(o.emergency_choice.map(EmergencyChoice::as_str))
            .bind(o.created_at)
            .bind(o.expires_at)
            .bind(o.rate_expires_at)
            .bind(o.updated_at)
            .bind(o.finished_at)
            .bind(o.next_step_at)
            .bind(&o.api_key_id)
            .bind(&o.affiliate_user_id)
            .bind(wire(o.partner_fee_percent))
            .bind(&o.notify_email)
            .bind(&o.provider_order_id)
            .bind(&o.provider_order_token)
            .bind(stored_transactions(&o.transactions))
            .bind(&o.payment_hash);
    }
    let event_sql = format!(
        "INSERT INTO order_events (order_id, status, detail, created_at) VALUES {}",
        value_rows(orders.len(), 4)
    );
    let mut events = sqlx::query(&event_sql);
    for new in orders {
        events = events
            .bind(&new.order.id)
            .bind(new.order.status.as_str())
            .bind("created")
            .bind(new.order.updated_at);
    }
    let mut tx = pool.begin().await?;
    insert.execute(&mut *tx).await?;
    events.execute(&mut *tx).await?;
    for new in orders {
        if let Some(key) = &new.idempotency {
            // The claim must still be this request's: if it was taken over meanwhile (after a
            // long pause), the order is not made twice.
            let answered = sqlx::query(
                "UPDATE idempotency_keys SET order_id = $1 WHERE scope = $2 AND key = $3 \
                 AND order_id IS NULL",
            )
            .bind(&new.order.id)
            .bind(&key.scope)
            .bind(&key.key)
            .execute(&mut *tx)
            .await?;
            if answered.rows_affected() != 1 {
                tx.rollback().await?;
                return Err(StoreError::Conflict);
            }
        }
        write_effects(&mut tx, &new.effects).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Makes the order findable by its transaction ids (the back office's search), in one
/// statement; known ones are skipped.
async fn write_txids(tx: &mut Tx<'_>, order: &OrderRecord) -> Result<(), StoreError> {
    let t = &order.transactions;
    let sides = [
        ("deposit", &t.deposit),
        ("payout", &t.payout),
        ("refund", &t.refund),
    ];
    let known: Vec<(&str, &str)> = sides
        .iter()
        .filter_map(|(side, tx)| tx.as_ref().map(|tx| (*side, tx.id.as_str())))
        .collect();
    if known.is_empty() {
        return Ok(());
    }
    let sql = format!(
        "INSERT INTO order_txids (txid, order_id, side) VALUES {} ON CONFLICT DO NOTHING",
        value_rows(known.len(), 3)
    );
    let mut insert = sqlx::query(&sql);
    for (side, txid) in known {
        insert = insert.bind(txid).bind(&order.id).bind(side);
    }
    insert.execute(&mut **tx).await?;
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
    pub(super) async fn update_order_impl(
        &self,
        change: &OrderChange<'_>,
    ) -> Result<bool, StoreError> {
        let o = change.order;
        let _turn = self.write_turn().await;
        let mut tx = self.pool().begin().await?;
        let result = sqlx::query(
            "UPDATE orders SET version = version + 1, status = $1, to_amount = $2, \
             received_amount = $3, payout_amount = $4, refund_address = $5, refund_tag = $6, \
             emergency_reason = $7, emergency_choice = $8, updated_at = $9, finished_at = $10, \
             next_step_at = $11, transactions = $12, lease_owner = NULL, lease_until = NULL \
             WHERE id = $13 AND version = $14",
        )
        .bind(o.status.as_str())
        .bind(to_wire(o.to_amount))
        .bind(wire(o.received_amount))
        .bind(wire(o.payout_amount))
        .bind(&o.refund_address)
        .bind(&o.refund_tag)
        .bind(o.emergency_reason.map(EmergencyReason::as_str))
        .bind(o.emergency_choice.map(EmergencyChoice::as_str))
        .bind(o.updated_at)
        .bind(o.finished_at)
        .bind(o.next_step_at)
        .bind(stored_transactions(&o.transactions))
        .bind(&o.id)
        .bind(o.version)
        .execute(&mut *tx)
        .await?;
        if result.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        if let Some(detail) = change.event {
            append_event(&mut tx, o, Some(detail)).await?;
        }
        write_txids(&mut tx, o).await?;
        write_effects(&mut tx, change.effects).await?;
        tx.commit().await?;
        Ok(true)
    }

    pub(super) async fn find_order_impl(
        &self,
        id: &str,
    ) -> Result<Option<OrderRecord>, StoreError> {
        let row = sqlx::query(&format!("SELECT {ORDER_COLUMNS} FROM orders WHERE id = $1"))
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(order_from_row).transpose()
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
        .fetch_all(self.pool())
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
        let db_now = database_now(super::Store::backend(self));
        // The lease condition is repeated outside the subquery so that PostgreSQL re-checks it
        // after waiting for a row another replica is leasing at the same moment.
        let rows = sqlx::query(&format!(
            "UPDATE orders SET lease_owner = $1, lease_until = {db_now} + $2 \
             WHERE id IN (SELECT id FROM orders WHERE next_step_at IS NOT NULL \
                 AND next_step_at <= $3 AND (lease_until IS NULL OR lease_until < {db_now}) \
                 ORDER BY next_step_at LIMIT $4) \
             AND (lease_until IS NULL OR lease_until < {db_now}) \
             RETURNING {ORDER_COLUMNS}"
        ))
        .bind(owner)
        .bind(lease_seconds)
        .bind(now)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        // One corrupt row must not hold up the others leased with it: it is set aside (no
        // next step) for an operator, loudly, and the rest go on.
        let mut orders = Vec::with_capacity(rows.len());
        for row in &rows {
            match order_from_row(row) {
                Ok(order) => orders.push(order),
                Err(error) => {
                    let id: String = row.try_get("id")?;
                    tracing::error!(order.id = %id, error = %error, "a stored order does not parse: set aside until an operator repairs it");
                    sqlx::query(
                        "UPDATE orders SET next_step_at = NULL, lease_owner = NULL, \
                         lease_until = NULL WHERE id = $1",
                    )
                    .bind(&id)
                    .execute(self.pool())
                    .await?;
                }
            }
        }
        Ok(orders)
    }

    pub(super) async fn retry_later_impl(
        &self,
        id: &str,
        owner: &str,
        at: i64,
    ) -> Result<(), StoreError> {
        let _turn = self.write_turn().await;
        sqlx::query(
            "UPDATE orders SET next_step_at = $1, lease_owner = NULL, lease_until = NULL \
             WHERE id = $2 AND lease_owner = $3",
        )
        .bind(at)
        .bind(id)
        .bind(owner)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    pub(super) async fn payment_hash_used_impl(
        &self,
        payment_hash: &str,
    ) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT 1 AS used FROM orders WHERE payment_hash = $1 LIMIT 1")
            .bind(payment_hash)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.is_some())
    }

    pub(super) async fn completed_totals_impl(&self) -> Result<(i64, Decimal), StoreError> {
        // Amounts are stored as decimal text: PostgreSQL sums them exactly; SQLite has no
        // decimal type, and its float sum is close enough for a figure shown to the dollar.
        let number = match super::Store::backend(self) {
            Backend::Postgres => "NUMERIC",
            Backend::Sqlite => "REAL",
        };
        let row = sqlx::query(&format!(
            "SELECT COUNT(*) AS n, \
             CAST(COALESCE(SUM(CAST(from_usd AS {number})), 0) AS TEXT) AS volume \
             FROM orders WHERE status = 'COMPLETED'"
        ))
        .fetch_one(self.pool())
        .await?;
        let volume: String = row.try_get("volume")?;
        let volume = Decimal::from_str(&volume)
            .or_else(|_| Decimal::from_scientific(&volume))
            .map_err(|_| StoreError::Corrupt(format!("completed volume {volume:?}")))?;
        Ok((row.try_get("n")?, volume))
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
        let rows = query.fetch_all(self.pool()).await?;
        orders_from_rows(&rows)
    }

    pub(super) async fn claim_idempotency_key_impl(
        &self,
        key: &IdempotencyKey,
        request_hash: &str,
        now: i64,
        ttl_seconds: i64,
    ) -> Result<IdempotencyClaim, StoreError> {
        let _turn = self.write_turn().await;
        // A key past its time is free again.
        sqlx::query(
            "DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND expires_at <= $3",
        )
        .bind(&key.scope)
        .bind(&key.key)
        .bind(now)
        .execute(self.pool())
        .await?;
        let claimed = sqlx::query(
            "INSERT INTO idempotency_keys (scope, key, request_hash, order_id, created_at, \
                 expires_at) VALUES ($1, $2, $3, NULL, $4, $5) \
             ON CONFLICT (scope, key) DO NOTHING",
        )
        .bind(&key.scope)
        .bind(&key.key)
        .bind(request_hash)
        .bind(now)
        .bind(now + ttl_seconds)
        .execute(self.pool())
        .await?;
        if claimed.rows_affected() == 1 {
            return Ok(IdempotencyClaim::Claimed);
        }
        let row = sqlx::query(
            "SELECT request_hash, order_id, created_at FROM idempotency_keys \
             WHERE scope = $1 AND key = $2",
        )
        .bind(&key.scope)
        .bind(&key.key)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else {
            // Released between the two statements: the caller may try again.
            return Ok(IdempotencyClaim::InFlight { since: now });
        };
        let stored_hash: String = row.try_get("request_hash")?;
        if stored_hash != request_hash {
            return Ok(IdempotencyClaim::Mismatch);
        }
        Ok(match row.try_get::<Option<String>, _>("order_id")? {
            Some(order_id) => IdempotencyClaim::Answered(order_id),
            None => IdempotencyClaim::InFlight {
                since: row.try_get("created_at")?,
            },
        })
    }

    /// Frees a key whose first request ended without an order, or takes over one whose first
    /// request was abandoned (`since` is the claim being taken over).
    pub(super) async fn reclaim_idempotency_key_impl(
        &self,
        key: &IdempotencyKey,
        since: Option<i64>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let _turn = self.write_turn().await;
        let result = match since {
            None => {
                sqlx::query(
                    "DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 \
                     AND order_id IS NULL",
                )
                .bind(&key.scope)
                .bind(&key.key)
                .execute(self.pool())
                .await?
            }
            Some(since) => {
                sqlx::query(
                    "UPDATE idempotency_keys SET created_at = $1 WHERE scope = $2 AND key = $3 \
                     AND order_id IS NULL AND created_at = $4",
                )
                .bind(now)
                .bind(&key.scope)
                .bind(&key.key)
                .bind(since)
                .execute(self.pool())
                .await?
            }
        };
        Ok(result.rows_affected() == 1)
    }

    pub(super) async fn idempotency_answer_impl(
        &self,
        key: &IdempotencyKey,
    ) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(
            "SELECT order_id FROM idempotency_keys WHERE scope = $1 AND key = $2 \
             AND order_id IS NOT NULL",
        )
        .bind(&key.scope)
        .bind(&key.key)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|r| r.try_get("order_id")).transpose()?)
    }

    pub(super) async fn prune_idempotency_keys_impl(&self, now: i64) -> Result<u64, StoreError> {
        let _turn = self.write_turn().await;
        let result = sqlx::query("DELETE FROM idempotency_keys WHERE expires_at <= $1")
            .bind(now)
            .execute(self.pool())
            .await?;
        Ok(result.rows_affected())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
