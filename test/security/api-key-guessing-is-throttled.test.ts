// Guarantees: a client address that keeps sending wrong API keys to the published endpoints is refused with 429 and
// Retry-After (API_KEY_MAX_FAILURES within API_KEY_FAILURE_WINDOW_S) before any key is looked up, on the run endpoint
// and the run views alike, right key included; other addresses are not affected; a request without a key is not a
// guess and does not count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { POST as createWorkflow } from '@/app/api/workflows/route';
import { GET as v1Run } from '@/app/api/v1/runs/[runId]/route';
import { POST as runPublished } from '@/app/api/v1/workflows/[slug]/run/route';
import { getApp } from '@/lib/server/app';
import { call, useFreshDataDir } from '../api/api-helpers';
import { bearer } from '../api/v1-endpoint-helpers';

const TAG = 'test-client-ip-tag';
const from = (address: string) => ({ 'x-paiflow-client-ip': `${TAG} ${address}` });
const WRONG = `pf_${'x'.repeat(43)}`;

let slug: string;
let key: string;

beforeAll(async () => {
  useFreshDataDir('paiflow-keyguess-');
  process.env.PAIFLOW_CLIENT_IP_TAG = TAG;
  process.env.API_KEY_MAX_FAILURES = '5';
  const wf = await call(createWorkflow, 'POST', '/api/workflows', {
    body: {
      name: 'Echo',
      graph: {
        nodes: [
          { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
          {
            id: 'end',
            type: 'end',
            position: { x: 200, y: 0 },
            data: { config: { outputs: [{ name: 'ok', value: 'yes' }] } },
          },
        ],
        edges: [{ id: 'e1', source: 'start', target: 'end' }],
      },
    },
  });
  const id = wf.body.id;
  slug = (await call(publish, 'POST', `/api/workflows/${id}/publish`, { params: { id }, body: {} })).body.slug;
  key = (await call(createKey, 'POST', `/api/workflows/${id}/api-keys`, { params: { id }, body: {} })).body.key;
});

afterAll(async () => {
  delete process.env.API_KEY_MAX_FAILURES;
  delete process.env.PAIFLOW_CLIENT_IP_TAG;
  await (await getApp()).close();
});

const run = (headers: Record<string, string>) =>
  call(runPublished, 'POST', `/api/v1/workflows/${slug}/run`, { params: { slug }, headers, body: { inputs: {} } });

describe('guessing API keys', () => {
  it('a request without a key is not counted as a failure', async () => {
    for (let i = 0; i < 8; i++) expect((await run(from('10.0.0.9'))).status).toBe(401);
    expect((await run({ ...from('10.0.0.9'), ...bearer(key) })).status).toBe(200);
  });

  it('after API_KEY_MAX_FAILURES wrong keys an address gets 429 + Retry-After, even with the right key', async () => {
    const guesser = from('10.0.0.1');
    for (let i = 0; i < 3; i++) expect((await run({ ...guesser, ...bearer(WRONG) })).status).toBe(401);
    // Malformed keys and the run view count too.
    expect((await run({ ...guesser, authorization: 'Bearer not-a-key' })).status).toBe(401);
    const view = await call(v1Run, 'GET', '/api/v1/runs/run_x', {
      params: { runId: 'run_x' },
      headers: { ...guesser, ...bearer(WRONG) },
    });
    expect(view.status).toBe(401);

    const refused = await run({ ...guesser, ...bearer(WRONG) });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await run({ ...guesser, ...bearer(key) })).status).toBe(429);
    const viewRefused = await call(v1Run, 'GET', '/api/v1/runs/run_x', {
      params: { runId: 'run_x' },
      headers: { ...guesser, ...bearer(key) },
    });
    expect(viewRefused.status).toBe(429);
  });

  it('another address is not affected', async () => {
    const other = await run({ ...from('10.0.0.2'), ...bearer(key) });
    expect(other.status, other.text).toBe(200);
    expect(other.body.status).toBe('succeeded');
  });
});
