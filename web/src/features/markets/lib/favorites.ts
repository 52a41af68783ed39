// Favourite coins, kept in localStorage so they survive a reload (the spec's page lost them).
import { useCallback, useState } from 'react';

export const FAVORITES_KEY = 'marketFavorites';

function read(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(FAVORITES_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function useFavorites() {
  const [favorites, setFavorites] = useState<string[]>(read);
  const toggle = useCallback((id: string) => {
    setFavorites((current) => {
      const next = current.includes(id) ? current.filter((f) => f !== id) : [...current, id];
      try {
        localStorage.setItem(FAVORITES_KEY, JSON.stringify(next));
      } catch {
        // Storage unavailable: the choice lasts for this page only.
      }
      return next;
    });
  }, []);
  return { favorites, toggle };
}
