-- Announces every new order event to the replicas listening on `ferry_order_events` (the
-- payload is the order id). NOTIFY is delivered when the writing transaction commits, so an
-- event and its announcement are never apart.
CREATE FUNCTION ferry_notify_order_event() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('ferry_order_events', NEW.order_id);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER order_events_notify
    AFTER INSERT ON order_events
    FOR EACH ROW EXECUTE FUNCTION ferry_notify_order_event();
