// Guarantee: changing the password ends every credential a thief may have taken with the old one. A personal access
// token (`pat_…`) that worked before POST /api/auth/password answers 401 after it, and stays listed as revoked; the
// session that made the change keeps working, and a token minted after the change works.
import { afterAll, expect, it } from 'vitest';
import { POST as changePassword } from '@/app/api/auth/password/route';
import { POST as setup } from '@/app/api/auth/setup/route';
import { GET as listTokens, POST as createToken } from '@/app/api/auth/tokens/route';
import { GET as listWorkflows } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, useFreshDataDir } from '../api/api-helpers';

useFreshDataDir('paiflow-password-pats-');
process.env.SEED_EXAMPLE = '0';

afterAll(async () => {
  await (await getApp()).close();
});

const OWNER = { email: 'owner@example.test', password: 'first-password-1', name: 'Owner' };

it('a PAT that worked before a password change gets 401 after it', async () => {
  const s = await call(setup, 'POST', '/api/auth/setup', { body: OWNER });
  expect(s.status, s.text).toBe(201);
  const cookie = /paiflow_session=[^;]+/.exec(s.headers.get('set-cookie') ?? '')![0];
  const mint = async (name: string) => {
    const t = await call(createToken, 'POST', '/api/auth/tokens', { body: { name }, headers: { cookie } });
    expect(t.status, t.text).toBe(201);
    return t.body as { id: string; token: string };
  };
  const list = (headers: Record<string, string>) => call(listWorkflows, 'GET', '/api/workflows', { headers });
  const ci = await mint('ci');
  const laptop = await mint('laptop');
  for (const t of [ci, laptop]) expect((await list({ authorization: `Bearer ${t.token}` })).status).toBe(200);

  const changed = await call(changePassword, 'POST', '/api/auth/password', {
    body: { currentPassword: OWNER.password, newPassword: 'second-password-2' },
    headers: { cookie },
  });
  expect(changed.status, changed.text).toBe(204);

  for (const t of [ci, laptop]) {
    const after = await list({ authorization: `Bearer ${t.token}` });
    expect({ status: after.status, code: after.body?.error?.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
  }
  const listed = await call(listTokens, 'GET', '/api/auth/tokens', { headers: { cookie } });
  expect(listed.status, listed.text).toBe(200);
  for (const t of [ci, laptop])
    expect(listed.body.find((r: { id: string }) => r.id === t.id)?.revokedAt).toEqual(expect.any(String));

  // The session that changed the password stays signed in, and a token minted afterwards works.
  expect((await list({ cookie })).status).toBe(200);
  const fresh = await mint('after the change');
  expect((await list({ authorization: `Bearer ${fresh.token}` })).status).toBe(200);
});
