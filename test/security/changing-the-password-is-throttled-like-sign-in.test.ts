// Guarantee: a stolen session is not a password oracle. Checking the current password on POST /api/auth/password
// counts toward the same per-account throttle as sign-in: after 10 wrong guesses the change answers 429
// TOO_MANY_ATTEMPTS with Retry-After — the right password included — and so does a sign-in to that account.
import { afterAll, expect, it } from 'vitest';
import { POST as login } from '@/app/api/auth/login/route';
import { POST as changePassword } from '@/app/api/auth/password/route';
import { POST as setup } from '@/app/api/auth/setup/route';
import { getApp } from '@/lib/server/app';
import { call, useFreshDataDir } from '../api/api-helpers';
import { databaseOf } from '../support/database-of';

useFreshDataDir('paiflow-password-throttle-');
process.env.SEED_EXAMPLE = '0';

afterAll(async () => {
  await (await getApp()).close();
});

const OWNER = { email: 'owner@example.test', password: 'right-password-1', name: 'Owner' };

it('10 wrong current passwords → 429 with Retry-After, for the right one too and for sign-in', async () => {
  const s = await call(setup, 'POST', '/api/auth/setup', { body: OWNER });
  expect(s.status).toBe(201);
  const cookie = /paiflow_session=[^;]+/.exec(s.headers.get('set-cookie') ?? '')![0];
  const app = await getApp();
  const hashOf = async () =>
    (await databaseOf(app).prisma.user.findUniqueOrThrow({ where: { email: OWNER.email } })).passwordHash;
  const before = await hashOf();
  const change = (currentPassword: string) =>
    call(changePassword, 'POST', '/api/auth/password', {
      body: { currentPassword, newPassword: 'next-password-2' },
      headers: { cookie },
    });

  for (let i = 0; i < 10; i++) {
    const wrong = await change(`guess-number-${i}`);
    expect({ status: wrong.status, code: wrong.body.error.code }).toEqual({
      status: 400,
      code: 'INVALID_CREDENTIALS',
    });
  }
  const blocked = await change(OWNER.password);
  expect({ status: blocked.status, code: blocked.body.error.code }).toEqual({ status: 429, code: 'TOO_MANY_ATTEMPTS' });
  expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);

  const signIn = await call(login, 'POST', '/api/auth/login', {
    body: { email: OWNER.email, password: OWNER.password },
  });
  expect(signIn.status).toBe(429);

  // The password did not change: the blocked request never reached the check.
  expect(await hashOf()).toBe(before);
});
