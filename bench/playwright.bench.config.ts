/**
 * Editor benchmark (bench/editor.bench.ts) in Debian's Chromium against a production build of the app.
 * Run: `npm run bench:editor` (= node scripts/test-e2e.mjs --config bench/playwright.bench.config.ts).
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS, e2eEnv, webServers } from '../e2e/support/environment';

const env = e2eEnv();

export default defineConfig({
  testDir: '.',
  testMatch: 'editor.bench.ts',
  outputDir: '../test-results/bench',
  timeout: 240_000,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  globalSetup: '../e2e/support/global-setup.ts',
  globalTeardown: '../e2e/support/global-teardown.ts',
  use: {
    baseURL: env.baseURL,
    storageState: env.authFile,
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
  },
  webServer: webServers(env),
});
