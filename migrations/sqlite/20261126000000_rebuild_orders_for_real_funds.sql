-- Issue 17: orders for real funds.
--   * A deposit is unique by (provider, address, tag), not by address alone: memo coins (EOS,
--     XRP, XLM, ATOM, TON, BNB …) share one address per provider and differ by tag. Orders an
--     upstream fills are unique by their id there instead (an upstream may hand an address out
--     again once its earlier order is over).
--   * Idempotency keys move to a table of their own, scoped to their caller.
--   * `version` makes every order write optimistic (compare and swap).
--   * `fee_percent` keeps the fee the order was made with (commissions and float payouts use
--     it, not today's setting). Orders made before this migration get the default fees.
-- SQLite cannot drop a UNIQUE column constraint, so the table is rebuilt. The migration runs in
-- one transaction, where foreign keys cannot be switched off; they are deferred instead: the
-- events and commissions point at no order between the DROP and the INSERT below, and the
-- commit checks that every one of them has its order again (or nothing is changed).
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE orders_before AS SELECT * FROM orders;
DROP TABLE orders;
CREATE TABLE orders (
    id                   TEXT    NOT NULL PRIMARY KEY,
    version              BIGINT  NOT NULL DEFAULT 0,
    status               TEXT    NOT NULL,
    rate_type            TEXT    NOT NULL,
    direction            TEXT    NOT NULL,
    provider             TEXT    NOT NULL,
    from_code            TEXT    NOT NULL,
    to_code              TEXT    NOT NULL,
    from_amount          TEXT    NOT NULL,
    to_amount            TEXT    NOT NULL,
    rate                 TEXT    NOT NULL,
    from_usd             TEXT    NOT NULL,
    to_usd               TEXT    NOT NULL,
    fee_percent          TEXT    NOT NULL,
    deposit_address      TEXT    NOT NULL,
    deposit_tag          TEXT,
    to_address           TEXT    NOT NULL,
    to_tag               TEXT,
    refund_address       TEXT,
    refund_tag           TEXT,
    metadata             TEXT,
    owner_user_id        TEXT,
    received_amount      TEXT,
    payout_amount        TEXT,
    emergency_reason     TEXT,
    emergency_choice     TEXT,
    created_at           BIGINT  NOT NULL,
    expires_at           BIGINT  NOT NULL,
    rate_expires_at      BIGINT,
    updated_at           BIGINT  NOT NULL,
    finished_at          BIGINT,
    next_step_at         BIGINT,
    lease_owner          TEXT,
    lease_until          BIGINT,
    api_key_id           TEXT,
    affiliate_user_id    TEXT,
    partner_fee_percent  TEXT,
    notify_email         TEXT,
    provider_order_id    TEXT,
    provider_order_token TEXT
);
INSERT INTO orders (id, version, status, rate_type, direction, provider, from_code,
    to_code, from_amount, to_amount, rate, from_usd, to_usd, fee_percent, deposit_address,
    deposit_tag, to_address, to_tag, refund_address, refund_tag, metadata, owner_user_id,
    received_amount, payout_amount, emergency_reason, emergency_choice, created_at, expires_at,
    rate_expires_at, updated_at, finished_at, next_step_at, lease_owner, lease_until, api_key_id,
    affiliate_user_id, partner_fee_percent, notify_email, provider_order_id, provider_order_token)
SELECT id, 0, status, rate_type, direction, provider, from_code, to_code, from_amount,
    to_amount, rate, from_usd, to_usd, CASE rate_type WHEN 'fixed' THEN '1' ELSE '0.5' END,
    deposit_address, deposit_tag, to_address, to_tag, refund_address, refund_tag, metadata,
    owner_user_id, received_amount, payout_amount, emergency_reason, emergency_choice,
    created_at, expires_at, rate_expires_at, updated_at, finished_at, next_step_at, lease_owner,
    lease_until, api_key_id, affiliate_user_id, partner_fee_percent, notify_email,
    provider_order_id, provider_order_token
FROM orders_before;
DROP TABLE orders_before;
CREATE INDEX orders_due ON orders (status, next_step_at);
CREATE INDEX orders_expiring ON orders (status, expires_at);
CREATE INDEX orders_finished ON orders (status, finished_at);
CREATE INDEX orders_owner ON orders (owner_user_id, created_at);
CREATE INDEX orders_affiliate ON orders (affiliate_user_id, created_at);
CREATE INDEX orders_api_key ON orders (api_key_id, created_at);
CREATE INDEX orders_next_step ON orders (next_step_at);
CREATE UNIQUE INDEX orders_deposit ON orders (provider, deposit_address, COALESCE(deposit_tag, ''))
    WHERE provider_order_id IS NULL;
CREATE UNIQUE INDEX orders_upstream ON orders (provider, provider_order_id)
    WHERE provider_order_id IS NOT NULL;

-- An Idempotency-Key is its caller's: `scope` is `user:<id>`, `key:<api key id>`, or for
-- anonymous callers `anon:<hash of the request>`. `order_id` is NULL while the first request
-- with the key is being answered.
CREATE TABLE idempotency_keys (
    scope        TEXT    NOT NULL,
    key          TEXT    NOT NULL,
    request_hash TEXT    NOT NULL,
    order_id     TEXT,
    created_at   BIGINT  NOT NULL,
    expires_at   BIGINT  NOT NULL,
    PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_expiring ON idempotency_keys (expires_at);
