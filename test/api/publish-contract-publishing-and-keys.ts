/**
 * The publish contract, part 1: publishing (immutable versions under a stable slug, invalid drafts refused,
 * concurrent publishes) and API keys (shown once, stored hashed, scoped to one workflow, revocable at once).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DELETE as revokeKey } from '@/app/api/api-keys/[id]/route';
import { GET as listKeys, POST as createKey } from '@/app/api/workflows/[id]/api-keys/route';
import { GET as publishStatus, POST as publish } from '@/app/api/workflows/[id]/publish/route';
import { PUT as putWf } from '@/app/api/workflows/[id]/route';
import { GET as listVersions } from '@/app/api/workflows/[id]/versions/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, simpleGraph } from './api-helpers';
import type { PublishContract } from './publish-contract-context';
import { bearer } from './v1-endpoint-helpers';
import { databaseOf } from '../support/database-of';

export function publishingAndKeysContract(ctx: PublishContract) {
  describe('publishing', () => {
    it('snapshots the draft as version 1 under a slug derived from the name', async () => {
      const p = await call(publish, 'POST', `/api/workflows/${ctx.wfA}/publish`, { params: { id: ctx.wfA } });
      expect(p.status, p.text).toBe(201);
      expect(p.body).toMatchObject({
        version: 1,
        slug: 'support-greeter',
        published: true,
        versionId: expect.stringMatching(/^ver_/),
      });
      expect(p.body.endpoint).toBe('http://localhost/api/v1/workflows/support-greeter/run');
      ctx.slugA = p.body.slug;
      const s = await call(publishStatus, 'GET', `/api/workflows/${ctx.wfA}/publish`, { params: { id: ctx.wfA } });
      expect(s.body).toMatchObject({ published: true, version: 1, slug: ctx.slugA });
    });

    it('refuses an invalid draft with 422, the problem code and its path; nothing is published', async () => {
      const bad = simpleGraph('Hello {{nowhere.output.text}}');
      const c = await call(createWf, 'POST', '/api/workflows?draft=1', { body: { name: 'Broken', graph: bad } });
      expect(c.status, c.text).toBe(201);
      const p = await call(publish, 'POST', `/api/workflows/${c.body.id}/publish`, { params: { id: c.body.id } });
      const err = expectError(p, 422, p.body?.error?.code);
      expect(err.code).toMatch(/^[A-Z_]+$/);
      expect(err.path).toMatch(/^graph\.nodes\[1\]/);
      const v = await call(listVersions, 'GET', `/api/workflows/${c.body.id}/versions`, { params: { id: c.body.id } });
      expect(v.body).toMatchObject({ published: false, slug: null, versions: [] });
    });

    it('takes an explicit slug once; it then never changes, and a taken or malformed slug is refused', async () => {
      const p = await call(publish, 'POST', `/api/workflows/${ctx.wfB}/publish`, {
        params: { id: ctx.wfB },
        body: { slug: 'other-flow' },
      });
      expect(p.status, p.text).toBe(201);
      expect(p.body.slug).toBe('other-flow');
      expectError(
        await call(publish, 'POST', `/api/workflows/${ctx.wfB}/publish`, {
          params: { id: ctx.wfB },
          body: { slug: 'renamed' },
        }),
        409,
        'SLUG_IMMUTABLE',
        'slug',
      );
      const c = await call(createWf, 'POST', '/api/workflows', {
        body: { name: 'Support Greeter', graph: simpleGraph() },
      });
      expectError(
        await call(publish, 'POST', `/api/workflows/${c.body.id}/publish`, {
          params: { id: c.body.id },
          body: { slug: 'other-flow' },
        }),
        409,
        'SLUG_TAKEN',
        'slug',
      );
      expectError(
        await call(publish, 'POST', `/api/workflows/${c.body.id}/publish`, {
          params: { id: c.body.id },
          body: { slug: 'Bad Slug' },
        }),
        400,
        'VALIDATION_ERROR',
        'slug',
      );
      // Same name as workflow A: the derived slug gets a suffix.
      const d = await call(publish, 'POST', `/api/workflows/${c.body.id}/publish`, { params: { id: c.body.id } });
      expect(d.body.slug).toBe('support-greeter-2');
      // Renaming does not move the endpoint.
      await call(putWf, 'PUT', `/api/workflows/${ctx.wfB}`, { params: { id: ctx.wfB }, body: { name: 'Renamed' } });
      expect(
        (await call(publish, 'POST', `/api/workflows/${ctx.wfB}/publish`, { params: { id: ctx.wfB } })).body,
      ).toMatchObject({ slug: 'other-flow', version: 2 });
    });
    it('concurrent publishes of one workflow get distinct consecutive versions (no 5xx)', async () => {
      const c = await call(createWf, 'POST', '/api/workflows', { body: { name: 'Racer', graph: simpleGraph() } });
      const all = await Promise.all(
        Array.from({ length: 5 }, () =>
          call(publish, 'POST', `/api/workflows/${c.body.id}/publish`, { params: { id: c.body.id } }),
        ),
      );
      expect(all.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
      expect(all.map((a) => a.body.version).sort()).toEqual([1, 2, 3, 4, 5]);
      expect(new Set(all.map((a) => a.body.slug))).toEqual(new Set(['racer']));
    });
  });

  describe('API keys', () => {
    it('are shown once as pf_ + 32 random bytes and stored only as a sha256 hash', async () => {
      const k = await call(createKey, 'POST', `/api/workflows/${ctx.wfA}/api-keys`, {
        params: { id: ctx.wfA },
        body: { name: 'ci' },
      });
      expect(k.status, k.text).toBe(201);
      expect(k.body).toMatchObject({ id: expect.any(String), name: 'ci', createdAt: expect.any(String) });
      expect(k.body.key).toMatch(/^pf_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(k.body.key.slice(3), 'base64url')).toHaveLength(32);
      expect(k.body.prefix).toBe(k.body.key.slice(0, 10));
      ctx.keyA = k.body.key;
      ctx.keyAId = k.body.id;
      const kb = await call(createKey, 'POST', `/api/workflows/${ctx.wfB}/api-keys`, { params: { id: ctx.wfB } });
      ctx.keyB = kb.body.key;

      const rows = await databaseOf(await getApp()).prisma.apiKey.findMany({ where: { id: ctx.keyAId } });
      expect(rows[0].hash).toBe(createHash('sha256').update(ctx.keyA).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(ctx.keyA.slice(3));

      const list = await call(listKeys, 'GET', `/api/workflows/${ctx.wfA}/api-keys`, { params: { id: ctx.wfA } });
      expect(list.status).toBe(200);
      expect(list.body).toEqual([
        {
          id: ctx.keyAId,
          name: 'ci',
          prefix: ctx.keyA.slice(0, 10),
          createdAt: expect.any(String),
          lastUsedAt: null,
          revokedAt: null,
        },
      ]);
      expect(list.text).not.toContain(ctx.keyA.slice(10));
    });

    it('401 with a Bearer challenge without a key, with a wrong or malformed key, and with a revoked key', async () => {
      const none = await ctx.run(ctx.slugA, { inputs: { message: 'x' } });
      expectError(none, 401, 'UNAUTHORIZED');
      expect(none.headers.get('www-authenticate')).toBe('Bearer realm="paiflow"');
      for (const key of [`pf_${'A'.repeat(43)}`, 'pf_short', ctx.keyA.toUpperCase()]) {
        const wrong = await ctx.run(ctx.slugA, { inputs: { message: 'x' } }, bearer(key));
        expectError(wrong, 401, 'UNAUTHORIZED');
        expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
      }
      expectError(
        await ctx.run(ctx.slugA, { inputs: { message: 'x' } }, { authorization: `Basic ${ctx.keyA}` }),
        401,
        'UNAUTHORIZED',
      );

      const temp = await call(createKey, 'POST', `/api/workflows/${ctx.wfA}/api-keys`, { params: { id: ctx.wfA } });
      expect((await ctx.run(ctx.slugA, { inputs: { message: 'x' } }, bearer(temp.body.key))).status).toBe(200);
      const r = await call(revokeKey, 'DELETE', `/api/api-keys/${temp.body.id}`, { params: { id: temp.body.id } });
      expect(r.status).toBe(200);
      expect(r.body.revokedAt).toEqual(expect.any(String));
      expectError(await ctx.run(ctx.slugA, { inputs: { message: 'x' } }, bearer(temp.body.key)), 401, 'UNAUTHORIZED');
      expectError(
        await call(revokeKey, 'DELETE', '/api/api-keys/key_nope', { params: { id: 'key_nope' } }),
        404,
        'API_KEY_NOT_FOUND',
      );
    });

    it("403 with another workflow's key; lastUsedAt records use", async () => {
      expectError(await ctx.run(ctx.slugA, { inputs: { message: 'x' } }, bearer(ctx.keyB)), 403, 'FORBIDDEN');
      expect((await ctx.run(ctx.slugA, { inputs: { message: 'x' } }, bearer(ctx.keyA))).status).toBe(200);
      const until = Date.now() + 5000;
      let used = null;
      while (!used && Date.now() < until) {
        const list = await call(listKeys, 'GET', `/api/workflows/${ctx.wfA}/api-keys`, { params: { id: ctx.wfA } });
        used = list.body.find((k: any) => k.id === ctx.keyAId).lastUsedAt;
        if (!used) await new Promise((ok) => setTimeout(ok, 20));
      }
      expect(used).toEqual(expect.any(String));
    });
  });
}
