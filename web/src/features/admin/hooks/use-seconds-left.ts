// Seconds from now until `until` (Unix milliseconds), counted down once a second; null when
// there is no end.
import { useEffect, useState } from 'react';

export function useSecondsLeft(until: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null || !Number.isFinite(until)) return;
    const tick = () => setNow(Date.now());
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [until]);
  if (until === null || !Number.isFinite(until)) return null;
  return Math.max(0, Math.ceil((until - now) / 1000));
}
