// Prisma 7's CLI downloads a schema-engine binary on every command and fails offline.
// `generate` does not need that engine, so we point it at /bin/true (see shared ENVIRONMENT.md).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
if (!existsSync('prisma/schema.prisma')) process.exit(0);
const r = spawnSync('npx', ['prisma', 'generate'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? '/bin/true',
    CHECKPOINT_DISABLE: '1',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  },
});
process.exit(r.status ?? 1);
