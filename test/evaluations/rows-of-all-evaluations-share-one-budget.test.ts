/**
 * Guarantee (issue 43): the rows of every evaluation a server runs share one budget — with EVALUATION_ROWS_IN_FLIGHT
 * = N and EVALUATION_ROWS_IN_FLIGHT_PER_WORKSPACE = M, no more than N rows are in flight at once across all
 * evaluations and workspaces, and no more than M of one workspace's, whatever each evaluation's `concurrency`; rows
 * beyond the budget wait (none fails) and slots go to the waiting evaluations in turn; a row whose evaluation stops
 * while it waits gives its place up.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createDataset } from '@/app/api/datasets/route';
import { GET as getEvaluation } from '@/app/api/evaluations/[id]/route';
import { POST as startEvaluation } from '@/app/api/workflows/[id]/evaluations/route';
import { POST as createWorkflow } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { RowBudget } from '@/lib/server/evaluations/row-budget';
import { call, expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';
import { createTenancy, type Tenancy } from '../auth/support/tenancy';

const settle = () => new Promise((r) => setImmediate(r));

describe('the row budget', () => {
  it('never has more than its caps in flight, across evaluations and workspaces, and runs every row', async () => {
    const budget = new RowBudget({ server: 5, perWorkspace: 3 });
    let max = 0;
    const maxOf = new Map<string, number>();
    const evaluations = Array.from({ length: 6 }, (_, i) => ({ id: `ev${i}`, workspace: `ws${i % 3}` }));
    let done = 0;
    await Promise.all(
      evaluations.flatMap((ev) =>
        // 16 lanes of an evaluation of concurrency 16, 40 rows each.
        Array.from({ length: 16 }, async (_, lane) => {
          for (let row = lane; row < 40; row += 16) {
            const release = await budget.acquire(ev.workspace, ev.id);
            max = Math.max(max, budget.running());
            maxOf.set(ev.workspace, Math.max(maxOf.get(ev.workspace) ?? 0, budget.running(ev.workspace)));
            for (let k = 0; k < (row % 3) + 1; k++) await settle();
            done++;
            release();
          }
        }),
      ),
    );
    expect(done).toBe(6 * 40);
    expect(max).toBe(5);
    expect([...maxOf.values()].every((n) => n <= 3)).toBe(true);
    expect(budget.running()).toBe(0);
  });

  it('gives freed slots to the waiting evaluations in turn, not to the one that started first', async () => {
    const budget = new RowBudget({ server: 1, perWorkspace: 1 });
    const order: string[] = [];
    const lanes = (id: string) =>
      Array.from({ length: 4 }, async () => {
        const release = await budget.acquire('ws', id);
        order.push(id);
        await settle();
        release();
      });
    const first = lanes('big');
    const second = lanes('late');
    await Promise.all([...first, ...second]);
    expect(order).toEqual(['big', 'late', 'big', 'late', 'big', 'late', 'big', 'late']);
  });

  it('lets a row stop waiting when its evaluation stops, without taking a slot', async () => {
    const budget = new RowBudget({ server: 1, perWorkspace: 1 });
    const held = await budget.acquire('ws', 'a');
    const ctl = new AbortController();
    const waiting = budget.acquire('ws', 'b', ctl.signal);
    ctl.abort('cancelled');
    await expect(waiting).rejects.toBe('cancelled');
    const next = budget.acquire('ws', 'c');
    held();
    held(); // a second release changes nothing
    (await next)();
    expect(budget.running()).toBe(0);
  });
});

/** `POST /check` answers after a short while, counting the calls in flight in all and per workspace. */
async function startReceiver() {
  const now = new Map<string, number>();
  const max = { all: 0, A: 0, B: 0 } as Record<string, number>;
  let all = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const ws = String((JSON.parse(body || '{}') as { message?: string }).message).slice(0, 1);
      all++;
      now.set(ws, (now.get(ws) ?? 0) + 1);
      max.all = Math.max(max.all, all);
      max[ws] = Math.max(max[ws] ?? 0, now.get(ws)!);
      setTimeout(() => {
        all--;
        now.set(ws, now.get(ws)! - 1);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ checked: 'ok' }));
      }, 40);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    max,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('evaluations on a server with EVALUATION_ROWS_IN_FLIGHT=3 and …_PER_WORKSPACE=2', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let t: Tenancy;

  beforeAll(async () => {
    useFreshDataDir('paiflow-row-budget-');
    receiver = await startReceiver();
    process.env.HTTP_ALLOWLIST = `127.0.0.1:${receiver.port}`;
    process.env.EVALUATION_ROWS_IN_FLIGHT = '3';
    process.env.EVALUATION_ROWS_IN_FLIGHT_PER_WORKSPACE = '2';
    t = await createTenancy();
  }, 120_000);

  afterAll(async () => {
    expectNoServerErrorsOrStacks();
    await (await getApp()).close();
    await receiver?.close();
    delete process.env.EVALUATION_ROWS_IN_FLIGHT;
    delete process.env.EVALUATION_ROWS_IN_FLIGHT_PER_WORKSPACE;
  });

  async function startEvaluations(headers: Record<string, string>, workspace: 'A' | 'B', count: number) {
    const graph = {
      nodes: [
        {
          id: 'start',
          type: 'start',
          position: { x: 0, y: 0 },
          data: { config: { inputs: [{ name: 'message', type: 'string' }] } },
        },
        {
          id: 'check',
          type: 'http',
          position: { x: 200, y: 0 },
          data: {
            config: {
              method: 'POST',
              url: `http://127.0.0.1:${receiver.port}/check`,
              bodyType: 'json',
              body: '{"message":"{{inputs.message}}"}',
            },
          },
        },
        {
          id: 'end',
          type: 'end',
          position: { x: 400, y: 0 },
          data: { config: { outputs: [{ name: 'checked', value: '{{check.output.body.checked}}' }] } },
        },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'check' },
        { id: 'e2', source: 'check', target: 'end' },
      ],
    };
    const wf = await call(createWorkflow, 'POST', '/api/workflows', { body: { name: 'Checks', graph }, headers });
    expect(wf.status, wf.text).toBe(201);
    const rows = Array.from({ length: 10 }, (_, i) => ({
      inputs: { message: `${workspace} row ${i}` },
      expected: { checked: 'ok' },
    }));
    const ds = await call(createDataset, 'POST', '/api/datasets', { body: { name: 'rows', rows }, headers });
    expect(ds.status, ds.text).toBe(201);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const ev = await call(startEvaluation, 'POST', `/api/workflows/${wf.body.id}/evaluations`, {
        body: {
          datasetId: ds.body.id,
          version: 'draft',
          concurrency: 16,
          scorers: [{ name: 'ok', type: 'exact', field: 'checked' }],
        },
        headers,
        params: { id: wf.body.id },
      });
      expect(ev.status, ev.text).toBe(202);
      ids.push(ev.body.evaluationId);
    }
    return ids.map((id) => ({ id, headers }));
  }

  it('keeps at most 3 rows in flight (2 of a workspace) and scores every row of 4 evaluations', async () => {
    // Concurrency 16 each (the most an evaluation may ask for), two evaluations in each of two workspaces.
    const started = [
      ...(await startEvaluations(t.ownerA.headers, 'A', 2)),
      ...(await startEvaluations(t.ownerB.headers, 'B', 2)),
    ];
    for (const { id, headers } of started) {
      let ev: any;
      for (let i = 0; i < 600; i++) {
        ev = (await call(getEvaluation, 'GET', `/api/evaluations/${id}`, { headers, params: { id } })).body;
        if (!['queued', 'running'].includes(ev.status)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(ev.status).toBe('succeeded');
      expect(ev.progress).toEqual({ total: 10, done: 10, running: 0, pending: 0 });
      expect(ev.summary.ok).toEqual({ mean: 1, passRate: 1 });
    }
    expect(receiver.max.all).toBeLessThanOrEqual(3);
    expect(receiver.max.A).toBeLessThanOrEqual(2);
    expect(receiver.max.B).toBeLessThanOrEqual(2);
    // The budget is used, not run one row at a time.
    expect(receiver.max.all).toBeGreaterThan(1);
  }, 180_000);
});
