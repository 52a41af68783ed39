-- Replicas on one database check the same components: each interval (`slot`, the check time
-- divided by the interval) is recorded once for the whole cluster, by whichever replica comes
-- first, so uptime counts every interval once however many replicas run.
ALTER TABLE status_checks ADD COLUMN slot BIGINT;
CREATE UNIQUE INDEX status_checks_once_per_slot ON status_checks (component, slot);
