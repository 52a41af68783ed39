//! Who is watching which order. An order's event streams wait here and are woken only by a
//! change of that order: made by this replica (at once), or on PostgreSQL by any replica, through
//! `LISTEN/NOTIFY` on one connection per replica (a trigger on `order_events` notifies in the
//! transaction that writes the event, so a committed event is always announced). No stream polls.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;

/// The channel the `order_events` trigger notifies on (see the PostgreSQL migrations).
pub const CHANNEL: &str = "ferry_order_events";

/// The orders being watched on this replica, each with a counter of its changes.
#[derive(Default)]
pub struct OrderWatch {
    watched: Mutex<HashMap<String, watch::Sender<u64>>>,
}

/// One watcher of one order; stops watching when dropped.
pub struct Watching {
    hub: Arc<OrderWatch>,
    id: String,
    changes: Option<watch::Receiver<u64>>,
}

impl OrderWatch {
    /// Starts watching `id`: every change from now on wakes [`Watching::changed`].
    pub fn watch(self: &Arc<Self>, id: &str) -> Watching {
        let mut watched = self.watched.lock().expect("order watch lock");
        let changes = watched
            .entry(id.to_owned())
            .or_insert_with(|| watch::channel(0).0)
            .subscribe();
        Watching {
            hub: self.clone(),
            id: id.to_owned(),
            changes: Some(changes),
        }
    }

    /// The order `id` changed: wakes its watchers (nothing when nobody watches it).
    pub fn wake(&self, id: &str) {
        if let Some(sender) = self.watched.lock().expect("order watch lock").get(id) {
            sender.send_modify(|n| *n = n.wrapping_add(1));
        }
    }

    /// Any order may have changed (announcements were missed): every watcher looks again.
    pub fn wake_all(&self) {
        for sender in self.watched.lock().expect("order watch lock").values() {
            sender.send_modify(|n| *n = n.wrapping_add(1));
        }
    }

    /// How many orders are watched on this replica.
    pub fn watched(&self) -> usize {
        self.watched.lock().expect("order watch lock").len()
    }
}

impl Watching {
    /// Resolves at the first change since the last one seen (at once if one came meanwhile).
    pub async fn changed(&mut self) {
        if let Some(changes) = self.changes.as_mut()
            && changes.changed().await.is_ok()
        {
            return;
        }
        // The hub is kept while a watcher lives, so this is never reached; wait forever.
        std::future::pending::<()>().await;
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let mut watched = self.hub.watched.lock().expect("order watch lock");
        drop(self.changes.take());
        if watched
            .get(&self.id)
            .is_some_and(|sender| sender.receiver_count() == 0)
        {
            watched.remove(&self.id);
        }
    }
}

/// How long to wait before listening again after the connection failed.
const RELISTEN_AFTER: Duration = Duration::from_secs(1);
/// How often each replica announces itself on the channel. A listener that hears nothing, not
/// even a heartbeat, for [`SILENCE_LIMIT`] takes its connection for dead (a half-open TCP
/// connection never fails on its own) and listens again.
const HEARTBEAT: Duration = Duration::from_secs(10);
const SILENCE_LIMIT: Duration = Duration::from_secs(35);
/// What a heartbeat's payload starts with (order ids never do).
const HEARTBEAT_PREFIX: &str = "replica:";

/// Listens on PostgreSQL for the orders any replica changed and wakes their watchers here. While
/// the connection is down nothing is announced, so once it listens again every watcher looks
/// again (after listening, so that nothing falls between the two). With `limits_shared` false
/// it also says, once, when another replica is heard: each counts its limits alone.
pub async fn listen_postgres(url: String, hub: Arc<OrderWatch>, limits_shared: bool) {
    let me = format!("{HEARTBEAT_PREFIX}{}", uuid::Uuid::new_v4().simple());
    let mut heard = Heard {
        me: me.clone(),
        warned: limits_shared,
    };
    let listen = async {
        loop {
            match sqlx::postgres::PgListener::connect(&url).await {
                Ok(mut listener) => match listener.listen(CHANNEL).await {
                    Ok(()) => {
                        hub.wake_all();
                        relay(&mut listener, &hub, &mut heard).await;
                    }
                    Err(error) => {
                        tracing::warn!(error = %error, "could not listen for order changes")
                    }
                },
                Err(error) => {
                    tracing::warn!(error = %error, "could not connect to listen for order changes")
                }
            }
            tokio::time::sleep(RELISTEN_AFTER).await;
        }
    };
    // One task for both, so that stopping the listener stops the heartbeat too.
    tokio::select! {
        () = listen => {}
        () = heartbeat(&url, &me) => {}
    }
}

/// Announces this replica on the channel every [`HEARTBEAT`], from a connection of its own.
async fn heartbeat(url: &str, me: &str) {
    let pool = match sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect_lazy(url)
    {
        Ok(pool) => pool,
        Err(error) => {
            tracing::warn!(error = %error, "no heartbeat for the order-change listener");
            return std::future::pending().await;
        }
    };
    let mut every = tokio::time::interval(HEARTBEAT);
    loop {
        every.tick().await;
        let sent = sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(me)
            .execute(&pool)
            .await;
        if let Err(error) = sent {
            tracing::warn!(error = %error, "could not send the listener's heartbeat");
        }
    }
}

/// Which replica this is, and whether it has said yet that another one shares the database.
struct Heard {
    me: String,
    warned: bool,
}

/// Wakes the watchers of each announced order until the connection is lost or falls silent.
async fn relay(listener: &mut sqlx::postgres::PgListener, hub: &OrderWatch, heard: &mut Heard) {
    loop {
        match tokio::time::timeout(SILENCE_LIMIT, listener.try_recv()).await {
            Ok(Ok(Some(notification))) => {
                let payload = notification.payload();
                if !payload.starts_with(HEARTBEAT_PREFIX) {
                    hub.wake(payload);
                } else if payload != heard.me && !heard.warned {
                    heard.warned = true;
                    tracing::warn!(
                        "another replica uses this database: without FERRY_REDIS_URL each replica \
                         counts its request limits alone"
                    );
                }
            }
            Ok(Ok(None)) | Ok(Err(_)) => {
                tracing::warn!("lost the order-change listener; listening again");
                return;
            }
            Err(_) => {
                tracing::warn!("the order-change listener fell silent; listening again");
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now_or_never(watching: &mut Watching) -> bool {
        use futures_util::FutureExt;
        watching.changed().now_or_never().is_some()
    }

    #[test]
    fn a_change_wakes_the_watchers_of_that_order_only() {
        let hub = Arc::new(OrderWatch::default());
        let mut mine = hub.watch("A");
        let mut also_mine = hub.watch("A");
        let mut other = hub.watch("B");
        assert!(!now_or_never(&mut mine));
        hub.wake("A");
        assert!(now_or_never(&mut mine));
        assert!(now_or_never(&mut also_mine));
        assert!(!now_or_never(&mut other));
        // Seen once, a change does not wake again.
        assert!(!now_or_never(&mut mine));
    }

    #[test]
    fn a_change_while_the_watcher_was_busy_is_not_lost() {
        let hub = Arc::new(OrderWatch::default());
        let mut watching = hub.watch("A");
        hub.wake("A");
        hub.wake("A");
        assert!(now_or_never(&mut watching));
        assert!(!now_or_never(&mut watching));
        hub.wake_all();
        assert!(now_or_never(&mut watching));
    }

    #[test]
    fn an_order_is_forgotten_when_its_last_watcher_leaves() {
        let hub = Arc::new(OrderWatch::default());
        let first = hub.watch("A");
        let second = hub.watch("A");
        assert_eq!(hub.watched(), 1);
        drop(first);
        assert_eq!(hub.watched(), 1);
        drop(second);
        assert_eq!(hub.watched(), 0);
        hub.wake("A");
        assert_eq!(hub.watched(), 0);
    }
}
