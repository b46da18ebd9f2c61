// Guarantees: each published workflow has its own CORS origins (PATCH /api/workflows/:id/publish), applied to every
// v1 answer about it — preflight, run, errors before and after the key check, run reads and its SSE — while a
// workflow without its own list follows the server default (CORS_ORIGINS); malformed origins are refused with a path.
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as v1GetRun, OPTIONS as v1RunOptions } from '@/app/api/v1/runs/[runId]/route';
import { GET as v1Events } from '@/app/api/v1/runs/[runId]/events/route';
import { GET as openapi } from '@/app/api/v1/workflows/[slug]/openapi.json/route';
import { OPTIONS as runOptions, POST as v1Run } from '@/app/api/v1/workflows/[slug]/run/route';
import { POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { GET as getPublish, PATCH as patchPublish, POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, simpleGraph, useFreshDataDir } from './api-helpers';
import { bearer } from './publish-contract-suite';

useFreshDataDir();
process.env.CORS_ORIGINS = 'https://default.example';

const SHOP = 'https://shop.example';
let shop: { id: string; slug: string; key: string };
let plain: { id: string; slug: string; key: string };

async function published(name: string) {
  const c = await call(createWf, 'POST', '/api/workflows', { body: { name, graph: simpleGraph() } });
  const p = await call(publish, 'POST', `/api/workflows/${c.body.id}/publish`, { params: { id: c.body.id } });
  expect(p.status, p.text).toBe(201);
  const key = (await call(createKey, 'POST', `/api/workflows/${c.body.id}/api-keys`, { params: { id: c.body.id } }))
    .body.key as string;
  return { id: c.body.id as string, slug: p.body.slug as string, key };
}

const setOrigins = (id: string, corsOrigins: unknown) =>
  call(patchPublish, 'PATCH', `/api/workflows/${id}/publish`, { params: { id }, body: { corsOrigins } });
const acao = (h: Headers) => h.get('access-control-allow-origin');
const preflight = (slug: string, origin: string) =>
  call(runOptions, 'OPTIONS', `/api/v1/workflows/${slug}/run`, {
    params: { slug },
    headers: { origin, 'access-control-request-method': 'POST' },
  });
const runAs = (w: { slug: string }, key: string | null, origin?: string) =>
  call(v1Run, 'POST', `/api/v1/workflows/${w.slug}/run`, {
    params: { slug: w.slug },
    body: { inputs: { message: 'x' } },
    headers: { ...(key ? bearer(key) : {}), ...(origin ? { origin } : {}) },
  });

beforeAll(async () => {
  await getApp();
  shop = await published('Shop');
  plain = await published('Plain');
});

describe('per-workflow CORS origins', () => {
  it('are stored normalised, shown with the server default, and survive a re-read', async () => {
    const before = await call(getPublish, 'GET', `/api/workflows/${shop.id}/publish`, { params: { id: shop.id } });
    expect(before.body).toMatchObject({ corsOrigins: null, corsDefault: ['https://default.example'] });
    const set = await setOrigins(shop.id, [`${SHOP}/`, 'HTTP://LOCALHOST:5173', SHOP]);
    expect(set.status, set.text).toBe(200);
    expect(set.body.corsOrigins).toEqual([SHOP, 'http://localhost:5173']);
    expect(set.body.published).toBe(true);
    const after = await call(getPublish, 'GET', `/api/workflows/${shop.id}/publish`, { params: { id: shop.id } });
    expect(after.body.corsOrigins).toEqual([SHOP, 'http://localhost:5173']);
  });

  it("preflight, success and errors (before and after the key check) carry the workflow's own origins", async () => {
    const ok = await preflight(shop.slug, SHOP);
    expect(ok.status).toBe(204);
    expect(acao(ok.headers)).toBe(SHOP);
    expect(ok.headers.get('vary')).toMatch(/Origin/);
    // the default does not apply any more
    expect(acao((await preflight(shop.slug, 'https://default.example')).headers)).toBeNull();

    const run = await runAs(shop, shop.key, SHOP);
    expect(run.status, run.text).toBe(200);
    expect(acao(run.headers)).toBe(SHOP);
    expect(acao((await runAs(shop, shop.key, 'https://evil.example')).headers)).toBeNull();

    const noKey = await runAs(shop, null, SHOP); // refused before any key lookup
    expect(noKey.status).toBe(401);
    expect(acao(noKey.headers)).toBe(SHOP);
    const otherKey = await runAs(shop, plain.key, SHOP); // refused after it
    expect(otherKey.status).toBe(403);
    expect(acao(otherKey.headers)).toBe(SHOP);

    const doc = await call(openapi, 'GET', `/api/v1/workflows/${shop.slug}/openapi.json`, {
      params: { slug: shop.slug },
      headers: { origin: SHOP },
    });
    expect(acao(doc.headers)).toBe(SHOP);

    // Reads of the run follow the run's workflow, with and without a key.
    const runId = run.body.runId as string;
    const read = await call(v1GetRun, 'GET', `/api/v1/runs/${runId}`, {
      params: { runId },
      headers: { ...bearer(shop.key), origin: SHOP },
    });
    expect(read.status).toBe(200);
    expect(acao(read.headers)).toBe(SHOP);
    const unauth = await call(v1GetRun, 'GET', `/api/v1/runs/${runId}`, {
      params: { runId },
      headers: { origin: SHOP },
    });
    expect(unauth.status).toBe(401);
    expect(acao(unauth.headers)).toBe(SHOP);
    const pre = await call(v1RunOptions, 'OPTIONS', `/api/v1/runs/${runId}`, {
      params: { runId },
      headers: { origin: SHOP, 'access-control-request-method': 'GET' },
    });
    expect(acao(pre.headers)).toBe(SHOP);
    const events = await call(v1Events, 'GET', `/api/v1/runs/${runId}/events`, {
      params: { runId },
      headers: { ...bearer(shop.key), origin: SHOP },
    });
    expect(events.status).toBe(200);
    expect(acao(events.headers)).toBe(SHOP);
  });

  it(
    'a workflow without its own list follows the server default; ' + '["*"] allows any origin; [] allows none',
    async () => {
      expect(acao((await preflight(plain.slug, 'https://default.example')).headers)).toBe('https://default.example');
      expect(acao((await runAs(plain, plain.key, SHOP)).headers)).toBeNull();

      await setOrigins(plain.id, ['*']);
      const any = await runAs(plain, plain.key, 'https://anywhere.example');
      expect(acao(any.headers)).toBe('*');

      await setOrigins(plain.id, []);
      expect(acao((await preflight(plain.slug, 'https://default.example')).headers)).toBeNull();
      const none = await runAs(plain, plain.key, SHOP);
      expect(none.status).toBe(200); // CORS is the browser's rule: a server-side caller still gets its answer
      expect(acao(none.headers)).toBeNull();

      await setOrigins(plain.id, null);
      expect(acao((await preflight(plain.slug, 'https://default.example')).headers)).toBe('https://default.example');
    },
  );

  it('refuses malformed origins with the offending path and changes nothing', async () => {
    await setOrigins(shop.id, [SHOP]);
    expectError(await setOrigins(shop.id, [SHOP, 'https://x.example/path']), 400, 'VALIDATION_ERROR', 'corsOrigins[1]');
    expectError(await setOrigins(shop.id, ['ftp://x.example']), 400, 'VALIDATION_ERROR', 'corsOrigins[0]');
    expectError(await setOrigins(shop.id, ['*', SHOP]), 400, 'VALIDATION_ERROR');
    expectError(await setOrigins(shop.id, 'https://x.example'), 400, 'VALIDATION_ERROR', 'corsOrigins');
    expectError(
      await call(patchPublish, 'PATCH', `/api/workflows/${shop.id}/publish`, { params: { id: shop.id }, body: {} }),
      400,
      'VALIDATION_ERROR',
      'corsOrigins',
    );
    const still = await call(getPublish, 'GET', `/api/workflows/${shop.id}/publish`, { params: { id: shop.id } });
    expect(still.body.corsOrigins).toEqual([SHOP]);
    expectError(await setOrigins('wf_missing', [SHOP]), 404, 'WORKFLOW_NOT_FOUND');
  });

  it('never answered 500 or leaked a stack trace', () => {
    expectNoServerErrorsOrStacks();
  });
});
