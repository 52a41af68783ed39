//! The store's conformance suite: every test runs on SQLite and on PostgreSQL.

use ferry::store::{Backend, CurrencyOverride, NewReferralClick, OrderRecord, StoreError};
use sqlx::Row;

use crate::helpers::{Db, raw_store, test_store};
use crate::on_both_backends;

on_both_backends!(
    a_fresh_store_answers_pings_on_the_configured_backend,
    migrations_apply_once_and_reopening_is_harmless,
    a_referral_click_is_stored_once_per_visitor_and_day,
    currency_overrides_are_set_updated_and_listed,
    orders_created_together_are_all_stored_and_a_repeated_key_is_a_conflict,
);

fn click(code: &str, visitor: &str, day: i64) -> NewReferralClick {
    NewReferralClick {
        referral_code: code.into(),
        visitor_key: visitor.into(),
        day,
        source: "direct".into(),
        created_at: day * 86_400 + 5,
    }
}

async fn a_fresh_store_answers_pings_on_the_configured_backend(db: Db) {
    let Some((store, _guard)) = test_store(db).await else {
        return;
    };
    store.ping().await.expect("ping");
    let expected = match db {
        Db::Sqlite => Backend::Sqlite,
        Db::Postgres => Backend::Postgres,
    };
    assert_eq!(store.backend(), expected);
}

async fn migrations_apply_once_and_reopening_is_harmless(db: Db) {
    let Some((store, guard)) = test_store(db).await else {
        return;
    };
    store.close().await;
    let again = ferry::store::open(&guard.url).await.expect("reopen");
    again.ping().await.expect("ping");
    let raw = raw_store(&guard).await;
    let applied: i64 = sqlx::query("SELECT COUNT(*) AS n FROM _sqlx_migrations")
        .fetch_one(raw.pool())
        .await
        .expect("count")
        .try_get("n")
        .expect("n");
    let files = std::fs::read_dir("migrations/sqlite").expect("dir").count() as i64;
    assert_eq!(applied, files);
}

async fn a_referral_click_is_stored_once_per_visitor_and_day(db: Db) {
    let Some((store, _guard)) = test_store(db).await else {
        return;
    };
    assert!(
        store
            .record_referral_click(&click("alice", "v1", 100))
            .await
            .expect("first")
    );
    assert!(
        !store
            .record_referral_click(&click("alice", "v1", 100))
            .await
            .expect("again")
    );
    assert!(
        store
            .record_referral_click(&click("alice", "v1", 101))
            .await
            .expect("next day")
    );
    assert!(
        store
            .record_referral_click(&click("alice", "v2", 100))
            .await
            .expect("other")
    );
    assert!(
        store
            .record_referral_click(&click("bob", "v1", 100))
            .await
            .expect("bob")
    );
    assert_eq!(
        store.count_referral_clicks("alice").await.expect("count"),
        3
    );
    assert_eq!(
        store.count_referral_clicks("nobody").await.expect("count"),
        0
    );
}

async fn currency_overrides_are_set_updated_and_listed(db: Db) {
    let Some((store, _guard)) = test_store(db).await else {
        return;
    };
    let xmr = CurrencyOverride {
        code: "XMR".into(),
        send_enabled: Some(false),
        recv_enabled: None,
        updated_at: 10,
    };
    store.set_currency_override(&xmr).await.expect("set");
    store
        .set_currency_override(&CurrencyOverride {
            code: "BTC".into(),
            send_enabled: None,
            recv_enabled: Some(true),
            updated_at: 11,
        })
        .await
        .expect("set btc");
    let updated = CurrencyOverride {
        send_enabled: Some(true),
        recv_enabled: Some(false),
        updated_at: 12,
        ..xmr
    };
    store.set_currency_override(&updated).await.expect("update");
    let all = store.currency_overrides().await.expect("list");
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].code, "BTC");
    assert_eq!(all[0].send_enabled, None);
    assert_eq!(all[1], updated);
}

fn new_order(n: usize, idempotency_key: Option<&str>) -> OrderRecord {
    OrderRecord {
        id: format!("order{n:04}"),
        status: "NEW".into(),
        deposit_address: format!("deposit{n:04}"),
        idempotency_key: idempotency_key.map(str::to_owned),
        created_at: 1_000 + n as i64,
        updated_at: 1_000 + n as i64,
        ..OrderRecord::default()
    }
}

/// Orders arriving at once are written together on SQLite: one order repeating another's
/// idempotency key must fail alone, and every other order must be stored with its event.
async fn orders_created_together_are_all_stored_and_a_repeated_key_is_a_conflict(db: Db) {
    let Some((store, _guard)) = test_store(db).await else {
        return;
    };
    let orders: Vec<OrderRecord> = (0..40)
        .map(|n| new_order(n, (n % 10 == 3).then_some("same-key")))
        .collect();
    let results =
        futures_util::future::join_all(orders.iter().map(|o| store.insert_order(o))).await;

    let stored_with_key = orders
        .iter()
        .zip(&results)
        .filter(|(o, r)| o.idempotency_key.is_some() && r.is_ok())
        .count();
    assert_eq!(stored_with_key, 1, "one order holds the key: {results:?}");
    for (order, result) in orders.iter().zip(&results) {
        match result {
            Ok(()) => {
                assert_eq!(
                    store.find_order(&order.id).await.expect("find").as_ref(),
                    Some(order)
                );
                let events = store.order_events(&order.id, 0).await.expect("events");
                assert_eq!(events.len(), 1, "{}", order.id);
                assert_eq!(events[0].status, "NEW");
                assert_eq!(events[0].detail.as_deref(), Some("created"));
            }
            Err(StoreError::Conflict) => {
                assert!(order.idempotency_key.is_some(), "{} refused", order.id);
                assert_eq!(store.find_order(&order.id).await.expect("find"), None);
                assert!(
                    store
                        .order_events(&order.id, 0)
                        .await
                        .expect("events")
                        .is_empty()
                );
            }
            Err(other) => panic!("{}: {other}", order.id),
        }
    }
}
