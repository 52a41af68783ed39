//! What the partner programme reads and writes: API keys, webhook deliveries, the affiliate
//! commission ledger and payout requests.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::admin::insert_audit;
use super::orders::{ORDER_COLUMNS, insert_delivery, orders_from_rows};
use super::sql::SqlStore;
use super::{AuditEntry, OrderRecord, StoreError};

/// An API key as stored. Its secret is derived, never stored (see `services::partners::keys`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKeyRecord {
    pub id: String,
    pub user_id: String,
    pub name: String,
    pub permission: String,
    pub salt: String,
    pub webhook_url: Option<String>,
    pub request_count: i64,
    pub last_used_at: Option<i64>,
    pub created_at: i64,
    pub revoked_at: Option<i64>,
}

/// One notification to a key's webhook and how its delivery went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookDelivery {
    pub id: String,
    pub api_key_id: String,
    pub order_id: String,
    pub order_status: String,
    pub body: String,
    pub created_at: i64,
    pub give_up_at: i64,
    pub attempts: i64,
    /// `None` once delivered or given up.
    pub next_attempt_at: Option<i64>,
    pub delivered_at: Option<i64>,
    pub last_status_code: Option<i64>,
    pub last_error: Option<String>,
}

/// The outcome of one delivery attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryAttempt {
    pub next_attempt_at: Option<i64>,
    pub delivered_at: Option<i64>,
    pub status_code: Option<i64>,
    pub error: Option<String>,
}

/// A partner's commission on one attributed order. Amounts are decimal strings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commission {
    pub order_id: String,
    pub partner_user_id: String,
    pub state: String,
    pub volume_usd: String,
    pub amount_usd: String,
    pub amount_btc: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payout {
    pub id: String,
    pub user_id: String,
    pub amount_usd: String,
    pub currency: String,
    pub address: String,
    pub tag: Option<String>,
    pub status: String,
    pub txid: Option<String>,
    pub created_at: i64,
    pub processed_at: Option<i64>,
}

#[async_trait]
pub trait PartnerStore: Send + Sync {
    async fn insert_api_key(&self, key: &ApiKeyRecord) -> Result<(), StoreError>;
    async fn find_api_key(&self, id: &str) -> Result<Option<ApiKeyRecord>, StoreError>;
    /// A user's keys, newest first, revoked ones included.
    async fn api_keys_of(&self, user_id: &str) -> Result<Vec<ApiKeyRecord>, StoreError>;
    /// Revokes a key of `user_id`; `false` when there is no such active key.
    async fn revoke_api_key(&self, user_id: &str, id: &str, now: i64) -> Result<bool, StoreError>;
    /// Sets (or clears) the webhook of an active key of `user_id`; `false` when there is none.
    async fn set_webhook_url(
        &self,
        user_id: &str,
        id: &str,
        url: Option<&str>,
    ) -> Result<bool, StoreError>;
    /// Counts one successful request made with the key.
    async fn record_api_key_use(&self, id: &str, now: i64) -> Result<(), StoreError>;

    async fn insert_webhook_delivery(&self, delivery: &WebhookDelivery) -> Result<(), StoreError>;
    /// Leases deliveries due by `now` so that replicas never send the same one at once.
    async fn lease_due_webhooks(
        &self,
        now: i64,
        owner: &str,
        lease_seconds: i64,
        limit: i64,
    ) -> Result<Vec<WebhookDelivery>, StoreError>;
    async fn record_webhook_attempt(
        &self,
        id: &str,
        attempt: &DeliveryAttempt,
    ) -> Result<(), StoreError>;
    /// The latest deliveries of a key, newest first.
    async fn webhook_deliveries_of(
        &self,
        api_key_id: &str,
        limit: i64,
    ) -> Result<Vec<WebhookDelivery>, StoreError>;

    async fn commissions_of(&self, partner_user_id: &str) -> Result<Vec<Commission>, StoreError>;
    /// Orders attributed to a partner, newest first.
    async fn attributed_orders(
        &self,
        partner_user_id: &str,
        limit: i64,
    ) -> Result<Vec<OrderRecord>, StoreError>;
    /// Users who signed up with this referral code.
    async fn count_referred_users(&self, referral_code: &str) -> Result<i64, StoreError>;
    /// `(UTC day number, clicks)` of a code since `since_day`.
    async fn referral_clicks_by_day(
        &self,
        referral_code: &str,
        since_day: i64,
    ) -> Result<Vec<(i64, i64)>, StoreError>;

    /// `StoreError::Conflict` while the user has another request open.
    async fn insert_payout(&self, payout: &Payout) -> Result<(), StoreError>;
    async fn payouts_of(&self, user_id: &str) -> Result<Vec<Payout>, StoreError>;
    /// Payouts in `status` (or all), oldest first (the operator's queue).
    async fn payouts(&self, status: Option<&str>, limit: i64) -> Result<Vec<Payout>, StoreError>;
    /// Closes an open request as `paid` or `rejected`; `false` when it is not open.
    /// Closes an open payout request with the audit entry of who did (its `before` and
    /// `after` filled in here, in the same transaction); the entry's id, `None` when there is
    /// no open request with this id.
    async fn close_payout(
        &self,
        id: &str,
        status: &str,
        txid: Option<&str>,
        now: i64,
        audit: &AuditEntry,
    ) -> Result<Option<i64>, StoreError>;

    /// Sets where an order's status mails go; `false` for an unknown order.
    async fn set_order_email(&self, order_id: &str, email: &str) -> Result<bool, StoreError>;
}

pub(super) const KEY_COLUMNS: &str = "id, user_id, name, permission, salt, webhook_url, request_count, \
    last_used_at, created_at, revoked_at";

const DELIVERY_COLUMNS: &str = "id, api_key_id, order_id, order_status, body, created_at, \
    give_up_at, attempts, next_attempt_at, delivered_at, last_status_code, last_error";

const COMMISSION_COLUMNS: &str = "order_id, partner_user_id, state, volume_usd, amount_usd, \
    amount_btc, created_at, updated_at";

const PAYOUT_COLUMNS: &str =
    "id, user_id, amount_usd, currency, address, tag, status, txid, created_at, processed_at";

pub(super) fn key_from_row(row: &AnyRow) -> Result<ApiKeyRecord, sqlx::Error> {
    Ok(ApiKeyRecord {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        name: row.try_get("name")?,
        permission: row.try_get("permission")?,
        salt: row.try_get("salt")?,
        webhook_url: row.try_get("webhook_url")?,
        request_count: row.try_get("request_count")?,
        last_used_at: row.try_get("last_used_at")?,
        created_at: row.try_get("created_at")?,
        revoked_at: row.try_get("revoked_at")?,
    })
}

fn delivery_from_row(row: &AnyRow) -> Result<WebhookDelivery, sqlx::Error> {
    Ok(WebhookDelivery {
        id: row.try_get("id")?,
        api_key_id: row.try_get("api_key_id")?,
        order_id: row.try_get("order_id")?,
        order_status: row.try_get("order_status")?,
        body: row.try_get("body")?,
        created_at: row.try_get("created_at")?,
        give_up_at: row.try_get("give_up_at")?,
        attempts: row.try_get("attempts")?,
        next_attempt_at: row.try_get("next_attempt_at")?,
        delivered_at: row.try_get("delivered_at")?,
        last_status_code: row.try_get("last_status_code")?,
        last_error: row.try_get("last_error")?,
    })
}

fn commission_from_row(row: &AnyRow) -> Result<Commission, sqlx::Error> {
    Ok(Commission {
        order_id: row.try_get("order_id")?,
        partner_user_id: row.try_get("partner_user_id")?,
        state: row.try_get("state")?,
        volume_usd: row.try_get("volume_usd")?,
        amount_usd: row.try_get("amount_usd")?,
        amount_btc: row.try_get("amount_btc")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
    })
}

fn payout_from_row(row: &AnyRow) -> Result<Payout, sqlx::Error> {
    Ok(Payout {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        amount_usd: row.try_get("amount_usd")?,
        currency: row.try_get("currency")?,
        address: row.try_get("address")?,
        tag: row.try_get("tag")?,
        status: row.try_get("status")?,
        txid: row.try_get("txid")?,
        created_at: row.try_get("created_at")?,
        processed_at: row.try_get("processed_at")?,
    })
}

fn all<T>(
    rows: &[AnyRow],
    map: fn(&AnyRow) -> Result<T, sqlx::Error>,
) -> Result<Vec<T>, StoreError> {
    rows.iter()
        .map(|r| map(r).map_err(StoreError::from))
        .collect()
}

#[async_trait]
impl PartnerStore for SqlStore {
    async fn insert_api_key(&self, k: &ApiKeyRecord) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO api_keys ({KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
        ))
        .bind(&k.id)
        .bind(&k.user_id)
        .bind(&k.name)
        .bind(&k.permission)
        .bind(&k.salt)
        .bind(&k.webhook_url)
        .bind(k.request_count)
        .bind(k.last_used_at)
        .bind(k.created_at)
        .bind(k.revoked_at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn find_api_key(&self, id: &str) -> Result<Option<ApiKeyRecord>, StoreError> {
        let row = sqlx::query(&format!("SELECT {KEY_COLUMNS} FROM api_keys WHERE id = $1"))
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(key_from_row).transpose()?)
    }

    async fn api_keys_of(&self, user_id: &str) -> Result<Vec<ApiKeyRecord>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {KEY_COLUMNS} FROM api_keys WHERE user_id = $1 ORDER BY created_at DESC, id"
        ))
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        all(&rows, key_from_row)
    }

    async fn revoke_api_key(&self, user_id: &str, id: &str, now: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE api_keys SET revoked_at = $1 \
             WHERE id = $2 AND user_id = $3 AND revoked_at IS NULL",
        )
        .bind(now)
        .bind(id)
        .bind(user_id)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn set_webhook_url(
        &self,
        user_id: &str,
        id: &str,
        url: Option<&str>,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE api_keys SET webhook_url = $1 \
             WHERE id = $2 AND user_id = $3 AND revoked_at IS NULL",
        )
        .bind(url)
        .bind(id)
        .bind(user_id)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn record_api_key_use(&self, id: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE api_keys SET request_count = request_count + 1, last_used_at = $1 \
             WHERE id = $2",
        )
        .bind(now)
        .bind(id)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn insert_webhook_delivery(&self, d: &WebhookDelivery) -> Result<(), StoreError> {
        insert_delivery(self.pool(), d).await?;
        Ok(())
    }

    async fn lease_due_webhooks(
        &self,
        now: i64,
        owner: &str,
        lease_seconds: i64,
        limit: i64,
    ) -> Result<Vec<WebhookDelivery>, StoreError> {
        let rows = sqlx::query(&format!(
            "UPDATE webhook_deliveries SET lease_owner = $1, lease_until = $2 \
             WHERE id IN (SELECT id FROM webhook_deliveries WHERE next_attempt_at <= $3 \
                 AND (lease_until IS NULL OR lease_until < $3) \
                 ORDER BY next_attempt_at LIMIT $4) \
             AND (lease_until IS NULL OR lease_until < $3) \
             RETURNING {DELIVERY_COLUMNS}"
        ))
        .bind(owner)
        .bind(now + lease_seconds)
        .bind(now)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        all(&rows, delivery_from_row)
    }

    async fn record_webhook_attempt(
        &self,
        id: &str,
        attempt: &DeliveryAttempt,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = $1, \
             delivered_at = $2, last_status_code = $3, last_error = $4, lease_owner = NULL, \
             lease_until = NULL WHERE id = $5",
        )
        .bind(attempt.next_attempt_at)
        .bind(attempt.delivered_at)
        .bind(attempt.status_code)
        .bind(&attempt.error)
        .bind(id)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn webhook_deliveries_of(
        &self,
        api_key_id: &str,
        limit: i64,
    ) -> Result<Vec<WebhookDelivery>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries WHERE api_key_id = $1 \
             ORDER BY created_at DESC, id LIMIT $2"
        ))
        .bind(api_key_id)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        all(&rows, delivery_from_row)
    }

    async fn commissions_of(&self, partner_user_id: &str) -> Result<Vec<Commission>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COMMISSION_COLUMNS} FROM affiliate_commissions WHERE partner_user_id = $1 \
             ORDER BY created_at DESC, order_id"
        ))
        .bind(partner_user_id)
        .fetch_all(self.pool())
        .await?;
        all(&rows, commission_from_row)
    }

    async fn attributed_orders(
        &self,
        partner_user_id: &str,
        limit: i64,
    ) -> Result<Vec<OrderRecord>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE affiliate_user_id = $1 \
             ORDER BY created_at DESC, id LIMIT $2"
        ))
        .bind(partner_user_id)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        orders_from_rows(&rows)
    }

    async fn count_referred_users(&self, referral_code: &str) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM users WHERE referred_by = $1")
            .bind(referral_code)
            .fetch_one(self.pool())
            .await?;
        Ok(row.try_get("n")?)
    }

    async fn referral_clicks_by_day(
        &self,
        referral_code: &str,
        since_day: i64,
    ) -> Result<Vec<(i64, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT day, COUNT(*) AS n FROM referral_clicks \
             WHERE referral_code = $1 AND day >= $2 GROUP BY day ORDER BY day",
        )
        .bind(referral_code)
        .bind(since_day)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("day")?, r.try_get("n")?)))
            .collect()
    }

    async fn insert_payout(&self, p: &Payout) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO affiliate_payouts ({PAYOUT_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
        ))
        .bind(&p.id)
        .bind(&p.user_id)
        .bind(&p.amount_usd)
        .bind(&p.currency)
        .bind(&p.address)
        .bind(&p.tag)
        .bind(&p.status)
        .bind(&p.txid)
        .bind(p.created_at)
        .bind(p.processed_at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn payouts_of(&self, user_id: &str) -> Result<Vec<Payout>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {PAYOUT_COLUMNS} FROM affiliate_payouts WHERE user_id = $1 \
             ORDER BY created_at DESC, id"
        ))
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        all(&rows, payout_from_row)
    }

    async fn payouts(&self, status: Option<&str>, limit: i64) -> Result<Vec<Payout>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {PAYOUT_COLUMNS} FROM affiliate_payouts \
             WHERE (CAST($1 AS TEXT) IS NULL OR status = $1) ORDER BY created_at, id LIMIT $2"
        ))
        .bind(status)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        all(&rows, payout_from_row)
    }

    async fn close_payout(
        &self,
        id: &str,
        status: &str,
        txid: Option<&str>,
        now: i64,
        audit: &AuditEntry,
    ) -> Result<Option<i64>, StoreError> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool().begin().await?;
        // A locked account's request is held: it may be rejected, not paid.
        let done = sqlx::query(
            "UPDATE affiliate_payouts SET status = $1, txid = $2, processed_at = $3 \
             WHERE id = $4 AND status = 'requested' AND ($1 <> 'paid' OR NOT EXISTS \
                 (SELECT 1 FROM users u WHERE u.id = affiliate_payouts.user_id \
                  AND u.locked_at IS NOT NULL))",
        )
        .bind(status)
        .bind(txid)
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(None);
        }
        let entry = AuditEntry {
            before: Some(serde_json::json!({ "status": "requested" })),
            after: Some(serde_json::json!({ "status": status, "txid": txid })),
            ..audit.clone()
        };
        let audit_id = insert_audit(&mut *tx, &entry).await?;
        tx.commit().await?;
        Ok(Some(audit_id))
    }

    async fn set_order_email(&self, order_id: &str, email: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE orders SET notify_email = $1 WHERE id = $2")
            .bind(email)
            .bind(order_id)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() == 1)
    }
}
