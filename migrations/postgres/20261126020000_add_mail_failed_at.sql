-- When the SMTP server refused a mail for good (a 5xx reply): it is kept for the record and
-- never sent again.
ALTER TABLE mail_outbox ADD COLUMN failed_at BIGINT;
