-- Issue 22: the back office answers contact messages: which order a message is about, and
-- when (and by whom) it was answered. An unanswered message about an order puts the order in
-- the Needs-a-person queue.
ALTER TABLE contact_messages ADD COLUMN order_id TEXT;
ALTER TABLE contact_messages ADD COLUMN answered_at BIGINT;
ALTER TABLE contact_messages ADD COLUMN answered_by TEXT;
CREATE INDEX contact_messages_open ON contact_messages (answered_at, created_at);
CREATE INDEX contact_messages_by_order ON contact_messages (order_id) WHERE order_id IS NOT NULL;
