/**
 * The publish + published-endpoint contract (issue 7), shared by the embedded-store and PostgreSQL test files:
 * publishing snapshots immutable versions under a stable slug; API keys are shown once, stored hashed, scoped to one
 * workflow and revocable at once; the v1 endpoint runs the published version in sync / stream / async mode with
 * idempotency; a run of version 1 resumes on version 1 after version 2 is published; the OpenAPI document validates.
 * The caller points the environment at its database first.
 *
 * The tests run in order and build on each other (publish, then mint keys, then run, then publish version 2 …):
 * publishing and keys in publish-contract-publishing-and-keys.ts, runs and versions in
 * publish-contract-runs-and-versions.ts, the OpenAPI document and CORS here; they share a PublishContract context.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as v1GetRun, OPTIONS as v1RunOptions } from '@/app/api/v1/runs/[runId]/route';
import { GET as openapi } from '@/app/api/v1/workflows/[slug]/openapi.json/route';
import { OPTIONS as runOptions, POST as v1Run } from '@/app/api/v1/workflows/[slug]/run/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectNoServerErrorsOrStacks, simpleGraph } from './api-helpers';
import { greeterGraph, type PublishContract } from './publish-contract-context';
import { publishingAndKeysContract } from './publish-contract-publishing-and-keys';
import { runsAndVersionsContract } from './publish-contract-runs-and-versions';
import { bearer } from './v1-endpoint-helpers';

export { bearer, expectContiguousToTerminal, readSse, type SseFrame } from './v1-endpoint-helpers';

export function publishContractSuite(kind: 'pglite' | 'postgres', onClose?: () => Promise<void>) {
  // Receives completion callbacks; allowlisted for the SSRF guard before the app starts.
  let hook: Server;
  const ctx: PublishContract = {
    kind,
    hookPort: 0,
    callbacks: [],
    wfA: '',
    wfB: '',
    slugA: '',
    keyA: '',
    keyAId: '',
    keyB: '',
    run: (slug, body, headers = {}) =>
      call(v1Run, 'POST', `/api/v1/workflows/${slug}/run`, { params: { slug }, body, headers }),
    v1Get: (runId, key) => call(v1GetRun, 'GET', `/api/v1/runs/${runId}`, { params: { runId }, headers: bearer(key) }),
  };

  beforeAll(async () => {
    hook = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => {
        text += c;
      });
      req.on('end', () => {
        ctx.callbacks.push({ headers: req.headers, body: JSON.parse(text) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    ctx.hookPort = (hook.address() as AddressInfo).port;
    process.env.HTTP_ALLOWLIST = `127.0.0.1:${ctx.hookPort}`;
    await getApp();

    const a = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'Support Greeter!', graph: greeterGraph('Hello {{inputs.message}}') },
    });
    const b = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'Other', graph: simpleGraph('Other {{inputs.message}}') },
    });
    expect([a.status, b.status]).toEqual([201, 201]);
    ctx.wfA = a.body.id;
    ctx.wfB = b.body.id;
  });

  afterAll(async () => {
    await (await getApp()).close();
    hook.closeAllConnections();
    await new Promise<void>((r) => hook.close(() => r()));
    await onClose?.();
  });

  publishingAndKeysContract(ctx);
  runsAndVersionsContract(ctx);

  describe('OpenAPI document', () => {
    it('is valid OpenAPI 3.1 with the start node inputs, response schemas and bearer security', async () => {
      const a = await call(openapi, 'GET', `/api/v1/workflows/${ctx.slugA}/openapi.json`, {
        params: { slug: ctx.slugA },
      });
      expect(a.status, a.text).toBe(200);
      const validator = new Validator();
      const res = await validator.validate(a.body);
      expect(res.errors ?? [], JSON.stringify(res.errors)).toEqual([]);
      expect(res.valid).toBe(true);
      expect(validator.version).toBe('3.1');
      const doc = a.body;
      expect(doc.info).toMatchObject({ title: 'Support Greeter!', version: '2' });
      expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(doc.security).toEqual([{ bearerAuth: [] }]);
      const op = doc.paths[`/api/v1/workflows/${ctx.slugA}/run`].post;
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '202', '400', '401', '403', '429']));
      expect(doc.components.schemas.Inputs).toEqual({
        type: 'object',
        required: ['message'],
        description: expect.any(String),
        properties: { message: { type: 'string', description: 'Who to greet' }, times: { type: 'number' } },
      });
      expect(doc.components.schemas.Outputs.properties).toEqual({ text: {} });
      // The OpenAI-compatible endpoint is described too, with this workflow's slug as the only model.
      expect(doc.paths['/api/v1/chat/completions'].post.operationId).toBe('chatCompletions');
      expect(doc.components.schemas.ChatRequest.properties.model).toEqual({ type: 'string', const: ctx.slugA });
      // Nothing inside the workflow leaks: no template text.
      expect(a.text).not.toContain('{{');

      // The request schema accepts what the server accepts and rejects what it rejects.
      const ajv = new Ajv2020({ strict: false });
      const inputs = ajv.compile(doc.components.schemas.Inputs);
      expect(inputs({ message: 'hi', times: 2 })).toBe(true);
      expect(inputs({ times: 2 })).toBe(false);
      expect(inputs({ message: 3 })).toBe(false);

      const v1 = await call(openapi, 'GET', `/api/v1/workflows/${ctx.slugA}/openapi.json?version=1`, {
        params: { slug: ctx.slugA },
      });
      expect(v1.body.info.version).toBe('1');
    });
  });

  describe('CORS', () => {
    it('answers the preflight and marks every answer, errors included', async () => {
      for (const [h, path] of [
        [runOptions, `/api/v1/workflows/${ctx.slugA}/run`],
        [v1RunOptions, '/api/v1/runs/run_x'],
      ] as const) {
        const res = await h(
          new Request(`http://localhost${path}`, {
            method: 'OPTIONS',
            headers: {
              origin: 'https://app.example',
              'access-control-request-method': 'POST',
              'access-control-request-headers': 'authorization, content-type',
            },
          }),
        );
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('access-control-allow-headers')).toMatch(/authorization/);
        expect(res.headers.get('access-control-allow-headers')).toMatch(/idempotency-key/);
      }
      const denied = await ctx.run(ctx.slugA, { inputs: {} });
      expect(denied.headers.get('access-control-allow-origin')).toBe('*');
      expect(denied.headers.get('access-control-expose-headers')).toMatch(/www-authenticate/);
    });
  });

  it('never answered 500 or leaked a stack trace', () => {
    expectNoServerErrorsOrStacks();
  });
}
