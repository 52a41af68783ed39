import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { pollInterval, useOrderEvents } from './use-order-events';

/** A stand-in for the browser's EventSource that the test drives. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  private listeners: ((event: MessageEvent<string>) => void)[] = [];

  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }

  addEventListener(_type: 'status', listener: (event: MessageEvent<string>) => void) {
    this.listeners.push(listener);
  }

  close() {
    this.closed = true;
  }

  open() {
    act(() => this.onopen?.());
  }

  fail() {
    act(() => this.onerror?.());
  }

  send(id: number, data: string) {
    const event = new MessageEvent('status', { data, lastEventId: String(id) });
    act(() => this.listeners.forEach((listener) => listener(event)));
  }

  status(id: number, status: string) {
    this.send(id, JSON.stringify({ status, progress: 20, detail: null, at: 1_700_000_000 + id }));
  }
}

const latest = () => FakeEventSource.opened.at(-1)!;

beforeEach(() => {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => vi.unstubAllGlobals());

describe("an order's event stream", () => {
  it('listens with the token, and survives an unreadable event', () => {
    const onStatus = vi.fn();
    const { result } = renderHook(() => useOrderEvents('ORD1', 'tok en', onStatus));
    expect(latest().url).toBe('/api/orders/ORD1/events?token=tok%20en');
    latest().open();
    latest().status(1, 'NEW');
    latest().send(2, '{not json');
    latest().send(3, JSON.stringify({ unexpected: true }));
    latest().status(4, 'CONFIRMING');
    expect(result.current.timeline.map((e) => e.status)).toEqual(['NEW', 'CONFIRMING']);
    expect(onStatus).toHaveBeenCalledTimes(2);
    expect(console.warn).toHaveBeenCalledTimes(2);
  });

  it('keeps listening after EXPIRED (a late deposit may follow) and stops once final', () => {
    const { result } = renderHook(() => useOrderEvents('ORD1', 'tok', () => {}));
    latest().open();
    latest().status(1, 'EXPIRED');
    expect(latest().closed).toBe(false);
    expect(result.current.live).toBe(true);
    latest().status(2, 'EMERGENCY');
    latest().status(3, 'REFUNDED');
    expect(latest().closed).toBe(true);
    expect(result.current.timeline.map((e) => e.status)).toEqual([
      'EXPIRED',
      'EMERGENCY',
      'REFUNDED',
    ]);
  });

  it('says when the stream is down, so the page polls', () => {
    const { result } = renderHook(() => useOrderEvents('ORD1', 'tok', () => {}));
    expect(result.current.live).toBe(false);
    latest().open();
    expect(result.current.live).toBe(true);
    latest().fail();
    expect(result.current.live).toBe(false);
    latest().open();
    expect(result.current.live).toBe(true);
  });

  it('starts an empty timeline for another order, and closes the old stream', () => {
    const { result, rerender } = renderHook(({ id }) => useOrderEvents(id, 'tok', () => {}), {
      initialProps: { id: 'ORD1' },
    });
    const first = latest();
    first.open();
    first.status(1, 'NEW');
    rerender({ id: 'ORD2' });
    expect(first.closed).toBe(true);
    expect(result.current.timeline).toEqual([]);
    expect(result.current.live).toBe(false);
    // A late event of the old stream does not leak into the new timeline.
    first.status(2, 'CONFIRMING');
    expect(result.current.timeline).toEqual([]);
    latest().status(1, 'NEW');
    expect(result.current.timeline.map((e) => e.status)).toEqual(['NEW']);
  });
});

describe('polling the order', () => {
  it('polls while the stream is down, slowly on an expired order, never once final', () => {
    expect(pollInterval('CONFIRMING', false)).toBe(5_000);
    expect(pollInterval('CONFIRMING', true)).toBe(false);
    expect(pollInterval('EXPIRED', true)).toBe(30_000);
    expect(pollInterval('EXPIRED', false)).toBe(5_000);
    expect(pollInterval('FAILED', false)).toBe(5_000);
    expect(pollInterval('COMPLETED', false)).toBe(false);
    expect(pollInterval('REFUNDED', false)).toBe(false);
  });
});
