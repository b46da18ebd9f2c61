/**
 * Helpers for the API tests: call a Next route handler directly with a real `Request`, and record every answer so a
 * test can assert that nothing was ever a 500 or leaked a stack trace.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { getApp } from '@/lib/server/app';
import { ownerToken } from '../support/owner';
import { seedDataDir } from '../support/pglite-template';

type Handler = (req: Request, ctx: any) => Promise<Response>;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** Every answer seen in this process (method, url, status, body text). */
export const seen: Array<{ method: string; url: string; status: number; text: string }> = [];

/** Points the app at a fresh embedded database; call before the first getApp() of the file. */
export function useFreshDataDir(prefix = 'paiflow-api-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  seedDataDir(dir);
  process.env.DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  delete process.env.DATABASE_SCHEMA;
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  return dir;
}

export interface CallOptions {
  body?: unknown;
  /** Send this exact text as the body (no JSON encoding). */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  params?: Record<string, string>;
  /** Send no credentials (by default management routes are called as the app's owner, see test/support/owner.ts). */
  anonymous?: boolean;
}

export async function call(handler: Handler, method: string, url: string, opts: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const hasAuth = Object.keys(headers).some((h) => ['authorization', 'cookie'].includes(h.toLowerCase()));
  if (!opts.anonymous && !hasAuth && !url.startsWith('/api/v1/') && !url.startsWith('/api/auth/'))
    headers.authorization = `Bearer ${await ownerToken(await getApp())}`;
  let body: BodyInit | undefined;
  if (opts.raw !== undefined) body = opts.raw as BodyInit;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
  }
  const req = new Request(`http://localhost${url}`, { method, headers, body });
  const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  const isStream = (res.headers.get('content-type') ?? '').includes('text/event-stream');
  const text = isStream ? '' : await res.text();
  let parsed: any = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  seen.push({ method, url, status: res.status, text });
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** A stack trace in a body looks like "    at fn (/path/file.ts:1:2)" or "at file:///…". */
export const STACK_RE = /\bat\s+(?:\S+\s+\()?(?:file:\/\/|\/|[A-Za-z]:\\|node:)[^\s)]*:\d+/;

export function expectNoServerErrorsOrStacks() {
  const bad = seen.filter((s) => s.status >= 500 || STACK_RE.test(s.text) || /node_modules|\.ts:\d+/.test(s.text));
  const list = bad.map((b) => `${b.method} ${b.url} → ${b.status} ${b.text.slice(0, 300)}`).join('\n');
  expect(bad, `responses with a 5xx status or a stack trace:\n${list}`).toEqual([]);
}

/** Asserts the error envelope `{ error: { code, message, path? } }` and returns it. */
export function expectError(a: Answer, status: number, code: string, path?: string) {
  expect({ status: a.status, code: a.body?.error?.code }, a.text.slice(0, 500)).toEqual({ status, code });
  expect(typeof a.body.error.message).toBe('string');
  expect(a.body.error.message.length).toBeGreaterThan(0);
  if (path !== undefined) expect(a.body.error.path).toBe(path);
  return a.body.error as {
    code: string;
    message: string;
    path?: string;
    errors?: Array<{ code: string; path: string; message: string; nodeIds?: string[] }>;
  };
}

/** Polls GET /api/runs/:id until the run reaches a terminal status. */
export async function waitForRun(getRun: Handler, runId: string, timeoutMs = 30_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const a = await call(getRun, 'GET', `/api/runs/${runId}`, { params: { runId } });
    expect(a.status).toBe(200);
    if (['succeeded', 'failed', 'cancelled', 'interrupted'].includes(a.body.status)) return a.body;
    if (Date.now() > until) throw new Error(`run ${runId} still ${a.body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A minimal valid graph: start(message) → template → end. */
export function simpleGraph(template = 'Hello {{inputs.message}}') {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: { config: { inputs: [{ name: 'message', type: 'string', required: true }] } },
      },
      {
        id: 't1',
        type: 'template',
        position: { x: 200, y: 0 },
        data: { label: 'Greeting', config: { template, format: 'text' } },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 400, y: 0 },
        data: { config: { outputs: [{ name: 'text', value: '{{t1.output.text}}' }] } },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 't1' },
      { id: 'e2', source: 't1', target: 'end' },
    ],
  };
}
