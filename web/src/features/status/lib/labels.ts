// Status labels (spec/accounts-and-pages.md §4.3): services and networks are operational,
// degraded, outage or congested; incidents resolved or monitoring (and Ferry's investigating,
// identified); anything else is Unknown. Congestion draws a bar of 25, 50 or 90.
export const KNOWN_LABELS = [
  'operational',
  'degraded',
  'outage',
  'congested',
  'resolved',
  'monitoring',
  'investigating',
  'identified',
] as const;
export type StatusLabel = (typeof KNOWN_LABELS)[number] | 'unknown';

export function labelOf(status: string): StatusLabel {
  const lower = status.toLowerCase();
  return (KNOWN_LABELS as readonly string[]).includes(lower) ? (lower as StatusLabel) : 'unknown';
}

export function congestionBar(level: string | null): number | null {
  return level === 'low' ? 25 : level === 'medium' ? 50 : level === 'high' ? 90 : null;
}

export function toneOf(label: StatusLabel): 'good' | 'warn' | 'bad' | 'neutral' {
  if (label === 'operational' || label === 'resolved') return 'good';
  if (label === 'outage') return 'bad';
  if (label === 'unknown') return 'neutral';
  return 'warn';
}
