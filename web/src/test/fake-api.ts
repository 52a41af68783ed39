// A stand-in for the server in component tests: `fetch` answers from route handlers, and every
// call is recorded. Handlers may hold an answer back (see `deferred`) to test late answers.
import { vi } from 'vitest';

export interface FakeRequest {
  method: string;
  path: string;
  /** The path with its query (`?q=…`). */
  url: string;
  body: unknown;
  headers: Headers;
}

export type Handler = (request: FakeRequest) => Response | Promise<Response>;

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export function fakeApi(routes: Record<string, Handler>) {
  const calls: FakeRequest[] = [];
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const request: FakeRequest = {
      method: init.method ?? 'GET',
      path: input.split('?')[0] ?? input,
      url: input,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: new Headers(init.headers),
    };
    calls.push(request);
    const handler = routes[`${request.method} ${request.path}`];
    return handler ? handler(request) : json(404, { error: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  const callsTo = (route: string) => calls.filter((c) => `${c.method} ${c.path}` === route);
  return { calls, callsTo };
}

/** A promise settled from outside: an answer the test releases when it chooses. */
export function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
