-- Issue 17: orders for real funds (see the SQLite migration of the same name for the reasons).
ALTER TABLE orders DROP CONSTRAINT orders_deposit_address_key;
ALTER TABLE orders DROP COLUMN idempotency_key;
ALTER TABLE orders ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN fee_percent TEXT;
UPDATE orders SET fee_percent = CASE rate_type WHEN 'fixed' THEN '1' ELSE '0.5' END;
ALTER TABLE orders ALTER COLUMN fee_percent SET NOT NULL;
CREATE INDEX orders_next_step ON orders (next_step_at);
CREATE UNIQUE INDEX orders_deposit ON orders (provider, deposit_address, COALESCE(deposit_tag, ''))
    WHERE provider_order_id IS NULL;
CREATE UNIQUE INDEX orders_upstream ON orders (provider, provider_order_id)
    WHERE provider_order_id IS NOT NULL;

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
