// Mails the server sent to the test's SMTP server (servers/smtp-sink.mjs), and TOTP codes
// computed independently of the server (RFC 6238: HMAC-SHA1, 30 s steps, 6 digits).
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expect } from '@playwright/test';

/** The text of a quoted-printable body: soft line breaks removed, =XX decoded as UTF-8. */
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function readMails(): string[] {
  const dir = process.env.E2E_MAIL_DIR ?? '';
  let files: string[] = [];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files.map((file) => {
    const raw = readFileSync(join(dir, file), 'utf8');
    return /quoted-printable/i.test(raw) ? decodeQuotedPrintable(raw) : raw;
  });
}

/** Waits for a mail to `recipient` containing a link to `path`; answers that link. */
export async function mailedLink(recipient: string, path: string, after = 0): Promise<string> {
  let link = '';
  await expect
    .poll(
      () => {
        const mails = readMails().filter((m) => m.includes(`To: ${recipient}`));
        const matches = mails
          .slice(after)
          .map((m) => m.match(new RegExp(`https?://\\S+${path}\\?token=[A-Za-z0-9_-]+`))?.[0])
          .filter((m): m is string => Boolean(m));
        link = matches.at(-1) ?? '';
        return link;
      },
      { timeout: 15_000 },
    )
    .not.toBe('');
  return link;
}

/** How many mails `recipient` has received so far. */
export function mailCount(recipient: string): number {
  return readMails().filter((m) => m.includes(`To: ${recipient}`)).length;
}

function base32(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => parseInt(b, 2)));
}

export function totp(secret: string, unixSeconds: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSeconds / 30)));
  const digest = createHmac('sha1', base32(secret)).update(counter).digest();
  const offset = (digest[digest.length - 1] ?? 0) & 0xf;
  const code = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(code).padStart(6, '0');
}

/** Seconds now, moved off the last seconds of a step so test and server agree on it. */
export async function nowInsideAStep(): Promise<number> {
  for (;;) {
    const now = Math.floor(Date.now() / 1000);
    if (now % 30 < 25) return now;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
