import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';
import { serveDirectly } from '@/lib/http/direct-routes';
import { handleWebhook } from '@/lib/server/triggers/webhook';

export const dynamic = 'force-dynamic';
type Ctx = { params: Promise<{ hookId: string }> };

/**
 * A webhook trigger's URL: authorised by the trigger's own secret or signature, never by a session (so it is public
 * in the route walk). Any method an outside system sends a payload with; GET carries only its query.
 */
const handler = route<Ctx>(async (req, { params }) => handleWebhook(await getApp(), req, (await params).hookId));

export const POST = handler;
export const PUT = handler;
export const PATCH = handler;
export const GET = handler;

serveDirectly('/api/hooks/:hookId', { POST, PUT, GET });
