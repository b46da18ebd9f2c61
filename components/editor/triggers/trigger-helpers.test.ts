/**
 * Guarantees of the Triggers panel's pure parts: the copyable curl calls really work (run in bash with real curl and
 * openssl, the HMAC one is signed exactly as the hook route checks), the mapping starts as `{{body.<input>}}` per
 * Start input and the sample body fits it, the cron presets are accepted by the server's parser and fire when their
 * label says, fire times are shown in the schedule's zone and the viewer's, and an API error from the server's own
 * validation lands beside the field its path names.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTranslator } from 'next-intl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, call } from '@/components/api/client';
import { PaiError } from '@/engine/errors';
import { readJson } from '@/lib/http/body';
import { MESSAGES } from '@/messages';
import { errorResponse } from '@/lib/http/errors';
import { checkTimezone, createTriggerSchema, nextRunTimes } from '@/lib/server/triggers/trigger-schema';
import {
  browserTimeZone,
  buildWebhookCurl,
  changedFields,
  CRON_PRESETS,
  fieldError,
  fireTime,
  isFieldError,
  lastErrorText,
  mappingFromRows,
  mappingRows,
  newWebhookSecret,
  parseJsonObject,
  sampleBody,
  SECRET_PLACEHOLDER,
  startInputs,
  timeZones,
  type Messages,
} from './trigger-helpers';

/** The `triggers.<group>` messages in a language, as the panel's components pass them to the helpers. */
const messages = (group: string, locale: 'en' | 'zh-CN' = 'en') =>
  createTranslator({ locale, messages: MESSAGES[locale], namespace: `triggers.${group}` }) as unknown as Messages;

const graph = {
  nodes: [
    {
      id: 'start',
      type: 'start',
      position: { x: 0, y: 0 },
      data: {
        config: {
          inputs: [
            { name: 'text', type: 'string', required: true },
            { name: 'count', type: 'number', required: false },
          ],
        },
      },
    },
  ],
};

describe('webhook mapping', () => {
  it('starts with one {{body.<input>}} row per Start input, and keeps stored rows of removed inputs', () => {
    const inputs = startInputs(graph);
    expect(inputs).toEqual([
      { name: 'text', type: 'string', required: true },
      { name: 'count', type: 'number', required: false },
    ]);
    expect(mappingRows(inputs)).toEqual([
      { input: 'text', template: '{{body.text}}', declared: true },
      { input: 'count', template: '{{body.count}}', declared: true },
    ]);
    const stored = mappingRows(inputs, { text: '{{body.issue.title}}', old: '{{query.o}}' });
    expect(stored).toEqual([
      { input: 'text', template: '{{body.issue.title}}', declared: true },
      { input: 'count', template: '', declared: true },
      { input: 'old', template: '{{query.o}}', declared: false },
    ]);
    // A blank row is not mapped.
    expect(mappingFromRows(stored)).toEqual({ text: '{{body.issue.title}}', old: '{{query.o}}' });
  });

  it('builds a sample body the mapping reads (nested paths; query/header templates and unsafe keys skipped)', () => {
    const samples = { text: '…', count: 1 };
    expect(sampleBody({ text: '{{body.issue.title}}', count: '{{ body.issue.n }}' }, samples)).toEqual({
      issue: { title: '…', n: 1 },
    });
    expect(sampleBody({ text: '{{query.q}}', count: '{{body.__proto__.x}}' }, samples)).toEqual({});
    // No mapping: a JSON object body is taken as the inputs, so the sample is the inputs.
    expect(sampleBody({}, samples)).toEqual(samples);
  });
});

function hasTools(): boolean {
  try {
    execFileSync('bash', ['-c', 'command -v curl && command -v openssl'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const tools = hasTools();
if (!tools) console.warn('[trigger-helpers.test] bash, curl or openssl missing: the curl snippets were NOT run');

describe.skipIf(!tools)('the copyable curl calls, run in bash against a local server', () => {
  let server: Server;
  let url: string;
  const received: Array<{ headers: IncomingHttpHeaders; raw: Buffer }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
        res.writeHead(202, { 'content-type': 'application/json' }).end('{"runId":"run_1"}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/hooks/hk_test`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const run = (script: string) =>
    new Promise<string>((resolve, reject) => {
      const p = spawn('bash', ['-c', `set -euo pipefail\n${script}`], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      p.stdout.on('data', (d) => (out += d));
      p.stderr.on('data', (d) => (err += d));
      p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`bash exited ${code}: ${err}`))));
    });

  it('HMAC: sends the body byte for byte and X-Signature is sha256=<HMAC-SHA256 of it with the secret>', async () => {
    const secret = "whsec_it's-a-secret-with-$dollar";
    const body = { text: 'it\'s "quoted" $HOME `x`', count: 2 };
    const script = buildWebhookCurl({ url, auth: { type: 'hmac' }, secret, body });
    expect(script).toContain(
      `-H "X-Signature: sha256=$(printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET" | cut -d' ' -f2)"`,
    );
    expect(await run(`${script} -s`)).toBe('{"runId":"run_1"}');
    const got = received.at(-1)!;
    expect(JSON.parse(got.raw.toString('utf8'))).toEqual(body);
    expect(got.headers['content-type']).toBe('application/json');
    const expected = createHmac('sha256', secret).update(got.raw).digest('hex');
    expect(got.headers['x-signature']).toBe(`sha256=${expected}`);
  });

  it('header auth: the secret travels in the named header; none: neither a secret nor a signature', async () => {
    await run(buildWebhookCurl({ url, auth: { type: 'header', header: 'x-hook-token' }, secret: 's3cret', body: {} }));
    let got = received.at(-1)!;
    expect(got.headers['x-hook-token']).toBe('s3cret');
    expect(got.headers['x-signature']).toBeUndefined();

    await run(buildWebhookCurl({ url, auth: { type: 'none' }, secret: null, body: { text: 'a' } }));
    got = received.at(-1)!;
    expect(JSON.parse(got.raw.toString('utf8'))).toEqual({ text: 'a' });
    expect(Object.keys(got.headers).filter((h) => h.startsWith('x-'))).toEqual([]);
  });
});

describe('curl text', () => {
  it('writes a placeholder when the secret is no longer shown', () => {
    const hmac = buildWebhookCurl({ url: 'http://h/api/hooks/x', auth: { type: 'hmac' }, secret: null, body: {} });
    expect(hmac).toContain(`SECRET='${SECRET_PLACEHOLDER}'`);
    const header = buildWebhookCurl({ url: 'http://h/x', auth: { type: 'header' }, secret: null, body: {} });
    expect(header).toContain(`-H 'x-webhook-secret: ${SECRET_PLACEHOLDER}'`);
    expect(buildWebhookCurl({ url: 'http://h/x', auth: { type: 'none' }, secret: null, body: {} })).not.toContain(
      'SECRET',
    );
  });
});

describe('schedules', () => {
  it('every cron preset is accepted by the server and fires when its label says', () => {
    const zone = 'Asia/Shanghai';
    // Saturday 2026-12-05 10:30 in Shanghai.
    const from = new Date('2026-12-05T02:30:00Z');
    const label = messages('schedule.presets');
    const next = Object.fromEntries(
      CRON_PRESETS.map((p) => [label(p.key), nextRunTimes({ cron: p.cron, timezone: zone }, 2, from)]),
    );
    expect(next['Every minute']).toEqual(['2026-12-05T02:31:00.000Z', '2026-12-05T02:32:00.000Z']);
    expect(next['Hourly']).toEqual(['2026-12-05T03:00:00.000Z', '2026-12-05T04:00:00.000Z']);
    expect(next['Daily 09:00']).toEqual(['2026-12-06T01:00:00.000Z', '2026-12-07T01:00:00.000Z']);
    // Weekdays: Monday and Tuesday, 09:00 Shanghai = 01:00 UTC.
    expect(next['Weekdays 09:00']).toEqual(['2026-12-07T01:00:00.000Z', '2026-12-08T01:00:00.000Z']);
  });

  it("shows a fire time in the schedule's zone and, when it differs, in the viewer's", () => {
    const iso = '2026-12-07T01:00:00.000Z';
    const t = fireTime(iso, 'Asia/Shanghai', 'Europe/Berlin', { locale: 'en-GB' });
    expect(t.inZone).toBe('Mon, 7 Dec 2026, 09:00');
    expect(t.local).toBe('Mon, 7 Dec 2026, 02:00');
    expect(fireTime(iso, 'UTC', 'UTC', { locale: 'en-GB' })).toEqual({
      iso,
      inZone: 'Mon, 7 Dec 2026, 01:00',
      local: null,
    });
    expect(fireTime('2026-12-07T01:00:30.000Z', 'UTC', 'UTC', { locale: 'en-GB', seconds: true }).inZone).toBe(
      'Mon, 7 Dec 2026, 01:00:30',
    );
  });

  it('offers the time zones the server accepts, UTC first, and defaults to one of them', () => {
    const zones = timeZones();
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Asia/Shanghai');
    expect(new Set(zones).size).toBe(zones.length);
    for (const z of [browserTimeZone(), ...zones.slice(0, 50)]) expect(() => checkTimezone(z)).not.toThrow();
  });
});

describe('errors in plain words and at their field', () => {
  it("turns a trigger's stored last error into words, keeping the server's text as detail", () => {
    const t = messages('lastError');
    const e = lastErrorText({ code: 'NOT_PUBLISHED', message: 'the workflow is not published: …' }, t);
    expect(e?.text).toMatch(/not published.*Publish it/);
    expect(e?.detail).toBe('the workflow is not published: …');
    expect(lastErrorText({ code: 'NOT_PUBLISHED' }, messages('lastError', 'zh-CN'))?.text).toMatch(/尚未发布/);
    expect(lastErrorText({ code: 'SOMETHING_NEW', message: 'disk full' }, t)?.text).toBe('Disk full');
    expect(lastErrorText({}, t)).toEqual({
      text: 'The last run could not be started.',
      code: null,
      detail: 'unknown error',
    });
    expect(lastErrorText(null, t)).toBeNull();
  });

  /** The server's own validation and error body, read by the client's own `call`, as the panel gets it. */
  async function serverError(body: unknown): Promise<ApiError> {
    let response: Response;
    try {
      const req = new Request('http://x/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await readJson(req, createTriggerSchema);
      throw new Error('expected a validation error');
    } catch (e) {
      if (!(e instanceof PaiError)) throw e;
      response = errorResponse(e);
    }
    const text = await response.text();
    const server = createServer((_req, res) =>
      res.writeHead(response.status, { 'content-type': 'application/json' }).end(text),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      await call('POST', `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, body);
      throw new Error('expected the call to fail');
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return e;
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  }

  it('places a bad mapping template beside its input row, and a short secret beside the secret', async () => {
    const mapping = await serverError({
      type: 'webhook',
      auth: { type: 'hmac' },
      mapping: { text: '{{inputs.text}}' },
    });
    expect(mapping.status).toBe(400);
    expect(fieldError(mapping, 'mapping.text')).toMatch(/reads from body, query or headers/);
    expect(fieldError(mapping, 'mapping.count')).toBeNull();
    expect(fieldError(mapping, 'cron')).toBeNull();
    expect(isFieldError(mapping, ['name', 'auth', 'mapping'])).toBe(true);
    expect(isFieldError(mapping, ['name', 'cron'])).toBe(false);

    const secret = await serverError({ type: 'webhook', auth: { type: 'hmac', secret: 'short' } });
    expect(fieldError(secret, 'auth.secret')).toMatch(/at least 16 characters/);
    expect(fieldError(secret, 'auth')).not.toBeNull();
  });
});

describe('inputs typed by the user', () => {
  it('accepts only a JSON object, and says why not', () => {
    const t = messages('json');
    expect(parseJsonObject('{"text":"hi"}', t)).toEqual({ ok: true, value: { text: 'hi' } });
    expect(parseJsonObject('  ', t)).toEqual({ ok: true, value: {} });
    expect(parseJsonObject('[1]', t)).toEqual({ ok: false, message: 'must be a JSON object, e.g. {"text": "hello"}' });
    expect(parseJsonObject('{text:', t)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^not valid JSON: /),
    });
    expect(parseJsonObject('[1]', messages('json', 'zh-CN'))).toMatchObject({
      message: expect.stringMatching(/JSON 对象/),
    });
  });

  it('names in a PATCH only what changed from the stored trigger', () => {
    const stored = { name: 'a', cron: '0 9 * * *', inputs: { text: 'x' }, enabled: true };
    expect(changedFields({ name: 'a', cron: '0 9 * * *', inputs: { text: 'x' }, enabled: true }, stored)).toEqual({});
    expect(changedFields({ name: 'b', cron: '0 9 * * *', inputs: { text: 'y' }, enabled: false }, stored)).toEqual({
      name: 'b',
      inputs: { text: 'y' },
      enabled: false,
    });
  });

  it('makes fresh webhook secrets the server accepts', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
    expect(createTriggerSchema.safeParse({ type: 'webhook', auth: { type: 'hmac', secret: a } }).success).toBe(true);
  });
});
