/**
 * Two workspaces on one server: the owner of B cannot list, read, run, resume, cancel, stream, export, publish, key
 * or delete anything of A — by id, by slug or by naming A's workspace — and A's data is intact afterwards. Runs of
 * B cannot reach A's knowledge bases or credentials either.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GET as audit } from '@/app/api/audit/route';
import { GET as listCreds } from '@/app/api/credentials/route';
import { DELETE as deleteCred } from '@/app/api/credentials/[id]/route';
import { GET as listKbs } from '@/app/api/knowledge-bases/route';
import { DELETE as deleteKb, GET as getKb } from '@/app/api/knowledge-bases/[id]/route';
import { POST as searchKb } from '@/app/api/knowledge-bases/[id]/search/route';
import { POST as answer } from '@/app/api/runs/[runId]/answer/route';
import { POST as cancel } from '@/app/api/runs/[runId]/cancel/route';
import { GET as events } from '@/app/api/runs/[runId]/events/route';
import { POST as resume } from '@/app/api/runs/[runId]/resume/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { GET as getV1Run } from '@/app/api/v1/runs/[runId]/route';
import { POST as runPublished } from '@/app/api/v1/workflows/[slug]/run/route';
import { DELETE as revokeKey } from '@/app/api/api-keys/[id]/route';
import { GET as listKeys, POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { GET as exportWf } from '@/app/api/workflows/[id]/export/route';
import { DELETE as unpublish, POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { DELETE as deleteWf, GET as getWf, PUT as putWf } from '@/app/api/workflows/[id]/route';
import { GET as listRuns, POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { GET as listWf, POST as createWf } from '@/app/api/workflows/route';
import { GET as members } from '@/app/api/workspaces/[id]/members/route';
import { POST as invite } from '@/app/api/workspaces/[id]/invitations/route';
import { getApp } from '@/lib/server/app';
import { call, expectNoServerErrorsOrStacks, simpleGraph, waitForRun } from '../../api/api-helpers';
import { createTenancy, type Tenancy } from './tenancy';

export function isolationSuite(onClose?: () => Promise<void>) {
  let t: Tenancy;
  let b: Record<string, string>;
  beforeAll(async () => {
    t = await createTenancy();
    b = t.ownerB.headers;
  }, 120_000);
  afterAll(async () => {
    expectNoServerErrorsOrStacks();
    await (await getApp()).close();
    await onClose?.();
  });

  it('lists show B nothing of A', async () => {
    const wfs = await call(listWf, 'GET', '/api/workflows', { headers: b });
    expect(wfs.status).toBe(200);
    expect(wfs.body.map((w: any) => w.id)).not.toContain(t.workflowA.id);
    const kbs = await call(listKbs, 'GET', '/api/knowledge-bases', { headers: b });
    expect(kbs.body.map((k: any) => k.id)).not.toContain(t.kbA);
    const creds = await call(listCreds, 'GET', '/api/credentials', { headers: b });
    expect(creds.body.map((c: any) => c.id)).not.toContain(t.credentialA);
    const log = await call(audit, 'GET', '/api/audit', { headers: b });
    expect(log.status).toBe(200);
    expect(JSON.stringify(log.body)).not.toContain(t.workflowA.id);
    // …while A sees its own.
    const own = await call(listWf, 'GET', '/api/workflows', { headers: t.ownerA.headers });
    expect(own.body.map((w: any) => w.id)).toContain(t.workflowA.id);
  });

  it("reading, running or changing A's workflow by id is 404 for B", async () => {
    const p = { id: t.workflowA.id };
    const url = `/api/workflows/${t.workflowA.id}`;
    const tries = [
      await call(getWf, 'GET', url, { params: p, headers: b }),
      await call(putWf, 'PUT', url, { params: p, headers: b, body: { name: 'pwned' } }),
      await call(exportWf, 'GET', `${url}/export`, { params: p, headers: b }),
      await call(startRun, 'POST', `${url}/runs`, { params: p, headers: b, body: { inputs: { message: 'x' } } }),
      await call(listRuns, 'GET', `${url}/runs`, { params: p, headers: b }),
      await call(publish, 'POST', `${url}/publish`, { params: p, headers: b, body: {} }),
      await call(unpublish, 'DELETE', `${url}/publish`, { params: p, headers: b }),
      await call(createKey, 'POST', `${url}/api-keys`, { params: p, headers: b, body: {} }),
      await call(listKeys, 'GET', `${url}/api-keys`, { params: p, headers: b }),
      await call(revokeKey, 'DELETE', `/api/api-keys/${t.keyA.id}`, { params: { id: t.keyA.id }, headers: b }),
      await call(deleteWf, 'DELETE', url, { params: p, headers: b }),
    ];
    expect(tries.map((a) => a.status)).toEqual(tries.map(() => 404));
    const still = await call(getWf, 'GET', url, { params: p, headers: t.ownerA.headers });
    expect(still.status).toBe(200);
    expect(still.body.name).toBe('A secret flow');
    expect(still.body.slug).toBe(t.workflowA.slug);
    const runs = await call(listRuns, 'GET', `${url}/runs`, { params: p, headers: t.ownerA.headers });
    expect(runs.body).toHaveLength(1);
  });

  it("A's runs cannot be read, streamed, resumed, cancelled or answered by B", async () => {
    const p = { runId: t.runA };
    const url = `/api/runs/${t.runA}`;
    const tries = [
      await call(getRun, 'GET', url, { params: p, headers: b }),
      await call(events, 'GET', `${url}/events`, { params: p, headers: b }),
      await call(resume, 'POST', `${url}/resume`, { params: p, headers: b, body: { fromNodeId: 't1' } }),
      await call(cancel, 'POST', `${url}/cancel`, { params: p, headers: b }),
      await call(answer, 'POST', `${url}/answer`, { params: p, headers: b, body: { nodeId: 't1', answer: 1 } }),
    ];
    expect(tries.map((a) => a.status)).toEqual(tries.map(() => 404));
    expect(tries.map((a) => a.body?.error?.code)).toEqual(tries.map(() => 'RUN_NOT_FOUND'));
    const run = await call(getRun, 'GET', url, { params: p, headers: t.ownerA.headers });
    expect(run.body.status).toBe('succeeded');
  });

  it("A's knowledge base and credential are 404 for B, and still there for A", async () => {
    const p = { id: t.kbA };
    expect((await call(getKb, 'GET', `/api/knowledge-bases/${t.kbA}`, { params: p, headers: b })).status).toBe(404);
    const s = await call(searchKb, 'POST', `/api/knowledge-bases/${t.kbA}/search`, {
      params: p,
      headers: b,
      body: { query: 'refunds' },
    });
    expect(s.status).toBe(404);
    expect((await call(deleteKb, 'DELETE', `/api/knowledge-bases/${t.kbA}`, { params: p, headers: b })).status).toBe(
      404,
    );
    const c = await call(deleteCred, 'DELETE', `/api/credentials/${t.credentialA}`, {
      params: { id: t.credentialA },
      headers: b,
    });
    expect(c.status).toBe(404);
    expect(
      (await call(getKb, 'GET', `/api/knowledge-bases/${t.kbA}`, { params: p, headers: t.ownerA.headers })).status,
    ).toBe(200);
    const creds = await call(listCreds, 'GET', '/api/credentials', { headers: t.ownerA.headers });
    expect(creds.body.map((x: any) => x.id)).toContain(t.credentialA);
  });

  it("naming A's workspace (X-Workspace-Id or its path) is 404 for B", async () => {
    const asA = { ...b, 'x-workspace-id': t.workspaceA };
    const a = await call(listWf, 'GET', '/api/workflows', { headers: asA });
    expect({ status: a.status, code: a.body.error.code }).toEqual({ status: 404, code: 'WORKSPACE_NOT_FOUND' });
    const m = await call(members, 'GET', `/api/workspaces/${t.workspaceA}/members`, {
      params: { id: t.workspaceA },
      headers: b,
    });
    expect(m.status).toBe(404);
    const i = await call(invite, 'POST', `/api/workspaces/${t.workspaceA}/invitations`, {
      params: { id: t.workspaceA },
      headers: b,
      body: { email: 'spy@example.test', role: 'owner' },
    });
    expect(i.status).toBe(404);
  });

  it("by slug: B's API key cannot run A's published workflow, nor read A's run", async () => {
    const wf = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'B flow', graph: simpleGraph() },
      headers: b,
    });
    expect(wf.status, wf.text).toBe(201);
    await call(publish, 'POST', `/api/workflows/${wf.body.id}/publish`, {
      params: { id: wf.body.id },
      headers: b,
      body: {},
    });
    const key = await call(createKey, 'POST', `/api/workflows/${wf.body.id}/api-keys`, {
      params: { id: wf.body.id },
      headers: b,
      body: {},
    });
    expect(key.status).toBe(201);
    const bKey = { authorization: `Bearer ${key.body.key}` };
    const r = await call(runPublished, 'POST', `/api/v1/workflows/${t.workflowA.slug}/run`, {
      params: { slug: t.workflowA.slug },
      headers: bKey,
      body: { inputs: { message: 'x' } },
    });
    expect(r.status).toBe(403);
    expect(r.body.runId).toBeUndefined();
    const v = await call(getV1Run, 'GET', `/api/v1/runs/${t.runA}`, { params: { runId: t.runA }, headers: bKey });
    expect(v.status).toBe(404);
    // A personal access token is not an API key: the published endpoint refuses it.
    const pat = await call(runPublished, 'POST', `/api/v1/workflows/${t.workflowA.slug}/run`, {
      params: { slug: t.workflowA.slug },
      headers: { authorization: `Bearer ${t.ownerA.token}` },
      body: { inputs: { message: 'x' } },
    });
    expect(pat.status).toBe(401);
  });

  it("a run of B's workflow cannot search A's knowledge base or send A's credential", async () => {
    const graph = {
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
        {
          id: 'kb',
          type: 'knowledge',
          position: { x: 200, y: 0 },
          data: { config: { knowledgeBaseId: t.kbA, query: 'refunds' } },
        },
        {
          id: 'call',
          type: 'http',
          position: { x: 200, y: 200 },
          data: { config: { url: 'https://api.example.com/x', credentialId: t.credentialA } },
        },
        { id: 'end', type: 'end', position: { x: 400, y: 0 }, data: { config: { outputs: [] } } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'kb' },
        { id: 'e2', source: 'start', target: 'call' },
        { id: 'e3', source: 'kb', target: 'end' },
        { id: 'e4', source: 'call', target: 'end' },
      ],
    };
    const wf = await call(createWf, 'POST', '/api/workflows?draft=1', { body: { name: 'B probe', graph }, headers: b });
    expect(wf.status, wf.text).toBe(201);
    const run = await call(startRun, 'POST', `/api/workflows/${wf.body.id}/runs`, {
      params: { id: wf.body.id },
      headers: b,
      body: { inputs: {} },
    });
    expect(run.status).toBe(202);
    const asB = (req: Request, ctx: unknown) =>
      getRun(new Request(req.url, { headers: b }), ctx as { params: Promise<{ runId: string }> });
    const done = await waitForRun(asB, run.body.runId);
    const byNode = Object.fromEntries(done.nodes.map((n: any) => [n.nodeId, n]));
    expect(byNode.kb.status).toBe('failed');
    expect(byNode.kb.error.code).toBe('KNOWLEDGE_BASE_NOT_FOUND');
    expect(byNode.call.status).toBe('failed');
    expect(byNode.call.error.code).toBe('CREDENTIAL_NOT_FOUND');
  });
}
