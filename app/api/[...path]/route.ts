import { route } from '@/lib/http/errors';
import { PaiError } from '@/engine/errors';

export const dynamic = 'force-dynamic';

/** Any /api/ path no route serves: a JSON 404 (never the editor's HTML page), whoever asks. */
const notFound = route(async (req: Request) => {
  const { pathname } = new URL(req.url);
  throw new PaiError('NOT_FOUND', `no API route ${req.method} ${pathname}`);
});

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
