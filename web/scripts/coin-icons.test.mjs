import { describe, expect, it } from 'vitest';

import { catalogueCoins, iconFor, paintsColour } from './coin-icons.mjs';

describe('coin icons', () => {
  it('each paints something besides white, so it shows on the light theme', async () => {
    const blank = [];
    for (const [logo, coin] of catalogueCoins()) {
      if (!paintsColour((await iconFor(logo, coin)).svg)) blank.push(logo);
    }
    expect(blank).toEqual([]);
  });

  it('puts a white mark on a disc in the coin colour', async () => {
    const xrp = catalogueCoins().get('xrp');
    const { svg } = await iconFor('xrp', xrp);
    expect(svg).toContain(`<circle cx="12" cy="12" r="12" fill="${xrp.color}"/>`);
  });
});
