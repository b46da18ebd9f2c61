/**
 * The workflow the HTTP benches load (start → template → end, offline: no model, no network), published with an
 * API key. One definition, so the published-endpoint and the webhook benches measure the same workflow.
 */
import type autocannon from 'autocannon';
import type { BenchSend } from './bench-server';

export const HELLO_GRAPH = {
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
      data: { config: { template: 'Hello {{inputs.message}}', format: 'text' } },
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

/** Creates the hello workflow, publishes it and makes an API key: its id, its endpoint URL and the key. */
export async function publishHelloApi(send: BenchSend, name: string) {
  const wf = await send<{ id: string }>('POST', '/api/workflows', { name, graph: HELLO_GRAPH });
  const published = await send<{ endpoint: string }>('POST', `/api/workflows/${wf.id}/publish`);
  const { key } = await send<{ key: string }>('POST', `/api/workflows/${wf.id}/api-keys`, { name: 'bench' });
  return { workflowId: wf.id, endpoint: published.endpoint, key };
}

/**
 * The autocannon request that runs the published hello workflow: a new message each time, and each answer checked
 * (200, succeeded, that message echoed); `onAnswer(ok)` is told which.
 */
export function helloRequest(key: string, onAnswer: (ok: boolean) => void): autocannon.Request {
  let n = 0;
  return {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    setupRequest: (req, ctx) => {
      (ctx as { msg?: string }).msg = `m${n++}`;
      return { ...req, body: JSON.stringify({ inputs: { message: (ctx as { msg?: string }).msg } }) };
    },
    onResponse: (status, body, ctx) =>
      onAnswer(
        status === 200 &&
          body.includes('"status":"succeeded"') &&
          body.includes(`"text":"Hello ${(ctx as { msg?: string }).msg}"`),
      ),
  };
}
