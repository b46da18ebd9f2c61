/**
 * End-to-end suite (e2e/*.spec.ts) in Debian's Chromium against a fresh app: its own port and DATA_DIR.
 * Run with `npm run test:e2e` (or `npx playwright test`). See e2e/support/environment.ts for the servers.
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS, e2eEnv, webServers } from './e2e/support/environment';

const env = e2eEnv();

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // Two spec files at a time, each in its own worker and browser. They share the app, its data and the owner's
  // session: every spec makes the workflows, credentials and users it reads (names made unique), and asserts nothing
  // about what another spec may be doing at the same moment (the inbox spec reads the count the page was sent). A
  // file's own tests run in order. E2E_WORKERS=1 runs one file at a time.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS || 2),
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  globalSetup: './e2e/support/global-setup.ts',
  globalTeardown: './e2e/support/global-teardown.ts',
  use: {
    baseURL: env.baseURL,
    // Every page and `request` starts signed in as the owner; a spec about signing in opens a context without it.
    storageState: env.authFile,
    viewport: { width: 1440, height: 900 },
    // The UI follows Accept-Language: specs read English unless they ask for Chinese (test.use({ locale: 'zh-CN' })).
    locale: 'en-US',
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
  },
  webServer: webServers(env),
});
