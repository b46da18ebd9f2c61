/**
 * Two workspaces with data in the first: A (owner, an editor and a viewer; a workflow with a run, a published
 * version and an API key, a knowledge base with a document, a credential) and B (another owner, nothing of A's).
 * Users sign in through the real routes; each gets a personal access token.
 */
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { POST as createKb } from '@/app/api/knowledge-bases/route';
import { POST as addDoc } from '@/app/api/knowledge-bases/[id]/documents/route';
import { POST as createCred } from '@/app/api/credentials/route';
import { POST as setup } from '@/app/api/auth/setup/route';
import { POST as createToken } from '@/app/api/auth/tokens/route';
import { POST as createWorkspace } from '@/app/api/workspaces/route';
import { POST as invite } from '@/app/api/workspaces/[id]/invitations/route';
import { POST as accept } from '@/app/api/auth/accept-invite/route';
import { GET as state } from '@/app/api/auth/state/route';
import { call, simpleGraph, waitForRun } from '../../api/api-helpers';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { expect } from 'vitest';

export interface Member {
  token: string;
  headers: Record<string, string>;
  userId: string;
  email: string;
}

export interface Tenancy {
  ownerA: Member;
  editorA: Member;
  viewerA: Member;
  ownerB: Member;
  workspaceA: string;
  workspaceB: string;
  workflowA: { id: string; slug: string };
  runA: string;
  keyA: { id: string; key: string };
  kbA: string;
  docA: string;
  credentialA: string;
  tokenA: string;
}

const PASSWORD = 'correct-horse-battery';

function cookieOf(res: { headers: Headers }): string {
  const set = res.headers.get('set-cookie') ?? '';
  const m = /paiflow_session=([^;]+)/.exec(set);
  expect(m, `a session cookie in ${set}`).toBeTruthy();
  return `paiflow_session=${m![1]}`;
}

async function patFor(cookie: string, workspaceId?: string): Promise<string> {
  const t = await call(createToken, 'POST', '/api/auth/tokens', {
    body: { name: 'tenancy test', ...(workspaceId ? { workspaceId } : {}) },
    headers: { cookie },
  });
  expect(t.status, t.text).toBe(201);
  return t.body.token;
}

async function member(cookie: string, email: string, workspaceId?: string): Promise<Member> {
  const token = await patFor(cookie, workspaceId);
  const s = await call(state, 'GET', '/api/auth/state', { headers: { cookie } });
  return {
    token,
    headers: { authorization: `Bearer ${token}`, ...(workspaceId ? { 'x-workspace-id': workspaceId } : {}) },
    userId: s.body.user.id,
    email,
  };
}

async function invited(as: Member, workspaceId: string, email: string, role: string): Promise<Member> {
  const inv = await call(invite, 'POST', `/api/workspaces/${workspaceId}/invitations`, {
    body: { email, role },
    headers: as.headers,
    params: { id: workspaceId },
  });
  expect(inv.status, inv.text).toBe(201);
  const a = await call(accept, 'POST', '/api/auth/accept-invite', {
    body: { token: inv.body.token, name: email.split('@')[0], password: PASSWORD },
  });
  expect(a.status, a.text).toBe(201);
  return member(cookieOf(a), email, workspaceId);
}

/** Sets the tenancy up on a fresh app (no user yet). */
export async function createTenancy(): Promise<Tenancy> {
  const s = await call(setup, 'POST', '/api/auth/setup', {
    body: { email: 'owner-a@example.test', password: PASSWORD, name: 'Owner A' },
  });
  expect(s.status, s.text).toBe(201);
  const ownerCookie = cookieOf(s);
  const st = await call(state, 'GET', '/api/auth/state', { headers: { cookie: ownerCookie } });
  const workspaceA = st.body.workspaceId as string;
  const ownerA = await member(ownerCookie, 'owner-a@example.test', workspaceA);
  const editorA = await invited(ownerA, workspaceA, 'editor-a@example.test', 'editor');
  const viewerA = await invited(ownerA, workspaceA, 'viewer-a@example.test', 'viewer');

  // Owner B: a user of A's server with a workspace of their own (and no role in A).
  const wsB = await call(createWorkspace, 'POST', '/api/workspaces', { body: { name: 'B' }, headers: ownerA.headers });
  expect(wsB.status, wsB.text).toBe(201);
  const ownerBInA = await invited(ownerA, wsB.body.id, 'owner-b@example.test', 'owner');
  const ownerB = { ...ownerBInA, headers: { ...ownerBInA.headers, 'x-workspace-id': wsB.body.id } };
  // Owner A leaves nothing behind in B: B's only data is its own.

  const wf = await call(createWf, 'POST', '/api/workflows', {
    body: { name: 'A secret flow', graph: simpleGraph('A says {{inputs.message}}') },
    headers: ownerA.headers,
  });
  expect(wf.status, wf.text).toBe(201);
  const run = await call(startRun, 'POST', `/api/workflows/${wf.body.id}/runs`, {
    body: { inputs: { message: 'hi' } },
    headers: ownerA.headers,
    params: { id: wf.body.id },
  });
  expect(run.status, run.text).toBe(202);
  await waitForRun(getRun, run.body.runId); // the harness signs in as the first user: owner A
  const pub = await call(publish, 'POST', `/api/workflows/${wf.body.id}/publish`, {
    body: {},
    headers: ownerA.headers,
    params: { id: wf.body.id },
  });
  expect(pub.status, pub.text).toBe(201);
  const key = await call(createKey, 'POST', `/api/workflows/${wf.body.id}/api-keys`, {
    body: { name: 'a' },
    headers: ownerA.headers,
    params: { id: wf.body.id },
  });
  expect(key.status, key.text).toBe(201);
  const kb = await call(createKb, 'POST', '/api/knowledge-bases', {
    body: { name: 'A docs' },
    headers: ownerA.headers,
  });
  expect(kb.status, kb.text).toBe(201);
  const doc = await call(addDoc, 'POST', `/api/knowledge-bases/${kb.body.id}/documents`, {
    body: { title: 'Refunds', text: 'Refunds are paid within 14 days.' },
    headers: ownerA.headers,
    params: { id: kb.body.id },
  });
  expect(doc.status, doc.text).toBe(202);
  const cred = await call(createCred, 'POST', '/api/credentials', {
    body: { name: 'A bearer', type: 'bearer', data: { token: 'tok-of-a-0123456789' }, hosts: ['api.example.com'] },
    headers: ownerA.headers,
  });
  expect(cred.status, cred.text).toBe(201);
  return {
    ownerA,
    editorA,
    viewerA,
    ownerB,
    workspaceA,
    workspaceB: wsB.body.id,
    workflowA: { id: wf.body.id, slug: pub.body.slug },
    runA: run.body.runId,
    keyA: { id: key.body.id, key: key.body.key },
    kbA: kb.body.id,
    docA: doc.body.id,
    credentialA: cred.body.id,
    tokenA: (
      await call(createToken, 'POST', '/api/auth/tokens', { body: { name: 'x' }, headers: { cookie: ownerCookie } })
    ).body.id,
  };
}
