/**
 * Zod's fast path compiles parsers with `new Function`, after probing whether the page allows it. The pages' CSP
 * does not (lib/http/page-security.ts: no 'unsafe-eval'), so the probe only reported a violation in the console;
 * jitless mode skips the probe and parses the same. Imported first by the client modules that parse with zod.
 */
import { z } from 'zod';

z.config({ jitless: true });
