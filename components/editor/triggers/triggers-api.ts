/**
 * Typed calls for a workflow's triggers (webhooks and schedules). The shapes are the server's own (type-only imports
 * of the route's zod schemas and its view), so the panel and the API cannot drift apart.
 */
import type { z } from 'zod';
import { call } from '@/components/api/client';
import type { RunStatus } from '@/components/api/types';
import type { createTriggerSchema, patchTriggerSchema } from '@/lib/server/triggers/trigger-schema';
import type { TriggerView } from '@/lib/server/triggers/triggers';

export type { TriggerView };
/** What a POST may send: defaults (mapping, response, timezone, misfire …) may be left out. */
export type NewTrigger = z.input<typeof createTriggerSchema>;
export type NewWebhook = Extract<NewTrigger, { type: 'webhook' }>;
export type NewSchedule = Extract<NewTrigger, { type: 'schedule' }>;
export type TriggerPatch = z.input<typeof patchTriggerSchema>;

/** A webhook's test call: the request as the webhook would receive it (no signature needed from the editor). */
export interface TestPayload {
  body?: unknown;
  query?: Record<string, string | string[]>;
  headers?: Record<string, string>;
}

const base = (workflowId: string) => `/api/workflows/${encodeURIComponent(workflowId)}/triggers`;
const one = (workflowId: string, id: string) => `${base(workflowId)}/${encodeURIComponent(id)}`;

export const triggersApi = {
  list: (workflowId: string) => call<TriggerView[]>('GET', base(workflowId)),
  get: (workflowId: string, id: string) => call<TriggerView>('GET', one(workflowId, id)),
  /** 201; a webhook's answer carries its secret this once. */
  create: (workflowId: string, body: NewTrigger) => call<TriggerView>('POST', base(workflowId), body),
  /** A webhook's new or regenerated secret is in this answer only. */
  update: (workflowId: string, id: string, patch: TriggerPatch) =>
    call<TriggerView>('PATCH', one(workflowId, id), patch),
  remove: (workflowId: string, id: string) => call<void>('DELETE', one(workflowId, id)),
  /** Fires now: a schedule with its fixed inputs, a webhook with `payload` through its mapping. 202. */
  fire: (workflowId: string, id: string, payload?: TestPayload) =>
    call<{ runId: string; status: RunStatus }>('POST', `${one(workflowId, id)}/run`, payload),
};
