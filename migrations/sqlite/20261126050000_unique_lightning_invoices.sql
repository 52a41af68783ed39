-- A Lightning invoice can be paid once: it is the destination of one order only (Ferry keeps
-- invoices lower case, without a `lightning:` prefix). The index also answers "was it given
-- before?" when a customer enters one.
CREATE UNIQUE INDEX orders_lightning_invoice ON orders (to_address) WHERE to_code = 'BTCLN';
