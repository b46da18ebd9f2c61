/** Runs started straight through the API, for specs that need a history of runs before they open a page. */
import { expect, type APIRequestContext } from '@playwright/test';

const TERMINAL = ['succeeded', 'failed', 'cancelled', 'interrupted'];

/** Starts a run of the workflow's draft and waits for its end; returns its id and final status. */
export async function runToEnd(
  request: APIRequestContext,
  workflowId: string,
  inputs: Record<string, unknown> = {},
): Promise<{ runId: string; status: string }> {
  const res = await request.post(`/api/workflows/${workflowId}/runs`, { data: { inputs } });
  expect(res.status(), await res.text()).toBe(202);
  const { runId } = (await res.json()) as { runId: string };
  let status = '';
  await expect
    .poll(
      async () => {
        status = (await (await request.get(`/api/runs/${runId}`)).json()).status;
        return TERMINAL.includes(status);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return { runId, status };
}

/** An HTTP node calling the e2e service at `path` (`/ok` answers 200, `/status/500` fails the node). */
export function httpNode(id: string, path: string, label = id) {
  return {
    id,
    type: 'http',
    label,
    config: {
      method: 'GET',
      url: `http://127.0.0.1:${process.env.PAIFLOW_E2E_SLOW_PORT}${path}`,
      headers: [],
      bodyType: 'none',
      body: '',
      timeoutMs: 5000,
      continueOnError: false,
    },
  };
}

/** An LLM node on the offline demo model (the e2e app has no OPENAI_API_KEY): real tokens, cost $0. */
export function demoLlmNode(id: string, userPrompt: string, label = id) {
  return {
    id,
    type: 'llm',
    label,
    config: {
      model: 'gpt-4o-mini',
      systemPrompt: '',
      userPrompt,
      temperature: 0.2,
      jsonMode: false,
      stream: false,
      provider: {},
    },
  };
}
