import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import { signingExamples, webhookExamples } from './signing-examples';

describe('signing examples', () => {
  it('name the site, the key and every header the server checks', () => {
    const { curl, python, javascript } = signingExamples('https://ferry.example/', 'k3y');
    for (const snippet of [curl, python, javascript]) {
      expect(snippet).toContain('https://ferry.example/api/v2');
      expect(snippet).toContain('k3y');
      expect(snippet).toContain('X-API-KEY');
      expect(snippet).toContain('X-API-SIGN');
    }
    expect(curl).toContain('openssl dgst -sha256 -hmac');
    expect(python).toContain('hashlib.sha256');
  });

  it('sign the body the way the server verifies it', async () => {
    const { javascript } = signingExamples('http://127.0.0.1:9');
    const sent: { body: string; sign: string }[] = [];
    const fetchStub = (_url: string, init: { body: string; headers: Record<string, string> }) => {
      sent.push({ body: init.body, sign: init.headers['X-API-SIGN'] ?? '' });
      return Promise.resolve({ json: () => Promise.resolve({ code: 0, msg: 'OK', data: 1 }) });
    };
    const runnable = javascript
      .replace("import { createHmac } from 'node:crypto';", '')
      .replace(/^console\.log\(await (.*)\);$/m, 'return await $1;');
    // The snippet runs as written, with fetch stubbed and the real createHmac.
    const run = new Function('createHmac', 'fetch', `return (async () => { ${runnable} })();`) as (
      h: typeof createHmac,
      f: typeof fetchStub,
    ) => Promise<unknown>;
    await expect(run(createHmac, fetchStub)).resolves.toBe(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.sign).toBe(
      createHmac('sha256', 'YOUR_API_SECRET').update(sent[0]!.body).digest('hex'),
    );
  });

  it('check webhooks in constant time over the raw body', () => {
    const { python, javascript } = webhookExamples();
    expect(python).toContain('hmac.compare_digest');
    expect(javascript).toContain('timingSafeEqual');
  });
});
