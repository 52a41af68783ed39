// An order's status changes as the server streams them (`/api/orders/{id}/events?token=`).
// The stream stays open until the order is truly final (COMPLETED, REFUNDED): an EXPIRED order
// can still receive a late deposit and become EMERGENCY. EventSource reconnects by itself,
// resuming after the last event it saw; meanwhile `live` is false and the page polls.
import { useEffect, useEffectEvent, useState } from 'react';

import { isFinalStatus } from '@/lib/order-status';

/** Polling while the event stream is down (or was never opened: no token). */
const POLL_WITHOUT_STREAM_MS = 5_000;
/** An expired order is checked now and then, stream or not: a late deposit revives it. */
const POLL_EXPIRED_MS = 30_000;

/** How often to fetch the order again: never once it is final. */
export function pollInterval(status: string | undefined, live: boolean): number | false {
  if (!status || isFinalStatus(status)) return false;
  if (!live) return POLL_WITHOUT_STREAM_MS;
  return status === 'EXPIRED' ? POLL_EXPIRED_MS : false;
}

export interface TimelineEntry {
  id: string;
  status: string;
  detail: string | null;
  at: number;
}

/** One `status` event's data, or null when it is not the shape the server promises. */
export function parseStatusEvent(data: string): Omit<TimelineEntry, 'id'> | null {
  try {
    const parsed = JSON.parse(data) as Partial<TimelineEntry>;
    if (typeof parsed?.status !== 'string' || typeof parsed.at !== 'number') return null;
    return { status: parsed.status, detail: parsed.detail ?? null, at: parsed.at };
  } catch {
    return null;
  }
}

interface Timeline {
  /** The order these entries belong to: a new id starts an empty timeline. */
  orderId: string;
  entries: TimelineEntry[];
}

export function useOrderEvents(
  orderId: string,
  token: string | null,
  onStatus: (status: string) => void,
): { timeline: TimelineEntry[]; live: boolean } {
  const [timeline, setTimeline] = useState<Timeline>({ orderId, entries: [] });
  const [liveFor, setLiveFor] = useState<string | null>(null);
  const changed = useEffectEvent(onStatus);

  useEffect(() => {
    if (!token || typeof EventSource === 'undefined') return;
    const source = new EventSource(
      `/api/orders/${encodeURIComponent(orderId)}/events?token=${encodeURIComponent(token)}`,
    );
    source.onopen = () => setLiveFor(orderId);
    source.onerror = () => setLiveFor(null);
    source.addEventListener('status', (event) => {
      const { data, lastEventId } = event as MessageEvent<string>;
      const entry = parseStatusEvent(data);
      if (!entry) {
        console.warn('Ignored an unreadable order event', data);
        return;
      }
      setTimeline((current) => appendEntry(current, orderId, { ...entry, id: lastEventId }));
      changed(entry.status);
      // Only now will nothing more happen; until then the stream stays open.
      if (isFinalStatus(entry.status)) {
        source.close();
        setLiveFor(null);
      }
    });
    return () => {
      source.close();
      setLiveFor(null);
    };
  }, [orderId, token]);

  return {
    timeline: timeline.orderId === orderId ? timeline.entries : [],
    live: liveFor === orderId,
  };
}

function appendEntry(current: Timeline, orderId: string, entry: TimelineEntry): Timeline {
  const entries = current.orderId === orderId ? current.entries : [];
  if (entries.some((e) => e.id === entry.id)) return current;
  return { orderId, entries: [...entries, entry] };
}
