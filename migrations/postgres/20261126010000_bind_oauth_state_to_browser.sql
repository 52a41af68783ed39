-- Issue 25: an OAuth flow is bound to the browser that started it (a hash of a short-lived
-- HttpOnly cookie), so a link from someone else's flow signs nobody in.
ALTER TABLE oauth_states ADD COLUMN browser_hash TEXT;
