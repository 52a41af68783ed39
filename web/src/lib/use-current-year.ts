import { useSyncExternalStore } from 'react';

declare const __BUILD_YEAR__: number;

const noSubscription = () => () => undefined;

/**
 * This year. Pages prerendered at build time show the build's year, and the app must first
 * render what they show to take them over; it moves on to the current year right after.
 */
export function useCurrentYear(): number {
  return useSyncExternalStore(
    noSubscription,
    () => new Date().getFullYear(),
    () => __BUILD_YEAR__,
  );
}
