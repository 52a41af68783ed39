-- Issue 22: operators are users with a role; NULL is a customer.
ALTER TABLE users ADD COLUMN operator_role TEXT
    CHECK (operator_role IN ('support', 'operator', 'owner'));
CREATE INDEX users_operators ON users (operator_role) WHERE operator_role IS NOT NULL;
-- When this session last proved the second factor or used the console: the console opens only
-- within FERRY_CONSOLE_IDLE_SECONDS of it. NULL: the console is locked for this session.
ALTER TABLE sessions ADD COLUMN console_seen_at BIGINT;
