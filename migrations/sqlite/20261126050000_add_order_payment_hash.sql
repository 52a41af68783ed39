-- A Lightning payout's payment hash: a payment settles its hash, however the invoice is spelled
-- (and a payee may sign several invoices for one hash), so one order pays each hash once. The
-- index also answers "was it given before?" when a customer enters an invoice.
ALTER TABLE orders ADD COLUMN payment_hash TEXT;
CREATE UNIQUE INDEX orders_payment_hash ON orders (payment_hash) WHERE payment_hash IS NOT NULL;
