import catalogue from '@catalogue';
import { describe, expect, it } from 'vitest';

import { HOME_PAIR, INITIAL_PAIR } from './constants';
import { STARTING_CURRENCIES } from './starting-currencies';

describe('the coins the widget opens with', () => {
  it('are the catalogue entries of the initial and the home pair', () => {
    const codes = STARTING_CURRENCIES.map((c) => c.code);
    for (const code of [INITIAL_PAIR.from, INITIAL_PAIR.to, HOME_PAIR.from, HOME_PAIR.to]) {
      expect(codes).toContain(code);
    }
    for (const known of STARTING_CURRENCIES) {
      const entry = catalogue.currencies.find((c) => c.code === known.code);
      expect(entry, known.code).toBeDefined();
      expect({ ...entry, send: 1, recv: 1 }).toMatchObject(known);
    }
  });
});
