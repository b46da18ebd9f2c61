import { PaiError } from '@/engine/errors';
import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { presentKey } from '@/lib/server/api-keys';

export const dynamic = 'force-dynamic';

/** Revokes a key; the next request bearing it gets 401 (keys are checked against the database on every request). */
export const DELETE = route(async (_req, { params }: { params: Promise<{ id: string }> }) => {
  const app = await getApp();
  const { id } = await params;
  const key = await app.store.revokeApiKey(id);
  if (!key) throw new PaiError('API_KEY_NOT_FOUND', `API key ${id} not found`, { status: 404 });
  return Response.json(presentKey(key));
});
