import { clsx, type ClassValue } from 'clsx';

/** Joins class names. Components put overridable classes last instead of merging conflicts. */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
