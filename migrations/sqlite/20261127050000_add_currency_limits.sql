-- Issue 22: the operator's maintenance (with the message customers see) and the least and most a
-- customer may send of a currency, on top of the provider's limits. Amounts are decimal text.
ALTER TABLE currency_overrides ADD COLUMN maintenance_message TEXT;
ALTER TABLE currency_overrides ADD COLUMN min_amount TEXT;
ALTER TABLE currency_overrides ADD COLUMN max_amount TEXT;
