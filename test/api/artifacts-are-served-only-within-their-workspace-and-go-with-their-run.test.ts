// Guarantees: GET /api/artifacts/:id serves a run's file to members of its workspace (viewers too) with its content
// type, length, `inline` file name, `nosniff` and a CSP of `default-src 'none'` (a stored SVG runs no script), one
// byte range at a time; a member of another workspace gets 404 and nobody signed in 401. A published run's outputs
// name its files at /api/v1/runs/:runId/artifacts/:id, which the workflow's API key may fetch (another run's file is
// 404). Deleting the workflow deletes its runs' artifacts and the sweep removes their blobs; ARTIFACTS_RETENTION_DAYS
// deletes older artifacts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getArtifact } from '@/app/api/artifacts/[id]/route';
import { GET as getV1Artifact } from '@/app/api/v1/runs/[runId]/artifacts/[id]/route';
import { GET as getV1Run } from '@/app/api/v1/runs/[runId]/route';
import { POST as runV1 } from '@/app/api/v1/workflows/[slug]/run/route';
import { DELETE as deleteWf } from '@/app/api/workflows/[id]/route';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { Artifacts } from '@/engine/artifacts/artifacts';
import { parseWav } from '@/engine/media/wav';
import { getApp } from '@/lib/server/app';
import type { App } from '@/lib/server/app-types';
import { createTenancy, type Tenancy } from '../auth/support/tenancy';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir } from './api-helpers';
import { bearer } from './v1-endpoint-helpers';

useFreshDataDir('paiflow-artifacts-');
process.env.SEED_EXAMPLE = '0';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>';

let app: App;
let t: Tenancy;
let svg: { artifactId: string; url: string };

/** The raw answer (bytes intact), for checks of the body itself. */
async function raw<P extends Record<string, string>>(
  handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>,
  url: string,
  params: P,
  headers: Record<string, string>,
) {
  return handler(new Request(`http://localhost${url}`, { headers }), { params: Promise.resolve(params) });
}

beforeAll(async () => {
  app = await getApp();
  t = await createTenancy();
  svg = await app.artifacts.save(t.runA, 't1', {
    bytes: new TextEncoder().encode(SVG),
    contentType: 'image/svg+xml',
    name: 'drawing "final".svg',
  });
}, 120_000);

afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await app?.close();
});

describe('GET /api/artifacts/:id', () => {
  it('serves the file to its workspace with headers that keep it inert', async () => {
    const res = await raw(getArtifact, svg.url, { id: svg.artifactId }, t.ownerA.headers);
    expect(res.status).toBe(200);
    expect(new TextDecoder().decode(await res.arrayBuffer())).toBe(SVG);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-length')).toBe(String(SVG.length));
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="drawing final.svg"; filename*=UTF-8''drawing%20final.svg`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');

    const viewer = await call(getArtifact, 'GET', svg.url, {
      params: { id: svg.artifactId },
      headers: t.viewerA.headers,
    });
    expect(viewer.status).toBe(200);
  });

  it('is 404 for another workspace and 401 without credentials', async () => {
    const b = await call(getArtifact, 'GET', svg.url, { params: { id: svg.artifactId }, headers: t.ownerB.headers });
    expectError(b, 404, 'ARTIFACT_NOT_FOUND');
    const anonymous = await call(getArtifact, 'GET', svg.url, { params: { id: svg.artifactId }, anonymous: true });
    expectError(anonymous, 401, 'UNAUTHENTICATED');
    const madeUp = await call(getArtifact, 'GET', '/api/artifacts/x', { params: { id: '../../etc/passwd' } });
    expectError(madeUp, 404, 'ARTIFACT_NOT_FOUND');
  });

  it('serves one byte range (players seek with it) and refuses one past the end', async () => {
    const res = await raw(getArtifact, svg.url, { id: svg.artifactId }, { ...t.ownerA.headers, range: 'bytes=5-9' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 5-9/${SVG.length}`);
    expect(new TextDecoder().decode(await res.arrayBuffer())).toBe(SVG.slice(5, 10));
    const past = await call(getArtifact, 'GET', svg.url, {
      params: { id: svg.artifactId },
      headers: { ...t.ownerA.headers, range: 'bytes=9999-' },
    });
    expectError(past, 416, 'RANGE_NOT_SATISFIABLE');
  });
});

describe('published runs', () => {
  it('name their files at the v1 URL, which the API key authorises', async () => {
    const graph = {
      nodes: [
        {
          id: 'start',
          type: 'start',
          position: { x: 0, y: 0 },
          data: { config: { inputs: [{ name: 'text', type: 'string', required: true }] } },
        },
        { id: 'speech', type: 'tts', position: { x: 200, y: 0 }, data: { config: { text: '{{inputs.text}}' } } },
        {
          id: 'end',
          type: 'end',
          position: { x: 400, y: 0 },
          data: { config: { outputs: [{ name: 'audio', value: '{{speech.output}}' }] } },
        },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'speech' },
        { id: 'e2', source: 'speech', target: 'end' },
      ],
    };
    const wf = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'Speak', graph },
      headers: t.ownerA.headers,
    });
    expect(wf.status, wf.text).toBe(201);
    const pub = await call(publish, 'POST', `/api/workflows/${wf.body.id}/publish`, {
      body: {},
      params: { id: wf.body.id },
      headers: t.ownerA.headers,
    });
    expect(pub.status, pub.text).toBe(201);
    const key = await call(createKey, 'POST', `/api/workflows/${wf.body.id}/api-keys`, {
      body: { name: 'k' },
      params: { id: wf.body.id },
      headers: t.ownerA.headers,
    });
    const ran = await call(runV1, 'POST', `/api/v1/workflows/${pub.body.slug}/run`, {
      body: { inputs: { text: 'Hello from the published endpoint.' }, mode: 'sync' },
      params: { slug: pub.body.slug },
      headers: bearer(key.body.key),
    });
    expect(ran.status, ran.text).toBe(200);
    const audio = ran.body.outputs.audio;
    expect(audio.url).toBe(`/api/v1/runs/${ran.body.runId}/artifacts/${audio.artifactId}`);
    const view = await call(getV1Run, 'GET', `/api/v1/runs/${ran.body.runId}`, {
      params: { runId: ran.body.runId },
      headers: bearer(key.body.key),
    });
    expect(view.body.outputs.audio.url).toBe(audio.url);

    const params = { runId: ran.body.runId, id: audio.artifactId };
    const file = await raw(getV1Artifact, audio.url, params, bearer(key.body.key));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('audio/wav');
    expect(parseWav(new Uint8Array(await file.arrayBuffer())).durationMs).toBeGreaterThan(500);

    // The key of another workflow, another run's file, no key: 404 / 404 / 401.
    const other = await call(getV1Artifact, 'GET', audio.url, { params, headers: bearer(t.keyA.key) });
    expectError(other, 404, 'RUN_NOT_FOUND');
    const notThisRun = await call(getV1Artifact, 'GET', 'x', {
      params: { runId: ran.body.runId, id: svg.artifactId },
      headers: bearer(key.body.key),
    });
    expectError(notThisRun, 404, 'ARTIFACT_NOT_FOUND');
    expect((await call(getV1Artifact, 'GET', audio.url, { params })).status).toBe(401);
  }, 60_000);
});

describe('retention', () => {
  it('deletes a workflow’s artifacts with its runs, and the sweep removes their blobs', async () => {
    const record = (await app.artifacts.store.get(svg.artifactId))!;
    expect(await app.artifacts.blobs.get(record.storageKey)).not.toBeNull();
    const del = await call(deleteWf, 'DELETE', `/api/workflows/${t.workflowA.id}`, {
      params: { id: t.workflowA.id },
      headers: t.ownerA.headers,
    });
    expect(del.status, del.text).toBeLessThan(300);
    expect(await app.artifacts.store.get(svg.artifactId)).toBeNull();
    expectError(
      await call(getArtifact, 'GET', svg.url, { params: { id: svg.artifactId }, headers: t.ownerA.headers }),
      404,
      'ARTIFACT_NOT_FOUND',
    );
    // A blob younger than the grace period may belong to a save in progress: kept. Later it is an orphan.
    expect((await app.artifacts.sweep()).orphans).toBe(0);
    const later = await app.artifacts.sweep(new Date(Date.now() + 2 * 3600_000));
    expect(later.orphans).toBeGreaterThanOrEqual(1);
    expect(await app.artifacts.blobs.get(record.storageKey)).toBeNull();
  });

  it('ARTIFACTS_RETENTION_DAYS deletes artifacts older than that, rows and blobs', async () => {
    const runs = await app.store.listRuns((await app.store.listWorkflows(t.workspaceA))[0].id);
    const kept = await app.artifacts.save(runs[0].id, 'speech', {
      bytes: new Uint8Array([1, 2, 3]),
      contentType: 'application/octet-stream',
      name: 'x.bin',
    });
    const withRetention = new Artifacts(app.artifacts.store, app.artifacts.blobs, { maxBytes: 1000, retentionDays: 7 });
    expect((await withRetention.sweep()).expired).toBe(0);
    const key = (await app.artifacts.store.get(kept.artifactId))!.storageKey;
    const swept = await withRetention.sweep(new Date(Date.now() + 8 * 86_400_000));
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    expect(await app.artifacts.store.get(kept.artifactId)).toBeNull();
    expect(await app.artifacts.blobs.get(key)).toBeNull();
  });
});
