import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native/WASM database drivers and the generated Prisma runtime stay as plain Node requires.
  serverExternalPackages: ['@electric-sql/pglite', 'pglite-prisma-adapter', '@prisma/client', '@prisma/adapter-pg', 'pg', 'undici', 're2js', 'ioredis'],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
