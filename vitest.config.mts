import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.dirname(fileURLToPath(import.meta.url)) } },
  test: {
    include: [
      'components/**/*.test.ts',
      'engine/**/*.test.ts',
      'lib/**/*.test.ts',
      'test/**/*.test.ts',
      'app/**/*.test.ts',
    ],
    exclude: ['e2e/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['./test/support/vitest-global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    env: { NEXT_TELEMETRY_DISABLED: '1', CHECKPOINT_DISABLE: '1' },
  },
});
