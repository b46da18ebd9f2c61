import { getApp } from '@/lib/server/app';
import { route } from '@/lib/http/errors';

export const dynamic = 'force-dynamic';

/** The registry the engine validates with, so the palette never offers a type the server would refuse. */
export const GET = route(async () => Response.json((await getApp()).registry.describe()));
