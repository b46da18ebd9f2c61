import { createDefaultRegistry } from '@/engine/nodes/registry';
import { route } from '@/lib/http/errors';

// The registry is static: no database needed to describe it.
const types = createDefaultRegistry().describe();

export const GET = route(async () => Response.json(types));
