//! The partner programme (issue #7): API keys and the signature of the partner API, the
//! affiliate ledger and payouts, webhooks, and the partner API's wire format.

pub mod keys;
pub mod ledger;
pub mod qr;
pub mod webhooks;
pub mod wire;

use std::sync::Arc;

use crate::domain::order::OrderStatus;
use crate::store::OrderRecord;

/// What the order service tells the partner programme about.
pub struct Partners {
    pub keys: Arc<keys::ApiKeys>,
    pub ledger: Arc<ledger::Ledger>,
    pub webhooks: Arc<webhooks::Webhooks>,
}

impl Partners {
    /// A new order: open its commission and tell the partner's webhook.
    pub async fn order_created(&self, order: &OrderRecord, token: &str, now: i64) {
        if let Err(error) = self.ledger.order_created(order, now).await {
            tracing::error!(order.id = %order.id, error = %error, "commission not recorded");
        }
        self.notify(order, token, now).await;
    }

    /// A status change: settle the commission when the order ends, and tell the webhook.
    pub async fn order_changed(
        &self,
        order: &OrderRecord,
        status: OrderStatus,
        token: &str,
        now: i64,
    ) {
        if let Err(error) = self.ledger.order_changed(order, status, now).await {
            tracing::error!(order.id = %order.id, error = %error, "commission not settled");
        }
        self.notify(order, token, now).await;
    }

    async fn notify(&self, order: &OrderRecord, token: &str, now: i64) {
        if let Err(error) = self.webhooks.order_changed(order, token, now).await {
            tracing::error!(order.id = %order.id, error = %error, "webhook not queued");
        }
    }
}
