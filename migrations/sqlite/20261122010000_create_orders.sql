-- Orders and their append-only status history (spec/exchange.md §3, §4).
CREATE TABLE orders (
    id                TEXT    NOT NULL PRIMARY KEY,
    status            TEXT    NOT NULL,
    rate_type         TEXT    NOT NULL,
    direction         TEXT    NOT NULL,
    provider          TEXT    NOT NULL,
    from_code         TEXT    NOT NULL,
    to_code           TEXT    NOT NULL,
    from_amount       TEXT    NOT NULL,
    to_amount         TEXT    NOT NULL,
    rate              TEXT    NOT NULL,
    from_usd          TEXT    NOT NULL,
    to_usd            TEXT    NOT NULL,
    deposit_address   TEXT    NOT NULL UNIQUE,
    deposit_tag       TEXT,
    to_address        TEXT    NOT NULL,
    to_tag            TEXT,
    refund_address    TEXT,
    refund_tag        TEXT,
    metadata          TEXT,
    owner_user_id     TEXT,
    idempotency_key   TEXT    UNIQUE,
    received_amount   TEXT,
    payout_amount     TEXT,
    emergency_reason  TEXT,
    emergency_choice  TEXT,
    created_at        BIGINT  NOT NULL,
    expires_at        BIGINT  NOT NULL,
    rate_expires_at   BIGINT,
    updated_at        BIGINT  NOT NULL,
    finished_at       BIGINT,
    next_step_at      BIGINT,
    lease_owner       TEXT,
    lease_until       BIGINT
);
CREATE INDEX orders_due ON orders (status, next_step_at);
CREATE INDEX orders_expiring ON orders (status, expires_at);
CREATE INDEX orders_finished ON orders (status, finished_at);
CREATE INDEX orders_owner ON orders (owner_user_id, created_at);

CREATE TABLE order_events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id   TEXT    NOT NULL REFERENCES orders (id),
    status     TEXT    NOT NULL,
    detail     TEXT,
    created_at BIGINT  NOT NULL
);
CREATE INDEX order_events_by_order ON order_events (order_id, id);

-- Server-wide secrets made on first start and shared by every replica (order-token key …).
CREATE TABLE app_secrets (
    name  TEXT NOT NULL PRIMARY KEY,
    value TEXT NOT NULL
);
