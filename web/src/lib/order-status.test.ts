import { describe, expect, it } from 'vitest';

import { isFinalStatus, isRunningStatus, progressOf } from './order-status';

describe('order statuses', () => {
  it('are final only once completed or refunded: an expired order can still be paid late', () => {
    expect(['COMPLETED', 'REFUNDED'].every(isFinalStatus)).toBe(true);
    expect(['NEW', 'EXPIRED', 'FAILED', 'EMERGENCY', 'SENDING'].some(isFinalStatus)).toBe(false);
  });

  it('run from NEW to SENDING, with the progress of the spec', () => {
    expect(isRunningStatus('CONFIRMING')).toBe(true);
    expect(isRunningStatus('EXPIRED')).toBe(false);
    expect(
      ['NEW', 'CONFIRMING', 'EXCHANGE', 'SENDING', 'COMPLETED', 'WAT'].map(progressOf),
    ).toEqual([20, 40, 60, 80, 100, 20]);
  });
});
