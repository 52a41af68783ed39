// Writes a .br and a .gz beside every compressible file of dist/, so the server can send them
// as they are (it picks one by Accept-Encoding) instead of compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|xml|map|webmanifest)$/;
const root = new URL('../dist', import.meta.url).pathname;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let count = 0;
// Prerendered pages are not served as files: the server writes them into the page's HTML.
const prerendered = join(root, 'prerender');
for (const path of files(root)) {
  if (!COMPRESSIBLE.test(path) || path.startsWith(prerendered)) continue;
  const data = readFileSync(path);
  writeFileSync(
    `${path}.br`,
    brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  );
  writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
  count += 1;
}
console.log(`compressed ${count} files (brotli + gzip)`);
