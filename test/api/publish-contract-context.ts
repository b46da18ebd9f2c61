/**
 * What the parts of the publish contract suite (publish-contract-suite.ts) share: the workflows, slug and keys that
 * earlier tests create and later ones use (the suite's tests run in order), and the calls they all make.
 */
import type { Answer } from './api-helpers';
import { simpleGraph } from './api-helpers';

export interface PublishContract {
  kind: 'pglite' | 'postgres';
  /** Port of the server that receives completion callbacks (allowlisted for the SSRF guard). */
  hookPort: number;
  callbacks: Array<{ headers: Record<string, unknown>; body: any }>;
  /** Workflow A (published as `slugA`, its keys `keyA` and a revoked one) and workflow B (its key `keyB`). */
  wfA: string;
  wfB: string;
  slugA: string;
  keyA: string;
  keyAId: string;
  keyB: string;
  /** POST /api/v1/workflows/:slug/run. */
  run(slug: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** GET /api/v1/runs/:runId with an API key. */
  v1Get(runId: string, key: string): Promise<Answer>;
}

/** The graph with a described input, so the OpenAPI document has something to carry. */
export function greeterGraph(template: string) {
  const g = simpleGraph(template);
  g.nodes[0].data.config = {
    inputs: [
      { name: 'message', type: 'string', required: true, description: 'Who to greet' },
      { name: 'times', type: 'number', required: false },
    ],
  } as any;
  return g;
}
