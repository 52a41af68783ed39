-- Messages sent with the contact form (spec/accounts-and-pages.md §2.14, §3).
CREATE TABLE contact_messages (
    id         TEXT   NOT NULL PRIMARY KEY,
    name       TEXT   NOT NULL,
    email      TEXT   NOT NULL,
    subject    TEXT   NOT NULL,
    category   TEXT   NOT NULL,
    message    TEXT   NOT NULL,
    user_id    TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX contact_messages_by_time ON contact_messages (created_at);
