// Fails the build when the JavaScript that `/` loads up front exceeds the budget (gzip).
// Only the entry chunk and what index.html preloads count: lazy routes and languages load later.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 150;
const dist = new URL('../dist/', import.meta.url);
const html = readFileSync(new URL('index.html', dist), 'utf8');
const scripts = [
  ...html.matchAll(/<script[^>]+src="\/([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g),
].map((m) => m[1]);

let total = 0;
for (const file of new Set(scripts)) {
  const size = gzipSync(readFileSync(new URL(file, dist))).length;
  total += size;
  console.log(`  ${file}: ${(size / 1024).toFixed(1)} KB gzip`);
}
const kb = total / 1024;
console.log(`initial JavaScript: ${kb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`);
if (kb > BUDGET_KB) {
  console.error(`over budget by ${(kb - BUDGET_KB).toFixed(1)} KB`);
  process.exit(1);
}
