// A real SMTP server for the end-to-end tests: accepts every message and writes it, raw, as
// one .eml file per mail into E2E_MAIL_DIR, where the tests read it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { SMTPServer } from 'smtp-server';

const port = Number(process.env.E2E_SMTP_PORT);
const dir = process.env.E2E_MAIL_DIR;
mkdirSync(dir, { recursive: true });
let count = 0;

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      count += 1;
      const name = `${Date.now()}-${String(count).padStart(4, '0')}.eml`;
      writeFileSync(join(dir, name), Buffer.concat(chunks));
      callback();
    });
  },
});
server.listen(port, '127.0.0.1');
