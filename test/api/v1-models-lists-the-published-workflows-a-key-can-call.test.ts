// Guarantees: GET /api/v1/models answers OpenAI's models list, so the official `openai` SDK's models.list() over a
// real socket returns the published workflows the key can call (id = slug, the `model` of chat completions; created =
// when the current version was published; owned_by paiflow), whether or not they are opted in to MCP; an unpublished
// workflow is not listed; a missing, wrong or revoked key is the SDK's AuthenticationError (401).
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApp } from '@/lib/server/app';
import { ownerHeaders } from '../support/owner';
import { defaultRoutes, startRouteServer, type RouteServer } from '../support/route-server';
import { simpleGraph, useFreshDataDir } from './api-helpers';

useFreshDataDir('paiflow-models-');
process.env.SEED_EXAMPLE = '0';

let srv: RouteServer;

async function json(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${srv.baseUrl}${url}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}
const asOwner = async (method: string, url: string, body?: unknown) =>
  json(method, url, body, await ownerHeaders(await getApp()));

const client = (key: string) =>
  new OpenAI({ baseURL: `${srv.baseUrl}/api/v1`, apiKey: key, maxRetries: 0, timeout: 30_000 });

async function published(name: string) {
  const wf = await asOwner('POST', '/api/workflows', { name, graph: simpleGraph('Hi {{inputs.message}}') });
  expect(wf.status, wf.text).toBe(201);
  const p = await asOwner('POST', `/api/workflows/${wf.body.id}/publish`);
  expect(p.status, p.text).toBe(201);
  const k = await asOwner('POST', `/api/workflows/${wf.body.id}/api-keys`, { name: 'models' });
  expect(k.status, k.text).toBe(201);
  return { id: wf.body.id as string, slug: p.body.slug as string, key: k.body.key as string, keyId: k.body.id };
}

let triage: Awaited<ReturnType<typeof published>>;
let other: Awaited<ReturnType<typeof published>>;

beforeAll(async () => {
  await getApp();
  const routes = [...(await defaultRoutes()), ['/api/v1/models', await import('@/app/api/v1/models/route')]] as Awaited<
    ReturnType<typeof defaultRoutes>
  >;
  srv = await startRouteServer(routes, { anonymous: true });
  triage = await published('Support triage');
  other = await published('Other flow');
});

afterAll(async () => {
  await srv?.close();
  await (await getApp()).close();
});

describe('GET /api/v1/models', () => {
  it("models.list() returns the key's published workflow by slug, usable as the chat model", async () => {
    const page = await client(triage.key).models.list();
    expect(page.data.map((m) => m.id)).toEqual([triage.slug]);
    expect(page.data[0]).toMatchObject({ id: 'support-triage', object: 'model', owned_by: 'paiflow' });
    const versions = (await asOwner('GET', `/api/workflows/${triage.id}/versions`)).body;
    const current = (Array.isArray(versions) ? versions : versions.versions).find((v: any) => v.current);
    expect(page.data[0].created).toBe(Math.floor(Date.parse(current.createdAt) / 1000));
    // Another key sees its own workflow only.
    expect((await client(other.key).models.list()).data.map((m) => m.id)).toEqual([other.slug]);
    const chat = await client(triage.key).chat.completions.create({
      model: page.data[0].id,
      messages: [{ role: 'user', content: 'there' }],
    });
    expect(chat.choices[0].message.content).toBe('Hi there');
  });

  it('the raw answer is the OpenAI list shape', async () => {
    const r = await json('GET', '/api/v1/models', undefined, { authorization: `Bearer ${triage.key}` });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      object: 'list',
      data: [{ id: triage.slug, object: 'model', created: expect.any(Number), owned_by: 'paiflow' }],
    });
  });

  it('an unpublished workflow is not listed; publishing it again lists it', async () => {
    expect((await asOwner('DELETE', `/api/workflows/${other.id}/publish`)).status).toBe(200);
    expect((await client(other.key).models.list()).data).toEqual([]);
    expect((await asOwner('POST', `/api/workflows/${other.id}/publish`)).status).toBe(201);
    expect((await client(other.key).models.list()).data.map((m) => m.id)).toEqual([other.slug]);
  });

  it('a wrong, revoked or missing key → AuthenticationError (401) with PaiFlow code and OpenAI type', async () => {
    const wrong = await client(`pf_${'x'.repeat(43)}`)
      .models.list()
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(wrong).toMatchObject({ status: 401, code: 'UNAUTHORIZED', type: 'authentication_error' });

    expect((await asOwner('DELETE', `/api/api-keys/${triage.keyId}`)).status).toBe(200);
    const revoked = await client(triage.key)
      .models.list()
      .catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(OpenAI.AuthenticationError);

    const none = await json('GET', '/api/v1/models');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(none.body.error).toMatchObject({ code: 'UNAUTHORIZED', type: 'authentication_error' });
  });
});
