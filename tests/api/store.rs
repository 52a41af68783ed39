//! The store's conformance suite: every test runs on SQLite and on PostgreSQL.

use ferry::domain::operator::Actor;
use ferry::domain::order::OrderStatus;
use ferry::store::{
    AuditEntry, AuditFilter, Backend, CurrencyOverride, IdempotencyClaim, IdempotencyKey,
    MailRecord, NewOrderRecord, NewReferralClick, OrderChange, OrderEffects, OrderRecord,
    StoreError,
};
use rust_decimal::Decimal;
use sqlx::Row;

use crate::helpers::{Db, raw_store, test_store};
use crate::on_both_backends;

on_both_backends!(
    a_fresh_store_answers_pings_on_the_configured_backend,
    migrations_apply_once_and_reopening_is_harmless,
    a_referral_click_is_stored_once_per_visitor_and_day,
    currency_overrides_are_set_updated_and_listed,
    the_audit_log_refuses_update_and_delete_in_the_database,
    an_order_change_and_its_audit_entry_are_one_transaction,
    orders_created_together_are_all_stored_and_a_taken_deposit_is_a_conflict,
    a_deposit_is_unique_by_provider_address_and_tag,
    a_write_from_a_stale_read_changes_nothing,
    a_corrupt_stored_value_is_an_error_not_a_default,
    a_change_whose_consequences_fail_is_not_written_at_all,
    idempotency_keys_are_claimed_answered_and_expire,
    the_real_funds_migration_keeps_every_order_event_and_commission,
    a_refused_mail_is_never_leased_again_nor_counted_as_waiting,
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

fn audit(action: &str, subject: (&str, &str)) -> AuditEntry {
    AuditEntry {
        client_ip: "192.0.2.7".into(),
        ..AuditEntry::new(&Actor::Token, action, subject, 100)
    }
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
        ..CurrencyOverride::default()
    };
    let set = audit("currency.set", ("currency", "XMR"));
    store.set_currency_override(&xmr, &set).await.expect("set");
    store
        .set_currency_override(
            &CurrencyOverride {
                code: "BTC".into(),
                send_enabled: None,
                recv_enabled: Some(true),
                updated_at: 11,
                ..CurrencyOverride::default()
            },
            &audit("currency.set", ("currency", "BTC")),
        )
        .await
        .expect("set btc");
    // Maintenance with its message and the limits come back as they were written.
    let updated = CurrencyOverride {
        send_enabled: Some(true),
        recv_enabled: Some(false),
        maintenance: Some("Wallet upgrade until 14:00 UTC".into()),
        min_amount: Some(Decimal::new(5, 2)),
        max_amount: Some(Decimal::new(12_500, 1)),
        updated_at: 12,
        ..xmr
    };
    store
        .set_currency_override(&updated, &set)
        .await
        .expect("update");
    let all = store.currency_overrides().await.expect("list");
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].code, "BTC");
    assert_eq!(all[0].send_enabled, None);
    assert_eq!(all[1], updated);

    // Each change is in the log with the switches as they were and as they became.
    let entries = store
        .audit_entries(&AuditFilter {
            subject_id: Some("XMR".into()),
            limit: 10,
            ..AuditFilter::default()
        })
        .await
        .expect("audit");
    let views: Vec<_> = entries
        .iter()
        .map(|r| (r.entry.before.clone(), r.entry.after.clone()))
        .collect();
    assert_eq!(
        views,
        [
            (
                Some(
                    serde_json::json!({ "send": false, "recv": null, "maintenance": null, "min": null, "max": null })
                ),
                Some(serde_json::json!({
                    "send": true, "recv": false,
                    "maintenance": "Wallet upgrade until 14:00 UTC", "min": "0.05", "max": "1250"
                }))
            ),
            (
                Some(
                    serde_json::json!({ "send": null, "recv": null, "maintenance": null, "min": null, "max": null })
                ),
                Some(
                    serde_json::json!({ "send": false, "recv": null, "maintenance": null, "min": null, "max": null })
                )
            ),
        ]
    );
    assert_eq!(
        (
            entries[0].entry.actor.as_str(),
            entries[0].entry.actor_role.as_str()
        ),
        ("token", "owner")
    );
    assert_eq!(entries[0].entry.client_ip, "192.0.2.7");
}

async fn the_audit_log_refuses_update_and_delete_in_the_database(db: Db) {
    let Some((store, guard)) = test_store(db).await else {
        return;
    };
    let id = store
        .append_audit(&audit("sandbox.outage", ("sandbox", "outage")))
        .await
        .expect("append");
    let raw = raw_store(&guard).await;
    for sql in [
        "UPDATE audit_log SET actor = 'someone else'",
        "DELETE FROM audit_log",
    ] {
        let refused = sqlx::query(sql).execute(raw.pool()).await;
        assert!(
            refused
                .unwrap_err()
                .to_string()
                .contains("audit_log is append-only"),
            "{sql}"
        );
    }
    if store.backend() == Backend::Postgres {
        let refused = sqlx::query("TRUNCATE audit_log").execute(raw.pool()).await;
        assert!(refused.unwrap_err().to_string().contains("append-only"));
    }
    let entries = store
        .audit_entries(&AuditFilter {
            limit: 10,
            ..AuditFilter::default()
        })
        .await
        .unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(
        (entries[0].id, entries[0].entry.actor.as_str()),
        (id, "token")
    );
}

async fn an_order_change_and_its_audit_entry_are_one_transaction(db: Db) {
    let Some((store, _guard)) = test_store(db).await else {
        return;
    };
    let new = new_order(1, "dep-audit", None);
    store.insert_order(&new).await.expect("insert");
    let keyed = |key: &str| AuditEntry {
        request_key: Some(key.into()),
        request_hash: Some("h".into()),
        ..audit("order.deposit", ("order", &new.order.id))
    };
    let mut next = new.order.clone();
    next.status = OrderStatus::Confirming;
    let effects = OrderEffects {
        audit: Some(keyed("k1")),
        ..OrderEffects::default()
    };
    let change = OrderChange {
        order: &next,
        event: Some("deposit"),
        effects: &effects,
    };
    assert!(store.update_order(&change).await.expect("first"));

    // The same key again: the entry is refused, and the change with it.
    let mut again = next.clone();
    again.version += 1;
    again.status = OrderStatus::Exchange;
    let replayed = OrderChange {
        order: &again,
        event: Some("exchange"),
        effects: &effects,
    };
    assert!(matches!(
        store.update_order(&replayed).await,
        Err(StoreError::Replayed)
    ));
    let stored = store.find_order(&new.order.id).await.unwrap().unwrap();
    assert_eq!(
        (stored.status, stored.version),
        (OrderStatus::Confirming, 1)
    );
    let events = store.order_events(&new.order.id, 0).await.unwrap();
    assert_eq!(events.len(), 2, "created and deposit only: {events:?}");
    let found = store
        .audit_by_request("token", "k1")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(found.entry.subject_id, new.order.id);
}

fn new_order(n: usize, deposit: &str, tag: Option<&str>) -> NewOrderRecord {
    NewOrderRecord {
        order: OrderRecord {
            id: format!("order{n:04}"),
            provider: "sandbox".into(),
            from_amount: Decimal::new(15, 1),
            fee_percent: Decimal::new(5, 1),
            deposit_address: deposit.into(),
            deposit_tag: tag.map(str::to_owned),
            created_at: 1_000 + n as i64,
            updated_at: 1_000 + n as i64,
            ..OrderRecord::default()
        },
        ..NewOrderRecord::default()
    }
}

/// Orders arriving at once are written together on SQLite: one order repeating another's
/// deposit must fail alone, and every other order must be stored with its event.
async fn orders_created_together_are_all_stored_and_a_taken_deposit_is_a_conflict(db: Db) {
    let Some((store, _guard)) = test_store(db).await else {
        return;
    };
    let orders: Vec<NewOrderRecord> = (0..40)
        .map(|n| match n % 10 {
            3 => new_order(n, "taken", None),
            _ => new_order(n, &format!("deposit{n:04}"), None),
        })
        .collect();
    let results =
        futures_util::future::join_all(orders.iter().map(|o| store.insert_order(o))).await;

    let stored_taken = orders
        .iter()
        .zip(&results)
        .filter(|(o, r)| o.order.deposit_address == "taken" && r.is_ok())
        .count();
    assert_eq!(stored_taken, 1, "one order holds the deposit: {results:?}");
    for (new, result) in orders.iter().zip(&results) {
        let order = &new.order;
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
                assert_eq!(order.deposit_address, "taken", "{} refused", order.id);
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

/// Memo coins share one address per provider: a deposit is its address with its tag. Orders an
/// upstream fills are told apart by their id there.
async fn a_deposit_is_unique_by_provider_address_and_tag(db: Db) {
    let Some((store, _guard)) = test_store(db).await else {
        return;
    };
    let insert = |n: usize, provider: &str, tag: Option<&str>, upstream: Option<&str>| {
        let mut new = new_order(n, "rEOSsharedAddress", tag);
        new.order.provider = provider.into();
        new.order.provider_order_id = upstream.map(str::to_owned);
        new
    };
    let store = &store;
    let ok = |new: NewOrderRecord| async move { store.insert_order(&new).await };
    assert!(ok(insert(1, "sandbox", Some("1001"), None)).await.is_ok());
    assert!(
        ok(insert(2, "sandbox", Some("1002"), None)).await.is_ok(),
        "another tag"
    );
    assert!(matches!(
        ok(insert(3, "sandbox", Some("1001"), None)).await,
        Err(StoreError::Conflict)
    ));
    assert!(ok(insert(4, "sandbox", None, None)).await.is_ok(), "no tag");
    assert!(
        matches!(
            ok(insert(5, "sandbox", None, None)).await,
            Err(StoreError::Conflict)
        ),
        "no tag twice is the same deposit"
    );
    assert!(
        ok(insert(6, "other", Some("1001"), None)).await.is_ok(),
        "another provider"
    );
    assert!(ok(insert(7, "ff", Some("1001"), Some("UP1"))).await.is_ok());
    assert!(
        ok(insert(8, "ff", Some("1001"), Some("UP2"))).await.is_ok(),
        "an upstream may reuse a deposit"
    );
    assert!(
        matches!(
            ok(insert(9, "ff", Some("9"), Some("UP1"))).await,
            Err(StoreError::Conflict)
        ),
        "one upstream order is followed once"
    );
}

/// Every write names the version it read: of two writers, the second changes nothing.
async fn a_write_from_a_stale_read_changes_nothing(db: Db) {
    let Some((store, _guard)) = test_store(db).await else {
        return;
    };
    let new = new_order(1, "deposit-v", None);
    store.insert_order(&new).await.expect("insert");
    let read = store.find_order("order0001").await.unwrap().unwrap();
    assert_eq!(read.version, 0);
    let none = OrderEffects::default();
    let mut first = read.clone();
    first.status = OrderStatus::Expired;
    first.finished_at = Some(2_000);
    let change = |order| OrderChange {
        order,
        event: Some("no deposit in time"),
        effects: &none,
    };
    assert!(store.update_order(&change(&first)).await.unwrap());
    let mut second = read.clone();
    second.status = OrderStatus::Confirming;
    second.received_amount = Some(Decimal::new(15, 1));
    assert!(
        !store.update_order(&change(&second)).await.unwrap(),
        "stale"
    );
    let stored = store.find_order("order0001").await.unwrap().unwrap();
    assert_eq!((stored.status, stored.version), (OrderStatus::Expired, 1));
    assert_eq!(stored.received_amount, None);
    let events = store.order_events("order0001", 0).await.unwrap();
    assert_eq!(
        events.iter().map(|e| e.status.as_str()).collect::<Vec<_>>(),
        ["NEW", "EXPIRED"]
    );
}

/// A stored value that does not parse is an error, never a default.
async fn a_corrupt_stored_value_is_an_error_not_a_default(db: Db) {
    let Some((store, guard)) = test_store(db).await else {
        return;
    };
    store
        .insert_order(&new_order(1, "d1", None))
        .await
        .expect("insert");
    store
        .insert_order(&new_order(2, "d2", None))
        .await
        .expect("insert");
    let raw = raw_store(&guard).await;
    for (id, column, value) in [
        ("order0001", "from_amount", "1,5"),
        ("order0002", "status", "DONE?"),
    ] {
        sqlx::query(&format!("UPDATE orders SET {column} = $1 WHERE id = $2"))
            .bind(value)
            .bind(id)
            .execute(raw.pool())
            .await
            .expect("corrupt it");
        match store.find_order(id).await {
            Err(StoreError::Corrupt(message)) => {
                assert!(
                    message.contains(column) && message.contains(id),
                    "{message}"
                )
            }
            other => panic!("{column}: {other:?}"),
        }
    }
}

/// The order's change and its consequences commit together: when one consequence cannot be
/// written, neither the change nor any other consequence is.
async fn a_change_whose_consequences_fail_is_not_written_at_all(db: Db) {
    let Some((store, _guard)) = test_store(db).await else {
        return;
    };
    store
        .insert_order(&new_order(1, "d1", None))
        .await
        .expect("insert");
    let read = store.find_order("order0001").await.unwrap().unwrap();
    let mail = |id: &str| MailRecord {
        id: id.into(),
        recipient: "a@example.com".into(),
        subject: "s".into(),
        body: "b".into(),
        created_at: 1,
        attempts: 0,
        next_attempt_at: 1,
        sent_at: None,
        last_error: None,
        failed_at: None,
        reply_to_name: None,
        reply_to_email: None,
    };
    // Two mails with one id: the second insert fails inside the transaction.
    let broken = OrderEffects {
        mails: vec![mail("m1"), mail("m1")],
        ..OrderEffects::default()
    };
    let mut next = read.clone();
    next.status = OrderStatus::Expired;
    let failed = store
        .update_order(&OrderChange {
            order: &next,
            event: Some("no deposit in time"),
            effects: &broken,
        })
        .await;
    assert!(failed.is_err(), "{failed:?}");
    assert_eq!(store.find_order("order0001").await.unwrap().unwrap(), read);
    assert_eq!(store.order_events("order0001", 0).await.unwrap().len(), 1);
    assert!(store.mail_to("a@example.com").await.unwrap().is_empty());

    let whole = OrderEffects {
        mails: vec![mail("m1"), mail("m2")],
        ..OrderEffects::default()
    };
    assert!(
        store
            .update_order(&OrderChange {
                order: &next,
                event: Some("no deposit in time"),
                effects: &whole,
            })
            .await
            .unwrap()
    );
    assert_eq!(store.mail_to("a@example.com").await.unwrap().len(), 2);
    assert_eq!(store.order_events("order0001", 0).await.unwrap().len(), 2);
}

/// An idempotency key is its caller's; the same request finds its order, another is refused.
async fn idempotency_keys_are_claimed_answered_and_expire(db: Db) {
    let Some((store, _guard)) = test_store(db).await else {
        return;
    };
    let key = |scope: &str| IdempotencyKey {
        scope: scope.into(),
        key: "cart-42".into(),
    };
    let alice = key("user:alice");
    assert_eq!(
        store
            .claim_idempotency_key(&alice, "h1", 100, 60)
            .await
            .unwrap(),
        IdempotencyClaim::Claimed
    );
    assert_eq!(
        store
            .claim_idempotency_key(&alice, "h1", 101, 60)
            .await
            .unwrap(),
        IdempotencyClaim::InFlight { since: 100 }
    );
    assert_eq!(
        store
            .claim_idempotency_key(&alice, "h2", 101, 60)
            .await
            .unwrap(),
        IdempotencyClaim::Mismatch
    );
    assert_eq!(
        store
            .claim_idempotency_key(&key("user:bob"), "h2", 101, 60)
            .await
            .unwrap(),
        IdempotencyClaim::Claimed,
        "another caller's key of the same name"
    );
    let mut new = new_order(1, "d1", None);
    new.idempotency = Some(alice.clone());
    store.insert_order(&new).await.unwrap();
    assert_eq!(
        store
            .claim_idempotency_key(&alice, "h1", 102, 60)
            .await
            .unwrap(),
        IdempotencyClaim::Answered("order0001".into())
    );
    assert!(
        !store
            .reclaim_idempotency_key(&alice, None, 102)
            .await
            .unwrap(),
        "answered keys stay"
    );
    assert_eq!(
        store
            .claim_idempotency_key(&alice, "h2", 160, 60)
            .await
            .unwrap(),
        IdempotencyClaim::Claimed,
        "a key past its time is free"
    );
    let bob = key("user:bob");
    assert!(
        store
            .reclaim_idempotency_key(&bob, Some(101), 170)
            .await
            .unwrap(),
        "taken over"
    );
    assert!(
        store
            .reclaim_idempotency_key(&bob, None, 170)
            .await
            .unwrap(),
        "released"
    );
    assert_eq!(store.prune_idempotency_keys(1_000).await.unwrap(), 1);
}

/// The migration that rebuilds `orders` (issue 17) on a database an older release filled: every
/// order, event and commission is kept, with a version and the fee the order was made with.
async fn the_real_funds_migration_keeps_every_order_event_and_commission(db: Db) {
    let Some(guard) = crate::helpers::TestDb::create(db).await else {
        return;
    };
    let raw = raw_store(&guard).await;
    raw.migrate_until(20261124000000)
        .await
        .expect("older schema");
    let pool = raw.pool();
    for statement in [
        "INSERT INTO users (id, email, full_name, password_hash, referral_code, totp_enabled, order_emails, \
             created_at, updated_at) VALUES ('p1', 'p@example.com', 'P', 'x', 'PARTNER1', 0, 1, 1, 1)",
        "INSERT INTO orders (id, status, rate_type, direction, provider, from_code, to_code, \
             from_amount, to_amount, rate, from_usd, to_usd, deposit_address, deposit_tag, \
             to_address, idempotency_key, created_at, expires_at, updated_at, affiliate_user_id) \
         VALUES ('O1', 'COMPLETED', 'fixed', 'from', 'sandbox', 'BTC', 'ETH', '0.1', '3.2', \
             '32', '6500.00', '6450.00', 'bc1qold', NULL, '0xabc', 'k1', 10, 20, 30, 'p1'), \
             ('O2', 'NEW', 'float', 'from', 'sandbox', 'EOS', 'ETH', '50', '0.01', '0.0002', \
             '40.00', '39.00', 'ferrysandbox', '123456789', '0xabc', NULL, 11, 21, 31, NULL)",
        "INSERT INTO order_events (order_id, status, detail, created_at) VALUES \
             ('O1', 'NEW', 'created', 10), ('O1', 'COMPLETED', 'payout sent', 30), \
             ('O2', 'NEW', 'created', 11)",
        "INSERT INTO affiliate_commissions (order_id, partner_user_id, state, volume_usd, \
             amount_usd, amount_btc, created_at, updated_at) \
         VALUES ('O1', 'p1', 'available', '6500', '26', '0.0004', 10, 30)",
    ] {
        sqlx::query(statement).execute(pool).await.expect(statement);
    }
    drop(raw);

    let store = ferry::store::open(&guard.url)
        .await
        .expect("migrate to the latest");
    let o1 = store.find_order("O1").await.unwrap().expect("O1 kept");
    assert_eq!(
        (o1.status, o1.version, o1.fee_percent, o1.from_usd),
        (
            OrderStatus::Completed,
            0,
            Decimal::ONE,
            Decimal::new(650000, 2)
        )
    );
    let o2 = store.find_order("O2").await.unwrap().expect("O2 kept");
    assert_eq!(
        (o2.fee_percent, o2.deposit_tag.as_deref()),
        (Decimal::new(5, 1), Some("123456789"))
    );
    assert_eq!(store.order_events("O1", 0).await.unwrap().len(), 2);
    let commissions = store.commissions_of("p1").await.unwrap();
    assert_eq!(commissions.len(), 1);
    assert_eq!(commissions[0].amount_usd, "26");
    // The shared EOS address takes another tag now.
    let mut another = new_order(3, "ferrysandbox", Some("987654321"));
    another.order.from_code = "EOS".into();
    store
        .insert_order(&another)
        .await
        .expect("same address, other tag");
}

/// A mail the SMTP server refused for good stays in the outbox for the record, but no worker
/// takes it again and the status page does not count it as waiting.
async fn a_refused_mail_is_never_leased_again_nor_counted_as_waiting(db: Db) {
    let Some((store, _guard)) = test_store(db).await else {
        return;
    };
    let mail = |id: &str, created_at: i64| MailRecord {
        id: id.into(),
        recipient: "a@example.com".into(),
        subject: "s".into(),
        body: "b".into(),
        created_at,
        attempts: 0,
        next_attempt_at: created_at,
        sent_at: None,
        last_error: None,
        failed_at: None,
        reply_to_name: None,
        reply_to_email: None,
    };
    store.enqueue_mail(&mail("refused", 10)).await.unwrap();
    store.enqueue_mail(&mail("busy", 20)).await.unwrap();
    let leased = store.lease_due_mail(100, "worker", 60, 10).await.unwrap();
    assert_eq!(leased.len(), 2);
    store
        .mark_mail_refused("refused", "550 no such user", 100)
        .await
        .unwrap();
    store
        .mark_mail_for_retry("busy", "421 try later", 150)
        .await
        .unwrap();

    let again: Vec<String> = store
        .lease_due_mail(1000, "worker", 60, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(again, ["busy"]);
    assert_eq!(store.oldest_unsent_mail().await.unwrap(), Some(20));
    let refused = store
        .mail_to("a@example.com")
        .await
        .unwrap()
        .into_iter()
        .find(|m| m.id == "refused")
        .unwrap();
    assert_eq!(
        (refused.failed_at, refused.attempts, refused.sent_at),
        (Some(100), 1, None)
    );
    assert_eq!(refused.last_error.as_deref(), Some("550 no such user"));

    store.mark_mail_sent("busy", 1000).await.unwrap();
    assert_eq!(store.oldest_unsent_mail().await.unwrap(), None);
}
