// Writes public/coins/<logo>.svg for every coin of the catalogue: the coin's mark from the
// @web3icons/core package where it has one, else a disc in the coin's colour with its ticker.
// Everything is served by Ferry itself; nothing is hot-linked.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const catalogue = JSON.parse(readFileSync(join(here, '../../catalogue/currencies.json'), 'utf8'));
const out = join(here, '../public/coins');
mkdirSync(out, { recursive: true });
const icons = join(
  dirname(createRequire(import.meta.url).resolve('@web3icons/core')),
  'svgs/tokens/branded',
);

function textColorOn(hex) {
  const channel = (i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? '#ffffff' : '#0f172a';
}

function disc(ticker, color) {
  const letters = ticker.slice(0, ticker.length > 4 ? 3 : 4).toUpperCase();
  const size = letters.length > 3 ? 7 : 8.5;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="12" fill="${color}"/><text x="12" y="12" fill="${textColorOn(color)}" font-family="system-ui,sans-serif" font-size="${size}" font-weight="700" text-anchor="middle" dominant-baseline="central">${letters}</text></svg>\n`;
}

const seen = new Map();
for (const c of catalogue.currencies) if (!seen.has(c.logo)) seen.set(c.logo, c);

let branded = 0;
for (const [logo, currency] of seen) {
  let svg;
  try {
    svg = (await import(pathToFileURL(join(icons, `${logo.toUpperCase()}.svg.js`)).href)).default;
    branded += 1;
  } catch {
    svg = disc(currency.coin, currency.color);
  }
  writeFileSync(join(out, `${logo}.svg`), svg);
}
console.log(`coin icons: ${branded} branded, ${seen.size - branded} drawn`);
