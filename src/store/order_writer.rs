//! New orders on SQLite are written in groups (group commit).
//!
//! SQLite takes one writer at a time, and each statement is a round trip to the connection's
//! worker thread, so one order per transaction (BEGIN, two INSERTs, COMMIT) holds the single
//! write lock for four round trips. Orders that arrive while a transaction is being written wait
//! in a queue and the next transaction writes all of them with the same four round trips. Each
//! caller is answered only after the transaction holding its order has committed, so an answered
//! order survives a crash exactly as before.
//!
//! The writer is a task of its own: a caller that goes away (a closed connection drops its
//! handler) cannot abandon other callers' orders halfway through their transaction.

use std::sync::Arc;

use sqlx::AnyPool;
use tokio::sync::{Mutex, mpsc, oneshot};

use super::orders::insert_orders;
use super::{NewOrderRecord, StoreError};

/// Most orders written in one transaction. Each group size is a statement of its own that every
/// connection keeps prepared, and their size grows with the rows: at 64, the server held 95 MB
/// after 50,000 orders against 45 MB at 16, which also wrote the most orders a second (16:
/// 5,950/s; 8: 5,480; 32: 5,780; 64: 5,280 — 64 connections on 2 cores).
const MAX_GROUP: usize = 16;

struct PendingOrder {
    order: NewOrderRecord,
    written: oneshot::Sender<Result<(), StoreError>>,
}

pub(super) struct OrderWriter {
    queue: mpsc::UnboundedSender<PendingOrder>,
}

impl OrderWriter {
    /// Starts the writer; it takes `turn` for each transaction, as every SQLite writer does. It
    /// stops when the writer is dropped.
    pub(super) fn start(pool: AnyPool, turn: Arc<Mutex<()>>) -> OrderWriter {
        let (queue, mut incoming) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut group = Vec::with_capacity(MAX_GROUP);
            while incoming.recv_many(&mut group, MAX_GROUP).await > 0 {
                let _turn = turn.lock().await;
                write_group(&pool, std::mem::take(&mut group)).await;
            }
        });
        OrderWriter { queue }
    }

    /// Stores `order`, its first event and what commits with it; answers once committed.
    pub(super) async fn insert(&self, order: &NewOrderRecord) -> Result<(), StoreError> {
        let stopped = || StoreError::Unavailable("the order writer has stopped".into());
        let (written, answer) = oneshot::channel();
        self.queue
            .send(PendingOrder {
                order: order.clone(),
                written,
            })
            .map_err(|_| stopped())?;
        answer.await.unwrap_or_else(|_| Err(stopped()))
    }
}

/// Writes a group in one transaction. If that fails (an order repeats a deposit, say), nothing
/// of it was written, and each order is written on its own so
/// that each caller gets its own answer.
async fn write_group(pool: &AnyPool, group: Vec<PendingOrder>) {
    if group.len() > 1 {
        let orders: Vec<&NewOrderRecord> = group.iter().map(|p| &p.order).collect();
        match insert_orders(pool, &orders).await {
            Ok(()) => {
                for pending in group {
                    let _ = pending.written.send(Ok(()));
                }
                return;
            }
            Err(error) => {
                tracing::debug!(%error, orders = group.len(), "writing the orders one by one");
            }
        }
    }
    for pending in group {
        let result = insert_orders(pool, &[&pending.order]).await;
        // The caller may have gone; its order is written all the same.
        let _ = pending.written.send(result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{OrderRecord, SqlStore, Store};

    fn pending(
        id: &str,
        deposit: &str,
    ) -> (PendingOrder, oneshot::Receiver<Result<(), StoreError>>) {
        let (written, answer) = oneshot::channel();
        let order = NewOrderRecord {
            order: OrderRecord {
                id: id.into(),
                provider: "sandbox".into(),
                deposit_address: deposit.into(),
                ..OrderRecord::default()
            },
            ..NewOrderRecord::default()
        };
        (PendingOrder { order, written }, answer)
    }

    async fn sqlite_store() -> (SqlStore, tempfile::TempDir) {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = SqlStore::connect(&format!("sqlite://{}/ferry.db", dir.path().display()))
            .await
            .expect("connect");
        store.migrate().await.expect("migrate");
        (store, dir)
    }

    #[tokio::test]
    async fn a_group_with_a_conflicting_order_stores_the_others_and_refuses_that_one() {
        let (store, _dir) = sqlite_store().await;
        let (first, first_answer) = pending("first", "taken");
        let (again, again_answer) = pending("again", "taken");
        let (other, other_answer) = pending("other", "free");

        write_group(store.pool(), vec![first, again, other]).await;

        assert!(first_answer.await.expect("answered").is_ok());
        assert!(matches!(
            again_answer.await.expect("answered"),
            Err(StoreError::Conflict)
        ));
        assert!(other_answer.await.expect("answered").is_ok());
        assert!(store.find_order("first").await.expect("find").is_some());
        assert!(store.find_order("again").await.expect("find").is_none());
        assert_eq!(
            store.order_events("other", 0).await.expect("events").len(),
            1
        );
    }

    #[tokio::test]
    async fn the_largest_group_fits_in_one_statement_and_is_stored_whole() {
        let (store, _dir) = sqlite_store().await;
        let (group, answers): (Vec<_>, Vec<_>) = (0..MAX_GROUP)
            .map(|n| pending(&format!("order{n}"), &format!("deposit{n}")))
            .unzip();

        write_group(store.pool(), group).await;

        for answer in answers {
            assert!(answer.await.expect("answered").is_ok());
        }
        for table in ["orders", "order_events"] {
            let stored: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
                .fetch_one(store.pool())
                .await
                .expect("count");
            assert_eq!(stored, MAX_GROUP as i64, "{table}");
        }
    }
}
