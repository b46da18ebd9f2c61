/**
 * The request bodies of a workflow's triggers (POST/PATCH /api/workflows/:id/triggers[/:triggerId]) and the stored
 * config of each kind. A webhook maps its request (body, query, headers) to the start inputs with templates; a
 * schedule fires on a cron expression in a time zone with fixed inputs.
 */
import { Cron } from 'croner';
import { z } from 'zod';
import { PaiError } from '@/engine/errors';
import { findRefs, parsePath } from '@/engine/template/resolve';

export const WEBHOOK_AUTH_TYPES = ['hmac', 'header', 'none'] as const;
export type WebhookAuthType = (typeof WEBHOOK_AUTH_TYPES)[number];
export const WEBHOOK_RESPONSES = ['async', 'wait'] as const;
/** `run_once`: a tick missed while no replica was up runs once when the scheduler next looks; `skip`: it is dropped. */
export const MISFIRE_POLICIES = ['run_once', 'skip'] as const;
export type MisfirePolicy = (typeof MISFIRE_POLICIES)[number];

/** The header a `header`-authenticated webhook reads its secret from when none is named. */
export const DEFAULT_SECRET_HEADER = 'x-webhook-secret';
const HEADER_NAME_RE = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const MAX_WAIT_TIMEOUT_MS = 300_000;

const nameSchema = z.string().trim().max(100);
const secretSchema = z.string().min(16, 'a secret needs at least 16 characters').max(512);

/** Every template of a mapping must read from `body`, `query` or `headers`: checked at save, with its path. */
const mappingSchema = z
  .record(z.string().min(1).max(100), z.string().max(2_000))
  .refine((m) => Object.keys(m).length <= 100, 'at most 100 mapped inputs')
  .superRefine((mapping, ctx) => {
    for (const [input, template] of Object.entries(mapping)) {
      for (const ref of findRefs(template)) {
        const path = parsePath(ref.expr);
        const root = path?.[0];
        if (!path || !['body', 'query', 'headers'].includes(String(root)))
          ctx.addIssue({
            code: 'custom',
            path: [input],
            message: `{{${ref.expr}}}: a mapping reads from body, query or headers (e.g. {{body.text}})`,
          });
      }
    }
  })
  // Header names arrive lower-case (fetch and HTTP/2 lower-case them): {{headers.X-GitHub-Event}} reads x-github-event.
  .transform((mapping) =>
    Object.fromEntries(
      Object.entries(mapping).map(([input, t]) => [
        input,
        t.replace(/(\{\{\s*headers\.)([A-Za-z0-9_-]+)/g, (_m, head: string, name: string) => head + name.toLowerCase()),
      ]),
    ),
  );

const webhookAuthSchema = z
  .object({
    type: z.enum(WEBHOOK_AUTH_TYPES),
    secret: secretSchema.optional(),
    header: z.string().regex(HEADER_NAME_RE, 'not a valid header name').optional(),
    /** `hmac` only: refuse calls without a signed timestamp (X-Webhook-Timestamp or Standard Webhooks). */
    requireTimestamp: z.boolean().optional(),
  })
  .strict();

export const webhookConfigSchema = z.object({
  auth: webhookAuthSchema.omit({ secret: true }),
  mapping: mappingSchema,
  response: z.enum(WEBHOOK_RESPONSES),
  /** `wait`: how long the request waits for the run before answering 202 with its id. */
  timeoutMs: z.number().int().min(1_000).max(MAX_WAIT_TIMEOUT_MS).optional(),
});
export type WebhookConfig = z.infer<typeof webhookConfigSchema>;

export const scheduleConfigSchema = z.object({
  cron: z.string(),
  timezone: z.string(),
  inputs: z.record(z.string(), z.unknown()),
  misfire: z.enum(MISFIRE_POLICIES),
});
export type ScheduleConfig = z.infer<typeof scheduleConfigSchema>;

const createWebhookSchema = z
  .object({
    type: z.literal('webhook'),
    name: nameSchema.optional(),
    enabled: z.boolean().optional(),
    auth: webhookAuthSchema,
    mapping: mappingSchema.default({}),
    response: z.enum(WEBHOOK_RESPONSES).default('async'),
    timeoutMs: z.number().int().min(1_000).max(MAX_WAIT_TIMEOUT_MS).optional(),
  })
  .strict();

const createScheduleSchema = z
  .object({
    type: z.literal('schedule'),
    name: nameSchema.optional(),
    enabled: z.boolean().optional(),
    cron: z.string().trim().min(1).max(200),
    timezone: z.string().trim().min(1).max(100).default('UTC'),
    inputs: z.record(z.string(), z.unknown()).default({}),
    misfire: z.enum(MISFIRE_POLICIES).default('run_once'),
  })
  .strict();

export const createTriggerSchema = z.discriminatedUnion('type', [createWebhookSchema, createScheduleSchema]);
export type CreateTrigger = z.infer<typeof createTriggerSchema>;

/** A PATCH names only what changes; `type` cannot change (delete and create instead). */
export const patchTriggerSchema = z
  .object({
    name: nameSchema.optional(),
    enabled: z.boolean().optional(),
    auth: webhookAuthSchema.optional(),
    mapping: mappingSchema.optional(),
    response: z.enum(WEBHOOK_RESPONSES).optional(),
    timeoutMs: z.number().int().min(1_000).max(MAX_WAIT_TIMEOUT_MS).nullable().optional(),
    cron: z.string().trim().min(1).max(200).optional(),
    timezone: z.string().trim().min(1).max(100).optional(),
    inputs: z.record(z.string(), z.unknown()).optional(),
    misfire: z.enum(MISFIRE_POLICIES).optional(),
  })
  .strict();
export type PatchTrigger = z.infer<typeof patchTriggerSchema>;

/** A time zone the runtime knows (IANA name), else 400 at `timezone`. */
export function checkTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw new PaiError('INVALID_TIMEZONE', `unknown time zone "${timezone}" (use an IANA name like Asia/Shanghai)`, {
      path: 'timezone',
    });
  }
}

/**
 * The cron expression parsed (5 fields, or 6 with seconds first; croner's syntax, e.g. `0 9 * * 1-5`), or 400 at
 * `cron`. An expression that never fires again is refused too.
 */
export function parseCron(cron: string, timezone: string): Cron {
  checkTimezone(timezone);
  let job: Cron;
  try {
    job = new Cron(cron, { timezone, paused: true, mode: 'auto' });
  } catch (e) {
    throw new PaiError('INVALID_CRON', `"${cron}" is not a valid cron expression: ${(e as Error).message}`, {
      path: 'cron',
    });
  }
  if (!job.nextRun()) throw new PaiError('INVALID_CRON', `"${cron}" never fires again`, { path: 'cron' });
  return job;
}

/** The next `count` fire times after `from` (for the UI), as ISO strings. */
export function nextRunTimes(config: Pick<ScheduleConfig, 'cron' | 'timezone'>, count: number, from = new Date()) {
  const job = parseCron(config.cron, config.timezone);
  return job.nextRuns(count, from).map((d) => d.toISOString());
}

/** The first fire time strictly after `after`. */
export function nextRunAfter(config: Pick<ScheduleConfig, 'cron' | 'timezone'>, after: Date): Date | null {
  return parseCron(config.cron, config.timezone).nextRun(after);
}
