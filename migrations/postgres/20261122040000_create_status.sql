-- The status page (spec/accounts-and-pages.md §2.6, §3, §4.3): health checks the server makes
-- of itself, and incidents the operator records with `ferry admin incident`.
CREATE TABLE status_checks (
    component  TEXT   NOT NULL,
    status     TEXT   NOT NULL,
    latency_ms BIGINT,
    checked_at BIGINT NOT NULL
);
CREATE INDEX status_checks_by_component ON status_checks (component, checked_at);

CREATE TABLE incidents (
    id          TEXT   NOT NULL PRIMARY KEY,
    title       TEXT   NOT NULL,
    description TEXT   NOT NULL,
    status      TEXT   NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX incidents_by_time ON incidents (created_at);

CREATE TABLE incident_updates (
    incident_id TEXT   NOT NULL REFERENCES incidents (id),
    -- 0, 1, 2 … within the incident: the order updates were posted in.
    position    BIGINT NOT NULL,
    status      TEXT   NOT NULL,
    message     TEXT   NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX incident_updates_by_incident ON incident_updates (incident_id, position);
