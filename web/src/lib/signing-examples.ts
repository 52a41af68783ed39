// Ready-to-run examples of the partner API's signature (X-API-SIGN = lowercase hex
// HMAC-SHA256 of the exact body bytes, keyed with the API secret) and of checking a webhook's
// X-Ferry-Signature. Shown on /api-docs and, with the user's key filled in, on /api-management.

export interface Snippets {
  curl: string;
  python: string;
  javascript: string;
}

const SAMPLE_BODY =
  '{"type":"float","fromCcy":"BTC","toCcy":"ETH","direction":"from","amount":"0.1"}';

export function signingExamples(origin: string, apiKey = 'YOUR_API_KEY'): Snippets {
  const base = origin.replace(/\/+$/, '');
  return {
    curl: [
      `API_KEY='${apiKey}'`,
      "API_SECRET='YOUR_API_SECRET'",
      `BODY='${SAMPLE_BODY}'`,
      `SIGN=$(printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$API_SECRET" | sed 's/^.* //')`,
      `curl -X POST "${base}/api/v2/price" \\`,
      "  -H 'Content-Type: application/json' \\",
      '  -H "X-API-KEY: $API_KEY" -H "X-API-SIGN: $SIGN" \\',
      '  -d "$BODY"',
    ].join('\n'),
    python: [
      'import hashlib, hmac, json',
      'import requests',
      '',
      `BASE = "${base}/api/v2"`,
      `API_KEY = "${apiKey}"`,
      'API_SECRET = "YOUR_API_SECRET"',
      '',
      'def call(method, payload):',
      '    body = json.dumps(payload)  # sign exactly the bytes you send',
      '    sign = hmac.new(API_SECRET.encode(), body.encode(), hashlib.sha256).hexdigest()',
      '    answer = requests.post(f"{BASE}/{method}", data=body.encode(), headers={',
      '        "Content-Type": "application/json; charset=UTF-8",',
      '        "X-API-KEY": API_KEY, "X-API-SIGN": sign,',
      '    }).json()',
      '    if answer["code"] != 0:',
      "        raise RuntimeError(f\"{answer['code']}: {answer['msg']}\")",
      '    return answer["data"]',
      '',
      'print(call("price", {"type": "float", "fromCcy": "BTC", "toCcy": "ETH",',
      '                     "direction": "from", "amount": "0.1"}))',
    ].join('\n'),
    javascript: [
      "import { createHmac } from 'node:crypto';",
      '',
      `const BASE = '${base}/api/v2';`,
      `const API_KEY = '${apiKey}';`,
      "const API_SECRET = 'YOUR_API_SECRET';",
      '',
      'async function call(method, payload) {',
      '  const body = JSON.stringify(payload); // sign exactly the bytes you send',
      "  const sign = createHmac('sha256', API_SECRET).update(body).digest('hex');",
      '  const response = await fetch(`${BASE}/${method}`, {',
      "    method: 'POST',",
      "    headers: { 'Content-Type': 'application/json', 'X-API-KEY': API_KEY, 'X-API-SIGN': sign },",
      '    body,',
      '  });',
      '  const answer = await response.json();',
      '  if (answer.code !== 0) throw new Error(`${answer.code}: ${answer.msg}`);',
      '  return answer.data;',
      '}',
      '',
      "console.log(await call('price', { type: 'float', fromCcy: 'BTC', toCcy: 'ETH', direction: 'from', amount: '0.1' }));",
    ].join('\n'),
  };
}

/** Checking a webhook: recompute the signature over the raw body before parsing it. */
export function webhookExamples(): Omit<Snippets, 'curl'> {
  return {
    python: [
      'import hashlib, hmac, json, time',
      '',
      'WEBHOOK_SECRET = b"YOUR_WEBHOOK_SECRET"',
      '',
      'def verify(raw_body: bytes, signature: str, timestamp: str) -> dict:',
      '    expected = hmac.new(WEBHOOK_SECRET, raw_body, hashlib.sha256).hexdigest()',
      '    if not hmac.compare_digest(expected, signature):',
      '        raise ValueError("bad signature")',
      '    event = json.loads(raw_body)',
      '    if str(event["timestamp"]) != timestamp or abs(time.time() - event["timestamp"]) > 86400:',
      '        raise ValueError("stale or replayed")',
      '    return event  # event["status"], event["data"] = the order object',
    ].join('\n'),
    javascript: [
      "import { createHmac, timingSafeEqual } from 'node:crypto';",
      '',
      "const WEBHOOK_SECRET = 'YOUR_WEBHOOK_SECRET';",
      '',
      'export function verify(rawBody, signature, timestamp) {',
      "  const expected = createHmac('sha256', WEBHOOK_SECRET).update(rawBody).digest('hex');",
      '  const given = Buffer.from(signature, "utf8");',
      '  if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) {',
      "    throw new Error('bad signature');",
      '  }',
      '  const event = JSON.parse(rawBody);',
      "  if (String(event.timestamp) !== timestamp) throw new Error('replayed');",
      '  return event; // event.status, event.data = the order object',
      '}',
    ].join('\n'),
  };
}
