-- An order's transactions (deposit, payout, refund) with their ids, amounts, fees,
-- confirmations and times, as JSON the store parses into typed values; NULL while there are none.
ALTER TABLE orders ADD COLUMN transactions TEXT;
