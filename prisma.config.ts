import { defineConfig } from 'prisma/config';

// Only `prisma generate` is used (see scripts/prisma-generate.mjs); migrations are applied by
// engine/store/prisma/migrator.ts.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
