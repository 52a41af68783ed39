-- The language a user reads the site in: their mails are written in it.
ALTER TABLE users ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
