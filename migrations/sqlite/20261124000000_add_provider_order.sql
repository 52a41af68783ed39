-- An order filled by an upstream provider (FixedFloat v2 API) is followed by its id and token
-- there; NULL for orders the built-in sandbox fills.
ALTER TABLE orders ADD COLUMN provider_order_id TEXT;
ALTER TABLE orders ADD COLUMN provider_order_token TEXT;
