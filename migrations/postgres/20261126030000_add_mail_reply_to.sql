-- Where replies to a mail go (the contact form's sender), as a name and an address the mailer
-- turns into a Reply-To header.
ALTER TABLE mail_outbox ADD COLUMN reply_to_name TEXT;
ALTER TABLE mail_outbox ADD COLUMN reply_to_email TEXT;
