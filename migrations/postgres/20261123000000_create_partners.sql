-- Partners (issue #7): API keys and their webhooks, order attribution, the affiliate
-- commission ledger and payout requests.

-- Who an order is attributed to, through which key, and the partner's markup (afftax).
ALTER TABLE orders ADD COLUMN api_key_id TEXT;
ALTER TABLE orders ADD COLUMN affiliate_user_id TEXT;
ALTER TABLE orders ADD COLUMN partner_fee_percent TEXT;
-- Where the partner API's setEmail sends this order's status mails.
ALTER TABLE orders ADD COLUMN notify_email TEXT;
CREATE INDEX orders_affiliate ON orders (affiliate_user_id, created_at);
CREATE INDEX orders_api_key ON orders (api_key_id, created_at);

-- The key's id is the public X-API-KEY. Its secret is never stored: it is an HMAC of the id
-- and `salt` under the server's key secret (FERRY_KEY_SECRET), so a database reader cannot
-- sign requests.
CREATE TABLE api_keys (
    id            TEXT    NOT NULL PRIMARY KEY,
    user_id       TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name          TEXT    NOT NULL,
    permission    TEXT    NOT NULL,
    salt          TEXT    NOT NULL,
    webhook_url   TEXT,
    request_count BIGINT  NOT NULL DEFAULT 0,
    last_used_at  BIGINT,
    created_at    BIGINT  NOT NULL,
    revoked_at    BIGINT
);
CREATE INDEX api_keys_by_user ON api_keys (user_id, created_at);

-- Order-status notifications to a key's webhook, retried with backoff until `give_up_at`.
CREATE TABLE webhook_deliveries (
    id               TEXT    NOT NULL PRIMARY KEY,
    api_key_id       TEXT    NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    order_id         TEXT    NOT NULL,
    order_status     TEXT    NOT NULL,
    body             TEXT    NOT NULL,
    created_at       BIGINT  NOT NULL,
    give_up_at       BIGINT  NOT NULL,
    attempts         BIGINT  NOT NULL DEFAULT 0,
    next_attempt_at  BIGINT,
    delivered_at     BIGINT,
    last_status_code BIGINT,
    last_error       TEXT,
    lease_owner      TEXT,
    lease_until      BIGINT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at);
CREATE INDEX webhook_deliveries_by_key ON webhook_deliveries (api_key_id, created_at);

-- One commission per attributed order: pending while it runs, available when it completes,
-- reversed when it is refunded or never paid.
CREATE TABLE affiliate_commissions (
    order_id        TEXT    NOT NULL PRIMARY KEY REFERENCES orders (id),
    partner_user_id TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    state           TEXT    NOT NULL,
    volume_usd      TEXT    NOT NULL,
    amount_usd      TEXT    NOT NULL,
    amount_btc      TEXT,
    created_at      BIGINT  NOT NULL,
    updated_at      BIGINT  NOT NULL
);
CREATE INDEX affiliate_commissions_by_partner ON affiliate_commissions (partner_user_id, created_at);

-- A partner asks for their available balance; the operator pays (or rejects) it.
CREATE TABLE affiliate_payouts (
    id           TEXT    NOT NULL PRIMARY KEY,
    user_id      TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    amount_usd   TEXT    NOT NULL,
    currency     TEXT    NOT NULL,
    address      TEXT    NOT NULL,
    tag          TEXT,
    status       TEXT    NOT NULL,
    txid         TEXT,
    created_at   BIGINT  NOT NULL,
    processed_at BIGINT
);
CREATE INDEX affiliate_payouts_by_user ON affiliate_payouts (user_id, created_at);
-- At most one open request per partner, so two at once cannot both spend the balance.
CREATE UNIQUE INDEX affiliate_payouts_one_open ON affiliate_payouts (user_id) WHERE status = 'requested';
