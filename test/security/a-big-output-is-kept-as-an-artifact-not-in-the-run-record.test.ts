/**
 * Guarantee: a node that produces megabytes does not bloat the run record. A value over NODE_OUTPUT_MAX_BYTES
 * (1 MB by default) is stored with its large strings moved into artifacts — a reference with the artifact's url, the
 * length and a preview stand in for them — in the node's record, its events and the run's outputs; the artifact
 * holds the whole text. The node's successors still get the whole value, in the same execution and after a resume
 * (which reads it back from the artifact without running the node again).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getArtifact } from '@/app/api/artifacts/[id]/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as resumeRun } from '@/app/api/runs/[runId]/resume/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectNoServerErrorsOrStacks, useFreshDataDir, waitForRun } from '../api/api-helpers';

useFreshDataDir('paiflow-big-output-');
process.env.SEED_EXAMPLE = '0';

/** The receiver of the HTTP step: fails its first call, then answers with the length of the body it got. */
let receiver: Server;
let port = 0;
let calls = 0;
beforeAll(async () => {
  receiver = createServer((req, res) => {
    let length = 0;
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (length += chunk.length));
    req.on('end', () => {
      calls++;
      if (calls === 1) return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"no":1}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ length }));
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  port = (receiver.address() as AddressInfo).port;
  process.env.HTTP_ALLOWLIST = `127.0.0.1:${port}`;
  await getApp();
});
afterAll(async () => {
  await (await getApp()).close();
  await new Promise((r) => receiver.close(r));
});

const node = (id: string, type: string, config: object, x = 0) => ({
  id,
  type,
  position: { x, y: 0 },
  data: { config },
});
const THIRTY_TIMES = '{{inputs.big}}'.repeat(30);
const BIG = 'ab'.repeat(50_000); // 100 kB in (kept as it is: under the limit), 3 MB out

async function start(graph: object, big = BIG) {
  const wf = await call(createWf, 'POST', '/api/workflows', { body: { name: 'big output', graph } });
  expect(wf.status, wf.text).toBe(201);
  const a = await call(startRun, 'POST', `/api/workflows/${wf.body.id}/runs`, {
    params: { id: wf.body.id },
    body: { inputs: { big } },
  });
  expect(a.status, a.text).toBe(202);
  return a.body.runId as string;
}

async function artifactText(url: string) {
  const id = url.split('/').pop()!;
  const a = await call(getArtifact, 'GET', url, { params: { id } });
  expect(a.status).toBe(200);
  return a.text;
}

describe('big node outputs', () => {
  it('keeps megabytes out of the run record, in an artifact the reference points to', async () => {
    const runId = await start({
      nodes: [
        node('start', 'start', { inputs: [{ name: 'big', type: 'string', required: true }] }),
        node('t', 'template', { template: THIRTY_TIMES }, 200),
        node('end', 'end', { outputs: [{ name: 'text', value: '{{t.output.text}}' }] }, 400),
      ],
      edges: [
        { id: 'e1', source: 'start', target: 't' },
        { id: 'e2', source: 't', target: 'end' },
      ],
    });
    const run = await waitForRun(getRun, runId);
    expect(run.status).toBe('succeeded');
    // The whole record — the 100 kB input twice (the run's inputs, Start's output), the rest small — not 3 MB (or
    // 12, counting every copy).
    expect(JSON.stringify(run).length).toBeLessThan(300_000);
    const ref = run.outputs.text;
    expect(ref).toMatchObject({ offloaded: 'text', chars: 3_000_000, contentType: 'text/plain' });
    expect(ref.preview).toBe(BIG.slice(0, 1000));
    // End received the whole text (its length says so), and the artifact has every character of it.
    expect(await artifactText(ref.url)).toBe(BIG.repeat(30));
    const t = run.nodes.find((n: any) => n.nodeId === 't');
    expect(t.output.text).toMatchObject({ offloaded: 'text', chars: 3_000_000, artifactId: ref.artifactId });
    // End's input (its resolved config holds the text too) is kept the same way; one artifact serves every copy.
    const end = run.nodes.find((n: any) => n.nodeId === 'end');
    expect(JSON.stringify(end.input)).toContain(ref.artifactId);
    const events = await (await getApp()).store.getEvents(runId, 0, 1000);
    expect(JSON.stringify(events).length).toBeLessThan(300_000);
    expectNoServerErrorsOrStacks();
  });

  it('keeps Chinese text and emoji whole in the artifact', async () => {
    const text = '😀文'.repeat(400_000); // 1.2 M UTF-16 units: encoded in parts, one boundary inside an emoji
    const runId = await start(
      {
        nodes: [
          node('start', 'start', { inputs: [{ name: 'big', type: 'string', required: true }] }),
          node('t', 'template', { template: '{{inputs.big}}{{inputs.big}}' }, 200),
          node('end', 'end', { outputs: [{ name: 'text', value: '{{t.output.text}}' }] }, 400),
        ],
        edges: [
          { id: 'e1', source: 'start', target: 't' },
          { id: 'e2', source: 't', target: 'end' },
        ],
      },
      '😀文'.repeat(200_000),
    );
    const run = await waitForRun(getRun, runId);
    expect(run.status).toBe('succeeded');
    expect(run.outputs.text).toMatchObject({ offloaded: 'text', chars: text.length });
    expect(await artifactText(run.outputs.text.url)).toBe(text);
  });

  it('a resume hands the successors the whole value from the artifact, without running the node again', async () => {
    const runId = await start({
      nodes: [
        node('start', 'start', { inputs: [{ name: 'big', type: 'string', required: true }] }),
        node('t', 'template', { template: THIRTY_TIMES }, 200),
        node(
          'send',
          'http',
          { method: 'POST', url: `http://127.0.0.1:${port}/take`, bodyType: 'text', body: '{{t.output.text}}' },
          400,
        ),
        node('end', 'end', { outputs: [{ name: 'received', value: '{{send.output.body.length}}' }] }, 600),
      ],
      edges: [
        { id: 'e1', source: 'start', target: 't' },
        { id: 'e2', source: 't', target: 'send' },
        { id: 'e3', source: 'send', target: 'end' },
      ],
    });
    const failed = await waitForRun(getRun, runId);
    expect(failed.status).toBe('failed');
    expect(failed.nodes.find((n: any) => n.nodeId === 't').output.text).toMatchObject({ offloaded: 'text' });

    const r = await call(resumeRun, 'POST', `/api/runs/${runId}/resume`, { params: { runId }, body: {} });
    expect(r.status, r.text).toBe(202);
    const done = await waitForRun(getRun, runId);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(done.outputs.received).toBe(3_000_000);
    const events = await (await getApp()).store.getEvents(runId, 0, 1000);
    expect(events.filter((e) => e.type === 'node.started' && e.nodeId === 't')).toHaveLength(1);
  });
});
