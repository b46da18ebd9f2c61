import { PaiError } from '@/engine/errors';
import { guarded } from '@/lib/server/auth/guard';
import { presentKey } from '@/lib/server/publishing/api-keys';
import { auditAction } from '@/lib/server/auth/audit';

export const dynamic = 'force-dynamic';

/** Revokes a key; the next request bearing it gets 401 (keys are checked against the database on every request). */
export const DELETE = guarded(
  'admin',
  async (req, { params }: { params: Promise<{ id: string }> }, { app, caller }) => {
    const { id } = await params;
    const key = await app.store.revokeApiKey(id, caller.workspaceId);
    if (!key) throw new PaiError('API_KEY_NOT_FOUND', `API key ${id} not found`);
    await auditAction(app.stores.audit, caller, req, 'api_key.revoked', id, { workflowId: key.workflowId });
    return Response.json(presentKey(key));
  },
);
