-- Issue 22: an operator locks an account (a stolen one, say): its sessions end, and no
-- sign-in opens a new one until it is unlocked. NULL: not locked.
ALTER TABLE users ADD COLUMN locked_at BIGINT;
-- The back office lists accounts newest first.
CREATE INDEX users_by_created ON users (created_at, id);
