/**
 * An outside client of the HTTP API: fetch, JSON in and out, a bearer token (a personal access token made the way a
 * user makes one: sign in, then POST /api/auth/tokens). Every answer is checked to be JSON or an expected type, so a
 * journey that gets an HTML error page or a stack trace fails on the spot.
 */
import { expect } from 'vitest';
import { OWNER } from './server';

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export class Client {
  constructor(
    readonly baseURL: string,
    readonly headers: Record<string, string> = {},
  ) {}

  /** The same server with other default headers (another token, a language). */
  with(headers: Record<string, string>): Client {
    return new Client(this.baseURL, { ...this.headers, ...headers });
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const init: RequestInit = { method, headers: { ...this.headers, ...headers } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.baseURL + path, init);
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    // Never a stack trace, whatever the status.
    expect(text, `${method} ${path}`).not.toMatch(/\n\s+at [\w.<>]+ \(/);
    return { status: res.status, headers: res.headers, body: parsed as T, text } satisfies Answer<T>;
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body, headers);
  }
  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', path, body, headers);
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, undefined, headers);
  }

  /** `path` answered with `status`; the answer's body. */
  async expectStatus<T = any>(answer: Promise<Answer<T>>, status: number): Promise<T> {
    const a = await answer;
    expect(a.status, a.text.slice(0, 2000)).toBe(status);
    return a.body;
  }
}

/** Signs in as the owner the server created at start-up and makes a personal access token for the suite. */
export async function ownerClient(baseURL: string): Promise<Client> {
  const login = await fetch(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: OWNER.email, password: OWNER.password }),
  });
  if (login.status !== 200) throw new Error(`owner sign-in: ${login.status} ${await login.text()}`);
  const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
  // A cookie request that changes something must come from the app's own origin (CSRF check).
  const tok = await fetch(`${baseURL}/api/auth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: baseURL },
    body: JSON.stringify({ name: `acceptance ${Date.now()}` }),
  });
  if (tok.status !== 201) throw new Error(`token: ${tok.status} ${await tok.text()}`);
  const { token } = (await tok.json()) as { token: string };
  return new Client(baseURL, { authorization: `Bearer ${token}` });
}
