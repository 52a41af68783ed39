// Writes public/coins/<logo>.svg for every coin of the catalogue: the coin's mark from the
// @web3icons/core package where it has one, else a disc in the coin's colour with its ticker.
// Everything is served by Ferry itself; nothing is hot-linked.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const icons = join(
  dirname(createRequire(import.meta.url).resolve('@web3icons/core')),
  'svgs/tokens/branded',
);
const NO_PAINT = new Set(['none', '#fff', '#ffffff', 'white']);

export function catalogueCoins() {
  const catalogue = JSON.parse(readFileSync(join(here, '../../catalogue/currencies.json'), 'utf8'));
  const coins = new Map();
  for (const c of catalogue.currencies) if (!coins.has(c.logo)) coins.set(c.logo, c);
  return coins;
}

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

/** Whether an SVG paints anything a white page would show. */
export function paintsColour(svg) {
  const paints = [...svg.matchAll(/(?:fill|stroke|stop-color)="([^"]+)"/g)].map((m) =>
    m[1].toLowerCase(),
  );
  return paints.some((paint) => !NO_PAINT.has(paint));
}

/** Some branded marks are white, drawn for a coloured tile: they get a disc in the coin's colour
 * (or a dark one where that colour is too light for white), scaled to sit inside it. */
function onDisc(svg, color) {
  const background = textColorOn(color) === '#ffffff' ? color : '#0f172a';
  return svg
    .replace(
      /(<svg[^>]*>)/,
      `$1<circle cx="12" cy="12" r="12" fill="${background}"/><g transform="translate(12 12) scale(0.78) translate(-12 -12)">`,
    )
    .replace(/<\/svg>/, '</g></svg>');
}

/** The icon written for a coin of the catalogue. */
export async function iconFor(logo, coin) {
  let svg;
  try {
    svg = (await import(pathToFileURL(join(icons, `${logo.toUpperCase()}.svg.js`)).href)).default;
  } catch {
    return { svg: disc(coin.coin, coin.color), branded: false };
  }
  return { svg: paintsColour(svg) ? svg : onDisc(svg, coin.color), branded: true };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = join(here, '../public/coins');
  mkdirSync(out, { recursive: true });
  const coins = catalogueCoins();
  let branded = 0;
  for (const [logo, coin] of coins) {
    const icon = await iconFor(logo, coin);
    if (icon.branded) branded += 1;
    writeFileSync(join(out, `${logo}.svg`), icon.svg);
  }
  console.log(`coin icons: ${branded} branded, ${coins.size - branded} drawn`);
}
