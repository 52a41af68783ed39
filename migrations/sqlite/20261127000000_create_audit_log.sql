-- Issue 22: who did what in the back office, written in the same transaction as the change.
-- Append-only: the application only inserts, and triggers refuse UPDATE and DELETE. No foreign
-- keys: the actor is a snapshot, and deleting a user keeps their entries.
CREATE TABLE audit_log (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    at           BIGINT  NOT NULL,
    actor        TEXT    NOT NULL,  -- 'user:<id>', 'token' or 'cli'
    actor_email  TEXT,
    actor_role   TEXT    NOT NULL,
    action       TEXT    NOT NULL,  -- 'currency.set', 'incident.open', 'payout.close' …
    subject_kind TEXT    NOT NULL,  -- 'order', 'currency', 'incident', 'payout', 'sandbox' …
    subject_id   TEXT    NOT NULL,
    reason       TEXT,
    client_ip    TEXT    NOT NULL,
    user_agent   TEXT    NOT NULL,
    before_json  TEXT,
    after_json   TEXT,
    request_key  TEXT,              -- the request's Idempotency-Key, if it sent one
    request_hash TEXT
);
CREATE UNIQUE INDEX audit_log_request ON audit_log (actor, request_key) WHERE request_key IS NOT NULL;
CREATE INDEX audit_log_by_time ON audit_log (at, id);
CREATE INDEX audit_log_by_subject ON audit_log (subject_kind, subject_id, id);
CREATE INDEX audit_log_by_actor ON audit_log (actor, id);
CREATE INDEX audit_log_by_action ON audit_log (action, id);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;
