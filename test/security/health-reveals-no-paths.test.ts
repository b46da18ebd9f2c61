// Guarantees: GET /api/health tells anyone which implementation each part uses and whether it works, but no file
// path or host; a signed-in admin also gets `details` (data folder, hosts), a viewer does not; it answers 503 naming
// the part that is down (`down.db`, `down.bus`) instead of a green light or a 500.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as accept } from '@/app/api/auth/accept-invite/route';
import { GET as health } from '@/app/api/health/route';
import { POST as invite } from '@/app/api/workspaces/[id]/invitations/route';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { getApp } from '@/lib/server/app';
import { call, useFreshDataDir } from '../api/api-helpers';

let dataDir: string;
beforeAll(() => {
  dataDir = useFreshDataDir('paiflow-health-');
});
afterAll(async () => {
  await (await getApp()).close();
});

describe('GET /api/health', () => {
  it('anonymous: kinds and liveness, no path', async () => {
    const a = await call(health, 'GET', '/api/health', { anonymous: true });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ ok: true, db: 'pglite', bus: 'in-process', down: {} });
    expect(a.body.search).toMatch(/^embedded hybrid index/);
    expect(a.body.details).toBeUndefined();
    expect(a.text).not.toContain(dataDir);
    expect(a.text).not.toContain(path.basename(dataDir));
  });

  it('an admin (here the owner) also sees where the parts live', async () => {
    const a = await call(health, 'GET', '/api/health');
    expect(a.status).toBe(200);
    expect(a.body.details).toMatchObject({ dataDir: path.resolve(dataDir), database: null, redis: null });
    expect(a.body.details.search).toContain(path.resolve(dataDir));
  });

  it('a viewer does not', async () => {
    const inv = await call(invite, 'POST', `/api/workspaces/${DEFAULT_WORKSPACE_ID}/invitations`, {
      params: { id: DEFAULT_WORKSPACE_ID },
      body: { email: 'viewer@example.test', role: 'viewer' },
    });
    expect(inv.status, inv.text).toBe(201);
    const joined = await call(accept, 'POST', '/api/auth/accept-invite', {
      body: { token: inv.body.token, name: 'Viewer', password: 'viewer-password-1' },
    });
    expect(joined.status, joined.text).toBe(201);
    const cookie = /paiflow_session=[^;]+/.exec(joined.headers.get('set-cookie') ?? '')![0];
    const a = await call(health, 'GET', '/api/health', { headers: { cookie } });
    expect(a.status).toBe(200);
    expect(a.body.details).toBeUndefined();
  });

  it('503 naming the part that is down: the event bus, the database', async () => {
    const app = await getApp();
    const bus = vi.spyOn(app.bus, 'status').mockReturnValue({ ok: false, reason: 'redis connection reconnecting' });
    const a = await call(health, 'GET', '/api/health', { anonymous: true });
    bus.mockRestore();
    expect(a.status).toBe(503);
    expect(a.body).toMatchObject({ ok: false, down: { bus: 'redis connection reconnecting' } });

    const db = vi.spyOn(app.stores, 'ping').mockRejectedValue(new Error('connection refused'));
    const b = await call(health, 'GET', '/api/health', { anonymous: true });
    db.mockRestore();
    expect(b.status).toBe(503);
    expect(b.body.ok).toBe(false);
    expect(b.body.down.db).toMatch(/database/);
    expect(b.text).not.toContain('connection refused');

    expect((await call(health, 'GET', '/api/health', { anonymous: true })).status).toBe(200);
  });
});
