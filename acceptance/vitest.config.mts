/**
 * The black-box acceptance suite (acceptance/**): journeys an outside client walks against the production server
 * (`npm run build && npm start`), over HTTP and SSE only. ACCEPTANCE_PROFILE picks how the server runs (embedded |
 * postgres | queue); scripts/test-acceptance.mjs runs all three. Nothing here may import app/, lib/ or engine/
 * (eslint enforces it).
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    pool: 'forks',
    maxWorkers: 2,
    // Journeys share one server; each makes its own workflows and knowledge bases, so files may run side by side.
    fileParallelism: true,
    env: { NEXT_TELEMETRY_DISABLED: '1' },
  },
});
