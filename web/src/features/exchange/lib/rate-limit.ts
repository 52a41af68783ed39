// The rate-limit state of spec/exchange.md §4: after a 429 the client stops asking until the
// time in the message ('until <number>') or for two minutes.
import { TIMINGS } from './constants';

/** When quoting may resume, in epoch milliseconds. */
export function resumeAt(message: string, now = Date.now()): number {
  const match = /until\s+(\d+)/i.exec(message);
  if (match?.[1]) {
    const value = Number(match[1]);
    // Unix seconds, or milliseconds when the number is that large.
    const ms = value > 1e12 ? value : value * 1000;
    if (ms > now) return ms;
  }
  return now + TIMINGS.rateLimitPauseMs;
}

export class RateLimitState {
  private until = 0;

  pause(message: string, now = Date.now()): void {
    this.until = resumeAt(message, now);
  }

  isPaused(now = Date.now()): boolean {
    return now < this.until;
  }

  resumesAt(): number {
    return this.until;
  }
}
