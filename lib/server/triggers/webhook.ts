/**
 * A webhook call (`/api/hooks/:hookId`): any JSON, form or text body, its query and headers, checked against the
 * trigger's authentication (./webhook-auth.ts: a shared secret in a header, an HMAC-SHA256 signature of the raw body,
 * optionally with a signed timestamp, as GitHub, Stripe and Standard Webhooks sign, or none), mapped to the start
 * inputs with templates, and run as the published version. Nothing is started unless every check passed, and a
 * delivery id seen before answers with its first run. The answer is 202 `{ runId }` at once, or (`response: "wait"`)
 * 200 `{ runId, status, outputs }` once the run ends, 202 with the run id if it takes longer than the timeout.
 */
import { PaiError } from '@/engine/errors';
import { errorResponse, httpError, toPaiError } from '@/lib/http/errors';
import { readBytesLimited } from '@/engine/net/read-limited';
import { resolveDeep, type TemplateScope } from '@/engine/template/resolve';
import { settings } from '@/engine/config/settings';
import type { App } from '../app-types';
import { checkSameInputs } from '../publishing/published-runs';
import { waitForRunToSettle } from '../runs/run-waiter';
import { v1Settings } from '../publishing/v1-settings';
import { DEFAULT_SECRET_HEADER, webhookConfigSchema, type WebhookConfig } from './trigger-schema';
import { startTriggeredRun } from './trigger-runs';
import { triggersOf } from './triggers';
import { authenticateCall, deliveryOf, SIGNATURE_HEADER_NAMES } from './webhook-auth';
import { refuseNul } from '@/lib/http/refused-input';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);
/**
 * Never handed to the run: credentials of the call itself, and the client address header the production server
 * adds (its tag is a per-process secret that makes the address trusted).
 */
const WITHHELD_HEADERS = new Set([
  'authorization',
  'cookie',
  'proxy-authorization',
  'x-paiflow-client-ip',
  ...SIGNATURE_HEADER_NAMES,
]);
const MAX_FORM_FIELDS = 1_000;
const LAST_RUN_EVERY_MS = 1_000;

export interface WebhookRequest {
  body: unknown;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
}

/** The hook URL's answer; an error's extra headers (Retry-After on a 429) go with it. */
export async function handleWebhook(app: App, req: Request, hookId: string): Promise<Response> {
  try {
    return await serveWebhook(app, req, hookId);
  } catch (e) {
    const pe = toPaiError(e);
    if (!pe) throw e;
    return errorResponse(pe, (pe.details as { headers?: Record<string, string> } | undefined)?.headers);
  }
}

async function serveWebhook(app: App, req: Request, hookId: string): Promise<Response> {
  const service = triggersOf(app);
  const found = await service.findWebhook(hookId);
  if (!found) throw new PaiError('HOOK_NOT_FOUND', 'no webhook at this URL');
  const { trigger, workflow } = found;
  if (!trigger.enabled) throw new PaiError('TRIGGER_DISABLED', 'this webhook is disabled; enable it in the workflow');
  const config = webhookConfigSchema.parse(trigger.config);
  const raw = await readBytesLimited(req, app.config.maxBodyBytes, {
    code: 'PAYLOAD_TOO_LARGE',
    what: 'body',
  });
  authenticateCall(app, req, trigger, config, raw);
  // Only calls that proved the secret count, so whoever learns the URL alone cannot use up the sender's limit.
  const limited = v1Settings(app).limiter.take(`hook:${trigger.id}`);
  if (!limited.ok)
    throw httpError('RATE_LIMITED', `too many calls of this webhook; retry in ${limited.retryAfterSec} s`, 429, {
      'retry-after': String(limited.retryAfterSec),
    });
  const call = await parseCall(req, raw, config);
  const inputs = mapInputs(config.mapping, call);
  const delivery = deliveryOf(req, trigger.id);
  const { run, created } = await startTriggeredRun(app, {
    workflowId: trigger.workflowId,
    workflow,
    inputs,
    trigger: { kind: 'webhook', id: trigger.id },
    idempotencyKey: delivery?.key ?? null,
  });
  if (!created && delivery?.sameInputsRequired) checkSameInputs(run, inputs);
  if (created) lastRunsOf(app).note(trigger.id, run.id);
  const headers = { 'x-run-id': run.id, ...(created ? {} : { 'idempotent-replayed': 'true' }) };
  if (config.response === 'async')
    return Response.json({ runId: run.id, status: run.status }, { status: 202, headers });
  const timeoutMs = config.timeoutMs ?? v1Settings(app).syncTimeoutMs;
  const done = (await waitForRunToSettle(app, run.id, { timeoutMs, signal: req.signal })) ?? run;
  if (!TERMINAL.has(done.status))
    return Response.json({ runId: done.id, status: done.status }, { status: 202, headers });
  return Response.json(
    { runId: done.id, status: done.status, outputs: done.outputs, ...(done.error ? { error: done.error } : {}) },
    { headers },
  );
}

/**
 * Each webhook's last run, written at most once a LAST_RUN_EVERY_MS per hook, so a busy hook costs no write per
 * call: a quiet hook's call is written at once, the latest run of a burst when its second is over.
 */
class LastRuns {
  /** Hooks written within the last LAST_RUN_EVERY_MS, with the run that came since (if any). */
  private readonly recent = new Map<string, { runId: string; at: Date } | null>();

  constructor(private readonly app: App) {}

  note(triggerId: string, runId: string, at = new Date()): void {
    if (this.recent.has(triggerId)) {
      this.recent.set(triggerId, { runId, at });
      return;
    }
    this.recent.set(triggerId, null);
    void this.app.stores.triggers.noteLastRun(triggerId, runId, at).catch(() => {});
    setTimeout(() => {
      const latest = this.recent.get(triggerId);
      this.recent.delete(triggerId);
      if (latest) this.note(triggerId, latest.runId, latest.at);
    }, LAST_RUN_EVERY_MS).unref();
  }
}

const lastRuns = new WeakMap<App, LastRuns>();
/** Records `runId` as the trigger's last run (also for a manual fire from the editor). */
export function noteLastRun(app: App, triggerId: string, runId: string): void {
  lastRunsOf(app).note(triggerId, runId);
}
function lastRunsOf(app: App): LastRuns {
  let l = lastRuns.get(app);
  if (!l) lastRuns.set(app, (l = new LastRuns(app)));
  return l;
}

/** The call as the mapping sees it: the body parsed by its content type, the query, and the headers (lower-case). */
export async function parseCall(req: Request, raw: Buffer, config: WebhookConfig): Promise<WebhookRequest> {
  const url = new URL(req.url);
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) addField(query, k, v);
  const headers: Record<string, string> = {};
  const withheld = new Set(WITHHELD_HEADERS);
  if (config.auth.type === 'header') withheld.add(config.auth.header ?? DEFAULT_SECRET_HEADER);
  for (const [k, v] of req.headers) if (!withheld.has(k)) headers[k] = v;
  const body = await parseBody(req.headers.get('content-type') ?? '', raw);
  refuseNul(body, 'body');
  return { body, query, headers };
}

async function parseBody(contentType: string, raw: Buffer): Promise<unknown> {
  if (raw.length === 0) return {};
  const type = contentType.split(';')[0].trim().toLowerCase();
  const text = () => raw.toString('utf8');
  if (/^application\/([\w.+-]*\+)?json$/.test(type) || (!type && /^\s*[[{]/.test(text()))) {
    try {
      return JSON.parse(text());
    } catch (e) {
      throw new PaiError('INVALID_JSON', `the body is not valid JSON: ${(e as Error).message}`, {
        path: 'body',
      });
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    const form: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(text())) addField(form, k, v);
    return form;
  }
  if (type === 'multipart/form-data') {
    let data: FormData;
    try {
      data = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
    } catch {
      throw new PaiError('INVALID_FORM', 'the multipart body cannot be read', { path: 'body' });
    }
    const form: Record<string, unknown> = {};
    for (const [k, v] of data)
      addField(form, k, typeof v === 'string' ? v : { name: v.name, type: v.type, size: v.size });
    return form;
  }
  return text();
}

/** Repeated names become arrays, as most web frameworks read them; a flood of fields is refused. */
function addField<T>(into: Record<string, T | T[]>, key: string, value: T): void {
  if (key === '__proto__' || key === 'constructor' || key === 'prototype') return;
  if (!(key in into) && Object.keys(into).length >= MAX_FORM_FIELDS)
    throw new PaiError('TOO_MANY_FIELDS', `at most ${MAX_FORM_FIELDS} fields`, { path: 'body' });
  const prev = into[key];
  into[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
}

/**
 * The start inputs: each mapped input's template rendered over `{ body, query, headers }` (a lone `{{body.x}}`
 * keeps its type). Without a mapping, a JSON object body is the inputs as they are.
 */
export function mapInputs(mapping: Record<string, string>, call: WebhookRequest): Record<string, unknown> {
  if (Object.keys(mapping).length === 0)
    return call.body && typeof call.body === 'object' && !Array.isArray(call.body)
      ? (call.body as Record<string, unknown>)
      : {};
  const scope: TemplateScope = {
    inputs: {},
    nodes: { body: call.body as never, query: call.query as never, headers: call.headers as never },
    maxOutputChars: settings().TEMPLATE_MAX_OUTPUT_CHARS,
  };
  const inputs: Record<string, unknown> = {};
  for (const [name, template] of Object.entries(mapping)) {
    const value = resolveDeep(template, scope);
    if (value !== undefined && value !== '') inputs[name] = value;
  }
  return inputs;
}
