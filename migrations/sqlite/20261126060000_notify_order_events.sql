-- On PostgreSQL new order events are announced to the other replicas (LISTEN/NOTIFY). SQLite is
-- one process, which wakes its own event streams: nothing to change here; the version keeps
-- both backends' migrations in step.
SELECT 1;
