import { afterEach, describe, expect, it, vi } from 'vitest';

import { api, ApiError, toRelativeApiPath } from './api-client';

function respond(status: number, body: string, contentType = 'application/json') {
  const fetchMock = vi.fn().mockResolvedValue(
    // A 204 may carry no body at all (the Fetch standard refuses even an empty one).
    new Response(status === 204 ? null : body, {
      status,
      statusText: 'Status Text',
      headers: { 'content-type': contentType },
    }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('the API client (spec/exchange.md §7)', () => {
  it('sends JSON with the session cookie and never an Authorization header', async () => {
    const fetchMock = respond(200, '{"ok":true}');
    await expect(api.get('/api/config')).resolves.toEqual({ ok: true });
    const [path, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    const headers = new Headers(init.headers);
    expect(path).toBe('/api/config');
    expect(init.credentials).toBe('same-origin');
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.has('authorization')).toBe(false);
  });

  it('ignores a token an older version left in localStorage: the cookie is the session', async () => {
    localStorage.setItem('authToken', 'tok-123');
    const fetchMock = respond(200, '{}');
    await api.post('/api/logout');
    const init = fetchMock.mock.calls[0]?.[1] as RequestInit;
    expect(new Headers(init.headers).has('authorization')).toBe(false);
  });

  it("raises the server's error field first", async () => {
    respond(400, '{"error":"Bad code","message":"ignored"}');
    await expect(api.get('/api/x')).rejects.toThrow('Bad code');
  });

  it("then the server's message field", async () => {
    respond(422, '{"message":"Password too short"}');
    await expect(api.get('/api/x')).rejects.toThrow('Password too short');
  });

  it("else '{status}: {text}'", async () => {
    respond(502, 'Bad Gateway', 'text/plain');
    const error = await api.get('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('502: Bad Gateway');
    expect((error as ApiError).status).toBe(502);
  });

  it('treats a successful non-JSON answer as an error', async () => {
    respond(200, '<html></html>', 'text/html');
    await expect(api.get('/api/contact')).rejects.toThrow('Received non-JSON response');
  });

  it('answers undefined to a 204 with an empty body, whatever its content type', async () => {
    respond(204, '', '');
    await expect(api.post('/api/admin/console/lock')).resolves.toBeUndefined();
  });

  it('still refuses any other success without JSON, even an empty 200', async () => {
    respond(200, '', 'text/plain');
    await expect(api.post('/api/admin/console/lock')).rejects.toThrow('Received non-JSON response');
  });

  it('rewrites absolute API URLs to same-origin /api paths', () => {
    expect(toRelativeApiPath('https://provider.example/api/exchange-rate?x=1')).toBe(
      '/api/exchange-rate?x=1',
    );
    expect(toRelativeApiPath('https://provider.example/orders')).toBe('/api/orders');
    expect(toRelativeApiPath('/api/user')).toBe('/api/user');
  });
});
