-- Issue 22: the back office finds an order by any of its keys. `orders_deposit` leads with the
-- provider and is partial, so it cannot answer a lookup by address alone; transaction ids live
-- only in the JSON of `orders.transactions`, so they are copied into a table of their own
-- (written with every order change from now on). No foreign key: `ferry db copy` copies tables
-- in any order, and an order is never deleted.
CREATE INDEX orders_by_deposit_address ON orders (deposit_address);
CREATE INDEX orders_by_to_address ON orders (to_address);
CREATE INDEX orders_by_provider_order ON orders (provider_order_id) WHERE provider_order_id IS NOT NULL;
CREATE INDEX orders_by_notify_email ON orders (notify_email) WHERE notify_email IS NOT NULL;
CREATE INDEX orders_by_created ON orders (created_at, id);
CREATE TABLE order_txids (
    txid     TEXT NOT NULL,
    order_id TEXT NOT NULL,
    side     TEXT NOT NULL,
    PRIMARY KEY (txid, order_id, side)
);
INSERT INTO order_txids (txid, order_id, side)
SELECT json_extract(o.transactions, '$.' || s.side || '.id'), o.id, s.side
FROM orders o, (SELECT 'deposit' AS side UNION ALL SELECT 'payout' UNION ALL SELECT 'refund') s
WHERE o.transactions IS NOT NULL AND json_extract(o.transactions, '$.' || s.side || '.id') IS NOT NULL;
