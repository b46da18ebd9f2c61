/**
 * A published workflow as its publisher makes it over the management API (create → publish → API key), and the
 * published API as an outside app calls it (Bearer <key>). Shared by the group-B journeys on published endpoints.
 */
import { expect } from 'vitest';
import type { Client } from './client';
import { createWorkflow, node } from './runs';

/** The offline demo model's answer starts with this (README: Quick start). */
export const DEMO_PREFIX = '[PaiFlow demo model — offline, not a real LLM]';

/** Start (one required `question`) → LLM on the offline demo model → End (`answer` = the LLM's text). */
export function questionAnswerGraph(answerTemplate = '{{llm.output.text}}') {
  return {
    nodes: [
      node('start', 'start', {
        inputs: [{ name: 'question', type: 'string', required: true, description: 'What the customer asks' }],
      }),
      node('llm', 'llm', { userPrompt: '{{inputs.question}}', temperature: 0 }, 200),
      node('end', 'end', { outputs: [{ name: 'answer', value: answerTemplate }] }, 400),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'llm' },
      { id: 'e2', source: 'llm', target: 'end' },
    ],
  };
}

export interface Published {
  workflowId: string;
  slug: string;
  version: number;
  endpoint: string;
  key: string;
  keyId: string;
}

/** Creates the workflow, publishes it and makes one API key; checks the answers' documented shapes on the way. */
export async function publishWithKey(api: Client, name: string, graph: unknown): Promise<Published> {
  const workflowId = await createWorkflow(api, name, graph);
  const pub = await api.expectStatus(api.post(`/api/workflows/${workflowId}/publish`), 201);
  expect(pub).toMatchObject({ published: true, version: 1 });
  expect(pub.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  expect(pub.endpoint).toBe(`${api.baseURL}/api/v1/workflows/${pub.slug}/run`);
  const key = await api.expectStatus(api.post(`/api/workflows/${workflowId}/api-keys`, { name: 'outside app' }), 201);
  expect(key.key).toMatch(/^pf_[A-Za-z0-9_-]{43}$/);
  expect(key.key.startsWith(key.prefix)).toBe(true);
  return { workflowId, slug: pub.slug, version: pub.version, endpoint: pub.endpoint, key: key.key, keyId: key.id };
}

/** A client of the published API that bears `key`. */
export function keyClient(api: Client, key: string): Client {
  return api.with({ authorization: `Bearer ${key}` });
}
