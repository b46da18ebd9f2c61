/**
 * What the webhook-trigger tests share: a published workflow whose Start node declares `title`, `ref` and `agent`
 * and whose End node answers them back (so a run's outputs show what the mapping delivered), trigger CRUD calls,
 * a call of the hook URL as an outside system makes it (no session), GitHub-style signing, and a run count.
 */
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import { POST as hook } from '@/app/api/hooks/[hookId]/route';
import { POST as publish } from '@/app/api/workflows/[id]/publish/route';
import {
  DELETE as delTrigger,
  GET as getTrigger,
  PATCH as patchTrigger,
} from '@/app/api/workflows/[id]/triggers/[triggerId]/route';
import { GET as listTriggers, POST as createTrigger } from '@/app/api/workflows/[id]/triggers/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, type Answer } from './api-helpers';
import { databaseOf } from '../support/database-of';

/** Start(title, ref?, agent?) → End { title, ref, agent }. */
export function echoGraph() {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        position: { x: 0, y: 0 },
        data: {
          config: {
            inputs: [
              { name: 'title', type: 'string', required: true },
              { name: 'ref', type: 'string', required: false },
              { name: 'agent', type: 'string', required: false },
            ],
          },
        },
      },
      {
        id: 'end',
        type: 'end',
        position: { x: 300, y: 0 },
        data: {
          config: {
            outputs: [
              { name: 'title', value: '{{inputs.title}}' },
              { name: 'ref', value: '{{inputs.ref}}' },
              { name: 'agent', value: '{{inputs.agent}}' },
            ],
          },
        },
      },
    ],
    edges: [{ id: 'e1', source: 'start', target: 'end' }],
  };
}

/** A new workflow with the echo graph, published unless told otherwise; its id. */
export async function echoWorkflow(name: string, opts: { publish?: boolean } = {}): Promise<string> {
  const wf = await call(createWf, 'POST', '/api/workflows', { body: { name, graph: echoGraph() } });
  expect(wf.status, wf.text).toBe(201);
  if (opts.publish !== false) {
    const p = await call(publish, 'POST', `/api/workflows/${wf.body.id}/publish`, { params: { id: wf.body.id } });
    expect(p.status, p.text).toBe(201);
  }
  return wf.body.id;
}

export const triggers = {
  create: (wfId: string, body: unknown) =>
    call(createTrigger, 'POST', `/api/workflows/${wfId}/triggers`, { params: { id: wfId }, body }),
  list: (wfId: string) => call(listTriggers, 'GET', `/api/workflows/${wfId}/triggers`, { params: { id: wfId } }),
  get: (wfId: string, triggerId: string) =>
    call(getTrigger, 'GET', `/api/workflows/${wfId}/triggers/${triggerId}`, { params: { id: wfId, triggerId } }),
  patch: (wfId: string, triggerId: string, body: unknown) =>
    call(patchTrigger, 'PATCH', `/api/workflows/${wfId}/triggers/${triggerId}`, {
      params: { id: wfId, triggerId },
      body,
    }),
  remove: (wfId: string, triggerId: string) =>
    call(delTrigger, 'DELETE', `/api/workflows/${wfId}/triggers/${triggerId}`, { params: { id: wfId, triggerId } }),
};

/** Creates a trigger and returns its answer (201 asserted). */
export async function created(wfId: string, body: unknown): Promise<any> {
  const a = await triggers.create(wfId, body);
  expect(a.status, a.text).toBe(201);
  return a.body;
}

/** `sha256=<hex HMAC-SHA256 of the raw body>`, as GitHub signs X-Hub-Signature-256. */
export const sign = (secret: string, raw: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

/** Calls a hook URL as an outside system does: no session, the raw body as given. */
export function callHook(
  hookId: string,
  raw: string,
  headers: Record<string, string>,
  query = '',
  method = 'POST',
): Promise<Answer> {
  return call(hook, method, `/api/hooks/${hookId}${query}`, { params: { hookId }, raw, headers, anonymous: true });
}

/** How many runs a workflow has (any status, any trigger). */
export async function runCount(wfId: string): Promise<number> {
  return databaseOf(await getApp()).prisma.run.count({ where: { workflowId: wfId } });
}
