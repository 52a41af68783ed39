// After every test: the server's log must not contain any secret the tests used — passwords,
// session tokens, TOTP secrets, link tokens, client secrets (issue: secrets never in logs).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ADMIN_TOKEN } from './tests/support';

export default function globalTeardown() {
  const dir = process.env.E2E_DATA_DIR ?? '';
  const log = join(dir, 'ferry.log');
  if (!existsSync(log)) throw new Error(`no server log at ${log}`);
  const text = readFileSync(log, 'utf8');
  if (!text.includes('request')) throw new Error('the server log is empty: nothing was checked');
  const recorded = join(dir, 'secrets.txt');
  const secrets = [
    ADMIN_TOKEN,
    'e2e-secret',
    'Correct1horse',
    'Brand2newpass',
    ...(existsSync(recorded) ? readFileSync(recorded, 'utf8').split('\n') : []),
  ].filter((s) => s.length >= 6);
  const leaked = secrets.filter((secret) => text.includes(secret));
  if (leaked.length > 0) {
    throw new Error(`the server log contains ${leaked.length} secret(s) the tests used, e.g. ${leaked[0]?.slice(0, 4)}…`);
  }
  console.log(`server log checked: none of ${secrets.length} secrets appears in ${text.split('\n').length} lines`);
}
