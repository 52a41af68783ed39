// The one HTTP client of the app (spec/exchange.md §7, spec/accounts-and-pages.md §7): relative
// paths, JSON, the session cookie (same origin), and errors raised as the server's `error` or
// `message`, else '{status}: {text}'. A 204 (No Content) answers `undefined`; any other success
// must be JSON. No token is ever read from or written to storage: the
// session is the server's HttpOnly cookie (lib/auth.ts).

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(message: string, status: number, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/** Absolute URLs to an API host become same-origin `/api/...` paths. */
export function toRelativeApiPath(url: string): string {
  if (!/^https?:\/\//i.test(url)) return url;
  const parsed = new URL(url);
  const path = parsed.pathname.startsWith('/api/') ? parsed.pathname : `/api${parsed.pathname}`;
  return `${path}${parsed.search}`;
}

function messageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof error === 'string' && error) return error;
    if (typeof message === 'string' && message) return message;
  }
  return undefined;
}

export async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json');
  headers.set('Accept', 'application/json');

  const response = await fetch(toRelativeApiPath(path), {
    ...init,
    headers,
    // The session cookie goes with every call; every call is to this origin.
    credentials: 'same-origin',
  });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
  let body: unknown = undefined;
  if (isJson && text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  if (!response.ok) {
    const message = messageOf(body) ?? `${response.status}: ${text.trim() || response.statusText}`;
    throw new ApiError(message, response.status, body);
  }
  // Done, with nothing to say (`POST /api/admin/console/lock`): the caller's `T` is `void`.
  if (response.status === 204) return undefined as T;
  if (!isJson) {
    throw new ApiError('Received non-JSON response', response.status, text);
  }
  return body as T;
}

export const api = {
  request,
  get: <T>(path: string) => request<T>(path, { method: 'GET' }),
  post: <T>(path: string, body?: unknown) =>
    request<T>(path, {
      method: 'POST',
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
};
